/*!
Rewriting the `cel` crate's parse tree where it differs from cel-go.

Two passes, both on the tree the parser returned:

- [`fold_unary`] corrects a parser bug: the `cel` crate turns an even run of `!` or `-`
  (`!!x`, `- -x`) into a single `!_(x)`/`-_(x)`, where cel-go folds it away to `x`. The run is
  counted in the source at the operator's offset. Every later stage (checker, cost, evaluation)
  sees the corrected tree.
- [`for_eval`] routes the operators whose `cel` crate semantics differ from cel-go's to
  functions of our own ([`super::ops`]): equality and ordering (heterogeneous equality,
  cross-type numeric ordering, type values), `in`, indexing (numeric keys and indexes of any
  numeric type), `&&`/`||` and the `all`/`exists` macros
  (cel-go's commutative error handling), negation (overflow), field selection and `has()` on
  values that are not maps, and the type names `google.protobuf.Timestamp`/`Duration`. The
  functions' names start with `@`, which no CEL identifier can, so rules cannot call them.
*/

use std::collections::BTreeMap;

use kube_cel::cel::IdedExpr;
use kube_cel::cel::common::ast::{
    CallExpr, ComprehensionExpr, EntryExpr, Expr, ListExpr, LiteralValue, MapExpr, SelectExpr,
};

/// Names of the functions [`for_eval`] calls (see [`super::ops`]).
pub(crate) mod names {
    pub const EQ: &str = "@eq";
    pub const NE: &str = "@ne";
    pub const LT: &str = "@lt";
    pub const LE: &str = "@le";
    pub const GT: &str = "@gt";
    pub const GE: &str = "@ge";
    pub const IN: &str = "@in_";
    pub const AND: &str = "@and";
    pub const OR: &str = "@or";
    pub const NEG: &str = "@neg";
    pub const SELECT: &str = "@select";
    pub const HAS: &str = "@has";
    pub const ALL: &str = "@all";
    pub const EXISTS: &str = "@exists";
    pub const ITER: &str = "@iter";
    pub const INDEX: &str = "@index";
}

/// Type names that are qualified identifiers.
pub(crate) const QUALIFIED_TYPE_NAMES: &[&str] =
    &["google.protobuf.Timestamp", "google.protobuf.Duration"];

/// Apply `f` to every direct child of `e`.
fn map_children(e: IdedExpr, f: &mut impl FnMut(IdedExpr) -> IdedExpr) -> IdedExpr {
    let expr = match e.expr {
        Expr::Call(c) => Expr::Call(CallExpr {
            func_name: c.func_name,
            target: c.target.map(|t| Box::new(f(*t))),
            args: c.args.into_iter().map(&mut *f).collect(),
        }),
        Expr::Comprehension(c) => {
            let c = *c;
            Expr::Comprehension(Box::new(ComprehensionExpr {
                iter_range: f(c.iter_range),
                iter_var: c.iter_var,
                iter_var2: c.iter_var2,
                accu_var: c.accu_var,
                accu_init: f(c.accu_init),
                loop_cond: f(c.loop_cond),
                loop_step: f(c.loop_step),
                result: f(c.result),
            }))
        }
        Expr::List(l) => Expr::List(ListExpr {
            elements: l.elements.into_iter().map(&mut *f).collect(),
            optional_indices: l.optional_indices,
        }),
        Expr::Map(m) => Expr::Map(MapExpr {
            entries: m
                .entries
                .into_iter()
                .map(|mut entry| {
                    entry.expr = match entry.expr {
                        EntryExpr::MapEntry(mut me) => {
                            me.key = f(me.key);
                            me.value = f(me.value);
                            EntryExpr::MapEntry(me)
                        }
                        EntryExpr::StructField(mut sf) => {
                            sf.value = f(sf.value);
                            EntryExpr::StructField(sf)
                        }
                    };
                    entry
                })
                .collect(),
        }),
        Expr::Select(s) => Expr::Select(SelectExpr {
            operand: Box::new(f(*s.operand)),
            field: s.field,
            test: s.test,
        }),
        other => other,
    };
    IdedExpr { id: e.id, expr }
}

/// How many `op` tokens start at byte `off` of `src` (whitespace and comments may separate
/// them).
fn op_run(src: &str, off: usize, op: u8) -> usize {
    let b = src.as_bytes();
    let mut i = off;
    let mut n = 0;
    while i < b.len() {
        match b[i] {
            c if c == op => {
                n += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    n
}

/// Whether [`fold_unary`] may change an expression of `src`: only where `!` or `-` starts a
/// run of two or more (a string literal may make this say yes in vain, never no in vain).
pub(crate) fn may_fold(src: &str) -> bool {
    src.bytes()
        .enumerate()
        .any(|(i, c)| matches!(c, b'!' | b'-') && op_run(src, i, c) >= 2)
}

/// Correct the `cel` crate's even runs of `!`/`-` (see the module docs).
pub(crate) fn fold_unary(e: IdedExpr, src: &str, offsets: &BTreeMap<u64, usize>) -> IdedExpr {
    let e = map_children(e, &mut |c| fold_unary(c, src, offsets));
    let Expr::Call(call) = &e.expr else {
        return e;
    };
    let op = match call.func_name.as_str() {
        "!_" => b'!',
        "-_" => b'-',
        _ => return e,
    };
    if call.target.is_some() || call.args.len() != 1 {
        return e;
    }
    let Some(&off) = offsets.get(&e.id) else {
        return e;
    };
    let mut run = op_run(src, off, op);
    // `- -1`: the literal may have taken the last '-' as its sign.
    if op == b'-'
        && let Expr::Literal(LiteralValue::Int(_) | LiteralValue::Double(_)) = &call.args[0].expr
        && offsets
            .get(&call.args[0].id)
            .is_some_and(|&o| src.as_bytes().get(o) == Some(&b'-'))
    {
        run = run.saturating_sub(1);
    }
    if run >= 2 && run.is_multiple_of(2) {
        let Expr::Call(call) = e.expr else {
            return e;
        };
        return call.args.into_iter().next().unwrap_or_default();
    }
    e
}

fn call(id: u64, name: &str, args: Vec<IdedExpr>) -> IdedExpr {
    IdedExpr {
        id,
        expr: Expr::Call(CallExpr {
            func_name: name.to_string(),
            target: None,
            args,
        }),
    }
}

fn string_lit(id: u64, s: &str) -> IdedExpr {
    IdedExpr {
        id,
        expr: Expr::Literal(LiteralValue::String(s.into())),
    }
}

/// `a.b.c` as a dotted name, when `e` is only identifiers and selections.
fn qualified_name(e: &IdedExpr) -> Option<String> {
    match &e.expr {
        Expr::Ident(n) => Some(n.clone()),
        Expr::Select(s) if !s.test => Some(format!("{}.{}", qualified_name(&s.operand)?, s.field)),
        _ => None,
    }
}

/// `all`/`exists` as the `cel` crate expands them: (quantifier, iteration variable, range,
/// predicate).
fn quantifier(
    c: ComprehensionExpr,
) -> Result<(&'static str, String, IdedExpr, IdedExpr), ComprehensionExpr> {
    let accu_ident = |e: &IdedExpr| matches!(&e.expr, Expr::Ident(n) if *n == c.accu_var);
    let kind = match (&c.accu_init.expr, &c.loop_step.expr) {
        (Expr::Literal(LiteralValue::Boolean(b)), Expr::Call(step))
            if c.iter_var2.is_none()
                && step.target.is_none()
                && step.args.len() == 2
                && accu_ident(&step.args[0])
                && accu_ident(&c.result) =>
        {
            match (*b.inner(), step.func_name.as_str()) {
                (false, "_||_") => names::EXISTS,
                (true, "_&&_") => names::ALL,
                _ => return Err(c),
            }
        }
        _ => return Err(c),
    };
    let Expr::Call(step) = c.loop_step.expr else {
        return Err(c);
    };
    let pred = step.args.into_iter().nth(1).unwrap_or_default();
    Ok((kind, c.iter_var, c.iter_range, pred))
}

/// The tree the evaluator runs (see the module docs).
pub(crate) fn for_eval(e: IdedExpr) -> IdedExpr {
    let id = e.id;
    // Type names written as qualified identifiers.
    if matches!(e.expr, Expr::Select(_))
        && let Some(q) = qualified_name(&e)
        && QUALIFIED_TYPE_NAMES.contains(&q.as_str())
    {
        return IdedExpr {
            id,
            expr: Expr::Ident(q),
        };
    }
    match e.expr {
        Expr::Comprehension(c) => match quantifier(*c) {
            Ok((kind, var, range, pred)) => call(
                id,
                kind,
                vec![for_eval(range), string_lit(id, &var), for_eval(pred)],
            ),
            Err(mut c) => {
                let range = std::mem::take(&mut c.iter_range);
                c.iter_range = call(range.id, names::ITER, vec![range]);
                map_children(
                    IdedExpr {
                        id,
                        expr: Expr::Comprehension(Box::new(c)),
                    },
                    &mut for_eval,
                )
            }
        },
        Expr::Select(s) => {
            let name = if s.test { names::HAS } else { names::SELECT };
            call(
                id,
                name,
                vec![for_eval(*s.operand), string_lit(id, &s.field)],
            )
        }
        Expr::Call(c) if c.target.is_none() => {
            let name = match (c.func_name.as_str(), c.args.len()) {
                ("_==_", 2) => Some(names::EQ),
                ("_!=_", 2) => Some(names::NE),
                ("_<_", 2) => Some(names::LT),
                ("_<=_", 2) => Some(names::LE),
                ("_>_", 2) => Some(names::GT),
                ("_>=_", 2) => Some(names::GE),
                ("@in", 2) => Some(names::IN),
                ("_&&_", 2) => Some(names::AND),
                ("_||_", 2) => Some(names::OR),
                ("-_", 1) => Some(names::NEG),
                ("_[_]", 2) => Some(names::INDEX),
                _ => None,
            };
            let fname = name.map_or_else(|| c.func_name.clone(), str::to_string);
            let args = c.args.into_iter().map(for_eval).collect();
            call(id, &fname, args)
        }
        other => map_children(IdedExpr { id, expr: other }, &mut for_eval),
    }
}
