/*!
Evaluation of a parsed text, on bytes like Go strings.

Owns the value of every `${…}` form (defaults, length, case, substrings, trims, replacements) and
the size cap while expanding.
*/

use super::glob::{BadPattern, decode_rune, glob_match};
use super::parse::RawError;
use super::tree::{Func, Node, Op, ReplaceKind};

/// Why evaluation stopped.
pub(super) enum EvalError {
    Raw(RawError),
    /// The output would pass the cap at this expression (rewritten offsets), or at literal
    /// text (`None`).
    TooLarge(Option<(usize, usize)>),
}

impl From<RawError> for EvalError {
    fn from(e: RawError) -> Self {
        EvalError::Raw(e)
    }
}

/// Appends `node`'s value to `out`, which may hold at most `max` bytes.
pub(super) fn eval_node(
    node: &Node,
    lookup: &dyn Fn(&str) -> Option<String>,
    out: &mut Vec<u8>,
    max: usize,
) -> Result<(), EvalError> {
    match node {
        Node::Text(t) => {
            if out.len().saturating_add(t.len()) > max {
                return Err(EvalError::TooLarge(None));
            }
            out.extend_from_slice(t)
        }
        Node::Func(f) => {
            let too_large = || EvalError::TooLarge(Some((f.start, f.end)));
            let room = max.saturating_sub(out.len());
            let mut args = Vec::with_capacity(f.args.len());
            for a in &f.args {
                let mut buf = Vec::new();
                // An argument larger than the room left could only be used whole or grown.
                eval_node(a, lookup, &mut buf, room).map_err(|e| match e {
                    EvalError::TooLarge(_) => too_large(),
                    e => e,
                })?;
                args.push(buf);
            }
            let value = lookup(&f.param).unwrap_or_default();
            let v = apply(f, &value, &args, room)?.ok_or_else(too_large)?;
            if v.len() > room {
                return Err(too_large());
            }
            out.extend(v);
        }
    }
    Ok(())
}

/// `f` applied to `value`; `None` when only a replacement could grow the result past `room`
/// bytes (checked while it is built; every other form is at most a few times its inputs).
fn apply(
    f: &Func,
    value: &str,
    args: &[Vec<u8>],
    room: usize,
) -> Result<Option<Vec<u8>>, RawError> {
    let v = value.as_bytes();
    let arg = |i: usize| args.get(i).map_or(&[][..], Vec::as_slice);
    Ok(Some(match f.op {
        Op::Value => v.to_vec(),
        Op::Default if v.is_empty() && !args.is_empty() => args.concat(),
        Op::Default => v.to_vec(),
        Op::Length => v.len().to_string().into_bytes(),
        Op::Case { upper, all } => change_case(value, upper, all).into_bytes(),
        Op::Substr => substr(v, args).map_err(|length| RawError {
            message: format!(
                "bad substitution: substring length {length} ends before the offset \
                 (clusterctl crashes on this expression)"
            ),
            open: f.start,
            at: f.start,
            len: f.end - f.start,
        })?,
        Op::TrimPrefix { longest } => trim_prefix(v, arg(0), longest),
        Op::TrimSuffix { longest } => {
            // drone trims a suffix by reversing value and pattern (as characters) and trimming
            // a prefix, so `[a-c]` patterns turn into `]c-a[`: reproduced, not fixed.
            let r = reverse_runes(v);
            let p = reverse_runes(arg(0));
            reverse_runes(&trim_prefix(&r, &p, longest))
        }
        Op::Replace(kind) => match (kind, args.len()) {
            (ReplaceKind::First | ReplaceKind::All, 0) => v.to_vec(),
            (ReplaceKind::First, _) => match go_replace(v, arg(0), arg(1), Some(1), room) {
                Some(r) => r,
                None => return Ok(None),
            },
            (ReplaceKind::All, _) => match go_replace(v, arg(0), arg(1), None, room) {
                Some(r) => r,
                None => return Ok(None),
            },
            // Prefix and suffix forms need both arguments; `${N/#p/}` leaves the value alone.
            (_, n) if n != 2 => v.to_vec(),
            (ReplaceKind::Prefix, _) => match v.strip_prefix(arg(0)) {
                Some(rest) => [arg(1), rest].concat(),
                None => v.to_vec(),
            },
            (ReplaceKind::Suffix, _) => match v.strip_suffix(arg(0)) {
                Some(rest) => [rest, arg(1)].concat(),
                None => v.to_vec(),
            },
        },
    }))
}

/// Go's `unicode.ToUpper`/`ToLower` use the one-to-one mappings; Rust's may give several
/// characters, in which case the character is kept (the lowercase of `İ` is the exception:
/// Go gives `i`, the first of Rust's two).
fn simple_case(c: char, upper: bool) -> char {
    if upper {
        let mut it = c.to_uppercase();
        match (it.next(), it.next()) {
            (Some(u), None) => u,
            _ => upper_special(c),
        }
    } else {
        c.to_lowercase().next().unwrap_or(c)
    }
}

/// Characters whose full uppercase is several characters but whose simple uppercase is one:
/// Greek letters with ypogegrammeni (U+1F80–U+1FF3) map to their prosgegrammeni forms.
fn upper_special(c: char) -> char {
    let u = c as u32;
    let mapped = match u {
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => u + 8,
        0x1FB3 | 0x1FC3 | 0x1FF3 => u + 9,
        _ => u,
    };
    char::from_u32(mapped).unwrap_or(c)
}

fn change_case(s: &str, upper: bool, all: bool) -> String {
    if all {
        return s.chars().map(|c| simple_case(c, upper)).collect();
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => {
            let mut out = String::with_capacity(s.len());
            out.push(simple_case(c, upper));
            out.push_str(chars.as_str());
            out
        }
        None => String::new(),
    }
}

/// drone's `${N:pos}` / `${N:pos:len}` on bytes: an unparsable number returns the value, a
/// negative offset counts from the end. `Err(len)` where Go would panic on a negative length.
fn substr(v: &[u8], args: &[Vec<u8>]) -> Result<Vec<u8>, i64> {
    let parse = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<i64>().ok();
    let Some(mut pos) = args.first().and_then(|a| parse(a)) else {
        return Ok(v.to_vec());
    };
    let len = i64::try_from(v.len()).unwrap_or(i64::MAX);
    if pos < 0 {
        pos = (len + pos).max(0);
    }
    let from = |p: i64| -> Vec<u8> {
        usize::try_from(p)
            .ok()
            .and_then(|p| v.get(p..))
            .map_or_else(Vec::new, <[u8]>::to_vec)
    };
    let Some(length) = args.get(1) else {
        return Ok(from(pos));
    };
    let Some(length) = parse(length) else {
        return Ok(v.to_vec());
    };
    // Go adds with wrap-around; a wrapped (negative) end panics there like a negative length.
    let end = pos.wrapping_add(length);
    if end >= len {
        return Ok(from(pos));
    }
    if end < pos {
        return Err(length);
    }
    let range = usize::try_from(pos).ok().zip(usize::try_from(end).ok());
    Ok(range
        .and_then(|(a, b)| v.get(a..b))
        .map_or_else(Vec::new, <[u8]>::to_vec))
}

/// Go's `reverse` in drone: runes reversed, invalid bytes becoming U+FFFD.
fn reverse_runes(b: &[u8]) -> Vec<u8> {
    let mut runes = Vec::new();
    let mut rest = b;
    while !rest.is_empty() {
        let (c, n) = decode_rune(rest);
        runes.push(c);
        rest = &rest[n.max(1)..];
    }
    runes.iter().rev().collect::<String>().into_bytes()
}

/// drone's `trimShortest`/`trimLongest`: remove the shortest or longest non-empty prefix (cut at
/// any byte) that the glob matches; a malformed pattern leaves the value alone.
fn trim_prefix(s: &[u8], pattern: &[u8], longest: bool) -> Vec<u8> {
    let mut found = None;
    for cut in (1..=s.len()).rev() {
        match glob_match(pattern, &s[..cut]) {
            Err(BadPattern) => return s.to_vec(),
            Ok(true) => {
                found = Some(cut);
                if longest {
                    break;
                }
            }
            Ok(false) => {}
        }
    }
    found.map_or_else(|| s.to_vec(), |cut| s[cut..].to_vec())
}

/// Go's `strings.Replace` on bytes (`limit` None: all). An empty `old` matches before every
/// character and at the end. `None` as soon as the result would pass `max` bytes.
fn go_replace(
    s: &[u8],
    old: &[u8],
    new: &[u8],
    limit: Option<usize>,
    max: usize,
) -> Option<Vec<u8>> {
    if old == new {
        return Some(s.to_vec());
    }
    let limit = limit.unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(s.len());
    let mut start = 0;
    let mut done = 0;
    if old.is_empty() {
        while done < limit {
            if done > 0 {
                if start >= s.len() {
                    break;
                }
                let (_, n) = decode_rune(&s[start..]);
                out.extend_from_slice(&s[start..start + n]);
                start += n;
            }
            if out.len() + new.len() > max {
                return None;
            }
            out.extend_from_slice(new);
            done += 1;
        }
    } else {
        while done < limit {
            // memmem, not a window scan: a long pattern over a long value would be quadratic.
            let Some(i) = memchr::memmem::find(&s[start..], old) else {
                break;
            };
            out.extend_from_slice(&s[start..start + i]);
            if out.len() + new.len() > max {
                return None;
            }
            out.extend_from_slice(new);
            start += i + old.len();
            done += 1;
        }
    }
    out.extend_from_slice(&s[start..]);
    Some(out)
}
