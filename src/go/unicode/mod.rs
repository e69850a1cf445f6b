/*!
Go's `unicode` package: the category predicates (`IsLetter`, `IsUpper`, `IsLower`, `IsTitle`,
`IsDigit`, `IsNumber`, `IsPunct`, `IsSpace`, `IsPrint`) and the simple one-to-one case mappings
(`ToUpper`, `ToLower`, `ToTitle`) as Go 1.24 answers them (Unicode 15.0.0).

Go's definitions differ from Rust's `char` methods, which follow a newer Unicode version and
other properties (`is_alphabetic` is the Alphabetic property, not the Letter category; Go's
`IsPrint` is categories L, M, N, P, S plus the ASCII space, which `strconv.IsPrint` shares). The
tables in [`tables`] are generated from Go itself by `scripts/gen-go-unicode.go`.
*/

mod tables;

use std::cmp::Ordering;

/// The entry of a table sorted by disjoint code point ranges whose range holds `c`.
fn lookup<T>(table: &[T], c: u32, range: impl Fn(&T) -> (u32, u32)) -> Option<&T> {
    let i = table
        .binary_search_by(|entry| {
            let (lo, hi) = range(entry);
            if hi < c {
                Ordering::Less
            } else if lo > c {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .ok()?;
    table.get(i)
}

/// Whether `c` lies in one of the sorted, disjoint `ranges`.
fn in_table(ranges: &[(u32, u32)], c: char) -> bool {
    lookup(ranges, u32::from(c), |&r| r).is_some()
}

/// `unicode.IsLetter`.
pub fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    in_table(tables::LETTER, c)
}

/// `unicode.IsUpper`.
pub fn is_upper(c: char) -> bool {
    in_table(tables::UPPER, c)
}

/// `unicode.IsLower`.
pub fn is_lower(c: char) -> bool {
    in_table(tables::LOWER, c)
}

/// `unicode.IsTitle`.
pub fn is_title(c: char) -> bool {
    in_table(tables::TITLE, c)
}

/// `unicode.IsDigit`.
pub fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_table(tables::DIGIT, c)
}

/// `unicode.IsNumber`.
pub fn is_number(c: char) -> bool {
    in_table(tables::NUMBER, c)
}

/// `unicode.IsPunct`.
pub fn is_punct(c: char) -> bool {
    in_table(tables::PUNCT, c)
}

/// `unicode.IsSpace`.
pub fn is_space(c: char) -> bool {
    in_table(tables::SPACE, c)
}

/// `unicode.IsPrint` (identical to `strconv.IsPrint`).
pub fn is_print(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    in_table(tables::PRINT, c)
}

/// `unicode.To(case, r)` with case 0 = upper, 1 = lower, 2 = title.
fn to_case(case: usize, r: char) -> char {
    let c = u32::from(r);
    let Some(&(lo, _, deltas)) = lookup(tables::CASE_RANGES, c, |&(lo, hi, _)| (lo, hi)) else {
        return r;
    };
    let delta = deltas[case];
    let mapped = if delta == tables::UPPER_LOWER {
        // Alternating upper/lower pairs from `lo`: even offsets are upper case.
        lo + (((c - lo) & !1) | (case as u32 & 1))
    } else {
        c.wrapping_add_signed(delta)
    };
    char::from_u32(mapped).unwrap_or(r)
}

/// `unicode.ToUpper` (simple, one-to-one mapping).
pub fn to_upper(r: char) -> char {
    to_case(0, r)
}

/// `unicode.ToLower`.
pub fn to_lower(r: char) -> char {
    to_case(1, r)
}

/// `unicode.ToTitle`.
pub fn to_title(r: char) -> char {
    to_case(2, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_tables_match_go() {
        assert_eq!(tables::UNICODE_VERSION, "15.0.0");
        assert_eq!(to_upper('ß'), 'ß');
        assert_eq!(to_upper('ǆ'), 'Ǆ');
        assert_eq!(to_title('ǆ'), 'ǅ');
        assert_eq!(to_title('Ǆ'), 'ǅ');
        assert_eq!(to_lower('ǅ'), 'ǆ');
        assert_eq!(to_upper('ᾀ'), 'ᾈ');
        assert_eq!(to_upper('ᾈ'), 'ᾈ');
        assert_eq!(to_lower('İ'), 'i');
        assert_eq!(to_upper('ı'), 'I');
        assert_eq!(to_upper('ſ'), 'S');
        assert_eq!(to_upper('µ'), 'Μ');
        assert_eq!(to_upper('ა'), 'Ა');
        assert_eq!(to_title('ა'), 'ა');
        assert_eq!(to_lower('Ā'), 'ā');
        assert_eq!(to_upper('ā'), 'Ā');
        assert_eq!(to_title('ā'), 'Ā');
        assert_eq!(to_upper('a'), 'A');
        assert_eq!(to_lower('Z'), 'z');
        assert_eq!(to_upper('1'), '1');
        // Unicode 16 added this pair; Go 1.24 (Unicode 15) does not know it.
        assert_eq!(to_lower('\u{A7CB}'), '\u{A7CB}');
        assert!(is_letter('ª') && !is_lower('ª') && is_lower('µ'));
        assert!(!is_upper('Ⓐ') && is_title('ǅ') && !is_upper('ǅ'));
        assert!(is_space('\u{85}') && is_space('\u{a0}') && is_space('\u{3000}'));
        assert!(!is_space('\u{200b}'));
        assert!(is_punct('_') && is_punct('¿') && !is_punct('+'));
        assert!(is_digit('٣') && !is_digit('½') && is_number('½'));
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            assert_eq!(is_space(c), c.is_whitespace(), "{c:?}");
        }
    }

    #[test]
    fn tables_sorted_and_disjoint() {
        for table in [
            tables::LETTER,
            tables::UPPER,
            tables::LOWER,
            tables::TITLE,
            tables::DIGIT,
            tables::NUMBER,
            tables::PUNCT,
            tables::SPACE,
            tables::PRINT,
        ] {
            assert!(table.iter().all(|&(lo, hi)| lo <= hi));
            assert!(table.windows(2).all(|w| w[0].1 < w[1].0));
        }
    }

    #[test]
    fn ascii_shortcuts_agree_with_the_tables() {
        for c in (0u8..0x80).map(char::from) {
            assert_eq!(is_letter(c), in_table(tables::LETTER, c), "{c:?}");
            assert_eq!(is_digit(c), in_table(tables::DIGIT, c), "{c:?}");
            assert_eq!(is_print(c), in_table(tables::PRINT, c), "{c:?}");
        }
    }
}
