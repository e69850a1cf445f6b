/*!
topoplan: an offline planner for Cluster API managed topologies.

The library is the whole program; `main.rs` only parses arguments and maps the result to an
exit code. Modules follow the pipeline in reading order:

- [`load`]: files, directories and stdin → objects with source spans (YAML 1.1, envsubst);
- [`api`]: typed ClusterClass and Cluster (v1beta1 and v1beta2 in, one internal model);
- [`topology`]: blueprint (class + templates), names and the desired state of every object;
- [`schema`]: variable schemas: structural checks, validation, defaulting, CEL, field errors;
- [`variables`]: variable definitions, values, defaulting and builtins;
- [`validate`]: Cluster API's admission rules for ClusterClass and Cluster;
- [`plan`]: the per-cluster plan (created / modified / unchanged / deleted);
- [`runtime`]: the Runtime SDK client for external patch and validation extensions;
- [`output`]: table, files and the JSON/YAML plan document;
- [`cli`]: the command line, resolved into options the library takes;
- [`diag`]: diagnostics, rendered by miette.

Shared below them: [`k8s`] (apimachinery's string checks: label keys and values, DNS names,
label and annotation maps), [`go`] (Go standard-library behaviour several stages need) and
[`escape`] (what of an input's text may reach a terminal raw).
*/

// Diagnostics are the error path of every stage and carry spans, help and related entries;
// boxing them to shrink `Result` would buy nothing measurable and cost readability.
#![allow(clippy::result_large_err)]

pub mod api;
pub mod cli;
pub mod diag;
pub mod escape;
#[doc(hidden)]
pub mod fuzzing;
pub mod go;
pub mod gotemplate;
pub mod json;
pub mod k8s;
pub mod load;
pub mod output;
pub mod patches;
pub mod pipeline;
pub mod plan;
pub mod runtime;
pub mod schema;
pub mod source;
pub mod topology;
pub mod validate;
pub mod variables;
