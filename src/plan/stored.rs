/*!
The input as applied over what is stored: what admission and planning see when `--current` gives
the objects as they are in the management cluster.

Owns turning each `-f` Cluster into the update of its stored form (it keeps what only the stored
Cluster knows: its uid and the references the controller set) and bringing in the topology
Clusters that exist only in the current state, planned as stored. It does not find a Cluster's
objects ([`super::current`]) nor compare anything ([`super::ssa`]).
*/

use std::collections::BTreeSet;

use crate::api;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::load::Object;

use super::current;

/// The objects admission sees when current objects are given: each input Cluster carries what
/// only its stored form knows (the user's apply would not remove the references the controller
/// set), and Clusters that exist only in the current state are planned as they are stored: what
/// would the controller do to them now (drift, or a changed class)? They pass admission with
/// the rest, as they once did.
pub(crate) fn with_current(
    inputs: Vec<Object>,
    current: &[Object],
) -> Result<Vec<Object>, Diagnostics> {
    let index = current::Index::new(current);
    let mut errors = Vec::new();
    let only = current_only_clusters(&inputs, current);
    let mut out: Vec<Object> = inputs
        .into_iter()
        .map(|o| {
            let stored = (o.kind == "Cluster" && o.group() == api::GROUP)
                .then(|| index.cluster(&o.namespace, &o.name))
                .flatten();
            match stored {
                Some(s) => with_stored(&o, s).unwrap_or_else(|e| {
                    errors.push(e);
                    o
                }),
                None => o,
            }
        })
        .collect();
    out.extend(only);
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(Diagnostics(errors))
    }
}

/// Topology Clusters of the current state that `-f` does not redefine.
fn current_only_clusters(inputs: &[Object], current: &[Object]) -> Vec<Object> {
    let given: BTreeSet<(&str, &str)> = inputs
        .iter()
        .filter(|o| o.kind == "Cluster" && o.group() == api::GROUP)
        .map(|o| (o.namespace.as_str(), o.name.as_str()))
        .collect();
    current
        .iter()
        .filter(|o| {
            o.kind == "Cluster"
                && o.group() == api::GROUP
                && o.value
                    .pointer("/spec/topology")
                    .is_some_and(|t| !t.is_null())
                && !given.contains(&(o.namespace.as_str(), o.name.as_str()))
        })
        .cloned()
        .collect()
}

/// The Cluster to plan: the `-f` Cluster with what only the stored Cluster knows (its uid and
/// the references the controller set). A reference the two disagree on is an error: the input
/// contradicts the current state.
pub(super) fn with_stored(given: &Object, stored: &Object) -> Result<Object, Diagnostic> {
    if std::ptr::eq(given, stored) {
        return Ok(given.clone());
    }
    let mut merged = given.clone();
    for ptr in ["/spec/infrastructureRef", "/spec/controlPlaneRef"] {
        let Some(s) = stored.value.pointer(ptr).filter(|v| !api::is_zero(v)) else {
            continue;
        };
        match given.value.pointer(ptr).filter(|v| !api::is_zero(v)) {
            None => {
                let keys: Vec<&str> = ptr.trim_start_matches('/').split('/').collect();
                crate::json::set_path(&mut merged.value, &keys, s.clone());
            }
            Some(g) if current::read_ref(Some(g)) != current::read_ref(Some(s)) => {
                return Err(Diagnostic::error(Code::CurrentInconsistent, format!(
                    "Cluster {}: {} differs from the stored Cluster's ({})",
                    given.key(),
                    ptr.trim_start_matches('/').replace('/', "."),
                    stored.origin.file.name
                ))
                .at(&given.origin, ptr, "contradicts the current state")
                .with_help("the topology controller sets this reference; drop it from the input or export the Cluster again"));
            }
            Some(_) => {}
        }
    }
    if let Some(uid) = stored.value.pointer("/metadata/uid")
        && given.value.pointer("/metadata/uid").is_none()
    {
        crate::json::set_path(&mut merged.value, &["metadata", "uid"], uid.clone());
    }
    Ok(merged)
}
