/*!
Class lint: what Cluster API would accept in a ClusterClass's patches but not do as written.

Owns the checks of a class's patch templates and operations that need no Cluster: a template
path that is no variable of the class nor a builtin (a typo Cluster API renders as
`<no value>`), a template whose output changes on every render, and an operation that writes
where Cluster API drops it. `plan` (through [`crate::plan::fleet`]) and `validate` run them; a
failing template render gets the lint's suggestion in its own help ([`explain_failures`]).
*/

use std::collections::BTreeSet;

use serde_json::Value;

use crate::api::{ApiVersion, ClusterClass};
use crate::diag::{Code, Diagnostic};

/// A template path that names nothing, found by [`unknown_template_paths`].
#[derive(Debug, Clone)]
pub struct UnknownPath {
    /// The warning, located at the template.
    pub warning: Diagnostic,
    /// What the template reads, `.builtin.cluster.nmae`.
    pub path: String,
    /// The nearest declared name, `.builtin.cluster.name`, when one is close.
    pub suggestion: Option<String>,
}

/// Add to each error of a failed template render (a patch that failed to generate) the lint's
/// finding for a template inside the failing patch: an unknown path is the likely cause of
/// "invalid value; expected string" and its kin, which say nothing of the typo.
pub fn explain_failures(errors: &mut [Diagnostic], found: &[UnknownPath]) {
    for e in errors.iter_mut().filter(|e| e.code == Code::PatchGenerate) {
        let Some(at) = &e.location else {
            continue;
        };
        let causes: Vec<String> = found
            .iter()
            .filter(|u| {
                u.warning.location.as_ref().is_some_and(|l| {
                    std::sync::Arc::ptr_eq(&l.file, &at.file)
                        && l.span.offset >= at.span.offset
                        && l.span.offset + l.span.len <= at.span.offset + at.span.len
                })
            })
            .map(|u| match &u.suggestion {
                Some(s) => format!(
                    "the patch's template reads {}, which names nothing: did you mean {s}?",
                    u.path
                ),
                None => format!("the patch's template reads {}, which names nothing", u.path),
            })
            .collect();
        if causes.is_empty() {
            continue;
        }
        let mut help = e.help.take().map(|h| vec![h]).unwrap_or_default();
        help.extend(causes);
        e.help = Some(help.join("\n"));
    }
}

/// Paths read by the class's templates (`enabledIf`, `valueFrom.template`) that are neither a
/// variable of the class nor a builtin: Cluster API renders them as `<no value>` (or fails when
/// they are piped into a function), so each is most likely a typo. A warning per path and
/// template, with the nearest declared name when one is close.
pub fn unknown_template_paths(class: &ClusterClass) -> Vec<UnknownPath> {
    let declared: Vec<&str> = class
        .spec
        .variables
        .iter()
        .filter_map(|v| v.get("name").and_then(Value::as_str))
        .collect();
    let mut out = Vec::new();
    // External patches see other variables (discovered ones): only inline ones are checked.
    for ClassTemplate {
        pointer,
        patch,
        text: t,
        external,
    } in class_templates(class)
    {
        if external {
            continue;
        }
        let mut seen = BTreeSet::new();
        for (path, _) in crate::gotemplate::paths::root_paths(t) {
            let joined = path.join(".");
            if !seen.insert(joined.clone()) {
                continue;
            }
            let Some(first) = path.first() else { continue };
            let builtin = first == "builtin";
            let known = if builtin {
                crate::variables::builtins::is_readable_builtin_path(&joined, class.api)
            } else {
                declared.contains(&first.as_str())
            };
            if known {
                continue;
            }
            // Only for a path that is unknown: what it might have meant.
            let candidates: Vec<&str> = if builtin {
                crate::variables::builtins::builtin_paths(class.api).to_vec()
            } else {
                declared.clone()
            };
            let probe = if builtin {
                joined.as_str()
            } else {
                first.as_str()
            };
            let nearest = candidates
                .iter()
                .map(|c| (strsim::levenshtein(probe, c), *c))
                .filter(|(d, c)| *d > 0 && *d <= 2.max(c.len() / 4))
                .min();
            let mut d = Diagnostic::warning(Code::TemplateUnknownVariable, format!(
                "ClusterClass {}: patch {patch:?} reads .{joined} in a template, which is {}: Cluster API renders it as \"<no value>\" (or fails where it is passed to a function)",
                class.key(),
                if builtin { "no builtin variable" } else { "no variable of the class" }
            ))
            .at(&class.object.origin, &pointer, "unknown path");
            let suggestion = nearest.map(|(_, c)| {
                let s = if builtin {
                    c.to_string()
                } else {
                    std::iter::once(c)
                        .chain(path.iter().skip(1).map(String::as_str))
                        .collect::<Vec<_>>()
                        .join(".")
                };
                format!(".{s}")
            });
            if let Some(s) = &suggestion {
                d = d.with_help(format!("did you mean {s}?"));
            }
            out.push(UnknownPath {
                warning: d,
                path: format!(".{joined}"),
                suggestion,
            });
        }
    }
    out
}

/// Every inline operation of `class` as read: `(patch index, patch name, operation pointer,
/// operation)`, the pointer being `/spec/patches/i/definitions/j/jsonPatches/k`.
fn inline_operations(class: &ClusterClass) -> Vec<(usize, &str, String, &Value)> {
    fn arr(v: Option<&Value>) -> &[Value] {
        v.and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
    }
    let mut out = Vec::new();
    for (i, p) in arr(class.object.value.pointer("/spec/patches"))
        .iter()
        .enumerate()
    {
        let name = p.get("name").and_then(Value::as_str).unwrap_or("");
        for (j, d) in arr(p.get("definitions")).iter().enumerate() {
            for (k, op) in arr(d.get("jsonPatches")).iter().enumerate() {
                out.push((
                    i,
                    name,
                    format!("/spec/patches/{i}/definitions/{j}/jsonPatches/{k}"),
                    op,
                ));
            }
        }
    }
    out
}

/// One error per inline operation whose path lies under `/spec` but outside
/// `/spec/template`. Admission accepts it, but Cluster API writes back only the template part
/// of every patched template (`spec.template.spec`, and on main its metadata), so the change
/// would silently vanish from every Cluster: the class cannot mean it. Second, warnings for
/// operations under `/spec/template/metadata` of a v1beta1 class: Cluster API v1.10 wrote back
/// only `spec.template.spec`, so they have no effect there either.
pub fn ineffective_operations(class: &ClusterClass) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for (_, name, at, op) in inline_operations(class) {
        let Some(path) = op.get("path").and_then(Value::as_str) else {
            continue;
        };
        let pointer = format!("{at}/path");
        let metadata =
            path == "/spec/template/metadata" || path.starts_with("/spec/template/metadata/");
        if metadata && class.api == ApiVersion::V1Beta1 {
            warnings.push(
                Diagnostic::warning(Code::PatchOutsideTemplate, format!(
                    "ClusterClass {}: patch {name:?} writes {path}: Cluster API v1.10 (v1beta1) copies only spec.template.spec of a patched template into the objects, so this operation has no effect",
                    class.key()
                ))
                .at(&class.object.origin, &pointer, "dropped by Cluster API v1.10"),
            );
            continue;
        }
        let kept = path == "/spec/template" || path.starts_with("/spec/template/");
        if kept || !path.starts_with("/spec/") {
            continue;
        }
        out.push(
            Diagnostic::error(Code::PatchOutsideTemplate, format!(
                "ClusterClass {}: patch {name:?} writes {path}, outside spec.template: Cluster API keeps only spec.template of a patched template, so this operation would have no effect",
                class.key()
            ))
            .at(&class.object.origin, &pointer, "dropped by Cluster API")
            .with_help("patch a field under /spec/template/spec (or /spec/template/metadata); Cluster API accepts this class and silently ignores the operation, topoplan refuses it"),
        );
    }
    (out, warnings)
}

/// One warning per patch template that calls a function whose result changes from run to run:
/// Cluster API would render a different value on every reconcile, so no plan can predict it.
pub fn non_deterministic_templates(class: &ClusterClass) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for t in class_templates(class) {
        let funcs = crate::gotemplate::capi::non_deterministic_functions(t.text);
        if !funcs.is_empty() {
            out.push(
                Diagnostic::warning(Code::TemplateNonDeterministic, format!(
                    "ClusterClass {}: patch {:?} calls {}, whose result changes on every render: the class cannot be planned deterministically",
                    class.key(),
                    t.patch,
                    funcs.join(", ")
                ))
                .at(&class.object.origin, &t.pointer, "not deterministic"),
            );
        }
    }
    out
}

/// A Go template of a class's patches: an `enabledIf`, or an inline operation's
/// `valueFrom.template`.
struct ClassTemplate<'c> {
    /// Where it is in the class (`/spec/patches/0/enabledIf`, `…/valueFrom/template`).
    pointer: String,
    /// The patch's name.
    patch: &'c str,
    /// The template text.
    text: &'c str,
    /// The patch is external (its variables are the extension's).
    external: bool,
}

/// Every template of `class`: each patch's `enabledIf`, then each inline operation's
/// `valueFrom.template`, in spec order.
fn class_templates(class: &ClusterClass) -> Vec<ClassTemplate<'_>> {
    let patches = class
        .object
        .value
        .pointer("/spec/patches")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut out = Vec::new();
    for (i, p) in patches.iter().enumerate() {
        if let Some(text) = p.get("enabledIf").and_then(Value::as_str) {
            out.push(ClassTemplate {
                pointer: format!("/spec/patches/{i}/enabledIf"),
                patch: p.get("name").and_then(Value::as_str).unwrap_or(""),
                text,
                external: p.get("external").is_some(),
            });
        }
    }
    for (_, patch, at, op) in inline_operations(class) {
        if let Some(text) = op.pointer("/valueFrom/template").and_then(Value::as_str) {
            out.push(ClassTemplate {
                pointer: format!("{at}/valueFrom/template"),
                patch,
                text,
                external: false,
            });
        }
    }
    out
}
