/*!
Composition: granit-parser events → one node tree per document, like yaml.v2's `parser`
(anchors are registered when a node *starts*, so a self-referencing alias is representable and
reported later by the decoder, as Go does).

Nothing here resolves scalars; it only records text, style, tag and byte spans. The tree lives in
an arena indexed by [`NodeId`], so aliases are plain indices and building never recurses.
*/

use std::collections::HashMap;

use granit_parser::{
    ErrorKind, Event, Parser, ScalarStyle, ScanError, StrInput, StructureStyle, options,
};

use super::error::YamlError;
use crate::source::Span;

use super::bounds::{
    MAX_DOCUMENT_NODES, RUN_BATCH, charge, ends_in_unterminated_line, slash_escape,
    yaml11_line_break,
};

/// Charge `n` more nodes to the run; the error, at `span`, once the run's total passes its
/// bound.
fn charge_run(n: usize, span: Span) -> Result<(), YamlError> {
    let Err(limit) = charge(n) else {
        return Ok(());
    };
    Err(YamlError::new(
        format!(
            "input too large: the inputs of this run hold more than {limit} YAML nodes (--max-yaml-nodes)"
        ),
        span,
        "the run's node budget runs out in this document",
    )
    .with_help("every input is read into memory; give fewer inputs to one run, or raise --max-yaml-nodes")
    .limit())
}

/// Index of a node in [`Composed::nodes`].
pub(super) type NodeId = usize;

/// One YAML node as the parser saw it.
#[derive(Debug)]
pub(super) struct Node {
    pub kind: NodeKind,
    /// Byte span of the node's content (the `*name` token for an alias).
    pub span: Span,
}

#[derive(Debug)]
pub(super) enum NodeKind {
    Scalar {
        value: String,
        /// libyaml's `plain_implicit`: an untagged plain scalar, or one tagged `!`.
        implicit: bool,
        /// The expanded tag (`tag:yaml.org,2002:int`, `!foo`, `!`).
        tag: Option<String>,
    },
    Seq(Vec<NodeId>),
    Map(Vec<(NodeId, NodeId)>),
    Alias {
        target: NodeId,
        name: String,
    },
}

/// One document's node tree.
#[derive(Debug)]
pub(super) struct Composed {
    pub nodes: Vec<Node>,
    pub root: NodeId,
    /// The document's extent: from an explicit `---` (or the root node) to the end of the root
    /// node (or an explicit `...`).
    pub span: Span,
}

/// Reads documents one at a time from a YAML stream.
pub(super) struct Composer<'a> {
    parser: Parser<'a, StrInput<'a>>,
    text: &'a str,
    finished: bool,
    /// Where the previous document ended: the text from here to the next document is checked
    /// for what YAML 1.1 reads differently from granit's YAML 1.2 ([`check_line_breaks`],
    /// [`check_directives`]).
    checked_upto: usize,
    /// Whether this reading's nodes count against the run's budget (not when a document is
    /// read again for its spans).
    charged: bool,
}

/// What composing one document keeps between its events.
struct Doc {
    /// Where its explicit `---` is, if it has one.
    start: Option<usize>,
    nodes: Vec<Node>,
    /// Anchor ids (the parser's) to the nodes they name.
    anchors: HashMap<usize, NodeId>,
    /// The collections open at this point.
    stack: Vec<Frame>,
    root: Option<NodeId>,
    /// Nodes already charged to the run.
    paid: usize,
}

impl Doc {
    /// A collection starts at `span`: its node, registered before its children exactly like
    /// yaml.v2, and its frame.
    fn open(&mut self, kind: NodeKind, style: StructureStyle, anchor: usize, span: Span) {
        let id = self.nodes.len();
        self.nodes.push(Node { kind, span });
        if anchor != 0 {
            self.anchors.insert(anchor, id);
        }
        self.stack.push(Frame {
            id,
            pending_key: None,
            last_end: span.offset + span.len,
            flow: matches!(style, StructureStyle::Flow),
        });
    }
}

/// An open collection while its children are read.
struct Frame {
    id: NodeId,
    /// A mapping key waiting for its value.
    pending_key: Option<NodeId>,
    /// End of the last child, for block collections whose end event carries no position.
    last_end: usize,
    /// A `[...]` / `{...}` collection.
    flow: bool,
}

impl<'a> Composer<'a> {
    pub fn new(text: &'a str) -> Composer<'a> {
        // Comments are presentation only; not asking for them saves work. Nesting limits stay at
        // granit's defaults (255 flow + 255 block levels), which keeps every later recursion
        // shallow; Go allows 10,000, but no real manifest comes close.
        // Anchor events give us anchor names to check against YAML 1.1's stricter syntax.
        let opts = options! { emit_comments: false, emit_anchor_events: true };
        Composer {
            parser: Parser::new_from_str_with_options(text, opts),
            text,
            finished: false,
            checked_upto: 0,
            charged: false,
        }
    }

    /// A composer whose nodes count against the run's budget ([`limit_run`]).
    pub fn charged(text: &'a str) -> Composer<'a> {
        Composer {
            charged: true,
            ..Composer::new(text)
        }
    }

    /// The next document, or `None` at the end of the stream.
    pub fn next_document(&mut self) -> Result<Option<Composed>, YamlError> {
        if self.finished {
            return Ok(None);
        }
        let Some(start) = self.document_start()? else {
            return Ok(None);
        };
        let mut doc = Doc {
            start,
            nodes: Vec::new(),
            anchors: HashMap::new(),
            stack: Vec::new(),
            root: None,
            paid: 0,
        };
        loop {
            let Some((event, span)) = self.next_event()? else {
                return Err(self.internal(span_at(self.text.len()), "unexpected end of events"));
            };
            self.count(&mut doc, &event, span)?;
            // A finished node (scalar, alias, or a closed collection) to attach to its parent.
            let done: NodeId = match event {
                Event::DocumentEnd => return self.end_document(doc, span).map(Some),
                Event::Scalar(value, style, anchor, tag) => {
                    let tag = tag.map(|t| format!("{}{}", t.handle(), t.suffix()));
                    self.scalar(&mut doc, value, style, anchor, tag, span)?
                }
                Event::Alias(anchor) => self.alias(&mut doc, anchor, span)?,
                Event::Anchor(_, name) => {
                    check_anchor_name(&name, span).map_err(|e| self.fail(e))?;
                    continue;
                }
                Event::SequenceStart(style, anchor, _) => {
                    doc.open(NodeKind::Seq(Vec::new()), style, anchor, span);
                    continue;
                }
                Event::MappingStart(style, anchor, _) => {
                    doc.open(NodeKind::Map(Vec::new()), style, anchor, span);
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => self.close(&mut doc, span)?,
                // StreamStart, comments and other metadata events carry no data.
                _ => continue,
            };
            self.attach(&mut doc, done, span)?;
        }
    }

    /// Skip to the start of the next document: `Some` with the offset of its explicit `---`,
    /// if any; `None` at the end of the stream.
    fn document_start(&mut self) -> Result<Option<Option<usize>>, YamlError> {
        loop {
            match self.next_event()? {
                None | Some((Event::StreamEnd, _)) => {
                    self.finished = true;
                    return Ok(None);
                }
                Some((Event::DocumentStart(explicit, _), span)) => {
                    // Directives can only stand between documents, before an explicit `---`.
                    if explicit {
                        let region = self.text.get(self.checked_upto..span.offset).unwrap_or("");
                        check_directives(region, self.checked_upto).map_err(|e| self.fail(e))?;
                    }
                    return Ok(Some(explicit.then_some(span.offset)));
                }
                Some(_) => {}
            }
        }
    }

    /// Charge the document's new nodes to the run in batches (and at its end), and refuse a
    /// node past [`MAX_DOCUMENT_NODES`].
    fn count(&mut self, doc: &mut Doc, event: &Event<'a>, span: Span) -> Result<(), YamlError> {
        if self.charged
            && (doc.nodes.len() - doc.paid >= RUN_BATCH || matches!(event, Event::DocumentEnd))
        {
            let n = doc.nodes.len() - doc.paid;
            doc.paid = doc.nodes.len();
            charge_run(n, span).map_err(|e| self.fail(e))?;
        }
        if doc.nodes.len() >= MAX_DOCUMENT_NODES
            && matches!(
                event,
                Event::Scalar(..)
                    | Event::Alias(_)
                    | Event::SequenceStart(..)
                    | Event::MappingStart(..)
            )
        {
            return Err(self.fail(
                YamlError::new(
                    format!("document too large: more than {MAX_DOCUMENT_NODES} nodes"),
                    span,
                    "this node is one too many",
                )
                .with_help(
                    "a Kubernetes object is at most 1.5 MiB; split the input into several \
                     documents (`---`)",
                ),
            ));
        }
        Ok(())
    }

    /// The document ended at `span`: check what YAML 1.1 reads differently up to the next
    /// document, and hand the tree on.
    fn end_document(&mut self, doc: Doc, span: Span) -> Result<Composed, YamlError> {
        let Some(root) = doc.root else {
            return Err(self.internal(span, "document without content"));
        };
        let root_span = doc.nodes.get(root).map_or(span, |n| n.span);
        let start = doc.start.unwrap_or(root_span.offset).min(root_span.offset);
        // An implicit end is an empty span at the *next* token; only an explicit `...` belongs
        // to the document.
        let end = if span.len > 0 {
            span.offset + span.len
        } else {
            root_span.offset + root_span.len
        };
        // Go's parser reads up to the next document marker (trailing comments included), so
        // that is the region checked for YAML 1.1 line breaks.
        let from = self.checked_upto;
        let upto = next_document_marker(self.text, end).max(from);
        let region = self.text.get(from..upto).unwrap_or("");
        check_line_breaks(region, from).map_err(|e| self.fail(e))?;
        self.checked_upto = upto;
        Ok(Composed {
            nodes: doc.nodes,
            root,
            span: Span::new(start, end.saturating_sub(start)),
        })
    }

    /// A scalar node, after the checks of what YAML 1.1 reads differently.
    fn scalar(
        &mut self,
        doc: &mut Doc,
        value: std::borrow::Cow<'a, str>,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<String>,
        span: Span,
    ) -> Result<NodeId, YamlError> {
        let raw = self
            .text
            .get(span.offset..span.offset + span.len)
            .unwrap_or("");
        if matches!(style, ScalarStyle::DoubleQuoted) {
            check_escapes(raw, span.offset).map_err(|e| self.fail(e))?;
        }
        let plain = matches!(style, ScalarStyle::Plain);
        if plain && doc.stack.last().is_some_and(|f| f.flow) {
            self.check_plain_in_flow(raw, span)?;
        }
        let mut value = value;
        // At the end of input without a final line break, YAML 1.1 gives a block scalar no
        // trailing newline; granit adds one.
        if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
            && span.offset + span.len >= self.text.len()
            && ends_in_unterminated_line(self.text)
            && value.ends_with('\n')
        {
            value.to_mut().pop();
        }
        // granit reports an empty plain scalar as "~"; yaml.v2 sees "", which only differs
        // under `!!str`.
        let value = if plain && span.len == 0 {
            String::new()
        } else {
            value.into_owned()
        };
        let implicit = (plain && tag.is_none()) || tag.as_deref() == Some("!");
        let id = doc.nodes.len();
        doc.nodes.push(Node {
            kind: NodeKind::Scalar {
                value,
                implicit,
                tag,
            },
            span,
        });
        if anchor != 0 {
            doc.anchors.insert(anchor, id);
        }
        Ok(id)
    }

    /// In a flow collection YAML 1.1 always reads `:` as the value indicator, so a plain scalar
    /// cannot start with it there (YAML 1.2 allows `[:a]`). Likewise `?` ends a plain scalar
    /// there (it starts a complex key).
    fn check_plain_in_flow(&mut self, raw: &str, span: Span) -> Result<(), YamlError> {
        if raw.starts_with(':') {
            return Err(self.fail(
                YamlError::new(
                    "did not find expected node content: YAML 1.1 reads `:` in a flow \
                     collection as a key/value separator",
                    Span::new(span.offset, 1),
                    "here",
                )
                .with_help("quote the value"),
            ));
        }
        if let Some(q) = raw.find('?') {
            return Err(self.fail(
                YamlError::new(
                    "YAML 1.1 does not allow `?` inside an unquoted value in a flow collection",
                    Span::new(span.offset + q, 1),
                    "here",
                )
                .with_help("quote the value"),
            ));
        }
        Ok(())
    }

    /// An alias node: its anchor must be known (registered when its node started).
    fn alias(&mut self, doc: &mut Doc, anchor: usize, span: Span) -> Result<NodeId, YamlError> {
        let Some(&target) = doc.anchors.get(&anchor) else {
            return Err(YamlError::new(
                "unknown anchor referenced by alias",
                span,
                "unknown anchor",
            ));
        };
        let name = self
            .text
            .get(span.offset..span.offset + span.len)
            .unwrap_or("")
            .trim_start_matches('*')
            .to_string();
        check_anchor_name(&name, span).map_err(|e| self.fail(e))?;
        let id = doc.nodes.len();
        doc.nodes.push(Node {
            kind: NodeKind::Alias { target, name },
            span,
        });
        Ok(id)
    }

    /// The open collection ends at `span`: its node's extent is settled.
    fn close(&mut self, doc: &mut Doc, span: Span) -> Result<NodeId, YamlError> {
        let Some(frame) = doc.stack.pop() else {
            return Err(self.internal(span, "unbalanced collection end"));
        };
        let node = doc
            .nodes
            .get_mut(frame.id)
            .ok_or_else(|| YamlError::internal_at(span, "missing collection node"))?;
        if frame.pending_key.is_some() {
            return Err(self.internal(span, "mapping key without value"));
        }
        // Flow collections end at their bracket; block ones (whose end event is an empty span
        // at the next token) at their last child.
        let end = if span.len > 0 {
            span.offset + span.len
        } else {
            frame.last_end
        };
        node.span = Span::new(node.span.offset, end.saturating_sub(node.span.offset));
        Ok(frame.id)
    }

    /// Attach the finished node `done` to the open collection, or make it the root.
    fn attach(&mut self, doc: &mut Doc, done: NodeId, span: Span) -> Result<(), YamlError> {
        let done_end = doc
            .nodes
            .get(done)
            .map_or(0, |n| n.span.offset + n.span.len);
        let Some(frame) = doc.stack.last_mut() else {
            if doc.root.is_some() {
                return Err(self.internal(span, "second root node"));
            }
            doc.root = Some(done);
            return Ok(());
        };
        frame.last_end = frame.last_end.max(done_end);
        let parent = doc
            .nodes
            .get_mut(frame.id)
            .ok_or_else(|| YamlError::internal_at(span, "missing parent node"))?;
        match &mut parent.kind {
            NodeKind::Seq(items) => items.push(done),
            NodeKind::Map(pairs) => match frame.pending_key.take() {
                None => frame.pending_key = Some(done),
                Some(key) => pairs.push((key, done)),
            },
            _ => return Err(self.internal(span, "child of a scalar")),
        }
        Ok(())
    }

    fn next_event(&mut self) -> Result<Option<(Event<'a>, Span)>, YamlError> {
        match self.parser.next() {
            None => Ok(None),
            Some(Ok((event, span))) => {
                // Spans from a string input always carry byte offsets; fall back to an empty span
                // at the end rather than trusting character indices.
                let span = match span.byte_range() {
                    Some(r) => Span::new(r.start, r.end.saturating_sub(r.start)),
                    None => span_at(self.text.len()),
                };
                Ok(Some((event, span)))
            }
            Some(Err(e)) => {
                self.finished = true;
                Err(scan_error(self.text, &e))
            }
        }
    }

    fn internal(&mut self, span: Span, what: &str) -> YamlError {
        self.fail(YamlError::internal_at(span, what))
    }

    fn fail(&mut self, e: YamlError) -> YamlError {
        self.finished = true;
        e
    }
}

/// libyaml accepts only ASCII letters, digits, `-` and `_` in anchor and alias names (YAML 1.2
/// allows almost anything).
fn check_anchor_name(name: &str, span: Span) -> Result<(), YamlError> {
    if !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Ok(());
    }
    Err(YamlError::new(
        format!("invalid anchor or alias name `{name}`"),
        span,
        "here",
    )
    .with_help("YAML 1.1 anchor names may contain only ASCII letters, digits, '-' and '_'"))
}

/// The start of the first line at or after `from` that begins with a document marker (`---` or
/// `...` followed by a space, tab, line break or the end), or the end of the text.
fn next_document_marker(text: &str, from: usize) -> usize {
    let mut offset = text
        .get(..from)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    for line in text.get(offset..).unwrap_or("").split_inclusive('\n') {
        if offset >= from
            && (line.starts_with("---") || line.starts_with("..."))
            && line
                .get(3..)
                .and_then(|r| r.chars().next())
                .is_none_or(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
        {
            return offset;
        }
        offset += line.len();
    }
    text.len()
}

/// YAML 1.1 (libyaml, yaml.v2) treats NEL, LS and PS as line breaks — a plain value or comment
/// containing one is split there by kubectl — while granit (YAML 1.2) reads them as ordinary
/// characters. Rather than guess, reject them (in quoted strings too, where Go folds them).
pub(super) fn check_line_breaks(region: &str, base: usize) -> Result<(), YamlError> {
    let found = yaml11_line_break(region);
    match found {
        None => Ok(()),
        Some((i, c)) => Err(YamlError::new(
            format!(
                "character U+{:04X} is a line break in YAML 1.1, as Kubernetes reads it",
                u32::from(c)
            ),
            Span::new(base + i, c.len_utf8()),
            "line break character",
        )
        .with_help(format!(
            "remove it, or write it as the escape \\u{:04X} inside a double-quoted string",
            u32::from(c)
        ))),
    }
}

/// yaml.v2 knows only the `%YAML 1.1` and `%TAG` directives; granit silently ignores unknown
/// ones and accepts other YAML versions. `region` holds only comments, blank lines, `...` and
/// directives (it precedes a `---`), so a line starting with `%` is a directive.
fn check_directives(region: &str, base: usize) -> Result<(), YamlError> {
    let mut offset = base;
    for line in region.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let Some(body) = line.strip_prefix('%') else {
            continue;
        };
        let body = body.split('#').next().unwrap_or("");
        let mut words = body.split_whitespace();
        let name = words.next().unwrap_or("");
        let span = Span::new(start, line.trim_end().len());
        match name {
            "TAG" => {}
            "YAML" => {
                if words.next() != Some("1.1") {
                    return Err(YamlError::new(
                        "found incompatible YAML document: only `%YAML 1.1` is accepted",
                        span,
                        "version directive",
                    )
                    .with_help(
                        "Kubernetes reads YAML 1.1 and rejects other version directives; \
                         remove the directive",
                    ));
                }
            }
            _ => {
                return Err(YamlError::new(
                    format!("found unknown directive name `%{name}`"),
                    span,
                    "unknown directive",
                )
                .with_help("only %YAML and %TAG directives exist"));
            }
        }
    }
    Ok(())
}

/// YAML 1.1 has no `\/` escape (JSON and YAML 1.2 do); yaml.v2 rejects it.
pub(super) fn check_escapes(raw: &str, base: usize) -> Result<(), YamlError> {
    match slash_escape(raw) {
        None => Ok(()),
        Some(i) => Err(YamlError::new(
            "found unknown escape character `\\/` (YAML 1.1 has no such escape)",
            Span::new(base + i, 2),
            "unknown escape",
        )
        .with_help("write a plain `/` instead")),
    }
}

fn span_at(offset: usize) -> Span {
    Span::new(offset, 0)
}

/// A granit error as our error: the message names what the parser expected, the span points at
/// the character where it gave up (one character wide so renderers can underline it).
fn scan_error(text: &str, e: &ScanError) -> YamlError {
    let mark = e.marker();
    let offset = match mark.byte_offset() {
        Some(b) => b,
        // Character index → byte offset (never used for string input, but never guess).
        None => text
            .char_indices()
            .nth(mark.index())
            .map_or(text.len(), |(b, _)| b),
    };
    let mut offset = offset.min(text.len());
    let kind = e.kind();
    // granit reports a tab in indentation after the tab; point at the first tab of the line's
    // indentation instead, which is what the user has to change.
    if matches!(
        kind,
        ErrorKind::TabInBlockIndentation | ErrorKind::TabInIndentation | ErrorKind::TabNotAllowed
    ) {
        let before = text.get(..offset).unwrap_or("");
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        if let Some(tab) = before.get(line_start..).and_then(|l| l.find('\t')) {
            offset = line_start + tab;
        }
    }
    let width = text
        .get(offset..)
        .and_then(|s| s.chars().next())
        .map_or(0, char::len_utf8);
    let err = YamlError::new(
        format!("invalid YAML: {kind}"),
        Span::new(offset, width),
        label_for(kind),
    );
    match help_for(kind) {
        Some(h) => err.with_help(h),
        None => err,
    }
}

fn label_for(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::UnclosedFlowCollection { .. } => "opened here and never closed",
        ErrorKind::UnclosedQuotedScalar => "quote opened here",
        ErrorKind::TabInBlockIndentation | ErrorKind::TabInIndentation => "tab here",
        ErrorKind::RecursionLimitExceeded => "too deep",
        _ => "here",
    }
}

fn help_for(kind: &ErrorKind) -> Option<&'static str> {
    Some(match kind {
        ErrorKind::UnclosedFlowCollection { .. }
        | ErrorKind::UnexpectedEofFlowSequence
        | ErrorKind::UnexpectedEofFlowMapping => {
            "expected the closing bracket of this flow collection before the end of the input"
        }
        ErrorKind::ExpectedFlowSequenceSeparator => "expected ',' or ']' in this flow sequence",
        ErrorKind::ExpectedFlowMappingSeparator => "expected ',' or '}' in this flow mapping",
        ErrorKind::InvalidColonPlacement => {
            "a flow collection ([...] or {...}) is probably not closed before this line"
        }
        ErrorKind::ExpectedBlockMappingKey | ErrorKind::InvalidIndentation => {
            "expected a `key: value` line aligned with the other keys of this mapping; check the \
             indentation"
        }
        ErrorKind::ExpectedBlockSequenceEntry => {
            "expected a `- item` line aligned with the other items of this sequence; check the \
             indentation"
        }
        ErrorKind::TabInBlockIndentation
        | ErrorKind::TabInIndentation
        | ErrorKind::TabNotAllowed => {
            "YAML does not allow tabs for indentation; indent with spaces"
        }
        ErrorKind::MappingValueNotAllowed => {
            "a value cannot contain ': ' unless it is quoted; quote the value or fix the \
             indentation"
        }
        ErrorKind::UnclosedQuotedScalar | ErrorKind::InvalidQuotedScalarIndent => {
            "expected the closing quote of this string (quoted strings continued on a new line \
             must be indented)"
        }
        ErrorKind::RecursionLimitExceeded => "collections may be nested at most 255 levels deep",
        ErrorKind::UnknownAnchor => "define the anchor (`&name`) before using the alias (`*name`)",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compose(text: &str) -> Vec<Composed> {
        let mut c = Composer::new(text);
        let mut out = Vec::new();
        while let Some(d) = c.next_document().unwrap() {
            out.push(d);
        }
        out
    }

    #[test]
    fn self_alias_is_composed_and_left_to_the_decoder() {
        let docs = compose("a: &x [1, *x]\n");
        let doc = &docs[0];
        assert!(
            doc.nodes
                .iter()
                .any(|n| matches!(&n.kind, NodeKind::Alias { name, .. } if name == "x"))
        );
    }

    #[test]
    fn empty_plain_scalar_is_empty_text() {
        let docs = compose("a:\nb: !!str\n");
        let vals: Vec<_> = docs[0]
            .nodes
            .iter()
            .filter_map(|n| match &n.kind {
                NodeKind::Scalar { value, .. } => Some(value.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(vals, ["a", "", "b", ""]);
    }

    #[test]
    fn documents_and_extents() {
        let text = "a: 1\n---\nb: [1, 2]\n...\n";
        let docs = compose(text);
        assert_eq!(docs.len(), 2);
        let s = docs[1].span;
        assert_eq!(&text[s.offset..s.offset + s.len], "---\nb: [1, 2]\n...");
        let s = docs[0].span;
        assert_eq!(&text[s.offset..s.offset + s.len], "a: 1");
    }

    #[test]
    fn collection_spans() {
        let text = "k: {a: 1, b: [x]}\nl:\n  - 1\n  - 2\n";
        let docs = compose(text);
        let spans: Vec<&str> = docs[0]
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Seq(_) | NodeKind::Map(_)))
            .map(|n| &text[n.span.offset..n.span.offset + n.span.len])
            .collect();
        assert_eq!(spans[1], "{a: 1, b: [x]}");
        assert_eq!(spans[2], "[x]");
        assert_eq!(spans[3], "- 1\n  - 2");
    }
}
