//! Issue 18: more of 002's own skills under battlefront-2013 (third batch): Assassin (R730), the
//! pistol hero of `battlefront_combat` (on E5, Movement 1, a one-die knife) against the four
//! soldiers `1`–`4` of `theirs` on E3; First Strike (R731), the starter Grim Reapers and Recon
//! Grenadiers in close combat. Scripted dice.

use super::battlefront_combat::{bf_cards, game_with, models, pistol_hero, skill_game};
use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card;

// issue 18, 002 "Assassin": "A Hero with the Assassin Skill chooses which enemy Soldiers are
// assigned its Hits when using Close-combat Weapons." (R730) The hero moves next to `theirs` and
// names soldier 3 with its knife: the one die shows army, a hit (003 gives no save against a
// range C hit), and soldier 3 is the one lost, not the owner's pick.
#[test]
fn s002_assassin_a_heros_close_combat_hits_go_to_the_soldier_it_names() {
    let mut st = skill_game(pistol_hero(&["assassin"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  move E4\n  attack knife at theirs/3",
        &[1],
    );
    let t = texts(&out);
    assert!(t.contains("loses model 3"), "{t}");
    assert_eq!(u(&st, "theirs").models, vec!["1", "2", "4"], "{t}");
}

// R730: only with a close-combat weapon ("when using Close-combat Weapons": the pistol is
// ranged) and only with the skill; the refusal cites 002 "Assassin" and says to target the unit,
// and nothing happens (the hero is still on E5, all four soldiers stand).
#[test]
fn s002_assassin_only_close_combat_weapons_only_with_the_skill() {
    let cases: [(&[&str], &str); 2] = [
        (
            &["assassin"],
            "activate ours\n  attack pistol at theirs/3\n  nothing",
        ),
        (&[], "activate ours\n  move E4\n  attack knife at theirs/3"),
    ];
    for (skills, orders) in cases {
        let mut st = skill_game(pistol_hero(skills));
        let out = play(&mut st, "allies", orders, &[]);
        let (reason, rule) = refused(&out);
        assert!(reason.contains("cannot name a model"), "{orders}: {reason}");
        assert!(rule.contains("002 \"Assassin\""), "{orders}: {rule}");
        assert_eq!(u(&st, "ours").at, Some(sq("E5")), "{orders}");
        assert_eq!(u(&st, "theirs").models.len(), 4, "{orders}");
    }
}

// R730: 002 gives the skill to a hero ("A Hero with the Assassin Skill"): a card that is not a
// hero naming it is refused when read, saying what to do; a hero's card is read.
#[test]
fn s002_assassin_is_a_heros_skill() {
    let extra = "[[skills]]\nname = \"assassin\"";
    let (f, t) = super::battlefront_skills002::card_with("bf-bazooka-joe", extra);
    assert!(parse_card(&f, &t).is_ok());
    let (f, t) = super::battlefront_skills002::card_with("bf-recon-grenadiers", extra);
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("not a hero"), "{e}");
    assert!(e.instead.contains("hero"), "{e}");
}

/// The Grim Reapers (allies, E6, three soldiers, knives) next to the Recon Grenadiers (axis, E5,
/// five soldiers, knives), the card `first` given 002's First Strike; axis first.
fn first_strike_game(first: &str) -> dustmail::dust_tactics::state::State {
    let cards = bf_cards()
        .into_iter()
        .map(|c| {
            if c.id == first {
                with_skill(c, "first-strike", None)
            } else {
                c
            }
        })
        .collect();
    game_with(
        cards,
        &[
            ("reapers", "bf-grim-reapers", "E6"),
            ("joe", "bf-bazooka-joe", "A9"),
        ],
        &[
            ("grenadiers", "bf-recon-grenadiers", "E5"),
            ("stefan", "bf-stefan", "I1"),
        ],
        "axis",
    )
}

// issue 18, 002 "First Strike": "A Unit with the First Strike Skill resolves all their
// Close-Combat Attacks and applies the results (including removing eliminated miniatures) before
// the enemy Units make their Close-Combat Attacks." (R731) The Reapers strike first: their three
// knives hit three times (army, army, army) and three Grenadiers are removed before the two left
// retaliate with two dice (not five, as `battlefront_combat::s003_no_saves_against_close_combat_weapons`
// shows without the skill).
#[test]
fn s002_first_strike_the_attackers_casualties_are_removed_before_the_retaliation() {
    let mut st = first_strike_game("bf-grim-reapers");
    play(
        &mut st,
        "axis",
        "activate grenadiers\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "allies",
        "activate reapers\n  attack knives at grenadiers\n  nothing",
        &[1, 2, 1, 3, 4],
    );
    let t = texts(&out);
    assert!(t.contains("reapers strikes first"), "{t}");
    assert_eq!(models(&st, "grenadiers"), 2, "{t}");
    assert_eq!(models(&st, "reapers"), 3, "{t}");
    let rolls: Vec<usize> = out
        .happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| r.faces.len()))
        .collect();
    assert_eq!(rolls, vec![3, 2], "{t}");
}

// R731: a defender with First Strike fights back first: the five Grenadiers' knives (army, army,
// target, shield, shield: two hits) remove two Reapers before the one left strikes with one die
// (army, a hit): one Grenadier lost, not the three dice of three Reapers.
#[test]
fn s002_first_strike_a_defender_with_it_fights_back_before_the_attack() {
    let mut st = first_strike_game("bf-recon-grenadiers");
    play(
        &mut st,
        "axis",
        "activate grenadiers\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "allies",
        "activate reapers\n  attack knives at grenadiers\n  nothing",
        &[1, 2, 3, 4, 5, 1],
    );
    let t = texts(&out);
    assert!(t.contains("grenadiers strikes first"), "{t}");
    assert_eq!(models(&st, "reapers"), 1, "{t}");
    assert_eq!(models(&st, "grenadiers"), 4, "{t}");
    assert_eq!(
        purposes(&out),
        vec!["attack knives", "attack knives"],
        "{t}"
    );
    let rolls: Vec<usize> = out
        .happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| r.faces.len()))
        .collect();
    assert_eq!(rolls, vec![5, 1], "{t}");
}
