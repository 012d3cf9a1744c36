#![no_main]
// Fuzz target `orders`: see docs/fuzzing.md and dustmail_fuzz::orders.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dustmail_fuzz::orders(data));
