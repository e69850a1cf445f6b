//! Replays `testdata/golden/admission/cluster-rollout.jsonl`: version updates of a Cluster
//! `fooboo/cluster1` against stored objects, each case written from the Cluster API function
//! (or test) its `capi` field names, with the webhook's full messages.

use serde_json::{Value, json};

use super::*;
use crate::api::{Cluster, ClusterClass};
use crate::validate::testutil::{class_with, msgs, object_from};
use crate::validate::{Options, cluster_with};

const GOLDEN: &str = include_str!("../../../../testdata/golden/admission/cluster-rollout.jsonl");

/// `cluster1` in `fooboo` at `version`, written in `api`, referencing its control plane.
fn cluster(api: &str, version: &str, annotations: &Value) -> Cluster {
    let spec = match api {
        "v1beta1" => json!({
            "controlPlaneRef": {"apiVersion": "controlplane.cluster.x-k8s.io/v1beta1", "kind": "GenericControlPlane", "name": "cluster1-cp", "namespace": "fooboo"},
            "topology": {"class": "class1", "version": version},
        }),
        _ => json!({
            "controlPlaneRef": {"apiGroup": "controlplane.cluster.x-k8s.io", "kind": "GenericControlPlane", "name": "cluster1-cp"},
            "topology": {"classRef": {"name": "class1"}, "version": version},
        }),
    };
    let o = object_from(json!({
        "apiVersion": format!("cluster.x-k8s.io/{api}"),
        "kind": "Cluster",
        "metadata": {"name": "cluster1", "namespace": "fooboo", "annotations": annotations},
        "spec": spec,
    }));
    let version = if api == "v1beta1" {
        ApiVersion::V1Beta1
    } else {
        ApiVersion::V1Beta2
    };
    Cluster::parse(&o, version).unwrap_or_else(|e| panic!("{e}"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn run(case: &Value, class: &ClusterClass) -> (Vec<String>, Vec<String>) {
    let s = |k: &str| case[k].as_str().unwrap_or_default();
    let none = json!({});
    let annotations = case.get("annotations").unwrap_or(&none);
    let old = cluster(s("api"), s("old"), &none);
    let new = cluster(s("api"), s("new"), annotations);
    let objects: Option<Vec<Object>> = case["current"]
        .as_array()
        .map(|a| a.iter().cloned().map(object_from).collect());
    let live = objects.as_deref().map(Live::new);
    let opts = Options {
        live: live.as_ref(),
        ..Options::default()
    };
    let out = cluster_with(&opts, &new, Some(&old), Some(class), None);
    (msgs(&out.errors), out.warnings)
}

#[test]
fn golden_cases() {
    let class = class_with("{}");
    let mut seen = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for line in GOLDEN.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let name = case["case"].as_str().unwrap_or_default().to_string();
        assert!(seen.insert(name.clone()), "case {name} twice");
        assert!(
            !case["capi"].as_str().unwrap_or_default().is_empty(),
            "{name}: cite the Cluster API function"
        );
        let (errors, warnings) = run(&case, &class);
        let want = (strings(&case["want"]), strings(&case["warnings"]));
        if (errors.clone(), warnings.clone()) != want {
            failures.push(format!(
                "{name}:\n  got  {errors:?} {warnings:?}\n  want {:?} {:?}",
                want.0, want.1
            ));
        }
    }
    assert!(seen.len() >= 40, "only {} cases", seen.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn selectors_flatten_as_apimachinery_does() {
    let flat = |v: Value| label_selector_as_map(Some(&v));
    assert_eq!(
        flat(
            json!({"matchLabels": {"a": "1"}, "matchExpressions": [{"key": "b", "operator": "In", "values": ["2"]}]})
        ),
        Ok(BTreeMap::from([
            ("a".into(), "1".into()),
            ("b".into(), "2".into())
        ]))
    );
    assert_eq!(label_selector_as_map(None), Ok(BTreeMap::new()));
    assert_eq!(
        flat(json!({"matchExpressions": [{"key": "b", "operator": "In", "values": ["2", "3"]}]})),
        Err("operator \"In\" without a single value cannot be converted into the old label selector format".into())
    );
    assert_eq!(
        flat(json!({"matchExpressions": [{"key": "b", "operator": "Exists"}]})),
        Err("operator \"Exists\" cannot be converted into the old label selector format".into())
    );
    assert_eq!(
        flat(json!({"matchExpressions": [{"key": "b", "operator": "Near"}]})),
        Err("\"Near\" is not a valid selector operator".into())
    );
}

#[test]
fn one_reason_bare_several_bracketed_repeats_once() {
    assert_eq!(refusal(&[]), None);
    assert_eq!(
        refusal(&["a".into()]).as_deref(),
        Some("version cannot be changed: a")
    );
    assert_eq!(
        refusal(&["a".into(), "b".into(), "a".into()]).as_deref(),
        Some("version cannot be changed: [a, b]")
    );
}
