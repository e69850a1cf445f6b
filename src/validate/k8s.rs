/*!
Kubernetes' own string and value checks, with apimachinery's exact messages: label keys
(qualified names), label values, DNS-1123 subdomains, label and annotation maps
(`metav1validation.ValidateLabels`, `apivalidation.ValidateAnnotations`), int-or-percent values
(`intstr.GetScaledValueFromIntOrPercent`), `strconv.Atoi`, `schema.ParseGroupVersion` and
`net.ParseCIDR`.

Go iterates label and annotation maps in random order; topoplan reports them in key order.
*/

use std::collections::BTreeMap;

use serde_json::Value;

use crate::schema::field::{FieldError, Path};

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
/// `TotalAnnotationSizeLimitB`: 256 KiB.
const ANNOTATIONS_SIZE_LIMIT: usize = 256 * 1024;

/// `MaxLenError`.
fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `RegexError`, with Go's `'a',  or 'b', ` spacing.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(e);
        s.push_str("', ");
    }
    s.push_str("regex used for validation is '");
    s.push_str(fmt);
    s.push_str("')");
    s
}

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`, non-empty.
fn is_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(first), Some(last)) = (b.first(), b.last()) else {
        return false;
    };
    first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?` joined by dots.
fn matches_dns1123_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            match (b.first(), b.last()) {
                (Some(f), Some(l)) => {
                    (f.is_ascii_lowercase() || f.is_ascii_digit())
                        && (l.is_ascii_lowercase() || l.is_ascii_digit())
                        && b.iter()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                }
                _ => false,
            }
        })
}

/// `IsDNS1123Subdomain`.
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(max_len_error(253));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsQualifiedName` / `IsLabelKey`.
pub fn qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let name = match value.split_once('/') {
        None => value,
        Some((_, rest)) if rest.contains('/') => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    LABEL_KEY_MSG,
                    LABEL_KEY_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            )];
        }
        Some((prefix, rest)) => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            rest
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !is_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue`.
pub fn label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !value.is_empty() && !is_label_key_name(value) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

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
    let mut errs = Vec::new();
    let labels_path = path.child("labels");
    for (k, v) in string_map(metadata.and_then(|m| m.get("labels"))) {
        for msg in qualified_name(k) {
            errs.push(FieldError::invalid(&labels_path, k, msg));
        }
        for msg in label_value(v) {
            errs.push(FieldError::invalid(&labels_path, v, msg));
        }
    }
    let annotations_path = path.child("annotations");
    let annotations = string_map(metadata.and_then(|m| m.get("annotations")));
    for k in annotations.keys() {
        for msg in qualified_name(&k.to_lowercase()) {
            errs.push(FieldError::invalid(&annotations_path, *k, msg));
        }
    }
    let size: usize = annotations.iter().map(|(k, v)| k.len() + v.len()).sum();
    if size > ANNOTATIONS_SIZE_LIMIT {
        errs.push(FieldError::too_long(
            &annotations_path,
            ANNOTATIONS_SIZE_LIMIT as i64,
        ));
    }
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
                crate::schema::field::go_quote(s)
            )
        })
    }
}

/// `strconv.Atoi` with Go's error text (`strconv.Atoi: parsing "x": invalid syntax`).
pub fn atoi(s: &str) -> Result<i64, String> {
    let quoted = crate::schema::field::go_quote(s);
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

/// `net.ParseCIDR`: `Err` carries Go's text, `invalid CIDR address: <s>`.
pub fn parse_cidr(s: &str) -> Result<(), String> {
    let err = || Err(format!("invalid CIDR address: {s}"));
    let Some((addr, mask)) = s.split_once('/') else {
        return err();
    };
    let bits = if addr.parse::<std::net::Ipv4Addr>().is_ok() {
        32
    } else if addr.parse::<std::net::Ipv6Addr>().is_ok() {
        128
    } else {
        return err();
    };
    // Go's dtoi: decimal digits only, at least one, giving up at 0xFFFFFF.
    if mask.is_empty() || !mask.bytes().all(|b| b.is_ascii_digit()) {
        return err();
    }
    let mut n: u32 = 0;
    for b in mask.bytes() {
        n = n * 10 + u32::from(b - b'0');
        if n >= 0x00FF_FFFF {
            return err();
        }
    }
    if n <= bits { Ok(()) } else { err() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn qualified_names() {
        assert!(qualified_name("example.com/MyName").is_empty());
        assert!(qualified_name("a").is_empty());
        assert_eq!(
            qualified_name("/a"),
            vec!["prefix part must be non-empty".to_string()]
        );
        assert_eq!(
            qualified_name("-a"),
            vec!["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".to_string()]
        );
        assert_eq!(
            qualified_name("Ex.com/a"),
            vec!["prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_string()]
        );
        assert_eq!(qualified_name("a/b/c").len(), 1);
        assert!(qualified_name("a/b/c")[0].starts_with("a valid label key must consist"));
        assert_eq!(
            qualified_name(&"a".repeat(64)),
            vec!["name part must be no more than 63 characters".to_string()]
        );
    }

    #[test]
    fn label_values_and_dns() {
        assert!(label_value("").is_empty());
        assert!(label_value("my_value").is_empty());
        assert_eq!(label_value("a b").len(), 1);
        assert_eq!(label_value(&"a".repeat(64)), vec![max_len_error(63)]);
        assert!(dns1123_subdomain("cluster-abcde").is_empty());
        assert_eq!(dns1123_subdomain("Cluster").len(), 1);
        assert_eq!(dns1123_subdomain("a..b").len(), 1);
    }

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
