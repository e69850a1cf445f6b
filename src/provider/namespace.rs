/*!
Putting objects into a target namespace, as clusterctl does to a provider's components and to a
cluster template (`fixTargetNamespace` in `cmd/clusterctl/client/repository/components.go`):

- a Namespace object is renamed to the target;
- every namespaced kind (all but clusterctl's list of cluster-wide kinds, `IsResourceNamespaced`)
  gets `metadata.namespace`;
- (Cluster)RoleBinding subjects that name a namespace name the target;
- webhook configurations' services, a CRD's conversion webhook service and the
  `cert-manager.io/inject-ca-from` annotation point into the target;
- a cert-manager Certificate's DNS names swap the old namespace for the target.

Works on JSON values; owns nothing else.
*/

use serde_json::{Map, Value};

/// Kinds clusterctl treats as cluster-wide (`IsResourceNamespaced` returns false for them).
const CLUSTER_WIDE: &[&str] = &[
    "Namespace",
    "Node",
    "PersistentVolume",
    "PodSecurityPolicy",
    "CertificateSigningRequest",
    "ClusterRoleBinding",
    "ClusterRole",
    "VolumeAttachment",
    "StorageClass",
    "CSIDriver",
    "CSINode",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "CustomResourceDefinition",
    "PriorityClass",
    "RuntimeClass",
];

/// The annotation cert-manager's CA injector reads.
const INJECT_CA_FROM: &str = "cert-manager.io/inject-ca-from";

fn str_at<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// Set `metadata.<key>`, creating `metadata` when missing; a `metadata` that is not a mapping
/// is left alone (Go's unstructured setters ignore the error they meet there).
fn set_metadata(obj: &mut Map<String, Value>, key: &str, value: &str) {
    let m = obj
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = m {
        m.insert(key.into(), Value::String(value.into()));
    }
}

/// Put `object` into `target` (see the module doc). Errors are clusterctl's.
pub fn fix(object: &mut Value, target: &str) -> Result<(), String> {
    let kind = str_at(object, "/kind").to_string();
    let name = str_at(object, "/metadata/name").to_string();
    let version = str_at(object, "/apiVersion")
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_string();
    let Value::Object(obj) = object else {
        return Ok(());
    };
    if kind == "Namespace" {
        set_metadata(obj, "name", target);
    }
    let original = obj
        .get("metadata")
        .and_then(|m| m.get("namespace"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if !CLUSTER_WIDE.contains(&kind.as_str()) {
        set_metadata(obj, "namespace", target);
    }
    match kind.as_str() {
        "ClusterRoleBinding" | "RoleBinding" => {
            if let Some(Value::Array(subjects)) = obj.get_mut("subjects") {
                for s in subjects.iter_mut().filter_map(Value::as_object_mut) {
                    if s.get("namespace")
                        .and_then(Value::as_str)
                        .is_some_and(|n| !n.is_empty())
                    {
                        s.insert("namespace".into(), Value::String(target.into()));
                    }
                }
            }
        }
        "MutatingWebhookConfiguration"
        | "ValidatingWebhookConfiguration"
        | "CustomResourceDefinition" => {
            inject_ca_from(obj, &kind, &name, target)?;
            if !matches!(version.as_str(), "v1" | "v1beta1") {
                return Err(format!("failed to patch {version} {kind}"));
            }
            if kind == "CustomResourceDefinition" {
                let path: &[&str] = if version == "v1" {
                    &["spec", "conversion", "webhook", "clientConfig", "service"]
                } else {
                    &["spec", "conversion", "webhookClientConfig", "service"]
                };
                if let Some(Value::Object(service)) = nested_mut(obj, path) {
                    service.insert("namespace".into(), Value::String(target.into()));
                }
            } else if let Some(Value::Array(hooks)) = obj.get_mut("webhooks") {
                for hook in hooks.iter_mut() {
                    if let Some(Value::Object(service)) = hook.pointer_mut("/clientConfig/service")
                    {
                        service.insert("namespace".into(), Value::String(target.into()));
                    }
                }
            }
        }
        "Certificate" => {
            if let Some(names) = obj.get_mut("spec").and_then(|s| s.get_mut("dnsNames")) {
                let Value::Array(list) = names else {
                    return Err(format!(
                        "failed to get .spec.dnsNames from Certificate {target}/{name}: .spec.dnsNames accessor error: {names} is of the type {}, expected []interface{{}}",
                        json_type(names)
                    ));
                };
                let from = format!(".{original}.");
                let to = format!(".{target}.");
                for n in list.iter_mut() {
                    let Value::String(s) = n else {
                        return Err(format!(
                            "failed to get .spec.dnsNames from Certificate {target}/{name}: .spec.dnsNames accessor error: contains non-string value in the slice"
                        ));
                    };
                    *s = s.replacen(&from, &to, 1);
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Point the `cert-manager.io/inject-ca-from` annotation (`namespace/name`) into `target`.
fn inject_ca_from(
    obj: &mut Map<String, Value>,
    kind: &str,
    name: &str,
    target: &str,
) -> Result<(), String> {
    let Some(Value::String(value)) = obj
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(|a| a.get_mut(INJECT_CA_FROM))
    else {
        return Ok(());
    };
    let parts: Vec<&str> = value.split('/').collect();
    match parts.as_slice() {
        [_, secret] => {
            *value = format!("{target}/{secret}");
            Ok(())
        }
        _ => Err(format!(
            "object {kind} {name} does not have a correct value for {INJECT_CA_FROM}"
        )),
    }
}

fn nested_mut<'v>(obj: &'v mut Map<String, Value>, path: &[&str]) -> Option<&'v mut Value> {
    let (first, rest) = path.split_first()?;
    let mut v = obj.get_mut(*first)?;
    for p in rest {
        v = v.get_mut(*p)?;
    }
    Some(v)
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fixed(mut v: Value) -> Value {
        fix(&mut v, "team-a").expect("fixes");
        v
    }

    #[test]
    fn namespaced_objects_move_and_cluster_wide_ones_stay() {
        assert_eq!(
            fixed(
                json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "other"}})
            ),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "team-a"}})
        );
        assert_eq!(
            fixed(json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster"})),
            json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster", "metadata": {"namespace": "team-a"}})
        );
        assert_eq!(
            fixed(
                json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "capd-system"}})
            ),
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}})
        );
        assert_eq!(
            fixed(
                json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "b"},
                "subjects": [{"kind": "ServiceAccount", "name": "m", "namespace": "capd-system"}, {"kind": "Group", "name": "g"}]})
            ),
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "b"},
                "subjects": [{"kind": "ServiceAccount", "name": "m", "namespace": "team-a"}, {"kind": "Group", "name": "g"}]})
        );
    }

    #[test]
    fn webhook_references_follow() {
        let crd = fixed(
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "xs.example.com", "annotations": {INJECT_CA_FROM: "capd-system/serving-cert"}},
            "spec": {"conversion": {"strategy": "Webhook", "webhook": {"clientConfig": {"service": {"name": "wh", "namespace": "capd-system"}}}}}}),
        );
        assert_eq!(
            crd.pointer("/metadata/annotations/cert-manager.io~1inject-ca-from"),
            Some(&json!("team-a/serving-cert"))
        );
        assert_eq!(
            crd.pointer("/spec/conversion/webhook/clientConfig/service/namespace"),
            Some(&json!("team-a"))
        );
        assert_eq!(crd.pointer("/metadata/namespace"), None);
        let mut bad = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "xs.example.com", "annotations": {INJECT_CA_FROM: "no-slash"}}});
        assert_eq!(
            fix(&mut bad, "t").err().as_deref(),
            Some(
                "object CustomResourceDefinition xs.example.com does not have a correct value for cert-manager.io/inject-ca-from"
            )
        );
        let mut old = json!({"apiVersion": "apiextensions.k8s.io/v2", "kind": "CustomResourceDefinition", "metadata": {"name": "x"}});
        assert_eq!(
            fix(&mut old, "t").err().as_deref(),
            Some("failed to patch v2 CustomResourceDefinition")
        );
        let hook = fixed(
            json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
            "metadata": {"name": "v"}, "webhooks": [{"clientConfig": {"service": {"name": "s", "namespace": "x"}}}, {"clientConfig": {"url": "https://x"}}]}),
        );
        assert_eq!(
            hook.pointer("/webhooks/0/clientConfig/service/namespace"),
            Some(&json!("team-a"))
        );
        assert_eq!(hook.pointer("/webhooks/1/clientConfig/service"), None);
    }

    #[test]
    fn certificate_names_follow() {
        let cert = fixed(
            json!({"apiVersion": "cert-manager.io/v1", "kind": "Certificate",
            "metadata": {"name": "c", "namespace": "capd-system"},
            "spec": {"dnsNames": ["wh.capd-system.svc", "wh.capd-system.svc.cluster.local"]}}),
        );
        assert_eq!(
            cert.pointer("/spec/dnsNames"),
            Some(&json!(["wh.team-a.svc", "wh.team-a.svc.cluster.local"]))
        );
    }
}
