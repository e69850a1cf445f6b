//! Hostile inputs: filesystem.

#[allow(unused_imports)]
use crate::harness::*;
