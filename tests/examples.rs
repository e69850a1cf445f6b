//! The shipped examples use flags that exist: every `topoplan` command line in them parses.

use std::path::Path;

use clap::Parser;
use topoplan::cli::Cli;

/// The `topoplan …` command lines of a workflow's `run:` scripts, with shell variables and
/// GitHub expressions replaced by plain words.
fn command_lines(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("topoplan "))
        .map(|l| {
            let l = l.split(" > ").next().unwrap_or(l);
            l.split_whitespace()
                .map(|w| {
                    if w.contains('$') {
                        "value".to_string()
                    } else {
                        w.trim_matches('"').to_string()
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_github_workflow_runs_commands_that_parse() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/github-actions/topoplan-diff.yaml");
    let text = std::fs::read_to_string(&path).expect("the workflow");
    // It is YAML a runner can read.
    let file = topoplan::source::SourceFile::new(path.display().to_string(), text.clone());
    let docs = topoplan::load::yaml::parse_stream(&file).expect("valid YAML");
    assert_eq!(docs.len(), 1);
    let lines = command_lines(&text);
    assert!(!lines.is_empty());
    for args in lines {
        if let Err(e) = Cli::try_parse_from(&args) {
            panic!("{args:?}: {e}");
        }
    }
}

/// `.pre-commit-hooks.yaml`: each hook's entry and default arguments parse, and run on a
/// directory as pre-commit runs them (no file names appended).
#[test]
fn the_pre_commit_hooks_run_validate() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(&path).expect("the hooks");
    let file = topoplan::source::SourceFile::new(path.display().to_string(), text);
    let docs = topoplan::load::yaml::parse_stream(&file).expect("valid YAML");
    let hooks = docs[0].value.as_array().expect("a list of hooks");
    assert!(!hooks.is_empty());
    for hook in hooks {
        let field = |k: &str| hook[k].as_str().unwrap_or_else(|| panic!("{k} in {hook}"));
        field("id");
        field("name");
        assert!(matches!(field("language"), "rust" | "system"));
        // Validation needs a Cluster's class and templates beside it: directories, not the
        // changed files, which pre-commit would append after the arguments.
        assert_eq!(hook["pass_filenames"], false, "{hook}");
        let mut args: Vec<String> = field("entry")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        args.extend(
            hook["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(|a| a.as_str().expect("a string").to_string()),
        );
        assert_eq!(args[..2], ["topoplan", "validate"]);
        if let Err(e) = Cli::try_parse_from(&args) {
            panic!("{args:?}: {e}");
        }
        // Run in a copy of the bundled example, as pre-commit runs it at the repository's top.
        let dir = tempfile::tempdir().expect("temporary directory");
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/examples/quick-start");
        for entry in std::fs::read_dir(&example).expect("example") {
            let entry = entry.expect("entry");
            std::fs::copy(entry.path(), dir.path().join(entry.file_name())).expect("copy");
        }
        assert_cmd::Command::cargo_bin("topoplan")
            .expect("binary")
            .args(&args[1..])
            .current_dir(dir.path())
            .assert()
            .success();
        std::fs::write(
            dir.path().join("broken.yaml"),
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: Bad_Name\n",
        )
        .expect("write");
        assert_cmd::Command::cargo_bin("topoplan")
            .expect("binary")
            .args(&args[1..])
            .current_dir(dir.path())
            .assert()
            .code(1);
    }
}
