/*!
A scanner for block YAML as generators write it (controller-gen's CRDs, kustomize and kubectl
output): the events granit's parser gives for that subset, read line by line, for the span-free
path ([`super::fast`]).

Owns the subset, and the rule that makes it safe to read this way: on anything outside it the
scanner gives up ([`None`]), and the caller throws away what it read of the text and reads the
whole text with granit instead. So a text read here reads as granit reads it, or is not read
here at all (tested against granit on the fixtures, on generated documents and on mutations of
them, `tests` below).

The subset: a text of lines of printable characters (no tab), each ending in `\n`, made of
- blank lines, comment lines (`#` after the indentation) and `---` lines (a document start);
- per document, one block mapping at the root, whose entries are `key: value` or `key:` with the
  value on the following lines (a deeper block collection, or a block sequence at the key's own
  indentation), with plain keys of letters, digits and `-_./$`;
- block sequences of `- value` and `- key: value` (a mapping in the item);
- values on one line: plain scalars that cannot be read otherwise (no indicator first, no `: `,
  no ` #`, no `:` at the end), single-quoted scalars, double-quoted scalars with no escapes
  but `\\`, `\"`, `\n`, `\t` and `\ `, `[]` and `{}`, the scalars going on over deeper lines; and, as
  mapping values, literal and folded block scalars (`|`, `|-`, `>`, `>-`) with no leading blank
  line (folded ones with no deeper line).

The events' spans are what the reader uses them for: scalars' raw text, collections' starts,
documents' starts. Where granit's span of a value could differ in a way the reader would see (a
document whose last value is a block scalar or an empty one, whose end it takes for the
document's), the scanner gives up too.
*/

use std::borrow::Cow;
use std::collections::VecDeque;

use granit_parser::{Event, ScalarStyle, StructureStyle};

use crate::source::Span;

/// The deepest nesting read here, well inside granit's own bound (255 levels of block
/// collections), which a deeper text then meets as it would without this scanner.
const MAX_DEPTH: usize = 128;

/// The longest key read here, well inside the 1,024 characters YAML allows a key written
/// without `?` (a longer one is granit's to read or refuse).
const MAX_KEY: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Map,
    Seq,
}

/// An open block collection: its kind and the indentation of its keys or dashes.
#[derive(Debug, Clone, Copy)]
struct Open {
    kind: Kind,
    indent: usize,
}

/// The events of one text, for [`super::fast`]'s reader.
pub(super) struct Block<'a> {
    text: &'a str,
    /// Where the next line starts.
    pos: usize,
    /// Events made and not yet taken: a line makes a few at once.
    out: VecDeque<(Event<'a>, Span)>,
    open: Vec<Open>,
    /// A key whose value is on the lines after it: the indentation of its mapping, and where
    /// an empty value would be.
    pending: Option<(usize, usize)>,
    /// Inside a document.
    in_document: bool,
    /// The last value made is one whose end granit may place elsewhere (see the module docs).
    last_unsure: bool,
    ended: bool,
}

impl<'a> Block<'a> {
    /// A scanner of `text`, or `None` where the text as a whole is outside the subset.
    pub(super) fn new(text: &'a str) -> Option<Block<'a>> {
        if !printable(text) || !(text.is_empty() || text.ends_with('\n')) {
            return None;
        }
        Some(Block {
            text,
            pos: 0,
            out: VecDeque::new(),
            open: Vec::new(),
            pending: None,
            in_document: false,
            last_unsure: false,
            ended: false,
        })
    }

    /// The next event; `None` where the text leaves the subset (or after the stream's end).
    pub(super) fn next(&mut self) -> Option<(Event<'a>, Span)> {
        loop {
            if let Some(e) = self.out.pop_front() {
                return Some(e);
            }
            if self.ended {
                return None;
            }
            self.line()?;
        }
    }

    /// Read the next line (or the end of the text) into events.
    fn line(&mut self) -> Option<()> {
        let text = self.text;
        let start = self.pos;
        if start >= text.len() {
            self.end_document()?;
            self.out
                .push_back((Event::StreamEnd, Span::new(text.len(), 0)));
            self.ended = true;
            return Some(());
        }
        let end = line_end(text, start);
        self.pos = end + 1;
        let line = &text[start..end];
        let indent = spaces(line);
        let content = &line[indent..];
        if content.is_empty() || content.starts_with('#') {
            return Some(());
        }
        if line == "---" {
            self.end_document()?;
            self.out
                .push_back((Event::DocumentStart(true, None), Span::new(start, 3)));
            self.in_document = true;
            return Some(());
        }
        // Markers with something after them, document ends: granit's.
        if line.starts_with("---") || line.starts_with("...") {
            return None;
        }
        if !self.in_document {
            self.out
                .push_back((Event::DocumentStart(false, None), Span::new(start, 0)));
            self.in_document = true;
        }
        self.content(start + indent, indent, content)
    }

    /// A line of content at `indent` (its text `c` starting at byte `at`).
    fn content(&mut self, at: usize, indent: usize, c: &'a str) -> Option<()> {
        let item = c == "-" || c.starts_with("- ");
        let mut opened = false;
        if let Some((map_indent, empty_at)) = self.pending.take() {
            if indent > map_indent || (indent == map_indent && item) {
                self.start(if item { Kind::Seq } else { Kind::Map }, indent, at)?;
                opened = true;
            } else {
                self.empty_value(empty_at);
            }
        }
        if !opened {
            while let Some(top) = self.open.last().copied() {
                // A sequence at its key's indentation ends at the next key.
                let seq_ends = top.kind == Kind::Seq && indent == top.indent && !item;
                if indent < top.indent || (seq_ends && self.open.len() > 1) {
                    self.end();
                } else {
                    break;
                }
            }
        }
        if self.open.is_empty() {
            // The root, a mapping at the left margin (the root never closes before the end of
            // its document, every line being at its indentation or deeper).
            if indent != 0 || item {
                return None;
            }
            self.start(Kind::Map, 0, at)?;
        }
        let top = *self.open.last()?;
        if top.indent != indent {
            return None;
        }
        match (top.kind, item) {
            (Kind::Map, false) => self.entry(at, indent, c),
            (Kind::Seq, true) => self.item(at, indent, c),
            _ => None,
        }
    }

    /// `key: value` or `key:` of the mapping at `indent`.
    fn entry(&mut self, at: usize, indent: usize, c: &'a str) -> Option<()> {
        let key_len = key_len(c)?;
        self.out.push_back((
            Event::Scalar(Cow::Borrowed(&c[..key_len]), ScalarStyle::Plain, 0, None),
            Span::new(at, key_len),
        ));
        let after = &c[key_len + 1..];
        let rest = after.trim_start_matches(' ');
        if rest.is_empty() {
            self.pending = Some((indent, at + key_len + 1));
            return Some(());
        }
        let rest_at = at + key_len + 1 + (after.len() - rest.len());
        if rest.starts_with(['|', '>']) {
            return self.block_scalar(rest_at, indent, rest);
        }
        self.value(rest_at, indent, rest)
    }

    /// `- value` or `- key: value` of the sequence at `indent`.
    fn item(&mut self, at: usize, indent: usize, c: &'a str) -> Option<()> {
        // A bare `-` (a null item, or its value on the next lines): granit's.
        let after = c.get(2..)?;
        let rest = after.trim_start_matches(' ');
        if rest.is_empty() || rest == "-" || rest.starts_with("- ") {
            return None;
        }
        let column = indent + 2 + (after.len() - rest.len());
        let rest_at = at + (column - indent);
        if key_len(rest).is_some() {
            self.start(Kind::Map, column, rest_at)?;
            return self.entry(rest_at, column, rest);
        }
        if rest.starts_with(['|', '>']) {
            return None;
        }
        self.value(rest_at, indent, rest)
    }

    /// A value starting on its key's or dash's line, in a collection at `indent`: a quoted
    /// scalar, a plain one (on that line and any deeper lines after it), `[]` or `{}`.
    fn value(&mut self, at: usize, indent: usize, rest: &'a str) -> Option<()> {
        let (event, len) = match rest.as_bytes().first()? {
            b'[' | b'{' => return self.empty_flow(at, rest),
            b'\'' | b'"' => return self.quoted(at, indent, rest),
            _ => {
                let first = plain(rest)?;
                let (value, end) = self.plain_lines(first, at, indent)?;
                (Event::Scalar(value, ScalarStyle::Plain, 0, None), end - at)
            }
        };
        self.out.push_back((event, Span::new(at, len)));
        self.last_unsure = false;
        Some(())
    }

    /// A quoted scalar starting `rest` (at byte `at`), closed on its line or on a later one
    /// deeper than `indent` and with nothing after it; its lines folded as YAML folds them.
    /// Double-quoted scalars are read only with the escapes [`quoted_end`] accepts.
    fn quoted(&mut self, at: usize, indent: usize, rest: &'a str) -> Option<()> {
        let quote = rest.as_bytes()[0];
        let style = if quote == b'"' {
            ScalarStyle::DoubleQuoted
        } else {
            ScalarStyle::SingleQuoted
        };
        let text = self.text;
        // The piece of the first line, then of each line after it.
        let mut piece = &rest[1..];
        let mut piece_at = at + 1;
        let mut value: Cow<'a, str> = Cow::Borrowed("");
        let mut first = true;
        let mut blank = 0;
        loop {
            let (close, escaped) = quoted_end(piece, quote)?;
            let content = match close {
                Some(i) => &piece[..i],
                None => piece.trim_end_matches(' '),
            };
            // A line ending in `\`: an escaped line break, or an escaped space the trimming
            // took apart: granit's.
            if close.is_none() && content.ends_with('\\') {
                return None;
            }
            if !first {
                fold(value.to_mut(), blank);
            }
            match (escaped, &mut value) {
                (false, Cow::Borrowed("")) => value = Cow::Borrowed(content),
                (false, v) => v.to_mut().push_str(content),
                (true, v) => unescape(content, quote, v.to_mut()),
            }
            if let Some(i) = close {
                let end = piece_at + i + 1;
                if !piece[i + 1..].bytes().all(|x| x == b' ') {
                    return None;
                }
                self.out.push_back((
                    Event::Scalar(value, style, 0, None),
                    Span::new(at, end - at),
                ));
                self.last_unsure = false;
                return Some(());
            }
            // The scalar goes on: the next line that is not blank, deeper than `indent`.
            first = false;
            blank = 0;
            loop {
                let p = self.pos;
                if p >= text.len() {
                    return None;
                }
                let line_end = line_end(text, p);
                self.pos = line_end + 1;
                let line = &text[p..line_end];
                let ind = spaces(line);
                if ind == line.len() {
                    blank += 1;
                    continue;
                }
                if ind <= indent {
                    return None;
                }
                piece = &line[ind..];
                piece_at = p + ind;
                break;
            }
        }
    }

    /// A plain scalar whose first line is `first` (at byte `at`) with the lines after it that
    /// continue it (deeper than `indent`), folded as YAML folds them; and its end.
    fn plain_lines(
        &mut self,
        first: &'a str,
        at: usize,
        indent: usize,
    ) -> Option<(Cow<'a, str>, usize)> {
        let text = self.text;
        let mut value = Cow::Borrowed(first);
        let mut end = at + first.len();
        let mut p = self.pos;
        let mut blank = 0;
        while p < text.len() {
            let line_end = line_end(text, p);
            let line = &text[p..line_end];
            let ind = spaces(line);
            if ind == line.len() {
                blank += 1;
                p = line_end + 1;
                continue;
            }
            let piece = line[ind..].trim_end_matches(' ');
            if ind <= indent || piece.starts_with('#') {
                break;
            }
            // Text only: nothing a key or a comment could start (an indicator is text here).
            if piece.ends_with(':') || piece.contains(": ") || piece.contains(" #") {
                return None;
            }
            let v = value.to_mut();
            fold(v, blank);
            v.push_str(piece);
            blank = 0;
            end = p + ind + piece.len();
            p = line_end + 1;
            self.pos = p;
        }
        Some((value, end))
    }

    /// `[]` or `{}`: granit's events for an empty flow collection.
    fn empty_flow(&mut self, at: usize, rest: &str) -> Option<()> {
        let (start, end) = match rest.trim_end_matches(' ') {
            "[]" => (
                Event::SequenceStart(StructureStyle::Flow, 0, None),
                Event::SequenceEnd,
            ),
            "{}" => (
                Event::MappingStart(StructureStyle::Flow, 0, None),
                Event::MappingEnd,
            ),
            _ => return None,
        };
        self.out.push_back((start, Span::new(at, 1)));
        self.out.push_back((end, Span::new(at + 1, 1)));
        self.last_unsure = false;
        Some(())
    }

    /// A block scalar whose header `rest` (at byte `at`) ends a key's line, the key's mapping
    /// being at `indent`: its lines are read here, up to the first less indented one.
    fn block_scalar(&mut self, at: usize, indent: usize, rest: &str) -> Option<()> {
        let (literal, strip) = match rest.trim_end_matches(' ') {
            "|" => (true, false),
            "|-" => (true, true),
            ">" => (false, false),
            ">-" => (false, true),
            _ => return None,
        };
        let text = self.text;
        let mut p = self.pos;
        let mut content_indent: Option<usize> = None;
        let mut value = String::new();
        let mut blank = 0usize;
        let mut first = true;
        let mut last_end = at;
        while p < text.len() {
            let end = line_end(text, p);
            let line = &text[p..end];
            let ind = spaces(line);
            if ind == line.len() {
                // A blank line: before the first line of text, or with spaces past the
                // block's indentation (text, in a literal block), it is granit's.
                match content_indent {
                    Some(m) if ind <= m => blank += 1,
                    _ => return None,
                }
                p = end + 1;
                continue;
            }
            let m = *content_indent.get_or_insert(ind);
            if ind < m || ind <= indent {
                break;
            }
            if ind > m && !literal {
                return None;
            }
            let piece = &line[m..];
            if first {
                value.push_str(piece);
            } else if literal {
                value.extend(std::iter::repeat_n('\n', blank + 1));
                value.push_str(piece);
            } else {
                fold(&mut value, blank);
                value.push_str(piece);
            }
            blank = 0;
            first = false;
            last_end = end;
            p = end + 1;
        }
        // No line of text: an empty block scalar, granit's.
        if first {
            return None;
        }
        if !strip {
            value.push('\n');
        }
        self.pos = p;
        let style = if literal {
            ScalarStyle::Literal
        } else {
            ScalarStyle::Folded
        };
        self.out.push_back((
            Event::Scalar(Cow::Owned(value), style, 0, None),
            Span::new(at, last_end - at),
        ));
        self.last_unsure = true;
        Some(())
    }

    /// The empty (null) value of a key with nothing after it.
    fn empty_value(&mut self, at: usize) {
        self.out.push_back((
            Event::Scalar(Cow::Borrowed(""), ScalarStyle::Plain, 0, None),
            Span::new(at, 0),
        ));
        self.last_unsure = true;
    }

    fn start(&mut self, kind: Kind, indent: usize, at: usize) -> Option<()> {
        if self.open.len() >= MAX_DEPTH {
            return None;
        }
        let event = match kind {
            Kind::Map => Event::MappingStart(StructureStyle::Block, 0, None),
            Kind::Seq => Event::SequenceStart(StructureStyle::Block, 0, None),
        };
        self.out.push_back((event, Span::new(at, 0)));
        self.open.push(Open { kind, indent });
        Some(())
    }

    /// Close the innermost collection (a block collection's end has no extent of its own).
    fn end(&mut self) {
        if let Some(o) = self.open.pop() {
            let event = match o.kind {
                Kind::Map => Event::MappingEnd,
                Kind::Seq => Event::SequenceEnd,
            };
            self.out.push_back((event, Span::new(self.pos, 0)));
        }
    }

    fn end_document(&mut self) -> Option<()> {
        if !self.in_document {
            return Some(());
        }
        if let Some((_, at)) = self.pending.take() {
            self.empty_value(at);
        }
        if self.open.is_empty() {
            // `---` and nothing: a null document, which the reader passes over.
            self.empty_value(self.pos);
            self.last_unsure = false;
        }
        while !self.open.is_empty() {
            self.end();
        }
        if self.last_unsure {
            return None;
        }
        self.out
            .push_back((Event::DocumentEnd, Span::new(self.pos, 0)));
        self.in_document = false;
        Some(())
    }
}

/// Whether `text` holds only line feeds and characters YAML reads as printable text
/// everywhere: no tab, no other control character, no byte order mark and no character YAML 1.1
/// reads as a line break.
fn printable(text: &str) -> bool {
    if text.is_ascii() {
        return text
            .bytes()
            .all(|b| b == b'\n' || (b' '..=b'~').contains(&b));
    }
    text.chars().all(|c| {
        matches!(c,
            '\n' | ' '..='~' | '\u{A0}'..='\u{2027}' | '\u{202A}'..='\u{D7FF}'
                | '\u{E000}'..='\u{FEFE}' | '\u{FF00}'..='\u{FFFD}' | '\u{10000}'..)
    })
}

/// The line break between two lines of a folded scalar, with `blank` empty lines between
/// them, as YAML folds it: a space, or a line feed per empty line.
fn fold(out: &mut String, blank: usize) {
    if blank == 0 {
        out.push(' ');
    } else {
        out.extend(std::iter::repeat_n('\n', blank));
    }
}

/// The end of the line starting at `start` (its `\n`, or the text's end).
fn line_end(text: &str, start: usize) -> usize {
    memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i)
}

/// The indentation of `line`.
fn spaces(line: &str) -> usize {
    line.bytes().take_while(|&b| b == b' ').count()
}

/// Where a quoted scalar's text `piece` (after its opening quote, or a line of it after the
/// first) ends: at its closing quote, or `None` at the end of the line; and whether the piece
/// holds an escape (`''`, or `\\`, `\"`, `\n`, `\t`, `\ `). `None` (outer) for a double-quoted
/// scalar with another escape.
fn quoted_end(piece: &str, quote: u8) -> Option<(Option<usize>, bool)> {
    let b = piece.as_bytes();
    let mut escaped = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            // The escapes generators write; any other is granit's.
            b'\\' if quote == b'"' => {
                if !matches!(b.get(i + 1), Some(b'\\' | b'"' | b'n' | b't' | b' ')) {
                    return None;
                }
                escaped = true;
                i += 2;
            }
            b'\'' if quote == b'\'' && b.get(i + 1) == Some(&b'\'') => {
                escaped = true;
                i += 2;
            }
            x if x == quote => return Some((Some(i), escaped)),
            _ => i += 1,
        }
    }
    Some((None, escaped))
}

/// `content` of a quoted scalar with its escapes (those [`quoted_end`] accepts) replaced.
fn unescape(content: &str, quote: u8, out: &mut String) {
    if quote == b'\'' {
        out.push_str(&content.replace("''", "'"));
        return;
    }
    let mut rest = content;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        out.push(match rest.as_bytes().get(i + 1) {
            Some(b'n') => '\n',
            Some(b't') => '\t',
            Some(b'"') => '"',
            Some(b' ') => ' ',
            _ => '\\',
        });
        rest = rest.get(i + 2..).unwrap_or("");
    }
    out.push_str(rest);
}

/// The length of the key that starts `c` when `c` is `key:` or `key: ...` with a plain key of
/// the subset's characters.
fn key_len(c: &str) -> Option<usize> {
    let b = c.as_bytes();
    let first = *b.first()?;
    if !(first.is_ascii_alphanumeric() || matches!(first, b'_' | b'$' | b'/')) {
        return None;
    }
    let n = b
        .iter()
        .take_while(|&&x| {
            x.is_ascii_alphanumeric() || matches!(x, b'-' | b'_' | b'.' | b'/' | b'$')
        })
        .count();
    if n > MAX_KEY || b.get(n) != Some(&b':') || !matches!(b.get(n + 1), None | Some(b' ')) {
        return None;
    }
    Some(n)
}

/// The first line of a plain scalar filling the rest of a line, if it cannot be read as
/// anything else.
fn plain(rest: &str) -> Option<&str> {
    let s = rest.trim_end_matches(' ');
    let b = s.as_bytes();
    let word = b.first() == Some(&b'-') && !matches!(b.get(1), None | Some(b' '));
    if starts_with_indicator(s) && !word {
        return None;
    }
    if s.ends_with(':') || s.contains(": ") || s.contains(" #") {
        return None;
    }
    Some(s)
}

/// Whether `s` starts with an indicator, or is empty: what may not start a plain scalar (`-`
/// may where something other than a space follows).
fn starts_with_indicator(s: &str) -> bool {
    s.as_bytes().first().is_none_or(|b| {
        matches!(
            b,
            b'?' | b':'
                | b','
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
                | b'-'
        )
    })
}

#[cfg(test)]
mod tests {
    use super::super::fast::tests::yaml_files;
    use super::super::fast::{Source, read_from};
    use super::*;
    use granit_parser::{Parser, options};
    use proptest::prelude::*;
    use serde_json::{Value, json};

    type Docs = Vec<(Value, Span)>;

    fn by_block(text: &str) -> Option<Docs> {
        read_from(Source::Block(Block::new(text)?), text, 0, None, 0)
    }

    fn by_granit(text: &str) -> Option<Docs> {
        let opts = options! { emit_comments: false, emit_anchor_events: true };
        let parser = Parser::new_from_str_with_options(text, opts);
        read_from(Source::Granit(Box::new(parser)), text, 0, None, 0)
    }

    /// What the scanner reads, granit reads the same (values and documents' extents); whether
    /// the scanner read it.
    fn same_as_granit(text: &str) -> bool {
        let Some(block) = by_block(text) else {
            return false;
        };
        assert_eq!(Some(block), by_granit(text), "{text:?}");
        true
    }

    #[test]
    fn reads_what_generators_write() {
        let text = "\
# A comment before the document.
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.1
  name: things.example.com
spec:
  names:
    categories:
    - cluster-api
    kind: Thing
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.phase
      name: Phase
      type: string
    name: v1beta1
    schema:
      openAPIV3Schema:
        properties:
          spec:
            description: |-
              A literal block.

                A deeper line, kept as written.
              Last.
            properties:
              mode:
                default: ''
                enum:
                  - On
                  - 'it''s'
                  - \"quoted\"
                  - 'folded over
                    two lines,

                    it''s said'
                type: string
              note:
                description: >
                  Folded
                  over lines.

                  Second paragraph.
                type: string
              size:
                description: A plain one, folded
                  over two lines,

                  and a paragraph.
                maximum: 10
                x-kubernetes-int-or-string: true
            type: object
            x-kubernetes-validations:
            - message: must be set
              rule: has(self.mode) && self.mode != 'x:y'
        type: object
    served: true
    storage: false
    subresources:
      status: {}
status:
  acceptedNames:
    kind: \"\"
  storedVersions: []
---
---
kind: Second
";
        assert!(same_as_granit(text));
        let docs = by_block(text).unwrap();
        assert_eq!(docs.len(), 2);
        let spec =
            &docs[0].0["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
        assert_eq!(
            spec["description"],
            "A literal block.\n\n  A deeper line, kept as written.\nLast."
        );
        assert_eq!(
            spec["properties"]["note"]["description"],
            "Folded over lines.\nSecond paragraph.\n"
        );
        assert_eq!(
            spec["properties"]["size"]["description"],
            "A plain one, folded over two lines,\nand a paragraph."
        );
        assert_eq!(
            spec["properties"]["mode"]["enum"],
            json!([true, "it's", "quoted", "folded over two lines,\nit's said"])
        );
        assert_eq!(docs[1].0, json!({"kind": "Second"}));
    }

    #[test]
    fn leaves_the_rest_to_granit() {
        for text in [
            "a: 1",
            "a:\tb\n",
            "a: x\u{feff}\n",
            "a: x\u{85}\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a: [1, 2]\n",
            "a: {b: 1}\n",
            "a: x\n  # c\n  y\n",
            "a: x\n  y: z\n",
            "? a\n: 1\n",
            "'a': 1\n",
            "a:\n- \n",
            "a:\n-\n  b: 1\n",
            "a:\n- - b\n",
            "a: |+\n  x\nb: 1\n",
            "a: |2\n  x\nb: 1\n",
            "a: |\n\n  x\nb: 1\n",
            "a: >\n  x\n    y\nb: 1\n",
            "a: |\n  x\n   \nb: 1\n",
            "a: \"x\\ry\"\n",
            "a: 'x\ny'\n",
            "a: 'x\n  y' z\n",
            "a: \"x\n  \\ry\"\n",
            "a: 1 # note\n",
            "- a\n",
            "a\n",
            "a: 1\n...\n",
            "--- a: 1\n",
            "a: |\n  x\n",
            "a: 1\nb:\n",
            "a: - b\n",
            "a: b: c\n",
            "a:  \n  b\n",
            "- a: 1\n",
            "a:\n  - b\n c: 1\n",
            "a: 1\n b: 2\n",
        ] {
            assert_eq!(by_block(text), None, "{text:?}");
        }
    }

    /// Nesting and keys are bounded here below granit's bounds: what is past them is granit's,
    /// which reads it or refuses it as it would alone.
    #[test]
    fn what_is_past_the_bounds_is_left_to_granit() {
        let nested = |levels: usize| {
            let mut text: String = (0..levels)
                .map(|i| format!("{}k:\n", " ".repeat(i)))
                .collect();
            text.push_str(&" ".repeat(levels));
            text.push_str("k: 1\n");
            text
        };
        assert!(same_as_granit(&nested(MAX_DEPTH - 2)));
        assert_eq!(by_block(&nested(MAX_DEPTH + 10)), None);
        let long_key = format!("{}: 1\n", "k".repeat(MAX_KEY + 1));
        assert_eq!(by_block(&long_key), None);
        assert!(same_as_granit(&format!("{}: 1\n", "k".repeat(MAX_KEY))));
        // Past granit's bound, both give up (the full path reports it).
        assert_eq!(by_block(&nested(300)), None);
        assert_eq!(by_granit(&nested(300)), None);
    }

    #[test]
    fn every_yaml_file_of_testdata_reads_as_with_granit() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let mut files = Vec::new();
        yaml_files(&root, &mut files);
        let mut read = 0;
        for f in &files {
            if same_as_granit(&std::fs::read_to_string(f).unwrap()) {
                read += 1;
            }
        }
        // Not vacuous: most files, and every CRD fixture, are in the subset.
        assert!(
            files.len() >= 50 && read * 2 >= files.len(),
            "{read} of {}",
            files.len()
        );
        for crds in ["capa", "capd", "kubeadm-bootstrap", "kubeadm-control-plane"] {
            let text = std::fs::read_to_string(root.join(format!("crds/{crds}.yaml"))).unwrap();
            assert!(same_as_granit(&text), "{crds}");
        }
    }

    /// A value in the forms generators write, some outside the subset.
    fn node() -> impl Strategy<Value = Node> {
        // Lines after the first go on a plain or quoted scalar.
        let inside = prop_oneof![
            12 => "[a-z][a-z0-9.-]{0,8}",
            4 => "-?[0-9]{1,4}",
            1 => Just("true".to_string()),
            1 => Just("~".to_string()),
            1 => Just("''".to_string()),
            1 => Just("'it''s: #x'".to_string()),
            1 => Just("\"q x\"".to_string()),
            1 => Just("http://x/y".to_string()),
            1 => Just("a b".to_string()),
            1 => Just("[]".to_string()),
            1 => Just("{}".to_string()),
            2 => Just("folded over\nthree\nlines".to_string()),
            1 => Just("a\n\nparagraph".to_string()),
            1 => Just("-1\n-2".to_string()),
            1 => Just("a\n- b".to_string()),
            1 => Just("a\n\"q\" r".to_string()),
            1 => Just("a\n'q' r".to_string()),
            1 => Just("a\n[x], {y}".to_string()),
            1 => Just("a\n&x *y !z".to_string()),
            1 => Just("a\n? x\n|y\n>z\n%w\n@v".to_string()),
            1 => Just("a\n:x, ,y".to_string()),
            1 => Just("x\n#c".to_string()),
            2 => Just("'quoted\nover lines '".to_string()),
            1 => Just("'it''s\n\n''folded'''".to_string()),
            1 => Just("'a\n# text, - b: c'".to_string()),
            1 => Just("'a\n'".to_string()),
            1 => Just("\"double\n  quoted\"".to_string()),
            2 => Just("\"esc\\\"aped\\n\\t\\\\ \n  x\\n \"".to_string()),
            1 => Just("\"yaml.v2 writes\n\\  leading spaces\"".to_string()),
            2 => Just("the Machine\u{2019}s \u{e9}t\u{e9} \u{a0}".to_string()),
        ];
        let outside = prop_oneof![
            Just("\"a\\rb\"".to_string()),
            Just("\"a\\\nb\"".to_string()),
            Just("\"a\\ \nb\"".to_string()),
            Just("\"a\\\\\nb\"".to_string()),
            Just("\"a\\/b\"".to_string()),
            Just("[a]".to_string()),
            Just("folded over\nlines: no".to_string()),
            Just("'a\nb' c".to_string()),
            Just("a\u{85}b".to_string()),
            Just("a\u{feff}b".to_string()),
            Just("a\u{2028}b".to_string()),
            Just("a\u{9f}b".to_string()),
        ];
        let scalar = prop_oneof![30 => inside, 1 => outside].prop_map(Node::Scalar);
        let block = (
            prop_oneof![
                3 => Just("|"),
                3 => Just("|-"),
                3 => Just(">"),
                3 => Just(">-"),
                1 => Just("|+"),
            ],
            proptest::collection::vec(
                prop_oneof![
                    8 => "[a-z]{1,5}( [a-z]{1,5})?",
                    2 => Just(String::new()),
                    1 => Just("  deeper".to_string()),
                    1 => Just("# text".to_string()),
                ],
                1..5,
            ),
        )
            .prop_map(|(h, lines)| Node::Block(h.to_string(), lines));
        let leaf = prop_oneof![4 => scalar, 1 => block];
        leaf.prop_recursive(5, 48, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(("[a-z][a-zA-Z0-9-]{0,6}", inner.clone()), 1..5)
                    .prop_map(Node::Map),
                (proptest::collection::vec(inner, 1..4), any::<bool>())
                    .prop_map(|(items, compact)| Node::Seq(items, compact)),
            ]
        })
    }

    #[derive(Debug, Clone)]
    enum Node {
        Scalar(String),
        Block(String, Vec<String>),
        Map(Vec<(String, Node)>),
        /// Items; whether written at the indentation of its key.
        Seq(Vec<Node>, bool),
    }

    /// `node` as the value of a key (or an item) whose line starts at `indent`.
    fn write(node: &Node, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        match node {
            // Lines after the first continue a plain scalar, one level deeper.
            Node::Scalar(s) => {
                out.push(' ');
                for (i, line) in s.split('\n').enumerate() {
                    if i > 0 {
                        out.push('\n');
                        if !line.is_empty() {
                            out.push_str(&pad);
                            out.push_str("  ");
                            out.push_str(line);
                        }
                    } else {
                        out.push_str(line);
                    }
                }
                out.push('\n');
            }
            Node::Block(header, lines) => {
                out.push(' ');
                out.push_str(header);
                out.push('\n');
                for l in lines {
                    if !l.is_empty() {
                        out.push_str(&pad);
                        out.push_str("  ");
                        out.push_str(l);
                    }
                    out.push('\n');
                }
            }
            Node::Map(entries) => {
                out.push('\n');
                for (k, v) in entries {
                    out.push_str(&pad);
                    out.push_str("  ");
                    out.push_str(k);
                    out.push(':');
                    write(v, indent + 2, out);
                }
            }
            Node::Seq(items, compact) => {
                out.push('\n');
                let at = if *compact { indent } else { indent + 2 };
                for item in items {
                    out.push_str(&" ".repeat(at));
                    out.push('-');
                    match item {
                        // A mapping in the item: its first key on the dash's line.
                        Node::Map(entries) => {
                            for (i, (k, v)) in entries.iter().enumerate() {
                                if i == 0 {
                                    out.push(' ');
                                } else {
                                    out.push_str(&" ".repeat(at + 2));
                                }
                                out.push_str(k);
                                out.push(':');
                                write(v, at + 2, out);
                            }
                        }
                        // Generators write no sequence or block scalar right in an item: one
                        // under a key of a mapping in the item instead.
                        Node::Seq(..) | Node::Block(..) => {
                            out.push_str(" k:");
                            write(item, at + 2, out);
                        }
                        other => write(other, at, out),
                    }
                }
            }
        }
    }

    fn document(root: &[(String, Node)]) -> String {
        let mut out = String::new();
        for (k, v) in root {
            out.push_str(k);
            out.push(':');
            write(v, 0, &mut out);
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        /// Generated documents, and the same with bytes changed, inserted or removed: the
        /// scanner reads them as granit does, or leaves them to it.
        #[test]
        fn generated_documents_read_as_with_granit(
            a in proptest::collection::vec(("[a-z]{1,4}", node()), 1..4),
            b in proptest::collection::vec(("[a-z]{1,4}", node()), 1..3),
            edits in proptest::collection::vec(
                (any::<prop::sample::Index>(), 0..3u8, prop::sample::select(
                    &[b' ', b'\n', b':', b'-', b'#', b'\'', b'"', b'|', b'>', b'a', b'[', b'{',
                      b'}', b'?', b'&', b'!', b',', b'\t'][..])),
                0..3,
            ),
        ) {
            let text = format!("{}---\n{}", document(&a), document(&b));
            same_as_granit(&text);
            let mut bytes = text.clone().into_bytes();
            for (at, op, byte) in edits {
                let i = at.index(bytes.len() + 1);
                match op {
                    0 => bytes.insert(i, byte),
                    1 if i < bytes.len() => bytes[i] = byte,
                    _ if i < bytes.len() => { bytes.remove(i); }
                    _ => {}
                }
            }
            if let Ok(edited) = String::from_utf8(bytes) {
                same_as_granit(&edited);
            }
        }
    }

    /// The generator is not vacuous: most of its documents are in the subset.
    #[test]
    fn most_generated_documents_are_read_here() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = proptest::collection::vec(("[a-z]{1,4}", node()), 1..4);
        let (mut read, total) = (0, 200);
        for _ in 0..total {
            let doc = document(&strategy.new_tree(&mut runner).unwrap().current());
            if same_as_granit(&doc) {
                read += 1;
            }
        }
        assert!(read * 4 >= total, "{read} of {total}");
    }
}
