/*!
`generate cluster NAME`: a workload cluster's YAML from an infrastructure provider's cluster
template, as `clusterctl generate cluster` makes it from a provider repository.

The steps are clusterctl's `GetClusterTemplate`, `templateOptionsToVariables` and
`getTemplateFromRepository` (`cmd/clusterctl/client/config.go`) and `addClusterClassIfMissing`
(`cmd/clusterctl/client/clusterclass.go`):

1. the built-in variables, set above the environment and configuration: `NAMESPACE` (the target
   namespace, a DNS-1123 label), `CLUSTER_NAME` (NAME, a DNS-1123 subdomain),
   `KUBERNETES_VERSION` (only when the flag is given, a semantic version),
   `CONTROL_PLANE_MACHINE_COUNT` (the flag, else the variable, else 1; at least 1) and
   `WORKER_MACHINE_COUNT` (the flag, else the variable, else 0; at least 0);
2. the provider (`NAME[:VERSION]`) and its repository ([`super::locate`]);
3. `cluster-template[-FLAVOR].yaml` of that release, processed ([`super::template`]);
4. for each Cluster with a topology, its ClusterClass's `clusterclass-CLASS.yaml` of the same
   release, processed into the class's namespace, placed before the template's objects.

Offline, three things differ, each where clusterctl would ask a management cluster: without
`-n` the namespace is `default` (clusterctl takes the kubeconfig's current namespace); without a
version, the repository's (the URL's, else the newest release for Cluster API's current contract,
where clusterctl asks the cluster's inventory); and a class is fetched when the template does not
define it (clusterctl fetches those the cluster does not have).
*/

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

use super::config::ConfigFile;
use super::label::ProviderType;
use super::list_variables::{self, WellKnown};
use super::repository::{self, LocalRepository, wrap};
use super::template::{self, Template};
use super::{contract, locate};
use crate::diag::{Code, Diagnostic};
use crate::k8s::version::apimachinery::Version;
use crate::load::VariableValues;
use crate::load::limit::InputLimit;

/// `generate cluster`'s options, resolved from the command line.
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    /// NAME.
    pub cluster_name: String,
    /// `--target-namespace` / `-n`.
    pub target_namespace: Option<String>,
    /// `--kubernetes-version`.
    pub kubernetes_version: Option<String>,
    /// `--control-plane-machine-count`.
    pub control_plane_machine_count: Option<i64>,
    /// `--worker-machine-count`.
    pub worker_machine_count: Option<i64>,
    /// `--infrastructure NAME[:VERSION]`.
    pub infrastructure: Option<String>,
    /// `--flavor`.
    pub flavor: Option<String>,
    /// `--list-variables`.
    pub list_variables: bool,
    /// `--provider-repo`.
    pub repository: Option<PathBuf>,
    /// The clusterctl configuration, if any.
    pub config: Option<ConfigFile>,
    /// The environment (it expands the configuration's provider URLs).
    pub environment: BTreeMap<String, String>,
    /// The variables' values (environment, `--env-file`, configuration).
    pub variables: VariableValues,
    /// The run's byte budget.
    pub limit: InputLimit,
}

/// What `generate cluster` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Generated {
    /// The workload cluster's YAML.
    Yaml(String),
    /// The `--list-variables` listing.
    Variables(String),
}

/// The target namespace when `-n` is not given (clusterctl: the kubeconfig's current one).
pub const DEFAULT_NAMESPACE: &str = "default";

/// Generate the cluster (or list its template's variables).
pub fn cluster(mut opts: GenerateOptions) -> Result<Generated, Diagnostic> {
    let known = builtins(&mut opts)?;
    let (name, version) = provider_name(&opts)?;
    let repo = locate::locate(
        &name,
        ProviderType::Infrastructure,
        opts.repository.as_deref(),
        opts.config.as_ref(),
        &opts.environment,
    )?;
    let release = match version {
        Some(v) => v,
        None => repo
            .default_release(contract::CURRENT, &opts.limit)
            .map_err(|d| {
                wrap(
                    d,
                    &format!("failed to get the latest release of {}", repo.label),
                )
            })?,
    };
    let file_name = match &opts.flavor {
        Some(f) if !f.is_empty() => format!("cluster-template-{f}.yaml"),
        _ => "cluster-template.yaml".to_string(),
    };
    let file = repo
        .read(&release, &file_name, &opts.limit)
        .map_err(|d| template_missing(d, &repo, &release, &file_name))?;
    let namespace = known.namespace.clone();
    let main = template::process(
        &file,
        &opts.variables,
        &namespace,
        opts.list_variables,
        &opts.limit,
    )?;
    let classes = missing_classes(&main);
    let mut templates: Vec<Template> = Vec::new();
    for (class_namespace, class) in classes {
        let class_file = format!("clusterclass-{class}.yaml");
        let file = repo.read(&release, &class_file, &opts.limit).map_err(|d| {
            wrap(
                wrap(
                    d,
                    &format!(
                        "failed to read {class_file:?} from provider's repository {:?}",
                        repo.label
                    ),
                ),
                &format!(
                    "failed to get the cluster class template for \"{class_namespace}/{class}\""
                ),
            )
        })?;
        templates.push(template::process(
            &file,
            &opts.variables,
            &class_namespace,
            opts.list_variables,
            &opts.limit,
        )?);
    }
    // ClusterClasses first: the Cluster depends on them.
    templates.push(main);
    let merged = template::merge(templates);
    if opts.list_variables {
        return Ok(Generated::Variables(list_variables::render(
            &merged.variables,
            &known,
        )));
    }
    let docs: Vec<String> = merged
        .objects
        .iter()
        .map(|(v, _)| crate::load::yaml::to_yaml(v))
        .collect();
    Ok(Generated::Yaml(docs.join("---\n")))
}

/// Set the built-in variables (clusterctl's `templateOptionsToVariables`), returning what
/// `--list-variables` shows for them.
fn builtins(opts: &mut GenerateOptions) -> Result<WellKnown, Diagnostic> {
    let usage = |m: String| Diagnostic::error(Code::Usage, m);
    let namespace = opts
        .target_namespace
        .clone()
        .unwrap_or_else(|| DEFAULT_NAMESPACE.to_string());
    let errs = crate::k8s::validation::dns1123_label(&namespace);
    if !errs.is_empty() {
        return Err(usage(format!(
            "invalid target-namespace: {}",
            errs.join("; ")
        )));
    }
    opts.variables.set("NAMESPACE", namespace.clone());
    let errs = crate::k8s::validation::dns1123_subdomain(&opts.cluster_name);
    if !errs.is_empty() {
        return Err(usage(format!("invalid cluster name: {}", errs.join("; "))));
    }
    opts.variables
        .set("CLUSTER_NAME", opts.cluster_name.clone());
    if let Some(v) = &opts.kubernetes_version {
        if Version::parse(v).is_err() {
            return Err(usage(
                "invalid KubernetesVersion. Please use a semantic version number".into(),
            ));
        }
        opts.variables.set("KUBERNETES_VERSION", v.clone());
    }
    let count = |flag: Option<i64>, name: &str, default: i64, vars: &VariableValues| match flag {
        Some(n) => Ok(n),
        None => match vars.get(name) {
            None => Ok(default),
            Some(v) => crate::go::strconv::parse_int(&v, 10, 64)
                .map_err(|_| usage(format!("invalid value for {name} set"))),
        },
    };
    let control_plane = count(
        opts.control_plane_machine_count,
        "CONTROL_PLANE_MACHINE_COUNT",
        1,
        &opts.variables,
    )?;
    if control_plane < 1 {
        return Err(usage(
            "invalid ControlPlaneMachineCount. Please use a number greater than or equal to 1"
                .into(),
        ));
    }
    opts.variables
        .set("CONTROL_PLANE_MACHINE_COUNT", control_plane.to_string());
    let workers = count(
        opts.worker_machine_count,
        "WORKER_MACHINE_COUNT",
        0,
        &opts.variables,
    )?;
    if workers < 0 {
        return Err(usage(
            "invalid WorkerMachineCount. Please use a number greater than or equal to 0".into(),
        ));
    }
    opts.variables
        .set("WORKER_MACHINE_COUNT", workers.to_string());
    Ok(WellKnown {
        cluster_name: opts.cluster_name.clone(),
        namespace,
        control_plane_machine_count: control_plane.to_string(),
        worker_machine_count: workers.to_string(),
        kubernetes_version: opts.variables.get("KUBERNETES_VERSION"),
    })
}

/// The infrastructure provider's name and version: `--infrastructure NAME[:VERSION]`
/// (clusterctl's `parseProviderName`), or the one infrastructure provider of `--provider-repo`.
fn provider_name(opts: &GenerateOptions) -> Result<(String, Option<String>), Diagnostic> {
    let usage = |m: String| Diagnostic::error(Code::Usage, m);
    let Some(given) = &opts.infrastructure else {
        return only_infrastructure(opts).map(|n| (n, None));
    };
    let parts: Vec<&str> = given.split(':').collect();
    if parts.len() > 2 {
        return Err(usage(format!(
            "invalid provider name {given:?}. Provider name should be in the form name[:version]"
        )));
    }
    let name = parts.first().copied().unwrap_or("");
    if name.is_empty() {
        return Err(usage(format!(
            "invalid provider name {given:?}. Provider name should be in the form name[:version] and name cannot be empty"
        )));
    }
    let name = name.to_lowercase();
    let errs = crate::k8s::validation::dns1123_label(&name);
    if !errs.is_empty() {
        return Err(usage(format!(
            "invalid provider name {given:?}. Provider name should be in the form name[:version] and the name should be valid: {}",
            errs.join("; ")
        )));
    }
    match parts.get(1) {
        None => Ok((name, None)),
        Some(&"") => Err(usage(format!(
            "invalid provider name {given:?}. Provider name should be in the form name[:version] and version cannot be empty"
        ))),
        Some(v) => Ok((name, Some((*v).to_string()))),
    }
}

/// Without `--infrastructure`, the one infrastructure provider of `--provider-repo` (clusterctl
/// asks the management cluster for its default one).
fn only_infrastructure(opts: &GenerateOptions) -> Result<String, Diagnostic> {
    let failed = || {
        Diagnostic::error(
            Code::Usage,
            "failed to identify the default infrastructure provider. Please specify an infrastructure provider",
        )
    };
    let Some(dir) = &opts.repository else {
        return Err(
            failed().with_help("pass --infrastructure NAME[:VERSION] and --provider-repo DIR")
        );
    };
    let (found, _) = repository::providers(dir)?;
    let infra: Vec<&LocalRepository> = found
        .iter()
        .filter(|r| r.provider_type == ProviderType::Infrastructure)
        .collect();
    match infra.as_slice() {
        [one] => Ok(one.name.clone()),
        [] => Err(failed().with_help(format!(
            "{} has no infrastructure-NAME directory",
            dir.display()
        ))),
        many => Err(failed().with_help(format!(
            "{} holds several infrastructure providers ({}); choose one with --infrastructure",
            dir.display(),
            many.iter()
                .map(|r| r.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The (namespace, name) of every ClusterClass a Cluster of `t` uses that `t` does not define,
/// once each, in order of use (clusterctl's `clusterClassNamesFromTemplate`: a v1beta2
/// Cluster's `classRef`, a v1beta1 Cluster's `class`, in the class namespace or the Cluster's).
fn missing_classes(t: &Template) -> Vec<(String, String)> {
    let str_at = |v: &Value, p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let defined: BTreeSet<(String, String)> = t
        .objects
        .iter()
        .filter(|(v, _)| {
            str_at(v, "/kind") == "ClusterClass"
                && crate::load::object::group_of(&str_at(v, "/apiVersion")) == crate::api::GROUP
        })
        .map(|(v, _)| {
            (
                str_at(v, "/metadata/namespace"),
                str_at(v, "/metadata/name"),
            )
        })
        .collect();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (v, _) in &t.objects {
        let api_version = str_at(v, "/apiVersion");
        if str_at(v, "/kind") != "Cluster"
            || crate::load::object::group_of(&api_version) != crate::api::GROUP
        {
            continue;
        }
        let topology = match v.pointer("/spec/topology") {
            Some(Value::Object(m)) if !m.is_empty() || api_version.ends_with("/v1beta1") => m,
            _ => continue,
        };
        let cluster_namespace = str_at(v, "/metadata/namespace");
        let (name, namespace) = if api_version.ends_with("/v1beta1") {
            (
                topology.get("class").and_then(Value::as_str).unwrap_or(""),
                topology
                    .get("classNamespace")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            )
        } else {
            (
                v.pointer("/spec/topology/classRef/name")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
                v.pointer("/spec/topology/classRef/namespace")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            )
        };
        let namespace = if namespace.is_empty() {
            cluster_namespace
        } else {
            namespace.to_string()
        };
        let key = (namespace, name.to_string());
        if !defined.contains(&key) && seen.insert(key.clone()) {
            out.push(key);
        }
    }
    out
}

/// The error for a cluster template the release does not have, with the flavors it has.
fn template_missing(
    d: Diagnostic,
    repo: &LocalRepository,
    release: &str,
    file: &str,
) -> Diagnostic {
    let d = wrap(
        d,
        &format!(
            "failed to read {file:?} from provider's repository {:?}",
            repo.label
        ),
    );
    if d.code != Code::ProviderRepository {
        return d;
    }
    let mut flavors: Vec<String> = repo
        .files(release)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|f| {
            let rest = f.strip_prefix("cluster-template")?.strip_suffix(".yaml")?;
            Some(match rest.strip_prefix('-') {
                Some(flavor) => format!("--flavor {flavor}"),
                None if rest.is_empty() => "no --flavor".to_string(),
                None => return None,
            })
        })
        .collect();
    // The default template first.
    flavors.sort_by_key(|f| f != "no --flavor");
    if flavors.is_empty() {
        d.with_help(format!(
            "release {release} of {} has no cluster-template*.yaml; {}",
            repo.label,
            repository::repository_help()
        ))
    } else {
        d.with_help(format!(
            "release {release} of {} has: {}",
            repo.label,
            flavors.join(", ")
        ))
    }
}
