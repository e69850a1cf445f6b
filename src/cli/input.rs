//! The input flags every command that reads objects shares (`-f`, `-n`, `--substitute`,
//! `--env-file`, `--provider-repo`, `--config`, `--max-input-bytes`), and their resolution into
//! [`LoadOptions`] and [`ProviderOptions`].

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use crate::diag::{Code, Diagnostic};
use crate::load::limit::{InputLimit, ReadError, parse_size};
use crate::load::{LoadOptions, VariableValues, envfile};
use crate::provider::ProviderOptions;
use crate::provider::config::ConfigFile;
use crate::source::SourceFile;
use crate::topology::budget::GenerateLimits;

/// The byte budget of one run (`--max-input-bytes`), for every command that reads inputs.
#[derive(Debug, Clone, Args)]
pub struct InputLimitArgs {
    /// Most bytes read from all inputs together.
    ///
    /// Files, stdin, --current, --env-file, --ca-file, ...: plain bytes, or with a suffix Ki,
    /// Mi, Gi (powers of 1024) or k, M, G (powers of 1000).
    #[arg(long = "max-input-bytes", value_name = "BYTES", default_value = "256Mi", value_parser = parse_size)]
    pub max_input_bytes: u64,

    /// Bytes read so far, shared by every clone: one count per invocation.
    #[arg(skip)]
    pub read: InputLimit,
}

impl InputLimitArgs {
    /// The budget, with the cap from the flag; every call shares one count.
    pub fn limit(&self) -> InputLimit {
        self.read.with_max(self.max_input_bytes)
    }
}

/// The bounds of one run on what its inputs make it do (`plan`, `diff`, `validate`,
/// `extension check`): YAML nodes read, objects generated, CEL cost.
#[derive(Debug, Clone, Args)]
pub struct RunLimitArgs {
    /// Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together.
    #[arg(long = "max-yaml-nodes", value_name = "N", default_value_t = crate::load::yaml::DEFAULT_RUN_NODES)]
    pub max_yaml_nodes: u64,

    /// Most objects one Cluster's plan may generate.
    #[arg(long = "max-cluster-objects", value_name = "N", default_value_t = GenerateLimits::default().cluster_objects)]
    pub max_cluster_objects: u64,

    /// Most bytes (as compact JSON) of the objects one Cluster's plan may generate; suffixes as
    /// for --max-input-bytes.
    #[arg(long = "max-cluster-bytes", value_name = "BYTES", default_value = "32Mi", value_parser = parse_size)]
    pub max_cluster_bytes: u64,

    /// Most objects the plans of all Clusters of the run may generate together (diff: both
    /// sides).
    #[arg(long = "max-generated-objects", value_name = "N", default_value_t = GenerateLimits::default().run_objects)]
    pub max_generated_objects: u64,

    /// Most bytes of objects the plans of all Clusters of the run may generate together.
    #[arg(long = "max-generated-bytes", value_name = "BYTES", default_value = "2Gi", value_parser = parse_size)]
    pub max_generated_bytes: u64,

    /// Most CEL cost (Kubernetes' cost units) all validation rules of the run may spend
    /// together, beyond Kubernetes' limits per call and per object.
    #[arg(long = "max-cel-cost", value_name = "UNITS", default_value_t = crate::schema::cel::budget::DEFAULT_RUN_COST)]
    pub max_cel_cost: u64,
}

impl RunLimitArgs {
    /// Set the run-wide bounds of this process (YAML nodes, generated objects, CEL cost): one
    /// invocation is one run.
    pub fn limit_run(&self) {
        crate::load::yaml::limit_run_nodes(self.max_yaml_nodes);
        crate::topology::budget::limit_run(GenerateLimits {
            cluster_objects: self.max_cluster_objects,
            cluster_bytes: self.max_cluster_bytes,
            run_objects: self.max_generated_objects,
            run_bytes: self.max_generated_bytes,
        });
        crate::schema::cel::budget::limit_run(self.max_cel_cost);
    }
}

/// Where the objects come from and how they are read.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin.
    #[arg(short = 'f', long = "filename", value_name = "PATH", required = true)]
    pub files: Vec<PathBuf>,

    /// Namespace for objects that have none.
    ///
    /// [default: with --substitute the NAMESPACE variable if set, as clusterctl's target
    /// namespace; otherwise "default"]
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// Substitute clusterctl-style ${VAR} variables in the input before parsing.
    #[arg(long)]
    pub substitute: bool,

    /// KEY=VALUE file of variables for --substitute (and --provider-repo's components).
    ///
    /// The environment variables --env (or --env-all) lets through override it, it overrides
    /// the clusterctl config file.
    #[arg(long, value_name = "FILE")]
    pub env_file: Option<PathBuf>,

    /// Provider repository and clusterctl configuration.
    #[command(flatten)]
    pub providers: ProviderArgs,

    /// Input size limit.
    #[command(flatten, next_help_heading = "Limits")]
    pub limits: InputLimitArgs,
    /// Run bounds.
    #[command(flatten)]
    pub run: RunLimitArgs,
}

/// A clusterctl local repository and configuration file (`plan`, `diff`, `validate`).
#[derive(Debug, Clone, Default, Args)]
pub struct ProviderArgs {
    /// A clusterctl local repository, DIR/<provider-label>/<version>/.
    ///
    /// E.g. DIR/infrastructure-docker/v1.12.0/: the CustomResourceDefinitions of each
    /// provider's newest release compatible with the input's Cluster API version join the
    /// input.
    #[arg(long = "provider-repo", value_name = "DIR")]
    pub provider_repo: Option<PathBuf>,

    /// clusterctl's configuration file, whose variables feed substitution.
    ///
    /// Below the environment and --env-file [default:
    /// $XDG_CONFIG_HOME/cluster-api/clusterctl.yaml, else ~/.cluster-api/clusterctl.yaml, when
    /// one exists].
    #[arg(long = "config", value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Which environment variables substitution may read.
    #[command(flatten)]
    pub environment: EnvArgs,
}

/// Which environment variables `${VAR}` substitution reads (`--substitute`, a provider's
/// components, the clusterctl configuration's provider URLs). clusterctl reads the whole
/// environment; in CI that environment holds the job's secrets, and the text substituted may
/// come from the pull request (a provider repository or input in its tree), whose
/// `${CI_TOKEN:=x}` would then print the token. So only the variables named here are read, and
/// the whole environment only when asked for.
#[derive(Debug, Clone, Default, Args)]
pub struct EnvArgs {
    /// An environment variable substitution may read (--substitute, --provider-repo's
    /// components, the clusterctl config's provider URLs); repeatable. No other is read unless
    /// --env-all is given; --env-file and the clusterctl config file are always read.
    #[arg(long = "env", value_name = "NAME")]
    pub env: Vec<String>,

    /// Let substitution read the whole environment, as clusterctl does. For local use: in CI
    /// the environment holds secrets that a ${VAR} in a pull request's files would print.
    #[arg(long = "env-all")]
    pub env_all: bool,
}

impl EnvArgs {
    /// The part of this process's environment substitution may read.
    pub fn environment(&self) -> BTreeMap<String, String> {
        let mut all = crate::load::variable_values::process_environment();
        if !self.env_all {
            all.retain(|k, _| self.env.iter().any(|n| n == k));
        }
        all
    }
}

/// The values of clusterctl variables for a run: the environment (what `env` lets through) over
/// `env_file` over the clusterctl configuration (`config`, else the default file when there is one). Also returns
/// the configuration, for its providers.
pub fn variable_values(
    env_file: Option<&std::path::Path>,
    config: Option<&std::path::Path>,
    env: &EnvArgs,
    limit: &crate::load::limit::InputLimit,
) -> Result<(VariableValues, Option<ConfigFile>), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let environment = env.environment();
    let mut from_file = BTreeMap::new();
    if let Some(path) = env_file {
        match read_text(limit, path, "--env-file") {
            Ok(text) => match envfile::parse(&SourceFile::new(path.display().to_string(), text)) {
                Ok(v) => from_file = v,
                Err(e) => errors.push(e),
            },
            Err(e) => errors.push(e),
        }
    }
    // Where the configuration file is (HOME, XDG_CONFIG_HOME) is the user's own setting, not
    // something a file can print: located with the whole environment.
    let located = crate::load::variable_values::process_environment();
    let config = match ConfigFile::load(config, &located, limit) {
        Ok(c) => c,
        Err(e) => {
            errors.push(e);
            None
        }
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let from_config = config
        .as_ref()
        .map(|c| c.variables.clone())
        .unwrap_or_default();
    Ok((
        VariableValues::new(environment, from_file, from_config),
        config,
    ))
}

/// Reading the management cluster live, read-only (`plan`, `diff`, `validate`). A cluster is
/// contacted only when one of `--live`, `--kubeconfig`, `--context` is given: a `KUBECONFIG`
/// in the environment alone (a CI runner's) never starts a read.
#[derive(Debug, Clone, Default, Args)]
pub struct LiveArgs {
    /// Read what the plan needs of the management cluster from the live cluster of the
    /// kubeconfig's current context, read-only (get and list only).
    ///
    /// Instead of, or with, --current files (a file's copy of an object wins over the
    /// cluster's). --kubeconfig and --context imply it; a KUBECONFIG in the environment alone
    /// never does.
    #[arg(long = "live", help_heading = "Current state")]
    pub live: bool,

    /// The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else
    /// ~/.kube/config, as kubectl].
    #[arg(
        long = "kubeconfig",
        value_name = "PATH",
        help_heading = "Current state"
    )]
    pub kubeconfig: Option<PathBuf>,

    /// The kubeconfig context of the live read (implies --live) [default: its current
    /// context].
    #[arg(long = "context", value_name = "NAME", help_heading = "Current state")]
    pub context: Option<String>,

    /// How long one request of the live read may take, as kubectl's flag: 1s, 2m, 3h, or
    /// seconds; 0: no limit of its own.
    #[arg(
        long = "request-timeout",
        value_name = "DURATION",
        default_value = "30s",
        value_parser = parse_request_timeout,
        help_heading = "Current state"
    )]
    pub request_timeout: std::time::Duration,

    /// How long the whole live read may take (1s, 2m, 3h, or seconds).
    #[arg(
        long = "live-deadline",
        value_name = "DURATION",
        default_value = "5m",
        value_parser = parse_request_timeout,
        help_heading = "Current state"
    )]
    pub deadline: std::time::Duration,

    /// Write what the live read read into DIR, as files --current DIR reads back (a CI job
    /// then plans without credentials; a bug report carries the state).
    ///
    /// DIR is replaced whole, and only if it is missing, empty or written by topoplan.
    #[arg(
        long = "save-current",
        value_name = "DIR",
        help_heading = "Current state"
    )]
    pub save_current: Option<PathBuf>,
}

/// A duration as kubectl's `--request-timeout` takes it: Go's syntax (`1m30s`), or a number
/// of seconds.
pub fn parse_request_timeout(s: &str) -> Result<std::time::Duration, String> {
    if let Ok(secs) = s.parse::<u64>() {
        return Ok(std::time::Duration::from_secs(secs));
    }
    let nanos = crate::go::time::parse_duration(s)?;
    u64::try_from(nanos)
        .map(std::time::Duration::from_nanos)
        .map_err(|_| format!("invalid duration {s:?}: it may not be negative"))
}

impl LiveArgs {
    /// The live read asked for, if any.
    pub fn request(&self) -> Result<Option<crate::load::LiveRequest>, Diagnostic> {
        let asked = self.live || self.kubeconfig.is_some() || self.context.is_some();
        if !asked {
            if self.save_current.is_some() {
                return Err(Diagnostic::error(
                    Code::Usage,
                    "--save-current writes what a live read read, and no live read was asked for",
                )
                .with_help("add --live (or --kubeconfig / --context) to read the cluster"));
            }
            return Ok(None);
        }
        if self.deadline.is_zero() {
            return Err(Diagnostic::error(
                Code::Usage,
                "--live-deadline must be longer than 0s",
            ));
        }
        Ok(Some(crate::load::LiveRequest {
            kubeconfig: self.kubeconfig.clone(),
            context: self.context.clone(),
            request_timeout: (!self.request_timeout.is_zero()).then_some(self.request_timeout),
            deadline: self.deadline,
            save: self.save_current.clone(),
        }))
    }
}

/// How `--current` is read, by `plan` and `validate` alike: the stored objects as they are (no
/// `${VAR}` substitution), with the input's default namespace, byte budget and per-file kinds,
/// and the live cluster when `live` asks for it; `None` without either. Both reading stdin (`-f -` and `--current -`) is refused: the second
/// read would find it empty and the stored objects silently missing.
pub fn current_load(
    load: &LoadOptions,
    paths: &[PathBuf],
    live: &LiveArgs,
) -> Result<Option<LoadOptions>, Diagnostic> {
    let live = live.request()?;
    let stdin = |p: &[PathBuf]| p.iter().any(|p| p.as_os_str() == "-");
    if stdin(&load.paths) && stdin(paths) {
        return Err(Diagnostic::error(
            Code::Usage,
            "-f - and --current - both read stdin, which can be read only once",
        )
        .with_help("write one of them to a file and name it instead"));
    }
    Ok((!paths.is_empty() || live.is_some()).then(|| LoadOptions {
        live,
        paths: paths.to_vec(),
        default_namespace: load.default_namespace.clone(),
        substitute: None,
        input_limit: load.input_limit.clone(),
        per_file: load.per_file.clone(),
        // The management cluster's objects are read for reference, and a run reports few of
        // them: their span tables are built only when a diagnostic asks for a location.
        spans_on_demand: true,
        ..Default::default()
    }))
}

impl InputArgs {
    /// Resolve into load options for the `-f` list, and the provider repository's options.
    pub fn resolve(&self) -> Result<(LoadOptions, Option<ProviderOptions>), Vec<Diagnostic>> {
        let values = self.values()?;
        let load = self.resolve_with(self.files.clone(), values.as_ref())?;
        let providers = self
            .providers
            .provider_repo
            .clone()
            .map(|repository| ProviderOptions {
                repository,
                variables: values.unwrap_or_default(),
                limit: self.limits.limit(),
            });
        Ok((load, providers))
    }

    /// Resolve with the same namespace and substitution settings but other paths.
    pub fn resolve_paths(&self, paths: Vec<PathBuf>) -> Result<LoadOptions, Vec<Diagnostic>> {
        let values = self.values()?;
        self.resolve_with(paths, values.as_ref())
    }

    /// The variables' values, when anything needs them: `--substitute`, the components of
    /// `--provider-repo`, or a `--config` given (whose errors are then told).
    pub fn values(&self) -> Result<Option<VariableValues>, Vec<Diagnostic>> {
        if self.env_file.is_some() && !self.substitute && self.providers.provider_repo.is_none() {
            return Err(vec![
                Diagnostic::error(
                    Code::Usage,
                    "--env-file gives variables to --substitute (or to --provider-repo's components), and neither was given",
                )
                .with_help("add --substitute to replace ${VAR} in the input"),
            ]);
        }
        if !self.substitute
            && self.providers.provider_repo.is_none()
            && self.providers.config.is_none()
        {
            return Ok(None);
        }
        let (values, _) = variable_values(
            self.env_file.as_deref(),
            self.providers.config.as_deref(),
            &self.providers.environment,
            &self.limits.limit(),
        )?;
        Ok(Some(values))
    }

    /// Load options for `paths` with `values` (when substituting).
    fn resolve_with(
        &self,
        paths: Vec<PathBuf>,
        values: Option<&VariableValues>,
    ) -> Result<LoadOptions, Vec<Diagnostic>> {
        let limit = self.limits.limit();
        let substitute = if self.substitute {
            values.cloned()
        } else {
            None
        };
        let default_namespace = self
            .namespace
            .clone()
            .or_else(|| {
                substitute
                    .as_ref()
                    .and_then(|v| v.get("NAMESPACE"))
                    .filter(|n| !n.is_empty())
            })
            .unwrap_or_else(|| "default".to_string());
        // Every object without a namespace gets this one: refuse it as the API server would.
        let ns_errors = crate::k8s::validation::dns1123_label(&default_namespace);
        if !ns_errors.is_empty() {
            let path = crate::k8s::field::Path::new("metadata").child("namespace");
            let errs: Vec<_> = ns_errors
                .into_iter()
                .map(|m| {
                    crate::k8s::field::FieldError::invalid(&path, default_namespace.as_str(), m)
                })
                .collect();
            return Err(vec![
                Diagnostic::error(
                    Code::Usage,
                    format!(
                        "invalid namespace for objects without one: {}",
                        crate::k8s::field::aggregate(&errs)
                    ),
                )
                .with_help(
                    "-n (or NAMESPACE with --substitute) must be a namespace name, e.g. default",
                ),
            ]);
        }
        Ok(LoadOptions {
            paths,
            namespace_from_flag: self.namespace.is_some(),
            default_namespace,
            substitute,
            input_limit: limit,
            per_file: crate::plan::flavors(),
            warn_unsubstituted: !self.substitute,
            ..LoadOptions::default()
        })
    }
}

/// Read the file a flag names (`--env-file`, `eval --vars`) as text, within the budget.
pub fn read_text(
    limit: &InputLimit,
    path: &std::path::Path,
    flag: &str,
) -> Result<String, Diagnostic> {
    let shown = format!("{flag} {}", path.display());
    let bytes = limit.read_path(path, &shown).map_err(|e| match e {
        ReadError::Io(e) => Diagnostic::error(Code::InputRead, format!("cannot read {shown}: {e}")),
        ReadError::TooLarge(d) => d,
    })?;
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::error(
            Code::InputRead,
            format!(
                "cannot read {shown}: not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Flags that shape admission (shared by `plan` and `validate`).
#[derive(Debug, Args)]
pub struct AdmissionArgs {
    /// Cluster API feature gates, as its controller takes them.
    ///
    /// E.g. MachineTaintPropagation=true. topoplan assumes ClusterTopology and RuntimeSDK on
    /// and every other gate at Cluster API's default.
    #[arg(long = "feature-gates", value_name = "NAME=BOOL,...")]
    pub feature_gates: Option<String>,

    /// CustomResourceDefinitions of provider kinds (files, directories); repeatable.
    ///
    /// Other objects there are ignored. Templates are pruned and defaulted by them as the API
    /// server would, and
    /// every generated object is validated against them. CRDs in -f and --current count too;
    /// Cluster API's own are built in. Only documents that may define a kind the run meets are
    /// parsed (others, even malformed, are passed over). Repeatable.
    #[arg(long = "crds", value_name = "PATH")]
    pub crds: Vec<PathBuf>,
}

impl AdmissionArgs {
    /// Where to read `--crds` from: read like the input (`base`'s limits), never substituted.
    pub fn crds(&self, base: &LoadOptions) -> Option<LoadOptions> {
        (!self.crds.is_empty()).then(|| LoadOptions {
            paths: self.crds.clone(),
            default_namespace: base.default_namespace.clone(),
            substitute: None,
            input_limit: base.input_limit.clone(),
            spans_on_demand: true,
            ..Default::default()
        })
    }

    /// The gates to use.
    pub fn gates(&self) -> Result<crate::validate::Gates, Diagnostic> {
        let gates = crate::validate::Gates::default();
        match &self.feature_gates {
            None => Ok(gates),
            Some(spec) => gates.with_flags(spec).map_err(|e| {
                Diagnostic::error(Code::Usage, format!("--feature-gates: {e}")).with_help(
                    "known gates: ClusterTopology, RuntimeSDK, MachineTaintPropagation (and Cluster API's others, which admission does not read)",
                )
            }),
        }
    }
}

/// Runtime extensions (`plan`).
#[derive(Debug, Args, Default)]
pub struct ExtensionArgs {
    /// A Runtime extension serving external patches; repeatable.
    ///
    /// NAME is the ExtensionConfig name the
    /// ClusterClass refers to (generate-patches.NAME), URL its http:// or https:// base URL;
    /// repeatable. Overrides the URL of an ExtensionConfig of that name in the input.
    #[arg(long = "extension", value_name = "NAME=URL")]
    pub extensions: Vec<String>,

    /// Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g.
    /// https://127.0.0.1:8443/); repeatable.
    ///
    /// Without it, only the extensions --extension names are called: an ExtensionConfig may
    /// come from a pull request and name any address.
    #[arg(long = "allow-extension-url", value_name = "PREFIX")]
    pub allow_extension_urls: Vec<String>,

    /// PEM file of the CA(s) that signed the extensions' serving certificates.
    ///
    /// (Instead of the
    /// system roots; an ExtensionConfig's caBundle still wins for its extension).
    #[arg(long = "ca-file", value_name = "PATH")]
    pub ca_file: Option<std::path::PathBuf>,

    /// Do not verify the extensions' TLS certificates.
    #[arg(long = "insecure-skip-tls-verify")]
    pub insecure_skip_tls_verify: bool,

    /// The largest response body read from an extension, in bytes.
    ///
    /// A larger one fails the call [default: 67108864 (64 MiB)].
    #[arg(
        long = "max-extension-response-bytes",
        value_name = "N",
        help_heading = "Limits"
    )]
    pub max_extension_response_bytes: Option<u64>,

    /// Record every call to the extensions and its answer into DIR.
    ///
    /// Write every call made to the extensions (Discovery, DiscoverVariables,
    /// GeneratePatches, ValidateTopology) and its answer into DIR: one file per call, named by
    /// a hash of the request, and an index.json. Files of an earlier recording there are
    /// replaced; other files are left alone.
    #[arg(
        long = "record-extensions",
        value_name = "DIR",
        conflicts_with = "replay_extensions"
    )]
    pub record_extensions: Option<std::path::PathBuf>,

    /// Answer every call to the extensions from a recording in DIR.
    ///
    /// Answer every call to the extensions from a recording made with --record-extensions,
    /// with no network (--extension is not needed). A request the recording does not hold is
    /// an error: the recording is stale.
    #[arg(long = "replay-extensions", value_name = "DIR")]
    pub replay_extensions: Option<std::path::PathBuf>,

    /// Write each call to the extensions as a YAML file in DIR, and summarise it on stderr.
    ///
    /// Write each call to the extensions as a YAML file in DIR (request, response, HTTP
    /// status, duration) and print a one-line summary of each on stderr.
    #[arg(long = "trace-extensions", value_name = "DIR")]
    pub trace_extensions: Option<std::path::PathBuf>,

    /// Redact the extension setting KEY in traces and recordings; repeatable.
    ///
    /// Replace the value of the extension setting KEY by REDACTED in traces and recordings
    /// (a recording replays with the same keys redacted); repeatable.
    #[arg(long = "redact-setting", value_name = "KEY")]
    pub redact_settings: Vec<String>,

    /// Print a one-line summary of each call to the extensions on stderr.
    ///
    /// Print a one-line summary of each call to the extensions on stderr (hook, handler,
    /// Cluster, status, duration).
    #[arg(short = 'v', long = "verbose")]
    pub verbose: bool,
}

/// `path` absolute, with `.` and `..` resolved as far as the file system says (the longest
/// existing ancestor canonical, the rest lexically), to compare paths that may not exist yet.
fn resolved(path: &std::path::Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut base = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(c) = std::fs::canonicalize(base) {
            let mut out = c;
            for part in rest.iter().rev() {
                match part {
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    std::path::Component::CurDir => {}
                    other => out.push(other),
                }
            }
            return out;
        }
        match (base.parent(), base.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                base = parent;
            }
            _ => return absolute,
        }
    }
}

/// The error when the directory a recording goes to and `--output-dir` are one, or one holds
/// the other: replacing the plan's directory would delete the recording, and the recording's
/// files would make the plan's directory one topoplan refuses to replace. Checked before
/// either is written.
pub fn record_into_output_dir(
    record: Option<&std::path::Path>,
    output_dir: Option<&std::path::Path>,
) -> Option<Diagnostic> {
    let (record, out) = (record?, output_dir?);
    let (r, o) = (resolved(record), resolved(out));
    (r.starts_with(&o) || o.starts_with(&r)).then(|| {
        Diagnostic::error(
            Code::Usage,
            format!(
                "--record-extensions {} and --output-dir {} overlap: writing the plan's directory would replace the recording",
                record.display(),
                out.display()
            ),
        )
        .with_help("record into a directory of its own, outside --output-dir")
    })
}

impl ExtensionArgs {
    /// The directories of recorded and traced calls: never read as input, even inside `-f`.
    pub fn dirs(&self) -> Vec<PathBuf> {
        [
            &self.record_extensions,
            &self.replay_extensions,
            &self.trace_extensions,
        ]
        .into_iter()
        .flatten()
        .cloned()
        .collect()
    }

    /// The extension options (flags only; ExtensionConfig objects of the input are added by
    /// the plan), or every problem with the flags. `--ca-file` draws on `limit`.
    pub fn resolve(
        &self,
        limit: &InputLimit,
    ) -> Result<crate::runtime::ExtensionOptions, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut opts = crate::runtime::ExtensionOptions {
            insecure_skip_tls_verify: self.insecure_skip_tls_verify,
            max_response_bytes: self
                .max_extension_response_bytes
                .unwrap_or(crate::runtime::client::DEFAULT_MAX_RESPONSE_BYTES),
            ..Default::default()
        };
        for e in &self.extensions {
            match crate::runtime::parse_extension_flag(e) {
                Ok(src) => {
                    if opts.extensions.iter().any(|x| x.name == src.name) {
                        errors.push(Diagnostic::error(
                            Code::Usage,
                            format!(
                                "--extension {e:?}: the extension {:?} is given twice",
                                src.name
                            ),
                        ));
                    } else {
                        opts.extensions.push(src);
                    }
                }
                Err(msg) => errors.push(
                    Diagnostic::error(Code::Usage, msg)
                        .with_help("for example --extension my-extension=https://127.0.0.1:8443"),
                ),
            }
        }
        for prefix in &self.allow_extension_urls {
            // A prefix without its host would allow any address ("https://").
            let host = prefix
                .strip_prefix("https://")
                .or_else(|| prefix.strip_prefix("http://"));
            if host.is_none_or(str::is_empty) {
                errors.push(
                    Diagnostic::error(
                        Code::Usage,
                        format!(
                            "--allow-extension-url {prefix:?}: expected the start of an http:// or https:// URL, with its host"
                        ),
                    )
                    .with_help("for example --allow-extension-url https://127.0.0.1:8443/"),
                );
            } else {
                opts.allowed_urls.push(prefix.clone());
            }
        }
        if let Some(path) = &self.ca_file {
            if self.insecure_skip_tls_verify {
                errors.push(Diagnostic::error(
                    Code::Usage,
                    "--ca-file and --insecure-skip-tls-verify cannot be used together",
                ));
            }
            let shown = format!("--ca-file {}", path.display());
            match limit.read_path(path, &shown) {
                Ok(pem) => match crate::runtime::tls::parse_ca_bundle(&pem) {
                    Ok(_) => opts.ca_pem = Some(pem),
                    Err(e) => errors.push(
                        Diagnostic::error(
                            Code::Usage,
                            format!("--ca-file {}: {e}", path.display()),
                        )
                        .with_help("expected one or more PEM CERTIFICATE blocks"),
                    ),
                },
                Err(ReadError::TooLarge(d)) => errors.push(d),
                Err(ReadError::Io(e)) => {
                    errors.push(Diagnostic::error(Code::InputRead, format!("{shown}: {e}")))
                }
            }
        }
        let wire = crate::runtime::WireOptions {
            record: self.record_extensions.clone(),
            replay: self.replay_extensions.clone(),
            trace: self.trace_extensions.clone(),
            summaries: (self.verbose || self.trace_extensions.is_some())
                && !super::terminal::quiet(),
            redact: self.redact_settings.iter().cloned().collect(),
        };
        if errors.is_empty() && wire != crate::runtime::WireOptions::default() {
            match crate::runtime::Wire::open(&wire, opts.max_response_bytes) {
                Ok(w) => opts.wire = crate::runtime::WireHandle(Some(std::sync::Arc::new(w))),
                Err(e) => errors.push(Diagnostic::error(
                    e.recording_code().unwrap_or(Code::Usage),
                    e.to_string(),
                )),
            }
        }
        if errors.is_empty() {
            Ok(opts)
        } else {
            Err(errors)
        }
    }
}
