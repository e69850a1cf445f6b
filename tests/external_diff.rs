//! `KUBECTL_EXTERNAL_DIFF`: on a terminal, the human review and plan hand their changes to the
//! user's diff program, as kubectl does; elsewhere the variable is ignored.

mod common;

use std::os::unix::fs::PermissionsExt;

use common::Test;

const EXAMPLE: &str = "testdata/examples/quick-start";

/// OLD is the example; NEW has 5 replicas and another image, so one MachineDeployment is
/// modified and a template rotates. A script that lists both directories and the diff of
/// each file stands in for the user's program; it also records where the directories were.
fn review(script_body: &str) -> Test {
    let text = std::fs::read_to_string(common::repo().join(EXAMPLE).join("cluster.yaml"))
        .expect("fixture");
    let templates = std::fs::read_to_string(common::repo().join(EXAMPLE).join("templates.yaml"))
        .expect("fixture");
    let t = Test::new()
        .fixture(EXAMPLE, "old")
        .fixture(EXAMPLE, "new")
        .file(
            "new/cluster.yaml",
            &text.replacen("replicas: 2", "replicas: 5", 1),
        )
        .file(
            "new/templates.yaml",
            &templates.replacen("kindest/node:v1.34.1", "kindest/node:v1.34.2", 1),
        )
        .file("show-diff", &format!("#!/bin/sh\n{script_body}"));
    let script = t.path().join("show-diff");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    t
}

const LISTING: &str = r#"for a; do old=$new; new=$a; done
echo "args: $*" | sed "s|$(dirname "$new")|TMP|g"
dirname "$old" > where
for f in $(ls "$old" "$new" | grep -v : | sort -u); do echo "== $f"; diff "$old/$f" "$new/$f" | grep '^[<>]' | grep -e replicas -e customImage; done
exit 1
"#;

fn program(t: &Test, args: &str) -> String {
    format!("{}{args}", t.path().join("show-diff").display())
}

#[test]
fn the_program_gets_two_directories_of_kubectl_named_files() {
    let t = review(LISTING);
    let cmd = program(&t, " -N -u");
    let out = t
        .args(["diff", "old", "new"])
        .env("KUBECTL_EXTERNAL_DIFF", &cmd)
        .env("TOPOPLAN_TEST_STDOUT_TERMINAL", "1")
        .stdout_contains("  modified  MachineDeployment team-a/dev-md-0-p7p2x\n")
        // topoplan's own diffs give way to the program's.
        .stdout_lacks("    -  replicas: 2")
        .stdout_contains("args: -N -u TMP/old TMP/new\n")
        .stdout_contains("== cluster.x-k8s.io.v1beta2.MachineDeployment.team-a.dev-md-0-p7p2x\n<   replicas: 2\n>   replicas: 5\n")
        // The rotated template is compared with the one it replaces, under its new name.
        .stdout_contains("== infrastructure.cluster.x-k8s.io.v1beta2.DockerMachineTemplate.team-a.dev-md-0-75rnv\n<       customImage: kindest/node:v1.34.1\n>       customImage: kindest/node:v1.34.2\n")
        .run();
    // Exit 1 of the program means "differences", not failure; the directory is gone after.
    assert_eq!(out.code, 0, "{}", out.stderr);
    let root = std::fs::read_to_string(out.dir.path().join("where")).expect("recorded");
    assert!(
        !std::path::Path::new(root.trim()).exists(),
        "{root} left behind"
    );
}

#[test]
fn an_object_one_side_lacks_is_a_file_on_the_other_side_only() {
    let t = review(
        r#"for f in $(ls "$1"); do [ -e "$2/$f" ] || echo "only old: $f"; done
for f in $(ls "$2"); do [ -e "$1/$f" ] || echo "only new: $f"; done; exit 1
"#,
    );
    let cmd = program(&t, "");
    t.args(["diff", "old", "new"])
        .env("KUBECTL_EXTERNAL_DIFF", &cmd)
        .env("TOPOPLAN_TEST_STDOUT_TERMINAL", "1")
        // The template rotated away is deleted; its successor is compared with it.
        .stdout_contains(
            "only old: infrastructure.cluster.x-k8s.io.v1beta2.DockerMachineTemplate.team-a.dev-md-0-2vxkw\n",
        )
        .stdout_lacks("only new:")
        .run();
}

#[test]
fn plan_hands_its_diffs_over_too() {
    let t = review(LISTING);
    let cmd = program(&t, "");
    // A new Cluster: every object is created, so each is a file on the new side only.
    let out = t
        .args(["plan", "-f", "new"])
        .env("KUBECTL_EXTERNAL_DIFF", &cmd)
        .env("TOPOPLAN_TEST_STDOUT_TERMINAL", "1")
        .stdout_contains("args: TMP/old TMP/new\n")
        .stdout_contains("== cluster.x-k8s.io.v1beta2.MachineDeployment.team-a.dev-md-0-")
        .run();
    // diff(1) of a missing old file says so on stderr, which the script drops: only names.
    assert!(!out.stdout.contains("<"), "{}", out.stdout);
}

#[test]
fn not_on_a_terminal_the_variable_is_ignored() {
    let t = review(LISTING);
    let cmd = program(&t, "");
    t.args(["diff", "old", "new"])
        .env("KUBECTL_EXTERNAL_DIFF", &cmd)
        .stdout_contains("    -  replicas: 2\n    +  replicas: 5\n")
        .stdout_lacks("args:")
        .run();
}

#[test]
fn stat_and_documents_never_run_the_program() {
    for args in [&["--stat"][..], &["-o", "json"], &["-o", "markdown"]] {
        let t = review("echo RAN; exit 1\n");
        let cmd = program(&t, "");
        t.args(["diff", "old", "new"])
            .args(args.iter().copied())
            .env("KUBECTL_EXTERNAL_DIFF", &cmd)
            .env("TOPOPLAN_TEST_STDOUT_TERMINAL", "1")
            .stdout_lacks("RAN")
            .run();
    }
}

#[test]
fn a_failing_program_fails_the_run_with_its_code() {
    let t = review("exit 3\n");
    let cmd = program(&t, "");
    t.args(["diff", "old", "new"])
        .env("KUBECTL_EXTERNAL_DIFF", &cmd)
        .env("TOPOPLAN_TEST_STDOUT_TERMINAL", "1")
        .status(1)
        .stderr_contains("topoplan::output::external-diff")
        .stderr_contains("failed (exit status 3)")
        .run();
    Test::new()
        .fixture(EXAMPLE, "old")
        .fixture(EXAMPLE, "new")
        .file(
            "new/cluster.yaml",
            &std::fs::read_to_string(common::repo().join(EXAMPLE).join("cluster.yaml"))
                .expect("fixture")
                .replacen("replicas: 2", "replicas: 5", 1),
        )
        .args(["diff", "old", "new"])
        .env("KUBECTL_EXTERNAL_DIFF", "/nonexistent/differ")
        .env("TOPOPLAN_TEST_STDOUT_TERMINAL", "1")
        .status(1)
        .stderr_contains("cannot run \"/nonexistent/differ\"")
        .run();
}

#[test]
fn arguments_kubectl_would_drop_are_dropped_with_a_warning() {
    let t = review(LISTING);
    let cmd = program(&t, " -u --label=$(touch${IFS}pwned)");
    let out = t
        .args(["diff", "old", "new"])
        .env("KUBECTL_EXTERNAL_DIFF", &cmd)
        .env("TOPOPLAN_TEST_STDOUT_TERMINAL", "1")
        .stdout_contains("args: -u TMP/old TMP/new\n")
        .stderr_contains("argument(s) \"--label=$(touch${IFS}pwned)\" dropped")
        .run();
    assert!(!out.dir.path().join("pwned").exists());
}

#[test]
fn no_change_runs_nothing() {
    let t = Test::new()
        .fixture(EXAMPLE, "old")
        .fixture(EXAMPLE, "new")
        .file("show-diff", "#!/bin/sh\necho RAN\n");
    let script = t.path().join("show-diff");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let cmd = script.display().to_string();
    t.args(["diff", "old", "new"])
        .env("KUBECTL_EXTERNAL_DIFF", &cmd)
        .env("TOPOPLAN_TEST_STDOUT_TERMINAL", "1")
        .stdout_lacks("RAN")
        .run();
}
