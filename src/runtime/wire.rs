/*!
The seam between the Runtime SDK client and the network: every call (Discovery and the topology
hooks) goes through [`Wire::exchange`], which sends it live or answers it from a recording
([`super::recording`]), and records and traces it ([`super::trace`]) as the options say.

Owns the order of those steps and the call's identity: the request as sent, with the settings of
`--redact-setting` replaced by `REDACTED`, is what is hashed, recorded and traced — so a replay
matches a request after redacting the same keys (those of the flags and those the recording's
index lists). A recording or replay problem is an [`Error`] of its own, never a [`CallError`]:
`failurePolicy: Ignore` forgives failures of the extension, not a stale recording.
*/

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use super::error::{CallError, Error};
use super::recording::{CallKey, Recorder, Replay, redact};
use super::trace::{Traced, Tracer};

/// What the command line asks of the wire (plain data; [`Wire::open`] acts on it).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WireOptions {
    /// `--record-extensions DIR`.
    pub record: Option<PathBuf>,
    /// `--replay-extensions DIR`.
    pub replay: Option<PathBuf>,
    /// `--trace-extensions DIR`.
    pub trace: Option<PathBuf>,
    /// Print a one-line summary per call on stderr (`-v`, or with a trace).
    pub summaries: bool,
    /// `--redact-setting KEY`s.
    pub redact: BTreeSet<String>,
}

/// The wire of one run, shared by every registry of the run (`diff` has two).
#[derive(Debug, Default)]
pub struct Wire {
    recorder: Option<Recorder>,
    replay: Option<Replay>,
    tracer: Option<Tracer>,
    summaries: bool,
    redact: BTreeSet<String>,
}

/// A handle on the run's wire, carried in the extension options (clones share it).
#[derive(Debug, Clone, Default)]
pub struct WireHandle(pub Option<Arc<Wire>>);

impl PartialEq for WireHandle {
    fn eq(&self, other: &WireHandle) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

/// One call about to be made.
pub struct Exchange<'a> {
    /// The hook (`Discovery`, `GeneratePatches`, …).
    pub hook: &'a str,
    /// The ExtensionConfig name.
    pub extension: &'a str,
    /// The bare handler name (none for Discovery).
    pub handler: Option<&'a str>,
    /// What the call is for (`Cluster ns/name`, `ClusterClass ns/name`, `extension NAME`).
    pub subject: &'a str,
    /// The hook URL.
    pub url: &'a str,
    /// The JSON request.
    pub body: Vec<u8>,
    /// The largest 200 body accepted.
    pub max_body: u64,
}

impl Wire {
    /// Open the directories `opts` names. Live calls only, with nothing to record or trace,
    /// when it names none.
    pub fn open(opts: &WireOptions, max_bytes: u64) -> Result<Wire, Error> {
        let replay = match &opts.replay {
            Some(dir) => Some(Replay::open(dir, max_bytes)?),
            None => None,
        };
        let mut redact = opts.redact.clone();
        if let Some(r) = &replay {
            redact.extend(r.redacted.iter().cloned());
        }
        let recorder = match &opts.record {
            Some(dir) => Some(Recorder::open(dir, redact.clone(), max_bytes)?),
            None => None,
        };
        let tracer = match &opts.trace {
            Some(dir) => Some(Tracer::open(dir)?),
            None => None,
        };
        Ok(Wire {
            recorder,
            replay,
            tracer,
            summaries: opts.summaries,
            redact,
        })
    }

    /// Whether calls are answered from a recording.
    pub fn replaying(&self) -> bool {
        self.replay.is_some()
    }

    /// The extensions the recording being replayed holds calls of.
    pub fn recorded_extensions(&self) -> impl Iterator<Item = &str> {
        self.replay
            .iter()
            .flat_map(|r| r.extensions.iter().map(String::as_str))
    }

    fn observed(&self) -> bool {
        self.recorder.is_some() || self.replay.is_some() || self.tracer.is_some() || self.summaries
    }

    /// Make one call — `send` posts the body when the call goes live — and return the 200 body
    /// or the failure of the exchange, or an [`Error`] of the recording (no recorded answer, a
    /// malformed or unwritable file).
    pub fn exchange(
        &self,
        ex: Exchange<'_>,
        send: impl FnOnce(Vec<u8>) -> Result<Vec<u8>, CallError>,
    ) -> Result<Result<Vec<u8>, CallError>, Error> {
        if !self.observed() {
            return Ok(send(ex.body));
        }
        let mut request: Value = serde_json::from_slice(&ex.body).unwrap_or(Value::Null);
        redact(&mut request, &self.redact);
        let key = CallKey::new(ex.hook, ex.extension, ex.handler, request);
        let started = Instant::now();
        let outcome = match &self.replay {
            Some(r) => {
                r.answer(&key, ex.max_body, ex.body.len())?
                    .ok_or_else(|| Error::NotRecorded {
                        hook: ex.hook.to_string(),
                        handler: key.handler_name(),
                        subject: ex.subject.to_string(),
                        file: key.file_name(),
                    })?
            }
            None => send(ex.body),
        };
        let elapsed = started.elapsed();
        if let Some(rec) = &self.recorder {
            rec.record(&key, ex.subject, &outcome)?;
        }
        let traced = Traced {
            key: &key,
            subject: ex.subject,
            url: ex.url,
            outcome: &outcome,
            elapsed,
            replayed: self.replay.is_some(),
        };
        if let Some(t) = &self.tracer {
            t.write(&traced)?;
        }
        if self.summaries {
            eprintln!("{}", crate::escape::escape_line(&traced.summary()));
        }
        Ok(outcome)
    }

    /// End the run (which `succeeded` or not): put the recording in place, or leave the
    /// earlier one as it was ([`Recorder::finish`]).
    pub fn finish(&self, succeeded: bool) -> Result<super::recording::Finished, Error> {
        match &self.recorder {
            Some(r) => r.finish(succeeded),
            None => Ok(super::recording::Finished::default()),
        }
    }
}
