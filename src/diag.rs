/*!
Diagnostics: every error and warning topoplan reports.

A [`Diagnostic`] is data — a message, an optional location in an input file, a help line and
related diagnostics — rendered in one place by miette. Stages build them with
[`Diagnostic::error`] / [`Diagnostic::at`] and never print anything themselves.
*/

use std::fmt;
use std::sync::Arc;

use miette::{LabeledSpan, NamedSource, SourceCode};

use crate::load::source::{Origin, SourceFile, Span};

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
    /// What failed, in one sentence (Cluster API's wording where one exists).
    pub message: String,
    /// Where: the file and the span in it, with a short label.
    pub location: Option<Location>,
    /// What was expected or how to fix it.
    pub help: Option<String>,
    /// Further diagnostics shown beneath this one (e.g. every missing variable).
    pub related: Vec<Diagnostic>,
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
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            location: None,
            help: None,
            related: Vec::new(),
        }
    }

    /// A warning with no location.
    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message)
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

/// miette needs a `SourceCode` that names the file; this wraps the shared file without copying.
#[derive(Debug)]
struct FileSource(Arc<SourceFile>);

impl SourceCode for FileSource {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self
            .0
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.0.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// The miette view of a [`Diagnostic`]; built on demand for rendering.
#[derive(Debug)]
pub struct Report {
    diag: Diagnostic,
    source: Option<FileSource>,
    related: Vec<Report>,
}

impl Report {
    /// Wrap a diagnostic for rendering.
    pub fn new(diag: Diagnostic) -> Report {
        let source = diag
            .location
            .as_ref()
            .map(|l| FileSource(Arc::clone(&l.file)));
        let related = diag.related.iter().cloned().map(Report::new).collect();
        Report {
            diag,
            source,
            related,
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let loc = self.diag.location.as_ref()?;
        let label = (!loc.label.is_empty()).then(|| loc.label.clone());
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(label, loc.span),
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
/// `grep` see it whole.
pub fn render(d: &Diagnostic, terminal: bool) -> String {
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
    let report = Report::new(d.clone());
    if handler.render_report(&mut out, &report).is_err() {
        out = format!(
            "{}: {}\n",
            if d.is_error() { "error" } else { "warning" },
            d.message
        );
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
