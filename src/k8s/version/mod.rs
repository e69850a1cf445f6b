/*!
Version strings, in the three dialects Kubernetes and Cluster API code reads them, each named
for the Go library it follows (they accept different inputs, order differently and word their
errors differently, so none stands in for another):

- [`blang`]: `github.com/blang/semver/v4` (`Parse`, `ParseTolerant`, `String`, `Compare`) with
  Cluster API's `util/version.Compare` options (`WithBuildTags`, `WithoutPreReleases`): how
  Cluster API's webhooks and topology controller read Kubernetes versions;
- [`capi`]: the four-way result of Cluster API's `util/version.Compare(…, WithBuildTags())`
  the upgrade sequencing relies on, over [`blang`]'s parsing;
- [`apimachinery`]: `k8s.io/apimachinery/pkg/util/version.ParseSemantic` and its ordering, what
  clusterctl sorts a provider repository's releases with.

Sprig's `semver*` template functions follow a fourth library, `github.com/Masterminds/semver`,
and stay with Sprig (`gotemplate::sprig::semver`): they are part of the template language, not
of how Kubernetes reads a version.
*/

pub mod apimachinery;
pub mod blang;
pub mod capi;
