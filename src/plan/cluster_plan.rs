/*!
The plan for one Cluster ([`ClusterPlan`]): its objects with their verdicts, what the upgrade
sequencing holds back and what rolls out; the plan of a Cluster without current state
([`classify`]: everything created but the Cluster) and the display order of its objects.
*/

use crate::api::{ApiVersion, Cluster};
use crate::topology::{self, Role};

use super::object::{Action, PlannedObject};
use super::{rollout, why};

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

/// Without current state: everything is created except the Cluster, which exists already.
pub(crate) fn classify(cluster: &Cluster, desired: topology::DesiredState) -> ClusterPlan {
    let mut objects: Vec<PlannedObject> = desired
        .objects
        .into_iter()
        .map(|d| {
            let action = if d.role == Role::Cluster {
                if d.value == cluster.object.value {
                    Action::Unchanged
                } else {
                    Action::Modified
                }
            } else {
                Action::Created
            };
            // The Cluster's change, when the controller's own fields are all of it, explained.
            let note = (action == Action::Modified)
                .then(|| why::cluster_note(&cluster.object.value, &d.value))
                .flatten();
            PlannedObject {
                action,
                role: d.role,
                object: d.value,
                current: None,
                note,
                rotated_from: None,
                pending: None,
            }
        })
        .collect();
    sort_objects(&mut objects);
    ClusterPlan {
        namespace: cluster.namespace().to_string(),
        name: cluster.name().to_string(),
        class: cluster.class_key(),
        api: cluster.api,
        source: None,
        objects,
        patches: Vec::new(),
        deferred: Vec::new(),
        rollouts: Vec::new(),
        inexact: 0,
    }
}

/// Display order: created, modified, unchanged, deleted; then kind, name, namespace.
pub(crate) fn sort_objects(objects: &mut [PlannedObject]) {
    objects.sort_by_cached_key(|o| {
        (
            o.action,
            o.kind().to_string(),
            o.name().to_string(),
            o.namespace().to_string(),
        )
    });
}
