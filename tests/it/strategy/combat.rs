//! dust-strategy's attacks and powers (issue 14, first slice), each test citing 001's section
//! (Italian) and the digest's (English). Helpers: the parent module.

use super::*;

// ---------------------------------------------------------------------------------------------
// Combat: land and amphibious attacks.

/// Dice given in advance (faces 1–2 hit); hidden draws take the first card.
pub(super) struct Faces(pub(super) std::collections::VecDeque<u8>);

impl DiceSource for Faces {
    fn d6(&mut self, _round: u32) -> u8 {
        self.0
            .pop_front()
            .expect("the test scripted fewer dice than the battle rolled")
    }
    fn uniform(&mut self, _round: u32, _n: u32) -> u32 {
        0
    }
    fn hidden(&mut self, _audience: &Audience, _n: u32) -> u32 {
        0
    }
}

pub(super) fn send_rolling(s: &mut State, side: &str, lines: &[&str], faces: &[u8]) -> Outcome {
    let lines: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect();
    let mut d = Faces(faces.iter().copied().collect());
    let o = DustStrategy.submit(s, Sender::side(side), &lines, &mut d);
    assert!(
        d.0.is_empty(),
        "{} scripted faces were not rolled",
        d.0.len()
    );
    o
}

/// Red's tanks and robot at mexico against the neutral tank and robot at caribe.
pub(super) fn red_at_mexico(units: &[(Unit, u32)]) -> State {
    let mut s = two_in_round_one();
    let m = s.areas.get_mut("mexico").unwrap();
    for (u, n) in units {
        m.add("red", *u, *n);
    }
    s
}

/// issue 14 item 1: 001 "Regole di base" (digest 001 §6.2): initiative goes to the attacker only
/// when its total is strictly higher; fire alternates; each hit kills a unit the firer chooses,
/// a robot only once no tank protects it; the survivors take the area.
#[test]
fn a_land_attack_alternates_volleys_with_shielding_and_takes_the_area() {
    // Mexico: 1 tank (setup) + 2 tanks + 1 robot: initiative 1 against the neutrals' 1 (tank +
    // robot): a tie, so the defender fires first.
    let mut s = red_at_mexico(&[(Unit::Tank, 2), (Unit::Robot, 1)]);
    let o = send_rolling(
        &mut s,
        "red",
        &["attack 3 tanks, 1 robot from mexico to caribe"],
        // Neutral: 3 dice (tank 1 + robot 2), one hit: a tank (the robot hides behind tanks).
        // Red: 2 tanks + robot = 4 dice, two hits: the neutral tank, then the robot.
        &[1, 5, 6, 2, 1, 6, 6],
    );
    all_ok(&o);
    let h = &o.happenings[0];
    assert_eq!(h.rolls.len(), 2);
    assert!(
        h.text.contains("neutral fires 3 dice, 1 hit (1 tank lost)"),
        "{}",
        h.text
    );
    assert!(
        h.text
            .contains("red fires 4 dice, 2 hits (1 tank, 1 robot lost)"),
        "{}",
        h.text
    );
    assert_eq!(s.owner("caribe"), Some("red"));
    assert_eq!(s.holding("caribe").units[&Unit::Tank], 2);
    assert!(
        s.owner("mexico").is_none(),
        "the whole garrison attacked (001 'Guarnigioni')"
    );
}

/// issue 14 item 1: 001 "Regole di base" example (digest 001 §6.2): hits kill the last fighter,
/// then the bomber it no longer shields; a robot stays out of reach while a tank stands.
#[test]
fn hits_are_assigned_one_at_a_time_with_protection_checked_again() {
    let mut s = red_at_mexico(&[(Unit::Robot, 2), (Unit::Fighter, 1), (Unit::Bomber, 1)]);
    // Caribe: the neutrals' tank and robot, and 4 more tanks.
    s.areas
        .get_mut("caribe")
        .unwrap()
        .add("neutral", Unit::Tank, 4);
    // Red: 1 tank + 2 robots + fighter + bomber: initiative 4 > 1, so red fires first, 8 dice,
    // no hit; the neutrals (5 tanks, 1 robot: 7 dice) hit 3. The firer's order (bombers first,
    // ruling R314) meets the shields: the fighter shields the bomber and the tank the robots,
    // so the fighter falls, then the bomber, then the tank.
    let o = send_rolling(
        &mut s,
        "red",
        &["attack all from mexico to caribe"],
        &[
            3, 3, 3, 3, 3, 3, 3, 3, // red, 8 dice: blank
            1, 1, 1, 6, 6, 6, 6, // neutral, 7 dice: 3 hits
            6, 6, 6, 6, // red, 4 dice: blank
            6, 6, 6, 6, 6, 6, 6, // neutral: blank
            6, 6, 6, 6, // red: the third blank roll in a row
        ],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(
        t.contains("neutral fires 7 dice, 3 hits (1 tank, 1 fighter, 1 bomber lost)"),
        "{t}"
    );
    // Then red (2 robots: 4 dice), the neutrals (7 dice), red (4): three blank rolls: ceasefire.
    assert!(
        t.contains("ceasefire; red's survivors (2 robots) return to mexico"),
        "{t}"
    );
    assert_eq!(s.holding("mexico").units[&Unit::Robot], 2);
    assert_eq!(s.owner("caribe"), Some("neutral"));
}

/// issue 14 item 1: 001 "Primo turno", "Capitali", "Aree di terra libere", "Ripetizione degli
/// attacchi", "Regole di base" (digest 001 §6.1, §6.5, §6.7): no attack on a PC or a deposit in
/// round 1, none on a player's capital before someone has 20 VP, none on an empty area, not the
/// same attack twice, one CP an attack, only linked land areas; no moves after an attack.
#[test]
fn attacks_follow_the_restrictions_of_001() {
    let mut s = red_at_mexico(&[(Unit::Tank, 6)]);
    s.areas.get_mut("caribe").unwrap().units.clear();
    s.areas.get_mut("caribe").unwrap().owner = None;
    let o = send(
        &mut s,
        "red",
        &[
            "attack 1 tank from mexico to caribe",
            "attack 1 tank from prairies to great-lakes",
            "attack 1 tank from mexico to gallia",
            "attack 1 tank from mexico to amazonia",
        ],
    );
    refused_with(&o, 1, "empty");
    refused_with(&o, 2, "is yours");
    refused_with(&o, 3, "not linked land areas");
    refused_with(&o, 4, "not linked land areas");
    // Round 1: the deposit at amazonia is barred even by sea.
    s.areas
        .get_mut("caribbean-sea")
        .unwrap()
        .add("red", Unit::Sub, 1);
    let o = send(
        &mut s,
        "red",
        &["amphibious attack 1 tank from mexico to amazonia"],
    );
    refused_with(&o, 1, "VK deposit");
    // Blue's capital before 20 VP, by a sea route red's subs hold.
    s.round = 2;
    for sea in ["central-atlantic", "north-atlantic", "north-sea"] {
        s.areas.get_mut(sea).unwrap().add("red", Unit::Sub, 1);
    }
    let o = send(
        &mut s,
        "red",
        &["amphibious attack 1 tank from mexico to rhineland"],
    );
    refused_with(&o, 1, "nobody has 20 VP");
    // Two CP (c02 has CP 4: use them up), then no repeat and no more moves.
    s.turn.as_mut().unwrap().attacks = 1;
    s.areas
        .get_mut("caribe")
        .unwrap()
        .add("neutral", Unit::Tank, 1);
    let o = send_rolling(
        &mut s,
        "red",
        &[
            "attack 1 tank from mexico to caribe",
            "attack 1 tank from mexico to caribe",
            "move 1 tank from mexico to cascadia",
        ],
        // Tie at 0: the neutral fires first, misses; red hits.
        &[6, 1],
    );
    assert_eq!(reasons(&o)[0], "");
    refused_with(&o, 2, "you have made them");
    refused_with(&o, 3, "movement is over");
}

/// issue 14 item 1: 001 "Centri di Produzione", "Capitali", "Cessate il fuoco" (digest 001
/// §6.6, §6.7, §6.13): a PC gives the defender 3 more dice each volley; a player's capital 5
/// and the first volley; three blank rolls in a row end the battle and the attackers go home.
#[test]
fn pc_and_capital_dice_and_the_ceasefire() {
    let mut s = red_at_mexico(&[(Unit::Robot, 3)]);
    s.round = 2;
    s.vp.insert("red".into(), 20);
    // Blue's capital rhineland by sea: red holds the seas of the route.
    for sea in [
        "caribbean-sea",
        "central-atlantic",
        "north-atlantic",
        "north-sea",
    ] {
        s.areas.get_mut(sea).unwrap().add("red", Unit::Sub, 1);
    }
    // Red's initiative 3 > blue's 0, but the capital fires first: 1 tank + 5 = 6 dice.
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack all from mexico to rhineland"],
        &[6; 19],
    );
    all_ok(&o);
    let h = &o.happenings[0];
    assert!(h.text.contains("capital: +5 dice"), "{}", h.text);
    assert!(h.text.starts_with("red attacks rhineland"), "{}", h.text);
    let counts: Vec<usize> = h.rolls.iter().map(|r| r.faces.len()).collect();
    // blue 6, red 1 tank + 3 robots = 7, blue 6: three blanks.
    assert_eq!(counts, [6, 7, 6]);
    assert!(h.text.contains("ceasefire"), "{}", h.text);
    assert_eq!(s.owner("mexico"), Some("red"));
    assert_eq!(s.holding("mexico").count(), 4);
    assert_eq!(s.owner("rhineland"), Some("blue"));
}

/// issue 14: counts in a mail that would overflow are refused with a clear answer, never a
/// panic (house rule: no panics reachable from mail content).
#[test]
fn huge_counts_in_a_mail_are_refused_not_a_panic() {
    let mut s = two_in_round_one();
    let before = s.clone();
    let o = send(
        &mut s,
        "red",
        &[
            "build 4294967295 tanks at appalachia",
            "build 2147483648 robots at appalachia",
            "move 4000000000 tanks, 4000000000 tanks from mexico to cascadia",
            "attack 4294967295 tanks from mexico to caribe",
            "buy 4294967295",
        ],
    );
    refused_with(&o, 1, "PP are left");
    refused_with(&o, 2, "PP are left");
    refused_with(&o, 3, "holds 1 tank, not 4294967295");
    refused_with(&o, 4, "holds 1 tank, not 4294967295");
    refused_with(&o, 5, "hand holds at most 5");
    assert_eq!(s, before);
}

/// issue 14 item 1: 001 "Attacchi navali" (digest 001 §6.4): subs sail to an enemy-held sea and
/// both fleets roll at once; the survivors take the sea.
#[test]
fn a_naval_attack_rolls_both_fleets_at_once() {
    let mut s = two_in_round_one();
    s.areas
        .get_mut("caribbean-sea")
        .unwrap()
        .add("red", Unit::Sub, 2);
    s.areas
        .get_mut("central-atlantic")
        .unwrap()
        .add("blue", Unit::Sub, 1);
    // Red 2 dice, one hit; blue 1 die, one hit: both land together.
    let o = send_rolling(
        &mut s,
        "red",
        &["naval 2 subs from caribbean-sea to central-atlantic"],
        &[1, 6, 2],
    );
    all_ok(&o);
    assert_eq!(o.happenings[0].rolls.len(), 2);
    assert!(
        o.happenings[0].text.contains("red 1 hit, blue 1"),
        "{}",
        o.happenings[0].text
    );
    assert_eq!(s.owner("central-atlantic"), Some("red"));
    assert_eq!(s.holding("central-atlantic").units[&Unit::Sub], 1);
    assert!(s.owner("caribbean-sea").is_none());
}

/// issue 14 item 1: 001 "Attacchi via mare" and "Lotta ai Sottomarini" (digest 001 §6.10,
/// §6.11): a die a sub at the coast, protection kept, no return fire, the subs never land; two
/// dice a bomber at the subs of a next sea, no defence.
#[test]
fn bombardment_and_the_anti_sub_strike() {
    let mut s = two_in_round_one();
    s.areas
        .get_mut("east-pacific")
        .unwrap()
        .add("red", Unit::Sub, 2);
    // Andes: the neutrals' tank and robot. Red asks for robots first; the tank shields it.
    let o = send_rolling(
        &mut s,
        "red",
        &["bombard 2 subs from east-pacific to andes hits: robots"],
        &[1, 2],
    );
    all_ok(&o);
    assert!(
        o.happenings[0]
            .text
            .contains("2 hits, 1 tank, 1 robot lost; andes is empty"),
        "{}",
        o.happenings[0].text
    );
    assert!(s.owner("andes").is_none());
    assert_eq!(
        s.holding("east-pacific").units[&Unit::Sub],
        2,
        "the subs stay at sea"
    );
    // Blue's subs at the gulf of alaska, red's bombers at cascadia.
    s.areas
        .get_mut("gulf-of-alaska")
        .unwrap()
        .add("blue", Unit::Sub, 3);
    s.areas
        .get_mut("cascadia")
        .unwrap()
        .add("red", Unit::Bomber, 2);
    let o = send_rolling(
        &mut s,
        "red",
        &["antisub 2 bombers from cascadia to gulf-of-alaska"],
        &[1, 2, 6, 6],
    );
    all_ok(&o);
    assert_eq!(o.happenings[0].rolls[0].faces.len(), 4);
    assert_eq!(s.holding("gulf-of-alaska").units[&Unit::Sub], 1);
    // Not the same attack twice.
    let o = send(
        &mut s,
        "red",
        &["antisub 1 bomber from cascadia to gulf-of-alaska"],
    );
    refused_with(&o, 1, "you have attacked gulf-of-alaska from cascadia");
}

// ---------------------------------------------------------------------------------------------
// Powers.

/// Setup done, then round 1 with red playing `red_card` and blue `blue_card` (red's CP higher).
fn round_one_with(red_card: &str, blue_card: &str) -> State {
    let mut s = two_after_setup();
    all_ok(&send(&mut s, "red", &["done"]));
    all_ok(&send(&mut s, "blue", &["done"]));
    all_ok(&send(&mut s, "red", &[&format!("play {red_card}")]));
    all_ok(&send(&mut s, "blue", &[&format!("play {blue_card}")]));
    assert_eq!(s.current(), Some("red"));
    s
}

/// issue 14 item 1: 001 "Diplomatico" and "Costruttore di Robot" (digest 001 §8.2; rulings
/// R317, R318): the power of the card played, once a round: a truce both ways for the rest of
/// the round; a free robot at a PC beyond its five.
#[test]
fn diplomatico_and_costruttore_di_robot() {
    // c04 carries diplomatico (CP 3), c09 costruttore-di-robot (CP 2).
    let mut s = round_one_with("c04", "c09");
    s.areas
        .get_mut("north-atlantic")
        .unwrap()
        .add("red", Unit::Sub, 1);
    let o = send(
        &mut s,
        "red",
        &[
            "costruttore-di-robot at appalachia",
            "diplomatico blue",
            "diplomatico blue",
            "bombard 1 sub from north-atlantic to britannia",
            "end",
        ],
    );
    refused_with(&o, 1, "does not carry costruttore-di-robot");
    assert_eq!(reasons(&o)[1], "");
    refused_with(&o, 3, "used diplomatico this round");
    refused_with(&o, 4, "truce");
    refused_with(&o, 5, "line 1 of this mail was refused");
    all_ok(&send(&mut s, "red", &["end"]));
    let o = send(
        &mut s,
        "blue",
        &[
            "build 5 tanks at rhineland",
            "costruttore-di-robot at rhineland",
            "end",
        ],
    );
    all_ok(&o);
    assert_eq!(s.holding("rhineland").units[&Unit::Robot], 1);
    assert_eq!(s.holding("rhineland").units[&Unit::Tank], 6);
    // The round is over: the truce and the uses end with it.
    assert_eq!(s.round, 2);
    assert!(s.truces.is_empty() && s.powers_used.is_empty());
}

/// issue 14 item 1: 001 "Missili Balistici" (digest 001 §8.2 11): 1 CP, a die per PC held,
/// any enemy land area but a capital, hits ignoring the protection rules, no return fire.
#[test]
fn missili_balistici_ignore_protection_and_spare_capitals() {
    // c11 carries missili-balistici (CP 1).
    let mut s = round_one_with("c02", "c11");
    all_ok(&send(&mut s, "red", &["end"]));
    s.areas
        .get_mut("cascadia")
        .unwrap()
        .add("red", Unit::Robot, 1);
    let o = send_rolling(
        &mut s,
        "blue",
        &[
            "missili-balistici at appalachia",
            "missili-balistici at cascadia hits: robots",
        ],
        // Blue holds 3 PCs: 3 dice, one hit: the robot, though a tank stands there.
        &[1, 6, 6],
    );
    refused_with(&o, 1, "is a capital");
    assert_eq!(reasons(&o)[1], "");
    let c = s.holding("cascadia");
    assert_eq!(c.units.get(&Unit::Robot), None);
    assert_eq!(c.units[&Unit::Tank], 1);
    assert_eq!(c.owner.as_deref(), Some("red"), "missiles never occupy");
}

/// Setup done, then round 1 with red holding and playing `red_card`, blue `c15` (CP 1).
fn red_plays(red_card: &str) -> State {
    let mut s = two_after_setup();
    all_ok(&send(&mut s, "red", &["done"]));
    all_ok(&send(&mut s, "blue", &["done"]));
    s.hands.insert("red".into(), vec![red_card.into()]);
    s.hands.insert("blue".into(), vec!["c15".into()]);
    all_ok(&send(&mut s, "red", &[&format!("play {red_card}")]));
    all_ok(&send(&mut s, "blue", &["play c15"]));
    assert_eq!(s.current(), Some("red"));
    s
}

/// issue 14 item 1: 001 "L'Asso del cielo" (digest 001 §8.2 8; ruling R319): for one battle the
/// attacker's fighters fire 2 dice and bombers 3.
#[test]
fn asso_del_cielo_raises_the_air_units_firepower_for_a_battle() {
    // c08 carries asso-del-cielo.
    let mut s = red_plays("c08");
    let m = s.areas.get_mut("mexico").unwrap();
    m.add("red", Unit::Fighter, 1);
    m.add("red", Unit::Bomber, 1);
    // Initiative 2 > 1: red fires first, tank 1 + fighter 2 + bomber 3 = 6 dice (4 without).
    let o = send_rolling(
        &mut s,
        "red",
        &["attack all from mexico to caribe with asso-del-cielo"],
        &[1, 1, 6, 6, 6, 6],
    );
    all_ok(&o);
    assert_eq!(o.happenings[0].rolls[0].faces.len(), 6);
    assert_eq!(s.owner("caribe"), Some("red"));
    // Once a round.
    s.areas
        .get_mut("cascadia")
        .unwrap()
        .add("red", Unit::Fighter, 1);
    let o = send(
        &mut s,
        "red",
        &["attack all from cascadia to andes with asso-del-cielo"],
    );
    refused_with(&o, 1, "used asso-del-cielo this round");
}

/// issue 14 item 1: 001 "Sigrid" and "Raketen Truppen" (digest 001 §8.2 1, 10; ruling R319):
/// Sigrid rolls the misses of the attacker's first volley with a miss again, hits kept;
/// Raketen Truppen roll the attacker's first blank volley again, all of it.
#[test]
fn sigrid_and_raketen_truppen_roll_again() {
    // c10 carries sigrid. Mexico: 4 tanks (initiative 0): the neutrals fire first.
    let mut s = red_plays("c10");
    s.areas.get_mut("mexico").unwrap().add("red", Unit::Tank, 3);
    let o = send_rolling(
        &mut s,
        "red",
        &["attack all from mexico to caribe with sigrid"],
        // Neutrals 3 dice: blank. Red 4 dice, 1 hit; Sigrid rolls the 3 misses: 1 more hit.
        &[6, 6, 6, 1, 6, 6, 6, 1, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(
        t.contains("Sigrid rolls the misses again; red fires 4 dice, 2 hits"),
        "{t}"
    );
    assert_eq!(s.owner("caribe"), Some("red"));

    // c01 carries raketen-truppen.
    let mut s = red_plays("c01");
    s.areas.get_mut("mexico").unwrap().add("red", Unit::Tank, 3);
    let o = send_rolling(
        &mut s,
        "red",
        &["attack all from mexico to caribe with raketen-truppen"],
        // Neutrals: blank. Red: blank; all 4 again: 2 hits.
        &[6, 6, 6, 6, 6, 6, 6, 1, 2, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(
        t.contains("Raketen Truppen roll it all again; red fires 4 dice, 2 hits"),
        "{t}"
    );
    assert_eq!(
        o.happenings[0].rolls.len(),
        3,
        "the first roll is recorded too"
    );
    assert_eq!(s.owner("caribe"), Some("red"));
}

/// issue 14 item 1: 001 "Sgancia Robot" (digest 001 §8.2 7; ruling R320): 1 CP, robots from
/// several areas dropped on an enemy land area anywhere, a land battle; on a ceasefire each
/// robot goes back to its own area.
#[test]
fn sgancia_robot_drops_robots_from_several_areas() {
    // c07 carries sgancia-robot.
    let drop = "sgancia-robot 2 robots from hudson, 1 robot from yukon to caribe";
    let mut s = red_plays("c07");
    s.areas
        .get_mut("hudson")
        .unwrap()
        .add("red", Unit::Robot, 2);
    s.areas.get_mut("yukon").unwrap().add("red", Unit::Robot, 1);
    // Initiative 3 > 1: red fires 6 dice, two hits: the tank, then the robot.
    let o = send_rolling(&mut s, "red", &[drop], &[1, 2, 6, 6, 6, 6]);
    all_ok(&o);
    assert_eq!(s.owner("caribe"), Some("red"));
    assert_eq!(s.holding("caribe").units[&Unit::Robot], 3);
    assert_eq!(s.holding("hudson").units.get(&Unit::Robot), None);
    let o = send(&mut s, "red", &[drop]);
    refused_with(&o, 1, "used sgancia-robot this round");

    // A ceasefire: the robots fly home, two to hudson, one to yukon.
    let mut s = red_plays("c07");
    s.areas
        .get_mut("hudson")
        .unwrap()
        .add("red", Unit::Robot, 2);
    s.areas.get_mut("yukon").unwrap().add("red", Unit::Robot, 1);
    s.areas
        .get_mut("caribe")
        .unwrap()
        .add("neutral", Unit::Tank, 10);
    // Red 6 dice, the neutrals 13, red 6: three blank rolls.
    let o = send_rolling(&mut s, "red", &[drop], &[6; 25]);
    all_ok(&o);
    assert!(
        o.happenings[0].text.contains("ceasefire"),
        "{}",
        o.happenings[0].text
    );
    assert_eq!(s.holding("hudson").units[&Unit::Robot], 2);
    assert_eq!(s.holding("yukon").units[&Unit::Robot], 1);
}
