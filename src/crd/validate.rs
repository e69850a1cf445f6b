/*!
Validation of a custom resource against its CRD version, as `customResourceStrategy.Validate`
(create) and `ValidateUpdate` (update) run it, after decoding and defaulting.

Owns [`validate()`], in the API server's order: the object's `apiVersion` and `kind` against the
CRD's (`ValidateTypeMeta`; errors there stop everything else), the OpenAPI schema with
kube-openapi's messages (`ValidateCustomResource`, [`crate::schema::value`] in the custom
resource view), embedded resources ([`super::embedded`]), list-type sets and maps
([`super::listtype`]; on update only when the old object had no such error), then the CEL rules
([`crate::schema::cel::Validator`]) with the 10,000,000 runtime cost budget — unless an earlier
error is of a blocking type (Unsupported value, Required value, Too long, Too many, or a type
mismatch), which the API server reports as one more error instead of running the rules.

Errors at the object's root are rendered at `<nil>`, as the API server's nil field path prints.

Not emulated: the root ObjectMeta checks (`ValidateObjectMetaAccessor`: name, namespace,
labels…; [`crate::load::Object::check_names`] covers names), the scale and status subresources,
and validation ratcheting on update (`CRDValidationRatcheting`, on by default since Kubernetes
1.30): an update is validated like a create, so an invalid value the old object already had is
reported where the API server would let it pass. `metadata` at the root is validated only by what
the CRD's schema says of it, which Kubernetes restricts to its type and `name` / `generateName`.
*/

use serde_json::Value;

use super::structural::Structural;
use super::{embedded, listtype};
use crate::k8s::field::{BadValue, ErrorType, FieldError, Path};
use crate::schema::RUNTIME_CEL_COST_BUDGET;
use crate::schema::value::{Mode, to_field_errors};

/// The error added instead of running CEL rules on an object with a blocking error
/// (`hasBlockingErr`).
pub const RULES_NOT_CHECKED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// The field errors of `obj` (with `old` on update) against `s` (see the module docs).
pub fn validate(obj: &Value, old: Option<&Value>, s: &Structural) -> Vec<FieldError> {
    let type_errs = type_meta(obj, s);
    if !type_errs.is_empty() {
        return type_errs;
    }
    let root = Path::root();
    let mut errs = to_field_errors(
        &root,
        &crate::schema::value::validate(&s.schema, obj, Mode::CustomResource),
    );
    errs.extend(embedded::validate_embedded(obj, s));
    let old_list_errs = old.is_some_and(|o| !listtype::validate_lists(o, s).is_empty());
    if !old_list_errs {
        errs.extend(listtype::validate_lists(obj, s));
    }
    if let Some(cel) = &s.cel {
        if errs.iter().any(|e| blocking(e.kind)) {
            errs.push(FieldError::invalid(
                &root,
                BadValue::Json(Value::Null),
                RULES_NOT_CHECKED,
            ));
        } else {
            errs.extend(cel.validate(obj, old, &root, RUNTIME_CEL_COST_BUDGET));
        }
    }
    for e in &mut errs {
        if e.path.is_empty() {
            e.path = nil_path();
        }
    }
    errs
}

/// The field path Go prints for a nil `*field.Path`.
fn nil_path() -> Path {
    Path::root().child_as("<nil>", &[])
}

/// Error types after which the API server skips the CEL rules.
fn blocking(kind: ErrorType) -> bool {
    matches!(
        kind,
        ErrorType::NotSupported
            | ErrorType::Required
            | ErrorType::TooLong
            | ErrorType::TooMany
            | ErrorType::TypeInvalid
    )
}

/// `customResourceValidator.ValidateTypeMeta`.
fn type_meta(obj: &Value, s: &Structural) -> Vec<FieldError> {
    let gvk = s.gvk();
    let mut errs = Vec::new();
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    if kind != gvk.kind {
        errs.push(FieldError::invalid(
            &Path::new("kind"),
            kind,
            format!("must be {}", gvk.kind),
        ));
    }
    let want = format!("{}/{}", gvk.group, gvk.version);
    let api_version = obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if api_version != want {
        errs.push(FieldError::invalid(
            &Path::new("apiVersion"),
            api_version,
            format!("must be {want}"),
        ));
    }
    errs
}
