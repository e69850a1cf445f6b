/*!
One object through the API server's create (or update) path for custom resources: decoding with
pruning, defaulting, validation — and the result worded as the API server's `Invalid` status.

Owns [`admit()`] and [`Admitted`]. The object is changed in place into what the API server would
store (before it adds server-set metadata such as `uid` or `creationTimestamp`).
*/

use serde_json::Value;

use super::structural::Structural;
use super::{default, prune, validate};
use crate::k8s::field::{FieldError, invalid_object};

/// What admitting one object found.
#[derive(Debug, Clone, PartialEq)]
pub struct Admitted {
    /// The fields dropped while decoding (`spec.template.spec.foo`), in the API server's order;
    /// the API server warns `unknown field "<path>"` for each (with `fieldValidation=Warn`, the
    /// default) or refuses the request (`Strict`).
    pub pruned: Vec<String>,
    /// The validation errors; empty when the API server would accept the object.
    pub errors: Vec<FieldError>,
    /// The object's kind, group and name, for the message.
    kind: String,
    group: String,
    name: String,
}

impl Admitted {
    /// Whether the API server would accept the object.
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// The API server's message for the refusal (`apierrors.NewInvalid(...).Error()`):
    /// `KubeadmControlPlane.controlplane.cluster.x-k8s.io "cp" is invalid: [spec.replicas:
    /// Invalid value: ..., ...]`; `None` when the object is valid.
    pub fn message(&self) -> Option<String> {
        (!self.errors.is_empty())
            .then(|| invalid_object(&self.kind, &self.group, &self.name, &self.errors))
    }
}

/// Prune, default and validate `object` in place against `s`, with `old` (the stored object) on
/// update; see [`prune()`](super::prune()), [`default()`](super::default()) and
/// [`validate()`](super::validate()).
pub fn admit(object: &mut Value, old: Option<&Value>, s: &Structural) -> Admitted {
    admit_with(object, old, s, false)
}

/// [`admit()`], with a defaulting webhook's round trip between defaulting and validation when
/// `round_trip` ([`super::webhooks::round_trip`]); the API server applies the schema's
/// defaults again to what a mutating webhook returned.
pub fn admit_with(
    object: &mut Value,
    old: Option<&Value>,
    s: &Structural,
    round_trip: bool,
) -> Admitted {
    let pruned = prune(object, s);
    default(object, s);
    if round_trip && super::webhooks::round_trip(object, &s.schema) {
        default(object, s);
    }
    let errors = validate(object, old, s);
    let name = object
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    Admitted {
        pruned,
        errors,
        kind: s.gvk().kind.clone(),
        group: s.gvk().group.clone(),
        name,
    }
}
