/*!
The `spec.patches` rules of the ClusterClass webhook (Cluster API's `patch_validation.go`,
`validatePatches`): patch names, `enabledIf` syntax, inline `definitions` versus `external`,
selectors and the templates they must match, and each JSON patch's op, path, array access,
value and `valueFrom`.

Messages that embed a whole patch, selector or JSON patch reproduce Go's encoding of the
struct (field order, `omitempty`), through [`crate::go::json::structs`]. Templates are parsed, never
executed, with Sprig's hermetic function map.
*/

use std::collections::HashSet;

use serde_json::Value;

use super::read::{TemplateRef, bool_at, get, list_at, str_at};
use crate::api::ClusterClass;
use crate::go::json::structs::{Fields, GoValue};
use crate::gotemplate::{MissingKey, Options as TplOptions, parse, sprig};
use crate::k8s::field::{BadValue, FieldError, Path};
use crate::k8s::validation::qualified_name;
use crate::k8s::values::atoi;
use crate::variables::builtins::is_builtin_path;

/// `validatePatches`.
pub fn validate(class: &ClusterClass, runtime_sdk: bool) -> Vec<FieldError> {
    let spec = &class.spec_value;
    let variables: HashSet<&str> = list_at(spec, &["variables"])
        .iter()
        .map(|v| str_at(v, &["name"]))
        .collect();
    let ctx = Ctx {
        spec,
        variables,
        api: class.api,
        runtime_sdk,
    };
    let mut names: HashSet<&str> = HashSet::new();
    let mut errs = Vec::new();
    for (i, patch) in list_at(spec, &["patches"]).iter().enumerate() {
        let path = Path::new("spec").child("patches").index(i);
        errs.extend(ctx.patch(patch, &names, &path));
        names.insert(str_at(patch, &["name"]));
    }
    errs
}

struct Ctx<'a> {
    spec: &'a Value,
    variables: HashSet<&'a str>,
    api: crate::api::ApiVersion,
    runtime_sdk: bool,
}

/// A template parse error with Go's text, for templates named `name`.
fn template_error(name: &str, text: &str) -> Option<String> {
    let opts = TplOptions {
        name,
        funcs: sprig::hermetic(),
        missing_key: MissingKey::Default,
    };
    parse(text, &opts).err().map(|e| e.message)
}

/// A field that Go decodes into a pointer: present when it is an object.
fn object_at<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    get(v, &[key]).filter(|v| v.is_object())
}

impl Ctx<'_> {
    fn patch(&self, patch: &Value, names: &HashSet<&str>, path: &Path) -> Vec<FieldError> {
        let mut errs = Vec::new();
        let name = str_at(patch, &["name"]);
        let name_path = path.child("name");
        if name.is_empty() {
            errs.push(FieldError::required(
                &name_path,
                "patch name must be defined",
            ));
        }
        if name == "inline" {
            errs.push(FieldError::required(
                &name_path,
                "\"inline\" can not be used as the name of a patch",
            ));
        }
        if names.contains(name) {
            errs.push(FieldError::invalid(
                &name_path,
                name,
                format!(
                    "patch names must be unique. Patch with name {} is defined more than once",
                    crate::k8s::field::go_quote(name)
                ),
            ));
        }

        let enabled_if = str_at(patch, &["enabledIf"]);
        if !enabled_if.is_empty()
            && let Some(e) = template_error("enabledIf", enabled_if)
        {
            errs.push(FieldError::invalid(
                &path.child("enabledIf"),
                enabled_if,
                format!("template can not be parsed: {e}"),
            ));
        }

        let definitions = get(patch, &["definitions"]).and_then(Value::as_array);
        let external = object_at(patch, "external");
        match (definitions, external) {
            (None, None) => errs.push(FieldError::required(
                path,
                "one of definitions or external must be defined",
            )),
            (Some(_), Some(_)) => errs.push(FieldError::invalid(
                path,
                BadValue::GoJson(patch_go(patch).marshal()),
                "only one of definitions or external can be defined",
            )),
            _ => {}
        }
        for (j, def) in definitions
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .enumerate()
        {
            let def_path = path.child("definitions").index(j);
            errs.extend(self.json_patches(
                list_at(def, &["jsonPatches"]),
                &def_path.child("jsonPatches"),
            ));
            errs.extend(self.selector(
                get(def, &["selector"]).unwrap_or(&Value::Null),
                &def_path.child("selector"),
            ));
        }
        if let Some(ext) = external {
            let ext_path = path.child("external");
            if !self.runtime_sdk {
                errs.push(FieldError::forbidden(
                    &ext_path,
                    "patch.external can be used only if the RuntimeSDK feature flag is enabled",
                ));
            }
            if str_at(ext, &["validateTopologyExtension"]).is_empty()
                && str_at(ext, &["generatePatchesExtension"]).is_empty()
            {
                errs.push(FieldError::invalid(
                    &ext_path,
                    BadValue::GoJson(external_go(ext).marshal()),
                    "one of validateTopologyExtension and generatePatchesExtension must be defined",
                ));
            }
        }
        errs
    }

    /// `validateSelectors`.
    fn selector(&self, sel: &Value, path: &Path) -> Vec<FieldError> {
        let mr = get(sel, &["matchResources"]).unwrap_or(&Value::Null);
        let infra = bool_at(mr, &["infrastructureCluster"]) == Some(true);
        let cp = bool_at(mr, &["controlPlane"]) == Some(true);
        let md_names = list_at(mr, &["machineDeploymentClass", "names"]);
        let mp_names = list_at(mr, &["machinePoolClass", "names"]);
        if !infra && !cp && md_names.is_empty() && mp_names.is_empty() {
            return vec![FieldError::invalid(
                path,
                selector_go(sel).marshal_indent(),
                "no selector enabled",
            )];
        }
        let kind = str_at(sel, &["kind"]);
        let api_version = str_at(sel, &["apiVersion"]);
        let matches = |r: TemplateRef<'_>| r.kind == kind && r.api_version == api_version;
        let mr_path = path.child("matchResources");
        let mut errs = Vec::new();
        if infra
            && !matches(TemplateRef::at(
                self.spec,
                &["infrastructure", "templateRef"],
            ))
        {
            errs.push(FieldError::invalid(
                &mr_path.child("infrastructureCluster"),
                true,
                "selector is enabled but does not match the infrastructure ref",
            ));
        }
        if cp {
            let mi = TemplateRef::at(
                self.spec,
                &["controlPlane", "machineInfrastructure", "templateRef"],
            );
            let cp_match = matches(TemplateRef::at(self.spec, &["controlPlane", "templateRef"]));
            let mi_match = mi.is_defined() && matches(mi);
            if !cp_match && !mi_match {
                errs.push(FieldError::invalid(
                    &mr_path.child("controlPlane"),
                    true,
                    "selector is enabled but matches neither the controlPlane ref nor the controlPlane machineInfrastructure ref",
                ));
            }
        }
        for (field, list, kind_name, names) in [
            (
                "machineDeploymentClass",
                "machineDeployments",
                "MachineDeployment",
                md_names,
            ),
            ("machinePoolClass", "machinePools", "MachinePool", mp_names),
        ] {
            let classes = list_at(self.spec, &["workers", list]);
            for (k, name) in names.iter().enumerate() {
                let name = name.as_str().unwrap_or("");
                let name_path = mr_path.child(field).child("names").index(k);
                if let Some(msg) = selector_name_error(name) {
                    errs.push(FieldError::invalid(&name_path, name, msg));
                    break;
                }
                let found = classes.iter().any(|c| {
                    name_matches(name, str_at(c, &["class"]))
                        && (matches(TemplateRef::at(c, &["infrastructure", "templateRef"]))
                            || matches(TemplateRef::at(c, &["bootstrap", "templateRef"])))
                });
                if !found {
                    errs.push(FieldError::invalid(
                        &name_path,
                        name,
                        format!("selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a {kind_name} class"),
                    ));
                }
            }
        }
        errs
    }

    /// `validateJSONPatches`.
    fn json_patches(&self, patches: &[Value], path: &Path) -> Vec<FieldError> {
        let mut errs = Vec::new();
        for (k, jp) in patches.iter().enumerate() {
            let jp_path = path.index(k);
            let op = str_at(jp, &["op"]);
            let target = str_at(jp, &["path"]);
            if !matches!(op, "add" | "replace" | "remove") {
                errs.push(FieldError::not_supported(
                    &jp_path.child("op"),
                    json_patch_go(jp).marshal_indent(),
                    &["add", "remove", "replace"],
                ));
            }
            if !target.starts_with("/spec") {
                errs.push(FieldError::invalid(
                    &jp_path.child("path"),
                    json_patch_go(jp).marshal_indent(),
                    "jsonPatch path must start with \"/spec\"",
                ));
            }
            errs.extend(index_access(op, target, &jp_path.child("path")));
            errs.extend(self.values(jp, op, &jp_path));
        }
        errs
    }

    /// `validateJSONPatchValues`.
    fn values(&self, jp: &Value, op: &str, path: &Path) -> Vec<FieldError> {
        if op != "add" && op != "replace" {
            return Vec::new();
        }
        let mut errs = Vec::new();
        let value = get(jp, &["value"]);
        let value_from = object_at(jp, "valueFrom");
        match (value, value_from) {
            (None, None) => errs.push(FieldError::invalid(
                path,
                json_patch_go(jp).marshal_indent(),
                "jsonPatch must define one of value or valueFrom",
            )),
            (Some(_), Some(_)) => errs.push(FieldError::invalid(
                path,
                json_patch_go(jp).marshal_indent(),
                "jsonPatch can not define both value and valueFrom",
            )),
            _ => {}
        }
        // `value` is JSON already: Cluster API's "jsonPatch Value is invalid JSON" cannot occur.
        let Some(vf) = value_from else {
            return errs;
        };
        let template = str_at(vf, &["template"]);
        let variable = str_at(vf, &["variable"]);
        let vf_path = path.child("valueFrom");
        if template.is_empty() && variable.is_empty() {
            errs.push(FieldError::invalid(
                &vf_path,
                value_from_go(vf).marshal_indent(),
                "valueFrom must set either template or variable",
            ));
        }
        if !template.is_empty() && !variable.is_empty() {
            errs.push(FieldError::invalid(
                &vf_path,
                value_from_go(vf).marshal_indent(),
                "valueFrom can not set both template and variable",
            ));
        }
        if !template.is_empty()
            && let Some(e) = template_error("valueFrom.template", template)
        {
            errs.push(FieldError::invalid(
                &vf_path.child("template"),
                template,
                format!("template can not be parsed: {e}"),
            ));
        }
        if !variable.is_empty() {
            let var_path = vf_path.child("variable");
            if variable.starts_with("builtin.") {
                if !is_builtin_path(variable, self.api) {
                    errs.push(FieldError::invalid(
                        &var_path,
                        variable,
                        "not a defined builtin variable",
                    ));
                }
            } else if !self.variables.contains(variable_name(variable)) {
                errs.push(FieldError::invalid(
                    &var_path,
                    variable,
                    format!("variable with name {variable} cannot be found"),
                ));
            }
        }
        errs
    }
}

/// `getVariableName`: the first non-empty field between `.` and `[` separators. (Go indexes
/// an empty result and panics for a name made only of separators; here it is `""`.)
fn variable_name(variable: &str) -> &str {
    variable
        .split(['.', '['])
        .find(|s| !s.is_empty())
        .unwrap_or("")
}

/// `validateSelectorName`: syntax of a class name selector containing `*`.
fn selector_name_error(name: &str) -> Option<&'static str> {
    if !name.contains('*') {
        return None;
    }
    if name.matches('*').count() > 1 {
        return Some("selector can at most contain a single \"*\" rune");
    }
    if !name.starts_with('*') && !name.ends_with('*') {
        return Some("\"*\" rune can only appear at the beginning, or ending of the selector");
    }
    if !qualified_name(&name.replace('*', "a")).is_empty() {
        return Some("selector does not comply with the Kubernetes naming standards");
    }
    None
}

/// Whether selector name `name` picks class `class`: exact, `*`, `*suffix` or `prefix*`.
fn name_matches(name: &str, class: &str) -> bool {
    class == name
        || name == "*"
        || name
            .strip_prefix('*')
            .is_some_and(|suffix| class.ends_with(suffix))
        || name
            .strip_suffix('*')
            .is_some_and(|prefix| class.starts_with(prefix))
}

/// `validateIndexAccess`: numeric path segments.
fn index_access(op: &str, target: &str, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for part in target.split('/') {
        let Ok(index) = atoi(part) else {
            continue;
        };
        if op == "add" && index != 0 {
            errs.push(FieldError::invalid(
                path,
                target,
                "arrays can only be accessed using \"0\" (prepend) or \"-\" (append)",
            ));
        }
        if op == "replace" || op == "remove" {
            errs.push(FieldError::invalid(
                path,
                target,
                format!("elements in arrays can not be accessed in a {op} operation"),
            ));
        }
    }
    errs
}

// ---- Go's encoding of the patch structs (v1beta2 field order) ----

fn str_list(v: &Value) -> GoValue {
    GoValue::List(
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|s| GoValue::Str(s.as_str().unwrap_or("").to_string()))
                    .collect()
            })
            .unwrap_or_default(),
    )
}

/// `{names}` of a class selector (a pointer: `None` when unset).
fn class_names_go(v: Option<&Value>) -> Option<GoValue> {
    let v = v.filter(|v| v.is_object())?;
    Some(
        Fields::new()
            .opt(
                "names",
                get(v, &["names"])
                    .filter(|n| n.as_array().is_some_and(|a| !a.is_empty()))
                    .map(str_list),
            )
            .build(),
    )
}

/// `PatchSelector`; `None` when it is the zero value (`omitzero`).
fn selector_fields(sel: &Value) -> Fields {
    let mr = get(sel, &["matchResources"]).unwrap_or(&Value::Null);
    let mr_fields = Fields::new()
        .opt(
            "controlPlane",
            bool_at(mr, &["controlPlane"]).map(GoValue::Bool),
        )
        .opt(
            "infrastructureCluster",
            bool_at(mr, &["infrastructureCluster"]).map(GoValue::Bool),
        )
        .opt(
            "machineDeploymentClass",
            class_names_go(get(mr, &["machineDeploymentClass"])),
        )
        .opt(
            "machinePoolClass",
            class_names_go(get(mr, &["machinePoolClass"])),
        );
    let mr_value = (!mr_fields.is_empty()).then(|| mr_fields.build());
    Fields::new()
        .str("apiVersion", str_at(sel, &["apiVersion"]))
        .str("kind", str_at(sel, &["kind"]))
        .opt("matchResources", mr_value)
}

fn selector_go(sel: &Value) -> GoValue {
    selector_fields(sel).build()
}

fn value_from_go(vf: &Value) -> GoValue {
    Fields::new()
        .str("variable", str_at(vf, &["variable"]))
        .str("template", str_at(vf, &["template"]))
        .build()
}

fn json_patch_go(jp: &Value) -> GoValue {
    Fields::new()
        .str("op", str_at(jp, &["op"]))
        .str("path", str_at(jp, &["path"]))
        .opt(
            "value",
            get(jp, &["value"]).map(|v| GoValue::Json(v.clone())),
        )
        .opt("valueFrom", object_at(jp, "valueFrom").map(value_from_go))
        .build()
}

fn external_go(ext: &Value) -> GoValue {
    Fields::new()
        .str(
            "generatePatchesExtension",
            str_at(ext, &["generatePatchesExtension"]),
        )
        .str(
            "validateTopologyExtension",
            str_at(ext, &["validateTopologyExtension"]),
        )
        .str(
            "discoverVariablesExtension",
            str_at(ext, &["discoverVariablesExtension"]),
        )
        .opt(
            "settings",
            get(ext, &["settings"])
                .filter(|s| s.as_object().is_some_and(|m| !m.is_empty()))
                .map(|s| GoValue::Json(s.clone())),
        )
        .build()
}

fn patch_go(patch: &Value) -> GoValue {
    let definitions = list_at(patch, &["definitions"]);
    let defs = (!definitions.is_empty()).then(|| {
        GoValue::List(
            definitions
                .iter()
                .map(|d| {
                    let sel = selector_fields(get(d, &["selector"]).unwrap_or(&Value::Null));
                    let sel = (!sel.is_empty()).then(|| sel.build());
                    let jps = list_at(d, &["jsonPatches"]);
                    Fields::new()
                        .opt("selector", sel)
                        .opt(
                            "jsonPatches",
                            (!jps.is_empty())
                                .then(|| GoValue::List(jps.iter().map(json_patch_go).collect())),
                        )
                        .build()
                })
                .collect(),
        )
    });
    Fields::new()
        .str("name", str_at(patch, &["name"]))
        .str("description", str_at(patch, &["description"]))
        .str("enabledIf", str_at(patch, &["enabledIf"]))
        .opt("definitions", defs)
        .opt("external", object_at(patch, "external").map(external_go))
        .build()
}

#[cfg(test)]
mod tests;
