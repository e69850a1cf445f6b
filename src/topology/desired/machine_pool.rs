//! A MachinePool with its bootstrap config and infrastructure machine pool
//! (`computeMachinePool`, desired-state.md §4.7). MachinePools have no health check, rollout
//! strategy or readiness gates, and their two companions are objects, not templates.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::infrastructure_cluster::naming_error;
use super::machine_deployment::known;
use super::{Ctx, DesiredObject, Role, put, refs};
use crate::api::convert::go_duration_string;
use crate::api::{ApiVersion, MachinePoolTopology, labels};
use crate::diag::Diagnostic;
use crate::topology::names::{self, NameTarget};
use crate::topology::template::{self, CloneInput, merge_map, to_value};

/// Every object for MachinePool topology `mpt` (entry `index` of the Cluster's list).
pub fn compute(
    ctx: &Ctx<'_>,
    index: usize,
    mpt: &MachinePoolTopology,
) -> Result<Vec<DesiredObject>, Diagnostic> {
    let class_spec = &ctx.bp.class.spec;
    let (Some(bp), Some(class)) = (
        ctx.bp.machine_pools.get(&mpt.class),
        class_spec
            .workers
            .machine_pools
            .iter()
            .find(|c| c.class == mpt.class),
    ) else {
        return Err(ctx
            .cluster_error(
                format!(
                    "MachinePool class {} not found in ClusterClass {}",
                    mpt.class,
                    ctx.bp.class.key()
                ),
                &ctx.cluster.worker_class_pointer("machinePools", index),
                "unknown MachinePool class",
            )
            .with_help(format!(
                "the class defines: {}",
                known(
                    class_spec
                        .workers
                        .machine_pools
                        .iter()
                        .map(|c| c.class.as_str())
                )
            )));
    };
    let cluster_name = ctx.cluster.name();
    let prefix = format!("{cluster_name}-{}-", mpt.name);
    let mut object_labels = BTreeMap::new();
    object_labels.insert(labels::POOL_NAME.to_string(), mpt.name.clone());

    let bootstrap_role = Role::MachinePoolBootstrapConfig(mpt.name.clone());
    let bootstrap = template::to_object(CloneInput {
        template: bp.bootstrap,
        cluster_name,
        namespace: ctx.cluster.namespace(),
        name: ctx.simple_name(&prefix, &bootstrap_role),
        labels: object_labels.clone(),
        annotations: BTreeMap::new(),
        owner: Some(ctx.cluster_owner_ref()),
    });
    let infra_role = Role::MachinePoolInfrastructure(mpt.name.clone());
    let infra = template::to_object(CloneInput {
        template: bp.infrastructure,
        cluster_name,
        namespace: ctx.cluster.namespace(),
        name: ctx.simple_name(&prefix, &infra_role),
        labels: object_labels,
        annotations: BTreeMap::new(),
        owner: Some(ctx.cluster_owner_ref()),
    });

    let mp_role = Role::MachinePool(mpt.name.clone());
    let name = names::from_template(
        &class.naming.template,
        cluster_name,
        &NameTarget::MachinePool(&mpt.name),
        &ctx.seed(&mp_role),
    )
    .map_err(|e| {
        let ptr = match ctx.bp.class.api {
            ApiVersion::V1Beta1 => format!(
                "/spec/workers/machinePools/{}/namingStrategy/template",
                bp.index
            ),
            ApiVersion::V1Beta2 => {
                format!("/spec/workers/machinePools/{}/naming/template", bp.index)
            }
        };
        naming_error(ctx, "MachinePool", &e, &ptr)
    })?;

    let mut annotations = merge_map(&mpt.metadata.annotations, &class.metadata.annotations);
    annotations.remove(labels::HOLD_UPGRADE_SEQUENCE);
    annotations.remove(labels::DEFER_UPGRADE);
    let mut mp_labels = merge_map(&mpt.metadata.labels, &class.metadata.labels);
    mp_labels.insert(labels::CLUSTER_NAME.into(), cluster_name.to_string());
    mp_labels.insert(labels::TOPOLOGY_OWNED.into(), String::new());
    mp_labels.insert(labels::POOL_NAME.into(), mpt.name.clone());

    let mut metadata = Map::new();
    metadata.insert("name".into(), json!(name));
    metadata.insert("namespace".into(), json!(ctx.cluster.namespace()));
    metadata.insert("labels".into(), to_value(mp_labels.clone()));
    let mut template_meta = Map::new();
    template_meta.insert("labels".into(), to_value(mp_labels));
    if !annotations.is_empty() {
        metadata.insert("annotations".into(), to_value(annotations.clone()));
        template_meta.insert("annotations".into(), to_value(annotations));
    }

    let timeouts = [
        (
            "nodeDrainTimeout",
            mpt.deletion
                .node_drain_timeout_seconds
                .or(class.deletion.node_drain_timeout_seconds),
        ),
        (
            "nodeVolumeDetachTimeout",
            mpt.deletion
                .node_volume_detach_timeout_seconds
                .or(class.deletion.node_volume_detach_timeout_seconds),
        ),
        (
            "nodeDeletionTimeout",
            mpt.deletion
                .node_deletion_timeout_seconds
                .or(class.deletion.node_deletion_timeout_seconds),
        ),
    ];
    let min_ready = mpt
        .min_ready_seconds
        .clone()
        .or(class.min_ready_seconds.clone())
        .unwrap_or(Value::Null);
    let taints = mpt
        .taints
        .clone()
        .or(class.taints.clone())
        .unwrap_or(Value::Null);

    let mut machine = Map::new();
    machine.insert("clusterName".into(), json!(cluster_name));
    let mut spec = Map::new();
    spec.insert("clusterName".into(), json!(cluster_name));
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
            .or(class.failure_domains.clone())
            .unwrap_or(Value::Null),
    );
    match ctx.api {
        ApiVersion::V1Beta2 => {
            put(&mut machine, "version", json!(ctx.version));
            machine.insert(
                "bootstrap".into(),
                json!({ "configRef": refs::contract_versioned(&bootstrap) }),
            );
            machine.insert("infrastructureRef".into(), refs::contract_versioned(&infra));
            let mut deletion = Map::new();
            for (field, v) in timeouts {
                if let Some(s) = v {
                    deletion.insert(format!("{field}Seconds"), json!(s));
                }
            }
            put(&mut machine, "deletion", Value::Object(deletion));
            put(&mut machine, "minReadySeconds", min_ready);
            put(&mut machine, "taints", taints);
        }
        ApiVersion::V1Beta1 => {
            machine.insert("version".into(), json!(ctx.version));
            machine.insert(
                "bootstrap".into(),
                json!({ "configRef": refs::object_reference(&bootstrap) }),
            );
            machine.insert("infrastructureRef".into(), refs::object_reference(&infra));
            for (field, v) in timeouts {
                if let Some(s) = v {
                    machine.insert(field.into(), json!(go_duration_string(s)));
                }
            }
            put(&mut machine, "taints", taints);
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
