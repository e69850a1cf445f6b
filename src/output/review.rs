/*!
How a review (`topoplan diff`) is shown: per changed Cluster, the objects that change with why,
what rolls out and what is deferred, then the diffs; unchanged Clusters are only counted. The
last line sums up the fleet. The JSON/YAML form is the plan document with a `summary` and the
lists of added and removed Clusters.
*/

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::document::Show;
use super::stream::{self, Frame, Syntax};
use crate::diag::Diagnostic;
use crate::escape::escape_line as esc;
use crate::plan::review::{Counts, Membership, summary};
use crate::plan::{Action, ClusterPlan};

/// How much of each changed Cluster the human review shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// One line (`--stat`).
    Stat,
    /// The line, then the objects, rollouts and deferrals (an external program shows the
    /// diffs).
    Objects,
    /// All of that, then the unified diff of every changed object.
    Diffs,
}

/// One Cluster of the human review (nothing when it does not change).
pub fn cluster(c: &ClusterPlan, m: &Membership, color: bool, detail: Detail) -> String {
    let mut out = String::new();
    if c.has_changes() {
        let count = |a: Action| c.objects.iter().filter(|o| o.action == a).count();
        let key = (c.namespace.clone(), c.name.clone());
        let what = if m.added.contains(&key) {
            "new Cluster, "
        } else if m.removed.contains(&key) {
            "removed Cluster, "
        } else {
            ""
        };
        let rolling: Vec<String> = c
            .rollouts
            .iter()
            .filter(|x| !x.deferred)
            .map(|x| format!("{} {}", esc(&x.kind), esc(&x.name)))
            .collect();
        let rolls = if rolling.is_empty() {
            String::new()
        } else {
            format!("; rolls out: {}", rolling.join(", "))
        };
        let _ = writeln!(
            out,
            "Cluster {}/{} (ClusterClass {}/{}): {what}{} to create, {} to modify, {} to delete{rolls}",
            esc(&c.namespace),
            esc(&c.name),
            esc(&c.class.0),
            esc(&c.class.1),
            count(Action::Created),
            count(Action::Modified),
            count(Action::Deleted)
        );
        if detail == Detail::Stat {
            return out;
        }
        for o in c.objects.iter().filter(|o| o.action != Action::Unchanged) {
            let note = o
                .note
                .as_deref()
                .map(|n| format!("  ({})", esc(n)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {:<9} {} {}/{}{note}",
                o.action.as_str(),
                esc(o.kind()),
                esc(o.namespace()),
                esc(o.name())
            );
        }
        for x in &c.rollouts {
            let when = if x.deferred {
                "rolls out later"
            } else {
                "rolls out"
            };
            let _ = writeln!(
                out,
                "  {} {} {when}: {}",
                esc(&x.kind),
                esc(&x.name),
                esc(&x.reasons.join("; "))
            );
        }
        for (_, object, reason) in &c.deferred {
            let _ = writeln!(out, "  deferred: {}: {}", esc(object), esc(reason));
        }
        for o in c.objects.iter().filter(|_| detail == Detail::Diffs) {
            if let Some(d) = crate::output::table::object_diff(o, color) {
                for line in d.lines() {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
        out.push('\n');
    }
    out
}

/// The last line of the human review: the fleet summed up.
pub fn closing(c: &Counts) -> String {
    let plural =
        |v: usize, one: &str, many: &str| format!("{v} {}", if v == 1 { one } else { many });
    format!(
        "{}: {} changed, {} unchanged ({} added, {} removed); {} in {}, {} deferred.\n",
        plural(c.clusters, "Cluster", "Clusters"),
        c.changed,
        c.clusters - c.changed,
        c.added,
        c.removed,
        plural(c.rollouts, "rollout", "rollouts"),
        plural(c.clusters_rolling_out, "Cluster", "Clusters"),
        c.deferred_rollouts
    )
}

/// The `i`-th Cluster of the review document as JSON (keys sorted), streamed.
pub fn json_cluster(i: usize, c: &ClusterPlan, show: Show) -> Vec<u8> {
    stream::cluster_json(i, &crate::output::document::entry_value(c, show))
}

/// A Cluster of the review document as YAML, streamed.
pub fn yaml_cluster(c: &ClusterPlan, show: Show) -> Vec<u8> {
    stream::cluster_yaml(crate::output::document::entry_value(c, show))
}

/// The review document of a run that failed before any Cluster was printed: no Clusters, its
/// warnings and its `errors`.
pub fn failed(syntax: Syntax, diagnostics: &[Diagnostic]) -> String {
    let (errors, warnings): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
        diagnostics.iter().partition(|d| d.is_error());
    let list = |ds: Vec<&Diagnostic>| -> Vec<Value> {
        ds.into_iter()
            .map(crate::output::document::diagnostic)
            .collect()
    };
    stream::render(
        syntax,
        &json!({
            "apiVersion": crate::output::document::API_VERSION,
            "kind": "Review",
            "clusters": [],
            "warnings": list(warnings),
            "errors": list(errors),
        }),
    )
}

/// The review document around its Clusters: the plan document (kind `Review`) plus `summary`,
/// `added` and `removed`. Its head needs only the membership; counts and warnings are known at
/// the end.
pub fn frame(syntax: Syntax, m: &Membership, counts: &Counts, warnings: &[Diagnostic]) -> Frame {
    let list = |s: &std::collections::BTreeSet<(String, String)>| -> Value {
        s.iter()
            .map(|(ns, n)| json!({"namespace": ns, "name": n}))
            .collect()
    };
    let warnings: Vec<Value> = warnings
        .iter()
        .map(crate::output::document::diagnostic)
        .collect();
    Frame::cut(syntax, |clusters| {
        json!({
            "apiVersion": crate::output::document::API_VERSION,
            "kind": "Review",
            "clusters": clusters,
            "warnings": warnings,
            "summary": summary(counts),
            "added": list(&m.added),
            "removed": list(&m.removed),
        })
    })
}
