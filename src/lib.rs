/*!
topoplan: an offline planner for Cluster API managed topologies.

The library is the whole program; `main.rs` only parses arguments and maps the result to an
exit code. The modules, bottom up, in the order the pipeline reads (a module imports only those
listed before it; `tests/architecture.rs` checks it, ARCHITECTURE.md explains it):

Shared below every stage:
- [`escape`]: what of an input's text may reach a terminal raw;
- [`go`]: Go standard-library behaviour fidelity needs (strconv, json, base64, regexp, time,
  unicode, path, url, ip);
- [`json`]: accessors on JSON values (a `metadata` field, setting a nested path);
- [`source`]: source files, spans and where a JSON pointer stands in its file;
- [`diag`]: diagnostics (what failed, where, what was expected), rendered by miette;
- [`k8s`]: apimachinery's field errors and string checks (names, labels, annotations).

The pipeline:
- [`load`]: files, directories, git trees and stdin → objects with spans (YAML 1.1, envsubst);
- [`api`]: typed ClusterClass and Cluster (v1beta1 and v1beta2 in, one internal model);
- [`provider`]: clusterctl's provider contract: local repositories, release metadata and
  contracts, components' CRDs, the clusterctl configuration file, `generate cluster`;
- [`gotemplate`]: Go text/template and hermetic Sprig, as Cluster API renders templates;
- [`schema`]: structural OpenAPI schemas: validation, defaulting, pruning, CEL;
- [`crd`]: CustomResourceDefinitions, and objects pruned, defaulted and validated against them
  as the API server does;
- [`runtime`]: the Runtime SDK client (GeneratePatches, ValidateTopology, DiscoverVariables);
- [`topology`]: blueprint (class + templates), names and each object's desired state;
- [`variables`]: variable definitions, Cluster values with defaults, builtin variables;
- [`lint`]: what Cluster API accepts in a class's patches but would not do as written;
- [`validate`]: Cluster API's admission for ClusterClass and Cluster, defaulting in place;
- [`patches`]: the patch engine and its generators (inline, external);
- [`plan`]: per Cluster, the comparison with the current state: verdicts, rollouts, upgrades;
- [`output`]: table, plan document, review, output directory, streamed as Clusters complete;
- [`extension_check`]: `extension check`: a Runtime extension judged against the
  topology-mutation guidelines with the requests a plan sends;
- [`live`]: the management cluster read live and read-only (`--live`, `--kubeconfig`,
  `--context`), what the plan needs of it, and `--save-current`;
- [`pipeline`]: the driver: one entry per command, the stages in order, Clusters streamed;
- [`cli`]: the command line, resolved into the options the pipeline takes.

[`fuzzing`] holds the fuzz targets' entry points (test support, above everything).
*/

// Diagnostics are the error path of every stage and carry spans, help and related entries;
// boxing them to shrink `Result` would buy nothing measurable and cost readability.
#![allow(clippy::result_large_err)]

// In stage order, each alone (so formatting keeps the order).
pub mod escape;

pub mod go;

pub mod json;

pub mod source;

pub mod diag;

pub mod k8s;

pub mod load;

pub mod api;

pub mod provider;

pub mod gotemplate;

pub mod schema;

pub mod crd;

pub mod runtime;

pub mod topology;

pub mod variables;

pub mod lint;

pub mod validate;

pub mod patches;

pub mod plan;

pub mod output;

pub mod extension_check;

pub mod live;

pub mod pipeline;

pub mod cli;

#[doc(hidden)]
pub mod fuzzing;
