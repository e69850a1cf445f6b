/*!
`topoplan extension check`: judging a Runtime extension against the topology-mutation
guidelines of Cluster API's Runtime SDK ("Patch extension guidelines", "Variable discovery
guidelines"), with the requests a plan of the input really sends.

Owns the checks and their report. The requests come from the patch engine
([`crate::patches::capture`]): the pipeline plans the input's Clusters once with a capture, and
each check sends what it needs again, or a variation of it, through the same
[`crate::runtime::Registry`] a plan uses. One file per check:

- [`discovery`]: Discovery answers, lists the handlers the classes name, with valid timeouts and
  failure policies;
- [`determinism`]: the same GeneratePatches request, sent again and with its items in another
  order, gives the same resulting templates;
- [`idempotence`]: the patched templates sent back give no further change;
- [`errors`]: a request with a required variable removed, or a variable of the wrong type, is
  refused (input validation), twice with the same message (stable error messages);
- [`timeouts`]: latency per handler against the guideline's 200 ms and `timeoutSeconds`;
- [`validity`]: every patch decodes, applies, names a uid of the request and changes only what
  Cluster API keeps; ValidateTopology accepts the patched topology;
- [`variables`]: discovered variables are valid, distinct from the class's inline ones, not
  generic, and (with a baseline) not broken since the previous version.

[`probe`] makes the timed calls, [`templates`] applies answers to requests, [`report`] renders
the result.
*/

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::patches::capture::{Call, Captured};
use crate::runtime::Registry;
use crate::variables::definitions::StatusVariables;

pub mod determinism;
pub mod discovery;
pub mod errors;
pub mod idempotence;
pub mod probe;
pub mod report;
pub mod templates;
pub mod timeouts;
pub mod validity;
pub mod variables;

pub use report::{Check, Report, Status};

/// The guideline's latency bound for an external patch extension.
pub const GUIDELINE_LATENCY: Duration = Duration::from_millis(200);

/// `--calls`' default: calls per handler for the latency figures.
pub const DEFAULT_CALLS: usize = 20;

/// `--deadline`'s default: the whole check, planning included, in seconds. Enough for the
/// default 20 calls per handler of a few slow handlers; far under a CI step's patience.
pub const DEFAULT_DEADLINE_SECS: u64 = 120;

/// The most `--calls` may ask for.
pub const MAX_CALLS: usize = 1000;

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

/// Resolved options of `topoplan extension check`.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// What a plan of the input needs (input, admission, the extensions to check).
    pub plan: crate::plan::PlanOptions,
    /// Calls per handler for the latency figures.
    pub calls: usize,
    /// The previous version's DiscoverVariablesResponse.
    pub baseline: Option<Baseline>,
    /// How long the whole run may take (`--deadline`); no call starts after it. `None`: no
    /// deadline.
    pub deadline: Option<Duration>,
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
    /// Call `handler` with `request`, timed ([`probe::call`]); after the deadline, no call is
    /// made and the probe says why.
    pub fn call<R: crate::runtime::TopologyHook>(
        &self,
        handler: &str,
        request: R,
    ) -> probe::Probe<R::Response> {
        if self.past_deadline() {
            self.stopped.store(true, Ordering::Relaxed);
            return probe::Probe {
                result: Err(probe::Refusal::Error(
                    "not called: the run deadline of extension check was reached".into(),
                )),
                elapsed: Duration::ZERO,
            };
        }
        probe::call(self.registry, handler, request)
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

/// The checks one step of [`run`] reports (by name, for when it does not run), and the step.
type Step<'s> = (&'static [&'static str], &'s dyn Fn() -> Vec<Check>);

/// Run every check but Discovery's (which the caller judged while connecting), in the
/// report's order. Once the run deadline passes, the check under way (whose calls were not
/// all made) and every later one are reported as skipped, saying so.
pub fn run(subject: &Subject<'_>) -> Vec<Check> {
    let first = determinism::first_answers(subject);
    let steps: [Step<'_>; 6] = [
        (&["deterministic-results"], &|| {
            vec![determinism::check(subject, &first)]
        }),
        (&["idempotence"], &|| {
            vec![idempotence::check(subject, &first)]
        }),
        (&["input-validation", "error-messages"], &|| {
            errors::check(subject)
        }),
        (&["timeouts"], &|| vec![timeouts::check(subject)]),
        (&["response-validity"], &|| {
            vec![validity::check(subject, &first)]
        }),
        (&["discovered-variables"], &|| {
            vec![variables::check(subject)]
        }),
    ];
    let mut checks = Vec::new();
    for (names, step) in steps {
        let done = if subject.past_deadline() || subject.stopped.load(Ordering::Relaxed) {
            Vec::new()
        } else {
            step()
        };
        if subject.stopped.load(Ordering::Relaxed) || done.is_empty() {
            subject.stopped.store(true, Ordering::Relaxed);
            let why = match subject.deadline {
                Some((_, d)) => format!(
                    "not run: the run deadline of {} s (--deadline) was reached",
                    d.as_secs()
                ),
                None => "not run".to_string(),
            };
            checks.extend(names.iter().map(|&n| Check::skipped(n, why.clone())));
        } else {
            checks.extend(done);
        }
    }
    checks
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
