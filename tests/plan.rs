//! `topoplan plan` end to end: bundled examples (snapshots of table, JSON and files),
//! determinism, substitution, many clusters, and one test per kind of bad input.

mod common;

use common::Test;

const CLASS: &str = r#"apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata:
  name: c
spec:
  infrastructure:
    templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, name: infra}
  controlPlane:
    templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: cp}
  workers:
    machineDeployments:
    - class: w
      bootstrap:
        templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: boot}
      infrastructure:
        templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: m}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerClusterTemplate
metadata: {name: infra}
spec: {template: {spec: {}}}
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata: {name: cp}
spec: {template: {spec: {kubeadmConfigSpec: {}}}}
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata: {name: boot}
spec: {template: {spec: {}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerMachineTemplate
metadata: {name: m}
spec: {template: {spec: {}}}
"#;

fn cluster(name: &str) -> String {
    format!(
        "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: {name}\nspec:\n  topology:\n    classRef: {{name: c}}\n    version: v1.34.0\n    workers:\n      machineDeployments:\n      - {{class: w, name: md-0, replicas: 1}}\n"
    )
}

#[test]
fn quick_start_table() {
    let out = Test::new()
        .fixture("testdata/examples/quick-start", "qs")
        .args(["plan", "-f", "qs"])
        .run();
    insta::assert_snapshot!("quick_start_table", out.ok());
    insta::assert_snapshot!("quick_start_warnings", out.stderr);
}

#[test]
fn quick_start_v1beta1_table() {
    let out = Test::new()
        .fixture("testdata/examples/quick-start-v1beta1", "qs")
        .args(["plan", "-f", "qs"])
        .run();
    insta::assert_snapshot!("quick_start_v1beta1_table", out.ok());
}

#[test]
fn quick_start_json() {
    let out = Test::new()
        .fixture("testdata/examples/quick-start", "qs")
        .args(["plan", "-f", "qs", "--output", "json"])
        .run();
    insta::assert_snapshot!("quick_start_json", out.ok());
    let doc: serde_json::Value = serde_json::from_str(out.ok()).expect("valid JSON");
    assert_eq!(doc["apiVersion"], "topoplan.dev/v1alpha1");
    assert_eq!(doc["kind"], "Plan");
    assert_eq!(doc["clusters"][0]["summary"]["created"], 16);
    assert_eq!(
        doc["warnings"],
        serde_json::json!([]),
        "the inline patch applies"
    );
}

#[test]
fn quick_start_v1beta1_yaml() {
    let out = Test::new()
        .fixture("testdata/examples/quick-start-v1beta1", "qs")
        .args(["plan", "-f", "qs", "--output", "yaml"])
        .run();
    insta::assert_snapshot!("quick_start_v1beta1_yaml", out.ok());
}

#[test]
fn quick_start_files() {
    let out = Test::new()
        .fixture("testdata/examples/quick-start", "qs")
        .args(["plan", "-f", "qs", "--output-dir", "out"])
        .run();
    out.ok();
    insta::assert_snapshot!("quick_start_files", out.tree("out"));
}

#[test]
fn output_is_deterministic() {
    let run = || {
        let out = Test::new()
            .fixture("testdata/examples/quick-start", "qs")
            .fixture("testdata/examples/quick-start-v1beta1", "v1")
            .args([
                "plan",
                "-f",
                "qs",
                "-f",
                "v1",
                "-o",
                "json",
                "--output-dir",
                "out",
            ])
            .run();
        (out.ok().to_string(), out.tree("out"))
    };
    let a = run();
    let b = run();
    assert_eq!(a.0, b.0, "stdout differs between runs");
    assert_eq!(a.1, b.1, "files differ between runs");
}

#[test]
fn rerun_replaces_previous_output_dir() {
    let first = Test::new()
        .fixture("testdata/examples/quick-start-v1beta1", "v1")
        .args(["plan", "-f", "v1", "--output-dir", "out"])
        .run();
    first.ok();
    assert!(first.dir.path().join("out/default/dev/created").is_dir());
    let out = Test::new()
        .fixture("testdata/examples/quick-start", "qs")
        .args(["plan", "-f", "qs", "--output-dir"])
        .args([first.dir.path().join("out").to_str().expect("utf-8 path")])
        .run();
    out.ok();
    assert!(
        !first.dir.path().join("out/default").exists(),
        "a previous topoplan output is replaced whole"
    );
    assert!(first.dir.path().join("out/team-a/dev/created").is_dir());
    let leftovers: Vec<_> = std::fs::read_dir(first.dir.path())
        .expect("read")
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_string_lossy().contains("topoplan-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn refuses_to_overwrite_a_foreign_directory() {
    let out = Test::new()
        .fixture("testdata/examples/quick-start", "qs")
        .file("out/important.txt", "keep me")
        .args(["plan", "-f", "qs", "--output-dir", "out"])
        .status(1)
        .stderr_contains("exists and was not written by topoplan")
        .stdout("")
        .run();
    assert_eq!(
        std::fs::read_to_string(out.dir.path().join("out/important.txt")).expect("kept"),
        "keep me"
    );
}

#[test]
fn stdin_and_list_documents() {
    let list = format!(
        "apiVersion: v1\nkind: List\nitems:\n{}",
        (CLASS.to_string() + "---\n" + &cluster("a"))
            .split("---\n")
            .map(|doc| {
                let mut s = String::new();
                for (i, line) in doc.lines().enumerate() {
                    s.push_str(if i == 0 { "- " } else { "  " });
                    s.push_str(line);
                    s.push('\n');
                }
                s
            })
            .collect::<String>()
    );
    Test::new()
        .stdin(&list)
        .args(["plan", "-f", "-", "-n", "ns1"])
        .stdout_matches(r"\ACluster ns1/a \(ClusterClass ns1/c\):")
        .stdout_contains("MachineDeployment      a-md-0-")
        .run();
}

#[test]
fn many_clusters_in_order_and_narrowed() {
    let mut input = CLASS.to_string();
    for name in ["zeta", "alpha", "mid"] {
        input.push_str("---\n");
        input.push_str(&cluster(name));
    }
    let out = Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml"])
        .run();
    let headers: Vec<&str> = out
        .ok()
        .lines()
        .filter(|l| l.starts_with("Cluster "))
        .collect();
    assert_eq!(
        headers,
        [
            "Cluster default/alpha (ClusterClass default/c):",
            "Cluster default/mid (ClusterClass default/c):",
            "Cluster default/zeta (ClusterClass default/c):"
        ]
    );
    let out = Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml", "--cluster", "default/mid"])
        .run();
    assert_eq!(
        out.ok()
            .lines()
            .filter(|l| l.starts_with("Cluster "))
            .count(),
        1
    );
    Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml", "--cluster", "default/nope"])
        .status(1)
        .stderr_contains("--cluster default/nope: no Cluster with a topology")
        .run();
    Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml", "--cluster", "nope"])
        .status(1)
        .stderr_contains("--cluster nope: no Cluster with a topology of that name")
        .run();
    Test::new()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml", "--cluster", "a/b/c"])
        .status(1)
        .stderr_contains("expected NAME or NAMESPACE/NAME")
        .run();
}

#[test]
fn flavors_of_one_cluster_are_planned_side_by_side() {
    let out = Test::new()
        .file("class.yaml", CLASS)
        .file("flavor-a.yaml", &cluster("same"))
        .file(
            "flavor-b.yaml",
            &cluster("same").replace("replicas: 1", "replicas: 5"),
        )
        .args(["plan", "-f", ".", "--output-dir", "out"])
        .stdout_contains("Cluster default/same (ClusterClass default/c, from flavor-a.yaml):")
        .stdout_contains("Cluster default/same (ClusterClass default/c, from flavor-b.yaml):")
        .stderr_contains("is defined in 2 files")
        .run();
    assert!(
        out.dir
            .path()
            .join("out/default/same/flavor-a.yaml/created")
            .is_dir()
    );
}

#[test]
fn substitution_with_env_file_and_environment() {
    Test::new()
        .file("class.yaml", CLASS)
        .file(
            "cluster.yaml",
            &cluster("${CLUSTER_NAME}").replace("v1.34.0", "${KUBERNETES_VERSION:=v1.30.0}"),
        )
        .file("vars.env", "CLUSTER_NAME=from-file\n")
        .env("KUBERNETES_VERSION", "v1.33.3")
        .args([
            "plan",
            "--substitute",
            "--env",
            "KUBERNETES_VERSION",
            "--env-file",
            "vars.env",
            "-f",
            ".",
            "--output",
            "json",
        ])
        .stdout_json("/clusters/0/name", "from-file")
        // The environment's value is used.
        .stdout_contains("\"version\": \"v1.33.3\"")
        .run();

    Test::new()
        .file("class.yaml", CLASS)
        .file(
            "cluster.yaml",
            &cluster("${CLUSTER_NAME}").replace("v1.34.0", "${KUBERNETES_VERSION}"),
        )
        .env_remove_all()
        .args(["plan", "--substitute", "-f", "."])
        .status(1)
        .stderr_contains("value for variables [CLUSTER_NAME, KUBERNETES_VERSION] is not set")
        .stderr_contains("cluster.yaml:4:9")
        .run();
}

#[test]
fn env_file_requires_substitute() {
    Test::new()
        .args(["plan", "-f", "x", "--env-file", "v"])
        .status(1)
        .stderr_contains("--substitute")
        .run();
}

// ---- bad input: each a diagnostic with file:line:col, exit 1, nothing written ----

fn bad(files: &[(&str, &str)]) -> (String, bool) {
    let mut t = Test::new();
    for (n, c) in files {
        t = t.file(n, c);
    }
    let out = t
        .args(["plan", "-f", ".", "--output-dir", "out"])
        .status(1)
        .stdout("")
        .run();
    let wrote = out.dir.path().join("out").exists();
    (out.stderr, wrote)
}

#[test]
fn malformed_yaml() {
    let (err, wrote) = bad(&[(
        "a.yaml",
        "apiVersion: v1\nkind: [ConfigMap\nmetadata: {name: x}\n",
    )]);
    assert!(!wrote);
    insta::assert_snapshot!("bad_malformed_yaml", err);
}

#[test]
fn missing_kind() {
    let (err, wrote) = bad(&[("a.yaml", "apiVersion: v1\nmetadata:\n  name: x\n")]);
    assert!(!wrote);
    assert!(err.contains("object has no kind"), "{err}");
    assert!(err.contains("[a.yaml:1:1]"), "{err}");
}

#[test]
fn unknown_kind() {
    let (err, wrote) = bad(&[(
        "a.yaml",
        "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Clustr\nmetadata:\n  name: x\n",
    )]);
    assert!(!wrote);
    insta::assert_snapshot!("bad_unknown_kind", err);
}

#[test]
fn duplicate_objects() {
    let (err, wrote) = bad(&[
        ("a.yaml", CLASS),
        (
            "b.yaml",
            &format!(
                "{}---\n{}",
                cluster("x"),
                CLASS.split("---\n").nth(1).unwrap_or("")
            ),
        ),
    ]);
    assert!(!wrote);
    insta::assert_snapshot!("bad_duplicate", err);
}

#[test]
fn missing_cluster_class() {
    let (err, wrote) = bad(&[("a.yaml", &cluster("x"))]);
    assert!(!wrote);
    insta::assert_snapshot!("bad_missing_class", err);
}

#[test]
fn missing_template() {
    let class_without_cp = CLASS.replace(
        "name: cp}\nspec: {template: {spec: {kubeadmConfigSpec: {}}}}",
        "name: other}\nspec: {}",
    );
    let (err, wrote) = bad(&[
        ("class.yaml", &class_without_cp),
        ("cluster.yaml", &cluster("x")),
    ]);
    assert!(!wrote);
    insta::assert_snapshot!("bad_missing_template", err);
}

#[test]
fn template_version_mismatch() {
    let class = CLASS.replace(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\nkind: DockerClusterTemplate",
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\nkind: DockerClusterTemplate",
    );
    let (err, wrote) = bad(&[("class.yaml", &class), ("cluster.yaml", &cluster("x"))]);
    assert!(!wrote);
    insta::assert_snapshot!("bad_version_mismatch", err);
}

#[test]
fn unknown_machine_deployment_class() {
    let (err, wrote) = bad(&[
        ("class.yaml", CLASS),
        (
            "cluster.yaml",
            &cluster("x").replace("class: w", "class: nope"),
        ),
    ]);
    assert!(!wrote);
    insta::assert_snapshot!("bad_unknown_md_class", err);
}

#[test]
fn topology_with_infrastructure_ref() {
    let c = cluster("x").replace(
        "spec:\n",
        "spec:\n  infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerCluster, name: x}\n",
    );
    let (err, wrote) = bad(&[("class.yaml", CLASS), ("cluster.yaml", &c)]);
    assert!(!wrote);
    insta::assert_snapshot!("bad_topology_and_infra_ref", err);
}

#[test]
fn missing_input_path() {
    Test::new()
        .args(["plan", "-f", "does-not-exist"])
        .status(1)
        .stderr_contains("cannot read does-not-exist")
        .run();
}

#[test]
fn no_topology_cluster() {
    Test::new()
        .file("a.yaml", CLASS)
        .args(["plan", "-f", "a.yaml"])
        .status(1)
        .stderr_contains("no Cluster with spec.topology found")
        .run();
}

#[test]
fn broken_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // Far more output than a pipe buffers, so the writer must see the reader go away.
    let mut input = CLASS.to_string();
    for i in 0..300 {
        input.push_str("---\n");
        input.push_str(&cluster(&format!("c{i}")));
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("in.yaml");
    std::fs::write(&file, input).expect("write");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("topoplan"))
        .args(["plan", "--output", "json", "-f"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).expect("first byte");
    drop(stdout);
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "exit {:?}, stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "no error printed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn random_functions_in_patches_are_warned_about() {
    let class = CLASS.replace(
        "  workers:\n",
        "  patches:\n  - name: salt\n    definitions:\n    - selector: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, matchResources: {controlPlane: true}}\n      jsonPatches:\n      - {op: add, path: /spec/template/spec/x, valueFrom: {template: \"{{ randInt 1 10 }}\"}}\n  workers:\n",
    );
    Test::new()
        .file("in.yaml", &format!("{class}---\n{}", cluster("a")))
        .args(["plan", "-f", "in.yaml"])
        .stderr_contains("patch \"salt\" calls randInt, whose result changes on every render")
        .run();
}

#[test]
fn extension_flags_are_validated() {
    let input = format!("{CLASS}---\n{}", cluster("ext"));
    Test::new()
        .file("in.yaml", &input)
        .file("ca.pem", "not a certificate")
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--extension",
            "my-ext",
            "--extension",
            "other=ftp://host",
            "--ca-file",
            "ca.pem",
        ])
        .status(1)
        .stderr_contains("--extension \"my-ext\": expected NAME=URL")
        .stderr_contains("expected http or https scheme, got ftp")
        .stderr_contains("--ca-file ca.pem: unable to load root certificates")
        .run();
    // Valid flags are accepted; nothing is contacted until the engine calls an extension.
    Test::new()
        .file("in.yaml", &input)
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--extension",
            "my-ext=https://127.0.0.1:9",
            "--insecure-skip-tls-verify",
        ])
        .run();
}
