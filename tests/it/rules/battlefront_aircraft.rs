//! Issue 18 (battlefront-2013, seed 003): aircraft. 003's aircraft are not 004's ("Moving
//! Through Other Units": infantry and vehicles "can enter a square occupied by an enemy Aircraft
//! unit"; "Line of Sight to Aircraft": "An Aircraft can see and be seen from anywhere on the game
//! board, except that an Aircraft cannot see or be seen from a unit immediately behind terrain
//! that would block"). A one-square aircraft plays by 003's words under battlefront-2013
//! (rulings R800–R802); a large aircraft ("Large Vehicles and Large Aircraft occupy two
//! squares") stays refused at `new` (R236). Most cases come in pairs: the same position under
//! battlefront-2013 and under ffg-revised (004's aircraft, R440–R445).

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;

use super::aircraft_004::aircraft;

// 003 "Aircraft": aircraft armour 1-3 ("Flying soldiers and slow helicopters or aircraft",
// "Ground-attack aircraft", "Heavily-armoured aircraft"). The shipped Pounder given aircraft
// armour with `--cards` now makes a game (R800–R802); made large as well ("Large Vehicles and
// Large Aircraft occupy two squares", not built) it is refused at `new` and no game is made.
#[test]
fn battlefront_aircraft_003_a_one_square_aircraft_is_accepted_a_large_one_refused() {
    let new = |id: &str, armour: &str| {
        let dir = tempfile::tempdir().unwrap();
        dt::init_home(dir.path(), "file");
        let cards = dir.path().join("my-cards");
        std::fs::create_dir_all(&cards).unwrap();
        let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
            .into_iter()
            .find(|(f, _)| *f == "bf-pounder.toml")
            .expect("the pounder");
        let text = text.replace("armour = { vehicle = 4 }", armour);
        std::fs::write(cards.join("bf-pounder.toml"), text).unwrap();
        let cards = cards.display().to_string();
        let args = [
            "--ruleset",
            "battlefront-2013",
            "--scenario",
            "encounter",
            "--id",
            id,
            "--now",
            dt::T0,
            "--cards",
            &cards,
        ];
        let o = dt::new_with_players(dir.path(), &args, &dt::players(7));
        let made = dir.path().join("games").join(id).exists();
        (o.status.code(), dt::text(&o), made)
    };
    let (code, out, made) = new("g-air", "armour = { aircraft = 2 }");
    assert_eq!(code, Some(0), "{out}");
    assert!(made, "{out}");
    let (code, out, made) = new("g-big", "armour = { aircraft = 2 }\nlarge = true");
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("card bf-pounder.toml: large: only a ground vehicle is large"),
        "{out}"
    );
    assert!(!made, "{out}");
}

/// A game on the 9×9 open test board under `ruleset`: allied units and axis units
/// `(id, card, square)`; `first` activates first and nobody reacts.
fn game(
    ruleset: &str,
    cards: Vec<Card>,
    allies: &[(&str, &str, &str)],
    axis: &[(&str, &str, &str)],
    first: &str,
) -> State {
    let specs = |v: &[(&str, &str, &str)]| {
        v.iter()
            .map(|(id, card, at)| unit(id, card, Some(at)))
            .collect::<Vec<_>>()
    };
    let mut st = DustTactics
        .start(ruleset, scenario(specs(allies), specs(axis)), cards)
        .expect("setup");
    begin(&mut st, first);
    never_react(&mut st);
    st
}

const BF: &str = "battlefront-2013";
const FFG: &str = "ffg-revised";

/// The allied aircraft `a1` (card `hawk`, Movement 4, rockets range 4) on `at` and the axis
/// squad `x1` (card `sq`) on `enemy`.
fn hawk_and_squad(ruleset: &str, at: &str, enemy: &str, first: &str) -> State {
    game(
        ruleset,
        vec![aircraft("hawk", &[]), squad("sq")],
        &[("a1", "hawk", at)],
        &[("x1", "sq", enemy)],
        first,
    )
}

// 003 "Aircraft Must Move": "Aircraft must take a Move or March Move action as their first
// action in each activation, unless they have the hover special rule. As a result, most
// Aircraft cannot perform Sustained Attack actions." (R802) An attack first is refused citing
// the section, and nothing moves; the same actions the other way round are accepted.
#[test]
fn battlefront_aircraft_003_aircraft_must_move_first() {
    let mut st = hawk_and_squad(BF, "E1", "E5", "allies");
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("rockets", "x1"), mv("E2")]),
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("first action must be a Move"), "{reason}");
    assert!(rule.contains("003 'Aircraft Must Move'"), "{rule}");
    assert_eq!(u(&st, "a1").at, Some(sq("E1")));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E2"), attack("rockets", "x1")]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E2")), "{}", texts(&out));
}

// 003 "Aircraft Move Over Terrain": "Aircraft fly over the battlefield, so can move across any
// terrain. Aircraft can never enter terrain or buildings and are placed above them rather than
// in them." The aircraft flies from E5 over a structure on E4 and stops above the structure on
// E3; the positions stay legal.
#[test]
fn battlefront_aircraft_003_aircraft_move_over_terrain() {
    let mut st = hawk_and_squad(BF, "E5", "A9", "allies");
    st.scenario.board.set_terrain(sq("E4"), Terrain::Impassable);
    st.scenario.board.set_terrain(sq("E3"), Terrain::Impassable);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E3"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E3")), "{}", texts(&out));
    assert!(flow::illegal_positions(&st).is_empty());
}

// 003 "Moving Through Other Units": "Infantry and Vehicle units cannot enter or pass through a
// square occupied by an enemy Infantry or Vehicle unit, but can enter a square occupied by an
// enemy Aircraft unit." (R801) The axis squad on E4 steps onto the allied aircraft's E5 under
// battlefront-2013 and the position is legal; under ffg-revised the same step is refused.
#[test]
fn battlefront_aircraft_003_infantry_may_enter_an_enemy_aircrafts_square() {
    let mut st = hawk_and_squad(BF, "E5", "E4", "axis");
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![mv("E5"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "x1").at, Some(sq("E5")), "{}", texts(&out));
    assert!(
        flow::illegal_positions(&st).is_empty(),
        "{:?}",
        flow::illegal_positions(&st)
    );
    let mut st = hawk_and_squad(FFG, "E5", "E4", "axis");
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![mv("E5"), nothing()]),
        &mut plenty(),
    );
    refused(&out);
    assert_eq!(u(&st, "x1").at, Some(sq("E4")));
}

// 003 "Moving Through Other Units": "Aircraft units cannot enter a square occupied by an enemy
// Aircraft unit." (R801: not even to pass over it.) The allied aircraft on E5 may neither stop
// on the axis aircraft's E3 nor fly over it to E1; it may fly on to E4 or stop above the axis
// squad on D4 (003 bars ground units from its square, not aircraft).
#[test]
fn battlefront_aircraft_003_aircraft_may_not_enter_an_enemy_aircrafts_square() {
    let st0 = game(
        BF,
        vec![aircraft("hawk", &[]), aircraft("stuka", &[]), squad("sq")],
        &[("a1", "hawk", "E5")],
        &[("x2", "stuka", "E3"), ("x1", "sq", "D4")],
        "allies",
    );
    for to in ["E3", "E1"] {
        let mut st = st0.clone();
        let out = cmd(
            &mut st,
            "allies",
            activate("a1", vec![mv(to), nothing()]),
            &mut plenty(),
        );
        let (reason, rule) = refused(&out);
        assert!(reason.contains("x2"), "{to}: {reason}");
        assert!(rule.contains("003 'Moving Through Other Units'"), "{rule}");
        assert_eq!(u(&st, "a1").at, Some(sq("E5")));
    }
    let mut st = st0.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("D4"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("D4")), "{}", texts(&out));
    assert!(flow::illegal_positions(&st).is_empty());
}

/// The allied aircraft on E1 flies to E2 and fires its rockets at the axis squad on E6, with
/// trees on `trees`.
fn rockets_past_trees(ruleset: &str, trees: &str) -> (State, dustmail::game::Outcome) {
    let mut st = hawk_and_squad(ruleset, "E1", "E6", "allies");
    st.scenario.board.set_terrain(sq(trees), Terrain::Trees);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E2"), attack("rockets", "x1")]),
        &mut plenty(),
    );
    (st, out)
}

// 003 "Line of Sight to Aircraft": "An Aircraft can see and be seen from anywhere on the game
// board, except that an Aircraft cannot see or be seen from a unit immediately behind terrain
// that would block Line of Sight to a Vehicle unit" (R800). Trees on E5, right in front of the
// squad on E6, hide it from the aircraft on E2; trees on E4, two squares from it, do not (they
// would block a ground unit's line). Under ffg-revised (004: "They have LOS to any unit on the
// battlefield") the trees on E5 hide nothing.
#[test]
fn battlefront_aircraft_003_line_of_sight_to_aircraft_except_from_behind_terrain() {
    let (st, out) = rockets_past_trees(BF, "E5");
    let (reason, rule) = refused(&out);
    assert!(reason.contains("E5"), "{reason}");
    assert!(rule.contains("003 'Line of Sight to Aircraft'"), "{rule}");
    assert_eq!(u(&st, "a1").at, Some(sq("E1")));
    let (st, out) = rockets_past_trees(BF, "E4");
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E2")), "{}", texts(&out));
    let (_, out) = rockets_past_trees(FFG, "E5");
    accepted(&out);
}

// R236: 004's special weapons are not 003's, and battlefront-2013 does not build them, so a card
// naming one is refused at `new` rather than played by 004's rule: the shipped Pounder's first
// weapon line given the trait `burst` (004 "Burst Weapons") is refused naming the weapon, the
// trait and the file.
#[test]
fn battlefront_weapons_004s_special_weapons_are_refused_at_new() {
    let dir = tempfile::tempdir().unwrap();
    dt::init_home(dir.path(), "file");
    let cards = dir.path().join("my-cards");
    std::fs::create_dir_all(&cards).unwrap();
    let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == "bf-pounder.toml")
        .expect("the pounder");
    let mut card: toml::Table = text.parse().expect("the pounder's toml");
    let weapons = card["weapons"].as_array_mut().expect("weapons");
    let first = weapons[0].as_table_mut().expect("a weapon line");
    let id = first["id"].as_str().expect("an id").to_string();
    first.insert("traits".into(), toml::Value::Array(vec!["burst".into()]));
    std::fs::write(cards.join("bf-pounder.toml"), card.to_string()).unwrap();
    let cards = cards.display().to_string();
    let args = [
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        "encounter",
        "--id",
        "g-burst",
        "--now",
        dt::T0,
        "--cards",
        &cards,
    ];
    let o = dt::new_with_players(dir.path(), &args, &dt::players(7));
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains(&format!(
            "card bf-pounder.toml gives the weapon `{id}` the trait `burst`"
        )) && out.contains("not implemented yet under battlefront-2013"),
        "{out}"
    );
    assert!(!dir.path().join("games/g-burst").exists(), "{out}");
}

/// The allied aircraft `a1` on E1 and an axis tank `x1` on E9 whose rockets reach 8 squares.
fn long_gun_at_aircraft(ruleset: &str) -> (State, dustmail::game::Outcome) {
    let mut gun = super::aircraft_004::tank("gun", &[]);
    gun.weapons[0].range = WeaponRange::Upto(8);
    let mut st = game(
        ruleset,
        vec![aircraft("hawk", &[]), gun],
        &[("a1", "hawk", "E1")],
        &[("x1", "gun", "E9")],
        "axis",
    );
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("rockets", "a1"), nothing()]),
        &mut plenty(),
    );
    (st, out)
}

// R802: 004 "Aircraft": "Aircraft can never be targeted from more than 6 spaces away" is not in
// 003, whose "Line of Sight to Aircraft" lets an aircraft "be seen from anywhere on the game
// board": under battlefront-2013 a tank 8 squares away fires at the aircraft with a range-8
// weapon; under ffg-revised the same attack is refused.
#[test]
fn battlefront_aircraft_003_no_range_limit_to_aircraft() {
    let (_, out) = long_gun_at_aircraft(BF);
    accepted(&out);
    let (_, out) = long_gun_at_aircraft(FFG);
    let (reason, _) = refused(&out);
    assert!(reason.contains("beyond 6 squares"), "{reason}");
}

// The provisional battlefront aircraft card (games/dust-tactics/cards-battlefront-air/, 003
// "Aircraft" armour 1) is accepted by `new` under battlefront-2013 with `--cards`.
#[test]
fn battlefront_aircraft_003_the_provisional_aircraft_card_is_accepted_at_new() {
    let dir = tempfile::tempdir().unwrap();
    dt::init_home(dir.path(), "file");
    let cards = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/dust-tactics/cards-battlefront-air"
    );
    let args = [
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        "encounter",
        "--id",
        "g-hawk",
        "--now",
        dt::T0,
        "--cards",
        cards,
    ];
    let o = dt::new_with_players(dir.path(), &args, &dt::players(7));
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(dir.path().join("games/g-hawk").exists(), "{out}");
    let text = std::fs::read_to_string(format!("{cards}/bf-air-hawk.toml")).unwrap();
    let card = dustmail::dust_tactics::cards::parse_card("bf-air-hawk.toml", &text).unwrap();
    assert!(matches!(
        card.armour,
        dustmail::dust_tactics::model::Armour::Aircraft(1)
    ));
}

// R803, 002 "Piloting Vehicles and Aircraft": "A Hero with the Pilot or Ace Pilot Skill (see
// pages 96 and 99) can pilot a Vehicle. A Hero with the Air Pilot or Ace Air Pilot Skill (see
// page 96) can pilot an Aircraft." Captain Koshka (Pilot) begins in Grand'ma in the shipped
// encounter-koshka; given aircraft armour with `--cards`, Grand'ma is an aircraft she may not
// pilot: `new` refuses, naming 002's section, and no game is made. With its vehicle armour the
// same scenario is accepted.
#[test]
fn battlefront_aircraft_002_a_pilot_does_not_pilot_an_aircraft() {
    let (code, out, made) = koshka_in_grandma("armour = { aircraft = 2 }", "pilot");
    assert_ne!(code, Some(0), "{out}");
    assert!(
        out.contains("cannot pilot the aircraft") && out.contains("Piloting Vehicles and Aircraft"),
        "{out}"
    );
    assert!(!made, "{out}");
    let (code, out, made) = koshka_in_grandma("armour = { vehicle = 4 }", "pilot");
    assert_eq!(code, Some(0), "{out}");
    assert!(made, "{out}");
}

// R804, 002 "Air Pilot": "A Hero with the Air Pilot Skill can pilot an Aircraft (see page 93)."
// Koshka given Air Pilot instead of Pilot begins the game piloting Grand'ma made an aircraft:
// `new` accepts it and the board text shows her piloting; she may not pilot the ground Grand'ma
// (002: Pilot or Ace Pilot pilot a Vehicle).
#[test]
fn battlefront_aircraft_002_air_pilot_pilots_an_aircraft() {
    let (code, out, made) = koshka_in_grandma("armour = { aircraft = 2 }", "air-pilot");
    assert_eq!(code, Some(0), "{out}");
    assert!(made, "{out}");
    assert!(out.contains("): piloting grandma"), "{out}");
    let (code, out, made) = koshka_in_grandma("armour = { vehicle = 4 }", "air-pilot");
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("cannot pilot"), "{out}");
    assert!(!made, "{out}");
}

/// `new` of the shipped encounter-koshka (Koshka begins in Grand'ma) under battlefront-2013, with
/// `--cards` giving Grand'ma `armour` and Koshka the skill `skill` instead of Pilot: (exit code,
/// output and, when made, the board text; whether the game was made).
pub(super) fn koshka_in_grandma(armour: &str, skill: &str) -> (Option<i32>, String, bool) {
    {
        let dir = tempfile::tempdir().unwrap();
        dt::init_home(dir.path(), "file");
        let cards = dir.path().join("my-cards");
        std::fs::create_dir_all(&cards).unwrap();
        let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
            .into_iter()
            .find(|(f, _)| *f == "bf-grandma.toml")
            .expect("grand'ma");
        std::fs::write(
            cards.join("bf-grandma.toml"),
            text.replace("armour = { vehicle = 4 }", armour),
        )
        .unwrap();
        let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
            .into_iter()
            .find(|(f, _)| *f == "bf-koshka.toml")
            .expect("koshka");
        let skill = format!("name = \"{skill}\"");
        std::fs::write(
            cards.join("bf-koshka.toml"),
            text.replace("name = \"pilot\"", &skill),
        )
        .unwrap();
        let scenario = dustmail::dust_tactics::scenario::builtin()
            .into_iter()
            .find(|(n, _)| *n == "encounter-koshka")
            .expect("encounter-koshka shipped")
            .1
            .replace("id = \"ssu\"", "id = \"axis\"");
        let file = dir.path().join("koshka.toml");
        std::fs::write(&file, scenario).unwrap();
        let cards = cards.display().to_string();
        let args = [
            "--ruleset",
            "battlefront-2013",
            "--scenario",
            file.to_str().unwrap(),
            "--id",
            "g-k",
            "--now",
            dt::T0,
            "--cards",
            &cards,
        ];
        let o = dt::new_with_players(dir.path(), &args, &dt::players(7));
        let made = dir.path().join("games/g-k/log.jsonl").exists();
        let mut out = dt::text(&o);
        if made {
            let o = dt::dustmail(dir.path(), &["show", "g-k", "--format", "text"]);
            out.push_str(&dt::text(&o));
        }
        (o.status.code(), out, made)
    }
}

/// The allied aircraft `a1` on E1 flies to E2 and fires at the axis squad `x2` on A2; the axis tank `x1` on E6, whose
/// rockets hit aircraft, may react; trees on `trees`. Everybody reacts by default.
fn reacting_past_trees(trees: &str) -> dustmail::game::Outcome {
    let cards = vec![
        aircraft("hawk", &[]),
        super::aircraft_004::tank("gun", &[]),
        squad("sq"),
    ];
    let s = scenario(
        vec![unit("a1", "hawk", Some("E1"))],
        vec![unit("x1", "gun", Some("E6")), unit("x2", "sq", Some("A2"))],
    );
    let mut st = DustTactics.start(BF, s, cards).expect("setup");
    begin(&mut st, "allies");
    st.scenario.board.set_terrain(sq(trees), Terrain::Trees);
    cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E2"), attack("rockets", "x2")]),
        &mut plenty(),
    )
}

// R800 for reactive attacks, 003 "Line of Sight to Aircraft": "an Aircraft cannot see or be seen
// from a unit immediately behind terrain that would block Line of Sight to a Vehicle unit". The
// tank right behind trees on E5 cannot react to the aircraft on E2; with the trees on E4, two
// squares in front of it, it attempts a reactive attack.
#[test]
fn battlefront_aircraft_003_no_reactive_attack_from_behind_terrain() {
    let out = reacting_past_trees("E4");
    accepted(&out);
    assert!(
        texts(&out).contains("attempts a reactive attack"),
        "{}",
        texts(&out)
    );
    let out = reacting_past_trees("E5");
    accepted(&out);
    assert!(!texts(&out).contains("reactive"), "{}", texts(&out));
}

// R804 with R801/R802: an aircraft piloted by an Air Pilot hero plays as an aircraft. The hero
// `h1` (Air Pilot) begins in the aircraft `a1` on E1; an attack first is refused (003 "Aircraft
// Must Move"); the aircraft flies over the structure on E2 to E3, and the pilot goes with it.
#[test]
fn battlefront_aircraft_002_an_air_pilots_aircraft_flies() {
    let hero = with_skill(
        card(
            "ace",
            UnitType::Hero,
            3,
            1,
            vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
        ),
        "air-pilot",
        None,
    );
    let pilot: dustmail::dust_tactics::scenario::UnitSpec =
        serde_json::from_value(serde_json::json!({ "id": "h1", "card": "ace", "joins": "a1" }))
            .expect("unit spec");
    let s = scenario(
        vec![unit("a1", "hawk", Some("E1")), pilot],
        vec![unit("x1", "sq", Some("B2"))],
    );
    let cards = vec![aircraft("hawk", &[]), hero, squad("sq")];
    let mut st = DustTactics.start(BF, s, cards).expect("setup");
    begin(&mut st, "allies");
    st.scenario.board.set_terrain(sq("E2"), Terrain::Impassable);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("rockets", "x1"), mv("E3")]),
        &mut plenty(),
    );
    let (_, rule) = refused(&out);
    assert!(rule.contains("003 'Aircraft Must Move'"), "{rule}");
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E3"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E3")), "{}", texts(&out));
    assert_eq!(st.pilot_of("a1").map(|h| h.id.as_str()), Some("h1"));
    assert!(flow::illegal_positions(&st).is_empty());
}
