/*!
The span-free path: granit events straight to JSON values, for documents whose spans are built
only when a diagnostic asks ([`super::Spans::OnDemand`]), such as `--crds`.

The full path ([`super::compose`] → [`super::decode`]) builds a node tree, then a tree of
entries with spans, then the value; most of the time reading a provider's CRDs went there. This
path builds the value as the events come (from [`super::block`]'s scanner where the text is in
its subset, which is several times faster than granit's, else from granit), for the common
subset of YAML alone: no anchors,
aliases, tags, merge keys, directives or YAML 1.1 line breaks, no repeated key and no value
without a JSON form. On anything else it gives up ([`None`]) and the caller reads the same text
on the full path, so every result is the full path's, errors and their locations included
(tested on the fixtures and on generated documents, `tests` below).

Owns one more thing the full path cannot do: leaving out a value the caller will never read
([`SkipValue`]), such as the schema of a CRD version no object of the run is written in. Its
events are still scanned (a syntax error there is still reported, through the full path) and its
scalars still checked as the full path checks them, but nothing of it is built.
*/

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use granit_parser::{Event, Parser, ScalarStyle, StructureStyle, options};
use serde_json::{Map, Value};

use super::block::Block;
use super::bounds::{
    MAX_DOCUMENT_NODES, ends_in_unterminated_line, slash_escape, try_charge, yaml11_line_break,
};
use super::resolve::{self, Resolved};
use crate::source::Span;

/// One level of the value being read, from the root down, as a [`SkipValue`] test sees it.
#[derive(Debug, Clone, Copy)]
pub struct Level<'a> {
    /// The key of this level in its parent mapping, `""` for the root and sequence items.
    pub key: &'a str,
    /// For a mapping: its entries read so far (keys written before the one being read).
    pub entries: Option<&'a Map<String, Value>>,
}

/// Values a reader of a document never looks at, left out of it by the span-free path: `test`
/// is asked about every collection that starts at `depth` levels below the root (the levels of
/// its ancestors, then its own with its key and no entries) and returns whether to leave it
/// out. The full path, which the fast one falls back to on any input outside its subset, keeps
/// every value: a reader must not rely on a value being left out.
#[derive(Clone)]
pub struct SkipValue {
    /// The number of levels, the root's and the tested value's included.
    pub depth: usize,
    /// Whether to leave the value out.
    pub test: Arc<LeaveOut>,
    /// Faster still, where the text is laid out plainly enough to tell: the byte ranges of a
    /// document's text (whole lines, sorted, apart, strictly inside the document) that hold
    /// only a key and a value no reader looks at, so that they are not even scanned ([`Cuts`]).
    pub cut: Option<Arc<CutLines>>,
}

/// What [`SkipValue::cut`] cuts from a document's text before it is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cuts {
    /// Whole lines, sorted, apart, strictly inside the one document of the text, each holding
    /// only a key and its value. What is cut is not read at all: a range must hold nothing
    /// whose reading could fail (or be a value `test` leaves out, whose errors go unseen).
    pub ranges: Vec<Range<usize>>,
    /// The nodes (keys and values) in the ranges that still count against the document's and
    /// the run's node bounds, as if they were read: the bounds then fail or pass as on the
    /// whole text. Only for a text of one document.
    pub nodes: usize,
}

impl Cuts {
    /// Nothing is cut.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }
}

/// [`SkipValue::test`]: whether to leave out the value at the end of the levels.
pub type LeaveOut = dyn Fn(&[Level<'_>]) -> bool + Send + Sync;

/// [`SkipValue::cut`]: what of a document's text to cut before reading it.
pub type CutLines = dyn Fn(&str) -> Cuts + Send + Sync;

impl std::fmt::Debug for SkipValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SkipValue(depth {})", self.depth)
    }
}

/// A collection being read.
struct Frame {
    /// The key under which it goes in its parent (empty for the root and sequence items).
    key: String,
    value: Open,
    /// Where it starts.
    start: usize,
    /// End of the last child, for block collections whose end event carries no position.
    last_end: usize,
    flow: bool,
}

enum Open {
    Seq(Vec<Value>),
    /// The entries, and the key waiting for its value.
    Map(Map<String, Value>, Option<String>),
}

/// The documents of `text` (starting at byte `base` of its file) with their extents, or `None`
/// when the text is outside this path's subset or fails: the caller then reads it on the full
/// path. Nodes are charged to the run only when the whole text succeeds, and only when the
/// charge fits ([`super::bounds::try_charge`]), so the full path, when it runs instead, charges
/// and fails exactly as it would alone.
pub(super) fn documents(
    text: &str,
    base: usize,
    skip: Option<&SkipValue>,
) -> Option<Vec<(Value, Span)>> {
    // Directives carry into documents and YAML 1.1 reads NEL, LS and PS as line breaks: both
    // are the full path's business.
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b'%') || memchr::memmem::find(bytes, b"\n%").is_some() {
        return None;
    }
    if yaml11_line_break(text).is_some() {
        return None;
    }
    if let Some(cut) = skip.and_then(|s| s.cut.as_ref()) {
        let cuts = cut(text);
        if !cuts.is_empty()
            && let Some(docs) = read_cut(text, base, &cuts, skip)
        {
            return Some(docs);
        }
    }
    read(text, base, skip, 0)
}

/// [`read`] of `text` without `ranges`, the extents mapped back onto `text`.
fn read_cut(
    text: &str,
    base: usize,
    cuts: &Cuts,
    skip: Option<&SkipValue>,
) -> Option<Vec<(Value, Span)>> {
    // The kept text goes to one buffer per thread: values own their strings, and a fresh
    // buffer per document cost its pages being zeroed again each time.
    thread_local! {
        static KEPT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    KEPT.with(|buf| {
        let Ok(mut kept) = buf.try_borrow_mut() else {
            return None;
        };
        kept.clear();
        read_cut_into(text, base, cuts, skip, &mut kept)
    })
}

fn read_cut_into(
    text: &str,
    base: usize,
    cuts: &Cuts,
    skip: Option<&SkipValue>,
    kept: &mut String,
) -> Option<Vec<(Value, Span)>> {
    let ranges = &cuts.ranges;
    let mut from = 0;
    for r in ranges {
        if r.start < from || r.start >= r.end {
            return None;
        }
        kept.push_str(text.get(from..r.start)?);
        from = r.end;
    }
    kept.push_str(text.get(from..)?);
    // A position of the kept text in `text`: after every range that starts before it (no
    // extent starts or ends at a range's start, the ranges being strictly inside documents).
    let back = |mut at: usize| {
        for r in ranges {
            if r.start < at {
                at += r.end - r.start;
            }
        }
        at
    };
    let docs = read(kept, 0, skip, cuts.nodes)?;
    Some(
        docs.into_iter()
            .map(|(value, span)| {
                let start = back(span.offset);
                let end = back(span.offset + span.len);
                (value, Span::new(start + base, end.saturating_sub(start)))
            })
            .collect(),
    )
}

/// [`documents`] without cuts, or of a text of one document from which cuts holding `cut_nodes`
/// nodes were taken (they count as read). Read with the [`block`] scanner where the text is in
/// its subset, else with granit.
fn read(
    text: &str,
    base: usize,
    skip: Option<&SkipValue>,
    cut_nodes: usize,
) -> Option<Vec<(Value, Span)>> {
    if let Some(block) = Block::new(text)
        && let Some(docs) = read_from(Source::Block(block), text, base, skip, cut_nodes)
    {
        return Some(docs);
    }
    let opts = options! { emit_comments: false, emit_anchor_events: true };
    let parser = Parser::new_from_str_with_options(text, opts);
    read_from(
        Source::Granit(Box::new(parser)),
        text,
        base,
        skip,
        cut_nodes,
    )
}

/// [`read`] with the events of `source`.
pub(super) fn read_from<'a>(
    source: Source<'a>,
    text: &'a str,
    base: usize,
    skip: Option<&SkipValue>,
    cut_nodes: usize,
) -> Option<Vec<(Value, Span)>> {
    let mut reader = Reader {
        source,
        text,
        skip,
        nodes: cut_nodes,
        cut_nodes,
    };
    let mut docs = Vec::new();
    let mut seen = 0;
    loop {
        match reader.next()? {
            (Event::StreamEnd, _) => break,
            (Event::DocumentStart(explicit, _), span) => {
                seen += 1;
                let (value, doc) = reader.document(explicit.then_some(span.offset))?;
                if !value.is_null() {
                    docs.push((value, Span::new(doc.offset + base, doc.len)));
                }
            }
            _ => {}
        }
    }
    // Cut nodes belong to the one document of the text.
    if cut_nodes > 0 && seen != 1 {
        return None;
    }
    try_charge(reader.nodes).then_some(docs)
}

/// Where a reader's events come from (granit's parser boxed: it is large, and made once per
/// text it reads).
pub(super) enum Source<'a> {
    Granit(Box<Parser<'a, granit_parser::StrInput<'a>>>),
    Block(Block<'a>),
}

struct Reader<'a, 's> {
    source: Source<'a>,
    text: &'a str,
    skip: Option<&'s SkipValue>,
    /// Nodes read (built or left out), for the bounds the full path keeps.
    nodes: usize,
    /// Nodes cut from the text, counted to its first document as if read ([`Cuts::nodes`]).
    cut_nodes: usize,
}

impl<'a> Reader<'a, '_> {
    fn next(&mut self) -> Option<(Event<'a>, Span)> {
        match &mut self.source {
            Source::Granit(parser) => {
                let (event, span) = parser.next()?.ok()?;
                let r = span.byte_range()?;
                Some((event, Span::new(r.start, r.end.saturating_sub(r.start))))
            }
            Source::Block(block) => block.next(),
        }
    }

    /// Count a node; `None` past the per-document bound (the full path reports it).
    fn count(&mut self, doc_nodes: &mut usize) -> Option<()> {
        self.nodes += 1;
        *doc_nodes += 1;
        (*doc_nodes <= MAX_DOCUMENT_NODES).then_some(())
    }

    /// One document after its start event: its value and extent (as the full path computes
    /// them).
    fn document(&mut self, explicit_start: Option<usize>) -> Option<(Value, Span)> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut root: Option<(Value, Span)> = None;
        let mut doc_nodes = std::mem::take(&mut self.cut_nodes);
        if doc_nodes > MAX_DOCUMENT_NODES {
            return None;
        }
        loop {
            let (event, span) = self.next()?;
            // A finished value, its span's end, and where it started.
            let (value, start, end) = match event {
                Event::DocumentEnd => {
                    let (value, root_span) = root?;
                    if !stack.is_empty() {
                        return None;
                    }
                    let start = explicit_start
                        .unwrap_or(root_span.offset)
                        .min(root_span.offset);
                    let end = if span.len > 0 {
                        span.offset + span.len
                    } else {
                        root_span.offset + root_span.len
                    };
                    return Some((value, Span::new(start, end.saturating_sub(start))));
                }
                Event::Scalar(value, style, anchor, tag) => {
                    self.count(&mut doc_nodes)?;
                    if anchor != 0 || tag.is_some() {
                        return None;
                    }
                    let flow = stack.last().is_some_and(|f| f.flow);
                    let is_key = matches!(
                        stack.last(),
                        Some(Frame {
                            value: Open::Map(_, None),
                            ..
                        })
                    );
                    let plain = self.check_scalar(style, span, flow)?;
                    let value = self.block_scalar_end(value, style, span);
                    if is_key {
                        let key = key(&value, plain)?;
                        if let Some(Frame {
                            value: Open::Map(entries, pending),
                            ..
                        }) = stack.last_mut()
                        {
                            if entries.contains_key(&key) {
                                return None;
                            }
                            *pending = Some(key);
                        }
                        if let Some(f) = stack.last_mut() {
                            f.last_end = f.last_end.max(span.offset + span.len);
                        }
                        continue;
                    }
                    (scalar(value, plain)?, span.offset, span.offset + span.len)
                }
                Event::SequenceStart(style, anchor, ref tag)
                | Event::MappingStart(style, anchor, ref tag) => {
                    self.count(&mut doc_nodes)?;
                    if anchor != 0 || tag.is_some() {
                        return None;
                    }
                    let seq = matches!(event, Event::SequenceStart(..));
                    let flow = matches!(style, StructureStyle::Flow);
                    let key = match stack.last_mut() {
                        None => String::new(),
                        Some(Frame {
                            value: Open::Map(_, pending),
                            ..
                        }) => pending.clone()?,
                        Some(_) => String::new(),
                    };
                    if self.skipped(&stack, &key) {
                        let end = self.pass_over(span, flow, &mut doc_nodes)?;
                        if let Some(Frame {
                            value: Open::Map(_, pending),
                            last_end,
                            ..
                        }) = stack.last_mut()
                        {
                            *pending = None;
                            *last_end = (*last_end).max(end);
                        }
                        continue;
                    }
                    // Bounded as the full path bounds nesting after aliases (there are none).
                    if stack.len() >= 512 {
                        return None;
                    }
                    stack.push(Frame {
                        key,
                        value: if seq {
                            Open::Seq(Vec::new())
                        } else {
                            Open::Map(Map::new(), None)
                        },
                        start: span.offset,
                        last_end: span.offset + span.len,
                        flow,
                    });
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    let frame = stack.pop()?;
                    let end = if span.len > 0 {
                        span.offset + span.len
                    } else {
                        frame.last_end
                    };
                    let value = match frame.value {
                        Open::Seq(items) => Value::Array(items),
                        Open::Map(entries, None) => Value::Object(entries),
                        Open::Map(_, Some(_)) => return None,
                    };
                    (value, frame.start, end)
                }
                // Anchors and aliases: the full path's.
                Event::Alias(_) | Event::Anchor(..) | Event::UnresolvedAlias(_) => return None,
                Event::StreamEnd | Event::DocumentStart(..) => return None,
                _ => continue,
            };
            match stack.last_mut() {
                None => {
                    if root.is_some() {
                        return None;
                    }
                    root = Some((value, Span::new(start, end.saturating_sub(start))));
                }
                Some(frame) => {
                    frame.last_end = frame.last_end.max(end);
                    match &mut frame.value {
                        Open::Seq(items) => items.push(value),
                        Open::Map(entries, pending) => {
                            entries.insert(pending.take()?, value);
                        }
                    }
                }
            }
        }
    }

    /// The full path's checks on a scalar as written; whether it is plain. `None` where the
    /// full path would fail.
    fn check_scalar(&self, style: ScalarStyle, span: Span, in_flow: bool) -> Option<bool> {
        let raw = self.text.get(span.offset..span.offset + span.len)?;
        if matches!(style, ScalarStyle::DoubleQuoted) && slash_escape(raw).is_some() {
            return None;
        }
        let plain = matches!(style, ScalarStyle::Plain);
        if plain && in_flow && (raw.starts_with(':') || raw.contains('?')) {
            return None;
        }
        Some(plain)
    }

    /// A block scalar's text as the full path gives it (no final line break at the end of an
    /// input without one), and an empty plain scalar as `""`.
    fn block_scalar_end(
        &self,
        value: Cow<'a, str>,
        style: ScalarStyle,
        span: Span,
    ) -> Cow<'a, str> {
        let mut value = value;
        if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
            && span.offset + span.len >= self.text.len()
            && ends_in_unterminated_line(self.text)
            && value.ends_with('\n')
        {
            value.to_mut().pop();
        }
        if matches!(style, ScalarStyle::Plain) && span.len == 0 {
            return Cow::Borrowed("");
        }
        value
    }

    /// Whether the caller leaves out the collection starting under `key` below `stack`.
    fn skipped(&self, stack: &[Frame], key: &str) -> bool {
        let Some(skip) = self.skip else {
            return false;
        };
        if stack.len() + 1 != skip.depth {
            return false;
        }
        let mut levels: Vec<Level<'_>> = stack
            .iter()
            .map(|f| Level {
                key: &f.key,
                entries: match &f.value {
                    Open::Map(m, _) => Some(m),
                    Open::Seq(_) => None,
                },
            })
            .collect();
        levels.push(Level { key, entries: None });
        (skip.test)(&levels)
    }

    /// Read over a collection left out, from its start event to its end, checking its scalars
    /// as [`Reader::check_scalar`] does; its end.
    fn pass_over(&mut self, start: Span, flow: bool, doc_nodes: &mut usize) -> Option<usize> {
        // (flow, end of the last child) of every open collection, this one's first.
        let mut open: Vec<(bool, usize)> = vec![(flow, start.offset + start.len)];
        loop {
            let (event, span) = self.next()?;
            let end = match event {
                Event::Scalar(_, style, anchor, tag) => {
                    self.count(doc_nodes)?;
                    if anchor != 0 || tag.is_some() {
                        return None;
                    }
                    let in_flow = open.last().is_some_and(|(f, _)| *f);
                    self.check_scalar(style, span, in_flow)?;
                    span.offset + span.len
                }
                Event::SequenceStart(style, anchor, tag)
                | Event::MappingStart(style, anchor, tag) => {
                    self.count(doc_nodes)?;
                    if anchor != 0 || tag.is_some() || open.len() >= 512 {
                        return None;
                    }
                    open.push((
                        matches!(style, StructureStyle::Flow),
                        span.offset + span.len,
                    ));
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    let (_, last) = open.pop()?;
                    let end = if span.len > 0 {
                        span.offset + span.len
                    } else {
                        last
                    };
                    if open.is_empty() {
                        return Some(end);
                    }
                    end
                }
                Event::Alias(_) | Event::Anchor(..) | Event::UnresolvedAlias(_) => return None,
                Event::StreamEnd | Event::DocumentStart(..) | Event::DocumentEnd => return None,
                _ => continue,
            };
            if let Some((_, last)) = open.last_mut() {
                *last = (*last).max(end);
            }
        }
    }
}

/// A mapping key as a JSON object key; `None` for what the full path handles (merge keys,
/// `null` and `uint64` keys, resolution errors).
fn key(value: &str, plain: bool) -> Option<String> {
    if !plain {
        return Some(value.to_string());
    }
    if value == "<<" {
        return None;
    }
    match resolve::resolve_scalar(value, true, None).ok()? {
        Resolved::Null | Resolved::Uint(_) => None,
        r => Some(resolve::key_string(r)),
    }
}

/// A scalar value as JSON; `None` for what has no JSON form.
fn scalar(value: Cow<'_, str>, plain: bool) -> Option<Value> {
    if !plain {
        return Some(Value::String(value.into_owned()));
    }
    resolve::to_json(resolve::resolve_scalar(&value, true, None).ok()?).ok()
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{compose, decode};
    use super::*;
    use proptest::prelude::*;

    /// The full path's documents (value and extent) or its error message.
    fn full(text: &str) -> Result<Vec<(Value, Span)>, String> {
        let mut composer = compose::Composer::new(text);
        let mut docs = Vec::new();
        loop {
            match composer.next_document() {
                Ok(None) => return Ok(docs),
                Ok(Some(c)) => {
                    let value = decode::decode(&c)
                        .and_then(decode::into_value)
                        .map_err(|e| e.into_message(text))?;
                    if !value.is_null() {
                        docs.push((value, c.span));
                    }
                }
                Err(e) => return Err(e.into_message(text)),
            }
        }
    }

    /// The fast path gives the full path's documents, or gives up; whether it gave them.
    fn same_as_full(text: &str) -> bool {
        let Some(fast) = documents(text, 0, None) else {
            return false;
        };
        assert_eq!(Ok(fast), full(text), "{text:?}");
        true
    }

    /// Every YAML file under `dir`, into `out`.
    pub(in crate::load::yaml) fn yaml_files(
        dir: &std::path::Path,
        out: &mut Vec<std::path::PathBuf>,
    ) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                yaml_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                out.push(p);
            }
        }
    }

    #[test]
    fn every_yaml_file_of_testdata_reads_as_on_the_full_path() {
        let mut files = Vec::new();
        yaml_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"),
            &mut files,
        );
        let mut fast = 0;
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            if same_as_full(&text) {
                fast += 1;
            }
        }
        // Not vacuous: the CRD fixtures and nearly every other file take the fast path.
        assert!(
            files.len() >= 50 && fast * 10 >= files.len() * 9,
            "{fast} of {}",
            files.len()
        );
        for crds in ["capa", "capd", "kubeadm-bootstrap", "kubeadm-control-plane"] {
            let p = format!("{}/testdata/crds/{crds}.yaml", env!("CARGO_MANIFEST_DIR"));
            assert!(same_as_full(&std::fs::read_to_string(p).unwrap()), "{crds}");
        }
    }

    #[test]
    fn go_golden_snippets_read_as_on_the_full_path() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/golden/yaml2json.jsonl"
        );
        let (mut fast, mut all) = (0, 0);
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let Ok(case) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let Some(yaml) = case.get("yaml").and_then(Value::as_str) else {
                continue;
            };
            all += 1;
            if same_as_full(yaml) {
                fast += 1;
            }
        }
        assert!(all >= 150 && fast >= all / 3, "{fast} of {all}");
    }

    #[test]
    fn what_the_fast_path_leaves_to_the_full_one() {
        for text in [
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "<<: {a: 1}\n",
            "a: 1\na: 2\n",
            "a: .nan\n",
            "~: 1\n",
            "%YAML 1.1\n---\na: 1\n",
            "a: \"\\/\"\n",
            "a: x\u{85}y\n",
            "[:a]\n",
            "a: [b\n",
            "? [a]\n: 1\n",
            "18446744073709551615: 1\n",
        ] {
            assert_eq!(documents(text, 0, None), None, "{text:?}");
        }
        // And the usual forms it reads.
        for text in [
            "a: 1\n",
            "---\na: y\n---\n---\nb: [1, 2.0, 0o7, 0x1F, 1_000]\n...\n",
            "a: |\n  x\n  y\nb: >-\n  z\n",
            "a: |\n  x",
            "{a: {b: [c, 'd', \"e\\n\"]}}",
            "- a\n- - b\n  - c\n-\n",
            "1: one\ntrue: t\n1.5: f\n",
            "",
            "# only a comment\n",
            "a:\n",
        ] {
            assert!(same_as_full(text), "{text:?}");
        }
    }

    /// The nodes of a cut count against the document's bound as if read, and only a text of one
    /// document may have them.
    #[test]
    fn cut_nodes_count_as_read() {
        let text = "a: 1\nb: |-\n  x\nc: 2\n";
        let r = 5..15;
        assert_eq!(&text[r.clone()], "b: |-\n  x\n");
        let cuts = |nodes| Cuts {
            ranges: vec![r.clone()],
            nodes,
        };
        let (value, span) = read_cut(text, 0, &cuts(2), None).unwrap().remove(0);
        assert_eq!(value, serde_json::json!({"a": 1, "c": 2}));
        assert_eq!(span, full(text).unwrap()[0].1);
        assert_eq!(read_cut(text, 0, &cuts(MAX_DOCUMENT_NODES), None), None);
        let two = format!("{text}---\nd: 3\n");
        assert_eq!(read_cut(&two, 0, &cuts(2), None), None);
        assert!(read_cut(&two, 0, &cuts(0), None).is_some());
    }

    #[test]
    fn left_out_values_are_only_the_ones_asked_for() {
        let text = "spec:\n  versions:\n  - name: v1\n    schema: {a: [1, 2]}\n    served: true\n  - name: v2\n    schema:\n      b: {c: d}\n";
        let skip = SkipValue {
            // The root, spec, versions, the item, its schema.
            depth: 5,
            cut: None,
            test: Arc::new(|levels: &[Level<'_>]| {
                let item = levels.get(3).and_then(|l| l.entries);
                levels.last().is_some_and(|l| l.key == "schema")
                    && item.and_then(|m| m.get("name")) == Some(&Value::from("v1"))
            }),
        };
        let docs = documents(text, 0, Some(&skip)).unwrap();
        let (all, _) = &full(text).unwrap()[0];
        let mut want = all.clone();
        want["spec"]["versions"][0]
            .as_object_mut()
            .unwrap()
            .remove("schema");
        assert_eq!(docs[0].0, want);
        // The document's extent is the same whatever is left out.
        assert_eq!(docs[0].1, full(text).unwrap()[0].1);
        // Left out, still scanned: a syntax error there is the full path's to report.
        let broken = text.replace("{a: [1, 2]}", "{a: [1, 2}");
        assert_eq!(documents(&broken, 0, Some(&skip)), None);
    }

    /// YAML text from a small grammar: block and flow collections, keys and scalars in the
    /// forms Kubernetes manifests use and a few YAML 1.1 corner cases.
    fn yaml_text() -> impl Strategy<Value = String> {
        let scalar = prop_oneof![
            Just("x".to_string()),
            Just("y".to_string()),
            Just("on".to_string()),
            Just("~".to_string()),
            Just("".to_string()),
            Just("0755".to_string()),
            Just("1_000".to_string()),
            Just("1.0".to_string()),
            Just("-0".to_string()),
            Just(".inf".to_string()),
            Just("2001-12-14".to_string()),
            Just("'it''s'".to_string()),
            Just("\"a\\tb\\u00e9\"".to_string()),
            Just("\"\\/\"".to_string()),
            Just("a b: c".to_string()),
            Just("&a x".to_string()),
            Just("*a".to_string()),
            Just("!!str 1".to_string()),
            "[a-z]{1,6}",
            "-?[0-9]{1,20}",
        ];
        let key = prop_oneof![
            Just("a".to_string()),
            Just("b".to_string()),
            Just("1".to_string()),
            Just("y".to_string()),
            Just("<<".to_string()),
            Just("'q'".to_string()),
            "[a-z]{1,3}",
        ];
        let leaf = scalar.prop_map(|s| (s, true));
        leaf.prop_recursive(4, 40, 5, move |inner| {
            prop_oneof![
                proptest::collection::vec((key.clone(), inner.clone()), 1..5).prop_map(|es| {
                    let body: Vec<String> = es
                        .iter()
                        .map(|(k, (v, simple))| {
                            if *simple {
                                format!("{k}: {v}")
                            } else {
                                format!("{k}:\n{}", indent(v))
                            }
                        })
                        .collect();
                    (body.join("\n"), false)
                }),
                proptest::collection::vec(inner.clone(), 1..4).prop_map(|items| {
                    let body: Vec<String> = items
                        .iter()
                        .map(|(v, simple)| {
                            if *simple {
                                format!("- {v}")
                            } else {
                                format!("-\n{}", indent(v))
                            }
                        })
                        .collect();
                    (body.join("\n"), false)
                }),
                proptest::collection::vec(inner, 0..4).prop_map(|items| {
                    let flat: Vec<String> = items
                        .iter()
                        .filter(|(_, simple)| *simple)
                        .map(|(v, _)| v.clone())
                        .collect();
                    (format!("[{}]", flat.join(", ")), true)
                }),
            ]
        })
        .prop_map(|(s, _)| format!("{s}\n"))
    }

    fn indent(s: &str) -> String {
        s.lines()
            .map(|l| format!("  {l}\n"))
            .collect::<String>()
            .trim_end()
            .to_string()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn generated_documents_read_as_on_the_full_path(a in yaml_text(), b in yaml_text()) {
            same_as_full(&a);
            same_as_full(&format!("{a}---\n{b}"));
        }
    }
}
