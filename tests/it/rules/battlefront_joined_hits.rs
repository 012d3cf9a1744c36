//! Issue 18 under battlefront-2013: hits on a hero joined to a squad (002 "Damage Resilient",
//! 003 "Joining Infantry Squads", "Suffer Damage"; rulings R574–R575 amending R259). Each test
//! is named after its seed's section, quotes the sentence and drives the engine by order text
//! with scripted dice (faces 1–2 army, 3–4 target, 5–6 shield).

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;

/// Under battlefront-2013: the hero `lara` (health 3, Damage Resilient when `lara_dr`) joined
/// to the four `panzers` (Damage Resilient when `panzers_dr`) on E5; the axis `babushka` (four
/// models, "gun" 1/`damage` range 4) on E2 and a spare squad far off; axis first, nobody
/// reacts, allies choose their casualties by mail.
fn lara_and_the_panzers(lara_dr: bool, panzers_dr: bool, damage: u8) -> State {
    let mut st = unasked(lara_dr, panzers_dr, damage);
    accepted(&play(
        &mut st,
        "allies",
        "standing casualties panzers ask",
        &[],
    ));
    st
}

/// [`lara_and_the_panzers`] with the casualties left to the standing order (R58, R100).
fn unasked(lara_dr: bool, panzers_dr: bool, damage: u8) -> State {
    let mut lara = unit("lara", "hero", Some("E5"));
    lara.joins = Some("panzers".into());
    let s = scenario(
        vec![unit("panzers", "panzers", Some("E5")), lara],
        vec![
            unit("babushka", "babushka", Some("E2")),
            unit("spare-x", "panzers", Some("I1")),
        ],
    );
    let resilient = |c: Card, on: bool| {
        if on {
            with_skill(c, "damage-resilient", None)
        } else {
            c
        }
    };
    let mut babushka = squad("babushka");
    babushka.weapons = vec![weapon("gun", WeaponRange::Upto(4), 1, damage)];
    let cards = vec![
        resilient(
            card(
                "hero",
                UnitType::Hero,
                3,
                1,
                vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
            ),
            lara_dr,
        ),
        resilient(squad("panzers"), panzers_dr),
        babushka,
    ];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    begin(&mut st, "axis");
    never_react(&mut st);
    st
}

/// The axis attack at the panzers: four attack dice then one Infantry Save die a hit.
const ATTACK: &str = "activate babushka\n  attack gun at panzers\n  nothing";

// issue 18, 002 "Damage Resilient" (the Babushka example): "The Axis player assigns the first
// hit from the machine-guns to Lara, who then makes her Infantry Save and cancels the hit. They
// then allocate the second hit to Lara as well. Lara fails her Infantry Save, so takes one point
// of damage from the hit. She then rolls for her Damage Resilient skill, scoring a [army],
// cancelling the damage. They then assign the third machine-gun hit to Lara as well. Lara fails
// both her Infantry Save and Damage Resilient roll, so takes one point of damage." The engine
// rolls the saves of all hits before the owner assigns them (R575: the dice are independent, so
// the order changes no outcome): three hits, one saved; the two left go to Lara, her own
// Damage Resilient rolls one die each (army, shield): she loses one point, the Panzers none.
#[test]
fn s002_damage_resilient_the_babushka_example_lara_saves_then_rolls_for_each_hit() {
    let mut st = lara_and_the_panzers(true, false, 1);
    // Three army symbols of four; the saves: army (cancels), shield, shield.
    let out = play(&mut st, "axis", ATTACK, &[1, 1, 1, 5, 1, 5, 5]);
    accepted(&out);
    assert!(
        texts(&out).contains("3 hits, 1 cancelled by infantry save"),
        "{}",
        texts(&out)
    );
    assert!(
        texts(&out).contains("2 hits for the owner to assign between panzers and its hero"),
        "{}",
        texts(&out)
    );
    assert_eq!(awaited(&st), vec![("allies".into(), "casualties".into())]);
    let out = play(&mut st, "allies", "casualties panzers: lara lara", &[1, 5]);
    assert_eq!(
        first_result(&out),
        Ok("casualties panzers: lara lara".into())
    );
    assert_eq!(
        purposes(&out),
        vec!["damage resilient vs gun", "damage resilient vs gun"]
    );
    let t = texts(&out);
    assert!(t.contains("Damage Resilient cancels 1, 0 lost"), "{t}");
    assert!(t.contains("Damage Resilient cancels 0, 1 lost"), "{t}");
    assert_eq!(u(&st, "lara").health, 2);
    assert_eq!(u(&st, "panzers").models.len(), 4);
}

// issue 18, 002 "Damage Resilient": "Each time a Support Weapon, Hero, Vehicle, or Aircraft that
// is Damage Resilient is assigned a Hit that is not cancelled by a Save, mark off the resulting
// Damage on the unit's Damage Track as normal. Then roll one die for each point of Damage marked
// off as a result of the Hit." A 2-damage hit assigned to the joined Lara marks 2 and rolls two
// dice (both shields): she loses 2. In a game made before revision 10 the same hit marked one
// cross and Lara's own skill rolled nothing (R259), so recorded games replay as played.
#[test]
fn s002_damage_resilient_a_hit_on_the_joined_hero_marks_the_weapons_damage_one_die_a_point() {
    let mut st = lara_and_the_panzers(true, false, 2);
    accepted(&play(&mut st, "axis", ATTACK, &[1, 5, 5, 5, 5]));
    let out = play(&mut st, "allies", "casualties panzers: lara", &[5, 6]);
    assert_eq!(first_result(&out), Ok("casualties panzers: lara".into()));
    assert!(texts(&out).contains("2 damage marked, Damage Resilient cancels 0, 2 lost"));
    assert_eq!(u(&st, "lara").health, 1);

    let mut old = lara_and_the_panzers(true, false, 2);
    old.rules_revision = 9;
    accepted(&play(&mut old, "axis", ATTACK, &[1, 5, 5, 5, 5]));
    let out = play(&mut old, "allies", "casualties panzers: lara", &[]);
    assert_eq!(first_result(&out), Ok("casualties panzers: lara".into()));
    assert!(purposes(&out).is_empty(), "{:?}", purposes(&out));
    assert_eq!(u(&old, "lara").health, 2);
}

// issue 18, 002 "Damage Resilient": "A Unit that is Damage Resilient does not share it with any
// Unit they Join nor with Heroes that Join this Unit", and "Each time an Infantry Squad that is
// Damage Resilient is assigned a Hit that is not cancelled by a Save ..., roll a die. On a
// result of [army], cancel the Hit." Resilient Panzers with a plain Lara: of two hits the one
// on a soldier rolls the squad's die (army: cancelled), the one on Lara rolls nothing and
// marks her point. Before revision 10 the squad's card rolled for every hit on the line (R259).
#[test]
fn s002_damage_resilient_a_resilient_squad_does_not_share_it_with_its_joined_hero() {
    let mut st = lara_and_the_panzers(false, true, 1);
    let out = play(&mut st, "axis", ATTACK, &[1, 1, 5, 5, 5, 5]);
    assert!(!purposes(&out)
        .iter()
        .any(|p| p.starts_with("damage resilient")));
    let soldier = u(&st, "panzers").models[0].clone();
    let order = format!("casualties panzers: {soldier} lara");
    let out = play(&mut st, "allies", &order, &[1]);
    assert_eq!(first_result(&out), Ok(order.clone()));
    assert_eq!(purposes(&out), vec!["damage resilient vs gun"]);
    assert!(
        texts(&out).contains("cancelled (Damage Resilient)"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "panzers").models.len(), 4);
    assert_eq!(u(&st, "lara").health, 2);

    let mut old = lara_and_the_panzers(false, true, 1);
    old.rules_revision = 9;
    // Revision 9: the squad's two Damage Resilient dice on the line (shields: nothing cancelled).
    let out = play(&mut old, "axis", ATTACK, &[1, 1, 5, 5, 5, 5, 5, 5]);
    assert_eq!(
        purposes(&out)
            .iter()
            .filter(|p| p.starts_with("damage resilient"))
            .count(),
        2
    );
    accepted(&play(&mut old, "allies", &order, &[]));
    assert_eq!(u(&old, "panzers").models.len(), 3);
    assert_eq!(u(&old, "lara").health, 2);
}

// issue 18, 003 "Joining Infantry Squads": "they are treated as one unit if either of them are
// targeted by an attack. The owning player assigns hits between them using the normal rules."
// A resilient Lara in plain Panzers, the owner's standing order (R58: the soldiers first): the
// two hits take two soldiers and Lara's Damage Resilient, not shared with the squad, rolls no
// die for them.
#[test]
fn s003_joining_infantry_squads_hits_on_the_soldiers_never_roll_the_heros_damage_resilient() {
    let mut st = unasked(true, false, 1);
    let out = play(&mut st, "axis", ATTACK, &[1, 1, 5, 5, 5, 5]);
    accepted(&out);
    assert!(!purposes(&out)
        .iter()
        .any(|p| p.starts_with("damage resilient")));
    assert_eq!(u(&st, "panzers").models.len(), 2);
    assert_eq!(u(&st, "lara").health, 3);
}

// issue 18, 003 "Joining Infantry Squads": "The owning player assigns hits between them using
// the normal rules", with 002 "Damage Resilient" for the Hero ("roll one die for each point of
// Damage marked off"). The owner's standing order puts Lara first (R58, R100): the attacker's
// own mail resolves her hit, a 2-damage hit marking 2, her two Damage Resilient dice (army,
// shield) after the attack and save dice; she loses 1, no soldier is lost.
#[test]
fn s003_joining_infantry_squads_a_standing_order_naming_the_hero_rolls_his_damage_resilient() {
    let mut st = unasked(true, false, 2);
    accepted(&play(
        &mut st,
        "allies",
        "standing casualties panzers: lara",
        &[],
    ));
    let out = play(&mut st, "axis", ATTACK, &[1, 5, 5, 5, 5, 1, 5]);
    accepted(&out);
    let p = purposes(&out);
    let dr: Vec<usize> = (0..p.len())
        .filter(|i| p[*i].starts_with("damage resilient"))
        .collect();
    assert_eq!(dr, vec![p.len() - 1], "{p:?}");
    assert!(
        texts(&out).contains("2 damage marked, Damage Resilient cancels 1, 1 lost"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "lara").health, 2);
    assert_eq!(u(&st, "panzers").models.len(), 4);
}
