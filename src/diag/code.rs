/*!
Diagnostic codes: the stable name of every kind of problem topoplan reports.

A code (`topoplan::patch::missing-path`) names what went wrong independently of the message,
which quotes the input and follows Cluster API's wording. CI allow-lists and suppresses by code,
so a code, once released, keeps its name and meaning; a new kind of problem gets a new code.
Every format carries it: the text report's header, the JSON documents' `code` field, the
annotation's title, the JUnit failure's `type`. The table in docs/reference/codes.md is generated
from [`Code::ALL`] (a test keeps them equal).
*/

use std::fmt;

/// Declares [`Code`] with, per variant, its name and a one-line meaning for the codes page.
macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $summary:literal;)*) => {
        /// What kind of problem a diagnostic reports.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the order of the codes page.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable name, `topoplan::<area>::<problem>`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => concat!("topoplan::", $name),)*
                }
            }

            /// What the code means, in one line.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }
        }
    };
}

codes! {
    /// A flag's value cannot be used.
    Usage = "usage",
        "A command-line flag or argument has a value topoplan cannot use (`--cluster`, `--extension`, `--ca-file`, `--feature-gates`, `--vars`, the paths of `diff`).";
    /// A file, directory or standard input cannot be read.
    InputRead = "input::read",
        "A file, directory or standard input cannot be read: missing, unreadable, not UTF-8, or a directory with no `.yaml`, `.yml` or `.json` file.";
    /// An input bound was hit.
    InputLimit = "input::limit",
        "An input is larger or deeper than topoplan's bounds allow (`--max-input-bytes`, directory entries, nesting, files at a revision).";
    /// An object's namespace contradicts `-n`.
    InputNamespace = "input::namespace",
        "An object's own namespace contradicts `-n`, as kubectl refuses it.";
    /// A link or path leads out of the directory the user named.
    InputOutside = "input::outside",
        "A symbolic link or path leads out of the directory (or repository) the user named; topoplan does not follow it.";
    /// A link leads to a hidden file or directory.
    InputHidden = "input::hidden",
        "A symbolic link leads to a hidden entry (`.env`, `.git/config`, …); hidden entries are never inputs, through a link or otherwise.";
    /// A directory entry that is not a regular file.
    InputSkipped = "input::skipped",
        "A directory entry is not a regular file (a socket, device or FIFO) and was skipped, or (`validate`) documents without `apiVersion` and `kind` were passed over.";
    /// YAML or JSON syntax.
    InputSyntax = "input::syntax",
        "A file is not valid YAML or JSON, or uses YAML that Kubernetes does not read (anchors over the bound, duplicate keys, tags).";
    /// A document that is not a Kubernetes object.
    InputObject = "input::object",
        "A document is not a Kubernetes object: no apiVersion, kind or metadata.name, or one of the wrong type.";
    /// The same object twice.
    InputDuplicate = "input::duplicate",
        "The same object (kind, namespace, name) is defined twice in one input.";
    /// A Cluster API kind or version topoplan does not know.
    InputUnsupported = "input::unsupported",
        "An object of Cluster API's groups has a kind or apiVersion Cluster API does not define.";
    /// A field of the wrong type or one a version does not have.
    InputField = "input::field",
        "A field of a Cluster API object cannot be decoded (wrong type), or is not a field of the object's API version.";
    /// A flavor: one Cluster in several files.
    InputFlavor = "input::flavor",
        "A Cluster is defined in several files; each is planned as an alternative flavor.";
    /// clusterctl variable substitution failed.
    InputSubstitution = "input::substitution",
        "clusterctl variable substitution (`--substitute`) failed: an expression it cannot read, or a result over the bound.";
    /// clusterctl variables with no value.
    InputUnsetVariable = "input::unset-variable",
        "clusterctl variables used by the input have no value (set them in the environment, an `--env-file` or the clusterctl configuration).";
    /// `${VAR}` left in the input.
    InputUnsubstituted = "input::unsubstituted",
        "Values hold clusterctl variables (`${VAR}`) but `--substitute` was not given.";
    /// An env file that cannot be read.
    InputEnvFile = "input::env-file",
        "A line of an `--env-file` cannot be read.";
    /// `--base-ref` failed.
    InputGit = "input::git",
        "Reading the inputs at `--base-ref` failed: no git, no repository, an unknown revision, a link in the revision.";
    /// A CustomResourceDefinition topoplan cannot read.
    InputCrd = "input::crd",
        "A CustomResourceDefinition of the input lacks what topoplan reads from it (group, kind, versions, schema).";
    /// The kubeconfig of a live read.
    LiveKubeconfig = "live::kubeconfig",
        "The kubeconfig of a live read (`--live`, `--kubeconfig`, `--context`) cannot be used: missing, malformed, no such context, or credentials its exec plugin or files cannot give; or topoplan was built without the `live` feature.";
    /// The management cluster cannot be reached.
    LiveConnect = "live::connect",
        "The management cluster's API server cannot be reached or authenticated to (connection, TLS, proxy, 401), or a request passed `--request-timeout` or the read passed `--live-deadline`.";
    /// A 403 on a kind a live read needs.
    LiveForbidden = "live::forbidden",
        "The API server refused to let the credentials list or get a kind the plan needs (403); the help names the `kubectl auth can-i` check and docs/live.md gives a read-only ClusterRole.";
    /// An API server answer topoplan cannot use.
    LiveResponse = "live::response",
        "An API server answer a live read cannot use: an unexpected status, a body that is not the JSON the API documents, a list that keeps expiring (410) or pages without end.";
    /// `--save-current` cannot be written.
    LiveSave = "live::save",
        "`--save-current DIR` cannot be written: DIR holds files topoplan did not write, is an input, or a file cannot be created.";
    /// A local provider repository that cannot be used.
    ProviderRepository = "provider::repository",
        "A local provider repository (`--provider-repo`, or a `file://` provider of the clusterctl configuration) cannot be used: a missing provider, release or file, a path clusterctl would not read.";
    /// A release's metadata.yaml.
    ProviderMetadata = "provider::metadata",
        "A provider release's `metadata.yaml` is invalid, or maps the release to no release series.";
    /// A release implementing an incompatible contract.
    ProviderContract = "provider::contract",
        "A provider release implements a Cluster API contract the input's Cluster API version is not compatible with (clusterctl refuses to install it).";
    /// A provider's components YAML.
    ProviderComponents = "provider::components",
        "A provider's components YAML cannot be processed as clusterctl processes it (several Namespaces, a reference it cannot move into the target namespace).";
    /// A CRD without contract labels.
    ProviderContractLabel = "provider::contract-label",
        "A provider CRD has no `cluster.x-k8s.io/<contract>` label for a contract the input can use, so Cluster API cannot resolve references to its kind.";
    /// A remote provider repository.
    ProviderRemote = "provider::remote",
        "A provider is configured with an `https://` (or other remote) repository; topoplan is offline and reads local repositories only.";
    /// A provider no repository or configuration names.
    ProviderNotFound = "provider::not-found",
        "A provider named on the command line has no directory in `--provider-repo` and no entry in the clusterctl configuration.";
    /// The clusterctl configuration file.
    ConfigInvalid = "config::invalid",
        "The clusterctl configuration file (`--config`, or the default one) cannot be read, or a `providers:` entry is invalid.";
    /// Refused by Cluster API's admission.
    AdmissionInvalid = "admission::invalid",
        "The API server (object metadata) or Cluster API's admission (validating webhooks, variable schemas and their CEL rules) refuses an object; the message is theirs.";
    /// A warning of Cluster API's admission.
    AdmissionWarning = "admission::warning",
        "Cluster API's admission accepts an object with a warning (for example a deprecated field).";
    /// A field the API server drops.
    SchemaPruned = "schema::pruned",
        "A field its CustomResourceDefinition does not declare: the API server drops it when the object is written (an unknown field, often a typo or a field of another version).";
    /// Refused by a CRD's schema.
    SchemaInvalid = "schema::invalid",
        "An object fails its CustomResourceDefinition's schema (types, formats, enums, patterns, limits, required fields, CEL rules): the API server refuses it. A generated object's error names the patch that wrote the field when known.";
    /// Kinds no CRD describes.
    SchemaUnchecked = "schema::unchecked",
        "Objects of these kinds were planned without schema checks: no CustomResourceDefinition for them was given (`-f`, `--crds`, `--current`, `--provider-repo`).";
    /// Kinds a provider's defaulting webhook covers.
    SchemaWebhookDefaulted = "schema::webhook-defaulted",
        "Objects of these kinds have a defaulting webhook (a MutatingWebhookConfiguration of the input, `--current`, `--crds` or `--provider-repo`): their absent required fields get their zero values before the schema check, as the webhook's round trip through its Go type writes them; the webhook's own logic is not run.";
    /// A Cluster's class is not in the input.
    ClassNotFound = "class::not-found",
        "A Cluster's ClusterClass (or a worker class it names) is not in the input.";
    /// A template the class references is not in the input.
    ClassTemplateNotFound = "class::template-not-found",
        "A template a ClusterClass references is not in the input.";
    /// A template reference that cannot be followed.
    ClassTemplateReference = "class::template-reference",
        "A ClusterClass's template reference is incomplete, or names an object of another kind or version than the input holds.";
    /// A current object cannot be found.
    CurrentNotFound = "current::not-found",
        "An object the current state refers to (or the Cluster a current object belongs to) is not in `--current`.";
    /// Current objects that contradict each other.
    CurrentInconsistent = "current::inconsistent",
        "The current objects contradict each other or the Cluster: not topology-owned, labelled for another Cluster, another API version, a missing or duplicate label.";
    /// A file that could not be applied over its stored form.
    CurrentNotApplied = "current::not-applied",
        "A template or ClusterClass is in both `-f` and `--current` at different API versions: it cannot be applied over its stored form offline and is planned as the file has it.";
    /// A stored object the change affects fails today's admission.
    CurrentStoredInvalid = "current::stored-invalid",
        "A stored object (in `--current`, not in `-f`) that the change affects does not pass today's admission rules: a warning, since it was admitted when it was written; a Cluster or ClusterClass in that state is not planned.";
    /// Current objects with no managedFields.
    CurrentInexact = "current::inexact",
        "Current objects have no `capi-topology` managedFields entry, so a field removed from a template cannot be detected.";
    /// A builtin variable cannot be computed.
    VariablesBuiltin = "variables::builtin",
        "A builtin variable (`builtin.*`) cannot be computed for a Cluster.";
    /// Variable discovery did not give a definition.
    VariablesDiscovery = "variables::discovery",
        "Variables of a ClusterClass come from an extension's DiscoverVariables and could not be discovered offline.";
    /// A patch failed to generate.
    PatchGenerate = "patch::generate",
        "A patch failed to generate: a template, `valueFrom.variable` or `enabledIf` could not be evaluated, or an extension refused the request.";
    /// A JSON patch names a path the template does not have.
    PatchMissingPath = "patch::missing-path",
        "A JSON patch operation names a path that does not exist in the template it is applied to.";
    /// A generated patch cannot be applied.
    PatchApply = "patch::apply",
        "A generated patch cannot be decoded or applied to its template (other than a missing path).";
    /// ValidateTopology refuses the topology.
    PatchValidateTopology = "patch::validate-topology",
        "An external patch's ValidateTopology extension refuses the patched topology, or cannot be called.";
    /// An external patch and no extension.
    PatchNoExtension = "patch::no-extension",
        "A ClusterClass has an external patch and no Runtime extension (`--extension` or an ExtensionConfig) serves it.";
    /// A patch writes where Cluster API does not keep it.
    PatchOutsideTemplate = "patch::outside-template",
        "A patch writes outside `spec.template` of a template, which Cluster API drops (v1.10 keeps only `spec.template.spec`).";
    /// A template reads an undeclared variable.
    TemplateUnknownVariable = "template::unknown-variable",
        "A patch template reads a path that is no variable of the class nor a builtin (Cluster API renders `<no value>` or fails).";
    /// A template given to `topoplan eval` that fails.
    TemplateRender = "template::render",
        "A template given to `topoplan eval` does not parse or fails to execute.";
    /// A template that printed `<no value>` for a Cluster.
    TemplateNoValue = "template::no-value",
        "A patch template printed `<no value>` for a Cluster: a path it reads has no value there (an unset optional variable, a missing key); Cluster API writes that text into the object.";
    /// A template whose output changes on every render.
    TemplateNonDeterministic = "template::non-deterministic",
        "A patch template calls a function whose result changes on every render (`now`, `uuidv4`, `randAlpha`, …).";
    /// An ExtensionConfig or `--extension` that cannot be used.
    ExtensionConfig = "extension::config",
        "An ExtensionConfig or `--extension` cannot be used (no URL, bad CA bundle, an unknown extension).";
    /// An ExtensionConfig names a URL the command line does not allow.
    ExtensionNotAllowed = "extension::not-allowed",
        "An ExtensionConfig of the input names a URL that neither `--extension` nor `--allow-extension-url` allows: topoplan connects only where the command line says.";
    /// A call to an extension failed.
    ExtensionCall = "extension::call",
        "A Runtime SDK call failed: the extension could not be reached, timed out, answered over the bound or with an invalid response.";
    /// An extension's failure ignored by its failurePolicy.
    ExtensionIgnored = "extension::ignored",
        "A Runtime SDK call failed and was ignored because the handler's failurePolicy is Ignore.";
    /// Nothing of the input is served by the extension under check.
    ExtensionCheckNothing = "extension::nothing-to-check",
        "`topoplan extension check` found no ClusterClass patch of the input served by the extension (or too many Clusters to plan them all).";
    /// A conformance check failed.
    ExtensionCheckFailed = "extension::check-failed",
        "`topoplan extension check`: the extension does not follow a guideline of the topology-mutation hooks (the report names the check and its evidence).";
    /// `extension check` ran out of time.
    ExtensionCheckDeadline = "extension::check-deadline",
        "`topoplan extension check` reached its run deadline (`--deadline`) before every check was done; the report says what was checked.";
    /// `--baseline` cannot be used.
    ExtensionBaseline = "extension::baseline",
        "`topoplan extension check --baseline`: the file is not a DiscoverVariablesResponse (YAML or JSON).";
    /// A request `--replay-extensions` has no recorded answer for.
    ExtensionRecordingStale = "extension::recording-stale",
        "`--replay-extensions` has no recorded answer for a request: the input changed since the recording was made; re-record it with `--record-extensions`.";
    /// A recording or trace of extension calls cannot be used.
    ExtensionRecording = "extension::recording",
        "A recording of extension calls (`--record-extensions`, `--replay-extensions`) or a trace (`--trace-extensions`) cannot be read or written: malformed, too large, a link, or a directory topoplan did not write.";
    /// The topology's desired objects cannot be computed.
    PlanDesiredState = "plan::desired-state",
        "The desired state of a Cluster cannot be computed (an object cannot be generated from its template).";
    /// An upgrade cannot be planned.
    PlanUpgrade = "plan::upgrade",
        "The upgrade sequence of a Cluster cannot be computed.";
    /// A GenerateUpgradePlan extension gave no plan.
    PlanUpgradeExtension = "plan::upgrade-extension",
        "A Cluster needs an upgrade plan from its ClusterClass's GenerateUpgradePlan extension, which is not given, does not announce the handler, refused the request, or cannot be used with the RuntimeSDK gate off.";
    /// An object cannot be reconciled against its current state.
    PlanReconcile = "plan::reconcile",
        "A desired object cannot be reconciled against its current state (the change Cluster API's server-side apply would refuse).";
    /// `--cluster` names a Cluster the change does not affect.
    PlanNotAffected = "plan::not-affected",
        "Against `--current`, `--cluster` names a Cluster the change in `-f` does not affect (Cluster API's `target cluster … is not among the list of affected clusters`).";
    /// A bound on what a plan generates was hit.
    PlanLimit = "plan::limit",
        "One Cluster's plan, or the whole run, generates more objects or bytes than its bounds allow (`--max-cluster-objects`, `--max-cluster-bytes`, `--max-generated-objects`, `--max-generated-bytes`).";
    /// No Cluster to plan.
    PlanNoCluster = "plan::no-cluster",
        "The input holds no Cluster with `spec.topology`, or none matches `--cluster`.";
    /// A Cluster that cannot be planned as new.
    PlanExistingCluster = "plan::existing-cluster",
        "A Cluster sets references the topology controller owns, so it already exists and needs its current objects to be planned.";
    /// The old side of a diff does not plan.
    DiffOldSide = "diff::old-side",
        "The old inputs of `diff` do not plan; a diff needs both sides to be valid.";
    /// The output directory cannot be replaced.
    OutputDirectory = "output::directory",
        "The `--output-dir` cannot be replaced safely: not written by topoplan, a link, a mount point, the working directory, or inside the inputs.";
    /// Writing output failed.
    OutputWrite = "output::write",
        "Writing the output (a file, the output directory or standard output) failed.";
    /// `KUBECTL_EXTERNAL_DIFF` cannot be used.
    OutputExternalDiff = "output::external-diff",
        "The program `KUBECTL_EXTERNAL_DIFF` names cannot be run or fails (an exit status other than 0 or 1), or some of its arguments were dropped.";
    /// Interrupted while writing.
    OutputInterrupted = "output::interrupted",
        "The run was interrupted (SIGINT or SIGTERM); the message says what state the output was left in.";
    /// Diagnostics not shown.
    OutputMore = "output::more",
        "More diagnostics were found than are shown; the count says how many were left out.";
    /// A bug in topoplan.
    Internal = "internal",
        "A bug in topoplan: please report it with the input that caused it.";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The table of codes of docs/reference/codes.md (Markdown), generated so it cannot fall behind the code.
pub fn markdown_table() -> String {
    let mut out = String::from("| Code | Meaning |\n|---|---|\n");
    for c in Code::ALL {
        out.push_str(&format!("| `{}` | {} |\n", c.name(), c.summary()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Code::ALL {
            let name = c.name();
            assert!(seen.insert(name), "{name} twice");
            let rest = name.strip_prefix("topoplan::").unwrap_or("");
            assert!(!rest.is_empty(), "{name}");
            for part in rest.split("::") {
                assert!(
                    !part.is_empty()
                        && part
                            .chars()
                            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'),
                    "{name}"
                );
            }
        }
    }
}
