/*!
Variable schemas: the Kubernetes structural OpenAPI v3 subset Cluster API accepts for
ClusterClass variables.

Owns reading a variable schema ([`props`]), checking that it is well formed ([`structural`]),
validating values against it ([`value`], [`formats`]), defaulting ([`default`]), unknown-field
detection ([`prune`]), evaluating its CEL rules ([`cel`]), and the Kubernetes field-error shape
every message takes ([`field`]). Knows nothing of ClusterClasses or Clusters:
[`crate::variables`] and [`crate::validate`] call in with values and paths.
*/

pub mod cel;
pub mod default;
pub mod field;
pub mod formats;
pub mod props;
pub mod prune;
pub mod structural;
pub mod value;

/// `PerCallLimit`: the CEL runtime cost limit per expression evaluation.
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// `RuntimeCELCostBudget`: the CEL runtime cost budget for one variable value.
pub const RUNTIME_CEL_COST_BUDGET: u64 = 10_000_000;
