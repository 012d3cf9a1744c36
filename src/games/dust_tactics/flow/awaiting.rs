//! Decisions awaited and what the referee does when nobody answers (R100).

use super::movement::entry_free;
use super::*;

/// Every distinct choice of casualties for `points` damage on `unit`, as full commands, the
/// default first. Models with the same weapons are interchangeable, so one of each count is
/// listed; a joined hero's health points are their own class (which of hero or squad takes each
/// point). At most 32 options.
pub fn casualty_options(state: &State, unit: &str, points: u32) -> Vec<String> {
    let pool = default_casualties(state, unit, u32::MAX);
    let squad_card = state.unit(unit).and_then(|u| card(state, u));
    let class = |m: &str| -> String {
        let kit = squad_card
            .and_then(|c| c.models.iter().find(|x| x.id == m))
            .map(|x| {
                let mut k = x.carries.clone();
                k.sort();
                k.join(",")
            });
        match kit {
            Some(k) if state.unit(m).is_none() => format!("kit:{k}"),
            _ if state.unit(m).is_some() => format!("unit:{m}"),
            _ => "kit:".to_string(),
        }
    };
    let mut classes: Vec<(String, Vec<String>)> = vec![];
    for m in pool {
        let k = class(&m);
        match classes.iter_mut().find(|c| c.0 == k) {
            Some(c) => c.1.push(m),
            None => classes.push((k, vec![m])),
        }
    }
    fn walk(
        classes: &[(String, Vec<String>)],
        left: usize,
        chosen: &mut Vec<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        if found.len() >= 32 {
            return;
        }
        let Some(((_, members), rest)) = classes.split_first() else {
            if left == 0 {
                found.push(chosen.clone());
            }
            return;
        };
        for k in (0..=members.len().min(left)).rev() {
            let before = chosen.len();
            chosen.extend(members.iter().take(k).cloned());
            walk(rest, left - k, chosen, found);
            chosen.truncate(before);
        }
    }
    let mut found = vec![];
    walk(&classes, points as usize, &mut vec![], &mut found);
    let default = default_casualties(state, unit, points);
    let mut options = vec![format!("casualties {unit}: {}", default.join(" "))];
    for f in found {
        let o = format!("casualties {unit}: {}", f.join(" "));
        if !options.contains(&o) {
            options.push(o);
        }
    }
    options
}

/// What the game waits for, with one example command per option.
pub fn awaiting(state: &State) -> Vec<crate::game::Awaiting> {
    use crate::game::Awaiting;
    if let Some(placing) = placing::awaiting(state) {
        return placing;
    }
    match &state.phase {
        Phase::Finished => vec![],
        Phase::Initiative => {
            // Round 1's initiative rolls on the first submission: each side may pre-state its choice.
            sides_list(state)
                .into_iter()
                .map(|s| Awaiting {
                    side: s.clone(),
                    decision: "first".into(),
                    options: sides_list(state)
                        .iter()
                        .map(|x| format!("first {x}"))
                        .collect(),
                })
                .collect()
        }
        Phase::First { winner } => vec![Awaiting {
            side: winner.clone(),
            decision: "first".into(),
            options: sides_list(state)
                .iter()
                .map(|x| format!("first {x}"))
                .collect(),
        }],
        Phase::Activations => match &state.next_side {
            Some(s) => vec![Awaiting {
                side: s.clone(),
                decision: "activate".into(),
                options: activatable(state, s)
                    .iter()
                    .map(|u| format!("activate {u}"))
                    .collect(),
            }],
            None => vec![],
        },
        Phase::Activation(a) => match &a.wait {
            Some(Wait::React { side, candidates }) => {
                let mut options: Vec<String> =
                    candidates.iter().map(|c| format!("react {c}")).collect();
                options.push("react none".into());
                vec![Awaiting {
                    side: side.clone(),
                    decision: "react".into(),
                    options,
                }]
            }
            Some(Wait::Casualties { side, unit, points }) => vec![Awaiting {
                side: side.clone(),
                decision: "casualties".into(),
                options: casualty_options(state, unit, *points),
            }],
            Some(Wait::Retaliate { side, unit, .. }) => vec![Awaiting {
                side: side.clone(),
                decision: "retaliate".into(),
                options: vec![
                    format!("retaliate {unit} yes"),
                    format!("retaliate {unit} no"),
                ],
            }],
            None => vec![],
        },
    }
}

/// The default activation (R59): NOTHING, NOTHING; in the first round a unit off the board
/// enters on the first free square of its entry zone (board order) it may take, then NOTHING
/// (004 "During the first round, units must enter the battlefield", R152).
fn default_actions(state: &State, unit: &str) -> Vec<Action> {
    let idle = vec![Action::Nothing, Action::Nothing];
    let Some(u) = state.unit(unit) else {
        return idle;
    };
    // Rules revision 1; the default of revision 0 was NOTHING, NOTHING everywhere.
    if !state.revised(1) || u.at.is_some() || state.round != 1 {
        return idle;
    }
    for sq in entry_free(state, u) {
        let enter = vec![Action::Move { squares: vec![sq] }, Action::Nothing];
        if plan_activation(state, u, &enter).is_ok() {
            return enter;
        }
    }
    idle
}

/// The documented default for every decision awaited from `side` (R59).
pub fn default_for(state: &mut State, side: &str, dice: &mut dyn DiceSource) -> Outcome {
    let mut out = Outcome::default();
    advance(state, dice, &mut out);
    // Each default may lead to another decision of the same side; bounded by the units in play.
    for _ in 0..(state.units.len() * 4 + 8) {
        let Some(w) = awaiting(state).into_iter().find(|a| a.side == side) else {
            break;
        };
        let cmd = match w.decision.as_str() {
            "place" => match placing::default_command(state, side) {
                Some(c) => c,
                None => break,
            },
            "first" => Command::First {
                side: side.to_string(),
            },
            "activate" => {
                let Some(u) = activatable(state, side).into_iter().next() else {
                    break;
                };
                Command::Activate {
                    actions: default_actions(state, &u),
                    unit: u,
                }
            }
            // The defaults of R100, as if no standing order said `ask`.
            "react" => {
                let Phase::Activation(a) = &state.phase else {
                    break;
                };
                let Some(Wait::React { candidates, .. }) = &a.wait else {
                    break;
                };
                let mut best: Option<(String, u32)> = None;
                for c in candidates {
                    let score = harm_score(state, c, a);
                    if best.as_ref().map(|b| score > b.1).unwrap_or(true) {
                        best = Some((c.clone(), score));
                    }
                }
                Command::React {
                    unit: best.map(|b| b.0),
                }
            }
            "retaliate" => Command::Retaliate {
                unit: None,
                yes: true,
            },
            "casualties" => {
                let Phase::Activation(a) = &state.phase else {
                    break;
                };
                let Some(Wait::Casualties { unit, points, .. }) = &a.wait else {
                    break;
                };
                let pref = casualty_pref(state, side, unit);
                Command::Casualties {
                    unit: unit.clone(),
                    models: preferred_casualties(state, unit, *points, &pref),
                }
            }
            _ => break,
        };
        let line = out.results.len() + 1;
        let outcome = apply(state, side, &cmd, dice, &mut out);
        let refused = matches!(outcome, CommandOutcome::Refused { .. });
        out.results
            .push(crate::game::CommandResult { line, outcome });
        if refused {
            break;
        }
    }
    out
}
