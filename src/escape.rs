/*!
Terminal safety: the one place that decides which characters of input-derived text may reach a
terminal raw.

Anything a pull request controls (names, annotations, file names, extension messages, snippets of
input files) can carry bytes a terminal interprets: ESC starts a control sequence (recolour,
move the cursor, rewrite the window title, OSC 8 links, on some terminals answer-back), BEL rings,
CR rewinds the line so a later text overwrites an earlier one, and the bidi overrides reorder what
a reviewer reads ("Trojan Source"). Every human-readable renderer (diagnostics, table, diffs,
review, patch explanation) passes such text through [`escape`]; machine formats (JSON, YAML) are
escaped by their own emitters.
*/

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal raw: C0 controls except newline and tab, DEL, C1
/// controls, and the invisible bidi formatting characters that reorder displayed text.
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        // Bidi embeddings/overrides and isolates, and the marks that steer them.
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

/// `s` with every unsafe character (see [`is_unsafe`]) written as a `\u001b`-style escape, so
/// it shows what the input holds without acting on the terminal. Borrowed when nothing needs
/// escaping, which is the normal case.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Like [`escape`], but also escapes newline and tab: for one-line contexts (a table cell, a
/// file name in a header) where a newline would forge a line of its own.
pub fn escape_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| is_unsafe(c) || c == '\n' || c == '\t') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => push_escaped(&mut out, c),
        }
    }
    Cow::Owned(out)
}

/// Append `c`, escaped when unsafe.
pub fn push_escaped(out: &mut String, c: char) {
    if is_unsafe(c) {
        // Writing to a String cannot fail.
        let _ = write!(out, "\\u{:04x}", c as u32);
    } else {
        out.push(c);
    }
}

/// How many characters `c` takes once escaped.
pub fn escaped_width(c: char) -> usize {
    if is_unsafe(c) { 6 } else { 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(escape("name: c-1\n\tok ü"), Cow::Borrowed(_)));
    }

    #[test]
    fn controls_and_bidi_are_escaped() {
        assert_eq!(escape("a\u{1b}[31mb\u{7}"), "a\\u001b[31mb\\u0007");
        assert_eq!(escape("x\ry"), "x\\u000dy");
        assert_eq!(escape("\u{7f}\u{85}\u{9b}"), "\\u007f\\u0085\\u009b");
        assert_eq!(escape("\u{202e}gpj.exe"), "\\u202egpj.exe");
        assert_eq!(escape("\u{2066}\u{2069}"), "\\u2066\\u2069");
        assert_eq!(escape("a\nb\tc"), "a\nb\tc");
    }

    #[test]
    fn one_line_escapes_newlines_too() {
        assert_eq!(escape_line("a\nb\tc\u{1b}"), "a\\nb\\tc\\u001b");
    }

    #[test]
    fn width_matches_the_escape() {
        for c in ['a', '\u{1b}', '\u{202e}', 'ü'] {
            let mut s = String::new();
            push_escaped(&mut s, c);
            assert_eq!(s.chars().count(), escaped_width(c));
        }
    }
}
