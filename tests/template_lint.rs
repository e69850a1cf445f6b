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

/// Every directory of testdata/ that holds a ClusterClass: its classes lint clean (no false
/// warnings on real classes), in `validate` and in `plan`. In a provider repository's release
/// (a directory with metadata.yaml) the class files alone: its cluster templates hold
/// clusterctl variables.
#[test]
fn every_fixture_class_lints_clean() {
    fn walk(dir: &std::path::Path, out: &mut std::collections::BTreeSet<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("read testdata").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml")
                && std::fs::read_to_string(&p).is_ok_and(|t| t.contains("\nkind: ClusterClass\n"))
            {
                if dir.join("metadata.yaml").is_file() {
                    out.insert(p);
                } else {
                    out.insert(dir.to_path_buf());
                }
            }
        }
    }
    let mut dirs = std::collections::BTreeSet::new();
    walk(&repo().join("testdata"), &mut dirs);
    assert!(dirs.len() >= 8, "{dirs:?}");
    for dir in dirs {
        let d = dir.to_str().unwrap_or_default();
        for command in ["validate", "plan"] {
            let out = Test::new().args([command, "-f", d]).run_unchecked();
            // Validation always reaches the lint (a plan may stop first: no extension, no
            // current state).
            assert!(
                command != "validate" || out.code == 0,
                "{d}: {}",
                out.stderr
            );
            assert!(
                !out.stderr.contains("topoplan::template::"),
                "{command} {d}:\n{}",
                out.stderr
            );
        }
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

/// A declared variable this Cluster leaves unset prints `<no value>`, which Cluster API
/// writes into the object as is: the plan keeps that output and warns of it.
#[test]
fn a_render_that_prints_no_value_is_warned_about() {
    Plan::new()
        .variable("registry", json!({"type": "string"}))
        .raw_patch(json!({
            "name": "image",
            "definitions": [{
                "selector": control_plane(),
                "jsonPatches": [{
                    "op": "add",
                    "path": "/spec/template/spec/kubeadmConfigSpec/files",
                    "valueFrom": {"template": "- path: /etc/topoplan\n  content: \"{{ .registry }}/x\"\n"},
                }],
            }],
        }))
        .plan_test(&["-o", "yaml"])
        .stdout_contains("content: <no value>/x")
        .stderr_contains("topoplan::template::no-value")
        .stderr_contains("patch \"image\" renders \"<no value>\" into KubeadmControlPlaneTemplate")
        .stderr_contains("a path its template reads has no value for this Cluster")
        .run();
}

/// A typo is told once, by the class's lint, not again for every Cluster it renders for.
#[test]
fn a_typo_is_not_warned_about_twice() {
    with_template("{{ .imageRepositry }}/x")
        .plan_test(&[])
        .stderr_contains("topoplan::template::unknown-variable")
        .stderr_lacks("topoplan::template::no-value")
        .run();
}
