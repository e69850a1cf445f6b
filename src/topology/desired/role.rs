/*!
What a generated object is for ([`Role`]): identifies it within its Cluster.
*/

/// What a generated object is for; identifies it within its Cluster.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// The InfrastructureCluster.
    InfrastructureCluster,
    /// The control plane machines' infrastructure template.
    ControlPlaneInfrastructureMachineTemplate,
    /// The ControlPlane.
    ControlPlane,
    /// The control plane's MachineHealthCheck.
    ControlPlaneHealthCheck,
    /// The Cluster itself (labels and references).
    Cluster,
    /// The cluster shim Secret.
    ClusterShim,
    /// MachineDeployment `name`'s bootstrap template.
    MachineDeploymentBootstrapTemplate(String),
    /// MachineDeployment `name`'s infrastructure machine template.
    MachineDeploymentInfrastructureTemplate(String),
    /// MachineDeployment `name`.
    MachineDeployment(String),
    /// MachineDeployment `name`'s MachineHealthCheck.
    MachineDeploymentHealthCheck(String),
    /// MachinePool `name`'s bootstrap config.
    MachinePoolBootstrapConfig(String),
    /// MachinePool `name`'s infrastructure machine pool.
    MachinePoolInfrastructure(String),
    /// MachinePool `name`.
    MachinePool(String),
}

impl Role {
    /// A stable string for this role (seeds generated names; shown by `--output json`).
    pub fn id(&self) -> String {
        match self {
            Role::InfrastructureCluster => "InfrastructureCluster".into(),
            Role::ControlPlaneInfrastructureMachineTemplate => {
                "ControlPlaneInfrastructureMachineTemplate".into()
            }
            Role::ControlPlane => "ControlPlane".into(),
            Role::ControlPlaneHealthCheck => "ControlPlaneMachineHealthCheck".into(),
            Role::Cluster => "Cluster".into(),
            Role::ClusterShim => "ClusterShim".into(),
            Role::MachineDeploymentBootstrapTemplate(n) => {
                format!("MachineDeployment/{n}/BootstrapTemplate")
            }
            Role::MachineDeploymentInfrastructureTemplate(n) => {
                format!("MachineDeployment/{n}/InfrastructureMachineTemplate")
            }
            Role::MachineDeployment(n) => format!("MachineDeployment/{n}"),
            Role::MachineDeploymentHealthCheck(n) => {
                format!("MachineDeployment/{n}/MachineHealthCheck")
            }
            Role::MachinePoolBootstrapConfig(n) => format!("MachinePool/{n}/BootstrapConfig"),
            Role::MachinePoolInfrastructure(n) => {
                format!("MachinePool/{n}/InfrastructureMachinePool")
            }
            Role::MachinePool(n) => format!("MachinePool/{n}"),
        }
    }
}
