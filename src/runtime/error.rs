/*!
Errors of the Runtime SDK client, worded as Cluster API's `internal/runtime/client` words them
(`failed to call extension handler "<name>": …`, `failed to discover extension "<name>": …`).

[`CallError`] is what Cluster API calls an "error calling the extension handler": transport
failures, timeouts, non-200 answers and undecodable bodies. Only those are forgiven by a
handler's `failurePolicy: Ignore`; everything else in [`Error`] never is.
*/

use crate::go::strconv::{quote, quote_bytes};

fn q(s: &str) -> String {
    quote(s, false)
}

/// Cut a non-200 body to its first 512 bytes plus `...`, quoted as Go's `%q` does.
fn body_excerpt(body: &[u8]) -> String {
    if body.len() > 512 {
        let mut cut = body[..512].to_vec();
        cut.extend_from_slice(b"...");
        quote_bytes(&cut)
    } else {
        quote_bytes(body)
    }
}

/// ` (POST URL: 404 Not Found)`: the request that got a non-200 answer; nothing when the URL
/// is unknown (a recording made before it was kept).
fn answered(url: &str, code: u16) -> String {
    if url.is_empty() {
        return String::new();
    }
    let reason = reqwest::StatusCode::from_u16(code)
        .ok()
        .and_then(|s| s.canonical_reason())
        .map(|r| format!(" {r}"))
        .unwrap_or_default();
    format!(" (POST {url}: {code}{reason})")
}

/// One failed HTTP exchange with an extension (`errCallingExtensionHandler`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CallError {
    /// The deadline (`timeoutSeconds`) passed before the answer was read.
    #[error("http call failed: Post {}: context deadline exceeded", q(.url))]
    Timeout { url: String },
    /// Connecting, TLS or I/O failed.
    #[error("http call failed: Post {}: {message}", q(.url))]
    Transport { url: String, message: String },
    /// The answer was not 200 OK. Cluster API's words, then which URL answered: a 404 is
    /// usually a wrong base URL or path, which its message alone does not show.
    #[error("http call failed: got response with status code {code} != 200: response : {}{}", body_excerpt(.body), answered(.url, *.code))]
    Status {
        url: String,
        code: u16,
        body: Vec<u8>,
    },
    /// The 200 answer's body is larger than `--max-extension-response-bytes`.
    #[error(
        "http call failed: the {hook} response body exceeds the limit of {limit} bytes (--max-extension-response-bytes)"
    )]
    TooLarge { hook: String, limit: u64 },
    /// The 200 answer was not a decodable response.
    #[error("http call failed: failed to decode response: {message}")]
    Decode { message: String },
}

/// `kerrors.NewAggregate(...).Error()`: one message alone, several in brackets.
fn aggregate(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// Any failure of a Runtime SDK call, discovery or registry setup.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// No handler of that name was discovered.
    #[error("failed to call extension handler {}: failed to get extension handler {} from registry: handler with name {} has not been registered", q(.name), q(.name), q(.name))]
    NotRegistered { name: String },
    /// The handler serves another hook.
    #[error("failed to call extension handler {}: handler does not match GroupHook {}", q(.name), q(.group_hook))]
    HookMismatch { name: String, group_hook: String },
    /// The HTTP exchange failed (and failurePolicy is Fail).
    #[error("failed to call extension handler {}: {source}", q(.name))]
    Call { name: String, source: CallError },
    /// The extension answered `status: Failure` (never ignored).
    #[error("failed to call extension handler {}: got failure response with message: {message}", q(.name))]
    Failure { name: String, message: String },
    /// The extension answered a status other than Success or Failure.
    #[error("failed to call extension handler {}: got unknown response status {} with message: {message}", q(.name), q(.status))]
    UnknownStatus {
        name: String,
        status: String,
        message: String,
    },
    /// Discovery's HTTP exchange failed.
    #[error("failed to discover extension {}: {source}", q(.extension))]
    DiscoveryCall {
        extension: String,
        source: CallError,
    },
    /// Discovery answered `status: Failure`.
    #[error("failed to discover extension {}: got failure response with message: {message}", q(.extension))]
    DiscoveryFailure { extension: String, message: String },
    /// Discovery answered an unknown status.
    #[error("failed to discover extension {}: got unknown response status {} with message: {message}", q(.extension), q(.status))]
    DiscoveryUnknownStatus {
        extension: String,
        status: String,
        message: String,
    },
    /// Discovery's handlers are invalid (names, timeouts, policies, hooks).
    #[error("failed to discover extension {}: failed to validate discovery response: {}", q(.extension), aggregate(.errors))]
    DiscoveryInvalid {
        extension: String,
        errors: Vec<String>,
    },
    /// The extension's configuration cannot be used (URL, CA bundle, TLS setup).
    #[error("extension {}: {message}", q(.extension))]
    Config { extension: String, message: String },
    /// An ExtensionConfig of the input names a URL the command line did not allow.
    #[error("extension {}: the ExtensionConfig's URL {} is not one topoplan may call: the input chooses it, and only the command line chooses where topoplan connects", q(.extension), q(.url))]
    NotAllowed { extension: String, url: String },
    /// `--replay-extensions` has no answer for this request.
    #[error("no recorded answer for the {hook} call of {} for {subject} (no {file} in the recording): the recording is stale, re-record it with --record-extensions", q(.handler))]
    NotRecorded {
        hook: String,
        handler: String,
        subject: String,
        file: String,
    },
    /// A recording or trace cannot be read or written.
    #[error("{message}")]
    Recording { message: String },
}

impl Error {
    /// The diagnostic code of an error that is the recording's, not the extension's.
    pub fn recording_code(&self) -> Option<crate::diag::Code> {
        match self {
            Error::NotRecorded { .. } => Some(crate::diag::Code::ExtensionRecordingStale),
            Error::Recording { .. } => Some(crate::diag::Code::ExtensionRecording),
            _ => None,
        }
    }

    /// The underlying HTTP failure, if this is one.
    pub fn call_error(&self) -> Option<&CallError> {
        match self {
            Error::Call { source, .. } | Error::DiscoveryCall { source, .. } => Some(source),
            _ => None,
        }
    }
}
