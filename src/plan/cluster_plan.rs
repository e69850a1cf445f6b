/*!
The plan for one Cluster ([`ClusterPlan`]): its objects with their verdicts, what the upgrade
sequencing holds back and what rolls out.
*/

use crate::api::ApiVersion;
use crate::topology::Role;

use super::object::{Action, PlannedObject};
use super::rollout;

/// The plan for one Cluster.
#[derive(Debug, Clone)]
pub struct ClusterPlan {
    /// Namespace of the Cluster.
    pub namespace: String,
    /// Name of the Cluster.
    pub name: String,
    /// The ClusterClass (namespace, name).
    pub class: (String, String),
    /// API version of the Cluster (and of the generated core objects).
    pub api: ApiVersion,
    /// The file the Cluster came from, when several files define a Cluster of this name
    /// (alternative flavors, planned side by side).
    pub source: Option<String>,
    /// Objects in display order: created, modified, unchanged, deleted; then kind, then name.
    pub objects: Vec<PlannedObject>,
    /// What each ClusterClass patch did to each template (for `--explain`).
    pub patches: Vec<crate::patches::explain::PatchTrace>,
    /// Changes the upgrade sequencing holds back this pass: (role, `Kind name`, why).
    pub deferred: Vec<(Role, String, String)>,
    /// What rolls out (machines replaced), now or once a hold lifts.
    pub rollouts: Vec<rollout::Rollout>,
    /// Current objects compared without `capi-topology` managedFields.
    pub inexact: usize,
}

impl ClusterPlan {
    /// Whether anything changes.
    pub fn has_changes(&self) -> bool {
        self.objects.iter().any(|o| o.action != Action::Unchanged)
    }
}
