/*!
ObjectMeta decoding: what the API server's round trip of a `metadata` map through
`metav1.ObjectMeta` does to it (`objectmeta.GetObjectMetaWithOptions` with unknown field paths,
then `SetObjectMeta`), at the resource root and at every embedded resource
(`objectmeta.CoerceWithOptions`).

Owns [`decode`]: the `metadata` value read as Go's JSON decoder (`sigs.k8s.io/json`, strict,
case-sensitive) reads it into `ObjectMeta` — unknown fields (also inside `ownerReferences` and
`managedFields` entries) reported as `metadata.<path>` and dropped, `null` and empty values
dropped as `omitempty` drops them, times rewritten as RFC 3339 in UTC to the second, and a value
of the wrong JSON type the decoder's error (`json: cannot unmarshal number into Go struct field
ObjectMeta.labels of type string`; the first such error, or a time's parse error at once). And
[`coerce_root`] / [`coerce_embedded`], which apply it in place.

A `metadata` that cannot be decoded is left as it is: the API server refuses such a request
while decoding it, and [`super::embedded`] reports the same message for embedded resources.

Deviations: the zero `creationTimestamp` (`null`) that `SetObjectMeta` writes at the root is
left out, as it is at embedded resources, since the API server sets the real one on create; the
`Value` of a too-large or fractional number in an error is Go's JSON encoding of it (the
decoder quotes the literal of the re-encoded metadata, which is the same text).
*/

use serde_json::{Map, Value};

use super::structural::Structural;
use crate::go::time::{GoTime, Zone, parse_in_local};
use crate::k8s::field::Path;
use crate::schema::props::Schema;

/// `time.RFC3339`.
const RFC3339: &str = "2006-01-02T15:04:05Z07:00";

/// The JSON type of a field of `ObjectMeta` (or of an entry of one of its lists).
#[derive(Clone, Copy)]
enum Kind {
    /// `string`.
    Str,
    /// `int64`.
    Int,
    /// `*int64`: kept when zero.
    IntPtr,
    /// `metav1.Time` (`null` when zero).
    Time,
    /// `*metav1.Time`.
    TimePtr,
    /// `*bool`.
    BoolPtr,
    /// `map[string]string`.
    StrMap,
    /// `[]string`.
    StrList,
    /// `[]metav1.OwnerReference`.
    OwnerRefs,
    /// `[]metav1.ManagedFieldsEntry`.
    ManagedFields,
    /// `*metav1.FieldsV1`: any JSON, kept as it is.
    Raw,
}

/// `ObjectMeta`'s JSON fields (`k8s.io/apimachinery/pkg/apis/meta/v1`).
const OBJECT_META: &[(&str, Kind)] = &[
    ("annotations", Kind::StrMap),
    ("creationTimestamp", Kind::Time),
    ("deletionGracePeriodSeconds", Kind::IntPtr),
    ("deletionTimestamp", Kind::TimePtr),
    ("finalizers", Kind::StrList),
    ("generateName", Kind::Str),
    ("generation", Kind::Int),
    ("labels", Kind::StrMap),
    ("managedFields", Kind::ManagedFields),
    ("name", Kind::Str),
    ("namespace", Kind::Str),
    ("ownerReferences", Kind::OwnerRefs),
    ("resourceVersion", Kind::Str),
    ("selfLink", Kind::Str),
    ("uid", Kind::Str),
];

/// `OwnerReference`'s fields; the four strings have no `omitempty`.
const OWNER_REFERENCE: &[(&str, Kind)] = &[
    ("apiVersion", Kind::Str),
    ("blockOwnerDeletion", Kind::BoolPtr),
    ("controller", Kind::BoolPtr),
    ("kind", Kind::Str),
    ("name", Kind::Str),
    ("uid", Kind::Str),
];
const OWNER_REFERENCE_REQUIRED: &[&str] = &["apiVersion", "kind", "name", "uid"];

/// `ManagedFieldsEntry`'s fields.
const MANAGED_FIELDS_ENTRY: &[(&str, Kind)] = &[
    ("apiVersion", Kind::Str),
    ("fieldsType", Kind::Str),
    ("fieldsV1", Kind::Raw),
    ("manager", Kind::Str),
    ("operation", Kind::Str),
    ("subresource", Kind::Str),
    ("time", Kind::TimePtr),
];

/// A decoded `metadata`: the map `SetObjectMeta` writes back and the unknown fields dropped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decoded {
    /// The metadata as the API server stores it.
    pub meta: Map<String, Value>,
    /// Paths of the unknown fields (`<prefix>.metadata.foo`), sorted.
    pub unknown: Vec<String>,
}

/// An error that stops decoding at once (a time's); Go's text. Type errors are saved instead and
/// decoding goes on (`saveError`), so they are kept in [`Decoder::first_error`].
type Fatal = String;

struct Decoder {
    /// The unknown-field path prefix (`metadata`, `spec.template.metadata`).
    prefix: String,
    unknown: Vec<String>,
    first_error: Option<String>,
}

impl Decoder {
    /// Record an `UnmarshalTypeError` (the first one wins, as Go's `saveError`).
    fn type_error(&mut self, value: &str, strukt: &str, field: &str, go_type: &str) {
        if self.first_error.is_none() {
            self.first_error = Some(format!(
                "json: cannot unmarshal {value} into Go struct field {strukt}.{field} of type {go_type}"
            ));
        }
    }

    /// Decode the fields of one struct (`strukt`, e.g. `ObjectMeta`) from `m`. `field` is the Go
    /// error's field path of the struct itself (empty for ObjectMeta), `strict` the unknown-field
    /// path of it.
    fn object(
        &mut self,
        m: &Map<String, Value>,
        fields: &[(&str, Kind)],
        strukt: &str,
        field: &str,
        strict: &str,
    ) -> Result<Map<String, Value>, Fatal> {
        let mut out = Map::new();
        for (k, v) in m {
            let Some((_, kind)) = fields.iter().find(|(name, _)| *name == k.as_str()) else {
                let at = if strict.is_empty() {
                    k.clone()
                } else {
                    format!("{strict}.{k}")
                };
                self.unknown.push(format!("{}.{at}", self.prefix));
                continue;
            };
            let go_field = if field.is_empty() {
                k.clone()
            } else {
                format!("{field}.{k}")
            };
            let strict_here = if strict.is_empty() {
                k.clone()
            } else {
                format!("{strict}.{k}")
            };
            if let Some(value) = self.field(v, *kind, strukt, &go_field, &strict_here)? {
                out.insert(k.clone(), value);
            }
        }
        Ok(out)
    }

    /// One field's value as `ToUnstructured` writes it back, `None` when `omitempty` drops it.
    fn field(
        &mut self,
        v: &Value,
        kind: Kind,
        strukt: &str,
        go_field: &str,
        strict: &str,
    ) -> Result<Option<Value>, Fatal> {
        // A JSON null leaves every Go field at its zero value.
        if v.is_null() {
            return Ok(None);
        }
        let at = GoField { strukt, go_field };
        Ok(match kind {
            Kind::Str => self.string(v, at),
            Kind::Int | Kind::IntPtr => self.int(v, matches!(kind, Kind::IntPtr), at),
            Kind::BoolPtr => self.bool_ptr(v, at),
            Kind::Time | Kind::TimePtr => time(v, matches!(kind, Kind::TimePtr), at)?,
            Kind::Raw => Some(v.clone()),
            Kind::StrMap => self.str_map(v, at),
            Kind::StrList => self.str_list(v, at),
            Kind::OwnerRefs => {
                let list = EntryList {
                    fields: OWNER_REFERENCE,
                    elem: "OwnerReference",
                    required: OWNER_REFERENCE_REQUIRED,
                };
                self.entries(v, &list, at, strict)?
            }
            Kind::ManagedFields => {
                let list = EntryList {
                    fields: MANAGED_FIELDS_ENTRY,
                    elem: "ManagedFieldsEntry",
                    required: &[],
                };
                self.entries(v, &list, at, strict)?
            }
        })
    }

    /// The decoder's error for a value of JSON kind `found` where `at` holds a Go `want`.
    fn mistyped(&mut self, found: &str, at: GoField<'_>, want: &str) {
        self.type_error(found, at.strukt, at.go_field, want);
    }

    /// A `string` field: the empty string is dropped.
    fn string(&mut self, v: &Value, at: GoField<'_>) -> Option<Value> {
        match v {
            Value::String(s) if s.is_empty() => None,
            Value::String(s) => Some(Value::String(s.clone())),
            other => {
                self.mistyped(crate::go::json::kind_name(other), at, "string");
                None
            }
        }
    }

    /// An `int64` field (`pointer`: `*int64`, which keeps a zero).
    fn int(&mut self, v: &Value, pointer: bool, at: GoField<'_>) -> Option<Value> {
        match v {
            Value::Number(n) => match n.as_i64() {
                Some(0) if !pointer => None,
                Some(i) => Some(Value::from(i)),
                None => {
                    let lit = format!("number {}", crate::go::json::marshal(v));
                    self.mistyped(&lit, at, "int64");
                    None
                }
            },
            other => {
                self.mistyped(crate::go::json::kind_name(other), at, "int64");
                None
            }
        }
    }

    /// A `*bool` field.
    fn bool_ptr(&mut self, v: &Value, at: GoField<'_>) -> Option<Value> {
        match v {
            Value::Bool(b) => Some(Value::Bool(*b)),
            other => {
                self.mistyped(crate::go::json::kind_name(other), at, "bool");
                None
            }
        }
    }

    /// A `map[string]string` field: a null value is the empty string; an empty map is dropped.
    fn str_map(&mut self, v: &Value, at: GoField<'_>) -> Option<Value> {
        let Value::Object(m) = v else {
            self.mistyped(crate::go::json::kind_name(v), at, "map[string]string");
            return None;
        };
        let mut out = Map::new();
        for (k, e) in m {
            match e {
                Value::String(s) => {
                    out.insert(k.clone(), Value::String(s.clone()));
                }
                Value::Null => {
                    out.insert(k.clone(), Value::String(String::new()));
                }
                other => self.mistyped(crate::go::json::kind_name(other), at, "string"),
            }
        }
        (!out.is_empty()).then_some(Value::Object(out))
    }

    /// A `[]string` field: a null or mistyped item is the empty string; an empty list is dropped.
    fn str_list(&mut self, v: &Value, at: GoField<'_>) -> Option<Value> {
        let Value::Array(a) = v else {
            self.mistyped(crate::go::json::kind_name(v), at, "[]string");
            return None;
        };
        let mut out = Vec::with_capacity(a.len());
        for e in a {
            match e {
                Value::String(s) => out.push(Value::String(s.clone())),
                Value::Null => out.push(Value::String(String::new())),
                other => {
                    self.mistyped(crate::go::json::kind_name(other), at, "string");
                    out.push(Value::String(String::new()));
                }
            }
        }
        (!out.is_empty()).then_some(Value::Array(out))
    }

    /// A list of structs (`ownerReferences`, `managedFields`): each item decoded as `list`'s
    /// struct, its required string fields written even when empty.
    fn entries(
        &mut self,
        v: &Value,
        list: &EntryList,
        at: GoField<'_>,
        strict: &str,
    ) -> Result<Option<Value>, Fatal> {
        let Value::Array(a) = v else {
            let want = format!("[]v1.{}", list.elem);
            self.mistyped(crate::go::json::kind_name(v), at, &want);
            return Ok(None);
        };
        let mut out = Vec::with_capacity(a.len());
        for (i, e) in a.iter().enumerate() {
            let strict_i = format!("{strict}[{i}]");
            let mut entry = match e {
                Value::Object(m) => {
                    self.object(m, list.fields, list.elem, at.go_field, &strict_i)?
                }
                Value::Null => Map::new(),
                other => {
                    let want = format!("v1.{}", list.elem);
                    self.mistyped(crate::go::json::kind_name(other), at, &want);
                    Map::new()
                }
            };
            for r in list.required {
                entry
                    .entry((*r).to_string())
                    .or_insert_with(|| Value::String(String::new()));
            }
            out.push(Value::Object(entry));
        }
        Ok((!out.is_empty()).then_some(Value::Array(out)))
    }
}

/// Where a decoder error is: the Go struct and its field, as the decoder names them.
#[derive(Clone, Copy)]
struct GoField<'a> {
    strukt: &'a str,
    go_field: &'a str,
}

/// The struct of a list of structs: its fields, its Go name, the string fields it always writes.
struct EntryList {
    fields: &'static [(&'static str, Kind)],
    elem: &'static str,
    required: &'static [&'static str],
}

/// A `metav1.Time` field (`pointer`: `*Time`, whose zero marshals as null but keeps the key): a
/// string parsed as RFC 3339, written back in UTC to the second.
fn time(v: &Value, pointer: bool, at: GoField<'_>) -> Result<Option<Value>, Fatal> {
    let Value::String(s) = v else {
        // `Time.UnmarshalJSON` decodes a string first; its error gets the field.
        return Err(format!(
            "json: cannot unmarshal {} into Go struct field {}.{} of type string",
            crate::go::json::kind_name(v),
            at.strukt,
            at.go_field
        ));
    };
    let t = parse_in_local(RFC3339, s)?;
    let utc = GoTime {
        unix: t.unix,
        nsec: 0,
        offset: 0,
        zone: Zone::Utc,
    };
    Ok(if utc == GoTime::zero() {
        pointer.then_some(Value::Null)
    } else {
        Some(Value::String(utc.format(RFC3339)))
    })
}

/// Decode `metadata` (the value of an object's `metadata` field) as `ObjectMeta`; `prefix` is the
/// path of the object holding it (`None` at the root), for the unknown fields' paths. `Err`
/// carries Go's error text.
pub fn decode(metadata: &Value, prefix: Option<&Path>) -> Result<Decoded, String> {
    let prefix = match prefix {
        Some(p) if !p.is_empty() => format!("{p}.metadata"),
        _ => "metadata".to_string(),
    };
    let mut d = Decoder {
        prefix,
        unknown: Vec::new(),
        first_error: None,
    };
    let meta = match metadata {
        Value::Null => Map::new(),
        Value::Object(m) => d.object(m, OBJECT_META, "ObjectMeta", "", "")?,
        other => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type v1.ObjectMeta",
                crate::go::json::kind_name(other)
            ));
        }
    };
    if let Some(e) = d.first_error {
        return Err(e);
    }
    d.unknown.sort();
    Ok(Decoded {
        meta,
        unknown: d.unknown,
    })
}

/// Replace the `metadata` of the object `obj` by its decoding; the unknown fields' paths.
fn coerce_at(obj: &mut Map<String, Value>, prefix: Option<&Path>) -> Vec<String> {
    let Some(metadata) = obj.get("metadata") else {
        return Vec::new();
    };
    match decode(metadata, prefix) {
        Ok(d) => {
            obj.insert("metadata".into(), Value::Object(d.meta));
            d.unknown
        }
        Err(_) => Vec::new(),
    }
}

/// The root's ObjectMeta round trip (`GetObjectMetaWithOptions` + `SetObjectMeta` in
/// `unstructuredSchemaCoercer.apply`): the unknown fields' paths.
pub fn coerce_root(obj: &mut Value) -> Vec<String> {
    match obj {
        Value::Object(m) => coerce_at(m, None),
        _ => Vec::new(),
    }
}

/// `CoerceWithOptions(nil, obj, s, isResourceRoot=false, ReturnUnknownFieldPaths)`: the
/// ObjectMeta of every embedded resource, decoded in place; the unknown fields' paths, sorted.
pub fn coerce_embedded(obj: &mut Value, s: &Structural) -> Vec<String> {
    let mut out = Vec::new();
    walk(obj, &s.schema, &Path::root(), &mut out);
    out.sort();
    out
}

fn walk(x: &mut Value, s: &Schema, path: &Path, out: &mut Vec<String>) {
    match x {
        Value::Object(m) => {
            if s.crd_keywords().embedded_resource {
                out.extend(coerce_at(m, Some(path)));
            }
            let ap = s.additional_properties.as_deref();
            for (k, v) in m.iter_mut() {
                if let Some(p) = s.properties.get(k) {
                    walk(v, p, &path.child(k), out);
                } else if let Some(ap) = ap {
                    walk(v, ap, &path.key(k), out);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = s.items.as_deref() {
                for (i, v) in a.iter_mut().enumerate() {
                    walk(v, items, &path.index(i), out);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dec(v: Value) -> Result<(Value, Vec<String>), String> {
        decode(&v, Some(&Path::of(&["spec", "template"])))
            .map(|d| (Value::Object(d.meta), d.unknown))
    }

    #[test]
    fn unknown_and_empty_fields_are_dropped() {
        assert_eq!(
            dec(
                json!({"name": "a", "namespace": "", "labels": {}, "annotations": {"x": null},
                "generation": 0, "deletionGracePeriodSeconds": 0, "zzz": 1, "Name": "b",
                "creationTimestamp": null, "finalizers": [],
                "ownerReferences": [{"kind": "K", "extra": true, "controller": true}]})
            ),
            Ok((
                json!({"name": "a", "annotations": {"x": ""}, "deletionGracePeriodSeconds": 0,
                    "ownerReferences": [{"apiVersion": "", "kind": "K", "name": "", "uid": "",
                        "controller": true}]}),
                vec![
                    "spec.template.metadata.Name".to_string(),
                    "spec.template.metadata.ownerReferences[0].extra".to_string(),
                    "spec.template.metadata.zzz".to_string(),
                ]
            ))
        );
        assert_eq!(dec(Value::Null), Ok((json!({}), vec![])));
    }

    #[test]
    fn times_are_utc_seconds() {
        assert_eq!(
            dec(json!({"creationTimestamp": "2024-01-02T03:04:05.9+01:00"})).map(|d| d.0),
            Ok(json!({"creationTimestamp": "2024-01-02T02:04:05Z"}))
        );
        assert_eq!(
            dec(json!({"creationTimestamp": "yesterday"})),
            Err(
                "parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\""
                    .into()
            )
        );
    }

    #[test]
    fn wrong_types_read_like_go() {
        assert_eq!(
            dec(json!({"labels": {"a": 1}})),
            Err(
                "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"
                    .into()
            )
        );
        assert_eq!(
            dec(json!({"generation": 1.5})),
            Err(
                "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"
                    .into()
            )
        );
        assert_eq!(
            dec(json!({"ownerReferences": [{"name": 3}]})),
            Err("json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string".into())
        );
        assert_eq!(
            dec(json!("x")),
            Err("json: cannot unmarshal string into Go value of type v1.ObjectMeta".into())
        );
    }
}
