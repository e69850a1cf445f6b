/*!
Upgrade sequencing: which Kubernetes version the topology controller writes into the
ControlPlane and into each MachineDeployment / MachinePool on one reconcile, and what it holds
back (Cluster API `exp/topology/desiredstate/desired_state.go`
`computeControlPlaneVersion`, `computeMachineDeploymentVersion`, `computeMachinePoolVersion`,
`upgrade_plan.go`, `scope/upgradetracker.go`).

Owns: reading the version inputs from the current objects (ControlPlane `spec.version`,
`status.version(s)`, through the contract readers admission shares, `crate::topology::contract::versions`;
MD/MP `spec.template.spec.version`; Machines and Nodes), the upgrade plans
(submodule `plan`), the upgrade tracker's bookkeeping (provisioning / upgrading / starting / pending /
waiting for workers; per-kind upgrading sets and concurrency) and the operator-facing reasons.
This module and `plan` are pure: no I/O, the caller hands in the objects and turns errors
into diagnostics. That caller is [`for_cluster`], the upgrade stage of one Cluster: it reads
the Cluster's current objects into the inputs, calls a class's GenerateUpgradePlan extension
through `caller` (the registry's I/O) and writes the decision into the desired state.

Semantics follow [`ApiVersion`]: `V1Beta1` is Cluster API v1.10 (no plans: the control plane
jumps straight to `topology.version`, workers follow once it is fully stable), `V1Beta2` is main
(plans, chained minors, waiting for workers, the upgrade-step annotation).

RuntimeSDK lifecycle hooks are treated as absent (the feature gate is off by default), so the
`before-upgrade.hook…` annotations and pending-hook bookkeeping are ignored and the Cluster's
upgrade-step annotation follows the "RuntimeSDK off" branch.

What offline inputs cannot show:
* MachineDeployment upgrading: Cluster API lists the Machines matching the MD's selector; the
  caller passes them ([`Worker::machines`]). None given means "no Machines", i.e. not upgrading.
* MachinePool upgrading: Cluster API reads the workload cluster's Nodes named by
  `status.nodeRefs` and compares their kubelet versions. The caller may pass Nodes
  ([`Worker::nodes`]); a nodeRef without a matching Node is taken as "not upgrading" (Cluster API
  would fail the reconcile when it cannot read the Node; offline the Node is simply unknown).
*/

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::api::ApiVersion;
use crate::api::labels::{DEFER_UPGRADE, HOLD_UPGRADE_SEQUENCE};
use crate::topology::contract::versions as contract;
use crate::topology::contract::versions::WorkerKind as Kind;

mod caller;
mod extension;
pub mod for_cluster;
mod plan;

pub use extension::{PlanCallback, PlanExtension, PlanRequest, PlanResponse};
use plan::{Plans, Source, WorkerVersion};

/// The Cluster annotation limiting how many MDs (and, separately, MPs) upgrade at once.
pub const UPGRADE_CONCURRENCY: &str = "topology.cluster.x-k8s.io/upgrade-concurrency";
/// The Cluster annotation main uses to publish the current upgrade step (the version the
/// control plane is written at while a plan is in progress).
pub const UPGRADE_STEP: &str = "topology.internal.cluster.x-k8s.io/upgrade-step";

/// Everything the sequencing reads.
#[derive(Debug, Clone)]
pub struct UpgradeInput<'a> {
    /// `V1Beta1` → Cluster API v1.10 behaviour, `V1Beta2` → main.
    pub api: ApiVersion,
    /// `spec.topology.version` (already `v`-prefixed by the webhook's defaulting).
    pub topology_version: &'a str,
    /// ClusterClass `spec.kubernetesVersions` (main; may be empty).
    pub class_versions: &'a [String],
    /// ClusterClass `spec.upgrade.external.generateUpgradePlanExtension` (main), if set.
    pub plan_extension: Option<&'a PlanExtension<'a>>,
    /// The Cluster's `metadata.annotations` (upgrade concurrency).
    pub cluster_annotations: Option<&'a Map<String, Value>>,
    /// The current ControlPlane object; `None` when it does not exist yet.
    pub control_plane: Option<&'a Value>,
    /// MachineDeployment topology entries in `workers.machineDeployments` order, then current
    /// MDs whose entry is gone (`in_topology: false`).
    pub machine_deployments: Vec<Worker<'a>>,
    /// The same for MachinePools.
    pub machine_pools: Vec<Worker<'a>>,
}

/// One MachineDeployment or MachinePool: its topology entry and/or its current object.
#[derive(Debug, Clone, Default)]
pub struct Worker<'a> {
    /// The topology name (`deployment-name` / `pool-name` label of the current object).
    pub name: &'a str,
    /// Listed in the Cluster's topology (otherwise it only exists and is about to be deleted).
    pub in_topology: bool,
    /// The topology entry's `metadata.annotations` (defer-upgrade, hold-upgrade-sequence).
    pub topology_annotations: Option<&'a Map<String, Value>>,
    /// The current MD/MP object, if it exists (being deleted or not: Cluster API counts both).
    pub current: Option<&'a Value>,
    /// MachineDeployments: the Machines selected by the MD's `spec.selector`.
    pub machines: Vec<&'a Value>,
    /// MachinePools: workload-cluster Nodes, matched to `status.nodeRefs` by name.
    pub nodes: Vec<&'a Value>,
}

/// The outcome of one reconcile's version decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpgradeDecision {
    /// The `spec.version` written into the ControlPlane.
    pub control_plane_version: String,
    /// Why the control plane is at that version.
    pub control_plane: ControlPlaneState,
    /// The ControlPlane and its infrastructure machine template are not written this pass (even
    /// for unrelated changes); its MachineHealthCheck still is.
    pub control_plane_pending_upgrade: bool,
    /// The control plane upgrade plan (main; empty on v1.10 or when nothing is to do).
    pub control_plane_plan: Vec<String>,
    /// The workers upgrade plan (main).
    pub workers_plan: Vec<String>,
    /// `v` + the lowest current MD/MP version, when a worker has one (main).
    pub min_workers_version: Option<String>,
    /// MachineDeployment topology entries, by topology name.
    pub machine_deployments: BTreeMap<String, WorkerDecision>,
    /// MachinePool topology entries, by topology name.
    pub machine_pools: BTreeMap<String, WorkerDecision>,
    /// What happens to the Cluster's [`UPGRADE_STEP`] annotation.
    pub upgrade_step: UpgradeStep,
}

/// The Cluster's upgrade-step annotation after this pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpgradeStep {
    /// v1.10: the controller does not touch it.
    NotManaged,
    /// No plan in progress: the annotation is removed (if present).
    Remove,
    /// A plan is in progress: the annotation is set to the control plane's written version.
    Set(String),
}

/// The control plane's situation, in the order Cluster API checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ControlPlaneState {
    /// No ControlPlane yet: it is created at `topology.version`.
    Creating {
        /// The version it is created at.
        version: String,
    },
    /// Created but no version reported in status yet.
    Provisioning {
        /// Its `spec.version`, kept.
        version: String,
    },
    /// A previous upgrade is still rolling out (a status version is behind `spec.version`).
    Upgrading {
        /// `spec.version`.
        version: String,
        /// The lowest status version.
        status_version: String,
        /// `status.versions` or `status.version`.
        status_field: &'static str,
    },
    /// Main: the workers must reach the control plane's version before it moves on.
    WaitingForWorkers {
        /// The control plane's version, the workers' next step.
        version: String,
    },
    /// MachineDeployments or MachinePools are rolling out; the control plane waits for them.
    WaitingForUpgradingWorkers {
        /// The control plane's version, kept.
        version: String,
        /// Topology names of the upgrading MDs and MPs.
        upgrading: Vec<String>,
    },
    /// The control plane picks up a new version on this pass.
    StartingUpgrade {
        /// Its current `spec.version`.
        from: String,
        /// The version written (next plan step on main, `topology.version` on v1.10).
        to: String,
    },
    /// Nothing to do for the control plane.
    Stable {
        /// Its version.
        version: String,
    },
}

impl ControlPlaneState {
    /// Operator-facing text.
    pub fn reason(&self) -> String {
        match self {
            ControlPlaneState::Creating { version } => {
                format!("control plane is created at {version}")
            }
            ControlPlaneState::Provisioning { version } => {
                format!("control plane is provisioning at {version} (no status version yet)")
            }
            ControlPlaneState::Upgrading {
                version,
                status_version,
                status_field,
            } => {
                format!("control plane is upgrading to {version} ({status_field} {status_version})")
            }
            ControlPlaneState::WaitingForWorkers { version } => {
                format!("control plane waits at {version} until the workers are upgraded to it")
            }
            ControlPlaneState::WaitingForUpgradingWorkers { version, upgrading } => format!(
                "control plane waits at {version} until upgrading workers finish ({})",
                upgrading.join(", ")
            ),
            ControlPlaneState::StartingUpgrade { from, to } => {
                format!("control plane starts upgrading from {from} to {to}")
            }
            ControlPlaneState::Stable { version } => {
                format!("control plane is stable at {version}")
            }
        }
    }
}

/// The version decision for one MD/MP topology entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerDecision {
    /// The version written into `spec.template.spec.version`.
    pub version: String,
    /// Its current `spec.template.spec.version` (`None` when the object does not exist).
    pub current_version: Option<String>,
    /// New, and not created this pass (nor its templates and MachineHealthCheck).
    pub pending_create: bool,
    /// Not at `topology.version` and not moving this pass: the object and its templates are not
    /// written (its MachineHealthCheck still is).
    pub pending_upgrade: bool,
    /// Held by a defer-upgrade / hold-upgrade-sequence annotation (also `pending_upgrade`).
    pub deferred: bool,
    /// Its Machines (Nodes) are not all at its version yet.
    pub upgrading: bool,
    /// Picks up a new version on this pass.
    pub starting_upgrade: bool,
    /// Operator-facing explanation when it is held back or starts an upgrade.
    pub reason: Option<String>,
}

/// Control-plane flags of Cluster API's upgrade tracker.
#[derive(Debug, Clone, Copy, Default)]
struct CpFlags {
    pending: bool,
    provisioning: bool,
    upgrading: bool,
    starting: bool,
    waiting_for_workers: bool,
}

impl CpFlags {
    /// `IsControlPlaneStable`.
    fn stable(self) -> bool {
        !self.provisioning && !self.upgrading && !self.starting && !self.pending
    }

    /// `IsControlPlaneStableOrWaitingForWorkersUpgrade`.
    fn stable_or_waiting(self) -> bool {
        !self.provisioning
            && !self.upgrading
            && !self.starting
            && (!self.pending || self.waiting_for_workers)
    }
}

impl Kind {
    /// The words of the "plan is not set" error.
    fn lower(self) -> &'static str {
        match self {
            Kind::MachineDeployment => "machine deployment",
            Kind::MachinePool => "machine pool",
        }
    }
}

/// A worker's current object, read once.
struct Current<'a> {
    /// `metadata.name` (Cluster API's messages name the object).
    object_name: &'a str,
    /// `spec.template.spec.version`, empty when unset.
    version: &'a str,
}

fn read_current<'a>(kind: Kind, w: &Worker<'a>) -> Result<Option<Current<'a>>, String> {
    let Some(obj) = w.current else {
        return Ok(None);
    };
    let object_name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or(w.name);
    let version = match obj.pointer("/spec/template/spec/version") {
        None | Some(Value::Null) => "",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => {
            return Err(format!(
                "{} {object_name}: spec.template.spec.version must be a string",
                kind.name()
            ));
        }
    };
    Ok(Some(Current {
        object_name,
        version,
    }))
}

/// Per-kind worker bookkeeping (`WorkerUpgradeTracker`), keyed by topology name.
struct WorkerTracker {
    /// Upgrading now or starting on this pass.
    upgrading: BTreeSet<String>,
    max_concurrency: i64,
    /// The kind's plan: the workers plan when current objects of this kind exist.
    plan: Vec<String>,
}

/// Go's `strconv.Atoi`, as Cluster API reads the concurrency annotation (errors ignored: the
/// value is then 0, or the clamped bound on overflow).
fn go_atoi(s: &str) -> i64 {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    match digits.parse::<i64>() {
        Ok(n) if neg => -n,
        Ok(n) => n,
        Err(_) if neg => i64::MIN,
        Err(_) => i64::MAX,
    }
}

/// The upgrade concurrency (at least 1, default 1).
fn concurrency(annotations: Option<&Map<String, Value>>) -> i64 {
    let n = match annotations.and_then(|a| a.get(UPGRADE_CONCURRENCY)) {
        Some(Value::String(s)) => go_atoi(s),
        Some(_) => 0,
        None => 1,
    };
    n.max(1)
}

/// Compute this pass's version decisions.
///
/// Errors carry Cluster API's messages with the context `Generate` adds (the reconciler then
/// prefixes "error computing the desired state of the Cluster topology: ").
pub fn decide(input: &UpgradeInput<'_>) -> Result<UpgradeDecision, String> {
    let main = input.api == ApiVersion::V1Beta2;
    let topology_version = input.topology_version;

    let mut mds = Vec::with_capacity(input.machine_deployments.len());
    for w in &input.machine_deployments {
        mds.push(read_current(Kind::MachineDeployment, w)?);
    }
    let mut mps = Vec::with_capacity(input.machine_pools.len());
    for w in &input.machine_pools {
        mps.push(read_current(Kind::MachinePool, w)?);
    }

    // ComputeUpgradePlan (main only, and only once a control plane exists).
    let plans = match input.control_plane {
        Some(cp) if main => compute_plans(input, cp, &mds, &mps)?,
        _ => Plans::default(),
    };

    let max = concurrency(input.cluster_annotations);
    let tracker = |currents: &[Option<Current<'_>>]| WorkerTracker {
        upgrading: BTreeSet::new(),
        max_concurrency: max,
        plan: if currents.iter().any(Option::is_some) {
            plans.workers.clone()
        } else {
            Vec::new()
        },
    };
    let mut md_tracker = tracker(&mds);
    let mut mp_tracker = tracker(&mps);
    mark_rolling_out(input, main, &mds, &mps, &mut md_tracker, &mut mp_tracker)?;
    let md_rolling = md_tracker.upgrading.clone();
    let mp_rolling = mp_tracker.upgrading.clone();

    let (cp_version, cp_state, cp_flags) =
        control_plane(input, main, &plans, &md_tracker, &mp_tracker).map_err(|e| {
            format!(
                "failed to compute ControlPlane: failed to compute version of ControlPlane: {e}"
            )
        })?;

    let upgrade_step = if !main {
        UpgradeStep::NotManaged
    } else if !plans.control_plane.is_empty()
        || !md_tracker.plan.is_empty()
        || !mp_tracker.plan.is_empty()
    {
        UpgradeStep::Set(cp_version.clone())
    } else {
        UpgradeStep::Remove
    };

    let ctx = WorkerContext {
        main,
        topology_version,
        cp: cp_flags,
        cp_state: &cp_state,
    };
    let machine_deployments = worker_decisions(
        &ctx,
        Kind::MachineDeployment,
        &input.machine_deployments,
        &mds,
        &mut md_tracker,
        &md_rolling,
    )?;
    let machine_pools = worker_decisions(
        &ctx,
        Kind::MachinePool,
        &input.machine_pools,
        &mps,
        &mut mp_tracker,
        &mp_rolling,
    )?;

    Ok(UpgradeDecision {
        control_plane_version: cp_version,
        control_plane: cp_state,
        control_plane_pending_upgrade: cp_flags.pending,
        control_plane_plan: plans.control_plane,
        workers_plan: plans.workers,
        min_workers_version: Some(plans.min_workers_version).filter(|v| !v.is_empty()),
        machine_deployments,
        machine_pools,
        upgrade_step,
    })
}

/// `ComputeUpgradePlan`: the versions the control plane and the workers go through from the
/// control plane's (`cp`) and the current workers' versions to the topology's.
fn compute_plans(
    input: &UpgradeInput<'_>,
    cp: &Value,
    mds: &[Option<Current<'_>>],
    mps: &[Option<Current<'_>>],
) -> Result<Plans, String> {
    let cp_version = contract::spec_version(cp)
        .map_err(|e| format!("failed to get the version from control plane spec: {e}"))?;
    let workers: Vec<WorkerVersion<'_>> = input
        .machine_deployments
        .iter()
        .zip(mds)
        .map(|w| (Kind::MachineDeployment, w))
        .chain(
            input
                .machine_pools
                .iter()
                .zip(mps)
                .map(|w| (Kind::MachinePool, w)),
        )
        .filter_map(|(kind, (_, c))| {
            c.as_ref().map(|c| WorkerVersion {
                kind: kind.name(),
                name: c.object_name,
                version: c.version,
            })
        })
        .collect();
    let source = match input.plan_extension {
        Some(ext) => Source::Extension(ext),
        None if !input.class_versions.is_empty() => Source::ClassVersions(input.class_versions),
        None => Source::OneMinor,
    };
    plan::compute(input.topology_version, cp_version, &workers, &source)
}

/// Mark the MachineDeployments and MachinePools that are rolling out now (all current
/// objects, in the topology or not).
fn mark_rolling_out(
    input: &UpgradeInput<'_>,
    main: bool,
    mds: &[Option<Current<'_>>],
    mps: &[Option<Current<'_>>],
    md_tracker: &mut WorkerTracker,
    mp_tracker: &mut WorkerTracker,
) -> Result<(), String> {
    for (w, c) in input.machine_deployments.iter().zip(mds) {
        let Some(c) = c else { continue };
        let upgrading = contract::machine_deployment_upgrading(main, c.object_name, c.version, &w.machines)
            .map_err(|e| {
                format!(
                    "failed to check if any MachineDeployment is upgrading: failed to list upgrading MachineDeployments: {e}"
                )
            })?;
        if upgrading {
            md_tracker.upgrading.insert(w.name.to_string());
        }
    }
    for (w, c) in input.machine_pools.iter().zip(mps) {
        let (Some(c), Some(obj)) = (c, w.current) else {
            continue;
        };
        if contract::machine_pool_upgrading(c.version, obj, &w.nodes) {
            mp_tracker.upgrading.insert(w.name.to_string());
        }
    }
    Ok(())
}

/// The version decision of each of a kind's workers in the topology (`currents`: their
/// current objects; `rolling`: those rolling out before this pass), by topology name.
fn worker_decisions(
    ctx: &WorkerContext<'_>,
    kind: Kind,
    workers: &[Worker<'_>],
    currents: &[Option<Current<'_>>],
    tracker: &mut WorkerTracker,
    rolling: &BTreeSet<String>,
) -> Result<BTreeMap<String, WorkerDecision>, String> {
    let mut out = BTreeMap::new();
    let holds = Holds::of(workers);
    for (w, c) in workers.iter().zip(currents) {
        if !w.in_topology {
            continue;
        }
        let d = worker_version(
            ctx,
            kind,
            w,
            c.as_ref(),
            &holds,
            tracker,
            rolling.contains(w.name),
        )
        .map_err(|e| match kind {
            Kind::MachineDeployment => format!(
                "failed to compute MachineDeployments: failed to compute MachineDepoyment for topology {:?}: {e}",
                w.name
            ),
            Kind::MachinePool => format!(
                "failed to compute MachinePools: failed to compute MachinePool for topology {:?}: {e}",
                w.name
            ),
        })?;
        out.insert(w.name.to_string(), d);
    }
    Ok(out)
}

/// `computeControlPlaneVersion` (hooks absent).
fn control_plane(
    input: &UpgradeInput<'_>,
    main: bool,
    plans: &Plans,
    mds: &WorkerTracker,
    mps: &WorkerTracker,
) -> Result<(String, ControlPlaneState, CpFlags), String> {
    let topology_version = input.topology_version;
    let mut flags = CpFlags::default();
    let Some(cp) = input.control_plane else {
        return Ok((
            topology_version.to_string(),
            ControlPlaneState::Creating {
                version: topology_version.to_string(),
            },
            flags,
        ));
    };
    let current = contract::spec_version(cp)
        .map_err(|e| format!("failed to get the version from control plane spec: {e}"))?
        .to_string();
    // A plain string comparison, as in Cluster API.
    flags.pending = current != topology_version;

    if contract::is_provisioning(cp, main)
        .map_err(|e| format!("failed to check if the control plane is being provisioned: {e}"))?
    {
        flags.provisioning = true;
        let state = ControlPlaneState::Provisioning {
            version: current.clone(),
        };
        return Ok((current, state, flags));
    }

    if let Some((status_version, status_field)) = contract::is_upgrading(cp, main)
        .map_err(|e| format!("failed to check if control plane is upgrading: {e}"))?
    {
        flags.upgrading = true;
        let state = ControlPlaneState::Upgrading {
            version: current.clone(),
            status_version,
            status_field,
        };
        return Ok((current, state, flags));
    }

    let upgrading_workers = || -> Vec<String> {
        let mut names: Vec<String> = mds.upgrading.iter().cloned().collect();
        names.extend(mps.upgrading.iter().cloned());
        names
    };
    let stable = |flags: CpFlags, version: &str| {
        (
            version.to_string(),
            ControlPlaneState::Stable {
                version: version.to_string(),
            },
            flags,
        )
    };

    if !main {
        // v1.10: already at the desired version → done; otherwise wait for rolling workers,
        // then jump straight to topology.version.
        if !flags.pending {
            return Ok(stable(flags, &current));
        }
        if !mds.upgrading.is_empty() || !mps.upgrading.is_empty() {
            let state = ControlPlaneState::WaitingForUpgradingWorkers {
                version: current.clone(),
                upgrading: upgrading_workers(),
            };
            return Ok((current, state, flags));
        }
        flags.pending = false;
        flags.starting = true;
        let state = ControlPlaneState::StartingUpgrade {
            from: current,
            to: topology_version.to_string(),
        };
        return Ok((topology_version.to_string(), state, flags));
    }

    // Workers must catch up with the control plane before it takes the next step.
    if mds.plan.first().is_some_and(|v| *v == current)
        || mps.plan.first().is_some_and(|v| *v == current)
    {
        flags.waiting_for_workers = true;
        let state = ControlPlaneState::WaitingForWorkers {
            version: current.clone(),
        };
        return Ok((current, state, flags));
    }

    if !mds.upgrading.is_empty() || !mps.upgrading.is_empty() {
        if !flags.pending {
            return Ok(stable(flags, &current));
        }
        let state = ControlPlaneState::WaitingForUpgradingWorkers {
            version: current.clone(),
            upgrading: upgrading_workers(),
        };
        return Ok((current, state, flags));
    }

    if !flags.pending {
        return Ok(stable(flags, &current));
    }

    let Some(next) = plans.control_plane.first() else {
        return Err(
            "cannot compute the control plane version if the control plane is pending upgrade and the upgrade plan is not set"
                .into(),
        );
    };
    flags.starting = true;
    flags.pending = false;
    let state = ControlPlaneState::StartingUpgrade {
        from: current,
        to: next.clone(),
    };
    Ok((next.clone(), state, flags))
}

/// What the worker decisions read from the control plane's.
struct WorkerContext<'a> {
    main: bool,
    topology_version: &'a str,
    cp: CpFlags,
    cp_state: &'a ControlPlaneState,
}

/// Where a list's first `hold-upgrade-sequence` annotation holds entries back, computed once
/// per list: asking each entry "is one listed before me held?" by a scan of the list was
/// quadratic in the workers of a Cluster.
struct Holds<'a> {
    /// Position (among the entries in the topology) and name of the first held entry.
    first: Option<(usize, &'a str)>,
    /// Each name's first position among the entries in the topology.
    position: std::collections::HashMap<&'a str, usize>,
}

fn has(w: &Worker<'_>, key: &str) -> bool {
    w.topology_annotations.is_some_and(|a| a.contains_key(key))
}

impl<'a> Holds<'a> {
    fn of(all: &[Worker<'a>]) -> Holds<'a> {
        let mut first = None;
        let mut position = std::collections::HashMap::new();
        for (i, o) in all.iter().filter(|o| o.in_topology).enumerate() {
            if first.is_none() && has(o, HOLD_UPGRADE_SEQUENCE) {
                first = Some((i, o.name));
            }
            position.entry(o.name).or_insert(i);
        }
        Holds { first, position }
    }

    /// The entry that holds `name` back: the first held one, unless `name` is listed before it.
    fn holding(&self, name: &str) -> Option<&'a str> {
        let (held, by) = self.first?;
        match self.position.get(name) {
            Some(&at) if at < held => None,
            _ => Some(by),
        }
    }
}

/// Why an entry is deferred (`isMachineDeploymentDeferred` / `isMachinePoolDeferred`), if it is.
fn deferral(w: &Worker<'_>, holds: &Holds<'_>) -> Option<String> {
    if has(w, DEFER_UPGRADE) {
        return Some(format!(
            "upgrade deferred by its {DEFER_UPGRADE} annotation"
        ));
    }
    if has(w, HOLD_UPGRADE_SEQUENCE) {
        return Some(format!(
            "upgrade held by its {HOLD_UPGRADE_SEQUENCE} annotation"
        ));
    }
    // Only entries listed before this one hold it back.
    holds
        .holding(w.name)
        .map(|other| format!("upgrade held by the {HOLD_UPGRADE_SEQUENCE} annotation on {other}"))
}

/// `computeMachineDeploymentVersion` / `computeMachinePoolVersion` (hooks absent).
fn worker_version(
    ctx: &WorkerContext<'_>,
    kind: Kind,
    w: &Worker<'_>,
    current: Option<&Current<'_>>,
    holds: &Holds<'_>,
    tracker: &mut WorkerTracker,
    rolling: bool,
) -> Result<WorkerDecision, String> {
    let topology_version = ctx.topology_version;
    let mut d = WorkerDecision {
        version: topology_version.to_string(),
        current_version: current.map(|c| c.version.to_string()),
        pending_create: false,
        pending_upgrade: false,
        deferred: false,
        upgrading: rolling,
        starting_upgrade: false,
        reason: None,
    };
    let Some(current) = current else {
        // Joining nodes while the control plane changes can race (e.g. slow load balancers).
        if !ctx.cp.stable() {
            d.pending_create = true;
            d.reason = Some(format!(
                "not created until the control plane is stable: {}",
                ctx.cp_state.reason()
            ));
        }
        return Ok(d);
    };
    let current_version = current.version;
    d.version = current_version.to_string();
    if current_version == topology_version {
        return Ok(d);
    }

    let hold = |d: &mut WorkerDecision, reason: String| {
        d.pending_upgrade = true;
        d.reason = Some(reason);
    };

    if let Some(reason) = deferral(w, holds) {
        d.deferred = true;
        hold(&mut d, reason);
        return Ok(d);
    }

    let upgrading_count = i64::try_from(tracker.upgrading.len()).unwrap_or(i64::MAX);
    if upgrading_count >= tracker.max_concurrency {
        let names: Vec<&str> = tracker.upgrading.iter().map(String::as_str).collect();
        hold(
            &mut d,
            format!(
                "upgrade concurrency {} reached ({} upgrading)",
                tracker.max_concurrency,
                names.join(", ")
            ),
        );
        return Ok(d);
    }

    let cp_ready = if ctx.main {
        ctx.cp.stable_or_waiting()
    } else {
        ctx.cp.stable()
    };
    if !cp_ready {
        hold(
            &mut d,
            format!("waiting for the control plane: {}", ctx.cp_state.reason()),
        );
        return Ok(d);
    }

    let next = if ctx.main {
        let Some(next) = tracker.plan.first() else {
            return Err(format!(
                "cannot compute the {0} version if the {0} is pending upgrade and the upgrade plan is not set",
                kind.lower()
            ));
        };
        // Already at the workers' next step: the control plane has to move on first.
        if next == current_version {
            hold(
                &mut d,
                format!(
                    "at the workers' current step {current_version}; waiting for the control plane to take its next step"
                ),
            );
            return Ok(d);
        }
        next.clone()
    } else {
        topology_version.to_string()
    };

    tracker.upgrading.insert(w.name.to_string());
    d.starting_upgrade = true;
    d.reason = Some(format!("upgrading from {current_version} to {next}"));
    d.version = next;
    Ok(d)
}

#[cfg(test)]
mod tests;
