//! Fuzz target `template`: the input layout and the code under test are in
//! `topoplan::fuzzing::template`, which the corpus replay in `cargo test` runs too.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| topoplan::fuzzing::template(data));
