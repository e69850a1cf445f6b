/*!
What `topoplan validate` prints: the findings document (`--output json`, kind `Validation`), the
defaulted objects (`--output yaml`) and the JUnit report (`--output junit`).
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
                "code": f.diagnostic.code.name(),
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

/// The JUnit report: a case per ClusterClass and Cluster of the input (in input order), each
/// with its findings; findings of no such object in a case named after their file.
pub fn junit(v: &Validation, objects: &[Object]) -> String {
    use crate::output::junit::{Case, render};
    let mut cases: Vec<Case> = objects
        .iter()
        .filter(|o| {
            matches!(o.kind.as_str(), "ClusterClass" | "Cluster") && o.group() == crate::api::GROUP
        })
        .map(|o| Case::new(&o.kind, format!("{}/{}", o.namespace, o.name)))
        .collect();
    for f in &v.findings {
        let key = format!("{}/{}", f.namespace, f.name);
        match cases
            .iter_mut()
            .find(|c| !f.kind.is_empty() && c.classname == f.kind && c.name == key)
        {
            Some(c) => c.add(&f.diagnostic),
            None => {
                let file = f
                    .diagnostic
                    .position()
                    .map_or_else(|| "input".to_string(), |(file, _, _)| file);
                match cases
                    .iter_mut()
                    .find(|c| c.classname == "input" && c.name == file)
                {
                    Some(c) => c.add(&f.diagnostic),
                    None => {
                        let mut c = Case::new("input", file);
                        c.add(&f.diagnostic);
                        cases.push(c);
                    }
                }
            }
        }
    }
    render("topoplan validate", &cases, &[])
}
