/*!
Recorded Runtime SDK calls: `--record-extensions DIR` writes every call made to an extension,
`--replay-extensions DIR` answers every call from such a recording, with no network.

Owns the recording's layout and its reading and writing; when to record or replay is decided
by [`super::wire`].

Layout of DIR:
- `<sha256>.json`, one per distinct call: the hook, extension and handler, the request (after
  `--redact-setting`) and what came back — the 200 body byte for byte (`response`, or
  `responseText` when it is not JSON), or the failure (`error`: timeout, transport, non-200
  status and body, too large, undecodable). The name is the SHA-256 (hex) of the call's
  canonical form: `{"extension", "handler", "hook", "request"}` as JSON with every object's keys
  sorted and no spaces, so it depends on what is asked, not on how it was serialised. The URL is
  not part of it: a recording made against a local extension replays in CI.
- `index.json`: the marker saying topoplan wrote the directory, the redacted setting keys, and
  every call with the Clusters (or ClusterClass, or extension for Discovery) it was made for.

Writing never removes a file topoplan did not write: an existing DIR may only hold files of an
earlier recording (listed in its `index.json`) in place of ours; of those, the ones this run did
not record again are removed when the index is rewritten.

Nor does a failed run lose an earlier recording: the calls are written to a hidden staging
directory inside DIR (`.topoplan-recording-<pid>`, never read as input) and moved into place
only when the run succeeds — call files first (each by an atomic rename), then the index (the
commit point: until it is rewritten, the earlier index describes the recording, and a call file
it does not list is recognised as ours by its content next time), then the earlier calls not
made again are removed. A run that fails removes the staging directory and leaves DIR as it
was; only where DIR held no recording yet is a failed run's recording kept (a recorded failure
replays as the same error). Reading treats the directory as
hostile: files are read only by the names above, links are refused, sizes are bounded by
`--max-extension-response-bytes` (plus the size of the request), and a malformed file is an
error naming it with line and column.
*/

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use super::error::{CallError, Error};

/// The index's file name.
pub const INDEX: &str = "index.json";
/// The index's marker (its `recording` field).
const MARKER: &str = "topoplan extension calls";
/// The value a redacted setting is recorded with.
pub const REDACTED: &str = "REDACTED";
/// Room for a call file's own fields around its request and response.
const FILE_OVERHEAD: u64 = 64 << 10;

/// One call, identified: what was asked, canonically, and its hash.
#[derive(Debug, Clone)]
pub struct CallKey {
    /// `GeneratePatches`, `Discovery`, …
    pub hook: String,
    /// The ExtensionConfig name.
    pub extension: String,
    /// The bare handler name (none for Discovery).
    pub handler: Option<String>,
    /// The request as sent, after redaction.
    pub request: Value,
    /// SHA-256 (hex) of the canonical call.
    pub hash: String,
}

impl CallKey {
    /// The key of a call whose request (already redacted) is `request`.
    pub fn new(hook: &str, extension: &str, handler: Option<&str>, request: Value) -> CallKey {
        let string = |s: &str| Value::String(s.into()).to_string();
        // The keys of the canonical document, already in order.
        let doc = format!(
            "{{\"extension\":{},\"handler\":{},\"hook\":{},\"request\":{}}}",
            string(extension),
            handler.map_or_else(|| "null".to_string(), string),
            string(hook),
            canonical(&request)
        );
        CallKey {
            hook: hook.into(),
            extension: extension.into(),
            handler: handler.map(str::to_string),
            request,
            hash: hex(&Sha256::digest(doc.as_bytes())),
        }
    }

    /// The call file's name.
    pub fn file_name(&self) -> String {
        format!("{}.json", self.hash)
    }

    /// `<handler>.<extension>`, or the extension for Discovery.
    pub fn handler_name(&self) -> String {
        match &self.handler {
            Some(h) => format!("{h}.{}", self.extension),
            None => self.extension.clone(),
        }
    }
}

/// Replace the value of every `settings[KEY]` named in `keys` by [`REDACTED`].
pub fn redact(request: &mut Value, keys: &BTreeSet<String>) {
    if let Some(settings) = request.get_mut("settings").and_then(Value::as_object_mut) {
        for (k, v) in settings.iter_mut() {
            if keys.contains(k) {
                *v = Value::String(REDACTED.into());
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// JSON with every object's keys sorted and no insignificant whitespace, whatever the map type
/// behind `serde_json::Value` (a dependency may turn on `preserve_order`).
pub fn canonical(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(v, &mut out);
    out
}

fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                if let Some(x) = m.get(k) {
                    write_canonical(x, out);
                }
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(x, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// A call's failure as recorded (a [`CallError`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", deny_unknown_fields)]
enum RecordedError {
    Timeout {
        url: String,
    },
    Transport {
        url: String,
        message: String,
    },
    Status {
        code: u16,
        body: String,
        /// Which URL answered (absent from recordings made before it was kept).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        url: String,
    },
    TooLarge {
        hook: String,
        limit: u64,
    },
    Decode {
        message: String,
    },
}

impl RecordedError {
    fn of(e: &CallError) -> RecordedError {
        match e.clone() {
            CallError::Timeout { url } => RecordedError::Timeout { url },
            CallError::Transport { url, message } => RecordedError::Transport { url, message },
            CallError::Status { url, code, body } => RecordedError::Status {
                code,
                body: String::from_utf8_lossy(&body).into_owned(),
                url,
            },
            CallError::TooLarge { hook, limit } => RecordedError::TooLarge { hook, limit },
            CallError::Decode { message } => RecordedError::Decode { message },
        }
    }

    fn into_call_error(self) -> CallError {
        match self {
            RecordedError::Timeout { url } => CallError::Timeout { url },
            RecordedError::Transport { url, message } => CallError::Transport { url, message },
            RecordedError::Status { code, body, url } => CallError::Status {
                url,
                code,
                body: body.into_bytes(),
            },
            RecordedError::TooLarge { hook, limit } => CallError::TooLarge { hook, limit },
            RecordedError::Decode { message } => CallError::Decode { message },
        }
    }
}

/// A call file as read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CallFile<'a> {
    hook: String,
    extension: String,
    handler: Option<String>,
    request: Value,
    #[serde(borrow, default)]
    response: Option<&'a RawValue>,
    #[serde(default)]
    response_text: Option<String>,
    #[serde(default)]
    error: Option<RecordedError>,
}

/// The call file for `key` and its outcome (the 200 body, or the failure). A JSON body is
/// embedded byte for byte, so a replay decodes exactly what the extension sent.
fn call_file(key: &CallKey, outcome: &Result<Vec<u8>, CallError>) -> String {
    let field = |name: &str, v: &Value| {
        format!(
            "  {}: {}",
            Value::String(name.into()),
            serde_json::to_string(v).unwrap_or_default()
        )
    };
    let mut lines = vec![
        field("hook", &Value::String(key.hook.clone())),
        field("extension", &Value::String(key.extension.clone())),
        field(
            "handler",
            &key.handler.clone().map_or(Value::Null, Value::String),
        ),
        format!("  \"request\": {}", canonical(&key.request)),
    ];
    match outcome {
        Ok(body) => match std::str::from_utf8(body)
            .ok()
            .filter(|s| serde_json::from_str::<&RawValue>(s).is_ok())
        {
            Some(json) => lines.push(format!("  \"response\": {}", json.trim())),
            None => lines.push(field(
                "responseText",
                &Value::String(String::from_utf8_lossy(body).into_owned()),
            )),
        },
        Err(e) => lines.push(field(
            "error",
            &serde_json::to_value(RecordedError::of(e)).unwrap_or(Value::Null),
        )),
    }
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

/// `index.json` as read and written.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Index {
    recording: String,
    #[serde(default)]
    redacted_settings: Vec<String>,
    #[serde(default)]
    calls: Vec<IndexEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct IndexEntry {
    #[serde(rename = "for")]
    subjects: Vec<String>,
    hook: String,
    handler: String,
    file: String,
}

/// Whether `name` is a call file's name (64 lowercase hex digits and `.json`).
fn is_call_file(name: &str) -> bool {
    name.strip_suffix(".json").is_some_and(|h| {
        h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

fn err(message: String) -> Error {
    Error::Recording { message }
}

/// Read `path`, a regular file (not a link) of at most `max` bytes.
fn read_bounded(path: &Path, max: u64) -> Result<Option<Vec<u8>>, Error> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(format!("cannot read {}: {e}", shown(path)))),
    };
    if meta.file_type().is_symlink() {
        return Err(err(format!(
            "{} is a symbolic link: a recording is read only from the files of its directory",
            shown(path)
        )));
    }
    if !meta.is_file() {
        return Err(err(format!("{} is not a regular file", shown(path))));
    }
    if meta.len() > max {
        return Err(err(format!(
            "{} is {} bytes, over the limit of {max} bytes (--max-extension-response-bytes)",
            shown(path),
            meta.len()
        )));
    }
    let file =
        std::fs::File::open(path).map_err(|e| err(format!("cannot read {}: {e}", shown(path))))?;
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| err(format!("cannot read {}: {e}", shown(path))))?;
    if bytes.len() as u64 > max {
        return Err(err(format!(
            "{} is over the limit of {max} bytes (--max-extension-response-bytes)",
            shown(path)
        )));
    }
    Ok(Some(bytes))
}

/// `path:line:col: message` of a JSON error in `path`.
fn located(path: &Path, e: &serde_json::Error) -> String {
    format!("{}:{}:{}: {e}", shown(path), e.line(), e.column())
}

/// Read and check a recording's index (`None` when there is none).
fn read_index(dir: &Path, max: u64) -> Result<Option<Index>, Error> {
    let path = dir.join(INDEX);
    let Some(bytes) = read_bounded(&path, max)? else {
        return Ok(None);
    };
    let index: Index = serde_json::from_slice(&bytes).map_err(|e| {
        err(format!(
            "{}: not a recording of extension calls written by topoplan",
            located(&path, &e)
        ))
    })?;
    if index.recording != MARKER {
        return Err(err(format!(
            "{}: not a recording of extension calls written by topoplan (its \"recording\" field is not {MARKER:?})",
            shown(&path)
        )));
    }
    for c in &index.calls {
        if !is_call_file(&c.file) {
            return Err(err(format!(
                "{}: the call file {:?} is not named by a SHA-256 (64 hex digits and .json)",
                shown(&path),
                c.file
            )));
        }
    }
    Ok(Some(index))
}

/// Writes a recording (`--record-extensions`).
#[derive(Debug)]
pub struct Recorder {
    dir: PathBuf,
    /// Where this run's calls are written until the run succeeds.
    staging: PathBuf,
    /// Whether DIR held an earlier recording (an index).
    earlier: bool,
    /// Call files of the earlier recording in DIR (ours to replace or remove).
    owned: BTreeSet<String>,
    redacted: BTreeSet<String>,
    /// Per call file: its index entry, and the bytes written.
    calls: Mutex<BTreeMap<String, (IndexEntry, String)>>,
    /// Calls answered differently on a second asking.
    differing: Mutex<BTreeSet<String>>,
}

impl Recorder {
    /// Prepare to record into `dir` (created if missing). An existing `index.json` must be one
    /// topoplan wrote.
    pub fn open(dir: &Path, redacted: BTreeSet<String>, max: u64) -> Result<Recorder, Error> {
        let mut earlier = false;
        let owned = match std::fs::symlink_metadata(dir) {
            Ok(m) if m.is_dir() || m.file_type().is_symlink() => read_index(dir, max)?
                .map(|i| {
                    earlier = true;
                    i.calls.into_iter().map(|c| c.file).collect()
                })
                .unwrap_or_default(),
            Ok(_) => {
                return Err(err(format!(
                    "--record-extensions {}: not a directory",
                    shown(dir)
                )));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| err(format!("--record-extensions {}: {e}", shown(dir))))?;
                BTreeSet::new()
            }
            Err(e) => return Err(err(format!("--record-extensions {}: {e}", shown(dir)))),
        };
        Ok(Recorder {
            dir: dir.to_path_buf(),
            staging: dir.join(format!("{STAGING_PREFIX}{}", std::process::id())),
            earlier,
            owned,
            redacted,
            calls: Mutex::new(BTreeMap::new()),
            differing: Mutex::new(BTreeSet::new()),
        })
    }

    /// Record one call made for `subject`. The first answer to a request is kept.
    pub fn record(
        &self,
        key: &CallKey,
        subject: &str,
        outcome: &Result<Vec<u8>, CallError>,
    ) -> Result<(), Error> {
        let name = key.file_name();
        let text = call_file(key, outcome);
        {
            let mut calls = self.calls.lock().map_err(|_| err("poisoned".into()))?;
            if let Some((entry, written)) = calls.get_mut(&name) {
                if !entry.subjects.iter().any(|s| s == subject) {
                    entry.subjects.push(subject.to_string());
                    entry.subjects.sort();
                }
                if *written != text
                    && let Ok(mut d) = self.differing.lock()
                {
                    d.insert(format!("{} for {subject}", key.hook));
                }
                return Ok(());
            }
            calls.insert(
                name.clone(),
                (
                    IndexEntry {
                        subjects: vec![subject.to_string()],
                        hook: key.hook.clone(),
                        handler: key.handler_name(),
                        file: name.clone(),
                    },
                    text.clone(),
                ),
            );
        }
        let path = self.dir.join(&name);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() || !m.is_file() => {
                return Err(err(format!(
                    "{} exists and is not a regular file; topoplan does not replace it",
                    shown(&path)
                )));
            }
            // The same call recorded by an earlier run that did not finish: already ours.
            Ok(_)
                if !self.owned.contains(&name)
                    && read_bounded(&path, text.len() as u64)
                        .ok()
                        .flatten()
                        .is_some_and(|b| b == text.as_bytes()) =>
            {
                return Ok(());
            }
            Ok(_) if !self.owned.contains(&name) => {
                return Err(err(format!(
                    "{} exists and is not listed in {}: topoplan does not replace a file it did not write",
                    shown(&path),
                    shown(&self.dir.join(INDEX))
                )));
            }
            _ => {}
        }
        match std::fs::create_dir(&self.staging) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(err(format!("cannot write {}: {e}", shown(&self.staging))));
            }
        }
        write_atomic(&self.staging, &name, text.as_bytes())
    }

    /// End the recording. When the run `succeeded` (or DIR held no recording yet): move the
    /// calls into place, write the index and remove the earlier recording's calls this run did
    /// not make. Otherwise drop this run's calls and leave DIR as it was.
    pub fn finish(&self, succeeded: bool) -> Result<Finished, Error> {
        let commit = succeeded || !self.earlier;
        let result = if commit {
            self.commit()
        } else {
            Ok(Vec::new())
        };
        if std::fs::symlink_metadata(&self.staging).is_ok_and(|m| m.is_dir()) {
            std::fs::remove_dir_all(&self.staging)
                .map_err(|e| err(format!("cannot remove {}: {e}", shown(&self.staging))))?;
        }
        Ok(Finished {
            differing: result?,
            kept: (!commit).then(|| self.dir.clone()),
        })
    }

    fn commit(&self) -> Result<Vec<String>, Error> {
        let calls = self.calls.lock().map_err(|_| err("poisoned".into()))?;
        for name in calls.keys() {
            let staged = self.staging.join(name);
            // Already in place when an earlier, unfinished run wrote the same bytes.
            if std::fs::symlink_metadata(&staged).is_ok_and(|m| m.is_file()) {
                let path = self.dir.join(name);
                std::fs::rename(&staged, &path)
                    .map_err(|e| err(format!("cannot write {}: {e}", shown(&path))))?;
            }
        }
        for stale in self.owned.iter().filter(|f| !calls.contains_key(*f)) {
            let path = self.dir.join(stale);
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                std::fs::remove_file(&path)
                    .map_err(|e| err(format!("cannot remove {}: {e}", shown(&path))))?;
            }
        }
        let mut entries: Vec<IndexEntry> = calls.values().map(|(e, _)| e.clone()).collect();
        entries.sort();
        let index = Index {
            recording: MARKER.into(),
            redacted_settings: self.redacted.iter().cloned().collect(),
            calls: entries,
        };
        let mut text = serde_json::to_string_pretty(&index)
            .map_err(|e| err(format!("cannot encode the index: {e}")))?;
        text.push('\n');
        let index_path = self.dir.join(INDEX);
        if std::fs::symlink_metadata(&index_path).is_ok_and(|m| !m.is_file()) {
            return Err(err(format!(
                "{} exists and is not a regular file; topoplan does not replace it",
                shown(&index_path)
            )));
        }
        write_atomic(&self.dir, INDEX, text.as_bytes())?;
        Ok(self
            .differing
            .lock()
            .map(|d| d.iter().cloned().collect())
            .unwrap_or_default())
    }
}

/// The name of the staging directory inside DIR, followed by the process id.
pub const STAGING_PREFIX: &str = ".topoplan-recording-";

/// How a recording ended.
#[derive(Debug, Default)]
pub struct Finished {
    /// The requests the extension answered differently when asked again.
    pub differing: Vec<String>,
    /// The run failed and this DIR's earlier recording was left as it was.
    pub kept: Option<PathBuf>,
}

/// Write `dir/name` through a temporary file renamed over it (a link there is replaced, never
/// followed).
pub(super) fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    use std::io::Write;
    let path = dir.join(name);
    let mut tmp = tempfile::Builder::new()
        .prefix(".topoplan-")
        .tempfile_in(dir)
        .map_err(|e| err(format!("cannot write {}: {e}", shown(&path))))?;
    tmp.write_all(bytes)
        .map_err(|e| err(format!("cannot write {}: {e}", shown(&path))))?;
    tmp.persist(&path)
        .map_err(|e| err(format!("cannot write {}: {}", shown(&path), e.error)))?;
    Ok(())
}

/// Answers calls from a recording (`--replay-extensions`).
#[derive(Debug)]
pub struct Replay {
    dir: PathBuf,
    /// The recording's redacted keys (a request is matched after redacting them too).
    pub redacted: BTreeSet<String>,
    /// The extensions the recording holds calls of.
    pub extensions: BTreeSet<String>,
}

impl Replay {
    /// Open the recording in `dir`: its index must exist and be topoplan's.
    pub fn open(dir: &Path, max: u64) -> Result<Replay, Error> {
        let index = read_index(dir, max)?.ok_or_else(|| {
            err(format!(
                "--replay-extensions {}: no {INDEX} there: not a recording of extension calls (make one with --record-extensions)",
                shown(dir)
            ))
        })?;
        let extensions = index
            .calls
            .iter()
            .map(|c| match c.handler.rsplit_once('.') {
                Some((_, ext)) if c.hook != "Discovery" => ext.to_string(),
                _ => c.handler.clone(),
            })
            .collect();
        Ok(Replay {
            dir: dir.to_path_buf(),
            redacted: index.redacted_settings.into_iter().collect(),
            extensions,
        })
    }

    /// The recorded outcome of `key`, or `None` when the recording has no such call. `max` is
    /// the largest 200 body accepted (as live), `request_len` the size of the request.
    pub fn answer(
        &self,
        key: &CallKey,
        max: u64,
        request_len: usize,
    ) -> Result<Option<Result<Vec<u8>, CallError>>, Error> {
        let path = self.dir.join(key.file_name());
        let bound = max
            .saturating_add(request_len as u64)
            .saturating_add(FILE_OVERHEAD);
        let Some(bytes) = read_bounded(&path, bound)? else {
            return Ok(None);
        };
        let file: CallFile<'_> =
            serde_json::from_slice(&bytes).map_err(|e| err(located(&path, &e)))?;
        let again = CallKey::new(
            &file.hook,
            &file.extension,
            file.handler.as_deref(),
            file.request,
        );
        if again.hash != key.hash {
            return Err(err(format!(
                "{}: the recorded request does not hash to the file's name (was it edited?)",
                shown(&path)
            )));
        }
        let outcome = match (file.response, file.response_text, file.error) {
            (Some(raw), None, None) => Ok(raw.get().as_bytes().to_vec()),
            (None, Some(text), None) => Ok(text.into_bytes()),
            (None, None, Some(e)) => Err(e.into_call_error()),
            _ => {
                return Err(err(format!(
                    "{}: expected exactly one of \"response\", \"responseText\" and \"error\"",
                    shown(&path)
                )));
            }
        };
        Ok(Some(match outcome {
            Ok(body) if body.len() as u64 > max => Err(CallError::TooLarge {
                hook: key.hook.clone(),
                limit: max,
            }),
            o => o,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_change_the_hash() {
        let a: Value =
            serde_json::from_str(r#"{"b":1,"a":{"y":[1,{"q":2,"p":3}],"x":"s"}}"#).expect("json");
        let b: Value =
            serde_json::from_str(r#"{"a":{"x":"s","y":[1,{"p":3,"q":2}]},"b":1}"#).expect("json");
        let ka = CallKey::new("GeneratePatches", "ext", Some("gen"), a);
        let kb = CallKey::new("GeneratePatches", "ext", Some("gen"), b);
        assert_eq!(ka.hash, kb.hash);
        assert_eq!(ka.hash.len(), 64);
        // Array order, the hook and the handler do count.
        let c = json!({"b": 1, "a": {"y": [{"q": 2, "p": 3}, 1], "x": "s"}});
        assert_ne!(
            CallKey::new("GeneratePatches", "ext", Some("gen"), c).hash,
            ka.hash
        );
        assert_ne!(
            CallKey::new("ValidateTopology", "ext", Some("gen"), kb.request.clone()).hash,
            ka.hash
        );
        assert_ne!(
            CallKey::new("GeneratePatches", "ext", Some("other"), kb.request.clone()).hash,
            ka.hash
        );
    }

    #[test]
    fn canonical_json_sorts_keys_and_drops_spaces() {
        let v: Value =
            serde_json::from_str(r#"{ "z": [ 1, 2.5 ], "a": "\u00e9\"" }"#).expect("json");
        assert_eq!(canonical(&v), r#"{"a":"é\"","z":[1,2.5]}"#);
    }

    #[test]
    fn redaction_replaces_only_the_named_settings() {
        let mut r = json!({"settings": {"token": "s3cret", "profile": "e2e"}});
        redact(&mut r, &BTreeSet::from(["token".to_string()]));
        assert_eq!(
            r,
            json!({"settings": {"token": "REDACTED", "profile": "e2e"}})
        );
    }

    #[test]
    fn call_files_replay_what_was_recorded() {
        let dir = tempfile::tempdir().expect("tempdir");
        let key = CallKey::new(
            "GeneratePatches",
            "ext",
            Some("gen"),
            json!({"settings": {}}),
        );
        let rec = Recorder::open(dir.path(), BTreeSet::new(), 1 << 20).expect("open");
        let body = br#"{"status":"Success", "items":[]}"#.to_vec();
        rec.record(&key, "Cluster default/a", &Ok(body.clone()))
            .expect("record");
        let failing = CallKey::new("ValidateTopology", "ext", Some("v"), json!({}));
        let status = CallError::Status {
            url: "http://127.0.0.1:1/x".into(),
            code: 500,
            body: b"boom".to_vec(),
        };
        rec.record(&failing, "Cluster default/a", &Err(status.clone()))
            .expect("record");
        rec.finish(true).expect("finish");
        let replay = Replay::open(dir.path(), 1 << 20).expect("replay");
        assert_eq!(replay.extensions, BTreeSet::from(["ext".to_string()]));
        assert_eq!(
            replay.answer(&key, 1 << 20, 0).expect("read"),
            Some(Ok(body))
        );
        assert_eq!(
            replay.answer(&failing, 1 << 20, 0).expect("read"),
            Some(Err(status))
        );
        let unknown = CallKey::new("GeneratePatches", "ext", Some("gen"), json!({"x": 1}));
        assert_eq!(replay.answer(&unknown, 1 << 20, 0).expect("read"), None);
        // A limit lower than the recorded body answers as the live call would.
        assert!(matches!(
            replay.answer(&key, 4, 0),
            Ok(Some(Err(CallError::TooLarge { .. })))
        ));
    }

    #[test]
    fn hostile_indexes_and_edited_calls_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let index = |calls: &str| {
            std::fs::write(
                dir.path().join(INDEX),
                format!(r#"{{"recording": "{MARKER}", "calls": [{calls}]}}"#),
            )
            .expect("write")
        };
        index(
            r#"{"for": [], "hook": "GeneratePatches", "handler": "h.e", "file": "../../etc/x.json"}"#,
        );
        let e = Replay::open(dir.path(), 1 << 20).expect_err("a path out of the directory");
        assert!(e.to_string().contains("not named by a SHA-256"), "{e}");
        index("");
        let replay = Replay::open(dir.path(), 1 << 20).expect("open");
        // A call file whose request was edited no longer matches its name.
        let key = CallKey::new("GeneratePatches", "ext", Some("gen"), json!({"a": 1}));
        let edited = CallKey::new("GeneratePatches", "ext", Some("gen"), json!({"a": 2}));
        std::fs::write(
            dir.path().join(key.file_name()),
            call_file(&edited, &Ok(b"{}".to_vec())),
        )
        .expect("write");
        let e = replay.answer(&key, 1 << 20, 0).expect_err("edited");
        assert!(
            e.to_string().contains("does not hash to the file's name"),
            "{e}"
        );
        // Both a response and an error: refused.
        let both = call_file(&key, &Ok(b"{}".to_vec())).replace(
            "\n}\n",
            ",\n  \"error\": {\"reason\": \"Timeout\", \"url\": \"u\"}\n}\n",
        );
        std::fs::write(dir.path().join(key.file_name()), both).expect("write");
        let e = replay.answer(&key, 1 << 20, 0).expect_err("both");
        assert!(e.to_string().contains("exactly one of"), "{e}");
    }
}
