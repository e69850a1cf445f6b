/*!
The Runtime extensions a plan talks to: which ones the input needs, where they are, and the
connection (Discovery) made once before admission.

Owns the rules of when to call out. Extensions come from `--extension NAME=URL` and the
input's ExtensionConfig objects (`runtime.cluster.x-k8s.io`); they are contacted only when a
ClusterClass of the input has an external patch, or (for a plan) names a GenerateUpgradePlan
extension that was given, so a plan of inline classes never touches the network. A class whose
external patch names an extension that was not given is refused up front, before any Cluster is
planned, with the flag to pass; a GenerateUpgradePlan extension is needed only when some Cluster
needs an upgrade plan, so its absence is that Cluster's error (as in Cluster API, an unregistered
handler).
*/

use serde_json::Value;

use crate::api;
use crate::api::external::{
    extension_of, handler as external_handler, v1beta1_field as v1beta1_external_field,
};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::load::Object;
use crate::patches::engine::no_extension_error;
use crate::runtime::{self, ExtensionOptions, Registry};

/// The group of ExtensionConfig.
const RUNTIME_GROUP: &str = "runtime.cluster.x-k8s.io";

/// The external-patch field whose extension a plan cannot do without. (DiscoverVariables may
/// be stood in for by a recorded response; a ValidateTopology-only patch fails in the engine
/// first, as in Cluster API, because it generates nothing.)
const PLAN_HOOKS: [&str; 1] = ["generatePatchesExtension"];
const ALL_HOOKS: [&str; 3] = [
    "generatePatchesExtension",
    "validateTopologyExtension",
    "discoverVariablesExtension",
];

/// `(patch index, patch name, field, handler)` of every external handler of a ClusterClass
/// as read (either API version; `field` is the v1beta2 name). The class is not parsed: this
/// runs before admission, on every plan.
fn handlers<'c>(
    class: &'c Object,
    fields: &'static [&'static str],
) -> Vec<(usize, &'c str, &'static str, &'c str)> {
    let mut out = Vec::new();
    let patches = class
        .value
        .pointer("/spec/patches")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (i, p) in patches.iter().enumerate() {
        let name = p.get("name").and_then(Value::as_str).unwrap_or("");
        for f in fields {
            let h =
                external_handler(p, f).or_else(|| external_handler(p, v1beta1_external_field(f)));
            if let Some(h) = h {
                out.push((i, name, *f, h));
            }
        }
    }
    out
}

/// The pointer of a ClusterClass's GenerateUpgradePlan handler.
const UPGRADE_FIELD: &str = "/spec/upgrade/external/generateUpgradePlanExtension";

/// The GenerateUpgradePlan handler a ClusterClass names, when it does.
fn upgrade_handler(class: &Object) -> Option<&str> {
    class
        .value
        .pointer(UPGRADE_FIELD)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// Which calls the command makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// `plan`: GeneratePatches and ValidateTopology must be callable; DiscoverVariables and
    /// GenerateUpgradePlan when given.
    Plan,
    /// `validate`: only DiscoverVariables, and only when its extension is given.
    Validate,
}

/// The extensions the flags and the input's ExtensionConfigs describe, connected (Discovery
/// called) when some ClusterClass has external patches; `None` when none is needed.
pub fn connect(
    objects: &[Object],
    flags: &ExtensionOptions,
    need: Need,
) -> Result<Option<Registry>, Diagnostics> {
    let classes: Vec<&Object> = objects
        .iter()
        .filter(|o| o.kind == "ClusterClass" && o.group() == api::GROUP)
        .collect();
    let mut opts = extension_options(objects, flags)?;
    let known = |h: &str| opts.extensions.iter().any(|e| e.name == extension_of(h));
    let mut needed = missing_plan_extensions(&classes, &known, need)?;
    let users: Vec<PatchUser<'_>> = classes
        .iter()
        .flat_map(|&c| {
            handlers(c, &ALL_HOOKS)
                .into_iter()
                .map(move |(i, _, f, h)| (c, i, f, h))
        })
        .collect();
    // Classes planning upgrades through an extension that was given; one not given is only an
    // error for a Cluster that needs a plan.
    let upgrade_users: Vec<(&Object, &str)> = if need == Need::Plan {
        classes
            .iter()
            .filter_map(|&c| Some((c, upgrade_handler(c)?)))
            .filter(|(_, h)| known(h))
            .collect()
    } else {
        Vec::new()
    };
    needed |= !upgrade_users.is_empty();
    // Only the extensions some class names are contacted: an input taken from a management
    // cluster may hold ExtensionConfigs of extensions that are not reachable from here.
    opts.extensions.retain(|e| {
        users.iter().any(|(_, _, _, h)| extension_of(h) == e.name)
            || upgrade_users.iter().any(|(_, h)| extension_of(h) == e.name)
    });
    if !needed || opts.extensions.is_empty() {
        return Ok(None);
    }
    Registry::connect(&opts).map(Some).map_err(|errs| {
        Diagnostics(
            errs.into_iter()
                .map(|e| connect_error(&e, &opts, &users, &upgrade_users))
                .collect(),
        )
    })
}

/// A class's external patch handler: (class, patch index, v1beta2 field, handler).
type PatchUser<'c> = (&'c Object, usize, &'static str, &'c str);

/// The options of the registry: the flags' extensions, the input's ExtensionConfigs (an
/// invalid one is an error located at it), and, when replaying, the recording's extensions.
fn extension_options(
    objects: &[Object],
    flags: &ExtensionOptions,
) -> Result<ExtensionOptions, Diagnostics> {
    let configs: Vec<&Object> = objects
        .iter()
        .filter(|o| o.kind == "ExtensionConfig" && o.group() == RUNTIME_GROUP)
        .collect();
    let values: Vec<Value> = configs.iter().map(|o| o.value.clone()).collect();
    let mut opts = ExtensionOptions::with_extension_configs(
        flags.extensions.clone(),
        &values,
        flags.ca_pem.clone(),
        flags.insecure_skip_tls_verify,
    )
    .map_err(|errs| {
        Diagnostics(
            errs.into_iter()
                .map(|e| {
                    let d = Diagnostic::error(Code::ExtensionConfig, e);
                    // Locate the message at its ExtensionConfig when the name says which.
                    match configs
                        .iter()
                        .find(|o| d.message.contains(&format!("ExtensionConfig {:?}", o.name)))
                    {
                        Some(o) => d.at_key(&o.origin, "/spec/clientConfig", "here"),
                        None => d,
                    }
                })
                .collect(),
        )
    })?;
    opts.max_response_bytes = flags.max_response_bytes;
    opts.wire = flags.wire.clone();
    // Which ExtensionConfig URLs may be called is the command line's to say (the registry
    // refuses the others).
    opts.allowed_urls = flags.allowed_urls.clone();
    // A replay needs no URL: the recording names its extensions (their URLs are never used).
    if let Some(wire) = &flags.wire.0
        && wire.replaying()
    {
        for name in wire.recorded_extensions() {
            if !opts.extensions.iter().any(|e| e.name == name) {
                opts.extensions.push(runtime::ExtensionSource {
                    name: name.to_string(),
                    url: format!("http://{name}.replayed.invalid"),
                    ..Default::default()
                });
            }
        }
    }
    Ok(opts)
}

/// Every handler a plan must call needs its extension (`known` says which are given): one
/// error per missing extension and class, at the first handler that needs it. Returns whether
/// any class names an external handler at all.
fn missing_plan_extensions(
    classes: &[&Object],
    known: &dyn Fn(&str) -> bool,
    need: Need,
) -> Result<bool, Diagnostics> {
    let mut errors = Vec::new();
    let mut needed = false;
    for &class in classes {
        let mut reported: Vec<&str> = Vec::new();
        for (index, name, field, handler) in handlers(class, &ALL_HOOKS) {
            needed = true;
            let ext = extension_of(handler);
            if need == Need::Plan
                && PLAN_HOOKS.contains(&field)
                && !known(handler)
                && !reported.contains(&ext)
            {
                reported.push(ext);
                errors.push(no_extension_error(class, index, name, field, handler));
            }
        }
    }
    if errors.is_empty() {
        Ok(needed)
    } else {
        Err(Diagnostics(errors))
    }
}

/// A setup or Discovery error as a diagnostic with its help, located at the first class
/// patch that needs the extension, else at the class that plans upgrades with it.
fn connect_error(
    e: &runtime::Error,
    opts: &ExtensionOptions,
    users: &[PatchUser<'_>],
    upgrade_users: &[(&Object, &str)],
) -> Diagnostic {
    let code = match e {
        runtime::Error::NotAllowed { .. } => Code::ExtensionNotAllowed,
        e => e.recording_code().unwrap_or(Code::ExtensionCall),
    };
    let mut d = Diagnostic::error(code, e.to_string());
    let failed = failed_extension(e);
    let patch_user =
        failed.and_then(|ext| users.iter().find(|(_, _, _, h)| extension_of(h) == ext));
    let upgrade_user =
        failed.and_then(|ext| upgrade_users.iter().find(|(_, h)| extension_of(h) == ext));
    if let Some((class, index, field)) = patch_user.map(|(c, i, f, _)| (*c, *i, *f)) {
        let written = if class
            .value
            .pointer(&format!("/spec/patches/{index}/external/{field}"))
            .is_some()
        {
            field
        } else {
            v1beta1_external_field(field)
        };
        d = d.at(
            &class.origin,
            &format!("/spec/patches/{index}/external/{written}"),
            format!("ClusterClass {} needs this extension", class.key()),
        );
    } else if let Some((class, _)) = upgrade_user {
        d = d.at(
            &class.origin,
            UPGRADE_FIELD,
            format!(
                "ClusterClass {} plans upgrades with this extension",
                class.key()
            ),
        );
    }
    match connect_help(e, opts) {
        Some(h) => d.with_help(h),
        None => d,
    }
}

/// What the user can do about a setup or Discovery error.
fn connect_help(e: &runtime::Error, opts: &ExtensionOptions) -> Option<String> {
    match e {
        runtime::Error::DiscoveryCall { extension, .. } => {
            let url = opts
                .extensions
                .iter()
                .find(|x| &x.name == extension)
                .map_or("", |x| x.url.as_str());
            Some(format!(
                "is the extension running and reachable at {url}? topoplan calls its Discovery before planning"
            ))
        }
        runtime::Error::Config { .. } => {
            Some("check --extension, --ca-file and the ExtensionConfig's clientConfig".to_string())
        }
        runtime::Error::NotRecorded { .. } => Some(
            "the recording given to --replay-extensions does not hold this extension's Discovery"
                .to_string(),
        ),
        runtime::Error::NotAllowed { extension, url } => Some(format!(
            "to call it, name it: --extension {extension}=URL (a URL of your choosing), or allow the ExtensionConfig's URL: --allow-extension-url {}",
            crate::escape::escape_line(url)
        )),
        _ => None,
    }
}

/// The extension a setup or Discovery error is about.
fn failed_extension(e: &runtime::Error) -> Option<&str> {
    use runtime::Error as E;
    match e {
        E::DiscoveryCall { extension, .. }
        | E::DiscoveryFailure { extension, .. }
        | E::DiscoveryUnknownStatus { extension, .. }
        | E::DiscoveryInvalid { extension, .. }
        | E::Config { extension, .. } => Some(extension),
        E::NotRecorded { handler, .. } => Some(handler),
        E::NotAllowed { extension, .. } => Some(extension),
        _ => None,
    }
}

/// End the run's recording, in place when the run `succeeded` (an earlier recording is left as
/// it was by a failed run): the errors, and warnings for requests the extension answered
/// differently when asked again and for a recording left as it was.
pub fn finish(opts: &ExtensionOptions, succeeded: bool) -> Vec<Diagnostic> {
    let Some(wire) = &opts.wire.0 else {
        return Vec::new();
    };
    match wire.finish(succeeded) {
        Ok(finished) => {
            let mut d: Vec<Diagnostic> = finished.differing
                .into_iter()
                .map(|what| {
                    Diagnostic::warning(
                        Code::ExtensionRecording,
                        format!("the extension answered the same {what} differently when asked again; the recording keeps the first answer"),
                    )
                    .with_help("an extension's answers must depend only on the request (Runtime SDK patch extension guidelines: deterministic results)")
                })
                .collect();
            if let Some(dir) = finished.kept {
                d.push(
                    Diagnostic::warning(
                        Code::ExtensionRecording,
                        format!(
                            "the run failed, so the recording in {} was left as it was: this run's calls were not written",
                            crate::escape::escape_line(&dir.display().to_string())
                        ),
                    )
                    .with_help("fix the failure and record again"),
                );
            }
            d
        }
        Err(e) => vec![Diagnostic::error(Code::ExtensionRecording, e.to_string())],
    }
}

/// Warnings for the calls `failurePolicy: Ignore` forgave (Cluster API only logs them), in a
/// stable order.
pub fn ignored(registry: Option<&Registry>) -> Vec<Diagnostic> {
    let Some(r) = registry else {
        return Vec::new();
    };
    let mut msgs: Vec<String> = r.take_ignored().iter().map(ToString::to_string).collect();
    msgs.sort();
    msgs.dedup();
    msgs.into_iter()
        .map(|m| {
            Diagnostic::warning(
                Code::ExtensionIgnored,
                format!("ignored because of failurePolicy Ignore: {m}"),
            )
            .with_help(
                "Cluster API goes on as if the extension had answered nothing; so does this plan",
            )
        })
        .collect()
}
