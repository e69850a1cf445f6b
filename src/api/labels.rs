/*!
Well-known label and annotation keys Cluster API's topology controller reads and writes.

The strings are identical in v1beta1 and v1beta2 (`api/core/v1beta2/common_types.go`).
*/

/// Cluster name, on every generated object.
pub const CLUSTER_NAME: &str = "cluster.x-k8s.io/cluster-name";
/// Marks objects the topology controller manages.
pub const TOPOLOGY_OWNED: &str = "topology.cluster.x-k8s.io/owned";
/// MachineDeployment topology name.
pub const DEPLOYMENT_NAME: &str = "topology.cluster.x-k8s.io/deployment-name";
/// MachinePool topology name.
pub const POOL_NAME: &str = "topology.cluster.x-k8s.io/pool-name";
/// Name of the template an object was cloned from.
pub const CLONED_FROM_NAME: &str = "cluster.x-k8s.io/cloned-from-name";
/// `Kind.group` of the template an object was cloned from.
pub const CLONED_FROM_GROUP_KIND: &str = "cluster.x-k8s.io/cloned-from-groupkind";
/// Holds the upgrade of an MD/MP topology and every later one; never copied to objects.
pub const HOLD_UPGRADE_SEQUENCE: &str = "topology.cluster.x-k8s.io/hold-upgrade-sequence";
/// Holds only this MD/MP topology's upgrade; never copied to objects.
pub const DEFER_UPGRADE: &str = "topology.cluster.x-k8s.io/defer-upgrade";
/// kubectl's last-applied annotation, removed from cloned templates.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// Control plane machines selector label.
pub const CONTROL_PLANE: &str = "cluster.x-k8s.io/control-plane";
