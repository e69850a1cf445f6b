//! Whole-comparison tests: each case is (current, desired, expected object after the apply as
//! shown to a reviewer, expected change), plus property tests over arbitrary JSON.

use std::sync::Arc;

use serde_json::{Value, json};

use super::*;
use crate::load::Object;
use crate::source::{Origin, SourceFile, SpanTable};

const TOPO: &str = "capi-topology";

fn topo_record(fields: Value) -> Value {
    json!({"manager": TOPO, "operation": "Apply", "apiVersion": "x", "fieldsType": "FieldsV1",
           "time": "2025-01-01T00:00:00Z", "fieldsV1": fields})
}

fn other_record(manager: &str, fields: Value) -> Value {
    json!({"manager": manager, "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": fields})
}

/// A generated object as the topology would write it.
fn object(api: &str, kind: &str, labels: Value, spec: Value) -> Value {
    json!({"apiVersion": api, "kind": kind,
           "metadata": {"name": "c1-abc", "namespace": "ns", "labels": labels}, "spec": spec})
}

/// The same object as read back from the server: uid, resourceVersion, status, managedFields.
fn stored(mut v: Value, managed_fields: Option<Value>) -> Value {
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("uid".into(), json!("uid-1"));
        meta.insert("resourceVersion".into(), json!("42"));
        meta.insert("creationTimestamp".into(), json!("2025-01-01T00:00:00Z"));
        if let Some(mf) = managed_fields {
            meta.insert("managedFields".into(), mf);
        }
    }
    if let Some(obj) = v.as_object_mut() {
        obj.insert("status".into(), json!({"ready": true}));
    }
    v
}

const INFRA: &str = "infrastructure.cluster.x-k8s.io/v1beta2";

fn labels() -> Value {
    json!({"cluster.x-k8s.io/cluster-name": "c1", "topology.cluster.x-k8s.io/owned": ""})
}

fn labels_with(extra: &[(&str, &str)]) -> Value {
    let mut l = labels();
    for (k, v) in extra {
        l[*k] = json!(v);
    }
    l
}

/// capi-topology's record for a `labels()` + `spec` intent with spec leaves `spec_fields`.
fn topo_fields(spec_fields: Value) -> Value {
    topo_record(json!({
        "f:metadata": {"f:labels": {".": {}, "f:cluster.x-k8s.io/cluster-name": {}, "f:topology.cluster.x-k8s.io/owned": {}}},
        "f:spec": spec_fields
    }))
}

fn widget_crd(list_type: Value) -> Object {
    let origin = Origin {
        file: SourceFile::new("crd.yaml", ""),
        spans: Arc::new(SpanTable::default()),
    };
    let mut ports = json!({"type": "array", "items": {"type": "object"}});
    if let (Some(p), Some(extra)) = (ports.as_object_mut(), list_type.as_object()) {
        p.extend(extra.clone());
    }
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "dockerclusters.infrastructure.cluster.x-k8s.io"},
        "spec": {"group": "infrastructure.cluster.x-k8s.io", "names": {"kind": "DockerCluster"},
                 "versions": [{"name": "v1beta2", "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                     "spec": {"type": "object", "properties": {"ports": ports,
                        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}}}}}]}
    });
    Object::new(crd, origin, "default").unwrap_or_else(|e| panic!("{e}"))
}

struct Case {
    name: &'static str,
    current: Value,
    desired: Value,
    lists: ListTypes,
    /// `for_display` of the object after the apply.
    want_after: Value,
    want: Change,
    want_exact: bool,
}

fn cases() -> Vec<Case> {
    let builtin = ListTypes::builtin;
    let spec = json!({"a": 1, "replicas": 3});
    let plain = object(INFRA, "DockerCluster", labels(), spec.clone());
    let topo_a_replicas = json!({"f:a": {}, "f:replicas": {}});
    let (crd_map, _) = ListTypes::builtin().with_crds(
        &[widget_crd(
            json!({"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}),
        )],
        &[],
    );
    let md_v2 = |spec: Value| {
        object(
            "cluster.x-k8s.io/v1beta2",
            "MachineDeployment",
            labels(),
            spec,
        )
    };
    let md_v1 = |spec: Value| {
        object(
            "cluster.x-k8s.io/v1beta1",
            "MachineDeployment",
            labels(),
            spec,
        )
    };
    vec![
        Case {
            name: "identical",
            current: stored(
                plain.clone(),
                Some(json!([topo_fields(topo_a_replicas.clone())])),
            ),
            desired: plain.clone(),
            lists: builtin(),
            want_after: plain.clone(),
            want: Change::None,
            want_exact: true,
        },
        Case {
            name: "replicas changed",
            current: stored(
                plain.clone(),
                Some(json!([topo_fields(topo_a_replicas.clone())])),
            ),
            desired: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"a": 1, "replicas": 5}),
            ),
            lists: builtin(),
            want_after: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"a": 1, "replicas": 5}),
            ),
            want: Change::Spec,
            want_exact: true,
        },
        Case {
            name: "label added",
            current: stored(plain.clone(), None),
            desired: object(
                INFRA,
                "DockerCluster",
                labels_with(&[("tier", "web")]),
                spec.clone(),
            ),
            lists: builtin(),
            want_after: object(
                INFRA,
                "DockerCluster",
                labels_with(&[("tier", "web")]),
                spec.clone(),
            ),
            want: Change::MetadataOnly,
            want_exact: false,
        },
        Case {
            name: "a label another manager added survives",
            current: stored(
                object(
                    INFRA,
                    "DockerCluster",
                    labels_with(&[("team", "blue")]),
                    spec.clone(),
                ),
                Some(json!([
                    topo_fields(topo_a_replicas.clone()),
                    other_record(
                        "kubectl",
                        json!({"f:metadata": {"f:labels": {"f:team": {}}}})
                    )
                ])),
            ),
            desired: plain.clone(),
            lists: builtin(),
            want_after: object(
                INFRA,
                "DockerCluster",
                labels_with(&[("team", "blue")]),
                spec.clone(),
            ),
            want: Change::None,
            want_exact: true,
        },
        Case {
            name: "a label capi-topology owned alone and no longer sends is removed",
            current: stored(
                object(
                    INFRA,
                    "DockerCluster",
                    labels_with(&[("tier", "web")]),
                    spec.clone(),
                ),
                Some(json!([topo_record(json!({"f:metadata": {"f:labels": {
                    "f:cluster.x-k8s.io/cluster-name": {}, "f:topology.cluster.x-k8s.io/owned": {}, "f:tier": {}}},
                    "f:spec": {"f:a": {}, "f:replicas": {}}}))])),
            ),
            desired: plain.clone(),
            lists: builtin(),
            want_after: plain.clone(),
            want: Change::MetadataOnly,
            want_exact: true,
        },
        Case {
            name: "field dropped from the template, owned by capi-topology: removed",
            current: stored(
                plain.clone(),
                Some(json!([topo_fields(topo_a_replicas.clone())])),
            ),
            desired: object(INFRA, "DockerCluster", labels(), json!({"replicas": 3})),
            lists: builtin(),
            want_after: object(INFRA, "DockerCluster", labels(), json!({"replicas": 3})),
            want: Change::Spec,
            want_exact: true,
        },
        Case {
            name: "field dropped from the template, co-owned by another manager: kept",
            current: stored(
                plain.clone(),
                Some(json!([
                    topo_fields(topo_a_replicas.clone()),
                    other_record("manager", json!({"f:spec": {"f:a": {}}}))
                ])),
            ),
            desired: object(INFRA, "DockerCluster", labels(), json!({"replicas": 3})),
            lists: builtin(),
            want_after: plain.clone(),
            // Values do not change, but capi-topology gives up `a`: an ownership-only change.
            want: Change::MetadataOnly,
            want_exact: true,
        },
        Case {
            // Documented false negative: without managedFields the removal cannot be seen.
            name: "field dropped from the template, no managedFields: kept",
            current: stored(plain.clone(), None),
            desired: object(INFRA, "DockerCluster", labels(), json!({"replicas": 3})),
            lists: builtin(),
            want_after: plain.clone(),
            want: Change::None,
            want_exact: false,
        },
        Case {
            name: "a plain list is replaced wholesale",
            current: stored(
                object(
                    INFRA,
                    "DockerCluster",
                    labels(),
                    json!({"subnets": ["a", "b"]}),
                ),
                None,
            ),
            desired: object(INFRA, "DockerCluster", labels(), json!({"subnets": ["c"]})),
            lists: builtin(),
            want_after: object(INFRA, "DockerCluster", labels(), json!({"subnets": ["c"]})),
            want: Change::Spec,
            want_exact: false,
        },
        Case {
            name: "ownerReferences merge by uid: another owner's entry survives",
            current: stored(
                json!({"apiVersion": INFRA, "kind": "DockerCluster",
                       "metadata": {"name": "c1-abc", "namespace": "ns", "labels": labels(),
                                    "ownerReferences": [{"uid": "shim", "kind": "Secret", "name": "c1-shim"},
                                                        {"uid": "cl", "kind": "Cluster", "name": "c1"}]},
                       "spec": spec.clone()}),
                Some(json!([
                    topo_record(
                        json!({"f:metadata": {"f:ownerReferences": {"k:{\"uid\":\"shim\"}": {".": {}, "f:kind": {}, "f:name": {}, "f:uid": {}}}}})
                    ),
                    other_record(
                        "manager",
                        json!({"f:metadata": {"f:ownerReferences": {"k:{\"uid\":\"cl\"}": {".": {}, "f:kind": {}}}}})
                    )
                ])),
            ),
            desired: json!({"apiVersion": INFRA, "kind": "DockerCluster",
                            "metadata": {"name": "c1-abc", "namespace": "ns", "labels": labels(),
                                         "ownerReferences": [{"uid": "shim", "kind": "Secret", "name": "c1-shim"}]},
                            "spec": spec.clone()}),
            lists: builtin(),
            want_after: json!({"apiVersion": INFRA, "kind": "DockerCluster",
                               "metadata": {"name": "c1-abc", "namespace": "ns", "labels": labels(),
                                            "ownerReferences": [{"uid": "shim", "kind": "Secret", "name": "c1-shim"},
                                                                {"uid": "cl", "kind": "Cluster", "name": "c1"}]},
                               "spec": spec.clone()}),
            // The intent now also owns labels and spec, which the old record did not list.
            want: Change::MetadataOnly,
            want_exact: true,
        },
        Case {
            name: "a CRD map list merges per key: another manager's entry survives, a dropped one goes",
            current: stored(
                object(
                    INFRA,
                    "DockerCluster",
                    labels(),
                    json!({"ports": [
                    {"name": "api", "port": 6443}, {"name": "extra", "port": 1}, {"name": "old", "port": 2}]}),
                ),
                Some(json!([
                    topo_fields(json!({"f:ports": {
                                "k:{\"name\":\"api\"}": {".": {}, "f:name": {}, "f:port": {}},
                                "k:{\"name\":\"old\"}": {".": {}, "f:name": {}, "f:port": {}}}})),
                    other_record(
                        "provider",
                        json!({"f:spec": {"f:ports": {"k:{\"name\":\"extra\"}": {".": {}, "f:name": {}, "f:port": {}}}}})
                    )
                ])),
            ),
            desired: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"ports": [{"name": "api", "port": 443}]}),
            ),
            lists: crd_map.clone(),
            want_after: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"ports": [
                {"name": "api", "port": 443}, {"name": "extra", "port": 1}]}),
            ),
            want: Change::Spec,
            want_exact: true,
        },
        Case {
            name: "without the CRD the same list is atomic: the other entry is lost (over-report)",
            current: stored(
                object(
                    INFRA,
                    "DockerCluster",
                    labels(),
                    json!({"ports": [{"name": "api", "port": 6443}, {"name": "extra", "port": 1}]}),
                ),
                None,
            ),
            desired: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"ports": [{"name": "api", "port": 6443}]}),
            ),
            lists: builtin(),
            want_after: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"ports": [{"name": "api", "port": 6443}]}),
            ),
            want: Change::Spec,
            want_exact: false,
        },
        Case {
            name: "managedFields reveal a map list even without the CRD",
            current: stored(
                object(
                    INFRA,
                    "DockerCluster",
                    labels(),
                    json!({"ports": [{"name": "api", "port": 6443}, {"name": "extra", "port": 1}]}),
                ),
                Some(json!([
                    topo_fields(
                        json!({"f:ports": {"k:{\"name\":\"api\"}": {".": {}, "f:name": {}, "f:port": {}}}})
                    ),
                    other_record(
                        "provider",
                        json!({"f:spec": {"f:ports": {"k:{\"name\":\"extra\"}": {".": {}, "f:name": {}, "f:port": {}}}}})
                    )
                ])),
            ),
            desired: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"ports": [{"name": "api", "port": 6443}]}),
            ),
            lists: builtin(),
            want_after: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"ports": [{"name": "api", "port": 6443}, {"name": "extra", "port": 1}]}),
            ),
            want: Change::None,
            want_exact: true,
        },
        Case {
            name: "listType=set merges per value",
            current: stored(
                object(
                    INFRA,
                    "DockerCluster",
                    labels(),
                    json!({"tags": ["a", "mine"]}),
                ),
                Some(json!([
                    topo_fields(json!({"f:tags": {"v:\"a\"": {}}})),
                    other_record("user", json!({"f:spec": {"f:tags": {"v:\"mine\"": {}}}}))
                ])),
            ),
            desired: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"tags": ["a", "b"]}),
            ),
            lists: crd_map.clone(),
            want_after: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"tags": ["a", "mine", "b"]}),
            ),
            want: Change::Spec,
            want_exact: true,
        },
        Case {
            name: "ignore paths keep the provider's control plane endpoint",
            current: stored(
                object(
                    INFRA,
                    "DockerCluster",
                    labels(),
                    json!({"controlPlaneEndpoint": {"host": "10.0.0.1", "port": 6443}, "a": 1}),
                ),
                Some(json!([
                    topo_fields(json!({"f:a": {}})),
                    other_record(
                        "capd",
                        json!({"f:spec": {"f:controlPlaneEndpoint": {"f:host": {}, "f:port": {}}}})
                    )
                ])),
            ),
            desired: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"controlPlaneEndpoint": {"host": "", "port": 0}, "a": 1}),
            ),
            lists: builtin(),
            want_after: object(
                INFRA,
                "DockerCluster",
                labels(),
                json!({"controlPlaneEndpoint": {"host": "10.0.0.1", "port": 6443}, "a": 1}),
            ),
            want: Change::None,
            want_exact: true,
        },
        Case {
            name: "v1beta2 MachineDeployment defaults do not show as changes",
            current: stored(
                md_v2(json!({
                "clusterName": "c1", "replicas": 1,
                "rollout": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}},
                "selector": {"matchLabels": labels()},
                "template": {"metadata": {"labels": labels()}, "spec": {"clusterName": "c1", "version": "v1.30.0"}}})),
                None,
            ),
            desired: md_v2(json!({
                "clusterName": "c1",
                "selector": {"matchLabels": labels()},
                "template": {"metadata": {"labels": labels()}, "spec": {"clusterName": "c1", "version": "1.30.0"}}})),
            lists: builtin(),
            want_after: md_v2(json!({
                "clusterName": "c1", "replicas": 1,
                "rollout": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}},
                "selector": {"matchLabels": labels()},
                "template": {"metadata": {"labels": labels()}, "spec": {"clusterName": "c1", "version": "v1.30.0"}}})),
            want: Change::None,
            want_exact: false,
        },
        Case {
            name: "v1beta1 MachineDeployment defaults do not show as changes",
            current: stored(
                md_v1(json!({
                "clusterName": "c1", "replicas": 1, "minReadySeconds": 0, "revisionHistoryLimit": 1, "progressDeadlineSeconds": 600,
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
                "selector": {"matchLabels": labels()},
                "template": {"metadata": {"labels": labels()}, "spec": {"clusterName": "c1", "version": "v1.30.0",
                    "infrastructureRef": {"kind": "DockerMachineTemplate", "name": "i", "namespace": "ns"}}}})),
                None,
            ),
            desired: md_v1(json!({
                "clusterName": "c1",
                "selector": {"matchLabels": labels()},
                "template": {"metadata": {"labels": labels()}, "spec": {"clusterName": "c1", "version": "v1.30.0",
                    "infrastructureRef": {"kind": "DockerMachineTemplate", "name": "i"}}}})),
            lists: builtin(),
            want_after: md_v1(json!({
                "clusterName": "c1", "replicas": 1, "minReadySeconds": 0, "revisionHistoryLimit": 1, "progressDeadlineSeconds": 600,
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
                "selector": {"matchLabels": labels()},
                "template": {"metadata": {"labels": labels()}, "spec": {"clusterName": "c1", "version": "v1.30.0",
                    "infrastructureRef": {"kind": "DockerMachineTemplate", "name": "i", "namespace": "ns"}}}})),
            want: Change::None,
            want_exact: false,
        },
        Case {
            name: "replicas the topology stops setting fall back to the default (autoscaler hand-over)",
            current: stored(
                md_v2(json!({"clusterName": "c1", "replicas": 4,
                "selector": {"matchLabels": labels()}, "template": {"metadata": {"labels": labels()}}})),
                Some(json!([topo_fields(
                    json!({"f:clusterName": {}, "f:replicas": {}, "f:selector": {"f:matchLabels": {}},
                    "f:template": {"f:metadata": {"f:labels": {}}}})
                )])),
            ),
            desired: md_v2(
                json!({"clusterName": "c1", "selector": {"matchLabels": labels()}, "template": {"metadata": {"labels": labels()}}}),
            ),
            lists: builtin(),
            want_after: md_v2(json!({"clusterName": "c1", "replicas": 1,
                "rollout": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}},
                "selector": {"matchLabels": labels()}, "template": {"metadata": {"labels": labels()}}})),
            want: Change::Spec,
            want_exact: true,
        },
        Case {
            name: "status, managedFields and resourceVersion never show up",
            current: stored(
                plain.clone(),
                Some(json!([topo_fields(topo_a_replicas.clone())])),
            ),
            desired: {
                let mut d = plain.clone();
                d["status"] = json!({"ready": false, "phase": "x"});
                d["metadata"]["resourceVersion"] = json!("1");
                d["metadata"]["managedFields"] = json!([]);
                d["metadata"]["annotations"] = json!({"topology.cluster.x-k8s.io/dry-run": ""});
                d
            },
            lists: builtin(),
            want_after: plain.clone(),
            want: Change::None,
            want_exact: true,
        },
        Case {
            name: "malformed managedFields: no removal, no panic",
            current: stored(
                plain.clone(),
                Some(json!([topo_record(json!({"f:spec": "not a set"})), 7, {"manager": []}])),
            ),
            desired: object(INFRA, "DockerCluster", labels(), json!({"replicas": 3})),
            lists: builtin(),
            want_after: plain.clone(),
            want: Change::None,
            want_exact: false,
        },
    ]
}

#[test]
fn comparison_table() {
    for case in cases() {
        let ignore = endpoint_ignore_paths(&case.desired);
        let v = compare(&case.current, &case.desired, &ignore, &case.lists);
        assert_eq!(
            for_display(&v.after),
            case.want_after,
            "{}: after",
            case.name
        );
        assert_eq!(v.change, case.want, "{}: change", case.name);
        assert_eq!(v.exact, case.want_exact, "{}: exact", case.name);
        let shown = for_display(&v.after);
        assert!(shown.get("status").is_none(), "{}", case.name);
        assert!(
            shown.pointer("/metadata/managedFields").is_none(),
            "{}",
            case.name
        );
        assert!(
            shown.pointer("/metadata/resourceVersion").is_none(),
            "{}",
            case.name
        );
        // The verdict is stable: applying the same desired state to the result changes nothing
        // more (ownership aside, which the simulation does not write back).
        let again = compare(&v.after, &case.desired, &ignore, &case.lists);
        assert_eq!(
            change_ignoring(&v.after, &again.after, &ignore),
            Change::None,
            "{}: idempotent",
            case.name
        );
    }
}

#[test]
fn uid_is_carried_from_current() {
    let current = stored(object(INFRA, "DockerCluster", labels(), json!({})), None);
    let mut desired = object(INFRA, "DockerCluster", labels(), json!({}));
    desired["metadata"]["uid"] = json!("stale");
    let v = compare(&current, &desired, &[], &ListTypes::builtin());
    assert_eq!(v.after["metadata"]["uid"], json!("uid-1"));
    assert_eq!(v.change, Change::None);
}

#[test]
fn change_classification() {
    let base = json!({"apiVersion": "a", "kind": "K", "metadata": {"name": "n", "labels": {"x": "1"}}, "spec": {"a": 1}, "status": {"s": 1}});
    let with = |pointer: &str, value: Value| {
        let mut v = base.clone();
        if let Some(slot) = v.pointer_mut(pointer) {
            *slot = value;
        }
        v
    };
    let cases = [
        (base.clone(), Change::None),
        (with("/status/s", json!(2)), Change::None),
        (with("/metadata/labels/x", json!("2")), Change::MetadataOnly),
        (with("/spec/a", json!(2)), Change::Spec),
        (with("/kind", json!("Other")), Change::MetadataOnly),
    ];
    for (after, want) in cases {
        assert_eq!(change(&base, &after), want, "{after}");
    }
}

mod properties {
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    use super::super::*;

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("spec".to_string()),
            Just("metadata".to_string()),
            Just("labels".to_string()),
            Just("ownerReferences".to_string()),
            Just("uid".to_string()),
            Just("name".to_string()),
            Just("status".to_string()),
            Just("template".to_string()),
            Just("readinessGates".to_string()),
            Just("conditionType".to_string()),
            "[a-z]{1,3}",
        ]
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            "[a-z0-9]{0,4}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(key(), inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>())),
            ]
        })
    }

    /// A managedFields record: mostly well-formed element keys, sometimes garbage.
    fn fields_v1() -> impl Strategy<Value = Value> {
        let element = prop_oneof![
            key().prop_map(|k| format!("f:{k}")),
            Just("k:{\"uid\":\"a\"}".to_string()),
            Just("k:{\"conditionType\":\"1\"}".to_string()),
            Just("v:1".to_string()),
            Just("v:\"a\"".to_string()),
            Just(".".to_string()),
            Just("i:0".to_string()),
            "[a-z:{]{0,4}",
        ];
        let leaf = prop_oneof![Just(json!({})), Just(json!(1)), Just(json!([]))];
        leaf.prop_recursive(5, 32, 4, move |inner| {
            prop::collection::btree_map(element.clone(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>()))
        })
    }

    fn object_with_fields() -> impl Strategy<Value = Value> {
        (
            prop::collection::btree_map(key(), json_value(), 0..5),
            prop::collection::vec((prop::bool::ANY, fields_v1()), 0..3),
            "(MachineDeployment|DockerCluster|[A-Z][a-z]{0,3})",
        )
            .prop_map(|(m, records, kind)| {
                let mut obj: Map<String, Value> = m.into_iter().collect();
                obj.insert("apiVersion".into(), json!("cluster.x-k8s.io/v1beta2"));
                obj.insert("kind".into(), json!(kind));
                let entries: Vec<Value> = records
                    .into_iter()
                    .map(|(topo, f)| {
                        json!({"manager": if topo { "capi-topology" } else { "other" },
                               "operation": "Apply", "fieldsV1": f})
                    })
                    .collect();
                match obj.get_mut("metadata") {
                    Some(Value::Object(meta)) => {
                        meta.insert("managedFields".into(), Value::Array(entries));
                    }
                    _ => {
                        obj.insert("metadata".into(), json!({"managedFields": entries}));
                    }
                }
                Value::Object(obj)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Re-applying what an object already holds never changes its values.
        #[test]
        fn reapplying_current_is_no_change(current in object_with_fields()) {
            let lists = ListTypes::builtin();
            let after = apply(&current, &intent(&current, &[]), &lists);
            prop_assert_eq!(change(&current, &after), Change::None);
        }

        /// Without ownership records the whole comparison agrees, defaults included.
        #[test]
        fn comparing_with_itself_is_no_change(current in object_with_fields()) {
            let mut current = current;
            if let Some(meta) = current.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.remove("managedFields");
            }
            let v = compare(&current, &current, &endpoint_ignore_paths(&current), &ListTypes::builtin());
            prop_assert_eq!(v.change, Change::None);
        }

        /// The filter builds the same object as copying everything and removing what is not
        /// allowed (the way it was first written), for any object whose `metadata` is a mapping.
        #[test]
        fn filter_equals_copy_and_remove(v in object_with_fields(), host in prop::bool::ANY) {
            prop_assume!(v.get("metadata").is_none_or(Value::is_object));
            let ignore: Vec<&[&str]> = if host { vec![ENDPOINT_HOST] } else { Vec::new() };
            prop_assert_eq!(
                crate::plan::ssa::intent::filter(&v, DEFAULT_ALLOWED, &ignore),
                super::reference_filter(&v, DEFAULT_ALLOWED, &ignore)
            );
        }

        /// Any pair of inputs, however odd, yields an answer.
        #[test]
        fn never_panics(current in object_with_fields(), desired in json_value(), other in json_value()) {
            let lists = ListTypes::builtin();
            let _ = apply(&current, &desired, &lists);
            let _ = apply(&other, &current, &lists);
            let _ = compare(&current, &desired, &endpoint_ignore_paths(&desired), &lists);
            let _ = ownership_changed(&current, &desired, &lists);
            let _ = for_display(&other);
            let mut d = desired.clone();
            default_machine_deployment(&mut d, &other);
            for api in [crate::api::ApiVersion::V1Beta1, crate::api::ApiVersion::V1Beta2] {
                let _ = compare_cluster(&current, &desired, api);
                let _ = apply_cluster(&other, &current, api);
            }
        }
    }
}

#[test]
fn machine_deployment_defaults_missing_from_current_are_not_changes() {
    // A current object written without the webhook's defaults (stored before an upgrade, or
    // built offline) compared with an after that has them: upstream dry-runs both sides.
    let current = json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineDeployment",
        "metadata": {"name": "md", "namespace": "ns", "labels": {"cluster.x-k8s.io/cluster-name": "c1"}},
        "spec": {"clusterName": "c1", "replicas": 2, "selector": {"matchLabels": {"cluster.x-k8s.io/cluster-name": "c1"}},
                 "template": {"metadata": {"labels": {"cluster.x-k8s.io/cluster-name": "c1"}}}}});
    let mut after = current.clone();
    default_machine_deployment(&mut after, &current);
    assert_ne!(
        after, current,
        "the defaults must add something for this test to mean anything"
    );
    assert_eq!(change(&current, &after), Change::None);
    let mut scaled = after.clone();
    scaled["spec"]["replicas"] = json!(3);
    assert_eq!(change(&current, &scaled), Change::Spec);
}

/// The filter as first written: copy everything, then remove what is not allowed.
fn reference_filter(v: &Value, allowed: &[&[&str]], ignore: &[&[&str]]) -> Value {
    fn walk(v: &mut Value, path: &mut Vec<String>, drop: &dyn Fn(&[String]) -> bool) -> bool {
        let Some(map) = v.as_object_mut() else {
            return false;
        };
        let keys: Vec<String> = map.keys().cloned().collect();
        let mut removed = false;
        for key in keys {
            path.push(key.clone());
            if drop(path) {
                map.remove(&key);
                removed = true;
            } else if let Some(child) = map.get_mut(&key)
                && walk(child, path, drop)
            {
                removed = true;
                if child.as_object().is_some_and(serde_json::Map::is_empty) {
                    map.remove(&key);
                }
            }
            path.pop();
        }
        removed
    }
    let overlaps = |p: &[String], a: &[&str]| p.iter().zip(a).all(|(x, y)| x.as_str() == *y);
    let mut out = v.clone();
    walk(&mut out, &mut Vec::new(), &|p: &[String]| {
        !allowed.iter().any(|a| overlaps(p, a))
    });
    walk(&mut out, &mut Vec::new(), &|p: &[String]| {
        ignore
            .iter()
            .any(|i| p.len() == i.len() && p.iter().zip(*i).all(|(x, y)| x.as_str() == *y))
    });
    out
}

/// Comparing against state topoplan computed itself (owned by capi-topology alone) gives the
/// same answer as recording that ownership in managedFields and running the full comparison.
#[test]
fn sole_owner_comparison_equals_the_recorded_one() {
    let lists = ListTypes::builtin();
    let old = json!({
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DockerMachineTemplate",
        "metadata": {"name": "t", "namespace": "ns", "labels": {"a": "1", "b": "2"},
                     "ownerReferences": [{"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster", "name": "c"}]},
        "spec": {"template": {"spec": {"image": "x", "mounts": [{"p": "/a"}], "extra": {"k": "v"}}}}
    });
    let news = [
        old.clone(),
        // A field dropped, a label dropped, a list changed, a value changed.
        json!({
            "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DockerMachineTemplate",
            "metadata": {"name": "t", "namespace": "ns", "labels": {"a": "1"},
                         "ownerReferences": [{"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster", "name": "c"}]},
            "spec": {"template": {"spec": {"image": "y", "mounts": [{"p": "/b"}]}}}
        }),
        // Only a label added.
        {
            let mut v = old.clone();
            v["metadata"]["labels"]["c"] = json!("3");
            v
        },
    ];
    let mut changes = Vec::new();
    for new in news {
        let mut recorded = old.clone();
        recorded["status"] = json!({"ready": true});
        let sole = recorded.clone();
        let intent = intent(&old, &[]);
        record_topology_apply(&mut recorded, &intent, &lists);
        let full = compare(&recorded, &new, &[], &lists);
        let fast = compare_sole_owner(&sole, &new, &[], &lists);
        assert_eq!(fast.change, full.change, "{new:#}");
        assert_eq!(
            for_display(&fast.after),
            for_display(&full.after),
            "{new:#}"
        );
        // The status the apply never touches is kept.
        assert_eq!(fast.after["status"], json!({"ready": true}));
        changes.push(fast.change);
    }
    assert_eq!(changes, [Change::None, Change::Spec, Change::MetadataOnly]);
}
