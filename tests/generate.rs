//! `topoplan generate cluster`: clusterctl's `generate cluster` from a local repository
//! (testdata/provider-repo), its built-in variables, their precedence, flavors, the appended
//! ClusterClass, `--list-variables`, the clusterctl config file, and the pipe into `plan`.

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

/// `generate cluster c1 --provider-repo <fixture> --env-all` (clusterctl's reading of the
/// whole environment) with `args` appended.
fn generate(args: &[&str]) -> Test {
    test()
        .args([
            "generate",
            "cluster",
            "c1",
            "--provider-repo",
            &fixture(),
            "--env-all",
        ])
        .args(args.iter().copied())
}

#[test]
fn the_environment_is_read_only_for_the_variables_named() {
    let base = || {
        test().args([
            "generate",
            "cluster",
            "c1",
            "--provider-repo",
            &fixture(),
            "--flavor",
            "ha",
            "--kubernetes-version",
            "v1.34.0",
        ])
    };
    // Set, but not passed: as if unset.
    base()
        .env("SANDBOX_REGION", "eu")
        .status(1)
        .stderr_contains("value for variables [SANDBOX_REGION] is not set")
        .stderr_contains("pass --env NAME")
        .run();
    base()
        .env("SANDBOX_REGION", "eu")
        .args(["--env", "SANDBOX_REGION"])
        .stdout_contains("value: eu")
        .run();
    base()
        .env("SANDBOX_REGION", "eu")
        .args(["--env-all"])
        .stdout_contains("value: eu")
        .run();
}

#[test]
fn the_latest_release_and_its_cluster_class() {
    let out = generate(&["--kubernetes-version", "v1.34.0"])
        // The newest release, not the newer pre-release v1.2.0-rc.0 (which has no templates).
        .stdout_contains("sandbox.example.com/release: v1.1.0")
        .run();
    // clusterclass-sandbox.yaml comes first, then the template's Cluster; each object is in the
    // default namespace and every variable is substituted.
    let docs: Vec<&str> = out.stdout.split("---\n").collect();
    assert_eq!(docs.len(), 6, "{}", out.stdout);
    assert!(docs[0].starts_with("apiVersion: cluster.x-k8s.io/v1beta2\nkind: ClusterClass\n"));
    assert!(docs[5].contains("kind: Cluster\nmetadata:\n  name: c1\n  namespace: default\n"));
    assert!(docs.iter().all(|d| d.contains("  namespace: default\n")));
    assert!(!out.stdout.contains("${"));
    assert!(docs[5].contains("    controlPlane:\n      replicas: 1\n"));
    assert!(docs[5].contains("        replicas: 0\n"));
    assert!(docs[5].contains("    - name: region\n      value: local\n"));
}

#[test]
fn a_version_is_chosen_with_the_infrastructure_flag() {
    generate(&[
        "--infrastructure",
        "sandbox:v1.1.0",
        "--kubernetes-version",
        "v1.34.0",
    ])
    .stdout_contains("sandbox.example.com/release: v1.1.0")
    .run();
    generate(&["-i", "sandbox:v1.2.0-rc.0", "--kubernetes-version", "v1.34.0"])
        .status(1)
        .stderr_contains("failed to read \"cluster-template.yaml\" from provider's repository \"infrastructure-sandbox\"")
        .stderr_contains("has no cluster-template*.yaml")
        .stdout("")
        .run();
    generate(&["-i", "sandbox:v9.9.9"])
        .status(1)
        .stderr_contains("topoplan::provider::repository")
        .stderr_contains("v9.9.9/cluster-template.yaml")
        .run();
    generate(&["-i", "sandbox:../../etc"])
        .status(1)
        .stderr_contains("invalid version \"../../etc\"")
        .run();
    generate(&["-i", "sandbox:"])
        .status(1)
        .stderr_contains("invalid provider name \"sandbox:\". Provider name should be in the form name[:version] and version cannot be empty")
        .run();
    generate(&["-i", "docker"])
        .status(1)
        .stderr_contains("topoplan::provider::not-found")
        .stderr_contains("has no infrastructure-docker directory")
        .run();
}

#[test]
fn a_flavor_is_its_own_template() {
    generate(&["--flavor", "ha", "--kubernetes-version", "v1.34.0"])
        .env("SANDBOX_REGION", "eu")
        .stdout_contains("sandbox.example.com/flavor: ha")
        .stdout_contains("name: md-b")
        .stdout_contains("value: eu")
        .run();
    // The ha flavor's region has no default.
    generate(&["--flavor", "ha", "--kubernetes-version", "v1.34.0"])
        .env_remove_all()
        .status(1)
        .stderr_contains("value for variables [SANDBOX_REGION] is not set. Please set the value using os environment variables, the clusterctl config file or a file passed with --env-file")
        .stderr_contains("cluster-template-ha.yaml:26:14")
        .run();
    generate(&["--flavor", "tiny"])
        .status(1)
        .stderr_contains("cluster-template-tiny.yaml")
        .stderr_contains("release v1.1.0 of infrastructure-sandbox has: no --flavor, --flavor ha")
        .run();
}

#[test]
fn unset_variables_are_named_as_clusterctl_names_them() {
    generate(&[])
        .env_remove_all()
        .status(1)
        .stderr_contains("topoplan::input::unset-variable")
        .stderr_contains("value for variables [KUBERNETES_VERSION] is not set")
        .stderr_contains("cluster-template.yaml:16:14")
        .stdout("")
        .run();
    // Reported once.
    let out = generate(&[]).env_remove_all().status(1).run();
    assert_eq!(
        out.stderr.matches("is not set. Please set").count(),
        1,
        "{}",
        out.stderr
    );
}

#[test]
fn built_in_variables_are_checked() {
    generate(&["--kubernetes-version", "1.34"])
        .status(1)
        .stderr_contains("invalid KubernetesVersion. Please use a semantic version number")
        .run();
    test()
        .args(["generate", "cluster", "C_1", "--provider-repo", &fixture()])
        .status(1)
        .stderr_contains("invalid cluster name: a lowercase RFC 1123 subdomain")
        .run();
    generate(&["-n", "Team_A"])
        .status(1)
        .stderr_contains("invalid target-namespace: a lowercase RFC 1123 label")
        .run();
    generate(&["--control-plane-machine-count", "0"])
        .status(1)
        .stderr_contains(
            "invalid ControlPlaneMachineCount. Please use a number greater than or equal to 1",
        )
        .run();
    generate(&["--worker-machine-count", "-1"])
        .status(1)
        .stderr_contains(
            "invalid WorkerMachineCount. Please use a number greater than or equal to 0",
        )
        .run();
    generate(&["--kubernetes-version", "v1.34.0"])
        .env("WORKER_MACHINE_COUNT", "three")
        .status(1)
        .stderr_contains("invalid value for WORKER_MACHINE_COUNT set")
        .run();
}

#[test]
fn flags_beat_the_environment_which_beats_the_env_file_which_beats_the_config_file() {
    let config = "SANDBOX_REGION: from-config\nkubernetes_version: v1.33.0\nWORKER_MACHINE_COUNT: 4\nPOD_CIDR: 10.0.0.0/8\n";
    let env_file = "SANDBOX_REGION=from-env-file\nWORKER_MACHINE_COUNT=5\n";
    let run = |t: Test| t.run().stdout;
    // Each layer, removed from the top.
    let all = run(generate(&[
        "--config",
        "clusterctl.yaml",
        "--env-file",
        "vars.env",
        "--worker-machine-count",
        "7",
    ])
    .file("clusterctl.yaml", config)
    .file("vars.env", env_file)
    .env("SANDBOX_REGION", "from-env")
    .env("WORKER_MACHINE_COUNT", "6"));
    assert!(all.contains("value: from-env\n"), "{all}");
    assert!(all.contains("        replicas: 7\n"), "{all}");
    // A config key matches in any case; a float-looking value would read as Go prints it.
    assert!(all.contains("version: v1.33.0\n"), "{all}");
    assert!(all.contains("- 10.0.0.0/8\n"), "{all}");
    let no_env = run(
        generate(&["--config", "clusterctl.yaml", "--env-file", "vars.env"])
            .file("clusterctl.yaml", config)
            .file("vars.env", env_file),
    );
    assert!(no_env.contains("value: from-env-file\n"), "{no_env}");
    assert!(no_env.contains("        replicas: 5\n"), "{no_env}");
    let config_only =
        run(generate(&["--config", "clusterctl.yaml"]).file("clusterctl.yaml", config));
    assert!(
        config_only.contains("value: from-config\n"),
        "{config_only}"
    );
    assert!(
        config_only.contains("        replicas: 4\n"),
        "{config_only}"
    );
    // The flag beats every variable.
    let flag = run(generate(&[
        "--config",
        "clusterctl.yaml",
        "--kubernetes-version",
        "v1.34.1",
    ])
    .file("clusterctl.yaml", config)
    .env("KUBERNETES_VERSION", "v1.32.0"));
    assert!(flag.contains("version: v1.34.1\n"), "{flag}");
    // The environment is read upper-cased, as viper reads it: a lower-case name does not count.
    let lower = run(generate(&["--config", "clusterctl.yaml"])
        .file("clusterctl.yaml", config)
        .env("sandbox_region", "lower"));
    assert!(lower.contains("value: from-config\n"), "{lower}");
}

#[test]
fn the_default_config_file_is_found_where_clusterctl_looks() {
    let config = "SANDBOX_REGION: from-xdg\nKUBERNETES_VERSION: v1.34.0\n";
    generate(&[])
        .file("xdg/cluster-api/clusterctl.yaml", config)
        .file(
            "home/.cluster-api/clusterctl.yaml",
            "SANDBOX_REGION: from-home\n",
        )
        .stdout_contains("value: from-xdg\n")
        .run();
    generate(&[])
        .file("home/.cluster-api/clusterctl.yaml", config)
        .stdout_contains("value: from-xdg\n")
        .run();
    // viper tries clusterctl.json before clusterctl.yaml; a format topoplan does not read is
    // refused rather than skipped.
    generate(&[])
        .file("xdg/cluster-api/clusterctl.toml", "SANDBOX_REGION = \"x\"\n")
        .status(1)
        .stderr_contains("topoplan::config::invalid")
        .stderr_contains("clusterctl.toml: topoplan reads clusterctl configuration files in YAML or JSON, not toml")
        .run();
    generate(&["--config", "missing.yaml"])
        .status(1)
        .stderr_contains("failed to check if clusterctl config file exists: stat missing.yaml")
        .run();
}

#[test]
fn config_providers_name_local_repositories_and_refuse_remote_ones() {
    let local = format!(
        "KUBERNETES_VERSION: v1.34.0\nproviders:\n- name: sandbox\n  type: InfrastructureProvider\n  url: file://{}/infrastructure-sandbox/latest/infrastructure-components.yaml\n",
        fixture()
    );
    test()
        .file("clusterctl.yaml", &local)
        .args([
            "generate",
            "cluster",
            "c1",
            "--config",
            "clusterctl.yaml",
            "-i",
            "sandbox",
        ])
        .stdout_contains("sandbox.example.com/release: v1.1.0")
        .run();
    let remote = "providers:\n- name: sandbox\n  type: InfrastructureProvider\n  url: https://github.com/example/cluster-api-provider-sandbox/releases/latest/infrastructure-components.yaml\n";
    test()
        .file("clusterctl.yaml", remote)
        .args(["generate", "cluster", "c1", "--config", "clusterctl.yaml", "-i", "sandbox"])
        .status(1)
        .stderr_contains("topoplan::provider::remote")
        .stderr_contains("the InfrastructureProvider sandbox is configured with the remote repository https://github.com/example/")
        .stderr_contains("clusterctl.yaml:4:8")
        .stderr_contains("DIR/infrastructure-sandbox/<version>/")
        .stderr_contains("--provider-repo DIR")
        .stdout("")
        .run();
    // The flag's repository wins over the configuration's remote entry.
    test()
        .file("clusterctl.yaml", remote)
        .args([
            "generate",
            "cluster",
            "c1",
            "--config",
            "clusterctl.yaml",
            "-i",
            "sandbox",
        ])
        .args([
            "--provider-repo",
            &fixture(),
            "--kubernetes-version",
            "v1.34.0",
        ])
        .stdout_contains("kind: ClusterClass")
        .run();
    test()
        .file("clusterctl.yaml", "providers:\n- name: sandbox\n  type: Infra\n  url: file:///x/infrastructure-sandbox/v1.0.0/c.yaml\n")
        .args(["generate", "cluster", "c1", "--config", "clusterctl.yaml", "-i", "sandbox"])
        .status(1)
        .stderr_contains("error validating configuration for the Infra with name sandbox. Please fix the providers value in clusterctl configuration file: invalid provider type.")
        .run();
}

#[test]
fn list_variables_prints_like_clusterctl() {
    generate(&["--list-variables"])
        .env_remove_all()
        .stdout(
            "Required Variables:
  - KUBERNETES_VERSION

Optional Variables:
  - CLUSTER_NAME                 (defaults to c1)
  - CONTROL_PLANE_MACHINE_COUNT  (defaults to 1)
  - NAMESPACE                    (defaults to default)
  - POD_CIDR                     (defaults to \"192.168.0.0/16\")
  - SANDBOX_REGION               (defaults to \"local\")
  - WORKER_MACHINE_COUNT         (defaults to 0)

",
        )
        .run();
    generate(&[
        "--list-variables",
        "--flavor",
        "ha",
        "-n",
        "team-a",
        "--kubernetes-version",
        "v1.34.0",
        "--worker-machine-count",
        "3",
    ])
    .env_remove_all()
    .stdout(
        "Required Variables:
  - SANDBOX_REGION

Optional Variables:
  - CLUSTER_NAME                 (defaults to c1)
  - CONTROL_PLANE_MACHINE_COUNT  (defaults to 1)
  - KUBERNETES_VERSION           (defaults to v1.34.0)
  - NAMESPACE                    (defaults to team-a)
  - WORKER_MACHINE_COUNT         (defaults to 3)

",
    )
    .run();
}

#[test]
fn a_class_the_template_defines_is_not_fetched_and_a_missing_one_is_an_error() {
    let dir = Test::new();
    let root = dir.path().join("repo/infrastructure-tiny/v1.0.0");
    let cluster = |class: &str| {
        format!(
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: ${{CLUSTER_NAME}}\nspec:\n  topology:\n    classRef:\n      name: {class}\n    version: v1.34.0\n"
        )
    };
    let class = "apiVersion: cluster.x-k8s.io/v1beta2\nkind: ClusterClass\nmetadata:\n  name: inline\nspec: {}\n";
    let repo_dir = dir.path().join("repo").display().to_string();
    let t = dir
        .file("repo/infrastructure-tiny/v1.0.0/metadata.yaml", "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries: [{major: 1, minor: 0, contract: v1beta2}]\n")
        .file("repo/infrastructure-tiny/v1.0.0/cluster-template.yaml", &format!("{class}---\n{}", cluster("inline")))
        .file("repo/infrastructure-tiny/v1.0.0/cluster-template-other.yaml", &cluster("other"));
    assert!(root.is_dir());
    let t = t
        .env("HOME", "/nonexistent")
        .env("XDG_CONFIG_HOME", "/nonexistent");
    let out = t
        .args(["generate", "cluster", "c1", "--provider-repo", &repo_dir])
        .run();
    assert_eq!(
        out.stdout.matches("kind: ClusterClass").count(),
        1,
        "{}",
        out.stdout
    );
    test()
        .args(["generate", "cluster", "c1", "--provider-repo", &repo_dir, "--flavor", "other"])
        .status(1)
        .stderr_contains("failed to get the cluster class template for \"default/other\": failed to read \"clusterclass-other.yaml\" from provider's repository \"infrastructure-tiny\"")
        .run();
}

#[test]
fn generate_pipes_into_plan() {
    let yaml = generate(&[
        "--kubernetes-version",
        "v1.34.0",
        "--worker-machine-count",
        "2",
        "-n",
        "team-a",
    ])
    .run()
    .stdout;
    test()
        .stdin(&yaml)
        .args(["plan", "-f", "-", "--provider-repo", &fixture()])
        .stdout_contains("Cluster team-a/c1 (ClusterClass team-a/sandbox):")
        .stdout_matches(r"team-a +SandboxCluster +c1-\w+ +created")
        .stdout_matches(r"team-a +SandboxMachineTemplate +c1-md-0-\w+ +created")
        .stdout_contains("6 to create, 1 to modify")
        // The repository's Sandbox CRDs check its templates; the kubeadm providers are not in
        // it, so their kinds are named as unchecked, and nothing else is said.
        .stderr_contains("no CustomResourceDefinition for bootstrap.cluster.x-k8s.io/v1beta2 KubeadmConfigTemplate, controlplane.cluster.x-k8s.io/v1beta2 KubeadmControlPlaneTemplate:")
        .stderr_lacks("Sandbox")
        .stderr_lacks("×")
        .run();
}
