/*!
The GeneratePatches request of one Cluster: one item per patchable template, as Cluster API's
`createRequest` builds them (`core/reconcilers/topology/cluster/patches/engine.go`,
`template.go`).

Owns the item order (InfrastructureCluster template, ControlPlane template, the control plane
machines' infrastructure template when the class has one, then each MachineDeployment's
bootstrap and infrastructure templates, then each MachinePool's), the holder references, the
cleanup of each template (managed fields, last-applied and conversion-data annotations) and,
for v1beta2 (Cluster API main), the sync of the desired objects' labels and annotations into
the templates. Item uids are deterministic (`<holder>/<field path>`): they only correlate
responses with items.

Cluster API walks MachineDeployments and MachinePools in Go map order (random); topology
order is used here, which is one of the orders Cluster API may take.
*/

use serde_json::{Map, Value};

use crate::api::{ApiVersion, Cluster};
use crate::topology::Blueprint;
use crate::topology::contract::Contract;
use crate::topology::desired::{DesiredState, Role};
use crate::variables::builtins::Holder;

/// `runtimehooksv1.HolderReference`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HolderRef {
    /// apiVersion of the holder.
    pub api_version: String,
    /// kind of the holder.
    pub kind: String,
    /// Namespace of the holder.
    pub namespace: String,
    /// Name of the holder.
    pub name: String,
    /// Where the holder references the object generated from this template.
    pub field_path: String,
}

/// One template to patch.
#[derive(Debug, Clone)]
pub struct RequestItem {
    /// Correlates response items with request items.
    pub uid: String,
    /// Who holds the object generated from this template.
    pub holder_ref: HolderRef,
    /// The builtin-variable holder this template belongs to.
    pub holder: Holder,
    /// The desired object this template is written back into.
    pub role: Role,
    /// The template (kind/name as in the ClusterClass), patched as patches apply.
    pub object: Value,
    /// The item's variables (name → value) for the current patch.
    pub variables: Map<String, Value>,
    /// Bytes the patches applied so far inserted (see `jsonpatch::MAX_OBJECT_GROWTH`).
    pub grown: u64,
}

/// A GeneratePatches request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Global variables (name → value) for the current patch.
    pub variables: Map<String, Value>,
    /// The templates.
    pub items: Vec<RequestItem>,
}

/// `spec.machineTemplate.infrastructureRef` (v1beta1 contract) or
/// `spec.machineTemplate.spec.infrastructureRef`.
pub fn control_plane_holder_field_path(contract: Contract) -> &'static str {
    match contract {
        Contract::V1Beta1 => "spec.machineTemplate.infrastructureRef",
        Contract::V1Beta2 => "spec.machineTemplate.spec.infrastructureRef",
    }
}

/// `cleanupUnstructured`.
fn cleanup(template: &mut Value) {
    let Some(meta) = template.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    meta.remove("managedFields");
    let empty = match meta.get_mut("annotations").and_then(Value::as_object_mut) {
        Some(a) => {
            a.remove("kubectl.kubernetes.io/last-applied-configuration");
            a.remove("cluster.x-k8s.io/conversion-data");
            a.is_empty()
        }
        None => false,
    };
    if empty {
        meta.remove("annotations");
    }
}

/// Copy `metadata.labels`/`metadata.annotations` of `from` to `dest_prefix + labels/annotations`
/// of `template`, each only when present (`CopyFields` skips absent sources).
fn sync_metadata(template: &mut Value, from: &Value, dest_prefix: &[&str]) {
    for field in ["labels", "annotations"] {
        let Some(v) = from.get("metadata").and_then(|m| m.get(field)) else {
            continue;
        };
        let mut keys: Vec<&str> = dest_prefix.to_vec();
        keys.push(field);
        crate::json::set_path(template, &keys, v.clone());
    }
}

/// The desired objects by role (the first of a role, as a scan finds it): looked up for every
/// item, so indexed once rather than scanned (a Cluster may have thousands of workers).
fn by_role(desired: &DesiredState) -> std::collections::HashMap<&Role, &Value> {
    let mut m = std::collections::HashMap::new();
    for o in &desired.objects {
        m.entry(&o.role).or_insert(&o.value);
    }
    m
}

fn meta_str<'v>(v: &'v Value, f: &str) -> &'v str {
    crate::json::metadata_str(v, f)
}

/// A request as [`create`] builds it, with what the copy back needs.
#[derive(Debug)]
pub struct Created<'b> {
    /// The request.
    pub request: Request,
    /// The class template each item was cloned from, in item order.
    pub sources: Vec<&'b crate::load::Object>,
    /// Per item: its `spec.template.spec` was moved out of the desired object (see [`create`]).
    pub shed: Vec<bool>,
}

/// What every item's template copies back into its desired object (`spec.template.spec`, in
/// both of Cluster API's field tables).
pub const TEMPLATE_SPEC: &[&str] = &["spec", "template", "spec"];

/// Where the desired object generated from a template of `role` holds that template's
/// `spec.template.spec` unchanged, when nothing under it is preserved over the copy back (the
/// ControlPlane's spec keeps its replicas and version, so it is never shed).
pub fn shed_path(role: &Role) -> Option<&'static [&'static str]> {
    match role {
        Role::ControlPlaneInfrastructureMachineTemplate
        | Role::MachineDeploymentBootstrapTemplate(_)
        | Role::MachineDeploymentInfrastructureTemplate(_) => Some(TEMPLATE_SPEC),
        Role::InfrastructureCluster
        | Role::MachinePoolBootstrapConfig(_)
        | Role::MachinePoolInfrastructure(_) => Some(&["spec"]),
        _ => None,
    }
}

/// `v` without the value at `path` (cloned around it, not through it).
fn clone_without(v: &Value, path: &[&str]) -> Value {
    match (v, path.split_first()) {
        (Value::Object(m), Some((first, rest))) => Value::Object(
            m.iter()
                .filter_map(|(k, x)| {
                    if k != first {
                        Some((k.clone(), x.clone()))
                    } else if rest.is_empty() {
                        None
                    } else {
                        Some((k.clone(), clone_without(x, rest)))
                    }
                })
                .collect(),
        ),
        _ => v.clone(),
    }
}

fn get_path<'v>(v: &'v Value, keys: &[&str]) -> Option<&'v Value> {
    keys.iter().try_fold(v, |cur, k| cur.as_object()?.get(*k))
}

fn take_path(v: &mut Value, keys: &[&str]) -> Option<Value> {
    let (last, parents) = keys.split_last()?;
    let mut cur = v;
    for k in parents {
        cur = cur.as_object_mut()?.get_mut(*k)?;
    }
    cur.as_object_mut()?.remove(*last)
}

/// Build the request items for `cluster` (`createRequest`).
///
/// A template's desired object and its request item hold the same `spec.template.spec` until
/// the patched one is copied back (`to_template` changes only metadata, and the copy back
/// replaces it), so it is moved from the desired object into the item rather than cloned from
/// the class template a second time: a Cluster of thousands of workers holds its templates
/// once, not twice, while patches run. Where the two differ the item gets the class
/// template's, as Cluster API builds it. The engine's copy back puts the spec back.
pub fn create<'b>(
    cluster: &Cluster,
    bp: &Blueprint<'b>,
    desired: &mut DesiredState,
) -> Created<'b> {
    let (mut request, sources) = build(cluster, bp, desired);
    let mut at: std::collections::HashMap<&Role, usize> = std::collections::HashMap::new();
    for (i, o) in desired.objects.iter().enumerate() {
        at.entry(&o.role).or_insert(i);
    }
    let mut moves: Vec<(usize, usize, &'static [&'static str])> = Vec::new();
    let mut shed = vec![false; request.items.len()];
    for (n, (item, source)) in request.items.iter_mut().zip(&sources).enumerate() {
        let Some(dest) = shed_path(&item.role) else {
            continue;
        };
        let Some(spec) = get_path(&source.value, TEMPLATE_SPEC) else {
            continue;
        };
        let same = at
            .get(&item.role)
            .and_then(|&i| desired.objects.get(i).map(|o| (i, o)))
            .filter(|(_, o)| get_path(&o.value, dest) == Some(spec));
        match same {
            Some((i, _)) => {
                moves.push((n, i, dest));
                if let Some(flag) = shed.get_mut(n) {
                    *flag = true;
                }
            }
            None => crate::json::set_path(&mut item.object, TEMPLATE_SPEC, spec.clone()),
        }
    }
    drop(at);
    for (n, i, dest) in moves {
        if let (Some(item), Some(o)) = (request.items.get_mut(n), desired.objects.get_mut(i))
            && let Some(spec) = take_path(&mut o.value, dest)
        {
            crate::json::set_path(&mut item.object, TEMPLATE_SPEC, spec);
        }
    }
    Created {
        request,
        sources,
        shed,
    }
}

/// The items, each template cloned without the `spec.template.spec` [`create`] fills in.
fn build<'b>(
    cluster: &Cluster,
    bp: &Blueprint<'b>,
    desired: &DesiredState,
) -> (Request, Vec<&'b crate::load::Object>) {
    let api = cluster.api;
    let mut items = Items {
        sync: api == ApiVersion::V1Beta2,
        index: by_role(desired),
        items: Vec::new(),
        sources: Vec::new(),
    };
    let cluster_ref = |field_path: &str| HolderRef {
        api_version: api.api_version().to_string(),
        kind: "Cluster".into(),
        namespace: cluster.namespace().to_string(),
        name: cluster.name().to_string(),
        field_path: field_path.to_string(),
    };
    items.push(
        bp.infrastructure_cluster,
        Role::InfrastructureCluster,
        Holder::InfrastructureCluster,
        cluster_ref("spec.infrastructureRef"),
        Some(OBJECT_META),
    );
    items.push(
        bp.control_plane,
        Role::ControlPlane,
        Holder::ControlPlane,
        cluster_ref("spec.controlPlaneRef"),
        Some(OBJECT_META),
    );
    if let Some(t) = bp.control_plane_machine_infrastructure {
        let cp = items
            .find(&Role::ControlPlane)
            .cloned()
            .unwrap_or(Value::Null);
        items.push(
            t,
            Role::ControlPlaneInfrastructureMachineTemplate,
            Holder::ControlPlane,
            HolderRef {
                api_version: cp
                    .get("apiVersion")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                kind: cp
                    .get("kind")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                namespace: meta_str(&cp, "namespace").to_string(),
                name: meta_str(&cp, "name").to_string(),
                field_path: control_plane_holder_field_path(bp.control_plane_contract).into(),
            },
            Some(TEMPLATE_META),
        );
    }
    let topo = cluster.topology();
    for md in &topo.workers.machine_deployments {
        let Some(class) = bp.machine_deployments.get(&md.class) else {
            continue;
        };
        items.push_worker(
            api,
            Worker {
                kind: "MachineDeployment",
                role: Role::MachineDeployment(md.name.clone()),
                holder: Holder::MachineDeployment {
                    topology_name: md.name.clone(),
                },
                bootstrap: (
                    class.bootstrap,
                    Role::MachineDeploymentBootstrapTemplate(md.name.clone()),
                ),
                infrastructure: (
                    class.infrastructure,
                    Role::MachineDeploymentInfrastructureTemplate(md.name.clone()),
                ),
                meta: TEMPLATE_META,
            },
        );
    }
    for mp in &topo.workers.machine_pools {
        let Some(class) = bp.machine_pools.get(&mp.class) else {
            continue;
        };
        items.push_worker(
            api,
            Worker {
                kind: "MachinePool",
                role: Role::MachinePool(mp.name.clone()),
                holder: Holder::MachinePool {
                    topology_name: mp.name.clone(),
                },
                bootstrap: (
                    class.bootstrap,
                    Role::MachinePoolBootstrapConfig(mp.name.clone()),
                ),
                infrastructure: (
                    class.infrastructure,
                    Role::MachinePoolInfrastructure(mp.name.clone()),
                ),
                meta: OBJECT_META,
            },
        );
    }
    (
        Request {
            variables: Map::new(),
            items: items.items,
        },
        items.sources,
    )
}

/// Where a template's metadata is synced to in the object it becomes: an object's own
/// template (`spec.template.metadata`)...
const OBJECT_META: &[&str] = &["spec", "template", "metadata"];
/// ... or a template object's metadata.
const TEMPLATE_META: &[&str] = &["metadata"];

/// The request's items as [`build`] gathers them, with the template each was cloned from.
struct Items<'b, 'd> {
    /// v1beta2: each template's metadata is synced from its desired object.
    sync: bool,
    /// The desired objects by role.
    index: std::collections::HashMap<&'d Role, &'d Value>,
    items: Vec<RequestItem>,
    sources: Vec<&'b crate::load::Object>,
}

/// A worker (MachineDeployment or MachinePool) of the topology and its two templates, each
/// with the role of the object it becomes.
struct Worker<'b> {
    kind: &'static str,
    role: Role,
    holder: Holder,
    bootstrap: (&'b crate::load::Object, Role),
    infrastructure: (&'b crate::load::Object, Role),
    /// Where the templates' metadata is synced to.
    meta: &'static [&'static str],
}

impl<'b> Items<'b, '_> {
    /// The desired object of `role`.
    fn find(&self, role: &Role) -> Option<&Value> {
        self.index.get(role).copied()
    }

    /// Add `template` as the item of `role`, held by `holder`: cloned (without what
    /// [`create`] fills in), its metadata synced from the desired object at `sync_to`.
    fn push(
        &mut self,
        template: &'b crate::load::Object,
        role: Role,
        holder: Holder,
        holder_ref: HolderRef,
        sync_to: Option<&[&str]>,
    ) {
        let mut object = match shed_path(&role) {
            Some(_) => clone_without(&template.value, TEMPLATE_SPEC),
            None => template.value.clone(),
        };
        if let (true, Some(prefix), Some(d)) = (self.sync, sync_to, self.find(&role)) {
            sync_metadata(&mut object, d, prefix);
        }
        cleanup(&mut object);
        self.sources.push(template);
        self.items.push(RequestItem {
            uid: format!("{}/{}", role.id(), holder_ref.field_path),
            holder_ref,
            holder,
            role,
            object,
            variables: Map::new(),
            grown: 0,
        });
    }

    /// Add a worker's bootstrap and infrastructure templates, held by its desired object (a
    /// worker with none has no items).
    fn push_worker(&mut self, api: ApiVersion, w: Worker<'b>) {
        let Some(obj) = self.find(&w.role) else {
            return;
        };
        let r = |field_path: &str| HolderRef {
            api_version: api.api_version().to_string(),
            kind: w.kind.into(),
            namespace: meta_str(obj, "namespace").to_string(),
            name: meta_str(obj, "name").to_string(),
            field_path: field_path.to_string(),
        };
        let bootstrap_ref = r("spec.template.spec.bootstrap.configRef");
        let infrastructure_ref = r("spec.template.spec.infrastructureRef");
        let (bootstrap, bootstrap_role) = w.bootstrap;
        let (infrastructure, infrastructure_role) = w.infrastructure;
        self.push(
            bootstrap,
            bootstrap_role,
            w.holder.clone(),
            bootstrap_ref,
            Some(w.meta),
        );
        self.push(
            infrastructure,
            infrastructure_role,
            w.holder,
            infrastructure_ref,
            Some(w.meta),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cleanup_drops_empty_annotations() {
        let mut v = json!({"metadata": {"managedFields": [], "annotations": {
            "kubectl.kubernetes.io/last-applied-configuration": "{}"}}});
        cleanup(&mut v);
        assert_eq!(v, json!({"metadata": {}}));
    }
}
