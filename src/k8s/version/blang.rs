/*!
Kubernetes versions the way Cluster API's webhooks read them: blang/semver v4 (`Parse`,
`ParseTolerant`, `String`, `Compare`) and Cluster API's `util/version.Compare` with its
`WithBuildTags` and `WithoutPreReleases` options.

This is not Masterminds semver (`gotemplate::sprig::semver`, what Sprig's `semver*` functions
use): blang's strict parser rejects a `v` prefix and a short `1.30`, its tolerant parser accepts
both (and leading zeros), and build metadata never takes part in blang's ordering.
Only validity and ordering matter to the webhooks; parse error texts are not reproduced.
*/

use std::cmp::Ordering;

use crate::k8s::field::go_quote;

/// One pre-release identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pre {
    Num(u64),
    Str(String),
}

impl Pre {
    fn cmp(&self, o: &Pre) -> Ordering {
        match (self, o) {
            (Pre::Num(a), Pre::Num(b)) => a.cmp(b),
            (Pre::Num(_), Pre::Str(_)) => Ordering::Less,
            (Pre::Str(_), Pre::Num(_)) => Ordering::Greater,
            (Pre::Str(a), Pre::Str(b)) => a.cmp(b),
        }
    }
}

/// A parsed semantic version (`semver.Version`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Version {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
    pre: Vec<Pre>,
    build: Vec<String>,
}

fn only(s: &str, pred: impl Fn(u8) -> bool) -> bool {
    s.bytes().all(pred)
}

fn is_num(s: &str) -> bool {
    only(s, |b| b.is_ascii_digit())
}

fn is_alnum(s: &str) -> bool {
    only(s, |b| b.is_ascii_alphanumeric() || b == b'-')
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

impl Version {
    /// `semver.Parse`: strict `MAJOR.MINOR.PATCH[-PRE][+BUILD]`.
    pub fn parse(s: &str) -> Option<Version> {
        Version::parse_strict(s).ok()
    }

    /// `semver.ParseTolerant`: trims spaces and one `v`, drops leading zeros of each part and
    /// fills a short `1` / `1.2` with zeros.
    pub fn parse_tolerant(s: &str) -> Option<Version> {
        Version::parse_tolerant_err(s).ok()
    }

    /// [`Version::parse_tolerant`] with blang's error text (Cluster API wraps it into messages
    /// users see, e.g. "failed to parse ControlPlane version foo: …").
    pub fn parse_tolerant_err(input: &str) -> Result<Version, String> {
        let s = go_trim_space(input);
        let s = s.strip_prefix('v').unwrap_or(s);
        let mut parts: Vec<String> = s.splitn(3, '.').map(str::to_string).collect();
        for p in &mut parts {
            if p.len() > 1 {
                let trimmed = p.trim_start_matches('0');
                // blang keeps one zero when trimming leaves nothing or a non-digit ("0-rc").
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
        Version::parse_strict(&parts.join("."))
    }

    /// blang's strict `Parse`, with its error texts.
    pub fn parse_strict(s: &str) -> Result<Version, String> {
        if s.is_empty() {
            return Err("Version string empty".into());
        }
        let parts: Vec<&str> = s.splitn(3, '.').collect();
        let [major, minor, rest] = parts.as_slice() else {
            return Err("No Major.Minor.Patch elements found".into());
        };
        let number = |part: &str, what: &str, title: &str| -> Result<u64, String> {
            if !is_num(part) {
                return Err(format!(
                    "Invalid character(s) found in {what} number {}",
                    go_quote(part)
                ));
            }
            if leading_zero(part) {
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
        let mut version = Version::new(major, minor, patch);
        for p in pre {
            if p.is_empty() {
                return Err("Prerelease is empty".into());
            }
            if is_num(p) {
                if leading_zero(p) {
                    return Err(format!(
                        "Numeric PreRelease version must not contain leading zeroes {}",
                        go_quote(p)
                    ));
                }
                version.pre.push(Pre::Num(parse_uint(p)?));
            } else if is_alnum(p) {
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
            if !is_alnum(b) {
                return Err(format!(
                    "Invalid character(s) found in build meta data {}",
                    go_quote(b)
                ));
            }
            version.build.push(b.to_string());
        }
        Ok(version)
    }

    /// `v` + `String()`, the form Cluster API prints with `fmt.Sprintf("v%s", v)`.
    pub fn v(&self) -> String {
        format!("v{self}")
    }

    /// `Version.Compare`: precedence, build metadata ignored.
    pub fn compare(&self, o: &Version) -> Ordering {
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
            let c = a.cmp(b);
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }

    /// The same version without pre-release identifiers.
    pub fn without_pre(&self) -> Version {
        Version {
            pre: Vec::new(),
            ..self.clone()
        }
    }

    /// `MAJOR.MINOR.PATCH` with no pre-release or build identifiers.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
            ..Version::default()
        }
    }

    /// Whether this is the zero `semver.Version{}`.
    pub fn is_zero(&self) -> bool {
        self.compare(&Version::default()) == Ordering::Equal
    }
}

impl std::fmt::Display for Version {
    /// `Version.String`: `1.2.3-pre.1+build.5`, no `v`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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

/// Result of Cluster API's `version.Compare` with `WithBuildTags`: ordered, or different
/// build identifiers whose order cannot be told (Go's `2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildCompare {
    /// -1, 0 or 1.
    Ordered(Ordering),
    /// 2: equal versions whose build identifiers differ in a non-numeric part.
    Different,
}

/// `version.Compare(a, b, WithBuildTags())`.
pub fn compare_with_build_tags(a: &Version, b: &Version) -> BuildCompare {
    let c = a.compare(b);
    if c != Ordering::Equal {
        return BuildCompare::Ordered(c);
    }
    for (x, y) in a.build.iter().zip(&b.build) {
        match (is_num(x), is_num(y)) {
            (true, false) => return BuildCompare::Ordered(Ordering::Less),
            (false, true) => return BuildCompare::Ordered(Ordering::Greater),
            (true, true) => {
                // Go ignores ParseUint's error, which leaves the maximum value on overflow.
                let (m, n) = (
                    x.parse::<u64>().unwrap_or(u64::MAX),
                    y.parse::<u64>().unwrap_or(u64::MAX),
                );
                if m != n {
                    return BuildCompare::Ordered(m.cmp(&n));
                }
            }
            (false, false) => {
                if x != y {
                    return BuildCompare::Different;
                }
            }
        }
    }
    BuildCompare::Ordered(a.build.len().cmp(&b.build.len()))
}

/// `version.Compare(a, b, WithoutPreReleases())`.
pub fn compare_without_pre(a: &Version, b: &Version) -> Ordering {
    a.without_pre().compare(&b.without_pre())
}

/// `strconv.ParseUint(s, 10, 64)` for a string of ASCII digits, with Go's error texts.
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

/// Go's `strings.TrimSpace` (ASCII and Unicode white space).
fn go_trim_space(s: &str) -> &str {
    s.trim_matches(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overflowing_numeric_build_tag_is_the_largest() {
        // Go's ParseUint leaves the maximum value on overflow, and util/version ignores the error.
        let big = Version::parse("1.0.0+99999999999999999999").expect("valid");
        let small = Version::parse("1.0.0+5").expect("valid");
        assert_eq!(
            compare_with_build_tags(&big, &small),
            BuildCompare::Ordered(Ordering::Greater)
        );
    }

    #[test]
    fn parse_errors_are_blangs() {
        for (input, want) in [
            ("", "Version string empty"),
            ("1.2", "No Major.Minor.Patch elements found"),
            ("1..2", "strconv.ParseUint: parsing \"\": invalid syntax"),
            (
                "01.2.3",
                "Major number must not contain leading zeroes \"01\"",
            ),
            ("1.2.3-", "Prerelease is empty"),
            (
                "1.2.3+a_b",
                "Invalid character(s) found in build meta data \"a_b\"",
            ),
        ] {
            assert_eq!(
                Version::parse_strict(input).err().as_deref(),
                Some(want),
                "{input:?}"
            );
        }
        assert_eq!(
            Version::parse_tolerant_err("1.2-rc").err().as_deref(),
            Some("Short version cannot contain PreRelease/Build meta data")
        );
        assert_eq!(
            Version::parse_tolerant_err(" v01.02.03 ").map(|v| v.v()),
            Ok("v1.2.3".to_string())
        );
    }

    #[test]
    fn strict_and_tolerant_parsing() {
        assert!(Version::parse("1.30.0").is_some());
        assert!(Version::parse("v1.30.0").is_none());
        assert!(Version::parse("1.30").is_none());
        assert!(Version::parse("1.030.0").is_none());
        assert!(Version::parse("1.30.0-rc.01").is_none());
        assert!(Version::parse("1.30.0+").is_none());
        assert!(Version::parse("1.30.0-").is_none());
        assert!(Version::parse("1.30.0-a_b").is_none());
        assert_eq!(
            Version::parse("1.30.0-rc.1+build.5").map(|v| v.to_string()),
            Some("1.30.0-rc.1+build.5".into())
        );
        assert_eq!(
            Version::parse_tolerant(" v1.030").map(|v| v.to_string()),
            Some("1.30.0".into())
        );
        assert!(Version::parse_tolerant("v1.30-rc.1").is_none());
        assert!(Version::parse_tolerant("").is_none());
        assert!(Version::parse_tolerant("foo").is_none());
    }

    #[test]
    fn ordering() {
        let v = |s| Version::parse_tolerant(s).unwrap_or_default();
        assert_eq!(v("1.30.0-rc.1").compare(&v("1.30.0")), Ordering::Less);
        assert_eq!(v("1.30.0-rc.2").compare(&v("1.30.0-rc.10")), Ordering::Less);
        assert_eq!(v("1.30.0-alpha").compare(&v("1.30.0-1")), Ordering::Greater);
        assert_eq!(v("1.30.0+a").compare(&v("1.30.0+b")), Ordering::Equal);
        assert_eq!(
            compare_with_build_tags(&v("1.30.0+a"), &v("1.30.0+b")),
            BuildCompare::Different
        );
        assert_eq!(
            compare_with_build_tags(&v("1.30.0+2"), &v("1.30.0+10")),
            BuildCompare::Ordered(Ordering::Less)
        );
        assert_eq!(
            compare_with_build_tags(&v("1.30.0+a.1"), &v("1.30.0+a")),
            BuildCompare::Ordered(Ordering::Greater)
        );
        assert_eq!(
            compare_without_pre(&v("1.30.0-rc.1"), &v("1.30.0")),
            Ordering::Equal
        );
        assert!(Version::default().is_zero());
    }
}
