/*!
Go's `regexp/syntax` parser (`syntax.Parse` with the `Perl` flags `regexp.Compile` uses): the
same checks in the same order with the same error texts, a parse tree shaped like Go's (literal
strings, one-character alternatives merged into a class, common prefixes factored out of
alternations), and that tree written in the `regex` crate's syntax with every construct explicit
(ASCII classes spelled out, flags applied per node, all groups unnamed).
*/

/// Go's `syntax.ErrorCode`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ErrorCode {
    InvalidCharRange,
    InvalidEscape,
    InvalidNamedCapture,
    InvalidPerlOp,
    InvalidRepeatOp,
    InvalidRepeatSize,
    MissingBracket,
    MissingParen,
    MissingRepeatArgument,
    TrailingBackslash,
    UnexpectedParen,
    NestingDepth,
    Large,
}

impl ErrorCode {
    fn text(self) -> &'static str {
        match self {
            ErrorCode::InvalidCharRange => "invalid character class range",
            ErrorCode::InvalidEscape => "invalid escape sequence",
            ErrorCode::InvalidNamedCapture => "invalid named capture",
            ErrorCode::InvalidPerlOp => "invalid or unsupported Perl syntax",
            ErrorCode::InvalidRepeatOp => "invalid nested repetition operator",
            ErrorCode::InvalidRepeatSize => "invalid repeat count",
            ErrorCode::MissingBracket => "missing closing ]",
            ErrorCode::MissingParen => "missing closing )",
            ErrorCode::MissingRepeatArgument => "missing argument to repetition operator",
            ErrorCode::TrailingBackslash => "trailing backslash at end of expression",
            ErrorCode::UnexpectedParen => "unexpected )",
            ErrorCode::NestingDepth => "expression nests too deeply",
            ErrorCode::Large => "expression too large",
        }
    }
}

/// Go's `*syntax.Error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SyntaxError {
    code: ErrorCode,
    expr: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "error parsing regexp: {}: `{}`",
            self.code.text(),
            self.expr
        )
    }
}

impl SyntaxError {
    /// `expression too large`, for a pattern the `regex` crate cannot build within its budget.
    pub(super) fn too_large(expr: &str) -> SyntaxError {
        SyntaxError {
            code: ErrorCode::Large,
            expr: expr.to_string(),
        }
    }
}

fn err<T>(code: ErrorCode, expr: &str) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        code,
        expr: expr.to_string(),
    })
}

/// Go's `maxHeight`.
const MAX_HEIGHT: usize = 1000;
/// Go's `maxSize` (128 MB of 40-byte instructions).
const MAX_SIZE: u64 = (128 << 20) / 40;

/// Parse flags that change meaning (Go's Perl mode: ClassNL, OneLine, PerlX, UnicodeGroups
/// always on; these four toggle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Flags {
    fold_case: bool,
    dot_nl: bool,
    multi_line: bool,
    non_greedy: bool,
}

/// One member of a character class.
#[derive(Debug, Clone, PartialEq)]
enum ClassItem {
    /// Code points `lo..=hi` (may include surrogates, which never match).
    Range(u32, u32),
    /// An ASCII table (Perl `\d` or POSIX `[:alpha:]`), possibly negated.
    Ascii(&'static [(u32, u32)], bool),
    /// A Unicode category or script by Go name, possibly negated.
    Unicode(&'static str, bool),
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Empty,
    /// A literal string (Go merges adjacent literal runes of one case mode into one node);
    /// case-insensitive literals hold Go's representative, the smallest rune of each fold orbit.
    Literal(Vec<u32>, bool),
    Class(Vec<ClassItem>, bool, bool),
    AnyNotNl,
    Any,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture(Box<Node>),
    /// `sub{min,max}`; `max` None is unbounded; `counted` for `{}` (vs `*`, `+`, `?`).
    Repeat {
        sub: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        counted: bool,
    },
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
    /// Single-character matchers merged into one character class (Go's `mergeCharClass`
    /// of alternation branches); kept apart because their case modes may differ.
    Union(Vec<Node>),
}

/// A parse-tree node with Go's height and compiled-size estimates.
#[derive(Debug, Clone, PartialEq)]
struct Node {
    kind: Kind,
    height: usize,
    size: u64,
}

impl Node {
    fn new(kind: Kind) -> Node {
        let (height, size) = match &kind {
            Kind::Literal(runes, _) => (1, runes.len() as u64),
            Kind::Capture(sub) => (sub.height + 1, 2 + sub.size),
            Kind::Repeat {
                sub,
                min,
                max,
                counted,
                ..
            } => {
                let size = match (counted, min, max) {
                    (false, 0, None) => 2 + sub.size,
                    (false, _, _) => 1 + sub.size,
                    (true, 0, None) => 2 + sub.size,
                    (true, m, None) => 1 + u64::from(*m) * sub.size,
                    (true, m, Some(x)) => u64::from(*x) * sub.size + u64::from(x - m),
                };
                (sub.height + 1, size)
            }
            Kind::Concat(subs) => (
                1 + subs.iter().map(|s| s.height).max().unwrap_or(0),
                subs.iter().map(|s| s.size).sum(),
            ),
            Kind::Alternate(subs) | Kind::Union(subs) => (
                1 + subs.iter().map(|s| s.height).max().unwrap_or(0),
                subs.iter().map(|s| s.size).sum::<u64>() + subs.len().saturating_sub(1) as u64,
            ),
            _ => (1, 1),
        };
        Node {
            kind,
            height,
            size: size.max(1),
        }
    }

    fn is_counted_repeat(&self) -> Option<(u32, Option<u32>)> {
        match &self.kind {
            Kind::Repeat {
                min,
                max,
                counted: true,
                ..
            } => Some((*min, *max)),
            _ => None,
        }
    }

    fn children(&self) -> Vec<&Node> {
        match &self.kind {
            Kind::Capture(s) => vec![s],
            Kind::Repeat { sub, .. } => vec![sub],
            Kind::Concat(v) | Kind::Alternate(v) | Kind::Union(v) => v.iter().collect(),
            _ => Vec::new(),
        }
    }
}

/// Go's `repeatIsValid`: nested counted repetitions may not multiply beyond `n` copies.
fn repeat_is_valid(node: &Node, n: u32) -> bool {
    let mut n = n;
    if let Some((min, max)) = node.is_counted_repeat() {
        let m = max.unwrap_or(min);
        if max == Some(0) {
            return true;
        }
        if m > n {
            return false;
        }
        n = n.checked_div(m).unwrap_or(n);
    }
    node.children().into_iter().all(|c| repeat_is_valid(c, n))
}

/// An open group while parsing.
struct Frame {
    /// Completed alternatives.
    alts: Vec<Node>,
    /// The concatenation being built.
    cur: Vec<Node>,
    /// Capture index, for capturing groups.
    cap: Option<usize>,
    /// Flags to restore at `)`.
    saved: Flags,
}

impl Frame {
    fn new(cap: Option<usize>, saved: Flags) -> Frame {
        Frame {
            alts: Vec::new(),
            cur: Vec::new(),
            cap,
            saved,
        }
    }
}

struct Parsed {
    root: Node,
    names: Vec<String>,
}

/// A Go pattern in the `regex` crate's syntax.
pub(super) struct Translated {
    /// The equivalent pattern, every construct explicit and every group unnamed.
    pub(super) pattern: String,
    /// Group names by index (`""` for unnamed groups and group 0).
    pub(super) names: Vec<String>,
    /// The height of Go's parse tree.
    pub(super) height: usize,
}

/// `syntax.Parse(expr, syntax.Perl)` with Go's checks and error texts, then the tree in the
/// `regex` crate's syntax.
pub(super) fn translate(expr: &str) -> Result<Translated, SyntaxError> {
    let parsed = Parser::new(expr).parse()?;
    let mut pattern = String::new();
    emit(&parsed.root, &mut pattern);
    Ok(Translated {
        pattern,
        names: parsed.names,
        height: parsed.root.height,
    })
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    flags: Flags,
    frames: Vec<Frame>,
    names: Vec<String>,
    /// Nodes built so far and the product of repeat counts (Go's lazy size-check trigger).
    nodes: u64,
    repeats: u64,
}

/// Go's `concat`: adjacent literals of the same case mode merge into one string, nested
/// concatenations are flattened (without merging across their boundary), and a single item
/// stands for itself.
fn concat_of(items: Vec<Node>) -> Node {
    let mut merged: Vec<Node> = Vec::with_capacity(items.len());
    for item in items {
        if let Kind::Literal(runes, fold) = &item.kind
            && let Some(Node {
                kind: Kind::Literal(prev, prev_fold),
                ..
            }) = merged.last_mut()
            && prev_fold == fold
        {
            prev.extend_from_slice(runes);
            let joined = merged.pop().map(|n| n.kind);
            if let Some(kind) = joined {
                merged.push(Node::new(kind));
            }
            continue;
        }
        merged.push(item);
    }
    let mut flat = Vec::with_capacity(merged.len());
    for item in merged {
        match item.kind {
            Kind::Concat(subs) => flat.extend(subs),
            kind => flat.push(Node::new(kind)),
        }
    }
    match flat.len() {
        0 => Node::new(Kind::Empty),
        1 => flat.pop().unwrap_or_else(|| Node::new(Kind::Empty)),
        _ => Node::new(Kind::Concat(flat)),
    }
}

/// Add a finished branch to an alternation. Like Go's `swapVerticalBar`, a branch that is a
/// single character class (a one-rune literal, a class, a dot) merges into a previous branch
/// of that kind, which decides what later factoring sees.
fn push_branch(alts: &mut Vec<Node>, branch: Node) {
    if let Some(prev) = alts.last_mut()
        && is_char_class(prev)
        && is_char_class(&branch)
    {
        let merged = merge_char_class(std::mem::replace(prev, Node::new(Kind::Empty)), branch);
        *prev = merged;
        return;
    }
    alts.push(branch);
}

/// Go's `mergeCharClass` for two single-character branches: the same literal stays a
/// literal, a dot absorbs what it already matches, anything else becomes the union.
fn merge_char_class(a: Node, b: Node) -> Node {
    match (&a.kind, &b.kind) {
        (Kind::Any, _) => a,
        (_, Kind::Any) => b,
        (Kind::Literal(x, fx), Kind::Literal(y, fy)) if x == y && fx == fy => a,
        _ => {
            let mut members = Vec::new();
            for n in [a, b] {
                match n.kind {
                    Kind::Union(inner) => members.extend(inner),
                    kind => members.push(Node::new(kind)),
                }
            }
            Node::new(Kind::Union(members))
        }
    }
}

/// Go's `collapse` for an alternation: nested alternations are flattened, then `factor`ed.
fn alternate_of(subs: Vec<Node>) -> Node {
    let mut flat = Vec::with_capacity(subs.len());
    for sub in subs {
        match sub.kind {
            Kind::Alternate(inner) => flat.extend(inner),
            kind => flat.push(Node::new(kind)),
        }
    }
    if flat.len() == 1 {
        return flat.pop().unwrap_or_else(|| Node::new(Kind::Empty));
    }
    let mut factored = factor(flat);
    match factored.len() {
        0 => Node::new(Kind::Empty),
        1 => factored.pop().unwrap_or_else(|| Node::new(Kind::Empty)),
        _ => Node::new(Kind::Alternate(factored)),
    }
}

/// Go's `factor` (rounds 1 and 2; rounds 3 and 4 only merge single-character branches into a
/// class and runs of empty branches, which changes no match).
///
/// Round 1 pulls a common literal prefix out of consecutive branches (`ab|ac` → `a(?:b|c)`);
/// round 2 pulls out a common leading character class or fixed repeat of one. Round 2 compares
/// with Go's `Regexp.Equal`, which ignores the case-folding flag of literals, so `K(x)|(?i)k(y)`
/// becomes `K(?:(x)|(y))` and the second branch no longer matches `k`: a Go quirk reproduced
/// here because results must match Go's.
fn factor(subs: Vec<Node>) -> Vec<Node> {
    if subs.len() < 2 {
        return subs;
    }
    // Round 1: common literal prefixes (same case mode).
    let mut out: Vec<Node> = Vec::new();
    let mut run: Vec<Node> = Vec::new();
    let mut prefix: Vec<u32> = Vec::new();
    let mut prefix_fold = false;
    let flush1 =
        |run: &mut Vec<Node>, prefix: &[u32], fold: bool, out: &mut Vec<Node>| match run.len() {
            0 => {}
            1 => out.append(run),
            _ => {
                let suffixes = run
                    .drain(..)
                    .map(|n| remove_leading_string(n, prefix.len()))
                    .collect();
                let head = Node::new(Kind::Literal(prefix.to_vec(), fold));
                out.push(Node::new(Kind::Concat(vec![head, alternate_of(suffixes)])));
            }
        };
    for sub in subs {
        let (lead, fold) = leading_string(&sub);
        if !run.is_empty() && fold == prefix_fold {
            let same = prefix.iter().zip(lead).take_while(|(a, b)| a == b).count();
            if same > 0 {
                prefix.truncate(same);
                run.push(sub);
                continue;
            }
        }
        flush1(&mut run, &prefix, prefix_fold, &mut out);
        prefix = lead.to_vec();
        prefix_fold = fold;
        run.push(sub);
    }
    flush1(&mut run, &prefix, prefix_fold, &mut out);

    // Round 2: common leading character class (or fixed repeat of one).
    let subs = out;
    let mut out: Vec<Node> = Vec::new();
    let mut run: Vec<Node> = Vec::new();
    let flush2 = |run: &mut Vec<Node>, out: &mut Vec<Node>| match run.len() {
        0 => {}
        1 => out.append(run),
        _ => {
            let head = run.first().and_then(leading_regexp).cloned();
            let suffixes = run.drain(..).map(remove_leading_regexp).collect();
            let suffix = alternate_of(suffixes);
            match head {
                Some(head) => out.push(Node::new(Kind::Concat(vec![head, suffix]))),
                None => out.push(suffix),
            }
        }
    };
    for sub in subs {
        let joins = match (run.first().and_then(leading_regexp), leading_regexp(&sub)) {
            (Some(first), Some(next)) => {
                go_equal(first, next)
                    && (is_char_class(first)
                        || matches!(&first.kind, Kind::Repeat { sub, min, max, counted: true, .. }
                            if Some(*min) == *max && is_char_class(sub)))
            }
            _ => false,
        };
        if !joins {
            flush2(&mut run, &mut out);
        }
        run.push(sub);
    }
    flush2(&mut run, &mut out);
    out
}

/// Go's `leadingString`: the literal a branch starts with, and its case mode.
fn leading_string(node: &Node) -> (&[u32], bool) {
    let first = match &node.kind {
        Kind::Concat(subs) => subs.first().unwrap_or(node),
        _ => node,
    };
    match &first.kind {
        Kind::Literal(runes, fold) => (runes, *fold),
        _ => (&[], false),
    }
}

/// Go's `removeLeadingString`.
fn remove_leading_string(node: Node, n: usize) -> Node {
    match node.kind {
        Kind::Concat(mut subs) if !subs.is_empty() => {
            let original = subs.len();
            let first = remove_leading_string(subs.remove(0), n);
            if first.kind != Kind::Empty {
                subs.insert(0, first);
                return Node::new(Kind::Concat(subs));
            }
            match original {
                0 | 1 => Node::new(Kind::Empty),
                2 => subs.pop().unwrap_or_else(|| Node::new(Kind::Empty)),
                _ => Node::new(Kind::Concat(subs)),
            }
        }
        Kind::Literal(mut runes, fold) => {
            runes.drain(..n.min(runes.len()));
            if runes.is_empty() {
                Node::new(Kind::Empty)
            } else {
                Node::new(Kind::Literal(runes, fold))
            }
        }
        kind => Node::new(kind),
    }
}

/// Go's `leadingRegexp`.
fn leading_regexp(node: &Node) -> Option<&Node> {
    match &node.kind {
        Kind::Empty => None,
        Kind::Concat(subs) => match subs.first() {
            Some(Node {
                kind: Kind::Empty, ..
            }) => None,
            Some(first) => Some(first),
            None => Some(node),
        },
        _ => Some(node),
    }
}

/// Go's `removeLeadingRegexp`.
fn remove_leading_regexp(node: Node) -> Node {
    match node.kind {
        Kind::Concat(mut subs) if !subs.is_empty() => {
            subs.remove(0);
            match subs.len() {
                0 => Node::new(Kind::Empty),
                1 => subs.pop().unwrap_or_else(|| Node::new(Kind::Empty)),
                _ => Node::new(Kind::Concat(subs)),
            }
        }
        _ => Node::new(Kind::Empty),
    }
}

/// Go's `isCharClass`: a one-rune literal, a class, or a dot.
fn is_char_class(node: &Node) -> bool {
    match &node.kind {
        Kind::Literal(runes, _) => runes.len() == 1,
        Kind::Class(..) | Kind::AnyNotNl | Kind::Any | Kind::Union(_) => true,
        _ => false,
    }
}

/// Go's `Regexp.Equal` as far as factoring uses it. Literals compare runes only (Go ignores
/// their case-folding flag); classes compare as written (Go compares their expanded runes,
/// which can only make more classes equal, without changing any match).
fn go_equal(x: &Node, y: &Node) -> bool {
    match (&x.kind, &y.kind) {
        (Kind::Literal(a, _), Kind::Literal(b, _)) => a == b,
        (Kind::Class(..), Kind::Class(..)) | (Kind::Union(_), Kind::Union(_)) => x.kind == y.kind,
        (
            Kind::Repeat {
                sub: s1,
                min: n1,
                max: m1,
                greedy: g1,
                counted: c1,
            },
            Kind::Repeat {
                sub: s2,
                min: n2,
                max: m2,
                greedy: g2,
                counted: c2,
            },
        ) => n1 == n2 && m1 == m2 && g1 == g2 && c1 == c2 && go_equal(s1, s2),
        (Kind::Concat(a), Kind::Concat(b)) | (Kind::Alternate(a), Kind::Alternate(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(p, q)| go_equal(p, q))
        }
        (Kind::Capture(_), _) | (_, Kind::Capture(_)) => false,
        (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// The simple case-folding orbit of `c` (`c` itself for surrogates).
fn fold_orbit(c: u32) -> Vec<u32> {
    use ::regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
    let Some(ch) = char::from_u32(c) else {
        return vec![c];
    };
    let mut class = ClassUnicode::new([ClassUnicodeRange::new(ch, ch)]);
    if class.try_case_fold_simple().is_err() {
        return vec![c];
    }
    class
        .ranges()
        .iter()
        .flat_map(|r| u32::from(r.start())..=u32::from(r.end()))
        .collect()
}

/// Go's `minFoldRune`: the representative a case-insensitive literal is stored as.
fn min_fold(c: u32) -> u32 {
    fold_orbit(c).into_iter().min().unwrap_or(c)
}

/// Go's `push` turns a class of one rune into a literal, and a class of exactly one
/// two-member case orbit (`[Aa]`, `(?i)[a]`) into a case-insensitive literal. Only classes
/// of a few explicit runes can qualify.
fn class_as_literal(items: &[ClassItem], negated: bool, fold: bool) -> Option<Kind> {
    if negated {
        return None;
    }
    let mut runes = std::collections::BTreeSet::new();
    for item in items {
        let ClassItem::Range(lo, hi) = item else {
            return None;
        };
        if hi.saturating_sub(*lo) > 3 {
            return None;
        }
        runes.extend(*lo..=*hi);
    }
    if fold {
        let folded: Vec<u32> = runes.iter().flat_map(|c| fold_orbit(*c)).collect();
        runes.extend(folded);
    }
    let runes: Vec<u32> = runes.into_iter().collect();
    match runes.as_slice() {
        [c] => Some(Kind::Literal(vec![*c], false)),
        [a, b] if fold_orbit(*a) == vec![*a, *b] => Some(Kind::Literal(vec![*a], true)),
        _ => None,
    }
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Parser<'a> {
        Parser {
            src,
            pos: 0,
            flags: Flags::default(),
            frames: vec![Frame::new(None, Flags::default())],
            names: vec![String::new()],
            nodes: 0,
            repeats: 1,
        }
    }

    fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn frame(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::new(None, Flags::default()));
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    /// Go's `checkLimits` for a node about to be pushed.
    fn check_limits(&mut self, node: &Node) -> Result<(), SyntaxError> {
        self.nodes += 1;
        if let Some((min, max)) = node.is_counted_repeat() {
            let n = u64::from(max.unwrap_or(min).max(1));
            self.repeats = self.repeats.saturating_mul(n).min(MAX_SIZE);
        }
        if self.nodes >= MAX_SIZE / self.repeats.max(1) && node.size > MAX_SIZE {
            return err(ErrorCode::Large, self.src);
        }
        if node.height > MAX_HEIGHT {
            return err(ErrorCode::NestingDepth, self.src);
        }
        Ok(())
    }

    fn push(&mut self, node: Node) -> Result<(), SyntaxError> {
        self.check_limits(&node)?;
        self.frame().cur.push(node);
        Ok(())
    }

    fn literal(&mut self, c: u32) -> Result<(), SyntaxError> {
        let fold = self.flags.fold_case;
        let c = if fold { min_fold(c) } else { c };
        self.push(Node::new(Kind::Literal(vec![c], fold)))
    }

    fn op(&mut self, kind: Kind) -> Result<(), SyntaxError> {
        let kind = match &kind {
            Kind::Class(items, negated, fold) => {
                class_as_literal(items, *negated, *fold).unwrap_or(kind)
            }
            _ => kind,
        };
        self.push(Node::new(kind))
    }

    fn parse(mut self) -> Result<Parsed, SyntaxError> {
        // Start of the previous token if it was a repetition operator.
        let mut last_repeat: Option<usize> = None;
        while self.pos < self.src.len() {
            let mut repeat_start = None;
            let Some(c) = self.peek() else { break };
            match c {
                '(' => {
                    if self.rest().starts_with("(?") {
                        self.parse_perl_flags()?;
                    } else {
                        let cap = self.names.len();
                        self.names.push(String::new());
                        let saved = self.flags;
                        self.frames.push(Frame::new(Some(cap), saved));
                        self.pos += 1;
                    }
                }
                '|' => {
                    let f = self.frame();
                    let cur = std::mem::take(&mut f.cur);
                    push_branch(&mut f.alts, concat_of(cur));
                    self.pos += 1;
                }
                ')' => {
                    self.parse_right_paren()?;
                    self.pos += 1;
                }
                '^' => {
                    let k = if self.flags.multi_line {
                        Kind::BeginLine
                    } else {
                        Kind::BeginText
                    };
                    self.op(k)?;
                    self.pos += 1;
                }
                '$' => {
                    let k = if self.flags.multi_line {
                        Kind::EndLine
                    } else {
                        Kind::EndText
                    };
                    self.op(k)?;
                    self.pos += 1;
                }
                '.' => {
                    let k = if self.flags.dot_nl {
                        Kind::Any
                    } else {
                        Kind::AnyNotNl
                    };
                    self.op(k)?;
                    self.pos += 1;
                }
                '[' => self.parse_class()?,
                '*' | '+' | '?' => {
                    let before = self.pos;
                    let (min, max) = match c {
                        '*' => (0, None),
                        '+' => (1, None),
                        _ => (0, Some(1)),
                    };
                    self.repeat(min, max, false, before, before + 1, last_repeat)?;
                    repeat_start = Some(before);
                }
                '{' => {
                    let before = self.pos;
                    match self.parse_repeat_braces() {
                        None => {
                            // Not a valid repetition: a literal brace.
                            self.literal('{' as u32)?;
                            self.pos += 1;
                        }
                        Some((min, max, after)) => {
                            let too_big =
                                !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max);
                            if too_big {
                                return err(ErrorCode::InvalidRepeatSize, &self.src[before..after]);
                            }
                            let max = u32::try_from(max).ok();
                            self.repeat(min as u32, max, true, before, after, last_repeat)?;
                            repeat_start = Some(before);
                        }
                    }
                }
                '\\' => self.parse_backslash()?,
                other => {
                    self.literal(other as u32)?;
                    self.pos += other.len_utf8();
                }
            }
            last_repeat = repeat_start;
        }
        // Close the outermost concatenation and alternation.
        if self.frames.len() != 1 {
            return err(ErrorCode::MissingParen, self.src);
        }
        let root = self.finish_frame()?;
        Ok(Parsed {
            root,
            names: self.names,
        })
    }

    /// The alternation of the innermost frame, which is removed.
    fn finish_frame(&mut self) -> Result<Node, SyntaxError> {
        let Some(mut f) = self.frames.pop() else {
            return Ok(Node::new(Kind::Empty));
        };
        let cur = std::mem::take(&mut f.cur);
        push_branch(&mut f.alts, concat_of(cur));
        let node = alternate_of(f.alts);
        Ok(match f.cap {
            Some(_) => Node::new(Kind::Capture(Box::new(node))),
            None => node,
        })
    }

    fn parse_right_paren(&mut self) -> Result<(), SyntaxError> {
        if self.frames.len() < 2 {
            return err(ErrorCode::UnexpectedParen, self.src);
        }
        let saved = self.frames.last().map_or(Flags::default(), |f| f.saved);
        let node = self.finish_frame()?;
        self.flags = saved;
        self.push(node)
    }

    /// Go's `repeat`: apply a repetition to the last item of the current concatenation.
    fn repeat(
        &mut self,
        min: u32,
        max: Option<u32>,
        counted: bool,
        before: usize,
        after: usize,
        last_repeat: Option<usize>,
    ) -> Result<(), SyntaxError> {
        let mut after = after;
        let mut non_greedy = self.flags.non_greedy;
        if self.src.as_bytes().get(after) == Some(&b'?') {
            after += 1;
            non_greedy = !non_greedy;
        }
        if let Some(lr) = last_repeat {
            return err(ErrorCode::InvalidRepeatOp, &self.src[lr..after]);
        }
        let Some(sub) = self.frame().cur.pop() else {
            return err(ErrorCode::MissingRepeatArgument, &self.src[before..after]);
        };
        let node = Node::new(Kind::Repeat {
            sub: Box::new(sub),
            min,
            max,
            greedy: !non_greedy,
            counted,
        });
        self.check_limits(&node)?;
        if counted && (min >= 2 || max.is_some_and(|m| m >= 2)) && !repeat_is_valid(&node, 1000) {
            return err(ErrorCode::InvalidRepeatSize, &self.src[before..after]);
        }
        self.frame().cur.push(node);
        self.pos = after;
        Ok(())
    }

    /// Go's `parseRepeat`: `{n}`, `{n,}`, `{n,m}` → (min, max or -1, end); None if the text is
    /// not of that form. Numbers of 10^8 and more read as -1 (rejected by the caller).
    fn parse_repeat_braces(&self) -> Option<(i64, i64, usize)> {
        let b = self.src.as_bytes();
        let mut p = self.pos + 1;
        let (min, np) = parse_int(b, p)?;
        p = np;
        let mut min = min;
        let max;
        match b.get(p)? {
            b',' => {
                p += 1;
                if *b.get(p)? == b'}' {
                    max = -1;
                } else {
                    let (m, np) = parse_int(b, p)?;
                    p = np;
                    max = m;
                    if m < 0 {
                        min = -1;
                    }
                }
            }
            _ => max = min,
        }
        if *b.get(p)? != b'}' {
            return None;
        }
        Some((min, max, p + 1))
    }

    /// Go's `parsePerlFlags`: named groups, flag groups `(?i)`, `(?i:…)`.
    fn parse_perl_flags(&mut self) -> Result<(), SyntaxError> {
        let start = self.pos;
        let t = self.rest();
        let b = t.as_bytes();
        let starts_with_p = b.len() > 4 && b[2] == b'P' && b[3] == b'<';
        let starts_with_name = b.len() > 3 && b[2] == b'<';
        if starts_with_p || starts_with_name {
            let name_start = if starts_with_p { 4 } else { 3 };
            let Some(end) = t.find('>') else {
                return err(ErrorCode::InvalidNamedCapture, t);
            };
            let capture = &t[..=end];
            let name = t.get(name_start..end).unwrap_or("");
            if name.is_empty() || !name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
                return err(ErrorCode::InvalidNamedCapture, capture);
            }
            let cap = self.names.len();
            self.names.push(name.to_string());
            let saved = self.flags;
            self.frames.push(Frame::new(Some(cap), saved));
            self.pos = start + end + 1;
            return Ok(());
        }
        let mut flags = self.flags;
        let mut negated = false;
        let mut saw_flag = false;
        let mut p = start + 2;
        while let Some(c) = self.src.get(p..).and_then(|r| r.chars().next()) {
            p += c.len_utf8();
            match c {
                'i' => {
                    flags.fold_case = !negated;
                    saw_flag = true;
                }
                'm' => {
                    flags.multi_line = !negated;
                    saw_flag = true;
                }
                's' => {
                    flags.dot_nl = !negated;
                    saw_flag = true;
                }
                'U' => {
                    flags.non_greedy = !negated;
                    saw_flag = true;
                }
                '-' => {
                    if negated {
                        break;
                    }
                    negated = true;
                    saw_flag = false;
                }
                ':' | ')' => {
                    if negated && !saw_flag {
                        break;
                    }
                    if c == ':' {
                        let saved = self.flags;
                        self.frames.push(Frame::new(None, saved));
                    }
                    self.flags = flags;
                    self.pos = p;
                    return Ok(());
                }
                _ => break,
            }
        }
        err(ErrorCode::InvalidPerlOp, &self.src[start..p])
    }

    /// `\` outside a class: assertions, `\Q…\E`, Unicode and Perl classes, escapes.
    fn parse_backslash(&mut self) -> Result<(), SyntaxError> {
        let start = self.pos;
        let next = self.src.as_bytes().get(start + 1).copied();
        match next {
            Some(b'A') => return self.op_at(Kind::BeginText, 2),
            Some(b'b') => return self.op_at(Kind::WordBoundary, 2),
            Some(b'B') => return self.op_at(Kind::NoWordBoundary, 2),
            Some(b'z') => return self.op_at(Kind::EndText, 2),
            Some(b'C') => return err(ErrorCode::InvalidEscape, &self.src[start..start + 2]),
            Some(b'Q') => {
                let body = &self.src[start + 2..];
                let (lit, consumed) = match body.find("\\E") {
                    Some(i) => (&body[..i], i + 2),
                    None => (body, body.len()),
                };
                for c in lit.chars() {
                    self.literal(c as u32)?;
                }
                self.pos = start + 2 + consumed;
                return Ok(());
            }
            _ => {}
        }
        let fold = self.flags.fold_case;
        if let Some((item, end)) = self.parse_unicode_class(start)? {
            self.pos = end;
            return self.op(Kind::Class(vec![item], false, fold));
        }
        if let Some((item, end)) = perl_class(self.src, start) {
            self.pos = end;
            return self.op(Kind::Class(vec![item], false, fold));
        }
        let (c, end) = parse_escape(self.src, start)?;
        self.pos = end;
        self.literal(c)
    }

    fn op_at(&mut self, kind: Kind, width: usize) -> Result<(), SyntaxError> {
        self.op(kind)?;
        self.pos += width;
        Ok(())
    }

    /// Go's `parseUnicodeClass` at `start` (a `\`): `\pL`, `\p{Greek}`, `\P{^Lu}`.
    fn parse_unicode_class(&self, start: usize) -> Result<Option<(ClassItem, usize)>, SyntaxError> {
        let src = self.src;
        let s = &src[start..];
        let mut negated = match s.as_bytes() {
            [b'\\', b'p', ..] => false,
            [b'\\', b'P', ..] => true,
            _ => return Ok(None),
        };
        let after = &s[2..];
        let (seq, name) = match after.chars().next() {
            Some('{') => {
                let Some(end) = s.find('}') else {
                    return err(ErrorCode::InvalidCharRange, s);
                };
                (&s[..=end], &s[3..end])
            }
            Some(c) => (&s[..2 + c.len_utf8()], &s[2..2 + c.len_utf8()]),
            None => (s, ""),
        };
        let mut name = name;
        if let Some(n) = name.strip_prefix('^') {
            negated = !negated;
            name = n;
        }
        let Some(known) = unicode_table(name) else {
            return err(ErrorCode::InvalidCharRange, seq);
        };
        Ok(Some((
            ClassItem::Unicode(known, negated),
            start + seq.len(),
        )))
    }

    /// Go's `parseClass`: `[...]` at the current position.
    fn parse_class(&mut self) -> Result<(), SyntaxError> {
        let src = self.src;
        let start = self.pos;
        let whole = &src[start..];
        let b = src.as_bytes();
        let mut t = start + 1;
        let mut negated = false;
        if b.get(t) == Some(&b'^') {
            negated = true;
            t += 1;
        }
        let mut items = Vec::new();
        let mut first = true;
        while b.get(t) != Some(&b']') || first {
            first = false;
            let rest = &src[t.min(src.len())..];
            if rest.len() > 2
                && let Some(after) = rest.strip_prefix("[:")
                && let Some(i) = after.find(":]")
            {
                let name = &rest[..i + 4];
                let Some(item) = posix_class(name) else {
                    return err(ErrorCode::InvalidCharRange, name);
                };
                items.push(item);
                t += name.len();
                continue;
            }
            if t < b.len() {
                if let Some((item, end)) = self.parse_unicode_class(t)? {
                    items.push(item);
                    t = end;
                    continue;
                }
                if let Some((item, end)) = perl_class(src, t) {
                    items.push(item);
                    t = end;
                    continue;
                }
            }
            let range_start = t;
            let (lo, nt) = parse_class_char(src, t, whole)?;
            t = nt;
            let mut hi = lo;
            if b.get(t) == Some(&b'-') && b.get(t + 1).is_some_and(|c| *c != b']') {
                t += 1;
                let (h, nt) = parse_class_char(src, t, whole)?;
                t = nt;
                hi = h;
                if hi < lo {
                    return err(ErrorCode::InvalidCharRange, &src[range_start..t]);
                }
            }
            items.push(ClassItem::Range(lo, hi));
        }
        self.pos = t + 1;
        let fold = self.flags.fold_case;
        self.op(Kind::Class(items, negated, fold))
    }
}

/// Go's `parseInt` on bytes from `p`: digits without a leading zero; 10^8 and more is -1.
fn parse_int(b: &[u8], p: usize) -> Option<(i64, usize)> {
    let digits = b
        .get(p..)?
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 || (digits >= 2 && b[p] == b'0') {
        return None;
    }
    let mut n: i64 = 0;
    for &d in &b[p..p + digits] {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(d - b'0');
    }
    Some((n, p + digits))
}

/// Go's `parseClassChar`: one (possibly escaped) character inside a class.
fn parse_class_char(src: &str, t: usize, whole_class: &str) -> Result<(u32, usize), SyntaxError> {
    let rest = src.get(t..).unwrap_or("");
    match rest.chars().next() {
        None => err(ErrorCode::MissingBracket, whole_class),
        Some('\\') => parse_escape(src, t),
        Some(c) => Ok((c as u32, t + c.len_utf8())),
    }
}

fn unhex(c: char) -> Option<u32> {
    c.to_digit(16)
}

/// Go's `parseEscape` at `start` (a `\`): the escaped code point and the end position.
fn parse_escape(src: &str, start: usize) -> Result<(u32, usize), SyntaxError> {
    let mut t = start + 1;
    let next = |t: usize| src.get(t..).and_then(|r| r.chars().next());
    let Some(c) = next(t) else {
        return err(ErrorCode::TrailingBackslash, "");
    };
    t += c.len_utf8();
    let invalid = |t: usize| err(ErrorCode::InvalidEscape, &src[start..t]);
    let is_octal = |t: usize| matches!(src.as_bytes().get(t), Some(b'0'..=b'7'));
    match c {
        '1'..='7' | '0' => {
            if c != '0' && !is_octal(t) {
                // A single non-zero digit would be a backreference: unsupported.
                return invalid(t);
            }
            let mut r = c as u32 - '0' as u32;
            for _ in 1..3 {
                if !is_octal(t) {
                    break;
                }
                r = r * 8 + u32::from(src.as_bytes()[t] - b'0');
                t += 1;
            }
            Ok((r, t))
        }
        'x' => {
            let Some(c1) = next(t) else { return invalid(t) };
            t += c1.len_utf8();
            if c1 == '{' {
                let mut r: u32 = 0;
                let mut nhex = 0;
                loop {
                    let Some(ch) = next(t) else { return invalid(t) };
                    t += ch.len_utf8();
                    if ch == '}' {
                        break;
                    }
                    let Some(v) = unhex(ch) else {
                        return invalid(t);
                    };
                    r = r * 16 + v;
                    if r > 0x10_FFFF {
                        return invalid(t);
                    }
                    nhex += 1;
                }
                if nhex == 0 {
                    return invalid(t);
                }
                return Ok((r, t));
            }
            let x = unhex(c1);
            let c2 = next(t);
            if let Some(c2) = c2 {
                t += c2.len_utf8();
            }
            match (x, c2.and_then(unhex)) {
                (Some(x), Some(y)) => Ok((x * 16 + y, t)),
                _ => invalid(t),
            }
        }
        'a' => Ok((7, t)),
        'f' => Ok((12, t)),
        'n' => Ok((10, t)),
        'r' => Ok((13, t)),
        't' => Ok((9, t)),
        'v' => Ok((11, t)),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((c as u32, t)),
        _ => invalid(t),
    }
}

const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
const SPACE_PERL: &[(u32, u32)] = &[(0x9, 0xa), (0xc, 0xd), (0x20, 0x20)];
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5a), (0x5f, 0x5f), (0x61, 0x7a)];

/// Perl classes `\d \D \s \S \w \W` at `start` (ASCII in Go).
fn perl_class(src: &str, start: usize) -> Option<(ClassItem, usize)> {
    let b = src.as_bytes();
    if b.get(start) != Some(&b'\\') {
        return None;
    }
    let item = match b.get(start + 1)? {
        b'd' => ClassItem::Ascii(DIGIT, false),
        b'D' => ClassItem::Ascii(DIGIT, true),
        b's' => ClassItem::Ascii(SPACE_PERL, false),
        b'S' => ClassItem::Ascii(SPACE_PERL, true),
        b'w' => ClassItem::Ascii(WORD, false),
        b'W' => ClassItem::Ascii(WORD, true),
        _ => return None,
    };
    Some((item, start + 2))
}

/// POSIX classes `[:alpha:]`, `[:^alpha:]` (ASCII).
fn posix_class(name: &str) -> Option<ClassItem> {
    let inner = name.strip_prefix("[:")?.strip_suffix(":]")?;
    let (negated, inner) = match inner.strip_prefix('^') {
        Some(i) => (true, i),
        None => (false, inner),
    };
    let table: &'static [(u32, u32)] = match inner {
        "alnum" => &[(0x30, 0x39), (0x41, 0x5a), (0x61, 0x7a)],
        "alpha" => &[(0x41, 0x5a), (0x61, 0x7a)],
        "ascii" => &[(0x0, 0x7f)],
        "blank" => &[(0x9, 0x9), (0x20, 0x20)],
        "cntrl" => &[(0x0, 0x1f), (0x7f, 0x7f)],
        "digit" => DIGIT,
        "graph" => &[(0x21, 0x7e)],
        "lower" => &[(0x61, 0x7a)],
        "print" => &[(0x20, 0x7e)],
        "punct" => &[(0x21, 0x2f), (0x3a, 0x40), (0x5b, 0x60), (0x7b, 0x7e)],
        "space" => &[(0x9, 0xd), (0x20, 0x20)],
        "upper" => &[(0x41, 0x5a)],
        "word" => WORD,
        "xdigit" => &[(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
        _ => return None,
    };
    Some(ClassItem::Ascii(table, negated))
}

/// Go 1.24's Unicode general categories (`unicode.Categories`).
const CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N",
    "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So",
    "Z", "Zl", "Zp", "Zs",
];

/// Go 1.24's Unicode scripts (`unicode.Scripts`, Unicode 15.0).
const SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Toto",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];

/// Go's `unicodeTable`: `Any`, a category or a script (exact, case-sensitive names).
fn unicode_table(name: &str) -> Option<&'static str> {
    if name == "Any" {
        return Some("Any");
    }
    CATEGORIES
        .iter()
        .chain(SCRIPTS)
        .find(|n| **n == name)
        .copied()
}

// ---- emitting the `regex` crate's syntax ----

/// A class matching nothing (the regex crate accepts empty classes).
const NOTHING: &str = "[^\\x{0}-\\x{10FFFF}]";

fn push_code_point(out: &mut String, c: u32) {
    out.push_str(&format!("\\x{{{c:X}}}"));
}

/// Code points `lo..=hi` without surrogates (which cannot occur in a string).
fn push_range(out: &mut String, lo: u32, hi: u32) {
    let hi = hi.min(0x10_FFFF);
    let mut parts = Vec::new();
    if lo <= hi.min(0xD7FF) {
        parts.push((lo, hi.min(0xD7FF)));
    }
    if lo.max(0xE000) <= hi {
        parts.push((lo.max(0xE000), hi));
    }
    for (a, b) in parts {
        push_code_point(out, a);
        if b != a {
            out.push('-');
            push_code_point(out, b);
        }
    }
}

fn push_class_item(out: &mut String, item: &ClassItem) {
    match item {
        ClassItem::Range(lo, hi) => push_range(out, *lo, *hi),
        ClassItem::Ascii(table, negated) => {
            out.push('[');
            if *negated {
                out.push('^');
            }
            for (lo, hi) in *table {
                push_range(out, *lo, *hi);
            }
            out.push(']');
        }
        ClassItem::Unicode(name, negated) => {
            // Go's `C` is Cc|Cf|Co|Cs (no unassigned code points); surrogates never match.
            let body = match *name {
                "Any" => "\\x{0}-\\x{10FFFF}".to_string(),
                "C" => "\\p{Cc}\\p{Cf}\\p{Co}".to_string(),
                "Cs" => String::new(),
                other => format!("\\p{{{other}}}"),
            };
            out.push('[');
            if *negated {
                out.push('^');
            }
            out.push_str(&body);
            // An empty set still needs a member for the regex crate's syntax.
            out.push_str(NOTHING);
            out.push(']');
        }
    }
}

fn emit_class(items: &[ClassItem], negated: bool, fold: bool, out: &mut String) {
    if fold {
        out.push_str("(?i:");
    }
    out.push('[');
    if negated {
        out.push('^');
    }
    for item in items {
        push_class_item(out, item);
    }
    out.push_str(NOTHING);
    out.push(']');
    if fold {
        out.push(')');
    }
}

fn emit_literal(runes: &[u32], fold: bool, out: &mut String) {
    if fold {
        out.push_str("(?i:");
    }
    for &c in runes {
        match char::from_u32(c) {
            Some(ch) => out.push_str(&::regex::escape(ch.encode_utf8(&mut [0; 4]))),
            // A surrogate literal (`\x{D800}`) can never match.
            None => out.push_str(NOTHING),
        }
    }
    if fold {
        out.push(')');
    }
}

/// Whether the emitted form of `node` can take a repetition operator without a group.
fn is_atom(node: &Node) -> bool {
    match &node.kind {
        Kind::Literal(runes, _) => runes.len() == 1,
        kind => matches!(
            kind,
            Kind::Class(..) | Kind::Any | Kind::AnyNotNl | Kind::Capture(_) | Kind::Union(_)
        ),
    }
}

fn emit(node: &Node, out: &mut String) {
    match &node.kind {
        Kind::Empty => out.push_str("(?:)"),
        Kind::Literal(runes, fold) => emit_literal(runes, *fold, out),
        Kind::Class(items, negated, fold) => emit_class(items, *negated, *fold, out),
        Kind::AnyNotNl => out.push_str("[^\\n]"),
        Kind::Any => out.push_str("(?s:.)"),
        Kind::BeginLine => out.push_str("(?m:^)"),
        Kind::EndLine => out.push_str("(?m:$)"),
        Kind::BeginText => out.push_str("\\A"),
        Kind::EndText => out.push_str("\\z"),
        Kind::WordBoundary => out.push_str("(?-u:\\b)"),
        Kind::NoWordBoundary => out.push_str("(?-u:\\B)"),
        Kind::Capture(sub) => {
            out.push('(');
            emit(sub, out);
            out.push(')');
        }
        Kind::Repeat {
            sub,
            min,
            max,
            greedy,
            counted,
        } => {
            if is_atom(sub) {
                emit(sub, out);
            } else {
                out.push_str("(?:");
                emit(sub, out);
                out.push(')');
            }
            match (counted, min, max) {
                (false, 0, None) => out.push('*'),
                (false, 1, None) => out.push('+'),
                (false, _, _) => out.push('?'),
                (true, m, None) => out.push_str(&format!("{{{m},}}")),
                (true, m, Some(x)) if m == x => out.push_str(&format!("{{{m}}}")),
                (true, m, Some(x)) => out.push_str(&format!("{{{m},{x}}}")),
            }
            if !greedy {
                out.push('?');
            }
        }
        Kind::Concat(subs) => {
            for s in subs {
                emit(s, out);
            }
        }
        Kind::Alternate(subs) | Kind::Union(subs) => {
            out.push_str("(?:");
            for (i, s) in subs.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                emit(s, out);
            }
            out.push(')');
        }
    }
}
