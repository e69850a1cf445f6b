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

use rayon::prelude::*;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{Action, ClusterPlan, Plan, PlanOptions, PlannedObject, plan_against_with};
use crate::diag::{Diagnostic, Diagnostics};
use crate::load::source::{Origin, SourceFile, SpanTable};
use crate::load::{self, LoadOptions, Object};
use crate::output::progress::Progress;
use crate::topology::Role;

/// Resolved options for `topoplan diff`.
#[derive(Debug, Clone, Default)]
pub struct ReviewOptions {
    /// How to read the old inputs.
    pub old: LoadOptions,
    /// The new inputs and everything else planning needs (`plan.current` is ignored).
    pub plan: PlanOptions,
}

/// The review of a change.
#[derive(Debug, Clone, Default)]
pub struct Review {
    /// Per Cluster (new inputs' Clusters, then removed ones, in namespace/name order): the plan
    /// of the new inputs against the state the old inputs produce.
    pub plan: Plan,
    /// Clusters only in the new inputs.
    pub added: BTreeSet<(String, String)>,
    /// Clusters only in the old inputs.
    pub removed: BTreeSet<(String, String)>,
    /// The old inputs' plan of every Cluster still in the new inputs (the state taken as
    /// settled).
    pub old: Vec<ClusterPlan>,
    /// What the review was computed from (both inputs, the settled old state), handed back so
    /// a caller about to exit can skip freeing it.
    pub inputs: Vec<Object>,
}

impl Review {
    /// Whether anything changes.
    pub fn has_changes(&self) -> bool {
        self.plan.clusters.iter().any(ClusterPlan::has_changes)
    }
}

/// Read both input sets and review the change.
pub fn review(opts: &ReviewOptions) -> Result<Review, Diagnostics> {
    review_with(opts, &Progress::hidden())
}

/// [`review`], counting planned Clusters (both sides) on `progress`.
pub fn review_with(opts: &ReviewOptions, progress: &Progress) -> Result<Review, Diagnostics> {
    // Both sides at once: files they share are parsed once.
    let mut loaded = load::load_many(&[opts.old.clone(), opts.plan.load.clone()]).into_iter();
    let (old, new) = match (loaded.next(), loaded.next()) {
        (Some(Ok(o)), Some(Ok(n))) => (o, n),
        (o, n) => {
            let mut errors = Vec::new();
            for e in [o, n].into_iter().flatten().filter_map(Result::err) {
                errors.extend(e.0);
            }
            return Err(Diagnostics(errors));
        }
    };
    // What the loader skipped (special files) is told first, whether or not the review succeeds.
    let skipped = old.warnings.iter().chain(&new.warnings).cloned();
    let mut r = match review_inputs_with(&old, &new, &opts.plan, progress) {
        Ok(r) => r,
        Err(Diagnostics(mut d)) => {
            d.splice(0..0, skipped);
            return Err(Diagnostics(d));
        }
    };
    r.plan.warnings.splice(0..0, skipped);
    r.inputs.extend(old.objects);
    r.inputs.extend(new.objects);
    Ok(r)
}

/// Review loaded inputs.
pub fn review_inputs(
    old: &load::Inputs,
    new: &load::Inputs,
    opts: &PlanOptions,
) -> Result<Review, Diagnostics> {
    review_inputs_with(old, new, opts, &Progress::hidden())
}

fn review_inputs_with(
    old: &load::Inputs,
    new: &load::Inputs,
    opts: &PlanOptions,
    progress: &Progress,
) -> Result<Review, Diagnostics> {
    let old_plan =
        plan_against_with(old, None, opts, progress, false).map_err(|Diagnostics(d)| {
            let mut out = vec![Diagnostic::error(
                "the old inputs do not plan: a diff needs both sides to be valid",
            )];
            out.extend(d);
            Diagnostics(out)
        })?;
    let new_keys: BTreeSet<(String, String)> = new
        .objects
        .iter()
        .filter(|o| is_topology_cluster(o))
        .map(|o| (o.namespace.clone(), o.name.clone()))
        .collect();
    let old_keys: BTreeSet<(String, String)> = old_plan
        .clusters
        .iter()
        .map(|c| (c.namespace.clone(), c.name.clone()))
        .collect();
    let removed: BTreeSet<(String, String)> = old_keys.difference(&new_keys).cloned().collect();
    let added: BTreeSet<(String, String)> = new_keys.difference(&old_keys).cloned().collect();

    // The old inputs' classes (for admission's update checks), then the converged objects of
    // every Cluster that is still there.
    let mut state: Vec<Object> = old
        .objects
        .iter()
        .filter(|o| o.kind == "ClusterClass" && o.group() == crate::api::GROUP)
        .cloned()
        .collect();
    let mut gone = Vec::new();
    let mut kept = Vec::new();
    for c in old_plan.clusters {
        let key = (c.namespace.clone(), c.name.clone());
        if removed.contains(&key) {
            gone.push(removed_cluster(c));
        } else {
            kept.push(c);
        }
    }
    // Settling each Cluster is independent: in parallel, kept in order.
    let settled: Vec<Vec<Object>> = kept.par_iter().map(converged).collect();
    state.extend(settled.into_iter().flatten());
    let mut plan = plan_against_with(new, Some(&state), opts, progress, true)?;
    for c in &mut plan.clusters {
        if added.contains(&(c.namespace.clone(), c.name.clone())) {
            for o in &mut c.objects {
                if o.role == Role::Cluster {
                    o.action = Action::Created;
                    o.note = Some("new Cluster".into());
                }
            }
        }
    }
    plan.clusters.extend(gone);
    plan.clusters.sort_by(|a, b| {
        (&a.namespace, &a.name, &a.source).cmp(&(&b.namespace, &b.name, &b.source))
    });
    Ok(Review {
        plan,
        added,
        removed,
        inputs: state,
        old: kept,
    })
}

fn is_topology_cluster(o: &Object) -> bool {
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
fn converged(c: &ClusterPlan) -> Vec<Object> {
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
                crate::topology::desired::set_path(&mut v, &["status", "version"], version);
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
fn removed_cluster(mut c: ClusterPlan) -> ClusterPlan {
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

/// A one-line summary of a review (also the `summary` of its JSON document).
pub fn summary(r: &Review) -> Value {
    let changed = r.plan.clusters.iter().filter(|c| c.has_changes()).count();
    let rollouts: usize = r
        .plan
        .clusters
        .iter()
        .map(|c| c.rollouts.iter().filter(|x| !x.deferred).count())
        .sum();
    let deferred: usize = r
        .plan
        .clusters
        .iter()
        .map(|c| c.rollouts.iter().filter(|x| x.deferred).count())
        .sum();
    let rolling = r
        .plan
        .clusters
        .iter()
        .filter(|c| c.rollouts.iter().any(|x| !x.deferred))
        .count();
    json!({
        "clusters": r.plan.clusters.len(),
        "changed": changed,
        "unchanged": r.plan.clusters.len() - changed,
        "added": r.added.len(),
        "removed": r.removed.len(),
        "clustersRollingOut": rolling,
        "rollouts": rollouts,
        "deferredRollouts": deferred,
    })
}
