/*!
The objects as the API server would store them: the mutating webhooks' changes written back into
each object in the version it was written in (what `topoplan validate -o yaml` prints and what
`plan` computes from).

Main's webhooks only touch a Cluster's `spec.topology.version` (the `v` prefix) and its variable
values. v1.10's, for v1beta1 objects, also filled every empty reference namespace with the
object's own (`defaultNamespace` in its ClusterClass and Cluster webhooks).
*/

use serde_json::{Map, Value};

use crate::api::ApiVersion;

/// Write the defaulted parts of a Cluster's (v1beta2-shaped) spec back into the object as
/// written; `None` when nothing changes.
pub fn cluster(original: &Value, api: ApiVersion, defaulted_spec: &Value) -> Option<Value> {
    let mut out = original.clone();
    if let Some(v) = defaulted_spec.pointer("/topology/version") {
        set(&mut out, &["spec", "topology", "version"], v);
    }
    for (from, to) in [
        (
            "/topology/variables",
            &["spec", "topology", "variables"][..],
        ),
        (
            "/topology/controlPlane/variables/overrides",
            &["spec", "topology", "controlPlane", "variables", "overrides"][..],
        ),
    ] {
        if let Some(v) = defaulted_spec.pointer(from) {
            set(&mut out, to, v);
        }
    }
    for list in ["machineDeployments", "machinePools"] {
        let items = defaulted_spec
            .pointer(&format!("/topology/workers/{list}"))
            .and_then(Value::as_array);
        for (i, item) in items.into_iter().flatten().enumerate() {
            if let Some(v) = item.pointer("/variables/overrides") {
                let idx = i.to_string();
                set(
                    &mut out,
                    &[
                        "spec",
                        "topology",
                        "workers",
                        list,
                        &idx,
                        "variables",
                        "overrides",
                    ],
                    v,
                );
            }
        }
    }
    if api == ApiVersion::V1Beta1 {
        let ns = namespace(original);
        for p in [
            "/spec/infrastructureRef",
            "/spec/controlPlaneRef",
            "/spec/topology/controlPlane/machineHealthCheck/remediationTemplate",
        ] {
            default_namespace(&mut out, p, &ns);
        }
        for i in 0..count(&out, "/spec/topology/workers/machineDeployments") {
            default_namespace(
                &mut out,
                &format!(
                    "/spec/topology/workers/machineDeployments/{i}/machineHealthCheck/remediationTemplate"
                ),
                &ns,
            );
        }
    }
    (out != *original).then_some(out)
}

/// v1.10's ClusterClass defaulting (v1beta1 objects only): empty reference namespaces become the
/// class's namespace. `None` when nothing changes.
pub fn cluster_class(original: &Value, api: ApiVersion) -> Option<Value> {
    if api != ApiVersion::V1Beta1 {
        return None;
    }
    let ns = namespace(original);
    let mut out = original.clone();
    for p in [
        "/spec/infrastructure/ref",
        "/spec/controlPlane/ref",
        "/spec/controlPlane/machineInfrastructure/ref",
        "/spec/controlPlane/machineHealthCheck/remediationTemplate",
    ] {
        default_namespace(&mut out, p, &ns);
    }
    for i in 0..count(&out, "/spec/workers/machineDeployments") {
        for part in [
            "template/bootstrap/ref",
            "template/infrastructure/ref",
            "machineHealthCheck/remediationTemplate",
        ] {
            default_namespace(
                &mut out,
                &format!("/spec/workers/machineDeployments/{i}/{part}"),
                &ns,
            );
        }
    }
    for i in 0..count(&out, "/spec/workers/machinePools") {
        for part in ["template/bootstrap/ref", "template/infrastructure/ref"] {
            default_namespace(
                &mut out,
                &format!("/spec/workers/machinePools/{i}/{part}"),
                &ns,
            );
        }
    }
    (out != *original).then_some(out)
}

fn namespace(o: &Value) -> String {
    o.pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

fn count(v: &Value, pointer: &str) -> usize {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// Set `namespace` on the reference at `pointer` if the reference exists (a mapping) and has an
/// empty one.
fn default_namespace(v: &mut Value, pointer: &str, ns: &str) {
    if let Some(r) = v.pointer_mut(pointer).and_then(Value::as_object_mut) {
        let empty = r
            .get("namespace")
            .is_none_or(|n| n.as_str().is_some_and(str::is_empty) || n.is_null());
        if empty {
            r.insert("namespace".into(), Value::String(ns.to_string()));
        }
    }
}

/// Set `value` at the path `tokens`, creating mappings on the way; a non-mapping on the way
/// leaves the object as it is (the spec failed to decode earlier in that case).
fn set(v: &mut Value, tokens: &[&str], value: &Value) {
    let mut cur = v;
    for (i, t) in tokens.iter().enumerate() {
        let last = i + 1 == tokens.len();
        match cur {
            Value::Object(m) => {
                if last {
                    m.insert((*t).to_string(), value.clone());
                    return;
                }
                cur = m
                    .entry((*t).to_string())
                    .or_insert_with(|| Value::Object(Map::new()));
            }
            Value::Array(a) => {
                let Some(item) = t.parse::<usize>().ok().and_then(|n| a.get_mut(n)) else {
                    return;
                };
                if last {
                    *item = value.clone();
                    return;
                }
                cur = item;
            }
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cluster_defaults_are_written_back_in_place() {
        let original = json!({"metadata": {"name": "c", "namespace": "ns"}, "spec": {"topology": {
            "version": "1.30.0", "workers": {"machineDeployments": [{"name": "a", "variables": {"overrides": [{"name": "x", "value": 1}]}}]}}}});
        let spec = json!({"topology": {"version": "v1.30.0", "variables": [{"name": "d", "value": "\"x\""}],
            "workers": {"machineDeployments": [{"name": "a", "variables": {"overrides": [{"name": "x", "value": 2}]}}]}}});
        let out = cluster(&original, ApiVersion::V1Beta2, &spec).unwrap_or_default();
        assert_eq!(
            out.pointer("/spec/topology/version"),
            Some(&json!("v1.30.0"))
        );
        assert_eq!(
            out.pointer("/spec/topology/variables/0/name"),
            Some(&json!("d"))
        );
        assert_eq!(
            out.pointer("/spec/topology/workers/machineDeployments/0/variables/overrides/0/value"),
            Some(&json!(2))
        );
        assert!(cluster(&out, ApiVersion::V1Beta2, &spec).is_none());
    }

    #[test]
    fn v1beta1_references_get_the_object_namespace() {
        let cc = json!({"metadata": {"name": "cc", "namespace": "ns"}, "spec": {
            "infrastructure": {"ref": {"kind": "K", "name": "n"}},
            "controlPlane": {"ref": {"kind": "K", "name": "n", "namespace": "other"}},
            "workers": {"machineDeployments": [{"template": {"bootstrap": {"ref": {"name": "b"}}}}]}}});
        let out = cluster_class(&cc, ApiVersion::V1Beta1).unwrap_or_default();
        assert_eq!(
            out.pointer("/spec/infrastructure/ref/namespace"),
            Some(&json!("ns"))
        );
        assert_eq!(
            out.pointer("/spec/controlPlane/ref/namespace"),
            Some(&json!("other"))
        );
        assert_eq!(
            out.pointer("/spec/workers/machineDeployments/0/template/bootstrap/ref/namespace"),
            Some(&json!("ns"))
        );
        assert!(cluster_class(&cc, ApiVersion::V1Beta2).is_none());
    }
}
