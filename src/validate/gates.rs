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

impl Gates {
    /// Apply a `--feature-gates` value (`Name=true,Other=false`, Kubernetes' syntax) on top of
    /// `self`. Gates the admission rules do not read are accepted and ignored, as Cluster API
    /// knows them; unknown names are an error.
    pub fn with_flags(mut self, spec: &str) -> Result<Gates, String> {
        const IGNORED: &[&str] = &[
            "MachineWaitForVolumeDetachConsiderVolumeAttachments",
            "PriorityQueue",
            "ReconcilerRateLimiting",
            "MachinePool",
            "MachineSetPreflightChecks",
            "KubeadmBootstrapFormatIgnition",
            "InPlaceUpdates",
        ];
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((name, value)) = item.split_once('=') else {
                return Err(format!(
                    "missing bool value for {item:?}: expected Name=true or Name=false"
                ));
            };
            // Kubernetes parses the value with strconv.ParseBool.
            let on = match value.trim() {
                "1" | "t" | "T" | "true" | "TRUE" | "True" => true,
                "0" | "f" | "F" | "false" | "FALSE" | "False" => false,
                other => {
                    return Err(format!(
                        "invalid value of {name}={other}, err: strconv.ParseBool: parsing {other:?}: invalid syntax"
                    ));
                }
            };
            match name.trim() {
                "ClusterTopology" => self.cluster_topology = on,
                "RuntimeSDK" => self.runtime_sdk = on,
                "MachineTaintPropagation" => self.machine_taint_propagation = on,
                n if IGNORED.contains(&n) => {}
                n => return Err(format!("unrecognized feature gate: {n}")),
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod flag_tests {
    use super::Gates;

    #[test]
    fn flags_override_the_defaults() {
        let g = Gates::default()
            .with_flags("MachineTaintPropagation=true, RuntimeSDK=false,MachinePool=true")
            .unwrap_or_default();
        assert!(g.machine_taint_propagation && !g.runtime_sdk && g.cluster_topology);
        assert_eq!(
            Gates::default().with_flags("Nope=true").err().as_deref(),
            Some("unrecognized feature gate: Nope")
        );
        assert!(Gates::default().with_flags("RuntimeSDK").is_err());
        assert!(Gates::default().with_flags("RuntimeSDK=maybe").is_err());
    }
}
