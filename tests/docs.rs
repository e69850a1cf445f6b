//! The documentation is executable: every command of a ```` ```console ```` block in README.md
//! and docs/ runs against the built binary with the exit status and output the block shows,
//! every relative link of README.md, ARCHITECTURE.md and docs/ leads to a file (and heading)
//! that exists, a jq example reads only what the documents have, and the README stays short.
//!
//! A console block is read as a terminal session: a line `$ COMMAND` (continued on the next line
//! after a trailing `\`) is a command, the lines after it are what it prints on stdout (checked
//! in order, each a whole line; `...` stands for lines not shown), and a trailing `# exit N`
//! comment is its exit status (0 when absent). Each file's commands run in order in a fresh
//! directory holding a copy of the bundled `testdata/` in a git repository whose `origin/main`
//! is its only commit, so a quick start may use what an earlier command wrote. `topoplan` is the
//! binary under test, and so is `cargo run --release --`. `PORT` is the port of the test
//! extension (tests/extension_server), started on 127.0.0.1 by this test. A command that is
//! neither must be listed in [`EXCLUDED`] with the reason it cannot run here.

mod common;
mod extension_server;

use std::path::{Path, PathBuf};
use std::time::Duration;

use extension_server::ExtensionServer;
use extension_server::misbehave::Misbehaviour;

/// Commands of the docs that are not run, with why.
const EXCLUDED: &[(&str, &str)] = &[
    (
        "cargo run --example test-extension",
        "it serves in the foreground until killed; this test starts the same extension \
         (tests/extension_server) on 127.0.0.1 and puts its port in place of PORT",
    ),
    ("cargo test", "it is the command that runs this test"),
];

/// The longest a documented command may take: generous, it only stops a hung run.
const TIMEOUT: Duration = Duration::from_secs(300);

/// One command of a console block.
#[derive(Debug)]
struct DocCommand {
    /// `file:line` of its `$` line.
    at: String,
    text: String,
    status: i32,
    /// Lines shown after it (`...` lines left out), in order.
    output: Vec<String>,
}

/// The Markdown files the project documents itself in.
fn doc_files() -> Vec<PathBuf> {
    let root = common::repo();
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("docs/")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "md") {
                files.push(p);
            }
        }
    }
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(common::repo())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The commands of every console block of `path`.
fn console_commands(path: &Path) -> Vec<DocCommand> {
    let text = std::fs::read_to_string(path).expect("read doc");
    let exit = regex::Regex::new(r"\s+#\s*exit\s+(\d+)\s*$").expect("regex");
    let mut commands: Vec<DocCommand> = Vec::new();
    let mut in_console = false;
    let mut continued = false;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_console = !in_console && trimmed.trim_end() == "```console";
            continued = false;
            continue;
        }
        if !in_console {
            continue;
        }
        let line = line.trim_end();
        if continued {
            let last = commands
                .last_mut()
                .expect("a command before its continuation");
            last.text.push(' ');
            last.text.push_str(line.trim());
        } else if let Some(cmd) = line.strip_prefix("$ ") {
            commands.push(DocCommand {
                at: format!("{}:{}", relative(path), n + 1),
                text: cmd.trim().to_string(),
                status: 0,
                output: Vec::new(),
            });
        } else if let Some(last) = commands.last_mut() {
            if line != "..." {
                last.output.push(line.to_string());
            }
            continue;
        } else {
            panic!("{}:{}: output before any command", relative(path), n + 1);
        }
        let last = commands.last_mut().expect("a command");
        continued = last.text.ends_with('\\');
        if continued {
            last.text.pop();
            last.text = last.text.trim_end().to_string();
        } else if let Some(c) = exit.captures(&last.text.clone()) {
            last.status = c[1].parse().expect("exit status");
            let start = c.get(0).expect("match").start();
            last.text.truncate(start);
        }
    }
    commands
}

/// A fresh directory with `testdata/`'s bundled inputs, committed as `main` and `origin/main`.
fn sandbox() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for sub in ["examples", "provider-repo", "crds"] {
        copy_dir(
            &common::repo().join("testdata").join(sub),
            &dir.path().join("testdata").join(sub),
        );
    }
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .env("GIT_AUTHOR_NAME", "docs")
            .env("GIT_AUTHOR_EMAIL", "docs@example.com")
            .env("GIT_COMMITTER_NAME", "docs")
            .env("GIT_COMMITTER_EMAIL", "docs@example.com")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir.path())
            .status()
            .expect("git")
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["symbolic-ref", "HEAD", "refs/heads/main"]);
    git(&["add", "-A"]);
    git(&[
        "-c",
        "commit.gpgsign=false",
        "commit",
        "-q",
        "-m",
        "bundled examples",
    ]);
    git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
    dir
}

fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).expect("create dir");
    for e in std::fs::read_dir(src).expect("read dir") {
        let e = e.expect("entry");
        let to = dst.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), &to).expect("copy");
        }
    }
}

/// Whether `shown` appears in `actual` in order, each a whole line.
fn shown_in_order<'a>(shown: &'a [String], actual: &str) -> Result<(), &'a str> {
    let mut lines = actual.lines().map(str::trim_end);
    for want in shown {
        if !lines.any(|l| l == want) {
            return Err(want);
        }
    }
    Ok(())
}

#[test]
fn every_console_command_of_the_docs_runs_as_shown() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_topoplan"));
    let bin_dir = bin.parent().expect("binary's folder");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut server: Option<ExtensionServer> = None;
    let mut excluded_seen = vec![false; EXCLUDED.len()];
    let mut ran = 0;
    for file in doc_files() {
        let commands = console_commands(&file);
        if commands.is_empty() {
            continue;
        }
        let dir = sandbox();
        for c in commands {
            if let Some(i) = EXCLUDED.iter().position(|(cmd, _)| *cmd == c.text) {
                excluded_seen[i] = true;
                continue;
            }
            let mut text = c.text.clone();
            if let Some(rest) = text.strip_prefix("cargo run --release -- ") {
                text = format!("topoplan {rest}");
            }
            assert!(
                text.starts_with("topoplan "),
                "{}: `{}` is neither topoplan nor excluded (add it to EXCLUDED with a reason)",
                c.at,
                c.text
            );
            if text.contains("PORT") {
                let s = server.get_or_insert_with(|| {
                    let s = ExtensionServer::http();
                    s.set_misbehaviour(Misbehaviour::Conforming);
                    s
                });
                text = text.replace("http://127.0.0.1:PORT", &s.url);
            }
            let out = assert_cmd::Command::new("bash")
                .args(["-o", "pipefail", "-c", &text])
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("NO_COLOR", "1")
                .env_remove("GITHUB_ACTIONS")
                .env_remove("KUBECTL_EXTERNAL_DIFF")
                .timeout(TIMEOUT)
                .output()
                .expect("run");
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(c.status),
                "{}: `{}` exited with {:?}, the docs say {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
                c.at,
                c.text,
                out.status.code(),
                c.status
            );
            if let Err(line) = shown_in_order(&c.output, &stdout) {
                panic!(
                    "{}: `{}` does not print {line:?} (in the order shown)\nstdout:\n{stdout}",
                    c.at, c.text
                );
            }
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} documented commands found");
    for ((cmd, _), seen) in EXCLUDED.iter().zip(excluded_seen) {
        assert!(seen, "EXCLUDED lists `{cmd}`, which no console block holds");
    }
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Text outside code blocks and code spans (where `](…)` is no link).
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        let mut in_code = false;
        for ch in line.chars() {
            if ch == '`' {
                in_code = !in_code;
            } else if !in_code {
                out.push(ch);
            }
        }
        out.push('\n');
    }
    out
}

/// The anchors of a Markdown file's headings.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let n = seen
            .iter()
            .filter(|s| **s == base || s.starts_with(&format!("{base}-")))
            .count();
        seen.push(if n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
    }
    seen
}

#[test]
fn every_relative_link_of_the_docs_resolves() {
    let link = regex::Regex::new(r"\]\(([^)\s]+)\)").expect("regex");
    let mut broken = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("read doc");
        for (n, line) in prose(&text).lines().enumerate() {
            for c in link.captures_iter(line) {
                let target = &c[1];
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
                let dest = if path.is_empty() {
                    file.clone()
                } else {
                    file.parent().expect("folder").join(path)
                };
                let at = format!("{}:{}", relative(&file), n + 1);
                if !dest.exists() {
                    broken.push(format!("{at}: {target}: no such file"));
                    continue;
                }
                if !anchor.is_empty() && dest.extension().is_some_and(|e| e == "md") {
                    let text = std::fs::read_to_string(&dest).expect("read link target");
                    if !anchors(&text).iter().any(|a| a == anchor) {
                        broken.push(format!("{at}: {target}: no such heading"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The README stays an entry point: what topoplan is, how to install and start, and links.
#[test]
fn the_readme_fits_on_a_few_screens() {
    let readme = std::fs::read_to_string(common::repo().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; move details to docs/"
    );
}

/// A jq program in the docs reads only lists the documents have (`.warnings[]`, not a
/// `.diagnostics[]` no document holds): every `.NAME[]` at the start of a path is a top-level
/// property of one of the documents' JSON Schemas.
#[test]
fn jq_examples_read_fields_the_documents_have() {
    let schemas = std::fs::read_dir(common::repo().join("src/output/schemas"))
        .expect("src/output/schemas")
        .map(|e| {
            let text = std::fs::read_to_string(e.expect("entry").path()).expect("schema");
            serde_json::from_str::<serde_json::Value>(&text).expect("schema JSON")
        })
        .collect::<Vec<_>>();
    let top_level = |name: &str| schemas.iter().any(|s| s["properties"].get(name).is_some());
    let program = regex::Regex::new(r"jq (?:-\w+ )*'([^']*)'").expect("regex");
    let list = regex::Regex::new(r"(?:^|[\[|(\s])\.([A-Za-z]+)\[\]").expect("regex");
    let mut seen = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("read doc");
        for p in program.captures_iter(&text) {
            for l in list.captures_iter(&p[1]) {
                seen += 1;
                assert!(
                    top_level(&l[1]),
                    "{}: jq reads .{}[], which no document has",
                    relative(&file),
                    &l[1]
                );
            }
        }
    }
    assert!(seen > 0, "no jq example found");
}
