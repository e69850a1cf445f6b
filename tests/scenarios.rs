//! Scenarios: a minimal v1beta2 ClusterClass and Cluster built by `common::scenario::Plan`,
//! changed in one respect per test, planned, and the generated objects checked.

mod common;

use common::scenario::{
    Plan, WORKER_CLASS, control_plane, infrastructure_cluster, md_bootstrap, md_infrastructure,
};
use serde_json::json;

#[test]
fn the_minimal_class_plans_the_expected_objects() {
    let plan = Plan::new()
        .machine_deployment("md-0", WORKER_CLASS, 1)
        .plan(&[]);
    let mut roles: Vec<&str> = plan
        .objects()
        .iter()
        .map(|o| o["role"].as_str().unwrap_or("?"))
        .collect();
    roles.sort_unstable();
    assert_eq!(
        roles,
        [
            "Cluster",
            "ClusterShim",
            "ControlPlane",
            "InfrastructureCluster",
            "MachineDeployment/md-0",
            "MachineDeployment/md-0/BootstrapTemplate",
            "MachineDeployment/md-0/InfrastructureMachineTemplate",
        ]
    );
    assert!(plan.warnings().is_empty(), "{:?}", plan.warnings());
    assert_eq!(plan.role("Cluster")["action"], "modified");
    assert_eq!(plan.role("ControlPlane")["action"], "created");
}

/// The builder's MachinePool class plans, with Docker's kinds and with the Dev provider's.
#[test]
fn a_machine_pool_plans_with_either_provider() {
    for provider in ["Docker", "Dev"] {
        let plan = Plan::new()
            .infrastructure_provider(provider)
            .machine_pool("mp-0", "default-pool", 2)
            .plan(&[]);
        assert_eq!(plan.at("MachinePool/mp-0", "/spec/replicas"), &json!(2));
        assert_eq!(
            plan.at("MachinePool/mp-0/InfrastructureMachinePool", "/kind"),
            &json!(format!("{provider}MachinePool"))
        );
        assert!(plan.warnings().is_empty(), "{:?}", plan.warnings());
    }
}

#[test]
fn a_variable_reaches_the_control_plane_through_a_patch() {
    let plan = Plan::new()
        .variable("imageRepository", json!({"type": "string"}))
        .value("imageRepository", json!("registry.example/k8s"))
        .patch(
            "image-repository",
            control_plane(),
            json!([{
                "op": "add",
                "path": "/spec/template/spec/kubeadmConfigSpec/clusterConfiguration",
                "valueFrom": {"template": "imageRepository: {{ .imageRepository }}"},
            }]),
        )
        .plan(&[]);
    assert_eq!(
        plan.at(
            "ControlPlane",
            "/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository"
        ),
        "registry.example/k8s"
    );
}

#[test]
fn a_schema_default_is_used_when_the_cluster_sets_no_value() {
    let plan = Plan::new()
        .variable(
            "lbImage",
            json!({"type": "string", "default": "kindest/haproxy"}),
        )
        .patch(
            "lb",
            infrastructure_cluster(),
            json!([{
                "op": "add",
                "path": "/spec/template/spec/loadBalancer",
                "valueFrom": {"template": "imageRepository: {{ .lbImage }}-{{ .builtin.cluster.name }}"},
            }]),
        )
        .plan(&[]);
    assert_eq!(
        plan.at(
            "InfrastructureCluster",
            "/spec/loadBalancer/imageRepository"
        ),
        "kindest/haproxy-demo"
    );
}

#[test]
fn machine_deployments_get_their_replicas_and_names() {
    let plan = Plan::new()
        .worker_class("big")
        .machine_deployment("md-0", WORKER_CLASS, 1)
        .machine_deployment("md-1", "big", 5)
        .plan(&[]);
    assert_eq!(plan.all_of_kind("MachineDeployment").len(), 2);
    assert_eq!(plan.at("MachineDeployment/md-0", "/spec/replicas"), 1);
    assert_eq!(plan.at("MachineDeployment/md-1", "/spec/replicas"), 5);
    let md1 = plan.role("MachineDeployment/md-1");
    assert!(
        md1["name"]
            .as_str()
            .is_some_and(|n| n.starts_with("demo-md-1-")),
        "{}",
        md1["name"]
    );
    assert_eq!(
        plan.at(
            "MachineDeployment/md-1",
            "/metadata/labels/topology.cluster.x-k8s.io~1deployment-name"
        ),
        "md-1"
    );
}

#[test]
fn a_selector_patches_only_the_worker_class_it_names() {
    let plan = Plan::new()
        .worker_class("big")
        .patch(
            "big-image",
            md_infrastructure(&["big"]),
            json!([{"op": "add", "path": "/spec/template/spec/customImage", "value": "kindest/node:big"}]),
        )
        .machine_deployment("small", WORKER_CLASS, 1)
        .machine_deployment("large", "big", 1)
        .plan(&[]);
    assert_eq!(
        plan.at(
            "MachineDeployment/large/InfrastructureMachineTemplate",
            "/spec/template/spec/customImage"
        ),
        "kindest/node:big"
    );
    assert_eq!(
        plan.get(
            "MachineDeployment/small/InfrastructureMachineTemplate",
            "/spec/template/spec/customImage"
        ),
        None,
        "the selector names only the big class"
    );
}

#[test]
fn builtins_differ_per_machine_deployment() {
    let plan = Plan::new()
        .patch(
            "md-file",
            md_bootstrap(&[WORKER_CLASS]),
            json!([{
                "op": "add",
                "path": "/spec/template/spec/files",
                "valueFrom": {"template": "- path: /etc/md\n  content: {{ .builtin.machineDeployment.topologyName }}/{{ .builtin.machineDeployment.replicas }}"},
            }]),
        )
        .machine_deployment("md-a", WORKER_CLASS, 2)
        .machine_deployment("md-b", WORKER_CLASS, 4)
        .plan(&[]);
    assert_eq!(
        plan.at(
            "MachineDeployment/md-a/BootstrapTemplate",
            "/spec/template/spec/files/0/content"
        ),
        "md-a/2"
    );
    assert_eq!(
        plan.at(
            "MachineDeployment/md-b/BootstrapTemplate",
            "/spec/template/spec/files/0/content"
        ),
        "md-b/4"
    );
}

#[test]
fn a_disabled_patch_changes_nothing() {
    let patch = |enabled: bool| {
        Plan::new()
            .variable("proxy", json!({"type": "boolean"}))
            .value("proxy", json!(enabled))
            .raw_patch(json!({
                "name": "proxy",
                "enabledIf": "{{ .proxy }}",
                "definitions": [{
                    "selector": control_plane(),
                    "jsonPatches": [{
                        "op": "add",
                        "path": "/spec/template/spec/kubeadmConfigSpec/files",
                        "value": [{"path": "/etc/proxy", "content": "on"}],
                    }],
                }],
            }))
            .plan(&[])
    };
    let on = patch(true);
    assert_eq!(
        on.at("ControlPlane", "/spec/kubeadmConfigSpec/files/0/path"),
        "/etc/proxy"
    );
    let off = patch(false);
    assert_eq!(
        off.get("ControlPlane", "/spec/kubeadmConfigSpec/files"),
        None
    );
}

#[test]
fn namespace_names_and_version_reach_the_objects() {
    let scenario = Plan::new()
        .namespace("team-x")
        .class_name("small")
        .cluster_name("edge")
        .version("v1.33.2")
        .control_plane_replicas(3);
    let plan = scenario.plan(&[]);
    assert_eq!(plan.at("ControlPlane", "/spec/version"), "v1.33.2");
    assert_eq!(plan.at("ControlPlane", "/spec/replicas"), 3);
    assert_eq!(plan.at("ControlPlane", "/metadata/namespace"), "team-x");
    assert_eq!(plan.clusters()[0]["name"], "edge");
    assert_eq!(plan.clusters()[0]["clusterClass"]["name"], "small");
    scenario
        .plan_test(&[])
        .stdout_contains("Cluster team-x/edge (ClusterClass team-x/small):")
        .run();
}

#[test]
fn an_undefined_variable_is_refused_by_admission() {
    Plan::new()
        .value("colour", json!("blue"))
        .plan_test(&[])
        .status(1)
        .stdout("")
        .stderr_contains(
            "Cluster.cluster.x-k8s.io \"demo\" is invalid: spec.topology.variables[colour]: Invalid value: \"\\\"blue\\\"\": variable is not defined",
        )
        .stderr_contains("[cluster.yaml:")
        .run();
}

#[test]
fn a_required_variable_must_be_set() {
    Plan::new()
        .required_variable("region", json!({"type": "string"}))
        .plan_test(&[])
        .status(1)
        .stdout("")
        .stderr_contains(
            "spec.topology.variables: Required value: required variable \"region\" must be set",
        )
        .run();
}

#[test]
fn a_value_outside_its_schema_is_refused() {
    Plan::new()
        .variable("cpu", json!({"type": "integer", "minimum": 1}))
        .value("cpu", json!(0))
        .plan_test(&[])
        .status(1)
        .stderr_contains("spec.topology.variables[cpu].value: Invalid value: \"0\": should be greater than or equal to 1")
        .run();
}

#[test]
fn extra_files_are_read_too() {
    // A second Cluster of the same class, in a file of its own.
    let plan = Plan::new()
        .file(
            "second.yaml",
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata: {name: other}\nspec:\n  topology:\n    classRef: {name: demo-class}\n    version: v1.34.0\n",
        )
        .plan(&[]);
    let names: Vec<&str> = plan
        .clusters()
        .iter()
        .map(|c| c["name"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(names, ["demo", "other"]);
}

#[test]
fn no_objects_leaves_the_objects_out_and_keeps_the_verdicts() {
    let p = Plan::new().machine_deployment("md-0", WORKER_CLASS, 1);
    let whole = p.plan(&[]);
    let slim = p.plan(&["--no-objects"]);
    assert_eq!(whole.objects().len(), slim.objects().len());
    for (w, s) in whole.objects().iter().zip(slim.objects()) {
        assert!(w.get("object").is_some());
        assert!(s.get("object").is_none(), "{s}");
        for k in ["action", "role", "kind", "name", "namespace"] {
            assert_eq!(w[k], s[k], "{k}");
        }
    }
    assert!(slim.out.stdout.len() * 3 < whole.out.stdout.len());
    // YAML too.
    p.plan_test(&["-o", "yaml", "--no-objects"])
        .stdout_contains("action: created")
        .stdout_lacks("object:")
        .run();
}

#[test]
fn diff_no_objects_leaves_the_objects_out() {
    let old = Plan::new();
    let new = Plan::new().version("v1.34.1");
    let out = common::Test::new()
        .file("old/class.yaml", &old.class_yaml())
        .file("old/cluster.yaml", &old.cluster_yaml())
        .file("new/class.yaml", &new.class_yaml())
        .file("new/cluster.yaml", &new.cluster_yaml())
        .args(["diff", "old", "new", "-o", "json", "--no-objects"])
        .run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
    let objects = doc["clusters"][0]["objects"].as_array().expect("objects");
    assert!(!objects.is_empty());
    assert!(objects.iter().all(|o| o.get("object").is_none()));
    assert!(
        objects.iter().any(|o| o.get("diff").is_some()),
        "diffs stay"
    );
}

#[test]
fn cluster_by_name_alone() {
    let a = Plan::new().namespace("team-a");
    let b = Plan::new().namespace("team-b").cluster_name("other");
    let same_name_b = Plan::new().namespace("team-b");
    let t = || {
        common::Test::new()
            .file("a/class.yaml", &a.class_yaml())
            .file("a/cluster.yaml", &a.cluster_yaml())
            .file("b/class.yaml", &b.class_yaml())
            .file("b/cluster.yaml", &b.cluster_yaml())
    };
    // Unique: found in whichever namespace holds it.
    let out = t()
        .args(["plan", "-f", ".", "--cluster", "other", "-o", "json"])
        .stdout_json("/clusters/0/namespace", "team-b")
        .run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(doc["clusters"].as_array().map(Vec::len), Some(1));
    // Several namespaces hold the name: an error naming them, unless -n says which.
    t().file("c/cluster.yaml", &same_name_b.cluster_yaml())
        .args(["plan", "-f", ".", "--cluster", "demo"])
        .status(1)
        .stderr_contains(
            "--cluster demo: Clusters of that name are in 2 namespaces (team-a, team-b)",
        )
        .run();
    t().file("c/cluster.yaml", &same_name_b.cluster_yaml())
        .args(["plan", "-f", ".", "--cluster", "team-a/demo", "-o", "json"])
        .stdout_json("/clusters/0/namespace", "team-a")
        .run();
    // -n does not pick among objects of several namespaces: as kubectl, it refuses the objects
    // whose own namespace contradicts it.
    t().file("c/cluster.yaml", &same_name_b.cluster_yaml())
        .args(["plan", "-f", ".", "--cluster", "demo", "-n", "team-a"])
        .status(1)
        .stderr_contains(
            r#"the namespace from the provided object "team-b" does not match the namespace "team-a""#,
        )
        .run();
}

/// A patch that removes a template's `spec.template.spec` leaves the generated object the
/// class template's (Cluster API copies back only paths the patched template still has); the
/// engine moves that spec out of the object while patches run, so it must put it back.
#[test]
fn a_removed_template_spec_leaves_the_class_templates() {
    let plan = Plan::new()
        .patch(
            "image",
            md_infrastructure(&[WORKER_CLASS]),
            json!([{"op": "add", "path": "/spec/template/spec/customImage", "value": "kindest/node:x"}]),
        )
        .patch(
            "drop",
            md_infrastructure(&[WORKER_CLASS]),
            json!([{"op": "remove", "path": "/spec/template/spec"}]),
        )
        .machine_deployment("md-0", WORKER_CLASS, 1)
        .plan(&[]);
    assert_eq!(
        plan.get(
            "MachineDeployment/md-0/InfrastructureMachineTemplate",
            "/spec/template/spec"
        ),
        Some(&json!({}))
    );
}
