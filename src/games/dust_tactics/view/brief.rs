//! The short briefing every report carries (issue 16 item 2): how to win, when the game ends
//! and which round this is, and where units still off the board come in. A few lines of at
//! most 72 characters; the welcome mail keeps the whole briefing (description, defaults).

use crate::games::dust_tactics::present::wrap;
use crate::games::dust_tactics::scenario::Objective;
use crate::games::dust_tactics::state::State;

/// The report's briefing for `side` (`None`: an observer, who has no entry zone).
pub fn report_briefing(state: &State, side: Option<&str>) -> String {
    let sc = &state.scenario;
    let holds: Vec<String> = sc
        .objectives
        .iter()
        .filter_map(|o| match o {
            Objective::Hold { side, at } => Some(format!(
                "{side} wins at once at the end of a round with a unit on {at} and no enemy unit there."
            )),
            // issue 18: 003 §12 Grab the Dust (bfscen).
            Objective::Grab { at, side } => Some(
                crate::games::dust_tactics::battlefront::objectives::grab_text(
                    *at,
                    side.as_deref(),
                ),
            ),
            // issue 18: 003 §12 Supply Drop, All-Out Attack (battlefront/vp.rs).
            Objective::Vp {
                at,
                half,
                own,
                enemy,
            } => Some(crate::games::dust_tactics::battlefront::vp::vp_text(
                state, *at, half, *own, *enemy,
            )),
            _ => None,
        })
        .collect();
    let extra: Vec<String> = sc
        .objectives
        .iter()
        .filter_map(|o| match o {
            Objective::Points { at, points } => {
                Some(format!("{points} for holding {at} at the end"))
            }
            _ => None,
        })
        .collect();
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(", plus {}", extra.join(", "))
    };
    let ends = format!(
        "{} game ends after round {} (this is round {}); the side with the most victory points (the AP of enemy units destroyed{extra}) wins; equal points are a draw.",
        if holds.is_empty() { "the" } else { "Otherwise the" },
        sc.rounds,
        state.round
    );
    let mut out = wrap(&format!("To win: {} {ends}", holds.join(" ")), true);
    // issue 18 hook: 003 §12 victory points and the score so far (battlefront/vp.rs).
    if let Some(t) = crate::games::dust_tactics::battlefront::vp::score_text(state) {
        out.extend(wrap(&t, true));
    }
    if let Some(side) = side {
        let entry: Vec<String> = sc
            .sides
            .iter()
            .find(|s| s.id == side)
            .map(|s| s.entry.iter().map(|q| q.to_string()).collect())
            .unwrap_or_default();
        // Units yet to enter: off the board, alive, not carried by a squad they joined nor by a
        // vehicle (those leave it by a move, not onto the entry zone).
        let off: Vec<&str> = state
            .units
            .iter()
            .filter(|u| u.side == side && u.at.is_none() && u.health > 0 && u.joined.is_none())
            .filter(|u| u.aboard.is_none())
            .filter(|u| u.reserve_round.is_none())
            .map(|u| u.id.as_str())
            .collect();
        if !entry.is_empty() && !off.is_empty() {
            out.extend(wrap(
                &format!(
                    "Off the board: {}; each enters by a move onto one of: {}.",
                    off.join(", "),
                    entry.join(" ")
                ),
                true,
            ));
        }
        // issue 18 hook: units in reserve and where they move on (battlefront/reserves.rs).
        if let Some(t) = super::super::battlefront::reserves::brief(state, side) {
            out.extend(wrap(&t, true));
        }
    }
    out.extend(wrap(
        "The whole briefing and your defaults: see the welcome mail.",
        true,
    ));
    out.join("\n")
}
