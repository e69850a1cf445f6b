//! `--output markdown`: a pull-request comment for `plan` and `diff`.

mod common;

use common::Test;
use common::scenario::Plan;

/// `n` Clusters of one class, upgraded from v1.34.0 to v1.34.1 between old/ and new/.
fn upgrade(n: usize) -> Test {
    let mut t = Test::new()
        .file("old/class.yaml", &Plan::new().class_yaml())
        .file("new/class.yaml", &Plan::new().class_yaml());
    for i in 0..n {
        let name = format!("c{i:04}");
        let old = Plan::new().cluster_name(&name).cluster_yaml();
        let new = Plan::new()
            .cluster_name(&name)
            .version("v1.34.1")
            .cluster_yaml();
        t = t
            .file(&format!("old/{name}.yaml"), &old)
            .file(&format!("new/{name}.yaml"), &new);
    }
    t
}

#[test]
fn a_fleet_change_reads_as_one_section_under_the_size_cap() {
    let out = upgrade(1000)
        .args(["diff", "old", "new", "-o", "markdown"])
        .stdout_contains("### topoplan diff\n\n**1000 Clusters: 1000 changed")
        .stdout_contains("| Cluster | ClusterClass | Create | Modify | Delete | Rolls out |")
        .stdout_contains("… and 950 more changed Cluster(s), not listed.")
        .stdout_contains("— and the same change in 999 more Clusters</summary>")
        .stdout_contains("```diff\n")
        .stdout_contains("+    version: v1.34.1")
        .run();
    assert!(out.stdout.len() < 65_536, "{} characters", out.stdout.len());
    assert_eq!(
        out.stdout.matches("<details><summary><code>").count(),
        1,
        "{}",
        out.stdout
    );
    // The 999 others are named as far as the budget allows, the rest counted.
    assert!(
        out.stdout
            .contains("<details><summary>The other 999 Clusters</summary>\n\n- `default/c0001`\n")
    );
    assert_eq!(out.stdout.matches("\n| `default/c").count(), 50);
}

#[test]
fn one_cluster_reads_the_same_way() {
    upgrade(1)
        .args(["diff", "old", "new", "-o", "markdown"])
        .stdout_contains("**1 Cluster: 1 changed")
        .stdout_contains("| `default/c0000` | `default/demo-class` |")
        .stdout_contains("<details><summary><code>default/c0000</code></summary>")
        .stdout_lacks("same change")
        .run();
}

#[test]
fn plan_as_markdown_sums_up_and_lists_changing_clusters() {
    Plan::new()
        .plan_test(&["-o", "markdown"])
        .stdout_contains("### topoplan plan\n\n**Plan: 1 Cluster, 1 changing:")
        .stdout_contains("| `default/demo` | `default/demo-class` |")
        .run();
}

#[test]
fn an_upgrade_comes_with_a_diagram_of_its_sequence() {
    let old = Plan::new().machine_deployment("md-0", common::scenario::WORKER_CLASS, 1);
    let new = Plan::new()
        .machine_deployment("md-0", common::scenario::WORKER_CLASS, 1)
        .version("v1.34.1");
    let out = Test::new()
        .file("old/class.yaml", &old.class_yaml())
        .file("old/cluster.yaml", &old.cluster_yaml())
        .file("new/class.yaml", &new.class_yaml())
        .file("new/cluster.yaml", &new.cluster_yaml())
        .args(["diff", "old", "new", "-o", "markdown"])
        .stdout_contains("```mermaid\nflowchart LR\n  s0[\"ControlPlane<br/>KubeadmControlPlane ")
        .stdout_contains("  s0 --> s1\n")
        .run();
    // The control plane rolls out now; the MachineDeployment waits for it.
    let diagram = out
        .stdout
        .split("```mermaid")
        .nth(1)
        .and_then(|d| d.split("```").next())
        .unwrap_or("");
    assert!(diagram.contains("rolls out now"), "{diagram}");
    assert!(
        diagram.contains("MachineDeployment/md-0")
            && (diagram.contains("later") || diagram.contains("held")),
        "{diagram}"
    );
    // A change that upgrades nothing has no diagram.
    upgrade_free()
        .args(["diff", "old", "new", "-o", "markdown"])
        .stdout_lacks("mermaid")
        .run();
}

/// A change of a label only: no rollout, no upgrade.
fn upgrade_free() -> Test {
    let p = Plan::new();
    let labelled =
        p.cluster_yaml()
            .replacen("metadata:\n", "metadata:\n  labels:\n    team: a\n", 1);
    Test::new()
        .file("old/class.yaml", &p.class_yaml())
        .file("old/cluster.yaml", &p.cluster_yaml())
        .file("new/class.yaml", &p.class_yaml())
        .file("new/cluster.yaml", &labelled)
}

#[test]
fn a_failing_run_still_comments_what_failed() {
    // A Cluster of a class the input does not hold: an error at the Cluster's file and line.
    Plan::new()
        .test()
        .args(["plan", "-f", "cluster.yaml", "-o", "markdown"])
        .status(1)
        .stdout_contains("### topoplan plan\n\n**Failed: 1 error; nothing was planned.**\n\n```text\ncluster.yaml:")
        .stdout_contains(": error[topoplan::")
        .run();
    upgrade(1)
        .file(
            "new/broken.yaml",
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: Bad_Name\n",
        )
        .args(["diff", "old", "new", "-o", "markdown"])
        .status(1)
        .stdout_contains("### topoplan diff\n\n**Failed: ")
        .stdout_contains("broken.yaml:")
        .run();
}

#[test]
fn warnings_come_collapsed_after_the_plan() {
    let plan = Plan::new();
    let again = plan.cluster_yaml();
    plan.file("flavor-b/cluster.yaml", &again)
        .plan_test(&["-o", "markdown"])
        .stdout_contains("<details><summary>1 warning</summary>\n\n```text\n")
        .stdout_contains("is defined in 2 files")
        .run();
}

#[test]
fn the_clusters_sharing_a_change_are_named() {
    upgrade(3)
        .args(["diff", "old", "new", "-o", "markdown"])
        .stdout_contains("— and the same change in 2 more Clusters</summary>")
        .stdout_contains(
            "<details><summary>The other 2 Clusters</summary>\n\n- `default/c0001`\n- `default/c0002`\n\n</details>",
        )
        .run();
}
