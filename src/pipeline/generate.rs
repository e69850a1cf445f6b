/*!
The driver of `topoplan generate cluster`: one workload cluster's YAML (or its template's
variables) from a provider repository; what that means is [`crate::provider::generate`]'s.
*/

use crate::diag::Diagnostic;
pub use crate::provider::generate::{GenerateOptions, Generated};

/// Generate the cluster `opts` describes.
pub fn cluster(opts: GenerateOptions) -> Result<Generated, Diagnostic> {
    crate::provider::generate::cluster(opts)
}
