/*!
The verdict of one comparison ([`Change`], [`Verdict`]) and the comparison on the compared
paths ([`change`]): what Cluster API's dry-run decides between a current object and what the
apply leaves, with the server's known admission defaults on both sides.
*/

use serde_json::Value;

use super::defaults::{default_machine_deployment, is_machine_deployment};
use super::intent::{self, DEFAULT_ALLOWED, FieldPath};

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
pub(super) fn compare_filtered(before: &mut Value, after: &mut Value) -> Change {
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
pub(super) fn defaulted<'v>(v: &'v Value, current: &Value) -> std::borrow::Cow<'v, Value> {
    if is_machine_deployment(v) {
        let mut out = v.clone();
        default_machine_deployment(&mut out, current);
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(v)
    }
}
