/*!
Tests of the builtin variables: each `builtin` field Cluster API computes for full and bare
Clusters in both API versions (tables per holder: global, control plane, MachineDeployment,
MachinePool), the errors at the field that caused them, the merge of global and holder values,
and the webhook's list of builtin paths.
*/

use std::sync::Arc;

use super::*;
use crate::api::ClusterClass;
use crate::load::Object;
use crate::source::{Origin, SourceFile};
use crate::topology::{Blueprint, Catalog};

const UID: &str = "8a35f406-6b9b-4b78-8c93-a7f878d90623";

fn objects(text: &str) -> Vec<Object> {
    let file = SourceFile::new("t.yaml", text);
    let docs = crate::load::yaml::parse_stream(&file).unwrap_or_else(|e| panic!("{e}"));
    docs.into_iter()
        .map(|d| {
            let origin = Origin {
                file: Arc::clone(&file),
                spans: Arc::new(d.spans),
            };
            Object::new(d.value, origin, "default").unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

/// A class `ns/cc` with CP machine infrastructure, MachineDeployment class `w` and
/// MachinePool class `p`, in the shape of `api`, with its templates.
fn class(api: ApiVersion) -> String {
    let (v, r) = match api {
        ApiVersion::V1Beta1 => ("v1beta1", "ref"),
        ApiVersion::V1Beta2 => ("v1beta2", "templateRef"),
    };
    let tref = |group: &str, kind: &str, name: &str| {
        format!("{{{r}: {{apiVersion: {group}.cluster.x-k8s.io/{v}, kind: {kind}, name: {name}}}}}")
    };
    let worker = |bootstrap: String, infra: String| match api {
        ApiVersion::V1Beta1 => {
            format!("template: {{bootstrap: {bootstrap}, infrastructure: {infra}}}")
        }
        ApiVersion::V1Beta2 => format!("bootstrap: {bootstrap}\n      infrastructure: {infra}"),
    };
    let template = |group: &str, kind: &str, name: &str| {
        format!(
            "---\napiVersion: {group}.cluster.x-k8s.io/{v}\nkind: {kind}\nmetadata: {{name: {name}, namespace: ns}}\nspec: {{template: {{spec: {{}}}}}}\n"
        )
    };
    let cp_ref = format!(
        "{r}: {{apiVersion: controlplane.cluster.x-k8s.io/{v}, kind: KubeadmControlPlaneTemplate, name: cp}}"
    );
    format!(
        "apiVersion: cluster.x-k8s.io/{v}
kind: ClusterClass
metadata: {{name: cc, namespace: ns}}
spec:
  infrastructure: {infra}
  controlPlane:
    {cp_ref}
    machineInfrastructure: {cp_machine}
  workers:
    machineDeployments:
    - class: w
      {md}
    machinePools:
    - class: p
      {mp}
{t1}{t2}{t3}{t4}{t5}",
        infra = tref("infrastructure", "DockerClusterTemplate", "infra"),
        cp_machine = tref("infrastructure", "DockerMachineTemplate", "m"),
        md = worker(
            tref("bootstrap", "KubeadmConfigTemplate", "boot"),
            tref("infrastructure", "DockerMachineTemplate", "m")
        ),
        mp = worker(
            tref("bootstrap", "KubeadmConfigTemplate", "boot"),
            tref("infrastructure", "DockerMachinePoolTemplate", "pool")
        ),
        t1 = template("infrastructure", "DockerClusterTemplate", "infra"),
        t2 = template("controlplane", "KubeadmControlPlaneTemplate", "cp"),
        t3 = template("bootstrap", "KubeadmConfigTemplate", "boot"),
        t4 = template("infrastructure", "DockerMachineTemplate", "m"),
        t5 = template("infrastructure", "DockerMachinePoolTemplate", "pool"),
    )
}

/// The Cluster `ns/c1` with every builtin source set.
fn full_cluster(api: ApiVersion) -> String {
    let (v, class) = match api {
        ApiVersion::V1Beta1 => ("v1beta1", "class: cc"),
        ApiVersion::V1Beta2 => ("v1beta2", "classRef: {name: cc}"),
    };
    format!(
        "apiVersion: cluster.x-k8s.io/{v}
kind: Cluster
metadata:
  name: c1
  namespace: ns
  uid: {UID}
  labels: {{foo: bar}}
  annotations:
    fizz: buzz
    kubectl.kubernetes.io/last-applied-configuration: '{{}}'
    cluster.x-k8s.io/conversion-data: '{{}}'
spec:
  clusterNetwork:
    pods: {{cidrBlocks: [192.168.0.0/16]}}
    services: {{cidrBlocks: [10.128.0.0/12]}}
    serviceDomain: cluster.local
  topology:
    {class}
    version: v1.34.1
    controlPlane:
      replicas: 3
      metadata:
        labels: {{tier: cp}}
        annotations: {{owner: platform, kubectl.kubernetes.io/last-applied-configuration: x}}
    workers:
      machineDeployments:
      - {{class: w, name: md-0, replicas: 2, metadata: {{annotations: {{team: a}}}}}}
      - {{class: w, name: md-1, replicas: 0}}
      machinePools:
      - {{class: p, name: mp-0, replicas: 1}}
"
    )
}

/// The Cluster with nothing optional: no uid, labels, annotations, network or replicas.
fn bare_cluster(api: ApiVersion) -> String {
    let (v, class) = match api {
        ApiVersion::V1Beta1 => ("v1beta1", "class: cc"),
        ApiVersion::V1Beta2 => ("v1beta2", "classRef: {name: cc}"),
    };
    format!(
        "apiVersion: cluster.x-k8s.io/{v}
kind: Cluster
metadata: {{name: c1, namespace: ns}}
spec:
  topology:
    {class}
    version: v1.34.1
    workers:
      machineDeployments:
      - {{class: w, name: md-0}}
      machinePools:
      - {{class: p, name: mp-0}}
"
    )
}

/// Parse the class and the Cluster and compute the Cluster's desired state.
fn setup(class_yaml: &str, cluster_yaml: &str) -> (Cluster, DesiredState) {
    let objs = objects(&format!("{class_yaml}---\n{cluster_yaml}"));
    let class_obj = objs
        .iter()
        .find(|o| o.kind == "ClusterClass")
        .unwrap_or_else(|| panic!("no class"));
    let cluster_obj = objs
        .iter()
        .find(|o| o.kind == "Cluster")
        .unwrap_or_else(|| panic!("no cluster"));
    let api_of = |o: &Object| {
        crate::api::check_core_object(o)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("not a core object"))
    };
    let class = ClusterClass::parse(class_obj, api_of(class_obj)).unwrap_or_else(|e| panic!("{e}"));
    let cluster =
        Cluster::parse(cluster_obj, api_of(cluster_obj)).unwrap_or_else(|e| panic!("{e}"));
    let catalog = Catalog::new(&objs);
    let bp = Blueprint::resolve(&class, &catalog).unwrap_or_else(|e| panic!("{e:?}"));
    let desired = crate::topology::compute(&cluster, &bp).unwrap_or_else(|e| panic!("{e:?}"));
    (cluster, desired)
}

fn name(desired: &DesiredState, role: Role) -> String {
    find(desired, &role)
        .map(|o| o.name().to_string())
        .unwrap_or_else(|| panic!("no {role:?}"))
}

fn md(n: &str) -> Holder {
    Holder::MachineDeployment {
        topology_name: n.into(),
    }
}

fn mp(n: &str) -> Holder {
    Holder::MachinePool {
        topology_name: n.into(),
    }
}

fn all_of(cluster: &Cluster, desired: &DesiredState) -> Vec<(String, Value)> {
    all(cluster, desired)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|h| (h.holder.id(), h.builtins))
        .collect()
}

/// The expected `builtin` of each holder of the full Cluster, for `api`.
fn expected_full(api: ApiVersion, desired: &DesiredState) -> Vec<(String, Value)> {
    let v1beta2 = api == ApiVersion::V1Beta2;
    let mut cluster = json!({
        "name": "c1",
        "namespace": "ns",
        "uid": UID,
        "metadata": {
            "labels": {
                "foo": "bar",
                "cluster.x-k8s.io/cluster-name": "c1",
                "topology.cluster.x-k8s.io/owned": "",
            },
            "annotations": {"fizz": "buzz"},
        },
        "topology": {"version": "v1.34.1", "class": "cc", "classNamespace": "ns"},
        "network": {
            "serviceDomain": "cluster.local",
            "services": ["10.128.0.0/12"],
            "pods": ["192.168.0.0/16"],
        },
    });
    if v1beta2 {
        cluster["topology"]["classRef"] = json!({"name": "cc", "namespace": "ns"});
    } else {
        cluster["metadata"]["annotations"] = json!({
            "fizz": "buzz",
            "kubectl.kubernetes.io/last-applied-configuration": "{}",
            "cluster.x-k8s.io/conversion-data": "{}",
        });
        cluster["network"]["ipFamily"] = json!("IPv4");
    }
    let mut cp_annotations = json!({
        "owner": "platform",
        "cluster.x-k8s.io/cloned-from-name": "cp",
        "cluster.x-k8s.io/cloned-from-groupkind": "KubeadmControlPlaneTemplate.controlplane.cluster.x-k8s.io",
    });
    if !v1beta2 {
        cp_annotations["kubectl.kubernetes.io/last-applied-configuration"] = json!("x");
    }
    let control_plane = json!({
        "name": name(desired, Role::ControlPlane),
        "version": "v1.34.1",
        "replicas": 3,
        "metadata": {
            "labels": {
                "tier": "cp",
                "cluster.x-k8s.io/cluster-name": "c1",
                "topology.cluster.x-k8s.io/owned": "",
            },
            "annotations": cp_annotations,
        },
        "machineTemplate": {"infrastructureRef": {
            "name": name(desired, Role::ControlPlaneInfrastructureMachineTemplate),
        }},
    });
    let worker_labels = |label: &str, n: &str| {
        json!({
            "cluster.x-k8s.io/cluster-name": "c1",
            "topology.cluster.x-k8s.io/owned": "",
            label: n,
        })
    };
    let md0 = json!({
        "version": "v1.34.1",
        "class": "w",
        "name": name(desired, Role::MachineDeployment("md-0".into())),
        "topologyName": "md-0",
        "replicas": 2,
        "metadata": {
            "labels": worker_labels(labels::DEPLOYMENT_NAME, "md-0"),
            "annotations": {"team": "a"},
        },
        "bootstrap": {"configRef": {"name": name(desired, Role::MachineDeploymentBootstrapTemplate("md-0".into()))}},
        "infrastructureRef": {"name": name(desired, Role::MachineDeploymentInfrastructureTemplate("md-0".into()))},
    });
    let md1 = json!({
        "version": "v1.34.1",
        "class": "w",
        "name": name(desired, Role::MachineDeployment("md-1".into())),
        "topologyName": "md-1",
        "replicas": 0,
        "metadata": {"labels": worker_labels(labels::DEPLOYMENT_NAME, "md-1")},
        "bootstrap": {"configRef": {"name": name(desired, Role::MachineDeploymentBootstrapTemplate("md-1".into()))}},
        "infrastructureRef": {"name": name(desired, Role::MachineDeploymentInfrastructureTemplate("md-1".into()))},
    });
    let mp0 = json!({
        "version": "v1.34.1",
        "class": "p",
        "name": name(desired, Role::MachinePool("mp-0".into())),
        "topologyName": "mp-0",
        "replicas": 1,
        "metadata": {"labels": worker_labels(labels::POOL_NAME, "mp-0")},
        "bootstrap": {"configRef": {"name": name(desired, Role::MachinePoolBootstrapConfig("mp-0".into()))}},
        "infrastructureRef": {"name": name(desired, Role::MachinePoolInfrastructure("mp-0".into()))},
    });
    let with = |key: &str, v: Value| json!({"builtin": {"cluster": cluster.clone(), key: v}});
    vec![
        (
            "InfrastructureCluster".into(),
            json!({"builtin": {"cluster": cluster.clone()}}),
        ),
        ("ControlPlane".into(), with("controlPlane", control_plane)),
        (
            "MachineDeployment/md-0".into(),
            with("machineDeployment", md0),
        ),
        (
            "MachineDeployment/md-1".into(),
            with("machineDeployment", md1),
        ),
        ("MachinePool/mp-0".into(), with("machinePool", mp0)),
    ]
}

#[test]
fn full_cluster_v1beta2_follows_main() {
    let api = ApiVersion::V1Beta2;
    let (cluster, desired) = setup(&class(api), &full_cluster(api));
    assert_eq!(all_of(&cluster, &desired), expected_full(api, &desired));
}

#[test]
fn full_cluster_v1beta1_follows_v1_10() {
    let api = ApiVersion::V1Beta1;
    let (cluster, desired) = setup(&class(api), &full_cluster(api));
    assert_eq!(all_of(&cluster, &desired), expected_full(api, &desired));
}

#[test]
fn bare_cluster_omits_what_is_empty() {
    for api in [ApiVersion::V1Beta2, ApiVersion::V1Beta1] {
        let (cluster, desired) = setup(&class(api), &bare_cluster(api));
        // The desired Cluster always carries the topology labels, so metadata stays.
        let mut want_cluster = json!({
            "name": "c1",
            "namespace": "ns",
            "metadata": {"labels": {
                "cluster.x-k8s.io/cluster-name": "c1",
                "topology.cluster.x-k8s.io/owned": "",
            }},
            "topology": {"version": "v1.34.1", "class": "cc", "classNamespace": "ns"},
        });
        if api == ApiVersion::V1Beta2 {
            want_cluster["topology"]["classRef"] = json!({"name": "cc", "namespace": "ns"});
        }
        let g = global(&cluster, &desired).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g, json!({"builtin": {"cluster": want_cluster}}), "{api:?}");

        let cp = item(&cluster, &desired, &Holder::ControlPlane)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_default();
        let cp = &cp["builtin"]["controlPlane"];
        assert!(cp.get("replicas").is_none(), "{api:?}: {cp}");
        assert_eq!(cp["version"], "v1.34.1");

        for (h, key) in [
            (md("md-0"), "machineDeployment"),
            (mp("mp-0"), "machinePool"),
        ] {
            let w = item(&cluster, &desired, &h)
                .unwrap_or_else(|e| panic!("{e}"))
                .unwrap_or_default();
            let w = &w["builtin"][key];
            assert!(w.get("replicas").is_none(), "{api:?}: {w}");
            assert!(w["metadata"].get("annotations").is_none(), "{api:?}: {w}");
        }
    }
}

#[test]
fn version_is_the_defaulted_one_and_class_namespace_is_kept() {
    let api = ApiVersion::V1Beta2;
    let cluster_yaml = bare_cluster(api)
        .replace(
            "classRef: {name: cc}",
            "classRef: {name: cc, namespace: ns}",
        )
        .replace("version: v1.34.1", "version: 1.34.1");
    let (cluster, desired) = setup(&class(api), &cluster_yaml);
    let g = global(&cluster, &desired).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g["builtin"]["cluster"]["topology"]["version"], "v1.34.1");
    let h = for_holder(&cluster, &desired, &md("md-0")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(h["builtin"]["machineDeployment"]["version"], "v1.34.1");
    assert_eq!(h["builtin"]["cluster"], g["builtin"]["cluster"]);
}

#[test]
fn infrastructure_cluster_has_no_item_and_sees_the_global_builtins() {
    let api = ApiVersion::V1Beta2;
    let (cluster, desired) = setup(&class(api), &bare_cluster(api));
    let h = Holder::InfrastructureCluster;
    assert_eq!(item(&cluster, &desired, &h).ok(), Some(None));
    assert_eq!(
        for_holder(&cluster, &desired, &h).ok(),
        global(&cluster, &desired).ok()
    );
    assert_eq!(
        holders(&desired),
        vec![
            Holder::InfrastructureCluster,
            Holder::ControlPlane,
            md("md-0"),
            mp("mp-0")
        ]
    );
    assert_eq!(
        Holder::ControlPlane.template_roles(),
        vec![
            Role::ControlPlane,
            Role::ControlPlaneInfrastructureMachineTemplate
        ]
    );
}

#[test]
fn control_plane_without_version_is_an_error_at_the_cluster() {
    let api = ApiVersion::V1Beta2;
    let (cluster, mut desired) = setup(&class(api), &bare_cluster(api));
    for o in &mut desired.objects {
        if o.role == Role::ControlPlane
            && let Some(spec) = o.value.get_mut("spec").and_then(Value::as_object_mut)
        {
            spec.remove("version");
        }
    }
    let e = item(&cluster, &desired, &Holder::ControlPlane)
        .err()
        .unwrap_or_else(|| panic!("expected an error"));
    assert_eq!(
        e.message,
        "Cluster ns/c1: failed to calculate ControlPlane variables: failed to get spec.version \
             from the ControlPlane: path .spec.version: field not found"
    );
    assert!(e.location.is_some());
    assert!(all(&cluster, &desired).is_err());
}

#[test]
fn missing_desired_objects_are_errors() {
    let api = ApiVersion::V1Beta2;
    let (cluster, desired) = setup(&class(api), &bare_cluster(api));
    let empty = DesiredState { objects: vec![] };
    assert_eq!(
        global(&cluster, &empty).err().map(|d| d.message),
        Some(
            "Cluster ns/c1: failed to calculate global variables: the desired state has no Cluster"
                .into()
        )
    );
    assert_eq!(
        item(&cluster, &empty, &Holder::ControlPlane).err().map(|d| d.message),
        Some("Cluster ns/c1: failed to calculate ControlPlane variables: the desired state has no ControlPlane".into())
    );
    let e = item(&cluster, &desired, &md("nope"))
        .err()
        .map(|d| d.message)
        .unwrap_or_default();
    assert_eq!(
        e,
        "Cluster ns/c1: could not find desired state for MachineDeployment \"nope\""
    );
}

#[test]
fn badly_typed_cluster_fields_point_at_the_field() {
    let api = ApiVersion::V1Beta2;
    let cluster_yaml = bare_cluster(api).replace(
        "metadata: {name: c1, namespace: ns}",
        "metadata: {name: c1, namespace: ns, labels: {num: 1}}",
    );
    let (cluster, desired) = setup(&class(api), &cluster_yaml);
    let e = global(&cluster, &desired)
        .err()
        .unwrap_or_else(|| panic!("expected an error"));
    assert_eq!(
        e.message,
        "Cluster ns/c1: failed to calculate global variables: metadata.labels.num: expected a string, found a number"
    );
    let (file, line, _) = e.position().unwrap_or_default();
    assert_eq!((file.as_str(), line > 1), ("t.yaml", true));
}

// --- Cluster API's variables_test.go, ported to the builders. -----------------------------

fn cluster_object(api: ApiVersion, meta: Value, network: Option<Value>) -> Value {
    let topology = match api {
        ApiVersion::V1Beta2 => {
            json!({"classRef": {"name": "clusterClass1"}, "version": "v1.21.1"})
        }
        ApiVersion::V1Beta1 => json!({"class": "clusterClass1", "version": "v1.21.1"}),
    };
    let mut metadata = json!({"name": "cluster1", "namespace": "default", "uid": UID});
    if let (Some(m), Value::Object(extra)) = (metadata.as_object_mut(), meta) {
        m.extend(extra);
    }
    let mut spec = json!({ "topology": topology });
    if let Some(n) = network {
        spec["clusterNetwork"] = n;
    }
    json!({"metadata": metadata, "spec": spec})
}

fn expected_cluster(api: ApiVersion, extra: Value) -> Value {
    let mut topology =
        json!({"version": "v1.21.1", "class": "clusterClass1", "classNamespace": "default"});
    if api == ApiVersion::V1Beta2 {
        topology["classRef"] = json!({"name": "clusterClass1", "namespace": "default"});
    }
    let mut out =
        json!({"name": "cluster1", "namespace": "default", "uid": UID, "topology": topology});
    if let (Some(m), Value::Object(extra)) = (out.as_object_mut(), extra) {
        m.extend(extra);
    }
    out
}

#[test]
fn global_table() {
    let full_net = json!({
        "services": {"cidrBlocks": ["10.10.10.1/24"]},
        "pods": {"cidrBlocks": ["11.10.10.1/24"]},
        "serviceDomain": "cluster.local",
    });
    let meta = json!({
        "labels": {"foo": "bar"},
        "annotations": {
            "fizz": "buzz",
            "kubectl.kubernetes.io/last-applied-configuration": "should not be copied",
            "cluster.x-k8s.io/conversion-data": "should not be copied",
        },
    });
    let no_domain = json!({
        "services": {"cidrBlocks": ["10.10.10.1/24"]},
        "pods": {"cidrBlocks": ["11.10.10.1/24"]},
    });
    let nil_ranges = json!({"services": {}, "pods": {}, "serviceDomain": "cluster.local"});
    // (name, metadata, clusterNetwork, expected extra fields on main, on v1.10)
    let cases: Vec<(&str, Value, Option<Value>, Value, Value)> = vec![
        (
            "everything set; annotations cleaned on main only",
            meta.clone(),
            Some(full_net.clone()),
            json!({
                "metadata": {"labels": {"foo": "bar"}, "annotations": {"fizz": "buzz"}},
                "network": {"serviceDomain": "cluster.local", "services": ["10.10.10.1/24"], "pods": ["11.10.10.1/24"]},
            }),
            json!({
                "metadata": meta.clone(),
                "network": {"serviceDomain": "cluster.local", "services": ["10.10.10.1/24"], "pods": ["11.10.10.1/24"], "ipFamily": "IPv4"},
            }),
        ),
        (
            "no metadata",
            json!({}),
            Some(full_net.clone()),
            json!({"network": {"serviceDomain": "cluster.local", "services": ["10.10.10.1/24"], "pods": ["11.10.10.1/24"]}}),
            json!({"network": {"serviceDomain": "cluster.local", "services": ["10.10.10.1/24"], "pods": ["11.10.10.1/24"], "ipFamily": "IPv4"}}),
        ),
        (
            "serviceDomain not set",
            json!({}),
            Some(no_domain),
            json!({"network": {"services": ["10.10.10.1/24"], "pods": ["11.10.10.1/24"]}}),
            json!({"network": {"services": ["10.10.10.1/24"], "pods": ["11.10.10.1/24"], "ipFamily": "IPv4"}}),
        ),
        (
            "nil CIDR blocks",
            json!({}),
            Some(nil_ranges),
            json!({"network": {"serviceDomain": "cluster.local"}}),
            json!({"network": {"serviceDomain": "cluster.local", "ipFamily": "IPv4"}}),
        ),
        (
            "empty clusterNetwork: no network on main, ipFamily only on v1.10",
            json!({}),
            Some(json!({})),
            json!({}),
            json!({"network": {"ipFamily": "IPv4"}}),
        ),
        ("no clusterNetwork", json!({}), None, json!({}), json!({})),
        (
            "an empty CIDR list still creates the network on main",
            json!({}),
            Some(json!({"services": {"cidrBlocks": []}})),
            json!({"network": {}}),
            json!({"network": {"ipFamily": "IPv4"}}),
        ),
        (
            "IPv6 and dual stack on v1.10",
            json!({}),
            Some(
                json!({"services": {"cidrBlocks": ["fd00::/108"]}, "pods": {"cidrBlocks": ["192.168.0.0/16", "fd00:100::/64"]}}),
            ),
            json!({"network": {"services": ["fd00::/108"], "pods": ["192.168.0.0/16", "fd00:100::/64"]}}),
            json!({"network": {"services": ["fd00::/108"], "pods": ["192.168.0.0/16", "fd00:100::/64"], "ipFamily": "DualStack"}}),
        ),
        (
            "mismatched families are Invalid on v1.10",
            json!({}),
            Some(
                json!({"services": {"cidrBlocks": ["fd00::/108"]}, "pods": {"cidrBlocks": ["192.168.0.0/16"]}}),
            ),
            json!({"network": {"services": ["fd00::/108"], "pods": ["192.168.0.0/16"]}}),
            json!({"network": {"services": ["fd00::/108"], "pods": ["192.168.0.0/16"], "ipFamily": "Invalid"}}),
        ),
        (
            "only cleaned annotations: an empty metadata on main",
            json!({"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}}),
            None,
            json!({"metadata": {}}),
            json!({"metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}}}),
        ),
        (
            "empty label map still makes metadata",
            json!({"labels": {}}),
            None,
            json!({"metadata": {}}),
            json!({"metadata": {}}),
        ),
    ];
    for (name, meta, net, main, v1_10) in cases {
        for (api, want) in [(ApiVersion::V1Beta2, &main), (ApiVersion::V1Beta1, &v1_10)] {
            let obj = cluster_object(api, meta.clone(), net.clone());
            let got = cluster_builtins(&obj, api).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            assert_eq!(got, expected_cluster(api, want.clone()), "{name} ({api:?})");
        }
    }
}

#[test]
fn global_without_uid_or_class_namespace() {
    let obj = json!({
        "metadata": {"name": "c", "namespace": "ns"},
        "spec": {"topology": {"class": "k", "classNamespace": "shared"}},
    });
    assert_eq!(
        cluster_builtins(&obj, ApiVersion::V1Beta1).ok(),
        Some(
            json!({"name": "c", "namespace": "ns", "topology": {"class": "k", "classNamespace": "shared"}})
        )
    );
    // classRef has no omitempty on main: it is written even when empty.
    let obj = json!({"metadata": {"name": "c"}, "spec": {}});
    assert_eq!(
        cluster_builtins(&obj, ApiVersion::V1Beta2).ok(),
        Some(json!({"name": "c", "topology": {"classRef": {"name": "", "namespace": ""}}}))
    );
}

fn cp_object(replicas: Option<i64>, meta: Value) -> Value {
    let mut cp = json!({"metadata": {"name": "controlPlane1", "namespace": "default"}, "spec": {"version": "v1.21.1"}});
    if let Some(r) = replicas {
        cp["spec"]["replicas"] = json!(r);
    }
    if let (Some(m), Value::Object(extra)) = (cp["metadata"].as_object_mut(), meta) {
        m.extend(extra);
    }
    cp
}

#[test]
fn control_plane_table() {
    let meta = json!({
        "labels": {"foo": "bar"},
        "annotations": {"fizz": "buzz", "kubectl.kubernetes.io/last-applied-configuration": "x", "cluster.x-k8s.io/conversion-data": "y"},
    });
    let template = json!({"metadata": {"name": "controlPlaneInfrastructureMachineTemplate1"}});
    // (name, topology replicas set, cp, machine template, expected on main)
    let cases: Vec<(&str, bool, Value, Option<&Value>, Value)> = vec![
        (
            "everything",
            true,
            cp_object(Some(3), meta.clone()),
            None,
            json!({"version": "v1.21.1", "metadata": {"labels": {"foo": "bar"}, "annotations": {"fizz": "buzz"}}, "name": "controlPlane1", "replicas": 3}),
        ),
        (
            "labels only",
            true,
            cp_object(Some(3), json!({"labels": {"foo": "bar"}})),
            None,
            json!({"version": "v1.21.1", "metadata": {"labels": {"foo": "bar"}}, "name": "controlPlane1", "replicas": 3}),
        ),
        (
            "no metadata",
            true,
            cp_object(Some(3), json!({})),
            None,
            json!({"version": "v1.21.1", "name": "controlPlane1", "replicas": 3}),
        ),
        (
            "replicas not managed by the topology",
            false,
            cp_object(Some(3), json!({})),
            None,
            json!({"version": "v1.21.1", "name": "controlPlane1"}),
        ),
        (
            "with the machine infrastructure template",
            true,
            cp_object(Some(3), json!({})),
            Some(&template),
            json!({"version": "v1.21.1", "name": "controlPlane1", "replicas": 3,
                   "machineTemplate": {"infrastructureRef": {"name": "controlPlaneInfrastructureMachineTemplate1"}}}),
        ),
    ];
    for (name, managed, cp, t, want) in cases {
        let got = control_plane_builtins(ApiVersion::V1Beta2, managed, &cp, t);
        assert_eq!(got.ok(), Some(want), "{name}");
    }
    // v1.10 keeps every annotation.
    let got = control_plane_builtins(
        ApiVersion::V1Beta1,
        true,
        &cp_object(Some(3), meta.clone()),
        None,
    );
    assert_eq!(got.ok().map(|v| v["metadata"].clone()), Some(meta));
}

#[test]
fn control_plane_replicas_and_version_errors() {
    // Managed replicas that the ControlPlane lacks: the contract accessor's error.
    let e = control_plane_builtins(ApiVersion::V1Beta2, true, &cp_object(None, json!({})), None);
    assert_eq!(
        e.err().map(|f| f.message),
        Some("failed to get spec.replicas from the ControlPlane: path .spec.replicas: field not found".into())
    );
    let mut cp = cp_object(Some(1), json!({}));
    cp["spec"]["version"] = json!(3);
    assert_eq!(
        control_plane_builtins(ApiVersion::V1Beta2, true, &cp, None).err().map(|f| f.message),
        Some("failed to get spec.version from the ControlPlane: failed to get .spec.version from object: \
                  .spec.version accessor error: 3 is of the type int64, expected string".into())
    );
    // main reads replicas as int32; v1.10 as int64.
    let big = cp_object(Some(1 << 32 | 5), json!({}));
    let main = control_plane_builtins(ApiVersion::V1Beta2, true, &big, None);
    let v1_10 = control_plane_builtins(ApiVersion::V1Beta1, true, &big, None);
    assert_eq!(main.ok().map(|v| v["replicas"].clone()), Some(json!(5)));
    assert_eq!(
        v1_10.ok().map(|v| v["replicas"].clone()),
        Some(json!(4_294_967_301_i64))
    );
}

fn worker_object(replicas: Option<i64>, meta: Value) -> Value {
    let mut o = json!({"metadata": {"name": "md1", "namespace": "default"},
                       "spec": {"template": {"spec": {"version": "v1.21.1"}}}});
    if let Some(r) = replicas {
        o["spec"]["replicas"] = json!(r);
    }
    if let (Some(m), Value::Object(extra)) = (o["metadata"].as_object_mut(), meta) {
        m.extend(extra);
    }
    o
}

#[test]
fn machine_table() {
    let bootstrap = json!({"metadata": {"name": "mdBT1"}});
    let infra = json!({"metadata": {"name": "mdIMT1"}});
    let base = json!({"version": "v1.21.1", "class": "md-class", "name": "md1", "topologyName": "md-topology"});
    let with = |extra: Value| {
        let mut v = base.clone();
        if let (Some(m), Value::Object(e)) = (v.as_object_mut(), extra) {
            m.extend(e);
        }
        v
    };
    let meta = json!({
        "labels": {"foo": "bar"},
        "annotations": {"fizz": "buzz", "kubectl.kubernetes.io/last-applied-configuration": "x", "cluster.x-k8s.io/conversion-data": "y"},
    });
    // (name, object, bootstrap, infra, expected on main)
    type Case<'a> = (&'a str, Value, Option<&'a Value>, Option<&'a Value>, Value);
    let cases: Vec<Case<'_>> = vec![
        (
            "everything but templates",
            worker_object(Some(3), meta.clone()),
            None,
            None,
            with(
                json!({"replicas": 3, "metadata": {"labels": {"foo": "bar"}, "annotations": {"fizz": "buzz"}}}),
            ),
        ),
        (
            "no metadata",
            worker_object(Some(3), json!({})),
            None,
            None,
            with(json!({"replicas": 3})),
        ),
        (
            "replicas not set",
            worker_object(None, json!({})),
            None,
            None,
            with(json!({})),
        ),
        (
            "zero replicas are kept",
            worker_object(Some(0), json!({})),
            None,
            None,
            with(json!({"replicas": 0})),
        ),
        (
            "bootstrap template",
            worker_object(Some(3), json!({})),
            Some(&bootstrap),
            None,
            with(json!({"replicas": 3, "bootstrap": {"configRef": {"name": "mdBT1"}}})),
        ),
        (
            "infrastructure template",
            worker_object(Some(3), json!({})),
            None,
            Some(&infra),
            with(json!({"replicas": 3, "infrastructureRef": {"name": "mdIMT1"}})),
        ),
        (
            "both templates",
            worker_object(Some(3), json!({})),
            Some(&bootstrap),
            Some(&infra),
            with(
                json!({"replicas": 3, "bootstrap": {"configRef": {"name": "mdBT1"}}, "infrastructureRef": {"name": "mdIMT1"}}),
            ),
        ),
    ];
    for (name, obj, b, i, want) in cases {
        let got = machine_builtins(ApiVersion::V1Beta2, "md-class", "md-topology", &obj, b, i);
        assert_eq!(got.ok(), Some(want), "{name}");
    }
    let got = machine_builtins(
        ApiVersion::V1Beta1,
        "md-class",
        "md-topology",
        &worker_object(None, meta.clone()),
        None,
        None,
    );
    assert_eq!(got.ok().map(|v| v["metadata"].clone()), Some(meta));
}

#[test]
fn merge_combines_objects_and_replaces_the_rest() {
    let a = json!({"builtin": {"cluster": {"name": "a", "network": {"pods": ["x"]}}}});
    let b = json!({"builtin": {"cluster": {"network": {"pods": ["y"]}}, "controlPlane": {"name": "cp"}}});
    assert_eq!(
        merge(&a, &b),
        json!({"builtin": {"cluster": {"name": "a", "network": {"pods": ["y"]}}, "controlPlane": {"name": "cp"}}})
    );
}

#[test]
fn webhook_builtin_paths() {
    let (main, old) = (ApiVersion::V1Beta2, ApiVersion::V1Beta1);
    assert_eq!(builtin_paths(main).len(), 44);
    assert_eq!(builtin_paths(old).len(), 43);
    for p in [
        "builtin.cluster.name",
        "builtin.cluster.metadata.labels",
        "builtin.controlPlane.machineTemplate.infrastructureRef.name",
        "builtin.machinePool.bootstrap.configRef.name",
        "builtin.machineDeployment.infrastructureRef.name",
    ] {
        assert!(is_builtin_path(p, main) && is_builtin_path(p, old), "{p}");
    }
    assert!(is_builtin_path(
        "builtin.cluster.topology.classRef.name",
        main
    ));
    assert!(!is_builtin_path(
        "builtin.cluster.topology.classRef.name",
        old
    ));
    assert!(is_builtin_path("builtin.cluster.network.ipFamily", old));
    assert!(!is_builtin_path("builtin.cluster.network.ipFamily", main));
    for p in [
        "builtin.cluster.metadata",
        "builtin.cluster.metadata.labels.env",
        "builtin.controlPlane.machineTemplate",
        "builtin.machineDeployment.bootstrap",
        "builtin.cluster.Name",
        "builtin.cluster.topology.classRef",
    ] {
        assert!(!is_builtin_path(p, main), "{p}");
    }
    assert!(is_builtin_path("builtin", main));
    assert!(!is_checked_as_builtin("builtin"));
    assert!(is_checked_as_builtin("builtin.cluster"));
    assert!(!is_checked_as_builtin("builtinx.cluster"));
}

#[test]
fn every_computed_leaf_is_an_accepted_path() {
    // Each scalar or list the builders produce can be named by valueFrom.variable, except
    // inside the maps (labels, annotations) and the objects the webhook lists only as leaves.
    fn leaves(prefix: &str, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m)
                if !prefix.ends_with(".labels") && !prefix.ends_with(".annotations") =>
            {
                for (k, v) in m {
                    leaves(&format!("{prefix}.{k}"), v, out);
                }
            }
            _ => out.push(prefix.to_string()),
        }
    }
    for api in [ApiVersion::V1Beta2, ApiVersion::V1Beta1] {
        let (cluster, desired) = setup(&class(api), &full_cluster(api));
        for h in all(&cluster, &desired).unwrap_or_else(|e| panic!("{e}")) {
            let mut out = Vec::new();
            leaves("builtin", &h.builtins["builtin"], &mut out);
            for p in out {
                assert!(is_builtin_path(&p, api), "{api:?} {p}");
            }
        }
    }
}
