//! completions/ and man/ are generated from the clap definition and checked in. This test fails
//! when they are stale; `TOPOPLAN_BLESS=1 cargo test --test generated` rewrites them.

use std::path::PathBuf;

use clap::CommandFactory;
use topoplan::cli::{Cli, generated};

fn check(path: PathBuf, expected: &str, stale: &mut Vec<String>) {
    if std::env::var_os("TOPOPLAN_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create dir");
        std::fs::write(&path, expected).expect("write generated file");
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(actual) if actual == expected => {}
        _ => stale.push(path.display().to_string()),
    }
}

#[test]
fn completions_and_man_pages_are_current() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    for (shell, file) in generated::SHELLS {
        check(
            root.join("completions").join(file),
            &generated::completion(*shell, Cli::command()),
            &mut stale,
        );
    }
    let pages = generated::man_pages(Cli::command());
    assert!(
        pages.len() >= 2,
        "a page for topoplan and one per subcommand"
    );
    for (file, text) in pages {
        assert!(text.contains(".TH"), "{file} is not a man page");
        check(root.join("man").join(file), &text, &mut stale);
    }
    assert!(
        stale.is_empty(),
        "generated files are stale: {stale:?}\nrun: TOPOPLAN_BLESS=1 cargo test --test generated"
    );
}

/// The table of diagnostic codes (docs/reference/codes.md) is generated from `Code::ALL`.
#[test]
fn the_codes_page_lists_every_diagnostic_code() {
    const BEGIN: &str = "<!-- codes:begin -->\n";
    const END: &str = "<!-- codes:end -->";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/reference/codes.md");
    let readme = std::fs::read_to_string(&path).expect("docs/reference/codes.md");
    let (Some(b), Some(e)) = (readme.find(BEGIN), readme.find(END)) else {
        panic!("docs/reference/codes.md has no {BEGIN:?} … {END:?} markers");
    };
    let table = topoplan::diag::markdown_table();
    let current = &readme[b + BEGIN.len()..e];
    if std::env::var_os("TOPOPLAN_BLESS").is_some() {
        let updated = format!("{}{table}{}", &readme[..b + BEGIN.len()], &readme[e..]);
        std::fs::write(&path, updated).expect("write docs/reference/codes.md");
        return;
    }
    assert_eq!(
        current, table,
        "docs/reference/codes.md's table of diagnostic codes is stale\nrun: TOPOPLAN_BLESS=1 cargo test --test generated"
    );
    for code in topoplan::diag::Code::ALL {
        assert!(readme.contains(code.name()), "{code} missing");
    }
}
