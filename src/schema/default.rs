/*!
Defaults of a variable schema: applying them to a value (structural defaulting) and checking
them when a ClusterClass is admitted (`ValidateDefaults`).

Owns [`apply`], `structuraldefaulting.Default` on Cluster API's `{<name>: value}` wrapper: a
missing or `null` property gets its schema's `default`, then defaulting recurses through
`properties`, `items` and `additionalProperties` (a `null` array item or map value gets the
items' / additionalProperties' default, or stays `null`); a missing or `null` variable gets the
top-level default.

And owns [`validate_defaults`], `ValidateDefaults(path, S, isResourceRoot=false,
requirePrunedDefaults=true)`: walking `properties` and `items` only (defaults under
`additionalProperties` are not checked), each `default` must survive pruning unchanged
(`must not have unknown fields`), must pass OpenAPI validation against its own node in the
structural view ([`super::value::Mode::Structural`]: formats as written, int-or-string without a
type), and then its node's CEL rules, first with `oldSelf` = the default and, if that passes,
without an old value. The CEL runtime budget is passed whole to every call (the CEL API reports
no remaining cost).
*/

use serde_json::Value;

use super::cel;
use super::props::Schema;
use super::prune;
use super::value::validate_structural;
use crate::k8s::field::{BadValue, FieldError, Path};

/// Default `x` against `s` (`structuraldefaulting.Default`).
fn default_node(x: &mut Value, s: &Schema) {
    match x {
        Value::Object(m) => {
            for (k, prop) in &s.properties {
                if let Some(d) = &prop.default
                    && m.get(k).is_none_or(Value::is_null)
                {
                    m.insert(k.clone(), d.clone());
                }
            }
            for (k, v) in m.iter_mut() {
                if let Some(prop) = s.properties.get(k) {
                    default_node(v, prop);
                } else if let Some(ap) = &s.additional_properties {
                    if v.is_null() {
                        *v = ap.default.clone().unwrap_or(Value::Null);
                    }
                    default_node(v, ap);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = &s.items {
                for v in a.iter_mut() {
                    if v.is_null() {
                        *v = items.default.clone().unwrap_or(Value::Null);
                    }
                    default_node(v, items);
                }
            }
        }
        _ => {}
    }
}

/// The defaulted value of a variable with schema `s`; `None` (absent) and `null` both take the
/// top-level default when there is one.
pub fn apply(value: Option<Value>, s: &Schema) -> Value {
    let mut v = value.unwrap_or(Value::Null);
    if v.is_null()
        && let Some(d) = &s.default
    {
        v = d.clone();
    }
    default_node(&mut v, s);
    v
}

/// `ValidateDefaults` for a variable schema `s` (raw JSON `raw`, for CEL) at `path`
/// (`...schema.openAPIV3Schema`).
pub fn validate_defaults(s: &Schema, raw: &Value, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    walk(s, raw, path, &mut errs);
    errs
}

fn walk(s: &Schema, raw: &Value, path: &Path, errs: &mut Vec<FieldError>) {
    if let Some(d) = &s.default {
        let dpath = path.child("default");
        let mut pruned = d.clone();
        prune::prune(&mut pruned, s);
        if pruned != *d {
            errs.push(FieldError::invalid(
                &dpath,
                BadValue::from_json_int(d),
                "must not have unknown fields",
            ));
        }
        let schema_errs = validate_structural(&dpath, d, s);
        if schema_errs.is_empty() {
            let budget = super::cel::RUNTIME_CEL_COST_BUDGET;
            let with_old = cel::validate(raw, d, Some(d), &dpath, budget);
            let ok = with_old.is_empty();
            errs.extend(with_old);
            if ok {
                errs.extend(cel::validate(raw, d, None, &dpath, budget));
            }
        } else {
            errs.extend(schema_errs);
        }
    }
    if let Some(items) = &s.items {
        walk(
            items,
            raw.get("items").unwrap_or(&Value::Null),
            &path.child("items"),
            errs,
        );
    }
    for (k, p) in &s.properties {
        let r = raw
            .get("properties")
            .and_then(|m| m.get(k))
            .unwrap_or(&Value::Null);
        walk(p, r, &path.child("properties").key(k), errs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(v: &Value) -> Schema {
        Schema::parse(v, &Path::new("s")).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn defaults_fill_missing_and_null() {
        let s = schema(&json!({"type": "object", "default": {},
        "properties": {
            "a": {"type": "integer", "default": 1},
            "b": {"type": "object", "properties": {"c": {"type": "string", "default": "x"}}},
            "list": {"type": "array", "items": {"type": "object", "default": {"z": 0},
                     "properties": {"y": {"type": "boolean", "default": true}}}},
            "m": {"type": "object", "additionalProperties": {"type": "object",
                  "properties": {"q": {"type": "integer", "default": 7}}}}
        }}));
        assert_eq!(apply(None, &s), json!({"a": 1}));
        assert_eq!(apply(Some(Value::Null), &s), json!({"a": 1}));
        assert_eq!(
            apply(
                Some(json!({"a": null, "b": {}, "list": [null, {}], "m": {"k": {}, "n": null}})),
                &s
            ),
            json!({"a": 1, "b": {"c": "x"}, "list": [{"z": 0, "y": true}, {"y": true}],
                   "m": {"k": {"q": 7}, "n": null}})
        );
        let plain = schema(&json!({"type": "string"}));
        assert_eq!(apply(None, &plain), Value::Null);
        assert_eq!(apply(Some(json!("v")), &plain), json!("v"));
    }

    #[test]
    fn defaults_are_validated() {
        let raw = json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"x": {"type": "string"}}, "default": {"x": "1", "y": 2}},
            "b": {"type": "integer", "default": "no", "maximum": 3},
            "c": {"type": "string", "format": "not-a-format", "default": "ok"},
            "d": {"type": "array", "items": {"type": "integer", "default": 5, "maximum": 1}},
            "e": {"type": "object", "additionalProperties": {"type": "integer", "default": "unchecked"}},
            "f": {"x-kubernetes-int-or-string": true, "default": true}
        }});
        let p = Path::new("spec")
            .child("variables")
            .key("v")
            .child("schema")
            .child("openAPIV3Schema");
        let got: Vec<String> = validate_defaults(&schema(&raw), &raw, &p)
            .iter()
            .map(ToString::to_string)
            .collect();
        let pre = "spec.variables[v].schema.openAPIV3Schema.properties";
        assert_eq!(
            got,
            vec![
                format!(
                    "{pre}[a].default: Invalid value: {{\"x\":\"1\",\"y\":2}}: must not have unknown fields"
                ),
                format!(
                    "{pre}[b].default: Invalid value: \"string\":  in body must be of type integer: \"string\""
                ),
                format!(
                    "{pre}[d].items.default: Invalid value: 5:  in body should be less than or equal to 1"
                ),
            ]
        );
    }
}
