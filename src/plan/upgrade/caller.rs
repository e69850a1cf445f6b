/*!
Calling a ClusterClass's GenerateUpgradePlan extension for one Cluster (Cluster API main
`exp/topology/desiredstate/upgrade_plan.go` `GetUpgradePlanFromExtension`), and the diagnostic
when that call fails.

Owns the request (the Cluster as stored, trimmed as Cluster API trims it, and the versions the
sequencing hands over), the gate check, the error wrapping Cluster API adds, and which code, place
and help a failure gets. The sequencing (`super`) decides whether a plan is needed and
validates what comes back; the registry (`crate::runtime`) makes the call, so recording, replay,
tracing, timeouts, failure policies and the response bounds apply as to every hook.

Cluster API caches answers per Cluster and versions for ten minutes; a plan asks once per Cluster
anyway, so there is nothing to cache.
*/

use std::cell::RefCell;

use crate::api::external::extension_of;
use crate::api::{Cluster, ClusterClass};
use crate::diag::{Code, Diagnostic};
use crate::runtime::{self, GenerateUpgradePlanRequest, Registry};

use super::{PlanRequest, PlanResponse};

/// Where a ClusterClass names its GenerateUpgradePlan handler.
pub(super) const FIELD: &str = "/spec/upgrade/external/generateUpgradePlanExtension";

/// Why the call gave no plan.
#[derive(Debug)]
pub(super) enum Failure {
    /// The `RuntimeSDK` gate is off.
    Gate,
    /// The registry's error (not registered, transport, Failure status, recording, …).
    Call(runtime::Error),
}

/// Calls the extension for one Cluster and remembers why it failed.
pub(super) struct Caller<'a> {
    cluster: &'a Cluster,
    registry: Option<&'a Registry>,
    runtime_sdk: bool,
    /// The sequencing calls at most once per Cluster; its error text alone would lose the kind.
    failure: RefCell<Option<Failure>>,
}

impl<'a> Caller<'a> {
    pub(super) fn new(
        cluster: &'a Cluster,
        registry: Option<&'a Registry>,
        runtime_sdk: bool,
    ) -> Caller<'a> {
        Caller {
            cluster,
            registry,
            runtime_sdk,
            failure: RefCell::new(None),
        }
    }

    /// `GetUpgradePlanFromExtension`'s function: the plan, or its error in Cluster API's words.
    pub(super) fn call(&self, req: &PlanRequest<'_>) -> Result<PlanResponse, String> {
        let name = req.extension;
        if !self.runtime_sdk {
            self.failure.replace(Some(Failure::Gate));
            return Err(format!(
                "can not use GenerateUpgradePlan extension {name:?} if RuntimeSDK feature flag is disabled"
            ));
        }
        let request = GenerateUpgradePlanRequest {
            cluster: runtime::upgrade_plan::cluster_for_request(&self.cluster.object.value),
            from_control_plane_kubernetes_version: req.control_plane_version.to_string(),
            from_workers_kubernetes_version: req.min_workers_version.to_string(),
            to_kubernetes_version: req.desired_version.to_string(),
            ..Default::default()
        };
        // Without any registry (no extension given at all) the handler is as unregistered as
        // when the registry lacks it.
        let answer = match self.registry {
            Some(r) => r.generate_upgrade_plan(name, request),
            None => Err(runtime::Error::NotRegistered { name: name.into() }),
        };
        let response = answer.map_err(|e| {
            let message = format!("failed to get upgrade plan from extension: {e}");
            self.failure.replace(Some(Failure::Call(e)));
            message
        })?;
        let (control_plane, workers) = response.versions();
        Ok(PlanResponse {
            control_plane,
            workers,
        })
    }

    /// Why the call failed, when it did.
    pub(super) fn failure(&self) -> Option<Failure> {
        self.failure.take()
    }
}

/// The diagnostic of a failed call: at the class's field naming the handler, with the code and
/// help of what failed.
pub(super) fn diagnostic(
    failure: Failure,
    message: String,
    cluster: &Cluster,
    class: &ClusterClass,
    handler: &str,
    registry: Option<&Registry>,
) -> Diagnostic {
    let ext = extension_of(handler);
    let (code, help) = match &failure {
        Failure::Gate => (
            Code::PlanUpgradeExtension,
            "the RuntimeSDK feature gate is off (--feature-gates), so Cluster API cannot call the extension either".to_string(),
        ),
        Failure::Call(e) => match (e.recording_code(), e) {
            (Some(code), runtime::Error::NotRecorded { .. }) => (
                code,
                "the recording given to --replay-extensions does not hold this call: the Cluster or its current objects changed since it was made".to_string(),
            ),
            (Some(code), _) => (code, "see --record-extensions and --replay-extensions".to_string()),
            (None, runtime::Error::NotRegistered { .. }) => {
                let given = registry.is_some_and(|r| r.extensions().any(|n| n == ext));
                (
                    Code::PlanUpgradeExtension,
                    if given {
                        format!(
                            "the Discovery of extension {ext:?} does not announce a handler named {:?}",
                            handler.split_once('.').map_or(handler, |(h, _)| h)
                        )
                    } else {
                        format!(
                            "start the extension and pass --extension {ext}=URL (its base URL, http or https), or add its ExtensionConfig to the input; it is called whenever a Cluster of this class needs an upgrade plan"
                        )
                    },
                )
            }
            (None, runtime::Error::Call { .. }) => (
                Code::ExtensionCall,
                format!(
                    "is the extension {ext:?} running and reachable, and does it answer within its timeout? (failurePolicy Ignore would turn this into an empty plan, which Cluster API refuses)"
                ),
            ),
            (None, _) => (
                Code::PlanUpgradeExtension,
                "the extension did not give an upgrade plan; Cluster API would not reconcile this Cluster"
                    .to_string(),
            ),
        },
    };
    Diagnostic::error(code, message)
        .at(
            &class.object.origin,
            FIELD,
            format!(
                "the upgrade plan of Cluster {} comes from here",
                cluster.object.key()
            ),
        )
        .with_help(help)
}
