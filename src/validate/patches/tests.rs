//! Table tests for the patch rules, one valid and one invalid case per rule at least
//! (cases modelled on Cluster API's `patch_validation_test.go`).

use super::*;
use crate::api::ApiVersion;
use crate::validate::testutil::{class, class_with, msgs};

/// A class with one MD class, one MP class, CP machine infrastructure, a variable
/// `variableName`, and `patches` from the given YAML list.
fn with_patches(patches: &str) -> ClusterClass {
    class_with(&format!(
        "
controlPlane:
  machineInfrastructure: {{templateRef: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: cpm}}}}
workers:
  machineDeployments:
  - class: aa-md
    bootstrap: {{templateRef: {{apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}}}
    infrastructure: {{templateRef: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: i}}}}
  machinePools:
  - class: bb-mp
    bootstrap: {{templateRef: {{apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}}}
    infrastructure: {{templateRef: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachinePoolTemplate, name: i}}}}
variables:
- name: variableName
  required: true
  schema: {{openAPIV3Schema: {{type: string}}}}
patches: {patches}
"
    ))
}

fn check(patches: &str) -> Vec<String> {
    msgs(&validate(&with_patches(patches), true))
}

/// A patch with one definition selecting the infrastructure cluster and the given JSON patch.
fn jp(json_patch: &str) -> String {
    format!(
        "[{{name: p1, definitions: [{{selector: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {{infrastructureCluster: true}}}}, jsonPatches: [{json_patch}]}}]}}]"
    )
}

/// A patch whose selector is `selector` and JSON patch is valid.
fn sel(selector: &str) -> String {
    format!(
        "[{{name: p1, definitions: [{{selector: {selector}, jsonPatches: [{{op: add, path: /spec/x, value: 1}}]}}]}}]"
    )
}

const NONE: &[&str] = &[];

#[test]
fn valid_patches_pass() {
    let ok = "
- name: p1
  enabledIf: '{{ if eq .variableName \"x\" }}true{{ end }}'
  definitions:
  - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
    jsonPatches:
    - {op: add, path: /spec/template/spec/a/0, value: {x: 1}}
    - {op: replace, path: /spec/template/spec/b, valueFrom: {variable: variableName}}
    - {op: add, path: /spec/template/spec/c, valueFrom: {variable: 'variableName.nested[0]'}}
    - {op: add, path: /spec/template/spec/d, valueFrom: {variable: builtin.cluster.name}}
    - {op: add, path: /spec/template/spec/e, valueFrom: {template: '{{ .builtin.cluster.name | upper }}'}}
    - {op: remove, path: /spec/template/spec/f}
    - {op: add, path: /spec/template/spec/g, value: null, valueFrom: {variable: builtin.machinePool.class}}
- name: p2
  external: {generatePatchesExtension: gen, validateTopologyExtension: val}
";
    assert_eq!(check(ok), NONE);
}

#[test]
fn names() {
    assert_eq!(
        check(
            "[{definitions: []}, {name: inline, definitions: []}, {name: a, definitions: []}, {name: a, definitions: []}]"
        ),
        [
            "spec.patches[0].name: Required value: patch name must be defined",
            "spec.patches[1].name: Required value: \"inline\" can not be used as the name of a patch",
            "spec.patches[3].name: Invalid value: \"a\": patch names must be unique. Patch with name \"a\" is defined more than once",
        ]
    );
}

#[test]
fn enabled_if_must_parse() {
    assert_eq!(
        check("[{name: a, enabledIf: '{{ .x }', definitions: []}]"),
        [
            "spec.patches[0].enabledIf: Invalid value: \"{{ .x }\": template can not be parsed: template: enabledIf:1: unexpected \"}\" in operand"
        ]
    );
    assert_eq!(
        check("[{name: a, enabledIf: '{{ nosuchfunc }}', definitions: []}]"),
        [
            "spec.patches[0].enabledIf: Invalid value: \"{{ nosuchfunc }}\": template can not be parsed: template: enabledIf:1: function \"nosuchfunc\" not defined"
        ]
    );
}

#[test]
fn definitions_xor_external() {
    assert_eq!(
        check("[{name: a}]"),
        ["spec.patches[0]: Required value: one of definitions or external must be defined"]
    );
    assert_eq!(
        check(
            "[{name: a, definitions: [], external: {generatePatchesExtension: gen, settings: {b: '2', a: '<'}}}]"
        ),
        [
            "spec.patches[0]: Invalid value: {\"name\":\"a\",\"external\":{\"generatePatchesExtension\":\"gen\",\"settings\":{\"a\":\"\\u003c\",\"b\":\"2\"}}}: only one of definitions or external can be defined"
        ]
    );
}

#[test]
fn external() {
    assert_eq!(
        check("[{name: a, external: {discoverVariablesExtension: disc}}]"),
        [
            "spec.patches[0].external: Invalid value: {\"discoverVariablesExtension\":\"disc\"}: one of validateTopologyExtension and generatePatchesExtension must be defined"
        ]
    );
    let c = with_patches("[{name: a, external: {validateTopologyExtension: v}}]");
    assert_eq!(
        msgs(&validate(&c, false)),
        [
            "spec.patches[0].external: Forbidden: patch.external can be used only if the RuntimeSDK feature flag is enabled"
        ]
    );
}

#[test]
fn op_and_path() {
    assert_eq!(
        check(&jp("{op: drop, path: /metadata/x}")),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].op: Unsupported value: \"{\\n  \\\"op\\\": \\\"drop\\\",\\n  \\\"path\\\": \\\"/metadata/x\\\"\\n}\": supported values: \"add\", \"remove\", \"replace\"",
            "spec.patches[0].definitions[0].jsonPatches[0].path: Invalid value: \"{\\n  \\\"op\\\": \\\"drop\\\",\\n  \\\"path\\\": \\\"/metadata/x\\\"\\n}\": jsonPatch path must start with \"/spec\"",
        ]
    );
    // A plain prefix check: /specx passes.
    assert_eq!(check(&jp("{op: add, path: /specx, value: 1}")), NONE);
}

#[test]
fn index_access_rules() {
    assert_eq!(check(&jp("{op: add, path: /spec/a/0/b/-, value: 1}")), NONE);
    assert_eq!(
        check(&jp("{op: add, path: /spec/a/1, value: 1}")),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].path: Invalid value: \"/spec/a/1\": arrays can only be accessed using \"0\" (prepend) or \"-\" (append)"
        ]
    );
    assert_eq!(
        check(&jp("{op: add, path: /spec/a/01, value: 1}")),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].path: Invalid value: \"/spec/a/01\": arrays can only be accessed using \"0\" (prepend) or \"-\" (append)"
        ]
    );
    assert_eq!(
        check(&jp("{op: remove, path: /spec/a/0}")),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].path: Invalid value: \"/spec/a/0\": elements in arrays can not be accessed in a remove operation"
        ]
    );
    assert_eq!(
        check(&jp("{op: replace, path: /spec/labels/123, value: x}")),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].path: Invalid value: \"/spec/labels/123\": elements in arrays can not be accessed in a replace operation"
        ]
    );
}

#[test]
fn value_and_value_from() {
    assert_eq!(
        check(&jp("{op: add, path: /spec/a}")),
        [
            "spec.patches[0].definitions[0].jsonPatches[0]: Invalid value: \"{\\n  \\\"op\\\": \\\"add\\\",\\n  \\\"path\\\": \\\"/spec/a\\\"\\n}\": jsonPatch must define one of value or valueFrom"
        ]
    );
    assert_eq!(
        check(&jp(
            "{op: add, path: /spec/a, value: [1], valueFrom: {variable: variableName}}"
        )),
        [
            "spec.patches[0].definitions[0].jsonPatches[0]: Invalid value: \"{\\n  \\\"op\\\": \\\"add\\\",\\n  \\\"path\\\": \\\"/spec/a\\\",\\n  \\\"value\\\": [\\n    1\\n  ],\\n  \\\"valueFrom\\\": {\\n    \\\"variable\\\": \\\"variableName\\\"\\n  }\\n}\": jsonPatch can not define both value and valueFrom"
        ]
    );
    assert_eq!(
        check(&jp("{op: add, path: /spec/a, valueFrom: {}}")),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom: Invalid value: \"{}\": valueFrom must set either template or variable"
        ]
    );
    assert_eq!(
        check(&jp(
            "{op: add, path: /spec/a, valueFrom: {template: x, variable: variableName}}"
        )),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom: Invalid value: \"{\\n  \\\"variable\\\": \\\"variableName\\\",\\n  \\\"template\\\": \\\"x\\\"\\n}\": valueFrom can not set both template and variable"
        ]
    );
    assert_eq!(
        check(&jp(
            "{op: add, path: /spec/a, valueFrom: {template: '{{ .a '}}"
        )),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom.template: Invalid value: \"{{ .a \": template can not be parsed: template: valueFrom.template:1: unclosed action"
        ]
    );
    // remove needs neither.
    assert_eq!(check(&jp("{op: remove, path: /spec/a}")), NONE);
}

#[test]
fn variables() {
    assert_eq!(
        check(&jp(
            "{op: add, path: /spec/a, valueFrom: {variable: undefinedVariable.x}}"
        )),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom.variable: Invalid value: \"undefinedVariable.x\": variable with name undefinedVariable.x cannot be found"
        ]
    );
    assert_eq!(
        check(&jp(
            "{op: add, path: /spec/a, valueFrom: {variable: builtin.notDefined}}"
        )),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom.variable: Invalid value: \"builtin.notDefined\": not a defined builtin variable"
        ]
    );
    // The v1beta2 list has classRef, v1.10's (used for v1beta1 classes) has ipFamily.
    assert_eq!(
        check(&jp(
            "{op: add, path: /spec/a, valueFrom: {variable: builtin.cluster.network.ipFamily}}"
        )),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom.variable: Invalid value: \"builtin.cluster.network.ipFamily\": not a defined builtin variable"
        ]
    );
    assert_eq!(variable_name("a.b[0]"), "a");
    assert_eq!(variable_name("[x].y"), "x]");
    // The bare `builtin` does not start with `builtin.`: it is looked up as a user variable.
    assert_eq!(
        check(&jp(
            "{op: add, path: /spec/a, valueFrom: {variable: builtin}}"
        )),
        [
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom.variable: Invalid value: \"builtin\": variable with name builtin cannot be found"
        ]
    );
    assert_eq!(variable_name(".["), "");
}

#[test]
fn v1beta1_classes_use_the_v1_10_builtins() {
    let c = class(
        "
apiVersion: cluster.x-k8s.io/v1beta1
kind: ClusterClass
metadata: {name: c1}
spec:
  infrastructure: {ref: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerClusterTemplate, name: i}}
  controlPlane: {ref: {apiVersion: controlplane.cluster.x-k8s.io/v1beta1, kind: KubeadmControlPlaneTemplate, name: c}}
  patches:
  - name: p
    definitions:
    - selector: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}
      jsonPatches:
      - {op: add, path: /spec/a, valueFrom: {variable: builtin.cluster.network.ipFamily}}
      - {op: add, path: /spec/b, valueFrom: {variable: builtin.cluster.topology.classRef.name}}
",
    );
    assert_eq!(c.api, ApiVersion::V1Beta1);
    assert_eq!(
        msgs(&validate(&c, true)),
        [
            "spec.patches[0].definitions[0].jsonPatches[1].valueFrom.variable: Invalid value: \"builtin.cluster.topology.classRef.name\": not a defined builtin variable"
        ]
    );
}

#[test]
fn selectors_must_enable_something() {
    assert_eq!(
        check(&sel(
            "{apiVersion: a/v1, kind: K, matchResources: {controlPlane: false, machineDeploymentClass: {names: []}}}"
        )),
        [
            "spec.patches[0].definitions[0].selector: Invalid value: \"{\\n  \\\"apiVersion\\\": \\\"a/v1\\\",\\n  \\\"kind\\\": \\\"K\\\",\\n  \\\"matchResources\\\": {\\n    \\\"controlPlane\\\": false,\\n    \\\"machineDeploymentClass\\\": {}\\n  }\\n}\": no selector enabled"
        ]
    );
}

#[test]
fn selectors_must_match_a_template() {
    let infra = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2";
    assert_eq!(
        check(&sel(&format!(
            "{{{infra}, kind: DockerClusterTemplate, matchResources: {{infrastructureCluster: true}}}}"
        ))),
        NONE
    );
    assert_eq!(
        check(&sel(
            "{apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerClusterTemplate, matchResources: {infrastructureCluster: true}}"
        )),
        [
            "spec.patches[0].definitions[0].selector.matchResources.infrastructureCluster: Invalid value: true: selector is enabled but does not match the infrastructure ref"
        ]
    );
    assert_eq!(
        check(&sel(&format!(
            "{{{infra}, kind: DockerMachineTemplate, matchResources: {{controlPlane: true}}}}"
        ))),
        NONE
    );
    assert_eq!(
        check(&sel(&format!(
            "{{{infra}, kind: Other, matchResources: {{controlPlane: true}}}}"
        ))),
        [
            "spec.patches[0].definitions[0].selector.matchResources.controlPlane: Invalid value: true: selector is enabled but matches neither the controlPlane ref nor the controlPlane machineInfrastructure ref"
        ]
    );
    assert_eq!(
        check(&sel(
            "{apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, matchResources: {machineDeploymentClass: {names: [aa-md, '*-md', 'aa*', '*']}, machinePoolClass: {names: [bb-mp]}}}"
        )),
        NONE
    );
    assert_eq!(
        check(&sel(&format!(
            "{{{infra}, kind: DockerMachineTemplate, matchResources: {{machineDeploymentClass: {{names: [aa-md, other]}}, machinePoolClass: {{names: ['*']}}}}}}"
        ))),
        [
            "spec.patches[0].definitions[0].selector.matchResources.machineDeploymentClass.names[1]: Invalid value: \"other\": selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a MachineDeployment class",
            "spec.patches[0].definitions[0].selector.matchResources.machinePoolClass.names[0]: Invalid value: \"*\": selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a MachinePool class",
        ]
    );
}

#[test]
fn selector_name_syntax() {
    let bad = |names: &str| {
        check(&sel(&format!(
            "{{apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, matchResources: {{machineDeploymentClass: {{names: {names}}}}}}}"
        )))
    };
    assert_eq!(
        bad("['**', 'x*y']"),
        [
            "spec.patches[0].definitions[0].selector.matchResources.machineDeploymentClass.names[0]: Invalid value: \"**\": selector can at most contain a single \"*\" rune"
        ]
    );
    assert_eq!(
        bad("['a*b']"),
        [
            "spec.patches[0].definitions[0].selector.matchResources.machineDeploymentClass.names[0]: Invalid value: \"a*b\": \"*\" rune can only appear at the beginning, or ending of the selector"
        ]
    );
    assert_eq!(
        bad("['-*']"),
        [
            "spec.patches[0].definitions[0].selector.matchResources.machineDeploymentClass.names[0]: Invalid value: \"-*\": selector does not comply with the Kubernetes naming standards"
        ]
    );
    // Names without `*` are not syntax-checked, only matched.
    assert_eq!(
        bad("['-']"),
        [
            "spec.patches[0].definitions[0].selector.matchResources.machineDeploymentClass.names[0]: Invalid value: \"-\": selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a MachineDeployment class"
        ]
    );
}

#[test]
fn go_struct_encodings() {
    let p = serde_json::json!({
        "name": "n", "enabledIf": "x",
        "definitions": [{"selector": {"kind": "K", "matchResources": {"infrastructureCluster": true}},
                         "jsonPatches": [{"path": "/spec", "op": "add", "value": {"z": 1, "a": "<"}}]}],
        "external": {"settings": {}}
    });
    assert_eq!(
        patch_go(&p).marshal(),
        r#"{"name":"n","enabledIf":"x","definitions":[{"selector":{"kind":"K","matchResources":{"infrastructureCluster":true}},"jsonPatches":[{"op":"add","path":"/spec","value":{"a":"\u003c","z":1}}]}],"external":{}}"#
    );
}
