/*!
Readers of the JSON the admission rules look at: a value at a path, a string, list or bool
with Go's zero value when absent, a template reference, whether a health check is defined, and
a worker list's class names.
*/

use serde_json::Value;

/// The value at `path` (object keys only), if every step is an object with that key.
pub(crate) fn get<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter()
        .try_fold(v, |cur, key| cur.as_object().and_then(|m| m.get(*key)))
        .filter(|v| !v.is_null())
}

/// The string at `path`, or `""` (Go's zero value) when absent or not a string.
pub(crate) fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    get(v, path).and_then(Value::as_str).unwrap_or("")
}

/// The list at `path`, or empty.
pub(crate) fn list_at<'a>(v: &'a Value, path: &[&str]) -> &'a [Value] {
    get(v, path)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The bool at `path`, if set.
pub(crate) fn bool_at(v: &Value, path: &[&str]) -> Option<bool> {
    get(v, path).and_then(Value::as_bool)
}

/// A `ClusterClassTemplateReference`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TemplateRef<'a> {
    pub kind: &'a str,
    pub name: &'a str,
    pub api_version: &'a str,
}

impl<'a> TemplateRef<'a> {
    /// The reference at `path` (the `templateRef` object itself).
    pub fn at(v: &'a Value, path: &[&str]) -> TemplateRef<'a> {
        let r = get(v, path).unwrap_or(&Value::Null);
        TemplateRef {
            kind: str_at(r, &["kind"]),
            name: str_at(r, &["name"]),
            api_version: str_at(r, &["apiVersion"]),
        }
    }

    /// `IsDefined`.
    pub fn is_defined(&self) -> bool {
        !(self.kind.is_empty() && self.name.is_empty() && self.api_version.is_empty())
    }
}

/// Whether a health check (`{checks, remediation, …}`) is defined: `checks` or `remediation`
/// is not Go's zero value.
pub(crate) fn health_check_defined(hc: Option<&Value>) -> bool {
    hc.is_some_and(|hc| {
        ["checks", "remediation"]
            .iter()
            .any(|k| get(hc, &[k]).is_some_and(|v| !crate::api::is_zero(v)))
    })
}

/// The `class` of each entry of a worker list.
pub(crate) fn classes(list: &[Value]) -> impl Iterator<Item = &str> {
    list.iter().map(|e| str_at(e, &["class"]))
}
