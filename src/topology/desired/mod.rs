/*!
Desired state of one Cluster: every object the topology controller would create or patch.

Runs Cluster API's `Generate` steps in order (`exp/topology/desiredstate/desired_state.go` `Generate`): InfrastructureCluster,
control-plane machine template, ControlPlane, control-plane health check, the Cluster's own
changes, MachineDeployments, MachinePools; plus the cluster shim Secret that
`reconcileClusterShim` creates for a new Cluster. Patches are not applied at this stage.
Each object kind has its own file; this one holds the shared context and the result types.
*/

mod cluster;
mod control_plane;
mod health_check;
mod infrastructure_cluster;
mod machine_deployment;
mod machine_pool;
mod refs;
mod worker;

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::api::{ApiVersion, Cluster};
use crate::diag::{Code, Diagnostic};
use crate::topology::blueprint::Blueprint;
use crate::topology::names;

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

/// What every builder needs: the Cluster, its blueprint and the output dialect.
pub(crate) struct Ctx<'a> {
    pub cluster: &'a Cluster,
    pub bp: &'a Blueprint<'a>,
    /// Names and versions decided by the current state.
    pub existing: &'a Existing,
    /// API version of generated core objects: the input Cluster's.
    pub api: ApiVersion,
    /// `spec.topology.version` after webhook defaulting (`v` prefix).
    pub version: String,
}

impl Ctx<'_> {
    /// Seed for the deterministic suffix of the object with this role.
    pub fn seed(&self, role: &Role) -> String {
        format!(
            "{}/{}/{}",
            self.cluster.namespace(),
            self.cluster.name(),
            role.id()
        )
    }

    /// `names.SimpleNameGenerator(prefix)` for `role`, unless the object exists already: then
    /// its current name (as Cluster API's compute functions reuse it).
    pub fn simple_name(&self, prefix: &str, role: &Role) -> String {
        match self.existing.names.get(role) {
            Some(n) => n.clone(),
            None => names::simple(prefix, &self.seed(role)),
        }
    }

    /// The version `role` gets on this pass: what the upgrade sequencing decided, else
    /// `spec.topology.version`.
    pub fn version_for(&self, role: &Role) -> &str {
        self.existing
            .versions
            .get(role)
            .map_or(self.version.as_str(), String::as_str)
    }

    /// `ownerrefs.OwnerReferenceTo(cluster)`: no controller, no blockOwnerDeletion. The uid is
    /// the input Cluster's when it carries one; a Cluster not yet created has none.
    pub fn cluster_owner_ref(&self) -> Value {
        let mut o = Map::new();
        o.insert("apiVersion".into(), json!(self.api.api_version()));
        o.insert("kind".into(), json!("Cluster"));
        o.insert("name".into(), json!(self.cluster.name()));
        if let Some(uid) = self.cluster.uid() {
            o.insert("uid".into(), json!(uid));
        }
        Value::Object(o)
    }

    /// A diagnostic located at `pointer` in the Cluster.
    pub fn cluster_error(
        &self,
        code: Code,
        message: String,
        pointer: &str,
        label: &str,
    ) -> Diagnostic {
        Diagnostic::error(code, message).at(&self.cluster.object.origin, pointer, label)
    }

    /// For v1beta1 output (Cluster API v1.10), fail like `GenerateTemplate` did on a template
    /// without `spec.template`; `what` names the object being generated.
    pub fn check_spec_template(
        &self,
        tpl: &crate::load::Object,
        what: &str,
    ) -> Result<(), Diagnostic> {
        if self.api != ApiVersion::V1Beta1 {
            return Ok(());
        }
        match crate::topology::template::v1_10_spec_template_error(tpl) {
            None => Ok(()),
            Some(e) => Err(Diagnostic::error(Code::PlanDesiredState, format!(
                "Cluster {}: failed to generate the {what} object from the {}: {e}",
                self.cluster.object.key(),
                tpl.kind
            ))
            .at(&tpl.origin, "/spec", "no spec.template")
            .with_help("Cluster API v1.10 (v1beta1) requires spec.template in templates cloned into objects")),
        }
    }

    /// A diagnostic located at `pointer` in the ClusterClass.
    pub fn class_error(
        &self,
        code: Code,
        message: String,
        pointer: &str,
        label: &str,
    ) -> Diagnostic {
        Diagnostic::error(code, message).at(&self.bp.class.object.origin, pointer, label)
    }
}

/// Compute the desired state of a Cluster that does not exist yet.
pub fn compute(cluster: &Cluster, bp: &Blueprint<'_>) -> Result<DesiredState, Vec<Diagnostic>> {
    compute_with(cluster, bp, &Existing::default())
}

/// Compute the desired state of `cluster` from its blueprint, keeping the names of existing
/// objects and the versions the upgrade sequencing decided.
pub fn compute_with(
    cluster: &Cluster,
    bp: &Blueprint<'_>,
    existing: &Existing,
) -> Result<DesiredState, Vec<Diagnostic>> {
    let raw_version = &cluster.topology().version;
    // The Cluster webhook's defaulting adds the `v` prefix before anything reads the version.
    let version = if raw_version.is_empty() || raw_version.starts_with('v') {
        raw_version.clone()
    } else {
        format!("v{raw_version}")
    };
    let ctx = Ctx {
        cluster,
        bp,
        existing,
        api: cluster.api,
        version,
    };
    let mut errors = Vec::new();
    let mut objects = Vec::new();

    let infra = infrastructure_cluster::compute(&ctx).map_err(|e| vec![e])?;
    let cp_template = control_plane::compute_machine_template(&ctx);
    let cp = control_plane::compute(&ctx, cp_template.as_ref()).map_err(|e| vec![e])?;
    let cp_mhc = health_check::control_plane(&ctx, &cp);
    let desired_cluster = cluster::compute(&ctx, &infra, &cp);
    let shim = cluster::shim(&ctx);

    objects.push(DesiredObject {
        role: Role::InfrastructureCluster,
        value: infra,
    });
    if let Some(t) = cp_template {
        objects.push(DesiredObject {
            role: Role::ControlPlaneInfrastructureMachineTemplate,
            value: t,
        });
    }
    objects.push(DesiredObject {
        role: Role::ControlPlane,
        value: cp,
    });
    if let Some(m) = cp_mhc {
        objects.push(DesiredObject {
            role: Role::ControlPlaneHealthCheck,
            value: m,
        });
    }
    objects.push(DesiredObject {
        role: Role::Cluster,
        value: desired_cluster,
    });
    objects.push(DesiredObject {
        role: Role::ClusterShim,
        value: shim,
    });
    // Charged as they are computed, so a topology asking for too much stops at the worker
    // that passes the bound, before the rest is built.
    let mut tally = super::budget::Tally::default();
    let over = |e: super::budget::Exceeded, pointer: &str, label: &str| {
        vec![ctx.cluster_error(
            Code::PlanLimit,
            format!("Cluster {}: {}", cluster.object.key(), e.0),
            pointer,
            label,
        )]
    };
    for o in &objects {
        tally
            .charge(&o.value)
            .map_err(|e| over(e, "/spec/topology", "this topology"))?;
    }
    for (i, mdt) in cluster
        .topology()
        .workers
        .machine_deployments
        .iter()
        .enumerate()
    {
        match machine_deployment::compute(&ctx, i, mdt) {
            Ok(mut objs) => {
                for o in &objs {
                    tally.charge(&o.value).map_err(|e| {
                        over(
                            e,
                            &format!("/spec/topology/workers/machineDeployments/{i}"),
                            "this MachineDeployment's objects pass the bound",
                        )
                    })?;
                }
                objects.append(&mut objs)
            }
            Err(e) => errors.push(e),
        }
    }
    for (i, mpt) in cluster.topology().workers.machine_pools.iter().enumerate() {
        match machine_pool::compute(&ctx, i, mpt) {
            Ok(mut objs) => {
                for o in &objs {
                    tally.charge(&o.value).map_err(|e| {
                        over(
                            e,
                            &format!("/spec/topology/workers/machinePools/{i}"),
                            "this MachinePool's objects pass the bound",
                        )
                    })?;
                }
                objects.append(&mut objs)
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(DesiredState { objects })
    } else {
        Err(errors)
    }
}

/// Insert `value` under `key` unless it is Go's zero value for an `omitempty` field
/// (null, "", empty list or map). Numbers and booleans are kept: Cluster API holds them in
/// pointers, so `0` and `false` are real values.
pub(crate) fn put(map: &mut Map<String, Value>, key: &str, value: Value) {
    let empty = match &value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    };
    if !empty {
        map.insert(key.to_string(), value);
    }
}

/// Set `metadata.name`.
pub fn set_name(obj: &mut Value, name: &str) {
    set_path(obj, &["metadata", "name"], json!(name));
}

use crate::json::set_path;
