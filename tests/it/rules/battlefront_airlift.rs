//! Issue 18 under battlefront-2013: 002 "Carrying Vehicles" (Airlifter, "Activating While
//! Carried", "Damage to Carried Vehicles") and the vehicle equipment Airmobile and Air Assault,
//! rulings R744–R747. Each test is named after 002's section, quotes its sentence, and drives the
//! engine through the order parser with scripted dice (every scripted die used, none more).

use super::battlefront_passengers::aboard;
use super::battlefront_skills::accepted_all;
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::suppression::Token;
use dustmail::dust_tactics::cards::parse_card;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{Game, SetupError};

/// The Carrier: an aircraft (armour 1) with Helicopter and Airlifter, health `health`, Movement
/// 4, quad DShK machine-guns (1 die, range 6).
fn carrier(health: u8) -> Card {
    let mut c = card(
        "carrier",
        UnitType::Vehicle,
        health,
        4,
        vec![weapon("dshk", WeaponRange::Upto(6), 1, 1)],
    );
    c.armour = Armour::Aircraft(1);
    with_skill(with_skill(c, "helicopter", None), "airlifter", None)
}

/// A walker (Vehicle 3, health 3, Movement 2, machine-guns of 2 dice, range 4) with the
/// equipment `equipment` (`air-assault`, `airmobile`, or none).
fn walker(id: &str, equipment: Option<&str>) -> Card {
    let c = card(
        id,
        UnitType::Vehicle,
        3,
        2,
        vec![weapon("mg", WeaponRange::Upto(4), 2, 1)],
    );
    match equipment {
        Some(e) => with_skill(c, e, None),
        None => c,
    }
}

/// A squad whose flak gun fires at aircraft (1 die, range 6, 1 damage).
fn flak_boys() -> Card {
    let mut c = squad("flak-boys");
    let mut flak = weapon("flak", WeaponRange::Upto(6), 1, 1);
    flak.aircraft = [dice(1, 1); 3];
    c.weapons = vec![flak];
    c
}

/// A battlefront-2013 game on the 9×9 board: allies `allies`, the axis Flak Boys on E3 and a
/// spare squad on I1; the cards `carrier(health)`, the walkers `nastasia` (Air Assault), `mobile`
/// (Airmobile) and `plain` (neither); nobody reacts; allies activate first.
fn try_game(allies: Vec<UnitSpec>, health: u8) -> Result<State, SetupError> {
    let axis = vec![
        unit("flak-boys", "flak-boys", Some("E3")),
        unit("spare-x", "sq", Some("I1")),
    ];
    let cards = vec![
        carrier(health),
        walker("nastasia", Some("air-assault")),
        walker("mobile", Some("airmobile")),
        walker("plain", None),
        flak_boys(),
        squad("sq"),
    ];
    let mut st = DustTactics.start("battlefront-2013", scenario(allies, axis), cards)?;
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    Ok(st)
}

/// [`try_game`] with the Carrier (health `health`) on E6 carrying `walker`, an allied spare on A9.
fn carried(walker: &str, health: u8) -> State {
    try_game(
        vec![
            unit("carrier", "carrier", Some("E6")),
            aboard(unit(walker, walker, None), "carrier"),
            unit("spare-a", "sq", Some("A9")),
        ],
        health,
    )
    .expect("setup")
}

// 002 "Airlifter": "Airlifters are Aircraft that are equipped to airlift Vehicles into battle. An
// Airlifter can only carry Airmobile or Air Assault Vehicles." "Vehicles can begin the game
// carried by the Airlifter". The Carrier begins the game carrying an Airmobile or an Air Assault
// walker, off the board inside it; a walker with neither is refused, and so is a second vehicle
// (it carries one, R745).
#[test]
fn s002_carrying_vehicles_an_airlifter_carries_one_airmobile_or_air_assault_vehicle() {
    for w in ["nastasia", "mobile"] {
        let st = carried(w, 3);
        assert_eq!(u(&st, w).aboard.as_deref(), Some("carrier"));
        assert_eq!(u(&st, w).at, None);
    }
    let e = try_game(
        vec![
            unit("carrier", "carrier", Some("E6")),
            aboard(unit("plain", "plain", None), "carrier"),
        ],
        3,
    )
    .unwrap_err();
    assert!(
        e.0.contains("only carries Airmobile or Air Assault vehicles")
            && e.0.contains("002 'Carrying Vehicles'"),
        "{e:?}"
    );
    let e = try_game(
        vec![
            unit("carrier", "carrier", Some("E6")),
            aboard(unit("nastasia", "nastasia", None), "carrier"),
            aboard(unit("mobile", "mobile", None), "carrier"),
        ],
        3,
    )
    .unwrap_err();
    assert!(e.0.contains("already carries a vehicle"), "{e:?}");
}

// 002 "Airlifter": "To pick up a Vehicle, the Airlifter must start a Move or March Move Action
// directly over the Vehicle." The vehicle does not climb in by itself: 004's `move … board` of a
// vehicle into an Airlifter is refused, citing the sentence, and nothing changes (R745).
#[test]
fn s002_carrying_vehicles_a_vehicle_does_not_board_an_airlifter_by_itself() {
    let mut st = try_game(
        vec![
            unit("carrier", "carrier", Some("E6")),
            unit("mobile", "mobile", Some("E7")),
        ],
        3,
    )
    .expect("setup");
    let before = st.clone();
    let out = play(
        &mut st,
        "allies",
        "activate mobile\n  move board carrier\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("the Airlifter picks it up"), "{reason}");
    assert!(
        rule.contains("must start a Move or March Move Action directly over the Vehicle"),
        "{rule}"
    );
    assert!(st == before, "the refusal changed the game");
}

// 002 "Damage to Carried Vehicles": "A Vehicle carried by an Airlifter cannot be targeted by an
// attack." The Flak Boys' attack at the carried walker is refused; the Carrier is a target.
#[test]
fn s002_carrying_vehicles_a_carried_vehicle_cannot_be_targeted() {
    let mut st = carried("mobile", 3);
    play(
        &mut st,
        "allies",
        "activate spare-a\n  nothing\n  nothing",
        &[],
    );
    let before = st.clone();
    let out = play(
        &mut st,
        "axis",
        "activate flak-boys\n  attack flak at mobile\n  nothing",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(
        reason.contains("mobile is not on the board: it is inside carrier"),
        "{reason}"
    );
    assert!(st == before, "the refusal changed the game");
}

// 002 "Activating While Carried": "Vehicles carried by an Airlifter Activate separately from the
// Airlifter. Vehicles can dismount from an Airlifter by Activating before the Airlifter ... and
// performing a Move or March Move Action to move away from the Airlifter. Other than this, they
// cannot perform Move, March Move, Attack, or Sustained Attack Actions while being carried by an
// Airlifter." The Airmobile walker may not attack from the Carrier; it dismounts onto E7, next
// to it, before the Carrier activates, then attacks (R746).
#[test]
fn s002_carrying_vehicles_an_airmobile_vehicle_dismounts_before_the_airlifter_activates() {
    let mut st = carried("mobile", 3);
    // The template offers the dismount (R746), and no attack from the Carrier.
    let template = DustTactics.orders_template(&st, "allies");
    let at = template
        .find("# activate mobile")
        .expect("a block for mobile");
    let block: Vec<&str> = template[at..]
        .lines()
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !l.starts_with("# activate"))
        .map(|(_, l)| l)
        .collect();
    let block = block.join("\n");
    assert!(block.contains("carried by carrier"), "{block}");
    assert!(block.contains("move exit"), "{block}");
    assert!(!block.contains("attack mg"), "{block}");
    let before = st.clone();
    let out = play(
        &mut st,
        "allies",
        "activate mobile\n  attack mg at flak-boys\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("carried by carrier"), "{reason}");
    assert!(rule.contains("Activating While Carried"), "{rule}");
    assert!(st == before, "the refusal changed the game");
    let out = play(
        &mut st,
        "allies",
        "activate mobile\n  move E7\n  nothing",
        &[],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "mobile").aboard, None, "{t}");
    assert_eq!(u(&st, "mobile").at, Some(sq("E7")), "{t}");
}

// 002 "Activating While Carried": an Airmobile vehicle dismounts "by Activating before the
// Airlifter"; once the Carrier has activated, the walker's dismount is refused and it stays
// carried this turn (R746).
#[test]
fn s002_carrying_vehicles_an_airmobile_vehicle_cannot_dismount_after_the_airlifter() {
    let mut st = carried("mobile", 3);
    let out = play(
        &mut st,
        "allies",
        "activate carrier\n  move E5\n  nothing",
        &[],
    );
    assert!(accepted_all(&out), "{}", texts(&out));
    play(
        &mut st,
        "axis",
        "activate spare-x\n  nothing\n  nothing",
        &[],
    );
    let before = st.clone();
    let out = play(
        &mut st,
        "allies",
        "activate mobile\n  move E6\n  nothing",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(
        reason.contains("has already activated this turn"),
        "{reason}"
    );
    assert!(st == before, "the refusal changed the game");
    let out = play(
        &mut st,
        "allies",
        "activate mobile\n  nothing\n  nothing",
        &[],
    );
    assert!(accepted_all(&out), "{}", texts(&out));
    assert_eq!(u(&st, "mobile").aboard.as_deref(), Some("carrier"));
}

// 002 "Airlifter" example: "A Carrier helicopter carrying a Nastasia air assault walker moves
// close to the Flak Boys and attacks them with its quad 12.7mm DShK machine-guns. ... Being an
// Air Assault Vehicle, the Nastasia can activate after the Carrier and dismount. It performs a
// Move action to dismount then attacks the Flak Boys with its eight machine-guns." 002 "Air
// Assault": "It can Activate after the Airlifter, performing a Move or March Move Action and
// dismounting as its first Action." (R746)
#[test]
fn s002_vehicle_equipment_air_assault_the_nastasia_dismounts_after_the_carrier_and_attacks() {
    let mut st = carried("nastasia", 3);
    let out = play(
        &mut st,
        "allies",
        "activate carrier\n  move E5\n  attack dshk at flak-boys",
        // The DShK's die: army; the Flak Boys' Infantry Save: shield (fails).
        &[1, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "flak-boys").models.len(), 3, "{t}");
    assert_eq!(u(&st, "nastasia").aboard.as_deref(), Some("carrier"));
    play(
        &mut st,
        "axis",
        "activate spare-x\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "allies",
        "activate nastasia\n  move E4\n  attack mg at flak-boys",
        // The machine-guns' two dice: army, army; two Infantry Saves: shield, shield.
        &[1, 2, 5, 6],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "nastasia").aboard, None, "{t}");
    assert_eq!(u(&st, "nastasia").at, Some(sq("E4")), "{t}");
    assert_eq!(u(&st, "flak-boys").models.len(), 1, "{t}");
}

/// The Carrier (health 1) on E6 carrying `walker`; the allies pass, then the Flak Boys shoot the
/// Carrier down with one army of four dice; `wreck` are the dice rolled for the walker.
fn shot_down(walker: &str, wreck: &[u8]) -> (State, String) {
    let mut st = carried(walker, 1);
    play(
        &mut st,
        "allies",
        "activate spare-a\n  nothing\n  nothing",
        &[],
    );
    // The four Flak Boys' dice: army, shield, shield, shield: 1 damage, no save.
    let mut faces = vec![1, 5, 5, 5];
    faces.extend_from_slice(wreck);
    let out = play(
        &mut st,
        "axis",
        "activate flak-boys\n  attack flak at carrier\n  nothing",
        &faces,
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(u(&st, "carrier").destroyed, "{t}");
    (st, t)
}

// 002 "Damage to Carried Vehicles": "If an Airlifter is eliminated while carrying a Vehicle, the
// Airlifter's player rolls one die for each point of Damage remaining on the Vehicle's Damage
// Track. The Vehicle takes one point of Damage for each [army] or [target] result ... If the
// Vehicle survives, place it directly beneath the Airlifter before removing the Airlifter from
// the game. The Vehicle gains a Suppressed token and counts as having Activated for this turn."
// The Airmobile walker has 3 damage points left: three dice, army, target, shield: 2 damage
// (R744's reading of the lost symbols, R747); it stands on E6, Suppressed, activated.
#[test]
fn s002_carrying_vehicles_damage_an_eliminated_airlifter_damages_its_vehicle_on_army_or_target() {
    let (st, t) = shot_down("mobile", &[1, 3, 5]);
    let m = u(&st, "mobile");
    assert_eq!(m.health, 1, "{t}");
    assert_eq!(m.aboard, None, "{t}");
    assert_eq!(m.at, Some(sq("E6")), "{t}");
    assert!(m.activated, "{t}");
    assert_eq!(m.suppression, Some(Token::Suppressed), "{t}");
    assert!(t.contains("Damage to Carried Vehicles"), "{t}");
}

// 002 "Damage to Carried Vehicles": "(only on a [army] if the Vehicle has Air Assault equipment,
// see page 104)"; 002 "Air Assault": "if the Aircraft carrying the Air Assault Vehicle is
// eliminated, it only takes damage on rolls of [army]". The same three dice, army, target,
// shield, cost the Nastasia 1 damage (R744, R747).
#[test]
fn s002_vehicle_equipment_air_assault_takes_damage_only_on_army_when_its_airlifter_falls() {
    let (st, t) = shot_down("nastasia", &[1, 3, 5]);
    let n = u(&st, "nastasia");
    assert_eq!(n.health, 2, "{t}");
    assert_eq!(n.at, Some(sq("E6")), "{t}");
    assert_eq!(n.suppression, Some(Token::Suppressed), "{t}");
}

// 002 "Airlifter": "Airlifters are Aircraft"; "Vehicle Equipment": "An Airmobile Vehicle", "An
// Air Assault Vehicle". The three are accepted on the right card (R745) and refused, naming 002,
// on another: Airlifter on a ground vehicle, Airmobile and Air Assault on an aircraft.
#[test]
fn s002_carrying_vehicles_airlifter_airmobile_and_air_assault_are_read_on_their_cards() {
    for (id, armour, ok) in [
        ("airlifter", "armour = { aircraft = 1 }", true),
        ("airlifter", "", false),
        ("airmobile", "", true),
        ("air-assault", "", true),
        ("airmobile", "armour = { aircraft = 1 }", false),
        ("air-assault", "armour = { aircraft = 1 }", false),
    ] {
        let (f, t) = super::battlefront_skills002::card_with(
            "bf-pounder",
            &format!("[[skills]]\nname = \"{id}\""),
        );
        let t = if armour.is_empty() {
            t
        } else {
            t.replace("armour = { vehicle = 4 }", armour)
        };
        match parse_card(&f, &t) {
            Ok(_) => assert!(ok, "{id} {armour}: accepted"),
            Err(e) => {
                assert!(!ok, "{id} {armour}: {e}");
                assert!(e.reason.contains("002"), "{e}");
            }
        }
    }
}

/// The Carrier on E6 and the Airmobile walker `mobile` on E4, on the board; allies first.
fn apart() -> State {
    try_game(
        vec![
            unit("carrier", "carrier", Some("E6")),
            unit("mobile", "mobile", Some("E4")),
            unit("spare-a", "sq", Some("A9")),
        ],
        3,
    )
    .expect("setup")
}

// 002 "Airlifter": "Vehicles can begin the game carried by the Airlifter, or be picked up by an
// Airlifter during the game. To pick up a Vehicle, the Airlifter must start a Move or March Move
// Action directly over the Vehicle." The Carrier ends a Move over the walker on E4 (003 bars a
// friendly square but for this, R748); a `move lift` there and then is refused (that Move did not
// start over it); in the next turn its `move lift E6` picks the walker up and flies to E6 with it.
// The orders template offers `move lift` only then.
#[test]
fn s002_carrying_vehicles_the_airlifter_picks_up_a_vehicle_by_starting_a_move_over_it() {
    let mut st = apart();
    let before = st.clone();
    let out = play(
        &mut st,
        "allies",
        "activate carrier\n  move lift E5\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("no friendly vehicle beneath carrier"),
        "{reason}"
    );
    assert!(rule.contains("directly over the Vehicle"), "{rule}");
    assert!(st == before, "the refusal changed the game");
    let out = play(
        &mut st,
        "allies",
        "activate carrier\n  move E4\n  move lift E6",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("second Move of a March Move"), "{reason}");
    let out = play(
        &mut st,
        "allies",
        "activate carrier\n  move E4\n  nothing",
        &[],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert_eq!(u(&st, "carrier").at, Some(sq("E4")), "{t}");
    assert_eq!(u(&st, "mobile").at, Some(sq("E4")), "{t}");
    assert_eq!(flow::illegal_positions(&st), Vec::<String>::new());
    let template = DustTactics.orders_template(&st, "allies");
    assert!(!template.contains("move lift"), "{template}");
    next_round(&mut st);
    let template = DustTactics.orders_template(&st, "allies");
    assert!(template.contains("move lift"), "{template}");
    let out = play(
        &mut st,
        "allies",
        "activate carrier\n  move lift E6\n  nothing",
        &[],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("carrier picks up mobile"), "{t}");
    assert_eq!(u(&st, "carrier").at, Some(sq("E6")), "{t}");
    assert_eq!(u(&st, "mobile").aboard.as_deref(), Some("carrier"), "{t}");
    assert_eq!(u(&st, "mobile").at, None, "{t}");
}

// 002 "Airlifter": "An Airlifter can only carry Airmobile or Air Assault Vehicles." The Carrier
// may not stop over a walker with neither equipment (003: "no unit may end its move in the same
// square as another friendly unit"), so it never picks it up (R748).
#[test]
fn s002_carrying_vehicles_the_airlifter_does_not_stop_over_a_vehicle_it_cannot_carry() {
    let mut st = try_game(
        vec![
            unit("carrier", "carrier", Some("E6")),
            unit("plain", "plain", Some("E4")),
        ],
        3,
    )
    .expect("setup");
    let before = st.clone();
    let out = play(
        &mut st,
        "allies",
        "activate carrier\n  move E4\n  nothing",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("occupied by plain"), "{reason}");
    assert!(st == before, "the refusal changed the game");
}

// The provisional cards of games/dust-tactics/cards-battlefront-airlift/ (the Mil Mi-48 'Carrier',
// an Airlifter; the Nastasia, an Air Assault walker) in their scenario "Air Assault", played to
// its end by two players' signed mails: the Carrier begins carrying the Nastasia (002 "Vehicles
// can begin the game carried by the Airlifter"), the Nastasia dismounts as it activates (R746);
// the game ends and replays byte for byte.
#[test]
fn s002_carrying_vehicles_the_air_assault_scenario_is_played_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let dir = tempfile::tempdir().unwrap();
    let (home, env) = dt::play_cards_to_end(
        dir.path(),
        "battlefront-2013",
        ("cards-battlefront-airlift", "air-assault"),
        ("g-airlift", 23),
        |_| Style::Aggressive,
    );
    let g = env.load("g-airlift");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    assert!(
        sent.contains("nastasia exits carrier"),
        "the Nastasia never dismounted: {tail}"
    );
    dt::replay_and_audit(&home, "g-airlift");
}
