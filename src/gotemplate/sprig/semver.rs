//! Sprig: semver functions (being written).

use crate::gotemplate::func::Func;

/// The functions of this group.
pub const FUNCS: &[Func] = &[];

/// Methods of `*semver.Version` / `semver.Version` values (`.Major`, `.LessThan $v`, …) as
/// templates call them: `None` when `name` is not a method. (Stub until the semver functions
/// land.)
pub fn method(
    recv: &crate::gotemplate::value::Value,
    name: &str,
    args: &[crate::gotemplate::value::Value],
) -> Option<Result<crate::gotemplate::value::Value, String>> {
    let _ = (recv, name, args);
    None
}
