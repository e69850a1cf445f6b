/*!
Loading: turns `-f` arguments into objects that remember where they came from.

Owns reading files, directories (recursive, sorted) and stdin; optional clusterctl-style
variable substitution; YAML/JSON parsing with spans; flattening of `kind: List`; namespace
defaulting; and duplicate detection. It knows nothing about Cluster API semantics beyond
"every object needs apiVersion, kind and metadata.name".
*/

pub mod envfile;
pub mod envsubst;
pub mod object;
pub mod source;
pub mod yaml;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Diagnostic, Diagnostics};
pub use object::Object;
use source::{Origin, SourceFile};

/// How to read the inputs; resolved from the command line by `cli`.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Files, directories or `-` (stdin), in the order given.
    pub paths: Vec<PathBuf>,
    /// Namespace for objects that have none.
    pub default_namespace: String,
    /// Variable values for `${VAR}` substitution; `None` disables substitution.
    pub substitute: Option<BTreeMap<String, String>>,
}

/// Every object of the input, in input order (files sorted within each directory).
#[derive(Debug, Default)]
pub struct Inputs {
    /// The objects.
    pub objects: Vec<Object>,
    /// Runtime SDK messages (`hooks.runtime.cluster.x-k8s.io`, e.g. a recorded
    /// DiscoverVariablesResponse): wire documents, not stored objects, so they have no name.
    pub runtime_messages: Vec<(serde_json::Value, Origin)>,
}

/// API group of Runtime SDK hook requests and responses.
pub const RUNTIME_HOOKS_GROUP: &str = "hooks.runtime.cluster.x-k8s.io";

/// Read and parse every input. All problems found are returned together.
pub fn load(opts: &LoadOptions) -> Result<Inputs, Diagnostics> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in &opts.paths {
        if let Err(e) = collect_files(path, &mut files) {
            errors.push(e);
        }
    }
    let mut objects = Vec::new();
    let mut runtime_messages = Vec::new();
    for (name, text) in files {
        let text = match &opts.substitute {
            Some(vars) => {
                let lookup = |k: &str| vars.get(k).cloned();
                match envsubst::substitute(&text, &lookup) {
                    Ok(t) => t,
                    Err(e) => {
                        let original = SourceFile::new(name, text);
                        errors.push(envsubst::to_diagnostic(e, &original));
                        continue;
                    }
                }
            }
            None => text,
        };
        let file = SourceFile::new(name, text);
        match yaml::parse_stream(&file) {
            Ok(docs) => {
                for doc in docs {
                    let spans = Arc::new(doc.spans);
                    let origin = Origin {
                        file: Arc::clone(&file),
                        spans,
                    };
                    let is_runtime_message = doc
                        .value
                        .get("apiVersion")
                        .and_then(serde_json::Value::as_str)
                        .is_some_and(|v| object::group_of(v) == RUNTIME_HOOKS_GROUP);
                    if is_runtime_message {
                        runtime_messages.push((doc.value, origin));
                    } else {
                        flatten(
                            doc.value,
                            origin,
                            &opts.default_namespace,
                            &mut objects,
                            &mut errors,
                        );
                    }
                }
            }
            Err(e) => errors.push(e),
        }
    }
    check_duplicates(&objects, &mut errors);
    if errors.is_empty() {
        Ok(Inputs {
            objects,
            runtime_messages,
        })
    } else {
        Err(Diagnostics(errors))
    }
}

/// Expand one argument into (display name, text) pairs.
fn collect_files(path: &Path, out: &mut Vec<(String, String)>) -> Result<(), Diagnostic> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Diagnostic::error(format!("cannot read standard input: {e}")))?;
        out.push(("<stdin>".to_string(), text));
        return Ok(());
    }
    let meta = std::fs::metadata(path).map_err(|e| {
        Diagnostic::error(format!("cannot read {}: {e}", path.display()))
            .with_help("-f takes a file, a directory or - for standard input")
    })?;
    if meta.is_dir() {
        let mut found = Vec::new();
        walk(path, &mut found)?;
        found.sort();
        if found.is_empty() {
            return Err(Diagnostic::error(format!(
                "directory {} holds no .yaml, .yml or .json file",
                path.display()
            )));
        }
        for f in found {
            // `-f .` lists `./a.yaml`; the short form reads better in diagnostics and paths.
            let shown = f.strip_prefix(".").unwrap_or(&f).display().to_string();
            out.push((shown, read_text(&f)?));
        }
    } else {
        out.push((path.display().to_string(), read_text(path)?));
    }
    Ok(())
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Diagnostic> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Diagnostic::error(format!("cannot read directory {}: {e}", dir.display())))?;
    for entry in entries {
        let entry = entry.map_err(|e| {
            Diagnostic::error(format!("cannot read directory {}: {e}", dir.display()))
        })?;
        let path = entry.path();
        let file_type = entry
            .file_type()
            .map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", path.display())))?;
        // Hidden entries (.git, editor swap files) are never inputs.
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if file_type.is_dir() {
            walk(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "json")
        ) {
            out.push(path);
        }
    }
    Ok(())
}

fn read_text(path: &Path) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path)
        .map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::error(format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Turn one document into objects: `kind: List` (and `*List`) documents yield their items.
fn flatten(
    value: serde_json::Value,
    origin: Origin,
    default_namespace: &str,
    out: &mut Vec<Object>,
    errors: &mut Vec<Diagnostic>,
) {
    let is_list = value
        .get("kind")
        .and_then(|k| k.as_str())
        .is_some_and(|k| k == "List" || (k.ends_with("List") && value.get("items").is_some()));
    if is_list {
        if let serde_json::Value::Object(mut map) = value {
            match map.remove("items") {
                Some(serde_json::Value::Array(items)) => {
                    for (i, item) in items.into_iter().enumerate() {
                        let item_origin = Origin {
                            file: Arc::clone(&origin.file),
                            spans: Arc::new(origin.spans.subtree(&format!("/items/{i}"))),
                        };
                        match Object::new(item, item_origin, default_namespace) {
                            Ok(o) => out.push(o),
                            Err(e) => errors.push(e),
                        }
                    }
                }
                Some(serde_json::Value::Null) | None => {}
                Some(_) => errors.push(
                    Diagnostic::error("a List's items must be a sequence of objects").at(
                        &origin,
                        "/items",
                        "expected a sequence",
                    ),
                ),
            }
        }
        return;
    }
    match Object::new(value, origin, default_namespace) {
        Ok(o) => out.push(o),
        Err(e) => errors.push(e),
    }
}

/// Two objects with the same group, kind, namespace and name cannot both be meant.
///
/// Exception: Clusters from different files are alternative flavors of one Cluster (clusterctl's
/// `cluster-template*.yaml` files); `plan` plans them side by side and says so.
fn check_duplicates(objects: &[Object], errors: &mut Vec<Diagnostic>) {
    type Key<'o> = (&'o str, &'o str, &'o str, &'o str, Option<&'o str>);
    let mut seen: BTreeMap<Key<'_>, &Object> = BTreeMap::new();
    for o in objects {
        let flavor = (o.kind == "Cluster" && o.group() == crate::api::GROUP)
            .then_some(o.origin.file.name.as_str());
        let key = (
            o.group(),
            o.kind.as_str(),
            o.namespace.as_str(),
            o.name.as_str(),
            flavor,
        );
        if let Some(first) = seen.get(&key) {
            errors.push(
                Diagnostic::error(format!(
                    "duplicate object: {} {}/{} is defined twice (first at {})",
                    o.kind,
                    o.namespace,
                    o.name,
                    first.origin.location("/metadata/name")
                ))
                .at(&o.origin, "/metadata/name", "defined again here")
                .with_help("each object may appear once in the input"),
            );
        } else {
            seen.insert(key, o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_str(text: &str) -> Result<Inputs, Diagnostics> {
        let dir = tempfile::tempdir().map_err(|e| Diagnostic::error(e.to_string()))?;
        let p = dir.path().join("in.yaml");
        std::fs::write(&p, text).map_err(|e| Diagnostic::error(e.to_string()))?;
        load(&LoadOptions {
            paths: vec![p],
            default_namespace: "default".into(),
            substitute: None,
        })
    }

    #[test]
    fn list_items_are_flattened_with_spans() {
        let inputs = load_str(
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n",
        )
        .map_err(|d| d.0[0].message.clone())
        .unwrap_or_else(|m| panic!("{m}"));
        assert_eq!(inputs.objects.len(), 2);
        assert_eq!(inputs.objects[1].name, "b");
        assert_eq!(inputs.objects[1].origin.location("/metadata/name"), {
            let f = &inputs.objects[1].origin.file.name;
            format!("{f}:11:11")
        });
        assert_eq!(inputs.objects[0].namespace, "default");
    }

    #[test]
    fn duplicates_are_reported_at_the_second() {
        let err = load_str(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        )
        .err()
        .unwrap_or_default();
        assert_eq!(err.0.len(), 1);
        assert!(
            err.0[0]
                .message
                .starts_with("duplicate object: ConfigMap default/a")
        );
        assert_eq!(err.0[0].position().map(|p| p.1), Some(9));
    }
}
