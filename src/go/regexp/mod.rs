/*!
Go's `regexp` package: `Compile` (over a port of `regexp/syntax`), `MatchString`,
`FindAllStringIndex`, `ReplaceAllString` / `ReplaceAllLiteralString`, `Split`, `QuoteMeta` and
`MustCompile`'s panic text.

Go's RE2 syntax differs from the `regex` crate's in details that change results: `\d`, `\s`,
`\w` and `\b` are ASCII-only in Go, Go accepts names and escapes Rust rejects (and the reverse),
`\p{C}` excludes unassigned code points, repetition counts are capped at 1000, and every
rejected pattern has a precise Go error text (`error parsing regexp: missing closing ): `(``).
So this module parses the pattern with Go's `regexp/syntax` rules ([`syntax`]) — same checks,
same order, same messages — and emits an equivalent pattern in the `regex` crate's syntax in
which every construct is explicit (ASCII classes spelled out, flags applied per node, all
groups unnamed). Matching then uses the `regex` crate, which like Go is leftmost-first and
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

mod syntax;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use super::strconv::{can_backquote, quote};
use syntax::{SyntaxError, translate};

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
    let translated = translate(expr).map_err(|e| e.to_string())?;
    let pattern = translated.pattern;
    let too_large = || SyntaxError::too_large(expr).to_string();
    let build = move || {
        ::regex::RegexBuilder::new(&pattern)
            .size_limit(64 << 20)
            .dfa_size_limit(16 << 20)
            .nest_limit(10_000)
            .build()
    };
    // The regex crate compiles recursively; deeply nested patterns get a thread with a stack
    // large enough for Go's maximum nesting.
    let built = if translated.height > 48 {
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
        names: translated.names,
    }))
}

impl GoRegex {
    /// `MatchString`.
    pub fn is_match(&self, s: &str) -> bool {
        self.re.is_match(s)
    }

    /// `FindStringIndex`: the leftmost-first match.
    pub fn find(&self, s: &str) -> Option<(usize, usize)> {
        self.re.find(s).map(|m| (m.start(), m.end()))
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

/// `regexp.MustCompile`'s panic text for a pattern `Compile` refused with `err`.
pub fn must_compile_error(expr: &str, err: &str) -> String {
    // regexp's `quote`: backquoted when `strconv.CanBackquote`, else `strconv.Quote`.
    let quoted = if can_backquote(expr) {
        format!("`{expr}`")
    } else {
        quote(expr, false)
    };
    format!("regexp: Compile({quoted}): {err}")
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn quote_meta_like_go() {
        assert_eq!(
            quote_meta("1.5-2.0?[x]{y}(z)|^$\\*+"),
            "1\\.5-2\\.0\\?\\[x\\]\\{y\\}\\(z\\)\\|\\^\\$\\\\\\*\\+"
        );
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
