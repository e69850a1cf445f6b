//! Completion scripts and man pages, generated from the clap definition. They are checked in
//! under `completions/` and `man/`; `tests/generated.rs` fails when they are stale and rewrites
//! them when run with `TOPOPLAN_BLESS=1`.

use clap::CommandFactory;
use clap_complete::Shell;

use super::Cli;

/// Shells we ship completions for, with their file names.
pub const SHELLS: &[(Shell, &str)] = &[
    (Shell::Bash, "topoplan.bash"),
    (Shell::Zsh, "_topoplan"),
    (Shell::Fish, "topoplan.fish"),
    (Shell::Elvish, "topoplan.elv"),
    (Shell::PowerShell, "_topoplan.ps1"),
];

/// The completion script for `shell`.
pub fn completion(shell: Shell) -> String {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "topoplan", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Man pages: (file name, roff text) for `topoplan` and each subcommand, nested ones included
/// (`topoplan-generate-cluster.1`).
pub fn man_pages() -> Vec<(String, String)> {
    let cmd = Cli::command();
    let mut pages = vec![("topoplan.1".to_string(), render_man(cmd.clone()))];
    sub_pages(&cmd, "topoplan", &mut pages);
    pages
}

/// The pages of `cmd`'s subcommands, named after `prefix`.
fn sub_pages(cmd: &clap::Command, prefix: &str, pages: &mut Vec<(String, String)>) {
    for sub in cmd.get_subcommands() {
        let name = format!("{prefix}-{}", sub.get_name());
        pages.push((
            format!("{name}.1"),
            render_man(sub.clone().name(name.clone())),
        ));
        sub_pages(sub, &name, pages);
    }
}

fn render_man(cmd: clap::Command) -> String {
    let mut buf = Vec::new();
    // Rendering into a Vec cannot fail; an empty page would be caught by the staleness test.
    let _ = clap_mangen::Man::new(cmd).render(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}
