/*!
TEMPORARY seam between the admission driver ([`super::run`]) and the rule modules, which land
separately; replaced by direct calls when they do.
*/

use serde_json::Value;

use crate::api::{Cluster, ClusterClass};
use crate::diag::Diagnostic;
use crate::load::source::Origin;

use super::run::Outcome;

/// The class's `status.variables` (placeholder).
#[derive(Debug, Default)]
pub struct StatusVariables;

/// ClusterClass webhook.
pub fn cluster_class(
    _new: &ClusterClass,
    _old: Option<&ClusterClass>,
    _using: &[&Cluster],
) -> Outcome {
    Outcome::default()
}

/// Build `status.variables`.
pub fn status_variables(
    _class: &ClusterClass,
    _runtime_messages: &[(Value, Origin)],
) -> Result<StatusVariables, Diagnostic> {
    Ok(StatusVariables)
}

/// Cluster webhooks (mutating then validating).
pub fn cluster(
    _new: &Cluster,
    _old: Option<&Cluster>,
    _class: Option<&ClusterClass>,
    _old_class: Option<&ClusterClass>,
    _vars: Option<&StatusVariables>,
) -> Outcome {
    Outcome::default()
}
