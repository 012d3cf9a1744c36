//! Issue 16 item 3: the orders template lists only orders the engine accepts now. Every order a
//! template suggests is sent back as the player would (its `#` deleted, through
//! `Game::submit`, the parser and the state machine) on a copy of the game, so the game does
//! not advance, and none may be refused: in whole games of the shipped scenarios played by the
//! bots, under both rulesets, and in the two cases of the issue (a heavy machine gun offered
//! against a vehicle it cannot damage, a target out of sight). One game is also played through
//! the real pipeline from the templates in the report mails, one signed suggestion a mail.
//!
//! How a template marks a suggestion (docs in src/games/dust_tactics/view/legal.rs): a line
//! `# <order>` with an order word in lower case and no `<…>` form; notes follow a second `#`.
//! Action lines belong to the `# activate <unit>` line above them and are sent followed by
//! `nothing` (`sustained` alone); `#     or to:` / `#     or at:` lines give the other squares or
//! targets of the action line above. The two action lines under an `advanced deployment` line
//! are sent together (an aircraft's MOVE + MOVE, R548).

use crate::support_flow::*;
use dustmail::dust_tactics::bot::{Bot, Style, ASK_EVERYTHING};
use dustmail::dust_tactics::model::{Board, Fire, UnitType, WeaponRange};
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::{cards, scenario, DustTactics};
use dustmail::game::{CommandOutcome, DiceSource, Game, Line, Sender, Setup};
use std::collections::BTreeMap;

/// SplitMix64 dice, the same on every machine.
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

// `pass`: battlefront-2013 (issue 18) suggests it when a side may pass.
const TOP: [&str; 6] = [
    "first",
    "activate",
    "react",
    "retaliate",
    "casualties",
    "pass",
];
const ACTIONS: [&str; 5] = ["move", "attack", "sustained", "skill", "nothing"];

/// Every order the template suggests, each as the text a player would sign.
fn suggestions(template: &str) -> Vec<String> {
    let mut out = vec![];
    let mut unit: Option<String> = None;
    // The last action line, to which `or to:` / `or at:` lines give alternatives.
    let mut last: Option<String> = None;
    // Under `advanced deployment` (R548), the next two action lines are one activation.
    let mut pair: Option<Vec<String>> = None;
    let action = |unit: &Option<String>, a: &str| -> String {
        let u = unit
            .as_deref()
            .unwrap_or_else(|| panic!("`{a}` under no activate line"));
        if a.starts_with("sustained") {
            format!("activate {u}\n  {a}")
        } else if a == "skill detach" {
            // 003 (R605): the squad leaves its hero behind, then takes its two actions.
            format!("activate {u}\n  {a}\n  nothing\n  nothing")
        } else {
            format!("activate {u}\n  {a}\n  nothing")
        }
    };
    for line in template.lines() {
        let Some(body) = line.strip_prefix('#') else {
            continue;
        };
        let order = body.split('#').next().unwrap_or("").trim();
        if let Some(rest) = order
            .strip_prefix("or to:")
            .or(order.strip_prefix("or at:"))
        {
            let base = last.clone().expect("an `or` line follows an action line");
            let (head, _) = base
                .rsplit_once(' ')
                .expect("the action names a square or target");
            for alt in rest.split_whitespace() {
                out.push(action(&unit, &format!("{head} {alt}")));
            }
            continue;
        }
        if order.contains('<') || order.contains('|') || order.contains('…') {
            continue;
        }
        let word = order.split_whitespace().next().unwrap_or("");
        if order.starts_with("advanced deployment") {
            pair = Some(vec![]);
            continue;
        }
        if let (Some(p), true) = (pair.as_mut(), ACTIONS.contains(&word)) {
            p.push(order.to_string());
            if let [a, b] = p.as_slice() {
                let u = unit
                    .as_deref()
                    .expect("an advanced deployment under its unit");
                out.push(format!("activate {u}\n  {a}\n  {b}"));
                pair = None;
            }
            last = None;
            continue;
        }
        if word == "activate" {
            unit = order.split_whitespace().nth(1).map(str::to_string);
            last = None;
        } else if TOP.contains(&word) {
            out.push(order.to_string());
            last = None;
        } else if ACTIONS.contains(&word) {
            out.push(action(&unit, order));
            last = Some(order.to_string());
        }
    }
    out
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

/// Sends every suggestion of `side`'s template on its own copy of `st`; returns them. Panics
/// naming the first one refused.
pub(crate) fn every_suggestion_accepted(st: &State, side: &str, context: &str) -> Vec<String> {
    let template = DustTactics.orders_template(st, side);
    let all = suggestions(&template);
    for order in &all {
        let mut copy = st.clone();
        let out = DustTactics.submit(&mut copy, Sender::side(side), &lines(order), &mut Rng(7));
        for r in &out.results {
            assert!(
                matches!(r.outcome, CommandOutcome::Accepted { .. }),
                "{context}: {side}'s template suggests\n{order}\nwhich is refused: {:?}\n\n{template}",
                r.outcome
            );
        }
    }
    all
}

/// A shipped scenario's game, with the card files `extra` (name, text) too, as `--cards` brings
/// them.
fn setup_with(ruleset: &str, name: &str, text: &str, extra: &[(String, String)]) -> State {
    let setup = Setup {
        ruleset: ruleset.into(),
        scenario_name: name.into(),
        scenario: text.into(),
        // issue 18: battlefront-2013 scenarios field the 003 starter cards.
        cards: cards::builtin()
            .into_iter()
            .chain(dustmail::dust_tactics::battlefront::cards::builtin())
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .chain(extra.iter().cloned())
            .collect(),
        sides: vec![],
        rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
    };
    DustTactics.setup(&setup).expect("shipped scenario sets up")
}

/// Plays `name` under `ruleset` with bots to its end; at every decision point each awaited
/// side's template is checked. Counts the suggestions sent by kind (their first order word
/// after `activate <unit>`) into `kinds`.
fn play_checking(
    ruleset: &str,
    name: &str,
    text: &str,
    seed: u64,
    kinds: &mut BTreeMap<String, usize>,
) {
    play_checking_with(ruleset, (name, text), &[], seed, kinds);
}

/// Whole games under battlefront-2013 of the provisional cards of `games/dust-tactics/<folder>/`
/// (the card files `files`, or every `.toml` there when empty) in the folder's scenario
/// `scenarios/<scenario>.toml`, seeds 1 to `seeds`, each awaited side's template checked at every
/// decision point ([`play_checking_with`]): the suggestions counted by kind.
pub(crate) fn play_cards_checking(
    folder: &str,
    files: &[&str],
    scenario: &str,
    seeds: u64,
) -> BTreeMap<String, usize> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/dust-tactics")
        .join(folder);
    let mut extra: Vec<(String, String)> = if files.is_empty() {
        std::fs::read_dir(&root)
            .unwrap()
            .map(|f| f.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
            .collect::<Vec<_>>()
    } else {
        files.iter().map(|f| f.to_string()).collect()
    }
    .into_iter()
    .map(|f| {
        let text = std::fs::read_to_string(root.join(&f)).unwrap();
        (f, text)
    })
    .collect();
    if files.is_empty() {
        extra.sort();
    }
    let text = std::fs::read_to_string(root.join(format!("scenarios/{scenario}.toml"))).unwrap();
    let mut kinds = BTreeMap::new();
    for seed in 1..=seeds {
        play_checking_with(
            "battlefront-2013",
            (scenario, &text),
            &extra,
            seed,
            &mut kinds,
        );
    }
    kinds
}

/// [`play_checking`] with the card files `extra` too.
pub(crate) fn play_checking_with(
    ruleset: &str,
    (name, text): (&str, &str),
    extra: &[(String, String)],
    seed: u64,
    kinds: &mut BTreeMap<String, usize>,
) {
    let mut st = setup_with(ruleset, name, text, extra);
    let mut bots: Vec<Bot> = st
        .sides()
        .iter()
        .enumerate()
        .map(|(i, s)| Bot::new(s, Style::Random(seed * 13 + i as u64)))
        .collect();
    {
        let standing = if st.rules().reactive_fire() {
            ASK_EVERYTHING.to_string()
        } else {
            ASK_EVERYTHING.replace("standing react any ask\n", "")
        };
        for b in bots.iter_mut() {
            b.set_standing(&standing);
        }
    }
    let mut dice = Rng(seed);
    for step in 0..3000 {
        if st.result.is_some() {
            break;
        }
        let awaited = DustTactics.awaiting(&st);
        for a in &awaited {
            let context = format!("{ruleset} {name} seed {seed} step {step}");
            for o in every_suggestion_accepted(&st, &a.side, &context) {
                // An activation's kind is its first action's word.
                let line = o.lines().nth(1).unwrap_or(&o);
                let kind = line.split_whitespace().next().unwrap_or("");
                *kinds.entry(kind.to_string()).or_default() += 1;
            }
        }
        let b = bots
            .iter_mut()
            .find(|b| awaited.iter().any(|a| a.side == b.side))
            .unwrap_or_else(|| panic!("{name}: nobody can answer {awaited:?}"));
        let orders = b.orders(&st).expect("the bot answers");
        let side = b.side.clone();
        DustTactics.submit(&mut st, Sender::side(&side), &lines(&orders), &mut dice);
    }
    assert!(
        st.result.is_some(),
        "{ruleset} {name} seed {seed} did not end"
    );
}

// issue 16 item 3: in whole games of every shipped scenario, under each ruleset it suits, with
// a seed of its own each, every order any template suggests is accepted; the players ask for
// every decision (standing orders `ask`), so first, react, retaliate and casualties templates
// are checked too. The templates must suggest concrete moves, attacks and `nothing`.
#[test]
fn every_suggested_order_is_accepted_in_scripted_games() {
    let mut games = 0;
    let mut kinds = BTreeMap::new();
    for (name, text) in scenario::builtin() {
        let s = scenario::parse(name, text).unwrap();
        for ruleset in ["ffg-revised", "classic-2010", "battlefront-2013"] {
            if !s.rulesets.iter().any(|r| r == ruleset) {
                continue;
            }
            games += 1;
            play_checking(ruleset, name, text, games, &mut kinds);
        }
    }
    eprintln!("{games} games, suggestions sent: {kinds:?}");
    assert!(games >= 8, "{games} games");
    for kind in [
        "move",
        "attack",
        "sustained",
        "nothing",
        "first",
        "casualties",
    ] {
        assert!(
            kinds.get(kind).copied().unwrap_or(0) > 10,
            "too few `{kind}` suggestions: {kinds:?}"
        );
    }
}

// bflarge (R790–R796): with 003's Huge vehicle of games/dust-tactics/cards-huge/ (its entry of
// two squares, its rotation within a move, its front arc from the centre of its four squares),
// every order any template suggests in whole games of Punisher Crossing is accepted.
#[test]
fn every_suggested_order_is_accepted_with_a_huge_vehicle() {
    let kinds = play_cards_checking("cards-huge", &["bf-punisher.toml"], "punisher-crossing", 3);
    assert!(kinds.get("move").copied().unwrap_or(0) > 0, "{kinds:?}");
}

// bfpass (R732–R743): with the provisional transports of
// games/dust-tactics/cards-battlefront-transport/ (passengers mounted, a tank with riders), every
// order any template suggests in whole games of Convoy is accepted.
#[test]
fn every_suggested_order_is_accepted_with_passengers_and_tank_riders() {
    let kinds = play_cards_checking("cards-battlefront-transport", &[], "convoy", 3);
    assert!(kinds.get("move").copied().unwrap_or(0) > 0, "{kinds:?}");
}

// bfairlift (R745–R748): with the provisional Airlifter of
// games/dust-tactics/cards-battlefront-airlift/ (the Carrier begins carrying the Nastasia), every
// order any template suggests in whole games of Air Assault is accepted, the dismount among them.
#[test]
fn every_suggested_order_is_accepted_with_an_airlifter_and_its_vehicle() {
    let kinds = play_cards_checking("cards-battlefront-airlift", &[], "air-assault", 3);
    assert!(kinds.get("move").copied().unwrap_or(0) > 0, "{kinds:?}");
}

/// Allies' squad `a1` on E5 with a heavy machine gun (`-` against every vehicle armour);
/// axis: the vehicle `tank` on E3 and the squad `grens` on C3, both in range.
fn hmg_game(board: Option<&[&str]>) -> State {
    let mut hmg = weapon("hmg", WeaponRange::Upto(4), 2, 1);
    hmg.name = "Heavy MG".into();
    hmg.vehicle = [Fire::No; 7];
    let a = card("hmg-squad", UnitType::Squad, 4, 1, vec![hmg]);
    let tank = card(
        "tank",
        UnitType::Vehicle,
        6,
        1,
        vec![weapon("gun", WeaponRange::Upto(6), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("a1", "hmg-squad", Some("E5"))],
        vec![
            unit("tank", "tank", Some("E3")),
            unit("grens", "sq", Some("C3")),
        ],
    );
    if let Some(rows) = board {
        s.board = Board::from_rows(rows).unwrap();
    }
    let mut st = start(s, vec![a, tank, squad("sq")]);
    begin(&mut st, "allies");
    st
}

// issue 16 item 3: "a heavy machine gun listed 'in range' of a vehicle it cannot damage": the
// template offers the HMG against the squad only.
#[test]
fn the_template_offers_no_target_the_weapon_cannot_damage() {
    let st = hmg_game(None);
    let t = DustTactics.orders_template(&st, "allies");
    let orders = suggestions(&t);
    assert!(
        orders.iter().any(|o| o.contains("attack hmg at grens")),
        "{t}"
    );
    assert!(
        !t.lines().any(|l| l.contains("hmg") && l.contains("tank")),
        "{t}"
    );
    assert!(orders.iter().all(|o| !o.contains("tank")), "{t}");
    every_suggestion_accepted(&st, "allies", "hmg");
}

// issue 16 item 3: "a target without line of sight": grens behind an impassable block is not
// offered, though in range; the tank stays out too (armour), so the HMG has no target.
#[test]
fn the_template_offers_no_target_out_of_sight() {
    // D4, impassable, stands on the diagonal from a1 (E5) to grens (C3).
    let rows = [
        ".........",
        ".........",
        ".........",
        "...#.....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ];
    let st = hmg_game(Some(&rows));
    let t = DustTactics.orders_template(&st, "allies");
    let orders = suggestions(&t);
    assert!(
        orders.iter().all(|o| !o.contains(" at grens")),
        "grens is out of sight:\n{t}"
    );
    assert!(
        !t.lines().any(|l| l.contains("hmg") && l.contains("grens")),
        "{t}"
    );
    assert!(t.contains("no target now for: hmg"), "{t}");
    // The square D4 is impassable: no move goes there.
    assert!(orders.iter().all(|o| !o.contains("move D4")), "{t}");
    every_suggestion_accepted(&st, "allies", "line of sight");
}

// 004 "Actions": an ATTACK fires the unit's weapons, each at a target; two ATTACK actions in one
// activation are a SUSTAINED ATTACK (refused as two `attack` lines). Squad `a1` with a heavy MG
// and a rifle line, in range of grens and the tank: besides one line per weapon (each at its
// first target), the template offers the one line that fires both, and the sustained line fires
// both too; each is accepted
// (every_suggestion_accepted) and the combined attack rolls for both weapons.
#[test]
fn the_template_offers_one_attack_line_firing_every_weapon() {
    let mut st = hmg_game(None);
    let rifle = weapon("rifle", WeaponRange::Upto(4), 1, 1);
    st.cards
        .get_mut("hmg-squad")
        .expect("card")
        .weapons
        .push(rifle);
    let t = DustTactics.orders_template(&st, "allies");
    let orders = suggestions(&t);
    assert!(
        orders
            .iter()
            .any(|o| o.contains("attack hmg at grens, rifle at tank")),
        "{t}"
    );
    assert!(
        orders
            .iter()
            .any(|o| o.contains("sustained hmg at grens, rifle at tank")),
        "{t}"
    );
    every_suggestion_accepted(&st, "allies", "every weapon");
    let out = send(
        &mut st,
        "allies",
        "activate a1\n  attack hmg at grens, rifle at tank\n  nothing",
        &mut Cycle(0),
    );
    first_result(&out).expect("accepted");
    let told = texts(&out);
    assert!(
        told.contains("Heavy MG") && told.contains("at tank"),
        "{told}"
    );
    // Two `attack` lines are refused, and the refusal shows the one-line form.
    let mut st = hmg_game(None);
    st.cards
        .get_mut("hmg-squad")
        .expect("card")
        .weapons
        .push(weapon("rifle", WeaponRange::Upto(4), 1, 1));
    let out = send(
        &mut st,
        "allies",
        "activate a1\n  attack hmg at grens\n  attack rifle at grens",
        &mut Cycle(0),
    );
    let CommandOutcome::Refused { instead, .. } = &out.results[0].outcome else {
        panic!("two attack lines accepted");
    };
    assert!(
        instead.contains("attack <weapon> at <target>, <weapon> at <target>"),
        "{instead}"
    );
}

/// The orders template in the newest mail to `to` (the highest ledger line in its
/// `Ledger-Head`), from its first line on.
fn mailed_template(table: &crate::dust_home::Table, to: &str) -> String {
    let mails = table.sink.mails.lock().unwrap();
    let head = |t: &str| -> u64 {
        t.lines()
            .find_map(|l| l.strip_prefix("Ledger-Head: "))
            .and_then(|h| h.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let text = mails
        .values()
        .filter(|m| m.to.iter().any(|a| a == to))
        .map(|m| m.text.clone())
        .filter(|t| t.contains("# dustmail orders for"))
        .max_by_key(|t| head(t))
        .unwrap_or_else(|| panic!("no mail to {to} carries a template"));
    let from = text.find("# dustmail orders for").unwrap_or(0);
    text[from..].to_string()
}

// issue 16 item 3: a player who plays only from the template in the report mail they got, through
// the real pipeline (signed mails, `referee::run`): each mail is one suggested activation (the
// first attack offered, else the first move), and none is refused.
#[test]
fn a_player_playing_from_the_mailed_template_is_never_refused() {
    use dustmail::ledger::Event;
    const ANN: &str = "ann@example.org";
    const BOB: &str = "bob@example.org";
    let mut table = crate::dust_home::Table::new(
        "games/dust-tactics/scenarios/skirmish.toml",
        &[("allies", ANN), ("axis", BOB)],
    );
    // One step a run, so each player's last report is the newest state.
    table.mail(ANN, "first allies", None);
    table.run("2026-03-01T10:00:00Z");
    let mut attacks = 0;
    for step in 0..24 {
        let g = table.loaded();
        if g.derived.finished.is_some() {
            break;
        }
        let awaited = DustTactics.awaiting(g.derived.state.typed::<State>());
        let side = awaited.first().expect("a decision is awaited").side.clone();
        let address = if side == "allies" { ANN } else { BOB };
        let template = mailed_template(&table, address);
        let orders = suggestions(&template);
        let order = orders
            .iter()
            .find(|o| o.contains("\n  attack"))
            .or_else(|| orders.iter().find(|o| o.contains("\n  move")))
            .or_else(|| orders.first())
            .unwrap_or_else(|| panic!("step {step}: nothing suggested\n{template}"))
            .clone();
        attacks += usize::from(order.contains("\n  attack"));
        table.mail(address, &order, None);
        let now = format!("2026-03-01T11:{step:02}:00Z");
        let sum = table.run(&now);
        assert_eq!(
            (sum.accepted, sum.refused),
            (1, 0),
            "step {step}: {side} sent\n{order}\nfrom\n{template}"
        );
        let entries = table.entries();
        let Some(Event::Submission(s)) = entries
            .iter()
            .rev()
            .map(|e| &e.event)
            .find(|e| matches!(e, Event::Submission(_)))
        else {
            panic!("no submission in the ledger");
        };
        for r in &s.step.results {
            assert!(
                matches!(r.outcome, CommandOutcome::Accepted { .. }),
                "step {step}: {side} sent\n{order}\nrefused: {:?}\n\n{template}",
                r.outcome
            );
        }
    }
    assert!(attacks > 0, "no attack was ever suggested");
}
