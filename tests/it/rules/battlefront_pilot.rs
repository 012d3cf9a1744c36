//! Issue 18 under battlefront-2013: heroes joining squads (003 "Joining Infantry Squads",
//! "Passing"). Each test is named after 003's section, quotes its sentence, and drives the real
//! binary or the engine with scripted dice.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;
use std::path::Path;

/// `dustmail new --ruleset battlefront-2013` of the scenario file `text` in a fresh home.
fn new_with(root: &Path, text: &str) -> std::process::Output {
    dt::init_home(root, "file");
    let file = root.join("joined.toml");
    std::fs::write(&file, text).unwrap();
    let ps = dt::players(7);
    let mut args: Vec<String> = [
        "new",
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        file.to_str().unwrap(),
        "--id",
        "g-join",
        "--now",
        dt::T0,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for p in &ps {
        args.push("--player".into());
        args.push(format!(
            "{}={}:{}",
            p.side,
            p.address,
            dustmail::crypto::public_key_text(&p.key.verifying_key())
        ));
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    dt::dustmail(root, &a)
}

/// The shipped Encounter with `joins = "<squad>"` added under the card line of `hero_card`.
fn encounter_joining(hero_card: &str, squad: &str) -> String {
    let text = dustmail::dust_tactics::scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "encounter")
        .expect("encounter shipped")
        .1;
    let line = format!("card = \"{hero_card}\"\n");
    assert!(text.contains(&line), "{hero_card} in encounter");
    text.replacen(&line, &format!("{line}joins = \"{squad}\"\n"), 1)
}

/// A hero (Move `hero_move`) joined to a squad of four (Move 1) on E5 under battlefront-2013,
/// two axis squads on row 1 (`theirs` on `theirs_at`); `first` activates first.
fn joined_vs(hero_move: u8, theirs_at: &str, first: &str) -> State {
    let mut hero = unit("hq", "hero", Some("E5"));
    hero.joins = Some("ours".into());
    let s = scenario(
        vec![unit("ours", "sq", Some("E5")), hero],
        vec![
            unit("theirs", "sq", Some(theirs_at)),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let cards = vec![
        card(
            "hero",
            UnitType::Hero,
            3,
            hero_move,
            vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
        ),
        squad("sq"),
    ];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    begin(&mut st, first);
    st
}

/// [`joined_vs`] with the axis squads far off and allies first.
fn joined(hero_move: u8) -> State {
    joined_vs(hero_move, "A1", "allies")
}

// issue 18 item 1: 003 "Joining Infantry Squads": "A Hero can join an Infantry Squad or Support
// Weapon that has the same Armour rating" (and 003 "Entering the Board": a hero off the board
// joins a unit also off the board and they enter together). `new` accepts Bazooka Joe joined
// to the Grim Reapers (both Infantry 2); the created line records the join.
#[test]
fn joining_infantry_squads_a_hero_joins_a_squad_of_the_same_armour_rating_at_new() {
    let dir = tempfile::tempdir().unwrap();
    let o = new_with(dir.path(), &encounter_joining("bf-bazooka-joe", "reapers"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let log = std::fs::read_to_string(dir.path().join("games/g-join/log.jsonl")).unwrap();
    // The created line records the scenario, join included, for replay.
    assert!(
        log.contains(r#"joins = \"reapers\""#),
        "no join in the created line"
    );
}

// issue 18 item 1: 003 "Joining Infantry Squads": "... that has the same Armour rating". Stefan
// (Infantry 2) joined to the Heavy Laser Grenadiers (Infantry 3) is refused at `new`, citing
// 003, and no game is created.
#[test]
fn joining_infantry_squads_a_hero_of_another_armour_rating_is_refused_citing_003() {
    let dir = tempfile::tempdir().unwrap();
    let o = new_with(dir.path(), &encounter_joining("bf-stefan", "lasers"));
    assert_ne!(o.status.code(), Some(0));
    let t = dt::text(&o);
    assert!(
        t.contains("same Armour rating") && t.contains("003 \"Joining Infantry Squads\""),
        "{t}"
    );
    assert!(!dir.path().join("games/g-join/log.jsonl").exists());
}

// issue 18 item 1: 003 "Joining Infantry Squads": "If the Hero and the unit's movement rates are
// different, the combined unit has the lower movement rate of the two." A Move 2 hero joined to
// a Move 1 squad: a move of two squares is refused, one square moves both.
#[test]
fn joining_infantry_squads_the_combined_unit_has_the_lower_movement_rate() {
    let mut st = joined(2);
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate("ours", vec![mv("E3"), nothing()]),
        &mut d,
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("E3"), "{reason}");
    assert_eq!(u(&st, "ours").at, Some(sq("E5")));
    let out = cmd(
        &mut st,
        "allies",
        activate("ours", vec![mv("E4"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(u(&st, "ours").at, Some(sq("E4")));
    assert_eq!(u(&st, "hq").at, Some(sq("E4")));
    assert!(u(&st, "hq").activated, "the hero activates with its squad");
}

// issue 18 item 1: 003 "Passing": "If a player has fewer units (including Heroes that have
// joined other units) that have yet to activate than their opponent, they may elect to pass".
// A squad with its joined hero is two units against two axis squads: allies may not pass.
#[test]
fn passing_heroes_that_have_joined_other_units_count_for_the_pass() {
    let mut st = joined(1);
    let out = send(&mut st, "allies", "pass", &mut ScriptedDice::new([]));
    let r = first_result(&out).unwrap_err();
    assert!(r.contains("allies has 2 unit(s) still to activate"), "{r}");
}

// issue 18 item 1: 003 "Joining Infantry Squads": "If a Hero is in the same square as a unit that
// they can join, they are treated as one unit if either of them are targeted by an attack. The
// owning player assigns hits between them using the normal rules". An attack at the hero hits
// the joined unit; the owner, asked, puts both unsaved hits on the hero. (This engine behaviour
// predates the slice; only `new` refused the join.)
#[test]
fn joining_infantry_squads_the_owner_assigns_hits_between_hero_and_squad() {
    let mut st = joined_vs(1, "E2", "axis");
    for (side, order) in [
        ("allies", "standing react any never"),
        ("allies", "standing casualties ours ask"),
    ] {
        accepted(&send(&mut st, side, order, &mut ScriptedDice::new([])));
    }
    // Four dice, two army symbols (hits); two Infantry Save dice, no army symbol.
    let mut d = ScriptedDice::new([1, 2, 3, 4, 5, 6]);
    let out = cmd(
        &mut st,
        "axis",
        activate("theirs", vec![attack("gun", "hq"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(texts(&out).contains("2 hits"), "{}", texts(&out));
    assert_eq!(awaited(&st), vec![("allies".into(), "casualties".into())]);
    let out = send(&mut st, "allies", "casualties ours: hq hq", &mut Cycle(0));
    assert_eq!(first_result(&out), Ok("casualties ours: hq hq".into()));
    assert_eq!(u(&st, "hq").health, 1);
    assert_eq!(u(&st, "ours").models.len(), 4);
}

// issue 18 item 1: 003 "Joining Infantry Squads": "Alternatively, the Hero may activate
// separately" is not built: `activate <joined hero>` is refused, citing 003, naming the squad to
// activate instead, and nothing changes.
#[test]
fn joining_infantry_squads_a_joined_hero_activating_apart_is_refused_citing_003() {
    let mut st = joined(1);
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate hq\n  nothing\n  nothing",
        &mut ScriptedDice::new([]),
    );
    let r = first_result(&out).unwrap_err();
    assert!(
        r.contains("may activate separately")
            && r.contains("not implemented yet under battlefront-2013")
            && r.contains("[003 \"Joining Infantry Squads\"]"),
        "{r}"
    );
    match &out.results[0].outcome {
        dustmail::game::CommandOutcome::Refused { instead, .. } => {
            assert!(instead.contains("activate ours"), "{instead}")
        }
        o => panic!("{o:?}"),
    }
    assert!(st == before, "the refusal changed the game");
}
