/*!
The CEL type of a schema node, as the API server declares `self` for a rule (`SchemaDeclType`).

A [`Decl`] is what the checker types `self` with and what the cost estimator sizes it by: the
kind (integer → `int`, number → `double`, object with properties → an object type whose field
names are CEL-escaped, additionalProperties → `map(string, V)`, `x-kubernetes-int-or-string` →
`dyn`, string formats `byte`/`duration`/`date`/`date-time` → `bytes`/`duration`/`timestamp`) and,
for strings, bytes, lists and maps, the largest size a request can hold: the schema's
`maxLength` (times 4: bytes per rune), `maxItems` or `maxProperties`, else what fits in a 3 MiB
request given the element's smallest serialized size.

A CRD schema ([`decl_of_crd`]) types the root of the resource, and every node with
`x-kubernetes-embedded-resource`, as the API server's `WithTypeAndObjectMeta` does: `apiVersion`
and `kind` strings and a `metadata` object with only `name` and `generateName` are declared
whatever the schema says. A variable schema knows no embedded resources ([`decl_of`]).
*/

use std::collections::BTreeMap;

use serde_json::Value;

/// The largest request the API server accepts (`DefaultMaxRequestSizeBytes`).
pub(crate) const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;

/// What a node holds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// Anything (`x-kubernetes-int-or-string`).
    Dyn,
    Bool,
    Int,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    /// `list(T)`.
    List(Box<Decl>),
    /// `map(string, T)` (additionalProperties).
    Map(Box<Decl>),
    /// An object with named (escaped) fields.
    Object(BTreeMap<String, Decl>),
}

/// The declared CEL type of a schema node, with its size bounds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decl {
    pub kind: Kind,
    /// Most elements (runes × 4 for strings, items, properties) a value can have.
    pub max_elements: u64,
    /// Smallest JSON serialization of a value, in bytes.
    pub min_size: i64,
}

impl Decl {
    fn simple(kind: Kind, min_size: i64) -> Decl {
        Decl {
            kind,
            max_elements: 0,
            min_size,
        }
    }

    /// The element type of a list or the value type of a map.
    pub(crate) fn elem(&self) -> Option<&Decl> {
        match &self.kind {
            Kind::List(e) | Kind::Map(e) => Some(e),
            _ => None,
        }
    }
}

fn int_field(s: &Value, name: &str) -> Option<i64> {
    s.get(name).and_then(Value::as_i64)
}

fn zero_if_negative(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// The schema's `type`.
pub(crate) fn schema_type(s: &Value) -> &str {
    s.get("type").and_then(Value::as_str).unwrap_or("")
}

fn is_int_or_string(s: &Value) -> bool {
    s.get("x-kubernetes-int-or-string").and_then(Value::as_bool) == Some(true)
}

fn max_string_per_request(s: &Value) -> u64 {
    if is_int_or_string(s) {
        return zero_if_negative(MAX_REQUEST_SIZE_BYTES - 2);
    }
    match s.get("format").and_then(Value::as_str).unwrap_or("") {
        "duration" | "date-time" => 32,
        "date" => 12,
        _ => zero_if_negative(MAX_REQUEST_SIZE_BYTES - 2),
    }
}

/// The schema of `additionalProperties`, when it is a schema (not a bool).
pub(crate) fn additional_properties(s: &Value) -> Option<&Value> {
    s.get("additionalProperties").filter(|a| a.is_object())
}

/// The declared type of schema `s`, or `None` where Kubernetes has none (no `type`, an array
/// without `items`): rules there cannot be compiled.
pub(crate) fn decl_of(s: &Value) -> Option<Decl> {
    decl_in(s, false, false)
}

/// The declared type of a CRD schema node `s`; `resource_root` for the root of the resource
/// (`SchemaDeclType(s, isResourceRoot)`).
pub(crate) fn decl_of_crd(s: &Value, resource_root: bool) -> Option<Decl> {
    decl_in(s, true, resource_root)
}

/// `apiVersion`, `kind` and `metadata` (name and generateName) as a resource root declares them.
fn add_type_and_object_meta(fields: &mut BTreeMap<String, Decl>) {
    let string = || decl_of(&serde_json::json!({"type": "string"}));
    let meta = serde_json::json!({"type": "object", "properties": {
        "name": {"type": "string"}, "generateName": {"type": "string"}}});
    for (name, d) in [
        ("apiVersion", string()),
        ("kind", string()),
        ("metadata", decl_of(&meta)),
    ] {
        if let Some(d) = d {
            fields.insert(name.to_string(), d);
        }
    }
}

fn embedded(s: &Value) -> bool {
    s.get("x-kubernetes-embedded-resource")
        .and_then(Value::as_bool)
        == Some(true)
}

/// `decl_of` for either dialect: `crd` enables embedded resources, `root` marks a resource root.
fn decl_in(s: &Value, crd: bool, root: bool) -> Option<Decl> {
    let child = |c: &Value| decl_in(c, crd, crd && embedded(c));
    if is_int_or_string(s) {
        let mut d = Decl::simple(Kind::Dyn, 1);
        d.max_elements = match int_field(s, "maxLength") {
            Some(n) => zero_if_negative(n).saturating_mul(4),
            None => max_string_per_request(s),
        };
        return Some(d);
    }
    match schema_type(s) {
        "array" => {
            let items = s.get("items").filter(|i| i.is_object())?;
            let elem = child(items)?;
            let max = match int_field(s, "maxItems") {
                Some(n) => zero_if_negative(n),
                None => zero_if_negative((MAX_REQUEST_SIZE_BYTES - 2) / (elem.min_size + 1)),
            };
            Some(Decl {
                kind: Kind::List(Box::new(elem)),
                max_elements: max,
                min_size: 2,
            })
        }
        "object" => {
            if let Some(ap) = additional_properties(s) {
                let elem = child(ap)?;
                let max = match int_field(s, "maxProperties") {
                    Some(n) => zero_if_negative(n),
                    None => zero_if_negative((MAX_REQUEST_SIZE_BYTES - 2) / (elem.min_size + 6)),
                };
                return Some(Decl {
                    kind: Kind::Map(Box::new(elem)),
                    max_elements: max,
                    min_size: 2,
                });
            }
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut fields = BTreeMap::new();
            let mut min_size = 2i64;
            if let Some(props) = s.get("properties").and_then(Value::as_object) {
                for (name, prop) in props {
                    let Some(d) = child(prop) else { continue };
                    if required.contains(&name.as_str()) && prop.get("default").is_none() {
                        min_size = min_size.saturating_add(name.len() as i64 + d.min_size + 4);
                    }
                    if let Some(escaped) = escape(name) {
                        if let Some(plain) = keyword_field(name) {
                            fields.insert(plain.to_string(), d.clone());
                        }
                        fields.insert(escaped, d);
                    }
                }
            }
            if root {
                add_type_and_object_meta(&mut fields);
            }
            Some(Decl::simple(Kind::Object(fields), min_size))
        }
        "string" => {
            let format = s.get("format").and_then(Value::as_str).unwrap_or("");
            let (kind, min) = match format {
                "byte" => (Kind::Bytes, 2),
                "duration" => (Kind::Duration, 3),
                "date" => (Kind::Timestamp, 12),
                "date-time" => (Kind::Timestamp, 22),
                _ => (Kind::String, 2),
            };
            let max = match (&kind, int_field(s, "maxLength")) {
                (Kind::Bytes, Some(n)) => zero_if_negative(n),
                (Kind::String, Some(n)) => zero_if_negative(n).saturating_mul(4),
                (Kind::String, None) => match s.get("enum").and_then(Value::as_array) {
                    Some(e) if !e.is_empty() => e
                        .iter()
                        .filter_map(Value::as_str)
                        .map(|v| v.len() as u64)
                        .max()
                        .unwrap_or(0),
                    _ => max_string_per_request(s),
                },
                _ => max_string_per_request(s),
            };
            Some(Decl {
                kind,
                max_elements: max,
                min_size: min,
            })
        }
        "boolean" => Some(Decl::simple(Kind::Bool, 4)),
        "number" => Some(Decl::simple(Kind::Double, 1)),
        "integer" => Some(Decl::simple(Kind::Int, 1)),
        _ => None,
    }
}

/// CEL keywords a property may not be named as is (`__if__`).
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The reserved words the CEL grammar reads as identifiers: since Kubernetes 1.32 (cel-go's
/// `RecognizeKeywordAsFieldName`), a property named so is selected as is too (`self.import`),
/// beside its escaped name (`self.__import__`). `true`, `false`, `null` and `in` are tokens of
/// their own and can only be written escaped.
pub(crate) fn keyword_field(name: &str) -> Option<&str> {
    (RESERVED.contains(&name) && !matches!(name, "true" | "false" | "null" | "in")).then_some(name)
}

/// A property name as CEL sees it (`a-b` → `a__dash__b`), or `None` when it cannot be named
/// (such properties are left out of the object type).
pub(crate) fn escape(name: &str) -> Option<String> {
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut chars = name.chars();
    let first = chars.next()?;
    let ok_first = first.is_ascii_alphabetic() || matches!(first, '_' | '.' | '-' | '/');
    let ok_rest = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'));
    if !ok_first || !ok_rest {
        return None;
    }
    let mut out = String::with_capacity(name.len());
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'_' && bytes.get(i + 1) == Some(&b'_') {
            out.push_str("__underscores__");
            i += 2;
            continue;
        }
        match bytes[i] {
            b'.' => out.push_str("__dot__"),
            b'-' => out.push_str("__dash__"),
            b'/' => out.push_str("__slash__"),
            c => out.push(char::from(c)),
        }
        i += 1;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_like_the_apiserver() {
        assert_eq!(
            escape("a-b.c/d").as_deref(),
            Some("a__dash__b__dot__c__slash__d")
        );
        assert_eq!(escape("a__b").as_deref(), Some("a__underscores__b"));
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(escape("1a"), None);
        assert_eq!(escape("a b"), None);
        assert_eq!(escape(""), None);
    }

    #[test]
    fn sizes_follow_the_schema() {
        let d = decl_of(&json!({"type": "array", "items": {"type": "string"}})).unwrap();
        assert_eq!(d.max_elements, (3 * 1024 * 1024 - 2) / 3);
        assert_eq!(d.elem().unwrap().max_elements, 3 * 1024 * 1024 - 2);
        let d = decl_of(&json!({"type": "string", "maxLength": 10})).unwrap();
        assert_eq!(d.max_elements, 40);
        let d = decl_of(&json!({"type": "string", "enum": ["ab", "abcd"]})).unwrap();
        assert_eq!(d.max_elements, 4);
        let d = decl_of(&json!({"type": "object", "additionalProperties": {"type": "integer"}}))
            .unwrap();
        assert_eq!(d.max_elements, (3 * 1024 * 1024 - 2) / 7);
        let d = decl_of(&json!({"type": "object", "required": ["ab"],
            "properties": {"ab": {"type": "integer"}, "x-y": {"type": "boolean"}}}))
        .unwrap();
        assert_eq!(d.min_size, 2 + 2 + 1 + 4);
        match d.kind {
            Kind::Object(f) => {
                assert_eq!(f.keys().collect::<Vec<_>>(), ["ab", "x__dash__y"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(decl_of(&json!({"type": "array"})), None);
        assert_eq!(
            decl_of(&json!({"x-kubernetes-preserve-unknown-fields": true})),
            None
        );
        assert_eq!(
            decl_of(&json!({"x-kubernetes-int-or-string": true})).map(|d| d.kind),
            Some(Kind::Dyn)
        );
    }
}
