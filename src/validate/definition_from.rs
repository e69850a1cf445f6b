/*!
The deprecated `definitionFrom` of a v1beta1 Cluster's variable values. Cluster API v1.10 (the
release topoplan follows for v1beta1 objects) refused it in the Cluster `Default` webhook, in
`newValuesIndex` (v1.10.10 `internal/topology/variables/utils.go`), for
`spec.topology.variables` and every override list (control plane, MachineDeployments,
MachinePools); later releases dropped the field with v1beta2, whose conversion discards it.
The v1beta2 form the webhooks read has lost it, so it is put back from the object as written
before the variable checks run. The validating webhook had a check of its own, with a shorter
message ([`topology_errors`]).
*/

use serde_json::Value;

use crate::api::{ApiVersion, Cluster, convert};
use crate::k8s::field::{FieldError, Path, go_quote};
use crate::variables::values::ClusterVariable;

/// Put `definitionFrom` back into `spec` (the v1beta2 form of `cluster`'s spec) when `cluster`
/// was written in v1beta1. Whether any was put back.
pub(super) fn restore(cluster: &Cluster, spec: &mut Value) -> bool {
    match (cluster.api, cluster.object.value.get("spec")) {
        (ApiVersion::V1Beta1, Some(original)) => convert::restore_definition_from(original, spec),
        _ => false,
    }
}

/// `cluster`'s v1beta2 spec with `definitionFrom` put back (see [`restore`]).
pub(super) fn with_restored(cluster: &Cluster) -> Value {
    let mut spec = cluster.spec_value.clone();
    restore(cluster, &mut spec);
    spec
}

/// Cluster API v1.10.10's `validateTopologyDefinitionFrom` (`internal/webhooks/cluster.go`),
/// the validating webhook's check, for a v1beta1 `cluster`: reached only when the mutating
/// webhook let the Cluster through, that is when its class was not found.
pub(super) fn topology_errors(cluster: &Cluster, path: &Path) -> Vec<FieldError> {
    let Some(original) = cluster.object.value.get("spec") else {
        return Vec::new();
    };
    if cluster.api != ApiVersion::V1Beta1 {
        return Vec::new();
    }
    let mut errs = Vec::new();
    let mut check = |list: Option<&Value>, at: &Path| {
        for (i, v) in list
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let from = v
                .get("definitionFrom")
                .and_then(Value::as_str)
                .unwrap_or("");
            if from.is_empty() {
                continue;
            }
            let var = ClusterVariable::from_json(v);
            errs.push(FieldError::invalid(
                &at.key_at(&var.name, i),
                var.raw(),
                format!("variable {} has DefinitionFrom set", go_quote(&var.name)),
            ));
        }
    };
    check(
        original.pointer("/topology/variables"),
        &path.child("variables"),
    );
    check(
        original.pointer("/topology/controlPlane/variables/overrides"),
        &path
            .child("controlPlane")
            .child("variables")
            .child("overrides"),
    );
    for kind in ["machineDeployments", "machinePools"] {
        let workers = original
            .pointer(&format!("/topology/workers/{kind}"))
            .and_then(Value::as_array);
        for (i, w) in workers.into_iter().flatten().enumerate() {
            let name = w.get("name").and_then(Value::as_str).unwrap_or("");
            check(
                w.pointer("/variables/overrides"),
                &path
                    .child("workers")
                    .child(kind)
                    .key_at(name, i)
                    .child("variables")
                    .child("overrides"),
            );
        }
    }
    errs
}
