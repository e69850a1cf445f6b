/*!
Kubernetes apimachinery's string validation (k8s.io/apimachinery v0.36), with its exact messages:
label keys (`IsQualifiedName` = `content.IsLabelKey`), label values (`content.IsLabelValue`),
DNS-1123 subdomains (`validation.IsDNS1123Subdomain`), their `RegexError` / `MaxLenError` texts,
and label and annotation maps (`metav1validation.ValidateLabels`,
`apivalidation.ValidateAnnotations`: key syntax, lower-cased annotation keys, the 256 KiB total
size).

Two `MaxLenError`s exist upstream and both are kept: since v0.35 label keys and values (and the
DNS prefix of a label key) go through `content`, whose text says "bytes"; the older
`validation.IsDNS1123Subdomain` still says "characters".

The patterns are matched by hand (they are simple character classes); the tests check them
against the regular expressions they stand for. Go visits map entries in random order; here keys
are visited sorted.
*/

use std::collections::BTreeMap;

use crate::k8s::field::{FieldError, Path};

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_EXAMPLES: &[&str] = &["MyName", "my.name", "123-abc"];
/// `labelValueFmt`: `(` + `labelKeyFmt` + `)?`.
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
/// `labelKeyMaxLength` and `LabelValueMaxLength`.
const LABEL_MAX_LEN: usize = 63;
/// `DNS1123SubdomainMaxLength`.
const DNS1123_SUBDOMAIN_MAX_LEN: usize = 253;
/// `TotalAnnotationSizeLimitB`: 256 KiB.
const ANNOTATIONS_SIZE_LIMIT: i64 = 256 * 1024;

/// `validation.MaxLenError` (pkg/util/validation).
fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `content.MaxLenError` (pkg/api/validate/content).
fn content_max_len_error(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

/// `RegexError`, with Go's `'a',  or 'b', ` spacing.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
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

/// `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`.
fn matches_label_key(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(first), Some(last)) = (b.first(), b.last()) else {
        return false;
    };
    first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`.
fn matches_dns1123_subdomain(s: &str) -> bool {
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !s.is_empty()
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            match (b.first(), b.last()) {
                (Some(f), Some(l)) => {
                    alnum(f) && alnum(l) && b.iter().all(|c| alnum(c) || *c == b'-')
                }
                _ => false,
            }
        })
}

/// `IsDNS1123Subdomain` with the given package's `MaxLenError`.
fn subdomain_errors(value: &str, max_len_error: fn(usize) -> String) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LEN {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LEN));
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

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
/// `DNS1123LabelMaxLength`.
const DNS1123_LABEL_MAX_LEN: usize = 63;

/// `validation.IsDNS1123Label` (pkg/util/validation): what a namespace name must be.
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LEN {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LEN));
    }
    let subdomain = matches_dns1123_subdomain(value);
    if !subdomain || value.contains('.') {
        if subdomain {
            // A valid subdomain but not a label: with the length checked, it must be dots.
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/// `validation.IsDNS1035Label` (pkg/util/validation): what an embedded resource's lower-cased
/// kind must be.
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LEN {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LEN));
    }
    let b = value.as_bytes();
    let ok = match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_lowercase()
                && (l.is_ascii_lowercase() || l.is_ascii_digit())
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        }
        _ => false,
    };
    if !ok {
        errs.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `path.IsValidPathSegmentPrefix`: what a `generateName` checked as a path segment must be.
pub fn path_segment_prefix(name: &str) -> Vec<String> {
    ["/", "%"]
        .iter()
        .filter(|s| name.contains(*s))
        .map(|s| format!("may not contain '{s}'"))
        .collect()
}

/// `path.IsValidPathSegmentName` (apimachinery's api/validation/path): the name rule of kinds
/// whose names are only URL path segments (RBAC's, e.g. `system:controller:x`).
pub fn path_segment_name(name: &str) -> Vec<String> {
    if name == "." || name == ".." {
        return vec![format!("may not be '{name}'")];
    }
    ["/", "%"]
        .iter()
        .filter(|s| name.contains(*s))
        .map(|s| format!("may not contain '{s}'"))
        .collect()
}

/// The name and namespace checks of `ValidateObjectMetaAccessor` as the API server runs them
/// for every object before any webhook: the name a DNS-1123 subdomain (`NameIsDNSSubdomain`,
/// the rule of custom resources and of most built-in kinds; RBAC names are path segments), the
/// namespace, when set, a DNS-1123 label (`ValidateNamespaceName`).
pub fn object_meta_names(group: &str, name: &str, namespace: Option<&str>) -> Vec<FieldError> {
    let meta = Path::new("metadata");
    let name_errs = if group == "rbac.authorization.k8s.io" {
        path_segment_name(name)
    } else {
        dns1123_subdomain(name)
    };
    let mut errs: Vec<FieldError> = name_errs
        .into_iter()
        .map(|m| FieldError::invalid(&meta.child("name"), name, m))
        .collect();
    if let Some(ns) = namespace {
        errs.extend(
            dns1123_label(ns)
                .into_iter()
                .map(|m| FieldError::invalid(&meta.child("namespace"), ns, m)),
        );
    }
    errs
}

/// `validation.IsDNS1123Subdomain` (pkg/util/validation).
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    subdomain_errors(value, max_len_error)
}

/// `IsQualifiedName` (`content.IsLabelKey`).
pub fn qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let name = match value.split_once('/') {
        None => value,
        Some((_, rest)) if rest.contains('/') => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, LABEL_KEY_EXAMPLES)
            )];
        }
        Some((prefix, rest)) => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    subdomain_errors(prefix, content_max_len_error)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            rest
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > LABEL_MAX_LEN {
        errs.push(format!(
            "name part {}",
            content_max_len_error(LABEL_MAX_LEN)
        ));
    }
    if !matches_label_key(name) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, LABEL_KEY_EXAMPLES)
        ));
    }
    errs
}

/// `IsValidLabelValue` (`content.IsLabelValue`).
pub fn label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_MAX_LEN {
        errs.push(content_max_len_error(LABEL_MAX_LEN));
    }
    if !value.is_empty() && !matches_label_key(value) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `ValidateLabels`: each key a qualified name, each value a label value.
pub fn validate_labels<K: AsRef<str>, V: AsRef<str>>(
    labels: &BTreeMap<K, V>,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (k, v) in labels {
        let (k, v) = (k.as_ref(), v.as_ref());
        for msg in qualified_name(k) {
            errs.push(FieldError::invalid(path, k, msg));
        }
        for msg in label_value(v) {
            errs.push(FieldError::invalid(path, v, msg));
        }
    }
    errs
}

/// `ValidateAnnotations`: each key, lower-cased, a qualified name; keys and values together at
/// most `TotalAnnotationSizeLimitB` bytes.
pub fn validate_annotations<K: AsRef<str>, V: AsRef<str>>(
    annotations: &BTreeMap<K, V>,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut size: i64 = 0;
    for (k, v) in annotations {
        let k = k.as_ref();
        for msg in qualified_name(&k.to_lowercase()) {
            errs.push(FieldError::invalid(path, k, msg));
        }
        size = size.saturating_add((k.len() + v.as_ref().len()) as i64);
    }
    if size > ANNOTATIONS_SIZE_LIMIT {
        errs.push(FieldError::too_long(path, ANNOTATIONS_SIZE_LIMIT));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns1123_labels_as_apimachinery() {
        assert!(dns1123_label("default").is_empty());
        assert_eq!(dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(
            dns1123_label("../../etc"),
            vec![
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert_eq!(
            dns1123_label(&"a".repeat(64)),
            vec!["must be no more than 63 characters"]
        );
        assert_eq!(dns1123_label("").len(), 1);
    }

    #[test]
    fn dns1035_labels_as_apimachinery() {
        assert!(dns1035_label("kubeadmcontrolplane").is_empty());
        assert_eq!(
            dns1035_label("1pod"),
            vec![
                "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert_eq!(
            path_segment_prefix("a/b%"),
            vec!["may not contain '/'", "may not contain '%'"]
        );
    }

    #[test]
    fn object_names_as_the_api_server_checks_them() {
        assert!(object_meta_names("cluster.x-k8s.io", "c-1.x", Some("ns")).is_empty());
        let errs = object_meta_names("", "DEV", Some("../../etc"));
        assert_eq!(
            crate::k8s::field::aggregate(&errs),
            "[metadata.name: Invalid value: \"DEV\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), metadata.namespace: Invalid value: \"../../etc\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]"
        );
        assert!(object_meta_names("rbac.authorization.k8s.io", "system:x", None).is_empty());
        assert_eq!(path_segment_name(".."), vec!["may not be '..'"]);
        assert_eq!(
            path_segment_name("a/%"),
            vec!["may not contain '/'", "may not contain '%'"]
        );
    }

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn hand_matchers_agree_with_the_patterns() {
        let re = |fmt: &str| regex::Regex::new(&format!("^(?:{fmt})$")).expect("pattern");
        let (key, value, dns) = (
            re(LABEL_KEY_FMT),
            re(LABEL_VALUE_FMT),
            re(DNS1123_SUBDOMAIN_FMT),
        );
        for s in [
            "",
            "a",
            "A",
            "-",
            "a-",
            "-a",
            "a.b",
            "a..b",
            ".a",
            "a.",
            "a_b",
            "A_b.C-9",
            "9",
            "a b",
            "é",
            "a/b",
            "ex-ample.com",
            "Example.com",
            "a.-b",
            "a-.b",
            "1.2.3",
            "a\n",
        ] {
            assert_eq!(matches_label_key(s), key.is_match(s), "key {s:?}");
            assert_eq!(
                s.is_empty() || matches_label_key(s),
                value.is_match(s),
                "value {s:?}"
            );
            assert_eq!(matches_dns1123_subdomain(s), dns.is_match(s), "dns {s:?}");
        }
    }

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
        // content.MaxLenError (apimachinery ≥ v0.35) says "bytes".
        assert_eq!(
            qualified_name(&"a".repeat(64)),
            vec!["name part must be no more than 63 bytes".to_string()]
        );
        assert_eq!(
            qualified_name(&format!("{}/a", "a".repeat(254)))[0],
            "prefix part must be no more than 253 bytes"
        );
    }

    #[test]
    fn label_values_and_dns() {
        assert!(label_value("").is_empty());
        assert!(label_value("my_value").is_empty());
        assert_eq!(label_value("a b").len(), 1);
        assert_eq!(
            label_value(&"a".repeat(64)),
            vec!["must be no more than 63 bytes".to_string()]
        );
        assert!(dns1123_subdomain("cluster-abcde").is_empty());
        assert_eq!(dns1123_subdomain("Cluster").len(), 1);
        assert_eq!(dns1123_subdomain("a..b").len(), 1);
        // validation.MaxLenError (pkg/util/validation) still says "characters".
        assert_eq!(
            dns1123_subdomain(&"a".repeat(254)),
            vec!["must be no more than 253 characters".to_string()]
        );
    }

    #[test]
    fn labels_and_annotations() {
        let p = Path::new("x").child("labels");
        let got: Vec<String> = validate_labels(
            &map(&[("good", "v"), ("-bad", "ok"), ("k", "bad value")]),
            &p,
        )
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            got,
            vec![
                "x.labels: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "x.labels: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            ]
        );
        assert_eq!(
            qualified_name("Example.com/x"),
            vec![format!(
                "prefix part {}",
                regex_error(
                    DNS1123_SUBDOMAIN_MSG,
                    DNS1123_SUBDOMAIN_FMT,
                    &["example.com"]
                )
            )]
        );
        assert_eq!(qualified_name("/x"), vec!["prefix part must be non-empty"]);
        assert_eq!(qualified_name("a/b/c").len(), 1);
        assert!(
            qualified_name(&format!("a/{}", "x".repeat(64)))[0]
                .starts_with("name part must be no more than 63 bytes")
        );
        let a = Path::new("x").child("annotations");
        // Annotation keys are checked lower-cased.
        assert!(validate_annotations(&map(&[("Example.com/Key", "v")]), &a).is_empty());
        let big = "v".repeat(262_144);
        assert_eq!(
            validate_annotations(&map(&[("k", &big)]), &a)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            vec!["x.annotations: Too long: may not be more than 262144 bytes"]
        );
        assert!(regex_error("m", "f", &[]).ends_with("(regex used for validation is 'f')"));
    }
}
