/*!
Kubernetes value helpers the admission rules read objects with: `{labels, annotations}` metadata
read from JSON and checked as `ObjectMeta.Validate` does (the checks themselves are
[`crate::k8s::validation`]'s), int-or-percent values (`intstr.GetScaledValueFromIntOrPercent`),
`strconv.Atoi` and `schema.ParseGroupVersion`.
*/

use std::collections::BTreeMap;

use serde_json::Value;

use crate::k8s::field::{FieldError, Path};
use crate::k8s::validation::{validate_annotations, validate_labels};

/// A `map[string]string` read from JSON; entries whose value is not a string are skipped (the
/// CRD schema rejects them before any webhook runs).
pub fn string_map(v: Option<&Value>) -> BTreeMap<&str, &str> {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k.as_str(), s)))
                .collect()
        })
        .unwrap_or_default()
}

/// `ObjectMeta.Validate` of a class or topology `metadata` (`{labels, annotations}`), at `path`.
pub fn validate_metadata(metadata: Option<&Value>, path: &Path) -> Vec<FieldError> {
    let mut errs = validate_labels(
        &string_map(metadata.and_then(|m| m.get("labels"))),
        &path.child("labels"),
    );
    errs.extend(validate_annotations(
        &string_map(metadata.and_then(|m| m.get("annotations"))),
        &path.child("annotations"),
    ));
    errs
}

/// An `intstr.IntOrString` read from JSON: a number or a string. `None` for absent, `null` or
/// any other JSON type (which the CRD schema rejects).
#[derive(Debug, Clone, PartialEq)]
pub enum IntOrString {
    /// `Type == Int`.
    Int(i64),
    /// `Type == String`.
    Str(String),
}

impl IntOrString {
    /// Read an int-or-string field.
    pub fn from_json(v: Option<&Value>) -> Option<IntOrString> {
        match v? {
            Value::Number(n) => n.as_i64().map(IntOrString::Int),
            Value::String(s) => Some(IntOrString::Str(s.clone())),
            _ => None,
        }
    }

    /// `IntOrString.String`.
    pub fn text(&self) -> String {
        match self {
            IntOrString::Int(i) => i.to_string(),
            IntOrString::Str(s) => s.clone(),
        }
    }

    /// The error of `GetScaledValueFromIntOrPercent`, if any.
    pub fn scaled_error(&self) -> Option<String> {
        let IntOrString::Str(s) = self else {
            return None;
        };
        let Some(digits) = s.strip_suffix('%') else {
            return Some(
                "invalid value for IntOrString: invalid type: string is not a percentage".into(),
            );
        };
        atoi(digits).err().map(|e| {
            format!(
                "invalid value for IntOrString: invalid value {}: {e}",
                crate::k8s::field::go_quote(s)
            )
        })
    }
}

/// `strconv.Atoi` with Go's error text (`strconv.Atoi: parsing "x": invalid syntax`).
pub fn atoi(s: &str) -> Result<i64, String> {
    let quoted = crate::k8s::field::go_quote(s);
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing {quoted}: invalid syntax"));
    }
    s.parse::<i64>()
        .map_err(|_| format!("strconv.Atoi: parsing {quoted}: value out of range"))
}

/// `schema.ParseGroupVersion`: `(group, version)`, or Go's error text.
pub fn parse_group_version(gv: &str) -> Result<(&str, &str), String> {
    if gv.is_empty() || gv == "/" {
        return Ok(("", ""));
    }
    match gv.matches('/').count() {
        0 => Ok(("", gv)),
        1 => Ok(gv.split_once('/').unwrap_or(("", gv))),
        _ => Err(format!("unexpected GroupVersion string: {gv}")),
    }
}

/// The group of an apiVersion as `schema.FromAPIVersionAndKind` sees it (empty when the
/// apiVersion does not parse).
pub fn group_of(api_version: &str) -> &str {
    parse_group_version(api_version).map_or("", |(g, _)| g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::ip::parse_cidr;
    use serde_json::json;

    #[test]
    fn metadata_errors_point_at_the_map() {
        let md =
            json!({"labels": {"foo": "$invalid-key", "bar/": "ok"}, "annotations": {"/x": "y"}});
        let errs: Vec<String> = validate_metadata(Some(&md), &Path::of(&["spec", "m"]))
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(errs.len(), 4, "{errs:?}");
        assert_eq!(
            errs[0],
            "spec.m.labels: Invalid value: \"bar/\": name part must be non-empty"
        );
        assert!(
            errs[1]
                .starts_with("spec.m.labels: Invalid value: \"bar/\": name part must consist of")
        );
        assert!(
            errs[2].starts_with(
                "spec.m.labels: Invalid value: \"$invalid-key\": a valid label must be"
            )
        );
        assert_eq!(
            errs[3],
            "spec.m.annotations: Invalid value: \"/x\": prefix part must be non-empty"
        );
    }

    #[test]
    fn int_or_percent() {
        assert_eq!(IntOrString::Int(3).scaled_error(), None);
        assert_eq!(IntOrString::Str("10%".into()).scaled_error(), None);
        assert_eq!(
            IntOrString::Str("10".into()).scaled_error().as_deref(),
            Some("invalid value for IntOrString: invalid type: string is not a percentage")
        );
        assert_eq!(
            IntOrString::Str("a%".into()).scaled_error().as_deref(),
            Some(
                "invalid value for IntOrString: invalid value \"a%\": strconv.Atoi: parsing \"a\": invalid syntax"
            )
        );
        assert_eq!(atoi("-3"), Ok(-3));
        assert_eq!(
            atoi("99999999999999999999"),
            Err("strconv.Atoi: parsing \"99999999999999999999\": value out of range".into())
        );
    }

    #[test]
    fn group_versions_and_cidrs() {
        assert_eq!(parse_group_version("v1"), Ok(("", "v1")));
        assert_eq!(parse_group_version("a/b"), Ok(("a", "b")));
        assert_eq!(parse_group_version("/"), Ok(("", "")));
        assert_eq!(
            parse_group_version("a/b/c"),
            Err("unexpected GroupVersion string: a/b/c".into())
        );
        assert!(parse_cidr("10.0.0.0/16").is_ok());
        assert!(parse_cidr("fd00::/108").is_ok());
        assert!(parse_cidr("::ffff:10.0.0.0/120").is_ok());
        assert_eq!(
            parse_cidr("10.0.0.0"),
            Err("invalid CIDR address: 10.0.0.0".into())
        );
        assert!(parse_cidr("10.0.0.0/33").is_err());
        assert!(parse_cidr("10.0.0.0/").is_err());
        assert!(parse_cidr("010.0.0.0/8").is_err());
        assert!(parse_cidr("10.0.0.0/+8").is_err());
        assert!(parse_cidr("10.0.0.0/000000008").is_ok());
    }
}
