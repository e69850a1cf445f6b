/*!
Why a patch may find no field in a template: the field is one a provider's defaulting webhook
writes into the stored template, which the file never had.

Owns the help of a patch whose path is missing (`topoplan::patch::missing-path`): whether the
template was planned as stored (`--current`), and which mutating webhook of the input (a
provider's components YAML holds its MutatingWebhookConfiguration) intercepts the template's
kind. A real cluster's template holds every defaulted field, so a class patch that replaces one
works there and fails offline; the fix is to plan against the stored template. It only explains:
it never decides whether a patch applies, and it cannot run a webhook.
*/

use std::collections::BTreeSet;

use serde_json::Value;

use crate::crd::webhooks::Hooks;
use crate::load::Object;
use crate::load::object::group_of;

/// What explains a missing path, for the Clusters of one input.
#[derive(Debug, Clone, Default)]
pub struct Defaulting {
    hooks: Hooks,
    /// Resource names the input's CRDs give kinds: (group, kind) → plural.
    plurals: Vec<((String, String), String)>,
    /// Templates planned as the user's file applied over the stored object: (apiVersion, kind,
    /// namespace, name).
    stored: BTreeSet<(String, String, String, String)>,
}

impl Defaulting {
    /// Read the mutating webhooks and CRDs of `objects` (the input); `stored` lists the
    /// templates taken from `--current` as (apiVersion, kind, namespace, name).
    pub fn new(
        objects: &[Object],
        stored: BTreeSet<(String, String, String, String)>,
    ) -> Defaulting {
        let mut hooks = Hooks::default();
        let mut plurals = Vec::new();
        for o in objects {
            hooks.add(o);
            if !crate::crd::definition::is_crd(o) {
                continue;
            }
            let s = |p: &str| o.value.pointer(p).and_then(Value::as_str);
            if let (Some(group), Some(kind), Some(plural)) = (
                s("/spec/group"),
                s("/spec/names/kind"),
                s("/spec/names/plural"),
            ) {
                plurals.push(((group.to_string(), kind.to_string()), plural.to_string()));
            }
        }
        Defaulting {
            hooks,
            plurals,
            stored,
        }
    }

    /// The resource name of `kind` in `group`: the input's CRD's plural, else the API
    /// machinery's guess (`meta.UnsafeGuessKindToResource`).
    fn resource(&self, group: &str, kind: &str) -> String {
        if let Some((_, p)) = self
            .plurals
            .iter()
            .find(|((g, k), _)| g == group && k == kind)
        {
            return p.clone();
        }
        crate::crd::webhooks::guess_resource(kind)
    }

    /// The first webhook (`"name" in MutatingWebhookConfiguration config`) that defaults
    /// objects of `api_version` and `kind` on create or update.
    fn hook_for(&self, api_version: &str, kind: &str) -> Option<String> {
        let group = group_of(api_version);
        let resource = self.resource(group, kind);
        self.hooks
            .covering(&crate::crd::Gvk::of(api_version, kind), &resource)
    }

    /// The help for a patch path missing in `template` (a request item's object).
    pub fn missing_path_help(&self, template: &Value) -> String {
        let s = |k: &str| template.get(k).and_then(Value::as_str).unwrap_or("");
        let api_version = s("apiVersion");
        let kind = s("kind");
        let key = (
            api_version.to_string(),
            kind.to_string(),
            crate::json::metadata_str(template, "namespace").to_string(),
            crate::json::metadata_str(template, "name").to_string(),
        );
        if self.stored.contains(&key) {
            return "the template as stored (--current) does not hold this field either".into();
        }
        let mut help = "the stored template may hold this field (a provider's defaulting webhook sets it): pass the template as stored with --current".to_string();
        if let Some(webhook) = self.hook_for(api_version, kind) {
            help.push_str(&format!("; {kind} has a defaulting webhook ({webhook})"));
        }
        help
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::source::{Origin, SourceFile, SpanTable};

    fn object(v: Value) -> Object {
        let origin = Origin {
            file: SourceFile::new("components.yaml".to_string(), String::new()),
            spans: Arc::new(SpanTable::default()),
        };
        Object::new(v, origin, "default").expect("object")
    }

    fn webhooks(hooks: Value) -> Object {
        object(json!({"apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "MutatingWebhookConfiguration", "metadata": {"name": "capa-mutating"},
            "webhooks": hooks}))
    }

    fn hook(name: &str, rule: Value) -> Value {
        json!({"name": name, "rules": [rule]})
    }

    fn rule(groups: &[&str], versions: &[&str], ops: &[&str], resources: &[&str]) -> Value {
        json!({"apiGroups": groups, "apiVersions": versions, "operations": ops, "resources": resources})
    }

    const INFRA: &str = "infrastructure.cluster.x-k8s.io";

    fn template(kind: &str) -> Value {
        json!({"apiVersion": format!("{INFRA}/v1beta2"), "kind": kind,
               "metadata": {"name": "t", "namespace": "fleet"}})
    }

    const HINT: &str = "the stored template may hold this field (a provider's defaulting webhook sets it): pass the template as stored with --current";

    #[test]
    fn names_the_webhook_that_defaults_the_kind() {
        let ok = rule(
            &[INFRA],
            &["v1beta2"],
            &["CREATE", "UPDATE"],
            &["awsclustertemplates"],
        );
        // (webhooks, kind, named webhook)
        let cases: Vec<(Value, &str, Option<&str>)> = vec![
            (
                json!([hook("default.awsclustertemplate", ok.clone())]),
                "AWSClusterTemplate",
                Some("default.awsclustertemplate"),
            ),
            (
                json!([hook("any", rule(&["*"], &["*"], &["*"], &["*"]))]),
                "AWSClusterTemplate",
                Some("any"),
            ),
            (
                json!([hook(
                    "all",
                    rule(&[INFRA], &["v1beta1"], &["CREATE"], &["*/*"])
                )]),
                "AWSClusterTemplate",
                Some("all"),
            ),
            // Another kind, a delete-only rule, a subresource only, another group: none.
            (json!([hook("m", ok.clone())]), "AWSMachineTemplate", None),
            (
                json!([hook(
                    "d",
                    rule(&[INFRA], &["*"], &["DELETE"], &["awsclustertemplates"])
                )]),
                "AWSClusterTemplate",
                None,
            ),
            (
                json!([hook(
                    "s",
                    rule(&[INFRA], &["*"], &["*"], &["awsclustertemplates/status"])
                )]),
                "AWSClusterTemplate",
                None,
            ),
            (
                json!([hook("g", rule(&["example.com"], &["*"], &["*"], &["*"]))]),
                "AWSClusterTemplate",
                None,
            ),
            // matchPolicy Exact in another version: not sent.
            (
                json!([{"name": "x", "matchPolicy": "Exact",
                     "rules": [rule(&[INFRA], &["v1beta1"], &["CREATE"], &["awsclustertemplates"])]}]),
                "AWSClusterTemplate",
                None,
            ),
            // Guessed plurals.
            (
                json!([hook("p", rule(&[INFRA], &["*"], &["CREATE"], &["proxies"]))]),
                "Proxy",
                Some("p"),
            ),
            (
                json!([hook("c", rule(&[INFRA], &["*"], &["CREATE"], &["classes"]))]),
                "Class",
                Some("c"),
            ),
            // Malformed webhooks are read as far as they go.
            (json!("x"), "AWSClusterTemplate", None),
            (json!([{"rules": "x"}, 3]), "AWSClusterTemplate", None),
        ];
        for (hooks, kind, want) in cases {
            let d = Defaulting::new(&[webhooks(hooks.clone())], BTreeSet::new());
            let help = d.missing_path_help(&template(kind));
            assert!(help.starts_with(HINT), "{help}");
            match want {
                Some(w) => assert!(
                    help.ends_with(&format!(
                        "; {kind} has a defaulting webhook ({w:?} in MutatingWebhookConfiguration capa-mutating)"
                    )),
                    "{hooks}: {help}"
                ),
                None => assert_eq!(help, HINT, "{hooks}"),
            }
        }
    }

    #[test]
    fn a_crd_gives_the_plural() {
        let crd = object(
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "odd.infrastructure.cluster.x-k8s.io"},
            "spec": {"group": INFRA, "names": {"kind": "OddTemplate", "plural": "oddities"}}}),
        );
        let hooks = webhooks(json!([hook(
            "o",
            rule(&[INFRA], &["*"], &["CREATE"], &["oddities"])
        )]));
        let d = Defaulting::new(&[crd, hooks], BTreeSet::new());
        assert!(
            d.missing_path_help(&template("OddTemplate"))
                .contains("(\"o\" in")
        );
    }

    #[test]
    fn a_stored_template_is_not_sent_to_current_again() {
        let stored = BTreeSet::from([(
            format!("{INFRA}/v1beta2"),
            "AWSClusterTemplate".to_string(),
            "fleet".to_string(),
            "t".to_string(),
        )]);
        let d = Defaulting::new(&[], stored);
        assert_eq!(
            d.missing_path_help(&template("AWSClusterTemplate")),
            "the template as stored (--current) does not hold this field either"
        );
        assert_eq!(d.missing_path_help(&template("Other")), HINT);
        assert_eq!(d.missing_path_help(&json!(null)), HINT);
    }
}
