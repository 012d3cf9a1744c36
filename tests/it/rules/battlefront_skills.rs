//! Issue 18 items 1 and 2: the rest of 002's skills under battlefront-2013 (Charge, Cheat Death)
//! and the Stunned token, each test quoting 002 and played through the engine with scripted dice
//! (every scripted die used, none more).

use crate::support_flow::*;
use dustmail::dust_tactics::model::{Card, UnitType, WeaponRange};
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{CommandOutcome, Outcome};

/// A squad of four with a knife (range C, one die) and a gun (range 4), Movement 1.
pub(super) fn chargers(skill: Option<&str>) -> Card {
    let c = card(
        "chargers",
        UnitType::Squad,
        4,
        1,
        vec![
            weapon("knife", WeaponRange::Close, 1, 1),
            weapon("gun", WeaponRange::Upto(4), 1, 1),
        ],
    );
    match skill {
        Some(s) => with_skill(c, s, None),
        None => c,
    }
}

/// A battlefront-2013 game: `ours` (allies, E7) against the squad `theirs` (axis, E4), a spare a
/// side far off; nobody reacts, allies activate first.
fn game(ours: Card) -> State {
    let s = scenario(
        vec![
            unit("ours", &ours.id, Some("E7")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("theirs", "sq", Some("E4")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![ours, squad("sq")])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

pub(super) fn refusal(out: &Outcome) -> String {
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } => format!("{reason} | {rule} | {instead}"),
        o => panic!("expected a refusal, got {o:?}"),
    }
}

// issue 18 item 1, 002 "Charge": "A Unit with the Charge Skill ... may perform a free Attack
// Action using Close-Combat Weapons immediately after performing a March Move Action." The squad
// marches E7 → E5 (double its Move of 1) and strikes with its knives at the squad on E4: four
// dice, army, army, target, shield: two hits, no save against close combat (003), two soldiers
// lost (R263).
#[test]
fn s002_charge_march_move_then_a_free_close_combat_attack() {
    let mut st = game(chargers(Some("charge")));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill charge\n  move E6\n  move E5\n  attack knife at theirs",
        &[1, 2, 3, 5],
    );
    let t = texts(&out);
    assert!(
        out.results
            .iter()
            .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. })),
        "{t}"
    );
    assert_eq!(u(&st, "ours").at, Some(sq("E5")), "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 2, "{t}");
}

// issue 18 item 1, 002 "Charge": the free Attack uses "Close-Combat Weapons" only (004's Charge
// also allowed range 1 weapons): a ranged line is refused, naming 002, and nothing moves (R263).
#[test]
fn s002_charge_attack_uses_close_combat_weapons_only() {
    let mut st = game(chargers(Some("charge")));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill charge\n  move E6\n  move E5\n  attack gun at theirs",
        &[],
    );
    let r = refusal(&out);
    assert!(r.contains("only close-combat (range C) weapons"), "{r}");
    assert!(r.contains("002 \"Charge\""), "{r}");
    assert_eq!(u(&st, "ours").at, Some(sq("E7")), "{r}");
    assert_eq!(u(&st, "theirs").models.len(), 4, "{r}");
}

// issue 18 item 1, 002 "Charge": "A Unit with the Charge Skill": a unit without it gets no free
// Attack after its March Move; refused, and nothing changes.
#[test]
fn s002_charge_needs_the_skill() {
    let mut st = game(chargers(None));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill charge\n  move E6\n  move E5\n  attack knife at theirs",
        &[],
    );
    let r = refusal(&out);
    assert!(r.contains("does not have the skill"), "{r}");
    assert_eq!(u(&st, "ours").at, Some(sq("E7")), "{r}");
}

/// A hero with Cheat Death: health 2, a pistol (range 2) and a blade (range C).
pub(super) fn lara(cheat_death: bool) -> Card {
    let c = card(
        "lara",
        UnitType::Hero,
        2,
        1,
        vec![
            weapon("pistol", WeaponRange::Upto(2), 1, 1),
            weapon("blade", WeaponRange::Close, 1, 1),
        ],
    );
    if cheat_death {
        with_skill(c, "cheat-death", None)
    } else {
        c
    }
}

/// A battlefront-2013 game: the squad `ours` (allies, `ours_at`) against the hero `hero` (axis,
/// `hero_at`), a spare a side far off; nobody reacts, allies activate first.
fn hero_game(ours: Card, ours_at: &str, hero: Card, hero_at: &str) -> State {
    let s = scenario(
        vec![
            unit("ours", &ours.id, Some(ours_at)),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("hero", &hero.id, Some(hero_at)),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![ours, hero, squad("sq")])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

pub(super) fn accepted_all(out: &Outcome) -> bool {
    out.results
        .iter()
        .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. }))
}

// issue 18 item 1, 002 "Cheat Death": "If a Hero with Cheat Death is eliminated, roll a die at the
// end of the Action. On a roll of [army] or [target], the Hero removes one point of Damage and
// survives, but gains a Stunned token." Four guns: army, army, shield, shield: two hits; two
// Infantry Saves on shield fail: two damage on a hero of 2; Cheat Death rolls target: she lives
// with 1 (R266). Then 002 "Stunned": "Any time a Unit Activates while it has a Stunned token, it
// must perform a Nothing Action as its first Action, then removes any Stunned tokens" (R267).
#[test]
fn s002_cheat_death_an_eliminated_hero_survives_on_army_or_target_stunned() {
    let mut st = hero_game(chargers(None), "E7", lara(true), "E4");
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack gun at hero\n  nothing",
        &[1, 1, 5, 5, 5, 5, 3],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(
        t.contains("Cheat Death (002): hero would be eliminated"),
        "{t}"
    );
    let h = u(&st, "hero");
    assert!(!h.destroyed, "{t}");
    assert_eq!((h.health, h.stunned), (1, true), "{t}");
    // Stunned: an activation that does not begin with Nothing is refused, and changes nothing.
    let out = play(
        &mut st,
        "axis",
        "activate hero\n  attack pistol at ours\n  nothing",
        &[],
    );
    let r = refusal(&out);
    assert!(
        r.contains("hero is Stunned: its first action must be `nothing`"),
        "{r}"
    );
    assert!(r.contains("002"), "{r}");
    assert!(u(&st, "hero").stunned);
    // Nothing first removes the token; the second action is free.
    let out = play(&mut st, "axis", "activate hero\n  nothing\n  move E3", &[]);
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("removes its Stunned token"), "{t}");
    let h = u(&st, "hero");
    assert_eq!((h.at, h.stunned), (Some(sq("E3")), false), "{t}");
}

// issue 18 item 1, 002 "Cheat Death": on a shield the hero is eliminated; and a hero not
// eliminated rolls nothing ("If a Hero with Cheat Death is eliminated").
#[test]
fn s002_cheat_death_a_shield_leaves_the_hero_eliminated_and_only_elimination_rolls() {
    let mut st = hero_game(chargers(None), "E7", lara(true), "E4");
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack gun at hero\n  nothing",
        &[1, 1, 5, 5, 5, 5, 5],
    );
    let t = texts(&out);
    assert!(t.contains("shield rolled: the damage stands"), "{t}");
    assert!(u(&st, "hero").destroyed, "{t}");
    // One hit on a hero of 2: no Cheat Death roll (every scripted die is used, none more).
    let mut st = hero_game(chargers(None), "E7", lara(true), "E4");
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack gun at hero\n  nothing",
        &[1, 5, 5, 5, 5],
    );
    let t = texts(&out);
    let h = u(&st, "hero");
    assert_eq!((h.health, h.stunned), (1, false), "{t}");
    assert!(!t.contains("Cheat Death"), "{t}");
}

// issue 18 item 1, 002 "Stunned": "A Unit with a Stunned token cannot fight, including fighting
// back if attacked in Close Combat." The squad's four knives miss; the stunned hero's blade does
// not answer (no die), where the same hero not stunned retaliates with one die (the fifth).
#[test]
fn s002_stunned_a_stunned_unit_does_not_fight_back_in_close_combat() {
    let attack = "activate ours\n  attack knife at hero\n  nothing";
    let mut st = hero_game(chargers(None), "E5", lara(true), "E4");
    play(&mut st, "allies", attack, &[5, 5, 5, 5, 5]);
    assert_eq!(u(&st, "ours").models.len(), 4);
    let mut st = hero_game(chargers(None), "E5", lara(true), "E4");
    st.unit_mut("hero").expect("hero").stunned = true;
    let out = play(&mut st, "allies", attack, &[5, 5, 5, 5]);
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(!t.contains("retaliat"), "{t}");
}

// issue 18 item 1, 002 "Stunned": "If a Unit with a Stunned token attempts a Reactive Attack, it
// rolls a single die rather than two ... but removes the Stunned token whether or not it succeeds
// in making an Attack action." The squad marches E7 → E5; after its first `move` (R256) the
// stunned hero reacts: one die, a shield: Nothing, and the token is gone.
#[test]
fn s002_stunned_a_reactive_attack_rolls_one_die_and_removes_the_token() {
    let mut st = hero_game(chargers(None), "E7", lara(true), "E4");
    flow::standing_react(&mut st, "axis", None, Policy::Yes).expect("standing react");
    st.unit_mut("hero").expect("hero").stunned = true;
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  move E6\n  move E5",
        &[5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    let r: Vec<(String, usize)> = out
        .happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| (r.purpose.clone(), r.faces.len())))
        .collect();
    assert_eq!(r, vec![("reactive attack hero".to_string(), 1)], "{t}");
    assert!(!u(&st, "hero").stunned, "{t}");
}
