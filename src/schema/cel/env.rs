/*!
Which CEL environment compiles an expression ([`Env`]) and the API server's CEL limits
(`k8s.io/apiextensions-apiserver` and `k8s.io/apiserver`'s constants).
*/

/// Which CEL environment compiles an expression (new expressions use the n-1 compatibility env).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Env {
    /// Expressions not present in the previous version of the schema.
    NewExpressions,
    /// Expressions already stored (and values being validated).
    StoredExpressions,
}

impl Env {
    /// The Kubernetes minor version whose CEL libraries this environment has.
    pub(super) fn minor(self) -> u32 {
        match self {
            Env::NewExpressions => 35,
            Env::StoredExpressions => 36,
        }
    }
}

/// `StaticEstimatedCostLimit`.
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;

/// `StaticEstimatedCRDCostLimit`.
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// `PerCallLimit`.
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// `RuntimeCELCostBudget`.
pub const RUNTIME_CEL_COST_BUDGET: u64 = 10_000_000;

/// `MaxEvaluatedMessageExpressionSizeBytes`.
pub(super) const MAX_MESSAGE_EXPRESSION_BYTES: usize = 5 * 1024;
