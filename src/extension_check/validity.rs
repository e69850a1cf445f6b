/*!
"Response validity": what Cluster API needs of an answer beyond its status. Every patch of the
first answer to each GeneratePatches request must name a uid of the request, decode as its
`patchType`, apply to its template, and change only what Cluster API copies from a patched
template into the object generated from it (`spec.template.spec`; on Cluster API main also
`spec.template.metadata` labels and annotations, and a machine or bootstrap template's own
labels and annotations): anything else is silently dropped, so the extension cannot mean it.
Each ValidateTopology request a plan sent (the patched topology) must be answered `Success`.
*/

use serde_json::{Value, json};

use super::determinism::First;
use super::probe::Refusal;
use super::report::{Check, Status};
use super::subject::{Subject, call_label};
use super::templates::{apply_raw, changed_paths};
use crate::api::ApiVersion;
use crate::patches::capture::Captured;
use crate::patches::engine::written_back;
use crate::patches::external::Generated;

const NAME: &str = "response-validity";

/// Whether a changed path lies inside (or above) one of the kept paths.
fn kept(path: &str, kept: &[String]) -> bool {
    kept.iter().any(|k| {
        path == k || path.starts_with(&format!("{k}/")) || k.starts_with(&format!("{path}/"))
    })
}

/// Judge the subject.
pub fn check(s: &Subject<'_>, first: &[First<'_>]) -> Check {
    let validates = s.validate_calls();
    if first.is_empty() && validates.is_empty() {
        return Check::skipped(NAME, s.skip_reason());
    }
    let fail = |msg: String| Check::new(NAME, Status::Failed, msg);
    let mut patches = 0;
    for f in first {
        let who = call_label(f.call);
        let resp = match &f.probe.result {
            Ok(r) => r,
            Err(Refusal::Failure(m)) => {
                return fail(format!(
                    "{who}: the extension refused a request a plan sends: {m}"
                ))
                .with("handler", json!(f.call.handler))
                .with("request", super::subject::request_json(f.wire));
            }
            Err(Refusal::Error(e)) => {
                return fail(format!("{who}: {e}")).with("handler", json!(f.call.handler));
            }
        };
        let api = match f
            .request
            .items
            .iter()
            .find(|i| i.holder_ref.kind == "Cluster")
            .map(|i| i.holder_ref.api_version.as_str())
        {
            Some("cluster.x-k8s.io/v1beta1") => ApiVersion::V1Beta1,
            _ => ApiVersion::V1Beta2,
        };
        for item in &resp.items {
            patches += 1;
            let Some(target) = f.request.items.iter().find(|i| i.uid == item.uid) else {
                return fail(format!(
                    "{who}: a patch names uid {:?}, which the request does not hold",
                    item.uid
                ))
                .with("handler", json!(f.call.handler))
                .with(
                    "requestUids",
                    json!(f.request.items.iter().map(|i| &i.uid).collect::<Vec<_>>()),
                );
            };
            let evidence = |c: Check| {
                c.with("handler", json!(f.call.handler))
                    .with("uid", json!(item.uid))
                    .with("patchType", json!(item.patch_type.0))
                    .with(
                        "patch",
                        serde_json::from_slice::<Value>(&item.patch).unwrap_or_else(|_| {
                            json!(String::from_utf8_lossy(&item.patch).into_owned())
                        }),
                    )
            };
            let decoded = match Generated(item.clone()).decode() {
                Ok(Some(d)) => d,
                Ok(None) => continue,
                Err(e) => return evidence(fail(format!("{who}: template {}: {e}", item.uid))),
            };
            let patched = match apply_raw(&decoded, &target.object) {
                Ok(p) => p,
                Err(e) => {
                    return evidence(fail(format!(
                        "{who}: the patch for template {} does not apply: {e}",
                        item.uid
                    )));
                }
            };
            let allowed: Vec<String> = written_back(&target.role, api)
                .iter()
                .map(|p| format!("/{}", p.join("/")))
                .collect();
            let outside: Vec<String> = changed_paths(&target.object, &patched)
                .into_iter()
                .filter(|p| !kept(p, &allowed))
                .collect();
            if !outside.is_empty() {
                return evidence(
                    fail(format!(
                        "{who}: the patch for template {} changes {}, which Cluster API drops (it keeps only {})",
                        item.uid,
                        outside.join(", "),
                        allowed.join(", ")
                    ))
                    .with("outside", json!(outside)),
                );
            }
        }
    }
    for call in &validates {
        let Captured::Validate { wire } = &call.captured else {
            continue;
        };
        let p = s.call(&call.handler, wire.clone());
        if let Err(r) = p.result {
            return fail(format!(
                "{}: ValidateTopology did not accept the patched topology: {}",
                call_label(call),
                r.text()
            ))
            .with("handler", json!(call.handler))
            .with("request", super::subject::request_json(wire));
        }
    }
    Check::new(
        NAME,
        Status::Passed,
        format!(
            "{patches} patch(es) of {} answer(s) decode, apply and change only kept fields; {} ValidateTopology request(s) answered Success",
            first.len(),
            validates.len()
        ),
    )
    .with(
        "requests",
        super::subject::judged(
            &first
                .iter()
                .map(|f| f.call)
                .chain(validates.iter().copied())
                .collect::<Vec<_>>(),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_paths_include_their_parents_and_children() {
        let k = vec!["/spec/template/spec".to_string()];
        assert!(kept("/spec/template/spec/x", &k));
        assert!(kept("/spec/template", &k));
        assert!(!kept("/spec/templateX", &k));
        assert!(!kept("/status", &k));
        assert!(!kept("/spec/other", &k));
    }
}
