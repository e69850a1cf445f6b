//! output (work in progress)
