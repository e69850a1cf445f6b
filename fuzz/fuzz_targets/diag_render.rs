//! Fuzz target `diag_render`: the input layout and the code under test are in
//! `topoplan::fuzzing::diag_render`, which the corpus replay in `cargo test` runs too.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| topoplan::fuzzing::diag_render(data));
