//! A small builder for CLI tests: input files, arguments, and the process's output.
//!
//! ```ignore
//! let out = Test::new().file("a.yaml", "...").args(["plan", "-f", "a.yaml"]).run();
//! assert_eq!(out.code, 0);
//! ```
//! Files are written into a fresh temporary directory, which is also the working directory, so
//! diagnostics show short relative paths and snapshots do not depend on the machine.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

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
        copy_dir(&repo().join(src), &self.dir.path().join(name));
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

    /// Run `topoplan` with the arguments.
    pub fn run(self) -> Output {
        let mut cmd = Command::cargo_bin("topoplan").expect("binary");
        if self.clear_env {
            cmd.env_clear();
        }
        cmd.current_dir(self.dir.path())
            .args(&self.args)
            .env("NO_COLOR", "1");
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
