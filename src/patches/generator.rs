/*!
What a patch generator is: Cluster API's `Generator` interface. An inline patch
([`super::inline::InlineGenerator`]) and an external one ([`super::external::ExternalGenerator`])
both turn a [`Request`] into patches for its items; the engine runs every patch of a class
through the same loop and never asks which kind it holds.

Owns the generator trait, the patches it hands back (decoded or not yet: Cluster API decodes an
extension's bytes only when it applies the item, after the items before it) and where a failure
arose.
*/

use serde_json::Value;

use super::request::Request;

/// How a response item's patch is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    /// RFC 6902.
    JsonPatch,
    /// RFC 7386.
    JsonMergePatch,
}

/// One generated patch for one request item.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseItem {
    /// The request item's uid.
    pub uid: String,
    /// Encoding of `patch`.
    pub patch_type: PatchType,
    /// The patch document.
    pub patch: Value,
}

/// A patch as a generator answers it: decoded, or bytes decoded when the item is applied.
pub trait Answer {
    /// The uid of the request item it patches.
    fn uid(&self) -> &str;
    /// The patch as the engine applies it, or `Ok(None)` when Cluster API skips it (an empty
    /// merge patch); errors are worded as `applyPatchToRequest` words them.
    fn decode(&self) -> Result<Option<ResponseItem>, String>;
}

impl Answer for ResponseItem {
    fn uid(&self) -> &str {
        &self.uid
    }

    fn decode(&self) -> Result<Option<ResponseItem>, String> {
        Ok(Some(self.clone()))
    }
}

/// Why a generator failed: Cluster API's text, and where in the patch it arose when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The generator's error text.
    pub message: String,
    /// A JSON pointer inside the patch (`/enabledIf`, `/definitions/0/jsonPatches/1`) and the
    /// uid of the item being generated.
    pub at: Option<(String, String)>,
    /// The code when it is not the hook's own (a stale or broken recording of the call).
    pub code: Option<crate::diag::Code>,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            message,
            at: None,
            code: None,
        }
    }
}

impl From<crate::runtime::Error> for Failure {
    fn from(e: crate::runtime::Error) -> Failure {
        Failure {
            code: e.recording_code(),
            message: e.to_string(),
            at: None,
        }
    }
}

/// Something that turns a request into patches (inline definitions, or an external extension).
pub trait PatchGenerator {
    /// Cluster API's `Generator.Generate`.
    fn generate(&self, req: &Request) -> Result<Vec<Box<dyn Answer>>, Failure>;

    /// Items the patch skipped, with why (for `--explain`).
    fn skipped(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// What `--explain` says of a template the patch left alone without a reason of its own.
    fn nothing_generated(&self) -> &'static str;

    /// Templates of the patch that printed `<no value>`: (item uid, pointer inside the patch).
    fn no_values(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}
