//! Fuzz target `yaml_load`: the input layout and the code under test are in
//! `topoplan::fuzzing::yaml_load`, which the corpus replay in `cargo test` runs too.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| topoplan::fuzzing::yaml_load(data));
