/*!
RFC 6902 JSON Patch and RFC 7386 merge patch, as `github.com/evanphx/json-patch/v5` applies them
for Cluster API (`DecodePatch` + `Apply` with default options, and `MergePatch`).

Owns decoding a patch document (with the library's up-front operation validation), applying it
to a JSON value, and the library's error texts (`pkg/errors` wrapping: `context: cause`).

Why our own and not the `json-patch` crate: Cluster API's behaviour differs from RFC 6902 in
ways the crate does not reproduce and cannot be configured for — negative array indices,
a path without a leading `/` addressing the root, `replace` of the root with a scalar being a
silent no-op, `test` of a missing key against `null` passing, `move` errors naming the key
instead of the path — and every error text is the Go library's, which users see in
diagnostics. A compatibility layer over the crate would have to re-check each operation
before handing it over, which is the whole implementation again. The golden vectors under
`testdata/golden/jsonpatch/` come from the Go library (Debian's 5.7.0 build of the oracle;
Cluster API pins 5.9.11, whose application code paths used here are the same).

Known differences: scalar equality in `test` compares values, not Go's compacted raw bytes
(`1.0` and `1.00` are equal here); JSON syntax errors in a patch document carry serde's text.

Bounded growth, unlike Cluster API: `copy` can double an array with each operation, so 40 of them
in a 3 KB patch ask for 2^40 elements. The library has `AccumulatedCopySizeLimit` for this, but
Cluster API applies patches with the default options, where it is 0 (no limit), and would run out
of memory. Here the values `add` and `copy` insert are measured (as compact JSON, as the
library measures copies) before they are built, and refused past [`MAX_PATCH_GROWTH`] per patch
and [`MAX_OBJECT_GROWTH`] per patched object, with the library's error wording.
*/

use serde_json::{Map, Value};

use crate::go::json as gojson;

/// A decoded RFC 6902 patch: the operations, each a JSON object (or `null`), as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Patch(pub Vec<Map<String, Value>>);

/// `errors.Wrapf(ErrMissing, …)`'s cause text.
const MISSING: &str = "missing value";

/// Whether `error` (this module's text of a failed application) says the document lacks a path
/// or key an operation names, as opposed to a malformed operation.
pub fn is_missing_path(error: &str) -> bool {
    error.ends_with(MISSING)
        && (error.contains(" is missing ")
            || error.contains("nonexistent key")
            || error.contains("error in add for path")
            || error.contains("error in remove for path")
            || error.contains("error in move for path"))
}
/// `ErrInvalidIndex`'s text.
const INVALID_INDEX: &str = "invalid index referenced";

/// How many bytes (compact JSON) the values inserted by `add` and `copy` may add up to in one
/// patch. Kubernetes stores objects of at most 1.5 MiB, so no real patch comes near.
pub const MAX_PATCH_GROWTH: u64 = 16 << 20;
/// The same, summed over every patch applied to one object (merge patches count their size).
pub const MAX_OBJECT_GROWTH: u64 = 64 << 20;

/// The compact JSON size of `v`, or `None` once it is past `max` (measuring stops there, so a
/// huge value costs no more than `max` to refuse).
pub fn json_size_within(v: &Value, max: u64) -> Option<u64> {
    struct Count {
        n: u64,
        max: u64,
    }
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.n = self.n.saturating_add(buf.len() as u64);
            if self.n > self.max {
                return Err(std::io::Error::other("too large"));
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count { n: 0, max };
    serde_json::to_writer(&mut c, v).ok()?;
    Some(c.n)
}

/// What `add` and `copy` may still insert while one patch is applied to one object.
#[derive(Debug)]
struct Growth<'a> {
    /// Bytes inserted by this patch so far.
    patch: u64,
    /// Bytes inserted into the object by all its patches so far (this one included).
    object: &'a mut u64,
}

impl Growth<'_> {
    /// Count `v`, inserted by `op`, or refuse it naming the limit it would pass.
    fn take(&mut self, op: &str, v: &Value) -> Result<(), String> {
        let patch_left = MAX_PATCH_GROWTH.saturating_sub(self.patch);
        let object_left = MAX_OBJECT_GROWTH.saturating_sub(*self.object);
        match json_size_within(v, patch_left.min(object_left)) {
            Some(n) => {
                self.patch += n;
                *self.object += n;
                Ok(())
            }
            None if patch_left <= object_left => Err(format!(
                "unable to {op}, the accumulated size increase of copy and add in this patch \
                 exceeds the limit {MAX_PATCH_GROWTH}"
            )),
            None => Err(format!(
                "unable to {op}, the accumulated size increase of copy and add by all patches \
                 of this template exceeds the limit {MAX_OBJECT_GROWTH}"
            )),
        }
    }
}

/// `jsonpatch.DecodePatch` of raw bytes.
pub fn decode_patch(bytes: &[u8]) -> Result<Patch, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    decode_patch_value(&v)
}

/// `jsonpatch.DecodePatch` of an already parsed document.
pub fn decode_patch_value(v: &Value) -> Result<Patch, String> {
    let items = match v {
        Value::Null => return Ok(Patch(Vec::new())),
        Value::Array(a) => a,
        other => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type jsonpatch.Patch",
                crate::go::json::kind_name(other)
            ));
        }
    };
    let mut ops = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::Object(m) => ops.push(m.clone()),
            // A null element decodes into a nil map (and then fails validation).
            Value::Null => ops.push(Map::new()),
            other => {
                return Err(format!(
                    "json: cannot unmarshal {} into Go value of type jsonpatch.Operation",
                    crate::go::json::kind_name(other)
                ));
            }
        }
    }
    for (op, raw) in ops.iter().zip(items) {
        if let Err(e) = validate_operation(op) {
            let shown = if raw.is_null() {
                "null".to_string()
            } else {
                gojson::marshal(raw)
            };
            return Err(format!("invalid operation {shown}: {e}"));
        }
    }
    Ok(Patch(ops))
}

/// `Operation.Kind`: the `op` string, `unknown` when absent or not a string.
fn kind(op: &Map<String, Value>) -> &str {
    op.get("op").and_then(Value::as_str).unwrap_or("unknown")
}

/// A string field (`path` or `from`); `what` is the missing-field text.
fn string_field<'a>(
    op: &'a Map<String, Value>,
    field: &str,
    missing: &str,
) -> Result<&'a str, String> {
    match op.get(field) {
        None | Some(Value::Null) => Err(format!("{missing}: {MISSING}")),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!(
            "json: cannot unmarshal {} into Go value of type string",
            crate::go::json::kind_name(other)
        )),
    }
}

fn path(op: &Map<String, Value>) -> Result<&str, String> {
    string_field(op, "path", "operation missing path field")
}

fn from(op: &Map<String, Value>) -> Result<&str, String> {
    string_field(op, "from", "operation, missing from field")
}

/// The operation's value: `None` when the field is absent.
fn value(op: &Map<String, Value>) -> Option<&Value> {
    op.get("value")
}

fn validate_operation(op: &Map<String, Value>) -> Result<(), String> {
    match kind(op) {
        "add" | "replace" => {
            if value(op).is_none() {
                return Err(format!(
                    "failed to decode 'value': operation, missing value field: {MISSING}"
                ));
            }
        }
        "move" | "copy" => {
            if let Err(e) = from(op) {
                return Err(format!("failed to decode 'from': {e}"));
            }
        }
        "remove" | "test" => {}
        _ => return Err("unsupported operation".into()),
    }
    if let Err(e) = path(op) {
        return Err(format!("failed to decode 'path': {e}"));
    }
    Ok(())
}

/// RFC 6901 token decoding in one left-to-right pass (`~1` → `/`, `~0` → `~`).
fn decode_key(k: &str) -> String {
    let mut out = String::with_capacity(k.len());
    let mut rest = k;
    while let Some(i) = rest.find('~') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(t) = tail.strip_prefix("~1") {
            out.push('/');
            rest = t;
        } else if let Some(t) = tail.strip_prefix("~0") {
            out.push('~');
            rest = t;
        } else {
            out.push('~');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Go's `strconv.Atoi`, with its error text.
pub(crate) fn atoi(s: &str) -> Result<i64, String> {
    let syntax = || format!("strconv.Atoi: parsing {}: invalid syntax", go_quote(s));
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax());
    }
    s.parse::<i64>()
        .map_err(|_| format!("strconv.Atoi: parsing {}: value out of range", go_quote(s)))
}

fn go_quote(s: &str) -> String {
    crate::go::strconv::quote(s, false)
}

/// Where an operation lands: the parent container (by its pointer inside the document) and
/// the decoded last token.
fn find_parent(doc: &Value, path: &str) -> Option<(Vec<String>, String)> {
    let split: Vec<&str> = path.split('/').collect();
    if split.len() < 2 {
        return None;
    }
    let parts = &split[1..split.len() - 1];
    let key = decode_key(split[split.len() - 1]);
    let mut cur = doc;
    let mut trail = Vec::with_capacity(parts.len());
    for part in parts {
        let k = decode_key(part);
        let next = get(cur, &k).ok()?;
        match next {
            Value::Object(_) | Value::Array(_) => {}
            _ => return None,
        }
        cur = next;
        trail.push(k);
    }
    Some((trail, key))
}

/// Follow decoded tokens already checked by [`find_parent`].
fn container_mut<'v>(doc: &'v mut Value, trail: &[String]) -> Option<&'v mut Value> {
    let mut cur = doc;
    for k in trail {
        cur = match cur {
            Value::Object(m) => m.get_mut(k)?,
            Value::Array(a) => {
                let i = array_index(a.len(), k).ok()?;
                a.get_mut(i)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

/// An existing element's index (negative indices count from the end).
fn array_index(len: usize, key: &str) -> Result<usize, String> {
    let idx = atoi(key)?;
    let len = len as i64;
    let mut i = idx;
    if i < 0 {
        if i < -len {
            return Err(format!(
                "Unable to access invalid index: {idx}: {INVALID_INDEX}"
            ));
        }
        i += len;
    }
    if i >= len {
        return Err(format!(
            "Unable to access invalid index: {i}: {INVALID_INDEX}"
        ));
    }
    usize::try_from(i).map_err(|_| format!("Unable to access invalid index: {i}: {INVALID_INDEX}"))
}

/// The container's `get`: `Err` carries the library's text; `Ok(None)`-like missing keys of an
/// object are an error whose cause is "missing value".
fn get<'v>(c: &'v Value, key: &str) -> Result<&'v Value, GetError> {
    match c {
        Value::Object(m) => m.get(key).ok_or_else(|| {
            GetError::Missing(format!("unable to get nonexistent key: {key}: {MISSING}"))
        }),
        Value::Array(a) => {
            let i = array_index(a.len(), key).map_err(GetError::Other)?;
            a.get(i)
                .ok_or_else(|| GetError::Other(format!("Unable to access invalid index: {i}")))
        }
        _ => Err(GetError::Other(MISSING.into())),
    }
}

enum GetError {
    /// Cause is `ErrMissing`.
    Missing(String),
    /// Anything else.
    Other(String),
}

impl GetError {
    fn text(self) -> String {
        match self {
            GetError::Missing(s) | GetError::Other(s) => s,
        }
    }
}

fn add_to(c: &mut Value, key: &str, val: Value) -> Result<(), String> {
    match c {
        Value::Object(m) => {
            m.insert(key.to_string(), val);
            Ok(())
        }
        Value::Array(a) => {
            if key == "-" {
                a.push(val);
                return Ok(());
            }
            let idx = atoi(key)
                .map_err(|e| format!("value was not a proper array index: '{key}': {e}"))?;
            let sz = a.len() as i64 + 1;
            let invalid = || format!("Unable to access invalid index: {idx}: {INVALID_INDEX}");
            if idx >= sz {
                return Err(invalid());
            }
            let mut i = idx;
            if i < 0 {
                if i < -sz {
                    return Err(invalid());
                }
                i += sz;
            }
            let i = usize::try_from(i).map_err(|_| invalid())?;
            a.insert(i.min(a.len()), val);
            Ok(())
        }
        _ => Err(MISSING.into()),
    }
}

fn remove_from(c: &mut Value, key: &str) -> Result<Value, String> {
    match c {
        Value::Object(m) => m
            .remove(key)
            .ok_or_else(|| format!("unable to remove nonexistent key: {key}: {MISSING}")),
        Value::Array(a) => {
            let idx = atoi(key)?;
            let len = a.len() as i64;
            let invalid = || format!("Unable to access invalid index: {idx}: {INVALID_INDEX}");
            if idx >= len {
                return Err(invalid());
            }
            let mut i = idx;
            if i < 0 {
                if i < -len {
                    return Err(invalid());
                }
                i += len;
            }
            let i = usize::try_from(i).map_err(|_| invalid())?;
            if i >= a.len() {
                return Err(invalid());
            }
            Ok(a.remove(i))
        }
        _ => Err(MISSING.into()),
    }
}

/// Apply `patch` to `doc` as `Patch.Apply` does; the result is the new document.
pub fn apply(patch: &Patch, doc: &Value) -> Result<Value, String> {
    apply_bounded(patch, doc, &mut 0)
}

/// [`apply`] to an object whose earlier patches inserted `grown` bytes (updated): `add` and
/// `copy` values are refused past [`MAX_PATCH_GROWTH`] for this patch or
/// [`MAX_OBJECT_GROWTH`] for the object.
pub fn apply_bounded(patch: &Patch, doc: &Value, grown: &mut u64) -> Result<Value, String> {
    let mut doc = doc.clone();
    let mut growth = Growth {
        patch: 0,
        object: grown,
    };
    for op in &patch.0 {
        match kind(op) {
            "add" => op_add(&mut doc, op, &mut growth)?,
            "remove" => op_remove(&mut doc, op)?,
            "replace" => op_replace(&mut doc, op)?,
            "move" => op_move(&mut doc, op)?,
            "test" => op_test(&doc, op)?,
            "copy" => op_copy(&mut doc, op, &mut growth)?,
            other => return Err(format!("Unexpected kind: {other}")),
        }
    }
    Ok(doc)
}

fn locate<'v>(doc: &'v mut Value, path: &str) -> Option<(&'v mut Value, String)> {
    let (trail, key) = find_parent(doc, path)?;
    let c = container_mut(doc, &trail)?;
    Some((c, key))
}

fn op_add(doc: &mut Value, op: &Map<String, Value>, growth: &mut Growth) -> Result<(), String> {
    let p = path(op).map_err(|_| format!("add operation failed to decode path: {MISSING}"))?;
    let val = value(op).cloned().unwrap_or(Value::Null);
    growth
        .take("add", &val)
        .map_err(|e| format!("error in add for path: '{p}': {e}"))?;
    let Some((c, key)) = locate(doc, p) else {
        return Err(format!(
            "add operation does not apply: doc is missing path: \"{p}\": {MISSING}"
        ));
    };
    add_to(c, &key, val).map_err(|e| format!("error in add for path: '{p}': {e}"))
}

fn op_remove(doc: &mut Value, op: &Map<String, Value>) -> Result<(), String> {
    let p = path(op).map_err(|_| format!("remove operation failed to decode path: {MISSING}"))?;
    let Some((c, key)) = locate(doc, p) else {
        return Err(format!(
            "remove operation does not apply: doc is missing path: \"{p}\": {MISSING}"
        ));
    };
    remove_from(c, &key)
        .map(|_| ())
        .map_err(|e| format!("error in remove for path: '{p}': {e}"))
}

fn op_replace(doc: &mut Value, op: &Map<String, Value>) -> Result<(), String> {
    let p = path(op).map_err(|e| format!("replace operation failed to decode path: {e}"))?;
    let val = value(op).cloned().unwrap_or(Value::Null);
    if p.is_empty() {
        // Only an object or array replaces the document; anything else is silently ignored
        // (the library wraps a nil error).
        if val.is_object() || val.is_array() {
            *doc = val;
        }
        return Ok(());
    }
    let Some((c, key)) = locate(doc, p) else {
        return Err(format!(
            "replace operation does not apply: doc is missing path: {p}: {MISSING}"
        ));
    };
    if get(c, &key).is_err() {
        return Err(format!(
            "replace operation does not apply: doc is missing key: {p}: {MISSING}"
        ));
    }
    match c {
        Value::Object(m) => {
            m.insert(key, val);
        }
        Value::Array(a) => {
            let i = array_index(a.len(), &key)
                .map_err(|e| format!("error in remove for path: '{p}': {e}"))?;
            if let Some(slot) = a.get_mut(i) {
                *slot = val;
            }
        }
        _ => {}
    }
    Ok(())
}

fn op_move(doc: &mut Value, op: &Map<String, Value>) -> Result<(), String> {
    let f = from(op).map_err(|e| format!("move operation failed to decode from: {e}"))?;
    let Some((c, key)) = locate(doc, f) else {
        return Err(format!(
            "move operation does not apply: doc is missing from path: {f}: {MISSING}"
        ));
    };
    if let Err(e) = get(c, &key) {
        return Err(format!("error in move for path: '{key}': {}", e.text()));
    }
    let val = remove_from(c, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let p = path(op).map_err(|e| format!("move operation failed to decode path: {e}"))?;
    let Some((c, key)) = locate(doc, p) else {
        return Err(format!(
            "move operation does not apply: doc is missing destination path: {p}: {MISSING}"
        ));
    };
    add_to(c, &key, val).map_err(|e| format!("error in move for path: '{p}': {e}"))
}

fn op_copy(doc: &mut Value, op: &Map<String, Value>, growth: &mut Growth) -> Result<(), String> {
    let f = from(op).map_err(|e| format!("copy operation failed to decode from: {e}"))?;
    let Some((trail, key)) = find_parent(doc, f) else {
        return Err(format!(
            "copy operation does not apply: doc is missing from path: {f}: {MISSING}"
        ));
    };
    let val = {
        let c = container_mut(doc, &trail).map(|c| &*c);
        match c.map(|c| get(c, &key)) {
            // Measured before it is cloned: the copy may be what doubles the document.
            Some(Ok(v)) => {
                growth.take("copy", v)?;
                v.clone()
            }
            Some(Err(e)) => {
                return Err(format!("error in copy for from: '{f}': {}", e.text()));
            }
            None => {
                return Err(format!(
                    "copy operation does not apply: doc is missing from path: {f}: {MISSING}"
                ));
            }
        }
    };
    let p = path(op).map_err(|_| format!("copy operation failed to decode path: {MISSING}"))?;
    let Some((c, key)) = locate(doc, p) else {
        return Err(format!(
            "copy operation does not apply: doc is missing destination path: {p}: {MISSING}"
        ));
    };
    add_to(c, &key, val).map_err(|e| format!("error while adding value during copy: {e}"))
}

fn op_test(doc: &Value, op: &Map<String, Value>) -> Result<(), String> {
    let p = path(op).map_err(|e| format!("test operation failed to decode path: {e}"))?;
    let failed = || format!("testing value {p} failed: test failed");
    let want = value(op);
    if p.is_empty() {
        return if want == Some(doc) {
            Ok(())
        } else {
            Err(failed())
        };
    }
    let Some((trail, key)) = find_parent(doc, p) else {
        return Err(format!(
            "test operation does not apply: is missing path: {p}: {MISSING}"
        ));
    };
    let mut c = doc;
    for k in &trail {
        c = match get(c, k) {
            Ok(v) => v,
            Err(_) => return Err(failed()),
        };
    }
    match get(c, &key) {
        Ok(v) => match want {
            Some(w) if w == v => Ok(()),
            _ => Err(failed()),
        },
        // A missing key passes against an absent or null value.
        Err(GetError::Missing(_)) => match want {
            None | Some(Value::Null) => Ok(()),
            Some(_) => Err(failed()),
        },
        Err(GetError::Other(e)) => Err(format!("error in test for path: '{p}': {e}")),
    }
}

/// `jsonpatch.MergePatch(doc, patch)` on parsed values.
pub fn merge_patch(doc: &Value, patch: &Value) -> Result<Value, String> {
    if doc.is_null() {
        return Err("Invalid JSON Document".into());
    }
    match (doc, patch) {
        (_, Value::Null) => Err("Invalid JSON Patch".into()),
        (Value::Object(d), Value::Object(p)) => {
            let mut out = d.clone();
            merge_docs(&mut out, p);
            Ok(Value::Object(out))
        }
        (_, Value::Object(p)) => {
            let mut v = Value::Object(p.clone());
            prune_nulls(&mut v);
            Ok(v)
        }
        (_, Value::Array(_)) => {
            let mut v = patch.clone();
            prune_nulls(&mut v);
            Ok(v)
        }
        _ => Err("Invalid JSON Patch".into()),
    }
}

fn merge_docs(doc: &mut Map<String, Value>, patch: &Map<String, Value>) {
    for (k, v) in patch {
        if v.is_null() {
            doc.remove(k);
            continue;
        }
        match doc.get_mut(k) {
            Some(cur) if !cur.is_null() => merge_value(cur, v),
            _ => {
                let mut v = v.clone();
                prune_nulls(&mut v);
                doc.insert(k.clone(), v);
            }
        }
    }
}

fn merge_value(cur: &mut Value, patch: &Value) {
    match (cur, patch) {
        (Value::Object(c), Value::Object(p)) => merge_docs(c, p),
        (cur @ Value::Object(_), p) => *cur = p.clone(),
        (cur, p) => {
            let mut p = p.clone();
            prune_nulls(&mut p);
            *cur = p;
        }
    }
}

/// Drop null members of objects, recursively (nulls inside arrays stay).
fn prune_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            for x in m.values_mut() {
                prune_nulls(x);
            }
        }
        Value::Array(a) => {
            for x in a.iter_mut() {
                prune_nulls(x);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(doc: Value, patch: Value) -> Result<Value, String> {
        let p = decode_patch_value(&patch)?;
        apply(&p, &doc)
    }

    #[test]
    fn add_append_and_index() {
        assert_eq!(
            run(
                json!({"a":[1]}),
                json!([{"op":"add","path":"/a/-","value":2},{"op":"add","path":"/a/0","value":0}])
            ),
            Ok(json!({"a":[0,1,2]}))
        );
    }

    #[test]
    fn missing_parent() {
        assert_eq!(
            run(
                json!({"a":1}),
                json!([{"op":"add","path":"/b/c","value":1}])
            ),
            Err(
                "add operation does not apply: doc is missing path: \"/b/c\": missing value".into()
            )
        );
    }

    #[test]
    fn missing_paths_are_told_from_malformed_operations() {
        let missing = [
            json!([{"op":"add","path":"/b/c","value":1}]),
            json!([{"op":"remove","path":"/b"}]),
            json!([{"op":"replace","path":"/b","value":1}]),
            json!([{"op":"replace","path":"/b/c","value":1}]),
            json!([{"op":"move","from":"/b","path":"/c"}]),
            json!([{"op":"copy","from":"/b","path":"/c"}]),
            json!([{"op":"test","path":"/b/c","value":1}]),
        ];
        for p in missing {
            let e = run(json!({"a":1}), p.clone()).unwrap_err();
            assert!(is_missing_path(&e), "{p}: {e}");
        }
        let malformed = [
            json!([{"op":"add","path":"/a"}]),
            json!([{"op":"bogus","path":"/a"}]),
            json!([{"op":"test","path":"/a","value":2}]),
        ];
        for p in malformed {
            let e = run(json!({"a":1}), p.clone()).unwrap_err();
            assert!(!is_missing_path(&e), "{p}: {e}");
        }
    }

    #[test]
    fn decode_errors() {
        assert_eq!(
            run(json!({}), json!([{"op":"bogus","path":"/a"}])),
            Err(
                "invalid operation {\"op\":\"bogus\",\"path\":\"/a\"}: unsupported operation"
                    .into()
            )
        );
        assert_eq!(
            run(json!({}), json!({"op":"add"})),
            Err("json: cannot unmarshal object into Go value of type jsonpatch.Patch".into())
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(decode_key("a~1b~0c~01"), "a/b~c~1");
    }

    #[test]
    fn doubling_copies_are_bounded_per_patch_and_object() {
        let mut ops = vec![json!({"op": "add", "path": "/a", "value": ["0123456789"]})];
        for _ in 0..40 {
            ops.push(json!({"op": "copy", "from": "/a", "path": "/a/-"}));
        }
        let patch = decode_patch_value(&Value::Array(ops)).unwrap();
        let err = apply(&patch, &json!({})).unwrap_err();
        assert_eq!(
            err,
            "unable to copy, the accumulated size increase of copy and add in this patch \
             exceeds the limit 16777216"
        );
        // Small patches pass, each counted towards the object.
        let small = decode_patch_value(&json!([
            {"op": "add", "path": "/b", "value": "xxxx"},
            {"op": "copy", "from": "/b", "path": "/c"}
        ]))
        .unwrap();
        let mut grown = 0;
        let out = apply_bounded(&small, &json!({}), &mut grown).unwrap();
        assert_eq!(out, json!({"b": "xxxx", "c": "xxxx"}));
        assert_eq!(grown, 12);
        // An object close to its bound refuses the next insertion, naming the object's bound.
        let mut grown = MAX_OBJECT_GROWTH - 5;
        let err = apply_bounded(&small, &json!({}), &mut grown).unwrap_err();
        assert_eq!(
            err,
            "error in add for path: '/b': unable to add, the accumulated size increase of copy \
             and add by all patches of this template exceeds the limit 67108864"
        );
    }

    #[test]
    fn json_size_stops_at_the_bound() {
        let v = json!({"a": [1, "two", null]});
        assert_eq!(json_size_within(&v, 100), Some(20));
        assert_eq!(json_size_within(&v, 20), Some(20));
        assert_eq!(json_size_within(&v, 19), None);
    }

    #[test]
    fn merge() {
        assert_eq!(
            merge_patch(
                &json!({"a":{"b":1,"c":2}}),
                &json!({"a":{"b":null,"d":{"e":null}}})
            ),
            Ok(json!({"a":{"c":2,"d":{}}}))
        );
    }
}
