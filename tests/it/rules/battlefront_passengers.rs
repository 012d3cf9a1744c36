//! Issue 18 under battlefront-2013: 002 "Carrying Passengers" (page 106) and "Tank Riders (#)",
//! rulings R732–R749. Each test is named after 002's section, quotes its sentence, and drives the
//! engine through the order parser with scripted dice (every scripted die used, none more).

use super::battlefront_skills::accepted_all;
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::suppression::Token;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::Game;

/// A vehicle carrying soldiers by `skill` (`carry-capacity` is 002's Passengers (#), or
/// `tank-riders`) with `cap` spaces: Vehicle 3, health `health`, Movement 2, a machine-gun.
pub(super) fn carrier(id: &str, skill: &str, cap: u8, health: u8) -> Card {
    let mut c = with_skill(
        card(
            id,
            UnitType::Vehicle,
            health,
            2,
            vec![weapon("mg", WeaponRange::Upto(6), 1, 1)],
        ),
        skill,
        None,
    );
    c.skills.last_mut().unwrap().value = Some(cap);
    c
}

/// A four-soldier squad of armour `armour` (Movement 1): a gun (1/1, range 4) every soldier
/// fires, a flamer (range 2), knives (range C) and one soldier's pistol (range 4).
pub(super) fn troops(id: &str, armour: u8) -> Card {
    let mut c = squad(id);
    c.armour = Armour::Soldier(armour);
    let mut flamer = weapon("flamer", WeaponRange::Upto(2), 1, 1);
    flamer.traits = vec![WeaponTrait::Flamethrower];
    flamer.carriers = Some(1);
    c.weapons.push(flamer);
    c.weapons.push(weapon("knives", WeaponRange::Close, 1, 1));
    let mut pistol = weapon("pistol", WeaponRange::Upto(4), 1, 1);
    pistol.carriers = Some(1);
    c.weapons.push(pistol);
    c
}

pub(super) fn aboard(mut spec: UnitSpec, vehicle: &str) -> UnitSpec {
    spec.aboard = Some(vehicle.into());
    spec
}

/// A battlefront-2013 game on the 9×9 board: allies `allies` (the carrier `apc`, card `apc`, on
/// E6 facing north among them), axis `theirs` on E2, a spare far off and `extra`; nobody reacts;
/// allies activate first.
pub(super) fn game(allies: Vec<UnitSpec>, apc: Card, extra: Vec<UnitSpec>) -> State {
    game_with(allies, apc, extra, vec![])
}

/// [`game`] with the cards `more` besides.
fn game_with(allies: Vec<UnitSpec>, apc: Card, extra: Vec<UnitSpec>, more: Vec<Card>) -> State {
    let mut axis = vec![
        unit("theirs", "sq", Some("E2")),
        unit("spare-x", "sq", Some("I1")),
    ];
    axis.extend(extra);
    let mut cards = vec![apc, troops("grens", 2), troops("heavy", 3), squad("sq")];
    cards.extend(more);
    let mut st = DustTactics
        .start("battlefront-2013", scenario(allies, axis), cards)
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// [`game`] with `grens` (four soldiers of armour 2) inside the carrier `apc` of `cap` spaces
/// and health `health` on E6 or on E7 beside it, `heavy` (four of armour 3) on D7, an allied
/// spare on A8 and the axis squad `near` on E5, in front of the carrier.
fn passengers(cap: u8, health: u8, inside: bool) -> State {
    let grens = if inside {
        aboard(unit("grens", "grens", None), "apc")
    } else {
        unit("grens", "grens", Some("E7"))
    };
    game(
        vec![
            unit("apc", "apc", Some("E6")),
            grens,
            unit("heavy", "heavy", Some("D7")),
            unit("spare-a", "sq", Some("A8")),
        ],
        carrier("apc", "carry-capacity", cap, health),
        vec![unit("near", "sq", Some("E5"))],
    )
}

// 002 "Passengers (#)": "The number in brackets (#) indicates how many spaces it has for
// soldiers with Infantry Armour rating 1 or 2. Soldiers with Infantry Armour rating 3 or 4
// occupy two spaces." Four armour 3 soldiers need 8 of the 6 spaces: refused, nothing changes;
// four armour 2 soldiers fit (R732).
#[test]
fn s002_passengers_armour_3_and_4_soldiers_occupy_two_spaces() {
    let mut st = passengers(6, 3, false);
    let (reason, _) = refused_unchanged(&mut st, "allies", "activate heavy\n  move E6\n  nothing");
    assert!(reason.contains("needs 8 place(s) in apc"), "{reason}");
    let out = play(
        &mut st,
        "allies",
        "activate grens\n  move E6\n  nothing",
        &[],
    );
    assert!(accepted_all(&out), "{}", texts(&out));
    assert_eq!(u(&st, "grens").aboard.as_deref(), Some("apc"));
    assert_eq!(u(&st, "grens").at, None);
}

// 002 "Mounting Vehicles": "To mount a Vehicle, an Infantry Unit must move into contact with the
// Vehicle. In *Dust Tactics*, this requires the Unit to move into the Vehicle's square." The
// Tiger Claws example: they "move to the Assaulter helicopter and mount ... They then attack".
// 002 "Activating While Mounted": "with up to half of the maximum number of Passengers firing
// from each side": of four soldiers in a vehicle of 6, three fire (3 dice, R732, R735).
#[test]
fn s002_passengers_mount_by_moving_into_the_vehicles_square_then_fire_half_the_capacity() {
    let mut st = passengers(6, 3, false);
    let out = play(
        &mut st,
        "allies",
        "activate grens\n  move E6\n  attack gun at theirs",
        // Three dice: army, shield, shield (one hit); the Infantry Save rolls a shield.
        &[1, 5, 5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("board apc"), "{t}");
    assert_eq!(u(&st, "grens").aboard.as_deref(), Some("apc"));
    assert_eq!(u(&st, "theirs").models.len(), 3, "{t}");
}

// 002 "Damage to Passengers": "Once mounted, the Passengers cannot be targeted by an attack."
#[test]
fn s002_passengers_cannot_be_targeted_once_mounted() {
    let mut st = passengers(6, 3, true);
    play(
        &mut st,
        "allies",
        "activate heavy\n  nothing\n  nothing",
        &[],
    );
    let (reason, _) = refused_unchanged(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at grens\n  nothing",
    );
    assert!(
        reason.contains("grens is not on the board: it is inside apc"),
        "{reason}"
    );
}

// 002 "Activating While Mounted": "Passengers mounted in a Vehicle Activate separately from the
// Vehicle. Passengers can dismount from a Vehicle by Activating before the Vehicle Activates and
// performing a Move or March Move Action to move away from the Vehicle." A March Move: the first
// move leaves the vehicle's square, the second goes on; the vehicle keeps its activation (R733).
#[test]
fn s002_passengers_dismount_before_the_vehicle_activates_with_a_march_move() {
    let mut st = passengers(6, 3, true);
    let out = play(
        &mut st,
        "allies",
        "activate grens\n  move F7\n  move G8",
        &[],
    );
    assert!(accepted_all(&out), "{}", texts(&out));
    let g = u(&st, "grens");
    assert_eq!((g.at, g.aboard.as_deref()), (Some(sq("G8")), None));
    assert!(!u(&st, "apc").activated, "the vehicle keeps its activation");
}

// 002 "Activating While Mounted": dismounting is "by Activating before the Vehicle Activates":
// once the vehicle has activated this turn, a dismount is refused and changes nothing (R733).
#[test]
fn s002_passengers_cannot_dismount_once_the_vehicle_has_activated() {
    let mut st = passengers(6, 3, true);
    let out = play(&mut st, "allies", "activate apc\n  move F5\n  nothing", &[]);
    assert!(accepted_all(&out), "{}", texts(&out));
    play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &[],
    );
    let (reason, rule) =
        refused_unchanged(&mut st, "allies", "activate grens\n  move F6\n  nothing");
    assert!(
        reason.contains("apc has already activated this turn"),
        "{reason}"
    );
    assert!(rule.contains("002 \"Carrying Passengers\""), "{rule}");
}

// 002 "Activating While Mounted": "Other than this, they cannot perform Move or March Move
// Actions while being carried as Passengers." A move after an attack from inside is refused;
// an attack and a Nothing are played from the vehicle's square, where the vehicle moved (R733).
#[test]
fn s002_passengers_activate_separately_and_fire_from_where_the_vehicle_moved() {
    let mut st = passengers(10, 3, true);
    let (reason, _) = refused_unchanged(
        &mut st,
        "allies",
        "activate grens\n  attack gun at theirs\n  move F7",
    );
    assert!(
        reason.contains("line 2 moves grens, which is carried in apc"),
        "{reason}"
    );
    // theirs on E1 is 5 squares from E6, out of the gun's range 4; the vehicle moves to F5.
    let out = play(&mut st, "allies", "activate apc\n  move F5\n  nothing", &[]);
    assert!(accepted_all(&out), "{}", texts(&out));
    play(
        &mut st,
        "axis",
        "activate theirs\n  move E1\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "allies",
        "activate grens\n  attack gun at theirs\n  nothing",
        // Four soldiers, 10 spaces: all four fire; two hits, two failed saves.
        &[1, 2, 5, 5, 5, 6],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 2, "{t}");
    assert_eq!(u(&st, "grens").aboard.as_deref(), Some("apc"));
}

// 002 "Activating While Mounted": "Passengers cannot perform Sustained Attack Actions, nor use
// Support Weapons, Flame Weapons, or Close-Combat Weapons while mounted." Each is refused
// citing 002 and changes nothing (R734).
#[test]
fn s002_passengers_make_no_sustained_attack_and_fire_no_flame_or_close_combat_weapon() {
    let mut st = passengers(10, 3, true);
    for (orders, says) in [
        (
            "activate grens\n  sustained gun at theirs",
            "passengers make no Sustained Attack",
        ),
        (
            "activate grens\n  attack flamer at near\n  nothing",
            "is a flame weapon",
        ),
        (
            "activate grens\n  attack knives at near\n  nothing",
            "is a close-combat weapon",
        ),
    ] {
        let (reason, rule) = refused_unchanged(&mut st, "allies", orders);
        assert!(reason.contains(says), "{orders}: {reason}");
        assert!(
            rule.contains("Close-Combat Weapons while mounted"),
            "{rule}"
        );
    }
}

// 002 "Activating While Mounted": "Passengers' weapons have the Field of Fire of a Side-mounted
// weapon, with up to half of the maximum number of Passengers firing from each side." One attack
// fires from one side of the vehicle (facing north on E6): lines at C6 (west) and G6 (east) are
// refused together; lines at one side are played (R735).
#[test]
fn s002_passengers_fire_from_one_side_of_the_vehicle_at_a_time() {
    let mut st = game(
        vec![
            unit("apc", "apc", Some("E6")),
            aboard(unit("grens", "grens", None), "apc"),
        ],
        carrier("apc", "carry-capacity", 10, 3),
        vec![
            unit("west", "sq", Some("C6")),
            unit("east", "sq", Some("G6")),
        ],
    );
    let (reason, rule) = refused_unchanged(
        &mut st,
        "allies",
        "activate grens\n  attack gun at west, pistol at east\n  nothing",
    );
    assert!(reason.contains("both sides of apc (facing N)"), "{reason}");
    assert!(rule.contains("Side-mounted"), "{rule}");
    let out = play(
        &mut st,
        "allies",
        "activate grens\n  attack pistol at west, gun at west\n  nothing",
        // One pistol die, then three gun dice (each of the four soldiers fires one weapon an
        // Attack from rules revision 10: 003 "Soldiers with Several Weapons", R677), no hit.
        &[6, 5, 5, 5],
    );
    assert!(accepted_all(&out), "{}", texts(&out));
}

// 002 "Damage to Passengers": "If a Vehicle is eliminated while carrying Passengers, the
// Vehicle's owner rolls one die for each miniature mounted in it. One miniature chosen by the
// player is eliminated or one Hero suffers a point of Damage for each [army] result. The Unit
// gains a Suppressed token and counts as having Activated for this turn." "In *Dust Tactics*,
// any surviving miniatures in the Unit are placed into any square the Vehicle occupied" (R736).
#[test]
fn s002_passengers_roll_a_die_each_when_the_vehicle_is_eliminated_then_are_suppressed() {
    let mut st = passengers(6, 1, true);
    play(
        &mut st,
        "allies",
        "activate heavy\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at apc\n  nothing",
        // Four gun dice: one army (the apc's only point); then four dice for the passengers:
        // army, army, target, shield: two soldiers lost.
        &[1, 5, 5, 5, 1, 2, 3, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(u(&st, "apc").destroyed, "{t}");
    assert!(t.contains("4 dice"), "{t}");
    assert!(t.contains("2 army symbol(s)"), "{t}");
    let g = u(&st, "grens");
    assert_eq!(
        (g.models.len(), g.at, g.aboard.as_deref()),
        (2, Some(sq("E6")), None),
        "{t}"
    );
    assert_eq!(g.suppression, Some(Token::Suppressed), "{t}");
    assert!(
        g.activated,
        "the passengers count as having activated this turn"
    );
    // Counting as activated, grens cannot activate this turn.
    let out = play(
        &mut st,
        "allies",
        "activate grens\n  nothing\n  nothing",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("already activated"), "{reason}");
}

// 002 "Zombie": "A Zombie Unit can never mount a Vehicle or Aircraft as Passengers or Tank
// Riders (see page 104)." Its move into the carrier's square is refused citing 002 and changes
// nothing; a scenario beginning it aboard is refused at setup (R737).
#[test]
fn s002_passengers_a_zombie_unit_never_mounts() {
    let zeds = with_skill(troops("zeds", 2), "zombie", None);
    let apc = carrier("apc", "carry-capacity", 6, 3);
    let allies = vec![
        unit("apc", "apc", Some("E6")),
        unit("zeds", "zeds", Some("E7")),
        unit("spare-a", "sq", Some("A8")),
    ];
    let axis = vec![unit("theirs", "sq", Some("E2"))];
    let cards = vec![apc.clone(), zeds.clone(), squad("sq")];
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            scenario(allies, axis.clone()),
            cards.clone(),
        )
        .expect("setup");
    begin(&mut st, "allies");
    let (reason, rule) =
        refused_unchanged(&mut st, "allies", "activate zeds\n  move E6\n  nothing");
    assert!(reason.contains("zeds is a Zombie unit"), "{reason}");
    assert!(rule.contains("002 \"Zombie\""), "{rule}");
    let inside = vec![
        unit("apc", "apc", Some("E6")),
        aboard(unit("zeds", "zeds", None), "apc"),
    ];
    let e = DustTactics
        .start("battlefront-2013", scenario(inside, axis), cards)
        .expect_err("a zombie begins aboard");
    assert!(e.0.contains("002 \"Zombie\""), "{}", e.0);
}

/// [`game`] with `grens` riding the Tank Riders vehicle `tank` (6 spaces, health `health`) on
/// E6, `heavy` on D7, an allied spare on A8 and the axis squad `near` on E5, in front of it.
fn riders(health: u8) -> State {
    game(
        vec![
            unit("apc", "apc", Some("E6")),
            aboard(unit("grens", "grens", None), "apc"),
            unit("heavy", "heavy", Some("D7")),
            unit("spare-a", "sq", Some("A8")),
        ],
        carrier("apc", "tank-riders", 6, health),
        vec![unit("near", "sq", Some("E5"))],
    )
}

// 002 "Tank Riders (#)": "This operates like a Vehicle carrying Passengers (see page 106), except
// that for each Hit on the Vehicle, the Vehicle's owner rolls one additional die. For each
// [army] result, one miniature chosen by the player is eliminated or one Hero suffers a point
// of Damage." Two hits on the vehicle: two more dice, one army: one rider lost (R740).
#[test]
fn s002_tank_riders_each_hit_on_the_vehicle_rolls_an_extra_die_for_the_riders() {
    let mut st = riders(3);
    play(
        &mut st,
        "allies",
        "activate heavy\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at apc\n  nothing",
        // Four gun dice: army, army, shield, shield (two hits, no save in the open); the
        // riders' two dice: army, target.
        &[1, 2, 5, 5, 1, 3],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "apc").health, 1, "{t}");
    assert_eq!(u(&st, "grens").models.len(), 3, "{t}");
    assert!(t.contains("Tank Riders: 2 extra dice"), "{t}");
}

// 002 "Tank Riders (#)": "A Unit riding on a Vehicle can be targeted by an attack instead of the
// Vehicle. Use the Vehicle as the target to determine Field of Fire, Range, Line of Sight, and
// Cover." The riders are attacked on the vehicle's square, with their own armour and save
// (R740).
#[test]
fn s002_tank_riders_may_be_targeted_instead_of_the_vehicle() {
    let mut st = riders(3);
    play(
        &mut st,
        "allies",
        "activate heavy\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at grens\n  nothing",
        // Four dice: one army; the rider's Infantry Save rolls a shield.
        &[1, 5, 5, 5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "grens").models.len(), 3, "{t}");
    assert_eq!(u(&st, "apc").health, 3, "{t}");
}

// 002 "Tank Riders (#)": "Unlike other Passengers, Units riding on Vehicles using the Tank Rider
// rule can use Close-Combat weapons." From the vehicle's square, three of the four riders (half
// of 6 spaces) strike the squad in front with their knives; flame stays refused (R741).
#[test]
fn s002_tank_riders_may_use_close_combat_weapons() {
    let mut st = riders(3);
    let (reason, _) = refused_unchanged(
        &mut st,
        "allies",
        "activate grens\n  attack flamer at near\n  nothing",
    );
    assert!(reason.contains("is a flame weapon"), "{reason}");
    let out = play(
        &mut st,
        "allies",
        "activate grens\n  attack knives at near\n  nothing",
        // Three knife dice: army, shield, shield: one hit, no save in close combat.
        &[1, 5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "near").models.len(), 3, "{t}");
    assert_eq!(u(&st, "grens").aboard.as_deref(), Some("apc"));
}

// 002 "Tank Riders (#)": "This operates like a Vehicle carrying Passengers": when the vehicle is
// eliminated the riders roll a die each, one lost for each army symbol, and are Suppressed (002
// "Damage to Passengers"), not 004's hit face for each (R468, R742).
#[test]
fn s002_tank_riders_an_eliminated_vehicle_rolls_for_its_riders_as_for_passengers() {
    let mut st = riders(1);
    play(
        &mut st,
        "allies",
        "activate heavy\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at apc\n  nothing",
        // One hit destroys it; the riders' extra die (shield); the wreck's four dice: army,
        // target, target, shield: one rider lost.
        &[1, 5, 5, 5, 6, 1, 3, 4, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("1 army symbol(s)"), "{t}");
    let g = u(&st, "grens");
    assert_eq!((g.models.len(), g.at), (3, Some(sq("E6"))), "{t}");
    assert_eq!(g.suppression, Some(Token::Suppressed), "{t}");
}

// 002 "Tank Riders (#)": "If the Vehicle is attacked by Blast or Flame weapons, both the Vehicle
// and the Unit riding on a Vehicle are attacked separately, and the Infantry Unit does not
// suffer additional Hits if the Vehicle is Hit." A flamer at the vehicle rolls at the vehicle
// and at its riders, and no extra die follows its hit on the vehicle (R474, R740).
#[test]
fn s002_tank_riders_a_flame_weapon_attacks_the_vehicle_and_its_riders_separately() {
    let mut st = game(
        vec![
            unit("apc", "apc", Some("E6")),
            aboard(unit("grens", "grens", None), "apc"),
            unit("spare-a", "sq", Some("A8")),
        ],
        carrier("apc", "tank-riders", 6, 3),
        vec![unit("burners", "grens", Some("E4"))],
    );
    play(
        &mut st,
        "allies",
        "activate spare-a\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "axis",
        "activate burners\n  attack flamer at apc\n  nothing",
        // One flame die at the vehicle (army), one at its riders (army); no extra die.
        &[1, 1],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("flamer (1 carrier) at grens"), "{t}");
    assert!(!t.contains("extra dice"), "{t}");
    assert_eq!(u(&st, "apc").health, 2, "{t}");
    assert_eq!(u(&st, "grens").models.len(), 3, "{t}");
}

// 002 "Tank Riders (#)": "If the Vehicle is attacked by Blast ... weapons, both the Vehicle and
// the Unit riding on a Vehicle are attacked separately". A blast line (003 "Blast Weapons": one
// die for each model of the target, `1/+`) at the vehicle rolls one die at it and one for each
// of the four riders (R740).
#[test]
fn s002_tank_riders_a_blast_weapon_attacks_the_vehicle_and_its_riders_separately() {
    let mut mortar = card(
        "mortar",
        UnitType::Hero,
        3,
        1,
        vec![weapon("mortar", WeaponRange::Upto(6), 1, 1)],
    );
    let w = &mut mortar.weapons[0];
    w.soldier = [Fire::Incendiary { dice: 1 }; 4];
    w.vehicle = [Fire::Incendiary { dice: 1 }; 7];
    let mut st = game_with(
        vec![
            unit("apc", "apc", Some("E6")),
            aboard(unit("grens", "grens", None), "apc"),
            unit("spare-a", "sq", Some("A8")),
        ],
        carrier("apc", "tank-riders", 6, 3),
        vec![unit("mortar", "mortar", Some("E3"))],
        vec![mortar],
    );
    play(
        &mut st,
        "allies",
        "activate spare-a\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "axis",
        "activate mortar\n  attack mortar at apc\n  nothing",
        // One die at the vehicle (army: 1 damage); four at the riders: army, shield, shield,
        // shield (one hit), its Infantry Save a shield; no extra die for the vehicle's hit.
        &[1, 1, 5, 5, 5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(!t.contains("extra dice"), "{t}");
    assert_eq!(u(&st, "apc").health, 2, "{t}");
    assert_eq!(u(&st, "grens").models.len(), 3, "{t}");
}

// 002 "Passengers in Aircraft": "An Aircraft equipped to carry Passengers does so in the same way
// that a Vehicle does. The exception is that an Infantry Unit moves onto the Aircraft's base
// rather than its body to mount it." 002 "Mounting an Aircraft": "The Tiger Claws move to the
// Assaulter helicopter and mount ... They then attack the Tommy Cookers with their PPSH-48
// submachine-guns." "When the Assaulter activates, it attacks the Tommy Cookers with its quad
// 12.7mm DShK machine-guns, then moves away." (The SSU are this board's first side.) The Tiger
// Claws end their move on the helicopter's square, mount, and three of them (half its 6 spaces)
// fire; the helicopter (002 "Helicopter": no Move first, R806) attacks, then flies off with
// them (R743).
#[test]
fn s002_passengers_in_aircraft_the_tiger_claws_mount_the_assaulter_and_attack() {
    let mut assaulter = carrier("assaulter", "carry-capacity", 6, 3);
    assaulter.armour = Armour::Aircraft(1);
    assaulter.movement = 4;
    assaulter.weapons = vec![weapon("dshk", WeaponRange::Upto(6), 1, 1)];
    let assaulter = with_skill(assaulter, "helicopter", None);
    let mut claws = squad("tiger-claws");
    claws.weapons = vec![weapon("ppsh", WeaponRange::Upto(3), 1, 1)];
    let mut st = game_with(
        vec![
            unit("assaulter", "assaulter", Some("E6")),
            unit("tiger-claws", "tiger-claws", Some("E7")),
        ],
        squad("unused"),
        vec![unit("tommy-cookers", "sq", Some("E4"))],
        vec![assaulter, claws],
    );
    let out = play(
        &mut st,
        "allies",
        "activate tiger-claws\n  move E6\n  attack ppsh at tommy-cookers",
        // Three dice: army, shield, shield; the Tommy Cookers' Infantry Save: shield.
        &[1, 5, 5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("board assaulter"), "{t}");
    assert_eq!(u(&st, "tiger-claws").aboard.as_deref(), Some("assaulter"));
    assert_eq!(u(&st, "tommy-cookers").models.len(), 3, "{t}");
    play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "allies",
        "activate assaulter\n  attack dshk at tommy-cookers\n  move H6",
        // The DShK's die: shield.
        &[5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "assaulter").at, Some(sq("H6")), "{t}");
    assert_eq!(u(&st, "tiger-claws").aboard.as_deref(), Some("assaulter"));
    assert_eq!(u(&st, "tiger-claws").at, None);
}

// 002 "Passengers (#)" and "Tank Riders (#)" are accepted on a battlefront card at `new`; 002's
// "Carrying Vehicles" are built (the Airlifter, R745; the Sealifter, R776); the Command
// Vehicle is built since R653 and accepted.
#[test]
fn s002_passengers_cards_carry_passengers_and_riders_grenadier_x_stays_refused() {
    use dustmail::dust_tactics::battlefront::skills::check_cards;
    use dustmail::dust_tactics::cards::parse_card;
    let with = |extra: &str| {
        let (f, t) = super::battlefront_skills002::card_with("bf-pounder", extra);
        std::collections::BTreeMap::from([(f, t)])
    };
    for skill in ["carry-capacity", "tank-riders"] {
        let cards = with(&format!("[[skills]]\nname = \"{skill}\"\nvalue = 6"));
        assert_eq!(check_cards(&cards), Ok(()), "{skill}");
    }
    assert_eq!(
        check_cards(&with("[[skills]]\nname = \"command-vehicle\"")),
        Ok(())
    );
    // The Airlifter (R745, battlefront_airlift.rs) and the Sealifter (R776, battlefront_naval.rs)
    // are built; 002's only unbuilt item is Grenadier X, whose text is lost (R820).
    let cards = with("[[skills]]\nname = \"grenadier-x\"");
    let (f, t) = cards.into_iter().next().unwrap();
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("\"Grenadier X\""), "{e}");
}

/// The lines of `unit`'s block in `side`'s orders template (its `activate` line first).
fn block(st: &State, side: &str, unit: &str) -> String {
    let t = DustTactics.orders_template(st, side);
    let at = t
        .find(&format!("# activate {unit} "))
        .unwrap_or_else(|| panic!("no block for {unit}:\n{t}"));
    t[at..]
        .lines()
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !l.starts_with("# activate"))
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n")
}

// 002 "Activating While Mounted": a mounted unit "can dismount ... by Activating before the
// Vehicle Activates"; it fires from the vehicle. The template says so and offers the dismount
// and the attack from the vehicle's square; once the vehicle has activated, no move (R733).
#[test]
fn s002_passengers_the_orders_template_offers_the_dismount_and_the_attack_from_the_vehicle() {
    let mut st = passengers(6, 3, true);
    let b = block(&st, "allies", "grens");
    assert!(b.contains("mounted in apc"), "{b}");
    assert!(b.contains("move exit"), "{b}");
    assert!(b.contains("attack gun at"), "{b}");
    play(&mut st, "allies", "activate apc\n  nothing\n  nothing", &[]);
    play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &[],
    );
    let b = block(&st, "allies", "grens");
    assert!(!b.contains("move"), "{b}");
    assert!(b.contains("attack gun at"), "{b}");
}

// 003 "Piloting Vehicles": "To mount a Vehicle, a unit must move into the Vehicle's square";
// 002 "Mounting Vehicles" the same for passengers. A hero with the Pilot skill who moves into
// the square of a transport that has no pilot pilots it (R607) rather than ride as a passenger
// (R732).
#[test]
fn s002_passengers_a_pilot_moving_into_a_transport_without_a_pilot_pilots_it() {
    let pilot = with_skill(
        card(
            "pilot",
            UnitType::Hero,
            3,
            1,
            vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
        ),
        "pilot",
        None,
    );
    let mut st = game_with(
        vec![
            unit("apc", "apc", Some("E6")),
            unit("pilot", "pilot", Some("E7")),
            unit("spare-a", "sq", Some("A8")),
        ],
        carrier("apc", "carry-capacity", 6, 3),
        vec![],
        vec![pilot],
    );
    let out = play(
        &mut st,
        "allies",
        "activate pilot\n  move E6\n  nothing",
        &[],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    let p = u(&st, "pilot");
    assert_eq!(
        (p.joined.as_deref(), p.aboard.as_deref()),
        (Some("apc"), None),
        "{t}"
    );
}

// 002 "Mounting Vehicles": "Infantry Units can begin the game mounted in the Vehicle"; "Multiple
// Units can board the same Vehicle as long as they do not occupy more spaces than the Vehicle
// has." A scenario beginning four armour 3 soldiers (8 spaces) in a vehicle of 6 is refused at
// setup, citing 002 (R732).
#[test]
fn s002_passengers_a_scenario_cannot_begin_more_soldiers_mounted_than_the_spaces() {
    let cards = vec![
        carrier("apc", "carry-capacity", 6, 3),
        troops("heavy", 3),
        squad("sq"),
    ];
    let allies = vec![
        unit("apc", "apc", Some("E6")),
        aboard(unit("heavy", "heavy", None), "apc"),
    ];
    let axis = vec![unit("theirs", "sq", Some("E2"))];
    let e = DustTactics
        .start("battlefront-2013", scenario(allies, axis), cards)
        .expect_err("8 spaces in 6");
    assert!(e.0.contains("carries 8 soldier place(s)"), "{}", e.0);
    assert!(e.0.contains("002 'Passengers (#)'"), "{}", e.0);
}

// 002 "Mounting Vehicles": "Infantry Units can begin the game mounted in the Vehicle". Mounted in
// a vehicle that has not entered the board yet, a unit neither dismounts nor enters on its own:
// its move is refused and changes nothing; `nothing` twice is accepted (R733).
#[test]
fn s002_passengers_mounted_in_a_vehicle_off_the_board_wait_for_it_to_enter() {
    let mut st = game(
        vec![
            unit("apc", "apc", None),
            aboard(unit("grens", "grens", None), "apc"),
            unit("spare-a", "sq", Some("A8")),
        ],
        carrier("apc", "carry-capacity", 10, 3),
        vec![],
    );
    let (reason, _) = refused_unchanged(&mut st, "allies", "activate grens\n  move E9\n  nothing");
    assert!(
        reason.contains("apc has not entered the battlefield"),
        "{reason}"
    );
    let out = play(
        &mut st,
        "allies",
        "activate grens\n  nothing\n  nothing",
        &[],
    );
    assert!(accepted_all(&out), "{}", texts(&out));
    assert_eq!(u(&st, "grens").aboard.as_deref(), Some("apc"));
    assert_eq!(u(&st, "grens").at, None);
}
