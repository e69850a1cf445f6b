/*!
`null`s the API server drops while decoding a custom resource
(`structuraldefaulting.PruneNonNullableNullsWithoutDefaults`): a `null` field, map value or list
item whose schema is not `nullable` and has no `default`.

Owns [`prune_nulls`]. A non-nullable `null` with a default is left for [`mod@super::default`] to
replace; a `null` list item is never removed (only fields and map values are), and a value with
no schema is not looked into.
*/

use serde_json::Value;

use crate::schema::props::Schema;

/// The schema of field `k` of an object with schema `s` (`getSchemaForField`).
fn schema_for_field<'s>(s: &'s Schema, k: &str) -> Option<&'s Schema> {
    s.properties
        .get(k)
        .map(|b| &**b)
        .or(s.additional_properties.as_deref())
}

/// Remove from `x` the non-nullable `null`s without default (see the module docs).
pub fn prune_nulls(x: &mut Value, s: &Schema) {
    match x {
        Value::Object(m) => m.retain(|k, v| match schema_for_field(s, k) {
            Some(sub) if v.is_null() => sub.is_nullable() || sub.default.is_some(),
            Some(sub) => {
                prune_nulls(v, sub);
                true
            }
            None => true,
        }),
        Value::Array(a) => {
            if let Some(items) = s.items.as_deref() {
                for v in a.iter_mut() {
                    prune_nulls(v, items);
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

    #[test]
    fn only_non_nullable_nulls_without_default_go() {
        let s = Schema::parse_crd(
            &json!({"type": "object", "properties": {
                "a": {"type": "string"}, "b": {"type": "string", "nullable": true},
                "c": {"type": "string", "default": "x"},
                "m": {"type": "object", "additionalProperties": {"type": "string"}},
                "l": {"type": "array", "items": {"type": "object", "properties": {"z": {"type": "integer"}}}}}}),
            &Path::new("s"),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let mut v = json!({"a": null, "b": null, "c": null, "unknown": null,
            "m": {"k": null}, "l": [null, {"z": null}]});
        prune_nulls(&mut v, &s);
        assert_eq!(
            v,
            json!({"b": null, "c": null, "unknown": null, "m": {}, "l": [null, {}]})
        );
    }
}
