/*!
Glob matching for trims and replacements: drone's copy of Go's `path.Match`, which it changed so
that `*` and `?` also match `/` and a trailing `*` matches everything.

Works on bytes; `?` and classes take one (Go-decoded) character.
*/

#[derive(Debug)]
pub(super) struct BadPattern;

pub(super) fn glob_match(mut pattern: &[u8], mut name: &[u8]) -> Result<bool, BadPattern> {
    'chunks: while !pattern.is_empty() {
        let (star, chunk, rest) = split_chunk(pattern);
        pattern = rest;
        if star && chunk.is_empty() {
            return Ok(true);
        }
        match match_chunk(chunk, name) {
            // The last chunk must use up the name; otherwise a star may still skip ahead.
            Ok(Some(t)) if t.is_empty() || !pattern.is_empty() => {
                name = t;
                continue;
            }
            Err(e) => return Err(e),
            _ => {}
        }
        if star {
            for i in 0..name.len() {
                match match_chunk(chunk, &name[i + 1..]) {
                    Ok(Some(t)) => {
                        if pattern.is_empty() && !t.is_empty() {
                            continue;
                        }
                        name = t;
                        continue 'chunks;
                    }
                    Err(e) => return Err(e),
                    Ok(None) => {}
                }
            }
        }
        return Ok(false);
    }
    Ok(name.is_empty())
}

/// Leading stars, then the pattern up to the next star outside a class.
fn split_chunk(pattern: &[u8]) -> (bool, &[u8], &[u8]) {
    let mut p = pattern;
    let mut star = false;
    while let [b'*', rest @ ..] = p {
        p = rest;
        star = true;
    }
    let mut in_class = false;
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            b'\\' if i + 1 < p.len() => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'*' if !in_class => break,
            _ => {}
        }
        i += 1;
    }
    (star, &p[..i], &p[i..])
}

/// Match a star-free chunk at the start of `s`: `Some(rest)` on a match.
fn match_chunk<'s>(mut chunk: &[u8], mut s: &'s [u8]) -> Result<Option<&'s [u8]>, BadPattern> {
    while let Some(&c) = chunk.first() {
        let Some(&first) = s.first() else {
            return Ok(None);
        };
        match c {
            b'[' => {
                let (r, n) = decode_rune(s);
                s = &s[n.max(1)..];
                chunk = &chunk[1..];
                let negated = chunk.first() == Some(&b'^');
                if negated {
                    chunk = &chunk[1..];
                }
                let mut matched = false;
                let mut ranges = 0;
                loop {
                    if chunk.first() == Some(&b']') && ranges > 0 {
                        chunk = &chunk[1..];
                        break;
                    }
                    let (lo, rest) = class_char(chunk)?;
                    chunk = rest;
                    let mut hi = lo;
                    if chunk.first() == Some(&b'-') {
                        let (h, rest) = class_char(&chunk[1..])?;
                        hi = h;
                        chunk = rest;
                    }
                    if lo <= r && r <= hi {
                        matched = true;
                    }
                    ranges += 1;
                }
                if matched == negated {
                    return Ok(None);
                }
            }
            b'?' => {
                let (_, n) = decode_rune(s);
                s = &s[n.max(1)..];
                chunk = &chunk[1..];
            }
            _ => {
                let lit = if c == b'\\' {
                    chunk = &chunk[1..];
                    *chunk.first().ok_or(BadPattern)?
                } else {
                    c
                };
                if lit != first {
                    return Ok(None);
                }
                s = &s[1..];
                chunk = &chunk[1..];
            }
        }
    }
    Ok(Some(s))
}

/// One possibly escaped character of a class; the class must go on after it.
fn class_char(chunk: &[u8]) -> Result<(char, &[u8]), BadPattern> {
    let chunk = match chunk {
        [] | [b'-' | b']', ..] => return Err(BadPattern),
        [b'\\'] => return Err(BadPattern),
        [b'\\', rest @ ..] => rest,
        _ => chunk,
    };
    let (r, n) = decode_rune(chunk);
    let rest = &chunk[n.max(1)..];
    if (r == '\u{FFFD}' && n == 1) || rest.is_empty() {
        return Err(BadPattern);
    }
    Ok((r, rest))
}

/// Go's `utf8.DecodeRune`: an invalid or truncated sequence is U+FFFD of width 1.
pub(super) fn decode_rune(b: &[u8]) -> (char, usize) {
    let head = &b[..b.len().min(4)];
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""),
    };
    match valid.chars().next() {
        Some(c) => (c, c.len_utf8()),
        None => ('\u{FFFD}', usize::from(!b.is_empty())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_matching() {
        let m = |p: &str, n: &str| glob_match(p.as_bytes(), n.as_bytes()).ok();
        assert_eq!(m("*", "a/b"), Some(true));
        assert_eq!(m("a?c", "a/c"), Some(true));
        assert_eq!(m("a*c", "abxc"), Some(true));
        assert_eq!(m("a*c", "abxd"), Some(false));
        assert_eq!(m("[a-c]x", "bx"), Some(true));
        assert_eq!(m("[^a-c]x", "bx"), Some(false));
        assert_eq!(m("[é]", "é"), Some(true));
        assert_eq!(m("\\*", "*"), Some(true));
        assert_eq!(m("[", "a"), None);
        assert_eq!(m("[]", "a"), None);
        assert_eq!(m("a\\", "a"), Some(false));
    }
}
