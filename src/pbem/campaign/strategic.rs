//! The strategic campaign (issue 15 item 2, third kind; docs/campaigns.md "A strategic
//! campaign"; rulings R330–R336): one game whose battles between players are fought as games of
//! another kind. The game says which battle it waits for ([`crate::game::Elsewhere`]); the
//! campaign opens a game for it with forces from the mapping ([`Mapping`], recorded in the
//! rules), and when that game ends hands the result back as the `decide` control, whose text
//! follows from the recorded end alone ([`decide_text`]), so `campaign audit` recomputes it.

use super::state::{Campaign, GameRecord};
use super::{CampaignError, GameEnded, Rules};
use crate::game::{Elsewhere, ForceUnit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The built-in mapping (PROVISIONAL).
pub const DEFAULT_MAPPING: &str = include_str!("../../../games/campaign/strategic-forces.toml");

/// The file a strategic campaign adds beside the strategic game's deck to say which battles
/// are fought elsewhere (the game reads it: `games/dust_strategy/elsewhere.rs`).
pub const SETUP_FILE: &str = "tactical.toml";

/// The game a battle is fought as.
pub const TACTICAL_GAME: &str = "dust-tactics";

/// `[strategic]` of the rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strategic {
    /// Which battles are fought on the table: `all` (every land battle between two players).
    pub tactical: String,
    /// The Dust Tactics scenario every battle is fought on.
    pub scenario: String,
    /// `None`: the tactical game's first ruleset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// Strategic units → tactical cards; `campaign new` fills in the built-in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<Mapping>,
}

/// How the units of a strategic battle become a tactical force (games/campaign/
/// strategic-forces.toml).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mapping {
    /// Must be said: the table is ours, not the rulebooks'.
    pub provisional: bool,
    /// The most units of a side on the table.
    pub max_units: u32,
    /// Tactical side → strategic unit kind → card.
    pub forces: BTreeMap<String, BTreeMap<String, String>>,
}

fn usage(m: String) -> CampaignError {
    CampaignError::Usage(m)
}

/// Reads and checks a mapping file's text (the cards are checked against the tactical game by
/// `campaign new`).
pub fn parse_mapping(file: &str, text: &str) -> Result<Mapping, CampaignError> {
    let m: Mapping = toml::from_str(text).map_err(|e| {
        usage(format!(
            "{file}: not a force mapping ({e}); write provisional = true, max_units = 4, [forces.allies] tank = \"m2c-pounder\""
        ))
    })?;
    check_mapping(file, &m)?;
    Ok(m)
}

/// A mapping's values: `max_units` 1 to 12, a unit kind and a card name a line.
fn check_mapping(file: &str, m: &Mapping) -> Result<(), CampaignError> {
    if !(1..=12).contains(&m.max_units) {
        return Err(usage(format!(
            "{file}: max_units = {} is not 1 to 12",
            m.max_units
        )));
    }
    for (side, kinds) in &m.forces {
        for (kind, card) in kinds {
            let word = |w: &str| {
                !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            };
            if !word(kind) || kind.contains('-') || !word(card) {
                return Err(usage(format!(
                    "{file}: [forces.{side}] {kind} = \"{card}\": a unit kind (tank, robot…) and a card name, lower case"
                )));
            }
        }
    }
    Ok(())
}

/// Checks `[strategic]` against the rest of the rules and fills in the built-in mapping.
pub fn check_rules(r: &mut Rules) -> Result<(), CampaignError> {
    let Some(s) = r.strategic.as_mut() else {
        return Err(usage(
            "a strategic campaign needs [strategic] with tactical = \"all\" and scenario = \"skirmish\" (docs/campaigns.md)".into(),
        ));
    };
    if s.tactical != "all" && s.tactical != "agreed" {
        return Err(usage(format!(
            "[strategic] tactical = \"{}\" is not known: write tactical = \"all\" (every battle between players on the table) or \"agreed\" (where both players say `table battles: yes`)",
            s.tactical
        )));
    }
    if r.scenarios.len() != 1 || r.forces.is_some() || r.carry_over.units || r.carry_over.heroes {
        return Err(usage(
            "a strategic campaign plays one game: write scenarios = [\"world\"] (the map) and no [forces]".into(),
        ));
    }
    match &s.mapping {
        Some(m) => check_mapping("[strategic.mapping]", m)?,
        None => {
            s.mapping = Some(parse_mapping(
                "games/campaign/strategic-forces.toml",
                DEFAULT_MAPPING,
            )?)
        }
    }
    Ok(())
}

/// The unit kinds every tactical side has a card for, in name order.
pub fn table_kinds(m: &Mapping) -> Vec<String> {
    let mut sides = m.forces.values();
    let Some(first) = sides.next() else {
        return Vec::new();
    };
    let rest: Vec<_> = sides.collect();
    first
        .keys()
        .filter(|k| rest.iter().all(|s| s.contains_key(*k)))
        .cloned()
        .collect()
}

/// The forces of a battle (ruling R332): tactical side → units, the attacker on `sides[0]`.
pub fn forces(
    m: &Mapping,
    sides: &[String],
    b: &Elsewhere,
) -> Result<BTreeMap<String, Vec<ForceUnit>>, String> {
    let mut out = BTreeMap::new();
    for (tside, colour) in sides.iter().zip([&b.attacker, &b.defender]) {
        let cards = m.forces.get(tside).ok_or_else(|| {
            format!("the force mapping has no [forces.{tside}] for the tactical side {tside}")
        })?;
        let mut units = Vec::new();
        let kinds = b.units.get(colour).cloned().unwrap_or_default();
        // Tanks first, then the other kinds in name order: the heaviest on the table first.
        let mut order: Vec<&String> = kinds.keys().collect();
        order.sort_by_key(|k| (k.as_str() != "tank", k.as_str()));
        for kind in order {
            let Some(card) = cards.get(kind) else {
                continue;
            };
            for i in 1..=kinds[kind] {
                if units.len() as u32 == m.max_units {
                    break;
                }
                units.push(ForceUnit {
                    id: format!("{colour}-{kind}-{i}"),
                    card: card.clone(),
                });
            }
        }
        if units.is_empty() {
            return Err(format!(
                "{colour} has no unit the force mapping puts on the table in battle {}",
                b.battle
            ));
        }
        out.insert(tside.clone(), units);
    }
    Ok(out)
}

/// The record of a battle game: which battle of which game, and the units in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleRef {
    /// The strategic game's id.
    pub game: String,
    #[serde(flatten)]
    pub battle: Elsewhere,
}

/// A player's colour in the strategic game: its side in game 1.
pub fn colour_of(c: &Campaign, player: &str) -> Option<String> {
    let first = c.games.first()?;
    first
        .opened
        .sides
        .iter()
        .find(|(_, p)| p.as_str() == player)
        .map(|(s, _)| s.clone())
}

/// The `decide` control a battle game's recorded end gives (rulings R333, R335): the winner's
/// colour (`none` for a draw) and each side's units destroyed on the table.
pub fn decide_text(c: &Campaign, rec: &GameRecord, end: &GameEnded) -> Option<String> {
    let b = rec.opened.battle.as_ref()?;
    let colour = |tside: &str| {
        rec.opened
            .sides
            .get(tside)
            .and_then(|p| colour_of(c, p))
            .unwrap_or_default()
    };
    let winner = end
        .result
        .winner
        .as_deref()
        .map(colour)
        .unwrap_or_else(|| "none".into());
    let mut text = format!("decide battle {}: winner {winner}", b.battle.battle);
    for (tside, ids) in &end.lost {
        if !ids.is_empty() {
            text.push_str(&format!("; lost {} {}", colour(tside), ids.join(" ")));
        }
    }
    Some(text)
}

/// A battle game's `game_opened` follows from the lines before it: the strategic game is open,
/// no other battle is being fought, it is the next battle, the players are the colours', and
/// the forces are the mapping's.
pub fn check_opened(c: &Campaign, o: &super::GameOpened) -> Result<(), String> {
    let Some(b) = &o.battle else {
        return Err("a game the strategic campaign's plan does not have".into());
    };
    let Some(first) = c.games.first().filter(|g| g.ended.is_none()) else {
        return Err("a battle game while the strategic game is not open".into());
    };
    if c.games[1..].iter().any(|g| g.ended.is_none()) {
        return Err("a second battle game while one is still being fought".into());
    }
    let fought = c.games.len() as u32 - 1;
    if b.game != first.opened.game_id || b.battle.battle != fought + 1 {
        return Err(format!(
            "battle {} of game {} is not the next battle of game {}",
            b.battle.battle, b.game, first.opened.game_id
        ));
    }
    if o.game_id != super::game_id(&c.created.campaign_id, fought + 2) {
        return Err(format!(
            "game {} is not the campaign's next game",
            o.game_id
        ));
    }
    let Some(s) = &c.created.rules.strategic else {
        return Err("a battle game in a campaign without [strategic]".into());
    };
    let player = |colour: &str| first.opened.sides.get(colour).cloned();
    let tsides = tactical_sides(c);
    let want: BTreeMap<String, String> = tsides
        .iter()
        .zip([&b.battle.attacker, &b.battle.defender])
        .filter_map(|(t, col)| Some((t.clone(), player(col)?)))
        .collect();
    if o.sides != want || o.scenario != s.scenario {
        return Err(format!(
            "game {} is not scenario {} with the attacker's player on {} and the defender's on {}",
            o.game_id,
            s.scenario,
            tsides.first().map(String::as_str).unwrap_or_default(),
            tsides.get(1).map(String::as_str).unwrap_or_default()
        ));
    }
    let m = s
        .mapping
        .as_ref()
        .ok_or("the rules record no force mapping")?;
    let f = forces(m, &tsides, &b.battle)?;
    if o.forces != f {
        return Err(format!(
            "game {} opens with forces that are not the ones the force mapping gives for battle {}",
            o.game_id, b.battle.battle
        ));
    }
    Ok(())
}

/// The tactical scenario's two sides, as the mapping names them (`allies`, `axis`): the
/// attacker plays the first.
pub fn tactical_sides(c: &Campaign) -> Vec<String> {
    c.created
        .rules
        .strategic
        .as_ref()
        .and_then(|s| s.mapping.as_ref())
        .map(|m| m.forces.keys().cloned().collect())
        .unwrap_or_default()
}

/// `campaign audit`: every `decide` control in the strategic game's ledger is the one the
/// recorded end of that battle's game gives (a forged or re-signed result is named by its
/// line), and none decides a battle whose game has not ended.
pub fn audit_decisions(gfile: &str, c: &Campaign, gdata: &[u8]) -> Result<(), CampaignError> {
    let mut k = 0u32;
    for (i, line) in gdata.split(|&b| b == b'\n').enumerate() {
        let Ok(e) = serde_json::from_slice::<crate::ledger::Entry>(line) else {
            continue;
        };
        let crate::ledger::Event::Control(ctl) = e.event else {
            continue;
        };
        for a in &ctl.actions {
            let crate::ledger::ControlAction::Decide { text } = a else {
                continue;
            };
            k += 1;
            let bad = |m: String| CampaignError::Verify(format!("{gfile} line {}: {m}", i + 1));
            let rec = c
                .games
                .iter()
                .find(|g| g.opened.battle.as_ref().map(|b| b.battle.battle) == Some(k));
            let want = rec.and_then(|r| decide_text(c, r, r.ended.as_ref()?));
            match want {
                Some(w) if w == format!("decide {text}") => {}
                Some(w) => {
                    return Err(bad(format!(
                        "the result of battle {k} is not the one its game recorded in the campaign, which gives `{w}`"
                    )))
                }
                None => {
                    return Err(bad(format!(
                        "battle {k} is decided but the campaign records no end of its game"
                    )))
                }
            }
        }
    }
    Ok(())
}

/// Replays the strategic game (as `dustmail audit` does), noting each battle it awaited, with
/// the game's line that made it await it.
pub fn replay_noting(
    game: &dyn crate::registry::AnyGame,
    edges: &crate::pbem::edges::Edges,
    gfile: &str,
    gdata: &[u8],
    awaited: &mut BTreeMap<u32, (usize, Elsewhere)>,
) -> Result<
    (
        crate::ledger::Created,
        crate::pbem::replay::Derived<crate::registry::AnyState>,
        crate::pbem::replay::ReplaySummary,
    ),
    CampaignError,
> {
    let verr = |e: crate::pbem::error::RefereeError| CampaignError::Verify(e.to_string());
    let entries = crate::ledger::parse_log(gfile, gdata).map_err(|e| verr(e.into()))?;
    crate::pbem::replay::replay_observed(
        game,
        edges,
        gfile,
        &entries,
        crate::pbem::replay::DiceMode::Recorded,
        &mut |n, d| {
            if let Some(b) = game.elsewhere(&d.state) {
                awaited.entry(b.battle).or_insert((n, b));
            }
        },
    )
    .map_err(verr)
}

/// A battle game fights the battle the strategic game awaited: the same area, sides and units.
pub fn check_awaited(
    file: &str,
    line: u64,
    b: &BattleRef,
    awaited: &BTreeMap<u32, (usize, Elsewhere)>,
) -> Result<(), CampaignError> {
    match awaited.get(&b.battle.battle) {
        Some((_, e)) if *e == b.battle => Ok(()),
        Some((n, _)) => Err(CampaignError::Verify(format!(
            "{file} line {line}: battle {} is not the one game {} awaited at its line {n} (area, sides or units differ)",
            b.battle.battle, b.game
        ))),
        None => Err(CampaignError::Verify(format!(
            "{file} line {line}: game {} never awaited a battle {}",
            b.game, b.battle.battle
        ))),
    }
}
