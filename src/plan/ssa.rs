//! TEMPORARY stand-in for the server-side-apply simulation (being written on branch tpl-ssa).
#![allow(missing_docs)]
use serde_json::{Map, Value};

use crate::api::ApiVersion;

#[derive(Debug, Default)]
pub struct ListTypes;
impl ListTypes {
    pub fn builtin() -> Self {
        ListTypes
    }
    pub fn with_crds(
        self,
        _a: &[crate::load::Object],
        _b: &[crate::load::Object],
    ) -> (Self, Vec<crate::diag::Diagnostic>) {
        (self, Vec::new())
    }
}
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    None,
    MetadataOnly,
    Spec,
}
pub fn intent(desired: &Value, _ignore: &[&[&str]]) -> Value {
    let mut out = Map::new();
    for k in ["apiVersion", "kind", "spec"] {
        if let Some(v) = desired.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    let mut meta = Map::new();
    for k in [
        "name",
        "namespace",
        "labels",
        "annotations",
        "ownerReferences",
    ] {
        if let Some(v) = desired.get("metadata").and_then(|m| m.get(k)) {
            meta.insert(k.into(), v.clone());
        }
    }
    out.insert("metadata".into(), Value::Object(meta));
    Value::Object(out)
}
fn merge(a: &mut Value, b: &Value) {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(x) if x.is_object() && v.is_object() => merge(x, v),
                    _ => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (a, b) => *a = b.clone(),
    }
}
pub fn apply(current: &Value, intent: &Value, _l: &ListTypes) -> Value {
    let mut c = current.clone();
    merge(&mut c, intent);
    c
}
pub fn default_machine_deployment(_after: &mut Value, _current: &Value) {}
pub fn change(current: &Value, after: &Value) -> Change {
    let f = |v: &Value| intent(v, &[]);
    let (a, b) = (f(current), f(after));
    if a == b {
        Change::None
    } else if a.get("spec") == b.get("spec") {
        Change::MetadataOnly
    } else {
        Change::Spec
    }
}
pub fn apply_cluster(current: &Value, desired: &Value, _api: ApiVersion) -> Value {
    let mut c = current.clone();
    for p in [
        "/metadata/labels",
        "/metadata/annotations",
        "/spec/infrastructureRef",
        "/spec/controlPlaneRef",
        "/spec/topology",
    ] {
        if let Some(v) = desired.pointer(p) {
            let keys: Vec<&str> = p.trim_start_matches('/').split('/').collect();
            crate::topology::desired::set_path(&mut c, &keys, v.clone());
        }
    }
    c
}
pub fn for_display(v: &Value) -> Value {
    intent(v, &[])
}
