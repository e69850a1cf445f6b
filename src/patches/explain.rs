/*!
What the patch engine did, for `plan --explain`: per patch and per template, whether the patch
applied (and which operations) or why it was skipped.

Owns the trace types and their text rendering; the engine fills them in as it runs.
*/

use std::fmt::Write as _;

use crate::escape::escape_line as esc;

/// What one patch did to one template.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The patch applied these operations: RFC 6902 operations as sent, a merge patch as
    /// `{"op": "merge", "value": <patch>}`.
    Applied(Vec<serde_json::Value>),
    /// The patch did not apply, and why.
    Skipped(String),
}

/// The longest value the text shows in full; longer ones are cut (the whole object is in the
/// plan's `-o yaml`, the whole value in the plan document's `patches`).
const VALUE_LIMIT: usize = 200;

/// `v` as one line of compact JSON, cut after [`VALUE_LIMIT`] bytes.
fn short_json(v: &serde_json::Value) -> String {
    let text = v.to_string();
    if text.len() <= VALUE_LIMIT {
        return text;
    }
    let mut end = VALUE_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// One operation as a line: `op path` plus its value (`add`, `replace`, `test`) or source
/// (`move`, `copy`); a merge patch whole.
pub fn describe_op(op: &serde_json::Value) -> String {
    let s = |k: &str| op.get(k).and_then(serde_json::Value::as_str).unwrap_or("");
    let kind = s("op");
    match kind {
        "merge" => format!(
            "merge patch {}",
            short_json(op.get("value").unwrap_or(&serde_json::Value::Null))
        ),
        "move" | "copy" => format!("{kind} {} from {}", s("path"), s("from")),
        "remove" => format!("{kind} {}", s("path")),
        _ => match op.get("value") {
            Some(v) => format!("{kind} {} = {}", s("path"), short_json(v)),
            None => format!("{kind} {}", s("path")),
        },
    }
}

/// The traces as plan-document data: per patch, per template, the operations (whole values)
/// or the reason it was skipped.
pub fn to_json(traces: &[PatchTrace]) -> serde_json::Value {
    use serde_json::json;
    traces
        .iter()
        .map(|t| {
            let templates: Vec<serde_json::Value> = t
                .items
                .iter()
                .map(|i| match &i.outcome {
                    Outcome::Applied(ops) => json!({
                        "object": i.object, "kind": i.kind, "name": i.name, "applied": true,
                        "operations": ops,
                    }),
                    Outcome::Skipped(why) => json!({
                        "object": i.object, "kind": i.kind, "name": i.name, "applied": false,
                        "reason": why,
                    }),
                })
                .collect();
            json!({"name": t.name, "index": t.index, "templates": templates})
        })
        .collect()
}

/// One template's entry under a patch.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemTrace {
    /// The desired object the template generates (its role id).
    pub object: String,
    /// The template's kind.
    pub kind: String,
    /// The name of the object generated from the template (as in the plan's table).
    pub name: String,
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

/// `Role (Kind name)`: what the template is for and the object it generates.
fn label(i: &ItemTrace) -> String {
    if i.name.is_empty() {
        format!("{} ({})", esc(&i.object), esc(&i.kind))
    } else {
        format!("{} ({} {})", esc(&i.object), esc(&i.kind), esc(&i.name))
    }
}

/// Text for `plan --explain`: one block per patch, one line per template.
pub fn render(cluster: &str, traces: &[PatchTrace]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Patches of Cluster {}:", esc(cluster));
    if traces.is_empty() {
        let _ = writeln!(out, "  (the class has no patches)");
    }
    for t in traces {
        let name = format!("{:?}", t.name);
        let _ = writeln!(out, "  patch {} (spec.patches[{}]):", esc(&name), t.index);
        for i in &t.items {
            match &i.outcome {
                Outcome::Applied(ops) => {
                    let _ = writeln!(out, "    {}: applied", label(i));
                    for op in ops {
                        let _ = writeln!(out, "      {}", esc(&describe_op(op)));
                    }
                }
                Outcome::Skipped(why) => {
                    let _ = writeln!(out, "    {}: skipped: {}", label(i), esc(why));
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
                    name: "c-cp".into(),
                    outcome: Outcome::Applied(vec![
                        serde_json::json!({"op": "add", "path": "/spec/x", "value": 1}),
                    ]),
                },
                ItemTrace {
                    object: "InfrastructureCluster".into(),
                    kind: "DockerClusterTemplate".into(),
                    name: String::new(),
                    outcome: Outcome::Skipped("no definition selects it".into()),
                },
            ],
        };
        assert_eq!(
            render("ns/c", &[t]),
            "Patches of Cluster ns/c:\n  patch \"p\" (spec.patches[0]):\n    ControlPlane (KubeadmControlPlaneTemplate c-cp): applied\n      add /spec/x = 1\n    InfrastructureCluster (DockerClusterTemplate): skipped: no definition selects it\n"
        );
    }

    #[test]
    fn input_is_escaped() {
        let t = PatchTrace {
            index: 0,
            name: "p\u{7}".into(),
            items: vec![ItemTrace {
                object: "ControlPlane".into(),
                kind: "K".into(),
                name: "n\u{1b}]0;x".into(),
                outcome: Outcome::Skipped("why\r\u{9b}".into()),
            }],
        };
        let out = render("ns/c\u{202e}", &[t]);
        assert!(!out.chars().any(crate::escape::is_unsafe), "{out:?}");
        assert!(
            out.contains("(K n\\u001b]0;x): skipped: why\\u000d\\u009b"),
            "{out}"
        );
    }

    #[test]
    fn operations_show_values() {
        use serde_json::json;
        assert_eq!(
            describe_op(&json!({"op": "add", "path": "/spec/x", "value": {"a": [1, "b"]}})),
            "add /spec/x = {\"a\":[1,\"b\"]}"
        );
        assert_eq!(
            describe_op(&json!({"op": "remove", "path": "/spec/x"})),
            "remove /spec/x"
        );
        assert_eq!(
            describe_op(&json!({"op": "move", "path": "/spec/y", "from": "/spec/x"})),
            "move /spec/y from /spec/x"
        );
        assert_eq!(
            describe_op(&json!({"op": "merge", "value": {"spec": null}})),
            "merge patch {\"spec\":null}"
        );
        let long = describe_op(&json!({"op": "add", "path": "/p", "value": "é".repeat(150)}));
        assert!(long.ends_with("… (302 bytes)"), "{long}");
    }
}
