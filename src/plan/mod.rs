/*!
Plan: the compare stage, and what the per-Cluster driver ([`crate::pipeline::cluster`]) reads.

Owns what a Cluster's plan is made of and how it is reached from admitted objects:
recognising ClusterClasses and Clusters and resolving blueprints once per class ([`fleet`]),
what the change affects and what the store lends ([`affected`], [`scope`], [`stored`]), the
current objects found for a Cluster ([`current`]), the upgrade stage ([`upgrade`]), the check
of generated objects against their CRDs ([`generated`]), and the compare: each generated object
judged created / modified / unchanged / deleted against its stored form ([`verdict`],
[`ssa`]), with what rolls out ([`rollout`]) and why ([`why`]). Without current state every
generated object is `created`; the Cluster itself is `modified` when the topology changes its
labels or references ([`cluster_plan::classify`]). The order of the stages is the driver's;
rendering the plan belongs to `output`.
*/

use std::collections::BTreeMap;

use crate::api;
use crate::load::LoadOptions;

pub mod affected;
pub mod cluster_plan;
pub mod current;
pub mod extensions;
pub mod fleet;
pub mod generated;
pub mod object;
pub mod review;
pub mod rollout;
pub mod scope;
pub mod ssa;
pub mod stored;
pub mod totals;
pub mod unread;
pub mod upgrade;
pub mod verdict;
pub mod why;

/// Resolved options for `topoplan plan`.
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// How to read the input.
    pub load: LoadOptions,
    /// Only these Clusters (namespace, name; an empty namespace: the one Cluster of that name,
    /// whichever its namespace); empty means all.
    pub clusters: Vec<(String, String)>,
    /// Feature gates for admission.
    pub gates: crate::validate::Gates,
    /// Runtime extensions from the command line (resolved, not yet contacted).
    pub extensions: crate::runtime::ExtensionOptions,
    /// Where to read the current objects (`--current`); `None` plans every Cluster as new.
    pub current: Option<LoadOptions>,
    /// Where to read CustomResourceDefinitions apart from the input (`--crds`).
    pub crds: Option<LoadOptions>,
    /// `--provider-repo`: its providers' CRDs join the input (on both sides of a diff).
    pub providers: Option<crate::provider::ProviderOptions>,
    /// `--all-current`: plan every stored Cluster, not only those the change affects.
    pub all_current: bool,
}

pub use cluster_plan::ClusterPlan;
pub use object::{Action, PlannedObject};
pub use totals::Totals;

/// Kinds whose objects may be defined once per input file rather than once per input: a
/// Cluster defined in several files is a set of alternative flavors (clusterctl's
/// `cluster-template*.yaml`), each planned side by side. As (group, kind), for the loader.
pub fn flavors() -> Vec<(String, String)> {
    vec![(api::GROUP.to_string(), "Cluster".to_string())]
}

/// What planning needs from admission and the Runtime extensions.
#[derive(Debug, Clone, Copy)]
pub struct Extensions<'a> {
    /// The connected extensions, when the input has external patches.
    pub registry: Option<&'a crate::runtime::Registry>,
    /// Each admitted ClusterClass's `status.variables`.
    pub status: &'a BTreeMap<(String, String), crate::variables::definitions::StatusVariables>,
    /// The CRDs generated objects are checked against.
    pub crds: &'a crate::crd::Crds,
    /// Where the patch engine keeps the requests it sends (`extension check`); `None` in a plan.
    pub capture: Option<&'a crate::patches::capture::Capture>,
    /// The `RuntimeSDK` feature gate: without it a GenerateUpgradePlan extension cannot be used.
    pub runtime_sdk: bool,
}

/// What exists: the `--current` objects, indexed, and the list semantics their comparison uses.
#[derive(Debug, Clone, Copy)]
pub struct State<'a> {
    /// The current objects; `None` when every Cluster is new.
    pub index: Option<&'a current::Index<'a>>,
    /// List semantics (built in, plus supplied CRDs).
    pub lists: &'a ssa::ListTypes,
    /// The current objects are owned by `capi-topology` alone: topoplan's own computation,
    /// owned by `capi-topology` on every path it sets (so no managedFields are needed to know
    /// what it would remove).
    pub sole_owner: bool,
}
