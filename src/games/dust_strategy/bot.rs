//! The sample player of `dustmail demo --game dust-strategy`: plain, legal orders. At setup
//! and each round it plays its highest-CP card; it spends its PP on tanks at its PCs; it makes
//! one attack with a whole garrison on a linked enemy land area it outguns; then it ends its
//! turn. Every line is tried on a copy of the state first and dropped if the engine would refuse
//! it, so the mail it sends always closes the turn.

use super::model::*;
use super::{combat, DustStrategy};
use crate::game::{Audience, CommandOutcome, DiceSource, Game, Line, Sender};

/// Dice for the trial run: never a hit, the first card of any draw.
struct Trial;

impl DiceSource for Trial {
    fn d6(&mut self, _round: u32) -> u8 {
        6
    }
    fn uniform(&mut self, _round: u32, _n: u32) -> u32 {
        0
    }
    fn hidden(&mut self, _audience: &Audience, _n: u32) -> u32 {
        0
    }
}

/// Keeps the lines the engine accepts, in order, each tried after the ones kept before it.
fn legal(s: &State, side: &str, candidates: Vec<String>) -> Vec<String> {
    let mut kept = Vec::new();
    let mut trial = s.clone();
    for c in candidates {
        let mut t = trial.clone();
        let o = DustStrategy.submit(
            &mut t,
            Sender::side(side),
            &[Line {
                number: 1,
                text: c.clone(),
            }],
            &mut Trial,
        );
        if o.results
            .iter()
            .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. }))
        {
            trial = t;
            kept.push(c);
        }
    }
    kept
}

fn firepower(u: &Units) -> u32 {
    u.iter()
        .filter(|(t, _)| t.air_land())
        .map(|(t, n)| t.firepower() * n)
        .sum()
}

pub fn orders(s: &State, side: &str) -> Option<String> {
    let lines: Vec<String> = match s.phase {
        Phase::Setup | Phase::Cards => vec!["play highest cp".into()],
        Phase::Reinforce => {
            let mut c = Vec::new();
            for pc in s.pcs_of(side) {
                c.push(format!("build 2 tanks at {pc}"));
            }
            let mut l = legal(s, side, c);
            l.push("done".into());
            l
        }
        Phase::Turn { .. } if s.current() == Some(side) => {
            let mut c = Vec::new();
            for pc in s.pcs_of(side) {
                c.push(format!("build 2 tanks at {pc}"));
            }
            if s.hands.get(side).map(Vec::len).unwrap_or(0) < 2 {
                c.push("buy 1".into());
            }
            // One attack: the garrison that outguns a linked enemy land area the most.
            let mut best: Option<(u32, String, String)> = None;
            for a in &s.map.areas {
                let h = s.holding(&a.id);
                if h.owner.as_deref() != Some(side) || s.map.is_sea(&a.id) {
                    continue;
                }
                let ours = firepower(&h.units);
                for n in s.map.neighbours(&a.id) {
                    let e = s.holding(n);
                    let enemy = matches!(&e.owner, Some(o) if o != side);
                    if !enemy || !s.map.is_land(n) {
                        continue;
                    }
                    let edge = ours.saturating_sub(2 * firepower(&e.units) + 3 * u32::from(e.pc));
                    if edge > 0 && best.as_ref().is_none_or(|b| edge > b.0) {
                        best = Some((edge, a.id.clone(), n.to_string()));
                    }
                }
            }
            let mut l = legal(s, side, c);
            if let Some((_, from, to)) = best {
                let attack = format!("attack all from {from} to {to}");
                let t = s.turn.clone();
                let ok = t.is_some_and(|t| {
                    let units = s
                        .holding(&from)
                        .units
                        .into_iter()
                        .filter(|(u, _)| u.air_land())
                        .collect();
                    combat::check(
                        s,
                        side,
                        &t,
                        &combat::Order {
                            units,
                            from: &from,
                            to: &to,
                            amphibious: false,
                            priority: combat::DEFAULT_PRIORITY.to_vec(),
                            power: None,
                            drop: Vec::new(),
                            retreat: None,
                        },
                    )
                    .is_ok()
                });
                if ok {
                    l.push(attack);
                }
            }
            l.push("end".into());
            l
        }
        _ => return None,
    };
    Some(lines.join("\n"))
}
