/*!
text/template's built-in functions: `and or not eq ne lt le gt ge index slice len print printf
println html js urlquery call`, with Go's argument rules and error texts.

Most built-ins take Go `reflect.Value` parameters, which means they see an argument exactly as
the executor holds it, including whether it came out of an `interface{}` slot (a value read
from JSON data) and whether it is missing. [`ExecValue`] carries that. `and`, `or` (short
circuit) and `call` (it needs the callee's spelling) are special-cased by the executor; the rest
are implemented here.
*/

use std::sync::Arc;

use super::func::Param;
use super::print::{self, sprintf, type_name};
use super::value::{GoType, Slice, Value};
use crate::go::strconv::bytes_to_string;
use crate::go::unicode::is_print;

/// A value as the executor holds it: Go's `reflect.Value`, which may be invalid (missing), a
/// nil or non-nil `interface{}` (read from a map or slice of `interface{}`), or a concrete value.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecValue {
    /// The value; `Invalid` when missing, `Nil` for a nil `interface{}`.
    pub val: Value,
    /// Whether its static type is `interface {}` (always true for `Nil`).
    pub iface: bool,
}

impl ExecValue {
    /// A missing value (Go's zero `reflect.Value`).
    pub const INVALID: ExecValue = ExecValue {
        val: Value::Invalid,
        iface: false,
    };

    /// A value of its own concrete type (a nil becomes a nil `interface{}`).
    pub fn concrete(val: Value) -> ExecValue {
        let iface = matches!(val, Value::Nil);
        ExecValue { val, iface }
    }

    /// A value held in a slot of static type `elem` (a map value or slice element).
    pub fn in_slot(val: Value, elem: &GoType) -> ExecValue {
        let iface = *elem == GoType::Interface || matches!(val, Value::Nil);
        ExecValue { val, iface }
    }

    /// Whether this is Go's zero `reflect.Value`.
    pub fn is_invalid(&self) -> bool {
        matches!(self.val, Value::Invalid)
    }

    /// Go's `indirectInterface`: the concrete value inside an interface (nil becomes missing).
    pub fn indirect_interface(&self) -> ExecValue {
        match self.val {
            Value::Nil => ExecValue::INVALID,
            _ => ExecValue {
                val: self.val.clone(),
                iface: false,
            },
        }
    }

    /// The static type's name, as Go's `reflect.Value.Type()` prints it.
    pub fn type_string(&self) -> String {
        if self.iface {
            "interface {}".into()
        } else {
            type_name(&self.val)
        }
    }

    /// The value as an `interface{}` argument receives it (missing becomes nil).
    pub fn into_any(self) -> Value {
        match self.val {
            Value::Invalid => Value::Nil,
            v => v,
        }
    }
}

/// A built-in function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `not`.
    Not,
    /// `call`.
    Call,
    /// `html`.
    Html,
    /// `js`.
    Js,
    /// `urlquery`.
    Urlquery,
    /// `index`.
    Index,
    /// `slice`.
    Slice,
    /// `len`.
    Len,
    /// `print`.
    Print,
    /// `printf`.
    Printf,
    /// `println`.
    Println,
    /// `eq`.
    Eq,
    /// `ne`.
    Ne,
    /// `lt`.
    Lt,
    /// `le`.
    Le,
    /// `gt`.
    Gt,
    /// `ge`.
    Ge,
}

/// A parameter type of a built-in (or, via [`Param`], of a user function).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgType {
    /// Go's `reflect.Value`: the argument as the executor holds it.
    Reflect,
    /// A declared Go type.
    Go(Param),
}

impl ArgType {
    /// Type name in error messages.
    pub fn name(self) -> String {
        match self {
            ArgType::Reflect => "reflect.Value".into(),
            ArgType::Go(p) => p.go_type().name(),
        }
    }
}

/// A signature: fixed parameters and the element type of a trailing `...` parameter.
pub struct Signature {
    /// Fixed parameters.
    pub params: &'static [ArgType],
    /// Variadic element type.
    pub variadic: Option<ArgType>,
}

const RV: ArgType = ArgType::Reflect;
const ANY: ArgType = ArgType::Go(Param::Any);

impl Builtin {
    /// Look a built-in up by name.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Some(match name {
            "and" => Builtin::And,
            "or" => Builtin::Or,
            "not" => Builtin::Not,
            "call" => Builtin::Call,
            "html" => Builtin::Html,
            "js" => Builtin::Js,
            "urlquery" => Builtin::Urlquery,
            "index" => Builtin::Index,
            "slice" => Builtin::Slice,
            "len" => Builtin::Len,
            "print" => Builtin::Print,
            "printf" => Builtin::Printf,
            "println" => Builtin::Println,
            "eq" => Builtin::Eq,
            "ne" => Builtin::Ne,
            "lt" => Builtin::Lt,
            "le" => Builtin::Le,
            "gt" => Builtin::Gt,
            "ge" => Builtin::Ge,
            _ => return None,
        })
    }

    /// The Go signature.
    pub fn signature(self) -> Signature {
        let (params, variadic): (&'static [ArgType], Option<ArgType>) = match self {
            Builtin::And
            | Builtin::Or
            | Builtin::Call
            | Builtin::Index
            | Builtin::Slice
            | Builtin::Eq => (&[RV], Some(RV)),
            Builtin::Not | Builtin::Len => (&[RV], None),
            Builtin::Html | Builtin::Js | Builtin::Urlquery | Builtin::Print | Builtin::Println => {
                (&[], Some(ANY))
            }
            Builtin::Printf => (&[ArgType::Go(Param::String)], Some(ANY)),
            Builtin::Ne | Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge => {
                (&[RV, RV], None)
            }
        };
        Signature { params, variadic }
    }

    /// Run the built-in on converted arguments (`and`, `or`, `call` are handled by the
    /// executor). `limit` bounds the size of printed results.
    pub fn call(self, args: Vec<ExecValue>, limit: usize) -> Result<ExecValue, String> {
        let bool_result = |b: bool| Ok(ExecValue::concrete(Value::Bool(b)));
        let mut args = args;
        match self {
            Builtin::Not => bool_result(!truth(args.first().unwrap_or(&ExecValue::INVALID))),
            Builtin::Eq => {
                let Some((first, rest)) = args.split_first() else {
                    return Err("missing argument for comparison".into());
                };
                bool_result(eq(first, rest)?)
            }
            Builtin::Ne => bool_result(!eq(arg(&args, 0), std::slice::from_ref(arg(&args, 1)))?),
            Builtin::Lt => bool_result(lt(arg(&args, 0), arg(&args, 1))?),
            Builtin::Le => bool_result(le(arg(&args, 0), arg(&args, 1))?),
            Builtin::Gt => bool_result(!le(arg(&args, 0), arg(&args, 1))?),
            Builtin::Ge => bool_result(!lt(arg(&args, 0), arg(&args, 1))?),
            Builtin::Len => length(arg(&args, 0)).map(|n| ExecValue::concrete(Value::Int(n))),
            Builtin::Index => {
                let item = if args.is_empty() {
                    ExecValue::INVALID
                } else {
                    args.remove(0)
                };
                index(item, &args)
            }
            Builtin::Slice => {
                let item = if args.is_empty() {
                    ExecValue::INVALID
                } else {
                    args.remove(0)
                };
                slice(item, &args)
            }
            Builtin::Print => {
                let vals: Vec<Value> = args.into_iter().map(ExecValue::into_any).collect();
                Ok(ExecValue::concrete(Value::str(print::sprint_limited(
                    &vals, limit,
                ))))
            }
            Builtin::Println => {
                let vals: Vec<Value> = args.into_iter().map(ExecValue::into_any).collect();
                Ok(ExecValue::concrete(Value::str(print::sprintln_limited(
                    &vals, limit,
                ))))
            }
            Builtin::Printf => {
                let mut vals: Vec<Value> = args.into_iter().map(ExecValue::into_any).collect();
                let format = if vals.is_empty() {
                    Value::str("")
                } else {
                    vals.remove(0)
                };
                let format = format.as_str().unwrap_or_default();
                Ok(ExecValue::concrete(Value::str(print::sprintf_limited(
                    format, &vals, limit,
                ))))
            }
            Builtin::Html => Ok(ExecValue::concrete(Value::str(html_escape(&eval_args(
                args, limit,
            ))))),
            Builtin::Js => Ok(ExecValue::concrete(Value::str(js_escape(&eval_args(
                args, limit,
            ))))),
            Builtin::Urlquery => Ok(ExecValue::concrete(Value::str(query_escape(&eval_args(
                args, limit,
            ))))),
            Builtin::And | Builtin::Or | Builtin::Call => Err(format!(
                "internal error: {self:?} is evaluated by the executor"
            )),
        }
    }
}

fn arg(args: &[ExecValue], i: usize) -> &ExecValue {
    args.get(i).unwrap_or(&ExecValue::INVALID)
}

/// Go's `isTrue` of the concrete value (missing and nil are false).
pub fn truth(v: &ExecValue) -> bool {
    v.indirect_interface().val.truth()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Invalid,
    Bool,
    Int,
    Float,
    String,
    Uint,
}

fn basic_kind(v: &Value) -> Kind {
    match v {
        Value::Bool(_) => Kind::Bool,
        Value::Int(_) | Value::Int64(_) => Kind::Int,
        Value::Uint64(_) => Kind::Uint,
        Value::Float(_) => Kind::Float,
        Value::String(_) => Kind::String,
        _ => Kind::Invalid,
    }
}

/// reflect.Kind for the non-basic comparison path.
fn reflect_kind(v: &Value) -> u8 {
    match v {
        Value::Invalid | Value::Nil => 0,
        Value::Slice(_) | Value::Bytes(_) => 1,
        Value::Map(_) => 2,
        Value::Semver(_, true) => 3,
        Value::Semver(_, false) => 4,
        _ => 5,
    }
}

fn int_of(v: &Value) -> i64 {
    match v {
        Value::Int(i) | Value::Int64(i) => *i,
        _ => 0,
    }
}

fn uint_of(v: &Value) -> u64 {
    match v {
        Value::Uint64(u) => *u,
        _ => 0,
    }
}

fn float_of(v: &Value) -> f64 {
    match v {
        Value::Float(f) => *f,
        _ => 0.0,
    }
}

const ERR_BAD_TYPE: &str = "invalid type for comparison";
const ERR_BAD_COMPARISON: &str = "incompatible types for comparison";

/// Go's `eq arg1 arg2...`: true if arg1 equals any of the others.
fn eq(arg1: &ExecValue, others: &[ExecValue]) -> Result<bool, String> {
    let a = arg1.indirect_interface().val;
    if others.is_empty() {
        return Err("missing argument for comparison".into());
    }
    let k1 = basic_kind(&a);
    for other in others {
        let b = other.indirect_interface().val;
        let k2 = basic_kind(&b);
        let truth = if k1 != k2 {
            match (k1, k2) {
                (Kind::Int, Kind::Uint) => int_of(&a) >= 0 && int_of(&a) as u64 == uint_of(&b),
                (Kind::Uint, Kind::Int) => int_of(&b) >= 0 && uint_of(&a) == int_of(&b) as u64,
                _ => {
                    if !matches!(a, Value::Invalid) && !matches!(b, Value::Invalid) {
                        return Err(ERR_BAD_COMPARISON.into());
                    }
                    false
                }
            }
        } else {
            match k1 {
                Kind::Bool => a == b,
                Kind::Float => float_of(&a) == float_of(&b),
                Kind::Int => int_of(&a) == int_of(&b),
                Kind::String => a.as_str() == b.as_str(),
                Kind::Uint => uint_of(&a) == uint_of(&b),
                Kind::Invalid => {
                    let (r1, r2) = (reflect_kind(&a), reflect_kind(&b));
                    if r1 != r2 && r1 != 0 && r2 != 0 {
                        return Err(sprintf(
                            "non-comparable types %s: %v, %s: %v",
                            &[
                                a.clone(),
                                Value::str(type_name(&a)),
                                Value::str(type_name(&b)),
                                b.clone(),
                            ],
                        ));
                    }
                    let (n1, n2) = (r1 == 0, r2 == 0);
                    if n1 || n2 {
                        n1 == n2
                    } else {
                        match (&a, &b) {
                            (Value::Semver(x, true), Value::Semver(y, true)) => Arc::ptr_eq(x, y),
                            (Value::Semver(x, false), Value::Semver(y, false)) => x == y,
                            _ => {
                                return Err(sprintf(
                                    "non-comparable type %s: %v",
                                    &[b.clone(), Value::str(type_name(&b))],
                                ));
                            }
                        }
                    }
                }
            }
        };
        if truth {
            return Ok(true);
        }
    }
    Ok(false)
}

fn lt(arg1: &ExecValue, arg2: &ExecValue) -> Result<bool, String> {
    let a = arg1.indirect_interface().val;
    let k1 = basic_kind(&a);
    if k1 == Kind::Invalid {
        return Err(ERR_BAD_TYPE.into());
    }
    let b = arg2.indirect_interface().val;
    let k2 = basic_kind(&b);
    if k2 == Kind::Invalid {
        return Err(ERR_BAD_TYPE.into());
    }
    if k1 != k2 {
        return match (k1, k2) {
            (Kind::Int, Kind::Uint) => Ok(int_of(&a) < 0 || (int_of(&a) as u64) < uint_of(&b)),
            (Kind::Uint, Kind::Int) => Ok(int_of(&b) >= 0 && uint_of(&a) < int_of(&b) as u64),
            _ => Err(ERR_BAD_COMPARISON.into()),
        };
    }
    Ok(match k1 {
        Kind::Bool | Kind::Invalid => return Err(ERR_BAD_TYPE.into()),
        Kind::Float => float_of(&a) < float_of(&b),
        Kind::Int => int_of(&a) < int_of(&b),
        Kind::String => a.as_str() < b.as_str(),
        Kind::Uint => uint_of(&a) < uint_of(&b),
    })
}

fn le(arg1: &ExecValue, arg2: &ExecValue) -> Result<bool, String> {
    let l = lt(arg1, arg2)?;
    if l {
        return Ok(true);
    }
    eq(arg1, std::slice::from_ref(arg2))
}

/// Go's `indexArg`: an integer index within `cap`.
fn index_arg(index: &ExecValue, cap: usize) -> Result<usize, String> {
    let x: i64 = match &index.val {
        Value::Int(i) | Value::Int64(i) if !index.iface => *i,
        Value::Uint64(u) if !index.iface => *u as i64,
        Value::Invalid => return Err("cannot index slice/array with nil".into()),
        _ => {
            return Err(format!(
                "cannot index slice/array with type {}",
                index.type_string()
            ));
        }
    };
    if x < 0 || x as u64 > cap as u64 {
        return Err(format!("index out of range: {x}"));
    }
    Ok(x as usize)
}

fn index(item: ExecValue, indexes: &[ExecValue]) -> Result<ExecValue, String> {
    let mut item = item.indirect_interface();
    if item.is_invalid() {
        return Err("index of untyped nil".into());
    }
    for idx in indexes {
        let idx = idx.indirect_interface();
        if matches!(item.val, Value::Nil) {
            return Err("index of nil pointer".into());
        }
        item = item.indirect_interface();
        item = match &item.val {
            Value::Slice(s) => {
                let x = index_arg(&idx, s.items.len())?;
                match s.items.get(x) {
                    Some(v) => ExecValue::in_slot(v.clone(), &s.elem),
                    None => return Err("reflect: slice index out of range".into()),
                }
            }
            Value::Bytes(b) => {
                let x = index_arg(&idx, b.len())?;
                match b.get(x) {
                    Some(&c) => ExecValue::concrete(Value::Uint64(u64::from(c))),
                    None => return Err("reflect: slice index out of range".into()),
                }
            }
            Value::String(s) => {
                let x = index_arg(&idx, s.len())?;
                // Go yields a uint8; this value model has no uint8, so the byte is a uint64.
                match s.as_bytes().get(x) {
                    Some(&c) => ExecValue::concrete(Value::Uint64(u64::from(c))),
                    None => return Err("reflect: string index out of range".into()),
                }
            }
            Value::Map(m) => {
                let key = match &idx.val {
                    Value::Invalid => return Err("value is nil; should be of type string".into()),
                    Value::String(k) => k,
                    other => {
                        return Err(format!(
                            "value has type {}; should be string",
                            type_name(other)
                        ));
                    }
                };
                match m.entries.get(key.as_ref()) {
                    Some(v) => ExecValue::in_slot(v.clone(), &m.elem),
                    None => ExecValue::in_slot(zero_of(&m.elem), &m.elem),
                }
            }
            other => {
                let t = match other {
                    Value::Semver(_, _) => "semver.Version".to_string(),
                    _ => type_name(other),
                };
                return Err(format!("can't index item of type {t}"));
            }
        };
    }
    Ok(item)
}

/// The zero value of a Go type (nil maps and slices are represented as empty ones).
pub fn zero_of(t: &GoType) -> Value {
    match t {
        GoType::Interface | GoType::SemverPtr => Value::Nil,
        GoType::Bool => Value::Bool(false),
        GoType::Int => Value::Int(0),
        GoType::Int64 => Value::Int64(0),
        GoType::Uint64 => Value::Uint64(0),
        GoType::Float64 => Value::Float(0.0),
        GoType::String => Value::str(""),
        GoType::Bytes => Value::Bytes(Arc::from(Vec::new())),
        GoType::Slice(e) => Value::Slice(Arc::new(Slice {
            elem: (**e).clone(),
            items: Vec::new(),
        })),
        GoType::Map(e) => Value::Map(Arc::new(super::value::Map {
            elem: (**e).clone(),
            entries: Default::default(),
        })),
        GoType::Semver => Value::Semver(
            Arc::new(super::value::Version {
                major: 0,
                minor: 0,
                patch: 0,
                pre: String::new(),
                metadata: String::new(),
                original: String::new(),
            }),
            false,
        ),
    }
}

fn slice(item: ExecValue, indexes: &[ExecValue]) -> Result<ExecValue, String> {
    let item = item.indirect_interface();
    if item.is_invalid() {
        return Err("slice of untyped nil".into());
    }
    if indexes.len() > 3 {
        return Err(format!("too many slice indexes: {}", indexes.len()));
    }
    let len = match &item.val {
        Value::String(s) => {
            if indexes.len() == 3 {
                return Err("cannot 3-index slice a string".into());
            }
            s.len()
        }
        Value::Slice(s) => s.items.len(),
        Value::Bytes(b) => b.len(),
        other => return Err(format!("can't slice item of type {}", type_name(other))),
    };
    let mut idx = [0usize, len, 0];
    for (i, x) in indexes.iter().enumerate() {
        idx[i] = index_arg(x, len)?;
    }
    if idx[0] > idx[1] {
        return Err(format!("invalid slice index: {} > {}", idx[0], idx[1]));
    }
    if indexes.len() == 3 && idx[1] > idx[2] {
        return Err(format!("invalid slice index: {} > {}", idx[1], idx[2]));
    }
    let (i, j) = (idx[0], idx[1]);
    Ok(ExecValue::concrete(match &item.val {
        Value::String(s) => Value::str(bytes_to_string(s.as_bytes()[i..j].to_vec())),
        Value::Slice(s) => Value::Slice(Arc::new(Slice {
            elem: s.elem.clone(),
            items: s.items[i..j].to_vec(),
        })),
        Value::Bytes(b) => Value::Bytes(Arc::from(&b[i..j])),
        _ => Value::Invalid,
    }))
}

fn length(item: &ExecValue) -> Result<i64, String> {
    match &item.val {
        Value::Nil => Err("len of nil pointer".into()),
        Value::Invalid => Err("reflect: call of reflect.Value.Type on zero Value".into()),
        Value::String(s) => Ok(s.len() as i64),
        Value::Bytes(b) => Ok(b.len() as i64),
        Value::Slice(s) => Ok(s.items.len() as i64),
        Value::Map(m) => Ok(m.entries.len() as i64),
        Value::Semver(..) => Err("len of type semver.Version".into()),
        other => Err(format!("len of type {}", type_name(other))),
    }
}

/// text/template's `evalArgs`: a lone string as is, else `fmt.Sprint` with missing values
/// shown as `<no value>`.
fn eval_args(args: Vec<ExecValue>, limit: usize) -> String {
    if args.len() == 1
        && let Value::String(s) = &args[0].val
    {
        return s.to_string();
    }
    let vals: Vec<Value> = args
        .into_iter()
        .map(|a| match a.val {
            Value::Invalid | Value::Nil => Value::str("<no value>"),
            v => v,
        })
        .collect();
    print::sprint_limited(&vals, limit)
}

/// Go's `template.HTMLEscapeString`.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\0' => out.push('\u{FFFD}'),
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

/// Go's `template.JSEscapeString`.
pub fn js_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            '<' => out.push_str("\\u003C"),
            '>' => out.push_str("\\u003E"),
            '&' => out.push_str("\\u0026"),
            '=' => out.push_str("\\u003D"),
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u00{:02X}", c as u32));
            }
            c if c.is_ascii() => out.push(c),
            c => {
                if is_print(c) {
                    out.push(c);
                } else {
                    out.push_str(&format!("\\u{:04X}", c as u32));
                }
            }
        }
    }
    out
}

/// Go's `url.QueryEscape`.
pub fn query_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: Value) -> ExecValue {
        ExecValue::concrete(v)
    }

    #[test]
    fn comparisons() {
        assert_eq!(
            eq(&c(Value::Float(3.0)), &[c(Value::Int(3))]),
            Err(ERR_BAD_COMPARISON.into())
        );
        assert_eq!(eq(&ExecValue::INVALID, &[c(Value::str(""))]), Ok(false));
        assert_eq!(eq(&ExecValue::INVALID, &[ExecValue::INVALID]), Ok(true));
        assert_eq!(
            eq(&c(Value::Int(1)), &[c(Value::Int(2)), c(Value::Int(1))]),
            Ok(true)
        );
        assert_eq!(eq(&c(Value::Int(1)), &[c(Value::Uint64(1))]), Ok(true));
        assert_eq!(
            lt(&ExecValue::INVALID, &c(Value::Int(1))),
            Err(ERR_BAD_TYPE.into())
        );
        assert_eq!(lt(&c(Value::str("a")), &c(Value::str("b"))), Ok(true));
        assert_eq!(
            lt(&c(Value::Bool(true)), &c(Value::Bool(false))),
            Err(ERR_BAD_TYPE.into())
        );
    }

    #[test]
    fn escapers() {
        assert_eq!(
            html_escape("<a href=\"x\">'&'</a>\0"),
            "&lt;a href=&#34;x&#34;&gt;&#39;&amp;&#39;&lt;/a&gt;\u{FFFD}"
        );
        assert_eq!(
            js_escape("a'b\"c<d>\n=é\u{2028}"),
            "a\\'b\\\"c\\u003Cd\\u003E\\u000A\\u003Dé\\u2028"
        );
        assert_eq!(query_escape("a b&c=d/é"), "a+b%26c%3Dd%2F%C3%A9");
    }

    #[test]
    fn indexing() {
        let l = c(Value::list(vec![Value::Float(1.0), Value::Nil]));
        assert_eq!(
            index(l.clone(), &[c(Value::Int(1))]).map(|v| v.val),
            Ok(Value::Nil)
        );
        assert_eq!(
            index(l.clone(), &[c(Value::Int(2))]).err().as_deref(),
            Some("reflect: slice index out of range")
        );
        assert_eq!(
            index(l.clone(), &[c(Value::Int(3))]).err().as_deref(),
            Some("index out of range: 3")
        );
        assert_eq!(
            index(l, &[c(Value::Float(0.0))]).err().as_deref(),
            Some("cannot index slice/array with type float64")
        );
        assert_eq!(length(&c(Value::str("héllo"))), Ok(6));
    }
}
