/*!
Go's `strconv` as text/template, `fmt`, Sprig and the YAML loader use it: number parsing
(`ParseInt`, `ParseUint` with any base and bit size, `Atoi`, `ParseFloat` with Go's literal
syntax, base prefixes and `_` separators, errors as Go's `*NumError`), string and rune
literals (`Unquote`, `UnquoteChar`), quoting (`Quote`, `QuoteToASCII`, `QuoteRune`,
`CanBackquote`) and float formatting (`FormatFloat` with the verbs `e E f g G b x X`).

Go strings may hold any bytes, Rust strings only UTF-8. Where Go would produce invalid UTF-8
(a `"\xff"` literal), [`bytes_to_string`] replaces each invalid byte with U+FFFD, which is what
Go's `encoding/json` shows for such output.
*/

use std::fmt;

use super::unicode::is_print;

/// Go's `strconv.ErrSyntax`, for the quoting functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxError;

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid syntax")
    }
}

impl std::error::Error for SyntaxError {}

// ---------------------------------------------------------------------------------------------
// Bytes to strings
// ---------------------------------------------------------------------------------------------

/// Bytes as a string, each byte of an invalid UTF-8 sequence becoming U+FFFD (Go's decoder
/// reports invalid input one byte at a time, unlike `String::from_utf8_lossy`).
pub fn bytes_to_string(b: Vec<u8>) -> String {
    match String::from_utf8(b) {
        Ok(s) => s,
        Err(e) => {
            let b = e.into_bytes();
            let mut out = String::with_capacity(b.len() + 8);
            let mut rest: &[u8] = &b;
            while !rest.is_empty() {
                match std::str::from_utf8(rest) {
                    Ok(s) => {
                        out.push_str(s);
                        break;
                    }
                    Err(err) => {
                        let good = err.valid_up_to();
                        // The prefix is valid by construction.
                        out.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                        out.push('\u{FFFD}');
                        rest = &rest[good + 1..];
                    }
                }
            }
            out
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Quoting
// ---------------------------------------------------------------------------------------------

const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// `strconv.Quote` (or `QuoteToASCII` when `ascii_only`).
pub fn quote(s: &str, ascii_only: bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    append_quoted(&mut out, s, '"', ascii_only);
    out
}

/// `strconv.Quote` of bytes that need not be UTF-8: each byte of an invalid sequence prints as
/// `\xNN`, as Go does for a string holding them.
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            append_escaped_rune(&mut out, c as u32, '"', false);
        }
        for b in chunk.invalid() {
            out.push_str("\\x");
            push_hex(&mut out, u32::from(*b), 2);
        }
    }
    out.push('"');
    out
}

/// Append `s` quoted with `quote` (`"` or `'`).
pub fn append_quoted(out: &mut String, s: &str, quote: char, ascii_only: bool) {
    out.push(quote);
    for c in s.chars() {
        append_escaped_rune(out, c as u32, quote, ascii_only);
    }
    out.push(quote);
}

/// `strconv.QuoteRune` / `QuoteRuneToASCII` of a code point (invalid ones become U+FFFD).
pub fn quote_rune(r: u32, ascii_only: bool) -> String {
    let r = if char::from_u32(r).is_some() {
        r
    } else {
        0xFFFD
    };
    let mut out = String::with_capacity(8);
    out.push('\'');
    append_escaped_rune(&mut out, r, '\'', ascii_only);
    out.push('\'');
    out
}

fn push_hex(out: &mut String, v: u32, digits: u32) {
    for i in (0..digits).rev() {
        out.push(LOWER_HEX[((v >> (4 * i)) & 0xF) as usize] as char);
    }
}

fn append_escaped_rune(out: &mut String, r: u32, quote: char, ascii_only: bool) {
    let c = char::from_u32(r);
    if let Some(c) = c {
        if c == quote || c == '\\' {
            out.push('\\');
            out.push(c);
            return;
        }
        if ascii_only {
            if c.is_ascii() && is_print(c) {
                out.push(c);
                return;
            }
        } else if is_print(c) {
            out.push(c);
            return;
        }
    }
    match r {
        0x07 => out.push_str("\\a"),
        0x08 => out.push_str("\\b"),
        0x0C => out.push_str("\\f"),
        0x0A => out.push_str("\\n"),
        0x0D => out.push_str("\\r"),
        0x09 => out.push_str("\\t"),
        0x0B => out.push_str("\\v"),
        _ => {
            if r < 0x20 || r == 0x7F {
                out.push_str("\\x");
                push_hex(out, r, 2);
            } else if c.is_none() || r < 0x10000 {
                let r = if c.is_none() { 0xFFFD } else { r };
                out.push_str("\\u");
                push_hex(out, r, 4);
            } else {
                out.push_str("\\U");
                push_hex(out, r, 8);
            }
        }
    }
}

/// `strconv.CanBackquote`.
pub fn can_backquote(s: &str) -> bool {
    s.chars().all(|c| {
        if c.len_utf8() > 1 {
            return c != '\u{FEFF}';
        }
        !((c < ' ' && c != '\t') || c == '`' || c == '\u{7F}')
    })
}

// ---------------------------------------------------------------------------------------------
// Unquoting
// ---------------------------------------------------------------------------------------------

fn unhex(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some(u32::from(b - b'0')),
        b'a'..=b'f' => Some(u32::from(b - b'a' + 10)),
        b'A'..=b'F' => Some(u32::from(b - b'A' + 10)),
        _ => None,
    }
}

/// One decoded character of a quoted literal.
pub struct UnquotedChar<'a> {
    /// The code point or byte value.
    pub value: u32,
    /// Whether `value` is a code point to encode as UTF-8 (else a single byte).
    pub multibyte: bool,
    /// The rest of the input.
    pub tail: &'a str,
}

/// `strconv.UnquoteChar`: decode the first character or escape of `s` inside `quote`.
pub fn unquote_char(s: &str, quote: u8) -> Result<UnquotedChar<'_>, SyntaxError> {
    let b = s.as_bytes();
    let Some(&c) = b.first() else {
        return Err(SyntaxError);
    };
    if c == quote && (quote == b'\'' || quote == b'"') {
        return Err(SyntaxError);
    }
    if c >= 0x80 {
        let ch = s.chars().next().ok_or(SyntaxError)?;
        return Ok(UnquotedChar {
            value: ch as u32,
            multibyte: true,
            tail: &s[ch.len_utf8()..],
        });
    }
    if c != b'\\' {
        return Ok(UnquotedChar {
            value: u32::from(c),
            multibyte: false,
            tail: &s[1..],
        });
    }
    let Some(&e) = b.get(1) else {
        return Err(SyntaxError);
    };
    // Every valid escape letter is ASCII; anything else (including a multi-byte character,
    // where slicing at byte 2 would split it) is a syntax error.
    let Some(rest) = s.get(2..) else {
        return Err(SyntaxError);
    };
    fn simple(v: u8, tail: &str) -> UnquotedChar<'_> {
        UnquotedChar {
            value: u32::from(v),
            multibyte: false,
            tail,
        }
    }
    match e {
        b'a' => Ok(simple(7, rest)),
        b'b' => Ok(simple(8, rest)),
        b'f' => Ok(simple(12, rest)),
        b'n' => Ok(simple(10, rest)),
        b'r' => Ok(simple(13, rest)),
        b't' => Ok(simple(9, rest)),
        b'v' => Ok(simple(11, rest)),
        b'x' | b'u' | b'U' => {
            let n = match e {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let rb = rest.as_bytes();
            if rb.len() < n {
                return Err(SyntaxError);
            }
            let mut v: u32 = 0;
            for &d in &rb[..n] {
                v = (v << 4) | unhex(d).ok_or(SyntaxError)?;
            }
            let tail = &rest[n..];
            if e == b'x' {
                return Ok(UnquotedChar {
                    value: v,
                    multibyte: false,
                    tail,
                });
            }
            if char::from_u32(v).is_none() {
                return Err(SyntaxError);
            }
            Ok(UnquotedChar {
                value: v,
                multibyte: true,
                tail,
            })
        }
        b'0'..=b'7' => {
            let rb = rest.as_bytes();
            if rb.len() < 2 {
                return Err(SyntaxError);
            }
            let mut v = u32::from(e - b'0');
            for &d in &rb[..2] {
                if !(b'0'..=b'7').contains(&d) {
                    return Err(SyntaxError);
                }
                v = (v << 3) | u32::from(d - b'0');
            }
            if v > 255 {
                return Err(SyntaxError);
            }
            Ok(UnquotedChar {
                value: v,
                multibyte: false,
                tail: &rest[2..],
            })
        }
        b'\\' => Ok(simple(b'\\', rest)),
        b'\'' | b'"' => {
            if e != quote {
                return Err(SyntaxError);
            }
            Ok(simple(e, rest))
        }
        _ => Err(SyntaxError),
    }
}

fn push_unquoted(buf: &mut Vec<u8>, ch: &UnquotedChar<'_>) {
    if ch.value < 0x80 || !ch.multibyte {
        // A `\xNN` or octal escape is one raw byte, even above 0x7F.
        buf.push(ch.value as u8);
    } else if let Some(c) = char::from_u32(ch.value) {
        let mut tmp = [0u8; 4];
        buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
    }
}

/// `strconv.Unquote` of a `"…"` or `` `…` `` literal, as raw bytes.
pub fn unquote(s: &str) -> Result<Vec<u8>, SyntaxError> {
    let b = s.as_bytes();
    if b.len() < 2 {
        return Err(SyntaxError);
    }
    let q = b[0];
    if b[b.len() - 1] != q {
        return Err(SyntaxError);
    }
    let inner = &s[1..s.len() - 1];
    match q {
        b'`' => {
            if inner.contains('`') {
                return Err(SyntaxError);
            }
            Ok(inner.bytes().filter(|&c| c != b'\r').collect())
        }
        b'"' | b'\'' => {
            let mut buf = Vec::with_capacity(inner.len());
            let mut rest = inner;
            while !rest.is_empty() {
                if rest.as_bytes()[0] == b'\n' {
                    return Err(SyntaxError);
                }
                let ch = unquote_char(rest, q)?;
                push_unquoted(&mut buf, &ch);
                rest = ch.tail;
                if q == b'\'' {
                    break;
                }
            }
            if !rest.is_empty() {
                return Err(SyntaxError);
            }
            if q == b'\'' && buf.is_empty() {
                return Err(SyntaxError);
            }
            Ok(buf)
        }
        _ => Err(SyntaxError),
    }
}

// ---------------------------------------------------------------------------------------------
// Number literals
// ---------------------------------------------------------------------------------------------

/// Why a number did not parse: the `Err` of Go's `*strconv.NumError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumErrorKind {
    /// `strconv.ErrSyntax`.
    Syntax,
    /// `strconv.ErrRange`.
    Range,
    /// A base outside 0 and 2–36.
    Base(u32),
    /// A bit size over 64.
    BitSize(u32),
}

impl fmt::Display for NumErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumErrorKind::Syntax => f.write_str("invalid syntax"),
            NumErrorKind::Range => f.write_str("value out of range"),
            NumErrorKind::Base(b) => write!(f, "invalid base {b}"),
            NumErrorKind::BitSize(n) => write!(f, "invalid bit size {n}"),
        }
    }
}

/// Go's `*strconv.NumError`: the function that failed, its input and why; displayed as Go's
/// `strconv.ParseInt: parsing "x": invalid syntax`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumError {
    /// `ParseInt`, `ParseUint`, `ParseFloat` or `Atoi`.
    pub func: &'static str,
    /// The input.
    pub num: String,
    pub err: NumErrorKind,
}

impl fmt::Display for NumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "strconv.{}: parsing {}: {}",
            self.func,
            quote(&self.num, false),
            self.err
        )
    }
}

impl std::error::Error for NumError {}

fn num_error(func: &'static str, s: &str, err: NumErrorKind) -> NumError {
    NumError {
        func,
        num: s.to_string(),
        err,
    }
}

/// Go's `lower`: ASCII letters folded to lower case (other bytes change too, as in Go, but
/// never into a letter).
fn lower(c: u8) -> u8 {
    c | 0x20
}

/// Go's `underscoreOK`: `_` only between digits, or between a base prefix and a digit.
fn underscore_ok(s: &str) -> bool {
    let mut b = match s.as_bytes() {
        [b'+' | b'-', rest @ ..] => rest,
        all => all,
    };
    // What came last: '^' the start, '0' a digit or base prefix, '_' an underscore, '!' other.
    let mut saw = b'^';
    let mut hex = false;
    if let [b'0', p, rest @ ..] = b
        && matches!(lower(*p), b'b' | b'o' | b'x')
    {
        saw = b'0';
        hex = lower(*p) == b'x';
        b = rest;
    }
    for &c in b {
        if c.is_ascii_digit() || (hex && (b'a'..=b'f').contains(&lower(c))) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
    }
    saw != b'_'
}

/// `ParseUint`'s two results: the value (the largest `bit_size`-bit number with `ErrRange`,
/// 0 with other errors) and the error.
fn parse_uint_go(s: &str, base: u32, bit_size: u32) -> (u64, Option<NumErrorKind>) {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return (0, Some(NumErrorKind::Syntax));
    }
    let base0 = base == 0;
    let (base, digits) = match base {
        2..=36 => (base, bytes),
        0 => match bytes {
            [b'0', p, _, ..] if lower(*p) == b'b' => (2, &bytes[2..]),
            [b'0', p, _, ..] if lower(*p) == b'o' => (8, &bytes[2..]),
            [b'0', p, _, ..] if lower(*p) == b'x' => (16, &bytes[2..]),
            [b'0', rest @ ..] => (8, rest),
            _ => (10, bytes),
        },
        _ => return (0, Some(NumErrorKind::Base(base))),
    };
    let bit_size = match bit_size {
        0 => 64,
        1..=64 => bit_size,
        _ => return (0, Some(NumErrorKind::BitSize(bit_size))),
    };
    let max = u64::MAX >> (64 - bit_size);
    let base = u64::from(base);
    let mut n: u64 = 0;
    let mut underscores = false;
    for &c in digits {
        let d = match c {
            b'_' if base0 => {
                underscores = true;
                continue;
            }
            b'0'..=b'9' => u64::from(c - b'0'),
            _ if lower(c).is_ascii_lowercase() => u64::from(lower(c) - b'a') + 10,
            _ => return (0, Some(NumErrorKind::Syntax)),
        };
        if d >= base {
            return (0, Some(NumErrorKind::Syntax));
        }
        // Go reports overflow as soon as it happens, before looking at later characters.
        match n.checked_mul(base).and_then(|m| m.checked_add(d)) {
            Some(next) if next <= max => n = next,
            _ => return (max, Some(NumErrorKind::Range)),
        }
    }
    if underscores && !underscore_ok(s) {
        return (0, Some(NumErrorKind::Syntax));
    }
    (n, None)
}

/// `strconv.ParseUint(s, base, bitSize)`: base 0 reads Go's prefixes (`0b`, `0o`, `0x`, a bare
/// `0` for octal) and `_` separators; bit size 0 means 64.
pub fn parse_uint(s: &str, base: u32, bit_size: u32) -> Result<u64, NumError> {
    match parse_uint_go(s, base, bit_size) {
        (n, None) => Ok(n),
        (_, Some(e)) => Err(num_error("ParseUint", s, e)),
    }
}

/// `strconv.ParseInt(s, base, bitSize)` with both of Go's results: with `ErrRange` comes the
/// bound nearest the input, with other errors 0.
pub fn parse_int_go(s: &str, base: u32, bit_size: u32) -> (i64, Option<NumError>) {
    const FUNC: &str = "ParseInt";
    if s.is_empty() {
        return (0, Some(num_error(FUNC, s, NumErrorKind::Syntax)));
    }
    let (neg, body) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let un = match parse_uint_go(body, base, bit_size) {
        (_, Some(e)) if e != NumErrorKind::Range => return (0, Some(num_error(FUNC, s, e))),
        (un, _) => un,
    };
    let bit_size = if bit_size == 0 { 64 } else { bit_size };
    let cutoff = 1u64 << (bit_size - 1);
    if !neg && un >= cutoff {
        return (
            (cutoff - 1) as i64,
            Some(num_error(FUNC, s, NumErrorKind::Range)),
        );
    }
    if neg && un > cutoff {
        return (
            (cutoff as i64).wrapping_neg(),
            Some(num_error(FUNC, s, NumErrorKind::Range)),
        );
    }
    let n = un as i64;
    (if neg { n.wrapping_neg() } else { n }, None)
}

/// `strconv.ParseInt(s, base, bitSize)` (see [`parse_uint`] for base 0).
pub fn parse_int(s: &str, base: u32, bit_size: u32) -> Result<i64, NumError> {
    match parse_int_go(s, base, bit_size) {
        (n, None) => Ok(n),
        (_, Some(e)) => Err(e),
    }
}

/// `strconv.Atoi` with both of Go's results: `ParseInt(s, 10, 0)`, reporting itself as `Atoi`.
pub fn atoi(s: &str) -> (i64, Option<NumError>) {
    let (n, e) = parse_int_go(s, 10, 0);
    (n, e.map(|e| NumError { func: "Atoi", ..e }))
}

/// `strconv.ParseFloat(s, 64)`: decimal and hexadecimal (`p` exponent required) floats, `_`
/// as Go's literal syntax allows, `inf`/`infinity` (signed or not) and `nan` in any case. On
/// overflow Go returns ±Inf with `ErrRange`; here the error alone.
pub fn parse_float(s: &str) -> Result<f64, NumError> {
    parse_float_kind(s).map_err(|e| num_error("ParseFloat", s, e))
}

fn parse_float_kind(s: &str) -> Result<f64, NumErrorKind> {
    if let Some(v) = special(s) {
        return Ok(v);
    }
    let b = s.as_bytes();
    let mut i = 0;
    let mut neg = false;
    match b.first() {
        Some(b'+') => i = 1,
        Some(b'-') => {
            neg = true;
            i = 1;
        }
        _ => {}
    }
    let hex = b.len() > i + 2 && b[i] == b'0' && lower(b[i + 1]) == b'x';
    if hex {
        let v = parse_hex_float(&s[i + 2..])?;
        if s.contains('_') && !underscore_ok(s) {
            return Err(NumErrorKind::Syntax);
        }
        return Ok(if neg { -v } else { v });
    }
    // Decimal: validate the grammar Go accepts, then let Rust's correctly rounded parser do the
    // arithmetic on the text without separators.
    let mut saw_digits = false;
    let mut saw_dot = false;
    let mut j = i;
    while j < b.len() {
        match b[j] {
            b'_' => {}
            b'.' if !saw_dot => saw_dot = true,
            b'0'..=b'9' => saw_digits = true,
            _ => break,
        }
        j += 1;
    }
    if !saw_digits {
        return Err(NumErrorKind::Syntax);
    }
    if j < b.len() && lower(b[j]) == b'e' {
        j += 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j >= b.len() || !b[j].is_ascii_digit() {
            return Err(NumErrorKind::Syntax);
        }
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'_') {
            j += 1;
        }
    }
    if j != b.len() {
        return Err(NumErrorKind::Syntax);
    }
    if s.contains('_') && !underscore_ok(s) {
        return Err(NumErrorKind::Syntax);
    }
    let cleaned: String = s.chars().filter(|&c| c != '_').collect();
    let v: f64 = cleaned.parse().map_err(|_| NumErrorKind::Syntax)?;
    if v.is_infinite() {
        return Err(NumErrorKind::Range);
    }
    Ok(v)
}

/// Go's `special`, for a whole string: an infinity with an optional sign, or an unsigned NaN.
fn special(s: &str) -> Option<f64> {
    let lower = s.to_ascii_lowercase();
    let (neg, body) = match lower.as_bytes().first() {
        Some(b'+') => (false, &lower[1..]),
        Some(b'-') => (true, &lower[1..]),
        _ => (false, lower.as_str()),
    };
    match body {
        "inf" | "infinity" => Some(if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }),
        "nan" if body.len() == lower.len() => Some(f64::NAN),
        _ => None,
    }
}

/// The magnitude of a hexadecimal float literal after `0x`; Go requires the `p` exponent.
fn parse_hex_float(s: &str) -> Result<f64, NumErrorKind> {
    let b = s.as_bytes();
    let mut mant: u64 = 0;
    let mut exp: i64 = 0;
    let mut sticky = false;
    let mut saw_digits = false;
    let mut saw_dot = false;
    let mut j = 0;
    while j < b.len() {
        let c = b[j];
        if c == b'_' {
            j += 1;
            continue;
        }
        if c == b'.' {
            if saw_dot {
                break;
            }
            saw_dot = true;
            j += 1;
            continue;
        }
        let Some(d) = unhex(c) else { break };
        saw_digits = true;
        if mant >> 60 == 0 {
            mant = (mant << 4) | u64::from(d);
            if saw_dot {
                exp -= 4;
            }
        } else {
            // Out of mantissa room: the digit only scales (before the dot) or is dropped.
            if d != 0 {
                sticky = true;
            }
            if !saw_dot {
                exp += 4;
            }
        }
        j += 1;
    }
    if !saw_digits || j >= b.len() || (b[j] | 0x20) != b'p' {
        return Err(NumErrorKind::Syntax);
    }
    j += 1;
    let mut esign = 1i64;
    if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
        if b[j] == b'-' {
            esign = -1;
        }
        j += 1;
    }
    if j >= b.len() || !b[j].is_ascii_digit() {
        return Err(NumErrorKind::Syntax);
    }
    let mut e: i64 = 0;
    while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'_') {
        if b[j] != b'_' && e < 100_000 {
            e = e * 10 + i64::from(b[j] - b'0');
        }
        j += 1;
    }
    if j != b.len() {
        return Err(NumErrorKind::Syntax);
    }
    compose_f64(mant, exp + esign * e, sticky).ok_or(NumErrorKind::Range)
}

/// `mant * 2^exp` rounded to the nearest float64 (ties to even; `sticky` marks dropped non-zero
/// bits below `mant`). `None` on overflow.
fn compose_f64(mant: u64, exp: i64, sticky: bool) -> Option<f64> {
    if mant == 0 {
        return Some(0.0);
    }
    // Normalise so bit 63 is set.
    let lz = i64::from(mant.leading_zeros());
    let m = mant << lz;
    // Value = m * 2^(e2), with m in [2^63, 2^64).
    let e2 = exp - lz;
    // Unbiased exponent of the leading bit.
    let top = e2 + 63;
    if top > 1023 {
        return None;
    }
    // Number of low bits of m to drop to keep 53 (or fewer for subnormals).
    let mut drop = 11i64;
    if top < -1022 {
        drop += -1022 - top;
    }
    if drop >= 64 + 2 {
        return Some(0.0);
    }
    let (kept, rem_half, rem_low) = if drop >= 64 {
        (
            0u64,
            drop == 64 && m >> 63 == 1,
            m & !(1u64 << 63) != 0 || sticky,
        )
    } else {
        let kept = m >> drop;
        let half = 1u64 << (drop - 1);
        let rem = m & ((1u64 << drop) - 1);
        (kept, rem & half != 0, rem & (half - 1) != 0 || sticky)
    };
    let mut kept = kept;
    if rem_half && (rem_low || kept & 1 == 1) {
        kept += 1;
    }
    // kept * 2^(e2 + drop)
    let scale = e2 + drop;
    let v = (kept as f64) * pow2(scale);
    if v.is_infinite() {
        return None;
    }
    Some(v)
}

fn pow2(e: i64) -> f64 {
    // Split to stay within the representable range at each step.
    let mut v = 1.0f64;
    let mut e = e;
    while e > 0 {
        let s = e.min(1000);
        v *= f64::from_bits(((1023 + s) as u64) << 52);
        e -= s;
    }
    while e < 0 {
        let s = (-e).min(1000);
        v /= f64::from_bits(((1023 + s) as u64) << 52);
        e += s;
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Float formatting
// ---------------------------------------------------------------------------------------------

/// Decimal digits of a float's magnitude: `0.d1d2d3… × 10^dp` (no trailing zeros; zero has no
/// digits).
struct Digits {
    d: Vec<u8>,
    dp: i64,
}

/// Parse Rust's `{:e}` output ("1.2345e-7") into digits and decimal point position.
fn digits_from_exp(s: &str) -> Digits {
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let mut d: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).collect();
    while d.last() == Some(&b'0') {
        d.pop();
    }
    if d.is_empty() {
        return Digits { d, dp: 0 };
    }
    Digits { d, dp: exp + 1 }
}

/// Shortest digits that round-trip, chosen as Go chooses among equally short candidates
/// (nearest, ties to even); Rust's `{:e}` agrees on the length but not always on the tie.
fn shortest(abs: f64) -> Digits {
    if abs == 0.0 || !abs.is_finite() {
        return digits_from_exp(&format!("{abs:e}"));
    }
    let (digits, exp) = crate::go::bignum::go_shortest(abs);
    let d: Vec<u8> = digits.into_bytes();
    let dp = i64::from(exp) + d.len() as i64;
    Digits { d, dp }
}

/// `n` significant digits, correctly rounded (ties to even on the exact binary value).
fn fixed(abs: f64, n: usize) -> Digits {
    if abs == 0.0 {
        return Digits {
            d: Vec::new(),
            dp: 0,
        };
    }
    digits_from_exp(&format!("{:.*e}", n.saturating_sub(1), abs))
}

fn fmt_e(out: &mut String, neg: bool, d: &Digits, prec: i64, fmtc: u8) {
    if neg {
        out.push('-');
    }
    out.push(d.d.first().map_or('0', |&c| c as char));
    if prec > 0 {
        out.push('.');
        let mut i = 1usize;
        let m = (d.d.len()).min(prec as usize + 1);
        if i < m {
            for &c in &d.d[i..m] {
                out.push(c as char);
            }
            i = m;
        }
        while (i as i64) <= prec {
            out.push('0');
            i += 1;
        }
    }
    out.push(fmtc as char);
    let mut exp = d.dp - 1;
    if d.d.is_empty() {
        exp = 0;
    }
    if exp < 0 {
        out.push('-');
        exp = -exp;
    } else {
        out.push('+');
    }
    if exp < 10 {
        out.push('0');
    }
    out.push_str(&exp.to_string());
}

fn fmt_f(out: &mut String, neg: bool, d: &Digits, prec: i64) {
    if neg {
        out.push('-');
    }
    if d.dp > 0 {
        let m = (d.d.len() as i64).min(d.dp) as usize;
        for &c in &d.d[..m] {
            out.push(c as char);
        }
        for _ in m as i64..d.dp {
            out.push('0');
        }
    } else {
        out.push('0');
    }
    if prec > 0 {
        out.push('.');
        for i in 0..prec {
            let j = d.dp + i;
            let c = if j >= 0 && (j as usize) < d.d.len() {
                d.d[j as usize] as char
            } else {
                '0'
            };
            out.push(c);
        }
    }
}

/// `strconv.FormatFloat(v, fmt, prec, 64)` for `fmt` in `e E f g G b x X`.
pub fn format_float(v: f64, fmtc: u8, prec: i64) -> String {
    let mut out = String::with_capacity(24);
    append_float(&mut out, v, fmtc, prec);
    out
}

/// Append `strconv.FormatFloat(v, fmt, prec, 64)` to `out`.
pub fn append_float(out: &mut String, v: f64, fmtc: u8, prec: i64) {
    if v.is_nan() {
        out.push_str("NaN");
        return;
    }
    if v.is_infinite() {
        out.push_str(if v < 0.0 { "-Inf" } else { "+Inf" });
        return;
    }
    let neg = v.is_sign_negative();
    let abs = v.abs();
    match fmtc {
        b'b' => return fmt_b(out, v),
        b'x' | b'X' => return fmt_x(out, v, prec, fmtc),
        _ => {}
    }
    let short = prec < 0;
    let mut prec = prec;
    let digs = if short {
        let d = shortest(abs);
        let nd = d.d.len() as i64;
        prec = match fmtc {
            b'e' | b'E' => (nd - 1).max(0),
            b'f' => (nd - d.dp).max(0),
            _ => nd,
        };
        d
    } else {
        match fmtc {
            b'e' | b'E' => fixed(abs, (prec + 1) as usize),
            b'f' => {
                // Round at the decimal position: Rust's fixed formatting is exact.
                let s = format!("{:.*}", prec as usize, abs);
                if neg {
                    out.push('-');
                }
                out.push_str(&s);
                return;
            }
            _ => {
                if prec == 0 {
                    prec = 1;
                }
                fixed(abs, prec as usize)
            }
        }
    };
    match fmtc {
        b'e' | b'E' => fmt_e(out, neg, &digs, prec, fmtc),
        b'f' => fmt_f(out, neg, &digs, prec),
        _ => {
            let nd = digs.d.len() as i64;
            let mut eprec = prec;
            if eprec > nd && nd >= digs.dp {
                eprec = nd;
            }
            if short {
                eprec = 6;
            }
            let exp = digs.dp - 1;
            if exp < -4 || exp >= eprec {
                let p = prec.min(nd);
                let e = if fmtc == b'G' { b'E' } else { b'e' };
                fmt_e(out, neg, &digs, p - 1, e);
            } else {
                let p = if prec > digs.dp { nd } else { prec };
                fmt_f(out, neg, &digs, (p - digs.dp).max(0));
            }
        }
    }
}

fn float_parts(v: f64) -> (bool, u64, i64) {
    let bits = v.to_bits();
    let neg = bits >> 63 != 0;
    let mut exp = ((bits >> 52) & 0x7FF) as i64;
    let mut mant = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        exp += 1;
    } else {
        mant |= 1u64 << 52;
    }
    (neg, mant, exp - 1023)
}

fn fmt_b(out: &mut String, v: f64) {
    let (neg, mant, exp) = float_parts(v);
    if neg {
        out.push('-');
    }
    out.push_str(&mant.to_string());
    out.push('p');
    let e = exp - 52;
    if e >= 0 {
        out.push('+');
    }
    out.push_str(&e.to_string());
}

fn fmt_x(out: &mut String, v: f64, prec: i64, fmtc: u8) {
    let (neg, mant, exp) = float_parts(v);
    let mut exp = exp;
    let mut mant = mant;
    if mant == 0 {
        exp = 0;
    }
    mant <<= 60 - 52;
    while mant != 0 && mant & (1u64 << 60) == 0 {
        mant <<= 1;
        exp -= 1;
    }
    if (0..15).contains(&prec) {
        let shift = (prec * 4) as u32;
        let extra = (mant << shift) & ((1u64 << 60) - 1);
        mant >>= 60 - shift;
        if extra | (mant & 1) > 1u64 << 59 {
            mant += 1;
        }
        mant <<= 60 - shift;
        if mant & (1u64 << 61) != 0 {
            mant >>= 1;
            exp += 1;
        }
    }
    let hex: &[u8; 16] = if fmtc == b'X' {
        b"0123456789ABCDEF"
    } else {
        LOWER_HEX
    };
    if neg {
        out.push('-');
    }
    out.push('0');
    out.push(fmtc as char);
    out.push((b'0' + ((mant >> 60) & 1) as u8) as char);
    mant <<= 4;
    if prec < 0 && mant != 0 {
        out.push('.');
        while mant != 0 {
            out.push(hex[((mant >> 60) & 15) as usize] as char);
            mant <<= 4;
        }
    } else if prec > 0 {
        out.push('.');
        for _ in 0..prec {
            out.push(hex[((mant >> 60) & 15) as usize] as char);
            mant <<= 4;
        }
    }
    out.push(if fmtc == b'X' { 'P' } else { 'p' });
    if exp < 0 {
        out.push('-');
        exp = -exp;
    } else {
        out.push('+');
    }
    if exp < 10 {
        out.push('0');
    }
    out.push_str(&exp.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_like_strconv() {
        let go_quote = |s: &str| quote(s, false);
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(go_quote("\n\t\u{1}\u{7f}"), "\"\\n\\t\\x01\\x7f\"");
        assert_eq!(go_quote("é\u{a0}\u{feff}"), "\"é\\u00a0\\ufeff\"");
        assert_eq!(go_quote("\u{10ffff}"), "\"\\U0010ffff\"");
        assert_eq!(go_quote("\u{378}\u{2028}ẞ"), "\"\\u0378\\u2028ẞ\"");
        assert_eq!(quote_bytes(b"%\xc3"), "\"%\\xc3\"");
        assert_eq!(quote_bytes("é".as_bytes()), quote("é", false));
    }

    #[test]
    fn shortest_g() {
        let g = |v: f64| format_float(v, b'g', -1);
        assert_eq!(g(1e6), "1e+06");
        assert_eq!(g(123456.0), "123456");
        assert_eq!(g(1e21), "1e+21");
        assert_eq!(g(1e-7), "1e-07");
        assert_eq!(g(0.0001), "0.0001");
        assert_eq!(g(0.00001), "1e-05");
        assert_eq!(g(-0.0), "-0");
        assert_eq!(g(1.5), "1.5");
        assert_eq!(g(123456789.0), "1.23456789e+08");
        assert_eq!(g(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(g(f64::NAN), "NaN");
        assert_eq!(g(f64::NEG_INFINITY), "-Inf");
        assert_eq!(g(1e100), "1e+100");
    }

    #[test]
    fn fixed_formats() {
        assert_eq!(format_float(3.25159, b'f', 2), "3.25");
        assert_eq!(format_float(2.5, b'f', 0), "2");
        assert_eq!(format_float(1.0, b'e', 6), "1.000000e+00");
        assert_eq!(format_float(0.0, b'e', 2), "0.00e+00");
        assert_eq!(format_float(100.0, b'g', 3), "100");
        assert_eq!(format_float(1.5, b'g', 5), "1.5");
        assert_eq!(format_float(1234567.0, b'g', 3), "1.23e+06");
        assert_eq!(format_float(1.0, b'b', -1), "4503599627370496p-52");
        assert_eq!(format_float(1.0, b'x', -1), "0x1p+00");
        assert_eq!(format_float(3.0, b'x', 3), "0x1.800p+01");
    }

    #[test]
    fn numbers() {
        let uint = |s: &str| parse_uint(s, 0, 64).map_err(|e| e.err);
        let int = |s: &str| parse_int(s, 0, 64).map_err(|e| e.err);
        let float = |s: &str| parse_float(s).map_err(|e| e.err);
        use NumErrorKind::{Range, Syntax};
        for (s, want) in [
            ("0x1F", Ok(31)),
            ("017", Ok(15)),
            ("0o17", Ok(15)),
            ("0b101", Ok(5)),
            ("1_000", Ok(1000)),
            ("08", Err(Syntax)),
            ("1__0", Err(Syntax)),
            ("0x", Err(Syntax)),
            ("0", Ok(0)),
            ("18446744073709551616", Err(Range)),
        ] {
            assert_eq!(uint(s), want, "{s}");
        }
        for (s, want) in [
            ("-9223372036854775808", Ok(i64::MIN)),
            ("9223372036854775808", Err(Range)),
            ("++5", Err(Syntax)),
            ("-+5", Err(Syntax)),
            ("0x_1F", Ok(31)),
            ("_1", Err(Syntax)),
        ] {
            assert_eq!(int(s), want, "{s}");
        }
        for (s, want) in [
            ("1e3", Ok(1000.0)),
            ("1_0.5", Ok(10.5)),
            ("0x1p4", Ok(16.0)),
            ("0x1.8p1", Ok(3.0)),
            ("0x1.8", Err(Syntax)),
            ("1e400", Err(Range)),
            ("0x1p1024", Err(Range)),
            ("08", Ok(8.0)),
            (".", Err(Syntax)),
            ("-Infinity", Ok(f64::NEG_INFINITY)),
            ("+nan", Err(Syntax)),
            ("infin", Err(Syntax)),
        ] {
            assert_eq!(float(s), want, "{s}");
        }
        assert!(float("NaN").is_ok_and(f64::is_nan));
    }

    #[test]
    fn number_bases_sizes_and_errors() {
        // With `ErrRange` Go returns the nearest bound; with other errors 0.
        assert_eq!(parse_int_go("99999999999999999999x", 10, 64).0, i64::MAX);
        assert_eq!(parse_int_go("-99999999999999999999", 10, 64).0, i64::MIN);
        assert_eq!(parse_int_go("300", 10, 8).0, 127);
        assert_eq!(parse_int_go("-300", 10, 8).0, -128);
        assert_eq!(parse_int_go("x", 10, 64).0, 0);
        assert_eq!(parse_int("-128", 10, 8), Ok(-128));
        assert_eq!(parse_uint("255", 10, 8), Ok(255));
        assert_eq!(
            parse_uint("256", 10, 8).map_err(|e| e.err),
            Err(NumErrorKind::Range)
        );
        assert_eq!(
            parse_int("1_0", 10, 64).map_err(|e| e.err),
            Err(NumErrorKind::Syntax)
        );
        assert_eq!(parse_int("0777", 8, 64), Ok(511));
        assert_eq!(parse_int("-17", 8, 64), Ok(-15));
        assert_eq!(parse_int("zz", 36, 64), Ok(1295));
        assert_eq!(
            parse_int("", 10, 64).map_err(|e| e.err),
            Err(NumErrorKind::Syntax)
        );
        // Go's error texts.
        let text = |r: Result<i64, NumError>| r.map_err(|e| e.to_string());
        assert_eq!(
            text(parse_int("x\n", 10, 64)),
            Err("strconv.ParseInt: parsing \"x\\n\": invalid syntax".into())
        );
        assert_eq!(
            text(parse_int("99999999999999999999", 0, 64)),
            Err("strconv.ParseInt: parsing \"99999999999999999999\": value out of range".into())
        );
        assert_eq!(
            text(parse_int("1", 1, 64)),
            Err("strconv.ParseInt: parsing \"1\": invalid base 1".into())
        );
        assert_eq!(
            text(parse_int("1", 10, 65)),
            Err("strconv.ParseInt: parsing \"1\": invalid bit size 65".into())
        );
        assert_eq!(
            parse_uint("-1", 10, 64).map_err(|e| e.to_string()),
            Err("strconv.ParseUint: parsing \"-1\": invalid syntax".into())
        );
        assert_eq!(
            atoi("12a").1.map(|e| e.to_string()),
            Some("strconv.Atoi: parsing \"12a\": invalid syntax".into())
        );
        assert_eq!(
            parse_float("1e400").map_err(|e| e.to_string()),
            Err("strconv.ParseFloat: parsing \"1e400\": value out of range".into())
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("a\"b\n\u{1}é", false), "\"a\\\"b\\n\\x01é\"");
        assert_eq!(quote("é☺\u{10FFFF}", true), "\"\\u00e9\\u263a\\U0010ffff\"");
        assert_eq!(quote_rune(0x41, false), "'A'");
        assert_eq!(quote_rune(0x27, false), "'\\''");
        assert_eq!(quote_rune(0x110000, false), "'�'");
        assert!(can_backquote("a\tb"));
        assert!(!can_backquote("a`b"));
        assert_eq!(unquote("\"a\\x41\\u00e9\""), Ok(b"aA\xc3\xa9".to_vec()));
        assert_eq!(unquote("`a\\n`"), Ok(b"a\\n".to_vec()));
        assert_eq!(unquote("\"\\xff\""), Ok(vec![0xff]));
        assert_eq!(unquote("\"\\q\""), Err(SyntaxError));
        assert_eq!(bytes_to_string(vec![b'h', 0xc3]), "h\u{FFFD}");
    }
}
