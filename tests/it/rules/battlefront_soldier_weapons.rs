//! Issue 18: 003 "Soldiers with Several Weapons" (R677) and 003 "Limited-Ammo Weapons" (R678),
//! played by battlefront-2013 games from rules revision 10; revision 9 keeps every line firing
//! with all its carriers and a box marked a Panzerfaust fired (R234). The Recon Grenadiers' card
//! lists its five soldiers: 1 and 2 carry an StG 47 and a Panzerfaust, 3 and 4 an StG 47, 5 the
//! MG 48. Dust dice (R230): a 6 is a miss.

use super::battlefront_los::game;
use super::battlefront_sections::{dice_rolled, play, refused_unchanged};
use crate::support_flow::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game};

/// The Recon Grenadiers (axis, E3) with the Pounder (D5) and Bazooka Joe (F5) in range.
fn example() -> State {
    game(
        "battlefront-2013",
        &[
            ("pounder", "bf-pounder", "D5"),
            ("joe", "bf-bazooka-joe", "F5"),
        ],
        &[("grenadiers", "bf-recon-grenadiers", "E3")],
    )
}

fn boxes(st: &State) -> Option<u8> {
    u(st, "grenadiers").ammo.get("panzerfaust").copied()
}

/// Only the soldiers named are left alive.
fn survivors(st: &mut State, alive: &[&str]) {
    let g = st.units.iter_mut().find(|x| x.id == "grenadiers").unwrap();
    g.models = alive.iter().map(|m| m.to_string()).collect();
    g.health = alive.len() as u8;
}

// 003 "Units with Multiple Weapons", the example: "Each soldier can only fire one weapon when they
// attack, so two of the Recon Grenadiers elect to fire their Panzerfaust antitank weapons at the
// Pounder, while the rest fire their StG 47 assault rifles and the MG 48 machine-gun at Bazooka
// Joe." Five weapons: two Panzerfausts (2 dice), the two StG 47s left (1/1 each against Joe's
// Infantry Armour 2: 2 dice) and the MG 48 (4/1: 4 dice), eight dice, all missed.
#[test]
fn s003_units_with_multiple_weapons_example_five_soldiers_fire_five_weapons() {
    let mut st = example();
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\nattack stg47 at joe, mg48 at joe, panzerfaust at pounder\nnothing",
        &[6; 8],
    );
    let t = texts(&out);
    assert_eq!(dice_rolled(&out), 8, "{t}");
    assert!(
        t.contains("Panzerfaust (2 carriers) at pounder")
            && t.contains("StG 47 assault rifles (2 carriers) at joe")
            && t.contains("MG 48 machine-gun (1 carrier) at joe"),
        "{t}"
    );
    // Revision 9 fired all seven weapons: ten dice (R234, docs/battlefront.md).
    let mut old = example();
    old.rules_revision = 9;
    let out = play(
        &mut old,
        "axis",
        "activate grenadiers\nattack stg47 at joe, mg48 at joe, panzerfaust at pounder\nnothing",
        &[6; 10],
    );
    assert!(
        texts(&out).contains("StG 47 assault rifles (4 carriers) at joe"),
        "{}",
        texts(&out)
    );
}

// 003 "Soldiers with Several Weapons": "Each surviving soldier in an Infantry Squad can only use
// one Ranged Weapon and one Close-Combat Weapon ... in each Attack action. If they have several
// Ranged Weapons available to them, they must choose which one they will use for each Attack
// action." One Panzerfaust chosen: its soldier's StG 47 stays silent, three StG 47s fire.
#[test]
fn s003_soldiers_with_several_weapons_one_panzerfaust_chosen_three_stg47s_fire() {
    let mut st = example();
    // The orders template offers the count, for what it does here: it frees soldiers.
    let t = DustTactics.orders_template(&st, "axis");
    assert!(
        t.contains("attack 1 panzerfaust at pounder") && t.contains("a count frees soldiers"),
        "{t}"
    );
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\nattack 1 panzerfaust at pounder, stg47 at joe, mg48 at joe\nnothing",
        &[6; 8],
    );
    let t = texts(&out);
    assert_eq!(dice_rolled(&out), 8, "{t}");
    assert!(
        t.contains("Panzerfaust (1 carrier) at pounder")
            && t.contains("StG 47 assault rifles (3 carriers) at joe"),
        "{t}"
    );
}

// 003 "Soldiers with Several Weapons": the surviving soldiers are all there is. Soldiers 1 and 2
// alive: both Panzerfausts leave nobody for the StG 47s, which is refused, naming the line and
// what to send; one Panzerfaust leaves one StG 47.
#[test]
fn s003_soldiers_with_several_weapons_a_line_left_without_a_soldier_is_refused() {
    let mut st = example();
    survivors(&mut st, &["1", "2"]);
    let r = refused_unchanged(
        &mut st,
        "axis",
        "activate grenadiers\nattack panzerfaust at pounder, stg47 at joe\nnothing",
    );
    assert!(
        r.contains("`stg47 at joe`")
            && r.contains("2 soldier(s) alive, each firing one Ranged weapon")
            && r.contains("003 \"Soldiers with Several Weapons\""),
        "{r}"
    );
    let out = send(
        &mut st,
        "axis",
        "activate grenadiers\nattack panzerfaust at pounder, stg47 at joe\nnothing",
        &mut plenty(),
    );
    let CommandOutcome::Refused { instead, .. } = &out.results[0].outcome else {
        panic!("accepted: {}", texts(&out));
    };
    assert!(
        instead.contains("attack 1 <weapon> at <target>"),
        "{instead}"
    );
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\nattack 1 panzerfaust at pounder, stg47 at joe\nnothing",
        &[6; 2],
    );
    assert_eq!(dice_rolled(&out), 2, "{}", texts(&out));
}

// 003 "Soldiers with Several Weapons" with 003 "Limited-Ammo Weapons" picked up (R153): soldiers
// 1 and 2 have fallen; two of the three left take up the Panzerfausts, the soldiers not wanted
// for another line first, so the MG 48's gunner still fires it.
#[test]
fn s003_soldiers_with_several_weapons_panzerfausts_picked_up_leave_the_mg48_its_gunner() {
    let mut st = example();
    survivors(&mut st, &["3", "4", "5"]);
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\nattack panzerfaust at pounder, mg48 at joe\nnothing",
        &[6; 6],
    );
    let t = texts(&out);
    assert!(
        t.contains("Panzerfaust (2 carriers) at pounder")
            && t.contains("MG 48 machine-gun (1 carrier) at joe"),
        "{t}"
    );
    // The three soldiers cannot also fire an StG 47: the third is the gunner.
    let mut st = example();
    survivors(&mut st, &["3", "4", "5"]);
    let r = refused_unchanged(
        &mut st,
        "axis",
        "activate grenadiers\nattack panzerfaust at pounder, mg48 at joe, stg47 at joe\nnothing",
    );
    assert!(r.contains("`stg47 at joe`"), "{r}");
}

// 003 "Limited-Ammo Weapons": "Mark one of these boxes each time a unit makes an Attack or
// Sustained Attack action with the Limited-Ammo Weapon. Once all of the boxes have been marked,
// the weapon can make no further attacks." Two boxes: two Attacks with both Panzerfausts, then
// none. Revision 9 marked a box a Panzerfaust (R234): one Attack with both spent the two.
#[test]
fn s003_limited_ammo_weapons_a_box_each_attack_however_many_panzerfausts_fire() {
    let mut st = game(
        "battlefront-2013",
        &[
            ("grenadiers", "bf-recon-grenadiers", "E3"),
            ("hunters", "bf-bot-hunters", "A9"),
        ],
        &[
            ("pounder", "bf-pounder", "E5"),
            ("ludwig", "bf-ludwig", "I1"),
        ],
    );
    st.scenario.rounds = 5;
    next_round(&mut st);
    let mut old = st.clone();
    old.rules_revision = 9;
    assert_eq!(boxes(&st), Some(2), "two boxes");
    let order = "activate grenadiers\nattack panzerfaust at pounder\nnothing";
    for left in [1, 0] {
        let out = play(&mut st, "allies", order, &[6, 6]);
        assert!(
            texts(&out).contains("Panzerfaust (2 carriers) at pounder"),
            "{}",
            texts(&out)
        );
        assert_eq!(boxes(&st), Some(left));
        next_round(&mut st);
    }
    let r = refused_unchanged(&mut st, "allies", order);
    assert!(
        r.contains("no ammo box left for Panzerfaust") && r.contains("Limited-Ammo Weapons"),
        "{r}"
    );
    // The orders template no longer offers the Panzerfaust (every suggestion is accepted).
    let t = DustTactics.orders_template(&st, "allies");
    assert!(
        t.contains("activate grenadiers") && !t.lines().any(|l| l.contains("panzerfaust at")),
        "{t}"
    );
    // Revision 9: one Attack with both Panzerfausts marks both boxes.
    play(&mut old, "allies", order, &[6, 6]);
    assert_eq!(boxes(&old), Some(0));
}
