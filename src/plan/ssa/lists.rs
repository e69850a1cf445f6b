/*!
List semantics for the apply simulation: which lists server-side apply merges per key
(`listType=map`), per value (`listType=set`) or replaces wholesale (`atomic`, the default).

Owns the built-in table for the lists Cluster API's own CRDs mark and the topology writes, the
reading of `x-kubernetes-list-type` from supplied CustomResourceDefinitions, and the lookup by
object type and field path. Why it matters: a list the server merges per key keeps entries
other managers added; treating it as atomic would report their removal, which never happens.
*/

use serde_json::Value;

use crate::diag::{Code, Diagnostic};
use crate::load::Object;

/// Marks "every item of a list" in a schema path (`spec.taints[]` is `["spec", "taints", "[]"]`).
pub const ITEM: &str = "[]";
/// Marks "any key of a map" (`additionalProperties`) in a schema path.
pub const ANY_KEY: &str = "*";

/// How server-side apply treats one list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListType {
    /// Replaced wholesale by the applier's list.
    Atomic,
    /// Merged per value: values other managers added survive.
    Set,
    /// Merged per entry, entries identified by these fields.
    Map(Vec<String>),
}

/// One known list: for objects of `group`/`kind` (and `version`, when it came from a CRD), the
/// list at `path` (field names, [`ITEM`] for list items, [`ANY_KEY`] for map values).
#[derive(Debug, Clone)]
struct Rule {
    group: String,
    kind: String,
    /// `None` for built-in rules, which hold for every version that has the path.
    version: Option<String>,
    path: Vec<String>,
    list: ListType,
}

/// The list semantics known for the object types a plan touches.
#[derive(Debug, Clone, Default)]
pub struct ListTypes {
    rules: Vec<Rule>,
}

/// Built-in lists: `(group, kind, dotted path with [] for items, keys)`; empty keys mean a set.
/// `"*"` as group and kind means every object. Taken from Cluster API's generated CRDs (main),
/// restricted to the paths the topology controller writes.
const BUILTIN: &[(&str, &str, &str, &[&str])] = &[
    // Every object: owner references are keyed by uid (metadata types, not a CRD marker).
    ("*", "*", "metadata.ownerReferences", &["uid"]),
    ("*", "*", "metadata.finalizers", &[]),
    // MachineDeployment / MachinePool / MachineSet machine template.
    (
        "cluster.x-k8s.io",
        "MachineDeployment",
        "spec.template.spec.readinessGates",
        &["conditionType"],
    ),
    (
        "cluster.x-k8s.io",
        "MachineDeployment",
        "spec.template.spec.taints",
        &["key", "effect"],
    ),
    (
        "cluster.x-k8s.io",
        "MachinePool",
        "spec.template.spec.readinessGates",
        &["conditionType"],
    ),
    (
        "cluster.x-k8s.io",
        "MachinePool",
        "spec.template.spec.taints",
        &["key", "effect"],
    ),
    // The Cluster's topology variables (written by users, listed for completeness of the kind).
    (
        "cluster.x-k8s.io",
        "Cluster",
        "spec.topology.variables",
        &["name"],
    ),
    // KubeadmControlPlane: v1beta2 machine template, and v1beta1's flat machine template.
    (
        "controlplane.cluster.x-k8s.io",
        "KubeadmControlPlane",
        "spec.machineTemplate.spec.readinessGates",
        &["conditionType"],
    ),
    (
        "controlplane.cluster.x-k8s.io",
        "KubeadmControlPlane",
        "spec.machineTemplate.spec.taints",
        &["key", "effect"],
    ),
    (
        "controlplane.cluster.x-k8s.io",
        "KubeadmControlPlane",
        "spec.machineTemplate.readinessGates",
        &["conditionType"],
    ),
    (
        "controlplane.cluster.x-k8s.io",
        "KubeadmControlPlane",
        "spec.machineTemplate.taints",
        &["key", "effect"],
    ),
];

/// Where kubeadm `extraArgs` lists sit inside a kubeadm config spec (v1beta2: a list of
/// `{name, value}` keyed by both; in v1beta1 they are maps, so the rule never matches there).
const KUBEADM_EXTRA_ARGS: &[&str] = &[
    "clusterConfiguration.apiServer.extraArgs",
    "clusterConfiguration.controllerManager.extraArgs",
    "clusterConfiguration.scheduler.extraArgs",
    "clusterConfiguration.etcd.local.extraArgs",
    "initConfiguration.nodeRegistration.kubeletExtraArgs",
    "joinConfiguration.nodeRegistration.kubeletExtraArgs",
];

/// The kubeadm kinds and where their kubeadm config spec sits.
const KUBEADM_SPECS: &[(&str, &str, &str)] = &[
    (
        "controlplane.cluster.x-k8s.io",
        "KubeadmControlPlane",
        "spec.kubeadmConfigSpec",
    ),
    (
        "controlplane.cluster.x-k8s.io",
        "KubeadmControlPlaneTemplate",
        "spec.template.spec.kubeadmConfigSpec",
    ),
    (
        "bootstrap.cluster.x-k8s.io",
        "KubeadmConfigTemplate",
        "spec.template.spec",
    ),
    ("bootstrap.cluster.x-k8s.io", "KubeadmConfig", "spec"),
];

fn split_path(dotted: &str) -> Vec<String> {
    dotted.split('.').map(str::to_string).collect()
}

fn list_type(keys: &[&str]) -> ListType {
    if keys.is_empty() {
        ListType::Set
    } else {
        ListType::Map(keys.iter().map(|k| k.to_string()).collect())
    }
}

impl ListTypes {
    /// No known lists: every list is atomic.
    pub fn none() -> Self {
        ListTypes::default()
    }

    /// The lists Cluster API's own types mark as map or set and the topology writes.
    pub fn builtin() -> Self {
        let mut rules: Vec<Rule> = BUILTIN
            .iter()
            .map(|(group, kind, path, keys)| Rule {
                group: group.to_string(),
                kind: kind.to_string(),
                version: None,
                path: split_path(path),
                list: list_type(keys),
            })
            .collect();
        for (group, kind, base) in KUBEADM_SPECS {
            for args in KUBEADM_EXTRA_ARGS {
                rules.push(Rule {
                    group: group.to_string(),
                    kind: kind.to_string(),
                    version: None,
                    path: split_path(&format!("{base}.{args}")),
                    list: ListType::Map(vec!["name".into(), "value".into()]),
                });
            }
        }
        ListTypes { rules }
    }

    /// Add the `x-kubernetes-list-type` markers (map with `x-kubernetes-list-map-keys`, set,
    /// atomic) of every CustomResourceDefinition version in `inputs` and `current` (a CRD may
    /// come with either). Rules from a CRD take precedence over built-in ones for that exact
    /// version. A schema that cannot be read gives a warning and contributes nothing.
    pub fn with_crds(mut self, inputs: &[Object], current: &[Object]) -> (Self, Vec<Diagnostic>) {
        let mut warnings = Vec::new();
        let crds = inputs.iter().chain(current).filter(|o| {
            o.kind == "CustomResourceDefinition" && o.group() == "apiextensions.k8s.io"
        });
        for crd in crds {
            let group = crd.value.pointer("/spec/group").and_then(Value::as_str);
            let kind = crd
                .value
                .pointer("/spec/names/kind")
                .and_then(Value::as_str);
            let versions = crd
                .value
                .pointer("/spec/versions")
                .and_then(Value::as_array);
            let (Some(group), Some(kind), Some(versions)) = (group, kind, versions) else {
                warnings.push(
                    Diagnostic::warning(Code::InputCrd, format!(
                        "CustomResourceDefinition {} has no spec.group, spec.names.kind or spec.versions; its list types are not known",
                        crd.name
                    ))
                    .at(&crd.origin, "/spec", "incomplete CustomResourceDefinition")
                    .with_help("lists of this kind are treated as replaced wholesale (atomic)"),
                );
                continue;
            };
            for (i, version) in versions.iter().enumerate() {
                let name = version.get("name").and_then(Value::as_str);
                let schema = version.pointer("/schema/openAPIV3Schema");
                let (Some(name), Some(schema)) = (name, schema) else {
                    warnings.push(
                        Diagnostic::warning(Code::InputCrd, format!(
                            "CustomResourceDefinition {}: version #{i} has no name or no schema.openAPIV3Schema; its list types are not known",
                            crd.name
                        ))
                        .at(&crd.origin, &format!("/spec/versions/{i}"), "no schema here")
                        .with_help("lists of this version are treated as replaced wholesale (atomic)"),
                    );
                    continue;
                };
                let mut problems = Vec::new();
                let mut path = Vec::new();
                collect(
                    schema,
                    &mut path,
                    &mut |path, list| {
                        self.rules.push(Rule {
                            group: group.to_string(),
                            kind: kind.to_string(),
                            version: Some(name.to_string()),
                            path: path.to_vec(),
                            list,
                        });
                    },
                    &mut problems,
                    0,
                );
                for problem in problems {
                    warnings.push(
                        Diagnostic::warning(
                            Code::InputCrd,
                            format!(
                                "CustomResourceDefinition {} version {name}: {problem}",
                                crd.name
                            ),
                        )
                        .at(
                            &crd.origin,
                            &format!("/spec/versions/{i}/schema/openAPIV3Schema"),
                            "schema",
                        )
                        .with_help("that list is treated as replaced wholesale (atomic)"),
                    );
                }
            }
        }
        (self, warnings)
    }

    /// The list type of the list at `path` (schema path, see [`ITEM`]) in objects of
    /// `api_version`/`kind`. A rule for the exact version wins over a version-less one; `None`
    /// when nothing is known (callers treat that as atomic, the server default).
    pub fn lookup(&self, api_version: &str, kind: &str, path: &[String]) -> Option<&ListType> {
        let (group, version) = split_api_version(api_version);
        let mut fallback = None;
        for rule in &self.rules {
            let type_matches = (rule.group == "*" && rule.kind == "*")
                || (rule.group == group && rule.kind == kind);
            if !type_matches || !path_matches(&rule.path, path) {
                continue;
            }
            match &rule.version {
                Some(v) if v == version => return Some(&rule.list),
                Some(_) => {}
                None => {
                    if fallback.is_none() {
                        fallback = Some(&rule.list);
                    }
                }
            }
        }
        fallback
    }
}

/// `(group, version)` of an apiVersion; the core group is `""`.
pub(crate) fn split_api_version(api_version: &str) -> (&str, &str) {
    match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    }
}

fn path_matches(pattern: &[String], path: &[String]) -> bool {
    pattern.len() == path.len()
        && pattern
            .iter()
            .zip(path)
            .all(|(p, s)| p == s || (p == ANY_KEY && s != ITEM))
}

/// Schemas nest deeply only by mistake or malice; stop well before the stack would.
const MAX_SCHEMA_DEPTH: usize = 64;

/// Walk an OpenAPI v3 schema and report every list with an explicit list type. Only
/// `properties`, `items` and `additionalProperties` lead to values; combinators (`allOf` …)
/// cannot carry structural list types in a CRD, so they are not followed.
fn collect(
    schema: &Value,
    path: &mut Vec<String>,
    found: &mut dyn FnMut(&[String], ListType),
    problems: &mut Vec<String>,
    depth: usize,
) {
    if depth > MAX_SCHEMA_DEPTH {
        problems.push(format!(
            "the schema nests deeper than {MAX_SCHEMA_DEPTH} levels at {}",
            path.join(".")
        ));
        return;
    }
    let Some(node) = schema.as_object() else {
        problems.push(format!(
            "the schema at {:?} is not a mapping",
            path.join(".")
        ));
        return;
    };
    match node.get("x-kubernetes-list-type") {
        None => {}
        Some(Value::String(t)) if t == "atomic" => found(path, ListType::Atomic),
        Some(Value::String(t)) if t == "set" => found(path, ListType::Set),
        Some(Value::String(t)) if t == "map" => {
            let keys = node
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|ks| {
                    ks.iter()
                        .map(|k| k.as_str().map(str::to_string))
                        .collect::<Option<Vec<_>>>()
                });
            match keys {
                Some(Some(keys)) if !keys.is_empty() => found(path, ListType::Map(keys)),
                _ => problems.push(format!(
                    "the list at {} is a map list without a readable x-kubernetes-list-map-keys",
                    path.join(".")
                )),
            }
        }
        Some(other) => problems.push(format!(
            "the list at {} has an unknown x-kubernetes-list-type {other}",
            path.join(".")
        )),
    }
    if let Some(props) = node.get("properties") {
        match props.as_object() {
            Some(props) => {
                for (name, child) in props {
                    path.push(name.clone());
                    collect(child, path, found, problems, depth + 1);
                    path.pop();
                }
            }
            None => problems.push(format!(
                "properties at {:?} is not a mapping",
                path.join(".")
            )),
        }
    }
    if let Some(items) = node.get("items") {
        path.push(ITEM.to_string());
        collect(items, path, found, problems, depth + 1);
        path.pop();
    }
    if let Some(additional) = node.get("additionalProperties")
        && additional.is_object()
    {
        path.push(ANY_KEY.to_string());
        collect(additional, path, found, problems, depth + 1);
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::source::{Origin, SourceFile, SpanTable};

    fn object(v: Value) -> Object {
        let origin = Origin {
            file: SourceFile::new("crd.yaml", ""),
            spans: Arc::new(SpanTable::default()),
        };
        Object::new(v, origin, "default").unwrap_or_else(|e| panic!("{e}"))
    }

    fn path(dotted: &str) -> Vec<String> {
        split_path(dotted)
    }

    #[test]
    fn builtin_lookups() {
        let lists = ListTypes::builtin();
        let map = |keys: &[&str]| Some(ListType::Map(keys.iter().map(|k| k.to_string()).collect()));
        let cases: &[(&str, &str, &str, Option<ListType>)] = &[
            (
                "cluster.x-k8s.io/v1beta2",
                "MachineDeployment",
                "spec.template.spec.readinessGates",
                map(&["conditionType"]),
            ),
            (
                "cluster.x-k8s.io/v1beta1",
                "MachineDeployment",
                "spec.template.spec.taints",
                map(&["key", "effect"]),
            ),
            (
                "cluster.x-k8s.io/v1beta2",
                "MachinePool",
                "spec.template.spec.taints",
                map(&["key", "effect"]),
            ),
            (
                "infrastructure.cluster.x-k8s.io/v1beta2",
                "DockerCluster",
                "metadata.ownerReferences",
                map(&["uid"]),
            ),
            (
                "controlplane.cluster.x-k8s.io/v1beta2",
                "KubeadmControlPlane",
                "spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs",
                map(&["name", "value"]),
            ),
            (
                "bootstrap.cluster.x-k8s.io/v1beta2",
                "KubeadmConfigTemplate",
                "spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs",
                map(&["name", "value"]),
            ),
            // Not a marked list: atomic by default.
            (
                "cluster.x-k8s.io/v1beta2",
                "MachineHealthCheck",
                "spec.checks.unhealthyNodeConditions",
                None,
            ),
            // The right path on the wrong kind does not match.
            (
                "infrastructure.cluster.x-k8s.io/v1beta2",
                "DockerMachineTemplate",
                "spec.template.spec.readinessGates",
                None,
            ),
        ];
        for (api, kind, p, want) in cases {
            assert_eq!(
                lists.lookup(api, kind, &path(p)).cloned(),
                *want,
                "{kind} {p}"
            );
        }
    }

    fn crd(versions: Value) -> Object {
        object(json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.io"},
            "spec": {"group": "example.io", "names": {"kind": "Widget"}, "versions": versions}
        }))
    }

    #[test]
    fn crd_list_types_are_read_per_version() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "protocol"],
                      "items": {"type": "object", "properties": {"tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}},
            "byZone": {"type": "object", "additionalProperties": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}},
            "order": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}}
        }}}});
        let (lists, warnings) = ListTypes::builtin().with_crds(
            &[crd(json!([
                {"name": "v1", "schema": {"openAPIV3Schema": schema}},
                {"name": "v2", "schema": {"openAPIV3Schema": {"type": "object"}}}
            ]))],
            &[],
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        let cases: &[(&str, &str, Option<ListType>)] = &[
            (
                "example.io/v1",
                "spec.ports",
                Some(ListType::Map(vec!["name".into(), "protocol".into()])),
            ),
            ("example.io/v1", "spec.ports.[].tags", Some(ListType::Set)),
            ("example.io/v1", "spec.byZone.eu-1", Some(ListType::Set)),
            ("example.io/v1", "spec.order", Some(ListType::Atomic)),
            ("example.io/v2", "spec.ports", None),
            (
                "example.io/v1",
                "metadata.ownerReferences",
                Some(ListType::Map(vec!["uid".into()])),
            ),
        ];
        for (api, p, want) in cases {
            assert_eq!(
                lists.lookup(api, "Widget", &path(p)).cloned(),
                *want,
                "{api} {p}"
            );
        }
    }

    #[test]
    fn unreadable_crds_warn_and_never_panic() {
        let cases = vec![
            json!([{"name": "v1"}]),
            json!([{"name": "v1", "schema": {"openAPIV3Schema": {"properties": {"spec": {"properties": {
                "a": {"type": "array", "x-kubernetes-list-type": "map"},
                "b": {"type": "array", "x-kubernetes-list-type": "bag"},
                "c": "not a schema"}}}}}}]),
            json!([{"name": "v1", "schema": {"openAPIV3Schema": {"properties": ["x"]}}}]),
        ];
        for versions in cases {
            let (lists, warnings) = ListTypes::none().with_crds(&[], &[crd(versions.clone())]);
            assert!(!warnings.is_empty(), "expected a warning for {versions}");
            assert!(
                lists
                    .lookup("example.io/v1", "Widget", &path("spec.a"))
                    .is_none()
            );
        }
        // A CRD without spec.versions at all.
        let bare = object(
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "x"}, "spec": {"group": "g"}}),
        );
        let (_, warnings) = ListTypes::none().with_crds(&[bare], &[]);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn deep_schemas_stop() {
        let mut schema = json!({"type": "string"});
        for _ in 0..200 {
            schema = json!({"type": "object", "properties": {"x": schema}});
        }
        let (_, warnings) = ListTypes::none().with_crds(
            &[crd(
                json!([{"name": "v1", "schema": {"openAPIV3Schema": schema}}]),
            )],
            &[],
        );
        assert_eq!(warnings.len(), 1);
    }
}
