/*!
Kubernetes versions as Cluster API's upgrade code sees them: `blang/semver` v4's `ParseTolerant`
plus Cluster API's `util/version.Compare(…, WithBuildTags())`.

Parsing and printing are [`super::blang`]'s (one blang implementation for the crate); this module owns the four-way comparison the upgrade sequencing relies on. Error texts are blang's, because Cluster API wraps them into the messages
users see ("failed to parse ControlPlane version foo: Invalid character(s) found in major number
\"0foo\""). This is not the Masterminds flavour the template engine uses (`gotemplate::sprig::semver`):
the two libraries accept different inputs and word their errors differently.
*/

use std::cmp::Ordering;

pub(crate) use super::blang::Version;
use super::blang::{self as version, BuildCompare};

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

/// blang's `ParseTolerant`, with its error text.
pub(crate) fn parse_tolerant(input: &str) -> Result<Version, String> {
    Version::parse_tolerant_err(input)
}

/// Cluster API's `version.Compare(a, b)` without options.
pub(crate) fn compare(a: &Version, b: &Version) -> Cmp {
    from_ordering(a.compare(b))
}

fn from_ordering(o: Ordering) -> Cmp {
    match o {
        Ordering::Less => Cmp::Less,
        Ordering::Equal => Cmp::Equal,
        Ordering::Greater => Cmp::Greater,
    }
}

/// Cluster API's `version.Compare(a, b, version.WithBuildTags())`.
pub(crate) fn compare_with_build_tags(a: &Version, b: &Version) -> Cmp {
    match version::compare_with_build_tags(a, b) {
        BuildCompare::Ordered(o) => from_ordering(o),
        BuildCompare::Different => Cmp::Unordered,
    }
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
