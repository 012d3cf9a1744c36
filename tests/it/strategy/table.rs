//! `table battles: yes|no` (issue 15 item 2, `tactical = "agreed"`; ruling R337): in a strategic
//! campaign where the players agree, a land battle between two players goes to the table only
//! when both said yes before the attack; otherwise it is rolled. Outside such a campaign the
//! line is refused saying why.

use super::retreats::red_across_the_atlantic;
use super::*;
use dustmail::games::dust_strategy::elsewhere::Tactical;

/// Every die a six: a rolled battle, whatever its length.
pub(super) struct Sixes;

impl DiceSource for Sixes {
    fn d6(&mut self, _round: u32) -> u8 {
        6
    }
    fn uniform(&mut self, _round: u32, _n: u32) -> u32 {
        0
    }
    fn hidden(&mut self, _audience: &Audience, _n: u32) -> u32 {
        0
    }
}

fn send_sixes(s: &mut State, side: &str, lines: &[&str]) -> Outcome {
    let lines: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect();
    DustStrategy.submit(s, Sender::side(side), &lines, &mut Sixes)
}

/// Red's turn with 3 tanks in gallia beside blue's iberia, in a game a `tactical = "agreed"`
/// campaign opened (its policy as `campaign new` sets it: nobody has chosen yet).
pub(super) fn agreed_game() -> State {
    let mut s = red_across_the_atlantic();
    let g = s.areas.get_mut("gallia").unwrap();
    g.units.clear();
    g.owner = None;
    g.add("red", Unit::Tank, 3);
    s.tactical = Some(Tactical {
        count: 0,
        awaited: None,
        kinds: vec![Unit::Tank],
        ..Default::default()
    });
    s.table_battles = Some(Default::default());
    s
}

pub(super) fn understood(o: &Outcome, line: usize) -> String {
    match &o.results[line - 1].outcome {
        CommandOutcome::Accepted { understood } => understood.clone(),
        CommandOutcome::Refused { reason, .. } => panic!("line {line} refused: {reason}"),
    }
}

/// issue 15 item 2 (tactical = "agreed"): both players said `table battles: yes`, so red's
/// land attack on blue is not rolled: the game waits for the Dust Tactics game.
#[test]
fn agreed_both_yes_the_battle_is_fought_on_the_table() {
    let mut s = agreed_game();
    let o = send(&mut s, "blue", &["table battles: yes"]);
    all_ok(&o);
    assert!(understood(&o, 1).contains("blue wants its battles on the table"));
    let o = send(
        &mut s,
        "red",
        &["table battles: yes", "attack 2 tanks from gallia to iberia"],
    );
    all_ok(&o);
    assert!(understood(&o, 2).contains("fought on the table"), "{o:?}");
    let a = s.tactical.as_ref().unwrap().awaited.as_ref();
    let a = a.expect("the battle waits for the table");
    assert_eq!((a.to.as_str(), a.defender.as_str()), ("iberia", "blue"));
    assert!(DustStrategy.awaiting(&s).is_empty(), "the game waits");
}

/// issue 15 item 2 (tactical = "agreed"): blue said yes, then changed its standing choice to
/// no; red's yes alone does not take the battle to the table: it is rolled as in any game.
#[test]
fn agreed_one_no_the_battle_is_rolled() {
    let mut s = agreed_game();
    all_ok(&send(&mut s, "blue", &["table battles: yes"]));
    let o = send(&mut s, "blue", &["table battles: no"]);
    all_ok(&o);
    assert!(understood(&o, 1).contains("rolled"));
    let o = send_sixes(
        &mut s,
        "red",
        &["table battles: yes", "attack 2 tanks from gallia to iberia"],
    );
    all_ok(&o);
    assert!(!understood(&o, 2).contains("fought on the table"), "{o:?}");
    let t = s.tactical.as_ref().unwrap();
    assert!(t.awaited.is_none() && t.count == 0, "{t:?}");
    assert!(
        !o.happenings.is_empty(),
        "the battle was rolled and told: {o:?}"
    );
}

/// issue 15 item 2 (tactical = "agreed"): outside a strategic campaign the line is refused
/// saying why, and changes nothing; a bad answer is refused with an example.
#[test]
fn table_battles_is_refused_outside_an_agreed_campaign_and_when_malformed() {
    let mut s = red_across_the_atlantic();
    let before = serde_json::to_string(&s).unwrap();
    let o = send(&mut s, "red", &["table battles: yes"]);
    refused_with(
        &o,
        1,
        "only in a strategic campaign with tactical = \"agreed\"",
    );
    assert_eq!(serde_json::to_string(&s).unwrap(), before);

    let mut s = agreed_game();
    s.table_battles = None;
    let o = send(&mut s, "red", &["table battles: yes"]);
    refused_with(&o, 1, "every battle between players on the table");

    let mut s = agreed_game();
    let o = send(&mut s, "red", &["table battles: maybe"]);
    refused_with(&o, 1, "write yes or no after `table battles:`");
    match &o.results[0].outcome {
        CommandOutcome::Refused { instead, .. } => assert_eq!(instead, "table battles: yes"),
        r => panic!("{r:?}"),
    }
    assert_eq!(s.table_battles, Some(Default::default()));
}
