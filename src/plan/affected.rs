/*!
What a change affects: the ClusterClasses and Clusters a plan against the management cluster
(`--current`) must plan when `-f` holds only the change.

Owns the rule clusterctl's offline plan used (`affectedClusterClasses` and `affectedClusters` in
Cluster API v1.10's `cmd/clusterctl/client/cluster/topology.go`), made deterministic and widened
where the old command fell short:

- every ClusterClass in `-f` is affected, and so is every stored ClusterClass that references an
  object of `-f` as one of its templates: the infrastructure, control plane and control-plane
  machine infrastructure templates, each MachineDeployment and MachinePool class's bootstrap and
  infrastructure templates, and (which the old command forgot) the health checks' remediation
  templates;
- every Cluster in `-f` is affected, and so is every stored topology Cluster whose class is
  affected;
- with `--all-current`, every stored topology Cluster is affected (a drift check).

References are matched by API group, kind, namespace and name, not by the exact `apiVersion`
the old command compared: a class that names a template at another served version still uses
that object. Classes and Clusters are read from their raw stored form (both `v1beta1` and
`v1beta2` shapes), so a stored object that no longer decodes cannot stop the search; admission
reports it later, and only if it is affected. This module decides membership only: bringing the
stored objects into the run is [`super::stored`]'s.
*/

use std::collections::{BTreeSet, HashSet};

use serde_json::Value;

use crate::api;
use crate::load::Object;
use crate::load::object::group_of;

/// A (namespace, name) pair.
pub type Key = (String, String);

/// The ClusterClasses and Clusters a change affects, and what it leaves alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Affected {
    /// Affected ClusterClasses, by (namespace, name).
    pub classes: BTreeSet<Key>,
    /// Affected topology Clusters, by (namespace, name): those of `-f` and the stored ones of
    /// an affected class.
    pub clusters: BTreeSet<Key>,
    /// Stored topology Clusters the change does not affect (not planned).
    pub left_alone: usize,
    /// `--all-current`: every stored Cluster is affected.
    pub all_current: bool,
}

impl Affected {
    /// Whether the Cluster `namespace/name` is affected; an empty namespace matches any.
    pub fn has_cluster(&self, namespace: &str, name: &str) -> bool {
        if namespace.is_empty() {
            self.clusters.iter().any(|(_, n)| n == name)
        } else {
            self.clusters
                .contains(&(namespace.to_string(), name.to_string()))
        }
    }
}

/// A reference to a template as a class holds it: (group, kind, name); its namespace is the
/// class's own (Cluster API refuses a reference to another namespace).
type TemplateRef = (String, String, String);

/// Find what `change` (the `-f` objects; `diff` gives both sides') affects among `stored` (the
/// `--current` objects).
pub fn find<'a, I>(change: I, stored: &[Object], all_current: bool) -> Affected
where
    I: Iterator<Item = &'a Object> + Clone,
{
    let is_core = |o: &Object, kind: &str| o.kind == kind && o.group() == api::GROUP;
    let mut affected = Affected {
        all_current,
        ..Affected::default()
    };
    // Every object of the change but Clusters and ClusterClasses may be a template a stored
    // class uses (clusterctl took kinds ending in `Template`; a class referencing another kind
    // uses that object all the same).
    let changed: HashSet<(&str, &str, &str, &str)> = change
        .clone()
        .filter(|o| !is_core(o, "Cluster") && !is_core(o, "ClusterClass"))
        .map(|o| {
            (
                o.group(),
                o.kind.as_str(),
                o.namespace.as_str(),
                o.name.as_str(),
            )
        })
        .collect();
    for o in change.clone().filter(|o| is_core(o, "ClusterClass")) {
        affected
            .classes
            .insert((o.namespace.clone(), o.name.clone()));
    }
    if !changed.is_empty() {
        for o in stored.iter().filter(|o| is_core(o, "ClusterClass")) {
            let uses = template_refs(&o.value).iter().any(|(g, k, n)| {
                changed.contains(&(g.as_str(), k.as_str(), o.namespace.as_str(), n.as_str()))
            });
            if uses {
                affected
                    .classes
                    .insert((o.namespace.clone(), o.name.clone()));
            }
        }
    }
    for o in change.filter(|o| is_core(o, "Cluster")) {
        if has_topology(&o.value) {
            affected
                .clusters
                .insert((o.namespace.clone(), o.name.clone()));
        }
    }
    // One pass over the stored topology Clusters: each is affected (planned) or left alone.
    for o in stored.iter().filter(|o| is_core(o, "Cluster")) {
        if !has_topology(&o.value) {
            continue;
        }
        let key = (o.namespace.clone(), o.name.clone());
        if affected.clusters.contains(&key)
            || all_current
            || affected.classes.contains(&class_of(o))
        {
            affected.clusters.insert(key);
        } else {
            affected.left_alone += 1;
        }
    }
    affected
}

/// Whether a Cluster (raw) has a topology.
pub fn has_topology(cluster: &Value) -> bool {
    cluster
        .pointer("/spec/topology")
        .is_some_and(|t| !t.is_null())
}

/// The (namespace, name) of the ClusterClass a raw Cluster uses: `spec.topology.classRef`
/// (v1beta2) or `spec.topology.class` and `classNamespace` (v1beta1); the namespace defaults to
/// the Cluster's.
pub fn class_of(cluster: &Object) -> Key {
    let t = cluster.value.pointer("/spec/topology");
    let s = |p: &str| {
        t.and_then(|t| t.pointer(p))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let (name, namespace) = if s("/classRef/name").is_empty() {
        (s("/class"), s("/classNamespace"))
    } else {
        (s("/classRef/name"), s("/classRef/namespace"))
    };
    let namespace = if namespace.is_empty() {
        cluster.namespace.as_str()
    } else {
        namespace
    };
    (namespace.to_string(), name.to_string())
}

/// Every template a raw ClusterClass references, in either API version: (group, kind, name).
pub fn template_refs(class: &Value) -> Vec<TemplateRef> {
    let mut out = Vec::new();
    let mut add = |r: Option<&Value>| {
        let Some(r) = r else { return };
        let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
        if s("kind").is_empty() || s("name").is_empty() {
            return;
        }
        out.push((
            group_of(s("apiVersion")).to_string(),
            s("kind").to_string(),
            s("name").to_string(),
        ));
    };
    let Some(spec) = class.get("spec") else {
        return out;
    };
    // v1beta2: `templateRef` under each holder, remediation under `healthCheck`.
    for p in [
        "/infrastructure/templateRef",
        "/controlPlane/templateRef",
        "/controlPlane/machineInfrastructure/templateRef",
        "/controlPlane/healthCheck/remediation/templateRef",
        // v1beta1: `ref`, remediation under `machineHealthCheck`.
        "/infrastructure/ref",
        "/controlPlane/ref",
        "/controlPlane/machineInfrastructure/ref",
        "/controlPlane/machineHealthCheck/remediationTemplate",
    ] {
        add(spec.pointer(p));
    }
    let workers = |kind: &str| {
        spec.pointer(&format!("/workers/{kind}"))
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    };
    for class in workers("machineDeployments")
        .iter()
        .chain(workers("machinePools"))
    {
        for p in [
            "/bootstrap/templateRef",
            "/infrastructure/templateRef",
            "/healthCheck/remediation/templateRef",
            "/template/bootstrap/ref",
            "/template/infrastructure/ref",
            "/machineHealthCheck/remediationTemplate",
        ] {
            add(class.pointer(p));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(yaml: &str) -> Object {
        crate::validate::testutil::object(yaml)
    }

    const CLASS_V1BETA2: &str = "apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: c, namespace: ns}
spec:
  infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerClusterTemplate, name: infra}}
  controlPlane:
    templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: cp}
    machineInfrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerMachineTemplate, name: cp-machine}}
    healthCheck: {remediation: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: Metal3RemediationTemplate, name: rem}}}
  workers:
    machineDeployments:
    - class: md
      bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: md-boot}}
      infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerMachineTemplate, name: md-infra}}
    machinePools:
    - class: mp
      bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: mp-boot}}
      infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerMachinePoolTemplate, name: mp-infra}}
";

    const CLASS_V1BETA1: &str = "apiVersion: cluster.x-k8s.io/v1beta1
kind: ClusterClass
metadata: {name: old, namespace: ns}
spec:
  infrastructure: {ref: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerClusterTemplate, name: infra1}}
  controlPlane:
    ref: {apiVersion: controlplane.cluster.x-k8s.io/v1beta1, kind: KubeadmControlPlaneTemplate, name: cp1}
    machineHealthCheck: {remediationTemplate: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: Metal3RemediationTemplate, name: rem1}}
  workers:
    machineDeployments:
    - class: md
      template:
        bootstrap: {ref: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta1, kind: KubeadmConfigTemplate, name: md-boot1}}
        infrastructure: {ref: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerMachineTemplate, name: md-infra1}}
";

    fn template(kind: &str, name: &str) -> Object {
        obj(&format!(
            "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\nkind: {kind}\nmetadata: {{name: {name}, namespace: ns}}\n"
        ))
    }

    fn cluster(name: &str, topology: &str) -> Object {
        obj(&format!(
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata: {{name: {name}, namespace: ns}}\nspec: {topology}\n"
        ))
    }

    #[test]
    fn every_template_reference_of_both_versions_is_read() {
        let names = |y: &str| -> Vec<String> {
            template_refs(&obj(y).value)
                .into_iter()
                .map(|(_, k, n)| format!("{k}/{n}"))
                .collect()
        };
        assert_eq!(
            names(CLASS_V1BETA2),
            [
                "DockerClusterTemplate/infra",
                "KubeadmControlPlaneTemplate/cp",
                "DockerMachineTemplate/cp-machine",
                "Metal3RemediationTemplate/rem",
                "KubeadmConfigTemplate/md-boot",
                "DockerMachineTemplate/md-infra",
                "KubeadmConfigTemplate/mp-boot",
                "DockerMachinePoolTemplate/mp-infra",
            ]
        );
        assert_eq!(
            names(CLASS_V1BETA1),
            [
                "DockerClusterTemplate/infra1",
                "KubeadmControlPlaneTemplate/cp1",
                "Metal3RemediationTemplate/rem1",
                "KubeadmConfigTemplate/md-boot1",
                "DockerMachineTemplate/md-infra1",
            ]
        );
    }

    #[test]
    fn a_changed_template_affects_the_classes_using_it_and_their_clusters() {
        let stored = vec![
            obj(CLASS_V1BETA2),
            obj(CLASS_V1BETA1),
            cluster("a", "{topology: {classRef: {name: c}}}"),
            cluster("b", "{topology: {class: old}}"),
            cluster("no-topology", "{}"),
        ];
        // Matched by group, kind and name whatever the version.
        let a = find(
            [template("DockerMachineTemplate", "md-infra")].iter(),
            &stored,
            false,
        );
        assert_eq!(a.classes, BTreeSet::from([("ns".into(), "c".into())]));
        assert_eq!(a.clusters, BTreeSet::from([("ns".into(), "a".into())]));
        assert_eq!(a.left_alone, 1);
        // The remediation template clusterctl forgot.
        let a = find(
            [template("Metal3RemediationTemplate", "rem1")].iter(),
            &stored,
            false,
        );
        assert_eq!(a.classes, BTreeSet::from([("ns".into(), "old".into())]));
        assert_eq!(a.clusters, BTreeSet::from([("ns".into(), "b".into())]));
        // Another namespace's template of the same name is another object.
        let mut elsewhere = template("DockerMachineTemplate", "md-infra");
        elsewhere.namespace = "other".into();
        let a = find([elsewhere].iter(), &stored, false);
        assert!(a.classes.is_empty() && a.clusters.is_empty());
        assert_eq!(a.left_alone, 2);
        // --all-current: every stored topology Cluster.
        let a = find(std::iter::empty(), &stored, true);
        assert_eq!(a.clusters.len(), 2);
        assert_eq!(a.left_alone, 0);
    }

    #[test]
    fn a_cluster_or_class_of_the_change_is_affected() {
        let stored = vec![
            obj(CLASS_V1BETA2),
            cluster("a", "{topology: {classRef: {name: c}}}"),
            cluster("b", "{topology: {classRef: {name: other}}}"),
        ];
        let a = find(
            [cluster("b", "{topology: {classRef: {name: other}}}")].iter(),
            &stored,
            false,
        );
        assert!(a.classes.is_empty());
        assert_eq!(a.clusters, BTreeSet::from([("ns".into(), "b".into())]));
        assert_eq!(a.left_alone, 1);
        let a = find([obj(CLASS_V1BETA2)].iter(), &stored, false);
        assert_eq!(a.classes, BTreeSet::from([("ns".into(), "c".into())]));
        assert_eq!(a.clusters, BTreeSet::from([("ns".into(), "a".into())]));
        assert!(a.has_cluster("", "a") && !a.has_cluster("x", "a"));
    }
}
