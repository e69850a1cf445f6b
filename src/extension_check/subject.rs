/*!
What every check of `extension check` looks at ([`Subject`]: the connected extensions, the
external patches they serve, the requests a plan sent them, the run's deadline), and the
helpers the checks share to describe a call and its evidence.
*/

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::patches::capture::{Call, Captured};
use crate::runtime::Registry;
use crate::variables::definitions::StatusVariables;

/// The guideline's latency bound for an external patch extension.
pub const GUIDELINE_LATENCY: Duration = Duration::from_millis(200);

/// How many GeneratePatches requests the request-based checks use (the first ones, in plan
/// order): each is sent several times.
pub const MAX_REQUESTS: usize = 8;

/// A saved DiscoverVariablesResponse to compare the discovered variables with (`--baseline`).
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    /// Where it was read from, for messages.
    pub source: String,
    /// Its `variables`.
    pub variables: Vec<Value>,
}

/// An external patch of the input served (at least in part) by an extension under test.
#[derive(Debug, Clone)]
pub struct ExternalPatch {
    /// `namespace/name` of the ClusterClass.
    pub class: String,
    /// The patch's index in `spec.patches`.
    pub index: usize,
    /// The patch's name.
    pub name: String,
    /// `external.settings`.
    pub settings: BTreeMap<String, String>,
    /// (hook, handler) for each handler the patch names: `GeneratePatches`,
    /// `ValidateTopology`, `DiscoverVariables`.
    pub handlers: Vec<(&'static str, String)>,
    /// The class's inline variable names.
    pub inline_variables: Vec<String>,
    /// The class's `status.variables`, when its variables reconciled.
    pub status: Option<StatusVariables>,
}

impl ExternalPatch {
    /// The handler the patch names for `hook`.
    pub fn handler(&self, hook: &str) -> Option<&str> {
        self.handlers
            .iter()
            .find(|(h, _)| *h == hook)
            .map(|(_, n)| n.as_str())
    }
}

/// Everything the checks look at.
pub struct Subject<'a> {
    /// The connected extensions.
    pub registry: &'a Registry,
    /// The names of the extensions under test.
    pub tested: &'a [String],
    /// The external patches served by them.
    pub patches: &'a [ExternalPatch],
    /// The requests a plan of the input sent to them (at most [`crate::patches::capture::MAX_CAPTURED`]).
    pub calls: &'a [Call],
    /// Why no request could be built, when none was.
    pub no_requests: Option<String>,
    /// Calls per handler for the latency figures.
    pub calls_per_handler: usize,
    /// `--baseline`.
    pub baseline: Option<&'a Baseline>,
    /// When the run must stop: no call starts after it (`--deadline`).
    pub deadline: Option<(Instant, Duration)>,
    /// Whether a call was refused for the deadline.
    pub stopped: AtomicBool,
}

impl<'a> Subject<'a> {
    /// Call `handler` with `request`, timed ([`super::probe::call`]); after the deadline, no call is
    /// made and the probe says why.
    pub fn call<R: crate::runtime::TopologyHook>(
        &self,
        handler: &str,
        request: R,
    ) -> super::probe::Probe<R::Response> {
        if self.past_deadline() {
            self.stopped.store(true, Ordering::Relaxed);
            return super::probe::Probe {
                result: Err(super::probe::Refusal::Error(
                    "not called: the run deadline of extension check was reached".into(),
                )),
                elapsed: Duration::ZERO,
            };
        }
        super::probe::call(self.registry, handler, request)
    }

    /// Whether the run deadline has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|(at, _)| Instant::now() >= at)
    }

    /// Whether `handler` belongs to an extension under test.
    pub fn tests(&self, handler: &str) -> bool {
        let ext = crate::api::external::extension_of(handler);
        self.tested.iter().any(|t| t == ext)
    }

    /// The GeneratePatches requests of the tested extensions, at most [`MAX_REQUESTS`].
    pub fn generate_calls(&self) -> Vec<&'a Call> {
        self.calls
            .iter()
            .filter(|c| matches!(c.captured, Captured::Generate { .. }) && self.tests(&c.handler))
            .take(MAX_REQUESTS)
            .collect()
    }

    /// The ValidateTopology requests of the tested extensions, at most [`MAX_REQUESTS`].
    pub fn validate_calls(&self) -> Vec<&'a Call> {
        self.calls
            .iter()
            .filter(|c| matches!(c.captured, Captured::Validate { .. }) && self.tests(&c.handler))
            .take(MAX_REQUESTS)
            .collect()
    }

    /// The reason request-based checks are skipped.
    pub fn skip_reason(&self) -> String {
        self.no_requests
            .clone()
            .unwrap_or_else(|| "no plan request reached the extension".to_string())
    }

    /// The patch a captured call belongs to.
    pub fn patch_of(&self, call: &Call) -> Option<&'a ExternalPatch> {
        self.patches
            .iter()
            .find(|p| p.class == call.class && p.index == call.patch_index)
    }
}

/// A request as it goes on the wire (with its `apiVersion` and `kind`), for evidence.
pub fn request_json<R: crate::runtime::TopologyHook>(request: &R) -> Value {
    let mut r = request.clone();
    r.set_type_meta();
    serde_json::to_value(&r).unwrap_or(Value::Null)
}

/// Which requests a check sent, for the evidence of a passed check.
pub fn judged(calls: &[&Call]) -> Value {
    Value::Array(
        calls
            .iter()
            .map(|c| {
                let items = match &c.captured {
                    Captured::Generate { wire, .. } => wire.items.len(),
                    Captured::Validate { wire } => wire.items.len(),
                };
                serde_json::json!({"cluster": c.cluster, "patch": c.patch, "handler": c.handler, "items": items})
            })
            .collect(),
    )
}

/// `who` for messages: `Cluster ns/name, patch "p"`.
pub fn call_label(call: &Call) -> String {
    format!("Cluster {}, patch {:?}", call.cluster, call.patch)
}
