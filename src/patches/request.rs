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

/// Build the request items for `cluster` (`createRequest`).
pub fn create(cluster: &Cluster, bp: &Blueprint<'_>, desired: &DesiredState) -> Request {
    let api = cluster.api;
    let sync = api == ApiVersion::V1Beta2;
    let index = by_role(desired);
    let find = |_: &DesiredState, role: &Role| index.get(role).copied();
    let mut items = Vec::new();
    let mut push = |template: &crate::load::Object,
                    role: Role,
                    holder: Holder,
                    holder_ref: HolderRef,
                    sync_to: Option<&[&str]>| {
        let mut object = template.value.clone();
        if let (true, Some(prefix), Some(d)) = (sync, sync_to, find(desired, &role)) {
            sync_metadata(&mut object, d, prefix);
        }
        cleanup(&mut object);
        items.push(RequestItem {
            uid: format!("{}/{}", role.id(), holder_ref.field_path),
            holder_ref,
            holder,
            role,
            object,
            variables: Map::new(),
            grown: 0,
        });
    };
    let cluster_ref = |field_path: &str| HolderRef {
        api_version: api.api_version().to_string(),
        kind: "Cluster".into(),
        namespace: cluster.namespace().to_string(),
        name: cluster.name().to_string(),
        field_path: field_path.to_string(),
    };
    const OBJECT_META: &[&str] = &["spec", "template", "metadata"];
    const TEMPLATE_META: &[&str] = &["metadata"];
    push(
        bp.infrastructure_cluster,
        Role::InfrastructureCluster,
        Holder::InfrastructureCluster,
        cluster_ref("spec.infrastructureRef"),
        Some(OBJECT_META),
    );
    push(
        bp.control_plane,
        Role::ControlPlane,
        Holder::ControlPlane,
        cluster_ref("spec.controlPlaneRef"),
        Some(OBJECT_META),
    );
    if let Some(t) = bp.control_plane_machine_infrastructure {
        let cp = find(desired, &Role::ControlPlane)
            .cloned()
            .unwrap_or(Value::Null);
        push(
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
        let Some(obj) = find(desired, &Role::MachineDeployment(md.name.clone())) else {
            continue;
        };
        let r = |field_path: &str| HolderRef {
            api_version: api.api_version().to_string(),
            kind: "MachineDeployment".into(),
            namespace: meta_str(obj, "namespace").to_string(),
            name: meta_str(obj, "name").to_string(),
            field_path: field_path.to_string(),
        };
        let holder = Holder::MachineDeployment {
            topology_name: md.name.clone(),
        };
        push(
            class.bootstrap,
            Role::MachineDeploymentBootstrapTemplate(md.name.clone()),
            holder.clone(),
            r("spec.template.spec.bootstrap.configRef"),
            Some(TEMPLATE_META),
        );
        push(
            class.infrastructure,
            Role::MachineDeploymentInfrastructureTemplate(md.name.clone()),
            holder,
            r("spec.template.spec.infrastructureRef"),
            Some(TEMPLATE_META),
        );
    }
    for mp in &topo.workers.machine_pools {
        let Some(class) = bp.machine_pools.get(&mp.class) else {
            continue;
        };
        let Some(obj) = find(desired, &Role::MachinePool(mp.name.clone())) else {
            continue;
        };
        let r = |field_path: &str| HolderRef {
            api_version: api.api_version().to_string(),
            kind: "MachinePool".into(),
            namespace: meta_str(obj, "namespace").to_string(),
            name: meta_str(obj, "name").to_string(),
            field_path: field_path.to_string(),
        };
        let holder = Holder::MachinePool {
            topology_name: mp.name.clone(),
        };
        push(
            class.bootstrap,
            Role::MachinePoolBootstrapConfig(mp.name.clone()),
            holder.clone(),
            r("spec.template.spec.bootstrap.configRef"),
            Some(OBJECT_META),
        );
        push(
            class.infrastructure,
            Role::MachinePoolInfrastructure(mp.name.clone()),
            holder,
            r("spec.template.spec.infrastructureRef"),
            Some(OBJECT_META),
        );
    }
    Request {
        variables: Map::new(),
        items,
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
