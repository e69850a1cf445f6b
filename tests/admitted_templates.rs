//! `topoplan plan --current` with templates and ClusterClasses as the management cluster stores
//! them: the `-f` file is applied over the stored object, as `kubectl apply` would.
//!
//! The example is Cluster API Provider AWS's: its webhook defaults `bastion.enabled: false` into
//! every stored `AWSClusterTemplate`, so a class patch `replace /spec/template/spec/bastion/enabled`
//! works in a real cluster while the template file does not hold the field. The objects are
//! small and hand-written: an `AWSClusterTemplate` with the few fields the example needs.

mod common;

use common::Test;
use serde_json::Value;

const CLASS: &str = r#"apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata:
  name: aws
  namespace: fleet
spec:
  infrastructure:
    templateRef:
      apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
      kind: AWSClusterTemplate
      name: aws-cluster
  controlPlane:
    templateRef:
      apiVersion: controlplane.cluster.x-k8s.io/v1beta2
      kind: KubeadmControlPlaneTemplate
      name: aws-control-plane
  variables:
  - name: bastion
    required: false
    schema:
      openAPIV3Schema:
        type: boolean
        default: false
  patches:
  - name: bastion
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
        kind: AWSClusterTemplate
        matchResources:
          infrastructureCluster: true
      jsonPatches:
      - op: replace
        path: /spec/template/spec/bastion/enabled
        valueFrom:
          variable: bastion
"#;

/// The template as the platform team's file has it: no bastion.
const TEMPLATES: &str = r#"apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: AWSClusterTemplate
metadata:
  name: aws-cluster
  namespace: fleet
spec:
  template:
    spec:
      region: eu-west-1
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata:
  name: aws-control-plane
  namespace: fleet
spec:
  template:
    spec:
      kubeadmConfigSpec: {}
"#;

const CLUSTER: &str = r#"apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: prod
  namespace: team-a
spec:
  topology:
    classRef:
      name: aws
      namespace: fleet
    version: v1.34.1
    controlPlane:
      replicas: 3
    variables:
    - name: bastion
      value: true
"#;

/// The template as stored: the webhook defaulted the bastion and the identity; an earlier file
/// set an SSH key. `{meta}` is more metadata (the provenance of the previous apply).
fn stored_template(api_version: &str, meta: &str) -> String {
    format!(
        r#"apiVersion: {api_version}
kind: AWSClusterTemplate
metadata:
  name: aws-cluster
  namespace: fleet
  uid: 5c0e2d4a-1111-4a6b-9c3d-7e8f9a0b1c2d
  resourceVersion: "4711"
{meta}spec:
  template:
    spec:
      region: eu-west-1
      sshKeyName: old-key
      bastion:
        enabled: false
        allowedCIDRBlocks:
        - 0.0.0.0/0
      identityRef:
        kind: AWSClusterControllerIdentity
        name: default
"#
    )
}

const V1BETA2: &str = "infrastructure.cluster.x-k8s.io/v1beta2";

/// The help of a missing path when the template was not passed as stored.
const HINT: &str = "the stored template may hold this field (a provider's defaulting webhook sets it): pass the template as stored with --current";

fn input() -> Test {
    Test::new()
        .file("in/class.yaml", CLASS)
        .file("in/templates.yaml", TEMPLATES)
        .file("in/cluster.yaml", CLUSTER)
}

/// Plan `in/` against `cur/` and return the spec of the AWSCluster it creates.
#[track_caller]
fn planned_aws_cluster(t: Test) -> Value {
    let out = t
        .args(["plan", "-f", "in", "--current", "cur", "-o", "json"])
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("plan document");
    let objects = doc["clusters"][0]["objects"].as_array().expect("objects");
    let aws: Vec<&Value> = objects
        .iter()
        .filter(|o| o["kind"] == "AWSCluster")
        .collect();
    assert_eq!(aws.len(), 1, "{}", out.stdout);
    assert_eq!(aws[0]["action"], "created");
    aws[0]["object"]["spec"].clone()
}

/// Offline, the file has no bastion to replace: the error says where the field would come from.
#[test]
fn defaulted_field_missing_offline() {
    input()
        .args(["plan", "-f", "in"])
        .status(1)
        .stderr_contains("topoplan::patch::missing-path")
        .stderr_contains(
            "replace operation does not apply: doc is missing path: /spec/template/spec/bastion/enabled",
        )
        .stderr_contains(&format!(
            "help: the patch targets AWSClusterTemplate fleet/aws-cluster (the template of InfrastructureCluster); {HINT}"
        ))
        .stderr_lacks("defaulting webhook (")
        .stdout("")
        .run();
}

/// The provider's components YAML in the input: its MutatingWebhookConfiguration intercepts
/// AWSClusterTemplate, and the help names it.
#[test]
fn defaulted_field_missing_names_the_webhook() {
    let components = r#"apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: capa-mutating-webhook-configuration
webhooks:
- name: default.awsmachinetemplate.infrastructure.cluster.x-k8s.io
  rules:
  - apiGroups: [infrastructure.cluster.x-k8s.io]
    apiVersions: [v1beta2]
    operations: [CREATE, UPDATE]
    resources: [awsmachinetemplates]
- name: default.awsclustertemplate.infrastructure.cluster.x-k8s.io
  rules:
  - apiGroups: [infrastructure.cluster.x-k8s.io]
    apiVersions: [v1beta2]
    operations: [CREATE, UPDATE]
    resources: [awsclustertemplates]
"#;
    input()
        .file("in/components.yaml", components)
        .args(["plan", "-f", "in"])
        .status(1)
        .stderr_contains(&format!(
            "{HINT}; AWSClusterTemplate has a defaulting webhook (\"default.awsclustertemplate.infrastructure.cluster.x-k8s.io\" in MutatingWebhookConfiguration capa-mutating-webhook-configuration)"
        ))
        .run();
}

/// With the template as stored in `--current`, the file is applied over it: the patch finds the
/// defaulted field, as in the cluster, and every field only the stored template has stays.
#[test]
fn stored_template_plans() {
    let spec =
        planned_aws_cluster(input().file("cur/template.yaml", &stored_template(V1BETA2, "")));
    assert_eq!(
        spec,
        serde_json::json!({
            "region": "eu-west-1",
            "sshKeyName": "old-key",
            "bastion": {"enabled": true, "allowedCIDRBlocks": ["0.0.0.0/0"]},
            "identityRef": {"kind": "AWSClusterControllerIdentity", "name": "default"},
        })
    );
}

/// What the previous apply set and the file no longer does is removed, whether kubectl's
/// last-applied annotation or the one server-side applier's managedFields tell it; webhook
/// defaults stay either way.
#[test]
fn fields_the_file_dropped_are_removed() {
    let last_applied = r#"  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta2","kind":"AWSClusterTemplate","metadata":{"name":"aws-cluster","namespace":"fleet"},"spec":{"template":{"spec":{"region":"eu-west-1","sshKeyName":"old-key"}}}}'
"#;
    let server_side = r#"  managedFields:
  - manager: kustomize-controller
    operation: Apply
    apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:template:
          f:spec:
            f:region: {}
            f:sshKeyName: {}
"#;
    for meta in [last_applied, server_side] {
        let spec =
            planned_aws_cluster(input().file("cur/template.yaml", &stored_template(V1BETA2, meta)));
        assert!(spec.get("sshKeyName").is_none(), "{meta}: {spec}");
        assert_eq!(spec["bastion"]["enabled"], true, "{meta}");
        assert_eq!(spec["identityRef"]["name"], "default", "{meta}");
    }
}

/// A ClusterClass is applied over its stored form too: a naming template only the stored class
/// has (set by hand in the cluster) is kept when nothing says the file owned it.
#[test]
fn stored_class_keeps_what_the_file_never_set() {
    let stored_class = CLASS.replace(
        "      name: aws-cluster\n",
        "      name: aws-cluster\n    naming:\n      template: \"{{ .cluster.name }}-edge-{{ .random }}\"\n",
    );
    let out = input()
        .file("cur/class.yaml", &stored_class)
        .file("cur/template.yaml", &stored_template(V1BETA2, ""))
        .args(["plan", "-f", "in", "--current", "cur"])
        .run();
    assert!(
        out.stdout.contains("AWSCluster           prod-edge-"),
        "{}",
        out.stdout
    );
}

/// A stored template that lacks the field as well: the help does not send the user back to
/// `--current`.
#[test]
fn stored_template_without_the_field() {
    let stored = stored_template(V1BETA2, "").replace(
        "      bastion:\n        enabled: false\n        allowedCIDRBlocks:\n        - 0.0.0.0/0\n",
        "",
    );
    input()
        .file("cur/template.yaml", &stored)
        .args(["plan", "-f", "in", "--current", "cur"])
        .status(1)
        .stderr_contains("topoplan::patch::missing-path")
        .stderr_contains(
            "(the template of InfrastructureCluster); the template as stored (--current) does not hold this field either",
        )
        .stderr_lacks(HINT)
        .run();
}

/// A template stored at another API version cannot be merged offline (the server would convert
/// it): a warning says so, and the file is planned as it is.
#[test]
fn stored_template_at_another_version() {
    input()
        .file(
            "cur/template.yaml",
            &stored_template("infrastructure.cluster.x-k8s.io/v1beta1", ""),
        )
        .args(["plan", "-f", "in", "--current", "cur"])
        .status(1)
        .stderr_contains("topoplan::current::not-applied")
        .stderr_contains(
            "AWSClusterTemplate fleet/aws-cluster is infrastructure.cluster.x-k8s.io/v1beta2 in the input and infrastructure.cluster.x-k8s.io/v1beta1 as stored",
        )
        .stderr_contains(HINT)
        .run();
}
