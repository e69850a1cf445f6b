//! A small builder for CLI tests: input files, arguments, expectations, and the process's output.
//!
//! ```ignore
//! Test::new()
//!     .file("a.yaml", "...")
//!     .args(["plan", "-f", "a.yaml"])
//!     .status(1)
//!     .stderr_contains("no Cluster with spec.topology found")
//!     .stdout("")
//!     .run();
//! ```
//! As in `just`'s test harness, the expectations are checked when the test runs: `run()` asserts
//! every one of them (the exit status is expected to be 0 unless `status` says otherwise) and
//! panics with the command line, exit code, stdout and stderr when one fails; it then returns the
//! [`Output`] for tests that look further. `run_unchecked()` asserts nothing (for a test that
//! judges the exit code itself).
//!
//! Files are written into a fresh temporary directory, which is also the working directory, so
//! diagnostics show short relative paths and snapshots do not depend on the machine.

#![allow(dead_code)]

/// A ClusterClass-and-Cluster builder for scenario tests (`Plan`).
pub mod scenario;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// Root of the repository (for bundled fixtures).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One CLI invocation under construction.
pub struct Test {
    dir: tempfile::TempDir,
    args: Vec<String>,
    env: Vec<(String, String)>,
    clear_env: bool,
    stdin: Option<String>,
    expect: Expect,
}

/// What `run()` checks.
#[derive(Default)]
struct Expect {
    /// Expected exit code; `None` means 0.
    status: Option<i32>,
    stdout: Option<String>,
    stderr: Option<String>,
    stdout_contains: Vec<String>,
    stderr_contains: Vec<String>,
    stdout_lacks: Vec<String>,
    stderr_lacks: Vec<String>,
    stdout_matches: Vec<regex::Regex>,
    stderr_matches: Vec<regex::Regex>,
    /// (JSON pointer, expected value) in stdout parsed as JSON.
    stdout_json: Vec<(String, Value)>,
}

/// What the process did.
#[derive(Debug)]
pub struct Output {
    /// Exit code (-1 if killed by a signal).
    pub code: i32,
    /// stdout as text.
    pub stdout: String,
    /// stderr as text.
    pub stderr: String,
    /// The working directory (kept alive as long as the Output).
    pub dir: tempfile::TempDir,
}

impl Test {
    /// A fresh test with an empty working directory.
    pub fn new() -> Test {
        Test {
            dir: tempfile::tempdir().expect("temporary directory"),
            args: Vec::new(),
            env: Vec::new(),
            clear_env: false,
            stdin: None,
            expect: Expect::default(),
        }
    }

    /// Write `content` to `name` (relative to the working directory).
    pub fn file(self, name: &str, content: &str) -> Test {
        let p = self.dir.path().join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(&p, content).expect("write input");
        self
    }

    /// Copy a fixture directory of the repository into the working directory under `name`.
    pub fn fixture(self, src: &str, name: &str) -> Test {
        self.copy(&repo().join(src), name)
    }

    /// Copy directory `src` (e.g. what an earlier run wrote) into the working directory under
    /// `name`.
    pub fn copy(self, src: &Path, name: &str) -> Test {
        copy_dir(src, &self.dir.path().join(name));
        self
    }

    /// Append arguments.
    pub fn args<I, S>(mut self, args: I) -> Test
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Set an environment variable for the process.
    pub fn env(mut self, k: &str, v: &str) -> Test {
        self.env.push((k.into(), v.into()));
        self
    }

    /// Start the process with an empty environment (plus what `env` adds).
    pub fn env_remove_all(mut self) -> Test {
        self.clear_env = true;
        self
    }

    /// Feed `s` on stdin.
    pub fn stdin(mut self, s: &str) -> Test {
        self.stdin = Some(s.into());
        self
    }

    /// The working directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    // ---- expectations (checked by `run`) ----

    /// Expect exit code `code` (the default is 0).
    pub fn status(mut self, code: i32) -> Test {
        self.expect.status = Some(code);
        self
    }

    /// Expect stdout to be exactly `s`.
    pub fn stdout(mut self, s: &str) -> Test {
        self.expect.stdout = Some(s.into());
        self
    }

    /// Expect stderr to be exactly `s`.
    pub fn stderr(mut self, s: &str) -> Test {
        self.expect.stderr = Some(s.into());
        self
    }

    /// Expect stdout to contain `s` (repeatable).
    pub fn stdout_contains(mut self, s: &str) -> Test {
        self.expect.stdout_contains.push(s.into());
        self
    }

    /// Expect stderr to contain `s` (repeatable).
    pub fn stderr_contains(mut self, s: &str) -> Test {
        self.expect.stderr_contains.push(s.into());
        self
    }

    /// Expect stdout not to contain `s` (repeatable).
    pub fn stdout_lacks(mut self, s: &str) -> Test {
        self.expect.stdout_lacks.push(s.into());
        self
    }

    /// Expect stderr not to contain `s` (repeatable).
    pub fn stderr_lacks(mut self, s: &str) -> Test {
        self.expect.stderr_lacks.push(s.into());
        self
    }

    /// Expect stdout to match the regular expression `re` somewhere (repeatable).
    pub fn stdout_matches(mut self, re: &str) -> Test {
        let re = regex::Regex::new(re).unwrap_or_else(|e| panic!("bad regex {re:?}: {e}"));
        self.expect.stdout_matches.push(re);
        self
    }

    /// Expect stderr to match the regular expression `re` somewhere (repeatable).
    pub fn stderr_matches(mut self, re: &str) -> Test {
        let re = regex::Regex::new(re).unwrap_or_else(|e| panic!("bad regex {re:?}: {e}"));
        self.expect.stderr_matches.push(re);
        self
    }

    /// Expect stdout to be JSON whose value at `pointer` (RFC 6901, `""` for the whole
    /// document) equals `value` (repeatable).
    pub fn stdout_json(mut self, pointer: &str, value: impl Into<Value>) -> Test {
        self.expect
            .stdout_json
            .push((pointer.to_string(), value.into()));
        self
    }

    // ---- running ----

    /// Run `topoplan`, assert every expectation (exit code 0 unless `status` was given), and
    /// return the output. A failed expectation panics with the command line, exit code, stdout
    /// and stderr.
    #[track_caller]
    pub fn run(mut self) -> Output {
        let command = self.command_line();
        let expect = std::mem::take(&mut self.expect);
        let out = self.execute();
        let failures = expect.failures(&out);
        if !failures.is_empty() {
            panic!("{}", report(&command, &failures, &out));
        }
        out
    }

    /// Run `topoplan` and return the output without asserting anything (not even the exit
    /// code). Expectations set on the test are ignored, so setting any is a mistake.
    #[track_caller]
    pub fn run_unchecked(self) -> Output {
        assert!(
            self.expect.is_empty(),
            "run_unchecked() ignores expectations; use run()"
        );
        self.execute()
    }

    /// The command line, shell-quoted, with the environment it sets (for failure reports).
    pub fn command_line(&self) -> String {
        let mut s = String::new();
        if self.clear_env {
            s.push_str("env -i ");
        }
        for (k, v) in &self.env {
            let _ = write!(s, "{k}={} ", quote(v));
        }
        s.push_str("topoplan");
        for a in &self.args {
            s.push(' ');
            s.push_str(&quote(a));
        }
        if self.stdin.is_some() {
            s.push_str(" < (stdin given)");
        }
        s
    }

    fn execute(self) -> Output {
        let mut cmd = Command::cargo_bin("topoplan").expect("binary");
        if self.clear_env {
            cmd.env_clear();
        }
        cmd.current_dir(self.dir.path())
            .args(&self.args)
            .env("NO_COLOR", "1")
            // Inside a GitHub Actions job every diagnostic would also be a workflow command.
            .env_remove("GITHUB_ACTIONS");
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        if let Some(s) = &self.stdin {
            cmd.write_stdin(s.clone());
        }
        let out = cmd.output().expect("run topoplan");
        Output {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            dir: self.dir,
        }
    }
}

impl Expect {
    fn is_empty(&self) -> bool {
        self.status.is_none()
            && self.stdout.is_none()
            && self.stderr.is_none()
            && self.stdout_contains.is_empty()
            && self.stderr_contains.is_empty()
            && self.stdout_lacks.is_empty()
            && self.stderr_lacks.is_empty()
            && self.stdout_matches.is_empty()
            && self.stderr_matches.is_empty()
            && self.stdout_json.is_empty()
    }

    /// A line for every expectation `out` does not meet.
    fn failures(&self, out: &Output) -> Vec<String> {
        let mut f = Vec::new();
        let status = self.status.unwrap_or(0);
        if out.code != status {
            f.push(format!("exit code: expected {status}, got {}", out.code));
        }
        for (stream, text, exact, contains, lacks, matches) in [
            (
                "stdout",
                &out.stdout,
                &self.stdout,
                &self.stdout_contains,
                &self.stdout_lacks,
                &self.stdout_matches,
            ),
            (
                "stderr",
                &out.stderr,
                &self.stderr,
                &self.stderr_contains,
                &self.stderr_lacks,
                &self.stderr_matches,
            ),
        ] {
            if let Some(want) = exact
                && want != text
            {
                let diff = similar::TextDiff::from_lines(want.as_str(), text.as_str())
                    .unified_diff()
                    .header("expected", "actual")
                    .to_string();
                f.push(format!("{stream} differs from the expected text:\n{diff}"));
            }
            for s in contains {
                if !text.contains(s.as_str()) {
                    f.push(format!("{stream} should contain {s:?}"));
                }
            }
            for s in lacks {
                if text.contains(s.as_str()) {
                    f.push(format!("{stream} should not contain {s:?}"));
                }
            }
            for re in matches {
                if !re.is_match(text) {
                    f.push(format!("{stream} should match /{re}/"));
                }
            }
        }
        if !self.stdout_json.is_empty() {
            match serde_json::from_str::<Value>(&out.stdout) {
                Err(e) => f.push(format!("stdout is not JSON: {e}")),
                Ok(doc) => {
                    for (pointer, want) in &self.stdout_json {
                        match doc.pointer(pointer) {
                            None => f.push(format!("stdout JSON has nothing at {pointer:?}")),
                            Some(got) if got != want => f.push(format!(
                                "stdout JSON at {pointer:?}: expected {want}, got {got}"
                            )),
                            Some(_) => {}
                        }
                    }
                }
            }
        }
        f
    }
}

/// The panic message for failed expectations.
fn report(command: &str, failures: &[String], out: &Output) -> String {
    let mut s = String::from("unmet expectations:\n");
    for f in failures {
        let _ = writeln!(s, "  - {}", f.replace('\n', "\n    "));
    }
    let _ = writeln!(s, "command:   {command}");
    let _ = writeln!(s, "directory: {}", out.dir.path().display());
    let _ = writeln!(s, "exit code: {}", out.code);
    let _ = writeln!(s, "--- stdout ---\n{}", clip(&out.stdout));
    let _ = write!(s, "--- stderr ---\n{}", clip(&out.stderr));
    s
}

/// `s`, cut after 20,000 bytes (a plan document can be long).
fn clip(s: &str) -> String {
    const MAX: usize = 20_000;
    if s.len() <= MAX {
        return s.to_string();
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n… ({} more bytes)", &s[..end], s.len() - end)
}

/// `a` quoted for a POSIX shell when it needs to be.
fn quote(a: &str) -> String {
    if !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c))
    {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

impl Output {
    /// Assert success and return stdout.
    pub fn ok(&self) -> &str {
        assert_eq!(self.code, 0, "expected success; stderr:\n{}", self.stderr);
        &self.stdout
    }

    /// Assert exit code 1 and return stderr.
    pub fn fails(&self) -> &str {
        assert_eq!(
            self.code, 1,
            "expected failure; stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        &self.stderr
    }

    /// Every file under `rel` (sorted), as `=== path\ncontent` blocks.
    pub fn tree(&self, rel: &str) -> String {
        let root = self.dir.path().join(rel);
        let mut files = Vec::new();
        walk(&root, &mut files);
        files.sort();
        let mut out = String::new();
        for f in files {
            let name = f
                .strip_prefix(&root)
                .expect("under root")
                .display()
                .to_string();
            out.push_str(&format!("=== {name}\n"));
            out.push_str(&std::fs::read_to_string(&f).expect("read output"));
        }
        out
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).expect("create fixture dir");
    for e in std::fs::read_dir(src).expect("read fixture dir").flatten() {
        let p = e.path();
        let to = dst.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &to);
        } else {
            std::fs::copy(&p, &to).expect("copy fixture");
        }
    }
}
