//! `--live`, `--kubeconfig`, `--context`: the management cluster read live and read-only, from
//! the stand-in API server of `tests/live_server` on 127.0.0.1 replaying the recordings of
//! `testdata/live/` (see its README for how they were made). Without the `live` feature there
//! is no client to test (`src/live/mod.rs` tests the refusal).
#![cfg(feature = "live")]

mod common;
mod live_server;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{Test, repo};
use live_server::{ApiServer, Auth, Exchange, Fake, Proxy};
use serde_json::{Value, json};

fn recording(name: &str) -> PathBuf {
    repo().join("testdata/live/quick-start").join(name)
}

/// The objects the fake serves: the quick-start class and templates as stored, the state of
/// its Cluster after the first reconcile, and an unrelated Cluster.
fn fleet() -> Vec<Value> {
    let opts = topoplan::load::LoadOptions {
        paths: vec![
            repo().join("testdata/examples/quick-start/clusterclass.yaml"),
            repo().join("testdata/examples/quick-start/templates.yaml"),
            repo().join("testdata/current/base"),
            repo().join("testdata/live/fleet"),
        ],
        default_namespace: "default".into(),
        ..Default::default()
    };
    topoplan::load::load(&opts)
        .expect("the fleet loads")
        .objects
        .into_iter()
        .map(|o| o.value)
        .collect()
}

/// The change: the quick-start templates with one worker template's image changed.
fn change() -> String {
    let text = std::fs::read_to_string(repo().join("testdata/examples/quick-start/templates.yaml"))
        .expect("templates");
    let from = "  name: docker-small-worker\n  namespace: fleet\nspec:\n  template:\n    spec:\n      customImage: kindest/node:v1.34.1\n";
    assert_eq!(text.matches(from).count(), 1);
    text.replace(from, &from.replace("v1.34.1", "v1.34.2"))
}

fn b64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(T[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A kubeconfig (JSON is YAML) for `server` with `user`, context `test` current; `cluster`
/// adds to the cluster entry. The CA is given as data.
fn kubeconfig(server: &ApiServer, user: Value, cluster: Value) -> String {
    let mut c = json!({"server": server.url, "certificate-authority-data": b64(server.pki.ca_pem.as_bytes())});
    if let (Some(c), Some(extra)) = (c.as_object_mut(), cluster.as_object()) {
        for (k, v) in extra {
            c.insert(k.clone(), v.clone());
        }
    }
    json!({
        "apiVersion": "v1", "kind": "Config", "current-context": "test",
        "clusters": [{"name": "mgmt", "cluster": c}],
        "users": [{"name": "ci", "user": user}],
        "contexts": [{"name": "test", "context": {"cluster": "mgmt", "user": "ci"}},
                     {"name": "other", "context": {"cluster": "mgmt", "user": "ci"}}],
    })
    .to_string()
}

/// A test in a clean environment (no proxy, no KUBECONFIG of the machine's), with the change
/// in `change/` and `kc` as the kubeconfig.
fn live_test(kc: &str) -> Test {
    Test::new()
        .env_remove_all()
        .file("change/templates.yaml", &change())
        .file("kc", kc)
}

fn plan_args() -> Vec<&'static str> {
    vec!["plan", "-f", "change", "--kubeconfig", "kc", "-o", "json"]
}

fn assert_only_get(server: &ApiServer) {
    let seen = server.seen();
    assert!(!seen.is_empty(), "the server was contacted");
    for s in &seen {
        assert_eq!(s.method, "GET", "{} {}", s.method, s.target);
    }
}

/// The recordings are what topoplan asks of the fake today (bless: rewrite them).
#[test]
fn recordings_are_current() {
    for (name, forbid, status) in [
        ("recording.json", vec![], 0),
        ("forbidden.json", vec!["extensionconfigs".to_string()], 1),
    ] {
        let fake = Fake {
            objects: fleet(),
            forbid: forbid.into_iter().collect(),
            expire_once: ["machinehealthchecks".to_string()].into_iter().collect(),
        };
        let server = ApiServer::fake(fake);
        live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
            .args(plan_args())
            .status(status)
            .run();
        let recorded = server.recorded();
        let text = serde_json::to_string_pretty(&recorded).expect("json") + "\n";
        let path = recording(name);
        if std::env::var_os("TOPOPLAN_BLESS").is_some() {
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, text).expect("write the recording");
        } else {
            let committed: Vec<Exchange> =
                serde_json::from_str(&std::fs::read_to_string(&path).expect("read the recording"))
                    .expect("a recording");
            assert_eq!(
                committed, recorded,
                "{name} is stale: TOPOPLAN_BLESS=1 cargo test --test live recordings"
            );
        }
    }
}

fn replayed() -> ApiServer {
    ApiServer::replay_file(&recording("recording.json"))
}

/// The plan from the live cluster is the plan from `--save-current`'s files, byte for byte,
/// and the plan from a whole export of the same state (but its Secrets); only GETs were sent, and nothing of the
/// unaffected Cluster's topology was listed.
#[test]
fn plan_from_live_equals_plan_from_saved_files() {
    let server = replayed();
    let t = live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .fixture("testdata/current/base", "export")
        .fixture("testdata/live/fleet", "export/fleet");
    for f in ["clusterclass.yaml", "templates.yaml"] {
        std::fs::copy(
            repo().join("testdata/examples/quick-start").join(f),
            t.path().join("export").join(f),
        )
        .expect("copy");
    }
    // Secrets are never read live (a read-only role needs no access to them): the export
    // compared with leaves the topology's shim Secret out too.
    std::fs::remove_file(t.path().join("export/Secret_team-a_dev-shim.yaml")).expect("shim");
    let dir = t.path().to_path_buf();
    let live = t
        .args(plan_args())
        .args(["--save-current", "saved", "--detailed-exitcode"])
        .status(2)
        .run();
    assert_eq!(
        server.missing(),
        Vec::<String>::new(),
        "requests the recording lacks"
    );
    assert_only_get(&server);
    let seen = server.seen();
    assert!(
        seen.iter().all(|s| !s.target.contains("prod")),
        "read the unaffected Cluster's objects"
    );
    // The 410 on the MachineHealthChecks' continue token restarted their list.
    let restarts = seen
        .iter()
        .filter(|s| {
            s.target
                == "/apis/cluster.x-k8s.io/v1beta2/namespaces/team-a/machinehealthchecks?limit=500&labelSelector=cluster.x-k8s.io%2Fcluster-name%3Ddev"
        })
        .count();
    assert_eq!(restarts, 2);
    assert!(dir.join("saved/.topoplan-plan").is_file());
    assert!(dir.join("saved/clusters.cluster.x-k8s.io.yaml").is_file());

    let replay = |current: &str| {
        Test::new()
            .env_remove_all()
            .file("change/templates.yaml", &change())
            .args(["plan", "-f", "change", "--current"])
            .args([dir.join(current).to_str().expect("utf-8")])
            .args(["-o", "json", "--detailed-exitcode"])
            .status(2)
            .run()
    };
    let saved = replay("saved");
    assert_eq!(live.stdout, saved.stdout);
    let export = replay("export");
    assert_eq!(live.stdout, export.stdout);
    // The change is planned: the worker template rotates.
    assert!(live.stdout.contains("v1.34.2"), "{}", live.stdout);
}

#[test]
fn a_403_names_the_rbac_check() {
    let server = ApiServer::replay_file(&recording("forbidden.json"));
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .args(plan_args())
        .status(1)
        .stderr_contains("topoplan::live::forbidden")
        .stderr_contains("`kubectl auth can-i list extensionconfigs.runtime.cluster.x-k8s.io`")
        .stderr_contains("cannot list resource \"extensionconfigs\"")
        .run();
    assert_only_get(&server);
}

#[test]
fn files_win_over_the_cluster_with_a_note() {
    let server = replayed();
    let cluster =
        std::fs::read_to_string(repo().join("testdata/current/base/Cluster_team-a_dev.yaml"))
            .expect("cluster");
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .file("cur/cluster.yaml", &cluster)
        .args(plan_args())
        .args(["--current", "cur", "--detailed-exitcode"])
        .status(2)
        .stderr_contains("1 object(s) read from the cluster are also in --current files; the files' copies are used: Cluster team-a/dev")
        .run();
}

#[test]
fn a_kubeconfig_in_the_environment_alone_reads_nothing() {
    let server = replayed();
    let t = live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})));
    let kc = t.path().join("kc");
    t.env("KUBECONFIG", kc.to_str().expect("utf-8"))
        .args(["validate", "-f", "change"])
        .run();
    assert!(server.seen().is_empty(), "{:?}", server.seen());
}

#[test]
fn save_current_never_replaces_a_directory_it_did_not_write() {
    let server = replayed();
    let out = live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .file("saved/notes.txt", "mine")
        .args(plan_args())
        .args(["--save-current", "saved"])
        .status(1)
        .stderr_contains("topoplan::live::save")
        .run();
    assert_eq!(
        std::fs::read_to_string(out.dir.path().join("saved/notes.txt")).expect("kept"),
        "mine"
    );
    assert!(
        server.seen().is_empty(),
        "refused before the cluster is contacted"
    );
}

#[test]
fn save_current_needs_a_live_read() {
    Test::new()
        .env_remove_all()
        .file("change/templates.yaml", &change())
        .args(["plan", "-f", "change", "--save-current", "saved"])
        .status(1)
        .stderr_contains("--save-current writes what a live read read")
        .run();
}

// ---- authentication ----

#[test]
fn bearer_token() {
    let server = replayed();
    server.set_auth(Auth::Token("t0ken".into()));
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .args(plan_args())
        .run();
    assert!(
        server
            .seen()
            .iter()
            .all(|s| s.authorization.as_deref() == Some("Bearer t0ken"))
    );
}

#[test]
fn a_refused_token_is_a_connect_error() {
    let server = replayed();
    server.set_auth(Auth::Token("right".into()));
    live_test(&kubeconfig(&server, json!({"token": "wrong"}), json!({})))
        .args(plan_args())
        .status(1)
        .stderr_contains("topoplan::live::connect")
        .stderr_contains("401 Unauthorized")
        .run();
}

#[test]
fn token_file() {
    let server = replayed();
    server.set_auth(Auth::Token("from-file".into()));
    live_test(&kubeconfig(
        &server,
        json!({"tokenFile": "token"}),
        json!({}),
    ))
    .file("token", "from-file\n")
    .args(plan_args())
    .run();
}

#[test]
fn client_certificate_and_ca_file() {
    let server = replayed();
    server.set_auth(Auth::ClientCert);
    let kc = kubeconfig(
        &server,
        json!({"client-certificate": "client.crt", "client-key": "client.key"}),
        json!({"certificate-authority": "ca.pem"}),
    );
    // The CA from a file (relative to the kubeconfig), not data.
    let mut kc: Value = serde_json::from_str(&kc).expect("json");
    if let Some(c) = kc
        .pointer_mut("/clusters/0/cluster")
        .and_then(Value::as_object_mut)
    {
        c.remove("certificate-authority-data");
    }
    live_test(&kc.to_string())
        .file("ca.pem", &server.pki.ca_pem)
        .file("client.crt", &server.pki.client_cert_pem)
        .file("client.key", &server.pki.client_key_pem)
        .args(plan_args())
        .run();
    assert!(server.seen().iter().all(|s| s.client_cert));
}

#[test]
fn exec_credential_plugin() {
    let server = replayed();
    server.set_auth(Auth::Token("from-plugin".into()));
    let script = "#!/bin/sh\nprintf '%s' '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"from-plugin\"}}'\n";
    let t = live_test(&kubeconfig(
        &server,
        json!({"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": "./plugin.sh", "interactiveMode": "Never"}}),
        json!({}),
    ))
    .file("plugin.sh", script);
    make_executable(&t.path().join("plugin.sh"));
    t.args(plan_args()).run();
}

#[cfg(unix)]
fn make_executable(p: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn an_unknown_context_is_a_kubeconfig_error() {
    live_test("{\"apiVersion\":\"v1\",\"kind\":\"Config\",\"contexts\":[{\"name\":\"a\",\"context\":{\"cluster\":\"c\"}}]}")
        .args(["plan", "-f", "change", "--kubeconfig", "kc", "--context", "nope"])
        .status(1)
        .stderr_contains("topoplan::live::kubeconfig")
        .stderr_contains("context \"nope\" is not in --kubeconfig kc")
        .run();
}

#[test]
fn the_context_flag_picks_the_context() {
    let server = replayed();
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .args(plan_args())
        .args(["--context", "other"])
        .run();
    assert!(!server.seen().is_empty());
}

// ---- proxies ----

/// A kubeconfig's proxy-url is used, as kubectl uses it.
#[test]
fn proxy_url_of_the_kubeconfig_is_used() {
    let server = replayed();
    let proxy = Proxy::start();
    live_test(&kubeconfig(
        &server,
        json!({"token": "t0ken"}),
        json!({"proxy-url": proxy.url}),
    ))
    .args(plan_args())
    .run();
    let port = server.url.rsplit(':').next().expect("port").to_string();
    assert!(
        proxy
            .targets()
            .iter()
            .any(|t| t.ends_with(&format!(":{port}"))),
        "{:?}",
        proxy.targets()
    );
}

/// HTTPS_PROXY is not used for an API server on a loopback address, as kubectl (Go's proxy
/// rules) never proxies loopback.
#[test]
fn https_proxy_is_not_used_for_loopback() {
    let server = replayed();
    let proxy = Proxy::start();
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .env("HTTPS_PROXY", &proxy.url)
        .args(plan_args())
        .run();
    assert!(proxy.targets().is_empty(), "{:?}", proxy.targets());
    assert!(!server.seen().is_empty());
}

// ---- deadlines ----

#[test]
fn a_slow_answer_passes_the_request_timeout() {
    let server = replayed();
    server.set_delay(Some(Duration::from_secs(20)));
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .args(plan_args())
        .args(["--request-timeout", "1s"])
        .status(1)
        .stderr_contains("topoplan::live::connect")
        .stderr_contains("no answer within 1s (--request-timeout)")
        .run();
}

#[test]
fn a_slow_read_passes_the_run_deadline() {
    let server = replayed();
    server.set_delay(Some(Duration::from_secs(20)));
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .args(plan_args())
        .args(["--request-timeout", "0", "--live-deadline", "1"])
        .status(1)
        .stderr_contains("passed its deadline of 1s (--live-deadline)")
        .run();
}

// ---- other commands and flags ----

/// `diff OLD NEW --live`: both sides planned against the cluster.
#[test]
fn diff_against_the_live_cluster() {
    let server = replayed();
    let old = std::fs::read_to_string(repo().join("testdata/examples/quick-start/templates.yaml"))
        .expect("templates");
    let out = live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .file("old/templates.yaml", &old)
        .args([
            "diff",
            "old",
            "change",
            "--kubeconfig",
            "kc",
            "--detailed-exitcode",
        ])
        .status(2)
        .run();
    assert!(out.stdout.contains("team-a/dev"), "{}", out.stdout);
    assert_only_get(&server);
}

/// `validate --live`: the change admitted against the stored objects.
#[test]
fn validate_against_the_live_cluster() {
    let server = replayed();
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .args(["validate", "-f", "change", "--live", "--kubeconfig", "kc"])
        .run();
    assert_only_get(&server);
}

/// `--all-current` takes the live cluster as the stored state too.
#[test]
fn all_current_with_live() {
    let server = ApiServer::fake(Fake {
        objects: fleet(),
        ..Fake::default()
    });
    let out = live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .args(plan_args())
        .args(["--all-current"])
        .run_unchecked();
    // Every stored Cluster is planned, so the unaffected one's objects are listed too.
    assert!(
        server
            .seen()
            .iter()
            .any(|s| s.target.contains("cluster-name%3Dprod")),
        "{}",
        out.stderr
    );
}

// ---- recorded from a real kube-apiserver (scripts/apiserver/run.sh) ----

fn apiserver_recording(name: &str) -> PathBuf {
    repo().join("testdata/live/apiserver").join(name)
}

/// The exchanges recorded from kube-apiserver replay into a plan, which equals the plan from
/// the saved files; the recording holds GETs only, a 410 for an expired continue token, and
/// the read-only ClusterRole of docs/live.md was enough.
#[test]
fn a_real_api_servers_recording_replays() {
    let recorded: Vec<Exchange> = serde_json::from_str(
        &std::fs::read_to_string(apiserver_recording("recording.json")).expect("read"),
    )
    .expect("a recording");
    assert!(recorded.iter().all(|e| e.method == "GET"));
    assert!(
        recorded.iter().any(|e| e.status == 410),
        "a 410 was recorded"
    );
    assert!(
        recorded.iter().all(|e| e.status != 403),
        "the ClusterRole was enough"
    );
    let server = ApiServer::replay(recorded);
    let t = live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})));
    let dir = t.path().to_path_buf();
    let live = t
        .args(plan_args())
        .args(["--save-current", "saved", "--detailed-exitcode"])
        .status(2)
        .run();
    assert_eq!(server.missing(), Vec::<String>::new());
    assert!(live.stdout.contains("v1.34.2"), "{}", live.stdout);
    let saved = Test::new()
        .env_remove_all()
        .file("change/templates.yaml", &change())
        .args(["plan", "-f", "change", "--current"])
        .args([dir.join("saved").to_str().expect("utf-8")])
        .args(["-o", "json", "--detailed-exitcode"])
        .status(2)
        .run();
    assert_eq!(live.stdout, saved.stdout);
}

#[test]
fn a_real_api_servers_403_names_the_rbac_check() {
    let server = ApiServer::replay_file(&apiserver_recording("forbidden.json"));
    live_test(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
        .args(plan_args())
        .status(1)
        .stderr_contains("topoplan::live::forbidden")
        .stderr_contains("`kubectl auth can-i list extensionconfigs.runtime.cluster.x-k8s.io`")
        .run();
}

// ---- TLS ----

/// Without the cluster's CA the server's certificate is refused; `insecure-skip-tls-verify`
/// in the kubeconfig (and only there) turns verification off.
#[test]
fn tls_is_verified_unless_the_kubeconfig_says_otherwise() {
    let server = replayed();
    let mut kc: Value =
        serde_json::from_str(&kubeconfig(&server, json!({"token": "t0ken"}), json!({})))
            .expect("json");
    if let Some(c) = kc
        .pointer_mut("/clusters/0/cluster")
        .and_then(Value::as_object_mut)
    {
        c.remove("certificate-authority-data");
    }
    live_test(&kc.to_string())
        .args(plan_args())
        .status(1)
        .stderr_contains("topoplan::live::connect")
        .run();
    assert!(
        server.seen().is_empty(),
        "no request passed an unverified handshake"
    );
    if let Some(c) = kc
        .pointer_mut("/clusters/0/cluster")
        .and_then(Value::as_object_mut)
    {
        c.insert("insecure-skip-tls-verify".into(), json!(true));
    }
    live_test(&kc.to_string()).args(plan_args()).run();
    assert!(!server.seen().is_empty());
}
