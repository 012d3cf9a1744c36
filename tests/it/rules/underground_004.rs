//! Issue 12: 004 "UNDERGROUND FIGHTING" (rulings R620–R623): dim light and low ceilings, only
//! soldier units, no Jump, the sewers' corners and the metro's stacking cover. Orders go through
//! the real parser and state machine; each test quotes the sentence it checks.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::{self, UnitSpec};
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::underground::Underground;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Outcome, ScriptedDice};

/// A 4-model squad whose soft cover saves on a hit and hard cover on a miss, so a save die of 1
/// proves soft cover and a save die of 6 hard cover. Movement 1, "gun" 1/1 of range 9.
pub(super) fn target_card() -> Card {
    let mut c = card(
        "tgt",
        UnitType::Squad,
        4,
        1,
        vec![weapon("gun", WeaponRange::Upto(9), 1, 1)],
    );
    c.soft_save = Save::Hit;
    c.hard_save = Save::Miss;
    c
}

/// A one-model squad with the same 1/1 gun: one attack die.
pub(super) fn shooter() -> Card {
    let mut c = target_card();
    c.id = "one".into();
    c.health = 1;
    c
}

/// A game on the open 9×9 board with `terrain` set, fought underground as `kind` (none:
/// aboveground), reactive fire off, allies first.
fn game(
    kind: Option<Underground>,
    terrain: &[(&str, Terrain)],
    allies: Vec<UnitSpec>,
    axis: Vec<UnitSpec>,
) -> State {
    game_of(scenario(allies, axis), kind, terrain)
}

/// [`game`] of the scenario `s`.
pub(super) fn game_of(
    mut s: scenario::Scenario,
    kind: Option<Underground>,
    terrain: &[(&str, Terrain)],
) -> State {
    for (at, t) in terrain {
        s.board.set_terrain(sq(at), *t);
    }
    s.underground = kind;
    let jumper = with_skill(
        card(
            "jumper",
            UnitType::Squad,
            4,
            3,
            vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
        ),
        "jump",
        None,
    );
    let mut st = DustTactics
        .start("ffg-revised", s, vec![target_card(), shooter(), jumper])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// The shooter `a` (allies) on `from`, the target `x` (axis) on `to`, aboveground or not.
fn duel(kind: Option<Underground>, terrain: &[(&str, Terrain)], from: &str, to: &str) -> State {
    game(
        kind,
        terrain,
        vec![unit("a", "one", Some(from))],
        vec![unit("x", "tgt", Some(to))],
    )
}

fn refusal(out: &Outcome) -> (String, String, String) {
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } => (reason.clone(), rule.clone(), instead.clone()),
        o => panic!("expected a refusal, got {o:?}"),
    }
}

/// The faces of the cover save dice rolled.
pub(super) fn saves(out: &Outcome) -> Vec<u8> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter())
        .filter(|r| r.purpose.starts_with("cover save"))
        .flat_map(|r| r.faces.clone())
        .collect()
}

pub(super) const FIRE: &str = "activate a\nattack gun at x\nnothing";

// ---------------------------------------------------------------------------------------------
// 004 "Dim Light, Low Ceilings"
// ---------------------------------------------------------------------------------------------

// 004 "Dim Light, Low Ceilings": "Units can fight normally when they are in adjacent spaces, or
// when there is a single space between them (range C, range 1, range 2, range 3 when fully
// diagonal)." A hit at one space between (straight and fully diagonal) gets no cover save: a
// model is lost (R621).
#[test]
fn underground_004_dim_light_one_space_between_fights_normally() {
    for to in ["E7", "C7"] {
        let mut st = duel(Some(Underground::Tunnels), &[], "E9", to);
        let mut d = ScriptedDice::new([1]);
        let out = send(&mut st, "allies", FIRE, &mut d);
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert!(saves(&out).is_empty(), "no cover at one space between");
        assert_eq!(u(&st, "x").models.len(), 3, "{}", texts(&out));
    }
}

// 004 "Dim Light, Low Ceilings": "Target units are considered in soft cover when there are
// exactly 2 spaces between them and the attacking unit (range 3, range 5 when fully
// diagonal)." A save die of 1 saves (soft cover saves on a hit); aboveground, the same shot has
// no cover save (R621).
#[test]
fn underground_004_dim_light_exactly_two_spaces_between_is_soft_cover() {
    for to in ["E6", "B6"] {
        let mut st = duel(Some(Underground::Tunnels), &[], "E9", to);
        let mut d = ScriptedDice::new([1, 1]);
        let out = send(&mut st, "allies", FIRE, &mut d);
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert_eq!(saves(&out), vec![1], "{}", texts(&out));
        assert_eq!(u(&st, "x").models.len(), 4, "saved by soft cover");
    }
    let mut st = duel(None, &[], "E9", "E6");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1]));
    assert!(saves(&out).is_empty(), "aboveground: open ground");
    assert_eq!(u(&st, "x").models.len(), 3);
}

// 004 "Dim Light, Low Ceilings": "Target units are considered in hard cover when there are
// exactly 3 spaces between them and the attacking unit (range 4, range 7 when fully diagonal)."
// A save die of 6 saves (hard cover saves on a miss) (R621).
#[test]
fn underground_004_dim_light_exactly_three_spaces_between_is_hard_cover() {
    for to in ["E5", "A5"] {
        let mut st = duel(Some(Underground::Sewers), &[], "E9", to);
        let mut d = ScriptedDice::new([1, 6]);
        let out = send(&mut st, "allies", FIRE, &mut d);
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert_eq!(saves(&out), vec![6], "{}", texts(&out));
        assert_eq!(u(&st, "x").models.len(), 4, "saved by hard cover");
    }
}

// 004 "Dim Light, Low Ceilings": "Units cannot target each other when there are 4 or more spaces
// between them (range 5 and up in a straight line, range 9 and up when fully diagonal)." The
// attack is refused, citing the rule, and nothing changes; aboveground the same shot is taken.
#[test]
fn underground_004_dim_light_four_or_more_spaces_between_cannot_target() {
    for (from, to) in [("E9", "E4"), ("A9", "F4")] {
        let mut st = duel(Some(Underground::Metro), &[], from, to);
        let before = st.clone();
        let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([]));
        let (reason, rule, instead) = refusal(&out);
        assert!(reason.contains("4 spaces between them"), "{reason}");
        assert!(rule.contains("004 'Dim Light, Low Ceilings'"), "{rule}");
        assert!(rule.contains("R621"), "{rule}");
        assert!(instead.contains("within 3 spaces"), "{instead}");
        assert_eq!(st, before);
        let mut st = duel(None, &[], from, to);
        let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([6]));
        assert!(first_result(&out).is_ok(), "aboveground: {out:?}");
    }
}

// 004 "Dim Light, Low Ceilings": "Units cannot target each other when there are 4 or more spaces
// between them." Reactive fire is an attack: x on E3 gets no window against a1 moving to E8
// (4 spaces between) underground; aboveground it does (R621).
#[test]
fn underground_004_dim_light_reactive_fire_cannot_target_at_four_spaces_between() {
    for (kind, window) in [(Some(Underground::Tunnels), false), (None, true)] {
        let mut st = game(
            kind,
            &[],
            vec![unit("a1", "one", Some("E9"))],
            vec![unit("x", "tgt", Some("E3"))],
        );
        flow::standing_react(&mut st, "axis", None, Policy::Ask).expect("ask");
        let out = send(
            &mut st,
            "allies",
            "activate a1\nmove E8\nnothing",
            &mut Cycle(2),
        );
        assert!(first_result(&out).is_ok(), "{out:?}");
        let reacts = awaited(&st)
            .iter()
            .any(|(s, d)| s == "axis" && d.to_lowercase().contains("react"));
        assert_eq!(reacts, window, "{kind:?}: {:?}", awaited(&st));
    }
}

// 004 "Dim Light, Low Ceilings": "Units cannot use the Jump skill while fighting underground."
// A squad with Jump may enter deep water aboveground ("only units with Jump or Amphibious Unit
// may enter it"), not underground (R622).
#[test]
fn underground_004_units_cannot_use_the_jump_skill() {
    for (kind, ok) in [(None, true), (Some(Underground::Tunnels), false)] {
        let mut st = game(
            kind,
            &[("E8", Terrain::DeepWater)],
            vec![unit("j", "jumper", Some("E9"))],
            vec![unit("x", "tgt", Some("A1"))],
        );
        let out = send(
            &mut st,
            "allies",
            "activate j\nmove E8\nnothing",
            &mut ScriptedDice::new([]),
        );
        if ok {
            assert!(first_result(&out).is_ok(), "{out:?}");
            assert_eq!(u(&st, "j").at, Some(sq("E8")));
        } else {
            let (reason, _, _) = refusal(&out);
            assert!(reason.contains("deep water"), "{reason}");
            assert_eq!(u(&st, "j").at, Some(sq("E9")));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 004 "Fighting in the Sewers", "Fighting in the Metro"
// ---------------------------------------------------------------------------------------------

/// A 9×9 board with one blocking square on F5, beside the target's corner of a diagonal shot
/// from D6 (or C7) at F4.
const CORNER: [(&str, Terrain); 1] = [("F5", Terrain::Impassable)];

// 004 "Fighting in the Sewers": "In the sewers, all corners block LOS. There is never corner
// cover (since combat across corners is not possible)." The diagonal from D6 to F4 skims the
// corner of F5: in the tunnels it is a shot (with corner cover), in the sewers it is refused
// (R623).
#[test]
fn underground_004_sewers_all_corners_block_los() {
    let mut st = duel(Some(Underground::Tunnels), &CORNER, "D6", "F4");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1, 1]));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(saves(&out), vec![1], "corner cover: soft");
    let mut st = duel(Some(Underground::Sewers), &CORNER, "D6", "F4");
    let before = st.clone();
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([]));
    let (reason, rule, _) = refusal(&out);
    assert!(
        reason.contains("all corners block line of sight"),
        "{reason}"
    );
    assert!(reason.contains("F5"), "{reason}");
    assert!(rule.contains("004 'Fighting in the Sewers'"), "{rule}");
    assert_eq!(st, before);
}

// 004 "Fighting in the Sewers": "In the sewers, no unit can pass through any other unit." A squad
// walks through a friendly squad in the tunnels; in the sewers the same move is refused and
// nothing changes; stopping before it is fine (R624).
#[test]
fn underground_004_sewers_no_unit_can_pass_through_any_other_unit() {
    let order = "activate j\nmove E8 E7\nnothing";
    for (kind, ok) in [
        (Some(Underground::Tunnels), true),
        (Some(Underground::Sewers), false),
    ] {
        let mut st = game(
            kind,
            &[],
            vec![
                unit("j", "jumper", Some("E9")),
                unit("f", "tgt", Some("E8")),
            ],
            vec![unit("x", "tgt", Some("A1"))],
        );
        let before = st.clone();
        let out = send(&mut st, "allies", order, &mut ScriptedDice::new([]));
        if ok {
            assert!(first_result(&out).is_ok(), "{out:?}");
            assert_eq!(u(&st, "j").at, Some(sq("E7")));
        } else {
            let (reason, rule, instead) = refusal(&out);
            assert!(
                reason.contains("pass through E8, held by unit f"),
                "{reason}"
            );
            assert!(rule.contains("004 'Fighting in the Sewers'"), "{rule}");
            assert!(rule.contains("R624"), "{rule}");
            assert!(instead.contains("go round"), "{instead}");
            assert_eq!(st, before);
            let out = send(
                &mut st,
                "allies",
                "activate j\nmove D8\nnothing",
                &mut ScriptedDice::new([]),
            );
            assert!(first_result(&out).is_ok(), "{out:?}");
        }
    }
}

// 004 "Fighting in the Sewers": "A single unit is not limited to one Reactive Fire attempt per
// game round. If the unit has already been activated during the round, or has already made a
// Reactive Fire attempt, it may make an additional Reactive Fire attempt if the situation
// presents itself"; "A unit may still only make one Reactive Fire attempt per unit activation."
// x attempts (and misses) against a1's move, which activates it; when a2 moves next, x gets a
// second window in the sewers, none in the tunnels; within one activation it is offered once
// (R626).
#[test]
fn underground_004_sewers_reactive_fire_once_per_enemy_activation_not_once_per_round() {
    for (kind, again) in [
        (Some(Underground::Sewers), true),
        (Some(Underground::Tunnels), false),
    ] {
        let mut st = game(
            kind,
            &[],
            vec![unit("a1", "one", Some("E9")), unit("a2", "one", Some("D9"))],
            vec![unit("x", "tgt", Some("E5"))],
        );
        flow::standing_react(&mut st, "axis", None, Policy::Ask).expect("ask");
        let reacts = |st: &State| {
            awaited(st)
                .iter()
                .any(|(s, d)| s == "axis" && d.to_lowercase().contains("react"))
        };
        // 3 (a miss) for x's attempt, then initiative dice should the round end.
        let mut d = Cycle(2);
        let out = send(&mut st, "allies", "activate a1\nmove E8\nnothing", &mut d);
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert!(reacts(&st), "{:?}", awaited(&st));
        let out = send(&mut st, "axis", "react x", &mut d);
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert!(
            texts(&out).contains("x attempts reactive fire at a1: MISS"),
            "{}",
            texts(&out)
        );
        assert!(u(&st, "x").activated, "the attempt activates x");
        assert!(
            !reacts(&st),
            "one attempt per activation: {:?}",
            awaited(&st)
        );
        let out = send(&mut st, "allies", "activate a2\nmove D8\nnothing", &mut d);
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert_eq!(reacts(&st), again, "{kind:?}: {:?}", awaited(&st));
    }
}

// 004 "Fighting in the Metro": "Units can benefit from corner cover as per the normal rules. The
// effects of corner cover may stack with those from dim light, up to a maximum of hard cover."
// From C7 to F4 (two spaces between, soft) skimming F5's corner (soft): hard cover in the metro,
// a save die of 6 saves; in the tunnels the better of the two, soft: the 6 does not save (R621).
#[test]
fn underground_004_metro_corner_cover_stacks_with_dim_light() {
    let mut st = duel(Some(Underground::Metro), &CORNER, "C7", "F4");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1, 6]));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(saves(&out), vec![6]);
    assert_eq!(u(&st, "x").models.len(), 4, "hard cover saves on a miss");
    let mut st = duel(Some(Underground::Tunnels), &CORNER, "C7", "F4");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1, 6]));
    assert_eq!(saves(&out), vec![6]);
    assert_eq!(u(&st, "x").models.len(), 3, "soft cover: a 6 does not save");
}

// 004 "Deployment": "Any unit in an underground scenario that has not been deployed by the end of
// the second round is considered eliminated. Its AP value goes to the opposing player when
// calculating VPs at the end of the game." `late` stays off the board for two rounds (its entry
// zone is full): at the end
// of round 1 it is still in play, at the end of round 2 it is eliminated and its 10 AP count for
// the axis; aboveground nothing happens to it (R625).
#[test]
fn underground_004_deployment_a_unit_not_deployed_by_the_end_of_round_2_is_eliminated() {
    for kind in [Some(Underground::Tunnels), None] {
        // The allies' entry zone is E9 alone, held by `a`: `late` cannot enter (R152).
        let mut s = scenario(
            vec![unit("a", "one", Some("E9")), unit("late", "one", None)],
            vec![unit("x", "tgt", Some("A1")), unit("y", "tgt", Some("I1"))],
        );
        s.sides[0].entry = vec![sq("E9")];
        let mut st = game_of(s, kind, &[]);
        let mut d = Cycle(0);
        let mut log = String::new();
        for _ in 0..20 {
            if st.round > 2 {
                break;
            }
            for (s, what) in awaited(&st) {
                let out = send(&mut st, &s, "first allies", &mut d);
                log.push_str(&format!("[{s} {what}] {}\n", texts(&out)));
            }
            let side = st.next_side.clone().expect("a side to play");
            let id = st
                .units
                .iter()
                .find(|x| x.side == side && !x.activated && !x.destroyed)
                .map(|x| x.id.clone())
                .expect("a unit to activate");
            if st.round == 2 && id == "late" {
                assert!(!u(&st, "late").destroyed, "in play through round 1: {log}");
            }
            let out = send(
                &mut st,
                &side,
                &format!("activate {id}\nnothing\nnothing"),
                &mut d,
            );
            assert!(first_result(&out).is_ok(), "{out:?}");
            log.push_str(&texts(&out));
            log.push('\n');
        }
        assert_eq!(st.round, 3, "{log}");
        assert_eq!(u(&st, "late").destroyed, kind.is_some(), "{log}");
        let points = flow::points(&st, false);
        if kind.is_some() {
            assert!(
                log.contains(
                    "late was not deployed by the end of the second round: it is eliminated"
                ),
                "{log}"
            );
            assert_eq!(points.get("axis"), Some(&10));
        } else {
            assert_eq!(points.get("axis"), Some(&0));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

/// The skirmish scenario (two vehicles a side) written for `rulesets`, fought underground.
fn skirmish_underground(rulesets: &str) -> String {
    let text = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "skirmish")
        .expect("skirmish")
        .1;
    text.replace(
        "rulesets = [\"ffg-revised\", \"classic-2010\"]",
        &format!("rulesets = [{rulesets}]\nunderground = \"sewers\""),
    )
}

// 004 "UNDERGROUND FIGHTING" is a section of the FFG revised rules: a scenario fought
// underground must be written for ffg-revised alone, else it is refused naming the field (R620).
#[test]
fn underground_004_only_ffg_revised_scenarios_are_fought_underground() {
    let err = scenario::parse("u", &skirmish_underground("\"classic-2010\""))
        .expect_err("underground under 000");
    assert!(err.0.contains("`underground`"), "{err}");
    assert!(err.0.contains("rulesets = [\"ffg-revised\"]"), "{err}");
    let s = scenario::parse("u", &skirmish_underground("\"ffg-revised\"")).expect("ffg-revised");
    assert_eq!(s.underground, Some(Underground::Sewers));
    let err = scenario::parse(
        "u",
        &skirmish_underground("\"ffg-revised\"").replace("\"sewers\"", "\"attic\""),
    )
    .expect_err("no such place");
    assert!(err.0.contains("metro"), "{err}");
}

// 004 "Dim Light, Low Ceilings": "Only soldier units (squads, heroes, superhumans) can enter the
// metro and the sewers." The skirmish forces underground (a Pounder and a Ludwig) are refused
// at `new`, naming a vehicle; no game is made (R620).
#[test]
fn underground_004_only_soldier_units_can_enter_the_metro_and_the_sewers() {
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let scen = dir.path().join("under.toml");
    std::fs::write(&scen, skirmish_underground("\"ffg-revised\"")).unwrap();
    let o = dt::new_with_players(
        &home.root,
        &["--scenario", scen.to_str().unwrap(), "--id", "g-u"],
        &dt::players(3),
    );
    assert_ne!(o.status.code(), Some(0), "{}", dt::text(&o));
    let t = dt::text(&o);
    assert!(t.contains("is a vehicle"), "{t}");
    assert!(t.contains("Only soldier units"), "{t}");
}

// 004 "Fighting in the Sewers": games/dust-tactics/scenarios/sewers.toml, soldiers only, is
// played to its end by two players' signed mails through the real pipeline; replay and audit
// pass.
#[test]
fn underground_004_sewers_scenario_played_to_its_end_by_signed_mail() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scen = root.join("games/dust-tactics/scenarios/sewers.toml");
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &["--scenario", scen.to_str().unwrap()],
        ("g-sewers", 31, 7),
    );
    let mut bots = dt::Bots::new("g-sewers", &ps, |_| Style::Aggressive);
    env.run(dt::NOW);
    bots.play_to_end(&home, &env);
    let g = env.load("g-sewers");
    assert!(g.derived.finished.is_some(), "the game did not end");
    dt::replay_and_audit(&home, "g-sewers");
}
