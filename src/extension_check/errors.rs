/*!
"Input validation" and "Error messages": an extension must validate its input (every variable
it needs exists and has the right type) and, for a given request, always answer the same error
message (Cluster API writes it into conditions; a message that changes on every call keeps the
controllers busy).

From the first GeneratePatches request of each external patch, two requests it should refuse
are built, when the class gives a way: one with a required variable of the patch removed (a
variable the patch's discovered or inline definitions mark `required`), one with a variable of
the request given a value of another JSON type. Each is sent twice. "input-validation" passes
when every such request is refused (`status: Failure`); "error-messages" passes when every
refused request got the same message both times.
*/

use serde_json::{Value, json};

use super::probe::{Probe, Refusal};
use super::report::{Check, Status};
use super::subject::{Subject, call_label};
use crate::patches::capture::{Call, Captured};
use crate::runtime::{GeneratePatchesRequest, GeneratePatchesResponse};
use crate::variables::builtins::BUILTIN;

const INPUT: &str = "input-validation";
const MESSAGES: &str = "error-messages";

/// A request the extension should refuse.
struct Variant<'c> {
    call: &'c Call,
    /// What was changed, for people.
    what: String,
    request: GeneratePatchesRequest,
}

/// A value of another JSON type than `v`.
fn other_type(v: &Value) -> Value {
    match v {
        Value::String(_) => json!(12345),
        Value::Number(_) => json!("not-a-number"),
        Value::Bool(_) => json!("not-a-boolean"),
        Value::Array(_) => json!("not-a-list"),
        Value::Object(_) => json!("not-an-object"),
        Value::Null => json!(12345),
    }
}

/// Remove (`None`) or replace the variable `name` everywhere in the request.
fn set_variable(w: &mut GeneratePatchesRequest, name: &str, value: Option<&Value>) {
    let edit = |list: &mut Vec<crate::runtime::Variable>| match value {
        None => list.retain(|v| v.name != name),
        Some(x) => {
            for v in list.iter_mut().filter(|v| v.name == name) {
                v.value = x.clone();
            }
        }
    };
    edit(&mut w.variables);
    for i in &mut w.items {
        edit(&mut i.variables);
    }
}

fn variants<'c>(s: &Subject<'c>) -> Vec<Variant<'c>> {
    let mut out = Vec::new();
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for call in s.generate_calls() {
        if seen.contains(&(call.class.as_str(), call.patch_index)) {
            continue;
        }
        seen.push((call.class.as_str(), call.patch_index));
        let Captured::Generate { wire, .. } = &call.captured else {
            continue;
        };
        let patch = s.patch_of(call);
        let required = |name: &str| {
            patch
                .and_then(|p| p.status.as_ref())
                .and_then(|st| st.get(name))
                .is_some_and(|v| v.definitions.iter().any(|d| d.required == Some(true)))
        };
        let names: Vec<&str> = wire
            .variables
            .iter()
            .map(|v| v.name.as_str())
            .filter(|n| *n != BUILTIN)
            .collect();
        if let Some(name) = names.iter().find(|n| required(n)) {
            let mut w = wire.clone();
            set_variable(&mut w, name, None);
            out.push(Variant {
                call,
                what: format!("the required variable {name:?} removed"),
                request: w,
            });
        }
        if let Some(v) = wire.variables.iter().find(|v| v.name != BUILTIN) {
            let bad = other_type(&v.value);
            let mut w = wire.clone();
            set_variable(&mut w, &v.name, Some(&bad));
            out.push(Variant {
                call,
                what: format!("the variable {:?} set to {bad} (another type)", v.name),
                request: w,
            });
        }
    }
    out
}

fn answer(p: &Probe<GeneratePatchesResponse>) -> Value {
    match &p.result {
        Ok(r) => json!({"status": "Success", "items": r.items.len()}),
        Err(Refusal::Failure(m)) => json!({"status": "Failure", "message": m}),
        Err(Refusal::Error(e)) => json!({"error": e}),
    }
}

/// Judge the subject: "input-validation", then "error-messages".
pub fn check(s: &Subject<'_>) -> Vec<Check> {
    if s.generate_calls().is_empty() {
        return vec![
            Check::skipped(INPUT, s.skip_reason()),
            Check::skipped(MESSAGES, s.skip_reason()),
        ];
    }
    let vs = variants(s);
    if vs.is_empty() {
        let why = "the requests carry no variable of the patch to remove or mistype (the class gives no way to build a request the extension should refuse)";
        return vec![Check::skipped(INPUT, why), Check::skipped(MESSAGES, why)];
    }
    let mut accepted = Vec::new();
    let mut unstable = None;
    let mut refused = 0;
    let mut answers = Vec::new();
    for v in &vs {
        let a = s.call(&v.call.handler, v.request.clone());
        let b = s.call(&v.call.handler, v.request.clone());
        answers.push(json!({"variation": v.what, "first": answer(&a), "then": answer(&b)}));
        match &a.result {
            Err(Refusal::Failure(m1)) => {
                refused += 1;
                let same = matches!(&b.result, Err(Refusal::Failure(m2)) if m2 == m1);
                if !same && unstable.is_none() {
                    unstable = Some((v, answer(&a), answer(&b)));
                }
            }
            _ => accepted.push((v, answer(&a))),
        }
    }
    let input = if let Some((v, got)) = accepted.first() {
        Check::new(
            INPUT,
            Status::Failed,
            format!(
                "{}: a request with {} was not refused",
                call_label(v.call),
                v.what
            ),
        )
        .with("handler", json!(v.call.handler))
        .with("variation", json!(v.what))
        .with("answer", got.clone())
        .with(
            "notRefused",
            json!(
                accepted
                    .iter()
                    .map(|(v, _)| v.what.clone())
                    .collect::<Vec<_>>()
            ),
        )
    } else {
        Check::new(
            INPUT,
            Status::Passed,
            format!(
                "{} invalid request(s) refused: {}",
                vs.len(),
                vs.iter()
                    .map(|v| v.what.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        )
        .with("answers", json!(answers))
    };
    let messages = match unstable {
        Some((v, a, b)) => Check::new(
            MESSAGES,
            Status::Failed,
            format!(
                "{}: the same request (with {}) was refused with different messages",
                call_label(v.call),
                v.what
            ),
        )
        .with("handler", json!(v.call.handler))
        .with("variation", json!(v.what))
        .with("first", a)
        .with("then", b)
        .with("request", super::subject::request_json(&v.request)),
        None if refused == 0 => Check::skipped(
            MESSAGES,
            "the extension refused none of the invalid requests, so there was no message to compare",
        ),
        None => Check::new(
            MESSAGES,
            Status::Passed,
            format!("{refused} refused request(s) sent twice: the same message both times"),
        )
        .with("answers", json!(answers)),
    };
    vec![input, messages]
}
