//! Desired-state rules pinned one by one (the compute functions of Cluster API's `exp/topology/desiredstate/desired_state.go` and their edge cases),
//! each on a small class written inline and checked through the JSON plan.

mod common;

use common::Test;
use serde_json::{Value, json};

/// A v1beta2 class with CP machine infrastructure; `extra_cp` / `extra_md` are spliced into the
/// control plane and the MachineDeployment class.
fn class(extra_cp: &str, extra_md: &str) -> String {
    format!(
        r#"apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {{name: c}}
spec:
  infrastructure:
    templateRef: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, name: infra}}
  controlPlane:
    templateRef: {{apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: cp}}
    machineInfrastructure:
      templateRef: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: m}}
{extra_cp}
  workers:
    machineDeployments:
    - class: w
      bootstrap:
        templateRef: {{apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: boot}}
      infrastructure:
        templateRef: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: m}}
{extra_md}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerClusterTemplate
metadata: {{name: infra}}
spec: {{template: {{spec: {{}}}}}}
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata: {{name: cp}}
spec: {{template: {{spec: {{kubeadmConfigSpec: {{}}}}}}}}
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata: {{name: boot}}
spec: {{template: {{spec: {{}}}}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerMachineTemplate
metadata: {{name: m}}
spec: {{template: {{spec: {{}}}}}}
"#
    )
}

/// A v1beta2 Cluster `name` with `extra_md` spliced into its one MachineDeployment topology.
fn cluster(name: &str, extra_cp: &str, extra_md: &str) -> String {
    format!(
        "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata: {{name: {name}}}\nspec:\n  topology:\n    classRef: {{name: c}}\n    version: v1.34.0\n    controlPlane:\n      replicas: 1\n{extra_cp}\n    workers:\n      machineDeployments:\n      - class: w\n        name: md-0\n{extra_md}\n"
    )
}

/// Plan the input and return the plan document.
fn plan(input: &str) -> Value {
    let out = Test::new()
        .file("in.yaml", input)
        .args(["plan", "-f", "in.yaml", "--output", "json"])
        .run();
    serde_json::from_str(out.ok()).expect("JSON plan")
}

/// The object with this role in the first cluster.
fn object<'a>(doc: &'a Value, role: &str) -> &'a Value {
    doc["clusters"][0]["objects"]
        .as_array()
        .and_then(|objs| objs.iter().find(|o| o["role"] == role))
        .map(|o| &o["object"])
        .unwrap_or_else(|| panic!("no object with role {role}"))
}

fn has_role(doc: &Value, role: &str) -> bool {
    doc["clusters"][0]["objects"]
        .as_array()
        .is_some_and(|objs| objs.iter().any(|o| o["role"] == role))
}

#[test]
fn overlong_names_are_cut_to_58_and_suffixed() {
    let long = "a".repeat(60);
    let doc = plan(&format!("{}---\n{}", class("", ""), cluster(&long, "", "")));
    let md = object(&doc, "MachineDeployment/md-0")["metadata"]["name"]
        .as_str()
        .expect("name")
        .to_string();
    assert_eq!(md.len(), 63, "{md}");
    assert!(md.starts_with(&"a".repeat(58)), "{md}");
    assert!(
        !md[58..].contains('a'),
        "5 fresh characters after the cut: {md}"
    );
    let tpl = object(&doc, "MachineDeployment/md-0/BootstrapTemplate")["metadata"]["name"]
        .as_str()
        .expect("name")
        .to_string();
    assert_eq!(tpl.len(), 63, "prefix cut to 58, then 5 characters: {tpl}");
}

#[test]
fn random_is_the_same_twice_in_one_template() {
    let doc = plan(&format!(
        "{}---\n{}",
        class(
            "    naming: {template: \"{{ .random }}-{{ .cluster.name }}-{{ .random }}\"}",
            ""
        ),
        cluster("x", "", "")
    ));
    let name = object(&doc, "ControlPlane")["metadata"]["name"]
        .as_str()
        .expect("name")
        .to_string();
    let parts: Vec<&str> = name.split('-').collect();
    assert_eq!(parts.len(), 3, "{name}");
    assert_eq!(parts[0], parts[2], "{name}");
    assert_eq!(parts[1], "x");
}

#[test]
fn rollout_after_alone_drops_the_class_strategy() {
    let doc = plan(&format!(
        "{}---\n{}",
        class("", "      rollout: {strategy: {type: OnDelete}}"),
        cluster(
            "x",
            "",
            "        rollout: {after: \"2026-01-01T00:00:00Z\"}"
        )
    ));
    assert_eq!(
        object(&doc, "MachineDeployment/md-0")["spec"]["rollout"],
        json!({"after": "2026-01-01T00:00:00Z"})
    );
    let doc = plan(&format!(
        "{}---\n{}",
        class("", "      rollout: {strategy: {type: OnDelete}}"),
        cluster("x", "", "")
    ));
    assert_eq!(
        object(&doc, "MachineDeployment/md-0")["spec"]["rollout"],
        json!({"strategy": {"type": "OnDelete"}})
    );
}

#[test]
fn max_in_flight_alone_enables_a_health_check_with_empty_checks() {
    let doc = plan(&format!(
        "{}---\n{}",
        class("", ""),
        cluster(
            "x",
            "",
            "        healthCheck: {remediation: {maxInFlight: 2}}"
        )
    ));
    let mhc = object(&doc, "MachineDeployment/md-0/MachineHealthCheck");
    assert_eq!(
        mhc["spec"]["checks"],
        json!({"nodeStartupTimeoutSeconds": 600})
    );
    assert!(
        mhc["spec"].get("remediation").is_none(),
        "maxInFlight is not an MHC field"
    );
    assert_eq!(
        object(&doc, "MachineDeployment/md-0")["spec"]["remediation"],
        json!({"maxInFlight": 2})
    );
}

#[test]
fn topology_health_check_is_all_or_nothing() {
    let class_hc = "      healthCheck:\n        checks: {nodeStartupTimeoutSeconds: 100, unhealthyNodeConditions: [{type: Ready, status: Unknown, timeoutSeconds: 1}]}\n        remediation: {triggerIf: {unhealthyInRange: \"[1-3]\"}}";
    let doc = plan(&format!(
        "{}---\n{}",
        class("", class_hc),
        cluster(
            "x",
            "",
            "        healthCheck: {checks: {nodeStartupTimeoutSeconds: 45}}"
        )
    ));
    let mhc = object(&doc, "MachineDeployment/md-0/MachineHealthCheck");
    assert_eq!(
        mhc["spec"]["checks"],
        json!({"nodeStartupTimeoutSeconds": 45})
    );
    assert!(
        mhc["spec"].get("remediation").is_none(),
        "nothing merged from the class"
    );

    let doc = plan(&format!(
        "{}---\n{}",
        class("", class_hc),
        cluster("x", "", "        healthCheck: {enabled: false}")
    ));
    assert!(!has_role(&doc, "MachineDeployment/md-0/MachineHealthCheck"));
}

#[test]
fn hold_and_defer_annotations_are_never_copied() {
    let doc = plan(&format!(
        "{}---\n{}",
        class(
            "",
            "      metadata: {annotations: {topology.cluster.x-k8s.io/hold-upgrade-sequence: \"\", keep: class}}"
        ),
        cluster(
            "x",
            "",
            "        metadata: {annotations: {topology.cluster.x-k8s.io/defer-upgrade: \"\", keep: topo}}"
        )
    ));
    let md = object(&doc, "MachineDeployment/md-0");
    assert_eq!(md["metadata"]["annotations"], json!({"keep": "topo"}));
    assert_eq!(
        md["spec"]["template"]["metadata"]["annotations"],
        json!({"keep": "topo"})
    );
}

#[test]
fn control_plane_metadata_and_precedence() {
    let doc = plan(&format!(
        "{}---\n{}",
        class(
            "    metadata: {labels: {a: class, b: class}}\n    readinessGates: [{conditionType: FromClass}]\n    deletion: {nodeDrainTimeoutSeconds: 10, nodeDeletionTimeoutSeconds: 20}",
            ""
        ),
        cluster(
            "x",
            "      metadata: {labels: {a: topo}}\n      deletion: {nodeDrainTimeoutSeconds: 30}\n      rollout: {after: \"2026-02-02T00:00:00Z\"}",
            ""
        )
    ));
    let cp = object(&doc, "ControlPlane");
    assert_eq!(cp["metadata"]["labels"]["a"], "topo");
    assert_eq!(cp["metadata"]["labels"]["b"], "class");
    let mt = &cp["spec"]["machineTemplate"];
    assert_eq!(mt["metadata"]["labels"]["a"], "topo");
    assert_eq!(
        mt["metadata"]["labels"]["cluster.x-k8s.io/cluster-name"],
        "x"
    );
    assert_eq!(
        mt["spec"]["readinessGates"],
        json!([{"conditionType": "FromClass"}])
    );
    assert_eq!(
        mt["spec"]["deletion"],
        json!({"nodeDrainTimeoutSeconds": 30, "nodeDeletionTimeoutSeconds": 20})
    );
    assert_eq!(
        mt["spec"]["infrastructureRef"]["apiGroup"],
        "infrastructure.cluster.x-k8s.io"
    );
    assert_eq!(
        cp["spec"]["rollout"],
        json!({"after": "2026-02-02T00:00:00Z"})
    );
    assert_eq!(cp["spec"]["replicas"], 1);
    assert_eq!(cp["spec"]["version"], "v1.34.0");
    assert_eq!(
        cp["metadata"]["ownerReferences"],
        json!([{"apiVersion": "v1", "kind": "Secret", "name": "x-shim"}])
    );
}

#[test]
fn v1beta1_contract_control_plane_under_a_v1beta2_cluster() {
    let input = format!(
        "{}---\n{}",
        class("    deletion: {nodeDrainTimeoutSeconds: 300}", ""),
        cluster("x", "", "")
    )
    .replace(
        "controlplane.cluster.x-k8s.io/v1beta2",
        "controlplane.cluster.x-k8s.io/v1beta1",
    );
    let doc = plan(&input);
    let mt = &object(&doc, "ControlPlane")["spec"]["machineTemplate"];
    let infra_name =
        object(&doc, "ControlPlaneInfrastructureMachineTemplate")["metadata"]["name"].clone();
    assert_eq!(
        mt["infrastructureRef"],
        json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DockerMachineTemplate", "name": infra_name, "namespace": "default"})
    );
    assert_eq!(mt["nodeDrainTimeout"], "5m0s");
    assert!(mt.get("spec").is_none());
}

#[test]
fn no_machine_infrastructure_means_no_cp_template_metadata() {
    let input = format!("{}---\n{}", class("", ""), cluster("x", "", "")).replace(
        "    machineInfrastructure:\n      templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: m}\n",
        "",
    );
    let doc = plan(&input);
    assert!(!has_role(&doc, "ControlPlaneInfrastructureMachineTemplate"));
    assert!(!has_role(&doc, "ControlPlaneMachineHealthCheck"));
    assert!(
        object(&doc, "ControlPlane")["spec"]
            .get("machineTemplate")
            .is_none()
    );
}

#[test]
fn a_control_plane_health_check_without_machine_infrastructure_is_refused() {
    // Cluster API's ClusterClass webhook rejects this class, so there is nothing to plan.
    let input = format!(
        "{}---\n{}",
        class("    healthCheck: {checks: {nodeStartupTimeoutSeconds: 60}}", ""),
        cluster("x", "", "")
    )
    .replace(
        "    machineInfrastructure:\n      templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: m}\n",
        "",
    );
    Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml"])
        .status(1)
        .stderr_contains("spec.controlPlane.healthCheck: Forbidden: can be only set if spec.controlPlane.machineInfrastructure is set")
        .run();
}

#[test]
fn template_kind_and_api_version_come_from_spec_template_when_set() {
    let input = format!("{}---\n{}", class("", ""), cluster("x", "", "")).replace(
        "spec: {template: {spec: {}}}\n---\napiVersion: controlplane",
        "spec: {template: {apiVersion: infrastructure.cluster.x-k8s.io/v1alpha9, kind: SpecialCluster, spec: {}}}\n---\napiVersion: controlplane",
    );
    let doc = plan(&input);
    let infra = object(&doc, "InfrastructureCluster");
    assert_eq!(infra["kind"], "SpecialCluster");
    assert_eq!(
        infra["apiVersion"],
        "infrastructure.cluster.x-k8s.io/v1alpha9"
    );
    assert_eq!(
        infra["metadata"]["annotations"]["cluster.x-k8s.io/cloned-from-groupkind"],
        "DockerClusterTemplate.infrastructure.cluster.x-k8s.io"
    );
    let cluster = object(&doc, "Cluster");
    assert_eq!(
        cluster["spec"]["infrastructureRef"],
        json!({"apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "SpecialCluster", "name": infra["metadata"]["name"]})
    );
}

#[test]
fn cluster_gets_topology_labels_refs_and_a_prefixed_version() {
    let input = format!("{}---\n{}", class("", ""), cluster("x", "", ""))
        .replace("version: v1.34.0", "version: 1.34.0");
    let doc = plan(&input);
    let c = object(&doc, "Cluster");
    assert_eq!(
        c["metadata"]["labels"],
        json!({"cluster.x-k8s.io/cluster-name": "x", "topology.cluster.x-k8s.io/owned": ""})
    );
    assert_eq!(c["spec"]["topology"]["version"], "v1.34.0");
    assert_eq!(object(&doc, "ControlPlane")["spec"]["version"], "v1.34.0");
    assert_eq!(
        object(&doc, "MachineDeployment/md-0")["spec"]["template"]["spec"]["version"],
        "v1.34.0"
    );
    let shim = object(&doc, "ClusterShim");
    assert_eq!(shim["type"], "cluster.x-k8s.io/secret");
}

#[test]
fn owner_references_carry_the_cluster_uid_when_known() {
    let input = format!("{}---\n{}", class("", ""), cluster("x", "", ""))
        .replace("metadata: {name: x}", "metadata: {name: x, uid: 1234-abcd}");
    let doc = plan(&input);
    assert_eq!(
        object(&doc, "MachineDeployment/md-0/BootstrapTemplate")["metadata"]["ownerReferences"],
        json!([{"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster", "name": "x", "uid": "1234-abcd"}])
    );
}

#[test]
fn empty_readiness_gates_reach_the_control_plane_but_not_a_machine_deployment() {
    // Only v1beta1 can express `[]` (v1beta2 requires MinItems=1).
    let input = std::fs::read_to_string(
        common::repo().join("testdata/examples/quick-start-v1beta1/clusterclass.yaml"),
    )
    .expect("fixture")
        + "---\n"
        + &std::fs::read_to_string(
            common::repo().join("testdata/examples/quick-start-v1beta1/templates.yaml"),
        )
        .expect("fixture")
        + "---\n"
        + &std::fs::read_to_string(
            common::repo().join("testdata/examples/quick-start-v1beta1/cluster.yaml"),
        )
        .expect("fixture")
        .replace(
            "      replicas: 3\n",
            "      replicas: 3\n      readinessGates: []\n",
        )
        .replace(
            "        replicas: 2\n",
            "        replicas: 2\n        readinessGates: []\n",
        );
    let doc = plan(&input);
    assert_eq!(
        object(&doc, "ControlPlane")["spec"]["machineTemplate"]["readinessGates"],
        json!([])
    );
    assert!(
        object(&doc, "MachineDeployment/md-0")["spec"]["template"]["spec"]
            .get("readinessGates")
            .is_none()
    );
}

#[test]
fn json_input_files_are_read() {
    let cluster_json = r#"{"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster", "metadata": {"name": "j"},
        "spec": {"topology": {"classRef": {"name": "c"}, "version": "v1.34.0"}}}"#;
    Test::new()
        .file("class.yaml", &class("", ""))
        .file("cluster.json", cluster_json)
        .args(["plan", "-f", "."])
        .stdout_matches(r"\ACluster default/j \(ClusterClass default/c\):")
        .run();
}

#[test]
fn written_yaml_reads_back_as_the_planned_objects() {
    let out = Test::new()
        .fixture("testdata/examples/quick-start", "qs")
        .args([
            "plan",
            "-f",
            "qs",
            "--output",
            "json",
            "--output-dir",
            "out",
        ])
        .run();
    let doc: Value = serde_json::from_str(out.ok()).expect("json");
    for o in doc["clusters"][0]["objects"].as_array().expect("objects") {
        let path = out.dir.path().join(format!(
            "out/team-a/dev/{}/{}_{}_{}.yaml",
            o["action"].as_str().expect("action"),
            o["kind"].as_str().expect("kind"),
            o["namespace"].as_str().expect("ns"),
            o["name"].as_str().expect("name")
        ));
        let text = std::fs::read_to_string(&path).expect("file written");
        let back = topoplan::load::yaml::parse_value(&text).expect("re-read");
        assert_eq!(back, o["object"], "{}", path.display());
    }
}

#[test]
fn kind_mismatch_is_named() {
    let input = format!("{}---\n{}", class("", ""), cluster("x", "", "")).replace(
        "kind: KubeadmConfigTemplate\nmetadata: {name: boot}",
        "kind: KubeadmConfig\nmetadata: {name: boot}",
    );
    Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml"])
        .status(1)
        .stderr_contains("kind mismatch: the input has default/boot as KubeadmConfig")
        .run();
}

/// The v1beta1 fixture (class, templates, cluster) with `edit` applied to the joined text.
fn v1beta1(edit: impl Fn(String) -> String) -> String {
    let read = |f: &str| {
        std::fs::read_to_string(
            common::repo()
                .join("testdata/examples/quick-start-v1beta1")
                .join(f),
        )
        .expect("fixture")
    };
    edit(format!(
        "{}---\n{}---\n{}",
        read("clusterclass.yaml"),
        read("templates.yaml"),
        read("cluster.yaml")
    ))
}

#[test]
fn v1beta1_max_in_flight_does_not_make_a_health_check() {
    // Cluster API v1.10 kept maxInFlight in the strategy: it neither enables an MHC on a class
    // without one nor replaces the class's MHC when a topology sets it.
    let doc = plan(&v1beta1(|s| {
        s.replace(
            "      machineHealthCheck:\n        maxUnhealthy: 40%\n        unhealthyConditions:\n        - type: Ready\n          status: Unknown\n          timeout: 5m\n",
            "",
        )
    }));
    assert!(!has_role(&doc, "MachineDeployment/md-0/MachineHealthCheck"));
    assert_eq!(
        object(&doc, "MachineDeployment/md-0")["spec"]["strategy"]["remediation"],
        json!({"maxInFlight": 1})
    );

    let doc = plan(&v1beta1(|s| {
        s.replace(
            "      - class: general\n        name: md-0\n        replicas: 2\n",
            "      - class: general\n        name: md-0\n        replicas: 2\n        strategy: {remediation: {maxInFlight: 3}}\n",
        )
    }));
    let mhc = object(&doc, "MachineDeployment/md-0/MachineHealthCheck");
    assert_eq!(
        mhc["spec"]["maxUnhealthy"], "40%",
        "the class MHC, untouched"
    );
    assert_eq!(
        object(&doc, "MachineDeployment/md-0")["spec"]["strategy"],
        json!({"remediation": {"maxInFlight": 3}})
    );
}

#[test]
fn v1beta1_remediation_template_namespace() {
    let doc = plan(&v1beta1(|s| {
        s.replace(
            "        maxUnhealthy: 40%\n",
            "        maxUnhealthy: 40%\n        remediationTemplate: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: DockerMachineRemediationTemplate, name: r}\n",
        )
    }));
    assert_eq!(
        object(&doc, "MachineDeployment/md-0/MachineHealthCheck")["spec"]["remediationTemplate"],
        json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "DockerMachineRemediationTemplate", "name": "r", "namespace": "default"})
    );
}

#[test]
fn v1beta1_fields_after_v1_10_are_ignored_with_a_warning() {
    let input = v1beta1(|s| {
        s.replace(
            "      replicas: 3\n",
            "      replicas: 3\n      taints: [{key: a, effect: NoSchedule}]\n",
        )
    });
    let out = Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml", "--output", "json"])
        // Cluster API v1.10's CRD does not declare it: the API server drops it, and says so.
        .stderr_contains("topoplan::schema::pruned")
        .stderr_contains("unknown field \"spec.topology.controlPlane.taints\"")
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("json");
    assert!(
        object(&doc, "ControlPlane")["spec"]["machineTemplate"]
            .get("taints")
            .is_none()
    );
}

#[test]
fn v1beta1_empty_strategy_is_sent() {
    let doc = plan(&v1beta1(|s| {
        s.replace(
            "        strategy:\n          type: RollingUpdate\n",
            "        strategy: {}\n",
        )
    }));
    assert_eq!(
        object(&doc, "MachineDeployment/md-1")["spec"]["strategy"],
        json!({})
    );
}

#[test]
fn owner_references_from_the_template_are_kept() {
    let input = format!("{}---\n{}", class("", ""), cluster("x", "", "")).replace(
        "spec: {template: {spec: {}}}\n---\napiVersion: controlplane",
        "spec: {template: {metadata: {ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: keep, uid: u}]}, spec: {}}}\n---\napiVersion: controlplane",
    );
    let doc = plan(&input);
    assert_eq!(
        object(&doc, "InfrastructureCluster")["metadata"]["ownerReferences"],
        json!([{"apiVersion": "v1", "kind": "ConfigMap", "name": "keep", "uid": "u"}, {"apiVersion": "v1", "kind": "Secret", "name": "x-shim"}])
    );
}

#[test]
fn control_plane_contract_comes_from_the_crd_when_given() {
    let crd = |labels: &str| {
        format!(
            "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: kubeadmcontrolplanes.controlplane.cluster.x-k8s.io\n  labels: {{{labels}}}\nspec:\n  group: controlplane.cluster.x-k8s.io\n  names: {{kind: KubeadmControlPlane, plural: kubeadmcontrolplanes}}\n"
        )
    };
    // A v1alpha1 API that implements the v1beta2 contract: v1beta2 paths.
    let base = format!(
        "{}---\n{}",
        class("    deletion: {nodeDrainTimeoutSeconds: 300}", ""),
        cluster("x", "", "")
    )
    .replace(
        "controlplane.cluster.x-k8s.io/v1beta2",
        "controlplane.cluster.x-k8s.io/v1alpha1",
    );
    let doc = plan(&(base.clone() + &crd("cluster.x-k8s.io/v1beta2: v1alpha1")));
    let mt = &object(&doc, "ControlPlane")["spec"]["machineTemplate"];
    assert_eq!(mt["spec"]["deletion"]["nodeDrainTimeoutSeconds"], 300);
    // Without the CRD the name decides: v1alpha1 → the v1beta1 contract.
    let doc = plan(&base);
    assert_eq!(
        object(&doc, "ControlPlane")["spec"]["machineTemplate"]["nodeDrainTimeout"],
        "5m0s"
    );
    // A CRD that lists no contract for the version is Cluster API's error.
    Test::new()
        .file(
            "in.yaml",
            &(base + &crd("cluster.x-k8s.io/v1beta2: v1beta2")),
        )
        .args(["plan", "-f", "in.yaml"])
        .status(1)
        .stderr_contains("cannot find any contract version matching version v1alpha1 for CRD")
        .run();
}

#[test]
fn template_without_spec_template() {
    // Cluster API main tolerates it (an object without spec); v1.10 refused it.
    let doc = plan(
        &format!("{}---\n{}", class("", ""), cluster("x", "", "")).replace(
            "kind: DockerClusterTemplate\nmetadata: {name: infra}\nspec: {template: {spec: {}}}",
            "kind: DockerClusterTemplate\nmetadata: {name: infra}\nspec: {}",
        ),
    );
    assert!(object(&doc, "InfrastructureCluster").get("spec").is_none());
    let input = v1beta1(|s| {
        s.replace(
            "  name: docker-small-cluster\nspec:\n  template:\n    metadata:",
            "  name: docker-small-cluster\nspec:\n  notATemplate:\n    metadata:",
        )
    });
    Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml"])
        .status(1)
        .stderr_contains("missing Spec.Template on infrastructure.cluster.x-k8s.io/v1beta1, Kind=DockerClusterTemplate")
        .run();
}

#[test]
fn rollout_after_is_written_in_utc_to_the_second() {
    let doc = plan(&format!(
        "{}---\n{}",
        class("", ""),
        cluster(
            "x",
            "      rollout: {after: \"2030-01-01T12:00:00+02:00\"}",
            "        rollout: {after: \"2030-01-01T12:00:00.5Z\"}"
        )
    ));
    assert_eq!(
        object(&doc, "ControlPlane")["spec"]["rollout"]["after"],
        "2030-01-01T10:00:00Z"
    );
    assert_eq!(
        object(&doc, "MachineDeployment/md-0")["spec"]["rollout"]["after"],
        "2030-01-01T12:00:00Z"
    );
    Test::new()
        .file(
            "in.yaml",
            &format!(
                "{}---\n{}",
                class("", ""),
                cluster("x", "      rollout: {after: soon}", "")
            ),
        )
        .args(["plan", "-f", "in.yaml"])
        .status(1)
        // The CRD's date-time format refuses it before Cluster API reads it.
        .stderr_contains(
            "spec.topology.controlPlane.rollout.after: Invalid value: \"soon\": spec.topology.controlPlane.rollout.after in body must be of type date-time: \"soon\"",
        )
        .run();
}
