//! Hostile inputs: output_dir.

#[allow(unused_imports)]
use crate::harness::*;
