/*!
Diagnostics: every error and warning topoplan reports.

A [`Diagnostic`] is data — a stable [`Code`] (what kind of problem, [`code`]), a message, an
optional location in an input file, a help line and related diagnostics — rendered in one place
by miette. Stages build them with [`Diagnostic::error`] / [`Diagnostic::at`] and never print
anything themselves; a code is required, so no diagnostic is left without one.

Rendering takes any diagnostic, whatever its input held, and prints a bounded, terminal-safe
report: miette never sees the file, only an excerpt of the span's lines cut to a window of
columns (it panics past column 65,535, and a minified JSON file is one long line); messages,
help, labels, related diagnostics and the number of diagnostics per report are capped, each cut
saying how much it left out; every control or bidi character of input-derived text is escaped
([`crate::escape`]). The `file:line:col` shown is always the true position.
*/

use std::fmt::{self, Write as _};
use std::sync::Arc;

use miette::{LabeledSpan, NamedSource, SourceCode};

use crate::escape::{escape, escape_line, escaped_width, push_escaped};
use crate::source::{Origin, SourceFile, Span};

mod code;
pub mod suggest;

pub use code::{Code, markdown_table};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The run cannot produce a result.
    Error,
    /// The result is produced but the user should know something.
    Warning,
}

/// One reportable problem, optionally located in an input file.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What kind of problem, by a name that stays stable across releases.
    pub code: Code,
    /// What failed, in one sentence (Cluster API's wording where one exists).
    pub message: String,
    /// Where: the file and the span in it, with a short label.
    pub location: Option<Location>,
    /// What was expected or how to fix it.
    pub help: Option<String>,
    /// Further diagnostics shown beneath this one (e.g. every missing variable).
    pub related: Vec<Diagnostic>,
    /// Related diagnostics that were counted but not built: a producer that finds thousands
    /// (unset variables, malformed lines) builds only the first [`MAX_RELATED`], so reporting
    /// stays linear, and the renderer says how many more there were.
    pub omitted_related: usize,
}

/// A place in an input file.
#[derive(Debug, Clone)]
pub struct Location {
    /// The file.
    pub file: Arc<SourceFile>,
    /// The bytes to underline.
    pub span: Span,
    /// Text shown at the underline.
    pub label: String,
}

impl Diagnostic {
    /// An error with no location.
    pub fn error(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            location: None,
            help: None,
            related: Vec::new(),
            omitted_related: 0,
        }
    }

    /// A warning with no location.
    pub fn warning(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    /// Attach a location given as file and span.
    pub fn with_span(
        mut self,
        file: &Arc<SourceFile>,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        self.location = Some(Location {
            file: Arc::clone(file),
            span,
            label: label.into(),
        });
        self
    }

    /// Attach the location of the node at `pointer` inside the object `origin` describes.
    pub fn at(self, origin: &Origin, pointer: &str, label: impl Into<String>) -> Self {
        match origin.span(pointer) {
            Some(span) => self.with_span(&origin.file, span, label),
            None => self,
        }
    }

    /// Attach the location of the mapping key that introduced `pointer` (a short span for a field
    /// whose value is a large block), falling back to its value.
    pub fn at_key(self, origin: &Origin, pointer: &str, label: impl Into<String>) -> Self {
        match origin.spans.key_or_value_span(pointer) {
            Some(span) => self.with_span(&origin.file, span, label),
            None => self,
        }
    }

    /// Attach a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Attach related diagnostics.
    pub fn with_related(mut self, related: Vec<Diagnostic>) -> Self {
        self.related = related;
        self
    }

    /// Attach the first [`MAX_RELATED`] of `related`, counting the others (which `related` may
    /// not even hold: `total` is how many there are in all).
    pub fn with_related_bounded(
        mut self,
        related: impl IntoIterator<Item = Diagnostic>,
        total: usize,
    ) -> Self {
        self.related = related.into_iter().take(MAX_RELATED).collect();
        self.omitted_related = total.saturating_sub(self.related.len());
        self
    }

    /// `file:line:col` of this diagnostic, if it has a location.
    pub fn position(&self) -> Option<(String, usize, usize)> {
        self.location.as_ref().map(|l| {
            let (line, col) = l.file.line_col(l.span.offset);
            (l.file.name.clone(), line, col)
        })
    }

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Widest snippet line shown, in columns: a longer line is cut to a window around the span,
/// each cut marked with `…`. miette panics on columns past 65,535 and a minified JSON file is one
/// line, so the whole line never reaches it.
pub const MAX_SNIPPET_COLUMNS: usize = 200;
/// Columns shown left of the span when its line is cut.
const SNIPPET_LEAD: usize = 60;
/// Most lines of a multi-line span shown (the underline stops at the last one shown).
pub const MAX_SNIPPET_LINES: usize = 24;
/// Longest message shown, in bytes; the rest is replaced by a note of how much was cut.
pub const MAX_MESSAGE_BYTES: usize = 2048;
/// Longest help line shown, in bytes.
pub const MAX_HELP_BYTES: usize = 1024;
/// Longest label shown at an underline, in bytes.
pub const MAX_LABEL_BYTES: usize = 160;
/// Most related diagnostics shown beneath one diagnostic; the rest are counted.
pub const MAX_RELATED: usize = 20;
/// Most diagnostics printed by one call of [`render_all`] (one run prints warnings, then errors).
pub const MAX_DIAGNOSTICS: usize = 50;
/// Most bytes printed by one call of [`render_all`]: the diagnostic that crosses it is the last.
pub const MAX_RENDERED_BYTES: usize = 64 * 1024;
/// Most bytes of one rendered diagnostic (with its related ones); the rest is counted.
pub const MAX_DIAGNOSTIC_BYTES: usize = 64 * 1024;

/// `s` cut to at most `max` bytes (on character boundaries) with a note of what was cut, then
/// escaped for the terminal. The middle goes, not the end: a Kubernetes field error quotes the
/// offending value before saying what is wrong with it (`Invalid value: "<1 MB>": <reason>`),
/// so the reason is at the end.
fn shown(s: &str, max: usize) -> String {
    escape(&cut(s, max)).into_owned()
}

/// `s` cut to at most `max` bytes (on character boundaries, the middle replaced by a note of
/// how much was cut), not escaped: the machine formats escape in their own way, and must be
/// bounded as the text is.
pub fn cut(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if s.len() > max {
        let head = floor_boundary(s, max * 3 / 4);
        let tail = ceil_boundary(s, s.len() - (max - head));
        std::borrow::Cow::Owned(format!(
            "{}… ({} bytes not shown) …{}",
            &s[..head],
            tail - head,
            &s[tail..]
        ))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// The largest char boundary of `s` at or below `i`.
fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary of `s` at or above `i`.
fn ceil_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Bytes between two checkpoints of a [`LineIndex`].
const LINE_INDEX_STRIDE: usize = 64 * 1024;

/// Line numbers of the files one report renders: the newline count at every
/// [`LINE_INDEX_STRIDE`] bytes of each file, built on first use, so each of a report's many
/// diagnostics finds its line by counting at most one stride, not the whole file.
#[derive(Debug, Default)]
struct LineIndex {
    /// Per file (by address: the report's diagnostics keep every file alive meanwhile), the
    /// newlines before each checkpoint.
    files: Vec<(usize, Vec<usize>)>,
}

impl LineIndex {
    /// 0-based line of byte `at` (clamped to the file) in `file`.
    fn line_of(&mut self, file: &SourceFile, at: usize) -> usize {
        let bytes = file.text.as_bytes();
        let at = at.min(bytes.len());
        let newlines = |b: &[u8]| b.iter().filter(|&&c| c == b'\n').count();
        let key = std::ptr::from_ref(file) as usize;
        let i = match self.files.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                let mut marks = vec![0];
                for chunk in bytes.chunks(LINE_INDEX_STRIDE) {
                    let last = marks.last().copied().unwrap_or(0);
                    marks.push(last + newlines(chunk));
                }
                self.files.push((key, marks));
                self.files.len() - 1
            }
        };
        let block = at / LINE_INDEX_STRIDE;
        let before = self.files[i].1.get(block).copied().unwrap_or(0);
        before + newlines(&bytes[block * LINE_INDEX_STRIDE..at])
    }
}

/// What miette is shown of a file: only the lines around one span, each cut to a window of
/// columns and escaped, with the span re-expressed in it. Line numbers and the header's
/// `file:line:col` stay those of the real file.
#[derive(Debug)]
struct Excerpt {
    /// The file name, escaped.
    name: String,
    /// The lines shown, `\n`-separated.
    text: String,
    /// 0-based line number (in the file) of `text`'s first line.
    first_line: usize,
    /// 0-based line and character column (in the file) of the span's start, for the header.
    start: (usize, usize),
    /// The span, as offsets into `text`.
    span: miette::SourceSpan,
}

impl Excerpt {
    /// Cut the excerpt for `span` out of `file`. Any span is accepted: one past the end of the
    /// file or inside a character is clamped.
    fn new(file: &SourceFile, span: Span, lines: &mut LineIndex) -> Excerpt {
        let text = file.text.as_str();
        let start = floor_boundary(text, span.offset);
        let end = ceil_boundary(text, span.offset.saturating_add(span.len)).max(start);
        let line_begin = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
        let start_begin = line_begin(start);
        let start_line = lines.line_of(file, start_begin);
        let start_col = text[start_begin..start].chars().count();
        // The line of the span's last byte (a span ending with a newline ends on that line).
        let last = if end > start { end - 1 } else { start };
        let span_lines = lines.line_of(file, last) - start_line;
        let shown_span_lines = span_lines.min(MAX_SNIPPET_LINES - 1);
        // miette shows one line of context on either side; the line after only when the whole
        // span is shown (otherwise the cut is where the snippet stops).
        let (first_begin, first_line) = if start_begin == 0 {
            (0, start_line)
        } else {
            (line_begin(start_begin - 1), start_line - 1)
        };
        let line_count = (start_line - first_line)
            + shown_span_lines
            + 1
            + usize::from(span_lines < MAX_SNIPPET_LINES);

        // One window of display columns for every line, placed so the span's start is inside.
        let start_width: usize = text[start_begin..start].chars().map(escaped_width).sum();
        let window_from = if start_width + SNIPPET_LEAD < MAX_SNIPPET_COLUMNS {
            0
        } else {
            start_width - SNIPPET_LEAD
        };
        let window_to = window_from + MAX_SNIPPET_COLUMNS;

        let mut out = String::new();
        let mut ex_start = None;
        let mut ex_end = None;
        let mut at = first_begin;
        for _ in 0..line_count {
            if at > text.len() || (at == text.len() && at > start) {
                break;
            }
            let rest = &text[at..];
            let (line, newline) = match rest.find('\n') {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            // A CRLF file's carriage return ends the line, as miette reads it.
            let body = line.strip_suffix('\r').unwrap_or(line);
            let mut col = 0;
            let mut cut_before = false;
            for (i, c) in body.char_indices() {
                let pos = at + i;
                let w = escaped_width(c);
                if col < window_from {
                    cut_before = true;
                    col += w;
                    continue;
                }
                if cut_before {
                    out.push('…');
                    cut_before = false;
                }
                if ex_start.is_none() && pos >= start {
                    ex_start = Some(out.len());
                }
                if col + w > window_to {
                    out.push('…');
                    break;
                }
                push_escaped(&mut out, c);
                if pos >= start && pos < end {
                    ex_end = Some(out.len());
                }
                col += w;
            }
            if cut_before {
                out.push('…');
            }
            let eol = at + line.len();
            if ex_start.is_none() && eol >= start {
                ex_start = Some(out.len());
            }
            if newline {
                out.push('\n');
                if eol >= start && eol < end {
                    ex_end = Some(out.len());
                }
            }
            at = eol + 1;
        }
        let ex_start = ex_start.unwrap_or(out.len());
        let ex_end = ex_end.unwrap_or(ex_start).max(ex_start);
        Excerpt {
            name: escape_line(&file.name).into_owned(),
            text: out,
            first_line,
            start: (start_line, start_col),
            span: miette::SourceSpan::new(ex_start.into(), ex_end - ex_start),
        }
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        // The header asks for the span alone; it gets the position in the real file.
        let (line, column) = if context_lines_before == 0 && span.offset() == self.span.offset() {
            self.start
        } else {
            (inner.line() + self.first_line, inner.column())
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            line,
            column,
            inner.line_count(),
        )))
    }
}

/// The miette view of a [`Diagnostic`], bounded and escaped; built on demand for rendering.
#[derive(Debug)]
struct Report {
    severity: Severity,
    /// The code, shown in the header of a top-level diagnostic (a related one shares the
    /// report's header).
    code: Option<Code>,
    message: String,
    help: Option<String>,
    source: Option<Excerpt>,
    label: Option<String>,
    related: Vec<Report>,
}

impl Report {
    /// Wrap a diagnostic for rendering; `nested` for a related one (whose own related
    /// diagnostics miette would not show).
    fn new(diag: &Diagnostic, nested: bool, lines: &mut LineIndex) -> Report {
        let source = diag
            .location
            .as_ref()
            .map(|l| Excerpt::new(&l.file, l.span, lines));
        let label = diag
            .location
            .as_ref()
            .filter(|l| !l.label.is_empty())
            .map(|l| shown(&l.label, MAX_LABEL_BYTES));
        let mut related: Vec<Report> = if nested {
            Vec::new()
        } else {
            diag.related
                .iter()
                .take(MAX_RELATED)
                .map(|r| Report::new(r, true, lines))
                .collect()
        };
        let omitted = diag.related.len().saturating_sub(MAX_RELATED) + diag.omitted_related;
        if !nested && omitted > 0 {
            related.push(Report {
                severity: diag.severity,
                code: None,
                message: format!("… and {omitted} more"),
                help: None,
                source: None,
                label: None,
                related: Vec::new(),
            });
        }
        Report {
            severity: diag.severity,
            code: (!nested).then_some(diag.code),
            message: shown(&diag.message, MAX_MESSAGE_BYTES),
            help: diag.help.as_deref().map(|h| shown(h, MAX_HELP_BYTES)),
            source,
            label,
            related,
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .map(|c| Box::new(c.name()) as Box<dyn fmt::Display>)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let ex = self.source.as_ref()?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(self.label.clone(), ex.span),
        )))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

/// Keep `NamedSource` reachable for callers that render a snippet of text that is not a file.
pub type Named = NamedSource<String>;

/// A list of diagnostics that together make a stage fail.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Whether any of them is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl From<Vec<Diagnostic>> for Diagnostics {
    fn from(d: Vec<Diagnostic>) -> Self {
        Diagnostics(d)
    }
}

/// Render a diagnostic as text, the way it is printed on stderr. `terminal` (colours, lines
/// wrapped at 100 columns) is for people; otherwise each message stays on one line, so logs and
/// `grep` see it whole. Any diagnostic renders, bounded in size (see the `MAX_*` limits), with
/// every control character of its text escaped.
pub fn render(d: &Diagnostic, terminal: bool) -> String {
    render_with(d, terminal, &mut LineIndex::default())
}

/// [`render`], sharing line numbers with the other diagnostics of a report.
fn render_with(d: &Diagnostic, terminal: bool, lines: &mut LineIndex) -> String {
    use miette::{GraphicalReportHandler, GraphicalTheme};
    let theme = if terminal {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_wrap_lines(terminal);
    let mut out = String::new();
    let report = Report::new(d, false, lines);
    if handler.render_report(&mut out, &report).is_err() {
        out = format!(
            "{}: {}\n",
            if d.is_error() { "error" } else { "warning" },
            report.message
        );
    }
    if out.len() > MAX_DIAGNOSTIC_BYTES {
        let end = out[..floor_boundary(&out, MAX_DIAGNOSTIC_BYTES)]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let cut = out.len() - end;
        out.truncate(end);
        let _ = write!(out, "  … ({cut} more bytes of this diagnostic not shown)");
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Render diagnostics for stderr, at most [`MAX_DIAGNOSTICS`] of them and about
/// [`MAX_RENDERED_BYTES`]: past either, one line counts what was left out, so hostile input
/// that yields a flood of errors still prints a bounded report.
pub fn render_all(diags: &[Diagnostic], terminal: bool) -> String {
    let mut out = String::new();
    let mut lines = LineIndex::default();
    for (i, d) in diags.iter().enumerate() {
        if i == MAX_DIAGNOSTICS || out.len() >= MAX_RENDERED_BYTES {
            let rest = &diags[i..];
            let errors = rest.iter().filter(|d| d.is_error()).count();
            let _ = writeln!(
                out,
                "… and {} more not shown ({errors} errors, {} warnings)",
                rest.len(),
                rest.len() - errors
            );
            break;
        }
        out.push_str(&render_with(d, terminal, &mut lines));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, offset: usize, len: usize) -> Diagnostic {
        let f = SourceFile::new("f.yaml", text);
        Diagnostic::error(Code::Internal, "bad").with_span(&f, Span::new(offset, len), "here")
    }

    #[test]
    fn any_span_on_any_file_renders() {
        let texts = [
            "",
            "a",
            "\n",
            "ab\ncd\n",
            "é\u{1b}ü\r\nx",
            "\r\r\n\n",
            "x: 1\ny: 2\nz: 3\n",
        ];
        for text in texts {
            for offset in 0..text.len() + 3 {
                for len in [0, 1, 2, 5, usize::MAX - offset] {
                    // The terminal form adds colours (ESC) of its own: check the input's.
                    let terminal = offset % 2 == 0;
                    let out = render(&at(text, offset, len), terminal);
                    assert!(out.contains("bad"), "{text:?} {offset} {len}: {out}");
                    assert!(!out.contains('\r'), "{out}");
                    assert!(terminal || !out.contains('\u{1b}'), "{out}");
                }
            }
        }
    }

    #[test]
    fn wide_line_is_cut_to_a_window_with_the_true_column() {
        let mut text = format!("{{\"x\": \"{}\", \"y\": ", "a".repeat(70_000));
        let offset = text.len();
        text.push_str("bogus}");
        let out = render(&at(&text, offset, 5), false);
        assert!(out.contains(&format!("[f.yaml:1:{}]", offset + 1)), "{out}");
        assert!(out.contains("…aaaa"), "{out}");
        assert!(out.contains("\"y\": bogus}"), "{out}");
        assert!(
            out.lines()
                .all(|l| l.chars().count() < MAX_SNIPPET_COLUMNS + 20),
            "{out}"
        );
    }

    #[test]
    fn long_span_shows_a_bounded_number_of_lines() {
        let text = "k: |\n".to_owned() + &"  line\n".repeat(1000);
        let out = render(&at(&text, 3, text.len() - 3), false);
        assert!(out.lines().count() < MAX_SNIPPET_LINES + 8, "{out}");
    }

    #[test]
    fn message_help_and_related_are_bounded() {
        let big = "v".repeat(1_000_000);
        let d = Diagnostic::error(Code::Internal, format!("Invalid value: \"{big}\""))
            .with_help(big.clone())
            .with_related(
                (0..1000)
                    .map(|i| Diagnostic::error(Code::Internal, format!("r{i}")))
                    .collect(),
            );
        let out = render(&d, false);
        assert!(out.len() < 16 * 1024, "{}", out.len());
        assert!(out.contains("bytes not shown)"), "{out}");
        assert!(out.contains("… and 980 more"), "{out}");
    }

    #[test]
    fn one_diagnostic_is_bounded_whatever_its_related_hold() {
        let text = "k: |\n".to_owned() + &format!("  {}\n", "é".repeat(300)).repeat(100);
        let f = SourceFile::new("f.yaml", text.as_str());
        let r =
            Diagnostic::error(Code::Internal, "r").with_span(&f, Span::new(3, text.len() - 3), "x");
        let d = Diagnostic::error(Code::Internal, "d").with_related(vec![r; MAX_RELATED]);
        let out = render(&d, false);
        assert!(out.len() <= MAX_DIAGNOSTIC_BYTES + 100, "{}", out.len());
        assert!(out.ends_with("of this diagnostic not shown)\n"), "{out}");
    }

    #[test]
    fn the_line_index_counts_like_the_text() {
        let text = "a\n".repeat(100_000) + "é\nb";
        let f = SourceFile::new("f", text.as_str());
        let mut idx = LineIndex::default();
        for at in [
            0,
            1,
            2,
            65_535,
            65_536,
            65_537,
            131_072,
            text.len() - 1,
            text.len(),
            usize::MAX,
        ] {
            let want = text.as_bytes()[..at.min(text.len())]
                .iter()
                .filter(|&&c| c == b'\n')
                .count();
            assert_eq!(idx.line_of(&f, at), want, "{at}");
        }
    }

    #[test]
    fn render_all_stops_with_a_count() {
        let ds: Vec<_> = (0..1000)
            .map(|i| Diagnostic::error(Code::Internal, format!("e{i}")))
            .collect();
        let out = render_all(&ds, false);
        assert!(out.ends_with(&format!(
            "… and {} more not shown ({} errors, 0 warnings)\n",
            1000 - MAX_DIAGNOSTICS,
            1000 - MAX_DIAGNOSTICS
        )));
    }

    #[test]
    fn controls_are_escaped_in_every_part() {
        let f = SourceFile::new("f\u{1b}]0;x\u{7}.yaml", "name: \u{1b}[2J\u{9b}\n");
        let d = Diagnostic::error(Code::Internal, "m\u{1b}[31m")
            .with_span(&f, Span::new(6, 4), "l\u{7}")
            .with_help("h\u{202e}");
        let out = render(&d, false);
        assert!(!out.chars().any(crate::escape::is_unsafe), "{out:?}");
        for part in [
            "m\\u001b[31m",
            "l\\u0007",
            "h\\u202e",
            "f\\u001b]0;x\\u0007.yaml",
            "\\u001b[2J\\u009b",
        ] {
            assert!(out.contains(part), "{part} in {out}");
        }
    }

    #[test]
    fn short_lines_render_as_miette_renders_the_file() {
        let text = "a: 1\nkind: [x\nmetadata: {name: x}\nb: 2\n";
        let out = render(&at(text, 22, 1), false);
        assert_eq!(
            out,
            "topoplan::internal\n\n  × bad\n   ╭─[f.yaml:3:9]\n 2 │ kind: [x\n 3 │ metadata: {name: x}\n   ·         ┬\n   ·         ╰── here\n 4 │ b: 2\n   ╰────\n"
        );
    }
}
