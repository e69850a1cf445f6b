/*!
Sprig's regular-expression functions (`regexMatch`, `regexFind`, `regexFindAll`,
`regexReplaceAll`, `regexReplaceAllLiteral`, `regexSplit`, their `must*` twins, and
`regexQuoteMeta`) with Go's `regexp` semantics.

Go's RE2 syntax differs from the `regex` crate's in details that change results: `\d`, `\s`,
`\w` and `\b` are ASCII-only in Go, Go accepts names and escapes Rust rejects (and the reverse),
`\p{C}` excludes unassigned code points, repetition counts are capped at 1000, and every
rejected pattern has a precise Go error text (`error parsing regexp: missing closing ): `(``).
So this module parses the pattern with Go's `regexp/syntax` rules — same checks, same order,
same messages — and emits an equivalent pattern in the `regex` crate's syntax in which every
construct is explicit (ASCII classes spelled out, flags applied per node, all groups
unnamed). Matching then uses the `regex` crate, which like Go is leftmost-first and
linear-time.

The parse tree is shaped like Go's (literal strings, one-character alternatives merged into a
class, common prefixes factored out of alternations) because Go's factoring has a visible
quirk: it treats a case-sensitive and a case-insensitive leading literal as equal, so in
`K(x)|(?i)k(y)` the second branch stops matching `k`. Differential fuzzing against Go found
no other difference.

On top of matching, the Go algorithms that decide results are reproduced here: how `FindAll`
skips an empty match right after a previous match, how `ReplaceAll` advances, how `Split`
treats `n`, and `Expand`'s `$name` / `${name}` rules (`$1a` names group `1a`; `$01` is not
group 1).

Deviations: Go's height and size limits (`expression nests too deeply`, `expression too
large`) are computed on this module's tree, which is close to but not identical to Go's;
Go's 32M-rune class budget is not tracked; Unicode tables are the `regex` crate's (Go 1.24
ships Unicode 15.0); a pattern the `regex` crate cannot compile within its size budget is
reported as `expression too large`.
*/

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::Value;

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func {
        name: "regexMatch",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: regex_match,
    },
    Func {
        name: "mustRegexMatch",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: must_regex_match,
    },
    Func {
        name: "regexFindAll",
        params: &[Param::String, Param::String, Param::Int],
        variadic: None,
        imp: regex_find_all,
    },
    Func {
        name: "mustRegexFindAll",
        params: &[Param::String, Param::String, Param::Int],
        variadic: None,
        imp: must_regex_find_all,
    },
    Func {
        name: "regexFind",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: regex_find,
    },
    Func {
        name: "mustRegexFind",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: must_regex_find,
    },
    Func {
        name: "regexReplaceAll",
        params: &[Param::String, Param::String, Param::String],
        variadic: None,
        imp: regex_replace_all,
    },
    Func {
        name: "mustRegexReplaceAll",
        params: &[Param::String, Param::String, Param::String],
        variadic: None,
        imp: must_regex_replace_all,
    },
    Func {
        name: "regexReplaceAllLiteral",
        params: &[Param::String, Param::String, Param::String],
        variadic: None,
        imp: regex_replace_all_literal,
    },
    Func {
        name: "mustRegexReplaceAllLiteral",
        params: &[Param::String, Param::String, Param::String],
        variadic: None,
        imp: must_regex_replace_all_literal,
    },
    Func {
        name: "regexSplit",
        params: &[Param::String, Param::String, Param::Int],
        variadic: None,
        imp: regex_split,
    },
    Func {
        name: "mustRegexSplit",
        params: &[Param::String, Param::String, Param::Int],
        variadic: None,
        imp: must_regex_split,
    },
    Func {
        name: "regexQuoteMeta",
        params: &[Param::String],
        variadic: None,
        imp: regex_quote_meta,
    },
];

// ---- the template functions ----

fn str_arg(args: &[Value], i: usize) -> &str {
    args.get(i).and_then(Value::as_str).unwrap_or("")
}

/// `regexp.Compile`'s error for `must*`; `regexp.MustCompile`'s panic for the plain variants.
fn compiled(args: &[Value], must: bool) -> Result<Arc<GoRegex>, String> {
    let expr = str_arg(args, 0);
    compile(expr).map_err(|e| {
        if must {
            e
        } else {
            format!("regexp: Compile({}): {e}", go_backquote(expr))
        }
    })
}

fn regex_match(args: &[Value]) -> Result<Value, String> {
    // Sprig ignores the compile error and answers false.
    Ok(Value::Bool(
        compile(str_arg(args, 0)).is_ok_and(|re| re.is_match(str_arg(args, 1))),
    ))
}

fn must_regex_match(args: &[Value]) -> Result<Value, String> {
    let re = compiled(args, true)?;
    Ok(Value::Bool(re.is_match(str_arg(args, 1))))
}

fn find_all(args: &[Value], must: bool) -> Result<Value, String> {
    let re = compiled(args, must)?;
    let s = str_arg(args, 1);
    let n = super::math::int_arg(args, 2);
    let found: Vec<&str> = re
        .find_all(s, n)
        .into_iter()
        .filter_map(|(a, b)| s.get(a..b))
        .collect();
    Ok(Value::string_list(found))
}

fn regex_find_all(args: &[Value]) -> Result<Value, String> {
    find_all(args, false)
}

fn must_regex_find_all(args: &[Value]) -> Result<Value, String> {
    find_all(args, true)
}

fn find(args: &[Value], must: bool) -> Result<Value, String> {
    let re = compiled(args, must)?;
    let s = str_arg(args, 1);
    Ok(Value::str(re.re.find(s).map_or("", |m| m.as_str())))
}

fn regex_find(args: &[Value]) -> Result<Value, String> {
    find(args, false)
}

fn must_regex_find(args: &[Value]) -> Result<Value, String> {
    find(args, true)
}

fn replace(args: &[Value], must: bool, literal: bool) -> Result<Value, String> {
    let re = compiled(args, must)?;
    let (s, repl) = (str_arg(args, 1), str_arg(args, 2));
    Ok(Value::str(re.replace_all(s, repl, literal)))
}

fn regex_replace_all(args: &[Value]) -> Result<Value, String> {
    replace(args, false, false)
}

fn must_regex_replace_all(args: &[Value]) -> Result<Value, String> {
    replace(args, true, false)
}

fn regex_replace_all_literal(args: &[Value]) -> Result<Value, String> {
    replace(args, false, true)
}

fn must_regex_replace_all_literal(args: &[Value]) -> Result<Value, String> {
    replace(args, true, true)
}

fn split(args: &[Value], must: bool) -> Result<Value, String> {
    let re = compiled(args, must)?;
    let s = str_arg(args, 1);
    let n = super::math::int_arg(args, 2);
    Ok(Value::string_list(re.split(s, n)))
}

fn regex_split(args: &[Value]) -> Result<Value, String> {
    split(args, false)
}

fn must_regex_split(args: &[Value]) -> Result<Value, String> {
    split(args, true)
}

fn regex_quote_meta(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(quote_meta(str_arg(args, 0))))
}

/// `regexp.QuoteMeta`: a backslash before each of `\.+*?()|[]{}^$`.
pub fn quote_meta(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// regexp's `quote`: backquoted when `strconv.CanBackquote`, else `strconv.Quote`.
fn go_backquote(s: &str) -> String {
    let can = s.chars().all(|c| {
        if c.len_utf8() > 1 {
            c != '\u{feff}'
        } else {
            !((c < ' ' && c != '\t') || c == '`' || c == '\u{7f}')
        }
    });
    if can {
        format!("`{s}`")
    } else {
        crate::go::strconv::quote(s, false)
    }
}

// ---- compiled expressions and Go's matching loops ----

/// A compiled Go regular expression.
#[derive(Debug)]
pub struct GoRegex {
    /// The translated pattern.
    re: ::regex::Regex,
    /// The Go source (Split looks at whether it is empty).
    expr: String,
    /// Group names by index (`""` for unnamed groups and group 0).
    names: Vec<String>,
}

/// How many compiled expressions a thread keeps (templates call these in loops).
const CACHE_LIMIT: usize = 256;

thread_local! {
    static CACHE: RefCell<HashMap<String, Result<Arc<GoRegex>, String>>> =
        RefCell::new(HashMap::new());
}

/// `regexp.Compile`: parse with Go's rules and translate, or Go's error text. Results are
/// cached per thread.
pub fn compile(expr: &str) -> Result<Arc<GoRegex>, String> {
    if let Some(hit) = CACHE.with(|c| c.borrow().get(expr).cloned()) {
        return hit;
    }
    let result = compile_uncached(expr);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_LIMIT {
            c.clear();
        }
        c.insert(expr.to_string(), result.clone());
    });
    result
}

fn compile_uncached(expr: &str) -> Result<Arc<GoRegex>, String> {
    let parsed = Parser::new(expr).parse().map_err(|e| e.to_string())?;
    let mut pattern = String::new();
    emit(&parsed.root, &mut pattern);
    let too_large = || {
        SyntaxError {
            code: ErrorCode::Large,
            expr: expr.to_string(),
        }
        .to_string()
    };
    let build = move || {
        ::regex::RegexBuilder::new(&pattern)
            .size_limit(64 << 20)
            .dfa_size_limit(16 << 20)
            .nest_limit(10_000)
            .build()
    };
    // The regex crate compiles recursively; deeply nested patterns get a thread with a stack
    // large enough for Go's maximum nesting.
    let built = if parsed.root.height > 48 {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(build)
            .map_err(|_| too_large())?
            .join()
            .map_err(|_| too_large())?
    } else {
        build()
    };
    let re = built.map_err(|_| too_large())?;
    Ok(Arc::new(GoRegex {
        re,
        expr: expr.to_string(),
        names: parsed.names,
    }))
}

impl GoRegex {
    /// `MatchString`.
    pub fn is_match(&self, s: &str) -> bool {
        self.re.is_match(s)
    }

    /// `FindAllStringIndex(s, n)`: successive leftmost-first matches; an empty match that
    /// starts where the previous match ended is dropped; `n < 0` means all.
    pub fn find_all(&self, s: &str, n: i64) -> Vec<(usize, usize)> {
        let limit = if n < 0 { usize::MAX } else { n as usize };
        let mut out = Vec::new();
        let mut pos = 0usize;
        let mut prev_end: Option<usize> = None;
        while out.len() < limit && pos <= s.len() {
            let Some(m) = self.re.find_at(s, pos) else {
                break;
            };
            let mut accept = true;
            if m.end() == pos {
                if prev_end == Some(m.start()) {
                    accept = false;
                }
                // Step over one character (or past the end).
                pos += s[pos..].chars().next().map_or(1, char::len_utf8);
            } else {
                pos = m.end();
            }
            prev_end = Some(m.end());
            if accept {
                out.push((m.start(), m.end()));
            }
        }
        out
    }

    /// `ReplaceAllString` (template expansion) or `ReplaceAllLiteralString`.
    pub fn replace_all(&self, s: &str, repl: &str, literal: bool) -> String {
        let mut buf = String::with_capacity(s.len());
        let mut last_end = 0usize;
        let mut search = 0usize;
        while search <= s.len() {
            let Some(caps) = self.re.captures_at(s, search) else {
                break;
            };
            let Some(m) = caps.get(0) else { break };
            buf.push_str(s.get(last_end..m.start()).unwrap_or(""));
            // No replacement for an empty match right after the previous match.
            if m.end() > last_end || m.start() == 0 {
                if literal {
                    buf.push_str(repl);
                } else {
                    self.expand(&mut buf, repl, s, &caps);
                }
            }
            last_end = m.end();
            let width = s[search..].chars().next().map_or(0, char::len_utf8);
            if search + width > m.end() {
                search += width;
            } else if search + 1 > m.end() {
                search += 1;
            } else {
                search = m.end();
            }
        }
        buf.push_str(s.get(last_end..).unwrap_or(""));
        buf
    }

    /// `Expand`: `$$` is `$`; `$name`/`${name}` is a group by number or name (empty if it did
    /// not match); a malformed reference leaves the `$` as text.
    fn expand(&self, buf: &mut String, template: &str, s: &str, caps: &::regex::Captures<'_>) {
        let mut rest = template;
        while let Some(i) = rest.find('$') {
            buf.push_str(&rest[..i]);
            rest = &rest[i + 1..];
            if let Some(after) = rest.strip_prefix('$') {
                buf.push('$');
                rest = after;
                continue;
            }
            let Some((name, num, after)) = extract_ref(rest) else {
                buf.push('$');
                continue;
            };
            rest = after;
            let group = match num {
                Some(k) => caps.get(k),
                None => self
                    .names
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.as_str() == name)
                    .find_map(|(k, _)| caps.get(k)),
            };
            if let Some(g) = group {
                buf.push_str(s.get(g.start()..g.end()).unwrap_or(""));
            }
        }
        buf.push_str(rest);
    }

    /// `Split(s, n)`.
    pub fn split(&self, s: &str, n: i64) -> Vec<String> {
        if n == 0 {
            return Vec::new();
        }
        if !self.expr.is_empty() && s.is_empty() {
            return vec![String::new()];
        }
        let mut out = Vec::new();
        let (mut beg, mut end) = (0usize, 0usize);
        for (a, b) in self.find_all(s, n) {
            if n > 0 && out.len() as i64 == n - 1 {
                break;
            }
            end = a;
            if b != 0 {
                out.push(s.get(beg..end).unwrap_or("").to_string());
            }
            beg = b;
        }
        if end != s.len() {
            out.push(s.get(beg..).unwrap_or("").to_string());
        }
        out
    }
}

/// Go's `extract`: the name after `$` — letters, digits and `_`, optionally in braces — and its
/// group number when it is a decimal number without leading zeros.
fn extract_ref(s: &str) -> Option<(&str, Option<usize>, &str)> {
    let (braced, body) = match s.strip_prefix('{') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let len: usize = body
        .chars()
        .take_while(|c| c.is_alphabetic() || c.is_numeric() || *c == '_')
        .map(char::len_utf8)
        .sum();
    if len == 0 {
        return None;
    }
    let name = &body[..len];
    let mut rest = &body[len..];
    if braced {
        rest = rest.strip_prefix('}')?;
    }
    let mut num: Option<usize> = Some(0);
    for b in name.bytes() {
        num = match num {
            Some(k) if b.is_ascii_digit() && k < 100_000_000 => {
                Some(k * 10 + usize::from(b - b'0'))
            }
            _ => None,
        };
    }
    if name.len() > 1 && name.starts_with('0') {
        num = None;
    }
    Some((name, num, rest))
}

// ---- Go's regexp/syntax parser ----

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
struct SyntaxError {
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

/// Replays `testdata/golden/template/sprig-b.direct.jsonl` (Go's results for direct calls,
/// produced by `scripts/gen-golden-sprig-b.sh`) against the implementations, without the
/// template engine: arguments arrive with the Go types a template literal has, results are
/// printed the way the vector recorded them (`%#v`, or `%b` for exact float bits).
#[cfg(test)]
pub(crate) mod golden {
    use crate::gotemplate::func::Func;
    use crate::gotemplate::value::{GoType, Value};

    const VECTORS: &str = include_str!("../../../testdata/golden/template/sprig-b.direct.jsonl");

    fn arg(a: &serde_json::Value) -> Value {
        let v = &a["value"];
        let items = || {
            v.as_array()
                .map(|l| l.iter().map(arg).collect::<Vec<_>>())
                .unwrap_or_default()
        };
        match a["type"].as_str() {
            Some("string") => Value::str(v.as_str().unwrap_or_default()),
            Some("int") => Value::Int(v.as_i64().expect("int")),
            // text/template parses number literals with strconv, so `-0.0` is negative zero.
            Some("float64") => Value::Float(
                a["text"]
                    .as_str()
                    .and_then(|t| t.parse().ok())
                    .expect("float text"),
            ),
            Some("bool") => Value::Bool(v.as_bool().unwrap_or_default()),
            Some("json") => Value::from_json(v),
            Some("list") => Value::list(items()),
            Some("dict") => {
                // Sprig's dict: keys through strval, odd trailing key maps to "".
                let (mut m, l) = (std::collections::BTreeMap::new(), items());
                for pair in l.chunks(2) {
                    let key = super::super::cast::strval(&pair[0]);
                    m.insert(key, pair.get(1).cloned().unwrap_or_else(|| Value::str("")));
                }
                Value::dict(m)
            }
            Some("strings") => Value::string_list(
                v.as_array()
                    .map(|l| {
                        l.iter()
                            .map(|x| x.as_str().unwrap_or_default().to_string())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default(),
            ),
            Some("ints") => Value::Slice(std::sync::Arc::new(crate::gotemplate::value::Slice {
                elem: GoType::Int,
                items: (0..v.as_i64().unwrap_or(0)).map(Value::Int).collect(),
            })),
            _ => Value::Nil,
        }
    }

    /// fmt's `%v` for a float64: shortest digits, `%e` form below 1e-4 and from 1e6 (Go's
    /// rule for `%g` with the shortest precision).
    fn go_float(f: f64) -> String {
        if f.is_nan() {
            return "NaN".into();
        }
        if f.is_infinite() {
            return if f > 0.0 {
                "+Inf".into()
            } else {
                "-Inf".into()
            };
        }
        let sign = if f.is_sign_negative() { "-" } else { "" };
        if f == 0.0 {
            return format!("{sign}0");
        }
        let text = format!("{:e}", f.abs());
        let (mantissa, exp) = text.split_once('e').expect("exponent");
        let exp: i64 = exp.parse().expect("exponent");
        let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
        if !(-4..6).contains(&exp) {
            let (first, rest) = digits.split_at(1);
            let frac = if rest.is_empty() {
                String::new()
            } else {
                format!(".{rest}")
            };
            let esign = if exp < 0 { '-' } else { '+' };
            return format!("{sign}{first}{frac}e{esign}{:02}", exp.abs());
        }
        let dp = exp + 1;
        let nd = digits.len() as i64;
        let body = if dp <= 0 {
            format!("0.{}{digits}", "0".repeat((-dp) as usize))
        } else if dp >= nd {
            format!("{digits}{}", "0".repeat((dp - nd) as usize))
        } else {
            format!("{}.{}", &digits[..dp as usize], &digits[dp as usize..])
        };
        format!("{sign}{body}")
    }

    /// `strconv.FormatFloat(f, 'b', -1, 64)` as fmt's `%b` prints it.
    fn float_bits(f: f64) -> String {
        if f.is_nan() {
            return "NaN".into();
        }
        if f.is_infinite() {
            return if f > 0.0 {
                "+Inf".into()
            } else {
                "-Inf".into()
            };
        }
        let bits = f.to_bits();
        let neg = bits >> 63 == 1;
        let mut exp = ((bits >> 52) & 0x7ff) as i64;
        let mut mant = bits & ((1 << 52) - 1);
        if exp == 0 {
            exp = 1;
        } else {
            mant |= 1 << 52;
        }
        let e = exp - 1023 - 52;
        format!(
            "{}{}p{}{}",
            if neg { "-" } else { "" },
            mant,
            if e >= 0 { "+" } else { "" },
            e
        )
    }

    /// fmt's `%#v` for the result types these functions return (`top`: not inside a
    /// collection, where a nil interface prints as `<nil>`).
    fn sharp_v(v: &Value, top: bool) -> String {
        match v {
            Value::Nil | Value::Invalid if top => "<nil>".into(),
            Value::Nil | Value::Invalid => "interface {}(nil)".into(),
            Value::String(s) => crate::go::strconv::quote(s, false),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) | Value::Int64(i) => i.to_string(),
            Value::Float(f) => go_float(*f),
            Value::Slice(s) => {
                let items: Vec<String> = s.items.iter().map(|i| sharp_v(i, false)).collect();
                format!("[]{}{{{}}}", s.elem.name(), items.join(", "))
            }
            Value::Map(m) => {
                let items: Vec<String> = m
                    .entries
                    .iter()
                    .map(|(k, v)| {
                        format!(
                            "{}:{}",
                            crate::go::strconv::quote(k, false),
                            sharp_v(v, false)
                        )
                    })
                    .collect();
                format!("map[string]{}{{{}}}", m.elem.name(), items.join(", "))
            }
            other => format!("{other:?}"),
        }
    }

    /// Go's nil slices and maps print as `[]T(nil)`; the value model only has empty ones.
    fn nil_slices_as_empty(s: &str) -> String {
        let nil =
            ::regex::Regex::new(r"((?:\[\]|map\[string\])+(?:interface \{\}|[a-z0-9]+))\(nil\)")
                .expect("valid pattern");
        nil.replace_all(s, "${1}{}").into_owned()
    }

    /// Whether a dependency named by a vector's `needs` mark behaves like Go yet: the shared
    /// cast module (float64 → int64 overflow) and fmt (`%v` of non-strings) are written
    /// elsewhere; their vectors are enforced as soon as they do.
    fn dependency_ready(needs: &str) -> bool {
        if needs.starts_with("cast") {
            super::super::cast::to_int64(&Value::Float(1e20)) == i64::MIN
        } else if needs.starts_with("fmt") {
            crate::gotemplate::print::sprint_value(&Value::Int(1)) == "1"
        } else {
            false
        }
    }

    /// Check every vector whose function is in `funcs`; returns how many were checked. Vectors
    /// marked `needs` depend on code outside this group and wait until it is ready.
    pub(crate) fn check(funcs: &[Func]) -> usize {
        let mut checked = 0;
        let mut failures = Vec::new();
        for line in VECTORS.lines() {
            let rec: serde_json::Value = serde_json::from_str(line).expect("vector is JSON");
            let name = rec["func"].as_str().unwrap_or_default();
            let Some(f) = funcs.iter().find(|f| f.name == name) else {
                continue;
            };
            if rec
                .get("needs")
                .and_then(|n| n.as_str())
                .is_some_and(|n| !dependency_ready(n))
            {
                continue;
            }
            let args: Vec<Value> = rec["args"]
                .as_array()
                .map(|a| a.iter().map(arg).collect())
                .unwrap_or_default();
            let got = match (f.imp)(&args) {
                Ok(v) if rec["verb"] == "%b" => match v {
                    Value::Float(x) => Ok(float_bits(x)),
                    other => Ok(format!("{other:?}")),
                },
                Ok(v) => Ok(sharp_v(&v, true)),
                Err(e) => Err(e),
            };
            let want = match rec.get("error") {
                Some(e) => Err(e.as_str().unwrap_or_default().to_string()),
                None => Ok(rec["print"].as_str().unwrap_or_default().to_string()),
            };
            let same = got == want
                || got.as_deref().map(nil_slices_as_empty)
                    == want.as_deref().map(nil_slices_as_empty);
            if !same {
                failures.push(format!("{line}\n   got: {got:?}"));
            }
            checked += 1;
        }
        assert!(
            failures.is_empty(),
            "{} of {checked} vectors differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
        checked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::str(x)
    }

    fn strings(v: &Value) -> Vec<String> {
        match v {
            Value::Slice(sl) => {
                assert_eq!(sl.elem, crate::gotemplate::value::GoType::String);
                sl.items
                    .iter()
                    .map(|i| i.as_str().unwrap_or("?").to_string())
                    .collect()
            }
            other => panic!("not a slice: {other:?}"),
        }
    }

    fn compile_err(expr: &str) -> String {
        compile(expr).expect_err("should not compile")
    }

    #[test]
    fn parse_errors_like_go() {
        let cases = [
            ("(", "missing closing ): `(`"),
            ("(a|b", "missing closing ): `(a|b`"),
            (")", "unexpected ): `)`"),
            ("a)", "unexpected ): `a)`"),
            ("[a", "missing closing ]: `[a`"),
            ("[]", "missing closing ]: `[]`"),
            ("x[z-a]", "invalid character class range: `z-a`"),
            ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
            ("\\p{Foo}", "invalid character class range: `\\p{Foo}`"),
            ("\\p{Greek", "invalid character class range: `\\p{Greek`"),
            ("\\pX", "invalid character class range: `\\pX`"),
            ("\\p", "invalid character class range: `\\p`"),
            ("*", "missing argument to repetition operator: `*`"),
            ("a|*", "missing argument to repetition operator: `*`"),
            ("(*)", "missing argument to repetition operator: `*`"),
            ("a**", "invalid nested repetition operator: `**`"),
            ("a*??", "invalid nested repetition operator: `*??`"),
            ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
            ("a{1001}", "invalid repeat count: `{1001}`"),
            ("a{2,1}", "invalid repeat count: `{2,1}`"),
            ("(a{100}){100}", "invalid repeat count: `{100}`"),
            ("a{100000000}", "invalid repeat count: `{100000000}`"),
            ("\\", "trailing backslash at end of expression: ``"),
            ("\\1", "invalid escape sequence: `\\1`"),
            ("\\8", "invalid escape sequence: `\\8`"),
            ("\\e", "invalid escape sequence: `\\e`"),
            ("\\C", "invalid escape sequence: `\\C`"),
            ("\\Z", "invalid escape sequence: `\\Z`"),
            ("\\xZ1", "invalid escape sequence: `\\xZ1`"),
            ("\\xA", "invalid escape sequence: `\\xA`"),
            ("\\x{}", "invalid escape sequence: `\\x{}`"),
            ("\\x{110000}", "invalid escape sequence: `\\x{110000`"),
            ("\\é", "invalid escape sequence: `\\é`"),
            ("(?x)", "invalid or unsupported Perl syntax: `(?x`"),
            ("(?i", "invalid or unsupported Perl syntax: `(?i`"),
            ("(?-)", "invalid or unsupported Perl syntax: `(?-)`"),
            ("(?i-m-s)", "invalid or unsupported Perl syntax: `(?i-m-`"),
            ("(?P=n)", "invalid or unsupported Perl syntax: `(?P`"),
            ("(?<", "invalid or unsupported Perl syntax: `(?<`"),
            ("(?P<n", "invalid named capture: `(?P<n`"),
            ("(?P<>a)", "invalid named capture: `(?P<>`"),
            ("(?P<a-b>x)", "invalid named capture: `(?P<a-b>`"),
            ("[a-\\d]", "invalid escape sequence: `\\d`"),
        ];
        for (expr, want) in cases {
            assert_eq!(
                compile_err(expr),
                format!("error parsing regexp: {want}"),
                "pattern {expr:?}"
            );
        }
    }

    #[test]
    fn accepts_go_syntax() {
        for expr in [
            "",
            "(?)",
            "(?:)*",
            "a{,2}",
            "a{1,2",
            "x{0}",
            "(?i)abc",
            "(?U)a+",
            "(?P<1x>a)",
            "(?<n>a)",
            "\\Qa.b\\E",
            "\\Qunterminated",
            "[]a]",
            "[^]a]",
            "[a-]",
            "\\p{Greek}",
            "\\pL",
            "\\PL",
            "\\p{^Greek}",
            "[\\p{Han}\\d]",
            "[[:^alpha:]]",
            "\\x{10FFFF}",
            "\\x41",
            "\\101",
            "\\0",
            "\\_",
            "(?m)^a$",
            "(?s).",
            "\\A\\z",
            "\\b\\B",
            "^*",
            "(a{10}){100}",
            "[\\x{D800}]",
        ] {
            assert!(
                compile(expr).is_ok(),
                "pattern {expr:?}: {:?}",
                compile(expr).err()
            );
        }
    }

    #[test]
    fn ascii_perl_classes() {
        let re = compile("\\d+").unwrap();
        assert_eq!(re.find_all("a١٢3", -1), vec![(5, 6)]);
        let re = compile("\\w+").unwrap();
        assert_eq!(re.find_all("héllo", -1), vec![(0, 1), (3, 6)]);
        let re = compile("(?i)\\W").unwrap();
        // Go folds \w before negating: ſ and K (Kelvin) are not \W under (?i).
        assert_eq!(re.find_all("ſ\u{212a}-", -1), vec![(5, 6)]);
        assert!(compile("\\bé").unwrap().find_all("é", -1).is_empty());
        assert!(
            compile("\\p{C}")
                .unwrap()
                .find_all("\u{378}", -1)
                .is_empty()
        );
    }

    #[test]
    fn find_all_like_go() {
        let re = compile("a*").unwrap();
        assert_eq!(re.find_all("baaac", -1), vec![(0, 0), (1, 4), (5, 5)]);
        let re = compile("").unwrap();
        assert_eq!(re.find_all("aé", -1), vec![(0, 0), (1, 1), (3, 3)]);
        assert_eq!(re.find_all("aé", 2), vec![(0, 0), (1, 1)]);
        assert!(re.find_all("aé", 0).is_empty());
        let v = regex_find_all(&[s("[0-9]+"), s("a1b22c333"), Value::Int(-1)]).unwrap();
        assert_eq!(strings(&v), ["1", "22", "333"]);
        let v = regex_find_all(&[s("x"), s("abc"), Value::Int(-1)]).unwrap();
        assert!(strings(&v).is_empty());
    }

    #[test]
    fn replace_like_go() {
        let r = |p: &str, src: &str, repl: &str| {
            regex_replace_all(&[s(p), s(src), s(repl)])
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(r("a(x*)b", "-ab-axxb-", "${1}W"), "-W-xxW-");
        assert_eq!(r("a(x*)b", "-ab-axxb-", "$1W"), "---");
        assert_eq!(r("a(?P<n>x*)b", "-axb-", "[$n]"), "-[x]-");
        assert_eq!(r("(a)", "a", "$01|$$|$|${1"), "|$|$|${1");
        assert_eq!(r("a*", "baaac", "-"), "-b-c-");
        assert_eq!(r("", "abc", "-"), "-a-b-c-");
        assert_eq!(r("x*", "", "-"), "-");
        let lit = regex_replace_all_literal(&[s("a(x*)b"), s("-axb-"), s("$1")]).unwrap();
        assert_eq!(lit, s("-$1-"));
    }

    #[test]
    fn split_like_go() {
        let sp = |p: &str, src: &str, n: i64| {
            strings(&regex_split(&[s(p), s(src), Value::Int(n)]).unwrap())
        };
        assert_eq!(sp("a", "banana", -1), ["b", "n", "n", ""]);
        assert_eq!(sp("a", "banana", 2), ["b", "nana"]);
        assert!(sp("a", "banana", 0).is_empty());
        assert_eq!(sp("", "abc", -1), ["a", "b", "c"]);
        assert_eq!(sp("x*", "axbc", -1), ["a", "b", "c"]);
        assert_eq!(sp("a", "", -1), [""]);
        assert!(sp("", "", -1).is_empty());
    }

    #[test]
    fn errors_of_plain_and_must_variants() {
        assert_eq!(regex_match(&[s("("), s("x")]).unwrap(), Value::Bool(false));
        assert_eq!(
            must_regex_match(&[s("("), s("x")]).unwrap_err(),
            "error parsing regexp: missing closing ): `(`"
        );
        assert_eq!(
            regex_find(&[s("("), s("x")]).unwrap_err(),
            "regexp: Compile(`(`): error parsing regexp: missing closing ): `(`"
        );
        assert_eq!(
            regex_find(&[s("(\n"), s("x")]).unwrap_err(),
            "regexp: Compile(\"(\\n\"): error parsing regexp: missing closing ): `(\n`"
        );
        assert_eq!(regex_find(&[s("b+"), s("abbbc")]).unwrap(), s("bbb"));
        assert_eq!(must_regex_find(&[s("z"), s("abc")]).unwrap(), s(""));
    }

    #[test]
    fn quote_meta_like_go() {
        assert_eq!(
            quote_meta("1.5-2.0?[x]{y}(z)|^$\\*+"),
            "1\\.5-2\\.0\\?\\[x\\]\\{y\\}\\(z\\)\\|\\^\\$\\\\\\*\\+"
        );
    }

    #[test]
    fn golden_vectors_from_go() {
        assert!(golden::check(FUNCS) > 300);
    }

    #[test]
    fn go_factoring_quirk() {
        let all = |p: &str, s: &str| -> Vec<String> {
            let re = compile(p).unwrap();
            re.find_all(s, -1)
                .into_iter()
                .map(|(a, b)| s[a..b].to_string())
                .collect()
        };
        // Go merges the leading `K` and `(?i)k`: the second branch loses its (?i).
        assert_eq!(all("K(x)|(?i)k(y)", "kyKxKy"), ["Kx", "Ky"]);
        // ... or the first branch's (?i) spreads to the second.
        assert_eq!(all("(?i)a(x)|A(y)", "ayAyax"), ["ay", "Ay", "ax"]);
        // Adjacent one-character branches become a class first, so nothing is lost here.
        assert_eq!(all("(?-i)Ax|[A]|(?i)[a]", "aāAkA"), ["a", "A", "A"]);
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let deep = format!("{}a{}", "(".repeat(1001), ")".repeat(1001));
        assert_eq!(
            compile_err(&deep),
            format!("error parsing regexp: expression nests too deeply: `{deep}`")
        );
        let ok = format!("{}a{}", "(".repeat(900), ")".repeat(900));
        assert!(compile(&ok).is_ok());
    }
}
