//! Cluster webhook tests: one valid and one invalid case per rule (modelled on Cluster API's
//! `cluster_test.go`), messages compared exactly.

use super::*;
use crate::validate::testutil::{class_with, cluster, merge, msgs};
use crate::validate::{Gates, Options};

const NONE: &[&str] = &[];

/// The class the Clusters below use: one MD class `aa` (with a health check), one MP class.
fn class1() -> ClusterClass {
    class_with(
        "
controlPlane:
  machineInfrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: cpm}}
workers:
  machineDeployments:
  - class: aa
    bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: i}}
    healthCheck: {checks: {nodeStartupTimeoutSeconds: 60}}
  - class: nohc
    bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: i}}
  machinePools:
  - class: pp
    bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachinePoolTemplate, name: i}}
",
    )
}

/// A Cluster `c1` using `class1` at v1.30.0, with `extra` merged over the whole object.
fn c(extra: &str) -> Cluster {
    let base = "
apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: c1, namespace: ns}
spec:
  topology:
    classRef: {name: class1}
    version: v1.30.0
    workers:
      machineDeployments: [{class: aa, name: md1}]
      machinePools: [{class: pp, name: mp1}]
";
    let mut v = crate::load::yaml::parse_value(base).unwrap_or_else(|e| panic!("{e}"));
    merge(
        &mut v,
        crate::load::yaml::parse_value(extra).unwrap_or_else(|e| panic!("{e}")),
    );
    let o = crate::validate::testutil::object_from(v);
    Cluster::parse(&o, crate::api::ApiVersion::V1Beta2).unwrap_or_else(|e| panic!("{e}"))
}

fn create(new: &Cluster) -> Vec<String> {
    msgs(&crate::validate::cluster(new, None, Some(&class1()), None).errors)
}

fn update(old: &Cluster, new: &Cluster) -> Outcome {
    let class = class1();
    crate::validate::cluster(new, Some(old), Some(&class), Some(&class))
}

#[test]
fn valid_cluster_passes() {
    let out = crate::validate::cluster(&c("{}"), None, Some(&class1()), None);
    assert_eq!(out, Outcome::default());
    assert_eq!(update(&c("{}"), &c("{}")), Outcome::default());
}

#[test]
fn default_prefixes_the_version() {
    let out = crate::validate::cluster(
        &c("{spec: {topology: {version: 1.30.0}}}"),
        None,
        Some(&class1()),
        None,
    );
    assert!(out.is_ok(), "{:?}", out.errors);
    assert_eq!(
        out.defaulted
            .as_ref()
            .and_then(|s| s.pointer("/topology/version"))
            .and_then(Value::as_str),
        Some("v1.30.0")
    );
    // No topology: nothing to default.
    let plain = cluster(
        "
apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: c1}
spec: {infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerCluster, name: c1}}
",
    );
    assert_eq!(
        crate::validate::cluster(&plain, None, None, None),
        Outcome::default()
    );
}

#[test]
fn default_rejects_an_empty_class_name() {
    let out = crate::validate::cluster(
        &c("{spec: {topology: {classRef: {name: ''}, version: bad}}}"),
        None,
        None,
        None,
    );
    assert_eq!(
        msgs(&out.errors),
        ["spec.topology.classRef.name: Required value: cannot be empty"]
    );
    assert_eq!(
        out.message("Cluster", "c1").as_deref(),
        Some(
            "Cluster.cluster.x-k8s.io \"c1\" is invalid: spec.topology.classRef.name: Required value: cannot be empty"
        )
    );
}

#[test]
fn variables_are_defaulted_and_validated_against_the_class_status() {
    let status = crate::variables::definitions::StatusVariables::from_inline(&[serde_json::json!(
        {"name": "x", "required": false, "schema": {"openAPIV3Schema": {"type": "integer", "default": 1, "maximum": 5}}}
    )]);
    let opts = Options {
        cluster_variables: Some(&status),
        ..Options::default()
    };
    let class = class1();
    let out = crate::validate::cluster_with(&opts, &c("{}"), None, Some(&class), None);
    assert!(out.is_ok(), "{:?}", msgs(&out.errors));
    assert_eq!(
        out.defaulted
            .and_then(|s| s.pointer("/topology/variables/0").cloned()),
        Some(serde_json::json!({"name": "x", "value": 1}))
    );
    let too_big = c("{spec: {topology: {variables: [{name: x, value: 9}]}}}");
    let out = crate::validate::cluster_with(&opts, &too_big, None, Some(&class), None);
    assert_eq!(
        msgs(&out.errors),
        [
            "spec.topology.variables[x].value: Invalid value: \"9\": should be less than or equal to 5"
        ]
    );
    // Without the class's status (its variables did not reconcile) the step is skipped.
    let out =
        crate::validate::cluster_with(&Options::default(), &too_big, None, Some(&class), None);
    assert!(out.is_ok());
}

#[test]
fn name_must_be_a_label_value() {
    assert_eq!(
        create(&c("{metadata: {name: -c1}}")),
        [
            "metadata.name: Invalid value: \"-c1\": must be a valid label value a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
        ]
    );
}

#[test]
fn references() {
    let plain = |spec: &str| {
        cluster(&format!(
            "{{apiVersion: cluster.x-k8s.io/v1beta2, kind: Cluster, metadata: {{name: c1}}, spec: {spec}}}"
        ))
    };
    let both = plain(
        "{infrastructureRef: {apiGroup: a, kind: K, name: x1}, controlPlaneRef: {apiGroup: b, kind: K, name: x1}}",
    );
    let none = plain("{}");
    assert_eq!(
        msgs(&crate::validate::cluster(&none, None, None, None).errors),
        [
            "spec: Forbidden: one of spec.controlPlaneRef, spec.infrastructureRef or spec.topology must be set"
        ]
    );
    assert_eq!(
        msgs(&crate::validate::cluster(&none, Some(&both), None, None).errors),
        [
            "spec.infrastructureRef: Forbidden: cannot be removed",
            "spec: Forbidden: one of spec.controlPlaneRef, spec.infrastructureRef or spec.topology must be set",
            "spec.controlPlaneRef: Forbidden: cannot be removed",
        ]
    );
    assert!(crate::validate::cluster(&both, Some(&both), None, None).is_ok());
}

/// A `null`, missing or empty spec decodes as Go's zero `ClusterSpec` and gets the webhook's
/// message (Cluster API's `Cluster.validate`, "one of ... must be set"), in both versions; on
/// update, the references it drops are "cannot be removed" around it, in the webhook's order.
#[test]
fn null_or_empty_spec() {
    const ONE_OF: &str = "spec: Forbidden: one of spec.controlPlaneRef, spec.infrastructureRef or spec.topology must be set";
    let both = cluster(
        "{apiVersion: cluster.x-k8s.io/v1beta2, kind: Cluster, metadata: {name: c1}, spec: {infrastructureRef: {apiGroup: a, kind: K, name: x1}, controlPlaneRef: {apiGroup: b, kind: K, name: x1}}}",
    );
    for version in ["v1beta1", "v1beta2"] {
        for spec in [", spec: null", ", spec: {}", ""] {
            let none = cluster(&format!(
                "{{apiVersion: cluster.x-k8s.io/{version}, kind: Cluster, metadata: {{name: c1}}{spec}}}"
            ));
            assert_eq!(
                msgs(&crate::validate::cluster(&none, None, None, None).errors),
                [ONE_OF],
                "{version} {spec:?}"
            );
            assert_eq!(
                msgs(&crate::validate::cluster(&none, Some(&both), None, None).errors),
                [
                    "spec.infrastructureRef: Forbidden: cannot be removed",
                    ONE_OF,
                    "spec.controlPlaneRef: Forbidden: cannot be removed",
                ],
                "{version} {spec:?}"
            );
        }
    }
    // A spec that is not an object is still a decoding error (the schema refuses it first).
    let o = crate::validate::testutil::object(
        "{apiVersion: cluster.x-k8s.io/v1beta2, kind: Cluster, metadata: {name: c1}, spec: 3}",
    );
    assert!(Cluster::parse(&o, crate::api::ApiVersion::V1Beta2).is_err());
}

#[test]
fn cidr_blocks() {
    assert_eq!(
        create(&c(
            "{spec: {clusterNetwork: {pods: {cidrBlocks: [10.0.0.0/16, 10.0.0.0]}, services: {cidrBlocks: [fd00::/300]}}}}"
        )),
        [
            "spec.clusterNetwork.pods.cidrBlocks[1]: Invalid value: \"10.0.0.0\": invalid CIDR address: 10.0.0.0",
            "spec.clusterNetwork.services.cidrBlocks[0]: Invalid value: \"fd00::/300\": invalid CIDR address: fd00::/300",
        ]
    );
}

#[test]
fn topology_gate() {
    let opts = Options {
        gates: Gates::cluster_api_defaults(),
        ..Options::default()
    };
    let out = crate::validate::cluster_with(&opts, &c("{}"), None, Some(&class1()), None);
    assert_eq!(
        msgs(&out.errors),
        [
            "spec.topology: Forbidden: can be set only if the ClusterTopology feature flag is enabled"
        ]
    );
}

#[test]
fn version_syntax() {
    assert_eq!(
        create(&c("{spec: {topology: {version: v1.30}}}")),
        [
            "spec.topology.version: Invalid value: \"v1.30\": version must be a valid semantic version"
        ]
    );
    assert_eq!(
        create(&c("{spec: {topology: {version: vv1.30.0}}}")),
        [
            "spec.topology.version: Invalid value: \"vv1.30.0\": version must be a valid semantic version"
        ]
    );
}

#[test]
fn topology_metadata_rollout_and_taints() {
    let out = create(&c(
        "{spec: {topology: {controlPlane: {metadata: {labels: {'a': '-'}}}, workers: {machineDeployments: [{class: aa, name: md1, rollout: {strategy: {rollingUpdate: {maxSurge: x}}}, taints: [{key: a, effect: NoSchedule}]}]}}}}",
    ));
    assert_eq!(
        out,
        [
            "spec.topology.controlPlane.metadata.labels: Invalid value: \"-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            "spec.topology.workers.machineDeployments[md1].rollout.strategy.rollingUpdate.maxSurge: Invalid value: \"x\": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage",
            "spec.topology.workers.machineDeployments[md1].taints: Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled",
        ]
    );
}

#[test]
fn upgrade_concurrency_annotation() {
    let a = |v: &str| {
        create(&c(&format!(
            "{{metadata: {{annotations: {{topology.cluster.x-k8s.io/upgrade-concurrency: '{v}'}}}}}}"
        )))
    };
    assert_eq!(a("2"), NONE);
    assert_eq!(
        a("x"),
        [
            "metadata.annotations.topology.cluster.x-k8s.io/upgrade-concurrency: Invalid value: \"x\": could not parse the value of the annotation: strconv.Atoi: parsing \"x\": invalid syntax"
        ]
    );
    assert_eq!(
        a("0"),
        [
            "metadata.annotations.topology.cluster.x-k8s.io/upgrade-concurrency: Invalid value: \"0\": value cannot be less than 1"
        ]
    );
}

#[test]
fn missing_class_is_a_warning() {
    let out = crate::validate::cluster(&c("{}"), None, None, None);
    assert!(out.is_ok());
    assert_eq!(
        out.warnings,
        [
            "Cluster refers to ClusterClass ns/class1, but this ClusterClass does not exist. Cluster topology has not been fully validated. The ClusterClass must be created to reconcile the Cluster"
        ]
    );
}

#[test]
fn cluster_for_class() {
    let mut class = class1();
    class.spec_value["kubernetesVersions"] = serde_json::json!(["v1.29.0", "v1.30.1"]);
    let new = c(
        "{spec: {topology: {workers: {machineDeployments: [{class: aa, name: md1}, {class: zz, name: md1}, {class: aa, name: ''}], machinePools: [{class: qq, name: mp1}]}}}}",
    );
    assert_eq!(
        msgs(&crate::validate::cluster(&new, None, Some(&class), None).errors),
        [
            "spec.topology.version: Invalid value: \"v1.30.0\": version must match one of the versions defined in the ClusterClass",
            "spec.topology.workers.machineDeployments[1].class: Invalid value: \"zz\": MachineDeploymentClass with name \"zz\" does not exist in ClusterClass \"class1\"",
            "spec.topology.workers.machineDeployments[1].name: Invalid value: \"md1\": name must be unique. MachineDeployment with name \"md1\" is defined more than once",
            "spec.topology.workers.machineDeployments[2].name: Required value: name must not be empty",
            "spec.topology.workers.machinePools[0].class: Invalid value: \"qq\": MachinePoolClass with name \"qq\" does not exist in ClusterClass \"class1\"",
        ]
    );
}

#[test]
fn health_checks() {
    // Enabled with a definition in the class: fine.
    assert_eq!(
        create(&c(
            "{spec: {topology: {workers: {machineDeployments: [{class: aa, name: md1, healthCheck: {enabled: true}}]}}}}"
        )),
        NONE
    );
    let out = crate::validate::cluster(
        &c(
            "{spec: {topology: {controlPlane: {healthCheck: {enabled: true}}, workers: {machineDeployments: [{class: nohc, name: md1, healthCheck: {enabled: true}}, {class: aa, name: md2, healthCheck: {checks: {nodeStartupTimeoutSeconds: 5}}}]}}}}",
        ),
        None,
        Some(&class1()),
        None,
    );
    assert_eq!(
        msgs(&out.errors),
        [
            "spec.topology.controlPlane.healthCheck.enable: Forbidden: cannot be set to true as healthCheck definition is not available in the Cluster topology or the ClusterClass",
            "spec.topology.workers.machineDeployments[md1].healthCheck.enable: Forbidden: cannot be set to true as healthCheck definition is not available in the Cluster topology or the ClusterClass",
            "spec.topology.workers.machineDeployments[md2].healthCheck.checks.nodeStartupTimeoutSeconds: Invalid value: 5: must be at least 30s",
        ]
    );
    assert_eq!(
        out.errors[0].path.pointer(),
        "/spec/topology/controlPlane/healthCheck/enabled"
    );
    let no_mi = class_with("{}");
    let out = crate::validate::cluster(
        &c(
            "{spec: {topology: {controlPlane: {healthCheck: {checks: {nodeStartupTimeoutSeconds: 40}}}, workers: {machineDeployments: [], machinePools: []}}}}",
        ),
        None,
        Some(&no_mi),
        None,
    );
    assert_eq!(
        msgs(&out.errors),
        [
            "spec.topology.controlPlane.healthCheck: Forbidden: can be only set if spec.controlPlane.machineInfrastructure is set in ClusterClass"
        ]
    );
}

#[test]
fn autoscaler_annotations_on_topologies() {
    assert_eq!(
        create(&c(
            "{spec: {topology: {workers: {machineDeployments: [{class: aa, name: md1, replicas: 2, metadata: {annotations: {cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size: '1'}}}]}}}}"
        )),
        [
            "spec.topology.workers.machineDeployments[md1].replicas: Invalid value: 2: cannot be set for cluster \"c1\" in namespace \"ns\" if the same MachineDeploymentTopology has autoscaler annotations"
        ]
    );
    assert_eq!(
        create(&c(
            "{spec: {topology: {workers: {machineDeployments: [{class: aa, name: md1, metadata: {annotations: {cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size: '1'}}}]}}}}"
        )),
        NONE
    );
}

#[test]
fn update_needs_the_class() {
    let out = crate::validate::cluster(&c("{}"), Some(&c("{}")), None, None);
    assert_eq!(
        msgs(&out.errors),
        ["spec.topology.class: Internal error: ClusterClass ns/class1 not found"]
    );
    assert_eq!(out.errors[0].path.pointer(), "/spec/topology/classRef/name");
}

#[test]
fn class_cannot_be_added_to_an_existing_cluster() {
    let old = c("{spec: {topology: null, infrastructureRef: {apiGroup: a, kind: K, name: x1}}}");
    let new = c("{spec: {infrastructureRef: {apiGroup: a, kind: K, name: x1}}}");
    assert_eq!(
        msgs(&update(&old, &new).errors),
        ["spec.topology.class: Forbidden: classRef cannot be set on an existing Cluster"]
    );
    let unsafe_new = c(
        "{metadata: {annotations: {unsafe.topology.cluster.x-k8s.io/disable-update-class-name-check: ''}}, spec: {infrastructureRef: {apiGroup: a, kind: K, name: x1}}}",
    );
    assert!(update(&old, &unsafe_new).is_ok());
}

#[test]
fn version_updates() {
    let old = c("{spec: {topology: {version: v1.30.2}}}");
    assert!(update(&old, &c("{spec: {topology: {version: v1.31.0}}}")).is_ok());
    assert_eq!(
        msgs(&update(&old, &c("{spec: {topology: {version: v1.30.1}}}")).errors),
        [
            "spec.topology.version: Invalid value: \"v1.30.1\": version cannot be decreased from \"1.30.2\" to \"1.30.1\""
        ]
    );
    assert_eq!(
        msgs(&update(&old, &c("{spec: {topology: {version: v1.32.0-rc.0}}}")).errors),
        [
            "spec.topology.version: Invalid value: \"v1.32.0-rc.0\": version cannot be increased from \"1.30.2\" to \"1.32.0-rc.0\""
        ]
    );
    let skipped = update(
        &old,
        &c(
            "{metadata: {annotations: {unsafe.topology.cluster.x-k8s.io/disable-update-version-check: ''}}, spec: {topology: {version: v1.28.0}}}",
        ),
    );
    assert!(skipped.is_ok());
    assert_eq!(
        skipped.warnings,
        [
            "Skipping version validation for Cluster because annotation \"unsafe.topology.cluster.x-k8s.io/disable-update-version-check\" is set."
        ]
    );
    assert_eq!(
        msgs(&update(&old, &c("{metadata: {annotations: {runtime.cluster.x-k8s.io/pending-hooks: 'BeforeClusterUpgrade,AfterClusterUpgrade'}}, spec: {topology: {version: v1.31.0}}}")).errors),
        ["spec.topology.version: Invalid value: \"v1.31.0\": version cannot be changed when the \"AfterClusterUpgrade\" hook is still blocking"]
    );
    // With kubernetesVersions in the class there is no ceiling (but the version must be listed).
    let mut class = class1();
    class.spec_value["kubernetesVersions"] = serde_json::json!(["v1.30.2", "v1.31.0", "v1.32.0"]);
    let out = crate::validate::cluster(
        &c("{spec: {topology: {version: v1.32.0}}}"),
        Some(&old),
        Some(&class),
        None,
    );
    assert!(out.is_ok(), "{:?}", out.errors);
}

/// Downgrades with pre-releases and build metadata, as Cluster API main's
/// `validateTopologyVersionUpdate` decides them: `version.Compare(in, old, WithoutPreReleases())`
/// ignores pre-release identifiers (and blang ignores build metadata), so a change inside one
/// `MAJOR.MINOR.PATCH` is not a decrease; a lower core version is one whatever its pre-release,
/// and the message quotes both versions as blang prints them (pre-release and build included).
/// (v1.10's webhook compared `WithBuildTags()`, pre-releases included; main does not. Cluster
/// API's "downgrading topology version - pre-release" case is refused only by the live
/// control-plane lookup that follows, which needs stored objects: see the golden cases of
/// `rollout`.)
#[test]
fn version_downgrades_with_pre_releases() {
    let at = |v: &str| c(&format!("{{spec: {{topology: {{version: {v}}}}}}}"));
    let decreased = |old: &str, new: &str| msgs(&update(&at(old), &at(new)).errors);
    assert_eq!(
        decreased("v1.30.2-xyz.2", "v1.30.1-xyz.3"),
        [
            "spec.topology.version: Invalid value: \"v1.30.1-xyz.3\": version cannot be decreased from \"1.30.2-xyz.2\" to \"1.30.1-xyz.3\""
        ]
    );
    assert_eq!(
        decreased("v1.30.2+build.2", "v1.30.1+build.9"),
        [
            "spec.topology.version: Invalid value: \"v1.30.1+build.9\": version cannot be decreased from \"1.30.2+build.2\" to \"1.30.1+build.9\""
        ]
    );
    assert_eq!(
        decreased("v1.30.2", "v1.30.1-rc.1"),
        [
            "spec.topology.version: Invalid value: \"v1.30.1-rc.1\": version cannot be decreased from \"1.30.2\" to \"1.30.1-rc.1\""
        ]
    );
    // Same core version: not a decrease for main's comparison, numeric identifiers or not.
    for (old, new) in [
        ("v1.30.2-xyz.2", "v1.30.2-xyz.1"),
        ("v1.30.2-rc.10", "v1.30.2-rc.9"),
        ("v1.30.2", "v1.30.2-rc.1"),
        ("v1.30.2+xyz.2", "v1.30.2+xyz.1"),
    ] {
        assert_eq!(decreased(old, new), Vec::<String>::new(), "{old} -> {new}");
    }
}

#[test]
fn class_changes() {
    let old = c("{spec: {topology: {classRef: {name: old-class}}}}");
    let new = c("{}");
    let class = class1();
    let out = crate::validate::cluster(&new, Some(&old), Some(&class), None);
    assert_eq!(
        msgs(&out.errors),
        [
            "spec.topology.class: Forbidden: valid ClusterClass with name \"ns/old-class\" could not be retrieved, change from class \"ns/old-class\" to class \"ns/class1\" cannot be validated. Error: clusterclasses.cluster.x-k8s.io \"old-class\" not found"
        ]
    );
    let mut old_class = class1();
    old_class.spec_value["infrastructure"]["templateRef"]["apiVersion"] =
        Value::from("other.io/v1");
    let out = crate::validate::cluster(&new, Some(&old), Some(&class), Some(&old_class));
    assert_eq!(
        msgs(&out.errors),
        [
            "spec.infrastructure.templateRef.apiVersion: Forbidden: group of apiVersion cannot be changed from \"other.io\" to \"infrastructure.cluster.x-k8s.io\" to prevent incompatible changes in the Clusters"
        ]
    );
    assert!(crate::validate::cluster(&new, Some(&old), Some(&class), Some(&class)).is_ok());
}

#[test]
fn topology_cannot_be_removed() {
    let new = c("{spec: {topology: null, infrastructureRef: {apiGroup: a, kind: K, name: x1}}}");
    assert_eq!(
        msgs(&update(&c("{}"), &new).errors),
        ["spec.topology: Forbidden: cannot be removed from an existing Cluster"]
    );
}

#[test]
fn v1beta1_clusters_are_checked_in_their_v1beta2_form() {
    let c = cluster(
        "
apiVersion: cluster.x-k8s.io/v1beta1
kind: Cluster
metadata: {name: c1, namespace: ns}
spec:
  topology:
    class: class1
    version: 1.30.0
    workers:
      machineDeployments: [{class: missing, name: md1}]
",
    );
    let out = crate::validate::cluster(&c, None, Some(&class1()), None);
    assert_eq!(
        msgs(&out.errors),
        [
            "spec.topology.workers.machineDeployments[0].class: Invalid value: \"missing\": MachineDeploymentClass with name \"missing\" does not exist in ClusterClass \"class1\""
        ]
    );
    assert_eq!(
        out.defaulted
            .and_then(|s| s.pointer("/topology/version").cloned()),
        Some(Value::from("v1.30.0"))
    );
}
