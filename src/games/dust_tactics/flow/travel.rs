//! 004 "Fighting in the Metro" and "Fighting in the Sewers": the `travel` action between the
//! two boards of a scenario (R631). The boards and their links are scenario data
//! (`dust_tactics::travel`, R630).

use super::*;
use crate::dust_tactics::underground::Underground;

impl Planner<'_> {
    /// `travel`: "a soldier unit must be on a metro entrance [a sewer entrance, a numbered sewer
    /// space] and perform one action. That unit is then moved to the corresponding space".
    pub(super) fn travel(&mut self) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let Some(t) = &state.scenario.travel else {
            return refuse(
                "this scenario is fought on one board: there is nowhere to travel to",
                RuleId::Travel,
                "move <square>, attack or nothing",
            );
        };
        // 004: "a soldier unit must be on a metro entrance"; a vehicle stays above (R633).
        if state.card_of(u).is_some_and(|c| !c.unit_type.is_soldier()) {
            return refuse(
                format!(
                    "{} is a vehicle: \"To enter the metro [the sewers] in a scenario with 2 or more boards, a soldier unit must be on a metro entrance [a sewer entrance] and perform one action\"; \"Only soldier units (squads, heroes, superhumans) can enter the metro and the sewers\"",
                    u.id
                ),
                RuleId::Travel,
                "move <square> on this board, attack or nothing",
            );
        }
        let Some(at) = self.pos else {
            return refuse(
                format!(
                    "{} is not on the board: it travels from an entrance of a link",
                    u.id
                ),
                RuleId::Travel,
                "move <entry square> first",
            );
        };
        let Some((to, n)) = t.linked(at) else {
            let above = t.above(at);
            // The ends of the links on the unit's board (R636: a link may join any two boards).
            let here = t.board_of(at);
            let ends: Vec<String> = (t.links.iter().enumerate())
                .filter_map(|(i, &(a, b))| {
                    let end = [a, b].into_iter().find(|&e| t.board_of(e) == here)?;
                    Some(format!("{end} ({})", i + 1))
                })
                .collect();
            return refuse(
                format!(
                    "{} is on {at}, which is no end of a link between the boards: \"a soldier unit must be on a {} and perform one action\"",
                    u.id,
                    entrance_word(state, above)
                ),
                RuleId::Travel,
                if ends.is_empty() {
                    "this board has no link: move, attack or nothing".to_string()
                } else {
                    format!("move onto one of {} first, then `travel`", ends.join(", "))
                },
            );
        };
        if let Some(o) = self.occ.get(&to).and_then(|v| v.first()) {
            return refuse(
                format!(
                    "{} would travel by link {n} from {at} to {to}, held by unit {}: the unit is placed on that space, which must be free",
                    u.id, o.unit.0
                ),
                RuleId::Travel,
                "travel when the space is free, or take another action",
            );
        }
        self.pos = Some(to);
        self.steps.push(Step::Travel { to });
        self.texts
            .push(format!("travel from {at} to {to} (link {n})"));
        // Neither a MOVE nor an ATTACK: for the sequences and the window, as a SKILL (R631).
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

/// What the text calls the end of a link on the board `above` (or below).
fn entrance_word(state: &State, above: bool) -> &'static str {
    match (state.scenario.underground, above) {
        (Some(Underground::Metro), true) => "metro entrance",
        (Some(Underground::Metro), false) => "scenario-specified metro space",
        (_, true) => "sewer entrance",
        (_, false) => "numbered sewer space",
    }
}

/// Runs a planned `travel`: the unit, with its joined hero, is placed on `to`; the arrival is a
/// move into the space for 004 "Minefields" (R631, R481).
pub(super) fn exec(
    state: &mut State,
    lead: &str,
    to: Square,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(from) = state.unit(lead).and_then(|u| u.at) else {
        return;
    };
    for m in group(state, lead) {
        if let Some(x) = state.unit_mut(&m) {
            x.at = Some(to);
        }
    }
    let board = |sq: Square| match &state.scenario.travel {
        Some(t) => t.board_name(sq),
        None => "underground".to_string(),
    };
    say(
        out,
        format!(
            "{lead} travels from {from} ({}) to {to} ({}) (004 Underground Fighting: travel between boards)",
            board(from),
            board(to)
        ),
    );
    super::mines::minefields(state, lead, &[to], dice, out);
}
