/*!
The totals of a plan: counted Cluster by Cluster as they are emitted, since a streamed plan is
never held whole.
*/

use super::cluster_plan::ClusterPlan;
use super::object::Action;
use crate::diag::{Code, Diagnostic};

/// What a plan sums to over its Clusters: what the end of a run tells (the totals line, the
/// summary of a review, the exit code, the managedFields warning).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Clusters planned.
    pub clusters: usize,
    /// Whether any Cluster's plan changes anything.
    pub changes: bool,
    /// Clusters that change anything.
    pub changed: usize,
    /// Objects to create, modify and delete, over every Cluster.
    pub created: usize,
    /// Objects to modify.
    pub modified: usize,
    /// Objects to delete.
    pub deleted: usize,
    /// Current objects compared without `capi-topology` managedFields, and their Clusters.
    pub inexact: usize,
    /// Clusters with inexactly compared objects.
    pub inexact_clusters: usize,
    /// Rollouts now.
    pub rollouts: usize,
    /// Clusters with a rollout now.
    pub clusters_rolling_out: usize,
    /// Rollouts the upgrade sequencing holds back.
    pub deferred_rollouts: usize,
}

impl Totals {
    /// One Cluster's share.
    pub fn of(p: &ClusterPlan) -> Totals {
        let now = p.rollouts.iter().filter(|r| !r.deferred).count();
        let count = |a: Action| p.objects.iter().filter(|o| o.action == a).count();
        Totals {
            clusters: 1,
            changes: p.has_changes(),
            changed: usize::from(p.has_changes()),
            created: count(Action::Created),
            modified: count(Action::Modified),
            deleted: count(Action::Deleted),
            inexact: p.inexact,
            inexact_clusters: usize::from(p.inexact > 0),
            rollouts: now,
            clusters_rolling_out: usize::from(now > 0),
            deferred_rollouts: p.rollouts.len() - now,
        }
    }

    /// Add another Cluster's share.
    pub fn add(&mut self, s: &Totals) {
        self.clusters += s.clusters;
        self.changes |= s.changes;
        self.changed += s.changed;
        self.created += s.created;
        self.modified += s.modified;
        self.deleted += s.deleted;
        self.inexact += s.inexact;
        self.inexact_clusters += s.inexact_clusters;
        self.rollouts += s.rollouts;
        self.clusters_rolling_out += s.clusters_rolling_out;
        self.deferred_rollouts += s.deferred_rollouts;
    }

    /// The warning for current objects compared without managedFields, if any were.
    pub fn inexact_warning(&self) -> Option<Diagnostic> {
        (self.inexact > 0).then(|| {
            Diagnostic::warning(Code::CurrentInexact, format!(
                "{} current object(s) in {} Cluster(s) have no managedFields entry of capi-topology: a field removed from a template is not detected as removed from them",
                self.inexact, self.inexact_clusters
            ))
            .with_help("export the current objects with their managedFields: kubectl get … -o yaml --show-managed-fields")
        })
    }
}
