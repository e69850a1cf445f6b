//! Hostile inputs: filesystem. Links out of the directory (or repository) given, link loops,
//! special files, deep trees, and inputs of any size: every one ends fast, and nothing a link
//! points at outside the input is ever read.

use crate::harness::*;

const CONFIG_MAP: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";

/// A secret that, if read, would be shown in the snippet of a YAML syntax error.
const SECRET: &str = "TOKEN-9f3c7a: [unclosed\n";

/// A directory outside the run's working directory holding `secret.yaml`.
fn secret_outside() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("secret.yaml"), SECRET).expect("write secret");
    dir
}

/// `git args` in `dir`, which must succeed.
fn git(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
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

fn mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(status.success());
}

#[test]
fn a_link_to_a_file_outside_the_directory_is_refused_unread() {
    let outside = secret_outside();
    let r = Hostile::new()
        .file("fleet/cm.yaml", CONFIG_MAP)
        .symlink(outside.path().join("secret.yaml"), "fleet/env.yaml")
        .args(["validate", "-f", "fleet"])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("fleet/env.yaml is a symbolic link to ");
    assert!(
        stderr.contains("topoplan does not follow links out of an input directory"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("TOKEN-9f3c7a"),
        "the secret leaked:\n{stderr}"
    );
}

#[test]
fn a_link_to_the_process_environment_is_refused_unread() {
    let r = Hostile::new()
        .file("fleet/cm.yaml", CONFIG_MAP)
        .symlink("/proc/self/environ", "fleet/env.yaml")
        .env("CI_DEPLOY_TOKEN", "hunter2-9f3c7a")
        .args(["plan", "-f", "fleet"])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("fleet/env.yaml is a symbolic link to /proc/");
    assert!(
        !stderr.contains("hunter2-9f3c7a"),
        "the environment leaked:\n{stderr}"
    );
}

#[test]
fn a_link_to_a_directory_outside_is_refused() {
    let outside = secret_outside();
    let r = Hostile::new()
        .file("fleet/cm.yaml", CONFIG_MAP)
        .symlink(outside.path(), "fleet/vendor")
        .args(["validate", "-f", "fleet"])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("fleet/vendor is a symbolic link to ");
    assert!(
        !stderr.contains("TOKEN-9f3c7a"),
        "the secret leaked:\n{stderr}"
    );
}

#[test]
fn a_link_out_of_a_current_plan_directory_is_refused_unread() {
    let outside = secret_outside();
    let r = Hostile::new()
        .file("in.yaml", CONFIG_MAP)
        .file("state/.topoplan-plan", "")
        .symlink(
            outside.path().join("secret.yaml"),
            "state/ns/c/unchanged/env.yaml",
        )
        .args(["plan", "-f", "in.yaml", "--current", "state"])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("state/ns/c/unchanged/env.yaml is a symbolic link to ");
    assert!(
        !stderr.contains("TOKEN-9f3c7a"),
        "the secret leaked:\n{stderr}"
    );
}

#[test]
fn links_that_stay_inside_are_followed() {
    let r = Hostile::new()
        .file("fleet/real/cm.txt", CONFIG_MAP)
        .symlink("real/cm.txt", "fleet/cm.yaml")
        .symlink("..", "fleet/real/up")
        .args(["validate", "-f", "fleet", "--output", "yaml"])
        .run();
    r.within(2.0, 256);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("name: a"), "{}", r.stdout);
}

#[test]
fn a_link_given_on_the_command_line_is_followed() {
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("cm.yaml"), CONFIG_MAP).expect("write");
    let r = Hostile::new()
        .symlink(outside.path().join("cm.yaml"), "cm.yaml")
        .args(["validate", "-f", "cm.yaml", "--output", "yaml"])
        .run();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("name: a"), "{}", r.stdout);
}

#[test]
fn link_loops_in_a_current_plan_directory_end_fast() {
    // A directory written by `plan --output-dir` is walked for `--current`; links back to
    // itself used to multiply the walk at every level.
    let mut h = Hostile::new()
        .file("state/.topoplan-plan", "")
        .file(
            "state/ns/c/unchanged/ConfigMap_ns_b.yaml",
            CONFIG_MAP.replace("a\n", "b\n"),
        )
        .file("in.yaml", CONFIG_MAP);
    for l in ["a", "b", "c", "d"] {
        h = h.symlink(".", &format!("state/{l}"));
    }
    let r = h
        .args(["plan", "-f", "in.yaml", "--current", "state"])
        .run();
    r.within(2.0, 256);
    // The change (a ConfigMap) affects no Cluster of the state: an empty plan that says so,
    // after reading both sides.
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("Affected by the change: no ClusterClass; no Cluster."),
        "{}",
        r.stdout
    );
}

#[test]
fn link_loops_in_an_input_directory_end_fast() {
    let mut h = Hostile::new().file("fleet/cm.yaml", CONFIG_MAP);
    for l in ["a", "b", "c", "d", "sub/up"] {
        h = h.symlink(
            if l == "sub/up" { ".." } else { "." },
            &format!("fleet/{l}"),
        );
    }
    let r = h
        .args(["validate", "-f", "fleet", "--output", "yaml"])
        .run();
    r.within(2.0, 256);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Each directory once: the object is not read again through the links.
    assert_eq!(r.stdout.matches("name: a").count(), 1, "{}", r.stdout);
}

#[test]
fn a_fifo_in_a_directory_is_skipped_with_a_warning() {
    let h = Hostile::new().file("fleet/cm.yaml", CONFIG_MAP);
    // Opening a FIFO blocks until someone writes to it: nobody will.
    mkfifo(&h.path().join("fleet/pipe.yaml"));
    let r = h.args(["validate", "-f", "fleet"]).run();
    r.within(2.0, 256);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("fleet/pipe.yaml is a FIFO, not a regular file: skipped"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_fifo_skipped_is_told_even_when_the_plan_fails() {
    let h = Hostile::new().file("fleet/cm.yaml", CONFIG_MAP);
    mkfifo(&h.path().join("fleet/pipe.yaml"));
    let r = h.args(["plan", "-f", "fleet"]).run();
    r.within(2.0, 256);
    let stderr = r.refused("no Cluster with spec.topology found in the input");
    assert!(
        stderr.contains("fleet/pipe.yaml is a FIFO, not a regular file: skipped"),
        "{stderr}"
    );
}

#[test]
fn a_fifo_given_directly_is_read_as_a_stream() {
    let h = Hostile::new();
    let fifo = h.path().join("pipe.yaml");
    mkfifo(&fifo);
    let writer = std::thread::spawn(move || std::fs::write(fifo, CONFIG_MAP));
    let r = h
        .args(["validate", "-f", "pipe.yaml", "--output", "yaml"])
        .run();
    let _ = writer.join();
    r.within(2.0, 256);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("name: a"), "{}", r.stdout);
}

#[test]
fn dev_zero_stops_at_a_small_cap() {
    let r = Hostile::new()
        .args(["plan", "-f", "/dev/zero", "--max-input-bytes", "1000"])
        .run();
    r.within(1.0, 64);
    r.refused(
        "input too large: /dev/zero exceeds the 1000-byte limit on input (--max-input-bytes)",
    );
}

#[test]
fn dev_zero_stops_at_the_default_cap() {
    let r = Hostile::new().args(["plan", "-f", "/dev/zero"]).run();
    // The cap (256 MiB) is read and held once, never copied while growing.
    r.within(1.0, 400);
    r.refused(
        "input too large: /dev/zero exceeds the 268435456-byte limit on input (--max-input-bytes)",
    );
}

#[test]
fn stdin_over_the_cap() {
    let r = Hostile::new()
        .stdin(vec![b'#'; 3000])
        .args(["validate", "-f", "-", "--max-input-bytes", "2Ki"])
        .run();
    r.within(1.0, 64);
    r.refused("input too large: <stdin> exceeds the 2048-byte limit on input (--max-input-bytes)");
}

#[test]
fn the_cap_is_on_all_inputs_together() {
    let pad = format!("{CONFIG_MAP}#{}\n", "x".repeat(600));
    let r = Hostile::new()
        .file("fleet/a.yaml", &pad)
        .file("fleet/b.yaml", pad.replace("name: a", "name: b"))
        .args(["validate", "-f", "fleet", "--max-input-bytes", "1000"])
        .run();
    r.within(1.0, 64);
    let stderr = r.refused(
        "input too large: fleet/b.yaml exceeds the 1000-byte limit on input (--max-input-bytes)",
    );
    assert!(
        stderr.contains("bytes were read before fleet/b.yaml"),
        "{stderr}"
    );
}

#[test]
fn a_current_directory_over_the_cap() {
    let r = Hostile::new()
        .file("in.yaml", CONFIG_MAP)
        .file("state/big.yaml", format!("#{}\n", "x".repeat(2000)))
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--current",
            "state",
            "--max-input-bytes",
            "1000",
        ])
        .run();
    r.within(1.0, 64);
    r.refused("input too large: state/big.yaml exceeds the 1000-byte limit");
}

#[test]
fn an_env_file_over_the_cap() {
    let r = Hostile::new()
        .file("in.yaml", CONFIG_MAP)
        .file("vars.env", format!("A={}\n", "x".repeat(2000)))
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--substitute",
            "--env-file",
            "vars.env",
            "--max-input-bytes",
            "1000",
        ])
        .run();
    r.within(1.0, 64);
    r.refused(
        "input too large: --env-file vars.env exceeds the 1000-byte limit on input (--max-input-bytes)",
    );
}

#[test]
fn a_ca_file_over_the_cap() {
    let r = Hostile::new()
        .file("in.yaml", CONFIG_MAP)
        .file("ca.pem", "x".repeat(2000))
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--ca-file",
            "ca.pem",
            "--max-input-bytes",
            "1000",
        ])
        .run();
    r.within(1.0, 64);
    r.refused(
        "input too large: --ca-file ca.pem exceeds the 1000-byte limit on input (--max-input-bytes)",
    );
}

#[test]
fn eval_vars_over_the_cap() {
    let r = Hostile::new()
        .file("vars.yaml", format!("x: {}\n", "y".repeat(2000)))
        .args([
            "eval",
            "{{ .x }}",
            "--vars",
            "vars.yaml",
            "--max-input-bytes",
            "1000",
        ])
        .run();
    r.within(1.0, 64);
    r.refused(
        "input too large: --vars vars.yaml exceeds the 1000-byte limit on input (--max-input-bytes)",
    );
}

#[test]
fn eval_jsonl_stdin_over_the_cap() {
    let r = Hostile::new()
        .stdin(vec![b' '; 3000])
        .args(["eval", "--jsonl", "--max-input-bytes", "1000"])
        .run();
    r.within(1.0, 64);
    r.refused("input too large: <stdin> exceeds the 1000-byte limit");
}

#[test]
fn diff_sides_over_the_cap() {
    let r = Hostile::new()
        .file("old/cm.yaml", CONFIG_MAP)
        .file(
            "new/cm.yaml",
            format!("{CONFIG_MAP}#{}\n", "x".repeat(2000)),
        )
        .args(["diff", "old", "new", "--max-input-bytes", "1000"])
        .run();
    r.within(1.0, 64);
    r.refused("input too large: new/cm.yaml exceeds the 1000-byte limit");
}

#[test]
fn a_max_input_bytes_that_is_not_a_size() {
    let r = Hostile::new()
        .args(["plan", "-f", "x.yaml", "--max-input-bytes", "lots"])
        .run();
    r.refused("\"lots\" is not a byte count");
}

#[test]
fn directories_nested_too_deep() {
    let deep: String = (0..101).map(|i| format!("d{i}/")).collect();
    let r = Hostile::new()
        .file(&format!("fleet/{deep}cm.yaml"), CONFIG_MAP)
        .args(["validate", "-f", "fleet"])
        .run();
    r.within(2.0, 64);
    r.refused("directories nested more than 100 levels deep under fleet");
}

/// A repository whose HEAD has `fleet/cm.yaml` (and `extra`, written by the caller first).
fn repository(h: &Hostile) {
    let dir = h.path();
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
}

#[test]
fn base_ref_working_tree_link_out_of_the_repository_is_refused_unread() {
    let outside = secret_outside();
    let h = Hostile::new().file("fleet/cm.yaml", CONFIG_MAP);
    repository(&h);
    // The pull request adds a link.
    let r = h
        .symlink(outside.path().join("secret.yaml"), "fleet/env.yaml")
        .args(["diff", "--base-ref", "HEAD", "fleet"])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("fleet/env.yaml is a symbolic link to ");
    assert!(stderr.contains("outside the git repository at"), "{stderr}");
    assert!(
        !stderr.contains("TOKEN-9f3c7a"),
        "the secret leaked:\n{stderr}"
    );
}

#[test]
fn base_ref_path_that_became_a_link_out_of_the_repository_is_refused_unread() {
    let outside = secret_outside();
    let h = Hostile::new().file("fleet.yaml", CONFIG_MAP);
    repository(&h);
    // The pull request replaces the file the CI job diffs with a link.
    std::fs::remove_file(h.path().join("fleet.yaml")).expect("rm");
    let r = h
        .symlink(outside.path().join("secret.yaml"), "fleet.yaml")
        .args(["diff", "--base-ref", "HEAD", "fleet.yaml"])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("fleet.yaml is a symbolic link to ");
    assert!(
        !stderr.contains("TOKEN-9f3c7a"),
        "the secret leaked:\n{stderr}"
    );
}

#[test]
fn base_ref_blob_over_the_cap_is_refused_before_reading() {
    let h = Hostile::new().file(
        "fleet/cm.yaml",
        format!("{CONFIG_MAP}#{}\n", "x".repeat(2000)),
    );
    repository(&h);
    std::fs::write(h.path().join("fleet/cm.yaml"), CONFIG_MAP).expect("write");
    let r = h
        .args([
            "diff",
            "--base-ref",
            "HEAD",
            "fleet",
            "--max-input-bytes",
            "1000",
        ])
        .run();
    r.within(2.0, 64);
    r.refused("input too large: HEAD:fleet/cm.yaml exceeds the 1000-byte limit");
}

/// A hidden file's secret: in YAML that fails to parse, so its first line would be the snippet.
const HIDDEN_SECRET: &str = "CI_TOKEN=hidden-3e9a1c: [unclosed\n";

#[test]
fn a_link_to_a_hidden_file_inside_the_directory_is_refused_unread() {
    // The link's target "resolves inside", but hidden entries are never inputs.
    for args in [
        vec!["validate", "-f", "fleet"],
        vec!["plan", "-f", "in.yaml", "--current", "fleet"],
    ] {
        let r = Hostile::new()
            .file("in.yaml", CONFIG_MAP)
            .file("fleet/cm.yaml", CONFIG_MAP)
            .file("fleet/.env", HIDDEN_SECRET)
            .file("fleet/.git/config", HIDDEN_SECRET)
            .symlink(".env", "fleet/values.yaml")
            .symlink(".git/config", "fleet/git.yaml")
            .symlink(".git", "fleet/repo")
            .args(args.clone())
            .run();
        r.within(2.0, 256);
        let stderr = r.refused("fleet/values.yaml is a symbolic link to ");
        assert!(
            stderr.contains("topoplan::input::hidden"),
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.contains("fleet/git.yaml is a symbolic link to "),
            "{args:?}: {stderr}"
        );
        assert!(
            !stderr.contains("hidden-3e9a1c"),
            "{args:?}: the secret leaked:\n{stderr}"
        );
    }
}

#[test]
fn a_named_file_linked_to_a_hidden_file_is_refused_unread() {
    // The CI job names fleet/prod.yaml; the pull request makes it a link to the checkout's .env.
    let r = Hostile::new()
        .file(".env", HIDDEN_SECRET)
        .symlink("../.env", "fleet/prod.yaml")
        .args(["validate", "-f", "fleet/prod.yaml"])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("fleet/prod.yaml is a symbolic link to ");
    assert!(
        !stderr.contains("hidden-3e9a1c"),
        "the secret leaked:\n{stderr}"
    );
    // A hidden path the user writes is theirs to read.
    let r = Hostile::new()
        .file(".ci/cm.yaml", CONFIG_MAP)
        .args(["validate", "-f", ".ci/cm.yaml", "--output", "yaml"])
        .run();
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn base_ref_links_to_hidden_files_are_refused_unread() {
    let h = Hostile::new().file("fleet/cm.yaml", CONFIG_MAP);
    repository(&h);
    // The pull request adds a link to .git/HEAD, and one to a hidden file it adds.
    let r = h
        .file(".env", HIDDEN_SECRET)
        .symlink("../.git/HEAD", "fleet/head.yaml")
        .symlink("../.env", "fleet/env.yaml")
        .args(["diff", "--base-ref", "HEAD", "fleet"])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("fleet/head.yaml is a symbolic link to ");
    assert!(
        stderr.contains("fleet/env.yaml is a symbolic link to "),
        "{stderr}"
    );
    assert!(
        !stderr.contains("hidden-3e9a1c"),
        "the secret leaked:\n{stderr}"
    );
    assert!(!stderr.contains("refs/heads"), "HEAD leaked:\n{stderr}");
}
