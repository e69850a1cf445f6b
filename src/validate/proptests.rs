//! Robustness: no JSON spec, however malformed, makes a validator panic. Specs are drawn from
//! the field names and tricky values the rules look at, so the generator reaches deep paths.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::api::{ApiVersion, Cluster, ClusterClass};
use crate::validate::testutil::object_from;
use crate::validate::{Gates, Options, cluster_class_delete, cluster_class_with, cluster_with};

const KEYS: &[&str] = &[
    "infrastructure",
    "controlPlane",
    "workers",
    "machineDeployments",
    "machinePools",
    "templateRef",
    "machineInfrastructure",
    "bootstrap",
    "kind",
    "name",
    "apiVersion",
    "class",
    "healthCheck",
    "checks",
    "remediation",
    "nodeStartupTimeoutSeconds",
    "maxInFlight",
    "triggerIf",
    "unhealthyLessThanOrEqualTo",
    "rollout",
    "strategy",
    "rollingUpdate",
    "maxSurge",
    "maxUnavailable",
    "naming",
    "template",
    "taints",
    "key",
    "metadata",
    "labels",
    "annotations",
    "kubernetesVersions",
    "patches",
    "definitions",
    "external",
    "selector",
    "matchResources",
    "infrastructureCluster",
    "machineDeploymentClass",
    "machinePoolClass",
    "names",
    "jsonPatches",
    "op",
    "path",
    "value",
    "valueFrom",
    "variable",
    "enabledIf",
    "variables",
    "topology",
    "classRef",
    "namespace",
    "version",
    "replicas",
    "enabled",
    "clusterNetwork",
    "pods",
    "services",
    "cidrBlocks",
    "infrastructureRef",
    "controlPlaneRef",
    "apiGroup",
    "upgrade",
    "generateUpgradePlanExtension",
    "generatePatchesExtension",
    "validateTopologyExtension",
    "settings",
];

const STRINGS: &[&str] = &[
    "",
    "a",
    "aa",
    "*",
    "a*",
    "*a",
    "**",
    "inline",
    "builtin",
    "builtin.cluster.name",
    "builtin.x",
    "x.y[0]",
    ".[",
    "add",
    "remove",
    "replace",
    "/spec",
    "/spec/a/1",
    "/spec/0/-",
    "v1.30.0",
    "1.30.0",
    "v1.31.0-rc.1+b",
    "v",
    "99999999999999999999",
    "10%",
    "x%",
    "-1",
    "0",
    "10.0.0.0/8",
    "::/200",
    "a/b/c",
    "/",
    "x.io/v1",
    "DockerClusterTemplate",
    "Template",
    "{{ .cluster.name }}",
    "{{ .nope }}",
    "{{",
    "}}",
    "{{ .a | upper }}",
    "é",
    "node.kubernetes.io/x",
    "cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-40i64..100).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e3f64..1e3).prop_map(|f| json!(f)),
        prop::sample::select(STRINGS).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|kv| {
                let mut m = Map::new();
                for (k, v) in kv {
                    m.insert(k.to_string(), v);
                }
                Value::Object(m)
            }),
        ]
    })
}

fn object(kind: &str, name: &str, annotations: &Value) -> crate::load::Object {
    object_from(json!({
        "apiVersion": "cluster.x-k8s.io/v1beta2",
        "kind": kind,
        "metadata": {"name": name, "namespace": "ns", "annotations": annotations},
    }))
}

fn class(spec: Value) -> ClusterClass {
    ClusterClass {
        object: object("ClusterClass", "class1", &Value::Null),
        api: ApiVersion::V1Beta2,
        spec: Default::default(),
        spec_value: spec,
        warnings: Vec::new(),
    }
}

fn cluster(spec: Value, annotations: &Value) -> Cluster {
    Cluster {
        object: object("Cluster", "c1", annotations),
        api: ApiVersion::V1Beta2,
        spec: Default::default(),
        spec_value: spec,
        warnings: Vec::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn validators_never_panic(
        a in json_value(),
        b in json_value(),
        c in json_value(),
        d in json_value(),
        annotations in json_value(),
        all_gates in any::<bool>(),
    ) {
        let gates = if all_gates { Gates::all() } else { Gates::default() };
        let opts = Options { gates, ..Options::default() };
        let (new_class, old_class) = (class(a.clone()), class(b.clone()));
        let c1 = cluster(c.clone(), &annotations);
        let c2 = cluster(d.clone(), &annotations);
        let _ = cluster_class_with(&opts, &new_class, None, &[]);
        let _ = cluster_class_with(&opts, &new_class, Some(&old_class), &[&c1, &c2]);
        let _ = cluster_class_delete(&new_class, &[&c1]);
        let _ = cluster_with(&opts, &c1, None, Some(&new_class), None);
        let _ = cluster_with(&opts, &c1, Some(&c2), Some(&new_class), Some(&old_class));
        let _ = cluster_with(&opts, &c1, Some(&c2), None, None);
        // Wrapped under the keys the rules start from.
        let cs = class(json!({"workers": a, "patches": b, "controlPlane": c}));
        let cl = cluster(json!({"topology": d}), &annotations);
        let _ = cluster_class_with(&opts, &cs, Some(&cs), &[&cl]);
        let _ = cluster_with(&opts, &cl, Some(&cl), Some(&cs), Some(&cs));
    }
}
