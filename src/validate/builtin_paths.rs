/*!
**Temporary private copy** — the builtin variable names an inline patch's `valueFrom.variable`
may name, as listed by Cluster API's patch webhook (`builtinVariables` in
`patch_validation.go`). `crate::variables::builtins::is_builtin_path` will own these lists;
this file goes away when the two branches are merged.

Two lists: Cluster API main's, and v1.10's (which has `builtin.cluster.network.ipFamily` and no
`classRef` fields). A v1beta2 class is checked against main's list, a v1beta1 class against
v1.10's, because topoplan plans v1beta1 input as v1.10 did and v1.10 supplies (and accepts)
exactly its own builtins. Only the listed names pass: deeper paths such as
`builtin.cluster.metadata.labels.foo` are rejected, as in Cluster API.
*/

use crate::api::ApiVersion;

/// Cluster API main.
const MAIN: &[&str] = &[
    "builtin",
    "builtin.cluster",
    "builtin.cluster.name",
    "builtin.cluster.namespace",
    "builtin.cluster.uid",
    "builtin.cluster.metadata.labels",
    "builtin.cluster.metadata.annotations",
    "builtin.cluster.topology",
    "builtin.cluster.topology.classRef.name",
    "builtin.cluster.topology.classRef.namespace",
    "builtin.cluster.topology.class",
    "builtin.cluster.topology.classNamespace",
    "builtin.cluster.topology.version",
    "builtin.cluster.network",
    "builtin.cluster.network.serviceDomain",
    "builtin.cluster.network.services",
    "builtin.cluster.network.pods",
    "builtin.controlPlane",
    "builtin.controlPlane.name",
    "builtin.controlPlane.replicas",
    "builtin.controlPlane.version",
    "builtin.controlPlane.metadata.labels",
    "builtin.controlPlane.metadata.annotations",
    "builtin.controlPlane.machineTemplate.infrastructureRef.name",
    "builtin.machineDeployment",
    "builtin.machineDeployment.class",
    "builtin.machineDeployment.name",
    "builtin.machineDeployment.replicas",
    "builtin.machineDeployment.topologyName",
    "builtin.machineDeployment.version",
    "builtin.machineDeployment.metadata.labels",
    "builtin.machineDeployment.metadata.annotations",
    "builtin.machineDeployment.bootstrap.configRef.name",
    "builtin.machineDeployment.infrastructureRef.name",
    "builtin.machinePool",
    "builtin.machinePool.class",
    "builtin.machinePool.name",
    "builtin.machinePool.replicas",
    "builtin.machinePool.topologyName",
    "builtin.machinePool.version",
    "builtin.machinePool.metadata.labels",
    "builtin.machinePool.metadata.annotations",
    "builtin.machinePool.bootstrap.configRef.name",
    "builtin.machinePool.infrastructureRef.name",
];

/// Cluster API v1.10 (`internal/webhooks/patch_validation.go`).
const V1_10: &[&str] = &[
    "builtin",
    "builtin.cluster",
    "builtin.cluster.name",
    "builtin.cluster.namespace",
    "builtin.cluster.uid",
    "builtin.cluster.metadata.labels",
    "builtin.cluster.metadata.annotations",
    "builtin.cluster.topology",
    "builtin.cluster.topology.class",
    "builtin.cluster.topology.classNamespace",
    "builtin.cluster.topology.version",
    "builtin.cluster.network",
    "builtin.cluster.network.serviceDomain",
    "builtin.cluster.network.services",
    "builtin.cluster.network.pods",
    "builtin.cluster.network.ipFamily",
    "builtin.controlPlane",
    "builtin.controlPlane.name",
    "builtin.controlPlane.replicas",
    "builtin.controlPlane.version",
    "builtin.controlPlane.metadata.labels",
    "builtin.controlPlane.metadata.annotations",
    "builtin.controlPlane.machineTemplate.infrastructureRef.name",
    "builtin.machineDeployment",
    "builtin.machineDeployment.class",
    "builtin.machineDeployment.name",
    "builtin.machineDeployment.replicas",
    "builtin.machineDeployment.topologyName",
    "builtin.machineDeployment.version",
    "builtin.machineDeployment.metadata.labels",
    "builtin.machineDeployment.metadata.annotations",
    "builtin.machineDeployment.bootstrap.configRef.name",
    "builtin.machineDeployment.infrastructureRef.name",
    "builtin.machinePool",
    "builtin.machinePool.class",
    "builtin.machinePool.name",
    "builtin.machinePool.replicas",
    "builtin.machinePool.topologyName",
    "builtin.machinePool.version",
    "builtin.machinePool.metadata.labels",
    "builtin.machinePool.metadata.annotations",
    "builtin.machinePool.bootstrap.configRef.name",
    "builtin.machinePool.infrastructureRef.name",
];

/// Whether `path` is a builtin variable the patch webhook accepts for a class written in `api`.
pub fn is_builtin_path(path: &str, api: ApiVersion) -> bool {
    let list = match api {
        ApiVersion::V1Beta2 => MAIN,
        ApiVersion::V1Beta1 => V1_10,
    };
    list.contains(&path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_differ_where_cluster_api_changed() {
        assert!(is_builtin_path(
            "builtin.cluster.topology.classRef.name",
            ApiVersion::V1Beta2
        ));
        assert!(!is_builtin_path(
            "builtin.cluster.topology.classRef.name",
            ApiVersion::V1Beta1
        ));
        assert!(is_builtin_path(
            "builtin.cluster.network.ipFamily",
            ApiVersion::V1Beta1
        ));
        assert!(!is_builtin_path(
            "builtin.cluster.network.ipFamily",
            ApiVersion::V1Beta2
        ));
        assert!(!is_builtin_path(
            "builtin.cluster.metadata.labels.foo",
            ApiVersion::V1Beta2
        ));
        assert!(is_builtin_path("builtin", ApiVersion::V1Beta2));
    }
}
