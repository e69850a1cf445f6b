/*!
Compiling one rule ([`compile_rule`]: parse, type-check, estimate its cost and its
messageExpression's), on a stack deep enough for the `cel` crate ([`with_big_stack`]), and the
internal error an evaluator failure becomes.
*/

use std::sync::Arc;

use serde_json::Value;

use super::check::{self, Ty};
use super::cost;
use super::env::Env;
use super::parse::{self, Parsed};
use super::rule::Rule;
use super::types::Decl;
use crate::k8s::field::{FieldError, Path};

/// Run `f` on a stack large enough for the `cel` crate's recursive parser and interpreter on
/// any input [`parse`] lets through.
///
/// The stack is a segment of 256 MiB mapped for the call on the calling thread (`stacker`),
/// whose pages are touched only as deep as the parser goes. A thread per call cost more (its
/// start, and the join); a pool of big-stack threads could deadlock, since a rayon worker waiting
/// for one may take up other work that needs the same rule's compiled program it is computing.
pub(super) fn with_big_stack<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| stacker::grow(256 << 20, f))).map_err(
        |p| {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("the CEL evaluator failed: {what}")
        },
    )
}

/// A failure of the evaluator itself (not of a rule) as an internal error at `path`: the
/// input is reported, never the process aborted.
pub(super) fn evaluator_failure(path: &Path, e: String) -> Vec<FieldError> {
    vec![FieldError::internal(path, e)]
}

/// A compiled rule.
pub(super) struct Compiled {
    pub(super) parsed: Arc<Parsed>,
    pub(super) uses_old_self: bool,
    pub(super) cost: u64,
    pub(super) message: Option<Result<(Arc<Parsed>, u64), String>>,
}

/// Compile `src` for a node of type `decl`: the parsed program and its type, or the issues.
pub(super) fn compile_expr<'d>(
    src: &str,
    decl: Option<&'d Decl>,
    optional_old_self: bool,
    env: Env,
) -> Result<(Arc<Parsed>, Ty<'d>), String> {
    let parsed = parse::parse(src).map_err(|i| parse::render(src, &i))?;
    let ty = check::check(&parsed, src, decl, optional_old_self, env)
        .map_err(|i| parse::render(src, &i))?;
    Ok((parsed, ty))
}

pub(super) fn compile_rule(
    r: &Rule,
    decl: Option<&Decl>,
    rule_env: Env,
    msg_env: Env,
) -> Result<Compiled, String> {
    let (parsed, ty) = compile_expr(&r.rule, decl, r.optional_old_self, rule_env)
        .map_err(|issues| format!("compilation failed: {issues}"))?;
    if ty != Ty::Bool && ty != Ty::Dyn {
        return Err("cel expression must evaluate to a bool".into());
    }
    let uses_old_self = parsed.expr().references().has_variable("oldSelf");
    let cost = cost::estimate(parsed.expr(), decl);
    let message = (!r.message_expression.is_empty()).then(|| {
        match compile_expr(&r.message_expression, decl, r.optional_old_self, msg_env) {
            Err(issues) => Err(format!("messageExpression compilation failed: {issues}")),
            Ok((_, t)) if t != Ty::Str && t != Ty::Dyn => {
                Err("messageExpression must evaluate to a string".into())
            }
            Ok((p, _)) => {
                let c = cost::estimate(p.expr(), decl);
                Ok((p, c))
            }
        }
    });
    Ok(Compiled {
        parsed,
        uses_old_self,
        cost,
        message,
    })
}

/// Whether any node of `schema` carries `x-kubernetes-validations`.
pub(super) fn has_rules(schema: &Value) -> bool {
    match schema {
        Value::Object(m) => m.contains_key("x-kubernetes-validations") || m.values().any(has_rules),
        Value::Array(a) => a.iter().any(has_rules),
        _ => false,
    }
}
