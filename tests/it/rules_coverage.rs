//! Issue 12 item 5: docs/rules-coverage.md stays true. Every skill of 004's skills reference has
//! a row, its status agrees with the engine (implemented, or refused at `new`), and every test
//! and source file the page names exists.

use dustmail::dust_tactics::skill::{Skill, NOT_IN_ENUM};
use std::path::{Path, PathBuf};

/// The skills reference of seed 004 (`004_cf4d25af06d5d991.txt`, "SKILLS", pages 3 and 4 of the
/// rules summary: "Skills reference front/back"), every heading from "Ace Pilot" to
/// "Wiederbelebungsserum", in its order. Extracted by hand: the seed is not in the repository.
const SKILLS_004: [&str; 49] = [
    "Ace Pilot",
    "Advanced Reactive Fire",
    "Agile",
    "Air Alt",
    "Air Superiority",
    "All In One",
    "Amphibious Unit",
    "Artillery Strike",
    "Assault",
    "Badass",
    "Berserk",
    "Black Ops",
    "Blutkreuz Ape",
    "Blutkreuz Zombie",
    "Carry Capacity",
    "Carry Capacity: Vehicle",
    "Charge",
    "Cheat Death",
    "Combine Shots",
    "Command Squad",
    "Command Vehicle",
    "Commissar",
    "Damage Resilient",
    "Dozer Blade",
    "Engineer Vehicle",
    "Fast",
    "Fighting Spirit",
    "Frenzy",
    "Heroic Attack",
    "Hover",
    "Jump",
    "Legendary Tactician",
    "Magazine Reload",
    "Medal of Honor",
    "NCO Command Squad",
    "Pilot: Name",
    "Rare Unit",
    "Recovery Vehicle",
    "[Weapon Name]: Reload",
    "Scout Vehicle",
    "Self Repair",
    "Sniper",
    "Spotter",
    "Superior Reactive Fire",
    "Take Aim",
    "Tank Head",
    "Tank Riders",
    "Tracked Vehicle",
    "Wiederbelebungsserum",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn page() -> String {
    std::fs::read_to_string(root().join("docs/rules-coverage.md")).expect("docs/rules-coverage.md")
}

/// The cells of the table rows under the heading `## {heading}` (header and rule lines skipped).
fn rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    let start = text
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("no `## {heading}` in docs/rules-coverage.md"));
    text[start + 1..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .skip(1)
        .map(|l| {
            l.trim()
                .strip_prefix('|')
                .and_then(|l| l.strip_suffix('|'))
                .unwrap_or(l)
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The words between backticks that look like test paths (`a::b::c`).
fn cited_tests(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.contains("::") && !s.contains(' '))
        .map(str::to_string)
        .collect()
}

/// Whether the test `a::b::c` exists: `fn c(` in tests/it/a/b.rs or tests/it/a/b/mod.rs.
fn test_exists(path: &str) -> bool {
    let parts: Vec<&str> = path.split("::").collect();
    let (name, module) = parts.split_last().expect("a path");
    let dir = module
        .iter()
        .fold(root().join("tests/it"), |d, m| d.join(m));
    let files = [dir.with_extension("rs"), dir.join("mod.rs")];
    files
        .iter()
        .any(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains(&format!("fn {name}("))))
}

#[test]
fn rules_coverage_every_004_skill_has_a_row_that_agrees_with_the_engine() {
    // Issue 12 item 5: "a table of every section and skill of 004 with the code and the tests
    // that cover it, kept true by a test that checks every skill name of 004 appears in it with
    // a test name that exists."
    let text = page();
    let skills = rows(&text, "Skills");
    let titles: Vec<&str> = skills.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        titles, SKILLS_004,
        "one row per 004 skill, in the reference's order"
    );
    for r in &skills {
        assert_eq!(r.len(), 5, "{r:?}");
        let (title, name, status, tests) = (&r[0], r[1].trim_matches('`'), &r[2], &r[4]);
        assert!(!cited_tests(tests).is_empty(), "{title}: no test named");
        let implemented = match Skill::from_id(name) {
            Some(s) => {
                assert_eq!(
                    s.title().split(' ').next(),
                    title.split(' ').next(),
                    "{name}"
                );
                s.is_implemented()
            }
            None => {
                assert!(
                    NOT_IN_ENUM
                        .iter()
                        .any(|(id, t, _)| *id == name && t == title),
                    "{title}: `{name}` is neither a skill of the engine nor a refused one"
                );
                false
            }
        };
        if implemented {
            assert!(status.starts_with("implemented"), "{title}: {status}");
        } else {
            assert!(status.starts_with("refused at new"), "{title}: {status}");
        }
    }
    // The engine's list and the page agree both ways.
    for s in Skill::ALL {
        assert!(
            skills.iter().any(|r| r[1] == format!("`{}`", s.id()))
                || *s == Skill::Commander
                || *s == Skill::AirLift,
            "{s} has no row"
        );
    }
}

#[test]
fn rules_coverage_every_section_of_004_has_a_row() {
    // Issue 12 item 5: every section of 004 (its headings; SKILLS has its own table).
    let text = page();
    let sections = rows(&text, "Sections");
    for heading in [
        "Setup",
        "Definitions",
        "Basic rules",
        "Movement",
        "Cover & Movement",
        "Attacks",
        "Reactive fire",
        "Heroes",
        "Superhumans",
        "Command squads",
        "NCO command squads",
        "Structures",
        "Quonset huts",
        "Terrain types",
        "Minefields",
        "End of the game",
        "Skills",
        "Underground fighting",
        "Weapon ranges",
        "Special combat values",
        "Special weapons",
        "Large vehicles",
        "Aircraft",
    ] {
        assert!(
            sections.iter().any(|r| r[0].starts_with(heading)),
            "no row for 004 \"{heading}\""
        );
    }
    for r in &sections {
        assert_eq!(r.len(), 4, "{r:?}");
        let status = &r[1];
        assert!(
            ["implemented", "partial", "absent"]
                .iter()
                .any(|s| status.starts_with(s)),
            "{}: {status}",
            r[0]
        );
        if !status.starts_with("absent") {
            assert!(!cited_tests(&r[3]).is_empty(), "{}: no test named", r[0]);
        }
    }
}

#[test]
fn rules_coverage_every_test_and_file_the_page_names_exists() {
    // Issue 12 item 5: "... with a test name that exists."
    let text = page();
    let tests = cited_tests(&text);
    assert!(tests.len() > 50, "{}", tests.len());
    let missing: Vec<&String> = tests.iter().filter(|t| !test_exists(t)).collect();
    assert!(missing.is_empty(), "tests named but not found: {missing:?}");
    let files: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '|')
        .filter(|w| w.starts_with("src/") && w.ends_with(".rs"))
        .collect();
    assert!(!files.is_empty());
    for f in files {
        assert!(Path::new(&root().join(f)).is_file(), "{f} does not exist");
    }
}

/// 002's "Skills and Equipment" (`002_db042c601cf56f54.txt`, page 96 on), every heading from
/// "Ace Air Pilot" to "Zombie", in its order, with the card name. Extracted by hand.
const SKILLS_002: [(&str, &str); 38] = [
    ("Ace Air Pilot", "ace-air-pilot"),
    ("Ace Pilot", "ace-pilot"),
    ("Advanced Reactive Fire", "advanced-reactive-fire"),
    ("Air Pilot", "air-pilot"),
    ("Artillery Observer", "artillery-observer"),
    ("Assassin", "assassin"),
    ("At the Double", "at-the-double"),
    ("Berserk", "berserk"),
    ("Black Ops", "black-ops"),
    ("Blutkreuz", "blutkreuz"),
    ("Brave", "brave"),
    ("Camouflage", "camouflage"),
    ("Charge", "charge"),
    ("Cheat Death", "cheat-death"),
    ("Commissar", "commissar"),
    ("Damage Resilient", "damage-resilient"),
    ("Defensive Tactics", "defensive-tactics"),
    ("Expert - Weapon", "expert"),
    ("Fighting Spirit", "fighting-spirit"),
    ("First Strike", "first-strike"),
    ("Flying", "flying"),
    ("Gorilla", "gorilla"),
    ("Infantry Ace", "infantry-ace"),
    ("Killing Spree", "killing-spree"),
    ("Loner", "loner"),
    ("Lucky", "lucky"),
    ("Mindless Zombie", "mindless-zombie"),
    ("Move and Fire", "move-and-fire"),
    ("Officer", "officer"),
    ("Pilot", "pilot"),
    ("Resurrection", "resurrection"),
    ("Scout", "scout"),
    ("Spy", "spy"),
    ("Steel Guard", "steel-guard"),
    ("Strongpoint", "strongpoint"),
    ("Take Aim", "take-aim"),
    ("Tank Head", "tank-head"),
    ("Zombie", "zombie"),
];

#[test]
fn rules_coverage_every_002_skill_has_a_row_that_agrees_with_the_engine() {
    // Issue 18: every skill of 002's list has a row under battlefront-2013; it says
    // "implemented" exactly when a battlefront card may carry it (`battlefront::skills::BUILT`
    // or 002's own `Skill002`), "refused at new" otherwise, and names a test.
    use dustmail::dust_tactics::battlefront::{skills::BUILT, skills002::Skill002};
    let text = page();
    let skills = rows(&text, "Skills of 002 (battlefront-2013)");
    let got: Vec<(&str, &str)> = skills
        .iter()
        .map(|r| (r[0].as_str(), r[1].trim_matches('`')))
        .collect();
    assert_eq!(got, SKILLS_002, "one row per 002 skill, in 002's order");
    for r in &skills {
        assert_eq!(r.len(), 5, "{r:?}");
        let (title, name, status, tests) = (&r[0], r[1].trim_matches('`'), &r[2], &r[4]);
        assert!(!cited_tests(tests).is_empty(), "{title}: no test named");
        let built = Skill002::from_id(name).is_some()
            || Skill::from_id(name).is_some_and(|s| BUILT.contains(&s));
        if built {
            assert!(status.starts_with("implemented"), "{title}: {status}");
        } else {
            assert!(status.starts_with("refused at new"), "{title}: {status}");
        }
    }
}

// Issue 18's audit, docs/battlefront-sections.md: "Every rule sentence and every worked example
// of 003 and 002 gets a test named after its section". Every section the page lists for 003 and
// 002 names a test or says why there is none, and every test it names exists.
#[test]
fn rules_coverage_every_battlefront_section_has_a_test_or_a_reason() {
    let text = std::fs::read_to_string(root().join("docs/battlefront-sections.md"))
        .expect("docs/battlefront-sections.md");
    for seed in ["003", "002"] {
        let rows = rows(&text, seed);
        assert!(rows.len() > 100, "{seed}: {} rows", rows.len());
        for r in &rows {
            assert_eq!(r.len(), 5, "{r:?}");
            assert!(r[3] != "no test" || !r[4].is_empty(), "{seed}: {r:?}");
        }
    }
    let tests = cited_tests(&text);
    assert!(tests.len() > 200, "{}", tests.len());
    let missing: Vec<&String> = tests.iter().filter(|t| !test_exists(t)).collect();
    assert!(missing.is_empty(), "tests named but not found: {missing:?}");
}
