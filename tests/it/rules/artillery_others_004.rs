//! Issue 12: 004 "Artillery Weapons (Range A)", indirect shot: "The unit may also use its other
//! weapons (targeting the same or a different unit)." (R547). The observer's strike line names
//! the gun's other weapons after a comma; they fire from the gun's square beside its indirect
//! shot. The cards are those of games/dust-tactics/cards-artillery/ (the allied artillery robot:
//! a howitzer, range A, and a .30 cal MG, range 4).

use super::artillery_004::{game, refusal};
use crate::support_flow::*;
use dustmail::dust_tactics::state::State;
use dustmail::game::ScriptedDice;

/// The allied artillery robot `gun` on E9, the Observer Team `obs` on E5; axis squads `foe` on
/// E2 (7 squares from the gun) and `near` on C7 (3 squares from the gun: in range of its MG,
/// too close for its howitzer). Allies activate first, under `ruleset`.
fn battery(ruleset: &str) -> State {
    game(
        ruleset,
        vec![
            unit("gun", "allied-artillery-robot", Some("E9")),
            unit("obs", "observer-team", Some("E5")),
        ],
        vec![
            unit("foe", "sq", Some("E2")),
            unit("near", "sq", Some("C7")),
        ],
        vec![],
    )
}

#[test]
fn artillery_004_beside_an_indirect_shot_the_gun_may_also_use_its_other_weapons() {
    // 004 "Artillery Weapons (Range A)", Indirect Shot: "The unit may also use its other weapons
    // (targeting the same or a different unit)." (R547). The gun's howitzer fires at `foe` (3
    // dice: 1, 2, 6: two hits) and its MG at `near`, which the gun sees 3 squares away (3 dice:
    // 1, 6, 6: one hit), in the observer's activation; the observer then moves.
    let mut st = battery("ffg-revised");
    let mut d = ScriptedDice::new([1, 2, 6, 1, 6, 6]);
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe, 30cal at near\nmove E6",
        &mut d,
    );
    let t = texts(&out);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "{t}");
    assert!(t.contains("gun fires Artillery gun"), "{t}");
    assert!(t.contains("gun fires .30 cal MG"), "{t}");
    assert_eq!(u(&st, "foe").models.len(), 2, "two hits: {t}");
    assert_eq!(u(&st, "near").models.len(), 3, "one hit: {t}");
    assert!(
        u(&st, "gun").activated,
        "the strike used the gun's activation"
    );
    assert_eq!(u(&st, "obs").at, Some(sq("E6")));
}

#[test]
fn artillery_004_the_gun_s_other_weapons_fire_from_its_square_with_their_own_range() {
    // "The unit may also use its other weapons (targeting the same or a different unit)": the
    // same target is allowed, but the gun fires them as its own attack would (R547): `foe` is 7
    // squares from the gun, beyond its MG's range 4, so the line is refused and nothing changes.
    let mut st = battery("ffg-revised");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe, 30cal at foe\nnothing",
        &mut ScriptedDice::new([]),
    );
    let (reason, _, _) = refusal(&out);
    assert!(reason.contains("range"), "{reason}");
    assert_eq!(st, before, "a refusal changes nothing");
}

#[test]
fn artillery_004_the_other_weapons_never_fire_the_artillery_twice() {
    // "The unit may also use its OTHER weapons" (R547): the howitzer fires the indirect shot
    // once; named again after the comma it is refused, citing the sentence.
    let mut st = battery("ffg-revised");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe, howitzer at foe\nnothing",
        &mut ScriptedDice::new([]),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(reason.contains("is the gun's artillery"), "{reason}");
    assert!(rule.contains("may also use its other weapons"), "{rule}");
    assert!(
        instead.starts_with("skill artillery-strike gun at foe,"),
        "{instead}"
    );
    assert_eq!(st, before);
}

#[test]
fn artillery_004_only_an_artillery_strike_names_other_weapons() {
    // R547: only `skill artillery-strike … at <target>` is followed by weapons; another skill
    // line with a comma is refused when read, saying what to send.
    let mut st = battery("ffg-revised");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill reload, 30cal at near\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("only `skill artillery-strike"), "{e}");
    assert_eq!(st, before);
}

#[test]
fn artillery_strike_000_the_gun_fires_its_indirect_shot_alone_classic_2010() {
    // 000 "Artillery Strike" has no sentence on the gun's other weapons, and classic-2010 keeps
    // its rules: the form is refused, naming the ruleset (R547).
    let mut st = battery("classic-2010");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe, 30cal at near\nnothing",
        &mut ScriptedDice::new([]),
    );
    let (reason, _, _) = refusal(&out);
    assert!(
        reason.contains("not this game's (classic-2010)"),
        "{reason}"
    );
    assert_eq!(st, before);
}
