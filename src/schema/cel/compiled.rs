/*!
The `x-kubernetes-validations` rules of a CRD schema, compiled once and evaluated on many objects:
the API server's `cel.NewValidator` tree and its `Validate` walk
(`apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go`).

Owns [`Validator`]: built from the raw `openAPIV3Schema` JSON, it keeps only the branches of the
schema that lead to a rule (`validator` returns nil for a subtree without rules), each node with
its CEL type (the resource root and embedded resources typed with `apiVersion`, `kind` and
`metadata.name` / `metadata.generateName`, see [`super::types::decl_of_crd`]), its compiled rules
and messageExpressions, and each rule's `fieldPath` already resolved. Evaluation is then one walk
of the value along that tree, with one runtime cost budget for the whole object.

What the walk does, as `Validator.validate` does it: `null` values are not validated; a node
whose type cannot be declared reports `rule compiler initialization error`; rules in the node's
`allOf` entries run with the node's type; transition rules (using `oldSelf`) run only where an
old value correlates — through properties and additionalProperties unless
`x-kubernetes-map-type` is neither `granular` nor `atomic`, and into the items of a
`x-kubernetes-list-type: map` list by their map keys, never into other lists — unless the rule
sets `optionalOldSelf`, which binds `oldSelf` to an optional instead.

Why compiled once: the variable-schema entry point ([`super::validate`]) compiles every rule at
every node it visits, which is right for one value but would dominate the cost of validating a
fleet of generated objects against the same few CRDs.

Why a stack check: the `cel` crate's interpreter recurses once per level of the expression tree.
The walk runs on the caller's thread when every compiled expression is shallow (at most
[`SHALLOW_DEPTH`] levels), and on a thread with a large stack ([`super::with_big_stack`]) only
otherwise, because spawning a thread per object would cost more than most objects' validation.

Not covered (the module docs of [`super`] list the evaluator's own deviations): CRD validation
ratcheting (`CRDValidationRatcheting`: errors of rules not using `oldSelf` on unchanged values
become warnings), rules inside the properties of `allOf` entries, and set / map list equality
semantics (`self == oldSelf` compares lists in order).
*/

use std::collections::BTreeMap;
use std::sync::OnceLock;

use kube_cel::cel::common::ast::{EntryExpr, Expr};
use kube_cel::cel::{Context, IdedExpr, Value as Cel};
use serde_json::Value;

use super::compile::{Compiled, compile_rule, evaluator_failure, has_rules, with_big_stack};
use super::env::{Env, MAX_MESSAGE_EXPRESSION_BYTES, PER_CALL_LIMIT};
use super::rule::{self, Rule};
use super::types::{self, Decl, Kind, decl_of_crd, escape, schema_type};
use super::{eval, value};
use crate::k8s::field::{BadValue, FieldError, Path};

/// Expression trees at most this deep are evaluated on the caller's stack (a rayon worker has
/// 2 MiB; the interpreter needs a few KiB per level). Deeper ones move to a big-stack thread.
pub(crate) const SHALLOW_DEPTH: usize = 48;

/// Schema nesting beyond which rules are not looked for (the CRD reader refuses deeper schemas
/// long before; this only keeps the compiler's recursion bounded on its own).
const MAX_SCHEMA_DEPTH: usize = 256;

/// When a [`Validator`]'s rules are compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compile {
    /// All at once, with the validator: their errors are known up front
    /// ([`Validator::compile_errors`]), as a CRD read from the input must report them.
    Eager,
    /// Each on its first evaluation: a rule at a field no object has costs nothing. For schemas
    /// known to compile cleanly and shallowly (Cluster API's built-in ones, checked by a test):
    /// [`Validator::compile_errors`] stays empty and the walk stays on the caller's stack.
    Lazy,
}

/// One rule with its compiled programs.
struct CompiledRule {
    rule: Rule,
    /// Set at build time ([`Compile::Eager`]) or on first evaluation ([`Compile::Lazy`]);
    /// either way it holds what [`compile_one`] gives for the rule and its node's type.
    compiled: OnceLock<Result<Compiled, String>>,
    /// The rule's `fieldPath`, resolved against its node (`NormalizedRuleFieldPath`).
    field_path: Option<Path>,
}

/// One schema node on the way to a rule.
struct Node {
    /// The node's CEL type; `None` where the API server cannot declare one, and for a node
    /// without rules of its own (only they read it).
    decl: Option<Decl>,
    /// The node's `type`, the bad value of evaluation errors.
    type_name: String,
    /// Whether a failed rule's bad value is omitted (objects and arrays).
    omit_value: bool,
    rules: Vec<CompiledRule>,
    /// The rules of each `allOf` entry, run with this node's type.
    all_of: Vec<Vec<CompiledRule>>,
    items: Option<Box<Node>>,
    additional: Option<Box<Node>>,
    properties: BTreeMap<String, Node>,
    /// Old values of this object's fields correlate with the new ones (`MapIsCorrelatable`).
    map_correlatable: bool,
    /// The map keys of a `x-kubernetes-list-type: map` list, to correlate old items.
    list_map_keys: Option<Vec<String>>,
}

/// The compiled `x-kubernetes-validations` of one CRD schema (see the module docs).
pub struct Validator {
    /// This validator's identity in the memory of passed rules ([`super::memo`]).
    id: u64,
    root: Node,
    /// Some expression is deeper than [`SHALLOW_DEPTH`].
    deep: bool,
    /// The rules that did not compile: where in the schema, and why.
    errors: Vec<(Path, String)>,
}

/// What compiling collects besides the tree.
struct Acc {
    when: Compile,
    max_depth: usize,
    errors: Vec<(Path, String)>,
}

impl Default for Acc {
    fn default() -> Acc {
        Acc {
            when: Compile::Eager,
            max_depth: 0,
            errors: Vec::new(),
        }
    }
}

impl std::fmt::Debug for Validator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validator")
            .field("deep", &self.deep)
            .finish_non_exhaustive()
    }
}

impl Validator {
    /// Compile every rule of the CRD schema `schema` (a resource's `openAPIV3Schema`).
    /// `Ok(None)` when it has none; `Err` only when the compiler itself failed.
    pub fn compile(schema: &Value) -> Result<Option<Validator>, String> {
        Validator::compile_with(schema, Compile::Eager)
    }

    /// [`Validator::compile`], compiling the rules eagerly or on first use.
    pub fn compile_with(schema: &Value, when: Compile) -> Result<Option<Validator>, String> {
        if !has_rules(schema) {
            return Ok(None);
        }
        with_big_stack(|| {
            let mut acc = Acc {
                when,
                ..Acc::default()
            };
            let root_decl = decl_of_crd(schema, true);
            let root = build(schema, root_decl.as_ref(), &Path::root(), &mut acc, 0);
            root.map(|root| Validator {
                id: super::memo::next_validator_id(),
                root,
                deep: acc.max_depth > SHALLOW_DEPTH,
                errors: acc.errors,
            })
        })
    }

    /// Whether some expression is too deep for the caller's stack, so that the walk moves to a
    /// big-stack thread (known only for [`Compile::Eager`]; a lazy validator says `false`).
    pub fn needs_big_stack(&self) -> bool {
        self.deep
    }

    /// The rules that did not compile, each with its path in the schema (relative to the
    /// schema's root, e.g. `properties[spec].x-kubernetes-validations[0].rule`) and the error
    /// every object with a value there will be refused with.
    pub fn compile_errors(&self) -> &[(Path, String)] {
        &self.errors
    }

    /// Evaluate the rules against `value` (and `old` for transition rules) at `path`, with
    /// `budget` as the runtime cost budget of the whole value (`RuntimeCELCostBudget`).
    pub fn validate(
        &self,
        value: &Value,
        old: Option<&Value>,
        path: &Path,
        budget: u64,
    ) -> Vec<FieldError> {
        let run = |base: &Context<'static>| {
            let mut w = Walk {
                validator: self.id,
                base,
                remaining: i64::try_from(budget).unwrap_or(i64::MAX),
                errs: Vec::new(),
            };
            w.node(&self.root, value, old, path);
            w.errs
        };
        if self.deep {
            return with_big_stack(|| run(&eval::base_context()))
                .unwrap_or_else(|e| evaluator_failure(path, e));
        }
        thread_local! {
            // Building the function table costs more than most objects' rules.
            static BASE: Context<'static> = eval::base_context();
        }
        BASE.with(|base| run(base))
    }
}

fn embedded(s: &Value) -> bool {
    s.get("x-kubernetes-embedded-resource")
        .and_then(Value::as_bool)
        == Some(true)
}

/// What rule `r` compiles to at a node of type `decl` (`None`: the API server cannot declare
/// one); an empty error for an empty rule, which is skipped.
fn compile_one(r: &Rule, decl: Option<&Decl>) -> Result<Compiled, String> {
    match decl {
        None => Err(
            "rule compiler initialization error: failed to convert to declType for CEL validation rules"
                .to_string(),
        ),
        Some(_) if r.rule.trim().is_empty() => Err(String::new()),
        Some(d) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compile_rule(r, Some(d), Env::StoredExpressions, Env::StoredExpressions)
        }))
        .unwrap_or_else(|_| Err("compilation failed: internal error".to_string()))
        .map_err(|e| format!("rule compile error: {e}")),
    }
}

impl CompiledRule {
    /// The rule compiled for a node of type `decl` (the node's own, as at build time): on first
    /// use for a lazy validator, on a big stack as [`Validator::compile`] does.
    fn compiled(&self, decl: Option<&Decl>) -> &Result<Compiled, String> {
        self.compiled.get_or_init(|| {
            with_big_stack(|| compile_one(&self.rule, decl)).unwrap_or_else(|_| {
                Err("rule compile error: compilation failed: internal error".to_string())
            })
        })
    }
}

/// Compile the rules of `s` (of type `decl`) and collect the depth of their expressions; with
/// [`Compile::Lazy`], only the rules that need no compiler (no type) are settled here.
fn compile_rules(
    s: &Value,
    rules: Vec<Rule>,
    decl: Option<&Decl>,
    at: &Path,
    acc: &mut Acc,
) -> Vec<CompiledRule> {
    rules
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let cell = OnceLock::new();
            if acc.when == Compile::Eager || decl.is_none() {
                let compiled = compile_one(&r, decl);
                match &compiled {
                    Ok(c) => {
                        acc.max_depth = acc.max_depth.max(expr_depth(c.parsed.run(), 0));
                        if let Some(Ok((m, _))) = &c.message {
                            acc.max_depth = acc.max_depth.max(expr_depth(m.run(), 0));
                        }
                    }
                    Err(e) if !e.is_empty() => acc.errors.push((
                        at.child("x-kubernetes-validations").index(i).child("rule"),
                        e.clone(),
                    )),
                    Err(_) => {}
                }
                let _ = cell.set(compiled);
            }
            let field_path = (!r.field_path.is_empty())
                .then(|| rule::valid_field_path(&r.field_path, s).ok())
                .flatten()
                .filter(|p| !p.is_empty());
            CompiledRule {
                rule: r,
                compiled: cell,
                field_path,
            }
        })
        .collect()
}

/// `validator(s, s, isResourceRoot, declType)`: the node for `s`, or `None` when no rule is at
/// or below it.
fn build(s: &Value, decl: Option<&Decl>, at: &Path, acc: &mut Acc, depth: usize) -> Option<Node> {
    if depth > MAX_SCHEMA_DEPTH || !s.is_object() {
        return None;
    }
    let rules = compile_rules(s, rule::rules_of(s), decl, at, acc);
    let all_of: Vec<Vec<CompiledRule>> = s
        .get("allOf")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .enumerate()
                .map(|(i, j)| {
                    let at = at.child("allOf").index(i);
                    compile_rules(s, rule::rules_of(j), decl, &at, acc)
                })
                .filter(|r| !r.is_empty())
                .collect()
        })
        .unwrap_or_default();
    // Types are borrowed down the tree and cloned only into the nodes kept (those on the way
    // to a rule): cloning every property's type at every level made compiling a large schema
    // cost its size times its depth.
    let elem = decl.and_then(Decl::elem);
    let items = s
        .get("items")
        .filter(|i| i.is_object())
        .and_then(|i| build(i, elem, &at.child("items"), acc, depth + 1))
        .map(Box::new);
    let additional = types::additional_properties(s)
        .and_then(|a| {
            let at = at.child("additionalProperties");
            build(a, elem, &at, acc, depth + 1)
        })
        .map(Box::new);
    let mut properties = BTreeMap::new();
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        for (k, p) in props {
            let own;
            let field_decl = match escape(k) {
                Some(escaped) => match decl.map(|d| &d.kind) {
                    Some(Kind::Object(fields)) => fields.get(&escaped),
                    // Fields of unknown type are left out of CEL validation entirely.
                    _ => None,
                },
                // An unescapable name is absent from the object type: type it on its own.
                None => {
                    own = decl_of_crd(p, embedded(p));
                    own.as_ref()
                }
            };
            let Some(field_decl) = field_decl else {
                continue;
            };
            let at = at.child("properties").key(k);
            if let Some(n) = build(p, Some(field_decl), &at, acc, depth + 1) {
                properties.insert(k.clone(), n);
            }
        }
    }
    if rules.is_empty()
        && all_of.is_empty()
        && items.is_none()
        && additional.is_none()
        && properties.is_empty()
    {
        return None;
    }
    let type_name = schema_type(s).to_string();
    let map_type = s.get("x-kubernetes-map-type").and_then(Value::as_str);
    let list_map_keys = (s.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("map"))
        .then(|| {
            s.get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|k| {
                    k.iter()
                        .filter_map(Value::as_str)
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default()
        });
    // Only a node's own rules read its type: the nodes on the way to them keep none (cloning
    // the root's type copied the whole schema's).
    let has_own_rules = !rules.is_empty() || !all_of.is_empty();
    Some(Node {
        decl: decl.filter(|_| has_own_rules).cloned(),
        omit_value: type_name == "object" || type_name == "array",
        type_name,
        rules,
        all_of,
        items,
        additional,
        properties,
        map_correlatable: matches!(map_type, None | Some("granular" | "atomic")),
        list_map_keys,
    })
}

/// The depth of an expression tree (bounded: the parser refuses deeper input).
fn expr_depth(e: &IdedExpr, d: usize) -> usize {
    let d = d + 1;
    match &e.expr {
        Expr::Call(c) => c
            .target
            .iter()
            .map(|t| expr_depth(t, d))
            .chain(c.args.iter().map(|a| expr_depth(a, d)))
            .max()
            .unwrap_or(d),
        Expr::Comprehension(c) => [
            &c.iter_range,
            &c.accu_init,
            &c.loop_cond,
            &c.loop_step,
            &c.result,
        ]
        .into_iter()
        .map(|x| expr_depth(x, d))
        .max()
        .unwrap_or(d),
        Expr::List(l) => l
            .elements
            .iter()
            .map(|x| expr_depth(x, d))
            .max()
            .unwrap_or(d),
        Expr::Map(m) => m
            .entries
            .iter()
            .map(|entry| match &entry.expr {
                EntryExpr::MapEntry(me) => expr_depth(&me.key, d).max(expr_depth(&me.value, d)),
                EntryExpr::StructField(f) => expr_depth(&f.value, d),
            })
            .max()
            .unwrap_or(d),
        Expr::Struct(s) => s
            .entries
            .iter()
            .map(|entry| match &entry.expr {
                EntryExpr::StructField(f) => expr_depth(&f.value, d),
                EntryExpr::MapEntry(me) => expr_depth(&me.key, d).max(expr_depth(&me.value, d)),
            })
            .max()
            .unwrap_or(d),
        Expr::Select(s) => expr_depth(&s.operand, d),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => d,
    }
}

/// The old item a `x-kubernetes-list-type: map` list correlates with `item` (`makeMapList`):
/// the one whose map-key fields all equal the item's.
fn correlated_item<'o>(keys: &[String], item: &Value, old: &'o [Value]) -> Option<&'o Value> {
    let item = item.as_object()?;
    old.iter().find(|o| {
        o.as_object()
            .is_some_and(|o| keys.iter().all(|k| o.get(k) == item.get(k)))
    })
}

struct Walk<'b> {
    validator: u64,
    base: &'b Context<'static>,
    remaining: i64,
    errs: Vec<FieldError>,
}

impl Walk<'_> {
    /// `Validator.validate` for one node and below; false once the walk must stop.
    fn node(&mut self, n: &Node, v: &Value, old: Option<&Value>, path: &Path) -> bool {
        if v.is_null() {
            return true;
        }
        let old = old.filter(|o| !o.is_null());
        if !self.rules(n, &n.rules, v, old, path) {
            return false;
        }
        for rules in &n.all_of {
            if !self.rules(n, rules, v, old, path) {
                return false;
            }
        }
        match v {
            Value::Array(items) => {
                if let Some(item_node) = &n.items {
                    let old_items = old.and_then(Value::as_array);
                    for (i, item) in items.iter().enumerate() {
                        let o = match (&n.list_map_keys, old_items) {
                            (Some(keys), Some(old_items)) => correlated_item(keys, item, old_items),
                            _ => None,
                        };
                        if !self.node(item_node, item, o, &path.index(i)) {
                            return false;
                        }
                    }
                }
            }
            Value::Object(obj) => {
                let old_of = |k: &str| {
                    if n.map_correlatable {
                        old.and_then(|o| o.get(k))
                    } else {
                        None
                    }
                };
                if let Some(ap) = &n.additional {
                    for (k, child) in obj {
                        if !self.node(ap, child, old_of(k), &path.key(k)) {
                            return false;
                        }
                    }
                }
                if !n.properties.is_empty() {
                    for (k, child) in obj {
                        if let Some(p) = n.properties.get(k)
                            && !self.node(p, child, old_of(k), &path.child(k))
                        {
                            return false;
                        }
                    }
                }
            }
            _ => {}
        }
        true
    }

    fn invalid(&mut self, n: &Node, path: &Path, detail: String) {
        self.errs.push(FieldError::invalid(
            path,
            BadValue::Str(n.type_name.clone()),
            detail,
        ));
    }

    /// `validateExpressions` for one list of rules; false once the budget is spent.
    fn rules(
        &mut self,
        n: &Node,
        rules: &[CompiledRule],
        v: &Value,
        old: Option<&Value>,
        path: &Path,
    ) -> bool {
        if rules.is_empty() {
            return true;
        }
        let Some(decl) = n.decl.as_ref() else {
            // One report for the node, as the API server keeps one compilation error.
            if let Some(Err(e)) = rules.first().map(|r| r.compiled(None)) {
                self.invalid(n, path, e.clone());
            }
            return true;
        };
        if self.remaining <= 0 {
            self.invalid(
                n,
                path,
                "validation failed due to running out of cost budget, no further validation rules will be run".into(),
            );
            return false;
        }
        let key = super::memo::Key::new(self.validator, rules.as_ptr() as usize, v, old);
        if let Some(cost) = super::memo::passed(&key)
            && i64::try_from(cost).is_ok_and(|c| c <= self.remaining)
        {
            self.remaining -= i64::try_from(cost).unwrap_or(i64::MAX);
            return true;
        }
        let (errs_before, remaining_before) = (self.errs.len(), self.remaining);
        let this = value::to_cel(v, Some(decl));
        let old_cel = old.map(|o| value::to_cel(o, Some(decl)));
        for r in rules {
            let c = match r.compiled(Some(decl)) {
                Ok(c) => c,
                // An empty rule compiles to nothing and is skipped.
                Err(e) if e.is_empty() => continue,
                Err(e) => {
                    self.invalid(n, path, e.clone());
                    continue;
                }
            };
            let old_binding: Option<Cel> = if r.rule.optional_old_self {
                Some(eval::optional(self.base, old_cel.as_ref()))
            } else if c.uses_old_self {
                match &old_cel {
                    Some(o) => Some(o.clone()),
                    // Transition rules run only with a correlated old value.
                    None => continue,
                }
            } else {
                old_cel.clone()
            };
            let rt = super::cost::runtime_cost(c.parsed.expr(), Some(decl), v);
            if rt > PER_CALL_LIMIT {
                self.invalid(
                    n,
                    path,
                    format!(
                        "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                        r.rule.error_string()
                    ),
                );
                return false;
            }
            let rt = i64::try_from(rt).unwrap_or(i64::MAX);
            if rt > self.remaining {
                self.invalid(
                    n,
                    path,
                    "validation failed due to running out of cost budget, no further validation rules will be run".into(),
                );
                return false;
            }
            if let Err(m) = super::budget::charge(u64::try_from(rt).unwrap_or(0)) {
                self.invalid(n, path, m);
                return false;
            }
            self.remaining -= rt;
            match eval::run(self.base, c.parsed.run(), &this, old_binding.as_ref()) {
                Ok(Cel::Bool(true)) => continue,
                Err(e) => {
                    let detail = if e.starts_with("no such overload") {
                        format!(
                            "'{e}': call arguments did not match a supported operator, function or macro signature for rule: {}",
                            r.rule.error_string()
                        )
                    } else {
                        format!("{e} evaluating rule: {}", r.rule.error_string())
                    };
                    self.invalid(n, path, detail);
                    continue;
                }
                Ok(_) => {}
            }
            let at = match &r.field_path {
                Some(p) => path.join(p),
                None => path.clone(),
            };
            let mut detail = None;
            if let Some(Ok((mp, _))) = &c.message {
                let mrt = super::cost::runtime_cost(mp.expr(), Some(decl), v);
                let mrt = i64::try_from(mrt).unwrap_or(i64::MAX);
                if mrt > self.remaining {
                    self.invalid(
                        n,
                        &at,
                        "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run".into(),
                    );
                    return false;
                }
                if let Err(m) = super::budget::charge(u64::try_from(mrt).unwrap_or(0)) {
                    self.invalid(n, &at, m);
                    return false;
                }
                self.remaining -= mrt;
                if let Ok(m) = eval::run(self.base, mp.run(), &this, old_binding.as_ref())
                    && let Some(text) = eval::as_str(&m)
                {
                    let t = text.trim();
                    if !t.is_empty() && t.len() <= MAX_MESSAGE_EXPRESSION_BYTES && !t.contains('\n')
                    {
                        detail = Some(t.to_string());
                    }
                }
            }
            let detail = detail.unwrap_or_else(|| r.rule.message_or_default());
            let value = if n.omit_value {
                BadValue::Omit
            } else {
                BadValue::from_json_int(v)
            };
            self.errs.push(match r.rule.reason.as_deref() {
                Some("FieldValueForbidden") => FieldError::forbidden(&at, detail),
                Some("FieldValueRequired") => FieldError::required(&at, detail),
                Some("FieldValueDuplicate") => FieldError::duplicate(&at, value),
                _ => FieldError::invalid(&at, value, detail),
            });
        }
        if self.errs.len() == errs_before {
            let spent = remaining_before.saturating_sub(self.remaining);
            super::memo::remember(key, u64::try_from(spent).unwrap_or(0));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(schema: Value, v: Value, old: Option<Value>) -> Vec<String> {
        let val = Validator::compile(&schema)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("no rules"));
        val.validate(
            &v,
            old.as_ref(),
            &Path::root(),
            super::super::RUNTIME_CEL_COST_BUDGET,
        )
        .iter()
        .map(ToString::to_string)
        .collect()
    }

    #[test]
    fn no_rules_no_validator() {
        let s = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert!(matches!(Validator::compile(&s), Ok(None)));
    }

    #[test]
    fn rules_at_root_nested_and_in_maps_and_lists() {
        let s = json!({"type": "object",
            "x-kubernetes-validations": [{"rule": "self.kind == 'K' && self.metadata.name.startsWith('ok')", "message": "root"}],
            "properties": {"spec": {"type": "object", "properties": {
                "replicas": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= 0"}]},
                "m": {"type": "object", "additionalProperties": {"type": "string",
                    "x-kubernetes-validations": [{"rule": "self != 'x'", "messageExpression": "'bad ' + self"}]}},
                "l": {"type": "array", "items": {"type": "object",
                    "x-kubernetes-validations": [{"rule": "has(self.n)", "reason": "FieldValueRequired", "fieldPath": ".n"}],
                    "properties": {"n": {"type": "string"}}}}}}}});
        let v = json!({"apiVersion": "g/v1", "kind": "K", "metadata": {"name": "bad", "labels": {"a": "b"}},
            "spec": {"replicas": -1, "m": {"k": "x"}, "l": [{"n": "a"}, {}]}});
        assert_eq!(
            run(s, v, None),
            vec![
                ": Invalid value: root",
                "spec.l[1].n: Required value: failed rule: has(self.n)",
                "spec.m[k]: Invalid value: \"x\": bad x",
                "spec.replicas: Invalid value: -1: failed rule: self >= 0",
            ]
        );
    }

    #[test]
    fn root_metadata_only_declares_name_and_generate_name() {
        let s = json!({"type": "object",
            "x-kubernetes-validations": [{"rule": "size(self.metadata.labels) > 0"}]});
        let got = run(s, json!({"metadata": {"labels": {"a": "b"}}}), None);
        assert_eq!(got.len(), 1);
        assert!(
            got[0].contains("rule compile error: compilation failed"),
            "{got:?}"
        );
    }

    #[test]
    fn embedded_resources_declare_type_meta() {
        let s = json!({"type": "object", "properties": {"t": {"type": "object",
            "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
            "x-kubernetes-validations": [{"rule": "self.kind == 'Pod'"}]}}});
        assert!(run(s.clone(), json!({"t": {"kind": "Pod"}}), None).is_empty());
        assert_eq!(
            run(s, json!({"t": {"kind": "Job"}}), None),
            vec!["t: Invalid value: failed rule: self.kind == 'Pod'"]
        );
    }

    #[test]
    fn transition_rules_need_a_correlated_old_value() {
        let s = json!({"type": "object", "properties": {
            "a": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]},
            "b": {"type": "string", "x-kubernetes-validations": [
                {"rule": "oldSelf.hasValue() || self == 'init'", "optionalOldSelf": true, "message": "create with init"}]},
            "l": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer",
                    "x-kubernetes-validations": [{"rule": "self >= oldSelf", "message": "no decrease"}]}}}},
            "s": {"type": "array", "items": {"type": "object", "properties": {"v": {"type": "integer",
                    "x-kubernetes-validations": [{"rule": "self >= oldSelf", "message": "never checked"}]}}}}}});
        let v = json!({"a": "new", "b": "other", "l": [{"k": "x", "v": 1}, {"k": "y", "v": 5}],
            "s": [{"v": 0}]});
        assert_eq!(
            run(s.clone(), v.clone(), None),
            vec!["b: Invalid value: \"other\": create with init"]
        );
        let old = json!({"a": "old", "b": "x", "l": [{"k": "y", "v": 1}, {"k": "x", "v": 2}],
            "s": [{"v": 9}]});
        assert_eq!(
            run(s, v, Some(old)),
            vec![
                "a: Invalid value: \"new\": immutable",
                "l[0].v: Invalid value: 1: no decrease",
            ]
        );
    }

    #[test]
    fn untyped_nodes_report_once_and_untyped_fields_are_skipped() {
        // A field without a CEL type is left out of CEL validation entirely.
        let s = json!({"type": "object", "properties": {"x": {
            "x-kubernetes-preserve-unknown-fields": true,
            "x-kubernetes-validations": [{"rule": "false"}]}}});
        assert!(matches!(Validator::compile(&s), Ok(None)));
        // Items without a type leave their list (and so the node) without one.
        let s = json!({"type": "array", "items": {"x-kubernetes-preserve-unknown-fields": true,
            "x-kubernetes-validations": [{"rule": "true"}, {"rule": "false"}]}});
        assert_eq!(
            run(s, json!([{"a": 1}]), None),
            vec![
                "[0]: Invalid value: \"\": rule compiler initialization error: failed to convert to declType for CEL validation rules"
            ]
        );
    }

    #[test]
    fn remembered_passes_charge_the_budget_as_evaluation_does() {
        // The same rule over equal items (remembered after the first) and over distinct items
        // of the same size (each evaluated): the budget must run out at the same item.
        let s = json!({"type": "array", "items": {"type": "string",
            "x-kubernetes-validations": [{"rule": "self.startsWith('a') && self.size() == 2"}]}});
        let val = Validator::compile(&s)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("no rules"));
        let equal = json!(["aa", "aa", "aa", "aa", "aa", "aa", "aa", "aa"]);
        let distinct = json!(["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"]);
        let out = |v: &Value, budget: u64| -> Vec<String> {
            val.validate(v, None, &Path::root(), budget)
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        let mut ran_out = 0;
        for budget in 0..60 {
            let want = out(&distinct, budget);
            ran_out += usize::from(!want.is_empty());
            assert_eq!(out(&equal, budget), want, "budget {budget}");
        }
        assert!(
            (1..60).contains(&ran_out),
            "the budgets tried must cross the limit"
        );
        // A failing value is evaluated (and reported) every time.
        let bad = json!(["b", "b"]);
        assert_eq!(out(&bad, 1_000), out(&bad, 1_000));
        assert_eq!(out(&bad, 1_000).len(), 2);
    }

    #[test]
    fn shallow_rules_run_on_a_small_stack() {
        // SHALLOW_DEPTH levels of nesting must fit the smallest stack a caller is likely to have.
        let mut rule = "true".to_string();
        for _ in 0..(SHALLOW_DEPTH / 2 - 2) {
            rule = format!("(self == 1 || {rule})");
        }
        let s = json!({"type": "integer", "x-kubernetes-validations": [{"rule": rule}]});
        let val = Validator::compile(&s)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("no rules"));
        assert!(!val.deep);
        let errs = std::thread::Builder::new()
            .stack_size(512 << 10)
            .spawn(move || {
                val.validate(&json!(2), None, &Path::root(), 1_000_000)
                    .len()
            })
            .unwrap_or_else(|e| panic!("{e}"))
            .join()
            .unwrap_or_else(|_| panic!("the walk overflowed a 512 KiB stack"));
        assert_eq!(errs, 0);
    }
}
