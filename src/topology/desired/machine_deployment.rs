//! A MachineDeployment, its two templates and its health check (`computeMachineDeployment`,
//! `exp/topology/desiredstate/desired_state.go`; v1beta1 output as Cluster API v1.10 built it).

use serde_json::{Map, Value, json};

use super::ctx::{Ctx, put};
use super::object::DesiredObject;
use super::role::Role;
use super::worker::{self, Kind};
use super::{health_check, refs};
use crate::api::{ApiVersion, MachineDeploymentClass, MachineDeploymentTopology};
use crate::diag::Diagnostic;
use crate::topology::names::NameTarget;

/// Every object for MachineDeployment topology `mdt` (entry `index` of the Cluster's list).
pub fn compute(
    ctx: &Ctx<'_>,
    index: usize,
    mdt: &MachineDeploymentTopology,
) -> Result<Vec<DesiredObject>, Diagnostic> {
    let classes = &ctx.bp.class.spec.workers.machine_deployments;
    let (Some(bp), Some(class)) = (
        ctx.bp.machine_deployments.get(&mdt.class),
        classes.iter().find(|c| c.class == mdt.class),
    ) else {
        let known = classes.iter().map(|c| c.class.as_str());
        return Err(worker::unknown_class(
            ctx,
            Kind::MachineDeployment,
            &mdt.class,
            index,
            known,
        ));
    };
    let [(bootstrap_role, bootstrap), (infra_role, infra)] = worker::companions(
        ctx,
        Kind::MachineDeployment,
        &mdt.name,
        [
            (
                Role::MachineDeploymentBootstrapTemplate(mdt.name.clone()),
                bp.bootstrap,
            ),
            (
                Role::MachineDeploymentInfrastructureTemplate(mdt.name.clone()),
                bp.infrastructure,
            ),
        ],
        false,
    );
    let md_role = Role::MachineDeployment(mdt.name.clone());
    let name = worker::name(
        ctx,
        Kind::MachineDeployment,
        &class.naming.template,
        bp.index,
        &NameTarget::MachineDeployment(&mdt.name),
        &md_role,
    )?;
    let (metadata, template_meta) = worker::metadata(
        ctx,
        Kind::MachineDeployment,
        &mdt.name,
        &mdt.metadata,
        &class.metadata,
        &name,
    );
    let machine = machine_spec(ctx, mdt, class, &bootstrap, &infra);
    let spec = deployment_spec(ctx, index, mdt, class, machine, template_meta, &md_role)?;
    let md = json!({
        "apiVersion": ctx.api.api_version(),
        "kind": "MachineDeployment",
        "metadata": Value::Object(metadata),
        "spec": Value::Object(spec),
    });
    let mhc = health_check::machine_deployment(
        ctx,
        &md,
        &mdt.name,
        &mdt.health_check,
        &class.health_check,
    );

    let mut out = vec![
        DesiredObject {
            role: bootstrap_role,
            value: bootstrap,
        },
        DesiredObject {
            role: infra_role,
            value: infra,
        },
        DesiredObject {
            role: md_role,
            value: md,
        },
    ];
    if let Some(m) = mhc {
        out.push(DesiredObject {
            role: Role::MachineDeploymentHealthCheck(mdt.name.clone()),
            value: m,
        });
    }
    Ok(out)
}

/// What both API versions put in the MachineDeployment's `spec.template.spec`: the Cluster,
/// the two templates (`bootstrap`, `infra`), and the topology's values else the class's.
fn machine_spec(
    ctx: &Ctx<'_>,
    mdt: &MachineDeploymentTopology,
    class: &MachineDeploymentClass,
    bootstrap: &Value,
    infra: &Value,
) -> Map<String, Value> {
    let mut machine = Map::new();
    machine.insert("clusterName".into(), json!(ctx.cluster.name()));
    machine.insert(
        "bootstrap".into(),
        json!({ "configRef": refs::core(ctx.api, bootstrap) }),
    );
    machine.insert("infrastructureRef".into(), refs::core(ctx.api, infra));
    let fd = if mdt.failure_domain.is_empty() {
        &class.failure_domain
    } else {
        &mdt.failure_domain
    };
    put(&mut machine, "failureDomain", json!(fd));
    put(
        &mut machine,
        "readinessGates",
        pick(&mdt.readiness_gates, &class.readiness_gates),
    );
    put(&mut machine, "taints", pick(&mdt.taints, &class.taints));
    worker::write_timeouts(
        ctx.api,
        &mut machine,
        worker::timeouts(&mdt.deletion, &class.deletion),
    );
    machine
}

/// The MachineDeployment's `spec`: replicas, selector, the fields whose place differs between
/// API versions (version, minReadySeconds, rollout or strategy), and the machines' template
/// (`template_meta`, `machine`).
fn deployment_spec(
    ctx: &Ctx<'_>,
    index: usize,
    mdt: &MachineDeploymentTopology,
    class: &MachineDeploymentClass,
    mut machine: Map<String, Value>,
    template_meta: Map<String, Value>,
    md_role: &Role,
) -> Result<Map<String, Value>, Diagnostic> {
    let selector = json!({
        crate::api::labels::CLUSTER_NAME: ctx.cluster.name(),
        crate::api::labels::TOPOLOGY_OWNED: "",
        crate::api::labels::DEPLOYMENT_NAME: mdt.name,
    });
    let min_ready = pick(&mdt.min_ready_seconds, &class.min_ready_seconds);
    let mut spec = Map::new();
    spec.insert("clusterName".into(), json!(ctx.cluster.name()));
    put(
        &mut spec,
        "replicas",
        mdt.replicas.clone().unwrap_or(Value::Null),
    );
    spec.insert("selector".into(), json!({ "matchLabels": selector }));
    match ctx.api {
        ApiVersion::V1Beta2 => {
            // v1beta2's Version is a plain string with omitempty.
            put(&mut machine, "version", json!(ctx.version_for(md_role)));
            put(&mut machine, "minReadySeconds", min_ready);
            rollout_v1beta2(&mut spec, mdt, class).map_err(|e| {
                ctx.cluster_error(
                    crate::diag::Code::PlanDesiredState,
                    format!(
                        "Cluster {}: spec.topology.workers.machineDeployments[{index}].rollout.after: {e}",
                        ctx.cluster.object.key()
                    ),
                    &format!("/spec/topology/workers/machineDeployments/{index}/rollout/after"),
                    "expected an RFC 3339 time",
                )
            })?;
        }
        ApiVersion::V1Beta1 => {
            // v1.10's Version is a pointer, always set.
            machine.insert("version".into(), json!(ctx.version_for(md_role)));
            put(&mut spec, "minReadySeconds", min_ready);
            strategy_v1beta1(&mut spec, mdt, class);
        }
    }
    spec.insert(
        "template".into(),
        json!({ "metadata": Value::Object(template_meta), "spec": Value::Object(machine) }),
    );
    Ok(spec)
}

/// Topology value if set (non-nil), else the class's.
fn pick(topology: &Option<Value>, class: &Option<Value>) -> Value {
    topology
        .clone()
        .or_else(|| class.clone())
        .unwrap_or(Value::Null)
}

/// v1beta2: `rollout`, `deletion.order` and `remediation.maxInFlight`, each with its own
/// topology-over-class precedence.
fn rollout_v1beta2(
    spec: &mut Map<String, Value>,
    mdt: &MachineDeploymentTopology,
    class: &MachineDeploymentClass,
) -> Result<(), String> {
    // Whole-struct precedence: a topology that sets only rollout.after drops the class strategy.
    let mut rollout = Map::new();
    if !class.rollout.is_zero() {
        put(
            &mut rollout,
            "strategy",
            Value::Object(class.rollout.strategy.clone()),
        );
    }
    if !mdt.rollout.is_zero() {
        rollout = Map::new();
        // metav1.Time is written in UTC to the second.
        let after = match &mdt.rollout.after {
            Some(a) if !crate::api::is_zero(a) => crate::api::time::normalize(a)?,
            _ => Value::Null,
        };
        put(&mut rollout, "after", after);
        put(
            &mut rollout,
            "strategy",
            Value::Object(mdt.rollout.strategy.clone()),
        );
    }
    put(spec, "rollout", Value::Object(rollout));
    let max_in_flight = mdt
        .health_check
        .max_in_flight()
        .or(class.health_check.max_in_flight());
    if let Some(m) = max_in_flight {
        spec.insert("remediation".into(), json!({ "maxInFlight": m }));
    }
    let order = if mdt.deletion.order.is_empty() {
        &class.deletion.order
    } else {
        &mdt.deletion.order
    };
    if !order.is_empty() {
        spec.insert("deletion".into(), json!({ "order": order }));
    }
    Ok(())
}

/// v1beta1 (Cluster API v1.10): one `strategy` bundle — rollout, deletePolicy and
/// remediation — taken whole from the topology when it sets one, else from the class.
fn strategy_v1beta1(
    spec: &mut Map<String, Value>,
    mdt: &MachineDeploymentTopology,
    class: &MachineDeploymentClass,
) {
    let (rollout, order, max_in_flight) = if mdt.v1beta1_strategy_set {
        (
            &mdt.rollout.strategy,
            &mdt.deletion.order,
            mdt.health_check.max_in_flight(),
        )
    } else {
        (
            &class.rollout.strategy,
            &class.deletion.order,
            class.health_check.max_in_flight(),
        )
    };
    let mut strategy = Map::new();
    put(
        &mut strategy,
        "type",
        rollout.get("type").cloned().unwrap_or(Value::Null),
    );
    let mut rolling = rollout
        .get("rollingUpdate")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    put(&mut rolling, "deletePolicy", json!(order));
    put(&mut strategy, "rollingUpdate", Value::Object(rolling));
    if let Some(m) = max_in_flight {
        strategy.insert("remediation".into(), json!({ "maxInFlight": m }));
    }
    // A strategy written in the source is a non-nil pointer in v1.10: sent even when empty.
    if mdt.v1beta1_strategy_set || class.v1beta1_strategy_set {
        spec.insert("strategy".into(), Value::Object(strategy));
    }
}
