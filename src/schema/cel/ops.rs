/*!
cel-go's semantics for the operators [`super::rewrite::for_eval`] routes here, type values, and
the conversions the `cel` crate formats differently.

- Equality is cel-go's heterogeneous equality: numbers compare by value across `int`, `uint`
  and `double` (also inside lists and maps), values of different kinds are unequal, NaN equals
  nothing.
- Ordering compares numbers across types (Kubernetes' `CrossTypeNumericComparisons`, which
  cel-go also does at run time), strings, bytes, booleans, timestamps and durations; NaN cannot
  be ordered.
- `&&`, `||`, `all` and `exists` are commutative over errors: a `false` (`&&`, `all`) or `true`
  (`||`, `exists`) anywhere decides the result; otherwise the first error (or `no such
  overload` for a non-boolean) is the result.
- `type(x)` returns a type value ([`TypeVal`]); the type identifiers (`int`, `string`, `list`,
  `map`, `null_type`, `type`, ...) are variables of the base context holding them.
*/

use std::cmp::Ordering;
use std::sync::Arc;

use kube_cel::cel::IdedExpr;
use kube_cel::cel::common::ast::{CallExpr, Expr, LiteralValue};
use kube_cel::cel::extractors::This;
use kube_cel::cel::objects::{Key, Opaque};
use kube_cel::cel::{Context, ExecutionError, FunctionContext, Value as Cel};

use super::rewrite::{QUALIFIED_TYPE_NAMES, names};

/// A CEL type as a value (`type(1)`, `int`): its cel-go name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TypeVal(pub(crate) String);

impl Opaque for TypeVal {
    fn runtime_type_name(&self) -> &str {
        "type"
    }
}

/// The type identifiers of the Kubernetes environment.
const TYPE_IDENTS: &[&str] = &[
    "int",
    "uint",
    "double",
    "bool",
    "string",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
    "optional_type",
];

/// A type value named `name`.
pub(crate) fn type_value(name: &str) -> Cel {
    Cel::Opaque(Arc::new(TypeVal(name.to_string())))
}

/// The type value of `v`, if `v` is one.
#[cfg(test)]
pub(crate) fn as_type(v: &Cel) -> Option<&str> {
    match v {
        Cel::Opaque(o) => o.downcast_ref::<TypeVal>().map(|t| t.0.as_str()),
        _ => None,
    }
}

/// cel-go's name of the type of `v`.
pub(crate) fn type_name(v: &Cel) -> String {
    match v {
        Cel::List(_) => "list".into(),
        Cel::Map(_) => "map".into(),
        Cel::Function(..) => "function".into(),
        Cel::Int(_) => "int".into(),
        Cel::UInt(_) => "uint".into(),
        Cel::Float(_) => "double".into(),
        Cel::String(_) => "string".into(),
        Cel::Bytes(_) => "bytes".into(),
        Cel::Bool(_) => "bool".into(),
        Cel::Duration(_) => "google.protobuf.Duration".into(),
        Cel::Timestamp(_) => "google.protobuf.Timestamp".into(),
        Cel::Null => "null_type".into(),
        Cel::Opaque(o) => {
            if o.downcast_ref::<TypeVal>().is_some() {
                return "type".into();
            }
            match o.runtime_type_name() {
                // Kubernetes' name for kube-cel's named formats.
                "kubernetes.Format" => "kubernetes.NamedFormat".into(),
                n => n.to_string(),
            }
        }
    }
}

/// Add the operator functions, `type()`, `string()` and the type identifiers to `ctx`.
pub(crate) fn register(ctx: &mut Context<'static>) {
    ctx.add_function(names::EQ, |f: &FunctionContext| {
        binary(f, |a, b| Ok(Cel::Bool(equal(a, b))))
    });
    ctx.add_function(names::NE, |f: &FunctionContext| {
        binary(f, |a, b| Ok(Cel::Bool(!equal(a, b))))
    });
    ctx.add_function(names::LT, |f: &FunctionContext| {
        binary(f, |a, b| Ok(Cel::Bool(compare(a, b)? == Ordering::Less)))
    });
    ctx.add_function(names::LE, |f: &FunctionContext| {
        binary(f, |a, b| Ok(Cel::Bool(compare(a, b)? != Ordering::Greater)))
    });
    ctx.add_function(names::GT, |f: &FunctionContext| {
        binary(f, |a, b| Ok(Cel::Bool(compare(a, b)? == Ordering::Greater)))
    });
    ctx.add_function(names::GE, |f: &FunctionContext| {
        binary(f, |a, b| Ok(Cel::Bool(compare(a, b)? != Ordering::Less)))
    });
    ctx.add_function(names::IN, |f: &FunctionContext| binary(f, contains));
    ctx.add_function(names::AND, |f: &FunctionContext| logic(f, false));
    ctx.add_function(names::OR, |f: &FunctionContext| logic(f, true));
    ctx.add_function(names::NEG, |f: &FunctionContext| negate(&arg(f, 0)?));
    ctx.add_function(names::SELECT, |f: &FunctionContext| select(f, false));
    ctx.add_function(names::HAS, |f: &FunctionContext| select(f, true));
    ctx.add_function(names::ALL, |f: &FunctionContext| quantify(f, false));
    ctx.add_function(names::EXISTS, |f: &FunctionContext| quantify(f, true));
    ctx.add_function(names::ITER, |f: &FunctionContext| iterable(arg(f, 0)?));
    ctx.add_function(names::INDEX, index);
    ctx.add_function("type", type_fn);
    ctx.add_function("string", string_fn);
    for name in TYPE_IDENTS.iter().chain(QUALIFIED_TYPE_NAMES) {
        ctx.add_variable_from_value(*name, type_value(name));
    }
}

/// The `i`th argument, evaluated.
fn arg(f: &FunctionContext, i: usize) -> Result<Cel, ExecutionError> {
    let e = f.args.get(i).ok_or(ExecutionError::NoSuchOverload)?;
    f.ptx.resolve(e)
}

/// A strict binary operator: both arguments evaluated, the left error first.
fn binary(
    f: &FunctionContext,
    op: impl Fn(&Cel, &Cel) -> Result<Cel, ExecutionError>,
) -> Result<Cel, ExecutionError> {
    let a = arg(f, 0)?;
    let b = arg(f, 1)?;
    op(&a, &b)
}

/// cel-go's heterogeneous equality.
pub(crate) fn equal(a: &Cel, b: &Cel) -> bool {
    match (a, b) {
        (Cel::List(x), Cel::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q))
        }
        (Cel::Map(x), Cel::Map(y)) => {
            x.map.len() == y.map.len()
                && x.map
                    .iter()
                    .all(|(k, v)| map_get(y, &Cel::from(k)).is_some_and(|w| equal(v, w)))
        }
        (
            Cel::Int(_) | Cel::UInt(_) | Cel::Float(_),
            Cel::Int(_) | Cel::UInt(_) | Cel::Float(_),
        ) => {
            matches!(numeric_cmp(a, b), Some(Ok(Ordering::Equal)))
        }
        _ => a == b,
    }
}

/// A map's value at `key`, numeric keys matching across `int`, `uint` and integral `double`
/// as in cel-go.
fn map_get<'m>(m: &'m kube_cel::cel::objects::Map, key: &Cel) -> Option<&'m Cel> {
    let keys: Vec<Key> = match key {
        Cel::String(s) => vec![Key::String(s.clone())],
        Cel::Bool(b) => vec![Key::Bool(*b)],
        Cel::Int(i) => {
            let mut k = vec![Key::Int(*i)];
            if let Ok(u) = u64::try_from(*i) {
                k.push(Key::Uint(u));
            }
            k
        }
        Cel::UInt(u) => {
            let mut k = vec![Key::Uint(*u)];
            if let Ok(i) = i64::try_from(*u) {
                k.push(Key::Int(i));
            }
            k
        }
        Cel::Float(d) if d.fract() == 0.0 && d.is_finite() => {
            let mut k = Vec::new();
            if *d >= -9.223_372_036_854_776e18 && *d < 9.223_372_036_854_776e18 {
                k.push(Key::Int(*d as i64));
            }
            if *d >= 0.0 && *d < 1.844_674_407_370_955_2e19 {
                k.push(Key::Uint(*d as u64));
            }
            k
        }
        _ => Vec::new(),
    };
    keys.iter().find_map(|k| m.map.get(k))
}

/// Numbers of any two numeric types compared as cel-go does; `None` for non-numbers,
/// `Some(Err)` for NaN.
fn numeric_cmp(a: &Cel, b: &Cel) -> Option<Result<Ordering, ExecutionError>> {
    let nan = || ExecutionError::function_error("compare", "NaN values cannot be ordered");
    let dbl = |x: f64, y: f64| x.partial_cmp(&y).ok_or_else(nan);
    Some(match (a, b) {
        (Cel::Int(x), Cel::Int(y)) => Ok(x.cmp(y)),
        (Cel::UInt(x), Cel::UInt(y)) => Ok(x.cmp(y)),
        (Cel::Float(x), Cel::Float(y)) => dbl(*x, *y),
        (Cel::Int(x), Cel::UInt(y)) => Ok(int_uint(*x, *y)),
        (Cel::UInt(x), Cel::Int(y)) => Ok(int_uint(*y, *x).reverse()),
        (Cel::Float(x), Cel::Int(y)) => double_int(*x, *y).ok_or_else(nan),
        (Cel::Int(x), Cel::Float(y)) => double_int(*y, *x).map(Ordering::reverse).ok_or_else(nan),
        (Cel::Float(x), Cel::UInt(y)) => double_uint(*x, *y).ok_or_else(nan),
        (Cel::UInt(x), Cel::Float(y)) => double_uint(*y, *x).map(Ordering::reverse).ok_or_else(nan),
        _ => return None,
    })
}

fn int_uint(i: i64, u: u64) -> Ordering {
    match u64::try_from(i) {
        Ok(i) => i.cmp(&u),
        Err(_) => Ordering::Less,
    }
}

fn double_int(d: f64, i: i64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d < i64::MIN as f64 {
        return Some(Ordering::Less);
    }
    if d > i64::MAX as f64 {
        return Some(Ordering::Greater);
    }
    d.partial_cmp(&(i as f64))
}

fn double_uint(d: f64, u: u64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d < 0.0 {
        return Some(Ordering::Less);
    }
    if d > u64::MAX as f64 {
        return Some(Ordering::Greater);
    }
    d.partial_cmp(&(u as f64))
}

/// `<` and friends.
fn compare(a: &Cel, b: &Cel) -> Result<Ordering, ExecutionError> {
    if let Some(r) = numeric_cmp(a, b) {
        return r;
    }
    match (a, b) {
        (Cel::String(x), Cel::String(y)) => Ok(x.cmp(y)),
        (Cel::Bytes(x), Cel::Bytes(y)) => Ok(x.cmp(y)),
        (Cel::Bool(x), Cel::Bool(y)) => Ok(x.cmp(y)),
        (Cel::Duration(x), Cel::Duration(y)) => Ok(x.cmp(y)),
        (Cel::Timestamp(x), Cel::Timestamp(y)) => Ok(x.cmp(y)),
        _ => Err(ExecutionError::NoSuchOverload),
    }
}

/// A key or index as cel-go prints it in errors.
fn key_text(v: &Cel) -> String {
    match v {
        Cel::Int(i) => i.to_string(),
        Cel::UInt(u) => u.to_string(),
        Cel::Float(d) => crate::go::strconv::format_float(*d, b'g', -1),
        Cel::String(s) => s.to_string(),
        Cel::Bool(b) => b.to_string(),
        other => type_name(other),
    }
}

/// `a[b]`: list indexes and map keys of any numeric type, as in cel-go.
fn index(f: &FunctionContext) -> Result<Cel, ExecutionError> {
    let a = arg(f, 0)?;
    let b = arg(f, 1)?;
    match &a {
        Cel::List(l) => {
            let i = match &b {
                Cel::Int(i) => *i,
                Cel::UInt(u) => i64::try_from(*u).unwrap_or(i64::MAX),
                Cel::Float(d) if d.fract() == 0.0 && d.abs() < 9.2e18 => *d as i64,
                Cel::Float(_) => {
                    return Err(ExecutionError::function_error(
                        "index",
                        format!("unsupported index value {} in list", key_text(&b)),
                    ));
                }
                other => {
                    return Err(ExecutionError::function_error(
                        "index",
                        format!("unsupported index type '{}' in list", type_name(other)),
                    ));
                }
            };
            usize::try_from(i)
                .ok()
                .and_then(|n| l.get(n))
                .cloned()
                .ok_or(ExecutionError::IndexOutOfBounds(b))
        }
        Cel::Map(m) => map_get(m, &b)
            .cloned()
            .ok_or_else(|| ExecutionError::NoSuchKey(Arc::new(key_text(&b)))),
        // Optional values and library types: the `cel` crate's own indexing.
        Cel::Opaque(_) => {
            let mut scope = f.ptx.new_inner_scope();
            scope.add_variable_from_value("@a", a);
            scope.add_variable_from_value("@b", b);
            let ident = |n: &str| IdedExpr {
                id: 0,
                expr: Expr::Ident(n.to_string()),
            };
            scope.resolve(&IdedExpr {
                id: 0,
                expr: Expr::Call(CallExpr {
                    func_name: "_[_]".into(),
                    target: None,
                    args: vec![ident("@a"), ident("@b")],
                }),
            })
        }
        _ => Err(ExecutionError::NoSuchKey(Arc::new(key_text(&b)))),
    }
}

/// `a in b`.
fn contains(a: &Cel, b: &Cel) -> Result<Cel, ExecutionError> {
    match b {
        Cel::List(l) => Ok(Cel::Bool(l.iter().any(|x| equal(a, x)))),
        Cel::Map(m) => Ok(Cel::Bool(map_get(m, a).is_some())),
        _ => Err(ExecutionError::NoSuchOverload),
    }
}

/// `||` (`decisive` true) or `&&` (false) over the arguments.
fn logic(f: &FunctionContext, decisive: bool) -> Result<Cel, ExecutionError> {
    let mut first_error = None;
    for e in f.args {
        if let Some(v) = absorb(f.ptx.resolve(e), decisive, &mut first_error) {
            return Ok(v);
        }
    }
    first_error.map_or(Ok(Cel::Bool(!decisive)), Err)
}

/// One term of `||`/`&&`: the result when it decides it; otherwise remember the first error.
fn absorb(
    v: Result<Cel, ExecutionError>,
    decisive: bool,
    first_error: &mut Option<ExecutionError>,
) -> Option<Cel> {
    match v {
        Ok(Cel::Bool(b)) if b == decisive => return Some(Cel::Bool(decisive)),
        Ok(Cel::Bool(_)) => {}
        Ok(_) => {
            first_error.get_or_insert(ExecutionError::NoSuchOverload);
        }
        Err(e) => {
            first_error.get_or_insert(e);
        }
    }
    None
}

/// `range.exists(var, pred)` (`decisive` true) or `range.all(var, pred)`.
fn quantify(f: &FunctionContext, decisive: bool) -> Result<Cel, ExecutionError> {
    let range = arg(f, 0)?;
    let var = match f.args.get(1).map(|a| &a.expr) {
        Some(Expr::Literal(LiteralValue::String(s))) => s.inner().to_string(),
        _ => return Err(ExecutionError::NoSuchOverload),
    };
    let pred = f.args.get(2).ok_or(ExecutionError::NoSuchOverload)?;
    let items: Vec<Cel> = match iterable(range)? {
        Cel::List(l) => l.iter().cloned().collect(),
        Cel::Map(m) => m.map.keys().map(Cel::from).collect(),
        _ => return Err(ExecutionError::NoSuchOverload),
    };
    let mut first_error = None;
    for item in items {
        let mut scope = f.ptx.new_inner_scope();
        scope.add_variable_from_value(var.clone(), item);
        if let Some(v) = absorb(scope.resolve(pred), decisive, &mut first_error) {
            return Ok(v);
        }
    }
    first_error.map_or(Ok(Cel::Bool(!decisive)), Err)
}

/// The range of a comprehension: a list or a map, else cel-go's error (naming the Go type).
fn iterable(v: Cel) -> Result<Cel, ExecutionError> {
    let go = match &v {
        Cel::List(_) | Cel::Map(_) => return Ok(v),
        Cel::Int(_) => "types.Int",
        Cel::UInt(_) => "types.Uint",
        Cel::Float(_) => "types.Double",
        Cel::String(_) => "types.String",
        Cel::Bytes(_) => "types.Bytes",
        Cel::Bool(_) => "types.Bool",
        Cel::Null => "types.Null",
        Cel::Duration(_) => "types.Duration",
        Cel::Timestamp(_) => "types.Timestamp",
        Cel::Opaque(o) if o.downcast_ref::<TypeVal>().is_some() => "*types.Type",
        Cel::Opaque(o) if o.runtime_type_name() == "optional_type" => "*types.Optional",
        Cel::Opaque(_) | Cel::Function(..) => return Err(ExecutionError::NoSuchOverload),
    };
    Err(ExecutionError::function_error(
        "iter",
        format!("got '{go}', expected iterable type"),
    ))
}

/// `-x`.
fn negate(v: &Cel) -> Result<Cel, ExecutionError> {
    match v {
        Cel::Int(i) => i
            .checked_neg()
            .map(Cel::Int)
            .ok_or_else(|| ExecutionError::Overflow("negate", Cel::Int(*i), Cel::Int(0))),
        Cel::Float(d) => Ok(Cel::Float(-d)),
        _ => Err(ExecutionError::NoSuchOverload),
    }
}

/// `x.field` (`test`: `has(x.field)`).
fn select(f: &FunctionContext, test: bool) -> Result<Cel, ExecutionError> {
    let operand = arg(f, 0)?;
    let field = match f.args.get(1).map(|a| &a.expr) {
        Some(Expr::Literal(LiteralValue::String(s))) => s.inner().to_string(),
        _ => return Err(ExecutionError::NoSuchOverload),
    };
    match operand {
        Cel::Map(m) => {
            let v = m.map.get(&Key::String(Arc::new(field.clone())));
            match (test, v) {
                (true, v) => Ok(Cel::Bool(v.is_some())),
                (false, Some(v)) => Ok(v.clone()),
                (false, None) => Err(ExecutionError::NoSuchKey(Arc::new(field))),
            }
        }
        Cel::List(_) => Err(ExecutionError::function_error(
            "select",
            "unsupported index type 'string' in list",
        )),
        _ if test => Ok(Cel::Bool(false)),
        _ => Err(ExecutionError::NoSuchKey(Arc::new(field))),
    }
}

/// `type(x)`.
fn type_fn(This(v): This<Cel>) -> Result<Cel, ExecutionError> {
    Ok(type_value(&type_name(&v)))
}

/// cel-go's `string()`: Go's formatting of doubles, booleans and timestamps.
fn string_fn(This(v): This<Cel>) -> Result<Cel, ExecutionError> {
    let s = match &v {
        Cel::String(s) => return Ok(Cel::String(s.clone())),
        Cel::Int(i) => i.to_string(),
        Cel::UInt(u) => u.to_string(),
        Cel::Float(d) => crate::go::strconv::format_float(*d, b'g', -1),
        Cel::Bool(b) => b.to_string(),
        Cel::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => s.to_string(),
            Err(_) => {
                return Err(ExecutionError::function_error(
                    "string",
                    "invalid UTF-8 in bytes, cannot convert to string",
                ));
            }
        },
        Cel::Timestamp(t) => format_timestamp(t),
        Cel::Duration(d) => format_duration(d),
        other => {
            return Err(ExecutionError::function_error(
                "string",
                format!("no such overload: string({})", type_name(other)),
            ));
        }
    };
    Ok(Cel::String(Arc::new(s)))
}

/// Go's `time.RFC3339Nano`.
fn format_timestamp(t: &chrono::DateTime<chrono::FixedOffset>) -> String {
    let base = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    let nanos = chrono::Timelike::nanosecond(t) % 1_000_000_000;
    let frac = if nanos == 0 {
        String::new()
    } else {
        format!(".{nanos:09}").trim_end_matches('0').to_string()
    };
    let off = t.offset().local_minus_utc();
    let zone = if off == 0 {
        "Z".to_string()
    } else {
        let sign = if off < 0 { '-' } else { '+' };
        let a = off.unsigned_abs();
        format!("{sign}{:02}:{:02}", a / 3600, a / 60 % 60)
    };
    format!("{base}{frac}{zone}")
}

/// cel-go's duration string: seconds with up to nine fractional digits and an `s`.
fn format_duration(d: &chrono::Duration) -> String {
    let secs = d.num_seconds();
    let nanos = d.subsec_nanos();
    if nanos == 0 {
        return format!("{secs}s");
    }
    let sign = if secs < 0 || nanos < 0 { "-" } else { "" };
    let frac = format!("{:09}", nanos.unsigned_abs());
    format!(
        "{sign}{}.{}s",
        secs.unsigned_abs(),
        frac.trim_end_matches('0')
    )
}
