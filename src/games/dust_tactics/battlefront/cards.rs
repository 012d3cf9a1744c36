//! The three starter forces of 003 as cards for battlefront-2013 (games/dust-tactics/
//! cards-battlefront/): Taskforce Joe (Allies), Kampfgruppe Stefan (Axis) and Battlegroup
//! Koshka (SSU). 003 prints no unit card, so most values are provisional; each card cites what
//! 003 states and lists the rest.

/// The battlefront cards, as (file name, text): a battlefront-2013 game gets these and no other.
pub fn builtin() -> Vec<(&'static str, &'static str)> {
    macro_rules! card {
        ($name:literal) => {
            (
                $name,
                include_str!(concat!(
                    "../../../../games/dust-tactics/cards-battlefront/",
                    $name
                )),
            )
        };
    }
    vec![
        card!("bf-bazooka-joe.toml"),
        card!("bf-pounder.toml"),
        card!("bf-bot-hunters.toml"),
        card!("bf-grim-reapers.toml"),
        card!("bf-stefan.toml"),
        card!("bf-ludwig.toml"),
        card!("bf-recon-grenadiers.toml"),
        card!("bf-heavy-laser-grenadiers.toml"),
        card!("bf-koshka.toml"),
        card!("bf-grandma.toml"),
        card!("bf-red-thunder.toml"),
        card!("bf-fakyeli.toml"),
    ]
}

/// The card ids (file stems) of [`builtin`].
pub fn ids() -> Vec<&'static str> {
    builtin()
        .into_iter()
        .map(|(f, _)| f.trim_end_matches(".toml"))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_battlefront_card_parses_and_names_its_file() {
        for (file, text) in super::builtin() {
            let c = crate::dust_tactics::cards::parse_card_for_new(file, text)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(format!("{}.toml", c.id), file);
        }
    }
}
