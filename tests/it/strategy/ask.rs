//! `ask`, the only pause of dust-strategy (issue 14 item 3, digest 001 §10 "only what a player
//! chose 'ask' for pauses the game"; docs/strategy.md "ask"; rulings R351–R353): a defender's
//! standing `defend AREA: ask` pauses a land battle there until its answer `battle at AREA: …`
//! or the deadline; the attacker's later lines wait and then run with their conditions.

use super::combat::send_rolling;
use super::retreats::{red_across_the_atlantic, tanks};
use super::*;

/// Red at caribe with 5 tanks and a sub in the central Atlantic; blue holds iberia with 2 tanks
/// and britannia with 1, and asks for iberia (its standing order: retreat at 2 to gallia).
fn blue_asks_for_iberia() -> State {
    let mut s = red_across_the_atlantic();
    s.areas.get_mut("caribe").unwrap().add("red", Unit::Tank, 2);
    let o = send(
        &mut s,
        "blue",
        &["defend iberia: retreat at 2 to gallia; ask"],
    );
    all_ok(&o);
    s
}

/// Red's turn mail: the attack on iberia, an attack on britannia only if the first is won, end.
const RED_TURN: [&str; 3] = [
    "amphibious attack 3 tanks from caribe to iberia",
    "amphibious attack 2 tanks from caribe to britannia if attack 1 won",
    "end",
];

fn understood(o: &Outcome, line: usize) -> String {
    match &o.results[line - 1].outcome {
        CommandOutcome::Accepted { understood } => understood.clone(),
        CommandOutcome::Refused { reason, .. } => panic!("line {line} refused: {reason}"),
    }
}

/// The paused state after red's turn mail, with what the pause must (not) have done.
fn paused() -> State {
    let mut s = blue_asks_for_iberia();
    let before = s.clone();
    // `send` rolls with a source that panics on a die: no die is rolled before the answer.
    let o = send(&mut s, "red", &RED_TURN);
    all_ok(&o);
    assert!(
        understood(&o, 1).contains("waits for blue's answer"),
        "{o:?}"
    );
    assert!(understood(&o, 2).starts_with("held"), "{o:?}");
    assert!(understood(&o, 3).starts_with("held"), "{o:?}");
    assert_eq!(s.areas, before.areas, "no unit moved before the answer");
    assert_eq!(s.turn.as_ref().unwrap().attacked, 0, "no CP spent");
    assert_eq!(s.phase, Phase::Turn { index: 0 }, "red's turn is not over");
    let a = DustStrategy.awaiting(&s);
    assert_eq!(a.len(), 1, "{a:?}");
    assert_eq!(
        (a[0].side.as_str(), a[0].decision.as_str()),
        ("blue", "battle")
    );
    // What blue reads: what attacks, by what, what to answer; the others read only that a
    // battle waits, never red's held lines.
    let to_blue: Vec<&str> = o
        .happenings
        .iter()
        .filter(|h| h.audience == Audience::Side("blue".into()))
        .map(|h| h.text.as_str())
        .collect();
    assert_eq!(to_blue.len(), 1, "{:?}", o.happenings);
    assert!(
        to_blue[0].contains("red attacks iberia with 3 tanks from caribe")
            && to_blue[0].contains("battle at iberia: as standing"),
        "{}",
        to_blue[0]
    );
    for h in o
        .happenings
        .iter()
        .filter(|h| h.audience == Audience::Everyone)
    {
        assert!(
            !h.text.contains("britannia") && !h.text.contains("3 tanks"),
            "{}",
            h.text
        );
    }
    let template = DustStrategy.orders_template(&s, "blue");
    assert!(
        template.contains("\nbattle at iberia: as standing\n"),
        "{template}"
    );
    s
}

/// issue 14 item 3 (`ask`, the pause and the answer): digest 001 §10 ("only what a player chose
/// 'ask' for pauses the game"; rulings R351–R353). Red's attack on iberia, which blue asked for,
/// stops red's script before that line: nothing is rolled or spent, red's later lines are held
/// and refused if sent again, blue alone is awaited. Blue's answer decides the battle (no
/// retreat, against its standing `retreat at 2`), and red's held `… if attack 1 won` then runs,
/// and red's `end` ends the turn; red alone reads the receipts of its held lines.
#[test]
fn an_asked_battle_waits_for_the_defenders_answer_then_the_attackers_script_goes_on() {
    let mut s = paused();
    // While it waits: red's turn lines are refused, a wrong answer changes nothing.
    let before = s.clone();
    let o = send(
        &mut s,
        "red",
        &["attack 1 tank from caribe to mexico", "end"],
    );
    refused_with(&o, 1, "waits for blue's answer");
    let o = send(&mut s, "blue", &["battle at britannia: as standing"]);
    refused_with(&o, 1, "is at iberia");
    let o = send(&mut s, "blue", &["battle at iberia: hits: tanks; ask"]);
    refused_with(&o, 1, "belongs in a standing order");
    assert_eq!(s, before, "refused lines change nothing");
    // Blue's answer: fight to the end. Blue fires first (0 against 0): 2 dice, blank; red 3
    // dice, 2 hits: iberia falls. Then attack 2 (its condition holds): blue 1 die, blank; red
    // 2 dice, 1 hit: britannia falls.
    let o = send_rolling(
        &mut s,
        "blue",
        &["battle at iberia: nothing"],
        &[6, 6, 1, 1, 6, 6, 1, 6],
    );
    all_ok(&o);
    assert!(understood(&o, 1).contains("fought now"), "{o:?}");
    let all: String = o.happenings.iter().map(|h| h.text.clone()).collect();
    assert!(
        !all.contains("withdraws"),
        "the answer, not the standing order: {all}"
    );
    assert_eq!(s.owner("iberia"), Some("red"));
    assert_eq!(s.owner("britannia"), Some("red"), "the held line ran");
    assert_eq!(tanks(&s, "iberia"), 3);
    let to_red: Vec<&str> = o
        .happenings
        .iter()
        .filter(|h| h.audience == Audience::Side("red".into()))
        .map(|h| h.text.as_str())
        .collect();
    assert_eq!(to_red.len(), 1, "{:?}", o.happenings);
    assert!(
        to_red[0].contains("line 2: amphibious attack") && to_red[0].contains("line 3: end"),
        "{}",
        to_red[0]
    );
    assert!(s.ask.is_none());
    assert_eq!(s.current(), Some("blue"), "red's held `end` ended its turn");
    // No battle waits now: another answer is refused.
    let o = send(&mut s, "blue", &["battle at iberia: as standing"]);
    refused_with(&o, 1, "no battle waits");
}

/// issue 14 item 3 (`ask`, the deadline): ruling R352: without an answer by the deadline the
/// battle is fought by the asked side's standing order without `ask` (here: one tank withdraws
/// to gallia before the first roll), and red's held lines run as after an answer.
#[test]
fn an_unanswered_asked_battle_is_fought_by_the_standing_order_at_the_deadline() {
    let mut s = paused();
    // Retreat at 2: one blue tank withdraws before blue's roll; blue 1 die, blank; the other
    // withdraws before red's roll: iberia falls. Attack 2: blue 1 die, blank; red 2 dice, 1 hit.
    let mut d = super::combat::Faces([6, 6, 1, 6].into_iter().collect());
    let o = DustStrategy.default_for(&mut s, "blue", &mut d);
    assert!(
        d.0.is_empty(),
        "{} faces left: {:?}",
        d.0.len(),
        o.happenings
    );
    let all: String = o.happenings.iter().map(|h| h.text.clone()).collect();
    assert!(all.contains("did not answer"), "{all}");
    assert!(all.contains("blue withdraws 1 tank to gallia"), "{all}");
    assert_eq!(s.owner("iberia"), Some("red"));
    assert_eq!(s.owner("britannia"), Some("red"));
    assert_eq!(s.current(), Some("blue"));
}

/// issue 14 item 3 (`ask`): ruling R351: only a standing `ask` pauses: once blue's order for
/// iberia is replaced by one without it, red's attack is fought at once, as before.
#[test]
fn without_ask_the_battle_is_fought_at_once_as_before() {
    let mut s = blue_asks_for_iberia();
    let o = send(&mut s, "blue", &["defend iberia: retreat at 2 to gallia"]);
    all_ok(&o);
    assert!(
        understood(&o, 1).ends_with("retreat at 2 to gallia"),
        "{o:?}"
    );
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to iberia"],
        // Both blue tanks withdraw by the retreat, one before each roll: a single die.
        &[6],
    );
    all_ok(&o);
    assert!(s.ask.is_none());
    assert_eq!(s.owner("iberia"), Some("red"));
}
