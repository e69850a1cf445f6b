//! Replays the evanphx/json-patch golden vectors (scripts/gen-golden-jsonpatch.py).

use serde_json::Value;
use topoplan::patches::jsonpatch;

fn cases(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/testdata/golden/jsonpatch/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .expect("golden file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("golden line"))
        .collect()
}

fn check(name: &str, run: impl Fn(&Value, &Value) -> (&'static str, Result<Value, String>)) {
    let mut failures = Vec::new();
    let all = cases(name);
    for c in &all {
        let want = &c["expected"];
        let (stage, got) = run(&c["doc"], &c["patch"]);
        let ok = match (&got, want["ok"].as_bool()) {
            (Ok(v), Some(true)) => v == &want["json"],
            (Err(e), Some(false)) => {
                e == want["error"].as_str().unwrap_or("")
                    && stage == want["stage"].as_str().unwrap_or("")
            }
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{}\n  got: {stage} {got:?}",
                serde_json::to_string(c).unwrap_or_default()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} {name} cases differ:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn golden_jsonpatch() {
    check(
        "jsonpatch.jsonl",
        |doc, patch| match jsonpatch::decode_patch_value(patch) {
            Err(e) => ("parse", Err(e)),
            Ok(p) => ("exec", jsonpatch::apply(&p, doc)),
        },
    );
}

#[test]
fn golden_mergepatch() {
    check("mergepatch.jsonl", |doc, patch| {
        ("exec", jsonpatch::merge_patch(doc, patch))
    });
}
