/*!
What the patch engine did, for `plan --explain`: per patch and per template, whether the patch
applied (and which operations) or why it was skipped.

Owns the trace types and their text rendering; the engine fills them in as it runs.
*/

use std::fmt::Write as _;

/// What one patch did to one template.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The patch applied these operations (`add /spec/...`, or `merge patch`).
    Applied(Vec<String>),
    /// The patch did not apply, and why.
    Skipped(String),
}

/// One template's entry under a patch.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemTrace {
    /// The desired object the template generates (its role id).
    pub object: String,
    /// The template's kind.
    pub kind: String,
    /// What happened.
    pub outcome: Outcome,
}

/// One patch of the class.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchTrace {
    /// Position in `spec.patches`.
    pub index: usize,
    /// Patch name.
    pub name: String,
    /// One entry per request item, in request order.
    pub items: Vec<ItemTrace>,
}

/// Text for `plan --explain`: one block per patch, one line per template.
pub fn render(cluster: &str, traces: &[PatchTrace]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Patches of Cluster {cluster}:");
    if traces.is_empty() {
        let _ = writeln!(out, "  (the class has no patches)");
    }
    for t in traces {
        let _ = writeln!(out, "  patch {:?} (spec.patches[{}]):", t.name, t.index);
        for i in &t.items {
            match &i.outcome {
                Outcome::Applied(ops) => {
                    let _ = writeln!(out, "    {} ({}): applied", i.object, i.kind);
                    for op in ops {
                        let _ = writeln!(out, "      {op}");
                    }
                }
                Outcome::Skipped(why) => {
                    let _ = writeln!(out, "    {} ({}): skipped: {why}", i.object, i.kind);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders() {
        let t = PatchTrace {
            index: 0,
            name: "p".into(),
            items: vec![
                ItemTrace {
                    object: "ControlPlane".into(),
                    kind: "KubeadmControlPlaneTemplate".into(),
                    outcome: Outcome::Applied(vec!["add /spec/x".into()]),
                },
                ItemTrace {
                    object: "InfrastructureCluster".into(),
                    kind: "DockerClusterTemplate".into(),
                    outcome: Outcome::Skipped("no definition selects it".into()),
                },
            ],
        };
        assert_eq!(
            render("ns/c", &[t]),
            "Patches of Cluster ns/c:\n  patch \"p\" (spec.patches[0]):\n    ControlPlane (KubeadmControlPlaneTemplate): applied\n      add /spec/x\n    InfrastructureCluster (DockerClusterTemplate): skipped: no definition selects it\n"
        );
    }
}
