/*!
The topology-mutation handlers of Cluster API's test extension
(`test/extension/handlers/topologymutation/handler.go`), rewritten over JSON: GeneratePatches,
ValidateTopology and DiscoverVariables, with the pieces of `exp/runtime/topologymutation` they rely
on (variable merging and lookup, the template walk, the JSON Patch of each template).

GeneratePatches walks the request items like `WalkTemplates` with `FailForUnknownTypes`: the
variables of the item are merged over the global ones (`builtin` merged deeply), the template is
"decoded" (only the kinds upstream's scheme registers are accepted; anything else fails the whole
call with the decoder's message), mutated by kind and version exactly as upstream does, and
answered with a JSON Patch from the original to the mutated template. The first error makes the
response `status: Failure` with that message; items already answered stay in the response.

Deliberate differences from upstream, besides those of the JSON Patch (see `jsonpatch`):
- templates are not decoded into Go structs: fields upstream's types do not know are kept, values
  of the wrong type are not rejected, and nothing is defaulted or dropped by a round trip;
- the decoder's error text for an unknown kind names the scheme by the call site upstream's scheme
  was created at (`…/handler.go:67`), as a `-trimpath` build of the extension reports it;
- errors from decoding object variables (`files`, …) imitate Go's `encoding/json` wording only
  roughly; variable paths with `[i]` indexes are not supported (the handlers use none).
*/

// Shared by the test binary and the example; each uses a subset.
#![allow(dead_code)]

use serde_json::{Map, Value, json};

use super::jsonpatch::{create_patch, patch_bytes};
use super::kind;
use topoplan::go::base64::encode as base64_encode;
use topoplan::go::json::kind_name;

const HOOKS_API_VERSION: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";
const INFRA: &str = "infrastructure.cluster.x-k8s.io";
const BOOTSTRAP: &str = "bootstrap.cluster.x-k8s.io";
const CONTROLPLANE: &str = "controlplane.cluster.x-k8s.io";

/// Where upstream's scheme was created, as its "not registered" errors name it.
const SCHEME_NAME: &str =
    "sigs.k8s.io/cluster-api/test/extension/handlers/topologymutation/handler.go:67";

/// Kinds of the scheme the upstream handler decodes with, by group and version.
const REGISTERED: &[(&str, &str, &[&str])] = &[
    (
        INFRA,
        "v1beta1",
        &[
            "DevCluster",
            "DevClusterTemplate",
            "DevMachine",
            "DevMachineTemplate",
        ],
    ),
    (
        INFRA,
        "v1beta2",
        &[
            "DevCluster",
            "DevClusterTemplate",
            "DevMachine",
            "DevMachinePool",
            "DevMachinePoolTemplate",
            "DevMachineTemplate",
        ],
    ),
    (
        BOOTSTRAP,
        "v1beta1",
        &["KubeadmConfig", "KubeadmConfigTemplate"],
    ),
    (
        BOOTSTRAP,
        "v1beta2",
        &["KubeadmConfig", "KubeadmConfigTemplate"],
    ),
    (
        CONTROLPLANE,
        "v1beta1",
        &["KubeadmControlPlane", "KubeadmControlPlaneTemplate"],
    ),
    (
        CONTROLPLANE,
        "v1beta2",
        &["KubeadmControlPlane", "KubeadmControlPlaneTemplate"],
    ),
];

const LABEL: (&str, &str) = ("top-level-label-1", "top-level-label-value-1");
const ANNOTATION: (&str, &str) = ("top-level-annotation-1", "top-level-annotation-value-1");

/// Variables by name.
pub type Vars = Map<String, Value>;

/// A failed variable lookup; "not found" is told apart because most handlers skip those.
#[derive(Debug, Clone, PartialEq)]
pub struct VarError {
    pub not_found: bool,
    pub message: String,
}

impl std::fmt::Display for VarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn not_found(message: String) -> VarError {
    VarError {
        not_found: true,
        message,
    }
}

fn other(message: impl Into<String>) -> VarError {
    VarError {
        not_found: false,
        message: message.into(),
    }
}

/// A request's variable list by name (a later duplicate wins).
pub fn to_map(list: &Value) -> Vars {
    let mut out = Vars::new();
    for v in list.as_array().into_iter().flatten() {
        let name = v["name"].as_str().unwrap_or_default();
        out.insert(name.to_string(), v["value"].clone());
    }
    out
}

/// The merge of variable maps, later maps winning, except that `builtin` values are merged
/// field by field (upstream decodes each into the same `Builtins` struct).
pub fn merge_variable_maps(maps: &[&Vars]) -> Result<Vars, String> {
    let mut out = Vars::new();
    for map in maps {
        for (name, value) in *map {
            if name == "builtin"
                && let Some(prev) = out.get_mut(name)
            {
                for v in [&*prev, value] {
                    if !(v.is_object() || v.is_null()) {
                        return Err(format!(
                            "failed to merge builtin variables: failed to unmarshal builtin variable: json: cannot unmarshal {} into Go value of type v1alpha1.Builtins",
                            kind_name(v)
                        ));
                    }
                }
                merge_deep(prev, value);
                continue;
            }
            out.insert(name.clone(), value.clone());
        }
    }
    Ok(out)
}

/// Merge `src` into `dst` the way Go decodes JSON into an existing struct: objects merge key by
/// key, anything else replaces; a `null` leaves the destination alone.
fn merge_deep(dst: &mut Value, src: &Value) {
    match (dst, src) {
        (_, Value::Null) => {}
        (Value::Object(d), Value::Object(s)) => {
            for (k, v) in s {
                match d.get_mut(k) {
                    Some(existing) => merge_deep(existing, v),
                    None => {
                        d.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (d, s) => *d = s.clone(),
    }
}

/// The value at a dotted path (`builtin.controlPlane.version`), like `GetVariable`.
pub fn get_variable<'a>(vars: &'a Vars, path: &str) -> Result<&'a Value, VarError> {
    let mut segs = path.split('.');
    let name = segs.next().unwrap_or_default();
    let Some(mut cur) = vars.get(name) else {
        return Err(not_found(format!("variable {name:?} does not exist")));
    };
    for seg in segs {
        match cur.get(seg) {
            Some(next) if cur.is_object() => cur = next,
            _ => {
                return Err(not_found(format!(
                    "variable {path:?} does not exist: failed to lookup segment {seg:?}"
                )));
            }
        }
    }
    Ok(cur)
}

/// A string variable, like `GetStringVariable` (a non-string fails as Go's `Unquote` does).
pub fn get_string(vars: &Vars, path: &str) -> Result<String, VarError> {
    match get_variable(vars, path)? {
        Value::String(s) => Ok(s.clone()),
        _ => Err(other("invalid syntax")),
    }
}

fn unmarshal_error(raw: &Value, into: &str, detail: String) -> VarError {
    other(format!(
        "failed to unmarshal variable json {:?} into {into}: json: {detail}",
        raw.to_string()
    ))
}

/// A Go string field: `null` is the empty string.
fn go_string(v: &Value, field: &str) -> Result<String, String> {
    match v {
        Value::Null => Ok(String::new()),
        Value::String(s) => Ok(s.clone()),
        other => Err(format!(
            "cannot unmarshal {} into Go {field} of type string",
            kind_name(other)
        )),
    }
}

/// `preKubeadmCommands`: a list of strings (missing: not found; `null`: empty).
fn get_string_list(vars: &Vars, name: &str) -> Result<Vec<String>, VarError> {
    let raw = get_variable(vars, name)?;
    let err = |d| unmarshal_error(raw, "&[]", d);
    match raw {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items
            .iter()
            .map(|v| go_string(v, "value").map_err(err))
            .collect(),
        v => Err(err(format!(
            "cannot unmarshal {} into Go value of type []string",
            kind_name(v)
        ))),
    }
}

/// `kubeadmConfigTemplateAnnotations`: a map of strings, in key order.
fn get_string_map(vars: &Vars, name: &str) -> Result<Vec<(String, String)>, VarError> {
    let raw = get_variable(vars, name)?;
    let err = |d| unmarshal_error(raw, "&map[]", d);
    match raw {
        Value::Null => Ok(Vec::new()),
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| Ok((k.clone(), go_string(v, "value").map_err(err)?)))
            .collect(),
        v => Err(err(format!(
            "cannot unmarshal {} into Go value of type map[string]string",
            kind_name(v)
        ))),
    }
}

/// One entry of the `files` variable.
#[derive(Debug, Default, Clone, PartialEq)]
struct FileVariable {
    path: String,
    content: String,
    content_format: String,
}

/// `files`: a list of `{path, content, contentFormat}` (keys matched case-insensitively, as Go
/// does; unknown keys ignored).
fn get_files(vars: &Vars) -> Result<Vec<FileVariable>, VarError> {
    let raw = get_variable(vars, "files")?;
    let err = |d| unmarshal_error(raw, "&[]", d);
    let items = match raw {
        Value::Null => return Ok(Vec::new()),
        Value::Array(items) => items,
        v => {
            return Err(err(format!(
                "cannot unmarshal {} into Go value of type []topologymutation.fileVariable",
                kind_name(v)
            )));
        }
    };
    let mut out = Vec::new();
    for item in items {
        let mut f = FileVariable::default();
        match item {
            Value::Null => {}
            Value::Object(m) => {
                for (k, v) in m {
                    let slot = match k.to_ascii_lowercase().as_str() {
                        "path" => &mut f.path,
                        "content" => &mut f.content,
                        "contentformat" => &mut f.content_format,
                        _ => continue,
                    };
                    let field = format!("struct field fileVariable.{k}");
                    *slot = go_string(v, &field).map_err(err)?;
                }
            }
            v => {
                return Err(err(format!(
                    "cannot unmarshal {} into Go value of type topologymutation.fileVariable",
                    kind_name(v)
                )));
            }
        }
        out.push(f);
    }
    Ok(out)
}

/// A KubeadmConfig file written by the handler: root-owned, mode 0600; empty fields are left
/// out as Go's `omitempty` does.
fn kubeadm_file(f: &FileVariable) -> Value {
    let mut m = Map::new();
    m.insert("path".into(), json!(f.path));
    if !f.content.is_empty() {
        m.insert("content".into(), json!(f.content));
    }
    if !f.content_format.is_empty() {
        m.insert("contentFormat".into(), json!(f.content_format));
    }
    m.insert("owner".into(), json!("root:root"));
    m.insert("permissions".into(), json!("0600"));
    Value::Object(m)
}

/// The field at `path`, if every step exists.
fn get<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |cur, seg| cur.get(*seg))
}

/// The object at `path`, created (over a missing or null value) as Go's typed structs are.
fn object_at<'a>(v: &'a mut Value, path: &[&str]) -> &'a mut Value {
    let mut cur = v;
    for seg in path {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        cur = &mut cur[*seg];
    }
    if !cur.is_object() {
        *cur = Value::Object(Map::new());
    }
    cur
}

/// Set `path` (the last segment a key of the object at the parent path) to `value`.
fn set(v: &mut Value, path: &[&str], value: Value) {
    if let Some((last, parents)) = path.split_last() {
        object_at(v, parents)[*last] = value;
    }
}

/// Append `items` to the list at `path`, creating it if missing.
fn append(v: &mut Value, path: &[&str], items: Vec<Value>) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let slot = &mut object_at(v, parents)[*last];
    match slot {
        Value::Array(list) => list.extend(items),
        _ => *slot = Value::Array(items),
    }
}

/// Whether `spec.template.spec.backend.docker` is set: upstream only touches docker fields then.
fn has_docker_backend(obj: &Value) -> bool {
    get(obj, &["spec", "template", "spec", "backend", "docker"]).is_some_and(|d| !d.is_null())
}

fn arg(name: &str, value: &str) -> Value {
    json!({"name": name, "value": value})
}

/// `intstr.Parse`: a 32-bit integer string is a number, anything else stays a string.
pub fn int_or_string(s: &str) -> Value {
    match s.parse::<i32>() {
        Ok(i) => json!(i),
        Err(_) => json!(s),
    }
}

fn patch_dev_cluster_template(obj: &mut Value, vars: &Vars) -> Result<(), String> {
    let repo = match get_string(vars, "imageRepository") {
        Ok(r) => r,
        Err(e) if e.not_found => return Ok(()),
        Err(e) => {
            return Err(format!(
                "could not set DevClusterTemplate loadBalancer imageRepository: {e}"
            ));
        }
    };
    set(
        obj,
        &["spec", "template", "metadata", "labels", LABEL.0],
        json!(LABEL.1),
    );
    set(
        obj,
        &["spec", "template", "metadata", "annotations", ANNOTATION.0],
        json!(ANNOTATION.1),
    );
    if has_docker_backend(obj) {
        set(
            obj,
            &[
                "spec",
                "template",
                "spec",
                "backend",
                "docker",
                "loadBalancer",
                "imageRepository",
            ],
            json!(repo),
        );
    }
    Ok(())
}

fn patch_kubeadm_control_plane_template(
    obj: &mut Value,
    vars: &Vars,
    v1beta2: bool,
) -> Result<(), String> {
    let cp_version = get_string(vars, "builtin.controlPlane.version").map_err(|e| {
        format!(
            "could not patch KubeadmControlPlane: could not get builtin.controlPlane.version: {e}"
        )
    })?;
    let node_labels = format!("kubernetesVersion={}", cp_version.replace('+', "_"));
    const SPEC: [&str; 4] = ["spec", "template", "spec", "kubeadmConfigSpec"];
    let cc = |c: &'static str| {
        [
            SPEC[0],
            SPEC[1],
            SPEC[2],
            SPEC[3],
            "clusterConfiguration",
            c,
            "extraArgs",
        ]
    };
    let kubelet = |c: &'static str| {
        [
            SPEC[0],
            SPEC[1],
            SPEC[2],
            SPEC[3],
            c,
            "nodeRegistration",
            "kubeletExtraArgs",
        ]
    };

    // 1) Labels, annotations and extra args.
    set(
        obj,
        &["spec", "template", "metadata", "labels", LABEL.0],
        json!(LABEL.1),
    );
    set(
        obj,
        &["spec", "template", "metadata", "annotations", ANNOTATION.0],
        json!(ANNOTATION.1),
    );
    for component in ["apiServer", "controllerManager", "scheduler"] {
        let path = cc(component);
        if v1beta2 {
            append(obj, &path, vec![arg("v", "2")]);
        } else {
            set(obj, &[&path[..], &["v"]].concat(), json!("2"));
        }
    }
    for config in ["initConfiguration", "joinConfiguration"] {
        let path = kubelet(config);
        if v1beta2 {
            append(
                obj,
                &path,
                vec![arg("v", "2"), arg("node-labels", &node_labels)],
            );
        } else {
            set(obj, &[&path[..], &["v"]].concat(), json!("2"));
            set(
                obj,
                &[&path[..], &["node-labels"]].concat(),
                json!(node_labels),
            );
        }
    }

    // 2) Rollout maxSurge from kubeadmControlPlaneMaxSurge, if set.
    let max_surge = match get_string(vars, "kubeadmControlPlaneMaxSurge") {
        Ok(s) => s,
        Err(e) if e.not_found => String::new(),
        Err(e) => {
            return Err(format!(
                "could not set KubeadmControlPlaneTemplate MaxSurge: {e}"
            ));
        }
    };
    if !max_surge.is_empty() {
        let value = int_or_string(&max_surge);
        if v1beta2 {
            set(
                obj,
                &["spec", "template", "spec", "rollout", "strategy", "type"],
                json!("RollingUpdate"),
            );
            set(
                obj,
                &[
                    "spec",
                    "template",
                    "spec",
                    "rollout",
                    "strategy",
                    "rollingUpdate",
                    "maxSurge",
                ],
                value,
            );
        } else {
            set(
                obj,
                &[
                    "spec",
                    "template",
                    "spec",
                    "rolloutStrategy",
                    "rollingUpdate",
                    "maxSurge",
                ],
                value,
            );
        }
    }

    // 3) files, 4) preKubeadmCommands.
    append_files_and_commands(obj, vars, &SPEC, "KubeadmControlPlaneTemplate")?;
    Ok(())
}

/// Append the `files` and `preKubeadmCommands` variables under `spec` (a kubeadm config spec),
/// as both kubeadm handlers do. `what` names the template in the files error; upstream words
/// the commands error as the control plane template's in both handlers.
fn append_files_and_commands(
    obj: &mut Value,
    vars: &Vars,
    spec: &[&str],
    what: &str,
) -> Result<(), String> {
    let files = match get_files(vars) {
        Ok(f) => f,
        Err(e) if e.not_found => Vec::new(),
        Err(e) => return Err(format!("could not set {what} files: {e}")),
    };
    if !files.is_empty() {
        append(
            obj,
            &[spec, &["files"]].concat(),
            files.iter().map(kubeadm_file).collect(),
        );
    }
    let commands = match get_string_list(vars, "preKubeadmCommands") {
        Ok(c) => c,
        Err(e) if e.not_found => Vec::new(),
        Err(e) => {
            return Err(format!(
                "could not set KubeadmControlPlaneTemplate preKubeadmCommands: {e}"
            ));
        }
    };
    if !commands.is_empty() {
        append(
            obj,
            &[spec, &["preKubeadmCommands"]].concat(),
            commands.into_iter().map(Value::String).collect(),
        );
    }
    Ok(())
}

fn patch_kubeadm_config_template(
    obj: &mut Value,
    vars: &Vars,
    v1beta2: bool,
) -> Result<(), String> {
    set(obj, &["metadata", "labels", LABEL.0], json!(LABEL.1));
    set(
        obj,
        &["metadata", "annotations", ANNOTATION.0],
        json!(ANNOTATION.1),
    );
    const SPEC: [&str; 3] = ["spec", "template", "spec"];
    let kubelet = [
        SPEC[0],
        SPEC[1],
        SPEC[2],
        "joinConfiguration",
        "nodeRegistration",
        "kubeletExtraArgs",
    ];
    if v1beta2 {
        append(obj, &kubelet, vec![arg("v", "2")]);
    } else {
        set(obj, &[&kubelet[..], &["v"]].concat(), json!("2"));
    }

    append_files_and_commands(obj, vars, &SPEC, "KubeadmConfigTemplate")?;

    let annotations = match get_string_map(vars, "kubeadmConfigTemplateAnnotations") {
        Ok(a) => a,
        Err(e) if e.not_found => Vec::new(),
        Err(e) => {
            return Err(format!(
                "could not set KubeadmControlPlaneTemplate kubeadmConfigTemplateAnnotations: {e}"
            ));
        }
    };
    for (k, v) in annotations {
        set(obj, &["metadata", "annotations", &k], json!(v));
    }
    Ok(())
}

/// The kind image for a version variable, or the parse error worded for `what`.
fn image_for(version: &str, what: &str) -> Result<String, String> {
    let v = kind::parse_tolerant(version)
        .map_err(|e| format!("could not parse {what} version: {e}"))?;
    Ok(kind::image_for(&v))
}

fn set_custom_image(obj: &mut Value, image: String) {
    if has_docker_backend(obj) {
        set(
            obj,
            &[
                "spec",
                "template",
                "spec",
                "backend",
                "docker",
                "customImage",
            ],
            json!(image),
        );
    }
}

fn patch_dev_machine_template(obj: &mut Value, vars: &Vars) -> Result<(), String> {
    set(obj, &["metadata", "labels", LABEL.0], json!(LABEL.1));
    set(
        obj,
        &["metadata", "annotations", ANNOTATION.0],
        json!(ANNOTATION.1),
    );

    // A control plane version is only present for the control plane's machines.
    match get_string(vars, "builtin.controlPlane.version") {
        Ok(version) => {
            set_custom_image(obj, image_for(&version, "control plane")?);
            return Ok(());
        }
        Err(e) if !e.not_found => {
            return Err(format!(
                "could not set customImage to control plane devMachineTemplate: {e}"
            ));
        }
        Err(_) => {}
    }
    let version = match get_string(vars, "builtin.machineDeployment.version") {
        Ok(v) => v,
        Err(e) if e.not_found => {
            return Err("no version variables found for DevMachineTemplate patch".into());
        }
        Err(e) => {
            return Err(format!(
                "could not set customImage to MachineDeployment DevMachineTemplate: {e}"
            ));
        }
    };
    set_custom_image(obj, image_for(&version, "MachineDeployment")?);
    Ok(())
}

fn patch_dev_machine_pool_template(obj: &mut Value, vars: &Vars) -> Result<(), String> {
    set(
        obj,
        &["spec", "template", "metadata", "labels", LABEL.0],
        json!(LABEL.1),
    );
    set(
        obj,
        &["spec", "template", "metadata", "annotations", ANNOTATION.0],
        json!(ANNOTATION.1),
    );
    let version = match get_string(vars, "builtin.machinePool.version") {
        Ok(v) => v,
        Err(e) if e.not_found => {
            return Err("no version variables found for DevMachinePoolTemplate patch".into());
        }
        Err(e) => {
            return Err(format!(
                "could not set customImage to MachinePool DevMachinePoolTemplate: {e}"
            ));
        }
    };
    set_custom_image(obj, image_for(&version, "MachinePool")?);
    Ok(())
}

/// Group, version and kind of a template, accepted only if upstream's scheme knows it.
fn decode(obj: &Value) -> Result<(String, String, String), String> {
    let raw = obj.to_string();
    let kind = obj["kind"].as_str().unwrap_or_default();
    let api_version = obj["apiVersion"].as_str().unwrap_or_default();
    let (group, version) = parse_group_version(api_version)?;
    if kind.is_empty() {
        return Err(format!("Object 'Kind' is missing in '{raw}'"));
    }
    if version.is_empty() {
        return Err(format!("Object 'apiVersion' is missing in '{raw}'"));
    }
    let known = REGISTERED.iter().any(|(g, v, kinds)| {
        *g == group
            && *v == version
            && kinds
                .iter()
                .any(|k| *k == kind || kind.strip_suffix("List") == Some(*k))
    });
    if !known {
        return Err(format!(
            "no kind {kind:?} is registered for version {api_version:?} in scheme {SCHEME_NAME:?}"
        ));
    }
    Ok((group, version, kind.to_string()))
}

/// `schema.ParseGroupVersion`: `""`, `version` or `group/version`.
fn parse_group_version(s: &str) -> Result<(String, String), String> {
    match s.split('/').collect::<Vec<_>>().as_slice() {
        [""] => Ok((String::new(), String::new())),
        [v] => Ok((String::new(), v.to_string())),
        [g, v] => Ok((g.to_string(), v.to_string())),
        _ => Err(format!("unexpected GroupVersion string: {s}")),
    }
}

/// Mutate a decoded template by kind; errors are wrapped with the kind, as upstream does.
fn mutate(
    group: &str,
    version: &str,
    kind: &str,
    obj: &mut Value,
    vars: &Vars,
) -> Result<(), String> {
    let v1beta2 = version == "v1beta2";
    let result = match (group, kind) {
        (INFRA, "DevClusterTemplate") if v1beta2 => patch_dev_cluster_template(obj, vars),
        (CONTROLPLANE, "KubeadmControlPlaneTemplate") => {
            patch_kubeadm_control_plane_template(obj, vars, v1beta2)
        }
        (BOOTSTRAP, "KubeadmConfigTemplate") => patch_kubeadm_config_template(obj, vars, v1beta2),
        (INFRA, "DevMachineTemplate") if v1beta2 => patch_dev_machine_template(obj, vars),
        (INFRA, "DevMachinePoolTemplate") if v1beta2 => patch_dev_machine_pool_template(obj, vars),
        _ => Ok(()),
    };
    result.map_err(|e| format!("error patching {kind}: {e}"))
}

/// The GeneratePatches answer for a request.
pub fn generate_patches(req: &Value) -> Value {
    let mut items = Vec::new();
    let fail = |message: String, items: Vec<Value>| {
        json!({"apiVersion": HOOKS_API_VERSION, "kind": "GeneratePatchesResponse",
               "status": "Failure", "message": message, "items": items})
    };
    let global = to_map(&req["variables"]);
    for item in req["items"].as_array().into_iter().flatten() {
        let vars = match merge_variable_maps(&[&global, &to_map(&item["variables"])]) {
            Ok(v) => v,
            Err(e) => return fail(e, items),
        };
        let original = &item["object"];
        let (group, version, kind) = match decode(original) {
            Ok(gvk) => gvk,
            Err(e) => return fail(e, items),
        };
        let holder_api_version = item["holderReference"]["apiVersion"]
            .as_str()
            .unwrap_or_default();
        if let Err(e) = parse_group_version(holder_api_version) {
            return fail(
                format!(
                    "error generating patches - HolderReference apiVersion {holder_api_version:?} is not in valid format: {e}"
                ),
                items,
            );
        }
        let mut modified = original.clone();
        if let Err(e) = mutate(&group, &version, &kind, &mut modified, &vars) {
            return fail(e, items);
        }
        let patch = patch_bytes(&create_patch(original, &modified));
        items.push(json!({
            "uid": item["uid"].as_str().unwrap_or_default(),
            "patchType": "JSONPatch",
            "patch": base64_encode(&patch),
        }));
    }
    json!({"apiVersion": HOOKS_API_VERSION, "kind": "GeneratePatchesResponse",
           "status": "Success", "items": items})
}

/// The ValidateTopology answer: upstream only checks that the hook is called.
pub fn validate_topology(_req: &Value) -> Value {
    json!({"apiVersion": HOOKS_API_VERSION, "kind": "ValidateTopologyResponse", "status": "Success"})
}

/// The DiscoverVariables answer: the five variables upstream announces.
pub fn discover_variables(_req: &Value) -> Value {
    let image_repository_metadata = json!({
        "labels": {"objects": "DevCluster"},
        "annotations": {"description": "Gets set at DevCluster.Spec.Template.Spec.Backend.Docker.LoadBalancer.ImageRepository"}
    });
    json!({"apiVersion": HOOKS_API_VERSION, "kind": "DiscoverVariablesResponse", "status": "Success",
        "variables": [
        {"name": "kubeadmControlPlaneMaxSurge", "required": false,
         "schema": {"openAPIV3Schema": {
            "type": "string", "default": "", "example": "0",
            "description": "kubeadmControlPlaneMaxSurge is the maximum number of control planes that can be scheduled above or under the desired number of control plane machines.",
            "x-kubernetes-validations": [{"rule": "self == \"\" || self != \"\"",
                "messageExpression": "'just a test expression, got %s'.format([self])"}]}}},
        {"name": "files", "required": false,
         "schema": {"openAPIV3Schema": {"type": "array", "items": {"type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"},
                           "contentFormat": {"type": "string"}}}}}},
        {"name": "preKubeadmCommands", "required": false,
         "schema": {"openAPIV3Schema": {"type": "array", "items": {"type": "string"}}}},
        {"name": "kubeadmConfigTemplateAnnotations", "required": false,
         "schema": {"openAPIV3Schema": {"type": "object", "additionalProperties": {"type": "string"}}}},
        {"name": "imageRepository", "required": true,
         "schema": {"openAPIV3Schema": {"type": "string", "example": "kindest",
            "x-metadata": image_repository_metadata.clone()}},
         "deprecatedV1Beta1Metadata": image_repository_metadata}
    ]})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(v: Value) -> Vars {
        v.as_object().cloned().expect("object")
    }

    fn mutated(obj: Value, v: Value) -> Result<Value, String> {
        let mut obj = obj;
        let (g, ver, k) = decode(&obj)?;
        mutate(&g, &ver, &k, &mut obj, &vars(v))?;
        Ok(obj)
    }

    #[test]
    fn builtin_merges_deeply_and_item_variables_win() {
        let global = vars(
            json!({"builtin": {"cluster": {"name": "c", "topology": {"version": "v1"}}},
                                 "x": 1}),
        );
        let item = vars(json!({"builtin": {"cluster": {"topology": {"class": "k"}},
                                           "controlPlane": {"version": "v2"}}, "x": 2}));
        assert_eq!(
            Value::Object(merge_variable_maps(&[&global, &item]).expect("merge")),
            json!({"builtin": {"cluster": {"name": "c", "topology": {"version": "v1", "class": "k"}},
                               "controlPlane": {"version": "v2"}}, "x": 2})
        );
        let bad = vars(json!({"builtin": "nope"}));
        assert!(merge_variable_maps(&[&global, &bad]).is_err());
        // Only a second builtin is decoded.
        assert!(merge_variable_maps(&[&bad]).is_ok());
    }

    #[test]
    fn variable_lookup_errors() {
        let v = vars(json!({"builtin": {"controlPlane": {"version": "v1.30.0"}}, "n": 3}));
        assert_eq!(
            get_string(&v, "builtin.controlPlane.version").expect("ok"),
            "v1.30.0"
        );
        let e = get_string(&v, "builtin.machineDeployment.version").expect_err("missing");
        assert!(e.not_found);
        assert_eq!(
            e.message,
            "variable \"builtin.machineDeployment.version\" does not exist: failed to lookup segment \"machineDeployment\""
        );
        let e = get_string(&v, "nope").expect_err("missing");
        assert_eq!(e.message, "variable \"nope\" does not exist");
        let e = get_string(&v, "n").expect_err("number");
        assert!(!e.not_found);
        assert_eq!(e.message, "invalid syntax");
    }

    #[test]
    fn int_or_string_parses_like_intstr() {
        assert_eq!(int_or_string("1"), json!(1));
        assert_eq!(int_or_string("-2"), json!(-2));
        assert_eq!(int_or_string("+3"), json!(3));
        assert_eq!(int_or_string("33%"), json!("33%"));
        assert_eq!(int_or_string("4294967296"), json!("4294967296"));
    }

    #[test]
    fn kcp_v1beta2_appends_args_and_sets_rollout() {
        let obj = json!({"apiVersion": "controlplane.cluster.x-k8s.io/v1beta2",
            "kind": "KubeadmControlPlaneTemplate", "metadata": {"name": "cp"},
            "spec": {"template": {"spec": {"kubeadmConfigSpec": {
                "clusterConfiguration": {"apiServer": {"extraArgs": [{"name": "a", "value": "b"}]}},
                "preKubeadmCommands": ["one"]}}}}});
        let out = mutated(
            obj,
            json!({"builtin": {"controlPlane": {"version": "v1.34.1+k3s"}},
                   "kubeadmControlPlaneMaxSurge": "1",
                   "files": [{"path": "/p", "content": "c"}],
                   "preKubeadmCommands": ["two"]}),
        )
        .expect("mutated");
        let spec = &out["spec"]["template"]["spec"];
        let kcs = &spec["kubeadmConfigSpec"];
        assert_eq!(
            kcs["clusterConfiguration"]["apiServer"]["extraArgs"],
            json!([{"name": "a", "value": "b"}, {"name": "v", "value": "2"}])
        );
        assert_eq!(
            kcs["clusterConfiguration"]["scheduler"]["extraArgs"],
            json!([{"name": "v", "value": "2"}])
        );
        assert_eq!(
            kcs["joinConfiguration"]["nodeRegistration"]["kubeletExtraArgs"],
            json!([{"name": "v", "value": "2"},
                   {"name": "node-labels", "value": "kubernetesVersion=v1.34.1_k3s"}])
        );
        assert_eq!(
            spec["rollout"],
            json!({"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}})
        );
        assert_eq!(
            kcs["files"],
            json!([{"path": "/p", "content": "c", "owner": "root:root", "permissions": "0600"}])
        );
        assert_eq!(kcs["preKubeadmCommands"], json!(["one", "two"]));
        assert_eq!(
            out["spec"]["template"]["metadata"],
            json!({"labels": {"top-level-label-1": "top-level-label-value-1"},
                   "annotations": {"top-level-annotation-1": "top-level-annotation-value-1"}})
        );
    }

    #[test]
    fn kcp_v1beta1_uses_maps_and_rollout_strategy() {
        let obj = json!({"apiVersion": "controlplane.cluster.x-k8s.io/v1beta1",
            "kind": "KubeadmControlPlaneTemplate", "spec": {"template": {"spec": {}}}});
        let out = mutated(
            obj,
            json!({"builtin": {"controlPlane": {"version": "v1.30.0"}},
                   "kubeadmControlPlaneMaxSurge": "50%"}),
        )
        .expect("mutated");
        let spec = &out["spec"]["template"]["spec"];
        assert_eq!(
            spec["kubeadmConfigSpec"]["clusterConfiguration"]["controllerManager"]["extraArgs"],
            json!({"v": "2"})
        );
        assert_eq!(
            spec["kubeadmConfigSpec"]["initConfiguration"]["nodeRegistration"]["kubeletExtraArgs"],
            json!({"v": "2", "node-labels": "kubernetesVersion=v1.30.0"})
        );
        assert_eq!(
            spec["rolloutStrategy"],
            json!({"rollingUpdate": {"maxSurge": "50%"}})
        );
    }

    #[test]
    fn kcp_needs_the_control_plane_version() {
        let obj = json!({"apiVersion": "controlplane.cluster.x-k8s.io/v1beta2",
            "kind": "KubeadmControlPlaneTemplate"});
        assert_eq!(
            mutated(obj, json!({})).expect_err("no version"),
            "error patching KubeadmControlPlaneTemplate: could not patch KubeadmControlPlane: could not get builtin.controlPlane.version: variable \"builtin\" does not exist"
        );
    }

    #[test]
    fn kubeadm_config_template_both_versions() {
        let v = json!({"files": [{"Path": "/f", "contentFormat": "cloud-config"}],
                       "preKubeadmCommands": ["echo"],
                       "kubeadmConfigTemplateAnnotations": {"a": "b"}});
        let out = mutated(
            json!({"apiVersion": "bootstrap.cluster.x-k8s.io/v1beta2", "kind": "KubeadmConfigTemplate",
                   "metadata": {"annotations": {"keep": "me"}}}),
            v.clone(),
        )
        .expect("v1beta2");
        assert_eq!(
            out["metadata"],
            json!({"labels": {"top-level-label-1": "top-level-label-value-1"},
                   "annotations": {"keep": "me", "a": "b",
                                   "top-level-annotation-1": "top-level-annotation-value-1"}})
        );
        let spec = &out["spec"]["template"]["spec"];
        assert_eq!(
            spec["joinConfiguration"]["nodeRegistration"]["kubeletExtraArgs"],
            json!([{"name": "v", "value": "2"}])
        );
        assert_eq!(
            spec["files"],
            json!([{"path": "/f", "contentFormat": "cloud-config", "owner": "root:root",
                    "permissions": "0600"}])
        );
        assert_eq!(spec["preKubeadmCommands"], json!(["echo"]));
        let out = mutated(
            json!({"apiVersion": "bootstrap.cluster.x-k8s.io/v1beta1", "kind": "KubeadmConfigTemplate"}),
            v,
        )
        .expect("v1beta1");
        assert_eq!(
            out["spec"]["template"]["spec"]["joinConfiguration"]["nodeRegistration"]["kubeletExtraArgs"],
            json!({"v": "2"})
        );
        let e = mutated(
            json!({"apiVersion": "bootstrap.cluster.x-k8s.io/v1beta2", "kind": "KubeadmConfigTemplate"}),
            json!({"files": "x"}),
        )
        .expect_err("bad files");
        assert!(
            e.starts_with("error patching KubeadmConfigTemplate: could not set KubeadmConfigTemplate files: failed to unmarshal variable json"),
            "{e}"
        );
    }

    #[test]
    fn dev_templates() {
        let docker = json!({"spec": {"template": {"spec": {"backend": {"docker": {}}}}}});
        let with = |api: &str, kind: &str| {
            let mut o = docker.clone();
            o["apiVersion"] = json!(api);
            o["kind"] = json!(kind);
            o
        };
        let infra2 = "infrastructure.cluster.x-k8s.io/v1beta2";

        // DevClusterTemplate: nothing at all without imageRepository.
        let cluster = with(infra2, "DevClusterTemplate");
        assert_eq!(mutated(cluster.clone(), json!({})).expect("none"), cluster);
        let out = mutated(cluster, json!({"imageRepository": "r"})).expect("repo");
        assert_eq!(
            out["spec"]["template"]["spec"]["backend"]["docker"]["loadBalancer"]["imageRepository"],
            "r"
        );
        assert_eq!(
            out["spec"]["template"]["metadata"]["labels"]["top-level-label-1"],
            "top-level-label-value-1"
        );

        // DevMachineTemplate: control plane version first, then the machine deployment's.
        let machine = with(infra2, "DevMachineTemplate");
        let out = mutated(
            machine.clone(),
            json!({"builtin": {"controlPlane": {"version": "v1.34.3"},
                               "machineDeployment": {"version": "v1.33.0"}}}),
        )
        .expect("cp");
        assert_eq!(
            out["spec"]["template"]["spec"]["backend"]["docker"]["customImage"],
            "kindest/node:v1.34.3@sha256:08497ee19eace7b4b5348db5c6a1591d7752b164530a36f855cb0f2bdcbadd48"
        );
        assert_eq!(
            out["metadata"]["annotations"]["top-level-annotation-1"],
            "top-level-annotation-value-1"
        );
        let out = mutated(
            machine.clone(),
            json!({"builtin": {"machineDeployment": {"version": "v1.99.0"}}}),
        )
        .expect("md");
        assert_eq!(
            out["spec"]["template"]["spec"]["backend"]["docker"]["customImage"],
            "kindest/node:v1.99.0"
        );
        assert_eq!(
            mutated(machine.clone(), json!({"builtin": {}})).expect_err("none"),
            "error patching DevMachineTemplate: no version variables found for DevMachineTemplate patch"
        );
        assert_eq!(
            mutated(
                machine,
                json!({"builtin": {"controlPlane": {"version": "x"}}})
            )
            .expect_err("bad"),
            "error patching DevMachineTemplate: could not parse control plane version: Invalid character(s) found in major number \"x\""
        );

        // DevMachinePoolTemplate.
        let pool = with(infra2, "DevMachinePoolTemplate");
        assert_eq!(
            mutated(pool.clone(), json!({})).expect_err("none"),
            "error patching DevMachinePoolTemplate: no version variables found for DevMachinePoolTemplate patch"
        );
        let out = mutated(
            pool,
            json!({"builtin": {"machinePool": {"version": "v1.33.1"}}}),
        )
        .expect("mp");
        assert_eq!(
            out["spec"]["template"]["spec"]["backend"]["docker"]["customImage"],
            "kindest/node:v1.33.1@sha256:050072256b9a903bd914c0b2866828150cb229cea0efe5892e2b644d5dd3b34f"
        );
        assert_eq!(
            out["spec"]["template"]["metadata"]["labels"]["top-level-label-1"],
            "top-level-label-value-1"
        );

        // v1beta1 Dev* templates decode but upstream's handler has no case for them.
        let old = with(
            "infrastructure.cluster.x-k8s.io/v1beta1",
            "DevMachineTemplate",
        );
        assert_eq!(mutated(old.clone(), json!({})).expect("untouched"), old);
    }

    #[test]
    fn unknown_kinds_fail_like_the_decoder() {
        assert_eq!(
            decode(&json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DockerMachineTemplate"}))
                .expect_err("unknown"),
            "no kind \"DockerMachineTemplate\" is registered for version \"infrastructure.cluster.x-k8s.io/v1beta2\" in scheme \"sigs.k8s.io/cluster-api/test/extension/handlers/topologymutation/handler.go:67\""
        );
        assert_eq!(
            decode(&json!({"kind": "X"})).expect_err("no version"),
            "Object 'apiVersion' is missing in '{\"kind\":\"X\"}'"
        );
        assert_eq!(
            decode(&json!({"apiVersion": "v1"})).expect_err("no kind"),
            "Object 'Kind' is missing in '{\"apiVersion\":\"v1\"}'"
        );
        assert!(decode(&json!({"apiVersion": "bootstrap.cluster.x-k8s.io/v1beta1", "kind": "KubeadmConfigList"})).is_ok());
    }

    #[test]
    fn generate_patches_answers_a_json_patch_per_item_and_fails_on_the_first_error() {
        let req = json!({"variables": [{"name": "builtin", "value": {"cluster": {"name": "c"}}}],
        "items": [
            {"uid": "1", "holderReference": {"apiVersion": "cluster.x-k8s.io/v1beta2"},
             "object": {"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DevMachineTemplate",
                        "metadata": {"name": "m", "labels": {"keep": "x"}},
                        "spec": {"template": {"spec": {"backend": {"docker": {"customImage": "old"}}}}}},
             "variables": [{"name": "builtin", "value": {"machineDeployment": {"version": "v1.99.0"}}}]},
            {"uid": "2", "holderReference": {"apiVersion": "cluster.x-k8s.io/v1beta2"},
             "object": {"apiVersion": "example.com/v1", "kind": "Other"}}
        ]});
        let resp = generate_patches(&req);
        assert_eq!(resp["status"], "Failure");
        assert!(
            resp["message"]
                .as_str()
                .expect("message")
                .starts_with("no kind \"Other\"")
        );
        assert_eq!(resp["items"].as_array().expect("items").len(), 1);
        assert_eq!(resp["items"][0]["patchType"], "JSONPatch");
    }
}
