/*!
What `topoplan validate` prints: the findings document (`--output json`, kind `Validation`) and
the defaulted objects (`--output yaml`).
*/

use serde_json::{Value, json};

use crate::diag::Severity;
use crate::load::Object;
use crate::validate::run::Validation;

/// The `--output json` document (format `topoplan.dev/v1alpha1`, kind `Validation`).
pub fn document(v: &Validation) -> Value {
    let findings: Vec<Value> = v
        .findings
        .iter()
        .map(|f| {
            let mut o = json!({
                "severity": match f.severity() { Severity::Error => "error", Severity::Warning => "warning" },
                "kind": f.kind,
                "namespace": f.namespace,
                "name": f.name,
                "path": f.path,
                "message": f.message,
            });
            if let (Some((file, line, column)), Some(m)) = (f.diagnostic.position(), o.as_object_mut()) {
                m.insert("file".into(), json!(file));
                m.insert("line".into(), json!(line));
                m.insert("column".into(), json!(column));
            }
            o
        })
        .collect();
    json!({
        "apiVersion": crate::output::document::API_VERSION,
        "kind": "Validation",
        "valid": !v.has_errors(),
        "findings": findings,
    })
}

/// The objects as a YAML stream (`---` between documents), as a server-side dry-run apply would
/// store them.
pub fn objects_yaml(objects: &[Object]) -> String {
    let docs: Vec<String> = objects
        .iter()
        .map(|o| crate::load::yaml::to_yaml(&o.value))
        .collect();
    docs.join("---\n")
}
