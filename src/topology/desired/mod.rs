/*!
Desired state of one Cluster: every object the topology controller would create or patch.

Runs Cluster API's `Generate` steps in order (`exp/topology/desiredstate/desired_state.go` `Generate`): InfrastructureCluster,
control-plane machine template, ControlPlane, control-plane health check, the Cluster's own
changes, MachineDeployments, MachinePools; plus the cluster shim Secret that
`reconcileClusterShim` creates for a new Cluster. Patches are not applied at this stage.
Each object kind has its own file; the shared context is `ctx.rs`, the result types `object.rs`
and `role.rs`; this file runs the steps.
*/

mod cluster;
mod control_plane;
mod ctx;
mod health_check;
mod infrastructure_cluster;
mod machine_deployment;
mod machine_pool;
mod object;
mod refs;
mod role;
mod worker;

pub(crate) use ctx::Ctx;
pub use object::{DesiredObject, DesiredState, Existing};
pub use role::Role;

use serde_json::{Value, json};

use crate::api::Cluster;
use crate::diag::{Code, Diagnostic};
use crate::topology::blueprint::Blueprint;

/// Compute the desired state of a Cluster that does not exist yet.
pub fn compute(cluster: &Cluster, bp: &Blueprint<'_>) -> Result<DesiredState, Vec<Diagnostic>> {
    compute_with(cluster, bp, &Existing::default())
}

/// Compute the desired state of `cluster` from its blueprint, keeping the names of existing
/// objects and the versions the upgrade sequencing decided.
pub fn compute_with(
    cluster: &Cluster,
    bp: &Blueprint<'_>,
    existing: &Existing,
) -> Result<DesiredState, Vec<Diagnostic>> {
    let raw_version = &cluster.topology().version;
    // The Cluster webhook's defaulting adds the `v` prefix before anything reads the version.
    let version = if raw_version.is_empty() || raw_version.starts_with('v') {
        raw_version.clone()
    } else {
        format!("v{raw_version}")
    };
    let ctx = Ctx {
        cluster,
        bp,
        existing,
        api: cluster.api,
        version,
    };
    let mut errors = Vec::new();
    let mut objects = Vec::new();

    let infra = infrastructure_cluster::compute(&ctx).map_err(|e| vec![e])?;
    let cp_template = control_plane::compute_machine_template(&ctx);
    let cp = control_plane::compute(&ctx, cp_template.as_ref()).map_err(|e| vec![e])?;
    let cp_mhc = health_check::control_plane(&ctx, &cp);
    let desired_cluster = cluster::compute(&ctx, &infra, &cp);
    let shim = cluster::shim(&ctx);

    objects.push(DesiredObject {
        role: Role::InfrastructureCluster,
        value: infra,
    });
    if let Some(t) = cp_template {
        objects.push(DesiredObject {
            role: Role::ControlPlaneInfrastructureMachineTemplate,
            value: t,
        });
    }
    objects.push(DesiredObject {
        role: Role::ControlPlane,
        value: cp,
    });
    if let Some(m) = cp_mhc {
        objects.push(DesiredObject {
            role: Role::ControlPlaneHealthCheck,
            value: m,
        });
    }
    objects.push(DesiredObject {
        role: Role::Cluster,
        value: desired_cluster,
    });
    objects.push(DesiredObject {
        role: Role::ClusterShim,
        value: shim,
    });
    // Charged as they are computed, so a topology asking for too much stops at the worker
    // that passes the bound, before the rest is built.
    let mut tally = super::budget::Tally::default();
    let over = |e: super::budget::Exceeded, pointer: &str, label: &str| {
        vec![ctx.cluster_error(
            Code::PlanLimit,
            format!("Cluster {}: {}", cluster.object.key(), e.0),
            pointer,
            label,
        )]
    };
    for o in &objects {
        tally
            .charge(&o.value)
            .map_err(|e| over(e, "/spec/topology", "this topology"))?;
    }
    for (i, mdt) in cluster
        .topology()
        .workers
        .machine_deployments
        .iter()
        .enumerate()
    {
        match machine_deployment::compute(&ctx, i, mdt) {
            Ok(mut objs) => {
                for o in &objs {
                    tally.charge(&o.value).map_err(|e| {
                        over(
                            e,
                            &format!("/spec/topology/workers/machineDeployments/{i}"),
                            "this MachineDeployment's objects pass the bound",
                        )
                    })?;
                }
                objects.append(&mut objs)
            }
            Err(e) => errors.push(e),
        }
    }
    for (i, mpt) in cluster.topology().workers.machine_pools.iter().enumerate() {
        match machine_pool::compute(&ctx, i, mpt) {
            Ok(mut objs) => {
                for o in &objs {
                    tally.charge(&o.value).map_err(|e| {
                        over(
                            e,
                            &format!("/spec/topology/workers/machinePools/{i}"),
                            "this MachinePool's objects pass the bound",
                        )
                    })?;
                }
                objects.append(&mut objs)
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(DesiredState { objects })
    } else {
        Err(errors)
    }
}

/// Set `metadata.name`.
pub fn set_name(obj: &mut Value, name: &str) {
    set_path(obj, &["metadata", "name"], json!(name));
}

use crate::json::set_path;
