/*!
Pruning: dropping the fields of a value its schema does not specify
(`apiextensions-apiserver/pkg/apiserver/schema/pruning`), with the paths of what was dropped.

Owns [`prune`] (used to check that defaults have no unknown fields) and [`unknown_fields`]
(Cluster API's unknown-field check of a variable value). A field is known when the schema lists
it under `properties`, or when the schema has `additionalProperties`; below
`x-kubernetes-preserve-unknown-fields: true` nothing is dropped, but listed properties are still
pruned inside. Matching is case-sensitive. Cluster API prunes `{"variableValue": value}` against
the wrapped schema and strips the `variableValue.` prefix from the sorted paths, so a field under
an array at the root keeps it (`variableValue[0].x`), as in Cluster API.
*/

use serde_json::Value;

use super::props::Schema;

#[derive(Default)]
struct Tracker {
    parent: Vec<String>,
    unknown: Option<Vec<String>>,
}

impl Tracker {
    fn append_key(&mut self, k: &str) {
        if self.unknown.is_none() {
            return;
        }
        if !self.parent.is_empty() {
            self.parent.push(".".into());
        }
        self.parent.push(k.to_string());
    }

    fn append_index(&mut self, i: usize) {
        if self.unknown.is_none() {
            return;
        }
        self.parent
            .extend(["[".to_string(), i.to_string(), "]".to_string()]);
    }

    fn record(&mut self, k: &str) {
        if self.unknown.is_none() {
            return;
        }
        let l = self.parent.len();
        self.append_key(k);
        let p = self.parent.concat();
        if let Some(u) = self.unknown.as_mut() {
            u.push(p);
        }
        self.parent.truncate(l);
    }
}

const META_FIELDS: &[&str] = &["apiVersion", "kind", "metadata"];

fn prune_node(x: &mut Value, s: Option<&Schema>, t: &mut Tracker) {
    if let Some(s) = s.filter(|s| s.preserves_unknown_fields()) {
        skip_prune(x, s, t);
        return;
    }
    let l = t.parent.len();
    match x {
        Value::Object(m) => {
            let Some(s) = s else {
                let keys: Vec<String> = m.keys().cloned().collect();
                for k in &keys {
                    t.record(k);
                }
                m.clear();
                return;
            };
            let keys: Vec<String> = m.keys().cloned().collect();
            for k in keys {
                let sub = s
                    .properties
                    .get(&k)
                    .map(|b| &**b)
                    .or(s.additional_properties.as_deref());
                match sub {
                    Some(sub) => {
                        t.append_key(&k);
                        if let Some(v) = m.get_mut(&k) {
                            prune_node(v, Some(sub), t);
                        }
                        t.parent.truncate(l);
                    }
                    None => {
                        if !META_FIELDS.contains(&k.as_str()) || !t.parent.is_empty() {
                            t.record(&k);
                        }
                        m.remove(&k);
                    }
                }
            }
        }
        Value::Array(a) => {
            let items = s.and_then(|s| s.items.as_deref());
            for (i, v) in a.iter_mut().enumerate() {
                t.append_index(i);
                prune_node(v, items, t);
                t.parent.truncate(l);
            }
        }
        _ => {}
    }
}

fn skip_prune(x: &mut Value, s: &Schema, t: &mut Tracker) {
    let l = t.parent.len();
    match x {
        Value::Object(m) => {
            for (k, v) in m.iter_mut() {
                let sub = s
                    .properties
                    .get(k)
                    .map(|b| &**b)
                    .or(s.additional_properties.as_deref());
                if let Some(sub) = sub {
                    t.append_key(k);
                    prune_node(v, Some(sub), t);
                    t.parent.truncate(l);
                }
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter_mut().enumerate() {
                t.append_index(i);
                if let Some(items) = &s.items {
                    skip_prune(v, items, t);
                }
                t.parent.truncate(l);
            }
        }
        _ => {}
    }
}

/// `pruning.Prune(x, s, false)`: remove every field `s` does not specify.
pub fn prune(x: &mut Value, s: &Schema) {
    prune_node(x, Some(s), &mut Tracker::default());
}

/// The fields of a variable value its schema does not specify, as Cluster API reports them
/// (sorted, `variableValue.` prefix stripped).
pub fn unknown_fields(value: &Value, s: &Schema) -> Vec<String> {
    let mut t = Tracker {
        parent: Vec::new(),
        unknown: Some(Vec::new()),
    };
    let mut wrapped = value.clone();
    // The wrapper schema lists `variableValue`, so the walk starts below it.
    t.append_key("variableValue");
    prune_node(&mut wrapped, Some(s), &mut t);
    let mut paths = t.unknown.unwrap_or_default();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            p.strip_prefix("variableValue.")
                .map_or(p.clone(), str::to_string)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k8s::field::Path;
    use serde_json::json;

    fn schema(v: Value) -> Schema {
        Schema::parse(&v, &Path::new("s")).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn unknown_fields_with_paths() {
        let s = schema(json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string"}}},
            "list": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}}},
            "m": {"type": "object", "additionalProperties": {"type": "object", "properties": {"y": {}}}},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                     "properties": {"typed": {"type": "object"}}}
        }}));
        let v = json!({"a": {"b": "x", "c": 1}, "A": 1, "list": [{"x": "1", "z": 2}],
            "m": {"k": {"y": 1, "w": 2}}, "free": {"anything": {"q": 1}, "typed": {"r": 1}},
            "metadata": {}});
        assert_eq!(
            unknown_fields(&v, &s),
            vec!["A", "a.c", "free.typed.r", "list[0].z", "m.k.w", "metadata"]
        );
        // Under an array at the root the prefix stays, as in Cluster API.
        let s = schema(json!({"type": "array", "items": {"type": "object"}}));
        assert_eq!(
            unknown_fields(&json!([{"a": 1}]), &s),
            vec!["variableValue[0].a"]
        );
        assert!(unknown_fields(&json!("x"), &schema(json!({"type": "string"}))).is_empty());
    }

    #[test]
    fn prune_in_place() {
        let s = schema(json!({"type": "object", "properties": {"a": {"type": "integer"}}}));
        let mut v = json!({"a": 1, "b": 2, "kind": "x"});
        prune(&mut v, &s);
        assert_eq!(v, json!({"a": 1}));
    }
}
