/*!
A ClusterClass's `status.variables` as Cluster API's ClusterClass controller would compute it:
the inline definitions, plus the definitions each patch with a `discoverVariablesExtension`
discovers.

With Runtime extensions ([`Discovery::Live`]) each such patch's DiscoverVariables handler is
called with the patch's settings, as the ClusterClass controller calls it. Without them, a
recorded `DiscoverVariablesResponse` in the input (a Runtime SDK wire document) stands in for
every discovery patch ([`Discovery::Recorded`]). When the class needs discovery and none is
available, or discovery fails, the class is "not reconciled": Cluster API then neither defaults
nor validates the variables of Clusters using it, and neither does topoplan — it says so
instead (and `plan` stops: the topology controller does not reconcile such a Cluster).
*/

use serde_json::Value;

use super::definitions::{
    ClusterClassVariable, StatusVariableDefinition, StatusVariables,
    validate_cluster_class_variables,
};
use crate::api::ClusterClass;
use crate::diag::{Code, Diagnostic};
use crate::k8s::field::{Path, aggregate};
use crate::runtime::{DiscoverVariablesRequest, Registry};
use crate::source::Origin;

/// Where discovered variable definitions come from.
#[derive(Debug, Clone, Copy)]
pub enum Discovery<'a> {
    /// Call each patch's DiscoverVariables handler.
    Live(&'a Registry),
    /// The Runtime SDK documents of the input (one recorded response serves every patch).
    Recorded(&'a [(Value, Origin)]),
}

/// Why a class's variables could not be reconciled: a warning for the class, and the reason
/// Clusters of the class are not checked.
#[derive(Debug, Clone)]
pub struct NotReconciled(pub Diagnostic);

/// Build `status.variables` for `class`, discovering variables from `discovery`.
pub fn status_variables(
    class: &ClusterClass,
    discovery: Discovery<'_>,
) -> Result<StatusVariables, NotReconciled> {
    let mut status = StatusVariables::from_inline(&class.spec.variables);
    let patches = discovery_patches(class);
    let Some(&(first_index, first_patch)) = patches.first() else {
        return Ok(status);
    };
    let pointer = format!("/spec/patches/{first_index}/external/discoverVariablesExtension");
    let recorded = match discovery {
        Discovery::Live(_) => None,
        Discovery::Recorded(runtime_messages) => Some(recorded_response(
            class,
            runtime_messages,
            first_patch,
            &pointer,
        )?),
    };

    // The ClusterClass controller's loop: every discovery patch in spec order gets the response.
    let mut errors: Vec<String> = Vec::new();
    for (_, patch) in &patches {
        let name = patch.get("name").and_then(Value::as_str).unwrap_or("");
        let called;
        let response = match (discovery, recorded) {
            (_, Some(r)) => r,
            (Discovery::Live(registry), _) => {
                match call_discover(registry, class, patch, name, &pointer)? {
                    Ok(r) => {
                        called = r;
                        &called
                    }
                    Err(e) => {
                        errors.push(e);
                        continue;
                    }
                }
            }
            (Discovery::Recorded(_), None) => continue,
        };
        add_discovered(&mut status, &mut errors, response, recorded, name);
    }
    if !errors.is_empty() {
        let reason = if errors.len() == 1 {
            errors.remove(0)
        } else {
            format!("[{}]", errors.join(", "))
        };
        return Err(discovery_failed(class, &pointer, reason));
    }
    status.sort();
    let conflicts = status.conflicting();
    if !conflicts.is_empty() {
        return Err(discovery_failed(
            class,
            &pointer,
            format!(
                "the following variables have conflicting schemas: {}",
                conflicts.join(",")
            ),
        ));
    }
    Ok(status)
}

/// The class's patches that discover their variables from an extension, with their indexes.
fn discovery_patches(class: &ClusterClass) -> Vec<(usize, &Value)> {
    class
        .spec_value
        .get("patches")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            p.pointer("/external/discoverVariablesExtension")
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty())
        })
        .collect()
}

/// The one recorded DiscoverVariablesResponse of the input, which stands in for every
/// discovery patch; none, or several (topoplan cannot tell which extension each came from),
/// leave the class not reconciled. `first_patch` (at `pointer`) is the class's first
/// discovery patch, where the warning points.
fn recorded_response<'r>(
    class: &ClusterClass,
    runtime_messages: &'r [(Value, Origin)],
    first_patch: &Value,
    pointer: &str,
) -> Result<&'r Value, NotReconciled> {
    let first_name = first_patch
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let responses: Vec<&(Value, Origin)> = runtime_messages
        .iter()
        .filter(|(v, _)| v.get("kind").and_then(Value::as_str) == Some("DiscoverVariablesResponse"))
        .collect();
    match responses.as_slice() {
        [one] => Ok(&one.0),
        [] => Err(NotReconciled(
            Diagnostic::warning(Code::VariablesDiscovery, format!(
                "ClusterClass {}: patch {first_name:?} discovers its variables from an extension, and neither the extension nor a recorded DiscoverVariablesResponse was given: variables of Clusters using this class are neither defaulted nor validated",
                class.key()
            ))
            .at(&class.object.origin, pointer, "variables come from here")
            .with_help(format!(
                "pass --extension {}=URL, or add the extension's DiscoverVariablesResponse (kind: DiscoverVariablesResponse, apiVersion: hooks.runtime.cluster.x-k8s.io/v1alpha1) to the input",
                crate::api::external::extension_of(
                    first_patch
                        .pointer("/external/discoverVariablesExtension")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                )
            )),
        )),
        many => Err(NotReconciled(
            Diagnostic::warning(Code::VariablesDiscovery, format!(
                "ClusterClass {}: the input holds {} DiscoverVariablesResponse documents; topoplan cannot tell which extension each came from, so variables of Clusters using this class are neither defaulted nor validated",
                class.key(),
                many.len()
            ))
            .at(&class.object.origin, pointer, "variables come from here")
            .with_help("pass one DiscoverVariablesResponse per run, or the extension itself with --extension"),
        )),
    }
}

/// Call the DiscoverVariables handler of `patch` (named `name`): its response, or the
/// failure the class's status reports. A stale or broken recording is no failure of the
/// extension: the run cannot go on as if the class were not reconciled (the outer error).
fn call_discover(
    registry: &Registry,
    class: &ClusterClass,
    patch: &Value,
    name: &str,
    pointer: &str,
) -> Result<Result<Value, String>, NotReconciled> {
    let handler = patch
        .pointer("/external/discoverVariablesExtension")
        .and_then(Value::as_str)
        .unwrap_or("");
    let req = DiscoverVariablesRequest {
        settings: crate::api::external::settings(patch),
        ..DiscoverVariablesRequest::default()
    };
    let subject = format!("ClusterClass {}", class.key());
    match registry.call_for(Some(&subject), handler, req) {
        Ok(r) => Ok(Ok(serde_json::to_value(&r).unwrap_or(Value::Null))),
        Err(e) if e.recording_code().is_some() => Err(NotReconciled(
            Diagnostic::error(
                e.recording_code().unwrap_or(Code::ExtensionRecording),
                format!(
                    "ClusterClass {}: failed to call DiscoverVariables for patch {name}: {e}",
                    class.key()
                ),
            )
            .at(&class.object.origin, pointer, "variables come from here"),
        )),
        Err(e) => Ok(Err(format!(
            "failed to call DiscoverVariables for patch {name}: {e}"
        ))),
    }
}

/// Add the variables patch `name` discovered (`response`) to `status`, or the reason they
/// are refused to `errors`; after a first error no more definitions are added. `recorded`:
/// the recorded response, whose definitions are validated once per patch name.
fn add_discovered(
    status: &mut StatusVariables,
    errors: &mut Vec<String>,
    response: &Value,
    recorded: Option<&Value>,
    name: &str,
) {
    let st = response.get("status").and_then(Value::as_str).unwrap_or("");
    if st != "Success" {
        let message = response
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("");
        errors.push(format!(
            "patch {name} returned status {st:?} with message {message:?}"
        ));
        return;
    }
    let vars = response
        .get("variables")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    if vars.is_empty() || !errors.is_empty() {
        return;
    }
    let max = crate::runtime::types::MAX_VARIABLES;
    if vars.len() > max {
        errors.push(format!(
            "patch {name} returned {} variables, more than {max}, the most topoplan accepts",
            vars.len()
        ));
        return;
    }
    let discovered = match recorded {
        // One recorded response serves every class: validated once per patch name.
        Some(r) => recorded_definitions(r, vars, name),
        None => std::sync::Arc::new(definitions(vars, name)),
    };
    match &*discovered {
        Ok(defs) => status.add_all(defs.iter().cloned()),
        Err(e) => errors.push(e.clone()),
    }
}

/// The class's variables could not be discovered (`reason`): Clusters of the class are not
/// checked.
fn discovery_failed(class: &ClusterClass, pointer: &str, reason: String) -> NotReconciled {
    NotReconciled(
        Diagnostic::warning(Code::VariablesDiscovery, format!(
            "ClusterClass {}: failed to discover variables for ClusterClass {}: VariableDiscovery failed: {reason}; variables of Clusters using this class are neither defaulted nor validated",
            class.key(),
            class.object.name
        ))
        .at(&class.object.origin, pointer, "variables come from here"),
    )
}

/// The definitions a discovery patch named `name` adds for `vars`, or why they are refused.
type Definitions = Result<Vec<(String, StatusVariableDefinition)>, String>;

/// `vars` validated and read as the definitions of patch `name`.
fn definitions(vars: &[Value], name: &str) -> Definitions {
    let errs = validate_cluster_class_variables(&[], vars, &Path::new(name).child("variables"));
    if !errs.is_empty() {
        return Err(aggregate(&errs));
    }
    Ok(vars
        .iter()
        .map(ClusterClassVariable::from_json)
        .map(|v| {
            (
                v.name,
                StatusVariableDefinition {
                    from: name.to_string(),
                    required: v.required,
                    metadata: v.metadata,
                    schema: std::sync::Arc::new(v.schema),
                },
            )
        })
        .collect())
}

/// Cached [`definitions`]: (content hash of the response, patch name) and the result.
type Cached = Vec<((u64, String), std::sync::Arc<Definitions>)>;

/// [`definitions`] of recorded responses, by (the response's content hash, patch name): a
/// recorded response stands in for every class's discovery, and validating a large one took
/// seconds each time. Keyed by content, so a hit is always the same answer; process-wide, as
/// classes are admitted on several threads and their definitions share the schemas decoded
/// here.
static RECORDED: std::sync::Mutex<Cached> = std::sync::Mutex::new(Vec::new());

/// [`definitions`] of the recorded `response`, computed once per patch name. The lock is held
/// while computing, so two threads asking for the same answer read it once.
fn recorded_definitions(
    response: &Value,
    vars: &[Value],
    name: &str,
) -> std::sync::Arc<Definitions> {
    let key = (crate::json::hash::of(response), name.to_string());
    let mut c = RECORDED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, d)) = c.iter().find(|(k, _)| *k == key) {
        return std::sync::Arc::clone(d);
    }
    let defs = std::sync::Arc::new(definitions(vars, name));
    // A few entries: one run has one recorded response and a few patch names.
    if c.len() >= 8 {
        c.remove(0);
    }
    c.push((key, std::sync::Arc::clone(&defs)));
    defs
}
