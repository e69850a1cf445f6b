/*!
Running a parsed expression: the environment, and errors in cel-go's words.

The environment is the `cel` crate's standard functions plus every Kubernetes library kube-cel
compiles in (see the crate-level table in [`super`]), with two corrections where the `cel` crate
differs from cel-go: `size()` of a string counts code points, not bytes, and `dyn()` exists.

Runtime errors are reworded as cel-go prints them (`no such key: x`, `division by zero`,
`index out of bounds: 5`, `integer overflow`, `no such overload`), so the API server's
`<error> evaluating rule: <rule>` reads the same. A panic inside the `cel` crate (it has a few
arithmetic overflows of its own) becomes an evaluation error instead of aborting.
*/

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use kube_cel::KubeCelExt;
use kube_cel::cel::extractors::This;
use kube_cel::cel::{Context, ExecutionError, FunctionContext, IdedExpr, Program, Value as Cel};

/// The base context: every function, no variables.
pub(crate) fn base_context() -> Context<'static> {
    let mut ctx = Context::default().with_all();
    ctx.add_function("size", size);
    ctx.add_function("dyn", dyn_fn);
    ctx.add_function("bool", bool_fn);
    super::ops::register(&mut ctx);
    ctx
}

/// `dyn(x)`: `x`.
fn dyn_fn(_ftx: &FunctionContext, This(v): This<Cel>) -> Result<Cel, ExecutionError> {
    Ok(v)
}

/// cel-go's `bool()`: booleans, and the strings `strconv.ParseBool` accepts.
fn bool_fn(ftx: &FunctionContext, This(v): This<Cel>) -> Result<Cel, ExecutionError> {
    match v {
        Cel::Bool(b) => Ok(Cel::Bool(b)),
        Cel::String(s) => match s.as_str() {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(Cel::Bool(true)),
            "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(Cel::Bool(false)),
            _ => Err(ftx.error("type conversion error from 'string' to 'bool'")),
        },
        _ => Err(ftx.error("no such overload")),
    }
}

/// cel-go's `size`: code points for strings.
fn size(ftx: &FunctionContext, This(this): This<Cel>) -> Result<i64, ExecutionError> {
    let n = match this {
        Cel::List(l) => l.len(),
        Cel::Map(m) => m.map.len(),
        Cel::String(s) => s.chars().count(),
        Cel::Bytes(b) => b.len(),
        _ => return Err(ftx.error("no such overload")),
    };
    Ok(i64::try_from(n).unwrap_or(i64::MAX))
}

/// Evaluate `expr` (a [`super::parse::Parsed::run`] tree) with `self` (and `oldSelf`, when
/// given) bound.
pub(crate) fn run(
    base: &Context<'static>,
    expr: &IdedExpr,
    this: &Cel,
    old: Option<&Cel>,
) -> Result<Cel, String> {
    let mut ctx = base.new_inner_scope();
    ctx.add_variable_from_value("self", this.clone());
    if let Some(o) = old {
        ctx.add_variable_from_value("oldSelf", o.clone());
    }
    match catch_unwind(AssertUnwindSafe(|| ctx.resolve(expr))) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(error_text(&e)),
        Err(_) => Err("internal error evaluating expression".to_string()),
    }
}

/// An optional holding `v` (`optional.of`), or `optional.none()`, for `optionalOldSelf` rules.
pub(crate) fn optional(base: &Context<'static>, v: Option<&Cel>) -> Cel {
    let src = if v.is_some() {
        "optional.of(v)"
    } else {
        "optional.none()"
    };
    let Ok(p) = Program::compile(src) else {
        return Cel::Null;
    };
    let mut ctx = base.new_inner_scope();
    if let Some(v) = v {
        ctx.add_variable_from_value("v", v.clone());
    }
    p.execute(&ctx).unwrap_or(Cel::Null)
}

/// cel-go's text for a runtime error.
pub(crate) fn error_text(e: &ExecutionError) -> String {
    match e {
        ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        ExecutionError::DivisionByZero(_) => "division by zero".into(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".into(),
        ExecutionError::Overflow(_, Cel::UInt(_), _)
        | ExecutionError::Overflow(_, _, Cel::UInt(_)) => "unsigned integer overflow".into(),
        ExecutionError::Overflow(..) => "integer overflow".into(),
        ExecutionError::IndexOutOfBounds(i) => match i {
            Cel::Int(n) => format!("index out of bounds: {n}"),
            Cel::UInt(n) => format!("index out of bounds: {n}"),
            other => format!("index out of bounds: {other:?}"),
        },
        ExecutionError::UndeclaredReference(name) => {
            format!("no such attribute: '{name}' is not supported by topoplan's CEL evaluator")
        }
        ExecutionError::FunctionError { function, message } => {
            function_error_text(function, message)
        }
        ExecutionError::NoSuchOverload
        | ExecutionError::UnsupportedBinaryOperator(..)
        | ExecutionError::UnsupportedUnaryOperator(..)
        | ExecutionError::ValuesNotComparable(..)
        | ExecutionError::UnsupportedTargetType { .. }
        | ExecutionError::NotSupportedAsMethod { .. }
        | ExecutionError::UnexpectedType { .. }
        | ExecutionError::UnsupportedMapIndex(_)
        | ExecutionError::UnsupportedListIndex(_)
        | ExecutionError::UnsupportedIndex(..)
        | ExecutionError::UnsupportedKeyType(_)
        | ExecutionError::InvalidArgumentCount { .. } => "no such overload".into(),
        other => other.to_string(),
    }
}

fn function_error_text(function: &str, message: &str) -> String {
    match function {
        "int" | "uint" | "double" if message.contains("parse") => {
            format!("type conversion error from 'string' to '{function}'")
        }
        "uint" if message.contains("overflow") => "unsigned integer overflow".into(),
        "duration" => "type conversion error from 'string' to 'google.protobuf.Duration'".into(),
        "timestamp" => "type conversion error from 'string' to 'google.protobuf.Timestamp'".into(),
        "charAt" | "substring" if message.contains("out of range for string") => {
            // `index 6 out of range for string of length 5`, `start index 9 …`
            let n = message
                .split_whitespace()
                .find(|w| w.chars().all(|c| c.is_ascii_digit()))
                .unwrap_or("");
            format!("index out of range: {n}")
        }
        "int" if message.contains("overflow") || message.contains("range") => {
            "integer overflow".into()
        }
        _ if message.contains("regex parse error") => {
            let last = message.lines().last().unwrap_or("").trim();
            format!(
                "error parsing regexp: {}",
                last.strip_prefix("error: ").unwrap_or(last)
            )
        }
        _ if message == "no such overload" => message.into(),
        _ => message.to_string(),
    }
}

/// A CEL string value.
pub(crate) fn as_str(v: &Cel) -> Option<Arc<String>> {
    match v {
        Cel::String(s) => Some(s.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(src: &str) -> Result<Cel, String> {
        let ctx = base_context();
        let p = super::super::parse::parse(src).map_err(|e| format!("{e:?}"))?;
        run(&ctx, p.run(), &Cel::Null, None)
    }

    #[test]
    fn runtime_errors_read_like_cel_go() {
        assert_eq!(eval("{'a': 1}['b']"), Err("no such key: b".into()));
        assert_eq!(eval("1 / 0"), Err("division by zero".into()));
        assert_eq!(eval("1 % 0"), Err("modulus by zero".into()));
        assert_eq!(eval("[1][3]"), Err("index out of bounds: 3".into()));
        assert_eq!(
            eval("9223372036854775807 + 1"),
            Err("integer overflow".into())
        );
        assert_eq!(
            eval("18446744073709551615u + 1u"),
            Err("unsigned integer overflow".into())
        );
        assert_eq!(eval("'a' + 1"), Err("no such overload".into()));
        assert_eq!(
            eval("int('x')"),
            Err("type conversion error from 'string' to 'int'".into())
        );
    }

    #[test]
    fn size_counts_code_points_and_dyn_exists() {
        assert_eq!(eval("size('héllo')"), Ok(Cel::Int(5)));
        assert_eq!(eval("'héllo'.size()"), Ok(Cel::Int(5)));
        assert_eq!(eval("dyn(1) + 1"), Ok(Cel::Int(2)));
    }

    #[test]
    fn optionals_wrap_old_values() {
        let ctx = base_context();
        let p = Program::compile("oldSelf.hasValue()").unwrap_or_else(|e| panic!("{e}"));
        let none = optional(&ctx, None);
        let some = optional(&ctx, Some(&Cel::Int(1)));
        let e = p.expression();
        assert_eq!(run(&ctx, e, &Cel::Null, Some(&none)), Ok(Cel::Bool(false)));
        assert_eq!(run(&ctx, e, &Cel::Null, Some(&some)), Ok(Cel::Bool(true)));
    }
}
