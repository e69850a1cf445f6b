/*!
A GenerateUpgradePlan extension as the upgrade sequencing sees it: the handler a ClusterClass
names, how to call it, and the versions of its request and answer (the wire format is
`runtime::upgrade_plan`'s).
*/

/// A GenerateUpgradePlan extension named by the ClusterClass.
pub struct PlanExtension<'a> {
    /// The handler's name (`<handler>.<extension>`), as the class field gives it.
    pub name: &'a str,
    /// How to call it; called only when a plan is needed. Its errors are worded as
    /// `GetUpgradePlanFromExtension` returns them (`failed to get upgrade plan from extension: …`).
    pub call: &'a PlanCallback<'a>,
}

impl std::fmt::Debug for PlanExtension<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlanExtension")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Calls a GenerateUpgradePlan extension.
pub type PlanCallback<'a> = dyn Fn(&PlanRequest<'_>) -> Result<PlanResponse, String> + 'a;

/// The GenerateUpgradePlan request's version fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanRequest<'a> {
    /// The extension's name.
    pub extension: &'a str,
    /// `ToKubernetesVersion`.
    pub desired_version: &'a str,
    /// `FromControlPlaneKubernetesVersion`.
    pub control_plane_version: &'a str,
    /// `FromWorkersKubernetesVersion` (empty when no worker has a version).
    pub min_workers_version: &'a str,
}

/// The GenerateUpgradePlan response's versions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanResponse {
    /// `controlPlaneUpgrades[].version`.
    pub control_plane: Vec<String>,
    /// `workersUpgrades[].version` (empty: Cluster API computes the workers plan).
    pub workers: Vec<String>,
}
