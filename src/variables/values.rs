/*!
Variable values of a Cluster: defaulting (`cluster_variable_defaulting.go`) and validation
(`cluster_variable_validation.go`) against the ClusterClass's `status.variables`, in the order
Cluster API's Cluster webhook runs them ([`default_and_validate`]).

Owns the value side (the variables' schemas are [`crate::variables`]' other modules'):
- indexing values (a name set twice is an error) and definitions (a variable without definitions
  or with conflicting ones makes one error for the whole list);
- defaulting: existing values in Cluster order, then every defined variable without a value
  whose top-level schema has a default (only for `spec.topology.variables`); each value is
  decoded as `encoding/json` does (every number a float64), defaulted, and re-encoded by Go's
  `json.Marshal` (sorted keys, `1.0` → `1`, large integers rounded, `<>&` escaped);
- validation: required variables, undefined variables, the OpenAPI value check (every error's
  value replaced by the raw variable JSON and a leading `" in body "` stripped from its detail),
  unknown fields, and the CEL rules with the old value when there is one.

The "raw" value of a variable is its JSON as Go re-encodes it (`"1"` for 1, `"\"a\""` for a
string), or the empty string when the value is absent or `null` as written (Kubernetes keeps no
bytes for it); a `null` produced by defaulting is `"null"`, as in Cluster API where defaulting
marshals it.
*/

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::definitions::{StatusVariable, StatusVariables};
use crate::go::json as gojson;
use crate::k8s::field::{BadValue, FieldError, Path, go_quote};
use crate::schema::props::Schema;
use crate::schema::{RUNTIME_CEL_COST_BUDGET, cel, default, prune, value};

/// One `{name, value}` entry of `spec.topology.variables` or an overrides list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterVariable {
    /// `name`.
    pub name: String,
    /// `value`; `None` when absent or `null` as written (no bytes kept).
    pub value: Option<Value>,
    /// v1beta1's deprecated `definitionFrom` is set (non-empty). v1beta2 has no such field:
    /// the Cluster webhook puts it back from a v1beta1 original before calling
    /// [`default_and_validate`], so that it is refused as Cluster API v1.10 refused it.
    pub definition_from: bool,
}

impl ClusterVariable {
    /// Read an entry.
    pub fn from_json(v: &Value) -> ClusterVariable {
        ClusterVariable {
            name: v
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            value: v.get("value").filter(|v| !v.is_null()).cloned(),
            definition_from: v
                .get("definitionFrom")
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty()),
        }
    }

    /// The entry as JSON.
    pub fn to_json(&self) -> Value {
        json!({"name": self.name, "value": self.value.clone().unwrap_or(Value::Null)})
    }

    /// The raw value string (`string(value.Value.Raw)`).
    pub fn raw(&self) -> String {
        self.value.as_ref().map(gojson::marshal).unwrap_or_default()
    }
}

/// Read a list of `{name, value}` entries.
pub fn read_variables(v: Option<&Value>) -> Vec<ClusterVariable> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().map(ClusterVariable::from_json).collect())
        .unwrap_or_default()
}

/// `newValuesIndex`. The `definitionFrom` check is Cluster API v1.10's (v1.10.10
/// `internal/topology/variables/utils.go`); main dropped it with the field.
fn values_index<'a>(
    path: &Path,
    values: &'a [ClusterVariable],
) -> Result<BTreeMap<&'a str, (usize, &'a ClusterVariable)>, Vec<FieldError>> {
    let mut index = BTreeMap::new();
    let mut errs = Vec::new();
    for (i, v) in values.iter().enumerate() {
        if v.definition_from {
            errs.push(FieldError::invalid(
                &path.key_at(&v.name, i),
                v.raw(),
                format!(
                    "variable {} has DefinitionFrom set. DefinitionFrom is deprecated, must not be set anymore and is going to be removed in the next apiVersion",
                    go_quote(&v.name)
                ),
            ));
        }
        if index.contains_key(v.name.as_str()) {
            errs.push(FieldError::invalid(
                &path.key_at(&v.name, i),
                v.raw(),
                format!("variable {} is set more than once", go_quote(&v.name)),
            ));
        }
        index.insert(v.name.as_str(), (i, v));
    }
    if errs.is_empty() {
        Ok(index)
    } else {
        Err(errs)
    }
}

/// `newDefinitionsIndex`.
fn definitions_index<'a>(
    path: &Path,
    defs: &'a StatusVariables,
) -> Result<BTreeMap<&'a str, &'a StatusVariable>, Vec<FieldError>> {
    let mut msgs: Vec<String> = Vec::new();
    let mut index = BTreeMap::new();
    for d in &defs.variables {
        if d.definitions.is_empty() {
            msgs.push(format!("variable {} has no definitions", go_quote(&d.name)));
        }
        if d.definitions_conflict {
            msgs.push(format!(
                "variable {} has conflicting definitions",
                go_quote(&d.name)
            ));
        }
        index.insert(d.name.as_str(), d);
    }
    if msgs.is_empty() {
        return Ok(index);
    }
    let names: Vec<String> = defs
        .variables
        .iter()
        .map(|d| format!("Name: {}", d.name))
        .collect();
    let mut seen = std::collections::HashSet::new();
    msgs.retain(|m| seen.insert(m.clone()));
    let aggregate = if msgs.len() == 1 {
        msgs.remove(0)
    } else {
        format!("[{}]", msgs.join(", "))
    };
    Err(vec![FieldError::type_invalid(
        path,
        format!("[{}]", names.join(",")),
        format!("variable definitions in the ClusterClass not valid: {aggregate}"),
    )])
}

/// Go's `%v` of a `field.ErrorList`.
fn error_list(errs: &[FieldError]) -> String {
    let parts: Vec<String> = errs.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(" "))
}

/// Every number as a float64, as `encoding/json` decodes into `interface{}`.
fn as_float64(v: &Value) -> Value {
    match v {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(a) => Value::Array(a.iter().map(as_float64).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), as_float64(v))).collect())
        }
        other => other.clone(),
    }
}

/// `DefaultClusterVariables`: defaults `spec.topology.variables` (creating defaulted variables).
pub fn default_cluster_variables(
    values: &[ClusterVariable],
    defs: &StatusVariables,
    path: &Path,
) -> Result<Vec<ClusterVariable>, Vec<FieldError>> {
    default_variables(values, defs, true, path)
}

/// `DefaultMachineVariables`: defaults an overrides list (never creating variables).
pub fn default_machine_variables(
    values: &[ClusterVariable],
    defs: &StatusVariables,
    path: &Path,
) -> Result<Vec<ClusterVariable>, Vec<FieldError>> {
    default_variables(values, defs, false, path)
}

fn default_variables(
    values: &[ClusterVariable],
    defs: &StatusVariables,
    create: bool,
    path: &Path,
) -> Result<Vec<ClusterVariable>, Vec<FieldError>> {
    let index = values_index(path, values)?;
    let def_index = definitions_index(path, defs)?;
    // Existing values in Cluster order, then defined variables without a value.
    let mut all: Vec<(Option<usize>, ClusterVariable)> = values
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, v)| (Some(i), v))
        .collect();
    for d in &defs.variables {
        if !index.contains_key(d.name.as_str()) {
            all.push((
                None,
                ClusterVariable {
                    name: d.name.clone(),
                    value: None,
                    ..ClusterVariable::default()
                },
            ));
        }
    }
    let mut errs = Vec::new();
    let mut out = Vec::new();
    for (i, var) in all {
        let vpath = match i {
            Some(i) => path.key_at(&var.name, i),
            None => path.key(&var.name),
        };
        let Some(def) = def_index.get(var.name.as_str()) else {
            errs.push(
                FieldError::invalid(&vpath, var.raw(), "variable is not defined").with_help(
                    crate::diag::suggest::did_you_mean(&var.name, def_index.keys().copied()),
                ),
            );
            continue;
        };
        let Some(first) = def.definitions.first() else {
            continue;
        };
        let current = index.get(var.name.as_str()).map(|(_, v)| *v);
        let top_default = first.schema.get("default").is_some_and(|d| !d.is_null());
        if current.is_none() && (!create || !top_default) {
            continue;
        }
        let schema = match Schema::parse(&first.schema, &Path::new("schema")) {
            Ok(s) => s,
            Err(e) => {
                errs.push(FieldError::invalid(
                    &vpath,
                    "",
                    format!(
                        "invalid schema in ClusterClass for variable {}: error to convert schema {}",
                        go_quote(&def.name),
                        error_list(&e)
                    ),
                ));
                continue;
            }
        };
        let decoded = current.and_then(|c| c.value.as_ref()).map(as_float64);
        let defaulted = default::apply(decoded, &schema);
        let text = gojson::marshal(&defaulted);
        // Keep the re-encoded value as Kubernetes will decode it next (integers as int64).
        let value = serde_json::from_str(&text).unwrap_or(defaulted);
        out.push(ClusterVariable {
            name: def.name.clone(),
            value: Some(value),
            ..ClusterVariable::default()
        });
    }
    if errs.is_empty() { Ok(out) } else { Err(errs) }
}

/// `ValidateClusterVariables`: `spec.topology.variables`, with the required check.
pub fn validate_cluster_variables(
    values: &[ClusterVariable],
    old: &[ClusterVariable],
    defs: &StatusVariables,
    path: &Path,
) -> Vec<FieldError> {
    validate_variables(values, old, defs, true, path)
}

/// `validateClusterVariables`, shared by `ValidateClusterVariables` (`required`) and, for override
/// lists, `ValidateControlPlaneVariables` and `ValidateMachineVariables` (not `required`).
fn validate_variables(
    values: &[ClusterVariable],
    old: &[ClusterVariable],
    defs: &StatusVariables,
    required: bool,
    path: &Path,
) -> Vec<FieldError> {
    let index = match values_index(path, values) {
        Ok(i) => i,
        Err(e) => return e,
    };
    let old_index = match values_index(path, old) {
        Ok(i) => i,
        Err(e) => return e,
    };
    let def_index = match definitions_index(path, defs) {
        Ok(i) => i,
        Err(e) => return e,
    };
    let mut errs = Vec::new();
    if required {
        for (name, d) in &def_index {
            let req = d
                .definitions
                .first()
                .and_then(|f| f.required)
                .unwrap_or(false);
            if req && !index.contains_key(name) {
                errs.push(FieldError::required(
                    path,
                    format!("required variable {} must be set", go_quote(name)),
                ));
            }
        }
    }
    for (i, v) in values.iter().enumerate() {
        let vpath = path.key_at(&v.name, i);
        let Some(first) = def_index
            .get(v.name.as_str())
            .and_then(|d| d.definitions.first())
        else {
            errs.push(
                FieldError::invalid(&vpath, v.raw(), "variable is not defined").with_help(
                    crate::diag::suggest::did_you_mean(&v.name, def_index.keys().copied()),
                ),
            );
            continue;
        };
        let old_value = old_index
            .get(v.name.as_str())
            .and_then(|(_, o)| o.value.as_ref());
        errs.extend(validate_cluster_variable(
            v,
            old_value,
            &first.schema,
            &vpath,
        ));
    }
    errs
}

/// `ValidateClusterVariable`: one value against its definition's raw schema, at
/// `...variables[<name>]`.
pub fn validate_cluster_variable(
    var: &ClusterVariable,
    old_value: Option<&Value>,
    raw_schema: &Value,
    path: &Path,
) -> Vec<FieldError> {
    let raw = var.raw();
    let value = var.value.clone().unwrap_or(Value::Null);
    let schema = match Schema::parse(raw_schema, &Path::new("schema")) {
        Ok(s) => s,
        Err(e) => {
            return vec![FieldError::internal(
                path,
                format!(
                    "failed to convert schema definition for variable {}; ClusterClass should be checked: {}",
                    go_quote(&var.name),
                    error_list(&e)
                ),
            )];
        }
    };
    let errs = value::validate_custom_resource(&path.child("value"), &value, &schema);
    if !errs.is_empty() {
        return errs
            .into_iter()
            .map(|mut e| {
                e.bad_value = BadValue::Str(raw.clone());
                if let Some(d) = e.detail.strip_prefix(" in body ") {
                    e.detail = d.to_string();
                }
                e
            })
            .collect();
    }
    let unknown = prune::unknown_fields(&value, &schema);
    if !unknown.is_empty() {
        return vec![FieldError::invalid(
            path,
            raw,
            format!(
                "failed validation: {} field(s) are not specified in the variable schema of variable {}",
                go_quote(&unknown.join(",")),
                go_quote(&var.name)
            ),
        )];
    }
    if !has_rules(&schema) {
        return Vec::new();
    }
    cel::validate(
        raw_schema,
        &value,
        old_value,
        &path.child("value"),
        RUNTIME_CEL_COST_BUDGET,
    )
    .into_iter()
    .map(|e| e.with_bad_value(BadValue::Str(raw.clone())))
    .collect()
}

/// Whether any node of the schema has `x-kubernetes-validations` (otherwise Cluster API builds
/// no CEL validator).
fn has_rules(s: &Schema) -> bool {
    s.validations.as_ref().is_some_and(|r| !r.is_empty())
        || s.properties.values().any(|p| has_rules(p))
        || s.additional_properties.as_deref().is_some_and(has_rules)
        || s.items.as_deref().is_some_and(has_rules)
}

/// Where each list of variable values lives in a v1beta2 Cluster spec.
struct Site {
    pointer: String,
    path: Path,
    /// The MD/MP topology name, for old values.
    topology: Option<(String, String)>,
    cluster_level: bool,
}

fn sites(spec: &Value) -> Vec<Site> {
    let topo = Path::new("spec").child("topology");
    let mut out = vec![
        Site {
            pointer: "/topology/variables".into(),
            path: topo.child("variables"),
            topology: None,
            cluster_level: true,
        },
        Site {
            pointer: "/topology/controlPlane/variables/overrides".into(),
            path: topo
                .child("controlPlane")
                .child("variables")
                .child("overrides"),
            topology: None,
            cluster_level: false,
        },
    ];
    for list in ["machineDeployments", "machinePools"] {
        let items = spec
            .pointer(&format!("/topology/workers/{list}"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for (i, item) in items.iter().enumerate() {
            let name = item.get("name").and_then(Value::as_str).unwrap_or_default();
            out.push(Site {
                pointer: format!("/topology/workers/{list}/{i}/variables/overrides"),
                path: topo
                    .child("workers")
                    .child(list)
                    .key_at(name, i)
                    .child("variables")
                    .child("overrides"),
                topology: Some((list.to_string(), name.to_string())),
                cluster_level: false,
            });
        }
    }
    out
}

/// Old values of a site: the old Cluster's list at the same place (for MDs and MPs, the
/// topology with the same name).
fn old_values(old: Option<&Value>, site: &Site) -> Vec<ClusterVariable> {
    let Some(old) = old else {
        return Vec::new();
    };
    match &site.topology {
        None => read_variables(old.pointer(&site.pointer)),
        Some((list, name)) => {
            let item = old
                .pointer(&format!("/topology/workers/{list}"))
                .and_then(Value::as_array)
                .and_then(|a| {
                    a.iter()
                        .find(|x| x.get("name").and_then(Value::as_str) == Some(name))
                });
            read_variables(item.and_then(|x| x.pointer("/variables/overrides")))
        }
    }
}

/// Write a list back at `pointer` (relative to the spec), creating parents as needed.
fn write_back(spec: &mut Value, pointer: &str, values: &[ClusterVariable]) {
    if values.is_empty() {
        // The Go field is `omitempty`: an empty list is not written (and an empty one that was
        // written is dropped).
        if let Some((parent, key)) = pointer.rsplit_once('/')
            && let Some(m) = spec.pointer_mut(parent).and_then(Value::as_object_mut)
        {
            m.remove(key);
        }
        return;
    }
    let mut cur = spec;
    for token in pointer.trim_start_matches('/').split('/') {
        if !cur.is_object() && !cur.is_array() {
            *cur = Value::Object(Map::new());
        }
        cur = match cur {
            Value::Array(a) => match token.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                Some(x) => x,
                None => return,
            },
            Value::Object(m) => m.entry(token.to_string()).or_insert(Value::Null),
            _ => return,
        };
    }
    *cur = Value::Array(values.iter().map(ClusterVariable::to_json).collect());
}

/// Cluster API's `DefaultAndValidateVariables` on a v1beta2 Cluster spec: default
/// `spec.topology.variables`, the control plane overrides, each MachineDeployment's and each
/// MachinePool's overrides (lists that are empty are left alone), write the defaulted lists
/// back into `cluster_spec`, then validate them in the same order. `old_cluster_spec` is the
/// spec of the Cluster being updated (for CEL transition rules), `None` on create.
pub fn default_and_validate(
    cluster_spec: &mut Value,
    status_vars: &StatusVariables,
    old_cluster_spec: Option<&Value>,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let sites = sites(cluster_spec);
    let mut lists: Vec<Vec<ClusterVariable>> = Vec::with_capacity(sites.len());
    for site in &sites {
        let values = read_variables(cluster_spec.pointer(&site.pointer));
        if !site.cluster_level && values.is_empty() {
            lists.push(values);
            continue;
        }
        let result = if site.cluster_level {
            default_cluster_variables(&values, status_vars, &site.path)
        } else {
            default_machine_variables(&values, status_vars, &site.path)
        };
        match result {
            Ok(defaulted) => {
                write_back(cluster_spec, &site.pointer, &defaulted);
                lists.push(defaulted);
            }
            Err(e) => {
                errs.extend(e);
                lists.push(values);
            }
        }
    }
    for (site, values) in sites.iter().zip(&lists) {
        let old = old_values(old_cluster_spec, site);
        if site.cluster_level {
            errs.extend(validate_cluster_variables(
                values,
                &old,
                status_vars,
                &site.path,
            ));
        } else if !values.is_empty() {
            errs.extend(validate_variables(
                values,
                &old,
                status_vars,
                false,
                &site.path,
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(vars: Value) -> StatusVariables {
        StatusVariables::from_inline(vars.as_array().map_or(&[][..], Vec::as_slice))
    }

    fn vars(v: Value) -> Vec<ClusterVariable> {
        read_variables(Some(&v))
    }

    fn strings(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    fn path() -> Path {
        Path::of(&["spec", "topology", "variables"])
    }

    fn validate(values: Value, d: &StatusVariables) -> Vec<String> {
        strings(&validate_cluster_variables(&vars(values), &[], d, &path()))
    }

    #[test]
    fn validation_messages_match_cluster_api() {
        let d = defs(json!([
            {"name": "cpu", "required": true, "schema": {"openAPIV3Schema": {"type": "integer", "minimum": 1, "maximum": 10}}},
            {"name": "location", "schema": {"openAPIV3Schema": {"type": "string", "enum": ["us-east-1", "us-east-2"]}}},
            {"name": "zone", "schema": {"openAPIV3Schema": {"type": "string", "pattern": "^[0-9]+$"}}},
            {"name": "httpProxy", "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                "enabled": {"type": "boolean"}, "url": {"type": "string"}}, "required": ["url"]}}},
            {"name": "testArray", "schema": {"openAPIV3Schema": {"type": "array", "items": {"type": "string"},
                "maxItems": 3, "minItems": 2, "uniqueItems": true}}},
            {"name": "mustBeString", "schema": {"openAPIV3Schema": {"type": "string"}}}
        ]));
        assert_eq!(
            validate(json!([{"name": "cpu", "value": 99}]), &d),
            vec![
                "spec.topology.variables[cpu].value: Invalid value: \"99\": should be less than or equal to 10"
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "mustBeString", "value": 1}]),
                &d
            ),
            vec![
                "spec.topology.variables[mustBeString].value: Invalid value: \"1\": must be of type string: \"integer\""
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "location", "value": "us-east-invalid"}]),
                &d
            ),
            vec![
                "spec.topology.variables[location].value: Unsupported value: \"\\\"us-east-invalid\\\"\": supported values: \"us-east-1\", \"us-east-2\""
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "zone", "value": "000000a"}]),
                &d
            ),
            vec![
                "spec.topology.variables[zone].value: Invalid value: \"\\\"000000a\\\"\": should match '^[0-9]+$'"
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "httpProxy", "value": {"enabled": "not-a-bool"}}]),
                &d
            ),
            vec![
                "spec.topology.variables[httpProxy].value.enabled: Invalid value: \"{\\\"enabled\\\":\\\"not-a-bool\\\"}\": enabled in body must be of type boolean: \"string\"",
                "spec.topology.variables[httpProxy].value.url: Required value",
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "testArray", "value": ["1", "2", "3", "4"]}]),
                &d
            ),
            vec![
                "spec.topology.variables[testArray].value: Too many: \"[\\\"1\\\",\\\"2\\\",\\\"3\\\",\\\"4\\\"]\": must have at most 3 items"
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "testArray", "value": ["1", "1"]}]),
                &d
            ),
            vec![
                "spec.topology.variables[testArray].value: Invalid value: \"[\\\"1\\\",\\\"1\\\"]\": shouldn't contain duplicates"
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "testArray", "value": ["1"]}]),
                &d
            ),
            vec![
                "spec.topology.variables[testArray].value: Invalid value: \"[\\\"1\\\"]\": should have at least 2 items"
            ]
        );
        assert_eq!(
            validate(json!([{"name": "location", "value": "us-east-1"}]), &d),
            vec!["spec.topology.variables: Required value: required variable \"cpu\" must be set"]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "unknown", "value": "x"}]),
                &d
            ),
            vec![
                "spec.topology.variables[unknown]: Invalid value: \"\\\"x\\\"\": variable is not defined"
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "cpu", "value": 2}]),
                &d
            ),
            vec![
                "spec.topology.variables[cpu]: Invalid value: \"2\": variable \"cpu\" is set more than once"
            ]
        );
        assert_eq!(
            validate(
                json!([{"name": "cpu", "value": 1}, {"name": "httpProxy", "value": {"url": "x", "URL": "y", "a": {"b": 1}}}]),
                &d
            ),
            vec![
                "spec.topology.variables[httpProxy]: Invalid value: \"{\\\"URL\\\":\\\"y\\\",\\\"a\\\":{\\\"b\\\":1},\\\"url\\\":\\\"x\\\"}\": failed validation: \"URL,a\" field(s) are not specified in the variable schema of variable \"httpProxy\""
            ]
        );
        // A null value has no raw bytes.
        assert_eq!(
            validate(json!([{"name": "cpu", "value": null}]), &d),
            vec![
                "spec.topology.variables[cpu].value: Invalid value: \"\": must be of type integer: \"null\""
            ]
        );
    }

    #[test]
    fn junctor_messages() {
        let d = defs(json!([
            {"name": "one", "schema": {"openAPIV3Schema": {"type": "integer", "oneOf": [{"minimum": 0}, {"maximum": 10}]}}},
            {"name": "all", "schema": {"openAPIV3Schema": {"type": "integer", "allOf": [{"minimum": 0}, {"maximum": 10}]}}},
            {"name": "not", "schema": {"openAPIV3Schema": {"type": "integer", "not": {"minimum": 0}}}}
        ]));
        assert_eq!(
            validate(
                json!([{"name": "one", "value": 5}, {"name": "all", "value": 11}, {"name": "not", "value": 1}]),
                &d
            ),
            vec![
                "spec.topology.variables[one].value: Invalid value: \"5\": \"\" must validate one and only one schema (oneOf). Found 2 valid alternatives",
                "spec.topology.variables[all].value: Invalid value: \"11\": should be less than or equal to 10",
                "spec.topology.variables[all].value: Invalid value: \"11\": \"\" must validate all the schemas (allOf)",
                "spec.topology.variables[not].value: Invalid value: \"1\": \"\" must not validate the schema (not)",
            ]
        );
    }

    #[test]
    fn definition_index_errors() {
        let mut d = defs(json!([
            {"name": "a", "schema": {"openAPIV3Schema": {"type": "string"}}},
            {"name": "b", "schema": {"openAPIV3Schema": {"type": "string"}}}
        ]));
        d.variables[0].definitions_conflict = true;
        d.variables[1].definitions.clear();
        let want = "spec.topology.variables: Invalid value: \"[Name: a,Name: b]\": variable definitions in the ClusterClass not valid: [variable \"a\" has conflicting definitions, variable \"b\" has no definitions]";
        assert_eq!(validate(json!([]), &d), vec![want]);
        assert_eq!(
            strings(
                &default_cluster_variables(&[], &d, &path())
                    .err()
                    .unwrap_or_default()
            ),
            vec![want]
        );
    }

    #[test]
    fn defaulting_creates_and_normalises() {
        let d = defs(json!([
            {"name": "cpu", "schema": {"openAPIV3Schema": {"type": "integer", "default": 2}}},
            {"name": "obj", "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                "b": {"type": "string", "default": "<x>"}, "n": {"type": "number"}}}}},
            {"name": "noDefault", "schema": {"openAPIV3Schema": {"type": "string"}}}
        ]));
        let got = default_cluster_variables(
            &vars(json!([{"name": "obj", "value": {"n": 1.0, "z": 9007199254740993_u64}}])),
            &d,
            &path(),
        )
        .unwrap_or_default();
        assert_eq!(
            got.iter()
                .map(|v| (v.name.as_str(), v.raw()))
                .collect::<Vec<_>>(),
            vec![
                (
                    "obj",
                    "{\"b\":\"\\u003cx\\u003e\",\"n\":1,\"z\":9007199254740992}".to_string()
                ),
                ("cpu", "2".to_string()),
            ]
        );
        // Machine overrides are not created, only defaulted.
        let got =
            default_machine_variables(&vars(json!([{"name": "obj", "value": {}}])), &d, &path())
                .unwrap_or_default();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].value, Some(json!({"b": "<x>"})));
        assert_eq!(
            strings(
                &default_cluster_variables(
                    &vars(json!([{"name": "nope", "value": 1}])),
                    &d,
                    &path()
                )
                .err()
                .unwrap_or_default()
            ),
            vec!["spec.topology.variables[nope]: Invalid value: \"1\": variable is not defined"]
        );
    }

    #[test]
    fn default_and_validate_runs_every_list() {
        let d = defs(json!([
            {"name": "cpu", "required": true, "schema": {"openAPIV3Schema": {"type": "integer", "default": 2, "maximum": 4}}},
            {"name": "region", "schema": {"openAPIV3Schema": {"type": "string"}}}
        ]));
        let mut spec = json!({"topology": {"classRef": {"name": "c"}, "variables": [{"name": "region", "value": "x"}],
            "controlPlane": {"variables": {"overrides": [{"name": "cpu", "value": 8}]}},
            "workers": {"machineDeployments": [
                {"name": "md-0", "class": "w", "variables": {"overrides": [{"name": "region", "value": 1.0}]}},
                {"name": "md-1", "class": "w"}],
              "machinePools": [{"name": "mp-0", "class": "p", "variables": {"overrides": [{"name": "bad", "value": 1}]}}]}}});
        let errs = strings(&default_and_validate(&mut spec, &d, None));
        assert_eq!(
            errs,
            vec![
                "spec.topology.workers.machinePools[mp-0].variables.overrides[bad]: Invalid value: \"1\": variable is not defined",
                "spec.topology.controlPlane.variables.overrides[cpu].value: Invalid value: \"8\": should be less than or equal to 4",
                "spec.topology.workers.machineDeployments[md-0].variables.overrides[region].value: Invalid value: \"1\": must be of type string: \"integer\"",
                "spec.topology.workers.machinePools[mp-0].variables.overrides[bad]: Invalid value: \"1\": variable is not defined",
            ]
        );
        assert_eq!(
            spec["topology"]["variables"],
            json!([{"name": "region", "value": "x"}, {"name": "cpu", "value": 2}])
        );
        assert_eq!(
            spec.pointer("/topology/workers/machineDeployments/0/variables/overrides/0/value"),
            Some(&json!(1))
        );
        assert!(
            spec.pointer("/topology/workers/machineDeployments/1/variables")
                .is_none()
        );
        assert_eq!(
            FieldError::invalid(&Path::root(), "", "").path.pointer(),
            ""
        );
    }

    /// Cluster API v1.10.10's `newValuesIndex` (`internal/topology/variables/utils.go`): a value
    /// with `definitionFrom` set is refused by the defaulting and again by the validation of
    /// its list (`DefaultAndValidateVariables`), on every list; the other lists go on.
    #[test]
    fn definition_from_is_refused() {
        let d = defs(json!([{"name": "cpu", "schema": {"openAPIV3Schema": {"type": "integer"}}}]));
        let msg = "has DefinitionFrom set. DefinitionFrom is deprecated, must not be set anymore and is going to be removed in the next apiVersion";
        let mut spec = json!({"topology": {"classRef": {"name": "c"},
            "variables": [{"name": "cpu", "definitionFrom": "inline", "value": 2}],
            "workers": {"machineDeployments": [
                {"name": "md-0", "class": "w", "variables": {"overrides": [{"name": "cpu", "value": 3}, {"name": "cpu", "definitionFrom": "p", "value": 4}]}}],
              "machinePools": [{"name": "mp-0", "class": "p", "variables": {"overrides": [{"name": "cpu", "value": "x"}]}}]}}});
        let errs = strings(&default_and_validate(&mut spec, &d, None));
        let top =
            format!("spec.topology.variables[cpu]: Invalid value: \"2\": variable \"cpu\" {msg}");
        let md = "spec.topology.workers.machineDeployments[md-0].variables.overrides[cpu]";
        let md_from = format!("{md}: Invalid value: \"4\": variable \"cpu\" {msg}");
        let md_twice =
            format!("{md}: Invalid value: \"4\": variable \"cpu\" is set more than once");
        let mp = "spec.topology.workers.machinePools[mp-0].variables.overrides[cpu].value: Invalid value: \"\\\"x\\\"\": must be of type integer: \"string\"";
        assert_eq!(
            errs,
            vec![
                top.clone(),
                md_from.clone(),
                md_twice.clone(),
                top,
                md_from,
                md_twice,
                mp.to_string()
            ]
        );
        // Without it, the same values pass.
        let mut spec = json!({"topology": {"classRef": {"name": "c"},
            "variables": [{"name": "cpu", "definitionFrom": "", "value": 2}]}});
        assert!(default_and_validate(&mut spec, &d, None).is_empty());
    }

    #[test]
    fn an_empty_defaulted_list_is_not_written() {
        // `variables` is omitempty in Go: a class without variables must not add `variables: []`.
        let d = defs(json!([]));
        let mut spec = json!({"topology": {"classRef": {"name": "c"}, "version": "v1.30.0"}});
        assert!(default_and_validate(&mut spec, &d, None).is_empty());
        assert_eq!(
            spec,
            json!({"topology": {"classRef": {"name": "c"}, "version": "v1.30.0"}})
        );
    }

    /// Cases from Cluster API's `cluster_variable_defaulting_test.go`, as (schema, value or
    /// absent, create, expected raw or absent).
    #[test]
    fn defaulting_table() {
        let url = json!({"type": "string", "default": "https://example.com"});
        let proxy =
            json!({"type": "object", "properties": {"enabled": {"type": "boolean"}, "url": url}});
        let cases: Vec<(Value, Option<Value>, bool, Option<&str>)> = vec![
            (
                json!({"type": "integer", "default": 1}),
                None,
                true,
                Some("1"),
            ),
            (json!({"type": "integer", "default": 1}), None, false, None),
            (
                json!({"type": "integer", "default": 1}),
                Some(json!(2)),
                true,
                Some("2"),
            ),
            (
                json!({"type": "string", "default": "us-east"}),
                None,
                true,
                Some("\"us-east\""),
            ),
            (
                json!({"type": "number", "default": 0.1}),
                None,
                true,
                Some("0.1"),
            ),
            (
                json!({"type": "number", "default": 0.1}),
                Some(json!(2.1)),
                true,
                Some("2.1"),
            ),
            (
                json!({"type": "boolean", "default": true}),
                Some(json!(false)),
                true,
                Some("false"),
            ),
            (
                json!({"type": "object", "default": {"enabled": false}, "properties": {"enabled": {"type": "boolean"}}}),
                None,
                true,
                Some("{\"enabled\":false}"),
            ),
            (
                json!({"type": "object", "properties": {"enabled": {"type": "boolean", "default": false}}}),
                None,
                true,
                None,
            ),
            (
                json!({"type": "object", "default": {"url": "test-url"}, "properties": {
                "enabled": {"type": "boolean", "default": false}, "url": {"type": "string"}}}),
                None,
                true,
                Some("{\"enabled\":false,\"url\":\"test-url\"}"),
            ),
            (
                json!({"type": "object", "default": {}, "properties": {"enabled": {"type": "boolean", "default": false}}}),
                None,
                true,
                Some("{\"enabled\":false}"),
            ),
            (
                json!({"type": "object", "default": {"enabled": true}, "properties": {"enabled": {"type": "boolean"}, "url": {"type": "string"}}}),
                Some(json!({"enabled": false, "url": "https://example.com"})),
                true,
                Some("{\"enabled\":false,\"url\":\"https://example.com\"}"),
            ),
            (
                json!({"type": "object", "default": {"enabled": false}, "properties": {"enabled": {"type": "boolean"}, "url": url}}),
                Some(json!({"enabled": false})),
                true,
                Some("{\"enabled\":false,\"url\":\"https://example.com\"}"),
            ),
            (
                json!({"type": "object", "default": {"proxy": {"enabled": false}}, "additionalProperties": proxy}),
                None,
                true,
                Some("{\"proxy\":{\"enabled\":false,\"url\":\"https://example.com\"}}"),
            ),
            (
                json!({"type": "object", "additionalProperties": proxy}),
                Some(json!({"proxy1": {"enabled": false}, "proxy2": {"enabled": false}})),
                false,
                Some(
                    "{\"proxy1\":{\"enabled\":false,\"url\":\"https://example.com\"},\"proxy2\":{\"enabled\":false,\"url\":\"https://example.com\"}}",
                ),
            ),
            (
                json!({"type": "array", "items": proxy, "default": [{"enabled": false, "url": "123"}, {"enabled": false, "url": "456"}]}),
                None,
                true,
                Some("[{\"enabled\":false,\"url\":\"123\"},{\"enabled\":false,\"url\":\"456\"}]"),
            ),
            (
                json!({"type": "array", "items": proxy, "default": [{"enabled": false, "url": "123"}]}),
                Some(json!([])),
                true,
                Some("[]"),
            ),
        ];
        for (i, (schema, value, create, want)) in cases.into_iter().enumerate() {
            let d = defs(json!([{"name": "v", "schema": {"openAPIV3Schema": schema}}]));
            let values: Vec<ClusterVariable> = value
                .map(|v| ClusterVariable {
                    name: "v".into(),
                    value: Some(v),
                    ..ClusterVariable::default()
                })
                .into_iter()
                .collect();
            let got = if create {
                default_cluster_variables(&values, &d, &path())
            } else {
                default_machine_variables(&values, &d, &path())
            };
            let got = got.unwrap_or_else(|e| panic!("case {i}: {e:?}"));
            assert_eq!(
                got.first().map(ClusterVariable::raw).as_deref(),
                want,
                "case {i}"
            );
        }
    }

    /// Cases from Cluster API's `cluster_variable_validation_test.go`.
    #[test]
    fn validation_table() {
        let cases: Vec<(Value, Value, Vec<&str>)> = vec![
            (
                json!({"x-kubernetes-int-or-string": true}),
                json!("1"),
                vec![],
            ),
            (
                json!({"x-kubernetes-int-or-string": true}),
                json!(1),
                vec![],
            ),
            (
                json!({"x-kubernetes-int-or-string": true}),
                json!(1.5),
                vec![
                    "spec.topology.variables[v].value: Invalid value: \"1.5\": must be of type integer,string: \"number\"",
                ],
            ),
            (
                json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
                json!({"a": {"b": 1}}),
                vec![],
            ),
            (
                json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"a": {"type": "object"}}}),
                json!({"a": {"b": 1}}),
                vec![
                    "spec.topology.variables[v]: Invalid value: \"{\\\"a\\\":{\\\"b\\\":1}}\": failed validation: \"a.b\" field(s) are not specified in the variable schema of variable \"v\"",
                ],
            ),
            (
                json!({"type": "array", "items": {"type": "object", "properties": {"n": {"type": "string"}}}}),
                json!([{"n": "x", "m": 1}]),
                vec![
                    "spec.topology.variables[v]: Invalid value: \"[{\\\"m\\\":1,\\\"n\\\":\\\"x\\\"}]\": failed validation: \"variableValue[0].m\" field(s) are not specified in the variable schema of variable \"v\"",
                ],
            ),
            (
                json!({"type": "array", "items": {"type": "string", "format": "uri"}}),
                json!(["ok:x", "not a URI"]),
                vec![
                    "spec.topology.variables[v].value.[1]: Invalid value: \"[\\\"ok:x\\\",\\\"not a URI\\\"]\": [1] in body must be of type uri: \"not a URI\"",
                ],
            ),
            (
                json!({"type": "string", "minLength": 3}),
                json!("ab"),
                vec![
                    "spec.topology.variables[v].value: Invalid value: \"\\\"ab\\\"\": should be at least 3 chars long",
                ],
            ),
            (
                json!({"type": "object", "maxProperties": 1}),
                json!({"a": 1, "b": 2}),
                vec![
                    "spec.topology.variables[v].value: Too many: \"{\\\"a\\\":1,\\\"b\\\":2}\": must have at most 1 item",
                ],
            ),
            (
                json!({"type": "string", "maxLength": 1}),
                json!("ab"),
                vec!["spec.topology.variables[v].value: Too long: may not be more than 1 byte"],
            ),
        ];
        for (i, (schema, value, want)) in cases.into_iter().enumerate() {
            let d = defs(json!([{"name": "v", "schema": {"openAPIV3Schema": schema}}]));
            assert_eq!(
                validate(json!([{"name": "v", "value": value}]), &d),
                want,
                "case {i}"
            );
        }
    }
}
