//! Completion scripts and man pages, generated from the clap definition. They are checked in
//! under `completions/` and `man/`; `tests/generated.rs` fails when they are stale and rewrites
//! them when run with `TOPOPLAN_BLESS=1`.

use clap_complete::Shell;

/// Shells we ship completions for, with their file names.
pub const SHELLS: &[(Shell, &str)] = &[
    (Shell::Bash, "topoplan.bash"),
    (Shell::Zsh, "_topoplan"),
    (Shell::Fish, "topoplan.fish"),
    (Shell::Elvish, "topoplan.elv"),
    (Shell::PowerShell, "_topoplan.ps1"),
];

/// The completion script for `shell`, of the command line `cli` (`Cli::command()`).
pub fn completion(shell: Shell, cli: clap::Command) -> String {
    let mut cmd = cli;
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "topoplan", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Man pages: (file name, roff text) for `topoplan` and each subcommand, nested ones included
/// (`topoplan-generate-cluster.1`).
/// `cli` is the command line's definition (`Cli::command()`).
pub fn man_pages(cli: clap::Command) -> Vec<(String, String)> {
    let cmd = cli;
    let mut pages = vec![("topoplan.1".to_string(), render_man(cmd.clone()))];
    sub_pages(&cmd, "topoplan", "topoplan", &mut pages);
    pages
}

/// The pages of `cmd`'s subcommands, named after `prefix` (`topoplan-extension`) and typed
/// after `typed` (`topoplan extension`).
fn sub_pages(cmd: &clap::Command, prefix: &str, typed: &str, pages: &mut Vec<(String, String)>) {
    for sub in cmd.get_subcommands() {
        let name = format!("{prefix}-{}", sub.get_name());
        // The page is topoplan-plan(1); what one types, in SYNOPSIS, is `topoplan plan`.
        let command = format!("{typed} {}", sub.get_name());
        let page = sub
            .clone()
            .display_name(name.clone())
            .bin_name(command.clone());
        pages.push((format!("{name}.1"), render_man(page)));
        sub_pages(sub, &name, &command, pages);
    }
}

/// The page: clap_mangen's sections, then EXAMPLES (the command's `after_help`) and EXIT
/// STATUS, which it has no notion of.
fn render_man(cmd: clap::Command) -> String {
    let examples = cmd.get_after_help().map(|h| h.to_string());
    let typed = cmd
        .get_bin_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_string();
    let man = clap_mangen::Man::new(cmd.clone());
    let mut buf = Vec::new();
    // Rendering into a Vec cannot fail; an empty page would be caught by the staleness test.
    let _ = man.render_title(&mut buf);
    let _ = man.render_name_section(&mut buf);
    let _ = man.render_synopsis_section(&mut buf);
    let _ = man.render_description_section(&mut buf);
    if cmd.get_arguments().next().is_some() {
        let _ = man.render_options_section(&mut buf);
    }
    if cmd.has_subcommands() {
        let _ = man.render_subcommands_section(&mut buf);
    }
    let mut page = String::from_utf8_lossy(&buf).into_owned();
    if let Some(text) = examples {
        page.push_str(".SH EXAMPLES\n");
        for line in text.lines().skip_while(|l| l.trim_end().ends_with(':')) {
            page.push_str(".nf\n");
            page.push_str(&roff_line(line));
            page.push_str("\n.fi\n");
        }
    }
    page.push_str(".SH \"EXIT STATUS\"\n");
    for (code, meaning) in exit_status(&typed) {
        page.push_str(&format!(".TP\n{code}\n{}\n", roff_line(meaning)));
    }
    if cmd.get_version().is_some() || cmd.get_long_version().is_some() {
        let mut buf = Vec::new();
        let _ = man.render_version_section(&mut buf);
        page.push_str(&String::from_utf8_lossy(&buf));
    }
    page
}

/// `line` as roff text: backslashes and dashes escaped, no control character at its start.
fn roff_line(line: &str) -> String {
    let text = line.replace('\\', "\\e").replace('-', "\\-");
    if text.starts_with('.') || text.starts_with('\'') {
        format!("\\&{text}")
    } else {
        text
    }
}

/// What each exit status of the command `typed` (`topoplan plan`) means.
fn exit_status(typed: &str) -> Vec<(&'static str, &'static str)> {
    let interrupted = (
        "130",
        "Interrupted (SIGINT or SIGTERM) while writing --output-dir; the directory is left as it was.",
    );
    match typed {
        "topoplan plan" | "topoplan diff" => {
            let mut codes = vec![
                (
                    "0",
                    "Success (with --detailed-exitcode: and nothing changes).",
                ),
                (
                    "1",
                    "An error (its diagnostics are on stderr), or a warning with --fail-on-warn.",
                ),
                ("2", "With --detailed-exitcode: the plan changes something."),
            ];
            if typed == "topoplan plan" {
                codes.push(interrupted);
            }
            codes
        }
        "topoplan validate" => vec![
            ("0", "Every object is valid."),
            (
                "1",
                "An error (its diagnostics are on stderr), or a warning with --fail-on-warn.",
            ),
        ],
        "topoplan extension check" => vec![
            ("0", "Every check passed."),
            (
                "1",
                "A check failed, or the extension could not be reached.",
            ),
        ],
        _ => vec![
            ("0", "Success."),
            ("1", "An error (its diagnostics are on stderr)."),
        ],
    }
}
