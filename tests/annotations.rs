//! Diagnostics in CI's formats: GitHub Actions workflow commands and JSON lines.

mod common;

use common::Test;
use common::scenario::Plan;

const BAD: &str =
    "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: BAD_name\n";

#[test]
fn inside_github_actions_errors_are_also_workflow_commands() {
    let out = Test::new()
        .file("c.yaml", BAD)
        .args(["validate", "-f", "c.yaml"])
        .env("GITHUB_ACTIONS", "true")
        .status(1)
        .stderr_contains("not a valid object name")
        .run();
    let commands: Vec<&str> = out.stderr.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(commands.len(), 1, "{}", out.stderr);
    assert!(
        commands[0].starts_with("::error file=c.yaml,line=4,col=9,title=topoplan%3A%3Aadmission%3A%3Ainvalid::Cluster.cluster.x-k8s.io \"BAD_name\" is invalid"),
        "{}",
        commands[0]
    );
}

#[test]
fn warnings_are_warning_commands() {
    let p = Plan::new();
    let again = p.cluster_yaml();
    p.file("flavor-b/cluster.yaml", &again)
        .plan_test(&["--diagnostics-format", "github"])
        .stderr_matches(
            r"(?m)^::warning title=topoplan%3A%3Ainput%3A%3Aflavor::Cluster default/demo is defined in 2 files",
        )
        .stderr_lacks("╭")
        .run();
}

#[test]
fn the_flag_wins_over_the_environment() {
    Test::new()
        .file("c.yaml", BAD)
        .args(["validate", "-f", "c.yaml", "--diagnostics-format", "text"])
        .env("GITHUB_ACTIONS", "true")
        .status(1)
        .stderr_contains("not a valid object name")
        .stderr_lacks("::error")
        .run();
}

#[test]
fn json_lines_are_one_object_each_and_bounded() {
    let many: String = (0..60)
        .map(|i| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_{i}\n---\n"))
        .collect();
    let out = Test::new()
        .file("many.yaml", &many)
        .args([
            "validate",
            "-f",
            "many.yaml",
            "--diagnostics-format",
            "json",
        ])
        .status(1)
        .run();
    let lines: Vec<serde_json::Value> = out
        .stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    // Fifty, then one line counting the rest, as the text does.
    assert_eq!(lines.len(), 51, "{}", out.stderr);
    assert_eq!(lines[0]["severity"], "error");
    assert_eq!(lines[0]["code"], "topoplan::admission::invalid");
    assert_eq!(lines[0]["file"], "many.yaml");
    assert_eq!(lines[0]["line"], 4);
    assert!(
        lines[50]["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("… and 10 more not shown"),
        "{}",
        lines[50]
    );
    assert_eq!(lines[50]["code"], "topoplan::output::more");
}

/// The same problem has the same code in every format: the text header, JSON lines, workflow
/// commands, the plan document and JUnit.
#[test]
fn every_format_carries_the_code() {
    let p = Plan::new();
    let broken = p
        .cluster_yaml()
        .replace("name: demo-class", "name: no-such-class");
    assert_ne!(broken, p.cluster_yaml());
    let run = |args: &[&str]| {
        Test::new()
            .file("class.yaml", &p.class_yaml())
            .file("cluster.yaml", &broken)
            .args(["plan", "-f", "."])
            .args(args.iter().copied())
            .status(1)
    };
    let code = "topoplan::class::not-found";
    run(&[]).stderr_matches(&format!(r"(?m)^{code}$")).run();
    run(&["--diagnostics-format", "json"])
        .stderr_contains(&format!("\"code\":\"{code}\""))
        .run();
    run(&["--diagnostics-format", "github"])
        .stderr_contains("title=topoplan%3A%3Aclass%3A%3Anot-found::")
        .run();
    let out = run(&["-o", "json"]).run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("a failure document");
    assert_eq!(doc["errors"][0]["code"], code, "{doc}");
    run(&["-o", "junit"])
        .stdout_contains(&format!("<failure type=\"{code}\""))
        .run();
}
