//! Bounds on what one player's block can cost the referee (issue 10 finding 4): a block with
//! more than [`MAX_REFUSED_LINES`] refused lines is refused whole, with the first of them listed
//! (never the 40,000 of a flood), and a receipt lists at most [`MAX_LISTED`] results and
//! happenings and says how many more there are.

use crate::game::{CommandOutcome, CommandResult};
use crate::ledger::Refusal;
use crate::pbem::citation::DocRule;

/// Refused lines after which a block is refused whole ("stopped after 20 errors").
pub const MAX_REFUSED_LINES: usize = 20;
/// Results (and happenings) a receipt lists; the ledger line has them all.
pub const MAX_LISTED: usize = 100;
/// Longest text quoted from one refused line's reason or advice in a refusal.
const MAX_QUOTED_CHARS: usize = 160;

/// `Some(refusal)` when `results` hold more than [`MAX_REFUSED_LINES`] refused lines: the
/// whole block is refused (nothing of it applied), and the refusal lists the first
/// [`MAX_REFUSED_LINES`] errors, each cut to a bounded length.
pub fn too_many_errors(results: &[CommandResult], lines: usize) -> Option<Refusal> {
    let refused: Vec<(usize, &str, &str)> = results
        .iter()
        .filter_map(|r| match &r.outcome {
            CommandOutcome::Refused {
                reason, instead, ..
            } => Some((r.line, reason.as_str(), instead.as_str())),
            CommandOutcome::Accepted { .. } => None,
        })
        .collect();
    if refused.len() <= MAX_REFUSED_LINES {
        return None;
    }
    let listed: Vec<String> = refused
        .iter()
        .take(MAX_REFUSED_LINES)
        .map(|(line, reason, instead)| {
            format!(
                "line {line}: {} (send instead: {})",
                cut(reason),
                cut(instead)
            )
        })
        .collect();
    Some(Refusal::new(
        format!(
            "stopped after {MAX_REFUSED_LINES} errors (the block has {lines} lines, {} of them \
             refused); nothing in it was applied. The first {MAX_REFUSED_LINES}:\n{}",
            refused.len(),
            listed.join("\n")
        ),
        DocRule::Errors,
        format!(
            "fix these and send again: one block with at most {MAX_REFUSED_LINES} refused lines \
             (`template` in a block gets you the orders you may send now)"
        ),
    ))
}

/// The first [`MAX_LISTED`] of `items` and how many more there are.
pub fn listed<T: Clone>(items: &[T]) -> (Vec<T>, usize) {
    let shown = items.iter().take(MAX_LISTED).cloned().collect();
    (shown, items.len().saturating_sub(MAX_LISTED))
}

/// `text` cut to [`MAX_QUOTED_CHARS`] characters (on a character boundary), marked when cut.
fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(line: usize, reason: &str) -> CommandResult {
        CommandResult {
            line,
            outcome: CommandOutcome::Refused {
                reason: reason.into(),
                rule: "r".into(),
                instead: "i".into(),
            },
        }
    }

    #[test]
    fn twenty_errors_pass_and_the_twenty_first_refuses_the_block_listing_twenty() {
        let mut rs: Vec<CommandResult> = (1..=20).map(|l| refused(l, "bad")).collect();
        assert!(too_many_errors(&rs, 20).is_none());
        rs.push(refused(21, &"x".repeat(10_000)));
        let r = too_many_errors(&rs, 21).unwrap();
        assert!(
            r.reason.starts_with("stopped after 20 errors"),
            "{}",
            r.reason
        );
        assert!(r.reason.contains("line 20: bad"));
        assert!(!r.reason.contains("line 21"));
        assert!(r.instead.starts_with("fix these and send again"));
    }

    #[test]
    fn long_reasons_are_cut_on_a_character_boundary() {
        let s = "é".repeat(500);
        let c = cut(&s);
        assert_eq!(c.chars().count(), MAX_QUOTED_CHARS + 1);
        assert!(c.ends_with('…'));
        assert_eq!(cut("short"), "short");
    }
}
