/*!
CEL validation rules (`x-kubernetes-validations`) of ClusterClass variable schemas: checking them
when a ClusterClass is written ([`check_rules`]) and evaluating them against variable values
([`validate`]), with the API server's messages.

Evaluation is kube-cel (the Kubernetes libraries) on the `cel` crate (the interpreter). The `cel`
crate only parses and interprets, so the API server's compile-time work is redone here: a
conservative type checker ([`check`]), the API server's static cost estimate ([`cost`]), and the
parse screening that keeps deep input off the parser's stack ([`parse`]). Where the `cel` crate's
parser or interpreter differs from cel-go, the parse tree is corrected and the operators are
routed to functions of our own ([`rewrite`], [`ops`]): even runs of `!`/`-` fold away,
equality is heterogeneous (`dyn(1) == 1.0`, also in `in`, lists, maps and map keys), ordering
compares numbers across `int`/`uint`/`double` (Kubernetes' `CrossTypeNumericComparisons`, on
since 1.28, also accepted by the checker), `&&`/`||`/`all`/`exists` absorb an error when another
term decides the result, `-` reports overflow, selecting a field of a non-map fails (`no such
key`), `type()` and the type identifiers are values, and `string()` formats as Go does. Rules that passed a value are remembered per thread ([`memo`]), so
a fleet's repeated values are evaluated once.

# Kubernetes CEL libraries

| library | status |
|---|---|
| core operators, macros (`all`, `exists`, `exists_one`, `map`, `filter`, `has`) | yes |
| `size`, conversions, `matches`, `contains`/`startsWith`/`endsWith`, timestamps and durations | yes (`size` of a string counts code points; `dyn()` added) |
| ext.Strings v2 (`charAt`, `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim`, `join`, `format`, `strings.quote`) | yes |
| Kubernetes lists (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`) | yes |
| regex (`find`, `findAll`), URLs (`url`, `isURL`, `getScheme`, …) | yes |
| quantity, IP/CIDR, named formats (`format.dns1123Label()`, `.validate`), semver | yes |
| ext.Sets (`sets.contains`, `sets.equivalent`, `sets.intersects`) | yes |
| ext.Lists v3 (`slice`, `flatten`, `distinct`, `reverse`, `sort`, `first`, `last`, `lists.range`) | yes |
| optional values (`optional.of`, `optional.none`, `.hasValue()`, `.value()`, `.orValue()`) | functions yes; the `.?`/`[?` syntax no (compile error `unsupported syntax '.?'`) |
| `sortBy`, two-variable comprehensions (`all(k, v, …)`, `transformList`, `transformMap`, `transformMapEntry`) | no: accepted by the checker (the API server knows them) and fail when run: `no such attribute: '<f>' is not supported by topoplan's CEL evaluator evaluating rule: …` |
| `type()` and type identifiers as values (`type(x) == int`, `null_type`, `type`, `google.protobuf.Timestamp`, …) | yes (see [`ops`]) |
| authz (`authorizer`) | no (no `authorizer` variable in CRD rules anyway) |

kube-cel's extra functions that Kubernetes lacks (`isIPv4`, `isCIDRv6`, …) are rejected by the
checker as undeclared, as the API server would. `cel.bind` is not in the Kubernetes base
environment, so it is rejected as `undeclared reference to 'cel'`, as there.

# Environments

[`Env::NewExpressions`] is the API server's n-1 compatibility environment (Kubernetes 1.35 for
Cluster API built on 1.36 libraries) and [`Env::StoredExpressions`] the newest (1.36). Each
function records the minor version that introduced it; every library above came before 1.35, so
today both environments declare the same functions.

# Deviations from the API server

- Compile errors: the checker reports only what it can type with certainty; argument types of
  most library functions are not checked (those of ext.Strings members on a string and of the
  string-argument functions are), so such rules compile and fail at run time instead
  (`no such overload`). Syntax errors name the expected tokens as the Rust ANTLR runtime computes
  them; after a complete operand the operators it lists are dropped, as cel-go's runtime never
  lists them there (`expecting <EOF>`, `expecting ':'`), but other sets can still differ.
- The parser refuses more than 90 nested brackets and more than 1000 chained operators
  (cel-go: recursion limit 250); both are far beyond real rules.
- Static costs are the API server's (see [`cost`]); runtime cost is the same model on actual
  sizes, where cel-go counts the work done.
- Objects are walked in key order; the API server walks Go maps in random order, so the order of
  several errors can differ.
- Left to the `cel` crate and still differing from cel-go: `substring` errors do not name the
  start index; a type value cannot be a map literal's key (`{int: 1}` fails with `no such
  overload`); comprehensions other than `all`/`exists` (`exists_one`, `map`, `filter`) are
  strict over errors, as in cel-go, but run by the `cel` crate.
- Errors that cel-go words with more detail (`no such overload: _+_`, regex compile errors)
  read as the `cel` crate words them, reduced to `no such overload` where that is the cel-go
  prefix.
*/

pub mod budget;
mod check;
mod compile;
mod compiled;
mod cost;
mod env;
mod eval;
mod memo;
mod ops;
mod parse;
mod rewrite;
mod rule;
mod types;
mod value;

use std::collections::BTreeSet;

use kube_cel::cel::{Context, Value as Cel};
use serde_json::Value;

use crate::k8s::field::{BadValue, FieldError, Path};
use compile::{compile_rule, evaluator_failure, has_rules, with_big_stack};
pub use compiled::{Compile, Validator};
use env::MAX_MESSAGE_EXPRESSION_BYTES;
pub use env::{
    Env, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, STATIC_ESTIMATED_COST_LIMIT,
    STATIC_ESTIMATED_CRD_COST_LIMIT,
};
use rule::Rule;
use types::{Decl, decl_of, schema_type};

/// Start the `cel` crate's parser in the background: its first parse in a process builds the
/// grammar's tables, which costs more than a millisecond. Called once a run knows it will compile
/// rules (`crate::pipeline` decides), before work that does not need the parser (checking the
/// input, reading CRDs), so the two overlap on a machine with a second core. The thread is not
/// waited for.
pub fn warm_up() {
    let _ = std::thread::Builder::new()
        .name("topoplan-cel-warm-up".into())
        .spawn(|| {
            let _ = kube_cel::cel::Program::compile("self");
        });
}

fn cost_error_message(name: &str, cost: u64, limit: u64) -> String {
    let f = cost as f64 / limit as f64;
    let factor = if f > 100.0 {
        "more than 100x".to_string()
    } else if f < 1.5 {
        format!("{f:.6}x")
    } else {
        format!("{f:.1}x")
    };
    format!(
        "{name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// Every rule and messageExpression anywhere in `schema` (`findPreexistingExpressions`).
fn expressions(schema: &Value, rules: &mut BTreeSet<String>, messages: &mut BTreeSet<String>) {
    match schema {
        Value::Object(m) => {
            for r in rule::rules_of(schema) {
                if !r.message_expression.is_empty() {
                    messages.insert(r.message_expression);
                }
                rules.insert(r.rule);
            }
            for (k, v) in m {
                if k != "x-kubernetes-validations"
                    && k != "default"
                    && k != "example"
                    && k != "enum"
                {
                    expressions(v, rules, messages);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| expressions(v, rules, messages)),
        _ => {}
    }
}

struct CheckCtx {
    old_rules: BTreeSet<String>,
    old_messages: BTreeSet<String>,
    total: u64,
    /// Up to four (path, cost) pairs, dearest first.
    most_expensive: Vec<(Path, u64)>,
    /// The root is an array with rules: the API server types the root of a variable schema as a
    /// resource root (`RootCELContext`), whose apiVersion/kind/metadata properties replace an
    /// array's items, so no rule of the root or below it can be typed.
    root_untyped: bool,
    /// The next node checked is the schema's root: typed as a resource root, so an object's rules
    /// there compile with `self.apiVersion`, `self.kind` and `self.metadata.name` (they fail when
    /// a value is validated, where the variable is no root).
    at_root: bool,
}

impl CheckCtx {
    fn observe(&mut self, path: Path, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((path, cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(4);
    }
}

/// Compile-time checks of every x-kubernetes-validations rule in a raw JSON schema tree
/// (a ClusterClass variable's openAPIV3Schema, walked through properties, items,
/// additionalProperties — not allOf/anyOf/oneOf/not unless Kubernetes does), at `path`
/// (e.g. spec.variables[x].schema.openAPIV3Schema). `old_schema` (the same variable in the old
/// ClusterClass, on update) decides which rules are new (→ Env::NewExpressions). Reports: rule
/// blank, message/messageExpression/reason/fieldPath rules, compile errors in cel-go's wording
/// (`compilation failed: ERROR: <input>:1:3: undeclared reference to 'ip' …` with caret lines),
/// messageExpression compile errors, cost limits (StaticEstimatedCostLimit, the per-schema total),
/// oldSelf on the uncorrelatable portion (under items), and example/enum/default values checked
/// with CEL where CAPI does.
///
/// Defaults are not checked here: Cluster API checks them with the structural defaulting
/// validation (see [`validate`], which callers run on each default, first with the default as
/// its own old value and, if that passes, without one). Rules inside `allOf`/`anyOf`/`oneOf`/`not`
/// get the field checks only; the structural checks reject them anyway.
pub fn check_rules(schema: &Value, path: &Path, old_schema: Option<&Value>) -> Vec<FieldError> {
    // Most schemas have no rules: skip the evaluation thread for them.
    if !has_rules(schema) {
        return Vec::new();
    }
    let result = with_big_stack(|| {
        let mut ctx = CheckCtx {
            old_rules: BTreeSet::new(),
            old_messages: BTreeSet::new(),
            total: 0,
            most_expensive: Vec::new(),
            at_root: true,
            root_untyped: schema_type(schema) == "array"
                && !rule::rules_of(schema).is_empty()
                && schema
                    .get("x-kubernetes-int-or-string")
                    .and_then(Value::as_bool)
                    != Some(true),
        };
        if let Some(old) = old_schema {
            expressions(old, &mut ctx.old_rules, &mut ctx.old_messages);
        }
        let (schema_errs, cel_errs) = check_node(schema, path, Some(1), None, true, &mut ctx);
        let mut all: Vec<FieldError> = schema_errs;
        all.extend(cel_errs);
        if ctx.total > STATIC_ESTIMATED_CRD_COST_LIMIT {
            for (p, _) in &ctx.most_expensive {
                all.push(FieldError::forbidden(
                    p,
                    "contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema",
                ));
            }
            all.push(FieldError::forbidden(
                path,
                cost_error_message(
                    "x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema",
                    ctx.total,
                    STATIC_ESTIMATED_CRD_COST_LIMIT,
                ),
            ));
        }
        all
    });
    result.unwrap_or_else(|e| evaluator_failure(path, e))
}

/// Most elements a node's value can have, for cardinality (`extractMaxElements`).
fn max_elements(s: &Value) -> Option<u64> {
    let int = |k: &str| s.get(k).and_then(Value::as_i64).map(|n| n.max(0) as u64);
    match schema_type(s) {
        "object" if types::additional_properties(s).is_some() => int("maxProperties"),
        "array" => int("maxItems"),
        _ => Some(1),
    }
}

/// `validateSchema` for one node: (schema errors, CEL errors).
fn check_node(
    s: &Value,
    path: &Path,
    cardinality: Option<u64>,
    uncorrelatable: Option<&Path>,
    cel: bool,
    ctx: &mut CheckCtx,
) -> (Vec<FieldError>, Vec<FieldError>) {
    let root = std::mem::replace(&mut ctx.at_root, false);
    let mut schema_errs = Vec::new();
    let mut cel_errs = Vec::new();
    let mut add = |(a, b): (Vec<FieldError>, Vec<FieldError>)| {
        schema_errs.extend(a);
        cel_errs.extend(b);
    };
    let child_card = |s: &Value| -> Option<u64> {
        let parent = cardinality?;
        Some(parent.saturating_mul(max_elements(s)?))
    };
    if let Some(ap) = types::additional_properties(s) {
        add(check_node(
            ap,
            &path.child("additionalProperties"),
            child_card(s),
            uncorrelatable,
            cel,
            ctx,
        ));
    }
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            add(check_node(
                p,
                &path.child("properties").key(name),
                child_card(s),
                uncorrelatable,
                cel,
                ctx,
            ));
        }
    }
    if let Some(items) = s.get("items").filter(|i| i.is_object()) {
        let items_path = path.child("items");
        let unc = uncorrelatable
            .cloned()
            .unwrap_or_else(|| items_path.clone());
        add(check_node(
            items,
            &items_path,
            child_card(s),
            Some(&unc),
            cel,
            ctx,
        ));
    }
    if let Some(not) = s.get("not").filter(|n| n.is_object()) {
        add(check_node(
            not,
            &path.child("not"),
            None,
            uncorrelatable,
            false,
            ctx,
        ));
    }
    for junctor in ["allOf", "oneOf", "anyOf"] {
        if let Some(list) = s.get(junctor).and_then(Value::as_array) {
            for (i, j) in list.iter().enumerate() {
                add(check_node(
                    j,
                    &path.child(junctor).index(i),
                    None,
                    uncorrelatable,
                    false,
                    ctx,
                ));
            }
        }
    }
    let rules = rule::rules_of(s);
    if rules.is_empty() {
        return (schema_errs, cel_errs);
    }
    let xv = path.child("x-kubernetes-validations");
    for (i, r) in rules.iter().enumerate() {
        schema_errs.extend(rule::check_fields(r, s, &xv.index(i)));
    }
    if schema_errs.is_empty() && cel {
        let decl = if root {
            types::decl_of_crd(s, true)
        } else {
            decl_of(s)
        };
        match decl {
            _ if ctx.root_untyped => cel_errs.push(FieldError::internal(
                &xv,
                "internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations",
            )),
            None => cel_errs.push(FieldError::internal(
                &xv,
                "internal error: failed to retrieve type information for x-kubernetes-validations",
            )),
            Some(decl) => {
                let card = cardinality.unwrap_or_else(|| {
                    let sz = decl.min_size.saturating_add(1).max(1);
                    (types::MAX_REQUEST_SIZE_BYTES / sz) as u64
                });
                for (i, r) in rules.iter().enumerate() {
                    check_compiled(
                        r,
                        &decl,
                        &xv.index(i),
                        card,
                        uncorrelatable,
                        ctx,
                        &mut cel_errs,
                    );
                }
            }
        }
    }
    if !schema_errs.is_empty() || !cel_errs.is_empty() || !cel {
        return (schema_errs, cel_errs);
    }
    // Examples and enum values must pass the node's rules (and those below it).
    if let Some(example) = s.get("example") {
        cel_errs.extend(validate_inner(
            s,
            example,
            None,
            &path.child("example"),
            RUNTIME_CEL_COST_BUDGET,
        ));
    }
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        for (i, v) in values.iter().enumerate() {
            cel_errs.extend(validate_inner(
                s,
                v,
                None,
                &path.child("enum").index(i),
                RUNTIME_CEL_COST_BUDGET,
            ));
        }
    }
    (schema_errs, cel_errs)
}

#[allow(clippy::too_many_arguments)]
fn check_compiled(
    r: &Rule,
    decl: &Decl,
    at: &Path,
    cardinality: u64,
    uncorrelatable: Option<&Path>,
    ctx: &mut CheckCtx,
    errs: &mut Vec<FieldError>,
) {
    if r.rule.trim().is_empty() {
        return;
    }
    let rule_env = if ctx.old_rules.contains(&r.rule) {
        Env::StoredExpressions
    } else {
        Env::NewExpressions
    };
    let msg_env = if ctx.old_messages.contains(&r.message_expression) {
        Env::StoredExpressions
    } else {
        Env::NewExpressions
    };
    let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        compile_rule(r, Some(decl), rule_env, msg_env)
    }))
    .unwrap_or_else(|_| Err("compilation failed: internal error".to_string()));
    let rule_path = at.child("rule");
    match compiled {
        Err(detail) => {
            // A failed compilation has no cost (0 observed).
            ctx.observe(rule_path.clone(), 0);
            errs.push(FieldError::invalid(&rule_path, r.bad_value(), detail));
        }
        Ok(c) => {
            let cost = c.cost.saturating_mul(cardinality);
            if cost > STATIC_ESTIMATED_COST_LIMIT {
                errs.push(FieldError::forbidden(
                    &rule_path,
                    cost_error_message("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT),
                ));
            }
            ctx.observe(rule_path.clone(), cost);
            match &c.message {
                Some(Err(detail)) => errs.push(FieldError::invalid(
                    &at.child("messageExpression"),
                    r.bad_value(),
                    detail.clone(),
                )),
                Some(Ok((_, mcost))) => {
                    let mcost = mcost.saturating_mul(cardinality);
                    let mpath = at.child("messageExpression");
                    if mcost > STATIC_ESTIMATED_COST_LIMIT {
                        errs.push(FieldError::forbidden(
                            &mpath,
                            cost_error_message(
                                "estimated messageExpression cost",
                                mcost,
                                STATIC_ESTIMATED_COST_LIMIT,
                            ),
                        ));
                    }
                    ctx.observe(mpath, mcost);
                }
                None => {}
            }
            if c.uses_old_self
                && let Some(unc) = uncorrelatable
            {
                errs.push(FieldError::invalid(
                    &rule_path,
                    r.rule.as_str(),
                    format!(
                        "oldSelf cannot be used on the uncorrelatable portion of the schema within {unc}"
                    ),
                ));
            }
        }
    }
}

/// Evaluate every rule in `schema` against `value` (and `old` for transition rules: rules using
/// oldSelf run only when `old` is Some) at `path`, with a total runtime cost budget
/// (RuntimeCELCostBudget 10,000,000; PerCallLimit 1,000,000). Failure messages: messageExpression
/// result if non-blank single-line, else trimmed message, else `failed rule: <trimmed rule>`;
/// error type from `reason`; `fieldPath` appended to the path; self is bound per node
/// (properties, items → `[i]`, additionalProperties → `[key]`, as Kubernetes does). BadValue as
/// Kubernetes gives it (callers may overwrite it).
pub fn validate(
    schema: &Value,
    value: &Value,
    old: Option<&Value>,
    path: &Path,
    budget: u64,
) -> Vec<FieldError> {
    if !has_rules(schema) {
        return Vec::new();
    }
    with_big_stack(|| validate_inner(schema, value, old, path, budget))
        .unwrap_or_else(|e| evaluator_failure(path, e))
}

fn validate_inner(
    schema: &Value,
    value: &Value,
    old: Option<&Value>,
    path: &Path,
    budget: u64,
) -> Vec<FieldError> {
    let base = eval::base_context();
    let mut w = Walker {
        base,
        remaining: i64::try_from(budget).unwrap_or(i64::MAX),
        errs: Vec::new(),
    };
    w.node(schema, value, old, path);
    w.errs
}

struct Walker {
    base: Context<'static>,
    remaining: i64,
    errs: Vec<FieldError>,
}

impl Walker {
    /// Validate one node and below; false once the budget is spent.
    fn node(&mut self, s: &Value, v: &Value, old: Option<&Value>, path: &Path) -> bool {
        if v.is_null() {
            return true;
        }
        let old = old.filter(|o| !o.is_null());
        let decl = decl_of(s);
        if !self.rules(s, &rule::rules_of(s), decl.as_ref(), v, old, path) {
            return false;
        }
        if let Some(list) = s.get("allOf").and_then(Value::as_array) {
            for j in list {
                if !self.rules(s, &rule::rules_of(j), decl.as_ref(), v, old, path) {
                    return false;
                }
            }
        }
        match v {
            Value::Array(items) => {
                if let Some(item_schema) = s.get("items").filter(|i| i.is_object()) {
                    for (i, item) in items.iter().enumerate() {
                        // Atomic lists: old items are not correlated.
                        if !self.node(item_schema, item, None, &path.index(i)) {
                            return false;
                        }
                    }
                }
            }
            Value::Object(obj) => {
                if let Some(ap) = types::additional_properties(s) {
                    for (k, child) in obj {
                        let o = old.and_then(|o| o.get(k));
                        if !self.node(ap, child, o, &path.key(k)) {
                            return false;
                        }
                    }
                }
                if let Some(props) = s.get("properties").and_then(Value::as_object) {
                    for (k, child) in obj {
                        if let Some(ps) = props.get(k) {
                            let o = old.and_then(|o| o.get(k));
                            if !self.node(ps, child, o, &path.child(k)) {
                                return false;
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        true
    }

    fn type_value(s: &Value) -> BadValue {
        BadValue::Str(schema_type(s).to_string())
    }

    fn out_of_budget(&mut self, s: &Value, path: &Path) -> bool {
        self.errs.push(FieldError::invalid(
            path,
            Self::type_value(s),
            "validation failed due to running out of cost budget, no further validation rules will be run",
        ));
        false
    }

    /// `validateExpressions`; false once the budget is spent.
    #[allow(clippy::too_many_arguments)]
    fn rules(
        &mut self,
        s: &Value,
        rules: &[Rule],
        decl: Option<&Decl>,
        v: &Value,
        old: Option<&Value>,
        path: &Path,
    ) -> bool {
        if rules.is_empty() {
            return true;
        }
        let Some(decl) = decl else {
            self.errs.push(FieldError::invalid(
                path,
                Self::type_value(s),
                "rule compiler initialization error: failed to convert to declType for CEL validation rules",
            ));
            return true;
        };
        if self.remaining <= 0 {
            return self.out_of_budget(s, path);
        }
        let this = value::to_cel(v, Some(decl));
        let old_cel = old.map(|o| value::to_cel(o, Some(decl)));
        for r in rules {
            if r.rule.trim().is_empty() {
                continue;
            }
            let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                compile_rule(
                    r,
                    Some(decl),
                    Env::StoredExpressions,
                    Env::StoredExpressions,
                )
            }))
            .unwrap_or_else(|_| Err("compilation failed: internal error".to_string()));
            let c = match compiled {
                Ok(c) => c,
                Err(detail) => {
                    self.errs.push(FieldError::invalid(
                        path,
                        Self::type_value(s),
                        format!("rule compile error: {detail}"),
                    ));
                    continue;
                }
            };
            let old_binding: Option<Cel> = if r.optional_old_self {
                Some(eval::optional(&self.base, old_cel.as_ref()))
            } else if c.uses_old_self {
                match &old_cel {
                    Some(o) => Some(o.clone()),
                    None => continue,
                }
            } else {
                old_cel.clone()
            };
            let rt = cost::runtime_cost(c.parsed.expr(), Some(decl), v);
            if rt > PER_CALL_LIMIT {
                self.errs.push(FieldError::invalid(
                    path,
                    Self::type_value(s),
                    format!(
                        "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                        r.error_string()
                    ),
                ));
                return false;
            }
            if i64::try_from(rt).unwrap_or(i64::MAX) > self.remaining {
                return self.out_of_budget(s, path);
            }
            if let Err(m) = budget::charge(rt) {
                self.errs
                    .push(FieldError::invalid(path, Self::type_value(s), m));
                return false;
            }
            self.remaining -= i64::try_from(rt).unwrap_or(i64::MAX);
            let result = eval::run(&self.base, c.parsed.run(), &this, old_binding.as_ref());
            match result {
                Ok(Cel::Bool(true)) => continue,
                Err(e) => {
                    let detail = if e.starts_with("no such overload") {
                        format!(
                            "'{e}': call arguments did not match a supported operator, function or macro signature for rule: {}",
                            r.error_string()
                        )
                    } else {
                        format!("{e} evaluating rule: {}", r.error_string())
                    };
                    self.errs
                        .push(FieldError::invalid(path, Self::type_value(s), detail));
                    continue;
                }
                Ok(_) => {}
            }
            let mut at = path.clone();
            if !r.field_path.is_empty()
                && let Ok(p) = rule::valid_field_path(&r.field_path, s)
                && !p.is_empty()
            {
                at = at.child(&p.to_string());
            }
            let mut detail = None;
            if let Some(Ok((mp, _))) = &c.message {
                let mrt = cost::runtime_cost(mp.expr(), Some(decl), v);
                if i64::try_from(mrt).unwrap_or(i64::MAX) > self.remaining {
                    self.errs.push(FieldError::invalid(
                        &at,
                        Self::type_value(s),
                        "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run",
                    ));
                    return false;
                }
                if let Err(m) = budget::charge(mrt) {
                    self.errs
                        .push(FieldError::invalid(&at, Self::type_value(s), m));
                    return false;
                }
                self.remaining -= i64::try_from(mrt).unwrap_or(i64::MAX);
                if let Ok(m) = eval::run(&self.base, mp.run(), &this, old_binding.as_ref())
                    && let Some(text) = eval::as_str(&m)
                {
                    let t = text.trim();
                    if !t.is_empty() && t.len() <= MAX_MESSAGE_EXPRESSION_BYTES && !t.contains('\n')
                    {
                        detail = Some(t.to_string());
                    }
                }
            }
            let detail = detail.unwrap_or_else(|| r.message_or_default());
            let value = match schema_type(s) {
                "object" | "array" => BadValue::Omit,
                _ => BadValue::from_json_int(v),
            };
            let e = match r.reason.as_deref() {
                Some("FieldValueForbidden") => FieldError::forbidden(&at, detail),
                Some("FieldValueRequired") => FieldError::required(&at, detail),
                Some("FieldValueDuplicate") => FieldError::duplicate(&at, value),
                _ => FieldError::invalid(&at, value, detail),
            };
            self.errs.push(e);
        }
        true
    }
}

#[cfg(test)]
mod golden;
#[cfg(test)]
mod tests;
