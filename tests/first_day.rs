//! The rough edges a first day with topoplan finds (#28): help that fits a screen, man pages
//! that say how to run and what the exit status means, "did you mean" for a misspelt name,
//! `validate -f .` in a repository that holds other YAML, `--strict`, `plan --stat`, and an
//! error reported once.

mod common;

use common::Test;
use common::scenario::Plan;
use serde_json::json;

#[test]
fn plan_short_help_is_grouped_and_shorter_than_the_long_one() {
    let short = Test::new().args(["plan", "-h"]).run();
    let long = Test::new().args(["plan", "--help"]).run();
    for heading in [
        "\nInput:\n",
        "\nCurrent state:\n",
        "\nExtensions:\n",
        "\nOutput:\n",
        "\nLimits:\n",
        "\nExamples:\n",
    ] {
        assert!(
            short.ok().contains(heading),
            "{heading:?} in:\n{}",
            short.stdout
        );
    }
    // Each flag is one line in -h; --help adds the details.
    assert!(
        short.stdout.lines().count() * 2 < long.stdout.lines().count(),
        "-h: {} lines, --help: {} lines",
        short.stdout.lines().count(),
        long.stdout.lines().count()
    );
    assert!(short.stdout.contains("--current <PATH>"));
    assert!(!short.stdout.contains("kubectl get"));
    assert!(long.stdout.contains("kubectl get"));
}

#[test]
fn man_pages_say_how_to_run_and_what_the_exit_status_means() {
    let page = std::fs::read_to_string(common::repo().join("man/topoplan-plan.1")).expect("page");
    assert!(
        page.contains(".SH SYNOPSIS\n\\fBtopoplan plan\\fR"),
        "{page}"
    );
    assert!(page.contains(".SH EXAMPLES\n"), "{page}");
    assert!(page.contains(".SH \"EXIT STATUS\"\n.TP\n0\n"), "{page}");
    assert!(page.contains("\\-\\-detailed\\-exitcode: the plan changes something"));
    let nested = std::fs::read_to_string(common::repo().join("man/topoplan-extension-check.1"))
        .expect("page");
    assert!(
        nested.contains("\\fBtopoplan extension check\\fR"),
        "{nested}"
    );
}

#[test]
fn plan_stat_prints_a_line_per_changing_cluster() {
    Plan::new()
        .plan_test(&["--stat"])
        .stdout(
            "Cluster default/demo (ClusterClass default/demo-class): 3 to create, 1 to modify, 0 to delete\n\
             \n\
             Plan: 1 Cluster, 1 changing: 3 to create, 1 to modify, 0 to delete; 0 rollouts in 0 Clusters, 0 deferred.\n",
        )
        .run();
}

#[test]
fn the_cluster_row_says_why_it_is_modified() {
    Plan::new()
        .plan_test(&[])
        .stdout_matches(r"Cluster +demo +modified +set by the topology controller: label cluster\.x-k8s\.io/cluster-name, label topology\.cluster\.x-k8s\.io/owned, spec\.controlPlaneRef, spec\.infrastructureRef\n")
        .run();
}

#[test]
fn a_misspelt_variable_is_suggested() {
    Plan::new()
        .variable("imageRepository", json!({"type": "string"}))
        .value("imageRepositry", json!("registry.example"))
        .plan_test(&[])
        .status(1)
        .stderr_contains("variable is not defined")
        .stderr_contains("did you mean \"imageRepository\"?")
        .run();
}

#[test]
fn a_misspelt_cluster_or_class_is_suggested() {
    Plan::new()
        .plan_test(&["--cluster", "dmeo"])
        .status(1)
        .stderr_contains("did you mean --cluster demo?")
        .run();
    Plan::new()
        .plan_test(&["--cluster", "default/deno"])
        .status(1)
        .stderr_contains("did you mean --cluster default/demo?")
        .run();
    let p = Plan::new();
    let cluster = p.cluster_yaml().replace("demo-class", "demo-clas");
    Test::new()
        .file("class.yaml", &p.class_yaml())
        .file("cluster.yaml", &cluster)
        .args(["plan", "-f", "."])
        .status(1)
        .stderr_contains("did you mean default/demo-class?")
        .run();
}

#[test]
fn validate_passes_over_yaml_that_is_no_kubernetes_object() {
    let p = Plan::new();
    let t = || {
        p.test()
            .file("kustomization.yaml", "resources:\n  - cluster.yaml\n")
            .file("docs/mkdocs.yml", "site_name: fleet\nnav: []\n")
    };
    t().args(["validate", "-f", "."])
        .stderr_contains("skipped 2 documents without apiVersion and kind (not Kubernetes objects) in docs/mkdocs.yml, kustomization.yaml")
        .run()
        .ok();
    // Excluded files are not read at all: no note.
    t().args([
        "validate",
        "-f",
        ".",
        "--exclude",
        "kustomization.yaml",
        "--exclude",
        "docs/**",
    ])
    .stderr_lacks("skipped")
    .run()
    .ok();
    // A half-written object (a kind, no apiVersion) is still an error.
    p.test()
        .file("broken.yaml", "kind: ConfigMap\nmetadata:\n  name: x\n")
        .args(["validate", "-f", "."])
        .status(1)
        .stderr_contains("apiVersion")
        .run();
    Test::new()
        .args(["validate", "-f", ".", "--exclude", ""])
        .status(1)
        .stderr_contains("--exclude \"\": an empty pattern")
        .run();
}

#[test]
fn strict_makes_a_pruned_field_an_error() {
    let p = Plan::new();
    // `replicas` one level too deep: the Cluster's schema has no spec.topology.controlPlane.x.
    let cluster = p
        .cluster_yaml()
        .replace("  topology:\n", "  topology:\n    misindented: true\n");
    let t = || {
        Test::new()
            .file("class.yaml", &p.class_yaml())
            .file("cluster.yaml", &cluster)
    };
    t().args(["validate", "-f", "."])
        .stderr_contains("schema::pruned")
        .run()
        .ok();
    t().args(["validate", "-f", ".", "--strict"])
        .status(1)
        .stderr_contains("schema::pruned")
        .run();
}

/// Run git in `dir` with a fixed identity.
fn git(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_folder_the_base_ref_lacks_is_empty_there() {
    let p = Plan::new();
    let t = Test::new()
        .file("README.md", "fleet\n")
        .file("fleet/class.yaml", &p.class_yaml())
        .file("fleet/cluster.yaml", &p.cluster_yaml());
    let dir = t.path().to_path_buf();
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "README.md"]);
    git(&dir, &["commit", "-q", "-m", "before the fleet"]);
    t.args(["diff", "--base-ref", "HEAD", "fleet", "--stat"])
        .stdout_contains("Cluster default/demo (ClusterClass default/demo-class): new Cluster, ")
        .stdout_contains("(1 added, 0 removed)")
        .run()
        .ok();
}

#[test]
fn an_error_is_reported_once() {
    // Not a git repository: both sides of the diff meet it, the user reads it once.
    let out = Plan::new()
        .test()
        .args(["diff", "--base-ref", "HEAD", "."])
        .env("GIT_CEILING_DIRECTORIES", "/")
        .status(1)
        .run();
    let first = out
        .stderr
        .lines()
        .find(|l| l.contains("×"))
        .unwrap_or_default()
        .to_string();
    assert!(!first.is_empty(), "{}", out.stderr);
    assert_eq!(
        out.stderr.matches(first.trim()).count(),
        1,
        "{}",
        out.stderr
    );
}
