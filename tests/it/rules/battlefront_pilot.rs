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
    let args = [
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        file.to_str().unwrap(),
        "--id",
        "g-join",
        "--now",
        dt::T0,
    ];
    dt::new_with_players(root, &args, &dt::players(7))
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
// separately" was not built before rules revision 7 (R604 builds it): in a game made before,
// `activate <joined hero>` is still refused, citing 003, naming the squad to activate instead,
// and nothing changes, so recorded games replay as they were played.
#[test]
fn joining_infantry_squads_a_joined_hero_activating_apart_is_refused_citing_003() {
    let mut st = joined(1);
    st.rules_revision = 6;
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

// ---------------------------------------------------------------------------------------------
// 003 "Piloting Vehicles" (rulings R260–R262)
// ---------------------------------------------------------------------------------------------

/// Under battlefront-2013: the allied walker `walk` (Vehicle 3, 2 health, Move 1) on E5 with a
/// hero `pilot` (the Pilot skill, Move 2) piloting it when `piloted` (else on A5), two axis
/// squads (`theirs` on `theirs_at`); `first` activates first.
fn piloted_vs(piloted: bool, theirs_at: &str, first: &str) -> State {
    let mut hero = unit("pilot", "hero", if piloted { None } else { Some("A5") });
    if piloted {
        hero.joins = Some("walk".into());
    }
    let s = scenario(
        vec![unit("walk", "walker", Some("E5")), hero],
        vec![
            unit("theirs", "sq", Some(theirs_at)),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let cards = vec![
        with_skill(
            card(
                "hero",
                UnitType::Hero,
                3,
                2,
                vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
            ),
            "pilot",
            None,
        ),
        card(
            "walker",
            UnitType::Vehicle,
            2,
            1,
            vec![weapon("cannon", WeaponRange::Upto(6), 1, 1)],
        ),
        squad("sq"),
    ];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    never_react(&mut st);
    begin(&mut st, first);
    st
}

// issue 18, 003 "Piloting Vehicles": "The Hero can begin the game mounted in a Vehicle"; 003
// "Blast Weapons" example: "Koshka (piloting Grand'ma) fires her walker's VK-916 howitzer". The
// shipped encounter-koshka puts Captain Koshka in Grand'ma: `new` accepts it and the board text
// shows her piloting (R260).
#[test]
fn piloting_vehicles_koshka_begins_the_game_mounted_in_grandma() {
    let dir = tempfile::tempdir().unwrap();
    let text = dustmail::dust_tactics::scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "encounter-koshka")
        .expect("encounter-koshka shipped")
        .1;
    assert!(text.contains("joins = \"grandma\""));
    // `new_with` registers the sides allies and axis: the SSU play as `axis` here.
    let o = new_with(dir.path(), &text.replace("id = \"ssu\"", "id = \"axis\""));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = dt::dustmail(dir.path(), &["show", "g-join", "--format", "text"]);
    let t = dt::text(&o);
    assert!(
        t.contains("koshka (axis, Captain Koshka): piloting grandma"),
        "{t}"
    );
}

// issue 18, 003 "Piloting Vehicles": "A Hero with the Pilot skill (see page 36) can pilot a
// Vehicle." Bazooka Joe has no Pilot skill: the Encounter with Joe put in the Pounder is refused
// at `new`, citing 003, and no game is made (R260).
#[test]
fn piloting_vehicles_a_hero_without_the_pilot_skill_is_refused_at_new() {
    let dir = tempfile::tempdir().unwrap();
    let o = new_with(dir.path(), &encounter_joining("bf-bazooka-joe", "pounder"));
    assert_ne!(o.status.code(), Some(0));
    let t = dt::text(&o);
    assert!(
        t.contains("cannot pilot") && t.contains("003 \"Piloting Vehicles\""),
        "{t}"
    );
    assert!(!dir.path().join("games/g-join/log.jsonl").exists());
}

// issue 18, 003 "Piloting Vehicles": "While in the Vehicle, the Hero cannot be targeted by an
// attack, and activates with the Vehicle"; 002 "Damage to Pilots": a pilot "cannot use their
// own weapons". An attack at the pilot is refused naming the vehicle; activating the walker
// turns the pilot's card too; the pilot's pistol does not fire from it.
#[test]
fn piloting_vehicles_the_hero_cannot_be_targeted_and_activates_with_the_vehicle() {
    let mut st = piloted_vs(true, "E2", "axis");
    let before = st.clone();
    let out = send(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at pilot\n  nothing",
        &mut ScriptedDice::new([]),
    );
    let r = first_result(&out).unwrap_err();
    assert!(
        r.contains("pilot pilots walk and cannot be targeted")
            && r.contains("003 \"Piloting Vehicles\""),
        "{r}"
    );
    assert!(st == before, "the refusal changed the game");
    accepted(&send(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &mut ScriptedDice::new([]),
    ));
    let out = send(
        &mut st,
        "allies",
        "activate walk\n  attack pistol at theirs\n  nothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).unwrap_err().contains("pistol"));
    accepted(&send(
        &mut st,
        "allies",
        "activate walk\n  move E4\n  nothing",
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "pilot").at, Some(sq("E4")));
    assert!(u(&st, "pilot").activated && u(&st, "walk").activated);
}

// issue 18, 003 "Piloting Vehicles": "The Hero can dismount before the Vehicle activates by
// performing a Move or March Move action" was not built before rules revision 7 (R607 builds
// it): in a game made before, `activate <pilot>` is still refused, citing 003, naming the
// vehicle to activate instead, and nothing changes, so recorded games replay unchanged.
#[test]
fn piloting_vehicles_dismounting_is_refused_citing_003() {
    let mut st = piloted_vs(true, "A1", "allies");
    st.rules_revision = 6;
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate pilot\n  move A5\n  nothing",
        &mut ScriptedDice::new([]),
    );
    let r = first_result(&out).unwrap_err();
    assert!(
        r.contains("can dismount before the Vehicle activates")
            && r.contains("not implemented yet under battlefront-2013")
            && r.contains("[003 \"Piloting Vehicles\"]"),
        "{r}"
    );
    assert!(st == before, "the refusal changed the game");
}

// issue 18, 003 "Piloting Vehicles": "Count the Hero and Vehicle as a single unit when
// determining how many units have yet to activate for the Passing rule" (R262). The walker
// and its pilot are one unit against two axis squads: allies may pass. Off the walker the hero
// is a unit of its own: two against two, no pass.
#[test]
fn piloting_vehicles_hero_and_vehicle_count_as_a_single_unit_for_passing() {
    let mut st = piloted_vs(true, "A1", "allies");
    let out = send(&mut st, "allies", "pass", &mut ScriptedDice::new([]));
    assert!(first_result(&out).is_ok(), "{:?}", first_result(&out));
    let mut st = piloted_vs(false, "A1", "allies");
    let out = send(&mut st, "allies", "pass", &mut ScriptedDice::new([]));
    let r = first_result(&out).unwrap_err();
    assert!(r.contains("allies has 2 unit(s) still to activate"), "{r}");
}

// issue 18, 003 "Piloting Vehicles": "If the Vehicle is destroyed while the Hero is piloting it,
// the pilot's player rolls a die. On a roll of [army] or [target], the Hero escapes unharmed.
// Otherwise the Hero takes a point of damage. They are then placed into any square the Vehicle
// occupied, counting as having activated for this turn" (the symbols, lost in 003's OCR, are
// 002's; R261). Two hits destroy the walker; a shield costs the pilot a point, a target does not.
#[test]
fn piloting_vehicles_a_destroyed_vehicles_pilot_rolls_to_escape() {
    for (escape, health) in [(5u8, 2u8), (3, 3)] {
        let mut st = piloted_vs(true, "E2", "axis");
        // Four dice, two army symbols: two hits on the Vehicle 3 walker (no save in the open).
        let mut d = ScriptedDice::new([1, 2, 5, 5, escape]);
        let out = send(
            &mut st,
            "axis",
            "activate theirs\n  attack gun at walk\n  nothing",
            &mut d,
        );
        accepted(&out);
        assert_eq!(d.remaining(), 0, "{}", texts(&out));
        assert!(u(&st, "walk").destroyed, "{}", texts(&out));
        let p = u(&st, "pilot");
        assert_eq!(
            (p.at, p.joined.clone(), p.health, p.activated),
            (Some(sq("E5")), None, health, true),
            "escape die {escape}: {}",
            texts(&out)
        );
        assert!(texts(&out).contains("003 \"Piloting Vehicles\""));
    }
}

// issue 18 item 4, 003 §12 Encounter with Battlegroup Koshka, Captain Koshka piloting Grand'ma:
// two players (Taskforce Joe and Battlegroup Koshka) play it to its end by signed mails run
// through the real pipeline; the reports show Koshka piloting; replay and audit pass.
#[test]
fn piloting_vehicles_encounter_koshka_played_to_its_end_by_signed_mail() {
    let (flat, st) =
        crate::rules::battlefront_scenarios::play_by_mail("encounter-koshka", ["allies", "ssu"], 5);
    assert!(flat.contains("piloting grandma"), "no pilot in the reports");
    assert!(st.result.is_some());
}
