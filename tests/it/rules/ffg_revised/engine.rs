//! Issue 3 audit gaps, through the state machine with the real geometry and combat: flamethrower
//! spray squares (000 "Flamethrowers", R103), the "objectives gone" end (004 "End of the game",
//! R104), cover elements attacked with `combat::resolve_cover_attack`, and the movement and
//! damage skills Agile, Jump, Tracked Vehicle and Damage Resilient (004 "Skills").

use crate::support_flow;

use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::Command;
use dustmail::dust_tactics::scenario::Objective;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Outcome, ScriptedDice};
use support_flow::*;

/// The allies' Hot Dog at E5 against the axis `luther` and `lasers` (Laser Grenadiers) placed
/// as given; allies activate first.
fn hot_dog(luther: &str, lasers: &str) -> State {
    let s = scenario(
        vec![unit("hotdog", "m2b-hot-dog", Some("E5"))],
        vec![
            unit("luther", "luther", Some(luther)),
            unit("lasers", "laser-grenadiers", Some(lasers)),
        ],
    );
    let mut st = start_defaults(s, real_cards());
    begin(&mut st, "allies");
    st
}

#[test]
fn flamethrower_000_hot_dog_example_the_flame_stops_at_a_vehicle_blocking_sight() {
    // 000 "Flamethrowers" example: the Hot Dog torches a Luther; the Laser Grenadiers behind it
    // are not hit: "the fire of the flamethrower does not continue beyond a square blocking
    // line of sight".
    let mut st = hot_dog("E4", "E3");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack napalm at luther through E3\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("the flames cannot reach E3"), "{e}");
    assert!(e.contains("000 'Flamethrowers'"), "{e}");
    assert_eq!(
        st, before,
        "a refused declaration rolls nothing and changes nothing"
    );
}

#[test]
fn flamethrower_000_hot_dog_example_swapped_both_units_are_sprayed() {
    // 000: "if the Grenadiers and the Luther swap places, then the pilot of the Hot Dog could
    // see both units. He would then be able to spray both with his Napalm Thrower."
    let mut st = hot_dog("E3", "E4");
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack napalm at luther through E4\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let fired: Vec<&str> = out
        .happenings
        .iter()
        .map(|h| h.text.as_str())
        .filter(|t| t.contains("fires"))
        .collect();
    assert!(fired.iter().any(|t| t.contains("at luther")), "{fired:?}");
    assert!(fired.iter().any(|t| t.contains("at lasers")), "{fired:?}");
}

#[test]
fn flamethrower_000_range_two_chooses_two_squares_at_most() {
    // 000 Hot Dog example: with range 2 the pilot chooses pairs ({Laser Grenadiers, Luther},
    // …): the target and one more square, never three.
    let mut st = hot_dog("E3", "E4");
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack napalm at luther through E4 D4\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("at most 2 squares"), "{e}");
}

#[test]
fn flamethrower_000_only_a_flamethrower_sprays() {
    let mut st = hot_dog("E3", "E4");
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack 30cal at lasers through E3\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("does not spray"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// 004 "End of the game": "Neither player can fulfill their objective"
// ---------------------------------------------------------------------------------------------

/// Allies field only a vehicle; their Hold objective is on `at`, which holds a tank trap when
/// `trap`.
fn hold_game(trap: bool) -> State {
    let v = card(
        "walker",
        UnitType::Vehicle,
        4,
        1,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("a1", "walker", Some("E5"))],
        vec![unit("x1", "sq", Some("E1"))],
    );
    if trap {
        s.board.cover.insert(
            sq("A1"),
            CoverElement {
                kind: CoverKind::TankTrap,
                damage: 0,
            },
        );
    }
    let s = objectives(
        s,
        vec![Objective::Hold {
            side: "allies".into(),
            at: sq("A1"),
        }],
    );
    let mut st = start_defaults(s, vec![v, squad("sq")]);
    begin(&mut st, "allies");
    st
}

fn idle_round(st: &mut State) -> Outcome {
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    let mut out = send(st, "allies", "activate a1\nnothing\nnothing", &mut d);
    let more = send(st, "axis", "activate x1\nnothing\nnothing", &mut d);
    out.results.extend(more.results);
    out.happenings.extend(more.happenings);
    out.finished = more.finished;
    out
}

#[test]
fn end_004_objectives_gone_ends_the_game_on_victory_points() {
    // "The game ends (always at the end of a round) when … Neither player can fulfill their
    // objective": a vehicle may never stop on a tank trap, so the allies' only objective is gone.
    let mut st = hold_game(true);
    let out = idle_round(&mut st);
    let res = out.finished.expect("the game ends at the end of round 1");
    assert!(
        res.reason.contains("no side can fulfil its objective"),
        "{}",
        res.reason
    );
    assert_eq!(res.winner, None, "equal VPs: a draw (ruling 4)");
}

#[test]
fn end_004_a_reachable_objective_keeps_the_game_going() {
    let mut st = hold_game(false);
    let out = idle_round(&mut st);
    assert!(out.finished.is_none());
    assert_eq!(st.round, 2);
}

// ---------------------------------------------------------------------------------------------
// Cover elements (000 "What are the effects of cover?", combat R37)
// ---------------------------------------------------------------------------------------------

#[test]
fn cover_000_an_ammo_crate_is_destroyed_by_two_damage_and_gives_no_save() {
    // Ammo crate: armour 3, 2 health. A 1/1 gun with 4 carriers: 2 hits destroy it.
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("A1"))],
    );
    s.board.cover.insert(
        sq("E3"),
        CoverElement {
            kind: CoverKind::AmmoCrate,
            damage: 0,
        },
    );
    let mut st = start_defaults(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([1, 2, 5, 5]);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nattack gun at E3\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    assert!(st.scenario.board.cover_at(sq("E3")).is_none());
    let t: Vec<&str> = out.happenings.iter().map(|h| h.text.as_str()).collect();
    assert!(
        t.iter().any(|x| x.contains("vs ammo crate")),
        "resolved as a cover element: {t:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// 004 "Skills": movement and damage
// ---------------------------------------------------------------------------------------------

fn mover_game(c: Card, enemy_at: &str) -> State {
    let id = c.id.clone();
    let s = scenario(
        vec![unit("a1", &id, Some("E5"))],
        vec![unit("x1", "sq", Some(enemy_at))],
    );
    let mut st = start_defaults(s, vec![c, squad("sq")]);
    begin(&mut st, "allies");
    st
}

fn runner(skill: Option<&str>) -> Card {
    let c = card(
        "runner",
        UnitType::Squad,
        4,
        2,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    );
    match skill {
        Some(s) => with_skill(c, s, None),
        None => c,
    }
}

#[test]
fn skill_agile_004_every_diagonal_costs_one() {
    // 004 "Agile": "When the unit moves, all diagonals cost 1 (instead of 1 for the first
    // diagonal and 2 for the following ones)." Two diagonals with Movement 2.
    let order = "activate a1\nmove D4 C3\nnothing";
    let mut st = mover_game(runner(None), "I9");
    let e = first_result(&send(&mut st, "allies", order, &mut ScriptedDice::new([]))).unwrap_err();
    assert!(e.contains("a1 cannot move"), "{e}");
    let mut st = mover_game(runner(Some("agile")), "I9");
    let out = send(&mut st, "allies", order, &mut ScriptedDice::new([]));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a1").at, Some(sq("C3")));
}

#[test]
fn skill_jump_004_passes_over_another_unit_and_lands_on_an_empty_square() {
    // 004 "Jump": "the unit can ignore an obstacle (such as a cover element or another unit),
    // but must land in an empty space."
    let mut st = mover_game(runner(None), "E4");
    let order = "activate a1\nmove E4 E3\nnothing";
    assert!(first_result(&send(&mut st, "allies", order, &mut ScriptedDice::new([]))).is_err());
    let mut st = mover_game(runner(Some("jump")), "E4");
    let out = send(&mut st, "allies", order, &mut Cycle(0));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a1").at, Some(sq("E3")));
    // Landing on the other unit is refused.
    let mut st = mover_game(runner(Some("jump")), "E3");
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate a1\nmove E4 E3\nnothing",
        &mut ScriptedDice::new([]),
    ))
    .unwrap_err();
    assert!(e.contains("E3"), "{e}");
}

#[test]
fn skill_tracked_vehicle_004_cannot_move_diagonally() {
    // 004 "Tracked Vehicle": "Tracked vehicles cannot move diagonally." Movement 1: D4 is one
    // diagonal away, E4 one straight step.
    let tank = with_skill(
        card(
            "tank",
            UnitType::Vehicle,
            4,
            1,
            vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
        ),
        "tracked-vehicle",
        None,
    );
    // Without the skill the same vehicle may take that diagonal.
    let mut plain = tank.clone();
    plain.skills.clear();
    let mut st = mover_game(plain, "A1");
    let out = send(
        &mut st,
        "allies",
        "activate a1\nmove D4\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let mut st = mover_game(tank.clone(), "A1");
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate a1\nmove D4\nnothing",
        &mut ScriptedDice::new([]),
    ))
    .unwrap_err();
    assert!(e.contains("a1 cannot move"), "{e}");
    let mut st = mover_game(tank, "A1");
    let out = send(
        &mut st,
        "allies",
        "activate a1\nmove E4\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
}

#[test]
fn skill_damage_resilient_004_each_hit_die_ignores_one_damage() {
    // 004 "Damage Resilient": "roll 1 die for each point of damage inflicted on the unit. For
    // each [hit] result, ignore 1 point of damage." 2 damage, resilience dice 1 and 5: 1 lost.
    let tough = with_skill(
        card(
            "tough",
            UnitType::Vehicle,
            4,
            1,
            vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
        ),
        "damage-resilient",
        None,
    );
    let mut st = mover_game(tough, "E2");
    let mut d = ScriptedDice::new([]);
    assert!(first_result(&send(
        &mut st,
        "allies",
        "activate a1\nnothing\nnothing",
        &mut d
    ))
    .is_ok());
    // x1's 4 gun dice: 2 hits; resilience 1 (ignored) and 5; then round 2's initiative.
    let mut d = ScriptedDice::new([1, 1, 5, 5, 1, 5, /* round 2 */ 1, 5, 5, 5, 5, 5]);
    let out = DustTactics.command(
        &mut st,
        "axis",
        &Command::Activate {
            unit: "x1".into(),
            actions: vec![attack("gun", "a1"), nothing()],
        },
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "a1").health, 3);
}
