//! Sprig: crypto functions (being written).

use crate::gotemplate::func::Func;

/// The functions of this group.
pub const FUNCS: &[Func] = &[];
