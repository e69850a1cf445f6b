//! ClusterClass patches end to end: the variables example (several inline patches, overrides,
//! enabledIf, templates), both quick-start API versions, and patch errors.

mod common;

use common::Test;

fn plan_yaml(fixture: &str) -> common::Output {
    Test::new()
        .fixture(fixture, "ex")
        .args(["plan", "-f", "ex", "--output", "yaml"])
        .run()
}

#[test]
fn variables_example() {
    let out = plan_yaml("testdata/examples/variables");
    insta::assert_snapshot!("variables_yaml", out.ok());
    assert!(!out.stderr.contains("skipped"), "{}", out.stderr);
}

#[test]
fn quick_start_v1beta2() {
    let out = plan_yaml("testdata/examples/quick-start");
    insta::assert_snapshot!("quick_start_yaml", out.ok());
    assert!(!out.stderr.contains("skipped"), "{}", out.stderr);
}

#[test]
fn quick_start_v1beta1() {
    let out = plan_yaml("testdata/examples/quick-start-v1beta1");
    insta::assert_snapshot!("quick_start_v1beta1_yaml", out.ok());
    assert!(!out.stderr.contains("skipped"), "{}", out.stderr);
}

/// The v1beta1 (Cluster API v1.10) quick start has no patches: add some for every kind of
/// template (the control plane's, a wildcard worker class, the InfrastructureCluster's, the
/// MachinePool's), with a variable, builtins and a template.
const V1BETA1_PATCHES: &str = r#"  variables:
  - name: imageRepository
    required: false
    schema:
      openAPIV3Schema:
        type: string
        default: registry.k8s.io
  patches:
  - name: imageRepository
    definitions:
    - selector:
        apiVersion: controlplane.cluster.x-k8s.io/v1beta1
        kind: KubeadmControlPlaneTemplate
        matchResources: {controlPlane: true}
      jsonPatches:
      - op: add
        path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository
        valueFrom: {variable: imageRepository}
  - name: images
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: DockerMachineTemplate
        matchResources:
          controlPlane: true
          machineDeploymentClass: {names: ["memory-*"]}
      jsonPatches:
      - op: add
        path: /spec/template/spec/customImage
        valueFrom:
          template: 'kindest/node:{{ if .builtin.machineDeployment }}{{ .builtin.machineDeployment.version }}-{{ .builtin.machineDeployment.class }}{{ else }}{{ .builtin.controlPlane.version }}-cp{{ end }}'
  - name: loadBalancer
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: DockerClusterTemplate
        matchResources: {infrastructureCluster: true}
      jsonPatches:
      - op: replace
        path: /spec/template/spec/loadBalancer
        value: {imageRepository: "registry.example.com/{{ not a template }}"}
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: DockerMachinePoolTemplate
        matchResources: {machinePoolClass: {names: ["*"]}}
      jsonPatches:
      - op: add
        path: /spec/template/spec/template/preLoadImages
        valueFrom: {template: '[{{ .builtin.machinePool.name | quote }}]'}
"#;

#[test]
fn quick_start_v1beta1_with_patches() {
    let dir = common::repo().join("testdata/examples/quick-start-v1beta1");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("fixture");
    let class = format!("{}{V1BETA1_PATCHES}", read("clusterclass.yaml"));
    let out = Test::new()
        .file("ex/clusterclass.yaml", &class)
        .file("ex/cluster.yaml", &read("cluster.yaml"))
        .file("ex/templates.yaml", &read("templates.yaml"))
        .args(["plan", "-f", "ex", "--output", "yaml"])
        .run();
    insta::assert_snapshot!("quick_start_v1beta1_patched_yaml", out.ok());
}

/// Replace the class's patches in the quick-start example with `patches` (YAML list items,
/// indented by two spaces under `patches:`).
fn with_patches(patches: &str) -> Test {
    let dir = common::repo().join("testdata/examples/quick-start");
    let class = std::fs::read_to_string(dir.join("clusterclass.yaml")).expect("class");
    let start = class.find("  patches:\n").expect("patches");
    let head = &class[..start];
    let tail = &class[start + "  patches:\n".len()..];
    // The patches are the class's last field.
    let rest_start = tail.find("\n---").map_or(tail.len(), |i| i + 1);
    let class = format!("{head}  patches:\n{patches}{}", &tail[rest_start..]);
    Test::new()
        .file("ex/clusterclass.yaml", &class)
        .file(
            "ex/cluster.yaml",
            &std::fs::read_to_string(dir.join("cluster.yaml")).expect("cluster"),
        )
        .file(
            "ex/templates.yaml",
            &std::fs::read_to_string(dir.join("templates.yaml")).expect("templates"),
        )
}

#[test]
fn patch_error_names_class_patch_and_template() {
    let out = with_patches(
        r#"  - name: broken
    definitions:
    - selector:
        apiVersion: controlplane.cluster.x-k8s.io/v1beta2
        kind: KubeadmControlPlaneTemplate
        matchResources:
          controlPlane: true
      jsonPatches:
      - op: replace
        path: /spec/template/spec/does/not/exist
        value: 1
"#,
    )
    .args(["plan", "-f", "ex"])
    .status(1)
    // No partial output.
    .stdout("")
    .run();
    insta::assert_snapshot!("error_apply", out.stderr);
}

#[test]
fn missing_variable_error() {
    let out = with_patches(
        r#"  - name: novar
    definitions:
    - selector:
        apiVersion: controlplane.cluster.x-k8s.io/v1beta2
        kind: KubeadmControlPlaneTemplate
        matchResources:
          controlPlane: true
      jsonPatches:
      - op: add
        path: /spec/template/spec/x
        valueFrom:
          variable: imageRepository.nested
"#,
    )
    .args(["plan", "-f", "ex"])
    .status(1)
    .run();
    insta::assert_snapshot!("error_variable", out.stderr);
}

#[test]
fn external_patch_needs_extension() {
    with_patches(
        r#"  - name: ext
    external:
      generatePatchesExtension: generate-patches.my-ext
"#,
    )
    .args(["plan", "-f", "ex"])
    .status(1)
    .stderr_contains(
        "ClusterClass fleet/docker-small: patch \"ext\" is external (generatePatchesExtension \"generate-patches.my-ext\"), and no Runtime extension \"my-ext\" was given",
    )
    .run();
}

/// Plan `patches` on the quick start and return the plan document's objects by role.
fn objects_by_role(patches: &str) -> std::collections::BTreeMap<String, serde_json::Value> {
    let out = with_patches(patches)
        .args(["plan", "-f", "ex", "--output", "json"])
        .run();
    let doc: serde_json::Value = serde_json::from_str(out.ok()).expect("plan JSON");
    let mut by_role = std::collections::BTreeMap::new();
    for o in doc["clusters"][0]["objects"].as_array().expect("objects") {
        by_role.insert(
            o["role"].as_str().unwrap_or("").to_string(),
            o["object"].clone(),
        );
    }
    by_role
}

#[test]
fn enabled_if_per_item_and_builtins() {
    let objs = objects_by_role(
        r#"  - name: perClass
    enabledIf: '{{ eq .builtin.machineDeployment.class "memory-heavy" }}'
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
        kind: DockerMachineTemplate
        matchResources:
          machineDeploymentClass: {names: ["*"]}
      jsonPatches:
      - op: add
        path: /spec/template/spec/customImage
        valueFrom:
          template: '{{ .builtin.machineDeployment.topologyName }}-{{ .builtin.cluster.name }}-{{ .imageRepository }}'
"#,
    );
    let image = |role: &str| {
        objs[role]
            .pointer("/spec/template/spec/customImage")
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(
        image("MachineDeployment/md-1/InfrastructureMachineTemplate"),
        "md-1-dev-registry.example.com"
    );
    assert_eq!(
        image("MachineDeployment/md-0/InfrastructureMachineTemplate"),
        "kindest/node:v1.34.1",
        "enabledIf is false for md-0's class"
    );
}

#[test]
fn template_metadata_is_written_back_with_preserved_fields() {
    let objs = objects_by_role(
        r#"  - name: meta
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
        kind: DockerClusterTemplate
        matchResources: {infrastructureCluster: true}
      jsonPatches:
      - op: add
        path: /spec/template/metadata
        value: {labels: {patched: "yes"}, annotations: {a: b}}
"#,
    );
    let infra = &objs["InfrastructureCluster"];
    assert_eq!(
        infra.pointer("/metadata/labels/patched"),
        Some(&serde_json::json!("yes"))
    );
    // Replaced wholesale, but the preserved labels and annotations come back.
    assert_eq!(
        infra.pointer("/metadata/labels/cluster.x-k8s.io~1cluster-name"),
        Some(&serde_json::json!("dev"))
    );
    assert_eq!(
        infra.pointer("/metadata/annotations/cluster.x-k8s.io~1cloned-from-name"),
        Some(&serde_json::json!("docker-small-cluster"))
    );
    assert_eq!(
        infra.pointer("/metadata/annotations/a"),
        Some(&serde_json::json!("b"))
    );
}

#[test]
fn patches_accumulate_in_order() {
    let objs = objects_by_role(
        r#"  - name: first
    definitions:
    - selector:
        apiVersion: controlplane.cluster.x-k8s.io/v1beta2
        kind: KubeadmControlPlaneTemplate
        matchResources: {controlPlane: true}
      jsonPatches:
      - op: add
        path: /spec/template/spec/kubeadmConfigSpec/files
        value: []
  - name: second
    definitions:
    - selector:
        apiVersion: controlplane.cluster.x-k8s.io/v1beta2
        kind: KubeadmControlPlaneTemplate
        matchResources: {controlPlane: true}
      jsonPatches:
      - op: add
        path: /spec/template/spec/kubeadmConfigSpec/files/-
        valueFrom:
          template: |
            path: /etc/replicas
            content: "{{ .builtin.controlPlane.replicas }}"
"#,
    );
    assert_eq!(
        objs["ControlPlane"].pointer("/spec/kubeadmConfigSpec/files"),
        Some(&serde_json::json!([{"path": "/etc/replicas", "content": "3"}]))
    );
    assert_eq!(
        objs["ControlPlane"].pointer("/spec/replicas"),
        Some(&serde_json::json!(3))
    );
}

#[test]
fn patch_without_generator() {
    with_patches(
        r#"  - name: validateOnly
    external:
      validateTopologyExtension: validate.my-ext
"#,
    )
    .args(["plan", "-f", "ex"])
    .status(1)
    .stderr_contains("failed to create patch generator for patch \"validateOnly\"")
    .run();
}

#[test]
fn explain_lists_applied_and_skipped_patches() {
    let out = with_patches(
        r#"  - name: perClass
    enabledIf: '{{ eq .builtin.machineDeployment.class "memory-heavy" }}'
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
        kind: DockerMachineTemplate
        matchResources:
          machineDeploymentClass: {names: ["*"]}
      jsonPatches:
      - op: add
        path: /spec/template/spec/customImage
        value: custom
"#,
    )
    .args(["plan", "-f", "ex", "--explain"])
    .run();
    insta::assert_snapshot!("explain", out.ok());
}

#[test]
fn v1beta1_external_patch_needs_extension() {
    let dir = common::repo().join("testdata/examples/quick-start-v1beta1");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("fixture");
    let class = format!(
        "{}  patches:\n  - name: ext\n    external:\n      generateExtension: generate-patches.my-ext\n",
        read("clusterclass.yaml")
    );
    let out = Test::new()
        .file("ex/clusterclass.yaml", &class)
        .file("ex/cluster.yaml", &read("cluster.yaml"))
        .file("ex/templates.yaml", &read("templates.yaml"))
        .args(["plan", "-f", "ex"])
        .status(1)
        .run();
    // Located at the v1beta1 field (generateExtension), named by its v1beta2 name.
    insta::assert_snapshot!("v1beta1_external_needs_extension", out.stderr);
}

#[test]
fn operation_outside_spec_template_is_refused() {
    // Admission accepts /spec/<anything>, but only spec.template survives the write-back.
    let out = with_patches(
        r#"  - name: lost
    definitions:
    - selector:
        apiVersion: controlplane.cluster.x-k8s.io/v1beta2
        kind: KubeadmControlPlaneTemplate
        matchResources: {controlPlane: true}
      jsonPatches:
      - op: add
        path: /spec/imageRepository
        value: registry.example.com
"#,
    )
    .args(["plan", "-f", "ex"])
    .status(1)
    .stdout("")
    .run();
    insta::assert_snapshot!("error_outside_template", out.stderr);
}
