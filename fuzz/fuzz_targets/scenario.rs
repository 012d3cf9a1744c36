#![no_main]
// Fuzz target `scenario`: see docs/fuzzing.md and dustmail_fuzz::scenario.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dustmail_fuzz::scenario(data));
