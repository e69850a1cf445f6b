/*!
Kubernetes label and annotation validation (`metav1validation.ValidateLabels`,
`apivalidation.ValidateAnnotations`, k8s.io/apimachinery v0.36), with apimachinery's exact
messages. Used for a variable's `deprecatedV1Beta1Metadata` and every `x-metadata`.

Go visits map entries in random order; here keys are visited sorted.
*/

use std::collections::BTreeMap;

use crate::gotemplate::sprig::regex;
use crate::schema::field::{FieldError, Path};

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
/// `TotalAnnotationSizeLimitB`.
const ANNOTATIONS_LIMIT: i64 = 256 * 1024;

fn matches(fmt: &str, s: &str) -> bool {
    regex::compile(&format!("^{fmt}$")).is_ok_and(|re| re.is_match(s))
}

fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

/// `RegexError`.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    let mut out = msg.to_string();
    if examples.is_empty() {
        return format!("{out} (regex used for validation is '{fmt}')");
    }
    out.push_str(" (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{fmt}')"));
    out
}

fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(max_len_error(253));
    }
    if !matches(DNS1123_SUBDOMAIN_FMT, s) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsQualifiedName` (`content.IsLabelKey`).
pub fn qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !matches(LABEL_KEY_FMT, name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_ERR,
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
    let fmt = format!("({LABEL_KEY_FMT})?");
    if !matches(&fmt, value) {
        errs.push(regex_error(
            LABEL_VALUE_ERR,
            &fmt,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `ValidateLabels`.
pub fn validate_labels(labels: &BTreeMap<String, String>, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (k, v) in labels {
        for m in qualified_name(k) {
            errs.push(FieldError::invalid(path, k.as_str(), m));
        }
        for m in label_value(v) {
            errs.push(FieldError::invalid(path, v.as_str(), m));
        }
    }
    errs
}

/// `ValidateAnnotations`.
pub fn validate_annotations(
    annotations: &BTreeMap<String, String>,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut size: i64 = 0;
    for (k, v) in annotations {
        for m in qualified_name(&k.to_lowercase()) {
            errs.push(FieldError::invalid(path, k.as_str(), m));
        }
        size += (k.len() + v.len()) as i64;
    }
    if size > ANNOTATIONS_LIMIT {
        errs.push(FieldError::too_long(path, ANNOTATIONS_LIMIT));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
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
                    DNS1123_SUBDOMAIN_ERR,
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
    }
}
