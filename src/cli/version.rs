//! `topoplan version` (and `--version`): the tool's version and what it emulates.

use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::terminal::{Failure, write_stdout};

/// The Cluster API behaviour topoplan reproduces: (release, API version of the objects it
/// reads in that release's shape, the commit its built-in CRDs come from and the bundled
/// examples were checked against). A test keeps them equal to `data/crds/cluster-api.json`'s.
pub const CLUSTER_API: &[(&str, &str, Option<&str>)] = &[
    (
        "main",
        "cluster.x-k8s.io/v1beta2",
        Some("ae7ff047db499ac3858ade268ba38db8c9f128bb"),
    ),
    // v1.10.10: the release its built-in CRDs come from (data/crds/cluster-api.json).
    (
        "v1.10",
        "cluster.x-k8s.io/v1beta1",
        Some("5757c1c5ddd28861d933277f10fda3aa98538883"),
    ),
];

/// The Runtime SDK API version of the hooks topoplan calls.
pub const RUNTIME_SDK: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";

/// Arguments of `topoplan version`.
#[derive(Debug, Args)]
pub struct VersionArgs {
    /// What to print: text, or a JSON document for scripts.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Output formats of `version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One JSON document.
    Json,
}

/// The text `topoplan version` and `topoplan --version` print (after the name, for the flag).
pub fn text() -> String {
    let mut out = format!("{}\n", env!("CARGO_PKG_VERSION"));
    for (release, api, commit) in CLUSTER_API {
        out.push_str(&format!("Cluster API {release}: {api} objects"));
        if let Some(c) = commit {
            out.push_str(&format!(", checked at commit {}", &c[..12.min(c.len())]));
        }
        out.push('\n');
    }
    out.push_str(&format!("Runtime SDK: {RUNTIME_SDK}\n"));
    out.push_str(&format!(
        "plan document: {}\n",
        crate::output::document::API_VERSION
    ));
    out
}

/// `--version`'s text (clap prints the name before it).
pub fn long_version() -> &'static str {
    // clap wants a 'static string; built once per process.
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(text).trim_end()
}

/// Print the version.
pub fn run(args: &VersionArgs) -> Result<ExitCode, Failure> {
    let text = match args.format {
        Format::Text => format!("topoplan {}", text()),
        Format::Json => {
            let doc = json!({
                "version": env!("CARGO_PKG_VERSION"),
                "clusterAPI": CLUSTER_API
                    .iter()
                    .map(|(release, api, commit)| json!({
                        "release": release,
                        "apiVersion": api,
                        "commit": commit,
                    }))
                    .collect::<Vec<_>>(),
                "runtimeSDK": RUNTIME_SDK,
                "planDocument": crate::output::document::API_VERSION,
            });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commits_are_those_of_the_built_in_crds() {
        let data: serde_json::Value =
            serde_json::from_str(include_str!("../../data/crds/cluster-api.json")).unwrap();
        assert_eq!(
            CLUSTER_API[0].2,
            data.pointer("/source/main/commit").and_then(|v| v.as_str())
        );
        assert_eq!(
            CLUSTER_API[1].2,
            data.pointer("/source/v1.10/commit")
                .and_then(|v| v.as_str())
        );
    }
}
