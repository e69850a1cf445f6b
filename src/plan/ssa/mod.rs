/*!
An offline stand-in for the topology controller's server-side apply of one object: given the
current object and the desired one, what the object becomes and whether that is a change, a
metadata-only change, or a spec change (the distinction that decides template rotation).

Owns the whole comparison, pure on JSON values: the intent ([`intent`]), the simulated apply
with field manager `capi-topology` and force ([`apply`]), the server's MachineDeployment
defaults ([`default_machine_deployment`]), the verdict ([`change`], [`compare`]), the reduction
for display ([`for_display`]), and the Cluster's own patch ([`apply_cluster`],
[`compare_cluster`]); and, apart from the controller, the user's own apply of a `-f` file over
the stored object ([`apply_file`]). It replaces the stand-in `plan/ssa.rs` and keeps its
signatures. It mirrors Cluster API's dry-run comparison: both sides are reduced to the allowed
paths (apiVersion, kind, name, namespace, uid, labels, annotations, ownerReferences, spec)
without the dry-run and conversion-data annotations, and a difference under `spec` is a spec
change.

Known limits, reported through [`Verdict::exact`] and documented on each function:
* without a `capi-topology` managedFields record, fields dropped from a template are kept (the
  change is missed);
* lists are atomic unless built-in knowledge, a supplied CRD or the object's own managedFields
  say otherwise; an unknown map list is replaced wholesale, over-reporting removals;
* provider CRD defaults are not applied: only fields the intent mentions can differ, which is
  what the real dry-run sees when the current object already holds the defaults;
* current and desired must be in the same apiVersion (the server would convert; this does not).
*/

use serde_json::Value;

mod change;
mod cluster;
mod defaults;
mod intent;
mod lists;
mod managed_fields;
mod merge;
mod user_apply;

pub use change::{Change, Verdict, change, change_ignoring, change_with};
use change::{compare_filtered, defaulted};
pub use cluster::{apply_cluster, cluster_for_display, compare_cluster};
pub use defaults::{default_machine_deployment, is_machine_deployment};
pub use intent::{
    CLUSTER_ALLOWED_V1BETA1, DEFAULT_ALLOWED, ENDPOINT_HOST, ENDPOINT_PORT, FieldPath,
    endpoint_ignore_paths, intent, intent_with,
};
pub use lists::{ANY_KEY, ITEM, ListType, ListTypes};
pub use managed_fields::{TOPOLOGY_MANAGER, has_topology_managed_fields, record_topology_apply};
pub use merge::{apply, apply_as, ownership_changed};
pub use user_apply::{LAST_APPLIED, Provenance, apply_file};

/// [`compare`] for a current object that `capi-topology` is known to own alone on the compared
/// paths (state topoplan computed itself, as `diff`'s old side): the apply then replaces those
/// paths with the intent, except the owner references of other owners, which survive (a
/// keyed list). Same answer as recording the ownership and running [`compare`], without
/// writing and re-reading managedFields for every object of a fleet.
pub fn compare_sole_owner(
    current: &Value,
    desired: &Value,
    ignore: &[FieldPath<'_>],
    lists: &ListTypes,
) -> Verdict {
    let intent = intent::intent(desired, ignore);
    if holds_exactly(current, &intent, ignore) {
        return Verdict {
            after: current.clone(),
            change: Change::None,
            ownership_only: false,
            exact: true,
        };
    }
    let mut after = current.clone();
    if let (Some(a), Some(i)) = (after.as_object_mut(), intent.as_object()) {
        a.remove("spec");
        for (k, v) in i {
            if k != "metadata" {
                a.insert(k.clone(), v.clone());
            }
        }
        let theirs: Vec<Value> = current
            .pointer("/metadata/ownerReferences")
            .and_then(Value::as_array)
            .map(|refs| {
                let ours = |r: &Value| {
                    intent
                        .pointer("/metadata/ownerReferences")
                        .and_then(Value::as_array)
                        .is_some_and(|l| {
                            l.iter().any(|x| {
                                x.get("kind") == r.get("kind") && x.get("name") == r.get("name")
                            })
                        })
                };
                refs.iter().filter(|r| !ours(r)).cloned().collect()
            })
            .unwrap_or_default();
        if let Some(meta) = a.get_mut("metadata").and_then(Value::as_object_mut) {
            for k in ["labels", "annotations", "ownerReferences"] {
                meta.remove(k);
            }
            if let Some(im) = i.get("metadata").and_then(Value::as_object) {
                for (k, v) in im {
                    if k != "name" && k != "namespace" {
                        meta.insert(k.clone(), v.clone());
                    }
                }
            }
            if !theirs.is_empty() {
                let mut refs = meta
                    .remove("ownerReferences")
                    .and_then(|v| match v {
                        Value::Array(a) => Some(a),
                        _ => None,
                    })
                    .unwrap_or_default();
                refs.extend(theirs);
                meta.insert("ownerReferences".into(), Value::Array(refs));
            }
        }
    }
    // Endpoint fields the intent leaves to the provider keep the provider's value.
    for path in ignore {
        if let Some(v) = path_get(current, path) {
            crate::json::set_path(&mut after, path, v.clone());
        }
    }
    if is_machine_deployment(&after) {
        default_machine_deployment(&mut after, current);
    }
    let before = defaulted(current, current);
    let change = compare_filtered(
        &mut intent::filter(&before, DEFAULT_ALLOWED, ignore),
        &mut intent::filter(&after, DEFAULT_ALLOWED, ignore),
    );
    let _ = lists;
    Verdict {
        after,
        change,
        ownership_only: false,
        exact: true,
    }
}

fn path_get<'v>(v: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, k| v.get(*k))
}

/// `current` filtered to the compared paths equals `intent` (which never carries a uid; intents
/// carrying the annotations the comparison ignores take the slow path).
fn holds_exactly(current: &Value, intent: &Value, ignore: &[FieldPath<'_>]) -> bool {
    let ignored_annotation = intent
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| {
            a.contains_key(managed_fields::DRY_RUN_ANNOTATION)
                || a.contains_key(managed_fields::CONVERSION_DATA_ANNOTATION)
        });
    if ignored_annotation {
        return false;
    }
    let mut filtered = intent::filter(current, DEFAULT_ALLOWED, ignore);
    intent::drop_comparison_annotations(&mut filtered);
    if let Some(meta) = filtered.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("uid");
    }
    filtered == *intent
}

/// The two sides of a reviewer's diff of a modified object, as the comparison saw them: the
/// current object with the admission defaults the server applies (as the controller's dry-run
/// does; otherwise a default would look like a change) and the object after the plan, both
/// reduced by [`for_display`].
pub fn display_pair(current: &Value, after: &Value) -> (Value, Value) {
    let before = defaulted(current, current);
    (for_display(&before), for_display(after))
}

/// `v` reduced to what a reviewer should see in a diff: the allowed paths, without uid,
/// managedFields, status or the dry-run and conversion-data annotations.
pub fn for_display(v: &Value) -> Value {
    let mut out = intent::filter(v, DEFAULT_ALLOWED, &[]);
    intent::drop_comparison_annotations(&mut out);
    if let Some(meta) = out.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("uid");
    }
    out
}

/// The full comparison for an object the topology controller applies: build the intent from
/// `desired` (minus `ignore`, see [`endpoint_ignore_paths`]), apply it to `current`, apply the
/// MachineDeployment defaults to both sides when it is one, and compare. An ownership change
/// with no value change counts as [`Change::MetadataOnly`], as upstream's dry-run does.
pub fn compare(
    current: &Value,
    desired: &Value,
    ignore: &[FieldPath<'_>],
    lists: &ListTypes,
) -> Verdict {
    let intent = intent::intent(desired, ignore);
    // Fast path, exact: when the current object holds exactly the intent on the compared
    // paths, the apply changes no value (nothing differs, and nothing beyond the intent is
    // there to remove) — only ownership can change. Most objects of a settled fleet are so.
    if holds_exactly(current, &intent, ignore) {
        let ownership_only = merge::ownership_changed(current, &intent, lists);
        return Verdict {
            after: current.clone(),
            change: if ownership_only {
                Change::MetadataOnly
            } else {
                Change::None
            },
            ownership_only,
            exact: has_topology_managed_fields(current),
        };
    }
    let mut after = merge::apply(current, &intent, lists);
    if is_machine_deployment(&after) {
        default_machine_deployment(&mut after, current);
    }
    let before = defaulted(current, current).into_owned();
    // Both sides are defaulted already: compare their filtered forms directly.
    let mut change = compare_filtered(
        &mut intent::filter(&before, DEFAULT_ALLOWED, ignore),
        &mut intent::filter(&after, DEFAULT_ALLOWED, ignore),
    );
    let ownership_only =
        change == Change::None && merge::ownership_changed(current, &intent, lists);
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

#[cfg(test)]
mod tests;
