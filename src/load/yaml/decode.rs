/*!
Decoding: one composed document → a `serde_json::Value` and its span table, with the semantics of
yaml.v2's `decoder` (into `interface{}`) followed by sigs.k8s.io/yaml's `convertToJSONableObject`
and `json.Marshal`:

- aliases expand (a node that contains its own alias is an error, as in Go), with Go's
  "excessive aliasing" ratio check against alias bombs;
- merge keys `<<` apply *in document order* — a later `<<` overrides keys set before it, and later
  explicit keys override merged ones. That is what yaml.v2 does (not what the YAML merge spec
  says), and therefore what kubectl sends;
- non-string keys are stringified like sigs.k8s.io/yaml (`1` → `"1"`, `y` → `"true"`, float keys
  through Go's float32 `%g`); collection keys are errors at once, while `null` and `uint64` keys
  and NaN/infinite values are errors only if they survive into the final value (a later merge or
  key can still replace them — Go only fails when converting the finished map to JSON);
- **deviation:** a key repeated in one mapping is an error here, where Go silently keeps the last
  value. A repeated key is almost always a copy-paste mistake that would silently drop settings.

The result is first built as an [`Out`] tree so that a later key can replace an earlier (merged)
entry together with all the spans beneath it; then it is flattened.
*/

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::compose::{Composed, Node, NodeId, NodeKind};
use super::error::YamlError;
use super::resolve::{self, MERGE_TAG, Resolved};
use crate::source::{Span, SpanTable, escape_token};

/// Deepest nesting accepted after alias expansion. The parser already stops at 255 levels per
/// kind; aliases can stack further. This bound keeps every recursion here (and serde_json's
/// recursive drop) far from the stack limit of a 2 MiB thread.
const MAX_DEPTH: usize = 512;

/// Upper bound on the bytes of JSON pointers stored in one document's span table. Only reachable
/// with pathological inputs (very long keys under deep nesting, multiplied by aliases).
const MAX_POINTER_BYTES: usize = 64 << 20;

/// yaml.v2's alias-ratio thresholds (decode.go `allowedAliasRatio`).
const ALIAS_RATIO_RANGE_LOW: u64 = 400_000;
const ALIAS_RATIO_RANGE_HIGH: u64 = 4_000_000;

/// A decoded node with its span.
#[derive(Debug)]
pub(super) enum Out {
    Leaf(Span, Value),
    /// A value with no JSON form (NaN, ±Inf): an error only if it is still there at the end.
    Invalid(Span, String),
    Seq(Span, Vec<Out>),
    Map(Span, Entries),
}

impl Out {
    fn span(&self) -> Span {
        match self {
            Out::Leaf(s, _) | Out::Invalid(s, _) | Out::Seq(s, _) | Out::Map(s, _) => *s,
        }
    }

    fn set_span(&mut self, new: Span) {
        match self {
            Out::Leaf(s, _) | Out::Invalid(s, _) | Out::Seq(s, _) | Out::Map(s, _) => *s = new,
        }
    }
}

/// The entries of a mapping: key → (span of the key, value).
#[derive(Debug, Default)]
pub(super) struct Entries {
    good: BTreeMap<String, (Span, Out)>,
    /// Keys that have no JSON form; kept apart so later entries can still replace them.
    bad: BTreeMap<BadKey, (Span, Out)>,
}

/// A key sigs.k8s.io/yaml cannot turn into a string (Go's `nil` and `uint64` keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum BadKey {
    Null,
    Uint(u64),
}

impl BadKey {
    fn message(self) -> String {
        match self {
            BadKey::Null => "a null mapping key cannot be converted to JSON".to_string(),
            BadKey::Uint(u) => format!(
                "mapping key {u} does not fit in a signed 64-bit integer and cannot be converted \
                 to JSON (sigs.k8s.io/yaml rejects uint64 keys)"
            ),
        }
    }
}

/// A mapping key after resolution.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum MapKey {
    Good(String),
    Bad(BadKey),
}

impl Entries {
    fn insert(&mut self, key: MapKey, key_span: Span, value: Out) {
        match key {
            MapKey::Good(k) => {
                self.good.insert(k, (key_span, value));
            }
            MapKey::Bad(b) => {
                self.bad.insert(b, (key_span, value));
            }
        }
    }
}

/// Decode a composed document, rejecting duplicate keys.
pub(super) fn decode(doc: &Composed) -> Result<Out, YamlError> {
    decode_with(doc, false)
}

/// Decode a composed document; with `last_wins`, a repeated key replaces the earlier value as
/// yaml.v2 does, instead of being an error.
pub(super) fn decode_with(doc: &Composed, last_wins: bool) -> Result<Out, YamlError> {
    let mut d = Decoder {
        doc,
        active_aliases: Vec::new(),
        decode_count: 0,
        alias_count: 0,
        last_wins,
    };
    d.value(doc.root, 0)
}

struct Decoder<'a> {
    doc: &'a Composed,
    /// Alias nodes currently being expanded (yaml.v2's `d.aliases`).
    active_aliases: Vec<NodeId>,
    decode_count: u64,
    alias_count: u64,
    /// Repeated keys replace earlier ones (Go's behaviour) instead of being rejected.
    last_wins: bool,
}

impl<'a> Decoder<'a> {
    fn node(&self, id: NodeId) -> Result<&'a Node, YamlError> {
        let doc: &'a Composed = self.doc;
        doc.nodes
            .get(id)
            .ok_or_else(|| YamlError::internal_at(doc.span, "dangling node reference"))
    }

    /// yaml.v2 counts every `unmarshal` call, and those made while expanding an alias; a document
    /// built mostly out of alias expansions is rejected before it can exhaust memory.
    fn count(&mut self, span: Span, depth: usize) -> Result<(), YamlError> {
        self.decode_count += 1;
        if !self.active_aliases.is_empty() {
            self.alias_count += 1;
        }
        if self.alias_count > 100
            && self.decode_count > 1000
            && self.alias_count as f64 / self.decode_count as f64
                > allowed_alias_ratio(self.decode_count)
        {
            return Err(YamlError::new(
                "document contains excessive aliasing",
                span,
                "alias expanded here",
            )
            .with_help(
                "aliases expand to far more nodes than the document itself holds (an alias bomb?)",
            ));
        }
        if depth > MAX_DEPTH {
            return Err(YamlError::new(
                format!("YAML nesting exceeds {MAX_DEPTH} levels (after expanding aliases)"),
                span,
                "too deep",
            ));
        }
        Ok(())
    }

    fn enter_alias(&mut self, id: NodeId, name: &str, span: Span) -> Result<(), YamlError> {
        if self.active_aliases.contains(&id) {
            return Err(YamlError::new(
                format!("anchor '{name}' value contains itself"),
                span,
                "recursive alias",
            ));
        }
        self.active_aliases.push(id);
        Ok(())
    }

    /// Decode any node. The work of each kind lives in its own function so that the frame of
    /// this recursive hub stays small (debug builds do not share stack slots between arms).
    fn value(&mut self, id: NodeId, depth: usize) -> Result<Out, YamlError> {
        let node = self.node(id)?;
        self.count(node.span, depth)?;
        match &node.kind {
            NodeKind::Alias { target, name } => {
                self.alias_value(id, *target, name, node.span, depth)
            }
            NodeKind::Scalar { .. } => scalar_value(node),
            NodeKind::Seq(items) => self.seq_value(items, node.span, depth),
            NodeKind::Map(_) => self.map_value(id, node.span, depth),
        }
    }

    #[inline(never)]
    fn alias_value(
        &mut self,
        id: NodeId,
        target: NodeId,
        name: &str,
        span: Span,
        depth: usize,
    ) -> Result<Out, YamlError> {
        self.enter_alias(id, name, span)?;
        let out = self.value(target, depth);
        self.active_aliases.pop();
        // The alias itself is where this value is written; what is inside it is written at the
        // anchor, so only the root of the expansion takes the alias's span.
        let mut out = out?;
        out.set_span(span);
        Ok(out)
    }

    #[inline(never)]
    fn seq_value(&mut self, items: &[NodeId], span: Span, depth: usize) -> Result<Out, YamlError> {
        let mut out = Vec::with_capacity(items.len());
        for &item in items {
            out.push(self.value(item, depth + 1)?);
        }
        Ok(Out::Seq(span, out))
    }

    #[inline(never)]
    fn map_value(&mut self, id: NodeId, span: Span, depth: usize) -> Result<Out, YamlError> {
        let mut map = Entries::default();
        self.mapping_into(id, &mut map, depth)?;
        Ok(Out::Map(span, map))
    }

    /// Decode the mapping `id` into `out`, overriding what is there (yaml.v2's `mapping` into an
    /// existing map, which is also how merges work).
    fn mapping_into(
        &mut self,
        id: NodeId,
        out: &mut Entries,
        depth: usize,
    ) -> Result<(), YamlError> {
        let node = self.node(id)?;
        let NodeKind::Map(pairs) = &node.kind else {
            return Err(YamlError::internal_at(node.span, "mapping expected"));
        };
        // Keys written explicitly in *this* mapping, for duplicate detection.
        let mut seen: HashMap<MapKey, Span> = HashMap::new();
        for &(k, v) in pairs {
            match self.entry_key(k, &mut seen, depth)? {
                None => self.merge(v, out, depth + 1)?,
                Some((key, key_span)) => {
                    let value = self.value(v, depth + 1)?;
                    out.insert(key, key_span, value);
                }
            }
        }
        Ok(())
    }

    /// The key of one mapping entry (`None` for a merge key), rejecting a repeated key.
    #[inline(never)]
    fn entry_key(
        &mut self,
        k: NodeId,
        seen: &mut HashMap<MapKey, Span>,
        depth: usize,
    ) -> Result<Option<(MapKey, Span)>, YamlError> {
        if self.is_merge(k)? {
            return Ok(None);
        }
        let (key, key_span) = self.key(k, depth + 1)?;
        if let Some(first) = seen.get(&key).filter(|_| !self.last_wins) {
            let shown = match &key {
                MapKey::Good(s) => format!("{s:?}"),
                MapKey::Bad(BadKey::Null) => "null".to_string(),
                MapKey::Bad(BadKey::Uint(u)) => u.to_string(),
            };
            return Err(YamlError::duplicate_key(&shown, key_span, *first));
        }
        seen.insert(key.clone(), key_span);
        Ok(Some((key, key_span)))
    }

    /// yaml.v2's `isMerge`: the plain (or `!!merge`-tagged) scalar `<<`; an alias is never one.
    fn is_merge(&self, k: NodeId) -> Result<bool, YamlError> {
        Ok(match &self.node(k)?.kind {
            NodeKind::Scalar {
                value,
                implicit,
                tag,
            } => value == "<<" && (*implicit || tag.as_deref() == Some(MERGE_TAG)),
            _ => false,
        })
    }

    /// yaml.v2's `merge`: a mapping, an alias of one, or a sequence of those (applied last to
    /// first, so earlier ones win among themselves).
    fn merge(&mut self, v: NodeId, out: &mut Entries, depth: usize) -> Result<(), YamlError> {
        let node = self.node(v)?;
        let want_map = || {
            YamlError::new(
                "map merge requires map or sequence of maps as the value",
                node.span,
                "not a mapping",
            )
        };
        match &node.kind {
            NodeKind::Map(_) => {
                self.count(node.span, depth)?;
                self.mapping_into(v, out, depth)
            }
            NodeKind::Alias { .. } => self.merge_alias(v, out, depth),
            NodeKind::Seq(items) => {
                // Go walks the items directly, without counting the sequence itself.
                for &item in items.iter().rev() {
                    let inode = self.node(item)?;
                    match &inode.kind {
                        NodeKind::Map(_) => {
                            self.count(inode.span, depth + 1)?;
                            self.mapping_into(item, out, depth + 1)?;
                        }
                        NodeKind::Alias { .. } => self.merge_alias(item, out, depth + 1)?,
                        _ => {
                            return Err(YamlError::new(
                                "map merge requires map or sequence of maps as the value",
                                inode.span,
                                "not a mapping",
                            ));
                        }
                    }
                }
                Ok(())
            }
            NodeKind::Scalar { .. } => Err(want_map()),
        }
    }

    fn merge_alias(
        &mut self,
        alias: NodeId,
        out: &mut Entries,
        depth: usize,
    ) -> Result<(), YamlError> {
        let node = self.node(alias)?;
        let NodeKind::Alias { target, name } = &node.kind else {
            return Err(YamlError::internal_at(node.span, "alias expected"));
        };
        let tnode = self.node(*target)?;
        if !matches!(tnode.kind, NodeKind::Map(_)) {
            return Err(YamlError::new(
                "map merge requires map or sequence of maps as the value",
                node.span,
                "not an alias of a mapping",
            ));
        }
        self.count(node.span, depth)?;
        self.enter_alias(alias, name, node.span)?;
        let r = self
            .count(tnode.span, depth)
            .and_then(|()| self.mapping_into(*target, out, depth));
        self.active_aliases.pop();
        r
    }

    /// A mapping key as sigs.k8s.io/yaml turns it into a JSON object key, with the span of the
    /// key as written (the alias token for an aliased key).
    fn key(&mut self, id: NodeId, depth: usize) -> Result<(MapKey, Span), YamlError> {
        let node = self.node(id)?;
        self.count(node.span, depth)?;
        match &node.kind {
            NodeKind::Alias { target, name } => {
                self.enter_alias(id, name, node.span)?;
                let r = self.key(*target, depth);
                self.active_aliases.pop();
                let (k, _) = r?;
                Ok((k, node.span))
            }
            NodeKind::Scalar {
                value,
                implicit,
                tag,
            } => {
                let r = resolve::resolve_scalar(value, *implicit, tag.as_deref())
                    .map_err(|m| YamlError::new(m, node.span, "this key"))?;
                let k = match r {
                    Resolved::Null => MapKey::Bad(BadKey::Null),
                    Resolved::Uint(u) => MapKey::Bad(BadKey::Uint(u)),
                    r => MapKey::Good(resolve::key_string(r)),
                };
                Ok((k, node.span))
            }
            NodeKind::Seq(_) | NodeKind::Map(_) => Err(YamlError::new(
                "invalid map key: a sequence or mapping cannot be a key in JSON",
                node.span,
                "this key",
            )),
        }
    }
}

/// A scalar node as its JSON value.
#[inline(never)]
fn scalar_value(node: &Node) -> Result<Out, YamlError> {
    let NodeKind::Scalar {
        value,
        implicit,
        tag,
    } = &node.kind
    else {
        return Err(YamlError::internal_at(node.span, "scalar expected"));
    };
    let r = resolve::resolve_scalar(value, *implicit, tag.as_deref())
        .map_err(|m| YamlError::new(m, node.span, "this value"))?;
    Ok(match resolve::to_json(r) {
        Ok(v) => Out::Leaf(node.span, v),
        Err(what) => Out::Invalid(
            node.span,
            format!("`{value}` is {what} in YAML 1.1, which JSON cannot represent"),
        ),
    })
}

fn allowed_alias_ratio(decode_count: u64) -> f64 {
    if decode_count <= ALIAS_RATIO_RANGE_LOW {
        0.99
    } else if decode_count >= ALIAS_RATIO_RANGE_HIGH {
        0.10
    } else {
        let range = (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW) as f64;
        0.99 - 0.89 * ((decode_count - ALIAS_RATIO_RANGE_LOW) as f64 / range)
    }
}

/// The value alone (no span table).
pub(super) fn into_value(out: Out) -> Result<Value, YamlError> {
    let mut f = Flattener {
        record_spans: false,
        values: Vec::new(),
        keys: Vec::new(),
        pointer: String::new(),
        budget: MAX_POINTER_BYTES,
    };
    f.walk(out)
}

/// The value and the span of every node, keyed by JSON pointer.
pub(super) fn flatten(out: Out) -> Result<(Value, SpanTable), YamlError> {
    let mut f = Flattener {
        record_spans: true,
        values: Vec::new(),
        keys: Vec::new(),
        pointer: String::new(),
        budget: MAX_POINTER_BYTES,
    };
    let v = f.walk(out)?;
    // Collecting sorts once and bulk-builds the maps, much cheaper than inserting one by one.
    let spans = SpanTable::new(f.values.into_iter().collect(), f.keys.into_iter().collect());
    Ok((v, spans))
}

/// Turns an [`Out`] tree into the JSON value, reporting what has no JSON form (as Go's
/// conversion and `json.Marshal` do), and optionally recording spans.
struct Flattener {
    record_spans: bool,
    /// (pointer, span) of every value / key, in walk order.
    values: Vec<(String, Span)>,
    keys: Vec<(String, Span)>,
    /// The current JSON pointer (maintained only when recording spans).
    pointer: String,
    /// Bytes of pointers still allowed in the span table.
    budget: usize,
}

impl Flattener {
    fn record(&mut self, key: bool, span: Span) -> Result<(), YamlError> {
        if !self.record_spans {
            return Ok(());
        }
        if self.pointer.len() > self.budget {
            return Err(YamlError::new(
                "document too large: its span table would exceed 64 MiB of JSON pointers",
                span,
                "here",
            ));
        }
        self.budget -= self.pointer.len();
        let list = if key {
            &mut self.keys
        } else {
            &mut self.values
        };
        list.push((self.pointer.clone(), span));
        Ok(())
    }

    fn push(&mut self, token: &str) -> usize {
        let len = self.pointer.len();
        if self.record_spans {
            self.pointer.push('/');
            self.pointer.push_str(&escape_token(token));
        }
        len
    }

    /// Recursive hub; the per-kind work is split out to keep its stack frame small.
    fn walk(&mut self, out: Out) -> Result<Value, YamlError> {
        self.record(false, out.span())?;
        match out {
            Out::Leaf(_, v) => Ok(v),
            Out::Invalid(span, message) => Err(invalid_value(span, message)),
            Out::Seq(_, items) => self.walk_seq(items),
            Out::Map(_, entries) => self.walk_map(entries),
        }
    }

    #[inline(never)]
    fn walk_seq(&mut self, items: Vec<Out>) -> Result<Value, YamlError> {
        let mut arr = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let len = self.push(&i.to_string());
            let v = self.walk(item);
            self.pointer.truncate(len);
            arr.push(v?);
        }
        Ok(Value::Array(arr))
    }

    #[inline(never)]
    fn walk_map(&mut self, entries: Entries) -> Result<Value, YamlError> {
        if let Some((bad, (key_span, _))) = entries.bad.into_iter().next() {
            return Err(YamlError::new(bad.message(), key_span, "this key")
                .with_help("quote the key to make it a string"));
        }
        let mut obj = serde_json::Map::new();
        for (k, (key_span, item)) in entries.good {
            let len = self.push(&k);
            let v = self.record(true, key_span).and_then(|()| self.walk(item));
            self.pointer.truncate(len);
            obj.insert(k, v?);
        }
        Ok(Value::Object(obj))
    }
}

#[inline(never)]
fn invalid_value(span: Span, message: String) -> YamlError {
    YamlError::new(message, span, "this value").with_help("quote the value to make it a string")
}
