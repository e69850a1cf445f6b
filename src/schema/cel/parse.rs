/*!
Parsing a CEL expression safely, and reporting problems in cel-go's words.

The `cel` crate's ANTLR parser recurses once per nesting level and per chained operator, and
overflows the stack long before its own recursion limit on deep input (50 nested lists on an 8 MiB
stack). So every expression is screened first, as the API server's parser limits do: at most
100,000 code points, at most [`MAX_NESTING`] open brackets at once and at most [`MAX_CHAIN`]
operators, selections and indexes in all. The callers also run all CEL work on a thread with a
large stack ([`super::with_big_stack`]).

Issues render as cel-go's `Issues.String()`: `ERROR: <input>:L:C: msg`, the source line and a
caret line, each prefixed ` | `, several joined by newlines. Positions of checker issues come
from the parser's own offsets, which the `cel` crate keeps only when a parse fails: the source is
parsed a second time with a stray `)` appended on a new line, which adds one syntax error and
leaves the expression (and its node ids, which are handed out in visiting order) unchanged.
*/

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use kube_cel::cel::{IdedExpr, ParseErrors, Program};

/// cel-go's default `expressionSizeCodePointLimit`.
pub(crate) const MAX_CODE_POINTS: usize = 100_000;
/// Brackets open at once; below the `cel` parser's own limit of 96.
pub(crate) const MAX_NESTING: usize = 90;
/// Binary operators, selections, indexes and conditionals in one expression.
pub(crate) const MAX_CHAIN: usize = 1000;

/// One problem at a byte offset of the source.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Issue {
    /// 1-based line and column (in characters), as cel-go counts them; `None` when unknown.
    pub pos: Option<(usize, usize)>,
    pub msg: String,
}

/// A parsed expression and the source offset of each node id.
pub(crate) struct Parsed {
    /// The expression as cel-go parses it (see [`super::rewrite::fold_unary`]).
    expr: IdedExpr,
    /// The expression the evaluator runs (see [`super::rewrite::for_eval`]).
    run: IdedExpr,
    /// The source, for [`Parsed::offsets`].
    src: String,
    /// Found on first use: finding them parses the source a second time, into a syntax error
    /// (see the module docs), which cost more than the parse itself, and only an expression
    /// that fails its check or may hold an even run of `!`/`-` needs them.
    offsets: OnceLock<BTreeMap<u64, usize>>,
}

impl Parsed {
    /// The source offset of each node id.
    pub(crate) fn offsets(&self) -> &BTreeMap<u64, usize> {
        self.offsets.get_or_init(|| offsets_of(&self.src))
    }

    /// The root expression.
    pub(crate) fn expr(&self) -> &IdedExpr {
        &self.expr
    }

    /// The root of the expression to evaluate.
    pub(crate) fn run(&self) -> &IdedExpr {
        &self.run
    }
}

/// 1-based line and column (characters) of byte offset `off` in `src`.
pub(crate) fn line_col(src: &str, off: usize) -> (usize, usize) {
    let mut line = 1;
    let mut col = 1;
    for (i, c) in src.char_indices() {
        if i >= off {
            break;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

/// cel-go's `Issues.String()`.
pub(crate) fn render(src: &str, issues: &[Issue]) -> String {
    let lines: Vec<&str> = src.split('\n').collect();
    let mut out = Vec::new();
    for issue in issues {
        let mut s = match issue.pos {
            Some((l, c)) => format!("ERROR: <input>:{l}:{c}: {}", issue.msg),
            None => format!("ERROR: <input>:-1:0: {}", issue.msg),
        };
        if let Some((l, c)) = issue.pos
            && let Some(text) = lines.get(l.saturating_sub(1))
        {
            let text = text.strip_suffix('\r').unwrap_or(text);
            s.push_str("\n | ");
            s.push_str(text);
            s.push_str("\n | ");
            s.push_str(&".".repeat(c.saturating_sub(1)));
            s.push('^');
        }
        out.push(s);
    }
    out.join("\n")
}

/// Screen `src` for input that would exhaust the parser's stack.
fn screen(src: &str) -> Result<(), Issue> {
    let n = src.chars().count();
    if n > MAX_CODE_POINTS {
        return Err(Issue {
            pos: None,
            msg: format!(
                "expression code point size exceeds limit: size: {n}, limit {MAX_CODE_POINTS}"
            ),
        });
    }
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut chain = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' | b'\'' => {
                // Skip a string literal (single or triple quoted); escapes skip one byte.
                let triple = b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c);
                let raw = i > 0 && matches!(b[i - 1], b'r' | b'R');
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if b[i] == b'\\' && !raw {
                        i += 2;
                        continue;
                    }
                    if triple {
                        if b[i] == c && b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c) {
                            i += 3;
                            break;
                        }
                    } else if b[i] == c || b[i] == b'\n' {
                        i += 1;
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if c == b'[' {
                    chain += 1;
                }
                if depth > MAX_NESTING {
                    return Err(Issue {
                        pos: Some(line_col(src, i)),
                        msg: format!("expression recursion limit exceeded: {MAX_NESTING}"),
                    });
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'.' | b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'&' | b'|' | b'?'
            | b'!' => chain += 1,
            _ => {}
        }
        if chain > MAX_CHAIN {
            return Err(Issue {
                pos: Some(line_col(src, i)),
                msg: format!("expression recursion limit exceeded: {MAX_CHAIN}"),
            });
        }
        i += 1;
    }
    Ok(())
}

fn parse_issues(src: &str, errs: &ParseErrors) -> Vec<Issue> {
    let issues: Vec<Issue> = errs
        .errors
        .iter()
        .map(|e| {
            let mut msg = e.msg.clone();
            // The parser's own recursion guard surfaces as a debug-printed error.
            if msg.contains("Recursion limit of") {
                msg = format!("expression recursion limit exceeded: {MAX_NESTING}");
            }
            msg = expectation_after_operand(msg);
            msg = literal_after_dot(msg);
            let pos = if e.pos.0 >= 1 && e.pos.1 >= 0 {
                let line = usize::try_from(e.pos.0).unwrap_or(1);
                // The `cel` crate counts columns in bytes; cel-go in characters.
                let byte_col = usize::try_from(e.pos.1).unwrap_or(1);
                let line_text = src.split('\n').nth(line - 1).unwrap_or("");
                let prefix = line_text
                    .get(..byte_col.saturating_sub(1))
                    .unwrap_or(line_text);
                Some((line, prefix.chars().count() + 1))
            } else {
                None
            };
            Issue { pos, msg }
        })
        .collect();
    // The `cel` crate's parser also reports a rule context it could not finish
    // (`Incomplete `IndexContext`!`, `Incomplete `ExprContext` for `_?_:_` expression!`),
    // which cel-go has no counterpart for: the syntax error
    // beside it is the one cel-go reports.
    let (internal, real): (Vec<Issue>, Vec<Issue>) = issues
        .into_iter()
        .partition(|i| i.msg.starts_with("Incomplete `"));
    if real.is_empty() { internal } else { real }
}

/// `self.true`: the Rust ANTLR runtime finds no alternative for `.true` (`.false`, `.null`), where
/// cel-go's fails matching the literal against the field name it wants.
fn literal_after_dot(msg: String) -> String {
    for lit in ["true", "false", "null"] {
        if msg == format!("Syntax error: no viable alternative at input '.{lit}'") {
            return format!("Syntax error: mismatched input '{lit}' expecting IDENTIFIER");
        }
    }
    msg
}

/// A syntax error after a complete (sub)expression. The Rust ANTLR runtime reports it where the
/// expression's operator loops could have gone on, so it lists the operators beside what the
/// enclosing rule wants next; cel-go's (Go) runtime leaves the loops first and fails matching
/// that token, so it expects just it (`mismatched input 'does' expecting <EOF>`,
/// `expecting ':'`, `expecting {']', ','}`).
fn expectation_after_operand(msg: String) -> String {
    const CONTINUATIONS: &[&str] = &[
        "'=='", "'!='", "'in'", "'<'", "'<='", "'>='", "'>'", "'&&'", "'||'", "'['", "'.'", "'-'",
        "'?'", "'+'", "'*'", "'/'", "'%'",
    ];
    let Some(at) = msg.find(" expecting {") else {
        return msg;
    };
    let Some(set) = msg[at + " expecting {".len()..].strip_suffix('}') else {
        return msg;
    };
    let tokens: Vec<&str> = set.split(", ").collect();
    if !tokens.contains(&"'&&'") || !tokens.contains(&"'||'") {
        return msg;
    }
    let rest: Vec<&str> = tokens
        .into_iter()
        .filter(|t| !CONTINUATIONS.contains(t))
        .collect();
    match rest.as_slice() {
        [] => msg,
        [one] => format!("{} expecting {one}", &msg[..at]),
        many => format!("{} expecting {{{}}}", &msg[..at], many.join(", ")),
    }
}

/// Parse `src`, or the issues that stop it (rendered by [`render`]).
///
/// Parses are kept for the process, by source: the same rule text sits at many fields of a
/// CRD (and in its versions), and the `cel` crate's parser costs far more than the lookup.
/// What is kept is bounded by the input's own rules, each of at most [`MAX_CODE_POINTS`].
pub(crate) fn parse(src: &str) -> Result<Arc<Parsed>, Vec<Issue>> {
    type Cache = Mutex<HashMap<String, Result<Arc<Parsed>, Vec<Issue>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    if let Ok(c) = cache.lock()
        && let Some(hit) = c.get(src)
    {
        return hit.clone();
    }
    let parsed = parse_uncached(src).map(Arc::new);
    if let Ok(mut c) = cache.lock() {
        c.insert(src.to_string(), parsed.clone());
    }
    parsed
}

fn parse_uncached(src: &str) -> Result<Parsed, Vec<Issue>> {
    screen(src).map_err(|i| vec![i])?;
    let program = Program::compile(src).map_err(|e| parse_issues(src, &e))?;
    let offsets = OnceLock::new();
    let mut expr = program.expression().clone();
    if super::rewrite::may_fold(src) {
        let found = offsets.get_or_init(|| offsets_of(src));
        expr = super::rewrite::fold_unary(expr, src, found);
    }
    let run = super::rewrite::for_eval(expr.clone());
    Ok(Parsed {
        expr,
        run,
        src: src.to_string(),
        offsets,
    })
}

/// The source offset of each node id of `src` (which parses): its parse with a stray `)`
/// appended on a new line (see the module docs).
fn offsets_of(src: &str) -> BTreeMap<u64, usize> {
    let mut offsets = BTreeMap::new();
    if let Ok(program) = Program::compile(src)
        && let Err(probe) = Program::compile(&format!("{src}\n)"))
        && let Some(info) = probe.errors.iter().find_map(|e| e.source_info.clone())
    {
        collect_offsets(program.expression(), &info, &mut offsets);
    }
    offsets
}

fn collect_offsets(
    e: &IdedExpr,
    info: &kube_cel::cel::common::ast::SourceInfo,
    out: &mut BTreeMap<u64, usize>,
) {
    use kube_cel::cel::common::ast::{EntryExpr, Expr};
    if let Some((start, _)) = info.offset_for(e.id) {
        out.insert(e.id, start as usize);
    }
    match &e.expr {
        Expr::Call(c) => {
            if let Some(t) = &c.target {
                collect_offsets(t, info, out);
            }
            for a in &c.args {
                collect_offsets(a, info, out);
            }
        }
        Expr::Comprehension(c) => {
            for x in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                collect_offsets(x, info, out);
            }
        }
        Expr::List(l) => l
            .elements
            .iter()
            .for_each(|x| collect_offsets(x, info, out)),
        Expr::Map(m) => {
            for entry in &m.entries {
                if let Some((start, _)) = info.offset_for(entry.id) {
                    out.insert(entry.id, start as usize);
                }
                match &entry.expr {
                    EntryExpr::MapEntry(me) => {
                        collect_offsets(&me.key, info, out);
                        collect_offsets(&me.value, info, out);
                    }
                    EntryExpr::StructField(f) => collect_offsets(&f.value, info, out),
                }
            }
        }
        Expr::Struct(s) => {
            for entry in &s.entries {
                if let EntryExpr::StructField(f) = &entry.expr {
                    collect_offsets(&f.value, info, out);
                }
            }
        }
        Expr::Select(s) => collect_offsets(&s.operand, info, out),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(src: &str) -> String {
        match parse(src) {
            Ok(_) => "ok".to_string(),
            Err(i) => render(src, &i),
        }
    }

    #[test]
    fn syntax_errors_read_like_cel_go() {
        assert_eq!(
            err("1 +"),
            "ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 +\n | ...^"
        );
        assert_eq!(
            err("self.?a"),
            "ERROR: <input>:1:5: unsupported syntax '.?'\n | self.?a\n | ....^"
        );
    }

    #[test]
    fn deep_input_is_refused_before_parsing() {
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert!(err(&deep).contains("expression recursion limit exceeded: 90"));
        let long = format!("1{}", "+1".repeat(5000));
        assert!(err(&long).contains("expression recursion limit exceeded: 1000"));
        let huge = "a".repeat(100_001);
        assert_eq!(
            err(&huge),
            "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100001, limit 100000"
        );
        // Brackets inside strings and comments do not count.
        let quoted = format!("'{}' == '' // {}", "[".repeat(200), "(".repeat(200));
        assert_eq!(err(&quoted), "ok");
    }

    #[test]
    fn parses_are_shared_and_offsets_found_when_asked() {
        let a = parse("self.size() > 1").unwrap();
        let b = parse("self.size() > 1").unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        // No run of `!`/`-` to fold: the second parse for offsets waits until asked.
        assert!(a.offsets.get().is_none());
        assert!(!a.offsets().is_empty());
        // A refusal is kept too, with the same issues.
        assert_eq!(err("1 +"), err("1 +"));
        // An even run is folded at parse time, which needs the offsets then.
        let c = parse("!!true").unwrap();
        assert!(c.offsets.get().is_some());
        assert!(
            super::super::rewrite::may_fold("- -1") && !super::super::rewrite::may_fold("!(a) - 1")
        );
    }

    #[test]
    fn offsets_point_at_operators() {
        let p = parse("'a' + 1").unwrap();
        assert_eq!(p.offsets().get(&p.expr().id), Some(&4));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é+x", 3), (1, 3));
    }
}
