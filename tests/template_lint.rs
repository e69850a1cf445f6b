//! Template lint: paths a template reads that are no variable of the class (typos Cluster API
//! would render as `<no value>`), with the nearest declared name.

mod common;

use common::scenario::{Plan, control_plane};
use common::{Test, repo};
use serde_json::json;

fn with_template(template: &str) -> Plan {
    Plan::new()
        .variable("imageRepository", json!({"type": "string", "default": "registry.k8s.io"}))
        .raw_patch(json!({
            "name": "image",
            "definitions": [{
                "selector": control_plane(),
                "jsonPatches": [{
                    "op": "add",
                    "path": "/spec/template/spec/kubeadmConfigSpec/files",
                    "valueFrom": {"template": format!("- path: /etc/topoplan\n  content: \"{template}\"\n")},
                }],
            }],
        }))
}

#[test]
fn a_misspelt_variable_is_warned_about_with_a_suggestion() {
    with_template("{{ .imageRepositry }}/x")
        .plan_test(&[])
        .stderr_contains("patch \"image\" reads .imageRepositry in a template, which is no variable of the class")
        .stderr_contains("did you mean .imageRepository?")
        .run();
    with_template("{{ .builtin.cluster.nmae }}")
        .plan_test(&[])
        .stderr_contains("reads .builtin.cluster.nmae in a template, which is no builtin variable")
        .stderr_contains("did you mean .builtin.cluster.name?")
        .run();
}

#[test]
fn declared_variables_builtins_and_their_maps_are_not_warned_about() {
    with_template(
        "{{ .imageRepository }}/{{ .builtin.cluster.name }}/{{ .builtin.cluster.metadata.labels.team }}{{ with .builtin.cluster }}{{ .name }}{{ end }}",
    )
    .plan_test(&[])
    .stderr_lacks("in a template")
    .run();
}

#[test]
fn the_bundled_classes_have_no_lint_warnings() {
    for example in ["quick-start", "quick-start-v1beta1"] {
        let dir = repo().join("testdata/examples").join(example);
        Test::new()
            .args(["plan", "-f", dir.to_str().unwrap_or_default()])
            .stderr_lacks("in a template, which is")
            .run();
    }
}

#[test]
fn validate_warns_too() {
    with_template("{{ .imageRepositry }}/x")
        .test()
        .args(["validate", "-f", "."])
        .stderr_contains("reads .imageRepositry in a template, which is no variable of the class")
        .stderr_contains("did you mean .imageRepository?")
        .stderr_contains("topoplan::template::unknown-variable")
        .run();
}

/// A typo piped into a function fails the render with Go's message, which says nothing of the
/// typo: the error's own help names it and the nearest variable.
#[test]
fn a_render_that_fails_on_a_typo_says_so_in_its_help() {
    let out = with_template("{{ .builtin.cluster.nmae | upper }}")
        .plan_test(&[])
        .status(1)
        .run();
    let err = out
        .stderr
        .split("topoplan::")
        .find(|d| d.starts_with("patch::generate"))
        .unwrap_or_else(|| panic!("no patch::generate error in {}", out.stderr));
    assert!(
        err.contains(
            "the patch's template reads .builtin.cluster.nmae, which names nothing: did you mean .builtin.cluster.name?"
        ),
        "{err}"
    );
}
