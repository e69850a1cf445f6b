/*!
The apply intent: the part of a desired object the topology controller sends with server-side
apply, and the same filter used to reduce objects before comparing or showing them.

Owns the allowed paths (every object; and the Cluster's restricted set under v1beta1), the
ignore paths derived from a desired object (control-plane endpoint host and port left at their
zero values), and the filter itself. The filter only descends through mappings, like Cluster
API's: an allowed or ignored path that points into a list is not supported there either.
*/

use serde_json::{Map, Value};

use super::managed_fields::{CONVERSION_DATA_ANNOTATION, DRY_RUN_ANNOTATION};

/// A field path as a list of map keys (`&["spec", "controlPlaneEndpoint", "host"]`).
pub type FieldPath<'a> = &'a [&'a str];

/// `spec.controlPlaneEndpoint.host`.
pub const ENDPOINT_HOST: &[&str] = &["spec", "controlPlaneEndpoint", "host"];
/// `spec.controlPlaneEndpoint.port`.
pub const ENDPOINT_PORT: &[&str] = &["spec", "controlPlaneEndpoint", "port"];

/// Paths the topology controller has an opinion on, for every object it applies except the
/// Cluster: identity, labels, annotations, owner references and the whole spec.
pub const DEFAULT_ALLOWED: &[&[&str]] = &[
    &["apiVersion"],
    &["kind"],
    &["metadata", "name"],
    &["metadata", "namespace"],
    &["metadata", "uid"],
    &["metadata", "labels"],
    &["metadata", "annotations"],
    &["metadata", "ownerReferences"],
    &["spec"],
];

/// The v1beta1 (Cluster API v1.10) Cluster's restricted paths: identity, its two topology
/// labels and the two references. The controller must not take ownership of anything else a
/// user wrote on the Cluster.
pub const CLUSTER_ALLOWED_V1BETA1: &[&[&str]] = &[
    &["apiVersion"],
    &["kind"],
    &["metadata", "name"],
    &["metadata", "namespace"],
    &["metadata", "uid"],
    &["metadata", "labels", "cluster.x-k8s.io/cluster-name"],
    &["metadata", "labels", "topology.cluster.x-k8s.io/owned"],
    &["spec", "infrastructureRef"],
    &["spec", "controlPlaneRef"],
];

/// The SSA intent for `desired`: filtered to [`DEFAULT_ALLOWED`], minus `ignore`, with
/// `metadata.uid` removed (the apply simulation carries the current object's uid, as the
/// controller does for an update; for a create there is none).
pub fn intent(desired: &Value, ignore: &[FieldPath<'_>]) -> Value {
    intent_with(desired, DEFAULT_ALLOWED, ignore)
}

/// [`intent`] with other allowed paths (the v1beta1 Cluster).
pub fn intent_with(desired: &Value, allowed: &[&[&str]], ignore: &[FieldPath<'_>]) -> Value {
    let mut v = filter(desired, allowed, ignore);
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("uid");
    }
    v
}

/// Ignore paths of an InfrastructureCluster, or (main, v1beta2 contract era) a ControlPlane:
/// `spec.controlPlaneEndpoint.host` when the desired value is `""`, `.port` when it is `0`.
/// Those zero values come from templates that leave the endpoint to the provider, and sending
/// them would overwrite what the provider filled in. (Cluster API v1.10 had these for the
/// InfrastructureCluster only.)
///
/// Callers that know the object's role pass these rather than both paths unconditionally: a
/// template that does set a host must still have it enforced.
pub fn endpoint_ignore_paths(desired: &Value) -> Vec<FieldPath<'static>> {
    let mut out = Vec::new();
    let endpoint = desired.pointer("/spec/controlPlaneEndpoint");
    if endpoint.and_then(|e| e.get("host")).and_then(Value::as_str) == Some("") {
        out.push(ENDPOINT_HOST);
    }
    if endpoint.and_then(|e| e.get("port")).and_then(Value::as_i64) == Some(0) {
        out.push(ENDPOINT_PORT);
    }
    out
}

/// `v` reduced to the `allowed` paths, minus the `ignore` paths. A mapping that loses all its
/// fields to the filter is dropped as well; one that was empty to begin with is kept.
pub fn filter(v: &Value, allowed: &[&[&str]], ignore: &[FieldPath<'_>]) -> Value {
    // Built by copying only what is kept (not by copying everything and removing): objects
    // carry large managedFields and status that a fleet-wide comparison must not copy.
    let allowed: Vec<&[&str]> = allowed.to_vec();
    let ignore: Vec<&[&str]> = ignore.to_vec();
    project(v, 0, &allowed, &ignore).unwrap_or_else(|| Value::Object(Map::new()))
}

/// The part of `v` (at depth `depth`) that the live `allowed` paths keep, minus the live
/// `ignore` paths. A mapping that loses every field to the filter is dropped (`None`); one
/// that was empty to begin with is kept, as [`filter_in_place`] does.
fn project(v: &Value, depth: usize, allowed: &[&[&str]], ignore: &[&[&str]]) -> Option<Value> {
    let whole = allowed.iter().any(|a| a.len() <= depth);
    let deeper_ignores = ignore.iter().any(|i| i.len() > depth);
    if whole && !deeper_ignores {
        return Some(v.clone());
    }
    let Value::Object(map) = v else {
        // Not a mapping: kept only where allowed whole.
        return whole.then(|| v.clone());
    };
    let mut out = Map::new();
    for (key, child) in map {
        let live_allowed: Vec<&[&str]> = if whole {
            allowed.to_vec()
        } else {
            allowed
                .iter()
                .copied()
                .filter(|a| a.get(depth) == Some(&key.as_str()))
                .collect()
        };
        if live_allowed.is_empty() {
            continue;
        }
        if ignore
            .iter()
            .any(|i| i.len() == depth + 1 && i.get(depth) == Some(&key.as_str()))
        {
            continue;
        }
        let live_ignore: Vec<&[&str]> = ignore
            .iter()
            .copied()
            .filter(|i| i.len() > depth + 1 && i.get(depth) == Some(&key.as_str()))
            .collect();
        if let Some(kept) = project(child, depth + 1, &live_allowed, &live_ignore) {
            out.insert(key.clone(), kept);
        }
    }
    if out.is_empty() && !map.is_empty() {
        None
    } else {
        Some(Value::Object(out))
    }
}

/// The annotations the comparison never looks at: the dry-run marker and conversion data.
pub fn drop_comparison_annotations(v: &mut Value) {
    let ignore: [&[&str]; 2] = [
        &["metadata", "annotations", DRY_RUN_ANNOTATION],
        &["metadata", "annotations", CONVERSION_DATA_ANNOTATION],
    ];
    filter_in_place(v, &mut Vec::new(), &|p: &[String]| {
        ignore.iter().any(|i| same_path(p, i))
    });
}

fn same_path(p: &[String], q: &[&str]) -> bool {
    p.len() == q.len() && p.iter().zip(q).all(|(a, b)| a.as_str() == *b)
}

/// Remove every field for which `drop` says so; report whether anything was removed, so a
/// mapping emptied by the removal is removed too (and one that was empty before is not).
fn filter_in_place(
    v: &mut Value,
    path: &mut Vec<String>,
    drop: &dyn Fn(&[String]) -> bool,
) -> bool {
    let Some(map) = v.as_object_mut() else {
        return false;
    };
    let keys: Vec<String> = map.keys().cloned().collect();
    let mut removed_any = false;
    for key in keys {
        path.push(key.clone());
        if drop(path) {
            map.remove(&key);
            removed_any = true;
        } else if let Some(child) = map.get_mut(&key)
            && filter_in_place(child, path, drop)
        {
            removed_any = true;
            if child.as_object().is_some_and(Map::is_empty) {
                map.remove(&key);
            }
        }
        path.pop();
    }
    removed_any
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn intent_keeps_only_allowed_paths() {
        let desired = json!({
            "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DockerCluster",
            "metadata": {"name": "c1", "namespace": "ns", "uid": "u", "labels": {"a": "1"},
                         "annotations": {}, "finalizers": ["f"], "resourceVersion": "7",
                         "managedFields": [], "creationTimestamp": "t", "generation": 3},
            "spec": {"x": 1},
            "status": {"ready": true}
        });
        let got = intent(&desired, &[]);
        assert_eq!(
            got,
            json!({
                "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DockerCluster",
                "metadata": {"name": "c1", "namespace": "ns", "labels": {"a": "1"}, "annotations": {}},
                "spec": {"x": 1}
            })
        );
    }

    #[test]
    fn endpoint_ignore_paths_follow_zero_values() {
        let cases: &[(Value, &[&str])] = &[
            (
                json!({"spec": {"controlPlaneEndpoint": {"host": "", "port": 0}}}),
                &[
                    "spec.controlPlaneEndpoint.host",
                    "spec.controlPlaneEndpoint.port",
                ],
            ),
            (
                json!({"spec": {"controlPlaneEndpoint": {"host": "h", "port": 0}}}),
                &["spec.controlPlaneEndpoint.port"],
            ),
            (
                json!({"spec": {"controlPlaneEndpoint": {"host": "", "port": 6443}}}),
                &["spec.controlPlaneEndpoint.host"],
            ),
            (
                json!({"spec": {"controlPlaneEndpoint": {"host": "h", "port": 6443}}}),
                &[],
            ),
            (
                json!({"spec": {"controlPlaneEndpoint": {"host": 0, "port": "0"}}}),
                &[],
            ),
            (json!({"spec": {}}), &[]),
            (json!("junk"), &[]),
        ];
        for (desired, want) in cases {
            let got: Vec<String> = endpoint_ignore_paths(desired)
                .iter()
                .map(|p| p.join("."))
                .collect();
            assert_eq!(got, *want, "{desired}");
        }
    }

    #[test]
    fn ignore_paths_leave_no_empty_parents() {
        let desired = json!({"apiVersion": "v", "kind": "K", "metadata": {"name": "n"},
            "spec": {"controlPlaneEndpoint": {"host": "", "port": 0}, "other": {}}});
        let got = intent(&desired, &endpoint_ignore_paths(&desired));
        // The endpoint map emptied by the ignore paths goes; the map that was empty stays.
        assert_eq!(got["spec"], json!({"other": {}}));
    }

    #[test]
    fn cluster_v1beta1_paths_are_restricted() {
        let desired = json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "Cluster",
            "metadata": {"name": "c", "labels": {"cluster.x-k8s.io/cluster-name": "c", "mine": "x"},
                         "annotations": {"a": "b"}},
            "spec": {"infrastructureRef": {"name": "i"}, "topology": {"version": "v1.30.0"}}});
        let got = intent_with(&desired, CLUSTER_ALLOWED_V1BETA1, &[]);
        assert_eq!(
            got,
            json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "Cluster",
            "metadata": {"name": "c", "labels": {"cluster.x-k8s.io/cluster-name": "c"}},
            "spec": {"infrastructureRef": {"name": "i"}}})
        );
    }

    #[test]
    fn comparison_annotations_are_dropped() {
        let mut v = json!({"metadata": {"annotations": {
            "topology.cluster.x-k8s.io/dry-run": "", "cluster.x-k8s.io/conversion-data": "{}"}}});
        drop_comparison_annotations(&mut v);
        // Mappings emptied by the removal go too, as upstream's filter does.
        assert_eq!(v, json!({}));
        let mut scalar = json!(3);
        drop_comparison_annotations(&mut scalar);
        assert_eq!(scalar, json!(3));
    }
}
