//! External patches end to end: `topoplan plan` and `validate` against the test extension
//! (tests/extension_server) on 127.0.0.1, with the runtime-sdk fixture (an external patch with
//! GeneratePatches, ValidateTopology and DiscoverVariables, then an inline patch).

mod common;
mod extension_server;

use std::time::Duration;

use common::Test;
use extension_server::{ExtensionServer, Hook, Mode};
use serde_json::{Value, json};

const FIXTURE: &str = "testdata/examples/runtime-sdk";

/// `plan` of the fixture against `server`, with extra arguments (to add expectations to and
/// run).
fn plan(server: &ExtensionServer, extra: &[&str]) -> Test {
    let ext = format!("test-extension={}", server.url);
    let mut args = vec!["plan", "-f", "ex", "--extension", &ext];
    args.extend_from_slice(extra);
    Test::new().fixture(FIXTURE, "ex").args(args)
}

/// The port changes from run to run.
fn redact(text: &str, server: &ExtensionServer) -> String {
    text.replace(&server.url, "http://127.0.0.1:PORT")
}

fn hook_requests(server: &ExtensionServer, hook: &str) -> Vec<Value> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.target.contains(&format!("/{hook}/")))
        .map(|r| r.body)
        .collect()
}

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["name"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn plans_with_the_extension() {
    let server = ExtensionServer::http();
    let out = plan(&server, &["--output", "yaml"]).run();
    insta::assert_snapshot!("runtime_sdk_yaml", out.ok());
    assert!(!out.stderr.contains("skipped"), "{}", out.stderr);

    // DiscoverVariables once per discovery patch, with the patch's settings.
    let discover = hook_requests(&server, "discovervariables");
    assert_eq!(discover.len(), 1, "{discover:?}");
    assert_eq!(discover[0]["settings"], json!({"profile": "e2e"}));

    // GeneratePatches sees the variables discovered for its patch, in the Cluster's order with
    // builtin last, and not the inline variable "region".
    let generate = hook_requests(&server, "generatepatches");
    assert_eq!(generate.len(), 1);
    let req = &generate[0];
    assert_eq!(req["settings"], json!({"profile": "e2e"}));
    assert_eq!(
        names(&req["variables"]),
        [
            "imageRepository",
            "kubeadmControlPlaneMaxSurge",
            "files",
            "builtin"
        ]
    );
    let kinds: Vec<&str> = req["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["object"]["kind"].as_str())
        .collect();
    assert_eq!(
        kinds,
        [
            "DevClusterTemplate",
            "KubeadmControlPlaneTemplate",
            "DevMachineTemplate",
            "KubeadmConfigTemplate",
            "DevMachineTemplate",
            "KubeadmConfigTemplate",
            "DevMachineTemplate",
            "KubeadmConfigTemplate",
            "DevMachinePoolTemplate"
        ]
    );

    // ValidateTopology once, after every patch: it sees the inline patch's label and the
    // inline patch's variables (the last patch's), and no uids.
    let validate = hook_requests(&server, "validatetopology");
    assert_eq!(validate.len(), 1);
    let items = validate[0]["items"].as_array().cloned().unwrap_or_default();
    assert!(items.iter().all(|i| i.get("uid").is_none()));
    assert!(items.iter().any(
        |i| i["object"]["spec"]["template"]["metadata"]["labels"]["topology.example.com/region"]
            == "eu-central-1"
    ));
    assert_eq!(names(&validate[0]["variables"]), ["region", "builtin"]);
}

#[test]
fn explain_shows_the_extension_operations() {
    let server = ExtensionServer::http();
    let out = plan(&server, &["--explain"]).run();
    let text = out.ok();
    let explain = &text[text.find("Patches of Cluster").unwrap_or(0)..];
    insta::assert_snapshot!("runtime_sdk_explain", redact(explain, &server));

    // The plan document carries the same, with whole values.
    let out = plan(&server, &["--explain", "--output", "json"]).run();
    let doc: Value = serde_json::from_str(out.ok()).expect("plan JSON");
    let patches = &doc["clusters"][0]["patches"];
    assert_eq!(patches[0]["name"], "test-patch");
    assert_eq!(
        patches[1]["templates"][4]["object"],
        "MachineDeployment/md-0/InfrastructureMachineTemplate"
    );
    assert_eq!(
        patches[1]["templates"][4]["operations"],
        json!([{"op": "add", "path": "/spec/template/metadata", "value": {"labels": {
            "topology.example.com/pool": "md-0", "topology.example.com/region": "us-east-1"}}}])
    );
    assert_eq!(
        patches[1]["templates"][0]["reason"],
        "no definition selects it"
    );
}

#[test]
fn validate_discovers_variables_from_the_extension() {
    let server = ExtensionServer::http();
    let ext = format!("test-extension={}", server.url);
    // Without imageRepository, which the extension declares required.
    let cluster = std::fs::read_to_string(common::repo().join(FIXTURE).join("cluster.yaml"))
        .expect("fixture");
    let cluster = cluster.replace(
        "    - name: imageRepository\n      value: registry.example.com/kind\n",
        "",
    );
    let out = Test::new()
        .fixture(FIXTURE, "ex")
        .file("ex/cluster.yaml", &cluster)
        .args(["validate", "-f", "ex", "--extension", &ext])
        .status(1)
        .run();
    insta::assert_snapshot!("runtime_sdk_validate_required", out.fails());
    assert_eq!(hook_requests(&server, "discovervariables").len(), 1);
    assert!(hook_requests(&server, "generatepatches").is_empty());
}

#[test]
fn no_extension_is_a_clear_error() {
    let out = Test::new()
        .fixture(FIXTURE, "ex")
        .args(["plan", "-f", "ex"])
        .status(1)
        .stdout("")
        .run();
    insta::assert_snapshot!("runtime_sdk_no_extension", out.stderr);
}

#[test]
fn validate_without_extension_warns_that_variables_are_unchecked() {
    Test::new()
        .fixture(FIXTURE, "ex")
        .args(["validate", "-f", "ex"])
        .stderr_contains(
            "pass --extension test-extension=URL, or add the extension's DiscoverVariablesResponse",
        )
        .run();
}

#[test]
fn unreachable_extension() {
    // A port nobody listens on: bind, note it, close.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("port");
    let ext = format!("test-extension=http://127.0.0.1:{port}");
    Test::new()
        .fixture(FIXTURE, "ex")
        .args(["plan", "-f", "ex", "--extension", &ext])
        .status(1)
        .stdout("")
        .stderr_contains("failed to discover extension \"test-extension\": http call failed")
        // Go's wording, pointing at the patch that needs the extension.
        .stderr_contains(&format!(
            "discovery?timeout=10s\": dial tcp 127.0.0.1:{port}: connect: connection refused"
        ))
        .stderr_contains("ex/clusterclass.yaml:64:")
        .stderr_contains("ClusterClass fleet/dev-sdk needs this extension")
        .stderr_contains(&format!(
            "is the extension running and reachable at http://127.0.0.1:{port}?"
        ))
        .run();
}

/// Discovery with short timeouts, so a slow extension fails fast.
fn fast_discovery(policy: &str) -> Value {
    let gvh =
        |hook: &str| json!({"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "hook": hook});
    json!({
        "status": "Success",
        "handlers": [
            {"name": "generate-patches", "requestHook": gvh("GeneratePatches"),
             "timeoutSeconds": 1, "failurePolicy": policy},
            {"name": "validate-topology", "requestHook": gvh("ValidateTopology"),
             "timeoutSeconds": 1, "failurePolicy": policy},
            {"name": "discover-variables", "requestHook": gvh("DiscoverVariables"),
             "timeoutSeconds": 1, "failurePolicy": policy}
        ]
    })
}

#[test]
fn slow_extension_times_out() {
    let server = ExtensionServer::http();
    server.set_discovery(fast_discovery("Fail"));
    server.set_mode(Mode::Delay(Duration::from_millis(1500)));
    plan(&server, &[])
        .status(1)
        .stdout("")
        .stderr_contains(&format!("failed to call DiscoverVariables for patch test-patch: failed to call extension handler \"discover-variables.test-extension\": http call failed: Post \"{}/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovervariables/discover-variables?timeout=1s\": context deadline exceeded", server.url))
        .run();
}

#[test]
fn non_200_fails_the_plan() {
    let server = ExtensionServer::http();
    server.set_mode(Mode::Status(500, "boom".into()));
    plan(&server, &[])
        .status(1)
        .stdout("")
        .stderr_contains(
            "http call failed: got response with status code 500 != 200: response : \"boom\"",
        )
        .run();
}

#[test]
fn garbage_body_fails_the_plan() {
    let server = ExtensionServer::http();
    server.set_mode(Mode::Garbage);
    plan(&server, &[])
        .status(1)
        .stderr_contains("http call failed: failed to decode response")
        .run();
}

#[test]
fn failure_policy_ignore_plans_without_the_extension() {
    let server = ExtensionServer::http();
    server.set_discovery(fast_discovery("Ignore"));
    server.set_mode(Mode::Status(503, "unavailable".into()));
    // DiscoverVariables was ignored (an empty success): the class has only its inline
    // variable, so the Cluster's extension variables are not defined in the ClusterClass.
    plan(&server, &["--output", "json"])
        .status(1)
        .stderr_contains("ignored because of failurePolicy Ignore: failed to call extension handler \"discover-variables.test-extension\"")
        .stderr_contains("imageRepository")
        .run();
}

#[test]
fn failure_response_fails_the_plan() {
    let server = ExtensionServer::http();
    server.set_mode(Mode::Failure("the extension says no".into()));
    plan(&server, &[])
        .status(1)
        .stderr_contains("got failure response with message: the extension says no")
        .run();
}

#[test]
fn https_extension_config_with_ca_bundle() {
    let server = ExtensionServer::https();
    let ca = server.ca_pem.clone().expect("ca");
    let ca_b64 = topoplan::go::base64::encode(ca.as_bytes());
    let config = format!(
        "apiVersion: runtime.cluster.x-k8s.io/v1alpha1\nkind: ExtensionConfig\nmetadata:\n  name: test-extension\nspec:\n  clientConfig:\n    url: {}\n    caBundle: {ca_b64}\n",
        server.url
    );
    let out = Test::new()
        .fixture(FIXTURE, "ex")
        .file("ex/extensionconfig.yaml", &config)
        .args(["plan", "-f", "ex", "--output", "yaml"])
        .args(["--allow-extension-url", &server.url])
        .run();
    insta::assert_snapshot!("runtime_sdk_yaml", out.ok());
    // Without the flag, the ExtensionConfig's URL is not called.
    Test::new()
        .fixture(FIXTURE, "ex")
        .file("ex/extensionconfig.yaml", &config)
        .args(["plan", "-f", "ex"])
        .status(1)
        .stderr_contains("topoplan::extension::not-allowed")
        .stderr_contains("--allow-extension-url")
        .run();
}

#[test]
fn https_without_the_ca_is_refused() {
    let server = ExtensionServer::https();
    plan(&server, &[])
        .status(1)
        .stderr_contains("failed to discover extension \"test-extension\"")
        .run();
    assert!(server.requests().is_empty());
}

#[test]
fn inline_classes_never_call_extensions() {
    let server = ExtensionServer::http();
    let ext = format!("test-extension={}", server.url);
    Test::new()
        .fixture("testdata/examples/quick-start", "ex")
        .args(["plan", "-f", "ex", "--extension", &ext, "--output", "json"])
        .run();
    assert!(server.requests().is_empty());
}

/// A GeneratePatches answer with one item.
fn one_patch(uid: &str, patch_type: &str, patch: &[u8]) -> Value {
    json!({"status": "Success", "items": [{
        "uid": uid,
        "patchType": patch_type,
        "patch": topoplan::go::base64::encode(patch),
    }]})
}

#[test]
fn response_for_an_unknown_uid() {
    let server = ExtensionServer::http();
    server.set_hook_mode(
        Hook::GeneratePatches,
        Mode::Respond(one_patch("no-such-uid", "JSONPatch", b"[]")),
    );
    let out = plan(&server, &[]).status(1).stdout("").run();
    insta::assert_snapshot!("runtime_sdk_unknown_uid", out.stderr);
}

#[test]
fn undecodable_patch() {
    let server = ExtensionServer::http();
    // The uid of the InfrastructureCluster's template, as topoplan builds it.
    let uid = {
        let probe = ExtensionServer::http();
        plan(&probe, &[]).run();
        hook_requests(&probe, "generatepatches")[0]["items"][0]["uid"]
            .as_str()
            .expect("uid")
            .to_string()
    };
    server.set_hook_mode(
        Hook::GeneratePatches,
        Mode::Respond(one_patch(&uid, "JSONPatch", b"[{\"op\": ")),
    );
    let out = plan(&server, &[]).status(1).run();
    insta::assert_snapshot!("runtime_sdk_undecodable_patch", out.stderr);
}

#[test]
fn validate_topology_failure_is_surfaced() {
    let server = ExtensionServer::http();
    server.set_hook_mode(
        Hook::ValidateTopology,
        Mode::Failure("md-eu may not run in eu-central-1".into()),
    );
    let out = plan(&server, &[]).status(1).stdout("").run();
    insta::assert_snapshot!("runtime_sdk_validate_failure", out.stderr);
}

/// The v1beta1 quick start (Cluster API v1.10 field names: `generateExtension`,
/// `validateExtension`) with one external patch; the extension answers a merge patch for the
/// control plane's template.
#[test]
fn v1beta1_class_with_a_merge_patch() {
    let server = ExtensionServer::http();
    let merge = br#"{"spec":{"template":{"spec":{"kubeadmConfigSpec":{"clusterConfiguration":{"imageRepository":"registry.example.com"}}}}}}"#;
    server.set_hook_mode(
        Hook::GeneratePatches,
        Mode::Respond(one_patch(
            "ControlPlane/spec.controlPlaneRef",
            "JSONMergePatch",
            merge,
        )),
    );
    let dir = common::repo().join("testdata/examples/quick-start-v1beta1");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("fixture");
    let class = format!(
        "{}  patches:\n  - name: ext\n    external:\n      generateExtension: generate-patches.test-extension\n      validateExtension: validate-topology.test-extension\n",
        read("clusterclass.yaml")
    );
    let ext = format!("test-extension={}", server.url);
    let out = Test::new()
        .file("ex/clusterclass.yaml", &class)
        .file("ex/cluster.yaml", &read("cluster.yaml"))
        .file("ex/templates.yaml", &read("templates.yaml"))
        .args([
            "plan",
            "-f",
            "ex",
            "--extension",
            &ext,
            "--output",
            "json",
            "--explain",
        ])
        .run();
    let doc: Value = serde_json::from_str(out.ok()).expect("plan JSON");
    let kcp = doc["clusters"][0]["objects"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|o| o["kind"] == "KubeadmControlPlane")
        .expect("KubeadmControlPlane");
    assert_eq!(
        kcp["object"]["spec"]["kubeadmConfigSpec"]["clusterConfiguration"]["imageRepository"],
        "registry.example.com"
    );
    let cp = &doc["clusters"][0]["patches"][0]["templates"][1];
    assert_eq!(cp["object"], "ControlPlane");
    assert_eq!(cp["operations"][0]["op"], "merge");
    assert_eq!(
        doc["clusters"][0]["patches"][0]["templates"][0]["reason"],
        "the extension answered no patch for it"
    );
    // No variables are discovered (no discovery patch): only builtin is sent.
    let generate = hook_requests(&server, "generatepatches");
    assert_eq!(names(&generate[0]["variables"]), ["builtin"]);
    assert_eq!(hook_requests(&server, "validatetopology").len(), 1);
}

#[test]
fn unused_extension_configs_are_not_contacted() {
    let server = ExtensionServer::http();
    // An ExtensionConfig no class names, at an address nobody answers.
    let config = "apiVersion: runtime.cluster.x-k8s.io/v1alpha1\nkind: ExtensionConfig\nmetadata:\n  name: elsewhere\nspec:\n  clientConfig:\n    url: https://127.0.0.1:1\n";
    let ext = format!("test-extension={}", server.url);
    Test::new()
        .fixture(FIXTURE, "ex")
        .file("ex/other-extension.yaml", config)
        .args(["plan", "-f", "ex", "--extension", &ext, "--output", "json"])
        .run();
}
