//! Hostile inputs: a provider repository (`--provider-repo`). Links out of it, link loops,
//! special files, huge files, deep trees and directories of too many entries: every one ends
//! fast, and nothing outside the repository is read.

use crate::harness::*;

const CONFIG_MAP: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";

const METADATA: &str = "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries: [{major: 1, minor: 0, contract: v1beta2}]\n";

/// A secret that, if read, would be shown in the snippet of a YAML or metadata error.
const SECRET: &str = "TOKEN-5b1e2d: [unclosed\n";

/// A directory outside the run's working directory holding `secret.yaml`.
fn secret_outside() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("secret.yaml"), SECRET).expect("write secret");
    dir
}

/// A run of `plan` on a ConfigMap with `repo` as the repository.
fn plan(h: Hostile) -> Bounded {
    h.file("in.yaml", CONFIG_MAP)
        .env("HOME", "/nonexistent")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .args(["plan", "-f", "in.yaml", "--provider-repo", "repo"])
        .run()
}

fn mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(status.success());
}

#[test]
fn a_metadata_link_out_of_the_repository_is_refused_unread() {
    let outside = secret_outside();
    let r = plan(
        Hostile::new()
            .file(
                "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
                "",
            )
            .symlink(
                outside.path().join("secret.yaml"),
                "repo/infrastructure-x/v1.0.0/metadata.yaml",
            ),
    );
    r.within(2.0, 256);
    let stderr = r.refused("repo/infrastructure-x/v1.0.0/metadata.yaml is a symbolic link to ");
    assert!(stderr.contains("topoplan::input::outside"), "{stderr}");
    assert!(!stderr.contains("TOKEN-5b1e2d"), "{stderr}");
}

#[test]
fn a_components_link_out_of_the_repository_is_refused_unread() {
    let outside = secret_outside();
    let r = plan(
        Hostile::new()
            .file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA)
            .symlink(
                outside.path().join("secret.yaml"),
                "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
            ),
    );
    r.within(2.0, 256);
    let stderr = r.refused("infrastructure-components.yaml is a symbolic link to ");
    assert!(!stderr.contains("TOKEN-5b1e2d"), "{stderr}");
}

#[test]
fn a_provider_directory_linked_out_is_skipped_and_a_release_linked_out_refused() {
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(outside.path().join("v1.0.0")).expect("mkdir");
    std::fs::write(outside.path().join("v1.0.0/metadata.yaml"), SECRET).expect("write");
    let r = plan(
        Hostile::new()
            .file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA)
            .file(
                "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
                "",
            )
            .symlink(outside.path(), "repo/infrastructure-y"),
    );
    r.within(2.0, 256);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("repo/infrastructure-y is a symbolic link"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("TOKEN-5b1e2d"), "{}", r.stderr);
    // Naming a release that links out (generate's NAME:VERSION) is refused unread.
    let r = Hostile::new()
        .file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA)
        .symlink(
            outside.path().join("v1.0.0"),
            "repo/infrastructure-x/v2.0.0",
        )
        .env("HOME", "/nonexistent")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .args([
            "generate",
            "cluster",
            "c1",
            "--provider-repo",
            "repo",
            "-i",
            "x:v2.0.0",
        ])
        .run();
    r.within(2.0, 256);
    let stderr = r.refused("is a symbolic link to ");
    assert!(!stderr.contains("TOKEN-5b1e2d"), "{stderr}");
}

#[test]
fn link_loops_in_a_repository_end_fast() {
    let mut h = Hostile::new()
        .file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA)
        .file(
            "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
            "",
        );
    for (target, link) in [
        (".", "repo/self"),
        ("..", "repo/infrastructure-x/v9.0.0"),
        (".", "repo/infrastructure-x/v1.0.0/loop"),
        ("self-loop", "repo/infrastructure-x/self-loop"),
        ("infrastructure-x", "repo/infrastructure-z"),
    ] {
        h = h.symlink(target, link);
    }
    let r = plan(h);
    r.within(2.0, 256);
    // The ConfigMap input has no Cluster: refused for that, after the repository was read.
    r.refused("no Cluster with spec.topology found in the input");
}

#[test]
fn special_files_are_never_opened() {
    let h = Hostile::new()
        .file(
            "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
            "",
        )
        .dir("repo/infrastructure-x/v1.0.0");
    // Opening a FIFO blocks until someone writes to it: nobody will.
    mkfifo(&h.path().join("repo/infrastructure-x/v1.0.0/metadata.yaml"));
    let r = plan(h);
    r.within(2.0, 256);
    r.refused("not a regular file (a FIFO, socket or device)");

    let h = Hostile::new().file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA);
    mkfifo(
        &h.path()
            .join("repo/infrastructure-x/v1.0.0/infrastructure-components.yaml"),
    );
    let r = plan(h);
    r.within(2.0, 256);
    r.refused("not a regular file (a FIFO, socket or device)");
}

#[test]
fn a_huge_components_file_stops_at_the_budget_unread() {
    let huge = "#".repeat(4 << 20);
    let r = Hostile::new()
        .file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA)
        .file(
            "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
            huge,
        )
        .file("in.yaml", CONFIG_MAP)
        .env("HOME", "/nonexistent")
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--provider-repo",
            "repo",
            "--max-input-bytes",
            "1Mi",
        ])
        .run();
    r.within(2.0, 128);
    r.refused("topoplan::input::limit");
}

#[test]
fn variables_cannot_grow_components_past_the_budget() {
    // 10,000 uses of a 1 KiB value in a CRD's document: 10 MB from a 60 KB file.
    let mut components = String::from(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: xs.example.com}\nspec:\n  group: example.com\n  x:\n",
    );
    for i in 0..10_000 {
        components.push_str(&format!("    k{i}: ${{BIG}}\n"));
    }
    let r = Hostile::new()
        .file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA)
        .file(
            "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
            components,
        )
        .file("in.yaml", CONFIG_MAP)
        .env("HOME", "/nonexistent")
        .env("BIG", &"b".repeat(1024))
        .args([
            "plan",
            "-f",
            "in.yaml",
            "--provider-repo",
            "repo",
            "--env",
            "BIG",
            "--max-input-bytes",
            "2Mi",
        ])
        .run();
    r.within(2.0, 256);
    r.refused("topoplan::input::limit");
}

#[test]
fn too_many_releases_are_refused_fast() {
    let h = Hostile::new().dir("repo/infrastructure-x");
    let base = h.path().join("repo/infrastructure-x");
    for i in 0..10_050 {
        std::fs::create_dir(base.join(format!("v1.0.{i}"))).expect("mkdir");
    }
    let r = plan(h);
    r.within(3.0, 256);
    r.refused("more than 10000 entries in one directory of the provider repository");
}

#[test]
fn a_deep_tree_inside_a_release_is_never_walked() {
    let deep: String = (0..150).map(|i| format!("d{i}/")).collect();
    let r = plan(
        Hostile::new()
            .file("repo/infrastructure-x/v1.0.0/metadata.yaml", METADATA)
            .file(
                "repo/infrastructure-x/v1.0.0/infrastructure-components.yaml",
                "",
            )
            .file(
                &format!("repo/infrastructure-x/v1.0.0/{deep}x.yaml"),
                CONFIG_MAP,
            ),
    );
    r.within(2.0, 256);
    r.refused("no Cluster with spec.topology found in the input");
}

/// The CI job's secret, set in the environment of the runs below.
const CI_SECRET: &str = "ghs_ci-secret-7d41e0";

/// The fixture repository's newest release under `repo/`, its CRD giving the cluster template
/// a `zone` defaulted to `default` (a pull request's provider repository).
fn repository_with_default(default: &str) -> Hostile {
    let release = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/provider-repo/infrastructure-sandbox/v1.1.0");
    let mut h = Hostile::new();
    for name in [
        "metadata.yaml",
        "infrastructure-components.yaml",
        "clusterclass-sandbox.yaml",
        "cluster-template.yaml",
    ] {
        let text = std::fs::read_to_string(release.join(name))
            .expect("fixture")
            .replace(
                "default: ${SANDBOX_DEFAULT_REGION:=local}\n",
                &format!(
                    "default: ${{SANDBOX_DEFAULT_REGION:=local}}\n                      zone:\n                        type: string\n                        default: {default}\n"
                ),
            );
        h = h.file(&format!("repo/infrastructure-sandbox/v1.1.0/{name}"), text);
    }
    h.env("HOME", "/nonexistent")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .env("CI_SECRET_TOKEN", CI_SECRET)
}

#[test]
fn the_environment_never_reaches_a_provider_crd_default() {
    // clusterctl substitutes a provider's components from the whole environment: a CRD in the
    // pull request's repository defaulting a field to ${CI_SECRET_TOKEN:=none} printed the
    // job's token in every defaulted template.
    let default = "\"${CI_SECRET_TOKEN:=none}\"";
    let generated = repository_with_default(default)
        .args([
            "generate",
            "cluster",
            "c1",
            "--provider-repo",
            "repo",
            "--kubernetes-version",
            "v1.34.0",
        ])
        .run();
    assert_eq!(generated.code, 0, "{}", head(&generated.stderr));
    let plan = |extra: &[&str]| {
        repository_with_default(default)
            .file("in.yaml", &generated.stdout)
            .args([
                "plan",
                "-f",
                "in.yaml",
                "--provider-repo",
                "repo",
                "-o",
                "yaml",
            ])
            .args(extra.iter().copied())
            .run()
    };
    let r = plan(&[]);
    r.within(4.0, 512);
    assert_eq!(r.code, 0, "{}", head(&r.stderr));
    assert!(r.stdout.contains("zone: none"), "{}", head(&r.stdout));
    for text in [&r.stdout, &r.stderr] {
        assert!(
            !text.contains(CI_SECRET),
            "the secret leaked:\n{}",
            head(text)
        );
    }
    // Named on the command line, the variable is read: clusterctl's behaviour stays reachable.
    let r = plan(&["--env", "CI_SECRET_TOKEN"]);
    assert_eq!(r.code, 0, "{}", head(&r.stderr));
    assert!(r.stdout.contains(CI_SECRET), "{}", head(&r.stdout));
    let r = plan(&["--env-all"]);
    assert_eq!(r.code, 0, "{}", head(&r.stderr));
    assert!(r.stdout.contains(CI_SECRET), "{}", head(&r.stdout));
}

#[test]
fn the_environment_never_reaches_a_substituted_input() {
    // `--substitute` of a file the pull request controls: the same leak through -f. The
    // version is quoted in the error, so whatever was substituted is printed.
    let cluster = |version: &str| {
        format!(
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: c\n  namespace: default\nspec:\n  topology:\n    classRef: {{name: nope}}\n    version: \"{version}\"\n"
        )
    };
    let run = |version: &str, extra: &[&str]| {
        Hostile::new()
            .file("cluster.yaml", cluster(version))
            .env("HOME", "/nonexistent")
            .env("XDG_CONFIG_HOME", "/nonexistent")
            .env("CI_SECRET_TOKEN", CI_SECRET)
            .args(["plan", "-f", "cluster.yaml", "--substitute"])
            .args(extra.iter().copied())
            .run()
    };
    let r = run("${CI_SECRET_TOKEN:=none}", &[]);
    r.within(2.0, 256);
    let err = r.refused("version must be a valid semantic version");
    assert!(err.contains("\"none\""), "{}", head(err));
    assert!(
        !err.contains(CI_SECRET),
        "the secret leaked:\n{}",
        head(err)
    );
    // Named on the command line, it is read.
    let r = run("${CI_SECRET_TOKEN:=none}", &["--env", "CI_SECRET_TOKEN"]);
    r.refused(CI_SECRET);
    // Without a default, the variable is unset: the message says how to pass it.
    let r = run("${CI_SECRET_TOKEN}", &[]);
    r.within(2.0, 256);
    let err = r.refused("value for variables [CI_SECRET_TOKEN] is not set");
    assert!(err.contains("--env NAME"), "{}", head(err));
    assert!(!err.contains(CI_SECRET), "{}", head(err));
}
