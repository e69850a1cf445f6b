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
mod options;
pub mod patches;
mod read;

use crate::api::{Cluster, ClusterClass};
pub use gates::Gates;
pub use options::{Options, Outcome};

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

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod proptests;
