/*!
Which YAML documents of `--crds` are worth parsing: a test on a document's text, before any
parse, that passes over the CustomResourceDefinitions of kinds a run never meets.

Owns the rule that makes skipping safe: a document is passed over only when no kind the run
wants can be spelled in it. YAML spells a scalar's text literally except in three ways, and a
document that uses any of them is kept: escapes and escaped line breaks in double-quoted
scalars (a `\` on a line with a `"`), and `!!binary` (base64; any tag naming it contains
`binary`). Folding a multi-line scalar puts a space in it, which no kind holds, and a scalar equal to a
kind has no letter or digit beside it, so only whole words count. Anchors and
aliases copy text from within the same document, where the literal test sees it. A test that
keeps too much only costs a parse; the group is not looked at, for the same reason.

Most documents are decided sooner, by their first lines alone ([`header_kind`]): a
CustomResourceDefinition written as every generator writes it (plain block mappings, its
top-level `kind` and then `spec.names.kind` as plain words) defines that kind, and any other
object only its own `kind`. The scan stops there, within the first [`HEADER_SCAN`] bytes, instead
of searching the whole text (a CRD's schemas are most of it) once per wanted kind; anything
unusual on the way falls back to the whole-text test.

Owns as well what of a kept CRD need not be read: the schemas of its versions the run never
meets ([`unused_version_schemas`]), which only [`super::definition::read_wanted`] would read and
passes over. They are cut from the text before it is parsed where the lines on the way are laid
out as controller-gen lays them out ([`unused_schema_lines`]), else left out while reading
([`crate::load::yaml::fast`]); what is cut is not read at all, its syntax errors included, as
for a document passed over. And, in the versions it does read, the `description`s of schema
nodes ([`schema_description_lines`]): documentation, which no reader of a schema looks at, and
most of a generated CRD's bytes. Those are cut only where reading them could not fail (a block
scalar of printable text, indented as YAML requires, or a plain scalar that can only be text),
so the document reads as it would whole, less the descriptions, and their nodes still count
against the bounds.
*/

/// The values of `--crds` documents no reader looks at, for the span-free reader
/// ([`crate::load::yaml::fast::SkipValue`]): the schema of a CustomResourceDefinition's version
/// that `wanted` refuses (its group, version and kind are read from what comes before the
/// schema, as generators write it: `spec.group` and `spec.names.kind` before `spec.versions`,
/// and each version's `name` before its `schema`). Only [`super::definition::read_wanted`] reads
/// a version's schema, and it passes over such a version before looking at it; a version whose
/// name is not yet read, or a document that is no CustomResourceDefinition, keeps everything.
pub fn unused_version_schemas(
    wanted: impl Fn(&super::structural::Gvk) -> bool + Send + Sync + 'static,
) -> crate::load::yaml::fast::SkipValue {
    use crate::load::yaml::fast::{Level, SkipValue};
    use serde_json::Value;
    let wanted = std::sync::Arc::new(wanted);
    let wanted2 = std::sync::Arc::clone(&wanted);
    let test = move |levels: &[Level<'_>]| -> bool {
        let [root, spec, versions, version, schema] = levels else {
            return false;
        };
        if (spec.key, versions.key, schema.key) != ("spec", "versions", "schema") {
            return false;
        }
        let (Some(root), Some(spec), Some(version)) = (root.entries, spec.entries, version.entries)
        else {
            return false;
        };
        fn s<'m>(m: &'m serde_json::Map<String, Value>, k: &str) -> Option<&'m str> {
            m.get(k).and_then(Value::as_str)
        }
        if s(root, "kind") != Some("CustomResourceDefinition")
            || s(root, "apiVersion") != Some("apiextensions.k8s.io/v1")
        {
            return false;
        }
        let kind = spec
            .get("names")
            .and_then(|n| n.get("kind"))
            .and_then(Value::as_str);
        match (s(spec, "group"), kind, s(version, "name")) {
            (Some(group), Some(kind), Some(name)) => {
                !wanted(&super::structural::Gvk::new(group, name, kind))
            }
            _ => false,
        }
    };
    let cut = std::sync::Arc::new(move |text: &str| {
        let versions = unused_schema_lines(text, &|g| wanted2(g));
        let descriptions = schema_description_lines(text, &versions);
        // A description is two nodes, its key and its value, which still count as read.
        let nodes = 2 * descriptions.len();
        let mut ranges = versions;
        ranges.extend(descriptions);
        ranges.sort_by_key(|r| r.start);
        crate::load::yaml::fast::Cuts { ranges, nodes }
    });
    SkipValue {
        depth: 5,
        test: std::sync::Arc::new(test),
        cut: Some(cut),
    }
}

/// The byte ranges of `text`, a CustomResourceDefinition written as generators write it, that
/// hold the `schema` of a version `wanted` refuses: from the `    schema:` line of the version to
/// the last line of its value, whole lines. Empty (nothing is cut, the document is read whole)
/// unless the lines that are not inside a value are block mappings and sequences in
/// controller-gen's layout: plain `kind` and `apiVersion` at the top, plain `spec.group` and
/// `spec.names.kind` before `spec.versions`, each version's plain `name` before its `schema`;
/// tabs, flow collections or quotes on the way, a second document, or a schema that is the
/// document's last value give up. A value's lines are those indented more than its key (blank
/// and comment lines among them), which is how YAML ends a block value; a multi-line quoted
/// scalar or flow collection in a schema must be indented so too.
pub fn unused_schema_lines(
    text: &str,
    wanted: &dyn Fn(&super::structural::Gvk) -> bool,
) -> Vec<std::ops::Range<usize>> {
    let mut cuts = Vec::new();
    let (mut api_version, mut top_kind, mut group, mut kind) = ("", "", "", "");
    // The top-level key and the key under `spec` (indent 2) of the current line.
    let (mut top, mut under_spec) = ("", "");
    // In `spec.versions`: the current item's name, and the start of an open cut.
    let mut name: Option<&str> = None;
    let mut open: Option<usize> = None;
    let mut started = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        // Most lines are a schema's, deeper than anything looked at: passed over at a glance.
        if line.as_bytes().get(..5) == Some(b"     ") {
            continue;
        }
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        let content = body.trim_end_matches(['\n', '\r', ' ']);
        // Blank and comment lines, and lines inside a value (deeper than the structure looked
        // at, or a compact sequence's items under a key at indent 4).
        if content.is_empty()
            || content.starts_with('#')
            || indent > 4
            || (indent == 4 && content.starts_with("- "))
        {
            continue;
        }
        if let Some(start) = open.take() {
            cuts.push(start..at);
        }
        if body.starts_with('\t') || content.starts_with("...") {
            return Vec::new();
        }
        if indent == 0 && content == "---" {
            if started {
                return Vec::new();
            }
            started = true;
            continue;
        }
        started = true;
        match indent {
            0 => {
                let Some((key, value)) = entry(content) else {
                    return Vec::new();
                };
                (top, under_spec) = (key, "");
                match key {
                    "apiVersion" => api_version = value,
                    "kind" => top_kind = value,
                    "spec" if !value.is_empty() => return Vec::new(),
                    _ => {}
                }
            }
            2 | 4 if top != "spec" => {}
            2 => {
                if let Some(rest) = content.strip_prefix("- ") {
                    // A version item, its first key on the line (never cut: the line holds
                    // the item's marker).
                    if under_spec != "versions" {
                        continue;
                    }
                    let Some((key, value)) = entry(rest) else {
                        return Vec::new();
                    };
                    name = None;
                    if key == "name" {
                        name = word(value);
                    }
                    continue;
                }
                let Some((key, value)) = entry(content) else {
                    return Vec::new();
                };
                under_spec = key;
                match key {
                    "group" => group = value,
                    "names" | "versions" if !value.is_empty() => return Vec::new(),
                    _ => {}
                }
            }
            4 => {
                let Some((key, value)) = entry(content) else {
                    return Vec::new();
                };
                match (under_spec, key) {
                    ("names", "kind") => kind = value,
                    ("versions", "name") => name = word(value),
                    ("versions", "schema") if value.is_empty() => {
                        let crd = api_version == "apiextensions.k8s.io/v1"
                            && top_kind == "CustomResourceDefinition";
                        if let Some(n) = name
                            && crd
                            && [group, kind].iter().all(|w| word(w).is_some())
                            && !wanted(&super::structural::Gvk::new(group, n, kind))
                        {
                            open = Some(at);
                        }
                    }
                    _ => {}
                }
            }
            // Indentation the layout never has, where it matters.
            _ => return Vec::new(),
        }
    }
    // A schema running to the end of the document is not cut: the document's end is its end.
    cuts
}

/// Where a line of a CustomResourceDefinition is, as far as [`schema_description_lines`] needs
/// to know: on the way to a version's `schema.openAPIV3Schema`, in a schema (a node whose
/// `description` is documentation), or elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Within {
    Root,
    Spec,
    Versions,
    Version,
    SchemaOf,
    /// A schema node (a mapping of keywords).
    Schema,
    /// `items`: a schema, or a sequence of schemas.
    Items,
    /// `properties`, `patternProperties`, `definitions`: names to schemas.
    Names,
    /// `allOf`, `anyOf`, `oneOf`: a sequence of schemas.
    Junctors,
    Elsewhere,
}

impl Within {
    /// Where the value of `key` in a mapping here is.
    fn key(self, key: &str) -> Within {
        match (self, key) {
            (Within::Root, "spec") => Within::Spec,
            (Within::Spec, "versions") => Within::Versions,
            (Within::Version, "schema") => Within::SchemaOf,
            (Within::SchemaOf, "openAPIV3Schema") => Within::Schema,
            (Within::Names, _) => Within::Schema,
            (Within::Schema | Within::Items, k) => match k {
                "properties" | "patternProperties" | "definitions" => Within::Names,
                "items" => Within::Items,
                "additionalProperties" | "additionalItems" | "not" => Within::Schema,
                "allOf" | "anyOf" | "oneOf" => Within::Junctors,
                _ => Within::Elsewhere,
            },
            _ => Within::Elsewhere,
        }
    }

    /// Where an item of a sequence here is.
    fn item(self) -> Within {
        match self {
            Within::Versions => Within::Version,
            Within::Items | Within::Junctors => Within::Schema,
            _ => Within::Elsewhere,
        }
    }
}

/// The byte ranges of `text`, a CustomResourceDefinition written as controller-gen writes it,
/// that hold the `description` of a schema node of a version's `openAPIV3Schema`, outside the
/// ranges `skip` (sorted whole lines, already cut): documentation no reader of a `--crds`
/// schema looks at, and most of a generated CRD's bytes.
///
/// Only a description that no reading could fail on is cut, so that cutting changes nothing
/// but its absence: a literal or folded block scalar (`|`, `|-`, `>`, `>-`, which is always a
/// string) on a line of its own, its text printable ASCII lines indented as YAML requires, or
/// a plain scalar that can only be text ([`plain_text_end`]: how the writer folds a long
/// one-line description), each followed by another key of the same mapping (which therefore stays a mapping, and keeps a
/// value as deep). Every other line on the way must be plain block structure, so that where a
/// line is is known from indentation alone: plain keys, `- ` items, one-line quoted or flow
/// values, block scalars and multi-line plain values (their lines passed over), comments; a
/// tab, a carriage return, a second document, a key written twice as `description` in one
/// mapping (a duplicate key is the full reader's error to report) or anything else cuts nothing.
pub fn schema_description_lines(
    text: &str,
    skip: &[std::ops::Range<usize>],
) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    if memchr::memchr2(b'\r', b'\t', bytes).is_some() {
        return Vec::new();
    }
    let mut scan = Scan {
        text,
        cuts: Vec::new(),
        stack: Vec::new(),
        root_described: false,
        deeper: None,
        started: false,
    };
    let mut skip = skip.iter().peekable();
    let mut at = 0;
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        let line_at = at;
        at = end;
        while skip.peek().is_some_and(|r| r.end <= line_at) {
            skip.next();
        }
        if let Some(r) = skip.peek()
            && r.start <= line_at
        {
            at = r.end.max(end);
            continue;
        }
        match scan.line(line_at, end) {
            Next::Line => {}
            Next::From(stop) => at = stop,
            Next::Abort => return Vec::new(),
        }
    }
    scan.cuts
}

/// A mapping or a sequence item open while [`schema_description_lines`] reads on.
struct Open {
    /// The indentation of the line that opened it (a key, or a `-`).
    indent: usize,
    item: bool,
    within: Within,
    /// A `description` key was seen in this mapping.
    described: bool,
}

/// Where [`schema_description_lines`] reads on after a line.
enum Next {
    /// At the next line.
    Line,
    /// At this offset: the line began a value over more lines, or was cut.
    From(usize),
    /// Nowhere: the text is not laid out as the scan knows, and nothing is cut.
    Abort,
}

/// What [`schema_description_lines`] knows between lines.
struct Scan<'t> {
    text: &'t str,
    cuts: Vec<std::ops::Range<usize>>,
    stack: Vec<Open>,
    root_described: bool,
    /// Lines more indented than this belong to a value being passed over.
    deeper: Option<usize>,
    /// The document has begun (a `---` after that is a second document).
    started: bool,
}

impl Scan<'_> {
    /// Read the line from `line_at` to `end` (its line break included).
    fn line(&mut self, line_at: usize, end: usize) -> Next {
        let Some(line) = self.text.get(line_at..end) else {
            return Next::Abort;
        };
        let line = line.strip_suffix('\n').unwrap_or(line);
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        if body.is_empty() {
            return Next::Line;
        }
        if let Some(d) = self.deeper {
            if indent > d {
                return Next::Line;
            }
            self.deeper = None;
        }
        if body.starts_with('#') {
            return Next::Line;
        }
        if indent == 0 && (body.starts_with("---") || body.starts_with("...")) {
            if self.started || body.trim_end() != "---" {
                return Next::Abort;
            }
            self.started = true;
            return Next::Line;
        }
        self.started = true;
        // A sequence item: its `-` opens it; what follows on the line is its first key (or a
        // scalar item), indented as far as it stands.
        if body == "-" || body.starts_with("- ") {
            return match self.item(indent, body) {
                Ok((rest_indent, rest)) => self.entry(rest_indent, rest, true, line_at, end),
                Err(next) => next,
            };
        }
        while self.stack.last().is_some_and(|o| o.indent >= indent) {
            self.stack.pop();
        }
        self.entry(indent, body, false, line_at, end)
    }

    /// A line starting a sequence item at `indent`: the item is opened, and what follows its
    /// `-` is handed back when it is a key (with where it stands); a scalar item, or nothing
    /// after the `-`, is done with here.
    fn item<'b>(&mut self, indent: usize, body: &'b str) -> Result<(usize, &'b str), Next> {
        while self
            .stack
            .last()
            .is_some_and(|o| o.indent > indent || (o.indent == indent && o.item))
        {
            self.stack.pop();
        }
        let within = self
            .stack
            .last()
            .map_or(Within::Elsewhere, |o| o.within)
            .item();
        self.stack.push(Open {
            indent,
            item: true,
            within,
            described: false,
        });
        let rest = body[1..].trim_start_matches(' ');
        if rest.is_empty() || rest.starts_with('#') {
            return Err(Next::Line);
        }
        if entry(rest).is_some() {
            return Ok((indent + (body.len() - rest.len()), rest));
        }
        // A scalar item, maybe over more lines.
        let next = if one_line_value(rest) {
            Next::Line
        } else {
            match quoted_end(self.text, offset_in(self.text, rest), indent) {
                Some(stop) => Next::From(stop),
                None => return Err(Next::Abort),
            }
        };
        self.deeper = Some(indent);
        Err(next)
    }

    /// A `key: value` at `indent` (`on_item_line`: right after a `- `), on the line from
    /// `line_at` to `end`: a schema's block-scalar description is cut; a key with no value
    /// opens a mapping; a value going on over more lines is passed over.
    fn entry(
        &mut self,
        indent: usize,
        body: &str,
        on_item_line: bool,
        line_at: usize,
        end: usize,
    ) -> Next {
        let Some((key, value)) = entry(body) else {
            return Next::Abort;
        };
        let parent = self.stack.last().map_or(Within::Root, |o| o.within);
        if key == "description" {
            let described = match self.stack.last_mut() {
                Some(o) => &mut o.described,
                None => &mut self.root_described,
            };
            if *described {
                return Next::Abort;
            }
            *described = true;
            if !on_item_line
                && matches!(parent, Within::Schema | Within::Items)
                && self.stack.len() < 200
                && matches!(
                    body.trim_end(),
                    "description: |" | "description: |-" | "description: >" | "description: >-"
                )
                && let Some(stop) = block_scalar_end(self.text, end, indent)
            {
                self.cuts.push(line_at..stop);
                return Next::From(stop);
            }
            if !on_item_line
                && matches!(parent, Within::Schema | Within::Items)
                && self.stack.len() < 200
                && let Some(first) = body.strip_prefix("description: ")
                && let Some(stop) = plain_text_end(self.text, first, end, indent)
            {
                self.cuts.push(line_at..stop);
                return Next::From(stop);
            }
        }
        if value.is_empty() {
            self.stack.push(Open {
                indent,
                item: false,
                within: parent.key(key),
                described: false,
            });
            return Next::Line;
        }
        let raw = body.split_once(':').map_or("", |(_, v)| v);
        let next = if value.starts_with(['|', '>']) || one_line_value(raw) {
            Next::Line
        } else {
            // A quoted value over more lines, each more indented than its key.
            match quoted_end(self.text, offset_in(self.text, raw), indent) {
                Some(stop) => Next::From(stop),
                None => return Next::Abort,
            }
        };
        // A block scalar or a plain value going on over more indented lines.
        self.deeper = Some(indent);
        next
    }
}

/// Whether a value that starts on a line ends on it where it may be quoted or a flow
/// collection, a comment aside (anchors, aliases and tags are not looked at: any is a no).
/// `value` is the line's text after its key's `:` or its item's `-`.
fn one_line_value(value: &str) -> bool {
    let value = value.trim();
    let b = value.as_bytes();
    // Nothing but a comment after the closing quote.
    let closed_at = |i: usize| {
        let rest = value.get(i + 1..).unwrap_or("");
        rest.is_empty() || rest.starts_with(" #")
    };
    match b.first() {
        Some(b'"') => {
            let mut i = 1;
            while let Some(c) = b.get(i) {
                match c {
                    b'\\' => i += 2,
                    b'"' => return closed_at(i),
                    _ => i += 1,
                }
            }
            false
        }
        Some(b'\'') => {
            let mut i = 1;
            while let Some(c) = b.get(i) {
                if *c == b'\'' {
                    if b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    return closed_at(i);
                }
                i += 1;
            }
            false
        }
        Some(b'[') => value.ends_with(']'),
        Some(b'{') => value.ends_with('}'),
        Some(b'&' | b'*' | b'!' | b'?' | b'%' | b'@' | b'`') => false,
        _ => true,
    }
}

/// The byte offset of `part`, a slice of `text`, in `text`.
fn offset_in(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// Where the line ends on which the quoted scalar starting at byte `from` of `text` (after
/// spaces) closes, when every line it goes on over is blank or more indented than `indent` (the
/// key or item it is the value of), as YAML requires, and nothing but a comment follows the
/// closing quote; `None` otherwise.
fn quoted_end(text: &str, from: usize, indent: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = from;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    let quote = *b.get(i).filter(|q| matches!(q, b'"' | b'\''))?;
    i += 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 2,
            c if c == quote => {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n + 1);
                let rest = text.get(i + 1..end)?.trim_end_matches('\n');
                let rest = rest.trim_start_matches(' ');
                return (rest.is_empty() || rest.starts_with('#')).then_some(end);
            }
            b'\n' => {
                i += 1;
                let spaces = b[i..].iter().take_while(|c| **c == b' ').count();
                if !matches!(b.get(i + spaces), Some(b'\n') | None) && spaces <= indent {
                    return None;
                }
                i += spaces;
            }
            _ => i += 1,
        }
    }
    None
}

/// Where the value over the lines after its key's line (a key at `indent`, its line ending at
/// byte `from` of `text`) ends: the start of the next line at `indent` holding a plain key, when
/// `line` accepts every line before it (each more indented than the key, or blank: its spaces,
/// and what follows them); `None` when it refuses one, or the value ends otherwise.
fn value_end(
    text: &str,
    from: usize,
    indent: usize,
    mut line: impl FnMut(usize, &[u8]) -> bool,
) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        let whole = &bytes[at..end];
        let whole = whole.strip_suffix(b"\n").unwrap_or(whole);
        let spaces = whole.iter().take_while(|b| **b == b' ').count();
        let rest = &whole[spaces..];
        if !rest.is_empty() && spaces <= indent {
            let rest = std::str::from_utf8(rest).ok()?;
            let key_line =
                spaces == indent && !rest.starts_with(['-', '#']) && entry(rest).is_some();
            return key_line.then_some(at);
        }
        if !line(spaces, rest) {
            return None;
        }
        at = end;
    }
    None
}

/// Where the block scalar whose header line (a key at `indent`) ends at byte `from` of `text`
/// ends ([`value_end`]), when every line before it is blank or the scalar's text (printable
/// ASCII, at least as indented as its first line, with no blank line before that first line
/// more indented than it, as YAML requires); `None` otherwise.
fn block_scalar_end(text: &str, from: usize, indent: usize) -> Option<usize> {
    let mut first: Option<usize> = None;
    let mut leading_blank = 0;
    let stop = value_end(text, from, indent, |spaces, rest| {
        if rest.is_empty() {
            if first.is_none() {
                leading_blank = leading_blank.max(spaces);
            }
            return true;
        }
        match first {
            None if leading_blank > spaces => return false,
            None => first = Some(spaces),
            Some(f) if spaces < f => return false,
            Some(_) => {}
        }
        rest.iter().all(|b| (0x20..0x7f).contains(b))
    })?;
    first.is_some().then_some(stop)
}

/// Where the plain scalar that begins with `first` (the rest of its line, a key at `indent`
/// ending at byte `from` of `text`) ends ([`value_end`]), when the scalar is text no reading
/// could fail on or take for anything but a string (how controller-gen's YAML writer folds a
/// long one-line description); `None` otherwise.
///
/// That is: it starts with a letter and holds a space or goes on over more lines (so it is
/// no number, boolean, null or timestamp, in YAML 1.1 or 1.2); every line of it is printable
/// ASCII with no `: `, no ` #` and no `:` at its end (which would end it or be an error); each
/// further line is more indented than the key and starts with no indicator (`-`, `#`, quotes,
/// brackets…) that a reader might take otherwise; blank lines may come between.
fn plain_text_end(text: &str, first: &str, from: usize, indent: usize) -> Option<usize> {
    /// What may start a further line: not an indicator or a quote.
    const INDICATORS: &[u8] = b"-?:#,[]{}&*!|>'\"%@`";
    let text_line = |l: &[u8]| {
        l.iter().all(|b| (0x20..0x7f).contains(b))
            && memchr::memmem::find(l, b": ").is_none()
            && memchr::memmem::find(l, b" #").is_none()
            && l.last() != Some(&b':')
    };
    let first = first.as_bytes();
    if !first.first().is_some_and(u8::is_ascii_alphabetic) || !text_line(first) {
        return None;
    }
    let mut words = first.contains(&b' ');
    let stop = value_end(text, from, indent, |_, rest| {
        if rest.is_empty() {
            return true;
        }
        words = true;
        !rest.first().is_some_and(|b| INDICATORS.contains(b)) && text_line(rest)
    })?;
    words.then_some(stop)
}

/// `key: value` with a plain key, a trailing comment aside; `None` for anything else.
fn entry(content: &str) -> Option<(&str, &str)> {
    let (key, value) = content.split_once(':')?;
    let value = match value.split_once(" #") {
        Some((v, _)) => v,
        None => value,
    };
    if !(value.is_empty() || value.starts_with(' ')) || word(key).is_none_or(str::is_empty) {
        return None;
    }
    Some((key, value.trim()))
}

/// `w` if it is one plain word (letters, digits, `-_./`), as the values decided on must be.
fn word(w: &str) -> Option<&str> {
    (!w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b)))
    .then_some(w)
}

/// Whether the YAML document `text` may define one of `kinds` (see the module docs).
pub fn may_define(text: &str, kinds: &[String]) -> bool {
    if let Some(kind) = header_kind(text, true) {
        return kinds.iter().any(|k| k == kind);
    }
    if kinds.iter().any(|k| spelled(text, k)) {
        return true;
    }
    may_hide_words(text)
}

/// At most this many bytes of a document are read for its header: a CRD's `spec.names` comes
/// before its versions' schemas, within a few KiB of the start.
const HEADER_SCAN: usize = 64 * 1024;

/// The kind a document defines, read from its first lines when they are written plainly: the
/// `spec.names.kind` of a CustomResourceDefinition, or the document's own top-level `kind` for
/// any other object. `None` (and the whole-text test decides) when the lines up to
/// [`HEADER_SCAN`] are not all simple block mappings, plain keys and plain one-word values on
/// the way to those two keys: flow collections, quotes, tags, anchors, aliases, tabs or
/// block scalars there. Without `crd_names`, a CustomResourceDefinition's own kind is given
/// ([`top_kind`]).
fn header_kind(text: &str, crd_names: bool) -> Option<&str> {
    let head = &text[..floor_char_boundary(text, HEADER_SCAN)];
    // The enclosing keys of the current line: (indentation, key); a sequence item is `-`.
    let mut stack: Vec<(usize, &str)> = Vec::new();
    let mut top_kind: Option<&str> = None;
    // Lines more indented than this belong to a block scalar or a multi-line value.
    let mut skip_deeper: Option<usize> = None;
    let mut started = false;
    // The last line may be cut by the bound: only whole lines are read.
    let whole = if head.len() == text.len() {
        head
    } else {
        &head[..head.rfind('\n')?]
    };
    for line in whole.lines() {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if let Some(d) = skip_deeper {
            if indent > d {
                continue;
            }
            skip_deeper = None;
        }
        // The document marker a piece of a stream starts with; any other ends the scan.
        if indent == 0 && body.trim_end() == "---" && !started {
            started = true;
            continue;
        }
        started = true;
        if body.starts_with('\t') || body.starts_with("---") || body.starts_with("...") {
            return None;
        }
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        if let Some(rest) = body.strip_prefix('-') {
            if !(rest.is_empty() || rest.starts_with(' ')) {
                return None;
            }
            // Items are never on the way to the two keys.
            stack.push((indent, "-"));
            skip_deeper = Some(indent);
            continue;
        }
        let (key, value) = match body.split_once(':') {
            Some((k, v)) if v.is_empty() || v.starts_with(' ') => (k, v.trim()),
            _ => return None,
        };
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b))
        {
            return None;
        }
        let value = match value.split_once(" #") {
            Some((v, _)) => v.trim_end(),
            None => value,
        };
        let path: Vec<&str> = stack.iter().map(|(_, k)| *k).chain([key]).collect();
        let on_the_way = matches!(
            path.as_slice(),
            ["kind"] | ["spec"] | ["spec", "names"] | ["spec", "names", "kind"]
        );
        let plain = value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b));
        if !plain {
            // A block scalar, a flow collection, a quoted, tagged, anchored or aliased value:
            // fine elsewhere (its lines are passed over), not on the way.
            if on_the_way {
                return None;
            }
            skip_deeper = Some(indent);
            continue;
        }
        match path.as_slice() {
            ["kind"] => {
                if value.is_empty() {
                    return None;
                }
                // A `kind: List` holds its objects in `items`.
                if value.ends_with("List") {
                    return None;
                }
                if value != "CustomResourceDefinition" || !crd_names {
                    return Some(value);
                }
                top_kind = Some(value);
            }
            ["spec", "names", "kind"] if !value.is_empty() => {
                // A CRD's kind, once the document is known to be a CRD.
                if top_kind.is_some() {
                    return Some(value);
                }
                return None;
            }
            _ if value.is_empty() => stack.push((indent, key)),
            _ => {
                // A plain value may go on over more indented lines.
                skip_deeper = Some(indent);
            }
        }
    }
    None
}

/// The top-level `kind` of the YAML document `text`, read from its first lines when they are
/// written plainly (see [`header_kind`]); `None` when they are not, or for a `List`.
pub fn top_kind(text: &str) -> Option<&str> {
    header_kind(text, false)
}

/// Whether `text` may spell a word as a scalar without writing it literally: it holds an escape
/// in double quotes or a `!!binary` scalar (the module's rule: such a document is kept whatever
/// it is searched for).
pub fn may_hide_words(text: &str) -> bool {
    text.contains("binary") || escaped_in_quotes(text)
}

/// Whether the match `bytes[start..end]` is a whole word: no letter or digit beside it.
pub fn whole_word(bytes: &[u8], start: usize, end: usize) -> bool {
    let word = |i: Option<usize>| {
        i.and_then(|i| bytes.get(i))
            .is_some_and(u8::is_ascii_alphanumeric)
    };
    !word(start.checked_sub(1)) && !word(Some(end))
}

/// The largest char boundary of `s` at or below `at`.
fn floor_char_boundary(s: &str, at: usize) -> usize {
    if at >= s.len() {
        return s.len();
    }
    let mut i = at;
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Whether a line holds both a `\` and a `"`, found from the backslashes (most CRD lines have
/// neither; scanning every line cost more than the parse it saved on small documents).
fn escaped_in_quotes(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'\\', bytes).any(|at| {
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        memchr::memchr(b'"', &bytes[start..end]).is_some()
    })
}

/// Whether `kind` occurs in `text` as a whole word: a scalar equal to it has no letter or digit
/// beside it (`Cluster` is in every `AWSCluster` document, and a run always wants `Cluster`).
pub fn spelled(text: &str, kind: &str) -> bool {
    if kind.is_empty() {
        return false;
    }
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, kind.as_bytes())
        .any(|at| whole_word(bytes, at, at + kind.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_document_naming_a_wanted_kind_is_kept() {
        let doc = "kind: CustomResourceDefinition\nspec:\n  names:\n    kind: DockerCluster\n";
        assert!(may_define(doc, &kinds(&["DockerCluster"])));
        assert!(!may_define(doc, &kinds(&["AWSCluster"])));
        // Whole words only: `Cluster` is inside every infrastructure cluster's kind.
        assert!(!may_define(doc, &kinds(&["Cluster", "Docker"])));
        assert!(may_define("kind: Cluster\n", &kinds(&["Cluster"])));
        assert!(may_define("names: {kind: Cluster}", &kinds(&["Cluster"])));
        assert!(may_define(
            "kind: 'DockerCluster'",
            &kinds(&["DockerCluster"])
        ));
    }

    #[test]
    fn spellings_that_hide_a_kind_keep_the_document() {
        let want = kinds(&["DockerCluster"]);
        // An escape in a double-quoted scalar.
        assert!(may_define(
            "spec:\n  names:\n    kind: \"\\x44ockerCluster\"\n",
            &want
        ));
        // An escaped line break joins the halves without a space.
        assert!(may_define("kind: \"Docker\\\n  Cluster\"\n", &want));
        // Base64, by the standard tag or a verbatim one.
        assert!(may_define("kind: !!binary RG9ja2VyQ2x1c3Rlcg==\n", &want));
        assert!(may_define(
            "kind: !<tag:yaml.org,2002:binary> RG9ja2VyQ2x1c3Rlcg==\n",
            &want
        ));
        // A backslash alone (a regular expression pattern) hides nothing, nor beside a quote
        // on another line.
        assert!(!may_define("a: \"x\"\npattern: ^a\\.b$\nb: 'y'\n", &want));
        assert!(!may_define("pattern: ^[a-z](\\.[a-z])*$\n", &want));
    }

    #[test]
    fn a_plain_header_decides_without_reading_the_rest() {
        let crd = |kind: &str, rest: &str| {
            format!(
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    controller-gen.kubebuilder.io/version: v0.16.1\n  name: x\nspec:\n  group: infrastructure.cluster.x-k8s.io\n  names:\n    categories:\n    - cluster-api\n    kind: {kind}\n    listKind: {kind}List\n  scope: Namespaced\n  versions:\n{rest}"
            )
        };
        // The schemas mention the wanted kind; the header says the CRD defines another.
        let doc = crd(
            "AWSCluster",
            "  - name: v1\n    description: \"see DockerCluster\\n\"\n",
        );
        assert_eq!(header_kind(&doc, true), Some("AWSCluster"));
        assert!(!may_define(&doc, &kinds(&["DockerCluster"])));
        assert!(may_define(&doc, &kinds(&["AWSCluster"])));
        // Another object: its own kind.
        let hooks = "---\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nwebhooks:\n- name: x\n";
        assert_eq!(
            header_kind(hooks, true),
            Some("MutatingWebhookConfiguration")
        );
        // Unusual spellings on the way fall back to the whole-text test.
        for odd in [
            "kind: CustomResourceDefinition\nspec:\n  names: {kind: DockerCluster}\n",
            "kind: CustomResourceDefinition\nspec:\n  names:\n    kind: \"DockerCluster\"\n",
            "kind: CustomResourceDefinition\nspec:\n  names:\n    kind: !!str DockerCluster\n",
            "kind: CustomResourceDefinition\nspec:\n  names: &n\n    kind: DockerCluster\n",
            "kind: CustomResourceDefinition\nspec:\n\tnames:\n",
            "{kind: CustomResourceDefinition}\n",
            "\"kind\": CustomResourceDefinition\n",
        ] {
            assert_eq!(header_kind(odd, true), None, "{odd:?}");
        }
        // A block scalar elsewhere is passed over, even when it holds `kind:` lines.
        let doc = "kind: CustomResourceDefinition\nmetadata:\n  annotations:\n    note: |\n      spec:\n        names:\n          kind: DockerCluster\nspec:\n  names:\n    kind: AWSCluster\n";
        assert_eq!(header_kind(doc, true), Some("AWSCluster"));
        // A List's items are objects of their own.
        assert_eq!(
            header_kind("apiVersion: v1\nkind: List\nitems: []\n", true),
            None
        );
        // Names before the top-level kind: not decided here.
        assert_eq!(
            header_kind(
                "spec:\n  names:\n    kind: AWSCluster\nkind: CustomResourceDefinition\n",
                true
            ),
            None
        );
    }

    /// A CRD in controller-gen's layout with two versions.
    const LAYOUT: &str = "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    categories:\n    - x\n    kind: Widget\n  scope: Namespaced\n  versions:\n  - additionalPrinterColumns:\n    - jsonPath: .a\n      name: A\n    name: v1\n    schema:\n      openAPIV3Schema:\n        description: \"two\n          lines\"\n\n        type: object\n    served: true\n  - name: v2\n    schema:\n      openAPIV3Schema:\n        type: object\n    served: true\n    storage: true\n";

    fn cut_of(text: &str, versions: &[&str]) -> Vec<std::ops::Range<usize>> {
        unused_schema_lines(text, &|g| {
            g.group == "example.com" && g.kind == "Widget" && versions.contains(&g.version.as_str())
        })
    }

    #[test]
    fn the_schemas_of_unwanted_versions_are_cut_as_whole_lines() {
        let cuts = cut_of(LAYOUT, &["v2"]);
        assert_eq!(cuts.len(), 1);
        let cut = &LAYOUT[cuts[0].clone()];
        assert!(
            cut.starts_with("    schema:\n") && cut.ends_with("        type: object\n"),
            "{cut:?}"
        );
        assert!(cut.contains("lines"));
        // The second version's schema runs to a `served` line, so it is cut too when unwanted.
        assert_eq!(cut_of(LAYOUT, &["v1"]).len(), 1);
        assert_eq!(cut_of(LAYOUT, &[]).len(), 2);
        assert!(cut_of(LAYOUT, &["v1", "v2"]).is_empty());
    }

    #[test]
    fn anything_unusual_on_the_way_cuts_nothing() {
        for (from, to) in [
            ("  group: example.com", "  group: \"example.com\""),
            ("    kind: Widget", "    kind: !!str Widget"),
            ("  - name: v2", "  - name: \"v2\""),
            ("    name: v1", "    name: 'v1'"),
            ("  versions:\n", "  versions: !!seq\n"),
            ("kind: CustomResourceDefinition", "kind: Other"),
            (
                "apiVersion: apiextensions.k8s.io/v1\n",
                "apiVersion: apiextensions.k8s.io/v1beta1\n",
            ),
            ("  scope: Namespaced", "\tscope: Namespaced"),
            ("  scope: Namespaced", "   scope: Namespaced"),
            ("spec:\n", "spec: &s\n"),
        ] {
            assert!(LAYOUT.contains(from), "{from}");
            let text = LAYOUT.replace(from, to);
            let cuts = cut_of(&text, &[]);
            // Only the unplain version's name stops its own cut; anything else stops all.
            let expect = usize::from(from.contains("name: v"));
            assert!(cuts.len() <= expect, "{to:?}: {cuts:?}");
        }
        // A schema that is the document's last value, and a second document.
        let last = LAYOUT.trim_end_matches("    served: true\n    storage: true\n");
        assert_eq!(cut_of(last, &["v2"]).len(), 1);
        assert!(cut_of(last, &["v1"]).is_empty());
        assert!(cut_of(&format!("{LAYOUT}---\na: 1\n"), &[]).is_empty());
    }

    /// Read with the cuts, the documents are those read with the span-free reader leaving the
    /// same schemas out, extents included: on the layout and on every fixture CRD.
    #[test]
    fn cut_reading_is_leaving_out_while_reading() {
        use crate::load::yaml::parse_stream_kept;
        use crate::source::SourceFile;
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/crds");
        let mut texts = vec![LAYOUT.to_string()];
        for f in ["capa", "capd", "kubeadm-bootstrap", "kubeadm-control-plane"] {
            texts.push(std::fs::read_to_string(format!("{dir}/{f}.yaml")).unwrap());
        }
        let mut cut_any = false;
        for text in texts {
            for wanted in [vec![], vec!["v1beta1"], vec!["v1beta2", "v2"]] {
                let with_cut =
                    unused_version_schemas(move |g| wanted.contains(&g.version.as_str()));
                let without = crate::load::yaml::fast::SkipValue {
                    cut: None,
                    ..with_cut.clone()
                };
                let file = SourceFile::new("t.yaml", text.clone());
                let pieces = crate::load::yaml::Pieces::new(&file);
                if let Some(c) = &with_cut.cut {
                    cut_any |= (0..pieces.len()).any(|i| !c(pieces.text(i)).is_empty());
                }
                let a = parse_stream_kept(&file, &|_: &str| true, Some(&with_cut)).unwrap();
                let b = parse_stream_kept(&file, &|_: &str| true, Some(&without)).unwrap();
                assert_eq!(a.len(), b.len());
                for (a, b) in a.iter().zip(&b) {
                    assert_eq!((&a.value, a.span), (&b.value, b.span));
                    // Locations come from the whole text either way.
                    assert_eq!(
                        a.spans.value_span("/spec/names/kind"),
                        b.spans.value_span("/spec/names/kind")
                    );
                }
            }
        }
        assert!(cut_any);
    }

    #[test]
    fn no_wanted_kind_keeps_nothing_plain() {
        assert!(!may_define("kind: CustomResourceDefinition\n", &[]));
        assert!(!may_define("kind: X\n", &kinds(&[""])));
    }

    /// A CRD with generated descriptions, as controller-gen writes them.
    const DESCRIBED: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        description: |-\n          A widget: \"quoted\", # not a comment.\n\n          More.\n        properties:\n          description:\n            description: |-\n              A field named description.\n            type: string\n          items:\n            items:\n              description: >-\n                folded\n              type: string\n            type: array\n          d:\n            default:\n              description: |-\n                a default, kept\n            type: object\n        type: object\n    served: true\n";

    /// The text of each range.
    fn cut_texts<'t>(text: &'t str, ranges: &[std::ops::Range<usize>]) -> Vec<&'t str> {
        ranges.iter().map(|r| &text[r.clone()]).collect()
    }

    #[test]
    fn schema_descriptions_are_cut_as_whole_lines_and_nothing_else() {
        let cuts = schema_description_lines(DESCRIBED, &[]);
        assert_eq!(
            cut_texts(DESCRIBED, &cuts),
            [
                "        description: |-\n          A widget: \"quoted\", # not a comment.\n\n          More.\n",
                "            description: |-\n              A field named description.\n",
                "              description: >-\n                folded\n",
            ]
        );
        // Read with the cuts, the value is the whole text's without those three descriptions,
        // and its extent is the whole text's.
        let skip = unused_version_schemas(|_| true);
        let file = crate::source::SourceFile::new("t.yaml", DESCRIBED);
        let read =
            crate::load::yaml::parse_stream_kept(&file, &|_: &str| true, Some(&skip)).unwrap();
        let whole = crate::load::yaml::parse_stream(&file).unwrap();
        let mut want = whole[0].value.clone();
        let schema = &mut want["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
        schema.as_object_mut().unwrap().remove("description");
        let description = &mut schema["properties"]["description"];
        description.as_object_mut().unwrap().remove("description");
        let items = &mut schema["properties"]["items"]["items"];
        items.as_object_mut().unwrap().remove("description");
        assert_eq!(read[0].value, want);
        assert_eq!(read[0].span, whole[0].span);
        // An unwanted version's schema is cut whole, descriptions and all.
        let skip = unused_version_schemas(|_| false);
        let read =
            crate::load::yaml::parse_stream_kept(&file, &|_: &str| true, Some(&skip)).unwrap();
        assert!(read[0].value["spec"]["versions"][0].get("schema").is_none());
    }

    #[test]
    fn descriptions_that_reading_could_fail_on_or_that_are_not_documentation_are_kept() {
        let one = |text: &str| schema_description_lines(text, &[]).len();
        assert_eq!(one(DESCRIBED), 3);
        // Not followed by a key of the same mapping: the last key, and the end of the text.
        let last = DESCRIBED.replace(
            "              A field named description.\n            type: string\n",
            "              A field named description.\n",
        );
        assert_eq!(one(&last), 2);
        let end = "apiVersion: v1\nspec:\n  versions:\n  - schema:\n      openAPIV3Schema:\n        description: |-\n          x\n";
        assert_eq!(one(end), 0);
        // A tab, a carriage return or a character beyond printable ASCII in the text.
        for odd in ["\t", "\r", "\u{85}", "é"] {
            let t = DESCRIBED.replace("More.", &format!("More{odd}."));
            let kept = if matches!(odd, "\t" | "\r") { 0 } else { 2 };
            assert_eq!(one(&t), kept, "{odd:?}");
        }
        // Lines indented as YAML refuses: a less indented line, a leading blank line more
        // indented than the text. Not cut, the reader reports them where they are.
        let less = DESCRIBED.replace("          More.", "         More.");
        assert_eq!(one(&less), 2);
        let blank = DESCRIBED.replace(
            "        description: |-\n          A widget",
            "        description: |-\n                \n          A widget",
        );
        assert_eq!(one(&blank), 2);
        let file = crate::source::SourceFile::new("t.yaml", blank.clone());
        let skip = unused_version_schemas(|_| true);
        assert!(crate::load::yaml::parse_stream_kept(&file, &|_: &str| true, Some(&skip)).is_err());
        // A description written twice in one mapping (a duplicate key): nothing is cut.
        let twice = DESCRIBED.replace(
            "            type: string\n",
            "            description: |-\n              again\n            type: string\n",
        );
        assert_eq!(one(&twice), 0);
        // On an item's line, and under a key that is no schema's keyword.
        let item = DESCRIBED.replace("          items:\n            items:\n              description: >-\n                folded\n              type: string\n", "          items:\n            anyOf:\n            - description: >-\n                folded\n              type: string\n");
        assert_eq!(one(&item), 2);
        // A second document; a quoted value over more lines is passed over where they are
        // more indented than its key, and stops everything where one is not.
        assert_eq!(one(&format!("{DESCRIBED}---\na: 1\n")), 0);
        let quoted = |q: &str| DESCRIBED.replace("    served: true", &format!("    served: {q}"));
        assert_eq!(one(&quoted("\"a \\\" b\n\n      c\"")), 3);
        assert_eq!(one(&quoted("'a'' b\n      c' # c")), 3);
        assert_eq!(one(&quoted("\"true\n    \"")), 0);
        assert_eq!(one(&quoted("'a\n   b''")), 0);
    }

    #[test]
    fn plain_descriptions_are_cut_where_they_can_only_be_text() {
        // A long one-line description as controller-gen's YAML writer folds it, then one on a
        // line of its own, each followed by another key of its mapping.
        let plain = |d: &str| {
            DESCRIBED.replace(
                "            description: |-\n              A field named description.\n",
                &format!("            description: {d}\n"),
            )
        };
        let folded = plain(
            "A field named description, folded over\n              two lines (see https://x.io/a).",
        );
        let cuts = schema_description_lines(&folded, &[]);
        assert_eq!(
            cut_texts(&folded, &cuts)[1],
            "            description: A field named description, folded over\n              two lines (see https://x.io/a).\n"
        );
        let skip = unused_version_schemas(|_| true);
        let file = crate::source::SourceFile::new("t.yaml", folded.clone());
        let read =
            crate::load::yaml::parse_stream_kept(&file, &|_: &str| true, Some(&skip)).unwrap();
        let property = &read[0].value["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]
            ["description"];
        assert_eq!(property, &serde_json::json!({"type": "string"}));
        assert_eq!(schema_description_lines(&plain("Two words."), &[]).len(), 3);
        // Kept (two cuts, the block scalars'): what could be no string (one word, a number, a
        // boolean), what a reader could fail on or read otherwise (`: `, ` #`, a line ending
        // in `:`, an indicator starting a line, text beyond printable ASCII), and a last key.
        for kept in [
            "Word",
            "true",
            "1.5 GiB",
            "\"A quoted one.\"",
            "See: this.",
            "A comment # here.",
            "Ends in a colon:",
            "Folded with\n              - an item",
            "Folded with\n              #a comment",
            "Folded with\n              \"a quote",
            "Not ASCII \u{e9}.",
        ] {
            assert_eq!(
                schema_description_lines(&plain(kept), &[]).len(),
                2,
                "{kept:?}"
            );
        }
        // A line as indented as the key, and no key: not laid out as the scan knows, nothing
        // is cut (the reader reports it).
        let less = plain("Less indented\n            than its key");
        assert!(schema_description_lines(&less, &[]).is_empty());
        let last = folded.replace(
            "            type: string\n          items:",
            "          items:",
        );
        assert_eq!(schema_description_lines(&last, &[]).len(), 2);
    }

    /// Descriptions before every keyword `type` of the fixture CRDs' schemas are all cut, and
    /// the documents read as without them.
    #[test]
    fn fixture_crds_with_descriptions_read_as_without() {
        use crate::load::yaml::parse_stream_kept;
        use crate::source::SourceFile;
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/crds");
        let mut cut = 0;
        for f in ["capa", "capd", "kubeadm-bootstrap", "kubeadm-control-plane"] {
            let text = std::fs::read_to_string(format!("{dir}/{f}.yaml")).unwrap();
            let mut described = String::new();
            let mut added = 0;
            // Values that are no schema (a `default`'s) get none.
            let mut value_at: Option<usize> = None;
            for line in text.split_inclusive('\n') {
                let body = line.trim_start_matches(' ');
                let indent = line.len() - body.len();
                if value_at.is_some_and(|d| indent <= d) {
                    value_at = None;
                }
                if value_at.is_none()
                    && (body.starts_with("default:") || body.starts_with("example:"))
                {
                    value_at = Some(indent);
                }
                if body.starts_with("type: ") && indent > 8 && value_at.is_none() {
                    let pad = " ".repeat(indent);
                    described.push_str(&format!(
                        "{pad}description: |-\n{pad}  Generated: \"text\", # and [more] {{of it}}.\n\n{pad}  Second line.\n"
                    ));
                    added += 1;
                }
                described.push_str(line);
            }
            assert!(added > 50, "{f}");
            for wanted in [vec![], vec!["v1beta1"], vec!["v1beta2", "v2"]] {
                let skip = unused_version_schemas(move |g| wanted.contains(&g.version.as_str()));
                let a = SourceFile::new("a.yaml", text.clone());
                let b = SourceFile::new("b.yaml", described.clone());
                let pieces = crate::load::yaml::Pieces::new(&b);
                if let Some(c) = &skip.cut {
                    cut += (0..pieces.len())
                        .map(|i| c(pieces.text(i)).nodes)
                        .sum::<usize>();
                }
                let a = parse_stream_kept(&a, &|_: &str| true, Some(&skip)).unwrap();
                let b = parse_stream_kept(&b, &|_: &str| true, Some(&skip)).unwrap();
                assert_eq!(a.len(), b.len());
                for (a, b) in a.iter().zip(&b) {
                    assert_eq!(a.value, b.value, "{f}");
                }
            }
        }
        assert!(cut > 500, "{cut}");
    }
}
