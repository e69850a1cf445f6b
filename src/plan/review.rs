/*!
Review: what a change to the inputs does to every Cluster (`topoplan diff OLD NEW`).

Owns the meaning of a diff: every Cluster is planned with the old inputs; the result is taken as
the state the fleet converged to (each object as the topology controller would have written it,
control planes reporting the version they were asked for); then every Cluster is planned with
the new inputs against that state. So a diff reports exactly what applying the change to a
settled fleet would do — templates rotated, machines rolled out, upgrades sequenced — through
the same comparison `plan --current` uses. Stored ClusterClasses and Clusters of the old inputs
make admission of the new ones an update, so incompatible class changes are refused as the API
server would refuse them. Clusters only in the new inputs are created; Clusters only in the old
ones are deleted with everything they own.
*/

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{Action, ClusterPlan, PlanOptions, PlannedObject};
use crate::load::{LoadOptions, Object};
use crate::source::{Origin, SourceFile, SpanTable};
use crate::topology::Role;

/// Resolved options for `topoplan diff`.
#[derive(Debug, Clone, Default)]
pub struct ReviewOptions {
    /// How to read the old inputs.
    pub old: LoadOptions,
    /// The new inputs and everything else planning needs; `plan.current`, when given, is the
    /// management cluster both sides take what they lack from.
    pub plan: PlanOptions,
}

/// Which Clusters a change adds and removes: known before the first Cluster is emitted.
#[derive(Debug, Clone, Default)]
pub struct Membership {
    /// Clusters only in the new inputs.
    pub added: BTreeSet<(String, String)>,
    /// Clusters only in the old inputs.
    pub removed: BTreeSet<(String, String)>,
}

/// What a review counts over its Clusters (the `summary` of its document, and its last line).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Clusters reviewed (the new inputs' and the removed ones).
    pub clusters: usize,
    /// Clusters that change anything.
    pub changed: usize,
    /// Clusters only in the new inputs.
    pub added: usize,
    /// Clusters only in the old inputs.
    pub removed: usize,
    /// Clusters with a rollout now.
    pub clusters_rolling_out: usize,
    /// Rollouts now.
    pub rollouts: usize,
    /// Rollouts the upgrade sequencing holds back.
    pub deferred_rollouts: usize,
}

/// A topology Cluster of Cluster API.
pub(crate) fn is_topology_cluster(o: &Object) -> bool {
    o.kind == "Cluster"
        && o.group() == crate::api::GROUP
        && o.value
            .pointer("/spec/topology")
            .is_some_and(|t| !t.is_null())
}

/// The objects of a planned Cluster as the controllers leave them once everything settled:
/// what the plan created or changed, with each control plane reporting the version it was
/// asked for (so the new plan sees a stable control plane, not one still provisioning), and the
/// Cluster owning its InfrastructureCluster and ControlPlane in place of the cluster shim,
/// which is gone by then (the Cluster controller adopts both; the topology controller then
/// deletes the shim).
pub(crate) fn converged(c: &ClusterPlan) -> Vec<Object> {
    let origin = Origin {
        file: SourceFile::new(
            format!("{}/{} as planned from the old inputs", c.namespace, c.name),
            String::new(),
        ),
        spans: Arc::new(SpanTable::default()),
    };
    c.objects
        .iter()
        .filter(|o| o.action != Action::Deleted && o.role != Role::ClusterShim)
        .filter_map(|o| {
            let mut v = o.object.clone();
            if matches!(o.role, Role::InfrastructureCluster | Role::ControlPlane) {
                adopt(&mut v, c);
            }
            if o.role == Role::ControlPlane
                && let Some(version) = v.pointer("/spec/version").cloned()
            {
                crate::json::set_path(&mut v, &["status", "version"], version);
            }
            Object::new(v, origin.clone(), &c.namespace).ok()
        })
        .collect()
}

/// Replace the shim owner reference by the Cluster's (as the Cluster controller sets it).
fn adopt(v: &mut Value, c: &ClusterPlan) {
    let shim = format!("{}-shim", c.name);
    let Some(refs) = v
        .pointer_mut("/metadata/ownerReferences")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    refs.retain(|r| {
        !(r.get("kind").and_then(Value::as_str) == Some("Secret")
            && r.get("name").and_then(Value::as_str) == Some(shim.as_str()))
    });
    refs.push(json!({
        "apiVersion": c.api.api_version(),
        "kind": "Cluster",
        "name": c.name,
        "controller": true,
        "blockOwnerDeletion": true,
    }));
}

/// A Cluster that the new inputs no longer define: it and everything it owns go away.
pub(crate) fn removed_cluster(mut c: ClusterPlan) -> ClusterPlan {
    c.objects = c
        .objects
        .into_iter()
        .filter(|o| o.action != Action::Deleted)
        .map(|o| PlannedObject {
            action: Action::Deleted,
            current: Some(o.object.clone()),
            note: Some("the Cluster is no longer in the inputs".into()),
            rotated_from: None,
            pending: None,
            ..o
        })
        .collect();
    c.rollouts.clear();
    c.deferred.clear();
    c
}

/// The `summary` of a review's document.
pub fn summary(c: &Counts) -> Value {
    json!({
        "clusters": c.clusters,
        "changed": c.changed,
        "unchanged": c.clusters - c.changed,
        "added": c.added,
        "removed": c.removed,
        "clustersRollingOut": c.clusters_rolling_out,
        "rollouts": c.rollouts,
        "deferredRollouts": c.deferred_rollouts,
    })
}
