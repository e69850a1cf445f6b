//! `topoplan extension check` against the test extension (tests/extension_server) on
//! 127.0.0.1: the conforming extension passes every check, and each misbehaviour switch fails
//! exactly the check of the guideline it breaks.
//!
//! Each test builds its input with the `Plan` builder ([`input`]: a class of the Dev provider
//! whose one patch the extension serves, and the variable it requires), adding what it needs
//! (a MachinePool). One test runs the bundled example, testdata/examples/runtime-sdk, because
//! the README and docs/extensions.md promise `extension check` passes on it.

mod common;
mod extension_server;

use std::time::Duration;

use common::Test;
use common::scenario::{Plan, WORKER_CLASS};
use extension_server::misbehave::Misbehaviour;
use extension_server::{ExtensionServer, Hook, Mode};
use serde_json::{Value, json};

/// The example the README runs `extension check` on.
const FIXTURE: &str = "testdata/examples/runtime-sdk";

/// The extension's name in `--extension` and in the class's patch.
const EXTENSION: &str = "test-extension";

const CHECKS: [&str; 8] = [
    "discovery",
    "deterministic-results",
    "idempotence",
    "input-validation",
    "error-messages",
    "timeouts",
    "response-validity",
    "discovered-variables",
];

fn server(m: Misbehaviour) -> ExtensionServer {
    let s = ExtensionServer::http();
    s.set_misbehaviour(m);
    s
}

/// What every check needs: a class of the Dev provider (the only infrastructure kinds the test
/// extension patches) whose one patch, `test-patch`, the extension serves, and a Cluster with
/// one MachineDeployment and the variable the extension requires (`imageRepository`).
fn input() -> Plan {
    Plan::new()
        .infrastructure_provider("Dev")
        .external_patch("test-patch", EXTENSION, json!({"profile": "e2e"}))
        .value("imageRepository", json!("registry.example.com/kind"))
        .machine_deployment("md-0", WORKER_CLASS, 1)
}

/// `extension check -f in --extension EXT` of `input`, with `args` appended.
fn extension_check(input: &Plan, ext: &str, args: &[&str]) -> Test {
    input
        .test_in("in")
        .args(["extension", "check", "-f", "in", "--extension", ext])
        .args(args.iter().copied())
}

/// `extension check -o json` of `input` against `server`, with extra arguments (and
/// `--calls 3` unless they say how many).
fn check_input(input: &Plan, server: &ExtensionServer, extra: &[&str]) -> Test {
    let calls: &[&str] = if extra.contains(&"--calls") {
        &[]
    } else {
        &["--calls", "3"]
    };
    extension_check(
        input,
        &format!("{EXTENSION}={}", server.url),
        &["-o", "json"],
    )
    .args(extra.iter().copied())
    .args(calls.iter().copied())
}

/// [`check_input`] of [`input`].
fn check(server: &ExtensionServer, extra: &[&str]) -> Test {
    check_input(&input(), server, extra)
}

/// (name, status) of every check of a JSON report.
fn statuses(doc: &Value) -> Vec<(String, String)> {
    doc["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or("").to_string(),
                c["status"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Run `input` against `m` and assert that exactly `failing` checks fail (the others pass).
fn only_fails_on(input: &Plan, m: Misbehaviour, failing: &[&str]) -> Value {
    let s = server(m);
    let out = check_input(input, &s, &[])
        .status(if failing.is_empty() { 0 } else { 1 })
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("JSON report");
    let expected: Vec<(String, String)> = CHECKS
        .iter()
        .map(|c| {
            let st = if failing.contains(c) {
                "failed"
            } else {
                "passed"
            };
            (c.to_string(), st.to_string())
        })
        .collect();
    assert_eq!(statuses(&doc), expected, "{}", out.stdout);
    doc
}

/// [`only_fails_on`] of [`input`].
fn only_fails(m: Misbehaviour, failing: &[&str]) -> Value {
    only_fails_on(&input(), m, failing)
}

fn check_named<'d>(doc: &'d Value, name: &str) -> &'d Value {
    doc["checks"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["name"] == name))
        .unwrap_or(&Value::Null)
}

#[test]
fn the_conforming_extension_passes_every_check() {
    let doc = only_fails(Misbehaviour::Conforming, &[]);
    assert_eq!(doc["passed"], json!(true));
    // `files` is one plain word: a warning, not a failure.
    assert_eq!(
        check_named(&doc, "discovered-variables")["warnings"][0],
        json!(
            "discover-variables.test-extension: variable \"files\" has a generic name; another patch may declare it too (prefer a qualified name, e.g. myExtensionFiles)"
        )
    );
}

/// The README's and docs/extensions.md's run: the bundled example (its MachinePool, its inline
/// patch after the external one, its variable overrides) passes every check of the conforming
/// extension. Kept on the fixture because the docs promise it of the fixture.
#[test]
fn the_bundled_example_passes_every_check() {
    let s = server(Misbehaviour::Conforming);
    Test::new()
        .fixture(FIXTURE, "ex")
        .args(["extension", "check", "-f", "ex", "--calls", "5"])
        .args(["--extension", &format!("{EXTENSION}={}", s.url)])
        .stdout_contains("8 checks passed, 0 skipped")
        .run();
}

#[test]
fn the_json_document_has_every_check() {
    let s = server(Misbehaviour::Conforming);
    let out = check(&s, &[]).run();
    let doc: Value = serde_json::from_str(out.ok()).expect("JSON");
    assert_eq!(doc["kind"], "ExtensionCheck");
    assert_eq!(doc["apiVersion"], "topoplan.dev/v1alpha1");
    assert_eq!(
        doc["extensions"],
        json!([{"name": "test-extension", "url": s.url}])
    );
    for c in doc["checks"].as_array().expect("checks") {
        let keys: Vec<&str> = c
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "evidence", "message", "name", "passed", "status", "warnings"
            ]
        );
        assert_eq!(c["passed"], json!(true));
        assert!(c["evidence"].is_object());
    }
    let timing = &check_named(&doc, "timeouts")["evidence"]["handlers"];
    let hooks: Vec<&str> = timing
        .as_array()
        .expect("handlers")
        .iter()
        .filter_map(|h| h["hook"].as_str())
        .collect();
    assert_eq!(
        hooks,
        ["GeneratePatches", "ValidateTopology", "DiscoverVariables"]
    );
    assert_eq!(timing[0]["calls"], json!(3));
    assert_eq!(timing[0]["timeoutSeconds"], json!(10));
    assert_eq!(
        check_named(&doc, "discovery")["evidence"]["handlers"][1],
        json!({"name": "generate-patches.test-extension", "hook": "GeneratePatches",
               "timeoutSeconds": 10, "failurePolicy": "Fail"})
    );
}

#[test]
fn nondeterministic_values_fail_deterministic_results() {
    let doc = only_fails(Misbehaviour::Nondeterministic, &["deterministic-results"]);
    let c = check_named(&doc, "deterministic-results");
    let d = &c["evidence"]["difference"];
    assert_eq!(
        d["path"],
        "/spec/template/metadata/annotations/test-extension.example.com~1call"
    );
    assert_ne!(
        d["first"]["spec"]["template"]["metadata"]["annotations"]["test-extension.example.com/call"],
        d["then"]["spec"]["template"]["metadata"]["annotations"]["test-extension.example.com/call"]
    );
    assert_eq!(
        c["evidence"]["request"]["kind"],
        json!("GeneratePatchesRequest")
    );
}

#[test]
fn appending_on_every_call_fails_idempotence() {
    let doc = only_fails(Misbehaviour::NonIdempotent, &["idempotence"]);
    let c = check_named(&doc, "idempotence");
    assert!(
        c["message"]
            .as_str()
            .unwrap_or("")
            .contains("changed template ControlPlane/spec.controlPlaneRef again (at /spec/template/spec/kubeadmConfigSpec/preKubeadmCommands"),
        "{c}"
    );
}

#[test]
fn changing_error_messages_fail_error_messages() {
    let doc = only_fails(Misbehaviour::UnstableErrors, &["error-messages"]);
    let c = check_named(&doc, "error-messages");
    let first = c["evidence"]["first"]["message"].as_str().unwrap_or("");
    let then = c["evidence"]["then"]["message"].as_str().unwrap_or("");
    assert!(
        first.starts_with("required variable \"imageRepository\" is not set (call "),
        "{c}"
    );
    assert_ne!(first, then);
}

#[test]
fn slow_answers_fail_timeouts() {
    let s = server(Misbehaviour::Slow(Duration::from_millis(210)));
    let out = check(&s, &["--calls", "1"]).status(1).run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let failed: Vec<(String, String)> = statuses(&doc)
        .into_iter()
        .filter(|(_, st)| st != "passed")
        .collect();
    assert_eq!(failed, [("timeouts".to_string(), "failed".to_string())]);
    let c = check_named(&doc, "timeouts");
    assert!(
        c["message"]
            .as_str()
            .unwrap_or("")
            .contains("over the guideline's 200 ms"),
        "{c}"
    );
}

#[test]
fn touching_status_fails_response_validity() {
    let doc = only_fails(Misbehaviour::TouchesStatus, &["response-validity"]);
    let c = check_named(&doc, "response-validity");
    assert_eq!(c["evidence"]["outside"], json!(["/status"]));
}

#[test]
fn upstreams_test_extension_is_not_conforming() {
    // Appends to lists on every call, accepts a request without its required variable, and
    // labels a MachinePool's bootstrap template where Cluster API drops it.
    only_fails_on(
        &input().machine_pool("mp-0", "default-pool", 1),
        Misbehaviour::Upstream,
        &["idempotence", "input-validation", "response-validity"],
    );
}

#[test]
fn a_failing_validate_topology_fails_response_validity() {
    let s = server(Misbehaviour::Conforming);
    // The plan itself then fails: its error is a warning of the check run.
    s.set_hook_mode(Hook::ValidateTopology, Mode::Failure("no".into()));
    let out = check(&s, &[]).status(1).run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let c = check_named(&doc, "response-validity");
    assert_eq!(c["status"], "failed");
    assert!(
        c["message"]
            .as_str()
            .unwrap_or("")
            .ends_with("ValidateTopology did not accept the patched topology: no"),
        "{c}"
    );
}

#[test]
fn a_failing_discovery_skips_the_rest() {
    let s = server(Misbehaviour::Conforming);
    s.set_discovery_mode(Mode::Status(500, "boom".into()));
    let out = check(&s, &[]).status(1).run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let st = statuses(&doc);
    assert_eq!(st[0], ("discovery".to_string(), "failed".to_string()));
    assert!(st[1..].iter().all(|(_, s)| s == "skipped"), "{st:?}");
    assert!(out.stderr.contains("topoplan::extension::check-failed"));
}

#[test]
fn the_table_for_people() {
    let s = server(Misbehaviour::TouchesStatus);
    let out = extension_check(
        &input(),
        &format!("{EXTENSION}={}", s.url),
        &["--calls", "2"],
    )
    .status(1)
    .run();
    // Latencies and the port vary from run to run.
    let ms = regex::Regex::new(r"[0-9]+(\.[0-9]+)? ms").expect("regex");
    let table = ms
        .replace_all(&out.stdout, "N ms")
        .replace(&s.url, "http://127.0.0.1:PORT");
    insta::assert_snapshot!("extension_check_table", table);
}

/// A baseline with `variables` (the conforming extension discovers imageRepository (required),
/// kubeadmControlPlaneMaxSurge, files, preKubeadmCommands, kubeadmConfigTemplateAnnotations).
fn with_baseline(variables: Value) -> Value {
    let s = server(Misbehaviour::Conforming);
    let doc = json!({"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "DiscoverVariablesResponse", "status": "Success", "variables": variables});
    let yaml = serde_json::to_string(&doc).expect("JSON");
    let out = check(&s, &["--calls", "1", "--baseline", "previous.yaml"])
        .file("previous.yaml", &yaml)
        .run_unchecked();
    serde_json::from_str(&out.stdout).expect("JSON")
}

fn current_variables() -> Value {
    json!([
        {"name": "kubeadmControlPlaneMaxSurge", "required": false, "schema": {"openAPIV3Schema": {"type": "string", "default": ""}}},
        {"name": "files", "required": false, "schema": {"openAPIV3Schema": {"type": "array", "items": {"type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}, "contentFormat": {"type": "string"}}}}}},
        {"name": "preKubeadmCommands", "required": false, "schema": {"openAPIV3Schema": {"type": "array", "items": {"type": "string"}}}},
        {"name": "kubeadmConfigTemplateAnnotations", "required": false, "schema": {"openAPIV3Schema": {"type": "object", "additionalProperties": {"type": "string"}}}},
        {"name": "imageRepository", "required": true, "schema": {"openAPIV3Schema": {"type": "string"}}}
    ])
}

#[test]
fn a_baseline_without_breaking_changes_passes() {
    let doc = with_baseline(current_variables());
    let c = check_named(&doc, "discovered-variables");
    assert_eq!(c["status"], "passed", "{c}");
    assert!(
        c["message"]
            .as_str()
            .unwrap_or("")
            .ends_with("no breaking change since previous.yaml")
    );
}

#[test]
fn a_baseline_reports_breaking_changes() {
    let mut old = current_variables();
    let list = old.as_array_mut().expect("list");
    // A variable the new version no longer has.
    list.push(json!({"name": "legacyMirror", "schema": {"openAPIV3Schema": {"type": "string"}}}));
    // files items had one more property; imageRepository was optional.
    list[1]["schema"]["openAPIV3Schema"]["items"]["properties"]["owner"] =
        json!({"type": "string"});
    list[4]["required"] = json!(false);
    // preKubeadmCommands was a string.
    list[2]["schema"]["openAPIV3Schema"] = json!({"type": "string"});
    let doc = with_baseline(old);
    let c = check_named(&doc, "discovered-variables");
    assert_eq!(c["status"], "failed", "{c}");
    assert_eq!(
        c["evidence"]["breakingChanges"],
        json!([
            "files[].owner: property removed",
            "variable \"imageRepository\" became required and has no default",
            "variable \"legacyMirror\" was removed",
            "preKubeadmCommands: type changed from string to array",
        ])
    );
}

#[test]
fn a_baseline_reports_a_narrowed_enum_and_a_new_required_variable() {
    let mut old = current_variables();
    let list = old.as_array_mut().expect("list");
    // imageRepository is new and required, with no default.
    list.remove(4);
    let mut doc = with_baseline(old);
    let c = check_named(&doc, "discovered-variables");
    assert_eq!(
        c["evidence"]["breakingChanges"],
        json!(["new variable \"imageRepository\" is required and has no default"])
    );
    // An enum the new version dropped (any string is fine now): widened, not narrowed.
    let mut old = current_variables();
    old[0]["schema"]["openAPIV3Schema"]["enum"] = json!(["", "1"]);
    doc = with_baseline(old);
    assert_eq!(
        check_named(&doc, "discovered-variables")["status"],
        "passed"
    );
}

#[test]
fn a_baseline_that_is_no_discover_variables_response_is_refused() {
    let s = server(Misbehaviour::Conforming);
    extension_check(
        &input(),
        &format!("{EXTENSION}={}", s.url),
        &["--baseline", "previous.yaml"],
    )
    .file("previous.yaml", "kind: Cluster\n")
    .status(1)
    .stdout("")
    .stderr_contains("topoplan::extension::baseline")
    .stderr_contains(
        "--baseline previous.yaml: expected kind DiscoverVariablesResponse, got Cluster",
    )
    .run();
}

#[test]
fn an_input_without_the_extensions_patches_is_an_error() {
    extension_check(&input(), "other=http://127.0.0.1:1", &[])
        .status(1)
        .stdout("")
        .stderr_contains("topoplan::extension::nothing-to-check")
        .stderr_contains(
            "no ClusterClass of the input has an external patch served by extension \"other\"",
        )
        .run();
}

#[test]
fn the_extension_flag_is_required() {
    input()
        .test_in("in")
        .args(["extension", "check", "-f", "in"])
        .status(1)
        .stderr_contains("extension check needs --extension NAME=URL")
        .run();
}

#[test]
fn garbage_answers_fail_the_checks_without_a_panic() {
    let s = server(Misbehaviour::Conforming);
    s.set_hook_mode(Hook::GeneratePatches, Mode::Garbage);
    let out = check(&s, &[]).status(1).stderr_lacks("panicked").run();
    let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let c = check_named(&doc, "response-validity");
    assert_eq!(c["status"], "failed");
    assert!(
        c["message"]
            .as_str()
            .unwrap_or("")
            .contains("failed to decode response"),
        "{c}"
    );
    assert_eq!(check_named(&doc, "idempotence")["status"], "skipped");
}

#[test]
fn calls_must_be_positive() {
    extension_check(
        &input(),
        "test-extension=http://127.0.0.1:1",
        &["--calls", "0"],
    )
    .status(1)
    .stdout("")
    .stderr_contains("--calls 0: must be between 1 and 1000")
    .run();
}

#[test]
fn documents_follow_the_schema() {
    let out = Test::new().args(["schema", "extension-check"]).run();
    let schema: Value = serde_json::from_str(&out.stdout).expect("a schema");
    let v = jsonschema::validator_for(&schema).expect("a valid schema");
    for m in [Misbehaviour::Conforming, Misbehaviour::Upstream] {
        let s = server(m);
        let out = check(&s, &[]).run_unchecked();
        let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
        let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }
    // The schema can fail: a document missing a field does not conform.
    assert!(!v.is_valid(&json!({"apiVersion": "topoplan.dev/v1alpha1", "kind": "ExtensionCheck"})));
}

#[test]
fn recordings_are_refused_a_check_talks_to_the_live_extension() {
    for flag in ["--record-extensions", "--replay-extensions"] {
        extension_check(
            &input(),
            "test-extension=http://127.0.0.1:1",
            &[flag, "rec"],
        )
        .status(1)
        .stderr_contains(&format!(
            "extension check cannot use {flag}: it checks the live extension"
        ))
        .run();
    }
}
