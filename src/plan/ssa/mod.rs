/*!
An offline stand-in for the topology controller's server-side apply of one object: given the
current object and the desired one, what the object becomes and whether that is a change, a
metadata-only change, or a spec change (the distinction that decides template rotation).

Owns the whole comparison, pure on JSON values: the intent ([`intent`]), the simulated apply
with field manager `capi-topology` and force ([`apply`]), the server's MachineDeployment
defaults ([`default_machine_deployment`]), the verdict ([`change`], [`compare`]), the reduction
for display ([`for_display`]), and the Cluster's own patch ([`apply_cluster`],
[`compare_cluster`]). It replaces the stand-in `plan/ssa.rs` and keeps its signatures. It mirrors
Cluster API's dry-run comparison: both sides are reduced to the allowed paths (apiVersion, kind,
name, namespace, uid, labels, annotations, ownerReferences, spec) without the dry-run and
conversion-data annotations, and a difference under `spec` is a spec change.

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

pub use cluster::{apply_cluster, cluster_for_display, compare_cluster};
pub use defaults::{default_machine_deployment, is_machine_deployment};
pub use intent::{
    CLUSTER_ALLOWED_V1BETA1, DEFAULT_ALLOWED, ENDPOINT_HOST, ENDPOINT_PORT, FieldPath,
    endpoint_ignore_paths, intent, intent_with,
};
pub use lists::{ANY_KEY, ITEM, ListType, ListTypes};
pub use managed_fields::{TOPOLOGY_MANAGER, has_topology_managed_fields, record_topology_apply};
pub use merge::{apply, ownership_changed};

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
    /// The current object as the comparison saw it (with the server's known defaults applied,
    /// as the dry-run of the current object does).
    pub before: Value,
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
    intent::drop_comparison_annotations(&mut before);
    intent::drop_comparison_annotations(&mut after);
    if before == after {
        Change::None
    } else if before.get("spec") != after.get("spec") {
        Change::Spec
    } else {
        Change::MetadataOnly
    }
}

/// `v` with the server's known admission defaults applied (an update of `current`).
fn defaulted(v: &Value, current: &Value) -> Value {
    let mut out = v.clone();
    if is_machine_deployment(&out) {
        default_machine_deployment(&mut out, current);
    }
    out
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
    let after = defaulted(&merge::apply(current, &intent, lists), current);
    let before = defaulted(current, current);
    let mut change = change_ignoring(&before, &after, ignore);
    let ownership_only =
        change == Change::None && merge::ownership_changed(current, &intent, lists);
    if ownership_only {
        change = Change::MetadataOnly;
    }
    Verdict {
        before,
        after,
        change,
        ownership_only,
        exact: has_topology_managed_fields(current),
    }
}

#[cfg(test)]
mod tests;
