/*!
"Discovery": the extension answers Discovery, its handlers pass Cluster API's validation of a
Discovery response (unique DNS-1123 names, `timeoutSeconds` between 0 and 30, `failurePolicy`
Fail or Ignore, hooks of the Runtime SDK catalog), and every handler the input's external
patches name is announced, for the hook the patch names it for. A GeneratePatches or
ValidateTopology handler with `failurePolicy: Ignore` draws a warning: when it fails, Cluster
API reconciles the topology without it.
*/

use std::time::Duration;

use serde_json::json;

use super::probe::millis;
use super::report::{Check, Status};
use super::subject::ExternalPatch;
use crate::runtime::{FailurePolicy, Registry};

const NAME: &str = "discovery";

/// Judge Discovery: `connected` is the registry Discovery filled (or its errors) and how long
/// connecting took.
pub fn check(
    connected: Result<&Registry, &[String]>,
    elapsed: Duration,
    tested: &[String],
    patches: &[ExternalPatch],
) -> Check {
    let registry = match connected {
        Ok(r) => r,
        Err(errors) => {
            return Check::new(NAME, Status::Failed, errors.join("; "))
                .with("errors", json!(errors));
        }
    };
    let listed: Vec<_> = registry
        .handlers()
        .filter(|h| tested.iter().any(|t| t == &h.extension))
        .map(|h| {
            json!({
                "name": h.name,
                "hook": h.hook,
                "timeoutSeconds": h.timeout_seconds,
                "failurePolicy": match h.failure_policy {
                    FailurePolicy::Fail => "Fail",
                    FailurePolicy::Ignore => "Ignore",
                },
            })
        })
        .collect();
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let mut named = 0;
    for p in patches {
        for (hook, handler) in &p.handlers {
            if !tested
                .iter()
                .any(|t| t == crate::api::external::extension_of(handler))
            {
                continue;
            }
            named += 1;
            match registry.handler(handler) {
                None => problems.push(format!(
                    "ClusterClass {} patch {:?} names {hook} handler {handler:?}, which Discovery does not announce",
                    p.class, p.name
                )),
                Some(h) if h.hook != *hook => problems.push(format!(
                    "ClusterClass {} patch {:?} names {handler:?} as its {hook} handler, and Discovery announces it for {}",
                    p.class, p.name, h.hook
                )),
                Some(h) => {
                    if h.failure_policy == FailurePolicy::Ignore && *hook != "DiscoverVariables" {
                        warnings.push(format!(
                            "{handler} has failurePolicy Ignore: when it fails, Cluster API reconciles the topology without it"
                        ));
                    }
                }
            }
        }
    }
    warnings.dedup();
    let mut c = if problems.is_empty() {
        Check::new(
            NAME,
            Status::Passed,
            format!(
                "{} handler(s) announced, including the {named} the input's patches name; timeouts and failure policies valid",
                listed.len()
            ),
        )
    } else {
        Check::new(NAME, Status::Failed, problems.join("; "))
    };
    c.warnings = warnings;
    c.with("handlers", json!(listed))
        .with("elapsedMs", json!(millis(elapsed)))
}
