/*!
Sprig's list functions: `list`/`tuple`, `append`/`push`, `prepend`, `first`, `rest`, `last`,
`initial`, `reverse`, `uniq`, `without`, `has`, `slice`, `concat`, `chunk` and their `must*`
twins. Also home of [`deep_equal`] (Go's `reflect.DeepEqual`), which `has`, `without` and
`uniq` compare with.

Sprig accepts any Go slice through reflection (`[]string` from `splitList`, `[]int` from
`until`, …) and, except for `slice`, always returns `[]interface{}`. Comparisons are
type-exact: a JSON number is a float64, so `has 2 .list` is false for `[2]` from the data while
`has 2.0 .list` is true.

Errors: the `must*` variants return `Cannot find first on type string` and the like; the plain
variants panic with the same error, which text/template reports identically. A nil argument
where a list is expected is Go's nil-pointer panic (`reflect.TypeOf(nil).Kind()`).

Known differences, both due to the value model: Go distinguishes a nil slice from an empty one
(`rest (list) | toJson` is `null`); here both are empty slices. Go's `slice` may reach into a
slice's spare capacity (`slice .l 0 4` on a 3-item JSON list yields a trailing `<nil>`); here
capacity equals length, so that is an out-of-bounds error.
*/

use std::sync::Arc;

use super::cast::to_int;
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::{GoType, Slice, Value};

/// Go's panic text when reflection is asked for the kind of a nil interface.
pub(crate) const NIL_DEREF: &str =
    "runtime error: invalid memory address or nil pointer dereference";

/// Go's panic text for a negative `make` length.
const MAKESLICE: &str = "runtime error: makeslice: len out of range";

/// reflect's panic text for a `Slice(i, j)` outside the capacity.
const SLICE_BOUNDS: &str = "reflect.Value.Slice: slice index out of bounds";

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func {
        name: "tuple",
        params: &[],
        variadic: Some(Param::Any),
        imp: list,
    },
    Func {
        name: "list",
        params: &[],
        variadic: Some(Param::Any),
        imp: list,
    },
    Func {
        name: "append",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: push,
    },
    Func {
        name: "push",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: push,
    },
    Func {
        name: "mustAppend",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: push,
    },
    Func {
        name: "mustPush",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: push,
    },
    Func {
        name: "prepend",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: prepend,
    },
    Func {
        name: "mustPrepend",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: prepend,
    },
    Func {
        name: "first",
        params: &[Param::Any],
        variadic: None,
        imp: first,
    },
    Func {
        name: "mustFirst",
        params: &[Param::Any],
        variadic: None,
        imp: first,
    },
    Func {
        name: "rest",
        params: &[Param::Any],
        variadic: None,
        imp: rest,
    },
    Func {
        name: "mustRest",
        params: &[Param::Any],
        variadic: None,
        imp: rest,
    },
    Func {
        name: "last",
        params: &[Param::Any],
        variadic: None,
        imp: last,
    },
    Func {
        name: "mustLast",
        params: &[Param::Any],
        variadic: None,
        imp: last,
    },
    Func {
        name: "initial",
        params: &[Param::Any],
        variadic: None,
        imp: initial,
    },
    Func {
        name: "mustInitial",
        params: &[Param::Any],
        variadic: None,
        imp: initial,
    },
    Func {
        name: "reverse",
        params: &[Param::Any],
        variadic: None,
        imp: reverse,
    },
    Func {
        name: "mustReverse",
        params: &[Param::Any],
        variadic: None,
        imp: reverse,
    },
    Func {
        name: "uniq",
        params: &[Param::Any],
        variadic: None,
        imp: uniq,
    },
    Func {
        name: "mustUniq",
        params: &[Param::Any],
        variadic: None,
        imp: uniq,
    },
    Func {
        name: "without",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: without,
    },
    Func {
        name: "mustWithout",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: without,
    },
    Func {
        name: "has",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: has,
    },
    Func {
        name: "mustHas",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: has,
    },
    Func {
        name: "slice",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: slice,
    },
    Func {
        name: "mustSlice",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: slice,
    },
    Func {
        name: "concat",
        params: &[],
        variadic: Some(Param::Any),
        imp: concat,
    },
    Func {
        name: "chunk",
        params: &[Param::Int, Param::Any],
        variadic: None,
        imp: chunk,
    },
    Func {
        name: "mustChunk",
        params: &[Param::Int, Param::Any],
        variadic: None,
        imp: chunk,
    },
];

fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Nil)
}

/// A value as stored in an `interface{}` slot: a missing value is a nil interface.
pub(crate) fn stored(v: &Value) -> Value {
    match v {
        Value::Invalid => Value::Nil,
        other => other.clone(),
    }
}

/// Why a value is not a list: Go's nil-pointer panic for nil, otherwise its kind name.
pub(crate) enum NotList {
    Nil,
    Kind(&'static str),
}

/// The items of a Go slice (reflection's `Index(i).Interface()` for each), its element type.
pub(crate) fn list_items(v: &Value) -> Result<(Vec<Value>, GoType), NotList> {
    match v {
        Value::Slice(s) => Ok((s.items.clone(), s.elem.clone())),
        // No hermetic Sprig function yields []byte; its items would be uint8, which the value
        // model lacks, so they are approximated as ints.
        Value::Bytes(b) => Ok((
            b.iter().map(|x| Value::Int(i64::from(*x))).collect(),
            GoType::Bytes,
        )),
        Value::Nil | Value::Invalid => Err(NotList::Nil),
        other => Err(NotList::Kind(
            other.go_type().map_or("invalid", |t| t.kind_name()),
        )),
    }
}

/// The items of a list argument, or the error `message(kind)` (Go's nil panic for nil).
fn items_or(v: &Value, message: impl Fn(&str) -> String) -> Result<Vec<Value>, String> {
    match list_items(v) {
        Ok((items, _)) => Ok(items),
        Err(NotList::Nil) => Err(NIL_DEREF.into()),
        Err(NotList::Kind(kind)) => Err(message(kind)),
    }
}

fn find_err(what: &'static str) -> impl Fn(&str) -> String {
    move |kind| format!("Cannot find {what} on type {kind}")
}

fn list(args: &[Value]) -> Result<Value, String> {
    Ok(Value::list(args.iter().map(stored).collect()))
}

fn push(args: &[Value]) -> Result<Value, String> {
    let mut items = items_or(arg(args, 0), |k| format!("Cannot push on type {k}"))?;
    items.push(stored(arg(args, 1)));
    Ok(Value::list(items))
}

fn prepend(args: &[Value]) -> Result<Value, String> {
    let mut items = items_or(arg(args, 0), |k| format!("Cannot prepend on type {k}"))?;
    items.insert(0, stored(arg(args, 1)));
    Ok(Value::list(items))
}

fn first(args: &[Value]) -> Result<Value, String> {
    let items = items_or(arg(args, 0), find_err("first"))?;
    Ok(items.into_iter().next().unwrap_or(Value::Nil))
}

fn last(args: &[Value]) -> Result<Value, String> {
    let items = items_or(arg(args, 0), find_err("last"))?;
    Ok(items.into_iter().last().unwrap_or(Value::Nil))
}

fn rest(args: &[Value]) -> Result<Value, String> {
    let items = items_or(arg(args, 0), find_err("rest"))?;
    Ok(Value::list(items.into_iter().skip(1).collect()))
}

fn initial(args: &[Value]) -> Result<Value, String> {
    let mut items = items_or(arg(args, 0), find_err("initial"))?;
    items.pop();
    Ok(Value::list(items))
}

fn reverse(args: &[Value]) -> Result<Value, String> {
    let mut items = items_or(arg(args, 0), find_err("reverse"))?;
    items.reverse();
    Ok(Value::list(items))
}

fn uniq(args: &[Value]) -> Result<Value, String> {
    let items = items_or(arg(args, 0), find_err("uniq"))?;
    let mut out: Vec<Value> = Vec::new();
    // Sprig compares each item with every kept one (quadratic); scalars go through a hash set
    // instead, with the same outcome since DeepEqual never equates values of different types.
    let mut seen_scalars = std::collections::HashSet::new();
    let mut seen_others: Vec<Value> = Vec::new();
    for item in items {
        let fresh = match scalar_key(&item) {
            Some(key) => seen_scalars.insert(key),
            None if matches!(&item, Value::Float(f) if f.is_nan()) => true,
            None => {
                let fresh = !seen_others.iter().any(|seen| deep_equal(&item, seen));
                if fresh {
                    seen_others.push(item.clone());
                }
                fresh
            }
        };
        if fresh {
            out.push(item);
        }
    }
    Ok(Value::list(out))
}

/// A hashable stand-in for a scalar under DeepEqual (type and value; `-0.0` equals `0.0`;
/// NaN has none because it equals nothing).
#[derive(Hash, PartialEq, Eq)]
enum ScalarKey {
    Nil,
    Bool(bool),
    Int(i64),
    Int64(i64),
    Uint64(u64),
    Float(u64),
    String(Arc<str>),
}

fn scalar_key(v: &Value) -> Option<ScalarKey> {
    Some(match v {
        Value::Nil | Value::Invalid => ScalarKey::Nil,
        Value::Bool(b) => ScalarKey::Bool(*b),
        Value::Int(i) => ScalarKey::Int(*i),
        Value::Int64(i) => ScalarKey::Int64(*i),
        Value::Uint64(u) => ScalarKey::Uint64(*u),
        Value::Float(f) if f.is_nan() => return None,
        Value::Float(f) => ScalarKey::Float(if *f == 0.0 { 0 } else { f.to_bits() }),
        Value::String(s) => ScalarKey::String(s.clone()),
        _ => return None,
    })
}

fn without(args: &[Value]) -> Result<Value, String> {
    let items = items_or(arg(args, 0), find_err("without"))?;
    let omit: Vec<Value> = args.iter().skip(1).map(stored).collect();
    let kept = items
        .into_iter()
        .filter(|item| !omit.iter().any(|o| deep_equal(item, o)))
        .collect();
    Ok(Value::list(kept))
}

fn has(args: &[Value]) -> Result<Value, String> {
    let needle = stored(arg(args, 0));
    let haystack = arg(args, 1);
    // Sprig checks for a nil haystack before reflecting on it.
    if matches!(haystack, Value::Nil | Value::Invalid) {
        return Ok(Value::Bool(false));
    }
    let items = items_or(haystack, find_err("has"))?;
    Ok(Value::Bool(
        items.iter().any(|item| deep_equal(&needle, item)),
    ))
}

fn slice(args: &[Value]) -> Result<Value, String> {
    let (items, elem) = match list_items(arg(args, 0)) {
        Ok(found) => found,
        Err(NotList::Nil) => return Err(NIL_DEREF.into()),
        Err(NotList::Kind(kind)) => {
            return Err(format!("list should be type of slice or array but {kind}"));
        }
    };
    if items.is_empty() {
        // Sprig returns a nil interface for an empty list, whatever the indices.
        return Ok(Value::Nil);
    }
    let len = items.len() as i64;
    let start = args.get(1).map_or(0, to_int);
    let end = args.get(2).map_or(len, to_int);
    if start < 0 || end < start || end > len {
        return Err(SLICE_BOUNDS.into());
    }
    let part: Vec<Value> = items[start as usize..end as usize].to_vec();
    // reflect's Slice keeps the slice's own type (`[]string` stays `[]string`).
    Ok(match elem {
        GoType::Bytes => Value::Bytes(
            part.iter()
                .map(|v| match v {
                    Value::Int(n) => *n as u8,
                    _ => 0,
                })
                .collect::<Vec<u8>>()
                .into(),
        ),
        elem => Value::Slice(Arc::new(Slice { elem, items: part })),
    })
}

fn concat(args: &[Value]) -> Result<Value, String> {
    let mut out = Vec::new();
    for v in args {
        out.extend(items_or(v, |k| format!("Cannot concat type {k} as list"))?);
    }
    Ok(Value::list(out))
}

/// Go's float64 → int conversion on amd64: NaN and out-of-range values become MinInt64.
fn go_f64_to_int(f: f64) -> i64 {
    const LIMIT: f64 = (1u64 << 63) as f64;
    if f.is_nan() || !(-LIMIT..LIMIT).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

fn chunk(args: &[Value]) -> Result<Value, String> {
    let size = super::math::int_arg(args, 0);
    let items = items_or(arg(args, 1), |k| format!("Cannot chunk type {k}"))?;
    let len = items.len() as i64;
    // Sprig sizes the result with float arithmetic; a zero or negative size gives NaN, ±Inf or
    // a negative count, which Go's make() rejects.
    let count = go_f64_to_int(((len - 1) as f64 / size as f64).floor() + 1.0);
    if count < 0 {
        return Err(MAKESLICE.into());
    }
    let mut chunks = Vec::new();
    for i in 0..count {
        let mut clen = size;
        if i == count - 1 {
            clen = go_f64_to_int((len as f64 % size as f64).floor());
            if clen == 0 {
                clen = size;
            }
        }
        if clen < 0 {
            return Err(MAKESLICE.into());
        }
        let mut part = Vec::new();
        for j in 0..clen {
            let ix = i.wrapping_mul(size).wrapping_add(j);
            let item = usize::try_from(ix)
                .ok()
                .and_then(|ix| items.get(ix))
                .ok_or("reflect: slice index out of range")?;
            part.push(item.clone());
        }
        chunks.push(Value::list(part));
    }
    Ok(Value::Slice(Arc::new(Slice {
        elem: GoType::Slice(Box::new(GoType::Interface)),
        items: chunks,
    })))
}

/// Go's `reflect.DeepEqual` for two `interface{}` values: the dynamic types must be identical
/// (float64 2 is not int 2), floats compare with `==` (NaN differs from itself unless it is the
/// very same slice or map), slices and maps element by element. Iterative, so values nested
/// arbitrarily deep (templates can build them in a loop) cannot exhaust the stack.
pub fn deep_equal(a: &Value, b: &Value) -> bool {
    let mut pending: Vec<(&Value, &Value)> = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        let same = match (a, b) {
            (Value::Nil | Value::Invalid, Value::Nil | Value::Invalid) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Int(x), Value::Int(y)) | (Value::Int64(x), Value::Int64(y)) => x == y,
            (Value::Uint64(x), Value::Uint64(y)) => x == y,
            (Value::Float(x), Value::Float(y)) => x == y,
            (Value::String(x), Value::String(y)) => x == y,
            (Value::Bytes(x), Value::Bytes(y)) => x == y,
            (Value::Slice(x), Value::Slice(y)) => {
                if x.elem != y.elem || x.items.len() != y.items.len() {
                    false
                } else {
                    if !Arc::ptr_eq(x, y) {
                        pending.extend(x.items.iter().zip(&y.items));
                    }
                    true
                }
            }
            (Value::Map(x), Value::Map(y)) => {
                if x.elem != y.elem || x.entries.len() != y.entries.len() {
                    false
                } else if Arc::ptr_eq(x, y) {
                    true
                } else {
                    let mut all_keys = true;
                    for (k, v) in &x.entries {
                        match y.entries.get(k) {
                            Some(w) => pending.push((v, w)),
                            None => all_keys = false,
                        }
                    }
                    all_keys
                }
            }
            (Value::Semver(x, px), Value::Semver(y, py)) => px == py && x == y,
            _ => false,
        };
        if !same {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_vectors_from_go() {
        assert!(super::super::regex::golden::check(FUNCS) > 30);
    }

    fn i(n: i64) -> Value {
        Value::Int(n)
    }

    fn f(x: f64) -> Value {
        Value::Float(x)
    }

    fn s(x: &str) -> Value {
        Value::str(x)
    }

    fn strings(items: &[&str]) -> Value {
        Value::string_list(items.iter().copied())
    }

    fn typed(v: &Value) -> String {
        v.go_type().map_or("<nil>".into(), |t| t.name())
    }

    #[test]
    fn list_and_push() {
        let l = list(&[i(1), s("a"), Value::Invalid]).unwrap();
        assert_eq!(l, Value::list(vec![i(1), s("a"), Value::Nil]));
        assert_eq!(typed(&list(&[]).unwrap()), "[]interface {}");
        let p = push(&[strings(&["a", "b"]), s("c")]).unwrap();
        assert_eq!(typed(&p), "[]interface {}");
        assert_eq!(p, Value::list(vec![s("a"), s("b"), s("c")]));
        assert_eq!(
            prepend(&[Value::list(vec![i(2)]), i(1)]).unwrap(),
            Value::list(vec![i(1), i(2)])
        );
        assert_eq!(
            push(&[s("abc"), i(1)]),
            Err("Cannot push on type string".into())
        );
        assert_eq!(
            prepend(&[f(1.0), i(1)]),
            Err("Cannot prepend on type float64".into())
        );
        assert_eq!(push(&[Value::Nil, i(1)]), Err(NIL_DEREF.into()));
    }

    #[test]
    fn ends() {
        let l = Value::list(vec![i(1), i(2), i(3)]);
        assert_eq!(first(std::slice::from_ref(&l)).unwrap(), i(1));
        assert_eq!(last(std::slice::from_ref(&l)).unwrap(), i(3));
        assert_eq!(
            rest(std::slice::from_ref(&l)).unwrap(),
            Value::list(vec![i(2), i(3)])
        );
        assert_eq!(
            initial(std::slice::from_ref(&l)).unwrap(),
            Value::list(vec![i(1), i(2)])
        );
        assert_eq!(
            reverse(std::slice::from_ref(&l)).unwrap(),
            Value::list(vec![i(3), i(2), i(1)])
        );
        let empty = Value::list(vec![]);
        assert_eq!(first(std::slice::from_ref(&empty)).unwrap(), Value::Nil);
        assert_eq!(last(std::slice::from_ref(&empty)).unwrap(), Value::Nil);
        assert_eq!(
            rest(std::slice::from_ref(&empty)).unwrap(),
            Value::list(vec![])
        );
        assert_eq!(first(&[strings(&["x"])]).unwrap(), s("x"));
        assert_eq!(
            first(&[s("abc")]),
            Err("Cannot find first on type string".into())
        );
        assert_eq!(
            last(&[Value::dict(Default::default())]),
            Err("Cannot find last on type map".into())
        );
        assert_eq!(
            rest(&[Value::Bool(true)]),
            Err("Cannot find rest on type bool".into())
        );
        assert_eq!(
            initial(&[i(1)]),
            Err("Cannot find initial on type int".into())
        );
        assert_eq!(
            reverse(&[Value::Int64(1)]),
            Err("Cannot find reverse on type int64".into())
        );
        assert_eq!(first(&[Value::Invalid]), Err(NIL_DEREF.into()));
    }

    #[test]
    fn deep_equality_is_type_exact() {
        let l = Value::list(vec![f(1.0), f(2.0)]);
        assert_eq!(has(&[i(2), l.clone()]).unwrap(), Value::Bool(false));
        assert_eq!(has(&[f(2.0), l.clone()]).unwrap(), Value::Bool(true));
        assert_eq!(has(&[i(1), Value::Nil]).unwrap(), Value::Bool(false));
        assert_eq!(
            has(&[i(1), s("abc")]),
            Err("Cannot find has on type string".into())
        );
        assert_eq!(
            has(&[Value::Nil, Value::list(vec![Value::Nil])]).unwrap(),
            Value::Bool(true)
        );
        let u = uniq(&[Value::list(vec![i(1), f(1.0), s("1"), i(1)])]).unwrap();
        assert_eq!(u, Value::list(vec![i(1), f(1.0), s("1")]));
        let nan = f(f64::NAN);
        let u = uniq(&[Value::list(vec![
            nan.clone(),
            nan.clone(),
            f(0.0),
            f(-0.0),
            Value::Nil,
            Value::Nil,
        ])])
        .unwrap();
        let Value::Slice(u) = u else { panic!() };
        assert_eq!(u.items.len(), 4);
        let big = Value::Slice(Arc::new(Slice {
            elem: GoType::Int,
            items: (0..200_000).map(|n| i(n % 1000)).collect(),
        }));
        let Value::Slice(u) = uniq(&[big]).unwrap() else {
            panic!()
        };
        assert_eq!(u.items.len(), 1000);
        let w = without(&[Value::list(vec![i(1), i(2), i(3), i(1)]), i(1), i(3)]).unwrap();
        assert_eq!(w, Value::list(vec![i(2)]));
        assert!(!deep_equal(&f(f64::NAN), &f(f64::NAN)));
        assert!(deep_equal(
            &Value::list(vec![i(1)]),
            &Value::list(vec![i(1)])
        ));
        assert!(!deep_equal(&Value::list(vec![]), &strings(&[])));
        assert!(!deep_equal(&i(1), &Value::Int64(1)));
    }

    #[test]
    fn deep_equality_does_not_recurse() {
        let mut a = Value::list(vec![]);
        let mut b = Value::list(vec![]);
        for _ in 0..200_000 {
            a = Value::list(vec![a]);
            b = Value::list(vec![b]);
        }
        assert!(deep_equal(&a, &b));
        assert_eq!(
            has(&[a.clone(), Value::list(vec![b.clone()])]).unwrap(),
            Value::Bool(true)
        );
        // Dropping such a value recurses in the value model itself; not this module's concern.
        std::mem::forget((a, b));
    }

    #[test]
    fn slicing() {
        let l = Value::list(vec![i(1), i(2), i(3)]);
        assert_eq!(slice(std::slice::from_ref(&l)).unwrap(), l);
        assert_eq!(
            slice(&[l.clone(), i(1)]).unwrap(),
            Value::list(vec![i(2), i(3)])
        );
        assert_eq!(
            slice(&[l.clone(), i(1), f(2.0)]).unwrap(),
            Value::list(vec![i(2)])
        );
        assert_eq!(slice(&[l.clone(), i(0), i(4)]), Err(SLICE_BOUNDS.into()));
        assert_eq!(slice(&[l.clone(), i(2), i(1)]), Err(SLICE_BOUNDS.into()));
        assert_eq!(slice(&[l, i(-1)]), Err(SLICE_BOUNDS.into()));
        assert_eq!(slice(&[Value::list(vec![]), i(5)]).unwrap(), Value::Nil);
        let sl = slice(&[strings(&["a", "b", "c"]), i(1)]).unwrap();
        assert_eq!(typed(&sl), "[]string");
        assert_eq!(
            slice(&[s("abc")]),
            Err("list should be type of slice or array but string".into())
        );
    }

    #[test]
    fn concatenation() {
        let c = concat(&[Value::list(vec![i(1)]), strings(&["a"])]).unwrap();
        assert_eq!(c, Value::list(vec![i(1), s("a")]));
        assert_eq!(concat(&[]).unwrap(), Value::list(vec![]));
        assert_eq!(
            concat(&[Value::list(vec![]), s("a")]),
            Err("Cannot concat type string as list".into())
        );
        assert_eq!(concat(&[Value::Nil]), Err(NIL_DEREF.into()));
    }

    #[test]
    fn chunks() {
        let l = Value::list(vec![i(1), i(2), i(3)]);
        let c = chunk(&[i(2), l.clone()]).unwrap();
        assert_eq!(typed(&c), "[][]interface {}");
        let Value::Slice(cs) = &c else { panic!() };
        assert_eq!(
            cs.items,
            vec![Value::list(vec![i(1), i(2)]), Value::list(vec![i(3)])]
        );
        let Value::Slice(one) = chunk(&[i(5), l.clone()]).unwrap() else {
            panic!()
        };
        assert_eq!(one.items.len(), 1);
        assert_eq!(chunk(&[i(0), l.clone()]), Err(MAKESLICE.into()));
        assert_eq!(
            chunk(&[i(-1), Value::list(vec![i(1)])]),
            Err(MAKESLICE.into())
        );
        let Value::Slice(neg) = chunk(&[i(-3), Value::list(vec![i(1), i(2)])]).unwrap() else {
            panic!()
        };
        assert!(neg.items.is_empty());
        let Value::Slice(single) = chunk(&[i(-3), Value::list(vec![i(1)])]).unwrap() else {
            panic!()
        };
        assert_eq!(single.items, vec![Value::list(vec![i(1)])]);
        let Value::Slice(empty) = chunk(&[i(2), Value::list(vec![])]).unwrap() else {
            panic!()
        };
        assert!(empty.items.is_empty());
        assert_eq!(
            chunk(&[i(2), s("abc")]),
            Err("Cannot chunk type string".into())
        );
        assert_eq!(chunk(&[i(-1), l]), Err(MAKESLICE.into()));
    }
}
