//! Issue 18: more of 002's own skills under battlefront-2013 (third batch): Assassin (R730). The
//! pistol hero of `battlefront_combat` (on E5, Movement 1, a one-die knife) against the four
//! soldiers `1`–`4` of `theirs` on E3, with scripted dice.

use super::battlefront_combat::{pistol_hero, play, skill_game};
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
