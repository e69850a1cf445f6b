/*!
Verdicts: what the topology controller does to each object of one Cluster, given what exists.

Owns the reconcile step (Cluster API's `core/reconcilers/topology/cluster/reconcile_state.go`: `reconcileReferencedTemplate`, `calculateMachineDeploymentDiff`, `calculateMachinePoolDiff`) as an offline judgement: every
desired object is compared with its current counterpart through the server-side-apply
simulation in [`super::ssa`]; templates whose spec changes are rotated (a new template under a
new name, the holder re-pointed, the old one deleted); objects the upgrade sequencing holds
back stay as they are; workers removed from the topology and health checks no longer wanted are
deleted. The rollout impact of the result is [`super::rollout`]'s business.
*/

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::current::{CurrentState, Worker, read_ref};
use super::rollout::Rollout;
use super::ssa::{self, Change, ListTypes};
use super::upgrade::UpgradeDecision;
use super::{Action, PlannedObject};
use crate::api::ApiVersion;
use crate::diag::{Code, Diagnostic};
use crate::load::Object;
use crate::topology::{DesiredObject, Role, names};

/// The verdicts for one Cluster.
#[derive(Debug, Default)]
pub struct Verdicts {
    /// Every object the pass touches or keeps, in no particular order.
    pub objects: Vec<PlannedObject>,
    /// Changes held back this pass, with why: `(role, what, reason)`.
    pub deferred: Vec<(Role, String, String)>,
    /// Rollouts the held version upgrades will cause.
    pub rollouts: Vec<Rollout>,
    /// Current objects compared without `capi-topology` managedFields (fields dropped from a
    /// template cannot be detected in them).
    pub inexact: usize,
}

/// Everything the verdicts of one Cluster depend on.
pub struct Input<'a, 'c> {
    /// The planned Cluster's API version.
    pub api: ApiVersion,
    /// What exists.
    pub current: &'c CurrentState<'a>,
    /// The upgrade sequencing's decision.
    pub upgrade: &'c UpgradeDecision,
    /// `spec.topology.version`, `v`-prefixed.
    pub topology_version: &'c str,
    /// List semantics for the merge.
    pub lists: &'c ListTypes,
    /// `capi-topology` owns the current objects alone (topoplan computed them).
    pub sole_owner: bool,
}

/// Where the current counterpart of a role is, and the object that must exist for it.
fn current_for<'a>(cur: &CurrentState<'a>, role: &Role) -> Option<&'a Object> {
    let md = |n: &str| cur.machine_deployments.get(n);
    let mp = |n: &str| cur.machine_pools.get(n);
    match role {
        Role::InfrastructureCluster => cur.infrastructure_cluster,
        Role::ControlPlaneInfrastructureMachineTemplate => cur.control_plane_template,
        Role::ControlPlane => cur.control_plane,
        Role::ControlPlaneHealthCheck => cur.control_plane_health_check,
        Role::Cluster => Some(cur.cluster),
        Role::ClusterShim => cur.shim,
        Role::MachineDeploymentBootstrapTemplate(n) => md(n).and_then(|w| w.bootstrap),
        Role::MachineDeploymentInfrastructureTemplate(n) => md(n).and_then(|w| w.infrastructure),
        Role::MachineDeployment(n) => md(n).map(|w| w.object),
        Role::MachineDeploymentHealthCheck(n) => md(n).and_then(|w| w.health_check),
        Role::MachinePoolBootstrapConfig(n) => mp(n).and_then(|w| w.bootstrap),
        Role::MachinePoolInfrastructure(n) => mp(n).and_then(|w| w.infrastructure),
        Role::MachinePool(n) => mp(n).map(|w| w.object),
    }
}

/// The template roles that are rotated on a spec change, with the pointer of the reference to
/// them in their holder and the holder's role. `cp_v1beta2`: the ControlPlane follows the
/// v1beta2 contract (`spec.machineTemplate.spec.infrastructureRef`).
fn rotation(role: &Role, cp_v1beta2: bool) -> Option<(Role, &'static str)> {
    match role {
        Role::ControlPlaneInfrastructureMachineTemplate => {
            let ptr = if cp_v1beta2 {
                "/spec/machineTemplate/spec/infrastructureRef/name"
            } else {
                "/spec/machineTemplate/infrastructureRef/name"
            };
            Some((Role::ControlPlane, ptr))
        }
        Role::MachineDeploymentBootstrapTemplate(n) => Some((
            Role::MachineDeployment(n.clone()),
            "/spec/template/spec/bootstrap/configRef/name",
        )),
        Role::MachineDeploymentInfrastructureTemplate(n) => Some((
            Role::MachineDeployment(n.clone()),
            "/spec/template/spec/infrastructureRef/name",
        )),
        _ => None,
    }
}

/// The prefix of a rotated template's new name (`names.SimpleNameGenerator`): `<cluster>-` for
/// the control plane's, `<cluster>-<topology name>-` for a MachineDeployment's.
fn rotation_prefix(cluster: &str, role: &Role) -> String {
    match role {
        Role::MachineDeploymentBootstrapTemplate(n)
        | Role::MachineDeploymentInfrastructureTemplate(n) => format!("{cluster}-{n}-"),
        _ => format!("{cluster}-"),
    }
}

/// The group of an apiVersion, `Kind.group` as Go's `GroupKind.String` prints it.
fn group_kind(v: &Value) -> (String, String) {
    let api = v.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    (
        crate::load::object::group_of(api).to_string(),
        kind.to_string(),
    )
}

/// `check.ObjectsAreCompatible` (and `…StrictlyCompatible` with `strict`; MD bootstrap
/// templates only need the namespace, `kind_may_change`): Kubernetes field errors.
fn compatibility(
    current: &Object,
    desired: &Value,
    strict: bool,
    kind_may_change: bool,
) -> Vec<String> {
    let (cg, ck) = (current.group().to_string(), current.kind.clone());
    let (dg, dk) = group_kind(desired);
    let gk = if cg.is_empty() {
        ck.clone()
    } else {
        format!("{ck}.{cg}")
    };
    let dname = crate::json::metadata_str(desired, "name");
    let mut errs = Vec::new();
    if strict && current.name != dname {
        errs.push(format!(
            "metadata.name: Forbidden: metadata.name of {gk}/{} cannot be changed from {:?} to {dname:?} to prevent incompatible changes in the Cluster",
            current.name, current.name
        ));
    }
    if !kind_may_change {
        if cg != dg {
            errs.push(format!(
                "metadata.apiVersion: Forbidden: apiVersion.group of {gk}/{} cannot be changed from {cg:?} to {dg:?} to prevent incompatible changes in the Cluster",
                current.name
            ));
        }
        if ck != dk {
            errs.push(format!(
                "metadata.kind: Forbidden: apiVersion.kind of {gk}/{} cannot be changed from {ck:?} to {dk:?} to prevent incompatible changes in the Cluster",
                current.name
            ));
        }
    }
    errs
}

/// `utilerrors.NewAggregate(...).Error()`: one message bare, several in brackets.
fn aggregate(errs: &[String]) -> String {
    match errs {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// Cluster API's comparison of `current` with the desired object: the intent without the
/// ignore paths (the control-plane endpoint, when the topology leaves it to the provider),
/// applied and compared (Cluster API's `NewServerSidePatchHelper`, `core/reconcilers/topology/cluster/structuredmerge/serversidepatchhelper.go`).
fn compare(current: &Object, d: &DesiredObject, input: &Input<'_, '_>) -> ssa::Verdict {
    let ignore = match d.role {
        Role::InfrastructureCluster | Role::ControlPlane => ssa::endpoint_ignore_paths(&d.value),
        _ => Vec::new(),
    };
    if input.sole_owner {
        ssa::compare_sole_owner(&current.value, &d.value, &ignore, input.lists)
    } else {
        ssa::compare(&current.value, &d.value, &ignore, input.lists)
    }
}

/// Judge every desired object of one Cluster against what exists, in the reconcile's order:
/// what the upgrade sequencing holds ([`Holds::of`]), the templates (rotated when their spec
/// changes, [`Pass::templates`]), their holders re-pointed and the shim's ownership settled,
/// every other object ([`Pass::objects`]), then what the topology no longer wants
/// ([`Pass::deletions`]).
pub fn judge(
    cluster_name: &str,
    seed: &str,
    desired: Vec<DesiredObject>,
    input: &Input<'_, '_>,
) -> Result<Verdicts, Vec<Diagnostic>> {
    let mut desired = desired;
    let mut pass = Pass {
        input,
        holds: Holds::of(input),
        out: Verdicts::default(),
        errors: Vec::new(),
        results: std::iter::repeat_with(|| None)
            .take(desired.len())
            .collect(),
    };
    let renames = pass.templates(cluster_name, seed, &desired);
    repoint(&mut desired, renames);
    settle_shim_owners(&mut desired, input.current);
    pass.objects(&desired);
    let results = std::mem::take(&mut pass.results);
    pass.out.objects.extend(results.into_iter().flatten());
    pass.deletions(&desired);
    let Pass { out, errors, .. } = pass;
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// What the upgrade sequencing holds this pass (Cluster API's upgrade tracker,
/// `exp/topology/scope/upgradetracker.go`: a pending upgrade holds the writes).
struct Holds {
    /// Roles this pass does not write, with why.
    held: BTreeMap<Role, String>,
    /// Workers created later (`md/NAME`, `mp/NAME`).
    pending_create: BTreeSet<String>,
    /// Version upgrades held back: (from, to, why) by holder.
    waits: BTreeMap<Role, (String, String, String)>,
}

impl Holds {
    fn of(input: &Input<'_, '_>) -> Holds {
        let cur = input.current;
        let up = input.upgrade;
        let mut held: BTreeMap<Role, String> = BTreeMap::new();
        if up.control_plane_pending_upgrade {
            let why = up.control_plane.reason();
            held.insert(Role::ControlPlane, why.clone());
            held.insert(Role::ControlPlaneInfrastructureMachineTemplate, why);
        }
        let mut pending_create: BTreeSet<String> = BTreeSet::new();
        for (kind_md, decisions) in [(true, &up.machine_deployments), (false, &up.machine_pools)] {
            for (name, d) in decisions {
                let reason = d
                    .reason
                    .clone()
                    .unwrap_or_else(|| "held by the upgrade sequencing".to_string());
                if d.pending_create {
                    pending_create.insert(format!("{}/{name}", if kind_md { "md" } else { "mp" }));
                }
                if d.pending_upgrade {
                    let roles: Vec<Role> = if kind_md {
                        vec![
                            Role::MachineDeployment(name.clone()),
                            Role::MachineDeploymentBootstrapTemplate(name.clone()),
                            Role::MachineDeploymentInfrastructureTemplate(name.clone()),
                        ]
                    } else {
                        vec![
                            Role::MachinePool(name.clone()),
                            Role::MachinePoolBootstrapConfig(name.clone()),
                            Role::MachinePoolInfrastructure(name.clone()),
                        ]
                    };
                    for r in roles {
                        held.insert(r, reason.clone());
                    }
                }
            }
        }
        let mut waits: BTreeMap<Role, (String, String, String)> = BTreeMap::new();
        if up.control_plane_pending_upgrade
            && let Some(cp) = cur.control_plane
        {
            let from = cp
                .value
                .pointer("/spec/version")
                .and_then(Value::as_str)
                .unwrap_or("");
            if from != input.topology_version {
                waits.insert(
                    Role::ControlPlane,
                    (
                        from.to_string(),
                        input.topology_version.to_string(),
                        up.control_plane.reason(),
                    ),
                );
            }
        }
        for (md, decisions) in [(true, &up.machine_deployments), (false, &up.machine_pools)] {
            for (name, d) in decisions {
                let Some(from) = d.current_version.as_deref() else {
                    continue;
                };
                if d.pending_upgrade && from != input.topology_version {
                    let role = if md {
                        Role::MachineDeployment(name.clone())
                    } else {
                        Role::MachinePool(name.clone())
                    };
                    let why = d
                        .reason
                        .clone()
                        .unwrap_or_else(|| "held by the upgrade sequencing".into());
                    waits.insert(
                        role,
                        (from.to_string(), input.topology_version.to_string(), why),
                    );
                }
            }
        }
        // A deleting MachineDeployment is left alone but for its health check.
        for (name, w) in &cur.machine_deployments {
            if w.deleting {
                for r in [
                    Role::MachineDeployment(name.clone()),
                    Role::MachineDeploymentBootstrapTemplate(name.clone()),
                    Role::MachineDeploymentInfrastructureTemplate(name.clone()),
                ] {
                    held.insert(
                        r,
                        format!("MachineDeployment {} is being deleted", w.object.name),
                    );
                }
            }
        }
        Holds {
            held,
            pending_create,
            waits,
        }
    }

    /// Whether `role` belongs to a worker created later.
    fn created_later(&self, role: &Role) -> bool {
        worker_of(role).is_some_and(|w| self.pending_create.contains(&w))
    }
}

/// The worker (`md/NAME`, `mp/NAME`) a role belongs to.
fn worker_of(role: &Role) -> Option<String> {
    match role {
        Role::MachineDeployment(n)
        | Role::MachineDeploymentBootstrapTemplate(n)
        | Role::MachineDeploymentInfrastructureTemplate(n)
        | Role::MachineDeploymentHealthCheck(n) => Some(format!("md/{n}")),
        Role::MachinePool(n)
        | Role::MachinePoolBootstrapConfig(n)
        | Role::MachinePoolInfrastructure(n) => Some(format!("mp/{n}")),
        _ => None,
    }
}

/// One Cluster's judgement in progress.
struct Pass<'i, 'a, 'c> {
    input: &'i Input<'a, 'c>,
    holds: Holds,
    /// Objects not among the desired ones (deletions, rotated-away templates), deferrals,
    /// rollouts.
    out: Verdicts,
    errors: Vec<Diagnostic>,
    /// The verdict on each desired object, by its index.
    results: Vec<Option<PlannedObject>>,
}

impl Pass<'_, '_, '_> {
    /// The verdicts on the templates a holder references (Cluster API's
    /// `reconcileReferencedTemplate`): templates first, since a rotation re-points its holder
    /// before the holder is judged. Returns the re-pointings: (holder, pointer, new name).
    fn templates(
        &mut self,
        cluster_name: &str,
        seed: &str,
        desired: &[DesiredObject],
    ) -> Vec<(Role, &'static str, String)> {
        let cur = self.input.current;
        let mut renames = Vec::new();
        let holders: BTreeSet<Role> = desired
            .iter()
            .filter(|d| matches!(d.role, Role::ControlPlane | Role::MachineDeployment(_)))
            .map(|d| d.role.clone())
            .collect();
        let cp_v1beta2 = desired.iter().any(|d| {
            d.role == Role::ControlPlane
                && d.value
                    .pointer("/spec/machineTemplate/spec/infrastructureRef")
                    .is_some()
        });
        for (i, d) in desired.iter().enumerate() {
            if self.holds.created_later(&d.role) {
                continue;
            }
            let Some((holder, ptr)) =
                rotation(&d.role, cp_v1beta2).filter(|(h, _)| holders.contains(h))
            else {
                continue;
            };
            let Some(current) = current_for(cur, &d.role) else {
                // A held holder's templates are not written either (a deleting
                // MachineDeployment re-added to the topology waits for its deletion to finish).
                if !self.holds.held.contains_key(&d.role) {
                    self.results[i] = Some(planned(Action::Created, d, None, None));
                }
                continue;
            };
            let kind_may_change = matches!(d.role, Role::MachineDeploymentBootstrapTemplate(_));
            let errs = compatibility(current, &d.value, false, kind_may_change);
            if !errs.is_empty() {
                // reconcileMachineDeployment wraps its templates' errors in the
                // MachineDeployment's name; the control plane's template speaks for itself.
                let who = match &holder {
                    Role::MachineDeployment(_) => current_for(cur, &holder).unwrap_or(current),
                    _ => current,
                };
                self.errors.push(incompatible(who, current, &d.role, &errs));
                continue;
            }
            let Some((after, change)) = self.compare_unless_held(i, d, current) else {
                continue;
            };
            match change {
                Change::None => {
                    self.results[i] = Some(judged(Action::Unchanged, d, after, current));
                }
                Change::MetadataOnly => {
                    let mut p = judged(Action::Modified, d, after, current);
                    p.note = Some("metadata only: patched in place".into());
                    self.results[i] = Some(p);
                }
                Change::Spec => {
                    let new_name = self.rotate(i, cluster_name, seed, d, current, &holder);
                    renames.push((holder, ptr, new_name));
                }
            }
        }
        renames
    }

    /// Compare the `i`-th desired object with `current`: what the apply leaves and what
    /// changes, or `None` when the upgrade sequencing holds the object (its verdict, with the
    /// change it will get later, is then already given).
    fn compare_unless_held(
        &mut self,
        i: usize,
        d: &DesiredObject,
        current: &Object,
    ) -> Option<(Value, Change)> {
        let v = compare(current, d, self.input);
        self.out.inexact += usize::from(!v.exact);
        match self.holds.held.get(&d.role) {
            Some(why) => {
                self.results[i] = Some(hold(
                    &mut self.out,
                    d,
                    current,
                    v.after,
                    v.change,
                    why,
                    &self.holds.waits,
                ));
                None
            }
            None => Some((v.after, v.change)),
        }
    }

    /// Rotation of the `i`-th desired object, a template whose spec changed: a copy under a new
    /// name, the old one deleted. The name is Cluster API's shape with a suffix drawn from the
    /// new content, so the same change always plans the same name and never the current one.
    /// Returns the new name, for the holder to point at.
    fn rotate(
        &mut self,
        i: usize,
        cluster_name: &str,
        seed: &str,
        d: &DesiredObject,
        current: &Object,
        holder: &Role,
    ) -> String {
        let content =
            serde_json::to_string(d.value.get("spec").unwrap_or(&Value::Null)).unwrap_or_default();
        let mut new_name = names::simple(
            &rotation_prefix(cluster_name, &d.role),
            &format!("{seed}/{}/{content}", d.role.id()),
        );
        if new_name == current.name {
            new_name = names::simple(
                &rotation_prefix(cluster_name, &d.role),
                &format!("{seed}/{}/{content}/again", d.role.id()),
            );
        }
        let mut created = d.value.clone();
        crate::topology::desired::set_name(&mut created, &new_name);
        let mut p = planned(Action::Created, d, None, None);
        p.object = created;
        p.note = Some(format!("replaces {}: its spec changed", current.name));
        p.rotated_from = Some(current.name.clone());
        // The change itself lives in this copy: a reviewer sees it as its diff from the
        // template it replaces.
        p.current = Some(current.value.clone());
        self.results[i] = Some(p);
        let when = match holder {
            Role::ControlPlane => "after the control plane is patched",
            _ => "by the MachineSet topology controller once no MachineSet uses it",
        };
        self.out.objects.push(PlannedObject {
            action: Action::Deleted,
            role: d.role.clone(),
            object: current.value.clone(),
            current: Some(current.value.clone()),
            note: Some(format!("rotated away to {new_name}; deleted {when}")),
            rotated_from: None,
            pending: None,
        });
        new_name
    }

    /// The verdicts on every desired object but the templates: the shim, the Cluster, the
    /// holders (re-pointed by now) and the rest, compared with their current forms.
    fn objects(&mut self, desired: &[DesiredObject]) {
        let cur = self.input.current;
        let up = self.input.upgrade;
        let infra_and_cp_exist =
            cur.infrastructure_cluster.is_some() && cur.control_plane.is_some();
        for (i, d) in desired.iter().enumerate() {
            if self.results[i].is_some() || rotation(&d.role, false).is_some() {
                continue;
            }
            if self.holds.created_later(&d.role) {
                let why = worker_of(&d.role)
                    .and_then(|w| {
                        let (k, n) = w.split_once('/')?;
                        let m = if k == "md" {
                            &up.machine_deployments
                        } else {
                            &up.machine_pools
                        };
                        m.get(n).and_then(|x| x.reason.clone())
                    })
                    .unwrap_or_else(|| "the control plane is not stable".into());
                if matches!(d.role, Role::MachineDeployment(_) | Role::MachinePool(_)) {
                    self.out.deferred.push((
                        d.role.clone(),
                        kobj(&d.value),
                        format!("created later: {why}"),
                    ));
                }
                continue;
            }
            let current = current_for(cur, &d.role);
            match d.role {
                Role::ClusterShim => {
                    self.results[i] = shim(d, current, infra_and_cp_exist, cur);
                    continue;
                }
                Role::Cluster => {
                    self.results[i] = Some(self.cluster(d));
                    continue;
                }
                _ => {}
            }
            let Some(current) = current else {
                self.results[i] = Some(planned(Action::Created, d, None, None));
                continue;
            };
            let strict = matches!(
                d.role,
                Role::InfrastructureCluster
                    | Role::ControlPlane
                    | Role::MachinePoolBootstrapConfig(_)
                    | Role::MachinePoolInfrastructure(_)
            );
            let errs = compatibility(current, &d.value, strict, false);
            if !errs.is_empty() {
                self.errors
                    .push(incompatible(current, current, &d.role, &errs));
                continue;
            }
            let Some((after, change)) = self.compare_unless_held(i, d, current) else {
                continue;
            };
            let action = if change == Change::None {
                Action::Unchanged
            } else {
                Action::Modified
            };
            self.results[i] = Some(judged(action, d, after, current));
        }
    }

    /// The Cluster's verdict: the stored Cluster as the user's apply of the input leaves it,
    /// then the topology controller's own patch.
    fn cluster(&self, d: &DesiredObject) -> PlannedObject {
        let cur = self.input.current;
        let after = ssa::apply_cluster(
            &cluster_as_applied(&cur.cluster.value, &d.value),
            &d.value,
            self.input.api,
        );
        let change = ssa::change(&cur.cluster.value, &after);
        let action = if change == Change::None {
            Action::Unchanged
        } else {
            Action::Modified
        };
        let note = (action == Action::Modified)
            .then(|| super::why::cluster_note(&cur.cluster.value, &after))
            .flatten();
        let mut p = planned(action, d, Some(cur.cluster), note);
        p.object = after;
        p
    }

    /// What the topology no longer wants (`calculateMachineDeploymentDiff`,
    /// `calculateMachinePoolDiff` in reconcile_state.go): workers gone from the topology,
    /// health checks no longer enabled.
    fn deletions(&mut self, desired: &[DesiredObject]) {
        let cur = self.input.current;
        let wanted: BTreeSet<&Role> = desired.iter().map(|d| &d.role).collect();
        let out = &mut self.out;
        let mut delete = |role: Role, o: &Object, note: String| {
            out.objects.push(PlannedObject {
                action: Action::Deleted,
                role,
                object: o.value.clone(),
                current: Some(o.value.clone()),
                note: Some(note),
                rotated_from: None,
                pending: None,
            });
        };
        for (name, w) in &cur.machine_deployments {
            let md = Role::MachineDeployment(name.clone());
            if !wanted.contains(&md) {
                delete_worker(&mut delete, name, w, true);
            } else if let Some(mhc) = w.health_check
                && !wanted.contains(&Role::MachineDeploymentHealthCheck(name.clone()))
            {
                delete(
                    Role::MachineDeploymentHealthCheck(name.clone()),
                    mhc,
                    "the health check is no longer enabled".into(),
                );
            }
        }
        for (name, w) in &cur.machine_pools {
            if !wanted.contains(&Role::MachinePool(name.clone())) {
                delete_worker(&mut delete, name, w, false);
            }
        }
        if let Some(mhc) = cur.control_plane_health_check
            && !wanted.contains(&Role::ControlPlaneHealthCheck)
        {
            delete(
                Role::ControlPlaneHealthCheck,
                mhc,
                "the health check is no longer enabled".into(),
            );
        }
    }
}

/// Each holder re-pointed at its rotated template: (holder, pointer, new name).
fn repoint(desired: &mut [DesiredObject], renames: Vec<(Role, &'static str, String)>) {
    for (holder, ptr, name) in renames {
        if let Some(h) = desired.iter_mut().find(|d| d.role == holder)
            && let Some(slot) = h.value.pointer_mut(ptr)
        {
            *slot = json!(name);
        }
    }
}

/// The InfrastructureCluster's and ControlPlane's owner references to the shim, as
/// `reconcileClusterShim` leaves them.
fn settle_shim_owners(desired: &mut [DesiredObject], cur: &CurrentState<'_>) {
    let infra_and_cp_exist = cur.infrastructure_cluster.is_some() && cur.control_plane.is_some();
    for d in desired.iter_mut() {
        if matches!(d.role, Role::InfrastructureCluster | Role::ControlPlane) {
            shim_owner(
                &mut d.value,
                current_for(cur, &d.role),
                infra_and_cp_exist,
                cur,
            );
        }
    }
}

/// The shim's verdict (`reconcileClusterShim`): it exists while the InfrastructureCluster or
/// the ControlPlane is missing; it is deleted once the Cluster owns both and the shim still owns
/// one of them.
fn shim(
    d: &DesiredObject,
    current: Option<&Object>,
    infra_and_cp_exist: bool,
    cur: &CurrentState<'_>,
) -> Option<PlannedObject> {
    match (current, shim_deletable(cur)) {
        (None, _) if !infra_and_cp_exist => Some(planned(Action::Created, d, None, None)),
        (Some(c), true) => {
            let mut p = planned(Action::Deleted, d, Some(c), None);
            p.object = c.value.clone();
            p.note =
                Some("the Cluster owns the InfrastructureCluster and the ControlPlane now".into());
            Some(p)
        }
        (Some(c), false) => Some(planned(Action::Unchanged, d, Some(c), None)),
        (None, _) => None,
    }
}

/// The verdict on an object the upgrade sequencing does not write this pass: unchanged, with
/// the change it will get later (if any) kept as `pending` and reported as deferred. A held
/// holder whose version upgrade waits is reported even when nothing else changes, with a
/// deferred rollout.
fn hold(
    out: &mut Verdicts,
    d: &DesiredObject,
    current: &Object,
    after: Value,
    change: Change,
    why: &str,
    waits: &BTreeMap<Role, (String, String, String)>,
) -> PlannedObject {
    let wait = waits.get(&d.role);
    let mut p = planned(Action::Unchanged, d, Some(current), None);
    if why.ends_with("is being deleted") {
        p.note = Some(format!("held: {why}"));
    }
    if let Some((from, to, reason)) = wait {
        out.deferred.push((
            d.role.clone(),
            format!("{} {}", current.kind, current.name),
            format!("upgrade from {from} to {to} waits: {reason}"),
        ));
        out.rollouts.push(Rollout {
            role: d.role.clone(),
            kind: current.kind.clone(),
            name: current.name.clone(),
            deferred: true,
            reasons: vec![format!("Version {from}, {to} required")],
        });
        p.note = Some(format!("held: {reason}"));
    }
    if change != Change::None {
        if wait.is_none() {
            out.deferred.push((
                d.role.clone(),
                format!("{} {}", current.kind, current.name),
                format!("changes wait: {why}"),
            ));
        }
        p.note = Some(format!("held: {why}"));
        p.pending = Some(after);
        p.current = Some(current.value.clone());
    }
    p
}

/// The stored Cluster once the user applied the input's: its spec is the input's (with the
/// references the controller set), its labels and annotations the stored ones with the input's
/// on top. The controller's own patch comes after this.
fn cluster_as_applied(stored: &Value, given: &Value) -> Value {
    let mut out = stored.clone();
    if let (Some(o), Some(spec)) = (out.as_object_mut(), given.get("spec")) {
        o.insert("spec".into(), spec.clone());
    }
    for field in ["labels", "annotations"] {
        let Some(g) = given
            .pointer(&format!("/metadata/{field}"))
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (k, v) in g {
            crate::json::set_path(&mut out, &["metadata", field, k], v.clone());
        }
    }
    out
}

/// Whether `o` has an owner reference to `kind` `name`.
fn owned_by(o: &Object, kind: &str, name: &str) -> Option<Value> {
    o.value
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)?
        .iter()
        .find(|r| {
            r.get("kind").and_then(Value::as_str) == Some(kind)
                && r.get("name").and_then(Value::as_str) == Some(name)
        })
        .cloned()
}

fn shim_name(cur: &CurrentState<'_>) -> String {
    format!("{}-shim", cur.cluster.name)
}

/// Both the InfrastructureCluster and the ControlPlane exist, the Cluster owns both, and the
/// shim still owns one of them.
fn shim_deletable(cur: &CurrentState<'_>) -> bool {
    let (Some(infra), Some(cp)) = (cur.infrastructure_cluster, cur.control_plane) else {
        return false;
    };
    let cluster = cur.cluster.name.as_str();
    let shim = shim_name(cur);
    owned_by(infra, "Cluster", cluster).is_some()
        && owned_by(cp, "Cluster", cluster).is_some()
        && (owned_by(infra, "Secret", &shim).is_some() || owned_by(cp, "Secret", &shim).is_some())
}

/// The shim owner reference of the InfrastructureCluster and the ControlPlane: carried over
/// from the current object when it has one (so server-side apply keeps it), added while either
/// object is missing (reconcileClusterShim), absent otherwise.
fn shim_owner(
    desired: &mut Value,
    current: Option<&Object>,
    both_exist: bool,
    cur: &CurrentState<'_>,
) {
    let shim = shim_name(cur);
    let Some(refs) = desired
        .pointer_mut("/metadata/ownerReferences")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let is_shim = |r: &Value| {
        r.get("kind").and_then(Value::as_str) == Some("Secret")
            && r.get("name").and_then(Value::as_str) == Some(shim.as_str())
    };
    let generated = refs.iter().find(|r| is_shim(r)).cloned();
    refs.retain(|r| !is_shim(r));
    if let Some(existing) = current.and_then(|c| owned_by(c, "Secret", &shim)) {
        refs.push(existing);
    } else if !both_exist && let Some(g) = generated {
        refs.push(g);
    }
    if refs.is_empty()
        && let Some(m) = desired.get_mut("metadata").and_then(Value::as_object_mut)
    {
        m.remove("ownerReferences");
    }
}

fn delete_worker(
    delete: &mut impl FnMut(Role, &Object, String),
    name: &str,
    w: &Worker<'_>,
    md: bool,
) {
    let n = name.to_string();
    let (kind, main, boot, infra, mhc) = if md {
        (
            "MachineDeployment",
            Role::MachineDeployment(n.clone()),
            Role::MachineDeploymentBootstrapTemplate(n.clone()),
            Role::MachineDeploymentInfrastructureTemplate(n.clone()),
            Some(Role::MachineDeploymentHealthCheck(n)),
        )
    } else {
        (
            "MachinePool",
            Role::MachinePool(n.clone()),
            Role::MachinePoolBootstrapConfig(n.clone()),
            Role::MachinePoolInfrastructure(n),
            None,
        )
    };
    if w.deleting {
        // Already on its way out: nothing new happens to it.
        return;
    }
    let gone = format!("{kind} topology {name:?} was removed from the Cluster");
    delete(main, w.object, gone.clone());
    if let (Some(role), Some(o)) = (mhc, w.health_check) {
        delete(role, o, gone.clone());
    }
    let by = if md {
        "deleted by the MachineDeployment topology controller once unused"
    } else {
        "deleted by the MachinePool controller with its MachinePool"
    };
    for (role, o) in [(boot, w.bootstrap), (infra, w.infrastructure)] {
        if let Some(o) = o {
            delete(role, o, format!("{gone}; {by}"));
        }
    }
}

fn incompatible(who: &Object, current: &Object, role: &Role, errs: &[String]) -> Diagnostic {
    Diagnostic::error(Code::PlanReconcile, format!(
        "failed to reconcile {} {}/{}: {}",
        who.kind,
        who.namespace,
        who.name,
        aggregate(errs)
    ))
    .at(&current.origin, "/kind", "current object")
    .with_help(format!(
        "the {} would change its API group or kind; Cluster API refuses that for an existing Cluster (the ClusterClass admission rejects such a class change too)",
        role.id()
    ))
}

fn kobj(v: &Value) -> String {
    format!(
        "{} {}",
        v.get("kind").and_then(Value::as_str).unwrap_or(""),
        crate::json::metadata_str(v, "name")
    )
}

/// A compared object's verdict: `after` is what the apply leaves; the current object is kept
/// only where something changes (diffs and rollouts read it), since a fleet holds thousands.
fn judged(action: Action, d: &DesiredObject, after: Value, current: &Object) -> PlannedObject {
    PlannedObject {
        action,
        role: d.role.clone(),
        object: after,
        current: (action != Action::Unchanged).then(|| current.value.clone()),
        note: None,
        rotated_from: None,
        pending: None,
    }
}

fn planned(
    action: Action,
    d: &DesiredObject,
    current: Option<&Object>,
    note: Option<String>,
) -> PlannedObject {
    PlannedObject {
        action,
        role: d.role.clone(),
        object: match (action, current) {
            (Action::Unchanged, Some(c)) => c.value.clone(),
            _ => d.value.clone(),
        },
        // An unchanged object is its current self: no second copy.
        current: match action {
            Action::Unchanged => None,
            _ => current.map(|c| c.value.clone()),
        },
        note,
        rotated_from: None,
        pending: None,
    }
}

/// Names of current objects the desired state keeps (the compute functions of `exp/topology/desiredstate/desired_state.go` reuse the current objects' names).
pub fn existing_names(cur: &CurrentState<'_>) -> BTreeMap<Role, String> {
    let mut names = BTreeMap::new();
    if let Some(t) = cur.control_plane_template {
        names.insert(
            Role::ControlPlaneInfrastructureMachineTemplate,
            t.name.clone(),
        );
    }
    let mut from_ref = |role: Role, w: &Object, ptr: &str| {
        if let Some((_, _, n)) = read_ref(w.value.pointer(ptr)) {
            names.insert(role, n);
        }
    };
    for (n, w) in &cur.machine_deployments {
        if !w.deleting {
            from_ref(
                Role::MachineDeploymentBootstrapTemplate(n.clone()),
                w.object,
                "/spec/template/spec/bootstrap/configRef",
            );
            from_ref(
                Role::MachineDeploymentInfrastructureTemplate(n.clone()),
                w.object,
                "/spec/template/spec/infrastructureRef",
            );
        }
    }
    for (n, w) in &cur.machine_pools {
        from_ref(
            Role::MachinePoolBootstrapConfig(n.clone()),
            w.object,
            "/spec/template/spec/bootstrap/configRef",
        );
        from_ref(
            Role::MachinePoolInfrastructure(n.clone()),
            w.object,
            "/spec/template/spec/infrastructureRef",
        );
    }
    for (n, w) in &cur.machine_deployments {
        names.insert(Role::MachineDeployment(n.clone()), w.object.name.clone());
    }
    for (n, w) in &cur.machine_pools {
        names.insert(Role::MachinePool(n.clone()), w.object.name.clone());
    }
    names
}
