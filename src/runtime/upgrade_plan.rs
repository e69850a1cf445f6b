/*!
The GenerateUpgradePlan hook on the wire (`hooks.runtime.cluster.x-k8s.io/v1alpha1`, Cluster API
main `api/runtime/hooks/v1alpha1/upgrade_plan_types.go`): its request and response types, the
Cluster the request carries (as `exp/topology/desiredstate` `cleanupCluster` trims it), and the
versions read out of an answer, bounded.

Owns nothing of when the hook is called or how its plan is used: that is the upgrade
sequencing's (`crate::plan::upgrade`), which validates the versions with Cluster API's messages.

Difference: Cluster API takes a plan of any length; here each list may hold at most
[`MAX_UPGRADE_STEPS`] versions. An answer is input: a list of millions of steps fits in the
response bound and would take gigabytes decoded, and validating the workers plan against the
control-plane plan compares every pair. A longer list is refused while it is read, as an
undecodable answer (so `failurePolicy: Ignore` forgives it, as it forgives a body over
`--max-extension-response-bytes`).
*/

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::types::{Response, ResponseStatus, Shape};

/// The most versions an answer's `controlPlaneUpgrades` or `workersUpgrades` may list. A
/// Kubernetes upgrade takes one step per minor (plus the odd patch), so this is far beyond any
/// real plan.
pub const MAX_UPGRADE_STEPS: usize = 1024;

/// Annotations `cleanupCluster` removes before sending the Cluster.
const DROPPED_ANNOTATIONS: [&str; 2] = [
    "kubectl.kubernetes.io/last-applied-configuration",
    "cluster.x-k8s.io/conversion-data",
];

fn is_empty_map(m: &BTreeMap<String, String>) -> bool {
    m.is_empty()
}

/// `GenerateUpgradePlanRequest`. `api_version` and `kind` are filled in by the client.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GenerateUpgradePlanRequest {
    pub api_version: String,
    pub kind: String,
    #[serde(skip_serializing_if = "is_empty_map")]
    pub settings: BTreeMap<String, String>,
    /// The Cluster as [`cluster_for_request`] leaves it.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub cluster: Value,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub from_control_plane_kubernetes_version: String,
    /// The lowest current MachineDeployment/MachinePool version; empty when none has one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub from_workers_kubernetes_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub to_kubernetes_version: String,
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UpgradeStep {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
}

/// `GenerateUpgradePlanResponse`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GenerateUpgradePlanResponse {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub status: ResponseStatus,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub control_plane_upgrades: Vec<UpgradeStep>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers_upgrades: Vec<UpgradeStep>,
}

const STEPS: Shape = Shape::BoundedArray(
    &Shape::Object(&[("version", Shape::Scalar)]),
    MAX_UPGRADE_STEPS,
);

super::types::response!(
    GenerateUpgradePlanResponse,
    Shape::Object(&[
        ("apiVersion", Shape::Scalar),
        ("kind", Shape::Scalar),
        ("status", Shape::Scalar),
        ("message", Shape::Scalar),
        ("controlPlaneUpgrades", STEPS),
        ("workersUpgrades", STEPS),
    ])
);

impl GenerateUpgradePlanResponse {
    /// The control-plane and workers versions, in order.
    pub fn versions(&self) -> (Vec<String>, Vec<String>) {
        let read = |steps: &[UpgradeStep]| steps.iter().map(|s| s.version.clone()).collect();
        (
            read(&self.control_plane_upgrades),
            read(&self.workers_upgrades),
        )
    }
}

/// The Cluster as `cleanupCluster` sends it: no status, no managedFields, and neither the
/// last-applied-configuration nor the conversion-data annotation.
pub fn cluster_for_request(cluster: &Value) -> Value {
    let mut c = cluster.clone();
    if let Some(m) = c.as_object_mut() {
        m.remove("status");
    }
    if let Some(meta) = c.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
        if let Some(a) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            for k in DROPPED_ANNOTATIONS {
                a.remove(k);
            }
        }
    }
    c
}

/// `Cluster <namespace>/<name>` of the request's Cluster, when it says.
pub(super) fn subject(request: &GenerateUpgradePlanRequest) -> Option<String> {
    let meta = request.cluster.get("metadata")?;
    let name = meta.get("name").and_then(Value::as_str)?;
    let ns = meta.get("namespace").and_then(Value::as_str).unwrap_or("");
    Some(format!("Cluster {ns}/{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::types::decode_response;
    use serde_json::json;

    fn decode(body: &str) -> Result<GenerateUpgradePlanResponse, String> {
        decode_response::<GenerateUpgradePlanResponse>(body.as_bytes())
    }

    #[test]
    fn request_encodes_as_go_does() {
        let req = GenerateUpgradePlanRequest {
            api_version: "hooks.runtime.cluster.x-k8s.io/v1alpha1".into(),
            kind: "GenerateUpgradePlanRequest".into(),
            settings: BTreeMap::new(),
            cluster: json!({"metadata": {"name": "c", "namespace": "ns"}}),
            from_control_plane_kubernetes_version: "v1.30.4".into(),
            from_workers_kubernetes_version: String::new(),
            to_kubernetes_version: "v1.32.0".into(),
        };
        assert_eq!(
            serde_json::to_string(&req).ok(),
            Some(
                r#"{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"GenerateUpgradePlanRequest","cluster":{"metadata":{"name":"c","namespace":"ns"}},"fromControlPlaneKubernetesVersion":"v1.30.4","toKubernetesVersion":"v1.32.0"}"#
                    .to_string()
            )
        );
        assert_eq!(subject(&req).as_deref(), Some("Cluster ns/c"));
    }

    #[test]
    fn response_decodes_as_go_does() {
        // Keys fold case-insensitively, null steps are zero steps, unknown keys are ignored.
        let r = decode(
            r#"{"status":"Success","ControlPlaneUpgrades":[{"VERSION":"v1.31.2"},null,{"version":null}],"workersUpgrades":null,"extra":1}"#,
        );
        let r = r.map(|r| r.versions());
        assert_eq!(
            r,
            Ok((
                vec!["v1.31.2".to_string(), String::new(), String::new()],
                Vec::new()
            ))
        );
    }

    #[test]
    fn wrong_types_are_located() {
        let cases = [
            (
                r#"{"status":"Success","controlPlaneUpgrades":[{"version":"v1.31.0"},{"version":131}]}"#,
                "controlPlaneUpgrades[1].version: invalid type: integer `131`, expected a string",
            ),
            (
                r#"{"status":"Success","workersUpgrades":"v1.31.0"}"#,
                "workersUpgrades: invalid type: string \"v1.31.0\", expected a sequence",
            ),
            (
                r#"{"status":"Success","controlPlaneUpgrades":["v1.31.0"]}"#,
                "controlPlaneUpgrades[0]: invalid type: string \"v1.31.0\", expected struct UpgradeStep",
            ),
            (
                r#"{"status":["Success"]}"#,
                "status: invalid type: sequence, expected a string",
            ),
        ];
        for (body, want) in cases {
            assert_eq!(decode(body).map(|_| ()), Err(want.to_string()), "{body}");
        }
    }

    #[test]
    fn huge_lists_are_refused_while_read() {
        let steps = |n: usize| vec![json!({"version": "v1.31.0"}); n];
        let ok = json!({"status": "Success", "controlPlaneUpgrades": steps(MAX_UPGRADE_STEPS)});
        let r = decode(&ok.to_string()).map(|r| r.versions().0.len());
        assert_eq!(r, Ok(MAX_UPGRADE_STEPS));

        // Refused at the first step over the bound, whatever follows (even broken JSON).
        let huge = json!({"status": "Success", "workersUpgrades": steps(MAX_UPGRADE_STEPS + 1)});
        let text = huge.to_string();
        let cut = format!("{}, {{\"version\": ", &text[..text.len() - 2]);
        for body in [text.as_str(), cut.as_str()] {
            let err = decode(body).map(|_| ());
            let want = format!(
                "workersUpgrades: more than {MAX_UPGRADE_STEPS} items, the most topoplan accepts at line 1 column "
            );
            assert!(err.as_ref().is_err_and(|e| e.starts_with(&want)), "{err:?}");
        }

        // Under another name the bound does not apply (only the shape's bounded lists are).
        let other = json!({"status": "Success", "other": steps(MAX_UPGRADE_STEPS + 1)});
        assert!(decode(&other.to_string()).is_ok());
    }

    #[test]
    fn the_cluster_is_cleaned_up() {
        let c = json!({
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "Cluster",
            "metadata": {
                "name": "c",
                "managedFields": [{"manager": "x"}],
                "annotations": {
                    "kubectl.kubernetes.io/last-applied-configuration": "{}",
                    "cluster.x-k8s.io/conversion-data": "{}",
                    "keep": "me"
                }
            },
            "spec": {"topology": {"version": "v1.31.0"}},
            "status": {"phase": "Provisioned"}
        });
        assert_eq!(
            cluster_for_request(&c),
            json!({
                "apiVersion": "cluster.x-k8s.io/v1beta2",
                "kind": "Cluster",
                "metadata": {"name": "c", "annotations": {"keep": "me"}},
                "spec": {"topology": {"version": "v1.31.0"}}
            })
        );
        // Not an object: left as it is.
        assert_eq!(cluster_for_request(&json!(3)), json!(3));
    }
}
