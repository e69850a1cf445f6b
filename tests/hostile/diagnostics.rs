//! Hostile inputs: diagnostics. Whatever an input holds, rendering an error about it never
//! panics, stays small, and never lets a control character reach the terminal.

#[allow(unused_imports)]
use crate::harness::*;

use std::path::Path;

/// A fixture directory of the repository, as (file name, text) pairs.
fn fixture(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&root)
        .expect("fixture directory")
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).expect("fixture file"),
            )
        })
        .collect();
    files.sort();
    files
}

/// A Hostile run with the quick-start example under `ex/`.
fn quick_start() -> Hostile {
    fixture("testdata/examples/quick-start")
        .into_iter()
        .fold(Hostile::new(), |h, (name, text)| {
            h.file(&format!("ex/{name}"), text)
        })
}

/// One-line JSON Cluster with `annotation` and an invalid version after it.
fn wide_cluster(annotation: &str) -> String {
    format!(
        r#"{{"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"Cluster","metadata":{{"name":"c","namespace":"default","annotations":{{"x":"{annotation}"}}}},"spec":{{"topology":{{"classRef":{{"name":"nope"}},"version":"bogus"}}}}}}"#
    )
}

#[test]
fn an_error_past_column_65535_renders_a_window_of_its_line() {
    // miette panicked ("Formatting argument out of range") past column 65,535.
    let text = wide_cluster(&"a".repeat(70_000));
    let col = text.find("\"bogus\"").expect("bogus") + 1;
    let out = Hostile::new()
        .file("wide.json", &text)
        .args(["plan", "-f", "wide.json"])
        .run();
    out.within(2.0, 512);
    let err = out.refused("version must be a valid semantic version");
    assert!(
        err.contains(&format!("[wide.json:1:{col}]")),
        "{}",
        head(err)
    );
    assert!(err.contains("…"), "{}", head(err));
    assert!(
        err.lines().all(|l| l.chars().count() < 400),
        "{}",
        head(err)
    );
}

#[test]
fn a_huge_value_in_an_error_gives_a_bounded_report() {
    // The value is quoted in the message and shown in the snippet: unbounded, that printed
    // twice the input.
    let text = wide_cluster("a").replace("bogus", &"9".repeat(1 << 20));
    let out = Hostile::new()
        .file("big.json", &text)
        .args(["plan", "-f", "big.json"])
        // Cluster API's CRD caps the version at 256 bytes; the report's bound stands behind it.
        .without_crd_limits()
        .run();
    out.within(2.0, 512);
    let err = out.refused("bytes not shown)");
    // The middle of the message goes, not the reason at its end.
    assert!(
        err.contains("bytes not shown) …9999")
            && err.contains("9\": version must be a valid semantic version"),
        "{}",
        head(err)
    );
    assert!(err.len() < 64 * 1024, "{} bytes of stderr", err.len());
}

#[test]
fn many_errors_on_one_line_stop_early_and_fast() {
    // 3,000 objects without a kind on one line: each error used to render (and scan) the
    // whole line.
    let items = vec![r#"{"apiVersion":"v1","metadata":{"name":"x"}}"#; 3000].join(",");
    let text = format!(r#"{{"apiVersion":"v1","kind":"List","items":[{items}]}}"#);
    let out = Hostile::new()
        .file("list.json", &text)
        .args(["plan", "-f", "list.json"])
        .run();
    out.within(2.0, 512);
    let err = out.refused("… and 2950 more not shown (2950 errors, 0 warnings)");
    assert!(err.len() < 64 * 1024, "{} bytes of stderr", err.len());
}

#[test]
fn many_related_diagnostics_are_counted_not_shown() {
    // One diagnostic with a located related one per missing variable.
    let mut text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n".to_string();
    for i in 0..5000 {
        text.push_str(&format!("  k{i}: ${{MISSING_{i}}}\n"));
    }
    let out = Hostile::new()
        .file("vars.yaml", text)
        .args(["plan", "-f", "vars.yaml", "--substitute"])
        .run();
    out.within(2.0, 512);
    let err = out.refused("… and 4980 more");
    assert!(err.len() < 64 * 1024, "{} bytes of stderr", err.len());
}

#[test]
fn control_characters_in_a_file_name_and_snippet_are_escaped() {
    // A raw ESC in the input makes the parser fail there; the snippet shows the line, the
    // header the file name: both used to go to the terminal raw.
    let out = Hostile::new()
        .file(
            "x\u{1b}]0;pwned\u{7}.yaml",
            "kind: Cluster\nname: \u{1b}[2J\u{9b}31m\u{202e}x\n",
        )
        .args(["plan", "-f", "."])
        .run();
    out.within(2.0, 512);
    let err = out.refused("\\u001b]0;pwned\\u0007.yaml");
    out.no_control_bytes();
    assert!(!err.contains('\u{202e}'), "{err}");
}

#[test]
fn control_characters_in_the_table_are_escaped() {
    // The same Cluster in two files is planned once per file, each headed by its file name.
    let cluster = fixture("testdata/examples/quick-start")
        .into_iter()
        .find(|(n, _)| n == "cluster.yaml")
        .expect("cluster.yaml")
        .1;
    let out = quick_start()
        .file("ex/flavor\u{1b}[31m\u{7}.yaml", cluster)
        .args(["plan", "-f", "ex"])
        .run();
    out.within(2.0, 512);
    assert_eq!(out.code, 0, "{}", head(&out.stderr));
    assert!(
        out.stdout.contains("from ex/flavor\\u001b[31m\\u0007.yaml"),
        "{}",
        head(&out.stdout)
    );
    out.no_control_bytes();
}

#[test]
fn control_characters_stay_escaped_in_yaml_output() {
    let cluster = fixture("testdata/examples/quick-start")
        .into_iter()
        .find(|(n, _)| n == "cluster.yaml")
        .expect("cluster.yaml")
        .1
        .replace(
            "          tier: cp-from-topology\n",
            "          tier: cp-from-topology\n        annotations:\n          example.com/x: \"\\e[2J\\a\\x85\\u202E\"\n",
        );
    let out = quick_start()
        .file("ex/cluster.yaml", cluster)
        .args(["plan", "-f", "ex", "--output", "yaml"])
        .run();
    out.within(2.0, 512);
    assert_eq!(out.code, 0, "{}", head(&out.stderr));
    assert!(
        out.stdout.contains("example.com/x:"),
        "{}",
        head(&out.stdout)
    );
    out.no_control_bytes();
    assert!(!out.stdout.contains('\u{202e}'), "{}", head(&out.stdout));
}

#[test]
fn an_extension_message_with_escapes_is_escaped() {
    use crate::extension_server::{ExtensionServer, Mode};
    let server = ExtensionServer::http();
    server.set_mode(Mode::Failure("\u{1b}]0;pwned\u{7}\u{1b}[2J no".into()));
    let ext = format!("test-extension={}", server.url);
    let out = fixture("testdata/examples/runtime-sdk")
        .into_iter()
        .fold(Hostile::new(), |h, (name, text)| {
            h.file(&format!("ex/{name}"), text)
        })
        .args(["plan", "-f", "ex", "--extension", &ext])
        .run();
    out.within(2.0, 512);
    out.refused("\\u001b]0;pwned\\u0007\\u001b[2J no");
    out.no_control_bytes();
}

#[test]
fn machine_formats_are_bounded_as_the_text_is() {
    // A 1 MB value quoted in a message: `--diagnostics-format github|json` printed it whole
    // (one 1 MB `::error` line), and a run of many printed every one.
    let text = wide_cluster("a").replace("bogus", &"9".repeat(1 << 20));
    for format in ["github", "json"] {
        let out = Hostile::new()
            .file("big.json", &text)
            .args(["--diagnostics-format", format, "plan", "-f", "big.json"])
            .without_crd_limits()
            .run();
        out.within(2.0, 512);
        let err = out.refused("bytes not shown)");
        assert!(
            err.contains("9\\\": version must be a valid semantic version")
                || err.contains("9\": version must be a valid semantic version"),
            "{format}: {}",
            head(err)
        );
        assert!(
            err.len() < 16 * 1024,
            "{format}: {} bytes of stderr",
            err.len()
        );
    }
    // Many large messages: the whole report stays near the text format's 64 KiB.
    let mut many = String::new();
    for i in 0..40 {
        many.push_str(
            &wide_cluster("a")
                .replace("\"c\"", &format!("\"c{i}\""))
                .replace("bogus", &"9".repeat(100_000)),
        );
        many.push_str("\n---\n");
    }
    for format in ["github", "json"] {
        let out = Hostile::new()
            .file("many.yaml", &many)
            .args(["--diagnostics-format", format, "plan", "-f", "many.yaml"])
            .without_crd_limits()
            .run();
        out.within(4.0, 512);
        let err = out.refused("more not shown");
        assert!(
            err.len() < 80 * 1024,
            "{format}: {} bytes of stderr",
            err.len()
        );
    }
}
