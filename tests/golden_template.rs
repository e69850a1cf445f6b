//! Golden vectors from the real Go text/template: every `testdata/golden/template/*.cases.jsonl`
//! with a matching `*.expected.jsonl` (written by `scripts/gen-golden-template.sh` from Go 1.24
//! and sprig 3.2.3) is replayed through topoplan's engine, and the result must be identical:
//! the same output, or an error at the same stage with Go's exact message. No Go is needed.
//!
//! Cases with `"yamlToJSON": true` also need the YAML → JSON step Cluster API applies to the
//! output; they are counted and skipped here, and checked by `tests/eval.rs`, which replays every
//! case file through `topoplan eval --jsonl`.

use std::path::Path;

use serde_json::Value as Json;
use topoplan::gotemplate::func::FuncMap;
use topoplan::gotemplate::value::Value;
use topoplan::gotemplate::{self, ErrorKind, MissingKey, Options};

#[derive(serde::Deserialize)]
struct Case {
    template: String,
    #[serde(default)]
    data: Json,
    #[serde(default)]
    funcs: Option<String>,
    #[serde(default)]
    missingkey: Option<String>,
    #[serde(default, rename = "yamlToJSON")]
    yaml_to_json: bool,
    /// Why topoplan deliberately differs from Go on this case (run, but not compared).
    #[serde(default)]
    deviation: Option<String>,
}

#[derive(serde::Deserialize)]
struct Expected {
    ok: bool,
    #[serde(default)]
    output: Option<String>,
    #[serde(default)]
    stage: Option<String>,
    #[serde(default)]
    error: Option<String>,
}

/// Our result in the oracle's terms: Ok(output) or Err((stage, message)).
fn run(case: &Case, none: &FuncMap) -> Result<String, (String, String)> {
    let funcs = match case.funcs.as_deref() {
        None | Some("hermetic") => gotemplate::sprig::hermetic(),
        Some("none") => none,
        Some(other) => return Err(("input".into(), format!("unknown funcs {other:?}"))),
    };
    let missing_key = match case.missingkey.as_deref() {
        None | Some("") | Some("default") | Some("invalid") => MissingKey::Default,
        Some("zero") => MissingKey::Zero,
        Some("error") => MissingKey::Error,
        Some(other) => return Err(("input".into(), format!("unknown missingkey {other:?}"))),
    };
    let opts = Options {
        name: "tpl",
        funcs,
        missing_key,
    };
    let tpl = gotemplate::parse(&case.template, &opts).map_err(|e| stage(e.kind, e.message))?;
    tpl.execute(&Value::from_json(&case.data))
        .map_err(|e| stage(e.kind, e.message))
}

fn stage(kind: ErrorKind, message: String) -> (String, String) {
    let s = match kind {
        ErrorKind::Parse => "parse",
        ErrorKind::Exec => "exec",
    };
    (s.to_string(), message)
}

#[test]
fn templates_match_go() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/golden/template");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.to_string_lossy().ends_with(".cases.jsonl"));
    files.sort();
    let none = FuncMap::new();
    let mut failures = Vec::new();
    let (mut total, mut skipped) = (0usize, 0usize);
    let mut deviations = Vec::new();
    for cases_path in &files {
        let expected_path = cases_path
            .to_string_lossy()
            .replace(".cases.jsonl", ".expected.jsonl");
        let Ok(expected_text) = std::fs::read_to_string(&expected_path) else {
            eprintln!("{}: no expected file, skipped", cases_path.display());
            continue;
        };
        let cases_text = std::fs::read_to_string(cases_path).expect("cases file");
        let cases: Vec<(usize, &str)> = cases_text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l))
            .collect();
        let expected: Vec<&str> = expected_text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect();
        assert_eq!(
            cases.len(),
            expected.len(),
            "{}: {} cases but {} expected results (regenerate with scripts/gen-golden-template.sh)",
            cases_path.display(),
            cases.len(),
            expected.len()
        );
        let name = cases_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut file_count = 0;
        for ((line_no, line), exp) in cases.into_iter().zip(expected) {
            let case: Case = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{name}:{line_no}: bad case: {e}"));
            let exp: Expected = serde_json::from_str(exp)
                .unwrap_or_else(|e| panic!("{name}:{line_no}: bad expected line: {e}"));
            if case.yaml_to_json {
                skipped += 1;
                continue;
            }
            total += 1;
            file_count += 1;
            let got = run(&case, &none);
            if let Some(why) = &case.deviation {
                deviations.push(format!("{name}:{line_no}: {:?}: {why}", case.template));
                continue;
            }
            let want: Result<String, (String, String)> = if exp.ok {
                Ok(exp.output.unwrap_or_default())
            } else {
                Err((exp.stage.unwrap_or_default(), exp.error.unwrap_or_default()))
            };
            if got != want {
                failures.push(format!(
                    "{name}:{line_no}: template {:?}\n    data {}\n    want {:?}\n    got  {:?}",
                    case.template, case.data, want, got
                ));
            }
        }
        eprintln!("{name}: {file_count} cases");
    }
    for d in &deviations {
        eprintln!("deliberate deviation (not compared): {d}");
    }
    eprintln!(
        "golden templates: {total} cases, {} mismatches, {} deliberate deviations, {skipped} yamlToJSON cases skipped",
        failures.len(),
        deviations.len()
    );
    if !failures.is_empty() {
        panic!(
            "{} of {total} golden template cases differ from Go:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}
