//! One test in a process of its own. The tests of `tests/it` share one process; the few that
//! count process-wide state (the picture caches' hits) would be disturbed by the tests running on
//! other threads, so each runs again alone in a new process of the same test binary.

use std::process::Command;

/// Set in the child process to the name of the test it runs: there the test runs its body.
const CHILD: &str = "DUSTMAIL_TEST_OWN_PROCESS";

/// Runs `body` in a new process of this test binary that runs only the test `name` of the module
/// `module` (pass `module_path!()`), on one thread; fails with the child's output when it fails.
pub fn in_own_process(module: &str, name: &str, body: fn()) {
    // `cargo test` names a test by its path below the crate: `picture::x`, not `it::picture::x`.
    let module = module.split_once("::").map_or("", |(_, m)| m);
    let test = format!("{module}::{name}");
    if std::env::var(CHILD).as_deref() == Ok(test.as_str()) {
        body();
        return;
    }
    let out = Command::new(std::env::current_exe().expect("the path of the test binary"))
        .args([test.as_str(), "--exact", "--test-threads=1", "--nocapture"])
        .env(CHILD, &test)
        .output()
        .expect("run the test binary again");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{test}, in its own process:\n{text}");
    // A name that matches no test would pass with nothing run.
    assert!(
        text.contains("test result: ok. 1 passed"),
        "{test} did not run in its own process:\n{text}"
    );
}
