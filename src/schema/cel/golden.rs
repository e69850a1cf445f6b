//! Replays testdata/golden/cel/*.jsonl (real cel-go output, see scripts/gen-golden-cel.py)
//! through the parser, checker and evaluator, comparing results and error texts exactly.

use std::collections::HashMap;
use std::sync::Arc;

use kube_cel::cel::Value as Cel;
use kube_cel::cel::objects::{Key, Map};
use serde_json::Value;

use super::{Env, check, eval, parse, with_big_stack};

/// `self` decoded as Go's json.Unmarshal does: every number a double.
fn plain(v: &Value) -> Cel {
    match v {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => Cel::Float(n.as_f64().unwrap_or(0.0)),
        Value::String(s) => Cel::String(Arc::new(s.clone())),
        Value::Array(a) => Cel::List(Arc::new(a.iter().map(plain).collect())),
        Value::Object(o) => {
            let map: HashMap<Key, Cel> = o
                .iter()
                .map(|(k, v)| (Key::String(Arc::new(k.clone())), plain(v)))
                .collect();
            Cel::Map(Map { map: Arc::new(map) })
        }
    }
}

/// A value as Go's fmt prints a cel-go `ref.Val`.
fn go_format(v: &Cel) -> String {
    match v {
        Cel::Bool(b) => b.to_string(),
        Cel::Int(i) => i.to_string(),
        Cel::UInt(u) => u.to_string(),
        Cel::Float(f) => crate::go::strconv::format_float(*f, b'g', -1),
        Cel::String(s) => s.to_string(),
        Cel::Bytes(b) => format!(
            "[{}]",
            b.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
        ),
        Cel::Null => "NULL_VALUE".into(),
        Cel::List(l) => format!(
            "[{}]",
            l.iter().map(go_format).collect::<Vec<_>>().join(", ")
        ),
        Cel::Map(m) => {
            let mut entries: Vec<String> = m
                .map
                .iter()
                .map(|(k, v)| {
                    let key = match k {
                        Key::String(s) => s.to_string(),
                        Key::Int(i) => i.to_string(),
                        Key::Uint(u) => u.to_string(),
                        Key::Bool(b) => b.to_string(),
                    };
                    format!("{key}: {}", go_format(v))
                })
                .collect();
            entries.sort();
            format!("{{{}}}", entries.join(", "))
        }
        other => match super::ops::as_type(other) {
            // cel-go prints the list and map types with their (empty) parameters.
            Some("list") => "list()".into(),
            Some("map") => "map(, )".into(),
            Some(t) => t.to_string(),
            None => format!("{other:?}"),
        },
    }
}

/// What the oracle would print for `rule` on `this`.
fn replay(rule: &str, this: &Value) -> String {
    let parsed = match parse::parse(rule) {
        Ok(p) => p,
        Err(issues) => return format!("compile error: {}", parse::render(rule, &issues)),
    };
    if let Err(issues) = check::check(&parsed, rule, None, false, Env::StoredExpressions) {
        return format!("compile error: {}", parse::render(rule, &issues));
    }
    let base = eval::base_context();
    match eval::run(&base, parsed.run(), &plain(this), None) {
        Ok(v) => format!("result: {}", go_format(&v)),
        Err(e) => format!("eval error: {e}"),
    }
}

#[test]
fn golden_cel_go_vectors() {
    let data = include_str!("../../../testdata/golden/cel/core.jsonl");
    let failures = with_big_stack(|| {
        let mut failures = Vec::new();
        let mut count = 0;
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let rule = case["rule"].as_str().unwrap_or_default();
            let go = case["go"].as_str().unwrap_or_default();
            let expected = match case.get("deviation") {
                Some(d) => {
                    assert!(
                        d["reason"].as_str().is_some_and(|r| !r.is_empty()),
                        "deviation without a reason: {rule}"
                    );
                    d["ours"].as_str().unwrap_or_default().to_string()
                }
                None => go.to_string(),
            };
            let ours = replay(rule, &case["self"]);
            count += 1;
            if ours != expected {
                failures.push(format!("rule: {rule}\n  want: {expected}\n  got:  {ours}"));
            }
        }
        assert!(count > 200, "only {count} golden cases");
        failures
    })
    .unwrap_or_else(|e| vec![e]);
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Replays testdata/golden/cel/admission.jsonl (scripts/gen-golden-cel-admission.py): what
/// ClusterClass admission says about a variable schema whose rule or messageExpression does not
/// compile, with cel-go's own text.
#[test]
fn golden_compile_errors_at_admission() {
    let data = include_str!("../../../testdata/golden/cel/admission.jsonl");
    let base = crate::k8s::field::Path::new("spec")
        .child("variables")
        .key("cpu")
        .child("schema")
        .child("openAPIV3Schema");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let want: Vec<String> = case["want"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let got: Vec<String> = super::check_rules(&case["schema"], &base, None)
            .iter()
            .map(ToString::to_string)
            .collect();
        count += 1;
        if got != want {
            failures.push(format!(
                "schema: {}\n  want: {want:#?}\n  got:  {got:#?}",
                case["schema"]
            ));
        }
    }
    assert!(count >= 20, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Replays testdata/golden/cel/cost.jsonl (scripts/gen-golden-cel-cost.py, Kubernetes' own CEL
/// cost estimators): every rule's and messageExpression's estimate exactly, and the cost and
/// compile errors ClusterClass admission reports for the schema.
#[test]
fn golden_costs_at_admission() {
    let data = include_str!("../../../testdata/golden/cel/cost.jsonl");
    let base = crate::k8s::field::Path::new("spec")
        .child("variables")
        .key("cpu")
        .child("schema")
        .child("openAPIV3Schema");
    let mut failures = Vec::new();
    let (mut cases, mut rules) = (0, 0);
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let schema = &case["schema"];
        cases += 1;
        for r in case["rules"].as_array().into_iter().flatten() {
            if r.get("error").is_some() {
                continue;
            }
            rules += 1;
            let pointer = r["pointer"].as_str().unwrap_or("");
            let Some(node) = schema.pointer(pointer) else {
                failures.push(format!("no node at {pointer}"));
                continue;
            };
            let decl = super::types::decl_of(node);
            let path = r["path"].as_str().unwrap_or("");
            let index: usize = path
                .rsplit("x-kubernetes-validations[")
                .next()
                .and_then(|t| t.split(']').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            let rule = &node["x-kubernetes-validations"][index];
            let est = |src: &str| {
                parse::parse(src)
                    .map(|p| super::cost::estimate(p.expr(), decl.as_ref()))
                    .map_err(|_| "parse error")
            };
            let got = est(rule["rule"].as_str().unwrap_or(""));
            if got != Ok(r["cost"].as_u64().unwrap_or(0)) {
                failures.push(format!(
                    "{path} {}: want {}, got {got:?}",
                    rule["rule"], r["cost"]
                ));
            }
            if let Some(want) = r["messageCost"].as_u64() {
                let got = est(rule["messageExpression"].as_str().unwrap_or(""));
                if got != Ok(want) {
                    failures.push(format!(
                        "{path} messageExpression {}: want {want}, got {got:?}",
                        rule["messageExpression"]
                    ));
                }
            }
        }
        let want: Vec<String> = case["errors"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let got: Vec<String> = super::check_rules(schema, &base, None)
            .iter()
            .map(ToString::to_string)
            .collect();
        if got != want {
            failures.push(format!(
                "schema: {schema}\n  want: {want:#?}\n  got:  {got:#?}"
            ));
        }
    }
    assert!(
        cases >= 20 && rules >= 150,
        "only {cases} cases, {rules} rules"
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Replays testdata/golden/cel/keywords.jsonl (scripts/gen-golden-cel-keywords.py, Kubernetes'
/// own CEL): rules naming fields that are CEL reserved words, plain (`self.if`, Kubernetes 1.32+)
/// or escaped (`self.__if__`), at admission and on values. The API server validates an object's
/// properties in Go map order, so a value's errors are compared as a set.
#[test]
fn golden_keyword_field_names() {
    let data = include_str!("../../../testdata/golden/cel/keywords.jsonl");
    let admission = crate::k8s::field::Path::new("spec")
        .child("variables")
        .key("cpu")
        .child("schema")
        .child("openAPIV3Schema");
    let value_path = crate::k8s::field::Path::new("spec")
        .child("topology")
        .child("variables")
        .key("cpu")
        .child("value");
    let mut failures = Vec::new();
    let (mut admitted, mut values) = (0, 0);
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let schema = &case["schema"];
        let errors = case["errors"].as_array().cloned().unwrap_or_default();
        let (mut want, mut got): (Vec<String>, Vec<String>) = match case.get("value") {
            None => {
                admitted += 1;
                let want = errors.iter().filter_map(Value::as_str).map(String::from);
                let got = super::check_rules(schema, &admission, None);
                (
                    want.collect(),
                    got.iter().map(ToString::to_string).collect(),
                )
            }
            Some(value) => {
                values += 1;
                let text = |e: &Value, k: &str| e[k].as_str().unwrap_or("").to_string();
                let want = errors.iter().map(|e| {
                    format!(
                        "{}: {}: {}",
                        text(e, "field"),
                        text(e, "type"),
                        text(e, "detail")
                    )
                });
                let got = super::validate(
                    schema,
                    value,
                    case.get("old"),
                    &value_path,
                    super::RUNTIME_CEL_COST_BUDGET,
                );
                let got = got
                    .iter()
                    .map(|e| format!("{}: {}: {}", e.path, e.kind.as_str(), e.detail));
                (want.collect(), got.collect())
            }
        };
        want.sort();
        got.sort();
        if got != want {
            failures.push(format!("case: {line}\n  want: {want:#?}\n  got:  {got:#?}"));
        }
    }
    assert!(
        admitted >= 5 && values >= 5,
        "{admitted} admission, {values} value cases"
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
