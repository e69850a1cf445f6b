//! What MachineDeployments and MachinePools share: the two companion objects cloned from the
//! class's bootstrap and infrastructure templates, the name, the merged metadata, node timeouts
//! and the "unknown class" diagnostic.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::ctx::Ctx;
use super::infrastructure_cluster::naming_error;
use super::role::Role;
use crate::api::{ApiVersion, Deletion, ObjectMeta, labels};
use crate::diag::Diagnostic;
use crate::load::Object;
use crate::topology::names::{self, NameTarget};
use crate::topology::template::{self, CloneInput, merge_map, to_value};

/// Which list of the topology a worker comes from.
#[derive(Clone, Copy)]
pub enum Kind {
    /// `workers.machineDeployments`.
    MachineDeployment,
    /// `workers.machinePools`.
    MachinePool,
}

impl Kind {
    fn list(self) -> &'static str {
        match self {
            Kind::MachineDeployment => "machineDeployments",
            Kind::MachinePool => "machinePools",
        }
    }

    fn kind(self) -> &'static str {
        match self {
            Kind::MachineDeployment => "MachineDeployment",
            Kind::MachinePool => "MachinePool",
        }
    }

    /// The label that carries the topology name.
    pub fn name_label(self) -> &'static str {
        match self {
            Kind::MachineDeployment => labels::DEPLOYMENT_NAME,
            Kind::MachinePool => labels::POOL_NAME,
        }
    }
}

/// `<Kind> class <class> not found in ClusterClass <ns/name>`, at the topology's `class` field.
pub fn unknown_class<'a>(
    ctx: &Ctx<'_>,
    kind: Kind,
    class: &str,
    index: usize,
    known: impl Iterator<Item = &'a str>,
) -> Diagnostic {
    let known: Vec<&str> = known.collect();
    ctx.cluster_error(
        crate::diag::Code::ClassNotFound,
        format!(
            "{} class {class} not found in ClusterClass {}",
            kind.kind(),
            ctx.bp.class.key()
        ),
        &ctx.cluster.worker_class_pointer(kind.list(), index),
        &format!("unknown {} class", kind.kind()),
    )
    .with_help(format!(
        "the class defines: {}",
        if known.is_empty() {
            "(none)".to_string()
        } else {
            known.join(", ")
        }
    ))
}

/// Clone the bootstrap and infrastructure templates for worker `topology_name`, named
/// `<cluster>-<topology>-<suffix>`, owned by the Cluster and labelled with the topology name.
/// MachineDeployments get templates (`as_objects == false`), MachinePools objects.
pub fn companions(
    ctx: &Ctx<'_>,
    kind: Kind,
    topology_name: &str,
    parts: [(Role, &Object); 2],
    as_objects: bool,
) -> [(Role, Value); 2] {
    let prefix = format!("{}-{topology_name}-", ctx.cluster.name());
    parts.map(|(role, tpl)| {
        let mut l = BTreeMap::new();
        l.insert(kind.name_label().to_string(), topology_name.to_string());
        let input = CloneInput {
            template: tpl,
            cluster_name: ctx.cluster.name(),
            namespace: ctx.cluster.namespace(),
            name: ctx.simple_name(&prefix, &role),
            labels: l,
            annotations: BTreeMap::new(),
            owner: Some(ctx.cluster_owner_ref()),
        };
        let value = if as_objects {
            template::to_object(input)
        } else {
            template::to_template(input)
        };
        (role, value)
    })
}

/// The worker's name from the class naming template (errors point at that template).
pub fn name(
    ctx: &Ctx<'_>,
    kind: Kind,
    naming_template: &str,
    class_index: usize,
    target: &NameTarget<'_>,
    role: &Role,
) -> Result<String, Diagnostic> {
    if let Some(n) = ctx.existing.names.get(role) {
        return Ok(n.clone());
    }
    names::from_template(naming_template, ctx.cluster.name(), target, &ctx.seed(role)).map_err(
        |e| {
            let field = match ctx.bp.class.api {
                ApiVersion::V1Beta1 => "namingStrategy",
                ApiVersion::V1Beta2 => "naming",
            };
            let ptr = format!(
                "/spec/workers/{}/{class_index}/{field}/template",
                kind.list()
            );
            naming_error(ctx, kind.kind(), &e, &ptr)
        },
    )
}

/// `metadata` of the worker and `spec.template.metadata`: topology metadata over class
/// metadata, hold/defer annotations removed, the topology labels forced.
pub fn metadata(
    ctx: &Ctx<'_>,
    kind: Kind,
    topology_name: &str,
    topology: &ObjectMeta,
    class: &ObjectMeta,
    name: &str,
) -> (Map<String, Value>, Map<String, Value>) {
    let mut annotations = merge_map(&topology.annotations, &class.annotations);
    // Upgrade-sequencing hints are read from the topology, never copied to objects.
    annotations.remove(labels::HOLD_UPGRADE_SEQUENCE);
    annotations.remove(labels::DEFER_UPGRADE);
    let mut l = merge_map(&topology.labels, &class.labels);
    l.insert(labels::CLUSTER_NAME.into(), ctx.cluster.name().to_string());
    l.insert(labels::TOPOLOGY_OWNED.into(), String::new());
    l.insert(kind.name_label().into(), topology_name.to_string());

    let mut metadata = Map::new();
    metadata.insert("name".into(), json!(name));
    metadata.insert("namespace".into(), json!(ctx.cluster.namespace()));
    metadata.insert("labels".into(), to_value(l.clone()));
    let mut template_meta = Map::new();
    template_meta.insert("labels".into(), to_value(l));
    // MergeMap returns nil for an empty result, so no `annotations: {}` is written.
    if !annotations.is_empty() {
        metadata.insert("annotations".into(), to_value(annotations.clone()));
        template_meta.insert("annotations".into(), to_value(annotations));
    }
    (metadata, template_meta)
}

/// Node timeouts, each from the topology when set there, else from the class:
/// `(field without the Seconds suffix, seconds)`.
pub fn timeouts(topology: &Deletion, class: &Deletion) -> [(&'static str, Option<i64>); 3] {
    [
        (
            "nodeDrainTimeout",
            topology
                .node_drain_timeout_seconds
                .or(class.node_drain_timeout_seconds),
        ),
        (
            "nodeVolumeDetachTimeout",
            topology
                .node_volume_detach_timeout_seconds
                .or(class.node_volume_detach_timeout_seconds),
        ),
        (
            "nodeDeletionTimeout",
            topology
                .node_deletion_timeout_seconds
                .or(class.node_deletion_timeout_seconds),
        ),
    ]
}

/// Write timeouts into a machine spec: v1beta2 `deletion.<field>Seconds`, v1beta1 `<field>` as a
/// Go duration string.
pub fn write_timeouts(
    api: ApiVersion,
    machine: &mut Map<String, Value>,
    timeouts: [(&'static str, Option<i64>); 3],
) {
    let mut deletion = Map::new();
    for (field, value) in timeouts {
        let Some(seconds) = value else { continue };
        match api {
            ApiVersion::V1Beta2 => {
                deletion.insert(format!("{field}Seconds"), json!(seconds));
            }
            ApiVersion::V1Beta1 => {
                machine.insert(
                    field.into(),
                    json!(crate::api::convert::go_duration_string(seconds)),
                );
            }
        }
    }
    if !deletion.is_empty() {
        machine.insert("deletion".into(), Value::Object(deletion));
    }
}
