/*!
Provider identity as clusterctl spells it: a provider *type* (`InfrastructureProvider`, …), a
*name* (`docker`), and the *manifest label* joining them (`infrastructure-docker`), which is also
the name of the provider's directory in a local repository and the value of the
`cluster.x-k8s.io/provider` label on its components (clusterctl's `ManifestLabel`).
*/

/// clusterctl's provider types (`cmd/clusterctl/api/v1alpha3/provider_type.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProviderType {
    /// Cluster API itself (`cluster-api`).
    Core,
    /// `bootstrap-NAME`.
    Bootstrap,
    /// `control-plane-NAME`.
    ControlPlane,
    /// `infrastructure-NAME`.
    Infrastructure,
    /// `ipam-NAME`.
    Ipam,
    /// `runtime-extension-NAME`.
    RuntimeExtension,
    /// `addon-NAME`.
    Addon,
}

/// The name reserved for the core provider.
pub const CORE_NAME: &str = "cluster-api";

impl ProviderType {
    /// Every type, in clusterctl's order (`ProviderType.Order`).
    pub const ALL: [ProviderType; 7] = [
        ProviderType::Core,
        ProviderType::Bootstrap,
        ProviderType::ControlPlane,
        ProviderType::Infrastructure,
        ProviderType::Ipam,
        ProviderType::RuntimeExtension,
        ProviderType::Addon,
    ];

    /// The type as the clusterctl configuration file writes it (`type: InfrastructureProvider`).
    pub fn config_name(self) -> &'static str {
        match self {
            ProviderType::Core => "CoreProvider",
            ProviderType::Bootstrap => "BootstrapProvider",
            ProviderType::ControlPlane => "ControlPlaneProvider",
            ProviderType::Infrastructure => "InfrastructureProvider",
            ProviderType::Ipam => "IPAMProvider",
            ProviderType::RuntimeExtension => "RuntimeExtensionProvider",
            ProviderType::Addon => "AddonProvider",
        }
    }

    /// The type a configuration file's `type:` names.
    pub fn from_config_name(s: &str) -> Option<ProviderType> {
        ProviderType::ALL.into_iter().find(|t| t.config_name() == s)
    }

    /// The manifest label's prefix (`infrastructure-`); empty for the core provider, whose
    /// label is its name.
    fn prefix(self) -> &'static str {
        match self {
            ProviderType::Core => "",
            ProviderType::Bootstrap => "bootstrap-",
            ProviderType::ControlPlane => "control-plane-",
            ProviderType::Infrastructure => "infrastructure-",
            ProviderType::Ipam => "ipam-",
            ProviderType::RuntimeExtension => "runtime-extension-",
            ProviderType::Addon => "addon-",
        }
    }

    /// The components file a provider of this type publishes by convention
    /// (`infrastructure-components.yaml`).
    pub fn components_file(self) -> &'static str {
        match self {
            ProviderType::Core => "core-components.yaml",
            ProviderType::Bootstrap => "bootstrap-components.yaml",
            ProviderType::ControlPlane => "control-plane-components.yaml",
            ProviderType::Infrastructure => "infrastructure-components.yaml",
            ProviderType::Ipam => "ipam-components.yaml",
            ProviderType::RuntimeExtension => "runtime-extension-components.yaml",
            ProviderType::Addon => "addon-components.yaml",
        }
    }
}

/// clusterctl's `ManifestLabel(name, type)`.
pub fn manifest_label(name: &str, t: ProviderType) -> String {
    format!("{}{name}", t.prefix())
}

/// The (name, type) a repository directory's name stands for, when it is a manifest label (the
/// core provider's directory is `cluster-api`; no prefix is a prefix of another).
pub fn parse_label(label: &str) -> Option<(String, ProviderType)> {
    if label == CORE_NAME {
        return Some((CORE_NAME.to_string(), ProviderType::Core));
    }
    ProviderType::ALL
        .into_iter()
        .filter(|t| *t != ProviderType::Core)
        .find_map(|t| {
            label
                .strip_prefix(t.prefix())
                .filter(|name| !name.is_empty())
                .map(|name| (name.to_string(), t))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        for t in ProviderType::ALL {
            let name = if t == ProviderType::Core {
                CORE_NAME
            } else {
                "x-y"
            };
            let label = manifest_label(name, t);
            assert_eq!(parse_label(&label), Some((name.to_string(), t)), "{label}");
            assert_eq!(ProviderType::from_config_name(t.config_name()), Some(t));
        }
        assert_eq!(
            manifest_label("docker", ProviderType::Infrastructure),
            "infrastructure-docker"
        );
        assert_eq!(parse_label("infrastructure-"), None);
        assert_eq!(parse_label("overrides"), None);
        assert_eq!(
            parse_label("control-plane-kubeadm"),
            Some(("kubeadm".into(), ProviderType::ControlPlane))
        );
    }
}
