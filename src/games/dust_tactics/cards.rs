//! Unit cards: parsing and validation of `games/dust-tactics/cards/*.toml`, and the shipped cards.
//!
//! A card file is the serde form of [`Card`] (docs/cards.md). [`parse_card`] checks what serde
//! cannot: value ranges, consistency between models, health and carriers, known skills. Every
//! error names the file, the field and what to write instead.

use super::model::{Armour, Card, Fire, Save, UnitType, WeaponRange, WeaponTrait};
use super::skill::{Skill, NOT_IN_ENUM};
use std::collections::BTreeSet;

/// A card file that cannot be used: which file, which field, what is wrong and what to write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("card {file}: {field}: {reason}; {instead}")]
pub struct CardError {
    pub file: String,
    /// The field path, e.g. `weapons[2].carriers` (`toml` for a syntax error).
    pub field: String,
    pub reason: String,
    pub instead: String,
}

/// The cards shipped with dustmail: (file name, content).
pub fn builtin() -> Vec<(&'static str, &'static str)> {
    macro_rules! card {
        ($name:literal) => {
            (
                $name,
                include_str!(concat!("../../../games/dust-tactics/cards/", $name)),
            )
        };
    }
    vec![
        card!("m2b-hot-dog.toml"),
        card!("m2c-pounder.toml"),
        card!("recon-rangers.toml"),
        card!("assault-rangers.toml"),
        card!("combat-rangers.toml"),
        card!("joseph-brown.toml"),
        card!("luther.toml"),
        card!("ludwig.toml"),
        card!("recon-grenadiers.toml"),
        card!("battle-grenadiers.toml"),
        card!("laser-grenadiers.toml"),
        card!("sigrid-von-thaler.toml"),
    ]
}

/// The shipped cards, parsed and validated.
pub fn builtin_cards() -> Result<Vec<Card>, CardError> {
    builtin()
        .into_iter()
        .map(|(f, t)| parse_card(f, t))
        .collect()
}

/// Parses one card file for a new game (`new`, `--cards DIR`): validated, and refused when it
/// names a skill the engine does not implement (issue 12: no card carries a rule the engine
/// ignores). Games already created keep loading their cards with [`parse_card`].
pub fn parse_card_for_new(file_name: &str, text: &str) -> Result<Card, CardError> {
    let card = parse_card(file_name, text)?;
    refuse_unimplemented(file_name, &card)?;
    Ok(card)
}

/// Refuses a card carrying a 004 skill the engine does not implement, naming it and the file.
pub fn refuse_unimplemented(file_name: &str, card: &Card) -> Result<(), CardError> {
    // 002's own weapon traits are battlefront-2013's (R670).
    super::battlefront::weapons::refuse_elsewhere(file_name, card)?;
    // 002's Salvo weapons are battlefront-2013's (R696): this check is the other rulesets'.
    let salvo = super::model::WeaponTrait::Salvo;
    if let Some(w) = card.weapons.iter().find(|w| w.traits.contains(&salvo)) {
        return Err(CardError {
            file: file_name.to_string(),
            field: format!("weapons.{}.traits", w.id),
            reason: "the trait `salvo` is 002's Salvo weapon, played only under `--ruleset battlefront-2013` (ruling R696)".to_string(),
            instead: "remove the trait, or play the game with `--ruleset battlefront-2013`".to_string(),
        });
    }
    for (i, s) in card.skills.iter().enumerate() {
        // 002's own skills are battlefront-2013's (R581): this check is the other rulesets'.
        if let Some(s2) = super::battlefront::skills002::Skill002::from_id(&s.name) {
            return Err(CardError {
                file: file_name.to_string(),
                field: format!("skills[{i}].name"),
                reason: format!(
                    "`{}` ({}) is a skill of 002, refused here: it is played only under `--ruleset battlefront-2013` (ruling R581), so the card would carry a rule this ruleset ignores",
                    s.name,
                    s2.title()
                ),
                instead: format!(
                    "remove it from the card, or play the game with `--ruleset battlefront-2013`; {}",
                    implemented_instead()
                ),
            });
        }
        let Some(skill) = Skill::from_id(&s.name) else {
            continue;
        };
        if let Some(why) = skill.refused_because() {
            return Err(CardError {
                file: file_name.to_string(),
                field: format!("skills[{i}].name"),
                reason: format!(
                    "the 004 skill `{skill}` ({}) is refused: {why}, so the card would carry a rule the engine ignores",
                    skill.title()
                ),
                instead: format!(
                    "remove it from the card (and note it in `provisional`), or {}",
                    implemented_instead()
                ),
            });
        }
    }
    if card.has(Skill::CommandSquad) {
        let missing: Vec<&str> = super::skill::COMMAND_SQUAD_MEMBERS
            .into_iter()
            .filter(|m| !card.models.iter().any(|x| x.id == *m))
            .collect();
        if card.unit_type != UnitType::Squad || !missing.is_empty() {
            return Err(CardError {
                file: file_name.to_string(),
                field: "models".into(),
                reason: format!(
                    "a command squad is a squad whose models are its officer, radioman, mechanic and medic (and a weapon specialist); missing: {}",
                    if missing.is_empty() { "none, but the card is not a squad".to_string() } else { missing.join(", ") }
                ),
                instead: "give the card unit_type = \"squad\" and [[models]] with id = \"officer\", \"radioman\", \"mechanic\", \"medic\" and \"weapon-specialist\"".into(),
            });
        }
    }
    if card.has(Skill::NcoCommandSquad) {
        let missing: Vec<&str> = super::skill::NCO_COMMAND_SQUAD_MEMBERS
            .into_iter()
            .filter(|m| !card.models.iter().any(|x| x.id == *m))
            .collect();
        if card.unit_type != UnitType::Squad || !missing.is_empty() || card.has(Skill::CommandSquad)
        {
            return Err(CardError {
                file: file_name.to_string(),
                field: "models".into(),
                reason: format!(
                    "an NCO command squad is a squad (without the Command Squad skill) whose models are its field officer, field mechanic and field medic (004 \"NCO Command Squads\"); missing: {}",
                    if missing.is_empty() { "none, but the card is not such a squad".to_string() } else { missing.join(", ") }
                ),
                instead: "give the card unit_type = \"squad\" and [[models]] with id = \"field-officer\", \"field-mechanic\" and \"field-medic\"".into(),
            });
        }
    }
    Ok(())
}

/// The skills a card may name (docs/rules-coverage.md lists the others and why).
fn implemented_instead() -> String {
    format!(
        "write one of: {} (lower-case, dashes; docs/rules-coverage.md lists the others)",
        Skill::ALL
            .iter()
            .filter(|s| s.is_implemented())
            .map(|s| s.id())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Parses and validates one card file. `file_name` is the file's name (`m2c-pounder.toml`); the
/// card's `id` must be its stem.
pub fn parse_card(file_name: &str, text: &str) -> Result<Card, CardError> {
    refuse_large(file_name, text)?;
    // 003's Support and Set-Up weapons are refused by name (R821, R822).
    super::battlefront::support_weapons::refuse(file_name, text)?;
    let card: Card = toml::from_str(text).map_err(|e| CardError {
        file: file_name.to_string(),
        field: "toml".into(),
        reason: e.message().to_string(),
        instead: match e.span() {
            Some(span) => format!(
                "fix the file near line {} (see docs/cards.md for the format)",
                line_of(text, span.start)
            ),
            None => "see docs/cards.md for the format".into(),
        },
    })?;
    validate(file_name, &card)?;
    Ok(card)
}

/// 004 "LARGE VEHICLES" (R566): a card says `large = true`, 003's Huge vehicle `huge = true`
/// (R790), 003's two-square Large vehicle `size = "large"` (R767); any other `size` is refused
/// by name instead of being ignored by serde (R565, R571).
fn refuse_large(file_name: &str, text: &str) -> Result<(), CardError> {
    let Ok(table) = text.parse::<toml::Table>() else {
        return Ok(()); // serde's own error names the line
    };
    match table.get("size") {
        None => Ok(()),
        Some(v) if v.as_str() == Some("large") => Ok(()),
        Some(_) => Err(CardError {
            file: file_name.to_string(),
            field: "size".into(),
            reason: "a vehicle's size is `\"large\"` or absent: 003 \"Unit Size\" has two-square Large vehicles (`size = \"large\"`, battlefront-2013, R767) and four-square Huge ones (`huge = true`); 004 \"LARGE VEHICLES\" has one size, a vehicle inside 4 spaces (`large = true`)".into(),
            instead: "write `size = \"large\"` for 003's two-square Large vehicle, `huge = true` for 003's Huge vehicle, `large = true` for 004's vehicle inside 4 spaces, or remove `size`".into(),
        }),
    }
}

/// What a large (004) or Huge (003) vehicle card may carry (R571, R790): a ground vehicle, with
/// no skill but Tracked Vehicle and no Tesla or flamethrower line (their adjacency, carrying and
/// "spaces between" are not measured over 4 squares).
fn check_large(card: &Card) -> Result<(), (String, String, String)> {
    if !card.four_squares() && card.size.is_none() {
        return Ok(());
    }
    let key = if card.huge {
        "huge"
    } else if card.large {
        "large"
    } else {
        "size"
    };
    if card.size.is_some() && card.four_squares() {
        return Err((
            "size".into(),
            "a card is 003's two-square Large vehicle (`size = \"large\"`) or stands on four squares (`large`, `huge`), not both (R767)".into(),
            "keep one of them".into(),
        ));
    }
    if card.large && card.huge {
        return Err((
            "huge".into(),
            "a card is either 004's large vehicle or 003's Huge vehicle, not both (R790)".into(),
            "keep `large = true` (ffg-revised) or `huge = true` (battlefront-2013)".into(),
        ));
    }
    // 003's Large Aircraft take two squares too (R773).
    let large_aircraft = key == "size" && matches!(card.armour, Armour::Aircraft(_));
    if card.unit_type != UnitType::Vehicle
        || !(matches!(card.armour, Armour::Vehicle(_)) || large_aircraft)
    {
        return Err((
            key.into(),
            match key {
                "size" => "only a vehicle or an aircraft is a two-square Large model (003 \"Unit Size\", R767, R773)".to_string(),
                _ => format!("only a ground vehicle is {key} (004 \"LARGE VEHICLES\", 003 \"Moving Huge Vehicles\")"),
            },
            format!("remove `{key}`, or make the card a vehicle with vehicle armour{}", if key == "size" { " or aircraft armour" } else { "" }),
        ));
    }
    if let Some((i, s)) =
        (card.skills.iter().enumerate()).find(|(_, s)| s.name != Skill::TrackedVehicle.id())
    {
        return Err((
            format!("skills[{i}].name"),
            format!(
                "`{}` is not played on a {key} vehicle yet (R571: only tracked-vehicle)",
                s.name
            ),
            format!("remove the skill, or remove `{key}`"),
        ));
    }
    let burning = [WeaponTrait::Tesla, WeaponTrait::Flamethrower];
    if let Some((i, _)) = (card.weapons.iter().enumerate())
        .find(|(_, w)| w.traits.iter().any(|t| burning.contains(t)))
    {
        return Err((
            format!("weapons[{i}].traits"),
            format!("a {key} vehicle's Tesla or flamethrower line is not played yet (R571)"),
            format!("remove the trait, or remove `{key}`"),
        ));
    }
    Ok(())
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map(|t| t.matches('\n').count() + 1)
        .unwrap_or(1)
}

/// Checks a card that serde already read.
pub fn validate(file_name: &str, card: &Card) -> Result<(), CardError> {
    let err = |field: &str, reason: String, instead: String| CardError {
        file: file_name.to_string(),
        field: field.to_string(),
        reason,
        instead,
    };
    let stem = file_name
        .rsplit('/')
        .next()
        .unwrap_or(file_name)
        .trim_end_matches(".toml");
    if card.id != stem {
        return Err(err(
            "id",
            format!("the id `{}` is not the file's name `{stem}`", card.id),
            format!(
                "write id = \"{stem}\" or rename the file to {}.toml",
                card.id
            ),
        ));
    }
    if !is_token(&card.id) {
        return Err(err(
            "id",
            format!("`{}` is not a lower-case name with dashes", card.id),
            "use letters a-z, digits and dashes, e.g. \"recon-rangers\"".into(),
        ));
    }
    if card.name.trim().is_empty() {
        return Err(err(
            "name",
            "the name is empty".into(),
            "write the unit's name as printed, e.g. name = \"Recon Rangers\"".into(),
        ));
    }
    // The SSU is the third bloc of 003 (battlefront-2013's starter Battlegroup Koshka).
    if !["allies", "axis", "ssu"].contains(&card.faction.as_str()) {
        return Err(err(
            "faction",
            format!("`{}` is not a faction", card.faction),
            "write faction = \"allies\", \"axis\" or \"ssu\"".into(),
        ));
    }
    let (class, value, max) = match card.armour {
        Armour::Soldier(v) => ("soldier", v, 4),
        Armour::Vehicle(v) => ("vehicle", v, 7),
        Armour::Aircraft(v) => ("aircraft", v, 3),
    };
    if !(1..=max).contains(&value) {
        return Err(err(
            "armour",
            format!("{class} armour {value} is outside {class} armour 1-{max}"),
            format!(
                "write armour = {{ {class} = N }} with N from 1 to {max} (000 \"Weapon lines\")"
            ),
        ));
    }
    match (card.unit_type, card.armour) {
        (UnitType::Vehicle, Armour::Soldier(_)) => {
            return Err(err(
                "armour",
                "a vehicle cannot have soldier armour".into(),
                "write armour = { vehicle = N } (or { aircraft = N })".into(),
            ))
        }
        (UnitType::Squad | UnitType::Hero, Armour::Vehicle(_) | Armour::Aircraft(_)) => {
            return Err(err(
                "armour",
                "squads and heroes have soldier armour".into(),
                "write armour = { soldier = N } with N from 1 to 4".into(),
            ))
        }
        _ => {}
    }
    if card.health == 0 {
        return Err(err(
            "health",
            "health is 0".into(),
            "write the models of a squad or the health of a hero or vehicle (at least 1)".into(),
        ));
    }
    if card.ap == 0 {
        return Err(err(
            "ap",
            "the army point value is 0".into(),
            "write the AP printed on the card (at least 1)".into(),
        ));
    }
    if card.unit_type != UnitType::Squad
        && (card.soft_save != Save::None || card.hard_save != Save::None)
    {
        return Err(err(
            if card.soft_save != Save::None {
                "soft_save"
            } else {
                "hard_save"
            },
            "only squads get cover saves (004 \"Check Cover Saves\")".into(),
            "remove soft_save and hard_save from hero and vehicle cards".into(),
        ));
    }
    // 004 "Superhumans": superhumans and sidekicks are heroes (R520).
    if (card.superhuman || card.sidekick.is_some()) && card.unit_type != UnitType::Hero {
        return Err(err(
            if card.superhuman {
                "superhuman"
            } else {
                "sidekick"
            },
            "only a hero is a superhuman or has the Sidekick skill (004 \"Superhumans\")".into(),
            "remove the field, or write unit_type = \"hero\"".into(),
        ));
    }
    if let Some(of) = &card.sidekick {
        if !is_token(of) || card.superhuman {
            return Err(err(
                "sidekick",
                format!("`{of}` must be the card id of another hero, a superhuman, and this card no superhuman"),
                "write sidekick = \"<card id of the superhuman>\", e.g. sidekick = \"sergeant-victory\"".into(),
            ));
        }
    }
    check_large(card).map_err(|(f, r, i)| err(&f, r, i))?;
    if card.weapons.is_empty() {
        return Err(err(
            "weapons",
            "the card has no weapon line".into(),
            "add at least one [[weapons]] table".into(),
        ));
    }
    let mut ids = BTreeSet::new();
    for (i, w) in card.weapons.iter().enumerate() {
        let f = |name: &str| format!("weapons[{i}].{name}");
        if !is_token(&w.id) {
            return Err(err(
                &f("id"),
                format!("`{}` is not a lower-case name with dashes", w.id),
                "players type it in orders: use letters a-z, digits and dashes, e.g. \"mg\"".into(),
            ));
        }
        if !ids.insert(w.id.as_str()) {
            return Err(err(
                &f("id"),
                format!("weapon id `{}` is used twice", w.id),
                "give each weapon line its own id".into(),
            ));
        }
        if let Some(c) = w.carriers {
            if c == 0 || c > card.health {
                return Err(err(
                    &f("carriers"),
                    format!("{c} carriers, but the unit has {} model(s)", card.health),
                    format!(
                        "write carriers from 1 to {} or leave it out (every model carries it)",
                        card.health
                    ),
                ));
            }
        }
        match w.range {
            WeaponRange::Upto(0) => {
                return Err(err(
                    &f("range"),
                    "range 0 reaches nothing".into(),
                    "write \"C\" for close combat or a range of at least 1".into(),
                ))
            }
            WeaponRange::Between(a, b) if a == 0 || a > b => {
                return Err(err(
                    &f("range"),
                    format!("range {a}-{b} is empty"),
                    "write \"X-Y\" with 1 <= X <= Y".into(),
                ))
            }
            _ => {}
        }
        let cells = w
            .soldier
            .iter()
            .map(|c| ("soldier", c))
            .chain(w.vehicle.iter().map(|c| ("vehicle", c)))
            .chain(w.aircraft.iter().map(|c| ("aircraft", c)));
        for (col, cell) in cells {
            let bad = match cell {
                Fire::Dice { dice, damage } => *dice == 0 || *damage == 0,
                Fire::Incendiary { dice } | Fire::ApIncendiary { dice } | Fire::Phaser { dice } => {
                    *dice == 0
                }
                Fire::Volley {
                    dice,
                    steps,
                    damage,
                } => *damage == 0 || dice.iter().take(*steps as usize).any(|d| *d == 0),
                Fire::No => false,
            };
            if bad {
                return Err(err(
                    &f(col),
                    format!("the cell `{cell}` rolls no dice or does no damage"),
                    "write \"-\" for a weapon that cannot damage that armour".into(),
                ));
            }
        }
        // 004 "Volley Blast": the dice follow the ammo spent, so the line needs its boxes (R460).
        let volley = |c: &Fire| matches!(c, Fire::Volley { .. });
        if w.ammo.is_none()
            && (w.soldier.iter().any(volley)
                || w.vehicle.iter().any(volley)
                || w.aircraft.iter().any(volley))
        {
            return Err(err(
                &f("ammo"),
                "a volley cell (\"A/X-B/X\") on a line without ammo boxes".into(),
                "write the ammo boxes printed on the card: a volley spends 1 box for its first dice count, 2 for the second…".into(),
            ));
        }
        if w.ammo == Some(0) {
            return Err(err(
                &f("ammo"),
                "0 ammo boxes".into(),
                "write the number of boxes printed on the card, or leave ammo out for unlimited"
                    .into(),
            ));
        }
    }
    let mut skills = BTreeSet::new();
    for (i, s) in card.skills.iter().enumerate() {
        if Skill::from_id(&s.name).is_none()
            && super::battlefront::skills002::Skill002::from_id(&s.name).is_none()
        {
            let reason = match NOT_IN_ENUM.iter().find(|(id, _, _)| *id == s.name) {
                Some((_, title, why)) => {
                    format!("the 004 skill `{}` ({title}) is refused: {why}", s.name)
                }
                // 002's skills not built yet are refused by their 002 name (R581, R711).
                None => match super::battlefront::skills002::NOT_BUILT
                    .iter()
                    .find(|(id, _)| *id == s.name)
                {
                    Some((_, title)) => format!(
                        "`{}` is 002's skill \"{title}\", which is not built yet under any ruleset (R711)",
                        s.name
                    ),
                    // 002's Grenadier X, whose text is lost (R820).
                    None => super::battlefront::skills002::lost_reason(&s.name).unwrap_or_else(
                        || format!("`{}` is not a skill the engine knows", s.name),
                    ),
                },
            };
            return Err(err(
                &format!("skills[{i}].name"),
                reason,
                implemented_instead(),
            ));
        }
        // 004 "Carry Capacity: Vehicle": "A vehicle with this skill listed several times can
        // carry 1 vehicle for each skill listed" (R476).
        let several = s.name == Skill::CarryCapacityVehicle.id();
        if !skills.insert(s.name.as_str()) && !several {
            return Err(err(
                &format!("skills[{i}].name"),
                format!("skill `{}` is listed twice", s.name),
                "list each skill once".into(),
            ));
        }
        // 004 "Carry Capacity", "Tank Riders": the card prints how many soldiers it carries.
        let carries = [
            Skill::CarryCapacity,
            Skill::TankRiders,
            Skill::CarryCapacityVehicle,
        ]
        .into_iter()
        .find(|k| s.name == k.id());
        if let Some(k) = carries.filter(|_| s.value.unwrap_or(0) == 0) {
            return Err(err(
                &format!("skills[{i}].value"),
                format!(
                    "{} without {}",
                    k.title(),
                    if k == Skill::CarryCapacityVehicle {
                        "the armour value of the vehicles it carries"
                    } else {
                        "the number of soldiers it carries"
                    }
                ),
                "write value = N, the capacity the card prints".into(),
            ));
        }
        // Only 004's "Pilot: Name" names a card (R540).
        if s.card.is_some() && s.name != Skill::Pilot.id() {
            return Err(err(
                &format!("skills[{i}].card"),
                format!(
                    "skill `{}` names no card; only `pilot` (Pilot: Name) does",
                    s.name
                ),
                "remove `card` from this skill".into(),
            ));
        }
        super::battlefront::skills002::check_expert(card, s).map_err(
            |(field, reason, instead)| err(&format!("skills[{i}].{field}"), reason, instead),
        )?;
        if s.uses == Some(0) {
            return Err(err(
                &format!("skills[{i}].uses"),
                "0 uses".into(),
                "write the uses per game, or leave uses out for an unlimited skill".into(),
            ));
        }
    }
    // 002 "Crew" (R668): crew weapons only on a card with the equipment.
    super::battlefront::equipment::check_crew_card(card)
        .map_err(|(field, reason, instead)| err(&field, reason, instead))?;
    match card.unit_type {
        UnitType::Squad => {
            if card.models.len() != card.health as usize {
                return Err(err(
                    "models",
                    format!(
                        "{} model(s) listed but health is {}",
                        card.models.len(),
                        card.health
                    ),
                    format!(
                        "list one [[models]] per miniature ({} of them), or change health",
                        card.health
                    ),
                ));
            }
            let mut model_ids = BTreeSet::new();
            for (i, m) in card.models.iter().enumerate() {
                if !is_token(&m.id) || !model_ids.insert(m.id.as_str()) {
                    return Err(err(
                        &format!("models[{i}].id"),
                        format!("model id `{}` is not a unique lower-case name", m.id),
                        "give each model its own id, e.g. \"1\", \"2\", \"mg\"".into(),
                    ));
                }
                for c in &m.carries {
                    if card.weapon(c).is_none() {
                        return Err(err(
                            &format!("models[{i}].carries"),
                            format!("`{c}` is not a weapon id of this card"),
                            format!(
                                "use one of: {}",
                                card.weapons
                                    .iter()
                                    .map(|w| w.id.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        ));
                    }
                }
            }
            // The picture must agree with the bracketed count (000 "Flamethrower (1)").
            for (i, w) in card.weapons.iter().enumerate() {
                if let Some(c) = w.carriers {
                    let shown = card
                        .models
                        .iter()
                        .filter(|m| m.carries.iter().any(|x| x == &w.id))
                        .count();
                    if shown != c as usize && w.ammo.is_none() {
                        return Err(err(
                            &format!("weapons[{i}].carriers"),
                            format!("carriers = {c} but {shown} model(s) carry `{}`", w.id),
                            "make carriers match the models whose `carries` list the weapon".into(),
                        ));
                    }
                }
            }
        }
        UnitType::Hero | UnitType::Vehicle => {
            if !card.models.is_empty() {
                return Err(err(
                    "models",
                    "only squads list models".into(),
                    "remove [[models]] from hero and vehicle cards".into(),
                ));
            }
            if let Some((i, _)) = card
                .weapons
                .iter()
                .enumerate()
                .find(|(_, w)| w.carriers.is_some_and(|c| c > 1))
            {
                return Err(err(
                    &format!("weapons[{i}].carriers"),
                    "a hero or vehicle carries each weapon line once".into(),
                    "leave carriers out, or give each weapon its own line".into(),
                ));
            }
        }
    }
    Ok(())
}

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
}

/// How many living models fire `weapon_id`: every model for an unbracketed line, else the living
/// models whose `carries` list it (a dead carrier's special weapon is lost; limited-ammo weapons
/// are the caller's business: any model may fire them, 004 "Limited Ammo Weapons").
pub fn carriers_alive(card: &Card, weapon_id: &str, alive: &[&str]) -> u32 {
    let Some(w) = card.weapon(weapon_id) else {
        return 0;
    };
    if card.unit_type != UnitType::Squad || w.carriers.is_none() {
        return if card.unit_type == UnitType::Squad {
            alive.len() as u32
        } else {
            1
        };
    }
    card.models
        .iter()
        .filter(|m| alive.contains(&m.id.as_str()) && m.carries.iter().any(|c| c == &w.id))
        .count() as u32
}
