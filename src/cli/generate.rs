//! `topoplan generate cluster`: flags, their resolution into [`GenerateOptions`], and printing
//! the YAML (or the variables) on stdout.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::input::{InputLimitArgs, variable_values};
use super::terminal::{Failure, write_stdout};
use crate::pipeline::generate::{GenerateOptions, Generated};

/// Arguments of `topoplan generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// What to generate.
    #[command(subcommand)]
    pub what: GenerateCommand,
}

/// What `generate` makes.
#[derive(Debug, Subcommand)]
pub enum GenerateCommand {
    /// Generate a workload cluster's YAML from an infrastructure provider's cluster template in
    /// a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`).
    Cluster(ClusterArgs),
}

/// Arguments of `topoplan generate cluster`.
#[derive(Debug, Args)]
pub struct ClusterArgs {
    /// The workload cluster's name (the CLUSTER_NAME variable).
    #[arg(value_name = "NAME")]
    pub name: String,

    /// The infrastructure provider to read the cluster template from, NAME[:VERSION] (e.g.
    /// docker:v1.12.0) [default: the one infrastructure provider of --provider-repo; its
    /// newest release].
    #[arg(short = 'i', long = "infrastructure", value_name = "NAME[:VERSION]")]
    pub infrastructure: Option<String>,

    /// The cluster template variant: cluster-template-FLAVOR.yaml [default:
    /// cluster-template.yaml].
    #[arg(long = "flavor", value_name = "FLAVOR")]
    pub flavor: Option<String>,

    /// The Kubernetes version (the KUBERNETES_VERSION variable) [default: the variable's value
    /// from the environment, --env-file or the clusterctl config file].
    #[arg(long = "kubernetes-version", value_name = "VERSION")]
    pub kubernetes_version: Option<String>,

    /// Control plane machines (CONTROL_PLANE_MACHINE_COUNT) [default: the variable's value, else 1].
    #[arg(
        long = "control-plane-machine-count",
        value_name = "N",
        allow_negative_numbers = true
    )]
    pub control_plane_machine_count: Option<i64>,

    /// Worker machines (WORKER_MACHINE_COUNT) [default: the variable's value, else 0].
    #[arg(
        long = "worker-machine-count",
        value_name = "N",
        allow_negative_numbers = true
    )]
    pub worker_machine_count: Option<i64>,

    /// The namespace of the workload cluster's objects (the NAMESPACE variable) [default:
    /// default].
    #[arg(short = 'n', long = "target-namespace", value_name = "NAMESPACE")]
    pub target_namespace: Option<String>,

    /// Print the variables the template uses (required, then optional with defaults) instead
    /// of the YAML.
    #[arg(long = "list-variables")]
    pub list_variables: bool,

    /// A clusterctl local repository, DIR/<provider-label>/<version>/ (e.g.
    /// DIR/infrastructure-docker/v1.12.0/cluster-template.yaml).
    #[arg(long = "provider-repo", value_name = "DIR")]
    pub provider_repo: Option<PathBuf>,

    /// clusterctl's configuration file: variables (below the environment and --env-file) and
    /// providers (file:// URLs name local repositories) [default:
    /// $XDG_CONFIG_HOME/cluster-api/clusterctl.yaml, else ~/.cluster-api/clusterctl.yaml, when
    /// one exists].
    #[arg(long = "config", value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// KEY=VALUE file of variables; the environment variables --env (or --env-all) lets through
    /// override it, it overrides the clusterctl config file.
    #[arg(long = "env-file", value_name = "FILE")]
    pub env_file: Option<PathBuf>,

    /// Which environment variables the template's variables may read.
    #[command(flatten)]
    pub environment: super::input::EnvArgs,

    /// Input size limit (templates, components, --env-file, the config file).
    #[command(flatten)]
    pub limits: InputLimitArgs,
}

/// Resolve the flags.
pub fn resolve(args: ClusterArgs) -> Result<GenerateOptions, Failure> {
    let limit = args.limits.limit();
    let (variables, config) = variable_values(
        args.env_file.as_deref(),
        args.config.as_deref(),
        &args.environment,
        &limit,
    )?;
    Ok(GenerateOptions {
        cluster_name: args.name,
        target_namespace: args.target_namespace,
        kubernetes_version: args.kubernetes_version,
        control_plane_machine_count: args.control_plane_machine_count,
        worker_machine_count: args.worker_machine_count,
        infrastructure: args.infrastructure,
        flavor: args.flavor,
        list_variables: args.list_variables,
        repository: args.provider_repo,
        config,
        environment: args.environment.environment(),
        variables,
        limit,
    })
}

/// Run `generate`.
pub fn run(args: GenerateArgs) -> Result<ExitCode, Failure> {
    match args.what {
        GenerateCommand::Cluster(c) => {
            let opts = resolve(c)?;
            match crate::pipeline::generate::cluster(opts)? {
                Generated::Yaml(text) | Generated::Variables(text) => write_stdout(&text)?,
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
