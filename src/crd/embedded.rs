/*!
Validation of embedded resources (`objectmeta.Validate(nil, obj, s, isResourceRoot=false)`): at
every `x-kubernetes-embedded-resource` object, `apiVersion` and `kind` are required strings (a
group/version, and a kind that lower-cased is a DNS-1035 label), and `metadata` must decode as
ObjectMeta and pass `ValidateObjectMeta` with path-segment names.

Owns [`validate_embedded`] and that ObjectMeta check ([`object_meta`]): `generateName` and `name`
as URL path segments (`name or generateName is required` when both are empty, which cannot
happen here: the API server names an unnamed embedded object `fakename` first), a namespace,
when set, a DNS-1123 label, `generation` not negative, labels, annotations, owner references
(version, kind, name and uid set; at most one controller; no `v1` `Event` owner) and finalizer
names (not both `orphan` and `foregroundDeletion`), with the messages of apimachinery's
`ValidateObjectMetaAccessor`. `managedFields` are not validated.
*/

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::objectmeta;
use super::structural::Structural;
use crate::k8s::field::{BadValue, FieldError, Path};
use crate::k8s::validation;
use crate::schema::props::Schema;

/// The field errors of every embedded resource in `obj` (see the module docs).
pub fn validate_embedded(obj: &Value, s: &Structural) -> Vec<FieldError> {
    let mut errs = Vec::new();
    walk(&Path::root(), obj, &s.schema, &mut errs);
    errs
}

fn walk(path: &Path, x: &Value, s: &Schema, errs: &mut Vec<FieldError>) {
    match x {
        Value::Object(m) => {
            if s.crd_keywords().embedded_resource {
                embedded_resource(path, m, errs);
            }
            for (k, v) in m {
                if let Some(p) = s.properties.get(k) {
                    walk(&path.child(k), v, p, errs);
                } else if let Some(ap) = s.additional_properties.as_deref() {
                    walk(&path.key(k), v, ap, errs);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = s.items.as_deref() {
                for (i, v) in a.iter().enumerate() {
                    walk(&path.index(i), v, items, errs);
                }
            }
        }
        _ => {}
    }
}

/// `schema.ParseGroupVersion`'s error.
fn parse_group_version(gv: &str) -> Result<(&str, &str), String> {
    if gv.is_empty() || gv == "/" {
        return Ok(("", ""));
    }
    match gv.matches('/').count() {
        0 => Ok(("", gv)),
        1 => Ok(gv.split_once('/').unwrap_or(("", gv))),
        _ => Err(format!("unexpected GroupVersion string: {gv}")),
    }
}

/// `validateEmbeddedResource`.
fn embedded_resource(path: &Path, m: &Map<String, Value>, errs: &mut Vec<FieldError>) {
    for k in ["apiVersion", "kind"] {
        if !m.contains_key(k) {
            errs.push(FieldError::required(&path.child(k), ""));
        }
    }
    for (k, v) in m {
        let at = path.child(k);
        match k.as_str() {
            "apiVersion" => match v {
                Value::String(s) if s.is_empty() => {
                    errs.push(FieldError::invalid(&at, "", "must not be empty"));
                }
                Value::String(s) => {
                    if let Err(e) = parse_group_version(s) {
                        errs.push(FieldError::invalid(&at, s.as_str(), e));
                    }
                }
                other => errs.push(FieldError::invalid(
                    &at,
                    BadValue::from_json_int(other),
                    "must be a string",
                )),
            },
            "kind" => match v {
                Value::String(s) if s.is_empty() => {
                    errs.push(FieldError::invalid(&at, "", "must not be empty"));
                }
                Value::String(s) => {
                    let problems = validation::dns1035_label(&s.to_lowercase());
                    if !problems.is_empty() {
                        errs.push(FieldError::invalid(
                            &at,
                            s.as_str(),
                            format!(
                                "may have mixed case, but should otherwise match: {}",
                                problems.join(",")
                            ),
                        ));
                    }
                }
                other => errs.push(FieldError::invalid(
                    &at,
                    BadValue::from_json_int(other),
                    "must be a string",
                )),
            },
            "metadata" => match objectmeta::decode(v, Some(path)) {
                Err(e) => errs.push(FieldError::invalid(&at, BadValue::from_json_int(v), e)),
                Ok(d) => errs.extend(object_meta(&d.meta, &at)),
            },
            _ => {}
        }
    }
}

fn string<'m>(m: &'m Map<String, Value>, k: &str) -> &'m str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

fn string_map(m: &Map<String, Value>, k: &str) -> BTreeMap<String, String> {
    m.get(k)
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// `ValidateObjectMeta(meta, requiresNamespace=namespace set, ValidatePathSegmentName, path)` on a
/// decoded metadata map ([`objectmeta::decode`]).
pub fn object_meta(meta: &Map<String, Value>, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let generate_name = string(meta, "generateName");
    if !generate_name.is_empty() {
        for msg in validation::path_segment_prefix(generate_name) {
            errs.push(FieldError::invalid(
                &path.child("generateName"),
                generate_name,
                msg,
            ));
        }
    }
    // An unnamed embedded object is checked as `fakename`.
    let name = match string(meta, "name") {
        "" => "fakename",
        n => n,
    };
    for msg in validation::path_segment_name(name) {
        errs.push(FieldError::invalid(&path.child("name"), name, msg));
    }
    let namespace = string(meta, "namespace");
    if !namespace.is_empty() {
        for msg in validation::dns1123_label(namespace) {
            errs.push(FieldError::invalid(
                &path.child("namespace"),
                namespace,
                msg,
            ));
        }
    }
    if let Some(g) = meta.get("generation").and_then(Value::as_i64)
        && g < 0
    {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            g,
            "must be greater than or equal to 0",
        ));
    }
    errs.extend(validation::validate_labels(
        &string_map(meta, "labels"),
        &path.child("labels"),
    ));
    errs.extend(validation::validate_annotations(
        &string_map(meta, "annotations"),
        &path.child("annotations"),
    ));
    errs.extend(owner_references(meta, &path.child("ownerReferences")));
    errs.extend(finalizers(meta, &path.child("finalizers")));
    errs
}

/// `ValidateFinalizers`: each name qualified (reported at the list's path), and not both
/// `orphan` and `foregroundDeletion`.
fn finalizers(meta: &Map<String, Value>, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let list: Vec<&str> = meta
        .get("finalizers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|f| f.as_str().unwrap_or(""))
        .collect();
    for f in &list {
        for msg in validation::qualified_name(f) {
            errs.push(FieldError::invalid(path, *f, msg));
        }
    }
    if list.contains(&"orphan") && list.contains(&"foregroundDeletion") {
        errs.push(FieldError::invalid(
            path,
            BadValue::Json(meta.get("finalizers").cloned().unwrap_or(Value::Null)),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// `ValidateOwnerReferences`: each reference's errors are reported at the list's path.
fn owner_references(meta: &Map<String, Value>, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut first_controller: Option<String> = None;
    for r in meta
        .get("ownerReferences")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
    {
        let (api_version, kind) = (string(r, "apiVersion"), string(r, "kind"));
        // `schema.FromAPIVersionAndKind`: an unparsable apiVersion keeps only the kind.
        let (group, version) = parse_group_version(api_version).unwrap_or(("", ""));
        if version.is_empty() {
            errs.push(FieldError::invalid(
                &path.child("apiVersion"),
                api_version,
                "version must not be empty",
            ));
        }
        for (field, value) in [
            ("kind", kind),
            ("name", string(r, "name")),
            ("uid", string(r, "uid")),
        ] {
            if value.is_empty() {
                errs.push(FieldError::invalid(
                    &path.child(field),
                    "",
                    format!("{field} must not be empty"),
                ));
            }
        }
        if group.is_empty() && version == "v1" && kind == "Event" {
            errs.push(FieldError::invalid(
                path,
                BadValue::Json(Value::Object(r.clone())),
                "/v1, Kind=Event is disallowed from being an owner",
            ));
        }
        if r.get("controller").and_then(Value::as_bool) == Some(true) {
            let current = format!("{kind}/{}", string(r, "name"));
            match &first_controller {
                None => first_controller = Some(current),
                Some(first) => errs.push(FieldError::invalid(
                    path,
                    BadValue::Json(meta.get("ownerReferences").cloned().unwrap_or(Value::Null)),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {current}"
                    ),
                )),
            }
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errs(schema: Value, v: Value) -> Vec<String> {
        let s = Structural::compile(
            super::super::Gvk::new("g", "v1", "K"),
            &schema,
            false,
            &Path::new("s"),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let mut out: Vec<String> = validate_embedded(&v, &s)
            .iter()
            .map(ToString::to_string)
            .collect();
        out.sort();
        out
    }

    #[test]
    fn embedded_type_and_object_meta() {
        let schema = json!({"type": "object", "properties": {"t": {"type": "object",
            "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}});
        assert!(
            errs(
                schema.clone(),
                json!({"t": {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "labels": {"a": "b"}}}})
            )
            .is_empty()
        );
        assert_eq!(
            errs(
                schema.clone(),
                json!({"t": {"apiVersion": "a/b/c", "kind": "1x",
                "metadata": {"name": "a/b", "namespace": "Bad", "labels": {"-x": "y"}}}})
            ),
            vec![
                "t.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c",
                "t.kind: Invalid value: \"1x\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
                "t.metadata.labels: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "t.metadata.name: Invalid value: \"a/b\": may not contain '/'",
                "t.metadata.namespace: Invalid value: \"Bad\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            ]
        );
        assert_eq!(
            errs(schema, json!({"t": {"metadata": {"labels": {"a": 1}}}})),
            vec![
                "t.apiVersion: Required value",
                "t.kind: Required value",
                "t.metadata: Invalid value: {\"labels\":{\"a\":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string",
            ]
        );
    }
}
