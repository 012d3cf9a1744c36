//! Issue 18, third slice under battlefront-2013: the two reaction gaps of the second slice (the
//! turn-then-Attack choice of two army symbols, R255; reactions to a March Move, R256). Each test
//! is named after 003's section, quotes its sentence, and plays the engine with scripted dice.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Outcome, ScriptedDice};

/// The 003 starter card `id` (games/dust-tactics/cards-battlefront/).
fn bf_card(id: &str) -> Card {
    let file = format!("{id}.toml");
    let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == file)
        .expect("battlefront card");
    dustmail::dust_tactics::cards::parse_card(&file, text).expect("card parses")
}

/// A squad of 4 with a gun of range 8 (1 die a model, 1 damage), Move 1.
fn squad_card() -> Card {
    card(
        "sq",
        UnitType::Squad,
        4,
        1,
        vec![weapon("gun", WeaponRange::Upto(8), 1, 1)],
    )
}

/// 003's walkers: the Pounder (allies) on `pounder`, the Ludwig (axis) on `ludwig`, under
/// battlefront-2013; allies activate first. A spare squad a side, out of reach (I9, A9), keeps
/// the turn going. `axis_react` is the axis standing react order.
fn walkers(pounder: &str, ludwig: &str, axis_react: &str) -> State {
    let s = scenario(
        vec![
            unit("pounder", "bf-pounder", Some(pounder)),
            unit("spare-a", "sq", Some("I9")),
        ],
        vec![
            unit("ludwig", "bf-ludwig", Some(ludwig)),
            unit("spare-x", "sq", Some("A9")),
        ],
    );
    let cards = vec![bf_card("bf-pounder"), bf_card("bf-ludwig"), squad_card()];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    begin(&mut st, "allies");
    let out = send(
        &mut st,
        "axis",
        &format!("standing react any {axis_react}"),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    st
}

/// Squads `ours` (allies) and `theirs` (axis) with spares out of reach; allies first.
fn squads(ours_at: &str, theirs_at: &str) -> State {
    let s = scenario(
        vec![
            unit("ours", "sq", Some(ours_at)),
            unit("spare-a", "sq", Some("I9")),
        ],
        vec![
            unit("theirs", "sq", Some(theirs_at)),
            unit("spare-x", "sq", Some("A1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![squad_card()])
        .expect("setup");
    begin(&mut st, "allies");
    st
}

/// Dice: `first` then misses (target and shield symbols only) for whatever follows.
fn then_misses(first: &[u8]) -> ScriptedDice {
    let misses = (0..120).map(|i| [3u8, 4, 5, 6][i % 4]);
    ScriptedDice::new(first.iter().copied().chain(misses).collect::<Vec<u8>>())
}

fn lines(out: &Outcome) -> Vec<String> {
    out.happenings.iter().map(|h| h.text.clone()).collect()
}

/// The index of the first happening containing `what` (panics with the report if none).
fn at(out: &Outcome, what: &str) -> usize {
    lines(out)
        .iter()
        .position(|t| t.contains(what))
        .unwrap_or_else(|| panic!("no `{what}` in {:#?}", lines(out)))
}

/// The rolls of the reports whose purpose starts with `purpose`: their dice counts.
fn rolls(out: &Outcome, purpose: &str) -> Vec<usize> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter())
        .filter(|r| r.purpose.starts_with(purpose))
        .map(|r| r.faces.len())
        .collect()
}

fn is_accepted(out: &Outcome, i: usize) -> bool {
    matches!(out.results[i].outcome, CommandOutcome::Accepted { .. })
}

const POUNDER_MOVES: &str = "activate pounder\n  move B3\n  attack 17-pdr at ludwig";

// issue 18 item 3, 003 "Reactive Attacks": "On a roll of [army][army], the unit succeeds and will
// activate for either a Sustained Attack action, or a Move action followed by an Attack action.
// The Move action can only be used to rotate the model", and "Reacting to a Flank Attack with a
// Walker": "the Pounder is outside the field of fire of the Ludwig's twin 8.8cm FpK guns, so the
// Axis player will need to roll [army][army] to allow it to rotate and then attack with its
// reactive attack". The Ludwig on E3 faces south; the Pounder steps to B3, due west. Its owner
// answers `react ludwig turn`: on two army symbols the Ludwig turns to face west and makes one
// Attack with its front guns (7 dice, no re-roll).
#[test]
fn s003_reactive_attacks_two_army_symbols_a_move_to_rotate_then_an_attack_by_mail() {
    let mut st = walkers("A3", "E3", "ask");
    let out = send(&mut st, "allies", POUNDER_MOVES, &mut then_misses(&[]));
    at(&out, "may react against pounder");
    // The orders template explains the two dice and shows the choice.
    let template = dustmail::dust_tactics::view::orders_template(&st, "axis");
    assert!(
        template.contains("#   react ludwig turn\n") && template.contains("# react ludwig\n"),
        "{template}"
    );
    let out = send(
        &mut st,
        "axis",
        "react ludwig turn",
        &mut then_misses(&[1, 2]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    let two = at(&out, "two army symbols");
    let turn = at(
        &out,
        "ludwig uses its two army symbols for a Move that only turns it, to face W towards pounder, then an Attack",
    );
    let fires = at(&out, "ludwig fires Twin 8.8 cm FpK");
    assert!(two < turn && turn < fires, "{:#?}", lines(&out));
    // One Attack: the 7 dice of 003's example, no Sustained re-roll.
    assert_eq!(rolls(&out, "attack fpk"), vec![7], "{:#?}", lines(&out));
    assert!(rolls(&out, "sustained").is_empty(), "{:#?}", lines(&out));
    assert_eq!(u(&st, "ludwig").facing, Some(Facing::W));
    assert!(u(&st, "ludwig").activated);
}

// issue 18 item 3, 003 "Reactive Attacks": "either a Sustained Attack action, or a Move action
// followed by an Attack action" is the reacting player's choice: `react ludwig sustained` keeps
// the facing and makes the Sustained Attack, with what can fire from it ("Normal attack rules
// apply"): the front guns point away and the MG 44 cannot hurt the Pounder, so nothing fires.
#[test]
fn s003_reactive_attacks_two_army_symbols_the_sustained_attack_chosen_by_mail() {
    let mut st = walkers("A3", "E3", "ask");
    send(&mut st, "allies", POUNDER_MOVES, &mut then_misses(&[]));
    let out = send(
        &mut st,
        "axis",
        "react ludwig sustained",
        &mut then_misses(&[1, 2]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    at(&out, "two army symbols, it makes a Sustained Attack");
    assert!(rolls(&out, "attack fpk").is_empty(), "{:#?}", lines(&out));
    assert!(
        rolls(&out, "sustained fpk").is_empty(),
        "{:#?}",
        lines(&out)
    );
    assert_eq!(u(&st, "ludwig").facing, None, "it did not turn");
    assert!(u(&st, "ludwig").activated);
}

// issue 18 item 3, 003 "Reacting to a Flank Attack with a Walker": "Any other roll won't let it
// shoot the Pounder with the forward-firing guns" (R255: the reaction fires only what its field
// of fire allows). One army symbol: an Attack from where the Ludwig faces, so its front guns stay
// silent.
#[test]
fn s003_reacting_to_a_flank_attack_with_a_walker_one_army_symbol_no_front_guns() {
    let mut st = walkers("A3", "E3", "auto");
    let out = send(&mut st, "allies", POUNDER_MOVES, &mut then_misses(&[1, 3]));
    at(
        &out,
        "ludwig attempts a reactive attack at pounder: one army symbol, it makes an Attack",
    );
    assert!(rolls(&out, "attack fpk").is_empty(), "{:#?}", lines(&out));
    assert!(
        !lines(&out).iter().any(|t| t.contains("ludwig fires")),
        "{:#?}",
        lines(&out)
    );
    assert!(u(&st, "ludwig").activated);
}

// issue 18 item 3, 003 "Reacting to a Flank Attack with a Walker": "the Axis player will need to
// roll [army][army] to allow it to rotate and then attack". With no choice stated (a standing
// `auto`), R255: the referee turns the Ludwig when that brings more weapons to bear than the
// Sustained Attack from its facing, as here; the Sustained Attack otherwise (the squads' test).
#[test]
fn s003_reactive_attacks_two_army_symbols_the_default_turns_a_walker_whose_guns_point_away() {
    let mut st = walkers("A3", "E3", "auto");
    let out = send(&mut st, "allies", POUNDER_MOVES, &mut then_misses(&[2, 1]));
    at(&out, "to face W towards pounder, then an Attack");
    assert_eq!(rolls(&out, "attack fpk"), vec![7], "{:#?}", lines(&out));
    assert_eq!(u(&st, "ludwig").facing, Some(Facing::W));
    // A squad, whose guns fire in any direction, keeps the Sustained Attack.
    let mut st = squads("E5", "E1");
    let out = send(
        &mut st,
        "allies",
        "activate ours\n  move E4\n  attack gun at theirs",
        &mut then_misses(&[1, 2]),
    );
    at(&out, "two army symbols, it makes a Sustained Attack");
    assert!(
        !lines(&out).iter().any(|t| t.contains("turns it")),
        "{:#?}",
        lines(&out)
    );
}

// issue 18 item 3, 003 "Reactive Attacks": the choice is the reacting player's, and only
// battlefront-2013 rolls 003's two dice: `react <unit> turn` is refused under ffg-revised with
// what to send instead, changing nothing; a bad unit in the choice form is a parse error naming
// the line.
#[test]
fn s003_reactive_attacks_the_choice_refused_where_there_is_none() {
    let s = scenario(
        vec![unit("ours", "sq", Some("E5"))],
        vec![unit("theirs", "sq", Some("E1"))],
    );
    let mut st = start(s, vec![squad_card()]);
    begin(&mut st, "allies");
    send(
        &mut st,
        "allies",
        "activate ours\n  move E4\n  attack gun at theirs",
        &mut then_misses(&[]),
    );
    let before = serde_json::to_string(&st).unwrap();
    let out = send(&mut st, "axis", "react theirs turn", &mut then_misses(&[]));
    let CommandOutcome::Refused {
        reason, instead, ..
    } = &out.results[0].outcome
    else {
        panic!("{:?}", out.results[0].outcome);
    };
    assert!(
        reason.contains("ruleset ffg-revised has no such roll"),
        "{reason}"
    );
    assert_eq!(instead, "react theirs");
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
    let parsed = dustmail::dust_tactics::orders::parse(
        &[dustmail::game::Line {
            number: 3,
            text: "react 9$ turn".into(),
        }],
        &Board::open(9, 9).unwrap(),
    );
    let Some(Err(e)) = parsed.first() else {
        panic!("{parsed:?}");
    };
    assert_eq!(e.line, 3);
    assert!(e.reason.contains("`9$` is not a unit id"), "{}", e.reason);
    assert_eq!(e.instead, "react rangers turn");
    // The choice form prints back as sent (the ledger keeps the canonical form).
    let parsed = dustmail::dust_tactics::orders::parse(
        &[dustmail::game::Line {
            number: 1,
            text: "React Ludwig TURN".into(),
        }],
        &Board::open(9, 9).unwrap(),
    );
    let Some(Ok(p)) = parsed.first() else {
        panic!("{parsed:?}");
    };
    assert_eq!(p.command.to_string(), "react ludwig turn");
}

// issue 18 item 3, 003 "Reacting to a March Move": "If the opposing unit is performing a March
// Move action and you wish to make a Reactive Attack against it, the unit makes a normal Move
// action before you attempt the Reactive Attack, then completes its March Move afterwards." Ours
// marches E6 → E5 → E4; after the normal Move it stands on E5, four squares from theirs on E1,
// which reacts (one army symbol: an Attack of 4 dice); then ours completes the March Move.
#[test]
fn s003_reacting_to_a_march_move_after_the_normal_move() {
    let mut st = squads("E6", "E1");
    let out = send(
        &mut st,
        "allies",
        "activate ours\n  move E5\n  move E4",
        &mut then_misses(&[1, 3]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    let first = at(&out, "ours moves to E5 (E5)");
    let react = at(
        &out,
        "theirs attempts a reactive attack at ours: one army symbol, it makes an Attack",
    );
    let fires = at(&out, "theirs fires gun");
    let rest = at(&out, "ours moves to E4 (E4)");
    assert!(
        first < react && react < fires && fires < rest,
        "{:#?}",
        lines(&out)
    );
    assert_eq!(rolls(&out, "attack gun"), vec![4], "{:#?}", lines(&out));
    assert_eq!(u(&st, "ours").at, Some(sq("E4")));
    assert!(u(&st, "theirs").activated);
}

// issue 18 item 3, 003 "Reacting to a March Move" with "at a Range of four squares or less from
// the activating unit": the window is after the normal Move, so the range counts from there.
// Ours marches E7 → E6 → E5: on E6 it is five squares from theirs, and no reaction comes, though
// the March Move ends within four.
#[test]
fn s003_reacting_to_a_march_move_range_counted_after_the_normal_move() {
    let mut st = squads("E7", "E1");
    let out = send(
        &mut st,
        "allies",
        "activate ours\n  move E6\n  move E5",
        &mut then_misses(&[]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    assert!(
        !lines(&out).iter().any(|t| t.contains("reactive")),
        "{:#?}",
        lines(&out)
    );
    assert_eq!(u(&st, "ours").at, Some(sq("E5")));
    assert!(!u(&st, "theirs").activated);
}

// issue 18 item 3, 003 "Reacting to a March Move" and "After the reaction, the enemy unit carries
// on with its remaining action(s), if it survived": the reaction eliminates the marching squad
// on E5 (four hits, four failed Infantry Saves), and the rest of the March Move never happens.
#[test]
fn s003_reacting_to_a_march_move_a_destroyed_unit_does_not_complete_it() {
    let mut st = squads("E6", "E1");
    // Reaction [1, 2]: a Sustained Attack; 4 dice, all army (hits); 4 Infantry Saves missed.
    let out = send(
        &mut st,
        "allies",
        "activate ours\n  move E5\n  move E4",
        &mut then_misses(&[1, 2, 1, 1, 1, 1]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    at(&out, "ours moves to E5 (E5)");
    assert!(
        !lines(&out).iter().any(|t| t.contains("moves to E4")),
        "{:#?}",
        lines(&out)
    );
    assert!(u(&st, "ours").destroyed, "{:#?}", lines(&out));
}

// issue 18 item 3, 003 "Reacting to a March Move", a unit entering the board: its first action
// "must be a Move or March Move action in which it moves on from the edge of the table"
// ("Moving On To the Table"); the entering Move is the normal Move, and the reaction comes
// before the rest of the March Move.
#[test]
fn s003_reacting_to_a_march_move_entering_the_board() {
    let s = scenario(
        vec![unit("ours", "sq", None), unit("spare-a", "sq", Some("I1"))],
        vec![
            unit("theirs", "sq", Some("E5")),
            unit("spare-x", "sq", Some("A1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![squad_card()])
        .expect("setup");
    begin(&mut st, "allies");
    let out = send(
        &mut st,
        "allies",
        "activate ours\n  move E9\n  move E8",
        &mut then_misses(&[3, 5]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    let enter = at(&out, "ours enters the battlefield at E9");
    let react = at(
        &out,
        "theirs attempts a reactive attack at ours: no army symbol",
    );
    let rest = at(&out, "ours moves to E8");
    assert!(enter < react && react < rest, "{:#?}", lines(&out));
}

// issue 18 item 3, 003 "Reactive Attacks": "either a Sustained Attack action, or a Move action
// followed by an Attack action", chosen in advance: `standing react <your unit|any>
// turn|sustained` answers for the windows the owner is not asked about. The Ludwig told
// `sustained` keeps its facing (its front guns stay silent); a squad told `turn` turns towards
// the mover and makes one Attack (4 dice, no re-roll) though its guns fire in any direction.
#[test]
fn s003_reactive_attacks_two_army_symbols_chosen_by_a_standing_order() {
    let mut st = walkers("A3", "E3", "auto");
    let out = send(
        &mut st,
        "axis",
        "standing react ludwig sustained",
        &mut then_misses(&[]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    // Its owner's report lists it among the standing orders.
    let view = dustmail::game::Game::view(&DustTactics, &st, Some("axis"));
    let standing = dustmail::dust_tactics::present::standing_lines(&view, Some("axis"));
    assert!(
        standing
            .iter()
            .any(|l| l == "standing react ludwig sustained"),
        "{standing:?}"
    );
    let out = send(&mut st, "allies", POUNDER_MOVES, &mut then_misses(&[1, 2]));
    at(&out, "two army symbols, it makes a Sustained Attack");
    assert!(rolls(&out, "attack fpk").is_empty(), "{:#?}", lines(&out));
    assert_eq!(u(&st, "ludwig").facing, None, "it did not turn");

    let mut st = squads("E5", "E1");
    let out = send(
        &mut st,
        "axis",
        "standing react any turn",
        &mut then_misses(&[]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    let out = send(
        &mut st,
        "allies",
        "activate ours\n  move E4\n  attack gun at theirs",
        &mut then_misses(&[1, 2]),
    );
    at(
        &out,
        "theirs uses its two army symbols for a Move that only turns it, to face S towards ours, then an Attack",
    );
    assert_eq!(rolls(&out, "attack gun"), vec![4, 4], "{:#?}", lines(&out));
    assert_eq!(u(&st, "theirs").facing, Some(Facing::S));

    // Only battlefront-2013 has the choice: refused under ffg-revised, nothing changed.
    let s = scenario(
        vec![unit("ours", "sq", Some("E5"))],
        vec![unit("theirs", "sq", Some("E1"))],
    );
    let mut st = start(s, vec![squad_card()]);
    let before = serde_json::to_string(&st).unwrap();
    let out = send(
        &mut st,
        "axis",
        "standing react any turn",
        &mut then_misses(&[]),
    );
    let CommandOutcome::Refused { reason, .. } = &out.results[0].outcome else {
        panic!("{:?}", out.results[0].outcome);
    };
    assert!(
        reason.contains("ruleset ffg-revised has no such roll"),
        "{reason}"
    );
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
}

// issue 18 item 3, docs/ledger.md "Rules revisions": a battlefront-2013 game made under rules
// revision 3 (before R255–R256) keeps what it started with, so its ledger replays as recorded:
// its March Move opens no window (R272) and two army symbols make the Sustained Attack (R271).
#[test]
fn battlefront_reactions_of_a_game_made_before_revision_4_are_unchanged() {
    let mut st = squads("E6", "E1");
    st.rules_revision = 3;
    let out = send(
        &mut st,
        "allies",
        "activate ours\n  move E5\n  move E4",
        &mut then_misses(&[]),
    );
    assert!(is_accepted(&out, 0), "{:?}", out.results[0].outcome);
    assert!(
        !lines(&out).iter().any(|t| t.contains("reactive")),
        "{:#?}",
        lines(&out)
    );
    at(&out, "ours moves to E4 (E5 E4)");
    let mut st = walkers("A3", "E3", "auto");
    st.rules_revision = 3;
    let out = send(&mut st, "allies", POUNDER_MOVES, &mut then_misses(&[1, 2]));
    at(&out, "two army symbols, it makes a Sustained Attack");
    assert!(
        !lines(&out).iter().any(|t| t.contains("turns it")),
        "{:#?}",
        lines(&out)
    );
}
