/*!
`--output markdown`: a pull-request comment a reviewer reads in ten seconds, for `plan` and
`diff`.

Layout: a title, the fleet summed up in one line, a table of the Clusters that change (Cluster,
class, objects to create / modify / delete, what rolls out), then per change a collapsible
`<details>` with a fenced `diff` block per changed object. Clusters whose changes are the same
(the same objects change the same way; only names differ) share one section: "and the same
change in 998 more Clusters", those Clusters named in a collapsed list. The run's warnings
follow, collapsed. The comment stays under [`BUDGET`] characters (GitHub refuses comments over
65,536): rows, sections and names that do not fit are counted in a closing note. A run that
fails prints a comment too ([`failed`]): what failed, with each error's file:line:col.

Owns the layout, the grouping and the budget. Each Cluster is reduced to a [`Piece`] on a worker
thread; [`Comment`] gathers them in plan order (only the small pieces of changed Clusters are
kept, and sections only until the budget is spent).
*/

use std::fmt::Write as _;

use crate::diag::Diagnostic;
use crate::escape::{escape, escape_line};
use crate::plan::review::Membership;
use crate::plan::{Action, ClusterPlan};

/// The most characters the comment may have (GitHub's limit is 65,536; a margin for the
/// closing note).
pub const BUDGET: usize = 60_000;

/// The most table rows before the rest are counted.
const MAX_ROWS: usize = 50;

/// The most errors, and warnings, listed in a comment before the rest are counted.
const MAX_FINDINGS: usize = 20;

/// Characters the names of Clusters sharing a section may take, together (taken from the
/// sections' share of [`BUDGET`]).
const NAMES_BUDGET: usize = BUDGET / 12;

/// The most characters of one error or warning shown (a long message is cut), so the
/// warnings' block stays within [`FINDINGS_BUDGET`].
const MAX_FINDING: usize = 300;

/// Characters kept for the warnings' block (taken from the sections' share of [`BUDGET`]).
const FINDINGS_BUDGET: usize = MAX_FINDINGS * (MAX_FINDING + 8) + 200;

/// What the comment needs of one Cluster.
#[derive(Debug, Clone)]
pub struct Piece {
    row: Option<String>,
    /// What identifies the change regardless of names: grouped Clusters share it.
    signature: String,
    /// The Cluster's section body (its diff blocks), empty when nothing is shown.
    body: String,
    label: String,
}

/// One Cluster reduced to its row and section (`membership`: `diff`'s added and removed).
pub fn piece(c: &ClusterPlan, membership: Option<&Membership>) -> Piece {
    let label = format!("{}/{}", cell(&c.namespace), cell(&c.name));
    if !c.has_changes() {
        return Piece {
            row: None,
            signature: String::new(),
            body: String::new(),
            label,
        };
    }
    let count = |a: Action| c.objects.iter().filter(|o| o.action == a).count();
    let key = (c.namespace.clone(), c.name.clone());
    let what = match membership {
        Some(m) if m.added.contains(&key) => " (new)",
        Some(m) if m.removed.contains(&key) => " (removed)",
        _ => "",
    };
    let rolls: Vec<String> = c
        .rollouts
        .iter()
        .filter(|r| !r.deferred)
        .map(|r| format!("{} {}", cell(&r.kind), cell(&r.name)))
        .collect();
    let row = format!(
        "| `{label}`{what} | `{}/{}` | {} | {} | {} | {} |\n",
        cell(&c.class.0),
        cell(&c.class.1),
        count(Action::Created),
        count(Action::Modified),
        count(Action::Deleted),
        if rolls.is_empty() {
            "—".to_string()
        } else {
            rolls.join(", ")
        }
    );
    let mut body = String::new();
    let mut signature = String::new();
    for o in c.objects.iter().filter(|o| o.action != Action::Unchanged) {
        let _ = writeln!(signature, "{} {}", o.action.as_str(), o.role.id());
        let Some(d) = crate::output::table::object_diff(o, false) else {
            continue;
        };
        // The change without its headers, and without what differs from Cluster to Cluster
        // by construction: the Cluster's name and generated name suffixes.
        for line in d
            .lines()
            .filter(|l| !(l.starts_with("--- ") || l.starts_with("+++ ") || l.starts_with("@@")))
        {
            signature.push_str(&anonymous(line, &c.name));
            signature.push('\n');
        }
        let text = escape(&d);
        let fence = fence_for(&text);
        let _ = write!(
            body,
            "{} `{}` {}\n\n{fence}diff\n{text}{}{fence}\n\n",
            o.action.as_str(),
            cell(o.kind()),
            cell(o.name()),
            if text.ends_with('\n') { "" } else { "\n" }
        );
    }
    if let Some(diagram) = upgrade_diagram(c) {
        body.insert_str(0, &diagram);
    }
    Piece {
        row: Some(row),
        signature,
        body,
        label,
    }
}

/// When the plan upgrades (a rollout for a version, or changes the sequencing holds back), a
/// mermaid flowchart of the order: the control plane first, then each MachineDeployment and
/// MachinePool, each marked now or later with why. GitHub draws it as a picture.
fn upgrade_diagram(c: &ClusterPlan) -> Option<String> {
    let upgrading = !c.deferred.is_empty()
        || c.rollouts
            .iter()
            .any(|r| r.deferred || r.reasons.iter().any(|x| x.starts_with("Version")));
    if !upgrading {
        return None;
    }
    // (role id, what, when and why), the control plane first.
    let mut steps: Vec<(String, String, String)> = Vec::new();
    for r in &c.rollouts {
        let when = if r.deferred { "later" } else { "now" };
        steps.push((
            r.role.id(),
            format!("{} {}", r.kind, r.name),
            format!("rolls out {when}: {}", r.reasons.join("; ")),
        ));
    }
    for (role, object, reason) in &c.deferred {
        if !steps.iter().any(|(id, _, _)| *id == role.id()) {
            steps.push((role.id(), object.clone(), format!("held: {reason}")));
        }
    }
    steps.sort_by_key(|(id, _, _)| (id != "ControlPlane", id.clone()));
    let label = |s: &str| {
        escape_line(s)
            .replace('"', "#quot;")
            .replace('<', "#lt;")
            .replace('>', "#gt;")
    };
    let mut out = String::from("```mermaid\nflowchart LR\n");
    for (i, (id, what, when)) in steps.iter().enumerate() {
        let _ = writeln!(
            out,
            "  s{i}[\"{}<br/>{}<br/>{}\"]",
            label(id),
            label(what),
            label(when)
        );
        if i > 0 {
            let _ = writeln!(out, "  s{} --> s{i}", i - 1);
        }
    }
    out.push_str("```\n\n");
    Some(out)
}

/// `line` with the Cluster's name and generated name suffixes (`-` and five characters of
/// Kubernetes' random-name alphabet, as Cluster API's names end) replaced by placeholders.
fn anonymous(line: &str, cluster: &str) -> String {
    static SUFFIX: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let line = replace_name(line, cluster);
    match SUFFIX.get_or_init(|| regex::Regex::new(r"-[bcdfghjklmnpqrstvwxz2456789]{5}\b").ok()) {
        Some(re) => re.replace_all(&line, "-<suffix>").into_owned(),
        None => line,
    }
}

/// `line` with `name` replaced where it stands as a name (not inside a longer word or name:
/// `c` in `replicas`, `bench-1` in `bench-10`).
fn replace_name(line: &str, name: &str) -> String {
    if name.is_empty() {
        return line.to_string();
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find(name) {
        let before = rest[..i].chars().next_back().or(out.chars().next_back());
        let after = rest[i + name.len()..].chars().next();
        out.push_str(&rest[..i]);
        if word(before) || word(after) {
            out.push_str(name);
        } else {
            out.push_str("<cluster>");
        }
        rest = &rest[i + name.len()..];
    }
    out.push_str(rest);
    out
}

/// A table cell: no `|`, no line break, no control character.
fn cell(s: &str) -> String {
    escape_line(s).replace('|', "\\|")
}

/// A code fence longer than any run of backticks in `text`, so no input can close it.
fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}

/// A section: the first Cluster's body and how many more share the change.
#[derive(Debug)]
struct Section {
    signature: String,
    label: String,
    body: String,
    more: usize,
    /// The first of the `more` Clusters' labels, as many as [`NAMES_BUDGET`] allows.
    others: Vec<String>,
}

/// The comment, gathered Cluster by Cluster in plan order.
#[derive(Debug, Default)]
pub struct Comment {
    rows: Vec<String>,
    rows_left_out: usize,
    /// Characters of the rows kept (a quarter of the budget at most).
    rows_used: usize,
    sections: Vec<Section>,
    /// Characters of the sections kept (the rest of the budget).
    used: usize,
    /// Changed Clusters whose section did not fit.
    sections_left_out: usize,
    /// What the change affects (against the management cluster), told under the summary.
    affected: Option<String>,
    /// Characters of the other Clusters' names kept, over every section.
    names_used: usize,
}

impl Comment {
    /// Take one Cluster's piece.
    pub fn add(&mut self, p: Piece) {
        let Some(row) = p.row else {
            return;
        };
        if self.rows.len() < MAX_ROWS && self.rows_used + row.len() < BUDGET / 4 {
            self.rows_used += row.len();
            self.rows.push(row);
        } else {
            self.rows_left_out += 1;
        }
        if p.body.is_empty() {
            return;
        }
        if let Some(s) = self
            .sections
            .iter_mut()
            .find(|s| s.signature == p.signature)
        {
            s.more += 1;
            if self.names_used + p.label.len() + 16 <= NAMES_BUDGET {
                self.names_used += p.label.len() + 16;
                s.others.push(p.label);
            }
            return;
        }
        // A section's own size, plus its summary line; the signature is kept to group later
        // Clusters, so it counts too.
        let cost = p.body.len() + p.label.len() + p.signature.len() + 100;
        if self.used + cost > BUDGET - BUDGET / 4 - NAMES_BUDGET - FINDINGS_BUDGET {
            self.sections_left_out += 1;
            return;
        }
        self.used += cost;
        self.sections.push(Section {
            signature: p.signature,
            label: p.label,
            body: p.body,
            more: 0,
            others: Vec::new(),
        });
    }

    /// Tell what the change affects under the summary.
    pub fn affected(&mut self, a: &crate::plan::affected::Affected) {
        self.affected = Some(crate::output::affected::markdown(a));
    }

    /// The comment: `title`, the `summary` line, what the change affects, the table, the
    /// sections and the run's `warnings` (collapsed).
    pub fn finish(self, title: &str, summary: &str, warnings: &[Diagnostic]) -> String {
        let mut out = format!("### {title}\n\n**{}**\n\n", summary.trim_end());
        if let Some(a) = &self.affected {
            out.push_str(a);
            out.push('\n');
        }
        if self.rows.is_empty() && self.rows_left_out == 0 {
            out.push_str("No Cluster changes.\n");
            out.push_str(&warnings_section(warnings));
            return out;
        }
        out.push_str("| Cluster | ClusterClass | Create | Modify | Delete | Rolls out |\n");
        out.push_str("|---|---|---:|---:|---:|---|\n");
        for r in &self.rows {
            out.push_str(r);
        }
        if self.rows_left_out > 0 {
            let _ = writeln!(
                out,
                "\n… and {} more changed Cluster(s), not listed.",
                self.rows_left_out
            );
        }
        out.push('\n');
        for s in &self.sections {
            let same = match s.more {
                0 => String::new(),
                1 => " — and the same change in 1 more Cluster".to_string(),
                n => format!(" — and the same change in {n} more Clusters"),
            };
            let _ = write!(
                out,
                "<details><summary><code>{}</code>{same}</summary>\n\n{}",
                s.label, s.body
            );
            if s.more > 0 {
                let _ = write!(
                    out,
                    "<details><summary>The other {}</summary>\n\n",
                    if s.more == 1 {
                        "Cluster".to_string()
                    } else {
                        format!("{} Clusters", s.more)
                    }
                );
                for o in &s.others {
                    let _ = writeln!(out, "- `{o}`");
                }
                if s.others.len() < s.more {
                    let _ = writeln!(
                        out,
                        "- … and {} more (`-o json` names every one)",
                        s.more - s.others.len()
                    );
                }
                out.push_str("\n</details>\n\n");
            }
            out.push_str("</details>\n\n");
        }
        if self.sections_left_out > 0 {
            let _ = writeln!(
                out,
                "… the changes of {} more Cluster(s) are not shown: a comment holds at most {BUDGET} characters. `-o json` has every diff.",
                self.sections_left_out
            );
        }
        out.push_str(&warnings_section(warnings));
        out
    }
}

/// One finding as a line of text: `file:line:col: error[code]: message`, then its help.
fn finding(d: &Diagnostic) -> String {
    let kind = if d.is_error() { "error" } else { "warning" };
    let mut s = match d.position() {
        Some((file, line, col)) => format!("{file}:{line}:{col}: "),
        None => String::new(),
    };
    let _ = write!(s, "{kind}[{}]: {}", d.code.name(), d.message);
    if let Some(h) = &d.help {
        let _ = write!(s, "\n  help: {h}");
    }
    let mut s = escape(&s).into_owned();
    if s.len() > MAX_FINDING {
        let mut cut = MAX_FINDING;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}

/// The first [`MAX_FINDINGS`] of `list` in a fenced block, the rest counted.
fn findings_block(list: &[&Diagnostic], what: &str) -> String {
    let lines: Vec<String> = list.iter().take(MAX_FINDINGS).map(|d| finding(d)).collect();
    let text = lines.join("\n");
    let fence = fence_for(&text);
    let mut out = format!("{fence}text\n{text}\n{fence}\n");
    if list.len() > MAX_FINDINGS {
        let _ = writeln!(
            out,
            "\n… and {} more {what}; the job's log has every one.",
            list.len() - MAX_FINDINGS
        );
    }
    out
}

/// The warnings, collapsed; nothing when there are none.
fn warnings_section(warnings: &[Diagnostic]) -> String {
    let list: Vec<&Diagnostic> = warnings.iter().filter(|d| !d.is_error()).collect();
    if list.is_empty() {
        return String::new();
    }
    format!(
        "\n<details><summary>{} warning{}</summary>\n\n{}\n</details>\n",
        list.len(),
        if list.len() == 1 { "" } else { "s" },
        findings_block(&list, "warnings")
    )
}

/// The comment of a run that failed: `title`, how many errors, the first of them with their
/// file:line:col, and the warnings (collapsed), so a failing pull request is told why.
pub fn failed(title: &str, diagnostics: &[Diagnostic]) -> String {
    let (errors, warnings): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
        diagnostics.iter().partition(|d| d.is_error());
    let mut out = format!(
        "### {title}\n\n**Failed: {} error{}; nothing was planned.**\n\n",
        errors.len(),
        if errors.len() == 1 { "" } else { "s" }
    );
    out.push_str(&findings_block(&errors, "errors"));
    let warnings: Vec<Diagnostic> = warnings.into_iter().cloned().collect();
    out.push_str(&warnings_section(&warnings));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outlasts_any_backticks_inside() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ``` b"), "````");
        assert_eq!(fence_for("`````"), "``````");
    }

    #[test]
    fn names_that_differ_by_construction_are_ignored() {
        assert_eq!(
            anonymous("-        name: bench-1-md-0-vbgcb", "bench-1"),
            "-        name: <cluster>-md-0-<suffix>"
        );
        assert_eq!(anonymous("+  replicas: 3", "c"), "+  replicas: 3");
        assert_eq!(anonymous("x: bench-10-md-0", "bench-1"), "x: bench-10-md-0");
        assert_eq!(anonymous("c c.c", "c"), "<cluster> <cluster>.<cluster>");
    }

    #[test]
    fn cells_cannot_break_the_table() {
        assert_eq!(cell("a|b\nc"), "a\\|b\\nc");
    }

    #[test]
    fn identical_changes_share_a_section_and_the_budget_holds() {
        let mut c = Comment::default();
        let p = |label: &str, sig: &str, body: &str| Piece {
            row: Some(format!("| {label} |\n")),
            signature: sig.into(),
            body: body.into(),
            label: label.into(),
        };
        c.add(p("a", "s1", "one"));
        c.add(p("b", "s1", "one"));
        c.add(p("c", "s2", &"x".repeat(BUDGET)));
        let text = c.finish("t", "sum", &[]);
        assert!(text.contains("<code>a</code> — and the same change in 1 more Cluster</summary>"));
        assert!(text.contains("<details><summary>The other Cluster</summary>\n\n- `b`\n"));
        assert!(text.contains("the changes of 1 more Cluster(s) are not shown"));
        assert!(text.len() < BUDGET + 2_000);
    }

    #[test]
    fn the_names_of_grouped_clusters_stay_within_their_budget() {
        let mut c = Comment::default();
        for i in 0..10_000 {
            c.add(Piece {
                row: Some(String::new()),
                signature: "s".into(),
                body: "b".into(),
                label: format!("default/cluster-{i:05}"),
            });
        }
        let text = c.finish("t", "sum", &[]);
        assert!(text.contains("The other 9999 Clusters"));
        assert!(text.contains("- `default/cluster-00001`\n"));
        assert!(text.contains("more (`-o json` names every one)"));
        assert!(text.len() < BUDGET, "{}", text.len());
    }

    #[test]
    fn a_failure_lists_its_first_errors_and_collapses_warnings() {
        use crate::diag::Code;
        let mut d: Vec<Diagnostic> = (0..25)
            .map(|i| Diagnostic::error(Code::Usage, format!("bad {i}")))
            .collect();
        d.push(Diagnostic::warning(Code::Usage, "careful ```"));
        let text = failed("topoplan plan", &d);
        assert!(text.starts_with("### topoplan plan\n\n**Failed: 25 errors;"));
        assert!(text.contains("error[topoplan::usage]: bad 19\n"));
        assert!(!text.contains("bad 20"));
        assert!(text.contains("… and 5 more errors"));
        assert!(text.contains("<details><summary>1 warning</summary>\n\n````text\n"));
    }
}
