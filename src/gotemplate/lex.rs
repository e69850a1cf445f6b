/*!
The template lexer: text/template's scanner, item for item.

The parser pulls one item at a time ([`Lexer::next_item`]). Positions are byte offsets into the
template text and every item carries the line it starts on, because Go's parse errors report
`template: NAME:LINE: …` with the line bookkeeping of its own lexer (lines are counted as runes
are consumed, un-counted on backup, and trimmed text is counted when skipped). Trim markers
(`{{- ` and ` -}}`) and comments are handled here, so the parser never sees them.
*/

use std::borrow::Cow;

use crate::go::unicode::{is_digit, is_letter};

/// Kinds of lexical items, in Go's order (keywords last; item printing relies on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ItemType {
    /// A lexical error; the value is the message.
    Error,
    /// `true` / `false`.
    Bool,
    /// A printable ASCII character (`,`, …).
    Char,
    /// A character constant such as `'a'`.
    CharConstant,
    /// A comment (never emitted: comments are skipped).
    Comment,
    /// A complex constant `1+2i`.
    Complex,
    /// `=`.
    Assign,
    /// `:=`.
    Declare,
    /// End of input.
    Eof,
    /// `.Field`.
    Field,
    /// An identifier (function name).
    Identifier,
    /// `{{`.
    LeftDelim,
    /// `(`.
    LeftParen,
    /// A number.
    Number,
    /// `|`.
    Pipe,
    /// A raw string with its backquotes.
    RawString,
    /// `}}`.
    RightDelim,
    /// `)`.
    RightParen,
    /// A run of spaces.
    Space,
    /// A quoted string with its quotes.
    String,
    /// Plain text outside actions.
    Text,
    /// `$`, `$x`.
    Variable,
    /// Marks the start of the keywords.
    Keyword,
    /// `block`.
    Block,
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `.`.
    Dot,
    /// `define`.
    Define,
    /// `else`.
    Else,
    /// `end`.
    End,
    /// `if`.
    If,
    /// `nil`.
    Nil,
    /// `range`.
    Range,
    /// `template`.
    Template,
    /// `with`.
    With,
}

/// One lexical item.
#[derive(Debug, Clone)]
pub struct Item<'a> {
    /// Its kind.
    pub typ: ItemType,
    /// Byte offset of its start.
    pub pos: usize,
    /// Its text (for errors, the message).
    pub val: Cow<'a, str>,
    /// Line of its start (1-based).
    pub line: usize,
}

impl Item<'_> {
    /// Go's `item.String()`, used in "unexpected …" parse errors.
    pub fn describe(&self) -> String {
        match self.typ {
            ItemType::Eof => "EOF".into(),
            ItemType::Error => self.val.to_string(),
            t if t > ItemType::Keyword => format!("<{}>", self.val),
            _ => {
                if self.val.len() > 10 {
                    // `%.10q...`: the first ten runes, quoted.
                    let cut: String = self.val.chars().take(10).collect();
                    format!("{}...", crate::go::strconv::quote(&cut, false))
                } else {
                    crate::go::strconv::quote(&self.val, false)
                }
            }
        }
    }
}

fn keyword(word: &str) -> Option<ItemType> {
    Some(match word {
        "." => ItemType::Dot,
        "block" => ItemType::Block,
        "break" => ItemType::Break,
        "continue" => ItemType::Continue,
        "define" => ItemType::Define,
        "else" => ItemType::Else,
        "end" => ItemType::End,
        "if" => ItemType::If,
        "range" => ItemType::Range,
        "nil" => ItemType::Nil,
        "template" => ItemType::Template,
        "with" => ItemType::With,
        _ => return None,
    })
}

const LEFT_DELIM: &str = "{{";
const RIGHT_DELIM: &str = "}}";
const LEFT_COMMENT: &str = "/*";
const RIGHT_COMMENT: &str = "*/";
/// A trim marker plus the space that must accompany it.
const TRIM_MARKER_LEN: usize = 2;

#[derive(Clone, Copy)]
enum State {
    Text,
    LeftDelim,
    Comment,
    RightDelim,
    InsideAction,
    Space,
    Identifier,
    Field,
    Variable,
    Char,
    Number,
    Quote,
    RawQuote,
}

/// The scanner state.
pub struct Lexer<'a> {
    input: &'a str,
    pos: usize,
    start: usize,
    at_eof: bool,
    paren_depth: usize,
    line: usize,
    start_line: usize,
    inside_action: bool,
    item: Option<Item<'a>>,
    /// Whether `break` / `continue` are keywords (not shadowed by user functions).
    pub break_ok: bool,
    /// See `break_ok`.
    pub continue_ok: bool,
    /// After an error the lexer only returns EOF (Go empties its input).
    dead: bool,
}

fn is_space(c: Option<char>) -> bool {
    matches!(c, Some(' ' | '\t' | '\r' | '\n'))
}

fn is_alnum(c: Option<char>) -> bool {
    match c {
        Some(c) => c == '_' || is_letter(c) || is_digit(c),
        None => false,
    }
}

fn has_left_trim_marker(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0] == b'-' && matches!(b[1], b' ' | b'\t' | b'\r' | b'\n')
}

fn has_right_trim_marker(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && matches!(b[0], b' ' | b'\t' | b'\r' | b'\n') && b[1] == b'-'
}

fn right_trim_length(s: &str) -> usize {
    s.len() - s.trim_end_matches([' ', '\t', '\r', '\n']).len()
}

fn left_trim_length(s: &str) -> usize {
    s.len() - s.trim_start_matches([' ', '\t', '\r', '\n']).len()
}

fn count_newlines(s: &str) -> usize {
    s.bytes().filter(|&b| b == b'\n').count()
}

/// Offset of the first `{{` (a byte scan: cheaper than a general substring search).
fn find_left_delim(s: &str) -> Option<usize> {
    s.as_bytes().windows(2).position(|w| w == b"{{")
}

/// Go's `%#U`: `U+0041 'A'` (the quoted character only when printable).
pub fn sharp_u(c: char) -> String {
    let mut s = format!("U+{:04X}", c as u32);
    if crate::go::unicode::is_print(c) {
        s.push_str(" '");
        s.push(c);
        s.push('\'');
    }
    s
}

impl<'a> Lexer<'a> {
    /// A lexer over `input`.
    pub fn new(input: &'a str) -> Lexer<'a> {
        Lexer {
            input,
            pos: 0,
            start: 0,
            at_eof: false,
            paren_depth: 0,
            line: 1,
            start_line: 1,
            inside_action: false,
            item: None,
            break_ok: true,
            continue_ok: true,
            dead: false,
        }
    }

    fn rest(&self) -> &'a str {
        self.input.get(self.pos..).unwrap_or("")
    }

    fn next(&mut self) -> Option<char> {
        let Some(c) = self.rest().chars().next() else {
            self.at_eof = true;
            return None;
        };
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        let c = self.next();
        self.backup();
        c
    }

    fn backup(&mut self) {
        if !self.at_eof && self.pos > 0 {
            let Some(c) = self.input[..self.pos].chars().next_back() else {
                return;
            };
            self.pos -= c.len_utf8();
            if c == '\n' {
                self.line -= 1;
            }
        }
    }

    fn this_item(&mut self, t: ItemType) -> Item<'a> {
        let i = Item {
            typ: t,
            pos: self.start,
            val: Cow::Borrowed(&self.input[self.start..self.pos]),
            line: self.start_line,
        };
        self.start = self.pos;
        self.start_line = self.line;
        i
    }

    fn emit(&mut self, t: ItemType) -> Option<State> {
        let i = self.this_item(t);
        self.item = Some(i);
        None
    }

    fn emit_item(&mut self, i: Item<'a>) -> Option<State> {
        self.item = Some(i);
        None
    }

    fn ignore(&mut self) {
        self.line += count_newlines(&self.input[self.start..self.pos]);
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn accept(&mut self, valid: &str) -> bool {
        match self.next() {
            Some(c) if valid.contains(c) => true,
            _ => {
                self.backup();
                false
            }
        }
    }

    fn accept_run(&mut self, valid: &str) {
        loop {
            match self.next() {
                Some(c) if valid.contains(c) => {}
                _ => break,
            }
        }
        self.backup();
    }

    fn errorf(&mut self, msg: String) -> Option<State> {
        self.item = Some(Item {
            typ: ItemType::Error,
            pos: self.start,
            val: Cow::Owned(msg),
            line: self.start_line,
        });
        self.start = 0;
        self.pos = 0;
        self.input = "";
        self.dead = true;
        None
    }

    /// The next item.
    pub fn next_item(&mut self) -> Item<'a> {
        self.item = None;
        if self.dead {
            return self.eof_item();
        }
        let mut state = if self.inside_action {
            State::InsideAction
        } else {
            State::Text
        };
        loop {
            let next = match state {
                State::Text => self.lex_text(),
                State::LeftDelim => self.lex_left_delim(),
                State::Comment => self.lex_comment(),
                State::RightDelim => self.lex_right_delim(),
                State::InsideAction => self.lex_inside_action(),
                State::Space => self.lex_space(),
                State::Identifier => self.lex_identifier(),
                State::Field => self.lex_field_or_variable(ItemType::Field),
                State::Variable => self.lex_variable(),
                State::Char => self.lex_char(),
                State::Number => self.lex_number(),
                State::Quote => self.lex_quote(),
                State::RawQuote => self.lex_raw_quote(),
            };
            match next {
                Some(s) => state = s,
                None => return self.item.take().unwrap_or_else(|| self.eof_item()),
            }
        }
    }

    fn eof_item(&self) -> Item<'a> {
        Item {
            typ: ItemType::Eof,
            pos: self.pos,
            val: Cow::Borrowed("EOF"),
            line: self.start_line,
        }
    }

    fn lex_text(&mut self) -> Option<State> {
        if let Some(x) = find_left_delim(self.rest()) {
            if x > 0 {
                self.pos += x;
                let mut trim = 0;
                let delim_end = self.pos + LEFT_DELIM.len();
                if has_left_trim_marker(&self.input[delim_end..]) {
                    trim = right_trim_length(&self.input[self.start..self.pos]);
                }
                self.pos -= trim;
                self.line += count_newlines(&self.input[self.start..self.pos]);
                let i = self.this_item(ItemType::Text);
                self.pos += trim;
                self.ignore();
                if !i.val.is_empty() {
                    return self.emit_item(i);
                }
            }
            return Some(State::LeftDelim);
        }
        self.pos = self.input.len();
        if self.pos > self.start {
            self.line += count_newlines(&self.input[self.start..self.pos]);
            return self.emit(ItemType::Text);
        }
        self.emit(ItemType::Eof)
    }

    fn at_right_delim(&self) -> (bool, bool) {
        let rest = self.rest();
        if has_right_trim_marker(rest) && rest[TRIM_MARKER_LEN..].starts_with(RIGHT_DELIM) {
            return (true, true);
        }
        if rest.starts_with(RIGHT_DELIM) {
            return (true, false);
        }
        (false, false)
    }

    fn lex_left_delim(&mut self) -> Option<State> {
        self.pos += LEFT_DELIM.len();
        let trim = has_left_trim_marker(self.rest());
        let after = if trim { TRIM_MARKER_LEN } else { 0 };
        if self.input[self.pos + after..].starts_with(LEFT_COMMENT) {
            self.pos += after;
            self.ignore();
            return Some(State::Comment);
        }
        let i = self.this_item(ItemType::LeftDelim);
        self.inside_action = true;
        self.pos += after;
        self.ignore();
        self.paren_depth = 0;
        self.emit_item(i)
    }

    fn lex_comment(&mut self) -> Option<State> {
        self.pos += LEFT_COMMENT.len();
        let Some(x) = self.rest().find(RIGHT_COMMENT) else {
            return self.errorf("unclosed comment".into());
        };
        self.pos += x + RIGHT_COMMENT.len();
        let (delim, trim) = self.at_right_delim();
        if !delim {
            return self.errorf("comment ends before closing delimiter".into());
        }
        self.line += count_newlines(&self.input[self.start..self.pos]);
        // The comment item itself is dropped (comments are not emitted), but taking it keeps
        // the line bookkeeping identical.
        let _ = self.this_item(ItemType::Comment);
        if trim {
            self.pos += TRIM_MARKER_LEN;
        }
        self.pos += RIGHT_DELIM.len();
        if trim {
            self.pos += left_trim_length(self.rest());
        }
        self.ignore();
        Some(State::Text)
    }

    fn lex_right_delim(&mut self) -> Option<State> {
        let (_, trim) = self.at_right_delim();
        if trim {
            self.pos += TRIM_MARKER_LEN;
            self.ignore();
        }
        self.pos += RIGHT_DELIM.len();
        let i = self.this_item(ItemType::RightDelim);
        if trim {
            self.pos += left_trim_length(self.rest());
            self.ignore();
        }
        self.inside_action = false;
        self.emit_item(i)
    }

    fn lex_inside_action(&mut self) -> Option<State> {
        let (delim, _) = self.at_right_delim();
        if delim {
            if self.paren_depth == 0 {
                return Some(State::RightDelim);
            }
            return self.errorf("unclosed left paren".into());
        }
        let r = self.next();
        match r {
            None => self.errorf("unclosed action".into()),
            Some(c) if is_space(Some(c)) => {
                self.backup();
                Some(State::Space)
            }
            Some('=') => self.emit(ItemType::Assign),
            Some(':') => {
                if self.next() != Some('=') {
                    return self.errorf("expected :=".into());
                }
                self.emit(ItemType::Declare)
            }
            Some('|') => self.emit(ItemType::Pipe),
            Some('"') => Some(State::Quote),
            Some('`') => Some(State::RawQuote),
            Some('$') => Some(State::Variable),
            Some('\'') => Some(State::Char),
            Some('.') => {
                // ".field" unless a digit follows (then it is a number such as .5).
                if let Some(&b) = self.input.as_bytes().get(self.pos)
                    && !b.is_ascii_digit()
                {
                    return Some(State::Field);
                }
                self.backup();
                Some(State::Number)
            }
            Some(c) if c == '+' || c == '-' || c.is_ascii_digit() => {
                self.backup();
                Some(State::Number)
            }
            Some(c) if is_alnum(Some(c)) => {
                self.backup();
                Some(State::Identifier)
            }
            Some('(') => {
                self.paren_depth += 1;
                self.emit(ItemType::LeftParen)
            }
            Some(')') => {
                if self.paren_depth == 0 {
                    return self.errorf("unexpected right paren".into());
                }
                self.paren_depth -= 1;
                self.emit(ItemType::RightParen)
            }
            Some(c) if c.is_ascii() && (' '..='~').contains(&c) => self.emit(ItemType::Char),
            Some(c) => self.errorf(format!("unrecognized character in action: {}", sharp_u(c))),
        }
    }

    fn lex_space(&mut self) -> Option<State> {
        let mut num_spaces = 0;
        loop {
            let r = self.peek();
            if !is_space(r) {
                break;
            }
            self.next();
            num_spaces += 1;
        }
        // A space may be the start of a trim-marked right delimiter " -}}".
        let from = self.pos.saturating_sub(1);
        let tail = &self.input[from..];
        if has_right_trim_marker(tail) && tail[TRIM_MARKER_LEN..].starts_with(RIGHT_DELIM) {
            self.backup();
            if num_spaces == 1 {
                return Some(State::RightDelim);
            }
        }
        self.emit(ItemType::Space)
    }

    fn lex_identifier(&mut self) -> Option<State> {
        loop {
            let r = self.next();
            if is_alnum(r) {
                continue;
            }
            self.backup();
            let word = &self.input[self.start..self.pos];
            if !self.at_terminator() {
                return match r {
                    Some(c) => self.errorf(format!("bad character {}", sharp_u(c))),
                    None => self.errorf("bad character U+FFFFFFFF".into()),
                };
            }
            let kw = keyword(word);
            return match kw {
                Some(k) if k > ItemType::Keyword => {
                    if (k == ItemType::Break && !self.break_ok)
                        || (k == ItemType::Continue && !self.continue_ok)
                    {
                        return self.emit(ItemType::Identifier);
                    }
                    self.emit(k)
                }
                _ if word.starts_with('.') => self.emit(ItemType::Field),
                _ if word == "true" || word == "false" => self.emit(ItemType::Bool),
                _ => self.emit(ItemType::Identifier),
            };
        }
    }

    fn lex_variable(&mut self) -> Option<State> {
        if self.at_terminator() {
            return self.emit(ItemType::Variable);
        }
        self.lex_field_or_variable(ItemType::Variable)
    }

    fn lex_field_or_variable(&mut self, typ: ItemType) -> Option<State> {
        if self.at_terminator() {
            if typ == ItemType::Variable {
                return self.emit(ItemType::Variable);
            }
            return self.emit(ItemType::Dot);
        }
        let r = loop {
            let r = self.next();
            if !is_alnum(r) {
                self.backup();
                break r;
            }
        };
        if !self.at_terminator() {
            return match r {
                Some(c) => self.errorf(format!("bad character {}", sharp_u(c))),
                None => self.errorf("bad character U+FFFFFFFF".into()),
            };
        }
        self.emit(typ)
    }

    fn at_terminator(&mut self) -> bool {
        let r = self.peek();
        if is_space(r) {
            return true;
        }
        match r {
            None | Some('.' | ',' | '|' | ':' | ')' | '(') => true,
            _ => self.rest().starts_with(RIGHT_DELIM),
        }
    }

    fn lex_char(&mut self) -> Option<State> {
        loop {
            match self.next() {
                Some('\\') => {
                    let r = self.next();
                    if r.is_some() && r != Some('\n') {
                        continue;
                    }
                    return self.errorf("unterminated character constant".into());
                }
                None | Some('\n') => {
                    return self.errorf("unterminated character constant".into());
                }
                Some('\'') => break,
                _ => {}
            }
        }
        self.emit(ItemType::CharConstant)
    }

    fn lex_number(&mut self) -> Option<State> {
        if !self.scan_number() {
            let text = self.input[self.start..self.pos].to_string();
            return self.errorf(format!(
                "bad number syntax: {}",
                crate::go::strconv::quote(&text, false)
            ));
        }
        let sign = self.peek();
        if sign == Some('+') || sign == Some('-') {
            if !self.scan_number()
                || self.input.as_bytes().get(self.pos.wrapping_sub(1)) != Some(&b'i')
            {
                let text = self.input[self.start..self.pos].to_string();
                return self.errorf(format!(
                    "bad number syntax: {}",
                    crate::go::strconv::quote(&text, false)
                ));
            }
            return self.emit(ItemType::Complex);
        }
        self.emit(ItemType::Number)
    }

    fn scan_number(&mut self) -> bool {
        self.accept("+-");
        let mut digits = "0123456789_";
        if self.accept("0") {
            if self.accept("xX") {
                digits = "0123456789abcdefABCDEF_";
            } else if self.accept("oO") {
                digits = "01234567_";
            } else if self.accept("bB") {
                digits = "01_";
            }
        }
        self.accept_run(digits);
        if self.accept(".") {
            self.accept_run(digits);
        }
        if digits.len() == 10 + 1 && self.accept("eE") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        if digits.len() == 16 + 6 + 1 && self.accept("pP") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        self.accept("i");
        if is_alnum(self.peek()) {
            self.next();
            return false;
        }
        true
    }

    fn lex_quote(&mut self) -> Option<State> {
        loop {
            match self.next() {
                Some('\\') => {
                    let r = self.next();
                    if r.is_some() && r != Some('\n') {
                        continue;
                    }
                    return self.errorf("unterminated quoted string".into());
                }
                None | Some('\n') => return self.errorf("unterminated quoted string".into()),
                Some('"') => break,
                _ => {}
            }
        }
        self.emit(ItemType::String)
    }

    fn lex_raw_quote(&mut self) -> Option<State> {
        loop {
            match self.next() {
                None => return self.errorf("unterminated raw quoted string".into()),
                Some('`') => break,
                _ => {}
            }
        }
        self.emit(ItemType::RawString)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(s: &str) -> Vec<(ItemType, String, usize)> {
        let mut l = Lexer::new(s);
        let mut out = Vec::new();
        loop {
            let i = l.next_item();
            let done = matches!(i.typ, ItemType::Eof | ItemType::Error);
            out.push((i.typ, i.val.to_string(), i.line));
            if done || out.len() > 1000 {
                return out;
            }
        }
    }

    #[test]
    fn basic_action() {
        use ItemType::*;
        let got: Vec<ItemType> = items("a{{ .x | printf \"%d\" 3 }}b")
            .into_iter()
            .map(|i| i.0)
            .collect();
        assert_eq!(
            got,
            vec![
                Text, LeftDelim, Space, Field, Space, Pipe, Space, Identifier, Space, String,
                Space, Number, Space, RightDelim, Text, Eof
            ]
        );
    }

    #[test]
    fn trim_markers() {
        let got = items("a  {{- 3 -}}  \n b");
        assert_eq!(got[0].1, "a");
        assert_eq!(got[2].1, "3");
        assert_eq!(got[4].1, "b");
    }

    #[test]
    fn comments_and_lines() {
        let got = items("x\n{{/* c\n */}}\ny{{.}}");
        assert_eq!(got[0], (ItemType::Text, "x\n".into(), 1));
        assert_eq!(got[1], (ItemType::Text, "\ny".into(), 3));
        assert_eq!(got[2].0, ItemType::LeftDelim);
        assert_eq!(got[2].2, 4);
    }

    #[test]
    fn errors() {
        let last = |s: &str| items(s).pop().map(|i| i.1).unwrap_or_default();
        assert_eq!(last("{{"), "unclosed action");
        assert_eq!(last("{{ ( }}"), "unclosed left paren");
        assert_eq!(last("{{ ) }}"), "unexpected right paren");
        assert_eq!(last("{{ 3x }}"), "bad number syntax: \"3x\"");
        assert_eq!(last("{{ \"abc }}"), "unterminated quoted string");
        assert_eq!(
            last("{{ € }}"),
            "unrecognized character in action: U+20AC '€'"
        );
        assert_eq!(last("{{/* x }}"), "unclosed comment");
        assert_eq!(last("{{ .a@ }}"), "bad character U+0040 '@'");
    }

    #[test]
    fn numbers_and_complex() {
        let got = items("{{1+2i 0x1F 1_000 -3 .5 'a'}}");
        let vals: Vec<&str> = got
            .iter()
            .filter(|i| {
                matches!(
                    i.0,
                    ItemType::Number | ItemType::Complex | ItemType::CharConstant
                )
            })
            .map(|i| i.1.as_str())
            .collect();
        assert_eq!(vals, vec!["1+2i", "0x1F", "1_000", "-3", ".5", "'a'"]);
    }
}
