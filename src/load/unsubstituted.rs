/*!
clusterctl variables left in an input read without `--substitute`: a `${NAME}` (or `$${NAME}`,
envsubst's escape) in a string value means the file is a `cluster-template` meant for
`clusterctl generate cluster`, and planning it as written plans the literal text.

Owns finding them in one file's objects and the warning: one per file, at the first value that
holds one, counting the rest.
*/

use serde_json::Value;

use crate::diag::{Code, Diagnostic};
use crate::source::Origin;

/// How many variable names the warning lists before it only counts.
const SHOWN: usize = 5;

/// The first variable name in `s` written as `${NAME…`, if any.
fn variable_in(s: &str) -> Option<&str> {
    let mut rest = s;
    while let Some(i) = rest.find("${") {
        let after = &rest[i + 2..];
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..end];
        if name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return Some(name);
        }
        rest = after;
    }
    None
}

/// Finds clusterctl variables in one file's documents, then says so once.
#[derive(Debug, Default)]
pub struct Scan {
    first: Option<(Origin, String)>,
    names: Vec<String>,
    /// Names beyond the ones listed were seen.
    more_names: bool,
    values: usize,
}

impl Scan {
    /// Look through one document (`origin` says where it is).
    pub fn document(&mut self, value: &Value, origin: &Origin) {
        // Counted without building pointers (most documents hold none); the first one found
        // is then located with a second walk of that document only.
        let mut found = false;
        let mut stack: Vec<&Value> = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => {
                    if let Some(name) = variable_in(s) {
                        found = true;
                        self.values += 1;
                        if !self.names.iter().any(|n| n == name) {
                            if self.names.len() < SHOWN {
                                self.names.push(name.to_string());
                            } else {
                                self.more_names = true;
                            }
                        }
                    }
                }
                Value::Array(a) => stack.extend(a.iter().rev()),
                Value::Object(m) => stack.extend(m.values().rev()),
                _ => {}
            }
        }
        if found && self.first.is_none() {
            self.first = first_pointer(value).map(|p| (origin.clone(), p));
        }
    }

    /// The warning, when any value held a variable.
    pub fn warning(self) -> Option<Diagnostic> {
        let (origin, pointer) = self.first?;
        let listed: Vec<String> = self.names.iter().map(|n| format!("${{{n}}}")).collect();
        Some(
            Diagnostic::warning(Code::InputUnsubstituted, format!(
                "{}: {} value(s) hold clusterctl variables that were not substituted ({}{})",
                origin.file.name,
                self.values,
                listed.join(", "),
                if self.more_names { ", …" } else { "" }
            ))
            .at(&origin, &pointer, "not substituted")
            .with_help(
                "pass --substitute (with --env-file FILE) to replace them as `clusterctl generate cluster` does; values meant literally (a shell script) may ignore this",
            ),
        )
    }
}

/// The JSON pointer of the first string (depth first, in key order) holding a variable.
fn first_pointer(value: &Value) -> Option<String> {
    // An explicit stack: input depth is bounded by the loader, but this never recurses either way.
    let mut stack: Vec<(&Value, String)> = vec![(value, String::new())];
    while let Some((v, pointer)) = stack.pop() {
        match v {
            Value::String(s) if variable_in(s).is_some() => return Some(pointer),
            Value::Array(a) => {
                for (i, item) in a.iter().enumerate().rev() {
                    stack.push((item, format!("{pointer}/{i}")));
                }
            }
            Value::Object(m) => {
                for (k, item) in m.iter().rev() {
                    let key = k.replace('~', "~0").replace('/', "~1");
                    stack.push((item, format!("{pointer}/{key}")));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_after_dollar_brace() {
        assert_eq!(variable_in("${CLUSTER_NAME}-md"), Some("CLUSTER_NAME"));
        assert_eq!(variable_in("a $${version} b"), Some("version"));
        assert_eq!(
            variable_in("${SERVICE_CIDR:=10.0.0.0/8}"),
            Some("SERVICE_CIDR")
        );
        assert_eq!(variable_in("${1} ${} $HOME"), None);
        assert_eq!(variable_in("${ 9 } then ${_x}"), Some("_x"));
    }

    #[test]
    fn the_first_value_is_located() {
        let v = serde_json::json!({"a": {"b/c": ["x", "${Y}"]}, "z": "${W}"});
        assert_eq!(first_pointer(&v).as_deref(), Some("/a/b~1c/1"));
    }
}
