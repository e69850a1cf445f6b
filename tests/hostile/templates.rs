//! Hostile inputs: templates.

#[allow(unused_imports)]
use crate::harness::*;
