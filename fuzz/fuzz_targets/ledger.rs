#![no_main]
// Fuzz target `ledger`: see docs/fuzzing.md and dustmail_fuzz::ledger.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dustmail_fuzz::ledger(data));
