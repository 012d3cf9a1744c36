//! The 45-card deck: combat (CP), movement (MP) and production values, stars and a special power
//! per card, one file each in `games/dust-strategy/cards/` (or the referee's `--cards DIR`),
//! checked as they load (001 "Le carte", "Descrizione Carta"; digest 001 §1.3).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The built-in cards: (file name, content), in file order.
pub fn builtin() -> Vec<(String, &'static str)> {
    macro_rules! cards {
        ($($n:literal),*) => {
            vec![$((format!("c{}.toml", $n), include_str!(concat!("../../../games/dust-strategy/cards/c", $n, ".toml")))),*]
        };
    }
    cards!(
        "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15",
        "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30",
        "31", "32", "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45"
    )
}

/// The eleven powers 001 "Poteri Speciali" names (digest 001 §8.2). None is built yet: orders
/// that use one are refused with "not implemented yet" (docs/strategy.md).
pub const POWERS: [&str; 11] = [
    "raketen-truppen",
    "infermiera",
    "arma-segreta",
    "diplomatico",
    "radar-alieno",
    "koshka",
    "sgancia-robot",
    "asso-del-cielo",
    "costruttore-di-robot",
    "sigrid",
    "missili-balistici",
];

/// 001 "Componenti": "un mazzo composto da 45 carte".
pub const DECK_SIZE: usize = 45;
/// The stars a card may carry (ruling R304).
pub const MAX_STARS: u32 = 3;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardFile {
    pub cp: u32,
    pub mp: u32,
    pub production: u32,
    pub stars: u32,
    pub power: String,
    #[serde(default)]
    pub sources: Vec<String>,
    #[serde(default)]
    pub provisional: Vec<String>,
}

/// A card as the game uses it; its id is its file stem ("c07").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    pub id: String,
    pub cp: u32,
    pub mp: u32,
    pub production: u32,
    pub stars: u32,
    pub power: String,
    pub provisional: bool,
}

impl Card {
    /// One line for reports: "c07 (CP 4, MP 2, PP 1, ★★, sigrid)".
    pub fn describe(&self) -> String {
        format!(
            "{} (CP {}, MP {}, PP {}, {} star{}, {})",
            self.id,
            self.cp,
            self.mp,
            self.production,
            self.stars,
            if self.stars == 1 { "" } else { "s" },
            self.power
        )
    }

    /// The turn-order key: CP, then MP, then stars, highest first (001 "Sequenza di gioco";
    /// ruling R305 for the direction of the tie-breaks).
    pub fn order_key(
        &self,
    ) -> (
        std::cmp::Reverse<u32>,
        std::cmp::Reverse<u32>,
        std::cmp::Reverse<u32>,
    ) {
        use std::cmp::Reverse;
        (Reverse(self.cp), Reverse(self.mp), Reverse(self.stars))
    }
}

/// Parses and checks one card file; `file` ("c07.toml") names it in every error.
pub fn parse_card(file: &str, text: &str) -> Result<Card, String> {
    let id = file.strip_suffix(".toml").unwrap_or(file).to_string();
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(format!(
            "card {file}: the file name gives the card's id and must be lower-case letters, digits and - (e.g. c07.toml)"
        ));
    }
    let c: CardFile = toml::from_str(text).map_err(|e| {
        format!(
            "card {file}: {}",
            e.to_string().lines().collect::<Vec<_>>().join(" ")
        )
    })?;
    for (field, v) in [("cp", c.cp), ("mp", c.mp), ("production", c.production)] {
        if !(1..=5).contains(&v) {
            return Err(format!(
                "card {file}: field {field} is {v}; 001 'Le carte' Nota: each value is from 1 to 5"
            ));
        }
    }
    let sum = c.cp + c.mp + c.production;
    if sum != 7 {
        return Err(format!(
            "card {file}: cp + mp + production is {} + {} + {} = {sum}; 001 'Le carte' Nota: the three values add up to 7",
            c.cp, c.mp, c.production
        ));
    }
    if !(1..=MAX_STARS).contains(&c.stars) {
        return Err(format!(
            "card {file}: field stars is {}; a card has 1 to {MAX_STARS} stars (ruling R304)",
            c.stars
        ));
    }
    if !POWERS.contains(&c.power.as_str()) {
        return Err(format!(
            "card {file}: field power `{}` is none of the eleven powers of 001 'Poteri Speciali': {}",
            c.power,
            POWERS.join(", ")
        ));
    }
    Ok(Card {
        id,
        cp: c.cp,
        mp: c.mp,
        production: c.production,
        stars: c.stars,
        power: c.power,
        provisional: !c.provisional.is_empty(),
    })
}

/// Parses a whole deck (file name → content) and checks it as a deck: 45 cards, and no two tied
/// on CP, MP and stars, which would leave the turn order undecided (ruling R305).
pub fn parse_deck(files: &BTreeMap<String, String>) -> Result<Vec<Card>, String> {
    let mut cards = Vec::new();
    for (name, text) in files {
        cards.push(parse_card(name, text)?);
    }
    if cards.len() != DECK_SIZE {
        return Err(format!(
            "the deck has {} cards; 001 'Componenti': the deck has {DECK_SIZE} (one .toml file per card)",
            cards.len()
        ));
    }
    let mut keys: BTreeMap<(u32, u32, u32), &str> = BTreeMap::new();
    for c in &cards {
        if let Some(other) = keys.insert((c.cp, c.mp, c.stars), &c.id) {
            return Err(format!(
                "card {}.toml: fields cp, mp and stars equal those of card {other}, so the turn order between them would be undecided (001 'Sequenza di gioco'; ruling R305): give one of them other stars",
                c.id
            ));
        }
    }
    Ok(cards)
}
