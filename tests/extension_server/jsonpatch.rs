/*!
The JSON Patch (RFC 6902) between an original and a mutated template, computed the way Cluster
API's `WalkTemplates` does it with `gomodules.xyz/jsonpatch/v2` (`CreatePatch`, v2.5.0):

- objects: an `add` for every key only in the new object, a recursive diff for keys in both,
  then a `remove` for every key only in the old one;
- a value whose JSON type changed is `replace`d whole (an old `null` gets an `add`);
- arrays of "simple" elements (strings, numbers, booleans, or objects whose values are all simple —
  as upstream decides it from the first object) are compared by edit distance: appending `x, y` to
  `[a]` yields `add /1 y` then `add /1 x` (each inserted before the previous one), exactly as the
  upstream backtrace emits them;
- other arrays: `remove`s of the surplus old elements (last first), `add`s of the surplus new ones,
  then a recursive diff index by index.

Differences: upstream walks Go maps in random order, this walks keys sorted so the output is
deterministic; and the documents diffed here are the request's object and the mutated JSON, not a
Go typed-struct round trip, so no artifacts such as `creationTimestamp: null` or empty structs show
up as changes.
*/

// Shared by the test binary and the example; each uses a subset.
#![allow(dead_code)]

use serde_json::{Map, Value, json};

/// One JSON Patch operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    pub op: &'static str,
    pub path: String,
    pub value: Value,
}

impl Op {
    /// The wire form: `value` is left out of a `remove` only.
    pub fn to_json(&self) -> Value {
        if self.op == "remove" && self.value.is_null() {
            json!({"op": self.op, "path": self.path})
        } else {
            json!({"op": self.op, "path": self.path, "value": self.value})
        }
    }
}

/// The operations turning `a` into `b`. Both documents are JSON objects in upstream's use; other
/// values are treated as an object diff against nothing.
pub fn create_patch(a: &Value, b: &Value) -> Vec<Op> {
    let empty = Map::new();
    let a = a.as_object().unwrap_or(&empty);
    let b = b.as_object().unwrap_or(&empty);
    let mut ops = Vec::new();
    diff_objects(a, b, "", &mut ops);
    ops
}

/// The patch as JSON text (`[]` when nothing changed).
pub fn patch_bytes(ops: &[Op]) -> Vec<u8> {
    Value::Array(ops.iter().map(Op::to_json).collect())
        .to_string()
        .into_bytes()
}

fn make_path(base: &str, part: &str) -> String {
    let key = part.replace('~', "~0").replace('/', "~1");
    if base.ends_with('/') {
        format!("{base}{key}")
    } else {
        format!("{base}/{key}")
    }
}

fn op(op: &'static str, path: String, value: Value) -> Op {
    Op { op, path, value }
}

fn diff_objects(a: &Map<String, Value>, b: &Map<String, Value>, path: &str, ops: &mut Vec<Op>) {
    for (key, bv) in b {
        let p = make_path(path, key);
        match a.get(key) {
            None => ops.push(op("add", p, bv.clone())),
            Some(av) => handle_values(av, bv, &p, ops),
        }
    }
    for key in a.keys() {
        if !b.contains_key(key) {
            ops.push(op("remove", make_path(path, key), Value::Null));
        }
    }
}

/// The JSON type, as Go's decoded `interface{}` distinguishes them.
fn kind(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    }
}

/// Equality of decoded JSON, numbers compared as Go's float64.
fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| deep_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, xv)| y.get(k).is_some_and(|yv| deep_equal(xv, yv)))
        }
        _ => a == b,
    }
}

fn handle_values(av: &Value, bv: &Value, p: &str, ops: &mut Vec<Op>) {
    match (av, bv) {
        (Value::Null, Value::Null) => {}
        (Value::Null, _) => ops.push(op("add", p.to_string(), bv.clone())),
        _ if kind(av) != kind(bv) => ops.push(op("replace", p.to_string(), bv.clone())),
        (Value::Object(a), Value::Object(b)) => diff_objects(a, b, p, ops),
        (Value::Array(a), Value::Array(b)) => {
            if is_simple_array(a) && is_simple_array(b) {
                ops.extend(compare_edit_distance(a, b, p));
            } else {
                let n = a.len().min(b.len());
                for i in (n..a.len()).rev() {
                    ops.push(op("remove", make_path(p, &i.to_string()), Value::Null));
                }
                for (i, item) in b.iter().enumerate().skip(n) {
                    ops.push(op("add", make_path(p, &i.to_string()), item.clone()));
                }
                for i in 0..n {
                    handle_values(&a[i], &b[i], &make_path(p, &i.to_string()), ops);
                }
            }
        }
        _ => {
            if !deep_equal(av, bv) {
                ops.push(op("replace", p.to_string(), bv.clone()));
            }
        }
    }
}

fn is_basic(v: &Value) -> bool {
    matches!(v, Value::Bool(_) | Value::Number(_) | Value::String(_))
}

/// Upstream's test: basic elements pass; the first object element decides for the whole array
/// (all its values basic or null); anything else fails.
fn is_simple_array(a: &[Value]) -> bool {
    for v in a {
        match v {
            _ if is_basic(v) => {}
            Value::Object(m) => return m.values().all(|x| x.is_null() || is_basic(x)),
            _ => return false,
        }
    }
    true
}

/// Wagner–Fischer edit distance between two simple arrays, then a backtrace from the end that
/// emits each step's operation before those of the steps nearer the start.
fn compare_edit_distance(s: &[Value], t: &[Value], p: &str) -> Vec<Op> {
    let (m, n) = (s.len(), t.len());
    let mut d = vec![vec![0usize; n + 1]; m + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for j in 1..=n {
        for i in 1..=m {
            d[i][j] = if deep_equal(&s[i - 1], &t[j - 1]) {
                d[i - 1][j - 1]
            } else {
                (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + 1)
            };
        }
    }
    let mut ops = Vec::new();
    let (mut i, mut j) = (m, n);
    loop {
        if i > 0 && d[i - 1][j] + 1 == d[i][j] {
            ops.push(op(
                "remove",
                make_path(p, &(i - 1).to_string()),
                Value::Null,
            ));
            i -= 1;
        } else if j > 0 && d[i][j - 1] + 1 == d[i][j] {
            ops.push(op("add", make_path(p, &i.to_string()), t[j - 1].clone()));
            j -= 1;
        } else if i > 0 && j > 0 && d[i - 1][j - 1] + 1 == d[i][j] {
            let path = make_path(p, &(i - 1).to_string());
            if is_basic(&s[0]) {
                ops.push(op("replace", path, t[j - 1].clone()));
            } else {
                // Upstream diffs s[j-1] here (an index mix-up); where that index does not exist
                // it would panic, so the element actually being replaced is used instead.
                let old = s.get(j - 1).unwrap_or(&s[i - 1]);
                handle_values(old, &t[j - 1], &path, &mut ops);
            }
            i -= 1;
            j -= 1;
        } else if i > 0 && j > 0 && d[i - 1][j - 1] == d[i][j] {
            i -= 1;
            j -= 1;
        } else {
            return ops;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patch(a: Value, b: Value) -> Value {
        Value::Array(create_patch(&a, &b).iter().map(Op::to_json).collect())
    }

    #[test]
    fn objects_add_replace_remove_in_key_order() {
        assert_eq!(
            patch(
                json!({"a": 1, "b": {"x": "1", "y": true}, "gone": 1, "t": "s"}),
                json!({"a": 1.0, "b": {"x": "2", "y": true, "z": null}, "new": [1], "t": 5})
            ),
            json!([
                {"op": "replace", "path": "/b/x", "value": "2"},
                {"op": "add", "path": "/b/z", "value": null},
                {"op": "add", "path": "/new", "value": [1]},
                {"op": "replace", "path": "/t", "value": 5},
                {"op": "remove", "path": "/gone"}
            ])
        );
        assert_eq!(
            patch(json!({"a": {"b": 1}}), json!({"a": {"b": 1}})),
            json!([])
        );
        assert_eq!(
            patch(
                json!({"a": null, "b": 1}),
                json!({"a": {"k": 1}, "b": null})
            ),
            json!([
                {"op": "add", "path": "/a", "value": {"k": 1}},
                {"op": "replace", "path": "/b", "value": null}
            ])
        );
        assert_eq!(
            patch(json!({}), json!({"a/b~c": 1})),
            json!([{"op": "add", "path": "/a~1b~0c", "value": 1}])
        );
    }

    #[test]
    fn simple_arrays_use_edit_distance() {
        // Appends come out last element first, each inserted at the old length.
        assert_eq!(
            patch(json!({"l": ["a"]}), json!({"l": ["a", "x", "y"]})),
            json!([
                {"op": "add", "path": "/l/1", "value": "y"},
                {"op": "add", "path": "/l/1", "value": "x"}
            ])
        );
        // Objects of strings (such as extraArgs) count as simple.
        assert_eq!(
            patch(
                json!({"l": [{"name": "a", "value": "1"}]}),
                json!({"l": [{"name": "a", "value": "1"}, {"name": "v", "value": "2"}]})
            ),
            json!([{"op": "add", "path": "/l/1", "value": {"name": "v", "value": "2"}}])
        );
        assert_eq!(
            patch(json!({"l": ["a", "b", "c"]}), json!({"l": ["a", "c"]})),
            json!([{"op": "remove", "path": "/l/1"}])
        );
        assert_eq!(
            patch(json!({"l": ["a", "b"]}), json!({"l": ["a", "z"]})),
            json!([{"op": "replace", "path": "/l/1", "value": "z"}])
        );
    }

    #[test]
    fn other_arrays_are_diffed_by_index() {
        assert_eq!(
            patch(
                json!({"l": [{"a": {"x": 1}}, {"b": [1]}, {"c": [2]}]}),
                json!({"l": [{"a": {"x": 2}}]})
            ),
            json!([
                {"op": "remove", "path": "/l/2"},
                {"op": "remove", "path": "/l/1"},
                {"op": "replace", "path": "/l/0/a/x", "value": 2}
            ])
        );
        assert_eq!(
            patch(json!({"l": [[1]]}), json!({"l": [[1], [2]]})),
            json!([{"op": "add", "path": "/l/1", "value": [2]}])
        );
    }
}
