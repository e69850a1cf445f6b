/*!
TEMPORARY seam between the admission driver ([`super::run`]) and the rule modules, which land
separately; replaced by direct calls when they do.
*/

use serde_json::Value;

use crate::api::{Cluster, ClusterClass};
use crate::diag::Diagnostic;
use crate::load::source::Origin;

use super::Outcome;
use super::run::Settings;

/// The class's `status.variables` (placeholder).
#[derive(Debug, Default)]
pub struct StatusVariables;

/// ClusterClass webhook.
pub fn cluster_class(
    settings: &Settings,
    new: &ClusterClass,
    old: Option<&ClusterClass>,
    using: &[&Cluster],
) -> Outcome {
    let opts = super::Options {
        gates: settings.gates,
        ..super::Options::default()
    };
    super::cluster_class_with(&opts, new, old, using)
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
    settings: &Settings,
    new: &Cluster,
    old: Option<&Cluster>,
    class: Option<&ClusterClass>,
    old_class: Option<&ClusterClass>,
    _vars: Option<&StatusVariables>,
) -> Outcome {
    let opts = super::Options {
        gates: settings.gates,
        ..super::Options::default()
    };
    super::cluster_with(&opts, new, old, class, old_class)
}
