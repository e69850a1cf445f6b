/*!
Diagnostics in CI's formats: GitHub Actions workflow commands (`::error file=F,line=L,col=C,
title=T::message`), so errors and warnings appear on the pull request's lines, and one JSON
object per line for any other tool.

Owns the escaping these formats need (workflow commands reserve `%`, line breaks, and in their
properties `:` and `,`); what a diagnostic says is `diag`'s.
*/

use crate::diag::{Diagnostic, MAX_HELP_BYTES, MAX_MESSAGE_BYTES, cut};
use crate::escape::{escape, escape_line};

/// A GitHub Actions workflow command for `d`: `::error` or `::warning`, with the file, line and
/// column when the diagnostic has a location, its message and, on a line of its own, its help.
pub fn workflow_command(d: &Diagnostic) -> String {
    let mut props = Vec::new();
    if let Some((file, line, col)) = d.position() {
        props.push(format!("file={}", property(&cut(&file, MAX_MESSAGE_BYTES))));
        props.push(format!("line={line}"));
        props.push(format!("col={col}"));
    }
    // The title is the code (`topoplan::patch::missing-path`): GitHub shows it above the
    // message, and it says both which tool raised the annotation and what kind of problem.
    props.push(format!("title={}", property(d.code.name())));
    // Line breaks survive (percent-encoded, GitHub shows them); other control characters are
    // escaped as everywhere else.
    // Cut as the text format cuts them: an input can put a megabyte into a message.
    let mut message = data(&escape(&cut(&d.message, MAX_MESSAGE_BYTES)));
    if let Some(h) = &d.help {
        message.push_str("%0Ahelp: ");
        message.push_str(&data(&escape(&cut(h, MAX_HELP_BYTES))));
    }
    let level = if d.is_error() { "error" } else { "warning" };
    format!("::{level} {}::{message}\n", props.join(","))
}

/// One JSON object on one line: severity, message, help, file, line, column (the plan
/// document's shape of a diagnostic).
pub fn json_line(d: &Diagnostic) -> String {
    // Cut as the text format cuts them (the plan document keeps them whole: it is the result,
    // not a report on stderr).
    let mut bounded = d.clone();
    bounded.message = cut(&d.message, MAX_MESSAGE_BYTES).into_owned();
    bounded.help = d
        .help
        .as_deref()
        .map(|h| cut(h, MAX_HELP_BYTES).into_owned());
    let v = crate::output::document::diagnostic(&bounded);
    format!(
        "{}\n",
        super::actions::json_safe(serde_json::to_string(&v).unwrap_or_default())
    )
}

/// A command's data: `%`, CR and LF are percent-encoded.
fn data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// A command's property value: as data, and `:` and `,` too.
fn property(s: &str) -> String {
    data(&escape_line(s))
        .replace(':', "%3A")
        .replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    #[test]
    fn errors_and_warnings_escape_what_the_runner_reads() {
        let d = Diagnostic::error(Code::PatchMissingPath, "100% broken: a, b\nnext")
            .with_help("try x:y");
        assert_eq!(
            workflow_command(&d),
            "::error title=topoplan%3A%3Apatch%3A%3Amissing-path::100%25 broken: a, b%0Anext%0Ahelp: try x:y\n"
        );
        let w = Diagnostic::warning(Code::TemplateUnknownVariable, "careful");
        assert_eq!(
            workflow_command(&w),
            "::warning title=topoplan%3A%3Atemplate%3A%3Aunknown-variable::careful\n"
        );
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
    }

    #[test]
    fn json_lines_are_one_object_each() {
        let line = json_line(&Diagnostic::warning(
            Code::TemplateUnknownVariable,
            "two\nlines",
        ));
        assert_eq!(line.matches('\n').count(), 1);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["severity"], "warning");
        assert_eq!(v["message"], "two\nlines");
        assert_eq!(v["code"], "topoplan::template::unknown-variable");
    }
}
