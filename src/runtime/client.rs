/*!
The HTTP side of the Runtime SDK: one blocking `reqwest` client per TLS setting, reused for every
call (its pool keeps connections alive, so a plan pays one TLS handshake per extension, not one
per call), the hook URLs, the POST itself, and Discovery.

Mechanics as `internal/runtime/client` has them:
- URL: the extension URL, its path joined (`path.Join`) with
  `/hooks.runtime.cluster.x-k8s.io/v1alpha1/<hook-lowercase>[/<handler-lowercase>]`, and
  `timeout=<Go duration>` added to its query (the query is re-encoded, keys sorted);
- POST of the JSON request, no headers of ours, redirects not followed, the same duration as the
  deadline of the whole exchange;
- non-200: up to 20 MiB of the body read and its first 512 bytes quoted in the error;
- 200: decoded as Go's `encoding/json` does ([`super::types::decode_response`]);
- Discovery: 10 s, handlers defaulted (Fail, 10 s) and validated, then registered as
  `<handler>.<extension>`.

Difference: extensions given on the command line may use `http://` (Cluster API only accepts
`https`); ExtensionConfig objects are held to `https`.
*/

use std::collections::BTreeSet;
use std::io::Read;
use std::time::Duration;

use serde::Serialize;

use super::error::{CallError, Error};
use super::tls::{TlsVerify, client_config};
use super::types::{
    API_VERSION, DiscoveryRequest, DiscoveryResponse, FailurePolicy, GROUP, Response, VERSION,
};
use super::wire::{Exchange, Wire};
use crate::go::url::Url;

/// Cluster API's `DefaultHandlersTimeoutSeconds`, also Discovery's timeout.
pub const DEFAULT_TIMEOUT_SECONDS: i32 = 10;
/// `maxExtensionResponseBodyBytes`: how much of a non-200 body is read.
const MAX_ERROR_BODY: u64 = 20 * 1024 * 1024;
/// The default cap on a 200 answer's body (`--max-extension-response-bytes`). Cluster API
/// decodes it whole; an extension that streams without end must not exhaust memory.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 64 << 20;

/// The hooks of `hooks.runtime.cluster.x-k8s.io/v1alpha1` in Cluster API's catalog.
pub const CATALOG: &[&str] = &[
    "Discovery",
    "GeneratePatches",
    "ValidateTopology",
    "DiscoverVariables",
    "BeforeClusterCreate",
    "AfterControlPlaneInitialized",
    "BeforeClusterUpgrade",
    "BeforeControlPlaneUpgrade",
    "AfterControlPlaneUpgrade",
    "BeforeWorkersUpgrade",
    "AfterWorkersUpgrade",
    "AfterClusterUpgrade",
    "BeforeClusterDelete",
    "GenerateUpgradePlan",
    "CanUpdateMachine",
    "CanUpdateMachineSet",
    "UpdateMachine",
];

/// A blocking HTTP client for extensions; cheap to clone (clones share one connection pool).
#[derive(Debug, Clone)]
pub struct HttpClient {
    inner: reqwest::blocking::Client,
}

impl HttpClient {
    /// A client verifying servers as `verify` says. Building it does no I/O.
    pub fn new(verify: &TlsVerify) -> Result<HttpClient, String> {
        let tls = client_config(verify)?;
        let inner = reqwest::blocking::Client::builder()
            .tls_backend_preconfigured(tls)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .http1_only()
            .pool_max_idle_per_host(8)
            .pool_idle_timeout(Duration::from_secs(90))
            // Per-request deadlines are set on each call.
            .timeout(None)
            .build()
            .map_err(|e| format!("failed to create http client: {}", error_chain(&e)))?;
        Ok(HttpClient { inner })
    }

    /// POST `body` to `url` and decode a 200 answer as `T`, whose body (of `hook`) may be at
    /// most `max_body` bytes: refused on its Content-Length, or while it is read.
    pub fn post<T: Response>(
        &self,
        url: &str,
        body: Vec<u8>,
        timeout: Duration,
        hook: &str,
        max_body: u64,
    ) -> Result<T, CallError> {
        let bytes = self.post_bytes(url, body, timeout, hook, max_body)?;
        super::types::decode_response::<T>(&bytes).map_err(|message| CallError::Decode { message })
    }

    /// [`HttpClient::post`] without decoding: the 200 answer's body.
    pub fn post_bytes(
        &self,
        url: &str,
        body: Vec<u8>,
        timeout: Duration,
        hook: &str,
        max_body: u64,
    ) -> Result<Vec<u8>, CallError> {
        let transport = |e: &reqwest::Error| {
            if e.is_timeout() {
                CallError::Timeout { url: url.into() }
            } else {
                CallError::Transport {
                    url: url.into(),
                    message: go_dial_error(e).unwrap_or_else(|| error_chain(e)),
                }
            }
        };
        let resp = self
            .inner
            .post(url)
            .body(body)
            .timeout(timeout)
            .send()
            .map_err(|e| transport(&e))?;
        let code = resp.status().as_u16();
        if code != 200 {
            let mut body = Vec::new();
            // A body that cannot be read still reports the status, as Cluster API does.
            let read = resp.take(MAX_ERROR_BODY).read_to_end(&mut body);
            if read.is_err() {
                return Err(CallError::Transport {
                    url: url.into(),
                    message: format!(
                        "got response with status code {code} != 200: failed to read response body"
                    ),
                });
            }
            return Err(CallError::Status {
                url: url.into(),
                code,
                body,
            });
        }
        let too_large = || CallError::TooLarge {
            hook: hook.into(),
            limit: max_body,
        };
        if resp.content_length().is_some_and(|n| n > max_body) {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        // One byte more than allowed tells a body of exactly the limit from a longer one.
        resp.take(max_body.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| {
                match e
                    .get_ref()
                    .and_then(|inner| inner.downcast_ref::<reqwest::Error>())
                {
                    Some(re) => transport(re),
                    None => CallError::Transport {
                        url: url.into(),
                        message: format!("failed to read response body: {e}"),
                    },
                }
            })?;
        if bytes.len() as u64 > max_body {
            return Err(too_large());
        }
        Ok(bytes)
    }
}

/// An error and its causes, joined with `: ` (Go's wrapped error text).
/// Go's wording for a failed connection (`dial tcp 127.0.0.1:1: connect: connection refused`),
/// when the cause is one; other failures keep the Rust error chain.
fn go_dial_error(e: &reqwest::Error) -> Option<String> {
    if !e.is_connect() {
        return None;
    }
    let url = e.url()?;
    let host = url.host_str()?;
    let port = url.port_or_known_default()?;
    let hostport = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let mut cur: Option<&dyn std::error::Error> = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            let what = match io.kind() {
                std::io::ErrorKind::ConnectionRefused => "connect: connection refused",
                std::io::ErrorKind::ConnectionReset => "connect: connection reset by peer",
                std::io::ErrorKind::HostUnreachable => "connect: no route to host",
                std::io::ErrorKind::NetworkUnreachable => "connect: network is unreachable",
                _ => return None,
            };
            return Some(format!("dial tcp {hostport}: {what}"));
        }
        cur = err.source();
    }
    None
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cur = s.source();
    }
    out
}

/// One extension server: its ExtensionConfig name, base URL and client.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// The ExtensionConfig name (the suffix of its handlers' names).
    pub name: String,
    /// The parsed base URL.
    pub url: Url,
    /// The shared client.
    pub client: HttpClient,
    /// The largest 200 answer body accepted, in bytes.
    pub max_response_bytes: u64,
}

/// A handler as discovery registers it.
#[derive(Debug, Clone, PartialEq)]
pub struct Handler {
    /// `<handler>.<extension>`, the name a ClusterClass refers to.
    pub name: String,
    /// The bare handler name (the URL's last segment).
    pub handler: String,
    /// The ExtensionConfig name.
    pub extension: String,
    /// `apiVersion` of the hook.
    pub api_version: String,
    /// The hook (e.g. `GeneratePatches`).
    pub hook: String,
    /// Seconds; 0 means the default (10).
    pub timeout_seconds: i32,
    /// What an error calling it does.
    pub failure_policy: FailurePolicy,
}

impl Handler {
    /// The call deadline: `timeoutSeconds`, or 10 s when 0.
    pub fn timeout(&self) -> Duration {
        seconds(if self.timeout_seconds != 0 {
            self.timeout_seconds
        } else {
            DEFAULT_TIMEOUT_SECONDS
        })
    }
}

fn seconds(s: i32) -> Duration {
    Duration::from_secs(u64::try_from(s).unwrap_or(0))
}

/// Go's `time.Duration.String` for whole seconds (`10s`, `1m30s`, `0s`).
pub fn go_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s == 0 {
        return "0s".into();
    }
    let (h, m, sec) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 {
        format!("{h}h{m}m{sec}s")
    } else if m > 0 {
        format!("{m}m{sec}s")
    } else {
        format!("{sec}s")
    }
}

/// The URL of a hook on an extension (`urlForExtension` plus the `timeout` query).
pub fn hook_url(base: &Url, hook: &str, handler: Option<&str>, timeout: Duration) -> String {
    let mut hook_path = format!("/{GROUP}/{VERSION}/{}", hook.to_lowercase());
    if let Some(h) = handler.filter(|h| !h.is_empty()) {
        hook_path.push('/');
        hook_path.push_str(&h.to_lowercase());
    }
    let mut u = base.clone();
    u.path = if u.path.is_empty() {
        crate::go::path::clean(&hook_path)
    } else {
        crate::go::path::clean(&format!("{}/{hook_path}", u.path))
    };
    if timeout != Duration::ZERO {
        let mut pairs = parse_query(&u.raw_query);
        pairs.push(("timeout".into(), go_duration(timeout)));
        u.raw_query = encode_query(pairs);
    }
    u.to_string_go()
}

/// `url.ParseQuery`, keeping the pairs it can parse (as `URL.Query` does).
fn parse_query(raw: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in raw.split('&') {
        if part.is_empty() || part.contains(';') {
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        if let (Some(k), Some(v)) = (query_unescape(k), query_unescape(v)) {
            out.push((k, v));
        }
    }
    out
}

fn query_unescape(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = b.get(i + 1..i + 3)?;
                let h = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(h, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

fn query_escape(s: &str) -> String {
    let mut out = String::new();
    for &b in s.as_bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(char::from(b))
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `url.Values.Encode`: keys sorted, values in their order.
fn encode_query(pairs: Vec<(String, String)>) -> String {
    let keys: BTreeSet<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
    let mut parts = Vec::new();
    for k in keys {
        for (_, v) in pairs.iter().filter(|(pk, _)| pk == k) {
            parts.push(format!("{}={}", query_escape(k), query_escape(v)));
        }
    }
    parts.join("&")
}

/// JSON of a request with its `apiVersion` and `kind` set.
pub fn encode_request<T: Serialize>(request: &T) -> Result<Vec<u8>, String> {
    serde_json::to_vec(request).map_err(|e| format!("failed to marshall request object: {e}"))
}

/// Call Discovery on an extension and register its handlers.
pub fn discover(endpoint: &Endpoint) -> Result<Vec<Handler>, Error> {
    discover_via(endpoint, &Wire::default())
}

/// [`discover`] through `wire` (recorded, replayed, traced).
pub fn discover_via(endpoint: &Endpoint, wire: &Wire) -> Result<Vec<Handler>, Error> {
    let timeout = seconds(DEFAULT_TIMEOUT_SECONDS);
    let url = hook_url(&endpoint.url, "Discovery", None, timeout);
    let request = DiscoveryRequest {
        api_version: API_VERSION.into(),
        kind: "DiscoveryRequest".into(),
    };
    let body = encode_request(&request).map_err(|message| Error::Config {
        extension: endpoint.name.clone(),
        message,
    })?;
    let subject = format!("extension {}", endpoint.name);
    let response: DiscoveryResponse = wire
        .exchange(
            Exchange {
                hook: "Discovery",
                extension: &endpoint.name,
                handler: None,
                subject: &subject,
                url: &url,
                body,
                max_body: endpoint.max_response_bytes,
            },
            |body| {
                endpoint.client.post_bytes(
                    &url,
                    body,
                    timeout,
                    "Discovery",
                    endpoint.max_response_bytes,
                )
            },
        )?
        .and_then(|bytes| {
            super::types::decode_response::<DiscoveryResponse>(&bytes)
                .map_err(|message| CallError::Decode { message })
        })
        .map_err(|source| Error::DiscoveryCall {
            extension: endpoint.name.clone(),
            source,
        })?;
    if !response.status.is_success() {
        return Err(if response.status.is_failure() {
            Error::DiscoveryFailure {
                extension: endpoint.name.clone(),
                message: response.message,
            }
        } else {
            Error::DiscoveryUnknownStatus {
                extension: endpoint.name.clone(),
                status: response.status.0,
                message: response.message,
            }
        });
    }
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    let mut handlers = Vec::new();
    for h in response.handlers {
        let timeout_seconds = h.timeout_seconds.unwrap_or(DEFAULT_TIMEOUT_SECONDS);
        let policy = h.failure_policy.as_deref().unwrap_or("Fail");
        if !seen.insert(h.name.clone()) {
            errors.push(format!("duplicate name for handler {} found", h.name));
        }
        let name_errors = dns1123_label(&h.name);
        if !name_errors.is_empty() {
            errors.push(format!(
                "handler name {} is not valid: [{}]",
                h.name,
                name_errors.join(" ")
            ));
        }
        if !(0..=30).contains(&timeout_seconds) {
            errors.push(format!(
                "handler {} timeoutSeconds {timeout_seconds} must be between 0 and 30",
                h.name
            ));
        }
        let failure_policy = match policy {
            "Fail" => FailurePolicy::Fail,
            "Ignore" => FailurePolicy::Ignore,
            other => {
                errors.push(format!(
                    "handler {} failurePolicy {other} must equal \"Ignore\" or \"Fail\"",
                    h.name
                ));
                FailurePolicy::Fail
            }
        };
        let api_version = &h.request_hook.api_version;
        match parse_group_version(api_version) {
            Err(e) => errors.push(format!(
                "handler {} requestHook APIVersion {api_version} is not valid: {e}",
                h.name
            )),
            Ok((g, v)) => {
                if g != GROUP || v != VERSION || !CATALOG.contains(&h.request_hook.hook.as_str()) {
                    errors.push(format!(
                        "handler {} requestHook {api_version}/{} is not in the Runtime SDK catalog",
                        h.name, h.request_hook.hook
                    ));
                }
            }
        }
        handlers.push(Handler {
            name: format!("{}.{}", h.name, endpoint.name),
            handler: h.name,
            extension: endpoint.name.clone(),
            api_version: api_version.clone(),
            hook: h.request_hook.hook,
            timeout_seconds,
            failure_policy,
        });
    }
    if !errors.is_empty() {
        return Err(Error::DiscoveryInvalid {
            extension: endpoint.name.clone(),
            errors,
        });
    }
    Ok(handlers)
}

/// `schema.ParseGroupVersion`.
fn parse_group_version(s: &str) -> Result<(&str, &str), String> {
    if s.is_empty() || s == "/" {
        return Ok(("", ""));
    }
    match s.split('/').count() {
        1 => Ok(("", s)),
        2 => Ok(s.split_once('/').unwrap_or(("", s))),
        _ => Err(format!("unexpected GroupVersion string: {s}")),
    }
}

/// `validation.IsDNS1123Label`.
pub fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let ok = !b.is_empty()
        && b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
        && b.iter().all(|c| alnum(c) || *c == b'-');
    if !ok {
        errs.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')".to_string());
    }
    errs
}

/// Shared clients: one per verification mode.
#[derive(Debug, Default)]
pub struct ClientCache {
    clients: Vec<(TlsVerify, HttpClient)>,
}

impl ClientCache {
    /// The client for `verify`, built on first use.
    pub fn get(&mut self, verify: &TlsVerify) -> Result<HttpClient, String> {
        if let Some((_, c)) = self.clients.iter().find(|(v, _)| v == verify) {
            return Ok(c.clone());
        }
        let c = HttpClient::new(verify)?;
        self.clients.push((verify.clone(), c.clone()));
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(raw: &str) -> Url {
        crate::go::url::parse(raw).expect("url")
    }

    #[test]
    fn hook_urls_follow_url_for_extension() {
        let ten = Duration::from_secs(10);
        assert_eq!(
            hook_url(
                &url("https://ext.example:8443"),
                "GeneratePatches",
                Some("Gen-Patches"),
                ten
            ),
            "https://ext.example:8443/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/gen-patches?timeout=10s"
        );
        assert_eq!(
            hook_url(
                &url("https://h/a/b/../c/?z=1&a=x+y&a=2&bad=%zz"),
                "Discovery",
                None,
                ten
            ),
            "https://h/a/c/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?a=x+y&a=2&timeout=10s&z=1"
        );
        assert_eq!(
            hook_url(
                &url("http://h/p%20q"),
                "ValidateTopology",
                Some("v"),
                Duration::ZERO
            ),
            "http://h/p%20q/hooks.runtime.cluster.x-k8s.io/v1alpha1/validatetopology/v"
        );
    }

    #[test]
    fn durations_print_as_go_does() {
        assert_eq!(go_duration(Duration::from_secs(0)), "0s");
        assert_eq!(go_duration(Duration::from_secs(30)), "30s");
        assert_eq!(go_duration(Duration::from_secs(90)), "1m30s");
        assert_eq!(go_duration(Duration::from_secs(3600)), "1h0m0s");
    }

    #[test]
    fn dns1123_labels() {
        assert!(dns1123_label("generate-patches").is_empty());
        assert_eq!(dns1123_label("Bad").len(), 1);
        assert_eq!(dns1123_label(&"a".repeat(64)).len(), 1);
        assert_eq!(dns1123_label("").len(), 1);
    }

    #[test]
    fn group_versions_parse_as_apimachinery_does() {
        assert_eq!(parse_group_version("v1"), Ok(("", "v1")));
        assert_eq!(parse_group_version("a/b"), Ok(("a", "b")));
        assert!(parse_group_version("a/b/c").is_err());
    }
}
