/*!
Reading one `apiextensions.k8s.io/v1` CustomResourceDefinition: its group, kind, and the schema of
each served version, compiled into a [`Structural`].

Owns what a CRD object must hold for its objects to be admitted; a version's schema must also
keep within [`super::bounds`]. A CRD or a version that falls short gives a warning located in the CRD's file and is
left out (its objects are then not admitted at all, as if no CRD were given); it never fails the
run, since the API server that accepted the CRD is the judge of its validity, not topoplan.
Versions with `served: false` are skipped silently: the API server has no endpoint for them.
*/

use serde_json::Value;

use super::bounds::check_bounds;
use super::structural::{Gvk, Structural};
use crate::diag::{Code, Diagnostic};
use crate::k8s::field::Path;
use crate::load::Object;
use crate::schema::cel::Compile;

/// Whether `o` is a CustomResourceDefinition.
pub fn is_crd(o: &Object) -> bool {
    o.kind == "CustomResourceDefinition" && o.group() == "apiextensions.k8s.io"
}

fn warn(crd: &Object, pointer: &str, message: String, label: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::InputCrd,
        format!("CustomResourceDefinition {}: {message}", crd.name),
    )
    .at(&crd.origin, pointer, label.to_string())
    .with_help("objects of this version are not checked against the CRD")
}

/// A warning for the CEL rules of a version that topoplan's CEL engine cannot compile (where
/// the API server could, since it accepted the CRD): objects with a value there would be refused
/// with that error, so the user must know it is topoplan's limit, not theirs.
fn rule_warning(
    crd: &Object,
    version: &str,
    schema_at: &str,
    s: &Structural,
) -> Option<Diagnostic> {
    let errors = s.cel.as_ref()?.compile_errors();
    let (first, _) = errors.first()?;
    let related: Vec<Diagnostic> = errors
        .iter()
        .map(|(p, e)| {
            Diagnostic::warning(Code::InputCrd, format!("{p}: {e}")).at(
                &crd.origin,
                &format!("{schema_at}{}", p.pointer()),
                "this rule",
            )
        })
        .collect();
    Some(
        Diagnostic::warning(Code::InputCrd, format!(
            "CustomResourceDefinition {}: version {version}: {} x-kubernetes-validations rule(s) cannot be compiled by topoplan's CEL engine",
            crd.name,
            errors.len()
        ))
        .at(
            &crd.origin,
            &format!("{schema_at}{}", first.pointer()),
            "not compiled",
        )
        .with_help("objects with a value where such a rule applies are reported invalid with the compile error")
        .with_related_bounded(related, errors.len()),
    )
}

/// The served versions of `crd`, compiled, and the warnings for what could not be read.
pub fn read(crd: &Object) -> (Vec<Structural>, Vec<Diagnostic>) {
    read_wanted(crd, &|_| true)
}

/// [`read`], compiling only the versions `wanted` accepts (a CRD's unused versions cost the
/// compilation of their schemas and CEL rules, and say nothing of the run).
pub fn read_wanted(
    crd: &Object,
    wanted: &(dyn Fn(&Gvk) -> bool + Sync),
) -> (Vec<Structural>, Vec<Diagnostic>) {
    read_wanted_with(crd, wanted, Compile::Eager)
}

/// [`read_wanted`] with the CEL rules compiled when `when` says: [`Compile::Lazy`] leaves out
/// the warnings for rules that do not compile, so it is only for CRDs known to have none.
pub(crate) fn read_wanted_with(
    crd: &Object,
    wanted: &dyn Fn(&Gvk) -> bool,
    when: Compile,
) -> (Vec<Structural>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    if crd.api_version != "apiextensions.k8s.io/v1" {
        warnings.push(warn(
            crd,
            "/apiVersion",
            format!(
                "{} is not read, only apiextensions.k8s.io/v1",
                crd.api_version
            ),
            "unsupported version",
        ));
        return (out, warnings);
    }
    let v = &crd.value;
    let group = v.pointer("/spec/group").and_then(Value::as_str);
    let kind = v.pointer("/spec/names/kind").and_then(Value::as_str);
    let versions = v.pointer("/spec/versions").and_then(Value::as_array);
    let (Some(group), Some(kind), Some(versions)) = (group, kind, versions) else {
        warnings.push(warn(
            crd,
            "/spec",
            "has no spec.group, spec.names.kind or spec.versions".into(),
            "incomplete CustomResourceDefinition",
        ));
        return (out, warnings);
    };
    let preserve = v
        .pointer("/spec/preserveUnknownFields")
        .and_then(Value::as_bool)
        == Some(true);
    for (i, version) in versions.iter().enumerate() {
        let at = format!("/spec/versions/{i}");
        if version.get("served").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        let name = version.get("name").and_then(Value::as_str);
        let schema = version.pointer("/schema/openAPIV3Schema");
        if let Some(n) = name
            && !wanted(&Gvk::new(group, n, kind))
        {
            continue;
        }
        let (Some(name), Some(schema)) = (name, schema) else {
            warnings.push(warn(
                crd,
                &at,
                format!("served version #{i} has no name or no schema.openAPIV3Schema"),
                "no schema here",
            ));
            continue;
        };
        let schema_at = format!("{at}/schema/openAPIV3Schema");
        if let Err(why) = check_bounds(schema) {
            warnings.push(warn(
                crd,
                &schema_at,
                format!("version {name}: {why}"),
                "schema",
            ));
            continue;
        }
        let path = Path::new("spec")
            .child("versions")
            .index(i)
            .child("schema")
            .child("openAPIV3Schema");
        match Structural::compile_with(Gvk::new(group, name, kind), schema, preserve, &path, when) {
            Ok(s) => {
                if let Some(w) = rule_warning(crd, name, &schema_at, &s) {
                    warnings.push(w);
                }
                out.push(s);
            }
            Err(errs) => {
                let total = errs.len();
                let pointer = errs.first().map(|e| e.path.pointer()).unwrap_or_default();
                let related: Vec<Diagnostic> = errs
                    .iter()
                    .map(|e| {
                        Diagnostic::warning(Code::InputCrd, e.to_string()).at(
                            &crd.origin,
                            &e.path.pointer(),
                            "here",
                        )
                    })
                    .collect();
                warnings.push(
                    warn(
                        crd,
                        &pointer,
                        format!("version {name}: the schema cannot be read"),
                        "not a valid schema",
                    )
                    .with_related_bounded(related, total),
                );
            }
        }
    }
    (out, warnings)
}
