//! dust-strategy's retreats, standing defensive orders and the four powers built in this wave
//! (Infermiera, Arma Segreta, Radar Alieno, Koshka; issue 14), each test citing 001's section
//! (Italian) and the digest's (English). Rulings R321–R327: docs/rulings.md.

use super::combat::{red_at_mexico, send_rolling};
use super::*;

/// Red's turn of round 1 with 3 tanks at caribe (the neutrals cleared) and a sub in the
/// central Atlantic, so red can attack iberia and britannia from the sea; blue holds iberia with
/// 2 tanks and britannia with 1.
pub(super) fn red_across_the_atlantic() -> State {
    let mut s = two_in_round_one();
    let c = s.areas.get_mut("caribe").unwrap();
    c.units.clear();
    c.owner = None;
    c.add("red", Unit::Tank, 3);
    s.areas
        .get_mut("central-atlantic")
        .unwrap()
        .add("red", Unit::Sub, 1);
    s.areas
        .get_mut("iberia")
        .unwrap()
        .add("blue", Unit::Tank, 1);
    s
}

/// The card of the deck that carries `power`, made the one `side` played this round.
pub(super) fn give_power(s: &mut State, side: &str, power: &str) {
    let id = s
        .cards
        .iter()
        .find(|c| c.power == power)
        .map(|c| c.id.clone())
        .unwrap();
    s.played.insert(side.into(), id);
}

pub(super) fn tanks(s: &State, area: &str) -> u32 {
    s.holding(area).units.get(&Unit::Tank).copied().unwrap_or(0)
}

/// issue 14 item 1 (retreats): 001 "Ritirata" (digest 001 §6.14; ruling R321): before each roll
/// the attacker may withdraw one unit, back to the area it came from; its policy is written on
/// the attack line (`retreat at N`: one a roll while N or fewer are left); when the last one
/// leaves, the defender holds.
#[test]
fn attackers_withdraw_one_unit_a_roll_to_their_origin() {
    let mut s = red_at_mexico(&[(Unit::Tank, 2)]);
    let o = send_rolling(
        &mut s,
        "red",
        &["attack 3 tanks from mexico to caribe retreat at 2"],
        // Neutral first (initiative 1 against 0): 3 dice, 1 hit. Red, 2 left: one withdraws,
        // the other fires 1 die (blank); then the last withdraws before the neutrals' roll.
        &[1, 5, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert_eq!(
        t.matches("red withdraws 1 tank to mexico").count(),
        2,
        "{t}"
    );
    assert!(t.contains("neutral holds caribe"), "{t}");
    assert_eq!(tanks(&s, "mexico"), 2);
    assert_eq!(s.owner("caribe"), Some("neutral"));
    assert_eq!(s.turn.as_ref().unwrap().attacked, 1, "the CP is spent");
}

/// issue 14 item 1 (retreats): 001 "Ritirata" ("In caso di attacco anfibio le unità attaccanti
/// non possono ritirarsi"; digest 001 §6.14), "Sgancia Robot": an amphibious attack with a
/// retreat policy is refused and changes nothing; attackers retreat nowhere but home.
#[test]
fn amphibious_attackers_never_retreat() {
    let mut s = red_across_the_atlantic();
    let before = s.clone();
    let o = send(
        &mut s,
        "red",
        &[
            "amphibious attack 3 tanks from caribe to iberia retreat at 1",
            "attack 3 tanks from caribe to mexico retreat at 1 to hudson",
            "retreat 1 tank to mexico",
        ],
    );
    refused_with(&o, 1, "can never retreat");
    refused_with(&o, 2, "to the area they came from");
    refused_with(&o, 3, "is not an order alone");
    assert_eq!(s, before, "a refused order changes nothing");
}

/// issue 14 items 1 and 2: 001 "Ritirata" ("Le unità difensive possono ritirarsi in un'area
/// adiacente purché occupata da unità del proprio colore"; digest 001 §6.14, §10.2 standing
/// defensive orders; rulings R322, R323): blue's standing order for iberia, sent out of turn,
/// sets its casualty order and retreat; blue withdraws its last tank to gallia and red, whose
/// survivors stand alone, takes iberia.
#[test]
fn a_defender_withdraws_by_its_standing_order_to_a_linked_own_area() {
    let mut s = red_across_the_atlantic();
    let o = send(
        &mut s,
        "blue",
        &["defend iberia: hits: tanks; retreat at 1 to gallia"],
    );
    all_ok(&o);
    assert!(
        o.happenings.is_empty(),
        "a standing order tells the others nothing"
    );
    let gallia = tanks(&s, "gallia");
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to iberia"],
        // Blue first (0 against 0): 2 dice, blank; red 3 dice, 1 hit; blue has 1 left:
        // it withdraws before the next roll.
        &[6, 6, 1, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(t.contains("blue withdraws 1 tank to gallia"), "{t}");
    assert!(t.contains("red takes iberia with 3 tanks"), "{t}");
    assert_eq!(tanks(&s, "gallia"), gallia + 1);
    assert_eq!(s.owner("iberia"), Some("red"));
}

/// issue 14 item 2: digest 001 §10.2 ("a casualty priority against attackers"), 001 "Regole di
/// base" (the firer chooses; ruling R323 replacing R314's fixed order where a player set one):
/// blue's `defend all: hits: tanks` makes its hit take red's tank, not the fighter the fixed
/// order would take; the neutrals keep the fixed order.
#[test]
fn a_standing_casualty_order_replaces_the_fixed_one() {
    let mut s = red_across_the_atlantic();
    all_ok(&send(&mut s, "blue", &["defend all: hits: tanks"]));
    s.areas
        .get_mut("caribe")
        .unwrap()
        .add("red", Unit::Fighter, 1);
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 1 tank, 1 fighter from caribe to britannia"],
        // Red first (1 against 0): 2 dice blank; blue 1 die: a hit; red 1, blue 1, red 1 blank.
        &[6, 6, 1, 6, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(t.contains("blue fires 1 dice, 1 hit (1 tank lost)"), "{t}");
    assert!(t.contains("red's survivors (1 fighter) return"), "{t}");
    // The neutrals at mexico's neighbour keep the fixed order: a fighter before a tank.
    let mut s = red_at_mexico(&[(Unit::Fighter, 1)]);
    s.areas
        .get_mut("caribe")
        .unwrap()
        .units
        .remove(&Unit::Robot);
    let o = send_rolling(
        &mut s,
        "red",
        &["attack 1 tank, 1 fighter from mexico to caribe"],
        &[6, 6, 1, 6, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(
        t.contains("neutral fires 1 dice, 1 hit (1 fighter lost)"),
        "{t}"
    );
}

/// issue 14 item 1: 001 "Ritirata" ("Le unità in difesa di un'area adiacente al mare possono
/// ritirarsi utilizzando l'eventuale trasporto di Sottomarini dello stesso colore … il percorso
/// più breve possibile"; digest 001 §6.14, ruling R322): britannia has no land link, so blue's
/// tank there leaves by its own sub in the north sea, to the area its order names; without a
/// sub it cannot retreat and fights on.
#[test]
fn a_coastal_defender_retreats_by_its_own_subs_or_fights_on() {
    // No blue sub: nowhere to go, the tank stays and dies.
    let mut s = red_across_the_atlantic();
    all_ok(&send(&mut s, "blue", &["defend britannia: retreat at 1"]));
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to britannia"],
        &[6, 1, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(!t.contains("withdraws"), "{t}");
    assert!(t.contains("red takes britannia"), "{t}");
    // A blue sub in the north sea: the tank sails to scandia before any roll.
    let mut s = red_across_the_atlantic();
    s.areas
        .get_mut("north-sea")
        .unwrap()
        .add("blue", Unit::Sub, 1);
    all_ok(&send(
        &mut s,
        "blue",
        &["defend britannia: retreat at 1 to scandia"],
    ));
    let scandia = tanks(&s, "scandia");
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to britannia"],
        &[],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(t.contains("blue withdraws 1 tank to scandia"), "{t}");
    assert_eq!(tanks(&s, "scandia"), scandia + 1);
    assert_eq!(s.owner("britannia"), Some("red"));
}

/// issue 14 item 2: standing orders are a player's own plans (DESIGN §5 spirit; ruling R323):
/// the reader's view holds only its own, the others' views none; `defend AREA: nothing` clears
/// one; a sea area or an unknown clause is refused with what to send.
#[test]
fn standing_orders_are_seen_by_their_owner_alone() {
    let mut s = red_across_the_atlantic();
    all_ok(&send(
        &mut s,
        "blue",
        &[
            "defend iberia: retreat at 2 robots to gallia",
            "defend all: hits: tanks, fighters",
        ],
    ));
    let blue = DustStrategy.view(&s, Some("blue"));
    let red = DustStrategy.view(&s, Some("red"));
    let all = DustStrategy.view(&s, None);
    let mine = DustStrategy.standing(&blue, Some("blue"));
    assert!(
        mine.iter()
            .any(|l| l == "your standing order: defend iberia: retreat at 2 robots to gallia"),
        "{mine:?}"
    );
    assert_eq!(red["my_defence"], serde_json::json!([]));
    for v in [&red, &all] {
        let text = v.to_string();
        assert!(!text.contains("retreat at"), "{text}");
        assert!(!text.contains("hits: tanks"), "{text}");
    }
    let o = send(
        &mut s,
        "blue",
        &[
            "defend iberia: nothing",
            "defend north-sea: retreat at 1",
            "defend gallia: surrender",
        ],
    );
    assert_eq!(reasons(&o)[0], "");
    refused_with(&o, 2, "no land area");
    refused_with(&o, 3, "no part of a standing defensive order");
    let blue = DustStrategy.view(&s, Some("blue"));
    assert_eq!(
        blue["my_defence"],
        serde_json::json!(["defend all: hits: tanks, fighters"])
    );
}

/// issue 14 item 3: 001 "Infermiera" ("Per ogni unità persa si lancia un dado e se il risultato
/// è un 'vuoto', l'unità anziché essere distrutta può ritirarsi"; digest 001 §8.2 2; ruling
/// R324): red's attack `with infermiera` rolls a die for its lost tank; on a blank it goes home.
#[test]
fn infermiera_saves_a_lost_attacker_on_a_blank() {
    let mut s = red_at_mexico(&[(Unit::Tank, 2)]);
    give_power(&mut s, "red", "infermiera");
    let o = send_rolling(
        &mut s,
        "red",
        &["attack 3 tanks from mexico to caribe with infermiera"],
        // Neutral 3 dice: 1 hit; Infermiera's die: 4, a blank; red 2 dice: 2 hits.
        &[1, 6, 6, 4, 1, 1],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(
        t.contains("Infermiera: 1 tank of red's lost withdraws to mexico"),
        "{t}"
    );
    assert_eq!(tanks(&s, "mexico"), 1);
    assert_eq!(s.owner("caribe"), Some("red"));
    // Never for amphibious attackers.
    let mut s = red_across_the_atlantic();
    give_power(&mut s, "red", "infermiera");
    let o = send(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to iberia with infermiera"],
    );
    refused_with(&o, 1, "can never retreat");
}

/// issue 14 item 3: 001 "Infermiera" for a defender (digest 001 §8.2 2, §10.2 reaction power
/// triggers; ruling R324): blue's standing `infermiera` at iberia, with the card that carries
/// it, saves one of its two lost tanks to gallia.
#[test]
fn infermiera_in_a_standing_order_saves_defenders() {
    let mut s = red_across_the_atlantic();
    give_power(&mut s, "blue", "infermiera");
    all_ok(&send(&mut s, "blue", &["defend iberia: infermiera"]));
    let gallia = tanks(&s, "gallia");
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to iberia"],
        // Blue 2 dice blank; red 3 dice, 2 hits; Infermiera's dice 3 (saved) and 1 (lost).
        &[6, 6, 1, 1, 6, 3, 1],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(
        t.contains("Infermiera: 1 tank of blue's lost withdraws to gallia"),
        "{t}"
    );
    assert_eq!(tanks(&s, "gallia"), gallia + 1);
    assert_eq!(s.owner("iberia"), Some("red"));
    assert!(s.powers_used.contains("blue"));
}

/// issue 14 item 3: 001 "Arma Segreta" ("Tutte le unità nemiche, indipendentemente dal numero,
/// devono immediatamente ritirarsi … non può essere utilizzata contro unità in difesa di una
/// Capitale"; digest 001 §8.2 3; ruling R325): before any roll every neutral unit at caribe
/// withdraws to a linked neutral area and red takes it; never against a player's capital.
#[test]
fn arma_segreta_makes_every_defender_withdraw_but_never_from_a_capital() {
    let mut s = red_at_mexico(&[]);
    give_power(&mut s, "red", "arma-segreta");
    let neutrals = |s: &State| -> u32 {
        ["amazonia", "andes"]
            .iter()
            .filter(|a| s.owner(a) == Some("neutral"))
            .map(|a| s.holding(a).count())
            .sum()
    };
    let before = neutrals(&s);
    let o = send_rolling(
        &mut s,
        "red",
        &["attack 1 tank from mexico to caribe with arma-segreta"],
        &[],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(
        t.contains("Arma Segreta: neutral's units withdraw to"),
        "{t}"
    );
    assert_eq!(s.owner("caribe"), Some("red"));
    assert_eq!(neutrals(&s), before + 2);
    // A player's capital: refused, nothing changes.
    let mut s = two_in_round_one();
    s.round = 2;
    s.vp.insert("red".into(), 20);
    give_power(&mut s, "red", "arma-segreta");
    let p = s.areas.get_mut("prussia").unwrap();
    p.units.clear();
    p.add("red", Unit::Tank, 3);
    let before = s.clone();
    let o = send(
        &mut s,
        "red",
        &["attack 3 tanks from prussia to rhineland with arma-segreta"],
    );
    refused_with(&o, 1, "is a player's capital");
    assert_eq!(s, before);
}

/// issue 14 item 3: 001 "Radar Alieno" ("consente di ritirare tutte le proprie unità … L'area
/// eventualmente lasciata libera viene occupata dalle unità attaccanti"; digest 001 §8.2 5,
/// §10.2; ruling R326): blue's standing `radar-alieno`, with the card that carries it, pulls
/// both tanks out of iberia before any die; red moves in; the CP is spent; once a round.
#[test]
fn radar_alieno_pulls_the_defenders_out_before_any_roll() {
    let mut s = red_across_the_atlantic();
    give_power(&mut s, "blue", "radar-alieno");
    all_ok(&send(&mut s, "blue", &["defend all: radar-alieno"]));
    let gallia = tanks(&s, "gallia");
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to iberia"],
        &[],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(
        t.contains("Radar Alieno: blue's units withdraw to gallia"),
        "{t}"
    );
    assert_eq!(tanks(&s, "gallia"), gallia + 2);
    assert_eq!(s.owner("iberia"), Some("red"));
    assert_eq!(s.turn.as_ref().unwrap().attacked, 1);
    // Once a round: the next attack on britannia is fought.
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from iberia to britannia"],
        &[6, 1, 6, 6],
    );
    all_ok(&o);
    assert!(
        !o.happenings[0].text.contains("Radar"),
        "{:?}",
        o.happenings
    );
}

/// issue 14 item 3: 001 "Koshka" ("La si usa all'inizio del turno di un avversario, per giocare
/// al suo posto. Il giocatore contro il quale si utilizza Koshka giocherà subito dopo"; digest
/// 001 §8.2 6, §10.2 "KOSHKA BEFORE <player>"; ruling R327): blue writes `koshka before red` in
/// its card mail; red's CP 4 would play first, but blue's Koshka card takes the first turn and
/// red plays straight after. Without a Koshka card the line does nothing.
#[test]
fn koshka_takes_the_turn_before_the_player_it_names() {
    let mut s = two_after_setup();
    all_ok(&send(&mut s, "red", &["done"]));
    all_ok(&send(&mut s, "blue", &["done"]));
    // c39: CP 2, MP 2, production 3, 3 stars, Koshka.
    s.hands.get_mut("blue").unwrap().push("c39".into());
    all_ok(&send(&mut s, "red", &["koshka before blue", "play c02"]));
    let o = send(&mut s, "blue", &["koshka before red", "play c39"]);
    all_ok(&o);
    let said: Vec<&str> = o.happenings.iter().map(|h| h.text.as_str()).collect();
    assert!(
        said.iter()
            .any(|t| t.contains("blue plays Koshka: blue takes the turn before red")),
        "{said:?}"
    );
    assert_eq!(s.current(), Some("blue"));
    assert_eq!(s.order, vec!["blue".to_string(), "red".to_string()]);
    all_ok(&send(&mut s, "blue", &["end"]));
    assert_eq!(s.current(), Some("red"), "red plays straight after");
    // Red's own `koshka before blue` did nothing: c02 carries Infermiera, and blue had played.
    assert!(!s.powers_used.contains("red"));
}

/// issue 14 item 2 (reactions for defenders): 001 "Sigrid" ("attaccando o difendendo"), "L'Asso
/// del cielo" (digest 001 §8.2 8, 10, §10.2 reaction power triggers, §11.28; ruling R328): a
/// defender's standing order may call the battle power of the card it played; Sigrid rolls its
/// first missing volley's misses again, the Ace gives its fighters 2 dice.
#[test]
fn a_defender_calls_sigrid_or_the_ace_in_its_standing_order() {
    let mut s = red_across_the_atlantic();
    give_power(&mut s, "blue", "sigrid");
    all_ok(&send(&mut s, "blue", &["defend iberia: sigrid"]));
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to iberia"],
        // Blue 2 dice, both miss; Sigrid rolls them again: 1 hit. Then red 2, blue 2, red 2:
        // three blank rolls.
        &[6, 6, 1, 6, 6, 6, 6, 6, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(t.contains("blue: Sigrid rolls the misses again"), "{t}");
    assert!(t.contains("blue fires 2 dice, 1 hit (1 tank lost)"), "{t}");
    assert!(
        t.contains("red's survivors (2 tanks) return to caribe"),
        "{t}"
    );
    assert!(s.powers_used.contains("blue"));

    let mut s = red_across_the_atlantic();
    give_power(&mut s, "blue", "asso-del-cielo");
    s.areas
        .get_mut("iberia")
        .unwrap()
        .add("blue", Unit::Fighter, 1);
    all_ok(&send(&mut s, "blue", &["defend all: asso-del-cielo"]));
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to iberia"],
        // Blue: 2 tanks + a fighter at 2 dice = 4; red 3; blue 4: three blank rolls.
        &[6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6],
    );
    all_ok(&o);
    let t = &o.happenings[0].text;
    assert!(t.contains("blue fires 4 dice"), "{t}");
}

/// issue 14 item 3 of the issue ("an ordered list of attacks with … conditions"): digest 001
/// §10.2 ("a condition, e.g. 'only if attack #2 won' or 'skip if target has > n units', so that
/// later attacks can depend on earlier results"; 001 "Regole di base": the attacks of a turn one
/// after another; ruling R329): a line whose condition fails is skipped, spends no CP and
/// leaves the turn able to end; one whose condition holds is fought.
#[test]
fn attack_conditions_skip_or_fight_by_the_earlier_results() {
    let mut s = red_at_mexico(&[(Unit::Tank, 2)]);
    for sea in ["caribbean-sea", "central-atlantic"] {
        s.areas.get_mut(sea).unwrap().add("red", Unit::Sub, 1);
    }
    let before_iberia = s.holding("iberia");
    let o = send_rolling(
        &mut s,
        "red",
        &[
            "attack 1 tank from mexico to caribe",
            "attack 2 tanks from mexico to caribe if attack 1 won",
            "amphibious attack 2 tanks from mexico to iberia if attack 1 lost",
            "amphibious attack 1 tank from iberia to britannia if at most 0 defenders",
            "attack 1 tank from mexico to caribe if attack 7 won",
            "attack 1 tank from mexico to caribe if the dice are kind",
            "end",
        ],
        // Attack 1: the neutrals fire first, 3 dice, 1 hit: red's tank is lost. Attack 3: blue's
        // tank fires 1 die (blank), red 2 dice: 1 hit.
        &[1, 6, 6, 6, 1, 6],
    );
    assert_eq!(before_iberia.units[&Unit::Tank], 1);
    let r = reasons(&o);
    assert_eq!(&r[..5], &["", "", "", "", ""], "{:?}", o.results);
    refused_with(&o, 6, "is no condition");
    let said: Vec<String> = o
        .results
        .iter()
        .map(|r| format!("{:?}", r.outcome))
        .collect();
    assert!(
        said[1].contains("skipped, not attacked: attack 1 was not won"),
        "{said:?}"
    );
    assert!(
        said[3].contains("britannia holds 1, more than 0"),
        "{said:?}"
    );
    assert!(
        said[4].contains("there was no attack 7 this turn"),
        "{said:?}"
    );
    assert_eq!(s.owner("iberia"), Some("red"));
    assert_eq!(s.owner("caribe"), Some("neutral"));
    assert_eq!(
        s.turn.as_ref().unwrap().attacked,
        2,
        "skipped lines spend no CP"
    );
    // The refused line 6 keeps the turn open (R313).
    refused_with(&o, 7, "line 6 of this mail was refused");
}
