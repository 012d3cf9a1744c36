//! The skills of 004's skills reference, as an enum: card files name them (lower-case with
//! dashes), the engine asks for them by variant.

use std::fmt;

macro_rules! skills {
    ($($variant:ident => $id:literal, $title:literal;)*) => {
        /// A skill a unit card may carry (004 skills reference).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Skill {
            $(#[doc = $title] $variant,)*
        }

        impl Skill {
            /// Every skill, in the order of their card names.
            pub const ALL: &'static [Skill] = &[$(Skill::$variant,)*];

            /// The name card files and orders use: lower-case with dashes ("black-ops").
            pub fn id(self) -> &'static str {
                match self {
                    $(Skill::$variant => $id,)*
                }
            }

            /// The rulebook's name ("Black Ops").
            pub fn title(self) -> &'static str {
                match self {
                    $(Skill::$variant => $title,)*
                }
            }
        }
    };
}

skills! {
    AcePilot => "ace-pilot", "Ace Pilot";
    AdvancedReactiveFire => "advanced-reactive-fire", "Advanced Reactive Fire";
    Agile => "agile", "Agile";
    AirAlt => "air-alt", "Air Alt";
    AirLift => "air-lift", "Air Lift";
    AirSuperiority => "air-superiority", "Air Superiority";
    AllInOne => "all-in-one", "All In One";
    Amphibious => "amphibious", "Amphibious";
    ArtilleryStrike => "artillery-strike", "Artillery Strike";
    Assault => "assault", "Assault";
    Badass => "badass", "Badass";
    Berserk => "berserk", "Berserk";
    BlackOps => "black-ops", "Black Ops";
    BlutkreuzApe => "blutkreuz-ape", "Blutkreuz Ape";
    BlutkreuzZombie => "blutkreuz-zombie", "Blutkreuz Zombie";
    CarryCapacity => "carry-capacity", "Carry Capacity";
    CarryCapacityVehicle => "carry-capacity-vehicle", "Carry Capacity: Vehicle";
    Charge => "charge", "Charge";
    CheatDeath => "cheat-death", "Cheat Death";
    CombineShots => "combine-shots", "Combine Shots";
    CommandSquad => "command-squad", "Command Squad";
    CommandVehicle => "command-vehicle", "Command Vehicle";
    Commander => "commander", "Commander";
    Commissar => "commissar", "Commissar";
    DamageResilient => "damage-resilient", "Damage Resilient";
    DozerBlade => "dozer-blade", "Dozer Blade";
    EngineerVehicle => "engineer-vehicle", "Engineer Vehicle";
    Fast => "fast", "Fast";
    FightingSpirit => "fighting-spirit", "Fighting Spirit";
    Frenzy => "frenzy", "Frenzy";
    HeroicAttack => "heroic-attack", "Heroic Attack";
    Hover => "hover", "Hover";
    Jump => "jump", "Jump";
    LegendaryTactician => "legendary-tactician", "Legendary Tactician";
    MagazineReload => "magazine-reload", "Magazine Reload";
    MedalOfHonor => "medal-of-honor", "Medal of Honor";
    NcoCommandSquad => "nco-command-squad", "NCO Command Squad";
    Pilot => "pilot", "Pilot: Name";
    RareUnit => "rare-unit", "Rare Unit";
    RecoveryVehicle => "recovery-vehicle", "Recovery Vehicle";
    Reload => "reload", "[Weapon Name]: Reload";
    ScoutVehicle => "scout-vehicle", "Scout Vehicle";
    SelfRepair => "self-repair", "Self Repair";
    Sniper => "sniper", "Sniper";
    Spotter => "spotter", "Spotter";
    SuperiorReactiveFire => "superior-reactive-fire", "Superior Reactive Fire";
    TakeAim => "take-aim", "Take Aim";
    TankHead => "tank-head", "Tank Head";
    TankRiders => "tank-riders", "Tank Riders";
    TrackedVehicle => "tracked-vehicle", "Tracked Vehicle";
    Wiederbelebungsserum => "wiederbelebungsserum", "Wiederbelebungsserum";
}

/// The model ids a Command Squad card gives its specialists, whose orders die with them (000/004
/// "Command Squads": "When a figure is eliminated, the squad loses that figure's
/// specialization"; R211). The fifth, the weapon specialist, has no order.
pub const COMMAND_SQUAD_MEMBERS: [&str; 4] = ["officer", "radioman", "mechanic", "medic"];

/// The model ids an NCO Command Squad card gives its three specialists (004 "NCO Command
/// Squads": "a field officer, a field mechanic, and a field medic, each equipped with his own
/// radio. When a figure is eliminated, the squad loses that figure's specialization"; R522).
pub const NCO_COMMAND_SQUAD_MEMBERS: [&str; 3] = ["field-officer", "field-mechanic", "field-medic"];

impl Skill {
    /// The skill a card or order names (exact card name, lower-case with dashes).
    pub fn from_id(id: &str) -> Option<Skill> {
        Skill::ALL.iter().copied().find(|s| s.id() == id)
    }

    /// Free skills, declared in an activation without taking an action (004 skills reference),
    /// in the order the refusals list them.
    pub const FREE: &'static [Skill] = &[
        Skill::Berserk,
        Skill::AllInOne,
        Skill::Assault,
        Skill::FightingSpirit,
        Skill::Charge,
        Skill::HeroicAttack,
        Skill::CombineShots,
    ];

    /// Skills that work by themselves (R61): declaring one is accepted and changes nothing.
    pub const PASSIVE: &'static [Skill] = &[
        Skill::Agile,
        Skill::Fast,
        Skill::Jump,
        Skill::Sniper,
        Skill::Spotter,
        Skill::DamageResilient,
        Skill::SelfRepair,
        Skill::BlackOps,
        Skill::TrackedVehicle,
        Skill::AdvancedReactiveFire,
        Skill::SuperiorReactiveFire,
        // Issue 12 item 3.
        Skill::Amphibious,
        Skill::Badass,
        Skill::DozerBlade,
        Skill::Frenzy,
        Skill::LegendaryTactician,
        Skill::MedalOfHonor,
        Skill::RareUnit,
        Skill::ScoutVehicle,
        Skill::TakeAim,
        Skill::Wiederbelebungsserum,
        Skill::CheatDeath,
        // Issue 12 item 2: artillery (R415).
        Skill::MagazineReload,
        // Issue 12: aircraft (R444).
        Skill::AirSuperiority,
        Skill::Hover,
        // Issue 12: Air Alt (R560).
        Skill::AirAlt,
        // Issue 12: Air Lift (R546): read by the carrying of an aircraft, never declared.
        Skill::AirLift,
        // Issue 12: joining and special squads (R520–R539), set up before the game.
        Skill::BlutkreuzApe,
        Skill::BlutkreuzZombie,
    ];

    /// Skills a joined hero shares with his squad (digest §8 "share").
    pub const SHARED: &'static [Skill] = &[
        Skill::Agile,
        Skill::Assault,
        Skill::Badass,
        Skill::HeroicAttack,
        Skill::Berserk,
        Skill::Charge,
        Skill::FightingSpirit,
        Skill::AdvancedReactiveFire,
        Skill::SuperiorReactiveFire,
    ];

    /// Skills 004 limits to once per game, whatever the card file says.
    pub const ONCE_PER_GAME: &'static [Skill] = &[
        Skill::Berserk,
        Skill::HeroicAttack,
        Skill::AllInOne,
        Skill::Assault,
        Skill::FightingSpirit,
        Skill::TankHead,
    ];

    pub fn is_free(self) -> bool {
        Skill::FREE.contains(&self)
    }

    pub fn is_passive(self) -> bool {
        Skill::PASSIVE.contains(&self)
    }

    pub fn is_shared(self) -> bool {
        Skill::SHARED.contains(&self)
    }

    pub fn once_per_game(self) -> bool {
        Skill::ONCE_PER_GAME.contains(&self)
    }
}

/// 004 skills the engine does not implement, with what they need: a card naming one is refused
/// at `new` (issue 12: no card may carry a rule the engine ignores). Card name, the skills
/// reference's title, and why. Skills of the enum are listed by [`Skill::refused_because`].
/// Empty since Carry Capacity: Vehicle landed (R476); kept for skills a later seed adds.
pub const NOT_IN_ENUM: &[(&str, &str, &str)] = &[];

impl Skill {
    /// Why the engine refuses a card carrying this skill, or `None` when it implements it.
    pub fn refused_because(self) -> Option<&'static str> {
        use Skill::*;
        match self {
            AdvancedReactiveFire | Agile | AllInOne | Assault | Berserk | BlackOps | Charge
            | DamageResilient | Fast | FightingSpirit | Jump | SelfRepair | Sniper | Spotter
            | SuperiorReactiveFire | TankHead | TrackedVehicle => None,
            // Issue 12 item 3: implemented here.
            Amphibious | Badass | DozerBlade | Frenzy | HeroicAttack | LegendaryTactician
            | MedalOfHonor | RareUnit | ScoutVehicle | TakeAim | Wiederbelebungsserum => None,
            // Issue 12 item 3 (skills-004b).
            CheatDeath | CombineShots => None,
            // Issue 12 item 2: command squads (R211).
            CommandSquad | Commander => None,
            // Issue 12 item 2: artillery, observers and reload (R415, R416, R417).
            ArtilleryStrike | MagazineReload | Reload => None,
            // Issue 12 item 2: aircraft (R440–R444).
            AirSuperiority | Hover => None,
            // Issue 12: Air Alt (R560).
            AirAlt => None,
            // Issue 12: an aircraft carries only vehicles with Air Lift (R546).
            AirLift => None,
            // Issue 12: transport (R461–R466), riders outside (R467–R474).
            CarryCapacity | CommandVehicle | TankRiders => None,
            // Issue 12: vehicles carrying vehicles (R476).
            CarryCapacityVehicle => None,
            // Issue 12: joining and special squads (R520–R539).
            BlutkreuzApe | BlutkreuzZombie | NcoCommandSquad => None,
            // Issue 12: minefields and wrecks (R481–R485); bunkers are not in the engine.
            EngineerVehicle | RecoveryVehicle => None,
            // Piloting vehicles (R540–R546; flow/piloting.rs).
            AcePilot | Pilot => None,
            // Issue 12: a Commissar joins a squad beside its hero (R478, R479, R487–R489).
            Commissar => None,
        }
    }

    /// Whether a card may carry this skill (the engine implements it).
    pub fn is_implemented(self) -> bool {
        self.refused_because().is_none()
    }
}

impl fmt::Display for Skill {
    /// Writes the card name ("black-ops"), as orders and refusals use it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_skill_round_trips_through_its_card_name() {
        for s in Skill::ALL {
            assert_eq!(Skill::from_id(s.id()), Some(*s));
        }
        assert_eq!(Skill::from_id("Sniper"), None);
        assert_eq!(Skill::from_id("detach"), None);
        assert_eq!(Skill::BlackOps.title(), "Black Ops");
    }

    #[test]
    fn card_names_are_sorted_and_unique() {
        let ids: Vec<&str> = Skill::ALL.iter().map(|s| s.id()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted);
    }
}
