/*!
The upgrade stage of one Cluster: its current objects read into the sequencing's inputs, the
decision asked for (and, when the class names one, the GenerateUpgradePlan extension called
through [`super::caller`]), and the decision written back into the desired state.

The sequencing itself (`super`) is pure; this is the part that knows where a Cluster's versions
live (the topology's entries and annotations, the current workers, their Machines and the Nodes
a MachinePool names) and turns a refused plan into a diagnostic at the Cluster's version.
*/

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::api::Cluster;
use crate::diag::{Code, Diagnostic};
use crate::plan::{Extensions, current};
use crate::topology::{self, Blueprint, Role};

use super::caller;

/// `spec.topology.version` as the webhook stores it (`v` prefix added).
pub(crate) fn normalized_version(c: &Cluster) -> String {
    let v = &c.topology().version;
    if v.is_empty() || v.starts_with('v') {
        v.clone()
    } else {
        format!("v{v}")
    }
}

/// The upgrade sequencing for one existing Cluster (Cluster API's `computeControlPlaneVersion` and `computeMachineDeploymentVersion`, `exp/topology/desiredstate/desired_state.go`), from its current
/// objects. An upgrade plan Cluster API would refuse is a diagnostic at the Cluster's version;
/// so is a failed call of the class's GenerateUpgradePlan extension, made only when a plan is
/// needed.
pub(crate) fn upgrade_decision(
    c: &Cluster,
    bp: &Blueprint<'_>,
    cur: &current::CurrentState<'_>,
    nodes: Option<&std::collections::HashMap<&str, &Value>>,
    ext: &Extensions<'_>,
) -> Result<super::UpgradeDecision, Vec<Diagnostic>> {
    let topo = c.topology();
    let version = normalized_version(c);
    let class_versions: Vec<String> = bp
        .class
        .object
        .value
        .pointer("/spec/kubernetesVersions")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let extension_name = bp
        .class
        .object
        .value
        .pointer(caller::FIELD)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    let caller = caller::Caller::new(c, ext.registry, ext.runtime_sdk);
    let call = |req: &super::PlanRequest<'_>| caller.call(req);
    let plan_extension = extension_name.map(|name| super::PlanExtension { name, call: &call });
    let annotations = |m: &crate::api::ObjectMeta| -> Map<String, Value> {
        m.annotations
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect()
    };
    let md_annotations: Vec<(String, Map<String, Value>)> = topo
        .workers
        .machine_deployments
        .iter()
        .map(|m| (m.name.clone(), annotations(&m.metadata)))
        .collect();
    let mp_annotations: Vec<(String, Map<String, Value>)> = topo
        .workers
        .machine_pools
        .iter()
        .map(|m| (m.name.clone(), annotations(&m.metadata)))
        .collect();
    let input = super::UpgradeInput {
        api: c.api,
        topology_version: &version,
        class_versions: &class_versions,
        plan_extension: plan_extension.as_ref(),
        cluster_annotations: c
            .object
            .value
            .pointer("/metadata/annotations")
            .and_then(Value::as_object),
        control_plane: cur.control_plane.map(|o| &o.value),
        machine_deployments: upgrade_workers(&md_annotations, &cur.machine_deployments, None),
        machine_pools: upgrade_workers(&mp_annotations, &cur.machine_pools, nodes),
    };
    super::decide(&input).map_err(|e| {
        let message = format!(
            "Cluster {}: failed to compute the upgrade plan: {e}",
            c.object.key()
        );
        let d = match (caller.failure(), extension_name) {
            (Some(failure), Some(handler)) => {
                caller::diagnostic(failure, message, c, bp.class, handler, ext.registry)
            }
            _ => Diagnostic::error(Code::PlanUpgrade, message)
                .at(&c.object.origin, "/spec/topology/version", "desired version")
                .with_help(if extension_name.is_some() {
                    "Cluster API would not reconcile this Cluster; the plan comes from the ClusterClass's GenerateUpgradePlan extension (spec.upgrade.external.generateUpgradePlanExtension)"
                } else {
                    "Cluster API would not reconcile this Cluster; see the ClusterClass's spec.kubernetesVersions"
                }),
        };
        vec![d]
    })
}

/// The sequencing's view of MachineDeployments or MachinePools: the topology entries in order,
/// then current ones whose entry is gone. Each MachinePool gets the Nodes its `status.nodeRefs`
/// name, looked up in `nodes` (an index, so a fleet's pools do not each scan every Node).
fn upgrade_workers<'a>(
    entries: &'a [(String, Map<String, Value>)],
    current: &'a BTreeMap<String, current::Worker<'a>>,
    nodes: Option<&std::collections::HashMap<&str, &'a Value>>,
) -> Vec<super::Worker<'a>> {
    let nodes_of = |w: Option<&current::Worker<'a>>| -> Vec<&'a Value> {
        let (Some(nodes), Some(w)) = (nodes, w) else {
            return Vec::new();
        };
        let refs: &'a [Value] = w
            .object
            .value
            .pointer("/status/nodeRefs")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice);
        refs.iter()
            .filter_map(|r| r.get("name").and_then(Value::as_str))
            .filter_map(|n| nodes.get(n).copied())
            .collect()
    };
    let mut out: Vec<super::Worker<'a>> = entries
        .iter()
        .map(|(name, a)| {
            let w = current.get(name);
            super::Worker {
                name,
                in_topology: true,
                topology_annotations: Some(a),
                current: w.map(|w| &w.object.value),
                machines: w
                    .map(|w| w.machines.iter().map(|m| &m.value).collect())
                    .unwrap_or_default(),
                nodes: nodes_of(w),
            }
        })
        .collect();
    // Looked up once per current worker: a set, not a scan of the topology's entries.
    let listed: std::collections::HashSet<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    for (name, w) in current {
        if !listed.contains(name.as_str()) {
            out.push(super::Worker {
                name,
                in_topology: false,
                topology_annotations: None,
                current: Some(&w.object.value),
                machines: w.machines.iter().map(|m| &m.value).collect(),
                nodes: nodes_of(Some(w)),
            });
        }
    }
    out
}

/// The Cluster's upgrade-step annotation as the decision leaves it (main only).
pub(crate) fn upgrade_step(
    desired: &mut topology::DesiredState,
    step: &super::UpgradeStep,
    c: &Cluster,
) {
    let Some(d) = desired.objects.iter_mut().find(|d| d.role == Role::Cluster) else {
        return;
    };
    match step {
        super::UpgradeStep::Set(v) => crate::json::set_path(
            &mut d.value,
            &["metadata", "annotations", super::UPGRADE_STEP],
            Value::String(v.clone()),
        ),
        super::UpgradeStep::Remove => {
            // Already removed by the desired Cluster.
        }
        super::UpgradeStep::NotManaged => {
            if let Some(v) = c
                .object
                .value
                .pointer("/metadata/annotations")
                .and_then(|a| a.get(super::UPGRADE_STEP))
            {
                crate::json::set_path(
                    &mut d.value,
                    &["metadata", "annotations", super::UPGRADE_STEP],
                    v.clone(),
                );
            }
        }
    }
}

/// The versions the decision writes, by role.
pub(crate) fn versions_of(d: &super::UpgradeDecision) -> BTreeMap<Role, String> {
    let mut v = BTreeMap::new();
    if !d.control_plane_version.is_empty() {
        v.insert(Role::ControlPlane, d.control_plane_version.clone());
    }
    for (n, w) in &d.machine_deployments {
        if !w.version.is_empty() {
            v.insert(Role::MachineDeployment(n.clone()), w.version.clone());
        }
    }
    for (n, w) in &d.machine_pools {
        if !w.version.is_empty() {
            v.insert(Role::MachinePool(n.clone()), w.version.clone());
        }
    }
    v
}
