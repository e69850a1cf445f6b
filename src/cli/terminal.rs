/*!
What the subcommands share about the terminal: how this run prints (`--color`, `--quiet`, the
diagnostics formats, GitHub Actions), stdout (written whole, or held while a result streams),
the failure every command returns, and how diagnostics are reported on stderr. Set once by the
dispatch ([`super::run`]) before anything is printed.
*/

use std::io::Write;

use crate::diag::{Code, Diagnostic};

/// Set this run's look and diagnostics formats (once, before anything is printed).
pub(super) fn configure(color: ColorChoice, quiet: bool, diagnostics: Option<DiagnosticsFormat>) {
    if let Some(f) = diagnostics {
        let _ = DIAGNOSTICS.set(vec![f]);
    }
    let _ = LOOK.set((color, quiet));
}

/// When output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always (for CI logs that render ANSI colours).
    Always,
    /// Never.
    Never,
}

/// This run's `--color` and `--quiet` (set once, before anything is printed).
static LOOK: std::sync::OnceLock<(ColorChoice, bool)> = std::sync::OnceLock::new();

fn look() -> (ColorChoice, bool) {
    *LOOK.get_or_init(|| (ColorChoice::Auto, false))
}

/// Whether this run is `--quiet`.
pub fn quiet() -> bool {
    look().1
}

/// How many Clusters a run plans before a progress bar is worth drawing.
const PROGRESS_FROM: u64 = 20;

/// The progress bar of a run that plans Clusters: drawn on a terminal once there are more than
/// a handful, never with `--quiet`.
pub fn progress(label: &str) -> crate::output::progress::Progress {
    if quiet() {
        crate::output::progress::Progress::hidden()
    } else {
        crate::output::progress::Progress::from_total(PROGRESS_FROM, label)
    }
}

/// How diagnostics are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiagnosticsFormat {
    /// miette's rendering: file:line:col, a snippet, help.
    Text,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`).
    Github,
    /// One JSON object per diagnostic and line.
    Json,
}

/// The formats diagnostics are printed in this run (set once, from the flag and the
/// environment, before anything is reported).
static DIAGNOSTICS: std::sync::OnceLock<Vec<DiagnosticsFormat>> = std::sync::OnceLock::new();

fn diagnostics_formats() -> &'static [DiagnosticsFormat] {
    DIAGNOSTICS.get_or_init(|| {
        let mut f = vec![DiagnosticsFormat::Text];
        if actions() {
            f.push(DiagnosticsFormat::Github);
        }
        f
    })
}

/// Whether the run is a GitHub Actions step (`GITHUB_ACTIONS=true`): its runner reads workflow
/// commands in every line printed, so input-derived lines are neutralised
/// ([`crate::output::actions`]), whatever `--diagnostics-format` says.
pub fn actions() -> bool {
    static ACTIONS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ACTIONS.get_or_init(|| std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"))
}

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// Diagnostics to print on stderr.
    Diagnostics(Vec<Diagnostic>),
    /// stdout was closed (e.g. `| head`): not an error.
    BrokenPipe,
    /// SIGINT/SIGTERM stopped the run after cleaning up (exit 130); the diagnostic says what
    /// was left.
    Interrupted(Diagnostic),
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(d: Vec<Diagnostic>) -> Self {
        Failure::Diagnostics(d)
    }
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Self {
        Failure::Diagnostics(vec![d])
    }
}

/// Write `text` to stdout; a closed pipe is reported as [`Failure::BrokenPipe`].
pub fn write_stdout(text: &str) -> Result<(), Failure> {
    write_stdout_with(|w| w.write_all(text.as_bytes()))
}

/// Let `f` write to a buffered stdout; a closed pipe is reported as [`Failure::BrokenPipe`].
pub fn write_stdout_with(
    f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::with_capacity(
        1 << 16,
        crate::output::actions::Neutral::new(std::io::stdout().lock(), actions()),
    );
    match f(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Failure::BrokenPipe),
        Err(e) => Err(Diagnostic::error(
            Code::OutputWrite,
            format!("cannot write to standard output: {e}"),
        )
        .into()),
    }
}

/// stdout for a streamed result: buffered, and holding its first bytes back (see
/// [`crate::output::stream::Held`]). Test-only: `TOPOPLAN_TEST_HOLD_BYTES` lowers how much is
/// held, so the tests can reach the point where output flows with a small plan; it cannot raise
/// it.
pub fn held_stdout(
    stdout: &std::io::Stdout,
) -> crate::output::stream::Held<
    std::io::BufWriter<crate::output::actions::Neutral<std::io::StdoutLock<'_>>>,
> {
    let hold = crate::output::stream::HOLD_BYTES;
    let hold = std::env::var("TOPOPLAN_TEST_HOLD_BYTES")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(hold, |n| n.min(hold));
    crate::output::stream::Held::new(
        std::io::BufWriter::with_capacity(
            1 << 16,
            crate::output::actions::Neutral::new(stdout.lock(), actions()),
        ),
        hold,
    )
}

/// A failed write to stdout: a closed pipe (`| head`) is not an error.
pub fn stdout_failure(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        Diagnostic::error(
            Code::OutputWrite,
            format!("cannot write to standard output: {e}"),
        )
        .into()
    }
}

/// Whether stderr gets colours: a terminal and no `NO_COLOR`.
pub fn stderr_color() -> bool {
    use std::io::IsTerminal;
    colored(std::io::stderr().is_terminal())
}

/// `--color` applied to a stream that is (or is not) a terminal.
fn colored(terminal: bool) -> bool {
    match look().0 {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// The program `KUBECTL_EXTERNAL_DIFF` names, when it should show this run's diffs: the
/// human table on a terminal, as kubectl honours it (a pipe or a file gets topoplan's own
/// unified diffs, so CI logs do not depend on a variable set for people). Tests stand in for a
/// terminal with `TOPOPLAN_TEST_STDOUT_TERMINAL`.
pub fn external_diff(table: bool) -> Option<crate::output::external_diff::Command> {
    use std::io::IsTerminal;
    let terminal = std::io::stdout().is_terminal()
        || std::env::var_os("TOPOPLAN_TEST_STDOUT_TERMINAL").is_some();
    if !table || !terminal {
        return None;
    }
    let value = std::env::var(crate::output::external_diff::VARIABLE).ok()?;
    crate::output::external_diff::Command::parse(&value)
}

/// Whether stdout gets colours.
pub fn stdout_color() -> bool {
    use std::io::IsTerminal;
    colored(std::io::stdout().is_terminal())
}

/// Print diagnostics on stderr in this run's formats (miette's text by default).
pub fn report(diags: &[Diagnostic]) {
    // The same finding reached by two paths (both sides of a diff reading one file, a check
    // run before and inside a stage) is reported once.
    let mut seen = std::collections::HashSet::new();
    let quieted: Vec<Diagnostic> = diags
        .iter()
        .filter(|d| !quiet() || d.is_error())
        .filter(|d| {
            seen.insert((
                d.is_error(),
                d.code,
                d.message.clone(),
                d.position(),
                d.help.clone(),
            ))
        })
        .cloned()
        .collect();
    let diags = &quieted[..];
    if diags.is_empty() {
        return;
    }
    let mut err = std::io::stderr().lock();
    // The machine formats are bounded as the text is: hostile input can raise any number.
    let max = crate::diag::MAX_DIAGNOSTICS;
    let mut shown: Vec<Diagnostic> = diags.iter().take(max).cloned().collect();
    if diags.len() > max {
        let rest = &diags[max..];
        let errors = rest.iter().filter(|d| d.is_error()).count();
        shown.push(Diagnostic::warning(
            Code::OutputMore,
            format!(
                "… and {} more not shown ({errors} errors, {} warnings)",
                rest.len(),
                rest.len() - errors
            ),
        ));
    }
    for f in diagnostics_formats() {
        let text = match f {
            DiagnosticsFormat::Text => {
                let text = crate::diag::render_all(diags, stderr_color());
                if actions() {
                    crate::output::actions::neutralise(&text).into_owned()
                } else {
                    text
                }
            }
            DiagnosticsFormat::Github => {
                machine_lines(diags, &shown, crate::output::annotations::workflow_command)
            }
            DiagnosticsFormat::Json => {
                machine_lines(diags, &shown, crate::output::annotations::json_line)
            }
        };
        let _ = err.write_all(text.as_bytes());
    }
}

/// One line per diagnostic, stopping (as the text format does) once the report passes
/// [`crate::diag::MAX_RENDERED_BYTES`]; the last line counts what was left out. `shown` is
/// the first of `all`, with a count of the others at its end when there are more.
fn machine_lines(
    all: &[Diagnostic],
    shown: &[Diagnostic],
    line: fn(&Diagnostic) -> String,
) -> String {
    let mut out = String::new();
    for (i, d) in shown.iter().enumerate() {
        if out.len() >= crate::diag::MAX_RENDERED_BYTES && i < all.len() {
            let rest = &all[i..];
            let errors = rest.iter().filter(|d| d.is_error()).count();
            out.push_str(&line(&Diagnostic::warning(
                Code::OutputMore,
                format!(
                    "… and {} more not shown ({errors} errors, {} warnings)",
                    rest.len(),
                    rest.len() - errors
                ),
            )));
            break;
        }
        out.push_str(&line(d));
    }
    out
}
