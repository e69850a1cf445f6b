/*!
`KUBECTL_EXTERNAL_DIFF`: a plan's or review's changes shown by the user's own diff program, as
`kubectl diff` shows its changes.

Owns kubectl's calling convention: the variable holds a program and optional arguments
separated by spaces (`colordiff -N -u`, `meld`), each argument made only of letters, digits,
`-` and `=` (kubectl drops any other; so does topoplan, with a warning); the program is run once
with two directories, the objects before and after, one file per object named
`group.version.Kind.namespace.name` (flat, so `diff -u -N OLD NEW` compares them without `-r`);
an object only one side has is a file in that directory only. The program's exit status 0 or 1
means no differences / differences; anything else is its failure.

The directories live in one temporary directory that topoplan creates and removes; nothing else
is written or deleted. Files are written as Clusters complete, so memory stays flat.
*/

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::diag::{Code, Diagnostic};
use crate::plan::{Action, ClusterPlan};

/// The environment variable, kubectl's.
pub const VARIABLE: &str = "KUBECTL_EXTERNAL_DIFF";

/// The program and arguments the variable names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The program (looked up on `PATH` when it has no `/`).
    pub program: String,
    /// Its arguments, before the two directories.
    pub args: Vec<String>,
    /// Arguments dropped because kubectl would drop them (other characters than letters,
    /// digits, `-` and `=`).
    pub dropped: Vec<String>,
}

impl Command {
    /// Read the variable's value; `None` when it names no program.
    pub fn parse(value: &str) -> Option<Command> {
        // kubectl splits on single spaces; the empty words of repeated spaces fail its argument
        // check and are dropped, which comes to splitting on runs of spaces.
        let mut words = value.split(' ').filter(|w| !w.is_empty());
        let program = words.next()?.to_string();
        let (args, dropped): (Vec<String>, Vec<String>) =
            words.map(str::to_string).partition(|w| {
                w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '=')
            });
        Some(Command {
            program,
            args,
            dropped,
        })
    }

    /// The warning for dropped arguments, when some were.
    pub fn warning(&self) -> Option<Diagnostic> {
        (!self.dropped.is_empty()).then(|| {
            Diagnostic::warning(
                Code::OutputExternalDiff,
                format!(
                    "{VARIABLE}: argument(s) {} dropped: only letters, digits, '-' and '=' are allowed, as kubectl allows",
                    self.dropped
                        .iter()
                        .map(|a| format!("{a:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
    }
}

/// One object's two sides, as files: the name, and the YAML before and after (absent on the
/// side where the object does not exist).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// `group.version.Kind.namespace.name`, made safe as a file name.
    pub name: String,
    /// The object before the change.
    pub old: Option<String>,
    /// The object after the change.
    pub new: Option<String>,
}

/// The files of one Cluster's changes: every object created, modified or deleted. Computed
/// where the Cluster is rendered (on a worker), written in plan order.
pub fn pairs(c: &ClusterPlan) -> Vec<Pair> {
    let yaml = crate::load::yaml::to_yaml;
    c.objects
        .iter()
        .filter(|o| o.action != Action::Unchanged)
        .map(|o| {
            let name = file_name(o.api_version(), o.kind(), o.namespace(), o.name());
            let (old, new) = match crate::output::table::compared(o) {
                Some((_, before, after)) => (Some(yaml(&before)), Some(yaml(&after))),
                None => match o.action {
                    Action::Deleted => (Some(yaml(&o.object)), None),
                    _ => (None, Some(yaml(&o.object))),
                },
            };
            Pair { name, old, new }
        })
        .collect()
}

/// kubectl's file name for an object, `group.version.Kind.namespace.name` (no group for the core
/// API), with every character other than letters, digits, `.`, `-` and `_` replaced by `_`: a
/// name comes from input and must stay one file inside the directory.
fn file_name(api_version: &str, kind: &str, namespace: &str, name: &str) -> String {
    let gv = api_version.replace('/', ".");
    let raw = [gv.as_str(), kind, namespace, name]
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(".");
    let safe: String = raw
        .chars()
        .take(200)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    // Never `.`, `..` or a hidden file.
    if safe.starts_with('.') || safe.is_empty() {
        format!("_{safe}")
    } else {
        safe
    }
}

/// The two directories, in a temporary directory removed when this is dropped.
#[derive(Debug)]
pub struct Tree {
    root: tempfile::TempDir,
    used: HashSet<String>,
}

impl Tree {
    /// Create the temporary directory with its `old` and `new` directories.
    pub fn new() -> io::Result<Tree> {
        let root = tempfile::Builder::new()
            .prefix("topoplan-diff-")
            .tempdir()?;
        std::fs::create_dir(root.path().join("old"))?;
        std::fs::create_dir(root.path().join("new"))?;
        Ok(Tree {
            root,
            used: HashSet::new(),
        })
    }

    /// The directory of the objects before the change.
    pub fn old(&self) -> PathBuf {
        self.root.path().join("old")
    }

    /// The directory of the objects after the change.
    pub fn new_dir(&self) -> PathBuf {
        self.root.path().join("new")
    }

    /// Whether any object was written.
    pub fn is_empty(&self) -> bool {
        self.used.is_empty()
    }

    /// Write one Cluster's files. A name already used (the same object in two flavors of a
    /// Cluster) gets a `.2`, `.3`, … suffix, in plan order.
    pub fn add(&mut self, pairs: Vec<Pair>) -> io::Result<()> {
        for p in pairs {
            let mut name = p.name.clone();
            let mut n = 1;
            while self.used.contains(&name) {
                n += 1;
                name = format!("{}.{n}", p.name);
            }
            if let Some(old) = &p.old {
                write_new(&self.old().join(&name), old)?;
            }
            if let Some(new) = &p.new {
                write_new(&self.new_dir().join(&name), new)?;
            }
            self.used.insert(name);
        }
        Ok(())
    }

    /// Run `cmd` on the two directories, its output on topoplan's stdout and stderr. Exit 0
    /// and 1 are answers; any other status, or a program that cannot be started, is an error.
    pub fn run(&self, cmd: &Command) -> Result<(), Diagnostic> {
        let status = std::process::Command::new(&cmd.program)
            .args(&cmd.args)
            .arg(self.old())
            .arg(self.new_dir())
            .stdin(Stdio::null())
            .status()
            .map_err(|e| {
                Diagnostic::error(
                    Code::OutputExternalDiff,
                    format!("{VARIABLE}: cannot run {:?}: {e}", cmd.program),
                )
                .with_help(format!(
                    "unset {VARIABLE} to see the diffs topoplan prints itself"
                ))
            })?;
        match status.code() {
            Some(0 | 1) => Ok(()),
            other => Err(Diagnostic::error(
                Code::OutputExternalDiff,
                format!(
                    "{VARIABLE}: {:?} failed ({})",
                    cmd.program,
                    match other {
                        Some(c) => format!("exit status {c}"),
                        None => "killed by a signal".to_string(),
                    }
                ),
            )),
        }
    }
}

/// Write `pairs` into `tree`, creating it on first use (so a run with no change creates
/// nothing).
pub fn add(tree: &mut Option<Tree>, pairs: Vec<Pair>) -> Result<(), Diagnostic> {
    if pairs.is_empty() {
        return Ok(());
    }
    let failed = |e: io::Error| {
        Diagnostic::error(
            Code::OutputExternalDiff,
            format!("{VARIABLE}: cannot write the objects to compare: {e}"),
        )
    };
    if tree.is_none() {
        *tree = Some(Tree::new().map_err(failed)?);
    }
    match tree.as_mut() {
        Some(t) => t.add(pairs).map_err(failed),
        None => Ok(()),
    }
}

/// Create `path` (which must not exist) holding `text`.
fn write_new(path: &Path, text: &str) -> io::Result<()> {
    use std::io::Write as _;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    f.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_splits_on_spaces_and_drops_unsafe_arguments() {
        let c = Command::parse("colordiff  -N -u --label=$(x) a;b").unwrap();
        assert_eq!(c.program, "colordiff");
        assert_eq!(c.args, ["-N", "-u"]);
        assert_eq!(c.dropped, ["--label=$(x)", "a;b"]);
        assert!(c.warning().is_some());
        assert_eq!(Command::parse("   "), None);
        assert!(Command::parse("meld").unwrap().warning().is_none());
    }

    #[test]
    fn file_names_stay_in_the_directory() {
        assert_eq!(
            file_name(
                "cluster.x-k8s.io/v1beta2",
                "MachineDeployment",
                "default",
                "md"
            ),
            "cluster.x-k8s.io.v1beta2.MachineDeployment.default.md"
        );
        assert_eq!(file_name("v1", "Secret", "ns", "s"), "v1.Secret.ns.s");
        assert_eq!(file_name("", "", "", ".."), "_..");
        assert_eq!(
            file_name("a/b", "K/../x", "n", "x\u{0}y"),
            "a.b.K_.._x.n.x_y"
        );
        assert_eq!(file_name("", "", "", "").as_str(), "_");
        assert!(file_name("g/v", &"k".repeat(1000), "n", "x").len() <= 200);
    }

    #[test]
    fn repeated_names_get_suffixes_and_one_sided_objects_one_file() {
        let mut t = Tree::new().unwrap();
        let p = |old: Option<&str>, new: Option<&str>| Pair {
            name: "v1.K.ns.a".into(),
            old: old.map(str::to_string),
            new: new.map(str::to_string),
        };
        t.add(vec![
            p(Some("x: 1\n"), Some("x: 2\n")),
            p(None, Some("y: 1\n")),
        ])
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(t.old().join("v1.K.ns.a")).unwrap(),
            "x: 1\n"
        );
        assert_eq!(
            std::fs::read_to_string(t.new_dir().join("v1.K.ns.a.2")).unwrap(),
            "y: 1\n"
        );
        assert!(!t.old().join("v1.K.ns.a.2").exists());
        let root = t.root.path().to_path_buf();
        drop(t);
        assert!(!root.exists(), "the temporary directory is removed");
    }
}
