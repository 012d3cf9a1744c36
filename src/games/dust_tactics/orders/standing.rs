//! The `standing …` orders: answers a side gives in advance (reactions, casualties,
//! retaliation, who goes first).

use super::*;

pub(super) fn parse_standing(
    line: usize,
    words: &[&str],
    rest: &str,
) -> Result<Command, OrderError> {
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let lw: Vec<&str> = lower.iter().map(String::as_str).collect();
    let react_ex = "standing react any with rangers";
    match lw.as_slice() {
        [_, "react", trigger, rest @ ..] => {
            let trigger = id(trigger)
                .ok_or_else(|| err(line, format!("`{trigger}` is not a unit id"), react_ex))?;
            let answer = match rest {
                ["with", u] => StandingReaction::With(
                    id(u).ok_or_else(|| err(line, format!("`{u}` is not a unit id"), react_ex))?,
                ),
                ["never"] => StandingReaction::Never,
                ["ask"] => StandingReaction::Ask,
                ["auto"] => StandingReaction::Auto,
                // battlefront-2013: what two army symbols do (issue 18, R255).
                [w @ ("turn" | "sustained")] => {
                    use crate::dust_tactics::battlefront::react_choice::TwoArmy;
                    return Ok(Command::StandingReactChoosing {
                        unit: (trigger != "any").then_some(trigger),
                        choice: if *w == "turn" {
                            TwoArmy::Turn
                        } else {
                            TwoArmy::Sustained
                        },
                    });
                }
                _ => {
                    return Err(err(
                        line,
                        format!(
                        "`standing react {trigger}` must end with `with <unit>`, `never` or `ask` (or `auto`)"
                    ),
                        format!("standing react {trigger} with rangers"),
                    ))
                }
            };
            Ok(Command::StandingReact {
                trigger: (trigger != "any").then_some(trigger),
                answer,
            })
        }
        [_, "react"] => Err(err(
            line,
            "`standing react` needs the enemy unit (or `any`) and the answer, or your unit and `auto`, `never` or `ask`",
            react_ex,
        )),
        [_, "casualties", unit, "ask"] => {
            let unit = id(unit).ok_or_else(|| {
                err(
                    line,
                    format!("`{unit}` is not a unit id"),
                    "standing casualties rangers ask",
                )
            })?;
            Ok(Command::StandingCasualtiesAsk {
                unit: (unit != "any").then_some(unit),
            })
        }
        [_, "retaliate", unit, answer] => {
            let ex = "standing retaliate rangers yes";
            let unit =
                id(unit).ok_or_else(|| err(line, format!("`{unit}` is not a unit id"), ex))?;
            let policy = match *answer {
                "yes" => Some(true),
                "no" => Some(false),
                "ask" => None,
                _ => {
                    return Err(err(
                        line,
                        format!("`standing retaliate {unit}` must end with `yes`, `no` or `ask`"),
                        format!("standing retaliate {unit} yes"),
                    ))
                }
            };
            Ok(Command::StandingRetaliate {
                unit: (unit != "any").then_some(unit),
                policy,
            })
        }
        [_, "retaliate", ..] => Err(err(
            line,
            "`standing retaliate` is written `standing retaliate <your unit|any> yes|no|ask`",
            "standing retaliate any yes",
        )),
        [_, "casualties", ..] => {
            let r = rest
                .split_once(char::is_whitespace)
                .map(|(_, r)| r.trim())
                .unwrap_or("");
            let (unit, models) = casualty_list(line, r, "standing casualties")?;
            Ok(Command::StandingCasualties { unit, models })
        }
        [_, "first", side] => {
            let side = id(side).ok_or_else(|| {
                err(
                    line,
                    format!("`{side}` is not a side id"),
                    "standing first allies",
                )
            })?;
            Ok(Command::StandingFirst {
                side: (side != "ask").then_some(side),
            })
        }
        [_, "first", ..] => Err(err(
            line,
            "`standing first` takes one side id, or `ask`",
            "standing first allies",
        )),
        _ => Err(err(
            line,
            "`standing` is followed by `react`, `casualties` or `first` (or `retaliate`)",
            "standing first ask",
        )),
    }
}

/// What a standing react order answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StandingReaction {
    /// React with this unit of the sender's side.
    With(String),
    /// Always decline.
    Never,
    /// Wait for an answer.
    Ask,
    /// `standing react <your unit> auto`: react whenever that unit is eligible.
    Auto,
}

impl fmt::Display for StandingReaction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandingReaction::With(u) => write!(f, "with {u}"),
            StandingReaction::Never => f.write_str("never"),
            StandingReaction::Ask => f.write_str("ask"),
            StandingReaction::Auto => f.write_str("auto"),
        }
    }
}
