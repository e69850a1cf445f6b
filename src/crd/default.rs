/*!
Structural defaulting of a custom resource (`structuraldefaulting.Default`), which the API server
runs right after decoding (and pruning) a request's object.

Owns [`default()`]: each property of an object that is absent, or `null` while its schema is not
`nullable`, gets a copy of its schema's `default`; then defaulting goes on into every field,
map value (a non-nullable `null` takes the additionalProperties' default, if any) and list item
(likewise with the items' default). A default is applied as written in the CRD: the API server
validated it when the CRD was written (pruned, and valid against its schema), so it is not
checked again here. Defaults under a `nullable` parent that is `null` are not applied: defaulting
only descends into objects and lists.
*/

use serde_json::Value;

use super::structural::Structural;
use crate::schema::props::Schema;

/// Apply the defaults of `s` to `obj` in place (see the module docs).
pub fn default(obj: &mut Value, s: &Structural) {
    default_node(obj, &s.schema);
}

/// A non-nullable `null` (`isNonNullableNull`).
fn non_nullable_null(x: &Value, s: &Schema) -> bool {
    x.is_null() && !s.is_nullable()
}

/// `Default(x, s)`.
pub(crate) fn default_node(x: &mut Value, s: &Schema) {
    match x {
        Value::Object(m) => {
            for (k, prop) in &s.properties {
                let Some(d) = &prop.default else {
                    continue;
                };
                if m.get(k).is_none_or(|v| non_nullable_null(v, prop)) {
                    m.insert(k.clone(), d.clone());
                }
            }
            let ap = s.additional_properties.as_deref();
            for (k, v) in m.iter_mut() {
                if let Some(prop) = s.properties.get(k) {
                    default_node(v, prop);
                } else if let Some(ap) = ap {
                    if non_nullable_null(v, ap) {
                        *v = ap.default.clone().unwrap_or(Value::Null);
                    }
                    default_node(v, ap);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = s.items.as_deref() {
                for v in a.iter_mut() {
                    if non_nullable_null(v, items) {
                        *v = items.default.clone().unwrap_or(Value::Null);
                    }
                    default_node(v, items);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k8s::field::Path;
    use serde_json::json;

    fn schema(v: Value) -> Schema {
        Schema::parse_crd(&v, &Path::new("s")).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn defaults_fill_absent_and_non_nullable_nulls() {
        let s = schema(json!({"type": "object", "properties": {
            "a": {"type": "integer", "default": 1},
            "b": {"type": "string", "nullable": true, "default": "x"},
            "parent": {"type": "object", "nullable": true, "properties": {
                "child": {"type": "string", "default": "c"}}},
            "m": {"type": "object", "additionalProperties": {"type": "object", "default": {},
                "properties": {"q": {"type": "integer", "default": 7}}}},
            "l": {"type": "array", "items": {"type": "object", "default": {"z": 0},
                "properties": {"y": {"type": "boolean", "default": true}}}}}}));
        let mut v = json!({"a": null, "b": null, "parent": null, "m": {"k": null, "n": {}},
            "l": [null, {}]});
        default_node(&mut v, &s);
        assert_eq!(
            v,
            json!({"a": 1, "b": null, "parent": null, "m": {"k": {"q": 7}, "n": {"q": 7}},
                "l": [{"z": 0, "y": true}, {"y": true}]})
        );
        let mut v = json!({"parent": {}});
        default_node(&mut v, &s);
        assert_eq!(v, json!({"a": 1, "b": "x", "parent": {"child": "c"}}));
    }
}
