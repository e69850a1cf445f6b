/*!
Accessors on JSON values (`serde_json::Value`) that every stage needs: reading a field of
`metadata` and setting a nested field, creating objects on the way.

The bottom of the pipeline: knows nothing of Kubernetes kinds or of Cluster API; depends on
nothing in the crate. Content hashes are in [`hash`].
*/

pub mod hash;

use serde_json::{Map, Value};

/// `metadata.<field>` as a string, `""` when absent. (Not `Value::pointer`: this is on the hot
/// path of sorting and printing, and pointer parsing allocates.)
pub fn metadata_str<'v>(v: &'v Value, field: &str) -> &'v str {
    v.get("metadata")
        .and_then(|m| m.get(field))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// Set `value` at the path `keys` (creating objects on the way, replacing whatever is not an
/// object), like `unstructured.SetNestedField`.
pub fn set_path(root: &mut Value, keys: &[&str], value: Value) {
    if !root.is_object() {
        *root = Value::Object(Map::new());
    }
    let Value::Object(mut map) = std::mem::take(root) else {
        return;
    };
    set_in(&mut map, keys, value);
    *root = Value::Object(map);
}

fn set_in(map: &mut Map<String, Value>, keys: &[&str], value: Value) {
    match keys {
        [] => {}
        [last] => {
            map.insert((*last).to_string(), value);
        }
        [first, rest @ ..] => {
            let entry = map
                .entry((*first).to_string())
                .and_modify(|v| {
                    if !v.is_object() {
                        *v = Value::Object(Map::new());
                    }
                })
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = entry {
                set_in(m, rest, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn set_path_creates_and_replaces() {
        let mut v = json!({"a": 1});
        set_path(&mut v, &["a", "b"], json!(2));
        set_path(&mut v, &["c"], json!("x"));
        assert_eq!(v, json!({"a": {"b": 2}, "c": "x"}));
        let mut s = json!("scalar");
        set_path(&mut s, &["k"], json!(true));
        assert_eq!(s, json!({"k": true}));
    }

    #[test]
    fn metadata_fields() {
        let v = json!({"metadata": {"name": "n"}});
        assert_eq!(metadata_str(&v, "name"), "n");
        assert_eq!(metadata_str(&v, "namespace"), "");
        assert_eq!(metadata_str(&json!(1), "name"), "");
    }
}
