/*!
Providers' defaulting webhooks, as far as a schema can tell what they do: the round trip of an
object through its Go type.

A provider's defaulter is a controller-runtime webhook: the API server sends it the object (after
decoding, pruning and structural defaulting), the webhook decodes it into the provider's Go
struct, runs its own defaulting logic and encodes the struct again. Encoding writes every field
without `omitempty` with its zero value (`""`, `0`, `false`, a nested struct as `{}`), and those
are the fields controller-gen marks `required` (unless `+optional`). So a template a file writes
without such a field is stored with it, and passes the schema the API server checks after the
webhooks.

Owns which kinds a MutatingWebhookConfiguration covers ([`Hooks`]: its rules' groups,
versions, resources and CREATE / UPDATE operations, `matchPolicy`) and [`round_trip()`]: absent
`required` properties filled with their type's zero value, recursively, only under objects that
exist (as encoding a Go struct does), nothing under `x-kubernetes-preserve-unknown-fields`.
A zero value Go writes as `null` (a nil slice, map or pointer, `metav1.Time`) is dropped by the
API server's decoding anyway, so those are left absent: lists, maps, `nullable` fields,
`date-time` strings, int-or-string and free-form values. The defaulters' own logic is not run:
that is an approximation, listed in docs/reference/differences.md.
*/

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::structural::Gvk;
use crate::diag::{Code, Diagnostic};
use crate::load::Object;
use crate::schema::props::Schema;

/// The help of a `Required value` error of a provider's kind no known webhook covers.
pub const REQUIRED_HELP: &str = "a provider's defaulting webhook may fill this field (its round trip through the provider's Go type writes every required field with its zero value); give topoplan the provider's components to model it: --provider-repo DIR, or --crds COMPONENTS.yaml (its MutatingWebhookConfiguration)";

/// At most this many webhooks are read from a run's inputs (a components YAML holds a few dozen).
const MAX_HOOKS: usize = 10_000;

/// One webhook of a MutatingWebhookConfiguration, reduced to which requests reach it.
#[derive(Debug, Clone)]
struct Hook {
    /// The configuration's name.
    config: String,
    /// The webhook's name.
    webhook: String,
    /// Rules intercepting CREATE or UPDATE: (apiGroups, apiVersions, resources).
    rules: Vec<(Vec<String>, Vec<String>, Vec<String>)>,
    /// `matchPolicy: Exact`: requests in other versions are not converted and sent to it.
    exact: bool,
}

/// The mutating webhooks of a run's inputs.
#[derive(Debug, Clone, Default)]
pub struct Hooks {
    hooks: Vec<Hook>,
}

/// Whether `o` is an `admissionregistration.k8s.io` MutatingWebhookConfiguration.
pub fn is_mutating_webhook_configuration(o: &Object) -> bool {
    o.kind == "MutatingWebhookConfiguration" && o.group() == "admissionregistration.k8s.io"
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

impl Hooks {
    /// Read one MutatingWebhookConfiguration (another object adds nothing).
    pub fn add(&mut self, o: &Object) {
        if !is_mutating_webhook_configuration(o) {
            return;
        }
        let webhooks = o
            .value
            .get("webhooks")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for w in webhooks {
            if self.hooks.len() >= MAX_HOOKS {
                return;
            }
            let rules = w
                .get("rules")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter(|r| {
                    strings(r.get("operations"))
                        .iter()
                        .any(|op| matches!(op.as_str(), "CREATE" | "UPDATE" | "*"))
                })
                .map(|r| {
                    (
                        strings(r.get("apiGroups")),
                        strings(r.get("apiVersions")),
                        strings(r.get("resources")),
                    )
                })
                .collect();
            self.hooks.push(Hook {
                config: o.name.clone(),
                webhook: w
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                rules,
                exact: w.get("matchPolicy").and_then(Value::as_str) == Some("Exact"),
            });
        }
    }

    /// No webhook was read.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }

    /// The first webhook (as `"name" in MutatingWebhookConfiguration config`) that objects of
    /// `gvk`, whose resource (plural) is `resource`, reach on create or update.
    pub fn covering(&self, gvk: &Gvk, resource: &str) -> Option<String> {
        let has = |list: &[String], want: &str| list.iter().any(|x| x == want || x == "*");
        self.hooks
            .iter()
            .find(|h| {
                h.rules.iter().any(|(groups, versions, resources)| {
                    has(groups, &gvk.group)
                        && (!h.exact || has(versions, &gvk.version))
                        && resources
                            .iter()
                            .any(|r| r == resource || r == "*" || r == "*/*")
                })
            })
            .map(|h| {
                format!(
                    "{:?} in MutatingWebhookConfiguration {}",
                    h.webhook, h.config
                )
            })
    }
}

/// The resource name of `kind` when no CRD names it: the API machinery's guess
/// (`meta.UnsafeGuessKindToResource`).
pub fn guess_resource(kind: &str) -> String {
    let lower = kind.to_lowercase();
    if lower.ends_with('s') {
        format!("{lower}es")
    } else if let Some(stem) = lower.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{lower}s")
    }
}

/// The one warning of a run whose objects of `covered` kinds (group/version/kind → the webhook)
/// go through the round trip.
pub fn round_trip_warning(covered: &BTreeMap<Gvk, String>) -> Option<Diagnostic> {
    if covered.is_empty() {
        return None;
    }
    let kinds: BTreeSet<String> = covered
        .keys()
        .map(|g| format!("{}.{}", g.kind, g.group))
        .collect();
    let kinds: Vec<String> = kinds.into_iter().collect();
    Some(
        Diagnostic::warning(
            Code::SchemaWebhookDefaulted,
            format!(
                "objects of {} kind(s) have a defaulting webhook: {}; their absent required fields are filled with their zero values before the schema check, as the webhook's round trip through its Go type writes them",
                kinds.len(),
                kinds.join(", ")
            ),
        )
        .with_help(
            "the webhooks' own defaulting logic is not run: a field it sets to something other than the zero value is checked as the file writes it",
        ),
    )
}

/// Fill the absent `required` properties of `obj` (an object of a kind a defaulting webhook
/// covers) with their zero values, as encoding the provider's Go struct writes them (see the
/// module docs); returns whether anything was added. The root's `apiVersion`, `kind`,
/// `metadata` and `status` are left as they are.
pub fn round_trip(obj: &mut Value, s: &Schema) -> bool {
    let Value::Object(m) = obj else {
        return false;
    };
    let mut changed = false;
    for (k, prop) in &s.properties {
        if matches!(k.as_str(), "apiVersion" | "kind" | "metadata" | "status") {
            continue;
        }
        let required = s.required.as_deref().unwrap_or(&[]).contains(k);
        changed |= fill(m, k, prop, required);
    }
    changed
}

/// The zero value Go writes for a required field of schema `s`, when the API server keeps it
/// (`None`: Go writes `null`, or the schema cannot tell the Go type).
fn zero(s: &Schema) -> Option<Value> {
    if s.is_nullable() || s.is_int_or_string() || s.preserves_unknown_fields() {
        return None;
    }
    match s.type_.as_str() {
        "string" if !matches!(s.format.as_str(), "date-time" | "date") => {
            Some(Value::String(String::new()))
        }
        "integer" | "number" => Some(Value::from(0)),
        "boolean" => Some(Value::Bool(false)),
        // A struct, not a map: Go writes a nil map as `null`.
        "object" if s.additional_properties.is_none() => Some(Value::Object(Map::new())),
        _ => None,
    }
}

/// Property `k` (schema `prop`) of the object `m`: added when required and absent, then
/// descended into.
fn fill(m: &mut Map<String, Value>, k: &str, prop: &Schema, required: bool) -> bool {
    let mut changed = false;
    if required
        && !m.contains_key(k)
        && let Some(z) = zero(prop)
    {
        m.insert(k.to_string(), z);
        changed = true;
    }
    if let Some(v) = m.get_mut(k) {
        changed |= descend(v, prop);
    }
    changed
}

/// The round trip below a value that exists.
fn descend(v: &mut Value, s: &Schema) -> bool {
    if s.preserves_unknown_fields() {
        return false;
    }
    let mut changed = false;
    match v {
        Value::Object(m) => {
            let required = s.required.as_deref().unwrap_or(&[]);
            for (k, prop) in &s.properties {
                changed |= fill(m, k, prop, required.contains(k));
            }
            if let Some(ap) = s.additional_properties.as_deref() {
                for (k, x) in m.iter_mut() {
                    if !s.properties.contains_key(k) {
                        changed |= descend(x, ap);
                    }
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = s.items.as_deref() {
                for x in a.iter_mut() {
                    changed |= descend(x, items);
                }
            }
        }
        _ => {}
    }
    changed
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
    fn fills_required_zero_values_under_existing_objects_only() {
        let s = schema(
            json!({"type": "object", "required": ["spec", "metadata"], "properties": {
            "metadata": {"type": "object"},
            "spec": {"type": "object", "required": ["name", "count", "ratio", "on", "sub", "list",
                    "labels", "when", "ptr", "ios", "free", "absent"], "properties": {
                "name": {"type": "string"},
                "count": {"type": "integer"},
                "ratio": {"type": "number"},
                "on": {"type": "boolean"},
                "sub": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}},
                "list": {"type": "array", "items": {"type": "object", "required": ["x"],
                    "properties": {"x": {"type": "integer"}}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "when": {"type": "string", "format": "date-time"},
                "ptr": {"type": "object", "nullable": true},
                "ios": {"x-kubernetes-int-or-string": true},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                    "required": ["inner"], "properties": {"inner": {"type": "string"}}},
                "optional": {"type": "object", "required": ["y"], "properties": {"y": {"type": "string"}}},
                "absent": {"type": "array", "items": {"type": "string"}}}},
            "status": {"type": "object", "required": ["ready"], "properties": {"ready": {"type": "boolean"}}}}}),
        );
        let mut v = json!({"spec": {"list": [{}, {"x": 3}], "free": {}}});
        assert!(round_trip(&mut v, &s));
        assert_eq!(
            v,
            json!({"spec": {"name": "", "count": 0, "ratio": 0, "on": false, "sub": {"id": ""},
                "list": [{"x": 0}, {"x": 3}], "free": {}}})
        );
        // Nothing more to add: a second trip changes nothing.
        assert!(!round_trip(&mut v, &s));
        // The root spec, a struct, is written even when absent.
        let mut v = json!({"kind": "X"});
        assert!(round_trip(&mut v, &s));
        assert_eq!(v["spec"]["sub"], json!({"id": ""}));
        assert_eq!(v.get("metadata"), None);
        assert_eq!(v.get("status"), None);
    }

    #[test]
    fn webhooks_cover_by_group_resource_and_operation() {
        let o = |v: Value| {
            crate::load::Object::new(
                v,
                crate::source::Origin {
                    file: crate::source::SourceFile::new("h.yaml", String::new()),
                    spans: std::sync::Arc::new(crate::source::SpanTable::default()),
                },
                "",
            )
            .unwrap_or_else(|e| panic!("{e:?}"))
        };
        let mut hooks = Hooks::default();
        hooks.add(&o(json!({"apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "MutatingWebhookConfiguration", "metadata": {"name": "m"}, "webhooks": [
            {"name": "delete.only", "rules": [{"apiGroups": ["g"], "apiVersions": ["v1"],
                "operations": ["DELETE"], "resources": ["widgets"]}]},
            {"name": "exact", "matchPolicy": "Exact", "rules": [{"apiGroups": ["g"],
                "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["gadgets"]}]},
            {"name": "w", "rules": [{"apiGroups": ["g"], "apiVersions": ["v1"],
                "operations": ["CREATE", "UPDATE"], "resources": ["widgets"]}]}]})));
        let w = hooks.covering(&Gvk::new("g", "v2", "Widget"), "widgets");
        assert_eq!(
            w.as_deref(),
            Some("\"w\" in MutatingWebhookConfiguration m")
        );
        assert!(
            hooks
                .covering(&Gvk::new("g", "v1", "Gadget"), "gadgets")
                .is_some()
        );
        assert!(
            hooks
                .covering(&Gvk::new("g", "v2", "Gadget"), "gadgets")
                .is_none()
        );
        assert!(
            hooks
                .covering(&Gvk::new("h", "v1", "Widget"), "widgets")
                .is_none()
        );
        assert_eq!(
            guess_resource("AzureClusterTemplate"),
            "azureclustertemplates"
        );
        assert_eq!(guess_resource("Policy"), "policies");
    }
}
