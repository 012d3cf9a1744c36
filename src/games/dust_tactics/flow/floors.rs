//! 004 "STRUCTURES", "Moving" between floors (R512, R514): a MOVE whose path names heights,
//! planned step by step, and carried out. "A unit can use a **MOVE** action to move up or down 1
//! floor for each MP spent."; "Units may move diagonally both vertically and horizontally. Each
//! space, in any direction, costs 1 MP."; "Units inside can also move onto the structure's roof
//! by moving up from the structure's top floor."

use super::*;
use crate::dust_tactics::floors::{self, Raised, Spot};

/// Every unit on the board above the ground floor.
pub(super) fn raised(state: &State) -> Vec<Raised> {
    state
        .units
        .iter()
        .filter(|u| !u.destroyed)
        .filter_map(|u| {
            Some(Raised {
                unit: u.id.clone(),
                side: u.side.clone(),
                at: u.at?,
                height: u.height?,
            })
        })
        .collect()
}

impl Planner<'_> {
    /// `move <square>[@<height>] …` (R514): one MOVE naming heights.
    pub(super) fn climb_action(&mut self, path: &[Spot]) -> Result<(), Refusal> {
        // `E5@1` names the ground floor: a path all on it is a plain move.
        if self.height.is_none() && path.iter().all(|s| s.1.is_none()) {
            let squares: Vec<Square> = path.iter().map(|s| s.0).collect();
            return self.movement(&squares);
        }
        // 003's buildings have one floor and no roof (R637; rules revision 9).
        if self.state.rules().battlefront() && self.state.revised(9) {
            return refuse(
                format!(
                    "{} cannot climb: under battlefront-2013 a building has one floor and no roof",
                    self.u.id
                ),
                RuleId::Structures.with(
                    "003 \"Walls and Buildings\" gives buildings no upper floors or roofs (R637)",
                ),
                "move <square> (on the ground, without @<height>)",
            );
        }
        self.may_move_again()?;
        let Some(from) = self.pos else {
            return refuse(
                format!(
                    "{} enters the battlefield: its move is one square of the entry zone, on the ground",
                    self.u.id
                ),
                RuleId::FirstRound,
                format!("move <one of {}>", super::movement::entry_text(self.state, self.u)),
            );
        };
        let to = self.climb(from, path)?;
        self.pos = Some(to);
        self.moved_before = true;
        self.push_kind(Kind::Move);
        Ok(())
    }

    /// The path from `from` (at the planner's height): runs of ground squares are planned as any
    /// move on the ground (entrances, walls, terrain, units); every step above the ground floor
    /// costs 1 MP and is checked by [`floors::step_block`]. Returns where it ends.
    pub(super) fn climb(&mut self, from: Square, path: &[Spot]) -> Result<Square, Refusal> {
        let (state, u) = (self.state, self.u);
        let mover = self.mover();
        let instead = |mp: u32| {
            format!("a move of at most {mp} movement points, each floor up or down 1 MP, like move E5 E5@2")
        };
        if super::aircraft::is_aircraft(state, &u.id) {
            return refuse(
                format!("{} is an aircraft: aircraft never enter a structure", u.id),
                RuleId::Structures.with("Aircraft cannot enter any structure"),
                "move <square> (an aircraft may stop on top of a structure)",
            );
        }
        let mut mp = movement_of(state, &u.id);
        if self.flags.assault {
            mp *= 2;
        }
        let fast = has_skill(state, &u.id, Skill::Fast) && !self.fast_used;
        let budget = mp + fast as u32;
        let members = group(state, &u.id);
        let raised: Vec<Raised> = raised(state)
            .into_iter()
            .filter(|r| !members.contains(&r.unit))
            .collect();
        let occ = self.occupancy_for(&mover).into_owned();
        let board = &state.scenario.board;
        let start: Spot = (from, self.height);
        let (mut at, mut cost, mut i) = (start, 0u32, 0);
        let mut walked: Vec<Spot> = vec![];
        let cannot = |e: geometry::MoveError| Refusal {
            reason: format!("{} cannot move: {}", u.id, e.reason),
            rule: e.rule,
            instead: instead(budget),
        };
        while i < path.len() {
            if at.1.is_none() && path[i].1.is_none() {
                // A run on the ground floor, planned as any move on the ground.
                let mut run: Vec<Square> = vec![];
                while i < path.len() && path[i].1.is_none() {
                    if !(run.is_empty() && path[i].0 == at.0) {
                        run.push(path[i].0);
                    }
                    i += 1;
                }
                if run.is_empty() {
                    continue;
                }
                let plan = geometry::plan_move(
                    board,
                    &occ,
                    &mover,
                    at.0,
                    &run,
                    budget.saturating_sub(cost),
                )
                .map_err(cannot)?;
                cost += plan.cost;
                walked.extend(plan.path.iter().map(|&s| (s, None)));
                at = (plan.path.last().copied().unwrap_or(at.0), None);
                continue;
            }
            let next = path[i];
            if let Some(e) = floors::step_block(board, &mover, &raised, at, next) {
                return Err(cannot(e));
            }
            if next.1.is_none() {
                // Down onto the ground floor: a space it may stand on.
                if let Some(e) = geometry::may_stand(board, &occ, &mover, next.0) {
                    return Err(cannot(e));
                }
            }
            cost += 1;
            walked.push(next);
            at = next;
            i += 1;
        }
        if at == start || walked.is_empty() {
            return refuse(
                format!(
                    "{} is already on {}: a move must leave its place",
                    u.id,
                    floors::place(at.0, at.1)
                ),
                RuleId::Movement,
                instead(budget),
            );
        }
        if cost > budget {
            return refuse(
                format!(
                    "{} is {cost} movement points away along the ordered path (1 MP a floor up or down), {} has {budget}",
                    floors::place(at.0, at.1),
                    u.id
                ),
                RuleId::Structures
                    .with("A unit can use a MOVE action to move up or down 1 floor for each MP spent"),
                instead(budget),
            );
        }
        if let Some(h) = at.1 {
            if let Some(o) = raised.iter().find(|r| r.at == at.0 && r.height == h) {
                return refuse(
                    format!(
                        "{} is occupied by unit {}: one unit per space on each floor",
                        floors::place(at.0, at.1),
                        o.unit
                    ),
                    RuleId::Movement.with("one unit per square"),
                    instead(budget),
                );
            }
        }
        if fast && cost > mp {
            self.fast_used = true;
        }
        self.height = at.1;
        self.texts
            .push(format!("move to {}", floors::place(at.0, at.1)));
        self.steps.push(Step::Climb { path: walked });
        Ok(at.0)
    }
}

/// Carries out a MOVE naming heights: the unit (and a hero joined to it) ends on the last square
/// at the last height; the mined squares it entered on the ground go off as any (R481).
pub(super) fn exec_climb(
    state: &mut State,
    lead: &str,
    path: &[Spot],
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(&(to, height)) = path.last() else {
        return;
    };
    let from = state.unit(lead).and_then(|u| u.at).unwrap_or(to);
    for m in group(state, lead) {
        if let Some(x) = state.unit_mut(&m) {
            x.at = Some(to);
            x.height = height;
            x.moved = true;
        }
    }
    tell(
        out,
        format!(
            "{lead} moves to {} ({})",
            floors::place(to, height),
            floors::path_text(path)
        ),
        DtEvent::Moved {
            unit: lead.to_string(),
            from,
            path: path.iter().map(|s| s.0).collect(),
        },
        vec![],
    );
    let ground: Vec<Square> = path.iter().filter(|s| s.1.is_none()).map(|s| s.0).collect();
    super::mines::minefields(state, lead, &ground, dice, out);
}
