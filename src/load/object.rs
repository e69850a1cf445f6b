/*!
One Kubernetes object as read from the input: its JSON value, identity and origin.

Owns the minimal shape check every object must pass (apiVersion, kind, metadata.name) and
namespace defaulting; it does not interpret kinds.
*/

use serde_json::Value;

use crate::diag::{Code, Diagnostic};
use crate::source::Origin;

/// An input object with its identity pulled out for quick lookup.
#[derive(Debug, Clone)]
pub struct Object {
    /// The whole object (namespace defaulted).
    pub value: Value,
    /// Where it was read from.
    pub origin: Origin,
    /// `apiVersion`, e.g. `cluster.x-k8s.io/v1beta2`.
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`, defaulted.
    pub namespace: String,
}

impl Object {
    /// Check the object's shape and default its namespace.
    pub fn new(
        mut value: Value,
        origin: Origin,
        default_namespace: &str,
    ) -> Result<Object, Diagnostic> {
        if !value.is_object() {
            return Err(Diagnostic::error(Code::InputObject, format!(
                "expected a Kubernetes object (a mapping with apiVersion, kind and metadata), found {}",
                type_name(&value)
            ))
            .at(&origin, "", "not a mapping"));
        }
        let kind = required_string(&value, &origin, "/kind", "kind")?;
        let api_version = required_string(&value, &origin, "/apiVersion", "apiVersion")?;
        if api_version.split('/').count() > 2
            || api_version.is_empty()
            || api_version.ends_with('/')
        {
            return Err(Diagnostic::error(
                Code::InputObject,
                format!("invalid apiVersion {api_version:?}"),
            )
            .at(&origin, "/apiVersion", "expected group/version or version")
            .with_help("for example cluster.x-k8s.io/v1beta2"));
        }
        let name = match value.pointer("/metadata/name") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            Some(Value::String(_)) | None | Some(Value::Null) => {
                let what = if value.pointer("/metadata/generateName").is_some() {
                    "metadata.generateName is not supported: objects need a fixed metadata.name"
                } else {
                    "metadata.name is required"
                };
                return Err(Diagnostic::error(
                    Code::InputObject,
                    format!("{kind} has no name: {what}"),
                )
                .at(&origin, "/metadata", "no name here"));
            }
            Some(other) => {
                return Err(Diagnostic::error(
                    Code::InputObject,
                    format!("metadata.name must be a string, found {}", type_name(other)),
                )
                .at(&origin, "/metadata/name", "expected a string"));
            }
        };
        let namespace = match value.pointer("/metadata/namespace") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            None | Some(Value::Null) | Some(Value::String(_)) => {
                if let Some(meta) = value.get_mut("metadata").and_then(Value::as_object_mut) {
                    meta.insert(
                        "namespace".into(),
                        Value::String(default_namespace.to_string()),
                    );
                }
                default_namespace.to_string()
            }
            Some(other) => {
                return Err(Diagnostic::error(
                    Code::InputObject,
                    format!(
                        "metadata.namespace must be a string, found {}",
                        type_name(other)
                    ),
                )
                .at(&origin, "/metadata/namespace", "expected a string"));
            }
        };
        Ok(Object {
            value,
            origin,
            api_version,
            kind,
            name,
            namespace,
        })
    }

    /// Refuse a name or namespace the API server refuses for every object, before any webhook
    /// (`ValidateObjectMeta`): no cluster could hold this object, and the names go on to become
    /// file names, labels and terminal output. Located at the first offending field.
    pub fn check_names(&self) -> Result<(), Diagnostic> {
        let errs = crate::k8s::validation::object_meta_names(
            self.group(),
            &self.name,
            Some(&self.namespace),
        );
        let Some(first) = errs.first() else {
            return Ok(());
        };
        let (pointer, label) = if first.path.to_string() == "metadata.name" {
            ("/metadata/name", "not a valid object name")
        } else {
            ("/metadata/namespace", "not a valid namespace name")
        };
        Err(Diagnostic::error(
            Code::AdmissionInvalid,
            crate::k8s::field::invalid_object(&self.kind, self.group(), &self.name, &errs),
        )
        .at(&self.origin, pointer, label))
    }

    /// The API group (`""` for the core group).
    pub fn group(&self) -> &str {
        group_of(&self.api_version)
    }

    /// The API version without the group.
    pub fn version(&self) -> &str {
        self.api_version.rsplit('/').next().unwrap_or("")
    }

    /// `namespace/name`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// `group/Kind namespace/name`: the object's identity across inputs.
    pub fn key_with_kind(&self) -> String {
        format!(
            "{}/{} {}/{}",
            self.group(),
            self.kind,
            self.namespace,
            self.name
        )
    }
}

/// The group of an apiVersion string (`""` for `v1`).
pub fn group_of(api_version: &str) -> &str {
    match api_version.split_once('/') {
        Some((g, _)) => g,
        None => "",
    }
}

fn required_string(
    value: &Value,
    origin: &Origin,
    pointer: &str,
    field: &str,
) -> Result<String, Diagnostic> {
    match value.pointer(pointer) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        Some(Value::String(_)) | None | Some(Value::Null) => Err(Diagnostic::error(Code::InputObject, format!(
            "object has no {field}: every Kubernetes object needs apiVersion, kind and metadata.name"
        ))
        .at(origin, pointer, format!("{field} missing"))),
        Some(other) => Err(Diagnostic::error(Code::InputObject, format!(
            "{field} must be a string, found {}",
            type_name(other)
        ))
        .at(origin, pointer, "expected a string")),
    }
}

/// A short name for a JSON type, for messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a sequence",
        Value::Object(_) => "a mapping",
    }
}
