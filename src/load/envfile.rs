//! env files (being written).
