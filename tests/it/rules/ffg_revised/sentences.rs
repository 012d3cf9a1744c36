//! Issue 12 item 1: rulebook sentences the engine contradicted, one test per sentence, quoting it
//! with its seed and section (000 = core rules 2010, 004 = FFG revised rules summary). Orders go
//! through the real parser and state machine (`DustTactics::submit`); dice are scripted.

use crate::support_flow;

use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, ScriptedDice};
use support_flow::*;

/// Sends `order` and expects a refusal containing `words` that changes nothing and rolls nothing.
fn refused_unchanged(st: &mut State, order: &str, words: &str) -> String {
    let before = st.clone();
    let e = first_result(&send(st, "allies", order, &mut ScriptedDice::new([]))).unwrap_err();
    assert!(e.contains(words), "{e}");
    assert_eq!(*st, before, "a refused activation changes nothing");
    e
}

// ---------------------------------------------------------------------------------------------
// 000 "Heroes": joining needs the same armour, kind and value (ruling R147)
// ---------------------------------------------------------------------------------------------

#[test]
fn heroes_000_a_2_hero_joins_a_2_squad_but_not_a_1_3_or_4_one() {
    // Issue 12 item 1. 000 "Heroes": "Before a battle a Hero may join a squad, as long as the
    // hero shares the same type of ARMOR as the squad: A 2 hero may join a 2 squad, but not a 1,
    // 3, or 4 one." The squad helper's armour is soldier 2.
    let join = |value: u8| {
        let mut hero = card("joe", UnitType::Hero, 3, 2, vec![]);
        hero.armour = Armour::Soldier(value);
        let mut s = scenario(
            vec![unit("a1", "sq", Some("E5")), unit("joe", "joe", None)],
            vec![unit("x1", "sq", Some("E2"))],
        );
        s.sides[0].units[1].joins = Some("a1".into());
        DustTactics.start("ffg-revised", s, vec![squad("sq"), hero])
    };
    let st = join(2).expect("a 2 hero joins a 2 squad");
    assert_eq!(u(&st, "joe").joined.as_deref(), Some("a1"));
    for value in [1, 3, 4] {
        let err = join(value).expect_err("a hero of another armour value is refused");
        assert!(err.0.contains("armour class must match"), "{err}");
        assert!(err.0.contains("kind and value"), "{err}");
        assert!(err.0.contains("Soldier(2)"), "{err}");
    }
}

// ---------------------------------------------------------------------------------------------
// 004 "Sniper": "A sniper does not share this skill with the rest of his squad" (ruling R148)
// ---------------------------------------------------------------------------------------------

/// A two-model sniper team (000 "Sniper Team"): the sniper carries the rifle, both carry a pistol.
fn sniper_team() -> Card {
    let mut rifle = weapon("rifle", WeaponRange::Upto(6), 1, 1);
    rifle.carriers = Some(1);
    let mut c = with_skill(
        card(
            "team",
            UnitType::Squad,
            2,
            1,
            vec![rifle, weapon("pistol", WeaponRange::Upto(4), 1, 1)],
        ),
        "sniper",
        None,
    );
    c.models = vec![
        ModelSpec {
            id: "sniper".into(),
            carries: vec!["rifle".into(), "pistol".into()],
        },
        ModelSpec {
            id: "leader".into(),
            carries: vec!["pistol".into()],
        },
    ];
    c
}

fn sniper_game(cards: Vec<Card>, allies: Vec<dustmail::dust_tactics::scenario::UnitSpec>) -> State {
    let mut s = scenario(allies, vec![unit("x1", "sq", Some("E2"))]);
    if s.sides[0].units.len() > 1 {
        s.sides[0].units[1].joins = Some("a1".into());
    }
    let mut all = cards;
    all.push(squad("sq"));
    let mut st = start_defaults(s, all);
    begin(&mut st, "allies");
    st
}

#[test]
fn sniper_004_does_not_share_the_skill_with_the_rest_of_his_squad() {
    // Issue 12 item 1. 004 "Sniper": "When declaring a target, specify which miniature the sniper
    // is targeting (instead of an entire unit)." … "A sniper *does not* share this skill with the
    // rest of his squad." 000 "Sniper": "the squad's other attacks are resolved normally".
    let mut st = sniper_game(vec![sniper_team()], vec![unit("a1", "team", Some("E5"))]);
    let e = refused_unchanged(
        &mut st,
        "activate a1\nattack pistol at x1/2\nnothing",
        "not a sniper's weapon",
    );
    assert!(e.contains("004 'Sniper'"), "{e}");
    // The sniper's own line picks the model: its one die (a 1, a hit) lands on x1's model 2.
    let out = send(
        &mut st,
        "allies",
        "activate a1\nattack rifle at x1/2\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "x1").models, vec!["1", "3", "4"]);
}

#[test]
fn sniper_004_a_dead_sniper_takes_the_skill_with_him() {
    // Issue 12 item 1. 000 "Sniper Team": "Whenever one of the squad's members is eliminated, you
    // lose the related ability." With only the leader left, the pistol still cannot pick a model.
    let mut st = sniper_game(vec![sniper_team()], vec![unit("a1", "team", Some("E5"))]);
    st.unit_mut("a1").unwrap().models = vec!["leader".into()];
    refused_unchanged(
        &mut st,
        "activate a1\nattack pistol at x1/2\nnothing",
        "not a sniper's weapon",
    );
}

#[test]
fn sniper_004_a_hero_joined_to_a_sniper_squad_does_not_get_the_skill() {
    // Issue 12 item 1. 004 "Sniper": "A sniper does not share this skill with the rest of his
    // squad": a hero joined to a squad of snipers becomes part of that squad, not a sniper.
    let snipers = with_skill(squad("snipers"), "sniper", None);
    let hero = card(
        "joe",
        UnitType::Hero,
        3,
        1,
        vec![weapon("colt", WeaponRange::Upto(4), 1, 1)],
    );
    let allies = vec![unit("a1", "snipers", Some("E5")), unit("joe", "joe", None)];
    let mut st = sniper_game(vec![snipers.clone(), hero.clone()], allies.clone());
    refused_unchanged(
        &mut st,
        "activate a1\nattack colt at x1/2\nnothing",
        "colt of joe is not a sniper's weapon",
    );
    // The squad's own line still names a model.
    let mut st = sniper_game(vec![snipers, hero], allies);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nattack gun at x1/2\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
}

// ---------------------------------------------------------------------------------------------
// 004 "Terrain": "can destroy a tree tile" (ruling R149)
// ---------------------------------------------------------------------------------------------

/// Allies' `a1` (a squad with a flamethrower "flamer" range 3 and a "gun") at E7, trees on E5,
/// the axis squad `foes` on `enemy_at` (an id not shaped like a square, R81).
fn trees_game(enemy_at: &str) -> State {
    let mut flamer = weapon("flamer", WeaponRange::Upto(3), 1, 1);
    flamer.traits = vec![WeaponTrait::Flamethrower];
    let burners = card(
        "burners",
        UnitType::Squad,
        4,
        1,
        vec![flamer, weapon("gun", WeaponRange::Upto(4), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("a1", "burners", Some("E7"))],
        vec![unit("foes", "sq", Some(enemy_at))],
    );
    s.board.set_terrain(sq("E5"), Terrain::Trees);
    let mut st = start_defaults(s, vec![burners, squad("sq")]);
    begin(&mut st, "allies");
    st
}

#[test]
fn terrain_004_a_flamethrower_can_destroy_a_tree_tile() {
    // Issue 12 item 1. 004 "Terrain": "A unit with a flamethrower or artillery weapon can destroy
    // a tree tile by using an ATTACK action with the tree as its target. … Roll 3 dice; on at
    // least 1 [hit] remove the tree from the board." One hit (a 1) in three dice.
    let mut st = trees_game("A1");
    let mut d = ScriptedDice::new([6, 1, 6]);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nattack flamer at E5\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "exactly 3 dice");
    assert_eq!(st.scenario.board.terrain(sq("E5")), Terrain::Open);
    let t = texts(&out);
    assert!(
        t.contains("at the trees on E5: 3 dice, 1 hit, the trees are destroyed"),
        "{t}"
    );
}

#[test]
fn terrain_004_the_trees_stand_without_a_hit() {
    // Issue 12 item 1. 004 "Terrain": "on at least 1 [hit] remove the tree": no hit, no removal.
    let mut st = trees_game("A1");
    let mut d = ScriptedDice::new([6, 5, 3]);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nattack flamer at E5\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    assert_eq!(st.scenario.board.terrain(sq("E5")), Terrain::Trees);
    assert!(texts(&out).contains("the trees stand"), "{}", texts(&out));
}

#[test]
fn terrain_004_only_a_flamethrower_or_artillery_destroys_trees() {
    // Issue 12 item 1. 004 "Terrain": "A unit with a flamethrower or artillery weapon can destroy
    // a tree tile"; other weapons cannot (R149).
    let mut st = trees_game("A1");
    let e = refused_unchanged(
        &mut st,
        "activate a1\nattack gun at E5\nnothing",
        "gun cannot destroy the trees on E5",
    );
    assert!(e.contains("004 'Terrain'"), "{e}");
    assert!(e.contains("R149"), "{e}");
    // A range A (artillery) line can, at its minimum range of 4: from E9 to E5.
    let gun = card(
        "battery",
        UnitType::Vehicle,
        4,
        1,
        vec![weapon("howitzer", WeaponRange::Artillery, 1, 1)],
    );
    let mut s = scenario(
        vec![unit("a1", "battery", Some("E9"))],
        vec![unit("foes", "sq", Some("A1"))],
    );
    s.board.set_terrain(sq("E5"), Terrain::Trees);
    let mut st = start_defaults(s, vec![gun, squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([2, 6, 6]);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nattack howitzer at E5\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    assert_eq!(st.scenario.board.terrain(sq("E5")), Terrain::Open);
}

#[test]
fn terrain_004_not_the_tree_and_a_unit_in_the_same_attack() {
    // Issue 12 item 1. 004 "Terrain": "It cannot simultaneously target both the tree and a unit
    // sharing the same space." The axis squad stands in the trees on E5.
    let mut st = trees_game("E5");
    refused_unchanged(
        &mut st,
        "activate a1\nattack flamer at E5, gun at foes\nnothing",
        "cannot target both the trees on E5 and a unit standing there",
    );
}

// ---------------------------------------------------------------------------------------------
// 004 "Cover & Movement": vehicles "may choose to crush the crate" (ruling R150)
// ---------------------------------------------------------------------------------------------

/// Allies' vehicle `a1` (Movement 2) at E8 with ammo crates on `crates`; the axis squad far off.
fn crate_game(crates: &[&str]) -> State {
    let tank = card(
        "tank",
        UnitType::Vehicle,
        4,
        2,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("a1", "tank", Some("E8"))],
        vec![unit("x1", "sq", Some("A1"))],
    );
    for c in crates {
        s.board.cover.insert(
            sq(c),
            CoverElement {
                kind: CoverKind::AmmoCrate,
                damage: 0,
            },
        );
    }
    let mut st = start_defaults(s, vec![tank, squad("sq")]);
    begin(&mut st, "allies");
    st
}

#[test]
fn cover_004_a_vehicle_may_choose_not_to_crush_the_crate() {
    // Issue 12 item 1. 004 "Cover & Movement": "A space with an ammo crate can be entered by any
    // unit (vehicles entering the space may choose to crush the crate)." 000: "vehicles may
    // choose to crush the crate …, but this is not required."
    let mut st = crate_game(&["E7"]);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nmove E7 E6 spare\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a1").at, Some(sq("E6")));
    assert!(
        st.scenario.board.cover_at(sq("E7")).is_some(),
        "the crate stands"
    );
    assert!(!texts(&out).contains("crushes"), "{}", texts(&out));
    // Without `spare` the vehicle crushes it, as before (R20).
    let mut st = crate_game(&["E7"]);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nmove E7 E6\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(st.scenario.board.cover_at(sq("E7")).is_none());
    assert!(texts(&out).contains("a1 crushes the ammo crate on E7"));
    // The orders template tells the vehicle's owner how to decline.
    let st = crate_game(&["E7"]);
    let t = DustTactics.orders_template(&st, "allies");
    // The template's comments may be wrapped to 72 characters (issue 16 item 1): read them as
    // one text.
    let flat: Vec<&str> = t
        .lines()
        .flat_map(|l| l.trim_start_matches('#').split_whitespace())
        .collect();
    assert!(
        flat.join(" ")
            .contains("`move <square> … spare` leaves them standing"),
        "{t}"
    );
}

#[test]
fn cover_004_a_vehicle_spares_only_the_crates_named() {
    // Issue 12 item 1. 004 "Cover & Movement": the choice is made for each crate entered.
    let mut st = crate_game(&["E7", "E6"]);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nmove E7 E6 spare E7\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out)
        .unwrap()
        .contains("sparing the ammo crate on E7"));
    assert!(st.scenario.board.cover_at(sq("E7")).is_some());
    assert!(st.scenario.board.cover_at(sq("E6")).is_none());
}

#[test]
fn cover_004_spare_names_a_crate_the_move_enters() {
    // Issue 12 item 1 (R150): sparing a square without a crate on the move's path is refused and
    // says which crates the move enters.
    let mut st = crate_game(&["E7"]);
    let e = refused_unchanged(
        &mut st,
        "activate a1\nmove E7 E6 spare E6\nnothing",
        "enters no ammo crate on E6",
    );
    assert!(e.contains("004 'Cover & Movement'"), "{e}");
}
