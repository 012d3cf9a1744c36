//! `skill <name> [at <target>]`, and the artillery strike's form that adds the gun's other
//! weapons: `skill artillery-strike [<gun>] at <target>, <weapon> at <target>[, …]` (004
//! "Artillery Weapons (Range A)", indirect shot: "The unit may also use its other weapons
//! (targeting the same or a different unit)", R547).

use super::{err, fire_orders, id, target, Action, OrderError};
use crate::dust_tactics::model::Board;
use crate::dust_tactics::skill::Skill;

/// Parses what follows `skill` on line `line`.
pub(super) fn parse_skill(line: usize, rest: &str, board: &Board) -> Result<Action, OrderError> {
    // The gun's other weapons follow the strike's target after the first comma (R547).
    let (rest, others) = match rest.split_once(',') {
        Some((head, tail)) => (head, Some(tail)),
        None => (rest, None),
    };
    // Multi-word skill names join with dashes: `skill self repair` = `self-repair`.
    let words: Vec<&str> = rest.split_whitespace().collect();
    let at = words.iter().position(|w| w.eq_ignore_ascii_case("at"));
    let (name_words, tgt) = match at {
        Some(p) => (&words[..p], words.get(p + 1..)),
        None => (&words[..], None),
    };
    if name_words.is_empty() {
        return Err(err(
            line,
            "`skill` needs the skill's name",
            "skill self-repair",
        ));
    }
    let joined = name_words.join("-");
    let name = id(&joined).ok_or_else(|| {
        err(
            line,
            format!("`{joined}` is not a skill name (letters, digits and dashes)"),
            "skill self-repair",
        )
    })?;
    let target = match tgt {
        None => None,
        Some([t]) => Some(target(line, t, board, &format!("skill {name} at ludwig"))?),
        Some(_) => {
            return Err(err(
                line,
                format!("`skill {name} at` needs exactly one target"),
                format!("skill {name} at ludwig"),
            ))
        }
    };
    let Some(others) = others else {
        return Ok(Action::Skill { name, target });
    };
    let strike = Skill::ArtilleryStrike.id();
    let example = format!("skill {strike} howitzer-bot at ludwig, mg at grenadiers");
    let (true, Some(target)) = (name.starts_with(strike), target) else {
        return Err(err(
            line,
            format!(
                "only `skill {strike} … at <target>` is followed by weapons (the gun's others, after a comma); `skill {name}` takes none"
            ),
            example,
        ));
    };
    let also = fire_orders(line, others, &format!("skill {strike} … ,"), board)?;
    Ok(Action::StrikeWith { name, target, also })
}
