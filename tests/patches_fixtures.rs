//! The patch fixtures end to end: `testdata/examples/patches-v1beta2` and `patches-v1beta1`
//! (13 inline patches each, every selector form, enabledIf on and off, variables, templates,
//! overrides, builtins) planned as YAML and with `--explain`, and four broken copies of the
//! v1beta2 one, each of which must fail with a diagnostic naming the ClusterClass and the patch.

mod common;

use common::Test;

const V1BETA2: &str = "testdata/examples/patches-v1beta2";
const V1BETA1: &str = "testdata/examples/patches-v1beta1";

fn plan(fixture: &str, extra: &[&str]) -> common::Output {
    Test::new()
        .fixture(fixture, "ex")
        .args(["plan", "-f", "ex"])
        .args(extra.iter().copied())
        .run()
}

/// Every patch of the fixtures applies or is skipped on purpose: nothing may warn that a
/// patch or template was skipped for another reason.
fn assert_no_skip_warning(out: &common::Output) {
    assert!(!out.stderr.contains("skipped"), "{}", out.stderr);
}

#[test]
fn v1beta2_yaml() {
    let out = plan(V1BETA2, &["--output", "yaml"]);
    insta::assert_snapshot!("patches_v1beta2_yaml", out.ok());
    assert_no_skip_warning(&out);
}

#[test]
fn v1beta1_yaml() {
    let out = plan(V1BETA1, &["--output", "yaml"]);
    insta::assert_snapshot!("patches_v1beta1_yaml", out.ok());
    assert_no_skip_warning(&out);
}

#[test]
fn v1beta2_explain() {
    let out = plan(V1BETA2, &["--explain"]);
    insta::assert_snapshot!("patches_v1beta2_explain", out.ok());
    assert_no_skip_warning(&out);
}

#[test]
fn v1beta1_explain() {
    let out = plan(V1BETA1, &["--explain"]);
    insta::assert_snapshot!("patches_v1beta1_explain", out.ok());
    assert_no_skip_warning(&out);
}

#[test]
fn fixtures_pass_admission() {
    for fixture in [V1BETA2, V1BETA1] {
        Test::new()
            .fixture(fixture, "ex")
            .args(["validate", "-f", "ex"])
            .stderr("")
            .run();
    }
}

/// Plan a copy of the v1beta2 fixture under `ex/` whose ClusterClass has `from` replaced by `to`
/// (exactly once, so a fixture edit that breaks the test is noticed here, not as a confusing
/// snapshot); it must fail, print nothing, and name the ClusterClass and `patch`.
#[track_caller]
fn broken(from: &str, to: &str, patch: &str) -> common::Output {
    let dir = common::repo().join(V1BETA2);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("fixture file");
    let class = read("clusterclass.yaml");
    assert_eq!(class.matches(from).count(), 1, "{from:?} in the class");
    Test::new()
        .file("ex/clusterclass.yaml", &class.replace(from, to))
        .file("ex/cluster.yaml", &read("cluster.yaml"))
        .file("ex/templates.yaml", &read("templates.yaml"))
        .args(["plan", "-f", "ex"])
        .status(1)
        // No partial output.
        .stdout("")
        .stderr_contains("ClusterClass fleet/patchwork")
        .stderr_contains(&format!("patch \"{patch}\""))
        .run()
}

#[test]
fn template_renders_invalid_yaml() {
    let out = broken(
        "template: '{{ .imageRepository }}/haproxy'",
        "template: '{{ .imageRepository }}: [unclosed'",
        "loadBalancer",
    );
    insta::assert_snapshot!("bad_template_yaml", out.stderr);
}

#[test]
fn variable_path_does_not_exist() {
    let out = broken(
        "variable: proxy.endpoints[1].url",
        "variable: proxy.endpoints[1].address",
        "edgeProxy",
    );
    insta::assert_snapshot!("bad_variable_path", out.stderr);
}

#[test]
fn replace_of_a_missing_pointer() {
    let out = broken(
        "      - op: replace\n        path: /spec/template/spec/customImage\n",
        "      - op: replace\n        path: /spec/template/spec/image\n",
        "workerImage",
    );
    insta::assert_snapshot!("bad_replace_pointer", out.stderr);
}

#[test]
fn enabled_if_fails_to_render() {
    let out = broken(
        "enabledIf: '{{ .features.audit }}'",
        "enabledIf: '{{ .features.audit.level }}'",
        "auditPolicy",
    );
    insta::assert_snapshot!("bad_enabled_if", out.stderr);
}
