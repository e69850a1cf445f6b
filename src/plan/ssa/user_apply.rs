/*!
The user's own apply of a file over the object as it is stored: what a template or ClusterClass
becomes when the `-f` file is applied to the management cluster that `--current` describes.

Owns that one merge. A stored object carries what the file never set — above all the fields a
provider's defaulting webhook filled in, which topoplan cannot run — and an apply keeps them:
fields the file sets win; fields only the stored object has stay; fields the file set before
and no longer sets are removed. What the file set before is read from the stored object, as the
applying tool reads it:

* one field manager server-side applied the object (`kubectl apply --server-side`, a GitOps
  controller): the apply is that manager's, with its ownership ([`super::merge::apply_as`]);
* else the `kubectl.kubernetes.io/last-applied-configuration` annotation of a client-side
  `kubectl apply` is the previous file, and the merge is kubectl's three-way JSON merge
  (`CreateThreeWayJSONMergePatch` of apimachinery's `jsonmergepatch`): lists replaced
  wholesale, mappings merged key by key, keys of the previous file the new one lacks deleted;
* else nothing tells what the file owned, and the same merge with no previous file keeps every
  stored field (what `kubectl apply` does to an object without the annotation).

It does not run the provider's webhooks: a field the file removes and a webhook would default
again is planned as removed. It never looks at the object's kind.
*/

use serde_json::{Map, Value};

use super::lists::ListTypes;
use super::managed_fields::sole_applier;
use super::merge::apply_as;

/// The annotation client-side `kubectl apply` keeps the applied file in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Values nest this deep only by accident or malice; below it the file's value replaces the
/// stored one wholesale.
const MAX_DEPTH: usize = 512;

/// How the stored object tells what the file set before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Provenance {
    /// The ownership of the one manager that server-side applied it.
    ServerSide(String),
    /// The last-applied annotation of a client-side `kubectl apply`.
    LastApplied,
    /// Nothing: every stored field the file lacks is kept.
    Unknown,
}

/// The object after the user's apply of `file` over `stored`, and what told the previous file.
pub fn apply_file(stored: &Value, file: &Value, lists: &ListTypes) -> (Value, Provenance) {
    let file = as_sent(file);
    if let Some(manager) = sole_applier(stored) {
        let after = apply_as(stored, &file, lists, &manager);
        return (after, Provenance::ServerSide(manager));
    }
    let previous = stored
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(Value::as_str)
        .and_then(|s| serde_json::from_str::<Value>(s).ok())
        .filter(Value::is_object);
    let mut after = three_way(previous.as_ref(), &file, stored, 0);
    let provenance = if previous.is_some() {
        // kubectl records the file it applied, for the next apply.
        if let Ok(text) = serde_json::to_string(&file) {
            crate::json::set_path(
                &mut after,
                &["metadata", "annotations", LAST_APPLIED],
                Value::String(text),
            );
        }
        Provenance::LastApplied
    } else {
        Provenance::Unknown
    };
    (after, provenance)
}

/// The file as an apply sends it: without status (a subresource an apply does not write), the
/// fields the server keeps for itself, and the last-applied annotation (kubectl computes it).
fn as_sent(file: &Value) -> Value {
    let mut out = file.clone();
    if let Some(o) = out.as_object_mut() {
        o.remove("status");
        if let Some(meta) = o.get_mut("metadata").and_then(Value::as_object_mut) {
            for field in [
                "uid",
                "resourceVersion",
                "generation",
                "creationTimestamp",
                "managedFields",
                "selfLink",
            ] {
                meta.remove(field);
            }
            if let Some(annotations) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
                annotations.remove(LAST_APPLIED);
                if annotations.is_empty() {
                    meta.remove("annotations");
                }
            }
        }
    }
    out
}

/// `current` with the three-way JSON merge patch from `previous` (the file applied last, if
/// known) to `file` applied: `file`'s values win, mappings merge key by key, a `null` or a key
/// `previous` had and `file` lacks is deleted, anything else `current` has stays.
fn three_way(previous: Option<&Value>, file: &Value, current: &Value, depth: usize) -> Value {
    let (Value::Object(f), Value::Object(c)) = (file, current) else {
        return without_nulls(file, depth);
    };
    if depth > MAX_DEPTH {
        return without_nulls(file, depth);
    }
    let mut out = c.clone();
    if let Some(Value::Object(p)) = previous {
        for key in p.keys() {
            if !f.contains_key(key) {
                out.remove(key);
            }
        }
    }
    for (key, fv) in f {
        if fv.is_null() {
            out.remove(key);
            continue;
        }
        let merged = match c.get(key) {
            Some(cv) => three_way(previous.and_then(|p| p.get(key)), fv, cv, depth + 1),
            None => without_nulls(fv, depth + 1),
        };
        out.insert(key.clone(), merged);
    }
    Value::Object(out)
}

/// `v` with the keys a merge patch would delete (`null` values of mappings) left out.
fn without_nulls(v: &Value, depth: usize) -> Value {
    match v {
        Value::Object(m) if depth <= MAX_DEPTH => Value::Object(
            m.iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k.clone(), without_nulls(x, depth + 1)))
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const API: &str = "infrastructure.cluster.x-k8s.io/v1beta2";

    /// A cluster template with `spec.template.spec` = `spec` and extra metadata.
    fn template(spec: Value, meta: Value) -> Value {
        let mut m = json!({"name": "aws", "namespace": "fleet"});
        if let (Some(m), Some(extra)) = (m.as_object_mut(), meta.as_object()) {
            m.extend(extra.clone());
        }
        json!({"apiVersion": API, "kind": "AWSClusterTemplate", "metadata": m,
               "spec": {"template": {"spec": spec}}})
    }

    fn last_applied(file: &Value) -> Value {
        json!({"annotations": {LAST_APPLIED: serde_json::to_string(file).expect("json")}})
    }

    fn spec(v: &Value) -> &Value {
        &v["spec"]["template"]["spec"]
    }

    #[test]
    fn stored_defaults_are_kept_and_the_file_wins() {
        // What the provider's webhook defaulted: bastion.enabled, a list the file does not set.
        let stored = template(
            json!({"region": "eu-west-1", "bastion": {"enabled": false, "instanceType": "t3.micro"},
                   "sshKeyName": "old", "subnets": [{"id": "a"}]}),
            json!({"uid": "u1", "resourceVersion": "7"}),
        );
        let file = template(
            json!({"region": "eu-west-1", "sshKeyName": "new"}),
            json!({}),
        );
        let (after, how) = apply_file(&stored, &file, &ListTypes::builtin());
        assert_eq!(how, Provenance::Unknown);
        assert_eq!(
            *spec(&after),
            json!({"region": "eu-west-1", "bastion": {"enabled": false, "instanceType": "t3.micro"},
                   "sshKeyName": "new", "subnets": [{"id": "a"}]})
        );
        assert_eq!(after["metadata"]["uid"], "u1");
        assert!(after["metadata"].get("annotations").is_none());
    }

    #[test]
    fn the_last_applied_file_tells_what_was_removed() {
        let previous = template(
            json!({"region": "eu-west-1", "sshKeyName": "k", "bastion": {"instanceType": "t3.large"},
                   "subnets": [{"id": "a"}, {"id": "b"}]}),
            json!({}),
        );
        let mut stored = template(
            json!({"region": "eu-west-1", "sshKeyName": "k",
                   "bastion": {"enabled": false, "instanceType": "t3.large"},
                   "subnets": [{"id": "a", "default": true}, {"id": "b"}]}),
            last_applied(&previous),
        );
        stored["metadata"]["annotations"]["other"] = json!("kept");
        // The file drops sshKeyName and bastion.instanceType, shortens the list, and nulls a key.
        let file = template(
            json!({"region": "eu-west-1", "bastion": {}, "subnets": [{"id": "a"}], "extra": null}),
            json!({}),
        );
        let (after, how) = apply_file(&stored, &file, &ListTypes::builtin());
        assert_eq!(how, Provenance::LastApplied);
        // Lists are replaced wholesale: a JSON merge patch cannot merge them.
        assert_eq!(
            *spec(&after),
            json!({"region": "eu-west-1", "bastion": {"enabled": false}, "subnets": [{"id": "a"}]})
        );
        assert_eq!(after["metadata"]["annotations"]["other"], "kept");
        let recorded: Value = serde_json::from_str(
            after["metadata"]["annotations"][LAST_APPLIED]
                .as_str()
                .expect("annotation"),
        )
        .expect("json");
        assert_eq!(recorded, as_sent(&file));
    }

    #[test]
    fn a_server_side_applier_removes_what_it_owned_alone() {
        let managed = json!([
            {"manager": "flux", "operation": "Apply", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:template": {"f:spec": {
                 "f:region": {}, "f:sshKeyName": {}, "f:tags": {}}}}}},
            {"manager": "manager", "operation": "Update", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:tags": {}}}}}},
            {"manager": "flux", "operation": "Apply", "subresource": "status", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:status": {}}},
        ]);
        let stored = template(
            json!({"region": "eu-west-1", "sshKeyName": "k", "tags": {"a": "b"},
                   "bastion": {"enabled": false}}),
            json!({"managedFields": managed, "annotations": {LAST_APPLIED: "{}"}}),
        );
        let file = template(json!({"region": "eu-west-2"}), json!({}));
        let (after, how) = apply_file(&stored, &file, &ListTypes::builtin());
        assert_eq!(how, Provenance::ServerSide("flux".into()));
        // sshKeyName was flux's alone; tags another manager also owns; bastion nobody applied.
        assert_eq!(
            *spec(&after),
            json!({"region": "eu-west-2", "tags": {"a": "b"}, "bastion": {"enabled": false}})
        );
    }

    #[test]
    fn several_appliers_or_unreadable_records_keep_everything() {
        let entry = |m: &str| {
            json!({"manager": m, "operation": "Apply", "fieldsType": "FieldsV1",
                   "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:sshKeyName": {}}}}}})
        };
        for managed in [
            json!([entry("kubectl"), entry("argocd")]),
            json!([{"operation": "Apply"}]),
            json!("not a list"),
            json!([entry("capi-topology")]),
        ] {
            let stored = template(
                json!({"sshKeyName": "k"}),
                json!({"managedFields": managed}),
            );
            let (after, how) = apply_file(
                &stored,
                &template(json!({}), json!({})),
                &ListTypes::builtin(),
            );
            assert_eq!(how, Provenance::Unknown, "{managed}");
            assert_eq!(spec(&after)["sshKeyName"], "k", "{managed}");
        }
    }

    #[test]
    fn malformed_values_do_not_panic() {
        let lists = ListTypes::builtin();
        let deep = (0..2000).fold(json!(1), |v, _| json!({"a": v}));
        for (stored, file) in [
            (json!(null), json!({})),
            (json!({}), json!(null)),
            (json!([1]), json!({"spec": 1})),
            (
                json!({"metadata": {"annotations": {LAST_APPLIED: "not json"}}}),
                json!({"spec": {}}),
            ),
            (
                json!({"metadata": {"annotations": {LAST_APPLIED: "[1]"}}}),
                json!({"spec": {}}),
            ),
            (
                json!({"metadata": {"annotations": 3}}),
                json!({"metadata": {"annotations": {LAST_APPLIED: 1}}}),
            ),
            (deep.clone(), deep.clone()),
        ] {
            let _ = apply_file(&stored, &file, &lists);
        }
        // An annotation that is not JSON is no previous file: nothing is removed.
        let (after, how) = apply_file(
            &json!({"metadata": {"annotations": {LAST_APPLIED: "{"}}, "spec": {"a": 1}}),
            &json!({"spec": {"b": 2}}),
            &lists,
        );
        assert_eq!(how, Provenance::Unknown);
        assert_eq!(after["spec"], json!({"a": 1, "b": 2}));
    }
}
