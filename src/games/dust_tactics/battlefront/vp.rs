//! 003 §12 Supply Drop and All-Out Attack (issue 18, R291–R293): victory points for each turn an
//! objective is held under 003's holding rule (`objectives::holder`, R285), and in All-Out Attack
//! for each enemy unit eliminated. A scenario says how with `[victory_points]` and `vp`
//! objectives; the engine calls [`score_turn`] at the end of every turn and [`game_over`] before
//! its own end conditions.

use super::super::model::Square;
use super::super::scenario::Objective;
use super::super::state::State;
use crate::game::{GameResult, Happening, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How the game ends when nobody reached the target by the turn limit (or annihilation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AtEnd {
    /// 003 "Ending the Game": the most enemy army points destroyed (Supply Drop, R292).
    ArmyPoints,
    /// All-Out Attack: "or by having the most victory points at the end of the game".
    VictoryPoints,
}

/// A scenario's victory points rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryPoints {
    /// "A player wins by gaining a total of five (seven) victory points."
    pub target: u32,
    /// All-Out Attack: "a victory point for each unit they eliminate" (1); else 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub per_unit: u32,
    pub at_end: AtEnd,
}

/// `[victory_points]` as a scenario file writes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVictoryPoints {
    target: u32,
    #[serde(default)]
    per_unit: u32,
    at_end: String,
}

/// Validates `[victory_points]`: (field, message) on error.
pub fn parse(
    raw: &RawVictoryPoints,
    rulesets: &[String],
) -> Result<VictoryPoints, (String, String)> {
    if rulesets != ["battlefront-2013"] {
        return Err((
            "victory_points".into(),
            "victory points per turn held are 003's rule: add rulesets = [\"battlefront-2013\"]"
                .into(),
        ));
    }
    if raw.target == 0 {
        return Err((
            "victory_points.target".into(),
            "write the victory points that win, like target = 5".into(),
        ));
    }
    let at_end = match raw.at_end.as_str() {
        "army_points" => AtEnd::ArmyPoints,
        "victory_points" => AtEnd::VictoryPoints,
        _ => {
            return Err((
                "victory_points.at_end".into(),
                "write at_end = \"army_points\" (the most enemy army points destroyed decide) or \"victory_points\"".into(),
            ))
        }
    };
    Ok(VictoryPoints {
        target: raw.target,
        per_unit: raw.per_unit,
        at_end,
    })
}

/// Each side's victory points so far: those scored for objectives held, plus `per_unit` for
/// each elimination of another side's unit (a unit eliminated again counts again).
pub fn totals(state: &State) -> BTreeMap<String, u32> {
    let per_unit = state
        .scenario
        .victory_points
        .as_ref()
        .map_or(0, |v| v.per_unit);
    state
        .sides()
        .into_iter()
        .map(|s| {
            let held = state.victory_points.get(&s).copied().unwrap_or(0);
            let kills = state.destroyed.iter().filter(|d| d.side != s).count() as u32;
            let total = held + per_unit * kills;
            (s, total)
        })
        .collect()
}

/// The points a `vp` objective in `half`'s table half gives `holder`.
fn worth(holder: &str, half: &str, own: u32, enemy: u32) -> u32 {
    if holder == half {
        own
    } else {
        enemy
    }
}

/// End of a turn: every `vp` objective held under 003's rule scores for its holder.
pub fn score_turn(state: &mut State, out: &mut Outcome) {
    if state.scenario.victory_points.is_none() {
        return;
    }
    let mut scored = vec![];
    for o in &state.scenario.objectives {
        let Objective::Vp {
            at,
            half,
            own,
            enemy,
        } = o
        else {
            continue;
        };
        let Some(h) = super::objectives::holder(state, *at) else {
            continue;
        };
        let n = worth(&h, half, *own, *enemy);
        if n > 0 {
            scored.push((h, *at, half.clone(), n));
        }
    }
    for (h, at, half, n) in scored {
        *state.victory_points.entry(h.clone()).or_insert(0) += n;
        let all = totals(state)
            .iter()
            .map(|(s, v)| format!("{s} {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        out.happenings.push(Happening {
            text: format!(
                "{h} holds {at} in {half}'s half at the end of round {}: +{n} VP (victory points: {all}; 003 §12)",
                state.round
            ),
            ..Happening::default()
        });
    }
}

/// 003 §12: "A player wins by gaining a total of five (seven) victory points"; in All-Out
/// Attack also "by having the most victory points at the end of the game". `None` when the
/// scenario has no victory points, or the general end conditions decide.
pub fn game_over(state: &State, wiped: bool) -> Option<GameResult> {
    let v = state.scenario.victory_points.as_ref()?;
    let pts = totals(state);
    let top = pts.values().copied().max().unwrap_or(0);
    let leaders: Vec<&String> = pts
        .iter()
        .filter(|(_, p)| **p == top)
        .map(|(s, _)| s)
        .collect();
    let winner = (leaders.len() == 1).then(|| leaders[0].clone());
    let reason = if top >= v.target {
        // R293: both past the target in the same turn: the most VP, equal a draw.
        match &winner {
            Some(w) => format!(
                "{w} has {top} victory points at the end of round {}, the {} that win (003 §12)",
                state.round, v.target
            ),
            None => format!(
                "both sides reach {top} victory points at the end of round {}: a draw (R293)",
                state.round
            ),
        }
    } else if v.at_end == AtEnd::VictoryPoints && (wiped || state.round >= state.scenario.rounds) {
        format!(
            "the round limit ({}) is reached: the most victory points win (003 §12)",
            state.scenario.rounds
        )
    } else {
        return None;
    };
    Some(GameResult {
        winner,
        reason,
        points: pts,
    })
}

/// How a `vp` objective scores, as the briefings say it (one sentence).
pub fn vp_text(state: &State, at: Square, half: &str, own: u32, enemy: u32) -> String {
    let others: Vec<String> = state.sides().into_iter().filter(|s| s != half).collect();
    let mut s = format!(
        "From round {} on, holding {at} (in {half}'s half; a unit, not an aircraft, on it and no enemy unit within {} squares) at the end of a round gives {} {enemy} VP",
        super::objectives::FIRST_HOLDING_TURN,
        super::objectives::ENEMY_CLEAR,
        others.join(" or ")
    );
    if own > 0 {
        s.push_str(&format!(" and {half} {own} VP"));
    }
    s.push_str(" (003 §12).");
    s
}

/// The briefing's sentence on the scenario's victory points, if it has any.
pub fn rule_text(state: &State) -> Option<String> {
    let v = state.scenario.victory_points.as_ref()?;
    let per_unit = if v.per_unit > 0 {
        format!(
            " Each enemy unit eliminated gives {} VP (heroes count in their own right; a unit eliminated again counts again).",
            v.per_unit
        )
    } else {
        String::new()
    };
    let end = match v.at_end {
        AtEnd::VictoryPoints => "otherwise the most victory points after the last round win",
        AtEnd::ArmyPoints => {
            "otherwise the game ends as 003 says, on annihilation or the most enemy army points destroyed"
        }
    };
    Some(format!(
        "Victory points (003 §12):{per_unit} {} VP win at the end of a round; {end}.",
        v.target
    ))
}

/// The report's line: the victory points rule and the score so far.
pub fn score_text(state: &State) -> Option<String> {
    let rule = rule_text(state)?;
    let score = totals(state)
        .iter()
        .map(|(s, v)| format!("{s} {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(format!("{rule} Score: {score}."))
}
