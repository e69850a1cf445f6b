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
directories are skipped ([`crate::load::deleted_dirs`]), so re-planning a plan's result reports no changes.

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

use crate::plan::Plan;

/// Name of the marker file.
pub const MARKER: &str = ".topoplan-plan";
/// First line of the marker; the lines after it are the files written.
const MARKER_HEADER: &str =
    "# written by topoplan plan --output-dir; the files it wrote follow, one per line";
/// Longest path component we write.
const MAX_COMPONENT: usize = 100;

/// The files a plan produces: paths relative to DIR, and contents.
pub fn layout(plan: &Plan) -> Vec<(PathBuf, String)> {
    let mut used = BTreeSet::new();
    let mut out = Vec::new();
    for c in &plan.clusters {
        let mut base = PathBuf::from(component(&c.namespace)).join(component(&c.name));
        if let Some(src) = &c.source {
            base = base.join(component(src));
        }
        for o in &c.objects {
            let file = format!("{}_{}_{}", o.kind(), o.namespace(), o.name());
            let mut path = base
                .join(o.action.as_str())
                .join(format!("{}.yaml", component(&file)));
            // Distinct objects whose sanitized names collide still get distinct files.
            if !used.insert(path.clone()) {
                let h = short_hash(&format!("{}/{}/{}", o.api_version(), file, out.len()));
                path = base
                    .join(o.action.as_str())
                    .join(format!("{}-{h}.yaml", component(&file)));
                used.insert(path.clone());
            }
            if o.action == crate::plan::Action::Modified
                && let Some(before) = &o.current
            {
                let mut orig = path.clone().into_os_string();
                orig.push(".orig");
                out.push((PathBuf::from(orig), crate::load::yaml::to_yaml(before)));
                if let Some(d) = crate::output::table::object_diff(o, false) {
                    out.push((path.with_extension("diff"), d));
                }
            }
            out.push((path, crate::load::yaml::to_yaml(&o.object)));
        }
    }
    out
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

/// Whether `dir` was written by `plan --output-dir`.
pub fn is_plan_output(dir: &Path) -> bool {
    dir.join(MARKER).is_file()
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
