//! `--output junit`: reports CI systems read.

mod common;

use common::Test;
use common::scenario::Plan;

#[test]
fn validate_reports_a_case_per_class_and_cluster_with_failures() {
    let p = Plan::new().value("undefined", serde_json::json!(1));
    let out = p
        .test()
        .args(["validate", "-f", ".", "-o", "junit"])
        .status(1)
        .stdout_contains("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"topoplan\" tests=\"2\" failures=\"1\"")
        .stdout_contains("<testcase classname=\"ClusterClass\" name=\"default/demo-class\"/>")
        .stdout_contains("<testcase classname=\"Cluster\" name=\"default/demo\">")
        .stdout_contains("<failure type=\"topoplan::admission::invalid\" message=\"Cluster.cluster.x-k8s.io &quot;demo&quot; is invalid")
        .stdout_contains("cluster.yaml:")
        .run();
    assert!(out.stdout.ends_with("  </testsuite>\n</testsuites>\n"));
    // A valid input: every case passes.
    Plan::new()
        .test()
        .args(["validate", "-f", ".", "-o", "junit"])
        .stdout_contains("tests=\"2\" failures=\"0\"")
        .stdout_lacks("<failure")
        .run();
}

#[test]
fn plan_reports_a_case_per_cluster_and_a_failing_run_as_one_failing_case() {
    Plan::new()
        .plan_test(&["-o", "junit"])
        .stdout_contains("<testcase classname=\"Cluster\" name=\"default/demo\">")
        .stdout_contains("<system-out>ClusterClass default/demo-class: ")
        .stdout_contains("tests=\"1\" failures=\"0\"")
        .run();
    Plan::new()
        .value("undefined", serde_json::json!(1))
        .plan_test(&["-o", "junit"])
        .status(1)
        .stdout_contains("<testcase classname=\"topoplan\" name=\"plan\">")
        .stdout_contains("tests=\"1\" failures=\"1\"")
        .stdout_contains("<failure type=\"topoplan::admission::invalid\"")
        .run();
}

#[test]
fn diff_reports_a_case_per_cluster() {
    let p = Plan::new();
    Test::new()
        .file("old/class.yaml", &p.class_yaml())
        .file("old/cluster.yaml", &p.cluster_yaml())
        .file("new/class.yaml", &p.class_yaml())
        .file(
            "new/cluster.yaml",
            &Plan::new().version("v1.34.1").cluster_yaml(),
        )
        .args(["diff", "old", "new", "-o", "junit"])
        .stdout_contains("<testsuite name=\"topoplan diff\" tests=\"1\" failures=\"0\"")
        .stdout_contains("<testcase classname=\"Cluster\" name=\"default/demo\">")
        .run();
}
