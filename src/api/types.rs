/*!
The internal model of ClusterClass and Cluster: Cluster API's v1beta2 shapes, as serde types.

Only the fields the planner reads are typed; everything a stage merely copies (conditions,
taints, readiness gates, int-or-string values) stays `serde_json::Value` so it reaches the output
exactly as written. v1beta1 input is converted into this shape first (see `convert`).
Unknown fields are ignored here; rejecting them is admission validation's job.
*/

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

/// `metadata.labels` / `metadata.annotations` of a class or topology entry.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectMeta {
    /// Labels.
    pub labels: BTreeMap<String, String>,
    /// Annotations.
    pub annotations: BTreeMap<String, String>,
}

/// A ClusterClass reference to a template (`{apiVersion, kind, name}`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, rename_all = "camelCase")]
pub struct TemplateRefSpec {
    /// apiVersion of the template.
    pub api_version: String,
    /// kind of the template.
    pub kind: String,
    /// name of the template.
    pub name: String,
}

impl TemplateRefSpec {
    /// Whether any field is set (Cluster API's `IsDefined`).
    pub fn is_defined(&self) -> bool {
        !(self.api_version.is_empty() && self.kind.is_empty() && self.name.is_empty())
    }
}

/// `{templateRef}` wrapper used throughout the v1beta2 ClusterClass.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TemplateHolder {
    /// The reference.
    pub template_ref: TemplateRefSpec,
}

/// `{template}` naming wrapper.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Naming {
    /// The Go template for the name; empty means the default.
    pub template: String,
}

/// Node deletion timeouts (seconds), plus MachineDeployment deletion order.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Deletion {
    /// MachineSet deletion order (MachineDeployments only).
    pub order: String,
    /// nodeDrainTimeoutSeconds.
    pub node_drain_timeout_seconds: Option<i64>,
    /// nodeVolumeDetachTimeoutSeconds.
    pub node_volume_detach_timeout_seconds: Option<i64>,
    /// nodeDeletionTimeoutSeconds.
    pub node_deletion_timeout_seconds: Option<i64>,
}

/// A health check as written in a class or topology (v1beta2 shape).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct HealthCheck {
    /// `enabled` (topology only; nil means enabled).
    pub enabled: Option<bool>,
    /// `checks`, copied verbatim into the MachineHealthCheck.
    pub checks: serde_json::Map<String, Value>,
    /// `remediation`; `maxInFlight` goes to the MachineDeployment, the rest to the MHC.
    pub remediation: serde_json::Map<String, Value>,
    /// For v1beta1 input: whether `machineHealthCheck` was present at all (v1.10 enabled a
    /// health check on presence alone).
    #[serde(rename = "v1beta1Present")]
    pub v1beta1_present: Option<bool>,
}

impl HealthCheck {
    /// Cluster API's `IsDefined`: checks or remediation (including maxInFlight) is non-zero.
    pub fn is_defined(&self) -> bool {
        !is_zero_map(&self.checks) || !is_zero_map(&self.remediation)
    }

    /// v1.10's `MachineHealthCheckClass.IsZero() == false`: something besides `enable` and
    /// the strategy's maxInFlight (which v1.10 kept elsewhere) is set.
    pub fn has_v1beta1_checks(&self) -> bool {
        !is_zero_map(&self.checks)
            || self
                .remediation
                .iter()
                .any(|(k, v)| k != "maxInFlight" && !is_zero(v))
    }

    /// `remediation.maxInFlight`.
    pub fn max_in_flight(&self) -> Option<&Value> {
        self.remediation.get("maxInFlight").filter(|v| !v.is_null())
    }
}

/// Whether a JSON map is the zero value of the Go struct it came from.
pub fn is_zero_map(m: &serde_json::Map<String, Value>) -> bool {
    m.values().all(is_zero)
}

/// Go zero-value test on JSON: null, "", empty collections and maps of zero values.
/// Numbers and booleans are never zero here because Cluster API holds them in pointers.
pub fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => is_zero_map(m),
        _ => false,
    }
}

/// `spec.controlPlane` of a ClusterClass.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneClass {
    /// Labels/annotations for the control plane and its machines.
    pub metadata: ObjectMeta,
    /// The ControlPlane template.
    pub template_ref: TemplateRefSpec,
    /// The control plane machines' infrastructure template, if the provider has machines.
    pub machine_infrastructure: TemplateHolder,
    /// The control plane health check.
    pub health_check: HealthCheck,
    /// Naming template.
    pub naming: Naming,
    /// Node deletion timeouts.
    pub deletion: Deletion,
    /// Machine taints (copied verbatim).
    pub taints: Option<Value>,
    /// Machine readiness gates (copied verbatim).
    pub readiness_gates: Option<Value>,
}

/// `spec.infrastructure` of a ClusterClass.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct InfrastructureClass {
    /// The InfrastructureCluster template.
    pub template_ref: TemplateRefSpec,
    /// Naming template.
    pub naming: Naming,
}

/// MachineDeployment rollout (`rollout.strategy`, plus `after` in a topology).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Rollout {
    /// `rollout.after` (topology only), RFC 3339.
    pub after: Option<Value>,
    /// `rollout.strategy`, copied verbatim.
    pub strategy: serde_json::Map<String, Value>,
}

impl Rollout {
    /// Whether the struct is Go's zero value.
    pub fn is_zero(&self) -> bool {
        self.after.as_ref().is_none_or(is_zero) && is_zero_map(&self.strategy)
    }
}

/// One entry of `spec.workers.machineDeployments` in a ClusterClass.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentClass {
    /// Labels/annotations for the MachineDeployment and its machines.
    pub metadata: ObjectMeta,
    /// Class name, referenced by topologies.
    pub class: String,
    /// Bootstrap template.
    pub bootstrap: TemplateHolder,
    /// Infrastructure machine template.
    pub infrastructure: TemplateHolder,
    /// Health check.
    pub health_check: HealthCheck,
    /// Failure domain.
    pub failure_domain: String,
    /// Naming template.
    pub naming: Naming,
    /// Deletion order and timeouts.
    pub deletion: Deletion,
    /// Machine taints.
    pub taints: Option<Value>,
    /// minReadySeconds.
    pub min_ready_seconds: Option<Value>,
    /// Machine readiness gates.
    pub readiness_gates: Option<Value>,
    /// Rollout strategy.
    pub rollout: Rollout,
    /// Set when a v1beta1 class had `strategy` (even empty): v1.10 then sent it whole.
    #[serde(rename = "v1beta1StrategySet")]
    pub v1beta1_strategy_set: bool,
}

/// One entry of `spec.workers.machinePools` in a ClusterClass.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolClass {
    /// Labels/annotations.
    pub metadata: ObjectMeta,
    /// Class name.
    pub class: String,
    /// Bootstrap config template.
    pub bootstrap: TemplateHolder,
    /// Infrastructure machine pool template.
    pub infrastructure: TemplateHolder,
    /// Failure domains.
    pub failure_domains: Option<Value>,
    /// Naming template.
    pub naming: Naming,
    /// Deletion timeouts.
    pub deletion: Deletion,
    /// Machine taints.
    pub taints: Option<Value>,
    /// minReadySeconds.
    pub min_ready_seconds: Option<Value>,
}

/// `spec.workers` of a ClusterClass.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkersClass {
    /// MachineDeployment classes.
    pub machine_deployments: Vec<MachineDeploymentClass>,
    /// MachinePool classes.
    pub machine_pools: Vec<MachinePoolClass>,
}

/// One patch of a ClusterClass, as far as this stage needs it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PatchSummary {
    /// Patch name.
    pub name: String,
    /// Set for external patches.
    pub external: Option<Value>,
}

/// `spec` of a ClusterClass.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterClassSpec {
    /// Infrastructure class.
    pub infrastructure: InfrastructureClass,
    /// Control plane class.
    pub control_plane: ControlPlaneClass,
    /// Worker classes.
    pub workers: WorkersClass,
    /// Variable definitions (typed by the variables stage).
    pub variables: Vec<Value>,
    /// Patches.
    pub patches: Vec<PatchSummary>,
}

/// `spec.topology.classRef`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ClassRef {
    /// ClusterClass name.
    pub name: String,
    /// ClusterClass namespace; empty means the Cluster's.
    pub namespace: String,
}

/// `spec.topology.controlPlane`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ControlPlaneTopology {
    /// Labels/annotations.
    pub metadata: ObjectMeta,
    /// Replicas.
    pub replicas: Option<Value>,
    /// `rollout.after`.
    pub rollout: Rollout,
    /// Health check.
    pub health_check: HealthCheck,
    /// Deletion timeouts.
    pub deletion: Deletion,
    /// Machine taints.
    pub taints: Option<Value>,
    /// Machine readiness gates.
    pub readiness_gates: Option<Value>,
}

/// One entry of `spec.topology.workers.machineDeployments`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineDeploymentTopology {
    /// Labels/annotations.
    pub metadata: ObjectMeta,
    /// MachineDeployment class.
    pub class: String,
    /// Topology name, unique in the Cluster.
    pub name: String,
    /// Failure domain.
    pub failure_domain: String,
    /// Replicas.
    pub replicas: Option<Value>,
    /// Health check.
    pub health_check: HealthCheck,
    /// Deletion order and timeouts.
    pub deletion: Deletion,
    /// Machine taints.
    pub taints: Option<Value>,
    /// minReadySeconds.
    pub min_ready_seconds: Option<Value>,
    /// Machine readiness gates.
    pub readiness_gates: Option<Value>,
    /// Rollout.
    pub rollout: Rollout,
    /// Set when a v1beta1 topology had `strategy`: Cluster API v1.10 then took the whole
    /// strategy bundle (rollout, deletePolicy, remediation) from the topology.
    #[serde(rename = "v1beta1StrategySet")]
    pub v1beta1_strategy_set: bool,
}

/// One entry of `spec.topology.workers.machinePools`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachinePoolTopology {
    /// Labels/annotations.
    pub metadata: ObjectMeta,
    /// MachinePool class.
    pub class: String,
    /// Topology name.
    pub name: String,
    /// Failure domains.
    pub failure_domains: Option<Value>,
    /// Deletion timeouts.
    pub deletion: Deletion,
    /// Machine taints.
    pub taints: Option<Value>,
    /// minReadySeconds.
    pub min_ready_seconds: Option<Value>,
    /// Replicas.
    pub replicas: Option<Value>,
}

/// `spec.topology.workers`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkersTopology {
    /// MachineDeployments.
    pub machine_deployments: Vec<MachineDeploymentTopology>,
    /// MachinePools.
    pub machine_pools: Vec<MachinePoolTopology>,
}

/// `spec.topology`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Topology {
    /// The ClusterClass.
    pub class_ref: ClassRef,
    /// Kubernetes version.
    pub version: String,
    /// Control plane.
    pub control_plane: ControlPlaneTopology,
    /// Workers.
    pub workers: WorkersTopology,
    // Variable values are not decoded here: the variables stage reads them from the raw
    // Cluster, with their locations.
}

/// `{apiGroup, kind, name}` (v1beta2 `ContractVersionedObjectReference`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContractRef {
    /// API group.
    pub api_group: String,
    /// Kind.
    pub kind: String,
    /// Name.
    pub name: String,
}

/// `spec` of a Cluster.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterSpec {
    /// The managed topology, when the Cluster uses a ClusterClass.
    pub topology: Option<Topology>,
    /// Reference to the InfrastructureCluster.
    pub infrastructure_ref: ContractRef,
    /// Reference to the ControlPlane.
    pub control_plane_ref: ContractRef,
}
