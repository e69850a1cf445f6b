//! clusterctl variables left in an input read without `--substitute` are warned about.

mod common;

use common::scenario::Plan;

#[test]
fn a_variable_in_a_value_is_warned_about_once_per_file() {
    let p = Plan::new();
    // A label value only: the Cluster still plans, with the literal text.
    let cluster = p.cluster_yaml().replacen(
        "metadata:\n",
        "metadata:\n  labels:\n    owner: ${OWNER}\n    team: ${OWNER}\n",
        1,
    );
    let out = p
        .test()
        .file("cluster.yaml", &cluster)
        .args(["plan", "-f", "."])
        .stderr_contains("cluster.yaml: 2 value(s) hold clusterctl variables that were not substituted (${OWNER})")
        .stderr_contains("pass --substitute")
        .run();
    assert_eq!(
        out.stderr.matches("not substituted").count(),
        2,
        "warning and its label: {}",
        out.stderr
    );
    // With --substitute there is nothing to warn about (the variable is given).
    p.test()
        .file("cluster.yaml", &cluster)
        .args(["plan", "-f", ".", "--substitute", "--env", "OWNER"])
        .env("OWNER", "platform")
        .stderr_lacks("not substituted")
        .run();
}

#[test]
fn current_state_is_not_scanned() {
    // Stored objects may hold `${…}` legitimately (a substituted `$${…}` in a script).
    let p = Plan::new();
    let out = p
        .test()
        .file(
            "state/cm.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: script\ndata:\n  run.sh: echo ${HOME}\n",
        )
        .args(["plan", "-f", "class.yaml", "-f", "cluster.yaml", "--current", "state"])
        .run_unchecked();
    assert!(!out.stderr.contains("not substituted"), "{}", out.stderr);
}
