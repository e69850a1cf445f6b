/*!
Field ownership read from `metadata.managedFields` (the `FieldsV1` format) and computed for an
apply intent.

Owns parsing `f:<field>`, `k:{json key}`, `v:<json value>`, `i:<index>` and `.` into a
[`FieldSet`] tree; splitting an object's ownership into what one applier (`capi-topology`, or
the user's own apply manager) applied and what everyone else owns; the field set server-side apply records for an intent; and the list types
the server's own ownership records reveal. Malformed input never panics: an unreadable entry
makes ownership unknown, and unknown ownership disables every removal (the safe direction).
*/

use serde_json::{Map, Value};

use super::lists::{ITEM, ListType};

/// The field manager the topology controller applies with.
pub const TOPOLOGY_MANAGER: &str = "capi-topology";
/// Annotation the dry-run adds and strips again; never part of a comparison.
pub const DRY_RUN_ANNOTATION: &str = "topology.cluster.x-k8s.io/dry-run";
/// Annotation conversion webhooks store lossy fields in; ignored by the comparison.
pub const CONVERSION_DATA_ANNOTATION: &str = "cluster.x-k8s.io/conversion-data";

/// One step of a managed-fields path.
#[derive(Debug, Clone, PartialEq)]
pub enum Element {
    /// `f:<name>`: a field of a struct or a key of a map.
    Field(String),
    /// `k:{...}`: the entry of a `listType=map` list whose key fields have these values.
    Key(Map<String, Value>),
    /// `v:<json>`: the entry of a `listType=set` list with this value.
    Value(Value),
    /// `i:<n>`: a list position (only in records of non-apply updates of atomic lists).
    Index(usize),
}

/// A tree of owned fields. A node is owned itself when `member` is set (`.` in the record, or a
/// leaf `{}`); its children are the owned fields beneath it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FieldSet {
    /// The node itself is owned.
    pub member: bool,
    /// Owned descendants.
    pub children: Vec<(Element, FieldSet)>,
}

/// Records nest as deep as objects; cap recursion so a hostile record cannot overflow the stack.
const MAX_DEPTH: usize = 256;

impl FieldSet {
    /// Parse a `fieldsV1` value. `None` when it is not well-formed.
    pub fn parse(v: &Value) -> Option<FieldSet> {
        parse_node(v, 0)
    }

    /// The child for `element`, if owned.
    #[cfg(test)]
    pub fn child(&self, element: &Element) -> Option<&FieldSet> {
        self.children
            .iter()
            .find(|(e, _)| e == element)
            .map(|(_, s)| s)
    }

    /// Whether nothing at all is owned here.
    pub fn is_empty(&self) -> bool {
        !self.member && self.children.is_empty()
    }

    /// Everything any of `sets` owns, children in first-seen order, in one pass: merging one
    /// set at a time would search the children gathered so far each time, quadratic in the
    /// entries of a record (30 s for 100,000 of them).
    pub fn union_all(sets: Vec<FieldSet>) -> FieldSet {
        let mut member = false;
        let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut groups: Vec<(Element, Vec<FieldSet>)> = Vec::new();
        for set in sets {
            member |= set.member;
            for (element, child) in set.children {
                match index.entry(element_text(&element)) {
                    std::collections::hash_map::Entry::Occupied(e) => {
                        if let Some((_, list)) = groups.get_mut(*e.get()) {
                            list.push(child);
                        }
                    }
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(groups.len());
                        groups.push((element, vec![child]));
                    }
                }
            }
        }
        FieldSet {
            member,
            children: groups
                .into_iter()
                .map(|(element, mut list)| {
                    let set = if list.len() == 1 {
                        list.pop().unwrap_or_default()
                    } else {
                        FieldSet::union_all(list)
                    };
                    (element, set)
                })
                .collect(),
        }
    }

    /// The children by element, for many lookups (a search of `children` is linear).
    pub fn child_index(&self) -> std::collections::HashMap<String, &FieldSet> {
        self.children
            .iter()
            .map(|(e, s)| (element_text(e), s))
            .collect()
    }

    /// Every owned leaf as a canonical string path. The `.` marker of a node with owned
    /// children is left out: whether the server records it depends on the operation and the
    /// type, not on what is owned, so comparing it would report differences that do not exist.
    pub fn leaves(&self) -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        let mut prefix = String::new();
        self.collect_leaves(&mut prefix, &mut out);
        out
    }

    fn collect_leaves(&self, prefix: &mut String, out: &mut std::collections::BTreeSet<String>) {
        if self.children.is_empty() {
            if !prefix.is_empty() {
                out.insert(prefix.clone());
            }
            return;
        }
        for (element, set) in &self.children {
            let len = prefix.len();
            prefix.push('/');
            prefix.push_str(&element_text(element));
            set.collect_leaves(prefix, out);
            prefix.truncate(len);
        }
    }

    /// Drop the ownership of one path (and of parents it leaves empty).
    pub fn remove_path(&mut self, path: &[Element]) {
        let Some((first, rest)) = path.split_first() else {
            return;
        };
        let Some(pos) = self.children.iter().position(|(e, _)| e == first) else {
            return;
        };
        if rest.is_empty() {
            self.children.remove(pos);
            return;
        }
        if let Some((_, child)) = self.children.get_mut(pos) {
            child.remove_path(rest);
            if child.children.is_empty() {
                self.children.remove(pos);
            }
        }
    }
}

pub(super) fn element_text(element: &Element) -> String {
    match element {
        Element::Field(f) => format!("f:{f}"),
        // serde_json's map is ordered by key, so this text is canonical.
        Element::Key(k) => format!("k:{}", Value::Object(k.clone())),
        Element::Value(v) => format!("v:{v}"),
        Element::Index(i) => format!("i:{i}"),
    }
}

fn parse_node(v: &Value, depth: usize) -> Option<FieldSet> {
    if depth > MAX_DEPTH {
        return None;
    }
    let map = v.as_object()?;
    let mut set = FieldSet {
        member: map.is_empty(),
        children: Vec::new(),
    };
    for (key, child) in map {
        if key == "." {
            set.member = true;
            continue;
        }
        let element = parse_element(key)?;
        let child = parse_node(child, depth + 1)?;
        set.children.push((element, child));
    }
    Some(set)
}

fn parse_element(key: &str) -> Option<Element> {
    let (prefix, rest) = key.split_at_checked(2)?;
    match prefix {
        "f:" => Some(Element::Field(rest.to_string())),
        "k:" => match serde_json::from_str::<Value>(rest).ok()? {
            Value::Object(m) => Some(Element::Key(m)),
            _ => None,
        },
        "v:" => serde_json::from_str::<Value>(rest).ok().map(Element::Value),
        "i:" => rest.parse::<usize>().ok().map(Element::Index),
        _ => None,
    }
}

/// Who owns what in an object, as its `metadata.managedFields` say.
#[derive(Debug, Clone, Default)]
pub struct Ownership {
    /// The object has a non-empty `metadata.managedFields` list at all.
    pub recorded: bool,
    /// What the applier (`capi-topology` unless [`Ownership::of_applier`] names another)
    /// applied (operation Apply, no subresource), minus the dry-run and conversion-data
    /// annotations the comparison ignores. `None` when there is no such entry or it could not
    /// be read.
    pub applier: Option<FieldSet>,
    /// What every other entry owns (other managers, and the applier's non-apply entries).
    pub others: FieldSet,
    /// Some entry could not be read: what others own is not fully known.
    pub malformed: bool,
}

impl Ownership {
    /// Read the ownership of `object`, with `capi-topology` as the applier.
    pub fn of(object: &Value) -> Ownership {
        Ownership::of_applier(object, TOPOLOGY_MANAGER)
    }

    /// Read the ownership of `object`, with `manager`'s apply as the applier's.
    pub fn of_applier(object: &Value, manager: &str) -> Ownership {
        let mut out = Ownership::default();
        let Some(entries) = object.pointer("/metadata/managedFields") else {
            return out;
        };
        let Some(entries) = entries.as_array() else {
            // Present but not a list: something is recorded, nothing can be read.
            out.recorded = true;
            out.malformed = true;
            return out;
        };
        out.recorded = !entries.is_empty();
        let mut applied: Vec<FieldSet> = Vec::new();
        let mut others: Vec<FieldSet> = Vec::new();
        let mut applier_malformed = false;
        for entry in entries {
            if !entry.is_object() {
                out.malformed = true;
                continue;
            }
            let operation = entry.get("operation").and_then(Value::as_str);
            let subresource = entry
                .get("subresource")
                .and_then(Value::as_str)
                .unwrap_or("");
            let fields_type = entry.get("fieldsType").and_then(Value::as_str);
            let parsed = match (fields_type, entry.get("fieldsV1")) {
                (Some("FieldsV1") | None, Some(f)) => FieldSet::parse(f),
                // An entry without fields owns nothing.
                (Some("FieldsV1") | None, None) => Some(FieldSet::default()),
                _ => None,
            };
            let is_applier = entry.get("manager").and_then(Value::as_str) == Some(manager)
                && operation == Some("Apply")
                && subresource.is_empty();
            match (parsed, is_applier) {
                (Some(set), true) => applied.push(set),
                (Some(set), false) => others.push(set),
                (None, true) => applier_malformed = true,
                (None, false) => out.malformed = true,
            }
        }
        out.others = FieldSet::union_all(others);
        let mut applied = (!applied.is_empty()).then(|| FieldSet::union_all(applied));
        if applier_malformed {
            out.malformed = true;
            applied = None;
        }
        if let Some(t) = applied.as_mut() {
            for key in [DRY_RUN_ANNOTATION, CONVERSION_DATA_ANNOTATION] {
                t.remove_path(&[
                    Element::Field("metadata".into()),
                    Element::Field("annotations".into()),
                    Element::Field(key.into()),
                ]);
            }
        }
        out.applier = applied;
        out
    }
}

/// The one manager that server-side applied `object` (operation Apply, on the object itself),
/// other than `capi-topology`: the tool that applies the user's files (`kubectl` with
/// `--server-side`, a GitOps controller). `None` when there is none, or several (which of them
/// applies the file at hand cannot be told), or the records cannot be read.
pub fn sole_applier(object: &Value) -> Option<String> {
    let entries = object.pointer("/metadata/managedFields")?.as_array()?;
    let mut found: Option<&str> = None;
    for entry in entries {
        let manager = entry.get("manager").and_then(Value::as_str)?;
        let apply = entry.get("operation").and_then(Value::as_str) == Some("Apply");
        let subresource = entry
            .get("subresource")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !apply || !subresource.is_empty() || manager == TOPOLOGY_MANAGER {
            continue;
        }
        match found {
            Some(m) if m != manager => return None,
            _ => found = Some(manager),
        }
    }
    found.map(str::to_string)
}

/// Whether `current` records what `capi-topology` applied, i.e. whether fields dropped from the
/// template can be detected. Without it the simulation keeps every field the intent no longer
/// sets (a known false negative the caller should mention).
pub fn has_topology_managed_fields(current: &Value) -> bool {
    Ownership::of(current).applier.is_some()
}

/// The fields server-side apply records as owned by the applier of `intent`. Identity fields
/// (apiVersion, kind, name, namespace, uid) are never recorded by the server, so they are left
/// out. `list_type` answers for the list at a schema path (see [`ITEM`]).
pub fn intent_fields(
    intent: &Value,
    list_type: &dyn Fn(&[String]) -> Option<ListType>,
) -> FieldSet {
    let mut set = FieldSet::default();
    let Some(map) = intent.as_object() else {
        return set;
    };
    let mut path = Vec::new();
    for (key, value) in map {
        if matches!(key.as_str(), "apiVersion" | "kind") {
            continue;
        }
        if key == "metadata" {
            let Some(meta) = value.as_object() else {
                continue;
            };
            let mut meta_set = FieldSet::default();
            path.push("metadata".to_string());
            for (field, v) in meta {
                if matches!(
                    field.as_str(),
                    "name" | "namespace" | "uid" | "generateName"
                ) {
                    continue;
                }
                path.push(field.clone());
                meta_set.children.push((
                    Element::Field(field.clone()),
                    value_fields(v, &mut path, list_type, 0),
                ));
                path.pop();
            }
            path.pop();
            if !meta_set.children.is_empty() {
                set.children
                    .push((Element::Field("metadata".into()), meta_set));
            }
            continue;
        }
        path.push(key.clone());
        set.children.push((
            Element::Field(key.clone()),
            value_fields(value, &mut path, list_type, 0),
        ));
        path.pop();
    }
    set
}

fn value_fields(
    v: &Value,
    path: &mut Vec<String>,
    list_type: &dyn Fn(&[String]) -> Option<ListType>,
    depth: usize,
) -> FieldSet {
    let leaf = FieldSet {
        member: true,
        children: Vec::new(),
    };
    if depth > MAX_DEPTH {
        return leaf;
    }
    match v {
        Value::Object(map) if !map.is_empty() => {
            let mut set = FieldSet::default();
            for (k, child) in map {
                path.push(k.clone());
                set.children.push((
                    Element::Field(k.clone()),
                    value_fields(child, path, list_type, depth + 1),
                ));
                path.pop();
            }
            set
        }
        Value::Array(items) if !items.is_empty() => match list_type(path) {
            Some(ListType::Map(keys)) if items.iter().all(Value::is_object) => {
                let mut set = FieldSet::default();
                path.push(ITEM.to_string());
                for item in items {
                    let key = entry_key(item, &keys);
                    let mut entry = value_fields(item, path, list_type, depth + 1);
                    entry.member = true;
                    set.children.push((Element::Key(key), entry));
                }
                path.pop();
                set
            }
            Some(ListType::Set) => FieldSet {
                member: false,
                children: items
                    .iter()
                    .map(|i| (Element::Value(i.clone()), leaf.clone()))
                    .collect(),
            },
            _ => leaf,
        },
        _ => leaf,
    }
}

impl FieldSet {
    /// The set in the `fieldsV1` format (`{"f:spec": {"f:replicas": {}}}`), with the key of a
    /// list-map entry and the value of a set entry as compact JSON, as the server writes them.
    pub fn to_fields_v1(&self) -> Value {
        let mut m = Map::new();
        if self.member && !self.children.is_empty() {
            m.insert(".".into(), Value::Object(Map::new()));
        }
        for (e, child) in &self.children {
            let key = match e {
                Element::Field(f) => format!("f:{f}"),
                Element::Key(k) => format!(
                    "k:{}",
                    serde_json::to_string(&Value::Object(k.clone())).unwrap_or_default()
                ),
                Element::Value(v) => format!("v:{}", serde_json::to_string(v).unwrap_or_default()),
                Element::Index(i) => format!("i:{i}"),
            };
            m.insert(key, child.to_fields_v1());
        }
        Value::Object(m)
    }
}

/// Record on `object` the managedFields entry the server keeps after `capi-topology` applied
/// `intent`: one `Apply` entry owning exactly the intent's fields. Used for state topoplan
/// itself computed (`diff`'s old side), so that a field dropped from a template between the two
/// sides is seen as removed, as it would be on a real cluster.
pub fn record_topology_apply(object: &mut Value, intent: &Value, lists: &super::lists::ListTypes) {
    let api_version = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let kind = object
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let fields = intent_fields(intent, &|path| {
        lists.lookup(&api_version, &kind, path).cloned()
    });
    let entry = serde_json::json!({
        "manager": TOPOLOGY_MANAGER,
        "operation": "Apply",
        "apiVersion": api_version,
        "fieldsType": "FieldsV1",
        "fieldsV1": fields.to_fields_v1(),
    });
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("managedFields".into(), Value::Array(vec![entry]));
    }
}

/// The key of a list-map entry: its key fields that are present (absent ones are left out, as
/// the server does for optional keys).
pub fn entry_key(item: &Value, keys: &[String]) -> Map<String, Value> {
    let mut out = Map::new();
    for k in keys {
        if let Some(v) = item.get(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

/// List types the records themselves reveal: a list whose entries are recorded as `k:{...}` is
/// a map list keyed by those fields, one recorded as `v:...` is a set. This is the server's own
/// schema speaking, so it fills gaps where no CRD was supplied. Reported as
/// `(schema path, list type)`.
pub fn inferred_list_types(ownership: &Ownership) -> Vec<(Vec<String>, ListType)> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut path = Vec::new();
    if let Some(t) = &ownership.applier {
        infer(t, &mut path, &mut out, &mut seen);
    }
    infer(&ownership.others, &mut path, &mut out, &mut seen);
    out
}

/// `seen` holds the paths already in `out` (searching `out` would be quadratic in the lists).
fn infer(
    set: &FieldSet,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, ListType)>,
    seen: &mut std::collections::HashSet<Vec<String>>,
) {
    let mut list: Option<ListType> = None;
    for (element, child) in &set.children {
        match element {
            Element::Field(f) => {
                path.push(f.clone());
                infer(child, path, out, seen);
                path.pop();
            }
            Element::Key(k) => {
                if list.is_none() {
                    list = Some(ListType::Map(k.keys().cloned().collect()));
                }
                path.push(ITEM.to_string());
                infer(child, path, out, seen);
                path.pop();
            }
            Element::Value(_) => {
                if list.is_none() {
                    list = Some(ListType::Set);
                }
            }
            Element::Index(_) => {}
        }
    }
    if let Some(list) = list
        && seen.insert(path.clone())
    {
        out.push((path.clone(), list));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn with_fields(entries: Value) -> Value {
        json!({"metadata": {"name": "x", "managedFields": entries}})
    }

    #[test]
    fn parses_every_element_kind() {
        let set = FieldSet::parse(&json!({
            "f:metadata": {"f:labels": {".": {}, "f:a": {}}},
            "f:spec": {
                "f:ports": {"k:{\"name\":\"http\",\"port\":80}": {".": {}, "f:name": {}}},
                "f:tags": {"v:\"x\"": {}, "v:3": {}},
                "f:args": {"i:0": {}}
            }
        }))
        .unwrap_or_else(|| panic!("well-formed record rejected"));
        let leaves: Vec<String> = set.leaves().into_iter().collect();
        assert_eq!(
            leaves,
            vec![
                "/f:metadata/f:labels/f:a",
                "/f:spec/f:args/i:0",
                "/f:spec/f:ports/k:{\"name\":\"http\",\"port\":80}/f:name",
                "/f:spec/f:tags/v:\"x\"",
                "/f:spec/f:tags/v:3",
            ]
        );
        let labels = set
            .child(&Element::Field("metadata".into()))
            .and_then(|m| m.child(&Element::Field("labels".into())));
        assert_eq!(labels.map(|l| l.member), Some(true));
    }

    #[test]
    fn malformed_records_are_rejected_not_panicked_on() {
        let cases = [
            json!("f:spec"),
            json!({"spec": {}}),
            json!({"f:spec": []}),
            json!({"k:{not json": {}}),
            json!({"k:[1]": {}}),
            json!({"v:": {}}),
            json!({"i:-1": {}}),
            json!({"x": {}}),
            json!({"é": {}}),
            json!({"f": {}}),
        ];
        for case in cases {
            assert!(FieldSet::parse(&case).is_none(), "{case} accepted");
        }
        let mut deep = json!({});
        for _ in 0..1000 {
            deep = json!({ "f:x": deep });
        }
        assert!(FieldSet::parse(&deep).is_none());
    }

    #[test]
    fn ownership_splits_topology_from_others() {
        let obj = with_fields(json!([
            {"manager": "capi-topology", "operation": "Apply", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:spec": {"f:a": {}}, "f:metadata": {"f:annotations": {"f:topology.cluster.x-k8s.io/dry-run": {}}}}},
            {"manager": "capi-topology", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:b": {}}}},
            {"manager": "capi-topology", "operation": "Apply", "subresource": "status", "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:c": {}}}},
            {"manager": "other", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:d": {}}}}
        ]));
        let o = Ownership::of(&obj);
        assert!(o.recorded && !o.malformed);
        let t = o
            .applier
            .unwrap_or_else(|| panic!("topology entry missing"));
        assert_eq!(
            t.leaves().into_iter().collect::<Vec<_>>(),
            vec!["/f:spec/f:a"]
        );
        assert_eq!(
            o.others.leaves().into_iter().collect::<Vec<_>>(),
            vec!["/f:spec/f:b", "/f:spec/f:d", "/f:status/f:c"]
        );
        assert!(has_topology_managed_fields(&obj));
    }

    #[test]
    fn unreadable_ownership_is_unknown() {
        let cases: &[(Value, bool, bool)] = &[
            // (managedFields, topology known, malformed)
            (json!("nonsense"), false, true),
            (
                json!([{"manager": "capi-topology", "operation": "Apply", "fieldsV1": {"bad": {}}}]),
                false,
                true,
            ),
            (
                json!([{"manager": "capi-topology", "operation": "Apply", "fieldsV1": {"f:spec": {}}},
                    {"manager": "x", "operation": "Update", "fieldsType": "FieldsV2", "fieldsV1": {}}]),
                true,
                true,
            ),
            (json!([1, null, "x"]), false, true),
            (json!([]), false, false),
        ];
        for (mf, known, malformed) in cases {
            let o = Ownership::of(&with_fields(mf.clone()));
            assert_eq!(o.applier.is_some(), *known, "{mf}");
            assert_eq!(o.malformed, *malformed, "{mf}");
        }
        assert!(!has_topology_managed_fields(&json!({"metadata": {}})));
        assert!(!has_topology_managed_fields(&json!(null)));
    }

    #[test]
    fn intent_fields_match_server_records() {
        let intent = json!({
            "apiVersion": "v1", "kind": "K",
            "metadata": {"name": "n", "namespace": "ns", "labels": {"a": "1"},
                         "ownerReferences": [{"uid": "u1", "kind": "Cluster"}]},
            "spec": {"replicas": 1, "empty": {}, "list": [1, 2], "tags": ["x"]}
        });
        let lt = |p: &[String]| -> Option<ListType> {
            match p.join(".").as_str() {
                "metadata.ownerReferences" => Some(ListType::Map(vec!["uid".into()])),
                "spec.tags" => Some(ListType::Set),
                _ => None,
            }
        };
        let got: Vec<String> = intent_fields(&intent, &lt).leaves().into_iter().collect();
        let record = FieldSet::parse(&json!({
            "f:metadata": {"f:labels": {"f:a": {}}, "f:ownerReferences": {"k:{\"uid\":\"u1\"}": {".": {}, "f:kind": {}, "f:uid": {}}}},
            "f:spec": {"f:replicas": {}, "f:empty": {}, "f:list": {}, "f:tags": {"v:\"x\"": {}}}
        }))
        .unwrap_or_else(|| panic!("record rejected"));
        assert_eq!(got, record.leaves().into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn list_types_are_inferred_from_records() {
        let obj = with_fields(json!([
            {"manager": "other", "operation": "Apply", "fieldsV1": {"f:spec": {
                "f:ports": {"k:{\"name\":\"a\",\"protocol\":\"TCP\"}": {".": {}, "f:tags": {"v:\"t\"": {}}}},
                "f:plain": {}}}}
        ]));
        let got = inferred_list_types(&Ownership::of(&obj));
        let path = |s: &str| s.split('.').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            got,
            vec![
                (path("spec.ports.[].tags"), ListType::Set),
                (
                    path("spec.ports"),
                    ListType::Map(vec!["name".into(), "protocol".into()])
                ),
            ]
        );
    }
}
