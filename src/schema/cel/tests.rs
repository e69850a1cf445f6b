//! Tests of the public API.
