//! The documents topoplan prints follow the JSON Schemas `topoplan schema` prints.

mod common;

use common::Test;
use common::scenario::{Plan, WORKER_CLASS};
use serde_json::Value;

fn schema(kind: &str) -> jsonschema::Validator {
    let out = Test::new().args(["schema", kind]).run();
    let schema: Value = serde_json::from_str(&out.stdout).expect("a schema");
    jsonschema::validator_for(&schema).expect("a valid schema")
}

#[track_caller]
fn conforms(v: &jsonschema::Validator, text: &str) {
    let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let errors: Vec<String> = v
        .iter_errors(&doc)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{text}");
}

fn two_sides(new: &Plan) -> Test {
    let old = Plan::new().machine_deployment("md-0", WORKER_CLASS, 1);
    Test::new()
        .file("old/class.yaml", &old.class_yaml())
        .file("old/cluster.yaml", &old.cluster_yaml())
        .file("new/class.yaml", &new.class_yaml())
        .file("new/cluster.yaml", &new.cluster_yaml())
}

#[test]
fn plan_documents_follow_the_plan_schema() {
    let v = schema("plan");
    let p = Plan::new().machine_deployment("md-0", WORKER_CLASS, 2);
    conforms(&v, &p.plan_test(&["-o", "json", "--explain"]).run().stdout);
    conforms(
        &v,
        &p.plan_test(&["-o", "json", "--no-objects"]).run().stdout,
    );
    // A failed run's document of errors too.
    let failed = Plan::new()
        .value("undefined", serde_json::json!(1))
        .plan_test(&["-o", "json"])
        .status(1)
        .run();
    conforms(&v, &failed.stdout);
}

#[test]
fn review_documents_follow_the_review_schema() {
    let v = schema("review");
    let new = Plan::new()
        .machine_deployment("md-0", WORKER_CLASS, 1)
        .version("v1.34.1");
    conforms(
        &v,
        &two_sides(&new)
            .args(["diff", "old", "new", "-o", "json"])
            .run()
            .stdout,
    );
    let failed = Test::new()
        .file("old/class.yaml", &Plan::new().class_yaml())
        .file("new/class.yaml", &Plan::new().class_yaml())
        .file("new/cluster.yaml", &Plan::new().cluster_yaml())
        .args(["diff", "old", "new", "-o", "json"])
        .status(1)
        .run();
    conforms(&v, &failed.stdout);
}

#[test]
fn validation_documents_follow_the_validation_schema() {
    let v = schema("validation");
    conforms(
        &v,
        &Plan::new()
            .test()
            .args(["validate", "-f", ".", "-o", "json"])
            .run()
            .stdout,
    );
    let invalid = Plan::new()
        .value("undefined", serde_json::json!(1))
        .test()
        .args(["validate", "-f", ".", "-o", "json"])
        .status(1)
        .run();
    conforms(&v, &invalid.stdout);
    // The schema can fail: a document missing a field does not conform.
    let doc = serde_json::json!({"apiVersion": "topoplan.dev/v1alpha1", "kind": "Validation"});
    assert!(!v.is_valid(&doc));
}
