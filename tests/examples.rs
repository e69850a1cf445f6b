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
