/*!
Test objects for the admission rules, built from inline YAML with the crate's own loaders, and
small helpers to compare rendered messages.
*/

use std::sync::Arc;

use serde_json::Value;

use crate::api::{ApiVersion, Cluster, ClusterClass, check_core_object};
use crate::k8s::field::FieldError;
use crate::load::Object;
use crate::source::{Origin, SourceFile, SpanTable};

/// Parse one object from YAML text.
pub fn object(yaml: &str) -> Object {
    let value = crate::load::yaml::parse_value(yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    object_from(value)
}

/// An object from a JSON value.
pub fn object_from(value: Value) -> Object {
    let origin = Origin {
        file: SourceFile::new("test.yaml", ""),
        spans: Arc::new(SpanTable::default()),
    };
    Object::new(value, origin, "default").unwrap_or_else(|e| panic!("{e}"))
}

fn api_of(o: &Object) -> ApiVersion {
    check_core_object(o)
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or(ApiVersion::V1Beta2)
}

/// A ClusterClass from YAML.
pub fn class(yaml: &str) -> ClusterClass {
    let o = object(yaml);
    let api = api_of(&o);
    ClusterClass::parse(&o, api).unwrap_or_else(|e| panic!("{e}"))
}

/// A Cluster from YAML.
pub fn cluster(yaml: &str) -> Cluster {
    let o = object(yaml);
    let api = api_of(&o);
    Cluster::parse(&o, api).unwrap_or_else(|e| panic!("{e}"))
}

/// A v1beta2 ClusterClass named `class1` with valid template refs, the given extra spec YAML
/// (indented by two spaces, appended under `spec:`) merged in.
pub fn class_with(spec_extra: &str) -> ClusterClass {
    let base = "\
apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: class1, namespace: default}
spec:
  infrastructure:
    templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, name: infra1}
  controlPlane:
    templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: cp1}
";
    let mut v = crate::load::yaml::parse_value(base).unwrap_or_else(|e| panic!("{e}"));
    let extra = crate::load::yaml::parse_value(spec_extra).unwrap_or_else(|e| panic!("{e}"));
    merge(&mut v["spec"], extra);
    let o = object_from(v);
    ClusterClass::parse(&o, ApiVersion::V1Beta2).unwrap_or_else(|e| panic!("{e}"))
}

/// Deep-merge `extra` into `base` (objects merge, anything else replaces).
pub fn merge(base: &mut Value, extra: Value) {
    match (base, extra) {
        (Value::Object(b), Value::Object(e)) => {
            for (k, v) in e {
                merge(b.entry(k).or_insert(Value::Null), v);
            }
        }
        (b, e) => *b = e,
    }
}

/// Rendered messages.
pub fn msgs(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}
