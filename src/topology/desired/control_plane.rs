//! The ControlPlane and its machines' infrastructure template (`computeControlPlane`,
//! `computeControlPlaneInfrastructureMachineTemplate`, `exp/topology/desiredstate/desired_state.go`; contract paths in `internal/contract/controlplane.go`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::ctx::Ctx;
use super::infrastructure_cluster::{ensure_owner_ref, naming_error, shim_owner_ref};
use super::refs;
use super::role::Role;
use crate::api::convert::go_duration_string;
use crate::api::{ApiVersion, labels};
use crate::diag::Diagnostic;
use crate::json::set_path;
use crate::topology::contract::Contract;
use crate::topology::names::{self, NameTarget};
use crate::topology::template::{self, CloneInput, merge_map, string_map, to_value};

/// The control plane's InfrastructureMachineTemplate, when the class has machine infrastructure.
pub fn compute_machine_template(ctx: &Ctx<'_>) -> Option<Value> {
    let tpl = ctx.bp.control_plane_machine_infrastructure?;
    let role = Role::ControlPlaneInfrastructureMachineTemplate;
    let name = ctx.simple_name(&format!("{}-", ctx.cluster.name()), &role);
    Some(template::to_template(CloneInput {
        template: tpl,
        cluster_name: ctx.cluster.name(),
        namespace: ctx.cluster.namespace(),
        name,
        labels: BTreeMap::new(),
        annotations: BTreeMap::new(),
        owner: Some(ctx.cluster_owner_ref()),
    }))
}

/// The desired ControlPlane.
pub fn compute(ctx: &Ctx<'_>, machine_template: Option<&Value>) -> Result<Value, Diagnostic> {
    ctx.check_spec_template(ctx.bp.control_plane, "ControlPlane")?;
    let class = &ctx.bp.class.spec.control_plane;
    let topo = &ctx.cluster.topology().control_plane;

    let mut cp_labels = merge_map(&topo.metadata.labels, &class.metadata.labels);
    cp_labels.insert(labels::CLUSTER_NAME.into(), ctx.cluster.name().to_string());
    cp_labels.insert(labels::TOPOLOGY_OWNED.into(), String::new());
    let cp_annotations = merge_map(&topo.metadata.annotations, &class.metadata.annotations);

    let mut cp = template::to_object(CloneInput {
        template: ctx.bp.control_plane,
        cluster_name: ctx.cluster.name(),
        namespace: ctx.cluster.namespace(),
        name: control_plane_name(ctx)?,
        labels: cp_labels.clone(),
        annotations: cp_annotations.clone(),
        owner: None,
    });
    ensure_owner_ref(&mut cp, shim_owner_ref(ctx));

    let api_version = cp
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    // The contract comes from the template's CRD; a template that sets its own apiVersion in
    // spec.template names another version, whose contract follows from its name.
    let contract = if api_version == ctx.bp.control_plane.api_version {
        ctx.bp.control_plane_contract
    } else {
        Contract::for_api_version(&api_version)
    };

    if let Some(mt) = machine_template {
        set_machine_template(&mut cp, contract, mt, &cp_labels, &cp_annotations);
    }
    if let Some(r) = &topo.replicas {
        set_path(&mut cp, &["spec", "replicas"], r.clone());
    }
    set_rollout_after(ctx, &mut cp)?;
    set_machine_spec_fields(ctx, &mut cp, contract);
    // computeControlPlaneVersion: topology.version for a new control plane, otherwise what the
    // upgrade sequencing allows on this pass.
    set_path(
        &mut cp,
        &["spec", "version"],
        json!(ctx.version_for(&Role::ControlPlane)),
    );
    Ok(cp)
}

/// The ControlPlane's name: the Cluster's reference to it, else the class's naming template's.
fn control_plane_name(ctx: &Ctx<'_>) -> Result<String, Diagnostic> {
    let class = &ctx.bp.class.spec.control_plane;
    Ok(match ctx.cluster.spec.control_plane_ref.name.as_str() {
        "" => names::from_template(
            &class.naming.template,
            ctx.cluster.name(),
            &NameTarget::ControlPlane,
            &ctx.seed(&Role::ControlPlane),
        )
        .map_err(|e| {
            let ptr = match ctx.bp.class.api {
                ApiVersion::V1Beta1 => "/spec/controlPlane/namingStrategy/template",
                ApiVersion::V1Beta2 => "/spec/controlPlane/naming/template",
            };
            naming_error(ctx, "ControlPlane", &e, ptr)
        })?,
        current => current.to_string(),
    })
}

/// Reference the machines' InfrastructureMachineTemplate (`mt`) where `contract` puts it, and
/// give the machines the ControlPlane's labels and annotations (`cp_labels`,
/// `cp_annotations`), which win over those the template already put on them.
fn set_machine_template(
    cp: &mut Value,
    contract: Contract,
    mt: &Value,
    cp_labels: &BTreeMap<String, String>,
    cp_annotations: &BTreeMap<String, String>,
) {
    match contract {
        Contract::V1Beta1 => set_path(
            cp,
            &["spec", "machineTemplate", "infrastructureRef"],
            refs::object_reference(mt),
        ),
        Contract::V1Beta2 => set_path(
            cp,
            &["spec", "machineTemplate", "spec", "infrastructureRef"],
            refs::contract_versioned(mt),
        ),
    }
    let existing = cp.pointer("/spec/machineTemplate/metadata").cloned();
    let ml = merge_map(
        cp_labels,
        &string_map(existing.as_ref().and_then(|m| m.get("labels"))),
    );
    let ma = merge_map(
        cp_annotations,
        &string_map(existing.as_ref().and_then(|m| m.get("annotations"))),
    );
    // Metadata.Set drops a map that ends up empty rather than writing `{}`.
    let mut meta = serde_json::Map::new();
    if !ml.is_empty() {
        meta.insert("labels".into(), to_value(ml));
    }
    if !ma.is_empty() {
        meta.insert("annotations".into(), to_value(ma));
    }
    set_path(
        cp,
        &["spec", "machineTemplate", "metadata"],
        Value::Object(meta),
    );
}

/// The topology's `rollout.after`, when set, normalized as the API server stores a time.
fn set_rollout_after(ctx: &Ctx<'_>, cp: &mut Value) -> Result<(), Diagnostic> {
    let topo = &ctx.cluster.topology().control_plane;
    let Some(after) = topo
        .rollout
        .after
        .as_ref()
        .filter(|a| !crate::api::is_zero(a))
    else {
        return Ok(());
    };
    let after = crate::api::time::normalize(after).map_err(|e| {
        ctx.cluster_error(
            crate::diag::Code::PlanDesiredState,
            format!(
                "Cluster {}: spec.topology.controlPlane.rollout.after: {e}",
                ctx.cluster.object.key()
            ),
            "/spec/topology/controlPlane/rollout/after",
            "expected an RFC 3339 time",
        )
    })?;
    set_path(cp, &["spec", "rollout", "after"], after);
    Ok(())
}

/// The machines' readiness gates, taints and deletion timeouts (the topology's, else the
/// class's), where `contract` puts them. The contract setters delete the path first and
/// write only a non-nil value, so `[]` is written as `[]` (`internal/contract/controlplane.go`).
fn set_machine_spec_fields(ctx: &Ctx<'_>, cp: &mut Value, contract: Contract) {
    let class = &ctx.bp.class.spec.control_plane;
    let topo = &ctx.cluster.topology().control_plane;
    let machine_spec: &[&str] = match contract {
        Contract::V1Beta1 => &["spec", "machineTemplate"],
        Contract::V1Beta2 => &["spec", "machineTemplate", "spec"],
    };
    let with = |last: &'static str| -> Vec<&str> {
        let mut p = machine_spec.to_vec();
        p.push(last);
        p
    };
    if let Some(g) = topo
        .readiness_gates
        .as_ref()
        .or(class.readiness_gates.as_ref())
    {
        set_path(cp, &with("readinessGates"), g.clone());
    }
    if let Some(t) = topo.taints.as_ref().or(class.taints.as_ref()) {
        set_path(cp, &with("taints"), t.clone());
    }
    let timeouts = super::worker::timeouts(&topo.deletion, &class.deletion);
    for (field, value) in timeouts {
        let Some(seconds) = value else { continue };
        match contract {
            Contract::V1Beta1 => set_path(
                cp,
                &["spec", "machineTemplate", field],
                json!(go_duration_string(seconds)),
            ),
            Contract::V1Beta2 => {
                let f = format!("{field}Seconds");
                set_path(
                    cp,
                    &["spec", "machineTemplate", "spec", "deletion", &f],
                    json!(seconds),
                );
            }
        }
    }
}
