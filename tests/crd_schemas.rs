//! CRD schemas: what the API server would store. Cluster API's own CRDs are built in, provider
//! CRDs come from `-f`, `--crds` and `--current`; templates are pruned and defaulted by them,
//! generated objects validated against them, with the API server's messages (issue 15).

mod common;

use common::scenario::Plan;
use common::{Test, repo};

const QUICK_START: &str = "testdata/examples/quick-start";

fn crds() -> String {
    repo().join("testdata/crds").display().to_string()
}

/// The quick-start with `from` replaced by `to` in `file`.
fn quick_start(file: &str, from: &str, to: &str) -> Test {
    let text = std::fs::read_to_string(repo().join(QUICK_START).join(file)).expect("fixture");
    assert!(text.contains(from), "{file} lacks {from:?}");
    Test::new()
        .fixture(QUICK_START, "in")
        .file(&format!("in/{file}"), &text.replacen(from, to, 1))
}

#[test]
fn a_cluster_field_of_the_wrong_type_is_refused_by_the_built_in_schema() {
    // No CRD given: Cluster API's own are built in, and the API server's check comes first.
    let message = "Cluster.cluster.x-k8s.io \"dev\" is invalid: spec.topology.workers.machineDeployments[0].replicas: Invalid value: \"string\": spec.topology.workers.machineDeployments[0].replicas in body must be of type integer: \"string\"";
    for command in ["validate", "plan"] {
        quick_start("cluster.yaml", "replicas: 2", "replicas: \"2\"")
            .args([command, "-f", "in"])
            .status(1)
            .stderr_contains("topoplan::schema::invalid")
            .stderr_contains(message)
            .stderr_matches(r"in/cluster\.yaml:\d+:\d+\]")
            .run();
    }
}

/// The quick-start's class with one more patch, `certs`, that writes an integer where the
/// KubeadmControlPlane has a string.
fn with_certs_patch() -> Test {
    quick_start(
        "clusterclass.yaml",
        "  patches:\n",
        "  patches:\n  - name: certs\n    definitions:\n    - selector:\n        apiVersion: controlplane.cluster.x-k8s.io/v1beta2\n        kind: KubeadmControlPlaneTemplate\n        matchResources: {controlPlane: true}\n      jsonPatches:\n      - op: add\n        path: /spec/template/spec/kubeadmConfigSpec/files\n        value: [{path: 42, content: x}]\n",
    )
}

#[test]
fn a_patch_writing_the_wrong_type_into_a_provider_object_is_refused_naming_the_patch() {
    // Without the CRD, it plans as Cluster API's controller would believe it could.
    with_certs_patch()
        .args(["plan", "-f", "in"])
        .status(0)
        .run();
    let out = with_certs_patch()
        .args(["plan", "-f", "in", "--crds", &crds()])
        .status(1)
        .stderr_contains("topoplan::schema::invalid")
        .stderr_contains("would be refused by the API server (written by patch \"certs\")")
        .stderr_contains("spec.kubeadmConfigSpec.files[0].path: Invalid value: \"integer\": spec.kubeadmConfigSpec.files[0].path in body must be of type string: \"integer\"")
        .stderr_contains("the Cluster would stop reconciling")
        .run();
    // Located at the patch in the class, and nothing else is refused.
    assert!(
        out.stderr.contains("in/clusterclass.yaml:"),
        "{}",
        out.stderr
    );
    assert_eq!(
        out.stderr.matches("topoplan::schema::invalid").count(),
        1,
        "{}",
        out.stderr
    );
}

#[test]
fn a_template_field_the_crd_lacks_is_pruned_with_a_warning() {
    let out = quick_start(
        "templates.yaml",
        "      machineTemplate:\n",
        "      machineTemplatee: {}\n      machineTemplate:\n",
    )
    .args(["plan", "-f", "in", "--crds", &crds(), "-o", "json"])
    .stderr_contains("topoplan::schema::pruned")
    .stderr_contains("KubeadmControlPlaneTemplate fleet/docker-small-control-plane: unknown field \"spec.template.spec.machineTemplatee\": its CustomResourceDefinition does not declare it, so the API server drops it")
    .stderr_matches(r"in/templates\.yaml:\d+:\d+\]")
    .run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("plan document");
    assert!(
        !doc["clusters"].to_string().contains("machineTemplatee"),
        "the plan holds what is stored"
    );
}

#[test]
fn templates_get_their_crd_defaults() {
    // v1beta1's KubeadmControlPlane CRD defaults rolloutStrategy; the generated object has it.
    let dir = repo().join("testdata/examples/quick-start-v1beta1");
    let plain = Test::new()
        .args(["plan", "-f", dir.to_str().unwrap_or_default(), "-o", "json"])
        .run();
    assert!(!plain.stdout.contains("\"rolloutStrategy\""));
    let with = Test::new()
        .args([
            "plan",
            "-f",
            dir.to_str().unwrap_or_default(),
            "--crds",
            &crds(),
            "-o",
            "json",
        ])
        .stderr_lacks("topoplan::schema::")
        .run();
    assert!(
        with.stdout.contains("\"rolloutStrategy\""),
        "{}",
        &with.stdout[..with.stdout.len().min(400)]
    );
}

#[test]
fn kinds_without_a_crd_are_named_once_when_crds_are_given() {
    // Only the control plane's CRD: the others are named, once.
    let kcp = repo().join("testdata/crds/kubeadm-control-plane.yaml");
    let out = Test::new()
        .fixture(QUICK_START, "in")
        .args(["plan", "-f", "in", "--crds", kcp.to_str().unwrap_or_default()])
        .stderr_contains("topoplan::schema::unchecked")
        .stderr_contains("no CustomResourceDefinition for bootstrap.cluster.x-k8s.io/v1beta2 KubeadmConfigTemplate, infrastructure.cluster.x-k8s.io/v1beta2 DockerClusterTemplate")
        .stderr_lacks("v1beta2 KubeadmControlPlaneTemplate")
        .run();
    assert_eq!(out.stderr.matches("topoplan::schema::unchecked").count(), 1);
    // With none given, nothing is said (Cluster API's built-in CRDs do not count).
    Test::new()
        .fixture(QUICK_START, "in")
        .args(["plan", "-f", "in"])
        .stderr_lacks("topoplan::schema::unchecked")
        .run();
}

#[test]
fn crds_given_with_the_input_count_too_and_other_objects_under_crds_are_ignored() {
    let kcp = std::fs::read_to_string(repo().join("testdata/crds/kubeadm-control-plane.yaml"))
        .expect("fixture");
    with_certs_patch()
        .file("in/kcp-crd.yaml", &kcp)
        .args(["plan", "-f", "in"])
        .status(1)
        .stderr_contains("written by patch \"certs\"")
        .run();
    // --crds reads only CRDs: a Cluster there is not planned.
    let cluster =
        std::fs::read_to_string(repo().join(QUICK_START).join("cluster.yaml")).expect("fixture");
    Test::new()
        .fixture(QUICK_START, "in")
        .file("extra/kcp.yaml", &kcp)
        .file(
            "extra/other.yaml",
            &cluster.replacen("name: dev\n", "name: other\n", 1),
        )
        .args(["plan", "-f", "in", "--crds", "extra", "-o", "json"])
        .stdout_lacks("\"other\"")
        .run();
}

#[test]
fn only_the_crds_of_kinds_the_run_meets_are_parsed() {
    // A provider's CRD file holds many kinds; one the run never meets is not even parsed, so
    // its broken YAML goes unseen, while the control plane's CRD beside it still refuses the
    // patch.
    let kcp = std::fs::read_to_string(repo().join("testdata/crds/kubeadm-control-plane.yaml"))
        .expect("fixture");
    let unused = "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  versions: [unclosed\n";
    with_certs_patch()
        .file("extra/provider.yaml", &format!("{kcp}{unused}"))
        .args(["plan", "-f", "in", "--crds", "extra"])
        .status(1)
        .stderr_contains("written by patch \"certs\"")
        .stderr_lacks("topoplan::input::yaml")
        .run();
    // The same document under a kind the run meets is parsed, and its error reported.
    with_certs_patch()
        .file(
            "extra/provider.yaml",
            &format!("{kcp}{}", unused.replace("Widget", "DockerCluster")),
        )
        .args(["plan", "-f", "in", "--crds", "extra"])
        .status(1)
        .stderr_contains("extra/provider.yaml")
        .stderr_lacks("written by patch")
        .run();
}

#[test]
fn a_crd_file_of_one_document_of_a_kind_the_run_never_meets_is_not_parsed() {
    // controller-gen writes each CRD in a file of its own (`config/crd/bases`): a file of one
    // document is tested as a stream's document is, and passed over unparsed.
    let kcp = std::fs::read_to_string(repo().join("testdata/crds/kubeadm-control-plane.yaml"))
        .expect("fixture");
    let unused = "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n  versions: [unclosed\n";
    with_certs_patch()
        .file("extra/kcp.yaml", &kcp)
        .file("extra/widgets.yaml", unused)
        .args(["plan", "-f", "in", "--crds", "extra"])
        .status(1)
        .stderr_contains("written by patch \"certs\"")
        .stderr_lacks("topoplan::input::yaml")
        .run();
    with_certs_patch()
        .file("extra/kcp.yaml", &kcp)
        .file(
            "extra/widgets.yaml",
            &unused.replace("Widget", "DockerCluster"),
        )
        .args(["plan", "-f", "in", "--crds", "extra"])
        .status(1)
        .stderr_contains("extra/widgets.yaml:11:13")
        .run();
}

#[test]
fn a_crd_file_passed_over_unparsed_is_still_read_as_input() {
    // Such a file is dropped as it is read, yet it is read: it must be UTF-8 text, named when
    // it is not, and its bytes count against --max-input-bytes.
    let kcp = std::fs::read_to_string(repo().join("testdata/crds/kubeadm-control-plane.yaml"))
        .expect("fixture");
    let unused = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n";
    let t = with_certs_patch().file("extra/kcp.yaml", &kcp);
    let mut bytes = unused.as_bytes().to_vec();
    bytes.extend_from_slice(b"  versions: [] # \xff\n");
    std::fs::write(t.path().join("extra/widgets.yaml"), bytes).expect("write input");
    t.args(["plan", "-f", "in", "--crds", "extra"])
        .status(1)
        .stderr_contains("extra/widgets.yaml is not UTF-8 text (invalid byte at offset 195)")
        .run();
    // 60,000 bytes of a never-met kind: within a 2 MB budget with the rest, not within the
    // input plus kcp.yaml plus 30,000.
    let padded = format!("{unused}{}", "# padding\n".repeat(6_000));
    let sized = |max: &str| {
        with_certs_patch()
            .file("extra/kcp.yaml", &kcp)
            .file("extra/widgets.yaml", &padded)
            .args([
                "plan",
                "-f",
                "in",
                "--crds",
                "extra",
                "--max-input-bytes",
                max,
            ])
    };
    sized("2000000")
        .status(1)
        .stderr_contains("written by patch \"certs\"")
        .run();
    let used = std::fs::read_dir(repo().join(QUICK_START))
        .expect("fixture")
        .map(|e| e.expect("entry").metadata().expect("metadata").len())
        .sum::<u64>()
        + kcp.len() as u64;
    sized(&(used + 30_000).to_string())
        .status(1)
        .stderr_contains("input too large: extra/widgets.yaml exceeds")
        .stderr_lacks("input too large:  exceeds")
        .run();
}

/// A CRD's transition rule (`oldSelf`) runs against the stored object given with `--current`.
#[test]
fn transition_rules_see_the_stored_object() {
    let crd = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
            x-kubernetes-validations:
            - rule: self.size >= oldSelf.size
              message: size may not shrink
";
    let widget = |size: i64| {
        format!(
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: w, namespace: default}}\nspec: {{size: {size}}}\n"
        )
    };
    let p = Plan::new();
    let base = || {
        Test::new()
            .file("in/class.yaml", &p.class_yaml())
            .file("in/cluster.yaml", &p.cluster_yaml())
            .file("in/crd.yaml", crd)
            .file("current/widget.yaml", &widget(3))
    };
    base()
        .file("in/widget.yaml", &widget(2))
        .args(["plan", "-f", "in", "--current", "current"])
        .status(1)
        .stderr_contains(
            "Widget.example.com \"w\" is invalid: spec: Invalid value: size may not shrink",
        )
        .run();
    base()
        .file("in/widget.yaml", &widget(4))
        .args(["plan", "-f", "in", "--current", "current"])
        .stderr_lacks("size may not shrink")
        .run();
}

/// Every bundled example plans with its providers' real CRDs without a schema error or warning,
/// and every kind it uses has one (the runtime-sdk example, which needs its extension to plan,
/// is validated).
#[test]
fn the_bundled_examples_pass_their_real_crds() {
    for (example, command) in [
        ("quick-start", "plan"),
        ("quick-start-v1beta1", "plan"),
        ("patches-v1beta1", "plan"),
        ("patches-v1beta2", "plan"),
        ("variables", "plan"),
        ("runtime-sdk", "validate"),
    ] {
        let dir = repo().join("testdata/examples").join(example);
        Test::new()
            .args([
                command,
                "-f",
                dir.to_str().unwrap_or_default(),
                "--crds",
                &crds(),
            ])
            .stderr_lacks("topoplan::schema::")
            .run();
    }
}

/// An object the schema refuses goes no further: Cluster API's decoding of it says nothing more.
#[test]
fn a_refused_object_is_reported_once() {
    Test::new()
        .file(
            "c.yaml",
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata: {name: c, namespace: default}\nspec: null\n",
        )
        .args(["validate", "-f", "c.yaml"])
        .status(1)
        .stderr_contains("Cluster.cluster.x-k8s.io \"c\" is invalid: spec: Required value")
        .stderr_lacks("topoplan::input::field")
        .run();
}

/// Clusters of one content are admitted once; one that differs is admitted on its own.
#[test]
fn a_fleet_of_one_content_still_refuses_the_odd_one() {
    let text =
        std::fs::read_to_string(repo().join(QUICK_START).join("cluster.yaml")).expect("fixture");
    let named = |n: &str| text.replacen("name: dev\n", &format!("name: {n}\n"), 1);
    let odd = named("c3").replacen("replicas: 2", "replicas: \"2\"", 1);
    let out = Test::new()
        .fixture(QUICK_START, "in")
        .file("in/cluster.yaml", &named("c1"))
        .file("in/c2.yaml", &named("c2"))
        .file("in/c3.yaml", &odd)
        .file("in/c4.yaml", &named("c4"))
        .args(["validate", "-f", "in"])
        .status(1)
        .stderr_contains("Cluster.cluster.x-k8s.io \"c3\" is invalid: spec.topology.workers.machineDeployments[0].replicas")
        .run();
    for other in ["c1", "c2", "c4"] {
        assert!(
            !out.stderr.contains(&format!("\"{other}\" is invalid")),
            "{}",
            out.stderr
        );
    }
}

/// A CRD without versions: a warning (`topoplan::input::crd`) whatever else happens.
const INCOMPLETE_CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n";

#[test]
fn every_warning_is_told_when_a_generated_object_is_refused() {
    // The certs patch makes the generated KubeadmControlPlane invalid; the run also has a
    // pruned field, an unreadable CRD and kinds without a CRD: all are told with the error.
    let kcp = repo().join("testdata/crds/kubeadm-control-plane.yaml");
    let text =
        std::fs::read_to_string(repo().join(QUICK_START).join("templates.yaml")).expect("fixture");
    for format in ["table", "json", "yaml", "junit", "markdown"] {
        with_certs_patch()
            .file(
                "in/templates.yaml",
                &text.replacen(
                    "      machineTemplate:\n",
                    "      machineTemplatee: {}\n      machineTemplate:\n",
                    1,
                ),
            )
            .file("in/widgets.yaml", INCOMPLETE_CRD)
            .args([
                "plan",
                "-f",
                "in",
                "--crds",
                kcp.to_str().unwrap_or_default(),
                "-o",
                format,
            ])
            .status(1)
            .stderr_contains("would be refused by the API server (written by patch \"certs\")")
            .stderr_contains("topoplan::schema::pruned")
            .stderr_contains("topoplan::input::crd")
            .stderr_contains("CustomResourceDefinition widgets.example.com")
            .stderr_contains("topoplan::schema::unchecked")
            .run();
    }
}

#[test]
fn plan_tells_the_crd_warnings_validate_tells_when_admission_fails() {
    for command in ["validate", "plan"] {
        quick_start("cluster.yaml", "replicas: 2", "replicas: \"2\"")
            .file("in/widgets.yaml", INCOMPLETE_CRD)
            .args([command, "-f", "in"])
            .status(1)
            .stderr_contains("topoplan::schema::invalid")
            .stderr_contains("topoplan::input::crd")
            .stderr_contains("CustomResourceDefinition widgets.example.com")
            .run();
    }
}
