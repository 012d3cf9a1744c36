//! The decisions the engine awaits and the standing orders that answer them (issue 4, engine
//! side; rulings R100–R102 in docs/rulings.md): who goes first, reactive fire, casualty
//! choice (including which of hero or squad takes a point), close-combat retaliation; their
//! options as full commands; the defaults that leave only activations to mail.

use crate::support_flow;

use dustmail::dust_tactics::bot::{Bot, Style, ASK_EVERYTHING};
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::Command;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{CommandOutcome, Game, Line, Outcome, ScriptedDice, Sender};
use support_flow::*;

fn lines(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.into(),
        })
        .collect()
}

/// Submits signed-mail text from `side`, as a player would.
fn send(st: &mut State, side: &str, text: &str, d: &mut ScriptedDice) -> Outcome {
    DustTactics.submit(st, Sender::side(side), &lines(text), d)
}

fn understood(out: &Outcome) -> Vec<String> {
    out.results
        .iter()
        .map(|r| match &r.outcome {
            CommandOutcome::Accepted { understood } => understood.clone(),
            CommandOutcome::Refused { reason, .. } => format!("REFUSED {reason}"),
        })
        .collect()
}

fn options(st: &State, side: &str) -> Vec<String> {
    DustTactics
        .awaiting(st)
        .into_iter()
        .find(|a| a.side == side)
        .map(|a| a.options)
        .unwrap_or_default()
}

/// Allies `a1` (gun 1/1, range 4) at E5; axis `x1` (the same) at E2 and `x2` (cannon 3/2,
/// range 4) at C2. Nobody has standing orders.
fn window_game() -> State {
    let mut big = squad("big");
    big.weapons = vec![weapon("cannon", WeaponRange::Upto(4), 3, 2)];
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("E2")), unit("x2", "big", Some("C2"))],
    );
    start_defaults(s, vec![squad("sq"), big])
}

/// a1 moves to E4 (both axis squads can reach it) and does nothing more.
fn move_a1(st: &mut State, d: &mut ScriptedDice) -> Outcome {
    cmd(st, "allies", activate("a1", vec![mv("E4"), nothing()]), d)
}

#[test]
fn react_r100_default_reacts_with_the_eligible_unit_most_likely_to_hurt_the_mover() {
    // 004 "Reactive fire situations": MOVE + … opens a window after the move. Nobody set a
    // standing order: axis is not asked; x2 (3 dice × 2 damage a model) is chosen over x1.
    let mut st = window_game();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([5]); // the reactive die misses
    let out = move_a1(&mut st, &mut d);
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    let t = texts(&out);
    assert!(
        t.contains("axis reacts with x2, the eligible unit most likely to hurt a1 (default, R100)"),
        "{t}"
    );
    assert!(t.contains("x2 attempts reactive fire at a1: MISS"), "{t}");
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
    assert_eq!(options(&st, "axis"), vec!["activate x1"], "x2 is activated");
}

#[test]
fn react_r102_policy_belongs_to_the_reacting_unit() {
    // `standing react x2 never`: x2 never reacts, so the default picks x1.
    let mut st = window_game();
    let out = send(
        &mut st,
        "axis",
        "standing react x2 never",
        &mut ScriptedDice::new([]),
    );
    assert_eq!(understood(&out), vec!["standing react x2 never"]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([5]);
    let t = texts(&move_a1(&mut st, &mut d));
    assert!(t.contains("axis reacts with x1"), "{t}");
    assert!(!u(&st, "x2").activated);
}

#[test]
fn react_r102_any_never_declines_every_window_without_a_mail() {
    let mut st = window_game();
    flow::standing_react(&mut st, "axis", None, Policy::Never).unwrap();
    begin(&mut st, "allies");
    let out = move_a1(&mut st, &mut ScriptedDice::new([]));
    assert!(texts(&out).contains("standing order of axis: no reactive fire"));
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
}

#[test]
fn react_r102_auto_reacts_with_that_unit_even_when_another_would_hurt_more() {
    // A unit with its own `auto` order is preferred only by harm like any other `auto` unit;
    // with x2 set to never, x1's order is the one followed, and said to be a standing order.
    let mut st = window_game();
    flow::standing_react(&mut st, "axis", Some("x1"), Policy::Yes).unwrap();
    flow::standing_react(&mut st, "axis", Some("x2"), Policy::Never).unwrap();
    begin(&mut st, "allies");
    let t = texts(&move_a1(&mut st, &mut ScriptedDice::new([5])));
    assert!(t.contains("standing order of axis: react with x1"), "{t}");
}

#[test]
fn react_r102_ask_pauses_with_every_candidate_as_a_full_command() {
    let mut st = window_game();
    flow::standing_react(&mut st, "axis", Some("x1"), Policy::Ask).unwrap();
    begin(&mut st, "allies");
    accepted(&move_a1(&mut st, &mut ScriptedDice::new([])));
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
    assert_eq!(
        options(&st, "axis"),
        vec!["react x1", "react x2", "react none"]
    );
    // Each option is a command the player can send as it is.
    let out = send(&mut st, "axis", "react x2", &mut ScriptedDice::new([5]));
    assert_eq!(understood(&out), vec!["react x2"]);
    assert!(u(&st, "x2").activated);
}

#[test]
fn react_r102_older_form_and_refusals() {
    let mut st = window_game();
    let mut d = ScriptedDice::new([]);
    // `standing react <enemy|any> with <your unit>` (R87) is read as `<your unit> auto`.
    let out = send(&mut st, "axis", "standing react any with x1", &mut d);
    assert_eq!(understood(&out), vec!["standing react x1 auto"]);
    assert_eq!(st.standing["axis"].react["x1"], Policy::Yes);
    // The new form names the reacting unit: an enemy unit there is refused, saying why.
    let out = send(&mut st, "axis", "standing react a1 never", &mut d);
    let r = understood(&out).join("");
    assert!(r.contains("a1 is an enemy unit"), "{r}");
    let out = send(&mut st, "axis", "standing react nobody auto", &mut d);
    assert!(understood(&out)[0].contains("there is no unit `nobody`"));
    // The view shows a side its own standing orders only.
    let v = DustTactics.view(&st, Some("allies"));
    assert!(v["standing"].get("axis").is_none());
    let v = DustTactics.view(&st, Some("axis"));
    assert_eq!(v["standing"]["axis"]["react"]["x1"], "yes");
}

// ---------------------------------------------------------------------------------------------
// Close-combat retaliation (004 "Close combat"; R101)
// ---------------------------------------------------------------------------------------------

/// Allies `a1` at E5 and axis `x1` at E4, adjacent; each squad has 4 knives (1/1, range C).
fn melee() -> State {
    let mut cc = squad("cc");
    cc.weapons = vec![weapon("knife", WeaponRange::Close, 1, 1)];
    let s = scenario(
        vec![unit("a1", "cc", Some("E5"))],
        vec![unit("x1", "cc", Some("E4"))],
    );
    let mut st = start_defaults(s, vec![cc]);
    begin(&mut st, "allies");
    st
}

/// a1's sustained knife attack on x1: 4 misses, 4 re-rolled misses (no reactive fire).
fn stab(st: &mut State, d: &mut ScriptedDice) -> Outcome {
    cmd(
        st,
        "allies",
        activate("a1", vec![sustained("knife", "x1")]),
        d,
    )
}

#[test]
fn retaliate_r101_default_is_to_retaliate() {
    // 004 "Close combat": the defender attacks back with its range C weapons at the same time.
    let mut st = melee();
    let mut d = ScriptedDice::new([5, 5, 5, 5, 5, 5, 5, 5, /* x1 */ 1, 5, 5, 5]);
    let out = stab(&mut st, &mut d);
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(texts(&out).contains("x1 retaliates (default, R100)"));
    assert_eq!(u(&st, "a1").models.len(), 3);
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
}

#[test]
fn retaliate_r101_a_destroyed_defender_still_retaliates_simultaneously() {
    // 004 "Close combat": "both sides' range C attacks are simultaneous": x1's 4 models die to
    // a1's knives but strike back before they are removed.
    let mut st = melee();
    let mut d = ScriptedDice::new([
        1, 1, 1, 1, /* x1 */ 1, 1, 5, 5, /* round 2 */ 1, 5, 5, 5, 5, 5,
    ]);
    let out = stab(&mut st, &mut d);
    accepted(&out);
    assert!(u(&st, "x1").destroyed);
    assert_eq!(u(&st, "a1").models.len(), 2);
}

#[test]
fn retaliate_r101_standing_no_declines_without_a_mail() {
    let mut st = melee();
    let out = send(
        &mut st,
        "axis",
        "standing retaliate x1 no",
        &mut ScriptedDice::new([]),
    );
    assert_eq!(understood(&out), vec!["standing retaliate x1 no"]);
    let mut d = ScriptedDice::new([5; 8]);
    let out = stab(&mut st, &mut d);
    assert_eq!(d.remaining(), 0);
    assert!(texts(&out).contains("standing order of axis: x1 never retaliates"));
    assert_eq!(u(&st, "a1").models.len(), 4);
}

#[test]
fn retaliate_r101_ask_makes_it_a_decision_with_two_options() {
    let mut st = melee();
    flow::standing_retaliate(&mut st, "axis", None, Policy::Ask).unwrap();
    accepted(&stab(&mut st, &mut ScriptedDice::new([5; 8])));
    assert_eq!(awaited(&st), vec![("axis".into(), "retaliate".into())]);
    // The options name the defender, so a team player sees it is their unit's decision.
    assert_eq!(
        options(&st, "axis"),
        vec!["retaliate x1 yes", "retaliate x1 no"]
    );
    let t = DustTactics.orders_template(&st, "axis");
    assert!(
        t.contains("strike back") && t.contains("# retaliate x1 no"),
        "{t}"
    );
    // Naming another unit is refused, saying whose retaliation is awaited.
    let out = send(
        &mut st,
        "axis",
        "retaliate x2 yes",
        &mut ScriptedDice::new([]),
    );
    assert!(understood(&out)[0].contains("the retaliation awaited is x1's"));
    // Only the defender's side answers.
    let out = send(
        &mut st,
        "allies",
        "retaliate no",
        &mut ScriptedDice::new([]),
    );
    assert!(understood(&out)[0].contains("axis decides whether x1 retaliates"));
    let mut d = ScriptedDice::new([1, 1, 5, 5]);
    // The short form answers the one awaited decision.
    let out = send(&mut st, "axis", "retaliate yes", &mut d);
    assert_eq!(understood(&out), vec!["retaliate x1 yes"]);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "a1").models.len(), 2);
    // Nothing is awaited any more: a second answer is refused, naming the rule.
    let out = send(&mut st, "axis", "retaliate yes", &mut ScriptedDice::new([]));
    assert!(understood(&out)[0].contains("no close-combat retaliation is awaited"));
}

#[test]
fn retaliate_r101_deadline_default_is_yes() {
    let mut st = melee();
    flow::standing_retaliate(&mut st, "axis", Some("x1"), Policy::Ask).unwrap();
    accepted(&stab(&mut st, &mut ScriptedDice::new([5; 8])));
    // Then x1's own activation defaults to nothing, the round ends, allies win round 2's roll.
    let mut d = ScriptedDice::new([1, 5, 5, 5, /* round 2 */ 1, 5, 5, 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    assert!(understood(&out).contains(&"retaliate x1 yes".to_string()));
    assert_eq!(u(&st, "a1").models.len(), 3);
}

// ---------------------------------------------------------------------------------------------
// Casualties and the joined hero's point (004 "Heroes", "Attacking"; R100)
// ---------------------------------------------------------------------------------------------

/// Allies `a1` (4 models) joined by hero `joe` (3 health) at E5; axis `x1` at E2. a1 has
/// already activated, so x1's attack opens no reactive window.
fn hero_target() -> State {
    let hero = card(
        "joe",
        UnitType::Hero,
        3,
        2,
        vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("joe", "joe", None)],
        vec![unit("x1", "sq", Some("E2"))],
    );
    s.sides[0].units[1].joins = Some("a1".into());
    let mut st = start_defaults(s, vec![squad("sq"), hero]);
    begin(&mut st, "allies");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    st
}

fn x1_fires(st: &mut State, d: &mut ScriptedDice) -> Outcome {
    cmd(
        st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        d,
    )
}

#[test]
fn casualties_r100_default_is_the_card_order_without_asking() {
    // 2 damage: the squad's models go first, last listed first; the hero keeps his health.
    let mut st = hero_target();
    let mut d = ScriptedDice::new([1, 1, 5, 5, /* round 2 */ 1, 5, 5, 5, 5, 5]);
    accepted(&x1_fires(&mut st, &mut d));
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "a1").models, vec!["1", "2"]);
    assert_eq!(u(&st, "joe").health, 3);
}

#[test]
fn casualties_r100_ask_offers_which_of_hero_or_squad_takes_each_point() {
    // 004 "Heroes": the owner chooses whether the hero or a squad model takes each point.
    let mut st = hero_target();
    let out = send(
        &mut st,
        "allies",
        "standing casualties a1 ask",
        &mut ScriptedDice::new([]),
    );
    assert_eq!(understood(&out), vec!["standing casualties a1 ask"]);
    accepted(&x1_fires(&mut st, &mut ScriptedDice::new([1, 1, 5, 5])));
    assert_eq!(awaited(&st), vec![("allies".into(), "casualties".into())]);
    assert_eq!(
        options(&st, "allies"),
        vec![
            "casualties a1: 4 3",
            "casualties a1: 4 joe",
            "casualties a1: joe joe"
        ]
    );
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    let out = send(&mut st, "allies", "casualties a1: joe joe", &mut d);
    assert_eq!(understood(&out), vec!["casualties a1: joe joe"]);
    assert_eq!(u(&st, "joe").health, 1);
    assert_eq!(u(&st, "a1").models.len(), 4);
}

#[test]
fn casualties_r100_a_standing_order_is_followed_and_replaces_ask() {
    let mut st = hero_target();
    flow::standing_casualties_ask(&mut st, "allies", Some("a1")).unwrap();
    let out = send(
        &mut st,
        "allies",
        "standing casualties a1: joe 1",
        &mut ScriptedDice::new([]),
    );
    assert_eq!(understood(&out), vec!["standing casualties a1: joe 1"]);
    let mut d = ScriptedDice::new([1, 1, 1, 5, /* round 2 */ 1, 5, 5, 5, 5, 5]);
    accepted(&x1_fires(&mut st, &mut d));
    // 3 damage: joe, model 1, then the card order (4).
    assert_eq!(u(&st, "joe").health, 2);
    assert_eq!(u(&st, "a1").models, vec!["2", "3"]);
}

// ---------------------------------------------------------------------------------------------
// Who goes first (004 "Initiative"; R100)
// ---------------------------------------------------------------------------------------------

fn duel() -> State {
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
    );
    start_defaults(s, vec![squad("sq")])
}

#[test]
fn first_r100_default_the_winner_activates_first_without_a_mail() {
    let mut st = duel();
    // The activation itself rolls round 1's initiative (allies win 1 hit to 0) and is accepted.
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    let out = send(&mut st, "allies", "activate a1\nnothing\nnothing", &mut d);
    assert_eq!(understood(&out), vec!["activate a1: nothing, nothing"]);
    assert!(texts(&out).contains("allies activates first (default, R100)"));
}

#[test]
fn first_r100_standing_first_ask_and_other_side() {
    let mut st = duel();
    let mut d = ScriptedDice::new([]);
    let out = send(&mut st, "allies", "standing first ask", &mut d);
    assert_eq!(understood(&out), vec!["standing first ask"]);
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    let out = send(&mut st, "axis", "activate x1\nnothing\nnothing", &mut d);
    assert!(understood(&out)[0].contains("allies must first choose"));
    assert_eq!(awaited(&st), vec![("allies".into(), "first".into())]);
    assert_eq!(options(&st, "allies"), vec!["first allies", "first axis"]);
    // A standing choice sent now answers the awaited one at once.
    let out = send(
        &mut st,
        "allies",
        "standing first axis",
        &mut ScriptedDice::new([]),
    );
    assert_eq!(understood(&out), vec!["standing first axis"]);
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
}

// ---------------------------------------------------------------------------------------------
// The bot answers every decision and sets standing orders when told to
// ---------------------------------------------------------------------------------------------

#[test]
fn bot_answers_retaliation_casualties_and_reactions_with_an_offered_option() {
    let mut st = melee();
    flow::standing_retaliate(&mut st, "axis", None, Policy::Ask).unwrap();
    accepted(&stab(&mut st, &mut ScriptedDice::new([5; 8])));
    let mut bot = Bot::new("axis", Style::Aggressive);
    assert_eq!(bot.orders(&st).as_deref(), Some("retaliate x1 yes"));
    let mut random = Bot::new("axis", Style::Random(7));
    let pick = random.orders(&st).unwrap();
    assert!(options(&st, "axis").contains(&pick), "{pick}");

    let mut st = hero_target();
    flow::standing_casualties_ask(&mut st, "allies", None).unwrap();
    accepted(&x1_fires(&mut st, &mut ScriptedDice::new([1, 1, 5, 5])));
    let mut bot = Bot::new("allies", Style::Random(3));
    let pick = bot.orders(&st).unwrap();
    assert!(options(&st, "allies").contains(&pick), "{pick}");
    let out = send(
        &mut st,
        "allies",
        &pick,
        &mut ScriptedDice::new([1, 5, 5, 5, 5, 5]),
    );
    assert!(out.accepted_any(), "{out:?}");
}

#[test]
fn bot_sends_the_standing_orders_it_is_told_to_set() {
    let mut st = duel();
    let mut bot = Bot::new("allies", Style::Aggressive);
    bot.set_standing(ASK_EVERYTHING);
    let text = bot.orders(&st).unwrap();
    assert!(text.starts_with(ASK_EVERYTHING), "{text}");
    let out = send(
        &mut st,
        "allies",
        &text,
        &mut ScriptedDice::new([1, 5, 5, 5, 5, 5]),
    );
    assert!(
        out.results
            .iter()
            .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. })),
        "{out:?}"
    );
    let s = &st.standing["allies"];
    assert!(s.first_ask);
    assert_eq!(s.react["any"], Policy::Ask);
    assert_eq!(s.retaliate["any"], Policy::Ask);
    assert_eq!(s.casualties_ask, vec!["any"]);
    // Told nothing more, it sends only its answers.
    let next = bot.orders(&st).unwrap_or_default();
    assert!(!next.contains("standing"), "{next}");
}

#[test]
fn parse_r101_retaliate_needs_yes_or_no() {
    let mut st = melee();
    let out = send(
        &mut st,
        "axis",
        "retaliate maybe",
        &mut ScriptedDice::new([]),
    );
    assert!(understood(&out)[0].contains("`retaliate yes` or `retaliate no`"));
    let out = send(
        &mut st,
        "axis",
        "standing retaliate x1 perhaps",
        &mut ScriptedDice::new([]),
    );
    assert!(understood(&out)[0].contains("must end with `yes`, `no` or `ask`"));
    let out = send(
        &mut st,
        "axis",
        "standing retaliate a1 yes",
        &mut ScriptedDice::new([]),
    );
    assert!(understood(&out)[0].contains("not one of your units"));
}

#[test]
fn command_display_round_trips_the_new_forms() {
    for text in [
        "retaliate yes",
        "retaliate x1 no",
        "standing retaliate any ask",
        "standing retaliate x1 no",
        "standing casualties any ask",
        "standing react x1 auto",
    ] {
        let st = melee();
        let cmds = dustmail::dust_tactics::bot::parse_text(&st, text);
        assert_eq!(cmds.len(), 1, "{text}");
        assert_eq!(cmds[0].to_string(), text);
        let _: &Command = &cmds[0];
    }
}

#[test]
fn standing_r101_r102_a_units_own_order_beats_any() {
    // Retaliation: `any ask` but `x1 yes` → x1 strikes back without a mail.
    let mut st = melee();
    flow::standing_retaliate(&mut st, "axis", None, Policy::Ask).unwrap();
    let out = send(
        &mut st,
        "axis",
        "standing retaliate x1 yes",
        &mut ScriptedDice::new([]),
    );
    assert_eq!(understood(&out), vec!["standing retaliate x1 yes"]);
    let mut d = ScriptedDice::new([5, 5, 5, 5, 5, 5, 5, 5, /* x1 */ 1, 5, 5, 5]);
    let out = stab(&mut st, &mut d);
    assert!(texts(&out).contains("standing order of axis: x1 retaliates"));
    assert_eq!(u(&st, "a1").models.len(), 3);
    // Reactive fire: `any never` but `x1 auto` → x1 reacts; x2 stays out.
    let mut st = window_game();
    flow::standing_react(&mut st, "axis", None, Policy::Never).unwrap();
    flow::standing_react(&mut st, "axis", Some("x1"), Policy::Yes).unwrap();
    begin(&mut st, "allies");
    let t = texts(&move_a1(&mut st, &mut ScriptedDice::new([5])));
    assert!(t.contains("standing order of axis: react with x1"), "{t}");
    assert!(!u(&st, "x2").activated);
}
