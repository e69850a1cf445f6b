//! References from one generated object to another, in each API's shape.

use serde_json::{Map, Value, json};

use crate::api::ApiVersion;
use crate::load::object::group_of;

/// `{apiGroup, kind, name}`: v1beta2's `ContractVersionedObjectReference` to `obj`.
pub fn contract_versioned(obj: &Value) -> Value {
    let api_version = obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    json!({
        "apiGroup": group_of(api_version),
        "kind": obj.get("kind").cloned().unwrap_or(Value::Null),
        "name": obj.pointer("/metadata/name").cloned().unwrap_or(Value::Null),
    })
}

/// `{apiVersion, kind, name, namespace}`: a core `ObjectReference` to `obj` (v1beta1 and the
/// v1beta1 contract).
pub fn object_reference(obj: &Value) -> Value {
    let mut m = Map::new();
    for (key, ptr) in [
        ("apiVersion", "/apiVersion"),
        ("kind", "/kind"),
        ("name", "/metadata/name"),
        ("namespace", "/metadata/namespace"),
    ] {
        if let Some(v) = obj
            .pointer(ptr)
            .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
        {
            m.insert(key.into(), v.clone());
        }
    }
    Value::Object(m)
}

/// A reference from a core object (Cluster, MachineDeployment, MachinePool) in `api`'s shape.
pub fn core(api: ApiVersion, obj: &Value) -> Value {
    match api {
        ApiVersion::V1Beta1 => object_reference(obj),
        ApiVersion::V1Beta2 => contract_versioned(obj),
    }
}
