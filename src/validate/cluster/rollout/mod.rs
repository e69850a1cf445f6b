/*!
The Cluster webhook's refusal to change `spec.topology.version` while the previous version is
still rolling out (Cluster API's `validateTopologyControlPlaneVersion`,
`validateTopologyMachineDeploymentVersions` and `validateTopologyMachinePoolVersions`, called
from `validateTopologyVersionUpdate` in main and `validateTopologyVersion` in v1.10).

Owns [`Live`], the stored objects the webhook would read from the management cluster (the
ControlPlane the stored Cluster references, the MachineDeployments and MachinePools labelled as
its topology's, the Machines their selectors pick, workload-cluster Nodes), and the reasons
these objects give for refusing a change. The ControlPlane contract and the "is this worker
upgrading" readers are `crate::topology::contract::versions`'s, shared with the upgrade sequencing: the
webhook calls the same Cluster API functions the topology controller does.

Offline, what is not among the stored objects is not there to read. Cluster API refuses the
change when it cannot read an object (no ControlPlane yet, a MachinePool's Node it cannot get);
here a missing object never refuses it: without the ControlPlane its checks are skipped, a
nodeRef without its Node counts as up to date.
*/

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use crate::api::{ApiVersion, labels};
use crate::k8s::field::go_quote;
use crate::k8s::version::blang::Version;
use crate::load::Object;
use crate::topology::contract::versions as contract;
use crate::topology::contract::versions::WorkerKind as Kind;

/// Three nested lookups (kind, namespace, then a name or a label value): keyed by borrowed
/// strings, each level is looked up by `&str`.
type Nested<'a> = HashMap<&'a str, HashMap<&'a str, HashMap<&'a str, Vec<&'a Object>>>>;

fn bucket<'m, 'a>(m: &'m Nested<'a>, kind: &str, namespace: &str, key: &str) -> &'m [&'a Object] {
    m.get(kind)
        .and_then(|m| m.get(namespace))
        .and_then(|m| m.get(key))
        .map_or(&[], Vec::as_slice)
}

/// The stored objects the rule reads, indexed once for every Cluster of a run: a fleet keeps
/// thousands of Clusters' objects in one namespace, and each Cluster reads only its own.
#[derive(Debug, Default)]
pub struct Live<'a> {
    /// Every object by kind, namespace and name (the ControlPlane is found by its reference).
    by_name: Nested<'a>,
    /// Cluster API MachineDeployments, MachinePools and Machines by kind, namespace and
    /// `cluster.x-k8s.io/cluster-name` label (empty without one), in input order.
    by_cluster: Nested<'a>,
    /// Nodes (`v1`) by name.
    nodes: HashMap<&'a str, &'a Value>,
}

impl<'a> Live<'a> {
    /// Index `objects` (what `--current` holds).
    pub fn new(objects: &'a [Object]) -> Live<'a> {
        let mut live = Live::default();
        for o in objects {
            if o.kind == "Node" && o.api_version == "v1" {
                // The first of a repeated name wins, as for every other lookup here.
                live.nodes.entry(o.name.as_str()).or_insert(&o.value);
                continue;
            }
            live.by_name
                .entry(o.kind.as_str())
                .or_default()
                .entry(o.namespace.as_str())
                .or_default()
                .entry(o.name.as_str())
                .or_default()
                .push(o);
            let listed = matches!(
                o.kind.as_str(),
                "MachineDeployment" | "MachinePool" | "Machine"
            );
            if listed && o.group() == crate::api::GROUP {
                let cluster = labels_of(&o.value)
                    .and_then(|l| l.get(labels::CLUSTER_NAME))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                live.by_cluster
                    .entry(o.kind.as_str())
                    .or_default()
                    .entry(o.namespace.as_str())
                    .or_default()
                    .entry(cluster)
                    .or_default()
                    .push(o);
            }
        }
        live
    }

    /// Cluster API objects of `kind` in `namespace` labelled for Cluster `cluster` (any, when
    /// `None`), sorted by name (the API server's list order; Cluster API's cached client gives
    /// no order at all).
    fn listed(&self, kind: &str, namespace: &str, cluster: Option<&str>) -> Vec<&'a Object> {
        let mut out: Vec<&'a Object> = match cluster {
            Some(c) => bucket(&self.by_cluster, kind, namespace, c).to_vec(),
            None => self
                .by_cluster
                .get(kind)
                .and_then(|m| m.get(namespace))
                .into_iter()
                .flat_map(|m| m.values().flatten().copied())
                .collect(),
        };
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }
}

/// The stored Cluster the rule reads from, in its v1beta2 form.
pub(super) struct Stored<'s> {
    pub name: &'s str,
    pub namespace: &'s str,
    pub spec: &'s Value,
}

/// The reasons the stored objects give against changing the version away from `old` (the
/// stored Cluster's `spec.topology.version`), in Cluster API's order: control plane,
/// MachineDeployments, MachinePools. `api` selects main's (`V1Beta2`) or v1.10's semantics.
pub(super) fn reasons(
    api: ApiVersion,
    cluster: &Stored<'_>,
    old: &Version,
    live: &Live<'_>,
) -> Vec<String> {
    let main = api == ApiVersion::V1Beta2;
    let mut out = Vec::new();
    out.extend(control_plane(main, cluster, old, live));
    out.extend(workers(main, Kind::MachineDeployment, cluster, old, live));
    out.extend(workers(main, Kind::MachinePool, cluster, old, live));
    out
}

/// `version cannot be changed: ` and the reasons as `kerrors.NewAggregate(...).Error()` prints
/// them (one bare, several in brackets, a repeated message once); `None` without reasons.
pub(super) fn refusal(reasons: &[String]) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    let unique: Vec<&str> = reasons
        .iter()
        .map(String::as_str)
        .filter(|r| seen.insert(*r))
        .collect();
    let joined = match unique.as_slice() {
        [] => return None,
        [one] => (*one).to_string(),
        many => format!("[{}]", many.join(", ")),
    };
    Some(format!("version cannot be changed: {joined}"))
}

/// Whether `v` is the version the stored Cluster says: main compares `String()` (build
/// metadata included), v1.10 `semver.NE` (build metadata ignored).
fn same_version(main: bool, v: &Version, old: &Version) -> bool {
    if main {
        v.to_string() == old.to_string()
    } else {
        v.compare(old).is_eq()
    }
}

/// `validateTopologyControlPlaneVersion`; `None` when the ControlPlane is not stored.
fn control_plane(
    main: bool,
    cluster: &Stored<'_>,
    old: &Version,
    live: &Live<'_>,
) -> Option<String> {
    // The v1beta2 form's `{apiGroup, kind, name}`, in the Cluster's namespace.
    let r = cluster.spec.get("controlPlaneRef")?;
    let field = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
    let (group, kind, name) = (field("apiGroup"), field("kind"), field("name"));
    if name.is_empty() {
        return None;
    }
    let cp = bucket(&live.by_name, kind, cluster.namespace, name)
        .iter()
        .find(|o| group.is_empty() || o.group() == group)?;
    let cp = &cp.value;
    const UPGRADING: &str = "failed to check if control plane is upgrading";
    let raw = match contract::spec_version(cp) {
        Ok(v) => v,
        Err(e) => {
            return Some(format!(
                "{UPGRADING}: failed to get control plane version: {e}"
            ));
        }
    };
    let version = match Version::parse_tolerant_err(raw) {
        Ok(v) => v,
        Err(e) => {
            return Some(format!(
                "{UPGRADING}: failed to parse control plane version {raw}: {e}"
            ));
        }
    };
    if !same_version(main, &version, old) {
        return Some(format!(
            "Cluster.spec.topology.version {old} was not propagated to control plane yet (control plane version {version})"
        ));
    }
    match contract::is_provisioning(cp, main) {
        Err(e) => {
            return Some(format!(
                "failed to check if control plane is provisioning: {e}"
            ));
        }
        Ok(true) => return Some("control plane is currently provisioning".into()),
        Ok(false) => {}
    }
    match contract::is_upgrading(cp, main) {
        Err(e) => Some(format!("{UPGRADING}: {e}")),
        Ok(Some(_)) => Some("control plane is still completing a previous upgrade".into()),
        Ok(None) => None,
    }
}

fn labels_of(o: &Value) -> Option<&serde_json::Map<String, Value>> {
    o.pointer("/metadata/labels").and_then(Value::as_object)
}

/// `validateTopologyMachineDeploymentVersions` / `validateTopologyMachinePoolVersions`: the
/// workers listed by the stored Cluster's name and the topology-owned label.
fn workers(
    main: bool,
    kind: Kind,
    cluster: &Stored<'_>,
    old: &Version,
    live: &Live<'_>,
) -> Option<String> {
    let listed: Vec<&Object> = live
        .listed(kind.name(), cluster.namespace, Some(cluster.name))
        .into_iter()
        .filter(|o| labels_of(&o.value).is_some_and(|l| l.contains_key(labels::TOPOLOGY_OWNED)))
        .collect();
    let mut upgrading: Vec<&str> = Vec::new();
    for o in listed {
        // A missing (or null) version is main's empty string; v1.10's webhook would dereference
        // a nil pointer there, which a topology-owned worker never has.
        let raw = match o.value.pointer("/spec/template/spec/version") {
            None | Some(Value::Null) => "",
            Some(Value::String(s)) => s.as_str(),
            Some(_) => {
                // The typed List Cluster API makes would not decode such an object.
                return Some(format!(
                    "failed to check if {k}s are upgrading: failed to get {k}s: {k} {}: spec.template.spec.version must be a string",
                    o.name,
                    k = kind.name(),
                ));
            }
        };
        let version = match Version::parse_tolerant_err(raw) {
            Ok(v) => v,
            Err(e) => {
                return Some(format!(
                    "failed to check if {} {} is upgrading: failed to parse version {raw}: {e}",
                    kind.name(),
                    o.name
                ));
            }
        };
        if !same_version(main, &version, old) {
            upgrading.push(&o.name);
            continue;
        }
        let rolling = match kind {
            Kind::MachineDeployment => match machines_of(o, live) {
                Err(e) => Err(format!(
                    "failed to check if MachineDeployment {} is upgrading: failed to convert label selector to map: {e}",
                    o.name
                )),
                Ok(machines) => {
                    contract::machine_deployment_upgrading(main, &o.name, raw, &machines)
                }
            },
            Kind::MachinePool => {
                let nodes: Vec<&Value> = node_refs(&o.value)
                    .filter_map(|n| live.nodes.get(n).copied())
                    .collect();
                Ok(contract::machine_pool_upgrading(raw, &o.value, &nodes))
            }
        };
        match rolling {
            Err(e) => return Some(e),
            Ok(true) => upgrading.push(&o.name),
            Ok(false) => {}
        }
    }
    (!upgrading.is_empty()).then(|| {
        format!(
            "there are still {}s completing a previous upgrade: [{}]",
            kind.name(),
            upgrading.join(", ")
        )
    })
}

/// The names of a MachinePool's `status.nodeRefs`.
fn node_refs(mp: &Value) -> impl Iterator<Item = &str> {
    mp.pointer("/status/nodeRefs")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(|r| r.get("name").and_then(Value::as_str))
}

/// The Machines `IsMachineDeploymentUpgrading` lists: the MachineDeployment's namespace, every
/// label of its selector (as `LabelSelectorAsMap` flattens it) matched. The upgrade sequencing
/// finds an MD's Machines by the `cluster.x-k8s.io/deployment-name` label instead; the webhook
/// goes by the selector, and so does this. Sorted by name, as the API server lists them.
fn machines_of<'a>(md: &Object, live: &Live<'a>) -> Result<Vec<&'a Value>, String> {
    let selector = label_selector_as_map(md.value.pointer("/spec/selector"))?;
    // A selector naming the Cluster picks only Machines labelled for it.
    let cluster = selector.get(labels::CLUSTER_NAME).map(String::as_str);
    Ok(live
        .listed("Machine", &md.namespace, cluster)
        .into_iter()
        .filter(|m| {
            let labels = labels_of(&m.value);
            selector.iter().all(|(k, v)| {
                labels
                    .and_then(|l| l.get(k.as_str()))
                    .and_then(Value::as_str)
                    == Some(v.as_str())
            })
        })
        .map(|m| &m.value)
        .collect())
}

/// apimachinery's `metav1.LabelSelectorAsMap`: `matchLabels`, plus each `In` expression with a
/// single value; any other expression cannot be flattened (its error text).
fn label_selector_as_map(selector: Option<&Value>) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let Some(selector) = selector else {
        return Ok(out);
    };
    if let Some(m) = selector.get("matchLabels").and_then(Value::as_object) {
        for (k, v) in m {
            out.insert(k.clone(), v.as_str().unwrap_or("").to_string());
        }
    }
    let exprs = selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for e in exprs {
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
        let op = s("operator");
        match op {
            "In" => {
                let values = e
                    .get("values")
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice);
                match values {
                    [one] => {
                        out.insert(s("key").to_string(), one.as_str().unwrap_or("").to_string());
                    }
                    _ => {
                        return Err(format!(
                            "operator {} without a single value cannot be converted into the old label selector format",
                            go_quote(op)
                        ));
                    }
                }
            }
            "NotIn" | "Exists" | "DoesNotExist" => {
                return Err(format!(
                    "operator {} cannot be converted into the old label selector format",
                    go_quote(op)
                ));
            }
            _ => {
                return Err(format!("{} is not a valid selector operator", go_quote(op)));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
