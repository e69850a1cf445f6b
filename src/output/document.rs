/*!
The plan document printed by `--output json|yaml`.

Format `topoplan.dev/v1alpha1`, kind `Plan` (documented in the README, "Plan document"):

```yaml
apiVersion: topoplan.dev/v1alpha1
kind: Plan
clusters:
- namespace: default
  name: my-cluster
  clusterClass: {namespace: default, name: quick-start}
  source: flavor.yaml          # only when several files define this Cluster (flavors)
  summary: {created: 10, modified: 1, unchanged: 0, deleted: 0}
  objects:
  - action: created            # created | modified | unchanged | deleted
    role: ControlPlane         # what the object is for in the topology
    apiVersion: ...
    kind: ...
    namespace: ...
    name: ...
    object: {...}              # the full object
warnings:
- message: ...
  file: ...                    # present when the warning has a location
  line: 1
  column: 1
```
Fields are only ever added within a version; a change that removes or renames one bumps it.
*/

use serde_json::{Map, Value, json};

use crate::diag::Diagnostic;
use crate::plan::{Action, Plan};

/// The document's apiVersion.
pub const API_VERSION: &str = "topoplan.dev/v1alpha1";

/// Build the plan document.
pub fn build(plan: &Plan) -> Value {
    let clusters: Vec<Value> = plan
        .clusters
        .iter()
        .map(|c| {
            let count = |a: Action| c.objects.iter().filter(|o| o.action == a).count();
            let objects: Vec<Value> = c
                .objects
                .iter()
                .map(|o| {
                    json!({
                        "action": o.action.as_str(),
                        "role": o.role.id(),
                        "apiVersion": o.api_version(),
                        "kind": o.kind(),
                        "namespace": o.namespace(),
                        "name": o.name(),
                        "object": o.object,
                    })
                })
                .collect();
            let mut doc = json!({
                "namespace": c.namespace,
                "name": c.name,
                "clusterClass": {"namespace": c.class.0, "name": c.class.1},
                "summary": {
                    "created": count(Action::Created),
                    "modified": count(Action::Modified),
                    "unchanged": count(Action::Unchanged),
                    "deleted": count(Action::Deleted),
                },
                "objects": objects,
            });
            if let (Some(src), Some(m)) = (&c.source, doc.as_object_mut()) {
                m.insert("source".into(), json!(src));
            }
            doc
        })
        .collect();
    json!({
        "apiVersion": API_VERSION,
        "kind": "Plan",
        "clusters": clusters,
        "warnings": plan.warnings.iter().map(diagnostic).collect::<Vec<_>>(),
    })
}

/// A diagnostic as a JSON object (message, severity, help, file, line, column).
pub fn diagnostic(d: &Diagnostic) -> Value {
    let mut m = Map::new();
    m.insert("severity".into(), json!(if d.is_error() { "error" } else { "warning" }));
    m.insert("message".into(), json!(d.message));
    if let Some(h) = &d.help {
        m.insert("help".into(), json!(h));
    }
    if let Some((file, line, column)) = d.position() {
        m.insert("file".into(), json!(file));
        m.insert("line".into(), json!(line));
        m.insert("column".into(), json!(column));
    }
    Value::Object(m)
}

/// The document as pretty JSON with a trailing newline.
pub fn to_json(plan: &Plan) -> String {
    let mut s = serde_json::to_string_pretty(&build(plan)).unwrap_or_default();
    s.push('\n');
    s
}

/// The document as YAML.
pub fn to_yaml(plan: &Plan) -> String {
    crate::load::yaml::to_yaml(&build(plan))
}
