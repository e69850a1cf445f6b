/*!
Answers applied to requests, for comparing what patches *do* rather than their bytes: the
resulting templates of a GeneratePatches answer (as the engine applies it, keeping what Cluster
API keeps), the raw result of one patch (everything it changed), and where two JSON values
first differ.

Walks of input values are bounded in depth ([`MAX_DEPTH`]) and in the number of paths they
report ([`MAX_PATHS`]).
*/

use std::collections::BTreeMap;

use serde_json::Value;

use crate::patches::engine::apply_response;
use crate::patches::external::Generated;
use crate::patches::generator::{PatchType, ResponseItem};
use crate::patches::jsonpatch;
use crate::patches::request::Request;
use crate::runtime::{GeneratePatchesRequest, GeneratePatchesResponseItem};

/// Deeper than this, two values that differ are reported at this depth.
pub const MAX_DEPTH: usize = 64;
/// The most changed paths reported for one template.
pub const MAX_PATHS: usize = 32;

/// The templates (by uid) after applying `items` to `request` as the engine does, or the
/// engine's error.
pub fn resulting(
    request: &Request,
    items: &[GeneratePatchesResponseItem],
) -> Result<BTreeMap<String, Value>, String> {
    let mut req = request.clone();
    for item in items {
        let decoded = Generated(item.clone()).decode()?;
        if let Some(r) = decoded {
            apply_response(&mut req, std::slice::from_ref(&r)).map_err(|(e, at)| match at {
                Some(t) => format!("{e} ({t})"),
                None => e,
            })?;
        }
    }
    Ok(req.items.into_iter().map(|i| (i.uid, i.object)).collect())
}

/// `request` with its templates replaced by `templates` (by uid), in the engine's and the wire
/// forms: what Cluster API would send once the patches applied.
pub fn with_templates(
    request: &Request,
    wire: &GeneratePatchesRequest,
    templates: &BTreeMap<String, Value>,
) -> (Request, GeneratePatchesRequest) {
    let mut req = request.clone();
    for i in &mut req.items {
        if let Some(t) = templates.get(&i.uid) {
            i.object = t.clone();
            i.grown = 0;
        }
    }
    let mut w = wire.clone();
    for i in &mut w.items {
        if let Some(t) = templates.get(&i.uid) {
            i.object = t.clone();
        }
    }
    (req, w)
}

/// A decoded patch applied to `template` whole (nothing dropped), or why it does not apply.
pub fn apply_raw(patch: &ResponseItem, template: &Value) -> Result<Value, String> {
    match patch.patch_type {
        PatchType::JsonPatch => {
            let p = jsonpatch::decode_patch_value(&patch.patch)
                .map_err(|e| format!("error decoding json patch (RFC6902): {e}"))?;
            jsonpatch::apply(&p, template)
                .map_err(|e| format!("error applying json patch (RFC6902): {e}"))
        }
        PatchType::JsonMergePatch => jsonpatch::merge_patch(template, &patch.patch)
            .map_err(|e| format!("error applying json merge patch (RFC7386): {e}")),
    }
}

/// The JSON pointers where `a` and `b` differ (the shallowest differing value each), at most
/// [`MAX_PATHS`].
pub fn changed_paths(a: &Value, b: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(a, b, &mut String::new(), 0, &mut out);
    out
}

fn walk(a: &Value, b: &Value, at: &mut String, depth: usize, out: &mut Vec<String>) {
    if out.len() >= MAX_PATHS || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if depth < MAX_DEPTH => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let len = at.len();
                at.push('/');
                at.push_str(&k.replace('~', "~0").replace('/', "~1"));
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => walk(p, q, at, depth + 1, out),
                    _ => {
                        if out.len() < MAX_PATHS {
                            out.push(at.clone());
                        }
                    }
                }
                at.truncate(len);
            }
        }
        _ => out.push(if at.is_empty() {
            "/".into()
        } else {
            at.clone()
        }),
    }
}

/// The first path where `a` and `b` differ, if any.
pub fn first_difference(a: &Value, b: &Value) -> Option<String> {
    changed_paths(a, b).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn changed_paths_are_the_shallowest_differences() {
        let a = json!({"spec": {"x": 1, "l": [1, 2]}, "metadata": {"name": "n"}});
        let b = json!({"spec": {"x": 2, "l": [1, 2, 3], "y/z": 0}, "metadata": {"name": "n"}});
        assert_eq!(changed_paths(&a, &b), ["/spec/l", "/spec/x", "/spec/y~1z"]);
        assert!(changed_paths(&a, &a).is_empty());
        assert_eq!(first_difference(&json!(1), &json!(2)).as_deref(), Some("/"));
    }
}
