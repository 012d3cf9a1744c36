//! Issue 12, transport: 004's skills reference, "Carry Capacity" and "Command Vehicle". Orders
//! go through the real parser and state machine; each test quotes the sentence it checks.
//! Rulings R461–R466.

use crate::support_flow::*;

use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, ScriptedDice};

/// A vehicle card with Carry Capacity `cap` (armour vehicle 3, health `health`, Movement 2).
fn apc(id: &str, cap: u8, health: u8) -> Card {
    let mut c = with_skill(
        card(
            id,
            UnitType::Vehicle,
            health,
            2,
            vec![weapon("mg", WeaponRange::Upto(4), 1, 1)],
        ),
        "carry-capacity",
        None,
    );
    c.skills.last_mut().unwrap().value = Some(cap);
    c
}

/// A four-model squad of soldier armour `armour` and Movement `mp`.
fn troops(id: &str, armour: u8, mp: u8) -> Card {
    let mut c = squad(id);
    c.armour = Armour::Soldier(armour);
    c.movement = mp;
    c
}

fn aboard(mut spec: UnitSpec, vehicle: &str) -> UnitSpec {
    spec.aboard = Some(vehicle.into());
    spec
}

/// Both sides on the board, no reactive fire; `first` activates first.
fn game(allies: Vec<UnitSpec>, axis: Vec<UnitSpec>, cards: Vec<Card>, first: &str) -> State {
    let mut st = start_defaults(scenario(allies, axis), cards);
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, first);
    st
}

/// The usual table: allied `apc` (capacity 6) on E5, squad `r` (armour 2, Movement 1) on E6,
/// squad `far` (armour 2, Movement 2) on E8; axis squad `x` on A1.
fn table() -> State {
    game(
        vec![
            unit("apc", "apc", Some("E5")),
            unit("r", "r", Some("E6")),
            unit("far", "far", Some("E8")),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![
            apc("apc", 6, 3),
            troops("r", 2, 1),
            troops("far", 2, 2),
            squad("sq"),
        ],
        "allies",
    )
}

fn none() -> ScriptedDice {
    ScriptedDice::new([])
}

/// Axis's unit `x` does nothing, so that allies activate again.
fn axis_waits(st: &mut State) {
    accepted(&send(
        st,
        "axis",
        "activate x\nnothing\nnothing",
        &mut none(),
    ));
}

// ---------------------------------------------------------------------------------------------
// Boarding
// ---------------------------------------------------------------------------------------------

#[test]
fn carry_capacity_004_an_adjacent_squad_boards_for_1_mp_in_a_move_action() {
    // 004 "Carry Capacity": "To board, it must be adjacent to the vehicle and spend 1 MP during
    // a MOVE action." `r` (Movement 1) stands on E6, next to the apc on E5 (R461).
    let mut st = table();
    let out = send(
        &mut st,
        "allies",
        "activate r\nmove board apc\nnothing",
        &mut none(),
    );
    assert_eq!(
        first_result(&out),
        Ok("activate r: board apc, nothing".into())
    );
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("apc"));
    assert_eq!(u(&st, "r").at, None, "inside, it has no square of its own");
    assert_eq!(flow::carrying(&st, "apc"), vec!["r".to_string()]);
    // The board text names who is carried (the vehicle's line) and where (the squad's).
    let board = DustTactics.board_text(&st);
    assert!(board.contains("aboard apc"), "{board}");
    assert!(board.contains("carrying r"), "{board}");
}

#[test]
fn carry_capacity_004_a_squad_with_more_than_1_mp_moves_next_to_the_vehicle_then_boards() {
    // 004 "Carry Capacity": "If the squad has more than 1 MP available to it during the MOVE
    // action, it may first move so that it is adjacent to the vehicle, then spend 1 MP to
    // board." `far` (Movement 2) on E8: D6 is next to E5 but 2 MP away, and 1 more boards.
    let mut st = table();
    let out = send(
        &mut st,
        "allies",
        "activate far\nmove D6 board apc\nnothing",
        &mut none(),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("movement points"), "{e}");
    assert_eq!(
        u(&st, "far").at,
        Some(sq("E8")),
        "a refusal changes nothing"
    );
    // From D7 (1 MP away), D6 is next to E5: 1 MP to get there and 1 to board.
    let mut st = game(
        vec![
            unit("apc", "apc", Some("E5")),
            unit("far", "far", Some("D7")),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![apc("apc", 6, 3), troops("far", 2, 2), squad("sq")],
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate far\nmove D6 board apc\nnothing",
        &mut none(),
    );
    assert_eq!(
        first_result(&out),
        Ok("activate far: move to D6 and board apc, nothing".into())
    );
    assert_eq!(u(&st, "far").aboard.as_deref(), Some("apc"));
}

#[test]
fn carry_capacity_004_a_squad_with_only_1_mp_must_already_stand_next_to_the_vehicle() {
    // 004 "Carry Capacity": the move before boarding needs "more than 1 MP" (R461). `r` has
    // Movement 1: it cannot step to D6 and board.
    let mut st = game(
        vec![unit("apc", "apc", Some("E5")), unit("r", "r", Some("D7"))],
        vec![unit("x", "sq", Some("A1"))],
        vec![apc("apc", 6, 3), troops("r", 2, 1), squad("sq")],
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate r\nmove D6 board apc\nnothing",
        &mut none(),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("only movement point"), "{e}");
    assert!(e.contains("004 'Carry Capacity'"), "{e}");
}

#[test]
fn carry_capacity_004_armour_3_and_4_soldiers_count_as_2() {
    // 004 "Carry Capacity": "Its carrying capacity is the maximum number of 1 and 2 armor class
    // soldiers it can carry (soldiers with 3 and 4 armor class count as 2 soldiers)" (R463).
    // Capacity 6: four armour 3 soldiers need 8 places; four armour 2 soldiers fit.
    let mut st = game(
        vec![
            unit("apc", "apc", Some("E5")),
            unit("heavy", "heavy", Some("E6")),
            unit("r", "r", Some("D6")),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![
            apc("apc", 6, 3),
            troops("heavy", 3, 1),
            troops("r", 2, 1),
            squad("sq"),
        ],
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate heavy\nmove board apc\nnothing",
        &mut none(),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("needs 8 place(s)"), "{e}");
    assert_eq!(u(&st, "heavy").aboard, None);
    let out = send(
        &mut st,
        "allies",
        "activate r\nmove board apc\nnothing",
        &mut none(),
    );
    accepted(&out);
}

#[test]
fn carry_capacity_004_multiple_units_board_while_the_capacity_is_not_exceeded() {
    // 004 "Carry Capacity": "Multiple units can board the same vehicle as long as its carry
    // capacity is not exceeded." Capacity 6: `r` (4 places) is inside; `s` (4 more) is refused
    // with the count; a lone hero (1 place) still fits.
    let mut hero = card("h", UnitType::Hero, 3, 1, vec![]);
    hero.armour = Armour::Soldier(2);
    let mut st = game(
        vec![
            unit("apc", "apc", Some("E5")),
            aboard(unit("r", "r", None), "apc"),
            unit("s", "s", Some("E6")),
            unit("h", "h", Some("D6")),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![
            apc("apc", 6, 3),
            troops("r", 2, 1),
            troops("s", 2, 1),
            hero,
            squad("sq"),
        ],
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate s\nmove board apc\nnothing",
        &mut none(),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("which carries 4 of its 6"), "{e}");
    accepted(&send(
        &mut st,
        "allies",
        "activate h\nmove board apc\nnothing",
        &mut none(),
    ));
    assert_eq!(
        flow::carrying(&st, "apc"),
        vec!["r".to_string(), "h".to_string()]
    );
}

#[test]
fn carry_capacity_004_a_vehicle_can_only_carry_soldiers_and_heroes() {
    // 004 "Carry Capacity": "A vehicle can only carry soldiers and heroes."
    let mut st = game(
        vec![unit("apc", "apc", Some("E5")), unit("t", "t", Some("E6"))],
        vec![unit("x", "sq", Some("A1"))],
        vec![apc("apc", 6, 3), apc("t", 6, 3), squad("sq")],
        "allies",
    );
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate t\nmove board apc\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("can only carry soldiers and heroes"), "{e}");
}

#[test]
fn carry_capacity_004_nothing_but_nothing_follows_a_boarding() {
    // 004 "Carry Capacity": "While a unit is inside a vehicle, it cannot use any skills or
    // perform any actions" (R461: boarding ends what the unit does in its activation).
    let mut st = table();
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate r\nmove board apc\nattack gun at x",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("cannot act again"), "{e}");
    assert_eq!(u(&st, "r").aboard, None);
}

// ---------------------------------------------------------------------------------------------
// Inside the vehicle
// ---------------------------------------------------------------------------------------------

/// `apc` on E5 carrying `r` from the start; axis `x` (range 4 gun) on E2.
fn loaded(first: &str) -> State {
    game(
        vec![
            unit("apc", "apc", Some("E5")),
            aboard(unit("r", "r", None), "apc"),
        ],
        vec![unit("x", "sq", Some("E2"))],
        vec![apc("apc", 6, 1), troops("r", 2, 2), squad("sq")],
        first,
    )
}

#[test]
fn carry_capacity_004_squads_can_begin_the_game_inside_a_vehicle() {
    // 004 "Carry Capacity": "Squads and heroes can begin the game inside a vehicle" (R465).
    let st = loaded("allies");
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("apc"));
    assert_eq!(u(&st, "r").at, None);
    // More than the capacity at the start is refused when the game is made.
    let err = DustTactics
        .start(
            "ffg-revised",
            scenario(
                vec![
                    unit("apc", "apc", Some("E5")),
                    aboard(unit("r", "r", None), "apc"),
                ],
                vec![unit("x", "sq", Some("A1"))],
            ),
            vec![apc("apc", 3, 3), troops("r", 2, 1), squad("sq")],
        )
        .unwrap_err();
    assert!(
        err.0.contains("more than its Carry Capacity of 3"),
        "{}",
        err.0
    );
}

#[test]
fn carry_capacity_004_a_unit_inside_cannot_act_except_to_exit() {
    // 004 "Carry Capacity": "While a unit is inside a vehicle, it cannot use any skills or
    // perform any actions unless it possesses a special skill that says otherwise. The unit
    // cannot be activated except to exit the vehicle" (R462: `nothing` twice leaves it inside).
    let mut st = loaded("allies");
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate r\nattack gun at x\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(
        e.contains("inside apc: it cannot act except to exit"),
        "{e}"
    );
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate r\nmove E7\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("inside apc"), "{e}");
    accepted(&send(
        &mut st,
        "allies",
        "activate r\nnothing\nnothing",
        &mut none(),
    ));
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("apc"));
}

#[test]
fn carry_capacity_004_a_unit_inside_cannot_be_attacked_and_rides_with_the_vehicle() {
    // 004 "Carry Capacity": "When the vehicle is activated, the units inside are not" — the
    // vehicle moves with them inside; "place a miniature from the unit in the same space as the
    // vehicles" (R462: inside, the unit is no target of its own).
    let mut st = loaded("axis");
    let e = first_result(&send(
        &mut st,
        "axis",
        "activate x\nattack gun at r\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("r is not on the board: it is inside apc"), "{e}");
    axis_waits_or_acts(&mut st);
    accepted(&send(
        &mut st,
        "allies",
        "activate apc\nmove E7\nnothing",
        &mut none(),
    ));
    assert_eq!(u(&st, "apc").at, Some(sq("E7")));
    assert!(
        !u(&st, "r").activated,
        "the unit inside was not activated with the vehicle"
    );
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("apc"));
}

/// Axis's `x` stays put (its activation in [`loaded`] games where axis went first).
fn axis_waits_or_acts(st: &mut State) {
    accepted(&send(
        st,
        "axis",
        "activate x\nnothing\nnothing",
        &mut none(),
    ));
}

// ---------------------------------------------------------------------------------------------
// Exiting
// ---------------------------------------------------------------------------------------------

#[test]
fn carry_capacity_004_exiting_places_the_unit_next_to_the_vehicle_then_a_second_action() {
    // 004 "Carry Capacity": "Exiting a vehicle requires a MOVE action and 1 MP to exit. The unit
    // is placed in any space adjacent to the vehicle, may spend any additional movement points
    // normally, and can then perform a second action for the round (as long as it costs only 1
    // action)." `r` (Movement 2) exits onto E4, walks 1 more to D4, then attacks `x` on E2.
    let mut st = loaded("allies");
    let mut d = ScriptedDice::new([3; 4]);
    let out = send(
        &mut st,
        "allies",
        "activate r\nmove exit E4 D4\nattack gun at x",
        &mut d,
    );
    assert_eq!(
        first_result(&out),
        Ok("activate r: exit apc onto E4 and move to D4, attack gun at x".into())
    );
    assert_eq!(u(&st, "r").at, Some(sq("D4")));
    assert_eq!(u(&st, "r").aboard, None);
    assert!(flow::carrying(&st, "apc").is_empty());
}

#[test]
fn carry_capacity_004_the_exit_square_must_be_adjacent_and_the_rest_within_movement() {
    // 004 "Carry Capacity": "The unit is placed in any space adjacent to the vehicle, may spend
    // any additional movement points normally": E3 is not next to E5; E4 then C4 is 2 MP more
    // where Movement 2 leaves 1 after the exit.
    let mut st = loaded("allies");
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate r\nmove exit E3\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("E3 is not next to apc on E5"), "{e}");
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate r\nmove exit E4 C4\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("movement points"), "{e}");
    // And a sustained attack is no second action that "costs only 1 action".
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate r\nmove exit E4\nsustained gun at x",
        &mut none(),
    ))
    .unwrap_err();
    assert!(!e.is_empty());
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("apc"));
}

#[test]
fn carry_capacity_004_no_unit_exits_and_boards_in_one_activation() {
    // 004 "Tank Riders": "A unit cannot both board and disembark from this vehicle during a
    // single activation"; R462 holds Carry Capacity to it.
    let mut st = loaded("allies");
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate r\nmove exit E4\nmove board apc",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("cannot both exit and board"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// The vehicle destroyed
// ---------------------------------------------------------------------------------------------

#[test]
fn carry_capacity_004_a_destroyed_vehicle_rolls_one_die_per_miniature_inside() {
    // 004 "Carry Capacity": "If the vehicle is destroyed, the player who controls the vehicle
    // rolls one die at a time for each miniature inside. A soldier is eliminated on a 4+
    // result" (R464). Axis's four gun dice hit the apc (health 1) once; the four soldiers of `r`
    // roll 4, 2, 6, 3: models 1 and 3 are eliminated, 2 and 4 climb out onto E5.
    let mut st = loaded("axis");
    let mut d = ScriptedDice::new([1, 5, 5, 5, 4, 2, 6, 3]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at apc\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(u(&st, "apc").destroyed);
    let r = u(&st, "r");
    assert_eq!(
        r.models,
        vec!["2".to_string(), "4".to_string()],
        "{}",
        texts(&out)
    );
    assert_eq!(
        r.at,
        Some(sq("E5")),
        "the survivors stand where the vehicle was"
    );
    assert_eq!(r.aboard, None);
    assert!(texts(&out).contains("4 roll(s) 4 2 6 3"), "{}", texts(&out));
    assert!(flow::illegal_positions(&st).is_empty());
}

#[test]
fn carry_capacity_004_a_hero_inside_a_destroyed_vehicle_loses_1_health_on_a_4_plus() {
    // 004 "Carry Capacity": "a hero loses 1 [health] on a 4+ result" (R464, after 004 "Tank
    // Riders": "A hit hero loses 1 HP"). The hero (health 3) rolls a 5.
    let mut hero = card("h", UnitType::Hero, 3, 1, vec![]);
    hero.armour = Armour::Soldier(2);
    let mut st = game(
        vec![
            unit("apc", "apc", Some("E5")),
            aboard(unit("h", "h", None), "apc"),
        ],
        vec![unit("x", "sq", Some("E2"))],
        vec![apc("apc", 6, 1), hero, squad("sq")],
        "axis",
    );
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5]);
    accepted(&send(
        &mut st,
        "axis",
        "activate x\nattack gun at apc\nnothing",
        &mut d,
    ));
    assert_eq!(u(&st, "h").health, 2);
    assert_eq!(u(&st, "h").at, Some(sq("E5")));
}

#[test]
fn carry_capacity_004_soldiers_eliminated_in_the_wreck_count_for_the_attacker() {
    // 004 "Carry Capacity": all four roll 4+; the squad is eliminated with its vehicle, and the
    // destruction is the attacker's (R464).
    let mut st = loaded("axis");
    let mut d = ScriptedDice::new([1, 5, 5, 5, 4, 5, 6, 4]);
    accepted(&send(
        &mut st,
        "axis",
        "activate x\nattack gun at apc\nnothing",
        &mut d,
    ));
    assert!(u(&st, "r").destroyed);
    let by: Vec<(&str, &str)> = st
        .destroyed
        .iter()
        .map(|d| (d.unit.as_str(), d.by.as_str()))
        .collect();
    assert_eq!(by, vec![("apc", "axis"), ("r", "axis")]);
    assert_eq!(u(&st, "r").at, None, "an eliminated squad stands nowhere");
    assert!(flow::illegal_positions(&st).is_empty());
}

#[test]
fn carry_capacity_004_a_joined_hero_rolls_once_and_outlives_his_squad() {
    // 004 "Carry Capacity": one die "for each miniature inside" (R464): the squad's four, then
    // its joined hero's. The squad rolls 4 4 5 6 (wiped out), the hero 2: he alone climbs out.
    let mut hero = card("h", UnitType::Hero, 3, 1, vec![]);
    hero.armour = Armour::Soldier(2);
    let mut h = unit("h", "h", None);
    h.joins = Some("r".into());
    let mut st = game(
        vec![
            unit("apc", "apc", Some("E5")),
            aboard(unit("r", "r", None), "apc"),
            h,
        ],
        vec![unit("x", "sq", Some("E2"))],
        vec![apc("apc", 6, 1), troops("r", 2, 2), hero, squad("sq")],
        "axis",
    );
    assert_eq!(
        u(&st, "h").aboard.as_deref(),
        Some("apc"),
        "he rides with his squad"
    );
    let mut d = ScriptedDice::new([1, 5, 5, 5, 4, 4, 5, 6, 2]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at apc\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(u(&st, "r").destroyed);
    assert_eq!(u(&st, "h").health, 3);
    assert_eq!(u(&st, "h").at, Some(sq("E5")));
    assert_eq!(u(&st, "h").aboard, None);
    assert!(flow::illegal_positions(&st).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Command Vehicle
// ---------------------------------------------------------------------------------------------

/// A command squad card (R211): its five models named by speciality.
fn command_squad() -> Card {
    let mut c = with_skill(squad("cs"), "command-squad", None);
    c.health = 5;
    c.models = [
        "officer",
        "radioman",
        "mechanic",
        "medic",
        "weapon-specialist",
    ]
    .into_iter()
    .map(|m| ModelSpec {
        id: m.into(),
        carries: vec![],
    })
    .collect();
    c
}

/// `hq` (a vehicle with Carry Capacity 6, and Command Vehicle when `command`) on E5 carrying the
/// command squad `cs`; allied squad `g` on E6 next to it has activated; axis `x` on A1.
fn command_game(command: bool) -> State {
    let mut hq = apc("hq", 6, 3);
    if command {
        hq = with_skill(hq, "command-vehicle", None);
    }
    let mut st = game(
        vec![
            unit("hq", "hq", Some("E5")),
            aboard(unit("cs", "cs", None), "hq"),
            unit("g", "r", Some("E6")),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![hq, command_squad(), troops("r", 2, 1), squad("sq")],
        "allies",
    );
    accepted(&send(
        &mut st,
        "allies",
        "activate g\nnothing\nnothing",
        &mut none(),
    ));
    axis_waits(&mut st);
    st
}

#[test]
fn command_vehicle_004_a_command_squad_uses_its_abilities_from_inside() {
    // 004 "Command Vehicle": "A unit with the Command Squad skill or the NCO Command Squad skill
    // can use all its abilities while inside a Command Vehicle. All restrictions to these
    // abilities still apply" (R466: its reach is measured from the vehicle's space). `g` on E6
    // is next to the vehicle on E5.
    let mut st = command_game(true);
    let mut d = ScriptedDice::new([1]);
    let out = send(
        &mut st,
        "allies",
        "activate cs\nskill get-moving at g\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(st.reactivated.as_deref(), Some("g"), "{}", texts(&out));
    assert_eq!(u(&st, "cs").aboard.as_deref(), Some("hq"));
}

#[test]
fn command_vehicle_004_without_the_skill_the_command_squad_inside_cannot_give_orders() {
    // 004 "Carry Capacity": "it cannot use any skills or perform any actions unless it possesses
    // a special skill that says otherwise": the same vehicle without Command Vehicle.
    let mut st = command_game(false);
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate cs\nskill get-moving at g\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("inside hq: it cannot act except to exit"), "{e}");
}

#[test]
fn command_vehicle_004_a_failed_ability_die_is_re_rolled() {
    // 004 "Command Vehicle": "Once per round a command squad may re-roll any failed die results
    // when checking to see if it can successfully use one of its special abilities" (R466).
    // The officer's die misses (5), the re-roll hits (2).
    let mut st = command_game(true);
    let mut d = ScriptedDice::new([5, 2]);
    let out = send(
        &mut st,
        "allies",
        "activate cs\nskill get-moving at g\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(
        texts(&out).contains("re-rolls its failed die (5): 2"),
        "{}",
        texts(&out)
    );
    assert_eq!(st.reactivated.as_deref(), Some("g"));
}

// ---------------------------------------------------------------------------------------------
// The orders template
// ---------------------------------------------------------------------------------------------

/// The template's lines for `unit`: from its `# activate <unit>` line to the next unit's.
fn template_block(st: &State, side: &str, unit: &str) -> String {
    let t = dustmail::dust_tactics::view::orders_template(st, side);
    let head = format!("# activate {unit} ");
    let start = t
        .find(&head)
        .unwrap_or_else(|| panic!("no block for {unit}:\n{t}"));
    let rest = &t[start + head.len()..];
    let end = rest.find("# activate ").unwrap_or(rest.len());
    t[start..start + head.len() + end].to_string()
}

#[test]
fn carry_capacity_004_the_template_offers_boarding_and_exits_only_when_accepted() {
    // R461: the orders template offers `move board <vehicle>` to a unit next to a vehicle with
    // room, and `move exit <square>` to a unit inside; each line offered is accepted.
    let st = table();
    let r = template_block(&st, "allies", "r");
    assert!(r.contains("#   move board apc"), "{r}");
    let far = template_block(&st, "allies", "far");
    assert!(
        !far.contains("board"),
        "`far` on E8 is not next to the apc: {far}"
    );
    let mut st = loaded("allies");
    let block = template_block(&st, "allies", "r");
    assert!(block.contains("inside apc"), "{block}");
    let exit = block
        .lines()
        .find_map(|l| l.strip_prefix("#   move exit "))
        .unwrap_or_else(|| panic!("no exit offered:\n{block}"));
    let square = exit.split_whitespace().next().unwrap();
    assert!(sq(square).adjacent(sq("E5")), "{square}");
    assert!(
        !block.contains("#   move E"),
        "no plain move from inside: {block}"
    );
    let order = format!("activate r\nmove exit {square}\nnothing");
    accepted(&send(&mut st, "allies", &order, &mut none()));
    assert_eq!(u(&st, "r").at, Some(sq(square)));
}

#[test]
fn carry_capacity_004_a_unit_inside_a_vehicle_still_off_the_board_waits_for_it() {
    // 004 "Carry Capacity": "The unit is placed in any space adjacent to the vehicle": with the
    // vehicle still to enter there is no such space (R461); and the unit inside is not one that
    // "must enter the battlefield" in round 1 (004 "During the first round"): it stays (R462).
    let mut st = game(
        vec![
            unit("apc", "apc", None),
            aboard(unit("r", "r", None), "apc"),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![apc("apc", 6, 3), troops("r", 2, 1), squad("sq")],
        "allies",
    );
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate r\nmove exit E8\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("apc has not entered the battlefield"), "{e}");
    accepted(&send(
        &mut st,
        "allies",
        "activate r\nnothing\nnothing",
        &mut none(),
    ));
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("apc"));
}
