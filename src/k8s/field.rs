/*!
Kubernetes field errors: the `field.Path` / `field.Error` shapes of k8s.io/apimachinery, rendered
byte for byte as the API server renders them.

Every admission and variable error topoplan reports is one of these, so the message a user sees is
the one `kubectl apply` would have printed. Besides the rendered path (`spec.variables[cpu]`), a
[`Path`] remembers where each element stands in the JSON document (`/spec/variables/3`), so the
error can be pointed at a line of the user's file.
*/

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// One element of a [`Path`].
#[derive(Debug, Clone, PartialEq, Eq)]
enum Elem {
    /// A field name: rendered `a.b`.
    Field(String),
    /// A list index: rendered `[3]`.
    Index(usize),
    /// A map key or a list element named by its key: rendered `[key]`. `index` is the element's
    /// position when the key names a list element, so the JSON pointer can still reach it.
    Key { key: String, index: Option<usize> },
    /// A field rendered under one name but found at other pointer tokens (Cluster API reports
    /// some fields under legacy names: `template.bootstrap.ref` for `bootstrap/templateRef`).
    Alias { shown: String, tokens: Vec<String> },
}

/// A field path: `spec.topology.variables[cpu].value`.
///
/// Stored as a list linked from its last element to its first, shared between paths: a schema
/// walk extends the path at every node, and copying the elements each time made walking a large
/// schema cost its size times its depth. Rendering, the only reader of the whole list, is rare.
#[derive(Clone, Default)]
pub struct Path {
    last: Option<Arc<Link>>,
}

/// One element and the path before it.
struct Link {
    elem: Elem,
    parent: Option<Arc<Link>>,
}

impl Path {
    /// A path starting with field `name`; `field.NewPath`.
    pub fn new(name: &str) -> Path {
        Path::default().child(name)
    }

    /// A path from dotted field names: `Path::of(&["spec", "topology"])`.
    pub fn of(names: &[&str]) -> Path {
        names.iter().fold(Path::default(), |p, n| p.child(n))
    }

    /// The empty path (renders as the empty string).
    pub fn root() -> Path {
        Path::default()
    }

    fn push(&self, elem: Elem) -> Path {
        Path {
            last: Some(Arc::new(Link {
                elem,
                parent: self.last.clone(),
            })),
        }
    }

    /// The elements, first to last.
    fn elems(&self) -> Vec<&Elem> {
        let mut out = Vec::new();
        let mut at = self.last.as_deref();
        while let Some(l) = at {
            out.push(&l.elem);
            at = l.parent.as_deref();
        }
        out.reverse();
        out
    }

    /// Append field `name`; `Child`. A name containing dots is split, as Go's `Child(a.b)` renders
    /// the same text; each part becomes a pointer token.
    pub fn child(&self, name: &str) -> Path {
        self.push(Elem::Field(name.to_string()))
    }

    /// Append a field shown as `shown` (as `child` would render it) whose JSON pointer tokens are
    /// `tokens` instead: for messages that name a field by a legacy or misspelt path while the
    /// pointer must still reach the field in the document (`tokens` may be empty).
    pub fn child_as(&self, shown: &str, tokens: &[&str]) -> Path {
        self.push(Elem::Alias {
            shown: shown.to_string(),
            tokens: tokens.iter().map(|t| (*t).to_string()).collect(),
        })
    }

    /// Append list index `i`; `Index`.
    pub fn index(&self, i: usize) -> Path {
        self.push(Elem::Index(i))
    }

    /// Append map key `k`; `Key`. In a JSON pointer the key is a token of its own.
    pub fn key(&self, k: &str) -> Path {
        self.push(Elem::Key {
            key: k.to_string(),
            index: None,
        })
    }

    /// Append a list element named by its key: renders `[k]`, points at index `i`.
    pub fn key_at(&self, k: &str, i: usize) -> Path {
        self.push(Elem::Key {
            key: k.to_string(),
            index: Some(i),
        })
    }

    /// Append every element of `other`.
    pub fn join(&self, other: &Path) -> Path {
        other
            .elems()
            .into_iter()
            .fold(self.clone(), |p, e| p.push(e.clone()))
    }

    /// True for the empty path.
    pub fn is_empty(&self) -> bool {
        self.last.is_none()
    }

    /// The JSON pointer of a path as the API server words it (`spec.list[0].x` →
    /// `/spec/list/0/x`), e.g. a pruned field's.
    pub fn dotted_pointer(dotted: &str) -> String {
        Path::new("").child(dotted).pointer()
    }

    /// The JSON pointer of this path in the document it describes (`/spec/variables/3/value`).
    /// A dotted field name (`Child("a.b")`) contributes one token per part.
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        for e in self.elems() {
            match e {
                Elem::Field(name) => {
                    for part in name.split('.') {
                        if part.is_empty() {
                            continue;
                        }
                        // kube-openapi names list items inside one field (`variables[6]`).
                        let (field, indexes) = match part.find('[') {
                            Some(i) if part.ends_with(']') => (&part[..i], &part[i..]),
                            _ => (part, ""),
                        };
                        if !field.is_empty() {
                            out.push('/');
                            push_token(&mut out, field);
                        }
                        for idx in indexes.split(['[', ']']).filter(|s| !s.is_empty()) {
                            out.push('/');
                            push_token(&mut out, idx);
                        }
                    }
                }
                Elem::Index(i) => {
                    out.push('/');
                    out.push_str(&i.to_string());
                }
                Elem::Alias { tokens, .. } => {
                    for t in tokens {
                        out.push('/');
                        push_token(&mut out, t);
                    }
                }
                Elem::Key { key, index } => {
                    out.push('/');
                    match index {
                        Some(i) => out.push_str(&i.to_string()),
                        None => push_token(&mut out, key),
                    }
                }
            }
        }
        out
    }
}

fn push_token(out: &mut String, token: &str) {
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.elems() == other.elems()
    }
}

impl Eq for Path {}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Path")
            .field("elems", &self.elems())
            .finish()
    }
}

impl Drop for Path {
    /// Unlinks iteratively: the default drop of a long chain would recurse once per element.
    fn drop(&mut self) {
        let mut next = self.last.take();
        while let Some(l) = next {
            next = match Arc::try_unwrap(l) {
                Ok(mut link) => link.parent.take(),
                Err(_) => None,
            };
        }
    }
}

impl fmt::Display for Path {
    /// `field.Path.String`: names joined by `.`, keys and indexes in brackets with no dot.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.elems().into_iter().enumerate() {
            match e {
                Elem::Field(name) | Elem::Alias { shown: name, .. } => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(name)?;
                }
                Elem::Index(n) => write!(f, "[{n}]")?,
                Elem::Key { key, .. } => write!(f, "[{key}]")?,
            }
        }
        Ok(())
    }
}

/// `field.ErrorType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// `Not found`.
    NotFound,
    /// `Required value`.
    Required,
    /// `Duplicate value`.
    Duplicate,
    /// `Invalid value`.
    Invalid,
    /// `Unsupported value`.
    NotSupported,
    /// `Forbidden`.
    Forbidden,
    /// `Too long`.
    TooLong,
    /// `Too many`.
    TooMany,
    /// `Too few`.
    TooFew,
    /// `Internal error`.
    Internal,
    /// `Invalid value` (a schema type mismatch).
    TypeInvalid,
    /// `Too short`.
    TooShort,
}

impl ErrorType {
    /// The text Kubernetes prints for this type.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
            ErrorType::TooShort => "Too short",
        }
    }

    /// The machine-readable name (`FieldValueInvalid`), as in a Status cause.
    pub fn reason(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
            ErrorType::TooShort => "FieldValueTooShort",
        }
    }
}

/// The bad value of a field error, typed the way Go's renderer distinguishes it.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// Not shown (`omitValue`, or a type whose body never shows a value).
    Omit,
    /// A Go string: rendered `%q`.
    Str(String),
    /// A Go int64/int32: rendered `%v`.
    Int(i64),
    /// A Go float64: rendered `%v` (Go's shortest `%g`-like form).
    Float(f64),
    /// A Go bool.
    Bool(bool),
    /// Anything else: rendered as its JSON encoding (`null` for nil).
    Json(Value),
    /// A Go struct, already JSON-encoded as `json.Marshal` writes it (fields in declaration
    /// order, which a [`Value`] cannot keep); rendered verbatim.
    GoJson(String),
}

impl BadValue {
    /// The bad value for a decoded JSON value, typed as Go's `interface{}` decoding gives it
    /// (strings, bools and float64 numbers; everything else as JSON).
    pub fn from_json(v: &Value) -> BadValue {
        match v {
            Value::String(s) => BadValue::Str(s.clone()),
            Value::Bool(b) => BadValue::Bool(*b),
            Value::Number(n) => match n.as_f64() {
                Some(f) => BadValue::Float(f),
                None => BadValue::Json(v.clone()),
            },
            other => BadValue::Json(other.clone()),
        }
    }

    /// The bad value for a JSON value decoded with integers kept as int64 (apimachinery's
    /// `util/json`), as CEL and the schema validator see values.
    pub fn from_json_int(v: &Value) -> BadValue {
        match v {
            Value::Number(n) => match n.as_i64() {
                Some(i) => BadValue::Int(i),
                None => BadValue::from_json(v),
            },
            other => BadValue::from_json(other),
        }
    }
}

impl From<&str> for BadValue {
    fn from(s: &str) -> BadValue {
        BadValue::Str(s.to_string())
    }
}

impl From<String> for BadValue {
    fn from(s: String) -> BadValue {
        BadValue::Str(s)
    }
}

impl From<bool> for BadValue {
    fn from(b: bool) -> BadValue {
        BadValue::Bool(b)
    }
}

impl From<i64> for BadValue {
    fn from(i: i64) -> BadValue {
        BadValue::Int(i)
    }
}

impl From<Value> for BadValue {
    fn from(v: Value) -> BadValue {
        BadValue::Json(v)
    }
}

/// One field error: `<path>: <type>[: <value>][: <detail>]`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// Error type.
    pub kind: ErrorType,
    /// The offending field.
    pub path: Path,
    /// The offending value.
    pub bad_value: BadValue,
    /// What was expected.
    pub detail: String,
    /// topoplan's hint beside Cluster API's message (a "did you mean"); not part of the text.
    pub help: Option<String>,
}

impl FieldError {
    /// `field.Invalid`.
    pub fn invalid(path: &Path, value: impl Into<BadValue>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Invalid, path, value.into(), detail)
    }

    /// `field.TypeInvalid`.
    pub fn type_invalid(
        path: &Path,
        value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(ErrorType::TypeInvalid, path, value.into(), detail)
    }

    /// `field.Required`.
    pub fn required(path: &Path, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, path, BadValue::Omit, detail)
    }

    /// `field.Forbidden`.
    pub fn forbidden(path: &Path, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Forbidden, path, BadValue::Omit, detail)
    }

    /// `field.Internal` with the error text as detail.
    pub fn internal(path: &Path, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Internal, path, BadValue::Omit, detail)
    }

    /// `field.Duplicate`.
    pub fn duplicate(path: &Path, value: impl Into<BadValue>) -> Self {
        Self::new(ErrorType::Duplicate, path, value.into(), "")
    }

    /// `field.NotFound`.
    pub fn not_found(path: &Path, value: impl Into<BadValue>) -> Self {
        Self::new(ErrorType::NotFound, path, value.into(), "")
    }

    /// `field.NotSupported`: the detail lists the supported values, each `%q`-quoted.
    pub fn not_supported(path: &Path, value: impl Into<BadValue>, supported: &[&str]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(ErrorType::NotSupported, path, value.into(), detail)
    }

    /// `field.TooLong` (the detail counts bytes, whatever the check counted).
    pub fn too_long(path: &Path, max: i64) -> Self {
        let detail = if max >= 0 {
            format!(
                "may not be more than {max} {}",
                plural(max, "byte", "bytes")
            )
        } else {
            "value is too long".to_string()
        };
        Self::new(ErrorType::TooLong, path, BadValue::Omit, detail)
    }

    /// `field.TooMany`.
    pub fn too_many(path: &Path, actual: Option<i64>, max: i64) -> Self {
        let detail = if max >= 0 {
            format!("must have at most {max} {}", plural(max, "item", "items"))
        } else {
            "has too many items".to_string()
        };
        let value = actual.map_or(BadValue::Omit, BadValue::Int);
        Self::new(ErrorType::TooMany, path, value, detail)
    }

    /// Any type, value and detail.
    pub fn new(
        kind: ErrorType,
        path: &Path,
        bad_value: BadValue,
        detail: impl Into<String>,
    ) -> Self {
        FieldError {
            kind,
            path: path.clone(),
            bad_value,
            detail: detail.into(),
            help: None,
        }
    }

    /// The same error with a hint for the user, shown beside Cluster API's message.
    pub fn with_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    /// The same error with another bad value (Cluster API replaces a variable error's value
    /// with the whole raw variable).
    pub fn with_bad_value(mut self, v: BadValue) -> Self {
        self.bad_value = v;
        self
    }

    /// `ErrorBody`: the message without the field path.
    pub fn body(&self) -> String {
        let mut s = String::from(self.kind.as_str());
        let shows_value = !matches!(
            self.kind,
            ErrorType::Required
                | ErrorType::Forbidden
                | ErrorType::TooLong
                | ErrorType::TooShort
                | ErrorType::Internal
        );
        if shows_value {
            match &self.bad_value {
                BadValue::Omit => {}
                BadValue::Str(v) => {
                    s.push_str(": ");
                    s.push_str(&go_quote(v));
                }
                BadValue::Int(i) => {
                    s.push_str(": ");
                    s.push_str(&i.to_string());
                }
                BadValue::Float(f) => {
                    s.push_str(": ");
                    s.push_str(&crate::go::strconv::format_float(*f, b'g', -1));
                }
                BadValue::Bool(b) => {
                    s.push_str(": ");
                    s.push_str(if *b { "true" } else { "false" });
                }
                BadValue::Json(v) => {
                    s.push_str(": ");
                    s.push_str(&crate::go::json::marshal(v));
                }
                BadValue::GoJson(text) => {
                    s.push_str(": ");
                    s.push_str(text);
                }
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    /// `field.Error.Error`: `<path>: <body>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.body())
    }
}

fn plural(n: i64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// Go's `%q` / `strconv.Quote`.
pub fn go_quote(s: &str) -> String {
    crate::go::strconv::quote(s, false)
}

/// `utilerrors.NewAggregate(list).Error()`: one error bare, several as `[e1, e2]`, with
/// duplicate messages dropped (first occurrence kept).
pub fn aggregate(errors: &[FieldError]) -> String {
    let mut seen = std::collections::HashSet::new();
    let msgs: Vec<String> = errors
        .iter()
        .map(ToString::to_string)
        .filter(|m| seen.insert(m.clone()))
        .collect();
    match msgs.len() {
        0 => String::new(),
        1 => msgs.into_iter().next().unwrap_or_default(),
        _ => format!("[{}]", msgs.join(", ")),
    }
}

/// `apierrors.NewInvalid(gk, name, errs).Error()`:
/// `<Kind>.<group> "<name>" is invalid: <aggregate>`.
pub fn invalid_object(kind: &str, group: &str, name: &str, errors: &[FieldError]) -> String {
    let qualified = if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    };
    format!(
        "{qualified} {} is invalid: {}",
        go_quote(name),
        aggregate(errors)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_render_like_apimachinery() {
        let p = Path::of(&["spec", "topology", "variables"])
            .key_at("cpu", 2)
            .child("value");
        assert_eq!(p.to_string(), "spec.topology.variables[cpu].value");
        assert_eq!(p.pointer(), "/spec/topology/variables/2/value");
        let q = Path::new("spec").child("variables").key("x").child("[1]");
        assert_eq!(q.to_string(), "spec.variables[x].[1]");
        assert_eq!(
            Path::new("metadata").child("labels").key("a/b").pointer(),
            "/metadata/labels/a~1b"
        );
        assert_eq!(Path::new("a").index(0).index(1).to_string(), "a[0][1]");
        let r = Path::of(&["spec", "infrastructure"]).child_as("ref", &["templateRef"]);
        assert_eq!(r.child("name").to_string(), "spec.infrastructure.ref.name");
        assert_eq!(
            r.child("name").pointer(),
            "/spec/infrastructure/templateRef/name"
        );
        assert_eq!(Path::root().to_string(), "");
        assert_eq!(
            Path::dotted_pointer("spec.list[0].x~y"),
            "/spec/list/0/x~0y"
        );
        // kube-openapi's names: list items inside one dotted field.
        assert_eq!(
            Path::new("spec")
                .child("variables[6].schema.items[0][1].type")
                .pointer(),
            "/spec/variables/6/schema/items/0/1/type"
        );
    }

    #[test]
    fn paths_share_their_prefix_and_compare_by_elements() {
        let base = Path::of(&["spec", "template"]);
        let (a, b) = (base.child("x"), base.child("y"));
        // Extending a path leaves it and its siblings as they were.
        assert_eq!(base.to_string(), "spec.template");
        assert_eq!(
            (a.to_string(), b.to_string()),
            ("spec.template.x".into(), "spec.template.y".into())
        );
        // Equal elements are equal paths, however they were built.
        assert_eq!(a, Path::new("spec").join(&Path::of(&["template", "x"])));
        assert_ne!(a, b);
        assert_ne!(Path::new("a").key("b"), Path::new("a").child("b"));
        assert!(Path::root().is_empty() && !a.is_empty());
        // A long path drops without recursing once per element.
        let long = (0..200_000).fold(Path::root(), |p, i| p.index(i));
        drop(long);
    }

    #[test]
    fn bodies_follow_the_error_type() {
        let p = Path::new("spec");
        assert_eq!(
            FieldError::invalid(&p.child("cpu"), "1", "must be of type string: \"integer\"")
                .to_string(),
            "spec.cpu: Invalid value: \"1\": must be of type string: \"integer\""
        );
        assert_eq!(
            FieldError::required(&p, "").to_string(),
            "spec: Required value"
        );
        assert_eq!(
            FieldError::forbidden(&p, "cannot be removed").to_string(),
            "spec: Forbidden: cannot be removed"
        );
        assert_eq!(
            FieldError::invalid(&p, true, "x").to_string(),
            "spec: Invalid value: true: x"
        );
        assert_eq!(
            FieldError::invalid(&p, BadValue::Float(1e6), "").to_string(),
            "spec: Invalid value: 1e+06"
        );
        assert_eq!(
            FieldError::invalid(&p, BadValue::Json(json!({"b": 1, "a": "<"})), "d").to_string(),
            "spec: Invalid value: {\"a\":\"\\u003c\",\"b\":1}: d"
        );
        assert_eq!(
            FieldError::invalid(&p, BadValue::Json(Value::Null), "d").to_string(),
            "spec: Invalid value: null: d"
        );
        assert_eq!(
            FieldError::not_supported(&p, "x", &["array", "boolean"]).to_string(),
            "spec: Unsupported value: \"x\": supported values: \"array\", \"boolean\""
        );
        assert_eq!(
            FieldError::too_many(&p, None, 3).to_string(),
            "spec: Too many: must have at most 3 items"
        );
        assert_eq!(
            FieldError::too_long(&p, 1).to_string(),
            "spec: Too long: may not be more than 1 byte"
        );
        assert_eq!(
            FieldError::duplicate(&p, "a").to_string(),
            "spec: Duplicate value: \"a\""
        );
    }

    #[test]
    fn aggregates_drop_duplicates() {
        let p = Path::new("a");
        let e = FieldError::required(&p, "x");
        assert_eq!(aggregate(std::slice::from_ref(&e)), "a: Required value: x");
        assert_eq!(
            aggregate(&[e.clone(), e.clone(), FieldError::forbidden(&p, "y")]),
            "[a: Required value: x, a: Forbidden: y]"
        );
        assert_eq!(
            invalid_object("Cluster", "cluster.x-k8s.io", "c1", &[e]),
            "Cluster.cluster.x-k8s.io \"c1\" is invalid: a: Required value: x"
        );
    }
}
