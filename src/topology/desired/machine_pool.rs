//! A MachinePool with its bootstrap config and infrastructure machine pool
//! (`computeMachinePool`, `exp/topology/desiredstate/desired_state.go`). MachinePools have no health check, rollout
//! strategy or readiness gates, and their two companions are objects, not templates.

use serde_json::{Map, Value, json};

use super::ctx::{Ctx, put};
use super::object::DesiredObject;
use super::refs;
use super::role::Role;
use super::worker::{self, Kind};
use crate::api::{ApiVersion, MachinePoolTopology};
use crate::diag::Diagnostic;
use crate::topology::names::NameTarget;

/// Every object for MachinePool topology `mpt` (entry `index` of the Cluster's list).
pub fn compute(
    ctx: &Ctx<'_>,
    index: usize,
    mpt: &MachinePoolTopology,
) -> Result<Vec<DesiredObject>, Diagnostic> {
    let classes = &ctx.bp.class.spec.workers.machine_pools;
    let (Some(bp), Some(class)) = (
        ctx.bp.machine_pools.get(&mpt.class),
        classes.iter().find(|c| c.class == mpt.class),
    ) else {
        let known = classes.iter().map(|c| c.class.as_str());
        return Err(worker::unknown_class(
            ctx,
            Kind::MachinePool,
            &mpt.class,
            index,
            known,
        ));
    };
    ctx.check_spec_template(bp.bootstrap, "BootstrapConfig")?;
    ctx.check_spec_template(bp.infrastructure, "InfrastructureMachinePool")?;
    let [(bootstrap_role, bootstrap), (infra_role, infra)] = worker::companions(
        ctx,
        Kind::MachinePool,
        &mpt.name,
        [
            (
                Role::MachinePoolBootstrapConfig(mpt.name.clone()),
                bp.bootstrap,
            ),
            (
                Role::MachinePoolInfrastructure(mpt.name.clone()),
                bp.infrastructure,
            ),
        ],
        true,
    );
    let mp_role = Role::MachinePool(mpt.name.clone());
    let name = worker::name(
        ctx,
        Kind::MachinePool,
        &class.naming.template,
        bp.index,
        &NameTarget::MachinePool(&mpt.name),
        &mp_role,
    )?;
    let (metadata, template_meta) = worker::metadata(
        ctx,
        Kind::MachinePool,
        &mpt.name,
        &mpt.metadata,
        &class.metadata,
        &name,
    );

    let min_ready = mpt
        .min_ready_seconds
        .clone()
        .or_else(|| class.min_ready_seconds.clone())
        .unwrap_or(Value::Null);
    let mut machine = Map::new();
    machine.insert("clusterName".into(), json!(ctx.cluster.name()));
    machine.insert(
        "bootstrap".into(),
        json!({ "configRef": refs::core(ctx.api, &bootstrap) }),
    );
    machine.insert("infrastructureRef".into(), refs::core(ctx.api, &infra));
    put(
        &mut machine,
        "taints",
        mpt.taints
            .clone()
            .or_else(|| class.taints.clone())
            .unwrap_or(Value::Null),
    );
    worker::write_timeouts(
        ctx.api,
        &mut machine,
        worker::timeouts(&mpt.deletion, &class.deletion),
    );

    let mut spec = Map::new();
    spec.insert("clusterName".into(), json!(ctx.cluster.name()));
    put(
        &mut spec,
        "replicas",
        mpt.replicas.clone().unwrap_or(Value::Null),
    );
    put(
        &mut spec,
        "failureDomains",
        mpt.failure_domains
            .clone()
            .or_else(|| class.failure_domains.clone())
            .unwrap_or(Value::Null),
    );
    match ctx.api {
        ApiVersion::V1Beta2 => {
            put(&mut machine, "version", json!(ctx.version_for(&mp_role)));
            put(&mut machine, "minReadySeconds", min_ready);
        }
        ApiVersion::V1Beta1 => {
            machine.insert("version".into(), json!(ctx.version_for(&mp_role)));
            put(&mut spec, "minReadySeconds", min_ready);
        }
    }
    spec.insert(
        "template".into(),
        json!({ "metadata": Value::Object(template_meta), "spec": Value::Object(machine) }),
    );
    let mp = json!({
        "apiVersion": ctx.api.api_version(),
        "kind": "MachinePool",
        "metadata": Value::Object(metadata),
        "spec": Value::Object(spec),
    });
    Ok(vec![
        DesiredObject {
            role: bootstrap_role,
            value: bootstrap,
        },
        DesiredObject {
            role: infra_role,
            value: infra,
        },
        DesiredObject {
            role: mp_role,
            value: mp,
        },
    ])
}
