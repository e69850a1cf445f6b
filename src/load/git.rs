/*!
Inputs as they were in a git revision (`--base-ref REV`).

Owns listing and reading the files `-f PATH...` would read, but from the tree of revision REV of
the repository that holds each PATH: recursive, `*.yaml|*.yml|*.json`, hidden entries skipped,
sorted as [`super::collect_files`] sorts a directory walk. PATHs are relative to the current
directory, as they were at REV (they need not exist now).

It shells out to the `git` command (`rev-parse`, `ls-tree`, `cat-file --batch`) rather than
linking a git library: the user's git reads the repository exactly as they see it (worktrees,
alternates, partial clones), and topoplan carries no second implementation of git's formats.

File names read `REV:path/to/file.yaml`, so a diagnostic about the old input says where it was.
Every failure (no git, not a repository, unknown revision, a path absent at REV) is a
diagnostic naming the revision and the path.
*/

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use crate::diag::{Code, Diagnostic};
use crate::load::limit::InputLimit;
use crate::load::walk::MAX_WALK_ENTRIES;

/// The files of `paths` at revision `rev`, as (display name, text), in the order `-f` reads
/// them; problems are appended to `errors` (one path failing does not stop the others).
/// Relative paths are taken from the current directory.
pub fn collect(
    rev: &str,
    paths: &[PathBuf],
    limit: &InputLimit,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    match std::env::current_dir() {
        Ok(cwd) => collect_in(&cwd, rev, paths, limit, errors),
        Err(e) => {
            errors.push(Diagnostic::error(
                Code::InputGit,
                format!("--base-ref {rev}: cannot determine the current directory: {e}"),
            ));
            Vec::new()
        }
    }
}

/// [`collect`] with relative paths taken from `cwd`.
pub fn collect_in(
    cwd: &Path,
    rev: &str,
    paths: &[PathBuf],
    limit: &InputLimit,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for path in paths {
        match collect_path(cwd, rev, path, limit) {
            Ok(mut files) => out.append(&mut files),
            Err(e) => errors.push(e),
        }
    }
    out
}

/// One blob to read: its object id and the name it is shown under.
struct Blob {
    id: String,
    shown: String,
}

/// The canonical top level of the git repository whose working tree holds `path` (relative to
/// the current directory), for the working tree side of `--base-ref REV`. Found from where the
/// path stands, not from where a link at it points: a link out of the repository must not
/// choose the repository it is checked against.
pub fn working_tree_top(rev: &str, path: &Path) -> Result<PathBuf, Diagnostic> {
    let cwd = std::env::current_dir().map_err(|e| {
        Diagnostic::error(
            Code::InputGit,
            format!("--base-ref {rev}: cannot determine the current directory: {e}"),
        )
    })?;
    let absolute = normalize(&cwd.join(path));
    let real_dir = std::fs::symlink_metadata(&absolute).is_ok_and(|m| m.is_dir());
    let start = match absolute.parent() {
        Some(parent) if !real_dir => parent.to_path_buf(),
        _ => absolute.clone(),
    };
    let (anchor, _) = existing_ancestor(&start);
    let anchor = anchor.canonicalize().map_err(|e| {
        Diagnostic::error(
            Code::InputGit,
            format!("cannot read {}: {e}", anchor.display()),
        )
    })?;
    let top = git(&anchor, &["rev-parse", "--show-toplevel"], rev, path)?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim_end_matches(['\n', '\r']));
    // git prints the top level with links resolved, but be sure: the bound is compared with
    // canonical paths.
    Ok(top.canonicalize().unwrap_or(top))
}

fn collect_path(
    cwd: &Path,
    rev: &str,
    path: &Path,
    limit: &InputLimit,
) -> Result<Vec<(String, String)>, Diagnostic> {
    if path.as_os_str() == "-" {
        return Err(Diagnostic::error(
            Code::InputGit,
            format!("--base-ref {rev}: standard input (-) has no revision to read"),
        )
        .with_help("pass files or directories of the repository"));
    }
    let (top, relative) = locate(cwd, rev, path)?;
    let commit = resolve_commit(&top, rev, path)?;
    let Some(rel) = relative.to_str() else {
        return Err(Diagnostic::error(
            Code::InputGit,
            format!("--base-ref {rev}: {} is not a UTF-8 path", path.display()),
        ));
    };
    let listing = list_tree(&top, &commit, rel, rev, path)?;
    let mut blobs = blobs_of(&listing, &relative, rev, path)?;
    if blobs.is_empty() {
        // A path the revision does not have (a folder the pull request adds) held nothing
        // then: the base side of it is empty, and what it holds now is all new.
        if listing.is_empty() {
            return Ok(Vec::new());
        }
        return Err(Diagnostic::error(
            Code::InputGit,
            format!(
                "directory {rev}:{} holds no .yaml, .yml or .json file",
                path.display()
            ),
        ));
    }
    // The order of a directory walk (path components compared one by one), not git's byte order.
    blobs.sort_by(|a, b| a.0.cmp(&b.0));
    read_blobs(&top, blobs, rev, path, limit)
}

/// The top level of the git repository holding `path` (relative to `cwd`), and the path
/// relative to it.
fn locate(cwd: &Path, rev: &str, path: &Path) -> Result<(PathBuf, PathBuf), Diagnostic> {
    let absolute = normalize(&cwd.join(path));
    // The repository is the one holding the path's nearest existing ancestor (at REV the path
    // itself may be gone). Canonical, because git reports its top level with links resolved.
    let (anchor, rest) = existing_ancestor(&absolute);
    let anchor = anchor.canonicalize().map_err(|e| {
        Diagnostic::error(
            Code::InputGit,
            format!("cannot read {}: {e}", anchor.display()),
        )
    })?;
    let top = git(&anchor, &["rev-parse", "--show-toplevel"], rev, path)?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim_end_matches(['\n', '\r']));
    let within = anchor.join(rest);
    let Ok(relative) = within.strip_prefix(&top) else {
        return Err(Diagnostic::error(
            Code::InputGit,
            format!(
                "--base-ref {rev}: {} is outside the git repository at {}",
                path.display(),
                top.display()
            ),
        ));
    };
    let relative = relative.to_path_buf();
    Ok((top, relative))
}

/// The commit `rev` names in the repository at `top`.
fn resolve_commit(top: &Path, rev: &str, path: &Path) -> Result<String, Diagnostic> {
    let commit = git(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{rev}^{{commit}}"),
        ],
        rev,
        path,
    )
    .map_err(|_| {
        Diagnostic::error(
            Code::InputGit,
            format!(
                "--base-ref {rev}: unknown revision {rev:?} in the git repository at {}",
                top.display()
            ),
        )
        .with_help("give a commit, branch or tag that exists locally (git fetch it first)")
    })?;
    Ok(String::from_utf8_lossy(&commit).trim().to_string())
}

/// `git ls-tree` of `rel` (relative to the top level) at `commit`, NUL-separated; bounded as
/// a directory walk (the listing itself is as large as the tree).
fn list_tree(
    top: &Path,
    commit: &str,
    rel: &str,
    rev: &str,
    path: &Path,
) -> Result<Vec<u8>, Diagnostic> {
    // --full-tree: paths are relative to the top level whatever directory git runs in.
    // GIT_LITERAL_PATHSPECS (set by `git_command`) keeps `*` or `?` in a name from matching other files.
    let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", commit, "--"];
    if !rel.is_empty() {
        args.push(rel);
    }
    let listing = git(top, &args, rev, path)?;
    if listing.iter().filter(|&&b| b == 0).count() > MAX_WALK_ENTRIES {
        return Err(Diagnostic::error(
            Code::InputLimit,
            format!(
                "{rev}:{}: more than {MAX_WALK_ENTRIES} files to read at revision {rev}",
                path.display()
            ),
        )
        .with_help("pass narrower directories or the files themselves"));
    }
    Ok(listing)
}

/// The blobs of `listing` to read, with their path below `relative`: the file `relative`
/// names, else the directory's non-hidden `.yaml`, `.yml` and `.json` files. Submodules are
/// skipped; a symbolic link is an error.
fn blobs_of(
    listing: &[u8],
    relative: &Path,
    rev: &str,
    path: &Path,
) -> Result<Vec<(PathBuf, Blob)>, Diagnostic> {
    let user_path = path.display().to_string();
    let mut blobs: Vec<(PathBuf, Blob)> = Vec::new();
    let mut is_file = false;
    for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, name)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        let (mode, kind, id) = (meta.next(), meta.next(), meta.next());
        // Submodules (commits) have no files of this repository.
        if kind != Some("blob") {
            continue;
        }
        let Some(id) = id else { continue };
        let name = Path::new(name);
        if name == relative {
            // The path names a file: read whatever its extension, as `-f file` does.
            is_file = true;
        }
        let suffix = name.strip_prefix(relative).unwrap_or(name).to_path_buf();
        if !is_file {
            let hidden = suffix
                .components()
                .any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
            let wanted = matches!(
                suffix.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml" | "json")
            );
            if hidden || !wanted {
                continue;
            }
        }
        if mode == Some("120000") {
            return Err(Diagnostic::error(
                Code::InputOutside,
                format!(
                    "{rev}:{} is a symbolic link; topoplan does not follow links inside a revision",
                    path.join(&suffix).display()
                ),
            ));
        }
        let shown = if is_file {
            user_path.clone()
        } else {
            let joined = path.join(&suffix);
            joined
                .strip_prefix(".")
                .unwrap_or(&joined)
                .display()
                .to_string()
        };
        blobs.push((
            suffix,
            Blob {
                id: id.to_string(),
                shown: format!("{rev}:{shown}"),
            },
        ));
        if is_file {
            break;
        }
    }
    Ok(blobs)
}

/// The texts of `blobs`, in order, each named as shown to the user; one that is not UTF-8 is
/// an error.
fn read_blobs(
    top: &Path,
    blobs: Vec<(PathBuf, Blob)>,
    rev: &str,
    path: &Path,
    limit: &InputLimit,
) -> Result<Vec<(String, String)>, Diagnostic> {
    let wanted: Vec<&Blob> = blobs.iter().map(|(_, b)| b).collect();
    let texts = cat_blobs(top, &wanted, rev, path, limit)?;
    blobs
        .into_iter()
        .zip(texts)
        .map(|((_, blob), bytes)| {
            String::from_utf8(bytes)
                .map(|text| (blob.shown.clone(), text))
                .map_err(|e| {
                    Diagnostic::error(
                        Code::InputRead,
                        format!(
                            "{} is not UTF-8 text (invalid byte at offset {})",
                            blob.shown,
                            e.utf8_error().valid_up_to()
                        ),
                    )
                })
        })
        .collect()
}

/// `p` with `.` and `..` resolved lexically (the path may not exist).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The longest prefix of `p` that is an existing directory, and the rest.
fn existing_ancestor(p: &Path) -> (PathBuf, PathBuf) {
    let mut anchor = p.to_path_buf();
    let mut rest = Vec::new();
    // git runs in the anchor, which must therefore be a directory.
    while !anchor.is_dir() {
        match (anchor.file_name().map(ToOwned::to_owned), anchor.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                anchor = parent.to_path_buf();
            }
            _ => break,
        }
    }
    let rest: PathBuf = rest.into_iter().rev().collect();
    (anchor, rest)
}

/// Run `git -C dir args`, returning stdout; a failure names the revision and path.
fn git(dir: &Path, args: &[&str], rev: &str, path: &Path) -> Result<Vec<u8>, Diagnostic> {
    let out = git_command(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| spawn_error(&e, rev))?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stderr = stderr.trim();
    if stderr.contains("not a git repository") {
        return Err(Diagnostic::error(
            Code::InputGit,
            format!(
                "--base-ref {rev}: {} is not in a git repository",
                path.display()
            ),
        )
        .with_help(
            "--base-ref reads the old inputs from the git repository that holds the paths",
        ));
    }
    Err(Diagnostic::error(
        Code::InputGit,
        format!(
            "--base-ref {rev}: git {} failed for {}: {}",
            args.first().copied().unwrap_or(""),
            path.display(),
            if stderr.is_empty() {
                "no message"
            } else {
                stderr
            }
        ),
    ))
}

fn git_command(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(dir)
        .env("GIT_LITERAL_PATHSPECS", "1")
        // Messages are matched above; keep them in English.
        .env("LC_ALL", "C");
    cmd
}

fn spawn_error(e: &std::io::Error, rev: &str) -> Diagnostic {
    if e.kind() == std::io::ErrorKind::NotFound {
        Diagnostic::error(
            Code::InputGit,
            format!("--base-ref {rev}: git is not installed (no `git` command on PATH)"),
        )
        .with_help("install git, or check out the old revision and pass its files instead")
    } else {
        Diagnostic::error(
            Code::InputGit,
            format!("--base-ref {rev}: cannot run git: {e}"),
        )
    }
}

/// The contents of `ids`, in order, through one `git cat-file --batch`.
fn cat_blobs(
    dir: &Path,
    blobs: &[&Blob],
    rev: &str,
    path: &Path,
    limit: &InputLimit,
) -> Result<Vec<Vec<u8>>, Diagnostic> {
    let request: String = blobs.iter().map(|b| format!("{}\n", b.id)).collect();
    let mut child = git_command(dir)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| spawn_error(&e, rev))?;
    let failed = |what: String| {
        Diagnostic::error(
            Code::InputGit,
            format!(
                "--base-ref {rev}: cannot read the files of {} from git: {what}",
                path.display()
            ),
        )
    };
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(failed("no pipe to git cat-file".into()));
    };
    // Write the request while reading the answer: both can exceed a pipe's buffer.
    let result = std::thread::scope(|s| {
        let writer = s.spawn(move || stdin.write_all(request.as_bytes()));
        let mut reader = BufReader::new(stdout);
        let mut texts = Vec::with_capacity(blobs.len());
        for blob in blobs {
            let mut header = String::new();
            reader
                .read_line(&mut header)
                .map_err(|e| failed(e.to_string()))?;
            // "<id> blob <size>", or "<id> missing".
            let mut words = header.split_whitespace();
            let (id, kind, size) = (words.next(), words.next(), words.next());
            let Some(size) = size.and_then(|s| s.parse::<u64>().ok()) else {
                return Err(failed(format!(
                    "object {} is {}",
                    id.unwrap_or("?"),
                    kind.unwrap_or("unreadable")
                )));
            };
            // The size comes first: a blob over the budget is refused before it is allocated.
            limit.charge(size, &blob.shown)?;
            let Ok(size) = usize::try_from(size) else {
                return Err(limit.too_large(&blob.shown));
            };
            let mut body = vec![0; size];
            reader
                .read_exact(&mut body)
                .map_err(|e| failed(e.to_string()))?;
            // Each object is followed by a line break.
            let mut newline = [0u8; 1];
            reader
                .read_exact(&mut newline)
                .map_err(|e| failed(e.to_string()))?;
            texts.push(body);
        }
        writer
            .join()
            .map_err(|_| failed("the writer thread stopped".into()))?
            .map_err(|e| failed(e.to_string()))?;
        Ok(texts)
    });
    let status = child.wait().map_err(|e| failed(e.to_string()))?;
    let texts = result?;
    if !status.success() {
        return Err(failed(format!("git cat-file exited with {status}")));
    }
    Ok(texts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{LoadOptions, load};

    /// `git args` in `dir`, which must succeed.
    fn run(dir: &Path, args: &[&str]) {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn config_map(name: &str) -> String {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n")
    }

    /// A repository with one commit (`fleet/a.yaml`, `fleet/sub/b.yml`, `fleet/.hidden.yaml`,
    /// `fleet/notes.txt`), then a working tree that changed `a`, removed `b` and added `c`.
    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        run(root, &["init", "-q", "-b", "main"]);
        run(root, &["config", "user.email", "t@example.com"]);
        run(root, &["config", "user.name", "t"]);
        let fleet = root.join("fleet");
        std::fs::create_dir_all(fleet.join("sub")).expect("mkdir");
        std::fs::write(fleet.join("a.yaml"), config_map("a-old")).expect("write");
        std::fs::write(fleet.join("sub/b.yml"), config_map("b")).expect("write");
        std::fs::write(fleet.join(".hidden.yaml"), config_map("hidden")).expect("write");
        std::fs::write(fleet.join("notes.txt"), "not yaml").expect("write");
        run(root, &["add", "-A"]);
        run(root, &["commit", "-q", "-m", "one"]);
        run(root, &["tag", "v1"]);
        std::fs::write(fleet.join("a.yaml"), config_map("a-new")).expect("write");
        std::fs::remove_file(fleet.join("sub/b.yml")).expect("rm");
        std::fs::write(
            fleet.join("c.json"),
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#,
        )
        .expect("write");
        dir
    }

    fn names(files: &[(String, String)]) -> Vec<&str> {
        files.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn a_directory_at_a_revision() {
        let dir = repo();
        let mut errors = Vec::new();
        let files = collect_in(
            dir.path(),
            "v1",
            &[PathBuf::from("fleet")],
            &InputLimit::default(),
            &mut errors,
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(names(&files), ["v1:fleet/a.yaml", "v1:fleet/sub/b.yml"]);
        assert_eq!(files[0].1, config_map("a-old"));
        // From a subdirectory, paths are relative to it; `.` reads the short form.
        let files = collect_in(
            &dir.path().join("fleet"),
            "HEAD",
            &[PathBuf::from(".")],
            &InputLimit::default(),
            &mut errors,
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(names(&files), ["HEAD:a.yaml", "HEAD:sub/b.yml"]);
        // A file is read whatever its extension; a path that no longer exists still is.
        let files = collect_in(
            dir.path(),
            "main",
            &[
                PathBuf::from("fleet/notes.txt"),
                PathBuf::from("fleet/sub/b.yml"),
            ],
            &InputLimit::default(),
            &mut errors,
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            names(&files),
            ["main:fleet/notes.txt", "main:fleet/sub/b.yml"]
        );
    }

    #[test]
    fn sorted_like_a_directory_walk() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        run(root, &["init", "-q"]);
        run(root, &["config", "user.email", "t@example.com"]);
        run(root, &["config", "user.name", "t"]);
        // git orders "a-b/x" before "a/x" ('-' < '/'); a walk compares components: "a" < "a-b".
        for f in ["a-b/x.yaml", "a/x.yaml", "a.yaml"] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, config_map(&f.replace(['/', '.'], "-"))).expect("write");
        }
        run(root, &["add", "-A"]);
        run(root, &["commit", "-q", "-m", "one"]);
        let mut errors = Vec::new();
        let files = collect_in(
            root,
            "HEAD",
            &[PathBuf::from(".")],
            &InputLimit::default(),
            &mut errors,
        );
        let mut walked = crate::load::Collected::default();
        crate::load::collect_files(root, &LoadOptions::default(), &mut walked).expect("walk");
        let prefix = format!("{}/", root.display());
        let walked: Vec<String> = walked
            .files
            .iter()
            .map(|(n, _)| format!("HEAD:{}", n.strip_prefix(&prefix).unwrap_or(n)))
            .collect();
        assert_eq!(names(&files), walked);
        assert_eq!(
            names(&files),
            ["HEAD:a/x.yaml", "HEAD:a-b/x.yaml", "HEAD:a.yaml"]
        );
    }

    #[test]
    fn both_trees_load() {
        let dir = repo();
        let fleet = dir.path().join("fleet");
        let opts = LoadOptions {
            paths: vec![fleet.clone()],
            default_namespace: "default".into(),
            substitute: None,
            ..LoadOptions::default()
        };
        let new = load(&opts).expect("working tree loads");
        let new_names: Vec<&str> = new.objects.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(new_names, ["a-new", "c"]);
        // An absolute path finds its repository whatever the current directory.
        let old = load(&LoadOptions {
            git_rev: Some("v1".into()),
            ..opts
        })
        .expect("revision loads");
        let old_names: Vec<&str> = old.objects.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(old_names, ["a-old", "b"]);
        let shown = &old.objects[0].origin.file.name;
        assert!(
            shown.starts_with("v1:") && shown.ends_with("fleet/a.yaml"),
            "{shown}"
        );
        assert_eq!(
            old.objects[1].origin.location("/metadata/name"),
            format!("v1:{}:4:9", fleet.join("sub/b.yml").display())
        );
    }

    #[test]
    fn errors_name_the_revision_and_path() {
        let dir = repo();
        let msg = |rev: &str, path: &str| {
            let mut errors = Vec::new();
            let files = collect_in(
                dir.path(),
                rev,
                &[PathBuf::from(path)],
                &InputLimit::default(),
                &mut errors,
            );
            assert!(files.is_empty());
            assert_eq!(errors.len(), 1, "{errors:?}");
            errors[0].message.clone()
        };
        assert_eq!(
            msg("nope", "fleet"),
            format!(
                "--base-ref nope: unknown revision \"nope\" in the git repository at {}",
                dir.path().canonicalize().expect("canonical").display()
            )
        );
        // A path the revision does not have reads as empty there (a folder a pull request adds).
        let mut errors = Vec::new();
        let files = collect_in(
            dir.path(),
            "v1",
            &[PathBuf::from("fleet/c.json")],
            &InputLimit::default(),
            &mut errors,
        );
        assert!(files.is_empty() && errors.is_empty(), "{errors:?}");
        assert_eq!(
            msg("v1", "-"),
            "--base-ref v1: standard input (-) has no revision to read"
        );
        let outside = tempfile::tempdir().expect("tempdir");
        let mut errors = Vec::new();
        collect_in(
            outside.path(),
            "HEAD",
            &[PathBuf::from(".")],
            &InputLimit::default(),
            &mut errors,
        );
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].message,
            "--base-ref HEAD: . is not in a git repository"
        );
    }

    #[test]
    fn a_directory_without_inputs() {
        let dir = repo();
        let mut errors = Vec::new();
        // At v1, fleet holds YAML, but only hidden or non-YAML files directly here:
        std::fs::create_dir_all(dir.path().join("other")).expect("mkdir");
        std::fs::write(dir.path().join("other/readme.md"), "x").expect("write");
        run(dir.path(), &["add", "-A"]);
        run(dir.path(), &["commit", "-q", "-m", "two"]);
        collect_in(
            dir.path(),
            "HEAD",
            &[PathBuf::from("other")],
            &InputLimit::default(),
            &mut errors,
        );
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].message,
            "directory HEAD:other holds no .yaml, .yml or .json file"
        );
    }
}
