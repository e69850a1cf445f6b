/*!
Replays `testdata/golden/crd/admit.jsonl`, produced by k8s.io/apiextensions-apiserver v0.34.9's
own pruning, defaulting, ObjectMeta and list-type code and kube-openapi's validator
(`scripts/crd-oracle`), through this module.

Per case: the pruned paths (in order), the object after decoding and defaulting (numbers
compared as float64, since Go's encoder writes `1.0` as `1`; the zero root `creationTimestamp`
the oracle keeps is left out here, see [`super::objectmeta`]), kube-openapi's raw errors (as a
multiset, as in `schema::value`'s golden test), and the embedded-resource and list-type field
errors (type, path, bad value, detail; Go's map order is random, so as a multiset). A case whose
decoding fails in the oracle (`rootMetaError`, `coerceError`) must fail here with the same text.
CEL is not part of these vectors (see `schema::cel`'s own golden vectors).
*/

use serde_json::{Value, json};

use super::structural::{Gvk, Structural};
use super::{default, embedded, listtype, objectmeta, prune};
use crate::k8s::field::{BadValue, ErrorType, FieldError, Path};
use crate::schema::value::golden::{mine, norm, sorted, theirs};
use crate::schema::value::{Mode, validate};

/// A field error as the oracle writes it; the bad value only where the message shows it.
fn field_mine(e: &FieldError) -> Value {
    let shows = !matches!(
        e.kind,
        ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::Internal
    );
    let value = match (&e.bad_value, shows) {
        (_, false) | (BadValue::Omit, _) => Value::Null,
        (BadValue::Str(s), _) => Value::String(s.clone()),
        (BadValue::Int(i), _) => Value::from(*i),
        (BadValue::Float(f), _) => {
            serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
        }
        (BadValue::Bool(b), _) => Value::Bool(*b),
        (BadValue::Json(v), _) => v.clone(),
        (BadValue::GoJson(s), _) => Value::String(s.clone()),
    };
    json!({"type": e.kind.reason(), "field": e.path.to_string(), "value": value, "detail": e.detail})
}

fn field_theirs(e: &Value) -> Value {
    let t = e["type"].as_str().unwrap_or("");
    let shows = !matches!(
        t,
        "FieldValueRequired" | "FieldValueForbidden" | "FieldValueTooLong" | "InternalError"
    );
    let value = if shows {
        e["value"].clone()
    } else {
        Value::Null
    };
    json!({"type": t, "field": e["field"], "value": value, "detail": e["detail"]})
}

fn list(v: &Value) -> Vec<Value> {
    v.as_array().cloned().unwrap_or_default()
}

/// One case; the differences found, as text.
fn run(case: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let want = &case["expected"];
    let gvk = Gvk::new("example.com", "v1", "Widget");
    let s = match Structural::compile(gvk, &case["schema"], false, &Path::new("openAPIV3Schema")) {
        Ok(s) => s,
        Err(e) => return vec![format!("schema does not compile: {e:?}")],
    };
    let mut obj = case["object"].clone();
    if let Some(e) = want.get("rootMetaError") {
        let got = objectmeta::decode(&obj["metadata"], None).err();
        if got.as_deref() != e.as_str() {
            diffs.push(format!("root metadata error: want {e}, got {got:?}"));
        }
        return diffs;
    }
    let pruned = prune(&mut obj, &s);
    if let Some(e) = want.get("coerceError") {
        let want: Vec<Value> = list(e).iter().map(field_theirs).collect();
        let got: Vec<Value> = embedded::validate_embedded(&obj, &s)
            .iter()
            .map(field_mine)
            .collect();
        for w in &want {
            if !got.contains(w) {
                diffs.push(format!("decoding error {w} not among {got:?}"));
            }
        }
        return diffs;
    }
    let want_pruned: Vec<String> = list(&want["pruned"])
        .iter()
        .filter_map(|p| p.as_str().map(String::from))
        .collect();
    if pruned != want_pruned {
        diffs.push(format!("pruned: want {want_pruned:?}, got {pruned:?}"));
    }
    default(&mut obj, &s);
    let mut want_obj = want["object"].clone();
    if want_obj.pointer("/metadata/creationTimestamp") == Some(&Value::Null)
        && let Some(m) = want_obj.get_mut("metadata").and_then(Value::as_object_mut)
    {
        m.remove("creationTimestamp");
    }
    if norm(&obj) != norm(&want_obj) {
        diffs.push(format!("object: want {want_obj}, got {obj}"));
    }
    let got = sorted(
        validate(&s.schema, &obj, Mode::CustomResource)
            .iter()
            .map(mine)
            .collect(),
    );
    let theirs = sorted(list(&want["errors"]).iter().map(theirs).collect());
    if got != theirs {
        diffs.push(format!(
            "openapi errors: want {}, got {}",
            Value::Array(theirs),
            Value::Array(got)
        ));
    }
    for (key, mine) in [
        ("embedded", embedded::validate_embedded(&obj, &s)),
        ("lists", listtype::validate_lists(&obj, &s)),
    ] {
        let got = sorted(mine.iter().map(field_mine).collect());
        let theirs = sorted(list(&want[key]).iter().map(field_theirs).collect());
        if got != theirs {
            diffs.push(format!(
                "{key}: want {}, got {}",
                Value::Array(theirs),
                Value::Array(got)
            ));
        }
    }
    diffs
}

#[test]
fn apiextensions_golden_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/golden/crd/admit.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        n += 1;
        let diffs = run(&case);
        if !diffs.is_empty() {
            failures.push(format!("{}:\n  {}", case["case"], diffs.join("\n  ")));
        }
    }
    assert!(n >= 100, "only {n} golden cases");
    assert!(
        failures.is_empty(),
        "{} of {n} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
