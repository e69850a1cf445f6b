//! MachineHealthChecks for the control plane and MachineDeployments
//! (`computeMachineHealthCheck` and the blueprint's enablement rules, `exp/topology/scope/blueprint.go`).

use serde_json::{Map, Value, json};

use super::ctx::{Ctx, put};
use crate::api::convert::V1BETA1_NAMESPACE;
use crate::api::convert::go_duration_string;
use crate::api::{ApiVersion, HealthCheck, labels};

/// Which health check applies, if any: the topology's when it is defined, else the class's —
/// all or nothing, never merged — unless neither is defined or the topology disables it.
///
/// v1beta1 output follows Cluster API v1.10: a class health check counts when the
/// `machineHealthCheck` field is present at all, a topology one when it sets any check
/// (`enable` and the strategy's maxInFlight do not count). v1beta2 follows `IsDefined`.
fn pick<'h>(
    ctx: &Ctx<'_>,
    topo: &'h HealthCheck,
    class: &'h HealthCheck,
) -> Option<(&'h HealthCheck, String)> {
    let (class_defined, topo_defined) = match (ctx.api, class.v1beta1_present, topo.v1beta1_present)
    {
        (ApiVersion::V1Beta1, Some(class_present), topo_present) => (
            class_present,
            topo_present.unwrap_or(true) && topo.has_v1beta1_checks(),
        ),
        _ => (class.is_defined(), topo.is_defined()),
    };
    if !class_defined && !topo_defined {
        return None;
    }
    if topo.enabled == Some(false) {
        return None;
    }
    // A v1beta1 remediation template without a namespace was defaulted by the webhook of the
    // object it was written in.
    Some(if topo_defined {
        (topo, ctx.cluster.namespace().to_string())
    } else {
        (class, ctx.bp.class.object.namespace.clone())
    })
}

/// The control plane's MachineHealthCheck, when the class has machine infrastructure and a
/// health check is defined and not disabled.
pub fn control_plane(ctx: &Ctx<'_>, cp: &Value) -> Option<Value> {
    ctx.bp.control_plane_machine_infrastructure?;
    let (hc, default_ns) = pick(
        ctx,
        &ctx.cluster.topology().control_plane.health_check,
        &ctx.bp.class.spec.control_plane.health_check,
    )?;
    let selector = json!({ labels::TOPOLOGY_OWNED: "", labels::CONTROL_PLANE: "" });
    Some(build(ctx, cp, selector, hc, &default_ns))
}

/// A MachineDeployment's MachineHealthCheck.
pub fn machine_deployment(
    ctx: &Ctx<'_>,
    md: &Value,
    topology_name: &str,
    topo: &HealthCheck,
    class: &HealthCheck,
) -> Option<Value> {
    let (hc, default_ns) = pick(ctx, topo, class)?;
    let selector = json!({ labels::TOPOLOGY_OWNED: "", labels::DEPLOYMENT_NAME: topology_name });
    Some(build(ctx, md, selector, hc, &default_ns))
}

fn build(
    ctx: &Ctx<'_>,
    target: &Value,
    match_labels: Value,
    hc: &HealthCheck,
    default_ns: &str,
) -> Value {
    let name = target
        .pointer("/metadata/name")
        .cloned()
        .unwrap_or(Value::Null);
    let namespace = ctx.cluster.namespace();
    let mut spec = Map::new();
    spec.insert("clusterName".into(), json!(ctx.cluster.name()));
    spec.insert("selector".into(), json!({ "matchLabels": match_labels }));
    match ctx.api {
        ApiVersion::V1Beta2 => {
            let mut checks = hc.checks.clone();
            // The MHC webhook's Default, which computeMachineHealthCheck runs on the object.
            if checks
                .get("nodeStartupTimeoutSeconds")
                .is_none_or(Value::is_null)
            {
                checks.insert("nodeStartupTimeoutSeconds".into(), json!(600));
            }
            put(&mut spec, "checks", Value::Object(checks));
            let mut remediation = hc.remediation.clone();
            // maxInFlight belongs to the MachineDeployment, not the health check.
            remediation.remove("maxInFlight");
            if let Some(Value::Object(t)) = remediation.get_mut("templateRef") {
                t.remove(V1BETA1_NAMESPACE);
            }
            remediation.retain(|_, v| !crate::api::is_zero(v));
            put(&mut spec, "remediation", Value::Object(remediation));
        }
        ApiVersion::V1Beta1 => v1beta1_spec(&mut spec, hc, namespace, default_ns),
    }
    json!({
        "apiVersion": ctx.api.api_version(),
        "kind": "MachineHealthCheck",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": { labels::TOPOLOGY_OWNED: "", labels::CLUSTER_NAME: ctx.cluster.name() },
            "ownerReferences": [ctx.cluster_owner_ref()],
        },
        "spec": Value::Object(spec),
    })
}

/// The v1beta1 MachineHealthCheck spec, defaulted as Cluster API v1.10's webhook did.
fn v1beta1_spec(
    spec: &mut Map<String, Value>,
    hc: &HealthCheck,
    namespace: &str,
    default_ns: &str,
) {
    let conditions = |key: &str| -> Value {
        let list = hc
            .checks
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        Value::Array(
            list.into_iter()
                .map(|c| {
                    let mut o = Map::new();
                    for f in ["type", "status"] {
                        if let Some(v) = c.get(f) {
                            o.insert(f.into(), v.clone());
                        }
                    }
                    if let Some(s) = c.get("timeoutSeconds").and_then(Value::as_i64) {
                        o.insert("timeout".into(), json!(go_duration_string(s)));
                    }
                    Value::Object(o)
                })
                .collect(),
        )
    };
    put(
        spec,
        "unhealthyConditions",
        conditions("unhealthyNodeConditions"),
    );
    let trigger = hc.remediation.get("triggerIf");
    let max_unhealthy = trigger
        .and_then(|t| t.get("unhealthyLessThanOrEqualTo"))
        .filter(|v| !v.is_null())
        .cloned()
        .unwrap_or_else(|| json!("100%"));
    spec.insert("maxUnhealthy".into(), max_unhealthy);
    if let Some(r) = trigger.and_then(|t| t.get("unhealthyInRange")) {
        put(spec, "unhealthyRange", r.clone());
    }
    let startup = hc
        .checks
        .get("nodeStartupTimeoutSeconds")
        .and_then(Value::as_i64)
        .unwrap_or(600);
    spec.insert(
        "nodeStartupTimeout".into(),
        json!(go_duration_string(startup)),
    );
    if let Some(Value::Object(t)) = hc.remediation.get("templateRef")
        && !crate::api::is_zero_map(t)
    {
        let mut r = t.clone();
        r.retain(|_, v| !crate::api::is_zero(v));
        // The ClusterClass (or Cluster) webhook defaulted an empty namespace to its own; the
        // MHC webhook would have used the MHC's for one still empty.
        let ns = r
            .remove(V1BETA1_NAMESPACE)
            .filter(|v| !crate::api::is_zero(v))
            .unwrap_or_else(|| {
                json!(if default_ns.is_empty() {
                    namespace
                } else {
                    default_ns
                })
            });
        r.insert("namespace".into(), ns);
        spec.insert("remediationTemplate".into(), Value::Object(r));
    }
}
