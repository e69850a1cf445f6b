/*!
What every builder of a desired object needs ([`Ctx`]: the Cluster, its blueprint, the output
dialect, the current names and versions) and the `omitempty` rule they write fields by
([`put`]).
*/

use serde_json::{Map, Value, json};

use super::object::Existing;
use super::role::Role;
use crate::api::{ApiVersion, Cluster};
use crate::diag::{Code, Diagnostic};
use crate::topology::blueprint::Blueprint;
use crate::topology::names;

/// What every builder needs: the Cluster, its blueprint and the output dialect.
pub(crate) struct Ctx<'a> {
    pub cluster: &'a Cluster,
    pub bp: &'a Blueprint<'a>,
    /// Names and versions decided by the current state.
    pub existing: &'a Existing,
    /// API version of generated core objects: the input Cluster's.
    pub api: ApiVersion,
    /// `spec.topology.version` after webhook defaulting (`v` prefix).
    pub version: String,
}

impl Ctx<'_> {
    /// Seed for the deterministic suffix of the object with this role.
    pub fn seed(&self, role: &Role) -> String {
        format!(
            "{}/{}/{}",
            self.cluster.namespace(),
            self.cluster.name(),
            role.id()
        )
    }

    /// `names.SimpleNameGenerator(prefix)` for `role`, unless the object exists already: then
    /// its current name (as Cluster API's compute functions reuse it).
    pub fn simple_name(&self, prefix: &str, role: &Role) -> String {
        match self.existing.names.get(role) {
            Some(n) => n.clone(),
            None => names::simple(prefix, &self.seed(role)),
        }
    }

    /// The version `role` gets on this pass: what the upgrade sequencing decided, else
    /// `spec.topology.version`.
    pub fn version_for(&self, role: &Role) -> &str {
        self.existing
            .versions
            .get(role)
            .map_or(self.version.as_str(), String::as_str)
    }

    /// `ownerrefs.OwnerReferenceTo(cluster)`: no controller, no blockOwnerDeletion. The uid is
    /// the input Cluster's when it carries one; a Cluster not yet created has none.
    pub fn cluster_owner_ref(&self) -> Value {
        let mut o = Map::new();
        o.insert("apiVersion".into(), json!(self.api.api_version()));
        o.insert("kind".into(), json!("Cluster"));
        o.insert("name".into(), json!(self.cluster.name()));
        if let Some(uid) = self.cluster.uid() {
            o.insert("uid".into(), json!(uid));
        }
        Value::Object(o)
    }

    /// A diagnostic located at `pointer` in the Cluster.
    pub fn cluster_error(
        &self,
        code: Code,
        message: String,
        pointer: &str,
        label: &str,
    ) -> Diagnostic {
        Diagnostic::error(code, message).at(&self.cluster.object.origin, pointer, label)
    }

    /// For v1beta1 output (Cluster API v1.10), fail like `GenerateTemplate` did on a template
    /// without `spec.template`; `what` names the object being generated.
    pub fn check_spec_template(
        &self,
        tpl: &crate::load::Object,
        what: &str,
    ) -> Result<(), Diagnostic> {
        if self.api != ApiVersion::V1Beta1 {
            return Ok(());
        }
        match crate::topology::template::v1_10_spec_template_error(tpl) {
            None => Ok(()),
            Some(e) => Err(Diagnostic::error(Code::PlanDesiredState, format!(
                "Cluster {}: failed to generate the {what} object from the {}: {e}",
                self.cluster.object.key(),
                tpl.kind
            ))
            .at(&tpl.origin, "/spec", "no spec.template")
            .with_help("Cluster API v1.10 (v1beta1) requires spec.template in templates cloned into objects")),
        }
    }

    /// A diagnostic located at `pointer` in the ClusterClass.
    pub fn class_error(
        &self,
        code: Code,
        message: String,
        pointer: &str,
        label: &str,
    ) -> Diagnostic {
        Diagnostic::error(code, message).at(&self.bp.class.object.origin, pointer, label)
    }
}

/// Insert `value` under `key` unless it is Go's zero value for an `omitempty` field
/// (null, "", empty list or map). Numbers and booleans are kept: Cluster API holds them in
/// pointers, so `0` and `false` are real values.
pub(crate) fn put(map: &mut Map<String, Value>, key: &str, value: Value) {
    let empty = match &value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    };
    if !empty {
        map.insert(key.to_string(), value);
    }
}
