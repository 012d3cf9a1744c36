//! Typed rule citations. A refusal names the rule it applies as a [`RuleId`]: the rulebook
//! section it comes from (seed file and section, `000` = core rules 2010, `004` = FFG revised
//! rules summary) and, where the project had to rule, the ruling's number in docs/rulings.md.
//! Every refusal renders its citation the same way, from here.

use std::fmt;

macro_rules! rule_ids {
    ($($variant:ident => $seed:literal, $section:literal, $ruling:expr;)*) => {
        /// A rule the engine cites.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleId {
            $(#[doc = concat!($seed, " ", $section)] $variant,)*
        }

        impl RuleId {
            /// Every rule id.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)*];

            /// The seed file (`000`, `004`) or player document the rule is in.
            pub fn seed(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $seed,)*
                }
            }

            /// The section of the seed file, as the rulebook names it.
            pub fn section(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $section,)*
                }
            }

            /// The number of the ruling in docs/rulings.md that applies (`R2` is 2), if any.
            pub fn ruling(self) -> Option<u16> {
                match self {
                    $(RuleId::$variant => $ruling,)*
                }
            }
        }
    };
}

rule_ids! {
    Actions => "004", "Actions", None;
    Aircraft => "004", "Aircraft", Some(440);
    LargeVehicles => "004", "Large Vehicles", Some(566);
    Artillery => "004", "Artillery Weapons (Range A)", Some(415);
    ArtilleryStrike => "004", "Artillery Strike", Some(416);
    MagazineReload => "004", "Magazine Reload", Some(417);
    ReloadableWeapons => "004", "Reloadable Weapons", Some(415);
    BurstWeapons => "004", "Burst Weapons", Some(418);
    SetupWeapons => "004", "Setup Weapons", Some(419);
    DualAmmoWeapons => "004", "Dual Ammo Weapons", Some(420);
    VolleyBlast => "004", "Volley Blast", Some(460);
    Activation => "004", "Activation", None;
    CarryCapacity => "004", "Carry Capacity", Some(461);
    CarryCapacityVehicle => "004", "Carry Capacity: Vehicle", Some(476);
    CommandVehicle => "004", "Command Vehicle", Some(466);
    TankRiders => "004", "Tank Riders", Some(462);
    AlternatingActivations => "004", "Alternating activations", None;
    Attack => "004", "Attack", None;
    Casualties => "004", "Attacking", Some(58);
    Charge => "004", "Charge", None;
    CommandSquads => "004", "Command Squads", Some(211);
    NcoCommandSquads => "004", "NCO Command Squads", Some(522);
    CloseCombat => "004", "Close combat", Some(101);
    CoverElements => "000", "Cover elements", None;
    CrushCrates => "004", "Cover & Movement", Some(150);
    Draws => "004", "End of the game", Some(67);
    Minefields => "004", "Minefields", Some(481);
    DimLight => "004", "Dim Light, Low Ceilings", Some(621);
    SewerCorners => "004", "Fighting in the Sewers", Some(623);
    SewerPassing => "004", "Fighting in the Sewers", Some(624);
    Travel => "004", "Fighting in the Metro, Fighting in the Sewers", Some(631);
    TwoBoards => "004", "Underground Fighting", Some(632);
    EngineerVehicle => "004", "Engineer Vehicle", Some(483);
    RecoveryVehicle => "004", "Recovery Vehicle", Some(485);
    EndOfGame => "004", "End of the game", None;
    FightingSpirit => "004", "Fighting Spirit", None;
    FirstRound => "004", "During the first round", Some(2);
    DiagonalMovement => "004", "Movement", Some(11);
    Flamethrower => "004", "Flamethrower", None;
    FlamethrowerSpray => "000", "Flamethrowers", Some(65);
    HeroDetach => "004", "Heroes", Some(62);
    Heroes => "004", "Heroes", None;
    Initiative => "004", "Initiative", None;
    Jump => "004", "Jump", Some(14);
    LimitedAmmo => "004", "Limited ammo", None;
    LimitedAmmoWeapons => "000", "Limited ammo weapons", None;
    LineOfSight => "004", "Line of sight", None;
    Move => "004", "Move", None;
    Movement => "004", "Movement", None;
    MovementPoints => "004", "Movement", Some(1);
    Orders => "docs/orders.md", "", None;
    PlayingWithMorePlayers => "000", "Playing with more players", None;
    ReactiveFire => "004", "Reactive fire", Some(54);
    Range => "004", "Range", None;
    Skills => "004", "Skills", Some(61);
    Sniper => "004", "Sniper", None;
    StandingCasualties => "004", "Attacking", Some(100);
    StandingFirst => "004", "Initiative", Some(100);
    StandingReact => "004", "Reactive fire", Some(102);
    StandingRetaliate => "004", "Close combat", Some(101);
    TankHead => "004", "Tank Head", None;
    Terrain => "004", "Terrain", None;
    Structures => "004", "Structures", Some(500);
    SetupRolls => "004", "Setup", Some(700);
    ObjectivesPlaced => "003", "Objectives", Some(609);
    FortificationsPlaced => "002", "Deploying Fortifications", Some(589);
    AircraftMustMove => "003", "Aircraft Must Move", Some(802);
    AircraftThroughUnits => "003", "Moving Through Other Units", Some(801);
    AircraftSight => "003", "Line of Sight to Aircraft", Some(800);
    Explosives => "004", "Explosives Weapons", Some(511);
    QuonsetHuts => "004", "Quonset huts", Some(502);
    TreeTiles => "004", "Terrain", Some(149);
    TrackedVehicle => "004", "Tracked Vehicle", None;
    Walls => "000", "Movement rules", Some(10);
    WeaponLines => "004", "Weapon lines", None;
    // classic-2010: the 2010 core rulebook alone (seed 000).
    MoveTwice2010 => "000", "Move twice (MOVE + MOVE)", Some(200);
    NoReactiveFire2010 => "000", "What can a unit do when it is activated?", Some(201);
    Berserk2010 => "000", "Berserk", Some(204);
    Charge2010 => "000", "Charge", Some(206);
}

impl RuleId {
    /// This rule with a short statement of what it says (`004 'Move': once a unit stops…`).
    pub const fn with(self, detail: &'static str) -> Citation {
        Citation {
            rule: self,
            detail: Some(detail),
        }
    }
}

/// A rule as a refusal cites it: the rule and, optionally, the words of it that apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Citation {
    pub rule: RuleId,
    pub detail: Option<&'static str>,
}

impl From<RuleId> for Citation {
    fn from(rule: RuleId) -> Self {
        Citation { rule, detail: None }
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Citation::from(*self).fmt(f)
    }
}

impl fmt::Display for Citation {
    /// `004 'Section'`, then `: detail`, then ` (ruling R<n>, docs/rulings.md)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.rule;
        f.write_str(r.seed())?;
        if !r.section().is_empty() {
            write!(f, " '{}'", r.section())?;
        }
        if let Some(d) = self.detail {
            write!(f, ": {d}")?;
        }
        if let Some(n) = r.ruling() {
            write!(f, " (ruling R{n}, docs/rulings.md)")?;
        }
        Ok(())
    }
}

/// The 000 section that states the rule of 004 section `section`, where the 2010 rulebook has it.
fn section_2010(section: &str) -> Option<&'static str> {
    Some(match section {
        "Actions" | "Activation" => "What can a unit do when it is activated?",
        "Alternating activations" | "Initiative" => "Who plays first?",
        "Attack" | "Attacking" | "Weapon lines" => "Open fire!",
        "Range" => "How do you measure movement and ranges?",
        "Line of sight" => "What blocks line of sight?",
        "Move" | "Movement" | "Terrain" => "Movement rules",
        "Cover & Movement" => "Effects of cover",
        "During the first round" => "Attack!",
        "Heroes" => "Heroes",
        "Limited ammo" => "Limited ammo weapons",
        "End of the game" => "End of the game",
        "Skills" => "Abilities and special units",
        "Close combat" => "Close combat: squad vs. squad",
        "Flamethrower" => "Flamethrowers",
        "Fighting Spirit" => "Fighting Spirit",
        "Jump" => "Jump",
        "Sniper" => "Sniper",
        "Tank Head" => "Tank Head",
        "Command Squads" => "Command Squads",
        _ => return None,
    })
}

/// A rendered citation restated for a game under the 2010 rules: `004 'Range'…` becomes
/// `000 'How do you measure movement and ranges?'…` where 000 states the same rule, so its
/// players are pointed at the rulebook they play by; the rest (detail, ruling) is kept.
pub fn restate_2010(rule: &str) -> String {
    let restated = rule
        .strip_prefix("004 '")
        .and_then(|rest| rest.split_once('\''))
        .and_then(|(section, tail)| Some(format!("000 '{}'{tail}", section_2010(section)?)));
    restated.unwrap_or_else(|| rule.to_string())
}
