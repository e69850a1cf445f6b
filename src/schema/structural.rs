/*!
Well-formedness of a variable schema: the structural-schema rules the API server applies to CRDs
(`apiextensions-apiserver/pkg/apiserver/schema/validation.go`, `complete.go`), as Cluster API's
`validateRootSchema` runs them, and Cluster API's own per-node `validateSchema`.

Owns [`validate_structural`]: Cluster API wraps the variable schema as
`{type: object, properties: {variableSchema: S}}`, runs `ValidateStructural` and rewrites
`openAPIV3Schema.properties[variableSchema]` back to `openAPIV3Schema`. So the variable schema is
checked as an object *field*, never as a resource root: `type` may only be empty with
`x-kubernetes-int-or-string` or `x-kubernetes-preserve-unknown-fields`, `type: array` needs
`items`, `pattern` must compile as Go RE2, int-or-string excludes preserve-unknown-fields, and
inside `allOf` / `anyOf` / `oneOf` / `not` no `type`, `additionalProperties`, `default`,
`x-kubernetes-*` extension, CEL rule or `properties.metadata` may appear (the int-or-string
`anyOf: [{type: integer}, {type: string}]` pattern, alone or as `allOf[0].anyOf`, is exempt).
Errors come sorted by their text, as Kubernetes sorts them.

The completeness rule (a property or items used in a junctor must exist in the main schema,
`because it is defined in ...`) is only applied by Kubernetes to the junctors of the *root* of the
structural schema, and that root is Cluster API's wrapper, which has none. So it never fires for a
variable, and is implemented here only as that root check.

And owns [`validate_schema`], Cluster API's recursive `validateSchema`: supported types,
`additionalProperties` with `properties`, `example` and `enum` entries validated against their
own node, the static checks of each `x-kubernetes-validations` rule (blank rule, message rules,
reason, fieldPath), then the CEL compile checks ([`super::cel::check_rules`]) and the CEL
validation of examples and enums.
*/

use serde_json::Value;

use super::cel;
use super::props::{Schema, ValidationRule};
use super::value::validate_custom_resource;
use crate::go::regexp as regex;
use crate::k8s::field::{FieldError, Path};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Item,
    Field,
}

/// `ValidateStructural` on Cluster API's wrapper, with the wrapper's path segment removed:
/// `path` is the variable's `...schema.openAPIV3Schema`.
pub fn validate_structural(s: &Schema, path: &Path) -> Vec<FieldError> {
    let mut errs = invariants(s, Level::Field, path);
    // Completeness runs on the wrapper root only; the wrapper has no junctors.
    errs.extend(completeness(&Schema::default(), path));
    errs.sort_by_cached_key(ToString::to_string);
    errs
}

fn invariants(s: &Schema, lvl: Level, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if s.type_ == "array" && s.items.is_none() {
        errs.push(FieldError::required(
            &path.child("items"),
            "must be specified",
        ));
    }
    if let Some(items) = &s.items {
        errs.extend(invariants(items, Level::Item, &path.child("items")));
    }
    for (k, p) in &s.properties {
        errs.extend(invariants(
            p,
            Level::Field,
            &path.child("properties").key(k),
        ));
    }
    if let Some(ap) = &s.additional_properties {
        errs.extend(invariants(
            ap,
            Level::Field,
            &path.child("additionalProperties"),
        ));
    }
    if s.is_int_or_string() && s.preserves_unknown_fields() {
        errs.push(FieldError::invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            true,
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    let skip_any_of = is_int_or_string_any_of(&s.any_of);
    let skip_first_all_of_any_of = s
        .all_of
        .first()
        .is_some_and(|a| is_int_or_string_any_of(&a.any_of));
    errs.extend(value_validation(
        s,
        skip_any_of,
        skip_first_all_of_any_of,
        path,
    ));
    if s.type_.is_empty() && !s.is_int_or_string() && !s.preserves_unknown_fields() {
        let detail = match lvl {
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(&path.child("type"), detail));
    }
    errs
}

/// A junctor entry that is exactly `{type: t}` (descriptions and x-metadata aside, which Cluster
/// API's conversion drops).
fn is_only_type(s: &Schema, t: &str) -> bool {
    let bare = Schema {
        type_: t.to_string(),
        description: s.description.clone(),
        x_metadata: s.x_metadata.clone(),
        unique_items: s.unique_items.filter(|b| *b),
        exclusive_maximum: s.exclusive_maximum.filter(|b| *b),
        exclusive_minimum: s.exclusive_minimum.filter(|b| *b),
        int_or_string: s.int_or_string.filter(|b| *b),
        preserve_unknown_fields: s.preserve_unknown_fields.filter(|b| *b),
        ..Schema::default()
    };
    s.drop_false_ptr_bools() == bare.drop_false_ptr_bools()
        && bare.unique_items.is_none()
        && bare.exclusive_maximum.is_none()
        && bare.exclusive_minimum.is_none()
        && bare.int_or_string.is_none()
        && bare.preserve_unknown_fields.is_none()
}

fn is_int_or_string_any_of(any_of: &[Schema]) -> bool {
    any_of.len() == 2 && is_only_type(&any_of[0], "integer") && is_only_type(&any_of[1], "string")
}

fn value_validation(
    s: &Schema,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if !skip_any_of {
        for (i, a) in s.any_of.iter().enumerate() {
            errs.extend(nested(a, false, &path.child("anyOf").index(i)));
        }
    }
    for (i, a) in s.all_of.iter().enumerate() {
        errs.extend(nested(
            a,
            skip_first_all_of_any_of && i == 0,
            &path.child("allOf").index(i),
        ));
    }
    for (i, o) in s.one_of.iter().enumerate() {
        errs.extend(nested(o, false, &path.child("oneOf").index(i)));
    }
    if let Some(not) = &s.not {
        errs.extend(nested(not, false, &path.child("not")));
    }
    if !s.pattern.is_empty()
        && let Err(e) = regex::compile(&s.pattern)
    {
        errs.push(FieldError::invalid(
            &path.child("pattern"),
            s.pattern.as_str(),
            format!("must be a valid regular expression, but isn't: {e}"),
        ));
    }
    errs
}

/// `validateNestedValueValidation`: a node inside a junctor.
fn nested(v: &Schema, skip_any_of: bool, path: &Path) -> Vec<FieldError> {
    let mut errs = value_validation(v, skip_any_of, false, path);
    if let Some(items) = &v.items {
        errs.extend(nested(items, false, &path.child("items")));
    }
    for (k, p) in &v.properties {
        errs.extend(nested(p, false, &path.child("properties").key(k)));
    }
    if !v.type_.is_empty() {
        errs.push(FieldError::forbidden(
            &path.child("type"),
            "must be empty to be structural",
        ));
    }
    if v.additional_properties.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("additionalProperties"),
            "must be undefined to be structural",
        ));
    }
    if v.default.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("default"),
            "must be undefined to be structural",
        ));
    }
    if v.preserves_unknown_fields() {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            "must be false to be structural",
        ));
    }
    if v.is_int_or_string() {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-int-or-string"),
            "must be false to be structural",
        ));
    }
    if v.validations.as_ref().is_some_and(|r| !r.is_empty()) {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-validations"),
            "must be empty to be structural",
        ));
    }
    if v.properties.contains_key("metadata") {
        errs.push(FieldError::forbidden(
            &path.child("properties").key("metadata"),
            "must not be specified in a nested context",
        ));
    }
    errs
}

/// `validateStructuralCompleteness` for a structural root `s`.
fn completeness(s: &Schema, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let junctors = s
        .not
        .iter()
        .map(|n| (n.as_ref(), path.child("not")))
        .chain(
            s.all_of
                .iter()
                .enumerate()
                .map(|(i, a)| (a, path.child("allOf").index(i))),
        )
        .chain(
            s.any_of
                .iter()
                .enumerate()
                .map(|(i, a)| (a, path.child("anyOf").index(i))),
        )
        .chain(
            s.one_of
                .iter()
                .enumerate()
                .map(|(i, a)| (a, path.child("oneOf").index(i))),
        );
    for (v, v_path) in junctors {
        errs.extend(nested_completeness(v, Some(s), path, &v_path));
    }
    errs
}

fn nested_completeness(
    v: &Schema,
    s: Option<&Schema>,
    s_path: &Path,
    v_path: &Path,
) -> Vec<FieldError> {
    let Some(s) = s else {
        return vec![FieldError::required(
            s_path,
            format!("because it is defined in {v_path}"),
        )];
    };
    let mut errs = Vec::new();
    let junctors = v
        .not
        .iter()
        .map(|n| (n.as_ref(), v_path.child("not")))
        .chain(
            v.all_of
                .iter()
                .enumerate()
                .map(|(i, a)| (a, v_path.child("allOf").index(i))),
        )
        .chain(
            v.any_of
                .iter()
                .enumerate()
                .map(|(i, a)| (a, v_path.child("anyOf").index(i))),
        )
        .chain(
            v.one_of
                .iter()
                .enumerate()
                .map(|(i, a)| (a, v_path.child("oneOf").index(i))),
        );
    for (j, j_path) in junctors {
        errs.extend(nested_completeness(j, Some(s), s_path, &j_path));
    }
    if let Some(items) = &v.items {
        errs.extend(nested_completeness(
            items,
            s.items.as_deref(),
            &s_path.child("items"),
            &v_path.child("items"),
        ));
    }
    for (k, p) in &v.properties {
        let vp = v_path.child("properties").key(k);
        match s.properties.get(k) {
            Some(sp) => errs.extend(nested_completeness(
                p,
                Some(sp),
                &s_path.child("properties").key(k),
                &vp,
            )),
            None => errs.push(FieldError::required(
                &s_path.child("properties").key(k),
                format!("because it is defined in {vp}"),
            )),
        }
    }
    errs
}

const SUPPORTED_TYPES: &[&str] = &["array", "boolean", "integer", "number", "object", "string"];
const SUPPORTED_REASONS: &[&str] = &[
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// Errors of Cluster API's `validateSchema`, kept apart as Go keeps them.
#[derive(Debug, Default)]
struct SchemaErrors {
    schema: Vec<FieldError>,
    cel: Vec<FieldError>,
}

/// Cluster API's `validateSchema` for a variable's converted schema `s` (raw JSON `raw`) at
/// `path` (`...schema.openAPIV3Schema`), followed by the CEL compile checks of the whole tree
/// (`old_raw` is the schema of the same variable in the old ClusterClass, on update).
///
/// Deviation: Cluster API compiles each node's rules only when that node and its descendants
/// have no schema errors; the CEL API here checks the whole tree at once, so it runs only when
/// the whole schema has none. Example and enum entries are evaluated with CEL only when no error
/// at all was found.
pub fn validate_schema(
    s: &Schema,
    raw: &Value,
    path: &Path,
    old_raw: Option<&Value>,
) -> Vec<FieldError> {
    let mut out = SchemaErrors::default();
    walk(s, path, &mut out);
    if out.schema.is_empty() {
        out.cel.extend(cel::check_rules(raw, path, old_raw));
    }
    if out.schema.is_empty() && out.cel.is_empty() {
        cel_examples(s, raw, path, &mut out.cel);
    }
    let mut all = out.schema;
    all.extend(out.cel);
    all
}

fn walk(s: &Schema, path: &Path, out: &mut SchemaErrors) {
    if !s.type_.is_empty() && !SUPPORTED_TYPES.contains(&s.type_.as_str()) {
        out.schema.push(FieldError::not_supported(
            &path.child("type"),
            s.type_.as_str(),
            SUPPORTED_TYPES,
        ));
        return;
    }
    if let Some(example) = &s.example {
        out.schema
            .extend(validate_custom_resource(&path.child("example"), example, s));
    }
    if !s.enum_.is_empty() {
        // Every entry is trivially one of the entries (nulls were dropped when reading), so
        // they are checked against the schema without its enum: checking each of n entries
        // against all n is quadratic, 30 s for 200,000 entries.
        let without_enum = Schema {
            enum_: Vec::new(),
            ..s.clone()
        };
        for (i, e) in s.enum_.iter().enumerate() {
            out.schema.extend(validate_custom_resource(
                &path.child("enum").index(i),
                e,
                &without_enum,
            ));
        }
    }
    if let Some(ap) = &s.additional_properties {
        if !s.properties.is_empty() {
            out.schema.push(FieldError::forbidden(
                path,
                "additionalProperties and properties are mutually exclusive",
            ));
        }
        walk(ap, &path.child("additionalProperties"), out);
    }
    for (k, p) in &s.properties {
        walk(p, &path.child("properties").key(k), out);
    }
    if let Some(items) = &s.items {
        walk(items, &path.child("items"), out);
    }
    if let Some(not) = &s.not {
        walk(not, &path.child("not"), out);
    }
    for (name, list) in [
        ("allOf", &s.all_of),
        ("oneOf", &s.one_of),
        ("anyOf", &s.any_of),
    ] {
        for (i, x) in list.iter().enumerate() {
            walk(x, &path.child(name).index(i), out);
        }
    }
    if let Some(rules) = s.validations.as_ref().filter(|r| !r.is_empty()) {
        for (i, rule) in rules.iter().enumerate() {
            out.schema.extend(rule_errors(
                rule,
                s,
                &path.child("x-kubernetes-validations").index(i),
            ));
        }
    }
}

fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// The static checks of one `x-kubernetes-validations` rule.
fn rule_errors(rule: &ValidationRule, s: &Schema, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let trimmed_rule = rule.rule.trim();
    let trimmed_msg = rule.message.trim();
    if trimmed_rule.is_empty() {
        errs.push(FieldError::required(
            &path.child("rule"),
            "rule is not specified",
        ));
    } else if !rule.message.is_empty() && trimmed_msg.is_empty() {
        errs.push(FieldError::invalid(
            &path.child("message"),
            rule.message.as_str(),
            "message must be non-empty if specified",
        ));
    } else if rule.message.len() > 2048 {
        // Go shows the first ten bytes; here cut at a character boundary.
        let mut end = 10;
        while !rule.message.is_char_boundary(end) {
            end -= 1;
        }
        errs.push(FieldError::invalid(
            &path.child("message"),
            format!("{}...", &rule.message[..end]),
            "message must have a maximum length of 2048 characters",
        ));
    } else if has_newlines(trimmed_msg) {
        errs.push(FieldError::invalid(
            &path.child("message"),
            rule.message.as_str(),
            "message must not contain line breaks",
        ));
    } else if has_newlines(trimmed_rule) && trimmed_msg.is_empty() {
        errs.push(FieldError::required(
            &path.child("message"),
            "message must be specified if rule contains line breaks",
        ));
    }
    if !rule.message_expression.is_empty() && rule.message_expression.trim().is_empty() {
        errs.push(FieldError::required(
            &path.child("messageExpression"),
            "messageExpression must be non-empty if specified",
        ));
    }
    if !rule.reason.is_empty() && !SUPPORTED_REASONS.contains(&rule.reason.as_str()) {
        errs.push(FieldError::not_supported(
            &path.child("reason"),
            rule.reason.as_str(),
            SUPPORTED_REASONS,
        ));
    }
    if !rule.field_path.is_empty() && rule.field_path.trim().is_empty() {
        errs.push(FieldError::invalid(
            &path.child("fieldPath"),
            rule.field_path.as_str(),
            "fieldPath must be non-empty if specified",
        ));
    }
    if has_newlines(&rule.field_path) {
        errs.push(FieldError::invalid(
            &path.child("fieldPath"),
            rule.field_path.as_str(),
            "fieldPath must not contain line breaks",
        ));
    }
    if !rule.field_path.is_empty()
        && let Err(e) = valid_field_path(&rule.field_path, s)
    {
        errs.push(FieldError::invalid(
            &path.child("fieldPath"),
            rule.field_path.as_str(),
            format!("fieldPath must be a valid path: {e}"),
        ));
    }
    errs
}

/// apiextensions' `cel.ValidFieldPath`: a path of `.name` and `['name']` steps, each naming a
/// property (or, in a map, any key) of the schema.
fn valid_field_path(path: &str, s: &Schema) -> Result<(), String> {
    let tokens = field_path_tokens(path);
    let mut it = tokens.iter();
    let mut cur = s;
    let unexpected_end = || "unexpected end of JSON path".to_string();
    let step = |cur: &Schema, name: &str| -> Result<Schema, String> {
        if !cur.properties.is_empty() {
            cur.properties
                .get(name)
                .map(|p| Schema::clone(p))
                .ok_or_else(|| "does not refer to a valid field".to_string())
        } else if let Some(ap) = &cur.additional_properties {
            Ok((**ap).clone())
        } else {
            Err("does not refer to a valid field".to_string())
        }
    };
    let mut owned;
    while let Some(tok) = it.next() {
        match tok.as_str() {
            "[" => {
                let q = it.next().ok_or_else(unexpected_end)?;
                if q.len() < 2 || !q.starts_with('\'') || !q.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {q}"));
                }
                let name = q[1..q.len() - 1].replace("\\'", "'");
                owned = step(cur, &name)?;
                cur = &owned;
                let close = it.next().ok_or_else(unexpected_end)?;
                if close != "]" {
                    return Err(format!("expected ] but got {close}"));
                }
            }
            "." => {
                let name = it.next().ok_or_else(unexpected_end)?;
                owned = step(cur, name)?;
                cur = &owned;
            }
            other => return Err(format!("expected [ or . but got: {other}")),
        }
    }
    Ok(())
}

/// The scanner of `ValidFieldPath`: `.`, `[` and `]` alone, single-quoted strings whole (up to
/// an unescaped quote), everything else up to the next delimiter.
fn field_path_tokens(path: &str) -> Vec<String> {
    let b = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let len = if rest[0] == b'\'' {
            (1..rest.len())
                .find(|&j| rest[j] == b'\'' && rest[j - 1] != b'\\')
                .map_or(rest.len(), |j| j + 1)
        } else if matches!(rest[0], b'.' | b'[' | b']') {
            1
        } else {
            rest.iter()
                .position(|c| matches!(c, b'.' | b'[' | b']'))
                .unwrap_or(rest.len())
        };
        out.push(String::from_utf8_lossy(&rest[..len]).into_owned());
        i += len;
    }
    out
}

/// CEL validation of `example` and `enum` entries of every node that has rules.
fn cel_examples(s: &Schema, raw: &Value, path: &Path, out: &mut Vec<FieldError>) {
    let budget = super::cel::RUNTIME_CEL_COST_BUDGET;
    if s.validations.as_ref().is_some_and(|r| !r.is_empty()) {
        if let Some(example) = &s.example {
            out.extend(cel::validate(
                raw,
                example,
                None,
                &path.child("example"),
                budget,
            ));
        }
        for (i, e) in s.enum_.iter().enumerate() {
            out.extend(cel::validate(
                raw,
                e,
                None,
                &path.child("enum").index(i),
                budget,
            ));
        }
    }
    let sub = |key: &str| raw.get(key).unwrap_or(&Value::Null);
    if let Some(ap) = &s.additional_properties {
        cel_examples(
            ap,
            sub("additionalProperties"),
            &path.child("additionalProperties"),
            out,
        );
    }
    for (k, p) in &s.properties {
        let r = raw
            .get("properties")
            .and_then(|m| m.get(k))
            .unwrap_or(&Value::Null);
        cel_examples(p, r, &path.child("properties").key(k), out);
    }
    if let Some(items) = &s.items {
        cel_examples(items, sub("items"), &path.child("items"), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root() -> Path {
        Path::new("spec")
            .child("variables")
            .key("variableA")
            .child("schema")
            .child("openAPIV3Schema")
    }

    fn structural(v: Value) -> Vec<String> {
        let s = Schema::parse(&v, &root()).unwrap_or_else(|e| panic!("{e:?}"));
        validate_structural(&s, &root())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn schema_errs(v: Value) -> Vec<String> {
        let s = Schema::parse(&v, &root()).unwrap_or_else(|e| panic!("{e:?}"));
        validate_schema(&s, &v, &root(), None)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    const P: &str = "spec.variables[variableA].schema.openAPIV3Schema";

    #[test]
    fn types_are_required_below_the_root() {
        assert_eq!(
            structural(json!({})),
            vec![format!(
                "{P}.type: Required value: must not be empty for specified object fields"
            )]
        );
        assert!(structural(json!({"x-kubernetes-int-or-string": true})).is_empty());
        assert!(structural(json!({"x-kubernetes-preserve-unknown-fields": true})).is_empty());
        assert_eq!(
            structural(json!({"type": "array", "items": {}})),
            vec![format!(
                "{P}.items.type: Required value: must not be empty for specified array items"
            )]
        );
        assert_eq!(
            structural(json!({"type": "array"})),
            vec![format!("{P}.items: Required value: must be specified")]
        );
        assert_eq!(
            structural(
                json!({"type": "object", "properties": {"a": {"type": "object", "additionalProperties": {}}}})
            ),
            vec![format!(
                "{P}.properties[a].additionalProperties.type: Required value: must not be empty for specified object fields"
            )]
        );
    }

    #[test]
    fn junctor_restrictions() {
        let rule = json!([{"rule": "should be forbidden"}]);
        assert_eq!(
            structural(
                json!({"type": "number", "not": {"x-kubernetes-validations": rule},
                "anyOf": [{"x-kubernetes-validations": rule}], "allOf": [{"x-kubernetes-validations": rule}],
                "oneOf": [{"x-kubernetes-validations": rule}]})
            ),
            vec![
                format!(
                    "{P}.allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"
                ),
                format!(
                    "{P}.anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"
                ),
                format!(
                    "{P}.not.x-kubernetes-validations: Forbidden: must be empty to be structural"
                ),
                format!(
                    "{P}.oneOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"
                ),
            ]
        );
        assert_eq!(
            structural(
                json!({"type": "number", "not": {"default": 42.0}, "anyOf": [{"default": 42.0}]})
            ),
            vec![
                format!("{P}.anyOf[0].default: Forbidden: must be undefined to be structural"),
                format!("{P}.not.default: Forbidden: must be undefined to be structural"),
            ]
        );
        assert_eq!(
            structural(
                json!({"type": "number", "allOf": [{"properties": {"testField": {"type": "number"}}}]})
            ),
            vec![format!(
                "{P}.allOf[0].properties[testField].type: Forbidden: must be empty to be structural"
            )]
        );
        assert_eq!(
            structural(
                json!({"type": "object", "anyOf": [{"additionalProperties": {}, "x-kubernetes-int-or-string": true,
                "x-kubernetes-preserve-unknown-fields": true, "properties": {"metadata": {}}}]})
            ),
            vec![
                format!(
                    "{P}.anyOf[0].additionalProperties: Forbidden: must be undefined to be structural"
                ),
                format!(
                    "{P}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context"
                ),
                format!(
                    "{P}.anyOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural"
                ),
                format!(
                    "{P}.anyOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural"
                ),
            ]
        );
        // Completeness never fires for a variable (the structural root is the wrapper).
        assert!(
            structural(json!({"type": "object", "allOf": [{"properties": {"x": {}}}]})).is_empty()
        );
    }

    #[test]
    fn int_or_string_patterns() {
        let errs = structural(json!({"type": "object", "properties": {
            "anyOfExampleField": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
            "allOfExampleFieldWithAnyOf": {"x-kubernetes-int-or-string": true,
                "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]},
            "allOfExampleField": {"allOf": [{"type": "integer"}, {"type": "string"}]},
            "oneOfExampleField": {"oneOf": [{"type": "integer"}, {"type": "string"}]}
        }}));
        assert_eq!(
            errs,
            vec![
                format!(
                    "{P}.properties[allOfExampleField].allOf[0].type: Forbidden: must be empty to be structural"
                ),
                format!(
                    "{P}.properties[allOfExampleField].allOf[1].type: Forbidden: must be empty to be structural"
                ),
                format!(
                    "{P}.properties[allOfExampleField].type: Required value: must not be empty for specified object fields"
                ),
                format!(
                    "{P}.properties[oneOfExampleField].oneOf[0].type: Forbidden: must be empty to be structural"
                ),
                format!(
                    "{P}.properties[oneOfExampleField].oneOf[1].type: Forbidden: must be empty to be structural"
                ),
                format!(
                    "{P}.properties[oneOfExampleField].type: Required value: must not be empty for specified object fields"
                ),
            ]
        );
        // Anything besides the type breaks the pattern.
        assert_eq!(
            structural(json!({"x-kubernetes-int-or-string": true,
                "anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]})),
            vec![
                format!("{P}.anyOf[0].type: Forbidden: must be empty to be structural"),
                format!("{P}.anyOf[1].type: Forbidden: must be empty to be structural"),
            ]
        );
    }

    #[test]
    fn patterns_and_extensions() {
        assert_eq!(
            structural(json!({"type": "string", "pattern": "("})),
            vec![format!(
                "{P}.pattern: Invalid value: \"(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`"
            )]
        );
        assert_eq!(
            structural(
                json!({"x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true})
            ),
            vec![format!(
                "{P}.x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"
            )]
        );
    }

    #[test]
    fn validate_schema_rules() {
        assert_eq!(
            schema_errs(json!({"type": "foo"})),
            vec![format!(
                "{P}.type: Unsupported value: \"foo\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""
            )]
        );
        assert_eq!(
            schema_errs(
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}})
            ),
            vec![format!(
                "{P}: Forbidden: additionalProperties and properties are mutually exclusive"
            )]
        );
        assert_eq!(
            schema_errs(json!({"type": "integer", "example": "x", "enum": [1, "y"]})),
            vec![
                format!(
                    "{P}.example: Invalid value: \"string\":  in body must be of type integer: \"string\""
                ),
                format!("{P}.example: Unsupported value: \"x\": supported values: \"1\", \"y\""),
                format!(
                    "{P}.enum[1]: Invalid value: \"string\":  in body must be of type integer: \"string\""
                ),
            ]
        );
        assert_eq!(
            schema_errs(json!({"type": "string", "x-kubernetes-validations": [
                {"rule": " "}, {"rule": "a", "message": " "}, {"rule": "a", "message": "a\nb"},
                {"rule": "a\n&& b"}, {"rule": "a", "messageExpression": " ", "reason": "Bad"},
                {"rule": "a", "fieldPath": " "}, {"rule": "a", "fieldPath": ".x"}]})),
            vec![
                format!(
                    "{P}.x-kubernetes-validations[0].rule: Required value: rule is not specified"
                ),
                format!(
                    "{P}.x-kubernetes-validations[1].message: Invalid value: \" \": message must be non-empty if specified"
                ),
                format!(
                    "{P}.x-kubernetes-validations[2].message: Invalid value: \"a\\nb\": message must not contain line breaks"
                ),
                format!(
                    "{P}.x-kubernetes-validations[3].message: Required value: message must be specified if rule contains line breaks"
                ),
                format!(
                    "{P}.x-kubernetes-validations[4].messageExpression: Required value: messageExpression must be non-empty if specified"
                ),
                format!(
                    "{P}.x-kubernetes-validations[4].reason: Unsupported value: \"Bad\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
                ),
                format!(
                    "{P}.x-kubernetes-validations[5].fieldPath: Invalid value: \" \": fieldPath must be non-empty if specified"
                ),
                format!(
                    "{P}.x-kubernetes-validations[5].fieldPath: Invalid value: \" \": fieldPath must be a valid path: expected [ or . but got:  "
                ),
                format!(
                    "{P}.x-kubernetes-validations[6].fieldPath: Invalid value: \".x\": fieldPath must be a valid path: does not refer to a valid field"
                ),
            ]
        );
        assert!(schema_errs(json!({"type": "object", "properties": {"x": {"type": "array", "items": {"type": "string"}}},
            "x-kubernetes-validations": [{"rule": "true", "fieldPath": ".x"}, {"rule": "true", "fieldPath": "['x']"}]})).is_empty());
        assert_eq!(
            valid_field_path(
                ".x[0]",
                &Schema::parse(&json!({"properties": {"x": {"type": "array"}}}), &root())
                    .unwrap_or_default()
            ),
            Err("expected single quoted string but got 0".to_string())
        );
    }
}
