/*!
Release versions as clusterctl reads a repository's directory names and `NAME:VERSION`:
apimachinery's `util/version.ParseSemantic` and its ordering (`Version.Compare`), which is what
clusterctl's `repository_versions.go` sorts releases with.

Not blang's semver ([`super::blang`]) nor Masterminds' (Sprig's): this one
accepts leading and trailing white space and an optional `v`, wants exactly three numeric
components without leading zeros, and orders pre-releases by dot-separated identifiers.
*/

use std::cmp::Ordering;

/// A semantic version: `[v]MAJOR.MINOR.PATCH[-PRE][+BUILD]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    components: [u64; 3],
    pre_release: String,
    build: String,
}

/// Go's regexp `\s` (ASCII white space, no vertical tab).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c')
}

/// `[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*`.
fn identifiers(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

impl Version {
    /// apimachinery's `ParseSemantic`, with its error texts.
    pub fn parse(s: &str) -> Result<Version, String> {
        let could_not = || format!("could not parse {s:?} as version");
        let rest = s.trim_start_matches(is_space);
        let rest = rest.strip_prefix('v').unwrap_or(rest);
        let numbers_end = rest
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
            .map_or(rest.len(), |(i, _)| i);
        // `[0-9]+(\.[0-9]+)*`: the longest such prefix; a trailing or doubled dot belongs to
        // the rest.
        let mut numbers = &rest[..numbers_end];
        while numbers.ends_with('.') {
            numbers = &numbers[..numbers.len() - 1];
        }
        if let Some(i) = numbers.find("..") {
            numbers = &numbers[..i];
        }
        if numbers.is_empty() || numbers.starts_with('.') {
            return Err(could_not());
        }
        let extra = &rest[numbers.len()..];
        // `(.*)*$`: `.` does not match a newline.
        if extra.contains('\n') {
            return Err(could_not());
        }
        let parts: Vec<&str> = numbers.split('.').collect();
        if parts.len() != 3 {
            return Err(format!("illegal version string {s:?}"));
        }
        let mut components = [0u64; 3];
        for (slot, comp) in components.iter_mut().zip(&parts) {
            if comp.starts_with('0') && *comp != "0" {
                return Err(format!(
                    "illegal zero-prefixed version component {comp:?} in {s:?}"
                ));
            }
            *slot = comp.parse::<u64>().map_err(|_| {
                format!(
                    "illegal non-numeric version component {comp:?} in {s:?}: strconv.ParseUint: parsing {comp:?}: value out of range"
                )
            })?;
        }
        let (pre_release, build) = if extra.is_empty() {
            (String::new(), String::new())
        } else {
            parse_extra(extra).ok_or_else(|| {
                format!("could not parse pre-release/metadata ({extra}) in version {s:?}")
            })?
        };
        for comp in pre_release.split('.') {
            if comp.parse::<u64>().is_ok() && comp.starts_with('0') && comp != "0" {
                return Err(format!(
                    "illegal zero-prefixed version component {comp:?} in {s:?}"
                ));
            }
        }
        Ok(Version {
            components,
            pre_release,
            build,
        })
    }

    /// The major version.
    pub fn major(&self) -> u64 {
        self.components[0]
    }

    /// The minor version.
    pub fn minor(&self) -> u64 {
        self.components[1]
    }

    /// Whether this is a pre-release (`-rc.0`).
    pub fn is_pre_release(&self) -> bool {
        !self.pre_release.is_empty()
    }

    /// apimachinery's `Version.Compare` between two semantic versions: components, then a
    /// release above its pre-releases, then pre-release identifiers (numbers numerically,
    /// others as text, fewer first). Build metadata never counts.
    pub fn compare(&self, other: &Version) -> Ordering {
        match self.components.cmp(&other.components) {
            Ordering::Equal => {}
            o => return o,
        }
        match (self.pre_release.is_empty(), other.pre_release.is_empty()) {
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ if self.pre_release == other.pre_release => return Ordering::Equal,
            _ => {}
        }
        let mine: Vec<&str> = self.pre_release.split('.').collect();
        let theirs: Vec<&str> = other.pre_release.split('.').collect();
        for (a, b) in mine.iter().zip(&theirs) {
            if let (Ok(x), Ok(y)) = (a.parse::<u64>(), b.parse::<u64>()) {
                match x.cmp(&y) {
                    Ordering::Equal => continue,
                    o => return o,
                }
            }
            match a.cmp(b) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        mine.len().cmp(&theirs.len())
    }
}

/// `^(?:-(IDS))?(?:\+(IDS))?\s*$` over what follows the numbers.
fn parse_extra(extra: &str) -> Option<(String, String)> {
    let extra = extra.trim_end_matches(is_space);
    let (pre, build) = match extra.split_once('+') {
        Some((pre, build)) => (pre, Some(build)),
        None => (extra, None),
    };
    let pre = match pre {
        "" => "",
        p => {
            let p = p.strip_prefix('-')?;
            if !identifiers(p) {
                return None;
            }
            p
        }
    };
    let build = match build {
        None => "",
        Some(b) if identifiers(b) => b,
        Some(_) => return None,
    };
    Some((pre.to_string(), build.to_string()))
}

impl std::fmt::Display for Version {
    /// apimachinery's `String()`: no `v`, pre-release and build metadata kept.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c] = self.components;
        write!(f, "{a}.{b}.{c}")?;
        if !self.pre_release.is_empty() {
            write!(f, "-{}", self.pre_release)?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn parses_what_apimachinery_parses() {
        assert_eq!(v("v1.12.0").to_string(), "1.12.0");
        assert_eq!(v("1.2.3-rc.1+build.5").to_string(), "1.2.3-rc.1+build.5");
        assert_eq!(v(" v1.0.0 ").to_string(), "1.0.0");
        assert!(v("v1.2.3-alpha.0").is_pre_release());
        for bad in [
            "",
            "v",
            "latest",
            "v1.2",
            "v1.2.3.4",
            "v01.2.3",
            "v1.02.3",
            "v1.2.3-",
            "v1.2.3-a..b",
            "v1.2.3+",
            "v1.2.3-01",
            "v1.2.3\n",
            "v1..2.3",
            "vv1.2.3",
            "v1.2.3_x",
        ] {
            assert!(Version::parse(bad).is_err(), "{bad:?} should not parse");
        }
        assert_eq!(
            Version::parse("v1.2").err().as_deref(),
            Some(r#"illegal version string "v1.2""#)
        );
        assert!(Version::parse("v99999999999999999999.0.0").is_err());
    }

    #[test]
    fn orders_as_apimachinery_orders() {
        let ordered = [
            "v0.9.0",
            "v1.0.0-alpha",
            "v1.0.0-alpha.1",
            "v1.0.0-alpha.beta",
            "v1.0.0-beta.2",
            "v1.0.0-beta.11",
            "v1.0.0-rc.1",
            "v1.0.0",
            "v1.0.1",
            "v1.10.0",
        ];
        for pair in ordered.windows(2) {
            assert_eq!(v(pair[0]).compare(&v(pair[1])), Ordering::Less, "{pair:?}");
            assert_eq!(
                v(pair[1]).compare(&v(pair[0])),
                Ordering::Greater,
                "{pair:?}"
            );
        }
        assert_eq!(v("v1.0.0+a").compare(&v("v1.0.0+b")), Ordering::Equal);
    }

    proptest::proptest! {
        /// Any directory name parses or is refused without panicking; what parses prints back
        /// as it reads (without `v` and white space) and orders as a total order.
        #[test]
        fn parsing_never_panics_and_ordering_is_total(
            a in "\\s?v?[0-9]{1,3}(\\.[0-9]{1,3}){0,3}(-[0-9a-z.]{0,6})?(\\+[0-9a-z.]{0,4})?",
            b in "v?[0-9]{1,2}\\.[0-9]{1,2}\\.[0-9]{1,2}(-(rc|alpha|beta|[0-9]{1,2})(\\.[0-9a-z]{1,2}){0,2})?",
            any in proptest::prelude::any::<String>(),
        ) {
            let _ = Version::parse(&any);
            if let (Ok(x), Ok(y)) = (Version::parse(&a), Version::parse(&b)) {
                let again = Version::parse(&x.to_string());
                proptest::prop_assert_eq!(again, Ok(x.clone()));
                proptest::prop_assert_eq!(x.compare(&y), y.compare(&x).reverse());
                proptest::prop_assert_eq!(x.compare(&x), Ordering::Equal);
            }
        }
    }
}
