//! Refusals of the shared engine cite 003 under battlefront-2013 (issue 18): the engine renders
//! its citations from 004's sections (`crate::dust_tactics::citation`); a battlefront game's
//! players have the 2013 Battlefront rulebook, so the section of 003 stating the same rule is
//! named instead, as `restate_2010` does for 000.

/// The 003 section that states the rule of 004 section `section`, where 003 has it.
fn section_003(section: &str) -> Option<&'static str> {
    Some(match section {
        "Actions" => "Actions",
        "Activation" | "Alternating activations" => "Activation",
        "Attack" | "Attacking" | "Weapon lines" => "Declare Targets",
        "Range" => "Check Range",
        "Line of sight" => "Check Line of Sight",
        "Move" | "Movement" => "Move and March Move Actions",
        "Terrain" => "Moving Through Terrain",
        "Initiative" => "Roll for Initiative",
        "End of the game" => "Game Length",
        "Heroes" => "Heroes",
        "Limited ammo" => "Limited-Ammo Weapons",
        "Skills" => "Skills and Equipment",
        "Reactive fire" => "Reactive Attacks",
        "Close combat" => "Close-Combat Weapons",
        "Flamethrower" | "Flamethrowers" => "Spray Weapons",
        // Under battlefront-2013 the 2×2 block is 003's Huge vehicle (R790).
        "Large Vehicles" => "Moving Huge Vehicles",
        // 000's sections the engine cites where a battlefront rule is played as 000's.
        "Move twice (MOVE + MOVE)" => "Move and March Move Actions",
        "Limited ammo weapons" => "Limited-Ammo Weapons",
        "Movement rules" => "Moving Through Buildings",
        "Cover & Movement" => "Ammo Crates",
        _ => return None,
    })
}

/// A rendered citation restated for a battlefront-2013 game: `004 'Range'…` becomes
/// `003 "Check Range"…` (and a 000 section the engine cites likewise) where 003 states the
/// same rule; the rest (detail, ruling) is kept, and a citation 003 has no section for is left
/// as it is.
pub fn restate_003(rule: &str) -> String {
    let restated = rule
        .strip_prefix("004 '")
        .or_else(|| rule.strip_prefix("000 '"))
        .and_then(|rest| rest.split_once('\''))
        .and_then(|(section, tail)| Some(format!("003 \"{}\"{tail}", section_003(section)?)));
    restated.unwrap_or_else(|| rule.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_sections_become_003_sections() {
        assert_eq!(
            restate_003("004 'Range': weapons reach (ruling R1, docs/rulings.md)"),
            "003 \"Check Range\": weapons reach (ruling R1, docs/rulings.md)"
        );
        assert_eq!(restate_003("004 'Tank Head'"), "004 'Tank Head'");
        assert_eq!(
            restate_003("000 'Move twice (MOVE + MOVE)': double"),
            "003 \"Move and March Move Actions\": double"
        );
        assert_eq!(restate_003("003 \"Passing\""), "003 \"Passing\"");
    }
}
