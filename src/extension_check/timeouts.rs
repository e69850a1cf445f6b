/*!
"Timeouts": an external patch extension is called on every reconcile of every Cluster and must
answer fast (the guideline says 200 ms or less). Each handler the input's patches name is called
`--calls` times with a real request (the first of a plan for GeneratePatches and
ValidateTopology, the patch's settings for DiscoverVariables); p50 and p99 (nearest rank) are
compared with 200 ms, and the slowest call with the handler's `timeoutSeconds`. A handler that
Discovery no longer announces (an extension whose Discovery changed since it was called, or that
never announced it) has no `timeoutSeconds` and its calls are refused before they reach the
extension: that is what the check says, not a timing.
*/

use std::time::Duration;

use serde_json::{Value, json};

use super::probe::{Refusal, millis};
use super::report::{Check, Status};
use super::subject::{GUIDELINE_LATENCY, Subject};
use crate::patches::capture::Captured;
use crate::runtime::DiscoverVariablesRequest;

const NAME: &str = "timeouts";

/// The nearest-rank `q` quantile of sorted `d` (`q` in (0, 1]).
pub fn quantile(d: &[Duration], q: f64) -> Duration {
    if d.is_empty() {
        return Duration::ZERO;
    }
    let rank = (q * d.len() as f64).ceil() as usize;
    d[rank.clamp(1, d.len()) - 1]
}

/// One handler's figures.
struct Figures {
    hook: &'static str,
    handler: String,
    p50: Duration,
    p99: Duration,
    max: Duration,
    /// `None` when Discovery does not announce the handler.
    timeout: Option<Duration>,
    errors: Vec<String>,
}

fn measure<R: crate::runtime::TopologyHook>(
    s: &Subject<'_>,
    hook: &'static str,
    handler: &str,
    request: &R,
) -> Figures {
    let mut times = Vec::with_capacity(s.calls_per_handler);
    let mut errors = Vec::new();
    for _ in 0..s.calls_per_handler {
        let p = s.call(handler, request.clone());
        times.push(p.elapsed);
        if let Err(Refusal::Error(e)) = p.result
            && errors.len() < 3
        {
            errors.push(e);
        }
    }
    times.sort();
    Figures {
        hook,
        handler: handler.to_string(),
        p50: quantile(&times, 0.5),
        p99: quantile(&times, 0.99),
        max: times.last().copied().unwrap_or_default(),
        timeout: s.registry.handler(handler).map(|h| h.timeout()),
        errors,
    }
}

/// Judge the subject.
pub fn check(s: &Subject<'_>) -> Check {
    let mut figures = Vec::new();
    let mut done: Vec<String> = Vec::new();
    for call in s.generate_calls().into_iter().chain(s.validate_calls()) {
        if done.contains(&call.handler) {
            continue;
        }
        done.push(call.handler.clone());
        figures.push(match &call.captured {
            Captured::Generate { wire, .. } => measure(s, "GeneratePatches", &call.handler, wire),
            Captured::Validate { wire } => measure(s, "ValidateTopology", &call.handler, wire),
        });
    }
    for p in s.patches {
        let Some(h) = p.handler("DiscoverVariables").filter(|h| s.tests(h)) else {
            continue;
        };
        if done.iter().any(|d| d == h) {
            continue;
        }
        done.push(h.to_string());
        let req = DiscoverVariablesRequest {
            settings: p.settings.clone(),
            ..DiscoverVariablesRequest::default()
        };
        figures.push(measure(s, "DiscoverVariables", h, &req));
    }
    if figures.is_empty() {
        return Check::skipped(NAME, s.skip_reason());
    }
    let evidence: Vec<Value> = figures
        .iter()
        .map(|f| {
            json!({
                "hook": f.hook,
                "handler": f.handler,
                "calls": s.calls_per_handler,
                "p50Ms": millis(f.p50),
                "p99Ms": millis(f.p99),
                "maxMs": millis(f.max),
                "guidelineMs": millis(GUIDELINE_LATENCY),
                "timeoutSeconds": f.timeout.map(|t| t.as_secs()),
                "errors": f.errors,
            })
        })
        .collect();
    let summary = figures
        .iter()
        .map(|f| {
            format!(
                "{} p50 {} ms, p99 {} ms",
                f.hook,
                millis(f.p50),
                millis(f.p99)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let mut problems = Vec::new();
    for f in &figures {
        let Some(timeout) = f.timeout else {
            problems.push(format!(
                "{} is not announced by the extension's Discovery answer (Discovery changed between calls, or never named it): its calls were refused before reaching the extension, so they could not be timed",
                f.handler
            ));
            continue;
        };
        if f.p99 > GUIDELINE_LATENCY {
            problems.push(format!(
                "{} answers in {} ms at p99, over the guideline's 200 ms",
                f.handler,
                millis(f.p99)
            ));
        }
        if f.max >= timeout {
            problems.push(format!(
                "{} took {} ms, at or over its timeoutSeconds ({} s)",
                f.handler,
                millis(f.max),
                timeout.as_secs()
            ));
        }
        if let Some(e) = f.errors.first() {
            problems.push(format!("{} failed: {e}", f.handler));
        }
    }
    let (status, message) = if problems.is_empty() {
        (
            Status::Passed,
            format!("{} calls per handler: {summary}", s.calls_per_handler),
        )
    } else {
        (Status::Failed, problems.join("; "))
    };
    Check::new(NAME, status, message).with("handlers", json!(evidence))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let ms = |v: &[u64]| {
            v.iter()
                .map(|&m| Duration::from_millis(m))
                .collect::<Vec<_>>()
        };
        let d = ms(&[1, 2, 3, 4, 100]);
        assert_eq!(quantile(&d, 0.5), Duration::from_millis(3));
        assert_eq!(quantile(&d, 0.99), Duration::from_millis(100));
        assert_eq!(quantile(&ms(&[7]), 0.5), Duration::from_millis(7));
        assert_eq!(quantile(&[], 0.5), Duration::ZERO);
    }
}
