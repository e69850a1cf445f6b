/*!
clusterctl-compatible variable substitution in template files.

Owns everything `clusterctl generate cluster` does to a template before it is YAML: the
"SimpleProcessor" of `cmd/clusterctl/client/yamlprocessor/simple_processor.go` (Cluster API) on
top of `github.com/drone/envsubst/v2` (the version Cluster API pins, commit 1790424). The rules
are reproduced from reading that code — not from bash, which differs in many places:

1. Legacy spacing: `${ NAME }`, `${ NAME}` and `${NAME }` (names of `[A-Za-z0-9_$]`, space being
   `[ \t\n\f\r]`) are rewritten to `${NAME}` over the whole text first, even inside `$${…}`.
2. Only `${` opens an expression; a bare `$NAME` is plain text. Outside expressions (and inside
   the pattern and replacement of `${NAME/…/…}`) `$$` stands for one `$`, so `$${x}` gives
   `${x}` and `$$version` gives `$version`. Inside `/…/…` `\/` and `\\` are escapes as well.
3. Forms: `${N}`, `${#N}` (length in bytes), `${N^}` `${N^^}` `${N,}` `${N,,}`, `${N:=w}`
   `${N=w}` `${N:-w}` `${N:?w}` `${N:+w}` (all five mean "w when N is empty or unset"),
   `${N:pos}` `${N:pos:len}` (bytes), `${N#p}` `${N##p}` `${N%p}` `${N%%p}` (glob),
   `${N/p/r}` `${N//p/r}` `${N/#p/r}` `${N/%p/r}`. Arguments may contain nested `${…}`.
   `${N-w}`, `${N+w}`, `${N?w}`, an unterminated `${` and anything else are syntax errors.
4. A variable is *missing* when the lookup does not know it and its first top-level occurrence
   has no argument (clusterctl calls any argument a "default", so `${N#x}` counts). Variables
   nested inside an argument are never reported: they just expand to the empty string.
5. Evaluation cannot tell unset from empty: both expand to `""`, and defaults apply to both.

This file holds the public API; the work is done in stages, one file each: `legacy` (the
spacing rewrite), `parse` (into the syntax `tree`), `missing` (the check before evaluating),
`expand` (evaluation, with `glob` matching); `error` is what they return.
*/

mod error;
mod expand;
mod glob;
mod legacy;
mod missing;
mod parse;
mod tree;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::diag::{Code, Diagnostic};
use crate::source::SourceFile;

pub use error::SubstError;
pub use missing::{MAX_MISSING_REPORTED, Missing};

use expand::{EvalError, eval_node};
use legacy::Normalized;
use missing::{missing_diagnostic, missing_variables};
use parse::{Parser, syntax_diagnostic};
use tree::Node;

/// The default cap on one substituted text, in bytes: the same as the cap on all inputs
/// together (`--max-input-bytes`), since the substituted text is what gets parsed. Without it a
/// small template of many `${BIG}` expands without bound (100,000 × 100 KB is 10 GB).
pub const MAX_SUBSTITUTED_BYTES: usize = 256 << 20;

/// Substitute variables in `text`. `lookup` returns the value of a variable if it is set.
///
/// A variable with no value and no default (per clusterctl's rules) is collected; if any are
/// missing, all of them are returned (each with its span, in order of appearance).
pub fn substitute(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, SubstError> {
    substitute_with_limit(text, lookup, MAX_SUBSTITUTED_BYTES)
}

/// [`substitute`], refusing (with [`SubstError::TooLarge`], at the expression that crossed it)
/// a result longer than `max` bytes. The cap holds while expanding, so nothing larger is ever
/// built.
pub fn substitute_with_limit(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
    max: usize,
) -> Result<String, SubstError> {
    let norm = Normalized::new(text);
    let mut nodes = Vec::new();
    Parser::new(&norm.text)
        .parse_template(&mut nodes)
        .map_err(|e| e.into_subst_error(&norm))?;

    let missing = missing_variables(&nodes, lookup, &norm);
    if !missing.is_empty() {
        return Err(SubstError::Missing(missing));
    }

    // Literal text is never larger than the input, so when it tips the output over the cap the
    // expression before it is to blame.
    let mut last_expr = (0, 0);
    let error = |e: EvalError, last_expr: (usize, usize)| match e {
        EvalError::Raw(e) => e.into_subst_error(&norm),
        EvalError::TooLarge(at) => {
            let (start, end) = at.unwrap_or(last_expr);
            SubstError::TooLarge {
                limit: max,
                span: norm.span(start, end),
            }
        }
    };
    // Measured first, one expression at a time, then built at its exact size: a text refused
    // for its size costs no more memory than its largest expression, and one accepted is never
    // copied while growing (a growing buffer's earlier copies stay resident with the allocator).
    let mut total = 0usize;
    let mut scratch = Vec::new();
    for node in &nodes {
        scratch.clear();
        eval_node(node, lookup, &mut scratch, max - total).map_err(|e| error(e, last_expr))?;
        total += scratch.len();
        if let Node::Func(f) = node {
            last_expr = (f.start, f.end);
        }
    }
    drop(scratch);
    let mut out = Vec::with_capacity(total);
    for node in &nodes {
        eval_node(node, lookup, &mut out, max).map_err(|e| error(e, last_expr))?;
    }
    // drone works on bytes: `${N:0:1}` of a non-ASCII value can split a character. Go would
    // carry the broken bytes on; a Rust string cannot, so they become U+FFFD.
    Ok(match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Turn a [`SubstError`] for `file` into one [`Diagnostic`].
pub fn to_diagnostic(err: SubstError, file: &Arc<SourceFile>) -> Diagnostic {
    match err {
        SubstError::Missing(list) => missing_diagnostic(&list, file),
        SubstError::Syntax { message, span } => syntax_diagnostic(&message, span, file),
        SubstError::TooLarge { limit, span } => Diagnostic::error(
            Code::InputSubstitution,
            format!("cannot substitute variables: the substituted text would exceed {limit} bytes"),
        )
        .with_help("the limit on input is --max-input-bytes")
        .with_span(file, span, "the text grows past the limit here")
        .with_help(
            "variable values are expanded in full at every use; use fewer or shorter values, \
             or raise the limit with --max-input-bytes",
        ),
    }
}

/// All variable names clusterctl sees in `text` (sorted, unique), as `clusterctl generate
/// cluster --list-variables` lists them: only top-level expressions count, so `NAMESPACE` in
/// `${CLUSTER_CLASS_NAMESPACE:-${NAMESPACE}}` is not listed. A syntax error ends the list
/// where it occurs (clusterctl reports the error instead).
pub fn variables(text: &str) -> Vec<String> {
    variable_defaults(text).into_keys().collect()
}

/// Each variable of [`variables`] with its default as clusterctl spells it (`None`: required),
/// taken from its first occurrence; nested expressions in a default are shown as `${NAME}`.
/// This is clusterctl's `GetVariableMap`, which splits `--list-variables` into required and
/// optional ones.
pub fn variable_defaults(text: &str) -> BTreeMap<String, Option<String>> {
    let norm = Normalized::new(text);
    let mut nodes = Vec::new();
    // The nodes parsed before an error are kept; see `variables`.
    let _ = Parser::new(&norm.text).parse_template(&mut nodes);
    let mut out = BTreeMap::new();
    for node in &nodes {
        if let Node::Func(f) = node {
            out.entry(f.param.clone()).or_insert_with(|| {
                let d = f.default_text();
                (!d.is_empty()).then_some(d)
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
