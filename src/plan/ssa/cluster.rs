/*!
How the topology controller writes the Cluster itself, which it does not own and so treats
differently from the objects it generates.

Owns both dialects: Cluster API main (v1beta2) sends a JSON merge patch from the current to the
desired Cluster, and only when labels, annotations, `spec.infrastructureRef` or
`spec.controlPlaneRef` differ (the desired Cluster is the current one with exactly those
changed, so the patch touches nothing else); v1.10 (v1beta1) server-side applies the Cluster
restricted to its identity, its two topology labels and the two references.
*/

use serde_json::{Map, Value};

use super::change::{Change, Verdict, change_with};
use super::intent::{CLUSTER_ALLOWED_V1BETA1, FieldPath, filter, intent_with};
use super::lists::ListTypes;
use super::managed_fields::has_topology_managed_fields;
use super::merge::{apply, ownership_changed};
use crate::api::ApiVersion;

/// The fields the v1beta2 merge patch carries, as (parent, field).
const PATCHED: &[(&str, &str)] = &[
    ("metadata", "labels"),
    ("metadata", "annotations"),
    ("spec", "infrastructureRef"),
    ("spec", "controlPlaneRef"),
];

/// The Cluster after the topology controller writes `desired` over `current`.
pub fn apply_cluster(current: &Value, desired: &Value, api: ApiVersion) -> Value {
    compare_cluster(current, desired, api).after
}

/// [`apply_cluster`] with the verdict. For v1beta2 the result is exact (no ownership involved)
/// and the change is decided on labels, annotations and the two references only; for v1beta1 it
/// is as exact as `current`'s managedFields allow, like every other applied object.
pub fn compare_cluster(current: &Value, desired: &Value, api: ApiVersion) -> Verdict {
    match api {
        ApiVersion::V1Beta2 => merge_patch_cluster(current, desired),
        ApiVersion::V1Beta1 => {
            let lists = ListTypes::builtin();
            let intent = intent_with(desired, CLUSTER_ALLOWED_V1BETA1, &[]);
            let after = apply(current, &intent, &lists);
            let allowed = CLUSTER_ALLOWED_V1BETA1;
            let mut change = change_with(current, &after, allowed, &[]);
            let ownership_only =
                change == Change::None && ownership_changed(current, &intent, &lists);
            if ownership_only {
                change = Change::MetadataOnly;
            }
            Verdict {
                after,
                change,
                ownership_only,
                exact: has_topology_managed_fields(current),
            }
        }
    }
}

fn merge_patch_cluster(current: &Value, desired: &Value) -> Verdict {
    let mut after = current.clone();
    let mut differs = false;
    let mut spec_differs = false;
    if let Some(obj) = after.as_object_mut() {
        for (parent, field) in PATCHED {
            let want = desired.get(parent).and_then(|p| p.get(field));
            let have = current.get(parent).and_then(|p| p.get(field));
            // Go compares nil and empty label maps as equal, and a merge patch cannot tell
            // them apart either; an empty reference struct is likewise "not set".
            if normalized(want) == normalized(have) {
                continue;
            }
            differs = true;
            spec_differs |= *parent == "spec";
            let slot = obj
                .entry(parent.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !slot.is_object() {
                *slot = Value::Object(Map::new());
            }
            if let Some(parent_map) = slot.as_object_mut() {
                match normalized(want) {
                    Some(v) => {
                        parent_map.insert(field.to_string(), v.clone());
                    }
                    None => {
                        parent_map.remove(*field);
                    }
                }
            }
        }
    }
    let change = match (differs, spec_differs) {
        (false, _) => Change::None,
        (true, false) => Change::MetadataOnly,
        (true, true) => Change::Spec,
    };
    Verdict {
        after,
        change,
        ownership_only: false,
        exact: true,
    }
}

fn normalized(v: Option<&Value>) -> Option<&Value> {
    match v {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) if m.is_empty() => None,
        other => other,
    }
}

/// The Cluster reduced to what the controller writes, for display: v1beta2 the identity, labels,
/// annotations and the two references; v1beta1 its restricted apply paths.
pub fn cluster_for_display(v: &Value, api: ApiVersion) -> Value {
    const V1BETA2: &[&[&str]] = &[
        &["apiVersion"],
        &["kind"],
        &["metadata", "name"],
        &["metadata", "namespace"],
        &["metadata", "labels"],
        &["metadata", "annotations"],
        &["spec", "infrastructureRef"],
        &["spec", "controlPlaneRef"],
    ];
    let none: &[FieldPath<'_>] = &[];
    match api {
        ApiVersion::V1Beta2 => filter(v, V1BETA2, none),
        ApiVersion::V1Beta1 => {
            let mut out = filter(v, CLUSTER_ALLOWED_V1BETA1, none);
            if let Some(meta) = out.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.remove("uid");
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cluster(api: &str, labels: Value, annotations: Value, spec: Value) -> Value {
        json!({"apiVersion": api, "kind": "Cluster",
               "metadata": {"name": "c1", "namespace": "ns", "uid": "u1", "labels": labels, "annotations": annotations,
                            "resourceVersion": "5"},
               "spec": spec, "status": {"phase": "Provisioned"}})
    }

    const V2: &str = "cluster.x-k8s.io/v1beta2";
    const V1: &str = "cluster.x-k8s.io/v1beta1";

    #[test]
    fn v1beta2_merge_patch() {
        let base_spec = json!({"topology": {"version": "v1.30.0"},
            "infrastructureRef": {"apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "DockerCluster", "name": "c1-abc"}});
        let labels =
            json!({"cluster.x-k8s.io/cluster-name": "c1", "topology.cluster.x-k8s.io/owned": ""});
        let current = cluster(V2, labels.clone(), json!({"a": "1"}), base_spec.clone());
        let cp_ref = json!({"apiGroup": "controlplane.cluster.x-k8s.io", "kind": "KubeadmControlPlane", "name": "c1-x"});
        let mut with_cp = base_spec.clone();
        with_cp["controlPlaneRef"] = cp_ref.clone();
        let mut with_spec_noise = base_spec.clone();
        with_spec_noise["topology"]["version"] = json!("v9");

        // (name, desired, expected change, pointer into the result, expected value there)
        let cases: Vec<(&str, Value, Change, &str, Option<Value>)> = vec![
            (
                "identical",
                current.clone(),
                Change::None,
                "/metadata/resourceVersion",
                Some(json!("5")),
            ),
            (
                "upgrade-step annotation added",
                cluster(
                    V2,
                    labels.clone(),
                    json!({"a": "1", "topology.internal.cluster.x-k8s.io/upgrade-step": "v1.31.0"}),
                    base_spec.clone(),
                ),
                Change::MetadataOnly,
                "/metadata/annotations/topology.internal.cluster.x-k8s.io~1upgrade-step",
                Some(json!("v1.31.0")),
            ),
            (
                "annotations removed entirely",
                cluster(V2, labels.clone(), json!({}), base_spec.clone()),
                Change::MetadataOnly,
                "/metadata/annotations",
                None,
            ),
            (
                "control plane ref set",
                cluster(V2, labels.clone(), json!({"a": "1"}), with_cp.clone()),
                Change::Spec,
                "/spec/controlPlaneRef",
                Some(cp_ref.clone()),
            ),
            (
                "other spec fields are never written",
                cluster(V2, labels.clone(), json!({"a": "1"}), with_spec_noise),
                Change::None,
                "/spec/topology/version",
                Some(json!("v1.30.0")),
            ),
        ];
        for (name, desired, want, pointer, value) in cases {
            let v = compare_cluster(&current, &desired, ApiVersion::V1Beta2);
            assert_eq!(
                v.after,
                apply_cluster(&current, &desired, ApiVersion::V1Beta2)
            );
            assert_eq!(v.change, want, "{name}");
            assert_eq!(
                v.after.pointer(pointer),
                value.as_ref(),
                "{name}: {}",
                v.after
            );
            assert_eq!(v.after["status"], current["status"], "{name}");
            assert!(v.exact);
        }
    }

    #[test]
    fn v1beta1_restricted_apply() {
        let spec = json!({"topology": {"version": "v1.30.0"}});
        let current = cluster(
            V1,
            json!({"user": "x"}),
            json!({"keep": "me"}),
            spec.clone(),
        );
        let mut desired_spec = spec.clone();
        desired_spec["infrastructureRef"] = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "DockerCluster", "name": "c1-abc", "namespace": "ns"});
        desired_spec["topology"]["version"] = json!("v9");
        let desired = cluster(
            V1,
            json!({"user": "changed", "cluster.x-k8s.io/cluster-name": "c1", "topology.cluster.x-k8s.io/owned": ""}),
            json!({"new": "annotation"}),
            desired_spec,
        );
        let v = compare_cluster(&current, &desired, ApiVersion::V1Beta1);
        assert_eq!(v.change, Change::Spec);
        assert_eq!(
            v.after["metadata"]["labels"],
            json!({"user": "x", "cluster.x-k8s.io/cluster-name": "c1", "topology.cluster.x-k8s.io/owned": ""})
        );
        assert_eq!(v.after["metadata"]["annotations"], json!({"keep": "me"}));
        assert_eq!(v.after["spec"]["topology"]["version"], json!("v1.30.0"));
        assert_eq!(
            v.after["spec"]["infrastructureRef"]["name"],
            json!("c1-abc")
        );
        assert!(!v.exact);
        // Applying the result again changes nothing.
        let again = compare_cluster(&v.after, &desired, ApiVersion::V1Beta1);
        assert_eq!(again.change, Change::None);
        let shown = cluster_for_display(&v.after, ApiVersion::V1Beta1);
        assert!(shown["metadata"].get("annotations").is_none());
        assert!(shown.get("status").is_none());
    }

    #[test]
    fn malformed_clusters_do_not_panic() {
        for (current, desired) in [
            (json!(null), json!({})),
            (
                json!({"metadata": 1, "spec": "x"}),
                cluster(
                    V2,
                    json!({"a": "b"}),
                    json!({}),
                    json!({"controlPlaneRef": {"name": "x"}}),
                ),
            ),
            (json!([]), json!([])),
        ] {
            for api in [ApiVersion::V1Beta1, ApiVersion::V1Beta2] {
                let _ = compare_cluster(&current, &desired, api);
                let _ = cluster_for_display(&current, api);
            }
        }
        let v = compare_cluster(
            &json!({"metadata": 1, "spec": "x"}),
            &cluster(
                V2,
                json!({"a": "b"}),
                json!({}),
                json!({"controlPlaneRef": {"name": "x"}}),
            ),
            ApiVersion::V1Beta2,
        );
        assert_eq!(v.after["metadata"]["labels"], json!({"a": "b"}));
        assert_eq!(v.change, Change::Spec);
    }
}
