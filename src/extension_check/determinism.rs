/*!
"Deterministic results": for a given request an extension must always return the same patches,
or the topology never settles. Each GeneratePatches request a plan sent is sent again
[`REPEATS`] times, and once more with its items and variables in reverse order (Cluster API
walks MachineDeployments and MachinePools in Go map order, so item order changes between
reconciles); the templates the answers produce, as Cluster API applies them, must be the same
every time. Patches are compared by what they do, not by their bytes: two answers that order
their operations differently but patch the same way are equal.
*/

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::probe::{Probe, Refusal};
use super::report::{Check, Status};
use super::subject::{Subject, call_label};
use super::templates::{first_difference, resulting};
use crate::patches::capture::{Call, Captured};
use crate::patches::request::Request;
use crate::runtime::{GeneratePatchesRequest, GeneratePatchesResponse};

/// How many times each request is sent again, in its own order.
pub const REPEATS: usize = 3;

const NAME: &str = "deterministic-results";

/// A plan request and the extension's first answer to it.
pub struct First<'c> {
    /// The captured request.
    pub call: &'c Call,
    /// Its wire form.
    pub wire: &'c GeneratePatchesRequest,
    /// The engine's request (for applying answers).
    pub request: &'c Request,
    /// The first answer.
    pub probe: Probe<GeneratePatchesResponse>,
}

/// Send each GeneratePatches request of the subject once.
pub fn first_answers<'c>(s: &Subject<'c>) -> Vec<First<'c>> {
    s.generate_calls()
        .into_iter()
        .filter_map(|call| match &call.captured {
            Captured::Generate { wire, request } => Some(First {
                call,
                wire,
                request,
                probe: s.call(&call.handler, wire.clone()),
            }),
            Captured::Validate { .. } => None,
        })
        .collect()
}

/// The templates an answer produces, or why there are none.
pub fn outcome(
    request: &Request,
    result: &Result<GeneratePatchesResponse, Refusal>,
) -> Result<BTreeMap<String, Value>, String> {
    match result {
        Ok(r) => {
            resulting(request, &r.items).map_err(|e| format!("the answer does not apply: {e}"))
        }
        Err(Refusal::Failure(m)) => Err(format!("refused: {m}")),
        Err(Refusal::Error(m)) => Err(format!("failed: {m}")),
    }
}

/// The evidence of two outcomes that differ.
pub fn difference(
    a: &Result<BTreeMap<String, Value>, String>,
    b: &Result<BTreeMap<String, Value>, String>,
) -> Value {
    match (a, b) {
        (Ok(x), Ok(y)) => {
            let uid = x
                .iter()
                .find(|(k, v)| y.get(*k) != Some(v))
                .map(|(k, _)| k.clone())
                .unwrap_or_default();
            let (p, q) = (x.get(&uid), y.get(&uid));
            json!({
                "uid": uid,
                "path": p.zip(q).and_then(|(p, q)| first_difference(p, q)),
                "first": p,
                "then": q,
            })
        }
        (x, y) => json!({
            "first": x.as_ref().err().map_or(json!("patched templates"), |e| json!(e)),
            "then": y.as_ref().err().map_or(json!("patched templates"), |e| json!(e)),
        }),
    }
}

/// The request with its items and variables in reverse order.
fn reversed(wire: &GeneratePatchesRequest) -> GeneratePatchesRequest {
    let mut w = wire.clone();
    w.items.reverse();
    w.variables.reverse();
    for i in &mut w.items {
        i.variables.reverse();
    }
    w
}

/// Judge the subject.
pub fn check(s: &Subject<'_>, first: &[First<'_>]) -> Check {
    if first.is_empty() {
        return Check::skipped(NAME, s.skip_reason());
    }
    for f in first {
        let base = outcome(f.request, &f.probe.result);
        let mut attempts: Vec<(String, GeneratePatchesRequest)> = (2..=REPEATS + 1)
            .map(|n| (format!("sent again (call {n})"), f.wire.clone()))
            .collect();
        attempts.push(("items in reverse order".into(), reversed(f.wire)));
        for (what, wire) in attempts {
            let p = s.call(&f.call.handler, wire.clone());
            let other = outcome(f.request, &p.result);
            if other != base {
                return Check::new(
                    NAME,
                    Status::Failed,
                    format!(
                        "{}: the same GeneratePatches request gave other templates when {what}",
                        call_label(f.call)
                    ),
                )
                .with("handler", json!(f.call.handler))
                .with("attempt", json!(what))
                .with("difference", difference(&base, &other))
                .with("request", super::subject::request_json(f.wire));
            }
        }
    }
    Check::new(
        NAME,
        Status::Passed,
        format!(
            "{} GeneratePatches request(s) sent {} times each (once with items reversed): the same templates every time",
            first.len(),
            REPEATS + 2
        ),
    )
    .with(
        "requests",
        super::subject::judged(&first.iter().map(|f| f.call).collect::<Vec<_>>()),
    )
}
