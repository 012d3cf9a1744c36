//! Skills that only 002 has (battlefront-2013, issue 18): they are not in 004's skills reference,
//! so they are not [`Skill`](crate::dust_tactics::skill::Skill)s; a card may carry the ones built
//! here under battlefront-2013 only (ffg-revised and classic-2010 refuse them at `new`, R581).
//! Built: Killing Spree (R582), Loner and Gorilla (R583), Defensive Tactics (R584), Steel Guard
//! and Zombie (R600, R601), Mindless Zombie (R602), Move and Fire (R603), At the Double (R710),
//! Scout (R713), Flying (R714), Expert - Weapon (R716), Assassin (R730), First Strike (R731),
//! Brave (R705), Strongpoint (R728), Lucky (R760), Infantry Ace (R761), Camouflage (R762),
//! Blutkreuz (R763), Resurrection (R764) (`skills002_d.rs`), Air Pilot (R804), Ace Air Pilot (R805), the
//! equipment Helicopter (R806), Officer (R766, R645) and the equipment Mechanic (R643)
//! (`command.rs`), Spy (R765, R660; `flow::spy`), the equipment Air Alert, Medevac, Smoke
//! Launchers, Half-tracked, Tracked, Wheeled and Crew (R663–R666, R668; `equipment.rs`) and
//! Artillery Observer (R693, `flow::artillery002`), the Airlifter and the vehicle equipment
//! Airmobile and Air Assault (R744–R747, `flow::airlifter`), Naval Unit and Sealifter (R755–R758,
//! R776–R779; `naval.rs`, `flow::sealifter`).
//! Every item of 002's list is built; Grenadier X, whose text is lost, is refused by name
//! ([`LOST`], R820).

use crate::dust_tactics::model::{Board, Card, Cover, Square, Terrain, WeaponLine, WeaponRange};
use crate::dust_tactics::state::{LineOrder, State, UnitState};
use std::borrow::Cow;

/// A skill of 002's "Skills and Equipment" that 004 does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skill002 {
    /// 002 "Defensive Tactics": the unit (and a unit it joined or a hero that joined it)
    /// "gains Damage Resilient when in Cover".
    DefensiveTactics,
    /// 002 "Gorilla": "Only a Gorilla Hero may Join a Gorilla Unit. Gorilla Heroes cannot Join
    /// Units that are not Gorillas."
    Gorilla,
    /// 002 "Killing Spree": a hero's ranged hits chain, "rolling an additional die for each Hit
    /// until it rolls a miss".
    KillingSpree,
    /// 002 "Loner": "A Loner Hero may not Join a Unit."
    Loner,
    /// 002 "Steel Guard": "never have a Cover Save, but always passes their Infantry Save on a
    /// roll of [target] as well as [army]"; joins only its own kind.
    SteelGuard,
    /// 002 "Zombie": "never has Cover Saves, but always passes its Infantry Saves on a roll of
    /// [target] as well as [army]"; joins only its own kind.
    Zombie,
    /// 002 "Mindless Zombie": "Mindless Zombies are Zombies ... Mindless Zombies cannot take
    /// Objectives" (R602).
    MindlessZombie,
    /// 002 "Move and Fire": "may perform a free Move Action immediately after performing an
    /// Attack or Sustained Attack Action using Ranged Weapons" (R603).
    MoveAndFire,
    /// 002 "At the Double": "may perform a free Move Action immediately after performing a March
    /// Move Action" (R710).
    AtTheDouble,
    /// 002 "Scout": "may take a March Move Action as its first Action of the game. This counts
    /// as a single Action" (R713).
    Scout,
    /// 002 "Flying": "can move over any Terrain as if it were Open terrain, provided that it
    /// ends its move in Terrain that it could normally enter" (R714).
    Flying,
    /// 002 "Expert - Weapon": "hits on rolls of [target] as well as [army] when making an Attack
    /// or Sustained Attack action with the named weapon" (R716): `weapon = "<id>"` on the card.
    Expert,
    /// 002 "Assassin": "chooses which enemy Soldiers are assigned its Hits when using
    /// Close-combat Weapons" (R730): the hero's range C line names a model, `unit/model`.
    Assassin,
    /// 002 "First Strike": "resolves all their Close-Combat Attacks and applies the results
    /// (including removing eliminated miniatures) before the enemy Units make their Close-Combat
    /// Attacks" (R731).
    FirstStrike,
    /// 002 "Strongpoint": "A Strongpoint Unit must be deployed in a Strongpoint or Bunker"
    /// (R728; `battlefront::strongpoints`).
    Strongpoint,
    /// 002 "Lucky": "Once per game, a Hero with the Lucky Skill may re-roll any dice that failed
    /// to Hit with any of their weapons when making an Attack or Sustained Attack action" (R760).
    Lucky,
    /// 002 "Infantry Ace": "A Hero with the Infantry Ace Skill rolls a die when it Activates. On
    /// a [army] or [target] the Hero (and any Unit it has Joined or Hero that has Joined it)
    /// gains a third Action for this Activation" (R761).
    InfantryAce,
    /// 002 "Camouflage": "no enemy Unit has Line of Sight to it if it is in Cover ... from them
    /// and at Range 3 ... or more"; a Special Action, lost by any action but Move or Nothing
    /// (R762).
    Camouflage,
    /// 002 "Blutkreuz": "All Mindless Zombie Units ... within Range 1 ... at the start of their
    /// Activation increase their Move to 3, their March Move to 4, and gain the Charge Skill"
    /// (R763).
    Blutkreuz,
    /// 002 "Resurrection": "A Hero equipped with a Blutkreuz ... may take a Resurrection Special
    /// Action ... Each [army] or [target] rolled returns one of the eliminated Zombie Soldiers to
    /// the Unit" (R764).
    Resurrection,
    /// 002 "Brave": "rolls three dice instead of two when rolling to remove Under Fire or
    /// Suppressed tokens" (R705).
    Brave,
    /// 002 "Air Pilot": "A Hero with the Air Pilot Skill can pilot an Aircraft (see page 93). A
    /// Hero with the Air Pilot Skill does not share it with any Unit they Join." (R804)
    AirPilot,
    /// 002 "Ace Air Pilot": "A Hero with the Ace Air Pilot Skill can pilot an Aircraft (see page
    /// 93). Roll a die when the Aircraft that they are piloting Activates. On a [army] or
    /// [target] the Aircraft gains a third Action for this Activation." (R805)
    AceAirPilot,
    /// 002 "Vehicle Equipment", "Helicopter": "Unlike other Aircraft, a Helicopter does not have
    /// to take a Move Action as its first Action (see pages 20 and 43), allowing it to take
    /// Sustained Attack Actions." Carried by an aircraft's card only (R806).
    Helicopter,
    /// 002 "Officer": "A Hero that is an Officer may perform Officer Special Actions (see page
    /// 94)" (R766, R645; `battlefront::command`). A hero's card only.
    Officer,
    /// 002 "Vehicle Equipment", "Mechanic": "A Vehicle equipped as a Mechanic can use the
    /// Makeshift Repair Special Action (see page 95)" (R643). A vehicle's card only.
    Mechanic,
    /// 002 "Spy": "A Hero with the Spy Skill is not placed at the start of the game", placed
    /// by two dice as it activates (R765, R660; `flow::spy`).
    Spy,
    /// 002 "Vehicle Equipment", "Air Alert": a vehicle's Special Action against an enemy
    /// aircraft in sight; on army, friendly vehicles hit it on army or target for the rest of
    /// the turn (R663; `battlefront::equipment`).
    AirAlert,
    /// 002 "Medevac": a vehicle's Special Action returning soldiers to an infantry unit within
    /// range 1, a die for each soldier eliminated, one back on each army (R665).
    Medevac,
    /// 002 "Smoke Launchers": "Once per game ... a Smoke Screen on itself" (R666).
    SmokeLaunchers,
    /// 002 "Half-tracked", "Tracked", "Wheeled": dice "In *Dust Tactics Battlefield*" only;
    /// on the Dust Tactics grid they change nothing (R664).
    HalfTracked,
    Tracked,
    Wheeled,
    /// 002 "Crew": the vehicle attacks with its own weapons or its crew's, one crew weapon for
    /// each damage point left (R668; weapons with the trait `crew`).
    Crew,
    /// 002 "Artillery Observer": "When a Unit with Artillery Observer performs an Attack or
    /// Sustained Attack Action, they may use Artillery weapons ... of a friendly Unit that has
    /// not yet Activated" (R693, `flow::artillery002`).
    ArtilleryObserver,
    /// 002 "Vehicle Equipment", "Naval Unit": "treats Deep Water as Open Space, but cannot enter
    /// any other type of terrain", a free Attack after a March Move, and its wreck is deep water
    /// (R755–R757; `battlefront::naval`). A ground vehicle's card only.
    Naval,
    /// 002 "Sealifter": "Sealifters are Naval Units that are equipped to carry Units into
    /// battle": twelve spaces, infantry and vehicles (R776–R779; `battlefront::naval`,
    /// `flow::sealifter`). A ground vehicle's card only.
    Sealifter,
    /// 002 "Carrying Vehicles", "Airlifter": "Airlifters are Aircraft that are equipped to
    /// airlift Vehicles into battle. An Airlifter can only carry Airmobile or Air Assault
    /// Vehicles" (R745; `flow::airlifter`). An aircraft's card only.
    Airlifter,
    /// 002 "Vehicle Equipment", "Airmobile": "An Airmobile Vehicle can be carried by an
    /// Airlifter" (R745).
    Airmobile,
    /// 002 "Vehicle Equipment", "Air Assault": carried by an Airlifter, it may activate after
    /// it and dismount with its first action; in a wreck only army symbols damage it (R746,
    /// R744).
    AirAssault,
}

/// 002's skills that are neither a [`Skill002`] nor a 004 skill battlefront-2013 plays, with
/// 002's title: a card naming one is refused at `new` by name (R581, R281). 002's skills that
/// 004 also has (Ace Pilot, Advanced Reactive Fire, Commissar) are refused by `check_cards`.
pub const NOT_BUILT: &[(&str, &str)] = &[
    // 002 "Carrying Vehicles": Passengers, Tank Riders (R732, R740), the Airlifter with Airmobile
    // and Air Assault (R745) and the Sealifter (R776) are all built, so none is left here.
];

/// 002's vehicle equipment whose text the OCR lost (R820): "Grenadier X" stands under "Vehicle
/// Equipment" as a heading with no sentence after it, and no other seed names it. A card naming
/// it (as `grenadier`, its number the skill's value as `passengers`' is, or `grenadier-x`) is
/// refused when read, by name.
pub const LOST: &[(&str, &str)] = &[("grenadier", "Grenadier X"), ("grenadier-x", "Grenadier X")];

/// The refusal of a card naming one of [`LOST`]'s items; `None` for any other name.
pub fn lost_reason(name: &str) -> Option<String> {
    let (_, title) = LOST.iter().find(|(id, _)| *id == name)?;
    Some(format!(
        "`{name}` is 002's vehicle equipment \"{title}\", whose text is lost: 002 prints only its heading, under \"Vehicle Equipment\", and no other seed gives it, so it is not built (ruling R820)"
    ))
}

impl Skill002 {
    /// Every 002-only skill the engine plays.
    pub const ALL: &'static [Skill002] = &[
        Skill002::DefensiveTactics,
        Skill002::Gorilla,
        Skill002::KillingSpree,
        Skill002::Loner,
        Skill002::SteelGuard,
        Skill002::Zombie,
        Skill002::MindlessZombie,
        Skill002::MoveAndFire,
        Skill002::AtTheDouble,
        Skill002::Scout,
        Skill002::Flying,
        Skill002::Expert,
        Skill002::Assassin,
        Skill002::FirstStrike,
        Skill002::Strongpoint,
        Skill002::Lucky,
        Skill002::InfantryAce,
        Skill002::Camouflage,
        Skill002::Blutkreuz,
        Skill002::Resurrection,
        Skill002::Brave,
        Skill002::AirPilot,
        Skill002::AceAirPilot,
        Skill002::Helicopter,
        Skill002::Officer,
        Skill002::Mechanic,
        Skill002::Spy,
        Skill002::AirAlert,
        Skill002::Medevac,
        Skill002::SmokeLaunchers,
        Skill002::HalfTracked,
        Skill002::Tracked,
        Skill002::Wheeled,
        Skill002::Crew,
        Skill002::ArtilleryObserver,
        Skill002::Naval,
        Skill002::Sealifter,
        Skill002::Airlifter,
        Skill002::Airmobile,
        Skill002::AirAssault,
    ];

    /// The skills 002 words "Only a X Hero may Join a X Unit. X Heroes cannot Join Units that
    /// are not X" (R583, R601).
    pub const EXCLUSIVE: &'static [Skill002] =
        &[Skill002::Gorilla, Skill002::SteelGuard, Skill002::Zombie];

    /// The card name (lower-case with dashes).
    pub fn id(self) -> &'static str {
        match self {
            Skill002::DefensiveTactics => "defensive-tactics",
            Skill002::Gorilla => "gorilla",
            Skill002::KillingSpree => "killing-spree",
            Skill002::Loner => "loner",
            Skill002::SteelGuard => "steel-guard",
            Skill002::Zombie => "zombie",
            Skill002::MindlessZombie => "mindless-zombie",
            Skill002::MoveAndFire => "move-and-fire",
            Skill002::AtTheDouble => "at-the-double",
            Skill002::Scout => "scout",
            Skill002::Flying => "flying",
            Skill002::Expert => "expert",
            Skill002::Assassin => "assassin",
            Skill002::FirstStrike => "first-strike",
            Skill002::Strongpoint => "strongpoint",
            Skill002::Lucky => "lucky",
            Skill002::InfantryAce => "infantry-ace",
            Skill002::Camouflage => "camouflage",
            Skill002::Blutkreuz => "blutkreuz",
            Skill002::Resurrection => "resurrection",
            Skill002::Brave => "brave",
            Skill002::AirPilot => "air-pilot",
            Skill002::AceAirPilot => "ace-air-pilot",
            Skill002::Helicopter => "helicopter",
            Skill002::Officer => "officer",
            Skill002::Mechanic => "mechanic",
            Skill002::Spy => "spy",
            Skill002::AirAlert => "air-alert",
            Skill002::Medevac => "medevac",
            Skill002::SmokeLaunchers => "smoke-launchers",
            Skill002::HalfTracked => "half-tracked",
            Skill002::Tracked => "tracked",
            Skill002::Wheeled => "wheeled",
            Skill002::Crew => "crew",
            Skill002::ArtilleryObserver => "artillery-observer",
            Skill002::Naval => "naval",
            Skill002::Sealifter => "sealifter",
            Skill002::Airlifter => "airlifter",
            Skill002::Airmobile => "airmobile",
            Skill002::AirAssault => "air-assault",
        }
    }

    /// 002's name.
    pub fn title(self) -> &'static str {
        match self {
            Skill002::DefensiveTactics => "Defensive Tactics",
            Skill002::Gorilla => "Gorilla",
            Skill002::KillingSpree => "Killing Spree",
            Skill002::Loner => "Loner",
            Skill002::SteelGuard => "Steel Guard",
            Skill002::Zombie => "Zombie",
            Skill002::MindlessZombie => "Mindless Zombie",
            Skill002::MoveAndFire => "Move and Fire",
            Skill002::AtTheDouble => "At the Double",
            Skill002::Scout => "Scout",
            Skill002::Flying => "Flying",
            Skill002::Expert => "Expert - Weapon",
            Skill002::Assassin => "Assassin",
            Skill002::FirstStrike => "First Strike",
            Skill002::Strongpoint => "Strongpoint",
            Skill002::Lucky => "Lucky",
            Skill002::InfantryAce => "Infantry Ace",
            Skill002::Camouflage => "Camouflage",
            Skill002::Blutkreuz => "Blutkreuz",
            Skill002::Resurrection => "Resurrection",
            Skill002::Brave => "Brave",
            Skill002::AirPilot => "Air Pilot",
            Skill002::AceAirPilot => "Ace Air Pilot",
            Skill002::Helicopter => "Helicopter",
            Skill002::Officer => "Officer",
            Skill002::Mechanic => "Mechanic",
            Skill002::Spy => "Spy",
            Skill002::AirAlert => "Air Alert",
            Skill002::Medevac => "Medevac",
            Skill002::SmokeLaunchers => "Smoke Launchers",
            Skill002::HalfTracked => "Half-tracked",
            Skill002::Tracked => "Tracked",
            Skill002::Wheeled => "Wheeled",
            Skill002::Crew => "Crew",
            Skill002::ArtilleryObserver => "Artillery Observer",
            Skill002::Naval => "Naval Unit",
            Skill002::Sealifter => "Sealifter",
            Skill002::Airlifter => "Airlifter",
            Skill002::Airmobile => "Airmobile",
            Skill002::AirAssault => "Air Assault",
        }
    }

    /// 002's sentence limiting joins, for the kinds in [`Skill002::EXCLUSIVE`].
    fn join_rule(self) -> &'static str {
        match self {
            Skill002::SteelGuard => "Only a Steel Guard Hero may Join a Steel Guard Unit. Steel Guard Heroes cannot Join Units that are not Steel Guard",
            Skill002::Zombie => "Only a Zombie Hero may Join a Zombie Unit. Zombie Heroes cannot Join Units that are not Zombies",
            _ => "Only a Gorilla Hero may Join a Gorilla Unit. Gorilla Heroes cannot Join Units that are not Gorillas",
        }
    }

    /// What the report adds to the line a skill made free (R603, R710, R713, R756).
    pub fn free_move_note(self) -> &'static str {
        match self {
            Skill002::Scout => " (Scout, 002: the March Move counts as one action)",
            Skill002::AtTheDouble => " (the free Move of At the Double, 002)",
            Skill002::Naval => " (the free Attack of a Naval Unit after its March Move, 002)",
            _ => " (the free Move of Move and Fire, 002)",
        }
    }

    /// Whether `card` is of this kind: a card with `mindless-zombie` is a Zombie too (002
    /// "Mindless Zombies are Zombies", R602).
    pub fn of(self, card: &Card) -> bool {
        card.has_skill(self.id())
            || (self == Skill002::Zombie && card.has_skill(Skill002::MindlessZombie.id()))
    }

    pub fn from_id(id: &str) -> Option<Skill002> {
        Skill002::ALL.iter().copied().find(|s| s.id() == id)
    }
}

/// The purpose of the dice a Killing Spree hero's ranged hits chain (the Berserk chain's twin,
/// `skills::BERSERK_CHAIN`; `dice::RollKind::of_purpose` reads both as a chain).
pub const KILLING_SPREE_CHAIN: &str = "killing spree chain";

/// Whether a hero's own line `w` chains its hits under battlefront-2013: 002 "Berserk" for
/// close-combat weapons (R282), 002 "Killing Spree" for ranged ones (R582). Neither is shared
/// with a squad the hero joins, so only the hero's card counts.
pub fn chains(hero: &Card, w: &WeaponLine) -> bool {
    if w.range == WeaponRange::Close {
        hero.has(crate::dust_tactics::skill::Skill::Berserk)
    } else {
        hero.has_skill(Skill002::KillingSpree.id())
    }
}

/// The chain's name in reports and roll purposes for line `w`.
pub fn chain_name(w: &WeaponLine) -> &'static str {
    if w.range == WeaponRange::Close {
        super::skills::BERSERK_CHAIN
    } else {
        KILLING_SPREE_CHAIN
    }
}

/// 002 "Loner", "Gorilla", "Steel Guard" and "Zombie" against a join of `hero` to `squad`
/// before the game (R583, R601): the reason it is refused, if it is.
pub fn refuse_join(hero: &Card, squad: &Card) -> Option<String> {
    if hero.has_skill(Skill002::Loner.id()) {
        return Some(format!(
            "{} is a Loner: \"A Loner Hero may not Join a Unit\" (002 \"Loner\")",
            hero.name
        ));
    }
    for kind in Skill002::EXCLUSIVE {
        let (h, s) = (kind.of(hero), kind.of(squad));
        if h != s {
            let t = kind.title();
            return Some(format!(
                "{} {} a {t} and {} {}: \"{}\" (002 \"{t}\")",
                hero.name,
                if h { "is" } else { "is not" },
                squad.name,
                if s { "is" } else { "is not" },
                kind.join_rule(),
            ));
        }
    }
    None
}

/// 002 "Defensive Tactics": "A Unit with the Defensive Tactics Skill (and any Unit it has Joined
/// or Hero that has Joined it) gains Damage Resilient when in Cover" (R584): whether unit `id`,
/// attacked in `cover`, has it under battlefront-2013.
pub fn defensive(state: &State, id: &str, cover: Cover) -> bool {
    if !state.rules().battlefront() || cover == Cover::None {
        return false;
    }
    shared(state, id, Skill002::DefensiveTactics)
}

/// Whether unit `id`, "any Unit it has Joined or Hero that has Joined it" has `skill` (002's
/// wording for Defensive Tactics, Move and Fire, At the Double and Scout).
fn shared(state: &State, id: &str, skill: Skill002) -> bool {
    let has = |uid: &str| {
        state
            .unit(uid)
            .and_then(|u| state.cards.get(&u.card))
            .is_some_and(|c| c.has_skill(skill.id()))
    };
    let Some(u) = state.unit(id) else {
        return false;
    };
    has(id) || u.joined.as_deref().is_some_and(has) || state.hero_of(id).is_some_and(|h| has(&h.id))
}

/// 002 "Move and Fire" (R603): whether a `move` right after the attack `lines` of unit `id` may
/// be its free Move: battlefront-2013, the skill on the unit or its joined hero or squad, and an
/// attack "using Ranged Weapons" (every line ranged, none range C).
pub fn free_move_after(state: &State, id: &str, lines: &[LineOrder]) -> bool {
    let ranged = |l: &LineOrder| {
        state
            .unit(&l.shooter)
            .and_then(|s| state.cards.get(&s.card))
            .and_then(|c| c.weapon(&l.weapon))
            .is_some_and(|w| w.range != WeaponRange::Close)
    };
    state.rules().battlefront()
        && !lines.is_empty()
        && lines.iter().all(ranged)
        && shared(state, id, Skill002::MoveAndFire)
}

/// 002 "At the Double" (R710): whether a `move` may be the free Move: battlefront-2013, the
/// skill on the unit or its joined hero or squad, and the activation's actions so far exactly a
/// March Move (`march_so_far`: two Moves, 003 "Actions").
pub fn free_move_after_march(state: &State, id: &str, march_so_far: bool) -> bool {
    state.rules().battlefront() && march_so_far && shared(state, id, Skill002::AtTheDouble)
}

/// 002 "Scout" (R713): whether the `move` being planned may make, with the one before it
/// (`second`: the activation's actions so far are one Move), a March Move that counts as one
/// action: battlefront-2013, the skill on the unit or its joined hero or squad, and the unit's
/// first activation of the game (every unit's in turn 1; later, a unit entering for the first
/// time, never in reserve).
pub fn scout_march(state: &State, u: &UnitState, second: bool) -> bool {
    let first = state.round == 1 || (u.at.is_none() && u.aboard.is_none() && u.reserved == 0);
    state.rules().battlefront() && second && first && shared(state, &u.id, Skill002::Scout)
}

/// 002 "Flying" (R714): whether unit `id` flies as it moves: battlefront-2013 and the skill on
/// its card, and, when a hero has joined a squad, on both ("If a Hero has Joined a Unit, both
/// must have the Flying Skill for either to use it when they Activate together").
pub fn flies(state: &State, id: &str) -> bool {
    let has = |uid: &str| {
        state
            .unit(uid)
            .and_then(|u| state.cards.get(&u.card))
            .is_some_and(|c| c.has_skill(Skill002::Flying.id()))
    };
    let Some(u) = state.unit(id) else {
        return false;
    };
    state.rules().battlefront()
        && has(id)
        && u.joined.as_deref().is_none_or(has)
        && state.hero_of(id).is_none_or(|h| has(&h.id))
}

/// 002 "Flying" (R714): the board a flying unit `id` moves on: every square open terrain but
/// `end`, where the move ends (its own terrain still decides whether the unit may stop there).
pub fn flying_board<'a>(
    state: &State,
    id: &str,
    board: Cow<'a, Board>,
    end: Option<Square>,
) -> Cow<'a, Board> {
    let Some(end) = end.filter(|_| flies(state, id)) else {
        return board;
    };
    let mut b = board.into_owned();
    for r in 0..b.height() as i32 {
        for c in 0..b.width() as i32 {
            if let Some(sq) = b.square(c, r).filter(|sq| *sq != end) {
                b.set_terrain(sq, Terrain::Open);
            }
        }
    }
    Cow::Owned(b)
}

/// 002 "Expert - Weapon" (R716): whether `hero`'s card makes its line `w` an expert's, hitting
/// on army or target. Only the hero's own weapon: 002 names "the named weapon".
pub fn expert(hero: &Card, w: &WeaponLine) -> bool {
    hero.skills
        .iter()
        .any(|s| s.name == Skill002::Expert.id() && s.weapon.as_deref() == Some(w.id.as_str()))
}

/// 002 "Assassin" (R730): whether `shooter`'s line `w` may name the enemy soldier its hits go
/// to: battlefront-2013, a close-combat line, and the skill on the shooter's own card, a hero's
/// ("A Hero with the Assassin Skill does not share it with any Unit they Join").
pub fn assassin(state: &State, shooter: &str, w: &WeaponLine) -> bool {
    state.rules().battlefront()
        && w.range == WeaponRange::Close
        && state
            .unit(shooter)
            .and_then(|u| state.cards.get(&u.card))
            .is_some_and(|c| {
                c.unit_type == crate::dust_tactics::model::UnitType::Hero
                    && c.has_skill(Skill002::Assassin.id())
            })
}

/// A card's skill `s` against 002 "Expert - Weapon" (R716): `expert` names one weapon of the
/// card, which is a hero ("A Hero with the Expert Skill"), and no other skill names a weapon.
/// The error is (field, reason, what to write instead).
pub fn check_expert(
    card: &Card,
    s: &crate::dust_tactics::model::SkillSpec,
) -> Result<(), (&'static str, String, String)> {
    let ids = || {
        card.weapons
            .iter()
            .map(|w| w.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    // 002's vehicle equipment is a ground vehicle's (R663).
    super::equipment::check_card(card, s)?;
    // 002 "Helicopter": "Unlike other Aircraft, a Helicopter ..." is an aircraft's (R806), as
    // is "Airlifters are Aircraft that are equipped to airlift Vehicles" (R745).
    let aircraft_only = [
        (
            Skill002::Helicopter,
            "Unlike other Aircraft, a Helicopter ...",
        ),
        (Skill002::Airlifter, "Airlifters are Aircraft ..."),
    ];
    if let Some((k, quote)) = aircraft_only.iter().find(|(k, _)| k.id() == s.name) {
        if !matches!(card.armour, crate::dust_tactics::model::Armour::Aircraft(_)) {
            return Err((
                "name",
                format!(
                    "002 gives {} to an aircraft (\"{quote}\"); this card has no aircraft armour",
                    k.title()
                ),
                "remove the skill, or give it to a card with `armour = { aircraft = N }`".into(),
            ));
        }
    }
    // 002 "Vehicle Equipment", "Mechanic": "A Vehicle equipped as a Mechanic" (R643).
    if s.name == Skill002::Mechanic.id()
        && card.unit_type != crate::dust_tactics::model::UnitType::Vehicle
    {
        return Err((
            "name",
            "002 gives Mechanic to a vehicle (\"A Vehicle equipped as a Mechanic\"); this card is not a vehicle (a command squad's mechanic is its model `mechanic`)".into(),
            "remove the skill, or give it to a vehicle's card".into(),
        ));
    }
    // 002 "Assassin", "Lucky", "Infantry Ace" and "Blutkreuz" are a hero's, like Expert (R730,
    // R760, R761, R763).
    let hero_only = [
        Skill002::Assassin,
        Skill002::Lucky,
        Skill002::InfantryAce,
        Skill002::Blutkreuz,
        Skill002::Resurrection,
        Skill002::Officer,
        Skill002::Spy,
    ];
    if let Some(k) = hero_only.iter().find(|k| k.id() == s.name) {
        if card.unit_type != crate::dust_tactics::model::UnitType::Hero {
            let t = k.title();
            return Err((
                "name",
                format!("002 gives {t} to a hero (\"A Hero with the {t} Skill\"); this card is not a hero"),
                "remove the skill, or give it to a hero's card".into(),
            ));
        }
    }
    // 002 "Resurrection": "A Hero equipped with a Blutkreuz" (R764).
    if s.name == Skill002::Resurrection.id() && !card.has_skill(Skill002::Blutkreuz.id()) {
        return Err((
            "name",
            "002 gives Resurrection to \"A Hero equipped with a Blutkreuz\"; this card has no `blutkreuz`".into(),
            "add the skill `blutkreuz` to the card, or remove `resurrection`".into(),
        ));
    }
    if s.name != Skill002::Expert.id() {
        return match &s.weapon {
            Some(_) => Err((
                "weapon",
                format!(
                    "skill `{}` names no weapon; only `expert` (002 \"Expert - Weapon\") does",
                    s.name
                ),
                "remove `weapon` from this skill".into(),
            )),
            None => Ok(()),
        };
    }
    if card.unit_type != crate::dust_tactics::model::UnitType::Hero {
        return Err((
            "name",
            "002 gives Expert to a hero (\"A Hero with the Expert Skill\"); this card is not a hero".into(),
            "remove the skill, or give it to a hero's card".into(),
        ));
    }
    match &s.weapon {
        Some(w) if card.weapons.iter().any(|x| &x.id == w) => Ok(()),
        Some(w) => Err((
            "weapon",
            format!("Expert names the weapon `{w}`, which this card does not carry"),
            format!("write weapon = one of: {}", ids()),
        )),
        None => Err((
            "weapon",
            "Expert without the weapon it names (002 \"Expert - Weapon\")".into(),
            format!("write weapon = one of: {}", ids()),
        )),
    }
}

/// 002 "Steel Guard" and "Zombie" (R600): whether unit `id` never has a Cover Save and passes
/// its Infantry Saves on [target] as well as [army]. Only the unit's own card counts: a hero
/// joined to it is of the same kind (`refuse_join`).
pub fn hardened(state: &State, id: &str) -> bool {
    state.rules().battlefront()
        && state
            .unit(id)
            .and_then(|u| state.cards.get(&u.card))
            .is_some_and(|c| Skill002::SteelGuard.of(c) || Skill002::Zombie.of(c))
}

/// The 002 skills a card names that the engine does not play, listed for refusals.
pub fn unbuilt_note() -> &'static str {
    "of 002's own skills only defensive-tactics, gorilla, killing-spree, loner, steel-guard, zombie, mindless-zombie, move-and-fire, at-the-double, scout, flying, expert, assassin, first-strike, lucky, infantry-ace, camouflage, blutkreuz, resurrection, brave, strongpoint, air-pilot, ace-air-pilot, helicopter, officer, spy and artillery-observer, and of 002's vehicle equipment mechanic, air-alert, medevac, smoke-launchers, half-tracked, tracked, wheeled, crew, naval, sealifter, airlifter, airmobile and air-assault are built"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_names_round_trip_and_are_not_004_skills() {
        for s in Skill002::ALL {
            assert_eq!(Skill002::from_id(s.id()), Some(*s));
            assert!(crate::dust_tactics::skill::Skill::from_id(s.id()).is_none());
        }
        for (id, _) in NOT_BUILT.iter().chain(LOST) {
            assert!(Skill002::from_id(id).is_none());
            assert!(crate::dust_tactics::skill::Skill::from_id(id).is_none());
        }
    }
}
