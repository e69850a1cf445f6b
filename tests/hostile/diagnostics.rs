//! Hostile inputs: diagnostics.

#[allow(unused_imports)]
use crate::harness::*;
