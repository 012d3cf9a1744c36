//! `table battles: yes|no` (issue 15 item 2, ruling R337): in a strategic campaign with
//! `tactical = "agreed"`, each player's standing choice whether their land battles against
//! another player are fought on the table. A battle goes there only when both sides said yes
//! before the attack; the choice is a signed line, so replay and `campaign audit` recompute it.

use super::model::State;
use super::{accepted, refused, Reply};

const RULE: &str = "docs/campaigns.md \"A strategic campaign\" (ruling R337)";
const EXAMPLE: &str = "table battles: yes";

/// The line's words after `table` (`battles: yes`); accepted in any phase but the end.
pub fn choose(s: &mut State, side: &str, line: usize, rest: &str) -> Reply {
    let Some(chosen) = s.table_battles.as_mut() else {
        let why = if s.tactical.is_some() {
            "this campaign fights every battle between players on the table (tactical = \"all\"): there is nothing to choose"
        } else {
            "table battles are chosen only in a strategic campaign with tactical = \"agreed\": this game rolls every battle"
        };
        return refused(line, why, RULE, "nothing: leave the line out");
    };
    let answer = rest
        .strip_prefix("battles")
        .map(|r| r.trim_start_matches([':', ' ']).trim());
    let yes = match answer {
        Some("yes") => true,
        Some("no") => false,
        _ => {
            return refused(
                line,
                format!("`table {rest}` is not a choice: write yes or no after `table battles:`"),
                RULE,
                EXAMPLE,
            )
        }
    };
    if yes {
        chosen.insert(side.to_string());
        accepted(
            line,
            format!("{side} wants its battles on the table: a land battle against a player who wants it too is fought as a Dust Tactics game"),
        )
    } else {
        chosen.remove(side);
        accepted(
            line,
            format!("{side} wants its battles rolled: its land battles are rolled here"),
        )
    }
}

/// Whether both sides of a battle agree to fight it on the table; true in every game that has
/// no choice to make (`tactical = "all"`).
pub fn agreed(s: &State, attacker: &str, defender: &str) -> bool {
    s.table_battles
        .as_ref()
        .is_none_or(|y| y.contains(attacker) && y.contains(defender))
}

/// Each player's choice, for the report (public: whether a battle goes to the table tells it
/// anyway); `None` in a game with nothing to choose.
pub fn choices_text(s: &State) -> Option<String> {
    let yes = s.table_battles.as_ref()?;
    let each: Vec<String> = s
        .sides
        .iter()
        .map(|x| format!("{x} {}", if yes.contains(x) { "yes" } else { "no" }))
        .collect();
    Some(format!(
        "table battles (on the table where both say yes): {}",
        each.join(", ")
    ))
}

/// The orders template's lines: the player's choice as it stands, and the other answer
/// (each accepted as it is, ruling R337).
pub fn template(s: &State, side: &str) -> String {
    let Some(yes) = &s.table_battles else {
        return String::new();
    };
    let (now, other) = if yes.contains(side) {
        ("yes", "no")
    } else {
        ("no", "yes")
    };
    format!(
        "# Battles against a player go to the table (a Dust Tactics game)\n\
         # where both sides say yes (R337). Yours now: {now}; or:\n\
         #table battles: {other}\n\
         table battles: {now}\n"
    )
}
