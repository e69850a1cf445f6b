//! Fuzz target `json_patch`: the input layout and the code under test are in
//! `topoplan::fuzzing::json_patch`, which the corpus replay in `cargo test` runs too.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| topoplan::fuzzing::json_patch(data));
