/*!
"Discovered variables", after the Variable discovery guidelines: each DiscoverVariables handler
the input's patches name is called with the patch's settings, and its variables must pass
Cluster API's variable-definition validation (names, metadata, structural schemas, defaults,
CEL: [`validate_cluster_class_variables`]) and must not share a name with an inline variable of
the class (a second definition Cluster API merges, or refuses as conflicting).

"Distinctive variable names": a name that is one plain lowercase word (`replicas`, `image`,
`version`, `files`: only the letters a–z) is likely to be declared by some other patch too, and
draws a warning; a qualified name (`imageRepository`, `aws-region`, `kubeadmMaxSurge`) does not.

"Avoid breaking changes": with `--baseline` (a saved DiscoverVariablesResponse of the previous
version), [`breaking_changes`] lists what would stop the reconciliation of existing Clusters: a
variable or object property removed, a type changed, an enum narrowed, a variable or property
that became required without a default.
*/

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::probe::Refusal;
use super::report::{Check, Status};
use super::subject::Subject;
use crate::k8s::field::{Path, aggregate};
use crate::runtime::DiscoverVariablesRequest;
use crate::variables::definitions::validate_cluster_class_variables;

const NAME: &str = "discovered-variables";

/// How deep schemas are compared.
const MAX_DEPTH: usize = 32;

/// Whether `name` is generic: one word of lowercase ASCII letters.
pub fn is_generic(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase())
}

fn name_of(v: &Value) -> &str {
    v.get("name").and_then(Value::as_str).unwrap_or("")
}

fn schema_of(v: &Value) -> &Value {
    v.pointer("/schema/openAPIV3Schema").unwrap_or(&Value::Null)
}

fn required(v: &Value) -> bool {
    v.get("required").and_then(Value::as_bool).unwrap_or(false)
}

/// What changed from `old` to `new` (lists of `ClusterClassVariable`s) that existing Clusters
/// may not survive.
pub fn breaking_changes(old: &[Value], new: &[Value]) -> Vec<String> {
    let new_by: BTreeMap<&str, &Value> = new.iter().map(|v| (name_of(v), v)).collect();
    let old_by: BTreeMap<&str, &Value> = old.iter().map(|v| (name_of(v), v)).collect();
    let mut out = Vec::new();
    for (name, o) in &old_by {
        let Some(n) = new_by.get(name) else {
            out.push(format!("variable {name:?} was removed"));
            continue;
        };
        if !required(o) && required(n) && schema_of(n).get("default").is_none() {
            out.push(format!(
                "variable {name:?} became required and has no default"
            ));
        }
        compare(schema_of(o), schema_of(n), name, 0, &mut out);
    }
    for (name, n) in &new_by {
        if !old_by.contains_key(name) && required(n) && schema_of(n).get("default").is_none() {
            out.push(format!(
                "new variable {name:?} is required and has no default"
            ));
        }
    }
    out
}

fn compare(old: &Value, new: &Value, at: &str, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH || old == new {
        return;
    }
    let ty = |s: &Value| s.get("type").and_then(Value::as_str).map(str::to_string);
    match (ty(old), ty(new)) {
        (Some(a), Some(b)) if a != b => {
            out.push(format!("{at}: type changed from {a} to {b}"));
            return;
        }
        (None, Some(b)) => out.push(format!("{at}: type narrowed to {b}")),
        _ => {}
    }
    if let Some(new_enum) = new.get("enum").and_then(Value::as_array) {
        match old.get("enum").and_then(Value::as_array) {
            None => out.push(format!(
                "{at}: enum added (only {} values allowed)",
                new_enum.len()
            )),
            Some(old_enum) => {
                let gone: Vec<String> = old_enum
                    .iter()
                    .filter(|v| !new_enum.contains(v))
                    .map(Value::to_string)
                    .collect();
                if !gone.is_empty() {
                    out.push(format!(
                        "{at}: enum narrowed, {} no longer allowed",
                        gone.join(", ")
                    ));
                }
            }
        }
    }
    let empty = serde_json::Map::new();
    let props = |s: &Value| {
        s.get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_else(|| empty.clone())
    };
    let (op, np) = (props(old), props(new));
    let open = new
        .get("additionalProperties")
        .is_some_and(|a| a != &json!(false))
        || new.get("x-kubernetes-preserve-unknown-fields") == Some(&json!(true));
    for (k, o) in &op {
        match np.get(k) {
            Some(n) => compare(o, n, &format!("{at}.{k}"), depth + 1, out),
            None if !open => out.push(format!("{at}.{k}: property removed")),
            None => {}
        }
    }
    let req = |s: &Value| -> Vec<String> {
        s.get("required")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let old_req = req(old);
    for r in req(new) {
        if !old_req.contains(&r) && np.get(&r).and_then(|p| p.get("default")).is_none() {
            out.push(format!(
                "{at}.{r}: property became required and has no default"
            ));
        }
    }
    if let (Some(o), Some(n)) = (old.get("items"), new.get("items")) {
        compare(o, n, &format!("{at}[]"), depth + 1, out);
    }
}

/// Judge the subject.
pub fn check(s: &Subject<'_>) -> Check {
    let mut answers = Vec::new();
    let mut seen: Vec<(String, BTreeMap<String, String>)> = Vec::new();
    for p in s.patches {
        let Some(h) = p.handler("DiscoverVariables").filter(|h| s.tests(h)) else {
            continue;
        };
        if seen.contains(&(h.to_string(), p.settings.clone())) {
            continue;
        }
        seen.push((h.to_string(), p.settings.clone()));
        let req = DiscoverVariablesRequest {
            settings: p.settings.clone(),
            ..DiscoverVariablesRequest::default()
        };
        answers.push((p, h, s.call(h, req)));
    }
    if answers.is_empty() {
        return Check::skipped(
            NAME,
            "no patch of the input discovers its variables from the extension",
        );
    }
    let mut warnings = Vec::new();
    let mut total = 0;
    let mut first_vars: Option<Vec<Value>> = None;
    for (p, h, probe) in &answers {
        let resp = match &probe.result {
            Ok(r) => r,
            Err(Refusal::Failure(m)) | Err(Refusal::Error(m)) => {
                return Check::new(NAME, Status::Failed, format!("{h}: {m}"))
                    .with("handler", json!(h));
            }
        };
        let vars = &resp.variables;
        total += vars.len();
        let errs =
            validate_cluster_class_variables(&[], vars, &Path::new(&p.name).child("variables"));
        if !errs.is_empty() {
            return Check::new(
                NAME,
                Status::Failed,
                format!(
                    "{h}: the discovered variables are invalid: {}",
                    aggregate(&errs)
                ),
            )
            .with("handler", json!(h))
            .with("variables", json!(vars));
        }
        let clashes: Vec<&str> = vars
            .iter()
            .map(name_of)
            .filter(|n| p.inline_variables.iter().any(|i| i == n))
            .collect();
        if !clashes.is_empty() {
            return Check::new(
                NAME,
                Status::Failed,
                format!(
                    "{h}: discovered variable(s) {} are also defined inline by ClusterClass {}",
                    clashes.join(", "),
                    p.class
                ),
            )
            .with("handler", json!(h))
            .with("clashes", json!(clashes));
        }
        for n in vars.iter().map(name_of).filter(|n| is_generic(n)) {
            warnings.push(format!(
                "{h}: variable {n:?} has a generic name; another patch may declare it too (prefer a qualified name, e.g. myExtension{}{})",
                n[..1].to_ascii_uppercase(),
                &n[1..]
            ));
        }
        if first_vars.is_none() {
            first_vars = Some(vars.clone());
        }
    }
    if let (Some(b), Some(new)) = (s.baseline, &first_vars) {
        let changes = breaking_changes(&b.variables, new);
        if !changes.is_empty() {
            let mut c = Check::new(
                NAME,
                Status::Failed,
                format!(
                    "breaking changes since {}: {}",
                    b.source,
                    changes.join("; ")
                ),
            )
            .with("baseline", json!(b.source))
            .with("breakingChanges", json!(changes));
            c.warnings = warnings;
            return c;
        }
    }
    let mut c = Check::new(
        NAME,
        Status::Passed,
        format!(
            "{total} variable(s) from {} handler(s): valid, no clash with inline variables{}",
            answers.len(),
            match s.baseline {
                Some(b) => format!(", no breaking change since {}", b.source),
                None => String::new(),
            }
        ),
    );
    c.warnings = warnings;
    c.with(
        "variables",
        json!(first_vars.iter().flatten().map(name_of).collect::<Vec<_>>()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, required: bool, schema: Value) -> Value {
        json!({"name": name, "required": required, "schema": {"openAPIV3Schema": schema}})
    }

    #[test]
    fn generic_names() {
        assert!(is_generic("replicas"));
        assert!(is_generic("files"));
        assert!(!is_generic("imageRepository"));
        assert!(!is_generic("aws-region"));
        assert!(!is_generic(""));
    }

    #[test]
    fn breaking_changes_between_versions() {
        let old = vec![
            var("a", false, json!({"type": "string", "enum": ["x", "y"]})),
            var("b", false, json!({"type": "integer"})),
            var(
                "c",
                false,
                json!({"type": "object", "properties": {"p": {"type": "string"}}}),
            ),
            var("gone", false, json!({"type": "string"})),
        ];
        let new = vec![
            var("a", false, json!({"type": "string", "enum": ["x"]})),
            var("b", false, json!({"type": "string"})),
            var(
                "c",
                true,
                json!({"type": "object", "properties": {}, "required": ["q"]}),
            ),
            var("fresh", true, json!({"type": "string"})),
            var("optional", true, json!({"type": "string", "default": "d"})),
        ];
        assert_eq!(
            breaking_changes(&old, &new),
            [
                "a: enum narrowed, \"y\" no longer allowed",
                "b: type changed from integer to string",
                "variable \"c\" became required and has no default",
                "c.p: property removed",
                "c.q: property became required and has no default",
                "variable \"gone\" was removed",
                "new variable \"fresh\" is required and has no default",
            ]
        );
        assert!(breaking_changes(&old, &old).is_empty());
    }
}
