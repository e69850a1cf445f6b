/*!
String formats of the OpenAPI value validator (kube-openapi's `strfmt.Default` registry) and the
API server's list of formats it keeps (`apiextensions-apiserver/pkg/apiserver/validation/formats.go`).

Owns two things: which `format` survives the API server's conversion for a given `type`
([`kept_format`]: unknown formats are silently dropped, never an error), and whether a string is
valid for a registered format ([`validates`]). Format names are compared with dashes removed, as
the registry normalises them, so `date-time` is `datetime`.

Each check follows the Go function the registry calls: `url.ParseRequestURI` (uri) of
[`crate::go::url`], `mail.ParseAddress` (email), `net.ParseIP` / the pre-1.17 "sloppy" parser of
[`crate::go::ip`] (ipv4, ipv6, cidr), `net.ParseMAC`, `time.Parse("2006-01-02")`, strfmt's own date-time and
duration rules, and the govalidator regular expressions (compiled with Go's RE2 syntax). Deviation:
RFC 2047 encoded words in an email display name are only checked for a supported charset, not
decoded.
*/

use crate::go::ip::{parse_cidr_sloppy, parse_ip, parse_ip_sloppy};
use crate::go::regexp as regex;
use crate::go::time;
use crate::go::url::parse_request_uri;

/// Formats of the registry, normalised (dashes removed).
const REGISTERED: &[&str] = &[
    "bsonobjectid",
    "date",
    "datetime",
    "duration",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "k8sshortname",
    "k8slongname",
];

/// String formats the API server keeps (Kubernetes 1.34+ list), normalised.
const KEPT_STRING: &[&str] = &[
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "datetime",
    "k8sshortname",
    "k8slongname",
];

fn normalize(name: &str) -> String {
    name.replace('-', "")
}

/// The format the API server keeps for a schema whose (single) type is `type_` (empty when the
/// schema has no type or several): `StripUnsupportedFormatsPostProcessorForVersion`.
pub fn kept_format<'a>(type_: &str, format: &'a str) -> &'a str {
    if format.is_empty() {
        return format;
    }
    let keep = match type_ {
        "" | "string" => KEPT_STRING.contains(&normalize(format).as_str()),
        "integer" => format == "int32" || format == "int64",
        "number" => format == "float" || format == "double",
        _ => false,
    };
    if keep { format } else { "" }
}

/// Whether the registry knows `name` (`Registry.ContainsName`).
pub fn registered(name: &str) -> bool {
    REGISTERED.contains(&normalize(name).as_str())
}

/// Whether `s` is valid for format `name` (`Registry.Validates`); false for unknown formats.
pub fn validates(name: &str, s: &str) -> bool {
    match normalize(name).as_str() {
        "bsonobjectid" => s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit()),
        "date" => is_date(s),
        "datetime" => is_date_time(s),
        "duration" => is_duration(s),
        "uri" => parse_request_uri(s).is_ok(),
        "email" => is_email(s),
        "hostname" => is_hostname(s),
        "ipv4" => parse_ip_sloppy(s).is_some() && s.contains('.'),
        "ipv6" => parse_ip(s).is_some() && s.contains(':'),
        "cidr" => parse_cidr_sloppy(s).is_ok(),
        "mac" => is_mac(s),
        "uuid" => go_match(UUID, s),
        "uuid3" => go_match(UUID3, s),
        "uuid4" => go_match(UUID4, s),
        "uuid5" => go_match(UUID5, s),
        "isbn" => is_isbn(s, 10) || is_isbn(s, 13),
        "isbn10" => is_isbn(s, 10),
        "isbn13" => is_isbn(s, 13),
        "creditcard" => is_credit_card(s),
        "ssn" => s.len() == 11 && go_match(r"^\d{3}[- ]?\d{2}[- ]?\d{4}$", s),
        "hexcolor" => go_match("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$", s),
        "rgbcolor" => go_match(RGB, s),
        "byte" => go_match(BASE64, s),
        "password" => true,
        "k8sshortname" => s.len() <= 63 && go_match(&format!("^{SHORT_NAME}$"), s),
        "k8slongname" => {
            s.len() <= 253 && go_match(&format!(r"^{SHORT_NAME}(\.{SHORT_NAME})*$"), s)
        }
        _ => false,
    }
}

const HOSTNAME: &str = r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$";
const UUID: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
const UUID3: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
const UUID4: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$";
const UUID5: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$";
const RGB: &str = r"^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$";
const BASE64: &str =
    r"^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$";
const CREDIT_CARD: &str = r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$";
const SHORT_NAME: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

/// Match with Go's regexp semantics; a pattern that does not compile matches nothing (the
/// patterns here are constants that compile).
fn go_match(pattern: &str, s: &str) -> bool {
    regex::compile(pattern).is_ok_and(|re| re.is_match(s))
}

fn is_hostname(s: &str) -> bool {
    go_match(HOSTNAME, s) && s.len() <= 255 && s.split('.').all(|p| p.len() <= 63)
}

fn is_credit_card(s: &str) -> bool {
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    if !go_match(CREDIT_CARD, &digits) {
        return false;
    }
    let mut sum = 0u32;
    let mut double = false;
    for b in digits.bytes().rev() {
        let mut d = u32::from(b - b'0');
        if double {
            d *= 2;
            sum += if d >= 10 { d % 10 + 1 } else { d };
        } else {
            sum += d;
        }
        double = !double;
    }
    sum.is_multiple_of(10)
}

fn is_isbn(s: &str, version: u32) -> bool {
    // govalidator strips Go `\s` (ASCII whitespace) and '-'.
    let sanitized: String = s
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ' | '-'))
        .collect();
    let b = sanitized.as_bytes();
    if version == 10 {
        if !go_match("^(?:[0-9]{9}X|[0-9]{10})$", &sanitized) {
            return false;
        }
        let mut sum: i32 = (0..9)
            .map(|i| (i as i32 + 1) * i32::from(b[i] - b'0'))
            .sum();
        sum += if b[9] == b'X' {
            100
        } else {
            10 * i32::from(b[9] - b'0')
        };
        sum % 11 == 0
    } else {
        if !go_match("^(?:[0-9]{13})$", &sanitized) {
            return false;
        }
        let sum: i32 = (0..12)
            .map(|i| [1, 3][i % 2] * i32::from(b[i] - b'0'))
            .sum();
        i32::from(b[12] - b'0') - (10 - sum % 10) % 10 == 0
    }
}

/// `time.Parse("2006-01-02", s)`.
fn is_date(s: &str) -> bool {
    time::parse_in_local("2006-01-02", s).is_ok()
}

/// strfmt's `IsDateTime`: a date, a `t`, and a time matched by its own pattern.
fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let parts: Vec<&str> = lower.split('t').collect();
    if parts.len() < 2 || !is_date(parts[0]) {
        return false;
    }
    let Some((h, m, sec)) = time_of_day(parts[1]) else {
        return false;
    };
    h <= "23" && m <= "59" && sec <= "59"
}

/// strfmt's date-time time part, `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
/// (`.` is any character but a newline): the hour, minute and second digits.
fn time_of_day(t: &str) -> Option<(&str, &str, &str)> {
    let b = t.as_bytes();
    let two = |i: usize| b.len() >= i + 2 && b[i].is_ascii_digit() && b[i + 1].is_ascii_digit();
    if !(two(0) && b.get(2) == Some(&b':') && two(3) && b.get(5) == Some(&b':') && two(6)) {
        return None;
    }
    let zone = |z: &str| {
        let zb = z.as_bytes();
        z == "z"
            || (zb.len() == 6
                && matches!(zb[0], b'+' | b'-')
                && zb[1].is_ascii_digit()
                && zb[2].is_ascii_digit()
                && zb[3] == b':'
                && zb[4].is_ascii_digit()
                && zb[5].is_ascii_digit())
    };
    let rest = &t[8..];
    let ok = zone(rest)
        || rest.chars().next().is_some_and(|c| {
            let after = &rest[c.len_utf8()..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            c != '\n' && digits > 0 && zone(&after[digits..])
        });
    ok.then(|| (&t[0..2], &t[3..5], &t[6..8]))
}

/// strfmt's `IsDuration`: Go's `time.ParseDuration`, or any `<digits> <unit>` run with a unit
/// strfmt recognises.
fn is_duration(s: &str) -> bool {
    time::parse_duration(s).is_ok() || strfmt_duration(s)
}

fn strfmt_duration(s: &str) -> bool {
    const UNITS: &[&[&str]] = &[
        &["ns", "nano"],
        &["us", "µs", "micro"],
        &["ms", "milli"],
        &["s", "sec"],
        &["m", "min"],
        &["h", "hr", "hour"],
        &["d", "day"],
        &["w", "wk", "week"],
    ];
    // Matches of `((\d+)\s*([A-Za-zµ]+))`, leftmost first, without overlap.
    let b: Vec<char> = s.chars().collect();
    let mut ok = false;
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let d_end = i + b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let w_end = d_end
            + b[d_end..]
                .iter()
                .take_while(|c| matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' '))
                .count();
        let l_end = w_end
            + b[w_end..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic() || **c == 'µ')
                .count();
        if l_end == w_end {
            i += 1;
            continue;
        }
        let digits: String = b[i..d_end].iter().collect();
        if digits.parse::<i64>().is_err() {
            // strconv.Atoi overflow: ParseDuration returns the error.
            return false;
        }
        let unit: String = b[w_end..l_end].iter().collect::<String>().to_lowercase();
        for variants in UNITS {
            let last = variants.len() - 1;
            for (k, v) in variants.iter().enumerate() {
                if (k == last && unit.starts_with(v)) || equal_fold(v, &unit) {
                    ok = true;
                }
            }
        }
        i = l_end;
    }
    ok
}

fn equal_fold(a: &str, b: &str) -> bool {
    let fold = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                'µ' | 'Μ' => 'μ',
                c => c.to_lowercase().next().unwrap_or(c),
            })
            .collect()
    };
    fold(a) == fold(b)
}

/// Go's `mail.ParseAddress(s)` succeeds with a non-empty address.
fn is_email(s: &str) -> bool {
    let mut p = MailParser { s };
    let Some(addrs) = p.parse_address(true) else {
        return false;
    };
    if !p.skip_cfws() || !p.s.is_empty() || addrs.len() != 1 {
        return false;
    }
    !addrs[0].is_empty()
}

struct MailParser<'a> {
    s: &'a str,
}

fn is_vchar(r: char) -> bool {
    ('!'..='~').contains(&r) || (r as u32) >= 0x80
}

fn is_atext(r: char, dot: bool) -> bool {
    match r {
        '.' => dot,
        '(' | ')' | '<' | '>' | '[' | ']' | ':' | ';' | '@' | '\\' | ',' | '"' => false,
        r => is_vchar(r),
    }
}

fn is_wsp(r: char) -> bool {
    r == ' ' || r == '\t'
}

impl MailParser<'_> {
    fn skip_space(&mut self) {
        self.s = self.s.trim_start_matches([' ', '\t']);
    }

    fn peek(&self) -> Option<char> {
        self.s.chars().next()
    }

    fn consume(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.s = &self.s[c.len_utf8()..];
            true
        } else {
            false
        }
    }

    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume('(') {
            if !self.consume_comment() {
                return false;
            }
            self.skip_space();
        }
        true
    }

    /// Consume a comment after its `(`; false when unbalanced.
    fn consume_comment(&mut self) -> bool {
        let mut depth = 1;
        let b = self.s.as_bytes();
        let mut i = 0;
        while i < b.len() && depth > 0 {
            if b[i] == b'\\' && b.len() - i > 1 {
                i += 1;
            } else if b[i] == b'(' {
                depth += 1;
            } else if b[i] == b')' {
                depth -= 1;
            }
            i += 1;
        }
        self.s = self.s.get(i..).unwrap_or("");
        depth == 0
    }

    fn parse_address(&mut self, handle_group: bool) -> Option<Vec<String>> {
        self.skip_space();
        if self.s.is_empty() {
            return None;
        }
        let orig = self.s;
        if let Some(spec) = self.consume_addr_spec() {
            self.skip_space();
            if self.peek() == Some('(') {
                self.consume('(');
                if !self.consume_comment() {
                    return None;
                }
            }
            return Some(vec![spec]);
        }
        self.s = orig;
        if self.peek() != Some('<') {
            self.consume_phrase()?;
        }
        self.skip_space();
        if handle_group && self.consume(':') {
            return self.consume_group_list();
        }
        if !self.consume('<') {
            return None;
        }
        let spec = self.consume_addr_spec()?;
        if !self.consume('>') {
            return None;
        }
        Some(vec![spec])
    }

    fn consume_group_list(&mut self) -> Option<Vec<String>> {
        let mut group = Vec::new();
        self.skip_space();
        if self.consume(';') {
            return self.skip_cfws().then_some(group);
        }
        loop {
            self.skip_space();
            group.extend(self.parse_address(false)?);
            if !self.skip_cfws() {
                return None;
            }
            if self.consume(';') {
                return self.skip_cfws().then_some(group);
            }
            if !self.consume(',') {
                return None;
            }
        }
    }

    fn consume_addr_spec(&mut self) -> Option<String> {
        let orig = self.s;
        let r = self.addr_spec();
        if r.is_none() {
            self.s = orig;
        }
        r
    }

    fn addr_spec(&mut self) -> Option<String> {
        self.skip_space();
        if self.s.is_empty() {
            return None;
        }
        let local = if self.peek() == Some('"') {
            let q = self.consume_quoted_string()?;
            if q.is_empty() {
                return None;
            }
            q
        } else {
            self.consume_atom(true, false)?
        };
        if !self.consume('@') {
            return None;
        }
        self.skip_space();
        if self.s.is_empty() {
            return None;
        }
        let domain = if self.peek() == Some('[') {
            self.consume_domain_literal()?
        } else {
            self.consume_atom(true, false)?
        };
        Some(format!("{local}@{domain}"))
    }

    fn consume_phrase(&mut self) -> Option<String> {
        let mut words: Vec<String> = Vec::new();
        loop {
            if !words.is_empty() && !self.skip_cfws() {
                return None;
            }
            self.skip_space();
            if self.s.is_empty() {
                break;
            }
            let word = if self.peek() == Some('"') {
                self.consume_quoted_string()
            } else {
                match self.consume_atom(true, true) {
                    Some(w) if unsupported_encoded_word(&w) => None,
                    other => other,
                }
            };
            match word {
                Some(w) => words.push(w),
                None => break,
            }
        }
        if words.is_empty() {
            None
        } else {
            Some(words.join(" "))
        }
    }

    fn consume_quoted_string(&mut self) -> Option<String> {
        let mut out = String::new();
        let mut escaped = false;
        let mut chars = self.s.char_indices().skip(1);
        loop {
            let (i, r) = chars.next()?;
            if escaped {
                if !is_vchar(r) && !is_wsp(r) {
                    return None;
                }
                out.push(r);
                escaped = false;
            } else if (is_vchar(r) && r != '\\' && r != '"') || is_wsp(r) {
                out.push(r);
            } else if r == '"' {
                self.s = &self.s[i + 1..];
                return Some(out);
            } else if r == '\\' {
                escaped = true;
            } else {
                return None;
            }
        }
    }

    fn consume_atom(&mut self, dot: bool, permissive: bool) -> Option<String> {
        let end = self
            .s
            .char_indices()
            .find(|(_, r)| !is_atext(*r, dot))
            .map_or(self.s.len(), |(i, _)| i);
        if end == 0 {
            return None;
        }
        let atom = &self.s[..end];
        self.s = &self.s[end..];
        if !permissive && (atom.starts_with('.') || atom.contains("..") || atom.ends_with('.')) {
            return None;
        }
        Some(atom.to_string())
    }

    fn consume_domain_literal(&mut self) -> Option<String> {
        if !self.consume('[') {
            return None;
        }
        let end = self.s.find(']')?;
        let dtext = &self.s[..end];
        if dtext.chars().any(|r| r == '[' || r == '\\' || !is_vchar(r)) {
            return None;
        }
        self.s = &self.s[end + 1..];
        parse_ip(dtext)?;
        Some(format!("[{dtext}]"))
    }
}

/// An RFC 2047 encoded word whose text decodes but whose charset Go's default decoder rejects.
fn unsupported_encoded_word(w: &str) -> bool {
    let Some(inner) = w.strip_prefix("=?").and_then(|x| x.strip_suffix("?=")) else {
        return false;
    };
    if w.len() < 8 {
        return false;
    }
    let parts: Vec<&str> = inner.splitn(3, '?').collect();
    if parts.len() != 3 || parts[1].len() != 1 {
        return false;
    }
    let text_ok = match parts[1] {
        "b" | "B" => go_match(BASE64, parts[2]) || parts[2].is_empty(),
        "q" | "Q" => {
            let b = parts[2].as_bytes();
            let mut i = 0;
            let mut ok = true;
            while i < b.len() {
                if b[i] == b'=' {
                    if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                        && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
                    {
                        ok = false;
                        break;
                    }
                    i += 3;
                } else {
                    if !((b' '..=b'~').contains(&b[i]) || matches!(b[i], b'\n' | b'\r' | b'\t')) {
                        ok = false;
                        break;
                    }
                    i += 1;
                }
            }
            ok
        }
        _ => false,
    };
    let cs = parts[0].to_ascii_lowercase();
    text_ok && !matches!(cs.as_str(), "utf-8" | "us-ascii" | "iso-8859-1")
}

/// Go's `net.ParseMAC`.
fn is_mac(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 14 {
        return false;
    }
    let hex2 = |i: usize| b[i].is_ascii_hexdigit() && b[i + 1].is_ascii_hexdigit();
    if b[2] == b':' || b[2] == b'-' {
        if !(b.len() + 1).is_multiple_of(3) {
            return false;
        }
        let n = (b.len() + 1) / 3;
        if !matches!(n, 6 | 8 | 20) {
            return false;
        }
        (0..n).all(|i| {
            let x = i * 3;
            hex2(x) && (i == n - 1 || b[x + 2] == b[2])
        })
    } else if b[4] == b'.' {
        if !(b.len() + 1).is_multiple_of(5) {
            return false;
        }
        let n = 2 * (b.len() + 1) / 5;
        if !matches!(n, 6 | 8 | 20) {
            return false;
        }
        (0..n / 2).all(|i| {
            let x = i * 5;
            hex2(x) && hex2(x + 2) && (i == n / 2 - 1 || b[x + 4] == b'.')
        })
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_formats_follow_the_type() {
        assert_eq!(kept_format("string", "date-time"), "date-time");
        assert_eq!(kept_format("", "uri"), "uri");
        assert_eq!(kept_format("string", "int32"), "");
        assert_eq!(kept_format("string", "k8s-ip-sloppy"), "");
        assert_eq!(kept_format("integer", "int32"), "int32");
        assert_eq!(kept_format("integer", "uint64"), "");
        assert_eq!(kept_format("number", "double"), "double");
        assert_eq!(kept_format("boolean", "uri"), "");
    }

    #[test]
    fn formats() {
        let cases: &[(&str, &str, bool)] = &[
            ("uri", "https://example.com/a?b#c", true),
            ("uri", "not a URI", false),
            ("uri", "mailto:x@y", true),
            ("uri", "/abs/path", true),
            ("uri", "rel/path", false),
            ("uri", "http://[::1]:80/", true),
            ("uri", "http://host:port/", false),
            ("uri", "http://a b/", false),
            ("uri", "http://x/%zz", false),
            ("email", "a@b.c", true),
            ("email", "Joe <joe@example.com>", true),
            ("email", "joe", false),
            ("email", "a..b@c", false),
            ("email", "\"q\"@[1.2.3.4]", true),
            ("hostname", "example.com", true),
            ("hostname", "-bad", false),
            ("ipv4", "1.2.3.4", true),
            ("ipv4", "01.2.3.4", true),
            ("ipv4", "1.2.3", false),
            ("ipv4", "::ffff:1.2.3.4", true),
            ("ipv6", "::1", true),
            ("ipv6", "1.2.3.4", false),
            ("ipv6", "2001:db8::1:2:3:4:5:6", false),
            ("cidr", "10.0.0.0/8", true),
            ("cidr", "10.0.0.0/33", false),
            ("cidr", "fd00::/64", true),
            ("mac", "00:00:5e:00:53:01", true),
            ("mac", "0000.5e00.5301", true),
            ("mac", "00:00:5e:00:53", false),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
            ("uuid4", "123e4567-e89b-12d3-a456-426614174000", false),
            ("isbn10", "0321751043", true),
            ("isbn13", "978-0321751041", true),
            ("isbn", "0321751044", false),
            ("creditcard", "4111 1111 1111 1111", true),
            ("ssn", "123-45-6789", true),
            ("hexcolor", "#fff", true),
            ("rgbcolor", "rgb(255, 0, 0)", true),
            ("byte", "aGVsbG8=", true),
            ("byte", "", false),
            ("date", "2024-02-29", true),
            ("date", "2023-02-29", false),
            ("date-time", "2024-01-02T15:04:05Z", true),
            ("datetime", "2024-01-02T25:04:05Z", false),
            ("duration", "1h30m", true),
            ("duration", "3 days", true),
            ("duration", "0", true),
            ("duration", "soon", false),
            ("bsonobjectid", "507f1f77bcf86cd799439011", true),
            ("k8s-short-name", "my-name", true),
            ("k8s-short-name", "My-name", false),
            ("k8s-long-name", "a.b-c", true),
            ("password", "anything", true),
        ];
        for (f, s, want) in cases {
            assert_eq!(validates(f, s), *want, "{f} {s:?}");
        }
        assert!(registered("date-time") && registered("k8s-long-name") && !registered("int32"));
    }
}
