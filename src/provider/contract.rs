/*!
Which provider releases an input can use: the Cluster API contract the input's objects imply,
the contracts compatible with it, and the refusal of a release implementing another.

The compatibility rule is Cluster API's `contract.GetCompatibleVersions`
(`internal/contract/version.go`): a contract is compatible with itself, and v1beta2 also with
v1beta1 (until v1beta1 is removed). The refusal follows clusterctl's `getProviderContract`
(`cmd/clusterctl/client/cluster/installer.go`), which says "current version of clusterctl is only
compatible with providers implementing the … contract versions, detected contract version … for
provider …"; here the input's Cluster API version stands where clusterctl's own does.
*/

use crate::diag::{Code, Diagnostic};
use crate::load::Object;

/// The contract clusterctl itself implements, for inputs without Cluster API objects.
pub const CURRENT: &str = "v1beta2";

/// The contract an input is written against, and the object that says so.
#[derive(Debug, Clone, Copy)]
pub struct InputContract<'a> {
    /// `v1beta2`, `v1beta1`, …
    pub contract: &'a str,
    /// The first Cluster API object of that version (none: the input has no Cluster API object).
    pub witness: Option<&'a Object>,
}

impl<'a> InputContract<'a> {
    /// The contract of `objects`: v1beta2 when any Cluster API object (`cluster.x-k8s.io`) is
    /// v1beta2 (only a release that serves v1beta2 reads them), else the version of the first
    /// one (Cluster API v1.10 and older serve v1beta1), else clusterctl's own.
    pub fn of(objects: &'a [Object]) -> InputContract<'a> {
        let core = || objects.iter().filter(|o| o.group() == crate::api::GROUP);
        let version = |o: &'a Object| o.api_version.rsplit('/').next().unwrap_or("");
        if let Some(o) = core().find(|o| version(o) == "v1beta2") {
            return InputContract {
                contract: "v1beta2",
                witness: Some(o),
            };
        }
        match core().next() {
            Some(o) => InputContract {
                contract: version(o),
                witness: Some(o),
            },
            None => InputContract {
                contract: CURRENT,
                witness: None,
            },
        }
    }

    /// The contracts providers may implement (Cluster API's `GetCompatibleVersions`), newest
    /// first.
    pub fn compatible(&self) -> Vec<&'a str> {
        let mut c = vec![self.contract];
        if self.contract == "v1beta2" {
            c.push("v1beta1");
        }
        c
    }

    /// Refuse release `version` of provider `label` implementing `provider_contract`, when it
    /// is not compatible.
    pub fn check(
        &self,
        provider_contract: &str,
        label: &str,
        version: &str,
    ) -> Result<(), Diagnostic> {
        let compatible = self.compatible();
        if compatible.contains(&provider_contract) {
            return Ok(());
        }
        let subject = match self.witness {
            Some(_) => format!("the input's Cluster API version ({})", self.contract),
            None => format!(
                "Cluster API {} (the input holds no Cluster API object)",
                self.contract
            ),
        };
        let d = Diagnostic::error(
            Code::ProviderContract,
            format!(
                "{subject} is only compatible with providers implementing the {} contract versions, detected contract version {provider_contract} for provider {label}",
                compatible.join(", ")
            ),
        )
        .with_help(format!(
            "release {version} of {label} implements the {provider_contract} contract (its metadata.yaml says so), and clusterctl refuses to install it next to a {} Cluster API; use a release whose series implements {}",
            self.contract,
            compatible.join(" or ")
        ));
        Err(match self.witness {
            Some(o) => d.at(
                &o.origin,
                "/apiVersion",
                format!("Cluster API {}", self.contract),
            ),
            None => d,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{Origin, SourceFile, SpanTable};
    use std::sync::Arc;

    fn object(api_version: &str, kind: &str) -> Object {
        Object::new(
            serde_json::json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "x"}}),
            Origin {
                file: SourceFile::new("in.yaml", ""),
                spans: Arc::new(SpanTable::default()),
            },
            "default",
        )
        .expect("object")
    }

    #[test]
    fn the_input_decides_the_contract() {
        let v1 = [object("cluster.x-k8s.io/v1beta1", "Cluster")];
        let mixed = [
            object("cluster.x-k8s.io/v1beta1", "ClusterClass"),
            object("cluster.x-k8s.io/v1beta2", "Cluster"),
        ];
        let none = [object("v1", "ConfigMap")];
        assert_eq!(InputContract::of(&v1).contract, "v1beta1");
        assert_eq!(InputContract::of(&mixed).contract, "v1beta2");
        assert_eq!(InputContract::of(&none).contract, CURRENT);
        assert_eq!(
            InputContract::of(&mixed).compatible(),
            ["v1beta2", "v1beta1"]
        );
        assert_eq!(InputContract::of(&v1).compatible(), ["v1beta1"]);
    }

    #[test]
    fn an_incompatible_release_is_refused() {
        let v1 = [object("cluster.x-k8s.io/v1beta1", "Cluster")];
        let c = InputContract::of(&v1);
        assert!(c.check("v1beta1", "infrastructure-x", "v0.9.0").is_ok());
        let e = c
            .check("v1beta2", "infrastructure-x", "v1.1.0")
            .expect_err("refused");
        assert_eq!(
            e.message,
            "the input's Cluster API version (v1beta1) is only compatible with providers implementing the v1beta1 contract versions, detected contract version v1beta2 for provider infrastructure-x"
        );
        let v2 = [object("cluster.x-k8s.io/v1beta2", "Cluster")];
        assert!(
            InputContract::of(&v2)
                .check("v1beta1", "infrastructure-x", "v0.9.0")
                .is_ok()
        );
        assert!(
            InputContract::of(&v2)
                .check("v1alpha4", "infrastructure-x", "v0.4.0")
                .is_err()
        );
    }
}
