#![no_main]
// Fuzz target `canonical`: see docs/fuzzing.md and dustmail_fuzz::canonical.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dustmail_fuzz::canonical(data));
