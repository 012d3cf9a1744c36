//! Issue 12 items 3 and 5: the skills of 004's skills reference. A card naming a skill the engine
//! does not implement is refused at `new`; the skills implemented here each get a test quoting
//! 004's text (seed 004, "Skills"). Orders go through the real state machine; `new` through the
//! real binary.

use crate::support::dt;
use crate::support_flow::*;

use dustmail::dust_tactics::cards::{self, parse_card_for_new};
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::skill::{Skill, NOT_IN_ENUM};
use dustmail::game::ScriptedDice;

/// A shipped card's text with `skill` added and its id renamed to `id` (file `id.toml`).
fn card_with(base: &str, id: &str, skill: &str) -> (String, String) {
    let (file, text) = cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == format!("{base}.toml"))
        .expect("shipped card");
    let stem = file.trim_end_matches(".toml");
    let text = text
        .replacen(&format!("id = \"{stem}\""), &format!("id = \"{id}\""), 1)
        .replacen(
            "[[weapons]]",
            &format!("[[skills]]\nname = \"{skill}\"\n\n[[weapons]]"),
            1,
        );
    (format!("{id}.toml"), text)
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// `dustmail new --cards DIR` (plus any extra arguments) on a fresh home.
fn new_with_cards(
    files: &[(String, String)],
    extra: &[&str],
) -> (std::process::Output, dt_home::Dirs) {
    let dirs = dt_home::Dirs::new();
    dt::init_home(dirs.home.path(), "file");
    for (f, t) in files {
        std::fs::write(dirs.cards.path().join(f), t).unwrap();
    }
    let ps = dt::players(3);
    let mut args: Vec<String> = vec![
        "new".into(),
        "--seed".into(),
        hex::encode([7u8; 32]),
        "--id".into(),
        "g-skills".into(),
        "--now".into(),
        dt::T0.into(),
        "--cards".into(),
        dirs.cards.path().display().to_string(),
    ];
    if !extra.contains(&"--scenario") {
        args.extend(["--scenario".to_string(), "skirmish".to_string()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
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
    (dt::dustmail(dirs.home.path(), &a), dirs)
}

mod dt_home {
    pub struct Dirs {
        pub home: tempfile::TempDir,
        pub cards: tempfile::TempDir,
    }
    impl Dirs {
        pub fn new() -> Dirs {
            Dirs {
                home: super::tempdir(),
                cards: super::tempdir(),
            }
        }
        /// Whether `new` left a game directory behind.
        pub fn has_game(&self) -> bool {
            self.home.path().join("games").join("g-skills").exists()
        }
    }
}

// ---------------------------------------------------------------------------------------------
// No card carries a rule the engine ignores
// ---------------------------------------------------------------------------------------------

#[test]
fn skills_004_a_card_with_a_skill_the_engine_ignores_is_refused_at_new() {
    // Issue 12 item 3: "A card naming a skill or weapon rule the engine does not implement is
    // refused at `new` with the name and the file." Every 004 skill is implemented since
    // Commissar landed (R478): a skill no seed has is refused the same way. (This test named
    // Hover until aircraft landed, R444, Recovery Vehicle until R485, Air Alt until R560, Tank
    // Riders until R474, then Commissar until R478.)
    let (o, dirs) = new_with_cards(
        &[card_with("luther", "carpet-luther", "flying-carpet")],
        &[],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(err.contains("carpet-luther.toml"), "{err}");
    assert!(err.contains("`flying-carpet`"), "{err}");
    assert!(!dirs.has_game(), "a refused `new` creates no game");
}

#[test]
fn skills_004_the_same_directory_without_the_skill_is_accepted() {
    // Issue 12 item 3: the refusal is the skill's, not the directory's: the same card with an
    // implemented skill (Take Aim) makes a game.
    let (o, dirs) = new_with_cards(&[card_with("luther", "aim-luther", "take-aim")], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(dirs.has_game());
}

#[test]
fn skills_004_every_skill_the_engine_does_not_implement_is_refused_with_its_name_and_file() {
    // Issue 12 item 3: every 004 skill the engine does not implement, whether or not the enum
    // names it, is refused when a card for a new game carries it; the shipped cards all load.
    let mut names: Vec<String> = Skill::ALL
        .iter()
        .filter(|s| !s.is_implemented())
        .map(|s| s.id().to_string())
        .collect();
    names.extend(NOT_IN_ENUM.iter().map(|(id, _, _)| id.to_string()));
    // None is left (session 6 left Commissar, Tank Riders and Carry Capacity: Vehicle; Tank
    // Riders landed with R474, Carry Capacity: Vehicle with R476, Commissar with R478): a card
    // naming a skill no seed has is still refused with its name and file.
    assert!(names.is_empty(), "{names:?}");
    let (file, text) = card_with("joseph-brown", "x-hero", "flying-carpet");
    let e = parse_card_for_new(&file, &text).unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.field.as_str()),
        ("x-hero.toml", "skills[0].name")
    );
    assert!(
        e.reason
            .contains("`flying-carpet` is not a skill the engine knows"),
        "{e}"
    );
    for n in &names {
        let (file, text) = card_with("joseph-brown", "x-hero", n);
        let e = parse_card_for_new(&file, &text).unwrap_err();
        assert_eq!(e.file, "x-hero.toml");
        assert_eq!(e.field, "skills[0].name", "{e}");
        assert!(e.reason.contains(&format!("`{n}`")), "{e}");
        assert!(e.reason.contains("refused"), "{e}");
        assert!(e.instead.contains("take-aim"), "{e}");
    }
    // Command Squad and NCO Command Squad are a squad's skills whose card names its specialists
    // (R211, R522): a hero card carrying one is refused (rules::command_squads and
    // rules::joining_004 cover their cards). Carry Capacity needs the number its card prints
    // (`value`, R463; rules::carry_004 covers its card), and so does Tank Riders (R467;
    // rules::tank_riders_area_004 covers its card), and Carry Capacity: Vehicle its armour
    // value (R476; rules::carry_vehicle_004 covers its card).
    for s in Skill::ALL.iter().filter(|s| {
        s.is_implemented()
            && **s != Skill::CommandSquad
            && **s != Skill::NcoCommandSquad
            && **s != Skill::CarryCapacity
            && **s != Skill::TankRiders
            && **s != Skill::CarryCapacityVehicle
    }) {
        let (file, text) = card_with("joseph-brown", "x-hero", s.id());
        assert!(parse_card_for_new(&file, &text).is_ok(), "{s}");
    }
    for (f, t) in cards::builtin() {
        parse_card_for_new(f, t).unwrap_or_else(|e| panic!("{e}"));
    }
}

// ---------------------------------------------------------------------------------------------
// 004 "Take Aim"
// ---------------------------------------------------------------------------------------------

/// A hero (2 dice 1/1, range 4) with `skills`, on E5; a four-model squad `x1` on E2.
fn hero_against_squad(skills: &[&str]) -> dustmail::dust_tactics::state::State {
    let mut h = card(
        "aimer",
        UnitType::Hero,
        3,
        1,
        vec![weapon("gun", WeaponRange::Upto(4), 2, 1)],
    );
    for s in skills {
        h = with_skill(h, s, None);
    }
    let mut st = start_defaults(
        scenario(
            vec![unit("h", "aimer", Some("E5"))],
            vec![unit("x1", "sq", Some("E2"))],
        ),
        vec![h, squad("sq")],
    );
    begin(&mut st, "allies");
    st
}

#[test]
fn take_aim_004_a_sustained_attack_reverses_the_dice_instead_of_rerolling() {
    // Issue 12 item 3. 004 "Take Aim": "When a hero with this skill makes a SUSTAINED ATTACK,
    // reverse the die results (consider [miss] as [hit] and [hit] as [miss]) instead of
    // re-rolling the dice." Two misses (5, 6) reversed are two hits; nothing is re-rolled.
    let mut st = hero_against_squad(&["take-aim"]);
    let mut d = ScriptedDice::new([5, 6, 5, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![sustained("gun", "x1")]),
        &mut d,
    );
    accepted(&out);
    assert!(texts(&out).contains("take-aim"), "{}", texts(&out));
    assert_eq!(u(&st, "x1").models.len(), 2, "{}", texts(&out));
    assert_eq!(d.remaining(), 2, "no die re-rolled");
}

#[test]
fn take_aim_004_without_the_skill_a_sustained_attack_rerolls() {
    // Issue 12 item 3, the control: the same hero without Take Aim re-rolls his two misses
    // (004 "Sustained Attack") and, missing again, does no damage.
    let mut st = hero_against_squad(&[]);
    let mut d = ScriptedDice::new([5, 6, 5, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![sustained("gun", "x1")]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(u(&st, "x1").models.len(), 4, "{}", texts(&out));
    assert_eq!(d.remaining(), 0);
}

#[test]
fn take_aim_004_is_not_shared_with_the_squad() {
    // Issue 12 item 3. 004 "Take Aim": "A hero with this skill does not share it with any squad
    // he joins." A squad whose card carries it (a card error the engine tolerates) still
    // re-rolls: only a hero's own weapon lines take aim.
    let c = with_skill(squad("aimers"), "take-aim", None);
    let mut st = start_defaults(
        scenario(
            vec![unit("a1", "aimers", Some("E5"))],
            vec![unit("x1", "sq", Some("E2"))],
        ),
        vec![c, squad("sq")],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([5, 6, 5, 6, 5, 6, 5, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![sustained("gun", "x1")]),
        &mut d,
    );
    accepted(&out);
    assert!(!texts(&out).contains("take-aim"), "{}", texts(&out));
    assert_eq!(u(&st, "x1").models.len(), 4, "{}", texts(&out));
}

// ---------------------------------------------------------------------------------------------
// 004 "Amphibious Unit"
// ---------------------------------------------------------------------------------------------

fn by_the_water(card_skills: &[&str]) -> dustmail::dust_tactics::state::State {
    let mut c = squad("swimmers");
    for s in card_skills {
        c = with_skill(c, s, None);
    }
    let mut s = scenario(
        vec![unit("a1", "swimmers", Some("E5"))],
        vec![unit("x1", "sq", Some("A9"))],
    );
    s.board.set_terrain(sq("E4"), Terrain::DeepWater);
    let mut st = start_defaults(s, vec![c, squad("sq")]);
    begin(&mut st, "allies");
    st
}

#[test]
fn amphibious_unit_004_can_enter_water() {
    // Issue 12 item 3. 004 "Amphibious Unit": "A unit with this skill can enter water and land."
    let mut st = by_the_water(&["amphibious"]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E4"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E4")));
}

#[test]
fn amphibious_unit_004_without_the_skill_water_is_closed() {
    // Issue 12 item 3, the control. 004 "Terrain": deep water is closed to units without Jump.
    let mut st = by_the_water(&[]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E4"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("deep water"), "{reason}");
    assert_eq!(u(&st, "a1").at, Some(sq("E5")));
}

// ---------------------------------------------------------------------------------------------
// 004 "Rare Unit"
// ---------------------------------------------------------------------------------------------

/// The skirmish scenario with a second Ludwig for the axis.
fn two_ludwigs() -> String {
    let text = dustmail::dust_tactics::scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "skirmish")
        .expect("skirmish")
        .1
        .to_string();
    format!("{text}\n[[sides.units]]\nid = \"ludwig2\"\ncard = \"ludwig\"\nat = \"C1\"\n")
}

#[test]
fn rare_unit_004_a_side_may_field_one_of_each_rare_unit() {
    // Issue 12 item 3. 004 "Rare Unit": "A player may only include one of each rare unit in his
    // army." A Ludwig card marked rare, fielded twice by the axis: `new` is refused, naming the
    // card and both units, and creates no game.
    let dir = tempdir();
    let scen = dir.path().join("two-ludwigs.toml");
    std::fs::write(&scen, two_ludwigs()).unwrap();
    let scen = scen.display().to_string();
    let (o, dirs) = new_with_cards(
        &[card_with("ludwig", "ludwig", "rare-unit")],
        &["--scenario", &scen],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(err.contains("rare unit `ludwig` twice"), "{err}");
    assert!(err.contains("ludwig2"), "{err}");
    assert!(!dirs.has_game());
    // Without the skill, the same scenario makes a game.
    let (o, dirs) = new_with_cards(&[], &["--scenario", &scen]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(dirs.has_game());
}

// ---------------------------------------------------------------------------------------------
// 004 "Scout Vehicle"
// ---------------------------------------------------------------------------------------------

/// A Movement 2 vehicle `v` on E9 with `skills`; an axis squad far off on A1.
fn scout_game(skills: &[&str]) -> dustmail::dust_tactics::state::State {
    let mut c = card(
        "scout",
        UnitType::Vehicle,
        3,
        2,
        vec![weapon("gun", WeaponRange::Upto(2), 1, 1)],
    );
    for s in skills {
        c = with_skill(c, s, None);
    }
    let mut st = start_defaults(
        scenario(
            vec![unit("v", "scout", Some("I9"))],
            vec![unit("x1", "sq", Some("A1"))],
        ),
        vec![c, squad("sq")],
    );
    begin(&mut st, "allies");
    st
}

#[test]
fn scout_vehicle_004_moves_2_extra_spaces_in_the_first_round() {
    // Issue 12 item 3. 004 "Scout Vehicle": "During the first round only, this vehicle can move
    // 2 extra spaces." Movement 2 + 2: I9 to I5 in one MOVE.
    let mut st = scout_game(&["scout-vehicle"]);
    assert_eq!(st.round, 1);
    let out = cmd(
        &mut st,
        "allies",
        activate("v", vec![mv("I5"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "v").at, Some(sq("I5")));
}

#[test]
fn scout_vehicle_004_the_extra_spaces_are_spent_once() {
    // Issue 12 item 3. 004 "Scout Vehicle": 2 extra spaces in the first round, not on each MOVE
    // (R404): 4 then 4 is refused, 4 then 2 accepted.
    let mut st = scout_game(&["scout-vehicle"]);
    let out = cmd(
        &mut st,
        "allies",
        activate("v", vec![mv("I5"), mv("I1")]),
        &mut ScriptedDice::new([]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("cannot move"), "{reason}");
    let out = cmd(
        &mut st,
        "allies",
        activate("v", vec![mv("I5"), mv("I3")]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "v").at, Some(sq("I3")));
}

#[test]
fn scout_vehicle_004_without_the_skill_movement_is_the_card_s() {
    // Issue 12 item 3, the control: Movement 2 does not reach I5 from I9.
    let mut st = scout_game(&[]);
    let out = cmd(
        &mut st,
        "allies",
        activate("v", vec![mv("I5"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("cannot move"), "{reason}");
}

// ---------------------------------------------------------------------------------------------
// 004 "Superior Reactive Fire"
// ---------------------------------------------------------------------------------------------

#[test]
fn superior_reactive_fire_004_rolls_three_dice() {
    // Issue 12 item 3. 004 "Superior Reactive Fire": "When this unit attempts to use reactive
    // fire, roll 3 dice instead of 1. If you roll at least one [hit], you may perform the
    // attack." Misses on the first two dice, a hit on the third: it fires.
    let c = with_skill(squad("srf"), "superior-reactive-fire", None);
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "srf", Some("E2"))],
    );
    let mut st = start(s, vec![squad("sq"), c]);
    begin(&mut st, "allies");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    let mut d = ScriptedDice::new([
        5, 5, 2, /* gun */ 5, 5, 5, 5, /* round 2 */ 1, 5, 5, 5, 5, 5,
    ]);
    let out = cmd(
        &mut st,
        "axis",
        dustmail::dust_tactics::orders::Command::React {
            unit: Some("x1".into()),
        },
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    let attempt = out
        .happenings
        .iter()
        .find(|h| h.text.contains("attempts"))
        .expect("an attempt");
    assert_eq!(attempt.rolls[0].faces, vec![5, 5, 2]);
    assert!(attempt.text.contains("HIT, it fires"), "{}", attempt.text);
}

// ---------------------------------------------------------------------------------------------
// 004 "Badass"
// ---------------------------------------------------------------------------------------------

/// Round 1: squad `a1` (E9) fires its one-box limited weapon at `x1` (E4, out of x1's range 4,
/// so no reactive fire); x1 does nothing and the round ends. Returns the outcome of a1 firing
/// the same weapon in round 2.
fn fire_the_box_twice(
    skills: &[&str],
) -> (
    dustmail::dust_tactics::state::State,
    dustmail::game::Outcome,
) {
    let mut boxed = weapon("box", WeaponRange::Upto(6), 1, 1);
    boxed.ammo = Some(1);
    let mut c = card("boxers", UnitType::Squad, 4, 1, vec![boxed]);
    for s in skills {
        c = with_skill(c, s, None);
    }
    let mut st = start_defaults(
        scenario(
            vec![unit("a1", "boxers", Some("E9"))],
            vec![unit("x1", "sq", Some("E4"))],
        ),
        vec![c, squad("sq")],
    );
    begin(&mut st, "allies");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("box", "x1"), nothing()]),
        &mut ScriptedDice::new([5]),
    ));
    assert_eq!(u(&st, "a1").ammo.get("box"), Some(&0));
    let mut d = ScriptedDice::new([/* initiative */ 1, 5, 5, 5, 5, 5]);
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut d,
    ));
    assert_eq!(st.round, 2);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("box", "x1"), nothing()]),
        &mut ScriptedDice::new([5]),
    );
    (st, out)
}

#[test]
fn badass_004_limited_ammo_is_unlimited_but_only_the_boxes_per_activation() {
    // Issue 12 item 3. 004 "Badass": "All of the unit's limited ammo weapons are considered
    // unlimited, but it can use only up to the limited ammo per activation." The one box spent
    // in round 1 is there again in round 2 (R405).
    let (st, out) = fire_the_box_twice(&["badass"]);
    accepted(&out);
    assert!(texts(&out).contains("fires box"), "{}", texts(&out));
    assert_eq!(u(&st, "a1").ammo.get("box"), Some(&0));
}

#[test]
fn badass_004_without_the_skill_the_box_is_spent_for_good() {
    // Issue 12 item 3, the control. 004 "Limited Ammo Weapons": a spent box is gone.
    let (_, out) = fire_the_box_twice(&[]);
    let (reason, _) = refused(&out);
    assert!(reason.contains("out of ammo"), "{reason}");
}

#[test]
fn badass_004_only_up_to_the_boxes_in_one_activation() {
    // Issue 12 item 3. 004 "Badass": "... but it can use only up to the limited ammo per
    // activation": four soldiers, one box: one die is fired, not four (an activation holds one
    // attack, 004 "Actions"). A guard of the second half: it held before Badass was implemented.
    let mut boxed = weapon("box", WeaponRange::Upto(6), 1, 1);
    boxed.ammo = Some(1);
    let c = with_skill(
        card("boxers", UnitType::Squad, 4, 1, vec![boxed]),
        "badass",
        None,
    );
    let mut st = start_defaults(
        scenario(
            vec![unit("a1", "boxers", Some("E9"))],
            vec![unit("x1", "sq", Some("E4"))],
        ),
        vec![c, squad("sq")],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([5]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("box", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert!(texts(&out).contains("(1 carrier"), "{}", texts(&out));
    assert_eq!(d.remaining(), 0);
}

// ---------------------------------------------------------------------------------------------
// 004 "Medal of Honor"
// ---------------------------------------------------------------------------------------------

/// A hero on E9 with two 1-die lines (range 6) and `skills`; squad `x1` on E4, out of its reach.
fn medal_game(skills: &[&str]) -> dustmail::dust_tactics::state::State {
    let mut h = card(
        "medalist",
        UnitType::Hero,
        3,
        1,
        vec![
            weapon("gun", WeaponRange::Upto(6), 1, 1),
            weapon("gun2", WeaponRange::Upto(6), 1, 1),
        ],
    );
    for s in skills {
        h = with_skill(h, s, None);
    }
    let mut st = start_defaults(
        scenario(
            vec![unit("h", "medalist", Some("E9"))],
            vec![unit("x1", "sq", Some("E4"))],
        ),
        vec![h, squad("sq")],
    );
    begin(&mut st, "allies");
    st
}

#[test]
fn medal_of_honor_004_rerolls_one_die_and_applies_the_new_result() {
    // Issue 12 item 3. 004 "Medal of Honor": "When a hero uses this skill, reroll one combat die
    // during an attack and apply the new result." The miss (5) is re-rolled into a hit (1).
    let mut st = medal_game(&["medal-of-honor"]);
    let mut d = ScriptedDice::new([5, 1]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![attack("gun", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(texts(&out).contains("Medal of Honor"), "{}", texts(&out));
    assert_eq!(u(&st, "x1").models.len(), 3, "{}", texts(&out));
}

#[test]
fn medal_of_honor_004_one_die_per_attack_not_per_line() {
    // Issue 12 item 3. 004 "Medal of Honor": "reroll one combat die during an attack ... A hero
    // can only use this skill once per round." Two lines miss: only the first line's die is
    // re-rolled (and misses again: the new result stands).
    let mut st = medal_game(&["medal-of-honor"]);
    let mut d = ScriptedDice::new([5, 6, 5]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "h",
            vec![
                dustmail::dust_tactics::orders::Action::Attack {
                    fire: vec![fire("gun", "x1"), fire("gun2", "x1")],
                },
                nothing(),
            ],
        ),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(texts(&out).matches("Medal of Honor").count(), 1);
    assert_eq!(u(&st, "x1").models.len(), 4);
}

#[test]
fn medal_of_honor_004_without_the_skill_a_miss_stands() {
    // Issue 12 item 3, the control: no re-roll.
    let mut st = medal_game(&[]);
    let mut d = ScriptedDice::new([5]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![attack("gun", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "x1").models.len(), 4);
}

// ---------------------------------------------------------------------------------------------
// 004 "Frenzy"
// ---------------------------------------------------------------------------------------------

/// A hero (2 dice 1/1, range 6) with `skills` on E9 against `target` (a card) on E4.
fn frenzy_game(skills: &[&str], target: Card) -> dustmail::dust_tactics::state::State {
    let mut h = card(
        "frenzied",
        UnitType::Hero,
        3,
        1,
        vec![weapon("gun", WeaponRange::Upto(6), 2, 1)],
    );
    for s in skills {
        h = with_skill(h, s, None);
    }
    let id = target.id.clone();
    let mut st = start_defaults(
        scenario(
            vec![unit("h", "frenzied", Some("E9"))],
            vec![unit("x1", &id, Some("E4"))],
        ),
        vec![h, target],
    );
    begin(&mut st, "allies");
    st
}

#[test]
fn frenzy_004_rerolls_every_hit_until_all_dice_miss() {
    // Issue 12 item 3. 004 "Frenzy": "When a hero uses this skill, deal damage for each [hit]
    // result and then reroll all [hit] results. Continue dealing damage and rerolling each [hit]
    // result until all dice show [miss] results." 1 and 5: one hit; its re-roll 2 hits again,
    // then 6 misses: 2 damage.
    let mut st = frenzy_game(&["frenzy"], squad("sq"));
    let mut d = ScriptedDice::new([1, 5, 2, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![attack("gun", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(texts(&out).contains("frenzy re-roll"), "{}", texts(&out));
    assert_eq!(u(&st, "x1").models.len(), 2, "{}", texts(&out));
}

#[test]
fn frenzy_004_not_against_vehicles() {
    // Issue 12 item 3. 004 "Frenzy": "This skill can only be used when the hero fires on
    // soldiers, not vehicles." The hit is not re-rolled.
    let tank = card("tank", UnitType::Vehicle, 5, 1, vec![]);
    let mut st = frenzy_game(&["frenzy"], tank);
    let mut d = ScriptedDice::new([1, 5]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![attack("gun", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "x1").health, 4, "{}", texts(&out));
}

#[test]
fn frenzy_004_without_the_skill_a_hit_is_one_damage() {
    // Issue 12 item 3, the control.
    let mut st = frenzy_game(&[], squad("sq"));
    let mut d = ScriptedDice::new([1, 5]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![attack("gun", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "x1").models.len(), 3);
}

// ---------------------------------------------------------------------------------------------
// 004 "Wiederbelebungsserum"
// ---------------------------------------------------------------------------------------------

/// The Frenzy duel with a hero carrying `skills`, wounded down to `health` of 3; two hits (1, 2).
fn serum_duel(
    skills: &[&str],
    target: Card,
    health: u8,
) -> (
    dustmail::dust_tactics::state::State,
    dustmail::game::Outcome,
) {
    let mut st = frenzy_game(skills, target);
    st.unit_mut("h").unwrap().health = health;
    let mut d = ScriptedDice::new([1, 2]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![attack("gun", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    (st, out)
}

#[test]
fn wiederbelebungsserum_004_the_hero_recovers_one_health_per_hit() {
    // Issue 12 item 3. 004 "Wiederbelebungsserum": "When this hero attacks an enemy squad or
    // hero, he recovers 1 health point for each [hit] result. He recovers health after all
    // weapon lines are resolved." Two hits: 1 health becomes 3.
    let (st, out) = serum_duel(&["wiederbelebungsserum"], squad("sq"), 1);
    assert_eq!(u(&st, "x1").models.len(), 2, "{}", texts(&out));
    assert_eq!(u(&st, "h").health, 3, "{}", texts(&out));
    let t = texts(&out);
    assert!(
        t.find("fires gun").unwrap() < t.find("Wiederbelebungsserum").unwrap(),
        "{t}"
    );
}

#[test]
fn wiederbelebungsserum_004_not_beyond_the_starting_health() {
    // Issue 12 item 3. 004 "Wiederbelebungsserum": "He cannot recover more than his starting
    // health points." Two hits at 2 of 3: 3.
    let (st, out) = serum_duel(&["wiederbelebungsserum"], squad("sq"), 2);
    assert_eq!(u(&st, "h").health, 3, "{}", texts(&out));
}

#[test]
fn wiederbelebungsserum_004_not_from_a_vehicle() {
    // Issue 12 item 3. 004 "Wiederbelebungsserum": "an enemy squad or hero": hits on a vehicle
    // heal nothing.
    let tank = card("tank", UnitType::Vehicle, 5, 1, vec![]);
    let (st, out) = serum_duel(&["wiederbelebungsserum"], tank, 1);
    assert_eq!(u(&st, "x1").health, 3, "{}", texts(&out));
    assert_eq!(u(&st, "h").health, 1, "{}", texts(&out));
}

#[test]
fn wiederbelebungsserum_004_without_the_skill_no_recovery() {
    // Issue 12 item 3, the control.
    let (st, _) = serum_duel(&[], squad("sq"), 1);
    assert_eq!(u(&st, "h").health, 1);
}

// ---------------------------------------------------------------------------------------------
// 004 "Heroic Attack"
// ---------------------------------------------------------------------------------------------

/// A hero `h` (health 3) on E9 with `skills` activates with `first` (his actions); then the
/// axis squad on E6 (gun 1 die, range 4) attacks him with `faces`.
fn heroic_round(
    skills: &[&str],
    first: Vec<dustmail::dust_tactics::orders::Action>,
    faces: &[u8],
) -> (
    dustmail::dust_tactics::state::State,
    dustmail::game::Outcome,
) {
    let mut h = card(
        "heroic",
        UnitType::Hero,
        3,
        1,
        vec![weapon("pistol", WeaponRange::Upto(1), 1, 1)],
    );
    for s in skills {
        h = with_skill(h, s, None);
    }
    let mut st = start_defaults(
        scenario(
            vec![unit("h", "heroic", Some("E9"))],
            vec![unit("x1", "sq", Some("E6"))],
        ),
        vec![h, squad("sq")],
    );
    begin(&mut st, "allies");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("h", first),
        &mut ScriptedDice::new([]),
    ));
    let mut d = ScriptedDice::new(faces.iter().copied());
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "h"), nothing()]),
        &mut d,
    );
    accepted(&out);
    (st, out)
}

#[test]
fn heroic_attack_004_attacks_on_the_hero_cause_no_damage_that_round() {
    // Issue 12 item 3. 004 "Heroic Attack": "Once per game, all attacks made against this hero
    // during this round (including artillery fire, close combat, etc.) do not cause any damage.
    // Using this skill does not require an action, but the hero must activate in order to use
    // the skill." Two hits on the hero: no damage.
    let (st, out) = heroic_round(
        &["heroic-attack"],
        vec![skill("heroic-attack"), nothing(), nothing()],
        &[1, 1, 5, 5, /* round 2's initiative */ 1, 5, 5, 5, 5, 5],
    );
    assert_eq!(u(&st, "h").health, 3, "{}", texts(&out));
    assert!(texts(&out).contains("Heroic Attack"), "{}", texts(&out));
}

#[test]
fn heroic_attack_004_only_when_declared() {
    // Issue 12 item 3: the hero carries the skill but did not declare it: the hits hurt.
    let (st, out) = heroic_round(
        &["heroic-attack"],
        vec![nothing(), nothing()],
        &[1, 1, 1, 1],
    );
    assert!(u(&st, "h").health < 3, "{}", texts(&out));
}

// ---------------------------------------------------------------------------------------------
// 004 "Dozer Blade"
// ---------------------------------------------------------------------------------------------

/// A Movement 2 vehicle on E9 with `skills`, an anti-tank trap on E8; it moves to `to`.
fn dozer_move(
    skills: &[&str],
    to: &str,
) -> (
    dustmail::dust_tactics::state::State,
    dustmail::game::Outcome,
) {
    let mut c = card(
        "dozer",
        UnitType::Vehicle,
        3,
        2,
        vec![weapon("gun", WeaponRange::Upto(2), 1, 1)],
    );
    for s in skills {
        c = with_skill(c, s, None);
    }
    let mut s = scenario(
        vec![unit("v", "dozer", Some("E9"))],
        vec![unit("x1", "sq", Some("A1"))],
    );
    s.board.place_cover(sq("E8"), CoverKind::TankTrap).unwrap();
    let mut st = start_defaults(s, vec![c, squad("sq")]);
    begin(&mut st, "allies");
    let out = cmd(
        &mut st,
        "allies",
        activate("v", vec![mv(to), nothing()]),
        &mut ScriptedDice::new([]),
    );
    (st, out)
}

#[test]
fn dozer_blade_004_enters_the_tank_trap_and_destroys_it() {
    // Issue 12 item 3. 004 "Dozer Blade": "A vehicle with this skill can enter a space with an
    // anti-tank trap. That cover element is destroyed and removed from the board."
    let (st, out) = dozer_move(&["dozer-blade"], "E8");
    accepted(&out);
    assert_eq!(u(&st, "v").at, Some(sq("E8")));
    assert_eq!(st.scenario.board.cover_kind(sq("E8")), None);
    assert!(
        texts(&out).contains("dozer blade destroys"),
        "{}",
        texts(&out)
    );
}

#[test]
fn dozer_blade_004_without_the_skill_the_trap_stops_the_vehicle() {
    // Issue 12 item 3, the control. 004 "Cover & Movement": vehicles cannot enter a tank trap.
    let (st, out) = dozer_move(&[], "E8");
    let (reason, _) = refused(&out);
    assert!(reason.contains("anti-tank trap"), "{reason}");
    assert_eq!(
        st.scenario.board.cover_kind(sq("E8")),
        Some(CoverKind::TankTrap)
    );
}

// ---------------------------------------------------------------------------------------------
// 004 "Legendary Tactician"
// ---------------------------------------------------------------------------------------------

#[test]
fn legendary_tactician_004_initiative_misses_count_as_hits() {
    // Issue 12 item 3. 004 "Legendary Tactician": "When rolling for initiative, treat [hit] as
    // [miss] and [miss] as [hit]." Allies roll 5 5 5 (three hits, reversed), axis 1 1 5 (two):
    // the allies win.
    for (skills, winner) in [(vec!["legendary-tactician"], "allies"), (vec![], "axis")] {
        let mut h = card(
            "tactician",
            UnitType::Hero,
            3,
            1,
            vec![weapon("pistol", WeaponRange::Upto(1), 1, 1)],
        );
        for s in &skills {
            h = with_skill(h, s, None);
        }
        let mut st = start_defaults(
            scenario(
                vec![unit("h", "tactician", Some("E9"))],
                vec![unit("x1", "sq", Some("E1"))],
            ),
            vec![h, squad("sq")],
        );
        let mut d = ScriptedDice::new([5, 5, 5, 1, 1, 5]);
        let _ = cmd(
            &mut st,
            winner,
            dustmail::dust_tactics::orders::Command::First {
                side: winner.into(),
            },
            &mut d,
        );
        assert_eq!(st.initiative.as_deref(), Some(winner), "{skills:?}");
    }
}

/// Allied squad `a1` (saves on a hit in soft cover, knives only) on E7 in the open, hero `h` on
/// `hero_at` with `skills`; the axis squad on E3 fires its 4 dice (1 5 5 5: one hit) at a1.
fn tactician_cover_game(
    skills: &[&str],
    hero_at: &str,
) -> (
    dustmail::dust_tactics::state::State,
    dustmail::game::Outcome,
) {
    let mut h = card(
        "tactician",
        UnitType::Hero,
        3,
        1,
        vec![weapon("pistol", WeaponRange::Upto(1), 1, 1)],
    );
    for s in skills {
        h = with_skill(h, s, None);
    }
    let mut guards = card(
        "guards",
        UnitType::Squad,
        4,
        1,
        vec![weapon("knife", WeaponRange::Upto(1), 1, 1)],
    );
    guards.soft_save = Save::Hit;
    guards.hard_save = Save::Hit;
    let mut st = start_defaults(
        scenario(
            vec![
                unit("h", "tactician", Some(hero_at)),
                unit("a1", "guards", Some("E7")),
            ],
            vec![unit("x1", "sq", Some("E3"))],
        ),
        vec![h, guards, squad("sq")],
    );
    begin(&mut st, "allies");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("h", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    let mut d = ScriptedDice::new([1, 5, 5, 5, 1]);
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    (st, out)
}

#[test]
fn legendary_tactician_004_an_adjacent_squad_in_the_open_has_soft_cover() {
    // Issue 12 item 3. 004 "Legendary Tactician": "infantry squads in the army that are adjacent
    // to the hero ... gain a level of cover up to hard cover. A unit without any cover is treated
    // as if it is in soft cover." The hit is saved (1 on the save die).
    let (st, out) = tactician_cover_game(&["legendary-tactician"], "E8");
    assert!(texts(&out).contains("saved by cover"), "{}", texts(&out));
    assert_eq!(u(&st, "a1").models.len(), 4, "{}", texts(&out));
}

#[test]
fn legendary_tactician_004_not_for_a_squad_out_of_reach() {
    // Issue 12 item 3: two squares away, no cover; the same without the skill.
    for (skills, at) in [(vec!["legendary-tactician"], "C9"), (vec![], "E8")] {
        let (st, out) = tactician_cover_game(&skills, at);
        assert_eq!(u(&st, "a1").models.len(), 3, "{skills:?} {}", texts(&out));
    }
}

// ---------------------------------------------------------------------------------------------
// 004 "Cheat Death" (skills-004b)
// ---------------------------------------------------------------------------------------------

/// A hero `h` (health 3) with `skills` on E9, alone or (`joined`) with the squad `a1`; the axis
/// squad `x1` on E4 (4 models, gun 1 die, range 6) attacks `target` with `faces`; `used`
/// Cheat Death attempts are already spent.
fn cheat_round(
    skills: &[&str],
    joined: bool,
    target: &str,
    faces: &[u8],
    used: u8,
) -> (
    dustmail::dust_tactics::state::State,
    dustmail::game::Outcome,
    usize,
) {
    let mut h = card(
        "cheater",
        UnitType::Hero,
        3,
        1,
        vec![weapon("pistol", WeaponRange::Upto(1), 1, 1)],
    );
    for s in skills {
        h = with_skill(h, s, None);
    }
    let mut allies = vec![unit("h", "cheater", if joined { None } else { Some("E9") })];
    if joined {
        allies.push(unit("a1", "sq", Some("E9")));
    }
    // Range 6 from E4: out of the reach of the squad's range 4 reactive fire.
    let long = card(
        "long",
        UnitType::Squad,
        4,
        1,
        vec![weapon("gun", WeaponRange::Upto(6), 1, 1)],
    );
    let mut s = scenario(allies, vec![unit("x1", "long", Some("E4"))]);
    if joined {
        s.sides[0].units[0].joins = Some("a1".into());
    }
    let mut st = start_defaults(s, vec![h, squad("sq"), long]);
    if used > 0 {
        st.unit_mut("h")
            .unwrap()
            .skills_used
            .insert("cheat-death".into(), used);
    }
    begin(&mut st, "axis");
    let mut d = ScriptedDice::new(faces.iter().copied());
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", target), nothing()]),
        &mut d,
    );
    accepted(&out);
    (st, out, d.remaining())
}

#[test]
fn cheat_death_004_a_4_plus_ignores_the_damage_the_hero_suffers() {
    // Issue 12 item 3. 004 "Cheat Death": "When hero with this skill, or the squad he is with,
    // receives damage from an enemy unit, he may choose to activate this skill. Roll 1 die: if
    // the result is a 4+, all damage the hero suffers during the attacking unit's activation is
    // ignored." Two hits, then a 4 on the Cheat Death die: the hero keeps his 3 health.
    let (st, out, left) = cheat_round(&["cheat-death"], false, "h", &[1, 1, 5, 5, 4], 0);
    assert_eq!(left, 0, "{}", texts(&out));
    assert_eq!(u(&st, "h").health, 3, "{}", texts(&out));
    assert!(
        texts(&out).contains("Cheat Death: h rolls 4"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "h").skills_used.get("cheat-death"), Some(&1));
}

#[test]
fn cheat_death_004_below_4_the_damage_stands() {
    // Issue 12 item 3. 004 "Cheat Death": "if the result is a 4+": a 3 saves nothing, and the
    // attempt is spent ("use the boxes ... to keep track of how many attempts he has made").
    let (st, out, left) = cheat_round(&["cheat-death"], false, "h", &[1, 1, 5, 5, 3], 0);
    assert_eq!(left, 0, "{}", texts(&out));
    assert_eq!(u(&st, "h").health, 1, "{}", texts(&out));
    assert_eq!(u(&st, "h").skills_used.get("cheat-death"), Some(&1));
}

#[test]
fn cheat_death_004_only_twice_per_game() {
    // Issue 12 item 3. 004 "Cheat Death": "This skill may only be used twice per game." After
    // two attempts no die is rolled and the hits hurt.
    let (st, out, left) = cheat_round(&["cheat-death"], false, "h", &[1, 1, 5, 5, 4], 2);
    assert_eq!(left, 1, "no Cheat Death die: {}", texts(&out));
    assert_eq!(u(&st, "h").health, 1, "{}", texts(&out));
    assert!(!texts(&out).contains("Cheat Death"), "{}", texts(&out));
}

#[test]
fn cheat_death_004_is_shared_with_the_squad_he_joins() {
    // Issue 12 item 3. 004 "Cheat Death": "or the squad he is with, receives damage ... A hero
    // with this skill shares it with any squad he joins." Two hits on his squad, a 5: no model
    // is lost (R412).
    let (st, out, left) = cheat_round(&["cheat-death"], true, "a1", &[1, 1, 5, 5, 5], 0);
    assert_eq!(left, 0, "{}", texts(&out));
    assert_eq!(u(&st, "a1").models.len(), 4, "{}", texts(&out));
    assert_eq!(u(&st, "h").health, 3, "{}", texts(&out));
}

#[test]
fn cheat_death_004_without_the_skill_the_damage_stands() {
    // Issue 12 item 3, the control: no die beyond the attack's, two damage.
    let (st, out, left) = cheat_round(&[], false, "h", &[1, 1, 5, 5, 4], 0);
    assert_eq!(left, 1, "{}", texts(&out));
    assert_eq!(u(&st, "h").health, 1, "{}", texts(&out));
    let (st, out, _) = cheat_round(&[], true, "a1", &[1, 1, 5, 5, 4], 0);
    assert_eq!(u(&st, "a1").models.len(), 2, "{}", texts(&out));
}

// ---------------------------------------------------------------------------------------------
// 004 "Combine Shots" (skills-004b)
// ---------------------------------------------------------------------------------------------

/// A vehicle `v` on E9 whose flamethrower line `flamer` (range 2, 1 die per weapon) has
/// `carriers` weapons, with `skills`; an axis squad `x1` (range 1 only: it cannot react) on `at`.
fn flamer_game(skills: &[&str], carriers: u8, at: &str) -> dustmail::dust_tactics::state::State {
    let mut f = weapon("flamer", WeaponRange::Upto(2), 1, 1);
    f.traits = vec![WeaponTrait::Flamethrower];
    f.carriers = Some(carriers);
    let mut v = card("flammer", UnitType::Vehicle, 3, 1, vec![f]);
    for s in skills {
        v = with_skill(v, s, None);
    }
    let short = card(
        "short",
        UnitType::Squad,
        4,
        1,
        vec![weapon("gun", WeaponRange::Upto(1), 1, 1)],
    );
    let mut st = start_defaults(
        scenario(
            vec![unit("v", "flammer", Some("E9"))],
            vec![unit("x1", "short", Some(at))],
        ),
        vec![v, short],
    );
    begin(&mut st, "allies");
    st
}

#[test]
fn combine_shots_004_one_roll_with_the_range_extended_by_1() {
    // Issue 12 item 3. 004 "Combine Shots": "Available to some vehicles with 2 flamethrowers.
    // Instead of firing separately, you may combine the 2 shots into one: roll combat dice for
    // only one of the weapons but extend the range by 1." Range 2 + 1 reaches E6 from E9; one
    // weapon's die is rolled.
    let mut st = flamer_game(&["combine-shots"], 2, "E6");
    let mut d = ScriptedDice::new([1]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "v",
            vec![skill("combine-shots"), attack("flamer", "x1"), nothing()],
        ),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(texts(&out).contains("combined shots"), "{}", texts(&out));
    assert_eq!(u(&st, "x1").models.len(), 3, "{}", texts(&out));
}

#[test]
fn combine_shots_004_combined_the_dice_are_one_weapon_s() {
    // Issue 12 item 3. 004 "Combine Shots": "roll combat dice for only one of the weapons": in
    // range of both, combined fires 1 die where separately the 2 flamethrowers fire 2.
    for (combine, dice) in [(true, 1usize), (false, 2)] {
        let mut st = flamer_game(&["combine-shots"], 2, "E7");
        let mut acts = vec![attack("flamer", "x1"), nothing()];
        if combine {
            acts.insert(0, skill("combine-shots"));
        }
        let mut d = ScriptedDice::new([1, 1]);
        let out = cmd(&mut st, "allies", activate("v", acts), &mut d);
        accepted(&out);
        assert_eq!(2 - d.remaining(), dice, "{combine}: {}", texts(&out));
        assert_eq!(u(&st, "x1").models.len(), 4 - dice, "{}", texts(&out));
    }
}

#[test]
fn combine_shots_004_without_combining_the_range_is_the_card_s() {
    // Issue 12 item 3, the control: the same vehicle firing separately cannot reach E6.
    let mut st = flamer_game(&["combine-shots"], 2, "E6");
    let out = cmd(
        &mut st,
        "allies",
        activate("v", vec![attack("flamer", "x1"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (why, _) = refused(&out);
    assert!(why.contains("not in range"), "{why}");
}

#[test]
fn combine_shots_004_only_a_vehicle_with_the_skill_and_2_flamethrowers() {
    // Issue 12 item 3. 004 "Combine Shots": "Available to some vehicles with 2 flamethrowers":
    // without the skill, or with one flamethrower, `skill combine-shots` is refused and nothing
    // is rolled.
    for (skills, carriers, says) in [
        (vec![], 2, "does not have the skill combine-shots"),
        (vec!["combine-shots"], 1, "no flamethrower line of 2"),
    ] {
        let mut st = flamer_game(&skills, carriers, "E6");
        let out = cmd(
            &mut st,
            "allies",
            activate(
                "v",
                vec![skill("combine-shots"), attack("flamer", "x1"), nothing()],
            ),
            &mut ScriptedDice::new([]),
        );
        let (why, _) = refused(&out);
        assert!(why.contains(says), "{why}");
        assert_eq!(u(&st, "x1").models.len(), 4);
    }
}
