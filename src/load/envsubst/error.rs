/*!
Why a text could not be substituted: the one error type every stage of substitution returns.
*/

use super::missing::Missing;
use crate::source::Span;

/// Why a text could not be substituted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubstError {
    /// Variables without value or default, one entry per occurrence, in order of appearance.
    Missing(Vec<Missing>),
    /// The text is not valid for drone/envsubst (or would crash it).
    Syntax {
        /// drone's error text, followed by what exactly went wrong.
        message: String,
        /// From the start of the innermost open `${` to the offending character.
        span: Span,
    },
    /// The substituted text would exceed the size cap.
    TooLarge {
        /// The cap, in bytes.
        limit: usize,
        /// The expression whose value crossed the cap.
        span: Span,
    },
}
