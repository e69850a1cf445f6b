//! The Cluster's own changes (`computeCluster`, `exp/topology/desiredstate/desired_state.go`) and the cluster shim
//! Secret (`reconcileClusterShim`, `core/reconcilers/topology/cluster/reconcile_state.go`).

use serde_json::{Value, json};

use super::ctx::Ctx;
use super::refs;
use crate::api::labels;
use crate::json::set_path;

/// The input Cluster with the topology labels and the two references set.
///
/// With no current control plane there is no upgrade plan, so the upgrade-step annotation is
/// removed (v1beta2) — v1.10 had no such annotation.
pub fn compute(ctx: &Ctx<'_>, infra: &Value, cp: &Value) -> Value {
    let mut c = ctx.cluster.object.value.clone();
    if let Some(m) = c.as_object_mut() {
        m.remove("status");
    }
    set_path(
        &mut c,
        &["metadata", "labels", labels::CLUSTER_NAME],
        json!(ctx.cluster.name()),
    );
    set_path(
        &mut c,
        &["metadata", "labels", labels::TOPOLOGY_OWNED],
        json!(""),
    );
    set_path(
        &mut c,
        &["spec", "infrastructureRef"],
        refs::core(ctx.api, infra),
    );
    set_path(
        &mut c,
        &["spec", "controlPlaneRef"],
        refs::core(ctx.api, cp),
    );
    // The Cluster webhook's defaulting stores the version with its `v` prefix.
    if c.pointer("/spec/topology/version").and_then(Value::as_str) != Some(ctx.version.as_str())
        && !ctx.version.is_empty()
    {
        set_path(&mut c, &["spec", "topology", "version"], json!(ctx.version));
    }
    if let Some(a) = c
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        a.remove("topology.internal.cluster.x-k8s.io/upgrade-step");
    }
    c
}

/// The `<cluster>-shim` Secret created while the InfrastructureCluster or ControlPlane is missing.
pub fn shim(ctx: &Ctx<'_>) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": format!("{}-shim", ctx.cluster.name()),
            "namespace": ctx.cluster.namespace(),
            "ownerReferences": [ctx.cluster_owner_ref()],
        },
        "type": "cluster.x-k8s.io/secret",
    })
}
