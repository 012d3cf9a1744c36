//! Issue 12, untested interactions: minefields on a transport's boarding and exit paths (004
//! "Minefields" with "Carry Capacity", ruling R629). Orders go through the real parser and state
//! machine; each test quotes the sentences it checks.

use super::piloting_004::{hero_card, walker_card};
use crate::support_flow::*;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::game::ScriptedDice;

/// The allied carrier `walk` (Carry Capacity 6) on E8 with the 4-model squad `mate` inside, hero
/// `ace` on C8, a minefield token on each of `mines`; axis squads far away; allies first.
fn minefield_transport(mines: &[&str], revision: u32) -> State {
    let mut mate = unit("mate", "sq", None);
    mate.aboard = Some("walk".into());
    let mut s = scenario(
        vec![
            unit("walk", "walker", Some("E8")),
            mate,
            unit("ace", "ace", Some("C8")),
        ],
        vec![
            unit("foe", "sq", Some("E1")),
            unit("spare", "sq", Some("I1")),
        ],
    );
    for m in mines {
        s.board.mines.insert(sq(m), 1);
    }
    let carrier = "[[skills]]\nname = \"carry-capacity\"\nvalue = 6\n";
    let mut st = start_defaults(
        s,
        vec![hero_card("ace", ""), walker_card(carrier), squad("sq")],
    );
    st.rules_revision = revision;
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

fn rolls_for(out: &dustmail::game::Outcome, purpose: &str) -> Vec<u8> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter())
        .filter(|r| r.purpose == purpose)
        .flat_map(|r| r.faces.clone())
        .collect()
}

// 004 "Minefields": "When a soldier or vehicle unit moves into such a space, for each token, roll
// 1 die separately for each miniature in the unit. If a [hit] is rolled, the miniature suffers 1
// point of damage." 004 "Carry Capacity": "The unit is placed in any space adjacent to the
// vehicle, may spend any additional movement points normally". The squad exits onto the mined
// E7: one die per miniature, one hit, one model lost. Under rules revision 6 no die was rolled.
#[test]
fn minefields_004_a_squad_exiting_a_transport_onto_a_minefield_rolls() {
    let mut st = minefield_transport(&["E7"], 7);
    let mut d = ScriptedDice::new([1, 6, 6, 6]);
    let out = send(
        &mut st,
        "allies",
        "activate mate\n  move exit E7\n  nothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    assert_eq!(rolls_for(&out, "minefield on E7: mate"), vec![1, 6, 6, 6]);
    assert_eq!(u(&st, "mate").models.len(), 3);
    assert_eq!(u(&st, "mate").at, Some(sq("E7")));
    let mut st = minefield_transport(&["E7"], 6);
    let mut d = ScriptedDice::new([]);
    let out = send(
        &mut st,
        "allies",
        "activate mate\n  move exit E7\n  nothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(
        u(&st, "mate").models.len(),
        4,
        "revision 6: no minefield die"
    );
}

// 004 "Minefields" (as above) and 004 "Carry Capacity": "If the squad has more than 1 MP
// available to it during the MOVE action, it may first move so that it is adjacent to the
// vehicle, then spend 1 MP to board." Hero ace crosses the mined D8 on his way to board: he
// rolls, loses 1 health, and boards.
#[test]
fn minefields_004_a_hero_moving_through_a_minefield_to_board_rolls_then_boards() {
    let mut st = minefield_transport(&["D8"], 7);
    let mut d = ScriptedDice::new([1]);
    let out = send(
        &mut st,
        "allies",
        "activate ace\n  move D8 board walk\n  nothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(rolls_for(&out, "minefield on D8: ace"), vec![1]);
    let ace = u(&st, "ace");
    assert_eq!((ace.health, ace.aboard.as_deref()), (2, Some("walk")));
}

// 004 "Dim Light, Low Ceilings": "Units can fight normally when they are in adjacent spaces, or
// when there is a single space between them"; 004 "STRUCTURES", Cover: a unit inside a structure
// is in hard cover against a unit outside (R501). Underground (tunnels), a squad inside the house
// on its door square, shot from E7 with one space between (no dim-light cover), keeps the
// structure's hard cover: its save succeeds on a miss. Dim light adds nothing and takes nothing.
#[test]
fn underground_004_a_structure_underground_keeps_its_hard_cover() {
    use super::underground_004::{saves, shooter, target_card, FIRE};
    use dustmail::dust_tactics::scenario;
    use dustmail::dust_tactics::underground::Underground;
    use dustmail::dust_tactics::DustTactics;
    let units = super::structures_004::unit_toml("a", "one", "E7");
    let foes = super::structures_004::unit_toml("x", "tgt", "E5");
    let text = super::structures_004::board_toml(&units, &foes, "");
    for kind in [Some(Underground::Tunnels), None] {
        let mut sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
        sc.underground = kind;
        let mut st = DustTactics
            .start("ffg-revised", sc, vec![target_card(), shooter()])
            .expect("setup");
        for side in st.sides() {
            flow::standing_react(&mut st, &side, None, Policy::Never).expect("react never");
        }
        begin(&mut st, "allies");
        let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1, 6]));
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert_eq!(saves(&out), vec![6], "{kind:?}");
        assert_eq!(
            u(&st, "x").models.len(),
            4,
            "{kind:?}: hard cover saves on a miss"
        );
    }
}
