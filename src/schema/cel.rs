// STUB: replaced by the CEL implementation at merge
/*!
CEL rules of variable schemas (`x-kubernetes-validations`): compile-time checks and evaluation.

This file is a stub with the agreed signatures; the CEL implementation replaces it at merge. The
callers ([`crate::schema::structural`], [`crate::schema::default`],
[`crate::variables::definitions`], [`crate::variables::values`]) already call it where Cluster API
runs CEL.
*/

use serde_json::Value;

use crate::schema::field::{FieldError, Path};

/// Which CEL environment compiles an expression (new expressions use the n-1 compatibility env).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Env {
    /// Expressions not present in the old schema: the n-1 compatibility environment.
    NewExpressions,
    /// Expressions kept unchanged from the old schema: the newest environment.
    StoredExpressions,
}

/// Compile-time checks of every x-kubernetes-validations rule in a raw JSON schema tree
/// (the variable's openAPIV3Schema), at `path` (…schema.openAPIV3Schema). `old_schema` decides
/// which rules are new. Includes cost limits and the oldSelf-under-items rule.
pub fn check_rules(schema: &Value, path: &Path, old_schema: Option<&Value>) -> Vec<FieldError> {
    let _ = (schema, path, old_schema);
    Vec::new()
}

/// Evaluate every rule in `schema` (raw JSON openAPIV3Schema) against `value` (and `old` for
/// transition rules) at `path`, with a total runtime cost budget. Errors' paths are under `path`.
pub fn validate(
    schema: &Value,
    value: &Value,
    old: Option<&Value>,
    path: &Path,
    budget: u64,
) -> Vec<FieldError> {
    let _ = (schema, value, old, path, budget);
    Vec::new()
}
