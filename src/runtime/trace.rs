/*!
A view of the wire: `--trace-extensions DIR` writes every Runtime SDK call as a readable YAML
file (request, response or failure, HTTP status, duration), and `-v` / `--trace-extensions`
print a one-line summary of each call on stderr.

Owns the trace files and the summary line; what is called, and when, belongs to
[`super::wire`].

Clusters are planned in parallel, so calls are not numbered in one global order (which would
change from run to run): a file is named after what the call was for and its position among
that subject's calls, which are made one after the other —
`<kind>.<namespace>.<name>.<NN>.<hook>.<handler>.yaml` (`cluster.default.dev.01.generatepatches.gen.ext.yaml`;
Discovery is `extension.<name>.<NN>.discovery.yaml`). The same inputs give the same names.
DIR is created if missing; an existing DIR must be empty or an earlier trace (it holds the marker
file `.topoplan-trace`), whose files of the same names are replaced — nothing else is removed.
*/

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Map, Value};

use super::error::{CallError, Error};
use super::recording::CallKey;

/// The marker file of a trace directory.
pub const MARKER: &str = ".topoplan-trace";

/// Writes trace files.
#[derive(Debug)]
pub struct Tracer {
    dir: PathBuf,
    /// Calls so far per subject.
    counts: Mutex<HashMap<String, u32>>,
}

/// One traced call.
pub struct Traced<'a> {
    /// What was asked.
    pub key: &'a CallKey,
    /// The Cluster, ClusterClass or extension the call was for.
    pub subject: &'a str,
    /// The URL (live) or the URL the extension would have had.
    pub url: &'a str,
    /// What came back.
    pub outcome: &'a Result<Vec<u8>, CallError>,
    /// How long it took.
    pub elapsed: Duration,
    /// Answered from a recording.
    pub replayed: bool,
}

impl Traced<'_> {
    /// The HTTP status, when there was an answer.
    fn status(&self) -> Option<u16> {
        match self.outcome {
            Ok(_) | Err(CallError::TooLarge { .. } | CallError::Decode { .. }) => Some(200),
            Err(CallError::Status { code, .. }) => Some(*code),
            Err(CallError::Timeout { .. } | CallError::Transport { .. }) => None,
        }
    }

    /// The one-line summary printed on stderr.
    pub fn summary(&self) -> String {
        let status = match (self.status(), self.outcome) {
            (_, Err(CallError::Timeout { .. })) => "timeout".to_string(),
            (None, _) => "no answer".to_string(),
            (Some(200), Ok(body)) => {
                let st = serde_json::from_slice::<Value>(body)
                    .ok()
                    .and_then(|v| v.get("status").and_then(Value::as_str).map(str::to_string));
                match st {
                    Some(st) => format!("200 {st}"),
                    None => "200".to_string(),
                }
            }
            (Some(c), _) => c.to_string(),
        };
        format!(
            "extension call: {} {} for {}: {status} in {}{}",
            self.key.hook,
            self.key.handler_name(),
            self.subject,
            duration(self.elapsed),
            if self.replayed { " (replayed)" } else { "" }
        )
    }

    /// The trace document.
    pub fn document(&self) -> Value {
        let mut m = Map::new();
        let s = |v: &str| Value::String(v.to_string());
        m.insert("hook".into(), s(&self.key.hook));
        m.insert("handler".into(), s(&self.key.handler_name()));
        m.insert("for".into(), s(self.subject));
        m.insert("url".into(), s(self.url));
        m.insert("requestHash".into(), s(&self.key.hash));
        m.insert(
            "source".into(),
            s(if self.replayed { "replayed" } else { "live" }),
        );
        m.insert(
            "status".into(),
            self.status().map_or(Value::Null, Value::from),
        );
        m.insert("duration".into(), s(&duration(self.elapsed)));
        m.insert("request".into(), self.key.request.clone());
        match self.outcome {
            Ok(body) => {
                let response = serde_json::from_slice::<Value>(body)
                    .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()));
                m.insert("response".into(), response);
            }
            Err(e) => {
                m.insert("error".into(), s(&e.to_string()));
            }
        }
        Value::Object(m)
    }
}

/// A duration in milliseconds with a fixed precision (`3.214ms`).
fn duration(d: Duration) -> String {
    format!("{:.3}ms", d.as_secs_f64() * 1000.0)
}

/// A name part safe in a file name: lowercase letters, digits, `-` and `.`; anything else
/// becomes `_`. Bounded, so a long name cannot make the path too long.
fn part(s: &str) -> String {
    s.chars()
        .take(100)
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '-' | '.' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect()
}

impl Tracer {
    /// Prepare `dir` for a trace.
    pub fn open(dir: &Path) -> Result<Tracer, Error> {
        let e = |m: String| Error::Recording {
            message: format!("--trace-extensions {}: {m}", dir.display()),
        };
        match std::fs::symlink_metadata(dir) {
            Ok(m) if m.is_dir() || m.file_type().is_symlink() => {
                let marked = std::fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.is_file());
                let empty = std::fs::read_dir(dir)
                    .map_err(|x| e(x.to_string()))?
                    .next()
                    .is_none();
                if !marked && !empty {
                    return Err(e(
                        "the directory is neither empty nor an earlier trace (it has no .topoplan-trace); topoplan does not write among files it did not write".into(),
                    ));
                }
            }
            Ok(_) => return Err(e("not a directory".into())),
            Err(x) if x.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(dir).map_err(|x| e(x.to_string()))?;
            }
            Err(x) => return Err(e(x.to_string())),
        }
        std::fs::write(dir.join(MARKER), "written by topoplan --trace-extensions\n")
            .map_err(|x| e(x.to_string()))?;
        Ok(Tracer {
            dir: dir.to_path_buf(),
            counts: Mutex::new(HashMap::new()),
        })
    }

    /// Write the trace file of one call.
    pub fn write(&self, call: &Traced<'_>) -> Result<(), Error> {
        let n = {
            let mut counts = self.counts.lock().map_err(|_| Error::Recording {
                message: "poisoned".into(),
            })?;
            let n = counts.entry(call.subject.to_string()).or_insert(0);
            *n += 1;
            *n
        };
        let (kind, what) = call
            .subject
            .split_once(' ')
            .unwrap_or(("call", call.subject));
        let handler = match &call.key.handler {
            Some(h) => format!(".{}.{}", part(h), part(&call.key.extension)),
            None => String::new(),
        };
        let name = format!(
            "{}.{}.{n:02}.{}{handler}.yaml",
            part(kind),
            part(&what.replace('/', ".")),
            part(&call.key.hook),
        );
        let path = self.dir.join(&name);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
            return Err(Error::Recording {
                message: format!(
                    "{} exists and is not a regular file; topoplan does not replace it",
                    path.display()
                ),
            });
        }
        let text = format!(
            "# {}\n{}",
            call.summary(),
            crate::load::yaml::to_yaml(&call.document())
        );
        super::recording::write_atomic(&self.dir, &name, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_follow_the_subject_and_its_call_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let t = Tracer::open(dir.path()).expect("open");
        let key = CallKey::new("GeneratePatches", "ext", Some("gen"), json!({}));
        let ok = Ok(br#"{"status":"Success"}"#.to_vec());
        for _ in 0..2 {
            t.write(&Traced {
                key: &key,
                subject: "Cluster default/dev",
                url: "http://x",
                outcome: &ok,
                elapsed: Duration::from_micros(1500),
                replayed: false,
            })
            .expect("write");
        }
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("read")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                ".topoplan-trace",
                "cluster.default.dev.01.generatepatches.gen.ext.yaml",
                "cluster.default.dev.02.generatepatches.gen.ext.yaml"
            ]
        );
        let text = std::fs::read_to_string(
            dir.path()
                .join("cluster.default.dev.01.generatepatches.gen.ext.yaml"),
        )
        .expect("read");
        assert!(text.contains("duration: 1.500ms"), "{text}");
        assert!(text.contains("status: 200"), "{text}");
    }

    #[test]
    fn a_directory_of_other_files_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
        assert!(Tracer::open(dir.path()).is_err());
        assert!(dir.path().join("notes.txt").exists());
    }
}
