//! Issue 18: 002's Move and Fire under battlefront-2013 (R603): a free Move right after a ranged
//! Attack or Sustained Attack. The pistol hero of `battlefront_combat` (on E5, Movement 1) shoots
//! the squad on E3, with scripted dice.

use super::battlefront_combat::{pistol_hero, skill_game};
use crate::support_flow::{play, refused, sq, texts, u};

// issue 18, 002 "Move and Fire": "A Unit with the Move and Fire Skill ... may perform a free Move
// Action immediately after performing an Attack or Sustained Attack Action using Ranged Weapons."
// (R603) Attack, the free Move, then the second action (a Move): the hero ends two squares on;
// so does Move, Attack and the free Move.
// The pistol's two dice miss (shield, shield).
#[test]
fn s002_move_and_fire_a_free_move_after_a_ranged_attack() {
    let mut st = skill_game(pistol_hero(&["move-and-fire"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at theirs\n  move E6\n  move E7",
        &[5, 6],
    );
    let t = texts(&out);
    assert!(t.contains("free Move of Move and Fire"), "{t}");
    assert_eq!(u(&st, "ours").at, Some(sq("E7")), "{t}");
    // Move, Attack, then the free Move: the hero moves again though it stopped to shoot.
    let mut st = skill_game(pistol_hero(&["move-and-fire"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  move E6\n  attack pistol at theirs\n  move E7",
        &[5, 6],
    );
    let t = texts(&out);
    assert!(t.contains("free Move of Move and Fire"), "{t}");
    assert_eq!(u(&st, "ours").at, Some(sq("E7")), "{t}");
}

// 002 "Move and Fire": "... after performing an Attack or Sustained Attack Action" (R603): a
// Sustained Attack (both actions: the two misses re-rolled, miss again) and then the free Move.
#[test]
fn s002_move_and_fire_a_free_move_after_a_sustained_attack() {
    let mut st = skill_game(pistol_hero(&["move-and-fire"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  sustained pistol at theirs\n  move E6",
        &[5, 6, 5, 6],
    );
    let t = texts(&out);
    assert_eq!(u(&st, "ours").at, Some(sq("E6")), "{t}");
}

// R603: without the skill the third action is refused and nothing moves; with it, `attack` +
// `move` is still the usual pair (the Move counted, not free).
#[test]
fn s002_move_and_fire_needs_the_skill_and_leaves_the_usual_pair_alone() {
    let mut st = skill_game(pistol_hero(&[]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at theirs\n  move E6\n  move E7",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("3 actions"), "{reason}");
    assert_eq!(u(&st, "ours").at, Some(sq("E5")));
    let mut st = skill_game(pistol_hero(&["move-and-fire"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at theirs\n  move E6",
        &[5, 6],
    );
    let t = texts(&out);
    assert!(!t.contains("free Move"), "{t}");
    assert_eq!(u(&st, "ours").at, Some(sq("E6")), "{t}");
}
