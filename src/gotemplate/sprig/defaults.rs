/*!
Sprig's default and flow-control functions: `default`, `empty`, `coalesce`, `all`, `any`,
`compact`, `mustCompact` (from Sprig's list.go), `ternary`, `deepCopy`, `mustDeepCopy`, `fail`.

"Empty" is Sprig's `empty`: nil, false, zero numbers and empty strings, lists and maps; a
`*semver.Version` is a non-nil pointer and a `semver.Version` a struct, so never empty.

`deepCopy` is mitchellh/copystructure's `Copy`: collections are copied with their types, and a
semantic version comes out as `0.0.0`, because copystructure copies only exported struct fields
and `semver.Version` has none. (Our values are immutable, so copying shares everything else.)
*/

use std::sync::Arc;

use super::cast::{arg_any, arg_bool, arg_str};
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::{Map, Slice, Value, Version};

const A: Param = Param::Any;

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func::variadic("default", &[A], A, default),
    Func::fixed("empty", &[A], empty_fn),
    Func::variadic("coalesce", &[], A, coalesce),
    Func::variadic("all", &[], A, all),
    Func::variadic("any", &[], A, any),
    Func::fixed("compact", &[A], compact),
    Func::fixed("mustCompact", &[A], must_compact),
    Func::fixed("ternary", &[A, A, Param::Bool], ternary),
    Func::fixed("deepCopy", &[A], deep_copy_fn),
    Func::fixed("mustDeepCopy", &[A], must_deep_copy),
    Func::fixed("fail", &[Param::String], fail),
];

/// Sprig's `empty`: the zero value of its type (structs and non-nil pointers never are).
pub fn empty(v: &Value) -> bool {
    match v {
        Value::Invalid | Value::Nil => true,
        Value::Bool(b) => !b,
        Value::Int(i) | Value::Int64(i) => *i == 0,
        Value::Uint64(u) => *u == 0,
        Value::Float(f) => *f == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::Slice(l) => l.items.is_empty(),
        Value::Map(m) => m.entries.is_empty(),
        Value::Semver(..) => false,
    }
}

/// `default D GIVEN…`: the first given value unless it is missing or empty, else D.
fn default(args: &[Value]) -> Result<Value, String> {
    match args.get(1) {
        Some(given) if !empty(given) => Ok(given.clone()),
        _ => Ok(arg_any(args, 0).clone()),
    }
}

fn empty_fn(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(empty(arg_any(args, 0))))
}

/// The first non-empty argument, or nil.
fn coalesce(args: &[Value]) -> Result<Value, String> {
    Ok(args
        .iter()
        .find(|v| !empty(v))
        .cloned()
        .unwrap_or(Value::Nil))
}

fn all(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(args.iter().all(|v| !empty(v))))
}

fn any(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(args.iter().any(|v| !empty(v))))
}

/// `mustCompact`: a list's non-empty items as `[]interface{}`.
fn compact_items(v: &Value) -> Result<Value, String> {
    let items: Vec<Value> = match v {
        Value::Slice(l) => l.items.iter().filter(|v| !empty(v)).cloned().collect(),
        // A []byte's items are uint8s, which our values cannot hold; int is the closest.
        Value::Bytes(b) => b
            .iter()
            .filter(|b| **b != 0)
            .map(|b| Value::Int(i64::from(*b)))
            .collect(),
        // Go asks nil for its type and panics.
        Value::Nil | Value::Invalid => {
            return Err("runtime error: invalid memory address or nil pointer dereference".into());
        }
        other => {
            let kind = other.go_type().map_or("invalid", |t| t.kind_name());
            return Err(format!("Cannot compact on type {kind}"));
        }
    };
    Ok(Value::list(items))
}

/// `compact` panics with `mustCompact`'s error, which reads the same.
fn compact(args: &[Value]) -> Result<Value, String> {
    compact_items(arg_any(args, 0))
}

fn must_compact(args: &[Value]) -> Result<Value, String> {
    compact_items(arg_any(args, 0))
}

fn ternary(args: &[Value]) -> Result<Value, String> {
    let pick = if arg_bool(args, 2)? { 0 } else { 1 };
    Ok(arg_any(args, pick).clone())
}

/// copystructure's `Copy`. Nil makes it panic (it asks a zero `reflect.Value` for its type).
pub fn deep_copy(v: &Value) -> Result<Value, String> {
    if matches!(v, Value::Nil | Value::Invalid) {
        return Err("reflect: call of reflect.Value.Type on zero Value".into());
    }
    Ok(copy_value(v))
}

/// Whether a copy would differ from the value: only semantic versions change.
fn holds_semver(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Semver(..) => return true,
            Value::Slice(l) => stack.extend(l.items.iter()),
            Value::Map(m) => stack.extend(m.entries.values()),
            _ => {}
        }
    }
    false
}

/// A copy, semantic versions zeroed. Values are immutable and shared, so a value without a
/// version is returned as it is; otherwise the tree is rebuilt bottom-up with an explicit stack
/// (data may nest deeper than the call stack allows).
fn copy_value(v: &Value) -> Value {
    if !holds_semver(v) {
        return v.clone();
    }
    enum Task<'a> {
        Visit(&'a Value),
        Slice(&'a Slice),
        Map(&'a Map),
    }
    let mut tasks = vec![Task::Visit(v)];
    // Finished copies; a collection's children are the last ones when it is rebuilt.
    let mut done: Vec<Value> = Vec::new();
    while let Some(task) = tasks.pop() {
        match task {
            Task::Visit(Value::Semver(_, ptr)) => done.push(Value::Semver(
                Arc::new(Version {
                    major: 0,
                    minor: 0,
                    patch: 0,
                    pre: String::new(),
                    metadata: String::new(),
                    original: String::new(),
                }),
                *ptr,
            )),
            Task::Visit(Value::Slice(l)) => {
                tasks.push(Task::Slice(l));
                tasks.extend(l.items.iter().rev().map(Task::Visit));
            }
            Task::Visit(Value::Map(m)) => {
                tasks.push(Task::Map(m));
                tasks.extend(m.entries.values().rev().map(Task::Visit));
            }
            Task::Visit(other) => done.push(other.clone()),
            Task::Slice(l) => {
                let items = done.split_off(done.len().saturating_sub(l.items.len()));
                done.push(Value::Slice(Arc::new(Slice {
                    elem: l.elem.clone(),
                    items,
                })));
            }
            Task::Map(m) => {
                let values = done.split_off(done.len().saturating_sub(m.entries.len()));
                done.push(Value::Map(Arc::new(Map {
                    elem: m.elem.clone(),
                    entries: m.entries.keys().cloned().zip(values).collect(),
                })));
            }
        }
    }
    done.pop().unwrap_or(Value::Nil)
}

/// `deepCopy` panics with `"deepCopy error: "` + copystructure's error; copystructure's only
/// failure here is a panic itself, which reads the same through both functions.
fn deep_copy_fn(args: &[Value]) -> Result<Value, String> {
    deep_copy(arg_any(args, 0))
}

fn must_deep_copy(args: &[Value]) -> Result<Value, String> {
    deep_copy(arg_any(args, 0))
}

fn fail(args: &[Value]) -> Result<Value, String> {
    Err(arg_str(args, 0)?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotemplate::value::GoType;

    fn call(name: &str, args: &[Value]) -> Result<Value, String> {
        let func = FUNCS
            .iter()
            .find(|f| f.name == name)
            .expect("function exists");
        (func.imp)(args)
    }

    fn ver(s: &str) -> Value {
        Value::Semver(
            Arc::new(Version {
                major: 1,
                minor: 2,
                patch: 3,
                pre: String::new(),
                metadata: String::new(),
                original: s.into(),
            }),
            true,
        )
    }

    #[test]
    fn emptiness() {
        for v in [
            Value::Nil,
            Value::Invalid,
            Value::Bool(false),
            Value::Int(0),
            Value::Int64(0),
            Value::Uint64(0),
            Value::Float(0.0),
            Value::Float(-0.0),
            Value::str(""),
            Value::list(vec![]),
            Value::string_list(Vec::<&str>::new()),
            Value::dict(Default::default()),
        ] {
            assert_eq!(
                call("empty", std::slice::from_ref(&v)),
                Ok(Value::Bool(true)),
                "{v:?}"
            );
        }
        for v in [
            Value::Bool(true),
            Value::Float(f64::NAN),
            Value::str(" "),
            Value::list(vec![Value::Nil]),
            ver("1.2.3"),
        ] {
            assert_eq!(
                call("empty", std::slice::from_ref(&v)),
                Ok(Value::Bool(false)),
                "{v:?}"
            );
        }
    }

    #[test]
    fn defaults() {
        let d = Value::str("d");
        assert_eq!(call("default", std::slice::from_ref(&d)), Ok(d.clone()));
        assert_eq!(call("default", &[d.clone(), Value::str("")]), Ok(d.clone()));
        assert_eq!(call("default", &[d.clone(), Value::Int(0)]), Ok(d.clone()));
        assert_eq!(
            call("default", &[d.clone(), Value::str("x"), Value::str("y")]),
            Ok(Value::str("x"))
        );
        assert_eq!(call("default", &[Value::Nil, Value::Nil]), Ok(Value::Nil));
        let args = [Value::Int(0), Value::str(""), Value::str("x")];
        assert_eq!(call("coalesce", &args), Ok(Value::str("x")));
        assert_eq!(
            call("coalesce", &[Value::Nil, Value::Bool(false)]),
            Ok(Value::Nil)
        );
        assert_eq!(call("coalesce", &[]), Ok(Value::Nil));
        assert_eq!(call("all", &[]), Ok(Value::Bool(true)));
        assert_eq!(call("any", &[]), Ok(Value::Bool(false)));
        assert_eq!(
            call("all", &[Value::Int(1), Value::str("")]),
            Ok(Value::Bool(false))
        );
        let args = [
            Value::Int(0),
            Value::str(""),
            Value::list(vec![Value::Int(1)]),
        ];
        assert_eq!(call("any", &args), Ok(Value::Bool(true)));
        let args = [Value::Int(1), Value::Int(2), Value::Bool(false)];
        assert_eq!(call("ternary", &args), Ok(Value::Int(2)));
        assert_eq!(call("fail", &[Value::str("boom")]), Err("boom".into()));
    }

    #[test]
    fn compacting() {
        let l = Value::string_list(["a", "", "b"]);
        let Ok(Value::Slice(out)) = call("compact", &[l]) else {
            panic!("slice")
        };
        assert_eq!(out.elem, GoType::Interface);
        assert_eq!(out.items, vec![Value::str("a"), Value::str("b")]);
        let l = Value::list(vec![
            Value::list(vec![]),
            Value::Nil,
            Value::Float(0.0),
            Value::Bool(false),
            Value::Bool(true),
        ]);
        assert_eq!(
            call("mustCompact", &[l]),
            Ok(Value::list(vec![Value::Bool(true)]))
        );
        let m = Value::dict(Default::default());
        assert_eq!(
            call("compact", &[m]),
            Err("Cannot compact on type map".into())
        );
        assert_eq!(
            call("mustCompact", &[Value::str("x")]),
            Err("Cannot compact on type string".into())
        );
        assert_eq!(
            call("compact", &[Value::Int(1)]),
            Err("Cannot compact on type int".into())
        );
        assert_eq!(
            call("compact", &[ver("1.2.3")]),
            Err("Cannot compact on type ptr".into())
        );
        assert_eq!(
            call("compact", &[Value::Nil]),
            Err("runtime error: invalid memory address or nil pointer dereference".into())
        );
    }

    #[test]
    fn deep_copies() {
        let l = Value::string_list(["a"]);
        assert_eq!(call("deepCopy", std::slice::from_ref(&l)), Ok(l));
        let inner = Value::dict([("x".to_string(), ver("1.2.3"))].into_iter().collect());
        let Ok(Value::Slice(out)) = call("deepCopy", &[Value::list(vec![Value::Int(1), inner])])
        else {
            panic!("slice")
        };
        let Value::Map(m) = &out.items[1] else {
            panic!("map")
        };
        let Value::Semver(v, true) = &m.entries["x"] else {
            panic!("semver")
        };
        assert_eq!(
            (v.major, v.minor, v.patch, v.original.as_str()),
            (0, 0, 0, "")
        );
        let m = Value::dict(
            [
                ("b".to_string(), ver("1.0.0")),
                ("a".to_string(), Value::Int(1)),
            ]
            .into(),
        );
        let Ok(Value::Map(copied)) =
            call("deepCopy", &[Value::list(vec![m, ver("2.0.0")])]).map(|v| match v {
                Value::Slice(l) => l.items[0].clone(),
                other => other,
            })
        else {
            panic!("map")
        };
        assert_eq!(copied.entries["a"], Value::Int(1));
        assert!(matches!(&copied.entries["b"], Value::Semver(v, true) if v.major == 0));
        let err = "reflect: call of reflect.Value.Type on zero Value";
        assert_eq!(call("deepCopy", &[Value::Nil]), Err(err.into()));
        assert_eq!(call("mustDeepCopy", &[Value::Nil]), Err(err.into()));
    }
}
