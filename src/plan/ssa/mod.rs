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

mod cluster;
mod defaults;
mod intent;
mod lists;
mod managed_fields;
mod merge;
mod user_apply;

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

/// What applying the intent does to an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Change {
    /// Nothing: the object is unchanged.
    None,
    /// Labels, annotations, owner references or field ownership change; the spec does not
    /// (a template is patched in place, not rotated).
    MetadataOnly,
    /// The spec changes (a template is rotated).
    Spec,
}

/// The outcome of comparing a current object with a desired one.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The object after the apply (with the same defaults).
    pub after: Value,
    /// What changes.
    pub change: Change,
    /// The change is only `capi-topology`'s field ownership; no value differs.
    pub ownership_only: bool,
    /// The current object records what `capi-topology` applied, so fields dropped from the
    /// template were detected. `false`: such removals may be missed.
    pub exact: bool,
}

/// What changes between `current` and `after`, compared on [`DEFAULT_ALLOWED`], never looking
/// at managedFields, status, resourceVersion or the dry-run and conversion-data annotations.
/// A MachineDeployment is compared with the admission defaults applied to both sides: upstream
/// dry-runs the current object too, precisely so that defaults it lacks (an object stored before
/// a Cluster API upgrade, or one written without them) do not count as changes.
pub fn change(current: &Value, after: &Value) -> Change {
    change_with(current, after, DEFAULT_ALLOWED, &[])
}

/// [`change`] minus the `ignore` paths on both sides, as upstream compares (a provider-filled
/// endpoint the topology does not send is then not a difference even if the apply dropped it).
pub fn change_ignoring(current: &Value, after: &Value, ignore: &[FieldPath<'_>]) -> Change {
    change_with(current, after, DEFAULT_ALLOWED, ignore)
}

/// [`change`] with other allowed paths (the v1beta1 Cluster).
pub fn change_with(
    current: &Value,
    after: &Value,
    allowed: &[&[&str]],
    ignore: &[FieldPath<'_>],
) -> Change {
    let mut before = intent::filter(&defaulted(current, current), allowed, ignore);
    let mut after = intent::filter(&defaulted(after, current), allowed, ignore);
    compare_filtered(&mut before, &mut after)
}

/// Compare two objects already filtered to the compared paths.
fn compare_filtered(before: &mut Value, after: &mut Value) -> Change {
    intent::drop_comparison_annotations(before);
    intent::drop_comparison_annotations(after);
    if before == after {
        Change::None
    } else if before.get("spec") != after.get("spec") {
        Change::Spec
    } else {
        Change::MetadataOnly
    }
}

/// `v` with the server's known admission defaults applied (an update of `current`); borrowed
/// when no default applies (only MachineDeployments have known ones), since objects are large
/// and a fleet compares tens of thousands of them.
fn defaulted<'v>(v: &'v Value, current: &Value) -> std::borrow::Cow<'v, Value> {
    if is_machine_deployment(v) {
        let mut out = v.clone();
        default_machine_deployment(&mut out, current);
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(v)
    }
}

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
