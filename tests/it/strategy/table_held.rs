//! The attacker's lines after a battle fought on the table, and the battle powers and retreats
//! of such a battle (issue 15 item 2; rulings R331, R340, R341; 001 "Poteri Speciali",
//! "Ritirata", "Arma Segreta"). The game's side: the lines are held and run when the `decide`
//! control brings the result (tests/it/campaign_held.rs plays it through mails and audits it).

use super::retreats::{give_power, tanks};
use super::table::{agreed_game, understood, Sixes};
use super::*;

/// Red's turn with 3 tanks in gallia beside blue's iberia, 3 at caribe with a sub in the
/// central Atlantic, in a game a `tactical = "all"` campaign opened with policy revision 1.
fn table_game() -> State {
    let mut s = agreed_game();
    s.table_battles = None;
    s.tactical.as_mut().unwrap().revision = 1;
    s
}

/// Red's mail: an attack that goes to the table, an amphibious attack that 001's dice decide,
/// the end of the turn.
const RED_TURN: [&str; 3] = [
    "attack 2 tanks from gallia to iberia",
    "amphibious attack 2 tanks from caribe to britannia",
    "end",
];

/// docs/campaigns.md "A strategic campaign", ruling R340 (amending R331): the lines after an
/// attack fought on the table are held, each answered so, and nothing of them runs (no die is
/// rolled: the dice would panic); the `decide` control's result frees them, and the control's
/// own step runs them in order with its dice: the amphibious attack is rolled, the turn ends,
/// and the attacker alone gets the receipts of its held lines.
#[test]
fn lines_after_a_table_battle_are_held_and_run_after_the_decide_control() {
    let mut s = table_game();
    let o = send(&mut s, "red", &RED_TURN);
    all_ok(&o);
    assert!(understood(&o, 1).contains("fought on the table"), "{o:?}");
    for line in [2, 3] {
        assert!(
            understood(&o, line).starts_with("held: runs when the result of battle 1 at iberia"),
            "{o:?}"
        );
    }
    assert_eq!(tanks(&s, "caribe"), 3, "a held attack ran");
    assert_eq!(s.current(), Some("red"), "the held `end` ran");
    // Nothing runs without the result: the step of another control finds nothing held.
    let none = DustStrategy.run_held(&mut s, &mut Sixes);
    assert!(none.results.is_empty() && none.happenings.is_empty());

    let said = DustStrategy
        .decide(&mut s, "battle 1: winner blue")
        .unwrap();
    assert!(said.contains("battle 1 at iberia decided on the table: blue won"));
    let o = DustStrategy.run_held(&mut s, &mut Sixes);
    let lines: Vec<usize> = o.results.iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 3], "{o:?}");
    assert!(
        understood(&o, 1).starts_with("amphibious attack 2 tanks from caribe to britannia"),
        "{o:?}"
    );
    assert!(
        o.happenings.iter().any(|h| !h.rolls.is_empty()),
        "no die rolled: {o:?}"
    );
    assert_ne!(s.current(), Some("red"), "red's held `end` ended its turn");
    let note = o.happenings.last().unwrap();
    assert_eq!(note.audience, Audience::Side("red".into()));
    assert!(note
        .text
        .contains("your lines held for battle 1 at iberia: line 2: amphibious attack"));
    // The held lines ran once: nothing is left to run.
    assert!(DustStrategy.run_held(&mut s, &mut Sixes).results.is_empty());
}

/// Ruling R331 as it stood, kept for the games made before policy revision 1 (their ledgers
/// replay unchanged): the lines after a table attack are refused, to be sent again.
#[test]
fn before_policy_revision_1_the_lines_after_a_table_attack_are_refused() {
    let mut s = table_game();
    s.tactical.as_mut().unwrap().revision = 0;
    let o = send(&mut s, "red", &RED_TURN);
    for line in [2, 3] {
        refused_with(&o, line, "battle 1 at iberia is being fought on the table");
    }
    assert!(DustStrategy.decide(&mut s, "battle 1: winner blue").is_ok());
    assert!(DustStrategy.run_held(&mut s, &mut Sixes).results.is_empty());
}

/// 001 "Poteri Speciali" (a power acts in a battle's dice: Sigrid's and the Raketen Truppen's
/// rerolls, the Ace's firepower, the Nurse's die) and 001 "Ritirata" ("Prima di ogni lancio di
/// dado, i giocatori possono decidere di ritirare…": a retreat comes before each roll); ruling
/// R341: a battle fought on the table rolls none of them, so a power or a retreat order on its
/// line is refused with why and the line to send instead, and nothing changes (the power is
/// not spent).
#[test]
fn a_battle_power_or_retreat_on_a_table_attack_is_refused_001_poteri_speciali_ritirata() {
    for (line, what) in [
        (
            "attack 2 tanks from gallia to iberia with sigrid",
            "the battle power sigrid",
        ),
        (
            "attack 2 tanks from gallia to iberia retreat at 1",
            "a retreat order",
        ),
    ] {
        let mut s = table_game();
        give_power(&mut s, "red", "sigrid");
        let before = serde_json::to_string(&s).unwrap();
        let o = send(&mut s, "red", &[line]);
        refused_with(
            &o,
            1,
            "is fought on the table as a Dust Tactics game (battle 1)",
        );
        refused_with(&o, 1, what);
        match &o.results[0].outcome {
            CommandOutcome::Refused { rule, instead, .. } => {
                assert!(
                    rule.contains("001 'Poteri Speciali' and 'Ritirata'"),
                    "{rule}"
                );
                assert!(rule.contains("R341"), "{rule}");
                assert!(
                    instead.starts_with("attack 2 tanks from gallia to iberia ("),
                    "{instead}"
                );
            }
            r => panic!("{r:?}"),
        }
        assert_eq!(serde_json::to_string(&s).unwrap(), before, "{line}");
    }
}

/// 001 "Arma Segreta" ("La si può utilizzare prima di lanciare i dadi in attacco. Tutte le unità
/// nemiche… devono immediatamente ritirarsi"): with it there is no battle to fight, so the
/// attack is never sent to the table (ruling R341); 001's own conditions judge it here (blue's
/// tanks in iberia have nowhere to withdraw, so it is refused by 001's rule, R325).
#[test]
fn arma_segreta_on_an_attack_between_players_is_played_by_001_not_on_the_table() {
    let mut s = table_game();
    give_power(&mut s, "red", "arma-segreta");
    let o = send(
        &mut s,
        "red",
        &["attack 2 tanks from gallia to iberia with arma-segreta"],
    );
    refused_with(&o, 1, "have nowhere to retreat");
    let t = s.tactical.as_ref().unwrap();
    assert!(t.awaited.is_none() && t.count == 0, "{t:?}");
}
