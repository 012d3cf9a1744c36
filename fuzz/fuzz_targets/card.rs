#![no_main]
// Fuzz target `card`: see docs/fuzzing.md and dustmail_fuzz::card.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dustmail_fuzz::card(data));
