//! The three-symbol Dust dice of 003 "Dust Dice" and the conversion for classic dice, mapped from
//! the core's seeded d6 stream by our own table (digest §1.3; rulings R230, R231). No floats:
//! a face is a symbol, a roll kind says which symbols succeed.

use serde::{Deserialize, Serialize};

/// A face of a Dust die. 003 "Dust Dice": "Each die has two sides showing an army symbol ...,
/// two sides showing a target symbol, and two sides showing a shield symbol."
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Symbol {
    /// The bloc symbol (Allies, Axis or SSU: the same meaning for all).
    Army,
    Target,
    Shield,
}

impl Symbol {
    /// The symbol a fair d6 face of the seeded stream shows (R230): 1–2 army, 3–4 target, 5–6
    /// shield, so each symbol has two faces as on the real die. Faces outside 1..=6 never come
    /// from a dice source; they read as a shield (a failure for every roll but the easier saves).
    pub fn of_face(face: u8) -> Symbol {
        match face {
            1 | 2 => Symbol::Army,
            3 | 4 => Symbol::Target,
            _ => Symbol::Shield,
        }
    }

    /// The name reports show beside the face.
    pub fn name(self) -> &'static str {
        match self {
            Symbol::Army => "army",
            Symbol::Target => "target",
            Symbol::Shield => "shield",
        }
    }
}

/// The purpose (and report name) of a Steel Guard's or Zombie's Infantry Save (R600).
pub const HARDENED_SAVE: &str = "infantry save on army or target";

/// What a roll is for, with the symbols that succeed (digest §1.3's table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollKind {
    /// 003 "Roll to Hit": "scoring a hit for each [army symbol] rolled".
    ToHit,
    /// 003 "Fighting Spirit": "hits on rolls of [target] as well as [army]".
    ToHitFightingSpirit,
    /// 003 "Laser Weapons": "The additional rolls only hit on a roll of [army]".
    LaserChain,
    /// 003 "Cover Saves" (Infantry in Cover): "Each [army] or [shield] cancels one of the hits".
    InfantryCoverSave,
    /// 003 "Cover Saves" (Vehicle in Cover): "Each [army] cancels one of the hits".
    VehicleCoverSave,
    /// 003 "Infantry Saves": infantry "that aren't in cover still save on a roll of [army]".
    InfantrySave,
    /// 002 "Steel Guard", "Zombie": "always passes its Infantry Saves on a roll of [target] as
    /// well as [army]" (R600).
    HardenedInfantrySave,
    /// 002 "Cover From Bunkers and Strongpoints": a failed save's re-roll "only cancel[s] the
    /// Hit if the re-roll scores [army]"; and "Close-combat Against Bunkers and Strongpoints":
    /// "Units in Strongpoints cancel Hits from Close-Combat weapons on a roll of [army]" (R718).
    StrongpointSave,
    /// 002 "Cover From Bunkers and Strongpoints": "Units in Bunkers that fail an Infantry or
    /// Cover Save re-roll the Save, cancelling the Hit on a roll of [army] or [shield]"; and
    /// "Units in Bunkers cancel Hits from Close-Combat weapons on a roll of [army] or [shield]"
    /// (R782).
    BunkerSave,
    /// 002 "Barbed Wire Entanglements", "Minefields": the wire's die ("free to complete its
    /// movement") and the Engineering die ("clears a gap") succeed on [army] (R724, R726).
    Fortification,
    /// 003 "Damage Resilient": "On a result of [army], cancel the hit".
    DamageResilient,
    /// 003 "Roll for Initiative": "the side that rolls the most [army] symbols wins".
    Initiative,
    /// 003 "Reactive Attacks": two dice, each [army] counts (`reactive::grade`).
    ReactiveAttack,
}

impl RollKind {
    /// Whether `symbol` is a success for this roll (003 "Dust Dice": "count those dice showing
    /// the army symbol"; easier tasks count the target symbol to hit or the shield to save).
    pub fn succeeds(self, symbol: Symbol) -> bool {
        match self {
            RollKind::ToHitFightingSpirit => matches!(symbol, Symbol::Army | Symbol::Target),
            RollKind::InfantryCoverSave | RollKind::BunkerSave => {
                matches!(symbol, Symbol::Army | Symbol::Shield)
            }
            RollKind::HardenedInfantrySave => matches!(symbol, Symbol::Army | Symbol::Target),
            RollKind::ToHit
            | RollKind::LaserChain
            | RollKind::VehicleCoverSave
            | RollKind::InfantrySave
            | RollKind::StrongpointSave
            | RollKind::Fortification
            | RollKind::DamageResilient
            | RollKind::Initiative
            | RollKind::ReactiveAttack => symbol == Symbol::Army,
        }
    }

    /// Whether a d6 `face` of the seeded stream succeeds.
    pub fn face_succeeds(self, face: u8) -> bool {
        self.succeeds(Symbol::of_face(face))
    }

    /// Whether this roll counts two symbols (an "easier" task): the classic-dice conversion
    /// reads it differently.
    pub fn easier(self) -> bool {
        matches!(
            self,
            RollKind::ToHitFightingSpirit
                | RollKind::InfantryCoverSave
                | RollKind::HardenedInfantrySave
                | RollKind::BunkerSave
        )
    }

    /// The kind of a recorded roll, from the purpose the engine gave it, if it is one of ours.
    pub fn of_purpose(purpose: &str) -> Option<RollKind> {
        let p = purpose;
        Some(if p.ends_with(TWO_FACE_MARK) {
            RollKind::ToHitFightingSpirit
        } else if p.starts_with(super::reactive::PURPOSE) {
            RollKind::ReactiveAttack
        } else if p.starts_with("initiative") {
            RollKind::Initiative
        } else if p.starts_with("laser chain")
            || p.starts_with(super::skills::BERSERK_CHAIN)
            || p.starts_with(super::skills002::KILLING_SPREE_CHAIN)
            || p.starts_with(super::weapons::CUTTING_CHAIN)
        {
            RollKind::LaserChain
        } else if p.starts_with("infantry cover save") {
            RollKind::InfantryCoverSave
        } else if p.starts_with("vehicle cover save") {
            RollKind::VehicleCoverSave
        } else if p.starts_with(HARDENED_SAVE) {
            RollKind::HardenedInfantrySave
        } else if p.starts_with("infantry save") {
            RollKind::InfantrySave
        } else if p.starts_with(super::strongpoints::REROLL)
            || p.starts_with(super::strongpoints::CLOSE_SAVE)
        {
            RollKind::StrongpointSave
        } else if p.starts_with(super::bunkers::REROLL) || p.starts_with(super::bunkers::CLOSE_SAVE)
        {
            RollKind::BunkerSave
        } else if p.starts_with(super::fortifications::WIRE)
            || p.starts_with(super::fortifications::ENGINEERING)
        {
            RollKind::Fortification
        } else if p.starts_with("damage resilient") {
            RollKind::DamageResilient
        } else if p.starts_with("attack")
            || p.starts_with("sustained re-roll")
            || p.starts_with(super::skills002_d::LUCKY_REROLL)
            || p.starts_with(super::weapons::WIRE_GUIDED_REROLL)
        {
            RollKind::ToHit
        } else {
            return None;
        })
    }

    /// What a success of this roll is called in reports.
    fn success_word(self) -> &'static str {
        match self {
            RollKind::ToHit | RollKind::ToHitFightingSpirit | RollKind::LaserChain => "hit",
            RollKind::InfantryCoverSave
            | RollKind::VehicleCoverSave
            | RollKind::InfantrySave
            | RollKind::HardenedInfantrySave
            | RollKind::StrongpointSave
            | RollKind::BunkerSave => "save",
            RollKind::DamageResilient => "cancels",
            RollKind::Fortification => "succeeds",
            RollKind::Initiative | RollKind::ReactiveAttack => "counts",
        }
    }
}

/// The end of a to-hit roll's purpose when the target symbol hits too (002's "2-face" hits:
/// Fighting Spirit, Take Aim; battlefront/skills.rs).
pub const TWO_FACE_MARK: &str = "(army or target hits)";

/// The marks of a roll's faces in reports: the symbol, and what it does when the roll's kind is
/// known (`army hit`, `target miss`, `shield save`).
pub fn marks(purpose: &str, faces: &[u8]) -> Vec<String> {
    let kind = RollKind::of_purpose(purpose);
    faces
        .iter()
        .map(|f| {
            let s = Symbol::of_face(*f);
            match kind {
                Some(k) if k.succeeds(s) => format!("{} {}", s.name(), k.success_word()),
                Some(_) => format!("{} miss", s.name()),
                None => s.name().to_string(),
            }
        })
        .collect()
}

/// How many of `faces` show `symbol`.
pub fn count(faces: &[u8], symbol: Symbol) -> usize {
    faces
        .iter()
        .filter(|f| Symbol::of_face(**f) == symbol)
        .count()
}

/// The initiative tie-break of a side's roll under battlefront-2013: its target symbols. 003
/// "Roll for Initiative": "In case of a tie, the player with the most [symbol] wins"; the glyph is
/// lost in the OCR and we read the target symbol (R232). `None` under the other rulesets, whose
/// ties are simply re-rolled.
pub fn initiative_tie_break(
    rules: crate::dust_tactics::rules::Rules,
    faces: &[u8],
) -> Option<usize> {
    rules.battlefront().then(|| count(faces, Symbol::Target))
}

/// A face of a classic (2010) Dust die: "two sides showing [a hit] and four sides showing
/// [blanks]" (003 "Classic Dust Dice").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassicFace {
    Hit,
    Blank,
}

/// Whether a classic die showing `face` succeeds at a roll of `kind`, for players who roll
/// classic dice at the table and mail their results (R231). 003 "Classic Dust Dice": "any time
/// that the rules require you to roll your army symbol, count the target symbol as successes.
/// When the rules count both the army symbol and another symbol as a success, count [the four
/// other faces] as successes." The glyph of the second sentence is lost in the OCR; only the
/// four blank faces keep the odds of two symbols (two faces in three).
pub fn classic_succeeds(kind: RollKind, face: ClassicFace) -> bool {
    match face {
        ClassicFace::Hit => !kind.easier(),
        ClassicFace::Blank => kind.easier(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_symbol_has_two_faces() {
        for s in [Symbol::Army, Symbol::Target, Symbol::Shield] {
            assert_eq!((1..=6).filter(|f| Symbol::of_face(*f) == s).count(), 2);
        }
    }

    #[test]
    fn every_roll_kind_succeeds_on_two_or_four_faces() {
        use RollKind::*;
        for (k, n) in [
            (ToHit, 2),
            (ToHitFightingSpirit, 4),
            (LaserChain, 2),
            (InfantryCoverSave, 4),
            (VehicleCoverSave, 2),
            (InfantrySave, 2),
            (StrongpointSave, 2),
            (DamageResilient, 2),
            (Fortification, 2),
            (Initiative, 2),
            (ReactiveAttack, 2),
        ] {
            assert_eq!((1..=6).filter(|f| k.face_succeeds(*f)).count(), n, "{k:?}");
        }
    }
}
