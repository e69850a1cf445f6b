//! The human table: per Cluster, one row per object (NAMESPACE KIND NAME ACTION).

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};

use crate::plan::{Action, Plan};

/// Render the plan as text. `color` adds ANSI colours to the ACTION column.
pub fn render(plan: &Plan, color: bool) -> String {
    let mut out = String::new();
    for (i, c) in plan.clusters.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let from = c
            .source
            .as_deref()
            .map(|f| format!(", from {f}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "Cluster {}/{} (ClusterClass {}/{}{from}):",
            c.namespace, c.name, c.class.0, c.class.1
        );
        let header = ["NAMESPACE", "KIND", "NAME", "ACTION"];
        let rows: Vec<[&str; 4]> = c
            .objects
            .iter()
            .map(|o| [o.namespace(), o.kind(), o.name(), o.action.as_str()])
            .collect();
        let mut widths = header.map(str::len);
        for r in &rows {
            for (w, cell) in widths.iter_mut().zip(r) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |out: &mut String, cells: [&str; 4], action: Option<Action>| {
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
            out.push('\n');
        };
        line(&mut out, header, None);
        for (r, o) in rows.iter().zip(&c.objects) {
            line(&mut out, *r, Some(o.action));
        }
        let count = |a: Action| c.objects.iter().filter(|o| o.action == a).count();
        let _ = writeln!(
            out,
            "{} to create, {} to modify, {} unchanged, {} to delete.",
            count(Action::Created),
            count(Action::Modified),
            count(Action::Unchanged),
            count(Action::Deleted)
        );
    }
    out
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
