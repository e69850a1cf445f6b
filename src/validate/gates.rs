/*!
Feature gates the admission rules consult, with the state topoplan assumes for each.

Cluster API declares its gates in `feature/feature.go` (`defaultClusterAPIFeatureGates`). On
main every gate used here is Alpha and **off by default**; a management cluster turns them on
with `--feature-gates` (clusterctl: `CLUSTER_TOPOLOGY=true`, `EXP_RUNTIME_SDK=true`,
`EXP_MACHINE_TAINT_PROPAGATION=true`). topoplan's defaults:

| gate | Cluster API main default | topoplan default | why |
|---|---|---|---|
| `ClusterTopology` | off (Alpha) | **on** | a topology planner only makes sense where ClusterClass is enabled |
| `RuntimeSDK` | off (Alpha) | **on** | external patches are part of the classes we plan |
| `MachineTaintPropagation` | off (Alpha) | **off** | follows Cluster API: taints in a class or topology are rejected unless the user opts in |

Nothing reads the environment: callers that want another state build a [`Gates`] value.
*/

/// The state of the feature gates the admission rules read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gates {
    /// `ClusterTopology`: ClusterClass and `Cluster.spec.topology` may be used at all.
    pub cluster_topology: bool,
    /// `RuntimeSDK`: patches may be `external`.
    pub runtime_sdk: bool,
    /// `MachineTaintPropagation`: `taints` may be set on classes and topologies.
    pub machine_taint_propagation: bool,
}

impl Default for Gates {
    /// topoplan's defaults (see the module documentation).
    fn default() -> Self {
        Gates {
            cluster_topology: true,
            runtime_sdk: true,
            machine_taint_propagation: false,
        }
    }
}

impl Gates {
    /// Cluster API main's own defaults (`feature/feature.go`): every gate here off.
    pub fn cluster_api_defaults() -> Self {
        Gates {
            cluster_topology: false,
            runtime_sdk: false,
            machine_taint_propagation: false,
        }
    }

    /// Every gate on.
    pub fn all() -> Self {
        Gates {
            cluster_topology: true,
            runtime_sdk: true,
            machine_taint_propagation: true,
        }
    }
}
