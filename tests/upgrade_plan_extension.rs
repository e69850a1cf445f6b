//! Upgrade plans from a GenerateUpgradePlan extension, end to end: `topoplan plan --current`
//! of the quick-start example whose ClusterClass names the test extension's
//! `generate-upgrade-plan` handler (`spec.upgrade.external.generateUpgradePlanExtension`), over
//! the stored objects of `testdata/current/base` with the control plane stable at v1.34.1, the
//! test extension (tests/extension_server) on 127.0.0.1.
//!
//! Cluster API (main, `exp/topology/desiredstate/upgrade_plan.go`): the extension is called only
//! when the control plane or the workers are not at `spec.topology.version`; its control-plane
//! steps are validated (`DefaultAndValidateUpgradePlans`) and the first one is written into the
//! control plane; an empty workers plan is defaulted; a call error is wrapped as "failed to get
//! upgrade plan from extension: …".

mod common;
mod extension_server;

use common::Test;
use extension_server::{ExtensionServer, Hook, Mode};
use serde_json::{Value, json};

const HANDLER: &str = "generate-upgrade-plan.test-extension";
const KCP: &str = "dev-s6cjd";

/// Replace the one occurrence of `from` in the copied file `file`.
fn edit(t: &Test, file: &str, from: &str, to: &str) {
    let p = t.path().join(file);
    let text = std::fs::read_to_string(&p).expect("read the copied fixture");
    assert_eq!(text.matches(from).count(), 1, "{file}: {from:?}");
    std::fs::write(&p, text.replacen(from, to, 1)).expect("write the edit");
}

/// The input (`in/`, its class naming `handler`, its Cluster at `version`) and the current state
/// (`cur/`, everything at v1.34.1).
fn setup(handler: &str, version: &str) -> Test {
    let t = Test::new()
        .fixture("testdata/examples/quick-start", "in")
        .fixture("testdata/current/base", "cur")
        .fixture("testdata/current/stable-cp", "cur");
    edit(
        &t,
        "in/clusterclass.yaml",
        "spec:\n  infrastructure:\n",
        &format!(
            "spec:\n  upgrade:\n    external:\n      generateUpgradePlanExtension: {handler}\n  infrastructure:\n"
        ),
    );
    edit(
        &t,
        "in/cluster.yaml",
        "version: 1.34.1",
        &format!("version: {version}"),
    );
    t
}

/// `plan --current cur -o json` with the test extension.
fn plan(t: Test, server: &ExtensionServer, extra: &[&str]) -> Test {
    let ext = format!("test-extension={}", server.url);
    t.args(["plan", "-f", "in", "--current", "cur", "-o", "json"])
        .args(["--extension", &ext])
        .args(extra.iter().copied())
}

fn upgrade_requests(server: &ExtensionServer) -> Vec<Value> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.target.contains("/generateupgradeplan/"))
        .map(|r| r.body)
        .collect()
}

/// The planned object of `kind` and `name`.
fn object<'d>(doc: &'d Value, kind: &str, name: &str) -> &'d Value {
    doc["clusters"][0]["objects"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|o| o["kind"] == kind && o["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name} in {doc}"))
}

fn plan_doc(out: &common::Output) -> Value {
    serde_json::from_str(&out.stdout).expect("plan document")
}

/// `plan --current cur -o json` without any extension.
fn plan_alone(t: Test, extra: &[&str]) -> Test {
    t.args(["plan", "-f", "in", "--current", "cur", "-o", "json"])
        .args(extra.iter().copied())
}

/// The port changes from run to run.
fn redact(text: &str, server: &ExtensionServer) -> String {
    text.replace(&server.url, "http://127.0.0.1:PORT")
}

/// A GenerateUpgradePlan answer with these control-plane and workers versions.
fn answer(control_plane: &[&str], workers: &[&str]) -> Value {
    let steps = |v: &[&str]| v.iter().map(|v| json!({"version": v})).collect::<Vec<_>>();
    json!({
        "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
        "kind": "GenerateUpgradePlanResponse",
        "status": "Success",
        "controlPlaneUpgrades": steps(control_plane),
        "workersUpgrades": steps(workers),
    })
}

/// The test extension's Discovery with the upgrade-plan handler's failure policy set.
fn discovery_with_policy(policy: &str) -> Value {
    let mut d = extension_server::discovery();
    for h in d["handlers"].as_array_mut().into_iter().flatten() {
        if h["name"] == "generate-upgrade-plan" {
            h["failurePolicy"] = json!(policy);
        }
    }
    d
}

#[test]
fn the_plan_takes_the_extensions_steps() {
    // Two minors ahead: without the extension (one minor at a time) this is no plan at all.
    let server = ExtensionServer::http();
    let out = plan(setup(HANDLER, "1.36.2"), &server, &[]).run();
    let doc = plan_doc(&out);
    let kcp = object(&doc, "KubeadmControlPlane", KCP);
    assert_eq!(kcp["action"], "modified");
    assert_eq!(kcp["object"]["spec"]["version"], "v1.35.0");
    let cluster = object(&doc, "Cluster", "dev");
    assert_eq!(
        cluster["object"]["metadata"]["annotations"]["topology.internal.cluster.x-k8s.io/upgrade-step"],
        "v1.35.0"
    );

    // One call, with the versions of the current objects and the Cluster without its status.
    let reqs = upgrade_requests(&server);
    assert_eq!(reqs.len(), 1, "{reqs:?}");
    let req = &reqs[0];
    assert_eq!(req["kind"], "GenerateUpgradePlanRequest");
    assert_eq!(req["fromControlPlaneKubernetesVersion"], "v1.34.1");
    assert_eq!(req["fromWorkersKubernetesVersion"], "v1.34.1");
    assert_eq!(req["toKubernetesVersion"], "v1.36.2");
    assert_eq!(req["cluster"]["metadata"]["name"], "dev");
    assert_eq!(req["cluster"]["spec"]["topology"]["version"], "v1.36.2");
    assert!(req["cluster"].get("status").is_none(), "{req}");
    let targets: Vec<String> = server
        .requests()
        .into_iter()
        .map(|r| r.target)
        .filter(|t| t.contains("/generateupgradeplan/"))
        .collect();
    assert_eq!(
        targets,
        [
            "/hooks.runtime.cluster.x-k8s.io/v1alpha1/generateupgradeplan/generate-upgrade-plan?timeout=10s"
        ]
    );

    // Another answer, another plan: the control plane goes where the extension says.
    let server = ExtensionServer::http();
    server.set_hook_mode(
        Hook::GenerateUpgradePlan,
        Mode::Respond(answer(&["v1.35.3", "v1.36.2"], &["v1.35.3", "v1.36.2"])),
    );
    let doc = plan_doc(&plan(setup(HANDLER, "1.36.2"), &server, &[]).run());
    assert_eq!(
        object(&doc, "KubeadmControlPlane", KCP)["object"]["spec"]["version"],
        "v1.35.3"
    );
}

#[test]
fn no_call_without_an_upgrade() {
    let server = ExtensionServer::http();
    server.set_hook_mode(Hook::GenerateUpgradePlan, Mode::Failure("never".into()));
    plan(setup(HANDLER, "1.34.1"), &server, &[]).run();
    assert_eq!(upgrade_requests(&server), Vec::<Value>::new());

    // Nor is the extension needed then.
    plan_alone(setup(HANDLER, "1.34.1"), &[]).run();
}

#[test]
fn no_extension_registered() {
    let out = plan_alone(setup(HANDLER, "1.36.2"), &[])
        .status(1)
        .stderr_contains("topoplan::plan::upgrade-extension")
        .stderr_contains("Cluster team-a/dev: failed to compute the upgrade plan: failed to get upgrade plan from extension: failed to call extension handler \"generate-upgrade-plan.test-extension\": failed to get extension handler \"generate-upgrade-plan.test-extension\" from registry: handler with name \"generate-upgrade-plan.test-extension\" has not been registered")
        .stderr_contains("pass --extension test-extension=URL")
        .run();
    insta::assert_snapshot!("no_extension_registered", out.stderr);

    // Given, but its Discovery does not announce the handler.
    let server = ExtensionServer::http();
    plan(setup("plans.test-extension", "1.36.2"), &server, &[])
        .status(1)
        .stderr_contains("handler with name \"plans.test-extension\" has not been registered")
        .stderr_contains("the Discovery of extension \"test-extension\" does not announce a handler named \"plans\"")
        .run();
}

#[test]
fn a_failure_answer_fails_the_plan_whatever_the_policy() {
    for policy in ["Fail", "Ignore"] {
        let server = ExtensionServer::http();
        server.set_discovery(discovery_with_policy(policy));
        server.set_hook_mode(
            Hook::GenerateUpgradePlan,
            Mode::Failure("no path to v1.36.2".into()),
        );
        plan(setup(HANDLER, "1.36.2"), &server, &[])
            .status(1)
            .stderr_contains("topoplan::plan::upgrade-extension")
            .stderr_contains("Cluster team-a/dev: failed to compute the upgrade plan: failed to get upgrade plan from extension: failed to call extension handler \"generate-upgrade-plan.test-extension\": got failure response with message: no path to v1.36.2")
            .stderr_lacks("failurePolicy Ignore")
            .run();
    }
}

#[test]
fn a_failed_call_fails_the_plan_or_is_ignored_into_an_empty_plan() {
    let server = ExtensionServer::http();
    server.set_hook_mode(Hook::GenerateUpgradePlan, Mode::Status(500, "boom".into()));
    plan(setup(HANDLER, "1.36.2"), &server, &[])
        .status(1)
        .stderr_contains("topoplan::extension::call")
        .stderr_contains("failed to get upgrade plan from extension: failed to call extension handler \"generate-upgrade-plan.test-extension\": http call failed: got response with status code 500 != 200: response : \"boom\"")
        .run();

    // Ignore: Cluster API goes on with the default answer, an empty plan, which it refuses.
    let server = ExtensionServer::http();
    server.set_discovery(discovery_with_policy("Ignore"));
    server.set_hook_mode(Hook::GenerateUpgradePlan, Mode::Status(500, "boom".into()));
    let out = plan(setup(HANDLER, "1.36.2"), &server, &[])
        .status(1)
        .stderr_contains("topoplan::plan::upgrade")
        .stderr_contains("Cluster team-a/dev: failed to compute the upgrade plan: invalid ControlPlane upgrade plan: control plane upgrade plan must end with version v1.36.2, ends with v1.34.1 instead")
        .stderr_contains("topoplan::extension::ignored")
        .stderr_contains("ignored because of failurePolicy Ignore: failed to call extension handler \"generate-upgrade-plan.test-extension\": http call failed: got response with status code 500")
        .run();
    insta::assert_snapshot!("ignored_into_an_empty_plan", redact(&out.stderr, &server));
}

#[test]
fn an_invalid_plan_is_refused_with_cluster_apis_message() {
    let server = ExtensionServer::http();
    server.set_hook_mode(
        Hook::GenerateUpgradePlan,
        Mode::Respond(answer(&["v1.36.2"], &[])),
    );
    let out = plan(setup(HANDLER, "1.36.2"), &server, &[])
        .status(1)
        .stderr_contains("topoplan::plan::upgrade")
        .stderr_contains("Cluster team-a/dev: failed to compute the upgrade plan: invalid ControlPlane upgrade plan: item 0; expecting a version with minor 34 or 35, found version v1.36.2")
        .run();
    insta::assert_snapshot!("invalid_plan", out.stderr);

    // The workers plan too: a worker step the control plane never takes.
    let server = ExtensionServer::http();
    server.set_hook_mode(
        Hook::GenerateUpgradePlan,
        Mode::Respond(answer(&["v1.35.0", "v1.36.2"], &["v1.35.1", "v1.36.2"])),
    );
    plan(setup(HANDLER, "1.36.2"), &server, &[])
        .status(1)
        .stderr_contains("invalid workers upgrade plan: versions v1.35.1 doesn't match any versions in the control plane upgrade plan nor the control plane version")
        .run();
}

#[test]
fn hostile_answers_are_located_and_bounded() {
    let server = ExtensionServer::http();
    let mut wrong = answer(&["v1.35.0", "v1.36.2"], &[]);
    wrong["controlPlaneUpgrades"][1]["version"] = json!(1.362);
    server.set_hook_mode(Hook::GenerateUpgradePlan, Mode::Respond(wrong));
    plan(setup(HANDLER, "1.36.2"), &server, &[])
        .status(1)
        .stderr_contains("topoplan::extension::call")
        .stderr_contains("http call failed: failed to decode response: controlPlaneUpgrades[1].version: invalid type: floating point `1.362`, expected a string")
        .run();

    let server = ExtensionServer::http();
    let many = vec!["v1.35.0"; 5000];
    server.set_hook_mode(Hook::GenerateUpgradePlan, Mode::Respond(answer(&many, &[])));
    plan(setup(HANDLER, "1.36.2"), &server, &[])
        .status(1)
        .stderr_contains("topoplan::extension::call")
        .stderr_contains("failed to get upgrade plan from extension: failed to call extension handler \"generate-upgrade-plan.test-extension\": http call failed: failed to decode response: controlPlaneUpgrades: more than 1024 items, the most topoplan accepts at line 1 column ")
        .run();
}

#[test]
fn record_then_replay_gives_the_same_bytes() {
    let server = ExtensionServer::http();
    let rec = tempfile::tempdir().expect("tempdir");
    let r = rec.path().display().to_string();
    let live = plan(
        setup(HANDLER, "1.36.2"),
        &server,
        &["--record-extensions", &r, "-v"],
    )
    .stderr_contains("extension call: GenerateUpgradePlan generate-upgrade-plan.test-extension for Cluster team-a/dev: 200 Success")
    .run();
    let calls = server.requests().len();
    let replayed = plan_alone(setup(HANDLER, "1.36.2"), &["--replay-extensions", &r]).run();
    assert_eq!(replayed.stdout, live.stdout);
    assert_eq!(
        server.requests().len(),
        calls,
        "the replay called the extension"
    );
    assert!(
        live.stdout.contains("\"version\": \"v1.35.0\""),
        "{}",
        live.stdout
    );

    // Another Cluster version is another request: the recording has no answer for it.
    plan_alone(setup(HANDLER, "1.36.3"), &["--replay-extensions", &r])
        .status(1)
        .stderr_contains("topoplan::extension::recording-stale")
        .stderr_contains("no recorded answer for the GenerateUpgradePlan call of \"generate-upgrade-plan.test-extension\" for Cluster team-a/dev")
        .run();
}

#[test]
fn the_runtime_sdk_gate_off_refuses_the_extension() {
    let server = ExtensionServer::http();
    plan(
        setup(HANDLER, "1.36.2"),
        &server,
        &["--feature-gates", "RuntimeSDK=false"],
    )
    .status(1)
    .stderr_contains("topoplan::plan::upgrade-extension")
    .stderr_contains("failed to compute the upgrade plan: can not use GenerateUpgradePlan extension \"generate-upgrade-plan.test-extension\" if RuntimeSDK feature flag is disabled")
    .run();
    assert_eq!(upgrade_requests(&server), Vec::<Value>::new());
}

#[test]
fn diff_plans_the_upgrade_with_the_extension_too() {
    let server = ExtensionServer::http();
    let t = Test::new()
        .fixture("testdata/examples/quick-start", "old")
        .fixture("testdata/examples/quick-start", "new");
    let upgrade = format!(
        "spec:\n  upgrade:\n    external:\n      generateUpgradePlanExtension: {HANDLER}\n  infrastructure:\n"
    );
    for side in ["old", "new"] {
        edit(
            &t,
            &format!("{side}/clusterclass.yaml"),
            "spec:\n  infrastructure:\n",
            &upgrade,
        );
    }
    edit(&t, "new/cluster.yaml", "version: 1.34.1", "version: 1.36.2");
    let ext = format!("test-extension={}", server.url);
    t.args(["diff", "old", "new", "--extension", &ext])
        .stdout_contains(
            "KubeadmControlPlane dev-s6cjd rolls out: Version v1.34.1, v1.35.0 required",
        )
        .stdout_contains("+    topology.internal.cluster.x-k8s.io/upgrade-step: v1.35.0")
        .run();
    assert_eq!(upgrade_requests(&server).len(), 1);
}

#[test]
fn an_extension_config_over_https_serves_the_plan() {
    let server = ExtensionServer::https();
    let ca = server.ca_pem.clone().expect("ca");
    let config = format!(
        "apiVersion: runtime.cluster.x-k8s.io/v1alpha1\nkind: ExtensionConfig\nmetadata:\n  name: test-extension\nspec:\n  clientConfig:\n    url: {}\n    caBundle: {}\n",
        server.url,
        topoplan::go::base64::encode(ca.as_bytes())
    );
    let trace = tempfile::tempdir().expect("tempdir");
    let dir = trace.path().join("trace");
    let d = dir.display().to_string();
    let out = plan_alone(
        setup(HANDLER, "1.36.2").file("in/extensionconfig.yaml", &config),
        &[
            "--trace-extensions",
            &d,
            "--allow-extension-url",
            &server.url,
        ],
    )
    .run();
    assert_eq!(
        object(&plan_doc(&out), "KubeadmControlPlane", KCP)["object"]["spec"]["version"],
        "v1.35.0"
    );
    assert_eq!(upgrade_requests(&server).len(), 1);
    // The trace names the call by its Cluster.
    let traced = dir.join(
        "cluster.team-a.dev.01.generateupgradeplan.generate-upgrade-plan.test-extension.yaml",
    );
    let text = std::fs::read_to_string(&traced).expect("the call's trace");
    assert!(text.contains("toKubernetesVersion: v1.36.2"), "{text}");
}

#[test]
fn a_failed_discovery_points_at_the_class_that_plans_with_it() {
    let server = ExtensionServer::http();
    server.set_discovery_mode(Mode::Status(500, "down".into()));
    // Contacted up front, as for external patches, even when no Cluster needs a plan.
    plan(setup(HANDLER, "1.34.1"), &server, &[])
        .status(1)
        .stderr_contains("failed to discover extension \"test-extension\": http call failed: got response with status code 500 != 200: response : \"down\"")
        .stderr_contains("in/clusterclass.yaml:12:")
        .stderr_contains("ClusterClass fleet/docker-small plans upgrades with this extension")
        .run();
}
