//! Issue 18 under battlefront-2013: heroes joining squads during the game, activation by
//! activation (003 "Joining Infantry Squads", rulings R604–R606). Each test is named after 003's
//! section, quotes its sentence, and drives the engine with scripted dice.

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, ScriptedDice};

/// Under battlefront-2013: the allied squad `ours` (four soldiers, Move 1, Infantry 2) on E5,
/// the hero `hq` (Move 2, Infantry 2, or Infantry 3 when `other_armour`) on `hero_at`, joined
/// to `ours` by the scenario when `joined`; axis squads `theirs` on E2 and `spare-x` on I1;
/// nobody reacts; `first` activates first.
fn game(hero_at: &str, joined: bool, other_armour: bool, first: &str) -> State {
    let mut hero = unit("hq", "hero", Some(hero_at));
    if joined {
        hero.joins = Some("ours".into());
    }
    let s = scenario(
        vec![unit("ours", "sq", Some("E5")), hero],
        vec![
            unit("theirs", "sq", Some("E2")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut h = card(
        "hero",
        UnitType::Hero,
        3,
        2,
        vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
    );
    if other_armour {
        h.armour = Armour::Soldier(3);
    }
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![h, squad("sq")])
        .expect("setup");
    never_react(&mut st);
    begin(&mut st, first);
    st
}

// issue 18 item 1: 003 "Joining Infantry Squads": "Alternatively, the Hero may activate
// separately." Bazooka-style hero `hq`, joined to `ours`, activates on his own and moves two
// squares (his own Move 2, not the joined unit's 1); the squad stays, still to activate, and
// the hero, no longer in its square, has left it (R604).
#[test]
fn joining_infantry_squads_the_hero_may_activate_separately() {
    let mut st = game("E5", true, false, "allies");
    let out = play(&mut st, "allies", "activate hq\n  move E3\n  nothing", &[]);
    accepted(&out);
    assert_eq!(u(&st, "hq").at, Some(sq("E3")));
    assert_eq!(u(&st, "ours").at, Some(sq("E5")));
    assert!(u(&st, "hq").activated);
    assert!(
        !u(&st, "ours").activated,
        "the squad still has its activation"
    );
    assert_eq!(u(&st, "hq").joined, None);
    assert!(
        texts(&out).contains("hq activates apart from ours"),
        "{}",
        texts(&out)
    );
}

// issue 18 item 1: 003 "Joining Infantry Squads": "A Hero in the same square as a unit that they
// can join may be activated at the same time as the unit, taking the same actions as the unit
// and remaining in the same square as the unit"; "Alternatively, the Hero may activate
// separately". A hero who activated apart and stayed is still in the squad's square (joined
// for attacks), but has no activation left to take with it: the squad moves without him and
// the hero, left behind, is no longer joined (R604).
#[test]
fn joining_infantry_squads_a_hero_who_activated_separately_does_not_move_with_the_squad() {
    let mut st = game("E5", true, false, "allies");
    accepted(&play(
        &mut st,
        "allies",
        "activate hq\n  nothing\n  nothing",
        &[],
    ));
    assert_eq!(
        u(&st, "hq").joined.as_deref(),
        Some("ours"),
        "still in its square"
    );
    accepted(&play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &[],
    ));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  move E4\n  nothing",
        &[],
    );
    accepted(&out);
    assert_eq!(u(&st, "ours").at, Some(sq("E4")));
    assert_eq!(u(&st, "hq").at, Some(sq("E5")), "the hero stays behind");
    assert_eq!(u(&st, "hq").joined, None);
}

// issue 18 item 1: 003 "Joining Infantry Squads": "A Hero can join an Infantry Squad or Support
// Weapon that has the same Armour rating by being in the same square as that unit" and "If a
// Hero is in the same square as a unit that they can join, they are treated as one unit if
// either of them are targeted by an attack. The owning player assigns hits between them using
// the normal rules". The lone hero moves into the squad's square during the game and joins it;
// an attack at the hero then hits the joined unit and the owner puts both unsaved hits on the
// hero (R604).
#[test]
fn joining_infantry_squads_a_hero_joins_a_squad_by_moving_into_its_square() {
    let mut st = game("E7", false, false, "allies");
    assert_eq!(u(&st, "hq").joined, None);
    accepted(&play(
        &mut st,
        "allies",
        "standing casualties ours ask",
        &[],
    ));
    let out = play(&mut st, "allies", "activate hq\n  move E5\n  nothing", &[]);
    accepted(&out);
    assert_eq!(u(&st, "hq").at, Some(sq("E5")));
    assert_eq!(u(&st, "hq").joined.as_deref(), Some("ours"));
    assert!(texts(&out).contains("hq stands in ours's square and joins it"));
    // Four dice, two army symbols (hits); two Infantry Save dice, no army symbol.
    let mut d = ScriptedDice::new([1, 2, 3, 4, 5, 6]);
    let out = send(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at hq\n  nothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(awaited(&st), vec![("allies".into(), "casualties".into())]);
    let out = send(&mut st, "allies", "casualties ours: hq hq", &mut Cycle(0));
    assert_eq!(first_result(&out), Ok("casualties ours: hq hq".into()));
    assert_eq!(u(&st, "hq").health, 1);
    assert_eq!(u(&st, "ours").models.len(), 4);
}

// issue 18 item 1: 003 "Joining Infantry Squads": "... that has the same Armour rating". A hero
// of Infantry 3 may share the square of a friendly Infantry 2 squad (003 "Heroes": "can share
// a square with a friendly unit") but does not join it (R604).
#[test]
fn joining_infantry_squads_a_hero_of_another_armour_rating_shares_the_square_without_joining() {
    let mut st = game("E7", false, true, "allies");
    let out = play(&mut st, "allies", "activate hq\n  move E5\n  nothing", &[]);
    accepted(&out);
    assert_eq!(u(&st, "hq").at, Some(sq("E5")));
    assert_eq!(u(&st, "hq").joined, None);
    assert!(!texts(&out).contains("joins it"), "{}", texts(&out));
}

// issue 18 item 1: 003 "Joining Infantry Squads": "Only one Hero can join an Infantry unit at a
// time." A second hero cannot end his move in the square of a squad a hero has joined; the
// refusal changes nothing (R604).
#[test]
fn joining_infantry_squads_only_one_hero_can_join_an_infantry_unit_at_a_time() {
    let mut hq = unit("hq", "hero", Some("E5"));
    hq.joins = Some("ours".into());
    let s = scenario(
        vec![
            unit("ours", "sq", Some("E5")),
            hq,
            unit("h2", "hero", Some("E7")),
        ],
        vec![unit("theirs", "sq", Some("A1"))],
    );
    let hero = card(
        "hero",
        UnitType::Hero,
        3,
        2,
        vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![hero, squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    let (reason, _) = refused_unchanged(&mut st, "allies", "activate h2\n  move E5\n  nothing");
    assert!(reason.contains("E5 is occupied"), "{reason}");
}

// issue 18 item 1: 003 "Joining Infantry Squads": a hero in the squad's square "may be
// activated at the same time as the unit": he may also not be. `skill detach` as the first
// line activates the squad without him: it moves alone at its own Move, and the hero keeps
// his activation; `skill detach` elsewhere is refused, citing 003, and changes nothing (R605).
#[test]
fn joining_infantry_squads_the_squad_may_activate_without_its_hero() {
    let mut st = game("E5", true, false, "allies");
    let (reason, rule) = refused_unchanged(
        &mut st,
        "allies",
        "activate ours\n  move E4\n  skill detach",
    );
    assert!(reason.contains("line 2 of the activation"), "{reason}");
    assert!(rule.contains("003 \"Joining Infantry Squads\""), "{rule}");
    accepted(&play(
        &mut st,
        "allies",
        "activate ours\n  skill detach\n  move E4\n  nothing",
        &[],
    ));
    assert_eq!(u(&st, "ours").at, Some(sq("E4")));
    assert_eq!(u(&st, "hq").at, Some(sq("E5")));
    assert!(!u(&st, "hq").activated, "the hero keeps his activation");
    assert_eq!(u(&st, "hq").joined, None);
    accepted(&play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &[],
    ));
    accepted(&play(
        &mut st,
        "allies",
        "activate hq\n  move E4\n  nothing",
        &[],
    ));
    assert_eq!(
        u(&st, "hq").joined.as_deref(),
        Some("ours"),
        "he joins it again"
    );
}

// issue 18 item 1: 003 "Joining Infantry Squads": "Alternatively, the Hero may activate
// separately"; a hero "may be activated at the same time as the unit". The orders template
// offers the joined hero's own activation and the squad's `skill detach` line, and each is
// accepted as offered; once the squad has moved away without him the hero's block remains
// (R605, R606).
#[test]
fn joining_infantry_squads_the_template_offers_the_hero_apart_and_skill_detach() {
    let st = game("E5", true, false, "allies");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("# activate hq"), "{t}");
    assert!(
        t.contains("#   skill detach   # first, then two actions: ours without hq"),
        "{t}"
    );
    for o in [
        "activate hq\n  nothing\n  nothing",
        "activate ours\n  skill detach\n  nothing\n  nothing",
    ] {
        let mut copy = st.clone();
        accepted(&play(&mut copy, "allies", o, &[]));
    }
}

// issue 18 item 1: games made before rules revision 7 keep R257: the join lasts the game and
// `activate <joined hero>` is refused, so recorded games replay unchanged (R604).
#[test]
fn joining_infantry_squads_games_made_before_revision_7_keep_the_join_for_the_game() {
    let mut st = game("E5", true, false, "allies");
    st.rules_revision = 6;
    let t = DustTactics.orders_template(&st, "allies");
    assert!(
        !t.contains("# activate hq") && !t.contains("skill detach"),
        "{t}"
    );
    let out = play(&mut st, "allies", "activate hq\n  nothing\n  nothing", &[]);
    let (reason, _) = refused(&out);
    assert!(reason.contains("may activate separately"), "{reason}");
}

// issue 18 item 1: 003 "Entering the Board": "A Hero that is not yet on the board can join an
// Infantry unit that is not on the board and both then activate together, entering the game at
// the same time." Off the board the joined hero does not activate apart: `activate hq` is
// refused naming the squad, and changes nothing (R604).
#[test]
fn joining_infantry_squads_off_the_board_the_hero_enters_with_the_squad() {
    let mut hero = unit("hq", "hero", None);
    hero.joins = Some("ours".into());
    let s = scenario(
        vec![unit("ours", "sq", None), hero],
        vec![unit("theirs", "sq", Some("A1"))],
    );
    let h = card(
        "hero",
        UnitType::Hero,
        3,
        2,
        vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![h, squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    let (reason, _) = refused_unchanged(&mut st, "allies", "activate hq\n  move E9\n  nothing");
    assert!(
        reason.contains("hq is joined to ours and activates with it"),
        "{reason}"
    );
    accepted(&play(
        &mut st,
        "allies",
        "activate ours\n  move E9\n  nothing",
        &[],
    ));
    assert_eq!(u(&st, "hq").at, Some(sq("E9")));
}
