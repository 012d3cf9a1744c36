//! Issue 18: skills only 002 has (not in 004's reference), under battlefront-2013: Loner and
//! Gorilla at `new` (R583), and the refusals that keep them out of the other rulesets (R581).
//! Killing Spree (R582) is played in `rules::battlefront_combat`.

use crate::support::dt;
use dustmail::dust_tactics::cards::parse_card_for_new;
use std::path::Path;

/// The shipped battlefront card `id` with `extra` lines added at the end of its top table.
pub(super) fn card_with(id: &str, extra: &str) -> (String, String) {
    let file = format!("{id}.toml");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/dust-tactics/cards-battlefront")
        .join(&file);
    let text = std::fs::read_to_string(path).expect("battlefront card");
    let at = text.find("\n[[").expect("a weapon table");
    (file, format!("{}\n{extra}\n{}", &text[..at], &text[at..]))
}

/// `dustmail new --ruleset battlefront-2013` of the shipped Encounter with `hero` joined to
/// `squad`, the cards `cards` (file, text) brought with `--cards`.
pub(super) fn new_joined(
    root: &Path,
    hero: &str,
    squad: &str,
    cards: &[(String, String)],
) -> String {
    let dir = root.join("cards");
    std::fs::create_dir_all(&dir).unwrap();
    for (f, t) in cards {
        std::fs::write(dir.join(f), t).unwrap();
    }
    let text = dustmail::dust_tactics::scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "encounter")
        .expect("encounter shipped")
        .1;
    let line = format!("card = \"{hero}\"\n");
    let scen = text.replacen(&line, &format!("{line}joins = \"{squad}\"\n"), 1);
    let file = root.join("joined.toml");
    std::fs::write(&file, scen).unwrap();
    dt::init_home(root, "file");
    let ps = dt::players(9);
    let args = [
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        file.to_str().unwrap(),
        "--cards",
        dir.to_str().unwrap(),
        "--id",
        "g-002",
        "--now",
        dt::T0,
    ];
    let o = dt::new_with_players(root, &args, &ps);
    let made = root.join("games/g-002/log.jsonl").exists();
    assert_eq!(o.status.code() == Some(0), made, "{}", dt::text(&o));
    if made {
        "created".into()
    } else {
        dt::text(&o)
    }
}

// issue 18, 002 "Loner": "A Loner Hero may not Join a Unit." Bazooka Joe with Loner joined to the
// Grim Reapers (the pair that joins without it) is refused at `new`, no game made (R583).
#[test]
fn s002_loner_a_loner_hero_may_not_join_a_unit() {
    let d = tempfile::tempdir().unwrap();
    let loner = card_with("bf-bazooka-joe", "[[skills]]\nname = \"loner\"");
    let t = new_joined(d.path(), "bf-bazooka-joe", "reapers", &[loner]);
    assert!(
        t.contains("Loner") && t.contains("may not Join a Unit") && t.contains("002"),
        "{t}"
    );
    // Without the skill the same join makes a game.
    let d = tempfile::tempdir().unwrap();
    let plain = card_with("bf-bazooka-joe", "");
    assert_eq!(
        new_joined(d.path(), "bf-bazooka-joe", "reapers", &[plain]),
        "created"
    );
}

// issue 18, 002 "Gorilla": "Only a Gorilla Hero may Join a Gorilla Unit. Gorilla Heroes cannot
// Join Units that are not Gorillas." (R583)
#[test]
fn s002_gorilla_only_a_gorilla_hero_joins_a_gorilla_unit() {
    let gorilla = "[[skills]]\nname = \"gorilla\"";
    // A Gorilla hero and a squad that is not.
    let d = tempfile::tempdir().unwrap();
    let t = new_joined(
        d.path(),
        "bf-bazooka-joe",
        "reapers",
        &[card_with("bf-bazooka-joe", gorilla)],
    );
    assert!(
        t.contains("Gorilla") && t.contains("002 \"Gorilla\""),
        "{t}"
    );
    // A Gorilla squad and a hero that is not.
    let d = tempfile::tempdir().unwrap();
    let t = new_joined(
        d.path(),
        "bf-bazooka-joe",
        "reapers",
        &[card_with("bf-grim-reapers", gorilla)],
    );
    assert!(t.contains("is not a Gorilla"), "{t}");
    // Both Gorillas: the join stands.
    let d = tempfile::tempdir().unwrap();
    let t = new_joined(
        d.path(),
        "bf-bazooka-joe",
        "reapers",
        &[
            card_with("bf-bazooka-joe", gorilla),
            card_with("bf-grim-reapers", gorilla),
        ],
    );
    assert_eq!(t, "created");
}

// R581: 002's own skills are battlefront-2013's. Under ffg-revised (and classic-2010) a card
// naming one is refused at `new`, naming the skill, the file and the ruleset that plays it.
#[test]
fn s002_skills_a_002_skill_is_refused_under_the_other_rulesets() {
    for s in ["killing-spree", "loner", "gorilla", "defensive-tactics"] {
        let (f, t) = card_with("bf-bazooka-joe", &format!("[[skills]]\nname = \"{s}\""));
        let e = parse_card_for_new(&f, &t).unwrap_err();
        assert_eq!(e.file, f);
        assert!(
            e.reason.contains(&format!("`{s}`")) && e.reason.contains("battlefront-2013"),
            "{e}"
        );
        assert!(e.reason.contains("R581"), "{e}");
    }
}

// R581, R820: a skill of 002's list that is not built (only Grenadier X is left, its text lost)
// is still refused under battlefront-2013, by name, and no game is made.
#[test]
fn s002_skills_an_unbuilt_002_skill_is_refused_at_new_by_name() {
    let d = tempfile::tempdir().unwrap();
    let lost = card_with("bf-bazooka-joe", "[[skills]]\nname = \"grenadier-x\"");
    let t = new_joined(d.path(), "bf-bazooka-joe", "reapers", &[lost]);
    assert!(
        t.contains("`grenadier-x`") && t.contains("\"Grenadier X\"") && t.contains("not built"),
        "{t}"
    );
}
