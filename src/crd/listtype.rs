/*!
The uniqueness `x-kubernetes-list-type` promises (`listtype.ValidateListSetsAndMaps`): a `set`
list holds no value twice, a `map` list no two items with the same map keys, and a `map` list's
items are objects.

Owns [`validate_lists`]. Values compare as Go compares them there: scalars by Go equality (an
int64 `1` and a float64 `1.0` differ), objects and lists by their JSON encoding (where `1` and
`1.0` are the same). Only the second occurrence of a value is reported, once.
*/

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::structural::Structural;
use crate::k8s::field::{BadValue, FieldError, Path};
use crate::schema::props::Schema;

/// The list-type errors of `obj` (see the module docs).
pub fn validate_lists(obj: &Value, s: &Structural) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Value::Object(m) = obj {
        object(&Path::root(), &s.schema, m, &mut errs);
    }
    errs
}

/// `ValidateListSetsAndMaps` on an object.
fn object(path: &Path, s: &Schema, m: &Map<String, Value>, errs: &mut Vec<FieldError>) {
    if let Some(ap) = s.additional_properties.as_deref() {
        for (k, v) in m {
            value(&path.key(k), ap, v, errs);
        }
    }
    for (k, v) in m {
        if let Some(p) = s.properties.get(k) {
            value(&path.child(k), p, v, errs);
        }
    }
}

fn value(path: &Path, s: &Schema, v: &Value, errs: &mut Vec<FieldError>) {
    match v {
        Value::Array(a) => array(path, s, a, errs),
        Value::Object(m) => object(path, s, m, errs),
        _ => {}
    }
}

fn array(path: &Path, s: &Schema, a: &[Value], errs: &mut Vec<FieldError>) {
    let k = s.crd_keywords();
    match k.list_type.as_deref() {
        Some("set") => {
            for i in non_unique(a.iter()) {
                errs.push(FieldError::duplicate(
                    &path.index(i),
                    BadValue::from_json_int(&a[i]),
                ));
            }
        }
        Some("map") => errs.extend(map_list(path, &k.list_map_keys, a)),
        _ => {}
    }
    if let Some(items) = s.items.as_deref() {
        for (i, v) in a.iter().enumerate() {
            value(&path.index(i), items, v, errs);
        }
    }
}

/// A value as `validateListSet` tells values apart.
#[derive(PartialEq, Eq, Hash)]
enum Key {
    /// A compound value's JSON encoding.
    Json(String),
    /// A scalar: its JSON encoding and whether it is an int64 (Go equality keeps them apart).
    Scalar(String, bool),
    /// A map-list item without the key (`unspecifiedKeyValue`).
    Unspecified,
}

fn key_of(v: &Value) -> Key {
    match v {
        Value::Object(_) | Value::Array(_) => Key::Json(crate::go::json::marshal(v)),
        Value::Number(n) => Key::Scalar(crate::go::json::marshal(v), n.as_i64().is_some()),
        other => Key::Scalar(crate::go::json::marshal(other), false),
    }
}

/// `validateListSet`: the index of each value's second occurrence.
fn non_unique<'a>(values: impl Iterator<Item = &'a Value>) -> Vec<usize> {
    non_unique_keys(values.map(key_of))
}

fn non_unique_keys(keys: impl Iterator<Item = Key>) -> Vec<usize> {
    let mut seen: HashMap<Key, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, k) in keys.enumerate() {
        let times = seen.entry(k).or_insert(0);
        *times += 1;
        if *times == 2 {
            out.push(i);
        }
    }
    out
}

/// `validateListMap`.
fn map_list(path: &Path, keys: &[String], a: &[Value]) -> Vec<FieldError> {
    if let Some((i, x)) = a
        .iter()
        .enumerate()
        .find(|(_, x)| !x.is_null() && !x.is_object())
    {
        return vec![FieldError::invalid(
            &path.index(i),
            BadValue::from_json_int(x),
            "must be an object for an array of list-type map",
        )];
    }
    if a.len() <= 1 {
        return Vec::new();
    }
    if let [key] = keys {
        let values: Vec<Option<&Value>> = a.iter().map(|x| x.get(key)).collect();
        let dups = non_unique_keys(values.iter().map(|v| v.map_or(Key::Unspecified, key_of)));
        return dups
            .into_iter()
            .map(|i| {
                let mut m = Map::new();
                if let Some(v) = values[i] {
                    m.insert(key.clone(), v.clone());
                }
                FieldError::duplicate(&path.index(i), BadValue::Json(Value::Object(m)))
            })
            .collect();
    }
    let key_maps: Vec<Value> = a
        .iter()
        .map(|x| {
            let mut m = Map::new();
            for k in keys {
                if let Some(v) = x.get(k) {
                    m.insert(k.clone(), v.clone());
                }
            }
            Value::Object(m)
        })
        .collect();
    non_unique(key_maps.iter())
        .into_iter()
        .map(|i| FieldError::duplicate(&path.index(i), BadValue::Json(key_maps[i].clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errs(schema: Value, v: Value) -> Vec<String> {
        let s = Structural::compile(
            super::super::Gvk::new("g", "v1", "K"),
            &schema,
            false,
            &Path::new("s"),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        validate_lists(&v, &s)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn sets_and_maps_are_unique() {
        let schema = json!({"type": "object", "properties": {
            "s": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "number"}},
            "m": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object"}},
            "mm": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a", "b"],
                "items": {"type": "object"}}}});
        assert_eq!(
            errs(
                schema.clone(),
                json!({"s": [1, 1.0, 1, 1, 2.5, 2.5],
                "m": [{"name": "x"}, {"name": "x", "v": 1}, {}, {}],
                "mm": [{"a": 1, "b": 2}, {"b": 2, "a": 1, "c": 3}]})
            ),
            vec![
                "m[1]: Duplicate value: {\"name\":\"x\"}",
                "m[3]: Duplicate value: {}",
                "mm[1]: Duplicate value: {\"a\":1,\"b\":2}",
                "s[2]: Duplicate value: 1",
                "s[5]: Duplicate value: 2.5",
            ]
        );
        assert_eq!(
            errs(schema, json!({"m": [{"name": "x"}, "y"]})),
            vec!["m[1]: Invalid value: \"y\": must be an object for an array of list-type map"]
        );
    }
}
