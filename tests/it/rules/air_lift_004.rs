//! Issue 12, transport by air: 004's skills reference, "Carry Capacity: Vehicle" (R546):
//! "Aircraft (armor class 4+) can only carry vehicles that have the Air Lift skill." The cards
//! are the provisional ones of games/dust-tactics/cards-airlift/: the aircraft
//! allied-skylifter (Carry Capacity: Vehicle 3) and the vehicle allied-air-jeep (armour 2, Air
//! Lift). Orders go through the real parser and state machine.

use crate::support_flow::*;

use dustmail::dust_tactics::cards::parse_card_for_new;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

fn text(file: &str) -> String {
    let path = format!(
        "{}/games/dust-tactics/cards-airlift/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).expect("card file")
}

fn card_file(file: &str) -> Card {
    parse_card_for_new(file, &text(file)).unwrap_or_else(|e| panic!("{e}"))
}

/// A ground vehicle of armour `armour` without Air Lift, one machine gun (range 4).
fn vehicle(id: &str, armour: u8) -> Card {
    let mut c = card(
        id,
        UnitType::Vehicle,
        2,
        2,
        vec![weapon("mg", WeaponRange::Upto(4), 1, 1)],
    );
    c.armour = Armour::Vehicle(armour);
    c
}

fn aboard(mut spec: UnitSpec, vehicle: &str) -> UnitSpec {
    spec.aboard = Some(vehicle.into());
    spec
}

fn cards() -> Vec<Card> {
    vec![
        card_file("allied-skylifter.toml"),
        card_file("allied-air-jeep.toml"),
        vehicle("jeep", 2),
        // Armour 4 with Air Lift: more than the skylifter's listing of 3.
        with_skill(vehicle("heavy-air", 4), "air-lift", None),
        squad("sq"),
    ]
}

fn setup(allies: Vec<UnitSpec>) -> Result<State, String> {
    DustTactics
        .start(
            "ffg-revised",
            scenario(allies, vec![unit("x", "sq", Some("E1"))]),
            cards(),
        )
        .map_err(|e| e.0)
}

/// The game, no reactive fire, the allies activating first.
fn game(allies: Vec<UnitSpec>) -> State {
    let mut st = setup(allies).unwrap_or_else(|e| panic!("{e}"));
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

fn none() -> ScriptedDice {
    ScriptedDice::new([])
}

#[test]
fn air_lift_004_an_aircraft_carries_a_vehicle_that_has_the_air_lift_skill() {
    // 004 "Carry Capacity: Vehicle": "Aircraft (armor class 4+) can only carry vehicles that
    // have the Air Lift skill." (R546). The air jeep (Air Lift) next to the skylifter boards
    // it for 1 MP (004 "Carry Capacity": "To board, it must be adjacent to the vehicle and spend
    // 1 MP during a MOVE action") and leaves the board.
    let mut st = game(vec![
        unit("lifter", "allied-skylifter", Some("E5")),
        unit("airjeep", "allied-air-jeep", Some("D5")),
    ]);
    accepted(&send(
        &mut st,
        "allies",
        "activate airjeep\nmove board lifter\nnothing",
        &mut none(),
    ));
    assert_eq!(flow::carrying(&st, "lifter"), vec!["airjeep".to_string()]);
    assert_eq!(u(&st, "airjeep").at, None);
    assert_eq!(u(&st, "airjeep").aboard.as_deref(), Some("lifter"));
}

#[test]
fn air_lift_004_an_aircraft_refuses_a_vehicle_without_air_lift() {
    // 004 "Carry Capacity: Vehicle": "Aircraft (armor class 4+) can only carry vehicles that
    // have the Air Lift skill." (R546). A jeep without the skill is refused, citing the
    // sentence, and nothing changes; it may not begin the game inside either.
    let mut st = game(vec![
        unit("lifter", "allied-skylifter", Some("E5")),
        unit("jeep", "jeep", Some("D5")),
    ]);
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate jeep\nmove board lifter\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(
        e.contains("lifter is an aircraft: it can only carry vehicles that have the Air Lift skill, and jeep has not"),
        "{e}"
    );
    assert!(
        e.contains(
            "Aircraft (armor class 4+) can only carry vehicles that have the Air Lift skill"
        ),
        "{e}"
    );
    assert_eq!(u(&st, "jeep").aboard, None, "a refusal changes nothing");
    assert_eq!(u(&st, "jeep").at, Some(sq("D5")));
    assert!(flow::carrying(&st, "lifter").is_empty());
    let e = setup(vec![
        unit("lifter", "allied-skylifter", Some("E5")),
        aboard(unit("jeep", "jeep", None), "lifter"),
    ])
    .unwrap_err();
    assert!(e.contains("unit jeep cannot begin aboard lifter"), "{e}");
    assert!(e.contains("Air Lift"), "{e}");
}

#[test]
fn air_lift_004_the_aircraft_carries_only_up_to_its_listings_armour() {
    // 004 "Carry Capacity: Vehicle": "This skill is exactly like the Carry Capacity skill,
    // except that the vehicle with it can carry other vehicles of the noted armor value or
    // lower." (R476, R546): Air Lift lets an aircraft carry a vehicle, not a heavier one. The
    // skylifter's listing is 3: an armour 4 vehicle with Air Lift is refused.
    let mut st = game(vec![
        unit("lifter", "allied-skylifter", Some("E5")),
        unit("heavy", "heavy-air", Some("D5")),
    ]);
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate heavy\nmove board lifter\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("heavy (armour 4) does not fit in lifter"), "{e}");
    assert_eq!(u(&st, "heavy").aboard, None);
}

#[test]
fn air_lift_004_a_carried_vehicle_begins_aboard_and_exits_next_to_the_aircraft() {
    // 004 "Carry Capacity" (through "exactly like the Carry Capacity skill"): "Squads and heroes
    // can begin the game inside a vehicle"; "Exiting a vehicle requires a MOVE action and 1 MP
    // to exit. The unit is placed in any space adjacent to the vehicle, ... and can then
    // perform a second action" (R546, R476, R461). The air jeep begins inside the skylifter
    // over E5, may not exit onto E3 (not next to it), exits onto E4 and fires its .30 cal at `x`
    // on E1 (3 dice against soldiers, three 5s: misses).
    let mut st = game(vec![
        unit("lifter", "allied-skylifter", Some("E5")),
        aboard(unit("airjeep", "allied-air-jeep", None), "lifter"),
    ]);
    assert_eq!(flow::carrying(&st, "lifter"), vec!["airjeep".to_string()]);
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate airjeep\nmove exit E3\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("E3 is not next to lifter on E5"), "{e}");
    let mut d = ScriptedDice::new([5, 5, 5]);
    let out = send(
        &mut st,
        "allies",
        "activate airjeep\nmove exit E4\nattack 30cal at x",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "airjeep").aboard, None);
    assert_eq!(u(&st, "airjeep").at, Some(sq("E4")));
}

#[test]
fn air_lift_004_the_cards_load_for_new_with_their_provisional_values() {
    // R546: no seed prints a card with Air Lift or an aircraft with Carry Capacity: Vehicle;
    // the two provisional cards load for `new`, name the skills, and list what was chosen.
    let lifter = card_file("allied-skylifter.toml");
    assert!(matches!(lifter.armour, Armour::Aircraft(2)));
    assert!(lifter.has_skill("carry-capacity-vehicle"));
    assert!(lifter
        .provisional
        .iter()
        .any(|p| p.contains("armour class")));
    let jeep = card_file("allied-air-jeep.toml");
    assert!(jeep.has_skill("air-lift"));
    assert!(matches!(jeep.armour, Armour::Vehicle(2)));
    assert!(jeep.provisional.iter().any(|p| p.starts_with("name")));
}
