/*!
Go values as text/template and Sprig see them.

Cluster API feeds templates data decoded by `encoding/json` into `interface{}`, so inputs are
only nil, bool, float64, string, `[]interface{}` and `map[string]interface{}`. Functions produce
more Go types (`int` from `len`, `int64` from Sprig math, `[]string` from `splitList`,
`*semver.Version` from `semver`, …), and the type matters: `%T`, `printf "%d"`, `eq` and
argument conversion all depend on it. [`Value`] carries exactly the Go type.

This module owns the value model and its conversions from and to JSON. Printing (`fmt`) lives in
`print`, execution in `exec`; nothing here knows about templates.
*/

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A Go type, as far as templates can observe it (`%T`, `kindOf`, `typeOf`, conversions).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GoType {
    /// `interface {}` (the element type of JSON-decoded collections).
    Interface,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `int64`.
    Int64,
    /// `uint64` (e.g. semver's `Major`).
    Uint64,
    /// `float64`.
    Float64,
    /// `string`.
    String,
    /// `[]byte` (`uint8` slices print differently from other slices).
    Bytes,
    /// `[]T`.
    Slice(Box<GoType>),
    /// `map[string]T` (every map in this world has string keys).
    Map(Box<GoType>),
    /// `*semver.Version`.
    SemverPtr,
    /// `semver.Version` (returned by the `Inc*` methods).
    Semver,
}

impl GoType {
    /// The name Go's `%T` prints, e.g. `[]interface {}`, `map[string]string`, `*semver.Version`.
    pub fn name(&self) -> String {
        match self {
            GoType::Interface => "interface {}".into(),
            GoType::Bool => "bool".into(),
            GoType::Int => "int".into(),
            GoType::Int64 => "int64".into(),
            GoType::Uint64 => "uint64".into(),
            GoType::Float64 => "float64".into(),
            GoType::String => "string".into(),
            GoType::Bytes => "[]uint8".into(),
            GoType::Slice(e) => format!("[]{}", e.name()),
            GoType::Map(e) => format!("map[string]{}", e.name()),
            GoType::SemverPtr => "*semver.Version".into(),
            GoType::Semver => "semver.Version".into(),
        }
    }

    /// Go's `reflect.Kind` name (`kindOf`): `slice`, `map`, `ptr`, `struct`, `float64`, …
    pub fn kind_name(&self) -> &'static str {
        match self {
            GoType::Interface => "interface",
            GoType::Bool => "bool",
            GoType::Int => "int",
            GoType::Int64 => "int64",
            GoType::Uint64 => "uint64",
            GoType::Float64 => "float64",
            GoType::String => "string",
            GoType::Bytes | GoType::Slice(_) => "slice",
            GoType::Map(_) => "map",
            GoType::SemverPtr => "ptr",
            GoType::Semver => "struct",
        }
    }
}

impl fmt::Display for GoType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A semantic version as Masterminds/semver v3 holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
    /// Pre-release, without the `-`.
    pub pre: String,
    /// Build metadata, without the `+`.
    pub metadata: String,
    /// The text it was parsed from.
    pub original: String,
}

/// A Go slice: its element type and items.
#[derive(Debug, Clone, PartialEq)]
pub struct Slice {
    /// Element type (`Interface` for `[]interface{}`).
    pub elem: GoType,
    /// The items. For a typed slice every item has `elem`'s type.
    pub items: Vec<Value>,
}

/// A Go map with string keys; Go's `fmt` and `range` visit keys sorted, so a BTreeMap is exact.
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    /// Value type (`Interface` for `map[string]interface{}`).
    pub elem: GoType,
    /// The entries.
    pub entries: BTreeMap<String, Value>,
}

/// A Go value.
///
/// `Invalid` is Go's zero `reflect.Value`: what a missing map key or a nil `interface{}` becomes
/// when the executor unwraps it; printed as `<no value>`. `Nil` is a nil `interface{}` still
/// held as a value (inside a collection, passed to a function, or the `nil` keyword); printed
/// as `<nil>`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// No value (missing key).
    Invalid,
    /// nil of type `interface{}` (or an untyped nil).
    Nil,
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `int64`.
    Int64(i64),
    /// `uint64`.
    Uint64(u64),
    /// `float64`.
    Float(f64),
    /// `string`.
    String(Arc<str>),
    /// `[]byte`.
    Bytes(Arc<[u8]>),
    /// A slice.
    Slice(Arc<Slice>),
    /// A map.
    Map(Arc<Map>),
    /// `*semver.Version` (`ptr == true`) or `semver.Version`.
    Semver(Arc<Version>, bool),
}

impl Value {
    /// A `string`.
    pub fn str(s: impl Into<Arc<str>>) -> Value {
        Value::String(s.into())
    }

    /// A `[]interface{}`.
    pub fn list(items: Vec<Value>) -> Value {
        Value::Slice(Arc::new(Slice {
            elem: GoType::Interface,
            items,
        }))
    }

    /// A `[]string`.
    pub fn string_list<I: IntoIterator<Item = S>, S: Into<Arc<str>>>(items: I) -> Value {
        Value::Slice(Arc::new(Slice {
            elem: GoType::String,
            items: items.into_iter().map(|s| Value::String(s.into())).collect(),
        }))
    }

    /// A `map[string]interface{}`.
    pub fn dict(entries: BTreeMap<String, Value>) -> Value {
        Value::Map(Arc::new(Map {
            elem: GoType::Interface,
            entries,
        }))
    }

    /// The Go type; `None` for `Invalid` and untyped `Nil` (Go prints `<nil>` for `%T`).
    pub fn go_type(&self) -> Option<GoType> {
        Some(match self {
            Value::Invalid | Value::Nil => return None,
            Value::Bool(_) => GoType::Bool,
            Value::Int(_) => GoType::Int,
            Value::Int64(_) => GoType::Int64,
            Value::Uint64(_) => GoType::Uint64,
            Value::Float(_) => GoType::Float64,
            Value::String(_) => GoType::String,
            Value::Bytes(_) => GoType::Bytes,
            Value::Slice(s) => GoType::Slice(Box::new(s.elem.clone())),
            Value::Map(m) => GoType::Map(Box::new(m.elem.clone())),
            Value::Semver(_, true) => GoType::SemverPtr,
            Value::Semver(_, false) => GoType::Semver,
        })
    }

    /// text/template's truth (`if`, `and`, `or`, `not`): false for Invalid, nil, false, zero
    /// numbers, empty strings, slices and maps; true otherwise (a `*semver.Version` is a
    /// non-nil pointer, a `semver.Version` struct is always true).
    pub fn truth(&self) -> bool {
        match self {
            Value::Invalid | Value::Nil => false,
            Value::Bool(b) => *b,
            Value::Int(i) | Value::Int64(i) => *i != 0,
            Value::Uint64(u) => *u != 0,
            Value::Float(f) => *f != 0.0,
            Value::String(s) => !s.is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::Slice(s) => !s.items.is_empty(),
            Value::Map(m) => !m.entries.is_empty(),
            Value::Semver(..) => true,
        }
    }

    /// The string inside a `string`, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// Convert decoded JSON the way `encoding/json` fills an `interface{}`: numbers become
    /// float64, objects `map[string]interface{}`, arrays `[]interface{}`, null `nil`.
    pub fn from_json(v: &serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Nil,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Float(n.as_f64().unwrap_or(0.0)),
            serde_json::Value::String(s) => Value::str(s.as_str()),
            serde_json::Value::Array(a) => Value::list(a.iter().map(Value::from_json).collect()),
            serde_json::Value::Object(m) => Value::dict(
                m.iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::str(s)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::str(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

/// Nested values are dropped with an explicit stack instead of recursion: `fromJson` accepts
/// Go's 10,000 levels, and dropping that many nested Arcs recursively would overflow the stack.
impl Drop for Slice {
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.items);
        drain_nested(&mut stack);
    }
}

impl Drop for Map {
    fn drop(&mut self) {
        let mut stack: Vec<Value> = std::mem::take(&mut self.entries).into_values().collect();
        drain_nested(&mut stack);
    }
}

/// Take apart every value on `stack` that this is the last owner of, children first onto the
/// stack, so each drop only ever frees one level.
fn drain_nested(stack: &mut Vec<Value>) {
    while let Some(v) = stack.pop() {
        match v {
            Value::Slice(arc) => {
                if let Some(mut inner) = Arc::into_inner(arc) {
                    stack.append(&mut inner.items);
                }
            }
            Value::Map(arc) => {
                if let Some(mut inner) = Arc::into_inner(arc) {
                    stack.extend(std::mem::take(&mut inner.entries).into_values());
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_numbers_are_float64() {
        let v = Value::from_json(&serde_json::json!({"n": 4, "l": [1, "a", null]}));
        let Value::Map(m) = v else { panic!("map") };
        assert_eq!(m.entries["n"], Value::Float(4.0));
        assert_eq!(
            m.entries["l"].go_type().map(|t| t.name()).as_deref(),
            Some("[]interface {}")
        );
    }

    #[test]
    fn type_names_match_go() {
        assert_eq!(
            GoType::Map(Box::new(GoType::Interface)).name(),
            "map[string]interface {}"
        );
        assert_eq!(
            GoType::Slice(Box::new(GoType::Slice(Box::new(GoType::Interface)))).name(),
            "[][]interface {}"
        );
        assert_eq!(GoType::Bytes.name(), "[]uint8");
        assert_eq!(GoType::SemverPtr.kind_name(), "ptr");
    }

    #[test]
    fn truth() {
        assert!(!Value::Invalid.truth());
        assert!(!Value::Float(0.0).truth());
        assert!(Value::Float(-0.5).truth());
        assert!(!Value::list(vec![]).truth());
        assert!(Value::list(vec![Value::Nil]).truth());
    }

    #[test]
    fn deep_values_drop_without_recursion() {
        // Run on a small stack: a recursive drop of 200,000 levels would overflow it.
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let mut v = Value::Nil;
                for i in 0..200_000 {
                    v = if i % 2 == 0 {
                        Value::list(vec![v])
                    } else {
                        Value::dict([("k".to_string(), v)].into_iter().collect())
                    };
                }
                drop(v);
            });
        assert!(handle.map(|h| h.join().is_ok()).unwrap_or(false));
    }
}
