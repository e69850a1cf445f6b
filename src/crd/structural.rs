/*!
One served version of a CustomResourceDefinition, ready to admit objects: its schema decoded once
and its CEL rules compiled once (what the API server builds per version in `crdHandler`:
`structuralschema.NewStructural`, the schema validator and `cel.NewValidator`).

Owns [`Structural`] and the group-version-kind key [`Gvk`]. Knows nothing of where the CRD was
read from ([`super::definition`] does) nor of what is done with an object ([`mod@super::prune`] and
the others borrow a `Structural`).
*/

use std::fmt;

use serde_json::Value;

use crate::k8s::field::{FieldError, Path};
use crate::schema::cel;
use crate::schema::props::Schema;

/// A group, version and kind (`controlplane.cluster.x-k8s.io`, `v1beta2`, `KubeadmControlPlane`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Gvk {
    /// API group (`""` for the core group).
    pub group: String,
    /// Version.
    pub version: String,
    /// Kind.
    pub kind: String,
}

impl Gvk {
    /// A key from its parts.
    pub fn new(group: &str, version: &str, kind: &str) -> Gvk {
        Gvk {
            group: group.to_string(),
            version: version.to_string(),
            kind: kind.to_string(),
        }
    }

    /// The key of an object's `apiVersion` (`group/version`, or `version` for the core group)
    /// and `kind`.
    pub fn of(api_version: &str, kind: &str) -> Gvk {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        Gvk::new(group, version, kind)
    }

    /// `group/version` (`version` for the core group).
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

impl fmt::Display for Gvk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            write!(f, "{}, Kind={}", self.version, self.kind)
        } else {
            write!(f, "{}/{}, Kind={}", self.group, self.version, self.kind)
        }
    }
}

/// One served version's schema, compiled (see the module docs). Immutable; share it by `Arc`.
#[derive(Debug)]
pub struct Structural {
    gvk: Gvk,
    /// The decoded `openAPIV3Schema` (CRD dialect).
    pub(crate) schema: Schema,
    /// The compiled `x-kubernetes-validations`, if the schema has any.
    pub(crate) cel: Option<cel::Validator>,
    /// `spec.preserveUnknownFields: true` (a legacy v1beta1 CRD): nothing is pruned.
    pub(crate) preserve_unknown_fields: bool,
}

impl Structural {
    /// Decode and compile `openapi` (a version's `schema.openAPIV3Schema`) for objects of `gvk`.
    /// Errors are field errors under `path` (where the schema sits in its CRD); a schema beyond
    /// [`super::bounds`] is refused before anything recurses into it.
    pub fn compile(
        gvk: Gvk,
        openapi: &Value,
        preserve_unknown_fields: bool,
        path: &Path,
    ) -> Result<Structural, Vec<FieldError>> {
        Structural::compile_with(
            gvk,
            openapi,
            preserve_unknown_fields,
            path,
            cel::Compile::Eager,
        )
    }

    /// [`Structural::compile`], with the CEL rules compiled when `when` says (see
    /// [`cel::Compile`]: lazily only for schemas known to compile cleanly).
    pub fn compile_with(
        gvk: Gvk,
        openapi: &Value,
        preserve_unknown_fields: bool,
        path: &Path,
        when: cel::Compile,
    ) -> Result<Structural, Vec<FieldError>> {
        super::bounds::check_bounds(openapi)
            .map_err(|why| vec![FieldError::forbidden(path, why)])?;
        let schema = Schema::parse_crd(openapi, path)?;
        let cel = cel::Validator::compile_with(openapi, when)
            .map_err(|e| vec![FieldError::internal(path, e)])?;
        Ok(Structural {
            gvk,
            schema,
            cel,
            preserve_unknown_fields,
        })
    }

    /// The group, version and kind this schema admits.
    pub fn gvk(&self) -> &Gvk {
        &self.gvk
    }

    /// The decoded schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_across_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Structural>();
    }

    #[test]
    fn gvk_prints_like_schema_group_version_kind() {
        assert_eq!(
            Gvk::new("cluster.x-k8s.io", "v1beta2", "Cluster").to_string(),
            "cluster.x-k8s.io/v1beta2, Kind=Cluster"
        );
        assert_eq!(Gvk::new("", "v1", "Pod").to_string(), "v1, Kind=Pod");
    }
}
