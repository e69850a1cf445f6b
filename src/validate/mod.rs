/*!
Admission validation: every rule Cluster API's ClusterClass and Cluster webhooks apply, on create
and on update, plus the compatibility checks between an old and a new ClusterClass.

The rules are Cluster API main's (`core/webhooks/admission`, `internal/topology/check`), with
main's messages and v1beta2 field paths. A v1beta1 input is checked in its v1beta2 form
(`spec_value`), exactly as main's webhooks see a v1beta1 object after conversion; error paths
and their JSON pointers therefore name v1beta2 fields. Everything is plain data in, plain data
out: no I/O, no clock, no environment.

Files, one concern each:
- [`clusterclass`]: the ClusterClass webhook (create, update, delete);
- [`patches`]: its `spec.patches` rules;
- [`cluster`]: the Cluster webhook (mutating `Default` and validating `validate`), with
  [`cluster::rollout`], its version-change checks against the stored objects (`--current`);
- [`compatibility`]: which ClusterClass changes existing Clusters survive;
- [`contract`]: the ControlPlane contract's versions and whether workers roll out, as Cluster
  API reads them (the upgrade sequencing reads them too);
- [`definition_from`]: v1beta1's deprecated `definitionFrom` put back for the variable checks;
- [`machines`]: rollout, health-check and taint rules classes and topologies share;
- [`k8s`]: apimachinery's string checks (label keys and values, DNS names, CIDRs, …);
- [`version`]: blang/semver and Cluster API's version comparison;
- [`gates`]: the feature gates and the state topoplan assumes;
- [`gostruct`]: Go's JSON encoding of structs, for messages that embed one;
- [`run`]: the driver over a whole input (pairs old and new objects, builds status.variables,
  locates every error in the user's file);
- [`stored`]: the webhooks' defaults written back into the objects as written.

Two steps belong to other modules and are injected through [`Options`]: the validation of
ClusterClass variable definitions (the class webhook's step 7) and the defaulting and validation
of a Cluster's variable values (the Cluster `Default` webhook's last step).
*/

pub mod run;
pub mod stored;

pub mod cluster;
pub mod clusterclass;
pub mod compatibility;
mod definition_from;
pub mod gates;
pub mod machines;
pub mod patches;

use serde_json::Value;

use crate::api::{Cluster, ClusterClass};
use crate::k8s::field::{FieldError, invalid_object};
use crate::variables::definitions::StatusVariables;
pub use gates::Gates;

/// What an admission request would have returned.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Field errors; any error means the request is rejected.
    pub errors: Vec<FieldError>,
    /// Admission warnings (accepted requests may carry them too).
    pub warnings: Vec<String>,
    /// Cluster only: the Cluster's spec (v1beta2 JSON) after the mutating webhook, when it
    /// changed anything. The validating rules ran on this spec.
    pub defaulted: Option<Value>,
}

impl Outcome {
    /// True when the request is admitted.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// The API server's message for a rejected request:
    /// `<Kind>.cluster.x-k8s.io "<name>" is invalid: <errors>`; `None` when admitted.
    pub fn message(&self, kind: &str, name: &str) -> Option<String> {
        (!self.errors.is_empty())
            .then(|| invalid_object(kind, crate::api::GROUP, name, &self.errors))
    }
}

/// How to validate: gate states, and the variable steps' data (the variables module's own
/// rules run on it: Cluster API's webhooks call the same functions).
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// Feature gates.
    pub gates: Gates,
    /// Step 7 of the class webhook, the variable definitions
    /// (`variables.ValidateClusterClassVariables`); `false` skips it.
    pub class_variables: bool,
    /// The `status.variables` of the Cluster's class: the Cluster's variable values are
    /// defaulted and validated against them (`DefaultAndValidateVariables`, in the defaulting
    /// webhook); `None` skips the step (a class whose variables did not reconcile).
    pub cluster_variables: Option<&'a StatusVariables>,
    /// The stored objects (`--current`) a Cluster version change is checked against (is the
    /// previous version still rolling out?); `None` skips that check.
    pub live: Option<&'a cluster::rollout::Live<'a>>,
}

/// Validate a ClusterClass create (`old` = `None`) or update, with topoplan's default gates and
/// no variable-definition step. `clusters_using` are the Clusters that use the class (only
/// read on update).
pub fn cluster_class(
    new: &ClusterClass,
    old: Option<&ClusterClass>,
    clusters_using: &[&Cluster],
) -> Outcome {
    cluster_class_with(&Options::default(), new, old, clusters_using)
}

/// [`cluster_class`] with explicit options.
pub fn cluster_class_with(
    opts: &Options<'_>,
    new: &ClusterClass,
    old: Option<&ClusterClass>,
    clusters_using: &[&Cluster],
) -> Outcome {
    Outcome {
        errors: clusterclass::validate(opts, new, old, clusters_using),
        ..Outcome::default()
    }
}

/// Validate a ClusterClass delete: the API server's message when Clusters still use it.
pub fn cluster_class_delete(class: &ClusterClass, clusters_using: &[&Cluster]) -> Option<String> {
    clusterclass::validate_delete(class, clusters_using)
}

/// Admit a Cluster create (`old` = `None`) or update: the mutating webhook, then the validating
/// one, with topoplan's default gates and no variable step. `class` is the ClusterClass the new
/// Cluster refers to (`None`: not found), `old_class` the one the old Cluster referred to (only
/// read when an update changes the class).
pub fn cluster(
    new: &Cluster,
    old: Option<&Cluster>,
    class: Option<&ClusterClass>,
    old_class: Option<&ClusterClass>,
) -> Outcome {
    cluster_with(&Options::default(), new, old, class, old_class)
}

/// [`cluster`] with explicit options.
pub fn cluster_with(
    opts: &Options<'_>,
    new: &Cluster,
    old: Option<&Cluster>,
    class: Option<&ClusterClass>,
    old_class: Option<&ClusterClass>,
) -> Outcome {
    cluster::admit(opts, new, old, class, old_class)
}

// ---- read-only access to v1beta2 JSON, never panicking on an unexpected shape ----

/// The value at `path` (object keys only), if every step is an object with that key.
pub(crate) fn get<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter()
        .try_fold(v, |cur, key| cur.as_object().and_then(|m| m.get(*key)))
        .filter(|v| !v.is_null())
}

/// The string at `path`, or `""` (Go's zero value) when absent or not a string.
pub(crate) fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    get(v, path).and_then(Value::as_str).unwrap_or("")
}

/// The list at `path`, or empty.
pub(crate) fn list_at<'a>(v: &'a Value, path: &[&str]) -> &'a [Value] {
    get(v, path)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The bool at `path`, if set.
pub(crate) fn bool_at(v: &Value, path: &[&str]) -> Option<bool> {
    get(v, path).and_then(Value::as_bool)
}

/// A `ClusterClassTemplateReference`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TemplateRef<'a> {
    pub kind: &'a str,
    pub name: &'a str,
    pub api_version: &'a str,
}

impl<'a> TemplateRef<'a> {
    /// The reference at `path` (the `templateRef` object itself).
    pub fn at(v: &'a Value, path: &[&str]) -> TemplateRef<'a> {
        let r = get(v, path).unwrap_or(&Value::Null);
        TemplateRef {
            kind: str_at(r, &["kind"]),
            name: str_at(r, &["name"]),
            api_version: str_at(r, &["apiVersion"]),
        }
    }

    /// `IsDefined`.
    pub fn is_defined(&self) -> bool {
        !(self.kind.is_empty() && self.name.is_empty() && self.api_version.is_empty())
    }
}

/// Whether a health check (`{checks, remediation, …}`) is defined: `checks` or `remediation`
/// is not Go's zero value.
pub(crate) fn health_check_defined(hc: Option<&Value>) -> bool {
    hc.is_some_and(|hc| {
        ["checks", "remediation"]
            .iter()
            .any(|k| get(hc, &[k]).is_some_and(|v| !crate::api::is_zero(v)))
    })
}

/// The `class` of each entry of a worker list.
pub(crate) fn classes(list: &[Value]) -> impl Iterator<Item = &str> {
    list.iter().map(|e| str_at(e, &["class"]))
}

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod proptests;
