/*!
What a change affects, as each format tells it: which ClusterClasses and Clusters a plan against
the management cluster (`--current`) planned, and how many stored Clusters it left alone.

Owns the wording and shape only; [`crate::plan::affected`] decides membership. Names are object
names the loader checked (DNS labels and subdomains), so they need no escaping in any format.
*/

use std::fmt::Write as _;

use serde::Serialize;

use crate::plan::affected::Affected;

/// How many Clusters the text formats name before summing up the rest (the documents name all).
const NAMED: usize = 20;

fn keys<'a>(set: impl IntoIterator<Item = &'a (String, String)>) -> Vec<String> {
    set.into_iter().map(|(ns, n)| format!("{ns}/{n}")).collect()
}

fn named(all: Vec<String>) -> String {
    let more = all.len().saturating_sub(NAMED);
    let mut s = all.into_iter().take(NAMED).collect::<Vec<_>>().join(", ");
    if more > 0 {
        let _ = write!(s, " and {more} more");
    }
    s
}

/// The lines the table ends with.
pub fn text(a: &Affected) -> String {
    let mut out = String::new();
    if a.all_current {
        let _ = writeln!(
            out,
            "Planned every stored Cluster (--all-current): {}.",
            count(a.clusters.len(), "Cluster")
        );
        return out;
    }
    let classes = if a.classes.is_empty() {
        "no ClusterClass".to_string()
    } else {
        format!(
            "{} ({})",
            count(a.classes.len(), "ClusterClass"),
            keys(&a.classes).join(", ")
        )
    };
    let clusters = if a.clusters.is_empty() {
        "no Cluster".to_string()
    } else {
        format!(
            "{} ({})",
            count(a.clusters.len(), "Cluster"),
            named(keys(&a.clusters))
        )
    };
    let _ = writeln!(
        out,
        "Affected by the change: {classes}; {clusters}. Left alone: {} stored {}.",
        a.left_alone,
        if a.left_alone == 1 {
            "Cluster"
        } else {
            "Clusters"
        }
    );
    out
}

/// The paragraph a pull-request comment carries under its summary.
pub fn markdown(a: &Affected) -> String {
    let line = text(a);
    let mut out = format!("{}\n", line.trim_end());
    if a.clusters.len() > NAMED {
        let _ = write!(
            out,
            "\n<details><summary>All {} affected Clusters</summary>\n\n{}\n\n</details>\n",
            a.clusters.len(),
            keys(&a.clusters).join(", ")
        );
    }
    out
}

/// JUnit properties of the suite.
pub fn properties(a: &Affected) -> Vec<(String, String)> {
    vec![
        ("affected.clusterClasses".into(), keys(&a.classes).join(",")),
        ("affected.clusters".into(), keys(&a.clusters).join(",")),
        (
            "affected.storedClustersLeftAlone".into(),
            a.left_alone.to_string(),
        ),
        ("affected.allCurrent".into(), a.all_current.to_string()),
    ]
}

/// `affected` in the plan document.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    cluster_classes: Vec<String>,
    clusters: Vec<String>,
    stored_clusters_left_alone: usize,
    all_current: bool,
}

impl Entry {
    /// The document's form of `a`.
    pub fn of(a: &Affected) -> Entry {
        Entry {
            cluster_classes: keys(&a.classes),
            clusters: keys(&a.clusters),
            stored_clusters_left_alone: a.left_alone,
            all_current: a.all_current,
        }
    }
}

fn count(n: usize, what: &str) -> String {
    match (n, what) {
        (1, w) => format!("1 {w}"),
        (n, "ClusterClass") => format!("{n} ClusterClasses"),
        (n, w) => format!("{n} {w}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn affected(classes: &[&str], clusters: usize, left_alone: usize) -> Affected {
        Affected {
            classes: classes.iter().map(|c| ("ns".into(), (*c).into())).collect(),
            clusters: (0..clusters)
                .map(|i| ("ns".into(), format!("c{i:02}")))
                .collect(),
            left_alone,
            all_current: false,
        }
    }

    #[test]
    fn text_names_classes_and_clusters() {
        assert_eq!(
            text(&affected(&["small"], 2, 1)),
            "Affected by the change: 1 ClusterClass (ns/small); 2 Clusters (ns/c00, ns/c01). Left alone: 1 stored Cluster.\n"
        );
        assert_eq!(
            text(&affected(&[], 0, 3)),
            "Affected by the change: no ClusterClass; no Cluster. Left alone: 3 stored Clusters.\n"
        );
        let many = text(&affected(&["a", "b"], 25, 0));
        assert!(
            many.contains("2 ClusterClasses (ns/a, ns/b); 25 Clusters (ns/c00,"),
            "{many}"
        );
        assert!(many.contains("ns/c19 and 5 more)."), "{many}");
        let md = markdown(&affected(&["a"], 25, 0));
        assert!(
            md.contains("<details><summary>All 25 affected Clusters"),
            "{md}"
        );
    }
}
