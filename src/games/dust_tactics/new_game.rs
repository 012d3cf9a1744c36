//! What `dustmail games` lists of Dust Tactics and how `dustmail new` starts one: the ruleset,
//! a built-in scenario or the referee's own file, and the cards (built in, replaced or added to
//! by the files of `--cards DIR`, for players who own the printed cards).

use super::battlefront::scenario_roll;
use super::rules::Rules;
use super::{cards, scenario};
use crate::game::{
    Catalog, CatalogEntry, CatalogScenario, NewPlan, NewRequest, Setup, SetupError, TeamUnit,
};
use std::collections::BTreeMap;

/// The game's name in `created` lines and `new --game`.
pub const NAME: &str = "dust-tactics";

pub fn catalog() -> Catalog {
    let rulesets: Vec<CatalogEntry> = Rules::KNOWN
        .iter()
        .map(|id| CatalogEntry {
            name: id.to_string(),
            title: match *id {
                "ffg-revised" => "the FFG revised rules (004, with 000 where 004 is silent)",
                "classic-2010" => "the 2010 core rulebook (000): double moves, no reactive fire",
                "battlefront-2013" => {
                    "the 2013 Battlefront rulebook (003 with 002): Dust dice, facing, saves; what is not built is refused (docs/battlefront.md)"
                }
                _ => "",
            }
            .to_string(),
        })
        .collect();
    let scenarios = scenario::builtin()
        .into_iter()
        .filter_map(|(name, text)| scenario::parse(name, text).ok())
        .map(|s| CatalogScenario {
            name: s.name.clone(),
            title: s.title.clone(),
            sides: s.sides.iter().map(|d| d.id.clone()).collect(),
            rulesets: Rules::KNOWN
                .iter()
                .filter(|r| Rules::for_id(r).is_ok_and(|r| suits(&s, r).is_ok()))
                .map(|r| r.to_string())
                .collect(),
        })
        .collect();
    let mut scenarios: Vec<CatalogScenario> = scenarios;
    // R550: not a file but 003 §12's table; its sides are the two `--player` sides.
    scenarios.push(CatalogScenario {
        name: scenario_roll::NAME.into(),
        title: "003 §12's random scenario table: two Dust dice choose one of its five at the game's first step; needs --force for each side (R550)".into(),
        sides: vec![],
        rulesets: vec!["battlefront-2013".into()],
    });
    Catalog {
        name: NAME.into(),
        title: "Dust Tactics, the grid wargame (seeds 000, 002, 003, 004)".into(),
        rulesets,
        scenarios,
    }
}

/// Every unit of a scenario with the player its `player` field gives it to, in scenario order
/// (for `cli::team_assignments`).
pub fn team_units(s: &scenario::Scenario) -> Vec<TeamUnit> {
    s.sides
        .iter()
        .flat_map(|side| {
            side.units.iter().map(|u| TeamUnit {
                side: side.id.clone(),
                id: u.id.clone(),
                player: u.player.clone(),
            })
        })
        .collect()
}

pub fn plan_new(req: &NewRequest) -> Result<NewPlan, SetupError> {
    let ruleset = req
        .ruleset
        .clone()
        .unwrap_or_else(|| Rules::KNOWN[0].into());
    let rules = Rules::for_id(&ruleset).map_err(|e| SetupError(e.to_string()))?;
    // `--scenario random`: the dice choose 003 §12's scenario at the first step (R550).
    if req.scenario_file.is_none() && req.scenario.as_deref() == Some(scenario_roll::NAME) {
        return plan_random(req, ruleset, rules);
    }
    let (name, text) = match (&req.scenario_file, &req.scenario) {
        (Some((n, t)), _) => (n.clone(), t.clone()),
        (None, wanted) => {
            let builtin = scenario::builtin();
            let wanted = wanted.as_deref().unwrap_or(builtin[0].0);
            match builtin.iter().find(|(n, _)| *n == wanted) {
                Some((n, t)) => (n.to_string(), t.to_string()),
                None => {
                    let names: Vec<&str> = builtin.iter().map(|(n, _)| *n).collect();
                    return Err(SetupError(format!(
                        "there is no scenario `{wanted}`: use one of {} or the path of a scenario file (docs/scenarios.md)",
                        names.join(", ")
                    )));
                }
            }
        }
    };
    let text = with_rolls(&name, text, req.place_by_rolls)?;
    // `--force SIDE=FORCE`: 003 §11's starter forces, battlefront-2013 only (R816).
    let text = match (req.forces.is_empty(), rules.battlefront()) {
        (true, _) => text,
        (false, true) => super::battlefront::starter_forces::field(&name, &text, &req.forces)
            .map_err(SetupError)?,
        (false, false) => {
            return Err(SetupError(
                super::battlefront::starter_forces::not_battlefront(&ruleset),
            ))
        }
    };
    // `--fortify SIDE=LIST`: 002's bunkers and strongpoints, battlefront-2013 only (R588).
    let text = match (req.fortify.is_empty(), rules.battlefront()) {
        (false, false) => {
            return Err(SetupError(
                super::battlefront::forts_placed::not_battlefront(&ruleset),
            ))
        }
        _ => super::battlefront::forts_placed::with_fortify(&name, text, &req.fortify)
            .map_err(SetupError)?,
    };
    plan_text(name, text, req, ruleset, rules)
}

/// `new --scenario random` (R550): the five scenarios of 003 §12's table with the game's sides
/// and forces, each checked as `new` checks a scenario, recorded together as the file `random`.
fn plan_random(req: &NewRequest, ruleset: String, rules: Rules) -> Result<NewPlan, SetupError> {
    let mut candidates = scenario_roll::candidates(req, rules.battlefront()).map_err(SetupError)?;
    // `--fortify` gives each side its fortifications whatever the roll (R588).
    for c in &mut candidates {
        c.text = super::battlefront::forts_placed::with_fortify(
            &c.name,
            std::mem::take(&mut c.text),
            &req.fortify,
        )
        .map_err(SetupError)?;
    }
    let mut plans = vec![];
    for c in &candidates {
        let p = plan_text(c.name.clone(), c.text.clone(), req, ruleset.clone(), rules)
            .map_err(|e| SetupError(format!("--scenario random, scenario {}: {}", c.name, e.0)))?;
        plans.push(p);
    }
    let max_rounds = plans.iter().map(|p| p.max_rounds).max().unwrap_or(1);
    let first = plans.swap_remove(0);
    Ok(NewPlan {
        setup: Setup {
            scenario_name: scenario_roll::NAME.into(),
            scenario: scenario_roll::file_text(&candidates)?,
            ..first.setup
        },
        max_rounds,
        units: first.units,
    })
}

/// The plan of scenario `text` (named `name`), as given or as `--force` made it.
fn plan_text(
    name: String,
    text: String,
    req: &NewRequest,
    ruleset: String,
    rules: Rules,
) -> Result<NewPlan, SetupError> {
    let parsed = scenario::parse(&name, &text)
        .map_err(|e| SetupError(format!("{} (see docs/scenarios.md)", e.0)))?;
    // battlefront-2013 also plays a card `--cards` brings, such as cards-huge's Punisher (R790).
    let brought: Vec<&str> = req
        .data
        .keys()
        .map(|f| f.trim_end_matches(".toml"))
        .collect();
    match rules.battlefront() {
        true => super::battlefront::suits_with(&parsed, &brought),
        false => suits(&parsed, rules),
    }
    .map_err(SetupError)?;
    // battlefront-2013 plays its own starter cards (003), no other.
    let builtin_cards = if rules.battlefront() {
        super::battlefront::cards::builtin()
    } else {
        cards::builtin()
    };
    let mut card_map: BTreeMap<String, String> = builtin_cards
        .into_iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    for (file, text) in &req.data {
        // battlefront-2013 checks its cards against 002's skills below (`check_cards`).
        if rules.battlefront() {
            cards::parse_card(file, text).map_err(|e| SetupError(e.to_string()))?;
        } else {
            cards::parse_card_for_new(file, text).map_err(|e| SetupError(e.to_string()))?;
        }
        card_map.insert(file.clone(), text.clone());
    }
    rare_once(&parsed, &card_map).map_err(SetupError)?;
    super::underground::check_units(&parsed, &card_map).map_err(SetupError)?;
    // battlefront-2013: a skill not built yet is refused here, never played by 004's wording.
    if rules.battlefront() {
        super::battlefront::skills::check_cards(&card_map).map_err(SetupError)?;
        // The joins again, with the cards `--cards` brought (002 Loner, Gorilla: R583).
        let card_of = |id: &str| {
            let f = format!("{id}.toml");
            card_map.get(&f).and_then(|t| cards::parse_card(&f, t).ok())
        };
        super::battlefront::heroes::check_joins(&parsed, &card_of).map_err(SetupError)?;
        super::battlefront::heroes::check_unique(&parsed, &card_of).map_err(SetupError)?;
    }
    let units = team_units(&parsed);
    Ok(NewPlan {
        setup: Setup {
            ruleset,
            scenario_name: name,
            scenario: text,
            cards: card_map,
            sides: parsed.sides.iter().map(|s| s.id.clone()).collect(),
            rules_revision: super::rules::RULES_REVISION,
        },
        // One more key than rounds: the initiative of round r+1 may be rolled while closing
        // round r.
        max_rounds: parsed.rounds + 1,
        units,
    })
}

/// `new --place-by-rolls` (R700): the recorded scenario says so in its first line, so the game,
/// its replay and `audit` read it from the scenario as any other field.
fn with_rolls(name: &str, text: String, terrain: Option<u32>) -> Result<String, SetupError> {
    let Some(n) = terrain else { return Ok(text) };
    if text
        .lines()
        .any(|l| l.trim_start().starts_with("place_by_rolls"))
    {
        return Err(SetupError(format!(
            "scenario `{name}` already places by the rolls (`place_by_rolls`): leave out --place-by-rolls"
        )));
    }
    Ok(format!(
        "place_by_rolls = {{ terrain_squares = {n} }}\n{text}"
    ))
}

/// 004 "Rare Unit": "A player may only include one of each rare unit in his army." A side
/// listing a rare card twice is refused at `new`, naming the card and the units.
fn rare_once(s: &scenario::Scenario, cards: &BTreeMap<String, String>) -> Result<(), String> {
    for side in &s.sides {
        let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
        for u in &side.units {
            let rare = cards
                .get(&format!("{}.toml", u.card))
                .and_then(|t| cards::parse_card(&format!("{}.toml", u.card), t).ok())
                .is_some_and(|c| c.has(super::skill::Skill::RareUnit));
            if !rare {
                continue;
            }
            if let Some(first) = seen.insert(&u.card, &u.id) {
                return Err(format!(
                    "scenario `{}`: side {} fields the rare unit `{}` twice ({first} and {}); 004 \"Rare Unit\": a player may only include one of each rare unit in his army: remove one of them",
                    s.name, side.id, u.card, u.id
                ));
            }
        }
    }
    Ok(())
}

/// Whether scenario `s` suits `rules`: listed in its `rulesets` (none listed: every ruleset), and
/// its board has only terrain the ruleset knows (000: dot or no dot). The error says what to do.
pub fn suits(s: &scenario::Scenario, rules: Rules) -> Result<(), String> {
    if rules.battlefront() {
        return super::battlefront::suits(s);
    }
    let id = rules.id();
    if !s.rulesets.is_empty() && !s.rulesets.iter().any(|r| r == id) {
        return Err(format!(
            "scenario `{}` does not suit ruleset {id}: it is written for {}; use `--ruleset {}` or another scenario (`dustmail games` lists which suit which)",
            s.name,
            s.rulesets.join(", "),
            s.rulesets[0]
        ));
    }
    let board = &s.board;
    let odd = board
        .squares()
        .find(|sq| !rules.allows_terrain(board.terrain(*sq)));
    if let Some(sq) = odd {
        return Err(format!(
            "scenario `{}` does not suit ruleset {id}: {sq} is {:?} terrain, and the 2010 rules know only squares with a dot (`.`) or without (`#`); use `--ruleset ffg-revised` or a board of `.` and `#`",
            s.name,
            board.terrain(sq)
        ));
    }
    Ok(())
}
