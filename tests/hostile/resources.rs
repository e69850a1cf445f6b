//! Hostile inputs: resources. Inputs small on disk that would make a run take minutes or
//! gigabytes: each must be refused (or finish) within seconds and well under 1 GiB.

#[allow(unused_imports)]
use crate::harness::*;

// ---------------------------------------------------------------------------------------------
// envsubst (`--substitute`)

/// 100,000 `${BIG}` of a 100 KB value is 10 GB of text: refused at the expression where the
/// substituted text passes the input cap, before any of it is built.
#[test]
fn envsubst_expansion_is_capped() {
    let template = format!("a: \"{}\"\n", "${BIG}".repeat(100_000));
    let r = Hostile::new()
        .file("big.env", format!("BIG={}\n", "x".repeat(100_000)))
        .file("t.yaml", template)
        .args([
            "plan",
            "--substitute",
            "--env-file",
            "big.env",
            "-f",
            "t.yaml",
        ])
        .run();
    r.within(2.0, 300);
    let err =
        r.refused("cannot substitute variables: the substituted text would exceed 268435456 bytes");
    // 2,684 values of 100,000 bytes fit; the next one, at column 5 + 2,684 × 6, does not.
    assert!(err.contains("t.yaml:1:16109"), "{}", head(err));
}

/// 20,000 unset variables on one line: each located occurrence used to render the whole line.
#[test]
fn envsubst_many_unset_variables_on_one_line() {
    let line: String = (0..20_000).map(|i| format!("${{V{i}}}")).collect();
    let r = Hostile::new()
        .file("t.yaml", format!("a: \"{line}\"\n"))
        .args(["plan", "--substitute", "-f", "t.yaml"])
        .run();
    r.within(2.0, 300);
    let err = r.refused("value for variables [V0, V1, V10, V100, V1000, V10000,");
    assert!(
        err.contains(", … and 19900 more] is not set"),
        "{}",
        head(err)
    );
    assert!(
        err.contains("… and 19900 more uses of unset variables (only the first 100 are shown)")
    );
}

/// 40,000 unset variables, one per line: the report used to take over a minute.
#[test]
fn envsubst_many_unset_variables_on_many_lines() {
    let text: String = (0..40_000).map(|i| format!("a{i}: ${{V{i}}}\n")).collect();
    let r = Hostile::new()
        .file("t.yaml", text)
        .args(["plan", "--substitute", "-f", "t.yaml"])
        .run();
    r.within(2.0, 300);
    let err = r.refused("… and 39900 more uses of unset variables");
    assert!(err.contains("t.yaml:100:6"), "{}", head(err));
    assert!(
        !err.contains("t.yaml:101:"),
        "only 100 occurrences are located"
    );
}
