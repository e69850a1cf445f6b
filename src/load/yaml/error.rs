/*!
A failure while reading YAML, located in the text being parsed: what every stage of the reader
([`super::compose`], [`super::decode`], the bounds) returns, and how it becomes a located
[`Diagnostic`] or, for text that has no file, a message.
*/

use std::sync::Arc;

use crate::diag::{Code, Diagnostic};
use crate::source::{SourceFile, Span};

/// A failure inside this module, located in the text being parsed. Boxed: it travels through
/// every level of the (recursive) decoder, whose stack frames should stay small.
#[derive(Debug)]
pub(super) struct YamlError(pub(super) Box<ErrorData>);

#[derive(Debug)]
pub(super) struct ErrorData {
    pub(super) message: String,
    pub(super) span: Span,
    pub(super) label: String,
    pub(super) help: Option<String>,
    /// For a duplicate key: where the key first appeared.
    pub(super) first_key: Option<Span>,
    /// A bound of the run was hit (not a syntax error: reading the text again in one pass
    /// would not find anything else).
    pub(super) limit: bool,
}

impl YamlError {
    pub(super) fn new(
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> YamlError {
        YamlError(Box::new(ErrorData {
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            first_key: None,
            limit: false,
        }))
    }

    /// Mark as a bound of the run ([`Code::InputLimit`]).
    pub(super) fn limit(mut self) -> YamlError {
        self.0.limit = true;
        self
    }

    /// A broken invariant: reported, never panicked on.
    pub(super) fn internal_at(span: Span, what: &str) -> YamlError {
        YamlError::new(
            format!("internal error while reading YAML: {what}"),
            span,
            "here",
        )
    }

    pub(super) fn duplicate_key(key: &str, span: Span, first: Span) -> YamlError {
        let mut e = YamlError::new(
            format!("duplicate key {key} in mapping"),
            span,
            "duplicate key",
        );
        e.0.first_key = Some(first);
        e
    }

    pub(super) fn with_help(mut self, help: impl Into<String>) -> YamlError {
        self.0.help = Some(help.into());
        self
    }

    /// The help text; a duplicate key's first position is rendered against `file`.
    pub(super) fn help_text(&self, file: &SourceFile) -> Option<String> {
        match self.0.first_key {
            Some(first) => {
                let (line, col) = file.line_col(first.offset);
                Some(format!(
                    "the key was first defined at line {line}, column {col}; Kubernetes' YAML \
                     reader would silently keep only the last value, so topoplan rejects the \
                     ambiguity: remove one of them"
                ))
            }
            None => self.0.help.clone(),
        }
    }

    pub(super) fn into_diagnostic(self, file: &Arc<SourceFile>) -> Diagnostic {
        let help = self.help_text(file);
        let data = *self.0;
        let code = if data.limit {
            Code::InputLimit
        } else {
            Code::InputSyntax
        };
        let d = Diagnostic::error(code, data.message).with_span(file, data.span, data.label);
        match help {
            Some(h) => d.with_help(h),
            None => d,
        }
    }

    pub(super) fn into_message(self, text: &str) -> String {
        let file = SourceFile {
            name: String::new(),
            text: text.to_string(),
        };
        let (line, col) = file.line_col(self.0.span.offset);
        match self.help_text(&file) {
            Some(h) => format!("line {line}, column {col}: {} ({h})", self.0.message),
            None => format!("line {line}, column {col}: {}", self.0.message),
        }
    }
}
