//! 003's Support Weapons and Set-Up Weapons, and what a card may say of them (issue 18, R821,
//! R822). 003 defines a Support Weapon as a kind of infantry unit ("Infantry units (squads,
//! support weapons, and heroes)"; "Support weapon units (ones that mount multiple miniatures on
//! the same base) use a two-man team to fire the support weapon"), with a damage track ("Mark one
//! cross off an Infantry Support Weapon's damage track for each hit") and a front arc ("A Support
//! Weapon can only attack targets up to 45 degrees on either side of the direction it is
//! facing"). The engine has no such unit type: a card saying so is refused when read, by name,
//! rather than by serde's generic "unknown variant". 003's Set-Up weapon ("rolls half of that
//! weapon's combat dice (rounded up)" with a Move) is 004's Setup weapon, the trait `setup`
//! (R419, R822); a card writing it `set_up` or `set-up` is told so.

use super::super::cards::CardError;

/// The names a card's `unit_type` may give a Support Weapon (R821).
const UNIT_TYPES: &[&str] = &[
    "support_weapon",
    "support-weapon",
    "support weapon",
    "support",
];

/// The names a weapon line's `traits` may give a Support weapon, or a Set-Up weapon other than
/// `setup` (R821, R822).
const TRAITS: &[(&str, &str)] = &[
    ("support_weapon", "R821"),
    ("support-weapon", "R821"),
    ("support", "R821"),
    ("set_up", "R822"),
    ("set-up", "R822"),
];

/// Refuses a card (TOML `text` of `file_name`) naming 003's Support Weapon as its unit type, or a
/// Support weapon (or Set-Up weapon not written `setup`) as a line's trait, with the section and the ruling (R821, R822).
pub fn refuse(file_name: &str, text: &str) -> Result<(), CardError> {
    let Ok(table) = text.parse::<toml::Table>() else {
        return Ok(()); // serde's own error names the line
    };
    let ty = table.get("unit_type").and_then(|v| v.as_str());
    if let Some(t) = ty.filter(|t| UNIT_TYPES.contains(&t.to_ascii_lowercase().as_str())) {
        return Err(CardError {
            file: file_name.to_string(),
            field: "unit_type".into(),
            reason: format!(
                "`{t}` is 003's Support Weapon (\"Support weapon units (ones that mount multiple miniatures on the same base)\", 003 \"Declare Targets\"), a unit type the engine does not build yet: its damage track, its two-man crew and its front arc are not played (ruling R821)"
            ),
            instead: "write unit_type = \"squad\", \"hero\" or \"vehicle\" (docs/battlefront.md lists what is not built)".into(),
        });
    }
    let weapons = table.get("weapons").and_then(|v| v.as_array());
    for w in weapons.into_iter().flatten() {
        let id = w.get("id").and_then(|v| v.as_str()).unwrap_or("?");
        let traits = w.get("traits").and_then(|v| v.as_array());
        for t in traits.into_iter().flatten().filter_map(|t| t.as_str()) {
            let Some((_, ruling)) = TRAITS.iter().find(|(n, _)| t.eq_ignore_ascii_case(n)) else {
                continue;
            };
            let (what, instead) = if *ruling == "R822" {
                (
                    "003's Set-Up weapon (003 \"Set-Up Weapons\"), which a card writes as the trait `setup` (004's Setup weapon, the same rule)",
                    "write `traits = [\"setup\"]`",
                )
            } else {
                (
                    "003's Support Weapon, which 003 makes a kind of unit, not a weapon trait (003 \"Declare Targets\"): not built yet",
                    "remove the trait (docs/battlefront.md lists what is not built)",
                )
            };
            return Err(CardError {
                file: file_name.to_string(),
                field: format!("weapons.{id}.traits"),
                reason: format!("the trait `{t}` is {what} (ruling {ruling})"),
                instead: instead.into(),
            });
        }
    }
    Ok(())
}
