/*!
A generated object ([`DesiredObject`]), a Cluster's desired state, and what the current state
decides of it ([`Existing`]: names and versions).
*/

use std::collections::BTreeMap;

use serde_json::Value;

use super::role::Role;

/// One generated object.
#[derive(Debug, Clone)]
pub struct DesiredObject {
    /// What it is for.
    pub role: Role,
    /// The object.
    pub value: Value,
}

impl DesiredObject {
    /// `kind`.
    pub fn kind(&self) -> &str {
        self.value.get("kind").and_then(Value::as_str).unwrap_or("")
    }

    /// `metadata.name`.
    pub fn name(&self) -> &str {
        crate::json::metadata_str(&self.value, "name")
    }

    /// `metadata.namespace`.
    pub fn namespace(&self) -> &str {
        crate::json::metadata_str(&self.value, "namespace")
    }

    /// `apiVersion`.
    pub fn api_version(&self) -> &str {
        self.value
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

/// Every object the topology controller wants for one Cluster, in `Generate` order.
#[derive(Debug, Clone)]
pub struct DesiredState {
    /// The objects.
    pub objects: Vec<DesiredObject>,
}

/// What the current state decides before the desired state is computed (in Cluster API's
/// `exp/topology/desiredstate/desired_state.go`, the compute functions' name reuse and
/// `computeControlPlaneVersion`/`computeMachineDeploymentVersion`): the names of objects that exist already, which every desired object keeps, and
/// the versions the upgrade sequencing lets the control plane and each worker have on this
/// pass. Empty for a Cluster that does not exist yet.
#[derive(Debug, Clone, Default)]
pub struct Existing {
    /// The current object's name, by role.
    pub names: BTreeMap<Role, String>,
    /// The version to write, by role (`ControlPlane`, `MachineDeployment(n)`, `MachinePool(n)`);
    /// roles not listed get `spec.topology.version`.
    pub versions: BTreeMap<Role, String>,
}
