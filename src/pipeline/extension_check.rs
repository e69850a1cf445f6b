/*!
The driver of `topoplan extension check`: read and admit the input as `plan` does, connect the
extensions (Discovery), plan the Clusters with the patch engine keeping the requests it sends
([`crate::patches::capture`]), then let [`crate::extension_check`] judge the extensions under
test with them.

Only the first [`MAX_CLUSTERS`] Clusters (in plan order) are planned: their requests are enough
to judge an extension, and every Cluster planned calls it. An input that does not admit still
gets the checks that need no plan request (Discovery, discovered variables, their latency); its
errors are returned for the caller to report.
*/

use std::time::Instant;

use serde_json::Value;

use super::{Against, Side, add_provider_crds, load_crds};
use crate::api::external::{extension_of, handler as external_handler, v1beta1_field};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::extension_check::{self, CheckOptions, ExternalPatch, Report, Subject};
use crate::load::{self, Object};
use crate::patches::capture::Capture;
use crate::plan::extensions::{self, Need};
use crate::plan::fleet::Fleet;
use crate::plan::{Extensions, State};
use crate::topology::Catalog;

/// The most Clusters planned for their requests.
pub const MAX_CLUSTERS: usize = 16;

/// What a check run leaves.
#[derive(Debug)]
pub struct Checked {
    /// The checks.
    pub report: Report,
    /// Why the input could not be planned (admission errors): the run fails with them.
    pub errors: Vec<Diagnostic>,
    /// What else the user should know (Clusters whose plan failed, the loader's skips).
    pub warnings: Vec<Diagnostic>,
}

const HOOKS: [(&str, &str); 3] = [
    ("generatePatchesExtension", "GeneratePatches"),
    ("validateTopologyExtension", "ValidateTopology"),
    ("discoverVariablesExtension", "DiscoverVariables"),
];

/// The external patches of the input's ClusterClasses (either API version) that name a handler
/// of a tested extension.
fn external_patches(objects: &[Object], tested: &[String]) -> Vec<ExternalPatch> {
    let mut out = Vec::new();
    for class in objects
        .iter()
        .filter(|o| o.kind == "ClusterClass" && o.group() == crate::api::GROUP)
    {
        let list = |p: &str| {
            class
                .value
                .pointer(p)
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice)
        };
        let inline: Vec<String> = list("/spec/variables")
            .iter()
            .filter_map(|v| v.get("name").and_then(Value::as_str).map(str::to_string))
            .collect();
        for (index, p) in list("/spec/patches").iter().enumerate() {
            let handlers: Vec<(&'static str, String)> = HOOKS
                .iter()
                .filter_map(|(field, hook)| {
                    external_handler(p, field)
                        .or_else(|| external_handler(p, v1beta1_field(field)))
                        .map(|h| (*hook, h.to_string()))
                })
                .collect();
            if !handlers
                .iter()
                .any(|(_, h)| tested.iter().any(|t| t == extension_of(h)))
            {
                continue;
            }
            out.push(ExternalPatch {
                class: class.key(),
                index,
                name: p
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                settings: crate::api::external::settings(p),
                handlers,
                inline_variables: inline.clone(),
                status: None,
            });
        }
    }
    out
}

/// Run `topoplan extension check`.
pub fn check(opts: &CheckOptions) -> Result<Checked, Diagnostics> {
    let started = Instant::now();
    let deadline = opts.deadline.map(|d| (started + d, d));
    let past_deadline = || deadline.is_some_and(|(at, _)| Instant::now() >= at);
    let mut inputs = load::load(&opts.plan.load)?;
    add_provider_crds(opts.plan.providers.as_ref(), &mut inputs).map_err(Diagnostics)?;
    let extra_crds = load_crds(opts.plan.crds.as_ref(), &inputs.objects)?;
    let mut warnings = inputs.warnings.clone();
    let tested: Vec<String> = opts
        .plan
        .extensions
        .extensions
        .iter()
        .map(|e| e.name.clone())
        .collect();
    let mut patches = external_patches(&inputs.objects, &tested);
    if patches.is_empty() {
        return Err(nothing_to_check(&tested));
    }
    let report_extensions: Vec<(String, String)> = opts
        .plan
        .extensions
        .extensions
        .iter()
        .map(|e| (e.name.clone(), e.url.clone()))
        .collect();

    let start = Instant::now();
    let connected = extensions::connect(&inputs.objects, &opts.plan.extensions, Need::Plan);
    let elapsed = start.elapsed();
    let registry = match connected {
        Ok(Some(r)) => r,
        Ok(None) => {
            return Err(Diagnostics(vec![Diagnostic::error(
                Code::ExtensionCheckNothing,
                "no extension of the input needs to be contacted",
            )]));
        }
        Err(d) => {
            let checks = discovery_failed(&d, elapsed, &tested, &patches);
            return Ok(Checked {
                report: Report {
                    extensions: report_extensions,
                    checks,
                },
                errors: Vec::new(),
                warnings,
            });
        }
    };

    let capture = Capture::default();
    let Planned {
        side,
        mut errors,
        no_requests,
    } = plan_for_requests(
        opts,
        inputs,
        &extra_crds,
        &mut patches,
        &capture,
        &mut warnings,
        &past_deadline,
    );
    let registry = side
        .as_ref()
        .and_then(|s| s.registry.as_ref())
        .unwrap_or(&registry);
    // Failures the plan's calls were forgiven are the checks' to find again.
    let _ = registry.take_ignored();
    let (calls, _) = capture.take();
    let subject = Subject {
        registry,
        tested: &tested,
        patches: &patches,
        calls: &calls,
        no_requests: if calls.is_empty() {
            Some(no_requests.unwrap_or_else(|| {
                "a plan of the input sent no GeneratePatches request to the extension".into()
            }))
        } else {
            None
        },
        calls_per_handler: opts.calls,
        baseline: opts.baseline.as_ref(),
        deadline,
        stopped: std::sync::atomic::AtomicBool::new(past_deadline()),
    };
    let mut checks = vec![extension_check::discovery::check(
        Ok(registry),
        elapsed,
        &tested,
        &patches,
    )];
    checks.extend(extension_check::run(&subject));
    if let Some((_, limit)) = deadline
        && subject.stopped.load(std::sync::atomic::Ordering::Relaxed)
    {
        errors.push(deadline_reached(&checks, limit, started));
    }
    Ok(Checked {
        report: Report {
            extensions: report_extensions,
            checks,
        },
        errors,
        warnings,
    })
}

/// The error for an input with no external patch of an extension under test.
fn nothing_to_check(tested: &[String]) -> Diagnostics {
    Diagnostics(vec![
        Diagnostic::error(
            Code::ExtensionCheckNothing,
            format!(
                "no ClusterClass of the input has an external patch served by {}",
                tested
                    .iter()
                    .map(|t| format!("extension {t:?}"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        )
        .with_help(
            "give the ClusterClass whose patches name the extension (generatePatchesExtension: <handler>.NAME), its templates and a Cluster using it; NAME must match --extension NAME=URL",
        ),
    ])
}

/// The checks when Discovery failed (`d`): Discovery's, failed, and every other one skipped,
/// since no handler could be called.
fn discovery_failed(
    d: &Diagnostics,
    elapsed: std::time::Duration,
    tested: &[String],
    patches: &[ExternalPatch],
) -> Vec<extension_check::Check> {
    let errors: Vec<String> = d.0.iter().map(|d| d.message.clone()).collect();
    let mut checks = vec![extension_check::discovery::check(
        Err(&errors),
        elapsed,
        tested,
        patches,
    )];
    let subject_skip = "Discovery failed, so no handler could be called";
    for name in [
        "deterministic-results",
        "idempotence",
        "input-validation",
        "error-messages",
        "timeouts",
        "response-validity",
        "discovered-variables",
    ] {
        checks.push(extension_check::Check::skipped(name, subject_skip));
    }
    checks
}

/// What planning the input for its requests leaves.
struct Planned {
    /// The admitted input; `None` when it does not pass admission.
    side: Option<Side>,
    /// Why the input could not be planned.
    errors: Vec<Diagnostic>,
    /// Why no request may have been sent, for the checks that need one.
    no_requests: Option<String>,
}

/// Admit the input and plan its first [`MAX_CLUSTERS`] Clusters with `capture` keeping the
/// requests sent; each patch learns its class's `status.variables`. A Cluster whose plan
/// fails is a warning (the checks judge the extension, not the input).
fn plan_for_requests(
    opts: &CheckOptions,
    inputs: load::Inputs,
    extra_crds: &[Object],
    patches: &mut [ExternalPatch],
    capture: &Capture,
    warnings: &mut Vec<Diagnostic>,
    past_deadline: &dyn Fn() -> bool,
) -> Planned {
    let mut out = Planned {
        side: None,
        errors: Vec::new(),
        no_requests: None,
    };
    let side = match Side::admit(&opts.plan, inputs, Against::Nothing, extra_crds) {
        Ok(side) => side,
        Err(d) => {
            let first = d
                .iter()
                .find(|d| d.is_error())
                .map(|d| d.message.clone())
                .unwrap_or_default();
            out.no_requests = Some(format!(
                "the input does not pass admission, so no Cluster was planned: {first}"
            ));
            out.errors = d;
            return out;
        }
    };
    for p in patches.iter_mut() {
        if let Some((ns, name)) = p.class.split_once('/') {
            p.status = side
                .validation
                .status_variables
                .get(&(ns.to_string(), name.to_string()))
                .cloned();
        }
    }
    let catalog = Catalog::new(&side.objects);
    let ext = Extensions {
        capture: Some(capture),
        ..side.extensions()
    };
    let state = State {
        index: None,
        lists: &side.lists,
        sole_owner: false,
    };
    match Fleet::prepare(&side.objects, &side.classes, &catalog, &[], ext, state) {
        Ok(fleet) => {
            if fleet.is_empty() {
                out.no_requests =
                    Some("the input has no Cluster of a class with these patches to plan".into());
            }
            plan_first_clusters(&fleet, warnings, past_deadline);
        }
        Err(d) => {
            out.no_requests = Some("the input's Clusters cannot be planned".into());
            out.errors.extend(d.0);
        }
    }
    drop(catalog);
    out.side = Some(side);
    out
}

/// Plan the fleet's first [`MAX_CLUSTERS`] Clusters (each calls the extension), none past the
/// deadline; their errors become warnings.
fn plan_first_clusters(
    fleet: &Fleet<'_>,
    warnings: &mut Vec<Diagnostic>,
    past_deadline: &dyn Fn() -> bool,
) {
    if fleet.len() > MAX_CLUSTERS {
        warnings.push(Diagnostic::warning(
            Code::ExtensionCheckNothing,
            format!(
                "the input has {} Clusters; the requests of the first {MAX_CLUSTERS} are checked",
                fleet.len()
            ),
        ));
    }
    for i in 0..fleet.len().min(MAX_CLUSTERS) {
        // Each Cluster planned calls the extension: none starts past the deadline.
        if past_deadline() {
            break;
        }
        if let Err(d) = super::cluster::plan(fleet, i) {
            warnings.extend(d.into_iter().map(|mut d| {
                d.severity = Severity::Warning;
                d
            }));
        }
    }
}

/// The error of a run stopped at its deadline (`limit`), naming the checks run and not run.
fn deadline_reached(
    checks: &[extension_check::Check],
    limit: std::time::Duration,
    started: Instant,
) -> Diagnostic {
    let names = |skipped: bool| {
        let n: Vec<&str> = checks
            .iter()
            .filter(|c| {
                (c.status == extension_check::Status::Skipped && c.message.contains("(--deadline)"))
                    == skipped
            })
            .map(|c| c.name)
            .collect();
        if n.is_empty() {
            "none".to_string()
        } else {
            n.join(", ")
        }
    };
    Diagnostic::error(
        Code::ExtensionCheckDeadline,
        format!(
            "extension check stopped at its run deadline of {} s after {} s: checked {}; not run: {}",
            limit.as_secs(),
            started.elapsed().as_secs(),
            names(false),
            names(true)
        ),
    )
    .with_help(
        "the extension answers slowly (the timeouts check shows how slowly, when it ran); raise --deadline, or lower --calls",
    )
}
