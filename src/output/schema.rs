//! JSON Schemas (draft 2020-12) of the documents topoplan prints: the plan (`plan -o json`),
//! the review (`diff -o json`), the validation (`validate -o json`) and the extension check
//! (`extension check -o json`). The same documents in
//! YAML follow them too. `tests/schemas.rs` checks real output against them.

/// The documents that have a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// `plan -o json|yaml` (kind Plan).
    Plan,
    /// `diff -o json|yaml` (kind Review).
    Review,
    /// `validate -o json` (kind Validation).
    Validation,
    /// `extension check -o json` (kind ExtensionCheck).
    ExtensionCheck,
}

/// The schema of `kind`'s document, as JSON text.
pub fn text(kind: Kind) -> &'static str {
    match kind {
        Kind::Plan => include_str!("schemas/plan.json"),
        Kind::Review => include_str!("schemas/review.json"),
        Kind::Validation => include_str!("schemas/validation.json"),
        Kind::ExtensionCheck => include_str!("schemas/extension-check.json"),
    }
}
