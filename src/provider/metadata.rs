/*!
A provider release's `metadata.yaml`: which Cluster API contract each release series
(major.minor) implements.

Reading and checking follow clusterctl's `metadataClient.Get` and `validateMetadata`
(`cmd/clusterctl/client/repository/metadata_client.go`); the series lookups are the `Metadata`
methods of `cmd/clusterctl/api/v1alpha3/metadata_type.go`; the message for a version in no
series is `getProviderContract`'s (`cmd/clusterctl/client/cluster/installer.go`).
*/

use std::sync::Arc;

use serde::Deserialize;

use crate::diag::{Code, Diagnostic};
use crate::k8s::version::apimachinery::Version;
use crate::source::SourceFile;

/// The file name in each release directory.
pub const FILE: &str = "metadata.yaml";

/// The apiVersion a metadata file must have.
pub const API_VERSION: &str = "clusterctl.cluster.x-k8s.io/v1alpha3";

/// One release series: `major.minor` implements `contract`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct ReleaseSeries {
    /// Major version of the series.
    pub major: i32,
    /// Minor version of the series.
    pub minor: i32,
    /// The Cluster API contract, e.g. `v1beta2`.
    pub contract: String,
}

impl ReleaseSeries {
    /// clusterctl's `ReleaseSeries.newer`: a semver `>=` on major.minor (Go converts the int32
    /// fields to uint64, so a negative one sorts above every other).
    fn not_older_than(&self, other: &ReleaseSeries) -> bool {
        (self.major as u64, self.minor as u64) >= (other.major as u64, other.minor as u64)
    }
}

/// A provider release's metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The release series, in file order.
    pub release_series: Vec<ReleaseSeries>,
}

#[derive(Deserialize)]
struct Document {
    #[serde(rename = "apiVersion", default)]
    api_version: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(rename = "releaseSeries", default)]
    release_series: Option<Vec<ReleaseSeries>>,
}

impl Metadata {
    /// Parse and check `file` (the metadata of the provider `label`).
    pub fn parse(file: &Arc<SourceFile>, label: &str) -> Result<Metadata, Diagnostic> {
        let decoding = |detail: String| {
            Diagnostic::error(
                Code::ProviderMetadata,
                format!("error decoding \"{FILE}\" for provider \"{label}\": {detail}"),
            )
            .with_span(file, crate::source::Span::new(0, 0), "in this file")
        };
        let value = crate::load::yaml::parse_value(&file.text).map_err(decoding)?;
        let doc: Document = serde_json::from_value(value).map_err(|e| decoding(e.to_string()))?;
        // The decoder fills an absent apiVersion from the type it decodes into, so only a
        // different one is wrong.
        if let Some(v) = doc.api_version.as_deref().filter(|v| *v != API_VERSION) {
            return Err(Diagnostic::error(
                Code::ProviderMetadata,
                format!(
                    "invalid provider metadata: unexpected apiVersion {v:?} for provider {label} (expected {API_VERSION:?})"
                ),
            )
            .with_span(file, crate::source::Span::new(0, 0), "in this file"));
        }
        // clusterctl ratchets: providers long shipped metadata without a kind.
        if let Some(k) = doc
            .kind
            .as_deref()
            .filter(|k| !k.is_empty() && *k != "Metadata")
        {
            return Err(Diagnostic::error(
                Code::ProviderMetadata,
                format!(
                    "invalid provider metadata: unexpected kind {k:?} for provider {label} (expected \"Metadata\")"
                ),
            )
            .with_span(file, crate::source::Span::new(0, 0), "in this file"));
        }
        let release_series = doc.release_series.unwrap_or_default();
        if release_series.is_empty() {
            return Err(Diagnostic::error(
                Code::ProviderMetadata,
                format!(
                    "invalid provider metadata: releaseSeries is empty in {FILE} for provider {label}"
                ),
            )
            .with_span(file, crate::source::Span::new(0, 0), "in this file"));
        }
        Ok(Metadata { release_series })
    }

    /// The series `version` belongs to (the first listed, as clusterctl takes it).
    pub fn series_for_version(&self, version: &Version) -> Option<&ReleaseSeries> {
        self.release_series
            .iter()
            .find(|s| version.major() == s.major as u64 && version.minor() == s.minor as u64)
    }

    /// The newest series implementing `contract` (a later one wins a tie), as clusterctl's
    /// `GetReleaseSeriesForContract` chooses.
    pub fn series_for_contract(&self, contract: &str) -> Option<ReleaseSeries> {
        let mut best: Option<ReleaseSeries> = None;
        for s in self
            .release_series
            .iter()
            .filter(|s| s.contract == contract)
        {
            // Go starts from a zero series, which every series is at least as new as.
            let zero = ReleaseSeries::default();
            if s.not_older_than(best.as_ref().unwrap_or(&zero)) {
                best = Some(s.clone());
            }
        }
        best
    }

    /// The error for `version` of `label` belonging to no series.
    pub fn no_series(&self, version: &str, label: &str) -> String {
        let available: Vec<String> = self
            .release_series
            .iter()
            .map(|s| format!("{}.{}", s.major, s.minor))
            .collect();
        format!(
            "invalid provider metadata: version {version} for the provider {label} does not match any release series. \
             Available series: [{}]. This usually means the release tag lacks an updated metadata.yaml or the repository URL is stale.",
            available.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Metadata, String> {
        Metadata::parse(&SourceFile::new("metadata.yaml", text), "infrastructure-x")
            .map_err(|d| d.message)
    }

    const GOOD: &str = "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- major: 1\n  minor: 1\n  contract: v1beta2\n- major: 0\n  minor: 9\n  contract: v1beta1\n- major: 1\n  minor: 0\n  contract: v1beta2\n";

    #[test]
    fn series_are_found_by_version_and_contract() {
        let m = parse(GOOD).expect("parses");
        let v = |s: &str| Version::parse(s).expect("version");
        assert_eq!(
            m.series_for_version(&v("v1.1.7"))
                .map(|s| s.contract.as_str()),
            Some("v1beta2")
        );
        assert_eq!(m.series_for_version(&v("v2.0.0")), None);
        let s = m.series_for_contract("v1beta2").expect("series");
        assert_eq!((s.major, s.minor), (1, 1));
        assert_eq!(m.series_for_contract("v1alpha4"), None);
        assert_eq!(
            m.no_series("v2.0.0", "infrastructure-x"),
            "invalid provider metadata: version v2.0.0 for the provider infrastructure-x does not match any release series. Available series: [1.1, 0.9, 1.0]. This usually means the release tag lacks an updated metadata.yaml or the repository URL is stale."
        );
    }

    #[test]
    fn bad_metadata_is_refused_with_clusterctl_messages() {
        assert_eq!(
            parse("apiVersion: wrong.group/v1\nreleaseSeries: [{major: 1}]\n")
                .err()
                .as_deref(),
            Some(
                "invalid provider metadata: unexpected apiVersion \"wrong.group/v1\" for provider infrastructure-x (expected \"clusterctl.cluster.x-k8s.io/v1alpha3\")"
            )
        );
        assert!(
            parse("apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Other\nreleaseSeries: [{major: 1}]\n")
                .err()
                .is_some_and(|e| e.contains("unexpected kind \"Other\""))
        );
        // No kind is accepted, as clusterctl ratchets it.
        assert!(
            parse(
                "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries: [{major: 1}]\n"
            )
            .is_ok()
        );
        assert_eq!(
            parse("apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries: []\n")
                .err()
                .as_deref(),
            Some(
                "invalid provider metadata: releaseSeries is empty in metadata.yaml for provider infrastructure-x"
            )
        );
        assert!(
            parse("releaseSeries: [{major: one}]\n")
                .err()
                .is_some_and(|e| e.starts_with(
                    "error decoding \"metadata.yaml\" for provider \"infrastructure-x\""
                ))
        );
        assert!(parse("a: [\n").is_err());
        assert!(parse("").is_err());
    }
}
