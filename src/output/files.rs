/*!
`-o DIR`: one YAML file per planned object, in a layout no object name can escape.

Layout:

```text
DIR/
  .topoplan-plan                      marker: this directory was written by topoplan
  <cluster-namespace>/<cluster-name>/
    [<flavor file>/]<action>/<Kind>_<namespace>_<name>.yaml
    [<flavor file>/]modified/<Kind>_<namespace>_<name>.yaml.orig   the object as it is now
    [<flavor file>/]modified/<Kind>_<namespace>_<name>.diff        unified diff of its managed fields
```

The flavor level appears only when several input files define a Cluster of the same name.
`created/`, `modified/` and `unchanged/` hold the state after the plan (the `.orig` and `.diff`
files are not YAML, so `kubectl apply -f` and `-f` skip them); `deleted/` holds what goes away.
Passed back as `--current DIR`, a directory written here is read as that state: its `deleted/`
directories are skipped ([`state_paths`]), so re-planning a plan's result reports no changes.

Every path component is reduced to `[A-Za-z0-9._-]` (other characters become `_`), may not be
`.`/`..` or start with a dot, and is cut to 100 bytes; a component that had to be changed gets an
8-character hash of the original, so two different names never share a file. The whole tree is
written to a sibling staging directory first and renamed into place, so a failure never leaves a
half-written DIR. An existing DIR is replaced only if it is empty or was written by topoplan.
*/

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::diag::Diagnostic;
use crate::plan::Plan;

/// Name of the marker file.
const MARKER: &str = ".topoplan-plan";
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

/// Whether `dir` was written by `plan -o`.
pub fn is_plan_output(dir: &Path) -> bool {
    dir.join(MARKER).is_file()
}

/// The files of a `plan -o` directory that make up the state after that plan: every YAML file
/// except those under a `deleted` directory, sorted as `-f` sorts a directory.
pub fn state_paths(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "deleted") {
                continue;
            }
            out.extend(state_paths(&p)?);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
    Ok(out)
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

/// Write the plan's files under `dir`, atomically replacing a previous topoplan output.
pub fn write(plan: &Plan, dir: &Path) -> Result<(), Diagnostic> {
    let err = |what: &str, p: &Path, e: std::io::Error| {
        Diagnostic::error(format!("cannot {what} {}: {e}", p.display()))
    };
    if dir.exists() {
        let is_ours = dir.join(MARKER).is_file();
        let is_empty = std::fs::read_dir(dir)
            .map_err(|e| err("read output directory", dir, e))?
            .next()
            .is_none();
        if !is_ours && !is_empty {
            return Err(Diagnostic::error(format!(
                "output directory {} exists and was not written by topoplan",
                dir.display()
            ))
            .with_help("choose a new or empty directory; topoplan only replaces directories it wrote itself"));
        }
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let leaf = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let staging = parent.join(format!(".{leaf}.topoplan-staging-{}", std::process::id()));
    let result = (|| {
        if staging.exists() {
            std::fs::remove_dir_all(&staging).map_err(|e| err("remove", &staging, e))?;
        }
        std::fs::create_dir_all(&staging).map_err(|e| err("create", &staging, e))?;
        std::fs::write(
            staging.join(MARKER),
            "written by topoplan plan -o; safe to delete\n",
        )
        .map_err(|e| err("write", &staging, e))?;
        for (rel, text) in layout(plan) {
            let path = staging.join(&rel);
            if let Some(p) = path.parent() {
                std::fs::create_dir_all(p).map_err(|e| err("create", p, e))?;
            }
            std::fs::write(&path, text).map_err(|e| err("write", &path, e))?;
        }
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| err("replace", dir, e))?;
        }
        std::fs::rename(&staging, dir).map_err(|e| err("create", dir, e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
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
