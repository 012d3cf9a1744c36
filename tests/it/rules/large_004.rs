//! Issue 12: 004's Tesla weapons (play reference, "Special weapons") and the skill Air Alt (004
//! skills reference). Orders go through the real state machine; each test quotes the sentence
//! it checks. Rulings R560–R564.

use crate::support_flow::*;

use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::game::ScriptedDice;

/// Both sides on the board, no reactive fire (so the scripted dice are the attacks' only).
fn game(s: dustmail::dust_tactics::scenario::Scenario, cards: Vec<Card>) -> State {
    let mut st = start_defaults(s, cards);
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// A Tesla line: 1 die of 1 damage against every armour, range 4.
fn coil() -> WeaponLine {
    let mut w = weapon("coil", WeaponRange::Upto(4), 1, 1);
    w.traits = vec![WeaponTrait::Tesla];
    w
}

/// A vehicle carrying [`coil`], with `health`.
fn tesla_tank(id: &str, health: u8) -> Card {
    card(id, UnitType::Vehicle, health, 1, vec![coil()])
}

/// A squad of `n` models with soft cover saves on a hit, carrying `w`.
fn squad_of(id: &str, n: u8, w: WeaponLine) -> Card {
    let mut c = card(id, UnitType::Squad, n, 1, vec![w]);
    c.soft_save = Save::Hit;
    c
}

// ---------------------------------------------------------------------------------------------
// 004 "Tesla weapons": the attack
// ---------------------------------------------------------------------------------------------

/// Allied Tesla tank `tk` on E5; axis squad `x1` (3 models) on E2 on rubble, axis `x2` on E3,
/// allied `a2` on E4 (both between), and axis `x3` far away on A1.
fn line_up() -> State {
    let mut s = scenario(
        vec![
            unit("tk", "tesla", Some("E5")),
            unit("a2", "sq3", Some("E4")),
        ],
        vec![
            unit("x1", "sq3", Some("E2")),
            unit("x2", "sq3", Some("E3")),
            unit("x3", "sq3", Some("A1")),
        ],
    );
    s.board.set_terrain(sq("E2"), Terrain::Rubble);
    let rifle = weapon("gun", WeaponRange::Upto(4), 1, 1);
    game(s, vec![tesla_tank("tesla", 3), squad_of("sq3", 3, rifle)])
}

#[test]
fn tesla_004_reroll_all_hits_until_all_dice_miss() {
    // 004 "Tesla weapons": "Inflict damage for each [hit] result and reroll all [hit] results.
    // Continue inflicting damage and rerolling each [hit] result until all dice show [miss]
    // results." The target alone: the Tesla tank is adjacent to it.
    let s = scenario(
        vec![unit("tk", "tesla", Some("E5"))],
        vec![unit("x1", "sq3", Some("E4")), unit("x3", "sq3", Some("A1"))],
    );
    let rifle = weapon("gun", WeaponRange::Upto(4), 1, 1);
    let mut st = game(s, vec![tesla_tank("tesla", 3), squad_of("sq3", 3, rifle)]);
    // 1 hit, re-rolled: hit, then miss: 2 damage from 1 die.
    let mut d = ScriptedDice::new([1, 2, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("tk", vec![attack("coil", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "x1").models.len(), 1, "{}", texts(&out));
    assert!(
        texts(&out).contains("2 tesla chain dice"),
        "{}",
        texts(&out)
    );
}

#[test]
fn tesla_004_ignore_cover_and_damage_all_units_in_spaces_between() {
    // 004 "Tesla weapons": "Tesla weapons ignore cover. They inflict damage on all units in
    // spaces between the attacking unit and the target unit—even spaces occupied by friendly
    // units." x1 on rubble rolls no save; x2 (enemy) and a2 (friend) between are attacked too.
    let mut st = line_up();
    // x1: hit, chain miss; x2 (E3): hit, chain miss; a2 (E4): hit, chain miss.
    let mut d = ScriptedDice::new([1, 6, 2, 5, 1, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("tk", vec![attack("coil", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "no cover save die: {}", texts(&out));
    for id in ["x1", "x2", "a2"] {
        assert_eq!(u(&st, id).models.len(), 2, "{id}: {}", texts(&out));
    }
    assert_eq!(u(&st, "x3").models.len(), 3, "{}", texts(&out));
}

#[test]
fn tesla_004_control_a_plain_line_is_saved_by_cover_and_hits_only_its_target() {
    // The control of the test above: the same shot from a line without the Tesla trait rolls
    // x1's cover save (a hit cancels the hit) and leaves the units between alone.
    let mut s = scenario(
        vec![
            unit("tk", "plain", Some("E5")),
            unit("a2", "sq3", Some("E4")),
        ],
        vec![
            unit("x1", "sq3", Some("E2")),
            unit("x2", "sq3", Some("E3")),
            unit("x3", "sq3", Some("A1")),
        ],
    );
    s.board.set_terrain(sq("E2"), Terrain::Rubble);
    let plain = card(
        "plain",
        UnitType::Vehicle,
        3,
        1,
        vec![weapon("coil", WeaponRange::Upto(4), 1, 1)],
    );
    let rifle = weapon("gun", WeaponRange::Upto(4), 1, 1);
    let mut st = game(s, vec![plain, squad_of("sq3", 3, rifle)]);
    let mut d = ScriptedDice::new([1, 1]);
    let out = cmd(
        &mut st,
        "allies",
        activate("tk", vec![attack("coil", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    for id in ["x1", "x2", "a2"] {
        assert_eq!(u(&st, id).models.len(), 3, "{id}: {}", texts(&out));
    }
}

// ---------------------------------------------------------------------------------------------
// 004 "Tesla weapons": the explosion
// ---------------------------------------------------------------------------------------------

/// Axis Tesla carrier `xt` (card `carrier`) on E3; allied `a1` on E6 shoots it; allied `a2` on
/// D4 and axis `x2` on F2 are adjacent to it, allied `a3` on C3 is not.
fn blast_at(carrier: Card) -> State {
    let id = carrier.id.clone();
    let s = scenario(
        vec![
            unit("a1", "sq3", Some("E6")),
            unit("a2", "sq3", Some("D4")),
            unit("a3", "sq3", Some("C3")),
        ],
        vec![unit("xt", &id, Some("E3")), unit("x2", "sq3", Some("F2"))],
    );
    let rifle = weapon("gun", WeaponRange::Upto(4), 1, 1);
    game(s, vec![carrier, squad_of("sq3", 3, rifle)])
}

#[test]
fn tesla_004_a_destroyed_vehicle_attacks_all_units_in_adjacent_spaces() {
    // 004 "Tesla weapons": "If a vehicle equipped with a Tesla weapon is destroyed, all units in
    // adjacent spaces suffer an attack roll as if they had been attacked by the destroyed
    // vehicle's Tesla weapon." Friend and foe alike; the unit two squares away is spared.
    let mut st = blast_at(tesla_tank("tesla", 1));
    // a1's 3 dice: one hit destroys xt. Then the explosion: a2 hit (chain miss), x2 miss.
    let mut d = ScriptedDice::new([1, 6, 6, 2, 6, 5]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "xt"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(u(&st, "xt").destroyed, "{}", texts(&out));
    assert!(texts(&out).contains("explodes"), "{}", texts(&out));
    assert_eq!(u(&st, "a2").models.len(), 2, "{}", texts(&out));
    assert_eq!(u(&st, "x2").models.len(), 3, "{}", texts(&out));
    assert_eq!(u(&st, "a3").models.len(), 3, "{}", texts(&out));
}

#[test]
fn tesla_004_a_destroyed_non_vehicle_explodes_only_on_a_hit() {
    // 004 "Tesla weapons": "If a non-vehicle unit equipped with a Tesla weapon is destroyed,
    // roll a die. On a [hit], the weapon explodes and all units in adjacent spaces suffer an
    // attack roll as if they had been attacked by the destroyed unit's Tesla weapon."
    for (roll, a2_left) in [(5u8, 3usize), (1, 2)] {
        let mut st = blast_at(squad_of("tesla-squad", 1, coil()));
        // a1: one hit of 3 kills the lone model; the explosion die; then a2 and x2 if it blew.
        let dice: Vec<u8> = if roll == 1 {
            vec![1, 6, 6, roll, 2, 6, 5]
        } else {
            vec![1, 6, 6, roll]
        };
        let mut d = ScriptedDice::new(dice);
        let out = cmd(
            &mut st,
            "allies",
            activate("a1", vec![attack("gun", "xt"), nothing()]),
            &mut d,
        );
        accepted(&out);
        assert_eq!(d.remaining(), 0, "{}", texts(&out));
        assert!(u(&st, "xt").destroyed, "{}", texts(&out));
        assert_eq!(u(&st, "a2").models.len(), a2_left, "{}", texts(&out));
    }
}

// ---------------------------------------------------------------------------------------------
// 004 "Air Alt"
// ---------------------------------------------------------------------------------------------

/// Axis `x1` (a vehicle with a 2-dice gun that can hit aircraft, and `skills`) on E3; the allied
/// hovering aircraft `a1` (health 3) on E1, or a ground vehicle there when `aircraft` is false.
fn air_alt(skills: &[&str], aircraft: bool) -> State {
    let mut gun = weapon("gun", WeaponRange::Upto(4), 2, 1);
    gun.aircraft = [dice(2, 1); 3];
    let mut flak = card("flak", UnitType::Vehicle, 3, 1, vec![gun.clone()]);
    for s in skills {
        flak = with_skill(flak, s, None);
    }
    let mut hawk = with_skill(
        card("hawk", UnitType::Vehicle, 3, 4, vec![gun]),
        "hover",
        None,
    );
    if aircraft {
        hawk.armour = Armour::Aircraft(1);
    }
    let s = scenario(
        vec![unit("a1", "hawk", Some("E1"))],
        // x2 keeps the round open: no initiative roll eats the scripted dice.
        vec![unit("x1", "flak", Some("E3")), unit("x2", "sq", Some("A9"))],
    );
    let mut st = game(s, vec![hawk, flak, squad("sq")]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    st
}

#[test]
fn air_alt_004_a_sustained_attack_at_an_aircraft_has_2_chances_to_reroll_misses() {
    // 004 "Air Alt": "When this unit makes a SUSTAINED ATTACK against an armor class [aircraft]
    // unit, they have 2 chances to reroll any miss results." Two misses, re-rolled into two
    // misses, re-rolled again into two hits.
    let mut st = air_alt(&["air-alt"], true);
    let mut d = ScriptedDice::new([5, 6, 5, 6, 1, 1]);
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![sustained("gun", "a1")]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(texts(&out).contains("Air Alt"), "{}", texts(&out));
    assert_eq!(u(&st, "a1").health, 1, "{}", texts(&out));
}

#[test]
fn air_alt_004_control_only_a_sustained_attack_at_an_aircraft_gets_the_second_chance() {
    // The controls: without the skill, at a ground vehicle, or in a plain ATTACK, the second
    // re-roll is not rolled (the sustained re-roll alone, or none).
    for (skills, aircraft, sustained_attack, used) in [
        (&[][..], true, true, 4usize),
        (&["air-alt"][..], false, true, 4),
        (&["air-alt"][..], true, false, 2),
    ] {
        let mut st = air_alt(skills, aircraft);
        let mut d = ScriptedDice::new([5, 6, 5, 6, 1, 1]);
        let action = if sustained_attack {
            vec![sustained("gun", "a1")]
        } else {
            vec![attack("gun", "a1"), nothing()]
        };
        let out = cmd(&mut st, "axis", activate("x1", action), &mut d);
        accepted(&out);
        assert_eq!(
            6 - d.remaining(),
            used,
            "{skills:?} {aircraft}: {}",
            texts(&out)
        );
        assert_eq!(u(&st, "a1").health, 3, "{}", texts(&out));
    }
}

// ---------------------------------------------------------------------------------------------
// The provisional cards of games/dust-tactics/cards-large/, played through the pipeline
// ---------------------------------------------------------------------------------------------

#[test]
fn tesla_and_air_alt_004_the_provisional_cards_play_a_scenario_to_its_end_by_mail() {
    // Issue 12: the Tesla tank, the Tesla troopers, the aircraft and the Air Alt squad of
    // games/dust-tactics/cards-large/ are accepted by `new --cards` (nothing the engine ignores)
    // and the scenario "Tesla Skies" is played to its end by two players' signed mails.
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/dust-tactics/cards-large");
    let dir = tempfile::tempdir().unwrap();
    let (cards, scenario) = (
        root.display().to_string(),
        root.join("scenarios/tesla-skies.toml")
            .display()
            .to_string(),
    );
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &["--cards", &cards, "--scenario", &scenario],
        ("g-tesla", 9, 9),
    );
    let mut bots = dt::Bots::new("g-tesla", &ps, |_| Style::Aggressive);
    bots.play_to_end(&home, &env);
    let g = env.load("g-tesla");
    assert!(g.derived.finished.is_some(), "the game did not end");
    // The reports the players received tell the Tesla shots and the Air Alt re-rolls.
    let sent = dt::sent_text(&home);
    assert!(
        sent.contains("fires Tesla"),
        "no Tesla line was fired in the whole game"
    );
}

#[test]
fn tesla_002_a_battlefront_card_with_a_tesla_line_is_accepted() {
    // R563, amended by R750. 002 "Tesla Weapons": "When a Unit is Hit by a Tesla weapon, place a
    // Stunned token with the Unit or on the Unit Card." battlefront-2013's Tesla is 002's, built
    // since R750 (tests::rules::battlefront_tesla): a card naming the trait is accepted.
    use dustmail::dust_tactics::battlefront;
    let (file, text) = battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == "bf-grandma.toml")
        .expect("grandma");
    let mut files = std::collections::BTreeMap::new();
    let tesla = text.replacen("range = \"6\"", "range = \"6\"\ntraits = [\"tesla\"]", 1);
    assert_ne!(tesla, text);
    files.insert(file.to_string(), tesla);
    assert_eq!(battlefront::skills::check_cards(&files), Ok(()));
}

// ---------------------------------------------------------------------------------------------
// 004 "LARGE VEHICLES": what a card says
// ---------------------------------------------------------------------------------------------

#[test]
fn large_vehicles_004_a_card_with_a_size_key_is_refused_with_its_file() {
    // R565, R571. 004 "LARGE VEHICLES": "Large vehicles must sit inside 4 spaces with no part of
    // the main body projecting outside." A card says `large = true` (R566); a `size` key other
    // than 003's two-square `size = "large"` (R767) is refused by name, not ignored.
    use dustmail::dust_tactics::cards::parse_card;
    let (_, text) = dustmail::dust_tactics::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == "m2c-pounder.toml")
        .expect("pounder");
    assert!(parse_card("m2c-pounder.toml", text).is_ok());
    let big = text.replacen("movement = 1", "large = true\nmovement = 1", 1);
    let read = parse_card("m2c-pounder.toml", &big);
    assert!(read.as_ref().is_ok_and(|c| c.large), "{read:?}");
    let sized = text.replacen("movement = 1", "size = \"huge\"\nmovement = 1", 1);
    let e = parse_card("big-pounder.toml", &sized).expect_err("size");
    assert_eq!(e.file, "big-pounder.toml");
    assert!(e.to_string().contains("LARGE VEHICLES"), "{e}");
}
