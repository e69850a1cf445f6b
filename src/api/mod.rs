/*!
API model: typed ClusterClass and Cluster, whatever version they were written in.

Owns recognising Cluster API objects in the input, converting v1beta1 to the internal v1beta2
shape ([`convert`]), decoding into [`types`], and knowing where each field stood in the user's
file so later stages can point at it. Computes nothing.
*/

pub mod convert;
pub mod external;
pub mod labels;
pub mod time;
pub mod types;

use serde_json::Value;

use crate::diag::{Code, Diagnostic};
use crate::load::Object;
use crate::source::pointer;
pub use types::*;

/// The Cluster API group.
pub const GROUP: &str = "cluster.x-k8s.io";

/// Kinds of the cluster.x-k8s.io group that may appear in an input.
const KNOWN_KINDS: &[&str] = &[
    "Cluster",
    "ClusterClass",
    "Machine",
    "MachineDeployment",
    "MachineDrainRule",
    "MachineHealthCheck",
    "MachinePool",
    "MachineSet",
];

/// A version of the cluster.x-k8s.io API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ApiVersion {
    /// v1beta1: Cluster API ≤ v1.10 (and served by later releases).
    V1Beta1,
    /// v1beta2: Cluster API ≥ v1.11.
    V1Beta2,
}

impl ApiVersion {
    /// `cluster.x-k8s.io/<version>`.
    pub fn api_version(self) -> &'static str {
        match self {
            ApiVersion::V1Beta1 => "cluster.x-k8s.io/v1beta1",
            ApiVersion::V1Beta2 => "cluster.x-k8s.io/v1beta2",
        }
    }
}

/// Check an object of the cluster.x-k8s.io group: its version must be v1beta1 or v1beta2 and its
/// kind one Cluster API defines. Objects of other groups are not checked (they are provider
/// templates and the like).
pub fn check_core_object(obj: &Object) -> Result<Option<ApiVersion>, Diagnostic> {
    if obj.group() != GROUP {
        return Ok(None);
    }
    let version = match obj.version() {
        "v1beta1" => ApiVersion::V1Beta1,
        "v1beta2" => ApiVersion::V1Beta2,
        other => {
            return Err(Diagnostic::error(
                Code::InputUnsupported,
                format!("unsupported apiVersion {GROUP}/{other} for {}", obj.kind),
            )
            .at(&obj.origin, "/apiVersion", "unsupported version")
            .with_help("topoplan reads cluster.x-k8s.io/v1beta1 and cluster.x-k8s.io/v1beta2"));
        }
    };
    if !KNOWN_KINDS.contains(&obj.kind.as_str()) {
        return Err(Diagnostic::error(
            Code::InputUnsupported,
            format!(
                "unknown kind {:?} in {}: Cluster API defines no such kind",
                obj.kind, obj.api_version
            ),
        )
        .at(&obj.origin, "/kind", "unknown kind")
        .with_help(format!("expected one of {}", KNOWN_KINDS.join(", "))));
    }
    Ok(Some(version))
}

/// Where a template reference stands in a ClusterClass, for diagnostics.
#[derive(Debug, Clone, Copy)]
pub enum RefSite {
    /// `spec.infrastructure`.
    Infrastructure,
    /// `spec.controlPlane`.
    ControlPlane,
    /// `spec.controlPlane.machineInfrastructure`.
    ControlPlaneMachineInfrastructure,
    /// Bootstrap template of MachineDeployment class `i`.
    MachineDeploymentBootstrap(usize),
    /// Infrastructure template of MachineDeployment class `i`.
    MachineDeploymentInfrastructure(usize),
    /// Bootstrap template of MachinePool class `i`.
    MachinePoolBootstrap(usize),
    /// Infrastructure template of MachinePool class `i`.
    MachinePoolInfrastructure(usize),
}

/// A ClusterClass from the input.
#[derive(Debug, Clone)]
pub struct ClusterClass {
    /// The object as read.
    pub object: Object,
    /// The version it was written in.
    pub api: ApiVersion,
    /// Its spec, in the internal shape.
    pub spec: ClusterClassSpec,
    /// Its spec as JSON in the v1beta2 shape (what the admission rules read).
    pub spec_value: Value,
    /// Fields ignored because the version it was written in has no such field.
    pub warnings: Vec<Diagnostic>,
}

impl ClusterClass {
    /// Decode a ClusterClass object.
    pub fn parse(object: &Object, api: ApiVersion) -> Result<ClusterClass, Diagnostic> {
        let raw = object.value.get("spec").unwrap_or(&Value::Null);
        let spec_value = match api {
            ApiVersion::V1Beta2 => raw.clone(),
            ApiVersion::V1Beta1 => convert::cluster_class_spec(raw),
        };
        let spec = decode(object, &spec_value)?;
        let warnings = match api {
            ApiVersion::V1Beta1 => pruned(object, convert::class_fields_after_v1_10(&object.value)),
            ApiVersion::V1Beta2 => Vec::new(),
        };
        Ok(ClusterClass {
            object: object.clone(),
            api,
            spec,
            spec_value,
            warnings,
        })
    }

    /// `namespace/name`.
    pub fn key(&self) -> String {
        self.object.key()
    }

    /// JSON pointer (into the original object) of a template reference.
    pub fn ref_pointer(&self, site: RefSite) -> String {
        let v1 = self.api == ApiVersion::V1Beta1;
        let r = if v1 { "ref" } else { "templateRef" };
        match site {
            RefSite::Infrastructure => format!("/spec/infrastructure/{r}"),
            RefSite::ControlPlane => format!("/spec/controlPlane/{r}"),
            RefSite::ControlPlaneMachineInfrastructure => {
                format!("/spec/controlPlane/machineInfrastructure/{r}")
            }
            RefSite::MachineDeploymentBootstrap(i) => {
                worker_ref("machineDeployments", i, "bootstrap", v1)
            }
            RefSite::MachineDeploymentInfrastructure(i) => {
                worker_ref("machineDeployments", i, "infrastructure", v1)
            }
            RefSite::MachinePoolBootstrap(i) => worker_ref("machinePools", i, "bootstrap", v1),
            RefSite::MachinePoolInfrastructure(i) => {
                worker_ref("machinePools", i, "infrastructure", v1)
            }
        }
    }
}

fn worker_ref(list: &str, i: usize, part: &str, v1: bool) -> String {
    if v1 {
        format!("/spec/workers/{list}/{i}/template/{part}/ref")
    } else {
        format!("/spec/workers/{list}/{i}/{part}/templateRef")
    }
}

/// A Cluster from the input.
#[derive(Debug, Clone)]
pub struct Cluster {
    /// The object as read.
    pub object: Object,
    /// The version it was written in; generated core objects use it too.
    pub api: ApiVersion,
    /// Its spec, in the internal shape.
    pub spec: ClusterSpec,
    /// Its spec as JSON in the v1beta2 shape (what the admission rules read).
    pub spec_value: Value,
    /// Fields ignored because the version it was written in has no such field.
    pub warnings: Vec<Diagnostic>,
}

impl Cluster {
    /// Decode a Cluster object.
    pub fn parse(object: &Object, api: ApiVersion) -> Result<Cluster, Diagnostic> {
        let raw = object.value.get("spec").unwrap_or(&Value::Null);
        let spec_value = match api {
            ApiVersion::V1Beta2 => raw.clone(),
            ApiVersion::V1Beta1 => convert::cluster_spec(raw),
        };
        // A `null` or missing spec is Go's zero ClusterSpec, as Cluster API's webhook decodes it;
        // the webhook then refuses it with its own message (see `validate::cluster`).
        let spec: ClusterSpec = if spec_value.is_null() {
            ClusterSpec::default()
        } else {
            decode(object, &spec_value)?
        };
        let warnings = match api {
            ApiVersion::V1Beta1 => {
                pruned(object, convert::cluster_fields_after_v1_10(&object.value))
            }
            ApiVersion::V1Beta2 => Vec::new(),
        };
        Ok(Cluster {
            object: object.clone(),
            api,
            spec,
            spec_value,
            warnings,
        })
    }

    /// The topology; callers only hold Clusters that have one.
    pub fn topology(&self) -> &Topology {
        static EMPTY: std::sync::OnceLock<Topology> = std::sync::OnceLock::new();
        self.spec
            .topology
            .as_ref()
            .unwrap_or_else(|| EMPTY.get_or_init(Topology::default))
    }

    /// Name.
    pub fn name(&self) -> &str {
        &self.object.name
    }

    /// Namespace.
    pub fn namespace(&self) -> &str {
        &self.object.namespace
    }

    /// `metadata.uid`, if the input carries one.
    pub fn uid(&self) -> Option<&str> {
        self.object
            .value
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
    }

    /// The ClusterClass this Cluster uses: (namespace, name).
    pub fn class_key(&self) -> (String, String) {
        let r = &self.topology().class_ref;
        let ns = if r.namespace.is_empty() {
            self.namespace().to_string()
        } else {
            r.namespace.clone()
        };
        (ns, r.name.clone())
    }

    /// JSON pointer of the class reference in the original object.
    pub fn class_pointer(&self) -> String {
        match self.api {
            ApiVersion::V1Beta1 => "/spec/topology/class".into(),
            ApiVersion::V1Beta2 => "/spec/topology/classRef/name".into(),
        }
    }

    /// JSON pointer of a worker topology's `class` field.
    pub fn worker_class_pointer(&self, list: &str, i: usize) -> String {
        pointer(["spec", "topology", "workers", list, &i.to_string(), "class"])
    }
}

/// Warnings for fields a v1beta1 object carries that Cluster API v1.10 did not have: its API
/// server pruned them, so they take no part in the plan.
fn pruned(object: &Object, pointers: Vec<String>) -> Vec<Diagnostic> {
    pointers
        .into_iter()
        .map(|p| {
            let field = p.trim_start_matches('/').replace('/', ".");
            Diagnostic::warning(Code::InputField, format!(
                "{} {}: {field} is not a field of cluster.x-k8s.io/v1beta1 as of Cluster API v1.10 and is ignored",
                object.kind,
                object.key()
            ))
            .at_key(&object.origin, &p, "ignored")
            .with_help("v1beta1 output follows Cluster API v1.10, which pruned this field; write the object in cluster.x-k8s.io/v1beta2 to use it")
        })
        .collect()
}

/// Decode a spec into its typed form; a type error points at the offending field.
fn decode<T: serde::de::DeserializeOwned>(object: &Object, spec: &Value) -> Result<T, Diagnostic> {
    serde_path_to_error::deserialize(spec).map_err(|e| {
        let mut tokens = vec!["spec".to_string()];
        for seg in e.path().iter() {
            match seg {
                serde_path_to_error::Segment::Seq { index } => tokens.push(index.to_string()),
                serde_path_to_error::Segment::Map { key } => tokens.push(key.clone()),
                serde_path_to_error::Segment::Enum { variant } => tokens.push(variant.clone()),
                serde_path_to_error::Segment::Unknown => {}
            }
        }
        let field = tokens.join(".");
        let ptr = pointer(&tokens);
        Diagnostic::error(
            Code::InputField,
            format!("{} {}: {field}: {}", object.kind, object.key(), e.inner()),
        )
        .at(&object.origin, &ptr, "unexpected value")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{Origin, SourceFile, SpanTable};
    use std::sync::Arc;

    fn object(v: Value) -> Object {
        let origin = Origin {
            file: SourceFile::new("t.yaml", ""),
            spans: Arc::new(SpanTable::default()),
        };
        Object::new(v, origin, "default").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn unknown_core_kind_is_an_error() {
        let o = object(
            serde_json::json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Clustr", "metadata": {"name": "a"}}),
        );
        let e = check_core_object(&o)
            .err()
            .map(|d| d.message)
            .unwrap_or_default();
        assert!(e.contains("unknown kind \"Clustr\""), "{e}");
    }

    #[test]
    fn type_errors_name_the_field() {
        let o = object(
            serde_json::json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster",
            "metadata": {"name": "a"}, "spec": {"topology": {"version": 3}}}),
        );
        let e = Cluster::parse(&o, ApiVersion::V1Beta2)
            .err()
            .map(|d| d.message)
            .unwrap_or_default();
        assert!(
            e.contains("spec.topology.version: invalid type: integer `3`, expected a string"),
            "{e}"
        );
    }

    #[test]
    fn v1beta1_class_ref_and_namespace() {
        let o = object(
            serde_json::json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "Cluster",
            "metadata": {"name": "a", "namespace": "ns"}, "spec": {"topology": {"class": "qs", "version": "v1.30.0"}}}),
        );
        let c = Cluster::parse(&o, ApiVersion::V1Beta1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.class_key(), ("ns".to_string(), "qs".to_string()));
        assert_eq!(c.class_pointer(), "/spec/topology/class");
    }
}
