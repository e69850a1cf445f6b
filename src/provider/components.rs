/*!
A provider release's components YAML, as far as a plan needs it: its CustomResourceDefinitions
and MutatingWebhookConfigurations (which kinds a defaulting webhook covers), as clusterctl would
install them.

clusterctl's `NewComponents` (`cmd/clusterctl/client/repository/components.go`) substitutes the
run's variables in the whole file, parses it, finds the one Namespace (the default target
namespace), points every object into it (`fixTargetNamespace`: for a CRD, its conversion webhook
service and cert-manager annotation) and labels every object with
`clusterctl.cluster.x-k8s.io: ""` and `cluster.x-k8s.io/provider: <label>`. topoplan does the
same to the CRDs, with one deliberate difference: a variable without value or default fails the
read only when it is used in a CRD's document. clusterctl would refuse the whole file, but a
plan never reads the Deployment or Secret where credentials (`${AWS_B64ENCODED_CREDENTIALS}`) are
substituted, and should not need them.

Owns the CRDs' contract labels check too: a provider CRD without a `cluster.x-k8s.io/<contract>`
label for a contract the input can use is one Cluster API cannot resolve references to.
*/

use std::sync::Arc;

use serde_json::Value;

use super::contract::InputContract;
use super::namespace;
use super::repository::{LocalRepository, wrap};
use crate::diag::{Code, Diagnostic};
use crate::load::envsubst::{self, SubstError};
use crate::load::limit::InputLimit;
use crate::load::{Object, VariableValues};
use crate::source::{Origin, SourceFile, Span};

/// clusterctl's label on every object it installs (`ClusterctlLabel`).
pub const CLUSTERCTL_LABEL: &str = "clusterctl.cluster.x-k8s.io";
/// The provider label (`ProviderNameLabel`).
pub const PROVIDER_LABEL: &str = "cluster.x-k8s.io/provider";

/// The CRDs of one provider release.
#[derive(Debug, Default)]
pub struct Crds {
    /// The CRDs and the MutatingWebhookConfigurations, processed as clusterctl installs them,
    /// in file order.
    pub objects: Vec<Object>,
    /// CRDs Cluster API cannot resolve a contract for.
    pub warnings: Vec<Diagnostic>,
}

/// One piece of the file between document markers, and how substituting it went.
struct Chunk {
    /// Where it starts in the substituted file, at its `---` marker (a document's extent
    /// starts there).
    out_start: usize,
    /// Variables with no value (or a syntax error), against the original file.
    problem: Option<Diagnostic>,
}

/// Read the CRDs of release `version` of `repo`, with `vars` for substitution.
pub fn crds(
    repo: &LocalRepository,
    version: &str,
    vars: &VariableValues,
    input: &InputContract<'_>,
    limit: &InputLimit,
) -> Result<Crds, Diagnostic> {
    let name = repo.components_file(version)?;
    let raw = repo.read(version, &name, limit).map_err(|d| {
        wrap(
            d,
            &format!(
                "failed to read {name:?} from provider's repository {:?}",
                repo.label
            ),
        )
    })?;
    let (file, chunks) = substitute(&raw, vars, limit)?;
    let docs = crate::load::yaml::parse_stream(&file)?;

    let namespaces: Vec<String> = docs
        .iter()
        .filter(|d| d.value.get("kind").and_then(Value::as_str) == Some("Namespace"))
        .map(|d| {
            d.value
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        })
        .collect();
    if namespaces.len() > 1 {
        return Err(Diagnostic::error(
            Code::ProviderComponents,
            "failed to detect default target namespace: Invalid manifest. There should be no more than one resource with Kind Namespace in the provider components yaml",
        )
        .with_span(&file, Span::new(0, 0), "in this file"));
    }
    let target = namespaces.first().filter(|n| !n.is_empty());

    let mut out = Crds::default();
    for doc in docs {
        let is_crd = doc.value.get("kind").and_then(Value::as_str)
            == Some("CustomResourceDefinition")
            && doc
                .value
                .get("apiVersion")
                .and_then(Value::as_str)
                .is_some_and(|v| v.starts_with("apiextensions.k8s.io/"));
        // The provider's defaulting webhooks say which kinds go through their round trip
        // (`crate::crd::webhooks`).
        let is_hooks = doc.value.get("kind").and_then(Value::as_str)
            == Some("MutatingWebhookConfiguration")
            && doc
                .value
                .get("apiVersion")
                .and_then(Value::as_str)
                .is_some_and(|v| v.starts_with("admissionregistration.k8s.io/"));
        if !is_crd && !is_hooks {
            continue;
        }
        let chunk = chunks.iter().rev().find(|c| c.out_start <= doc.span.offset);
        if let Some(problem) = chunk.and_then(|c| c.problem.clone()) {
            // A webhook configuration that cannot be substituted is left out, as the other
            // documents a plan does not need.
            if is_hooks {
                continue;
            }
            return Err(problem);
        }
        let mut value = doc.value;
        let origin = Origin {
            file: Arc::clone(&file),
            spans: Arc::new(doc.spans),
        };
        // Without a Namespace clusterctl asks for --target-namespace; a plan has none to give,
        // and the CRDs' schemas do not depend on it.
        if let Some(target) = target {
            namespace::fix(&mut value, target).map_err(|e| {
                Diagnostic::error(
                    Code::ProviderComponents,
                    format!("failed to set the TargetNamespace on the components: {e}"),
                )
                .at(&origin, "/metadata/name", "this CustomResourceDefinition")
            })?;
        }
        add_labels(&mut value, &repo.label);
        let object = Object::new(value, origin, "default")?;
        if is_crd && let Some(w) = contract_label_warning(&object, input) {
            out.warnings.push(w);
        }
        out.objects.push(object);
    }
    Ok(out)
}

/// The byte offsets where documents start: after each `---` marker line (and at 0).
fn chunk_starts(text: &str) -> Vec<(usize, usize)> {
    let mut starts = vec![(0, 0)];
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let rest = line.strip_prefix("---");
        if rest.is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '\r', '\n'])) {
            // The marker line itself belongs to no document's variables.
            starts.push((offset, offset + line.len()));
        }
        offset += line.len();
    }
    starts
}

/// Substitute `raw` document by document: each gets `vars`, as clusterctl substitutes the whole
/// file; a document with unset variables (or an expression drone cannot read) is substituted
/// with them empty and remembers the error, which counts only if the document is a CRD.
fn substitute(
    raw: &Arc<SourceFile>,
    vars: &VariableValues,
    limit: &InputLimit,
) -> Result<(Arc<SourceFile>, Vec<Chunk>), Diagnostic> {
    let text = &raw.text;
    let markers = chunk_starts(text);
    let max = usize::try_from(limit.max()).unwrap_or(usize::MAX);
    let lookup = |k: &str| vars.get(k);
    let lenient = |k: &str| Some(vars.get(k).unwrap_or_default());
    let mut out = String::with_capacity(text.len());
    let mut chunks = Vec::with_capacity(markers.len());
    for (i, &(marker, body)) in markers.iter().enumerate() {
        let end = markers.get(i + 1).map_or(text.len(), |&(next, _)| next);
        let out_start = out.len();
        out.push_str(text.get(marker..body).unwrap_or(""));
        let piece = text.get(body..end).unwrap_or("");
        let shift = |e: SubstError| shifted(e, body);
        let room = max.saturating_sub(out.len());
        let (substituted, problem) = match envsubst::substitute_with_limit(piece, &lookup, room) {
            Ok(t) => (t, None),
            Err(SubstError::TooLarge { .. }) => {
                return Err(limit.too_large(&raw.name));
            }
            Err(e @ SubstError::Missing(_)) => {
                let problem = envsubst::to_diagnostic(shift(e), raw);
                match envsubst::substitute_with_limit(piece, &lenient, room) {
                    Ok(t) => (t, Some(problem)),
                    Err(_) => (piece.to_string(), Some(problem)),
                }
            }
            Err(e) => (
                piece.to_string(),
                Some(envsubst::to_diagnostic(shift(e), raw)),
            ),
        };
        out.push_str(&substituted);
        chunks.push(Chunk { out_start, problem });
    }
    // What substitution adds is input too, as for -f files.
    let grown = out.len().saturating_sub(text.len()) as u64;
    limit.charge(grown, &raw.name)?;
    Ok((SourceFile::new(raw.name.clone(), out), chunks))
}

/// `e` with its spans moved by `by` bytes (a document's offset in its file).
fn shifted(e: SubstError, by: usize) -> SubstError {
    let mv = |s: Span| Span::new(s.offset + by, s.len);
    match e {
        SubstError::Missing(list) => SubstError::Missing(
            list.into_iter()
                .map(|mut m| {
                    m.span = mv(m.span);
                    m
                })
                .collect(),
        ),
        SubstError::Syntax { message, span } => SubstError::Syntax {
            message,
            span: mv(span),
        },
        SubstError::TooLarge { limit, span } => SubstError::TooLarge {
            limit,
            span: mv(span),
        },
    }
}

/// clusterctl's `addCommonLabels`.
fn add_labels(value: &mut Value, label: &str) {
    let Some(Value::Object(meta)) = value.get_mut("metadata") else {
        return;
    };
    let labels = meta
        .entry("labels")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if labels.is_null() {
        *labels = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(labels) = labels {
        labels.insert(CLUSTERCTL_LABEL.into(), Value::String(String::new()));
        labels.insert(PROVIDER_LABEL.into(), Value::String(label.into()));
    }
}

/// A warning when `crd` (of a Cluster API provider group) names no contract the input can use:
/// Cluster API looks up `cluster.x-k8s.io/<contract>` labels to choose the API version of a
/// reference (`GetLatestContractAndAPIVersionFromContract`) and fails without one.
fn contract_label_warning(crd: &Object, input: &InputContract<'_>) -> Option<Diagnostic> {
    let group = crd.value.pointer("/spec/group").and_then(Value::as_str)?;
    if !(group.ends_with(".cluster.x-k8s.io") || group == crate::api::GROUP) {
        return None;
    }
    let labels = crd
        .value
        .pointer("/metadata/labels")
        .and_then(Value::as_object);
    let compatible = input.compatible();
    let has = |c: &str| labels.is_some_and(|l| l.contains_key(&format!("cluster.x-k8s.io/{c}")));
    if compatible.iter().any(|c| has(c)) {
        return None;
    }
    Some(
        Diagnostic::warning(
            Code::ProviderContractLabel,
            format!(
                "CustomResourceDefinition {} has no {} label: Cluster API cannot tell which of its versions implements the {} contract, and fails on references to {}",
                crd.name,
                compatible
                    .iter()
                    .map(|c| format!("cluster.x-k8s.io/{c}"))
                    .collect::<Vec<_>>()
                    .join(" or "),
                compatible.join(" or "),
                crd.value.pointer("/spec/names/kind").and_then(Value::as_str).unwrap_or("its kind"),
            ),
        )
        .at_key(&crd.origin, "/metadata/name", "this CustomResourceDefinition")
        .with_help(format!(
            "providers label their CRDs with the API versions implementing each contract, e.g. cluster.x-k8s.io/{}: {}",
            input.contract,
            crd.value
                .pointer("/spec/versions/0/name")
                .and_then(Value::as_str)
                .unwrap_or(input.contract)
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_start_after_markers() {
        let text = "a: 1\n---\nb: 2\n--- # c\nc: 3\n----\n";
        let starts = chunk_starts(text);
        assert_eq!(starts, [(0, 0), (5, 9), (14, 22)]);
    }

    #[test]
    fn unset_variables_count_only_in_the_document_that_holds_them() {
        let raw = SourceFile::new(
            "c.yaml",
            "kind: Secret\ndata: ${CREDENTIALS}\n---\nkind: CustomResourceDefinition\nx: ${X:=1}\n",
        );
        let limit = InputLimit::new(1 << 20);
        let (file, chunks) =
            substitute(&raw, &VariableValues::default(), &limit).expect("substitutes");
        assert_eq!(
            file.text,
            "kind: Secret\ndata: \n---\nkind: CustomResourceDefinition\nx: 1\n"
        );
        assert_eq!(chunks.len(), 2);
        let problem = chunks[0].problem.as_ref().expect("missing variable");
        assert!(
            problem.message.contains("[CREDENTIALS]"),
            "{}",
            problem.message
        );
        assert_eq!(problem.position().map(|p| p.1), Some(2));
        assert!(chunks[1].problem.is_none());
        assert_eq!(chunks[1].out_start, 20);
    }
}
