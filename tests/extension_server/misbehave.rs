/*!
Switches that make the test extension break one topology-mutation guideline at a time, for
`topoplan extension check` (and anyone trying it by hand with the `test-extension` example).

[`Misbehaviour::Upstream`] is Cluster API's test extension as it is (the handlers of
`handlers`); it is not conforming: its GeneratePatches appends to lists on every call (the
kubelet arguments of a v1beta2 KubeadmConfigTemplate, the `files` and `preKubeadmCommands`
variables), and it ignores a missing `imageRepository` although it declares it required.
[`Misbehaviour::Conforming`] follows every guideline: upstream's answers, with list entries
appended only when the template lacks them, and the request's variables validated first (the
required `imageRepository` present; each declared variable of its declared JSON type), and no
label or annotation written on a MachinePool's KubeadmConfigTemplate itself (Cluster API copies
only its `spec.template` into the MachinePool's bootstrap config). Every
other switch is the conforming extension with one guideline broken.
*/

// Shared by the test binary and the example; each uses a subset.
#![allow(dead_code)]

use std::time::Duration;

use serde_json::{Value, json};

use super::handlers;
use super::jsonpatch::{create_patch, patch_bytes};
use topoplan::go::base64;

/// Which guideline the extension breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Misbehaviour {
    /// Cluster API's test extension exactly (not idempotent, no input validation).
    #[default]
    Upstream,
    /// Follows every guideline.
    Conforming,
    /// Deterministic results: a template that has no `test-extension.example.com/call`
    /// annotation gets one holding the call's number (idempotent, but never the same twice).
    Nondeterministic,
    /// Idempotence: appends a command to the control plane's `preKubeadmCommands` on every
    /// call, even when the template has it already.
    NonIdempotent,
    /// Error messages: every refusal ends with the call's number.
    UnstableErrors,
    /// Timeouts: every hook call waits this long first.
    Slow(Duration),
    /// Response validity: every patch also writes the template's `status`, which Cluster API
    /// drops.
    TouchesStatus,
}

impl Misbehaviour {
    /// The switch named `s` (`upstream`, `none`, `nondeterministic`, `non-idempotent`,
    /// `unstable-errors`, `slow`, `touches-status`); `slow` waits 250 ms.
    pub fn parse(s: &str) -> Option<Misbehaviour> {
        Some(match s {
            "upstream" => Misbehaviour::Upstream,
            "none" | "conforming" => Misbehaviour::Conforming,
            "nondeterministic" => Misbehaviour::Nondeterministic,
            "non-idempotent" => Misbehaviour::NonIdempotent,
            "unstable-errors" => Misbehaviour::UnstableErrors,
            "slow" => Misbehaviour::Slow(Duration::from_millis(250)),
            "touches-status" => Misbehaviour::TouchesStatus,
            _ => return None,
        })
    }

    /// Wait before answering, when slow.
    pub fn delay(self) {
        if let Misbehaviour::Slow(d) = self {
            std::thread::sleep(d);
        }
    }
}

/// The variables the extension declares, with their JSON types.
const TYPES: &[(&str, &str)] = &[
    ("imageRepository", "string"),
    ("kubeadmControlPlaneMaxSurge", "string"),
    ("files", "array"),
    ("preKubeadmCommands", "array"),
    ("kubeadmConfigTemplateAnnotations", "object"),
];

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The conforming extension's input validation.
fn validate_input(req: &Value) -> Result<(), String> {
    let global = handlers::to_map(&req["variables"]);
    if !global.contains_key("imageRepository") {
        return Err("required variable \"imageRepository\" is not set".into());
    }
    let mut lists = vec![global];
    for item in req["items"].as_array().into_iter().flatten() {
        lists.push(handlers::to_map(&item["variables"]));
    }
    for vars in &lists {
        for (name, want) in TYPES {
            if let Some(v) = vars.get(*name)
                && json_type(v) != *want
            {
                return Err(format!(
                    "variable {name:?} must be of type {want}, got {}",
                    json_type(v)
                ));
            }
        }
    }
    Ok(())
}

/// Drop the entries `modified` appended to a list of `original` that the list holds already.
fn dedupe_appends(original: &Value, modified: &mut Value) {
    match (original, modified) {
        (Value::Object(o), Value::Object(m)) => {
            for (k, v) in m.iter_mut() {
                if let Some(ov) = o.get(k) {
                    dedupe_appends(ov, v);
                }
            }
        }
        (Value::Array(o), Value::Array(m)) if m.len() > o.len() && m[..o.len()] == o[..] => {
            let extra: Vec<Value> = m.split_off(o.len());
            m.extend(extra.into_iter().filter(|e| !o.contains(e)));
        }
        _ => {}
    }
}

fn failure(message: String) -> Value {
    json!({"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "kind": "GeneratePatchesResponse",
           "status": "Failure", "message": message})
}

/// The GeneratePatches answer of `m` to `req`, the `call`-th call of the process.
pub fn generate_patches(req: &Value, m: Misbehaviour, call: usize) -> Value {
    m.delay();
    if m == Misbehaviour::Upstream {
        return handlers::generate_patches(req);
    }
    let unstable = |msg: &str| {
        if m == Misbehaviour::UnstableErrors {
            format!("{msg} (call {call})")
        } else {
            msg.to_string()
        }
    };
    if let Err(e) = validate_input(req) {
        return failure(unstable(&e));
    }
    let mut resp = handlers::generate_patches(req);
    if resp["status"] != "Success" {
        let msg = resp["message"].as_str().unwrap_or_default().to_string();
        resp["message"] = json!(unstable(&msg));
        return resp;
    }
    let items = req["items"].as_array().cloned().unwrap_or_default();
    let mut out = Vec::new();
    for answered in resp["items"].as_array().cloned().unwrap_or_default() {
        let uid = answered["uid"].as_str().unwrap_or_default();
        let Some(item) = items.iter().find(|i| i["uid"] == uid) else {
            continue;
        };
        let original = item["object"].clone();
        let bytes = base64::decode(answered["patch"].as_str().unwrap_or_default().as_bytes())
            .unwrap_or_default();
        let modified = serde_json::from_slice::<Value>(&bytes)
            .ok()
            .and_then(|p| topoplan::patches::jsonpatch::decode_patch_value(&p).ok())
            .and_then(|p| topoplan::patches::jsonpatch::apply(&p, &original).ok());
        let Some(mut modified) = modified else {
            continue;
        };
        dedupe_appends(&original, &mut modified);
        // A MachinePool's bootstrap config is generated from the template's spec.template
        // only: upstream's labels on the template itself would be dropped.
        if item["holderReference"]["kind"] == "MachinePool" {
            match (original.get("metadata"), modified.as_object_mut()) {
                (Some(md), Some(o)) => {
                    o.insert("metadata".into(), md.clone());
                }
                (None, Some(o)) => {
                    o.remove("metadata");
                }
                _ => {}
            }
        }
        match m {
            Misbehaviour::Nondeterministic => {
                let annotations = &mut modified["spec"]["template"]["metadata"]["annotations"];
                if annotations.get("test-extension.example.com/call").is_none() {
                    if !annotations.is_object() {
                        *annotations = json!({});
                    }
                    annotations["test-extension.example.com/call"] = json!(call.to_string());
                }
            }
            Misbehaviour::NonIdempotent if modified["kind"] == "KubeadmControlPlaneTemplate" => {
                let spec = &mut modified["spec"]["template"]["spec"]["kubeadmConfigSpec"];
                let cmds = &mut spec["preKubeadmCommands"];
                if !cmds.is_array() {
                    *cmds = json!([]);
                }
                if let Some(list) = cmds.as_array_mut() {
                    list.push(json!("echo patched by test-extension"));
                }
            }
            Misbehaviour::TouchesStatus => {
                modified["status"] = json!({"patchedBy": "test-extension"});
            }
            _ => {}
        }
        out.push(json!({
            "uid": uid,
            "patchType": "JSONPatch",
            "patch": base64::encode(&patch_bytes(&create_patch(&original, &modified))),
        }));
    }
    resp["items"] = json!(out);
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appended_entries_already_present_are_dropped() {
        let original = json!({"l": [1, 2], "o": {"m": ["a"]}});
        let mut modified = json!({"l": [1, 2, 2, 3], "o": {"m": ["a", "b"]}});
        dedupe_appends(&original, &mut modified);
        assert_eq!(modified, json!({"l": [1, 2, 3], "o": {"m": ["a", "b"]}}));
    }
}
