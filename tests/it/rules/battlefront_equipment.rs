//! Issue 18: 002's "Vehicle Equipment" under battlefront-2013 (R663–R669). The vehicles are the
//! test tanks of `aircraft_004` (armour vehicle 3, `rockets` 2 dice range 4 that reach aircraft)
//! and its aircraft `hawk` (armour aircraft 1). Scripted dice (1, 2 army; 3, 4 target; 5, 6
//! shield).

use super::aircraft_004::{aircraft, tank};
use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card;
use dustmail::dust_tactics::model::Card;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{Outcome, ScriptedDice};

/// A battlefront-2013 game on the open 9×9 board: allies and axis as (id, card, square); nobody
/// reacts; allies first.
fn game(cards: Vec<Card>, allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)]) -> State {
    let specs = |v: &[(&str, &str, &str)]| {
        v.iter()
            .map(|(id, c, at)| unit(id, c, Some(at)))
            .collect::<Vec<_>>()
    };
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            scenario(specs(allies), specs(axis)),
            cards,
        )
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// `first` then every face in turn: enough dice for any activation.
fn dice_from(first: &[u8]) -> ScriptedDice {
    let mut v = first.to_vec();
    v.extend((0..300).map(|i| (i % 6 + 1) as u8));
    ScriptedDice::new(v)
}

fn orders(st: &mut State, side: &str, text: &str, first: &[u8]) -> Outcome {
    send(st, side, text, &mut dice_from(first))
}

/// Allied `alert` (a tank with Air Alert) on E5 and `gun` (a tank without) on C5; the axis
/// aircraft `bird` on E2, the squad `grens` on G2 and a spare squad on I1.
fn air_game() -> State {
    game(
        vec![
            tank("alerter", &["air-alert"]),
            tank("plain", &[]),
            aircraft("hawk", &[]),
            squad("sq"),
        ],
        &[("alert", "alerter", "E5"), ("gun", "plain", "C5")],
        &[
            ("bird", "hawk", "E2"),
            ("grens", "sq", "G2"),
            ("spare", "sq", "I1"),
        ],
    )
}

// issue 18, 002 "Air Alert": "A Vehicle with Air Alert equipment can take an Air Alert Special
// Action. If it does so, select an enemy Aircraft within Line of Sight and roll a die. On a [army]
// result, any friendly Vehicles performing an Attack or Sustained Attack against that Aircraft
// hit on rolls of [target] as well as [army] for the remainder of the turn." (R663: the lost
// symbols read as army, then target as well as army) The die shows army: the vehicle's own attack
// then hits on army or target, and so does the other allied tank's later in the turn.
#[test]
fn s002_vehicle_equipment_air_alert_on_army_friendly_vehicles_hit_the_aircraft_on_two_symbols() {
    let mut st = air_game();
    let out = orders(
        &mut st,
        "allies",
        "activate alert\n  skill air-alert at bird\n  attack rockets at bird",
        &[1, 3, 4],
    );
    let t = texts(&out);
    assert!(t.contains("Air Alert (002): alert rolls army"), "{t}");
    assert_eq!(u(&st, "bird").health, 1, "two target symbols hit: {t}");
    assert!(t.contains("army or target hits"), "{t}");
    assert_eq!(u(&st, "bird").air_alert, Some(("allies".into(), 1)), "{t}");
    let out = orders(&mut st, "axis", "activate spare\n  nothing\n  nothing", &[]);
    accepted(&out);
    let out = orders(
        &mut st,
        "allies",
        "activate gun\n  attack rockets at bird\n  nothing",
        &[3, 5],
    );
    let t = texts(&out);
    assert!(t.contains("army or target hits"), "{t}");
    assert!(u(&st, "bird").destroyed, "a target symbol hit: {t}");
}

// R663: on a target or shield the Special Action does nothing: the attack that follows hits on
// army only, as usual.
#[test]
fn s002_vehicle_equipment_air_alert_no_effect_without_an_army_symbol() {
    let mut st = air_game();
    let out = orders(
        &mut st,
        "allies",
        "activate alert\n  skill air-alert at bird\n  attack rockets at bird",
        &[5, 3, 4],
    );
    let t = texts(&out);
    assert!(
        t.contains("rolls shield against the aircraft bird: no army symbol"),
        "{t}"
    );
    assert!(!t.contains("army or target hits"), "{t}");
    assert_eq!(u(&st, "bird").health, 3, "two target symbols miss: {t}");
    assert_eq!(u(&st, "bird").air_alert, None);
}

// R663: only a vehicle whose card has the equipment, only at an enemy aircraft: a tank without
// it, and an Air Alert at a squad, are refused citing 002, and change nothing; a card that is not
// a ground vehicle naming `air-alert` is refused when read.
#[test]
fn s002_vehicle_equipment_air_alert_only_a_vehicle_with_it_at_an_enemy_aircraft() {
    let mut st = air_game();
    for (text, why) in [
        (
            "activate gun\n  skill air-alert at bird\n  nothing",
            "gun is not a vehicle with Air Alert equipment",
        ),
        (
            "activate alert\n  skill air-alert at grens\n  nothing",
            "grens is not an enemy aircraft",
        ),
    ] {
        let out = orders(&mut st, "allies", text, &[]);
        let (reason, rule) = refused(&out);
        assert!(reason.contains(why), "{reason}");
        assert!(rule.contains("002 \"Air Alert\""), "{rule}");
    }
    assert!(!u(&st, "gun").activated && !u(&st, "alert").activated);
    let extra = "[[skills]]\nname = \"air-alert\"";
    let (f, t) = super::battlefront_skills002::card_with("bf-pounder", extra);
    assert!(parse_card(&f, &t).is_ok());
    let (f, t) = super::battlefront_skills002::card_with("bf-recon-grenadiers", extra);
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("Vehicle Equipment"), "{e}");
}

/// Allied `van` (a tank with `extra` equipment) on E5 and the squad `mine` on E6, which lost two
/// of its four soldiers; the axis squad `theirs` on E3 and a spare on I1.
fn van_game(extra: &[&str]) -> State {
    let mut st = game(
        vec![tank("van-card", extra), squad("sq")],
        &[("van", "van-card", "E5"), ("mine", "sq", "E6")],
        &[("theirs", "sq", "E3"), ("spare", "sq", "I1")],
    );
    let m = st.unit_mut("mine").expect("mine");
    m.models.truncate(2);
    m.health = 2;
    st
}

// issue 18, 002 "Medevac": "A Medevac Vehicle can perform a Medevac Special Action. If it does,
// select an Infantry Unit within Range 1 (1 square in *Dust Tactics*). Roll a die for each
// Soldier eliminated from the Unit. Each [army] rolled returns one of the eliminated Soldiers to
// the Unit." (R665: the lost symbol read as army) Two soldiers lost, two dice: army, target: one
// comes back.
#[test]
fn s002_vehicle_equipment_medevac_a_die_per_eliminated_soldier_army_returns_one() {
    let mut st = van_game(&["medevac"]);
    let out = play(
        &mut st,
        "allies",
        "activate van\n  skill medevac at mine\n  nothing",
        &[1, 3],
    );
    let t = texts(&out);
    assert!(t.contains("Medevac (002): van rolls 2 dice"), "{t}");
    assert!(t.contains("1 army, 1 back"), "{t}");
    assert_eq!(u(&st, "mine").models.len(), 3, "{t}");
}

// R665: a friendly infantry squad within one square, by a vehicle with the equipment: the enemy
// squad, a squad two squares away and a vehicle without Medevac are refused citing 002, and
// nothing changes.
#[test]
fn s002_vehicle_equipment_medevac_only_a_friendly_squad_within_one_square() {
    let mut st = van_game(&["medevac"]);
    let out = orders(
        &mut st,
        "allies",
        "activate van\n  skill medevac at theirs\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("theirs is not a friendly infantry squad"),
        "{reason}"
    );
    assert!(rule.contains("002 \"Medevac\""), "{rule}");
    let out = orders(
        &mut st,
        "allies",
        "activate van\n  move E4\n  skill medevac at mine",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(
        reason.contains("mine is not within 1 square of van"),
        "{reason}"
    );
    let mut st = van_game(&[]);
    let out = orders(
        &mut st,
        "allies",
        "activate van\n  skill medevac at mine\n  nothing",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("van is not a Medevac vehicle"), "{reason}");
    assert_eq!(u(&st, "mine").models.len(), 2);
}

// issue 18, 002 "Smoke Launchers": "Once per game, a Vehicle with Smoke Launchers may take Launch
// Smoke Special Action to place a Smoke Screen on itself. In *Dust Tactics*, the Smoke Screen
// fills any one square occupied by the Vehicle." (R666; 003: "Squares containing smoke block
// Line of Sight to units on the far side") The van launches on E5 and drives on to F5: `theirs`
// on E3 no longer sees `mine` on E6 beyond the smoke (without the smoke, the same move leaves the
// line clear); a second launch is refused; the smoke lifts at the end of the next turn.
#[test]
fn s002_vehicle_equipment_smoke_launchers_once_per_game_smoke_on_its_own_square() {
    use dustmail::dust_tactics::model::Terrain;
    use dustmail::dust_tactics::orders::{Action, FireOrder, TargetRef};
    let shot = |st: &mut State| {
        let fire = FireOrder {
            weapon: "gun".into(),
            target: TargetRef::Unit("mine".into()),
            through: vec![],
            count: None,
        };
        let a = vec![Action::Attack { fire: vec![fire] }, Action::Nothing];
        flow::check_activation(st, "axis", "theirs", &a)
    };
    let mut st = van_game(&[]);
    orders(&mut st, "allies", "activate van\n  move F5\n  nothing", &[]);
    assert!(shot(&mut st).is_ok(), "{:?}", shot(&mut st));
    let mut st = van_game(&["smoke-launchers"]);
    let out = orders(
        &mut st,
        "allies",
        "activate van\n  skill smoke-launchers\n  move F5",
        &[],
    );
    let t = texts(&out);
    assert!(
        t.contains("Smoke Launchers (002): van places a Smoke Screen on E5"),
        "{t}"
    );
    assert_eq!(st.scenario.board.terrain(sq("E5")), Terrain::Smoke);
    let e = shot(&mut st).expect_err("smoke blocks the line");
    assert!(e.reason.contains("line of sight past E5"), "{}", e.reason);
    next_round(&mut st);
    assert_eq!(
        st.scenario.board.terrain(sq("E5")),
        Terrain::Smoke,
        "round 2"
    );
    let out = orders(
        &mut st,
        "allies",
        "activate van\n  skill smoke-launchers\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("already launched its smoke"), "{reason}");
    assert!(rule.contains("002 \"Smoke Launchers\""), "{rule}");
    next_round(&mut st);
    assert_eq!(
        st.scenario.board.terrain(sq("E5")),
        Terrain::Open,
        "round 3"
    );
}

// issue 18, 002 "Half-tracked", "Tracked", "Wheeled": "In *Dust Tactics Battlefield*, a ...
// Vehicle rolls a die when attempting to move into, through, or out of Terrain." (R664: on the
// Dust Tactics grid they change nothing) A tank with each moves as before, no die rolled; a card
// that is not a vehicle naming one is refused when read.
#[test]
fn s002_vehicle_equipment_half_tracked_tracked_wheeled_change_nothing_on_the_grid() {
    for kind in ["half-tracked", "tracked", "wheeled"] {
        let mut st = van_game(&[kind]);
        play(&mut st, "allies", "activate van\n  move D4\n  nothing", &[]);
        assert_eq!(u(&st, "van").at, Some(sq("D4")), "{kind}");
        let extra = format!("[[skills]]\nname = \"{kind}\"");
        let (f, t) = super::battlefront_skills002::card_with("bf-pounder", &extra);
        assert!(parse_card(&f, &t).is_ok(), "{kind}");
        let (f, t) = super::battlefront_skills002::card_with("bf-recon-grenadiers", &extra);
        assert!(parse_card(&f, &t).is_err(), "{kind}");
    }
}

// issue 18, 002 "Amphibious": "An Amphibious Vehicle can move through Deep Water as if it were
// Open Space." (R667, amends R611 for vehicles) A tank with `amphibious` moves into the deep
// water on E4 and stops there; the same tank without it is refused in 003's words
// ("Units cannot enter a water square"); a squad's card naming it is refused at `new`.
#[test]
fn s002_vehicle_equipment_amphibious_a_vehicle_moves_through_deep_water_as_open() {
    use dustmail::dust_tactics::model::Terrain;
    let water = |extra: &[&str]| {
        let mut s = scenario(
            vec![unit("van", "van-card", Some("E5"))],
            vec![unit("theirs", "sq", Some("A1"))],
        );
        s.board.set_terrain(sq("E4"), Terrain::DeepWater);
        let mut st = DustTactics
            .start(
                "battlefront-2013",
                s,
                vec![tank("van-card", extra), squad("sq")],
            )
            .expect("setup");
        for side in st.sides() {
            flow::standing_react(&mut st, &side, None, Policy::Never).expect("never");
        }
        begin(&mut st, "allies");
        st
    };
    let mut st = water(&["amphibious"]);
    let out = orders(&mut st, "allies", "activate van\n  move E4\n  nothing", &[]);
    accepted(&out);
    assert_eq!(u(&st, "van").at, Some(sq("E4")), "{}", texts(&out));
    let mut st = water(&[]);
    let out = orders(&mut st, "allies", "activate van\n  move E4\n  nothing", &[]);
    let (reason, rule) = refused(&out);
    assert!(reason.contains("water square"), "{reason}");
    assert!(rule.contains("003 \"Water Squares\""), "{rule}");
    let extra = "[[skills]]\nname = \"amphibious\"";
    for (id, ok) in [("bf-pounder", true), ("bf-recon-grenadiers", false)] {
        let card = super::battlefront_skills002::card_with(id, extra);
        let files = std::collections::BTreeMap::from([card]);
        let r = dustmail::dust_tactics::battlefront::skills::check_cards(&files);
        assert_eq!(r.is_ok(), ok, "{id}: {r:?}");
    }
}

/// A tank with Crew (its `rockets`, and three crew weapons `mg1`..`mg3` with the trait `crew`),
/// `health` damage points left, on E5; the axis squad `theirs` on E3.
fn crew_game(health: u8) -> State {
    use dustmail::dust_tactics::model::{WeaponRange, WeaponTrait};
    let mut c = tank("crewed", &["crew"]);
    for id in ["mg1", "mg2", "mg3"] {
        let mut w = weapon(id, WeaponRange::Upto(4), 1, 1);
        w.traits.push(WeaponTrait::Crew);
        c.weapons.push(w);
    }
    let mut st = game(
        vec![c, squad("sq")],
        &[("sp", "crewed", "E5")],
        &[("theirs", "sq", "E3"), ("spare", "sq", "I1")],
    );
    st.unit_mut("sp").expect("sp").health = health;
    st
}

// issue 18, 002 "Crew": "A Vehicle with Crew may either attack with the vehicle's weapons or with
// the crew's weapons. If it uses the crew's weapons, it may use one weapon for each point of
// Damage remaining on its Damage Track." (R668) With two damage points left: the crew's two
// weapons fire, or the vehicle's own; three crew weapons, or the vehicle's and the crew's
// together, are refused citing 002; a crew weapon on a card without Crew is refused when read.
#[test]
fn s002_vehicle_equipment_crew_own_weapons_or_the_crews_one_per_damage_point_left() {
    for ok in [
        "activate sp\n  attack mg1 at theirs, mg2 at theirs\n  nothing",
        "activate sp\n  attack rockets at theirs\n  nothing",
    ] {
        let mut st = crew_game(2);
        let out = orders(&mut st, "allies", ok, &[]);
        accepted(&out);
    }
    for (no, why) in [
        (
            "activate sp\n  attack mg1 at theirs, mg2 at theirs, mg3 at theirs\n  nothing",
            "sp has 2 damage point(s) left, so its crew fires at most 2 weapon(s), not 3",
        ),
        (
            "activate sp\n  attack rockets at theirs, mg1 at theirs\n  nothing",
            "sp fires its own weapons and its crew's in one attack",
        ),
    ] {
        let mut st = crew_game(2);
        let out = orders(&mut st, "allies", no, &[]);
        let (reason, rule) = refused(&out);
        assert!(reason.contains(why), "{reason}");
        assert!(rule.contains("002 \"Crew\""), "{rule}");
        assert!(!u(&st, "sp").activated);
    }
    let mut st = crew_game(3);
    let out = orders(
        &mut st,
        "allies",
        "activate sp\n  attack mg1 at theirs, mg2 at theirs, mg3 at theirs\n  nothing",
        &[],
    );
    accepted(&out);
    let (f, t) = super::battlefront_skills002::card_with("bf-pounder", "");
    let t = t.replacen("[[weapons]]", "[[weapons]]\ntraits = [\"crew\"]", 1);
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("Crew"), "{e}");
}
