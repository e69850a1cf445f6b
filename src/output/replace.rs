/*!
Writing `--output-dir DIR` without ever losing data: which directories may be replaced, and the
staged, atomic replacement itself. The file layout and the marker are [`super::files`]'.

Refused before anything is touched (exit 1): a DIR that is a symbolic link, not a directory, the
current directory or one of its ancestors, a mount point (its `st_dev` differs from its
parent's), or that holds an input (`-f`, `--current`; compared canonicalized); an existing DIR
that is neither empty nor topoplan's, or that holds anything the marker does not list (a file
the user added: refused, naming it). A DIR inside an input directory is fine: the input walk
is told to skip it (`cli::plan` sets that up).

Replacing: the new tree is written to a hidden sibling `.<DIR>.topoplan-staging-<pid>`; then the
two are swapped and only then the old tree is deleted. On Linux the swap is one atomic
`renameat2(RENAME_EXCHANGE)`, so DIR always exists and holds one whole plan; elsewhere (or on a
file system without it) the old DIR is renamed aside to `.<DIR>.topoplan-old-<pid>` and the
staging directory renamed to DIR, and a failure of that second rename puts the old DIR back.
Every failure before the swap removes the staging directory. Missing parents of DIR are
created (as `mkdir -p`, and as `helm template --output-dir` does) and removed again when the
write fails.

SIGINT and SIGTERM only raise the `cancel` flag the caller passes (see `cli::interrupt`): it is
checked between files, so an interrupted run removes its staging directory and leaves DIR as
it was; the two renames are never interrupted half-way (a signal arriving there is honoured
once the new plan is in place). SIGKILL cannot be caught: it may leave the staging directory (or,
after the swap, the old plan under that name) beside DIR, hidden and safe to delete; only with
the two-rename fallback can it, between the renames, leave no DIR and the old plan whole in
`.<DIR>.topoplan-old-<pid>`.

For tests only, [`TestHook`] (set from `TOPOPLAN_TEST_WRITE_HOOK` by the CLI) pauses at the two
points where a signal matters, or forces the two-rename swap and fails its second rename, so the
tests can hit those windows and the rollback deterministically.
*/

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::files::{MARKER, marker_files, marker_text};
use crate::diag::{Code, Diagnostic};

/// Largest marker read: a listing of every file of a large fleet's plan fits many times over;
/// anything larger was not written by topoplan.
pub const MAX_MARKER_BYTES: u64 = 64 << 20;

/// Components of the deepest path the layout writes: `<namespace>/<name>/<flavor>/<action>/<file>`.
const MAX_LAYOUT_DEPTH: usize = 5;

/// What `write` needs besides the plan.
#[derive(Debug, Default, Clone, Copy)]
pub struct WriteOptions<'a> {
    /// The run's input paths (`-f`, `--current`): DIR may not hold one.
    pub inputs: &'a [PathBuf],
    /// Raised by a signal handler: stop at the next step, clean up, report [`WriteError::Interrupted`].
    pub cancel: Option<&'a AtomicBool>,
    /// Test-only behaviour; `None` in every real run.
    pub hook: Option<TestHook>,
}

/// Test-only interference with a write (never set outside tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestHook {
    /// Sleep this long after the first file is staged and again in the middle of the swap
    /// (after the exchange, or between the two renames).
    Pause(Duration),
    /// Swap with two renames and fail the second (after the old DIR was moved aside).
    FailSwap,
}

impl TestHook {
    /// Parse `pause:MS` or `fail-swap` (the value of `TOPOPLAN_TEST_WRITE_HOOK`); a pause is
    /// capped at 10 s so a stray variable cannot hang a run.
    pub fn parse(s: &str) -> Option<TestHook> {
        if s == "fail-swap" {
            return Some(TestHook::FailSwap);
        }
        let ms: u64 = s.strip_prefix("pause:")?.parse().ok()?;
        Some(TestHook::Pause(Duration::from_millis(ms.min(10_000))))
    }

    fn pause(hook: Option<TestHook>) {
        if let Some(TestHook::Pause(d)) = hook {
            std::thread::sleep(d);
        }
    }
}

/// Why `write` did not complete.
#[derive(Debug)]
pub enum WriteError {
    /// DIR was refused or could not be written; it is as it was.
    Failed(Diagnostic),
    /// A signal stopped the write; the diagnostic says which plan DIR holds.
    Interrupted(Diagnostic),
}

impl From<Diagnostic> for WriteError {
    fn from(d: Diagnostic) -> Self {
        WriteError::Failed(d)
    }
}

/// `p` for a message: control characters (a hostile file name) are escaped, never printed raw.
fn shown(p: &Path) -> String {
    let s = p.display().to_string();
    if !s.chars().any(char::is_control) {
        return s;
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn io_error(what: &str, p: &Path, e: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        Code::OutputWrite,
        format!("cannot {what} {}: {e}", shown(p)),
    )
}

/// Refuse `dir` as an output directory when replacing it could lose anything (see the module
/// documentation). Touches nothing.
pub fn check(dir: &Path, inputs: &[PathBuf]) -> Result<(), Diagnostic> {
    let d = shown(dir);
    if dir.as_os_str().is_empty() {
        return Err(
            Diagnostic::error(Code::OutputDirectory, "--output-dir is empty")
                .with_help("name a directory, e.g. --output-dir plan"),
        );
    }
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(m) => m,
        // Nothing there: nothing to lose, and no input can be inside it.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error("read output directory", dir, &e)),
    };
    if meta.file_type().is_symlink() {
        return Err(
            Diagnostic::error(Code::OutputDirectory, format!("output directory {d} is a symbolic link"))
                .with_help("topoplan replaces the output directory by renaming it; name the directory itself, not a link to it"),
        );
    }
    if !meta.is_dir() {
        return Err(Diagnostic::error(
            Code::OutputDirectory,
            format!("output directory {d} exists and is not a directory"),
        )
        .with_help("choose a new or empty directory"));
    }
    let canon = std::fs::canonicalize(dir).map_err(|e| io_error("resolve", dir, &e))?;
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .map_err(|e| {
            Diagnostic::error(
                Code::OutputDirectory,
                format!("cannot resolve the current directory: {e}"),
            )
        })?;
    if cwd.starts_with(&canon) {
        let what = if cwd == canon {
            "the current directory"
        } else {
            "an ancestor of the current directory"
        };
        return Err(Diagnostic::error(Code::OutputDirectory, format!("output directory {d} is {what}"))
            .with_help("replacing it would remove the directory you are working in; choose a new subdirectory, e.g. --output-dir plan"));
    }
    if is_mount_point(&canon, &meta)? {
        return Err(Diagnostic::error(
            Code::OutputDirectory,
            format!("output directory {d} is a mount point"),
        )
        .with_help("a mount point cannot be replaced by renaming; choose a directory inside it"));
    }
    for input in inputs {
        if input.as_os_str() == "-" {
            continue;
        }
        // An input that does not exist is the loader's to report.
        let Ok(c) = std::fs::canonicalize(input) else {
            continue;
        };
        if c.starts_with(&canon) {
            let msg = if c == canon {
                format!("output directory {d} is also an input")
            } else {
                format!("output directory {d} holds the input {}", shown(input))
            };
            return Err(Diagnostic::error(Code::OutputDirectory, msg).with_help(
                "replacing the output directory would delete what the plan was made from; choose an output directory outside the inputs",
            ));
        }
    }
    ownership(dir)
}

#[cfg(unix)]
fn is_mount_point(canon: &Path, meta: &std::fs::Metadata) -> Result<bool, Diagnostic> {
    use std::os::unix::fs::MetadataExt;
    // The root has no parent; it is an ancestor of the current directory, refused above.
    let Some(parent) = canon.parent() else {
        return Ok(true);
    };
    let pm = std::fs::metadata(parent).map_err(|e| io_error("read", parent, &e))?;
    Ok(pm.dev() != meta.dev())
}

#[cfg(not(unix))]
fn is_mount_point(_: &Path, _: &std::fs::Metadata) -> Result<bool, Diagnostic> {
    Ok(false)
}

/// An existing DIR may be replaced only when it is empty, or topoplan's marker lists every file
/// in it.
fn ownership(dir: &Path) -> Result<(), Diagnostic> {
    let d = shown(dir);
    let mut entries =
        std::fs::read_dir(dir).map_err(|e| io_error("read output directory", dir, &e))?;
    if entries.next().is_none() {
        return Ok(());
    }
    let not_ours = || {
        Diagnostic::error(
            Code::OutputDirectory,
            format!("output directory {d} exists and was not written by topoplan"),
        )
        .with_help(
            "choose a new or empty directory; topoplan only replaces directories it wrote itself",
        )
    };
    let marker = dir.join(MARKER);
    match std::fs::symlink_metadata(&marker) {
        Ok(m) if m.is_file() => {}
        _ => return Err(not_ours()),
    }
    let mut text = String::new();
    std::fs::File::open(&marker)
        .and_then(|f| f.take(MAX_MARKER_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| io_error("read", &marker, &e))?;
    if text.len() as u64 > MAX_MARKER_BYTES {
        return Err(not_ours());
    }
    let Some(files) = marker_files(&text) else {
        return Err(Diagnostic::error(Code::OutputDirectory, format!(
            "output directory {d} was written by an older topoplan, which did not record the files it wrote"
        ))
        .with_help("delete it yourself (after keeping anything you added), or choose another directory"));
    };
    // No layout path is deeper than this; a deeper listing is not topoplan's, and leaving it out
    // keeps the walk's recursion shallow whatever the marker says.
    let files: BTreeSet<PathBuf> = files
        .into_iter()
        .filter(|f| f.components().count() <= MAX_LAYOUT_DEPTH)
        .collect();
    let dirs: BTreeSet<PathBuf> = files
        .iter()
        .flat_map(|f| f.ancestors().skip(1))
        .filter(|a| !a.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .collect();
    if let Some(foreign) = foreign_entry(dir, Path::new(""), &files, &dirs)? {
        return Err(Diagnostic::error(Code::OutputDirectory, format!(
            "output directory {d} holds {}, which topoplan did not write",
            shown(&foreign)
        ))
        .with_help(format!(
            "topoplan replaces its output directory whole, so it refuses when anything was added to it; move {} elsewhere, or choose another directory",
            shown(&dir.join(&foreign))
        )));
    }
    Ok(())
}

/// The smallest entry under `dir/rel` that the marker does not account for: this level's first
/// (by name), else the first found in its subdirectories (by name). Entries are streamed, never
/// collected, and only directories the listing implies are entered, so time and memory are
/// bounded by the listing however much was added; symbolic links are never followed (topoplan
/// writes none).
fn foreign_entry(
    root: &Path,
    rel: &Path,
    files: &BTreeSet<PathBuf>,
    dirs: &BTreeSet<PathBuf>,
) -> Result<Option<PathBuf>, Diagnostic> {
    let here = root.join(rel);
    let mut foreign: Option<OsString> = None;
    let mut subdirs = Vec::new();
    for e in std::fs::read_dir(&here).map_err(|e| io_error("read", &here, &e))? {
        let e = e.map_err(|e| io_error("read", &here, &e))?;
        let ft = e
            .file_type()
            .map_err(|err| io_error("read", &e.path(), &err))?;
        let name = e.file_name();
        let r = rel.join(&name);
        if rel.as_os_str().is_empty() && name == MARKER && ft.is_file() {
            continue;
        }
        if ft.is_dir() && dirs.contains(&r) {
            subdirs.push(r);
        } else if !(ft.is_file() && files.contains(&r))
            && foreign.as_ref().is_none_or(|f| name < *f)
        {
            foreign = Some(name);
        }
    }
    if let Some(f) = foreign {
        return Ok(Some(rel.join(f)));
    }
    subdirs.sort();
    for d in subdirs {
        if let Some(f) = foreign_entry(root, &d, files, dirs)? {
            return Ok(Some(f));
        }
    }
    Ok(None)
}

/// A replacement of DIR under way: files are added to the staging directory as they come (a
/// fleet's plan is never held whole), and [`Staging::finish`] swaps it in. Dropped unfinished,
/// it removes what it created.
pub struct Staging<'a> {
    work: Work,
    dir: PathBuf,
    parent: PathBuf,
    leaf: OsString,
    staging: PathBuf,
    opts: WriteOptions<'a>,
    /// Every file written, relative to DIR (the marker lists them).
    files: Vec<PathBuf>,
}

impl<'a> Staging<'a> {
    /// Check DIR (see the module documentation) and create the staging directory beside it.
    pub fn begin(dir: &Path, opts: WriteOptions<'a>) -> Result<Staging<'a>, WriteError> {
        check(dir, opts.inputs)?;
        let leaf = match dir.components().next_back() {
            Some(Component::Normal(n)) => n.to_os_string(),
            _ => {
                return Err(Diagnostic::error(
                    Code::OutputDirectory,
                    format!(
                        "output directory {} does not end in a directory name",
                        shown(dir)
                    ),
                )
                .with_help(
                    "name the directory itself, e.g. --output-dir plan or --output-dir ../plan",
                )
                .into());
            }
        };
        // Empty for a bare name: joined paths then read as typed (`out`, not `./out`).
        let parent = dir.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut work = Work {
            created: Vec::new(),
            staging: None,
        };
        let begun = work
            .create_parents(&parent)
            .map_err(WriteError::from)
            .and_then(|()| unique_sibling(&parent, &leaf, "staging").map_err(WriteError::from));
        let staging = match begun {
            Ok(s) => s,
            Err(e) => {
                work.clean_up();
                return Err(e);
            }
        };
        work.staging = Some(staging.clone());
        Ok(Staging {
            work,
            dir: parent.join(&leaf),
            parent,
            leaf,
            staging,
            opts,
            files: Vec::new(),
        })
    }

    fn cancelled(&self) -> bool {
        self.opts.cancel.is_some_and(|c| c.load(Ordering::SeqCst))
    }

    fn interrupted(&self) -> WriteError {
        WriteError::Interrupted(Diagnostic::error(
            Code::OutputInterrupted,
            format!(
                "interrupted; output directory {} was left as it was",
                shown(&self.dir)
            ),
        ))
    }

    /// Stage `files` (paths relative to DIR).
    pub fn add(&mut self, files: Vec<(PathBuf, String)>) -> Result<(), WriteError> {
        for (rel, text) in files {
            if self.cancelled() {
                return Err(self.interrupted());
            }
            let path = self.staging.join(&rel);
            if let Some(p) = path.parent() {
                std::fs::create_dir_all(p).map_err(|e| io_error("create", p, &e))?;
            }
            std::fs::write(&path, text).map_err(|e| io_error("write", &path, &e))?;
            self.files.push(rel);
            if self.files.len() == 1 {
                TestHook::pause(self.opts.hook);
            }
        }
        Ok(())
    }

    /// Write the marker and swap the staged tree in for DIR.
    pub fn finish(mut self) -> Result<Vec<Diagnostic>, WriteError> {
        let result = self.swap();
        self.work.clean_up();
        result
    }

    fn swap(&mut self) -> Result<Vec<Diagnostic>, WriteError> {
        let (dir, parent, leaf, opts) = (&self.dir, &self.parent, &self.leaf, self.opts);
        let staging = self.staging.clone();
        let marker = staging.join(MARKER);
        std::fs::write(
            &marker,
            marker_text(self.files.iter().map(PathBuf::as_path)),
        )
        .map_err(|e| io_error("write", &marker, &e))?;
        if self.cancelled() {
            return Err(self.interrupted());
        }
        // Again, right before the swap: the directory may have changed while the plan ran.
        check(dir, opts.inputs)?;
        let mut warnings = Vec::new();
        // From here to the end of the swap a signal only raises the flag: the swap completes.
        match std::fs::symlink_metadata(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::rename(&staging, dir).map_err(|e| io_error("create", dir, &e))?;
                self.work.staging = None;
            }
            Err(e) => return Err(io_error("read output directory", dir, &e).into()),
            Ok(_) => {
                // Swapped in one step where the system can: DIR is never missing, not even
                // for a SIGKILL, and the staging name then holds the old plan.
                let exchanged = if opts.hook == Some(TestHook::FailSwap) {
                    Exchange::Unsupported
                } else {
                    exchange(&staging, dir)
                };
                let old = match exchanged {
                    Exchange::Done => {
                        self.work.staging = None;
                        TestHook::pause(opts.hook);
                        staging
                    }
                    Exchange::Failed(e) => {
                        return Err(io_error("replace", dir, &e)
                            .with_help("the previous plan was left in place")
                            .into());
                    }
                    Exchange::Unsupported => {
                        let aside = rename_aside(&staging, dir, parent, leaf, opts.hook)?;
                        self.work.staging = None;
                        aside
                    }
                };
                if let Err(e) = std::fs::remove_dir_all(&old) {
                    warnings.push(
                        Diagnostic::warning(
                            Code::OutputWrite,
                            format!(
                                "cannot delete the previous plan, moved aside to {}: {e}",
                                shown(&old)
                            ),
                        )
                        .with_help("the new plan is in place; delete that directory yourself"),
                    );
                }
            }
        }
        // The new plan is whole in DIR and nothing else is left: keep the parents we made.
        self.work.created.clear();
        if self.cancelled() {
            return Err(WriteError::Interrupted(Diagnostic::error(
                Code::OutputInterrupted,
                format!(
                    "interrupted; output directory {} holds the new plan",
                    shown(dir)
                ),
            )));
        }
        Ok(warnings)
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        self.work.clean_up();
    }
}

/// What a write created that must go again if it does not complete.
struct Work {
    /// Parents of DIR this run created, outermost first.
    created: Vec<PathBuf>,
    /// The staging directory while it exists.
    staging: Option<PathBuf>,
}

impl Work {
    /// Create the missing ancestors of DIR one by one, remembering them for [`Work::clean_up`].
    fn create_parents(&mut self, parent: &Path) -> Result<(), Diagnostic> {
        let missing: Vec<&Path> = parent
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && std::fs::symlink_metadata(a).is_err())
            .collect();
        for p in missing.into_iter().rev() {
            std::fs::create_dir(p).map_err(|e| io_error("create", p, &e))?;
            self.created.push(p.to_path_buf());
        }
        Ok(())
    }

    /// Remove what an incomplete write left: the staging directory, then the parents it made
    /// (only if still empty: something else may have been put there meanwhile).
    fn clean_up(&mut self) {
        if let Some(s) = self.staging.take() {
            let _ = std::fs::remove_dir_all(s);
        }
        for p in self.created.drain(..).rev() {
            let _ = std::fs::remove_dir(p);
        }
    }
}

/// The swap in two renames, where an exchange is not available: DIR aside, staging in, and
/// DIR back if the second fails. Returns where the old plan now is.
fn rename_aside(
    staging: &Path,
    dir: &Path,
    parent: &Path,
    leaf: &OsString,
    hook: Option<TestHook>,
) -> Result<PathBuf, Diagnostic> {
    let aside = unique_name(parent, leaf, "old");
    std::fs::rename(dir, &aside).map_err(|e| io_error("replace", dir, &e))?;
    TestHook::pause(hook);
    let swapped = if hook == Some(TestHook::FailSwap) {
        Err(std::io::Error::other(
            "test hook: the rename into place fails",
        ))
    } else {
        std::fs::rename(staging, dir)
    };
    if let Err(e) = swapped {
        let restored = std::fs::rename(&aside, dir);
        let d = io_error("replace", dir, &e);
        return Err(match restored {
            Ok(()) => d.with_help("the previous plan was put back in place"),
            Err(r) => d.with_help(format!(
                "the previous plan could not be put back ({r}); it is in {}",
                shown(&aside)
            )),
        });
    }
    Ok(aside)
}

/// What an atomic exchange of two directories did.
enum Exchange {
    /// The two were swapped in one step.
    Done,
    /// This system or file system cannot; fall back to two renames.
    Unsupported,
    /// It can, but failed; nothing moved.
    Failed(std::io::Error),
}

/// Swap `a` and `b` in one step (Linux's `renameat2(RENAME_EXCHANGE)`, through `rustix`).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> Exchange {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    use rustix::io::Errno;
    match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
        Ok(()) => Exchange::Done,
        // Kernels before 3.15 and file systems without exchange (some network and FUSE ones).
        Err(e) if e == Errno::INVAL || e == Errno::NOSYS || e == Errno::NOTSUP => {
            Exchange::Unsupported
        }
        Err(e) => Exchange::Failed(e.into()),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> Exchange {
    Exchange::Unsupported
}

/// `parent/.<leaf>.topoplan-<what>-<pid>[-n]`, a name nothing else uses, not yet created.
fn unique_name(parent: &Path, leaf: &OsString, what: &str) -> PathBuf {
    let base = format!(
        ".{}.topoplan-{what}-{}",
        leaf.to_string_lossy(),
        std::process::id()
    );
    let mut p = parent.join(&base);
    let mut n = 0;
    while std::fs::symlink_metadata(&p).is_ok() {
        n += 1;
        p = parent.join(format!("{base}-{n}"));
    }
    p
}

/// Create a fresh hidden sibling directory of DIR. `create_dir` fails on anything already
/// there, so a leftover or planted entry of the same name is never written into.
fn unique_sibling(parent: &Path, leaf: &OsString, what: &str) -> Result<PathBuf, Diagnostic> {
    for _ in 0..100 {
        let p = unique_name(parent, leaf, what);
        match std::fs::create_dir(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error("create", &p, &e)),
        }
    }
    Err(Diagnostic::error(
        Code::OutputWrite,
        format!(
            "cannot create a staging directory next to {}: too many leftovers",
            shown(&parent.join(leaf))
        ),
    )
    .with_help("delete the .*.topoplan-staging-* directories of interrupted runs"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_parses_only_its_two_forms() {
        assert_eq!(
            TestHook::parse("pause:250"),
            Some(TestHook::Pause(Duration::from_millis(250)))
        );
        assert_eq!(
            TestHook::parse("pause:99999999"),
            Some(TestHook::Pause(Duration::from_secs(10)))
        );
        assert_eq!(TestHook::parse("fail-swap"), Some(TestHook::FailSwap));
        assert_eq!(TestHook::parse("pause:"), None);
        assert_eq!(TestHook::parse("whatever"), None);
    }

    #[test]
    fn control_characters_in_paths_are_escaped() {
        assert_eq!(shown(Path::new("a\u{1b}[31mb")), "a\\u{1b}[31mb");
        assert_eq!(shown(Path::new("plain/path")), "plain/path");
    }

    #[test]
    fn parents_made_for_a_failed_write_are_removed_unless_used_meanwhile() {
        let t = tempfile::tempdir().expect("tempdir");
        let mut work = Work {
            created: Vec::new(),
            staging: None,
        };
        work.create_parents(&t.path().join("a/b/c"))
            .expect("create");
        assert_eq!(work.created.len(), 3);
        // Something else put a file in `a` meanwhile: `a` stays, `b` and `c` go.
        std::fs::write(t.path().join("a/keep"), "x").expect("write");
        work.clean_up();
        assert!(t.path().join("a/keep").is_file());
        assert!(!t.path().join("a/b").exists());
    }

    #[test]
    fn foreign_entries_are_found_and_listed_ones_are_not() {
        let t = tempfile::tempdir().expect("tempdir");
        let root = t.path();
        std::fs::create_dir_all(root.join("ns/c/created")).expect("mkdir");
        std::fs::write(root.join("ns/c/created/A.yaml"), "a").expect("write");
        let files: BTreeSet<PathBuf> = [PathBuf::from("ns/c/created/A.yaml")].into();
        let dirs: BTreeSet<PathBuf> = ["ns", "ns/c", "ns/c/created"].map(PathBuf::from).into();
        std::fs::write(root.join(MARKER), "").expect("write");
        assert_eq!(
            foreign_entry(root, Path::new(""), &files, &dirs).ok(),
            Some(None)
        );
        std::fs::write(root.join("ns/c/notes.txt"), "mine").expect("write");
        assert_eq!(
            foreign_entry(root, Path::new(""), &files, &dirs).ok(),
            Some(Some(PathBuf::from("ns/c/notes.txt")))
        );
    }
}
