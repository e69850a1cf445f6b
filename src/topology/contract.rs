/*!
Control-plane contract versions: which field paths a ControlPlane object uses.

Cluster API reads the contract from the provider CRD's `cluster.x-k8s.io/<contract>` labels
(desired-state.md §3). Without CRDs in the input, topoplan takes the ControlPlane's API version:
`v1beta2` → contract v1beta2, anything older → contract v1beta1, which is what every provider
that serves both follows. Owns only that choice and the paths that depend on it.
*/

/// A Cluster API provider contract version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// v1beta1: `spec.machineTemplate.infrastructureRef` as ObjectReference, duration timeouts.
    V1Beta1,
    /// v1beta2: `spec.machineTemplate.spec.*`, `{apiGroup, kind, name}` refs, seconds.
    V1Beta2,
}

impl Contract {
    /// The contract of a provider object from its apiVersion.
    pub fn for_api_version(api_version: &str) -> Contract {
        match api_version.rsplit('/').next() {
            Some("v1beta2") => Contract::V1Beta2,
            _ => Contract::V1Beta1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_map_to_contracts() {
        assert_eq!(
            Contract::for_api_version("controlplane.cluster.x-k8s.io/v1beta2"),
            Contract::V1Beta2
        );
        assert_eq!(
            Contract::for_api_version("controlplane.cluster.x-k8s.io/v1beta1"),
            Contract::V1Beta1
        );
        assert_eq!(
            Contract::for_api_version("controlplane.cluster.x-k8s.io/v1alpha3"),
            Contract::V1Beta1
        );
    }
}
