//! Issue 18, the audit of 003 and 002 against the tests (docs/battlefront-sections.md): one test
//! for each built rule section of 003 that had none, and the worked examples of 003 that were
//! not tests yet, played with the starter cards and scripted dice. Each test is named after the
//! section and quotes its sentence. Dust dice (003 "Dust Dice", R230): faces 1–2 army, 3–4
//! target, 5–6 shield.

use super::battlefront_los::{game, terrain};
use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::game::{Outcome, ScriptedDice};

/// How many dice the outcome rolled, every roll of the report counted.
pub(super) fn dice_rolled(out: &Outcome) -> usize {
    out.happenings
        .iter()
        .flat_map(|h| &h.rolls)
        .map(|r| r.faces.len())
        .sum()
}

/// `text` (orders as a player writes them) sent by `side` with exactly `faces` scripted: every
/// die is used, none is left over.
pub(super) fn play(st: &mut State, side: &str, text: &str, faces: &[u8]) -> Outcome {
    let mut d = ScriptedDice::new(faces.to_vec());
    let out = send(st, side, text, &mut d);
    assert!(first_result(&out).is_ok(), "{:?}", first_result(&out));
    assert_eq!(
        d.remaining(),
        0,
        "every scripted die is rolled: {}",
        texts(&out)
    );
    out
}

/// `text` sent by `side` is refused and changes nothing; the refusal's reason and rule.
pub(super) fn refused_unchanged(st: &mut State, side: &str, text: &str) -> String {
    let before = serde_json::to_string(&*st).unwrap();
    let out = send(st, side, text, &mut plenty());
    let r = first_result(&out).expect_err("refused");
    assert_eq!(serde_json::to_string(&*st).unwrap(), before, "{r}");
    r
}

// 003 "Combat Dice and Damage": "Each entry in the weapons chart shows the number of dice it rolls
// to hit (the number before the slash) ... and how much damage it inflicts with each hit (the
// number after the slash)." Example, 003 "Number of Dice": "The Pounder has a Vehicle Armour
// rating of 4. When the Ludwig shoots at it ... the Ludwig gets 7 combat dice against the Pounder
// and each hit will cause 1 damage." One hit of the seven: one cross off the Pounder (in the open:
// no save, 003 "Roll Saves").
#[test]
fn s003_number_of_dice_the_ludwig_rolls_seven_dice_against_the_pounder_one_damage_a_hit() {
    let mut st = game(
        "battlefront-2013",
        &[("pounder", "bf-pounder", "E7")],
        &[("ludwig", "bf-ludwig", "E3")],
    );
    let out = play(
        &mut st,
        "axis",
        "activate ludwig\nattack fpk at pounder\nnothing",
        &[1, 3, 5, 3, 5, 4, 6],
    );
    assert_eq!(dice_rolled(&out), 7, "{}", texts(&out));
    assert_eq!(u(&st, "pounder").health, 3, "{}", texts(&out));
}

// 003 "Roll To Hit": "Look up the number of dice to roll for each weapon on the Weapons Chart ...
// cross reference the weapon with the Armour rating of the target." Example, 003 "Roll to Hit
// Infantry": "The Recon Grenadiers are shooting at Red Thunder, an infantry squad with Armour
// rating 2 ... their MG 48 machine-gun ... rated 4/1 ... four dice for their machine-gun. They
// also have four StG 47 assault rifles rated 1/1 ... another four dice for a total of eight
// dice." Eight misses: nothing to save, Red Thunder keeps its five soldiers.
#[test]
fn s003_roll_to_hit_infantry_recon_grenadiers_roll_eight_dice_at_red_thunder() {
    let mut st = game(
        "battlefront-2013",
        &[("thunder", "bf-red-thunder", "E6")],
        &[("grenadiers", "bf-recon-grenadiers", "E3")],
    );
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\nattack stg47 at thunder, mg48 at thunder\nnothing",
        &[6; 8],
    );
    assert_eq!(dice_rolled(&out), 8, "{}", texts(&out));
    assert_eq!(u(&st, "thunder").models.len(), 5);
}

// 003 "Roll to Hit a Vehicle": "the Recon Grenadiers are shooting at Grand'ma, a vehicle with
// Armour rating 4. Both the MG 48 and the StG 47 have a dash in the Vehicle Armour rating 4
// column, indicating they cannot hurt it. Their only option is to use their Panzerfaust
// anti-tank weapons, which are rated 1/2." (003 says two Panzerfausts, then three: the card
// carries two, R234, so two dice.) One hit marks two crosses; Grand'ma's Damage Resilient rolls
// a die for each (003 "Damage Resilient"), here no army symbol. One box is marked for the
// Attack, both Panzerfausts fired (003 "Limited-Ammo Weapons", R678 from rules revision 10).
#[test]
fn s003_roll_to_hit_a_vehicle_only_the_panzerfausts_can_hurt_grandma() {
    let mut st = game(
        "battlefront-2013",
        &[("grandma", "bf-grandma", "E5")],
        &[("grenadiers", "bf-recon-grenadiers", "E3")],
    );
    for w in ["stg47", "mg48"] {
        let r = refused_unchanged(
            &mut st,
            "axis",
            &format!("activate grenadiers\nattack {w} at grandma\nnothing"),
        );
        assert!(r.contains("grandma"), "{r}");
    }
    let ammo = u(&st, "grenadiers").ammo.get("panzerfaust").copied();
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\nattack panzerfaust at grandma\nnothing",
        &[1, 6, 5, 6],
    );
    assert_eq!(dice_rolled(&out), 4, "two to hit, two for Damage Resilient");
    assert_eq!(u(&st, "grandma").health, 3, "{}", texts(&out));
    assert_eq!(ammo, Some(2));
    assert_eq!(
        u(&st, "grenadiers").ammo.get("panzerfaust").copied(),
        Some(1),
        "one box for the Attack, both Panzerfausts fired (R678)"
    );
}

// 003 "Suffer Damage": "Hits on Heroes, Vehicles, and Aircraft cause an amount of damage that
// depends on the weapon used ... The number after the slash is the amount of damage caused."
// Example, 003 "Damage to a Vehicle": "The Red Thunder squad scores a hit on an Allied Pounder
// with their PRS-47. Cross referencing the PRS-47 with the Pounder's Armour of 4, gives a value
// of 1/3, so the Allied player marks three crosses on the Pounder's damage track."
#[test]
fn s003_damage_to_a_vehicle_the_prs47_marks_three_crosses_on_the_pounder() {
    let mut st = game(
        "battlefront-2013",
        &[("pounder", "bf-pounder", "E6")],
        &[("thunder", "bf-red-thunder", "E3")],
    );
    let out = play(
        &mut st,
        "axis",
        "activate thunder\nattack prs47 at pounder\nnothing",
        &[1],
    );
    assert_eq!(
        u(&st, "pounder").health,
        1,
        "4 crosses, 3 marked: {}",
        texts(&out)
    );
}

// 003 "Damage to a Vehicle", its second half: "Red Thunder also scores a hit on Bazooka Joe with
// one of their PPSh-48 submachine guns. Cross referencing with Joe's Infantry Armour 2, their
// value is 2/1, so the player marks one cross off Joe's damage track." Four PPSh-48s rated 2/1:
// eight dice, one hit; Joe in the open fails his Infantry Save (003 "Infantry Saves").
#[test]
fn s003_damage_to_a_vehicle_the_ppsh48_marks_one_cross_off_bazooka_joe() {
    let mut st = game(
        "battlefront-2013",
        &[("joe", "bf-bazooka-joe", "E6")],
        &[("thunder", "bf-red-thunder", "E3")],
    );
    let out = play(
        &mut st,
        "axis",
        "activate thunder\nattack ppsh48 at joe\nnothing",
        &[1, 6, 6, 6, 6, 6, 6, 6, 6],
    );
    assert_eq!(dice_rolled(&out), 9, "eight to hit, one save");
    assert_eq!(u(&st, "joe").health, 2, "{}", texts(&out));
}

// 003 "Limited-Ammo Weapons": "Mark one of these boxes each time a unit makes an Attack or
// Sustained Attack action with the Limited-Ammo Weapon. Once all of the boxes have been marked,
// the weapon can make no further attacks." The Recon Grenadiers' Panzerfausts have two boxes; from
// rules revision 10 a box is marked each Attack, both Panzerfausts fired or one (R678), so two
// attacks with both, and a third is refused. Revision 9 marked a box a Panzerfaust fired (R234):
// one Attack with both spent the two boxes.
#[test]
fn s003_limited_ammo_weapons_a_box_each_attack_then_no_further_attacks() {
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
    // Rounds enough for three attacks, each in an allied turn of its own.
    st.scenario.rounds = 5;
    next_round(&mut st);
    let boxes = |st: &State| u(st, "grenadiers").ammo.get("panzerfaust").copied();
    assert_eq!(boxes(&st), Some(2), "two boxes");
    let mut old = st.clone();
    old.rules_revision = 9;
    play(
        &mut old,
        "allies",
        "activate grenadiers\nattack panzerfaust at pounder\nnothing",
        &[6, 6],
    );
    assert_eq!(boxes(&old), Some(0), "revision 9: a box a Panzerfaust");
    for left in [1, 0] {
        play(
            &mut st,
            "allies",
            "activate grenadiers\nattack panzerfaust at pounder\nnothing",
            &[6, 6],
        );
        assert_eq!(boxes(&st), Some(left));
        next_round(&mut st);
    }
    let r = refused_unchanged(
        &mut st,
        "allies",
        "activate grenadiers\nattack panzerfaust at pounder\nnothing",
    );
    assert!(
        r.contains("no ammo box left for Panzerfaust")
            && r.contains("003 \"Limited-Ammo Weapons\""),
        "{r}"
    );
}

// 003 "Declare Targets": "If a player declares that a unit is using a Limited-Ammo Weapon (such as
// a Panzerfaust), they use that ammo, even if the other weapons destroy the target unit first."
// The MG 48 kills Bazooka Joe (4 hits, 4 failed Infantry Saves, 3 crosses); the Panzerfausts
// declared at him are still fired and mark their box (one an Attack from revision 10, R678).
#[test]
fn s003_declare_targets_limited_ammo_declared_is_used_even_if_the_target_is_destroyed_first() {
    let mut st = game(
        "battlefront-2013",
        &[("joe", "bf-bazooka-joe", "E5")],
        &[("grenadiers", "bf-recon-grenadiers", "E3")],
    );
    let mut d = ScriptedDice::new(
        vec![1u8; 4]
            .into_iter()
            .chain(vec![6u8; 40])
            .collect::<Vec<u8>>(),
    );
    let out = send(
        &mut st,
        "axis",
        "activate grenadiers\nattack mg48 at joe, panzerfaust at joe\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{:?}", first_result(&out));
    assert!(u(&st, "joe").destroyed, "{}", texts(&out));
    assert_eq!(
        u(&st, "grenadiers").ammo.get("panzerfaust").copied(),
        Some(1),
        "the Panzerfaust box is marked: {}",
        texts(&out)
    );
}

// 003 "Units with Multiple Weapons": "A player can choose a different target for each weapon that
// the attacking unit can use." Example: "two of the Recon Grenadiers elect to fire their
// Panzerfaust antitank weapons at the Pounder, while the rest fire their StG 47 assault rifles
// and the MG 48 machine-gun at Bazooka Joe". The Panzerfausts at the Pounder (2 dice), the MG 48
// at Joe (4 dice, 4/1 against Infantry 2), all missed, one box marked for the Attack (R678). The
// whole example, with "the rest" of the StG 47s, is
// rules::battlefront_soldier_weapons::s003_units_with_multiple_weapons_example_five_soldiers_fire_five_weapons (R677).
#[test]
fn s003_units_with_multiple_weapons_panzerfausts_at_the_pounder_the_rest_at_bazooka_joe() {
    let mut st = game(
        "battlefront-2013",
        &[
            ("pounder", "bf-pounder", "D5"),
            ("joe", "bf-bazooka-joe", "F5"),
        ],
        &[("grenadiers", "bf-recon-grenadiers", "E3")],
    );
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\nattack panzerfaust at pounder, mg48 at joe\nnothing",
        &[6; 6],
    );
    let t = texts(&out);
    assert_eq!(dice_rolled(&out), 6, "{t}");
    assert!(
        t.contains("Panzerfaust (2 carriers) at pounder")
            && t.contains("MG 48 machine-gun (1 carrier) at joe"),
        "{t}"
    );
    assert_eq!(
        u(&st, "grenadiers").ammo.get("panzerfaust").copied(),
        Some(1)
    );
}

// 003 "Move and March Move Actions": "A unit's first diagonal move in its activation counts as
// one square. Each additional square moved diagonally counts as two squares of movement." and
// "March Move Actions": "A unit making a March Move action doubles its Move rating for the
// activation." Example, 003 "Move Actions": "A Pounder has a Move rating of 1. The white squares
// show where it can move if it decides to perform a Move action. The green squares show where it
// can move if it decides to perform a March Move action."
#[test]
fn s003_move_actions_pounder_example_one_square_a_move_two_a_march_move() {
    let fresh = || {
        game(
            "battlefront-2013",
            &[("pounder", "bf-pounder", "E5")],
            &[("ludwig", "bf-ludwig", "A1")],
        )
    };
    // A Move: any of the eight squares around it (white), the diagonal counting one.
    for to in ["E4", "D4", "F6"] {
        let mut st = fresh();
        next_round(&mut st);
        play(
            &mut st,
            "allies",
            &format!("activate pounder\nmove {to}\nnothing"),
            &[],
        );
        assert_eq!(u(&st, "pounder").at, Some(sq(to)));
    }
    // Not two squares in one Move.
    let mut st = fresh();
    next_round(&mut st);
    refused_unchanged(&mut st, "allies", "activate pounder\nmove E3\nnothing");
    // A March Move (two `move` lines): two squares (green), one diagonal among them.
    for (a, b) in [("E4", "E3"), ("D4", "D3"), ("F5", "G4")] {
        let mut st = fresh();
        next_round(&mut st);
        play(
            &mut st,
            "allies",
            &format!("activate pounder\nmove {a}\nmove {b}"),
            &[],
        );
        assert_eq!(u(&st, "pounder").at, Some(sq(b)));
    }
    // A second diagonal costs two: D4 then C3 is three squares of movement, over the two.
    let mut st = fresh();
    next_round(&mut st);
    let r = refused_unchanged(&mut st, "allies", "activate pounder\nmove D4\nmove C3");
    assert!(r.contains("003"), "{r}");
}

// 003 "Structure Squares": "Units cannot enter a structure square. Structures also block Line of
// Sight to targets beyond them." (A structure is the board's impassable square, R240.)
#[test]
fn s003_structure_squares_no_unit_enters_and_they_block_sight_beyond() {
    let mut st = game(
        "battlefront-2013",
        &[("reapers", "bf-grim-reapers", "E6")],
        &[("grenadiers", "bf-recon-grenadiers", "E3")],
    );
    terrain(&mut st, "E4", Terrain::Impassable);
    let r = refused_unchanged(&mut st, "axis", "activate grenadiers\nmove E4\nnothing");
    assert!(r.contains("E4"), "{r}");
    let r = refused_unchanged(
        &mut st,
        "axis",
        "activate grenadiers\nattack stg47 at reapers\nnothing",
    );
    assert!(r.contains("003"), "{r}");
    // Without the structure the same shot is accepted.
    terrain(&mut st, "E4", Terrain::Open);
    play(
        &mut st,
        "axis",
        "activate grenadiers\nattack stg47 at reapers\nnothing",
        &[6; 4],
    );
}

// 003 "Anti-tank Traps": "Vehicles cannot enter a square with an anti-tank trap. Other units can
// move freely onto and through squares with anti-tank traps."
#[test]
fn s003_anti_tank_traps_vehicles_cannot_enter_other_units_move_onto_and_through() {
    let trap = |st: &mut State| {
        st.scenario.board.cover.insert(
            sq("E5"),
            CoverElement {
                kind: CoverKind::TankTrap,
                damage: 0,
            },
        );
    };
    let mut st = game(
        "battlefront-2013",
        &[("hunters", "bf-bot-hunters", "A9")],
        &[("grandma", "bf-grandma", "E4")],
    );
    trap(&mut st);
    let r = refused_unchanged(&mut st, "axis", "activate grandma\nmove E5\nnothing");
    assert!(r.contains("E5"), "{r}");
    let mut st = game(
        "battlefront-2013",
        &[("hunters", "bf-bot-hunters", "A9")],
        &[("reapers", "bf-grim-reapers", "E4")],
    );
    trap(&mut st);
    play(&mut st, "axis", "activate reapers\nmove E5\nmove E6", &[]);
    assert_eq!(u(&st, "reapers").at, Some(sq("E6")), "through the trap");
}

// 003 "Moving Around Corners": "An Infantry unit can move diagonally across a corner around a
// square occupied by an enemy unit or containing terrain they cannot enter, but cannot move
// diagonally between two such squares." Examples, 003 "Infantry Moving Around Corners": "Being
// infantry, the Bot Hunters can move sideways or diagonally across the corners ... they cannot
// squeeze between the Ludwig and the building."
#[test]
fn s003_moving_around_corners_infantry_round_one_corner_not_between_the_ludwig_and_a_building() {
    let corner = |ludwig: &str| {
        let mut st = game(
            "battlefront-2013",
            &[("hunters", "bf-bot-hunters", "D5")],
            &[("ludwig", "bf-ludwig", ludwig)],
        );
        terrain(&mut st, "D4", Terrain::Impassable);
        next_round(&mut st);
        st
    };
    // Round the building's corner (D4), E5 free: accepted.
    let mut st = corner("I1");
    play(&mut st, "allies", "activate hunters\nmove E4\nnothing", &[]);
    assert_eq!(u(&st, "hunters").at, Some(sq("E4")));
    // Between the building (D4) and the Ludwig (E5): refused, as the way round is too long.
    let mut st = corner("E5");
    let r = refused_unchanged(&mut st, "allies", "activate hunters\nmove E4\nnothing");
    assert!(r.contains("E4 is 5 movement points away"), "{r}");
}

// 003 "Moving Around Corners": "A Vehicle cannot move diagonally across a corner around a square
// occupied by an enemy unit or containing terrain it cannot enter." Example, 003 "Vehicles Moving
// Around Corners": "Grand'ma cannot move diagonally across the corner. Instead, it must take a
// March Move Action to move through the intermediate square by going straight ahead, then
// turning right."
#[test]
fn s003_vehicles_moving_around_corners_grandma_goes_straight_ahead_then_turns() {
    let fresh = || {
        let mut st = game(
            "battlefront-2013",
            &[("grandma", "bf-grandma", "D5")],
            &[("ludwig", "bf-ludwig", "I1")],
        );
        terrain(&mut st, "D4", Terrain::Impassable);
        next_round(&mut st);
        st
    };
    // Not diagonally past the building's corner (D4): the way round, E5 then E4, is two squares.
    let mut st = fresh();
    let r = refused_unchanged(&mut st, "allies", "activate grandma\nmove E4\nnothing");
    assert!(r.contains("E4 is 2 movement points away"), "{r}");
    let mut st = fresh();
    play(&mut st, "allies", "activate grandma\nmove E5\nmove E4", &[]);
    assert_eq!(u(&st, "grandma").at, Some(sq("E4")));
}

// 003 "Check Line of Sight", "If I Can See You, You Can See Me": "No matter the situation, if an
// enemy unit has Line of Sight to a friendly unit, that friendly unit has Line of Sight back to
// that enemy unit." The Bot Hunters on B2 and the Recon Grenadiers on E3, trees on every pair of
// the other squares of B1–E4 in turn: whoever fires, the verdict is the same, and both verdicts
// occur (trees on C2 and C3 hide them from each other).
#[test]
fn s003_if_i_can_see_you_you_can_see_me_sight_is_the_same_both_ways() {
    let squares: Vec<String> = ['B', 'C', 'D', 'E']
        .iter()
        .flat_map(|c| (1..=4).map(move |r| format!("{c}{r}")))
        .filter(|s| s != "B2" && s != "E3")
        .collect();
    let (mut seen, mut hidden) = (0, 0);
    for (i, a) in squares.iter().enumerate() {
        for b in &squares[i + 1..] {
            let verdict = |side: &str, text: &str| {
                let mut st = game(
                    "battlefront-2013",
                    &[("hunters", "bf-bot-hunters", "B2")],
                    &[("grenadiers", "bf-recon-grenadiers", "E3")],
                );
                terrain(&mut st, a, Terrain::Trees);
                terrain(&mut st, b, Terrain::Trees);
                if side == "allies" {
                    next_round(&mut st);
                }
                first_result(&send(&mut st, side, text, &mut plenty())).is_ok()
            };
            let axis = verdict(
                "axis",
                "activate grenadiers\nattack stg47 at hunters\nnothing",
            );
            let allies = verdict(
                "allies",
                "activate hunters\nattack rifles at grenadiers\nnothing",
            );
            assert_eq!(axis, allies, "trees on {a} and {b}");
            if axis {
                seen += 1;
            } else {
                hidden += 1;
            }
        }
    }
    assert!(seen > 0 && hidden > 0, "seen {seen}, hidden {hidden}");
}

/// The line `weapon` of card `card` in the game `st` given `range`.
fn set_range(st: &mut State, card: &str, weapon: &str, range: WeaponRange) {
    let c = st.cards.get_mut(card).expect("card in the game");
    c.weapons
        .iter_mut()
        .find(|w| w.id == weapon)
        .expect("weapon line")
        .range = range;
}

// 003 "Unlimited Range (U)": "Range U weapons have the range to target any unit on the
// battlefield." The Ludwig's MG 44 (Range 6, hatch-mounted: any direction) at the Grim Reapers
// eight squares away: out of range; the same line with Range U fires.
#[test]
fn s003_unlimited_range_u_reaches_any_unit_on_the_battlefield() {
    let mk = || {
        game(
            "battlefront-2013",
            &[("reapers", "bf-grim-reapers", "E9")],
            &[("ludwig", "bf-ludwig", "E1")],
        )
    };
    let order = "activate ludwig\nattack mg44 at reapers\nnothing";
    let mut st = mk();
    let r = refused_unchanged(&mut st, "axis", order);
    assert!(r.contains("003 \"Check Range\""), "{r}");
    let mut st = mk();
    set_range(&mut st, "bf-ludwig", "mg44", WeaponRange::Unlimited);
    play(&mut st, "axis", order, &[6; 3]);
}

// 003 "Minimum Range (#-#)": "These weapons have their Range given as a minimum range and a
// maximum range separated by a dash." Example, 003 "Minimum Range": "a Range of 2-U. This gives
// them a minimum range of 2 squares ... It can attack targets in the white squares, but not the
// red squares" (the adjacent ones). The MG 44 as a 2–8 line: refused at the adjacent Grim
// Reapers, accepted two squares away.
#[test]
fn s003_minimum_range_not_at_an_adjacent_square_but_from_the_minimum_on() {
    let mk = |at: &str| {
        let mut st = game(
            "battlefront-2013",
            &[("reapers", "bf-grim-reapers", at)],
            &[("ludwig", "bf-ludwig", "E3")],
        );
        set_range(&mut st, "bf-ludwig", "mg44", WeaponRange::Between(2, 8));
        st
    };
    let order = "activate ludwig\nattack mg44 at reapers\nnothing";
    let mut st = mk("E4");
    let r = refused_unchanged(&mut st, "axis", order);
    assert!(r.contains("003 \"Check Range\""), "{r}");
    let mut st = mk("E5");
    play(&mut st, "axis", order, &[6; 3]);
}

// 003 "Pilot: Hero": "Only the named Hero can pilot a Vehicle with the Pilot: Hero attribute. The
// Vehicle can still be fielded without a Hero pilot." Grand'ma naming Captain Koshka: Bazooka Joe,
// given the Pilot skill, is refused at the start; Koshka pilots it; without a pilot it is fielded.
#[test]
fn s003_pilot_hero_only_the_named_hero_pilots_the_vehicle() {
    let bf_card = super::battlefront_los::bf_card;
    let mut grandma = with_skill(bf_card("bf-grandma"), "pilot", None);
    grandma.skills.last_mut().unwrap().card = Some("bf-koshka".into());
    let joe = with_skill(bf_card("bf-bazooka-joe"), "pilot", None);
    let start = |hero: Option<(&str, &str)>| {
        let mut allies = vec![unit("grandma", "bf-grandma", Some("E5"))];
        if let Some((id, card)) = hero {
            let mut h = unit(id, card, Some("E5"));
            h.joins = Some("grandma".into());
            allies.push(h);
        }
        let s = scenario(allies, vec![unit("ludwig", "bf-ludwig", Some("E1"))]);
        let cards = vec![
            grandma.clone(),
            joe.clone(),
            bf_card("bf-koshka"),
            bf_card("bf-ludwig"),
        ];
        dustmail::dust_tactics::DustTactics.start("battlefront-2013", s, cards)
    };
    let e = start(Some(("joe", "bf-bazooka-joe"))).expect_err("not the named hero");
    assert!(
        e.0.contains("can only be piloted by the hero of card bf-koshka"),
        "{}",
        e.0
    );
    let st = start(Some(("koshka", "bf-koshka"))).expect("the named hero");
    assert_eq!(u(&st, "koshka").joined.as_deref(), Some("grandma"));
    let st = start(None).expect("fielded without a pilot");
    assert!(st.pilot_of("grandma").is_none());
}

// 002 "Laser Weapons", its worked example: "The Faceless Death squad performs a Sustained Attack
// on the Pounder with their Schwerer Sturmlassers. Each Sturmlasser rolls two dice against
// Vehicle Armour 4. They roll [four dice], scoring two hits. As they are making a Sustained
// Attack ... they re-roll their misses ... scoring a third hit. Using the Laser Weapons special
// rule, the player now rolls three more dice for the three hits, scoring [one hit]. They roll
// another die for that hit, scoring a [miss]. ... a total of four hits." (The OCR lost the
// symbols and prints four for the two re-rolled misses; two Sturmlassers of two dice each.) The
// engine rolls each hit's chain right after the roll that hit, so the same dice come in that
// order: 4 dice, 2 hits; their chains (army then a miss; a miss); the 2 misses re-rolled, 1 hit;
// its chain, a miss. 2 + 1 + 1 = 4 hits.
#[test]
fn s002_laser_weapons_faceless_death_example_four_hits() {
    use super::battlefront::{bf, line, opts, target};
    use dustmail::dust_tactics::combat::resolve_line_under;
    let sturmlasser = line("sturmlasser", 2, 1, vec![WeaponTrait::Laser]);
    let pounder = target(UnitType::Vehicle, 1, 10, Cover::None);
    let mut d = ScriptedDice::new([1, 2, 5, 6, 1, 5, 4, 2, 6, 3]);
    let o = resolve_line_under(bf(), &sturmlasser, &pounder, &opts(2, true), 1, &mut d);
    assert_eq!(d.remaining(), 0, "{}", o.summary);
    assert_eq!(o.hits, 4, "{}", o.summary);
}

// 002 "Attacking Strongpoints", its worked example: "The Mickey scores a hit with its M1 75mm
// howitzer and two with its .30 cal MG on the Motherland Tesla Gun Strongpoint. The SSU player
// rolls two Cover Saves for the MG hits, passing one and failing the other. As the Motherland
// Tesla Gun is in a Strongpoint, it re-rolls the failed save, needing a [army] to cancel the hit.
// A roll of [other] fails the re-roll and the unit loses a soldier. The M1 75mm howitzer is a
// Grenade weapon, so the Motherland Tesla Gun has an Infantry Save rather than a Cover Save
// against that Hit. It fails the Save, but still has the Strongpoint re-roll which it passes on
// a [army], preventing further casualties. The Hammers then attack the Motherland Tesla Gun
// Strongpoint. Their Rocket Punches ... score three hits. Unlike normal Close-Combat, units in
// Bunkers and Strongpoints get a save. The SSU player rolls [three dice] cancelling two of the
// hits, losing just one more soldier." (R718–R720; the cards are ours: a 4-soldier gun squad in
// the strongpoint E2+F2, a vehicle with a grenade howitzer and a 2-dice MG, a 3-soldier squad
// with a close-combat punch.) The example gives the MG hits Cover Saves; the engine gives a unit
// in a strongpoint seen by a clear line an Infantry Save (R727: it is seen from every direction):
// the failed saves show a target, which fails both alike, so the example's outcome is the same.
#[test]
fn s002_attacking_strongpoints_the_mickey_and_the_hammers_example() {
    use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
    let howitzer = WeaponLine {
        traits: vec![WeaponTrait::GrenadeLauncher],
        ..weapon("howitzer", WeaponRange::Upto(6), 1, 1)
    };
    let mg = weapon("mg", WeaponRange::Upto(6), 2, 1);
    let cards = vec![
        card("mickey", UnitType::Vehicle, 5, 1, vec![mg, howitzer]),
        card(
            "hammers",
            UnitType::Squad,
            3,
            1,
            vec![weapon("punch", WeaponRange::Close, 1, 1)],
        ),
        card(
            "tesla-gun",
            UnitType::Squad,
            4,
            1,
            vec![weapon("tesla", WeaponRange::Upto(6), 1, 1)],
        ),
    ];
    let mut s = scenario(
        vec![
            unit("mickey", "mickey", Some("E6")),
            unit("hammers", "hammers", Some("E3")),
        ],
        vec![unit("gun", "tesla-gun", Some("E2"))],
    );
    s.fortifications = Some(Fortifications {
        strongpoints: vec![[sq("E2"), sq("F2")]],
        ..Default::default()
    });
    let mut st = dustmail::dust_tactics::DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    begin(&mut st, "allies");
    for side in ["allies", "axis"] {
        accepted(&send(
            &mut st,
            side,
            "standing react any never",
            &mut plenty(),
        ));
    }
    // MG: two hits; saves army (passed) and target (failed); the re-roll a shield: one soldier.
    // Howitzer: a hit; its Infantry Save a target (failed); the re-roll an army: no casualty.
    let out = play(
        &mut st,
        "allies",
        "activate mickey\nattack mg at gun, howitzer at gun\nnothing",
        &[1, 2, 1, 3, 5, 1, 3, 1],
    );
    let purposes: Vec<String> = out
        .happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| r.purpose.clone()))
        .collect();
    assert!(
        purposes.contains(&"infantry save vs howitzer".to_string())
            && purposes.contains(&"strongpoint re-roll vs howitzer".to_string()),
        "{purposes:?}"
    );
    assert_eq!(u(&st, "gun").models.len(), 3, "{}", texts(&out));
    accepted(&send(
        &mut st,
        "axis",
        "activate gun\nnothing\nnothing",
        &mut plenty(),
    ));
    // The Rocket Punches: three hits; the strongpoint saves army, army, shield: one soldier. The
    // Hammers are the turn's last unit: the next initiative follows (three army symbols against
    // none, no tie).
    let out = play(
        &mut st,
        "allies",
        "activate hammers\nattack punch at gun\nnothing",
        &[1, 1, 1, 1, 2, 5, 1, 1, 1, 6, 6, 6],
    );
    assert!(
        texts(&out).contains("2 cancelled by strongpoint save"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "gun").models.len(), 2, "{}", texts(&out));
}

// 003 "Weapons with Two Lines": "Some weapons have two modes of shooting shown by two sets of
// weapon characteristics ... the player must announce which set of characteristics they will
// use". Not built under battlefront-2013 (no starter card has one; R236): a card whose line
// carries 004's `dual_ammo` is refused at `new`, naming the trait and the file, not played by
// 004's rule. 003 "Set-Up Weapons" are 004's `setup` (R822): that card is read.
#[test]
fn s003_weapons_with_two_lines_are_refused_at_new_by_name() {
    let (file, text) = super::battlefront_skills002::card_with("bf-pounder", "");
    let with = |t: &str| {
        let with = text.replacen(
            "id = \"17-pdr\"\n",
            &format!("id = \"17-pdr\"\ntraits = [\"{t}\"]\n"),
            1,
        );
        assert_ne!(with, text, "the Pounder's gun line");
        std::collections::BTreeMap::from([(file.clone(), with)])
    };
    let e = dustmail::dust_tactics::battlefront::skills::check_cards(&with("dual_ammo"))
        .expect_err("refused");
    assert!(e.contains("`dual_ammo`") && e.contains(&file), "{e}");
    dustmail::dust_tactics::battlefront::skills::check_cards(&with("setup"))
        .expect("003's Set-Up weapon (R822)");
    let files = std::collections::BTreeMap::from([(file.clone(), text.clone())]);
    dustmail::dust_tactics::battlefront::skills::check_cards(&files).expect("the shipped card");
}

// 003 "Reacting to a Close-Combat Attack", the worked example played by orders: "The Fakyeli
// declare that they will perform a Move action then an Attack action. 1 The Fakyeli take their
// Move action. 2 The Allied player ... declares that the Grim Reapers will attempt a Reactive
// Attack. They roll [army] and [army], so they will perform a Sustained Attack action ... killing
// two of the Fakyeli. 3 The remaining three Fakyeli now finish their activation with their Attack
// action. They shoot two of the Grim Reapers with their Sulphur Thrower and Shotguns. 4 Once the
// Fakyeli have attacked with their Ranged weapons, both sides attack with their Close-Combat
// weapons. Attacks with Close-Combat weapons are simultaneous, so although the last Grim Reaper
// is eliminated in close combat, he takes one more Fakyeli with him."
#[test]
fn s003_reacting_to_a_close_combat_attack_fakyeli_and_grim_reapers_example() {
    let mut st = game(
        "battlefront-2013",
        &[
            ("reapers", "bf-grim-reapers", "E6"),
            ("hunters", "bf-bot-hunters", "A9"),
        ],
        &[
            ("fakyeli", "bf-fakyeli", "E3"),
            ("ludwig", "bf-ludwig", "I1"),
        ],
    );
    accepted(&send(
        &mut st,
        "allies",
        "standing react any auto\nstanding react reapers sustained",
        &mut plenty(),
    ));
    // The reaction's roll (army, army); the Sustained Attack, 6 dice (2 hits) and its 4 misses
    // re-rolled, 2 failed saves; the Sulphur Thrower, a die per Grim Reaper (1 hit, no save);
    // the two Shotguns left, 4 dice (1 hit, a failed save); the three Fakyeli's knives (1 hit)
    // and the last Grim Reaper's (1 hit), no save against either.
    let out = play(
        &mut st,
        "axis",
        "activate fakyeli\nmove E5\nattack sulphur at reapers, shotguns at reapers, knives at reapers",
        &[
            1, 2, 1, 1, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1, 6, 6, 1, 6, 6, 6, 6, 1, 6, 6, 1,
        ],
    );
    let t = texts(&out);
    let at = |what: &str| t.find(what).unwrap_or_else(|| panic!("{what}: {t}"));
    // 2: the reaction comes after the Move, before the Attack.
    assert!(at("fakyeli moves to E5") < at("two army symbols, it makes a Sustained Attack"));
    assert!(
        at("fakyeli loses model 4") < at("fakyeli fires Sulphur Thrower"),
        "{t}"
    );
    // 3: the ranged weapons first, their casualties removed.
    assert!(
        at("reapers loses model 2") < at("fakyeli fires Combat knives"),
        "{t}"
    );
    // 4: the last Grim Reaper fights back before the close-combat casualties are removed.
    assert!(
        at("reapers fires Combat knives") < at("reapers loses model 1"),
        "{t}"
    );
    assert!(u(&st, "reapers").destroyed, "{t}");
    assert_eq!(u(&st, "fakyeli").models.len(), 2, "{t}");
}

// 003 "Check Range": "A weapon can only attack a target that is within its Range." Example: "The
// Recon Grenadiers would like to target the Bot Hunters and the Pounder. The Recon Grenadiers have
// two Panzerfausts with a Range of 2. These can reach the squares marked in white, so can attack
// the Pounder, but not the Bot Hunters. They also have four StG 47 and an MG 48 with a Range of
// 4. These can reach the squares marked in green, so they can attack the Pounder and the Bot
// Hunters." The Grenadiers on E3, the Pounder two squares off (D5), the Bot Hunters four (F7).
#[test]
fn s003_check_range_recon_grenadiers_example_panzerfausts_reach_the_pounder_not_the_bot_hunters() {
    let mk = || {
        game(
            "battlefront-2013",
            &[
                ("pounder", "bf-pounder", "D5"),
                ("hunters", "bf-bot-hunters", "F7"),
            ],
            &[("grenadiers", "bf-recon-grenadiers", "E3")],
        )
    };
    let order = |w: &str, t: &str| format!("activate grenadiers\nattack {w} at {t}\nnothing");
    let r = refused_unchanged(&mut mk(), "axis", &order("panzerfaust", "hunters"));
    assert!(r.contains("003 \"Check Range\""), "{r}");
    // Two Panzerfausts at the Pounder: two dice, missed.
    play(&mut mk(), "axis", &order("panzerfaust", "pounder"), &[6, 6]);
    // Four StG 47s and the MG 48 (rated 1/1 and 4/1 against Infantry 2): eight dice, missed.
    play(
        &mut mk(),
        "axis",
        "activate grenadiers\nattack stg47 at hunters, mg48 at hunters\nnothing",
        &[6; 8],
    );
}

// 003 "Line of Sight Through Terrain": "Tree squares block Line of Sight to units on the far side,
// but units in the terrain can be seen as normal." Example: "The Ludwig cannot see the Grim Reapers
// as the trees stop them from drawing a line of sight from any part of its square to any part of
// the Grim Reapers' square. The Ludwig can see Bazooka Joe because he is in the trees rather than
// behind them." The Ludwig's MG 44 from E2; trees on E4; Joe in them, the Reapers behind on E6.
#[test]
fn s003_line_of_sight_through_terrain_ludwig_sees_joe_in_the_trees_not_the_reapers_behind() {
    let mut st = game(
        "battlefront-2013",
        &[
            ("joe", "bf-bazooka-joe", "E4"),
            ("reapers", "bf-grim-reapers", "E6"),
        ],
        &[("ludwig", "bf-ludwig", "E2")],
    );
    terrain(&mut st, "E4", Terrain::Trees);
    let r = refused_unchanged(
        &mut st,
        "axis",
        "activate ludwig\nattack mg44 at reapers\nnothing",
    );
    assert!(r.contains("the trees on E4"), "{r}");
    // At Joe: three dice (3/1 against Infantry 2), missed.
    play(
        &mut st,
        "axis",
        "activate ludwig\nattack mg44 at joe\nnothing",
        &[6; 3],
    );
}

// 003 "No More Than Three Actions": "Some special actions and skills ... allow units to take three
// actions instead of two. These effects are not cumulative, so a unit can never perform more than
// three actions during an activation." A hero with Infantry Ace (002, a third action on army or
// target) and a Move Stimulants token (002 "Inject Stimulants": a Move is a March Move, "three
// Actions in that Activation"): a March Move, a Nothing and an Attack (four actions) are refused
// and change nothing; the March Move and the Attack the token allows are made.
#[test]
fn s003_no_more_than_three_actions_infantry_ace_and_move_stimulants_do_not_add_up() {
    use super::battlefront_combat::{pistol_hero, skill_game};
    use dustmail::dust_tactics::battlefront::command::Stimulants;
    let mut st = skill_game(pistol_hero(&["infantry-ace"]));
    st.unit_mut("ours").unwrap().stimulants = Some(Stimulants::Move);
    let r = refused_unchanged(
        &mut st,
        "allies",
        "activate ours\nmove E6\nmove E7\nnothing\nattack pistol at theirs",
    );
    assert!(
        r.contains("4 actions are declared") && r.contains("003"),
        "{r}"
    );
    let out = send(
        &mut st,
        "allies",
        "activate ours\nmove E6\nmove E7\nattack pistol at theirs",
        &mut plenty(),
    );
    assert!(first_result(&out).is_ok(), "{:?}", first_result(&out));
    assert_eq!(u(&st, "ours").at, Some(sq("E7")), "{}", texts(&out));
    assert!(texts(&out).contains("ours fires"), "{}", texts(&out));
}
