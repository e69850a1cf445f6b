//! `-f` as the change, `--current` as the management cluster: the nine cases Cluster API's tests
//! gave `clusterctl alpha topology plan` (`cmd/clusterctl/client/cluster/topology_test.go`,
//! v1.10), run as upstream ran them — the input holds only the changed objects, the existing
//! objects are the management cluster — and asserting upstream's assertions (affected
//! ClusterClasses and Clusters as sets, objects created and modified) and what the topology
//! controller does beyond them: every object of each affected Cluster whose verdict is not
//! `unchanged`, by name.
//!
//! The management cluster is `testdata/topology-plan/existing/` (what the controller created
//! for `clusters.yaml`, see `regen.sh` there; my-cluster's MachinePool not yet, as upstream's
//! state had none), the stored class and templates `class/class.yaml`, and the providers' CRDs
//! `testdata/crds/`. Upstream reconciled a single target Cluster (none when several were
//! affected and none was named); topoplan plans every affected Cluster, so the cases without a
//! target list both Clusters' objects.

mod common;

use common::Test;
use serde_json::Value;

/// The management cluster: the providers' CRDs, the stored class with its templates, and the
/// objects of both Clusters.
fn management_cluster(t: Test) -> Test {
    t.fixture("testdata/topology-plan/existing", "state/objects")
        .fixture("testdata/crds", "state/crds")
        .file(
            "state/class.yaml",
            &std::fs::read_to_string(
                common::repo().join("testdata/topology-plan/class/class.yaml"),
            )
            .expect("class fixture"),
        )
}

fn change(t: Test, name: &str) -> Test {
    let text = std::fs::read_to_string(
        common::repo().join(format!("testdata/topology-plan/change/{name}")),
    )
    .expect("change fixture");
    t.file(&format!("change/{name}"), &text)
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|x| s(x).to_string()).collect())
        .unwrap_or_default()
}

/// Every object whose verdict is not `unchanged`: `cluster action kind name`, in plan order.
fn changes(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for c in doc["clusters"].as_array().into_iter().flatten() {
        for o in c["objects"].as_array().into_iter().flatten() {
            if s(&o["action"]) != "unchanged" {
                out.push(format!(
                    "{}/{} {} {} {}",
                    s(&c["namespace"]),
                    s(&c["name"]),
                    s(&o["action"]),
                    s(&o["kind"]),
                    s(&o["name"])
                ));
            }
        }
    }
    out
}

/// Plan `change/` against the management cluster with `extra` flags; the plan document.
#[track_caller]
fn plan(t: Test, extra: &[&str]) -> Value {
    let out = t
        .args(["plan", "-f", "change", "--current", "state", "-o", "json"])
        .args(extra.iter().copied())
        .run();
    serde_json::from_str(out.ok()).expect("plan document")
}

#[track_caller]
fn assert_affected(doc: &Value, classes: &[&str], clusters: &[&str], left_alone: u64) {
    assert_eq!(
        strings(&doc["affected"]["clusterClasses"]),
        classes,
        "{doc:#}"
    );
    assert_eq!(strings(&doc["affected"]["clusters"]), clusters, "{doc:#}");
    assert_eq!(doc["affected"]["storedClustersLeftAlone"], left_alone);
}

/// What the controller creates for my-cluster's MachinePool, which the stored state lacks.
const MY_CLUSTER_POOL: [&str; 3] = [
    "default/my-cluster created DockerMachinePool my-cluster-mp-0-ljkwd",
    "default/my-cluster created KubeadmConfig my-cluster-mp-0-l54x8",
    "default/my-cluster created MachinePool my-cluster-mp-0-lgwcw",
];

/// Case 1, "Input with new ClusterClass and new Cluster": an empty management cluster (only
/// the providers' CRDs); both are affected and every object of the topology is created.
#[test]
fn new_cluster_class_and_new_cluster() {
    let t = Test::new()
        .fixture("testdata/crds", "state/crds")
        .file(
            "change/class.yaml",
            &std::fs::read_to_string(
                common::repo().join("testdata/topology-plan/class/class.yaml"),
            )
            .expect("class"),
        )
        .file(
            "change/cluster.yaml",
            std::fs::read_to_string(common::repo().join("testdata/topology-plan/clusters.yaml"))
                .expect("clusters")
                .split("\n---\n")
                .next()
                .expect("my-cluster"),
        );
    let doc = plan(t, &[]);
    assert_affected(
        &doc,
        &["default/my-cluster-class"],
        &["default/my-cluster"],
        0,
    );
    let got = changes(&doc);
    // Upstream's list: the infrastructure cluster, the control plane and its machine template,
    // the MachinePool with its objects; the Cluster is modified (references, labels).
    for kind in [
        "created DockerCluster",
        "created KubeadmControlPlane",
        "created DockerMachineTemplate",
        "created DockerMachinePool",
        "created KubeadmConfig",
        "created MachinePool",
        "modified Cluster my-cluster",
    ] {
        assert!(
            got.iter().any(|l| l.contains(kind)),
            "{kind} missing: {got:#?}"
        );
    }
}

/// Case 2, "Modifying an existing Cluster": only the Cluster is in the input; its class comes
/// from the management cluster and no class is affected.
#[test]
fn modifying_an_existing_cluster() {
    let t = change(management_cluster(Test::new()), "modified-my-cluster.yaml");
    let doc = plan(t, &[]);
    assert_affected(&doc, &[], &["default/my-cluster"], 1);
    let mut want = vec![
        "default/my-cluster modified Cluster my-cluster".to_string(),
        "default/my-cluster modified KubeadmControlPlane my-cluster-cght2".to_string(),
    ];
    want.extend(MY_CLUSTER_POOL.iter().map(|s| s.to_string()));
    want.sort();
    let mut got = changes(&doc);
    got.sort();
    assert_eq!(got, want);
    let kcp = &doc["clusters"][0]["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .find(|o| s(&o["kind"]) == "KubeadmControlPlane")
        .expect("the control plane")["diff"];
    assert!(s(kcp).contains("-  replicas: 1\n+  replicas: 3"), "{kcp}");
}

/// Cases 3, 4 and 6, "Modifying an existing DockerMachineTemplate" used by the control plane:
/// the stored class that references it is affected, and with it both stored Clusters; the
/// template is rotated (a new one created, the KubeadmControlPlane re-pointed, the old one
/// deleted).
#[test]
fn modifying_the_control_plane_machine_template() {
    let rotated = |cluster: &str, kcp: &str, new: &str, old: &str| {
        vec![
            format!("default/{cluster} created DockerMachineTemplate {new}"),
            format!("default/{cluster} modified KubeadmControlPlane {kcp}"),
            format!("default/{cluster} deleted DockerMachineTemplate {old}"),
        ]
    };
    // Case 4: no target; upstream reconciled none, topoplan plans both.
    let t = change(
        management_cluster(Test::new()),
        "modified-cp-dockermachinetemplate.yaml",
    );
    let doc = plan(t, &[]);
    assert_affected(
        &doc,
        &["default/my-cluster-class"],
        &["default/my-cluster", "default/my-second-cluster"],
        0,
    );
    let mut want = rotated(
        "my-cluster",
        "my-cluster-cght2",
        "my-cluster-kfsc6",
        "my-cluster-zcz8k",
    );
    want.extend(MY_CLUSTER_POOL.iter().map(|s| s.to_string()));
    want.extend(rotated(
        "my-second-cluster",
        "my-second-cluster-lvc5w",
        "my-second-cluster-b4dmj",
        "my-second-cluster-g9jgq",
    ));
    let mut got = changes(&doc);
    got.sort();
    want.sort();
    assert_eq!(got, want);

    // Cases 3 and 6: the target is my-cluster; both Clusters are still affected.
    let t = change(
        management_cluster(Test::new()),
        "modified-cp-dockermachinetemplate.yaml",
    );
    let doc = plan(t, &["--cluster", "default/my-cluster"]);
    assert_affected(
        &doc,
        &["default/my-cluster-class"],
        &["default/my-cluster", "default/my-second-cluster"],
        0,
    );
    assert_eq!(doc["clusters"].as_array().map(Vec::len), Some(1));
    let got = changes(&doc);
    assert!(
        got.iter()
            .any(|l| l.starts_with("default/my-cluster created DockerMachineTemplate")),
        "{got:#?}"
    );
    assert!(
        got.iter()
            .any(|l| l.starts_with("default/my-cluster modified KubeadmControlPlane")),
        "{got:#?}"
    );
}

/// Cases 5 and 7, "Modifying an existing DockerMachinePoolTemplate": both Clusters of the class
/// are affected; only my-cluster has a MachinePool, whose DockerMachinePool the controller
/// creates (the stored state has none yet) from the changed template.
#[test]
fn modifying_the_machine_pool_template() {
    let t = change(
        management_cluster(Test::new()),
        "modified-dockermachinepooltemplate.yaml",
    );
    let doc = plan(t, &[]);
    assert_affected(
        &doc,
        &["default/my-cluster-class"],
        &["default/my-cluster", "default/my-second-cluster"],
        0,
    );
    let mut got = changes(&doc);
    got.sort();
    let mut want: Vec<String> = MY_CLUSTER_POOL.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want);
    // The pool is created from the changed template.
    let pool = doc["clusters"][0]["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .find(|o| s(&o["kind"]) == "DockerMachinePool")
        .expect("the pool");
    assert_eq!(
        pool["object"]["metadata"]["labels"]["docker-machinepool-template"],
        "test-template-worker"
    );

    // Case 7: the target is my-cluster.
    let t = change(
        management_cluster(Test::new()),
        "modified-dockermachinepooltemplate.yaml",
    );
    let doc = plan(t, &["--cluster", "my-cluster"]);
    assert_eq!(doc["clusters"].as_array().map(Vec::len), Some(1));
    assert_eq!(s(&doc["clusters"][0]["name"]), "my-cluster");
}

/// Case 8, "objects in different namespaces": the old command refused them (it planned one
/// namespace); topoplan plans a Cluster in each, both of the stored class.
#[test]
fn objects_in_different_namespaces_are_planned_each() {
    let t = change(
        management_cluster(Test::new()),
        "objects-in-different-namespaces.yaml",
    );
    let doc = plan(t, &[]);
    assert_affected(
        &doc,
        &[],
        &[
            "namespace-one/my-cluster",
            "namespace-two/my-second-cluster",
        ],
        2,
    );
    let names: Vec<String> = doc["clusters"]
        .as_array()
        .expect("clusters")
        .iter()
        .map(|c| format!("{}/{}", s(&c["namespace"]), s(&c["name"])))
        .collect();
    assert_eq!(
        names,
        [
            "namespace-one/my-cluster",
            "namespace-two/my-second-cluster"
        ]
    );
    assert!(
        changes(&doc)
            .iter()
            .any(|l| l.starts_with("namespace-two/my-second-cluster created KubeadmControlPlane"))
    );
}

/// Case 9, "TargetNamespace different from objects in input": kubectl's error.
#[test]
fn a_namespace_flag_that_contradicts_the_objects_is_refused() {
    let t = change(management_cluster(Test::new()), "modified-my-cluster.yaml");
    let err = t
        .args([
            "plan",
            "-f",
            "change",
            "--current",
            "state",
            "-n",
            "different-namespace",
        ])
        .status(1)
        .run();
    let err = err.fails();
    assert!(
        err.contains(
            r#"the namespace from the provided object "default" does not match the namespace "different-namespace". You must pass '--namespace=default' to perform this operation."#
        ),
        "{err}"
    );
    assert!(err.contains("topoplan::input::namespace"), "{err}");
}

/// A target that the change does not affect: Cluster API's message.
#[test]
fn a_target_the_change_does_not_affect_is_refused() {
    let t = change(management_cluster(Test::new()), "modified-my-cluster.yaml");
    let out = t
        .args([
            "plan",
            "-f",
            "change",
            "--current",
            "state",
            "--cluster",
            "default/my-second-cluster",
        ])
        .status(1)
        .run();
    let err = out.fails();
    assert!(
        err.contains(
            r#"target cluster "default/my-second-cluster" is not among the list of affected clusters"#
        ),
        "{err}"
    );
    assert!(
        err.contains("default/my-cluster"),
        "names the affected: {err}"
    );
}

/// `--all-current` plans every stored Cluster; the table says what was affected.
#[test]
fn all_current_plans_every_stored_cluster() {
    let t = change(management_cluster(Test::new()), "modified-my-cluster.yaml");
    let doc = plan(t, &["--all-current"]);
    assert_eq!(doc["affected"]["allCurrent"], true);
    assert_eq!(doc["clusters"].as_array().map(Vec::len), Some(2));

    let t = change(management_cluster(Test::new()), "modified-my-cluster.yaml");
    let out = t.args(["plan", "-f", "change", "--current", "state"]).run();
    assert!(
        out.ok().contains(
            "Affected by the change: no ClusterClass; 1 Cluster (default/my-cluster). Left alone: 1 stored Cluster.\n"
        ),
        "{}",
        out.stdout
    );
}

/// A fleet of three classes and fifty Clusters, exported as `plan --output-dir` writes the state
/// (the workflow the README gives): classes `docker-small` (the quick-start class),
/// `docker-b` and `docker-c` (copies whose `general` workers use their own machine template),
/// Clusters `c-00`… spread over them in namespace team-a.
struct Fleet {
    t: Test,
}

const FLEET_CLUSTERS: usize = 50;
const CLASSES: [&str; 3] = ["docker-small", "docker-b", "docker-c"];

fn class_of(i: usize) -> &'static str {
    CLASSES[i % 3]
}

impl Fleet {
    fn new() -> Fleet {
        let ex = |f: &str| {
            std::fs::read_to_string(common::repo().join("testdata/examples/quick-start").join(f))
                .expect("quick-start")
        };
        let class = ex("clusterclass.yaml");
        let templates = ex("templates.yaml");
        let cluster = ex("cluster.yaml");
        let worker = templates
            .split("\n---\n")
            .find(|d| d.contains("name: docker-small-worker\n"))
            .expect("the general worker template")
            .to_string();
        let mut classes = class.clone();
        let mut extra_templates = String::new();
        for c in &CLASSES[1..] {
            let copy = class
                .replace("name: docker-small\n", &format!("name: {c}\n"))
                .replacen(
                    "name: docker-small-worker\n",
                    &format!("name: {c}-worker\n"),
                    1,
                );
            classes.push_str(&format!("\n---\n{copy}"));
            extra_templates.push_str(&format!(
                "\n---\n{}",
                worker.replace(
                    "name: docker-small-worker\n",
                    &format!("name: {c}-worker\n")
                )
            ));
        }
        let mut clusters = String::new();
        for i in 0..FLEET_CLUSTERS {
            let c = cluster
                .replace("name: dev\n", &format!("name: c-{i:02}\n"))
                .replace("name: docker-small\n", &format!("name: {}\n", class_of(i)));
            clusters.push_str(&format!("---\n{c}\n"));
        }
        let t = Test::new()
            .file("fleet/classes.yaml", &classes)
            .file(
                "fleet/templates.yaml",
                &format!("{templates}{extra_templates}"),
            )
            .file("clusters/clusters.yaml", &clusters);
        // The first reconcile of every Cluster: the management cluster's state.
        let dir = t.path().to_path_buf();
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_topoplan"))
            .current_dir(&dir)
            .args([
                "plan",
                "-f",
                "fleet",
                "-f",
                "clusters",
                "--output-dir",
                "state",
                "-o",
                "json",
            ])
            .output()
            .expect("run topoplan");
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
        Fleet { t }
    }

    /// Plan `change/` against the fleet's state (and its stored classes and templates).
    fn plan(self, change: &[(&str, &str)], extra: &[&str]) -> common::Output {
        let mut t = self.t;
        for (name, text) in change {
            t = t.file(&format!("change/{name}"), text);
        }
        t.args([
            "plan",
            "-f",
            "change",
            "--current",
            "state",
            "--current",
            "fleet",
            "-o",
            "json",
        ])
        .args(extra.iter().copied())
        .run()
    }
}

/// The Clusters of `class`, as `team-a/c-NN`.
fn clusters_of(class: &str) -> Vec<String> {
    (0..FLEET_CLUSTERS)
        .filter(|i| class_of(*i) == class)
        .map(|i| format!("team-a/c-{i:02}"))
        .collect()
}

const B_WORKER: &str = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerMachineTemplate
metadata:
  name: docker-b-worker
  namespace: fleet
spec:
  template:
    spec:
      customImage: kindest/node:v1.34.1-patched
";

/// A worker template that only class `docker-b` uses: only its Clusters are planned, each
/// rotating its `general` workers' template; a broken stored Cluster of another class changes
/// nothing.
#[test]
fn a_template_change_plans_only_its_class_clusters() {
    let fleet = Fleet::new();
    // Break a Cluster of docker-c in the store: an unknown worker class.
    let broken = fleet
        .t
        .path()
        .join("state/team-a/c-02/modified/Cluster_team-a_c-02.yaml");
    let text = std::fs::read_to_string(&broken).expect("c-02 is docker-c's");
    assert!(text.contains("name: docker-c\n"));
    std::fs::write(
        &broken,
        text.replace("class: general", "class: no-such-class"),
    )
    .expect("break it");
    let out = fleet.plan(&[("worker.yaml", B_WORKER)], &[]);
    let doc: Value = serde_json::from_str(out.ok()).expect("plan document");
    assert_affected(
        &doc,
        &["fleet/docker-b"],
        &clusters_of("docker-b")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        (FLEET_CLUSTERS - clusters_of("docker-b").len()) as u64,
    );
    let planned: Vec<String> = doc["clusters"]
        .as_array()
        .expect("clusters")
        .iter()
        .map(|c| format!("{}/{}", s(&c["namespace"]), s(&c["name"])))
        .collect();
    assert_eq!(planned, clusters_of("docker-b"));
    // Each: the worker template rotated, its MachineDeployment re-pointed (a rollout).
    let got = changes(&doc);
    assert_eq!(got.len(), 3 * planned.len(), "{got:#?}");
    assert!(
        got.iter().all(
            |l| l.contains("DockerMachineTemplate") || l.contains("modified MachineDeployment")
        ),
        "{got:#?}"
    );
    assert_eq!(doc["summary"]["rollouts"], planned.len());
    assert!(!out.stderr.contains("c-02"), "{}", out.stderr);
}

/// A change that affects no Cluster: an empty plan that says so, exit 0.
#[test]
fn a_change_that_affects_nothing_plans_nothing() {
    let unused = B_WORKER.replace("docker-b-worker", "nobody-uses-this");
    let out = Fleet::new().plan(&[("unused.yaml", &unused)], &[]);
    let doc: Value = serde_json::from_str(out.ok()).expect("plan document");
    assert_affected(&doc, &[], &[], FLEET_CLUSTERS as u64);
    assert_eq!(doc["clusters"].as_array().map(Vec::len), Some(0));
}

/// A ClusterClass change plans that class's Clusters; a Cluster rebased to another class is
/// planned against the new one.
#[test]
fn a_class_change_and_a_rebase() {
    let fleet = Fleet::new();
    let class = std::fs::read_to_string(fleet.t.path().join("fleet/classes.yaml"))
        .expect("classes")
        .split("\n---\n")
        .find(|d| d.contains("name: docker-c\n"))
        .expect("docker-c")
        .replace("tier: control-plane", "tier: control-plane-v2");
    let out = fleet.plan(&[("class.yaml", &class)], &[]);
    let doc: Value = serde_json::from_str(out.ok()).expect("plan document");
    let want = clusters_of("docker-c");
    assert_affected(
        &doc,
        &["fleet/docker-c"],
        &want.iter().map(String::as_str).collect::<Vec<_>>(),
        (FLEET_CLUSTERS - want.len()) as u64,
    );
    // The control plane's label changes in place: modified, no rotation.
    assert!(
        changes(&doc)
            .iter()
            .all(|l| l.contains("modified KubeadmControlPlane") || l.contains("modified Cluster")),
        "{:#?}",
        changes(&doc)
    );

    // Rebase c-00 (docker-small) onto docker-b: only it is affected, planned with docker-b's
    // worker template (the same spec under another name: patched in place, its
    // cloned-from-name annotation now docker-b-worker; no rotation).
    let fleet = Fleet::new();
    let stored = std::fs::read_to_string(
        fleet
            .t
            .path()
            .join("state/team-a/c-00/modified/Cluster_team-a_c-00.yaml"),
    )
    .expect("c-00");
    let rebased = stored.replace("name: docker-small\n", "name: docker-b\n");
    let out = fleet.plan(&[("c-00.yaml", &rebased)], &[]);
    let doc: Value = serde_json::from_str(out.ok()).expect("plan document");
    assert_affected(&doc, &[], &["team-a/c-00"], (FLEET_CLUSTERS - 1) as u64);
    let got = changes(&doc);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert!(
        got[0].starts_with("team-a/c-00 modified Cluster c-00"),
        "{got:#?}"
    );
    assert!(
        got[1].starts_with("team-a/c-00 modified DockerMachineTemplate c-00-md-0-"),
        "{got:#?}"
    );
    let dmt = doc["clusters"][0]["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .find(|o| s(&o["action"]) == "modified" && s(&o["kind"]) == "DockerMachineTemplate")
        .expect("the worker template");
    assert!(
        s(&dmt["diff"]).contains("+    cluster.x-k8s.io/cloned-from-name: docker-b-worker"),
        "{dmt}"
    );
}

/// A new class beside the existing ones, with a new Cluster using it: only the new Cluster.
#[test]
fn a_new_class_beside_existing_ones() {
    let fleet = Fleet::new();
    let class = std::fs::read_to_string(fleet.t.path().join("fleet/classes.yaml"))
        .expect("classes")
        .split("\n---\n")
        .next()
        .expect("docker-small")
        .replace("name: docker-small\n", "name: docker-new\n");
    let cluster =
        std::fs::read_to_string(common::repo().join("testdata/examples/quick-start/cluster.yaml"))
            .expect("cluster")
            .replace("name: dev\n", "name: fresh\n")
            .replace("name: docker-small\n", "name: docker-new\n");
    let out = fleet.plan(&[("class.yaml", &class), ("cluster.yaml", &cluster)], &[]);
    let doc: Value = serde_json::from_str(out.ok()).expect("plan document");
    assert_affected(
        &doc,
        &["fleet/docker-new"],
        &["team-a/fresh"],
        FLEET_CLUSTERS as u64,
    );
    assert_eq!(doc["summary"]["created"], 16);
}

/// `validate --current` admits a Cluster of `-f` against its stored class (it used to say the
/// class does not exist), and prints only what `-f` gave.
#[test]
fn validate_reads_the_class_from_the_management_cluster() {
    let t = change(management_cluster(Test::new()), "modified-my-cluster.yaml");
    let out = t
        .args([
            "validate",
            "-f",
            "change",
            "--current",
            "state",
            "-o",
            "yaml",
        ])
        .run();
    let printed = out.ok();
    assert_eq!(
        printed.matches("\nkind: ").count() + usize::from(printed.starts_with("kind: ")),
        1,
        "{printed}"
    );
    assert!(printed.contains("name: my-cluster\n"), "{printed}");
    assert!(!out.stderr.contains("does not exist"), "{}", out.stderr);
}

/// An affected stored Cluster whose class the export lacks is a warning naming the `kubectl
/// get` that adds it, and the other Clusters are planned.
#[test]
fn a_stored_cluster_whose_class_is_missing_is_a_warning() {
    // The change is a template of the class; the store holds the Clusters and the templates
    // but a class that names another ClusterClass for my-second-cluster.
    let t = change(
        management_cluster(Test::new()),
        "modified-cp-dockermachinetemplate.yaml",
    );
    let cluster = t
        .path()
        .join("state/objects/Cluster_default_my-second-cluster.yaml");
    let text = std::fs::read_to_string(&cluster).expect("stored my-second-cluster");
    std::fs::write(
        &cluster,
        text.replace("class: my-cluster-class", "class: gone-class"),
    )
    .expect("write");
    let out = t
        .args([
            "plan",
            "-f",
            "change",
            "--current",
            "state",
            "--all-current",
            "-o",
            "json",
        ])
        .run();
    let doc: Value = serde_json::from_str(out.ok()).expect("plan document");
    assert_eq!(doc["clusters"].as_array().map(Vec::len), Some(1));
    assert!(
        out.stderr.contains("Cluster default/my-second-cluster is affected by the change but not planned: its ClusterClass default/gone-class is not in -f or --current"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(
            "kubectl get clusterclass gone-class -n default -o yaml --show-managed-fields"
        ),
        "{}",
        out.stderr
    );
}

/// `diff --current`: OLD and NEW hold only the changed template (as `diff --base-ref` of a pull
/// request that touches one file gives them); the class and the Clusters come from the
/// management cluster, and the review is of what the change does to each affected Cluster.
#[test]
fn diff_reads_what_both_sides_lack_from_the_management_cluster() {
    let class =
        std::fs::read_to_string(common::repo().join("testdata/topology-plan/class/class.yaml"))
            .expect("class");
    let old_template = class
        .split("\n---\n")
        .find(|d| d.contains("kind: DockerMachineTemplate"))
        .expect("the control plane's machine template")
        .to_string();
    let new_template = std::fs::read_to_string(
        common::repo().join("testdata/topology-plan/change/modified-cp-dockermachinetemplate.yaml"),
    )
    .expect("change");
    let out = management_cluster(Test::new())
        .file("old/template.yaml", &old_template)
        .file("new/template.yaml", &new_template)
        .args(["diff", "old", "new", "--current", "state", "--stat"])
        .run();
    assert_eq!(
        out.ok(),
        "Cluster default/my-cluster (ClusterClass default/my-cluster-class): 1 to create, 1 to modify, 1 to delete; rolls out: KubeadmControlPlane my-cluster-cght2\n\
         Cluster default/my-second-cluster (ClusterClass default/my-cluster-class): 1 to create, 1 to modify, 1 to delete; rolls out: KubeadmControlPlane my-second-cluster-lvc5w\n\
         2 Clusters: 2 changed, 0 unchanged (0 added, 0 removed); 2 rollouts in 2 Clusters, 0 deferred.\n"
    );
}

/// Against the management cluster, only what the change can concern is parsed: a document of
/// another Cluster's or of no Cluster's (here one that does not even parse) is passed over, and
/// `--all-current`, which reads everything, reports it.
#[test]
fn documents_the_change_cannot_concern_are_not_read() {
    let broken = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unrelated\n  namespace: default\ndata:\n  a: [unclosed\n";
    let t = change(management_cluster(Test::new()), "modified-my-cluster.yaml")
        .file("state/unrelated.yaml", broken);
    let doc = plan(t, &[]);
    assert_affected(&doc, &[], &["default/my-cluster"], 1);
    assert!(changes(&doc).contains(&"default/my-cluster modified Cluster my-cluster".to_string()));

    let t = change(management_cluster(Test::new()), "modified-my-cluster.yaml")
        .file("state/unrelated.yaml", broken);
    t.args([
        "plan",
        "-f",
        "change",
        "--current",
        "state",
        "--all-current",
    ])
    .status(1)
    .stderr_contains("state/unrelated.yaml:7:6")
    .run();
}

/// An object the Cluster references by a name that spells neither the Cluster's name nor
/// carries its label (a naming template without the Cluster's name, a hand-made state) is still
/// read: the rounds follow references, as the controller does.
#[test]
fn objects_reached_only_by_reference_are_read() {
    let existing = common::repo().join("testdata/topology-plan/existing");
    let mut t = Test::new().fixture("testdata/crds", "state/crds").file(
        "state/class.yaml",
        &std::fs::read_to_string(common::repo().join("testdata/topology-plan/class/class.yaml"))
            .expect("class fixture"),
    );
    for entry in std::fs::read_dir(&existing).expect("existing state") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let mut text = std::fs::read_to_string(&path).expect("state file");
        if name == "DockerCluster_default_my-cluster-2dn49.yaml" {
            // Named by no rule that spells the Cluster, and without its label.
            text = text
                .replace("name: my-cluster-2dn49", "name: infra-7k2xq")
                .replace("    cluster.x-k8s.io/cluster-name: my-cluster\n", "")
                .replace(
                    "cloned-from-name: my-cluster",
                    "cloned-from-name: the-template",
                )
                .replace("name: my-cluster-shim", "name: shim-7k2xq");
        }
        if name == "Cluster_default_my-cluster.yaml" {
            text = text.replace("name: my-cluster-2dn49", "name: infra-7k2xq");
        }
        t = t.file(&format!("state/objects/{name}"), &text);
    }
    let doc = plan(change(t, "modified-my-cluster.yaml"), &[]);
    let objects = doc["clusters"][0]["objects"].as_array().expect("objects");
    let infra: Vec<(String, String)> = objects
        .iter()
        .filter(|o| s(&o["kind"]) == "DockerCluster")
        .map(|o| (s(&o["action"]).to_string(), s(&o["name"]).to_string()))
        .collect();
    // The stored DockerCluster is the one planned (its missing label is what changes), not a
    // new one created beside it.
    assert_eq!(infra.len(), 1, "{infra:?}");
    assert_eq!(infra[0].1, "infra-7k2xq", "{infra:?}");
    assert_ne!(infra[0].0, "created", "{infra:?}");
}
