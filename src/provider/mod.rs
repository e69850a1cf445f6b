/*!
clusterctl's provider contract, offline: local provider repositories, their releases' metadata
and components, clusterctl's configuration file, and `generate cluster`.

Owns everything between a repository on disk and objects: which release of a provider a run
reads ([`repository`], [`version`]), whether the input may use it ([`contract`],
[`metadata`]), the CRDs its components install ([`components`], [`namespace`]), where a provider
named on the command line lives ([`locate`], [`config`]), and the templates `generate cluster`
renders ([`template`], [`generate`]). Reading and substitution primitives come from
[`crate::load`]; nothing here plans, admits or prints.

The entry point for `plan`, `diff` and `validate` is [`crds_for`]: the CRDs of every provider of
`--provider-repo`, which join the input so that every stage that reads CRDs (list types for
server-side apply, the control plane's contract, schemas) sees them.
*/

pub mod components;
pub mod config;
pub mod contract;
pub mod generate;
pub mod label;
pub mod list_variables;
pub mod locate;
pub mod metadata;
pub mod namespace;
pub mod repository;
pub mod template;

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::diag::{Code, Diagnostic};
use crate::load::limit::InputLimit;
use crate::load::{Object, VariableValues};
use contract::InputContract;
use repository::wrap;

/// The provider repository of a `plan`, `diff` or `validate` run, resolved from the command line.
#[derive(Debug, Clone)]
pub struct ProviderOptions {
    /// `--provider-repo DIR`.
    pub repository: PathBuf,
    /// Values for the components' variables (the environment, `--env-file`, the clusterctl
    /// configuration), as clusterctl substitutes them.
    pub variables: VariableValues,
    /// The run's byte budget.
    pub limit: InputLimit,
}

/// What the repository adds to an input.
#[derive(Debug, Default)]
pub struct ProviderCrds {
    /// CRDs the input does not already hold, providers in label order, each in file order.
    pub objects: Vec<Object>,
    /// Directories skipped, CRDs without a usable contract label.
    pub warnings: Vec<Diagnostic>,
}

/// The CRDs of every provider in the repository, each at the newest release compatible with
/// `input`'s Cluster API contract (the release clusterctl's `latestContractRelease` would take for
/// that contract), refused when that release implements an incompatible contract. A CRD the
/// input already holds (by name) is left to the input's.
pub fn crds_for(opts: &ProviderOptions, input: &[Object]) -> Result<ProviderCrds, Vec<Diagnostic>> {
    let contract = InputContract::of(input);
    let (repos, mut warnings) = repository::providers(&opts.repository).map_err(|d| vec![d])?;
    let mut seen: BTreeSet<String> = input
        .iter()
        .filter(|o| o.kind == "CustomResourceDefinition" && o.group() == "apiextensions.k8s.io")
        .map(|o| o.name.clone())
        .collect();
    let mut objects = Vec::new();
    let mut errors = Vec::new();
    for repo in &repos {
        match release_crds(repo, opts, &contract) {
            Ok(crds) => {
                warnings.extend(crds.warnings);
                objects.extend(crds.objects.into_iter().filter(|o| {
                    o.kind != "CustomResourceDefinition" || seen.insert(o.name.clone())
                }));
            }
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        Ok(ProviderCrds { objects, warnings })
    } else {
        errors.extend(warnings);
        Err(errors)
    }
}

/// The CRDs of the release of `repo` the input's contract selects.
fn release_crds(
    repo: &repository::LocalRepository,
    opts: &ProviderOptions,
    contract: &InputContract<'_>,
) -> Result<components::Crds, Diagnostic> {
    let release = repo
        .default_release(contract.contract, &opts.limit)
        .map_err(|d| {
            wrap(
                d,
                &format!("failed to get the latest release of {}", repo.label),
            )
        })?;
    let meta = repo.metadata(&release, &opts.limit)?;
    let parsed = crate::k8s::version::apimachinery::Version::parse(&release).map_err(|e| {
        Diagnostic::error(
            Code::ProviderMetadata,
            format!(
                "failed to parse current version for the {} provider: {e}",
                repo.label
            ),
        )
    })?;
    let series = meta.series_for_version(&parsed).ok_or_else(|| {
        Diagnostic::error(
            Code::ProviderMetadata,
            meta.no_series(&release, &repo.label),
        )
    })?;
    contract.check(&series.contract, &repo.label, &release)?;
    components::crds(repo, &release, &opts.variables, contract, &opts.limit)
}
