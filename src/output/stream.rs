/*!
Output that streams: each Cluster's part rendered on its own (on a worker thread), the frame
around them written once, byte for byte what rendering the whole plan at once gave.

Owns three things:
- [`Frame`]: a document (JSON or YAML) cut where its `clusters` list goes, so the head can be
  written before the first Cluster and the tail after the last. The frame is the document
  itself, serialised with one placeholder entry, so no hand-written JSON or YAML can drift from
  the real serialisers.
- [`cluster_json`] / [`cluster_yaml`]: one entry of that list, laid out as the serialiser lays
  out a list item at that depth.
- [`Held`]: stdout that holds the first [`HOLD_BYTES`] back, so a run that fails early (as
  most failures do) prints nothing, while a fleet's output still flows with flat memory.
*/

use std::io::Write;

use serde::Serialize;
use serde_json::Value;

/// How much output is held back before it starts to flow (see [`Held`]): a few hundred
/// Clusters' worth of plan document.
pub const HOLD_BYTES: usize = 8 << 20;

/// The placeholder put where the Clusters go; an entry no real Cluster can produce.
const PLACEHOLDER: &str = "@@topoplan-clusters@@";

/// A JSON or YAML document cut around its `clusters` list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Everything before the first Cluster (ends with `[` + newline and indent, or `clusters:`
    /// and a newline).
    pub head: String,
    /// Everything after the last Cluster.
    pub tail: String,
    /// The whole document when it has no Cluster at all (`clusters: []`).
    pub empty: String,
}

/// The serialisations a frame can be cut from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// Pretty JSON, two-space indent, trailing newline.
    Json,
    /// YAML as [`crate::load::yaml::to_yaml`] writes it.
    Yaml,
}

impl Frame {
    /// Cut `build(clusters)` (the document with the given `clusters` value) where the
    /// Clusters go. `build` is called twice: with a one-placeholder list and an empty one.
    pub fn cut<D: Serialize>(syntax: Syntax, build: impl Fn(Value) -> D) -> Frame {
        let placeholder = Value::Array(vec![Value::String(PLACEHOLDER.into())]);
        let with = render(syntax, &build(placeholder));
        let empty = render(syntax, &build(Value::Array(Vec::new())));
        let (head, tail) = match syntax {
            Syntax::Json => {
                let quoted = format!("\"{PLACEHOLDER}\"");
                match with.find(&quoted) {
                    Some(at) => (
                        with[..at].to_string(),
                        with[at + quoted.len()..].to_string(),
                    ),
                    None => (with.clone(), String::new()),
                }
            }
            Syntax::Yaml => match with.find(PLACEHOLDER) {
                Some(at) => {
                    let start = with[..at].rfind('\n').map_or(0, |n| n + 1);
                    let end = with[at..].find('\n').map_or(with.len(), |n| at + n + 1);
                    (with[..start].to_string(), with[end..].to_string())
                }
                None => (with.clone(), String::new()),
            },
        };
        Frame { head, tail, empty }
    }
}

/// `doc` serialised whole, as the frames are cut from it.
pub fn render<D: Serialize>(syntax: Syntax, doc: &D) -> String {
    match syntax {
        Syntax::Json => {
            let mut s =
                super::actions::json_safe(serde_json::to_string_pretty(doc).unwrap_or_default());
            s.push('\n');
            s
        }
        Syntax::Yaml => {
            crate::load::yaml::to_yaml(&serde_json::to_value(doc).unwrap_or(Value::Null))
        }
    }
}

/// The `i`-th entry of a pretty JSON list nested two levels deep (`{"clusters": [...]}`): a
/// separator, then the entry indented by four spaces.
pub fn cluster_json<T: Serialize>(i: usize, entry: &T) -> Vec<u8> {
    let mut pretty = Vec::new();
    if serde_json::to_writer_pretty(super::actions::JsonSafe::new(&mut pretty), entry).is_err() {
        pretty = b"null".to_vec();
    }
    let mut out = Vec::with_capacity(pretty.len() + pretty.len() / 8 + 8);
    if i > 0 {
        out.extend_from_slice(b",\n    ");
    }
    // JSON strings never hold a raw newline: every newline is layout.
    let mut rest = &pretty[..];
    while let Some(n) = memchr::memchr(b'\n', rest) {
        out.extend_from_slice(&rest[..=n]);
        out.extend_from_slice(b"    ");
        rest = &rest[n + 1..];
    }
    out.extend_from_slice(rest);
    out
}

/// One entry of a YAML list at the top level of a mapping (`clusters:` then `- ...`).
pub fn cluster_yaml(entry: Value) -> Vec<u8> {
    crate::load::yaml::to_yaml(&Value::Array(vec![entry])).into_bytes()
}

/// stdout (or any writer) that holds the first `limit` bytes back: a run that fails before
/// then leaves it empty, as a run that renders only at the end would; past it, the output
/// flows, and a later failure leaves it cut short (the exit code says so).
pub struct Held<W: Write> {
    out: W,
    held: Vec<u8>,
    limit: usize,
    flowing: bool,
}

impl<W: Write> Held<W> {
    /// Hold up to `limit` bytes for `out`.
    pub fn new(out: W, limit: usize) -> Held<W> {
        Held {
            out,
            held: Vec::new(),
            limit,
            flowing: false,
        }
    }

    /// Write `bytes` (held while under the limit).
    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let wanted = self.held.len() + bytes.len();
        if !self.flowing && wanted <= self.limit {
            // Grown by doubling but never past the limit: what is held costs at most `limit`.
            if wanted > self.held.capacity() {
                let to = wanted.max(self.held.capacity() * 2).min(self.limit);
                self.held.reserve_exact(to - self.held.len());
            }
            self.held.extend_from_slice(bytes);
            return Ok(());
        }
        if !self.flowing {
            self.flowing = true;
            let held = std::mem::take(&mut self.held);
            self.out.write_all(&held)?;
        }
        self.out.write_all(bytes)
    }

    /// Whether output has started to flow (a failure can no longer take it back).
    pub fn flowing(&self) -> bool {
        self.flowing
    }

    /// The run succeeded: write what is held and flush.
    pub fn finish(mut self) -> std::io::Result<()> {
        let held = std::mem::take(&mut self.held);
        self.out.write_all(&held)?;
        self.out.flush()
    }

    /// The run failed before anything flowed: drop what is held and write `instead` (a
    /// document of the failure); after output began to flow, as [`Held::abandon`].
    pub fn abandon_for(mut self, instead: &[u8]) -> std::io::Result<()> {
        if self.flowing {
            return self.abandon();
        }
        self.held.clear();
        self.out.write_all(instead)?;
        self.out.flush()
    }

    /// The run failed: drop what is held (nothing was shown) or flush what flowed.
    pub fn abandon(mut self) -> std::io::Result<()> {
        self.held.clear();
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(clusters: Value) -> Value {
        json!({"apiVersion": "v", "clusters": clusters, "kind": "Plan", "warnings": [{"message": "m"}]})
    }

    #[test]
    fn json_frame_and_entries_make_the_whole_document() {
        let entries = vec![
            json!({"name": "a", "objects": [1, {"x": "y\nz"}]}),
            json!({"name": "b"}),
        ];
        let f = Frame::cut(Syntax::Json, doc);
        let mut streamed = f.head.clone().into_bytes();
        for (i, e) in entries.iter().enumerate() {
            streamed.extend(cluster_json(i, e));
        }
        streamed.extend(f.tail.as_bytes());
        let whole = render(Syntax::Json, &doc(Value::Array(entries)));
        assert_eq!(String::from_utf8(streamed).unwrap(), whole);
        assert_eq!(f.empty, render(Syntax::Json, &doc(json!([]))));
    }

    #[test]
    fn yaml_frame_and_entries_make_the_whole_document() {
        let entries = vec![
            json!({"name": "a", "objects": [1, {"x": "y\nz"}]}),
            json!({"name": "b"}),
        ];
        let f = Frame::cut(Syntax::Yaml, doc);
        let mut streamed = f.head.clone().into_bytes();
        for e in &entries {
            streamed.extend(cluster_yaml(e.clone()));
        }
        streamed.extend(f.tail.as_bytes());
        let whole = render(Syntax::Yaml, &doc(Value::Array(entries)));
        assert_eq!(String::from_utf8(streamed).unwrap(), whole);
        assert!(f.empty.contains("clusters: []"), "{}", f.empty);
    }

    #[test]
    fn held_output_is_dropped_on_failure_and_flows_past_the_limit() {
        let mut h = Held::new(Vec::new(), 4);
        h.write(b"ab").unwrap();
        h.write(b"c").unwrap();
        assert!(!h.flowing());
        assert!(h.held.capacity() <= 4, "holding costs at most the limit");
        let mut out = Vec::new();
        {
            let h2 = Held::new(&mut out, 4);
            h2.abandon().unwrap();
        }
        assert!(out.is_empty());
        h.write(b"de").unwrap();
        assert!(h.flowing());
        assert_eq!(h.out, b"abcde");
        h.finish().unwrap();
    }
}
