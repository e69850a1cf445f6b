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
