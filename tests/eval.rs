//! `topoplan eval`: one template rendered as Cluster API renders `valueFrom.template`, and
//! `--jsonl`, which must answer every golden case line exactly as the Go oracle did — the same
//! bytes, line by line — for every case file under testdata/golden/template/.

mod common;

use common::Test;
use serde_json::Value;

#[test]
fn jsonl_answers_are_the_oracles_bytes() {
    let dir = common::repo().join("testdata/golden/template");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("golden dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".cases.jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "case files: {files:?}");
    let mut compared = 0;
    let mut bad = Vec::new();
    for cases_path in files {
        let expected_path = cases_path
            .to_string_lossy()
            .replace(".cases.jsonl", ".expected.jsonl");
        let cases = std::fs::read_to_string(&cases_path).expect("cases");
        let expected = std::fs::read_to_string(&expected_path).expect("expected");
        let out = Test::new().stdin(&cases).args(["eval", "--jsonl"]).run();
        let ours: Vec<&str> = out.ok().lines().collect();
        let case_lines: Vec<&str> = cases.lines().filter(|l| !l.trim().is_empty()).collect();
        let want: Vec<&str> = expected.lines().collect();
        assert_eq!(
            ours.len(),
            case_lines.len(),
            "{}: one answer per case",
            cases_path.display()
        );
        for (i, ((case, ours), want)) in case_lines.iter().zip(&ours).zip(&want).enumerate() {
            let c: Value = serde_json::from_str(case).expect("case json");
            if c.get("deviation").is_some() {
                continue;
            }
            compared += 1;
            // Go strings may hold invalid UTF-8, which Go's encoder writes as `\ufffd`;
            // topoplan's strings are UTF-8 and hold U+FFFD there already (a documented
            // difference), so the two spellings of U+FFFD are the same answer.
            let want_norm = unescape_replacement_char(want);
            if *ours == want_norm {
                continue;
            }
            // YAML error texts are topoplan's own (more precise) words; stage and output must
            // still match Go.
            let (o, w): (Value, Value) = (
                serde_json::from_str(ours).unwrap_or_default(),
                serde_json::from_str(want).unwrap_or_default(),
            );
            let yaml_error = w["stage"] == "yaml"
                && o["stage"] == "yaml"
                && o["output"] == w["output"]
                && o["ok"] == w["ok"];
            if !yaml_error {
                bad.push(format!(
                    "{}:{}\n  case {case}\n  want {want}\n  got  {ours}",
                    cases_path.display(),
                    i + 1
                ));
            }
        }
    }
    assert!(compared > 6000, "compared {compared}");
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// `want` with every JSON escape `\ufffd` (not an escaped backslash followed by `ufffd`)
/// written as the character itself.
fn unescape_replacement_char(want: &str) -> String {
    let mut out = String::new();
    let mut chars = want.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let rest: String = chars.clone().take(5).collect();
        if rest == "ufffd" {
            for _ in 0..5 {
                chars.next();
            }
            out.push('\u{fffd}');
        } else {
            out.push(c);
            if let Some(n) = chars.next() {
                out.push(n);
            }
        }
    }
    out
}

#[test]
fn eval_prints_the_json_cluster_api_would_use() {
    Test::new()
        .file("vars.yaml", "replicas: 1000000\nbuiltin: {cluster: {name: c1}}\nname: \"<x>\"\n")
        .args(["eval", "r: {{ .replicas }}\nname: {{ .builtin.cluster.name | upper }}\nh: {{ .name }}\nb: yes\nn: 1\n", "--vars", "vars.yaml"])
        .stdout("{\"b\":true,\"false\":1,\"h\":\"\\u003cx\\u003e\",\"name\":\"C1\",\"r\":1000000}\n")
        .run();
    Test::new()
        .args(["eval", "--text", "{{ .x }}|{{ 1e6 }}"])
        .stdout("<no value>|1e+06\n")
        .run();
}

#[test]
fn eval_errors_are_diagnostics() {
    Test::new()
        .args(["eval", "{{ .a | nosuchfunc }}"])
        .status(1)
        .stderr_contains("template: tpl:1: function \"nosuchfunc\" not defined")
        .run();
    Test::new()
        .args(["eval", "a: [\n"])
        .status(1)
        .stderr_contains("not valid YAML")
        .run();
    Test::new().args(["eval"]).status(1).run();
}
