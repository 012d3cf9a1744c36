#![no_main]
// Fuzz target `mail`: see docs/fuzzing.md and dustmail_fuzz::mail.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dustmail_fuzz::mail(data));
