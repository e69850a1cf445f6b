//! Recorded extension calls end to end: `plan --record-extensions` against the test extension
//! (tests/extension_server) on 127.0.0.1, then `--replay-extensions` with no extension at all;
//! stale, malformed, oversized and linked recordings; `--trace-extensions` and
//! `--redact-setting`.

mod common;
mod extension_server;

use std::path::Path;

use common::Test;
use extension_server::ExtensionServer;

const FIXTURE: &str = "testdata/examples/runtime-sdk";

/// `plan` of the fixture with `extra` arguments (no extension unless `extra` names one).
fn plan(extra: &[&str]) -> Test {
    let mut args = vec!["plan", "-f", "ex"];
    args.extend_from_slice(extra);
    Test::new().fixture(FIXTURE, "ex").args(args)
}

fn ext(server: &ExtensionServer) -> String {
    format!("test-extension={}", server.url)
}

fn arg(p: &Path) -> String {
    p.display().to_string()
}

/// Record `plan -o json` of the fixture into `dir`; returns its stdout.
fn record(server: &ExtensionServer, dir: &Path, extra: &[&str]) -> String {
    let e = ext(server);
    let d = arg(dir);
    let mut args = vec!["--extension", &e, "--record-extensions", &d, "-o", "json"];
    args.extend_from_slice(extra);
    plan(&args).run().stdout
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn call_files(dir: &Path) -> Vec<String> {
    files(dir)
        .into_iter()
        .filter(|n| n.len() == 69 && n.ends_with(".json"))
        .collect()
}

#[test]
fn replay_plans_the_same_bytes_with_no_extension() {
    let server = ExtensionServer::http();
    let rec = tempfile::tempdir().expect("tempdir");
    let e = ext(&server);
    let live = plan(&["--extension", &e, "-o", "json"]).run().stdout;
    let live_table = plan(&["--extension", &e]).run().stdout;
    let recorded = record(&server, rec.path(), &[]);
    assert_eq!(recorded, live, "recording changes the plan");

    // Discovery, DiscoverVariables, GeneratePatches, ValidateTopology: one file each.
    assert_eq!(call_files(rec.path()).len(), 4, "{:?}", files(rec.path()));
    let index = std::fs::read_to_string(rec.path().join("index.json")).expect("index");
    for needle in [
        "\"recording\": \"topoplan extension calls\"",
        "\"Cluster team-b/sdk\"",
        "\"ClusterClass fleet/dev-sdk\"",
        "\"extension test-extension\"",
        "\"hook\": \"GeneratePatches\"",
        "\"handler\": \"generate-patches.test-extension\"",
    ] {
        assert!(index.contains(needle), "{needle} missing from\n{index}");
    }

    let before = server.requests().len();
    let r = arg(rec.path());
    let replayed = plan(&["--replay-extensions", &r, "-o", "json"]).run();
    assert_eq!(replayed.stdout, live, "replay differs from the live plan");
    let replayed_table = plan(&["--replay-extensions", &r]).run();
    assert_eq!(replayed_table.stdout, live_table);
    assert_eq!(
        server.requests().len(),
        before,
        "replay reached the extension"
    );

    // Recording again gives the same files, byte for byte.
    let snapshot: Vec<(String, Vec<u8>)> = files(rec.path())
        .into_iter()
        .map(|n| {
            let b = std::fs::read(rec.path().join(&n)).expect("read");
            (n, b)
        })
        .collect();
    record(&server, rec.path(), &[]);
    let again: Vec<(String, Vec<u8>)> = files(rec.path())
        .into_iter()
        .map(|n| {
            let b = std::fs::read(rec.path().join(&n)).expect("read");
            (n, b)
        })
        .collect();
    assert_eq!(snapshot, again);
}

#[test]
fn replay_answers_through_a_dead_url_and_diff_replays_too() {
    let server = ExtensionServer::http();
    let rec = tempfile::tempdir().expect("tempdir");
    record(&server, rec.path(), &[]);
    let r = arg(rec.path());
    // A URL nothing listens on: never contacted.
    plan(&[
        "--extension",
        "test-extension=http://127.0.0.1:1",
        "--replay-extensions",
        &r,
    ])
    .stdout_contains("team-b/sdk")
    .run();
    // `diff` plans both sides through the same recording.
    Test::new()
        .fixture(FIXTURE, "old")
        .fixture(FIXTURE, "new")
        .args(["diff", "old", "new", "--replay-extensions", &r])
        .run();
}

#[test]
fn a_changed_request_fails_replay_as_a_stale_recording() {
    let server = ExtensionServer::http();
    let rec = tempfile::tempdir().expect("tempdir");
    record(&server, rec.path(), &[]);
    let r = arg(rec.path());
    let cluster = std::fs::read_to_string(common::repo().join(FIXTURE).join("cluster.yaml"))
        .expect("cluster")
        .replace("registry.example.com/kind", "registry.example.com/other");
    plan(&["--replay-extensions", &r])
        .file("ex/cluster.yaml", &cluster)
        .status(1)
        .stderr_contains("topoplan::extension::recording-stale")
        .stderr_contains("Cluster team-b/sdk")
        .stderr_contains("GeneratePatches")
        .stderr_contains("generate-patches.test-extension")
        .stderr_contains("the recording is stale, re-record it with --record-extensions")
        .run();
}

#[test]
fn recorded_failures_replay_the_same_error() {
    let server = ExtensionServer::http();
    server.set_hook_mode(
        extension_server::Hook::GeneratePatches,
        extension_server::Mode::Status(503, "overloaded".into()),
    );
    let rec = tempfile::tempdir().expect("tempdir");
    let e = ext(&server);
    let r = arg(rec.path());
    let live = plan(&["--extension", &e, "--record-extensions", &r])
        .status(1)
        .stderr_contains("503")
        .run();
    let replayed = plan(&["--replay-extensions", &r]).status(1).run();
    assert_eq!(replayed.stderr, live.stderr);
}

#[test]
fn malformed_oversized_and_linked_recordings_are_refused() {
    let server = ExtensionServer::http();
    let rec = tempfile::tempdir().expect("tempdir");
    record(&server, rec.path(), &[]);
    let r = arg(rec.path());

    // Over the bound: the index alone is larger than 100 bytes.
    plan(&[
        "--replay-extensions",
        &r,
        "--max-extension-response-bytes",
        "100",
    ])
    .status(1)
    .stderr_contains("topoplan::extension::recording")
    .stderr_contains("over the limit of 100 bytes")
    .run();

    // A call file that is not JSON: named with its line and column.
    let victim = call_files(rec.path()).remove(0);
    let path = rec.path().join(&victim);
    let good = std::fs::read(&path).expect("read");
    std::fs::write(&path, "{\n  \"hook\": oops\n}\n").expect("write");
    plan(&["--replay-extensions", &r])
        .status(1)
        .stderr_contains("topoplan::extension::recording")
        .stderr_contains(&format!("{victim}:2:11"))
        .run();

    // A link out of the directory, even to the right content.
    let outside = tempfile::tempdir().expect("tempdir");
    let target = outside.path().join("call.json");
    std::fs::write(&target, &good).expect("write");
    std::fs::remove_file(&path).expect("remove");
    std::os::unix::fs::symlink(&target, &path).expect("symlink");
    plan(&["--replay-extensions", &r])
        .status(1)
        .stderr_contains("topoplan::extension::recording")
        .stderr_contains("is a symbolic link")
        .run();

    // Not a recording at all.
    let empty = tempfile::tempdir().expect("tempdir");
    plan(&["--replay-extensions", &arg(empty.path())])
        .status(1)
        .stderr_contains("not a recording of extension calls")
        .run();
}

#[test]
fn recording_leaves_other_files_alone() {
    let server = ExtensionServer::http();
    let rec = tempfile::tempdir().expect("tempdir");
    std::fs::write(rec.path().join("README.md"), "mine").expect("write");
    record(&server, rec.path(), &[]);
    assert_eq!(
        std::fs::read_to_string(rec.path().join("README.md")).expect("kept"),
        "mine"
    );
    // A call file of the earlier recording that this run does not make is removed; a file
    // that merely looks like one and is not listed is never overwritten.
    let stale = "0".repeat(64) + ".json";
    let index_path = rec.path().join("index.json");
    let index = std::fs::read_to_string(&index_path).expect("index");
    let listed = index.replacen(
        "\"calls\": [",
        &format!(
            "\"calls\": [\n    {{\"for\": [\"Cluster x/y\"], \"hook\": \"GeneratePatches\", \"handler\": \"h.e\", \"file\": \"{stale}\"}},"
        ),
        1,
    );
    std::fs::write(&index_path, listed).expect("write");
    std::fs::write(rec.path().join(&stale), "{}").expect("write");
    record(&server, rec.path(), &[]);
    assert!(!rec.path().join(&stale).exists(), "stale call kept");
    assert!(rec.path().join("README.md").exists());

    // An index.json topoplan did not write: refused, untouched.
    let foreign = tempfile::tempdir().expect("tempdir");
    std::fs::write(foreign.path().join("index.json"), "{\"name\": \"mine\"}").expect("write");
    let e = ext(&server);
    let f = arg(foreign.path());
    plan(&["--extension", &e, "--record-extensions", &f])
        .status(1)
        .stderr_contains("not a recording of extension calls written by topoplan")
        .run();
    assert_eq!(
        std::fs::read_to_string(foreign.path().join("index.json")).expect("kept"),
        "{\"name\": \"mine\"}"
    );
}

#[test]
fn record_and_replay_exclude_each_other() {
    plan(&["--record-extensions", "a", "--replay-extensions", "b"])
        .status(1)
        .stderr_contains("cannot be used with")
        .run();
}

#[test]
fn trace_writes_yaml_per_call_and_a_summary_line() {
    let server = ExtensionServer::http();
    let trace = tempfile::tempdir().expect("tempdir");
    let e = ext(&server);
    let t = arg(&trace.path().join("trace"));
    let out = plan(&["--extension", &e, "--trace-extensions", &t])
        .stderr_matches(
            r"extension call: GeneratePatches generate-patches.test-extension for Cluster team-b/sdk: 200 Success in [0-9]+\.[0-9]{3}ms",
        )
        .stderr_contains("extension call: Discovery test-extension for extension test-extension: 200 Success")
        .run();
    let dir = trace.path().join("trace");
    assert_eq!(
        files(&dir),
        [
            ".topoplan-trace",
            "cluster.team-b.sdk.01.generatepatches.generate-patches.test-extension.yaml",
            "cluster.team-b.sdk.02.validatetopology.validate-topology.test-extension.yaml",
            "clusterclass.fleet.dev-sdk.01.discovervariables.discover-variables.test-extension.yaml",
            "extension.test-extension.01.discovery.yaml",
        ],
        "{}",
        out.stderr
    );
    let text = std::fs::read_to_string(
        dir.join("cluster.team-b.sdk.01.generatepatches.generate-patches.test-extension.yaml"),
    )
    .expect("trace");
    for needle in [
        "hook: GeneratePatches",
        "for: Cluster team-b/sdk",
        "status: 200",
        "source: live",
        "profile: e2e",
        "kind: GeneratePatchesRequest",
        "kind: GeneratePatchesResponse",
    ] {
        assert!(text.contains(needle), "{needle} missing from\n{text}");
    }
    assert!(
        regex::Regex::new(r"(?m)^duration: [0-9]+\.[0-9]{3}ms$")
            .expect("re")
            .is_match(&text),
        "{text}"
    );

    // `-v` alone: the summaries, no files.
    plan(&["--extension", &e, "-v"])
        .stderr_contains("extension call: ValidateTopology validate-topology.test-extension for Cluster team-b/sdk: 200 Success")
        .run();
    // Without either: silent.
    plan(&["--extension", &e])
        .stderr_lacks("extension call:")
        .run();

    // A directory of someone else's files is refused and left alone.
    let mine = tempfile::tempdir().expect("tempdir");
    std::fs::write(mine.path().join("notes.txt"), "mine").expect("write");
    plan(&["--extension", &e, "--trace-extensions", &arg(mine.path())])
        .status(1)
        .stderr_contains("neither empty nor an earlier trace")
        .run();
    assert_eq!(files(mine.path()), ["notes.txt"]);
}

#[test]
fn redacted_settings_stay_out_of_traces_and_recordings_and_replay_still_works() {
    let server = ExtensionServer::http();
    let rec = tempfile::tempdir().expect("tempdir");
    let trace = tempfile::tempdir().expect("tempdir");
    let t = arg(&trace.path().join("t"));
    let live = record(
        &server,
        rec.path(),
        &["--redact-setting", "profile", "--trace-extensions", &t],
    );
    let mut written = String::new();
    for dir in [rec.path().to_path_buf(), trace.path().join("t")] {
        for n in files(&dir) {
            written.push_str(&std::fs::read_to_string(dir.join(n)).expect("read"));
        }
    }
    assert!(!written.contains("e2e"), "a redacted value was written");
    assert!(written.contains("REDACTED"));
    // The extension itself saw the real value.
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.body["settings"]["profile"] == "e2e")
    );
    // The index remembers the key: replay needs no flag to match.
    let r = arg(rec.path());
    let replayed = plan(&["--replay-extensions", &r, "-o", "json"]).run();
    assert_eq!(replayed.stdout, live);
}

#[test]
fn validate_records_and_replays_discover_variables() {
    let server = ExtensionServer::http();
    let rec = tempfile::tempdir().expect("tempdir");
    let e = ext(&server);
    let r = arg(rec.path());
    let live = Test::new()
        .fixture(FIXTURE, "ex")
        .args([
            "validate",
            "-f",
            "ex",
            "--extension",
            &e,
            "--record-extensions",
            &r,
        ])
        .run();
    // Discovery and DiscoverVariables.
    assert_eq!(call_files(rec.path()).len(), 2, "{:?}", files(rec.path()));
    let replayed = Test::new()
        .fixture(FIXTURE, "ex")
        .args(["validate", "-f", "ex", "--replay-extensions", &r])
        .run();
    assert_eq!(replayed.stdout, live.stdout);
    assert_eq!(replayed.stderr, live.stderr);
    // A class asking with other settings is not in the recording.
    let class = std::fs::read_to_string(common::repo().join(FIXTURE).join("clusterclass.yaml"))
        .expect("class")
        .replace("profile: e2e", "profile: prod");
    Test::new()
        .fixture(FIXTURE, "ex")
        .file("ex/clusterclass.yaml", &class)
        .args(["validate", "-f", "ex", "--replay-extensions", &r])
        .status(1)
        .stderr_contains("topoplan::extension::recording-stale")
        .stderr_contains("ClusterClass fleet/dev-sdk")
        .stderr_contains("DiscoverVariables")
        .run();
}

#[test]
fn a_recording_inside_the_input_is_not_read_as_input() {
    let server = ExtensionServer::http();
    let e = ext(&server);
    let out = plan(&[
        "--extension",
        &e,
        "--record-extensions",
        "ex/rec",
        "-o",
        "json",
    ])
    .run();
    // Copy the recorded input (with its recording inside) into a new run.
    let mut t = Test::new();
    for name in files(&out.dir.path().join("ex/rec")) {
        let text =
            std::fs::read_to_string(out.dir.path().join("ex/rec").join(&name)).expect("read");
        t = t.file(&format!("ex/rec/{name}"), &text);
    }
    let replayed = t
        .fixture(FIXTURE, "ex")
        .args([
            "plan",
            "-f",
            "ex",
            "--replay-extensions",
            "ex/rec",
            "-o",
            "json",
        ])
        .run();
    assert_eq!(replayed.stdout, out.stdout);
}
