/*!
How a review (`topoplan diff`) is shown: per changed Cluster, the objects that change with why,
what rolls out and what is deferred, then the diffs; unchanged Clusters are only counted. The
last line sums up the fleet. The JSON/YAML form is the plan document with a `summary` and the
lists of added and removed Clusters.
*/

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::escape::escape_line as esc;
use crate::plan::Action;
use crate::plan::review::{Review, summary};

/// The human review. `stat` prints one line per changed Cluster.
pub fn render(r: &Review, color: bool, stat: bool) -> String {
    let mut out = String::new();
    for c in r.plan.clusters.iter().filter(|c| c.has_changes()) {
        let count = |a: Action| c.objects.iter().filter(|o| o.action == a).count();
        let key = (c.namespace.clone(), c.name.clone());
        let what = if r.added.contains(&key) {
            "new Cluster, "
        } else if r.removed.contains(&key) {
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
        if stat {
            continue;
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
        for o in &c.objects {
            if let Some(d) = crate::output::table::object_diff(o, color) {
                for line in d.lines() {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
        out.push('\n');
    }
    let s = summary(r);
    let n = |k: &str| s.get(k).and_then(Value::as_u64).unwrap_or(0);
    let plural = |k: &str, one: &str, many: &str| {
        let v = n(k);
        format!("{v} {}", if v == 1 { one } else { many })
    };
    let _ = writeln!(
        out,
        "{}: {} changed, {} unchanged ({} added, {} removed); {} in {}, {} deferred.",
        plural("clusters", "Cluster", "Clusters"),
        n("changed"),
        n("unchanged"),
        n("added"),
        n("removed"),
        plural("rollouts", "rollout", "rollouts"),
        plural("clustersRollingOut", "Cluster", "Clusters"),
        n("deferredRollouts")
    );
    out
}

/// The review as a document: the plan document (kind `Review`) plus `summary`, `added` and
/// `removed`.
pub fn document(r: &Review) -> Value {
    let mut doc = crate::output::document::build(&r.plan, false);
    if let Some(m) = doc.as_object_mut() {
        m.insert("kind".into(), json!("Review"));
        m.insert("summary".into(), summary(r));
        let list = |s: &std::collections::BTreeSet<(String, String)>| -> Value {
            s.iter()
                .map(|(ns, n)| json!({"namespace": ns, "name": n}))
                .collect()
        };
        m.insert("added".into(), list(&r.added));
        m.insert("removed".into(), list(&r.removed));
    }
    doc
}
