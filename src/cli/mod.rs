/*!
The command line: clap definitions, one file per subcommand, and the dispatch that turns typed
arguments into resolved options for the library.

Code past this module never sees raw flags (ripgrep's low/high args split): `plan` receives a
[`crate::plan::PlanOptions`], output choices travel as [`plan::OutputOptions`].
Completions and man pages are generated from these same definitions ([`generated`]).
*/

pub mod completions;
pub mod diff;
pub mod eval;
pub mod extension;
pub mod generate;
pub mod generated;
pub mod input;
pub mod interrupt;
pub mod plan;
pub mod schema;
pub mod terminal;
pub mod validate;
pub mod version;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

pub use terminal::{
    ColorChoice, DiagnosticsFormat, Failure, actions, external_diff, held_stdout, progress, quiet,
    report, stderr_color, stdout_color, stdout_failure, write_stdout, write_stdout_with,
};

/// topoplan: plan Cluster API managed topologies offline.
#[derive(Debug, Parser)]
#[command(
    name = "topoplan",
    version,
    long_version = version::long_version(),
    about = "Plan Cluster API managed topologies (ClusterClass) offline",
    long_about = "topoplan computes, without a management cluster, every object Cluster API's topology \
controller would create for Clusters that use a ClusterClass, and shows it as a plan.",
    propagate_version = true
)]
pub struct Cli {
    /// How diagnostics are printed on stderr.
    ///
    /// text (miette), github (GitHub Actions workflow commands, so they appear on the pull
    /// request's lines) or json (one object per line). Default: text, plus github when
    /// GITHUB_ACTIONS=true.
    #[arg(long = "diagnostics-format", value_enum, global = true)]
    pub diagnostics_format: Option<DiagnosticsFormat>,

    /// When to colour output.
    ///
    /// auto (a terminal, and no NO_COLOR), always or never.
    #[arg(long = "color", value_enum, global = true, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Print only errors on stderr: no warnings, no progress bar.
    #[arg(short = 'q', long = "quiet", global = true)]
    pub quiet: bool,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Plan every topology Cluster in the input: what would be created, modified or deleted.
    #[command(after_help = plan::EXAMPLES)]
    Plan(plan::PlanArgs),
    /// Review a change: plan every Cluster with the OLD inputs, then with the NEW ones against
    /// the state the old ones produce; report per Cluster what changes and what rolls out.
    Diff(diff::DiffArgs),
    /// Run Cluster API's admission rules (defaulting and validation) on ClusterClasses and Clusters.
    Validate(validate::ValidateArgs),
    /// Render a template as Cluster API renders valueFrom.template (or replay oracle cases).
    Eval(eval::EvalArgs),
    /// Runtime extensions: check one against the topology-mutation guidelines.
    Extension(extension::ExtensionCommand),
    /// Generate objects from a clusterctl provider repository (generate cluster NAME).
    Generate(generate::GenerateArgs),
    /// Print a shell completion script.
    Completions(completions::CompletionsArgs),
    /// Print the JSON Schema of a document topoplan prints (plan, review, validation).
    Schema(schema::SchemaArgs),
    /// Print topoplan's version and the Cluster API releases and API versions it emulates.
    Version(version::VersionArgs),
}

/// Run the command line; returns the process exit code.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(1),
            };
        }
    };
    terminal::configure(cli.color, cli.quiet, cli.diagnostics_format);
    // One invocation is one run: cap the work and output of all its template executions
    // together. `eval --jsonl` replays independent oracle cases, each its own run.
    if !matches!(&cli.command, Command::Eval(a) if a.jsonl) {
        crate::gotemplate::cost::limit_run(run_limits());
        if let Some(limits) = input_limits(&cli.command) {
            limits.limit_run();
        }
    }
    let result = match cli.command {
        Command::Plan(args) => plan::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Extension(args) => extension::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Completions(args) => completions::run(&args, Cli::command()),
        Command::Schema(args) => schema::run(&args),
        Command::Version(args) => version::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(Failure::Diagnostics(diags)) => {
            report(&diags);
            ExitCode::from(1)
        }
        Err(Failure::Interrupted(d)) => {
            report(&[d]);
            ExitCode::from(interrupt::EXIT_CODE)
        }
    }
}

/// The run bounds of a command that plans or admits its inputs.
fn input_limits(command: &Command) -> Option<&input::RunLimitArgs> {
    match command {
        Command::Plan(a) => Some(&a.input.run),
        Command::Diff(a) => Some(&a.run),
        Command::Validate(a) => Some(&a.input.run),
        Command::Extension(a) => match &a.command {
            extension::ExtensionSubcommand::Check(c) => Some(&c.input.run),
        },
        _ => None,
    }
}

/// The run-wide template limits. Three environment variables lower them, and exist only so
/// tests can reach the limits with small, fast inputs (they are not documented to users):
/// `TOPOPLAN_TEST_MAX_RENDERED_BYTES` (the output cap), `TOPOPLAN_TEST_TEMPLATE_BUDGET` (the
/// units of work of one execution) and `TOPOPLAN_TEST_RUN_BUDGET` (of all executions). None
/// can raise a limit.
fn run_limits() -> crate::gotemplate::cost::RunLimits {
    let lowered = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .map_or(default, |n| n.min(default))
    };
    let limits = crate::gotemplate::cost::RunLimits::default();
    crate::gotemplate::cost::RunLimits {
        rendered_bytes: lowered("TOPOPLAN_TEST_MAX_RENDERED_BYTES", limits.rendered_bytes),
        execution: lowered("TOPOPLAN_TEST_TEMPLATE_BUDGET", limits.execution),
        work: lowered("TOPOPLAN_TEST_RUN_BUDGET", limits.work),
    }
}
