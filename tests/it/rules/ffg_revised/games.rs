//! Whole games of every shipped scenario with the real cards, geometry and combat, played by
//! `dust_tactics::bot::Bot` through `Game::submit` (the text a player would sign):
//! - DESIGN §6 / issue 3 item 12: random legal games always end, and no unit ever stands on an
//!   illegal square (checked after every submission);
//! - issue 4 / R100: two players who set no standing order are asked only for activations;
//! - every option the engine offers is a command the player can send as it is.

use dustmail::dust_tactics::bot::{Bot, Style, ASK_EVERYTHING};
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::{cards, flow, scenario, DustTactics};
use dustmail::game::{CommandOutcome, DiceSource, Game, Line, Sender, Setup};

struct Rng(u64);

impl DiceSource for Rng {
    fn d6(&mut self, _round: u32) -> u8 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % 6) as u8 + 1
    }
}

fn setup(name: &str, text: &str) -> State {
    let setup = Setup {
        ruleset: "ffg-revised".into(),
        scenario_name: name.into(),
        scenario: text.into(),
        cards: cards::builtin()
            .into_iter()
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .collect(),
        sides: vec![],
        rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
    };
    DustTactics.setup(&setup).expect("shipped scenario sets up")
}

/// The shipped scenarios that suit ffg-revised (issue 18 added one written for
/// battlefront-2013's cards only).
fn ffg_scenarios() -> Vec<(&'static str, &'static str)> {
    scenario::builtin()
        .into_iter()
        .filter(|(n, t)| {
            let s = scenario::parse(n, t).unwrap();
            s.rulesets.is_empty() || s.rulesets.iter().any(|r| r == "ffg-revised")
        })
        .collect()
}

fn lines(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.into(),
        })
        .collect()
}

/// Plays `name` to its end; returns the decisions awaited along the way (decision names).
fn play(
    name: &str,
    text: &str,
    style: impl Fn(usize) -> Style,
    standing: Option<&str>,
    seed: u64,
) -> Vec<String> {
    let mut st = setup(name, text);
    let mut bots: Vec<Bot> = st
        .sides()
        .iter()
        .enumerate()
        .map(|(i, s)| Bot::new(s, style(i)))
        .collect();
    if let Some(t) = standing {
        for b in bots.iter_mut() {
            b.set_standing(t);
        }
    }
    let mut dice = Rng(seed);
    let mut decisions = vec![];
    for _ in 0..3000 {
        if st.result.is_some() {
            break;
        }
        for a in DustTactics.awaiting(&st) {
            decisions.push(a.decision);
        }
        let mut sent = false;
        for b in bots.iter_mut() {
            let Some(orders) = b.orders(&st) else {
                continue;
            };
            let out =
                DustTactics.submit(&mut st, Sender::side(&b.side), &lines(&orders), &mut dice);
            for r in &out.results {
                assert!(
                    matches!(r.outcome, CommandOutcome::Accepted { .. }),
                    "{name} seed {seed}: {} sent\n{orders}\nand got {:?}",
                    b.side,
                    r.outcome
                );
            }
            let bad = flow::illegal_positions(&st);
            assert!(
                bad.is_empty(),
                "{name} seed {seed}: after\n{orders}\n{bad:?}"
            );
            sent = true;
            break;
        }
        assert!(
            sent,
            "{name}: nobody can answer {:?}",
            DustTactics.awaiting(&st)
        );
    }
    eprintln!(
        "{name} seed {seed}: {} decisions, round {}, {:?}",
        decisions.len(),
        st.round,
        st.result.as_ref().map(|r| r.reason.clone())
    );
    let res = st
        .result
        .as_ref()
        .unwrap_or_else(|| panic!("{name} seed {seed} did not end"));
    assert!(st.round <= st.scenario.rounds, "{name}: {}", res.reason);
    assert!(DustTactics.awaiting(&st).is_empty());
    decisions
}

#[test]
fn r100_players_who_set_nothing_are_asked_only_for_activations_in_every_scenario() {
    for (name, text) in ffg_scenarios() {
        let decisions = play(name, text, |_| Style::Aggressive, None, 11);
        // Round 1's initiative is rolled by the first mail (R50): each side may state `first`
        // before it; after that only activations are ever awaited.
        let after_start: Vec<&String> = decisions.iter().skip_while(|d| *d == "first").collect();
        assert!(
            after_start.iter().all(|d| *d == "activate"),
            "{name}: {after_start:?}"
        );
        assert!(after_start.len() > 2, "{name}: the game was played");
    }
}

#[test]
fn random_legal_games_of_every_scenario_end_with_every_unit_on_a_legal_square() {
    // Random bots asking for every decision: every option offered is accepted as sent.
    let mut seen: Vec<String> = vec![];
    for (name, text) in ffg_scenarios() {
        for seed in 1..=4u64 {
            let decisions = play(
                name,
                text,
                |i| Style::Random(seed * 31 + i as u64),
                Some(ASK_EVERYTHING),
                seed,
            );
            assert!(decisions.iter().any(|d| d == "activate"), "{name}");
            for d in decisions {
                if !seen.contains(&d) {
                    seen.push(d);
                }
            }
        }
    }
    eprintln!("decisions seen: {seen:?}");
    // Asked for everything, the games meet the decisions a game always has.
    for d in ["activate", "first", "react", "casualties"] {
        assert!(seen.iter().any(|s| s == d), "{d} never awaited: {seen:?}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(8))]
    /// Property form: any scenario, any seed for the dice and the two random bots, with or
    /// without standing orders: the game ends and no unit ever stands on an illegal square.
    #[test]
    fn prop_random_games_end_on_legal_squares(which in 0usize..16, seed in 0u64..1_000_000, ask in proptest::bool::ANY) {
        let all = ffg_scenarios();
        let (name, text) = all[which % all.len()];
        play(
            name,
            text,
            |i| Style::Random(seed.wrapping_mul(7) + i as u64),
            ask.then_some(ASK_EVERYTHING),
            seed,
        );
    }
}
