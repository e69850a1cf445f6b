/*!
`--output-dir DIR`: one YAML file per planned object, in a layout no object name can escape, and
the marker that records what topoplan wrote. Replacing DIR safely is [`super::replace`]'s job.

Layout:

```text
DIR/
  .topoplan-plan                      marker: written by topoplan, and the list of its files
  <cluster-namespace>/<cluster-name>/
    [<flavor file>/]<action>/<Kind>_<namespace>_<name>.yaml
    [<flavor file>/]modified/<Kind>_<namespace>_<name>.yaml.orig   the object as it is now
    [<flavor file>/]modified/<Kind>_<namespace>_<name>.diff        unified diff of its managed fields
```

The flavor level appears only when several input files define a Cluster of the same name.
`created/`, `modified/` and `unchanged/` hold the state after the plan (the `.orig` and `.diff`
files are not YAML, so `kubectl apply -f` and `-f` skip them); `deleted/` holds what goes away.
Passed back as `--current DIR`, a directory written here is read as that state: its `deleted/`
directories are skipped ([`crate::load::LoadOptions::plan_outputs`]), so re-planning a plan's result reports no changes.

Every path component is reduced to `[A-Za-z0-9._-]` (other characters become `_`), may not be
`.`/`..` or start with a dot, and is cut to 100 bytes; a component that had to be changed gets an
8-character hash of the original, so two different names never share a file.

The marker lists every file topoplan wrote, one relative path per line (the layout makes them
plain ASCII without newlines). A listing rather than the layout rules decides what is ours,
because the rules cannot tell a planned `created/Foo_ns_a.yaml` from one a user dropped next to
it; the listing can, so replacing DIR never deletes a file the user added.
*/

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::plan::ClusterPlan;

/// Name of the marker file.
pub use crate::load::PLAN_MARKER as MARKER;
/// First line of the marker; the lines after it are the files written.
const MARKER_HEADER: &str =
    "# written by topoplan plan --output-dir; the files it wrote follow, one per line";
/// Longest path component we write.
const MAX_COMPONENT: usize = 100;

/// One object's files, rendered (on a worker thread) before they are placed.
#[derive(Debug, Clone)]
pub struct Piece {
    action: crate::plan::Action,
    /// `<Kind>_<namespace>_<name>`.
    file: String,
    api_version: String,
    /// The object after the plan.
    yaml: String,
    /// A modified object: as it is now, and the diff of its managed fields.
    before: Option<(String, Option<String>)>,
}

/// Render a Cluster's files (their places are given in order by [`Layout::place`]).
pub fn render(c: &ClusterPlan) -> Vec<Piece> {
    c.objects
        .iter()
        .map(|o| Piece {
            action: o.action,
            file: format!("{}_{}_{}", o.kind(), o.namespace(), o.name()),
            api_version: o.api_version().to_string(),
            yaml: crate::load::yaml::to_yaml(&o.object),
            before: match (&o.current, o.action) {
                (Some(before), crate::plan::Action::Modified) => Some((
                    crate::load::yaml::to_yaml(before),
                    crate::output::table::object_diff(o, false),
                )),
                _ => None,
            },
        })
        .collect()
}

/// Places files in DIR, Cluster after Cluster, so that no two share a path.
#[derive(Debug, Default)]
pub struct Layout {
    used: BTreeSet<PathBuf>,
    /// Files placed so far (part of a colliding name's hash, as it always was).
    placed: usize,
}

impl Layout {
    /// The paths (relative to DIR) and contents of one Cluster's files.
    pub fn place(&mut self, c: &ClusterPlan, pieces: Vec<Piece>) -> Vec<(PathBuf, String)> {
        self.place_at(&c.namespace, &c.name, c.source.as_deref(), pieces)
    }

    /// [`Layout::place`] for the Cluster `namespace/name` (from `source`, when several files
    /// define it).
    pub fn place_at(
        &mut self,
        namespace: &str,
        name: &str,
        source: Option<&str>,
        pieces: Vec<Piece>,
    ) -> Vec<(PathBuf, String)> {
        let mut base = PathBuf::from(component(namespace)).join(component(name));
        if let Some(src) = source {
            base = base.join(component(src));
        }
        let mut out = Vec::new();
        for p in pieces {
            let mut path = base
                .join(p.action.as_str())
                .join(format!("{}.yaml", component(&p.file)));
            // Distinct objects whose sanitized names collide still get distinct files.
            if !self.used.insert(path.clone()) {
                let h = short_hash(&format!("{}/{}/{}", p.api_version, p.file, self.placed));
                path = base
                    .join(p.action.as_str())
                    .join(format!("{}-{h}.yaml", component(&p.file)));
                self.used.insert(path.clone());
            }
            if let Some((orig_text, diff)) = p.before {
                let mut orig = path.clone().into_os_string();
                orig.push(".orig");
                out.push((PathBuf::from(orig), orig_text));
                self.placed += 1;
                if let Some(d) = diff {
                    out.push((path.with_extension("diff"), d));
                    self.placed += 1;
                }
            }
            out.push((path, p.yaml));
            self.placed += 1;
        }
        out
    }
}

/// The marker's text for a directory holding `files` (relative paths).
pub fn marker_text<'a>(files: impl IntoIterator<Item = &'a Path>) -> String {
    let mut text = format!("{MARKER_HEADER}\n");
    // Sorted, so the listing reads like `ls -R` and does not depend on planning order.
    for f in files.into_iter().collect::<BTreeSet<_>>() {
        // Layout paths are `/`-separated ASCII on every platform we write them on.
        text.push_str(&f.to_string_lossy());
        text.push('\n');
    }
    text
}

/// The files a marker lists, or `None` when `text` is not a marker this version wrote (an
/// older topoplan wrote a marker without the listing).
pub fn marker_files(text: &str) -> Option<BTreeSet<PathBuf>> {
    let mut lines = text.lines();
    if lines.next() != Some(MARKER_HEADER) {
        return None;
    }
    Some(lines.filter(|l| !l.is_empty()).map(PathBuf::from).collect())
}

/// A safe file-name component for `s`.
pub fn component(s: &str) -> String {
    let mut clean: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.starts_with('.') {
        clean.replace_range(0..1, "_");
    }
    if clean.is_empty() {
        clean.push('_');
    }
    if clean == s && clean.len() <= MAX_COMPONENT {
        return clean;
    }
    let h = short_hash(s);
    clean.truncate(MAX_COMPONENT - h.len() - 1);
    format!("{clean}-{h}")
}

fn short_hash(s: &str) -> String {
    Sha256::digest(s.as_bytes())
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_cannot_escape() {
        for bad in [
            "..",
            ".",
            "/etc/passwd",
            "a/../../b",
            "",
            ".hidden",
            "ä/ö",
            "a\0b",
            "C:\\x",
        ] {
            let c = component(bad);
            assert!(
                !c.contains('/') && !c.contains('\\') && !c.contains('\0'),
                "{bad:?} -> {c:?}"
            );
            assert!(!c.starts_with('.'), "{bad:?} -> {c:?}");
            assert!(!c.is_empty());
        }
        assert_eq!(
            component("DockerCluster_default_c1-abcde"),
            "DockerCluster_default_c1-abcde"
        );
        assert_ne!(component("a/b"), component("a_b"));
        let long = component(&"x".repeat(500));
        assert!(long.len() <= MAX_COMPONENT);
        assert_ne!(long, component(&"x".repeat(501)));
    }
}
