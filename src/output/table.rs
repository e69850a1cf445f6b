//! The human table: per Cluster, one row per object that changes (NAMESPACE KIND NAME ACTION,
//! and NOTE when some verdict needs explaining; unchanged objects only when asked, as terraform
//! hides them), then what rolls out, what is deferred, and the diff of every modified object.
//! (`plan --stat` prints `diff --stat`'s line instead: `output::review`.)

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};

use crate::escape::escape_line as esc;
use serde_json::Value;

use crate::plan::{Action, ClusterPlan};

/// The `i`-th Cluster's part of the table (from the second on, after an empty line); `diffs`
/// adds the unified diff of every changed object (not when an external program shows them);
/// `unchanged` lists unchanged objects too (they are always counted).
pub fn cluster(i: usize, c: &ClusterPlan, color: bool, diffs: bool, unchanged: bool) -> String {
    let mut out = String::new();
    {
        if i > 0 {
            out.push('\n');
        }
        let from = c
            .source
            .as_deref()
            .map(|f| format!(", from {}", esc(f)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "Cluster {}/{} (ClusterClass {}/{}{from}):",
            esc(&c.namespace),
            esc(&c.name),
            esc(&c.class.0),
            esc(&c.class.1)
        );
        let listed: Vec<&crate::plan::PlannedObject> = c
            .objects
            .iter()
            .filter(|o| unchanged || o.action != Action::Unchanged)
            .collect();
        let notes = listed.iter().any(|o| o.note.is_some());
        let header = ["NAMESPACE", "KIND", "NAME", "ACTION", "NOTE"];
        // Every cell comes from input: escaped, so a name cannot act on the terminal.
        let cells: Vec<[std::borrow::Cow<'_, str>; 5]> = listed
            .iter()
            .map(|o| {
                [
                    esc(o.namespace()),
                    esc(o.kind()),
                    esc(o.name()),
                    o.action.as_str().into(),
                    esc(o.note.as_deref().unwrap_or("")),
                ]
            })
            .collect();
        let rows: Vec<[&str; 5]> = cells.iter().map(|r| r.each_ref().map(|c| &**c)).collect();
        let mut widths = header.map(str::len);
        for r in &rows {
            for (w, cell) in widths.iter_mut().zip(r) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |out: &mut String, cells: [&str; 5], action: Option<Action>| {
            for (j, cell) in cells.iter().enumerate().take(3) {
                let _ = write!(out, "{cell:<w$}  ", w = widths[j]);
            }
            match (action, color) {
                (Some(a), true) => {
                    let s = style(a);
                    let _ = write!(out, "{s}{}{s:#}", cells[3]);
                }
                _ => out.push_str(cells[3]),
            }
            if notes && !cells[4].is_empty() {
                let pad = widths[3] - cells[3].chars().count();
                let _ = write!(out, "{:pad$}  {}", "", cells[4]);
            }
            out.push('\n');
        };
        if !listed.is_empty() {
            line(&mut out, header, None);
        }
        for (r, o) in rows.iter().zip(&listed) {
            line(&mut out, *r, Some(o.action));
        }
        let count = |a: Action| c.objects.iter().filter(|o| o.action == a).count();
        for r in &c.rollouts {
            let when = if r.deferred {
                "rolls out later"
            } else {
                "rolls out"
            };
            let _ = writeln!(
                out,
                "{} {} {when}: {}",
                esc(&r.kind),
                esc(&r.name),
                esc(&r.reasons.join("; "))
            );
        }
        for (_, object, reason) in &c.deferred {
            let _ = writeln!(out, "Deferred: {}: {}", esc(object), esc(reason));
        }
        let rollouts = match c.rollouts.iter().filter(|r| !r.deferred).count() {
            0 => String::new(),
            1 => ", 1 rollout".to_string(),
            n => format!(", {n} rollouts"),
        };
        let _ = writeln!(
            out,
            "{} to create, {} to modify, {} unchanged, {} to delete{rollouts}.",
            count(Action::Created),
            count(Action::Modified),
            count(Action::Unchanged),
            count(Action::Deleted)
        );
        for o in c.objects.iter().filter(|_| diffs) {
            if let Some(d) = object_diff(o, color) {
                out.push('\n');
                out.push_str(&d);
            }
        }
    }
    out
}

/// The fleet's totals, after the per-Cluster tables of a plan with more than one Cluster.
pub fn totals(t: &crate::plan::Totals) -> String {
    let n = |v: usize, one: &str, many: &str| format!("{v} {}", if v == 1 { one } else { many });
    format!(
        "Plan: {}, {} changing: {} to create, {} to modify, {} to delete; {} in {}, {} deferred.\n",
        n(t.clusters, "Cluster", "Clusters"),
        t.changed,
        t.created,
        t.modified,
        t.deleted,
        n(t.rollouts, "rollout", "rollouts"),
        n(t.clusters_rolling_out, "Cluster", "Clusters"),
        t.deferred_rollouts
    )
}

/// The diff of a modified object (its managed fields now and after the plan), or of a template
/// created by rotation against the template it replaces (the change that made the rotation).
pub fn object_diff(o: &crate::plan::PlannedObject, color: bool) -> Option<String> {
    let (label, before, after) = compared(o)?;
    let d = crate::output::diff::unified(&before, &after, &label, color);
    (!d.is_empty()).then_some(d)
}

/// What a reviewer compares for `o`, when anything: a label and the two sides, as the
/// comparison saw them. A modified object is its managed fields now and after the plan; a
/// template created by rotation is compared with the template it replaces, under the new name
/// (the rename is the rotation, not the change).
pub fn compared(o: &crate::plan::PlannedObject) -> Option<(String, Value, Value)> {
    let before = o.current.as_ref()?;
    let (label, before) = match (o.action, &o.rotated_from) {
        (Action::Modified, _) => (
            format!("{}/{}/{}", o.kind(), o.namespace(), o.name()),
            std::borrow::Cow::Borrowed(before),
        ),
        (Action::Created, Some(old)) => {
            let mut b = before.clone();
            crate::json::set_path(&mut b, &["metadata", "name"], o.name().into());
            (
                format!(
                    "{}/{}/{} (replaces {old})",
                    o.kind(),
                    o.namespace(),
                    o.name()
                ),
                std::borrow::Cow::Owned(b),
            )
        }
        _ => return None,
    };
    let (before, after) = crate::plan::ssa::display_pair(&before, &o.object);
    Some((label, before, after))
}

fn style(a: Action) -> Style {
    let color = match a {
        Action::Created => AnsiColor::Green,
        Action::Modified => AnsiColor::Yellow,
        Action::Unchanged => return Style::new().dimmed(),
        Action::Deleted => AnsiColor::Red,
    };
    Style::new().fg_color(Some(color.into()))
}
