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

[`subject`] is what every check looks at, [`probe`] makes the timed calls, [`templates`] applies answers to requests, [`report`] renders
the result.
*/

use std::sync::atomic::Ordering;
use std::time::Duration;

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

pub mod subject;

pub use report::{Check, Report, Status};
pub use subject::{
    Baseline, ExternalPatch, GUIDELINE_LATENCY, MAX_REQUESTS, Subject, call_label, judged,
    request_json,
};

/// `--calls`' default: calls per handler for the latency figures.
pub const DEFAULT_CALLS: usize = 20;

/// `--deadline`'s default: the whole check, planning included, in seconds. Enough for the
/// default 20 calls per handler of a few slow handlers; far under a CI step's patience.
pub const DEFAULT_DEADLINE_SECS: u64 = 120;

/// The most `--calls` may ask for.
pub const MAX_CALLS: usize = 1000;

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
