/*!
CEL cost: a lower bound of cel-go's static estimate, and the same model run on actual values as
the runtime budget.

cel-go estimates a rule's worst-case cost from the sizes the schema allows ([`super::types`]);
the API server rejects a rule above 10,000,000 (`StaticEstimatedCostLimit`) after multiplying by
how many times the rule can run (the product of the enclosing lists' and maps' maxItems /
maxProperties, or, under an unbounded one, what fits in a 3 MiB request). This module computes a
bound that is never above cel-go's estimate, so it only rejects rules the API server rejects too:

| node | counted | cel-go |
|---|---|---|
| literal | 0 | 0 |
| identifier, field selection | 1 | 1 |
| `has()` | 0 | 0 (`PresenceTestHasCost(false)`) |
| list / map literal | 10 / 30 + elements | same |
| `&&`, `\|\|` | both sides | both sides |
| `?:` | condition + dearer branch | same |
| `matches`, `find`, `findAll` | ⌈0.1·len(string)⌉ · ⌈0.25·len(regex)⌉ (regex length 1 unless a literal) | same, with the regex's size estimate |
| `s.contains(t)` | ⌈0.1·len(s)⌉ · ⌈0.1·len(t)⌉ + arguments | same |
| `s.startsWith(t)`, `s.endsWith(t)` | ⌈0.1·len(t)⌉ + arguments | same |
| `lowerAscii`, `upperAscii`, `trim`, `replace`, `split` on a string | ⌈0.1·len(s)⌉ + arguments | ≥ that (Kubernetes' library estimator; `replace` and `split` add their results) |
| any other call | 1 + arguments | ≥ 1 + arguments (string and list traversals cost more) |
| comprehension | range + init + n·(condition + step) + result, n = the range's largest size (0 if unknown) | same, with sizes for more expressions |
| accumulator and internal macro helpers | 0 | ≥ 0 |

Lengths are the schema's bounds (a string's `maxLength` times 4 bytes, a literal's length), and a
messageExpression is estimated the same way. So the factor in `exceeds budget by factor of …`
can be smaller than the API server's for the same rule (it is exact only beyond 100x, where both
say `more than 100x`), and rules whose cost comes from other string traversals (`==` on long
strings, concatenation, `indexOf`, `format`) or from sizes only the API server's library
estimators know (`lists.range`, `split`'s result) are not rejected.

At runtime cel-go counts actual work and the API server stops a rule past 1,000,000
(`PerCallLimit`) and a value past 10,000,000 (`RuntimeCELCostBudget`). The `cel` crate tracks no
cost, so [`runtime_cost`] applies the same model to the actual value's sizes (each list is as long
as it is, each string as long as its bytes): a full pass of every comprehension, where cel-go
would stop early for a short-circuited `all`/`exists`.
*/

use kube_cel::cel::IdedExpr;
use kube_cel::cel::common::ast::{EntryExpr, Expr, LiteralValue};
use serde_json::Value;

use super::types::{Decl, Kind, escape};

/// What the estimator knows about an expression's value.
#[derive(Clone, Default)]
struct Size<'d> {
    /// Schema node of the value, for further selections.
    decl: Option<&'d Decl>,
    /// Largest size (characters, bytes, elements).
    max: Option<u64>,
}

impl<'d> Size<'d> {
    fn of(decl: &'d Decl) -> Size<'d> {
        let max = match decl.kind {
            Kind::String | Kind::Bytes | Kind::List(_) | Kind::Map(_) | Kind::Dyn => {
                Some(decl.max_elements)
            }
            _ => None,
        };
        Size {
            decl: Some(decl),
            max,
        }
    }
}

struct Estimator<'d> {
    scopes: Vec<(String, Size<'d>)>,
}

/// The lower-bound estimate of `e` with `self`/`oldSelf` of type `self_decl`.
pub(crate) fn estimate(e: &IdedExpr, self_decl: Option<&Decl>) -> u64 {
    let s = self_decl.map(Size::of).unwrap_or_default();
    let mut est = Estimator {
        scopes: vec![("self".into(), s.clone()), ("oldSelf".into(), s)],
    };
    est.cost(e).0
}

/// The runtime cost model for `e` evaluated on `value` (typed by `decl`).
pub(crate) fn runtime_cost(e: &IdedExpr, decl: Option<&Decl>, value: &Value) -> u64 {
    let actual = actual_decl(value, decl);
    estimate(e, Some(&actual))
}

/// A declaration whose sizes are those of `value` (lists: their longest element per field).
fn actual_decl(value: &Value, decl: Option<&Decl>) -> Decl {
    let kind = decl.map(|d| &d.kind);
    match value {
        Value::String(s) => Decl {
            kind: match kind {
                Some(k @ (Kind::Bytes | Kind::Duration | Kind::Timestamp)) => k.clone(),
                _ => Kind::String,
            },
            max_elements: s.len() as u64,
            min_size: 2,
        },
        Value::Array(items) => {
            let elem_decl = decl.and_then(Decl::elem);
            let elem = items
                .iter()
                .map(|v| actual_decl(v, elem_decl))
                .reduce(merge)
                .unwrap_or(Decl {
                    kind: Kind::Dyn,
                    max_elements: 0,
                    min_size: 1,
                });
            Decl {
                kind: Kind::List(Box::new(elem)),
                max_elements: items.len() as u64,
                min_size: 2,
            }
        }
        Value::Object(obj) => match kind {
            Some(Kind::Object(fields)) => {
                let mut out = std::collections::BTreeMap::new();
                for (k, v) in obj {
                    let name = escape(k).unwrap_or_else(|| k.clone());
                    let d = actual_decl(v, fields.get(&name));
                    if let Some(plain) = super::types::keyword_field(k) {
                        out.insert(plain.to_string(), d.clone());
                    }
                    out.insert(name, d);
                }
                Decl {
                    kind: Kind::Object(out),
                    max_elements: 0,
                    min_size: 2,
                }
            }
            _ => {
                let elem_decl = decl.and_then(Decl::elem);
                let elem = obj
                    .values()
                    .map(|v| actual_decl(v, elem_decl))
                    .reduce(merge)
                    .unwrap_or(Decl {
                        kind: Kind::Dyn,
                        max_elements: 0,
                        min_size: 1,
                    });
                Decl {
                    kind: Kind::Map(Box::new(elem)),
                    max_elements: obj.len() as u64,
                    min_size: 2,
                }
            }
        },
        _ => Decl {
            kind: kind.cloned().unwrap_or(Kind::Dyn),
            max_elements: 0,
            min_size: 1,
        },
    }
}

/// The larger of two declarations of the same place.
fn merge(a: Decl, b: Decl) -> Decl {
    let max_elements = a.max_elements.max(b.max_elements);
    let kind = match (a.kind, b.kind) {
        (Kind::List(x), Kind::List(y)) => Kind::List(Box::new(merge(*x, *y))),
        (Kind::Map(x), Kind::Map(y)) => Kind::Map(Box::new(merge(*x, *y))),
        (Kind::Object(mut x), Kind::Object(y)) => {
            for (k, v) in y {
                let merged = match x.remove(&k) {
                    Some(old) => merge(old, v),
                    None => v,
                };
                x.insert(k, merged);
            }
            Kind::Object(x)
        }
        (k, _) => k,
    };
    Decl {
        kind,
        max_elements,
        min_size: a.min_size.min(b.min_size),
    }
}

/// Whether the value is known to be a string (a list's `split`-like methods are other
/// overloads).
fn kind_is_string(s: &Size<'_>) -> bool {
    matches!(s.decl.map(|d| &d.kind), Some(Kind::String)) || s.decl.is_none() && s.max.is_some()
}

fn factor(size: Option<u64>, f: f64) -> u64 {
    match size {
        Some(n) => (n as f64 * f).ceil() as u64,
        None => 0,
    }
}

impl<'d> Estimator<'d> {
    fn lookup(&self, name: &str) -> Option<Size<'d>> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s.clone())
    }

    fn cost(&mut self, e: &IdedExpr) -> (u64, Size<'d>) {
        match &e.expr {
            Expr::Literal(l) => {
                let max = match l {
                    LiteralValue::String(s) => Some(s.inner().len() as u64),
                    LiteralValue::Bytes(b) => Some(b.inner().len() as u64),
                    _ => None,
                };
                (0, Size { decl: None, max })
            }
            Expr::Ident(name) => {
                if name.starts_with('@') {
                    return (0, Size::default());
                }
                (1, self.lookup(name).unwrap_or_default())
            }
            Expr::Select(s) => {
                let (c, operand) = self.cost(&s.operand);
                let field = match operand.decl.map(|d| &d.kind) {
                    Some(Kind::Object(fields)) => fields.get(&s.field).map(Size::of),
                    Some(Kind::Map(v)) => Some(Size::of(v)),
                    _ => None,
                };
                let own = if s.test { 0 } else { 1 };
                (c.saturating_add(own), field.unwrap_or_default())
            }
            Expr::List(l) => {
                let mut c = 10u64;
                for x in &l.elements {
                    c = c.saturating_add(self.cost(x).0);
                }
                (
                    c,
                    Size {
                        decl: None,
                        max: Some(l.elements.len() as u64),
                    },
                )
            }
            Expr::Map(m) => {
                let mut c = 30u64;
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        c = c.saturating_add(self.cost(&me.key).0);
                        c = c.saturating_add(self.cost(&me.value).0);
                    }
                }
                (
                    c,
                    Size {
                        decl: None,
                        max: Some(m.entries.len() as u64),
                    },
                )
            }
            Expr::Call(call) => self.call(call),
            Expr::Comprehension(c) => {
                let (range_cost, range) = self.cost(&c.iter_range);
                let (init_cost, _) = self.cost(&c.accu_init);
                let elem = match range.decl.map(|d| &d.kind) {
                    Some(Kind::List(e)) => Size::of(e),
                    Some(Kind::Map(_)) => Size::default(),
                    Some(Kind::Object(_)) => Size::default(),
                    _ => Size::default(),
                };
                self.scopes.push((c.iter_var.clone(), elem));
                let per_iter = self
                    .cost(&c.loop_cond)
                    .0
                    .saturating_add(self.cost(&c.loop_step).0);
                self.scopes.pop();
                let (result_cost, _) = self.cost(&c.result);
                let n = range.max.unwrap_or(0);
                let total = range_cost
                    .saturating_add(init_cost)
                    .saturating_add(n.saturating_mul(per_iter))
                    .saturating_add(result_cost);
                (total, Size::default())
            }
            Expr::Struct(_) | Expr::Unspecified => (0, Size::default()),
        }
    }

    fn call(&mut self, call: &kube_cel::cel::common::ast::CallExpr) -> (u64, Size<'d>) {
        let name = call.func_name.as_str();
        let mut sizes = Vec::new();
        let mut arg_cost = 0u64;
        if let Some(t) = &call.target {
            let (c, s) = self.cost(t);
            arg_cost = arg_cost.saturating_add(c);
            sizes.push(s);
        }
        let mut costs = Vec::new();
        for a in &call.args {
            let (c, s) = self.cost(a);
            costs.push(c);
            sizes.push(s);
        }
        match name {
            "_&&_" | "_||_" | "@not_strictly_false" => {
                let c = costs.iter().fold(arg_cost, |acc, c| acc.saturating_add(*c));
                (c, Size::default())
            }
            "_?_:_" => {
                let cond = costs.first().copied().unwrap_or(0);
                let branch = costs.iter().skip(1).copied().max().unwrap_or(0);
                (cond.saturating_add(branch), Size::default())
            }
            _ => {
                let args = costs.iter().fold(arg_cost, |acc, c| acc.saturating_add(*c));
                let method = call.target.is_some();
                let own = match name {
                    "matches" | "find" | "findAll" if sizes.len() == 2 => {
                        let s = factor(sizes[0].max, 0.1).max(1);
                        let r = factor(sizes[1].max, 0.25).max(1);
                        s.saturating_mul(r)
                    }
                    // cel-go's `ContainsString`: both strings traversed, one per the other.
                    "contains" if method && sizes.len() == 2 => {
                        factor(sizes[0].max, 0.1).saturating_mul(factor(sizes[1].max, 0.1))
                    }
                    // `StartsWithString` / `EndsWithString`: the prefix (suffix) traversed.
                    "startsWith" | "endsWith" if method && sizes.len() == 2 => {
                        factor(sizes[1].max, 0.1)
                    }
                    // The Kubernetes strings library's estimator: one traversal of the receiver
                    // at least (`replace` and `split` also build their results).
                    "lowerAscii" | "upperAscii" | "trim" | "replace" | "split"
                        if method && kind_is_string(&sizes[0]) =>
                    {
                        factor(sizes[0].max, 0.1)
                    }
                    _ => 1,
                };
                (args.saturating_add(own), Size::default())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::cel::parse::parse;
    use crate::schema::cel::types::decl_of;
    use serde_json::json;

    fn est(rule: &str, schema: &Value) -> u64 {
        let p = parse(rule).unwrap();
        estimate(p.expr(), decl_of(schema).as_ref())
    }

    #[test]
    fn costs_grow_with_schema_sizes() {
        let s = json!({"type": "string", "maxLength": 10});
        assert_eq!(est("self == 'a'", &s), 2);
        // ⌈40·0.1⌉ · ⌈4·0.25⌉ + 1 (self), then a longer regex.
        assert_eq!(est("self.matches('^a+$')", &s), 4 + 1);
        assert_eq!(est("self.matches('^[a-z]+$')", &s), 4 * 2 + 1);
        let l = json!({"type": "array", "maxItems": 5, "items": {"type": "string"}});
        // range 1, init 0, 5 × (x 1 + size 1 + > 1 + &&/cond 0).
        assert_eq!(est("self.all(x, size(x) > 0)", &l), 1 + 5 * 3);
        let unbounded = json!({"type": "array", "items": {"type": "string"}});
        assert!(est("self.all(x, x.matches('^[a-z]+$'))", &unbounded) > 10_000_000);
    }

    #[test]
    fn string_functions_cost_by_the_sizes_the_schema_bounds() {
        let s = json!({"type": "string", "maxLength": 500_000});
        // 2,000,000 bytes: ⌈200,000⌉ · ⌈0.7⌉ + self.
        assert_eq!(est("self.contains('keyword')", &s), 200_000 + 1);
        assert_eq!(est("self.startsWith('keyword')", &s), 1 + 1);
        assert_eq!(est("self.endsWith('abcdefghijk')", &s), 2 + 1);
        assert_eq!(est("self.lowerAscii() == 'a'", &s), 200_000 + 1 + 1);
        assert_eq!(est("self.split(',').size() > 1", &s), 200_000 + 1 + 1 + 1);
        // Each item: 40 bytes, ⌈4⌉ · ⌈0.1⌉ + x.
        let l =
            json!({"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 10}});
        assert_eq!(est("self.all(x, x.contains('a'))", &l), 1 + 5 * (4 + 1));
        // Under an unbounded list of such strings, the rule's cost is far past the limit.
        let unbounded = json!({"type": "array", "items": {"type": "string", "maxLength": 500_000}});
        assert!(est("self.all(x, x.contains('keyword'))", &unbounded) > 100 * 10_000_000);
    }

    #[test]
    fn runtime_costs_use_actual_sizes() {
        let p = parse("self.all(x, x > 0)").unwrap();
        let d = decl_of(&json!({"type": "array", "items": {"type": "integer"}}));
        // range 1, 3 × (x 1 + > 1).
        assert_eq!(
            runtime_cost(p.expr(), d.as_ref(), &json!([1, 2, 3])),
            1 + 3 * 2
        );
    }
}
