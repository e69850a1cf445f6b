/*!
One object of a Cluster's plan: what happens to it ([`Action`]) and the object as planned
([`PlannedObject`]). Every part of the compare stage and every output format read these.
*/

use serde_json::Value;

use crate::json::metadata_str;
use crate::topology::Role;

/// What happens to an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// The object does not exist and will be created.
    Created,
    /// The object exists and will be changed.
    Modified,
    /// The object exists and stays as it is.
    Unchanged,
    /// The object exists and will be deleted.
    Deleted,
}

impl Action {
    /// The word used in tables and documents.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Created => "created",
            Action::Modified => "modified",
            Action::Unchanged => "unchanged",
            Action::Deleted => "deleted",
        }
    }
}

/// One object of a cluster's plan.
#[derive(Debug, Clone)]
pub struct PlannedObject {
    /// What happens to it.
    pub action: Action,
    /// What it is for.
    pub role: Role,
    /// The object as it would be after the change (or as it is, when unchanged or deleted).
    pub object: Value,
    /// The object as it is now, when it exists; for a template created by rotation, the
    /// template it replaces (what a reviewer compares it with).
    pub current: Option<Value>,
    /// Why, when the verdict needs explaining: held by the upgrade sequencing, rotated,
    /// deleted because its topology entry is gone.
    pub note: Option<String>,
    /// For a template created by rotation: the name of the template it replaces.
    pub rotated_from: Option<String>,
    /// For an object held back by the upgrade sequencing: the object as the controller will
    /// write it once the hold lifts.
    pub pending: Option<Value>,
}

impl PlannedObject {
    /// `apiVersion`.
    pub fn api_version(&self) -> &str {
        self.object
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    /// `kind`.
    pub fn kind(&self) -> &str {
        self.object
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    /// `metadata.name`.
    pub fn name(&self) -> &str {
        metadata_str(&self.object, "name")
    }
    /// `metadata.namespace`.
    pub fn namespace(&self) -> &str {
        metadata_str(&self.object, "namespace")
    }
}
