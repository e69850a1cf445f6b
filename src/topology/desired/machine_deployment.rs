//! A MachineDeployment, its two templates and its health check (`computeMachineDeployment`,
//! desired-state.md §4.6; v1beta1 output as Cluster API v1.10 built it, §7.3).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::infrastructure_cluster::naming_error;
use super::{Ctx, DesiredObject, Role, health_check, put, refs};
use crate::api::convert::go_duration_string;
use crate::api::{ApiVersion, MachineDeploymentClass, MachineDeploymentTopology, labels};
use crate::diag::Diagnostic;
use crate::topology::names::{self, NameTarget};
use crate::topology::template::{self, CloneInput, merge_map, to_value};

/// Every object for MachineDeployment topology `mdt` (entry `index` of the Cluster's list).
pub fn compute(
    ctx: &Ctx<'_>,
    index: usize,
    mdt: &MachineDeploymentTopology,
) -> Result<Vec<DesiredObject>, Diagnostic> {
    let class_spec = &ctx.bp.class.spec;
    let (Some(bp), Some(class)) = (
        ctx.bp.machine_deployments.get(&mdt.class),
        class_spec
            .workers
            .machine_deployments
            .iter()
            .find(|c| c.class == mdt.class),
    ) else {
        return Err(ctx
            .cluster_error(
                format!(
                    "MachineDeployment class {} not found in ClusterClass {}",
                    mdt.class,
                    ctx.bp.class.key()
                ),
                &ctx.cluster
                    .worker_class_pointer("machineDeployments", index),
                "unknown MachineDeployment class",
            )
            .with_help(format!(
                "the class defines: {}",
                known(
                    class_spec
                        .workers
                        .machine_deployments
                        .iter()
                        .map(|c| c.class.as_str())
                )
            )));
    };
    let cluster_name = ctx.cluster.name();
    let prefix = format!("{cluster_name}-{}-", mdt.name);
    let mut template_labels = BTreeMap::new();
    template_labels.insert(labels::DEPLOYMENT_NAME.to_string(), mdt.name.clone());

    let bootstrap_role = Role::MachineDeploymentBootstrapTemplate(mdt.name.clone());
    let bootstrap = template::to_template(CloneInput {
        template: bp.bootstrap,
        cluster_name,
        namespace: ctx.cluster.namespace(),
        name: ctx.simple_name(&prefix, &bootstrap_role),
        labels: template_labels.clone(),
        annotations: BTreeMap::new(),
        owner: Some(ctx.cluster_owner_ref()),
    });
    let infra_role = Role::MachineDeploymentInfrastructureTemplate(mdt.name.clone());
    let infra = template::to_template(CloneInput {
        template: bp.infrastructure,
        cluster_name,
        namespace: ctx.cluster.namespace(),
        name: ctx.simple_name(&prefix, &infra_role),
        labels: template_labels,
        annotations: BTreeMap::new(),
        owner: Some(ctx.cluster_owner_ref()),
    });

    let md_role = Role::MachineDeployment(mdt.name.clone());
    let name = names::from_template(
        &class.naming.template,
        cluster_name,
        &NameTarget::MachineDeployment(&mdt.name),
        &ctx.seed(&md_role),
    )
    .map_err(|e| {
        let ptr = match ctx.bp.class.api {
            ApiVersion::V1Beta1 => format!(
                "/spec/workers/machineDeployments/{}/namingStrategy/template",
                bp.index
            ),
            ApiVersion::V1Beta2 => format!(
                "/spec/workers/machineDeployments/{}/naming/template",
                bp.index
            ),
        };
        naming_error(ctx, "MachineDeployment", &e, &ptr)
    })?;

    let mut annotations = merge_map(&mdt.metadata.annotations, &class.metadata.annotations);
    annotations.remove(labels::HOLD_UPGRADE_SEQUENCE);
    annotations.remove(labels::DEFER_UPGRADE);
    let mut md_labels = merge_map(&mdt.metadata.labels, &class.metadata.labels);
    md_labels.insert(labels::CLUSTER_NAME.into(), cluster_name.to_string());
    md_labels.insert(labels::TOPOLOGY_OWNED.into(), String::new());
    md_labels.insert(labels::DEPLOYMENT_NAME.into(), mdt.name.clone());
    let selector = json!({
        labels::CLUSTER_NAME: cluster_name,
        labels::TOPOLOGY_OWNED: "",
        labels::DEPLOYMENT_NAME: mdt.name,
    });

    let mut metadata = Map::new();
    metadata.insert("name".into(), json!(name));
    metadata.insert("namespace".into(), json!(ctx.cluster.namespace()));
    metadata.insert("labels".into(), to_value(md_labels.clone()));
    let mut template_meta = Map::new();
    template_meta.insert("labels".into(), to_value(md_labels));
    if !annotations.is_empty() {
        metadata.insert("annotations".into(), to_value(annotations.clone()));
        template_meta.insert("annotations".into(), to_value(annotations));
    }

    let spec = match ctx.api {
        ApiVersion::V1Beta2 => {
            spec_v1beta2(ctx, mdt, class, &bootstrap, &infra, selector, template_meta)
        }
        ApiVersion::V1Beta1 => {
            spec_v1beta1(ctx, mdt, class, &bootstrap, &infra, selector, template_meta)
        }
    };
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

/// `spec` of a v1beta2 MachineDeployment.
fn spec_v1beta2(
    ctx: &Ctx<'_>,
    mdt: &MachineDeploymentTopology,
    class: &MachineDeploymentClass,
    bootstrap: &Value,
    infra: &Value,
    selector: Value,
    template_meta: Map<String, Value>,
) -> Map<String, Value> {
    let cluster_name = ctx.cluster.name();
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
        put(
            &mut rollout,
            "after",
            mdt.rollout.after.clone().unwrap_or(Value::Null),
        );
        put(
            &mut rollout,
            "strategy",
            Value::Object(mdt.rollout.strategy.clone()),
        );
    }
    let order = if mdt.deletion.order.is_empty() {
        &class.deletion.order
    } else {
        &mdt.deletion.order
    };
    let max_in_flight = mdt
        .health_check
        .max_in_flight()
        .or(class.health_check.max_in_flight())
        .cloned();

    let mut machine = Map::new();
    machine.insert("clusterName".into(), json!(cluster_name));
    put(&mut machine, "version", json!(ctx.version));
    machine.insert(
        "bootstrap".into(),
        json!({ "configRef": refs::contract_versioned(bootstrap) }),
    );
    machine.insert("infrastructureRef".into(), refs::contract_versioned(infra));
    let fd = if mdt.failure_domain.is_empty() {
        &class.failure_domain
    } else {
        &mdt.failure_domain
    };
    put(&mut machine, "failureDomain", json!(fd));
    put(&mut machine, "deletion", deletion_seconds(mdt, class));
    put(
        &mut machine,
        "readinessGates",
        mdt.readiness_gates
            .clone()
            .or(class.readiness_gates.clone())
            .unwrap_or(Value::Null),
    );
    put(
        &mut machine,
        "taints",
        mdt.taints
            .clone()
            .or(class.taints.clone())
            .unwrap_or(Value::Null),
    );
    put(
        &mut machine,
        "minReadySeconds",
        mdt.min_ready_seconds
            .clone()
            .or(class.min_ready_seconds.clone())
            .unwrap_or(Value::Null),
    );

    let mut spec = Map::new();
    spec.insert("clusterName".into(), json!(cluster_name));
    put(
        &mut spec,
        "replicas",
        mdt.replicas.clone().unwrap_or(Value::Null),
    );
    put(&mut spec, "rollout", Value::Object(rollout));
    spec.insert("selector".into(), json!({ "matchLabels": selector }));
    spec.insert(
        "template".into(),
        json!({ "metadata": Value::Object(template_meta), "spec": Value::Object(machine) }),
    );
    if let Some(m) = max_in_flight {
        spec.insert("remediation".into(), json!({ "maxInFlight": m }));
    }
    put(
        &mut spec,
        "deletion",
        if order.is_empty() {
            Value::Null
        } else {
            json!({ "order": order })
        },
    );
    spec
}

/// `spec` of a v1beta1 MachineDeployment, as Cluster API v1.10 built it: the strategy bundle
/// (rollout, deletePolicy, remediation) is taken whole from the topology when it sets one.
fn spec_v1beta1(
    ctx: &Ctx<'_>,
    mdt: &MachineDeploymentTopology,
    class: &MachineDeploymentClass,
    bootstrap: &Value,
    infra: &Value,
    selector: Value,
    template_meta: Map<String, Value>,
) -> Map<String, Value> {
    let cluster_name = ctx.cluster.name();
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

    let mut machine = Map::new();
    machine.insert("clusterName".into(), json!(cluster_name));
    machine.insert("version".into(), json!(ctx.version));
    machine.insert(
        "bootstrap".into(),
        json!({ "configRef": refs::object_reference(bootstrap) }),
    );
    machine.insert("infrastructureRef".into(), refs::object_reference(infra));
    let fd = if mdt.failure_domain.is_empty() {
        &class.failure_domain
    } else {
        &mdt.failure_domain
    };
    put(&mut machine, "failureDomain", json!(fd));
    let d = deletion_seconds(mdt, class);
    for (field, key) in [
        ("nodeDrainTimeout", "nodeDrainTimeoutSeconds"),
        ("nodeVolumeDetachTimeout", "nodeVolumeDetachTimeoutSeconds"),
        ("nodeDeletionTimeout", "nodeDeletionTimeoutSeconds"),
    ] {
        if let Some(s) = d.get(key).and_then(Value::as_i64) {
            machine.insert(field.into(), json!(go_duration_string(s)));
        }
    }
    put(
        &mut machine,
        "readinessGates",
        mdt.readiness_gates
            .clone()
            .or(class.readiness_gates.clone())
            .unwrap_or(Value::Null),
    );
    put(
        &mut machine,
        "taints",
        mdt.taints
            .clone()
            .or(class.taints.clone())
            .unwrap_or(Value::Null),
    );

    let mut spec = Map::new();
    spec.insert("clusterName".into(), json!(cluster_name));
    put(
        &mut spec,
        "replicas",
        mdt.replicas.clone().unwrap_or(Value::Null),
    );
    put(
        &mut spec,
        "minReadySeconds",
        mdt.min_ready_seconds
            .clone()
            .or(class.min_ready_seconds.clone())
            .unwrap_or(Value::Null),
    );
    put(&mut spec, "strategy", Value::Object(strategy));
    if let Some(after) = mdt.rollout.after.clone() {
        put(&mut spec, "rolloutAfter", after);
    }
    spec.insert("selector".into(), json!({ "matchLabels": selector }));
    spec.insert(
        "template".into(),
        json!({ "metadata": Value::Object(template_meta), "spec": Value::Object(machine) }),
    );
    spec
}

/// Node timeouts, each from the topology if set, else from the class.
fn deletion_seconds(mdt: &MachineDeploymentTopology, class: &MachineDeploymentClass) -> Value {
    let mut m = Map::new();
    for (key, t, c) in [
        (
            "nodeDrainTimeoutSeconds",
            mdt.deletion.node_drain_timeout_seconds,
            class.deletion.node_drain_timeout_seconds,
        ),
        (
            "nodeVolumeDetachTimeoutSeconds",
            mdt.deletion.node_volume_detach_timeout_seconds,
            class.deletion.node_volume_detach_timeout_seconds,
        ),
        (
            "nodeDeletionTimeoutSeconds",
            mdt.deletion.node_deletion_timeout_seconds,
            class.deletion.node_deletion_timeout_seconds,
        ),
    ] {
        if let Some(v) = t.or(c) {
            m.insert(key.into(), json!(v));
        }
    }
    Value::Object(m)
}

/// A readable list of class names for help texts.
pub fn known<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "(none)".into()
    } else {
        v.join(", ")
    }
}
