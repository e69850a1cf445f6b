//! The CLI test builder itself (tests/common): expectations pass when met, and an unmet one
//! fails the test with a message that shows the command, exit code, stdout and stderr.

mod common;

use common::Test;

/// The panic message of `f`, which must panic.
fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let payload = std::panic::catch_unwind(f).expect_err("expected a panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn met_expectations_pass_and_return_the_output() {
    let out = Test::new()
        .args(["eval", "--text", "a{{ 1 }}"])
        .status(0)
        .stdout("a1\n")
        .stdout_contains("a1")
        .stdout_lacks("b")
        .stdout_matches(r"(?m)^a\d$")
        .stderr("")
        .stderr_lacks("error")
        .run();
    assert_eq!(out.stdout, "a1\n");
    Test::new()
        .args(["eval", "{{ .nope | nosuchfunc }}"])
        .status(1)
        .stdout("")
        .stderr_contains("nosuchfunc")
        .stderr_matches("function \"nosuchfunc\" not defined")
        .run();
    Test::new()
        .args(["eval", "x: 1\nlist: [a, b]\n"])
        .stdout_json("/x", 1)
        .stdout_json("/list/1", "b")
        .stdout_json("", serde_json::json!({"x": 1, "list": ["a", "b"]}))
        .run();
}

#[test]
fn the_expected_status_is_zero_by_default() {
    let msg = panic_message(|| {
        Test::new().args(["eval"]).run();
    });
    assert!(msg.contains("exit code: expected 0, got 1"), "{msg}");
}

#[test]
fn an_unmet_expectation_shows_command_exit_code_and_output() {
    let msg = panic_message(|| {
        Test::new()
            .env("A_VAR", "x y")
            .args(["eval", "--text", "hello {{ 1 }}"])
            .status(1)
            .stdout_contains("goodbye")
            .stderr_contains("nope")
            .run();
    });
    for want in [
        "  - exit code: expected 1, got 0\n",
        "  - stdout should contain \"goodbye\"\n",
        "  - stderr should contain \"nope\"\n",
        "command:   A_VAR='x y' topoplan eval --text 'hello {{ 1 }}'\n",
        "exit code: 0\n",
        "--- stdout ---\nhello 1\n\n--- stderr ---\n",
    ] {
        assert!(msg.contains(want), "{want:?} not in:\n{msg}");
    }
}

#[test]
fn exact_output_mismatches_are_shown_as_a_diff() {
    let msg = panic_message(|| {
        Test::new()
            .args(["eval", "--text", "one\ntwo\n"])
            .stdout("one\n2\n")
            .run();
    });
    assert!(
        msg.contains("stdout differs from the expected text:"),
        "{msg}"
    );
    assert!(msg.contains("-2\n"), "{msg}");
    assert!(msg.contains("+two\n"), "{msg}");
}

#[test]
fn unmet_json_lacks_and_regex_expectations_fail() {
    let msg = panic_message(|| {
        Test::new()
            .args(["eval", "x: 1\n"])
            .stdout_json("/x", 2)
            .stdout_json("/z", 1)
            .stdout_lacks("\"x\"")
            .stdout_matches("^nothing$")
            .run();
    });
    for want in [
        "stdout JSON at \"/x\": expected 2, got 1",
        "stdout JSON has nothing at \"/z\"",
        "stdout should not contain \"\\\"x\\\"\"",
        "stdout should match /^nothing$/",
    ] {
        assert!(msg.contains(want), "{want:?} not in:\n{msg}");
    }
    let msg = panic_message(|| {
        Test::new()
            .args(["eval", "--text", "plain"])
            .stdout_json("/x", 1)
            .run();
    });
    assert!(msg.contains("stdout is not JSON"), "{msg}");
}

#[test]
fn run_unchecked_asserts_nothing_and_refuses_expectations() {
    let out = Test::new().args(["eval"]).run_unchecked();
    assert_eq!(out.code, 1);
    let msg = panic_message(|| {
        Test::new().args(["eval"]).status(1).run_unchecked();
    });
    assert!(
        msg.contains("run_unchecked() ignores expectations"),
        "{msg}"
    );
}
