/*!
What one admission request is given ([`Options`]: feature gates, the variable steps' data, the
stored objects a version change is checked against) and what it answers ([`Outcome`]: errors,
warnings and the defaulted spec).
*/

use serde_json::Value;

use super::gates::Gates;
use crate::k8s::field::{FieldError, invalid_object};
use crate::variables::definitions::StatusVariables;

/// What an admission request would have returned.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Field errors; any error means the request is rejected.
    pub errors: Vec<FieldError>,
    /// Admission warnings (accepted requests may carry them too).
    pub warnings: Vec<String>,
    /// Cluster only: the Cluster's spec (v1beta2 JSON) after the mutating webhook, when it
    /// changed anything. The validating rules ran on this spec.
    pub defaulted: Option<Value>,
}

impl Outcome {
    /// True when the request is admitted.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// The API server's message for a rejected request:
    /// `<Kind>.cluster.x-k8s.io "<name>" is invalid: <errors>`; `None` when admitted.
    pub fn message(&self, kind: &str, name: &str) -> Option<String> {
        (!self.errors.is_empty())
            .then(|| invalid_object(kind, crate::api::GROUP, name, &self.errors))
    }
}

/// How to validate: gate states, and the variable steps' data (the variables module's own
/// rules run on it: Cluster API's webhooks call the same functions).
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// Feature gates.
    pub gates: Gates,
    /// Step 7 of the class webhook, the variable definitions
    /// (`variables.ValidateClusterClassVariables`); `false` skips it.
    pub class_variables: bool,
    /// The `status.variables` of the Cluster's class: the Cluster's variable values are
    /// defaulted and validated against them (`DefaultAndValidateVariables`, in the defaulting
    /// webhook); `None` skips the step (a class whose variables did not reconcile).
    pub cluster_variables: Option<&'a StatusVariables>,
    /// The stored objects (`--current`) a Cluster version change is checked against (is the
    /// previous version still rolling out?); `None` skips that check.
    pub live: Option<&'a super::cluster::rollout::Live<'a>>,
}
