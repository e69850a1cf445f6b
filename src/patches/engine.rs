/*!
The patch engine for one Cluster: Cluster API's `engine.Apply`
(`core/reconcilers/topology/cluster/patches/engine.go`, `patch.go`).

Owns the run: build the request ([`super::request`]), for each patch in spec order compute the
variables it may see (`addVariablesForPatch`), let its generator produce patches, apply each
response item to its request item keeping only `spec`, `metadata.labels` and
`metadata.annotations` (`applyPatchToRequest`), and finally copy the patched templates back
into the desired objects with the preserved fields (`updateDesiredState`).

Generators are behind [`PatchGenerator`] so inline and external patches are interchangeable;
external patches need a Runtime SDK client, which is not wired in yet: they fail with a
diagnostic that names the extension to pass.
*/

use serde_json::{Map, Value};

use super::explain::{ItemTrace, Outcome, PatchTrace};
use super::inline::{InlineGenerator, get_variable_value};
use super::jsonpatch;
use super::request::{self, Request};
use crate::api::{ApiVersion, Cluster, ClusterClass};
use crate::diag::Diagnostic;
use crate::topology::Blueprint;
use crate::topology::desired::{DesiredState, Role, set_path};
use crate::variables::builtins::{self, Holder};

/// How a response item's patch is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    /// RFC 6902.
    JsonPatch,
    /// RFC 7386.
    JsonMergePatch,
}

/// One generated patch for one request item.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseItem {
    /// The request item's uid.
    pub uid: String,
    /// Encoding of `patch`.
    pub patch_type: PatchType,
    /// The patch document.
    pub patch: Value,
}

/// Something that turns a request into patches (inline definitions, or an external extension).
pub trait PatchGenerator {
    /// Cluster API's `Generator.Generate`; the error is the generator's text.
    fn generate(&self, req: &Request) -> Result<Vec<ResponseItem>, String>;
}

/// A patch error, located at the patch in its ClusterClass.
fn patch_error(
    class: &ClusterClass,
    cluster: &Cluster,
    index: usize,
    name: &str,
    msg: String,
) -> Diagnostic {
    Diagnostic::error(format!(
        "Cluster {}: ClusterClass {}: {msg}",
        cluster.object.key(),
        class.key()
    ))
    .at(
        &class.object.origin,
        &format!("/spec/patches/{index}"),
        format!("patch {name:?}"),
    )
}

/// The error for an external patch while the engine does not call extensions yet (the Runtime
/// SDK client exists in `crate::runtime`; wiring it in is the next step).
pub fn external_patch_error(
    class: &ClusterClass,
    index: usize,
    name: &str,
    extension: &str,
) -> Diagnostic {
    Diagnostic::error(format!(
        "ClusterClass {}: patch {name:?} is external (handler {extension:?}), and this version of topoplan does not call extensions from plan yet",
        class.key()
    ))
    .at(&class.object.origin, &format!("/spec/patches/{index}/external"), "external patch")
    .with_help("classes with inline patches only can be planned; `topoplan validate` checks this class and its Clusters")
}

fn patches(class: &ClusterClass) -> &[Value] {
    class
        .spec_value
        .get("patches")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

/// Whether every patch of `class` is inline (has definitions).
pub fn all_inline(class: &ClusterClass) -> bool {
    patches(class).iter().all(is_inline)
}

fn is_inline(p: &Value) -> bool {
    p.get("definitions")
        .and_then(Value::as_array)
        .is_some_and(|d| !d.is_empty())
}

/// Variable values of `list` (`[{name, value}]`) whose name is in `allowed` (never `builtin`).
fn filtered(list: Option<&Value>, allowed: &dyn Fn(&str) -> bool) -> Map<String, Value> {
    let mut out = Map::new();
    for v in list
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        let Some(name) = v.get("name").and_then(Value::as_str) else {
            continue;
        };
        if name == builtins::BUILTIN || !allowed(name) {
            continue;
        }
        out.insert(
            name.to_string(),
            v.get("value").cloned().unwrap_or(Value::Null),
        );
    }
    out
}

/// Apply the patches of `class` to `desired` (Cluster API's `engine.Apply`); the result says
/// what each patch did to each template.
pub fn apply(
    cluster: &Cluster,
    class: &ClusterClass,
    bp: &Blueprint<'_>,
    desired: &mut DesiredState,
) -> Result<Vec<PatchTrace>, Vec<Diagnostic>> {
    let list = patches(class);
    let mut traces = Vec::with_capacity(list.len());
    if list.is_empty() {
        return Ok(traces);
    }
    let mut req = request::create(cluster, bp, desired);
    let global_builtins = builtins::global(cluster, desired).map_err(|e| vec![e])?;
    let mut item_builtins: Vec<Option<Value>> = Vec::with_capacity(req.items.len());
    for item in &req.items {
        item_builtins.push(builtins::item(cluster, desired, &item.holder).map_err(|e| vec![e])?);
    }
    // Only inline definitions can be read offline; `from: inline` is every spec variable.
    let inline_names: Vec<String> = class
        .spec
        .variables
        .iter()
        .filter_map(|v| v.get("name").and_then(Value::as_str).map(str::to_string))
        .collect();
    let topo = cluster.spec_value.get("topology").unwrap_or(&Value::Null);
    // Each item's merged variables, computed on first use (every inline patch sees the same).
    let mut merged_inline: Option<Vec<std::cell::OnceCell<Value>>> = None;
    for (index, patch) in list.iter().enumerate() {
        let name = patch.get("name").and_then(Value::as_str).unwrap_or("");
        // Variables visible to this patch (`addVariablesForPatch`).
        let inline = is_inline(patch);
        // Every inline patch sees the same variables: compute them (and each item's merge)
        // once.
        if !(inline && merged_inline.is_some()) {
            let allowed = |n: &str| inline && inline_names.iter().any(|x| x == n);
            req.variables = filtered(topo.get("variables"), &allowed);
            if let Some(b) = global_builtins.get(builtins::BUILTIN) {
                req.variables.insert(builtins::BUILTIN.into(), b.clone());
            }
            for (item, b) in req.items.iter_mut().zip(&item_builtins) {
                let overrides = match &item.holder {
                    Holder::InfrastructureCluster => None,
                    Holder::ControlPlane => topo.pointer("/controlPlane/variables/overrides"),
                    Holder::MachineDeployment { topology_name } => {
                        worker_overrides(topo, "machineDeployments", topology_name)
                    }
                    Holder::MachinePool { topology_name } => {
                        worker_overrides(topo, "machinePools", topology_name)
                    }
                };
                item.variables = match (&item.holder, b) {
                    (Holder::InfrastructureCluster, _) | (_, None) => Map::new(),
                    (_, Some(b)) => {
                        let mut m = filtered(overrides, &allowed);
                        if let Some(v) = b.get(builtins::BUILTIN) {
                            m.insert(builtins::BUILTIN.into(), v.clone());
                        }
                        m
                    }
                };
            }
        }
        if inline && merged_inline.is_none() {
            merged_inline = Some(
                req.items
                    .iter()
                    .map(|_| std::cell::OnceCell::new())
                    .collect(),
            );
        }
        let mut generator = InlineGenerator::new(patch);
        generator.merged = merged_inline.as_deref();
        let response = if inline {
            generator.generate(&req)
        } else {
            let ext = patch
                .pointer("/external/generatePatchesExtension")
                .and_then(Value::as_str)
                .unwrap_or("");
            if ext.is_empty() {
                return Err(vec![patch_error(
                    class,
                    cluster,
                    index,
                    name,
                    format!("failed to create patch generator for patch {name:?}"),
                )]);
            }
            return Err(vec![external_patch_error(class, index, name, ext)]);
        };
        let response = response.map_err(|e| {
            vec![patch_error(
                class,
                cluster,
                index,
                name,
                format!("failed to generate patches for patch {name:?}: {e}"),
            )]
        })?;
        apply_response(&mut req, &response).map_err(|(e, template)| {
            let mut d = patch_error(
                class,
                cluster,
                index,
                name,
                format!("failed to apply patches for patch {name:?}: {e}"),
            );
            if let Some(t) = template {
                d = d.with_help(format!("the patch was applied to {t}"));
            }
            vec![d]
        })?;
        traces.push(trace(
            index,
            name,
            &req,
            &response,
            &generator.skipped.borrow(),
        ));
    }
    update_desired_state(&req, cluster.api, desired);
    Ok(traces)
}

/// What one patch did, per request item.
fn trace(
    index: usize,
    name: &str,
    req: &Request,
    response: &[ResponseItem],
    skipped: &[(String, String)],
) -> PatchTrace {
    let items = req
        .items
        .iter()
        .map(|item| {
            let mut ops = Vec::new();
            for r in response.iter().filter(|r| r.uid == item.uid) {
                match r.patch_type {
                    PatchType::JsonPatch => {
                        for op in r.patch.as_array().map_or(&[][..], Vec::as_slice) {
                            let s = |k: &str| op.get(k).and_then(Value::as_str).unwrap_or("");
                            ops.push(format!("{} {}", s("op"), s("path")));
                        }
                    }
                    PatchType::JsonMergePatch => ops.push("merge patch".into()),
                }
            }
            let outcome = if !ops.is_empty() || response.iter().any(|r| r.uid == item.uid) {
                Outcome::Applied(ops)
            } else {
                let why = skipped
                    .iter()
                    .find(|(uid, _)| uid == &item.uid)
                    .map_or("no patch generated", |(_, w)| w.as_str());
                Outcome::Skipped(why.to_string())
            };
            ItemTrace {
                object: item.role.id(),
                kind: item
                    .object
                    .get("kind")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                outcome,
            }
        })
        .collect();
    PatchTrace {
        index,
        name: name.to_string(),
        items,
    }
}

fn worker_overrides<'t>(topo: &'t Value, list: &str, name: &str) -> Option<&'t Value> {
    topo.pointer(&format!("/workers/{list}"))?
        .as_array()?
        .iter()
        .find(|w| w.get("name").and_then(Value::as_str) == Some(name))?
        .pointer("/variables/overrides")
}

/// `applyPatchesToRequest`. The error comes with the template it was applied to (kind,
/// namespace/name and what it is for), when known.
pub fn apply_response(
    req: &mut Request,
    response: &[ResponseItem],
) -> Result<(), (String, Option<String>)> {
    for r in response {
        let Some(item) = req.items.iter_mut().find(|i| i.uid == r.uid) else {
            return Err((
                "unable to find corresponding request item for patch".into(),
                None,
            ));
        };
        let template = format!(
            "{} {}/{} (the template of {})",
            item.object
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or(""),
            crate::plan::metadata_str(&item.object, "namespace"),
            crate::plan::metadata_str(&item.object, "name"),
            item.role.id()
        );
        if let Err(e) = apply_one(item, r) {
            return Err((e, Some(template)));
        }
    }
    Ok(())
}

fn apply_one(item: &mut super::request::RequestItem, r: &ResponseItem) -> Result<(), String> {
    {
        let mut patched = match r.patch_type {
            PatchType::JsonPatch => {
                let p = jsonpatch::decode_patch_value(&r.patch).map_err(|e| {
                    format!("failed to apply patch: error decoding json patch (RFC6902): {e}")
                })?;
                if p.0.is_empty() {
                    return Ok(());
                }
                jsonpatch::apply(&p, &item.object).map_err(|e| {
                    format!("failed to apply patch: error applying json patch (RFC6902): {e}")
                })?
            }
            PatchType::JsonMergePatch => {
                if r.patch.as_object().is_some_and(Map::is_empty) {
                    return Ok(());
                }
                jsonpatch::merge_patch(&item.object, &r.patch).map_err(|e| {
                    format!("failed to apply patch: error applying json merge patch (RFC7386): {e}")
                })?
            }
        };
        if !patched.is_object()
            || patched
                .get("kind")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
        {
            return Err(
                "failed to apply patch to template: Object 'Kind' is missing in the patched object"
                    .into(),
            );
        }
        // Only spec, labels and annotations may change; an absent one keeps the original.
        for keys in [
            &["spec"][..],
            &["metadata", "labels"],
            &["metadata", "annotations"],
        ] {
            if let Some(v) = take_path(&mut patched, keys) {
                set_path(&mut item.object, keys, v);
            }
        }
    }
    Ok(())
}

/// Move the value at `keys` out of `v`.
fn take_path(v: &mut Value, keys: &[&str]) -> Option<Value> {
    let (last, parents) = keys.split_last()?;
    let mut cur = v;
    for k in parents {
        cur = cur.as_object_mut()?.get_mut(*k)?;
    }
    cur.as_object_mut()?.remove(*last)
}

fn get_path<'v>(v: &'v Value, keys: &[&str]) -> Option<&'v Value> {
    keys.iter().try_fold(v, |cur, k| cur.as_object()?.get(*k))
}

/// Labels and annotations every patched object keeps.
const ALWAYS_PRESERVE: &[&[&str]] = &[
    &["metadata", "labels", "cluster.x-k8s.io/cluster-name"],
    &["metadata", "labels", "topology.cluster.x-k8s.io/owned"],
    &[
        "metadata",
        "labels",
        "topology.cluster.x-k8s.io/deployment-name",
    ],
    &["metadata", "labels", "topology.cluster.x-k8s.io/pool-name"],
    &[
        "metadata",
        "annotations",
        "cluster.x-k8s.io/cloned-from-name",
    ],
    &[
        "metadata",
        "annotations",
        "cluster.x-k8s.io/cloned-from-groupkind",
    ],
];

/// What the ControlPlane keeps in addition.
const CONTROL_PLANE_PRESERVE: &[&[&str]] = &[
    &["spec", "machineTemplate", "metadata"],
    &["spec", "machineTemplate", "readinessGates"],
    &["spec", "machineTemplate", "spec", "readinessGates"],
    &["spec", "machineTemplate", "taints"],
    &["spec", "machineTemplate", "spec", "taints"],
    &["spec", "machineTemplate", "infrastructureRef"],
    &["spec", "machineTemplate", "spec", "infrastructureRef"],
    &["spec", "machineTemplate", "nodeDrainTimeout"],
    &["spec", "machineTemplate", "nodeVolumeDetachTimeout"],
    &["spec", "machineTemplate", "nodeDeletionTimeout"],
    &[
        "spec",
        "machineTemplate",
        "spec",
        "deletion",
        "nodeDrainTimeoutSeconds",
    ],
    &[
        "spec",
        "machineTemplate",
        "spec",
        "deletion",
        "nodeVolumeDetachTimeoutSeconds",
    ],
    &[
        "spec",
        "machineTemplate",
        "spec",
        "deletion",
        "nodeDeletionTimeoutSeconds",
    ],
    &["spec", "replicas"],
    &["spec", "version"],
    &["spec", "rollout", "after"],
];

type Fields = &'static [(&'static [&'static str], &'static [&'static str])];

/// `patchObject` fields (main); v1.10 copied only the spec.
const OBJECT_FIELDS: Fields = &[
    (&["spec", "template", "spec"], &["spec"]),
    (
        &["spec", "template", "metadata", "labels"],
        &["metadata", "labels"],
    ),
    (
        &["spec", "template", "metadata", "annotations"],
        &["metadata", "annotations"],
    ),
];
const OBJECT_FIELDS_V1_10: Fields = &[(&["spec", "template", "spec"], &["spec"])];
/// `patchTemplate` fields (main).
const TEMPLATE_FIELDS: Fields = &[
    (&["metadata", "labels"], &["metadata", "labels"]),
    (&["metadata", "annotations"], &["metadata", "annotations"]),
    (&["spec", "template", "spec"], &["spec", "template", "spec"]),
    (
        &["spec", "template", "metadata", "labels"],
        &["spec", "template", "metadata", "labels"],
    ),
    (
        &["spec", "template", "metadata", "annotations"],
        &["spec", "template", "metadata", "annotations"],
    ),
];
const TEMPLATE_FIELDS_V1_10: Fields =
    &[(&["spec", "template", "spec"], &["spec", "template", "spec"])];

/// `CopyFields`: copy each present source path, keeping the preserved fields of `dest`.
fn copy_fields(dest: &mut Value, src: &Value, fields: Fields, preserve: &[&[&str]]) {
    let kept: Vec<(&[&str], Value)> = preserve
        .iter()
        .filter_map(|p| get_path(dest, p).map(|v| (*p, v.clone())))
        .collect();
    for (from, to) in fields {
        if let Some(v) = get_path(src, from) {
            set_path(dest, to, v.clone());
        }
    }
    for (p, v) in kept {
        set_path(dest, p, v);
    }
}

/// `updateDesiredState`.
fn update_desired_state(req: &Request, api: ApiVersion, desired: &mut DesiredState) {
    let main = api == ApiVersion::V1Beta2;
    for item in &req.items {
        let Some(obj) = desired.objects.iter_mut().find(|o| o.role == item.role) else {
            continue;
        };
        let is_template = matches!(
            item.role,
            Role::ControlPlaneInfrastructureMachineTemplate
                | Role::MachineDeploymentBootstrapTemplate(_)
                | Role::MachineDeploymentInfrastructureTemplate(_)
        );
        let fields = match (is_template, main) {
            (true, true) => TEMPLATE_FIELDS,
            (true, false) => TEMPLATE_FIELDS_V1_10,
            (false, true) => OBJECT_FIELDS,
            (false, false) => OBJECT_FIELDS_V1_10,
        };
        let mut preserve: Vec<&[&str]> = ALWAYS_PRESERVE.to_vec();
        if item.role == Role::ControlPlane {
            preserve.extend_from_slice(CONTROL_PLANE_PRESERVE);
        }
        copy_fields(&mut obj.value, &item.object, fields, &preserve);
    }
}

/// The topology name of a worker item, read back from its variables as Cluster API does.
pub fn item_topology_name(vars: &Map<String, Value>, md: bool) -> Option<String> {
    let path = if md {
        "builtin.machineDeployment.topologyName"
    } else {
        "builtin.machinePool.topologyName"
    };
    get_variable_value(vars, path)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(object: Value) -> Request {
        Request {
            variables: Map::new(),
            items: vec![super::super::request::RequestItem {
                uid: "u".into(),
                holder_ref: super::super::request::HolderRef {
                    api_version: "cluster.x-k8s.io/v1beta2".into(),
                    kind: "Cluster".into(),
                    namespace: "ns".into(),
                    name: "c".into(),
                    field_path: "spec.infrastructureRef".into(),
                },
                holder: Holder::InfrastructureCluster,
                role: Role::InfrastructureCluster,
                object,
                variables: Map::new(),
            }],
        }
    }

    #[test]
    fn only_spec_labels_and_annotations_survive() {
        let mut req = request(
            json!({"kind": "K", "metadata": {"name": "n", "labels": {"a": "1"}}, "spec": {"x": 1}}),
        );
        let r = ResponseItem {
            uid: "u".into(),
            patch_type: PatchType::JsonPatch,
            patch: json!([
                {"op": "replace", "path": "/metadata/name", "value": "renamed"},
                {"op": "add", "path": "/status", "value": {"ready": true}},
                {"op": "remove", "path": "/metadata/labels"},
                {"op": "replace", "path": "/spec/x", "value": 2},
            ]),
        };
        assert_eq!(apply_response(&mut req, &[r]), Ok(()));
        // The removed labels map is ignored (absent paths are skipped).
        assert_eq!(
            req.items[0].object,
            json!({"kind": "K", "metadata": {"name": "n", "labels": {"a": "1"}}, "spec": {"x": 2}})
        );
    }

    #[test]
    fn merge_patch_and_unknown_uid() {
        let mut req = request(json!({"kind": "K", "spec": {"x": 1, "y": 2}}));
        let ok = ResponseItem {
            uid: "u".into(),
            patch_type: PatchType::JsonMergePatch,
            patch: json!({"spec": {"y": null, "z": 3}}),
        };
        assert_eq!(apply_response(&mut req, &[ok]), Ok(()));
        assert_eq!(
            req.items[0].object,
            json!({"kind": "K", "spec": {"x": 1, "z": 3}})
        );
        let bad = ResponseItem {
            uid: "nope".into(),
            patch_type: PatchType::JsonPatch,
            patch: json!([]),
        };
        assert_eq!(
            apply_response(&mut req, &[bad]),
            Err((
                "unable to find corresponding request item for patch".into(),
                None
            ))
        );
    }

    #[test]
    fn copy_fields_keeps_preserved() {
        let mut dest = json!({"metadata": {"labels": {"cluster.x-k8s.io/cluster-name": "c", "a": "1"}}, "spec": {"x": 1}});
        let src =
            json!({"spec": {"template": {"spec": {"y": 2}, "metadata": {"labels": {"b": "2"}}}}});
        copy_fields(&mut dest, &src, OBJECT_FIELDS, ALWAYS_PRESERVE);
        assert_eq!(
            dest,
            json!({"metadata": {"labels": {"cluster.x-k8s.io/cluster-name": "c", "b": "2"}}, "spec": {"y": 2}})
        );
    }
}
