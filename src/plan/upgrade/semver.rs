/*!
Kubernetes versions as Cluster API's upgrade code sees them: `blang/semver` v4's `ParseTolerant`
plus Cluster API's `util/version.Compare(…, WithBuildTags())`.

Owns parsing, printing (`Version.String()`, no `v`) and the four-way comparison the upgrade
sequencing relies on. Error texts are blang's, because Cluster API wraps them into the messages
users see ("failed to parse ControlPlane version foo: Invalid character(s) found in major number
\"0foo\""). This is not the Masterminds flavour the template engine uses (`gotemplate::sprig::semver`):
the two libraries accept different inputs and word their errors differently.
*/

use std::cmp::Ordering;
use std::fmt;

use crate::schema::field::go_quote;

/// One pre-release identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pre {
    Num(u64),
    Str(String),
}

/// A parsed version (blang's `semver.Version`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pre: Vec<Pre>,
    build: Vec<String>,
}

/// Result of Cluster API's `version.Compare` with build tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmp {
    Less,
    Equal,
    Greater,
    /// Same major.minor.patch and pre-release, build identifiers differ in a way that has no
    /// order (Go returns 2).
    Unordered,
}

impl Cmp {
    /// The Go integer (-1, 0, 1, 2), so conditions read like Cluster API's (`>= 1`, `<= 0`).
    pub fn go(self) -> i8 {
        match self {
            Cmp::Less => -1,
            Cmp::Equal => 0,
            Cmp::Greater => 1,
            Cmp::Unordered => 2,
        }
    }
}

const NUMBERS: &str = "0123456789";

fn contains_only(s: &str, set: &str) -> bool {
    s.chars().all(|c| set.contains(c))
}

fn is_alphanum(s: &str) -> bool {
    s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

fn has_leading_zeroes(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// `strconv.ParseUint(s, 10, 64)` for a string already known to hold only ASCII digits.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(s)
        ));
    }
    s.parse::<u64>().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            go_quote(s)
        )
    })
}

/// blang's `ParseTolerant`: trims white space and one `v`, strips leading zeros, pads `1.2` to
/// `1.2.0`, then parses strictly.
pub(crate) fn parse_tolerant(input: &str) -> Result<Version, String> {
    let s = input.trim();
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s.splitn(3, '.').map(str::to_string).collect();
    for p in &mut parts {
        if p.len() > 1 {
            let trimmed = p.trim_start_matches('0');
            // blang keeps one zero when trimming leaves nothing or a non-digit ("0-rc" → "0-rc").
            *p = if trimmed.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                trimmed.to_string()
            } else {
                format!("0{trimmed}")
            };
        }
    }
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("Short version cannot contain PreRelease/Build meta data".into());
        }
        while parts.len() < 3 {
            parts.push("0".into());
        }
    }
    parse(&parts.join("."))
}

/// blang's strict `Parse`.
fn parse(s: &str) -> Result<Version, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts.as_slice() else {
        return Err("No Major.Minor.Patch elements found".into());
    };
    let number = |part: &str, what: &str, title: &str| -> Result<u64, String> {
        if !contains_only(part, NUMBERS) {
            return Err(format!(
                "Invalid character(s) found in {what} number {}",
                go_quote(part)
            ));
        }
        if has_leading_zeroes(part) {
            return Err(format!(
                "{title} number must not contain leading zeroes {}",
                go_quote(part)
            ));
        }
        parse_uint(part)
    };
    let major = number(major, "major", "Major")?;
    let minor = number(minor, "minor", "Minor")?;

    let mut patch_str = *rest;
    let mut build: Vec<&str> = Vec::new();
    let mut pre: Vec<&str> = Vec::new();
    if let Some((head, tail)) = patch_str.split_once('+') {
        build = tail.split('.').collect();
        patch_str = head;
    }
    if let Some((head, tail)) = patch_str.split_once('-') {
        pre = tail.split('.').collect();
        patch_str = head;
    }
    let patch = number(patch_str, "patch", "Patch")?;

    let mut version = Version {
        major,
        minor,
        patch,
        pre: Vec::new(),
        build: Vec::new(),
    };
    for p in pre {
        if p.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if contains_only(p, NUMBERS) {
            if has_leading_zeroes(p) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(p)
                ));
            }
            version.pre.push(Pre::Num(parse_uint(p)?));
        } else if is_alphanum(p) {
            version.pre.push(Pre::Str(p.to_string()));
        } else {
            return Err(format!(
                "Invalid character(s) found in prerelease {}",
                go_quote(p)
            ));
        }
    }
    for b in build {
        if b.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !is_alphanum(b) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                go_quote(b)
            ));
        }
        version.build.push(b.to_string());
    }
    Ok(version)
}

impl fmt::Display for Version {
    /// blang's `String()`: no `v` prefix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                Pre::Num(n) => write!(f, "{n}")?,
                Pre::Str(s) => f.write_str(s)?,
            }
        }
        for (i, b) in self.build.iter().enumerate() {
            f.write_str(if i == 0 { "+" } else { "." })?;
            f.write_str(b)?;
        }
        Ok(())
    }
}

impl Version {
    /// `v` + `String()`, the form Cluster API prints with `fmt.Sprintf("v%s", v)`.
    pub fn v(&self) -> String {
        format!("v{self}")
    }

    /// blang's `Compare`: semver precedence, build metadata ignored.
    pub fn cmp_semver(&self, o: &Version) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            (false, false) => {}
        }
        for (a, b) in self.pre.iter().zip(&o.pre) {
            let c = match (a, b) {
                (Pre::Num(_), Pre::Str(_)) => Ordering::Less,
                (Pre::Str(_), Pre::Num(_)) => Ordering::Greater,
                (Pre::Num(x), Pre::Num(y)) => x.cmp(y),
                (Pre::Str(x), Pre::Str(y)) => x.cmp(y),
            };
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

/// Cluster API's `version.Compare(a, b)` without options.
pub(crate) fn compare(a: &Version, b: &Version) -> Cmp {
    from_ordering(a.cmp_semver(b))
}

fn from_ordering(o: Ordering) -> Cmp {
    match o {
        Ordering::Less => Cmp::Less,
        Ordering::Equal => Cmp::Equal,
        Ordering::Greater => Cmp::Greater,
    }
}

/// One build identifier as `util/version` sees it.
enum BuildId<'a> {
    Num(u64),
    Str(&'a str),
}

fn build_id(s: &str) -> BuildId<'_> {
    // Cluster API's digit set is "01234567890" (the same digits); the parse error is ignored
    // in Go, which leaves the maximum value on overflow.
    if contains_only(s, NUMBERS) {
        BuildId::Num(
            s.parse::<u64>()
                .unwrap_or(if s.is_empty() { 0 } else { u64::MAX }),
        )
    } else {
        BuildId::Str(s)
    }
}

/// Cluster API's `version.Compare(a, b, version.WithBuildTags())`.
pub(crate) fn compare_with_build_tags(a: &Version, b: &Version) -> Cmp {
    let semver = a.cmp_semver(b);
    if semver != Ordering::Equal {
        return from_ordering(semver);
    }
    for (x, y) in a.build.iter().zip(&b.build) {
        let c = match (build_id(x), build_id(y)) {
            (BuildId::Num(_), BuildId::Str(_)) => Cmp::Less,
            (BuildId::Str(_), BuildId::Num(_)) => Cmp::Greater,
            (BuildId::Num(p), BuildId::Num(q)) => from_ordering(p.cmp(&q)),
            // Non-numeric identifiers (commit hashes…) only compare for equality.
            (BuildId::Str(p), BuildId::Str(q)) => {
                if p == q {
                    Cmp::Equal
                } else {
                    Cmp::Unordered
                }
            }
        };
        if c != Cmp::Equal {
            return c;
        }
    }
    from_ordering(a.build.len().cmp(&b.build.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_tolerant_cases() {
        // (input, Ok(String()) or Err(message))
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("v1.30.4", Ok("1.30.4")),
            (" 1.30 ", Ok("1.30.0")),
            ("v1", Ok("1.0.0")),
            ("v01.030.04", Ok("1.30.4")),
            ("v1.30.0-rc.1+build.7", Ok("1.30.0-rc.1+build.7")),
            ("1.30.1+foo.2-bar.1", Ok("1.30.1+foo.2-bar.1")),
            (
                "foo",
                Err("Invalid character(s) found in major number \"0foo\""),
            ),
            ("", Err("strconv.ParseUint: parsing \"\": invalid syntax")),
            (
                "1.2-rc",
                Err("Short version cannot contain PreRelease/Build meta data"),
            ),
            (
                "1.x.0",
                Err("Invalid character(s) found in minor number \"x\""),
            ),
            ("1.2.3-", Err("Prerelease is empty")),
            (
                "1.2.3-01",
                Err("Numeric PreRelease version must not contain leading zeroes \"01\""),
            ),
            ("1.2.3+", Err("Build meta data is empty")),
            (
                "1.2.3+a_b",
                Err("Invalid character(s) found in build meta data \"a_b\""),
            ),
            (
                "1.99999999999999999999.0",
                Err("strconv.ParseUint: parsing \"99999999999999999999\": value out of range"),
            ),
        ];
        for (input, want) in cases {
            let got = parse_tolerant(input).map(|v| v.to_string());
            let want = want.map(str::to_string).map_err(str::to_string);
            assert_eq!(got, want, "input {input:?}");
        }
    }

    #[test]
    fn compare_with_build_tags_cases() {
        let cases: &[(&str, &str, i8)] = &[
            ("v1.30.0", "v1.30.0", 0),
            ("v1.30.1", "v1.30.0", 1),
            ("v1.29.9", "v1.30.0", -1),
            ("v1.30.0-rc.1", "v1.30.0", -1),
            ("v1.30.0-alpha", "v1.30.0-1", 1),
            ("v1.30.0+2", "v1.30.0+10", -1),
            ("v1.30.0+abc", "v1.30.0+abd", 2),
            ("v1.30.0+abc", "v1.30.0+1", 1),
            ("v1.30.0+1", "v1.30.0", 1),
            ("v1.30.0", "v1.30.0+1", -1),
            ("v1.30.0+1.x", "v1.30.0+1.x", 0),
        ];
        for (a, b, want) in cases {
            let (Ok(va), Ok(vb)) = (parse_tolerant(a), parse_tolerant(b)) else {
                panic!("test versions must parse: {a} {b}");
            };
            assert_eq!(compare_with_build_tags(&va, &vb).go(), *want, "{a} vs {b}");
        }
        // Without build tags, build metadata is ignored.
        let (Ok(a), Ok(b)) = (parse_tolerant("v1.30.0+abc"), parse_tolerant("v1.30.0+1")) else {
            panic!("test versions must parse");
        };
        assert_eq!(compare(&a, &b), Cmp::Equal);
    }
}
