//! Custom resources admitted against realistic CRD snippets (read from YAML as the loader reads
//! them), the registry's handling of CRDs that cannot be used, and a property test that no
//! schema and no object makes any step panic.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::*;
use crate::k8s::field::Path;
use crate::load::yaml::parse_stream_serial;
use crate::source::{Origin, SourceFile};

/// The objects of a YAML stream, as the loader builds them.
fn objects(name: &str, yaml: &str) -> Vec<Object> {
    let file = SourceFile::new(name, yaml);
    parse_stream_serial(&file)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .into_iter()
        .map(|d| {
            let origin = Origin {
                file: Arc::clone(&file),
                spans: Arc::new(d.spans),
            };
            Object::new(d.value, origin, "default").unwrap_or_else(|e| panic!("{e:?}"))
        })
        .collect()
}

fn registry(yaml: &str) -> Crds {
    let (crds, warnings) = Crds::from_objects(&objects("crds.yaml", yaml));
    assert!(warnings.is_empty(), "{warnings:?}");
    crds
}

/// A trimmed KubeadmControlPlane CRD: the shapes the topology controller writes into.
const KCP_CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: kubeadmcontrolplanes.controlplane.cluster.x-k8s.io
spec:
  group: controlplane.cluster.x-k8s.io
  names: {kind: KubeadmControlPlane, plural: kubeadmcontrolplanes}
  scope: Namespaced
  versions:
  - name: v1beta1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object}}
  - name: v1beta2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            required: [version]
            x-kubernetes-validations:
            - rule: "!has(self.replicas) || self.replicas != 2"
              message: cannot be 2
              fieldPath: .replicas
            properties:
              replicas: {type: integer, format: int32}
              version:
                type: string
                minLength: 1
                x-kubernetes-validations:
                - {rule: "self == oldSelf || self.startsWith('v')", message: must start with v}
              rollout:
                type: object
                properties:
                  strategy:
                    type: object
                    nullable: true
                    properties:
                      type: {type: string, default: RollingUpdate}
                      maxSurge:
                        x-kubernetes-int-or-string: true
                        anyOf: [{type: integer}, {type: string}]
                        default: 1
              machineTemplate:
                type: object
                properties:
                  metadata:
                    type: object
                    properties:
                      labels: {type: object, additionalProperties: {type: string}}
                  spec:
                    type: object
                    properties:
                      infrastructureRef:
                        type: object
                        x-kubernetes-map-type: atomic
                        properties:
                          name: {type: string}
                          kind: {type: string}
              kubeadmConfigSpec:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  files:
                    type: array
                    x-kubernetes-list-type: map
                    x-kubernetes-list-map-keys: [path]
                    items:
                      type: object
                      properties:
                        path: {type: string}
                        content: {type: string}
              podTemplate:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            x-kubernetes-preserve-unknown-fields: true
"#;

fn kcp(spec: Value) -> Value {
    json!({"apiVersion": "controlplane.cluster.x-k8s.io/v1beta2", "kind": "KubeadmControlPlane",
        "metadata": {"name": "cp", "namespace": "ns"}, "spec": spec})
}

fn admit_kcp(spec: Value) -> (Value, Admitted) {
    let crds = registry(KCP_CRD);
    let mut o = kcp(spec);
    let a = crds.admit(&mut o, None).unwrap_or_else(|| panic!("no CRD"));
    (o, a)
}

#[test]
fn served_versions_only() {
    let crds = registry(KCP_CRD);
    assert_eq!(crds.len(), 1);
    assert!(
        crds.get(
            "controlplane.cluster.x-k8s.io/v1beta2",
            "KubeadmControlPlane"
        )
        .is_some()
    );
    assert!(
        crds.get(
            "controlplane.cluster.x-k8s.io/v1beta1",
            "KubeadmControlPlane"
        )
        .is_none()
    );
    let mut other =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "y": 1});
    assert!(crds.admit(&mut other, None).is_none());
    assert_eq!(other["y"], 1);
}

#[test]
fn replicas_must_be_an_integer() {
    let (_, ok) = admit_kcp(json!({"replicas": 3, "version": "v1.31.0"}));
    assert!(ok.is_valid(), "{:?}", ok.message());
    let (_, bad) = admit_kcp(json!({"replicas": "3", "version": "v1.31.0"}));
    assert_eq!(
        bad.message().as_deref(),
        Some(
            "KubeadmControlPlane.controlplane.cluster.x-k8s.io \"cp\" is invalid: [spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]"
        )
    );
    // A float without fraction is an integer to kube-openapi; CEL then runs.
    let (_, two) = admit_kcp(json!({"replicas": 2, "version": "v1.31.0"}));
    assert_eq!(
        two.message().as_deref(),
        Some(
            "KubeadmControlPlane.controlplane.cluster.x-k8s.io \"cp\" is invalid: spec.replicas: Invalid value: cannot be 2"
        )
    );
}

#[test]
fn int_or_string_takes_both() {
    for surge in [json!(1), json!("25%")] {
        let (o, a) = admit_kcp(
            json!({"version": "v1", "rollout": {"strategy": {"maxSurge": surge.clone()}}}),
        );
        assert!(a.is_valid(), "{:?}", a.message());
        assert_eq!(o["spec"]["rollout"]["strategy"]["maxSurge"], surge);
    }
    let (_, a) = admit_kcp(json!({"version": "v1", "rollout": {"strategy": {"maxSurge": true}}}));
    let msgs: Vec<String> = a.errors.iter().map(ToString::to_string).collect();
    assert!(
        msgs.contains(&"spec.rollout.strategy.maxSurge: Invalid value: \"boolean\": spec.rollout.strategy.maxSurge in body must be of type integer,string: \"boolean\"".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn defaults_under_a_nullable_parent() {
    // A null nullable parent stays null: nothing below it is defaulted.
    let (o, a) = admit_kcp(json!({"version": "v1", "rollout": {"strategy": null}}));
    assert!(a.is_valid(), "{:?}", a.message());
    assert_eq!(o["spec"]["rollout"], json!({"strategy": null}));
    // An empty parent gets its fields' defaults.
    let (o, _) = admit_kcp(json!({"version": "v1", "rollout": {"strategy": {}}}));
    assert_eq!(
        o["spec"]["rollout"]["strategy"],
        json!({"type": "RollingUpdate", "maxSurge": 1})
    );
}

#[test]
fn unknown_fields_are_pruned_and_preserved_subtrees_kept() {
    let (o, a) = admit_kcp(json!({"version": "v1", "replica": 3,
        "machineTemplate": {"metadata": {"labels": {"a": "b"}, "annotations": {"x": "y"}},
            "spec": {"infrastructureRef": {"name": "t", "namespace": "gone"}, "foo": 1}},
        "kubeadmConfigSpec": {"clusterConfiguration": {"apiServer": {"extraArgs": {"v": "4"}}},
            "files": [{"path": "/a", "content": "x", "owner": "root"}]}}));
    assert!(a.is_valid(), "{:?}", a.message());
    assert_eq!(
        a.pruned,
        vec![
            "spec.kubeadmConfigSpec.files[0].owner",
            "spec.machineTemplate.metadata.annotations",
            "spec.machineTemplate.spec.foo",
            "spec.machineTemplate.spec.infrastructureRef.namespace",
            "spec.replica",
        ]
    );
    assert_eq!(
        o["spec"]["kubeadmConfigSpec"]["clusterConfiguration"],
        json!({"apiServer": {"extraArgs": {"v": "4"}}})
    );
    assert_eq!(
        o["spec"]["machineTemplate"]["spec"],
        json!({"infrastructureRef": {"name": "t"}})
    );
}

#[test]
fn embedded_resource_metadata_is_kept_and_decoded() {
    let (o, a) = admit_kcp(
        json!({"version": "v1", "podTemplate": {"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "labels": {"app": "x"}, "bogus": 1},
        "spec": {"containers": [{"name": "c"}]}}}),
    );
    assert!(a.is_valid(), "{:?}", a.message());
    assert_eq!(a.pruned, vec!["spec.podTemplate.metadata.bogus"]);
    assert_eq!(
        o["spec"]["podTemplate"],
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"app": "x"}},
            "spec": {"containers": [{"name": "c"}]}})
    );
    let (_, a) = admit_kcp(json!({"version": "v1", "podTemplate": {"metadata": {"name": "a/b"}}}));
    let msgs: Vec<String> = a.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        msgs,
        vec![
            "spec.podTemplate.apiVersion: Required value",
            "spec.podTemplate.kind: Required value",
            "spec.podTemplate.metadata.name: Invalid value: \"a/b\": may not contain '/'",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
}

#[test]
fn root_metadata_is_decoded_not_pruned() {
    let crds = registry(KCP_CRD);
    let mut o = kcp(json!({"version": "v1"}));
    o["metadata"]["labels"] = json!({});
    o["metadata"]["extra"] = json!(1);
    o["status"] = json!({"ready": true});
    o["other"] = json!(1);
    let a = crds.admit(&mut o, None).unwrap_or_else(|| panic!("no CRD"));
    assert_eq!(a.pruned, vec!["metadata.extra", "other"]);
    assert_eq!(o["metadata"], json!({"name": "cp", "namespace": "ns"}));
    assert_eq!(o["status"], json!({"ready": true}));
}

#[test]
fn list_map_keys_and_transition_rules() {
    let crds = registry(KCP_CRD);
    let mut o = kcp(
        json!({"version": "x1", "kubeadmConfigSpec": {"files": [{"path": "/a"}, {"path": "/a"}]}}),
    );
    let a = crds.admit(&mut o, None).unwrap_or_else(|| panic!("no CRD"));
    let msgs: Vec<String> = a.errors.iter().map(ToString::to_string).collect();
    // A duplicate does not block the CEL rules; the transition rule has no old value on create.
    assert_eq!(
        msgs,
        vec!["spec.kubeadmConfigSpec.files[1]: Duplicate value: {\"path\":\"/a\"}"]
    );
    // On update an unchanged version passes its transition rule; a changed one must start with v.
    let old = kcp(json!({"version": "x1"}));
    let mut same = kcp(json!({"version": "x1"}));
    assert!(
        crds.admit(&mut same, Some(&old))
            .is_some_and(|a| a.is_valid())
    );
    let mut changed = kcp(json!({"version": "x2"}));
    let a = crds
        .admit(&mut changed, Some(&old))
        .unwrap_or_else(|| panic!("no CRD"));
    assert_eq!(
        a.message().as_deref(),
        Some(
            "KubeadmControlPlane.controlplane.cluster.x-k8s.io \"cp\" is invalid: spec.version: Invalid value: \"x2\": must start with v"
        )
    );
}

#[test]
fn type_meta_must_match_the_crd() {
    let crds = registry(KCP_CRD);
    let s = crds
        .get(
            "controlplane.cluster.x-k8s.io/v1beta2",
            "KubeadmControlPlane",
        )
        .unwrap_or_else(|| panic!("no CRD"));
    let o = json!({"apiVersion": "x/v1", "kind": "Other", "metadata": {"name": "a"}});
    let msgs: Vec<String> = validate(&o, None, s)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        msgs,
        vec![
            "kind: Invalid value: \"Other\": must be KubeadmControlPlane",
            "apiVersion: Invalid value: \"x/v1\": must be controlplane.cluster.x-k8s.io/v1beta2",
        ]
    );
}

#[test]
fn unusable_crds_are_located_warnings() {
    let yaml = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: broken.example.com}
spec:
  group: example.com
  names: {kind: Broken}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, maxLength: "3"}
  - name: v2
    served: true
  - name: v3
    served: true
    schema: {openAPIV3Schema: {type: object}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: empty.example.com}
spec: {}
"#;
    let (crds, warnings) = Crds::from_objects(&objects("crds.yaml", yaml));
    assert_eq!(
        crds.served()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec!["example.com/v3, Kind=Broken"]
    );
    let texts: Vec<_> = warnings
        .iter()
        .map(|w| (w.message.clone(), w.position()))
        .collect();
    assert_eq!(
        texts,
        vec![
            (
                "CustomResourceDefinition broken.example.com: version v1: the schema cannot be read".to_string(),
                Some(("crds.yaml".to_string(), 15, 43))
            ),
            (
                "CustomResourceDefinition broken.example.com: served version #1 has no name or no schema.openAPIV3Schema".to_string(),
                Some(("crds.yaml".to_string(), 16, 5))
            ),
            (
                "CustomResourceDefinition empty.example.com: has no spec.group, spec.names.kind or spec.versions".to_string(),
                Some(("crds.yaml".to_string(), 25, 7))
            ),
        ]
    );
    assert_eq!(
        warnings[0].related[0].message,
        "spec.versions[0].schema.openAPIV3Schema.properties[spec].maxLength: Invalid value: \"3\": must be of type int64"
    );
}

#[test]
fn rules_topoplan_cannot_compile_are_warned_about() {
    let yaml = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              n:
                type: integer
                x-kubernetes-validations:
                - rule: "self.noSuchField == 1"
"#;
    let (crds, warnings) = Crds::from_objects(&objects("crds.yaml", yaml));
    assert_eq!(crds.len(), 1);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        warnings[0].message,
        "CustomResourceDefinition widgets.example.com: version v1: 1 x-kubernetes-validations rule(s) cannot be compiled by topoplan's CEL engine"
    );
    assert_eq!(
        warnings[0].position(),
        Some(("crds.yaml".to_string(), 21, 25))
    );
}

/// A CRD schema node: the variable-schema keywords plus the CRD dialect's.
/// `--crds` documents read as the pipeline reads them: only what may define `wanted`'s kinds,
/// the schemas of other versions left out ([`prefilter::unused_version_schemas`]).
fn crds_objects_wanted(name: &str, yaml: &str, wanted: &HashSet<Gvk>) -> Vec<Object> {
    let file = SourceFile::new(name, yaml);
    let kinds: Vec<String> = wanted.iter().map(|g| g.kind.clone()).collect();
    let w = wanted.clone();
    let skip = prefilter::unused_version_schemas(move |g| w.contains(g));
    crate::load::yaml::parse_stream_kept(&file, &|t: &str| may_define(t, &kinds), Some(&skip))
        .unwrap_or_else(|e| panic!("{e:?}"))
        .into_iter()
        .map(|d| {
            let origin = Origin {
                file: Arc::clone(&file),
                spans: Arc::new(d.spans),
            };
            Object::new(d.value, origin, "default").unwrap_or_else(|e| panic!("{e:?}"))
        })
        .collect()
}

/// Leaving out the schemas of versions the run never meets changes nothing of what is read: for
/// every served version of the fixtures, alone and with all, the same schemas compile, with the
/// same warnings, and the left-out schemas are really gone.
#[test]
fn versions_the_run_never_meets_are_not_read_and_change_nothing() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/crds");
    let mut left_out = 0;
    for f in ["capa", "capd", "kubeadm-bootstrap", "kubeadm-control-plane"] {
        let yaml = std::fs::read_to_string(format!("{dir}/{f}.yaml")).unwrap();
        let all = objects(&format!("{f}.yaml"), &yaml);
        let served: Vec<Gvk> = Crds::from_objects(&all)
            .0
            .served()
            .into_iter()
            .cloned()
            .collect();
        let mut sets: Vec<HashSet<Gvk>> =
            served.iter().map(|g| HashSet::from([g.clone()])).collect();
        sets.push(served.iter().cloned().collect());
        for wanted in sets {
            let want = |g: &Gvk| wanted.contains(g);
            let (full, full_warnings) = Crds::from_objects_wanted(&all, &want);
            let read = crds_objects_wanted(&format!("{f}.yaml"), &yaml, &wanted);
            let (trimmed, trimmed_warnings) = Crds::from_objects_wanted(&read, &want);
            assert_eq!(full.served(), trimmed.served(), "{f} {wanted:?}");
            for g in full.served() {
                let (a, b) = (
                    full.get(&g.api_version(), &g.kind),
                    trimmed.get(&g.api_version(), &g.kind),
                );
                assert_eq!(
                    format!("{:?}", a.map(|s| s.schema())),
                    format!("{:?}", b.map(|s| s.schema()))
                );
            }
            let msgs = |w: &[crate::diag::Diagnostic]| {
                w.iter().map(|d| d.message.clone()).collect::<Vec<_>>()
            };
            assert_eq!(msgs(&full_warnings), msgs(&trimmed_warnings));
            left_out += read
                .iter()
                .flat_map(|o| {
                    o.value
                        .pointer("/spec/versions")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default()
                })
                .filter(|v| v.get("schema").is_none())
                .count();
        }
    }
    assert!(left_out > 10, "{left_out}");
}

fn crd_schema() -> impl Strategy<Value = Value> {
    let leaf = (
        crate::schema::proptests::schema_json(),
        prop::collection::vec(
            prop_oneof![
                any::<bool>().prop_map(|b| ("nullable", json!(b))),
                any::<bool>().prop_map(|b| ("additionalProperties", json!(b))),
                any::<bool>().prop_map(|b| ("x-kubernetes-embedded-resource", json!(b))),
                prop_oneof![Just("set"), Just("map"), Just("atomic"), Just("x")]
                    .prop_map(|t| ("x-kubernetes-list-type", json!(t))),
                Just(("x-kubernetes-list-map-keys", json!(["a"]))),
                prop_oneof![Just("atomic"), Just("granular")]
                    .prop_map(|t| ("x-kubernetes-map-type", json!(t))),
                (-3.0f64..3.0).prop_map(|f| ("multipleOf", json!(f))),
                (-3.0f64..3.0).prop_map(|f| ("maximum", json!(f))),
                Just((
                    "x-kubernetes-validations",
                    json!([{"rule": "self == oldSelf", "optionalOldSelf": true}])
                )),
                Just((
                    "x-kubernetes-validations",
                    json!([{"rule": "has(self.a)", "fieldPath": ".a", "messageExpression": "'m'"}])
                )),
            ],
            0..4,
        ),
    )
        .prop_map(|(mut s, extra)| {
            if let Value::Object(m) = &mut s {
                for (k, v) in extra {
                    m.insert(k.to_string(), v);
                }
            }
            s
        });
    leaf.prop_recursive(2, 16, 3, |inner| {
        (
            inner.clone(),
            prop::collection::btree_map("[a-c]|metadata|kind", inner, 0..3),
        )
            .prop_map(|(mut s, props)| {
                if let Value::Object(m) = &mut s {
                    m.insert("type".into(), json!("object"));
                    m.insert(
                        "properties".into(),
                        Value::Object(props.into_iter().collect::<Map<_, _>>()),
                    );
                }
                s
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn nothing_panics(
        schema in crd_schema(),
        spec in crate::schema::proptests::json_value(),
        old in prop::option::of(crate::schema::proptests::json_value()),
        meta in crate::schema::proptests::json_value(),
    ) {
        let p = Path::new("openAPIV3Schema");
        let root = json!({"type": "object", "properties": {"spec": schema.clone(), "metadata": {"type": "object"}},
            "x-kubernetes-validations": [{"rule": "self.metadata.name != ''"}]});
        for s in [schema, root] {
            if let Ok(st) = Structural::compile(Gvk::new("g", "v1", "K"), &s, false, &p) {
                let mut o = json!({"apiVersion": "g/v1", "kind": "K", "metadata": meta.clone(), "spec": spec.clone()});
                let old = old.clone().map(|v| json!({"apiVersion": "g/v1", "kind": "K", "spec": v}));
                let a = admit(&mut o, old.as_ref(), &st);
                let _ = a.message();
                let mut bare = spec.clone();
                let _ = prune(&mut bare, &st);
                default(&mut bare, &st);
                let _ = validate(&bare, Some(&spec), &st);
            }
        }
    }
}
