/*!
Current state: the objects that exist for a Cluster, found the way the topology controller finds
them (Cluster API's `getCurrentState`, `core/reconcilers/topology/cluster/current_state.go`), and the checks that they fit the topology.

Owns indexing the `--current` objects, following the Cluster's references (InfrastructureCluster,
ControlPlane, the control plane's machine template through the contract path, health checks by
name), listing MachineDeployments and MachinePools by their topology labels, and refusing state
the controller would refuse: a referenced object that is missing or not topology-owned, a
worker without its topology-name label, two workers claiming one topology name. It also refuses
what only an offline tool can get wrong: an object that carries another Cluster's name, or core
objects of another Cluster API version than the Cluster's. It never guesses: whatever it cannot
place is a diagnostic. It does not compare anything; `plan` does.
*/

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use crate::api::{ApiVersion, Cluster, labels};
use crate::diag::{Code, Diagnostic};
use crate::load::Object;
use crate::load::object::group_of;

/// The `--current` objects, indexed for the lookups the controller makes.
#[derive(Debug, Default)]
pub struct Index<'a> {
    by_name: HashMap<(&'a str, &'a str, &'a str), Vec<&'a Object>>,
    /// MachineDeployments, MachinePools and Machines by (kind, namespace, cluster-name label):
    /// the controller lists them by label, and a fleet holds thousands per namespace.
    listed: HashMap<(&'a str, &'a str, &'a str), Vec<&'a Object>>,
    /// Core Machines by (namespace, cluster-name label, deployment-name label): each
    /// MachineDeployment's Machines in one lookup, not a scan of the Cluster's Machines per
    /// MachineDeployment (2,000 × 10,000 label reads in a large fleet).
    machines: HashMap<(&'a str, &'a str, &'a str), Vec<&'a Object>>,
    /// Workers by (kind, namespace) whose cluster-name label is missing or names a Cluster
    /// (checked for contradictions with the Cluster they say they belong to otherwise).
    by_cluster_name: HashMap<(&'a str, &'a str, &'a str), Vec<&'a Object>>,
    /// Clusters by (namespace, name).
    clusters: HashMap<(&'a str, &'a str), &'a Object>,
    /// The uid the current objects' owner references give each Cluster, by (namespace, name);
    /// `None` when they disagree or one has none.
    owner_uids: HashMap<(&'a str, &'a str), Option<&'a str>>,
    /// Nodes by name (the first of a name in input order): each MachinePool looks up its
    /// `status.nodeRefs` here, rather than scanning every Node for each of them.
    nodes: HashMap<&'a str, &'a Value>,
}

/// `cluster.x-k8s.io/deployment-name`: the MachineDeployment a Machine belongs to.
const MACHINE_DEPLOYMENT_NAME: &str = "cluster.x-k8s.io/deployment-name";

impl<'a> Index<'a> {
    /// Index `objects` (the `--current` input).
    pub fn new(objects: &'a [Object]) -> Self {
        let mut ix = Index::default();
        for o in objects {
            ix.by_name
                .entry((o.kind.as_str(), o.namespace.as_str(), o.name.as_str()))
                .or_default()
                .push(o);
            let core = group_of(&o.api_version) == crate::api::GROUP;
            match o.kind.as_str() {
                "MachineDeployment" | "MachinePool" | "Machine" if core => {
                    let cluster = label(o, labels::CLUSTER_NAME).unwrap_or("");
                    ix.listed
                        .entry((o.kind.as_str(), o.namespace.as_str(), cluster))
                        .or_default()
                        .push(o);
                    if o.kind == "Machine"
                        && let Some(md) = label(o, MACHINE_DEPLOYMENT_NAME)
                    {
                        ix.machines
                            .entry((o.namespace.as_str(), cluster, md))
                            .or_default()
                            .push(o);
                    }
                    // spec.clusterName names the Cluster too; a worker whose label disagrees
                    // is found through it.
                    if let Some(spec_cluster) =
                        o.value.pointer("/spec/clusterName").and_then(Value::as_str)
                        && spec_cluster != cluster
                    {
                        ix.by_cluster_name
                            .entry((o.kind.as_str(), o.namespace.as_str(), spec_cluster))
                            .or_default()
                            .push(o);
                    }
                }
                "Node" if o.api_version == "v1" => {
                    ix.nodes.entry(o.name.as_str()).or_insert(&o.value);
                }
                "Cluster" if core => {
                    ix.clusters
                        .insert((o.namespace.as_str(), o.name.as_str()), o);
                }
                _ => {}
            }
            for (cluster, uid) in cluster_owner_refs(o) {
                ix.owner_uids
                    .entry((o.namespace.as_str(), cluster))
                    .and_modify(|seen| {
                        if *seen != uid {
                            *seen = None;
                        }
                    })
                    .or_insert(uid);
            }
        }
        ix
    }

    /// The uid of the Cluster `namespace/name`: the stored Cluster's own, else the one every
    /// owner reference of the current objects to that Cluster carries. An export may carry no
    /// uid on the Cluster (written by hand, or trimmed by a tool) while the objects it owns
    /// still name it; without it the owner references the topology sets would differ from the
    /// stored ones by their uid alone. References that disagree give none: objects left over
    /// from an earlier Cluster of that name, or a reference without a uid (state topoplan
    /// wrote, which the objects without one would then differ from) — which is right cannot
    /// be told.
    pub fn cluster_uid(&self, namespace: &str, name: &str) -> Option<&'a str> {
        let own = self
            .cluster(namespace, name)
            .and_then(|c| c.value.pointer("/metadata/uid"))
            .and_then(Value::as_str)
            .filter(|u| !u.is_empty());
        own.or_else(|| self.owner_uids.get(&(namespace, name)).copied().flatten())
    }

    /// The current Cluster of this name, if the input has one.
    pub fn cluster(&self, namespace: &str, name: &str) -> Option<&'a Object> {
        self.clusters.get(&(namespace, name)).copied()
    }

    /// The current Nodes (workload-cluster Nodes, for MachinePool upgrades) by name.
    pub fn nodes(&self) -> &HashMap<&'a str, &'a Value> {
        &self.nodes
    }

    /// Every current Cluster.
    pub fn clusters(&self) -> impl Iterator<Item = &'a Object> + '_ {
        self.clusters.values().copied()
    }

    /// The object of this group (any, when empty), kind, namespace and name.
    pub fn get(&self, group: &str, kind: &str, namespace: &str, name: &str) -> Option<&'a Object> {
        self.by_name
            .get(&(kind, namespace, name))?
            .iter()
            .copied()
            .find(|o| group.is_empty() || o.group() == group)
    }
}

/// A current MachineDeployment or MachinePool with what belongs to it.
#[derive(Debug, Clone)]
pub struct Worker<'a> {
    /// The MachineDeployment or MachinePool.
    pub object: &'a Object,
    /// Its bootstrap template (MD) or config (MP); not read for a deleting MD.
    pub bootstrap: Option<&'a Object>,
    /// Its infrastructure machine template (MD) or machine pool (MP); not read for a deleting MD.
    pub infrastructure: Option<&'a Object>,
    /// Its MachineHealthCheck (same name), MDs only.
    pub health_check: Option<&'a Object>,
    /// Its Machines (MDs only), for telling whether it is upgrading.
    pub machines: Vec<&'a Object>,
    /// It has a deletionTimestamp.
    pub deleting: bool,
}

/// Everything that exists for one Cluster.
#[derive(Debug, Clone)]
pub struct CurrentState<'a> {
    /// The Cluster as stored.
    pub cluster: &'a Object,
    /// The InfrastructureCluster, when the Cluster references one.
    pub infrastructure_cluster: Option<&'a Object>,
    /// The ControlPlane, when the Cluster references one.
    pub control_plane: Option<&'a Object>,
    /// The control plane's machine infrastructure template.
    pub control_plane_template: Option<&'a Object>,
    /// The control plane's MachineHealthCheck (same name as the ControlPlane).
    pub control_plane_health_check: Option<&'a Object>,
    /// The cluster shim Secret.
    pub shim: Option<&'a Object>,
    /// MachineDeployments by topology name.
    pub machine_deployments: BTreeMap<String, Worker<'a>>,
    /// MachinePools by topology name.
    pub machine_pools: BTreeMap<String, Worker<'a>>,
}

/// A reference as stored: v1beta2 `{apiGroup, kind, name}` or v1beta1 `{apiVersion, kind, name,
/// namespace}`. Returns (group, kind, name); None when the reference is absent or empty.
pub fn read_ref(r: Option<&Value>) -> Option<(String, String, String)> {
    let r = r?;
    let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
    let name = s("name");
    if name.is_empty() {
        return None;
    }
    let group = match s("apiGroup") {
        "" => group_of(s("apiVersion")),
        g => g,
    };
    Some((group.to_string(), s("kind").to_string(), name.to_string()))
}

/// (name, uid) of each owner reference of `o` to a Cluster API Cluster; the uid is `None` when
/// the reference has none (as in state topoplan wrote itself; the API server requires one).
fn cluster_owner_refs(o: &Object) -> impl Iterator<Item = (&str, Option<&str>)> {
    o.value
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|r| {
            r.get("kind").and_then(Value::as_str) == Some("Cluster")
                && group_of(r.get("apiVersion").and_then(Value::as_str).unwrap_or(""))
                    == crate::api::GROUP
        })
        .filter_map(|r| {
            let name = r.get("name").and_then(Value::as_str)?;
            let uid = r
                .get("uid")
                .and_then(Value::as_str)
                .filter(|u| !u.is_empty());
            Some((name, uid))
        })
}

fn has_label(o: &Object, key: &str) -> bool {
    o.value
        .pointer("/metadata/labels")
        .and_then(|l| l.get(key))
        .is_some()
}

fn label<'v>(o: &'v Object, key: &str) -> Option<&'v str> {
    o.value
        .pointer("/metadata/labels")
        .and_then(|l| l.get(key))
        .and_then(Value::as_str)
}

/// `klog.KObj`: `namespace/name`.
fn kobj(o: &Object) -> String {
    format!("{}/{}", o.namespace, o.name)
}

fn is_deleting(o: &Object) -> bool {
    o.value
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null() && t.as_str() != Some(""))
}

struct Finder<'a, 'i> {
    ix: &'i Index<'a>,
    cluster: &'a Object,
    api: ApiVersion,
    errors: Vec<Diagnostic>,
}

impl<'a> Finder<'a, '_> {
    /// Follow `pointer` of `holder` to an object that must exist, be topology-owned and belong
    /// to this Cluster.
    fn follow(&mut self, holder: &'a Object, pointer: &str, what: &str) -> Option<&'a Object> {
        let (group, kind, name) = read_ref(holder.value.pointer(pointer))?;
        let Some(o) = self.ix.get(&group, &kind, &holder.namespace, &name) else {
            self.errors.push(
                Diagnostic::error(Code::CurrentNotFound, format!(
                    "failed to read {kind} {}/{name}: {kind} {name:?} not found in the current objects ({what} of {} {})",
                    holder.namespace,
                    holder.kind,
                    kobj(holder)
                ))
                .at(&holder.origin, pointer, "refers to a missing object")
                .with_help(format!(
                    "pass the {kind} with --current (for example: kubectl get {} -n {} -o yaml), or remove the reference",
                    kind.to_lowercase(),
                    holder.namespace
                )),
            );
            return None;
        };
        if !has_label(o, labels::TOPOLOGY_OWNED) {
            self.errors.push(
                Diagnostic::error(Code::CurrentInconsistent, format!(
                    "{} {} referenced from {} {} is not topology owned",
                    o.kind,
                    kobj(o),
                    holder.kind,
                    kobj(holder)
                ))
                .at(&o.origin, "/metadata", "no topology.cluster.x-k8s.io/owned label")
                .with_help(
                    "the topology controller only manages objects it created; this object was made by someone else",
                ),
            );
            return None;
        }
        self.check_cluster_label(o);
        Some(o)
    }

    /// An object with another Cluster's name label belongs to that Cluster: planning it as
    /// this one's would be a guess.
    fn check_cluster_label(&mut self, o: &'a Object) {
        if let Some(other) = label(o, labels::CLUSTER_NAME)
            && other != self.cluster.name
        {
            self.errors.push(
                Diagnostic::error(Code::CurrentInconsistent, format!(
                    "{} {} is labelled for Cluster {}/{other} ({}), but it is part of Cluster {}'s topology",
                    o.kind,
                    kobj(o),
                    o.namespace,
                    labels::CLUSTER_NAME,
                    kobj(self.cluster)
                ))
                .at(&o.origin, "/metadata/labels", "another Cluster's label")
                .with_help("the current objects contradict each other; export them again from the management cluster"),
            );
        }
    }

    /// Core objects must speak the Cluster's API version: a mixed export comes from two
    /// Cluster API versions, and their fields cannot be compared.
    fn check_api(&mut self, o: &'a Object) {
        if o.api_version != self.api.api_version() {
            self.errors.push(
                Diagnostic::error(Code::CurrentInconsistent, format!(
                    "{} {} is {}, but the Cluster is {}: current objects must come from the same Cluster API version as the Cluster",
                    o.kind,
                    kobj(o),
                    o.api_version,
                    self.api.api_version()
                ))
                .at(&o.origin, "/apiVersion", "another API version")
                .with_help(format!(
                    "export the current objects in {} (for example: kubectl get {}s.{}.{} -o yaml)",
                    self.api.api_version(),
                    o.kind.to_lowercase(),
                    self.api.api_version().rsplit('/').next().unwrap_or(""),
                    crate::api::GROUP
                )),
            );
        }
    }

    fn health_check(&mut self, target: &'a Object) -> Option<&'a Object> {
        let mhc = self.ix.get(
            crate::api::GROUP,
            "MachineHealthCheck",
            &target.namespace,
            &target.name,
        )?;
        self.check_api(mhc);
        Some(mhc)
    }

    fn workers(&mut self, kind: &str, name_label: &str) -> BTreeMap<String, Worker<'a>> {
        let mut out: BTreeMap<String, Worker<'a>> = BTreeMap::new();
        let ns = self.cluster.namespace.as_str();
        let name = self.cluster.name.as_str();
        // Labelled for another Cluster but this one's by spec.clusterName: the export
        // contradicts itself. (Cluster API lists by label and would ignore it; planning the
        // worker as new under names that exist would be a guess.)
        let mislabelled = self
            .ix
            .by_cluster_name
            .get(&(kind, ns, name))
            .map_or(&[][..], Vec::as_slice);
        for &o in mislabelled {
            self.check_cluster_label(o);
        }
        let listed = self
            .ix
            .listed
            .get(&(kind, ns, name))
            .map_or(&[][..], Vec::as_slice);
        for &o in listed {
            if !has_label(o, labels::TOPOLOGY_OWNED) {
                continue;
            }
            self.check_api(o);
            let Some(topology_name) = label(o, name_label).filter(|n| !n.is_empty()) else {
                self.errors.push(
                    Diagnostic::error(Code::CurrentInconsistent, format!(
                        "failed to find label {name_label} in {kind} {}",
                        kobj(o)
                    ))
                    .at(&o.origin, "/metadata/labels", "topology-name label missing")
                    .with_help("the topology controller labels every worker it creates; this object was changed by hand"),
                );
                continue;
            };
            if out.contains_key(topology_name) {
                self.errors.push(
                    Diagnostic::error(
                        Code::CurrentInconsistent,
                        format!(
                            "duplicate {kind} {} found for label {name_label}: {topology_name}",
                            kobj(o)
                        ),
                    )
                    .at(
                        &o.origin,
                        "/metadata/labels",
                        "second worker with this topology name",
                    ),
                );
                continue;
            }
            let deleting = is_deleting(o);
            let mp = kind == "MachinePool";
            let (mut bootstrap, mut infrastructure) = (None, None);
            // A deleting MachineDeployment's templates may be gone already; the controller
            // does not read them (MachinePools' objects are always read).
            if !deleting || mp {
                for (ptr, what, slot) in [
                    (
                        "/spec/template/spec/bootstrap/configRef",
                        "bootstrap",
                        &mut bootstrap,
                    ),
                    (
                        "/spec/template/spec/infrastructureRef",
                        "infrastructure",
                        &mut infrastructure,
                    ),
                ] {
                    if read_ref(o.value.pointer(ptr)).is_none() {
                        let target = match (mp, what) {
                            (false, "bootstrap") | (true, "bootstrap") => "a Bootstrap Config",
                            (false, _) => "a InfrastructureMachineTemplate",
                            (true, _) => "a InfrastructureMachinePool",
                        };
                        self.errors.push(
                            Diagnostic::error(
                                Code::CurrentInconsistent,
                                format!("{kind} {} does not have a reference to {target}", kobj(o)),
                            )
                            .at(
                                &o.origin,
                                "/spec/template/spec",
                                "reference missing",
                            ),
                        );
                        continue;
                    }
                    *slot = self.follow(o, ptr, what);
                }
            }
            let health_check = if mp { None } else { self.health_check(o) };
            let machines = if mp {
                Vec::new()
            } else {
                self.ix
                    .machines
                    .get(&(ns, name, o.name.as_str()))
                    .cloned()
                    .unwrap_or_default()
            };
            out.insert(
                topology_name.to_string(),
                Worker {
                    object: o,
                    bootstrap,
                    infrastructure,
                    health_check,
                    machines,
                    deleting,
                },
            );
        }
        out
    }
}

/// Find what exists for the Cluster whose stored form is `cluster`, planned in `api`.
pub fn find<'a>(
    cluster: &'a Object,
    api: ApiVersion,
    ix: &Index<'a>,
) -> Result<CurrentState<'a>, Vec<Diagnostic>> {
    let mut f = Finder {
        ix,
        cluster,
        api,
        errors: Vec::new(),
    };
    f.check_api(cluster);
    let infrastructure_cluster =
        f.follow(cluster, "/spec/infrastructureRef", "spec.infrastructureRef");
    let control_plane = f.follow(cluster, "/spec/controlPlaneRef", "spec.controlPlaneRef");
    let (mut control_plane_template, mut control_plane_health_check) = (None, None);
    if let Some(cp) = control_plane {
        // The contract path: spec.machineTemplate.infrastructureRef (v1beta1 contract) or
        // spec.machineTemplate.spec.infrastructureRef (v1beta2).
        for ptr in [
            "/spec/machineTemplate/spec/infrastructureRef",
            "/spec/machineTemplate/infrastructureRef",
        ] {
            if cp.value.pointer(ptr).is_some() {
                control_plane_template = f.follow(cp, ptr, "machine infrastructure template");
                break;
            }
        }
        control_plane_health_check = f.health_check(cp);
    }
    let shim = ix.get(
        "",
        "Secret",
        &cluster.namespace,
        &format!("{}-shim", cluster.name),
    );
    let machine_deployments = f.workers("MachineDeployment", labels::DEPLOYMENT_NAME);
    let machine_pools = f.workers("MachinePool", labels::POOL_NAME);
    if !f.errors.is_empty() {
        return Err(f.errors);
    }
    Ok(CurrentState {
        cluster,
        infrastructure_cluster,
        control_plane,
        control_plane_template,
        control_plane_health_check,
        shim,
        machine_deployments,
        machine_pools,
    })
}

/// A Cluster with no stored counterpart must not have objects in the current state either:
/// they would belong to a Cluster the input says does not exist yet.
pub(crate) fn orphans(c: &Cluster, ix: &Index<'_>) -> Result<(), Vec<Diagnostic>> {
    let found = find(&c.object, c.api, ix)?;
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
