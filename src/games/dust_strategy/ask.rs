//! `ask`, the only pause of dust-strategy (issue 14 item 3; docs/strategy.md "ask"; rulings
//! R351–R353). A defender's standing order `defend AREA: ask` (or `defend all: ask`) pauses a
//! land battle there: the attacker's script stops before the attack line, which and the lines
//! after it wait in the state (they are in the ledger already, as the attacker's signed mail, so
//! replay stays deterministic). The defender answers with one mail, `battle at AREA: …`; at the
//! deadline the standing order without `ask` decides. No die is rolled and no CP spent before.

use super::retreat::{self, Defence};
use super::*;
use crate::game::Audience;
use serde::{Deserialize, Serialize};

const RULE: &str = "docs/strategy.md 'ask' (rulings R351–R353)";

/// A battle paused for its defender's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Asked {
    pub attacker: String,
    pub defender: String,
    pub area: String,
    /// What attacks, as the defender reads it: `3 tanks from appalachia`.
    pub by: String,
    /// The paused line and the attacker's lines after it: (line number, text).
    #[serde(default)]
    pub lines: Vec<(usize, String)>,
    /// The first refused line of the attacker's mail before the pause (`end` then stays refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earlier: Option<usize>,
    /// The answer, set while the answered battle is fought.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Defence>,
    /// Paused by the line being run; its mail's other lines are not held yet.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fresh: bool,
}

/// The paused battle, while its answer is awaited.
fn waiting(s: &State) -> Option<&Asked> {
    s.ask.as_ref().filter(|a| a.answer.is_none())
}

/// The defence a battle is fought with: the answer for the answered battle, else the standing
/// order (whose `ask` then plays no part: at the deadline it is the order without it).
pub fn defence(s: &State, side: &str, area: &str) -> Defence {
    match &s.ask {
        Some(Asked {
            defender,
            area: at,
            answer: Some(d),
            ..
        }) if defender == side && at == area => d.clone(),
        _ => retreat::defence_of(s, side, area),
    }
}

/// Who the game waits for while a battle is paused: its defender alone.
pub fn awaiting(s: &State) -> Option<Vec<Awaiting>> {
    let a = waiting(s)?;
    Some(vec![Awaiting {
        side: a.defender.clone(),
        decision: "battle".into(),
        options: vec![format!("battle at {}: as standing", a.area)],
    }])
}

/// A turn line of the attacker while its battle waits: refused (ruling R353).
pub(super) fn held(s: &State, side: &str, line: usize) -> Option<Reply> {
    let a = waiting(s).filter(|a| a.attacker == side)?;
    Some(refused(
        line,
        format!(
            "your turn waits for {}'s answer on the battle at {}; the lines you sent after that attack run once it is fought",
            a.defender, a.area
        ),
        RULE,
        "nothing for this turn: the report of the battle follows the answer or the deadline",
    ))
}

/// The orders template while a battle waits: the defender's answer, the attacker's wait.
pub fn template(s: &State, side: &str) -> Option<String> {
    let a = waiting(s)?;
    if a.defender == side {
        Some(format!(
            "# {} attacks {} with {}; you asked to decide this battle.\n\
             # One line: your standing order as it is, or this battle's own\n\
             # (hits: casualty order; retreat at N [TYPES] [to AREA]; powers).\n\
             battle at {}: as standing\n\
             #battle at {}: hits: tanks, robots; retreat at 1\n",
            a.attacker, a.area, a.by, a.area, a.area
        ))
    } else if a.attacker == side {
        Some(format!(
            "# Your attack on {} waits for {}'s answer; the rest of your turn\n# runs after the battle. Send nothing for this turn.\n",
            a.area, a.defender
        ))
    } else {
        None
    }
}

/// A fresh pause takes the paused line and the lines after it; each held line is answered.
pub(super) fn hold(
    s: &mut State,
    line: usize,
    text: &str,
    earlier: Option<usize>,
    rest: Vec<(usize, String)>,
) -> Option<Vec<Reply>> {
    let a = s.ask.as_mut().filter(|a| a.fresh)?;
    a.fresh = false;
    a.earlier = earlier;
    let replies = rest
        .iter()
        .map(|(n, _)| {
            accepted(
                *n,
                format!(
                    "held: runs after {}'s answer on the battle at {}",
                    a.defender, a.area
                ),
            )
        })
        .collect();
    a.lines = std::iter::once((line, text.to_string()))
        .chain(rest)
        .collect();
    Some(replies)
}

/// A receipt line, for the attacker's private note of its held lines.
pub(super) fn receipt(r: &Reply) -> String {
    match &r.outcome {
        CommandOutcome::Accepted { understood } => format!("line {}: {understood}", r.line),
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } => format!(
            "line {} refused: {reason} ({rule}); instead: {instead}",
            r.line
        ),
    }
}

impl Step<'_> {
    /// Pauses an attack whose defender asked for its area (ruling R351): nothing is spent or
    /// rolled; the defender alone is told what attacks and what to answer.
    pub(super) fn ask_pause(&mut self, line: usize, o: &combat::Order) -> Option<Reply> {
        let enemy = self.s.owner(o.to)?.to_string();
        if enemy == NEUTRAL || enemy == self.side || self.s.ask.is_some() {
            return None;
        }
        if !retreat::defence_of(self.s, &enemy, o.to).ask {
            return None;
        }
        let by = if o.drop.is_empty() {
            format!(
                "{} from {}{}",
                units_text(&o.units),
                o.from,
                if o.amphibious { " (amphibious)" } else { "" }
            )
        } else {
            let from: Vec<&str> = o.drop.iter().map(|(a, _)| a.as_str()).collect();
            format!("{} dropped from {}", units_text(&o.units), from.join(", "))
        };
        let area = o.to.to_string();
        self.happen(vec![
            Happening::text(format!(
                "{} attacks {area}: the battle waits for {enemy}'s answer",
                self.side
            )),
            Happening {
                text: format!(
                    "{} attacks {area} with {by}. You asked to decide this battle: answer with one signed mail, `battle at {area}: as standing` or `battle at {area}: hits: tanks, robots; retreat at 1` (as a defend order). Without an answer by the deadline your standing order for {area} applies, without `ask`.",
                    self.side
                ),
                audience: Audience::Side(enemy.clone()),
                ..Happening::default()
            },
        ]);
        let reply = accepted(
            line,
            format!(
                "the attack on {area} waits for {enemy}'s answer (its standing `ask`): no die is rolled and no CP spent until then; your lines after this one wait too"
            ),
        );
        self.s.ask = Some(Asked {
            attacker: self.side.to_string(),
            defender: enemy,
            area,
            by,
            lines: Vec::new(),
            earlier: None,
            answer: None,
            fresh: true,
        });
        Some(reply)
    }

    /// After a line of a mail: a pause it made holds the mail's remaining lines.
    pub(super) fn hold_rest(
        &mut self,
        line: usize,
        text: &str,
        earlier: Option<usize>,
        rest: &[Line],
    ) -> bool {
        let rest: Vec<(usize, String)> = rest
            .iter()
            .map(|l| (l.number, l.text.trim().to_ascii_lowercase()))
            .filter(|(_, t)| !t.is_empty() && !t.starts_with('#'))
            .collect();
        // R340: a battle just sent to the table holds the rest of the mail.
        let held = super::held::hold(self.s, earlier, rest.clone());
        match held.or_else(|| hold(self.s, line, text, earlier, rest)) {
            Some(replies) => {
                self.out.results.extend(replies);
                true
            }
            None => false,
        }
    }

    /// `battle at AREA: as standing` or `battle at AREA: hits: …; retreat at N …` (ruling R352).
    pub(super) fn answer(&mut self, line: usize, rest: &str) -> Reply {
        let Some(a) = waiting(self.s).cloned() else {
            return refused(
                line,
                "no battle waits for your answer",
                RULE,
                "`defend AREA: ask` in a standing order; answer when a battle there pauses",
            );
        };
        let example = format!("battle at {}: as standing", a.area);
        if a.defender != self.side {
            return refused(
                line,
                format!(
                    "the battle at {} waits for {}'s answer, not yours",
                    a.area, a.defender
                ),
                RULE,
                "nothing",
            );
        }
        let body = rest.strip_prefix("at ").unwrap_or(rest);
        let Some((area, clauses)) = body.split_once(':') else {
            return refused(line, "an answer names the area, then `:`", RULE, example);
        };
        if area.trim() != a.area {
            return refused(
                line,
                format!(
                    "the battle that waits for your answer is at {}, not `{}`",
                    a.area,
                    area.trim()
                ),
                RULE,
                example,
            );
        }
        let clauses = clauses.trim();
        let d = if clauses == "as standing" {
            let mut d = retreat::defence_of(self.s, self.side, &a.area);
            d.ask = false;
            d
        } else {
            match retreat::parse_defend(self.s, &format!("{}: {clauses}", a.area)) {
                Ok((_, d)) if d.ask => {
                    return refused(
                        line,
                        "`ask` belongs in a standing order; this answer decides the battle now",
                        RULE,
                        example,
                    )
                }
                Ok((_, d)) => d,
                Err(n) => return no(line, n),
            }
        };
        let said = retreat::describe(&a.area, &d).replacen("defend", "battle at", 1);
        self.resume(d);
        accepted(line, format!("{said}: the battle is fought now"))
    }

    /// At the deadline: the asked side's battle is fought by its standing order without `ask`,
    /// else by R314 (ruling R352). True when this side was asked.
    pub(super) fn ask_deadline(&mut self) -> bool {
        let Some(a) = waiting(self.s).filter(|a| a.defender == self.side).cloned() else {
            return false;
        };
        let mut d = retreat::defence_of(self.s, &a.defender, &a.area);
        d.ask = false;
        self.happen(vec![Happening::text(format!(
            "{} did not answer for the battle at {} by the deadline: its standing order decides",
            a.defender, a.area
        ))]);
        self.resume(d);
        true
    }

    /// Fights the answered battle, then runs the attacker's held lines in order, with their
    /// conditions; a later attack may pause again. Their receipts go to the attacker alone.
    fn resume(&mut self, answer: Defence) {
        let Some(mut a) = self.s.ask.take() else {
            return;
        };
        a.answer = Some(answer);
        let lines = std::mem::take(&mut a.lines);
        let (attacker, defender, area) = (a.attacker.clone(), a.defender.clone(), a.area.clone());
        let mut earlier = a.earlier;
        self.s.ask = Some(a);
        let mut said = Vec::new();
        let out = {
            let mut inner = Step {
                s: &mut *self.s,
                side: &attacker,
                dice: &mut *self.dice,
                out: Outcome::default(),
            };
            for (i, (n, text)) in lines.iter().enumerate() {
                let r = inner.command(*n, text, earlier);
                if i == 0 {
                    // The answered battle is fought; its answer ends with it.
                    inner.s.ask = None;
                }
                if earlier.is_none() && matches!(r.outcome, CommandOutcome::Refused { .. }) {
                    earlier = Some(*n);
                }
                said.push(receipt(&r));
                let rest = lines[i + 1..].to_vec();
                let more = super::held::hold(inner.s, earlier, rest.clone())
                    .or_else(|| hold(inner.s, *n, text, earlier, rest));
                if let Some(more) = more {
                    said.extend(more.iter().map(receipt));
                    break;
                }
            }
            inner.out
        };
        self.out.happenings.extend(out.happenings);
        self.out.happenings.push(Happening {
            text: format!(
                "{attacker}: your lines held for {defender}'s answer at {area}: {}",
                said.join("; ")
            ),
            audience: Audience::Side(attacker.clone()),
            ..Happening::default()
        });
        self.out.rounds_ended.extend(out.rounds_ended);
        if out.finished.is_some() {
            self.out.finished = out.finished;
        }
    }
}
