/*!
"Idempotence": an extension must return patches only when a template needs changing. Each
GeneratePatches request's patched templates (the first answer applied as Cluster API applies
it) are sent back as a new request with the same variables; the answer must leave them as they
are. Patches that apply as no-ops are fine: templates are compared, not patches.
*/

use serde_json::{Value, json};

use super::determinism::{First, outcome};
use super::report::{Check, Status};
use super::subject::{Subject, call_label};
use super::templates::{first_difference, with_templates};

const NAME: &str = "idempotence";

/// Judge the subject.
pub fn check(s: &Subject<'_>, first: &[First<'_>]) -> Check {
    let mut judged = 0;
    for f in first {
        let Ok(patched) = outcome(f.request, &f.probe.result) else {
            continue;
        };
        judged += 1;
        let (req2, wire2) = with_templates(f.request, f.wire, &patched);
        let p = s.call(&f.call.handler, wire2);
        let again = match outcome(&req2, &p.result) {
            Ok(t) => t,
            Err(e) => {
                return Check::new(
                    NAME,
                    Status::Failed,
                    format!(
                        "{}: sent back its own patched templates, the extension {e}",
                        call_label(f.call)
                    ),
                )
                .with("handler", json!(f.call.handler));
            }
        };
        if let Some((uid, before)) = patched.iter().find(|(k, v)| again.get(*k) != Some(v)) {
            let after = again.get(uid);
            let patches: Vec<Value> = p
                .result
                .as_ref()
                .map(|r| {
                    r.items
                        .iter()
                        .filter(|i| &i.uid == uid)
                        .map(|i| {
                            serde_json::from_slice::<Value>(&i.patch).unwrap_or_else(|_| {
                                json!(String::from_utf8_lossy(&i.patch).into_owned())
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            return Check::new(
                NAME,
                Status::Failed,
                format!(
                    "{}: sent back its own patched templates, the extension changed template {uid} again (at {})",
                    call_label(f.call),
                    after
                        .and_then(|a| first_difference(before, a))
                        .unwrap_or_else(|| "/".into())
                ),
            )
            .with("handler", json!(f.call.handler))
            .with("uid", json!(uid))
            .with("patch", json!(patches))
            .with("patched", before.clone())
            .with("patchedAgain", after.cloned().unwrap_or(Value::Null));
        }
    }
    if judged == 0 {
        return Check::skipped(
            NAME,
            if first.is_empty() {
                s.skip_reason()
            } else {
                "no GeneratePatches request was answered with patches that apply".into()
            },
        );
    }
    Check::new(
        NAME,
        Status::Passed,
        format!("{judged} request(s) sent back patched: no further change"),
    )
    .with(
        "requests",
        super::subject::judged(&first.iter().map(|f| f.call).collect::<Vec<_>>()),
    )
}
