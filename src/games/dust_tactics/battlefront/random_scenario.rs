//! 003 §12 "If you want to let the dice choose the scenario for you, roll two dice and consult the
//! following table" (issue 18, R294). The OCR lost the table's symbols: only "Result or" and the
//! five scenario names survive. Two Dust dice give six unordered results for five scenarios, so
//! one row reads "Result … or …"; R294 fixes which.

use super::dice::Symbol;

/// The five scenarios of 003 §12, as shipped (`games/dust-tactics/scenarios/`).
pub const SCENARIOS: [&str; 5] = [
    "encounter",
    "grab-the-dust",
    "bait-and-flank",
    "supply-drop",
    "all-out-attack",
];

/// The scenario two Dust dice choose (R294): two army symbols or two shields, 1 Encounter; army
/// and target, 2 Grab the Dust; army and shield, 3 Bait and Flank; target and shield, 4 Supply
/// Drop; two targets, 5 All-Out Attack. The order of the dice does not matter.
pub fn choose(a: Symbol, b: Symbol) -> &'static str {
    use Symbol::{Army, Shield, Target};
    let has = |s: Symbol| a == s || b == s;
    let n = if a == b {
        // A double: two targets are All-Out Attack, two army symbols or two shields Encounter.
        if a == Target {
            4
        } else {
            0
        }
    } else if !has(Shield) {
        1
    } else if has(Army) {
        2
    } else {
        3
    };
    SCENARIOS[n]
}

/// The table as the rulebook would print it, one row per scenario (for the docs and `games`).
pub fn table() -> Vec<String> {
    vec![
        "army + army, or shield + shield: 1 Encounter".into(),
        "army + target: 2 Grab the Dust".into(),
        "army + shield: 3 Bait and Flank".into(),
        "target + shield: 4 Supply Drop".into(),
        "target + target: 5 All-Out Attack".into(),
    ]
}
