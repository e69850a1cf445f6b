//! ClusterClass webhook tests: one valid and one invalid case per rule (modelled on Cluster
//! API's `clusterclass_test.go`), messages compared exactly.

use super::*;
use crate::validate::testutil::{class_with, cluster, msgs};
use crate::validate::{Gates, Outcome};

const NONE: &[&str] = &[];

const WORKERS: &str = "
controlPlane:
  machineInfrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: cpm}}
workers:
  machineDeployments:
  - class: aa
    bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: i}}
  machinePools:
  - class: pp
    bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachinePoolTemplate, name: i}}
";

/// The valid base class plus `extra` (merged over it).
fn cc(extra: &str) -> ClusterClass {
    let mut c = class_with(WORKERS);
    let extra = crate::load::yaml::parse_value(extra).unwrap_or_else(|e| panic!("{e}"));
    crate::validate::testutil::merge(&mut c.spec_value, extra);
    c
}

fn create(c: &ClusterClass) -> Vec<String> {
    msgs(&validate(&Options::default(), c, None, &[]))
}

fn update(old: &ClusterClass, new: &ClusterClass, clusters: &[&Cluster]) -> Vec<String> {
    msgs(&validate(&Options::default(), new, Some(old), clusters))
}

#[test]
fn valid_class_passes() {
    let c = cc("
infrastructure: {naming: {template: '{{ .cluster.name }}-infra-{{ .random }}'}}
controlPlane:
  metadata: {labels: {a: b}, annotations: {'example.com/x': y}}
  healthCheck: {checks: {nodeStartupTimeoutSeconds: 0}, remediation: {triggerIf: {unhealthyLessThanOrEqualTo: '33%'}}}
kubernetesVersions: [v1.30.0, v1.30.1, v1.31.0-rc.1, v1.31.0]
");
    assert_eq!(create(&c), NONE);
    assert_eq!(
        crate::validate::cluster_class(&c, None, &[]),
        Outcome::default()
    );
}

#[test]
fn gate_off_forbids_everything() {
    let opts = Options {
        gates: Gates::cluster_api_defaults(),
        ..Options::default()
    };
    assert_eq!(
        msgs(&validate(&opts, &cc("{}"), None, &[])),
        ["spec: Forbidden: can be set only if the ClusterTopology feature flag is enabled"]
    );
}

#[test]
fn template_refs() {
    assert_eq!(
        create(&cc("{infrastructure: {templateRef: {name: ''}}}")),
        ["spec.infrastructure.ref.name: Required value: template name must be defined"]
    );
}

#[test]
fn classes_must_be_unique() {
    let c = cc("{}");
    let mut spec = c.spec_value.clone();
    for list in ["machineDeployments", "machinePools"] {
        if let Some(a) = spec["workers"][list].as_array_mut() {
            let first = a[0].clone();
            a.push(first);
        }
    }
    let mut dup = c.clone();
    dup.spec_value = spec;
    assert_eq!(
        create(&dup),
        [
            "spec.workers.machineDeployments[1].class: Invalid value: \"aa\": MachineDeployment class must be unique. MachineDeployment with class \"aa\" is defined more than once",
            "spec.workers.machinePools[1].class: Invalid value: \"pp\": MachinePool class must be unique. MachinePool with class \"pp\" is defined more than once",
        ]
    );
}

/// The class with `patch` merged into its first MachineDeployment class.
fn md(patch: &str) -> ClusterClass {
    let mut c = cc("{}");
    let extra = crate::load::yaml::parse_value(patch).unwrap_or_else(|e| panic!("{e}"));
    crate::validate::testutil::merge(&mut c.spec_value["workers"]["machineDeployments"][0], extra);
    c
}

#[test]
fn rollout() {
    assert_eq!(
        create(&md(
            "{rollout: {strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}}}"
        )),
        NONE
    );
    let c = md("{rollout: {strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}}}");
    let errs = validate(&Options::default(), &c, None, &[]);
    assert_eq!(
        msgs(&errs),
        [
            "spec.workers.machineDeployments[aa].rollout.strategy.rollingUpdate: Invalid value: \"0\": maxUnavailable and maxSurge cannot both be 0"
        ]
    );
    assert_eq!(
        errs[0].path.pointer(),
        "/spec/workers/machineDeployments/0/rollout/strategy/rollingUpdate"
    );
}

#[test]
fn health_checks() {
    let mut c =
        class_with("{controlPlane: {healthCheck: {checks: {nodeStartupTimeoutSeconds: 10}}}}");
    assert_eq!(
        create(&c),
        [
            "spec.controlPlane.healthCheck.checks.nodeStartupTimeoutSeconds: Invalid value: 10: must be at least 30s",
            "spec.controlPlane.healthCheck: Forbidden: can be only set if spec.controlPlane.machineInfrastructure is set",
        ]
    );
    c = md("{healthCheck: {remediation: {maxInFlight: '5'}}}");
    assert_eq!(
        create(&c),
        [
            "spec.workers.machineDeployments[aa].healthCheck.remediation.maxInFlight: Invalid value: \"5\": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage"
        ]
    );
    assert_eq!(
        create(&md("{healthCheck: {remediation: {maxInFlight: '5%'}}}")),
        NONE
    );
}

#[test]
fn naming_templates() {
    assert_eq!(
        create(&cc(
            "{infrastructure: {naming: {template: 'template-infra-{{ .invalidkey }}'}}}"
        )),
        [
            "spec.infrastructure.naming.template: Invalid value: \"template-infra-{{ .invalidkey }}\": invalid InfraCluster name template: rendering template: template: template name generator:1:18: executing \"template name generator\" at <.invalidkey>: map has no entry for key \"invalidkey\""
        ]
    );
    assert_eq!(
        create(&cc(
            "{controlPlane: {naming: {template: 'Template-{{ .cluster.name }}'}}}"
        )),
        [
            "spec.controlPlane.naming.template: Invalid value: \"Template-{{ .cluster.name }}\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        ]
    );
    assert_eq!(
        create(&md(
            "{naming: {template: '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}'}}"
        )),
        NONE
    );
    assert_eq!(
        create(&md(
            "{naming: {template: '{{ .machinePool.topologyName }}'}}"
        )),
        [
            "spec.workers.machineDeployments[aa].naming.template: Invalid value: \"{{ .machinePool.topologyName }}\": invalid MachineDeployment name template: rendering template: template: template name generator:1:15: executing \"template name generator\" at <.machinePool.topologyName>: map has no entry for key \"machinePool\""
        ]
    );
    let mut c = cc("{}");
    c.spec_value["workers"]["machinePools"][0]["naming"] =
        serde_json::json!({"template": "{{ .cluster.name }"});
    assert_eq!(
        create(&c),
        [
            "spec.workers.machinePools[pp].naming.template: Invalid value: \"{{ .cluster.name }\": invalid MachinePool name template: parsing template \"{{ .cluster.name }\": template: template name generator:1: unexpected \"}\" in operand"
        ]
    );
}

#[test]
fn taints_follow_the_gate() {
    let c = md("{taints: [{key: example.com/a, effect: NoSchedule}]}");
    assert_eq!(
        create(&c),
        [
            "spec.workers.machineDeployments[aa].taints: Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled"
        ]
    );
    let opts = Options {
        gates: Gates::all(),
        ..Options::default()
    };
    assert!(validate(&opts, &c, None, &[]).is_empty());
    let cp = cc("{controlPlane: {taints: [{key: node.kubernetes.io/x, effect: NoSchedule}]}}");
    assert_eq!(
        msgs(&validate(&opts, &cp, None, &[])),
        [
            "spec.controlPlane.taints[0].key: Invalid value: \"node.kubernetes.io/x\": taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service"
        ]
    );
}

#[test]
fn variable_definitions_are_checked_when_asked() {
    // Two definitions of one name: the variables module's rule, run as step 7.
    let new = cc(
        "{variables: [{name: a, required: false, schema: {openAPIV3Schema: {type: string}}}, {name: a, required: false, schema: {openAPIV3Schema: {type: string}}}]}",
    );
    let on = Options {
        class_variables: true,
        ..Options::default()
    };
    assert_eq!(
        msgs(&validate(&on, &new, None, &[])),
        [
            "spec.variables[a].name: Invalid value: \"a\": variable name must be unique. Variable with name \"a\" is defined more than once"
        ]
    );
    assert!(validate(&Options::default(), &new, None, &[]).is_empty());
}

#[test]
fn metadata() {
    let errs = validate(
        &Options::default(),
        &md("{metadata: {labels: {'foo/bar/baz': x}}}"),
        None,
        &[],
    );
    assert_eq!(
        msgs(&errs),
        [
            "spec.workers.machineDeployments[aa].template.metadata.labels: Invalid value: \"foo/bar/baz\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    );
    assert_eq!(
        errs[0].path.pointer(),
        "/spec/workers/machineDeployments/0/metadata/labels"
    );
    assert_eq!(
        create(&cc("{controlPlane: {metadata: {annotations: {'/a': x}}}}")),
        [
            "spec.controlPlane.metadata.annotations: Invalid value: \"/a\": prefix part must be non-empty"
        ]
    );
}

#[test]
fn kubernetes_versions_rules() {
    let kv = |list: &str| {
        msgs(&kubernetes_versions(
            crate::load::yaml::parse_value(list)
                .ok()
                .and_then(|v| v.as_array().cloned())
                .unwrap_or_default()
                .as_slice(),
        ))
    };
    assert_eq!(
        kv("[v1.30.0, v1.30.1+a, v1.30.1+b, v1.31.0-rc.1, v1.31.0]"),
        NONE
    );
    assert_eq!(
        kv("[v1.30.0, foo]"),
        [
            "spec.kubernetesVersion[1]: Invalid value: \"foo\": version must be a valid semantic version"
        ]
    );
    assert_eq!(
        kv("[v1.30.1, v1.30.0]"),
        [
            "spec.kubernetesVersion[1]: Invalid value: \"v1.30.0\": version must be greater than v1.30.1"
        ]
    );
    assert_eq!(
        kv("[v1.30.0, v1.32.0]"),
        [
            "spec.kubernetesVersion[1]: Invalid value: \"v1.32.0\": expecting a version with minor 30 or 31, found version 1.32.0"
        ]
    );
    assert_eq!(
        kv("[v1.31.0, v1.31.0-rc.1]"),
        [
            "spec.kubernetesVersion[1]: Invalid value: \"v1.31.0-rc.1\": version must be greater than v1.31.0"
        ]
    );
    let errs = kubernetes_versions(&[Value::from("x")]);
    assert_eq!(errs[0].path.pointer(), "/spec/kubernetesVersions/0");
}

fn cluster_using(name: &str, topology: &str) -> Cluster {
    cluster(&format!(
        "
apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {{name: {name}, namespace: default}}
spec:
  topology: {topology}
"
    ))
}

#[test]
fn update_checks_compatibility() {
    let old = cc("{}");
    let new = cc("{infrastructure: {templateRef: {kind: OtherClusterTemplate}}}");
    assert_eq!(
        update(&old, &new, &[]),
        [
            "spec.infrastructure.templateRef.kind: Forbidden: kind cannot be changed from \"DockerClusterTemplate\" to \"OtherClusterTemplate\" to prevent incompatible changes in the Clusters"
        ]
    );
    assert_eq!(update(&old, &old, &[]), NONE);
}

#[test]
fn update_keeps_versions_of_clusters() {
    let old = cc("{}");
    let new = cc("{kubernetesVersions: [v1.30.0, v1.31.0]}");
    let c1 = cluster_using("c1", "{classRef: {name: class1}, version: v1.31.0}");
    let c2 = cluster_using("c2", "{classRef: {name: class1}, version: v1.29.0}");
    assert_eq!(
        update(&old, &new, &[&c1, &c2]),
        [
            "spec.kubernetesVersions: Forbidden: Kubernetes Version v1.29.0 is used by Cluster \"c2\" but not set in ClusterClass"
        ]
    );
    assert_eq!(update(&old, &new, &[&c1]), NONE);
}

#[test]
fn update_keeps_classes_in_use() {
    let old = cc("{}");
    let mut new = old.clone();
    new.spec_value["workers"] = serde_json::json!({});
    let unused = cluster_using("c0", "{classRef: {name: class1}, version: v1.30.0}");
    assert_eq!(update(&old, &new, &[&unused]), NONE);
    let c1 = cluster_using(
        "c1",
        "{classRef: {name: class1}, version: v1.30.0, workers: {machineDeployments: [{class: aa, name: md1}], machinePools: [{class: pp, name: mp1}]}}",
    );
    assert_eq!(
        update(&old, &new, &[&c1]),
        [
            "spec.workers.machineDeployments: Forbidden: MachineDeploymentClass \"aa\" cannot be deleted because it is used by Cluster \"c1\"",
            "spec.workers.machinePools: Forbidden: MachinePoolClass \"pp\" cannot be deleted because it is used by Cluster \"c1\"",
        ]
    );
}

#[test]
fn update_keeps_health_checks_in_use() {
    let old = cc("{controlPlane: {healthCheck: {checks: {nodeStartupTimeoutSeconds: 60}}}}");
    let mut old_md = old.clone();
    old_md.spec_value["workers"]["machineDeployments"][0]["healthCheck"] =
        serde_json::json!({"checks": {"nodeStartupTimeoutSeconds": 60}});
    let new = cc("{}");
    let relies = cluster_using(
        "c1",
        "{classRef: {name: class1}, version: v1.30.0, controlPlane: {healthCheck: {enabled: true}}, workers: {machineDeployments: [{class: aa, name: md1, healthCheck: {enabled: true}}]}}",
    );
    let overrides = cluster_using(
        "c2",
        "{classRef: {name: class1}, version: v1.30.0, controlPlane: {healthCheck: {enabled: true, checks: {nodeStartupTimeoutSeconds: 40}}}}",
    );
    assert_eq!(
        update(&old, &new, &[&relies, &overrides]),
        [
            "spec.controlPlane.healthCheck: Forbidden: healthCheck cannot be deleted because it is used by Cluster(s) \"c1\""
        ]
    );
    assert_eq!(update(&old, &new, &[&overrides]), NONE);
    assert_eq!(
        update(&old_md, &new, &[&relies]),
        [
            "spec.controlPlane.healthCheck: Forbidden: healthCheck cannot be deleted because it is used by Cluster(s) \"c1\"",
            "spec.workers.machineDeployments[aa].healthCheck: Forbidden: healthCheck cannot be deleted because it is used by Cluster(s) \"c1\"",
        ]
    );
}

#[test]
fn update_checks_autoscaler_annotations() {
    let old = cc("{}");
    let new = md(
        "{metadata: {annotations: {cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size: '5'}}}",
    );
    let with_replicas = cluster_using(
        "c1",
        "{classRef: {name: class1}, version: v1.30.0, workers: {machineDeployments: [{class: aa, name: md1, replicas: 3}]}}",
    );
    let without = cluster_using(
        "c2",
        "{classRef: {name: class1}, version: v1.30.0, workers: {machineDeployments: [{class: aa, name: md1}]}}",
    );
    assert_eq!(
        update(&old, &new, &[&with_replicas, &without]),
        [
            "spec.topology.workers.machineDeployments[md1].replicas: Invalid value: 3: cannot be set for cluster \"c1\" in namespace \"default\" if the source class \"aa\" of this MachineDeploymentTopology has autoscaler annotations"
        ]
    );
    assert_eq!(update(&old, &new, &[&without]), NONE);
}

#[test]
fn delete_is_forbidden_while_in_use() {
    let c = cc("{}");
    assert_eq!(validate_delete(&c, &[]), None);
    let cs: Vec<Cluster> = (1..=5)
        .map(|i| {
            cluster_using(
                &format!("c{i}"),
                "{classRef: {name: class1}, version: v1.30.0}",
            )
        })
        .collect();
    let refs: Vec<&Cluster> = cs.iter().collect();
    assert_eq!(
        validate_delete(&c, &refs).as_deref(),
        Some(
            "ClusterClass.cluster.x-k8s.io \"class1\" is forbidden: ClusterClass cannot be deleted because it is used by Cluster(s): default/c1, default/c2, default/c3, ... (2 more)"
        )
    );
}
