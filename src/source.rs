/*!
Source files and positions.

Every byte topoplan reads comes from a [`SourceFile`]; every node it parses remembers where it
stood in that file through a [`SpanTable`] keyed by JSON pointer. Diagnostics anywhere in the
pipeline turn a pointer back into `file:line:col` and a snippet through these types, so later
stages never need to know about YAML.
*/

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// One input file (or standard input) as it was read, after optional variable substitution.
#[derive(Debug)]
pub struct SourceFile {
    /// Display name: the path as the user gave it, or `<stdin>`.
    pub name: String,
    /// The text that was parsed.
    pub text: String,
}

impl SourceFile {
    /// A shared source file.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Arc<SourceFile> {
        Arc::new(SourceFile {
            name: name.into(),
            text: text.into(),
        })
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = self.text.get(..offset).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
        (line, col)
    }
}

/// A byte range in a [`SourceFile`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// Byte offset of the first byte.
    pub offset: usize,
    /// Length in bytes (may be 0).
    pub len: usize,
}

impl Span {
    /// A span from byte offset and length.
    pub fn new(offset: usize, len: usize) -> Span {
        Span { offset, len }
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        miette::SourceSpan::new(s.offset.into(), s.len)
    }
}

/// Where each node of one parsed document stands in its file.
///
/// Keys are RFC 6901 JSON pointers relative to the document root (`""` is the root).
/// `values` holds the span of each node's value; `keys` the span of the mapping key that
/// introduced it (absent for sequence items and the root).
#[derive(Debug, Default, Clone)]
pub struct SpanTable {
    /// Span of each node's value.
    pub values: BTreeMap<String, Span>,
    /// Span of the mapping key of each node that is a mapping value.
    pub keys: BTreeMap<String, Span>,
    /// Set for a table built only when first asked ([`SpanTable::on_demand`]).
    deferred: Option<Arc<Deferred>>,
}

/// How to build a deferred table.
struct Deferred {
    from: Source,
    table: OnceLock<SpanTable>,
}

/// Where a deferred table comes from.
enum Source {
    /// Its document's text, parsed again.
    Document {
        file: Arc<SourceFile>,
        /// The document's extent in the file.
        doc: Span,
        /// The span table of a document's text starting at a byte offset of its file, or
        /// `None` when it does not parse alone.
        parse: fn(&str, usize) -> Option<SpanTable>,
    },
    /// A subtree of another deferred table (an item of a List): the items of one document share
    /// its one parse.
    Subtree { of: Arc<Deferred>, prefix: String },
}

impl std::fmt::Debug for Deferred {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Deferred");
        match &self.from {
            Source::Document { doc, .. } => d.field("doc", doc),
            Source::Subtree { prefix, .. } => d.field("prefix", prefix),
        };
        d.finish_non_exhaustive()
    }
}

impl Deferred {
    fn new(from: Source) -> Arc<Deferred> {
        Arc::new(Deferred {
            from,
            table: OnceLock::new(),
        })
    }

    fn table(&self) -> &SpanTable {
        self.table.get_or_init(|| match &self.from {
            Source::Document { file, doc, parse } => file
                .text
                .get(doc.offset..doc.offset + doc.len)
                .and_then(|t| parse(t, doc.offset))
                .unwrap_or_default(),
            Source::Subtree { of, prefix } => of.table().subtree(prefix),
        })
    }
}

impl SpanTable {
    /// A table of the spans recorded while parsing.
    pub fn new(values: BTreeMap<String, Span>, keys: BTreeMap<String, Span>) -> SpanTable {
        SpanTable {
            values,
            keys,
            deferred: None,
        }
    }

    /// A table built only when a location is first asked of it, by parsing the document at `doc`
    /// of `file` again with `parse`. For inputs read in bulk whose nodes are almost never
    /// reported (CRDs: a provider's run to several hundred kilobytes), where recording every
    /// node's span cost a fifth of reading them.
    pub fn on_demand(
        file: Arc<SourceFile>,
        doc: Span,
        parse: fn(&str, usize) -> Option<SpanTable>,
    ) -> SpanTable {
        SpanTable {
            deferred: Some(Deferred::new(Source::Document { file, doc, parse })),
            ..SpanTable::default()
        }
    }

    /// The span of the node at `pointer`, or of its nearest ancestor that exists: a field that is
    /// missing is reported at the object that should have held it.
    pub fn value_span(&self, pointer: &str) -> Option<Span> {
        if let Some(d) = &self.deferred {
            return d.table().value_span(pointer);
        }
        let mut p = pointer;
        loop {
            if let Some(s) = self.values.get(p) {
                return Some(*s);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return None,
            }
        }
    }

    /// The span of the key that introduced `pointer` if there is one, else its value span.
    pub fn key_or_value_span(&self, pointer: &str) -> Option<Span> {
        if let Some(d) = &self.deferred {
            return d.table().key_or_value_span(pointer);
        }
        self.keys
            .get(pointer)
            .copied()
            .or_else(|| self.value_span(pointer))
    }

    /// A new table holding only the entries under `prefix`, re-rooted so that `prefix` becomes `""`.
    pub fn subtree(&self, prefix: &str) -> SpanTable {
        fn pick(map: &BTreeMap<String, Span>, prefix: &str) -> BTreeMap<String, Span> {
            map.range(prefix.to_string()..)
                .take_while(|(k, _)| k.starts_with(prefix))
                .filter_map(|(k, v)| {
                    let rest = &k[prefix.len()..];
                    (rest.is_empty() || rest.starts_with('/')).then(|| (rest.to_string(), *v))
                })
                .collect()
        }
        if let Some(d) = &self.deferred {
            return SpanTable {
                deferred: Some(Deferred::new(Source::Subtree {
                    of: Arc::clone(d),
                    prefix: prefix.to_string(),
                })),
                ..SpanTable::default()
            };
        }
        SpanTable {
            values: pick(&self.values, prefix),
            keys: pick(&self.keys, prefix),
            deferred: None,
        }
    }
}

/// Escape one reference token for a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_string()
    }
}

/// Build a JSON pointer from tokens.
pub fn pointer<I, S>(tokens: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut out = String::new();
    for t in tokens {
        out.push('/');
        out.push_str(&escape_token(t.as_ref()));
    }
    out
}

/// Where a value came from: a file, and a pointer into one document of it.
#[derive(Debug, Clone)]
pub struct Origin {
    /// The file.
    pub file: Arc<SourceFile>,
    /// Spans of the object's nodes, rooted at the object.
    pub spans: Arc<SpanTable>,
}

impl Origin {
    /// Span of the node at `pointer` (or its nearest ancestor), relative to the object.
    pub fn span(&self, pointer: &str) -> Option<Span> {
        self.spans.value_span(pointer)
    }

    /// `file:line:col` of the node at `pointer`, for one-line messages.
    pub fn location(&self, pointer: &str) -> String {
        match self.span(pointer) {
            Some(s) => {
                let (l, c) = self.file.line_col(s.offset);
                format!("{}:{l}:{c}", self.file.name)
            }
            None => self.file.name.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let f = SourceFile::new("f", "ab\nçd: x\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        // "ç" is two bytes; the "d" after it is column 2.
        assert_eq!(f.line_col(5), (2, 2));
    }

    #[test]
    fn missing_pointer_falls_back_to_ancestor() {
        let mut t = SpanTable::default();
        t.values.insert(String::new(), Span::new(0, 10));
        t.values.insert("/spec".into(), Span::new(3, 4));
        assert_eq!(t.value_span("/spec/topology/class"), Some(Span::new(3, 4)));
        assert_eq!(t.value_span("/metadata"), Some(Span::new(0, 10)));
    }

    #[test]
    fn subtree_reroots() {
        let mut t = SpanTable::default();
        t.values.insert("/items/1".into(), Span::new(5, 1));
        t.values.insert("/items/1/kind".into(), Span::new(6, 1));
        t.values.insert("/items/10".into(), Span::new(9, 1));
        let s = t.subtree("/items/1");
        assert_eq!(s.values.len(), 2);
        assert_eq!(s.values.get(""), Some(&Span::new(5, 1)));
        assert_eq!(s.values.get("/kind"), Some(&Span::new(6, 1)));
    }

    #[test]
    fn pointer_escapes() {
        assert_eq!(
            pointer(["metadata", "labels", "a/b~c"]),
            "/metadata/labels/a~1b~0c"
        );
    }
}
