//! `topoplan validate`: Cluster API's admission rules on our fixtures, each broken variant
//! rejected with Cluster API's message at the line that broke it.
//!
//! The variants mirror issue 4's list (missing required variable, wrong type, bad semver, unknown
//! MachineDeployment class, duplicate names, undeclared variable, `builtin` as a variable name,
//! patch path outside `/spec`, unsupported op, bad schema type, unparsable template) plus the
//! schema and CEL rules of the `variables` fixture. Messages are compared exactly; where they
//! embed Cluster API's formatting quirks, the comment says so.

mod common;

use common::Test;
use serde_json::Value;

const VARS: &str = "testdata/examples/variables";

/// Run `validate -o json` on the variables fixture with `file` changed by replacing `old` by
/// `new`, expecting exit code `status`; return the parsed document.
fn variant(file: &str, old: &str, new: &str, extra: &[&str], status: i32) -> Value {
    let t = Test::new().fixture(VARS, "in");
    let path = t.path().join("in").join(file);
    let text = std::fs::read_to_string(&path).expect("fixture file");
    assert!(text.contains(old), "{old:?} not found in {file}");
    std::fs::write(&path, text.replacen(old, new, 1)).expect("write variant");
    let out = t
        .args(["validate", "-f", "in", "-o", "json"])
        .args(extra.iter().copied())
        .status(status)
        .run();
    serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}\n{}", out.stdout, out.stderr))
}

/// The errors of a findings document as (file:line, message).
fn errors(doc: &Value) -> Vec<(String, String)> {
    doc["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["severity"] == "error")
        .map(|f| {
            (
                format!(
                    "{}:{}",
                    f["file"].as_str().unwrap_or("-"),
                    f["line"].as_u64().unwrap_or(0)
                ),
                f["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Assert exactly one error, with `message`, in `file` at the line of `anchor` (+ `delta`).
fn rejects(file: &str, old: &str, new: &str, anchor: &str, delta: i64, message: &str) {
    let doc = variant(file, old, new, &[], 1);
    assert_eq!(doc["valid"], false);
    let text = std::fs::read_to_string(common::repo().join(VARS).join(file))
        .expect("fixture")
        .replacen(old, new, 1);
    let at = text
        .find(anchor)
        .unwrap_or_else(|| panic!("anchor {anchor:?}"));
    let line = text[..at].matches('\n').count() as i64 + 1 + delta;
    assert_eq!(
        errors(&doc),
        vec![(format!("in/{file}:{line}"), message.to_string())],
        "{doc:#}"
    );
}

/// As [`rejects`], for a change the CRD's schema refuses before any webhook runs (Cluster API's
/// CRDs are built in): the schema's error, then — when the error blocks the CRD's CEL rules, as
/// an enum or type error does — the API server's note that some rules were not checked, at the
/// object.
fn rejects_at_schema(
    file: &str,
    old: &str,
    new: &str,
    anchor: &str,
    delta: i64,
    message: &str,
    blocks_cel: bool,
) {
    let doc = variant(file, old, new, &[], 1);
    assert_eq!(doc["valid"], false);
    let text = std::fs::read_to_string(common::repo().join(VARS).join(file))
        .expect("fixture")
        .replacen(old, new, 1);
    let at = text
        .find(anchor)
        .unwrap_or_else(|| panic!("anchor {anchor:?}"));
    let line = text[..at].matches('\n').count() as i64 + 1 + delta;
    let object = text[..text.find("kind: Cluster").unwrap_or(0)]
        .matches('\n')
        .count() as i64;
    let mut expected = vec![(format!("in/{file}:{line}"), message.to_string())];
    if blocks_cel {
        expected.push((
            format!("in/{file}:{object}"),
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation".to_string(),
        ));
    }
    assert_eq!(errors(&doc), expected, "{doc:#}");
    assert!(
        doc["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["severity"] == "error")
            .all(|f| f["code"] == "topoplan::schema::invalid"),
        "{doc:#}"
    );
}

#[test]
fn bundled_examples_are_valid() {
    for dir in [
        VARS,
        "testdata/examples/quick-start",
        "testdata/examples/quick-start-v1beta1",
    ] {
        Test::new()
            .fixture(dir, "in")
            .args(["validate", "-f", "in"])
            .stdout("")
            .stderr("")
            .run();
    }
}

#[test]
fn missing_required_variable() {
    rejects(
        "cluster.yaml",
        "    - name: region\n      value: eu-west-1\n",
        "",
        "    variables:\n    - name: httpProxy",
        0,
        "spec.topology.variables: Required value: required variable \"region\" must be set",
    );
}

#[test]
fn wrong_type() {
    // Cluster API replaces the bad value with the variable's whole JSON, then quotes it.
    rejects(
        "cluster.yaml",
        "    - name: region\n      value: eu-west-1\n",
        "    - name: region\n      value: eu-west-1\n    - name: cpu\n      value: \"4\"\n",
        "value: \"4\"",
        0,
        "spec.topology.variables[cpu].value: Invalid value: \"\\\"4\\\"\": must be of type integer: \"string\"",
    );
}

#[test]
fn enum_value() {
    rejects(
        "cluster.yaml",
        "value: eu-west-1",
        "value: mars",
        "value: mars",
        0,
        "spec.topology.variables[region].value: Unsupported value: \"\\\"mars\\\"\": supported values: \"eu-west-1\", \"us-east-1\"",
    );
}

#[test]
fn bad_semver() {
    rejects(
        "cluster.yaml",
        "version: v1.34.1",
        "version: v1.34",
        "version: v1.34",
        0,
        "spec.topology.version: Invalid value: \"v1.34\": version must be a valid semantic version",
    );
}

#[test]
fn unknown_machine_deployment_class() {
    rejects(
        "cluster.yaml",
        "class: memory-heavy",
        "class: gpu",
        "class: gpu",
        0,
        "spec.topology.workers.machineDeployments[1].class: Invalid value: \"gpu\": MachineDeploymentClass with name \"gpu\" does not exist in ClusterClass \"docker-vars\"",
    );
}

#[test]
fn duplicate_machine_deployment_names() {
    // The CRD's list-map (keyed by name) refuses it before the webhook's own check.
    rejects_at_schema(
        "cluster.yaml",
        "name: md-1",
        "name: md-0",
        "class: memory-heavy",
        0,
        "spec.topology.workers.machineDeployments[1]: Duplicate value: {\"name\":\"md-0\"}",
        false,
    );
}

#[test]
fn undeclared_variable() {
    rejects(
        "cluster.yaml",
        "    - name: workerLabels\n      value:\n        team: b\n",
        "    - name: colour\n      value: blue\n",
        "name: colour",
        0,
        "spec.topology.variables[colour]: Invalid value: \"\\\"blue\\\"\": variable is not defined",
    );
}

#[test]
fn builtin_as_a_variable_name() {
    rejects(
        "clusterclass.yaml",
        "  - name: cpu\n",
        "  - name: builtin\n",
        "name: builtin",
        0,
        "spec.variables[builtin].name: Invalid value: \"builtin\": \"builtin\" is a reserved variable name",
    );
}

#[test]
fn patch_path_outside_spec() {
    // The bad value is the patch as json.MarshalIndent prints it, %q-quoted.
    rejects(
        "clusterclass.yaml",
        "path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository",
        "path: /metadata/labels/image",
        "path: /metadata/labels/image",
        0,
        "spec.patches[0].definitions[0].jsonPatches[0].path: Invalid value: \"{\\n  \\\"op\\\": \\\"add\\\",\\n  \\\"path\\\": \\\"/metadata/labels/image\\\",\\n  \\\"valueFrom\\\": {\\n    \\\"variable\\\": \\\"imageRepository\\\"\\n  }\\n}\": jsonPatch path must start with \"/spec\"",
    );
}

#[test]
fn unsupported_op() {
    // The CRD's enum refuses it (in the CRD's order) before the webhook would.
    rejects_at_schema(
        "clusterclass.yaml",
        "      - op: add\n        path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/etcd",
        "      - op: copy\n        path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/etcd",
        "op: copy",
        0,
        "spec.patches[1].definitions[0].jsonPatches[0].op: Unsupported value: \"copy\": supported values: \"add\", \"replace\", \"remove\"",
        true,
    );
}

#[test]
fn bad_schema_type() {
    // The CRD's enum of schema types refuses it, at the list index, before the webhook would.
    rejects_at_schema(
        "clusterclass.yaml",
        "        type: array\n        maxItems: 3",
        "        type: list\n        maxItems: 3",
        "type: list",
        0,
        "spec.variables[6].schema.openAPIV3Schema.type: Unsupported value: \"list\": supported values: \"object\", \"array\", \"string\", \"integer\", \"number\", \"boolean\"",
        true,
    );
}

#[test]
fn unparsable_template() {
    rejects(
        "clusterclass.yaml",
        "imageTag: {{ .etcdVersion | replace \"+\" \"_\" }}-0",
        "imageTag: {{ .etcdVersion | replace \"+\" \"_\" -0",
        "            local:",
        0,
        "spec.patches[1].definitions[0].jsonPatches[0].valueFrom.template: Invalid value: \"local:\\n  imageTag: {{ .etcdVersion | replace \\\"+\\\" \\\"_\\\" -0\\n\": template can not be parsed: template: valueFrom.template:3: unclosed action started at valueFrom.template:2",
    );
}

#[test]
fn cel_message_expression() {
    rejects(
        "cluster.yaml",
        "    - name: region\n      value: eu-west-1\n",
        "    - name: region\n      value: eu-west-1\n    - name: etcdVersion\n      value: \"4.0.0\"\n",
        "value: \"4.0.0\"",
        0,
        "spec.topology.variables[etcdVersion].value: Invalid value: \"\\\"4.0.0\\\"\": etcd must be 3.x, got 4.0.0",
    );
}

#[test]
fn cel_field_path_and_reason() {
    rejects(
        "cluster.yaml",
        "        url: http://proxy.example.com:3128\n",
        "",
        "        enabled: true",
        0,
        "spec.topology.variables[httpProxy].value.url: Required value: url is required when the proxy is enabled",
    );
}

#[test]
fn unknown_field() {
    rejects(
        "cluster.yaml",
        "        enabled: true\n",
        "        enabled: true\n        port: 3128\n",
        "- name: httpProxy",
        0,
        "spec.topology.variables[httpProxy]: Invalid value: \"{\\\"enabled\\\":true,\\\"noProxy\\\":[\\\"10.0.0.0/8\\\",\\\".svc\\\"],\\\"port\\\":3128,\\\"url\\\":\\\"http://proxy.example.com:3128\\\"}\": failed validation: \"port\" field(s) are not specified in the variable schema of variable \"httpProxy\"",
    );
}

#[test]
fn machine_deployment_override() {
    rejects(
        "cluster.yaml",
        "            value: 16",
        "            value: 100",
        "value: 100",
        0,
        "spec.topology.workers.machineDeployments[md-1].variables.overrides[cpu].value: Invalid value: \"100\": should be less than or equal to 64",
    );
}

#[test]
fn list_items() {
    // kube-openapi names list elements `.[i]` and keeps the `<field> in body` prefix for
    // nested fields; Cluster API only strips it at the variable's root.
    rejects(
        "cluster.yaml",
        "      - device: /dev/sdb\n",
        "      - device: sdb\n",
        "device: sdb",
        0,
        "spec.topology.variables[extraDisks].value.[0].device: Invalid value: \"[{\\\"device\\\":\\\"sdb\\\",\\\"sizeGiB\\\":10}]\": [0].device in body should match '^/dev/'",
    );
}

#[test]
fn human_output_points_at_the_field() {
    let t = Test::new().fixture(VARS, "in");
    let path = t.path().join("in/cluster.yaml");
    let text = std::fs::read_to_string(&path).expect("fixture");
    std::fs::write(&path, text.replacen("value: eu-west-1", "value: mars", 1)).expect("write");
    let out = t.args(["validate", "-f", "in"]).status(1).run();
    insta::assert_snapshot!("enum_diagnostic", out.fails());
}

#[test]
fn defaulted_objects_as_yaml() {
    let out = Test::new()
        .fixture(VARS, "in")
        .args([
            "validate",
            "-f",
            "in/cluster.yaml",
            "-f",
            "in/clusterclass.yaml",
            "-o",
            "yaml",
        ])
        .run();
    let stdout = out.ok();
    let cluster = stdout
        .split("---\n")
        .find(|d| d.contains("kind: Cluster\n"))
        .unwrap_or_default();
    insta::assert_snapshot!("defaulted_cluster", cluster);
}

#[test]
fn plan_refuses_what_admission_rejects() {
    let t = Test::new().fixture(VARS, "in");
    let path = t.path().join("in/cluster.yaml");
    let text = std::fs::read_to_string(&path).expect("fixture");
    std::fs::write(
        &path,
        text.replacen("version: v1.34.1", "version: v1.34", 1),
    )
    .expect("write");
    t.args(["plan", "-f", "in"])
        .status(1)
        .stderr_contains("Cluster.cluster.x-k8s.io \"vars\" is invalid: spec.topology.version: Invalid value: \"v1.34\": version must be a valid semantic version")
        .stdout("")
        .run();
}

// ---- updates (--old) ----

/// Validate the fixture as an update of `old` (the fixture with `old_edit` applied) to `new`
/// (the fixture with `new_edit` applied), expecting exit code `status`; both edits are (file,
/// from, to).
fn update(old_edit: (&str, &str, &str), new_edit: (&str, &str, &str), status: i32) -> Value {
    let t = Test::new().fixture(VARS, "old").fixture(VARS, "new");
    for (dir, (file, from, to)) in [("old", old_edit), ("new", new_edit)] {
        let p = t.path().join(dir).join(file);
        let text = std::fs::read_to_string(&p).expect("fixture");
        assert!(text.contains(from), "{from:?}");
        std::fs::write(&p, text.replacen(from, to, 1)).expect("write");
    }
    let out = t
        .args(["validate", "-f", "new", "--old", "old", "-o", "json"])
        .status(status)
        .run();
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stderr))
}

fn messages(doc: &Value) -> Vec<String> {
    errors(doc).into_iter().map(|(_, m)| m).collect()
}

#[test]
fn update_without_changes_is_valid() {
    let doc = update(
        ("cluster.yaml", "md-0", "md-0"),
        ("cluster.yaml", "md-0", "md-0"),
        0,
    );
    assert_eq!(doc["valid"], true, "{doc:#}");
}

#[test]
fn version_cannot_decrease() {
    let doc = update(
        ("cluster.yaml", "version: v1.34.1", "version: v1.34.1"),
        ("cluster.yaml", "version: v1.34.1", "version: v1.33.2"),
        1,
    );
    assert_eq!(
        messages(&doc),
        vec![
            "spec.topology.version: Invalid value: \"v1.33.2\": version cannot be decreased from \"1.34.1\" to \"1.33.2\""
        ]
    );
}

#[test]
fn transition_rules_see_the_old_value() {
    let set = |v: &str| {
        format!(
            "    - name: region\n      value: eu-west-1\n    - name: controlPlaneReplicasFloor\n      value: {v}\n"
        )
    };
    let (old, new) = (set("3"), set("2"));
    let doc = update(
        (
            "cluster.yaml",
            "    - name: region\n      value: eu-west-1\n",
            &old,
        ),
        (
            "cluster.yaml",
            "    - name: region\n      value: eu-west-1\n",
            &new,
        ),
        1,
    );
    assert_eq!(
        messages(&doc),
        vec![
            "spec.topology.variables[controlPlaneReplicasFloor].value: Invalid value: \"2\": the floor cannot be lowered"
        ]
    );
    // On create there is no old value, and the rule does not run.
    variant(
        "cluster.yaml",
        "    - name: region\n      value: eu-west-1\n",
        &set("2"),
        &[],
        0,
    );
}

#[test]
fn class_changes_must_stay_compatible() {
    let doc = update(
        (
            "clusterclass.yaml",
            "kind: DockerClusterTemplate",
            "kind: DockerClusterTemplate",
        ),
        (
            "clusterclass.yaml",
            "kind: DockerClusterTemplate",
            "kind: OtherClusterTemplate",
        ),
        1,
    );
    assert!(
        messages(&doc).contains(
            &"spec.infrastructure.templateRef.kind: Forbidden: kind cannot be changed from \"DockerClusterTemplate\" to \"OtherClusterTemplate\" to prevent incompatible changes in the Clusters".to_string()
        ),
        "{doc:#}"
    );
}

#[test]
fn a_class_in_use_keeps_its_machine_deployment_classes() {
    let doc = update(
        (
            "clusterclass.yaml",
            "- class: memory-heavy",
            "- class: memory-heavy",
        ),
        (
            "clusterclass.yaml",
            "- class: memory-heavy",
            "- class: memory-light",
        ),
        1,
    );
    assert!(
        messages(&doc).contains(
            &"spec.workers.machineDeployments: Forbidden: MachineDeploymentClass \"memory-heavy\" cannot be deleted because it is used by Cluster \"vars\"".to_string()
        ),
        "{doc:#}"
    );
}

// ---- feature gates ----

#[test]
fn taints_need_their_feature_gate() {
    let taints = "  controlPlane:\n    taints:\n    - {key: example.com/dedicated, value: cp, effect: NoSchedule, propagation: Always}\n";
    let edit = ("clusterclass.yaml", "  controlPlane:\n", taints);
    let doc = variant(edit.0, edit.1, edit.2, &[], 1);
    assert!(
        messages(&doc)
            .iter()
            .any(|m| m.contains("spec.controlPlane.taints: Forbidden")),
        "{doc:#}"
    );
    variant(
        edit.0,
        edit.1,
        edit.2,
        &["--feature-gates", "MachineTaintPropagation=true"],
        0,
    );
}

#[test]
fn unknown_feature_gate() {
    Test::new()
        .fixture(VARS, "in")
        .args(["validate", "-f", "in", "--feature-gates", "Teleport=true"])
        .status(1)
        .stderr_contains("--feature-gates: unrecognized feature gate: Teleport")
        .run();
}

// ---- variables from extensions ----

const DISCOVERY_CLASS: &str = "apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: ext, namespace: ns}
spec:
  infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, name: c}}
  controlPlane: {templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: cp}}
  patches:
  - name: ext-patch
    external:
      generatePatchesExtension: generate.my-extension
      discoverVariablesExtension: discover.my-extension
---
apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: c1, namespace: ns}
spec:
  topology:
    classRef: {name: ext}
    version: v1.34.1
    controlPlane: {replicas: 1}
    variables:
    - {name: imageRepository, value: 42}
";

const DISCOVERY_RESPONSE: &str = "apiVersion: hooks.runtime.cluster.x-k8s.io/v1alpha1
kind: DiscoverVariablesResponse
status: Success
variables:
- name: imageRepository
  required: true
  schema:
    openAPIV3Schema: {type: string}
";

#[test]
fn discovered_variables_need_a_response() {
    Test::new()
        .file("class.yaml", DISCOVERY_CLASS)
        .args(["validate", "-f", "class.yaml"])
        .stderr_contains(
            "neither the extension nor a recorded DiscoverVariablesResponse was given",
        )
        .stderr_contains("Cluster refers to ClusterClass ns/ext, but this ClusterClass hasn't been successfully reconciled.")
        .run();
}

#[test]
fn discovered_variables_are_validated() {
    let out = Test::new()
        .file("class.yaml", DISCOVERY_CLASS)
        .file("response.yaml", DISCOVERY_RESPONSE)
        .args([
            "validate",
            "-f",
            "class.yaml",
            "-f",
            "response.yaml",
            "-o",
            "json",
        ])
        .status(1)
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap_or_default();
    assert_eq!(
        messages(&doc),
        vec![
            "spec.topology.variables[imageRepository].value: Invalid value: \"42\": must be of type string: \"integer\""
        ]
    );
}

// ---- the CRD's own schema ----

/// A CustomResourceDefinition for ClusterClass written for this test (not Cluster API's): just
/// the two enums the API server would check before the webhook.
const CLASS_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: clusterclasses.cluster.x-k8s.io}
spec:
  group: cluster.x-k8s.io
  names: {kind: ClusterClass}
  versions:
  - name: v1beta2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            properties:
              patches:
                type: array
                items:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                  properties:
                    definitions:
                      type: array
                      items:
                        type: object
                        x-kubernetes-preserve-unknown-fields: true
                        properties:
                          jsonPatches:
                            type: array
                            items:
                              type: object
                              x-kubernetes-preserve-unknown-fields: true
                              properties:
                                op: {type: string, enum: [add, replace, remove]}
";

#[test]
fn with_the_crd_its_schema_rejects_first() {
    // The API server checks the CRD's schema before any webhook: the enum's message (in the
    // CRD's order, at the list index) is what `kubectl apply` shows.
    let t = Test::new().fixture(VARS, "in").file("crd.yaml", CLASS_CRD);
    let p = t.path().join("in/clusterclass.yaml");
    let text = std::fs::read_to_string(&p).expect("fixture");
    std::fs::write(
        &p,
        text.replacen(
            "      - op: add\n        path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/etcd",
            "      - op: copy\n        path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/etcd",
            1,
        ),
    )
    .expect("write");
    let out = t
        .args(["validate", "-f", "in", "-f", "crd.yaml", "-o", "json"])
        .status(1)
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap_or_default();
    assert_eq!(
        messages(&doc),
        vec![
            "spec.patches[1].definitions[0].jsonPatches[0].op: Unsupported value: \"copy\": supported values: \"add\", \"replace\", \"remove\""
        ]
    );
    // And a valid class passes the CRD too.
    Test::new()
        .fixture(VARS, "in")
        .file("crd.yaml", CLASS_CRD)
        .args(["validate", "-f", "in", "-f", "crd.yaml"])
        .run();
}

// ---- v1beta1 input ----

#[test]
fn v1beta1_errors_point_at_the_v1beta1_fields() {
    // The rules read the v1beta2 form (`rollout.strategy`, `templateRef`); the diagnostics point
    // at the v1beta1 field the user wrote (`strategy`, `template.bootstrap.ref`).
    let t = Test::new().fixture("testdata/examples/quick-start-v1beta1", "in");
    let p = t.path().join("in/clusterclass.yaml");
    let text = std::fs::read_to_string(&p).expect("fixture");
    let text = text
        .replacen("          maxSurge: 1\n", "          maxSurge: 1x\n", 1)
        .replacen(
            "            kind: KubeadmConfigTemplate\n",
            "            kind: KubeadmConfig\n",
            1,
        );
    std::fs::write(&p, text).expect("write");
    let out = t.args(["validate", "-f", "in"]).status(1).run();
    insta::assert_snapshot!("v1beta1_locations", out.fails());
}

// ---- a Cluster without a spec (issue 17) ----

/// A Cluster `c1` in namespace `ns` written in `version` with the `spec` line given.
fn bare_cluster(version: &str, spec: &str) -> String {
    format!(
        "apiVersion: cluster.x-k8s.io/{version}\nkind: Cluster\nmetadata:\n  name: c1\n  namespace: ns\n{spec}\n"
    )
}

/// A CRD for Cluster v1beta2 whose schema constrains nothing (replacing the built-in one), so
/// that a `null` spec reaches Cluster API's webhook.
const LOOSE_CLUSTER_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: clusters.cluster.x-k8s.io}
spec:
  group: cluster.x-k8s.io
  names: {kind: Cluster, plural: clusters}
  scope: Namespaced
  versions:
  - name: v1beta2
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
";

const ONE_OF: &str = "spec: Forbidden: one of spec.controlPlaneRef, spec.infrastructureRef or spec.topology must be set";

fn validate_json(t: common::Test, status: i32) -> Value {
    let out = t.status(status).run();
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stderr))
}

/// Cluster API's `Cluster.validate`: a `null` spec is Go's zero ClusterSpec, refused by the
/// webhook (not a decoding error), located at the spec.
#[test]
fn a_null_spec_gets_the_webhooks_message() {
    for version in ["v1beta1", "v1beta2"] {
        let mut t = Test::new().file("in/c.yaml", &bare_cluster(version, "spec: null"));
        let mut args = vec!["validate", "-f", "in", "-o", "json"];
        if version == "v1beta2" {
            // The built-in v1beta2 schema requires a spec (see below); without it, the webhook
            // is what refuses the Cluster.
            t = t.file("crds/cluster.yaml", LOOSE_CLUSTER_CRD);
            args.extend(["--crds", "crds"]);
        }
        let doc = validate_json(t.args(args), 1);
        assert_eq!(
            errors(&doc),
            vec![("in/c.yaml:6".to_string(), ONE_OF.to_string())],
            "{version}: {doc:#}"
        );
    }
}

/// The API server's schema stage runs before the webhook: Cluster API's v1beta2 CRD requires
/// `spec` (a `null` is dropped first, as a non-nullable field without default) and gives it
/// `minProperties: 1`, so the webhook never sees an empty v1beta2 spec.
#[test]
fn an_empty_v1beta2_spec_is_refused_by_the_schema_first() {
    let doc = validate_json(
        Test::new()
            .file("in/c.yaml", &bare_cluster("v1beta2", "spec: {}"))
            .args(["validate", "-f", "in", "-o", "json"]),
        1,
    );
    assert_eq!(
        messages(&doc),
        vec!["spec: Invalid value: 0: spec in body should have at least 1 properties"],
        "{doc:#}"
    );
    let doc = validate_json(
        Test::new()
            .file("in/c.yaml", &bare_cluster("v1beta2", "spec: null"))
            .args(["validate", "-f", "in", "-o", "json"]),
        1,
    );
    assert_eq!(
        messages(&doc).first().map(String::as_str),
        Some("spec: Required value"),
        "{doc:#}"
    );
    assert!(!messages(&doc).iter().any(|m| m == ONE_OF), "{doc:#}");
}

/// On update, references the new spec drops "cannot be removed", around the "one of" error, in
/// the order of Cluster API's `Cluster.validate`.
#[test]
fn removing_both_references_is_refused_in_the_webhooks_order() {
    let old = "spec:\n  infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerCluster, name: c1, namespace: ns}\n  controlPlaneRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta1, kind: KubeadmControlPlane, name: c1, namespace: ns}";
    for spec in ["spec: null", "spec: {}"] {
        let doc = validate_json(
            Test::new()
                .file("old/c.yaml", &bare_cluster("v1beta1", old))
                .file("new/c.yaml", &bare_cluster("v1beta1", spec))
                .args(["validate", "-f", "new", "--old", "old", "-o", "json"]),
            1,
        );
        assert_eq!(
            messages(&doc),
            vec![
                "spec.infrastructureRef: Forbidden: cannot be removed",
                ONE_OF,
                "spec.controlPlaneRef: Forbidden: cannot be removed",
            ],
            "{spec}: {doc:#}"
        );
    }
    // Dropping one of the two leaves the spec valid but the removal refused.
    let only_infra = "spec:\n  infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerCluster, name: c1, namespace: ns}";
    let doc = validate_json(
        Test::new()
            .file("old/c.yaml", &bare_cluster("v1beta1", old))
            .file("new/c.yaml", &bare_cluster("v1beta1", only_infra))
            .args(["validate", "-f", "new", "--old", "old", "-o", "json"]),
        1,
    );
    assert_eq!(
        messages(&doc),
        vec!["spec.controlPlaneRef: Forbidden: cannot be removed"],
        "{doc:#}"
    );
}

/// `--current` applies the input over the stored objects, as `plan --current` does: the
/// references the controller set are kept when the file (say, from git) never had them, and the
/// Cluster passes; `--old` replaces the stored Cluster whole, which removes them.
#[test]
fn current_applies_the_input_and_old_replaces_the_stored_cluster() {
    let stored = "spec:\n  infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerCluster, name: c1, namespace: ns}\n  controlPlaneRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta1, kind: KubeadmControlPlane, name: c1, namespace: ns}\n  paused: true";
    let given = bare_cluster("v1beta1", "spec:\n  paused: false");
    let out = Test::new()
        .file("cur/c.yaml", &bare_cluster("v1beta1", stored))
        .file("new/c.yaml", &given)
        .args(["validate", "-f", "new", "--current", "cur", "-o", "yaml"])
        .status(0)
        .stderr_lacks("cannot be removed")
        .run();
    // What the API server would store: the file's change, over the stored references.
    assert!(
        out.stdout.contains("kind: KubeadmControlPlane"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("paused: false"), "{}", out.stdout);
    let doc = validate_json(
        Test::new()
            .file("cur/c.yaml", &bare_cluster("v1beta1", stored))
            .file("new/c.yaml", &given)
            .args(["validate", "-f", "new", "--old", "cur", "-o", "json"]),
        1,
    );
    assert!(
        messages(&doc)
            .iter()
            .any(|m| m == "spec.controlPlaneRef: Forbidden: cannot be removed"),
        "{doc:#}"
    );
    Test::new()
        .file("cur/c.yaml", &bare_cluster("v1beta1", stored))
        .file("new/c.yaml", &given)
        .args(["validate", "-f", "new", "--old", "cur", "--current", "cur"])
        .status(1)
        .stderr_contains("cannot be used with")
        .run();
}

// ---- version downgrades with pre-releases (issue 17) ----

/// Cluster API main's `validateTopologyVersionUpdate` compares with `WithoutPreReleases()`: a
/// lower `MAJOR.MINOR.PATCH` is a decrease whatever the pre-release, quoted as blang prints it.
#[test]
fn a_lower_version_with_pre_releases_is_a_decrease() {
    let doc = update(
        ("cluster.yaml", "version: v1.34.1", "version: v1.34.1-xyz.2"),
        ("cluster.yaml", "version: v1.34.1", "version: v1.33.9-xyz.3"),
        1,
    );
    assert_eq!(
        messages(&doc),
        vec![
            "spec.topology.version: Invalid value: \"v1.33.9-xyz.3\": version cannot be decreased from \"1.34.1-xyz.2\" to \"1.33.9-xyz.3\""
        ]
    );
}

/// Within one `MAJOR.MINOR.PATCH`, main's comparison sees no decrease (`v1.2.3-xyz.2` →
/// `v1.2.3-xyz.1`); Cluster API refuses that change only when the live control plane is not at
/// the old version or is still rolling out, which `validate` sees only in `--current` objects
/// (here only the Cluster is stored).
#[test]
fn a_pre_release_change_within_one_version_is_not_a_decrease() {
    let doc = update(
        ("cluster.yaml", "version: v1.34.1", "version: v1.34.1-xyz.2"),
        ("cluster.yaml", "version: v1.34.1", "version: v1.34.1-xyz.1"),
        0,
    );
    assert_eq!(doc["valid"], true, "{doc:#}");
}

/// A version change of a v1beta1 Cluster, as Cluster API v1.10's webhook decides it: the stored
/// Cluster at `old`, the input at `new` (the v1beta1 quick-start).
fn v1beta1_version_change(old: &str, new: &str, annotation: Option<&str>, status: i32) -> Value {
    const QS1: &str = "testdata/examples/quick-start-v1beta1";
    let t = Test::new().fixture(QS1, "old").fixture(QS1, "new");
    for (dir, version) in [("old", old), ("new", new)] {
        let p = t.path().join(dir).join("cluster.yaml");
        let mut text = std::fs::read_to_string(&p).expect("fixture").replacen(
            "version: v1.34.1",
            &format!("version: {version}"),
            1,
        );
        if let (Some(a), "new") = (annotation, dir) {
            text = text.replacen(
                "metadata:\n",
                &format!("metadata:\n  annotations: {{{a}}}\n"),
                1,
            );
        }
        std::fs::write(&p, text).expect("write");
    }
    let out = t
        .args(["validate", "-f", "new", "--old", "old", "-o", "json"])
        .status(status)
        .run();
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stderr))
}

/// Cluster API v1.10's `validateTopologyVersion` (release-1.10 `internal/webhooks/cluster.go`)
/// compares with `version.WithBuildTags()`, pre-releases included: within one
/// `MAJOR.MINOR.PATCH` a lower pre-release is a decrease (main lets it through); equal numeric
/// build identifiers are no change; the ceiling compares with pre-releases (`v1.36.0-rc.1` is
/// below `v1.36.0`); and there is no AfterClusterUpgrade hook check.
#[test]
fn v1beta1_clusters_compare_versions_as_cluster_api_v1_10() {
    let decrease = "spec.topology.version: Invalid value: \"v1.34.1-xyz.1\": version cannot be decreased from \"1.34.1-xyz.2\" to \"1.34.1-xyz.1\"";
    assert_eq!(
        messages(&v1beta1_version_change(
            "v1.34.1-xyz.2",
            "v1.34.1-xyz.1",
            None,
            1
        )),
        vec![decrease]
    );
    // `+01` and `+1` are the same build number: nothing changed, nothing to check.
    let doc = v1beta1_version_change("v1.34.1+01", "v1.34.1+1", None, 0);
    assert_eq!(doc["valid"], true, "{doc:#}");
    // Two minors up, but as a pre-release of the ceiling: below it for v1.10.
    let doc = v1beta1_version_change("v1.34.1", "v1.36.0-rc.1", None, 0);
    assert_eq!(doc["valid"], true, "{doc:#}");
    assert_eq!(
        messages(&v1beta1_version_change("v1.34.1", "v1.36.0", None, 1)),
        vec![
            "spec.topology.version: Invalid value: \"v1.36.0\": version cannot be increased from \"1.34.1\" to \"1.36.0\""
        ]
    );
    // v1.10 has no lifecycle-hook check on the version.
    let doc = v1beta1_version_change(
        "v1.34.1",
        "v1.34.2",
        Some("runtime.cluster.x-k8s.io/pending-hooks: AfterClusterUpgrade"),
        0,
    );
    assert_eq!(doc["valid"], true, "{doc:#}");
}

// ---- issue 17: CEL that does not compile, definitionFrom ----

#[test]
fn cel_rule_that_does_not_compile() {
    // Cluster API's validateSchema with apiextensions' cel.Compile: the value is the internal
    // ValidationRule as json.Marshal writes it (Go field names in declaration order; `Reason`
    // is the CRD's default, FieldValueInvalid, by the time the webhook sees it), the detail
    // cel-go's error with its caret lines. The variable has no default: with one, Cluster API's
    // ValidateDefaults runs the rules first and reports the compile error at `.default`.
    rejects(
        "clusterclass.yaml",
        "        enum: [\"eu-west-1\", \"us-east-1\"]\n",
        "        enum: [\"eu-west-1\", \"us-east-1\"]\n        x-kubernetes-validations:\n        - rule: this does not compile\n",
        "- rule: this does not compile",
        0,
        "spec.variables[region].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"this does not compile\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":\"FieldValueInvalid\",\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:6: Syntax error: mismatched input 'does' expecting <EOF>\n | this does not compile\n | .....^",
    );
}

#[test]
fn cel_message_expression_that_does_not_compile() {
    rejects(
        "clusterclass.yaml",
        "          message: maxSurge must be a non-negative integer or a percentage\n",
        "          messageExpression: \"'got ' + this does not compile\"\n",
        "messageExpression:",
        0,
        "spec.variables[maxSurge].schema.openAPIV3Schema.x-kubernetes-validations[0].messageExpression: Invalid value: {\"Rule\":\"type(self) == int ? self \\u003e= 0 : self.endsWith('%')\",\"Message\":\"\",\"MessageExpression\":\"'got ' + this does not compile\",\"Reason\":\"FieldValueInvalid\",\"FieldPath\":\"\",\"OptionalOldSelf\":null}: messageExpression compilation failed: ERROR: <input>:1:15: Syntax error: mismatched input 'does' expecting <EOF>\n | 'got ' + this does not compile\n | ..............^",
    );
}

/// Cluster API v1.10 (what topoplan follows for v1beta1) refused a variable value with the
/// deprecated `definitionFrom` (v1.10.10 `newValuesIndex`), on the Cluster and on worker
/// overrides, on create and on update.
#[test]
fn definition_from_is_refused_on_v1beta1_clusters() {
    let with_definition_from = |t: &Test| {
        let p = t.path().join("in/cluster.yaml");
        let text = std::fs::read_to_string(&p).expect("fixture");
        let text = text
            .replacen(
                "    version: v1.34.1\n",
                "    version: v1.34.1\n    variables:\n    - name: cpu\n      definitionFrom: inline\n      value: 2\n",
                1,
            )
            .replacen(
                "        name: md-0\n",
                "        name: md-0\n        variables:\n          overrides:\n          - name: cpu\n            definitionFrom: inline\n            value: 4\n",
                1,
            );
        std::fs::write(&p, text).expect("write");
    };
    let msg = "has DefinitionFrom set. DefinitionFrom is deprecated, must not be set anymore and is going to be removed in the next apiVersion";
    let top = format!("spec.topology.variables[cpu]: Invalid value: \"2\": variable \"cpu\" {msg}");
    let md = format!(
        "spec.topology.workers.machineDeployments[md-0].variables.overrides[cpu]: Invalid value: \"4\": variable \"cpu\" {msg}"
    );
    // Create.
    let t = Test::new().fixture("testdata/examples/quick-start-v1beta1", "in");
    with_definition_from(&t);
    let out = t
        .args(["validate", "-f", "in", "-o", "json"])
        .status(1)
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("json");
    let got: Vec<String> = errors(&doc).into_iter().map(|(_, m)| m).collect();
    // Defaulting and validation both report each (Go's error aggregate shows one of each).
    assert_eq!(got, vec![top.clone(), md.clone()], "{doc:#}");
    // Update: the old Cluster without it, the new one with it.
    let t = Test::new()
        .fixture("testdata/examples/quick-start-v1beta1", "old")
        .fixture("testdata/examples/quick-start-v1beta1", "in");
    with_definition_from(&t);
    let out = t
        .args(["validate", "-f", "in", "--old", "old", "-o", "json"])
        .status(1)
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("json");
    let got: Vec<String> = errors(&doc).into_iter().map(|(_, m)| m).collect();
    assert_eq!(got, vec![top, md], "{doc:#}");
    // Without its class the mutating webhook lets the Cluster through and v1.10's validating
    // webhook refuses it (`validateTopologyDefinitionFrom`), with a shorter message.
    let t = Test::new().fixture("testdata/examples/quick-start-v1beta1", "in");
    with_definition_from(&t);
    std::fs::remove_file(t.path().join("in/clusterclass.yaml")).expect("remove class");
    let out = t
        .args(["validate", "-f", "in", "-o", "json"])
        .status(1)
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(
        messages(&doc),
        vec![
            "spec.topology.variables[cpu]: Invalid value: \"2\": variable \"cpu\" has DefinitionFrom set",
            "spec.topology.workers.machineDeployments[md-0].variables.overrides[cpu]: Invalid value: \"4\": variable \"cpu\" has DefinitionFrom set",
        ],
        "{doc:#}"
    );
    // A v1beta2 Cluster has no such field: the built-in CRD prunes it, nothing is refused.
    let doc = variant(
        "cluster.yaml",
        "    - name: region\n      value: eu-west-1\n",
        "    - name: region\n      definitionFrom: inline\n      value: eu-west-1\n",
        &[],
        0,
    );
    assert!(messages(&doc).is_empty(), "{doc:#}");
}

// ---- version changes while the previous one rolls out (issue 17) ----

const QUICK_START: &str = "testdata/examples/quick-start";
const KCP: &str = "cur/KubeadmControlPlane_team-a_dev-s6cjd.yaml";
const MP: &str = "cur/MachinePool_team-a_dev-mp-0-xgscx.yaml";
const STORED_CLUSTER: &str = "cur/Cluster_team-a_dev.yaml";

/// The quick-start Cluster bumped from v1.34.1 to v1.35.0 against its state after the first
/// reconcile (`cur/`, testdata/current/base) with the `overlays` of testdata/current over it and
/// each `(file, from, to)` edit applied. The input (`in/`) is the quick-start with its Cluster
/// as exported from `cur/` and edited: `validate` compares the input Cluster whole with the
/// stored one, so it carries the references the controller set.
fn bumped(overlays: &[&str], edits: &[(&str, &str, &str)]) -> Test {
    let mut t = Test::new()
        .fixture(QUICK_START, "in")
        .fixture("testdata/current/base", "cur");
    for o in overlays {
        t = t.fixture(&format!("testdata/current/{o}"), "cur");
    }
    let stored =
        std::fs::read_to_string(t.path().join(STORED_CLUSTER)).expect("stored Cluster fixture");
    t = t.file("in/cluster.yaml", &stored);
    for (file, from, to) in [("in/cluster.yaml", "version: v1.34.1", "version: v1.35.0")]
        .iter()
        .chain(edits)
    {
        let p = t.path().join(file);
        let text = std::fs::read_to_string(&p).expect("fixture");
        assert_eq!(text.matches(from).count(), 1, "{from:?} in {file}");
        std::fs::write(&p, text.replacen(from, to, 1)).expect("write");
    }
    t
}

/// `validate -f in --current cur -o json` (or with `flag` for `--current`).
fn validate_current(t: Test, flag: &str, status: i32) -> Value {
    validate_json(
        t.args(["validate", "-f", "in", flag, "cur", "-o", "json"]),
        status,
    )
}

/// Cluster API's message for the bumped Cluster, refused for `reasons`, at the version's line.
fn refused(reasons: &str) -> Vec<(String, String)> {
    let stored = std::fs::read_to_string(
        common::repo().join("testdata/current/base/Cluster_team-a_dev.yaml"),
    )
    .expect("stored Cluster fixture");
    let line = stored
        .lines()
        .position(|l| l.trim() == "version: v1.34.1")
        .expect("version line")
        + 1;
    vec![(
        format!("in/cluster.yaml:{line}"),
        format!(
            "spec.topology.version: Invalid value: \"v1.35.0\": version cannot be changed: {reasons}"
        ),
    )]
}

/// `validateTopologyControlPlaneVersion`: each reason the stored ControlPlane gives, one at a
/// time (the workers are at v1.34.1 and roll nothing out).
#[test]
fn the_control_plane_must_have_finished_the_previous_version() {
    // No status.version yet: still provisioning (`IsProvisioning`).
    let doc = validate_current(bumped(&[], &[]), "--current", 1);
    assert_eq!(
        errors(&doc),
        refused("control plane is currently provisioning"),
        "{doc:#}"
    );
    // spec.version at the stored topology version, status.version behind it (`IsUpgrading`).
    let doc = validate_current(
        bumped(
            &["stable-cp"],
            &[(
                KCP,
                "status:\n  version: v1.34.1",
                "status:\n  version: v1.33.4",
            )],
        ),
        "--current",
        1,
    );
    assert_eq!(
        errors(&doc),
        refused("control plane is still completing a previous upgrade"),
        "{doc:#}"
    );
    // spec.version not yet the stored topology version (printed as blang prints it).
    let doc = validate_current(
        bumped(
            &["stable-cp"],
            &[(
                KCP,
                "  version: v1.34.1\nstatus",
                "  version: v1.33.4\nstatus",
            )],
        ),
        "--current",
        1,
    );
    assert_eq!(
        errors(&doc),
        refused(
            "Cluster.spec.topology.version 1.34.1 was not propagated to control plane yet (control plane version 1.33.4)"
        ),
        "{doc:#}"
    );
    // Done: the bump is admitted.
    let doc = validate_current(bumped(&["stable-cp"], &[]), "--current", 0);
    assert_eq!(doc["valid"], true, "{doc:#}");
}

/// `validateTopologyMachineDeploymentVersions` (a Machine of md-1's selector still at the old
/// version) and `validateTopologyMachinePoolVersions` (a Node of mp-0 whose kubelet is behind).
#[test]
fn workers_must_have_finished_the_previous_version() {
    let doc = validate_current(bumped(&["stable-cp", "md-upgrading"], &[]), "--current", 1);
    assert_eq!(
        errors(&doc),
        refused(
            "there are still MachineDeployments completing a previous upgrade: [dev-mem-md-1-4xkpv]"
        ),
        "{doc:#}"
    );
    let node = "apiVersion: v1\nkind: Node\nmetadata: {name: mp-node-1}\nstatus: {nodeInfo: {kubeletVersion: v1.33.4}}\n";
    let pool = bumped(
        &["stable-cp"],
        &[(
            MP,
            "      version: v1.34.1\n",
            "      version: v1.34.1\nstatus:\n  nodeRefs:\n  - {apiVersion: v1, kind: Node, name: mp-node-1}\n",
        )],
    );
    let doc = validate_current(pool.file("cur/node.yaml", node), "--current", 1);
    assert_eq!(
        errors(&doc),
        refused("there are still MachinePools completing a previous upgrade: [dev-mp-0-xgscx]"),
        "{doc:#}"
    );
    // The same pool without its Node among the stored objects: nothing to read, nothing refused.
    let pool = bumped(
        &["stable-cp"],
        &[(
            MP,
            "      version: v1.34.1\n",
            "      version: v1.34.1\nstatus:\n  nodeRefs:\n  - {apiVersion: v1, kind: Node, name: mp-node-1}\n",
        )],
    );
    let doc = validate_current(pool, "--current", 0);
    assert_eq!(doc["valid"], true, "{doc:#}");
}

/// Several reasons are one error, aggregated as `kerrors.NewAggregate` prints them; `--old`, the
/// flag's former name, still works.
#[test]
fn every_reason_in_one_message_and_old_is_an_alias() {
    let reasons = "[control plane is still completing a previous upgrade, \
         there are still MachineDeployments completing a previous upgrade: [dev-md-0-p7p2x, dev-mem-md-1-4xkpv], \
         there are still MachinePools completing a previous upgrade: [dev-mp-0-xgscx]]";
    for flag in ["--current", "--old"] {
        let doc = validate_current(bumped(&["cp-upgrading"], &[]), flag, 1);
        assert_eq!(errors(&doc), refused(reasons), "{flag}: {doc:#}");
    }
}

/// Without current objects there is nothing to read: a create is not refused, and neither is an
/// update whose stored objects hold only the Cluster.
#[test]
fn without_current_objects_nothing_is_refused() {
    let doc = validate_json(
        bumped(&["cp-upgrading"], &[]).args(["validate", "-f", "in", "-o", "json"]),
        0,
    );
    assert_eq!(doc["valid"], true, "{doc:#}");
    let doc = validate_json(
        bumped(&[], &[]).args([
            "validate",
            "-f",
            "in",
            "-o",
            "json",
            "--current",
            STORED_CLUSTER,
        ]),
        0,
    );
    assert_eq!(doc["valid"], true, "{doc:#}");
}

/// The unsafe version-check annotation skips this rule with the other version rules, with
/// Cluster API's warning.
#[test]
fn the_unsafe_annotation_skips_the_rollout_checks() {
    let t = bumped(
        &["cp-upgrading"],
        &[(
            "in/cluster.yaml",
            "  namespace: team-a\n",
            "  namespace: team-a\n  annotations:\n    unsafe.topology.cluster.x-k8s.io/disable-update-version-check: \"\"\n",
        )],
    );
    let doc = validate_current(t, "--current", 0);
    assert_eq!(doc["valid"], true, "{doc:#}");
    let warnings: Vec<&str> = doc["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["severity"] == "warning")
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert_eq!(
        warnings,
        [
            "Skipping version validation for Cluster because annotation \"unsafe.topology.cluster.x-k8s.io/disable-update-version-check\" is set."
        ],
        "{doc:#}"
    );
}

/// `--current -` reads the stored objects from stdin, as `plan --current -` does.
#[test]
fn current_objects_from_stdin() {
    let t = bumped(&["cp-upgrading"], &[]);
    let mut stream = String::new();
    for f in [
        "Cluster_team-a_dev.yaml",
        "KubeadmControlPlane_team-a_dev-s6cjd.yaml",
    ] {
        stream.push_str("---\n");
        stream.push_str(&std::fs::read_to_string(t.path().join("cur").join(f)).expect("fixture"));
    }
    let doc = validate_json(
        t.stdin(&stream)
            .args(["validate", "-f", "in", "--current", "-", "-o", "json"]),
        1,
    );
    assert_eq!(
        errors(&doc),
        refused("control plane is still completing a previous upgrade"),
        "{doc:#}"
    );
}

/// stdin can be read once: `-f -` with `--current -` is a usage error, not stored objects
/// silently missing (for `plan` as for `validate`).
#[test]
fn input_and_current_objects_cannot_both_come_from_stdin() {
    for command in ["validate", "plan"] {
        Test::new()
            .stdin("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
            .args([command, "-f", "-", "--current", "-"])
            .status(1)
            .stderr_contains("-f - and --current - both read stdin")
            .run();
    }
}
