/*!
YAML in and out, with the semantics Kubernetes clients apply.

Owns: turning the text of one [`SourceFile`] into JSON values exactly as `kubectl` would
(sigs.k8s.io/yaml → gopkg.in/yaml.v2, i.e. YAML 1.1 scalar rules: `on`/`y` are booleans, `0755`
is octal, `1_000` is a thousand, timestamps stay strings, integral floats become integers after
the JSON round trip), recording the byte span of every node under its JSON pointer; and the
reverse, emitting a value as YAML that reads back identically under those rules.

Must not: know anything about Kubernetes objects (kinds, `List`, namespaces belong to
[`crate::load`]), print anything, or panic on any input — every failure is a located
[`Diagnostic`] (or a message string from [`parse_value`]). Resource use is bounded: nesting is
capped by the parser (255 levels per collection style) and after alias expansion, and alias
expansion is held to yaml.v2's own alias-ratio budget.

Deliberate deviations from Go, both rejecting input Go accepts: a key repeated within one
mapping is an error (yaml.v2 silently keeps the last value), and raw NEL/LS/PS characters are
errors (line breaks in YAML 1.1, plain text to granit's YAML 1.2 scanner). Where granit accepts
YAML 1.2 syntax that yaml.v2 rejects, we reject it too (`\/` escapes, unknown directives, other
`%YAML` versions, non-ASCII anchor names, `:`/`?` in plain scalars inside flow collections).
granit also rejects some malformed input libyaml tolerates; remaining value differences are
tiny edge cases (e.g. `[a:]` is `[{"a": null}]` here but `["a:"]` in Go).

Pipeline: `compose` (granit-parser events → node tree with spans) → `decode` (yaml.v2 +
sigs.k8s.io/yaml semantics, using `resolve` for scalars) → value and span table. `emit` is the
way back. Documents whose span tables are built on demand are read on a span-free path where
they can be ([`fast`]: events straight to values, giving up to the full path on anything outside
its subset), the events coming from `block` (the block YAML generators write, scanned line by
line) where the text is in its subset, else from granit; `bounds` holds what both paths keep to.
*/

mod block;
mod bounds;
mod compose;
mod decode;
mod emit;
mod error;
pub mod fast;
mod resolve;

use error::YamlError;

use std::sync::Arc;

pub use bounds::{DEFAULT_RUN_NODES, limit_run as limit_run_nodes};
pub use emit::to_yaml;

use crate::diag::Diagnostic;
use crate::source::{SourceFile, Span, SpanTable};

/// One parsed YAML document.
#[derive(Debug, Clone)]
pub struct Document {
    /// The document as JSON (maps sorted: serde_json without `preserve_order`).
    pub value: serde_json::Value,
    /// JSON pointer (relative to the document root) → spans of the node and of its key.
    pub spans: SpanTable,
    /// The document's extent in the file.
    pub span: Span,
}

/// Parse a multi-document YAML (or JSON) stream. Empty documents (only comments / bare `---`)
/// and documents that are `null` are skipped.
///
/// The first error ends parsing: a document after a syntax error cannot be trusted to start
/// where the parser resumes.
///
/// A large stream (a fleet of Clusters in one file) is cut at its document markers and the
/// pieces are parsed in parallel; see [`split_points`] for why that reads exactly what one pass
/// reads. Should any piece fail, the whole stream is parsed again in one pass, so an error is
/// always the one (and at the place) a single pass reports.
pub fn parse_stream(file: &Arc<SourceFile>) -> Result<Vec<Document>, Diagnostic> {
    parse_stream_in_pieces(file, PIECE_BYTES, Spans::Recorded, None)
}

/// [`parse_stream`], each document's span table built only when first asked
/// ([`SpanTable::on_demand`]): for bulk inputs whose nodes are rarely reported.
pub fn parse_stream_spans_on_demand(file: &Arc<SourceFile>) -> Result<Vec<Document>, Diagnostic> {
    parse_stream_in_pieces(file, PIECE_BYTES, Spans::OnDemand(None), None)
}

/// [`parse_stream_spans_on_demand`] for only the documents `keep` accepts by their text: the
/// stream is cut at every document marker (see [`split_points`] for why each piece reads as in
/// one pass) and the other pieces are never parsed. A stream that cannot be cut (one document,
/// or directives) is one piece, tested whole; a stream where a kept piece fails is parsed
/// whole, as [`parse_stream`] does.
pub fn parse_stream_kept(
    file: &Arc<SourceFile>,
    keep: &(dyn Fn(&str) -> bool + Send + Sync),
    skip: Option<&fast::SkipValue>,
) -> Result<Vec<Document>, Diagnostic> {
    parse_stream_in_pieces(file, 1, Spans::OnDemand(skip), Some(keep))
}

/// Whether [`parse_stream_kept`] with `keep` could parse anything of `text`: false when `keep`
/// refuses every piece it would be asked about, and then the stream gives no documents and no
/// error (its syntax is never read). A reader may then drop the text unkept.
pub fn keeps_any(text: &str, keep: &(dyn Fn(&str) -> bool + Send + Sync)) -> bool {
    split_points(text, 1)
        .iter()
        .any(|&(start, end)| text.get(start..end).is_none_or(keep))
}

/// [`parse_stream`], except that the documents `pass_over` accepts by their text are only
/// composed: their syntax is checked, and located, and their nodes count against the run's
/// budget, but no value is built and none is returned. For inputs holding documents the run
/// never reads ([`crate::plan::unread`]). The stream is cut at every document marker (see
/// [`split_points`]); a text that cannot be cut is one piece, passed over only when the test
/// accepts it whole. Should any piece fail, the whole stream is parsed in one pass, as
/// [`parse_stream`] does.
pub fn parse_stream_passing_over(
    file: &Arc<SourceFile>,
    pass_over: &(dyn Fn(&str) -> bool + Send + Sync),
) -> Result<Vec<Document>, Diagnostic> {
    use rayon::prelude::*;
    let pieces = split_points(&file.text, 1);
    let parsed: Vec<Result<Vec<Document>, YamlError>> = pieces
        .par_iter()
        .map(|&(start, end)| match file.text.get(start..end) {
            Some(piece) if pass_over(piece) => compose_only(piece).map(|()| Vec::new()),
            Some(piece) => documents(piece, start, file, Spans::Recorded),
            None => Err(YamlError::internal_at(
                Span::new(start, 0),
                "piece off a character",
            )),
        })
        .collect();
    join_pieces(parsed, file, Spans::Recorded)
}

/// The documents of a stream's pieces, parsed one by one, in order; should any piece fail,
/// the whole stream parsed in one pass (which reports the error where it is, or reads what a
/// cut broke).
fn join_pieces(
    parsed: Vec<Result<Vec<Document>, YamlError>>,
    file: &Arc<SourceFile>,
    spans: Spans<'_>,
) -> Result<Vec<Document>, Diagnostic> {
    let mut docs = Vec::new();
    for p in parsed {
        match p {
            Ok(mut d) => docs.append(&mut d),
            // The run's budget is spent: a second pass would only spend more.
            Err(e) if e.0.limit => return Err(e.into_diagnostic(file)),
            Err(_) => return parse_stream_serial_with(file, spans),
        }
    }
    Ok(docs)
}

/// Compose every document of `text` and drop it: the syntax check of a document never read.
fn compose_only(text: &str) -> Result<(), YamlError> {
    let mut composer = compose::Composer::charged(text);
    while composer.next_document()?.is_some() {}
    Ok(())
}

/// A stream cut at every document marker it can be cut at (see [`split_points`] for why each
/// piece reads as in one pass), for readers that parse only the pieces some test on their text
/// asks for, in rounds ([`crate::load::scoped`]). Documents come with span tables built on
/// demand. A stream that cannot be cut (directives) is one piece.
#[derive(Debug)]
pub struct Pieces {
    file: Arc<SourceFile>,
    ranges: Vec<(usize, usize)>,
}

impl Pieces {
    /// The pieces of `file`.
    pub fn new(file: &Arc<SourceFile>) -> Pieces {
        Pieces {
            file: Arc::clone(file),
            ranges: split_points(&file.text, 1),
        }
    }

    /// How many pieces.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Whether the stream is empty (it never is: an empty text is one empty piece).
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The text of piece `i` (empty past the end).
    pub fn text(&self, i: usize) -> &str {
        self.ranges
            .get(i)
            .and_then(|&(start, end)| self.file.text.get(start..end))
            .unwrap_or("")
    }

    /// The documents of piece `i`. `Err(None)` when the piece fails to parse on its own: the
    /// caller parses the whole stream in one pass, as [`parse_stream`] does, so that an error
    /// is the one (and at the place) a single pass reports; `Err(Some(_))` when the run's
    /// node budget is spent (a second pass would only spend more).
    pub fn parse(&self, i: usize) -> Result<Vec<Document>, Option<Diagnostic>> {
        let Some(&(start, end)) = self.ranges.get(i) else {
            return Ok(Vec::new());
        };
        let Some(text) = self.file.text.get(start..end) else {
            return Err(None);
        };
        documents(text, start, &self.file, Spans::OnDemand(None)).map_err(|e| {
            if e.0.limit {
                Some(e.into_diagnostic(&self.file))
            } else {
                None
            }
        })
    }

    /// The piece holding byte `offset` of the file.
    pub fn piece_at(&self, offset: usize) -> usize {
        self.ranges
            .partition_point(|&(_, end)| end <= offset)
            .min(self.ranges.len().saturating_sub(1))
    }

    /// Every document of the stream in one pass (what a failed piece falls back to).
    pub fn parse_whole(&self) -> Result<Vec<Document>, Diagnostic> {
        parse_stream_serial_with(&self.file, Spans::OnDemand(None))
    }
}

/// When a document's span table is built.
#[derive(Debug, Clone, Copy)]
enum Spans<'s> {
    /// While parsing.
    Recorded,
    /// When first asked, by parsing the document's text again; the value is read on the
    /// span-free path where it can be ([`fast`]), leaving out what the [`fast::SkipValue`]
    /// says no reader looks at.
    OnDemand(Option<&'s fast::SkipValue>),
}

/// [`parse_stream`] with pieces of at least `piece_bytes`, and of those only the ones `keep`
/// accepts (all without it).
fn parse_stream_in_pieces(
    file: &Arc<SourceFile>,
    piece_bytes: usize,
    spans: Spans<'_>,
    keep: Option<&(dyn Fn(&str) -> bool + Send + Sync)>,
) -> Result<Vec<Document>, Diagnostic> {
    use rayon::prelude::*;
    let pieces = split_points(&file.text, piece_bytes);
    if pieces.len() <= 1 {
        // A file of one document (how controller-gen writes each CRD) is one piece, and the
        // test is on it as on any other: a test on text may see several documents at once.
        if keep.is_some_and(|k| !k(&file.text)) {
            return Ok(Vec::new());
        }
        return parse_stream_serial_with(file, spans);
    }
    let parsed: Vec<Result<Vec<Document>, YamlError>> = pieces
        .par_iter()
        .map(|&(start, end)| match file.text.get(start..end) {
            Some(piece) if keep.is_none_or(|k| k(piece)) => documents(piece, start, file, spans),
            Some(_) => Ok(Vec::new()),
            None => Err(YamlError::internal_at(
                Span::new(start, 0),
                "piece off a character",
            )),
        })
        .collect();
    join_pieces(parsed, file, spans)
}

/// [`parse_stream`] in one pass over the whole text.
pub fn parse_stream_serial(file: &Arc<SourceFile>) -> Result<Vec<Document>, Diagnostic> {
    parse_stream_serial_with(file, Spans::Recorded)
}

fn parse_stream_serial_with(
    file: &Arc<SourceFile>,
    spans: Spans<'_>,
) -> Result<Vec<Document>, Diagnostic> {
    documents(&file.text, 0, file, spans).map_err(|e| e.into_diagnostic(file))
}

/// The documents of `text`, which starts at byte `base` of `file`: every span is shifted by
/// `base`, so it points into the file.
fn documents(
    text: &str,
    base: usize,
    file: &Arc<SourceFile>,
    spans: Spans<'_>,
) -> Result<Vec<Document>, YamlError> {
    if let Spans::OnDemand(skip) = spans
        && let Some(docs) = fast::documents(text, base, skip)
    {
        return Ok(docs
            .into_iter()
            .map(|(value, span)| Document {
                value,
                spans: SpanTable::on_demand(Arc::clone(file), span, document_spans),
                span,
            })
            .collect());
    }
    let mut composer = compose::Composer::charged(text);
    let mut docs = Vec::new();
    while let Some(composed) = composer.next_document()? {
        let span = Span::new(composed.span.offset + base, composed.span.len);
        let (value, table) = match spans {
            Spans::Recorded => {
                let (value, mut table) = decode::decode(&composed).and_then(decode::flatten)?;
                if base > 0 {
                    for s in table.values.values_mut().chain(table.keys.values_mut()) {
                        s.offset += base;
                    }
                }
                (value, table)
            }
            Spans::OnDemand(_) => {
                let value = decode::decode(&composed).and_then(decode::into_value)?;
                let table = SpanTable::on_demand(Arc::clone(file), span, document_spans);
                (value, table)
            }
        };
        if value.is_null() {
            continue;
        }
        docs.push(Document {
            value,
            spans: table,
            span,
        });
    }
    Ok(docs)
}

/// The span table of the one document `text` holds, `text` starting at byte `base` of its file
/// ([`SpanTable::on_demand`]'s parser).
fn document_spans(text: &str, base: usize) -> Option<SpanTable> {
    let mut composer = compose::Composer::new(text);
    let composed = composer.next_document().ok()??;
    let (_, mut table) = decode::decode(&composed).and_then(decode::flatten).ok()?;
    for s in table.values.values_mut().chain(table.keys.values_mut()) {
        s.offset += base;
    }
    Some(table)
}

/// Streams smaller than this are parsed in one piece: a thread hand-off costs more than it
/// saves. Pieces are cut at the first document marker after this many bytes.
const PIECE_BYTES: usize = 64 * 1024;

/// Byte ranges `[start, end)` that cover `text`, cut before lines that start with a document
/// marker (`---` then a space, tab, line break or the end), each at least `piece_bytes` long
/// (but the last).
///
/// Why a piece parses as it would in one pass: at column 0, `---` always ends the document
/// before it and starts a new one (YAML forbids it inside quoted scalars and flow collections,
/// and it ends block scalars and plain multi-line scalars); nothing of one document (anchors,
/// the alias budget, YAML 1.1 checks) carries into the next, and the piece ends with the line
/// break before the marker, as the text does there. What does carry over is a directive
/// (`%YAML`, `%TAG`) before a `---`, so a text with a line starting with `%` is never cut. A
/// construct left open at the end of a piece (an unclosed quote or bracket) makes that piece
/// fail, and [`parse_stream`] then parses the whole text in one pass.
fn split_points(text: &str, piece_bytes: usize) -> Vec<(usize, usize)> {
    let whole = vec![(0, text.len())];
    if text.len() < piece_bytes.saturating_mul(2) {
        return whole;
    }
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b'%') || memchr::memmem::find(bytes, b"\n%").is_some() {
        return whole;
    }
    let mut cuts = vec![0];
    // Only lines starting with `---` are looked at, found by a substring search: a provider's
    // CRDs are megabytes with a marker every few hundred kilobytes.
    let starts = (bytes.starts_with(b"---").then_some(0).into_iter())
        .chain(memchr::memmem::find_iter(bytes, b"\n---").map(|i| i + 1));
    for line_start in starts {
        let marker = bytes
            .get(line_start + 3)
            .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'));
        // A block scalar left empty by the marker ends at the marker in one pass but at the
        // end of the piece when cut there, and its span would differ: never cut after one.
        if marker
            && line_start - cuts.last().copied().unwrap_or(0) >= piece_bytes
            && !opens_block_scalar(last_content_before(bytes, line_start))
        {
            cuts.push(line_start);
        }
    }
    cuts.push(text.len());
    cuts.windows(2).map(|w| (w[0], w[1])).collect()
}

/// The last line with content (not only spaces, tabs and carriage returns) before the line
/// starting at `line_start`, without its line break; empty if there is none.
fn last_content_before(bytes: &[u8], line_start: usize) -> &[u8] {
    let mut end = line_start;
    while end > 0 {
        // The line ending at `end - 1` (its line break).
        let stop = end - 1;
        let from = memchr::memrchr(b'\n', &bytes[..stop]).map_or(0, |i| i + 1);
        let line = &bytes[from..stop];
        if line.iter().any(|b| !matches!(b, b' ' | b'\t' | b'\r')) {
            return line;
        }
        end = from;
    }
    &[]
}

/// Whether `line`'s last token (a trailing comment aside) is a block scalar header: `|` or `>`
/// with optional chomping and indentation indicators. Conservative: a quoted `">"` or a `>` at
/// the end of a plain scalar also count, which only costs a missed cut.
fn opens_block_scalar(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let mut tokens: Vec<&str> = text.split_whitespace().collect();
    if let Some(i) = tokens.iter().position(|t| t.starts_with('#')) {
        tokens.truncate(i);
    }
    tokens.last().is_some_and(|t| {
        let mut chars = t.chars();
        matches!(chars.next(), Some('|' | '>')) && chars.all(|c| matches!(c, '-' | '+' | '0'..='9'))
    })
}

/// Parse a standalone string as one YAML 1.1 value the way sigs.k8s.io/yaml.YAMLToJSON does
/// (first document only; later documents are not even read, as in Go). An empty input is
/// `null`. Errors are plain messages with a `line L, column C` prefix.
pub fn parse_value(text: &str) -> Result<serde_json::Value, String> {
    let mut composer = compose::Composer::new(text);
    let composed = match composer.next_document() {
        Ok(Some(c)) => c,
        Ok(None) => return Ok(serde_json::Value::Null),
        Err(e) => return Err(e.into_message(text)),
    };
    decode::decode(&composed)
        .and_then(decode::into_value)
        .map_err(|e| e.into_message(text))
}

/// [`parse_value`] with Go's leniency for repeated mapping keys (the last one wins), for text
/// that Cluster API itself parses, such as rendered templates, where a repeat is not an input
/// mistake to report but behaviour to reproduce.
pub fn parse_value_go(text: &str) -> Result<serde_json::Value, String> {
    let mut composer = compose::Composer::new(text);
    let composed = match composer.next_document() {
        Ok(Some(c)) => c,
        Ok(None) => return Ok(serde_json::Value::Null),
        Err(e) => return Err(e.into_message(text)),
    };
    decode::decode_with(&composed, true)
        .and_then(decode::into_value)
        .map_err(|e| e.into_message(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    fn v(text: &str) -> Value {
        parse_value(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn stream(text: &str) -> Result<Vec<Document>, Diagnostic> {
        parse_stream(&SourceFile::new("t.yaml", text))
    }

    /// `(line, col)` of the error for `text`.
    fn err_pos(text: &str) -> (usize, usize, Diagnostic) {
        let d = stream(text).expect_err(text);
        let (_, l, c) = d.position().expect("located");
        (l, c, d)
    }

    #[test]
    fn scalar_resolution_follows_yaml_1_1() {
        assert_eq!(
            v("a: on\nb: y\nc: No\nd: off\ne: TRUE\nf: yes\ng: n\n"),
            json!({"a": true, "b": true, "c": false, "d": false, "e": true, "f": true, "g": false})
        );
        assert_eq!(
            v("a: ~\nb: null\nc: NULL\nd:\ne: ''\nf: \"\"\n"),
            json!({"a": null, "b": null, "c": null, "d": null, "e": "", "f": ""})
        );
        assert_eq!(
            v("a: 0755\nb: 012\nc: 0x1F\nd: 1_000\ne: 0o17\nf: -12\ng: +7\nh: 0b11\n"),
            json!({"a": 493, "b": 10, "c": 31, "d": 1000, "e": 15, "f": -12, "g": 7, "h": 3})
        );
        assert_eq!(
            v("a: 1.5\nb: 1.20\nc: 1.0\nd: 1e3\ne: -0.0\nf: 1e21\ng: .5\n"),
            json!({"a": 1.5, "b": 1.2, "c": 1, "d": 1000, "e": -0.0, "f": 1e21, "g": 0.5})
        );
        assert_eq!(
            v("a: 9223372036854775808\nb: 18446744073709551616\nc: -9223372036854775809\n"),
            // -9223372036854775809 is a float64 that Go's JSON prints as -9223372036854776000,
            // which no longer fits an i64.
            json!({"a": 9_223_372_036_854_775_808u64, "b": 1.8446744073709552e19,
                   "c": -9.223372036854776e18})
        );
        // Strings: timestamps, sexagesimal, version-looking text, quoted keywords.
        assert_eq!(
            v("a: 2024-01-01\nb: 1:20\nc: 1.2.3\nd: 'on'\ne: \"1\"\nf: 10Gi\ng: |\n  x\n"),
            json!({"a": "2024-01-01", "b": "1:20", "c": "1.2.3", "d": "on", "e": "1",
                   "f": "10Gi", "g": "x\n"})
        );
    }

    #[test]
    fn special_floats_are_errors() {
        for text in ["a: .inf", "a: -.Inf", "a: .nan", "- !!float .NaN"] {
            let e = parse_value(text).unwrap_err();
            assert!(e.contains("JSON cannot represent"), "{e}");
        }
        let (l, c, d) = err_pos("x: 1\ny: .inf\n");
        assert_eq!((l, c), (2, 4));
        assert!(d.help.is_some());
    }

    #[test]
    fn explicit_tags() {
        assert_eq!(
            v(
                "a: !!str 12\nb: !!int \"12\"\nc: !!float 2\nd: !!bool yes\ne: !!null ~\n\
               f: !!binary aGVsbG8=\ng: !custom 3\nh: ! 4\ni: !!str\n"
            ),
            json!({"a": "12", "b": 12, "c": 2, "d": true, "e": null, "f": "hello",
                   "g": "3", "h": "4", "i": ""})
        );
        assert!(
            parse_value("a: !!int 1.5")
                .unwrap_err()
                .contains("cannot decode !!float")
        );
        assert!(parse_value("a: !!binary x").unwrap_err().contains("base64"));
    }

    #[test]
    fn non_string_keys_are_stringified() {
        assert_eq!(
            v("n: a\ny: b\n1: c\n1.5: d\n0x10: e\n1e6: g\n~x: h\n-0: i\n"),
            json!({"false": "a", "true": "b", "1": "c", "1.5": "d", "16": "e", "1e+06": "g",
                   "~x": "h", "0": "i"})
        );
        // Float keys go through Go's float32 formatting.
        assert_eq!(
            v("1.0: a\n3.141592653589793: b\n.inf: c\n"),
            json!({"1": "a", "3.1415927": "b", ".inf": "c"})
        );
        // Timestamp-like keys stay as written.
        assert_eq!(v("2024-01-01: a\n"), json!({"2024-01-01": "a"}));
    }

    #[test]
    fn values_without_json_form_fail_only_if_they_survive() {
        // Go converts to JSON after merging, so a replaced NaN or null key is no error.
        assert_eq!(v("a: .nan\n<<: {a: 1}\n"), json!({"a": 1}));
        assert_eq!(v("m: {~: a}\n<<: {m: 1}\n"), json!({"m": 1}));
        assert!(parse_value("~: a\n<<: {~: b}\n").is_err());
        let (l, c, _) = err_pos("a: 1\nb: {~: 2}\n");
        assert_eq!((l, c), (2, 5));
    }

    #[test]
    fn null_and_collection_keys_are_errors() {
        assert!(parse_value("~: a").is_err());
        assert!(parse_value("? [a]\n: b").is_err());
        assert!(parse_value("{[a]: b}").is_err());
        assert!(parse_value("18446744073709551615: a").is_err());
    }

    #[test]
    fn duplicate_keys_point_at_the_second_key() {
        let text = "a: 1\nb:\n  c: 1\n  c: 2\n";
        let (l, c, d) = err_pos(text);
        assert_eq!((l, c), (4, 3));
        assert!(d.message.contains("duplicate key \"c\""), "{}", d.message);
        assert!(
            d.help
                .as_deref()
                .is_some_and(|h| h.contains("line 3, column 3"))
        );
        // Keys that only collide after stringification collide too.
        assert!(parse_value("y: 1\ntrue: 2\n").is_err());
        assert!(parse_value("1: a\n\"1\": b\n").is_err());
    }

    #[test]
    fn anchors_aliases_and_merges() {
        assert_eq!(
            v("a: &x {p: 1, q: [1, 2]}\nb: *x\nc: &s str\nd: *s\n"),
            json!({"a": {"p": 1, "q": [1, 2]}, "b": {"p": 1, "q": [1, 2]}, "c": "str", "d": "str"})
        );
        assert_eq!(
            v("base: &b {x: 1, w: 2}\nover: &o {w: 3, z: 4}\n\
               m:\n  <<: [*o, *b]\n  x: 9\n"),
            json!({"base": {"x": 1, "w": 2}, "over": {"w": 3, "z": 4},
                   "m": {"x": 9, "w": 3, "z": 4}})
        );
        // yaml.v2 applies merges in order: a merge after an explicit key overrides it.
        assert_eq!(v("a: 1\n<<: {a: 2, b: 3}\n"), json!({"a": 2, "b": 3}));
        assert_eq!(v("<<: {a: 2}\na: 1\n"), json!({"a": 1}));
        // A quoted "<<" is an ordinary key.
        assert_eq!(v("'<<': {a: 1}\n"), json!({"<<": {"a": 1}}));
        assert!(
            parse_value("<<: 1\n")
                .unwrap_err()
                .contains("map merge requires")
        );
        assert!(parse_value("<<: [1]\n").is_err());
        assert!(
            parse_value("a: &a [1, *a]\n")
                .unwrap_err()
                .contains("contains itself")
        );
        assert!(
            parse_value("a: &a {b: *a}\n")
                .unwrap_err()
                .contains("contains itself")
        );
        assert!(parse_value("a: *nope\n").is_err());
    }

    #[test]
    fn yaml_1_1_syntax_differences_from_granit() {
        // A block scalar ending the input without a line break has no final newline.
        assert_eq!(v("a: |\n  x\n  y"), json!({"a": "x\ny"}));
        assert_eq!(v("a: >\n  x\n  y"), json!({"a": "x y"}));
        assert_eq!(v("a: |\n  x\n"), json!({"a": "x\n"}));
        // Anchor names are restricted to ASCII letters, digits, '-' and '_'.
        assert_eq!(v("a: &x-y_1 1\nb: *x-y_1\n"), json!({"a": 1, "b": 1}));
        assert!(parse_value("a: &a@ 1\n").is_err());
        assert!(parse_value("a: &é 1\n").is_err());
        // ':' cannot start a plain scalar inside a flow collection.
        assert!(parse_value("[:a]").is_err());
        assert_eq!(v("[a:b, http://x]"), json!(["a:b", "http://x"]));
        // No `\/` escape, no unknown directives, only YAML 1.1.
        assert!(parse_value("a: \"\\/\"").is_err());
        assert!(parse_value("%FOO x\n---\na: 1\n").is_err());
        assert!(parse_value("%YAML 1.2\n---\na: 1\n").is_err());
        assert_eq!(v("%YAML 1.1\n---\na: 1\n"), json!({"a": 1}));
        // NEL / LS / PS are line breaks in YAML 1.1: rejected, at their position.
        let (l, c, _) = err_pos("a: 1\nb: x\u{2028}y\n");
        assert_eq!((l, c), (2, 5));
        // ... but only in the documents actually read.
        assert_eq!(v("a: 1\n---\nb: x\u{2028}y\n"), json!({"a": 1}));
    }

    #[test]
    fn alias_bomb_is_stopped() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let e = parse_value(&text).unwrap_err();
        assert!(e.contains("excessive aliasing"), "{e}");
        let d = stream(&text).unwrap_err();
        assert!(d.location.is_some());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        for text in [
            "[".repeat(10_000),
            "{a: ".repeat(10_000),
            "- ".repeat(10_000),
        ] {
            assert!(parse_value(&text).is_err());
            assert!(stream(&text).is_err());
        }
        let mut block = String::new();
        for i in 0..1000 {
            block.push_str(&" ".repeat(i));
            block.push_str("k:\n");
        }
        assert!(parse_value(&block).is_err());
        // Aliases can nest beyond the parser's limit; the decoder stops them too.
        let nest = |inner: &str| format!("{}{inner}{}", "[".repeat(200), "]".repeat(200));
        let text = format!(
            "x: &x {}\ny: &y {}\nz: {}\n",
            nest("1"),
            nest("*x"),
            nest("*y")
        );
        let e = parse_value(&text).unwrap_err();
        assert!(e.contains("nesting exceeds 512 levels"), "{e}");
        assert!(stream(&text).is_err());
    }

    #[test]
    fn spans_on_demand_are_the_spans_recorded() {
        // Three documents, the middle one with a list, a block scalar and a flow mapping; the
        // pieces of 1 byte cut the stream at every marker.
        let text = "a: 1\n---\nkind: List\nitems:\n  - name: x\n    spec: {k: [1, 2]}\n  - name: |\n      y\n---\nz: [3]\n";
        let file = SourceFile::new("t.yaml", text.to_string());
        for pieces in [usize::MAX, 1] {
            let recorded = parse_stream_in_pieces(&file, pieces, Spans::Recorded, None).unwrap();
            let lazy = parse_stream_in_pieces(&file, pieces, Spans::OnDemand(None), None).unwrap();
            assert_eq!(recorded.len(), lazy.len());
            for (r, l) in recorded.iter().zip(&lazy) {
                assert_eq!(r.value, l.value);
                assert_eq!(r.span, l.span);
                assert!(l.spans.values.is_empty(), "built before it was asked for");
                for p in r.spans.values.keys().chain(r.spans.keys.keys()) {
                    assert_eq!(r.spans.value_span(p), l.spans.value_span(p), "{p}");
                    assert_eq!(
                        r.spans.key_or_value_span(p),
                        l.spans.key_or_value_span(p),
                        "{p}"
                    );
                }
                let (rs, ls) = (r.spans.subtree("/items/0"), l.spans.subtree("/items/0"));
                for p in ["", "/name", "/spec/k/1", "/missing"] {
                    assert_eq!(rs.value_span(p), ls.value_span(p), "{p}");
                }
            }
        }
    }

    #[test]
    fn kept_documents_read_as_in_one_pass_and_the_rest_are_not_parsed() {
        // The middle document is broken: passed over, it fails nothing; kept, the stream is
        // parsed again in one pass and the error is the one-pass error.
        let text =
            "a: 1\n---\nbroken: [x\n---\nkind: List\nitems:\n  - name: |\n      y\n---\nz: [3]\n";
        let file = SourceFile::new("t.yaml", text.to_string());
        let kept = parse_stream_kept(&file, &|t: &str| !t.contains("broken"), None).unwrap();
        let whole = parse_stream_spans_on_demand(&SourceFile::new(
            "t.yaml",
            text.replace("broken: [x\n", "broken: 00\n"),
        ))
        .unwrap();
        let want: Vec<_> = whole
            .iter()
            .filter(|d| d.value.get("broken").is_none())
            .collect();
        assert_eq!(kept.len(), 3);
        for (k, w) in kept.iter().zip(&want) {
            assert_eq!(k.value, w.value);
            assert_eq!(k.span, w.span);
            assert_eq!(
                k.spans.value_span("/items/0/name"),
                w.spans.value_span("/items/0/name")
            );
        }
        let err = parse_stream_kept(&file, &|_: &str| true, None).unwrap_err();
        assert_eq!(
            Some(err.message.clone()),
            parse_stream(&file).err().map(|e| e.message)
        );
        // One document (nothing to cut, the way controller-gen writes each CRD in its own
        // file) is tested as a whole, and so is a stream with a directive, which is never cut.
        let one = SourceFile::new("one.yaml", "---\na: 1\n".to_string());
        assert_eq!(
            parse_stream_kept(&one, &|_: &str| false, None)
                .unwrap()
                .len(),
            0
        );
        assert_eq!(
            parse_stream_kept(&one, &|_: &str| true, None)
                .unwrap()
                .len(),
            1
        );
        let directive = SourceFile::new("d.yaml", "%YAML 1.1\n---\na: 1\n---\nb: [\n".to_string());
        assert_eq!(
            parse_stream_kept(&directive, &|t: &str| !t.contains("b:"), None)
                .unwrap()
                .len(),
            0
        );
        assert!(parse_stream_kept(&directive, &|_: &str| true, None).is_err());
    }

    #[test]
    fn deepest_accepted_documents_fit_a_small_stack() {
        // ~510 levels (the parser's 254 + 254 through an alias), in a debug build, on a thread
        // with less than half of the default 2 MiB stack.
        let maps = |inner: &str| format!("{}{inner}{}", "{a: ".repeat(254), "}".repeat(254));
        let seqs = |inner: &str| format!("{}{inner}{}", "[".repeat(254), "]".repeat(254));
        let texts = [
            format!("x: &x {}\ny: {}\n", maps("1"), maps("*x")),
            format!("x: &x {}\ny: {}\n", maps("1"), maps("{<<: *x}")),
            format!("x: &x {}\ny: {}\n", seqs("1"), seqs("*x")),
        ];
        let handle = std::thread::Builder::new()
            .stack_size(1200 << 10)
            .spawn(move || {
                for t in texts {
                    assert!(parse_value(&t).is_ok());
                    assert!(stream(&t).is_ok_and(|d| d.len() == 1));
                }
            })
            .unwrap();
        handle.join().unwrap();
    }

    #[test]
    fn spans_are_byte_offsets_with_character_columns() {
        let text = "# ünïcödé comment\nmetadata:\n  name: \"ça-va\"\n  labels: {é: x}\nlist:\n- a\n- b: 1\n";
        let docs = stream(text).unwrap();
        let doc = &docs[0];
        let file = SourceFile::new("t", text);
        let at = |p: &str| {
            let s = doc.spans.values[p];
            (file.line_col(s.offset), &text[s.offset..s.offset + s.len])
        };
        assert_eq!(at("/metadata/name"), ((3, 9), "\"ça-va\""));
        assert_eq!(at("/metadata/labels/é"), ((4, 15), "x"));
        assert_eq!(at("/metadata/labels"), ((4, 11), "{é: x}"));
        assert_eq!(at("/list/1/b"), ((7, 6), "1"));
        assert_eq!(at("/list/0"), ((6, 3), "a"));
        let k = doc.spans.keys["/metadata/labels/é"];
        assert_eq!(&text[k.offset..k.offset + k.len], "é");
        assert_eq!(file.line_col(k.offset), (4, 12));
        assert!(!doc.spans.keys.contains_key("/list/0"));
        assert!(doc.spans.values.contains_key(""));
    }

    #[test]
    fn span_pointers_are_escaped() {
        let docs = stream("a/b: {c~d: 1}\n").unwrap();
        assert!(docs[0].spans.values.contains_key("/a~1b/c~0d"));
    }

    #[test]
    fn alias_spans_point_at_alias_then_anchor() {
        let text = "a: &x\n  k: v\nb: *x\n";
        let docs = stream(text).unwrap();
        let s = docs[0].spans.values["/b"];
        assert_eq!(&text[s.offset..s.offset + s.len], "*x");
        let s = docs[0].spans.values["/b/k"];
        assert_eq!(s, docs[0].spans.values["/a/k"]);
    }

    #[test]
    fn merged_entries_replaced_later_lose_their_spans() {
        let docs = stream("a: &x {k: {deep: 1}}\nb:\n  <<: *x\n  k: 2\n").unwrap();
        assert_eq!(docs[0].value["b"], json!({"k": 2}));
        assert!(!docs[0].spans.values.contains_key("/b/k/deep"));
    }

    #[test]
    fn multi_document_streams() {
        let text = "---\n# only a comment\n---\na: 1\n---\n---\nnull\n---\n~\n...\n---\n- x\n...\n";
        let docs = stream(text).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].value, json!({"a": 1}));
        assert_eq!(docs[1].value, json!(["x"]));
        let s = docs[1].span;
        assert_eq!(&text[s.offset..s.offset + s.len], "---\n- x\n...");
        assert!(stream("").unwrap().is_empty());
        assert!(stream("# nothing\n").unwrap().is_empty());
        // parse_value reads only the first document, like YAMLToJSON.
        assert_eq!(v("a: 1\n---\nb: 2\n"), json!({"a": 1}));
        assert_eq!(v(""), Value::Null);
        assert_eq!(v("# c\n"), Value::Null);
    }

    /// Everything one pass reads: values, spans, extents, or the error.
    fn outcome(r: Result<Vec<Document>, Diagnostic>) -> String {
        match r {
            Ok(docs) => format!(
                "{:?}",
                docs.iter()
                    .map(|d| (&d.value, &d.spans.values, &d.spans.keys, d.span))
                    .collect::<Vec<_>>()
            ),
            Err(d) => format!("{:?} {:?} {:?}", d.message, d.position(), d.help),
        }
    }

    #[test]
    fn pieces_read_what_one_pass_reads() {
        let texts = [
            // Plain documents, explicit ends, comments between, CRLF, a marker with content.
            "a: 1\n---\nb: [1, 2]\n...\n# c\n---\nc: &x {k: v}\nd: *x\n--- |\n  text\n---\ne: 2",
            // A block scalar emptied by the marker after it (found by the property test).
            ">\n---\n",
            "a: |-\n\n---\nb: 1\n---\nc: > # folded\n---\nd: 2",
            "a: 1\r\n---\r\nb: 2\r\n---\r\n- x\r\n",
            // A block scalar at column 0 ends at a marker.
            "--- |\nfoo\n---\nbar\n",
            "a: |\n  x\n---\nb: >\n  y\n",
            // Open constructs across a marker: errors, reported as one pass reports them.
            "a: [1,\n---\n2]\n",
            "a: 'x\n---\ny'\n",
            "a: \"x\n---\ny\"\n",
            "a: {b: 1,\n---\nc: 2}\n",
            // An alias to an anchor of an earlier document.
            "a: &x 1\n---\nb: *x\n",
            // Directives carry over: never cut.
            "a: 1\n---\nb: 2\n%YAML 1.1\n---\nc: 3\n",
            "a: 1\n%FOO\n---\nb: 2\n",
            // Errors in a later piece, duplicate keys located against the whole file.
            "a: 1\n---\nb: 1\nb: 2\n",
            "a: 1\n---\nb: x\u{2028}y\n---\nc: 1\n",
            // Not markers: `----`, `---x`, indented `---`.
            "a: |\n  ---\n----: 1\n---x: 2\n",
            "---\n---\n---\n",
        ];
        for text in texts {
            let file = SourceFile::new("t.yaml", text);
            let one = outcome(parse_stream_serial(&file));
            // Pieces of one byte: a cut before every marker.
            assert_eq!(
                outcome(parse_stream_in_pieces(&file, 1, Spans::Recorded, None)),
                one,
                "{text:?}"
            );
        }
    }

    #[test]
    fn large_streams_are_cut_at_markers() {
        let doc = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: |\n    v\n";
        let text = format!("{doc}---\n{doc}---\n{doc}");
        let pieces = split_points(&text, doc.len());
        assert_eq!(pieces.len(), 3, "{pieces:?}");
        for (start, _) in &pieces[1..] {
            assert!(text[*start..].starts_with("---\n"));
        }
        assert_eq!(pieces.first().map(|p| p.0), Some(0));
        assert_eq!(pieces.last().map(|p| p.1), Some(text.len()));
        // Spans of a later piece point into the whole file.
        let file = SourceFile::new("t.yaml", text.clone());
        let docs = parse_stream_in_pieces(&file, doc.len(), Spans::Recorded, None).unwrap();
        assert_eq!(docs.len(), 3);
        let s = docs[2].spans.values["/metadata/name"];
        assert_eq!(file.line_col(s.offset), (20, 9));
        assert_eq!(outcome(Ok(docs)), outcome(parse_stream_serial(&file)));
        // A directive anywhere: one piece.
        assert_eq!(split_points(&format!("%YAML 1.1\n---\n{text}"), 1).len(), 1);
    }

    /// The cut points as they were found line by line, before the substring search: the
    /// oracle of `cuts_are_found_as_line_by_line`.
    fn split_points_by_lines(text: &str, piece_bytes: usize) -> Vec<(usize, usize)> {
        let whole = vec![(0, text.len())];
        if text.len() < piece_bytes.saturating_mul(2) {
            return whole;
        }
        let bytes = text.as_bytes();
        let mut cuts = vec![0];
        let mut line_start = 0;
        let mut last_content: &[u8] = &[];
        loop {
            let line = bytes.get(line_start..).unwrap_or(&[]);
            if line.first() == Some(&b'%') {
                return whole;
            }
            let marker = line.starts_with(b"---")
                && line
                    .get(3)
                    .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'));
            if marker
                && line_start - cuts.last().copied().unwrap_or(0) >= piece_bytes
                && !opens_block_scalar(last_content)
            {
                cuts.push(line_start);
            }
            let end = line.iter().position(|&b| b == b'\n');
            let this = &line[..end.unwrap_or(line.len())];
            if this.iter().any(|b| !matches!(b, b' ' | b'\t' | b'\r')) {
                last_content = this;
            }
            match end {
                Some(i) => line_start += i + 1,
                None => break,
            }
        }
        cuts.push(text.len());
        cuts.windows(2).map(|w| (w[0], w[1])).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn cuts_are_found_as_line_by_line(
            parts in prop::collection::vec("(---|--- |---\t|----|%|a: \\[|]|\r|\n|  |b: \\\\|x|>-|\\|)*", 1..8),
            piece in 1usize..40,
        ) {
            let text = parts.join("\n---\n");
            prop_assert_eq!(split_points(&text, piece), split_points_by_lines(&text, piece), "{:?}", text);
        }

        #[test]
        fn pieces_match_one_pass_on_yamlish_streams(
            parts in prop::collection::vec("([-:?,\\[\\]{}#&*!|>'\"@ \\n\\ta-z0-9.~<]){0,24}", 1..6),
        ) {
            let text = parts.join("\n---\n");
            let file = SourceFile::new("p", text.clone());
            prop_assert_eq!(
                outcome(parse_stream_in_pieces(&file, 1, Spans::Recorded, None)),
                outcome(parse_stream_serial(&file)),
                "{:?}", text
            );
        }
    }

    #[test]
    fn json_input() {
        let text = "{\"kind\": \"Cluster\", \"spec\": {\"replicas\": 3, \"on\": \"on\", \
                    \"x\": [1.5, true, null, \"\\u00e9\"]}}\n{\"second\":1}";
        // Two JSON values without a separator are not a YAML stream.
        assert!(stream(text).is_err());
        let text = text.split_once('\n').map(|(a, _)| a).unwrap_or_default();
        let docs = stream(text).unwrap();
        assert_eq!(
            docs[0].value,
            json!({"kind": "Cluster", "spec": {"replicas": 3, "on": "on", "x": [1.5, true, null, "é"]}})
        );
        let s = docs[0].spans.values["/spec/replicas"];
        assert_eq!(&text[s.offset..s.offset + s.len], "3");
        assert_eq!(v("{\"a\":1,\"b\":[]}"), json!({"a": 1, "b": []}));
    }

    #[test]
    fn byte_order_mark_and_crlf() {
        let docs = stream("\u{feff}a: 1\r\nb: é\r\n").unwrap();
        assert_eq!(docs[0].value, json!({"a": 1, "b": "é"}));
        assert_eq!(docs[0].spans.values["/a"].offset, 6);
    }

    #[test]
    fn syntax_error_positions() {
        // Unclosed flow sequence: at the opening bracket.
        let (l, c, d) = err_pos("a: 1\nb: [1, 2\n");
        assert_eq!((l, c), (2, 4));
        assert!(d.message.contains("unclosed bracket '['"), "{}", d.message);
        // Flow sequence running into the next key.
        let (l, _, d) = err_pos("a: [1, 2\nb: 3\n");
        assert_eq!(l, 2);
        assert!(d.help.is_some());
        // Bad indentation.
        let (l, c, d) = err_pos("a:\n  b: 1\n c: 2\n");
        assert_eq!((l, c), (3, 2));
        assert!(
            d.message.contains("did not find expected key"),
            "{}",
            d.message
        );
        // Tab indentation.
        let (l, c, d) = err_pos("a:\n\tb: 1\n");
        assert_eq!((l, c), (2, 1));
        assert!(d.help.as_deref().is_some_and(|h| h.contains("tabs")));
        // Plain value with ": ".
        let (l, c, _) = err_pos("é: b: c\n");
        assert_eq!((l, c), (1, 5));
        // Unterminated quote: at the quote when the input ends on its line; otherwise granit
        // reports the next line (where the continuation would need indentation).
        let (l, c, _) = err_pos("a: 'x");
        assert_eq!((l, c), (1, 4));
        let (l, c, d) = err_pos("a: 'x\nb: 1\n");
        assert_eq!((l, c), (2, 1));
        assert!(
            d.help
                .as_deref()
                .is_some_and(|h| h.contains("closing quote"))
        );
        // Sequence/mapping mix.
        let (l, c, _) = err_pos("- a\nb: 1\n");
        assert_eq!((l, c), (2, 1));
        // Error in a later document is reported at its own line.
        let (l, _, _) = err_pos("a: 1\n---\nb: [\n");
        assert_eq!(l, 3);
        // The message form of parse_value.
        let e = parse_value("a: [1, 2\n").unwrap_err();
        assert!(e.starts_with("line 1, column 4: "), "{e}");
    }

    #[test]
    fn emitted_yaml_reads_back() {
        let value = json!({
            "apiVersion": "v1",
            "metadata": {"annotations": {"a/b": "on", "c": "0755", "d": "line1\nline2\n"},
                         "labels": {}},
            "spec": {"list": ["y", "1_000", "", " x", "a: b", 1.5, 1e21, -3, null, true, [], {}],
                     "nested": [[{"k": "v"}], {"x": [1]}]},
        });
        let text = to_yaml(&value);
        assert_eq!(v(&text), value, "{text}");
        assert_eq!(to_yaml(&value), text, "deterministic");
    }

    /// Strings chosen to stress quoting: YAML 1.1 keywords, number-like text, indicators,
    /// whitespace at the edges, line breaks, unicode.
    fn tricky_string() -> impl Strategy<Value = String> {
        let fixed = prop::sample::select(vec![
            "",
            "y",
            "Y",
            "yes",
            "no",
            "n",
            "N",
            "on",
            "off",
            "ON",
            "true",
            "False",
            "null",
            "Null",
            "~",
            "<<",
            "=",
            ".inf",
            "-.inf",
            ".nan",
            "1",
            "-1",
            "+1",
            "0755",
            "0o17",
            "0x1F",
            "0b101",
            "1_000",
            "1.20",
            "1e3",
            "1.",
            ".5",
            "1:20",
            "2024-01-01",
            "2001-12-14t21:59:43.10-05:00",
            "9223372036854775808",
            "18446744073709551616",
            "- x",
            "-x",
            "-",
            "---",
            "...",
            "? x",
            "?",
            ":",
            "a: b",
            "a:b",
            "a #b",
            "a#b",
            "#",
            "&a",
            "*a",
            "!a",
            "|",
            ">",
            "%",
            "@",
            "`",
            "'",
            "\"",
            "[a]",
            "{a: 1}",
            "a, b",
            " x",
            "x ",
            " ",
            "\t",
            "a\tb",
            "\n",
            "a\n",
            "a\nb",
            "a\n\nb\n",
            " a\nb",
            "a \nb",
            "a\n\n",
            "é",
            "日本語",
            "\u{85}",
            "\u{2028}",
            "\u{feff}",
            "\u{1}",
            "\u{7f}",
            "\\",
            "\r\n",
            "😀",
            "a\u{a0}b",
        ])
        .prop_map(str::to_string);
        prop_oneof![
            3 => fixed,
            2 => "[ -~é\n\t]{0,12}",
            1 => any::<String>(),
        ]
    }

    fn json_number() -> impl Strategy<Value = Value> {
        prop_oneof![
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            // Only floats parse can produce: Go's JSON prints integral floats as integers.
            any::<f64>().prop_filter_map("canonical float", |f| {
                resolve::go_json_float(f).map(Value::Number)
            }),
        ]
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            json_number(),
            tricky_string().prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(tricky_string(), inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn emit_then_parse_round_trips(value in json_value()) {
            let text = to_yaml(&value);
            let back = parse_value(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(&back, &value, "emitted:\n{}", text);
            let docs = parse_stream(&SourceFile::new("p", text.clone()))
                .map_err(|e| TestCaseError::fail(e.message))?;
            if value.is_null() {
                prop_assert!(docs.is_empty());
            } else {
                prop_assert_eq!(&docs[0].value, &value);
            }
        }

        #[test]
        fn parse_never_panics(text in any::<String>()) {
            let _ = parse_value(&text);
            let _ = parse_stream(&SourceFile::new("p", text));
        }

        #[test]
        fn parse_never_panics_on_yamlish_text(
            text in "([-:?,\\[\\]{}#&*!|>'\"%@ \\n\\ta-z0-9é.~<]){0,64}"
        ) {
            let _ = parse_value(&text);
            let _ = parse_stream(&SourceFile::new("p", text));
        }
    }
}
