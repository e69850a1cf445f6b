/*!
Sprig's string functions and string-list functions: `hello`, `abbrev`, `abbrevboth`, `trunc`,
`trim`, `upper`, `lower`, `title`, `untitle`, `substr`, `repeat`, `trimall`, `trimAll`,
`trimSuffix`, `trimPrefix`, `nospace`, `initials`, `swapcase`, `shuffle`, `snakecase`,
`camelcase`, `kebabcase`, `wrap`, `wrapWith`, `contains`, `hasPrefix`, `hasSuffix`, `quote`,
`squote`, `cat`, `indent`, `nindent`, `replace`, `plural`, `split`, `splitList`, `splitn`,
`join`, `sortAlpha`.

They follow Sprig 3.3 and the libraries it calls (Go's `strings`, Masterminds/goutils 1.1.1,
huandu/xstrings 1.5.0), including their quirks:

- Go strings are bytes. `trunc`, `substr`, `abbrev*` and `wrap*` cut at byte offsets and can
  split a multi-byte character; our strings are UTF-8, so each byte of a broken sequence becomes
  U+FFFD (what Go's JSON encoding makes of it in the end). A later function that would have
  rejoined the pieces sees the replacement characters instead.
- goutils' `initials` and `nospace` read UTF-8 byte by byte as Latin-1 (`"é"` → `"Ã©"`), and
  treat the bytes 0x85 and 0xA0 inside multi-byte characters as spaces.
- Letter cases and classes come from Go's own Unicode 15 tables ([`crate::go::unicode`],
  generated from Go), not Rust's: simple one-to-one case mappings (`upper "ß"` is `"ß"`), Go's
  title case (`ǆ` → `ǅ`) and general categories.
- `camelcase` is xstrings' `ToPascalCase` as in Sprig 3.3 (3.2 used `ToCamelCase` 1.3, which
  lowered the rest of each word: `someWords` → `Somewords` there, `SomeWords` here).
- `shuffle` is random, as in Go.
- `sortAlpha` sorts a `[]string` argument in place in Go, changing the caller's list too; our
  values are immutable, so only the result is sorted.

A result larger than [`MAX_STRING_BYTES`] is an error here, where Go would build it as far as
memory allows: `repeat`, `indent`, `nindent`, `replace`, `wrapWith`; `seq` and the JSON
encoders use the same limit.
*/

use std::sync::Arc;

use super::cast::{
    MAX_STRING_BYTES, arg_any, arg_int, arg_str, go_lossy, strslice, strval, too_large,
};
use crate::go::unicode::{
    is_digit, is_letter, is_lower, is_number, is_punct, is_space, is_title, is_upper, to_lower,
    to_title, to_upper,
};
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::print::sprintf;
use crate::gotemplate::value::{GoType, Map, Value};

const S: Param = Param::String;
const I: Param = Param::Int;
const A: Param = Param::Any;

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func::fixed("hello", &[], hello),
    Func::fixed("abbrev", &[I, S], abbrev),
    Func::fixed("abbrevboth", &[I, I, S], abbrevboth),
    Func::fixed("trunc", &[I, S], trunc),
    Func::fixed("trim", &[S], trim),
    Func::fixed("upper", &[S], upper),
    Func::fixed("lower", &[S], lower),
    Func::fixed("title", &[S], title),
    Func::fixed("untitle", &[S], untitle),
    Func::fixed("substr", &[I, I, S], substr),
    Func::fixed("repeat", &[I, S], repeat),
    Func::fixed("trimall", &[S, S], trim_all),
    Func::fixed("trimAll", &[S, S], trim_all),
    Func::fixed("trimSuffix", &[S, S], trim_suffix),
    Func::fixed("trimPrefix", &[S, S], trim_prefix),
    Func::fixed("nospace", &[S], nospace),
    Func::fixed("initials", &[S], initials),
    Func::fixed("swapcase", &[S], swapcase),
    Func::fixed("shuffle", &[S], shuffle),
    Func::fixed("snakecase", &[S], snakecase),
    Func::fixed("camelcase", &[S], camelcase),
    Func::fixed("kebabcase", &[S], kebabcase),
    Func::fixed("wrap", &[I, S], wrap),
    Func::fixed("wrapWith", &[I, S, S], wrap_with),
    Func::fixed("contains", &[S, S], contains),
    Func::fixed("hasPrefix", &[S, S], has_prefix),
    Func::fixed("hasSuffix", &[S, S], has_suffix),
    Func {
        name: "quote",
        params: &[],
        variadic: Some(A),
        imp: quote,
    },
    Func {
        name: "squote",
        params: &[],
        variadic: Some(A),
        imp: squote,
    },
    Func {
        name: "cat",
        params: &[],
        variadic: Some(A),
        imp: cat,
    },
    Func::fixed("indent", &[I, S], indent),
    Func::fixed("nindent", &[I, S], nindent),
    Func::fixed("replace", &[S, S, S], replace),
    Func::fixed("plural", &[S, S, I], plural),
    Func::fixed("split", &[S, S], split),
    Func::fixed("splitList", &[S, S], split_list),
    Func::fixed("splitn", &[S, I, S], splitn),
    Func::fixed("join", &[S, A], join),
    Func::fixed("sortAlpha", &[A], sort_alpha),
];

fn string(s: impl Into<Arc<str>>) -> Result<Value, String> {
    Ok(Value::String(s.into()))
}

/// Bytes `a..b` of `s`, as Go's `s[a:b]` (the caller has checked the bounds).
fn byte_slice(s: &str, a: usize, b: usize) -> String {
    match s.get(a..b) {
        Some(t) => t.to_string(),
        None => go_lossy(s.as_bytes().get(a..b).unwrap_or_default()),
    }
}

fn hello(_: &[Value]) -> Result<Value, String> {
    string("Hello!")
}

/// goutils `AbbreviateFull` on bytes; `None` where it returns an error (Sprig then uses "").
/// Go's `int` arithmetic wraps, so this does too.
fn abbreviate_full(s: &[u8], offset: i64, max_width: i64) -> Option<Vec<u8>> {
    const MARKER: &[u8] = b"...";
    if s.is_empty() {
        return Some(Vec::new());
    }
    if max_width < 4 {
        return None;
    }
    let len = s.len() as i64;
    if len <= max_width {
        return Some(s.to_vec());
    }
    let mut offset = offset.min(len);
    let room = max_width.wrapping_sub(3);
    if len.wrapping_sub(offset) < room {
        offset = len.wrapping_sub(room);
    }
    let cat = |a: &[u8], b: &[u8]| [a, b].concat();
    let part = |a: i64, b: i64| s.get(usize::try_from(a).ok()?..usize::try_from(b).ok()?);
    if offset <= 4 {
        return Some(cat(part(0, room)?, MARKER));
    }
    if max_width < 7 {
        return None;
    }
    if offset.wrapping_add(room) < len {
        let rest = abbreviate_full(part(offset, len)?, 0, room).unwrap_or_default();
        return Some(cat(MARKER, &rest));
    }
    Some(cat(MARKER, part(len - room, len)?))
}

fn abbrev(args: &[Value]) -> Result<Value, String> {
    let (width, s) = (arg_int(args, 0)?, arg_str(args, 1)?);
    if width < 4 {
        return string(s);
    }
    let out = abbreviate_full(s.as_bytes(), 0, width).unwrap_or_default();
    string(go_lossy(&out))
}

fn abbrevboth(args: &[Value]) -> Result<Value, String> {
    let (left, right, s) = (arg_int(args, 0)?, arg_int(args, 1)?, arg_str(args, 2)?);
    if right < 4 || (left > 0 && right < 7) {
        return string(s);
    }
    let out = abbreviate_full(s.as_bytes(), left, right).unwrap_or_default();
    string(go_lossy(&out))
}

fn trunc(args: &[Value]) -> Result<Value, String> {
    let (c, s) = (arg_int(args, 0)?, arg_str(args, 1)?);
    let len = s.len() as i64;
    if c < 0 && len + c > 0 {
        return string(byte_slice(s, (len + c) as usize, s.len()));
    }
    if c >= 0 && len > c {
        return string(byte_slice(s, 0, c as usize));
    }
    string(s)
}

fn trim(args: &[Value]) -> Result<Value, String> {
    string(arg_str(args, 0)?.trim_matches(is_space))
}

fn upper(args: &[Value]) -> Result<Value, String> {
    string(arg_str(args, 0)?.chars().map(to_upper).collect::<String>())
}

fn lower(args: &[Value]) -> Result<Value, String> {
    string(arg_str(args, 0)?.chars().map(to_lower).collect::<String>())
}

/// Go's `strings.Title`: title-case every letter that follows a separator.
fn title(args: &[Value]) -> Result<Value, String> {
    let mut prev = ' ';
    let out: String = arg_str(args, 0)?
        .chars()
        .map(|r| {
            let after_separator = is_title_separator(prev);
            prev = r;
            if after_separator { to_title(r) } else { r }
        })
        .collect();
    string(out)
}

/// `strings.Title`'s word separators: ASCII other than letters, digits and `_`; beyond ASCII,
/// only spaces.
fn is_title_separator(r: char) -> bool {
    if r.is_ascii() {
        return !(r.is_ascii_alphanumeric() || r == '_');
    }
    if is_letter(r) || is_digit(r) {
        return false;
    }
    is_space(r)
}

/// goutils `Uncapitalize`: lower-case the first letter of each space-separated word.
fn untitle(args: &[Value]) -> Result<Value, String> {
    let mut next = true;
    let out: String = arg_str(args, 0)?
        .chars()
        .map(|r| {
            if is_space(r) {
                next = true;
                r
            } else if next {
                next = false;
                to_lower(r)
            } else {
                r
            }
        })
        .collect();
    string(out)
}

/// Go's runtime error for `s[low:high]` out of bounds (`low`/`high` absent when not written).
fn slice_error(low: Option<i64>, high: Option<i64>, len: usize) -> String {
    let msg = match (low, high) {
        (None, Some(h)) if h < 0 => format!("slice bounds out of range [:{h}]"),
        (None, Some(h)) => format!("slice bounds out of range [:{h}] with length {len}"),
        (Some(l), None) => format!("slice bounds out of range [{l}:{len}]"),
        (Some(l), Some(h)) => format!("slice bounds out of range [{l}:{h}]"),
        (None, None) => "slice bounds out of range".to_string(),
    };
    format!("runtime error: {msg}")
}

/// Sprig's `substring`: `s[:end]` if start < 0, `s[start:]` if end < 0 or past the end,
/// `s[start:end]` otherwise — with Go's panics for bounds that do not fit.
fn substr(args: &[Value]) -> Result<Value, String> {
    let (start, end, s) = (arg_int(args, 0)?, arg_int(args, 1)?, arg_str(args, 2)?);
    let len = s.len() as i64;
    if start < 0 {
        if end < 0 || end > len {
            return Err(slice_error(None, Some(end), s.len()));
        }
        return string(byte_slice(s, 0, end as usize));
    }
    if end < 0 || end > len {
        if start > len {
            return Err(slice_error(Some(start), None, s.len()));
        }
        return string(byte_slice(s, start as usize, s.len()));
    }
    if start > end {
        return Err(slice_error(Some(start), Some(end), s.len()));
    }
    string(byte_slice(s, start as usize, end as usize))
}

/// Go's `strings.Repeat`, with its panics, under our size limit.
fn go_repeat(s: &str, count: i64) -> Result<String, String> {
    if count < 0 {
        return Err("strings: negative Repeat count".into());
    }
    let total = (s.len() as u128) * (count as u128);
    if total > i64::MAX as u128 {
        return Err("strings: Repeat output length overflow".into());
    }
    if total > MAX_STRING_BYTES as u128 {
        return Err(too_large());
    }
    Ok(s.repeat(count as usize))
}

fn repeat(args: &[Value]) -> Result<Value, String> {
    let (count, s) = (arg_int(args, 0)?, arg_str(args, 1)?);
    string(go_repeat(s, count)?)
}

/// `trimAll CUTSET S`: Go's `strings.Trim(S, CUTSET)`.
fn trim_all(args: &[Value]) -> Result<Value, String> {
    let (cutset, s) = (arg_str(args, 0)?, arg_str(args, 1)?);
    string(s.trim_matches(|c| cutset.contains(c)))
}

fn trim_suffix(args: &[Value]) -> Result<Value, String> {
    let (suffix, s) = (arg_str(args, 0)?, arg_str(args, 1)?);
    string(s.strip_suffix(suffix).unwrap_or(s))
}

fn trim_prefix(args: &[Value]) -> Result<Value, String> {
    let (prefix, s) = (arg_str(args, 0)?, arg_str(args, 1)?);
    string(s.strip_prefix(prefix).unwrap_or(s))
}

/// goutils reads strings byte by byte and takes each byte for the rune of the same number.
fn latin1_is_space(b: u8) -> bool {
    is_space(char::from(b))
}

/// goutils `DeleteWhiteSpace`.
fn nospace(args: &[Value]) -> Result<Value, String> {
    let s = arg_str(args, 0)?;
    if !s.bytes().any(latin1_is_space) {
        return string(s);
    }
    let out: String = s
        .bytes()
        .filter(|b| !latin1_is_space(*b))
        .map(char::from)
        .collect();
    string(out)
}

/// goutils `Initials`: the first byte of each space-separated word, as a Latin-1 rune.
fn initials(args: &[Value]) -> Result<Value, String> {
    let mut out = String::new();
    let mut gap = true;
    for b in arg_str(args, 0)?.bytes() {
        if latin1_is_space(b) {
            gap = true;
        } else if gap {
            out.push(char::from(b));
            gap = false;
        }
    }
    string(out)
}

/// goutils `SwapCase`: upper and title case become lower; lower case becomes title case at the
/// start of a word and upper case elsewhere.
fn swapcase(args: &[Value]) -> Result<Value, String> {
    let mut word_start = true;
    let out: String = arg_str(args, 0)?
        .chars()
        .map(|r| {
            if is_upper(r) || is_title(r) {
                word_start = false;
                to_lower(r)
            } else if is_lower(r) {
                if word_start {
                    word_start = false;
                    to_title(r)
                } else {
                    to_upper(r)
                }
            } else {
                word_start = is_space(r);
                r
            }
        })
        .collect();
    string(out)
}

/// xstrings `Shuffle`: a uniformly random permutation of the characters (Fisher–Yates).
fn shuffle(args: &[Value]) -> Result<Value, String> {
    let mut chars: Vec<char> = arg_str(args, 0)?.chars().collect();
    let mut rng = Rng::new();
    for i in (1..chars.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        chars.swap(i, j);
    }
    string(chars.into_iter().collect::<String>())
}

/// A small SplitMix64 generator seeded from the process's random hash keys: `shuffle` only
/// needs unpredictability, not cryptographic strength, and this avoids a dependency.
struct Rng(u64);

impl Rng {
    fn new() -> Rng {
        use std::hash::{BuildHasher, Hasher};
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        if let Ok(d) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            h.write_u128(d.as_nanos());
        }
        Rng(h.finish())
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (rejection sampling; `n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

fn snakecase(args: &[Value]) -> Result<Value, String> {
    string(xstrings_lower_case(arg_str(args, 0)?, '_'))
}

fn kebabcase(args: &[Value]) -> Result<Value, String> {
    string(xstrings_lower_case(arg_str(args, 0)?, '-'))
}

/// xstrings' connectors: `-`, `_` and spaces.
fn is_connector(r: char) -> bool {
    r == '-' || r == '_' || is_space(r)
}

/// xstrings' `isAlphabet`: a letter outside the main CJK blocks.
fn is_alphabet(r: char) -> bool {
    if !is_letter(r) {
        return false;
    }
    !matches!(r, '\u{4E00}'..='\u{9FCC}' | '\u{3400}'..='\u{4D85}' | '\u{20000}'..='\u{2B81D}')
}

/// xstrings' word kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Invalid,
    Number,
    UpperCase,
    Alphabet,
    Connector,
    Punct,
    Other,
}

/// Go's `utf8.RuneError`: xstrings skips it, and on valid UTF-8 it can only be a literal U+FFFD.
const RUNE_ERROR: char = '\u{FFFD}';

/// xstrings' `nextValidRune`: the next rune that is not U+FFFD, and the bytes up to and
/// including it; at the end, `prev` and all remaining bytes.
fn next_valid_rune(s: &str, prev: char) -> (char, usize) {
    let mut size = 0;
    for r in s.chars() {
        size += r.len_utf8();
        if r != RUNE_ERROR {
            return (r, size);
        }
    }
    (prev, size)
}

/// xstrings' `nextWord`: the kind and text of the next word, and what follows it.
fn next_word(s: &str) -> (Word, &str, &str) {
    if s.is_empty() {
        return (Word::Invalid, "", "");
    }
    let (mut r, mut size) = next_valid_rune(s, RUNE_ERROR);
    let mut offset = size;
    if r == RUNE_ERROR {
        return (Word::Invalid, &s[..offset], &s[offset..]);
    }
    let mut rest = &s[size..];
    // Extends the word while `keep` accepts the next rune; returns the rune that stopped it.
    let extend =
        |r: &mut char, offset: &mut usize, rest: &mut &str, keep: &dyn Fn(char) -> bool| {
            while !rest.is_empty() {
                let (nr, nsize) = next_valid_rune(rest, *r);
                *r = nr;
                if !keep(nr) {
                    break;
                }
                *offset += nsize;
                *rest = &rest[nsize..];
            }
        };
    let kind = if is_connector(r) {
        extend(&mut r, &mut offset, &mut rest, &is_connector);
        Word::Connector
    } else if is_punct(r) {
        extend(&mut r, &mut offset, &mut rest, &is_punct);
        Word::Punct
    } else if is_upper(r) {
        if !rest.is_empty() {
            (r, size) = next_valid_rune(rest, r);
            if is_upper(r) {
                let mut prev_size = size;
                offset += size;
                rest = &rest[size..];
                while !rest.is_empty() {
                    (r, size) = next_valid_rune(rest, r);
                    if !is_upper(r) {
                        break;
                    }
                    prev_size = size;
                    offset += size;
                    rest = &rest[size..];
                }
                // "HTTPStatus" is "HTTP" + "Status": the last capital starts the next word.
                if !rest.is_empty() && is_alphabet(r) {
                    offset -= prev_size;
                    rest = &s[offset..];
                }
            } else if is_alphabet(r) {
                offset += size;
                rest = &rest[size..];
                extend(&mut r, &mut offset, &mut rest, &|c| {
                    is_alphabet(c) && !is_upper(c)
                });
            }
        }
        Word::UpperCase
    } else if is_alphabet(r) {
        extend(&mut r, &mut offset, &mut rest, &|c| {
            is_alphabet(c) && !is_upper(c)
        });
        Word::Alphabet
    } else if is_number(r) {
        extend(&mut r, &mut offset, &mut rest, &is_number);
        Word::Number
    } else {
        extend(&mut r, &mut offset, &mut rest, &|c| {
            !(is_connector(c) || is_alphabet(c) || is_number(c) || is_punct(c))
        });
        Word::Other
    };
    (kind, &s[..offset], rest)
}

/// xstrings' `toLower`: upper-case words are lowered, connector words become `connector`s,
/// other words are copied.
fn push_lower(out: &mut String, kind: Word, word: &str, connector: char) {
    if kind != Word::UpperCase && kind != Word::Connector {
        out.push_str(word);
        return;
    }
    for r in word.chars() {
        out.push(if is_connector(r) {
            connector
        } else if is_upper(r) {
            to_lower(r)
        } else {
            r
        });
    }
}

/// xstrings 1.5 `camelCaseToLowerCase` (`ToSnakeCase`, `ToKebabCase`).
fn xstrings_lower_case(s: &str, connector: char) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 4);
    if s.is_empty() {
        return out;
    }
    let (mut wt, mut word, mut rest) = next_word(s);
    while !rest.is_empty() {
        if wt != Word::Connector {
            push_lower(&mut out, wt, word, connector);
        }
        let (prev, last) = (wt, word);
        (wt, word, rest) = next_word(rest);
        match prev {
            Word::Number => {
                while wt == Word::Alphabet || wt == Word::Number {
                    push_lower(&mut out, wt, word, connector);
                    (wt, word, rest) = next_word(rest);
                }
                if !matches!(wt, Word::Invalid | Word::Punct | Word::Connector) {
                    out.push(connector);
                }
            }
            Word::Connector => push_lower(&mut out, prev, last, connector),
            Word::Punct => {}
            _ => {
                if wt != Word::Number {
                    if wt != Word::Connector && wt != Word::Punct {
                        out.push(connector);
                    }
                    continue;
                }
                if rest.is_empty() {
                    continue;
                }
                let number = word;
                (wt, word, rest) = next_word(rest);
                // A number between letters belongs to the word before ("Bld4Floor" →
                // "bld4_floor") unless lower-case letters follow it ("HTTP2xx" → "http_2xx").
                if wt != Word::Alphabet {
                    push_lower(&mut out, Word::Number, number, connector);
                    if wt != Word::Connector && wt != Word::Punct {
                        out.push(connector);
                    }
                    continue;
                }
                out.push(connector);
                push_lower(&mut out, Word::Number, number, connector);
                while wt == Word::Alphabet || wt == Word::Number {
                    push_lower(&mut out, wt, word, connector);
                    (wt, word, rest) = next_word(rest);
                }
                if !matches!(wt, Word::Invalid | Word::Connector | Word::Punct) {
                    out.push(connector);
                }
            }
        }
    }
    push_lower(&mut out, wt, word, connector);
    out
}

/// Sprig 3.3's `camelcase`: xstrings 1.5 `ToPascalCase`. Connectors between words disappear
/// (runs of them keep all but the last), each word's first letter is upper-cased, and a word
/// that starts with capitals has them lowered until its first non-capital.
fn camelcase(args: &[Value]) -> Result<Value, String> {
    let s = arg_str(args, 0)?;
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    let mut first_upper = false;
    let mut r0 = None;
    // Leading connectors are kept.
    for r in chars.by_ref() {
        if is_connector(r) {
            out.push(r);
            r0 = Some(r);
        } else {
            first_upper = is_upper(r);
            r0 = Some(to_upper(r));
            break;
        }
    }
    let Some(mut r0) = r0 else {
        return string(out);
    };
    if chars.as_str().is_empty() {
        // xstrings writes the last rune again here, even a connector it has already written
        // ("___" → "____").
        out.push(r0);
        return string(out);
    }
    for r in chars {
        let r1 = r0;
        r0 = r;
        if is_connector(r0) && is_connector(r1) {
            out.push(r1);
            continue;
        }
        if is_connector(r1) {
            first_upper = is_upper(r0);
            r0 = to_upper(r0);
        } else {
            if first_upper {
                if is_upper(r0) {
                    r0 = to_lower(r0);
                } else {
                    first_upper = false;
                }
            }
            out.push(r1);
        }
    }
    out.push(r0);
    string(out)
}

/// goutils `WrapCustom` on bytes: break lines at the last space before `width` columns (bytes);
/// longer words are cut at `width` when `long_words`, else left whole.
fn wrap_custom(s: &str, width: i64, newline: &str, long_words: bool) -> Result<String, String> {
    let s = s.as_bytes();
    if s.is_empty() {
        return Ok(String::new());
    }
    let newline = if newline.is_empty() { "\n" } else { newline }.as_bytes();
    // A width beyond the string's length never wraps.
    let width = usize::try_from(width.max(1))
        .unwrap_or(usize::MAX)
        .min(s.len() + 1);
    let mut out: Vec<u8> = Vec::with_capacity(s.len());
    let mut offset = 0;
    let push = |out: &mut Vec<u8>, part: &[u8], nl: bool| -> Result<(), String> {
        out.extend_from_slice(part);
        if nl {
            out.extend_from_slice(newline);
        }
        if out.len() > MAX_STRING_BYTES {
            return Err(too_large());
        }
        Ok(())
    };
    while s.len() - offset > width {
        if s[offset] == b' ' {
            offset += 1;
            continue;
        }
        let end = offset + width + 1;
        if let Some(space) = s[offset..end].iter().rposition(|b| *b == b' ') {
            push(&mut out, &s[offset..offset + space], true)?;
            offset += space + 1;
        } else if long_words {
            push(&mut out, &s[offset..offset + width], true)?;
            offset += width;
        } else {
            let end = offset + width;
            match s[end..].iter().position(|b| *b == b' ') {
                None => {
                    push(&mut out, &s[offset..], false)?;
                    offset = s.len();
                }
                Some(i) => {
                    push(&mut out, &s[offset..end + i], true)?;
                    offset = end + i + 1;
                }
            }
        }
    }
    push(&mut out, &s[offset..], false)?;
    Ok(go_lossy(&out))
}

fn wrap(args: &[Value]) -> Result<Value, String> {
    let (width, s) = (arg_int(args, 0)?, arg_str(args, 1)?);
    string(wrap_custom(s, width, "", false)?)
}

fn wrap_with(args: &[Value]) -> Result<Value, String> {
    let (width, sep, s) = (arg_int(args, 0)?, arg_str(args, 1)?, arg_str(args, 2)?);
    string(wrap_custom(s, width, sep, true)?)
}

fn contains(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(arg_str(args, 1)?.contains(arg_str(args, 0)?)))
}

fn has_prefix(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(
        arg_str(args, 1)?.starts_with(arg_str(args, 0)?),
    ))
}

fn has_suffix(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(arg_str(args, 1)?.ends_with(arg_str(args, 0)?)))
}

fn is_nil(v: &Value) -> bool {
    matches!(v, Value::Nil | Value::Invalid)
}

/// `quote`: each non-nil argument stringified and Go-quoted (`%q`), joined by spaces.
fn quote(args: &[Value]) -> Result<Value, String> {
    let parts: Vec<String> = args
        .iter()
        .filter(|v| !is_nil(v))
        .map(|v| sprintf("%q", &[Value::str(strval(v))]))
        .collect();
    string(parts.join(" "))
}

/// `squote`: each non-nil argument formatted with `%v` (not `strval`) in single quotes.
fn squote(args: &[Value]) -> Result<Value, String> {
    let parts: Vec<String> = args
        .iter()
        .filter(|v| !is_nil(v))
        .map(|v| format!("'{}'", crate::gotemplate::print::sprint_value(v)))
        .collect();
    string(parts.join(" "))
}

/// `cat`: the non-nil arguments formatted with `%v`, joined by spaces.
fn cat(args: &[Value]) -> Result<Value, String> {
    let parts: Vec<String> = args
        .iter()
        .filter(|v| !is_nil(v))
        .map(crate::gotemplate::print::sprint_value)
        .collect();
    string(parts.join(" "))
}

/// `indent N S`: N spaces before S and after each of its newlines.
fn indent_str(spaces: i64, s: &str) -> Result<String, String> {
    let pad = go_repeat(" ", spaces)?;
    let lines = s.bytes().filter(|b| *b == b'\n').count() + 1;
    if (lines as u128) * (pad.len() as u128) + (s.len() as u128) > MAX_STRING_BYTES as u128 {
        return Err(too_large());
    }
    Ok(format!("{pad}{}", s.replace('\n', &format!("\n{pad}"))))
}

fn indent(args: &[Value]) -> Result<Value, String> {
    string(indent_str(arg_int(args, 0)?, arg_str(args, 1)?)?)
}

fn nindent(args: &[Value]) -> Result<Value, String> {
    string(format!(
        "\n{}",
        indent_str(arg_int(args, 0)?, arg_str(args, 1)?)?
    ))
}

/// `replace OLD NEW S`: Go's `strings.Replace(S, OLD, NEW, -1)`; an empty OLD matches before
/// every character and at the end, as in Rust.
fn replace(args: &[Value]) -> Result<Value, String> {
    let (old, new, s) = (arg_str(args, 0)?, arg_str(args, 1)?, arg_str(args, 2)?);
    let matches = if old.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(old).count()
    };
    let size = s.len() as i128 + (matches as i128) * (new.len() as i128 - old.len() as i128);
    if size > MAX_STRING_BYTES as i128 {
        return Err(too_large());
    }
    string(s.replace(old, new))
}

fn plural(args: &[Value]) -> Result<Value, String> {
    let (one, many, count) = (arg_str(args, 0)?, arg_str(args, 1)?, arg_int(args, 2)?);
    string(if count == 1 { one } else { many })
}

/// Go's `strings.SplitN(s, sep, n)`: n < 0 for all parts, 0 for none; an empty separator splits
/// after each character.
fn go_split_n<'a>(s: &'a str, sep: &str, n: i64) -> Vec<&'a str> {
    if n == 0 {
        return Vec::new();
    }
    let limit = usize::try_from(n).unwrap_or(usize::MAX);
    if sep.is_empty() {
        let mut parts: Vec<&str> = Vec::new();
        let mut rest = s;
        while let Some(c) = rest.chars().next() {
            if parts.len() + 1 == limit {
                break;
            }
            parts.push(&rest[..c.len_utf8()]);
            rest = &rest[c.len_utf8()..];
        }
        if !rest.is_empty() {
            parts.push(rest);
        }
        return parts;
    }
    s.splitn(limit, sep).collect()
}

/// A `map[string]string` with keys `_0`, `_1`, … (Sprig's `split` results).
fn indexed_map(parts: Vec<&str>) -> Value {
    let entries = parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| (format!("_{i}"), Value::str(p)))
        .collect();
    Value::Map(Arc::new(Map {
        elem: GoType::String,
        entries,
    }))
}

fn split(args: &[Value]) -> Result<Value, String> {
    let (sep, s) = (arg_str(args, 0)?, arg_str(args, 1)?);
    Ok(indexed_map(go_split_n(s, sep, -1)))
}

fn split_list(args: &[Value]) -> Result<Value, String> {
    let (sep, s) = (arg_str(args, 0)?, arg_str(args, 1)?);
    Ok(Value::string_list(go_split_n(s, sep, -1)))
}

fn splitn(args: &[Value]) -> Result<Value, String> {
    let (sep, n, s) = (arg_str(args, 0)?, arg_int(args, 1)?, arg_str(args, 2)?);
    Ok(indexed_map(go_split_n(s, sep, n)))
}

/// `join SEP LIST`: the list as `toStrings` makes it, joined.
fn join(args: &[Value]) -> Result<Value, String> {
    let sep = arg_str(args, 0)?;
    string(strslice(arg_any(args, 1)).join(sep))
}

/// `sortAlpha`: a list's strings (`toStrings`) sorted bytewise; anything else becomes a
/// one-element list of its `strval`, nil included (`[<nil>]`).
///
/// Go sorts a `[]string` argument in place, so the caller's list changes too; our values are
/// immutable and only the result is sorted.
fn sort_alpha(args: &[Value]) -> Result<Value, String> {
    let v = arg_any(args, 0);
    let mut items = match v {
        Value::Slice(_) | Value::Bytes(_) => strslice(v),
        other => vec![strval(other)],
    };
    items.sort_unstable();
    Ok(Value::string_list(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::str(v)
    }

    fn i(n: i64) -> Value {
        Value::Int(n)
    }

    /// Call `name` from [`FUNCS`] and expect a string.
    fn call_s(name: &str, args: &[Value]) -> String {
        match call(name, args) {
            Ok(Value::String(out)) => out.to_string(),
            other => panic!("{name}: {other:?}"),
        }
    }

    fn call(name: &str, args: &[Value]) -> Result<Value, String> {
        let func = FUNCS
            .iter()
            .find(|f| f.name == name)
            .expect("function exists");
        (func.imp)(args)
    }

    /// Whether `print` is the real Go fmt yet (it is a placeholder until the fmt work merges).
    fn fmt_ready() -> bool {
        crate::gotemplate::print::sprint_value(&Value::Int(1)) == "1"
    }

    #[test]
    fn signatures() {
        let sig = |name: &str| {
            let f = FUNCS.iter().find(|f| f.name == name).expect("exists");
            (f.params.to_vec(), f.variadic)
        };
        assert_eq!(sig("hello"), (vec![], None));
        assert_eq!(sig("abbrevboth"), (vec![I, I, S], None));
        assert_eq!(sig("quote"), (vec![], Some(A)));
        assert_eq!(sig("plural"), (vec![S, S, I], None));
        assert_eq!(sig("splitn"), (vec![S, I, S], None));
        assert_eq!(sig("join"), (vec![S, A], None));
        assert_eq!(FUNCS.len(), 39);
    }

    #[test]
    fn simple_functions() {
        assert_eq!(call_s("hello", &[]), "Hello!");
        assert_eq!(call_s("trim", &[s(" \t\u{a0}x y\u{3000}\n")]), "x y");
        assert_eq!(call_s("upper", &[s("héllo ß ǆ ᾀ")]), "HÉLLO ß Ǆ ᾈ");
        assert_eq!(call_s("lower", &[s("HÉLLO İ Ǆ")]), "héllo i ǆ");
        assert_eq!(call_s("trimAll", &[s("$-"), s("$-a$b-$")]), "a$b");
        assert_eq!(call_s("trimall", &[s(""), s(" a ")]), " a ");
        assert_eq!(call_s("trimSuffix", &[s(".txt"), s("a.txt.txt")]), "a.txt");
        assert_eq!(call_s("trimPrefix", &[s("x"), s("yx")]), "yx");
        assert_eq!(
            call("contains", &[s("ll"), s("hello")]),
            Ok(Value::Bool(true))
        );
        assert_eq!(call("hasPrefix", &[s(""), s("")]), Ok(Value::Bool(true)));
        assert_eq!(
            call("hasSuffix", &[s("lo"), s("hel")]),
            Ok(Value::Bool(false))
        );
        assert_eq!(call_s("plural", &[s("one"), s("many"), i(1)]), "one");
        assert_eq!(call_s("plural", &[s("one"), s("many"), i(-1)]), "many");
        assert_eq!(call_s("replace", &[s(""), s("-"), s("aé")]), "-a-é-");
        assert_eq!(
            call_s("replace", &[s("a"), s("bb"), s("banana")]),
            "bbbnbbnbb"
        );
    }

    #[test]
    fn title_and_cases() {
        assert_eq!(
            call_s("title", &[s("hello wORLD ǆemal o'neil x_y 1a ñu")]),
            "Hello WORLD ǅemal O'Neil X_y 1a Ñu"
        );
        assert_eq!(
            call_s("title", &[s("a\u{a0}b a\u{2002}b a·b a٣b")]),
            "A\u{a0}B A\u{2002}B A·b A٣b"
        );
        assert_eq!(call_s("untitle", &[s("Hello World ÀB")]), "hello world àB");
        assert_eq!(
            call_s("swapcase", &[s("Hello wORLD ǅ ß ǆx")]),
            "hELLO World ǆ ß ǅX"
        );
    }

    #[test]
    fn byte_slicing() {
        assert_eq!(call_s("trunc", &[i(2), s("hello")]), "he");
        assert_eq!(call_s("trunc", &[i(-2), s("hello")]), "lo");
        assert_eq!(call_s("trunc", &[i(-5), s("hello")]), "hello");
        assert_eq!(call_s("trunc", &[i(i64::MIN), s("hello")]), "hello");
        assert_eq!(call_s("trunc", &[i(1), s("é")]), "\u{FFFD}");
        assert_eq!(call_s("substr", &[i(1), i(3), s("hello")]), "el");
        assert_eq!(call_s("substr", &[i(-1), i(3), s("hello")]), "hel");
        assert_eq!(call_s("substr", &[i(2), i(-1), s("hello")]), "llo");
        assert_eq!(call_s("substr", &[i(2), i(99), s("hello")]), "llo");
        assert_eq!(call_s("substr", &[i(1), i(2), s("é")]), "\u{FFFD}");
        let err = |a, b, t: &str| call("substr", &[i(a), i(b), s(t)]).unwrap_err();
        assert_eq!(
            err(-1, 5, "abc"),
            "runtime error: slice bounds out of range [:5] with length 3"
        );
        assert_eq!(
            err(-1, -1, "abc"),
            "runtime error: slice bounds out of range [:-1]"
        );
        assert_eq!(
            err(5, -1, "abc"),
            "runtime error: slice bounds out of range [5:3]"
        );
        assert_eq!(
            err(3, 2, "abcd"),
            "runtime error: slice bounds out of range [3:2]"
        );
        assert_eq!(call_s("abbrev", &[i(5), s("hello world")]), "he...");
        assert_eq!(call_s("abbrev", &[i(3), s("hello")]), "hello");
        assert_eq!(call_s("abbrev", &[i(4), s("")]), "");
        assert_eq!(call_s("abbrev", &[i(4), s("héllo")]), "h...");
        assert_eq!(call_s("abbrev", &[i(5), s("héllo")]), "h\u{FFFD}...");
        let both = |l, r, t: &str| call_s("abbrevboth", &[i(l), i(r), s(t)]);
        assert_eq!(both(5, 10, "1234567890abcdefghij"), "...6789...");
        assert_eq!(both(0, 4, "abcdefgh"), "a...");
        assert_eq!(both(1, 6, "abcdefgh"), "abcdefgh");
        assert_eq!(both(10, 7, "abcdefghijklmnopqrstu"), "...k...");
        assert_eq!(both(100, 10, "abcdefghijklmnopqrstu"), "...opqrstu");
        // Go's int arithmetic wraps: len - MinInt64 is negative.
        assert_eq!(both(i64::MIN, 10, "abcdefghijklmnopqrstu"), "...opqrstu");
        assert_eq!(both(-5, 10, "abcdefghijklmnopqrstu"), "abcdefg...");
        assert_eq!(both(i64::MAX, i64::MAX, "abc"), "abc");
    }

    #[test]
    fn repeat_and_indent() {
        assert_eq!(call_s("repeat", &[i(3), s("ab")]), "ababab");
        assert_eq!(call_s("repeat", &[i(i64::MAX), s("")]), "");
        assert_eq!(
            call("repeat", &[i(-1), s("a")]).unwrap_err(),
            "strings: negative Repeat count"
        );
        assert_eq!(
            call("repeat", &[i(i64::MAX), s("ab")]).unwrap_err(),
            "strings: Repeat output length overflow"
        );
        assert!(
            call("repeat", &[i(1 << 30), s("ab")])
                .unwrap_err()
                .contains("64 MiB")
        );
        assert_eq!(call_s("indent", &[i(2), s("a\nb")]), "  a\n  b");
        assert_eq!(call_s("nindent", &[i(1), s("a")]), "\n a");
        assert_eq!(call_s("indent", &[i(0), s("")]), "");
        assert_eq!(
            call("indent", &[i(-2), s("a")]).unwrap_err(),
            "strings: negative Repeat count"
        );
        assert!(call("indent", &[i(1 << 20), s(&"\n".repeat(100))]).is_err());
        assert!(
            call(
                "replace",
                &[s(""), s(&"x".repeat(1 << 16)), s(&"a".repeat(1 << 12))]
            )
            .is_err()
        );
    }

    #[test]
    fn goutils_bytes_as_latin1() {
        assert_eq!(call_s("initials", &[s("héllo wörld")]), "hw");
        assert_eq!(call_s("initials", &[s("à la")]), "Ãl");
        assert_eq!(call_s("initials", &[s("")]), "");
        assert_eq!(call_s("nospace", &[s("à la")]), "Ãla");
        assert_eq!(call_s("nospace", &[s("héllo")]), "héllo");
        assert_eq!(call_s("nospace", &[s("h é")]), "hÃ©");
        assert_eq!(call_s("nospace", &[s(" a\tb\nc ")]), "abc");
        // U+0085 is C2 85 and U+00A0 is C2 A0: the second bytes are spaces in Latin-1.
        assert_eq!(call_s("nospace", &[s("a\u{85}b c\u{a0}d")]), "aÂbcÂd");
        assert_eq!(call_s("initials", &[s("a\u{85}b c\u{a0}d")]), "abcd");
    }

    #[test]
    fn xstrings_cases() {
        let snake = |t: &str| call_s("snakecase", &[s(t)]);
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("FirstName"), "first_name");
        assert_eq!(snake("NoHTTPS"), "no_https");
        assert_eq!(snake("GO_PATH"), "go_path");
        assert_eq!(snake("GO PATH"), "go_path");
        assert_eq!(snake("GO-PATH"), "go_path");
        assert_eq!(snake("http2xx"), "http_2xx");
        assert_eq!(snake("HTTP20xOK"), "http_20x_ok");
        assert_eq!(snake("Duration2m3s"), "duration_2m3s");
        assert_eq!(snake("Bld4Floor3rd"), "bld4_floor_3rd");
        assert_eq!(snake("a_1_b"), "a_1_b");
        assert_eq!(snake("already_snake_1"), "already_snake_1");
        assert_eq!(snake("ÀÉÎõ"), "àé_îõ");
        assert_eq!(snake(""), "");
        assert_eq!(call_s("kebabcase", &[s("GO PATH")]), "go-path");
        let camel = |t: &str| call_s("camelcase", &[s(t)]);
        assert_eq!(camel("some_words"), "SomeWords");
        assert_eq!(camel("http_server"), "HttpServer");
        assert_eq!(camel("_complex__case_"), "_Complex_Case_");
        assert_eq!(camel("GOLANG_IS_GREAT"), "GolangIsGreat");
        // Sprig 3.3 (xstrings 1.5); the oracle's Sprig 3.2 gives "Somewords".
        assert_eq!(camel("someWords"), "SomeWords");
        assert_eq!(camel("HTTPServer"), "Httpserver");
        assert_eq!(camel("___"), "____");
        assert_eq!(camel("a"), "A");
        assert_eq!(camel(""), "");
    }

    #[test]
    fn wrapping() {
        assert_eq!(
            call_s("wrap", &[i(5), s("hello world foo")]),
            "hello\nworld\nfoo"
        );
        assert_eq!(
            call_s("wrapWith", &[i(3), s("<br>"), s("abcdefgh ij")]),
            "abc<br>def<br>gh<br>ij"
        );
        assert_eq!(call_s("wrap", &[i(0), s("a b")]), "a\nb");
        assert_eq!(call_s("wrap", &[i(-3), s("ab cd")]), "ab\ncd");
        assert_eq!(
            call_s("wrap", &[i(3), s("abcdefgh ij kl")]),
            "abcdefgh\nij\nkl"
        );
        assert_eq!(call_s("wrap", &[i(4), s("  a    b  ")]), "a   \nb  ");
        assert_eq!(
            call_s("wrapWith", &[i(2), s("|"), s("héllo")]),
            "h\u{FFFD}|\u{FFFD}l|lo"
        );
        assert_eq!(call_s("wrap", &[i(i64::MAX), s("a b")]), "a b");
    }

    #[test]
    fn shuffle_permutes() {
        let out = call_s("shuffle", &[s("abcdéf")]);
        let mut a: Vec<char> = out.chars().collect();
        a.sort_unstable();
        assert_eq!(a.into_iter().collect::<String>(), "abcdfé");
        assert_eq!(call_s("shuffle", &[s("")]), "");
    }

    #[test]
    fn splitting() {
        let map = |v: Value| match v {
            Value::Map(m) => {
                assert_eq!(m.elem, GoType::String);
                m.entries
                    .iter()
                    .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("?")))
                    .collect::<Vec<_>>()
                    .join(",")
            }
            other => panic!("{other:?}"),
        };
        let list = |v: Value| match v {
            Value::Slice(l) => {
                assert_eq!(l.elem, GoType::String);
                l.items
                    .iter()
                    .map(|v| v.as_str().unwrap_or("?").to_string())
                    .collect::<Vec<_>>()
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(map(split(&[s("$"), s("a$b$")]).unwrap()), "_0=a,_1=b,_2=");
        assert_eq!(map(split(&[s(""), s("ab")]).unwrap()), "_0=a,_1=b");
        assert_eq!(map(split(&[s(","), s("")]).unwrap()), "_0=");
        assert_eq!(map(split(&[s(""), s("")]).unwrap()), "");
        assert_eq!(
            map(splitn(&[s("$"), i(2), s("a$b$c")]).unwrap()),
            "_0=a,_1=b$c"
        );
        assert_eq!(map(splitn(&[s("$"), i(0), s("a$b$c")]).unwrap()), "");
        assert_eq!(
            map(splitn(&[s("$"), i(-1), s("a$b$c")]).unwrap()),
            "_0=a,_1=b,_2=c"
        );
        assert_eq!(
            map(splitn(&[s(""), i(2), s("héllo")]).unwrap()),
            "_0=h,_1=éllo"
        );
        assert_eq!(list(split_list(&[s(","), s("a,b")]).unwrap()), ["a", "b"]);
        assert_eq!(
            list(split_list(&[s(""), s("")]).unwrap()),
            Vec::<String>::new()
        );
        assert_eq!(list(split_list(&[s("aa"), s("aaa")]).unwrap()), ["", "a"]);
        let l = Value::list(vec![s("b"), Value::Nil, s("a"), s("B")]);
        assert_eq!(
            list(sort_alpha(std::slice::from_ref(&l)).unwrap()),
            ["B", "a", "b"]
        );
        assert_eq!(call_s("join", &[s("-"), l]), "b-a-B");
        assert_eq!(
            call_s("join", &[s("-"), Value::string_list(["x", "y"])]),
            "x-y"
        );
        assert_eq!(call_s("join", &[s("-"), Value::Nil]), "");
        assert_eq!(call_s("join", &[s("-"), s("abc")]), "abc");
        assert_eq!(list(sort_alpha(&[s("x")]).unwrap()), ["x"]);
    }

    #[test]
    fn quoting() {
        assert_eq!(call_s("cat", &[s("a"), Value::Nil, s("b")]), "a b");
        assert_eq!(call_s("cat", &[]), "");
        assert_eq!(
            call_s("squote", &[s("a"), Value::Nil, s("b c")]),
            "'a' 'b c'"
        );
        assert_eq!(call_s("quote", &[]), "");
        if fmt_ready() {
            assert_eq!(
                call_s("quote", &[s("a\"b"), Value::Nil, Value::Float(1.5)]),
                "\"a\\\"b\" \"1.5\""
            );
            assert_eq!(call_s("squote", &[Value::Int(3)]), "'3'");
            assert_eq!(
                call_s("cat", &[Value::Int(3), s("x"), Value::Bool(true)]),
                "3 x true"
            );
            let sorted = call("sortAlpha", &[Value::Nil]);
            assert_eq!(sorted, Ok(Value::string_list(["<nil>"])));
        }
    }
}
