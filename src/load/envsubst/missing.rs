/*!
clusterctl's check for variables without a value, done before anything is evaluated.

Owns which occurrences count as missing (rule 4 of the parent module) and the one diagnostic that
names them all.
*/

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::legacy::Normalized;
use super::tree::Node;
use crate::diag::{Code, Diagnostic};
use crate::source::{SourceFile, Span};

/// How many unset variables a report names; the rest are counted. (Located occurrences are
/// bounded by [`crate::diag::MAX_RELATED`]: each renders a snippet, so an unbounded list costs
/// time and output quadratic in it.)
pub const MAX_MISSING_REPORTED: usize = 100;

/// A variable that has no value and no default, at one place it is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// The variable name.
    pub name: String,
    /// The whole `${…}` expression in the input text.
    pub span: Span,
}

/// clusterctl's check before evaluating: every top-level variable whose first occurrence has no
/// argument and that the lookup does not know. Each occurrence without an argument is listed.
pub(super) fn missing_variables(
    nodes: &[Node],
    lookup: &dyn Fn(&str) -> Option<String>,
    norm: &Normalized,
) -> Vec<Missing> {
    let mut first_has_default: HashMap<&str, bool> = HashMap::new();
    for node in nodes {
        if let Node::Func(f) = node {
            first_has_default
                .entry(f.param.as_str())
                .or_insert(!f.args.is_empty());
        }
    }
    let missing: BTreeSet<&str> = first_has_default
        .iter()
        .filter(|(name, has_default)| !**has_default && lookup(name).is_none())
        .map(|(name, _)| *name)
        .collect();
    nodes
        .iter()
        .filter_map(|n| match n {
            Node::Func(f) if f.args.is_empty() && missing.contains(f.param.as_str()) => {
                Some(Missing {
                    name: f.param.clone(),
                    span: norm.span(f.start, f.end),
                })
            }
            _ => None,
        })
        .collect()
}

pub(super) fn missing_diagnostic(list: &[Missing], file: &Arc<SourceFile>) -> Diagnostic {
    let names: BTreeSet<&str> = list.iter().map(|m| m.name.as_str()).collect();
    let mut shown: Vec<&str> = names.iter().copied().take(MAX_MISSING_REPORTED).collect();
    let more_names = names.len() - shown.len();
    let more = format!("… and {more_names} more");
    if more_names > 0 {
        shown.push(&more);
    }
    let mut d = Diagnostic::error(
        Code::InputUnsetVariable,
        format!(
            "value for variables [{}] is not set. Please set the value using os environment \
             variables, the clusterctl config file or a file passed with --env-file",
            shown.join(", ")
        ),
    )
    .with_help(
        "give each variable a value (export NAME=value and pass --env NAME, a NAME=value line \
         in the --env-file, or NAME: value in the clusterctl config file), or a default in the \
         template: ${NAME:=default}",
    );
    if let Some(first) = list.first() {
        d = d.with_span(file, first.span, format!("`{}` is not set", first.name));
    }
    // One located entry per use, built only for those shown.
    let related = list.iter().take(crate::diag::MAX_RELATED).map(|m| {
        Diagnostic::error(
            Code::InputUnsetVariable,
            format!("variable {} is not set", m.name),
        )
        .with_span(file, m.span, "no value and no default")
    });
    d.with_related_bounded(related, list.len())
}
