//! Hostile inputs: names.

#[allow(unused_imports)]
use crate::harness::*;
