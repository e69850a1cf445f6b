//! Hostile inputs: Runtime extensions. An ExtensionConfig in the input names where topoplan
//! connects only when the command line allows it; a failing extension's answer is quoted short
//! and escaped; a failed `--record-extensions` run loses no earlier recording; and `extension
//! check` says what happened when a handler is not in Discovery's answer.

use std::path::Path;

use crate::extension_server::{ExtensionServer, Hook, Mode};
#[allow(unused_imports)]
use crate::harness::*;

/// The runtime-sdk example under `ex/`.
fn runtime_sdk() -> Hostile {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/examples/runtime-sdk");
    let mut h = Hostile::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("example")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        h = h.file(
            &format!("ex/{name}"),
            std::fs::read_to_string(dir.join(&name)).expect("read"),
        );
    }
    h
}

/// An ExtensionConfig of the example's extension at `url`, trusting `ca` (PEM).
fn extension_config(url: &str, ca: Option<&str>) -> String {
    let mut s = format!(
        "apiVersion: runtime.cluster.x-k8s.io/v1alpha1\nkind: ExtensionConfig\nmetadata:\n  name: test-extension\nspec:\n  clientConfig:\n    url: {url}\n"
    );
    if let Some(ca) = ca {
        s.push_str(&format!(
            "    caBundle: {}\n",
            topoplan::go::base64::encode(ca.as_bytes())
        ));
    }
    s
}

#[test]
fn an_extension_config_of_the_input_is_not_called_unless_allowed() {
    // The pull request adds an ExtensionConfig naming an address of its choosing (here a
    // server that records whether anyone connected).
    let server = ExtensionServer::https();
    let ca = server.ca_pem.clone().expect("ca");
    let config = extension_config(&server.url, Some(&ca));
    let r = runtime_sdk()
        .file("ex/extensionconfig.yaml", &config)
        .args(["plan", "-f", "ex"])
        .run();
    r.within(4.0, 256);
    let err = r.refused("topoplan::extension::not-allowed");
    assert!(err.contains("--allow-extension-url"), "{}", head(err));
    assert!(
        err.contains("--extension test-extension=URL"),
        "{}",
        head(err)
    );
    assert_eq!(server.connections(), 0, "topoplan connected");
    // A service reference would be looked up in DNS: refused before any I/O, the same way.
    let service = "apiVersion: runtime.cluster.x-k8s.io/v1alpha1\nkind: ExtensionConfig\nmetadata:\n  name: test-extension\nspec:\n  clientConfig:\n    service: {name: exfil, namespace: attacker.example.com}\n";
    let r = runtime_sdk()
        .file("ex/extensionconfig.yaml", service)
        .args(["plan", "-f", "ex"])
        .run();
    r.within(4.0, 256);
    r.refused("https://exfil.attacker.example.com.svc:443");
    // A prefix that matches only up to a host boundary does not allow a longer host.
    let r = runtime_sdk()
        .file("ex/extensionconfig.yaml", &config)
        .args(["plan", "-f", "ex", "--allow-extension-url"])
        .args([server.url.trim_end_matches(|c: char| c.is_ascii_digit())])
        .run();
    r.within(4.0, 256);
    r.refused("topoplan::extension::not-allowed");
    assert_eq!(server.connections(), 0, "topoplan connected");
    // Allowed on the command line, it is called.
    let r = runtime_sdk()
        .file("ex/extensionconfig.yaml", &config)
        .args(["plan", "-f", "ex", "--allow-extension-url", &server.url])
        .run();
    r.within(4.0, 256);
    assert_eq!(r.code, 0, "{}", head(&r.stderr));
    assert!(server.connections() > 0);
}

#[test]
fn a_failing_extension_is_quoted_short_and_escaped() {
    let server = ExtensionServer::http();
    let body = format!(
        "::stop-commands::pwnd\n::error file=README.md,line=1::fake\n\u{1b}[2J{}",
        "x".repeat(1 << 20)
    );
    server.set_hook_mode(Hook::GeneratePatches, Mode::Status(500, body));
    let ext = format!("test-extension={}", server.url);
    let r = runtime_sdk()
        .args(["plan", "-f", "ex", "--extension", &ext])
        .env("GITHUB_ACTIONS", "true")
        .run();
    r.within(4.0, 256);
    let err = r.refused("status code 500");
    r.no_control_bytes();
    assert!(err.len() < 16 * 1024, "{} bytes of stderr", err.len());
    for line in err.lines() {
        let t = line.trim_start();
        assert!(
            !t.starts_with("::") || t.contains("title=topoplan%3A%3A"),
            "a line the runner would run: {line:?}"
        );
    }
}

/// Files of `dir`, sorted, with their bytes.
fn recording(dir: &Path) -> Vec<(String, Vec<u8>)> {
    snapshot_tree(dir)
        .into_iter()
        .map(|(p, b)| (p.display().to_string(), b))
        .collect()
}

#[test]
fn a_failed_recording_run_leaves_the_earlier_recording_as_it_was() {
    let server = ExtensionServer::http();
    let ext = format!("test-extension={}", server.url);
    let h = runtime_sdk();
    let rec = h.path().join("rec");
    let status = std::process::Command::new(bin())
        .current_dir(h.path())
        .args([
            "plan",
            "-f",
            "ex",
            "--extension",
            &ext,
            "--record-extensions",
            "rec",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("record");
    assert!(status.success());
    let before = recording(&rec);
    assert!(
        before.len() >= 4,
        "{:?}",
        before.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    // Re-recorded with the extension gone (nothing listens on port 9): the run fails.
    let r = h
        .args([
            "plan",
            "-f",
            "ex",
            "--extension",
            "test-extension=http://127.0.0.1:9",
            "--record-extensions",
            "rec",
        ])
        .run();
    r.within(4.0, 256);
    let err = r.refused("failed to discover extension");
    assert!(err.contains("was left as it was"), "{}", head(err));
    assert_eq!(recording(&r.dir.path().join("rec")), before);
}

#[test]
fn recording_into_the_output_dir_is_refused_before_anything_is_written() {
    for (record, out) in [("d", "d"), ("d/rec", "d"), ("d", "d/plan")] {
        let r = runtime_sdk()
            .args([
                "plan",
                "-f",
                "ex",
                "--extension",
                "test-extension=http://127.0.0.1:9",
                "--record-extensions",
                record,
                "--output-dir",
                out,
            ])
            .run();
        r.within(2.0, 256);
        r.refused("overlap");
        assert!(!r.dir.path().join("d").exists(), "{record} {out}: written");
    }
}

#[test]
fn timeouts_say_when_discovery_does_not_announce_a_handler() {
    let server = ExtensionServer::http();
    let mut discovery = crate::extension_server::discovery();
    if let Some(list) = discovery["handlers"].as_array_mut() {
        list.retain(|h| h["name"] != "discover-variables");
    }
    server.set_discovery(discovery);
    let ext = format!("test-extension={}", server.url);
    let r = runtime_sdk()
        .args([
            "extension",
            "check",
            "-f",
            "ex",
            "--extension",
            &ext,
            "--calls",
            "2",
            "-o",
            "json",
        ])
        .run();
    r.within(8.0, 256);
    assert!(
        !r.stdout.contains("at or over its timeoutSeconds (0 s)"),
        "{}",
        head(&r.stdout)
    );
    assert!(
        r.stdout
            .contains("is not announced by the extension's Discovery answer"),
        "{}\n{}",
        head(&r.stdout),
        head(&r.stderr)
    );
}
