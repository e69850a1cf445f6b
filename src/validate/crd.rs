/*!
The API server's own validation of a ClusterClass or Cluster against Cluster API's
CustomResourceDefinition, when the input holds that CRD (`clusterclasses.cluster.x-k8s.io`,
`clusters.cluster.x-k8s.io`, e.g. from `kubectl get crd -o yaml` or Cluster API's release
manifests).

Before any validating webhook sees an object, the API server checks it against the OpenAPI
schema of the CRD version it was written in — enums, lengths, item counts, patterns, required
fields, formats — and runs the CRD's `x-kubernetes-validations` CEL rules. Errors there reject
the request, so the webhooks never run. Cluster API's CRDs carry many such limits (for example
`jsonPatches[].op` is an enum and a variable schema's `type` is one); without the CRD in the
input topoplan knows only the webhooks' rules, and the README says so.

Only `spec` is checked: `metadata` is the API server's own business and `status` is not written
by users. The schema is read by [`crate::schema::props`], which knows the keywords of variable
schemas; CRD-only keywords (`nullable`, list and map types) are not applied.
*/

use serde_json::Value;

use crate::k8s::field::{FieldError, Path};
use crate::load::Object;
use crate::schema::props::Schema;
use crate::schema::{RUNTIME_CEL_COST_BUDGET, cel, value};

/// The `openAPIV3Schema` of `spec` for objects of `kind` in `api_version`, from a Cluster API
/// CRD among `objects`; `None` when the input holds no such CRD (or it has no such version).
pub fn spec_schema<'a>(
    objects: impl IntoIterator<Item = &'a Object>,
    kind: &str,
    api_version: &str,
) -> Option<&'a Value> {
    let (group, version) = api_version.split_once('/')?;
    objects
        .into_iter()
        .filter(|o| is_crd(o))
        .filter(|o| {
            o.value.pointer("/spec/group").and_then(Value::as_str) == Some(group)
                && o.value.pointer("/spec/names/kind").and_then(Value::as_str) == Some(kind)
        })
        .find_map(|crd| {
            crd.value
                .pointer("/spec/versions")
                .and_then(Value::as_array)?
                .iter()
                .find(|v| v.get("name").and_then(Value::as_str) == Some(version))?
                .pointer("/schema/openAPIV3Schema/properties/spec")
        })
}

/// Whether `o` is a CustomResourceDefinition.
pub fn is_crd(o: &Object) -> bool {
    o.kind == "CustomResourceDefinition" && o.group() == "apiextensions.k8s.io"
}

/// Validate the `spec` of `object` against `schema` (the CRD's schema of `spec`): OpenAPI value
/// validation, then the CRD's CEL rules (with `old_spec` for transition rules on update).
pub fn validate(schema: &Value, object: &Object, old_spec: Option<&Value>) -> Vec<FieldError> {
    let path = Path::new("spec");
    let spec = object.value.get("spec").unwrap_or(&Value::Null);
    let parsed = match Schema::parse(schema, &Path::new("openAPIV3Schema")) {
        Ok(s) => s,
        Err(errs) => {
            // A CRD we cannot read is a problem of the input, not of the object.
            return errs
                .into_iter()
                .map(|e| {
                    FieldError::internal(
                        &path,
                        format!("the CustomResourceDefinition's schema cannot be read: {e}"),
                    )
                })
                .collect();
        }
    };
    let errs = value::validate_custom_resource(&path, spec, &parsed);
    if !errs.is_empty() {
        return errs;
    }
    cel::validate(schema, spec, old_spec, &path, RUNTIME_CEL_COST_BUDGET)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{Origin, SourceFile, SpanTable};
    use serde_json::json;
    use std::sync::Arc;

    fn object(v: Value) -> Object {
        let origin = Origin {
            file: SourceFile::new("t.yaml", ""),
            spans: Arc::new(SpanTable::default()),
        };
        Object::new(v, origin, "default").unwrap_or_else(|e| panic!("{e}"))
    }

    fn crd() -> Object {
        object(json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "clusterclasses.cluster.x-k8s.io"},
            "spec": {"group": "cluster.x-k8s.io", "names": {"kind": "ClusterClass"},
              "versions": [{"name": "v1beta2", "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": {"type": "object", "properties": {
                  "patches": {"type": "array", "maxItems": 2, "items": {"type": "object",
                    "required": ["name"],
                    "properties": {"name": {"type": "string", "maxLength": 5}}}}},
                  "x-kubernetes-validations": [{"rule": "!has(self.patches) || size(self.patches) > 0", "message": "no empty patches"}]
                }}}}}]}
        }))
    }

    #[test]
    fn spec_is_checked_against_the_crd_version() {
        let objects = vec![crd()];
        let schema = spec_schema(&objects, "ClusterClass", "cluster.x-k8s.io/v1beta2");
        assert!(schema.is_some());
        assert!(spec_schema(&objects, "ClusterClass", "cluster.x-k8s.io/v1beta1").is_none());
        assert!(spec_schema(&objects, "Cluster", "cluster.x-k8s.io/v1beta2").is_none());
        let schema = schema.cloned().unwrap_or_default();
        let cc = |spec: Value| {
            object(
                json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "ClusterClass",
                "metadata": {"name": "c"}, "spec": spec}),
            )
        };
        let msgs = |spec: Value| -> Vec<String> {
            validate(&schema, &cc(spec), None)
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        assert!(msgs(json!({"patches": [{"name": "a"}]})).is_empty());
        assert_eq!(
            msgs(json!({"patches": [{"name": "toolong"}, {}]})),
            vec![
                "spec.patches[0].name: Too long: may not be more than 5 bytes",
                "spec.patches[1].name: Required value",
            ]
        );
        assert_eq!(
            msgs(json!({"patches": []})),
            // Kubernetes omits object and list values from CEL rule errors.
            vec!["spec: Invalid value: no empty patches"]
        );
    }
}
