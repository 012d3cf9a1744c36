//! Issue 18: 002 "Tesla Weapons" and "Volley Weapons" under battlefront-2013 (seed 002, lines
//! ~580–620; rulings R750–R753). Each test quotes 002 and plays the weapon through the engine
//! with scripted dice (faces 1–2 army, 3–4 target, 5–6 shield), every scripted die used.

use super::battlefront_skills::{accepted_all, play};
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::suppression::Token;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};

/// A Tesla line of range 6, `x` dice a carrier, 1 damage.
fn tesla(x: u8) -> WeaponLine {
    WeaponLine {
        traits: vec![WeaponTrait::Tesla],
        ..weapon("tesla", WeaponRange::Upto(6), x, 1)
    }
}

/// A battlefront-2013 game: the allied `shooter` (card `ours`) on E7 against the axis squad
/// `dm` (four soldiers, card `sq`) on E4; a spare a side far off so the round goes on; nobody
/// reacts, allies activate first.
fn game(ours: Card) -> State {
    let s = scenario(
        vec![
            unit("shooter", &ours.id, Some("E7")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("dm", "sq", Some("E4")),
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

/// The Motherland Twin Tesla Guns: a vehicle whose twin heavy Tesla gun rolls 3 dice.
fn motherland() -> Card {
    card("motherland", UnitType::Vehicle, 4, 1, vec![tesla(3)])
}

/// The shooter's activation: `attack tesla at dm`, then Nothing; the report.
fn zap(st: &mut State, faces: &[u8]) -> String {
    let out = play(
        st,
        "allies",
        "activate shooter\n  attack tesla at dm\n  nothing",
        faces,
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    t
}

// issue 18, 002 "Tesla Weapons" example: "The Motherland Twin Tesla Gun attacks the Death Masks
// scoring three hits with its twin Heavy Tesla gun. As well as removing two soldiers, the Death
// Masks also receive a Stunned token. ... As the Death Masks already had an Under Fire token,
// they replace that with a Suppression token for being hit again. When the Death Masks activate,
// they roll to recover from being Suppressed. They fail the roll, remaining Suppressed, so must
// take a Nothing Action as their first action. Having a Stunned token from the Tesla attack also
// requires them to take a Nothing Action as their first Action to remove the Stunned token. They
// then move out of sight as their second action, remaining Suppressed." (R750.) Three dice, three
// armies: three hits, and no chain (004's "reroll all hits" is not 002's); Infantry Saves army,
// shield, shield: two soldiers lost. The Death Masks' removal roll: shield, shield.
#[test]
fn s002_tesla_weapons_motherland_example_two_lost_stunned_suppressed_nothing_first() {
    let mut st = game(motherland());
    st.unit_mut("dm").expect("dm").suppression = Some(Token::UnderFire);
    let t = zap(&mut st, &[1, 1, 1, 1, 5, 5]);
    assert!(t.contains("3 hits"), "{t}");
    assert!(
        t.contains("dm is hit by the Tesla weapon tesla and receives a Stunned token"),
        "{t}"
    );
    assert!(
        t.contains("dm is hit again: its Under Fire token is replaced by a Suppressed token"),
        "{t}"
    );
    let dm = u(&st, "dm");
    assert_eq!(
        (dm.models.len(), dm.stunned, dm.suppression),
        (2, true, Some(Token::Suppressed)),
        "{t}"
    );
    // Stunned: a first action other than Nothing is refused, and changes nothing.
    let out = play(&mut st, "axis", "activate dm\n  move E3\n  nothing", &[]);
    assert!(!accepted_all(&out), "{}", texts(&out));
    assert_eq!(u(&st, "dm").at, Some(sq("E4")));
    let out = play(
        &mut st,
        "axis",
        "activate dm\n  nothing\n  move E3",
        &[5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("no army symbol, it remains Suppressed"), "{t}");
    assert!(
        t.contains("dm takes a Nothing action and removes its Stunned token"),
        "{t}"
    );
    let dm = u(&st, "dm");
    assert_eq!(
        (dm.at, dm.stunned, dm.suppression),
        (Some(sq("E3")), false, Some(Token::Suppressed)),
        "{t}"
    );
}

// issue 18, 002 "Tesla Weapons": "When a Unit is Hit by a Tesla weapon, place a Stunned token
// with the Unit or on the Unit Card." (R750: a hit scored stuns, saved or not; a line that
// scores none does not.) One hit, saved by the Infantry Save's army: no soldier lost, no Under
// Fire (R703 counts damage), but Stunned. Three misses: no token.
#[test]
fn s002_tesla_weapons_a_saved_hit_stuns_a_miss_does_not() {
    let mut st = game(motherland());
    let t = zap(&mut st, &[1, 5, 5, 2]);
    let dm = u(&st, "dm");
    assert_eq!(
        (dm.models.len(), dm.stunned, dm.suppression),
        (4, true, None),
        "{t}"
    );
    let mut st = game(motherland());
    let t = zap(&mut st, &[5, 6, 3]);
    assert!(!t.contains("Stunned"), "{t}");
    assert!(!u(&st, "dm").stunned, "{t}");
}

// issue 18, 002 "Tesla Weapons" is the whole of 002's rule: 004's "Inflict damage for each [hit]
// result and reroll all [hit] results", "Tesla weapons ignore cover" and "inflict damage on all
// units in spaces between" are not played under battlefront-2013 (R750). On rubble the squad
// rolls the Infantry Cover Save against the Tesla gun (its shields cancel), the gun's two hits
// roll no chain die.
#[test]
fn s002_tesla_weapons_no_004_chain_cover_kept_no_units_between() {
    let mut st = game(card("motherland", UnitType::Vehicle, 4, 1, vec![tesla(2)]));
    st.scenario.board.set_terrain(sq("E4"), Terrain::Rubble);
    let t = zap(&mut st, &[1, 1, 5, 6]);
    assert!(
        t.contains("2 hits, 2 cancelled by infantry cover save"),
        "{t}"
    );
    assert!(!t.contains("chain"), "{t}");
    let dm = u(&st, "dm");
    assert_eq!((dm.models.len(), dm.stunned), (4, true), "{t}");
}
