/*!
What a live read asks the API server for: the plan's scope, as [`crate::plan::scope`] decides
it for files, turned into gets and lists.

1. the kinds that decide what is affected and that the store always lends: Clusters,
   ClusterClasses, ExtensionConfigs, MutatingWebhookConfigurations (every namespace), and the
   stored form of each object of the change (a get by name);
2. what the change affects ([`crate::plan::affected::find`]): the templates the affected
   ClusterClasses reference (gets), and the objects each affected Cluster's topology owns: a
   list per kind the class can make (its templates' kinds, the kinds they are templates of,
   Cluster API's MachineDeployments, MachineSets, Machines, MachinePools and
   MachineHealthChecks) in the Cluster's namespace, with the label selector
   `cluster.x-k8s.io/cluster-name in (…)`;
3. for as many rounds as the file scope follows them, what the objects read last reference
   (`…Ref` with a kind and a name), by get;
4. last, the CustomResourceDefinitions of the kinds met (pruning, defaulting, list types).

A kind the server does not serve, or an object it does not have (404), is simply not there,
as it would be missing from an export.
*/

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::api::{Api, Resource};
use crate::api as capi;
use crate::diag::Diagnostic;
use crate::load::Object;
use crate::load::object::group_of;
use crate::plan::{affected, scope};
use crate::source::{Origin, SourceFile, SpanTable};

/// Kinds read whatever the change, as (group, kind).
const ALWAYS: &[(&str, &str)] = &[
    (capi::GROUP, "Cluster"),
    (capi::GROUP, "ClusterClass"),
    ("runtime.cluster.x-k8s.io", "ExtensionConfig"),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
    ),
];

/// Cluster API's kinds a topology owns besides those its class's templates make.
const OWNED: &[&str] = &[
    "MachineDeployment",
    "MachineSet",
    "Machine",
    "MachinePool",
    "MachineHealthCheck",
];

/// Label every object of a Cluster's topology carries.
const CLUSTER_NAME: &str = "cluster.x-k8s.io/cluster-name";

/// Names per label selector (`in (…)`): keeps each request's URL short.
const NAMES_PER_SELECTOR: usize = 50;

/// Rounds of references followed (as the file scope's rounds).
const REFERENCE_ROUNDS: usize = crate::load::scoped::MAX_ROUNDS;

/// (group, kind, namespace, name).
type Key = (String, String, String, String);

/// What was read, each object once, with the resource it was read from.
#[derive(Debug, Default)]
pub struct Read {
    objects: BTreeMap<Key, (Resource, Value)>,
}

impl Read {
    fn key(r: &Resource, v: &Value) -> Key {
        let s = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or_default();
        (
            r.group.clone(),
            r.kind.clone(),
            s("/metadata/namespace").to_string(),
            s("/metadata/name").to_string(),
        )
    }

    /// Add `v`; whether it was new.
    fn add(&mut self, r: &Resource, v: Value) -> bool {
        let key = Read::key(r, &v);
        if key.3.is_empty() || self.objects.contains_key(&key) {
            return false;
        }
        self.objects.insert(key, (r.clone(), v));
        true
    }

    fn has(&self, group: &str, kind: &str, namespace: &str, name: &str) -> bool {
        self.objects.contains_key(&(
            group.to_string(),
            kind.to_string(),
            namespace.to_string(),
            name.to_string(),
        ))
    }

    /// How many objects were read.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// Whether nothing was read.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The objects as the plan's scope reads them (what cannot be one is left out here; the
    /// loader reports it when it reads the texts).
    fn as_objects(&self) -> Vec<Object> {
        let origin = Origin {
            file: SourceFile::new("live", String::new()),
            spans: std::sync::Arc::new(SpanTable::default()),
        };
        self.objects
            .values()
            .filter_map(|(_, v)| Object::new(v.clone(), origin.clone(), "default").ok())
            .collect()
    }
}

/// Read what the change needs (see the module documentation). `all_current`: every stored
/// Cluster is affected.
pub fn gather(api: &mut Api<'_>, change: &[Object], all_current: bool) -> Result<Read, Diagnostic> {
    let mut read = Read::default();
    // 1. What decides what is affected, and the change's stored forms.
    for (group, kind) in ALWAYS {
        if let Some(r) = api.resource(group, kind)? {
            for v in api.list(&r, None, None)? {
                read.add(&r, v);
            }
        }
    }
    for o in change {
        if read.has(o.group(), &o.kind, &o.namespace, &o.name) {
            continue;
        }
        get_into(api, &mut read, o.group(), &o.kind, &o.namespace, &o.name)?;
    }

    // 2. The affected Clusters' templates and owned objects.
    let stored = read.as_objects();
    let found = affected::find(change.iter(), &stored, all_current);
    let mut classes = found.classes.clone();
    let mut refs: Vec<(String, String, String, String)> = Vec::new();
    let mut clusters: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for o in stored.iter().chain(change) {
        if o.kind == "Cluster" && o.group() == capi::GROUP {
            let key = (o.namespace.clone(), o.name.clone());
            if found.clusters.contains(&key) {
                classes.insert(affected::class_of(o));
                refs.extend(references(&o.value, &o.namespace));
                clusters
                    .entry(o.namespace.clone())
                    .or_default()
                    .insert(o.name.clone());
            }
        }
    }
    let mut kinds: BTreeSet<(String, String)> = OWNED
        .iter()
        .map(|k| (capi::GROUP.to_string(), k.to_string()))
        .collect();
    for o in stored.iter().chain(change) {
        if o.kind == "ClusterClass"
            && o.group() == capi::GROUP
            && classes.contains(&(o.namespace.clone(), o.name.clone()))
        {
            for (group, kind, name) in affected::template_refs(&o.value) {
                if let Some(made) = kind.strip_suffix("Template") {
                    kinds.insert((group.clone(), made.to_string()));
                }
                kinds.insert((group.clone(), kind.clone()));
                refs.push((group, kind, o.namespace.clone(), name));
            }
        }
    }
    let before: BTreeSet<Key> = read.objects.keys().cloned().collect();
    for (group, kind, ns, name) in refs {
        if !read.has(&group, &kind, &ns, &name) {
            get_into(api, &mut read, &group, &kind, &ns, &name)?;
        }
    }
    if !clusters.is_empty() {
        for (group, kind) in &kinds {
            let Some(r) = api.resource(group, kind)? else {
                continue;
            };
            for (ns, names) in &clusters {
                let names: Vec<&String> = names.iter().collect();
                for chunk in names.chunks(NAMES_PER_SELECTOR) {
                    let selector = match chunk {
                        [one] => format!("{CLUSTER_NAME}={one}"),
                        many => format!(
                            "{CLUSTER_NAME} in ({})",
                            many.iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(",")
                        ),
                    };
                    let ns = r.namespaced.then_some(ns.as_str());
                    for v in api.list(&r, ns, Some(&selector))? {
                        read.add(&r, v);
                    }
                }
            }
        }
    }

    // 3. What the objects read last reference.
    let mut last: Vec<Key> = read
        .objects
        .keys()
        .filter(|k| !before.contains(*k))
        .cloned()
        .collect();
    for _ in 0..REFERENCE_ROUNDS {
        let wanted: BTreeSet<(String, String, String, String)> = last
            .iter()
            .filter_map(|k| read.objects.get(k))
            .flat_map(|(_, v)| {
                let ns = v
                    .pointer("/metadata/namespace")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                references(v, ns)
            })
            .filter(|(g, k, ns, n)| !read.has(g, k, ns, n))
            .collect();
        if wanted.is_empty() {
            break;
        }
        let before: BTreeSet<Key> = read.objects.keys().cloned().collect();
        for (group, kind, ns, name) in wanted {
            get_into(api, &mut read, &group, &kind, &ns, &name)?;
        }
        last = read
            .objects
            .keys()
            .filter(|k| !before.contains(*k))
            .cloned()
            .collect();
    }

    // 4. The CustomResourceDefinitions of the kinds met.
    let objects = read.as_objects();
    let wanted: BTreeSet<(String, String)> = crate::crd::wanted_by(objects.iter().chain(change))
        .into_iter()
        .map(|g| (g.group, g.kind))
        .filter(|(g, _)| g.contains('.'))
        .collect();
    if let Some(crds) = api.resource("apiextensions.k8s.io", "CustomResourceDefinition")? {
        for (group, kind) in wanted {
            let Some(r) = api.resource(&group, &kind)? else {
                continue;
            };
            let name = r.name();
            if !read.has(&crds.group, &crds.kind, "", &name)
                && let Some(v) = api.get(&crds, None, &name)?
            {
                read.add(&crds, v);
            }
        }
    }
    Ok(read)
}

/// Get one object into `read`, if the server serves its kind and has it.
fn get_into(
    api: &mut Api<'_>,
    read: &mut Read,
    group: &str,
    kind: &str,
    namespace: &str,
    name: &str,
) -> Result<(), Diagnostic> {
    if name.is_empty() || kind.is_empty() {
        return Ok(());
    }
    let Some(r) = api.resource(group, kind)? else {
        return Ok(());
    };
    let ns = r.namespaced.then_some(namespace);
    if let Some(v) = api.get(&r, ns, name)? {
        read.add(&r, v);
    }
    Ok(())
}

/// The objects `value` references with a kind and a name (`…Ref`, `…Refs`, `ref`, at any
/// depth; not its owners): (group, kind, namespace, name), in `namespace` unless the reference
/// names its own.
fn references(value: &Value, namespace: &str) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<(&Value, bool)> = vec![(value, false)];
    while let Some((v, in_ref)) = stack.pop() {
        match v {
            Value::Object(map) => {
                if in_ref {
                    let s = |k: &str| map.get(k).and_then(Value::as_str).unwrap_or_default();
                    let group = if s("apiGroup").is_empty() {
                        group_of(s("apiVersion"))
                    } else {
                        s("apiGroup")
                    };
                    if !s("kind").is_empty() && !s("name").is_empty() {
                        let ns = if s("namespace").is_empty() {
                            namespace
                        } else {
                            s("namespace")
                        };
                        out.push((
                            group.to_string(),
                            s("kind").to_string(),
                            ns.to_string(),
                            s("name").to_string(),
                        ));
                        continue;
                    }
                }
                for (k, child) in map {
                    if scope::walks_into(k) {
                        stack.push((child, scope::is_reference_key(k)));
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter().map(|i| (i, in_ref))),
            _ => {}
        }
    }
    out
}

/// What was read as YAML files, one per resource (`clusters.cluster.x-k8s.io.yaml`), objects
/// in (namespace, name) order: what `--save-current` writes and the loader reads.
pub fn files(read: &Read) -> Vec<(String, String)> {
    let mut by_file: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for (r, v) in read.objects.values() {
        by_file
            .entry(format!("{}.yaml", r.name()))
            .or_default()
            .push(v);
    }
    by_file
        .into_iter()
        .map(|(name, values)| {
            let docs: Vec<String> = values.into_iter().map(crate::load::yaml::to_yaml).collect();
            (name, docs.join("---\n"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_carry_kind_group_and_namespace() {
        let v = serde_json::json!({
            "spec": {
                "infrastructureRef": {"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "DockerCluster", "name": "a"},
                "controlPlaneRef": {"apiGroup": "controlplane.cluster.x-k8s.io", "kind": "KubeadmControlPlane", "name": "b"},
                "template": {"spec": {"bootstrap": {"configRef": {"kind": "KubeadmConfigTemplate", "apiVersion": "bootstrap.cluster.x-k8s.io/v1beta2", "name": "c", "namespace": "other"}}}},
                "noKindRef": {"name": "x"},
            },
            "metadata": {"ownerReferences": [{"kind": "Cluster", "apiVersion": "cluster.x-k8s.io/v1beta2", "name": "owner"}]},
        });
        let mut refs = references(&v, "ns");
        refs.sort();
        let expected = [
            (
                "bootstrap.cluster.x-k8s.io",
                "KubeadmConfigTemplate",
                "other",
                "c",
            ),
            (
                "controlplane.cluster.x-k8s.io",
                "KubeadmControlPlane",
                "ns",
                "b",
            ),
            (
                "infrastructure.cluster.x-k8s.io",
                "DockerCluster",
                "ns",
                "a",
            ),
        ];
        let got: Vec<(&str, &str, &str, &str)> = refs
            .iter()
            .map(|(a, b, c, d)| (a.as_str(), b.as_str(), c.as_str(), d.as_str()))
            .collect();
        assert_eq!(got, expected);
    }
}
