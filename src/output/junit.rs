/*!
`--output junit`: JUnit XML, the report format GitLab, Jenkins and Azure Pipelines read.

One `<testsuite>` per run. `validate`: one `<testcase>` per ClusterClass and per Cluster, a
`<failure>` per error (message and location), warnings in the case's `<system-out>`; findings
that belong to no such object go to a case named after their file. `plan` and `diff`: one case
per Cluster planned, with what it changes in `<system-out>`; a run that fails is one failing
case with every error. Warnings of the run go to the suite's `<system-out>`.

Owns the XML: escaping (quick-xml's) after terminal escaping, so no control character, which
XML 1.0 cannot carry, reaches the file.
*/

use std::fmt::Write as _;

use quick_xml::escape::escape as xml;

use crate::diag::Diagnostic;
use crate::escape::escape;

/// One test case.
#[derive(Debug, Clone, Default)]
pub struct Case {
    /// `classname`: the kind of thing tested (`ClusterClass`, `Cluster`, `input`).
    pub classname: String,
    /// `name`: which one (`namespace/name`, or a file).
    pub name: String,
    /// Errors: (code, message, full text with location and help).
    pub failures: Vec<(&'static str, String, String)>,
    /// Text for `<system-out>` (warnings, a summary).
    pub out: String,
}

impl Case {
    /// A case for `classname` `name`.
    pub fn new(classname: impl Into<String>, name: impl Into<String>) -> Case {
        Case {
            classname: classname.into(),
            name: name.into(),
            ..Case::default()
        }
    }

    /// Record `d`: an error as a failure, a warning in `<system-out>`.
    pub fn add(&mut self, d: &Diagnostic) {
        if d.is_error() {
            self.failures
                .push((d.code.name(), d.message.clone(), text(d)));
        } else {
            let _ = writeln!(self.out, "{}", warning(d));
        }
    }
}

/// A warning as one block of text: `warning[code]: file:line:col: message`, then its help.
fn warning(d: &Diagnostic) -> String {
    format!("warning[{}]: {}", d.code.name(), text(d))
}

/// A diagnostic as one block of text: `file:line:col: message`, then its help.
pub fn text(d: &Diagnostic) -> String {
    let mut s = match d.position() {
        Some((file, line, col)) => format!("{file}:{line}:{col}: {}", d.message),
        None => d.message.clone(),
    };
    if let Some(h) = &d.help {
        let _ = write!(s, "\nhelp: {h}");
    }
    s
}

/// A Cluster's case in a plan or review: what it changes, in `<system-out>`.
pub fn cluster_case(c: &crate::plan::ClusterPlan) -> Case {
    use crate::plan::Action;
    let count = |a: Action| c.objects.iter().filter(|o| o.action == a).count();
    let mut case = Case::new("Cluster", format!("{}/{}", c.namespace, c.name));
    let _ = write!(
        case.out,
        "ClusterClass {}/{}: {} to create, {} to modify, {} unchanged, {} to delete",
        c.class.0,
        c.class.1,
        count(Action::Created),
        count(Action::Modified),
        count(Action::Unchanged),
        count(Action::Deleted)
    );
    for r in c.rollouts.iter().filter(|r| !r.deferred) {
        let _ = write!(
            case.out,
            "\n{} {} rolls out: {}",
            r.kind,
            r.name,
            r.reasons.join("; ")
        );
    }
    case
}

/// The report of a run that failed: one failing case (`suite`'s command) with every error.
pub fn failed(suite: &str, diagnostics: &[Diagnostic]) -> String {
    let (errors, warnings): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
        diagnostics.iter().partition(|d| d.is_error());
    let mut case = Case::new("topoplan", suite.trim_start_matches("topoplan "));
    for e in errors {
        case.add(e);
    }
    let warnings: Vec<Diagnostic> = warnings.into_iter().cloned().collect();
    render(suite, &[case], &warnings)
}

/// The report: one suite named `suite` with `cases`, and the run's `warnings`.
pub fn render(suite: &str, cases: &[Case], warnings: &[Diagnostic]) -> String {
    render_with(suite, cases, warnings, &[])
}

/// [`render`], with the suite's `<properties>` (name, value).
pub fn render_with(
    suite: &str,
    cases: &[Case],
    warnings: &[Diagnostic],
    properties: &[(String, String)],
) -> String {
    let failures: usize = cases.iter().filter(|c| !c.failures.is_empty()).count();
    let clean = |s: &str| xml(escape(s).into_owned()).into_owned();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"topoplan\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
        cases.len()
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
        clean(suite),
        cases.len()
    );
    if !properties.is_empty() {
        out.push_str("    <properties>\n");
        for (name, value) in properties {
            let _ = writeln!(
                out,
                "      <property name=\"{}\" value=\"{}\"/>",
                clean(name),
                clean(value)
            );
        }
        out.push_str("    </properties>\n");
    }
    for c in cases {
        let _ = write!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\"",
            clean(&c.classname),
            clean(&c.name)
        );
        if c.failures.is_empty() && c.out.is_empty() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        // The failure's type is the diagnostic's code, which CI tools group and filter by.
        for (code, message, body) in &c.failures {
            let _ = writeln!(
                out,
                "      <failure type=\"{code}\" message=\"{}\">{}</failure>",
                clean(message),
                clean(body)
            );
        }
        if !c.out.is_empty() {
            let _ = writeln!(out, "      <system-out>{}</system-out>", clean(&c.out));
        }
        out.push_str("    </testcase>\n");
    }
    if !warnings.is_empty() {
        let all: Vec<String> = warnings.iter().map(warning).collect();
        let _ = writeln!(
            out,
            "    <system-out>{}</system-out>",
            clean(&all.join("\n"))
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    #[test]
    fn failures_and_escaping() {
        let mut c = Case::new("Cluster", "default/a<b>");
        c.add(
            &Diagnostic::error(Code::PatchMissingPath, "bad \"x\" & \u{1b}[31m")
                .with_help("fix it"),
        );
        c.add(&Diagnostic::warning(
            Code::TemplateUnknownVariable,
            "careful",
        ));
        let ok = Case::new("Cluster", "default/ok");
        let xml = render(
            "topoplan validate",
            &[c, ok],
            &[Diagnostic::warning(Code::InputUnsubstituted, "run-wide")],
        );
        assert!(xml.contains("tests=\"2\" failures=\"1\""));
        assert!(xml.contains("name=\"default/a&lt;b&gt;\""));
        assert!(
            xml.contains("message=\"bad &quot;x&quot; &amp; \\u001b[31m\""),
            "{xml}"
        );
        assert!(xml.contains("<failure type=\"topoplan::patch::missing-path\""));
        assert!(xml.contains(
            "<system-out>warning[topoplan::template::unknown-variable]: careful\n</system-out>"
        ));
        assert!(xml.contains("<testcase classname=\"Cluster\" name=\"default/ok\"/>"));
        assert!(xml.contains(
            "<system-out>warning[topoplan::input::unsubstituted]: run-wide</system-out>"
        ));
        assert!(!xml.contains('\u{1b}'));
    }
}
