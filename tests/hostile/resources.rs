//! Hostile inputs: resources.

#[allow(unused_imports)]
use crate::harness::*;
