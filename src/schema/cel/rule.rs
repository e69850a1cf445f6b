/*!
One `x-kubernetes-validations` entry: reading it, Cluster API's static checks of its fields, and
resolving its `fieldPath` against the schema (`ValidFieldPath`).
*/

use serde_json::Value;

use crate::go::json as gojson;

use crate::k8s::field::{BadValue, FieldError, Path};

/// A validation rule as written in the schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Rule {
    pub rule: String,
    pub message: String,
    pub message_expression: String,
    /// `None` when absent or empty.
    pub reason: Option<String>,
    pub field_path: String,
    pub optional_old_self: bool,
}

fn str_field(v: &Value, k: &str) -> String {
    v.get(k).and_then(Value::as_str).unwrap_or("").to_string()
}

impl Rule {
    pub(crate) fn from_json(v: &Value) -> Rule {
        Rule {
            rule: str_field(v, "rule"),
            message: str_field(v, "message"),
            message_expression: str_field(v, "messageExpression"),
            reason: v
                .get("reason")
                .and_then(Value::as_str)
                .filter(|r| !r.is_empty())
                .map(str::to_string),
            field_path: str_field(v, "fieldPath"),
            optional_old_self: v.get("optionalOldSelf").and_then(Value::as_bool) == Some(true),
        }
    }

    /// The rule as a compile error shows it: the API server's internal
    /// `apiextensions.ValidationRule` (what Cluster API's `validateSchema` and apiextensions'
    /// `ValidateCustomResourceDefinitionOpenAPISchema` pass to `field.Invalid`), which
    /// `field.Error` writes with `json.Marshal`. That type has no JSON tags, so every field is
    /// written, under its Go name, in declaration order; `Reason` and `OptionalOldSelf` are
    /// pointers (`null` when unset). Cluster API's `convertToAPIExtensionsXValidations` sets
    /// `Reason` only when non-empty and never sets `OptionalOldSelf` (its `ValidationRule` has
    /// no such field), so a ClusterClass rule always shows `"OptionalOldSelf":null`.
    pub(crate) fn bad_value(&self) -> BadValue {
        let q = |s: &str| gojson::marshal(&Value::String(s.to_string()));
        let reason = self.reason.as_deref().map_or("null".to_string(), q);
        let old_self = if self.optional_old_self {
            "true"
        } else {
            "null"
        };
        BadValue::GoJson(format!(
            "{{\"Rule\":{},\"Message\":{},\"MessageExpression\":{},\"Reason\":{},\"FieldPath\":{},\"OptionalOldSelf\":{}}}",
            q(&self.rule),
            q(&self.message),
            q(&self.message_expression),
            reason,
            q(&self.field_path),
            old_self,
        ))
    }

    /// `ruleErrorString`: the trimmed message, else the trimmed rule.
    pub(crate) fn error_string(&self) -> &str {
        if self.message.is_empty() {
            self.rule.trim()
        } else {
            self.message.trim()
        }
    }

    /// `ruleMessageOrDefault`.
    pub(crate) fn message_or_default(&self) -> String {
        if self.message.is_empty() {
            format!("failed rule: {}", self.error_string())
        } else {
            self.message.trim().to_string()
        }
    }
}

/// The rules of schema node `s`.
pub(crate) fn rules_of(s: &Value) -> Vec<Rule> {
    s.get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(Rule::from_json).collect())
        .unwrap_or_default()
}

fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

const REASONS: &[&str] = &[
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// Cluster API's checks of rule `i`'s fields at `base` (`...x-kubernetes-validations`).
pub(crate) fn check_fields(r: &Rule, schema: &Value, at: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let trimmed_rule = r.rule.trim();
    let trimmed_msg = r.message.trim();
    if trimmed_rule.is_empty() {
        errs.push(FieldError::required(
            &at.child("rule"),
            "rule is not specified",
        ));
    } else if !r.message.is_empty() && trimmed_msg.is_empty() {
        errs.push(FieldError::invalid(
            &at.child("message"),
            r.message.as_str(),
            "message must be non-empty if specified",
        ));
    } else if r.message.len() > 2048 {
        let head: String = r.message.bytes().take(10).map(char::from).collect();
        errs.push(FieldError::invalid(
            &at.child("message"),
            format!("{head}..."),
            "message must have a maximum length of 2048 characters",
        ));
    } else if has_newlines(trimmed_msg) {
        errs.push(FieldError::invalid(
            &at.child("message"),
            r.message.as_str(),
            "message must not contain line breaks",
        ));
    } else if has_newlines(trimmed_rule) && trimmed_msg.is_empty() {
        errs.push(FieldError::required(
            &at.child("message"),
            "message must be specified if rule contains line breaks",
        ));
    }
    if !r.message_expression.is_empty() && r.message_expression.trim().is_empty() {
        errs.push(FieldError::required(
            &at.child("messageExpression"),
            "messageExpression must be non-empty if specified",
        ));
    }
    if let Some(reason) = &r.reason
        && !REASONS.contains(&reason.as_str())
    {
        errs.push(FieldError::not_supported(
            &at.child("reason"),
            reason.as_str(),
            REASONS,
        ));
    }
    if !r.field_path.is_empty() && r.field_path.trim().is_empty() {
        errs.push(FieldError::invalid(
            &at.child("fieldPath"),
            r.field_path.as_str(),
            "fieldPath must be non-empty if specified",
        ));
    }
    if has_newlines(&r.field_path) {
        errs.push(FieldError::invalid(
            &at.child("fieldPath"),
            r.field_path.as_str(),
            "fieldPath must not contain line breaks",
        ));
    }
    if !r.field_path.is_empty()
        && let Err(e) = valid_field_path(&r.field_path, schema)
    {
        errs.push(FieldError::invalid(
            &at.child("fieldPath"),
            r.field_path.as_str(),
            format!("fieldPath must be a valid path: {e}"),
        ));
    }
    errs
}

/// Split a field path into `.`, `[`, `]` and the tokens between (a single-quoted token runs to
/// its closing quote).
fn tokens(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = path.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\'' {
            let mut j = i + 1;
            let mut end = None;
            while j < chars.len() {
                if chars[j] == '\'' && chars[j - 1] != '\\' {
                    end = Some(j);
                    break;
                }
                j += 1;
            }
            let stop = end.map_or(chars.len(), |e| e + 1);
            out.push(chars[i..stop].iter().collect());
            i = stop;
            continue;
        }
        if matches!(chars[i], '.' | '[' | ']') {
            out.push(chars[i].to_string());
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && !matches!(chars[j], '.' | '[' | ']') {
            j += 1;
        }
        out.push(chars[i..j].iter().collect());
        i = j;
    }
    out
}

fn unescape_single_quote(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(d) = it.next() else {
            out.push(c);
            break;
        };
        out.push(match d {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\'' => '\'',
            '\\' => '\\',
            other => return Err(format!("invalid escape char \\{other}")),
        });
    }
    Ok(out)
}

/// `ValidFieldPath`: the path a rule's `fieldPath` names, relative to the rule's node.
pub(crate) fn valid_field_path(path: &str, schema: &Value) -> Result<Path, String> {
    let toks = tokens(path);
    let mut it = toks.into_iter();
    let mut out = Path::root();
    let mut node = schema;
    let step = |node: &mut &Value, out: &mut Path, name: &str| -> Result<(), String> {
        let props = node.get("properties").and_then(Value::as_object);
        if let Some(props) = props {
            *out = out.child(name);
            *node = props.get(name).ok_or("does not refer to a valid field")?;
        } else if let Some(ap) = node.get("additionalProperties").filter(|a| a.is_object()) {
            *out = out.key(name);
            *node = ap;
        } else {
            return Err("does not refer to a valid field".into());
        }
        Ok(())
    };
    while let Some(tok) = it.next() {
        match tok.as_str() {
            "[" => {
                let tok = it.next().ok_or("unexpected end of JSON path")?;
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {tok}"));
                }
                let name = unescape_single_quote(&tok[1..tok.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                step(&mut node, &mut out, &name)?;
                let close = it.next().ok_or("unexpected end of JSON path")?;
                if close != "]" {
                    return Err(format!("expected ] but got {close}"));
                }
            }
            "." => {
                let name = it.next().ok_or("unexpected end of JSON path")?;
                step(&mut node, &mut out, &name)?;
            }
            other => return Err(format!("expected [ or . but got: {other}")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errs(rule: Value) -> Vec<String> {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let at = Path::new("s").child("x-kubernetes-validations").index(0);
        check_fields(&Rule::from_json(&rule), &schema, &at)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn rule_fields_are_checked_like_cluster_api() {
        assert_eq!(
            errs(json!({"rule": "  "})),
            ["s.x-kubernetes-validations[0].rule: Required value: rule is not specified"]
        );
        assert_eq!(
            errs(json!({"rule": "true", "message": " "})),
            [
                "s.x-kubernetes-validations[0].message: Invalid value: \" \": message must be non-empty if specified"
            ]
        );
        assert_eq!(
            errs(json!({"rule": "true", "message": "a\nb"})),
            [
                "s.x-kubernetes-validations[0].message: Invalid value: \"a\\nb\": message must not contain line breaks"
            ]
        );
        assert_eq!(
            errs(json!({"rule": "true &&\ntrue"})),
            [
                "s.x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks"
            ]
        );
        assert_eq!(
            errs(json!({"rule": "true", "message": "x".repeat(2049)})),
            [
                "s.x-kubernetes-validations[0].message: Invalid value: \"xxxxxxxxxx...\": message must have a maximum length of 2048 characters"
            ]
        );
        assert_eq!(
            errs(json!({"rule": "true", "messageExpression": " ", "reason": "Bad"})),
            [
                "s.x-kubernetes-validations[0].messageExpression: Required value: messageExpression must be non-empty if specified",
                "s.x-kubernetes-validations[0].reason: Unsupported value: \"Bad\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
            ]
        );
        assert_eq!(
            errs(json!({"rule": "true", "fieldPath": ".b"})),
            [
                "s.x-kubernetes-validations[0].fieldPath: Invalid value: \".b\": fieldPath must be a valid path: does not refer to a valid field"
            ]
        );
        assert!(errs(json!({"rule": "true", "fieldPath": ".a"})).is_empty());
    }

    #[test]
    fn field_paths_resolve_against_the_schema() {
        let s = json!({"type": "object", "properties": {
            "a": {"type": "object", "additionalProperties": {"type": "object",
                "properties": {"b.c": {"type": "string"}}}}}});
        assert_eq!(
            valid_field_path(".a['k'].b.c", &s).map(|p| p.to_string()),
            Err("does not refer to a valid field".into())
        );
        assert_eq!(
            valid_field_path(".a['k']['b.c']", &s).map(|p| p.to_string()),
            Ok("a[k].b.c".into())
        );
        assert_eq!(
            valid_field_path("a", &s).map(|p| p.to_string()),
            Err("expected [ or . but got: a".into())
        );
        assert_eq!(
            valid_field_path(".a[k]", &s).map(|p| p.to_string()),
            Err("expected single quoted string but got k".into())
        );
        assert_eq!(
            valid_field_path(".a['k'", &s).map(|p| p.to_string()),
            Err("unexpected end of JSON path".into())
        );
    }
}
