/*!
The Runtime SDK wire types of `hooks.runtime.cluster.x-k8s.io/v1alpha1` that a plan uses:
Discovery, GeneratePatches, ValidateTopology and DiscoverVariables, requests and responses,
encoded and decoded as Cluster API's Go types are.

Encoding follows the Go field tags: `omitempty` fields are skipped when empty, `status` and the
five `holderReference` fields are always written, `items` of a request is always written (`null`
when nil is never produced: an empty list is `[]`), `patch` is base64 (Go's `[]byte`).

Decoding follows `encoding/json` as the Cluster API client uses it ([`decode_response`]): only
the first JSON value of the body is read (trailing bytes are ignored), object keys match field
names case-insensitively (Go's folding, including `ſ`→`s` and the Kelvin sign →`k`), a later key
wins over an earlier one that folds to the same field, unknown keys are ignored, and `null` leaves
a field at its zero value. Free-form values (`object`, variable values, the variable schemas
returned by DiscoverVariables) are kept as they are.

Difference: Go keeps the items it decoded before a type error; here a type error rejects the
whole body. The error names the field (`items[0].patch: invalid type: …`). A list whose shape
is bounded ([`Shape::BoundedArray`]) is refused at its first element over the bound, while the
body is read, and so is an answer of more than [`MAX_ANSWER_VALUES`] JSON values: a body within
its byte bound (64 MiB of `{}`) would otherwise take gigabytes once decoded. Keys no field has are
skipped without building their values (Go ignores them too). Replayed recordings go through the
same decoding.
*/

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::go::base64;

/// The group and version of every hook.
pub const API_VERSION: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";
/// The hook group.
pub const GROUP: &str = "hooks.runtime.cluster.x-k8s.io";
/// The hook version.
pub const VERSION: &str = "v1alpha1";

/// `status` of a response.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ResponseStatus(pub String);

impl ResponseStatus {
    /// `Success`.
    pub fn success() -> Self {
        ResponseStatus("Success".into())
    }
    /// `Failure`.
    pub fn failure() -> Self {
        ResponseStatus("Failure".into())
    }
    /// Whether this is `Success`.
    pub fn is_success(&self) -> bool {
        self.0 == "Success"
    }
    /// Whether this is `Failure`.
    pub fn is_failure(&self) -> bool {
        self.0 == "Failure"
    }
}

/// A handler's failure policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum FailurePolicy {
    /// Errors calling the handler are forgiven.
    Ignore,
    /// Errors calling the handler fail the call (the default).
    #[default]
    Fail,
}

/// A variable sent to an extension: `{"name", "value"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variable {
    pub name: String,
    pub value: Value,
}

/// Where a template sits in the topology; all five fields are always written.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HolderReference {
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub field_path: String,
}

fn is_empty_map(m: &BTreeMap<String, String>) -> bool {
    m.is_empty()
}

/// `DiscoveryRequest`: only the type meta.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DiscoveryRequest {
    pub api_version: String,
    pub kind: String,
}

/// `GroupVersionHook` of a discovered handler.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GroupVersionHook {
    pub api_version: String,
    pub hook: String,
}

/// A handler announced by Discovery (bare name).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExtensionHandler {
    pub name: String,
    pub request_hook: GroupVersionHook,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i32>,
    /// Kept as text: an invalid value is reported by discovery validation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<String>,
}

/// `DiscoveryResponse`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DiscoveryResponse {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub status: ResponseStatus,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub handlers: Vec<ExtensionHandler>,
}

/// One template sent to GeneratePatches.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GeneratePatchesRequestItem {
    pub uid: String,
    pub holder_reference: HolderReference,
    pub object: Value,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
}

/// `GeneratePatchesRequest`. `api_version` and `kind` are filled in by the client.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GeneratePatchesRequest {
    pub api_version: String,
    pub kind: String,
    #[serde(skip_serializing_if = "is_empty_map")]
    pub settings: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
    pub items: Vec<GeneratePatchesRequestItem>,
}

/// `patchType` of a generated patch; other values are kept as text for the engine to reject.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PatchType(pub String);

impl PatchType {
    /// `JSONPatch` (RFC 6902).
    pub fn json_patch() -> Self {
        PatchType("JSONPatch".into())
    }
}

/// One generated patch.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GeneratePatchesResponseItem {
    pub uid: String,
    pub patch_type: PatchType,
    /// The decoded patch document (base64 on the wire).
    #[serde(with = "base64_bytes")]
    pub patch: Vec<u8>,
}

/// `GeneratePatchesResponse`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GeneratePatchesResponse {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub status: ResponseStatus,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<GeneratePatchesResponseItem>,
}

/// One object sent to ValidateTopology (no uid).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ValidateTopologyRequestItem {
    pub holder_reference: HolderReference,
    pub object: Value,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
}

/// `ValidateTopologyRequest`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ValidateTopologyRequest {
    pub api_version: String,
    pub kind: String,
    #[serde(skip_serializing_if = "is_empty_map")]
    pub settings: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
    pub items: Vec<ValidateTopologyRequestItem>,
}

/// `ValidateTopologyResponse`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ValidateTopologyResponse {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub status: ResponseStatus,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// `DiscoverVariablesRequest`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DiscoverVariablesRequest {
    pub api_version: String,
    pub kind: String,
    #[serde(skip_serializing_if = "is_empty_map")]
    pub settings: BTreeMap<String, String>,
}

/// `DiscoverVariablesResponse`. Each variable is a v1beta2 `ClusterClassVariable`
/// (`{name, required?, deprecatedV1Beta1Metadata?, schema: {openAPIV3Schema}}`), with those
/// top-level keys already folded to their canonical spelling; the schema itself is left to the
/// variables module to decode.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DiscoverVariablesResponse {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub status: ResponseStatus,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Value>,
}

/// The common part of every response.
pub trait Response: DeserializeOwned + Default {
    /// The shape used for case-insensitive decoding.
    const SHAPE: Shape;
    /// `status`.
    fn status(&self) -> &ResponseStatus;
    /// `message`.
    fn message(&self) -> &str;
    /// Set status and message (failurePolicy Ignore turns errors into Success).
    fn set_status(&mut self, status: ResponseStatus, message: String);
}

macro_rules! response {
    ($t:ty, $shape:expr) => {
        impl Response for $t {
            const SHAPE: Shape = $shape;
            fn status(&self) -> &ResponseStatus {
                &self.status
            }
            fn message(&self) -> &str {
                &self.message
            }
            fn set_status(&mut self, status: ResponseStatus, message: String) {
                self.status = status;
                self.message = message;
            }
        }
    };
}
pub(crate) use response;

/// The most handlers one Discovery answer may list (real extensions list a handful).
pub const MAX_HANDLERS: usize = 1_000;
/// The most variables one DiscoverVariables answer may list.
pub const MAX_VARIABLES: usize = 50_000;
/// The most items one GeneratePatches answer may hold (a request has a few per
/// MachineDeployment; 100,000 is far above any real Cluster's).
pub const MAX_ITEMS: usize = 100_000;
/// The most JSON values (scalars, lists, objects) one answer may hold once decoded, free-form
/// values such as variable schemas included: a few hundred bytes each, so about 500 MiB at
/// most, where real answers have some thousands.
pub const MAX_ANSWER_VALUES: usize = 2_000_000;
/// The most JSON values of one item's patch (its operations and their values).
pub const MAX_PATCH_VALUES: usize = 1_000_000;

const META: [(&str, Shape); 4] = [
    ("apiVersion", Shape::Scalar),
    ("kind", Shape::Scalar),
    ("status", Shape::Scalar),
    ("message", Shape::Scalar),
];

response!(
    DiscoveryResponse,
    Shape::Object(&[
        META[0],
        META[1],
        META[2],
        META[3],
        (
            "handlers",
            Shape::BoundedArray(
                &Shape::Object(&[
                    ("name", Shape::Scalar),
                    (
                        "requestHook",
                        Shape::Object(&[("apiVersion", Shape::Scalar), ("hook", Shape::Scalar)]),
                    ),
                    ("timeoutSeconds", Shape::Scalar),
                    ("failurePolicy", Shape::Scalar),
                ]),
                MAX_HANDLERS,
            ),
        ),
    ])
);
response!(
    GeneratePatchesResponse,
    Shape::Object(&[
        META[0],
        META[1],
        META[2],
        META[3],
        (
            "items",
            Shape::BoundedArray(
                &Shape::Object(&[
                    ("uid", Shape::Scalar),
                    ("patchType", Shape::Scalar),
                    ("patch", Shape::Scalar),
                ]),
                MAX_ITEMS,
            ),
        ),
    ])
);
response!(
    ValidateTopologyResponse,
    Shape::Object(&[META[0], META[1], META[2], META[3]])
);
response!(
    DiscoverVariablesResponse,
    Shape::Object(&[
        META[0],
        META[1],
        META[2],
        META[3],
        (
            "variables",
            Shape::BoundedArray(
                &Shape::Object(&[
                    ("name", Shape::Scalar),
                    ("required", Shape::Scalar),
                    ("deprecatedV1Beta1Metadata", Shape::Any),
                    ("schema", Shape::Object(&[("openAPIV3Schema", Shape::Any)]),),
                ]),
                MAX_VARIABLES,
            ),
        ),
    ])
);

/// The field layout of a Go struct, for case-insensitive key matching.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// A string, number or bool field; `null` leaves it unset.
    Scalar,
    /// A free-form JSON value, kept as it is.
    Any,
    /// A struct with these fields.
    Object(&'static [(&'static str, Shape)]),
    /// A slice of elements.
    Array(&'static Shape),
    /// A slice of at most this many elements: a longer one is refused while it is read, before
    /// the rest of it takes memory.
    BoundedArray(&'static Shape, usize),
}

impl Shape {
    /// The shape of a struct field named (or folding to) `key`, with its canonical name.
    fn field(&self, key: &str) -> Option<&'static (&'static str, Shape)> {
        let Shape::Object(fields) = self else {
            return None;
        };
        fields.iter().find(|(name, _)| *name == key).or_else(|| {
            let f = fold(key);
            fields
                .iter()
                .find(|(name, _)| name.to_ascii_lowercase() == f)
        })
    }
}

/// Decode a response body as Go's `json.NewDecoder(body).Decode(&resp)` would.
pub fn decode_response<T: Response>(body: &[u8]) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let values = std::cell::Cell::new(MAX_ANSWER_VALUES);
    let raw = OrderedSeed {
        shape: &T::SHAPE,
        name: "",
        values: &values,
    }
    .deserialize(&mut de)
    .map_err(|e| e.to_string())?;
    let canonical = canonicalize(raw, &T::SHAPE).unwrap_or(Value::Null);
    if canonical.is_null() {
        // `null` decodes to the zero value.
        return Ok(T::default());
    }
    // Say where in the answer a value has the wrong type: an extension's author needs the field.
    serde_path_to_error::deserialize(canonical).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            e.into_inner().to_string()
        } else {
            format!("{path}: {}", e.into_inner())
        }
    })
}

/// Go's case folding for ASCII field names: `ſ` is `s` and the Kelvin sign is `k`.
fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{17f}' => 's',
            '\u{212a}' => 'k',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// Rename keys to their field names and drop unknown keys and `null` fields. `None` means "leave
/// the field at its zero value".
fn canonicalize(v: Ordered, shape: &Shape) -> Option<Value> {
    match (v, shape) {
        (Ordered::Null, Shape::Any) => Some(Value::Null),
        (Ordered::Null, _) => None,
        (v, Shape::Any | Shape::Scalar) => Some(v.into_value()),
        (Ordered::Object(pairs), shape @ Shape::Object(_)) => {
            let mut out = serde_json::Map::new();
            for (k, v) in pairs {
                let field = shape.field(&k);
                // `null` keeps what an earlier key set, as Go does.
                if let Some((name, sub)) = field
                    && let Some(v) = canonicalize(v, sub)
                {
                    out.insert((*name).to_string(), v);
                }
            }
            Some(Value::Object(out))
        }
        (Ordered::Array(items), Shape::Array(elem) | Shape::BoundedArray(elem, _)) => {
            Some(Value::Array(
                items
                    .into_iter()
                    .map(|i| canonicalize(i, elem).unwrap_or_else(|| zero(elem)))
                    .collect(),
            ))
        }
        // A type mismatch: let serde report it.
        (v, _) => Some(v.into_value()),
    }
}

fn zero(shape: &Shape) -> Value {
    match shape {
        Shape::Object(_) => Value::Object(serde_json::Map::new()),
        _ => Value::Null,
    }
}

/// A JSON value whose objects keep their keys in document order, duplicates included.
enum Ordered {
    Null,
    Scalar(Value),
    Array(Vec<Ordered>),
    Object(Vec<(String, Ordered)>),
}

impl Ordered {
    fn into_value(self) -> Value {
        match self {
            Ordered::Null => Value::Null,
            Ordered::Scalar(v) => v,
            Ordered::Array(a) => Value::Array(a.into_iter().map(Ordered::into_value).collect()),
            Ordered::Object(pairs) => {
                let mut m = serde_json::Map::new();
                for (k, v) in pairs {
                    m.insert(k, v.into_value());
                }
                Value::Object(m)
            }
        }
    }
}

/// Reads one JSON value as an [`Ordered`], following `shape` far enough to bound the arrays it
/// says are bounded; `name` is the field being read, for the error.
/// `values` counts down the JSON values the answer may still hold ([`MAX_ANSWER_VALUES`]).
#[derive(Clone, Copy)]
struct OrderedSeed<'v> {
    shape: &'static Shape,
    name: &'static str,
    values: &'v std::cell::Cell<usize>,
}

impl OrderedSeed<'_> {
    /// Count one more value, refusing the answer past the bound.
    fn count<E: de::Error>(&self) -> Result<(), E> {
        match self.values.get().checked_sub(1) {
            Some(left) => {
                self.values.set(left);
                Ok(())
            }
            None => Err(E::custom(format!(
                "the answer holds more than {MAX_ANSWER_VALUES} JSON values, the most topoplan accepts"
            ))),
        }
    }
}

impl<'de> DeserializeSeed<'de> for OrderedSeed<'_> {
    type Value = Ordered;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Ordered, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for OrderedSeed<'_> {
    type Value = Ordered;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Ordered, E> {
        self.count()?;
        Ok(Ordered::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Ordered, E> {
        self.count()?;
        Ok(Ordered::Null)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Ordered, E> {
        self.count()?;
        Ok(Ordered::Scalar(Value::Bool(b)))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Ordered, E> {
        self.count()?;
        Ok(Ordered::Scalar(Value::from(n)))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Ordered, E> {
        self.count()?;
        Ok(Ordered::Scalar(Value::from(n)))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Ordered, E> {
        self.count()?;
        Ok(Ordered::Scalar(Value::from(n)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Ordered, E> {
        self.count()?;
        Ok(Ordered::Scalar(Value::String(s.to_string())))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Ordered, E> {
        self.count()?;
        Ok(Ordered::Scalar(Value::String(s)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        self.count::<A::Error>()?;
        let (elem, max) = match self.shape {
            Shape::Array(e) => (*e, None),
            Shape::BoundedArray(e, max) => (*e, Some(*max)),
            // A type mismatch, reported later; its contents have no shape.
            _ => (&Shape::Any, None),
        };
        let seed = OrderedSeed {
            shape: elem,
            name: self.name,
            values: self.values,
        };
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(seed)? {
            if let Some(max) = max
                && out.len() >= max
            {
                return Err(de::Error::custom(format!(
                    "{}: more than {max} items, the most topoplan accepts",
                    self.name
                )));
            }
            out.push(v);
        }
        Ok(Ordered::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        self.count::<A::Error>()?;
        let mut out = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            let seed = match self.shape.field(&k) {
                Some((name, shape)) => OrderedSeed {
                    shape,
                    name,
                    values: self.values,
                },
                // A key no field of the struct has: skipped as Go skips it, its value never
                // built (it could be most of the answer).
                None if matches!(self.shape, Shape::Object(_)) => {
                    map.next_value::<de::IgnoredAny>()?;
                    continue;
                }
                None => OrderedSeed {
                    shape: &Shape::Any,
                    name: self.name,
                    values: self.values,
                },
            };
            let v = map.next_value_seed(seed)?;
            out.push((k, v));
        }
        Ok(Ordered::Object(out))
    }
}

/// Whether the JSON text `bytes` holds at most `max` values (scalars, lists, objects), counted
/// without building any: checked before a free-form value of an answer (a patch) is decoded.
/// Text that is not JSON counts as within; decoding it reports the error.
pub fn json_values_within(bytes: &[u8], max: usize) -> bool {
    struct Count<'c>(&'c std::cell::Cell<usize>);
    impl<'de> DeserializeSeed<'de> for Count<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Count<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            self.tick()
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
            self.tick()
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
            self.tick()
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
            self.tick()
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
            self.tick()
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
            self.tick()
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            self.tick::<A::Error>()?;
            while seq.next_element_seed(Count(self.0))?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            self.tick::<A::Error>()?;
            while map.next_key::<de::IgnoredAny>()?.is_some() {
                map.next_value_seed(Count(self.0))?;
            }
            Ok(())
        }
    }
    impl Count<'_> {
        fn tick<E: de::Error>(&self) -> Result<(), E> {
            let left = self
                .0
                .get()
                .checked_sub(1)
                .ok_or_else(|| E::custom("too many"))?;
            self.0.set(left);
            Ok(())
        }
    }
    let left = std::cell::Cell::new(max);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    match Count(&left).deserialize(&mut de) {
        Ok(()) => true,
        Err(_) => left.get() > 0,
    }
}

/// Go's `[]byte` JSON encoding: a standard, padded base64 string.
mod base64_bytes {
    use super::*;

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = Option::<String>::deserialize(d)?;
        match s {
            None => Ok(Vec::new()),
            Some(s) => base64::decode(s.as_bytes()).map_err(de::Error::custom),
        }
    }
}
