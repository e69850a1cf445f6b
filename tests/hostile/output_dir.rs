//! Hostile inputs: the output directory. `-o` is a format; `--output-dir` refuses every
//! directory it could not replace without losing something (exit 1, nothing touched), replaces
//! an earlier plan atomically, and a signal while writing leaves the old or the new plan whole.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::scenario::{Plan, WORKER_CLASS};
#[allow(unused_imports)]
use crate::harness::*;

/// `plan -f qs --output-dir out`: the run most tests make.
const PLAN_QS: &[&str] = &["plan", "-f", "qs", "--output-dir", "out"];

/// The Cluster the tests plan: `dev` in namespace `team-a`, so its plan is `out/team-a/dev/`.
fn team_a() -> Plan {
    Plan::new()
        .namespace("team-a")
        .cluster_name("dev")
        .machine_deployment("md-0", WORKER_CLASS, 1)
}

/// `h` with the inputs of `plan` under `to/`.
fn with_plan(h: Hostile, plan: &Plan, to: &str) -> Hostile {
    plan.files()
        .into_iter()
        .fold(h, |h, (f, text)| h.file(&format!("{to}/{f}"), text))
}

/// A fresh working directory with [`team_a`]'s inputs in `qs/`.
fn qs() -> Hostile {
    with_plan(Hostile::new(), &team_a(), "qs")
}

/// Run `plan -f INPUT --output-dir out` in `dir` (unbounded: it prepares a test) and assert it
/// succeeds.
fn plan_into_out(dir: &Path, input: &str) {
    let out = Command::new(bin())
        .current_dir(dir)
        .args(["plan", "-f", input, "--output-dir", "out"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("run topoplan");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A working directory holding [`team_a`]'s inputs in `qs/` and, in `out/`, the plan an earlier
/// run wrote for Cluster `dev` of the default namespace (so the old and the new plan differ).
fn with_earlier_plan() -> Hostile {
    let earlier = Plan::new()
        .cluster_name("dev")
        .machine_deployment("md-0", WORKER_CLASS, 1);
    let h = with_plan(qs(), &earlier, "v1");
    plan_into_out(h.path(), "v1");
    assert!(h.path().join("out/default/dev/created").is_dir());
    h
}

/// Staging or set-aside directories left next to `out`.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read working directory")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".topoplan-"))
        .collect()
}

/// Run `args` in a working directory prepared by `h` and assert the refusal contract: exit 1,
/// `needle` in the message, nothing on stdout, the working directory untouched.
fn refused_untouched(h: Hostile, args: &[&str], needle: &str) -> String {
    let root = h.path().to_path_buf();
    let before = snapshot_tree(&root);
    let r = h.args(args.iter().copied()).run();
    r.within(2.0, 512);
    let err = r.refused(needle).to_string();
    r.no_control_bytes();
    assert!(
        snapshot_tree(&root) == before,
        "the working directory changed"
    );
    err
}

#[test]
fn dash_o_is_the_format_and_writes_no_directory() {
    let r = qs().args(["plan", "-f", "qs", "-o", "json"]).run();
    r.within(2.0, 512);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("a JSON plan document");
    assert_eq!(doc["kind"], "Plan");
    assert!(
        !r.dir.path().join("json").exists(),
        "no directory named json"
    );
}

#[test]
fn diff_takes_dash_o_as_its_format() {
    let h = with_plan(Hostile::new(), &team_a(), "old");
    let r = with_plan(h, &team_a(), "new")
        .args(["diff", "old", "new", "-o", "json"])
        .run();
    r.within(2.0, 512);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("a JSON review");
    assert_eq!(doc["kind"], "Review");
}

#[test]
fn output_directory_alias_and_missing_parents() {
    let r = qs()
        .args(["plan", "-f", "qs", "--output-directory", "a/b/out"])
        .run();
    r.within(2.0, 512);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.dir.path().join("a/b/out/team-a/dev/created").is_dir());
    assert!(leftovers(&r.dir.path().join("a/b")).is_empty());
}

#[test]
fn refuses_the_current_directory() {
    let h = qs();
    refused_untouched(
        h,
        &["plan", "-f", "qs", "--output-dir", "."],
        "output directory . is the current directory",
    );
}

#[test]
fn refuses_an_ancestor_of_the_current_directory() {
    let h = qs();
    refused_untouched(
        h,
        &["plan", "-f", "qs", "--output-dir", ".."],
        "output directory .. is an ancestor of the current directory",
    );
}

#[test]
fn refuses_a_directory_holding_an_input() {
    let h = with_earlier_plan();
    refused_untouched(
        h,
        &[
            "plan",
            "-f",
            "qs",
            "-f",
            "out/default/dev/created",
            "--output-dir",
            "out",
        ],
        "output directory out holds the input out/default/dev/created",
    );
}

#[test]
fn refuses_a_directory_that_is_the_current_state() {
    let h = with_earlier_plan();
    refused_untouched(
        h,
        &[
            "plan",
            "-f",
            "qs",
            "--current",
            "out",
            "--output-dir",
            "out",
        ],
        "output directory out is also an input",
    );
}

#[test]
fn refuses_an_input_reached_through_a_link() {
    let h = with_earlier_plan().symlink("out/default/dev/created", "via-link");
    refused_untouched(
        h,
        &["plan", "-f", "qs", "-f", "via-link", "--output-dir", "out"],
        "output directory out holds the input via-link",
    );
}

#[test]
fn refuses_a_symbolic_link() {
    let h = with_earlier_plan().symlink("out", "link");
    refused_untouched(
        h,
        &["plan", "-f", "qs", "--output-dir", "link"],
        "output directory link is a symbolic link",
    );
}

#[test]
fn refuses_a_file() {
    let h = qs().file("out", "not a directory");
    refused_untouched(
        h,
        PLAN_QS,
        "output directory out exists and is not a directory",
    );
}

#[test]
fn refuses_a_mount_point() {
    // /proc is a mount point on every Linux system the tests run on.
    if !Path::new("/proc/self").exists() {
        return;
    }
    let h = qs();
    refused_untouched(
        h,
        &["plan", "-f", "qs", "--output-dir", "/proc"],
        "output directory /proc is a mount point",
    );
}

#[test]
fn refuses_a_file_the_user_added_naming_it() {
    let h = with_earlier_plan().file("out/default/dev/notes.txt", "my notes");
    let err = refused_untouched(
        h,
        PLAN_QS,
        "output directory out holds default/dev/notes.txt, which topoplan did not write",
    );
    assert!(
        err.contains("move out/default/dev/notes.txt elsewhere"),
        "{err}"
    );
}

#[test]
fn refuses_a_yaml_file_the_user_added_where_plans_go() {
    // Layout rules alone would take this for a planned object; the marker's listing does not.
    let h = with_earlier_plan().file("out/default/dev/created/Extra_default_x.yaml", "a: 1\n");
    refused_untouched(
        h,
        PLAN_QS,
        "holds default/dev/created/Extra_default_x.yaml, which topoplan did not write",
    );
}

#[test]
fn refuses_a_user_file_with_a_hostile_name_without_printing_it_raw() {
    let h = with_earlier_plan().file("out/\u{1b}[2J\u{7}.txt", "x");
    refused_untouched(h, PLAN_QS, "which topoplan did not write");
}

#[test]
fn refuses_a_link_planted_in_an_earlier_plan() {
    let h = with_earlier_plan().symlink("/", "out/default/dev/created/root");
    refused_untouched(
        h,
        PLAN_QS,
        "holds default/dev/created/root, which topoplan did not write",
    );
}

#[test]
fn refuses_a_plan_of_an_older_topoplan_that_listed_nothing() {
    let h = with_earlier_plan().file(
        "out/.topoplan-plan",
        "written by topoplan plan -o; safe to delete\n",
    );
    refused_untouched(h, PLAN_QS, "was written by an older topoplan");
}

#[test]
fn a_failing_plan_leaves_the_earlier_one() {
    let h = with_earlier_plan().file("bad.yaml", "kind: [unclosed\n");
    refused_untouched(
        h,
        &["plan", "-f", "bad.yaml", "--output-dir", "out"],
        "bad.yaml",
    );
}

#[test]
fn a_failed_rename_puts_the_earlier_plan_back() {
    let h = with_earlier_plan().env("TOPOPLAN_TEST_WRITE_HOOK", "fail-swap");
    let err = refused_untouched(h, PLAN_QS, "cannot replace out");
    assert!(
        err.contains("the previous plan was put back in place"),
        "{err}"
    );
}

#[test]
fn replacing_an_earlier_plan_leaves_nothing_behind() {
    let r = with_earlier_plan().args(PLAN_QS.iter().copied()).run();
    r.within(2.0, 512);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.dir.path().join("out/default").exists(),
        "the old plan is gone"
    );
    assert!(r.dir.path().join("out/team-a/dev/created").is_dir());
    assert_eq!(leftovers(r.dir.path()), Vec::<String>::new());
}

/// Start `plan -f qs --output-dir out` with the pause hook, wait until `ready` holds for the
/// working directory, send `signal`, and return the exit code.
fn signal_when(h: &Hostile, ready: impl Fn(&Path) -> bool, signal: libc::c_int) -> Option<i32> {
    let mut child = Command::new(bin())
        .current_dir(h.path())
        .args(PLAN_QS)
        .env("TOPOPLAN_TEST_WRITE_HOOK", "pause:400")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn topoplan");
    let start = Instant::now();
    while !ready(h.path()) {
        if start.elapsed() > Duration::from_secs(5) || child.try_wait().ok().flatten().is_some() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the window never came");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    child.wait().expect("wait").code()
}

/// While the new tree is being staged.
fn staging(dir: &Path) -> bool {
    leftovers(dir)
        .iter()
        .any(|n| n.contains("topoplan-staging"))
}

/// In the middle of the swap: the new plan (team-a's) is in `out`, or the old one
/// was renamed aside; the old one is not deleted yet.
fn swapping(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("out/.topoplan-plan")).is_ok_and(|m| m.contains("team-a/"))
        || leftovers(dir).iter().any(|n| n.contains("topoplan-old"))
}

/// The tree `plan -f qs --output-dir out` writes from scratch.
fn new_plan_tree() -> Vec<(PathBuf, Vec<u8>)> {
    let r = qs().args(PLAN_QS.iter().copied()).run();
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot_tree(&r.dir.path().join("out"))
}

#[test]
fn sigterm_while_staging_keeps_the_earlier_plan() {
    let h = with_earlier_plan();
    let before = snapshot_tree(&h.path().join("out"));
    let code = signal_when(&h, staging, libc::SIGTERM);
    assert_eq!(code, Some(130));
    assert!(
        snapshot_tree(&h.path().join("out")) == before,
        "the earlier plan is whole"
    );
    assert_eq!(leftovers(h.path()), Vec::<String>::new());
}

#[test]
fn sigterm_during_the_swap_completes_the_new_plan() {
    let h = with_earlier_plan();
    let code = signal_when(&h, swapping, libc::SIGTERM);
    assert_eq!(code, Some(130));
    assert!(
        snapshot_tree(&h.path().join("out")) == new_plan_tree(),
        "the new plan is whole"
    );
    assert_eq!(leftovers(h.path()), Vec::<String>::new());
}

#[test]
fn sigint_while_staging_keeps_the_earlier_plan() {
    let h = with_earlier_plan();
    let before = snapshot_tree(&h.path().join("out"));
    let code = signal_when(&h, staging, libc::SIGINT);
    assert_eq!(code, Some(130));
    assert!(
        snapshot_tree(&h.path().join("out")) == before,
        "the earlier plan is whole"
    );
    assert_eq!(leftovers(h.path()), Vec::<String>::new());
}

#[test]
fn links_planted_in_a_plan_read_as_current_are_not_followed() {
    // `--current DIR` reads an earlier plan; a link back into it (or a loop) must neither
    // duplicate its objects nor send the walk round in circles.
    let h = qs();
    plan_into_out(h.path(), "qs");
    let r = h
        .symlink("created", "out/team-a/dev/again")
        .symlink(".", "out/team-a/dev/loop")
        .args([
            "plan",
            "-f",
            "qs",
            "--current",
            "out",
            "--detailed-exitcode",
        ])
        .run();
    r.within(2.0, 512);
    assert!(!r.stderr.contains("duplicate object"), "{}", r.stderr);
    assert_eq!(r.code, 0, "re-planning a plan's result changes nothing");
}

#[cfg(target_os = "linux")]
#[test]
fn sigkill_during_the_swap_leaves_a_whole_plan_in_place() {
    // SIGKILL cannot be caught; the atomic exchange is what keeps DIR whole.
    let h = with_earlier_plan();
    let code = signal_when(&h, swapping, libc::SIGKILL);
    assert_eq!(code, None, "killed");
    assert!(
        snapshot_tree(&h.path().join("out")) == new_plan_tree(),
        "the new plan is whole"
    );
}

/// `plan -f . --output-dir out`, run twice: the second walk of `.` must not read the first run's
/// plan in `out/` as input (it would find every object twice).
#[test]
fn the_output_directory_is_not_read_back_as_input() {
    let h = with_plan(Hostile::new(), &team_a(), "in");
    let dir = h.path().to_path_buf();
    plan_into_out(&dir, ".");
    let planned = snapshot_tree(&dir.join("out"));
    let r = h.args(["plan", "-f", ".", "--output-dir", "out"]).run();
    r.within(2.0, 512);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(snapshot_tree(&r.dir.path().join("out")) == planned);
}
