//! Hostile inputs: GitHub Actions workflow commands. The runner takes any line of a step's
//! output that starts with `::` (after its leading whitespace) as a command, and any line that
//! holds `##[` anywhere as one in the legacy syntax (`##[error]…`); under
//! `GITHUB_ACTIONS=true` no line that came from the input may, in any format or stream, while
//! topoplan's own annotations still reach the runner.

use std::path::Path;

#[allow(unused_imports)]
use crate::harness::*;

/// The quick-start example under `dir/`, its control plane annotated with `value`.
fn quick_start(h: Hostile, dir: &str, value: Option<&str>) -> Hostile {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/examples/quick-start");
    let mut h = h;
    for name in ["cluster.yaml", "clusterclass.yaml", "templates.yaml"] {
        let mut text = std::fs::read_to_string(root.join(name)).expect("example");
        if let (Some(v), "cluster.yaml") = (value, name) {
            text = text.replace(
                "          tier: cp-from-topology\n",
                &format!("          tier: cp-from-topology\n        annotations:\n          example.com/notes: {v}\n"),
            );
        }
        h = h.file(&format!("{dir}/{name}"), text);
    }
    h
}

/// A block scalar whose lines a runner would run, were they printed alone.
const HOSTILE: &str = "|\n            first\n            ::stop-commands::pwnd\n                ::error file=README.md,line=1::fake\n            \u{a0}::warning::nbsp\n              ##[error]legacy\n            see ##[add-mask]Failed\n";

/// Assert no line of stdout or stderr is a workflow command, but topoplan's own annotations.
fn no_commands(r: &Bounded, what: &str) {
    for (stream, text) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
        for line in text.split(['\n', '\r']) {
            let t = line.trim_start();
            let ours = stream == "stderr" && t.contains("title=topoplan%3A%3A");
            assert!(
                !(t.starts_with("::") || t.contains("##[")) || ours,
                "{what}: {stream} has a line the runner would run: {line:?}\n{}",
                head(text)
            );
        }
    }
}

#[test]
fn no_line_from_the_input_reaches_the_runner_as_a_command() {
    for args in [
        vec!["plan", "-f", "new", "-o", "yaml"],
        vec!["plan", "-f", "new", "-o", "json"],
        vec!["plan", "-f", "new"],
        vec!["diff", "old", "new"],
        vec!["diff", "old", "new", "-o", "markdown"],
        vec!["diff", "old", "new", "-o", "yaml"],
    ] {
        let h = quick_start(Hostile::new(), "old", None);
        let r = quick_start(h, "new", Some(HOSTILE))
            .env("GITHUB_ACTIONS", "true")
            .args(args.clone())
            .run();
        r.within(4.0, 256);
        assert!(r.code == 0 || r.code == 2, "{args:?}: {}", head(&r.stderr));
        // The plan's table lists objects, not their contents.
        if args != ["plan", "-f", "new"] {
            assert!(
                r.stdout.contains("stop-commands::pwnd"),
                "{args:?}: {}",
                head(&r.stdout)
            );
        }
        no_commands(&r, &format!("{args:?}"));
        // The documents still read back as the input's value.
        if args.ends_with(&["json"]) {
            let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
            assert!(doc.to_string().contains("##[error]legacy"), "{args:?}");
        }
    }
}

#[test]
fn the_yaml_document_reads_back_the_same() {
    // Outside Actions too, such a string is double-quoted: the document is the same value.
    let r = quick_start(Hostile::new(), "new", Some(HOSTILE))
        .args(["plan", "-f", "new", "-o", "yaml"])
        .run();
    assert_eq!(r.code, 0, "{}", head(&r.stderr));
    assert!(
        r.stdout.contains(
            "\"first\\n::stop-commands::pwnd\\n    ::error file=README.md,line=1::fake\\n"
        ),
        "{}",
        head(&r.stdout)
    );
}

#[test]
fn diagnostics_text_is_neutralised_and_annotations_still_reach_the_runner() {
    // A YAML error whose snippet shows the hostile lines, and a message quoting them.
    let r = Hostile::new()
        .file(
            "bad.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: |\n    ::stop-commands::pwnd\n    x ##[error]legacy\n  ::error file=x::y\n: [\n",
        )
        .env("GITHUB_ACTIONS", "true")
        .args(["plan", "-f", "bad.yaml"])
        .run();
    r.within(2.0, 256);
    assert_eq!(r.code, 1);
    no_commands(&r, "diagnostics");
    assert!(
        r.stderr
            .lines()
            .any(|l| l.starts_with("::error ") && l.contains("title=topoplan%3A%3A")),
        "{}",
        head(&r.stderr)
    );
}
