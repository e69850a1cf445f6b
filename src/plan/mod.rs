/*!
Plan: for every topology Cluster in the input, what the topology controller would do.

Owns the run from loaded objects to each Cluster's [`ClusterPlan`]: recognising ClusterClasses and Clusters,
resolving blueprints once per class, computing each Cluster's desired state (in parallel) and
classifying every object as created / modified / unchanged / deleted. Without current state every
generated object is `created`; the Cluster itself is `modified` when the topology changes its
labels or references. Rendering the plan belongs to `output`.
*/

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::api::{self, Cluster};
use crate::diag::{Code, Diagnostic};
use crate::load::{LoadOptions, Object};
use crate::topology::{self, Blueprint, Role};

pub mod affected;
pub mod cluster_plan;
pub mod current;
pub mod extensions;
pub mod fleet;
pub mod generated;
pub mod object;
pub mod review;
pub mod rollout;
pub mod scope;
pub mod ssa;
pub mod stored;
pub mod totals;
pub mod unread;
pub mod upgrade;
mod upgrade_extension;
pub mod verdict;
pub mod why;

/// Resolved options for `topoplan plan`.
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// How to read the input.
    pub load: LoadOptions,
    /// Only these Clusters (namespace, name; an empty namespace: the one Cluster of that name,
    /// whichever its namespace); empty means all.
    pub clusters: Vec<(String, String)>,
    /// Feature gates for admission.
    pub gates: crate::validate::Gates,
    /// Runtime extensions from the command line (resolved, not yet contacted).
    pub extensions: crate::runtime::ExtensionOptions,
    /// Where to read the current objects (`--current`); `None` plans every Cluster as new.
    pub current: Option<LoadOptions>,
    /// Where to read CustomResourceDefinitions apart from the input (`--crds`).
    pub crds: Option<LoadOptions>,
    /// `--provider-repo`: its providers' CRDs join the input (on both sides of a diff).
    pub providers: Option<crate::provider::ProviderOptions>,
    /// `--all-current`: plan every stored Cluster, not only those the change affects.
    pub all_current: bool,
}

pub use cluster_plan::ClusterPlan;
pub use object::{Action, PlannedObject};
pub use totals::Totals;

/// Kinds whose objects may be defined once per input file rather than once per input: a
/// Cluster defined in several files is a set of alternative flavors (clusterctl's
/// `cluster-template*.yaml`), each planned side by side. As (group, kind), for the loader.
pub fn flavors() -> Vec<(String, String)> {
    vec![(api::GROUP.to_string(), "Cluster".to_string())]
}

/// What planning needs from admission and the Runtime extensions.
#[derive(Debug, Clone, Copy)]
pub struct Extensions<'a> {
    /// The connected extensions, when the input has external patches.
    pub registry: Option<&'a crate::runtime::Registry>,
    /// Each admitted ClusterClass's `status.variables`.
    pub status: &'a BTreeMap<(String, String), crate::variables::definitions::StatusVariables>,
    /// The CRDs generated objects are checked against.
    pub crds: &'a crate::crd::Crds,
    /// Where the patch engine keeps the requests it sends (`extension check`); `None` in a plan.
    pub capture: Option<&'a crate::patches::capture::Capture>,
    /// The `RuntimeSDK` feature gate: without it a GenerateUpgradePlan extension cannot be used.
    pub runtime_sdk: bool,
}

/// What exists: the `--current` objects, indexed, and the list semantics their comparison uses.
#[derive(Debug, Clone, Copy)]
pub struct State<'a> {
    /// The current objects; `None` when every Cluster is new.
    pub index: Option<&'a current::Index<'a>>,
    /// List semantics (built in, plus supplied CRDs).
    pub lists: &'a ssa::ListTypes,
    /// The current objects are owned by `capi-topology` alone: topoplan's own computation,
    /// owned by `capi-topology` on every path it sets (so no managedFields are needed to know
    /// what it would remove).
    pub sole_owner: bool,
}

/// Without current state: everything is created except the Cluster, which exists already.
fn classify(cluster: &Cluster, desired: topology::DesiredState) -> ClusterPlan {
    let mut objects: Vec<PlannedObject> = desired
        .objects
        .into_iter()
        .map(|d| {
            let action = if d.role == Role::Cluster {
                if d.value == cluster.object.value {
                    Action::Unchanged
                } else {
                    Action::Modified
                }
            } else {
                Action::Created
            };
            // The Cluster's change, when the controller's own fields are all of it, explained.
            let note = (action == Action::Modified)
                .then(|| why::cluster_note(&cluster.object.value, &d.value))
                .flatten();
            PlannedObject {
                action,
                role: d.role,
                object: d.value,
                current: None,
                note,
                rotated_from: None,
                pending: None,
            }
        })
        .collect();
    sort_objects(&mut objects);
    ClusterPlan {
        namespace: cluster.namespace().to_string(),
        name: cluster.name().to_string(),
        class: cluster.class_key(),
        api: cluster.api,
        source: None,
        objects,
        patches: Vec::new(),
        deferred: Vec::new(),
        rollouts: Vec::new(),
        inexact: 0,
    }
}

/// Display order: created, modified, unchanged, deleted; then kind, name, namespace.
fn sort_objects(objects: &mut [PlannedObject]) {
    objects.sort_by_cached_key(|o| {
        (
            o.action,
            o.kind().to_string(),
            o.name().to_string(),
            o.namespace().to_string(),
        )
    });
}

/// A Cluster with no stored counterpart must not have objects in the current state either:
/// they would belong to a Cluster the input says does not exist yet.
fn orphans(c: &Cluster, ix: &current::Index<'_>) -> Result<(), Vec<Diagnostic>> {
    let found = current::find(&c.object, c.api, ix)?;
    let stray: Vec<&Object> = found
        .machine_deployments
        .values()
        .chain(found.machine_pools.values())
        .map(|w| w.object)
        .collect();
    if stray.is_empty() {
        return Ok(());
    }
    Err(stray
        .into_iter()
        .map(|o| {
            Diagnostic::error(
                Code::CurrentNotFound,
                format!(
                    "{} {}/{} belongs to Cluster {}, which the current objects do not contain",
                    o.kind,
                    o.namespace,
                    o.name,
                    c.object.key()
                ),
            )
            .at(&o.origin, "/metadata/labels", "labelled for this Cluster")
            .with_help(
                "pass the stored Cluster with --current too, so its references and uid are known",
            )
        })
        .collect())
}

/// `spec.topology.version` as the webhook stores it (`v` prefix added).
fn normalized_version(c: &Cluster) -> String {
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
fn upgrade_decision(
    c: &Cluster,
    bp: &Blueprint<'_>,
    cur: &current::CurrentState<'_>,
    nodes: Option<&std::collections::HashMap<&str, &Value>>,
    ext: &Extensions<'_>,
) -> Result<upgrade::UpgradeDecision, Vec<Diagnostic>> {
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
        .pointer(upgrade_extension::FIELD)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    let caller = upgrade_extension::Caller::new(c, ext.registry, ext.runtime_sdk);
    let call = |req: &upgrade::PlanRequest<'_>| caller.call(req);
    let plan_extension = extension_name.map(|name| upgrade::PlanExtension { name, call: &call });
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
    let input = upgrade::UpgradeInput {
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
    upgrade::decide(&input).map_err(|e| {
        let message = format!(
            "Cluster {}: failed to compute the upgrade plan: {e}",
            c.object.key()
        );
        let d = match (caller.failure(), extension_name) {
            (Some(failure), Some(handler)) => {
                upgrade_extension::diagnostic(failure, message, c, bp.class, handler, ext.registry)
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
) -> Vec<upgrade::Worker<'a>> {
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
    let mut out: Vec<upgrade::Worker<'a>> = entries
        .iter()
        .map(|(name, a)| {
            let w = current.get(name);
            upgrade::Worker {
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
            out.push(upgrade::Worker {
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
fn upgrade_step(desired: &mut topology::DesiredState, step: &upgrade::UpgradeStep, c: &Cluster) {
    let Some(d) = desired.objects.iter_mut().find(|d| d.role == Role::Cluster) else {
        return;
    };
    match step {
        upgrade::UpgradeStep::Set(v) => crate::json::set_path(
            &mut d.value,
            &["metadata", "annotations", upgrade::UPGRADE_STEP],
            Value::String(v.clone()),
        ),
        upgrade::UpgradeStep::Remove => {
            // Already removed by the desired Cluster.
        }
        upgrade::UpgradeStep::NotManaged => {
            if let Some(v) = c
                .object
                .value
                .pointer("/metadata/annotations")
                .and_then(|a| a.get(upgrade::UPGRADE_STEP))
            {
                crate::json::set_path(
                    &mut d.value,
                    &["metadata", "annotations", upgrade::UPGRADE_STEP],
                    v.clone(),
                );
            }
        }
    }
}

/// The versions the decision writes, by role.
fn versions_of(d: &upgrade::UpgradeDecision) -> BTreeMap<Role, String> {
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
