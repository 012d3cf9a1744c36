//! Issue 12, transport: 004's skills reference, "Tank Riders". A vehicle with Tank Riders carries
//! soldiers with the Carry Capacity machinery (R467); its riders fall in a wreck on a hit (R468).
//! Orders go through the real parser and state machine; each test quotes the sentence it checks.
//! The skill stays refused at `new` until riding outside (targeted, reacting, acting, hurt with
//! the vehicle) is in the engine, so these tests build their cards directly.

use crate::support_flow::*;

use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

/// A vehicle card with Tank Riders `cap` (armour vehicle 3, health `health`, Movement 2).
fn tank(id: &str, cap: u8, health: u8) -> Card {
    let mut c = with_skill(
        card(
            id,
            UnitType::Vehicle,
            health,
            2,
            vec![weapon("mg", WeaponRange::Upto(4), 1, 1)],
        ),
        "tank-riders",
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

fn hero(id: &str) -> Card {
    let mut h = card(id, UnitType::Hero, 3, 1, vec![]);
    h.armour = Armour::Soldier(2);
    h
}

fn riding(mut spec: UnitSpec, vehicle: &str) -> UnitSpec {
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

fn none() -> ScriptedDice {
    ScriptedDice::new([])
}

#[test]
fn tank_riders_004_the_capacity_counts_1_and_2_soldiers_3_and_4_count_as_two() {
    // 004 "Tank Riders": "The Tank Riders capacity indicates the maximum number of 1 and 2
    // soldiers that it can carry. 3 and 4 soldiers count as two soldiers each." (R467).
    // Capacity 6: four armour 3 soldiers need 8 places; four armour 2 soldiers fit.
    let mut st = game(
        vec![
            unit("tank", "tank", Some("E5")),
            unit("heavy", "heavy", Some("E6")),
            unit("r", "r", Some("D6")),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![
            tank("tank", 6, 3),
            troops("heavy", 3, 1),
            troops("r", 2, 1),
            squad("sq"),
        ],
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate heavy\nmove board tank\nnothing",
        &mut none(),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("needs 8 place(s)"), "{e}");
    assert_eq!(u(&st, "heavy").aboard, None, "a refusal changes nothing");
    accepted(&send(
        &mut st,
        "allies",
        "activate r\nmove board tank\nnothing",
        &mut none(),
    ));
    assert_eq!(flow::carrying(&st, "tank"), vec!["r".to_string()]);
}

#[test]
fn tank_riders_004_squads_and_heroes_can_begin_the_game_riding() {
    // 004 "Tank Riders": "Squads and heroes can begin the game riding this vehicle." (R467,
    // R465). More than the capacity at the start is refused when the game is made.
    let st = game(
        vec![
            unit("tank", "tank", Some("E5")),
            riding(unit("r", "r", None), "tank"),
            riding(unit("h", "h", None), "tank"),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![
            tank("tank", 5, 3),
            troops("r", 2, 1),
            hero("h"),
            squad("sq"),
        ],
        "allies",
    );
    assert_eq!(
        flow::carrying(&st, "tank"),
        vec!["r".to_string(), "h".to_string()]
    );
    let err = DustTactics
        .start(
            "ffg-revised",
            scenario(
                vec![
                    unit("tank", "tank", Some("E5")),
                    riding(unit("r", "r", None), "tank"),
                ],
                vec![unit("x", "sq", Some("A1"))],
            ),
            vec![tank("tank", 3, 3), troops("r", 2, 1), squad("sq")],
        )
        .unwrap_err();
    assert!(
        err.0.contains("more than its Tank Riders of 3"),
        "{}",
        err.0
    );
}

#[test]
fn tank_riders_004_boarding_costs_1_mp_after_moving_adjacent_and_disembarking_1_mp() {
    // 004 "Tank Riders": "To do so, it must be adjacent to the vehicle during a MOVE action and
    // spend 1 MP to climb aboard. If the squad has more than 1 MP available to it during its
    // MOVE action, it may first move so that it is adjacent to the vehicle, then spend 1 MP to
    // board." and "Climbing down from this vehicle requires a MOVE action. It costs 1 MP to
    // disembark. The disembarking unit is placed on any space adjacent to the vehicle" (R467).
    // `far` (Movement 2) on D7 moves to D6, next to the tank on E5, and boards.
    let mut st = game(
        vec![
            unit("tank", "tank", Some("E5")),
            unit("far", "far", Some("D7")),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![tank("tank", 6, 3), troops("far", 2, 2), squad("sq")],
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate far\nmove D6 board tank\nnothing",
        &mut none(),
    );
    assert_eq!(
        first_result(&out),
        Ok("activate far: move to D6 and board tank, nothing".into())
    );
    assert_eq!(u(&st, "far").aboard.as_deref(), Some("tank"));
    // A square not next to the tank is refused for the disembarking.
    let mut st = game(
        vec![
            unit("tank", "tank", Some("E5")),
            riding(unit("r", "r", None), "tank"),
        ],
        vec![unit("x", "sq", Some("A1"))],
        vec![tank("tank", 6, 3), troops("r", 2, 2), squad("sq")],
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate r\nmove exit E7\nnothing",
        &mut none(),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("not next to tank"), "{e}");
    accepted(&send(
        &mut st,
        "allies",
        "activate r\nmove exit E6 E7\nnothing",
        &mut none(),
    ));
    assert_eq!(u(&st, "r").at, Some(sq("E7")));
    assert_eq!(u(&st, "r").aboard, None);
}

/// `tank` (health 1) on E5 carrying squad `r` and hero `h` from the start; axis `x` on E2.
fn loaded() -> State {
    game(
        vec![
            unit("tank", "tank", Some("E5")),
            riding(unit("r", "r", None), "tank"),
            riding(unit("h", "h", None), "tank"),
        ],
        vec![unit("x", "sq", Some("E2"))],
        vec![
            tank("tank", 6, 1),
            troops("r", 2, 2),
            hero("h"),
            squad("sq"),
        ],
        "axis",
    )
}

#[test]
fn tank_riders_004_a_destroyed_vehicle_eliminates_each_rider_who_rolls_a_hit() {
    // 004 "Tank Riders": "If this vehicle is destroyed while carrying soldiers, roll 1 die at a
    // time for each squad member or hero riding the vehicle. If the die result is a ☉, that
    // squad member is eliminated. A hit hero loses 1 HP." (R468). Axis's gun hits the tank
    // (health 1) once (its extra die for the riders, R469, a 5, hurts nobody); `r`'s four
    // roll 1 4 2 6: models 1 and 3 fall (a 4, which kills inside a Carry Capacity vehicle, is
    // no hit); the hero rolls 2 and loses 1 health.
    let mut st = loaded();
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 1, 4, 2, 6, 2]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at tank\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(u(&st, "tank").destroyed);
    assert_eq!(
        u(&st, "r").models,
        vec!["2".to_string(), "4".to_string()],
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "h").health, 2, "{}", texts(&out));
    assert!(
        texts(&out).contains(
            "tank is destroyed with r riding: 4 roll(s) 1 4 2 6; 1, 3 hit on a hit (1 or 2)"
        ),
        "{}",
        texts(&out)
    );
    assert!(flow::illegal_positions(&st).is_empty());
}

#[test]
fn tank_riders_004_riders_who_roll_no_hit_climb_down_unhurt() {
    // 004 "Tank Riders": "If the die result is a ☉, that squad member is eliminated." The four
    // roll 3 4 5 6 and the hero 6 (after the riders' extra die, 5, R469): no hit, nobody is
    // hurt; they stand on the wreck's square and the next free one (R464).
    let mut st = loaded();
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 3, 4, 5, 6, 6]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at tank\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(u(&st, "r").models.len(), 4, "{}", texts(&out));
    assert_eq!(u(&st, "h").health, 3);
    assert_eq!(u(&st, "r").at, Some(sq("E5")));
    assert!(u(&st, "h").at.is_some());
    assert!(flow::illegal_positions(&st).is_empty());
}

/// `tank` (health 3) on E5 carrying squad `r` from the start; axis `x` on E2.
fn carried() -> State {
    game(
        vec![
            unit("tank", "tank", Some("E5")),
            riding(unit("r", "r", None), "tank"),
        ],
        vec![unit("x", "sq", Some("E2"))],
        vec![tank("tank", 6, 3), troops("r", 2, 2), squad("sq")],
        "axis",
    )
}

#[test]
fn tank_riders_004_each_damaging_hit_on_the_vehicle_rolls_an_extra_die_for_the_riders() {
    // 004 "Tank Riders": "If this vehicle is attacked while carrying soldiers, roll one
    // additional die for every ☉ that damages the vehicle. If these additional dice score any
    // ☉, the soldiers riding also suffer damage. The player who controls the vehicle applies
    // the damage generated by the additional results to these soldiers." (R469). Axis's gun
    // hits the tank twice (1 1 5 5): two extra dice, 2 and 6: one hit, one of `r` falls.
    let mut st = carried();
    let mut d = ScriptedDice::new([1, 1, 5, 5, 2, 6]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at tank\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "tank").health, 1, "{}", texts(&out));
    assert_eq!(u(&st, "r").models.len(), 3, "{}", texts(&out));
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("tank"));
    assert!(
        texts(&out).contains("Tank Riders: 2 extra dice for r: 2 6; 1 hit(s) on the riders"),
        "{}",
        texts(&out)
    );
}

#[test]
fn tank_riders_004_no_extra_die_without_damage_or_without_riders() {
    // 004 "Tank Riders": "roll one additional die for every ☉ that damages the vehicle" — a
    // miss rolls none, and an empty vehicle rolls none: the script holds no die for them.
    let mut st = carried();
    let mut d = ScriptedDice::new([5, 5, 5, 5]);
    accepted(&send(
        &mut st,
        "axis",
        "activate x\nattack gun at tank\nnothing",
        &mut d,
    ));
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "r").models.len(), 4);
    let mut st = game(
        vec![unit("tank", "tank", Some("E5"))],
        vec![unit("x", "sq", Some("E2"))],
        vec![tank("tank", 6, 3), squad("sq")],
        "axis",
    );
    let mut d = ScriptedDice::new([1, 5, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at tank\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "tank").health, 2);
}

#[test]
fn tank_riders_004_a_riding_unit_activated_attacks_from_the_vehicle() {
    // 004 "Tank Riders": "When a unit riding a vehicle is activated, it can use any skills or
    // take any actions available to it." (R470). `r`, riding the tank on E5, fires its guns
    // at `x` on E2 from the tank's square (1 1 5 5: two hits) and stays aboard.
    let mut st = carried();
    accepted(&send(
        &mut st,
        "axis",
        "activate x\nnothing\nnothing",
        &mut none(),
    ));
    let mut d = ScriptedDice::new([1, 1, 5, 5]);
    let out = send(
        &mut st,
        "allies",
        "activate r\nattack gun at x\nnothing",
        &mut d,
    );
    assert_eq!(
        first_result(&out),
        Ok("activate r: attack gun at x, nothing".into())
    );
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "x").models.len(), 2, "{}", texts(&out));
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("tank"));
    assert_eq!(u(&st, "tank").at, Some(sq("E5")));
}

#[test]
fn tank_riders_004_a_riding_unit_climbs_down_before_it_moves() {
    // 004 "Tank Riders": "Climbing down from this vehicle requires a MOVE action. It costs 1
    // MP to disembark." (R470): a rider's plain move is refused and changes nothing.
    let mut st = carried();
    accepted(&send(
        &mut st,
        "axis",
        "activate x\nnothing\nnothing",
        &mut none(),
    ));
    let out = send(
        &mut st,
        "allies",
        "activate r\nmove E7\nnothing",
        &mut none(),
    );
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("r is riding tank: it climbs down before it moves"),
        "{e}"
    );
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("tank"));
}

#[test]
fn tank_riders_004_a_rider_targeted_directly_is_rolled_against_its_own_armour() {
    // 004 "Tank Riders": "If a unit riding this vehicle is directly targeted by an attack, the
    // attacker rolls against the armor value of the targeted unit, not the vehicle." (R471).
    // Axis's gun aims at `r` (soldier armour 2) riding the tank on E5: 1 1 5 5, two of `r`
    // fall and the tank is untouched.
    let mut st = carried();
    let mut d = ScriptedDice::new([1, 1, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at r\nnothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "r").models.len(), 2, "{}", texts(&out));
    assert_eq!(u(&st, "tank").health, 3);
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("tank"));
}

#[test]
fn tank_riders_004_the_riders_may_react_when_a_soldier_unit_attacks_the_vehicle() {
    // 004 "Tank Riders": "If this vehicle is attacked by a soldier unit, even from a distance,
    // the embarked soldiers may attempt Reactive Fire as normal." (R472). Axis's squad `x` on
    // E2 attacks the tank on E5; `r`, riding it and not yet activated, reacts from E5.
    let mut st = carried();
    // Only `r` reacts (the tank keeps its `never`). Gun 1 1 5 5 on the tank, the riders' extra
    // dice 5 5, `r`'s reaction die 1 (a hit: it fires), its guns 1 5 5 5: one of `x` falls.
    flow::standing_react(&mut st, "allies", Some("r"), Policy::Yes).expect("standing react");
    let mut d = ScriptedDice::new([1, 1, 5, 5, 5, 5, 1, 1, 5, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack gun at tank\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert!(t.contains("r attempts reactive fire at x"), "{t}");
    assert!(t.contains("r fires gun"), "{t}");
    assert_eq!(d.remaining(), 0, "{t}");
    assert_eq!(u(&st, "x").models.len(), 3, "{t}");
    assert!(u(&st, "r").activated, "{t}");
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("tank"));
}

#[test]
fn tank_riders_004_a_rider_attacked_in_close_combat_retaliates_from_the_vehicle() {
    // 004 "Tank Riders": the rider is "directly targeted by an attack" (R471) and "can use any
    // skills or take any actions available to it" (R470); 004 "Close combat": the defender
    // attacks back with its range C weapons at the same time (R473). Axis's knives on E4 stab
    // `r` riding the tank on E5 (four misses), and `r`'s knives answer: 1 5 5 5, one of `x`.
    let mut cc = squad("cc");
    cc.weapons = vec![weapon("knife", WeaponRange::Close, 1, 1)];
    let mut st = game(
        vec![
            unit("tank", "tank", Some("E5")),
            riding(unit("r", "cc", None), "tank"),
        ],
        vec![unit("x", "cc", Some("E4"))],
        vec![tank("tank", 6, 3), cc],
        "axis",
    );
    let mut d = ScriptedDice::new([5, 5, 5, 5, /* r */ 1, 5, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack knife at r\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert!(t.contains("r retaliates"), "{t}");
    assert_eq!(u(&st, "x").models.len(), 3, "{t}");
    assert_eq!(u(&st, "r").models.len(), 4, "{t}");
}
