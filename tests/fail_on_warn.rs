//! `--fail-on-warn`: a warning turns a successful run into exit 1, after everything is printed.

mod common;

use common::scenario::Plan;

/// The demo Cluster defined in two files: planned twice as flavors, with a warning saying so.
fn flavors() -> Plan {
    let plan = Plan::new();
    let again = plan.cluster_yaml();
    plan.file("flavor-b/cluster.yaml", &again)
}

#[test]
fn plan_fails_on_a_warning_only_when_asked() {
    let p = flavors();
    p.plan_test(&[])
        .stderr_contains("is defined in 2 files")
        .stdout_contains("Cluster default/demo")
        .run();
    p.plan_test(&["--fail-on-warn"])
        .status(1)
        .stderr_contains("is defined in 2 files")
        .stdout_contains("Cluster default/demo")
        .run();
    // Without a warning the flag changes nothing, and it outranks --detailed-exitcode only
    // when there is one.
    Plan::new()
        .plan_test(&["--fail-on-warn", "--detailed-exitcode"])
        .status(2)
        .run();
}

#[test]
fn diff_fails_on_a_warning_only_when_asked() {
    let p = Plan::new();
    let t = || {
        common::Test::new()
            .file("old/class.yaml", &p.class_yaml())
            .file("old/cluster.yaml", &p.cluster_yaml())
            .file("new/class.yaml", &p.class_yaml())
            .file("new/cluster.yaml", &p.cluster_yaml())
            .file("new/flavor-b/cluster.yaml", &p.cluster_yaml())
    };
    t().args(["diff", "old", "new"])
        .stderr_contains("is defined in 2 files")
        .run();
    t().args(["diff", "old", "new", "--fail-on-warn"])
        .status(1)
        .stderr_contains("is defined in 2 files")
        .run();
}

#[test]
fn validate_fails_on_a_warning_only_when_asked() {
    // The class alone: admission accepts it, and warns that its templates are not given.
    let class_yaml = Plan::new().class_yaml();
    let class = class_yaml
        .split("\n---\n")
        .find(|d| d.contains("kind: ClusterClass"))
        .expect("a ClusterClass document")
        .to_string();
    let t = || common::Test::new().file("class.yaml", &class);
    t().args(["validate", "-f", "class.yaml"])
        .stderr_contains("not in the input")
        .run();
    t().args(["validate", "-f", "class.yaml", "--fail-on-warn"])
        .status(1)
        .stderr_contains("not in the input")
        .run();
}
