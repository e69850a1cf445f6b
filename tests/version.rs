//! `topoplan version` and `--version`: the tool's version and the Cluster API it emulates.

mod common;

use common::Test;

#[test]
fn version_names_what_is_emulated() {
    let out = Test::new().args(["version"]).run();
    let first = out.stdout.lines().next().unwrap_or("");
    assert_eq!(first, format!("topoplan {}", env!("CARGO_PKG_VERSION")));
    assert!(
        out.stdout
            .contains("Cluster API main: cluster.x-k8s.io/v1beta2 objects")
    );
    assert!(
        out.stdout
            .contains("Cluster API v1.10: cluster.x-k8s.io/v1beta1 objects")
    );
    // --version says the same.
    Test::new().args(["--version"]).stdout(&out.stdout).run();
}

#[test]
fn version_as_json() {
    Test::new()
        .args(["version", "-o", "json"])
        .stdout_json("/version", serde_json::json!(env!("CARGO_PKG_VERSION")))
        .stdout_json("/clusterAPI/1/release", serde_json::json!("v1.10"))
        .stdout_json("/planDocument", serde_json::json!("topoplan.dev/v1alpha1"))
        .run();
}
