/*!
The deprecated `definitionFrom` of a v1beta1 Cluster's variable values. Cluster API v1.10 (the
release topoplan follows for v1beta1 objects) refused it in the Cluster `Default` webhook, in
`newValuesIndex` (v1.10.10 `internal/topology/variables/utils.go`), for
`spec.topology.variables` and every override list (control plane, MachineDeployments,
MachinePools); later releases dropped the field with v1beta2, whose conversion discards it.
The v1beta2 form the webhooks read has lost it, so it is put back from the object as written
before the variable checks run.
*/

use serde_json::Value;

use crate::api::{ApiVersion, Cluster, convert};

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
