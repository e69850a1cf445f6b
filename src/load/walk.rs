/*!
Directory walks: which files a directory given as input (`-f DIR`, `--current DIR`, `--old DIR`,
diff's OLD/NEW, the working tree of `--base-ref`) contributes, under rules that hold whatever the
directory holds — it may come from a pull request.

- Symbolic links are followed only while they stay inside the *bound* (the directory given, or
  for `--base-ref` the git repository): a link out of it is refused with an error naming the
  link and where it points, never reading the target. A link to a file outside could otherwise
  put `/proc/self/environ` into an error snippet.
- Nor may a link lead to a hidden entry inside the bound (`.env`, `.git/config`): an ordinary
  name linked there would put the file's first lines into an error snippet. Where the target
  is hidden is judged below the directory walked (or the bound, for a target outside it), so a
  walk of a directory that itself sits in a hidden one still follows links within it.
- Each directory is entered once (by device and inode), so links such as `a -> .` and `b -> .`
  cannot make the walk loop or multiply; directories reached through links are walked after the
  real tree, so a file is shown under its real path when it has one.
- FIFOs, sockets and devices are skipped with a warning: opening a FIFO blocks, a device never
  ends.
- Depth and the number of entries are bounded ([`WalkLimits`]).
- Hidden entries are never inputs; excluded directories are never entered.

Owns listing only: reading the files (and the byte budget) is the loader's.
*/

use std::collections::{HashSet, VecDeque};
use std::ffi::OsString;
use std::fs::Metadata;
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};

/// Deepest directory nesting a walk enters, below the directory given.
pub const MAX_WALK_DEPTH: usize = 100;
/// Most directory entries (files, directories, links, hidden or not) one walk reads.
pub const MAX_WALK_ENTRIES: usize = 100_000;

/// Extensions of input files.
pub const INPUT_EXTENSIONS: &[&str] = &["yaml", "yml", "json"];

/// Bounds of one walk.
#[derive(Debug, Clone, Copy)]
pub struct WalkLimits {
    /// See [`MAX_WALK_DEPTH`].
    pub max_depth: usize,
    /// See [`MAX_WALK_ENTRIES`].
    pub max_entries: usize,
}

impl Default for WalkLimits {
    fn default() -> Self {
        WalkLimits {
            max_depth: MAX_WALK_DEPTH,
            max_entries: MAX_WALK_ENTRIES,
        }
    }
}

/// What a link may not leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    /// The directory given (canonical).
    Directory(PathBuf),
    /// The git repository holding the paths given (its canonical top level).
    Repository(PathBuf),
}

impl Bound {
    /// The directory or repository top level itself.
    pub fn root(&self) -> &Path {
        match self {
            Bound::Directory(p) | Bound::Repository(p) => p,
        }
    }

    /// The error for the link at `link`, which resolves to `target`, a hidden entry.
    pub fn link_hidden(link: &Path, target: &Path) -> Diagnostic {
        Diagnostic::error(
            Code::InputHidden,
            format!(
                "{} is a symbolic link to {}, a hidden entry; hidden files and directories are never inputs, through a link or otherwise",
                link.display(),
                target.display(),
            ),
        )
        .with_help("link to a file whose path has no part starting with a dot")
    }

    /// The error for the link at `link`, which resolves to `target` outside the bound.
    pub fn link_out(&self, link: &Path, target: &Path) -> Diagnostic {
        let (outside, of) = match self {
            Bound::Directory(root) => (
                format!("the directory {}", root.display()),
                "an input directory",
            ),
            Bound::Repository(root) => (
                format!("the git repository at {}", root.display()),
                "the repository",
            ),
        };
        Diagnostic::error(Code::InputOutside, format!(
            "{} is a symbolic link to {}, outside {outside}; topoplan does not follow links out of {of}",
            link.display(),
            target.display(),
        ))
        .with_help(
            "links that stay inside are followed; to read a file outside, give its path on the command line",
        )
    }
}

/// One walk's settings.
#[derive(Debug, Clone)]
pub struct Walk {
    /// What links may not leave.
    pub bound: Bound,
    /// Directories never entered (compared by identity, so any spelling of a path matches).
    pub exclude: Vec<PathBuf>,
    /// Names of directories never entered, wherever they are (a plan directory's `deleted`).
    pub skip_dir_names: Vec<OsString>,
    /// Extensions of the files listed.
    pub extensions: &'static [&'static str],
    /// Depth and size bounds.
    pub limits: WalkLimits,
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// Input files, sorted.
    pub files: Vec<PathBuf>,
    /// Special files skipped.
    pub warnings: Vec<Diagnostic>,
    /// Links refused (the walk goes on past them, so all are reported at once).
    pub errors: Vec<Diagnostic>,
    /// Directories not entered because of their name ([`Walk::skip_dir_names`]).
    pub skipped_dirs: Vec<PathBuf>,
}

/// Whether `target` (canonical) is a hidden entry or inside one, judged below `base` (canonical;
/// a target outside it is judged whole).
pub fn hidden_below(target: &Path, base: &Path) -> bool {
    target
        .strip_prefix(base)
        .unwrap_or(target)
        .components()
        .any(|c| matches!(c, std::path::Component::Normal(n) if n.to_string_lossy().starts_with('.')))
}

/// Identity of a directory: its device and inode where there are such things.
#[cfg(unix)]
type DirId = (u64, u64);
#[cfg(not(unix))]
type DirId = PathBuf;

#[cfg(unix)]
fn dir_id(_path: &Path, meta: &Metadata) -> Option<DirId> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn dir_id(path: &Path, _meta: &Metadata) -> Option<DirId> {
    std::fs::canonicalize(path).ok()
}

/// What kind of special file `meta` describes, for the warning.
fn special_kind(meta: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    let _ = meta;
    "not a regular file"
}

impl Walk {
    /// A walk of a directory bounded by itself (given canonical), listing input files.
    pub fn within(root: PathBuf) -> Walk {
        Walk::new(Bound::Directory(root))
    }

    /// A walk that links may not take out of `bound`, listing input files.
    pub fn new(bound: Bound) -> Walk {
        Walk {
            bound,
            exclude: Vec::new(),
            skip_dir_names: Vec::new(),
            extensions: INPUT_EXTENSIONS,
            limits: WalkLimits::default(),
        }
    }

    /// Walk `dir` (which must lie inside the bound). Errors that make the listing meaningless
    /// (a directory that cannot be read, a limit) end the walk.
    pub fn run(&self, dir: &Path) -> Result<Walked, Diagnostic> {
        let meta = std::fs::metadata(dir).map_err(|e| {
            Diagnostic::error(
                Code::InputRead,
                format!("cannot read {}: {e}", dir.display()),
            )
        })?;
        let excluded = self
            .exclude
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok().and_then(|m| dir_id(p, &m)))
            .collect();
        // Where a link's target is judged hidden from: the walked directory, canonical.
        let top_real =
            std::fs::canonicalize(dir).unwrap_or_else(|_| self.bound.root().to_path_buf());
        let mut state = State {
            walk: self,
            top: dir,
            top_real,
            excluded,
            visited: HashSet::new(),
            entries: 0,
            pending: VecDeque::new(),
            out: Walked::default(),
        };
        state.enter(dir, 0, &meta)?;
        while let Some((path, depth, meta)) = state.pending.pop_front() {
            state.enter(&path, depth, &meta)?;
        }
        state.out.files.sort();
        Ok(state.out)
    }

    fn wanted(&self, path: &Path) -> bool {
        path.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| self.extensions.contains(&e))
    }

    fn skipped_dir(&self, path: &Path) -> bool {
        path.file_name()
            .is_some_and(|n| self.skip_dir_names.iter().any(|s| s == n))
    }
}

struct State<'w> {
    walk: &'w Walk,
    /// The directory the walk started from, for messages.
    top: &'w Path,
    /// The same, canonical.
    top_real: PathBuf,
    excluded: HashSet<DirId>,
    visited: HashSet<DirId>,
    entries: usize,
    /// Directories reached through links, walked after the real tree.
    pending: VecDeque<(PathBuf, usize, Metadata)>,
    out: Walked,
}

impl State<'_> {
    fn enter(&mut self, dir: &Path, depth: usize, meta: &Metadata) -> Result<(), Diagnostic> {
        if let Some(id) = dir_id(dir, meta)
            && (self.excluded.contains(&id) || !self.visited.insert(id))
        {
            return Ok(());
        }
        let limits = self.walk.limits;
        if depth > limits.max_depth {
            return Err(Diagnostic::error(
                Code::InputLimit,
                format!(
                    "{}: directories nested more than {} levels deep under {}",
                    dir.display(),
                    limits.max_depth,
                    self.top.display()
                ),
            )
            .with_help(format!(
                "a walk enters at most {} levels of directories; pass a deeper directory itself",
                limits.max_depth
            )));
        }
        let cannot = |e: std::io::Error| {
            Diagnostic::error(
                Code::InputRead,
                format!("cannot read directory {}: {e}", dir.display()),
            )
        };
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(cannot)? {
            self.entries += 1;
            if self.entries > limits.max_entries {
                return Err(Diagnostic::error(Code::InputLimit, format!(
                    "{}: more than {} directory entries to walk",
                    self.top.display(),
                    limits.max_entries
                ))
                .with_help(format!(
                    "a walk reads at most {} files and directories; pass narrower directories or the files themselves",
                    limits.max_entries
                )));
            }
            entries.push(entry.map_err(cannot)?);
        }
        // Sorted, so the walk (and which path a linked directory is first met under) does not
        // depend on the order the filesystem lists entries in.
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            // Hidden entries (.git, editor swap files) are never inputs.
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let path = entry.path();
            let file_type = entry.file_type().map_err(|e| {
                Diagnostic::error(
                    Code::InputRead,
                    format!("cannot read {}: {e}", path.display()),
                )
            })?;
            if file_type.is_symlink() {
                self.link(path, depth);
            } else if file_type.is_dir() {
                if self.walk.skipped_dir(&path) {
                    self.out.skipped_dirs.push(path);
                    continue;
                }
                let meta = std::fs::symlink_metadata(&path).map_err(|e| {
                    Diagnostic::error(
                        Code::InputRead,
                        format!("cannot read {}: {e}", path.display()),
                    )
                })?;
                self.enter(&path, depth + 1, &meta)?;
            } else if self.walk.wanted(&path) {
                match entry.metadata() {
                    Ok(m) if m.is_file() => self.out.files.push(path),
                    Ok(m) => self.special(path, &m),
                    Err(e) => self.out.errors.push(Diagnostic::error(
                        Code::InputRead,
                        format!("cannot read {}: {e}", path.display()),
                    )),
                }
            }
        }
        Ok(())
    }

    /// A link met in the walk: followed if it stays inside the bound, refused if it leaves
    /// and would have been read or entered, ignored otherwise.
    fn link(&mut self, path: PathBuf, depth: usize) {
        let wanted = self.walk.wanted(&path);
        let resolved = std::fs::canonicalize(&path)
            .and_then(|target| std::fs::metadata(&target).map(|m| (target, m)));
        let (target, meta) = match resolved {
            Ok(t) => t,
            Err(e) => {
                // A dangling link is only a problem where a file was expected.
                if wanted {
                    self.out.errors.push(Diagnostic::error(
                        Code::InputRead,
                        format!("cannot read {}: {e}", path.display()),
                    ));
                }
                return;
            }
        };
        let is_dir = meta.is_dir();
        if is_dir && self.walk.skipped_dir(&path) {
            self.out.skipped_dirs.push(path);
            return;
        }
        if !(wanted || is_dir) {
            return;
        }
        if !target.starts_with(self.walk.bound.root()) {
            self.out
                .errors
                .push(self.walk.bound.link_out(&path, &target));
            return;
        }
        let base = if target.starts_with(&self.top_real) {
            self.top_real.as_path()
        } else {
            self.walk.bound.root()
        };
        if hidden_below(&target, base) {
            self.out.errors.push(Bound::link_hidden(&path, &target));
            return;
        }
        if is_dir {
            self.pending.push_back((path, depth + 1, meta));
        } else if meta.is_file() {
            self.out.files.push(path);
        } else {
            self.special(path, &meta);
        }
    }

    fn special(&mut self, path: PathBuf, meta: &Metadata) {
        self.out.warnings.push(Diagnostic::warning(
            Code::InputSkipped,
            format!(
                "{} is {}, not a regular file: skipped",
                path.display(),
                special_kind(meta)
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn names(root: &Path, files: &[PathBuf]) -> Vec<String> {
        files
            .iter()
            .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
            .collect()
    }

    fn walk(root: &Path) -> Walked {
        let canonical = root.canonicalize().expect("canonical");
        Walk::within(canonical).run(root).expect("walks")
    }

    #[test]
    fn files_sorted_hidden_and_other_extensions_skipped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for f in [
            "b.yaml",
            "a/z.json",
            "a/y.yml",
            ".hidden/x.yaml",
            "notes.txt",
            ".x.yaml",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, "").expect("write");
        }
        let w = walk(root);
        assert_eq!(names(root, &w.files), ["a/y.yml", "a/z.json", "b.yaml"]);
        assert!(w.errors.is_empty() && w.warnings.is_empty());
    }

    #[test]
    fn links_out_are_refused_links_inside_followed() {
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("secret.yaml"), "s3cr3t").expect("write");
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir(root.join("sub")).expect("mkdir");
        std::fs::write(root.join("sub/real.yaml"), "").expect("write");
        symlink(outside.path().join("secret.yaml"), root.join("env.yaml")).expect("link");
        symlink(outside.path(), root.join("elsewhere")).expect("link");
        symlink("sub/real.yaml", root.join("alias.yaml")).expect("link");
        // Not an input, and not entered: ignored even though it leaves.
        symlink(outside.path().join("secret.yaml"), root.join("readme")).expect("link");
        symlink("missing", root.join("dangling")).expect("link");
        let w = walk(root);
        assert_eq!(names(root, &w.files), ["alias.yaml", "sub/real.yaml"]);
        let messages: Vec<&str> = w.errors.iter().map(|e| e.message.as_str()).collect();
        let canonical_out = outside.path().canonicalize().expect("canonical");
        let canonical_root = root.canonicalize().expect("canonical");
        assert_eq!(
            messages,
            [
                format!(
                    "{} is a symbolic link to {}, outside the directory {}; topoplan does not follow links out of an input directory",
                    root.join("elsewhere").display(),
                    canonical_out.display(),
                    canonical_root.display()
                ),
                format!(
                    "{} is a symbolic link to {}, outside the directory {}; topoplan does not follow links out of an input directory",
                    root.join("env.yaml").display(),
                    canonical_out.join("secret.yaml").display(),
                    canonical_root.display()
                ),
            ]
        );
    }

    #[test]
    fn each_directory_once_real_paths_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir(root.join("sub")).expect("mkdir");
        std::fs::write(root.join("sub/x.yaml"), "").expect("write");
        // Sorted before "sub", yet "sub" is walked under its own name.
        symlink("sub", root.join("a-link")).expect("link");
        for l in ["a", "b", "sub/up"] {
            symlink(if l == "sub/up" { ".." } else { "." }, root.join(l)).expect("link");
        }
        let w = walk(root);
        assert_eq!(names(root, &w.files), ["sub/x.yaml"]);
        assert!(w.errors.is_empty(), "{:?}", w.errors);
    }

    #[test]
    fn a_link_to_a_directory_inside_is_walked() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("shared/.hidden")).expect("mkdir");
        std::fs::write(root.join("shared/x.yaml"), "").expect("write");
        std::fs::create_dir(root.join("fleet")).expect("mkdir");
        symlink("../shared", root.join("fleet/common")).expect("link");
        // Bounded by the repository-like root, walked from fleet.
        let w = Walk::within(root.canonicalize().expect("canonical"))
            .run(&root.join("fleet"))
            .expect("walks");
        assert_eq!(names(root, &w.files), ["fleet/common/x.yaml"]);
        // Bounded by fleet itself, the same link leaves.
        let fleet = root.join("fleet");
        let w = walk(&fleet);
        assert!(w.files.is_empty());
        assert_eq!(w.errors.len(), 1);
    }

    #[test]
    fn excluded_directories_are_never_entered() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for f in [
            "in/a.yaml",
            "out/b.yaml",
            "plan/ns/c/deleted/d.yaml",
            "plan/ns/c/created/e.yaml",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, "").expect("write");
        }
        symlink("out", root.join("again")).expect("link");
        let mut w = Walk::within(root.canonicalize().expect("canonical"));
        // Another spelling of the same directory.
        w.exclude = vec![root.join("in/../out")];
        w.skip_dir_names = vec!["deleted".into()];
        let found = w.run(root).expect("walks");
        assert_eq!(
            names(root, &found.files),
            ["in/a.yaml", "plan/ns/c/created/e.yaml"]
        );
        assert_eq!(names(root, &found.skipped_dirs), ["plan/ns/c/deleted"]);
        // An excluded directory that does not exist yet excludes nothing.
        w.exclude = vec![root.join("not-yet")];
        assert_eq!(w.run(root).expect("walks").files.len(), 3);
    }

    #[test]
    fn special_files_are_skipped_with_a_warning() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        let fifo = root.join("pipe.yaml");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(status.success());
        symlink("pipe.yaml", root.join("via-link.yaml")).expect("link");
        std::fs::write(root.join("a.yaml"), "").expect("write");
        let w = walk(root);
        assert_eq!(names(root, &w.files), ["a.yaml"]);
        let messages: Vec<String> = w.warnings.iter().map(|d| d.message.clone()).collect();
        assert_eq!(
            messages,
            [
                format!("{} is a FIFO, not a regular file: skipped", fifo.display()),
                format!(
                    "{} is a FIFO, not a regular file: skipped",
                    root.join("via-link.yaml").display()
                ),
            ]
        );
        assert!(w.warnings.iter().all(|d| !d.is_error()));
    }

    #[test]
    fn depth_and_entries_are_bounded() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("1/2/3/4")).expect("mkdir");
        for i in 0..5 {
            std::fs::write(root.join(format!("f{i}.yaml")), "").expect("write");
        }
        let mut w = Walk::within(root.canonicalize().expect("canonical"));
        w.limits = WalkLimits {
            max_depth: 3,
            max_entries: 100,
        };
        let err = w.run(root).err().map(|d| d.message).unwrap_or_default();
        assert_eq!(
            err,
            format!(
                "{}: directories nested more than 3 levels deep under {}",
                root.join("1/2/3/4").display(),
                root.display()
            )
        );
        w.limits = WalkLimits {
            max_depth: 4,
            max_entries: 8,
        };
        // 6 in the root, then 1, 1, 1 below: the ninth entry is one too many.
        let err = w.run(root).err().map(|d| d.message).unwrap_or_default();
        assert_eq!(
            err,
            format!("{}: more than 8 directory entries to walk", root.display())
        );
        w.limits.max_entries = 9;
        assert_eq!(w.run(root).expect("walks").files.len(), 5);
    }
}
