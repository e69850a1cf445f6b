/*!
Sprig's reflection functions: `typeOf` (Go's `%T`), `typeIs`, `typeIsLike`, `kindOf` (the
`reflect.Kind`), `kindIs`, and `deepEqual` (`reflect.DeepEqual`).

Types and kinds come from [`GoType`]; nil has type `<nil>` and kind `invalid`. `deepEqual`
requires identical Go types all the way down (`1` is not `1.0`, a `[]string` is not a
`[]interface{}` with the same strings), compares floats with `==` (NaN differs from itself) but,
like Go, calls a list or map equal to itself without looking inside.
*/

use std::sync::Arc;

use super::cast::{arg_any, arg_str};
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::{GoType, Value};

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func::fixed("typeOf", &[Param::Any], type_of),
    Func::fixed("typeIs", &[Param::String, Param::Any], type_is),
    Func::fixed("typeIsLike", &[Param::String, Param::Any], type_is_like),
    Func::fixed("kindOf", &[Param::Any], kind_of),
    Func::fixed("kindIs", &[Param::String, Param::Any], kind_is),
    Func::fixed("deepEqual", &[Param::Any, Param::Any], deep_equal_fn),
];

/// Go's `fmt.Sprintf("%T", v)`.
pub fn type_name(v: &Value) -> String {
    v.go_type()
        .map_or_else(|| "<nil>".to_string(), |t| t.name())
}

/// `reflect.ValueOf(v).Kind().String()`.
pub fn kind_name(v: &Value) -> &'static str {
    v.go_type().as_ref().map_or("invalid", GoType::kind_name)
}

fn type_of(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(type_name(arg_any(args, 0))))
}

fn type_is(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(
        arg_str(args, 0)? == type_name(arg_any(args, 1)),
    ))
}

/// `typeIsLike T V`: V's type is T or a pointer to T.
fn type_is_like(args: &[Value]) -> Result<Value, String> {
    let (target, t) = (arg_str(args, 0)?, type_name(arg_any(args, 1)));
    Ok(Value::Bool(
        t == target || t.strip_prefix('*') == Some(target),
    ))
}

fn kind_of(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(kind_name(arg_any(args, 0))))
}

fn kind_is(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(
        arg_str(args, 0)? == kind_name(arg_any(args, 1)),
    ))
}

/// `reflect.DeepEqual`, without recursion (JSON data may nest thousands of levels deep).
pub fn deep_equal(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
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
                if Arc::ptr_eq(x, y) {
                    continue;
                }
                if x.elem != y.elem || x.items.len() != y.items.len() {
                    false
                } else {
                    pending.extend(x.items.iter().zip(y.items.iter()));
                    true
                }
            }
            (Value::Map(x), Value::Map(y)) => {
                if Arc::ptr_eq(x, y) {
                    continue;
                }
                if x.elem != y.elem || x.entries.len() != y.entries.len() {
                    false
                } else {
                    let mut ok = true;
                    for (k, xv) in &x.entries {
                        match y.entries.get(k) {
                            Some(yv) => pending.push((xv, yv)),
                            None => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    ok
                }
            }
            // Pointers to equal structs are deeply equal; all fields count, the original text
            // included.
            (Value::Semver(x, xp), Value::Semver(y, yp)) => {
                xp == yp && (Arc::ptr_eq(x, y) || x == y)
            }
            _ => false,
        };
        if !same {
            return false;
        }
    }
    true
}

fn deep_equal_fn(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(deep_equal(arg_any(args, 0), arg_any(args, 1))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotemplate::value::Version;

    fn call(name: &str, args: &[Value]) -> Result<Value, String> {
        let func = FUNCS
            .iter()
            .find(|f| f.name == name)
            .expect("function exists");
        (func.imp)(args)
    }

    fn ver(original: &str, ptr: bool) -> Value {
        Value::Semver(
            Arc::new(Version {
                major: 1,
                minor: 0,
                patch: 0,
                pre: String::new(),
                metadata: String::new(),
                original: original.into(),
            }),
            ptr,
        )
    }

    fn text(v: Result<Value, String>) -> String {
        match v {
            Ok(Value::String(s)) => s.to_string(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn types_and_kinds() {
        let cases = [
            (Value::Nil, "<nil>", "invalid"),
            (Value::Float(1.0), "float64", "float64"),
            (Value::Int(1), "int", "int"),
            (Value::Int64(1), "int64", "int64"),
            (Value::str(""), "string", "string"),
            (Value::Bool(true), "bool", "bool"),
            (Value::list(vec![]), "[]interface {}", "slice"),
            (Value::string_list(["a"]), "[]string", "slice"),
            (
                Value::dict(Default::default()),
                "map[string]interface {}",
                "map",
            ),
            (ver("1.0.0", true), "*semver.Version", "ptr"),
            (ver("1.0.0", false), "semver.Version", "struct"),
        ];
        for (v, t, k) in cases {
            assert_eq!(text(call("typeOf", std::slice::from_ref(&v))), t);
            assert_eq!(text(call("kindOf", std::slice::from_ref(&v))), k);
            assert_eq!(
                call("typeIs", &[Value::str(t), v.clone()]),
                Ok(Value::Bool(true))
            );
            assert_eq!(
                call("kindIs", &[Value::str(k), v.clone()]),
                Ok(Value::Bool(true))
            );
        }
        let v = ver("1.0.0", true);
        assert_eq!(
            call("typeIsLike", &[Value::str("semver.Version"), v.clone()]),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            call("typeIsLike", &[Value::str("*semver.Version"), v.clone()]),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            call("typeIs", &[Value::str("semver.Version"), v]),
            Ok(Value::Bool(false))
        );
        assert_eq!(
            call("typeIsLike", &[Value::str("int"), Value::Int(1)]),
            Ok(Value::Bool(true))
        );
    }

    #[test]
    fn deep_equality() {
        let t = |a: Value, b: Value| deep_equal(&a, &b);
        assert!(t(Value::Int(1), Value::Int(1)));
        assert!(!t(Value::Int(1), Value::Float(1.0)));
        assert!(!t(Value::Int(1), Value::Int64(1)));
        assert!(t(Value::Nil, Value::Nil));
        assert!(!t(Value::Nil, Value::str("")));
        assert!(t(
            Value::list(vec![Value::Int(1)]),
            Value::list(vec![Value::Int(1)])
        ));
        assert!(!t(
            Value::string_list(["a"]),
            Value::list(vec![Value::str("a")])
        ));
        assert!(!t(ver("1.0", true), ver("1.0.0", true)));
        assert!(t(ver("1.0.0", true), ver("1.0.0", true)));
        assert!(!t(ver("1.0.0", true), ver("1.0.0", false)));
        let nan = Value::Float(f64::NAN);
        assert!(!t(nan.clone(), nan.clone()));
        let l = Value::list(vec![nan.clone()]);
        assert!(t(l.clone(), l.clone()));
        assert!(!t(l, Value::list(vec![nan])));
        let m = |k: &str, v: Value| Value::dict([(k.to_string(), v)].into_iter().collect());
        assert!(t(m("a", Value::Int(1)), m("a", Value::Int(1))));
        assert!(!t(m("a", Value::Int(1)), m("b", Value::Int(1))));
        assert!(!t(m("a", Value::Int(1)), m("a", Value::Int(2))));
        // Deep nesting is fine: no recursion.
        let chain = |leaf: Value| {
            let mut v = leaf;
            for _ in 0..100_000 {
                v = Value::list(vec![v]);
            }
            v
        };
        let (a, b, c) = (
            chain(Value::Int(1)),
            chain(Value::Int(1)),
            chain(Value::Int(2)),
        );
        assert!(deep_equal(&a, &b));
        assert!(!deep_equal(&a, &c));
        assert_eq!(
            call("deepEqual", &[Value::Int(2), Value::Int(2)]),
            Ok(Value::Bool(true))
        );
        // Value drops nested levels iteratively.
        drop((a, b, c));
    }
}
