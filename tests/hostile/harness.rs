//! The bounded runner: a small CLI test builder whose `run` enforces a time limit and reports
//! peak memory.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Default wall-clock limit, past which a run is killed as hung. The bounds a test asserts are
/// on CPU time ([`Bounded::within`]); this only has to be far above them, so that a busy machine
/// (other builds beside the tests) never kills a run that is merely waiting for a core.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default memory bound (the 1 GiB), in KiB.
pub const DEFAULT_MAX_RSS_KIB: u64 = 1 << 20;

/// One bounded invocation under construction.
pub struct Hostile {
    dir: tempfile::TempDir,
    args: Vec<String>,
    env: Vec<(String, String)>,
    stdin: Option<Vec<u8>>,
    timeout: Duration,
}

/// What the process did, and what it cost.
#[derive(Debug)]
pub struct Bounded {
    /// Exit code; -1 when killed by a signal (including the time limit).
    pub code: i32,
    /// Terminating signal, if any.
    pub signal: Option<i32>,
    /// Whether the time limit killed it.
    pub timed_out: bool,
    /// stdout, lossily decoded.
    pub stdout: String,
    /// stderr, lossily decoded.
    pub stderr: String,
    /// Raw stderr bytes (to check that no control byte reached the terminal).
    pub stderr_bytes: Vec<u8>,
    /// Raw stdout bytes.
    pub stdout_bytes: Vec<u8>,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// CPU time, user and system, of all its threads.
    pub cpu: Duration,
    /// Peak resident set size, KiB.
    pub peak_rss_kib: u64,
    /// The working directory (kept alive as long as the result).
    pub dir: tempfile::TempDir,
}

impl Default for Hostile {
    fn default() -> Self {
        Self::new()
    }
}

impl Hostile {
    /// A fresh run with an empty temporary working directory.
    pub fn new() -> Hostile {
        Hostile {
            dir: tempfile::tempdir().expect("temporary directory"),
            args: Vec::new(),
            env: Vec::new(),
            stdin: None,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// Write `content` to `name` under the working directory.
    pub fn file(self, name: &str, content: impl AsRef<[u8]>) -> Hostile {
        let p = self.dir.path().join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(&p, content).expect("write input");
        self
    }

    /// Give Cluster and ClusterClass CRDs without limits (`--crds`; append after the
    /// subcommand's arguments). Cluster API's built-in CRDs refuse many hostile inputs at once
    /// (lengths, item counts), as the API server would; tests of topoplan's own bounds behind
    /// them need inputs that get that far, as they would with a user's CRD that sets no limits.
    pub fn without_crd_limits(self) -> Hostile {
        let mut crds = String::new();
        for (plural, kind) in [("clusters", "Cluster"), ("clusterclasses", "ClusterClass")] {
            crds.push_str(&format!(
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
                 metadata: {{name: {plural}.cluster.x-k8s.io}}\n\
                 spec:\n  group: cluster.x-k8s.io\n  names: {{kind: {kind}, plural: {plural}}}\n\
                 \x20 scope: Namespaced\n  versions:\n"
            ));
            for v in ["v1beta1", "v1beta2"] {
                crds.push_str(&format!(
                    "  - name: {v}\n    served: true\n    storage: {}\n    schema:\n      \
                     openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n",
                    v == "v1beta2"
                ));
            }
            crds.push_str("---\n");
        }
        self.file("permissive-crds.yaml", crds)
            .args(["--crds", "permissive-crds.yaml"])
    }

    /// Make a directory under the working directory.
    pub fn dir(self, name: &str) -> Hostile {
        std::fs::create_dir_all(self.dir.path().join(name)).expect("create dir");
        self
    }

    /// Make `link` (relative to the working directory) a symlink to `target` (verbatim).
    pub fn symlink(self, target: impl AsRef<Path>, link: &str) -> Hostile {
        let p = self.dir.path().join(link);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::os::unix::fs::symlink(target, &p).expect("symlink");
        self
    }

    /// Append arguments.
    pub fn args<I, S>(mut self, args: I) -> Hostile
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Set an environment variable.
    pub fn env(mut self, k: &str, v: &str) -> Hostile {
        self.env.push((k.into(), v.into()));
        self
    }

    /// Bytes for stdin.
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Hostile {
        self.stdin = Some(bytes.into());
        self
    }

    /// Another time limit.
    pub fn timeout(mut self, t: Duration) -> Hostile {
        self.timeout = t;
        self
    }

    /// The working directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Run `topoplan`, killing it at the time limit; stdout and stderr are read concurrently so a
    /// chatty process never blocks on a full pipe.
    pub fn run(self) -> Bounded {
        let mut cmd = Command::new(bin());
        cmd.current_dir(self.dir.path())
            .args(&self.args)
            .env("NO_COLOR", "1")
            .env_remove("GITHUB_ACTIONS")
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        let start = Instant::now();
        // Reaped below with wait4 (which std's wait cannot do: it drops the rusage).
        #[allow(clippy::zombie_processes)]
        let mut child = cmd.spawn().expect("spawn topoplan");
        let pid = child.id() as libc::pid_t;
        let stdin_thread = self.stdin.map(|bytes| {
            let mut w = child.stdin.take().expect("stdin pipe");
            std::thread::spawn(move || {
                // The process may stop reading early (a size cap): a broken pipe is expected.
                let _ = w.write_all(&bytes);
            })
        });
        let mut out = child.stdout.take().expect("stdout pipe");
        let mut err = child.stderr.take().expect("stderr pipe");
        let out_thread = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = out.read_to_end(&mut v);
            v
        });
        let err_thread = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = err.read_to_end(&mut v);
            v
        });
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain old data; wait4 fills it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let mut timed_out = false;
        let mut hwm_kib = 0;
        loop {
            hwm_kib = hwm_kib.max(vm_hwm_kib(pid));
            // SAFETY: pid is our child; status and usage are valid out-pointers.
            let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
            if r == pid {
                break;
            }
            assert!(r == 0, "wait4 failed");
            if start.elapsed() > self.timeout {
                timed_out = true;
                // SAFETY: sending a signal to our own child.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                // SAFETY: as above, blocking this time.
                unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let elapsed = start.elapsed();
        if let Some(t) = stdin_thread {
            let _ = t.join();
        }
        let stdout_bytes = out_thread.join().expect("stdout reader");
        let stderr_bytes = err_thread.join().expect("stderr reader");
        let es = std::process::ExitStatus::from_raw(status);
        Bounded {
            code: es.code().unwrap_or(-1),
            signal: es.signal(),
            timed_out,
            stdout: String::from_utf8_lossy(&stdout_bytes).into_owned(),
            stderr: String::from_utf8_lossy(&stderr_bytes).into_owned(),
            stderr_bytes,
            stdout_bytes,
            elapsed,
            cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
            // wait4's figure is an upper bound: the kernel folds in the memory of the process
            // that spawned the child (this test binary, with every other test's buffers) as it
            // was at the exec. The high-water mark of the child's own address space, sampled
            // every 2 ms, is a lower bound that misses at most a final spike; it is the fairer
            // of the two for bounds of tens of MiB.
            //
            // A run that ended before its first sample after the exec (a few milliseconds: too
            // quick to have touched much memory) has no figure of its own: wait4's would be
            // this test process's, so none is given.
            peak_rss_kib: if hwm_kib > 0 {
                hwm_kib.min(usage.ru_maxrss as u64)
            } else {
                0
            },
            dir: self.dir,
        }
    }
}

fn tv(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// The CPU time a bound of `secs` seconds allows: a bound is what the run takes on the idle
/// 2-core machine it was measured on, where its threads may use both cores at once; a machine
/// with more cores may spread the same work wider.
fn cpu_allowed(secs: f64) -> f64 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    secs * cores.clamp(2, 4) as f64
}

/// `VmHWM` of a running process once it is `topoplan`, KiB (0 before its exec, once it has
/// exited, or when it cannot be read). Before the exec the child is a copy of this test
/// process, whose high-water mark (every other test's buffers) is not the child's.
fn vm_hwm_kib(pid: libc::pid_t) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .filter(|s| {
            s.lines()
                .next()
                .is_some_and(|l| l.trim_end().ends_with("topoplan"))
        })
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_topoplan"))
}

impl Bounded {
    /// Assert the run ended by itself within `secs` seconds of work and `mib` MiB. The time
    /// is CPU time (see [`cpu_allowed`]), which other processes on the machine do not inflate
    /// as they inflate wall-clock time; a run that hangs instead of working is killed at the
    /// wall-clock limit, which fails here too.
    pub fn within(&self, secs: f64, mib: u64) -> &Self {
        self.ended_by_itself();
        let allowed = cpu_allowed(secs);
        assert!(
            self.cpu.as_secs_f64() <= allowed,
            "took {:?} of CPU time ({:?} wall), bound {allowed} s; stderr (start):\n{}",
            self.cpu,
            self.elapsed,
            head(&self.stderr)
        );
        self.peak_within(mib)
    }

    /// Assert the run ended within `secs` seconds of wall-clock time and `mib` MiB: for runs
    /// whose point is not waiting (a deadline, a body never sent), which cost no CPU while they
    /// wait. Keep `secs` far from the time a wait would take.
    pub fn within_wall(&self, secs: f64, mib: u64) -> &Self {
        self.ended_by_itself();
        assert!(
            self.elapsed.as_secs_f64() <= secs,
            "took {:?}, bound {secs} s; stderr (start):\n{}",
            self.elapsed,
            head(&self.stderr)
        );
        self.peak_within(mib)
    }

    fn peak_within(&self, mib: u64) -> &Self {
        assert!(
            self.peak_rss_kib <= mib * 1024,
            "peak RSS {} MiB, bound {mib} MiB",
            self.peak_rss_kib / 1024
        );
        self
    }

    fn ended_by_itself(&self) {
        assert!(
            !self.timed_out,
            "killed at the time limit after {:?}; stderr (start):\n{}",
            self.elapsed,
            head(&self.stderr)
        );
        assert!(
            self.signal.is_none(),
            "killed by signal {:?}; stderr (start):\n{}",
            self.signal,
            head(&self.stderr)
        );
    }

    /// Assert the hostile-input contract: exit 1, nothing on stdout, no panic, and `needle` in
    /// stderr. Returns stderr.
    pub fn refused(&self, needle: &str) -> &str {
        assert_eq!(
            self.code,
            1,
            "expected exit 1; stdout (start):\n{}\nstderr (start):\n{}",
            head(&self.stdout),
            head(&self.stderr)
        );
        assert!(
            self.stdout.is_empty(),
            "stdout must be empty, got (start):\n{}",
            head(&self.stdout)
        );
        assert!(
            !self.stderr.contains("panicked"),
            "panicked:\n{}",
            head(&self.stderr)
        );
        assert!(
            self.stderr.contains(needle),
            "stderr lacks {needle:?}:\n{}",
            head(&self.stderr)
        );
        &self.stderr
    }

    /// Assert no byte of stdout or stderr is a C0 control other than newline and tab (no ESC,
    /// BEL, CR, ...), nor DEL or a C1 control: nothing from the input reaches the terminal raw.
    pub fn no_control_bytes(&self) -> &Self {
        for (name, text) in [("stdout", &self.stdout), ("stderr", &self.stderr)] {
            if let Some(c) = text
                .chars()
                .find(|&c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{7f}')
            {
                panic!(
                    "{name} carries the control character {c:?}:\n{}",
                    head(text)
                );
            }
        }
        self
    }
}

/// The first 4 KiB of `s`, for assertion messages that stay readable.
pub fn head(s: &str) -> &str {
    let mut end = s.len().min(4096);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Every file under `dir`, relative, sorted, with its bytes: to assert a directory is untouched.
pub fn snapshot_tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).expect("metadata");
            let rel = p.strip_prefix(root).expect("under root").to_path_buf();
            if meta.is_dir() {
                out.push((rel, Vec::new()));
                walk(root, &p, out);
            } else if meta.file_type().is_symlink() {
                let t = std::fs::read_link(&p).expect("read link");
                out.push((rel, t.into_os_string().into_encoded_bytes()));
            } else {
                out.push((rel, std::fs::read(&p).expect("read file")));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The files of `testdata/examples/<name>` under `dest/`, each passed through `edit(file name,
/// text)` first.
pub fn example(
    h: Hostile,
    name: &str,
    dest: &str,
    edit: &dyn Fn(&str, String) -> String,
) -> Hostile {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/examples")
        .join(name);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("example dir")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    paths.into_iter().fold(h, |h, p| {
        let file = p.file_name().expect("name").to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).expect("read example");
        h.file(&format!("{dest}/{file}"), edit(&file, text))
    })
}

/// The runtime-sdk example (a ClusterClass with external patches) under `ex/`.
pub fn runtime_sdk_example(h: Hostile) -> Hostile {
    example(h, "runtime-sdk", "ex", &|_, text| text)
}
