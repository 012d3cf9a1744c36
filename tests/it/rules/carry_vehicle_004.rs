//! Issue 12, transport: 004's skills reference, "Carry Capacity: Vehicle" (R476): "This skill is
//! exactly like the Carry Capacity skill, except that the vehicle with it can carry other
//! vehicles of the noted armor value or lower. A vehicle with this skill listed several times can
//! carry 1 vehicle for each skill listed. Aircraft (armor class 4+) can only carry vehicles that
//! have the Air Lift skill." Orders go through the real parser and state machine; the carrier is
//! the provisional card games/dust-tactics/cards-transport/allied-heavy-carrier.toml (listings 3
//! and 2).

use crate::support_flow::*;

use dustmail::dust_tactics::cards::parse_card_for_new;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

fn carrier_card() -> Card {
    let file = "allied-heavy-carrier.toml";
    let path = format!(
        "{}/games/dust-tactics/cards-transport/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("card file");
    parse_card_for_new(file, &text).unwrap_or_else(|e| panic!("{e}"))
}

/// A vehicle of armour `armour`, health 2, Movement 2, one machine gun (range 4).
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
        carrier_card(),
        vehicle("heavy", 4),
        vehicle("jeep", 3),
        vehicle("light", 2),
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

/// The game, no reactive fire, `first` activating first.
fn game(allies: Vec<UnitSpec>, first: &str) -> State {
    let mut st = setup(allies).unwrap_or_else(|e| panic!("{e}"));
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, first);
    st
}

fn none() -> ScriptedDice {
    ScriptedDice::new([])
}

#[test]
fn carry_capacity_vehicle_004_a_vehicle_boards_a_carrier_of_its_armour_or_more() {
    // 004 "Carry Capacity: Vehicle": "the vehicle with it can carry other vehicles of the noted
    // armor value or lower" (R476). The carrier's listings are 3 and 2: the armour 4 `heavy` is
    // refused and nothing changes; the armour 3 `jeep` next to it boards for 1 MP (004 "Carry
    // Capacity": "To board, it must be adjacent to the vehicle and spend 1 MP during a MOVE
    // action").
    let mut st = game(
        vec![
            unit("carrier", "allied-heavy-carrier", Some("E5")),
            unit("heavy", "heavy", Some("E6")),
            unit("jeep", "jeep", Some("D5")),
        ],
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate heavy\nmove board carrier\nnothing",
        &mut none(),
    );
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("heavy (armour 4) does not fit in carrier"),
        "{e}"
    );
    assert!(e.contains("armour 2, 3 or lower"), "{e}");
    assert!(e.contains("Carry Capacity: Vehicle"), "{e}");
    assert_eq!(u(&st, "heavy").aboard, None, "a refusal changes nothing");
    accepted(&send(
        &mut st,
        "allies",
        "activate jeep\nmove board carrier\nnothing",
        &mut none(),
    ));
    assert_eq!(flow::carrying(&st, "carrier"), vec!["jeep".to_string()]);
    assert_eq!(u(&st, "jeep").at, None);
}

#[test]
fn carry_capacity_vehicle_004_listed_several_times_it_carries_one_vehicle_for_each() {
    // 004 "Carry Capacity: Vehicle": "A vehicle with this skill listed several times can carry 1
    // vehicle for each skill listed." (R476). Listings 3 and 2: the jeep (3) and a light (2)
    // begin inside; a second light finds no listing left. Two armour 3 vehicles do not begin
    // inside (the 2 listing holds neither), and a soldier squad is no vehicle: it takes no
    // listing.
    let mut st = game(
        vec![
            unit("carrier", "allied-heavy-carrier", Some("E5")),
            aboard(unit("jeep", "jeep", None), "carrier"),
            aboard(unit("light", "light", None), "carrier"),
            unit("light2", "light", Some("E6")),
        ],
        "allies",
    );
    assert_eq!(
        flow::carrying(&st, "carrier"),
        vec!["jeep".to_string(), "light".to_string()]
    );
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate light2\nmove board carrier\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(
        e.contains("light2 (armour 2) does not fit in carrier"),
        "{e}"
    );
    let e = setup(vec![
        unit("carrier", "allied-heavy-carrier", Some("E5")),
        aboard(unit("jeep", "jeep", None), "carrier"),
        aboard(unit("jeep2", "jeep", None), "carrier"),
    ])
    .unwrap_err();
    assert!(
        e.contains("jeep2 (armour 3) does not fit in carrier"),
        "{e}"
    );
}

#[test]
fn carry_capacity_vehicle_004_a_carried_vehicle_exits_then_takes_a_second_action() {
    // "exactly like the Carry Capacity skill"; 004 "Carry Capacity": "Exiting a vehicle
    // requires a MOVE action and 1 MP to exit. The unit is placed in any space adjacent to the
    // vehicle, may spend any additional movement points normally, and can then perform a second
    // action for the round" (R476, R461). The jeep inside the carrier on E5 exits onto E4 and
    // fires at `x` on E1 (one die, a 5: a miss).
    let mut st = game(
        vec![
            unit("carrier", "allied-heavy-carrier", Some("E5")),
            aboard(unit("jeep", "jeep", None), "carrier"),
        ],
        "allies",
    );
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate jeep\nattack mg at x\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("jeep is inside carrier"), "{e}");
    let mut d = ScriptedDice::new([5]);
    let out = send(
        &mut st,
        "allies",
        "activate jeep\nmove exit E4\nattack mg at x",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "jeep").aboard, None);
    assert_eq!(u(&st, "jeep").at, Some(sq("E4")));
}

#[test]
fn carry_capacity_vehicle_004_a_destroyed_carrier_costs_a_carried_vehicle_1_health_on_a_4_plus() {
    // "exactly like the Carry Capacity skill"; 004 "Carry Capacity": "If the vehicle is
    // destroyed, the player who controls the vehicle rolls one die at a time for each miniature
    // inside. A soldier is eliminated on a 4+ result and a hero loses 1 [health] on a 4+
    // result." (R476: a carried vehicle is one miniature and loses 1 health, as a hero). The
    // carrier, down to 1 health, takes a hit from `x` (1 5 5 5); the jeep inside rolls a 4.
    let mut st = game(
        vec![
            unit("carrier", "allied-heavy-carrier", Some("E5")),
            aboard(unit("jeep", "jeep", None), "carrier"),
        ],
        "axis",
    );
    st.unit_mut("carrier").unwrap().health = 1;
    let mut d = ScriptedDice::new([1, 5, 5, 5, 4]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at carrier\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert!(u(&st, "carrier").destroyed, "{t}");
    assert!(t.contains("carrier is destroyed with jeep inside"), "{t}");
    assert_eq!(u(&st, "jeep").health, 1, "{t}");
    assert_eq!(u(&st, "jeep").aboard, None, "{t}");
    assert!(u(&st, "jeep").at.is_some(), "{t}");
}

#[test]
fn carry_capacity_vehicle_004_an_aircraft_carries_no_vehicle_without_air_lift() {
    // 004 "Carry Capacity: Vehicle": "Aircraft (armor class 4+) can only carry vehicles that
    // have the Air Lift skill." (R476). Air Lift is in no card of the engine, so an aircraft
    // with the skill carries no vehicle: a jeep beginning inside one is refused.
    let mut plane = carrier_card();
    plane.armour = Armour::Aircraft(4);
    plane.id = "plane".into();
    let mut cs = cards();
    cs.push(plane);
    let e = DustTactics
        .start(
            "ffg-revised",
            scenario(
                vec![
                    unit("plane", "plane", Some("E5")),
                    aboard(unit("jeep", "jeep", None), "plane"),
                ],
                vec![unit("x", "sq", Some("E1"))],
            ),
            cs,
        )
        .map_err(|e| e.0)
        .unwrap_err();
    assert!(e.contains("plane is an aircraft"), "{e}");
    assert!(e.contains("Air Lift"), "{e}");
}

#[test]
fn carry_capacity_vehicle_004_the_card_lists_the_skill_with_its_armour_value() {
    // R476: each listing carries its armour value as `value`; listed twice is accepted for this
    // skill only, and a listing without a value is refused with the file and field.
    let c = carrier_card();
    let values: Vec<Option<u8>> = c
        .skills
        .iter()
        .filter(|s| s.name == "carry-capacity-vehicle")
        .map(|s| s.value)
        .collect();
    assert_eq!(values, vec![Some(3), Some(2)]);
    let path = format!(
        "{}/games/dust-tactics/cards-transport/allied-heavy-carrier.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("card file").replace(
        r#"{ name = "carry-capacity-vehicle", value = 2 }"#,
        r#"{ name = "carry-capacity-vehicle" }"#,
    );
    let e = parse_card_for_new("allied-heavy-carrier.toml", &text).unwrap_err();
    assert_eq!(e.file, "allied-heavy-carrier.toml");
    assert_eq!(e.field, "skills[1].value", "{e}");
    assert!(
        e.reason
            .contains("Carry Capacity: Vehicle without the armour value"),
        "{e}"
    );
}
