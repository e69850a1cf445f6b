/*!
Sprig's dictionary functions: `dict`, `get`, `set`, `unset`, `hasKey`, `pluck`, `keys`,
`values`, `pick`, `omit`, `dig`, and the mergo-based `merge`, `mergeOverwrite`, `mustMerge`,
`mustMergeOverwrite`.

All of them work on `map[string]interface{}` (the executor rejects other map types before the
call, as Go's text/template does).

Differences from Go, all forced by immutable values (see the crate's value model):

- Go maps are references. `set`, `unset` and `merge*` modify the map they are given and return
  it, so `{{ $_ := set $d "k" 1 }}` changes `$d`, and merging changes nested maps of the
  destination in place. Here the functions return an updated copy and the argument is left
  untouched; the returned map is identical to Go's.
- `keys` and `values` follow Go's map iteration order, which is random. Here they follow sorted
  key order, one of the orders Go can produce.

`merge` follows mergo v1 (`dario.cat/mergo`, what Sprig 3.3 uses) for JSON-like values: a key
is filled from the source when the destination lacks it or holds an empty value (`""`, 0,
false, nil, empty list or map); nested maps are merged recursively; a nil source value is
skipped (and written by `mergeOverwrite`). A `*semver.Version` in the destination merged with a
map in the source is mergo's error `src and dst must be of same type`, which `merge` swallows
into the empty string and `mustMerge` reports.
*/

use std::collections::BTreeMap;
use std::sync::Arc;

use super::cast::strval;
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::{GoType, Map, Value};

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func {
        name: "dict",
        params: &[],
        variadic: Some(Param::Any),
        imp: dict,
    },
    Func {
        name: "get",
        params: &[Param::Dict, Param::String],
        variadic: None,
        imp: get,
    },
    Func {
        name: "set",
        params: &[Param::Dict, Param::String, Param::Any],
        variadic: None,
        imp: set,
    },
    Func {
        name: "unset",
        params: &[Param::Dict, Param::String],
        variadic: None,
        imp: unset,
    },
    Func {
        name: "hasKey",
        params: &[Param::Dict, Param::String],
        variadic: None,
        imp: has_key,
    },
    Func {
        name: "pluck",
        params: &[Param::String],
        variadic: Some(Param::Dict),
        imp: pluck,
    },
    Func {
        name: "keys",
        params: &[],
        variadic: Some(Param::Dict),
        imp: keys,
    },
    Func {
        name: "pick",
        params: &[Param::Dict],
        variadic: Some(Param::String),
        imp: pick,
    },
    Func {
        name: "omit",
        params: &[Param::Dict],
        variadic: Some(Param::String),
        imp: omit,
    },
    Func {
        name: "merge",
        params: &[Param::Dict],
        variadic: Some(Param::Dict),
        imp: merge,
    },
    Func {
        name: "mergeOverwrite",
        params: &[Param::Dict],
        variadic: Some(Param::Dict),
        imp: merge_overwrite,
    },
    Func {
        name: "mustMerge",
        params: &[Param::Dict],
        variadic: Some(Param::Dict),
        imp: must_merge,
    },
    Func {
        name: "mustMergeOverwrite",
        params: &[Param::Dict],
        variadic: Some(Param::Dict),
        imp: must_merge_overwrite,
    },
    Func {
        name: "values",
        params: &[Param::Dict],
        variadic: None,
        imp: values,
    },
    Func {
        name: "dig",
        params: &[],
        variadic: Some(Param::Any),
        imp: dig,
    },
];

fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Nil)
}

/// The entries of a map argument; nil (Go's nil map) reads as empty.
fn entries(v: &Value) -> BTreeMap<String, Value> {
    match v {
        Value::Map(m) => m.entries.clone(),
        _ => BTreeMap::new(),
    }
}

fn str_arg(args: &[Value], i: usize) -> String {
    match arg(args, i) {
        Value::String(s) => s.to_string(),
        other => strval(other),
    }
}

fn dict_value(entries: BTreeMap<String, Value>) -> Value {
    Value::dict(entries)
}

fn dict(args: &[Value]) -> Result<Value, String> {
    let mut out = BTreeMap::new();
    for pair in args.chunks(2) {
        let (key, value) = match pair {
            [k, v] => (k, super::lists::stored(v)),
            // An odd trailing key maps to the empty string.
            [k] => (k, Value::str("")),
            _ => continue,
        };
        out.insert(strval(key), value);
    }
    Ok(dict_value(out))
}

fn get(args: &[Value]) -> Result<Value, String> {
    let key = str_arg(args, 1);
    Ok(entries(arg(args, 0))
        .remove(&key)
        .unwrap_or_else(|| Value::str("")))
}

fn set(args: &[Value]) -> Result<Value, String> {
    // A nil map (the `nil` keyword, a missing key) cannot be written to: Go panics.
    if matches!(arg(args, 0), Value::Nil | Value::Invalid) {
        return Err("assignment to entry in nil map".into());
    }
    let mut m = entries(arg(args, 0));
    m.insert(str_arg(args, 1), super::lists::stored(arg(args, 2)));
    Ok(dict_value(m))
}

fn unset(args: &[Value]) -> Result<Value, String> {
    let mut m = entries(arg(args, 0));
    m.remove(&str_arg(args, 1));
    Ok(dict_value(m))
}

fn has_key(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(
        entries(arg(args, 0)).contains_key(&str_arg(args, 1)),
    ))
}

fn pluck(args: &[Value]) -> Result<Value, String> {
    let key = str_arg(args, 0);
    let found = args
        .iter()
        .skip(1)
        .filter_map(|d| match d {
            Value::Map(m) => m.entries.get(&key).cloned(),
            _ => None,
        })
        .collect();
    Ok(Value::list(found))
}

fn keys(args: &[Value]) -> Result<Value, String> {
    let all: Vec<String> = args.iter().flat_map(|d| entries(d).into_keys()).collect();
    Ok(Value::string_list(all))
}

fn values(args: &[Value]) -> Result<Value, String> {
    Ok(Value::list(entries(arg(args, 0)).into_values().collect()))
}

fn pick(args: &[Value]) -> Result<Value, String> {
    let source = entries(arg(args, 0));
    let mut out = BTreeMap::new();
    for k in args.iter().skip(1) {
        let k = strval(k);
        if let Some(v) = source.get(&k) {
            out.insert(k, v.clone());
        }
    }
    Ok(dict_value(out))
}

fn omit(args: &[Value]) -> Result<Value, String> {
    let mut m = entries(arg(args, 0));
    for k in args.iter().skip(1) {
        m.remove(&strval(k));
    }
    Ok(dict_value(m))
}

/// Go's message for a failed `x.(T)` type assertion on an `interface{}`.
fn assertion_error(v: &Value, wanted: &str) -> String {
    let actual = v.go_type().map_or("nil".to_string(), |t| t.name());
    format!("interface conversion: interface {{}} is {actual}, not {wanted}")
}

const MAP_TYPE: &str = "map[string]interface {}";

/// `map[string]interface{}` entries of a value asserted to that type.
fn assert_dict(v: &Value) -> Result<&Map, String> {
    match v {
        Value::Map(m) if m.elem == GoType::Interface => Ok(m),
        other => Err(assertion_error(other, MAP_TYPE)),
    }
}

fn dig(args: &[Value]) -> Result<Value, String> {
    if args.len() < 3 {
        return Err("dig needs at least three arguments".into());
    }
    let [path @ .., default, dict] = args else {
        return Err("dig needs at least three arguments".into());
    };
    let default = super::lists::stored(default);
    let mut current = assert_dict(dict)?;
    let mut keys = Vec::with_capacity(path.len());
    for k in path {
        match k {
            Value::String(s) => keys.push(s.clone()),
            other => return Err(assertion_error(other, "string")),
        }
    }
    for (i, key) in keys.iter().enumerate() {
        let Some(step) = current.entries.get(&**key) else {
            return Ok(default);
        };
        if i + 1 == keys.len() {
            return Ok(step.clone());
        }
        current = assert_dict(step)?;
    }
    Ok(default)
}

fn merge(args: &[Value]) -> Result<Value, String> {
    // Sprig swallows mergo's errors into an empty string.
    Ok(merge_all(args, false).unwrap_or_else(|_| Value::str("")))
}

fn merge_overwrite(args: &[Value]) -> Result<Value, String> {
    Ok(merge_all(args, true).unwrap_or_else(|_| Value::str("")))
}

fn must_merge(args: &[Value]) -> Result<Value, String> {
    merge_all(args, false)
}

fn must_merge_overwrite(args: &[Value]) -> Result<Value, String> {
    merge_all(args, true)
}

/// Merge every source into the first map, one source after the other.
fn merge_all(args: &[Value], overwrite: bool) -> Result<Value, String> {
    let mut dst = Map {
        elem: GoType::Interface,
        entries: entries(arg(args, 0)),
    };
    for src in args.iter().skip(1) {
        if let Value::Map(src) = src {
            merge_map(&mut dst, src, overwrite, 0)?;
        }
    }
    Ok(Value::Map(Arc::new(dst)))
}

/// mergo's `isEmptyValue` (dereferencing pointers): zero numbers, false, empty strings,
/// slices and maps, nil. A semver (pointer to a struct, or the struct) is never empty.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Invalid | Value::Nil => true,
        Value::Bool(b) => !b,
        Value::Int(n) | Value::Int64(n) => *n == 0,
        Value::Uint64(n) => *n == 0,
        Value::Float(f) => *f == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::Slice(s) => s.items.is_empty(),
        Value::Map(m) => m.entries.is_empty(),
        Value::Semver(..) => false,
    }
}

fn is_slice(v: &Value) -> bool {
    matches!(v, Value::Slice(_) | Value::Bytes(_))
}

/// Store `value` (whose static type is `src_elem`) into `dst`, as reflect's `SetMapIndex`,
/// which panics when the static type does not fit the destination's element type.
fn store(dst: &mut Map, key: &str, value: Value, src_elem: &GoType) -> Result<(), String> {
    if dst.elem != GoType::Interface && *src_elem != dst.elem {
        return Err(format!(
            "reflect.Value.SetMapIndex: value of type {} is not assignable to type {}",
            src_elem.name(),
            dst.elem.name()
        ));
    }
    dst.entries.insert(key.to_string(), value);
    Ok(())
}

/// How deep `merge` follows nested maps (a bound of this implementation: Go recurses without
/// one, and templates can build arbitrarily deep maps in a loop).
const MAX_MERGE_DEPTH: usize = 10_000;

/// mergo's `deepMerge` for a map destination and a map source.
fn merge_map(dst: &mut Map, src: &Map, overwrite: bool, depth: usize) -> Result<(), String> {
    if depth > MAX_MERGE_DEPTH {
        return Err(format!(
            "maps nested deeper than {MAX_MERGE_DEPTH} levels (limit of this implementation)"
        ));
    }
    for (key, src_value) in &src.entries {
        let mut dst_value = dst.entries.get(key).cloned();
        // A nil interface in the source is skipped, or written when overwriting.
        if src.elem == GoType::Interface && matches!(src_value, Value::Nil | Value::Invalid) {
            if overwrite {
                store(dst, key, Value::Nil, &src.elem)?;
            }
            continue;
        }
        match src_value {
            Value::Map(_) | Value::Semver(..) => {
                if let Some(existing) = &dst_value
                    && let Some(merged) = merge_nested(existing, src_value, overwrite, depth)?
                {
                    // Go merges into the nested map in place: the entry, and the checks below
                    // (an empty map may no longer be empty), see the merged map.
                    dst.entries.insert(key.clone(), merged.clone());
                    dst_value = Some(merged);
                }
            }
            v if is_slice(v) => {
                // mergo first stores an empty slice (of the source's type) for a missing or nil
                // destination, or the source itself when overwriting or when the whole
                // destination map is empty; the checks below then settle the final value.
                let placeholder = match &dst_value {
                    None | Some(Value::Nil) => empty_like(v),
                    Some(existing) => existing.clone(),
                };
                let chosen = if overwrite || dst.entries.is_empty() {
                    v.clone()
                } else {
                    placeholder
                };
                let chosen_type = chosen.go_type().unwrap_or(GoType::Interface);
                store(dst, key, chosen, &chosen_type)?;
            }
            _ => {}
        }
        if let Some(existing) = &dst_value
            && !is_empty(existing)
        {
            if is_slice(src_value) {
                continue;
            }
            if matches!(src_value, Value::Map(_)) && matches!(existing, Value::Map(_)) {
                continue;
            }
        }
        if overwrite || dst_value.as_ref().is_none_or(is_empty) {
            store(dst, key, src_value.clone(), &src.elem)?;
        }
    }
    Ok(())
}

/// An empty slice with the same type as `v`.
fn empty_like(v: &Value) -> Value {
    match v {
        Value::Slice(s) => Value::Slice(Arc::new(crate::gotemplate::value::Slice {
            elem: s.elem.clone(),
            items: Vec::new(),
        })),
        Value::Bytes(_) => Value::Bytes(Arc::from(Vec::new())),
        other => other.clone(),
    }
}

/// mergo's `deepMerge` of a nested source map or semver into the destination's existing value
/// (not settable, so only a map destination can change). Returns the new value, if any.
fn merge_nested(
    existing: &Value,
    src: &Value,
    overwrite: bool,
    depth: usize,
) -> Result<Option<Value>, String> {
    match (existing, src) {
        (Value::Map(d), Value::Map(s)) => {
            let mut merged = Map::clone(d);
            merge_map(&mut merged, s, overwrite, depth + 1)?;
            Ok(Some(Value::Map(Arc::new(merged))))
        }
        // A pointer destination and a map source: unless overwriting (where mergo does
        // nothing here and the later overwrite replaces the entry), mergo compares the
        // pointed-to type with the map type and gives up.
        (Value::Semver(_, true), Value::Map(_)) if !overwrite => {
            Err("src and dst must be of same type".into())
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_vectors_from_go() {
        assert!(super::super::regex::golden::check(FUNCS) > 30);
    }

    fn d(pairs: &[(&str, Value)]) -> Value {
        Value::dict(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    fn i(n: i64) -> Value {
        Value::Int(n)
    }

    fn s(x: &str) -> Value {
        Value::str(x)
    }

    fn semver() -> Value {
        Value::Semver(
            Arc::new(crate::gotemplate::value::Version {
                major: 1,
                minor: 0,
                patch: 0,
                pre: String::new(),
                metadata: String::new(),
                original: "1.0.0".into(),
            }),
            true,
        )
    }

    #[test]
    fn dict_builds_maps() {
        assert_eq!(dict(&[s("a")]).unwrap(), d(&[("a", s(""))]));
        assert_eq!(
            dict(&[s("a"), i(1), s("a"), i(2)]).unwrap(),
            d(&[("a", i(2))])
        );
        assert_eq!(dict(&[]).unwrap(), d(&[]));
        assert_eq!(
            dict(&[s("k"), Value::Invalid]).unwrap(),
            d(&[("k", Value::Nil)])
        );
    }

    #[test]
    fn get_set_unset_has() {
        let m = d(&[("a", i(1))]);
        assert_eq!(get(&[m.clone(), s("a")]).unwrap(), i(1));
        assert_eq!(get(&[m.clone(), s("b")]).unwrap(), s(""));
        assert_eq!(
            set(&[m.clone(), s("b"), i(2)]).unwrap(),
            d(&[("a", i(1)), ("b", i(2))])
        );
        assert_eq!(unset(&[m.clone(), s("a")]).unwrap(), d(&[]));
        assert_eq!(unset(&[m.clone(), s("zz")]).unwrap(), m);
        assert_eq!(has_key(&[m.clone(), s("a")]).unwrap(), Value::Bool(true));
        assert_eq!(has_key(&[Value::Nil, s("a")]).unwrap(), Value::Bool(false));
    }

    #[test]
    fn pluck_keys_values_pick_omit() {
        let a = d(&[("x", i(1)), ("y", i(2))]);
        let b = d(&[("x", i(3))]);
        assert_eq!(
            pluck(&[s("x"), a.clone(), b.clone()]).unwrap(),
            Value::list(vec![i(1), i(3)])
        );
        assert_eq!(pluck(&[s("y"), b.clone()]).unwrap(), Value::list(vec![]));
        let k = keys(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(k, Value::string_list(["x", "y", "x"]));
        assert_eq!(keys(&[]).unwrap(), Value::string_list(Vec::<String>::new()));
        assert_eq!(
            values(std::slice::from_ref(&a)).unwrap(),
            Value::list(vec![i(1), i(2)])
        );
        assert_eq!(
            pick(&[a.clone(), s("y"), s("q")]).unwrap(),
            d(&[("y", i(2))])
        );
        assert_eq!(omit(&[a.clone(), s("y")]).unwrap(), d(&[("x", i(1))]));
    }

    #[test]
    fn dig_like_sprig() {
        let data = d(&[("a", d(&[("b", Value::Float(1.0))])), ("n", Value::Nil)]);
        assert_eq!(
            dig(&[s("a"), s("b"), s("d"), data.clone()]).unwrap(),
            Value::Float(1.0)
        );
        assert_eq!(dig(&[s("x"), s("d"), data.clone()]).unwrap(), s("d"));
        assert_eq!(
            dig(&[s("a"), s("zz"), s("d"), data.clone()]).unwrap(),
            s("d")
        );
        assert_eq!(dig(&[s("n"), s("d"), data.clone()]).unwrap(), Value::Nil);
        assert_eq!(
            dig(&[s("a"), s("d")]),
            Err("dig needs at least three arguments".into())
        );
        assert_eq!(
            dig(&[s("a"), s("d"), s("x")]),
            Err("interface conversion: interface {} is string, not map[string]interface {}".into())
        );
        assert_eq!(
            dig(&[s("a"), s("d"), Value::Nil]),
            Err("interface conversion: interface {} is nil, not map[string]interface {}".into())
        );
        assert_eq!(
            dig(&[i(1), s("d"), data.clone()]),
            Err("interface conversion: interface {} is int, not string".into())
        );
        assert_eq!(
            dig(&[s("a"), s("b"), s("c"), s("d"), data.clone()]),
            Err(
                "interface conversion: interface {} is float64, not map[string]interface {}".into()
            )
        );
        assert_eq!(
            dig(&[s("n"), s("b"), s("d"), data]),
            Err("interface conversion: interface {} is nil, not map[string]interface {}".into())
        );
    }

    #[test]
    fn merge_like_mergo() {
        let m = |a: Value, b: Value| merge(&[a, b]).unwrap();
        let mo = |a: Value, b: Value| merge_overwrite(&[a, b]).unwrap();
        assert_eq!(
            m(d(&[("a", i(1))]), d(&[("a", i(2)), ("b", i(3))])),
            d(&[("a", i(1)), ("b", i(3))])
        );
        assert_eq!(
            mo(d(&[("a", i(1))]), d(&[("a", i(2)), ("b", i(3))])),
            d(&[("a", i(2)), ("b", i(3))])
        );
        assert_eq!(m(d(&[("a", s(""))]), d(&[("a", i(2))])), d(&[("a", i(2))]));
        assert_eq!(
            m(d(&[("a", Value::Nil)]), d(&[("a", i(2))])),
            d(&[("a", i(2))])
        );
        assert_eq!(m(d(&[]), d(&[("a", Value::Nil)])), d(&[]));
        assert_eq!(
            mo(d(&[("a", i(1))]), d(&[("a", Value::Nil)])),
            d(&[("a", Value::Nil)])
        );
        let l1 = Value::list(vec![i(1)]);
        assert_eq!(
            m(d(&[("a", i(0))]), d(&[("a", l1.clone())])),
            d(&[("a", l1.clone())])
        );
        assert_eq!(
            m(d(&[("a", Value::list(vec![]))]), d(&[("a", l1.clone())])),
            d(&[("a", l1.clone())])
        );
        let l2 = Value::list(vec![i(2)]);
        assert_eq!(
            m(d(&[("a", l2.clone())]), d(&[("a", l1.clone())])),
            d(&[("a", l2.clone())])
        );
        assert_eq!(
            mo(d(&[("a", l2)]), d(&[("a", l1.clone())])),
            d(&[("a", l1)])
        );
        // Nested maps merge recursively.
        let dst = d(&[("n", d(&[("x", i(1)), ("y", i(0))]))]);
        let src = d(&[("n", d(&[("x", i(9)), ("y", i(5)), ("z", i(7))]))]);
        assert_eq!(
            m(dst.clone(), src.clone()),
            d(&[("n", d(&[("x", i(1)), ("y", i(5)), ("z", i(7))]))])
        );
        assert_eq!(
            mo(dst, src),
            d(&[("n", d(&[("x", i(9)), ("y", i(5)), ("z", i(7))]))])
        );
        // A scalar is not replaced by a map unless overwriting.
        assert_eq!(
            m(d(&[("a", s("x"))]), d(&[("a", d(&[("k", i(1))]))])),
            d(&[("a", s("x"))])
        );
        assert_eq!(
            mo(d(&[("a", s("x"))]), d(&[("a", d(&[("k", i(1))]))])),
            d(&[("a", d(&[("k", i(1))]))])
        );
        // Several sources, nil destination.
        assert_eq!(
            merge(&[
                Value::Nil,
                d(&[("a", i(1))]),
                d(&[("a", i(2)), ("b", i(2))])
            ])
            .unwrap(),
            d(&[("a", i(1)), ("b", i(2))])
        );
    }

    #[test]
    fn merge_errors() {
        let dst = d(&[("a", i(1)), ("s", semver())]);
        let src = d(&[("s", d(&[("x", i(1))]))]);
        assert_eq!(merge(&[dst.clone(), src.clone()]).unwrap(), s(""));
        assert_eq!(
            must_merge(&[dst.clone(), src.clone()]),
            Err("src and dst must be of same type".into())
        );
        assert_eq!(
            must_merge_overwrite(&[dst, src.clone()]).unwrap(),
            d(&[("a", i(1)), ("s", d(&[("x", i(1))]))])
        );
    }
}
