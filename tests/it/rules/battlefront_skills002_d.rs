//! Issue 18: 002's own skills under battlefront-2013, fourth batch: Lucky (R760) and Infantry Ace
//! (R761), the pistol hero
//! of `battlefront_combat` (on E5, a two-dice pistol, range 4) against the four soldiers of
//! `theirs` on E3. Scripted dice (1, 2 army; 3, 4 target; 5, 6 shield).

use super::battlefront_combat::{pistol_hero, play, purposes, skill_game};
use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card;

// issue 18, 002 "Lucky": "Once per game, a Hero with the Lucky Skill may re-roll any dice that
// failed to Hit with any of their weapons when making an Attack or Sustained Attack action."
// (R760) Declared with `skill lucky`: the pistol's two dice miss (target, shield), both are
// re-rolled (army, shield): one hit; its Infantry Save (shield) fails: one soldier lost, and the
// hero's one use is spent.
#[test]
fn s002_lucky_a_hero_re_rolls_the_dice_that_failed_to_hit_once_per_game() {
    let mut st = skill_game(pistol_hero(&["lucky"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill lucky\n  attack pistol at theirs\n  nothing",
        &[3, 5, 1, 6, 5],
    );
    let t = texts(&out);
    assert!(t.contains("2 re-rolled (Lucky)"), "{t}");
    assert_eq!(
        purposes(&out),
        vec![
            "attack pistol".to_string(),
            "lucky re-roll pistol".to_string(),
            "infantry save vs pistol".to_string()
        ],
        "{t}"
    );
    assert_eq!(u(&st, "theirs").models.len(), 3, "{t}");
    assert_eq!(u(&st, "ours").skills_used.get("lucky"), Some(&1), "{t}");
}

// R760: without `skill lucky` the same two misses stay misses (no die re-rolled, nobody lost);
// a second use is refused ("Once per game"), and so is a declaration by a hero without the
// skill; a refusal changes nothing.
#[test]
fn s002_lucky_only_declared_only_once_only_with_the_skill() {
    let mut st = skill_game(pistol_hero(&["lucky"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at theirs\n  nothing",
        &[3, 5],
    );
    assert_eq!(u(&st, "theirs").models.len(), 4, "{}", texts(&out));

    let mut st = skill_game(pistol_hero(&["lucky"]));
    st.unit_mut("ours")
        .expect("ours")
        .skills_used
        .insert("lucky".into(), 1);
    let orders = "activate ours\n  skill lucky\n  attack pistol at theirs\n  nothing";
    let (reason, rule) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("already used Lucky"), "{reason}");
    assert!(rule.contains("002 \"Lucky\""), "{rule}");
    assert!(!u(&st, "ours").activated);

    let mut st = skill_game(pistol_hero(&[]));
    let (reason, rule) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("no hero with the Lucky skill"), "{reason}");
    assert!(rule.contains("002 \"Lucky\""), "{rule}");
    assert_eq!(u(&st, "theirs").models.len(), 4);
}

// R760: 002 gives the skill to a hero ("A Hero with the Lucky Skill"): a squad's card naming it
// is refused when read, saying what to do; a hero's card is read.
#[test]
fn s002_lucky_is_a_heros_skill() {
    let extra = "[[skills]]\nname = \"lucky\"";
    let (f, t) = super::battlefront_skills002::card_with("bf-bazooka-joe", extra);
    assert!(parse_card(&f, &t).is_ok());
    let (f, t) = super::battlefront_skills002::card_with("bf-recon-grenadiers", extra);
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("not a hero"), "{e}");
}

// issue 18, 002 "Infantry Ace": "A Hero with the Infantry Ace Skill rolls a die when it
// Activates. On a [army] or [target] the Hero (and any Unit it has Joined or Hero that has Joined
// it) gains a third Action for this Activation." (R761) The die shows target: the third line
// ordered, the pistol's attack, is made (army, army: two hits; both Infantry Saves fail on
// shields): two soldiers lost.
#[test]
fn s002_infantry_ace_a_third_action_on_army_or_target() {
    let order = "activate ours\n  nothing\n  nothing\n  attack pistol at theirs";
    let mut st = skill_game(pistol_hero(&["infantry-ace"]));
    let out = play(&mut st, "allies", order, &[3, 1, 2, 5, 6]);
    let t = texts(&out);
    assert!(
        t.contains("Infantry Ace: ours rolls target: ours has three actions"),
        "{t}"
    );
    assert_eq!(purposes(&out)[0], "infantry ace for ours", "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 2, "{t}");
}

// R761: on a shield the die gives nothing, and the third line ordered is not made (no attack
// die is rolled, nobody is lost); a hero without the skill rolls no die, and three lines are
// refused as one action too many.
#[test]
fn s002_infantry_ace_no_third_action_on_a_shield_nor_without_the_skill() {
    let order = "activate ours\n  nothing\n  nothing\n  attack pistol at theirs";
    let mut st = skill_game(pistol_hero(&["infantry-ace"]));
    let out = play(&mut st, "allies", order, &[5]);
    let t = texts(&out);
    assert!(t.contains("no third action"), "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 4, "{t}");

    let mut st = skill_game(pistol_hero(&[]));
    let out = play(&mut st, "allies", order, &[]);
    refused(&out);
    assert!(!u(&st, "ours").activated);
}
