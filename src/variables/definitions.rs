/*!
Variable definitions: validating a ClusterClass's `spec.variables` (Cluster API's
`ValidateClusterClassVariables`) and building `status.variables` from them.

Owns [`validate_cluster_class_variables`]: unique names; empty, `builtin` and dotted names;
`deprecatedV1Beta1Metadata` and every `x-metadata` (through `additionalProperties`, `properties`
and `items`, not junctors) as Kubernetes labels and annotations; then `validateRootSchema`:
decoding the schema (and the old one on update), the structural checks, the defaults, and
`validateSchema` with its CEL checks ([`crate::schema::structural`]). Paths are
`spec.variables[<name>]...`.

And owns [`StatusVariables`], the `status.variables` the ClusterClass controller writes: one entry
per variable name, sorted by name, each with its definitions in insertion order (inline first,
`from: inline`), and `definitionsConflict` set when a later definition differs from the first one
in `required` (unset counts as false), in its schema (after clearing every `false` pointer bool,
`dropFalsePtrBool`) or in `deprecatedV1Beta1Metadata`. Discovered definitions (external patches)
can be added with [`StatusVariables::add`].
*/

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::k8s::field::{FieldError, Path};
use crate::k8s::validation::{validate_annotations, validate_labels};
use crate::schema::default::validate_defaults;
use crate::schema::props::{Schema, VariableMetadata};
use crate::schema::structural::{validate_schema, validate_structural};

/// The name of the builtin variable, reserved.
pub const BUILTIN: &str = "builtin";
/// `from` of definitions that come from the ClusterClass itself.
pub const INLINE: &str = "inline";

/// One `spec.variables[]` entry (v1beta2 shape).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterClassVariable {
    /// `name`.
    pub name: String,
    /// `required`.
    pub required: Option<bool>,
    /// `deprecatedV1Beta1Metadata`.
    pub metadata: VariableMetadata,
    /// `schema.openAPIV3Schema`, raw.
    pub schema: Value,
}

impl ClusterClassVariable {
    /// Read an entry; fields of the wrong JSON type count as unset (the API layer reports
    /// decoding errors).
    pub fn from_json(v: &Value) -> ClusterClassVariable {
        ClusterClassVariable {
            name: v
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            required: v.get("required").and_then(Value::as_bool),
            metadata: v
                .get("deprecatedV1Beta1Metadata")
                .and_then(|m| VariableMetadata::parse(m, &Path::root()).ok())
                .unwrap_or_default(),
            schema: v
                .pointer("/schema/openAPIV3Schema")
                .filter(|s| !s.is_null())
                .cloned()
                .unwrap_or_else(|| Value::Object(Map::new())),
        }
    }
}

/// `ValidateClusterClassVariables(old, vars, path)`: `old` are the variables of the ClusterClass
/// being updated (empty on create), `path` is `spec.variables`.
pub fn validate_cluster_class_variables(
    old: &[Value],
    vars: &[Value],
    path: &Path,
) -> Vec<FieldError> {
    let vars: Vec<ClusterClassVariable> =
        vars.iter().map(ClusterClassVariable::from_json).collect();
    let old: BTreeMap<String, ClusterClassVariable> = old
        .iter()
        .map(ClusterClassVariable::from_json)
        .map(|v| (v.name.clone(), v))
        .collect();
    let mut errs = Vec::new();
    let mut seen = HashSet::new();
    for (i, v) in vars.iter().enumerate() {
        if !seen.insert(v.name.as_str()) {
            errs.push(FieldError::invalid(
                &path.key_at(&v.name, i).child("name"),
                v.name.as_str(),
                format!(
                    "variable name must be unique. Variable with name {} is defined more than once",
                    crate::k8s::field::go_quote(&v.name)
                ),
            ));
        }
    }
    for (i, v) in vars.iter().enumerate() {
        errs.extend(validate_variable(
            old.get(&v.name),
            v,
            &path.key_at(&v.name, i),
        ));
    }
    errs
}

fn validate_variable(
    old: Option<&ClusterClassVariable>,
    v: &ClusterClassVariable,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name_path = path.child("name");
    if v.name.is_empty() {
        errs.push(FieldError::required(
            &name_path,
            "variable name must be defined",
        ));
    }
    if v.name == BUILTIN {
        errs.push(FieldError::invalid(
            &name_path,
            v.name.as_str(),
            "\"builtin\" is a reserved variable name",
        ));
    }
    if v.name.contains('.') {
        errs.push(FieldError::invalid(
            &name_path,
            v.name.as_str(),
            "variable name cannot contain \".\"",
        ));
    }
    let md = path.child("deprecatedV1Beta1Metadata");
    errs.extend(validate_labels(&v.metadata.labels, &md.child("labels")));
    errs.extend(validate_annotations(
        &v.metadata.annotations,
        &md.child("annotations"),
    ));
    let schema_path = path.child("schema").child("openAPIV3Schema");
    let schema = Schema::parse(&v.schema, &schema_path);
    if let Ok(s) = &schema {
        errs.extend(x_metadata(s, &schema_path));
    }
    errs.extend(validate_root_schema(old, v, schema, &schema_path));
    errs
}

/// `validateClusterClassXVariableMetadata`.
fn x_metadata(s: &Schema, path: &Path) -> Vec<FieldError> {
    let md = s.x_metadata.clone().unwrap_or_default();
    let mut errs = validate_labels(&md.labels, &path.child("x-metadata").child("labels"));
    errs.extend(validate_annotations(
        &md.annotations,
        &path.child("x-metadata").child("annotations"),
    ));
    if let Some(ap) = &s.additional_properties {
        errs.extend(x_metadata(ap, &path.child("additionalProperties")));
    }
    for (k, p) in &s.properties {
        errs.extend(x_metadata(p, &path.child("properties").key(k)));
    }
    if let Some(items) = &s.items {
        errs.extend(x_metadata(items, &path.child("items")));
    }
    errs
}

fn prefixed(errs: Vec<FieldError>, prefix: &str) -> Vec<FieldError> {
    errs.into_iter()
        .map(|mut e| {
            e.detail = format!("{prefix}{}", e.detail);
            e
        })
        .collect()
}

/// `validateRootSchema`.
fn validate_root_schema(
    old: Option<&ClusterClassVariable>,
    v: &ClusterClassVariable,
    schema: Result<Schema, Vec<FieldError>>,
    path: &Path,
) -> Vec<FieldError> {
    let quoted = crate::k8s::field::go_quote(&v.name);
    let s = match schema {
        Ok(s) => s,
        Err(errs) => {
            return prefixed(
                errs,
                &format!(
                    "failed to convert schema definition for variable {quoted}; ClusterClass should be checked: "
                ),
            );
        }
    };
    if let Some(o) = old
        && let Err(errs) = Schema::parse(&o.schema, path)
    {
        return prefixed(
            errs,
            &format!(
                "failed to convert old schema definition for variable {quoted}; ClusterClass should be checked: "
            ),
        );
    }
    let errs = validate_structural(&s, path);
    if !errs.is_empty() {
        return errs;
    }
    let errs = validate_defaults(&s, &v.schema, path);
    if !errs.is_empty() {
        return errs;
    }
    validate_schema(&s, &v.schema, path, old.map(|o| &o.schema))
}

/// One entry of `status.variables[].definitions`.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusVariableDefinition {
    /// `inline` or the name of the patch that discovered it.
    pub from: String,
    /// `required`.
    pub required: Option<bool>,
    /// `deprecatedV1Beta1Metadata`.
    pub metadata: VariableMetadata,
    /// `schema.openAPIV3Schema`, raw; shared, as one recorded DiscoverVariablesResponse
    /// stands in for every class's discovery (a copy per class was a copy per class of every
    /// discovered schema).
    pub schema: std::sync::Arc<Value>,
}

/// One entry of `status.variables`.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusVariable {
    /// Variable name.
    pub name: String,
    /// `definitionsConflict`.
    pub definitions_conflict: bool,
    /// `definitions`, in insertion order.
    pub definitions: Vec<StatusVariableDefinition>,
}

/// `ClusterClass.status.variables`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatusVariables {
    /// Entries, sorted by name once [`StatusVariables::sort`] ran.
    pub variables: Vec<StatusVariable>,
}

fn same_schema(a: &Value, b: &Value) -> bool {
    let p = Path::root();
    match (Schema::parse(a, &p), Schema::parse(b, &p)) {
        (Ok(x), Ok(y)) => x.drop_false_ptr_bools() == y.drop_false_ptr_bools(),
        _ => a == b,
    }
}

impl StatusVariable {
    /// Another definition of this variable; a conflict when it differs from the first.
    fn add(&mut self, def: StatusVariableDefinition) {
        if !self.definitions_conflict
            && let Some(first) = self.definitions.first()
            && (first.required.unwrap_or(false) != def.required.unwrap_or(false)
                || !same_schema(&first.schema, &def.schema)
                || first.metadata != def.metadata)
        {
            self.definitions_conflict = true;
        }
        self.definitions.push(def);
    }
}

impl StatusVariables {
    /// The status of a ClusterClass whose variables are all inline: every `spec.variables`
    /// entry as a `from: inline` definition, sorted by name.
    pub fn from_inline(vars: &[Value]) -> StatusVariables {
        let mut out = StatusVariables::default();
        out.add_all(vars.iter().map(ClusterClassVariable::from_json).map(|v| {
            (
                v.name,
                StatusVariableDefinition {
                    from: INLINE.to_string(),
                    required: v.required,
                    metadata: v.metadata,
                    schema: std::sync::Arc::new(v.schema),
                },
            )
        }));
        out.sort();
        out
    }

    /// Add a definition: a new entry, or appended to the existing one with the conflict rule.
    pub fn add(&mut self, name: &str, def: StatusVariableDefinition) {
        match self.variables.iter_mut().find(|v| v.name == name) {
            None => self.variables.push(StatusVariable {
                name: name.to_string(),
                definitions_conflict: false,
                definitions: vec![def],
            }),
            Some(existing) => existing.add(def),
        }
    }

    /// [`StatusVariables::add`] for many definitions, with an index of the names: adding them
    /// one by one searches the entries each time, quadratic in the number of variables (14 s
    /// for 100,000 discovered ones).
    pub fn add_all(&mut self, defs: impl IntoIterator<Item = (String, StatusVariableDefinition)>) {
        let mut index: HashMap<String, usize> = HashMap::new();
        for (i, v) in self.variables.iter().enumerate() {
            index.entry(v.name.clone()).or_insert(i);
        }
        for (name, def) in defs {
            match index.get(&name).and_then(|&i| self.variables.get_mut(i)) {
                Some(existing) => existing.add(def),
                None => {
                    index.insert(name.clone(), self.variables.len());
                    self.variables.push(StatusVariable {
                        name,
                        definitions_conflict: false,
                        definitions: vec![def],
                    });
                }
            }
        }
    }

    /// Sort entries by variable name.
    pub fn sort(&mut self) {
        self.variables.sort_by(|a, b| a.name.cmp(&b.name));
    }

    /// The entry of variable `name`.
    pub fn get(&self, name: &str) -> Option<&StatusVariable> {
        self.variables.iter().find(|v| v.name == name)
    }

    /// Names of the variables whose definitions conflict, in order.
    pub fn conflicting(&self) -> Vec<&str> {
        self.variables
            .iter()
            .filter(|v| v.definitions_conflict)
            .map(|v| v.name.as_str())
            .collect()
    }

    /// The JSON Cluster API writes.
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.variables
                .iter()
                .map(|v| {
                    let defs: Vec<Value> = v
                        .definitions
                        .iter()
                        .map(|d| {
                            let mut o = Map::new();
                            o.insert("from".into(), json!(d.from));
                            if let Some(r) = d.required {
                                o.insert("required".into(), json!(r));
                            }
                            if !d.metadata.is_empty() {
                                let mut md = Map::new();
                                if !d.metadata.labels.is_empty() {
                                    md.insert("labels".into(), json!(d.metadata.labels));
                                }
                                if !d.metadata.annotations.is_empty() {
                                    md.insert("annotations".into(), json!(d.metadata.annotations));
                                }
                                o.insert("deprecatedV1Beta1Metadata".into(), Value::Object(md));
                            }
                            o.insert("schema".into(), json!({"openAPIV3Schema": *d.schema}));
                            Value::Object(o)
                        })
                        .collect();
                    json!({"name": v.name, "definitionsConflict": v.definitions_conflict, "definitions": defs})
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(vars: Value) -> Vec<String> {
        let vars = vars.as_array().cloned().unwrap_or_default();
        validate_cluster_class_variables(&[], &vars, &Path::new("spec").child("variables"))
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn names() {
        assert_eq!(
            check(json!([
                {"name": "cpu", "schema": {"openAPIV3Schema": {"type": "integer"}}},
                {"name": "cpu", "schema": {"openAPIV3Schema": {"type": "integer"}}},
                {"name": "", "schema": {"openAPIV3Schema": {"type": "string"}}},
                {"name": "builtin", "schema": {"openAPIV3Schema": {"type": "string"}}},
                {"name": "path.tovariable", "schema": {"openAPIV3Schema": {"type": "string"}}}
            ])),
            vec![
                "spec.variables[cpu].name: Invalid value: \"cpu\": variable name must be unique. Variable with name \"cpu\" is defined more than once",
                "spec.variables[].name: Required value: variable name must be defined",
                "spec.variables[builtin].name: Invalid value: \"builtin\": \"builtin\" is a reserved variable name",
                "spec.variables[path.tovariable].name: Invalid value: \"path.tovariable\": variable name cannot contain \".\"",
            ]
        );
    }

    #[test]
    fn metadata_and_x_metadata() {
        let errs = check(
            json!([{"name": "v", "deprecatedV1Beta1Metadata": {"labels": {"-x": "a"}},
            "schema": {"openAPIV3Schema": {"type": "object", "x-metadata": {"annotations": {"a/b/c": ""}},
                "properties": {"p": {"type": "array", "items": {"type": "string", "x-metadata": {"labels": {"k": "-"}}}}}}}}]),
        );
        assert_eq!(errs.len(), 3, "{errs:#?}");
        assert!(errs[0].starts_with("spec.variables[v].deprecatedV1Beta1Metadata.labels: Invalid value: \"-x\": name part must consist"));
        assert!(errs[1].starts_with("spec.variables[v].schema.openAPIV3Schema.x-metadata.annotations: Invalid value: \"a/b/c\": a valid label key must consist"));
        assert!(errs[2].starts_with("spec.variables[v].schema.openAPIV3Schema.properties[p].items.x-metadata.labels: Invalid value: \"-\": a valid label must be"));
    }

    #[test]
    fn root_schema_steps_stop_at_the_first_failing_phase() {
        // Structural errors hide default errors.
        assert_eq!(
            check(
                json!([{"name": "v", "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"a": {"default": 1}, "b": {"type": "string", "default": 1}}}}}])
            ),
            vec![
                "spec.variables[v].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields"
            ]
        );
        assert_eq!(
            check(
                json!([{"name": "v", "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"b": {"type": "string", "default": 1, "enum": [2]}}}}}])
            ),
            vec![
                "spec.variables[v].schema.openAPIV3Schema.properties[b].default: Invalid value: \"integer\":  in body must be of type string: \"integer\"",
                "spec.variables[v].schema.openAPIV3Schema.properties[b].default: Unsupported value: 1: supported values: \"2\"",
            ]
        );
        assert_eq!(
            check(
                json!([{"name": "v", "schema": {"openAPIV3Schema": {"type": "string", "enum": [2], "maxLength": "x"}}}])
            ),
            vec![
                "spec.variables[v].schema.openAPIV3Schema.maxLength: Invalid value: \"x\": failed to convert schema definition for variable \"v\"; ClusterClass should be checked: must be of type int64"
            ]
        );
        assert_eq!(
            check(
                json!([{"name": "cpu", "schema": {"openAPIV3Schema": {"type": "integer", "enum": [1, "a"], "example": 0, "minimum": 1}}}])
            ),
            vec![
                "spec.variables[cpu].schema.openAPIV3Schema.example: Invalid value: 0:  in body should be greater than or equal to 1",
                "spec.variables[cpu].schema.openAPIV3Schema.example: Unsupported value: 0: supported values: \"1\", \"a\"",
                "spec.variables[cpu].schema.openAPIV3Schema.enum[1]: Invalid value: \"string\":  in body must be of type integer: \"string\"",
            ]
        );
        assert!(
            check(
                json!([{"name": "ok", "required": true, "schema": {"openAPIV3Schema": {
            "type": "object", "properties": {"enabled": {"type": "boolean", "default": false},
            "url": {"type": "string", "format": "uri"}}, "required": ["url"]}}}])
            )
            .is_empty()
        );
    }

    #[test]
    fn status_variables_and_conflicts() {
        let inline = vec![
            json!({"name": "b", "required": false, "schema": {"openAPIV3Schema": {"type": "string"}}}),
            json!({"name": "a", "schema": {"openAPIV3Schema": {"type": "array", "items": {"type": "string"}, "uniqueItems": false}}}),
        ];
        let mut st = StatusVariables::from_inline(&inline);
        assert_eq!(
            st.variables
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>(),
            vec!["a", "b"]
        );
        // Same schema once false pointer bools are dropped; unset required equals false.
        st.add(
            "a",
            StatusVariableDefinition {
                from: "p1".into(),
                required: None,
                metadata: VariableMetadata::default(),
                schema: std::sync::Arc::new(json!({"type": "array", "items": {"type": "string"}})),
            },
        );
        st.add(
            "b",
            StatusVariableDefinition {
                from: "p1".into(),
                required: Some(true),
                metadata: VariableMetadata::default(),
                schema: std::sync::Arc::new(json!({"type": "string"})),
            },
        );
        st.add(
            "c",
            StatusVariableDefinition {
                from: "p2".into(),
                required: None,
                metadata: VariableMetadata::default(),
                schema: std::sync::Arc::new(json!({"type": "string"})),
            },
        );
        st.sort();
        assert_eq!(st.conflicting(), vec!["b"]);
        assert_eq!(st.get("a").map(|v| v.definitions.len()), Some(2));
        assert_eq!(
            st.to_json()[1],
            json!({"name": "b", "definitionsConflict": true, "definitions": [
                {"from": "inline", "required": false, "schema": {"openAPIV3Schema": {"type": "string"}}},
                {"from": "p1", "required": true, "schema": {"openAPIV3Schema": {"type": "string"}}}]})
        );
    }
}
