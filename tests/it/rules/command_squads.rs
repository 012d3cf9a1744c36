//! Issue 13 (classic-2010, seed 000) and issue 12 item 2 (command squads): what was left of
//! issue 13 after session 3. Every test names its seed and section.

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::Action;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

/// A game of `allies` against `axis` under `ruleset`, allies activating first. Standing react
/// `never` under ffg-revised keeps its windows out of these tests.
pub(super) fn game_under(
    ruleset: &str,
    allies: Vec<dustmail::dust_tactics::scenario::UnitSpec>,
    axis: Vec<dustmail::dust_tactics::scenario::UnitSpec>,
    cards: Vec<Card>,
) -> State {
    let mut st = DustTactics
        .start(ruleset, scenario(allies, axis), cards)
        .expect("setup");
    if st.rules().reactive_fire() {
        for side in st.sides() {
            dustmail::dust_tactics::flow::standing_react(
                &mut st,
                &side,
                None,
                dustmail::dust_tactics::state::Policy::Never,
            )
            .expect("standing react never");
        }
    }
    begin(&mut st, "allies");
    st
}

/// Dice enough for any attack of these tests.
fn plenty() -> ScriptedDice {
    ScriptedDice::new([6; 40])
}

// ---------------------------------------------------------------------------------------------
// Issue 13 item 2: 000 "Charge" attacks with all range 1 weapons
// ---------------------------------------------------------------------------------------------

/// Allies squad `a1` (Movement 1, Charge; a claw of range C, a knife of range 1 and a rifle of
/// range 4) at E5, axis squad `x1` on E2.
fn charger_with_two_close_weapons(ruleset: &str) -> State {
    let mut c = with_skill(squad("ch"), "charge", None);
    c.weapons.push(weapon("claw", WeaponRange::Close, 1, 1));
    c.weapons.push(weapon("knife", WeaponRange::Upto(1), 1, 1));
    game_under(
        ruleset,
        vec![unit("a1", "ch", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
        vec![c, squad("sq")],
    )
}

fn charge_with(fire: Vec<dustmail::dust_tactics::orders::FireOrder>) -> Vec<Action> {
    vec![skill("charge"), mv("E3"), Action::Attack { fire }]
}

// issue 13 item 2: 000 "Charge": "After this extra movement, the unit must attack with all of
// its weapons that have range 1, and nothing else." A charge naming the claw but not the knife
// is refused, and changes nothing; naming both is accepted (R209).
#[test]
fn charge_000_attacks_with_all_of_its_range_1_weapons() {
    let mut st = charger_with_two_close_weapons("classic-2010");
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", charge_with(vec![fire("claw", "x1")])),
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("all of the unit's range 1 weapons") && reason.contains("knife"),
        "{reason}"
    );
    assert!(rule.starts_with("000 'Charge'"), "{rule}");
    assert_eq!(st, before, "a refused charge changes nothing");
    // "and nothing else": the rifle (range 4) is still refused.
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            charge_with(vec![
                fire("claw", "x1"),
                fire("knife", "x1"),
                fire("gun", "x1"),
            ]),
        ),
        &mut plenty(),
    );
    assert!(refused(&out).0.contains("range 4"), "{:?}", refused(&out));
    accepted(&cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            charge_with(vec![fire("claw", "x1"), fire("knife", "x1")]),
        ),
        &mut plenty(),
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E3")));
}

// issue 13 item 2: 000 "Charge" ("must attack with all of its weapons that have range 1"): a
// range 1 weapon that cannot damage the target (`-` against its armour) cannot attack it, so
// the charge does without it (R209).
#[test]
fn charge_000_a_range_1_weapon_that_cannot_damage_the_target_is_not_required() {
    let mut c = with_skill(squad("ch"), "charge", None);
    c.weapons.push(weapon("claw", WeaponRange::Close, 1, 1));
    let mut knife = weapon("knife", WeaponRange::Upto(1), 1, 1);
    knife.soldier = [Fire::No; 4];
    c.weapons.push(knife);
    let mut st = game_under(
        "classic-2010",
        vec![unit("a1", "ch", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
        vec![c, squad("sq")],
    );
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", charge_with(vec![fire("claw", "x1")])),
        &mut plenty(),
    ));
}

// issue 13 item 2, the ffg-revised side: 004 "Charge": "The unit can perform an ATTACK action
// with all of its range 1 or range C weapons after performing 2 MOVE actions": "can", so under
// ffg-revised the charge may fire some of them (unchanged).
#[test]
fn charge_004_may_attack_with_some_of_its_range_1_weapons() {
    let mut c = with_skill(squad("ch"), "charge", None);
    c.weapons.push(weapon("claw", WeaponRange::Close, 1, 1));
    c.weapons.push(weapon("knife", WeaponRange::Upto(1), 1, 1));
    let mut st = game_under(
        "ffg-revised",
        vec![unit("a1", "ch", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
        vec![c, squad("sq")],
    );
    accepted(&cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![skill("charge"), mv("E4"), mv("E3"), attack("claw", "x1")],
        ),
        &mut plenty(),
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E3")));
}

// ---------------------------------------------------------------------------------------------
// Issue 13 item 3: 000's Hot Dog jump example under classic-2010
// ---------------------------------------------------------------------------------------------

/// The shipped Hot Dog (Movement 1, Jump) on E6 before a tank trap on E5; `others` are axis
/// squads standing where the test says.
fn hot_dog_before_a_tank_trap(ruleset: &str, others: &[&str]) -> State {
    let axis = others
        .iter()
        .enumerate()
        .map(|(i, at)| unit(&format!("x{i}"), "sq", Some(at)))
        .collect();
    let mut s = scenario(vec![unit("hotdog", "m2b-hot-dog", Some("E6"))], axis);
    s.board
        .place_cover(sq("E5"), CoverKind::TankTrap)
        .expect("a tank trap on E5");
    let mut cards = real_cards();
    cards.push(squad("sq"));
    let mut st = DustTactics.start(ruleset, s, cards).expect("setup");
    if st.rules().reactive_fire() {
        for side in st.sides() {
            dustmail::dust_tactics::flow::standing_react(
                &mut st,
                &side,
                None,
                dustmail::dust_tactics::state::Policy::Never,
            )
            .expect("standing react never");
        }
    }
    begin(&mut st, "allies");
    st
}

// issue 13 item 3: 000 "Jump" example: "The Hot Dog cannot get past this tank-trap normally ...
// There is only one solution...jump! It will need to perform a double movement (MOVE + MOVE)
// (it will be unable to attack), and can land on any of the colored squares." Under
// classic-2010 MOVE + MOVE is one move of double Movement (000 "Move twice", R200): the first
// `move` passes over the trap and is checked only as part of the whole move (R210).
#[test]
fn jump_000_example_the_hot_dog_jumps_the_tank_trap_with_move_move() {
    let mut st = hot_dog_before_a_tank_trap("classic-2010", &["A1"]);
    let out = cmd(
        &mut st,
        "allies",
        activate("hotdog", vec![mv("E5"), mv("E4")]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "hotdog").at, Some(sq("E4")));
    assert!(
        texts(&out).contains("one move of double Movement"),
        "{}",
        texts(&out)
    );
    // "can land on any of the colored squares": diagonally beyond the trap too.
    let mut st = hot_dog_before_a_tank_trap("classic-2010", &["A1"]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("hotdog", vec![mv("E5"), mv("D4")]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "hotdog").at, Some(sq("D4")));
}

// issue 13 item 3: 000 "Jump" example: "If any of these squares are occupied by another unit,
// no matter which side it is on, the Hot Dog could not land there"; and "The Hot Dog cannot
// get past this tank-trap normally": one MOVE may not stop on the trap. Refused, nothing moves.
#[test]
fn jump_000_example_the_hot_dog_cannot_land_on_a_unit_nor_stop_on_the_trap() {
    let mut st = hot_dog_before_a_tank_trap("classic-2010", &["E4"]);
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("hotdog", vec![mv("E5"), mv("E4")]),
        &mut ScriptedDice::new([]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("E4"), "{reason}");
    assert_eq!(st, before);
    let out = cmd(
        &mut st,
        "allies",
        activate("hotdog", vec![mv("E5"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("E5"), "{reason}");
    assert_eq!(st, before);
}

// issue 13 item 3, the ffg-revised side (kept from R156): 004 "Jump" and "Reactive fire" (two
// MOVE actions with a window between): the Movement-1 Hot Dog's first MOVE would end on the trap.
#[test]
fn jump_004_the_hot_dog_cannot_jump_the_trap_with_two_move_actions() {
    let mut st = hot_dog_before_a_tank_trap("ffg-revised", &["A1"]);
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("hotdog", vec![mv("E5"), mv("E4")]),
        &mut ScriptedDice::new([]),
    );
    assert!(refused(&out).0.contains("E5"), "{:?}", refused(&out));
    assert_eq!(st, before);
}

// ---------------------------------------------------------------------------------------------
// Issue 13 item 1 and issue 12 item 2: command squads (000 and 004 "Command Squads")
// ---------------------------------------------------------------------------------------------

/// A command squad card (R211): the Command Squad skill, its five models named by speciality;
/// armour soldier `armour`, a limited-ammo grenade carried by the weapon specialist.
pub(super) fn command_squad_card(id: &str, armour: u8) -> Card {
    let mut c = with_skill(squad(id), "command-squad", None);
    c.armour = Armour::Soldier(armour);
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

/// A squad of four models whose model 4 carries a grenade of 1 box (limited ammo).
pub(super) fn grenadier_squad() -> Card {
    let mut c = squad("gr");
    let mut g = weapon("grenade", WeaponRange::Upto(2), 1, 1);
    g.ammo = Some(1);
    g.carriers = Some(1);
    c.weapons.push(g);
    c.models = ["1", "2", "3", "4"]
        .into_iter()
        .map(|m| ModelSpec {
            id: m.into(),
            carries: if m == "4" {
                vec!["gun".into(), "grenade".into()]
            } else {
                vec!["gun".into()]
            },
        })
        .collect();
    c
}

fn vehicle_card() -> Card {
    card(
        "veh",
        UnitType::Vehicle,
        4,
        1,
        vec![weapon("mg", WeaponRange::Upto(4), 1, 1)],
    )
}

/// Allies: command squad `cs` on E5, squad `gren` on E4 next to it, vehicle `v1` on D5 next to it,
/// squad `far` on A9 (far away); axis squad `x1` on I1.
pub(super) fn command_game(ruleset: &str) -> State {
    game_under(
        ruleset,
        vec![
            unit("cs", "cs", Some("E5")),
            unit("gren", "gr", Some("E4")),
            unit("v1", "veh", Some("D5")),
            unit("far", "sq", Some("A9")),
        ],
        vec![unit("x1", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            grenadier_squad(),
            vehicle_card(),
            squad("sq"),
        ],
    )
}

pub(super) fn order(name: &str, target: &str) -> Action {
    Action::Skill {
        name: name.into(),
        target: Some(dustmail::dust_tactics::orders::TargetRef::Unit(
            target.into(),
        )),
    }
}

/// `gren` lost its model 4 (the grenadier) and spent its grenade.
fn wound_gren(st: &mut State) {
    let g = st.unit_mut("gren").unwrap();
    g.models.retain(|m| m != "4");
    g.health = 3;
    g.ammo.insert("grenade".into(), 0);
}

// issue 12 item 2: 004 "Command Squads", Medic: "Get Up, It Ain't That Bad (SKILL). Perform 1
// SKILL action to either revive 1 miniature in an adjacent squad ... A miniature returns to its
// squad with its special weapons and full ammo for any limited weapons." (§13.1 "Get Up
// revival", the 004 side; R212.)
#[test]
fn get_up_004_revives_a_miniature_with_full_ammo_for_its_limited_weapons() {
    let mut st = command_game("ffg-revised");
    wound_gren(&mut st);
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "gren"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    let g = u(&st, "gren");
    assert_eq!(g.health, 4);
    assert!(g.models.contains(&"4".to_string()), "{:?}", g.models);
    assert_eq!(g.ammo.get("grenade"), Some(&1), "full ammo for its grenade");
    assert!(
        texts(&out).contains("brings model 4 of gren back"),
        "{}",
        texts(&out)
    );
}

// issue 13 item 1: 000 "Command Squads", Medic: "The Medic brings one miniature back into a
// squad ... it returns to its squad with all its equipment (and its special weapons and ammo for
// limited ammo weapons). You do not need to roll the dice" (§13.1 "Get Up revival", the 000
// side: the same in play, R212).
#[test]
fn get_up_000_revives_a_miniature_with_ammo_for_its_limited_weapons() {
    let mut st = command_game("classic-2010");
    wound_gren(&mut st);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "gren"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    let g = u(&st, "gren");
    assert_eq!(g.health, 4);
    assert_eq!(g.ammo.get("grenade"), Some(&1));
}

// issue 13 item 1 (§13.1 "Command squad", the 000 side): 000 "Command Squads": "The command
// squad's orders do not work on the command squad itself": only itself, so a second command
// squad (of another armour class) may be given its orders.
#[test]
fn command_squads_000_orders_may_go_to_another_command_squad_not_to_itself() {
    let mut st = game_under(
        "classic-2010",
        vec![unit("cs", "cs", Some("E5")), unit("cs3", "cs3", Some("E4"))],
        vec![unit("x1", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            command_squad_card("cs3", 3),
            squad("sq"),
        ],
    );
    st.unit_mut("cs3")
        .unwrap()
        .models
        .retain(|m| m != "weapon-specialist");
    st.unit_mut("cs3").unwrap().health = 4;
    st.unit_mut("cs")
        .unwrap()
        .models
        .retain(|m| m != "weapon-specialist");
    st.unit_mut("cs").unwrap().health = 4;
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "cs"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("to itself"), "{reason}");
    assert!(rule.starts_with("000 'Command Squads'"), "{rule}");
    assert_eq!(st, before);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "cs3"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "cs3").health, 5);
}

// issue 12 item 2 (§13.1 "Command squad", the 004 side): 004 "Command Squads": "Any unit with a
// Command Squad skill (NCO or otherwise) cannot use its skills on any unit that also has a
// Command Squad skill."
#[test]
fn command_squads_004_orders_never_go_to_a_unit_with_a_command_squad_skill() {
    let mut st = game_under(
        "ffg-revised",
        vec![unit("cs", "cs", Some("E5")), unit("cs3", "cs3", Some("E4"))],
        vec![unit("x1", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            command_squad_card("cs3", 3),
            squad("sq"),
        ],
    );
    st.unit_mut("cs3")
        .unwrap()
        .models
        .retain(|m| m != "weapon-specialist");
    st.unit_mut("cs3").unwrap().health = 4;
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "cs3"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("Command Squad skill too"), "{reason}");
    assert!(rule.starts_with("004 'Command Squads'"), "{rule}");
    assert_eq!(st, before);
}

// issue 12 item 2: 004 "Command Squads": "you may only attempt to use 1 skill once per round"
// (000: "you cannot use more than one command squad ability per round"): two orders in one
// activation are refused.
#[test]
fn command_squads_004_one_attempt_per_round() {
    let mut st = command_game("ffg-revised");
    wound_gren(&mut st);
    st.unit_mut("v1").unwrap().health = 2;
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "cs",
            vec![order("get-up", "gren"), order("makeshift-repair", "v1")],
        ),
        &mut ScriptedDice::new([]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("already attempted"), "{reason}");
    assert_eq!(st, before);
}

// issue 13 item 1: 000 "Command Squads": "you are only allowed to try to do so once per round
// (it does not matter if the roll is a success or not)": a command squad reactivated by another
// (000 allows it) may not attempt a second ability in that round.
#[test]
fn command_squads_000_a_reactivated_command_squad_attempts_no_second_ability() {
    let mut st = game_under(
        "classic-2010",
        vec![
            unit("cs", "cs", Some("E5")),
            unit("cs3", "cs3", Some("E4")),
            unit("gren", "gr", Some("D4")),
        ],
        vec![unit("x1", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            command_squad_card("cs3", 3),
            grenadier_squad(),
            squad("sq"),
        ],
    );
    wound_gren(&mut st);
    // cs3 heals gren, then axis, then cs reactivates cs3 (a hit: face 1).
    accepted(&cmd(
        &mut st,
        "allies",
        activate("cs3", vec![order("get-up", "gren"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    accepted(&cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-moving", "cs3"), nothing()]),
        &mut ScriptedDice::new([1]),
    ));
    wound_gren(&mut st);
    let out = cmd(
        &mut st,
        "allies",
        activate("cs3", vec![order("get-up", "gren"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("already attempted"),
        "{:?}",
        refused(&out)
    );
    accepted(&cmd(
        &mut st,
        "allies",
        activate("cs3", vec![mv("E3"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
}

// issue 12 item 2: 004 "Command Squads", Officer: "Get Moving You Bunch of Monkeys! (SKILL).
// Perform 1 SKILL action and roll 1 die. On a [hit], reactivate one adjacent unit immediately
// after the command squad's activation is finished." 000: "It can move again ... In fact you
// will be playing twice in a row." (R211)
#[test]
fn get_moving_004_a_hit_reactivates_the_unit_right_after_the_command_squad() {
    let mut st = command_game("ffg-revised");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("gren", vec![mv("E3"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    // gren on E3 is no longer adjacent to cs on E5: the radioman relays the order.
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-moving", "gren"), nothing()]),
        &mut ScriptedDice::new([1]),
    );
    accepted(&out);
    assert!(
        texts(&out).contains("gren is reactivated"),
        "{}",
        texts(&out)
    );
    assert_eq!(
        awaited(&st),
        vec![("allies".to_string(), "activate".to_string())]
    );
    // Another unit may not go first.
    let out = cmd(
        &mut st,
        "allies",
        activate("far", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("reactivated"),
        "{:?}",
        refused(&out)
    );
    accepted(&cmd(
        &mut st,
        "allies",
        activate("gren", vec![mv("E2"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "gren").at, Some(sq("E2")));
}

// issue 13 item 1: 000 "Command Squads": "You need a [hit] for the ability to work. A [miss] is
// a failure"; Radioman: "Should the Radioman be eliminated, the Officer will only be able to
// give orders to units around him".
#[test]
fn get_moving_000_a_miss_fails_and_without_radioman_only_adjacent_units() {
    let mut st = command_game("classic-2010");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("far", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    let mut no_radio = st.clone();
    no_radio
        .unit_mut("cs")
        .unwrap()
        .models
        .retain(|m| m != "radioman");
    no_radio.unit_mut("cs").unwrap().health = 4;
    let before = no_radio.clone();
    let out = cmd(
        &mut no_radio,
        "allies",
        activate("cs", vec![order("get-moving", "far"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("radioman has been eliminated"),
        "{:?}",
        refused(&out)
    );
    assert_eq!(no_radio, before);
    // With the radioman, a miss (face 6): nothing is reactivated; the round goes on.
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-moving", "far"), nothing()]),
        &mut ScriptedDice::new([6]),
    );
    accepted(&out);
    assert!(texts(&out).contains("the order fails"), "{}", texts(&out));
    let out = cmd(
        &mut st,
        "allies",
        activate("far", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out)
            .0
            .contains("far has already activated this round"),
        "{:?}",
        refused(&out)
    );
}

// issue 12 item 2: 004 "Command Squads", Mechanic: "Makeshift Repair (SKILL). Perform 1 SKILL
// action to restore 1 [health] to an adjacent non-destroyed vehicle (the radioman's relay skill
// cannot facilitate remote repairs)."
#[test]
fn makeshift_repair_004_one_health_to_an_adjacent_vehicle_never_by_relay() {
    let mut st = game_under(
        "ffg-revised",
        vec![
            unit("cs", "cs", Some("E5")),
            unit("v1", "veh", Some("D5")),
            unit("v2", "veh", Some("A9")),
        ],
        vec![unit("x1", "sq", Some("I1"))],
        vec![command_squad_card("cs", 2), vehicle_card(), squad("sq")],
    );
    st.unit_mut("v1").unwrap().health = 2;
    st.unit_mut("v2").unwrap().health = 2;
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("makeshift-repair", "v2"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("relay does not work"),
        "{:?}",
        refused(&out)
    );
    assert_eq!(st, before);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("makeshift-repair", "v1"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "v1").health, 3);
}

// issue 13 item 1: 000 "Command Squads": "When one of the squad's miniatures is eliminated, the
// command squad loses any ability associated with that miniature": without its Medic, no Get Up.
#[test]
fn command_squads_000_an_eliminated_member_takes_his_ability_with_him() {
    let mut st = command_game("classic-2010");
    wound_gren(&mut st);
    st.unit_mut("cs").unwrap().models.retain(|m| m != "medic");
    st.unit_mut("cs").unwrap().health = 4;
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "gren"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("medic of cs has been eliminated"),
        "{reason}"
    );
    assert!(rule.starts_with("000 'Command Squads'"), "{rule}");
    assert_eq!(st, before);
}

// issue 13 item 1: 000 "Command Squads": "your army may have a 2 Command Squad and a 3 Command
// Squad, but not two 2's"; "a hero may join a command squad only if he has the Commander
// ability" (004: the same).
#[test]
fn command_squads_000_one_per_armour_class_and_only_a_commander_joins() {
    let two = DustTactics.start(
        "classic-2010",
        scenario(
            vec![unit("a", "cs", Some("E5")), unit("b", "cs", Some("E4"))],
            vec![unit("x1", "sq", Some("I1"))],
        ),
        vec![command_squad_card("cs", 2), squad("sq")],
    );
    let err = two.expect_err("two command squads of armour 2");
    assert!(err.0.contains("different armour class"), "{}", err.0);
    let ok = DustTactics.start(
        "classic-2010",
        scenario(
            vec![unit("a", "cs", Some("E5")), unit("b", "cs3", Some("E4"))],
            vec![unit("x1", "sq", Some("I1"))],
        ),
        vec![
            command_squad_card("cs", 2),
            command_squad_card("cs3", 3),
            squad("sq"),
        ],
    );
    assert!(ok.is_ok(), "{ok:?}");
    let hero = |skill: Option<&str>| {
        let mut h = card(
            "hero",
            UnitType::Hero,
            3,
            1,
            vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
        );
        if let Some(s) = skill {
            h = with_skill(h, s, None);
        }
        let mut s = scenario(
            vec![unit("cs", "cs", Some("E5")), unit("h", "hero", Some("E5"))],
            vec![unit("x1", "sq", Some("I1"))],
        );
        s.sides[0].units[1].joins = Some("cs".into());
        DustTactics.start(
            "classic-2010",
            s,
            vec![command_squad_card("cs", 2), h, squad("sq")],
        )
    };
    let err = hero(None).expect_err("a hero without Commander");
    assert!(err.0.contains("Commander"), "{}", err.0);
    assert!(hero(Some("commander")).is_ok());
}

// issue 12 item 2 (issue 12 item 3: no card carries a rule the engine ignores): a card naming
// Command Squad is accepted at `new` now, its models naming the specialists; one without them
// is refused with the file and what to write.
#[test]
fn command_squads_a_card_is_accepted_at_new_with_its_specialists_named() {
    let base = r#"
id = "cs"
name = "Command Squad"
faction = "allies"
unit_type = "squad"
armour = { soldier = 2 }
movement = 1
health = 5
ap = 10
skills = [{ name = "command-squad" }]

[[weapons]]
id = "smg"
name = "SMG"
range = "3"
soldier = ["1/1", "1/1", "1/1", "1/1"]
vehicle = ["1/1", "1/1", "1/1", "1/1", "1/1", "1/1", "1/1"]
"#;
    let models: String = [
        "officer",
        "radioman",
        "mechanic",
        "medic",
        "weapon-specialist",
    ]
    .iter()
    .map(|m| format!("\n[[models]]\nid = \"{m}\"\ncarries = [\"smg\"]\n"))
    .collect();
    let with = format!("{base}{models}");
    let c = dustmail::dust_tactics::cards::parse_card_for_new("cs.toml", &with)
        .expect("a command squad card is accepted");
    assert!(c.has_skill("command-squad"));
    let numbered: String = (1..=5)
        .map(|m| format!("\n[[models]]\nid = \"{m}\"\ncarries = [\"smg\"]\n"))
        .collect();
    let err =
        dustmail::dust_tactics::cards::parse_card_for_new("cs.toml", &format!("{base}{numbered}"))
            .expect_err("no specialist named");
    let text = err.to_string();
    assert!(
        text.contains("cs.toml") && text.contains("officer"),
        "{text}"
    );
}

// issue 13 items 2 and 3 (docs/ledger.md "Rules revisions"): R209 and R210 came with rules
// revision 3; a classic-2010 game made before keeps the rules it started with, so its ledger
// replays as recorded: its charge may name some range 1 lines, and the Hot Dog's first MOVE
// is still checked as a stop.
#[test]
fn classic_2010_a_game_made_before_revision_3_keeps_its_rules() {
    let mut st = charger_with_two_close_weapons("classic-2010");
    st.rules_revision = 2;
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", charge_with(vec![fire("claw", "x1")])),
        &mut plenty(),
    ));
    let mut st = hot_dog_before_a_tank_trap("classic-2010", &["A1"]);
    st.rules_revision = 2;
    let out = cmd(
        &mut st,
        "allies",
        activate("hotdog", vec![mv("E5"), mv("E4")]),
        &mut ScriptedDice::new([]),
    );
    assert!(refused(&out).0.contains("E5"), "{:?}", refused(&out));
}

// issue 12 item 2 (docs/orders.md, R211): the orders as a player writes them in a mail, words of
// the order's name spaced (R89), through the game's submit: `skill get up at gren`.
#[test]
fn command_squads_orders_as_a_player_writes_them() {
    let mut st = command_game("ffg-revised");
    wound_gren(&mut st);
    let out = send(
        &mut st,
        "allies",
        "activate cs\n  skill get up at gren\n  nothing\n",
        &mut ScriptedDice::new([]),
    );
    let understood = first_result(&out).expect("accepted");
    assert!(understood.contains("skill get-up at gren"), "{understood}");
    assert_eq!(u(&st, "gren").health, 4);
    // Field Repair is for a destroyed vehicle: given to a squad, it is refused and says so.
    let mut st = command_game("ffg-revised");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate cs\n  skill field repair at gren\n  nothing\n",
        &mut ScriptedDice::new([]),
    );
    let refusal = first_result(&out).expect_err("refused");
    assert!(
        refusal.contains("gren is not a vehicle") && refusal.contains("Field Repair"),
        "{refusal}"
    );
    assert_eq!(st, before);
}

/// `command_game` with the vehicle `v1` destroyed earlier by the axis (10 AP recorded).
pub(super) fn v1_destroyed(ruleset: &str) -> State {
    let mut st = command_game(ruleset);
    let v = st.unit_mut("v1").unwrap();
    v.destroyed = true;
    v.at = None;
    v.health = 0;
    st.destroyed
        .push(dustmail::dust_tactics::state::Destruction {
            unit: "v1".into(),
            side: "allies".into(),
            by: "axis".into(),
            ap: 10,
            round: 1,
        });
    st
}

// issue 12 item 2: 004 "Command Squads", Mechanic: "Field Repair (SKILL). Perform 1 SKILL action
// and roll 1 die. On a [hit], finish the command squad's activation and then immediately
// activate the repaired vehicle, which enters the battlefield from its side's deployment
// spaces." (R213)
#[test]
fn field_repair_004_a_hit_brings_the_vehicle_back_through_the_entry_zone() {
    let mut st = v1_destroyed("ffg-revised");
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("field-repair", "v1"), nothing()]),
        &mut ScriptedDice::new([1]),
    );
    accepted(&out);
    assert!(texts(&out).contains("v1 comes back"), "{}", texts(&out));
    // It activates next, entering from the allies' entry zone (row 9), whole again.
    let out = cmd(
        &mut st,
        "allies",
        activate("gren", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("v1 was reactivated"),
        "{:?}",
        refused(&out)
    );
    accepted(&cmd(
        &mut st,
        "allies",
        activate("v1", vec![mv("E9"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    let v = u(&st, "v1");
    assert_eq!((v.at, v.health, v.destroyed), (Some(sq("E9")), 4, false));
}

// issue 13 item 1: 000 "Command Squads", Mechanic: "To activate this ability, you need a [hit]
// ... you may only bring a single vehicle back for the whole game! ... (yes, you are allowed as
// many tries as you need to bring it back). If the Radioman is eliminated, the ability does not
// work." A miss leaves the vehicle out and the order unspent; without the radioman, refused.
#[test]
fn field_repair_000_a_miss_may_be_tried_again_but_not_without_the_radioman() {
    let mut st = v1_destroyed("classic-2010");
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("field-repair", "v1"), nothing()]),
        &mut ScriptedDice::new([6]),
    );
    accepted(&out);
    assert!(texts(&out).contains("a miss"), "{}", texts(&out));
    assert!(u(&st, "v1").destroyed);
    assert!(
        !u(&st, "cs").skills_used.contains_key("field-repair"),
        "a miss does not spend the order"
    );
    let mut st = v1_destroyed("classic-2010");
    st.unit_mut("cs")
        .unwrap()
        .models
        .retain(|m| m != "radioman");
    st.unit_mut("cs").unwrap().health = 4;
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("field-repair", "v1"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("radioman of cs has been eliminated"),
        "{reason}"
    );
    assert!(rule.starts_with("000 'Command Squads'"), "{rule}");
    assert_eq!(st, before);
}

// issue 13 item 1: 000 "Command Squads", Medic: "Come On Guys ... brings a whole squad, which
// was previously eliminated, back into the game ... A hero who was eliminated cannot be brought
// back into the game by the Medic." It comes back "with all its equipment".
#[test]
fn come_on_guys_000_brings_a_squad_back_never_a_hero() {
    let hero = card(
        "hero",
        UnitType::Hero,
        3,
        1,
        vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
    );
    let mut st = game_under(
        "classic-2010",
        vec![
            unit("cs", "cs", Some("E5")),
            unit("gren", "gr", Some("E4")),
            unit("joe", "hero", Some("A9")),
        ],
        vec![unit("x1", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            grenadier_squad(),
            hero,
            squad("sq"),
        ],
    );
    for id in ["gren", "joe"] {
        let x = st.unit_mut(id).unwrap();
        x.destroyed = true;
        x.at = None;
        x.health = 0;
        x.models.clear();
    }
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("come-on-guys", "joe"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("never a hero"),
        "{:?}",
        refused(&out)
    );
    assert_eq!(st, before);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("come-on-guys", "gren"), nothing()]),
        &mut ScriptedDice::new([2]),
    ));
    accepted(&cmd(
        &mut st,
        "allies",
        activate("gren", vec![mv("D9"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    let g = u(&st, "gren");
    assert_eq!((g.at, g.health, g.models.len()), (Some(sq("D9")), 4, 4));
    assert_eq!(g.ammo.get("grenade"), Some(&1), "with all its equipment");
}

// issue 12 item 2: 004 "Rare Unit": "a unit with this skill cannot be brought back into play
// for any reason (including by a Command Squad) after it has been destroyed".
#[test]
fn come_on_guys_004_never_a_rare_unit() {
    let rare = with_skill(grenadier_squad(), "rare-unit", None);
    let mut st = game_under(
        "ffg-revised",
        vec![unit("cs", "cs", Some("E5")), unit("gren", "gr", Some("E4"))],
        vec![unit("x1", "sq", Some("I1"))],
        vec![command_squad_card("cs", 2), rare, squad("sq")],
    );
    let x = st.unit_mut("gren").unwrap();
    x.destroyed = true;
    x.at = None;
    x.health = 0;
    x.models.clear();
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("come-on-guys", "gren"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(refused(&out).0.contains("Rare Unit"), "{:?}", refused(&out));
    assert_eq!(st, before);
}
