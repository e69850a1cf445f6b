/*!
clusterctl's legacy spacing rewrite, done over the whole text before parsing.

Owns turning `${ NAME }`, `${ NAME}` and `${NAME }` into `${NAME}` (rule 1 of the parent module),
and mapping offsets in the rewritten text back to the input so every error points at what the
user wrote.
*/

use crate::source::Span;

/// The text after clusterctl's legacy rewrite, and how to map its offsets back to the input.
pub(super) struct Normalized {
    pub(super) text: String,
    /// `(offset in text, offset in input)` at the start of each run copied unchanged;
    /// strictly increasing, starting with `(0, 0)`.
    runs: Vec<(usize, usize)>,
}

impl Normalized {
    pub(super) fn new(input: &str) -> Normalized {
        let b = input.as_bytes();
        let mut text = String::new();
        let mut runs = vec![(0, 0)];
        let mut copied = 0;
        let mut i = 0;
        while i + 1 < b.len() {
            if b[i] == b'$'
                && b[i + 1] == b'{'
                && let Some((name, close)) = legacy_at(b, i)
            {
                // All offsets here sit on ASCII bytes, hence on character boundaries.
                text.push_str(&input[copied..i + 2]);
                runs.push((text.len(), name.start));
                text.push_str(&input[name]);
                runs.push((text.len(), close));
                text.push('}');
                copied = close + 1;
                i = copied;
            } else {
                i += 1;
            }
        }
        if runs.len() == 1 {
            return Normalized {
                text: input.to_string(),
                runs,
            };
        }
        text.push_str(&input[copied..]);
        Normalized { text, runs }
    }

    /// The input offset of an offset in the rewritten text.
    fn original(&self, at: usize) -> usize {
        let idx = self.runs.partition_point(|&(n, _)| n <= at);
        match idx.checked_sub(1).and_then(|i| self.runs.get(i)) {
            Some(&(n, o)) => o + (at - n),
            None => at,
        }
    }

    /// The input span of `[start, end)` in the rewritten text.
    pub(super) fn span(&self, start: usize, end: usize) -> Span {
        let s = self.original(start);
        let e = self.original(end).max(s);
        Span::new(s, e - s)
    }
}

/// Go's regexp `\s` (RE2: ASCII only, no vertical tab).
fn is_go_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// If `${` at `i` starts `${ NAME }` with space on at least one side, the name's byte range and
/// the offset of `}`. This is clusterctl's `legacyVariableRegEx`; its three alternatives
/// together mean exactly that.
fn legacy_at(b: &[u8], i: usize) -> Option<(std::ops::Range<usize>, usize)> {
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut j = i + 2;
    while j < b.len() && is_go_space(b[j]) {
        j += 1;
    }
    let name_start = j;
    while j < b.len() && is_name(b[j]) {
        j += 1;
    }
    let name_end = j;
    while j < b.len() && is_go_space(b[j]) {
        j += 1;
    }
    let spaced = name_start > i + 2 || j > name_end;
    (name_end > name_start && spaced && b.get(j) == Some(&b'}'))
        .then_some((name_start..name_end, j))
}
