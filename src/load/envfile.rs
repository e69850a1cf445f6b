/*!
Env files: the `--env-file` format that supplies values for `${VAR}` substitution.

Owns parsing `KEY=VALUE` lines into a map. The format is the common subset of shell and
docker/compose env files, kept deliberately small so that a file means the same thing to
`source`, to `docker --env-file` (for unquoted values) and to topoplan:

- blank lines and lines whose first non-blank character is `#` are ignored;
- `export ` before the key is allowed (so the file can be `source`d);
- the key is `[A-Za-z_][A-Za-z0-9_]*`, directly followed by `=` (no spaces, as in shell);
- `'…'`: taken literally without the quotes; `"…"`: quotes removed and `\"`, `\\`, `\n`
  unescaped (any other backslash is kept); after the closing quote only blanks and a `#`
  comment may follow;
- otherwise the raw text after `=`, up to a `#` preceded by a blank (a comment), with trailing
  blanks removed. Leading blanks are kept: they are part of the raw text.

Later keys override earlier ones. Every malformed line is reported, at the line.
*/

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::diag::{Code, Diagnostic};
use crate::source::{SourceFile, Span};

/// Parse an env file into variable values.
///
/// All malformed lines are reported together: the first as the diagnostic, the others as its
/// related diagnostics.
#[allow(
    clippy::result_large_err,
    reason = "the crate reports errors as Diagnostic by value; env files are read once"
)]
pub fn parse(file: &Arc<SourceFile>) -> Result<BTreeMap<String, String>, Diagnostic> {
    let mut vars = BTreeMap::new();
    let mut errors = Vec::new();
    let text = file.text.as_str();
    // A byte-order mark from a Windows editor is not part of the first key.
    let mut offset = if text.starts_with('\u{feff}') { 3 } else { 0 };
    while offset < text.len() {
        let rest = &text[offset..];
        let line_len = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let line = &rest[..line_len];
        match parse_line(line) {
            Ok(Some((key, value))) => {
                vars.insert(key.to_string(), value);
            }
            Ok(None) => {}
            Err(e) => errors.push(e.into_diagnostic(file, offset)),
        }
        offset += line_len;
    }
    // Each reported line renders a snippet: the first is the error, a bounded number follow
    // it, the rest are counted.
    let total = errors.len();
    let mut errors = errors.into_iter();
    match errors.next() {
        None => Ok(vars),
        Some(first) => Err(first.with_related_bounded(errors, total - 1)),
    }
}

/// A problem on one line, with byte offsets relative to the line.
struct LineError {
    message: String,
    label: &'static str,
    help: &'static str,
    start: usize,
    len: usize,
}

impl LineError {
    fn into_diagnostic(self, file: &Arc<SourceFile>, line_offset: usize) -> Diagnostic {
        Diagnostic::error(Code::InputEnvFile, self.message)
            .with_span(
                file,
                Span::new(line_offset + self.start, self.len),
                self.label,
            )
            .with_help(self.help)
    }
}

const LINE_HELP: &str = "each line is KEY=VALUE (optionally preceded by `export `), \
     a `#` comment, or blank";
const KEY_HELP: &str = "a name is letters, digits and `_`, not starting with a digit, and is \
     directly followed by `=` (no spaces around it)";
const QUOTE_HELP: &str = "a quoted value ends at its closing quote on the same line; only a \
     `# comment` may follow it";

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn valid_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// One line (with its newline, if any): `None` for blank and comment lines.
fn parse_line(line: &str) -> Result<Option<(&str, String)>, LineError> {
    let body = line.trim_end_matches(['\n', '\r']);
    let indent = body.len() - body.trim_start_matches(is_blank).len();
    let content = &body[indent..];
    if content.trim_end_matches(is_blank).is_empty() || content.starts_with('#') {
        return Ok(None);
    }
    // `export` only counts when a blank follows: `export=1` sets a variable named export.
    let mut start = indent;
    if let Some(after) = content.strip_prefix("export")
        && after.starts_with(is_blank)
    {
        let skipped = after.len() - after.trim_start_matches(is_blank).len();
        start += "export".len() + skipped;
    }
    let assignment = &body[start..];
    let Some(eq) = assignment.find('=') else {
        let shown = assignment.trim_end_matches(is_blank);
        return Err(LineError {
            message: format!("malformed line in env file: expected KEY=VALUE, found `{shown}`"),
            label: "no `=` on this line",
            help: LINE_HELP,
            start,
            len: shown.len(),
        });
    };
    let key = &assignment[..eq];
    if !valid_key(key) {
        return Err(LineError {
            message: format!("invalid variable name `{key}` in env file"),
            label: "not a variable name",
            help: KEY_HELP,
            start,
            len: key.len().max(1),
        });
    }
    let value_start = start + eq + 1;
    let value = parse_value(&body[value_start..]).map_err(|mut e| {
        e.start += value_start;
        e
    })?;
    Ok(Some((key, value)))
}

/// The text after `=` (without the newline), offsets in errors relative to it.
fn parse_value(raw: &str) -> Result<String, LineError> {
    match raw.chars().next() {
        Some('\'') => {
            let inner = &raw[1..];
            let Some(close) = inner.find('\'') else {
                return Err(unterminated(raw, '\''));
            };
            after_quote(raw, 1 + close + 1)?;
            Ok(inner[..close].to_string())
        }
        Some('"') => {
            let mut out = String::new();
            let mut chars = raw.char_indices().skip(1);
            while let Some((i, c)) = chars.next() {
                match c {
                    '"' => {
                        after_quote(raw, i + 1)?;
                        return Ok(out);
                    }
                    '\\' => match chars.next() {
                        Some((_, '"')) => out.push('"'),
                        Some((_, '\\')) => out.push('\\'),
                        Some((_, 'n')) => out.push('\n'),
                        // Other backslashes mean nothing special, as in shell double quotes.
                        Some((_, other)) => {
                            out.push('\\');
                            out.push(other);
                        }
                        None => out.push('\\'),
                    },
                    _ => out.push(c),
                }
            }
            Err(unterminated(raw, '"'))
        }
        _ => {
            // A comment starts at a `#` that follows a blank, as in shell.
            let mut end = raw.len();
            let mut prev_blank = false;
            for (i, c) in raw.char_indices() {
                if c == '#' && prev_blank {
                    end = i;
                    break;
                }
                prev_blank = is_blank(c);
            }
            Ok(raw[..end].trim_end_matches(is_blank).to_string())
        }
    }
}

/// What follows a closing quote at `end` must be blanks or a comment.
fn after_quote(raw: &str, end: usize) -> Result<(), LineError> {
    let tail = &raw[end..];
    let trimmed = tail.trim_start_matches(is_blank);
    if trimmed.is_empty() || (trimmed.starts_with('#') && trimmed.len() < tail.len()) {
        return Ok(());
    }
    let start = end + (tail.len() - trimmed.len());
    Err(LineError {
        message: "unexpected text after the closing quote in env file".to_string(),
        label: "after the closing quote",
        help: QUOTE_HELP,
        start,
        len: trimmed.trim_end_matches(is_blank).len(),
    })
}

fn unterminated(raw: &str, quote: char) -> LineError {
    LineError {
        message: format!("unterminated {quote}-quoted value in env file"),
        label: "no closing quote on this line",
        help: QUOTE_HELP,
        start: 0,
        len: raw.trim_end_matches(is_blank).len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `parse` of an in-memory file named `vars.env`.
    fn parse_str(text: &str) -> Result<BTreeMap<String, String>, Box<Diagnostic>> {
        parse(&SourceFile::new("vars.env", text)).map_err(Box::new)
    }

    #[track_caller]
    fn vars(text: &str) -> Vec<(String, String)> {
        match parse_str(text) {
            Ok(m) => m.into_iter().collect(),
            Err(d) => panic!("{text:?}: {}", d.message),
        }
    }

    #[track_caller]
    fn one(line: &str) -> String {
        let v = vars(line);
        assert_eq!(v.len(), 1, "{line:?}");
        v[0].1.clone()
    }

    /// Message, line, column and the text underlined.
    #[track_caller]
    fn error(text: &str) -> (String, usize, usize, String) {
        let d = match parse_str(text) {
            Err(d) => d,
            Ok(m) => panic!("{text:?}: expected an error, got {m:?}"),
        };
        let (_, line, col) = d.position().unwrap();
        let span = d.location.as_ref().unwrap().span;
        let covered = text[span.offset..span.offset + span.len].to_string();
        (d.message, line, col, covered)
    }

    #[test]
    fn corpus_style_file() {
        let text = "# clusterctl-style variables\n\
                    # Format: KEY=VALUE\n\
                    CLUSTER_NAME=capi-quickstart\n\
                    POD_CIDR='[\"192.168.0.0/16\"]'\n\
                    SERVICE_DOMAIN='\"cluster.local\"'\n\
                    DOCKER_PRELOAD_IMAGES='[]'\n\
                    DOCKER_POD_CIDRS=192.168.0.0/16\n";
        let m = parse_str(text).unwrap();
        assert_eq!(m["CLUSTER_NAME"], "capi-quickstart");
        assert_eq!(m["POD_CIDR"], "[\"192.168.0.0/16\"]");
        assert_eq!(m["SERVICE_DOMAIN"], "\"cluster.local\"");
        assert_eq!(m["DOCKER_PRELOAD_IMAGES"], "[]");
        assert_eq!(m["DOCKER_POD_CIDRS"], "192.168.0.0/16");
        assert_eq!(m.len(), 5);
    }

    #[test]
    fn shared_example_env_files() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/examples");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipped: {} not found", dir.display());
            return;
        };
        let mut seen = 0;
        for e in entries {
            let path = e.unwrap().path().join("vars.env");
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let m = parse(&SourceFile::new(path.display().to_string(), text)).unwrap();
            assert!(m.values().all(|v| !v.starts_with('\'')), "{m:?}");
            if let Some(cidr) = m.get("POD_CIDR") {
                assert_eq!(cidr, "[\"192.168.0.0/16\"]");
                assert_eq!(m["SERVICE_DOMAIN"], "\"cluster.local\"");
            }
            seen += 1;
        }
        assert!(seen >= 3);
    }

    #[test]
    fn blank_and_comment_lines() {
        assert!(vars("").is_empty());
        assert!(vars("\n\n   \n\t\n# c\n   # indented = comment\n#A=1\n").is_empty());
        assert_eq!(vars("  A=1\n"), [("A".into(), "1".into())]);
    }

    #[test]
    fn export_prefix() {
        assert_eq!(one("export A=1"), "1");
        assert_eq!(vars("export\tA=1"), [("A".into(), "1".into())]);
        assert_eq!(vars("export   A=1"), [("A".into(), "1".into())]);
        // Without a blank after it, `export` is the key.
        assert_eq!(vars("export=1"), [("export".into(), "1".into())]);
        assert_eq!(vars("exported=1"), [("exported".into(), "1".into())]);
        assert_eq!(
            error("export A").0,
            "malformed line in env file: expected KEY=VALUE, found `A`"
        );
    }

    #[test]
    fn unquoted_values() {
        assert_eq!(one("A=a b  \t"), "a b");
        assert_eq!(one("A=a # comment"), "a");
        assert_eq!(one("A=a\t# comment"), "a");
        assert_eq!(one("A=a#not-a-comment"), "a#not-a-comment");
        assert_eq!(one("A= #only a comment"), "");
        assert_eq!(one("A="), "");
        assert_eq!(one("A==x"), "=x");
        assert_eq!(one("A=a=b"), "a=b");
        // Leading blanks are part of the raw text.
        assert_eq!(one("A=  v"), "  v");
        // Quotes that do not wrap the value are ordinary characters.
        assert_eq!(one("A=it's"), "it's");
        assert_eq!(one("A=a\"b\""), "a\"b\"");
        assert_eq!(one(r"A=a\nb"), r"a\nb");
        assert_eq!(one("A=${B} $C"), "${B} $C");
        assert_eq!(one("A=日本 ü"), "日本 ü");
    }

    #[test]
    fn single_quoted_values() {
        assert_eq!(one("A='a # b'"), "a # b");
        assert_eq!(one(r#"A='"x"\n\'"#), r#""x"\n\"#);
        assert_eq!(one("A=''"), "");
        assert_eq!(one("A='  padded  '"), "  padded  ");
        assert_eq!(one("A='x'   # comment"), "x");
        assert_eq!(one("A='x'  "), "x");
        let (msg, line, col, covered) = error("OK=1\nA='x\n");
        assert_eq!(msg, "unterminated '-quoted value in env file");
        assert_eq!((line, col, covered.as_str()), (2, 3, "'x"));
        let (msg, line, col, covered) = error("A='x'y z\n");
        assert_eq!(msg, "unexpected text after the closing quote in env file");
        assert_eq!((line, col, covered.as_str()), (1, 6, "y z"));
        // A comment must be separated from the closing quote, as in shell.
        assert_eq!(error("A='x'#c").3, "#c");
    }

    #[test]
    fn double_quoted_values() {
        assert_eq!(one(r#"A="a \"b\" c""#), r#"a "b" c"#);
        assert_eq!(one(r#"A="back\\slash""#), r"back\slash");
        assert_eq!(one(r#"A="two\nlines""#), "two\nlines");
        // Other backslashes stay.
        assert_eq!(one(r#"A="a\tb\$c""#), r"a\tb\$c");
        assert_eq!(one(r#"A="it's # not a comment""#), "it's # not a comment");
        assert_eq!(one(r#"A="x" # comment"#), "x");
        assert_eq!(one(r#"A="""#), "");
        assert_eq!(one(r#"A="\\""#), "\\");
        let (msg, _, col, covered) = error(r#"A="abc\""#);
        assert_eq!(msg, "unterminated \"-quoted value in env file");
        assert_eq!((col, covered.as_str()), (3, r#""abc\""#));
        assert_eq!(error(r#"A="x"y"#).3, "y");
    }

    #[test]
    fn line_endings_and_bom() {
        let m = parse_str("\u{feff}A=1\r\nB='2'\r\nC=\"3\"\r\n# c\r\n\r\nD=4").unwrap();
        let got: Vec<(&str, &str)> = m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(got, [("A", "1"), ("B", "2"), ("C", "3"), ("D", "4")]);
    }

    #[test]
    fn later_keys_override() {
        assert_eq!(
            vars("A=1\nB=2\nA=3\n"),
            [("A".into(), "3".into()), ("B".into(), "2".into())]
        );
    }

    #[test]
    fn malformed_lines() {
        let (msg, line, col, covered) = error("A=1\n  just some text  \n");
        assert_eq!(
            msg,
            "malformed line in env file: expected KEY=VALUE, found `just some text`"
        );
        assert_eq!((line, col, covered.as_str()), (2, 3, "just some text"));
        for (text, key) in [
            ("1A=x", "1A"),
            ("A-B=x", "A-B"),
            ("A B=x", "A B"),
            ("A =x", "A "),
            ("Ä=x", "Ä"),
        ] {
            let (msg, line, col, covered) = error(text);
            assert_eq!(msg, format!("invalid variable name `{key}` in env file"));
            assert_eq!((line, col, covered.as_str()), (1, 1, key));
        }
        // An empty key underlines the `=`.
        let (msg, _, _, covered) = error("=x");
        assert_eq!(msg, "invalid variable name `` in env file");
        assert_eq!(covered, "=");
        let (_, _, col, _) = error("export 9=1");
        assert_eq!(col, 8);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_points_into_the_file(
            text in "(export |[A-Za-z_ =#'\"\\\\\t\r\n]|é|日)*",
            any in proptest::prelude::any::<String>(),
        ) {
            for t in [text, any] {
                if let Err(d) = parse_str(&t) {
                    for l in d.location.iter().chain(d.related.iter().filter_map(|r| r.location.as_ref())) {
                        proptest::prop_assert!(t.get(l.span.offset..l.span.offset + l.span.len).is_some());
                    }
                }
            }
        }
    }

    #[test]
    fn malformed_lines_reported_are_bounded() {
        let max = crate::diag::MAX_RELATED;
        let text: String = (0..1 + max + 7).map(|i| format!("bad {i}\n")).collect();
        let d = *parse_str(&text).unwrap_err();
        assert_eq!(d.related.len(), max);
        assert_eq!(d.omitted_related, 7);
    }

    #[test]
    fn every_malformed_line_is_reported() {
        let text = "A=1\nbad\nB=2\n3C=x\nD='open\n";
        let d = parse_str(text).unwrap_err();
        assert_eq!(d.position(), Some(("vars.env".to_string(), 2, 1)));
        let lines: Vec<usize> = d
            .related
            .iter()
            .filter_map(|r| r.position())
            .map(|p| p.1)
            .collect();
        assert_eq!(lines, [4, 5]);
        assert!(d.help.is_some());
        assert!(d.related.iter().all(|r| r.help.is_some()));
    }
}
