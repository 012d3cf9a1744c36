//! Issue 12 (ffg-revised, seed 004): a bunker's back door as a target, ruling R511. The scenario
//! is read by the real parser and the orders go through the real parser and state machine.

use crate::support_flow::*;
use dustmail::dust_tactics::model::{UnitType, WeaponRange, WeaponTrait};
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;

/// A 6×6 board with the bunker `pillbox` (A1–B1, its back door A1|A2), the axis squad `x` in it
/// on B1, and the allied squad `sappers` (demo charges: explosives, range 3) on A4; `cover` is
/// more TOML for `[board]`. Allies activate first, reactive fire off.
fn game(cover: &str) -> State {
    let text = format!(
        r#"title = "Back door"
rulesets = ["ffg-revised"]
rounds = 3
ap_limit = 100
[board]
rows = ["......", "......", "......", "......", "......", "......"]
{cover}
[[structures]]
id = "pillbox"
kind = "bunker"
squares = ["A1:B1"]
entrances = [{{ at = "A1", to = "A2", kind = "back_door", size = "large" }}]

[[sides]]
id = "allies"
entry = {{ rows = [6] }}
[[sides.units]]
id = "sappers"
card = "sappers"
at = "A4"
[[sides]]
id = "axis"
entry = {{ rows = [1] }}
[[sides.units]]
id = "x"
card = "sq"
at = "B1"
"#
    );
    let sc = scenario::parse("back-door", &text).unwrap_or_else(|e| panic!("{e}"));
    let mut demo = weapon("demo", WeaponRange::Upto(3), 2, 1);
    demo.traits.push(WeaponTrait::Explosives);
    let cards = vec![
        card("sappers", UnitType::Squad, 4, 2, vec![demo]),
        card(
            "sq",
            UnitType::Squad,
            4,
            2,
            vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
        ),
    ];
    let mut st = DustTactics.start("ffg-revised", sc, cards).expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

// issue 12, 004 "Explosives Weapons": "When an explosives weapon is used to attack an anti-tank
// trap or the back door of a bunker, the unit may reroll any (+) results once for that weapon."
// No seed gives a back door armour, health or an effect when broken (R511): an attack at either
// square of the back door is refused naming the door and the rule, and changes nothing; the
// engineer vehicle's order is what the refusal offers instead.
#[test]
fn explosives_004_a_bunkers_back_door_is_no_target() {
    for at in ["A1", "A2"] {
        let mut st = game("");
        let before = st.clone();
        let out = send(
            &mut st,
            "allies",
            &format!("activate sappers\nattack demo at {at}\nnothing"),
            &mut Cycle(1),
        );
        let e = first_result(&out).unwrap_err();
        assert!(
            e.contains("the back door of the bunker pillbox (A1|A2) is not a target"),
            "{e}"
        );
        assert!(
            e.contains("004 'Explosives Weapons'") && e.contains("R511"),
            "{e}"
        );
        assert_eq!(st, before, "a refused attack changes nothing");
    }
}

// R511: a cover element standing on the back door's outer square is still attacked as any (R37):
// the refusal is about the door alone.
#[test]
fn explosives_004_a_cover_element_by_the_back_door_is_still_a_target() {
    let mut st = game(r#"cover = [{ kind = "ammo_crate", at = "A2" }]"#);
    let out = send(
        &mut st,
        "allies",
        "activate sappers\nattack demo at A2\nnothing",
        &mut Cycle(5),
    );
    assert!(first_result(&out).is_ok(), "{:?}", first_result(&out));
    assert!(texts(&out).contains("ammo crate"), "{out:?}");
}
