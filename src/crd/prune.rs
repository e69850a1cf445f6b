/*!
Dropping what the schema does not specify, as the API server does while decoding a custom
resource (`unstructuredSchemaCoercer.apply`), with the path of every field dropped.

Owns [`prune()`], the whole decoding step in its order: the root ObjectMeta round trip
([`super::objectmeta::coerce_root`]), structural pruning at the resource root
(`structuralpruning.PruneWithOptions(obj, s, isResourceRoot=true)`, in [`prune_structural`]),
non-nullable `null`s without default ([`super::nulls`]), and the ObjectMeta of embedded
resources ([`super::objectmeta::coerce_embedded`]). The paths come in that order, each group
sorted, as the API server collects them for its `unknown field` warnings.

Pruning keeps a field when its object's schema lists it under `properties` or has
`additionalProperties` (a schema, or `true` / `false`: the value is then pruned with no schema,
so an object below loses every field). Below `x-kubernetes-preserve-unknown-fields` nothing is
dropped except inside the listed properties. At the root and at every
`x-kubernetes-embedded-resource` node, `apiVersion`, `kind` and `metadata` are neither pruned nor
looked into. A CRD with `spec.preserveUnknownFields: true` prunes nothing.
*/

use serde_json::Value;

use super::structural::Structural;
use super::{nulls, objectmeta};
use crate::schema::props::Schema;

/// The fields the API server never prunes at a resource root or embedded resource.
const META_FIELDS: &[&str] = &["apiVersion", "kind", "metadata"];

/// Lists of lists with no schema are followed this deep; deeper ones are left as they are
/// (decoded input never nests this deep; this only bounds the recursion).
const MAX_UNTYPED_DEPTH: usize = 512;

/// Drop every field of `obj` that `s` does not specify, as the API server's decoding does (see
/// the module docs); the dropped fields' paths (`spec.template.spec.foo`, `spec.list[0].x`).
pub fn prune(obj: &mut Value, s: &Structural) -> Vec<String> {
    let mut paths = objectmeta::coerce_root(obj);
    if !s.preserve_unknown_fields {
        paths.extend(prune_structural(obj, &s.schema));
        nulls::prune_nulls(obj, &s.schema);
    }
    paths.extend(objectmeta::coerce_embedded(obj, s));
    paths
}

/// `PruneWithOptions(obj, s, isResourceRoot=true, TrackUnknownFieldPaths)`: the paths, sorted.
pub fn prune_structural(obj: &mut Value, s: &Schema) -> Vec<String> {
    let mut t = Tracker::default();
    node(obj, Some(s), true, &mut t, 0);
    t.unknown.sort();
    t.unknown
}

/// The path being walked, and the unknown fields found (`UnknownFieldPathOptions`).
#[derive(Default)]
struct Tracker {
    parent: String,
    unknown: Vec<String>,
}

impl Tracker {
    fn push_key(&mut self, k: &str) -> usize {
        let l = self.parent.len();
        if l > 0 {
            self.parent.push('.');
        }
        self.parent.push_str(k);
        l
    }

    fn push_index(&mut self, i: usize) -> usize {
        let l = self.parent.len();
        self.parent.push('[');
        self.parent.push_str(&i.to_string());
        self.parent.push(']');
        l
    }

    fn record(&mut self, k: &str) {
        let l = self.push_key(k);
        self.unknown.push(self.parent.clone());
        self.parent.truncate(l);
    }
}

/// What an object's schema says of one of its fields.
enum Field<'s> {
    /// Listed, or allowed by `additionalProperties`; pruned with this schema (none for a bool).
    Known(Option<&'s Schema>),
    /// Not specified: dropped.
    Unknown,
}

fn field<'s>(s: &'s Schema, k: &str) -> Field<'s> {
    if let Some(p) = s.properties.get(k) {
        Field::Known(Some(p))
    } else if let Some(ap) = s.additional_properties.as_deref() {
        Field::Known(Some(ap))
    } else if s.crd_keywords().additional_properties_bool.is_some() {
        Field::Known(None)
    } else {
        Field::Unknown
    }
}

/// `prune(x, s)`; `root` makes `s` an embedded resource (`isResourceRoot`).
fn node(x: &mut Value, s: Option<&Schema>, root: bool, t: &mut Tracker, depth: usize) {
    if let Some(s) = s.filter(|s| s.preserves_unknown_fields()) {
        skip(x, s, root, t, depth);
        return;
    }
    match x {
        Value::Object(m) => {
            let Some(s) = s else {
                for k in m.keys() {
                    t.record(k);
                }
                m.clear();
                return;
            };
            let embedded = root || s.crd_keywords().embedded_resource;
            let at_root = t.parent.is_empty();
            m.retain(|k, v| {
                if embedded && META_FIELDS.contains(&k.as_str()) {
                    return true;
                }
                match field(s, k) {
                    Field::Known(sub) => {
                        let l = t.push_key(k);
                        node(v, sub, false, t, depth + 1);
                        t.parent.truncate(l);
                        true
                    }
                    Field::Unknown => {
                        if !META_FIELDS.contains(&k.as_str()) || !at_root {
                            t.record(k);
                        }
                        false
                    }
                }
            });
        }
        Value::Array(a) => {
            if s.is_none() && depth > MAX_UNTYPED_DEPTH {
                return;
            }
            let items = s.and_then(|s| s.items.as_deref());
            for (i, v) in a.iter_mut().enumerate() {
                let l = t.push_index(i);
                node(v, items, false, t, depth + 1);
                t.parent.truncate(l);
            }
        }
        _ => {}
    }
}

/// `skipPrune(x, s)`: below `x-kubernetes-preserve-unknown-fields`.
fn skip(x: &mut Value, s: &Schema, root: bool, t: &mut Tracker, depth: usize) {
    match x {
        Value::Object(m) => {
            let embedded = root || s.crd_keywords().embedded_resource;
            for (k, v) in m.iter_mut() {
                if embedded && META_FIELDS.contains(&k.as_str()) {
                    continue;
                }
                if let Field::Known(sub) = field(s, k) {
                    let l = t.push_key(k);
                    node(v, sub, false, t, depth + 1);
                    t.parent.truncate(l);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = s.items.as_deref() {
                for (i, v) in a.iter_mut().enumerate() {
                    let l = t.push_index(i);
                    skip(v, items, false, t, depth + 1);
                    t.parent.truncate(l);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k8s::field::Path;
    use serde_json::json;

    fn schema(v: Value) -> Schema {
        Schema::parse_crd(&v, &Path::new("s")).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn unknown_fields_are_dropped_with_their_paths() {
        let s = schema(json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "template": {"type": "object", "properties": {"spec": {"type": "object",
                    "properties": {"a": {"type": "string"}}}}},
                "list": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}}},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                    "properties": {"typed": {"type": "object"}}},
                "m": {"type": "object", "additionalProperties": true},
                "pod": {"type": "object", "x-kubernetes-embedded-resource": true,
                    "properties": {"spec": {"type": "object"}}}}}}}));
        let mut v = json!({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "n"},
            "status": {"x": 1},
            "spec": {"template": {"spec": {"a": "1", "foo": 2}}, "list": [{"x": "1", "z": 2}],
                "free": {"anything": {"q": 1}, "typed": {"r": 1}},
                "m": {"k": {"gone": 1}, "s": "kept"},
                "pod": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                    "spec": {"x": 1}, "extra": 1}}});
        let got = prune_structural(&mut v, &s);
        assert_eq!(
            got,
            vec![
                "spec.free.typed.r",
                "spec.list[0].z",
                "spec.m.k.gone",
                "spec.pod.extra",
                "spec.pod.spec.x",
                "spec.template.spec.foo",
                "status",
            ]
        );
        assert_eq!(
            v,
            json!({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "n"},
                "spec": {"template": {"spec": {"a": "1"}}, "list": [{"x": "1"}],
                    "free": {"anything": {"q": 1}, "typed": {}},
                    "m": {"k": {}, "s": "kept"},
                    "pod": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}}}})
        );
    }

    #[test]
    fn meta_fields_below_the_root_are_pruned_and_reported() {
        let s = schema(json!({"type": "object", "properties": {"spec": {"type": "object"}}}));
        let mut v = json!({"spec": {"metadata": {}, "kind": "x"}});
        assert_eq!(
            prune_structural(&mut v, &s),
            vec!["spec.kind", "spec.metadata"]
        );
        assert_eq!(v, json!({"spec": {}}));
    }
}
