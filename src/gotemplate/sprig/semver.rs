/*!
Sprig's `semver` and `semverCompare`, and the methods templates call on the versions they return
(`$v.Major`, `$v.LessThan $w`, `$v.IncMinor`, …): Masterminds/semver v3 rebuilt in Rust. It stays
with Sprig rather than in `k8s::version` (the dialects Kubernetes and Cluster API read versions
in): it is part of the template language, and accepts and orders versions its own way.

Cluster API classes gate patches with `semverCompare` on `.builtin.controlPlane.version`, so the
constraint grammar and its pre-release rule must match the Go library exactly, quirks included
(the `||` split before validation, the hyphen-range rewrite, `x` wildcards, the `-0` idiom).

Three releases of the Go library behave differently and all three are in use:

- 3.2.0 is what the differential oracle links (Debian's package);
- 3.3.0 is what Cluster API v1.9 – v1.11 link (via sprig v3.3.0): a hyphen range followed by
  more text is rewritten with a separating space (3.2.0 glued `1 - 2 3` into `<= 23`), and
  `*Version` gained `LessThanEqual`, `GreaterThanEqual` and a nil-safe `Equal`;
- 3.4.0 is what Cluster API v1.12 and later link: error texts are lower-case, empty pre-release
  or metadata identifiers are refused by `SetPrerelease`/`SetMetadata`, and a pre-release in
  any constraint of an AND group lets pre-release versions through the whole group (3.2/3.3
  looked at each constraint alone, so `>=1.0.0-0 <2` refused `1.5.0-rc.1`).

[`Flavor`] selects one; the process-wide default ([`flavor`], [`set_flavor`]) is 3.4.0 and the
functions in [`FUNCS`] use it. Everything below takes the flavor explicitly so tests can pin it.

The constraint grammar is defined by Go regular expressions; they are reproduced here with the
`regex` crate, whose leftmost-first semantics are Go's (with `\s` spelled out as Go's ASCII
class), so the partly accidental grammar (`|` allowed inside a version, the empty operator
alternative) comes out the same.
*/

use std::cmp::Ordering;
use std::sync::atomic::{AtomicU8, Ordering as AtomicOrdering};
use std::sync::{Arc, OnceLock};

use regex::Regex;

use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::{Value, Version};

/// Which Masterminds/semver release to imitate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flavor {
    /// v3.2.0 (the Go oracle's copy).
    V3_2,
    /// v3.3.0 (Cluster API v1.9 – v1.11).
    V3_3,
    /// v3.4.0 (Cluster API v1.12 and later).
    V3_4,
}

impl Flavor {
    fn to_u8(self) -> u8 {
        match self {
            Flavor::V3_2 => 2,
            Flavor::V3_3 => 3,
            Flavor::V3_4 => 4,
        }
    }

    fn from_u8(n: u8) -> Flavor {
        match n {
            2 => Flavor::V3_2,
            3 => Flavor::V3_3,
            _ => Flavor::V3_4,
        }
    }

    /// 3.4.0 lower-cased every error text.
    fn lower_errors(self) -> bool {
        self == Flavor::V3_4
    }
}

/// The flavor used when none is given; the Go library's own knobs are package globals too.
static FLAVOR: AtomicU8 = AtomicU8::new(4);

/// The process-wide flavor the template functions use.
pub fn flavor() -> Flavor {
    Flavor::from_u8(FLAVOR.load(AtomicOrdering::Relaxed))
}

/// Choose the process-wide flavor (e.g. from the Cluster API version being planned for).
pub fn set_flavor(f: Flavor) {
    FLAVOR.store(f.to_u8(), AtomicOrdering::Relaxed);
}

// ---------------------------------------------------------------------------------------------
// Error texts
// ---------------------------------------------------------------------------------------------

fn err_text(flavor: Flavor, upper: &str, lower: &str) -> String {
    if flavor.lower_errors() {
        lower.to_string()
    } else {
        upper.to_string()
    }
}

fn err_invalid_semver(f: Flavor) -> String {
    err_text(f, "Invalid Semantic Version", "invalid semantic version")
}

fn err_starts_zero(f: Flavor) -> String {
    err_text(
        f,
        "Version segment starts with 0",
        "version segment starts with 0",
    )
}

fn err_invalid_prerelease(f: Flavor) -> String {
    err_text(f, "Invalid Prerelease string", "invalid prerelease string")
}

fn err_invalid_metadata(f: Flavor) -> String {
    err_text(f, "Invalid Metadata string", "invalid metadata string")
}

/// `strconv.ParseUint`'s range error, wrapped the way `NewVersion` wraps it.
fn err_segment(f: Flavor, digits: &str) -> String {
    let prefix = if f.lower_errors() {
        "error parsing version segment"
    } else {
        "Error parsing version segment"
    };
    format!("{prefix}: strconv.ParseUint: parsing \"{digits}\": value out of range")
}

// ---------------------------------------------------------------------------------------------
// Regular expressions
// ---------------------------------------------------------------------------------------------

/// Go's `\s` is ASCII-only (no `\v`); the `regex` crate's is Unicode, so spell it out.
const WS: &str = r"[\t\n\f\r ]";

/// The loose version grammar `NewVersion` accepts (`v` prefix, missing minor/patch).
const LOOSE_VERSION: &str = r"v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?";

/// A version inside a constraint: wildcards allowed, and (by accident of the character class)
/// `|` too.
const CONSTRAINT_VERSION: &str = r"v?([0-9|x|X|\*]+)(\.[0-9|x|X|\*]+)?(\.[0-9|x|X|\*]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?";

/// Operators, in Go's order; the empty second alternative matters for leftmost-first matching.
const OPS: &str = r"=||!=|>|<|>=|=>|<=|=<|~|~>|\^";

struct Regexes {
    version: Regex,
    constraint: Regex,
    range: Regex,
    find: Regex,
    valid: Regex,
}

/// Compile one pattern. Every class in these patterns is spelled in ASCII, so Unicode mode
/// changes nothing they match, and turning it off compiles them in about half the time (they
/// are compiled on every run that meets a semver function: ~0.5 ms of a 10 ms plan).
fn compile(pattern: &str) -> Option<Regex> {
    regex::RegexBuilder::new(pattern)
        .unicode(false)
        .build()
        .ok()
}

fn regexes() -> Option<&'static Regexes> {
    static RE: OnceLock<Option<Regexes>> = OnceLock::new();
    RE.get_or_init(|| {
        let cv = CONSTRAINT_VERSION;
        Some(Regexes {
            version: compile(&format!("^{LOOSE_VERSION}$"))?,
            constraint: compile(&format!(r"^{WS}*({OPS}){WS}*({cv}){WS}*$"))?,
            range: compile(&format!(r"{WS}*({cv}){WS}+-{WS}+({cv}){WS}*"))?,
            find: compile(&format!(r"({OPS}){WS}*({cv})"))?,
            valid: compile(&format!(
                r"^({WS}*({OPS}){WS}*({cv}){WS}*)((?:{WS}+|,{WS}*)({OPS}){WS}*({cv}){WS}*)*$"
            ))?,
        })
    })
    .as_ref()
}

fn regex_unavailable() -> String {
    // Unreachable with the constant patterns above (a unit test compiles them).
    "semver: internal regular expression failed to compile".to_string()
}

// ---------------------------------------------------------------------------------------------
// Versions
// ---------------------------------------------------------------------------------------------

/// Parse like `semver.NewVersion` under the process-wide flavor.
pub fn parse_version(s: &str) -> Result<Version, String> {
    parse_version_with(s, flavor())
}

/// Parse like `semver.NewVersion` of the given release (all three accept the same loose
/// grammar; 3.4.0's default `CoerceNewVersion` keeps leading zeros working).
pub fn parse_version_with(s: &str, flavor: Flavor) -> Result<Version, String> {
    let re = regexes().ok_or_else(regex_unavailable)?;
    let caps = re
        .version
        .captures(s)
        .ok_or_else(|| err_invalid_semver(flavor))?;
    let group = |i: usize| caps.get(i).map_or("", |m| m.as_str());
    let segment = |text: &str| -> Result<u64, String> {
        let digits = text.trim_start_matches('.');
        digits
            .parse::<u64>()
            .map_err(|_| err_segment(flavor, digits))
    };
    let major = segment(group(1))?;
    let minor = if group(2).is_empty() {
        0
    } else {
        segment(group(2))?
    };
    let patch = if group(3).is_empty() {
        0
    } else {
        segment(group(3))?
    };
    let pre = group(5).to_string();
    let metadata = group(8).to_string();
    if !pre.is_empty() {
        validate_prerelease(&pre, flavor)?;
    }
    if !metadata.is_empty() {
        validate_metadata(&metadata, flavor)?;
    }
    Ok(Version {
        major,
        minor,
        patch,
        pre,
        metadata,
        original: s.to_string(),
    })
}

fn is_numeric(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

fn is_identifier(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Pre-release identifiers: `[0-9A-Za-z-]`, numeric ones without leading zeros. Before 3.4.0
/// an empty identifier slipped through (it counts as numeric).
fn validate_prerelease(p: &str, flavor: Flavor) -> Result<(), String> {
    for part in p.split('.') {
        if part.is_empty() && flavor == Flavor::V3_4 {
            return Err(err_invalid_prerelease(flavor));
        }
        if is_numeric(part) {
            if part.len() > 1 && part.starts_with('0') {
                return Err(err_starts_zero(flavor));
            }
        } else if !is_identifier(part) {
            return Err(err_invalid_prerelease(flavor));
        }
    }
    Ok(())
}

fn validate_metadata(m: &str, flavor: Flavor) -> Result<(), String> {
    for part in m.split('.') {
        if (part.is_empty() && flavor == Flavor::V3_4) || !is_identifier(part) {
            return Err(err_invalid_metadata(flavor));
        }
    }
    Ok(())
}

/// `Version.String()`: the normalized form (no `v`, always three numbers), not the original.
pub fn version_string(v: &Version) -> String {
    let mut s = format!("{}.{}.{}", v.major, v.minor, v.patch);
    if !v.pre.is_empty() {
        s.push('-');
        s.push_str(&v.pre);
    }
    if !v.metadata.is_empty() {
        s.push('+');
        s.push_str(&v.metadata);
    }
    s
}

/// `Version.Compare`: numbers, then pre-release (a release sorts after its pre-releases);
/// metadata is ignored.
pub fn compare(a: &Version, b: &Version) -> Ordering {
    a.major
        .cmp(&b.major)
        .then(a.minor.cmp(&b.minor))
        .then(a.patch.cmp(&b.patch))
        .then_with(|| match (a.pre.is_empty(), b.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => compare_prerelease(&a.pre, &b.pre),
        })
}

/// Dot-separated identifiers compared pairwise; a missing identifier sorts first.
fn compare_prerelease(a: &str, b: &str) -> Ordering {
    let ap: Vec<&str> = a.split('.').collect();
    let bp: Vec<&str> = b.split('.').collect();
    for i in 0..ap.len().max(bp.len()) {
        let x = ap.get(i).copied().unwrap_or("");
        let y = bp.get(i).copied().unwrap_or("");
        let d = compare_pre_part(x, y);
        if d != Ordering::Equal {
            return d;
        }
    }
    Ordering::Equal
}

fn compare_pre_part(s: &str, o: &str) -> Ordering {
    if s == o {
        return Ordering::Equal;
    }
    if s.is_empty() {
        return Ordering::Less;
    }
    if o.is_empty() {
        return Ordering::Greater;
    }
    // Numeric means "parses as uint64" in Go, so a 21-digit identifier compares as text.
    match (s.parse::<u64>().ok(), o.parse::<u64>().ok()) {
        (Some(x), Some(y)) => {
            if x > y {
                Ordering::Greater
            } else {
                // Equal numbers with different spellings cannot both parse (leading zeros are
                // refused earlier), and Go answers -1 for them anyway.
                Ordering::Less
            }
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => {
            if s > o {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
    }
}

/// The `v` of the original text, kept by the `Inc*`/`Set*` methods.
fn v_prefix(v: &Version) -> &'static str {
    if v.original.starts_with('v') { "v" } else { "" }
}

fn with_original(mut v: Version, prefix: &str) -> Version {
    v.original = format!("{prefix}{}", version_string(&v));
    v
}

fn inc_patch(v: &Version) -> Version {
    let mut n = v.clone();
    // A pre-release of x.y.z increments to x.y.z itself.
    if v.pre.is_empty() {
        n.patch = v.patch.wrapping_add(1);
    }
    n.pre.clear();
    n.metadata.clear();
    with_original(n, v_prefix(v))
}

fn inc_minor(v: &Version) -> Version {
    let mut n = v.clone();
    n.pre.clear();
    n.metadata.clear();
    n.patch = 0;
    n.minor = v.minor.wrapping_add(1);
    with_original(n, v_prefix(v))
}

fn inc_major(v: &Version) -> Version {
    let mut n = v.clone();
    n.pre.clear();
    n.metadata.clear();
    n.patch = 0;
    n.minor = 0;
    n.major = v.major.wrapping_add(1);
    with_original(n, v_prefix(v))
}

// ---------------------------------------------------------------------------------------------
// Constraints
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `""` and `=`: equality, or a tilde range when the version has wildcards.
    TildeOrEqual,
    NotEqual,
    Greater,
    Less,
    GreaterEqual,
    LessEqual,
    Tilde,
    Caret,
}

impl Op {
    fn from_text(s: &str) -> Option<Op> {
        Some(match s {
            "" | "=" => Op::TildeOrEqual,
            "!=" => Op::NotEqual,
            ">" => Op::Greater,
            "<" => Op::Less,
            ">=" | "=>" => Op::GreaterEqual,
            "<=" | "=<" => Op::LessEqual,
            "~" | "~>" => Op::Tilde,
            "^" => Op::Caret,
            _ => return None,
        })
    }
}

/// One comparison (`>= 1.2.x`).
#[derive(Debug, Clone)]
struct Constraint {
    op: Op,
    /// The version with wildcards replaced by zeros.
    con: Version,
    /// Any wildcard (or a missing part) in the version.
    dirty: bool,
    /// The minor part is a wildcard or missing (`1`, `1.x`).
    minor_dirty: bool,
    /// The patch part is a wildcard or missing (`1.2`, `1.2.x`).
    patch_dirty: bool,
}

/// An AND group of constraints.
#[derive(Debug, Clone)]
struct Group {
    items: Vec<Constraint>,
    /// Some constraint of the group names a pre-release (3.4.0 opens the group to them).
    has_pre: bool,
}

/// A parsed constraint string: OR of AND groups.
#[derive(Debug, Clone)]
pub struct Constraints {
    groups: Vec<Group>,
    flavor: Flavor,
}

fn is_wildcard(s: &str) -> bool {
    matches!(s, "x" | "X" | "*")
}

/// `NewConstraint` of the given release.
pub fn parse_constraints(text: &str, flavor: Flavor) -> Result<Constraints, String> {
    let re = regexes().ok_or_else(regex_unavailable)?;
    let rewritten = rewrite_ranges(re, text, flavor);
    let mut groups = Vec::new();
    for segment in rewritten.split("||") {
        if !re.valid.is_match(segment) {
            return Err(format!("improper constraint: {segment}"));
        }
        let mut found: Vec<&str> = re.find.find_iter(segment).map(|m| m.as_str()).collect();
        if found.is_empty() {
            found.push(segment);
        }
        let mut items = Vec::with_capacity(found.len());
        for piece in found {
            items.push(parse_constraint(re, piece, flavor)?);
        }
        let has_pre = items.iter().any(|c| !c.con.pre.is_empty());
        groups.push(Group { items, has_pre });
    }
    Ok(Constraints { groups, flavor })
}

/// `a - b` → `>= a, <= b`, replacing the first occurrence of each matched text in turn (as Go
/// does, even if that occurrence is an earlier, different one). 3.3.0 added the trailing space.
fn rewrite_ranges(re: &Regexes, text: &str, flavor: Flavor) -> String {
    let mut out = text.to_string();
    for caps in re.range.captures_iter(text) {
        let (Some(whole), Some(lo), Some(hi)) = (caps.get(0), caps.get(1), caps.get(11)) else {
            continue;
        };
        let sep = if flavor == Flavor::V3_2 { "" } else { " " };
        let replacement = format!(">= {}, <= {}{sep}", lo.as_str(), hi.as_str());
        out = out.replacen(whole.as_str(), &replacement, 1);
    }
    out
}

fn parse_constraint(re: &Regexes, text: &str, flavor: Flavor) -> Result<Constraint, String> {
    if text.is_empty() {
        // Go's special case: an empty constraint means `>= 0.0.0` written as a wildcard.
        return Ok(Constraint {
            op: Op::TildeOrEqual,
            con: Version {
                major: 0,
                minor: 0,
                patch: 0,
                pre: String::new(),
                metadata: String::new(),
                original: "0.0.0".to_string(),
            },
            dirty: true,
            minor_dirty: false,
            patch_dirty: false,
        });
    }
    let caps = re
        .constraint
        .captures(text)
        .ok_or_else(|| format!("improper constraint: {text}"))?;
    let group = |i: usize| caps.get(i).map_or("", |m| m.as_str());
    let op = Op::from_text(group(1)).ok_or_else(|| format!("improper constraint: {text}"))?;
    let (major, minor, patch, pre) = (group(3), group(4), group(5), group(6));
    let minor_bare = minor.trim_start_matches('.');
    let patch_bare = patch.trim_start_matches('.');
    let (mut dirty, mut minor_dirty, mut patch_dirty) = (false, false, false);
    let version_text = if is_wildcard(major) || major.is_empty() {
        dirty = true;
        format!("0.0.0{pre}")
    } else if is_wildcard(minor_bare) || minor.is_empty() {
        dirty = true;
        minor_dirty = true;
        format!("{major}.0.0{pre}")
    } else if is_wildcard(patch_bare) || patch.is_empty() {
        dirty = true;
        patch_dirty = true;
        format!("{major}{minor}.0{pre}")
    } else {
        group(2).to_string()
    };
    let con = parse_version_with(&version_text, flavor)
        .map_err(|_| err_text(flavor, "constraint Parser Error", "constraint parser error"))?;
    Ok(Constraint {
        op,
        con,
        dirty,
        minor_dirty,
        patch_dirty,
    })
}

impl Constraints {
    /// `Constraints.Check`: some AND group accepts the version.
    pub fn check(&self, v: &Version) -> bool {
        self.groups.iter().any(|g| {
            g.items
                .iter()
                .all(|c| check_one(c, v, g.has_pre, self.flavor))
        })
    }
}

fn check_one(c: &Constraint, v: &Version, group_has_pre: bool, flavor: Flavor) -> bool {
    // The pre-release rule: a pre-release version only passes a constraint that opted in, by
    // naming a pre-release itself (3.2/3.3) or anywhere in its AND group (3.4).
    let refuses_pre = !v.pre.is_empty()
        && if flavor == Flavor::V3_4 {
            !group_has_pre
        } else {
            c.con.pre.is_empty()
        };
    match c.op {
        // Before 3.4.0 `!=` applied the rule only to wildcard versions.
        Op::NotEqual => {
            if refuses_pre && (flavor == Flavor::V3_4 || c.dirty) {
                return false;
            }
            not_equal(c, v)
        }
        _ if refuses_pre => false,
        Op::TildeOrEqual => {
            if c.dirty {
                tilde(c, v)
            } else {
                compare(v, &c.con) == Ordering::Equal
            }
        }
        Op::Greater => greater(c, v),
        Op::Less => compare(v, &c.con) == Ordering::Less,
        Op::GreaterEqual => compare(v, &c.con) != Ordering::Less,
        Op::LessEqual => less_equal(c, v),
        Op::Tilde => tilde(c, v),
        Op::Caret => caret(c, v),
    }
}

fn not_equal(c: &Constraint, v: &Version) -> bool {
    if c.dirty {
        if c.con.major != v.major {
            return true;
        }
        if c.con.minor != v.minor && !c.minor_dirty {
            return true;
        } else if c.minor_dirty {
            return false;
        } else if c.con.patch != v.patch && !c.patch_dirty {
            return true;
        } else if c.patch_dirty {
            if !v.pre.is_empty() || !c.con.pre.is_empty() {
                return compare_prerelease(&v.pre, &c.con.pre) != Ordering::Equal;
            }
            return false;
        }
    }
    compare(v, &c.con) != Ordering::Equal
}

fn greater(c: &Constraint, v: &Version) -> bool {
    if c.dirty {
        if v.major != c.con.major {
            return v.major > c.con.major;
        }
        // `>1` needs 2.x; `>1.2` needs 1.3.x.
        if c.minor_dirty {
            return false;
        }
        if c.patch_dirty {
            return v.minor > c.con.minor;
        }
    }
    compare(v, &c.con) == Ordering::Greater
}

fn less_equal(c: &Constraint, v: &Version) -> bool {
    if !c.dirty {
        return compare(v, &c.con) != Ordering::Greater;
    }
    if v.major > c.con.major {
        return false;
    }
    !(v.major == c.con.major && v.minor > c.con.minor && !c.minor_dirty)
}

fn tilde(c: &Constraint, v: &Version) -> bool {
    if compare(v, &c.con) == Ordering::Less {
        return false;
    }
    // `~0`, `~*`: anything at or above 0.0.0.
    if c.con.major == 0 && c.con.minor == 0 && c.con.patch == 0 && !c.minor_dirty && !c.patch_dirty
    {
        return true;
    }
    // Same major, and same minor unless the minor was a wildcard.
    v.major == c.con.major && (v.minor == c.con.minor || c.minor_dirty)
}

fn caret(c: &Constraint, v: &Version) -> bool {
    if compare(v, &c.con) == Ordering::Less {
        return false;
    }
    if c.con.major > 0 || c.minor_dirty {
        return v.major == c.con.major;
    }
    if v.major > 0 {
        return false;
    }
    if c.con.minor > 0 || c.patch_dirty {
        return v.minor == c.con.minor;
    }
    if v.minor > 0 {
        return false;
    }
    c.con.patch == v.patch
}

/// Sprig's `semverCompare` under the given flavor: constraint errors first, then the version's.
pub fn semver_compare_with(
    constraint: &str,
    version: &str,
    flavor: Flavor,
) -> Result<bool, String> {
    let cs = parse_constraints(constraint, flavor)?;
    let v = parse_version_with(version, flavor)?;
    Ok(cs.check(&v))
}

// ---------------------------------------------------------------------------------------------
// Template functions
// ---------------------------------------------------------------------------------------------

fn arg_str(args: &[Value], i: usize) -> &str {
    args.get(i).and_then(Value::as_str).unwrap_or("")
}

fn semver_fn(args: &[Value]) -> Result<Value, String> {
    let v = parse_version(arg_str(args, 0))?;
    Ok(Value::Semver(Arc::new(v), true))
}

fn semver_compare_fn(args: &[Value]) -> Result<Value, String> {
    semver_compare_with(arg_str(args, 0), arg_str(args, 1), flavor()).map(Value::Bool)
}

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func {
        name: "semver",
        params: &[Param::String],
        variadic: None,
        imp: semver_fn,
    },
    Func {
        name: "semverCompare",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: semver_compare_fn,
    },
];

// ---------------------------------------------------------------------------------------------
// Methods
// ---------------------------------------------------------------------------------------------

/// What a method needs: its parameters and whether it only exists on `*semver.Version`.
struct MethodSig {
    params: &'static [Param],
    pointer_only: bool,
}

fn method_sig(name: &str, flavor: Flavor) -> Option<MethodSig> {
    let value = |params| {
        Some(MethodSig {
            params,
            pointer_only: false,
        })
    };
    let pointer = |params| {
        Some(MethodSig {
            params,
            pointer_only: true,
        })
    };
    match name {
        "String" | "Major" | "Minor" | "Patch" | "Prerelease" | "Metadata" | "IncPatch"
        | "IncMinor" | "IncMajor" | "MarshalJSON" | "MarshalText" | "Value" => value(&[]),
        "SetPrerelease" | "SetMetadata" => value(&[Param::String]),
        "Original" => pointer(&[]),
        "LessThan" | "GreaterThan" | "Equal" | "Compare" => pointer(&[Param::Semver]),
        "LessThanEqual" | "GreaterThanEqual" if flavor != Flavor::V3_2 => pointer(&[Param::Semver]),
        _ => None,
    }
}

/// The parameter types of a method callable on `recv`, so that arguments are checked and
/// converted exactly as for functions (`wrong number of args for LessThan: want 1 got 0`,
/// `can't handle "1.2.3" for arg of type *semver.Version`, …). `None`: no such method — Go's
/// `can't evaluate field NAME in type T` (pointer-receiver methods such as `Original` and
/// `LessThan` do not exist on a `semver.Version` value, which templates cannot address).
fn method_params_with(recv: &Value, name: &str, flavor: Flavor) -> Option<&'static [Param]> {
    let Value::Semver(_, is_ptr) = recv else {
        return None;
    };
    let sig = method_sig(name, flavor)?;
    if sig.pointer_only && !is_ptr {
        return None;
    }
    Some(sig.params)
}

/// Call method `name` on a version value with already-evaluated arguments.
///
/// `None`: the receiver is not a version or has no such method. `Some(Err(msg))`: either an
/// argument error — the text starts with `wrong number of args for ` or `wrong type for value;`
/// and Go reports it without the `error calling NAME: ` prefix — or the call's own error or
/// panic (`invalid prerelease string`, `runtime error: invalid memory address or nil pointer
/// dereference`), which Go reports as `error calling NAME: msg`.
pub fn method(recv: &Value, name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    method_with(recv, name, args, flavor())
}

/// [`method`] under an explicit flavor.
pub fn method_with(
    recv: &Value,
    name: &str,
    args: &[Value],
    flavor: Flavor,
) -> Option<Result<Value, String>> {
    let Value::Semver(v, _) = recv else {
        return None;
    };
    let params = method_params_with(recv, name, flavor)?;
    if args.len() != params.len() {
        return Some(Err(format!(
            "wrong number of args for {name}: want {} got {}",
            params.len(),
            args.len()
        )));
    }
    Some(call_method(v, name, args, flavor))
}

const NIL_DEREF: &str = "runtime error: invalid memory address or nil pointer dereference";

/// The `*semver.Version` argument of a comparison method: `None` for a nil pointer.
fn version_arg(arg: Option<&Value>) -> Result<Option<&Version>, String> {
    match arg {
        Some(Value::Semver(o, true)) => Ok(Some(o)),
        Some(Value::Nil) | Some(Value::Invalid) | None => Ok(None),
        Some(other) => Err(format!(
            "wrong type for value; expected *semver.Version; got {}",
            other
                .go_type()
                .map_or_else(|| "<nil>".to_string(), |t| t.name())
        )),
    }
}

fn string_arg(arg: Option<&Value>) -> Result<&str, String> {
    match arg {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!(
            "wrong type for value; expected string; got {}",
            other
                .go_type()
                .map_or_else(|| "<nil>".to_string(), |t| t.name())
        )),
        None => Err("wrong number of args: want 1 got 0".to_string()),
    }
}

fn call_method(v: &Version, name: &str, args: &[Value], flavor: Flavor) -> Result<Value, String> {
    let value = |n: Version| Value::Semver(Arc::new(n), false);
    Ok(match name {
        "String" => Value::str(version_string(v)),
        "Original" => Value::str(v.original.as_str()),
        "Major" => Value::Uint64(v.major),
        "Minor" => Value::Uint64(v.minor),
        "Patch" => Value::Uint64(v.patch),
        "Prerelease" => Value::str(v.pre.as_str()),
        "Metadata" => Value::str(v.metadata.as_str()),
        "IncPatch" => value(inc_patch(v)),
        "IncMinor" => value(inc_minor(v)),
        "IncMajor" => value(inc_major(v)),
        "MarshalJSON" => {
            let json = serde_json::to_string(&version_string(v)).map_err(|e| e.to_string())?;
            Value::Bytes(Arc::from(json.into_bytes()))
        }
        "MarshalText" => Value::Bytes(Arc::from(version_string(v).into_bytes())),
        // `driver.Value` is an interface holding the string.
        "Value" => Value::str(version_string(v)),
        "SetPrerelease" => {
            let pre = string_arg(args.first())?;
            if !pre.is_empty() {
                validate_prerelease(pre, flavor)?;
            }
            let mut n = v.clone();
            n.pre = pre.to_string();
            value(with_original(n, v_prefix(v)))
        }
        "SetMetadata" => {
            let meta = string_arg(args.first())?;
            if !meta.is_empty() {
                validate_metadata(meta, flavor)?;
            }
            let mut n = v.clone();
            n.metadata = meta.to_string();
            value(with_original(n, v_prefix(v)))
        }
        "LessThan" | "GreaterThan" | "Equal" | "Compare" | "LessThanEqual" | "GreaterThanEqual" => {
            let Some(o) = version_arg(args.first())? else {
                // 3.3.0 made `Equal(nil)` false; everything else dereferences the nil pointer.
                if name == "Equal" && flavor != Flavor::V3_2 {
                    return Ok(Value::Bool(false));
                }
                return Err(NIL_DEREF.to_string());
            };
            let ord = compare(v, o);
            match name {
                "LessThan" => Value::Bool(ord == Ordering::Less),
                "GreaterThan" => Value::Bool(ord == Ordering::Greater),
                "Equal" => Value::Bool(ord == Ordering::Equal),
                "LessThanEqual" => Value::Bool(ord != Ordering::Greater),
                "GreaterThanEqual" => Value::Bool(ord != Ordering::Less),
                _ => Value::Int(match ord {
                    Ordering::Less => -1,
                    Ordering::Equal => 0,
                    Ordering::Greater => 1,
                }),
            }
        }
        _ => {
            return Err(format!(
                "can't evaluate field {name} in type *semver.Version"
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Flavor; 3] = [Flavor::V3_2, Flavor::V3_3, Flavor::V3_4];

    fn sc(c: &str, v: &str, f: Flavor) -> Result<bool, String> {
        semver_compare_with(c, v, f)
    }

    fn ver(s: &str) -> Value {
        Value::Semver(
            Arc::new(parse_version_with(s, Flavor::V3_4).expect("valid")),
            true,
        )
    }

    #[test]
    fn regexes_compile() {
        assert!(regexes().is_some());
    }

    #[test]
    fn parse_and_print() {
        for f in ALL {
            let v = parse_version_with("v1.2.3-beta.1+b5", f).expect("valid");
            assert_eq!((v.major, v.minor, v.patch), (1, 2, 3));
            assert_eq!(v.pre, "beta.1");
            assert_eq!(v.metadata, "b5");
            assert_eq!(v.original, "v1.2.3-beta.1+b5");
            assert_eq!(version_string(&v), "1.2.3-beta.1+b5");
            assert_eq!(
                version_string(&parse_version_with("01.02", f).expect("valid")),
                "1.2.0"
            );
        }
    }

    #[test]
    fn parse_errors_by_flavor() {
        assert_eq!(
            parse_version_with("x", Flavor::V3_2).unwrap_err(),
            "Invalid Semantic Version"
        );
        assert_eq!(
            parse_version_with("x", Flavor::V3_4).unwrap_err(),
            "invalid semantic version"
        );
        assert_eq!(
            parse_version_with("1.2.3-a.01", Flavor::V3_3).unwrap_err(),
            "Version segment starts with 0"
        );
        assert_eq!(
            parse_version_with("99999999999999999999.1.1", Flavor::V3_2).unwrap_err(),
            "Error parsing version segment: strconv.ParseUint: parsing \"99999999999999999999\": value out of range"
        );
        assert_eq!(
            parse_version_with("1.99999999999999999999", Flavor::V3_4).unwrap_err(),
            "error parsing version segment: strconv.ParseUint: parsing \"99999999999999999999\": value out of range"
        );
        for bad in [
            "",
            "v",
            "V1.2.3",
            " 1.2.3",
            "1.2.3.4",
            "1.2.3-",
            "1.2.3+",
            "1.2.3-a..b",
        ] {
            assert!(parse_version_with(bad, Flavor::V3_2).is_err(), "{bad}");
        }
        assert!(parse_version_with("1.2.3-99999999999999999999", Flavor::V3_2).is_ok());
    }

    #[test]
    fn ordering() {
        let p = |s| parse_version_with(s, Flavor::V3_2).expect("valid");
        let chain = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "1.1.0",
            "2.0.0",
        ];
        for w in chain.windows(2) {
            assert_eq!(compare(&p(w[0]), &p(w[1])), Ordering::Less, "{w:?}");
            assert_eq!(compare(&p(w[1]), &p(w[0])), Ordering::Greater, "{w:?}");
        }
        assert_eq!(compare(&p("1.0.0+a"), &p("1.0.0+b")), Ordering::Equal);
    }

    #[test]
    fn basic_operators() {
        let cases = [
            ("1.2.3", "1.2.3", true),
            ("=1.2.3", "v1.2.3", true),
            ("1.2.3", "1.2.4", false),
            ("!=1.2.3", "1.2.4", true),
            (">1.2.3", "1.2.4", true),
            (">1.2", "1.2.9", false),
            (">1.2", "1.3.0", true),
            (">1", "1.9.0", false),
            ("<1.2.3", "1.2.2", true),
            (">=1.2.3", "1.2.3", true),
            ("=>1.2.3", "1.2.2", false),
            ("<=1.2", "1.2.9", true),
            ("=<1.2", "1.3.0", false),
            ("~1.2.3", "1.2.9", true),
            ("~1.2.3", "1.3.0", false),
            ("~>1", "1.9.0", true),
            ("~1", "2.0.0", false),
            ("^1.2.3", "1.9.0", true),
            ("^1.2.3", "2.0.0", false),
            ("^0.2.3", "0.2.9", true),
            ("^0.2.3", "0.3.0", false),
            ("^0.0.3", "0.0.4", false),
            ("^0", "0.9.9", true),
            ("1.2.x", "1.2.7", true),
            ("1.x", "1.7.7", true),
            ("*", "7.7.7", true),
            ("1.2 - 1.4.5", "1.4.5", true),
            ("1.2 - 1.4.5", "1.4.6", false),
            (">=1.0 <2.0 || >=3", "3.1.0", true),
            (">=1.0, <2.0", "2.0.0", false),
            (">= 1.28.0-0, < 1.33.0-0", "1.32.0", true),
            ("< 1.33.0-0", "1.33.0-rc.1", false),
            ("< 1.33.0-0", "1.32.5-rc.1", true),
            (">=1.2.3", "1.2.4-rc.1", false),
            (">=1.2.3-0", "1.2.4-rc.1", true),
        ];
        for f in ALL {
            for (c, v, want) in cases {
                assert_eq!(sc(c, v, f), Ok(want), "{f:?} {c} {v}");
            }
        }
    }

    #[test]
    fn flavor_differences() {
        // The hyphen-range rewrite glued the next constraint on before 3.3.0.
        assert_eq!(sc("1 - 2 3", "2.5.0", Flavor::V3_2), Ok(true));
        assert_eq!(sc("1 - 2 3", "2.5.0", Flavor::V3_3), Ok(false));
        // 3.4.0 opens an AND group to pre-releases when any member names one.
        for f in [Flavor::V3_2, Flavor::V3_3] {
            assert_eq!(sc(">=1.0.0-0 <2", "1.5.0-rc.1", f), Ok(false));
            assert_eq!(sc("!=1.2.3", "1.2.4-rc.1", f), Ok(true));
        }
        assert_eq!(sc(">=1.0.0-0 <2", "1.5.0-rc.1", Flavor::V3_4), Ok(true));
        assert_eq!(sc("!=1.2.3", "1.2.4-rc.1", Flavor::V3_4), Ok(false));
        assert_eq!(
            sc(">1|2", "1.0.0", Flavor::V3_2).unwrap_err(),
            "constraint Parser Error"
        );
        assert_eq!(
            sc(">1|2", "1.0.0", Flavor::V3_4).unwrap_err(),
            "constraint parser error"
        );
    }

    #[test]
    fn constraint_errors() {
        for f in ALL {
            assert_eq!(sc("", "1.0.0", f).unwrap_err(), "improper constraint: ");
            assert_eq!(
                sc(">=1.2 <", "1.0.0", f).unwrap_err(),
                "improper constraint: >=1.2 <"
            );
            assert_eq!(
                sc("junk", "junk", f).unwrap_err(),
                "improper constraint: junk"
            );
        }
        assert_eq!(
            sc("1.2.3", "junk", Flavor::V3_2).unwrap_err(),
            "Invalid Semantic Version"
        );
    }

    #[test]
    fn methods() {
        let v = ver("v1.2.3-beta.1+b5");
        let call = |name: &str, args: &[Value]| method_with(&v, name, args, Flavor::V3_4);
        assert_eq!(call("Major", &[]), Some(Ok(Value::Uint64(1))));
        assert_eq!(
            call("Original", &[]),
            Some(Ok(Value::str("v1.2.3-beta.1+b5")))
        );
        assert_eq!(call("String", &[]), Some(Ok(Value::str("1.2.3-beta.1+b5"))));
        let Some(Ok(Value::Semver(n, false))) = call("IncPatch", &[]) else {
            panic!("IncPatch")
        };
        assert_eq!(n.original, "v1.2.3");
        let Some(Ok(Value::Semver(n, false))) = call("IncMinor", &[]) else {
            panic!("IncMinor")
        };
        assert_eq!(version_string(&n), "1.3.0");
        // Pointer methods do not exist on the value type.
        let inc = Value::Semver(n, false);
        assert!(method_with(&inc, "Original", &[], Flavor::V3_4).is_none());
        assert!(method_with(&inc, "Major", &[], Flavor::V3_4).is_some());
        assert_eq!(call("Compare", &[ver("1.2.3")]), Some(Ok(Value::Int(-1))));
        assert_eq!(
            call("LessThan", &[ver("1.2.3")]),
            Some(Ok(Value::Bool(true)))
        );
        assert_eq!(
            call("LessThan", &[]),
            Some(Err("wrong number of args for LessThan: want 1 got 0".into()))
        );
        assert_eq!(call("LessThan", &[Value::Nil]), Some(Err(NIL_DEREF.into())));
        assert_eq!(call("Equal", &[Value::Nil]), Some(Ok(Value::Bool(false))));
        assert_eq!(
            method_with(&v, "Equal", &[Value::Nil], Flavor::V3_2),
            Some(Err(NIL_DEREF.into()))
        );
        assert!(method_with(&v, "LessThanEqual", std::slice::from_ref(&v), Flavor::V3_2).is_none());
        assert_eq!(
            call("LessThan", &[inc]),
            Some(Err(
                "wrong type for value; expected *semver.Version; got semver.Version".into()
            ))
        );
        assert_eq!(
            call("SetPrerelease", &[Value::str("rc..1")]),
            Some(Err("invalid prerelease string".into()))
        );
        assert!(matches!(
            method_with(&v, "SetPrerelease", &[Value::str("rc..1")], Flavor::V3_2),
            Some(Ok(_))
        ));
        assert_eq!(
            call("SetMetadata", &[Value::str("a_b")]),
            Some(Err("invalid metadata string".into()))
        );
        assert_eq!(
            call("MarshalJSON", &[]),
            Some(Ok(Value::Bytes(Arc::from(&b"\"1.2.3-beta.1+b5\""[..]))))
        );
        assert!(call("Foo", &[]).is_none());
        assert!(method(&Value::str("x"), "Major", &[]).is_none());
    }

    #[test]
    fn template_functions() {
        set_flavor(Flavor::V3_4);
        assert_eq!(
            semver_compare_fn(&[Value::str(">= 1.28"), Value::str("v1.29.3")]),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            semver_fn(&[Value::str("nope")]),
            Err("invalid semantic version".into())
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics(c in ".{0,40}", v in "[v0-9.x*<>=!~^|, -]{0,30}") {
            for f in ALL {
                let _ = semver_compare_with(&c, &v, f);
                let _ = semver_compare_with(&v, &c, f);
                let _ = parse_version_with(&c, f);
            }
        }

        #[test]
        fn grammar_soup_never_panics(c in "[v0-9.xX*<>=!~^|, a-z+-]{0,40}") {
            for f in ALL {
                let _ = semver_compare_with(&c, "1.2.3-rc.1", f);
            }
        }
    }
}
