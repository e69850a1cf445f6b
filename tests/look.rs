//! `--quiet` and `--color`: what reaches the terminal.

mod common;

use common::Test;
use common::scenario::Plan;

fn flavors() -> Plan {
    let p = Plan::new();
    let again = p.cluster_yaml();
    p.file("flavor-b/cluster.yaml", &again)
}

#[test]
fn quiet_drops_warnings_and_keeps_errors() {
    flavors()
        .plan_test(&[])
        .stderr_contains("is defined in 2 files")
        .run();
    flavors()
        .plan_test(&["--quiet"])
        .stderr("")
        .stdout_contains("Cluster default/demo")
        .run();
    Test::new()
        .file(
            "c.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad\n",
        )
        .args(["validate", "-q", "-f", "c.yaml"])
        .status(1)
        .stderr_contains("not a valid object name")
        .run();
}

#[test]
fn color_always_colours_a_pipe_and_never_wins_over_a_terminal() {
    // The ACTION column is coloured: green for created.
    Plan::new()
        .plan_test(&["--color", "always"])
        .stdout_contains("\u{1b}[32mcreated")
        .run();
    Plan::new()
        .plan_test(&["--color", "never"])
        .stdout_lacks("\u{1b}[")
        .run();
    // The default on a pipe: no colour.
    Plan::new().plan_test(&[]).stdout_lacks("\u{1b}[").run();
}
