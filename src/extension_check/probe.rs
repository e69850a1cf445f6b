/*!
Timed calls to an extension under test, through the registry a plan uses (same URLs, timeouts,
settings and decoding).

A handler with `failurePolicy: Ignore` has its failed calls turned into empty successes by the
registry, as Cluster API does; a check must see them, so every call here takes the forgiven
error back out of the registry and reports it as the call's outcome.
*/

use std::time::{Duration, Instant};

use crate::runtime::{Registry, TopologyHook};

/// One call: the answer (or why there is none) and how long it took.
#[derive(Debug, Clone)]
pub struct Probe<T> {
    /// The response, or the error in Cluster API's words.
    pub result: Result<T, Refusal>,
    /// Wall time of the call, connection reuse included.
    pub elapsed: Duration,
}

/// Why a call gave no usable answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// The extension answered `status: Failure` with this message (it refused the request).
    Failure(String),
    /// Anything else: transport, timeout, non-200, undecodable body, unknown status.
    Error(String),
}

impl Refusal {
    /// The text to show.
    pub fn text(&self) -> &str {
        match self {
            Refusal::Failure(m) | Refusal::Error(m) => m,
        }
    }
}

/// Call `handler` with `request`, timed.
pub fn call<R: TopologyHook>(registry: &Registry, handler: &str, request: R) -> Probe<R::Response> {
    let start = Instant::now();
    let result = registry.call(handler, request);
    let elapsed = start.elapsed();
    let forgiven = registry.take_ignored();
    let result = match (result, forgiven.into_iter().next()) {
        (_, Some(e)) => Err(Refusal::Error(e.to_string())),
        (Ok(r), None) => Ok(r),
        (Err(crate::runtime::Error::Failure { message, .. }), None) => {
            Err(Refusal::Failure(message))
        }
        (Err(e), None) => Err(Refusal::Error(e.to_string())),
    };
    Probe { result, elapsed }
}

/// Milliseconds with one decimal, for reports.
pub fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 10_000.0).round() / 10.0
}
