/*!
The kind image mapping of Cluster API's `test/infrastructure/kind` package, as the test extension
uses it to pick `customImage` for DevMachineTemplates and DevMachinePoolTemplates: a semver parse
in the tolerant style of `blang/semver` (`ParseTolerant`), the prebuilt table of `kindest/node`
images (pinned by digest) and the lookup rule of `GetMapping` with the digest-less fallback image
for versions the table does not know.

Only the table rows for Kubernetes minors 1.29 and newer are included: the lookup only ever looks
at rows of the requested major.minor, so dropping older minors changes no answer for 1.29+ and
answers every older version with the fallback image. The rows keep upstream's order, which the
lookup depends on (the first row of a minor decides whether a newer patch falls back).
*/

// Shared by the test binary and the example; each uses a subset.
#![allow(dead_code)]

/// `kindest/node` images known to Cluster API, by Kubernetes major, minor and patch, in upstream
/// order (newest kind release first). Data from Cluster API's `test/infrastructure/kind/mapper.go`
/// at commit ae7ff047db499ac3858ade268ba38db8c9f128bb.
const PREBUILT: &[(u64, u64, u64, &str)] = &[
    (
        1,
        36,
        1,
        "kindest/node:v1.36.1@sha256:3489c7674813ba5d8b1a9977baea8a6e553784dab7b84759d1014dbd78f7ebd5",
    ),
    (
        1,
        35,
        5,
        "kindest/node:v1.35.5@sha256:ce977ae6d65918d0b58a5f8b5e940429c2ce42fa3a5619ec2bbc60b949c0ac95",
    ),
    (
        1,
        34,
        8,
        "kindest/node:v1.34.8@sha256:02722c2dedddcfc00febf5d27fbeb9b7b2c14294c82109ff4a85d89ac9ba3256",
    ),
    (
        1,
        33,
        12,
        "kindest/node:v1.33.12@sha256:3f5c8443c620245e4d355cfe09e96a91ead32ceaa569d3f1ca9edf0cb2fe2ff4",
    ),
    (
        1,
        35,
        0,
        "kindest/node:v1.35.0@sha256:452d707d4862f52530247495d180205e029056831160e22870e37e3f6c1ac31f",
    ),
    (
        1,
        34,
        3,
        "kindest/node:v1.34.3@sha256:08497ee19eace7b4b5348db5c6a1591d7752b164530a36f855cb0f2bdcbadd48",
    ),
    (
        1,
        33,
        7,
        "kindest/node:v1.33.7@sha256:d26ef333bdb2cbe9862a0f7c3803ecc7b4303d8cea8e814b481b09949d353040",
    ),
    (
        1,
        32,
        11,
        "kindest/node:v1.32.11@sha256:5fc52d52a7b9574015299724bd68f183702956aa4a2116ae75a63cb574b35af8",
    ),
    (
        1,
        31,
        14,
        "kindest/node:v1.31.14@sha256:6f86cf509dbb42767b6e79debc3f2c32e4ee01386f0489b3b2be24b0a55aac2b",
    ),
    (
        1,
        34,
        0,
        "kindest/node:v1.34.0@sha256:7416a61b42b1662ca6ca89f02028ac133a309a2a30ba309614e8ec94d976dc5a",
    ),
    (
        1,
        33,
        4,
        "kindest/node:v1.33.4@sha256:25a6018e48dfcaee478f4a59af81157a437f15e6e140bf103f85a2e7cd0cbbf2",
    ),
    (
        1,
        32,
        8,
        "kindest/node:v1.32.8@sha256:abd489f042d2b644e2d033f5c2d900bc707798d075e8186cb65e3f1367a9d5a1",
    ),
    (
        1,
        31,
        12,
        "kindest/node:v1.31.12@sha256:0f5cc49c5e73c0c2bb6e2df56e7df189240d83cf94edfa30946482eb08ec57d2",
    ),
    (
        1,
        33,
        1,
        "kindest/node:v1.33.1@sha256:050072256b9a903bd914c0b2866828150cb229cea0efe5892e2b644d5dd3b34f",
    ),
    (
        1,
        32,
        5,
        "kindest/node:v1.32.5@sha256:e3b2327e3a5ab8c76f5ece68936e4cafaa82edf58486b769727ab0b3b97a5b0d",
    ),
    (
        1,
        31,
        9,
        "kindest/node:v1.31.9@sha256:b94a3a6c06198d17f59cca8c6f486236fa05e2fb359cbd75dabbfc348a10b211",
    ),
    (
        1,
        30,
        13,
        "kindest/node:v1.30.13@sha256:397209b3d947d154f6641f2d0ce8d473732bd91c87d9575ade99049aa33cd648",
    ),
    (
        1,
        33,
        0,
        "kindest/node:v1.33.0@sha256:02f73d6ae3f11ad5d543f16736a2cb2a63a300ad60e81dac22099b0b04784a4e",
    ),
    (
        1,
        32,
        2,
        "kindest/node:v1.32.2@sha256:f226345927d7e348497136874b6d207e0b32cc52154ad8323129352923a3142f",
    ),
    (
        1,
        31,
        6,
        "kindest/node:v1.31.6@sha256:28b7cbb993dfe093c76641a0c95807637213c9109b761f1d422c2400e22b8e87",
    ),
    (
        1,
        30,
        10,
        "kindest/node:v1.30.10@sha256:4de75d0e82481ea846c0ed1de86328d821c1e6a6a91ac37bf804e5313670e507",
    ),
    (
        1,
        29,
        14,
        "kindest/node:v1.29.14@sha256:8703bd94ee24e51b778d5556ae310c6c0fa67d761fae6379c8e0bb480e6fea29",
    ),
    (
        1,
        32,
        0,
        "kindest/node:v1.32.0@sha256:c48c62eac5da28cdadcf560d1d8616cfa6783b58f0d94cf63ad1bf49600cb027",
    ),
    (
        1,
        31,
        4,
        "kindest/node:v1.31.4@sha256:2cb39f7295fe7eafee0842b1052a599a4fb0f8bcf3f83d96c7f4864c357c6c30",
    ),
    (
        1,
        30,
        8,
        "kindest/node:v1.30.8@sha256:17cd608b3971338d9180b00776cb766c50d0a0b6b904ab4ff52fd3fc5c6369bf",
    ),
    (
        1,
        29,
        12,
        "kindest/node:v1.29.12@sha256:62c0672ba99a4afd7396512848d6fc382906b8f33349ae68fb1dbfe549f70dec",
    ),
    (
        1,
        32,
        0,
        "kindest/node:v1.32.0@sha256:2458b423d635d7b01637cac2d6de7e1c1dca1148a2ba2e90975e214ca849e7cb",
    ),
    (
        1,
        31,
        2,
        "kindest/node:v1.31.2@sha256:18fbefc20a7113353c7b75b5c869d7145a6abd6269154825872dc59c1329912e",
    ),
    (
        1,
        30,
        6,
        "kindest/node:v1.30.6@sha256:b6d08db72079ba5ae1f4a88a09025c0a904af3b52387643c285442afb05ab994",
    ),
    (
        1,
        29,
        10,
        "kindest/node:v1.29.10@sha256:3b2d8c31753e6c8069d4fc4517264cd20e86fd36220671fb7d0a5855103aa84b",
    ),
    (
        1,
        31,
        0,
        "kindest/node:v1.31.0@sha256:53df588e04085fd41ae12de0c3fe4c72f7013bba32a20e7325357a1ac94ba865",
    ),
    (
        1,
        30,
        4,
        "kindest/node:v1.30.4@sha256:976ea815844d5fa93be213437e3ff5754cd599b040946b5cca43ca45c2047114",
    ),
    (
        1,
        30,
        3,
        "kindest/node:v1.30.3@sha256:bf91e1ef2f7d92bb7734b2b896b3dddea98f0496b34d96e37dd5d7df331b7e56",
    ),
    (
        1,
        29,
        8,
        "kindest/node:v1.29.8@sha256:d46b7aa29567e93b27f7531d258c372e829d7224b25e3fc6ffdefed12476d3aa",
    ),
    (
        1,
        29,
        7,
        "kindest/node:v1.29.7@sha256:f70ab5d833fca132a100c1f95490be25d76188b053f49a3c0047ff8812360baf",
    ),
    (
        1,
        30,
        0,
        "kindest/node:v1.30.0@sha256:047357ac0cfea04663786a612ba1eaba9702bef25227a794b52890dd8bcd692e",
    ),
    (
        1,
        29,
        4,
        "kindest/node:v1.29.4@sha256:3abb816a5b1061fb15c6e9e60856ec40d56b7b52bcea5f5f1350bc6e2320b6f8",
    ),
    (
        1,
        29,
        2,
        "kindest/node:v1.29.2@sha256:51a1434a5397193442f0be2a297b488b6c919ce8a3931be0ce822606ea5ca245",
    ),
    (
        1,
        29,
        1,
        "kindest/node:v1.29.1@sha256:0c06baa545c3bb3fbd4828eb49b8b805f6788e18ce67bff34706ffa91866558b",
    ),
    (
        1,
        29,
        1,
        "kindest/node:v1.29.1@sha256:a0cc28af37cf39b019e2b448c54d1a3f789de32536cb5a5db61a49623e527144",
    ),
    (
        1,
        29,
        0,
        "kindest/node:v1.29.0@sha256:eaa1450915475849a73a9227b8f201df25e55e268e5d619312131292e324d570",
    ),
];

/// The repository of the images.
const KINDEST_NODE: &str = "kindest/node";

/// A semantic version as `blang/semver` holds it: pre-release and build parts are kept as text
/// because the mapping only needs to know whether a pre-release is present and to print them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<String>,
    pub build: Vec<String>,
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}

/// Parse leniently: surrounding space and a leading `v` are dropped, leading zeros of the dotted
/// parts are trimmed and missing minor/patch parts become 0 (like `semver.ParseTolerant`).
pub fn parse_tolerant(s: &str) -> Result<Version, String> {
    let s = s.trim();
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s.splitn(3, '.').map(str::to_string).collect();
    for p in &mut parts {
        if p.len() > 1 {
            let trimmed = p.trim_start_matches('0');
            *p = if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
                trimmed.to_string()
            } else {
                format!("0{trimmed}")
            };
        }
    }
    if parts.len() < 3 {
        if parts
            .last()
            .is_some_and(|p| p.contains('+') || p.contains('-'))
        {
            return Err("Short version cannot contain PreRelease/Build meta data".into());
        }
        while parts.len() < 3 {
            parts.push("0".into());
        }
    }
    parse(&parts.join("."))
}

fn is_alnum_or_hyphen(s: &str) -> bool {
    s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

fn number(s: &str, what: &str) -> Result<u64, String> {
    if s.is_empty() {
        // Go's ParseUint has the last word on an empty number.
        return Err("strconv.ParseUint: parsing \"\": invalid syntax".into());
    }
    if !s.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("Invalid character(s) found in {what} number {s:?}"));
    }
    if s.len() > 1 && s.starts_with('0') {
        return Err(format!(
            "{} number must not contain leading zeroes {s:?}",
            {
                let mut w = what.to_string();
                if let Some(first) = w.get_mut(0..1) {
                    first.make_ascii_uppercase();
                }
                w
            }
        ));
    }
    s.parse()
        .map_err(|_| format!("strconv.ParseUint: parsing {s:?}: value out of range"))
}

/// Strict `MAJOR.MINOR.PATCH[-PRE][+BUILD]`.
pub fn parse(s: &str) -> Result<Version, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts.as_slice() else {
        return Err("No Major.Minor.Patch elements found".into());
    };
    let major = number(major, "major")?;
    let minor = number(minor, "minor")?;
    let (rest, build) = match rest.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (*rest, None),
    };
    let (patch, pre) = match rest.split_once('-') {
        Some((p, pre)) => (p, Some(pre)),
        None => (rest, None),
    };
    let patch = number(patch, "patch")?;
    let mut v = Version {
        major,
        minor,
        patch,
        pre: Vec::new(),
        build: Vec::new(),
    };
    for p in pre.into_iter().flat_map(|p| p.split('.')) {
        if p.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if p.chars().all(|c| c.is_ascii_digit()) {
            if p.len() > 1 && p.starts_with('0') {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {p:?}"
                ));
            }
        } else if !is_alnum_or_hyphen(p) {
            return Err(format!("Invalid character(s) found in prerelease {p:?}"));
        }
        v.pre.push(p.to_string());
    }
    for b in build.into_iter().flat_map(|b| b.split('.')) {
        if b.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !is_alnum_or_hyphen(b) {
            return Err(format!(
                "Invalid character(s) found in build meta data {b:?}"
            ));
        }
        v.build.push(b.to_string());
    }
    Ok(v)
}

/// The image for a version not in the table: `kindest/node:v<version>` with the characters an
/// OCI tag cannot hold (such as `+`) replaced by `_`, and no digest.
pub fn fallback_image(v: &Version) -> String {
    let tag: String = format!("v{v}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{KINDEST_NODE}:{tag}")
}

/// The `kindest/node` image for a Kubernetes version, like `kind.GetMapping(version, "").Image`:
/// walking the rows of the same major.minor in table order, an exact patch match (without
/// pre-release) wins; a row with an older patch means the version is newer than any known image,
/// so the fallback image is used; otherwise the fallback image is used too.
pub fn image_for(v: &Version) -> String {
    for &(major, minor, patch, image) in PREBUILT {
        if (major, minor) != (v.major, v.minor) {
            continue;
        }
        if patch == v.patch && v.pre.is_empty() {
            return image.to_string();
        }
        if v.patch > patch {
            break;
        }
    }
    fallback_image(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(s: &str) -> String {
        image_for(&parse_tolerant(s).expect("version"))
    }

    #[test]
    fn known_versions_map_to_pinned_images() {
        assert_eq!(
            image("v1.34.3"),
            "kindest/node:v1.34.3@sha256:08497ee19eace7b4b5348db5c6a1591d7752b164530a36f855cb0f2bdcbadd48"
        );
        // The first of two rows for 1.32.0 wins.
        assert_eq!(
            image("1.32.0"),
            "kindest/node:v1.32.0@sha256:c48c62eac5da28cdadcf560d1d8616cfa6783b58f0d94cf63ad1bf49600cb027"
        );
    }

    #[test]
    fn unknown_versions_fall_back() {
        // 1.34.1 has no row: the 1.34.0 row is older, so it is a newer-than-known version.
        assert_eq!(image("v1.34.1"), "kindest/node:v1.34.1");
        assert_eq!(image("v1.99.0"), "kindest/node:v1.99.0");
        assert_eq!(image("v1.33.2+k3s1"), "kindest/node:v1.33.2_k3s1");
        // Build metadata is not a pre-release: an exact patch still matches.
        assert_eq!(
            image("v1.33.0+k3s1"),
            "kindest/node:v1.33.0@sha256:02f73d6ae3f11ad5d543f16736a2cb2a63a300ad60e81dac22099b0b04784a4e"
        );
        assert_eq!(image("v1.34.3-rc.1"), "kindest/node:v1.34.3-rc.1");
        // Older minors are not in the (trimmed) table.
        assert_eq!(image("v1.28.15"), "kindest/node:v1.28.15");
    }

    #[test]
    fn tolerant_parsing() {
        assert_eq!(
            parse_tolerant(" v1.30 ").expect("short").to_string(),
            "1.30.0"
        );
        assert_eq!(
            parse_tolerant("v01.02.03").expect("zeros").to_string(),
            "1.2.3"
        );
        assert!(parse_tolerant("v1.30-rc.1").is_err());
        assert_eq!(
            parse_tolerant("vx.1.2").expect_err("bad"),
            "Invalid character(s) found in major number \"x\""
        );
        assert_eq!(
            parse_tolerant("").expect_err("empty"),
            "strconv.ParseUint: parsing \"\": invalid syntax"
        );
    }
}
