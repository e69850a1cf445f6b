/*!
A clusterctl *local repository*, read under bounds: `ROOT/<provider-label>/<version>/<file>`.

The layout and the version rules are clusterctl's `localRepository`
(`cmd/clusterctl/client/repository/repository_local.go`): versions are the directories under the
provider's directory whose names are semantic versions (`GetVersions`; a symbolic link is not a
directory there, so it is never listed, though naming it reaches it), and the latest release is
chosen as `latestPatchRelease` and `latestContractRelease` choose it
(`repository_versions.go`).

What clusterctl does not need to care about and topoplan does, since a repository may come from a
pull request:

- nothing outside ROOT is read: every path is resolved and refused, unread, when a link takes it
  out (the same error as a directory walk's, [`crate::load::walk::Bound::link_out`]);
- only regular files are read (a FIFO named `metadata.yaml` would block), each drawing on the
  run's byte budget (`--max-input-bytes`);
- a listing reads at most [`MAX_ENTRIES`] entries; the layout has a fixed depth, so there is no
  recursion to bound;
- a version or file name from the command line must be one plain path component.
*/

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::label::{self, ProviderType};
use super::metadata::{self, Metadata};
use crate::diag::{Code, Diagnostic};
use crate::k8s::version::apimachinery::Version;
use crate::load::limit::{InputLimit, ReadError};
use crate::load::walk::Bound;
use crate::source::SourceFile;

/// Most entries one directory listing of a repository reads.
pub const MAX_ENTRIES: usize = 10_000;

/// How many of the newest releases clusterctl tries when looking for the latest one.
const LATEST_CANDIDATES: usize = 5;

/// The version a provider URL names to mean "the latest release".
pub const LATEST: &str = "latest";

/// One provider's releases in a local repository.
#[derive(Debug, Clone)]
pub struct LocalRepository {
    /// The repository root as the user named it (for messages and file names).
    pub shown: PathBuf,
    /// The root, resolved: nothing outside it is read.
    root: PathBuf,
    /// The provider's directory name (its manifest label, `infrastructure-docker`).
    pub label: String,
    /// The provider's name (`docker`).
    pub name: String,
    /// The provider's type.
    pub provider_type: ProviderType,
    /// The components file a URL names; `None`: by convention.
    pub components: Option<String>,
    /// The version a URL names (`latest` or none: the latest release).
    pub default_version: Option<String>,
}

/// What a listing of a directory found.
struct Listing {
    /// (name, is a real directory, is a symbolic link) per entry, sorted.
    entries: Vec<(String, bool, bool)>,
}

impl LocalRepository {
    /// The provider `name` of type `t` in the repository at `dir` (which must exist and be a
    /// directory), not yet checked to hold that provider.
    pub fn new(dir: &Path, name: &str, t: ProviderType) -> Result<LocalRepository, Diagnostic> {
        let root = std::fs::canonicalize(dir).map_err(|e| {
            Diagnostic::error(
                Code::ProviderRepository,
                format!("cannot read the provider repository {}: {e}", dir.display()),
            )
            .with_help(repository_help())
        })?;
        if !root.is_dir() {
            return Err(Diagnostic::error(
                Code::ProviderRepository,
                format!(
                    "the provider repository {} is not a directory",
                    dir.display()
                ),
            )
            .with_help(repository_help()));
        }
        Ok(LocalRepository {
            shown: dir.to_path_buf(),
            root,
            label: label::manifest_label(name, t),
            name: name.to_string(),
            provider_type: t,
            components: None,
            default_version: None,
        })
    }

    /// Whether the repository has a directory for this provider (a link that stays inside
    /// counts).
    pub fn exists(&self) -> bool {
        self.inside(&self.root.join(&self.label))
            .is_ok_and(|p| p.is_dir())
    }

    /// How a file of this provider is named in messages: `DIR/<label>/<version>/<file>`.
    pub fn shown_path(&self, version: &str, file: &str) -> String {
        self.shown
            .join(&self.label)
            .join(version)
            .join(file)
            .display()
            .to_string()
    }

    /// `path` resolved, when it stays inside the root; a link out is refused, unread.
    fn inside(&self, path: &Path) -> Result<PathBuf, Diagnostic> {
        let resolved = std::fs::canonicalize(path).map_err(|e| {
            Diagnostic::error(
                Code::ProviderRepository,
                format!("cannot read {}: {e}", self.shown_of(path)),
            )
        })?;
        if !resolved.starts_with(&self.root) {
            return Err(Bound::Directory(self.root.clone())
                .link_out(Path::new(&self.shown_of(path)), &resolved));
        }
        Ok(resolved)
    }

    /// `path` (under the root) as the user would spell it.
    fn shown_of(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(rest) => self.shown.join(rest).display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }

    /// List `dir` (under the root), at most [`MAX_ENTRIES`] entries.
    fn list(&self, dir: &Path) -> Result<Listing, Diagnostic> {
        let resolved = self.inside(dir)?;
        let cannot = |e: std::io::Error| {
            Diagnostic::error(
                Code::ProviderRepository,
                format!("cannot list {}: {e}", self.shown_of(dir)),
            )
        };
        let mut entries = Vec::new();
        for (read, entry) in std::fs::read_dir(&resolved).map_err(cannot)?.enumerate() {
            if read >= MAX_ENTRIES {
                return Err(Diagnostic::error(
                    Code::InputLimit,
                    format!(
                        "{}: more than {MAX_ENTRIES} entries in one directory of the provider repository",
                        self.shown_of(dir)
                    ),
                )
                .with_help(format!(
                    "topoplan lists at most {MAX_ENTRIES} entries per directory of a repository; remove releases or files you do not use"
                )));
            }
            let entry = entry.map_err(cannot)?;
            // A name that is not UTF-8 cannot be a version, a label or a file topoplan asks for.
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let t = entry.file_type().map_err(cannot)?;
            entries.push((name, t.is_dir(), t.is_symlink()));
        }
        entries.sort();
        Ok(Listing { entries })
    }

    /// The releases: directories under the provider's directory named by a semantic version,
    /// sorted by name (clusterctl's `GetVersions`).
    pub fn versions(&self) -> Result<Vec<(String, Version)>, Diagnostic> {
        let listing = self.list(&self.root.join(&self.label)).map_err(|d| {
            if d.code == Code::ProviderRepository {
                Diagnostic {
                    message: format!("failed to list release directories: {}", d.message),
                    ..d
                }
            } else {
                d
            }
        })?;
        Ok(listing
            .entries
            .into_iter()
            .filter(|(_, dir, _)| *dir)
            .filter_map(|(name, ..)| Version::parse(&name).ok().map(|v| (name, v)))
            .collect())
    }

    /// The names of release `version` that are not directories (for a components file by
    /// another name, or the flavors to suggest); links and special files are listed too, and
    /// refused when read.
    pub fn files(&self, version: &str) -> Result<Vec<String>, Diagnostic> {
        check_component(version, "version")?;
        let listing = self.list(&self.root.join(&self.label).join(version))?;
        Ok(listing
            .entries
            .into_iter()
            .filter(|(_, dir, _)| !*dir)
            .map(|(name, ..)| name)
            .collect())
    }

    /// The path of `file` of release `version`, resolved and checked to be a regular file
    /// inside the root (clusterctl's `GetFile`, without reading).
    fn regular_file(&self, version: &str, file: &str) -> Result<PathBuf, Diagnostic> {
        check_component(version, "version")?;
        check_component(file, "file name")?;
        // The release directory first: a release that links out is refused before anything
        // in it is even looked for.
        let release = self.root.join(&self.label).join(version);
        if let Ok(resolved) = std::fs::canonicalize(&release)
            && !resolved.starts_with(&self.root)
        {
            return Err(Bound::Directory(self.root.clone())
                .link_out(Path::new(&self.shown_of(&release)), &resolved));
        }
        let path = release.join(file);
        let shown = self.shown_path(version, file);
        let resolved = match std::fs::canonicalize(&path) {
            Ok(r) => r,
            Err(e) => {
                return Err(Diagnostic::error(
                    Code::ProviderRepository,
                    format!("failed to read file {shown:?} from local release {version}: {e}"),
                ));
            }
        };
        if !resolved.starts_with(&self.root) {
            return Err(Bound::Directory(self.root.clone()).link_out(Path::new(&shown), &resolved));
        }
        let meta = std::fs::metadata(&resolved).map_err(|e| {
            Diagnostic::error(
                Code::ProviderRepository,
                format!("failed to read file {shown:?} from local release {version}: {e}"),
            )
        })?;
        if meta.is_dir() {
            return Err(Diagnostic::error(
                Code::ProviderRepository,
                format!("invalid path: file {file:?} is actually a directory {shown:?}"),
            ));
        }
        if !meta.is_file() {
            return Err(Diagnostic::error(
                Code::ProviderRepository,
                format!(
                    "failed to read file {shown:?} from local release {version}: not a regular file (a FIFO, socket or device), which topoplan does not read"
                ),
            ));
        }
        Ok(resolved)
    }

    /// Read `file` of release `version` as text, drawing on `limit`.
    pub fn read(
        &self,
        version: &str,
        file: &str,
        limit: &InputLimit,
    ) -> Result<Arc<SourceFile>, Diagnostic> {
        let path = self.regular_file(version, file)?;
        let shown = self.shown_path(version, file);
        let bytes = limit.read_path(&path, &shown).map_err(|e| match e {
            ReadError::Io(e) => Diagnostic::error(
                Code::ProviderRepository,
                format!("failed to read file {shown:?} from local release {version}: {e}"),
            ),
            ReadError::TooLarge(d) => d,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            Diagnostic::error(
                Code::InputRead,
                format!(
                    "{shown} is not UTF-8 text (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            )
        })?;
        Ok(SourceFile::new(shown, text))
    }

    /// Read and check release `version`'s metadata.
    pub fn metadata(&self, version: &str, limit: &InputLimit) -> Result<Metadata, Diagnostic> {
        let file = self.read(version, metadata::FILE, limit).map_err(|d| {
            wrap(
                d,
                &format!(
                    "failed to read {:?} from the repository for provider {:?}",
                    metadata::FILE,
                    self.label
                ),
            )
        })?;
        Metadata::parse(&file, &self.label)
    }

    /// The newest release, of series `major.minor` when given: releases before pre-releases,
    /// then by version; of the five newest, the first that has a `metadata.yaml` (clusterctl's
    /// `latestPatchRelease`: for a local repository a missing file is an error, not a reason
    /// to try the next).
    pub fn latest_release(&self, series: Option<(i32, i32)>) -> Result<String, Diagnostic> {
        let mut candidates: Vec<Version> = self
            .versions()?
            .into_iter()
            .map(|(_, v)| v)
            .filter(|v| {
                series.is_none_or(|(major, minor)| {
                    v.major() == major as u64 && v.minor() == minor as u64
                })
            })
            .collect();
        // Releases before pre-releases (v1.0.0 above v2.0.0-alpha), then newest first.
        candidates.sort_by(|a, b| {
            a.is_pre_release()
                .cmp(&b.is_pre_release())
                .then_with(|| b.compare(a))
        });
        let none = || {
            Diagnostic::error(
                Code::ProviderRepository,
                format!(
                    "failed to find releases tagged with a valid semantic version number in {}",
                    self.shown.join(&self.label).display()
                ),
            )
            .with_help(repository_help())
        };
        if let Some(v) = candidates.into_iter().take(LATEST_CANDIDATES).next() {
            // clusterctl names the release "v" + the version, whatever the directory is called.
            let name = format!("v{v}");
            self.regular_file(&name, metadata::FILE)?;
            return Ok(name);
        }
        Err(none())
    }

    /// The newest release for `contract` (clusterctl's `latestContractRelease`): the latest
    /// release, unless its metadata maps `contract` to another series, then that series' latest.
    /// Metadata that cannot be read or decoded leaves the latest release.
    pub fn latest_contract_release(
        &self,
        contract: &str,
        limit: &InputLimit,
    ) -> Result<String, Diagnostic> {
        let latest = self.latest_release(None)?;
        let Ok(file) = self.read(&latest, metadata::FILE, limit) else {
            return Ok(latest);
        };
        let Ok(value) = crate::load::yaml::parse_value(&file.text) else {
            return Ok(latest);
        };
        let series: Vec<metadata::ReleaseSeries> = value
            .get("releaseSeries")
            .cloned()
            .and_then(|s| serde_json::from_value(s).ok())
            .unwrap_or_default();
        let m = Metadata {
            release_series: series,
        };
        let Some(wanted) = m.series_for_contract(contract) else {
            return Ok(latest);
        };
        let Ok(v) = Version::parse(&latest) else {
            return Ok(latest);
        };
        if v.major() != wanted.major as u64 || v.minor() != wanted.minor as u64 {
            return self
                .latest_release(Some((wanted.major, wanted.minor)))
                .map_err(|d| {
                    let d = wrap(
                        d,
                        &format!(
                            "the metadata.yaml of {latest}, the newest release, names the {}.{} series for the {contract} contract",
                            wanted.major, wanted.minor
                        ),
                    );
                    d.with_help(format!(
                        "add a {}.{} release to {}, or pin a release with a file:// provider url in the clusterctl configuration",
                        wanted.major,
                        wanted.minor,
                        self.shown.join(&self.label).display()
                    ))
                });
        }
        Ok(latest)
    }

    /// The release to read when none is asked for: the URL's, else the latest for `contract`.
    pub fn default_release(
        &self,
        contract: &str,
        limit: &InputLimit,
    ) -> Result<String, Diagnostic> {
        match self.default_version.as_deref() {
            Some(v) if v != LATEST => Ok(v.to_string()),
            _ => self.latest_contract_release(contract, limit),
        }
    }

    /// The components file of release `version`: the URL's, else the convention for the type
    /// (`infrastructure-components.yaml`), else the one `*-components*.yaml` file there (such as
    /// the Docker provider's `infrastructure-components-development.yaml`).
    pub fn components_file(&self, version: &str) -> Result<String, Diagnostic> {
        if let Some(c) = &self.components {
            return Ok(c.clone());
        }
        let conventional = self.provider_type.components_file();
        let files = self.files(version)?;
        if files.iter().any(|f| f == conventional) {
            return Ok(conventional.to_string());
        }
        let others: Vec<&String> = files
            .iter()
            .filter(|f| f.contains("-components") && (f.ends_with(".yaml") || f.ends_with(".yml")))
            .collect();
        match others.as_slice() {
            [one] => Ok((*one).clone()),
            _ => Err(Diagnostic::error(
                Code::ProviderRepository,
                format!(
                    "failed to read {conventional:?} from provider's repository {:?}: {} has no {conventional}{}",
                    self.label,
                    self.shown.join(&self.label).join(version).display(),
                    if others.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " and several other components files ({})",
                            others.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                        )
                    }
                ),
            )
            .with_help(repository_help())),
        }
    }
}

/// The label directories of the repository at `dir`, sorted: every real directory whose name is
/// a manifest label. Other directories (and links, which are not followed here) are returned as
/// warnings.
pub fn providers(dir: &Path) -> Result<(Vec<LocalRepository>, Vec<Diagnostic>), Diagnostic> {
    // Any provider will do to open the root; the label is replaced below.
    let base = LocalRepository::new(dir, label::CORE_NAME, ProviderType::Core)?;
    let listing = base.list(&base.root)?;
    let mut found = Vec::new();
    let mut warnings = Vec::new();
    for (name, is_dir, is_link) in listing.entries {
        if name.starts_with('.') || !(is_dir || is_link) {
            continue;
        }
        let shown = dir.join(&name).display().to_string();
        if is_link {
            warnings.push(Diagnostic::warning(
                Code::ProviderRepository,
                format!("{shown} is a symbolic link; topoplan reads only real provider directories of a repository, and skips it"),
            ));
            continue;
        }
        match label::parse_label(&name) {
            Some((provider, t)) => found.push(LocalRepository {
                label: name,
                name: provider,
                provider_type: t,
                ..base.clone()
            }),
            None => warnings.push(
                Diagnostic::warning(
                    Code::ProviderRepository,
                    format!("{shown} is not a provider directory; skipped"),
                )
                .with_help(
                    "a provider's directory is named by its manifest label: cluster-api, bootstrap-NAME, control-plane-NAME, infrastructure-NAME, ipam-NAME, runtime-extension-NAME or addon-NAME",
                ),
            ),
        }
    }
    if found.is_empty() {
        return Err(Diagnostic::error(
            Code::ProviderRepository,
            format!(
                "the provider repository {} holds no provider directory",
                dir.display()
            ),
        )
        .with_help(repository_help()));
    }
    Ok((found, warnings))
}

/// Refuse a version or file name that is not one plain path component (it comes from the
/// command line: `--infrastructure docker:../../etc`).
fn check_component(s: &str, what: &str) -> Result<(), Diagnostic> {
    if s.is_empty() || s == "." || s == ".." || s.contains(['/', '\\', '\0']) {
        return Err(Diagnostic::error(
            Code::ProviderRepository,
            format!(
                "invalid {what} {s:?}: a repository is read as DIR/<provider-label>/<version>/<file>"
            ),
        ));
    }
    Ok(())
}

/// `d` with `context: ` before its message (Go's `errors.Wrap`), unless it is a refusal of
/// its own (a link out, a limit).
pub fn wrap(d: Diagnostic, context: &str) -> Diagnostic {
    if d.code == Code::ProviderRepository {
        Diagnostic {
            message: format!("{context}: {}", d.message),
            ..d
        }
    } else {
        d
    }
}

/// How a local repository is laid out, for help lines.
pub fn repository_help() -> String {
    "a local repository holds DIR/<provider-label>/<version>/ directories (e.g. \
     DIR/infrastructure-docker/v1.12.0/) with the release's components YAML, metadata.yaml and \
     its cluster-template*.yaml and clusterclass-*.yaml files, as clusterctl's local repositories \
     and overrides folder do"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(layout: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for path in layout {
            let p = dir.path().join(path);
            if path.ends_with('/') {
                std::fs::create_dir_all(&p).expect("mkdir");
            } else {
                std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
                std::fs::write(&p, "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries:\n- {major: 1, minor: 1, contract: v1beta2}\n- {major: 0, minor: 9, contract: v1beta1}\n").expect("write");
            }
        }
        dir
    }

    fn sandbox(dir: &Path) -> LocalRepository {
        LocalRepository::new(dir, "sandbox", ProviderType::Infrastructure).expect("opens")
    }

    #[test]
    fn the_latest_release_prefers_releases_and_the_contract() {
        let dir = repo(&[
            "infrastructure-sandbox/v0.9.0/metadata.yaml",
            "infrastructure-sandbox/v0.9.3/metadata.yaml",
            "infrastructure-sandbox/v1.1.0/metadata.yaml",
            "infrastructure-sandbox/v1.2.0-rc.0/metadata.yaml",
            "infrastructure-sandbox/not-a-version/",
            "infrastructure-sandbox/v1.0.0-file",
        ]);
        let r = sandbox(dir.path());
        let limit = InputLimit::new(1 << 20);
        let names: Vec<String> = r
            .versions()
            .expect("lists")
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["v0.9.0", "v0.9.3", "v1.1.0", "v1.2.0-rc.0"]);
        assert_eq!(r.latest_release(None).expect("latest"), "v1.1.0");
        assert_eq!(r.latest_release(Some((0, 9))).expect("latest"), "v0.9.3");
        assert_eq!(
            r.latest_contract_release("v1beta2", &limit)
                .expect("latest"),
            "v1.1.0"
        );
        assert_eq!(
            r.latest_contract_release("v1beta1", &limit)
                .expect("latest"),
            "v0.9.3"
        );
        // No series for the contract: the latest release, for the contract check to refuse.
        assert_eq!(
            r.latest_contract_release("v1alpha4", &limit)
                .expect("latest"),
            "v1.1.0"
        );
        assert!(r.latest_release(Some((2, 0))).is_err());
    }

    #[test]
    fn a_latest_release_without_metadata_is_an_error() {
        let dir = repo(&[
            "infrastructure-sandbox/v1.0.0/metadata.yaml",
            "infrastructure-sandbox/v1.1.0/",
        ]);
        let e = sandbox(dir.path()).latest_release(None).expect_err("fails");
        assert!(e.message.contains("v1.1.0/metadata.yaml"), "{}", e.message);
    }

    #[test]
    fn names_from_the_command_line_stay_one_component() {
        let dir = repo(&["infrastructure-sandbox/v1.0.0/metadata.yaml"]);
        let r = sandbox(dir.path());
        let limit = InputLimit::new(1 << 20);
        for (v, f) in [
            ("..", "x"),
            ("v1.0.0", "../v1.0.0/metadata.yaml"),
            ("", "x"),
            ("a/b", "x"),
        ] {
            assert!(r.read(v, f, &limit).is_err(), "{v} {f}");
        }
        assert!(r.read("v1.0.0", "metadata.yaml", &limit).is_ok());
        let e = r
            .read("v1.0.0", "cluster-template.yaml", &limit)
            .expect_err("missing");
        assert!(
            e.message.starts_with("failed to read file"),
            "{}",
            e.message
        );
    }

    #[test]
    fn links_out_of_the_repository_are_refused_unread() {
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("secret"), "s3cr3t").expect("write");
        let dir = repo(&["infrastructure-sandbox/v1.0.0/metadata.yaml"]);
        let release = dir.path().join("infrastructure-sandbox/v1.0.0");
        std::os::unix::fs::symlink(
            outside.path().join("secret"),
            release.join("cluster-template.yaml"),
        )
        .expect("symlink");
        std::os::unix::fs::symlink(release.join("metadata.yaml"), release.join("inside.yaml"))
            .expect("symlink");
        let r = sandbox(dir.path());
        let limit = InputLimit::new(1 << 20);
        let e = r
            .read("v1.0.0", "cluster-template.yaml", &limit)
            .expect_err("refused");
        assert_eq!(e.code, Code::InputOutside);
        assert_eq!(limit.used(), 0, "nothing was read");
        assert!(r.read("v1.0.0", "inside.yaml", &limit).is_ok());
    }

    #[test]
    fn the_provider_directories_are_listed() {
        let dir = repo(&[
            "infrastructure-sandbox/v1.0.0/metadata.yaml",
            "control-plane-kubeadm/v1.0.0/metadata.yaml",
            "overrides/",
            "README.md",
        ]);
        let (found, warnings) = providers(dir.path()).expect("lists");
        let labels: Vec<&str> = found.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["control-plane-kubeadm", "infrastructure-sandbox"]);
        assert_eq!(found[0].provider_type, ProviderType::ControlPlane);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.contains("overrides"));
    }
}
