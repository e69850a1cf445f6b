/*!
Where Runtime extensions come from and the registry the patch engine calls.

Sources:
- `--extension NAME=URL`: NAME is the ExtensionConfig name a ClusterClass refers to (the part
  after the dot of `generate-patches.NAME`), URL is `http://` or `https://`;
- `ExtensionConfig` objects of the input (`runtime.cluster.x-k8s.io`, any version):
  `spec.clientConfig.url` (https) or `.service` (`https://<name>.<namespace>.svc:<port><path>`,
  port 443 by default), `caBundle` (base64 PEM) and `settings`.

A flag naming an ExtensionConfig of the input replaces its URL and keeps its CA bundle and
settings. TLS: an ExtensionConfig's `caBundle` wins over `--ca-file`, which wins over the system
roots; `--insecure-skip-tls-verify` turns verification off for every extension.
`namespaceSelector` is not evaluated (the plan holds no Namespace objects): every extension
serves every namespace, as the defaulted selector `{}` does.

Egress is the command line's choice, never the input's: an ExtensionConfig may come from a pull
request and name any URL (with its own CA bundle), or a service whose name triggers a DNS
lookup. So [`Registry::new`] sets up a client only for an extension `--extension` names, or
whose URL starts with a prefix `--allow-extension-url` gives ([`ExtensionOptions::allowed_urls`]);
any other is refused, before any I/O, with the flags that would allow it. A replay makes no
call, so it needs neither.

[`Registry`] is built without I/O ([`Registry::new`]), discovers handlers
([`Registry::discover`]) and then offers exactly the hooks a plan may call: the three topology
hooks [`Registry::generate_patches`], [`Registry::validate_topology`] and
[`Registry::discover_variables`], and [`Registry::generate_upgrade_plan`]. Lifecycle hooks
(BeforeClusterCreate, …) may be discovered but cannot be called: the only way to reach the network
is a [`TopologyHook`] request, a sealed trait implemented for those four request types alone
(none of them changes anything), so a plan has no side effects.
*/

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::client::{ClientCache, Endpoint, Handler, discover_via, encode_request, hook_url};
use super::error::Error;
use super::tls::TlsVerify;
use super::types::{
    API_VERSION, DiscoverVariablesRequest, DiscoverVariablesResponse, FailurePolicy, GROUP,
    GeneratePatchesRequest, GeneratePatchesResponse, Response, ResponseStatus,
    ValidateTopologyRequest, ValidateTopologyResponse,
};
use super::upgrade_plan::{GenerateUpgradePlanRequest, GenerateUpgradePlanResponse};
use super::wire::{Exchange, Wire};
use crate::go::url;

/// One extension before any I/O.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExtensionSource {
    /// The ExtensionConfig name.
    pub name: String,
    /// The base URL.
    pub url: String,
    /// PEM CA bundle for this extension only.
    pub ca_bundle: Option<Vec<u8>>,
    /// `spec.settings`, sent with every call (the ClusterClass' settings override them).
    pub settings: BTreeMap<String, String>,
    /// Whether the URL was named on the command line (`--extension`), so may be called.
    pub named: bool,
}

/// Everything the command line and the input say about extensions.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtensionOptions {
    /// The extensions, by name (flags and ExtensionConfig objects merged).
    pub extensions: Vec<ExtensionSource>,
    /// `--ca-file` contents (PEM).
    pub ca_pem: Option<Vec<u8>>,
    /// `--insecure-skip-tls-verify`.
    pub insecure_skip_tls_verify: bool,
    /// `--max-extension-response-bytes`: the largest answer body read from any extension.
    pub max_response_bytes: u64,
    /// The run's recording, replay and trace ([`super::wire`]); live calls when empty.
    pub wire: super::wire::WireHandle,
    /// `--allow-extension-url`: URL prefixes an ExtensionConfig of the input may name and still
    /// be called.
    pub allowed_urls: Vec<String>,
}

impl Default for ExtensionOptions {
    fn default() -> Self {
        ExtensionOptions {
            extensions: Vec::new(),
            ca_pem: None,
            insecure_skip_tls_verify: false,
            max_response_bytes: super::client::DEFAULT_MAX_RESPONSE_BYTES,
            wire: super::wire::WireHandle::default(),
            allowed_urls: Vec::new(),
        }
    }
}

impl ExtensionOptions {
    /// Add or update an extension: a later source of the same name replaces the URL and adds
    /// its settings; a CA bundle is kept unless the new source brings one.
    pub fn add(&mut self, src: ExtensionSource) {
        match self.extensions.iter_mut().find(|e| e.name == src.name) {
            Some(e) => {
                if !src.url.is_empty() {
                    e.url = src.url;
                    e.named = src.named;
                }
                if src.ca_bundle.is_some() {
                    e.ca_bundle = src.ca_bundle;
                }
                e.settings.extend(src.settings);
            }
            None => self.extensions.push(src),
        }
    }

    /// Add the ExtensionConfig objects of the input, then let `--extension` flags override
    /// their URLs. Errors name the object.
    pub fn with_extension_configs(
        flags: Vec<ExtensionSource>,
        configs: &[serde_json::Value],
        ca_pem: Option<Vec<u8>>,
        insecure_skip_tls_verify: bool,
    ) -> Result<ExtensionOptions, Vec<String>> {
        let mut opts = ExtensionOptions {
            extensions: Vec::new(),
            ca_pem,
            insecure_skip_tls_verify,
            ..Default::default()
        };
        let mut errors = Vec::new();
        for c in configs {
            match from_extension_config(c) {
                Ok(s) => opts.add(s),
                Err(e) => errors.push(e),
            }
        }
        for f in flags {
            opts.add(f);
        }
        if errors.is_empty() {
            Ok(opts)
        } else {
            Err(errors)
        }
    }
}

/// Whether the `--allow-extension-url` prefix `prefix` allows `url`: `url` starts with it, and
/// where the prefix stops inside the authority the URL's ends too (`https://localhost` allows
/// `https://localhost:8443/x`, not `https://localhost.example.com` nor
/// `https://localhost@example.com`).
pub fn allows(prefix: &str, url: &str) -> bool {
    let Some(rest) = url.strip_prefix(prefix) else {
        return false;
    };
    prefix.ends_with('/') || rest.is_empty() || rest.starts_with(['/', '?', ':'])
}

/// Parse `NAME=URL` (`--extension`).
pub fn parse_extension_flag(s: &str) -> Result<ExtensionSource, String> {
    let Some((name, raw_url)) = s.split_once('=') else {
        return Err(format!(
            "--extension {s:?}: expected NAME=URL, e.g. my-extension=https://127.0.0.1:8443"
        ));
    };
    let errs = super::client::dns1123_label(name);
    if !errs.is_empty() {
        return Err(format!(
            "--extension {s:?}: the name {name:?} is not a valid ExtensionConfig name: {}",
            errs.join("; ")
        ));
    }
    check_url(raw_url, &["http", "https"]).map_err(|e| format!("--extension {s:?}: {e}"))?;
    Ok(ExtensionSource {
        name: name.to_string(),
        url: raw_url.to_string(),
        named: true,
        ..ExtensionSource::default()
    })
}

/// Check a base URL: parseable, one of `schemes`, a host, no fragment.
fn check_url(raw: &str, schemes: &[&str]) -> Result<url::Url, String> {
    let u = url::parse(raw).map_err(|e| format!("failed to parse url: {e}"))?;
    if !schemes.contains(&u.scheme.as_str()) {
        let want = schemes.join(" or ");
        return Err(if u.scheme.is_empty() {
            format!("expected {want} scheme, got none")
        } else {
            format!("expected {want} scheme, got {}", u.scheme)
        });
    }
    if u.host.is_empty() {
        return Err("the URL has no host".into());
    }
    if !u.fragment.is_empty() {
        return Err("the URL must not have a fragment".into());
    }
    Ok(u)
}

/// An `ExtensionConfig` object (JSON) as an [`ExtensionSource`].
pub fn from_extension_config(obj: &serde_json::Value) -> Result<ExtensionSource, String> {
    let name = obj
        .pointer("/metadata/name")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_string();
    let what = format!("ExtensionConfig {name:?}");
    let errs = super::client::dns1123_label(&name);
    if !errs.is_empty() {
        return Err(format!(
            "{what}: metadata.name: Invalid value: {name:?}: {}",
            errs.join(", ")
        ));
    }
    let cc = obj.pointer("/spec/clientConfig");
    let str_at = |p: &str| cc.and_then(|c| c.pointer(p)).and_then(|v| v.as_str());
    let url = match (
        str_at("/url").filter(|s| !s.is_empty()),
        cc.and_then(|c| c.get("service")),
    ) {
        (Some(_), Some(s)) if !s.is_null() => {
            return Err(format!(
                "{what}: spec.clientConfig: Invalid value: only one of url and service can be set"
            ));
        }
        (Some(u), _) => {
            check_url(u, &["https"]).map_err(|e| {
                format!("{what}: spec.clientConfig.url: failed to compute URL: {e}")
            })?;
            u.to_string()
        }
        (None, Some(svc)) if svc.is_object() => {
            let get = |k: &str| svc.get(k).and_then(|v| v.as_str()).unwrap_or_default();
            let (sname, ns, path) = (get("name"), get("namespace"), get("path"));
            if sname.is_empty() || ns.is_empty() {
                return Err(format!(
                    "{what}: spec.clientConfig.service: name and namespace are required"
                ));
            }
            let port = svc.get("port").and_then(|v| v.as_i64()).unwrap_or(443);
            if !(1..=65535).contains(&port) {
                return Err(format!(
                    "{what}: spec.clientConfig.service.port: Invalid value: {port}: must be between 1 and 65535, inclusive"
                ));
            }
            format!("https://{sname}.{ns}.svc:{port}{path}")
        }
        _ => {
            return Err(format!(
                "{what}: failed to compute URL: at least one of service and url should be defined in config"
            ));
        }
    };
    let ca_bundle = match str_at("/caBundle").filter(|s| !s.is_empty()) {
        None => None,
        Some(b64) => Some(
            crate::go::base64::decode(b64.as_bytes())
                .map_err(|e| format!("{what}: spec.clientConfig.caBundle: {e}"))?,
        ),
    };
    let mut settings = BTreeMap::new();
    if let Some(m) = obj.pointer("/spec/settings").and_then(|v| v.as_object()) {
        for (k, v) in m {
            match v.as_str() {
                Some(s) => {
                    settings.insert(k.clone(), s.to_string());
                }
                None => {
                    return Err(format!(
                        "{what}: spec.settings.{k}: expected a string, got {v}"
                    ));
                }
            }
        }
    }
    Ok(ExtensionSource {
        name,
        url,
        ca_bundle,
        settings,
        named: false,
    })
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::GeneratePatchesRequest {}
    impl Sealed for super::ValidateTopologyRequest {}
    impl Sealed for super::DiscoverVariablesRequest {}
    impl Sealed for super::GenerateUpgradePlanRequest {}
}

/// A request of a hook a plan may call (topology mutation and upgrade plans only; sealed).
pub trait TopologyHook: Serialize + Clone + sealed::Sealed {
    /// The hook name, e.g. `GeneratePatches`.
    const HOOK: &'static str;
    /// Its response type.
    type Response: Response;
    /// Set `apiVersion` and `kind`.
    fn set_type_meta(&mut self);
    /// The request's settings.
    fn settings_mut(&mut self) -> &mut BTreeMap<String, String>;
    /// The Cluster the request is for (`Cluster <namespace>/<name>`, from its `builtin`
    /// variable), when it says.
    fn subject(&self) -> Option<String>;
}

/// `Cluster <namespace>/<name>` of a request's global `builtin` variable.
fn cluster_of(variables: &[super::types::Variable]) -> Option<String> {
    let b = variables.iter().rev().find(|v| v.name == "builtin")?;
    let c = b.value.get("cluster")?;
    let ns = c.get("namespace").and_then(serde_json::Value::as_str)?;
    let name = c.get("name").and_then(serde_json::Value::as_str)?;
    Some(format!("Cluster {ns}/{name}"))
}

macro_rules! topology_hook {
    ($req:ty, $resp:ty, $hook:literal, $subject:expr) => {
        impl TopologyHook for $req {
            const HOOK: &'static str = $hook;
            type Response = $resp;
            fn set_type_meta(&mut self) {
                self.api_version = API_VERSION.to_string();
                self.kind = concat!($hook, "Request").to_string();
            }
            fn settings_mut(&mut self) -> &mut BTreeMap<String, String> {
                &mut self.settings
            }
            fn subject(&self) -> Option<String> {
                let f: fn(&Self) -> Option<String> = $subject;
                f(self)
            }
        }
    };
}

topology_hook!(
    GeneratePatchesRequest,
    GeneratePatchesResponse,
    "GeneratePatches",
    |r| cluster_of(&r.variables)
);
topology_hook!(
    ValidateTopologyRequest,
    ValidateTopologyResponse,
    "ValidateTopology",
    |r| cluster_of(&r.variables)
);
topology_hook!(
    DiscoverVariablesRequest,
    DiscoverVariablesResponse,
    "DiscoverVariables",
    |_| None
);
topology_hook!(
    GenerateUpgradePlanRequest,
    GenerateUpgradePlanResponse,
    "GenerateUpgradePlan",
    super::upgrade_plan::subject
);

/// An extension with its client and settings.
#[derive(Debug, Clone)]
struct Extension {
    endpoint: Endpoint,
    settings: BTreeMap<String, String>,
}

/// Discovered handlers and the clients to call them.
#[derive(Debug, Default)]
pub struct Registry {
    extensions: Vec<Extension>,
    handlers: BTreeMap<String, Handler>,
    /// Errors forgiven by `failurePolicy: Ignore`, for the caller to report as warnings.
    ignored: Mutex<Vec<Error>>,
    /// Where calls go (live unless recording, replaying or tracing).
    wire: Arc<Wire>,
}

impl Registry {
    /// Set up clients for every extension (no I/O). Errors: unparseable URL, bad CA bundle.
    pub fn new(opts: &ExtensionOptions) -> Result<Registry, Vec<Error>> {
        let mut cache = ClientCache::default();
        let mut errors = Vec::new();
        let mut extensions = Vec::new();
        let replaying = opts.wire.0.as_ref().is_some_and(|w| w.replaying());
        for src in &opts.extensions {
            let config = |message: String| Error::Config {
                extension: src.name.clone(),
                message,
            };
            if !(src.named || replaying || opts.allowed_urls.iter().any(|p| allows(p, &src.url))) {
                errors.push(Error::NotAllowed {
                    extension: src.name.clone(),
                    url: src.url.clone(),
                });
                continue;
            }
            let verify = if opts.insecure_skip_tls_verify {
                TlsVerify::Insecure
            } else if let Some(ca) = src.ca_bundle.as_ref().or(opts.ca_pem.as_ref()) {
                TlsVerify::Ca(ca.clone())
            } else {
                TlsVerify::System
            };
            let built = check_url(&src.url, &["http", "https"])
                .map_err(|e| config(format!("failed to compute URL: {e}")))
                .and_then(|url| {
                    let verify = if url.scheme.eq_ignore_ascii_case("http") {
                        &TlsVerify::PlainHttp
                    } else {
                        &verify
                    };
                    let client = cache.get(verify).map_err(config)?;
                    Ok(Extension {
                        endpoint: Endpoint {
                            name: src.name.clone(),
                            url,
                            client,
                            max_response_bytes: opts.max_response_bytes,
                        },
                        settings: src.settings.clone(),
                    })
                });
            match built {
                Ok(e) => extensions.push(e),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(Registry {
                extensions,
                handlers: BTreeMap::new(),
                ignored: Mutex::new(Vec::new()),
                wire: opts.wire.0.clone().unwrap_or_default(),
            })
        } else {
            Err(errors)
        }
    }

    /// [`Registry::new`] then [`Registry::discover`].
    pub fn connect(opts: &ExtensionOptions) -> Result<Registry, Vec<Error>> {
        let mut r = Registry::new(opts)?;
        r.discover()?;
        Ok(r)
    }

    /// Call Discovery on every extension and register the handlers. Every failing extension is
    /// reported; the handlers of the others are registered.
    pub fn discover(&mut self) -> Result<(), Vec<Error>> {
        let mut errors = Vec::new();
        for e in &self.extensions {
            match discover_via(&e.endpoint, &self.wire) {
                Ok(handlers) => {
                    for h in handlers {
                        self.handlers.insert(h.name.clone(), h);
                    }
                }
                Err(err) => errors.push(err),
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Take the errors forgiven so far by `failurePolicy: Ignore` (Cluster API logs them).
    pub fn take_ignored(&self) -> Vec<Error> {
        self.ignored
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }

    /// The extension names, in order.
    pub fn extensions(&self) -> impl Iterator<Item = &str> {
        self.extensions.iter().map(|e| e.endpoint.name.as_str())
    }

    /// Registered handlers, by full name.
    pub fn handlers(&self) -> impl Iterator<Item = &Handler> {
        self.handlers.values()
    }

    /// One registered handler (`<handler>.<extension>`), exact name.
    pub fn handler(&self, name: &str) -> Option<&Handler> {
        self.handlers.get(name)
    }

    /// Call a GeneratePatches handler.
    pub fn generate_patches(
        &self,
        handler: &str,
        request: GeneratePatchesRequest,
    ) -> Result<GeneratePatchesResponse, Error> {
        self.call(handler, request)
    }

    /// Call a ValidateTopology handler.
    pub fn validate_topology(
        &self,
        handler: &str,
        request: ValidateTopologyRequest,
    ) -> Result<ValidateTopologyResponse, Error> {
        self.call(handler, request)
    }

    /// Call a DiscoverVariables handler.
    pub fn discover_variables(
        &self,
        handler: &str,
        request: DiscoverVariablesRequest,
    ) -> Result<DiscoverVariablesResponse, Error> {
        self.call(handler, request)
    }

    /// Call a GenerateUpgradePlan handler.
    pub fn generate_upgrade_plan(
        &self,
        handler: &str,
        request: GenerateUpgradePlanRequest,
    ) -> Result<GenerateUpgradePlanResponse, Error> {
        self.call(handler, request)
    }

    /// `CallExtension` for a topology hook. The request is taken by value: its settings and type
    /// meta are filled in before it is sent, and a GeneratePatches request carries every
    /// template of a Cluster, too big to copy per call.
    pub fn call<R: TopologyHook>(&self, name: &str, request: R) -> Result<R::Response, Error> {
        self.call_for(None, name, request)
    }

    /// [`Registry::call`] for `subject` (`ClusterClass <namespace>/<name>`, …), which recordings
    /// and traces name the call by; by default the Cluster the request says it is for.
    pub fn call_for<R: TopologyHook>(
        &self,
        subject: Option<&str>,
        name: &str,
        mut request: R,
    ) -> Result<R::Response, Error> {
        let not_registered = || Error::NotRegistered { name: name.into() };
        let handler = self.handlers.get(name).ok_or_else(not_registered)?;
        if handler.hook != R::HOOK || handler.api_version != API_VERSION {
            return Err(Error::HookMismatch {
                name: name.into(),
                group_hook: format!("{}.{GROUP}", R::HOOK),
            });
        }
        let ext = self
            .extensions
            .iter()
            .find(|e| e.endpoint.name == handler.extension)
            .ok_or_else(not_registered)?;
        // Registration settings, overridden by the request's.
        let mut settings = ext.settings.clone();
        settings.append(request.settings_mut());
        *request.settings_mut() = settings;
        request.set_type_meta();
        let timeout = handler.timeout();
        let url = hook_url(&ext.endpoint.url, R::HOOK, Some(&handler.handler), timeout);
        let body = encode_request(&request).map_err(|message| Error::Config {
            extension: ext.endpoint.name.clone(),
            message,
        })?;
        let subject = match subject {
            Some(s) => s.to_string(),
            None => request
                .subject()
                .unwrap_or_else(|| format!("handler {name}")),
        };
        let max_body = ext.endpoint.max_response_bytes;
        let outcome = self.wire.exchange(
            Exchange {
                hook: R::HOOK,
                extension: &ext.endpoint.name,
                handler: Some(&handler.handler),
                subject: &subject,
                url: &url,
                body,
                max_body,
            },
            |body| {
                ext.endpoint
                    .client
                    .post_bytes(&url, body, timeout, R::HOOK, max_body)
            },
        )?;
        let decoded = outcome.and_then(|bytes| {
            super::types::decode_response::<R::Response>(&bytes)
                .map_err(|message| super::error::CallError::Decode { message })
        });
        let response = match decoded {
            Ok(r) => r,
            Err(source) if handler.failure_policy == FailurePolicy::Ignore => {
                if let Ok(mut ignored) = self.ignored.lock() {
                    ignored.push(Error::Call {
                        name: name.into(),
                        source,
                    });
                }
                let mut r = R::Response::default();
                r.set_status(ResponseStatus::success(), String::new());
                return Ok(r);
            }
            Err(source) => {
                return Err(Error::Call {
                    name: name.into(),
                    source,
                });
            }
        };
        let status = response.status().clone();
        if status.is_success() {
            return Ok(response);
        }
        let message = response.message().to_string();
        Err(if status.is_failure() {
            Error::Failure {
                name: name.into(),
                message,
            }
        } else {
            Error::UnknownStatus {
                name: name.into(),
                status: status.0,
                message,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::allows;

    #[test]
    fn allowed_prefixes_stop_at_a_boundary() {
        assert!(allows("https://localhost", "https://localhost:8443/x"));
        assert!(allows("https://localhost", "https://localhost"));
        assert!(allows("https://h:1/a/", "https://h:1/a/b"));
        assert!(!allows(
            "https://localhost",
            "https://localhost.example.com/"
        ));
        assert!(!allows(
            "https://localhost",
            "https://localhost@example.com/"
        ));
        assert!(!allows("https://h:1", "https://h:10/"));
        assert!(!allows("https://h:1/a/", "https://h:1/b"));
    }
}
