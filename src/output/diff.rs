/*!
Unified diffs of objects: the current object against the object after the plan, as YAML, the
way a reviewer reads them.

Owns rendering (`similar`'s line diff with three lines of context, `--- current/…` and
`+++ planned/…` headers) and its colouring on a terminal. Which fields take part is decided by
the caller: plan diffs show only what the topology controller manages (see
`plan::ssa::for_display`), so status and server bookkeeping never appear.
*/

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use serde_json::Value;
use similar::{ChangeTag, TextDiff};

/// The unified diff from `old` to `new` (both rendered as YAML), labelled with `label` (e.g.
/// `MachineDeployment/default/md-0`); empty when they render the same.
pub fn unified(old: &Value, new: &Value, label: &str, color: bool) -> String {
    let a = crate::load::yaml::to_yaml(old);
    let b = crate::load::yaml::to_yaml(new);
    if a == b {
        return String::new();
    }
    let diff = TextDiff::from_lines(&a, &b);
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header(&format!("current/{label}"), &format!("planned/{label}"))
        .to_string();
    // Values and names come from input; YAML leaves bidi controls raw, the label is not YAML.
    let text = crate::escape::escape(&text).into_owned();
    if color { colorize(&text) } else { text }
}

/// Add ANSI colours to a unified diff: removals red, additions green, hunk headers cyan.
pub fn colorize(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len() + diff.len() / 4);
    for line in diff.split_inclusive('\n') {
        let style = if line.starts_with("+++") || line.starts_with("---") {
            Style::new().bold()
        } else if line.starts_with('+') {
            Style::new().fg_color(Some(AnsiColor::Green.into()))
        } else if line.starts_with('-') {
            Style::new().fg_color(Some(AnsiColor::Red.into()))
        } else if line.starts_with("@@") {
            Style::new().fg_color(Some(AnsiColor::Cyan.into()))
        } else {
            out.push_str(line);
            continue;
        };
        let body = line.strip_suffix('\n').unwrap_or(line);
        let _ = write!(out, "{style}{body}{style:#}");
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// Count of added and removed lines of a unified diff (for summaries).
pub fn stat(old: &Value, new: &Value) -> (usize, usize) {
    let a = crate::load::yaml::to_yaml(old);
    let b = crate::load::yaml::to_yaml(new);
    let diff = TextDiff::from_lines(&a, &b);
    let mut counts = (0, 0);
    for c in diff.iter_all_changes() {
        match c.tag() {
            ChangeTag::Insert => counts.0 += 1,
            ChangeTag::Delete => counts.1 += 1,
            ChangeTag::Equal => {}
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_objects_have_no_diff() {
        let v = json!({"spec": {"replicas": 1}});
        assert_eq!(unified(&v, &v, "x", false), "");
    }

    #[test]
    fn a_changed_field_is_one_removal_and_one_addition() {
        let a = json!({"kind": "MachineDeployment", "spec": {"replicas": 1, "paused": false}});
        let b = json!({"kind": "MachineDeployment", "spec": {"replicas": 3, "paused": false}});
        let d = unified(&a, &b, "MachineDeployment/default/md", false);
        assert!(d.starts_with("--- current/MachineDeployment/default/md\n+++ planned/MachineDeployment/default/md\n"), "{d}");
        assert!(d.contains("\n-  replicas: 1\n+  replicas: 3\n"), "{d}");
        assert_eq!(stat(&a, &b), (1, 1));
    }

    #[test]
    fn input_cannot_reach_the_terminal_raw() {
        let a = json!({"spec": {"x": "a"}});
        let b = json!({"spec": {"x": "b\u{202e}"}});
        let d = unified(&a, &b, "K/ns/n\u{1b}[2J", true);
        assert!(d.contains("n\\u001b[2J"), "{d:?}");
        assert!(!d.contains('\u{202e}'), "{d:?}");
    }

    #[test]
    fn colour_wraps_changed_lines_only() {
        let c = colorize("--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n z\n");
        assert!(c.contains("\u{1b}[31m-x\u{1b}[0m\n"), "{c:?}");
        assert!(c.contains("\u{1b}[32m+y\u{1b}[0m\n"), "{c:?}");
        assert!(c.ends_with(" z\n"));
    }
}
