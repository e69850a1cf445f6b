/*!
Objects and templates cloned from ClusterClass templates.

Cluster API builds generated objects in two ways (`templateToObject` and `templateToTemplate` in `exp/topology/desiredstate/desired_state.go`):
`templateToObject` (the template's `spec.template` becomes the object: InfrastructureCluster,
ControlPlane, MachinePool bootstrap config and infrastructure machine pool) and
`templateToTemplate` (a copy of the whole template: control-plane and MachineDeployment
templates). Both stamp labels, cloned-from annotations, owner and namespace. This module owns
exactly that; names come from `names`, everything kind-specific from the callers.
*/

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::api::labels;
use crate::load::Object;
use crate::load::object::group_of;

/// What the caller adds to a clone.
pub struct CloneInput<'a> {
    /// The ClusterClass template.
    pub template: &'a Object,
    /// The cluster the object belongs to.
    pub cluster_name: &'a str,
    /// Namespace of the cluster (every generated object lives there).
    pub namespace: &'a str,
    /// Name of the new object.
    pub name: String,
    /// Labels laid over the template's.
    pub labels: BTreeMap<String, String>,
    /// Annotations laid over the template's.
    pub annotations: BTreeMap<String, String>,
    /// The single owner reference, if any.
    pub owner: Option<Value>,
}

/// `external.GenerateTemplate` + `templateToObject`.
pub fn to_object(input: CloneInput<'_>) -> Value {
    let tpl = &input.template.value;
    let mut obj = match tpl.pointer("/spec/template") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    let mut meta = match obj.remove("metadata") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    for f in ["resourceVersion", "finalizers", "uid", "selfLink"] {
        meta.remove(f);
    }
    meta.insert("name".into(), Value::String(input.name));
    meta.insert(
        "namespace".into(),
        Value::String(input.namespace.to_string()),
    );

    let mut annotations = string_map(meta.get("annotations"));
    annotations.extend(input.annotations);
    annotations.insert(labels::CLONED_FROM_NAME.into(), input.template.name.clone());
    annotations.insert(
        labels::CLONED_FROM_GROUP_KIND.into(),
        group_kind(input.template),
    );
    meta.insert("annotations".into(), to_value(annotations));

    let mut l = string_map(meta.get("labels"));
    l.extend(input.labels);
    l.insert(labels::CLUSTER_NAME.into(), input.cluster_name.to_string());
    l.insert(labels::TOPOLOGY_OWNED.into(), String::new());
    meta.insert("labels".into(), to_value(l));

    if let Some(owner) = input.owner {
        meta.insert("ownerReferences".into(), Value::Array(vec![owner]));
    }
    obj.insert("metadata".into(), Value::Object(meta));
    if obj
        .get("apiVersion")
        .is_none_or(|v| v.as_str().is_none_or(str::is_empty))
    {
        obj.insert(
            "apiVersion".into(),
            Value::String(input.template.api_version.clone()),
        );
    }
    if obj
        .get("kind")
        .is_none_or(|v| v.as_str().is_none_or(str::is_empty))
    {
        let kind = input
            .template
            .kind
            .strip_suffix("Template")
            .unwrap_or(&input.template.kind);
        obj.insert("kind".into(), Value::String(kind.to_string()));
    }
    Value::Object(obj)
}

/// `templateToTemplate`: a copy of the whole template, restamped.
pub fn to_template(input: CloneInput<'_>) -> Value {
    let mut obj = match &input.template.value {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    // Only what Cluster API would send survives: status and server-set metadata are not part
    // of the intent (they are filtered at apply time, `FilterIntent` in `internal/util/ssa/filterintent.go`).
    obj.remove("status");
    let mut meta = match obj.remove("metadata") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    for f in [
        "resourceVersion",
        "finalizers",
        "uid",
        "selfLink",
        "creationTimestamp",
        "generation",
        "managedFields",
        "ownerReferences",
    ] {
        meta.remove(f);
    }
    let mut l = string_map(meta.get("labels"));
    l.extend(input.labels);
    l.insert(labels::CLUSTER_NAME.into(), input.cluster_name.to_string());
    l.insert(labels::TOPOLOGY_OWNED.into(), String::new());
    meta.insert("labels".into(), to_value(l));

    let mut annotations = string_map(meta.get("annotations"));
    annotations.extend(input.annotations);
    annotations.insert(labels::CLONED_FROM_NAME.into(), input.template.name.clone());
    annotations.insert(
        labels::CLONED_FROM_GROUP_KIND.into(),
        group_kind(input.template),
    );
    annotations.remove(labels::LAST_APPLIED);
    meta.insert("annotations".into(), to_value(annotations));

    if let Some(owner) = input.owner {
        meta.insert("ownerReferences".into(), Value::Array(vec![owner]));
    }
    meta.insert("name".into(), Value::String(input.name));
    meta.insert(
        "namespace".into(),
        Value::String(input.namespace.to_string()),
    );
    obj.insert("metadata".into(), Value::Object(meta));
    Value::Object(obj)
}

/// Cluster API v1.10's `GenerateTemplate` refused a template without a `spec.template` map
/// (main tolerates it and produces an empty object). The error text for v1beta1 output.
pub fn v1_10_spec_template_error(tpl: &Object) -> Option<String> {
    let (group, version) = tpl
        .api_version
        .rsplit_once('/')
        .unwrap_or(("", &tpl.api_version));
    let gvk = format!("{group}/{version}, Kind={}", tpl.kind);
    match tpl.value.pointer("/spec/template") {
        Some(Value::Object(_)) => None,
        None => Some(format!("missing Spec.Template on {gvk} {:?}", tpl.name)),
        Some(other) => Some(format!(
            "failed to retrieve Spec.Template map on {gvk} {:?}: .spec.template accessor error: {other} is of the type {}, expected map[string]interface{{}}",
            tpl.name,
            match other {
                Value::String(_) => "string",
                Value::Bool(_) => "bool",
                Value::Number(_) => "float64",
                Value::Array(_) => "[]interface {}",
                _ => "<nil>",
            }
        )),
    }
}

/// Go's `GroupKind.String()`: `Kind.group`, or just `Kind` for the core group.
pub fn group_kind(o: &Object) -> String {
    let g = group_of(&o.api_version);
    if g.is_empty() {
        o.kind.clone()
    } else {
        format!("{}.{g}", o.kind)
    }
}

/// A string map from a JSON value; non-string entries are dropped (they would not decode into
/// Kubernetes' `map[string]string` either).
pub fn string_map(v: Option<&Value>) -> BTreeMap<String, String> {
    match v {
        Some(Value::Object(m)) => m
            .iter()
            .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
            .collect(),
        _ => BTreeMap::new(),
    }
}

/// JSON object from a string map.
pub fn to_value(m: BTreeMap<String, String>) -> Value {
    Value::Object(m.into_iter().map(|(k, v)| (k, Value::String(v))).collect())
}

/// `util.MergeMap(a, b)`: the first map wins on conflicts.
pub fn merge_map(
    first: &BTreeMap<String, String>,
    second: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut out = second.clone();
    out.extend(first.iter().map(|(k, v)| (k.clone(), v.clone())));
    out
}
