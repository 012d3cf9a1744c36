//! Issue 18: 002 "Vehicle Equipment", "Naval Unit" under battlefront-2013 (R755–R758). The open
//! 9×9 board with deep water on columns A to C; the vehicles are the test tanks of
//! `aircraft_004` (Movement 4, `rockets` 2 dice range 4), `boat` with the equipment `naval`.
//! Scripted dice (1, 2 army; 3, 4 target; 5, 6 shield).

use super::aircraft_004::tank;
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::cards::parse_card;
use dustmail::dust_tactics::model::{Card, Terrain, VehicleSize};
use dustmail::dust_tactics::scenario::Scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, view, DustTactics};
use dustmail::game::{Game, Outcome, ScriptedDice};

/// The test board with columns A to C deep water; allies and axis as (id, card, square).
fn naval_scenario(allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)]) -> Scenario {
    let specs = |v: &[(&str, &str, &str)]| {
        v.iter()
            .map(|(id, c, at)| unit(id, c, Some(at)))
            .collect::<Vec<_>>()
    };
    let mut s = scenario(specs(allies), specs(axis));
    for col in ["A", "B", "C"] {
        for row in 1..=9 {
            s.board
                .set_terrain(sq(&format!("{col}{row}")), Terrain::DeepWater);
        }
    }
    s
}

fn cards() -> Vec<Card> {
    vec![tank("gunboat", &["naval"]), tank("plain", &[]), squad("sq")]
}

/// Allied `boat` (naval) on B5 and `tank1` (a land tank) on G8; the axis squad `grens` on E2 and
/// tank `gun` on E5. Nobody reacts; `first` activates first.
fn game(first: &str) -> State {
    let s = naval_scenario(
        &[("boat", "gunboat", "B5"), ("tank1", "plain", "G8")],
        &[("grens", "sq", "E2"), ("gun", "plain", "E5")],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, cards())
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, first);
    st
}

fn orders(st: &mut State, side: &str, text: &str, first: &[u8]) -> Outcome {
    let mut v = first.to_vec();
    v.extend((0..300).map(|i| (i % 6 + 1) as u8));
    send(st, side, text, &mut ScriptedDice::new(v))
}

/// The lines of `unit`'s block in `side`'s orders template.
fn block(st: &State, side: &str, unit: &str) -> String {
    let t = DustTactics.orders_template(st, side);
    let at = t
        .find(&format!("# activate {unit} "))
        .unwrap_or_else(|| panic!("no block for {unit}:\n{t}"));
    t[at..]
        .lines()
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !l.starts_with("# activate"))
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n")
}

// issue 18, 002 "Naval Unit": "A Naval Unit treats Deep Water as Open Space" (R755): the boat
// moves four squares up the water, where no other vehicle may go.
#[test]
fn s002_naval_unit_treats_deep_water_as_open_space() {
    let mut st = game("allies");
    let out = orders(
        &mut st,
        "allies",
        "activate boat\n  move B1\n  nothing",
        &[],
    );
    accepted(&out);
    assert_eq!(u(&st, "boat").at, Some(sq("B1")), "{}", texts(&out));
    // The land tank may not (003 "Water Squares", R611).
    let out = orders(&mut st, "axis", "activate gun\n  move C5\n  nothing", &[]);
    assert!(refused(&out).0.contains("water"), "{:?}", refused(&out));
    assert_eq!(u(&st, "gun").at, Some(sq("E5")));
}

// 002 "Naval Unit": "... but cannot enter any other type of terrain" (R755): a move onto open
// ground is refused, naming the square, the rule and what to send; nothing moves. The template
// offers the boat only deep water squares.
#[test]
fn s002_naval_unit_cannot_enter_any_other_type_of_terrain() {
    let mut st = game("allies");
    for to in ["D5", "C5 D4"] {
        let out = orders(
            &mut st,
            "allies",
            &format!("activate boat\n  move {to}\n  nothing"),
            &[],
        );
        let (reason, rule) = refused(&out);
        assert!(
            reason.contains("D") && reason.contains("not deep water"),
            "{reason}"
        );
        assert!(
            rule.contains("Naval Unit") && rule.contains("R755"),
            "{rule}"
        );
        assert_eq!(u(&st, "boat").at, Some(sq("B5")));
    }
    let b = block(&st, "allies", "boat");
    assert!(b.contains("move ") && b.contains("C9"), "{b}");
    for land in ["D5", "E9", "D1"] {
        assert!(!b.contains(land), "{land} offered:\n{b}");
    }
}

// 002 "Naval Unit": "A Naval Unit may take a free Attack Action immediately after it performs a
// March Move Action." (R756) Two `move` lines and then an `attack` line: the report names the
// free Attack and the rockets are fired (two shields: no hit).
#[test]
fn s002_naval_unit_a_free_attack_after_a_march_move() {
    let mut st = game("allies");
    let out = orders(
        &mut st,
        "allies",
        "activate boat\n  move B4\n  move C3\n  attack rockets at grens",
        &[5, 6],
    );
    let t = texts(&out);
    accepted(&out);
    assert!(t.contains("free Attack of a Naval Unit"), "{t}");
    assert!(t.contains("rockets"), "{t}");
    assert_eq!(u(&st, "boat").at, Some(sq("C3")), "{t}");
    assert!(u(&st, "boat").activated);
    // The template says so under the boat's moves, not under the land tank's.
    let st = game("allies");
    assert!(block(&st, "allies", "boat").contains("free Attack"));
    assert!(!block(&st, "allies", "tank1").contains("free Attack"));
}

// R756: the free action is an Attack (not a Sustained Attack), only right after a March Move,
// and only a Naval Unit's; each of these is refused and nothing moves.
#[test]
fn s002_naval_unit_the_free_attack_only_after_a_march_move_never_sustained() {
    let cases = [
        (
            "boat",
            "activate boat\n  move B4\n  move C3\n  sustained rockets at grens",
        ),
        (
            "boat",
            "activate boat\n  move B4\n  attack rockets at grens\n  attack rockets at grens",
        ),
        (
            "boat",
            "activate boat\n  attack rockets at grens\n  move B4\n  move C3",
        ),
        (
            "tank1",
            "activate tank1\n  move G7\n  move G6\n  attack rockets at grens",
        ),
    ];
    for (unit, text) in cases {
        let mut st = game("allies");
        let before = u(&st, unit).at;
        let out = orders(&mut st, "allies", text, &[]);
        let (reason, _) = refused(&out);
        assert!(!reason.is_empty(), "{text}");
        assert_eq!(u(&st, unit).at, before, "{text}: {reason}");
        assert!(!u(&st, unit).activated, "{text}");
    }
}

// 002 "Naval Unit": "An eliminated Naval Unit becomes Deep Water terrain." (R757) The axis tank
// destroys the boat (one damage point left): the report says it sinks, its square is deep water
// on the text board, and no marker of it stays.
#[test]
fn s002_naval_unit_an_eliminated_naval_unit_becomes_deep_water() {
    let mut st = game("axis");
    st.unit_mut("boat").expect("boat").health = 1;
    let out = orders(
        &mut st,
        "axis",
        "activate gun\n  attack rockets at boat\n  nothing",
        &[1, 3, 1, 3, 1, 3],
    );
    let t = texts(&out);
    assert!(u(&st, "boat").destroyed, "{t}");
    assert!(t.contains("boat sinks: B5 is deep water"), "{t}");
    assert_eq!(st.scenario.board.terrain(sq("B5")), Terrain::DeepWater);
    let board = view::board_text(&st);
    let row5 = board
        .lines()
        .find(|l| l.trim_start().starts_with("5 "))
        .expect("row 5");
    assert!(row5.contains('~'), "{board}");
    // Deep water again: the land tank still may not enter it (R611).
    let out = orders(
        &mut st,
        "allies",
        "activate tank1\n  move C8\n  nothing",
        &[],
    );
    assert!(refused(&out).0.contains("water"), "{:?}", refused(&out));
}

// R758: a Naval Unit begins the game on deep water, and no other unit does (entry zones hold no
// deep water, R82): `new` refuses either, naming the unit and the square.
#[test]
fn s002_naval_unit_begins_on_deep_water_and_nobody_else_does() {
    let cases = [
        ("boat", "gunboat", "E8", "not deep water"),
        ("tank1", "plain", "B8", "only a Naval Unit"),
    ];
    for (id, card, at, says) in cases {
        let s = naval_scenario(&[(id, card, at)], &[("grens", "sq", "E2")]);
        let e = DustTactics
            .start("battlefront-2013", s, cards())
            .expect_err("refused at new");
        assert!(
            e.0.contains(id) && e.0.contains(at) && e.0.contains(says),
            "{}",
            e.0
        );
    }
}

// 002 lists Naval Unit under "Vehicle Equipment": a ground vehicle's card carries it; a soldier's
// card naming it is refused when read (R755, R663).
#[test]
fn s002_naval_unit_is_a_vehicle_s_equipment() {
    let (f, t) =
        super::battlefront_skills002::card_with("bf-pounder", "[[skills]]\nname = \"naval\"");
    assert!(parse_card(&f, &t).is_ok());
    let (f, t) =
        super::battlefront_skills002::card_with("bf-bazooka-joe", "[[skills]]\nname = \"naval\"");
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("Naval Unit"), "{e}");
}

/// The Sealifter's game: allied `lc` (a landing craft, Sealifter) on C5 carrying the squad
/// `grens` (4 spaces) and the tank `t1` (6 spaces); the allied tank `t2` on D4 ashore; the axis
/// tank `gun` on E5 and squad `foes` on I1. Nobody reacts; `first` activates first. `lc` faces
/// `facing` (its bow door is the square before it).
fn sealift_game(first: &str, facing: Facing) -> State {
    let aboard = |id: &str, card: &str| {
        let mut s = unit(id, card, None);
        s.aboard = Some("lc".into());
        s
    };
    let mut s = naval_scenario(
        &[("lc", "landing-craft", "C5"), ("t2", "plain", "D4")],
        &[("gun", "plain", "E5"), ("foes", "sq", "I1")],
    );
    s.sides[0].units.push(aboard("grens", "sq"));
    s.sides[0].units.push(aboard("t1", "plain"));
    let mut cards = cards();
    cards.push(tank("landing-craft", &["sealifter"]));
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    st.unit_mut("lc").expect("lc").facing = Some(facing);
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, first);
    st
}

// issue 18, 002 "Sealifter": "A Sealifter has twelve spaces for soldiers with Infantry Armour 1
// or 2 ... Most Vehicles occupy 6 spaces ... Units can begin the game carried by the Sealifter, or
// mount a Sealifter during the game. To mount a Sealifter, a Unit must move into the Sealifter."
// (R776, R777) The squad (4) and a tank (6) begin carried; a second tank moving into it would
// need 6 of the 2 spaces left: refused, nothing moves.
#[test]
fn s002_sealifter_twelve_spaces_units_begin_carried_and_mount_by_moving_into_it() {
    let mut st = sealift_game("allies", Facing::E);
    assert_eq!(u(&st, "grens").aboard.as_deref(), Some("lc"));
    assert_eq!(u(&st, "t1").aboard.as_deref(), Some("lc"));
    let out = orders(&mut st, "allies", "activate t2\n  move C5\n  nothing", &[]);
    let (reason, _) = refused(&out);
    assert!(
        reason.contains("needs 6") && reason.contains("10 of its 12"),
        "{reason}"
    );
    assert_eq!(u(&st, "t2").at, Some(sq("D4")));
    // With the squad ashore the tank mounts (4 spaces freed): it moves into the Sealifter.
    let out = orders(
        &mut st,
        "allies",
        "activate grens\n  move D5\n  nothing",
        &[],
    );
    accepted(&out);
    assert_eq!(u(&st, "grens").at, Some(sq("D5")), "{}", texts(&out));
    orders(&mut st, "axis", "activate foes\n  nothing\n  nothing", &[]);
    let out = orders(&mut st, "allies", "activate t2\n  move C5\n  nothing", &[]);
    accepted(&out);
    assert_eq!(
        u(&st, "t2").aboard.as_deref(),
        Some("lc"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "t2").at, None);
}

// 002 "Sealifter": "A Sealifter cannot carry Huge Vehicles", and "Large Vehicles occupy all
// twelve spaces" (R776): `new` refuses a Huge vehicle aboard, and a Large one with a squad.
#[test]
fn s002_sealifter_never_a_huge_vehicle_and_a_large_one_takes_all_twelve_spaces() {
    let mut huge = tank("huge", &[]);
    huge.huge = true;
    let mut large = tank("large", &[]);
    large.size = Some(VehicleSize::Large);
    for (card, says) in [("huge", "Huge"), ("large", "16 spaces")] {
        let mut s = naval_scenario(&[("lc", "landing-craft", "C5")], &[("foes", "sq", "I1")]);
        for (id, c) in [("big", card), ("grens", "sq")] {
            let mut spec = unit(id, c, None);
            spec.aboard = Some("lc".into());
            s.sides[0].units.push(spec);
        }
        let mut cs = cards();
        cs.extend([
            tank("landing-craft", &["sealifter"]),
            huge.clone(),
            large.clone(),
        ]);
        let e = DustTactics
            .start("battlefront-2013", s, cs)
            .expect_err("refused at new");
        assert!(e.0.contains(says) && e.0.contains("Sealifter"), "{}", e.0);
    }
}

// 002 "Sealifter": "A Unit can dismount from a Sealifter by Activating before the Sealifter
// Activates and performing a Move or March Move Action to move out of the Sealifter. Other than
// this, they cannot perform Move, March Move, Attack, or Sustained Attack Actions while being
// carried by a Sealifter. ... A Unit carried by a Sealifter cannot be targeted by an attack, and
// cannot use its weapons." (R777, R778) The squad's attack from inside is refused; the tank
// dismounts onto the shore; once the Sealifter has activated the squad can no longer dismount.
#[test]
fn s002_sealifter_carried_units_use_no_weapons_and_dismount_before_it_activates() {
    let mut st = sealift_game("allies", Facing::E);
    // The template offers the squad its dismount, and no attack.
    let b = block(&st, "allies", "grens");
    assert!(b.contains("carried in lc") && b.contains("move D5"), "{b}");
    assert!(!b.contains("attack"), "{b}");
    let out = orders(
        &mut st,
        "allies",
        "activate grens\n  attack gun at gun\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("cannot use its weapons"), "{reason}");
    assert!(
        rule.contains("Sealifter") && rule.contains("R778"),
        "{rule}"
    );
    let out = orders(&mut st, "allies", "activate t1\n  move D6\n  nothing", &[]);
    accepted(&out);
    assert_eq!(u(&st, "t1").at, Some(sq("D6")), "{}", texts(&out));
    assert_eq!(u(&st, "t1").aboard, None);
    orders(&mut st, "axis", "activate foes\n  nothing\n  nothing", &[]);
    accepted(&orders(
        &mut st,
        "allies",
        "activate lc\n  nothing\n  nothing",
        &[],
    ));
    orders(&mut st, "axis", "activate gun\n  nothing\n  nothing", &[]);
    let out = orders(
        &mut st,
        "allies",
        "activate grens\n  move D5\n  nothing",
        &[],
    );
    assert!(
        refused(&out).0.contains("already activated"),
        "{:?}",
        refused(&out)
    );
    assert_eq!(u(&st, "grens").aboard.as_deref(), Some("lc"));
}

/// The axis tank destroys `lc` (one damage point left) with its rockets.
fn sink_lc(st: &mut State) -> String {
    st.unit_mut("lc").expect("lc").health = 1;
    let out = orders(
        st,
        "axis",
        "activate gun\n  attack rockets at lc\n  nothing",
        &[1, 3, 1, 3, 1, 3],
    );
    let t = texts(&out);
    assert!(u(st, "lc").destroyed, "{t}");
    t
}

// 002 "Sealifter": "If a Sealifter is eliminated in Deep Water, all Passengers and Vehicles carried
// by it are eliminated." (R779) Facing south, its bow door (C6) is in the water: the squad and the
// tank go down with it.
#[test]
fn s002_sealifter_eliminated_in_deep_water_its_carried_units_are_eliminated() {
    let mut st = sealift_game("axis", Facing::S);
    let t = sink_lc(&mut st);
    assert!(t.contains("eliminated in deep water"), "{t}");
    assert!(u(&st, "grens").destroyed && u(&st, "t1").destroyed, "{t}");
}

// 002 "Sealifter": "If it is eliminated with the bow door in contact with dry land, the Passengers
// and Vehicles it is carrying are unharmed and may dismount as normal." (R779) Facing east, its bow
// door (D5) is on open ground: the squad (all four) and the tank are placed ashore, unharmed.
#[test]
fn s002_sealifter_eliminated_with_the_bow_door_on_dry_land_they_are_unharmed() {
    let mut st = sealift_game("axis", Facing::E);
    let t = sink_lc(&mut st);
    assert!(t.contains("bow door on dry land (D5)"), "{t}");
    assert_eq!(u(&st, "grens").at, Some(sq("D5")), "{t}");
    assert_eq!(u(&st, "grens").models.len(), 4, "{t}");
    let t1 = u(&st, "t1");
    assert!(
        !t1.destroyed && t1.aboard.is_none() && t1.health == 3,
        "{t}"
    );
    assert!(t1.at.is_some_and(|a| a.col() >= 3), "{t}");
    assert_eq!(st.scenario.board.terrain(sq("C5")), Terrain::DeepWater);
}

// Every sentence above on one scenario: the provisional gunboat and landing craft of
// games/dust-tactics/cards-battlefront-naval/ in "Landing" (the landing craft begins with the Bot
// Hunters and the Pounder carried, its bow door on the beach), played to its end by two players'
// signed mails; the reports show the gunboat firing and the carried units dismounting; the game
// replays.
#[test]
fn s002_naval_unit_and_sealifter_the_landing_is_played_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let dir = tempfile::tempdir().unwrap();
    let (home, env) = dt::play_cards_to_end(
        dir.path(),
        "battlefront-2013",
        ("cards-battlefront-naval", "landing"),
        ("g-landing", 23),
        |_| Style::Aggressive,
    );
    let g = env.load("g-landing");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    assert!(
        sent.contains("gunboat fires"),
        "the gunboat never fired: {tail}"
    );
    assert!(
        sent.contains("bot-hunters moves")
            || sent.contains("bot-hunters is unharmed and dismounts"),
        "the Bot Hunters never reached the beach: {tail}"
    );
    // Carried units leave the craft by a move, not onto the entry zone: the briefing does not
    // list them as units off the board.
    let flat = crate::support::flat(&sent);
    assert!(flat.contains("carrying bot-hunters, pounder"), "{tail}");
    assert!(!flat.contains("Off the board: bot-hunters"), "{tail}");
    dt::replay_and_audit(&home, "g-landing");
}

// R758, R82: only a scenario made for battlefront-2013 alone may place a unit on deep water (where
// `new` then admits only a Naval Unit or an Amphibious vehicle); for any other ruleset the square
// is still refused when the scenario is read.
#[test]
fn s002_naval_unit_only_a_battlefront_scenario_places_units_on_deep_water() {
    use dustmail::dust_tactics::scenario::parse;
    let text = |rulesets: &str| {
        format!(
            "title = \"t\"\ndescription = \"d\"\nrounds = 3\nap_limit = 100\n{rulesets}\n[board]\nrows = [\"~..\", \"...\", \"...\"]\n\n[[sides]]\nid = \"allies\"\nname = \"Allies\"\nentry = {{ rows = [3] }}\n\n[[sides.units]]\nid = \"boat\"\ncard = \"bf-allied-gunboat\"\nat = \"A1\"\n\n[[sides]]\nid = \"axis\"\nname = \"Axis\"\nentry = {{ rows = [2] }}\n\n[[sides.units]]\nid = \"foes\"\ncard = \"bf-recon-grenadiers\"\nat = \"C2\"\n"
        )
    };
    let ok = parse("landing", &text("rulesets = [\"battlefront-2013\"]"));
    assert!(ok.is_ok(), "{:?}", ok.err());
    let e = parse("landing", &text("rulesets = [\"ffg-revised\"]")).unwrap_err();
    assert!(e.0.contains("A1") && e.0.contains("DeepWater"), "{}", e.0);
}
