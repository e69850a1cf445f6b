//! Streaming: Clusters are written in plan order as they complete, the document stays whole and
//! byte-identical, and a failure shows on stdout only once output has started to flow.

mod common;

use common::Test;
use common::scenario::{Plan, control_plane};
use serde_json::{Value, json};

/// Three Clusters of one class, `aa-one`, `mm-two` and `zz-broken`; with `broken`, a patch that
/// applies only to `zz-broken` fails while rendering (after admission, while planning), so the
/// two before it in plan order are already planned.
fn fleet(broken: bool) -> Test {
    let mut plan = Plan::new().cluster_name("aa-one");
    if broken {
        plan = plan.raw_patch(json!({
            "name": "breaks-one",
            "enabledIf": "{{ eq .builtin.cluster.name \"zz-broken\" }}",
            "definitions": [{
                "selector": control_plane(),
                "jsonPatches": [{
                    "op": "add",
                    "path": "/spec/template/spec/kubeadmConfigSpec/files",
                    "valueFrom": {"template": "{{ fail \"boom\" }}"},
                }],
            }],
        }));
    }
    let other = |name: &str| Plan::new().cluster_name(name).cluster_yaml();
    plan.file("two.yaml", &other("mm-two"))
        .file("broken.yaml", &other("zz-broken"))
        .test()
}

#[test]
fn clusters_come_in_plan_order_and_the_document_is_whole() {
    let out = fleet(false).args(["plan", "-f", ".", "-o", "json"]).run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let names: Vec<&str> = doc["clusters"]
        .as_array()
        .expect("clusters")
        .iter()
        .map(|c| c["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["aa-one", "mm-two", "zz-broken"]);
    assert_eq!(doc["kind"], "Plan");
    // The totals follow the Clusters and sum them.
    let created: u64 = doc["clusters"]
        .as_array()
        .expect("clusters")
        .iter()
        .map(|c| c["summary"]["created"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(doc["summary"]["clusters"], 3);
    assert_eq!(doc["summary"]["created"], created);
    assert!(
        out.stdout
            .find("\"summary\": {\n    \"clusters\": 3")
            .unwrap_or(0)
            > out.stdout.find("zz-broken").unwrap_or(usize::MAX)
    );
    // The same bytes on one thread and on many: the order never depends on scheduling.
    let one = fleet(false)
        .args(["plan", "-f", ".", "-o", "json"])
        .env("RAYON_NUM_THREADS", "1")
        .run();
    assert_eq!(one.stdout, out.stdout);
    let yaml_one = fleet(false)
        .args(["plan", "-f", ".", "-o", "yaml"])
        .env("RAYON_NUM_THREADS", "1")
        .run();
    let yaml_many = fleet(false)
        .args(["plan", "-f", ".", "-o", "yaml"])
        .env("RAYON_NUM_THREADS", "3")
        .run();
    assert_eq!(yaml_one.stdout, yaml_many.stdout);
}

#[test]
fn a_failure_before_output_flows_prints_nothing_or_a_failure_document() {
    fleet(true)
        .args(["plan", "-f", ".", "-o", "table"])
        .status(1)
        .stdout("")
        .stderr_contains("boom")
        .run();
    // With a document format, the document says why: no Clusters, the errors.
    let out = fleet(true)
        .args(["plan", "-f", ".", "-o", "json"])
        .status(1)
        .stderr_contains("boom")
        .stdout_json("/kind", "Plan")
        .stdout_json("/clusters", json!([]))
        .stdout_json("/errors/0/severity", "error")
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("one document");
    assert!(
        doc["errors"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("boom")
    );
    fleet(true)
        .args(["plan", "-f", ".", "-o", "yaml"])
        .status(1)
        .stdout_contains("clusters: []")
        .stdout_contains("errors:\n- ")
        .stdout_contains("boom")
        .run();
}

#[test]
fn a_failure_after_output_flows_leaves_it_cut_short() {
    let out = fleet(true)
        .args(["plan", "-f", ".", "-o", "json"])
        .env("TOPOPLAN_TEST_HOLD_BYTES", "1")
        .status(1)
        .stderr_contains("boom")
        .run();
    // The Clusters before the failed one were written; the document was never closed.
    assert!(
        out.stdout.contains("\"name\": \"aa-one\""),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("\"name\": \"mm-two\""));
    assert!(!out.stdout.contains("zz-broken"));
    assert!(serde_json::from_str::<Value>(&out.stdout).is_err());
}

#[test]
fn the_hold_hook_cannot_raise_the_limit() {
    // A huge value is capped at the built-in limit: small output is still held, so the failure
    // still prints nothing.
    fleet(true)
        .args(["plan", "-f", ".", "-o", "table"])
        .env("TOPOPLAN_TEST_HOLD_BYTES", "999999999999")
        .status(1)
        .stdout("")
        .run();
}

#[test]
fn the_output_directory_is_untouched_when_a_cluster_fails() {
    let out = fleet(true)
        .args(["plan", "-f", ".", "--output-dir", "out"])
        .status(1)
        .stdout("")
        .run();
    assert!(!out.dir.path().join("out").exists());
    // No staging directory is left beside it either.
    let leftovers: Vec<String> = std::fs::read_dir(out.dir.path())
        .expect("read dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("topoplan"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn several_clusters_end_with_the_fleet_totals_one_does_not() {
    let out = fleet(false).args(["plan", "-f", "."]).run();
    let last = out.stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("Plan: 3 Clusters, 3 changing: ") && last.contains(" to create, "),
        "{}",
        out.stdout
    );
    // The per-Cluster lines add up to the totals.
    let created: usize = out
        .stdout
        .lines()
        .filter_map(|l| l.split(" to create,").next()?.parse::<usize>().ok())
        .sum();
    assert!(last.contains(&format!(": {created} to create")), "{last}");
    let one = Plan::new().plan_test(&[]).run();
    assert!(!one.stdout.contains("Plan: "), "{}", one.stdout);
}

#[test]
fn a_failed_diff_prints_a_review_document_of_its_errors() {
    let p = Plan::new();
    let out = Test::new()
        .file("old/class.yaml", &p.class_yaml())
        .file("new/class.yaml", &p.class_yaml())
        .file("new/cluster.yaml", &p.cluster_yaml())
        .args(["diff", "old", "new", "-o", "json"])
        .status(1)
        .stdout_json("/kind", "Review")
        .stdout_json("/clusters", json!([]))
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("one document");
    let first = doc["errors"][0]["message"].as_str().unwrap_or("");
    assert!(
        first.contains("the old inputs do not plan"),
        "{}",
        out.stdout
    );
}
