//! Issue 12: the Commissar of 004's skills reference (seed `004_cf4d25af06d5d991.txt`,
//! "Commissar"), with the provisional card games/dust-tactics/cards-joining/commissar.toml and
//! the scenario games/dust-tactics/scenarios-joining/commissar-watch.toml played by mail. Every
//! test names its seed and section and quotes its sentence (rulings R478, R479, R487–R489).

use super::command_squads::{command_squad_card, order};
use super::joining_004::{card_in, game, joiner, refusal, setup};
use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::game::ScriptedDice;

/// The Commissar card, a soldier-2 hero `joe` (the test squad `sq` is soldier 2 too) and a
/// squad of Commissars `cq`.
fn extra() -> Vec<Card> {
    let mut cq = with_skill(squad("cq"), "commissar", None);
    cq.name = "Commissar Squad".into();
    vec![
        card_in("cards-joining", "commissar"),
        card("joe", UnitType::Hero, 3, 1, vec![]),
        cq,
        command_squad_card("cs", 2),
    ]
}

/// Rangers joined by hero Joe and by the Commissar; a foe squad far away.
fn watch() -> State {
    game(
        vec![
            unit("rangers", "sq", Some("E8")),
            joiner("joe", "joe", "rangers"),
            joiner("kom", "commissar", "rangers"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        extra(),
    )
}

// 004 "Commissar": "The unit can join other units in the same way a hero joins a unit. It does
// not count as a hero, so a hero may also join the same unit." Hero Joe and the Commissar both
// join the rangers; the three activate and move as one unit, and the Commissar cannot be
// activated apart (R478).
#[test]
fn commissar_004_joins_a_squad_as_a_hero_does_and_a_hero_may_also_join_it() {
    let mut st = watch();
    assert_eq!(u(&st, "joe").joined.as_deref(), Some("rangers"));
    assert_eq!(u(&st, "kom").joined.as_deref(), Some("rangers"));
    assert_eq!(u(&st, "kom").at, Some(sq("E8")));
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate kom\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_err(), "{out:?}");
    assert_eq!(st, before, "a refused activation changes nothing");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("rangers", vec![mv("E7"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    for id in ["rangers", "joe", "kom"] {
        assert_eq!(u(&st, id).at, Some(sq("E7")), "{id} moves with the unit");
        assert!(u(&st, id).activated, "{id} activated with the unit");
    }
}

// 004 "Commissar": "in the same way a hero joins a unit": the hero's conditions hold for him
// too, so a Commissar of another armour class cannot join (000 "Heroes"; R479).
#[test]
fn commissar_004_joins_in_the_same_way_a_hero_joins_a_unit() {
    let mut heavy = card_in("cards-joining", "commissar");
    heavy.id = "heavy-kom".into();
    heavy.armour = Armour::Soldier(3);
    let e = setup(
        vec![
            unit("rangers", "sq", Some("E8")),
            joiner("kom", "heavy-kom", "rangers"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![heavy],
    )
    .expect_err("armour class differs");
    assert!(e.contains("armour class must match"), "{e}");
}

// 004 "Commissar": "Only 1 Commissar can join a unit". A second Commissar joining the same
// squad is refused at setup, naming the rule and what to send instead; a second hero is
// refused as before.
#[test]
fn commissar_004_only_one_commissar_can_join_a_unit() {
    let mut two = card_in("cards-joining", "commissar");
    two.id = "kom2".into();
    let mut cards = extra();
    cards.push(two);
    let e = setup(
        vec![
            unit("rangers", "sq", Some("E8")),
            joiner("kom", "commissar", "rangers"),
            joiner("kom-b", "kom2", "rangers"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        cards,
    )
    .expect_err("two Commissars");
    assert!(
        e.contains("kom-b cannot join squad rangers")
            && e.contains("Only 1 Commissar can join a unit")
            && e.contains("remove one `joins`"),
        "{e}"
    );
    let mut joe2 = card("joe2", UnitType::Hero, 3, 1, vec![]);
    joe2.armour = Armour::Soldier(2);
    let mut cards = extra();
    cards.push(joe2);
    let e = setup(
        vec![
            unit("rangers", "sq", Some("E8")),
            joiner("kom", "commissar", "rangers"),
            joiner("joe", "joe", "rangers"),
            joiner("joe-b", "joe2", "rangers"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        cards,
    )
    .expect_err("two heroes");
    assert!(e.contains("already has a hero"), "{e}");
}

// 004 "Commissar": "(an individual Commissar can join a full unit of Commissars)": a squad
// whose card has the skill is joined by an individual Commissar, and by a hero too (R479).
#[test]
fn commissar_004_an_individual_commissar_can_join_a_full_unit_of_commissars() {
    let st = game(
        vec![
            unit("komsquad", "cq", Some("E8")),
            joiner("kom", "commissar", "komsquad"),
            joiner("joe", "joe", "komsquad"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        extra(),
    );
    assert_eq!(u(&st, "kom").joined.as_deref(), Some("komsquad"));
    assert_eq!(u(&st, "joe").joined.as_deref(), Some("komsquad"));
}

// 004 "Commissar": "A Commissar cannot join an individual hero who has not joined a squad."
// Naming a lone hero is refused; naming a hero who joined a squad is refused too, telling to
// name the squad, which he then joins beside the hero (R479).
#[test]
fn commissar_004_cannot_join_an_individual_hero_who_has_not_joined_a_squad() {
    let e = setup(
        vec![
            unit("joe", "joe", Some("E8")),
            joiner("kom", "commissar", "joe"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        extra(),
    )
    .expect_err("a Commissar joining a lone hero");
    assert!(
        e.contains("Commissar kom cannot join joe, an individual hero")
            && e.contains("cannot join an individual hero who has not joined a squad")
            && e.contains("004 'Commissar'")
            && e.contains("`joins` = the squad"),
        "{e}"
    );
    let e = setup(
        vec![
            unit("rangers", "sq", Some("E8")),
            joiner("joe", "joe", "rangers"),
            joiner("kom", "commissar", "joe"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        extra(),
    )
    .expect_err("a Commissar naming a joined hero");
    assert!(e.contains("`joins` = the squad"), "{e}");
}

// 004 "Commissar": "A Commissar joins a unit for the entire game and cannot leave the unit for
// any reason." `skill detach` takes the hero away and leaves the Commissar with the squad; on a
// squad with a Commissar only, it is refused, naming the rule (R488).
#[test]
fn commissar_004_cannot_leave_the_unit_for_any_reason() {
    let mut st = watch();
    accepted(&cmd(
        &mut st,
        "allies",
        activate("rangers", vec![skill("detach"), nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "joe").joined, None, "the hero splits off");
    assert_eq!(u(&st, "kom").joined.as_deref(), Some("rangers"));
    let mut st = game(
        vec![
            unit("rangers", "sq", Some("E8")),
            joiner("kom", "commissar", "rangers"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        extra(),
    );
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate rangers\nskill detach\nnothing",
        &mut Cycle(1),
    );
    let e = refusal(&out);
    assert!(
        e.contains("its Commissar never leaves") && e.contains("cannot leave the unit"),
        "{e}"
    );
    assert_eq!(st, before);
}

// 004 "Commissar": "It does not count as a hero": he is one more miniature of the unit, and the
// owner assigns damage across squad, hero and Commissar as for a hero (R259, R478): the options
// offered name him, one point of health each.
#[test]
fn commissar_004_the_owner_assigns_damage_across_squad_hero_and_commissar() {
    let st = watch();
    let options = dustmail::dust_tactics::flow::casualty_options(&st, "rangers", 2);
    assert!(
        options.iter().any(|o| o.ends_with(": kom kom")),
        "{options:?}"
    );
    assert!(
        options
            .iter()
            .any(|o| o.contains("joe") && o.contains("kom")),
        "{options:?}"
    );
    let options = dustmail::dust_tactics::flow::casualty_options(&st, "rangers", 9);
    assert_eq!(options.len(), 1, "9 points take everything: {options:?}");
}

// 004 "Commissar": "If the unit is brought back into play, he returns to play with the unit."
// The rangers and their Commissar fell; Come On Guys brings the squad back, the Commissar with
// it, joined again, and they enter together (R487).
#[test]
fn commissar_004_returns_to_play_with_the_unit_brought_back() {
    let mut st = game(
        vec![
            unit("cs", "cs", Some("A5")),
            unit("rangers", "sq", Some("E8")),
            joiner("kom", "commissar", "rangers"),
        ],
        vec![unit("foe", "sq", Some("I1"))],
        extra(),
    );
    for id in ["rangers", "kom"] {
        let x = st.unit_mut(id).unwrap();
        x.destroyed = true;
        x.at = None;
        x.health = 0;
        x.models.clear();
        x.joined = None;
    }
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("come-on-guys", "rangers"), nothing()]),
        &mut ScriptedDice::new([1]),
    );
    accepted(&out);
    let k = u(&st, "kom");
    assert!(!k.destroyed, "he returns to play: {}", texts(&out));
    assert!(texts(&out).contains("kom, its Commissar, returns to play with rangers"));
    assert_eq!((k.joined.as_deref(), k.health), (Some("rangers"), 2));
    accepted(&cmd(
        &mut st,
        "allies",
        activate("rangers", vec![mv("D9"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "rangers").at, Some(sq("D9")));
    assert_eq!(u(&st, "kom").at, Some(sq("D9")), "he enters with the unit");
}

// Issue 12: "The Commissar's Watch" (games/dust-tactics/scenarios-joining/) fields rangers
// joined by Captain Brown and by a Commissar (004 "Commissar"), with the Commissar card of
// cards-joining given by `new --cards`. Two players play it to its end through signed mails run
// by the real pipeline; replay and audit pass.
#[test]
fn commissar_004_commissar_watch_played_to_its_end_by_signed_mail() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let scenario = root.join("games/dust-tactics/scenarios-joining/commissar-watch.toml");
    let cards = root.join("games/dust-tactics/cards-joining");
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &[
            "--scenario",
            scenario.to_str().unwrap(),
            "--cards",
            cards.to_str().unwrap(),
        ],
        ("g-kom", 23, 6),
    );
    let mut bots = dt::Bots::new("g-kom", &ps, |i| Style::Random(91 + i as u64));
    env.run(dt::NOW);
    let g = env.load("g-kom");
    let st: State = g.derived.state.typed::<State>().clone();
    assert_eq!(u(&st, "brown").joined.as_deref(), Some("rangers"));
    assert_eq!(u(&st, "commissar").joined.as_deref(), Some("rangers"));
    bots.play_to_end(&home, &env);
    let g = env.load("g-kom");
    assert!(g.derived.finished.is_some(), "the game did not end");
    assert!(bots.sent > 8, "only {} mails", bots.sent);
    dt::replay_and_audit(&home, "g-kom");
}
