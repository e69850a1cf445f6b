/*!
Sprig 3's hermetic function map (`sprig.HermeticTxtFuncMap()`), the functions Cluster API lets
ClusterClass templates call. One file per group; each exports `FUNCS`.
*/

pub mod cast;
pub mod conversions;
pub mod crypto;
pub mod dates;
pub mod defaults;
pub mod dicts;
pub mod encoding;
pub mod lists;
pub mod math;
pub mod paths;
pub mod reflect;
pub mod regex;
pub mod semver;
pub mod strings;
pub mod url;

use std::sync::OnceLock;

use super::func::FuncMap;

/// The hermetic map, built once.
pub fn hermetic() -> &'static FuncMap {
    static MAP: OnceLock<FuncMap> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m = FuncMap::new();
        for group in [
            conversions::FUNCS,
            crypto::FUNCS,
            dates::FUNCS,
            defaults::FUNCS,
            dicts::FUNCS,
            encoding::FUNCS,
            lists::FUNCS,
            math::FUNCS,
            paths::FUNCS,
            reflect::FUNCS,
            regex::FUNCS,
            semver::FUNCS,
            strings::FUNCS,
            url::FUNCS,
        ] {
            m.extend(group);
        }
        m
    })
}

#[cfg(test)]
mod tests {
    /// Every name of Sprig 3.2.3's HermeticTxtFuncMap (193), plus sha512sum from Sprig 3.3.
    const HERMETIC: &[&str] = &[
        "abbrev",
        "abbrevboth",
        "add",
        "add1",
        "add1f",
        "addf",
        "adler32sum",
        "ago",
        "all",
        "any",
        "append",
        "atoi",
        "b32dec",
        "b32enc",
        "b64dec",
        "b64enc",
        "base",
        "bcrypt",
        "biggest",
        "buildCustomCert",
        "camelcase",
        "cat",
        "ceil",
        "chunk",
        "clean",
        "coalesce",
        "compact",
        "concat",
        "contains",
        "decryptAES",
        "deepCopy",
        "deepEqual",
        "default",
        "derivePassword",
        "dict",
        "dig",
        "dir",
        "div",
        "divf",
        "duration",
        "durationRound",
        "empty",
        "encryptAES",
        "ext",
        "fail",
        "first",
        "float64",
        "floor",
        "fromJson",
        "genCA",
        "genCAWithKey",
        "genPrivateKey",
        "genSelfSignedCert",
        "genSelfSignedCertWithKey",
        "genSignedCert",
        "genSignedCertWithKey",
        "get",
        "has",
        "hasKey",
        "hasPrefix",
        "hasSuffix",
        "hello",
        "htpasswd",
        "indent",
        "initial",
        "initials",
        "int",
        "int64",
        "isAbs",
        "join",
        "kebabcase",
        "keys",
        "kindIs",
        "kindOf",
        "last",
        "list",
        "lower",
        "max",
        "maxf",
        "merge",
        "mergeOverwrite",
        "min",
        "minf",
        "mod",
        "mul",
        "mulf",
        "mustAppend",
        "mustChunk",
        "mustCompact",
        "mustDateModify",
        "mustDeepCopy",
        "mustFirst",
        "mustFromJson",
        "mustHas",
        "mustInitial",
        "mustLast",
        "mustMerge",
        "mustMergeOverwrite",
        "mustPrepend",
        "mustPush",
        "mustRegexFind",
        "mustRegexFindAll",
        "mustRegexMatch",
        "mustRegexReplaceAll",
        "mustRegexReplaceAllLiteral",
        "mustRegexSplit",
        "mustRest",
        "mustReverse",
        "mustSlice",
        "mustToDate",
        "mustToJson",
        "mustToPrettyJson",
        "mustToRawJson",
        "mustUniq",
        "mustWithout",
        "must_date_modify",
        "nindent",
        "nospace",
        "omit",
        "osBase",
        "osClean",
        "osDir",
        "osExt",
        "osIsAbs",
        "pick",
        "pluck",
        "plural",
        "prepend",
        "push",
        "quote",
        "randInt",
        "regexFind",
        "regexFindAll",
        "regexMatch",
        "regexQuoteMeta",
        "regexReplaceAll",
        "regexReplaceAllLiteral",
        "regexSplit",
        "repeat",
        "replace",
        "rest",
        "reverse",
        "round",
        "semver",
        "semverCompare",
        "seq",
        "set",
        "sha1sum",
        "sha256sum",
        "shuffle",
        "slice",
        "snakecase",
        "sortAlpha",
        "split",
        "splitList",
        "splitn",
        "squote",
        "sub",
        "subf",
        "substr",
        "swapcase",
        "ternary",
        "title",
        "toDate",
        "toDecimal",
        "toJson",
        "toPrettyJson",
        "toRawJson",
        "toString",
        "toStrings",
        "trim",
        "trimAll",
        "trimPrefix",
        "trimSuffix",
        "trimall",
        "trunc",
        "tuple",
        "typeIs",
        "typeIsLike",
        "typeOf",
        "uniq",
        "unixEpoch",
        "unset",
        "until",
        "untilStep",
        "untitle",
        "upper",
        "urlJoin",
        "urlParse",
        "values",
        "without",
        "wrap",
        "wrapWith",
        "sha512sum",
    ];

    #[test]
    fn the_whole_hermetic_map_and_nothing_else() {
        let ours = super::hermetic().names();
        let mut want: Vec<&str> = HERMETIC.to_vec();
        want.sort_unstable();
        assert_eq!(ours, want);
        // Functions Sprig leaves out of the hermetic map must stay out.
        for absent in [
            "env",
            "expandenv",
            "now",
            "date",
            "randAlphaNum",
            "uuidv4",
            "getHostByName",
        ] {
            assert!(super::hermetic().get(absent).is_none(), "{absent}");
        }
    }
}
