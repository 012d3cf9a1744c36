//! `dustmail new --scenario random` (issue 18, R550): 003 §12 "If you want to let the dice choose
//! the scenario for you, roll two dice and consult the following table" as an option of `new`.
//! The `created` line records the five scenarios of the table, each with the game's two sides and
//! their starter forces (`--force`, R816); nothing is rolled at `new`, where the referee, who
//! knows the seed, could remake the game until a roll pleased him. The game's first step rolls
//! two Dust dice from its dice-v2 stream (keyed by a signature the referee cannot know in
//! advance), R294's table chooses the scenario, and the game starts in it. Replay and `audit`
//! recompute the roll like any other die.

use super::dice::Symbol;
use super::random_scenario::{choose, table, SCENARIOS};
use super::starter_forces;
use crate::dust_tactics::model::Card;
use crate::dust_tactics::present::wrap;
use crate::dust_tactics::scenario;
use crate::dust_tactics::state::State;
use crate::game::{DiceSource, Happening, NewRequest, Roll, Setup, SetupError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of `--scenario` and the `scenario_name` of the `created` line.
pub const NAME: &str = "random";

/// The purpose of the recorded roll.
pub const PURPOSE: &str = "random scenario";

/// One scenario the dice may choose: its name and its text with the game's sides and forces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Candidate {
    pub name: String,
    pub text: String,
}

/// The scenarios still to be rolled for (in the state until the first step rolls).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioRoll {
    pub candidates: Vec<Candidate>,
}

/// The recorded `random` file: `[[random_scenario]]` entries, in the table's order.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    random_scenario: Vec<Candidate>,
}

/// The candidates of a recorded `random` file; `None`: an ordinary scenario.
pub fn parse_file(text: &str) -> Option<Vec<Candidate>> {
    toml::from_str::<File>(text).ok().map(|f| f.random_scenario)
}

/// The text the `created` line records.
pub fn file_text(candidates: &[Candidate]) -> Result<String, SetupError> {
    let body = toml::to_string(&File {
        random_scenario: candidates.to_vec(),
    })
    .map_err(|e| SetupError(format!("--scenario random: {e}")))?;
    Ok(format!(
        "# 003 §12's random scenario table (R294, R550): the dice choose one of these at the game's first step.\n{body}"
    ))
}

/// The five scenarios of the table for the sides and forces of `req`, or why `new` refuses
/// (what to send instead).
pub fn candidates(req: &NewRequest, battlefront: bool) -> Result<Vec<Candidate>, String> {
    if !battlefront {
        return Err("--scenario random rolls 003 §12's table of the 2013 Battlefront rulebook: add --ruleset battlefront-2013, or name a scenario (`dustmail games` lists them) (R550)".into());
    }
    if req.place_by_rolls.is_some() {
        return Err("--scenario random rolls one of 003 §12's scenarios, which set up by 003's own rules: leave out --place-by-rolls (R550)".into());
    }
    let sides = &req.sides;
    let forces = || starter_forces::FORCES.map(|(n, _)| n).join(", ");
    if sides.len() != 2 {
        return Err(format!(
            "--scenario random: 003 §12's scenarios are for two players, and the --player options name {} side(s) ({}): give --player for exactly two sides, e.g. --player allies=… --player axis=… (R550)",
            sides.len(),
            sides.join(", ")
        ));
    }
    for s in sides {
        if !req.forces.contains_key(s) {
            return Err(format!(
                "--scenario random: side {s} has no --force: the five scenarios pair different starter forces, so each side fields one whatever the roll: add --force {s}=FORCE (FORCE one of {}) (R550)",
                forces()
            ));
        }
    }
    if let Some((s, f)) = req.forces.iter().find(|(s, _)| !sides.contains(s)) {
        return Err(format!(
            "--force {s}={f}: no --player names side {s}; with --scenario random the game's sides are the --player sides ({}): give each of them one --force (R550)",
            sides.join(", ")
        ));
    }
    let builtin = scenario::builtin();
    let mut out = vec![];
    for name in SCENARIOS {
        let text = builtin
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
            .ok_or_else(|| format!("scenario `{name}` is not built in"))?;
        let text = with_sides(name, text, sides)?;
        let text = starter_forces::field(name, &text, &req.forces)?;
        out.push(Candidate {
            name: name.to_string(),
            text,
        });
    }
    Ok(out)
}

/// Scenario `text` with its sides renamed, in order, to `sides` (R550: the first `--player`
/// side plays the scenario's first side), everywhere a scenario names a side.
fn with_sides(name: &str, text: &str, sides: &[String]) -> Result<String, String> {
    let mut doc: toml::Table =
        toml::from_str(text).map_err(|e| format!("scenario `{name}`: {e}"))?;
    let list = doc
        .get_mut("sides")
        .and_then(|v| v.as_array_mut())
        .ok_or_else(|| format!("scenario `{name}` has no [[sides]]"))?;
    if list.len() != sides.len() {
        return Err(format!(
            "scenario `{name}` has {} sides, the game {}",
            list.len(),
            sides.len()
        ));
    }
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    for (s, new) in list.iter_mut().zip(sides) {
        let t = s
            .as_table_mut()
            .ok_or_else(|| format!("scenario `{name}`: a side is not a table"))?;
        let old = t.get("id").and_then(|v| v.as_str()).unwrap_or_default();
        map.insert(old.to_string(), new.clone());
        t.insert("id".into(), toml::Value::String(new.clone()));
    }
    let rename = |v: &mut toml::Value| {
        if let Some(new) = v.as_str().and_then(|o| map.get(o)) {
            *v = toml::Value::String(new.clone());
        }
    };
    if let Some(objs) = doc.get_mut("objectives").and_then(|v| v.as_array_mut()) {
        for o in objs.iter_mut().filter_map(|o| o.as_table_mut()) {
            if let Some(v) = o.get_mut("side") {
                rename(v);
            }
        }
    }
    if let Some(entry) = doc
        .get_mut("reserves")
        .and_then(|r| r.get_mut("entry"))
        .and_then(|e| e.as_table_mut())
    {
        let old = std::mem::take(entry);
        for (k, v) in old {
            entry.insert(map.get(&k).cloned().unwrap_or(k), v);
        }
    }
    toml::to_string(&doc).map_err(|e| format!("scenario `{name}`: {e}"))
}

/// The state of a game made with `--scenario random`: every candidate is checked as a game of
/// its own; until the roll the state is the first one's, with the candidates kept to roll for.
pub fn start(
    setup: &Setup,
    candidates: Vec<Candidate>,
    cards: Vec<Card>,
) -> Result<State, SetupError> {
    let names: Vec<&str> = candidates.iter().map(|c| c.name.as_str()).collect();
    if names != SCENARIOS {
        return Err(SetupError(format!(
            "the random scenario file lists {}, not 003 §12's five ({}) (R550)",
            names.join(", "),
            SCENARIOS.join(", ")
        )));
    }
    let mut first = None;
    for c in &candidates {
        let st = build(setup, c, cards.clone())?;
        first.get_or_insert(st);
    }
    let mut st = first.ok_or_else(|| SetupError("no scenario to roll for".into()))?;
    st.scenario_roll = Some(ScenarioRoll { candidates });
    Ok(st)
}

fn build(setup: &Setup, c: &Candidate, cards: Vec<Card>) -> Result<State, SetupError> {
    let sc = scenario::parse(&c.name, &c.text).map_err(|e| SetupError(e.0))?;
    crate::dust_tactics::flow::new_state(&setup.ruleset, setup.rules_revision, sc, cards)
}

/// At the first step of a `--scenario random` game, before anything else: rolls two Dust dice
/// from the step's stream (round 1's key), and the game starts in the scenario R294's table
/// chooses. `None`: nothing to roll.
pub fn roll(state: &mut State, dice: &mut dyn DiceSource) -> Option<Happening> {
    let pending = state.scenario_roll.take()?;
    let round = state.round;
    let faces = vec![dice.d6(round), dice.d6(round)];
    let (a, b) = (Symbol::of_face(faces[0]), Symbol::of_face(faces[1]));
    let name = choose(a, b);
    let row = SCENARIOS
        .iter()
        .position(|n| *n == name)
        .and_then(|i| table().get(i).cloned())
        .unwrap_or_default();
    let said = format!("{} and {}", a.name(), b.name());
    let cards: Vec<Card> = state.cards.values().cloned().collect();
    // Every candidate was set up at `start` with the same ruleset and cards, so this succeeds;
    // were it not to, the game would stay in the first one, which the text then names.
    let chosen = pending
        .candidates
        .iter()
        .find(|c| c.name == name)
        .and_then(|c| scenario::parse(&c.name, &c.text).ok())
        .and_then(|mut sc| {
            sc.description = format!(
                "{}\nThe dice chose this scenario (003 §12, `--scenario random`): {said}.\n",
                sc.description.trim_end()
            );
            crate::dust_tactics::flow::new_state(&state.ruleset, state.rules_revision, sc, cards)
                .ok()
        });
    if let Some(next) = chosen {
        *state = next;
        state.scenario_rolled = Some([faces[0], faces[1]]);
    }
    Some(Happening {
        text: format!(
            "the dice choose the scenario (003 §12, R294): {said} ({row}); the game is {} from now on",
            state.scenario.title
        ),
        rolls: vec![Roll {
            purpose: PURPOSE.into(),
            round,
            faces,
        }],
        ..Happening::default()
    })
}

/// The table and the candidates' titles, as the mails say them.
fn titles(roll: &ScenarioRoll) -> Vec<String> {
    roll.candidates
        .iter()
        .map(|c| {
            scenario::parse(&c.name, &c.text)
                .map(|s| format!("{} ({})", s.title, c.name))
                .unwrap_or_else(|_| c.name.clone())
        })
        .collect()
}

/// The welcome mail's briefing before the roll: the scenario will be rolled, how, and what stays
/// the same whatever the roll.
pub fn briefing(state: &State, roll: &ScenarioRoll, side: &str) -> String {
    let mut out: Vec<String> = vec!["The scenario: rolled by the dice (003 §12)".into()];
    out.extend(wrap(
        "003 §12: \"If you want to let the dice choose the scenario for you, roll two dice and consult the following table.\" This game does: the first order either side sends (or the first deadline default) makes the game's first step, and that step rolls two Dust dice from the game's seeded dice (the seed is committed below, the dice are keyed by the step's signature), recorded in the ledger as the roll \"random scenario\". The table (R294):",
        false,
    ));
    for row in table() {
        out.extend(wrap(&row, true));
    }
    out.push(String::new());
    out.extend(wrap(
        &format!(
            "The scenarios: {}. Your first order is read in the scenario the dice choose: until the roll only standing orders can be given, so the template offers `standing first {side}` (who activates first whenever you win the initiative, until you change it), which every scenario accepts; the report after the roll asks for what that scenario needs first (`place objective at` in Bait and Flank and Supply Drop).",
            titles(roll).join("; ")
        ),
        false,
    ));
    let mine: Vec<&str> = state
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.id.as_str())
        .collect();
    let name = state
        .scenario
        .sides
        .iter()
        .find(|s| s.id == side)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    out.push(String::new());
    out.extend(wrap(
        &format!(
            "Whatever the roll, side {side} fields {name}: {}. They enter along your own table edge in turn 1; the first report shows the battlefield, the rules to win and your entry squares.",
            mine.join(", ")
        ),
        false,
    ));
    out.join("\n")
}

/// The orders template before the roll: the standing orders of `view`'s template, and instead of
/// its `first` lines (refused where the chosen scenario places objectives first) the standing
/// `first` order, which every scenario accepts in any phase.
pub fn template(state: &State, view_template: &str) -> String {
    let mut out: Vec<String> = view_template
        .lines()
        .take_while(|l| !l.starts_with("# The initiative is still to roll"))
        .map(String::from)
        .collect();
    out.push("# The dice choose the scenario as this mail arrives (003 §12), so".into());
    out.push("# only standing orders can be given now. If you win the initiative,".into());
    out.push("# who activates first (until you change it)? Delete one line's `#`:".into());
    for s in &state.scenario.sides {
        out.push(format!("# standing first {}", s.id));
    }
    out.join("\n") + "\n"
}

/// The board before the roll: there is none yet.
pub fn board_text() -> String {
    let t = "The battlefield is not chosen yet: the dice choose the scenario (003 §12) at the game's first step, and the next report shows it.";
    format!("{}\n", wrap(t, false).join("\n"))
}

/// Round 1's reports of a game whose scenario the dice chose open the short briefing with the
/// scenario's title and description, which the welcome mail could not give.
pub fn with_rolled(state: &State, brief: String) -> String {
    if state.scenario_rolled.is_none() || state.round != 1 {
        return brief;
    }
    let sc = &state.scenario;
    let head = wrap(
        &format!(
            "The scenario, chosen by the dice: {}. {}",
            sc.title,
            sc.description.trim()
        ),
        true,
    );
    format!("{}\n{brief}", head.join("\n"))
}

/// The reports' short briefing before the roll.
pub fn report_briefing() -> String {
    "Scenario: to be rolled by the dice at the first step (003 §12).".into()
}
