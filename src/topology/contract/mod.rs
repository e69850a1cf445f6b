/*!
Cluster API's provider contract, as the topology and its readers need it: which contract
version a provider object follows, so which field paths it uses (here); the contract's
accessors over unstructured objects with Cluster API's error texts ([`accessor`]); and the
version inputs read through them, the ControlPlane's `spec.version`, `status.version(s)` and
whether workers are rolling out ([`versions`], shared by admission's version-change rule and the
upgrade sequencing).

Cluster API reads the contract from the provider CRD's `cluster.x-k8s.io/<contract>` labels
(`GetContractVersionForVersion`, `internal/contract/version.go`): the label whose `_`-separated list holds
the object's API version names the contract. When the input holds the CRD, topoplan does the
same. Without it, topoplan takes the API version's name: `v1beta2` → contract v1beta2, anything
older → v1beta1, which is what providers that follow Cluster API's versioning do.
*/

pub mod accessor;
pub mod versions;

use serde_json::Value;

use crate::load::Object;

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

/// The contract of objects of `kind` at `api_version`, from the kind's CRD when `crds` holds it.
pub fn resolve<'a>(
    crds: impl IntoIterator<Item = &'a Object>,
    api_version: &str,
    kind: &str,
) -> Result<Contract, String> {
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let crd = crds.into_iter().find(|o| {
        o.kind == "CustomResourceDefinition"
            && o.value.pointer("/spec/group").and_then(Value::as_str) == Some(group)
            && o.value.pointer("/spec/names/kind").and_then(Value::as_str) == Some(kind)
    });
    let Some(crd) = crd else {
        return Ok(Contract::for_api_version(api_version));
    };
    let labels = crd
        .value
        .pointer("/metadata/labels")
        .and_then(Value::as_object);
    // Go iterates the labels in random order; taking the newest matching contract makes the
    // (in practice never ambiguous) choice deterministic.
    let mut found = None;
    for (key, value) in labels.into_iter().flatten() {
        let Some(contract) = key.strip_prefix("cluster.x-k8s.io/") else {
            continue;
        };
        if value
            .as_str()
            .is_some_and(|v| v.split('_').any(|x| x == version))
        {
            let c = match contract {
                "v1beta2" => Contract::V1Beta2,
                _ => Contract::V1Beta1,
            };
            if found != Some(Contract::V1Beta2) {
                found = Some(c);
            }
        }
    }
    found.ok_or_else(|| {
        format!(
            "cannot find any contract version matching version {version} for CRD {}",
            crd.name
        )
    })
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
