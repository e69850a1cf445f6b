/*!
The apply itself: what an object looks like after `capi-topology` server-side applies an intent
with force, and whether the apply changes what `capi-topology` owns. The same merge serves any
other field manager's apply ([`apply_as`]: the user's own apply of a file).

Owns the merge (mappings merged key by key, lists replaced unless the list type says map or set)
and the removal of fields `capi-topology` applied before, no longer sends, and nobody else owns.
List types come from [`ListTypes`], then from the object's own ownership records. Without a
`capi-topology` record nothing is removed: the dropped-field case is then missed, as upstream's
own offline helper documented (see [`super::managed_fields::has_topology_managed_fields`]).
*/

use serde_json::{Map, Value};

use super::lists::{ITEM, ListType, ListTypes};
use super::managed_fields::{
    CONVERSION_DATA_ANNOTATION, DRY_RUN_ANNOTATION, Element, FieldSet, Ownership, TOPOLOGY_MANAGER,
    element_text, entry_key, inferred_list_types, intent_fields,
};

/// Values nest this deep only by accident or malice; below it, the intent replaces wholesale
/// instead of recursing further.
const MAX_DEPTH: usize = 512;

/// The list-type oracle for one object: explicit types first, then what the records reveal.
struct Oracle<'a> {
    lists: &'a ListTypes,
    api_version: String,
    kind: String,
    inferred: Vec<(Vec<String>, ListType)>,
}

impl Oracle<'_> {
    fn list_type(&self, path: &[String]) -> Option<ListType> {
        self.lists
            .lookup(&self.api_version, &self.kind, path)
            .cloned()
            .or_else(|| {
                self.inferred
                    .iter()
                    .find(|(p, _)| p == path)
                    .map(|(_, t)| t.clone())
            })
    }
}

fn oracle<'a>(
    current: &Value,
    intent: &Value,
    lists: &'a ListTypes,
    ownership: &Ownership,
) -> Oracle<'a> {
    let field = |name: &str| {
        intent
            .get(name)
            .or_else(|| current.get(name))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    Oracle {
        lists,
        api_version: field("apiVersion"),
        kind: field("kind"),
        inferred: inferred_list_types(ownership),
    }
}

/// `current` after `capi-topology` applies `intent` with force: the intent merged in, then the
/// fields `capi-topology` owned (per `current`'s managedFields) that the intent no longer sets
/// and no other manager owns removed. `metadata.managedFields` is left as it was; whether the
/// ownership changes is [`ownership_changed`]'s question. A `current` or `intent` that is not a
/// mapping yields `current` unchanged.
pub fn apply(current: &Value, intent: &Value, lists: &ListTypes) -> Value {
    apply_as(current, intent, lists, TOPOLOGY_MANAGER)
}

/// [`apply`] by another field manager: `current` after `manager` applies `intent`, removing what
/// `manager` applied before and no longer sends (the user's `kubectl apply --server-side` of a
/// file, say).
pub fn apply_as(current: &Value, intent: &Value, lists: &ListTypes, manager: &str) -> Value {
    if !current.is_object() || !intent.is_object() {
        return current.clone();
    }
    let ownership = Ownership::of_applier(current, manager);
    let oracle = oracle(current, intent, lists, &ownership);
    let mut path = Vec::new();
    let mut after = merge(current, intent, &mut path, &oracle, 0);
    // Removal needs to know every other owner: one unreadable record could be the one that
    // keeps a field, so unreadable records disable removal entirely.
    if let (Some(applied), false) = (&ownership.applier, ownership.malformed) {
        remove_dropped(
            &mut after,
            applied,
            Some(intent),
            Some(&ownership.others),
            0,
        );
        restore_identity(&mut after, current);
    }
    after
}

/// The server never records identity fields as owned, so a record claiming them is bogus; keep
/// them as they are rather than let a removal touch them.
fn restore_identity(after: &mut Value, current: &Value) {
    let Some(obj) = after.as_object_mut() else {
        return;
    };
    for field in ["apiVersion", "kind"] {
        if let Some(v) = current.get(field) {
            obj.insert(field.to_string(), v.clone());
        }
    }
    let Some(current_meta) = current.get("metadata").and_then(Value::as_object) else {
        return;
    };
    let meta = obj
        .entry("metadata".to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    if let Some(meta) = meta.as_object_mut() {
        for field in ["name", "namespace", "uid"] {
            if let Some(v) = current_meta.get(field) {
                meta.insert(field.to_string(), v.clone());
            }
        }
    }
}

/// Whether applying `intent` changes what `capi-topology` owns in `current`: the server then
/// rewrites managedFields, which upstream counts as a (metadata-only) change even when no value
/// changes — e.g. the template starts setting a field another manager already set to the same
/// value. `false` when `current` records no ownership at all or a record cannot be read
/// (unknown, so no claim).
pub fn ownership_changed(current: &Value, intent: &Value, lists: &ListTypes) -> bool {
    let ownership = Ownership::of(current);
    if !ownership.recorded || ownership.malformed {
        return false;
    }
    let oracle = oracle(current, intent, lists, &ownership);
    let mut applied = intent_fields(intent, &|p| oracle.list_type(p));
    // Upstream strips these annotations from both records before comparing.
    for key in [DRY_RUN_ANNOTATION, CONVERSION_DATA_ANNOTATION] {
        applied.remove_path(&[
            Element::Field("metadata".into()),
            Element::Field("annotations".into()),
            Element::Field(key.into()),
        ]);
    }
    let before = ownership.applier.unwrap_or_default();
    before.leaves() != applied.leaves()
}

fn merge(
    current: &Value,
    intent: &Value,
    path: &mut Vec<String>,
    oracle: &Oracle,
    depth: usize,
) -> Value {
    if depth > MAX_DEPTH {
        return intent.clone();
    }
    match (current, intent) {
        (Value::Object(c), Value::Object(i)) => {
            let mut out = c.clone();
            for (key, iv) in i {
                path.push(key.clone());
                let merged = match c.get(key) {
                    Some(cv) => merge(cv, iv, path, oracle, depth + 1),
                    None => iv.clone(),
                };
                path.pop();
                out.insert(key.clone(), merged);
            }
            Value::Object(out)
        }
        (Value::Array(c), Value::Array(i)) => match oracle.list_type(path) {
            Some(ListType::Map(keys)) => match merge_map_list(c, i, &keys, path, oracle, depth) {
                Some(merged) => Value::Array(merged),
                // Entries the server could not key (not mappings, duplicate keys): it would
                // reject the apply; the closest honest answer is the applier's list.
                None => intent.clone(),
            },
            Some(ListType::Set) => {
                let mut out = c.clone();
                for item in i {
                    if !out.contains(item) {
                        out.push(item.clone());
                    }
                }
                Value::Array(out)
            }
            Some(ListType::Atomic) | None => intent.clone(),
        },
        _ => intent.clone(),
    }
}

/// Keys of every entry, or `None` when an entry is not a mapping or two entries share a key.
fn keyed(items: &[Value], keys: &[String]) -> Option<Vec<Map<String, Value>>> {
    let mut out: Vec<Map<String, Value>> = Vec::with_capacity(items.len());
    for item in items {
        if !item.is_object() {
            return None;
        }
        let k = entry_key(item, keys);
        if out.contains(&k) {
            return None;
        }
        out.push(k);
    }
    Some(out)
}

/// Current entries keep their place (merged with the intent's entry of the same key); entries
/// only the intent has are appended in the intent's order.
fn merge_map_list(
    current: &[Value],
    intent: &[Value],
    keys: &[String],
    path: &mut Vec<String>,
    oracle: &Oracle,
    depth: usize,
) -> Option<Vec<Value>> {
    let current_keys = keyed(current, keys)?;
    let intent_keys = keyed(intent, keys)?;
    path.push(ITEM.to_string());
    let mut out = Vec::with_capacity(current.len() + intent.len());
    for (entry, key) in current.iter().zip(&current_keys) {
        match intent_keys.iter().position(|k| k == key) {
            Some(pos) => match intent.get(pos) {
                Some(ie) => out.push(merge(entry, ie, path, oracle, depth + 1)),
                None => out.push(entry.clone()),
            },
            None => out.push(entry.clone()),
        }
    }
    for (entry, key) in intent.iter().zip(&intent_keys) {
        if !current_keys.contains(key) {
            out.push(entry.clone());
        }
    }
    path.pop();
    Some(out)
}

/// Whether another manager owns `set` or anything beneath it.
fn co_owned(set: Option<&FieldSet>) -> bool {
    set.is_some_and(|s| !s.is_empty())
}

/// Remove from `after` what `owned` (capi-topology's previous apply) holds, `intent` no longer
/// sets and `others` do not own. Containers this empties are removed too, unless the intent
/// sets them (the server's handling of emptied parents has varied between releases; dropping
/// them keeps the result free of `{}` leftovers the user never wrote).
fn remove_dropped(
    after: &mut Value,
    owned: &FieldSet,
    intent: Option<&Value>,
    others: Option<&FieldSet>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    // Looked up once per owned child: an index keeps that linear when both sides own many.
    let others_index = others.map(FieldSet::child_index);
    for (element, owned_child) in &owned.children {
        let others_child = others_index
            .as_ref()
            .and_then(|o| o.get(&element_text(element)).copied());
        match element {
            Element::Field(name) => {
                let Some(map) = after.as_object_mut() else {
                    continue;
                };
                let intent_child = intent.and_then(|i| i.get(name));
                if intent_child.is_none()
                    && !co_owned(others_child)
                    && owned_child.children.is_empty()
                {
                    map.remove(name);
                    continue;
                }
                if owned_child.children.is_empty() {
                    continue;
                }
                let Some(child) = map.get_mut(name) else {
                    continue;
                };
                let was_empty = is_empty_container(child);
                remove_dropped(child, owned_child, intent_child, others_child, depth + 1);
                if intent_child.is_none() && !was_empty && is_empty_container(child) {
                    map.remove(name);
                }
            }
            Element::Key(key) => {
                let Some(items) = after.as_array_mut() else {
                    continue;
                };
                let key_names: Vec<String> = key.keys().cloned().collect();
                let intent_entry = intent.and_then(Value::as_array).and_then(|list| {
                    list.iter()
                        .find(|e| e.is_object() && entry_key(e, &key_names) == *key)
                });
                let Some(pos) = items
                    .iter()
                    .position(|e| e.is_object() && entry_key(e, &key_names) == *key)
                else {
                    continue;
                };
                if intent_entry.is_none() && !co_owned(others_child) {
                    items.remove(pos);
                    continue;
                }
                if let Some(entry) = items.get_mut(pos) {
                    remove_dropped(entry, owned_child, intent_entry, others_child, depth + 1);
                }
            }
            Element::Value(value) => {
                let Some(items) = after.as_array_mut() else {
                    continue;
                };
                let still_sent = intent
                    .and_then(Value::as_array)
                    .is_some_and(|list| list.contains(value));
                if !still_sent && !co_owned(others_child) {
                    items.retain(|v| v != value);
                }
            }
            // Positions are recorded only for non-apply updates; nothing to undo for an apply.
            Element::Index(_) => {}
        }
    }
}

fn is_empty_container(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn lists() -> ListTypes {
        ListTypes::builtin()
    }

    #[test]
    fn merge_cases() {
        // (current, intent, expected after) — no managedFields, so nothing is removed.
        let cases: Vec<(&str, Value, Value, Value)> = vec![
            (
                "maps merge key by key",
                json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "spec": {"x": 1}}),
                json!({"metadata": {"labels": {"a": "9"}}, "spec": {"y": 2}}),
                json!({"metadata": {"labels": {"a": "9", "b": "2"}}, "spec": {"x": 1, "y": 2}}),
            ),
            (
                "plain lists are replaced",
                json!({"spec": {"l": [1, 2, 3]}}),
                json!({"spec": {"l": [4]}}),
                json!({"spec": {"l": [4]}}),
            ),
            (
                "scalar replaced by mapping",
                json!({"spec": {"x": 1}}),
                json!({"spec": {"x": {"a": 1}}}),
                json!({"spec": {"x": {"a": 1}}}),
            ),
            (
                "owner references merge by uid, order kept",
                json!({"kind": "K", "metadata": {"ownerReferences": [{"uid": "a", "name": "x"}, {"uid": "b", "name": "y"}]}}),
                json!({"kind": "K", "metadata": {"ownerReferences": [{"uid": "c", "name": "z"}, {"uid": "b", "name": "y2"}]}}),
                json!({"kind": "K", "metadata": {"ownerReferences": [{"uid": "a", "name": "x"}, {"uid": "b", "name": "y2"}, {"uid": "c", "name": "z"}]}}),
            ),
            (
                "duplicate keys fall back to the intent's list",
                json!({"metadata": {"ownerReferences": [{"uid": "a"}, {"uid": "a", "x": 1}]}}),
                json!({"metadata": {"ownerReferences": [{"uid": "b"}]}}),
                json!({"metadata": {"ownerReferences": [{"uid": "b"}]}}),
            ),
            (
                "non-mapping entries fall back to the intent's list",
                json!({"metadata": {"ownerReferences": ["x"]}}),
                json!({"metadata": {"ownerReferences": [{"uid": "b"}]}}),
                json!({"metadata": {"ownerReferences": [{"uid": "b"}]}}),
            ),
        ];
        for (name, current, intent, want) in cases {
            assert_eq!(apply(&current, &intent, &lists()), want, "{name}");
        }
    }

    #[test]
    fn non_objects_are_left_alone() {
        for (current, intent) in [
            (json!(1), json!({})),
            (json!({"a": 1}), json!([1])),
            (json!(null), json!(null)),
        ] {
            assert_eq!(apply(&current, &intent, &lists()), current);
        }
    }

    #[test]
    fn dropped_fields() {
        let topo = |f: Value| json!({"manager": "capi-topology", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": f});
        let other = |f: Value| json!({"manager": "other", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": f});
        let obj = |spec: Value, mf: Value| json!({"apiVersion": "x.io/v1", "kind": "W", "metadata": {"name": "n", "managedFields": mf}, "spec": spec});
        // (name, current spec, managedFields, intent spec, expected spec)
        let cases: Vec<(&str, Value, Value, Value, Value)> = vec![
            (
                "owned leaf dropped",
                json!({"a": 1, "b": 2}),
                json!([topo(json!({"f:spec": {"f:a": {}, "f:b": {}}}))]),
                json!({"a": 1}),
                json!({"a": 1}),
            ),
            (
                "co-owned leaf kept",
                json!({"a": 1, "b": 2}),
                json!([
                    topo(json!({"f:spec": {"f:a": {}, "f:b": {}}})),
                    other(json!({"f:spec": {"f:b": {}}}))
                ]),
                json!({"a": 1}),
                json!({"a": 1, "b": 2}),
            ),
            (
                "unowned field kept",
                json!({"a": 1, "c": 3}),
                json!([topo(json!({"f:spec": {"f:a": {}}}))]),
                json!({"a": 1}),
                json!({"a": 1, "c": 3}),
            ),
            (
                "emptied parent removed",
                json!({"a": 1, "p": {"q": 1}}),
                json!([topo(json!({"f:spec": {"f:a": {}, "f:p": {"f:q": {}}}}))]),
                json!({"a": 1}),
                json!({"a": 1}),
            ),
            (
                "parent with another's child kept",
                json!({"a": 1, "p": {"q": 1, "r": 2}}),
                json!([
                    topo(json!({"f:spec": {"f:a": {}, "f:p": {"f:q": {}}}})),
                    other(json!({"f:spec": {"f:p": {"f:r": {}}}}))
                ]),
                json!({"a": 1}),
                json!({"a": 1, "p": {"r": 2}}),
            ),
            (
                "list-map entry dropped, another's entry kept",
                json!({"ports": [{"name": "a", "v": 1}, {"name": "b", "v": 2}, {"name": "c", "v": 3}]}),
                json!([
                    topo(
                        json!({"f:spec": {"f:ports": {"k:{\"name\":\"a\"}": {".": {}, "f:name": {}, "f:v": {}}, "k:{\"name\":\"b\"}": {".": {}, "f:name": {}, "f:v": {}}}}})
                    ),
                    other(
                        json!({"f:spec": {"f:ports": {"k:{\"name\":\"c\"}": {".": {}, "f:name": {}, "f:v": {}}}}})
                    )
                ]),
                json!({"ports": [{"name": "a", "v": 1}]}),
                json!({"ports": [{"name": "a", "v": 1}, {"name": "c", "v": 3}]}),
            ),
            (
                "set value dropped, another's value kept",
                json!({"tags": ["x", "y", "z"]}),
                json!([
                    topo(json!({"f:spec": {"f:tags": {"v:\"x\"": {}, "v:\"y\"": {}}}})),
                    other(json!({"f:spec": {"f:tags": {"v:\"z\"": {}}}}))
                ]),
                json!({"tags": ["x"]}),
                json!({"tags": ["x", "z"]}),
            ),
            (
                "malformed other record disables removal",
                json!({"a": 1, "b": 2}),
                json!([
                    topo(json!({"f:spec": {"f:a": {}, "f:b": {}}})),
                    other(json!("junk"))
                ]),
                json!({"a": 1}),
                json!({"a": 1, "b": 2}),
            ),
            (
                "record of the wrong shape for the value is ignored",
                json!({"a": 1, "b": [1]}),
                json!([topo(
                    json!({"f:spec": {"f:a": {}, "f:b": {"f:c": {}, "k:{\"x\":1}": {}, "v:1": {}}}})
                )]),
                json!({"a": 1}),
                json!({"a": 1}),
            ),
        ];
        for (name, cur, mf, int, want) in cases {
            let current = obj(cur, mf);
            let intent = json!({"apiVersion": "x.io/v1", "kind": "W", "metadata": {"name": "n"}, "spec": int});
            let after = apply(&current, &intent, &lists());
            assert_eq!(after["spec"], want, "{name}");
        }
    }

    #[test]
    fn ownership_change_detection() {
        let obj = |mf: Value| json!({"apiVersion": "x.io/v1", "kind": "W", "metadata": {"name": "n", "managedFields": mf}, "spec": {"a": 1, "b": 2}});
        let intent = json!({"apiVersion": "x.io/v1", "kind": "W", "metadata": {"name": "n"}, "spec": {"a": 1, "b": 2}});
        let topo =
            |f: Value| json!([{"manager": "capi-topology", "operation": "Apply", "fieldsV1": f}]);
        let cases: Vec<(&str, Value, bool)> = vec![
            (
                "same fields",
                topo(json!({"f:spec": {".": {}, "f:a": {}, "f:b": {}}})),
                false,
            ),
            (
                "topology starts owning b",
                topo(json!({"f:spec": {"f:a": {}}})),
                true,
            ),
            ("no record at all: unknown", json!(null), false),
            (
                "only others recorded",
                json!([{"manager": "kubectl", "operation": "Update", "fieldsV1": {"f:spec": {"f:a": {}}}}]),
                true,
            ),
            ("unreadable: unknown", topo(json!({"nope": {}})), false),
        ];
        for (name, mf, want) in cases {
            assert_eq!(
                ownership_changed(&obj(mf), &intent, &lists()),
                want,
                "{name}"
            );
        }
    }
}
