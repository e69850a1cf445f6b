/*!
The API server's view of the objects a plan generates: each desired object a CRD serves (the
provider CRDs given, Cluster API's built in) is pruned, defaulted and validated as the topology
controller's apply would have it, on a copy; the plan itself keeps the object as generated.

Owns the check and its wording: a refused object is an error naming the Cluster, the object,
the field path, the API server's message and, when the patch traces show one, the patch that
wrote the field (located at that patch in the class); a field the API server would drop is a
warning. Templates read from the input were already admitted (`validate::run`); this catches
what patches write into them, which is what only a running management cluster finds out.
*/

use serde_json::Value;

use crate::api::{Cluster, ClusterClass};
use crate::diag::{Code, Diagnostic};
use crate::k8s::field::FieldError;
use crate::patches::explain::{Outcome, PatchTrace};
use crate::topology::{DesiredState, Role};

/// What the check found for one Cluster: errors (objects the API server would refuse) and
/// warnings (fields it would drop).
#[derive(Debug, Default)]
pub struct Checked {
    /// One per refused field.
    pub errors: Vec<Diagnostic>,
    /// One per dropped field.
    pub warnings: Vec<Diagnostic>,
}

/// Check every object of `desired` that a provider's CRD serves (objects from templates, which
/// patches write); contents `clean` already knows are not checked again.
pub fn check(
    cluster: &Cluster,
    class: &ClusterClass,
    desired: &DesiredState,
    traces: &[PatchTrace],
    crds: &crate::crd::Crds,
    clean: &crate::crd::Clean,
) -> Checked {
    let mut out = Checked::default();
    for o in &desired.objects {
        if matches!(o.role, Role::Cluster | Role::ClusterShim) {
            continue;
        }
        let Some(s) = crds.for_object(&o.value) else {
            continue;
        };
        // Cluster API's own objects (MachineDeployments, MachinePools, health checks) are
        // built from the Cluster and the class, both admitted by the same schemas, and no patch
        // writes them: what could be wrong in them was refused at admission.
        if crds.is_builtin(o.api_version(), o.kind()) {
            continue;
        }
        let key = crate::crd::Clean::key(s, &o.value, crate::crd::Skip::Metadata);
        if clean.contains(&key) {
            continue;
        }
        let mut copy = o.value.clone();
        // The topology controller's apply goes through the same defaulting webhooks.
        let round_trip = crds.round_trips(o.api_version(), o.kind());
        let admitted = crate::crd::admit_with(&mut copy, None, s, round_trip);
        if admitted.pruned.is_empty() && admitted.is_valid() {
            clean.insert(key);
        }
        let what = format!("{} {}/{}", o.kind(), o.namespace(), o.name());
        for path in &admitted.pruned {
            let writer = writer(
                &o.role,
                &crate::k8s::field::Path::dotted_pointer(path),
                traces,
            );
            let mut d = Diagnostic::warning(
                Code::SchemaPruned,
                format!(
                    "Cluster {}: {what}: unknown field \"{path}\"{}: its CustomResourceDefinition does not declare it, so the API server drops it",
                    cluster.object.key(),
                    written_by(writer)
                ),
            );
            if let Some((index, _)) = writer {
                d = d.at(
                    &class.object.origin,
                    &format!("/spec/patches/{index}"),
                    "writes a field the schema lacks",
                );
            }
            out.warnings.push(d);
        }
        let Some(message) = admitted.message() else {
            continue;
        };
        // The API server's note that CEL rules were skipped (at the object's root) explains
        // the other errors; the help quotes it with them.
        let fields: Vec<&FieldError> = admitted
            .errors
            .iter()
            .filter(|e| !e.path.pointer().is_empty())
            .collect();
        let shown: Vec<&FieldError> = if fields.is_empty() {
            admitted.errors.iter().collect()
        } else {
            fields
        };
        for e in shown {
            let mut d = refusal(cluster, class, &o.role, &what, e, &message, traces);
            // A required field may be one a provider's defaulting webhook writes, when
            // topoplan does not know the webhook.
            if !round_trip && e.kind == crate::k8s::field::ErrorType::Required {
                let help = d.help.take().unwrap_or_default();
                d = d.with_help(format!("{help}; {}", crate::crd::webhooks::REQUIRED_HELP));
            }
            out.errors.push(d);
        }
    }
    out
}

/// The error for one refused field.
fn refusal(
    cluster: &Cluster,
    class: &ClusterClass,
    role: &Role,
    what: &str,
    e: &FieldError,
    message: &str,
    traces: &[PatchTrace],
) -> Diagnostic {
    let pointer = e.path.pointer();
    let writer = if pointer.is_empty() {
        None
    } else {
        writer(role, &pointer, traces)
    };
    let mut d = Diagnostic::error(
        Code::SchemaInvalid,
        format!(
            "Cluster {}: {what} would be refused by the API server{}: {e}",
            cluster.object.key(),
            written_by(writer)
        ),
    )
    .with_help(format!(
        "the topology controller's apply would fail with: {message}; the Cluster would stop reconciling"
    ));
    if let Some((index, _)) = writer {
        d = d.at(
            &class.object.origin,
            &format!("/spec/patches/{index}"),
            "writes the refused field",
        );
    }
    d
}

fn written_by(writer: Option<(usize, &str)>) -> String {
    writer
        .map(|(_, name)| format!(" (written by patch {name:?})"))
        .unwrap_or_default()
}

/// The last patch (index, name) whose operations on the template of `role` wrote `pointer` (a
/// JSON pointer into the generated object), or a field above or below it.
fn writer<'t>(role: &Role, pointer: &str, traces: &'t [PatchTrace]) -> Option<(usize, &'t str)> {
    let id = role.id();
    // An object generated from a template (the InfrastructureCluster, the control plane) has
    // the template's spec.template.spec as its spec; a template copy has the same paths.
    let in_template = match role {
        Role::InfrastructureCluster | Role::ControlPlane => pointer
            .strip_prefix("/spec")
            .map(|rest| format!("/spec/template/spec{rest}"))
            .unwrap_or_else(|| pointer.to_string()),
        _ => pointer.to_string(),
    };
    let related =
        |op_path: &str| prefix_of(op_path, &in_template) || prefix_of(&in_template, op_path);
    traces
        .iter()
        .rev()
        .find(|t| {
            t.items.iter().any(|i| {
                i.object == id
                    && match &i.outcome {
                        Outcome::Applied(ops) => ops.iter().any(|op| {
                            op.get("path")
                                .and_then(Value::as_str)
                                .is_some_and(related)
                                // A merge patch names no path: it may have written anything.
                                || op.get("op").and_then(Value::as_str) == Some("merge")
                        }),
                        Outcome::Skipped(_) => false,
                    }
            })
        })
        .map(|t| (t.index, t.name.as_str()))
}

/// Whether JSON pointer `a` is `b` or one of its ancestors.
fn prefix_of(a: &str, b: &str) -> bool {
    b == a || (b.starts_with(a) && b.as_bytes().get(a.len()) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_contents_share_a_key_whatever_their_metadata() {
        let crd = crate::load::Object::new(
            serde_json::json!({
                "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                "metadata": {"name": "ws.example.com"},
                "spec": {"group": "example.com", "names": {"kind": "W", "plural": "ws"}, "scope": "Namespaced",
                  "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}
            }),
            crate::source::Origin {
                file: crate::source::SourceFile::new("crd.yaml", String::new()),
                spans: std::sync::Arc::new(crate::source::SpanTable::default()),
            },
            "",
        )
        .unwrap();
        let (crds, _) = crate::crd::Crds::from_objects([&crd]);
        let s = crds.get("example.com/v1", "W").unwrap();
        let a = serde_json::json!({"kind": "W", "metadata": {"name": "a"}, "spec": {"x": 1}});
        let b = serde_json::json!({"kind": "W", "metadata": {"name": "b"}, "spec": {"x": 1}});
        let c = serde_json::json!({"kind": "W", "metadata": {"name": "a"}, "spec": {"x": "1"}});
        assert_eq!(
            crate::crd::Clean::key(s, &a, crate::crd::Skip::Metadata),
            crate::crd::Clean::key(s, &b, crate::crd::Skip::Metadata)
        );
        assert_ne!(
            crate::crd::Clean::key(s, &a, crate::crd::Skip::Identity),
            crate::crd::Clean::key(
                s,
                &serde_json::json!({"kind": "W", "metadata": {"name": "b", "labels": {"x": "y"}}, "spec": {"x": 1}}),
                crate::crd::Skip::Identity
            )
        );
        assert_eq!(
            crate::crd::Clean::key(s, &a, crate::crd::Skip::Identity),
            crate::crd::Clean::key(s, &b, crate::crd::Skip::Identity)
        );
        assert_ne!(
            crate::crd::Clean::key(s, &a, crate::crd::Skip::Metadata),
            crate::crd::Clean::key(s, &c, crate::crd::Skip::Metadata)
        );
    }

    #[test]
    fn pointers_nest() {
        assert!(prefix_of("/spec/a", "/spec/a/b"));
        assert!(prefix_of("/spec/a", "/spec/a"));
        assert!(!prefix_of("/spec/a", "/spec/ab"));
    }
}
