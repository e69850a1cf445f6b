//! `topoplan diff OLD NEW` end to end: the review of a change to the bundled quick-start
//! example — nothing, a replicas change, a template change (rotation and rollout), Clusters
//! added and removed, an incompatible class change, bad old inputs — in table, stat and JSON
//! form, with exit codes.

mod common;

use common::{Test, repo};
use serde_json::Value;

const EXAMPLE: &str = "testdata/examples/quick-start";

fn read(file: &str) -> String {
    std::fs::read_to_string(repo().join(EXAMPLE).join(file)).expect("fixture")
}

/// OLD is the example; NEW is the example with `edit` applied to `file`.
fn change(file: &str, from: &str, to: &str) -> Test {
    let text = read(file);
    assert!(text.contains(from), "{file} does not contain {from:?}");
    Test::new()
        .fixture(EXAMPLE, "old")
        .fixture(EXAMPLE, "new")
        .file(&format!("new/{file}"), &text.replacen(from, to, 1))
}

fn json(out: &common::Output) -> Value {
    serde_json::from_str(&out.stdout).expect("JSON review")
}

#[test]
fn no_change_is_no_change() {
    Test::new()
        .fixture(EXAMPLE, "old")
        .fixture(EXAMPLE, "new")
        .args(["diff", "old", "new", "--detailed-exitcode"])
        .stdout(
            "1 Cluster: 0 changed, 1 unchanged (0 added, 0 removed); 0 rollouts in 0 Clusters, 0 deferred.\n",
        )
        .run();
}

#[test]
fn replicas_change_modifies_one_machine_deployment_in_place() {
    change("cluster.yaml", "replicas: 2", "replicas: 5")
        .args(["diff", "old", "new", "--detailed-exitcode"])
        .status(2)
        .stdout_contains("  modified  MachineDeployment team-a/dev-md-0-p7p2x\n")
        .stdout_contains("    -  replicas: 2\n    +  replicas: 5\n")
        .stdout_lacks("rolls out")
        .stdout_lacks("created")
        .run();
    // Without --detailed-exitcode a plan with changes still succeeds.
    change("cluster.yaml", "replicas: 2", "replicas: 5")
        .args(["diff", "old", "new"])
        .status(0)
        .run();
}

#[test]
fn template_spec_change_rotates_and_rolls_out() {
    let out = change(
        "templates.yaml",
        "customImage: kindest/node:v1.34.1",
        "customImage: kindest/node:v1.34.2",
    )
    .args(["diff", "old", "new", "--output", "json"])
    .run();
    let doc = json(&out);
    assert_eq!(doc["kind"], "Review");
    assert_eq!(doc["summary"]["changed"], 1);
    assert_eq!(doc["summary"]["rollouts"], 1);
    let cluster = &doc["clusters"][0];
    let objects = cluster["objects"].as_array().expect("objects");
    let find = |action: &str, kind: &str| -> Vec<&Value> {
        objects
            .iter()
            .filter(|o| o["action"] == action && o["kind"] == kind)
            .collect()
    };
    let created = find("created", "DockerMachineTemplate");
    assert_eq!(created.len(), 1, "{objects:#?}");
    assert_eq!(created[0]["rotatedFrom"], "dev-md-0-2vxkw");
    assert_eq!(
        created[0]["object"]["spec"]["template"]["spec"]["customImage"],
        "kindest/node:v1.34.2"
    );
    let new_name = created[0]["name"].as_str().expect("name");
    assert_ne!(new_name, "dev-md-0-2vxkw");
    assert!(new_name.starts_with("dev-md-0-"), "{new_name}");
    let deleted = find("deleted", "DockerMachineTemplate");
    assert_eq!(deleted.len(), 1);
    assert_eq!(deleted[0]["name"], "dev-md-0-2vxkw");
    let md = find("modified", "MachineDeployment");
    assert_eq!(md.len(), 1);
    assert_eq!(
        md[0]["object"]["spec"]["template"]["spec"]["infrastructureRef"]["name"],
        new_name
    );
    assert!(
        md[0]["diff"]
            .as_str()
            .is_some_and(|d| d.contains(&format!("+        name: {new_name}"))),
        "{}",
        md[0]["diff"]
    );
    assert_eq!(
        cluster["rollouts"],
        serde_json::json!([{
            "role": "MachineDeployment/md-0",
            "kind": "MachineDeployment",
            "name": "dev-md-0-p7p2x",
            "when": "now",
            "reasons": ["DockerMachine is not up-to-date"],
        }])
    );
    // The same change twice plans the same new name.
    let again = change(
        "templates.yaml",
        "customImage: kindest/node:v1.34.1",
        "customImage: kindest/node:v1.34.2",
    )
    .args(["diff", "old", "new", "--output", "json"])
    .run();
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn stat_prints_a_line_per_changed_cluster() {
    let out = change(
        "templates.yaml",
        "customImage: kindest/node:v1.34.1",
        "customImage: kindest/node:v1.34.2",
    )
    .args(["diff", "old", "new", "--stat"])
    .run();
    insta::assert_snapshot!("diff_stat", out.stdout);
}

#[test]
fn clusters_added_and_removed() {
    let cluster = read("cluster.yaml");
    let second = cluster.replacen("name: dev\n", "name: prod\n", 1);
    let out = Test::new()
        .fixture(EXAMPLE, "old")
        .fixture(EXAMPLE, "new")
        .file("old/prod.yaml", &second)
        .file("new/cluster.yaml", "")
        .file(
            "new/staging.yaml",
            &cluster.replacen("name: dev\n", "name: staging\n", 1),
        )
        .args([
            "diff",
            "old",
            "new",
            "--output",
            "json",
            "--detailed-exitcode",
        ])
        .status(2)
        .run();
    let doc = json(&out);
    assert_eq!(
        doc["added"],
        serde_json::json!([{"namespace": "team-a", "name": "staging"}])
    );
    assert_eq!(
        doc["removed"],
        serde_json::json!([
            {"namespace": "team-a", "name": "dev"},
            {"namespace": "team-a", "name": "prod"}
        ])
    );
    for c in doc["clusters"].as_array().expect("clusters") {
        let want = if c["name"] == "staging" {
            "created"
        } else {
            "deleted"
        };
        let objects = c["objects"].as_array().expect("objects");
        assert!(!objects.is_empty());
        assert!(
            objects.iter().all(|o| o["action"] == want),
            "{}: {objects:#?}",
            c["name"]
        );
    }
}

#[test]
fn incompatible_class_change_is_refused_as_an_update() {
    change(
        "clusterclass.yaml",
        "kind: DockerMachineTemplate\n          name: docker-small-worker\n",
        "kind: DockerMachinePoolTemplate\n          name: docker-small-worker\n",
    )
    .args(["diff", "old", "new"])
    .status(1)
    .stderr_contains("kind cannot be changed from \"DockerMachineTemplate\"")
    .run();
}

#[test]
fn bad_old_inputs_are_named_as_such() {
    Test::new()
        .fixture(EXAMPLE, "new")
        .file("old/cluster.yaml", &read("cluster.yaml"))
        .args(["diff", "old", "new"])
        .status(1)
        .stderr_contains("the old inputs do not plan: a diff needs both sides to be valid")
        .stderr_contains("not found in the input")
        .run();
}

#[test]
fn a_field_removed_from_a_template_is_removed_from_the_object() {
    // The old side is on record as applied by capi-topology, so dropping a field is a change
    // (Cluster API's server-side apply removes fields its manager no longer sends).
    change(
        "templates.yaml",
        "      loadBalancer:\n        imageRepository: kindest\n",
        "",
    )
    .args(["diff", "old", "new", "--detailed-exitcode"])
    .status(2)
    .stdout_contains("  modified  DockerCluster team-a/dev-86xbh\n")
    .stdout_contains("    -  loadBalancer:\n    -    imageRepository: kindest\n")
    // Nothing else moves: no owner reference lost, nothing rolls out.
    .stdout_lacks("ownerReferences")
    .stdout_lacks("rolls out")
    .run();
}

#[test]
fn version_bump_upgrades_the_control_plane_first() {
    let out = change("cluster.yaml", "version: 1.34.1", "version: 1.35.0")
        .args(["diff", "old", "new", "--output", "json"])
        .run();
    let doc = json(&out);
    let c = &doc["clusters"][0];
    let rollouts = c["rollouts"].as_array().expect("rollouts");
    let now: Vec<&Value> = rollouts.iter().filter(|r| r["when"] == "now").collect();
    assert_eq!(now.len(), 1, "{rollouts:#?}");
    assert_eq!(now[0]["kind"], "KubeadmControlPlane");
    assert_eq!(now[0]["reasons"][0], "Version v1.34.1, v1.35.0 required");
    let later: Vec<&str> = rollouts
        .iter()
        .filter(|r| r["when"] == "deferred")
        .map(|r| r["role"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        later,
        [
            "MachineDeployment/md-0",
            "MachineDeployment/md-1",
            "MachinePool/mp-0"
        ]
    );
    let deferred = c["deferred"].as_array().expect("deferred");
    assert!(
        deferred
            .iter()
            .any(|d| d["role"] == "MachineDeployment/md-0"
                && d["reason"]
                    .as_str()
                    .is_some_and(|r| r.contains("defer-upgrade"))),
        "{deferred:#?}"
    );
    // The control plane is written at the new version; the workers keep theirs this pass.
    let objects = c["objects"].as_array().expect("objects");
    let cp = objects
        .iter()
        .find(|o| o["kind"] == "KubeadmControlPlane")
        .expect("cp");
    assert_eq!(cp["action"], "modified");
    assert_eq!(cp["object"]["spec"]["version"], "v1.35.0");
    for o in objects.iter().filter(|o| o["kind"] == "MachineDeployment") {
        assert_eq!(o["action"], "unchanged", "{o:#?}");
        assert_eq!(
            o["object"]["spec"]["template"]["spec"]["version"],
            "v1.34.1"
        );
    }
}

#[test]
fn base_ref_reads_the_old_side_from_git() {
    let t = change("cluster.yaml", "replicas: 2", "replicas: 5");
    let dir = t.path().to_path_buf();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .current_dir(&dir)
            .args(args)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .expect("git");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // Commit the old side under the path the new side lives at, then put the new side there.
    std::fs::rename(dir.join("new"), dir.join("changed")).expect("rename");
    std::fs::rename(dir.join("old"), dir.join("new")).expect("rename");
    git(&["init", "-q"]);
    git(&["add", "new"]);
    git(&["commit", "-q", "-m", "old"]);
    std::fs::remove_dir_all(dir.join("new")).expect("remove");
    std::fs::rename(dir.join("changed"), dir.join("new")).expect("rename");
    t.args([
        "diff",
        "--base-ref",
        "HEAD",
        "new",
        "--stat",
        "--detailed-exitcode",
    ])
    .status(2)
    .stdout(
        "Cluster team-a/dev (ClusterClass fleet/docker-small): 0 to create, 2 to modify, 0 to delete\n\
         1 Cluster: 1 changed, 0 unchanged (0 added, 0 removed); 0 rollouts in 0 Clusters, 0 deferred.\n",
    )
    .run();
    // A revision that does not exist is named.
    Test::new()
        .fixture(EXAMPLE, "new")
        .args(["diff", "--base-ref", "no-such-rev", "new"])
        .status(1)
        .stderr_contains("no-such-rev")
        .run();
}

#[test]
fn two_paths_are_needed_without_base_ref() {
    Test::new()
        .args(["diff", "only-one"])
        .status(1)
        .stderr_contains("diff needs two paths, OLD and NEW; got 1")
        .run();
}

#[test]
fn admission_defaults_are_not_shown_as_changes() {
    // md-1's class sets no rollout strategy, so the webhook defaults one; its diff must show only
    // the re-pointed template, not the default as an addition.
    let text = read("templates.yaml").replace(
        "customImage: kindest/node:v1.34.1",
        "customImage: kindest/node:v1.34.2",
    );
    Test::new()
        .fixture(EXAMPLE, "old")
        .fixture(EXAMPLE, "new")
        .file("new/templates.yaml", &text)
        .args(["diff", "old", "new"])
        .stdout_contains("--- current/MachineDeployment/team-a/dev-mem-md-1-4xkpv")
        .stdout_lacks("+  rollout:")
        .stdout_lacks("+      type: RollingUpdate")
        .run();
}
