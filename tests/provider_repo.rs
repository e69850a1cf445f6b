//! `--provider-repo DIR` on `plan`, `diff` and `validate`: the CRDs of each provider's release
//! (chosen for the input's Cluster API contract, refused when incompatible) join the input, and
//! clusterctl's config file feeds `--substitute`.

mod common;

use common::{Test, repo};

/// The fixture repository, by absolute path.
fn fixture() -> String {
    repo().join("testdata/provider-repo").display().to_string()
}

/// A test whose home and XDG config directories are its own (no user's clusterctl.yaml).
fn test() -> Test {
    let t = Test::new();
    let home = t.path().join("home");
    let xdg = t.path().join("xdg");
    t.env("HOME", &home.display().to_string())
        .env("XDG_CONFIG_HOME", &xdg.display().to_string())
}

/// A Cluster of the fixture's sandbox class (with the class), as `generate cluster` makes it.
fn generated(workers: &str) -> String {
    test()
        .args(["generate", "cluster", "c1", "--provider-repo", &fixture()])
        .args([
            "--kubernetes-version",
            "v1.34.0",
            "--worker-machine-count",
            workers,
        ])
        .run()
        .stdout
}

const METADATA_V1BETA2: &str = "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- {major: 1, minor: 0, contract: v1beta2}\n";

/// A CRD of `infrastructure.cluster.x-k8s.io` with `labels` (YAML flow mapping) and `default`
/// as a field's default.
fn crd(kind: &str, labels: &str, default: &str) -> String {
    let lower = kind.to_lowercase();
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {lower}s.infrastructure.cluster.x-k8s.io\n  labels: {labels}\nspec:\n  group: infrastructure.cluster.x-k8s.io\n  names: {{kind: {kind}, plural: {lower}s}}\n  scope: Namespaced\n  versions:\n  - name: v1beta2\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              x: {{type: string, default: \"{default}\"}}\n"
    )
}

#[test]
fn the_repository_crds_decide_how_lists_merge() {
    // The current template has a volume the topology does not set. The repository's CRD makes
    // `volumes` a list keyed by name, so the volume is kept and nothing changes; without the
    // CRD the list is atomic, and the template would be replaced.
    let yaml = generated("1");
    let t = test().file("in.yaml", &yaml);
    let state = t.path().join("state");
    let out = t
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--provider-repo",
            &fixture(),
            "--output-dir",
            "state",
        ])
        .run();
    let template = std::fs::read_dir(state.join("default/c1/created"))
        .expect("plan directory")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("SandboxMachineTemplate"))
        .expect("the worker's template");
    let mut text = std::fs::read_to_string(&template).expect("read");
    text.push_str("      - name: data\n        sizeGiB: 5\n");
    std::fs::write(&template, text).expect("write");
    let dir = out.dir;
    let again = |with_repo: bool| {
        let mut cmd = assert_cmd::Command::cargo_bin("topoplan").expect("binary");
        cmd.current_dir(dir.path())
            .env("NO_COLOR", "1")
            .env("HOME", dir.path())
            .env("XDG_CONFIG_HOME", dir.path())
            .args(["plan", "-f", "in.yaml", "--current", "state"]);
        if with_repo {
            cmd.args(["--provider-repo", &fixture()]);
        }
        let out = cmd.output().expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let with = again(true);
    assert!(
        with.contains("0 to create, 0 to modify, 7 unchanged, 0 to delete."),
        "{with}"
    );
    let without = again(false);
    assert!(without.contains("replaces"), "{without}");
    assert!(without.contains("-      - name: data"), "{without}");
}

#[test]
fn a_release_of_another_contract_is_refused() {
    // v1beta1 objects: Cluster API v1.10, whose contract is v1beta1. The repository's v0.9.0
    // implements it, and is the release chosen.
    let example = "testdata/examples/quick-start-v1beta1";
    test()
        .fixture(example, "in")
        .args(["plan", "-f", "in", "--provider-repo", &fixture()])
        .stderr_lacks("topoplan::provider")
        .run();
    let without_v0_9 = || {
        let t = test()
            .fixture(example, "in")
            .fixture("testdata/provider-repo", "repo");
        std::fs::remove_dir_all(t.path().join("repo/infrastructure-sandbox/v0.9.0")).expect("rm");
        t
    };
    // Without v0.9.0, the newest release's metadata still names the 0.9 series for v1beta1:
    // clusterctl looks for that series and finds no release.
    without_v0_9()
        .args(["plan", "-f", "in", "--provider-repo", "repo"])
        .status(1)
        .stderr_contains("the metadata.yaml of v1.1.0, the newest release, names the 0.9 series for the v1beta1 contract: failed to find releases tagged with a valid semantic version number")
        .run();
    // When its metadata does not know v1beta1 at all, the newest release is taken, and refused
    // in clusterctl's words, at the input's Cluster API version.
    let t = without_v0_9();
    std::fs::write(
        t.path().join("repo/infrastructure-sandbox/v1.1.0/metadata.yaml"),
        "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries: [{major: 1, minor: 1, contract: v1beta2}]\n",
    )
    .expect("write");
    t.args(["plan", "-f", "in", "--provider-repo", "repo"])
        .status(1)
        .stderr_contains("topoplan::provider::contract")
        .stderr_contains("the input's Cluster API version (v1beta1) is only compatible with providers implementing the v1beta1 contract versions, detected contract version v1beta2 for provider infrastructure-sandbox")
        .stderr_contains("release v1.1.0 of infrastructure-sandbox implements the v1beta2 contract")
        .stderr_contains("in/cluster.yaml")
        .stdout("")
        .run();
    // v1beta2 objects may use providers of the v1beta1 contract (GetCompatibleVersions).
    let t = test()
        .file("in.yaml", &generated("0"))
        .fixture("testdata/provider-repo", "repo");
    for v in ["v1.1.0", "v1.2.0-rc.0"] {
        std::fs::remove_dir_all(t.path().join("repo/infrastructure-sandbox").join(v)).expect("rm");
    }
    t.args(["validate", "-f", "in.yaml", "--provider-repo", "repo"])
        .run();
}

#[test]
fn only_variables_of_crds_need_values() {
    // The fixture's Secret uses ${SANDBOX_TOKEN}: a plan does not read it.
    test()
        .file("in.yaml", &generated("0"))
        .env_remove_all()
        .args(["validate", "-f", "in.yaml", "--provider-repo", &fixture()])
        .stderr("")
        .run();
    let components = format!(
        "apiVersion: v1\nkind: Secret\nmetadata: {{name: s}}\nstringData: {{token: \"${{TOKEN}}\"}}\n---\n{}",
        crd(
            "SandboxCluster",
            "{cluster.x-k8s.io/v1beta2: v1beta2}",
            "${CRD_DEFAULT}"
        )
    );
    let repo_test = || {
        test()
            .file(
                "repo/infrastructure-x/v1.0.0/metadata.yaml",
                METADATA_V1BETA2,
            )
            .file(
                "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
                &components,
            )
            .file(
                "in.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n",
            )
            .args(["validate", "-f", "in.yaml", "--provider-repo", "repo"])
    };
    repo_test()
        .status(1)
        .stderr_contains("topoplan::input::unset-variable")
        .stderr_contains("value for variables [CRD_DEFAULT] is not set")
        .stderr_contains("repo/infrastructure-x/v1.0.0/infrastructure-components.yaml:26:43")
        .stderr_lacks("TOKEN")
        .run();
    repo_test()
        .env("CRD_DEFAULT", "set")
        .args(["--env", "CRD_DEFAULT"])
        .stderr("")
        .run();
    // The clusterctl config file and --env-file feed the components too.
    repo_test()
        .file("clusterctl.yaml", "crd_default: from-config\n")
        .args(["--config", "clusterctl.yaml"])
        .stderr("")
        .run();
    repo_test()
        .file("vars.env", "CRD_DEFAULT=from-file\n")
        .args(["--env-file", "vars.env"])
        .stderr("")
        .run();
}

#[test]
fn crds_without_a_contract_label_are_warned_about() {
    test()
        .file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA_V1BETA2)
        .file(
            "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
            &crd("SandboxCluster", "{}", "x"),
        )
        .file("in.yaml", &generated("0"))
        .args(["validate", "-f", "in.yaml", "--provider-repo", "repo"])
        .stderr_contains("topoplan::provider::contract-label")
        .stderr_contains("CustomResourceDefinition sandboxclusters.infrastructure.cluster.x-k8s.io has no cluster.x-k8s.io/v1beta2 or cluster.x-k8s.io/v1beta1 label")
        .run();
}

#[test]
fn validate_uses_but_does_not_print_the_repository_crds() {
    let out = test()
        .file("in.yaml", &generated("0"))
        .args([
            "validate",
            "-f",
            "in.yaml",
            "--provider-repo",
            &fixture(),
            "-o",
            "yaml",
        ])
        .run();
    assert!(out.stdout.contains("kind: ClusterClass"), "{}", out.stdout);
    assert!(
        !out.stdout.contains("CustomResourceDefinition"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_crd_the_input_holds_wins_over_the_repository_one() {
    let input = format!(
        "{}---\n{}",
        generated("0"),
        crd(
            "SandboxMachineTemplate",
            "{cluster.x-k8s.io/v1beta2: v1beta2}",
            "x"
        )
    );
    test()
        .file("in.yaml", &input)
        .args(["plan", "-f", "in.yaml", "--provider-repo", &fixture()])
        .stderr_lacks("duplicate")
        .run();
}

#[test]
fn bad_metadata_and_layouts_are_reported() {
    let release = |metadata: &str| {
        test()
            .file("repo/infrastructure-x/v2.0.0/metadata.yaml", metadata)
            .file(
                "repo/infrastructure-x/v2.0.0/infrastructure-components.yaml",
                "",
            )
            .file(
                "in.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n",
            )
            .args(["plan", "-f", "in.yaml", "--provider-repo", "repo"])
            .status(1)
    };
    release("apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries: [{major: 1, minor: 0, contract: v1beta1}]\n")
        .stderr_contains("topoplan::provider::metadata")
        .stderr_contains("invalid provider metadata: version v2.0.0 for the provider infrastructure-x does not match any release series. Available series: [1.0].")
        .run();
    release("apiVersion: v1\nreleaseSeries: [{major: 2, minor: 0, contract: v1beta2}]\n")
        .stderr_contains(
            "invalid provider metadata: unexpected apiVersion \"v1\" for provider infrastructure-x",
        )
        .run();
    test()
        .file("repo/infrastructure-x/notes.txt", "")
        .file("in.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n")
        .args(["plan", "-f", "in.yaml", "--provider-repo", "repo"])
        .status(1)
        .stderr_contains("failed to find releases tagged with a valid semantic version number in repo/infrastructure-x")
        .run();
    test()
        .file(
            "in.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n",
        )
        .args(["plan", "-f", "in.yaml", "--provider-repo", "nowhere"])
        .status(1)
        .stderr_contains("cannot read the provider repository nowhere")
        .run();
    // A directory that is not a provider's is skipped with a warning.
    test()
        .fixture("testdata/provider-repo", "repo")
        .file("repo/overrides/README", "")
        .file("in.yaml", &generated("0"))
        .args(["validate", "-f", "in.yaml", "--provider-repo", "repo"])
        .stderr_contains("repo/overrides is not a provider directory; skipped")
        .run();
}

#[test]
fn diff_reads_the_repository_for_both_sides() {
    test()
        .file("old/in.yaml", &generated("1"))
        .file("new/in.yaml", &generated("3"))
        .args([
            "diff",
            "old",
            "new",
            "--provider-repo",
            &fixture(),
            "--stat",
        ])
        .stdout_contains("Cluster default/c1")
        .run();
}

#[test]
fn the_config_file_feeds_substitution_below_env_file_and_environment() {
    let input = generated("0").replace("value: local", "value: ${REGION}");
    let plan = |t: Test| {
        t.file("in.yaml", &input)
            .file("clusterctl.yaml", "REGION: from-config\n")
            .args([
                "plan",
                "-f",
                "in.yaml",
                "--substitute",
                "--config",
                "clusterctl.yaml",
                "-o",
                "json",
            ])
    };
    plan(test())
        .stdout_contains("\"region\": \"from-config\"")
        .run();
    plan(test())
        .file("vars.env", "REGION=from-env-file\n")
        .args(["--env-file", "vars.env"])
        .stdout_contains("\"region\": \"from-env-file\"")
        .run();
    plan(test())
        .file("vars.env", "REGION=from-env-file\n")
        .args(["--env-file", "vars.env"])
        .env("REGION", "from-env")
        .args(["--env", "REGION"])
        .stdout_contains("\"region\": \"from-env\"")
        .run();
    // The default file, found where clusterctl looks, counts too.
    test()
        .file("in.yaml", &input)
        .file("home/.cluster-api/clusterctl.yaml", "REGION: from-home\n")
        .args(["plan", "-f", "in.yaml", "--substitute", "-o", "json"])
        .stdout_contains("\"region\": \"from-home\"")
        .run();
    // --env-file may give variables to the repository's components alone.
    test()
        .file("in.yaml", &generated("0"))
        .file("vars.env", "X=1\n")
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--env-file",
            "vars.env",
            "--provider-repo",
            &fixture(),
        ])
        .run();
}
