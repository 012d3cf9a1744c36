//! The layout of the integration tests themselves (issue 11 item 8): one test binary, and no test
//! file or snapshot that silently never runs.

use std::path::{Path, PathBuf};

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn names(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// True when the module file `parent` declares `mod name;` (or `pub mod name;`).
fn declares(parent: &Path, name: &str) -> bool {
    let text = std::fs::read_to_string(parent).unwrap();
    text.lines().any(|l| {
        let l = l.trim();
        l == format!("mod {name};") || l == format!("pub mod {name};")
    })
}

/// Every `.rs` file and module folder below `dir` that its module file (`main.rs` or `mod.rs`)
/// does not declare: such a file is never compiled, so its tests never run.
fn undeclared(dir: &Path, module_file: &Path, out: &mut Vec<String>) {
    for name in names(dir) {
        let path = dir.join(&name);
        if path.is_dir() {
            if path.join("mod.rs").exists() {
                if !declares(module_file, &name) {
                    out.push(path.display().to_string());
                }
                undeclared(&path, &path.join("mod.rs"), out);
            }
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if stem != "main" && stem != "mod" && !declares(module_file, stem) {
                out.push(path.display().to_string());
            }
        }
    }
}

// issue 11 item 8: the integration tests are one binary, tests/it/. A new `tests/x.rs` would be a
// binary of its own again (linking the whole crate once more), and a file in tests/it/ that no
// `mod` line names would never be compiled: both are refused here.
#[test]
fn the_integration_tests_are_one_binary_and_every_file_in_it_is_compiled() {
    let binaries: Vec<String> = names(&tests_dir())
        .into_iter()
        .filter(|n| n.ends_with(".rs"))
        .collect();
    assert!(
        binaries.is_empty(),
        "{binaries:?}: put integration tests in tests/it/ and declare them in tests/it/main.rs"
    );
    let it = tests_dir().join("it");
    let mut missing = Vec::new();
    undeclared(&it, &it.join("main.rs"), &mut missing);
    assert!(
        missing.is_empty(),
        "never compiled, declare them with a `mod` line: {missing:?}"
    );
}

// issue 11 item 8: insta names a snapshot after the test's module (`it__<module>__<name>.snap`); a
// snapshot left under another name (a module renamed or moved) is checked by nothing, and a
// `.snap.new` is a change nobody accepted.
#[test]
fn every_snapshot_belongs_to_a_module_of_the_binary() {
    let dir = tests_dir().join("it/snapshots");
    let snaps = names(&dir);
    assert!(!snaps.is_empty());
    for name in snaps {
        let module = name
            .strip_suffix(".snap")
            .and_then(|n| n.strip_prefix("it__"))
            .and_then(|n| n.rsplit_once("__"))
            .map(|(m, _)| m.replace("__", "/"))
            .unwrap_or_else(|| panic!("{name}: not a snapshot insta reads for tests/it"));
        assert!(
            tests_dir().join(format!("it/{module}.rs")).exists(),
            "{name}: no module tests/it/{module}.rs takes this snapshot"
        );
    }
}
