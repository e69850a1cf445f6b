/*!
Builtin variables: the value of the variable `builtin` that each patched template sees.

Owns what Cluster API's `patches/variables` package computes from a Cluster's desired state —
`builtin.cluster` for every template (`Global`), `builtin.controlPlane` for the ControlPlane
template and the control plane machines' template, `builtin.machineDeployment` and
`builtin.machinePool` for each worker's two templates — the merge of the global and the holder
value a template finally sees (`MergeVariableMaps`), and the admission webhook's list of builtin
paths a `valueFrom.variable` may name. User variables and overrides belong elsewhere.

Which Cluster API is followed depends on the API version the Cluster was written in:
`cluster.x-k8s.io/v1beta1` follows v1.10.0, `cluster.x-k8s.io/v1beta2` follows main. They differ in:

| | main (v1beta2) | v1.10.0 (v1beta1) |
|---|---|---|
| `cluster.topology.classRef` | always present (no `omitempty`) | absent |
| `cluster.network` | present once `serviceDomain` is non-empty or a `cidrBlocks` list is non-nil | present whenever `spec.clusterNetwork` is non-nil |
| `cluster.network.ipFamily` | absent | always, with `network` |
| annotations in `metadata` | without `kubectl.kubernetes.io/last-applied-configuration` and `cluster.x-k8s.io/conversion-data` | as they are |
| `controlPlane.replicas` | `int32` (a larger value wraps, as Go's conversion does) | `int64` |

Rules both share:
- Go's `omitempty`: empty strings, empty lists and empty maps are left out; `metadata` is
  present when the object has labels or annotations (a map that is present, even if empty).
- `builtin.cluster` is computed from the **desired** Cluster, which always carries the labels
  `cluster.x-k8s.io/cluster-name` and `topology.cluster.x-k8s.io/owned`, so
  `builtin.cluster.metadata.labels` is always there; the version is the defaulted one (`v`
  prefix).
- `controlPlane.replicas` is present only when `spec.topology.controlPlane.replicas` is set; it
  is then read from the desired ControlPlane. Worker replicas come from the desired object.
- Names (`controlPlane.name`, `machineTemplate.infrastructureRef.name`,
  `machineDeployment.name`, `bootstrap.configRef.name`, …) are the generated names of the
  desired objects.

Values are `serde_json::Value`s, so object keys come out sorted rather than in Go's field order;
nothing downstream depends on the order (template data is a Go map, patched objects are
re-marshalled). Cluster API lists MachineDeployments and MachinePools in map order; here they
follow the topology.
*/

use serde_json::{Map, Value, json};

use crate::api::{ApiVersion, Cluster, labels};
use crate::diag::{Code, Diagnostic};
use crate::source::pointer;
use crate::topology::contract::accessor::{get_int, get_string};
use crate::topology::desired::{DesiredObject, DesiredState, Role};
use crate::variables::ip_family;

/// Name of the builtin variable.
pub const BUILTIN: &str = "builtin";

/// `conversionutil.DataAnnotation`: where conversion keeps fields the served version lacks.
const CONVERSION_DATA: &str = "cluster.x-k8s.io/conversion-data";

/// Who holds the templates a set of builtins is computed for (a patch request item's holder).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Holder {
    /// The Cluster, through `spec.infrastructureRef`: the InfrastructureCluster template sees
    /// only the global builtins.
    InfrastructureCluster,
    /// The ControlPlane template (held by the Cluster) and the control plane machines'
    /// infrastructure template (held by the ControlPlane).
    ControlPlane,
    /// The bootstrap and infrastructure templates of one MachineDeployment.
    MachineDeployment {
        /// The topology name (`spec.topology.workers.machineDeployments[].name`).
        topology_name: String,
    },
    /// The bootstrap config and infrastructure machine pool of one MachinePool.
    MachinePool {
        /// The topology name (`spec.topology.workers.machinePools[].name`).
        topology_name: String,
    },
}

impl Holder {
    /// A stable label: `InfrastructureCluster`, `ControlPlane`, `MachineDeployment/<name>`,
    /// `MachinePool/<name>`.
    pub fn id(&self) -> String {
        match self {
            Holder::InfrastructureCluster => "InfrastructureCluster".into(),
            Holder::ControlPlane => "ControlPlane".into(),
            Holder::MachineDeployment { topology_name } => {
                format!("MachineDeployment/{topology_name}")
            }
            Holder::MachinePool { topology_name } => format!("MachinePool/{topology_name}"),
        }
    }

    /// Roles of the desired objects whose templates this holder's builtins apply to, in
    /// Cluster API's request order (the control plane machine template only when the class
    /// has one).
    pub fn template_roles(&self) -> Vec<Role> {
        match self {
            Holder::InfrastructureCluster => vec![Role::InfrastructureCluster],
            Holder::ControlPlane => vec![
                Role::ControlPlane,
                Role::ControlPlaneInfrastructureMachineTemplate,
            ],
            Holder::MachineDeployment { topology_name: n } => vec![
                Role::MachineDeploymentBootstrapTemplate(n.clone()),
                Role::MachineDeploymentInfrastructureTemplate(n.clone()),
            ],
            Holder::MachinePool { topology_name: n } => vec![
                Role::MachinePoolBootstrapConfig(n.clone()),
                Role::MachinePoolInfrastructure(n.clone()),
            ],
        }
    }
}

/// One holder with the builtins its templates see.
#[derive(Debug, Clone, PartialEq)]
pub struct HolderBuiltins {
    /// The holder.
    pub holder: Holder,
    /// `{"builtin": {...}}`: the global builtins merged with the holder's own.
    pub builtins: Value,
}

/// The global builtins, `{"builtin": {"cluster": {...}}}` (the request-level variable).
pub fn global(cluster: &Cluster, desired: &DesiredState) -> Result<Value, Diagnostic> {
    let obj = find(desired, &Role::Cluster)
        .ok_or_else(|| missing(cluster, "global variables", "Cluster", "/metadata/name"))?;
    let value = cluster_builtins(&obj.value, cluster.api)
        .map_err(|f| f.at(cluster, "global variables", "/metadata/name"))?;
    Ok(json!({ BUILTIN: { "cluster": value } }))
}

/// The holder's own builtins, as Cluster API puts them on a request item:
/// `{"builtin": {"controlPlane": {...}}}` and so on; `None` for the InfrastructureCluster,
/// whose item carries no variables.
pub fn item(
    cluster: &Cluster,
    desired: &DesiredState,
    holder: &Holder,
) -> Result<Option<Value>, Diagnostic> {
    let api = cluster.api;
    let value = match holder {
        Holder::InfrastructureCluster => return Ok(None),
        Holder::ControlPlane => {
            let what = "ControlPlane variables";
            let cp = find(desired, &Role::ControlPlane).ok_or_else(|| {
                missing(cluster, what, "ControlPlane", "/spec/topology/controlPlane")
            })?;
            let machine_template = find(desired, &Role::ControlPlaneInfrastructureMachineTemplate);
            let managed = cluster.topology().control_plane.replicas.is_some();
            let b =
                control_plane_builtins(api, managed, &cp.value, machine_template.map(|o| &o.value))
                    .map_err(|f| {
                        f.detached()
                            .at(cluster, what, "/spec/topology/controlPlane")
                    })?;
            json!({ "controlPlane": b })
        }
        Holder::MachineDeployment { topology_name } => {
            let b = worker(cluster, desired, Worker::Deployment, topology_name)?;
            json!({ "machineDeployment": b })
        }
        Holder::MachinePool { topology_name } => {
            let b = worker(cluster, desired, Worker::Pool, topology_name)?;
            json!({ "machinePool": b })
        }
    };
    Ok(Some(json!({ BUILTIN: value })))
}

/// What the templates of `holder` see under `builtin`: the global builtins merged with the
/// holder's own (`{"builtin": {"cluster": {...}, "controlPlane": {...}}}`), ready to be merged
/// into template data.
pub fn for_holder(
    cluster: &Cluster,
    desired: &DesiredState,
    holder: &Holder,
) -> Result<Value, Diagnostic> {
    let g = global(cluster, desired)?;
    Ok(match item(cluster, desired, holder)? {
        Some(i) => merge(&g, &i),
        None => g,
    })
}

/// Every holder of the desired state: the InfrastructureCluster, the ControlPlane, then each
/// MachineDeployment and each MachinePool in topology order.
pub fn holders(desired: &DesiredState) -> Vec<Holder> {
    let has = |role: &Role| find(desired, role).is_some();
    let mut out = Vec::new();
    if has(&Role::InfrastructureCluster) {
        out.push(Holder::InfrastructureCluster);
    }
    if has(&Role::ControlPlane) {
        out.push(Holder::ControlPlane);
    }
    out.extend(desired.objects.iter().filter_map(|o| match &o.role {
        Role::MachineDeployment(n) => Some(Holder::MachineDeployment {
            topology_name: n.clone(),
        }),
        _ => None,
    }));
    out.extend(desired.objects.iter().filter_map(|o| match &o.role {
        Role::MachinePool(n) => Some(Holder::MachinePool {
            topology_name: n.clone(),
        }),
        _ => None,
    }));
    out
}

/// [`for_holder`] for every holder of [`holders`], in that order.
pub fn all(cluster: &Cluster, desired: &DesiredState) -> Result<Vec<HolderBuiltins>, Diagnostic> {
    let g = global(cluster, desired)?;
    holders(desired)
        .into_iter()
        .map(|holder| {
            let builtins = match item(cluster, desired, &holder)? {
                Some(i) => merge(&g, &i),
                None => g.clone(),
            };
            Ok(HolderBuiltins { holder, builtins })
        })
        .collect()
}

/// `MergeVariableMaps` for two `{"builtin": ...}` values: both are decoded into one typed
/// `Builtins` in turn, so objects merge key by key (the later wins on a scalar or a list) and
/// the result holds the union.
pub fn merge(first: &Value, second: &Value) -> Value {
    let mut out = first.clone();
    merge_into(&mut out, second);
    out
}

fn merge_into(into: &mut Value, from: &Value) {
    match (into, from) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(existing) => merge_into(existing, v),
                    None => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

/// The paths Cluster API's ClusterClass webhook accepts for a `valueFrom.variable` that starts
/// with `builtin.` (`builtinVariables` in `core/webhooks/admission/patch_validation.go` on main,
/// `internal/webhooks/patch_validation.go` at v1.10.0), for the flavour `api` selects.
///
/// The list holds a bare `builtin` too, but the webhook only consults it for values that start
/// with `builtin.` (see [`is_checked_as_builtin`]); a bare `builtin` goes through the user
/// variable check and is rejected there.
pub fn builtin_paths(api: ApiVersion) -> &'static [&'static str] {
    match api {
        ApiVersion::V1Beta2 => PATHS_MAIN,
        ApiVersion::V1Beta1 => PATHS_V1_10,
    }
}

/// Whether `path` is in [`builtin_paths`]`(api)`. Exact match: a deeper path
/// (`builtin.cluster.metadata.labels.env`), an index or a partial parent
/// (`builtin.cluster.metadata`) is not accepted.
pub fn is_builtin_path(path: &str, api: ApiVersion) -> bool {
    builtin_paths(api).contains(&path)
}

/// Whether a template may read `path` (`builtin.…`) in `api`'s builtins: a listed path, an
/// object on the way to one (`builtin.cluster.topology`), or a key inside a listed map
/// (`builtin.cluster.metadata.labels.team`).
pub fn is_readable_builtin_path(path: &str, api: ApiVersion) -> bool {
    let paths = builtin_paths(api);
    paths.iter().any(|p| {
        *p == path
            || p.strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('.'))
            || ((p.ends_with(".labels") || p.ends_with(".annotations"))
                && path
                    .strip_prefix(*p)
                    .is_some_and(|rest| rest.starts_with('.')))
    })
}

/// Whether the webhook checks `variable` against the builtin list (it starts with `builtin.`)
/// rather than against the user variables.
pub fn is_checked_as_builtin(variable: &str) -> bool {
    variable.starts_with("builtin.")
}

const PATHS_MAIN: &[&str] = &[
    "builtin",
    "builtin.cluster",
    "builtin.cluster.name",
    "builtin.cluster.namespace",
    "builtin.cluster.uid",
    "builtin.cluster.metadata.labels",
    "builtin.cluster.metadata.annotations",
    "builtin.cluster.topology",
    "builtin.cluster.topology.classRef.name",
    "builtin.cluster.topology.classRef.namespace",
    "builtin.cluster.topology.class",
    "builtin.cluster.topology.classNamespace",
    "builtin.cluster.topology.version",
    "builtin.cluster.network",
    "builtin.cluster.network.serviceDomain",
    "builtin.cluster.network.services",
    "builtin.cluster.network.pods",
    "builtin.controlPlane",
    "builtin.controlPlane.name",
    "builtin.controlPlane.replicas",
    "builtin.controlPlane.version",
    "builtin.controlPlane.metadata.labels",
    "builtin.controlPlane.metadata.annotations",
    "builtin.controlPlane.machineTemplate.infrastructureRef.name",
    "builtin.machineDeployment",
    "builtin.machineDeployment.class",
    "builtin.machineDeployment.name",
    "builtin.machineDeployment.replicas",
    "builtin.machineDeployment.topologyName",
    "builtin.machineDeployment.version",
    "builtin.machineDeployment.metadata.labels",
    "builtin.machineDeployment.metadata.annotations",
    "builtin.machineDeployment.bootstrap.configRef.name",
    "builtin.machineDeployment.infrastructureRef.name",
    "builtin.machinePool",
    "builtin.machinePool.class",
    "builtin.machinePool.name",
    "builtin.machinePool.replicas",
    "builtin.machinePool.topologyName",
    "builtin.machinePool.version",
    "builtin.machinePool.metadata.labels",
    "builtin.machinePool.metadata.annotations",
    "builtin.machinePool.bootstrap.configRef.name",
    "builtin.machinePool.infrastructureRef.name",
];

const PATHS_V1_10: &[&str] = &[
    "builtin",
    "builtin.cluster",
    "builtin.cluster.name",
    "builtin.cluster.namespace",
    "builtin.cluster.uid",
    "builtin.cluster.metadata.labels",
    "builtin.cluster.metadata.annotations",
    "builtin.cluster.topology",
    "builtin.cluster.topology.class",
    "builtin.cluster.topology.classNamespace",
    "builtin.cluster.topology.version",
    "builtin.cluster.network",
    "builtin.cluster.network.serviceDomain",
    "builtin.cluster.network.services",
    "builtin.cluster.network.pods",
    "builtin.cluster.network.ipFamily",
    "builtin.controlPlane",
    "builtin.controlPlane.name",
    "builtin.controlPlane.replicas",
    "builtin.controlPlane.version",
    "builtin.controlPlane.metadata.labels",
    "builtin.controlPlane.metadata.annotations",
    "builtin.controlPlane.machineTemplate.infrastructureRef.name",
    "builtin.machineDeployment",
    "builtin.machineDeployment.class",
    "builtin.machineDeployment.name",
    "builtin.machineDeployment.replicas",
    "builtin.machineDeployment.topologyName",
    "builtin.machineDeployment.version",
    "builtin.machineDeployment.metadata.labels",
    "builtin.machineDeployment.metadata.annotations",
    "builtin.machineDeployment.bootstrap.configRef.name",
    "builtin.machineDeployment.infrastructureRef.name",
    "builtin.machinePool",
    "builtin.machinePool.class",
    "builtin.machinePool.name",
    "builtin.machinePool.replicas",
    "builtin.machinePool.topologyName",
    "builtin.machinePool.version",
    "builtin.machinePool.metadata.labels",
    "builtin.machinePool.metadata.annotations",
    "builtin.machinePool.bootstrap.configRef.name",
    "builtin.machinePool.infrastructureRef.name",
];

// ---------------------------------------------------------------------------------------------
// The builders. Each reads plain JSON objects, so Cluster API's own table tests port directly.

/// Why a builtin could not be computed, and where in the read object (if anywhere).
#[derive(Debug, Clone, PartialEq)]
struct Failure {
    message: String,
    /// JSON pointer into the object that was read, when the Cluster is that object.
    pointer: Option<String>,
}

impl Failure {
    fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            pointer: None,
        }
    }

    /// Forget the pointer: it points into a generated object, not into the Cluster.
    fn detached(self) -> Failure {
        Failure {
            pointer: None,
            ..self
        }
    }

    /// The diagnostic: `Cluster <ns/name>: failed to calculate <what>: <message>`, located at
    /// the failure's own pointer or else at `fallback` in the Cluster.
    fn at(self, cluster: &Cluster, what: &str, fallback: &str) -> Diagnostic {
        let ptr = self.pointer.as_deref().unwrap_or(fallback);
        Diagnostic::error(
            Code::VariablesBuiltin,
            format!(
                "Cluster {}: failed to calculate {what}: {}",
                cluster.object.key(),
                self.message
            ),
        )
        .at(
            &cluster.object.origin,
            ptr,
            "builtin variables computed from here",
        )
    }
}

fn missing(cluster: &Cluster, what: &str, object: &str, ptr: &str) -> Diagnostic {
    Diagnostic::error(
        Code::VariablesBuiltin,
        format!(
            "Cluster {}: failed to calculate {what}: the desired state has no {object}",
            cluster.object.key()
        ),
    )
    .at(&cluster.object.origin, ptr, "no desired object for this")
}

fn find<'d>(desired: &'d DesiredState, role: &Role) -> Option<&'d DesiredObject> {
    desired.objects.iter().find(|o| &o.role == role)
}

/// Which worker list a holder comes from.
#[derive(Clone, Copy)]
enum Worker {
    Deployment,
    Pool,
}

impl Worker {
    /// Kind, topology list and the label that carries the topology name.
    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Worker::Deployment => (
                "MachineDeployment",
                "machineDeployments",
                labels::DEPLOYMENT_NAME,
            ),
            Worker::Pool => ("MachinePool", "machinePools", labels::POOL_NAME),
        }
    }

    /// Roles of the worker object and of its bootstrap and infrastructure companions.
    fn roles(self, n: &str) -> [Role; 3] {
        let n = n.to_string();
        match self {
            Worker::Deployment => [
                Role::MachineDeployment(n.clone()),
                Role::MachineDeploymentBootstrapTemplate(n.clone()),
                Role::MachineDeploymentInfrastructureTemplate(n),
            ],
            Worker::Pool => [
                Role::MachinePool(n.clone()),
                Role::MachinePoolBootstrapConfig(n.clone()),
                Role::MachinePoolInfrastructure(n),
            ],
        }
    }

    /// `(name, class)` of each topology of this list, in order.
    fn topologies(self, cluster: &Cluster) -> Vec<(&str, &str)> {
        let workers = &cluster.topology().workers;
        match self {
            Worker::Deployment => workers
                .machine_deployments
                .iter()
                .map(|t| (t.name.as_str(), t.class.as_str()))
                .collect(),
            Worker::Pool => workers
                .machine_pools
                .iter()
                .map(|t| (t.name.as_str(), t.class.as_str()))
                .collect(),
        }
    }
}

/// `builtin.machineDeployment` / `builtin.machinePool` for the worker `topology_name`.
fn worker(
    cluster: &Cluster,
    desired: &DesiredState,
    kind: Worker,
    topology_name: &str,
) -> Result<Value, Diagnostic> {
    let (kind_name, list, label) = kind.names();
    let [role, bootstrap, infra] = kind.roles(topology_name);
    let topologies = kind.topologies(cluster);
    let list_ptr = format!("/spec/topology/workers/{list}");
    let obj = find(desired, &role).ok_or_else(|| {
        Diagnostic::error(
            Code::VariablesBuiltin,
            format!(
                "Cluster {}: could not find desired state for {kind_name} {topology_name:?}",
                cluster.object.key()
            ),
        )
        .at(
            &cluster.object.origin,
            &list_ptr,
            "no desired object for this",
        )
    })?;
    // Cluster API finds the topology through the desired object's label.
    let name = obj
        .value
        .pointer(&pointer(["metadata", "labels", label]))
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Diagnostic::error(
                Code::VariablesBuiltin,
                format!(
                    "Cluster {}: failed to get topology name for {}/{}",
                    cluster.object.key(),
                    obj.namespace(),
                    obj.name()
                ),
            )
            .at(&cluster.object.origin, &list_ptr, "workers")
        })?;
    let (index, class) = topologies
        .iter()
        .enumerate()
        .find(|(_, (n, _))| *n == name)
        .map(|(i, (_, c))| (i, *c))
        .ok_or_else(|| {
            Diagnostic::error(Code::VariablesBuiltin, format!(
                "Cluster {}: failed to lookup {kind_name} topology {name:?} in Cluster.spec.topology.workers.{list}",
                cluster.object.key()
            ))
            .at(&cluster.object.origin, &list_ptr, "workers")
        })?;
    machine_builtins(
        cluster.api,
        class,
        name,
        &obj.value,
        find(desired, &bootstrap).map(|o| &o.value),
        find(desired, &infra).map(|o| &o.value),
    )
    .map_err(|f| {
        let what = format!("variables for {}/{}", obj.namespace(), obj.name());
        f.detached()
            .at(cluster, &what, &format!("{list_ptr}/{index}"))
    })
}

/// `builtin.cluster` from a Cluster object as written in the version `api` names.
fn cluster_builtins(cluster: &Value, api: ApiVersion) -> Result<Value, Failure> {
    let mut out = Map::new();
    put_str(&mut out, "name", opt_str(cluster, &["metadata", "name"])?);
    put_str(
        &mut out,
        "namespace",
        opt_str(cluster, &["metadata", "namespace"])?,
    );
    put_str(&mut out, "uid", opt_str(cluster, &["metadata", "uid"])?);
    if let Some(m) = metadata(cluster, api)? {
        out.insert("metadata".into(), m);
    }

    // `GetClassKey`: the class namespace defaults to the Cluster's.
    let (class, class_ns) = match api {
        ApiVersion::V1Beta2 => (
            opt_str(cluster, &["spec", "topology", "classRef", "name"])?,
            opt_str(cluster, &["spec", "topology", "classRef", "namespace"])?,
        ),
        ApiVersion::V1Beta1 => (
            opt_str(cluster, &["spec", "topology", "class"])?,
            opt_str(cluster, &["spec", "topology", "classNamespace"])?,
        ),
    };
    let class = class.unwrap_or("");
    let class_ns = match class_ns {
        Some(ns) if !ns.is_empty() => ns,
        _ => opt_str(cluster, &["metadata", "namespace"])?.unwrap_or(""),
    };
    let mut topology = Map::new();
    put_str(
        &mut topology,
        "version",
        opt_str(cluster, &["spec", "topology", "version"])?,
    );
    if api == ApiVersion::V1Beta2 {
        topology.insert(
            "classRef".into(),
            json!({ "name": class, "namespace": class_ns }),
        );
    }
    put_str(&mut topology, "class", Some(class));
    put_str(&mut topology, "classNamespace", Some(class_ns));
    out.insert("topology".into(), Value::Object(topology));

    if let Some(n) = network(cluster, api)? {
        out.insert("network".into(), n);
    }
    Ok(Value::Object(out))
}

/// `builtin.cluster.network`.
fn network(cluster: &Value, api: ApiVersion) -> Result<Option<Value>, Failure> {
    let cn = opt_object(cluster, &["spec", "clusterNetwork"])?;
    opt_object(cluster, &["spec", "clusterNetwork", "services"])?;
    opt_object(cluster, &["spec", "clusterNetwork", "pods"])?;
    let service_domain =
        opt_str(cluster, &["spec", "clusterNetwork", "serviceDomain"])?.filter(|s| !s.is_empty());
    let services = str_list(
        cluster,
        &["spec", "clusterNetwork", "services", "cidrBlocks"],
    )?;
    let pods = str_list(cluster, &["spec", "clusterNetwork", "pods", "cidrBlocks"])?;
    let mut out = Map::new();
    if let Some(sd) = service_domain {
        out.insert("serviceDomain".into(), json!(sd));
    }
    for (key, list) in [("services", &services), ("pods", &pods)] {
        if let Some(l) = list.as_ref().filter(|l| !l.is_empty()) {
            out.insert(key.into(), json!(l));
        }
    }
    match api {
        ApiVersion::V1Beta2 => {
            // The network object exists once any of its fields was set, even to an empty list.
            let present = service_domain.is_some() || services.is_some() || pods.is_some();
            Ok(present.then_some(Value::Object(out)))
        }
        ApiVersion::V1Beta1 => {
            if cn.is_none() {
                return Ok(None);
            }
            let pods = pods.unwrap_or_default();
            let services = services.unwrap_or_default();
            let family = ip_family::cluster_ip_family(&pods, &services)
                .unwrap_or(ip_family::IpFamily::Invalid);
            out.insert("ipFamily".into(), json!(family.as_str()));
            Ok(Some(Value::Object(out)))
        }
    }
}

/// `builtin.controlPlane` from the desired ControlPlane; `replicas_managed` says whether the
/// topology sets `controlPlane.replicas`.
fn control_plane_builtins(
    api: ApiVersion,
    replicas_managed: bool,
    cp: &Value,
    machine_template: Option<&Value>,
) -> Result<Value, Failure> {
    let mut out = Map::new();
    put_str(&mut out, "name", opt_str(cp, &["metadata", "name"])?);
    if replicas_managed {
        let replicas = get_int(cp, &["spec", "replicas"]).map_err(|e| {
            Failure::new(format!(
                "failed to get spec.replicas from the ControlPlane: {e}"
            ))
        })?;
        let replicas = match api {
            // main reads it as int64 and converts to int32.
            ApiVersion::V1Beta2 => i64::from(replicas as i32),
            ApiVersion::V1Beta1 => replicas,
        };
        out.insert("replicas".into(), json!(replicas));
    }
    if let Some(m) = metadata(cp, api)? {
        out.insert("metadata".into(), m);
    }
    let version = get_string(cp, &["spec", "version"]).map_err(|e| {
        Failure::new(format!(
            "failed to get spec.version from the ControlPlane: {e}"
        ))
    })?;
    put_str(&mut out, "version", Some(version));
    if let Some(t) = machine_template {
        // No omitempty reaches through a struct value: `infrastructureRef` is always written.
        let mut r = Map::new();
        put_str(&mut r, "name", opt_str(t, &["metadata", "name"])?);
        out.insert(
            "machineTemplate".into(),
            json!({ "infrastructureRef": Value::Object(r) }),
        );
    }
    Ok(Value::Object(out))
}

/// `builtin.machineDeployment` / `builtin.machinePool` from the desired worker object and its
/// bootstrap and infrastructure companions.
fn machine_builtins(
    api: ApiVersion,
    class: &str,
    topology_name: &str,
    obj: &Value,
    bootstrap: Option<&Value>,
    infra: Option<&Value>,
) -> Result<Value, Failure> {
    let mut out = Map::new();
    put_str(
        &mut out,
        "version",
        opt_str(obj, &["spec", "template", "spec", "version"])?,
    );
    put_str(&mut out, "class", Some(class));
    put_str(&mut out, "name", opt_str(obj, &["metadata", "name"])?);
    put_str(&mut out, "topologyName", Some(topology_name));
    match lookup(obj, &["spec", "replicas"]) {
        None | Some(Value::Null) => {}
        Some(v) => {
            let n = v.as_i64().ok_or_else(|| {
                Failure::new(format!("spec.replicas must be an integer, found {v}"))
            })?;
            out.insert("replicas".into(), json!(n));
        }
    }
    if let Some(m) = metadata(obj, api)? {
        out.insert("metadata".into(), m);
    }
    if let Some(b) = bootstrap {
        let mut r = Map::new();
        put_str(&mut r, "name", opt_str(b, &["metadata", "name"])?);
        out.insert("bootstrap".into(), json!({ "configRef": Value::Object(r) }));
    }
    if let Some(i) = infra {
        let mut r = Map::new();
        put_str(&mut r, "name", opt_str(i, &["metadata", "name"])?);
        out.insert("infrastructureRef".into(), Value::Object(r));
    }
    Ok(Value::Object(out))
}

/// `metadata` of a builtin: present when the object has labels or annotations (a present map,
/// even empty, counts); empty maps are then left out. Main drops kubectl's last-applied
/// configuration and the conversion data from the annotations.
fn metadata(obj: &Value, api: ApiVersion) -> Result<Option<Value>, Failure> {
    let l = str_map(obj, &["metadata", "labels"])?;
    let mut a = str_map(obj, &["metadata", "annotations"])?;
    if l.is_none() && a.is_none() {
        return Ok(None);
    }
    if api == ApiVersion::V1Beta2
        && let Some(a) = a.as_mut()
    {
        a.remove(labels::LAST_APPLIED);
        a.remove(CONVERSION_DATA);
    }
    let mut out = Map::new();
    for (key, m) in [("labels", l), ("annotations", a)] {
        if let Some(m) = m.filter(|m| !m.is_empty()) {
            out.insert(key.into(), Value::Object(m));
        }
    }
    Ok(Some(Value::Object(out)))
}

// ---------------------------------------------------------------------------------------------
// Reading fields with Go's decoding rules: absent and null are nil; a wrong type is an error.

fn lookup<'v>(v: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(v, |cur, k| cur.get(k))
}

fn wrong_type(path: &[&str], expected: &str, found: &Value) -> Failure {
    Failure {
        message: format!(
            "{}: expected {expected}, found {}",
            path.join("."),
            crate::load::object::type_name(found)
        ),
        pointer: Some(pointer(path)),
    }
}

fn opt_object<'v>(v: &'v Value, path: &[&str]) -> Result<Option<&'v Value>, Failure> {
    match lookup(v, path) {
        None | Some(Value::Null) => Ok(None),
        Some(o @ Value::Object(_)) => Ok(Some(o)),
        Some(other) => Err(wrong_type(path, "a mapping", other)),
    }
}

fn opt_str<'v>(v: &'v Value, path: &[&str]) -> Result<Option<&'v str>, Failure> {
    match lookup(v, path) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong_type(path, "a string", other)),
    }
}

fn str_list<'v>(v: &'v Value, path: &[&str]) -> Result<Option<Vec<&'v str>>, Failure> {
    match lookup(v, path) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_str().ok_or_else(|| {
                    let idx = i.to_string();
                    let mut p = path.to_vec();
                    p.push(&idx);
                    wrong_type(&p, "a string", item)
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(other) => Err(wrong_type(path, "a list of strings", other)),
    }
}

fn str_map(v: &Value, path: &[&str]) -> Result<Option<Map<String, Value>>, Failure> {
    match lookup(v, path) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => {
            for (k, item) in m {
                if !item.is_string() {
                    let mut p = path.to_vec();
                    p.push(k);
                    return Err(wrong_type(&p, "a string", item));
                }
            }
            Ok(Some(m.clone()))
        }
        Some(other) => Err(wrong_type(path, "a map of strings", other)),
    }
}

/// Insert a string unless it is empty (`omitempty`).
fn put_str(map: &mut Map<String, Value>, key: &str, value: Option<&str>) {
    if let Some(s) = value.filter(|s| !s.is_empty()) {
        map.insert(key.into(), json!(s));
    }
}

#[cfg(test)]
mod tests;
