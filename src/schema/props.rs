/*!
The typed variable schema: Cluster API's `JSONSchemaProps` (v1beta2,
`api/core/v1beta2/clusterclass_types.go`), read from the JSON a ClusterClass carries.

Owns the keyword set a variable schema may use and how each keyword decodes: `description`,
`example`, `type`, `properties`, `additionalProperties` (a schema, never a bool), `maxProperties`,
`minProperties`, `required`, `items` (one schema), `maxItems`, `minItems`, `uniqueItems`,
`format`, `maxLength`, `minLength`, `pattern`, `maximum` / `minimum` (int64 only),
`exclusiveMaximum`, `exclusiveMinimum`, `x-kubernetes-preserve-unknown-fields`, `enum`,
`default`, `x-kubernetes-validations`, `x-metadata`, `x-kubernetes-int-or-string`, `allOf`,
`oneOf`, `anyOf` and `not`.

Unknown keywords (`nullable`, `multipleOf`, `title`, `$ref`, `patternProperties`, the list/map
extensions, typos) are ignored, as Kubernetes ignores them: at the top of `openAPIV3Schema` the API
server prunes them (the CRD declares only the keywords above), and deeper down the CRD keeps them
(`x-kubernetes-preserve-unknown-fields`) but Go's JSON decoder drops them when Cluster API reads
the schema into its struct.

Cluster API's conversion to apiextensions (`convertToAPIExtensionsJSONSchemaProps`, `internal/topology/variables/schema.go`) can
report `default is not valid JSON`, `example is not valid JSON` and `enum value is not valid JSON`.
None of them can happen here: a schema read from JSON or YAML holds JSON values only. What can
happen is a keyword of the wrong JSON type (`maxLength: "3"`), which Kubernetes rejects while
decoding the object; [`Schema::parse`] reports those as field errors. A JSON `null` for `default`
or `example`, or as an `enum` entry, counts as absent, as Go's decoding of `apiextensionsv1.JSON`
leaves a nil `Raw` that the conversion then skips.

# The CRD dialect

A CustomResourceDefinition's `openAPIV3Schema` (`apiextensionsv1.JSONSchemaProps`) is the same
tree with more keywords. [`Schema::parse_crd`] reads it: everything above, plus the CRD-only
keywords in [`CrdKeywords`] (`nullable`, `additionalProperties: true|false`,
`x-kubernetes-embedded-resource`, the list and map types, `multipleOf`, and `maximum` /
`minimum` as float64). Two readings differ from the variable dialect, as apiextensions' own
decoding differs from Cluster API's: `maximum` / `minimum` are float64 (kept in
[`CrdKeywords`], the int64 fields stay empty), and a `null` enum entry is kept (the conversion
of `apiextensionsv1.JSON` turns it into a nil entry, which matches no value but is listed in the
error). A variable schema never has [`Schema::crd`] set, so nothing that reads variable schemas
changes.
*/

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::k8s::field::{BadValue, FieldError, Path};

/// One `x-kubernetes-validations` rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ValidationRule {
    /// The CEL expression.
    pub rule: String,
    /// Static failure message.
    pub message: String,
    /// CEL expression producing the failure message.
    pub message_expression: String,
    /// `FieldValueInvalid` (default), `FieldValueForbidden`, `FieldValueRequired` or
    /// `FieldValueDuplicate`; empty when unset.
    pub reason: String,
    /// Path (relative to the rule's node) the error is reported at.
    pub field_path: String,
}

/// Labels and annotations of `x-metadata` or `deprecatedV1Beta1Metadata`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VariableMetadata {
    /// Labels.
    pub labels: BTreeMap<String, String>,
    /// Annotations.
    pub annotations: BTreeMap<String, String>,
}

impl VariableMetadata {
    /// Decode `{labels: {..}, annotations: {..}}` at `path`.
    pub fn parse(v: &Value, path: &Path) -> Result<VariableMetadata, Vec<FieldError>> {
        let mut errs = Vec::new();
        let mut out = VariableMetadata::default();
        match v {
            Value::Null => {}
            Value::Object(m) => {
                out.labels = string_map(m.get("labels"), &path.child("labels"), &mut errs);
                out.annotations =
                    string_map(m.get("annotations"), &path.child("annotations"), &mut errs);
            }
            other => errs.push(type_error(path, other, "object")),
        }
        if errs.is_empty() { Ok(out) } else { Err(errs) }
    }

    /// True when no label and no annotation is set.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.annotations.is_empty()
    }
}

/// The keywords only a CRD schema has (`apiextensionsv1.JSONSchemaProps` beyond Cluster API's
/// variable schema). Boxed in [`Schema::crd`] so variable schemas stay as small as they were.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CrdKeywords {
    /// `nullable`.
    pub nullable: bool,
    /// `additionalProperties` written as a bool (`true`: any field, values unpruned below;
    /// `false`: no field besides `properties`). A schema is in [`Schema::additional_properties`].
    pub additional_properties_bool: Option<bool>,
    /// `x-kubernetes-embedded-resource`.
    pub embedded_resource: bool,
    /// `x-kubernetes-list-type` (`atomic`, `set`, `map`).
    pub list_type: Option<String>,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-map-type` (`granular`, `atomic`).
    pub map_type: Option<String>,
    /// `maximum` (float64 in a CRD).
    pub maximum: Option<f64>,
    /// `minimum` (float64 in a CRD).
    pub minimum: Option<f64>,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
}

/// Which keyword set a schema is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    /// Cluster API's variable schema.
    Variable,
    /// A CRD's `openAPIV3Schema`.
    Crd,
}

/// A variable schema node (`JSONSchemaProps`). Absent pointer fields are `None`; absent strings
/// are empty, as in Go.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Schema {
    /// `description`.
    pub description: String,
    /// `example` (`None` when absent or null).
    pub example: Option<Value>,
    /// `type` (empty when absent).
    pub type_: String,
    /// `properties`, by name.
    pub properties: BTreeMap<String, Box<Schema>>,
    /// `additionalProperties`.
    pub additional_properties: Option<Box<Schema>>,
    /// `maxProperties`.
    pub max_properties: Option<i64>,
    /// `minProperties`.
    pub min_properties: Option<i64>,
    /// `required`; `Some(vec![])` for an explicit empty list, which Go keeps apart from nil.
    pub required: Option<Vec<String>>,
    /// `items`.
    pub items: Option<Box<Schema>>,
    /// `maxItems`.
    pub max_items: Option<i64>,
    /// `minItems`.
    pub min_items: Option<i64>,
    /// `uniqueItems`.
    pub unique_items: Option<bool>,
    /// `format` (empty when absent).
    pub format: String,
    /// `maxLength`.
    pub max_length: Option<i64>,
    /// `minLength`.
    pub min_length: Option<i64>,
    /// `pattern` (empty when absent).
    pub pattern: String,
    /// `maximum`.
    pub maximum: Option<i64>,
    /// `minimum`.
    pub minimum: Option<i64>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<bool>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<bool>,
    /// `x-kubernetes-preserve-unknown-fields`.
    pub preserve_unknown_fields: Option<bool>,
    /// `enum`, without null entries.
    pub enum_: Vec<Value>,
    /// `default` (`None` when absent or null).
    pub default: Option<Value>,
    /// `x-kubernetes-validations`; `Some(vec![])` for an explicit empty list.
    pub validations: Option<Vec<ValidationRule>>,
    /// `x-metadata`.
    pub x_metadata: Option<VariableMetadata>,
    /// `x-kubernetes-int-or-string`.
    pub int_or_string: Option<bool>,
    /// `allOf`.
    pub all_of: Vec<Schema>,
    /// `oneOf`.
    pub one_of: Vec<Schema>,
    /// `anyOf`.
    pub any_of: Vec<Schema>,
    /// `not`.
    pub not: Option<Box<Schema>>,
    /// CRD-only keywords; `None` for every variable schema and for CRD nodes that use none.
    pub crd: Option<Box<CrdKeywords>>,
}

impl Schema {
    /// Decode a schema node; `path` names it in errors (e.g.
    /// `spec.variables[cpu].schema.openAPIV3Schema`). Keywords of the wrong JSON type are
    /// reported all at once.
    pub fn parse(v: &Value, path: &Path) -> Result<Schema, Vec<FieldError>> {
        let mut errs = Vec::new();
        let s = parse_node(v, path, &mut errs, Dialect::Variable);
        if errs.is_empty() { Ok(s) } else { Err(errs) }
    }

    /// Decode a CRD schema node (`openAPIV3Schema`, the fuller dialect: see the module docs).
    /// The caller bounds the depth of `v`: decoding recurses once per level.
    pub fn parse_crd(v: &Value, path: &Path) -> Result<Schema, Vec<FieldError>> {
        let mut errs = Vec::new();
        let s = parse_node(v, path, &mut errs, Dialect::Crd);
        if errs.is_empty() { Ok(s) } else { Err(errs) }
    }

    /// The CRD-only keywords, all unset for a variable schema.
    pub fn crd_keywords(&self) -> &CrdKeywords {
        static NONE: CrdKeywords = CrdKeywords {
            nullable: false,
            additional_properties_bool: None,
            embedded_resource: false,
            list_type: None,
            list_map_keys: Vec::new(),
            map_type: None,
            maximum: None,
            minimum: None,
            multiple_of: None,
        };
        self.crd.as_deref().unwrap_or(&NONE)
    }

    /// `nullable: true` (CRDs only).
    pub fn is_nullable(&self) -> bool {
        self.crd.as_ref().is_some_and(|c| c.nullable)
    }

    /// `maximum` as float64, from either dialect.
    pub fn maximum_f64(&self) -> Option<f64> {
        self.maximum
            .map(|m| m as f64)
            .or_else(|| self.crd.as_ref().and_then(|c| c.maximum))
    }

    /// `minimum` as float64, from either dialect.
    pub fn minimum_f64(&self) -> Option<f64> {
        self.minimum
            .map(|m| m as f64)
            .or_else(|| self.crd.as_ref().and_then(|c| c.minimum))
    }

    /// `x-kubernetes-int-or-string: true`.
    pub fn is_int_or_string(&self) -> bool {
        self.int_or_string == Some(true)
    }

    /// `x-kubernetes-preserve-unknown-fields: true`.
    pub fn preserves_unknown_fields(&self) -> bool {
        self.preserve_unknown_fields == Some(true)
    }

    /// The schema with every pointer bool that is `false` cleared, recursively (Cluster API's
    /// `dropFalsePtrBool`, used when comparing definitions).
    pub fn drop_false_ptr_bools(&self) -> Schema {
        fn clear(b: Option<bool>) -> Option<bool> {
            b.filter(|b| *b)
        }
        let mut s = self.clone();
        s.unique_items = clear(s.unique_items);
        s.exclusive_maximum = clear(s.exclusive_maximum);
        s.exclusive_minimum = clear(s.exclusive_minimum);
        s.preserve_unknown_fields = clear(s.preserve_unknown_fields);
        s.int_or_string = clear(s.int_or_string);
        for p in s.properties.values_mut() {
            **p = p.drop_false_ptr_bools();
        }
        for b in [&mut s.additional_properties, &mut s.items, &mut s.not]
            .into_iter()
            .flatten()
        {
            **b = b.drop_false_ptr_bools();
        }
        for list in [&mut s.all_of, &mut s.one_of, &mut s.any_of] {
            for x in list.iter_mut() {
                *x = x.drop_false_ptr_bools();
            }
        }
        s
    }
}

fn parse_node(v: &Value, path: &Path, errs: &mut Vec<FieldError>, d: Dialect) -> Schema {
    let mut s = Schema::default();
    let m = match v {
        Value::Object(m) => m,
        // A null schema (e.g. `items: null`) decodes to the zero value in Go.
        Value::Null => return s,
        other => {
            errs.push(type_error(path, other, "object"));
            return s;
        }
    };
    s.description = string(m, "description", path, errs);
    s.example = m.get("example").filter(|v| !v.is_null()).cloned();
    s.type_ = string(m, "type", path, errs);
    if let Some(props) = m.get("properties") {
        let pp = path.child("properties");
        match props {
            Value::Object(pm) => {
                for (k, pv) in pm {
                    s.properties
                        .insert(k.clone(), Box::new(parse_node(pv, &pp.key(k), errs, d)));
                }
            }
            Value::Null => {}
            other => errs.push(type_error(&pp, other, "object")),
        }
    }
    let mut crd = CrdKeywords::default();
    match (d, m.get("additionalProperties")) {
        (Dialect::Crd, Some(Value::Bool(b))) => crd.additional_properties_bool = Some(*b),
        _ => s.additional_properties = sub(m, "additionalProperties", path, errs, d),
    }
    s.max_properties = int(m, "maxProperties", path, errs);
    s.min_properties = int(m, "minProperties", path, errs);
    s.required = strings(m, "required", path, errs);
    s.items = sub(m, "items", path, errs, d);
    s.max_items = int(m, "maxItems", path, errs);
    s.min_items = int(m, "minItems", path, errs);
    s.unique_items = boolean(m, "uniqueItems", path, errs);
    s.format = string(m, "format", path, errs);
    s.max_length = int(m, "maxLength", path, errs);
    s.min_length = int(m, "minLength", path, errs);
    s.pattern = string(m, "pattern", path, errs);
    if d == Dialect::Crd {
        crd.maximum = float(m, "maximum", path, errs);
        crd.minimum = float(m, "minimum", path, errs);
        crd.multiple_of = float(m, "multipleOf", path, errs);
        crd.nullable = boolean(m, "nullable", path, errs) == Some(true);
        crd.embedded_resource =
            boolean(m, "x-kubernetes-embedded-resource", path, errs) == Some(true);
        crd.list_type = opt_string(m, "x-kubernetes-list-type", path, errs);
        crd.list_map_keys =
            strings(m, "x-kubernetes-list-map-keys", path, errs).unwrap_or_default();
        crd.map_type = opt_string(m, "x-kubernetes-map-type", path, errs);
    } else {
        s.maximum = int(m, "maximum", path, errs);
        s.minimum = int(m, "minimum", path, errs);
    }
    s.exclusive_maximum = boolean(m, "exclusiveMaximum", path, errs);
    s.exclusive_minimum = boolean(m, "exclusiveMinimum", path, errs);
    s.preserve_unknown_fields = boolean(m, "x-kubernetes-preserve-unknown-fields", path, errs);
    s.int_or_string = boolean(m, "x-kubernetes-int-or-string", path, errs);
    match m.get("enum") {
        None | Some(Value::Null) => {}
        // A CRD keeps null entries (see the module docs).
        Some(Value::Array(a)) => {
            s.enum_ = a
                .iter()
                .filter(|v| d == Dialect::Crd || !v.is_null())
                .cloned()
                .collect()
        }
        Some(other) => errs.push(type_error(&path.child("enum"), other, "array")),
    }
    s.default = m.get("default").filter(|v| !v.is_null()).cloned();
    s.validations = rules(m, path, errs);
    match m.get("x-metadata") {
        None | Some(Value::Null) => {}
        Some(x) => match VariableMetadata::parse(x, &path.child("x-metadata")) {
            Ok(md) => s.x_metadata = Some(md),
            Err(e) => errs.extend(e),
        },
    }
    s.all_of = list(m, "allOf", path, errs, d);
    s.one_of = list(m, "oneOf", path, errs, d);
    s.any_of = list(m, "anyOf", path, errs, d);
    s.not = sub(m, "not", path, errs, d);
    if crd != CrdKeywords::default() {
        s.crd = Some(Box::new(crd));
    }
    s
}

/// A decode error: the keyword holds a JSON value of the wrong type.
fn type_error(path: &Path, v: &Value, want: &str) -> FieldError {
    FieldError::type_invalid(
        path,
        BadValue::from_json_int(v),
        format!("must be of type {want}"),
    )
}

fn string(m: &Map<String, Value>, key: &str, path: &Path, errs: &mut Vec<FieldError>) -> String {
    match m.get(key) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            errs.push(type_error(&path.child(key), other, "string"));
            String::new()
        }
    }
}

fn boolean(
    m: &Map<String, Value>,
    key: &str,
    path: &Path,
    errs: &mut Vec<FieldError>,
) -> Option<bool> {
    match m.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(other) => {
            errs.push(type_error(&path.child(key), other, "boolean"));
            None
        }
    }
}

/// An int64 keyword. An integral float (`3.0`, as YAML can write it) is accepted: Kubernetes
/// reads YAML through a float64 and re-encodes it as `3`.
fn int(m: &Map<String, Value>, key: &str, path: &Path, errs: &mut Vec<FieldError>) -> Option<i64> {
    match m.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => {
            if let Some(i) = n.as_i64() {
                return Some(i);
            }
            match n.as_f64() {
                Some(f) if f.fract() == 0.0 && (-9.2e18..9.2e18).contains(&f) => Some(f as i64),
                _ => {
                    errs.push(type_error(
                        &path.child(key),
                        &Value::Number(n.clone()),
                        "int64",
                    ));
                    None
                }
            }
        }
        Some(other) => {
            errs.push(type_error(&path.child(key), other, "int64"));
            None
        }
    }
}

/// A float64 keyword (CRD `maximum`, `minimum`, `multipleOf`).
fn float(
    m: &Map<String, Value>,
    key: &str,
    path: &Path,
    errs: &mut Vec<FieldError>,
) -> Option<f64> {
    match m.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(other) => {
            errs.push(type_error(&path.child(key), other, "float64"));
            None
        }
    }
}

/// A string keyword whose absence Go keeps apart from `""` (`*string`).
fn opt_string(
    m: &Map<String, Value>,
    key: &str,
    path: &Path,
    errs: &mut Vec<FieldError>,
) -> Option<String> {
    match m.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            errs.push(type_error(&path.child(key), other, "string"));
            None
        }
    }
}

fn strings(
    m: &Map<String, Value>,
    key: &str,
    path: &Path,
    errs: &mut Vec<FieldError>,
) -> Option<Vec<String>> {
    match m.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => {
            let mut out = Vec::with_capacity(a.len());
            for (i, v) in a.iter().enumerate() {
                match v {
                    Value::String(s) => out.push(s.clone()),
                    other => errs.push(type_error(&path.child(key).index(i), other, "string")),
                }
            }
            Some(out)
        }
        Some(other) => {
            errs.push(type_error(&path.child(key), other, "array"));
            None
        }
    }
}

fn string_map(
    v: Option<&Value>,
    path: &Path,
    errs: &mut Vec<FieldError>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    match v {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (k, v) in m {
                match v {
                    Value::String(s) => {
                        out.insert(k.clone(), s.clone());
                    }
                    // A null map value decodes to "" in Go.
                    Value::Null => {
                        out.insert(k.clone(), String::new());
                    }
                    other => errs.push(type_error(&path.key(k), other, "string")),
                }
            }
        }
        Some(other) => errs.push(type_error(path, other, "object")),
    }
    out
}

fn sub(
    m: &Map<String, Value>,
    key: &str,
    path: &Path,
    errs: &mut Vec<FieldError>,
    d: Dialect,
) -> Option<Box<Schema>> {
    match m.get(key) {
        None | Some(Value::Null) => None,
        Some(v) => Some(Box::new(parse_node(v, &path.child(key), errs, d))),
    }
}

fn list(
    m: &Map<String, Value>,
    key: &str,
    path: &Path,
    errs: &mut Vec<FieldError>,
    d: Dialect,
) -> Vec<Schema> {
    match m.get(key) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, v)| parse_node(v, &path.child(key).index(i), errs, d))
            .collect(),
        Some(other) => {
            errs.push(type_error(&path.child(key), other, "array"));
            Vec::new()
        }
    }
}

fn rules(
    m: &Map<String, Value>,
    path: &Path,
    errs: &mut Vec<FieldError>,
) -> Option<Vec<ValidationRule>> {
    let key = "x-kubernetes-validations";
    let a = match m.get(key) {
        None | Some(Value::Null) => return None,
        Some(Value::Array(a)) => a,
        Some(other) => {
            errs.push(type_error(&path.child(key), other, "array"));
            return None;
        }
    };
    let mut out = Vec::with_capacity(a.len());
    for (i, v) in a.iter().enumerate() {
        let p = path.child(key).index(i);
        match v {
            Value::Object(rm) => out.push(ValidationRule {
                rule: string(rm, "rule", &p, errs),
                message: string(rm, "message", &p, errs),
                message_expression: string(rm, "messageExpression", &p, errs),
                reason: string(rm, "reason", &p, errs),
                field_path: string(rm, "fieldPath", &p, errs),
            }),
            Value::Null => out.push(ValidationRule::default()),
            other => errs.push(type_error(&p, other, "object")),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root() -> Path {
        Path::new("spec")
            .child("variables")
            .key("v")
            .child("schema")
            .child("openAPIV3Schema")
    }

    #[test]
    fn parses_every_keyword() {
        let v = json!({
            "description": "d", "example": {"a": 1}, "type": "object",
            "properties": {"a": {"type": "integer", "maximum": 10, "minimum": 1,
                "exclusiveMaximum": true, "exclusiveMinimum": false}},
            "additionalProperties": null,
            "maxProperties": 3, "minProperties": 1, "required": ["a"],
            "x-kubernetes-preserve-unknown-fields": true,
            "enum": [null, {"a": 1}], "default": {"a": 2},
            "x-kubernetes-validations": [{"rule": "self.a > 0", "message": "m",
                "messageExpression": "'x'", "reason": "FieldValueForbidden", "fieldPath": ".a"}],
            "x-metadata": {"labels": {"l": "v"}, "annotations": {"a": "b"}},
            "allOf": [{"required": []}], "oneOf": [{}], "anyOf": [{}, {}], "not": {"maxProperties": 0},
            "nullable": true, "title": "ignored"
        });
        let s = Schema::parse(&v, &root()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(s.type_, "object");
        assert_eq!(s.example, Some(json!({"a": 1})));
        assert_eq!(s.properties["a"].maximum, Some(10));
        assert_eq!(s.properties["a"].exclusive_minimum, Some(false));
        assert_eq!(s.required, Some(vec!["a".to_string()]));
        assert_eq!(s.enum_, vec![json!({"a": 1})]);
        assert_eq!(s.all_of[0].required, Some(vec![]));
        assert_eq!(s.any_of.len(), 2);
        assert_eq!(s.not.as_ref().and_then(|n| n.max_properties), Some(0));
        assert_eq!(
            s.validations.as_ref().map(|r| r[0].reason.as_str()),
            Some("FieldValueForbidden")
        );
        assert_eq!(
            s.x_metadata.as_ref().map(|m| m.labels["l"].as_str()),
            Some("v")
        );
        assert!(s.preserves_unknown_fields());
        assert!(s.additional_properties.is_none());
    }

    #[test]
    fn null_default_and_example_are_absent() {
        let s = Schema::parse(
            &json!({"type": "string", "default": null, "example": null}),
            &root(),
        )
        .unwrap_or_default();
        assert_eq!(s.default, None);
        assert_eq!(s.example, None);
    }

    #[test]
    fn integral_floats_are_int64() {
        let s = Schema::parse(&json!({"maximum": 3.0}), &root()).unwrap_or_default();
        assert_eq!(s.maximum, Some(3));
    }

    #[test]
    fn wrong_json_types_are_reported() {
        let errs = Schema::parse(
            &json!({"type": 1, "maxLength": "3", "minimum": 1.5,
                    "properties": {"a": {"uniqueItems": "yes"}}}),
            &root(),
        )
        .err()
        .unwrap_or_default();
        let msgs: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(
            msgs,
            vec![
                "spec.variables[v].schema.openAPIV3Schema.type: Invalid value: 1: must be of type string",
                "spec.variables[v].schema.openAPIV3Schema.properties[a].uniqueItems: Invalid value: \"yes\": must be of type boolean",
                "spec.variables[v].schema.openAPIV3Schema.maxLength: Invalid value: \"3\": must be of type int64",
                "spec.variables[v].schema.openAPIV3Schema.minimum: Invalid value: 1.5: must be of type int64",
            ]
        );
    }

    #[test]
    fn crd_dialect_reads_its_own_keywords() {
        let v = json!({"type": "object", "nullable": true, "additionalProperties": false,
            "x-kubernetes-embedded-resource": true, "x-kubernetes-map-type": "atomic",
            "properties": {"l": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"], "items": {"type": "object"}},
                "n": {"type": "number", "maximum": 1.5, "minimum": -2, "multipleOf": 0.5,
                      "enum": [null, 1]}}});
        let s = Schema::parse_crd(&v, &root()).unwrap_or_else(|e| panic!("{e:?}"));
        let k = s.crd_keywords();
        assert!(k.nullable && k.embedded_resource);
        assert_eq!(k.additional_properties_bool, Some(false));
        assert_eq!(k.map_type.as_deref(), Some("atomic"));
        assert!(s.additional_properties.is_none());
        let l = s.properties["l"].crd_keywords();
        assert_eq!(l.list_type.as_deref(), Some("map"));
        assert_eq!(l.list_map_keys, vec!["name".to_string()]);
        let n = &s.properties["n"];
        assert_eq!(
            (n.maximum, n.maximum_f64(), n.minimum_f64()),
            (None, Some(1.5), Some(-2.0))
        );
        assert_eq!(n.crd_keywords().multiple_of, Some(0.5));
        assert_eq!(n.enum_, vec![Value::Null, json!(1)]);
        // The same JSON as a variable schema: CRD keywords ignored, bool additionalProperties
        // and a fractional maximum refused, null enum entries dropped.
        let errs = Schema::parse(&v, &root()).err().unwrap_or_default();
        assert_eq!(errs.len(), 2, "{errs:?}");
        let plain = Schema::parse(&json!({"enum": [null, 1], "nullable": true}), &root())
            .unwrap_or_default();
        assert!(plain.crd.is_none() && !plain.is_nullable());
        assert_eq!(plain.enum_, vec![json!(1)]);
    }

    #[test]
    fn drop_false_ptr_bools_is_recursive() {
        let a = Schema::parse(
            &json!({"type": "array", "uniqueItems": false, "items": {"type": "integer", "exclusiveMaximum": false}}),
            &root(),
        )
        .unwrap_or_default();
        let b = Schema::parse(
            &json!({"type": "array", "items": {"type": "integer"}}),
            &root(),
        )
        .unwrap_or_default();
        assert_ne!(a, b);
        assert_eq!(a.drop_false_ptr_bools(), b.drop_false_ptr_bools());
    }
}
