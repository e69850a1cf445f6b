//! The InfrastructureCluster (`computeInfrastructureCluster`, `exp/topology/desiredstate/desired_state.go`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::ctx::Ctx;
use super::role::Role;
use crate::diag::Diagnostic;
use crate::topology::names::{self, NameTarget};
use crate::topology::template::{self, CloneInput};

/// The desired InfrastructureCluster: the template's `spec.template`, labelled and named.
pub fn compute(ctx: &Ctx<'_>) -> Result<Value, Diagnostic> {
    ctx.check_spec_template(ctx.bp.infrastructure_cluster, "InfrastructureCluster")?;
    let class = &ctx.bp.class.spec.infrastructure;
    let name = match ctx.cluster.spec.infrastructure_ref.name.as_str() {
        "" => names::from_template(
            &class.naming.template,
            ctx.cluster.name(),
            &NameTarget::InfrastructureCluster,
            &ctx.seed(&Role::InfrastructureCluster),
        )
        .map_err(|e| naming_error(ctx, "InfrastructureCluster", &e, naming_pointer(ctx)))?,
        current => current.to_string(),
    };
    let mut obj = template::to_object(CloneInput {
        template: ctx.bp.infrastructure_cluster,
        cluster_name: ctx.cluster.name(),
        namespace: ctx.cluster.namespace(),
        name,
        labels: BTreeMap::new(),
        annotations: BTreeMap::new(),
        owner: None,
    });
    // reconcileClusterShim makes the shim Secret an owner while the Cluster does not own the
    // object yet, so a failed first reconcile still garbage-collects it.
    ensure_owner_ref(&mut obj, shim_owner_ref(ctx));
    Ok(obj)
}

/// `util.EnsureOwnerRef`: add `owner` unless a reference to the same kind and name (in the same
/// API group) is there already; owner references the template carried are kept.
pub fn ensure_owner_ref(obj: &mut Value, owner: Value) {
    let same = |r: &Value| {
        let group = |v: &Value| {
            v.get("apiVersion")
                .and_then(Value::as_str)
                .map(|a| crate::load::object::group_of(a).to_string())
        };
        r.get("kind") == owner.get("kind")
            && r.get("name") == owner.get("name")
            && group(r) == group(&owner)
    };
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let refs = meta
        .entry("ownerReferences")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !refs.is_array() {
        *refs = Value::Array(Vec::new());
    }
    if let Value::Array(list) = refs {
        match list.iter_mut().find(|r| same(r)) {
            Some(existing) => *existing = owner,
            None => list.push(owner),
        }
    }
}

/// Owner reference to the cluster shim Secret (its uid is unknown before it exists).
pub fn shim_owner_ref(ctx: &Ctx<'_>) -> Value {
    json!({"apiVersion": "v1", "kind": "Secret", "name": format!("{}-shim", ctx.cluster.name())})
}

fn naming_pointer(ctx: &Ctx<'_>) -> &'static str {
    match ctx.bp.class.api {
        crate::api::ApiVersion::V1Beta1 => "/spec/infrastructureNamingStrategy/template",
        crate::api::ApiVersion::V1Beta2 => "/spec/infrastructure/naming/template",
    }
}

/// A naming failure, reported at the class's naming template.
pub fn naming_error(ctx: &Ctx<'_>, what: &str, err: &str, pointer: &str) -> Diagnostic {
    ctx.class_error(
        crate::diag::Code::PlanDesiredState,
        format!(
            "Cluster {}: failed to generate name for {what}: {err}",
            ctx.cluster.object.key()
        ),
        pointer,
        "naming template",
    )
}
