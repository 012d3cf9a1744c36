//! The runtime state of a Dust Tactics game: plain data (no HashMap, no floats), serialisable so
//! the ledger can digest it and a replay can compare it byte for byte. Cards stay apart from the
//! units that use them; the rules live in `flow/` and the ruleset's policies in `rules.rs`.

use super::model::{Card, Square, Terrain};
use super::rules::Rules;
use super::scenario::Scenario;
use crate::game::GameResult;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub ruleset: String,
    /// The rules revision the game was made under (`rules::RULES_REVISION`; 0: before
    /// revisions). Rulings that mend a rule act from the revision that brought them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rules_revision: u32,
    pub scenario: Scenario,
    /// Card id → card, every card the forces use.
    pub cards: BTreeMap<String, Card>,
    /// Units in scenario order (sides in order, units in order within a side).
    pub units: Vec<UnitState>,
    pub round: u32,
    pub phase: Phase,
    /// Side that won this round's initiative.
    #[serde(default)]
    pub initiative: Option<String>,
    /// Side to activate next while in [`Phase::Activations`].
    #[serde(default)]
    pub next_side: Option<String>,
    /// Every destruction, in order, for victory points (a unit destroyed twice counts twice).
    #[serde(default)]
    pub destroyed: Vec<Destruction>,
    #[serde(default)]
    pub result: Option<GameResult>,
    /// Standing orders per side (R66); the view hides the other sides'.
    #[serde(default)]
    pub standing: BTreeMap<String, Standing>,
    /// A side's draw offer, until accepted or the round ends.
    #[serde(default)]
    pub draw_offer: Option<String>,
    /// The unit an Officer's "Get Moving You Bunch of Monkeys!" reactivated: it activates next
    /// (000/004 "Command Squads", R211).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reactivated: Option<String>,
    /// Tesla carriers destroyed whose explosion the Remove step has still to resolve (004
    /// "Tesla weapons", R562); empty between steps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blasts: Vec<Blast>,
    /// Smoke laid by an NCO squad's Smoke Mortars, lifted at the end of a later round (004 "NCO
    /// Command Squads", R525).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub smoke: Vec<SmokeToken>,
    /// 004 "Recovery Vehicle": markers where friendly ground vehicles were destroyed, until
    /// salvaged (flow/mines.rs, R484).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wrecks: Vec<Wreck>,
    /// Indexes into `destroyed` of the vehicles salvaged: worth half their AP (R485).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub salvaged: Vec<usize>,
    /// battlefront-2013: units eliminated during the current Action, placed in reserve when it
    /// is over (003 §12 "Reserves"; `battlefront::reserves`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserve_pending: Vec<String>,
    /// battlefront-2013: victory points scored for objectives held, per side (003 §12 Supply
    /// Drop, All-Out Attack; `battlefront::vp`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub victory_points: BTreeMap<String, u32>,
    /// 004 "SETUP": the pieces the players still place by the rolls, before round 1's
    /// initiative (`placing`, R700); none in a game that does not place by rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placing: Option<super::placing::Placing>,
    /// `new --scenario random` (R550): the scenarios the first step's dice choose among; none
    /// once rolled, and in every other game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_roll: Option<super::battlefront::scenario_roll::ScenarioRoll>,
    /// R550: the two faces that chose this game's scenario (round 1's reports tell it in full).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_rolled: Option<[u8; 2]>,
    /// battlefront-2013, 002 "Grapple Weapons" (R812): gripped unit → the unit whose Grapple
    /// weapon holds it; left out when empty, as every game before had none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub grips: BTreeMap<String, String>,
}

/// A destroyed Tesla carrier whose weapon may explode on the squares around it (R562).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blast {
    pub unit: String,
    pub side: String,
    /// The square it stood on when destroyed.
    pub at: Square,
}

/// A Smoke token on `at` (its terrain was `was`) until the end of round `until`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmokeToken {
    pub at: Square,
    pub was: Terrain,
    pub until: u32,
}

/// A Recovery Vehicle's marker on the square where a friendly ground vehicle was destroyed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wreck {
    pub unit: String,
    pub side: String,
    pub at: Square,
    /// Its entry in [`State::destroyed`].
    pub destruction: usize,
}

/// One side's standing orders: answers given in advance so the game need not wait for a mail.
/// Whatever is not set follows the defaults of R100 (react with the eligible unit most likely to
/// hurt the mover, casualties in card order, first = the winner itself, retaliate): a game between
/// players who set nothing pauses only for activations; `ask` is the only thing that pauses it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Who goes first when this side wins the initiative (`None`: the default, this side).
    #[serde(default)]
    pub first: Option<String>,
    /// Ask this side every time it wins the initiative.
    #[serde(default)]
    pub first_ask: bool,
    /// Own unit id (or `any`, the side's default) → what that unit does in reactive-fire windows.
    #[serde(default)]
    pub react: BTreeMap<String, Policy>,
    /// Own unit id → models to remove first.
    #[serde(default)]
    pub casualties: BTreeMap<String, Vec<String>>,
    /// Own unit ids (or `any`) whose casualties this side chooses by mail when the choice matters.
    #[serde(default)]
    pub casualties_ask: Vec<String>,
    /// Own unit id (or `any`) → whether it retaliates when attacked in close combat.
    #[serde(default)]
    pub retaliate: BTreeMap<String, Policy>,
    /// battlefront-2013: own unit id (or `any`) → what two army symbols of its reactive attack
    /// do, `turn` or `sustained` (003 "Reactive Attacks", R255).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub react_two_army: BTreeMap<String, String>,
}

/// A standing answer for one unit (or `any`): do it, never do it, or ask by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// React (when eligible) / retaliate.
    Yes,
    Never,
    Ask,
}

impl Policy {
    /// The words of the standing order for a reactive-fire policy.
    pub fn react_word(self) -> &'static str {
        match self {
            Policy::Yes => "auto",
            Policy::Never => "never",
            Policy::Ask => "ask",
        }
    }
    /// The words of the standing order for a retaliation policy.
    pub fn retaliate_word(self) -> &'static str {
        match self {
            Policy::Yes => "yes",
            Policy::Never => "no",
            Policy::Ask => "ask",
        }
    }
}

/// One unit's runtime state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    pub id: String,
    pub side: String,
    pub card: String,
    /// `None` while off the board (not entered yet, or destroyed).
    pub at: Option<Square>,
    /// Squads: the ids of the models still alive, in card order. Empty for heroes and vehicles.
    #[serde(default)]
    pub models: Vec<String>,
    /// Heroes and vehicles: health left. Squads: models left.
    pub health: u8,
    /// A hero joined to a squad: the squad's id (004 "Heroes").
    #[serde(default)]
    pub joined: Option<String>,
    /// Activated this round (card turned).
    #[serde(default)]
    pub activated: bool,
    /// Moved and stopped this round: it may not move again (004 "Move").
    #[serde(default)]
    pub stopped: bool,
    /// Made at least one MOVE this round (Fighting Spirit).
    #[serde(default)]
    pub moved: bool,
    /// Ammo boxes left for each limited-ammo weapon line.
    #[serde(default)]
    pub ammo: BTreeMap<String, u8>,
    /// Uses of once/twice per game skills.
    #[serde(default)]
    pub skills_used: BTreeMap<String, u8>,
    /// battlefront-2013, 002 "Camouflage": the unit took an action other than a Move or Nothing
    /// since it was last Camouflaged ("The Unit starts the game Camouflaged", R762).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uncamouflaged: bool,
    /// battlefront-2013, 002 "Air Alert": this aircraft was alerted by (side, round): that
    /// side's vehicles hit it on army or target in that round (R663).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air_alert: Option<(String, u32)>,
    /// The round in which All In One doubles this unit's dice.
    #[serde(default)]
    pub all_in_one_round: Option<u32>,
    /// The round in which this hero used Medal of Honor (004: once per round).
    #[serde(default)]
    pub medal_round: Option<u32>,
    /// The round in which this hero declared Heroic Attack: attacks on him (and the squad he
    /// joined) cause no damage that round.
    #[serde(default)]
    pub heroic_round: Option<u32>,
    #[serde(default)]
    pub destroyed: bool,
    /// A command squad: the round of its last command-squad ability attempt (000/004 "Command
    /// Squads": one attempt per round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_round: Option<u32>,
    /// battlefront-2013: the direction the unit faces, once it entered or moved (003 "Facing";
    /// `battlefront::facing`). `None` under the other rulesets, which have no facing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<super::battlefront::facing::Facing>,
    /// Artillery and reloadable lines fired and not reloaded yet: the Loaded token is off the
    /// card (004 "Artillery Weapons", "Reloadable Weapons"; R415). Every weapon begins loaded.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub unloaded: std::collections::BTreeSet<String>,
    /// battlefront-2013: a Stunned token (002, from Cheat Death or a Tesla weapon;
    /// `battlefront::stunned`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stunned: bool,
    /// battlefront-2013: an Under Fire or Suppressed token (002, R702; `battlefront::suppression`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppression: Option<super::battlefront::suppression::Token>,
    /// Injected by an NCO field medic's Stimulant Kit: its next activation may be 4 actions
    /// (004 "NCO Command Squads"; `flow::stimulant`, R477).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stimulated: bool,
    /// Exhausted after its stimulated activation: no action, no reaction, no fighting back,
    /// until an activation of `nothing` + `nothing` stands it upright (R477).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exhausted: bool,
    /// Inside this vehicle (004 "Carry Capacity"; `flow::carry`): off the board (`at` is
    /// `None`) until it exits, shown in the vehicle's space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<String>,
    /// Above the ground floor of a structure: a floor or its roof (004 "Moving"; R512, R513).
    /// `None` on the ground floor and outside, and left out of the serialised state then, so
    /// games made before replay byte for byte. A `move` naming heights sets it (R514).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<super::floors::Height>,
    /// A pilot thrown out of his destroyed vehicle, whose escape die is still to roll (003
    /// "Piloting Vehicles", 004 "Carry Capacity"; `flow::piloting`, R542).
    /// Holds whom the AP go to if the die kills him.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ejected: Option<String>,
    /// battlefront-2013: in reserve since this turn, off the board (003 §12 "Reserves";
    /// `battlefront::reserves`); cleared when it moves on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve_round: Option<u32>,
    /// 004 "Aircraft": the round this aircraft entered by advanced deployment, when its riders
    /// may not exit (`flow::aircraft`, R545).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advanced_round: Option<u32>,
    /// battlefront-2013: how many times this unit was placed in reserve (the allowance).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reserved: u32,
    /// battlefront-2013: a vehicle whose pilot dismounted; it takes no action until a pilot
    /// mounts it again (003 "Piloting Vehicles"; `battlefront::mounting`, R607).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unpiloted: bool,
    /// A Commissar: the squad he joined "for the entire game", kept when either falls, so that
    /// he returns to play with it (004 "Commissar", R487).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commissar_for: Option<String>,
    /// battlefront-2013: a vehicle in Cover from its Dozer Special Action until it moves (002
    /// "Dozer Blade"; `battlefront::engineering`, R786).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dozed: bool,
    /// battlefront-2013: an Attack or Move Stimulants token on the card, removed as the unit
    /// activates (002 "Inject Stimulants"; `battlefront::command`, R642).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stimulants: Option<super::battlefront::command::Stimulants>,
    /// battlefront-2013: the turn an Officer's Get Moving re-activated it ("A Unit may only be
    /// re-Activated once per turn", R646).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reactivated_round: Option<u32>,
}

/// One destruction: the AP go to `by`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Destruction {
    pub unit: String,
    pub side: String,
    pub by: String,
    pub ap: u32,
    pub round: u32,
}

/// Where the round stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The initiative of `round` is still to roll (round 1, before any dice were available).
    Initiative,
    /// `winner` chooses who activates first.
    First {
        winner: String,
    },
    /// `next_side` activates a unit.
    Activations,
    /// An activation in progress, paused or running.
    Activation(Box<Activation>),
    Finished,
}

/// An activation in progress: what is left of the declared actions and what it waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub unit: String,
    pub side: String,
    /// Remaining steps, first is next.
    pub steps: Vec<Step>,
    #[serde(default)]
    pub wait: Option<Wait>,
    #[serde(default)]
    pub flags: ActFlags,
    /// Damage dealt by the attack being resolved, not yet removed: unit → points.
    #[serde(default)]
    pub damage: BTreeMap<String, Pending>,
    /// Units that made a reactive-fire attempt during this activation.
    #[serde(default)]
    pub reacted: Vec<String>,
    /// 004 "Cheat Death" attempts in this activation: unit → whether the roll was 4+ (R412).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cheat_death: BTreeMap<String, bool>,
}

/// Damage waiting to be removed from one unit (a squad with its joined hero counts as one).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub points: u32,
    /// Sniper hits on named models (or the joined hero's id).
    #[serde(default)]
    pub sniped: Vec<String>,
    #[serde(default)]
    pub eliminate: bool,
    /// Side whose attack did it (VP).
    pub by: String,
    /// battlefront-2013: this damage already gave its suppression token (R703).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suppressing: bool,
    /// battlefront-2013 from revision 10: each unsaved hit on a squad with a joined hero, to be
    /// resolved on whoever is named for it (R574).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joined_hits: Vec<super::battlefront::joined_hits::JoinedHit>,
}

/// Skills and options declared for this activation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActFlags {
    #[serde(default)]
    pub berserk: bool,
    #[serde(default)]
    pub fighting_spirit: bool,
    #[serde(default)]
    pub assault: bool,
    #[serde(default)]
    pub fast_used: bool,
    #[serde(default)]
    pub charge: bool,
    /// 004 "Combine Shots" declared: the vehicle's pair of flamethrowers fires as one (R413).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub combine_shots: bool,
    /// 004 "Ace Pilot": the die rolled as the piloted vehicle activated gave it an extra action
    /// (R543).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ace_extra: bool,
    /// battlefront-2013: this activation is a pilot's dismount; he may not mount again in it
    /// (003 "Piloting Vehicles", R607).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dismounted: bool,
    /// battlefront-2013: 002's Lucky declared (`skill lucky`): the hero's lines re-roll their
    /// misses (R760).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lucky: bool,
    /// battlefront-2013: the unit stayed Suppressed: its orders stop at the cut (R704).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// battlefront-2013: the Attack being resolved fires one Wire-Guided line alone (002
    /// "Wire-Guided Weapons", R673).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lone_wire_guided: bool,
    /// battlefront-2013: the units whose Sniper weapons an idle Spotter helps in the Sustained
    /// Attack being resolved (002 "Spotters", R676).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spotted: Vec<String>,
    /// battlefront-2013: 002's Salvo declared (`skill salvo`): the group's loaded Salvo lines
    /// roll twice the dice and are emptied (R696).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub salvo: bool,
}

/// What a paused activation waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Wait {
    /// `side` may attempt reactive fire with one of `candidates` at the activating unit.
    React {
        side: String,
        candidates: Vec<String>,
    },
    /// `side` chooses which of `unit`'s models (or hero health) take `points` damage.
    Casualties {
        side: String,
        unit: String,
        points: u32,
    },
    /// `side` decides whether `unit`, attacked in close combat by `attacker`, retaliates.
    Retaliate {
        side: String,
        unit: String,
        attacker: String,
    },
}

/// One step of a declared activation, already validated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Enter from the entry zone onto `to` (ruling 2).
    Enter {
        to: Square,
    },
    /// battlefront-2013: a Move action that only turns the unit to `facing` (R254).
    Turn {
        facing: super::battlefront::facing::Facing,
    },
    /// 004 "Fighting in the Metro"/"Sewers": `travel` to `to`, the other end of a link (R631).
    Travel {
        to: Square,
    },
    /// 002 "Airlifter" (R748): the Airlifter picks up `vehicle`, beneath it, before it moves.
    Lift {
        vehicle: String,
    },
    /// Move along `path` (squares entered, in order).
    Move {
        path: Vec<Square>,
        #[serde(default)]
        crushed: Vec<Square>,
    },
    /// Move along `path`, heights named: a floor, the roof or the ground floor of a structure
    /// (004 "Moving"; R514).
    Climb {
        path: Vec<super::floors::Spot>,
    },
    /// A whole ATTACK or SUSTAINED ATTACK; expanded into stages when it starts.
    Attack {
        lines: Vec<LineOrder>,
        sustained: bool,
    },
    /// Lines resolved together, damage kept pending.
    Fire {
        lines: Vec<LineOrder>,
        sustained: bool,
    },
    /// Close combat: the lines, then every adjacent defender's retaliation, simultaneous.
    Close {
        lines: Vec<LineOrder>,
        sustained: bool,
    },
    /// battlefront-2013, 002 "First Strike" (R731): close combat after the defenders `struck`
    /// struck first; they do not retaliate again.
    CloseAfter {
        lines: Vec<LineOrder>,
        sustained: bool,
        struck: Vec<String>,
    },
    /// Remove pending casualties (the owner may be asked).
    Remove,
    /// `unit`, attacked in close combat by `attacker`, may retaliate (its owner may be asked).
    Retaliate {
        unit: String,
        attacker: String,
    },
    /// Reactive-fire window for the other side.
    Window,
    /// battlefront-2013, 002 "Camouflage": the Special Action that Camouflages the unit (R762).
    Camouflage,
    /// battlefront-2013, 002 "Resurrection": `hero`'s Special Action on the Mindless Zombie unit
    /// `target` (R764).
    Resurrection {
        hero: String,
        target: String,
    },
    /// Tank Head: heal all damage on an adjacent friendly vehicle.
    TankHead {
        target: String,
    },
    /// 004 "Wiederbelebungsserum": after an attack's lines, `hero` recovers 1 health per hit
    /// his own lines scored on enemy soldiers (`hits`, counted as they are resolved; R408).
    Serum {
        hero: String,
        #[serde(default)]
        hits: u32,
    },
    /// A command squad's ability (000/004 "Command Squads"): `ability` is its order name
    /// (`get-up`, `makeshift-repair`, `get-moving`), `target` the unit it is given to.
    Command {
        ability: String,
        target: String,
    },
    /// 004 "Artillery Strike": the observer's SKILL action; `gun` is activated and fires
    /// `lines` as its indirect shot (R416).
    Strike {
        gun: String,
        lines: Vec<LineOrder>,
    },
    /// 004 "Reload": a SKILL action puts the Loaded token back on `weapons` (R415).
    Reload {
        weapons: Vec<String>,
    },
    /// battlefront-2013, 002 "Artillery Observer": the observer's Attack (or Sustained Attack)
    /// made by the friendly artillery unit `gun` with `lines`, its Reload Action taken before
    /// (`reload_before`) or after (`reload_after`) (R693, R694).
    Observed {
        gun: String,
        lines: Vec<LineOrder>,
        sustained: bool,
        reload_before: Vec<String>,
        reload_after: Vec<String>,
    },
    /// battlefront-2013, 002 "Smoke Screen": `shooter`'s artillery line `weapon` fires smoke at
    /// `at` (R697).
    SmokeScreen {
        shooter: String,
        weapon: String,
        at: Square,
    },
    /// battlefront-2013: the artillery unit's Reload Action after an observed attack (R694).
    GunReload {
        gun: String,
        weapons: Vec<String>,
    },
    /// 004 "Carry Capacity": move along `path` (maybe none), then spend 1 MP to board `vehicle`.
    Board {
        path: Vec<Square>,
        vehicle: String,
    },
    /// 004 "Carry Capacity": 1 MP to exit onto `to`, then move on along `path` (maybe none).
    Exit {
        to: Square,
        path: Vec<Square>,
    },
    /// 004 "Engineer Vehicle": the full activation destroys the bunker `bunker` (R586).
    DestroyBunker {
        bunker: String,
    },
    /// 002 "Barbed Wire Entanglements", "Minefields": an infantry Engineering Special Action on
    /// the wire or minefield on `at` (R726).
    Engineering {
        at: Square,
    },
    /// 002 "Dozer Blade": the Dozer Special Action (R786).
    Dozer,
    /// 002 "Dozer Blades": the second of two Engineering Special Actions one after the other at
    /// the bunker on `at`, which rolls to bury it (R787).
    Bury {
        at: Square,
    },
    /// 004 "Engineer Vehicle": a SKILL action removes all minefield tokens from `at` (R483).
    ClearMines {
        at: Square,
    },
    /// 004 "Recovery Vehicle": a SKILL action salvages the wreck of `unit` on `at` (R485).
    Salvage {
        unit: String,
        at: Square,
    },
    /// The hero leaves the squad for good.
    Detach {
        hero: String,
    },
    Nothing,
    /// 004 "Ace Pilot": `pilot`'s die as his vehicle activates (R543).
    AcePilot {
        pilot: String,
    },
    /// Where the extra action an Ace Pilot's die gives begins: the steps after it are dropped
    /// when the die failed (R543).
    AceExtra,
    /// battlefront-2013: the activating unit's roll to remove its Under Fire or Suppressed
    /// token (002, R704).
    SuppressionRoll,
    /// battlefront-2013: where the orders of a unit that stayed Suppressed stop (R704).
    SuppressionCut,
    /// battlefront-2013, 002 "Spy": the unplaced Spy's two dice, placing it on `at` (R765).
    Spy {
        at: Square,
    },
    /// battlefront-2013, 002 "Spy": where the Spy's orders stop on one army symbol (R660).
    SpyCut,
    /// battlefront-2013, 002 "Air Alert": the activating vehicle's die against the enemy
    /// aircraft `target` (R663).
    AirAlert {
        target: String,
    },
    /// battlefront-2013, 002 "Medevac": the activating vehicle's dice for the squad `target`
    /// (R665).
    Medevac {
        target: String,
    },
    /// battlefront-2013, 002 "Smoke Launchers": smoke on the activating vehicle's square (R666).
    SmokeLaunchers,
}

/// One weapon line fired by `shooter` (the unit whose card carries it) at `target`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineOrder {
    pub shooter: String,
    pub weapon: String,
    pub target: Target,
    #[serde(default)]
    pub through: Vec<Square>,
    /// The declared count of a limited-ammo line (R414); absent fires all it may, and keeps
    /// older ledgers' lines as they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// battlefront-2013 from revision 10: the soldiers of the squad this line was given, each
    /// firing one weapon an Attack (003 "Soldiers with Several Weapons", R677); absent fires
    /// all its carriers, as older ledgers' lines did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soldiers: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    Unit { unit: String },
    Model { unit: String, model: String },
    Square { at: Square },
}

impl State {
    /// Whether the game was made under rules revision `r` or later (`rules::RULES_REVISION`):
    /// a ruling that mends a rule acts only in games made after it.
    pub fn revised(&self, r: u32) -> bool {
        self.rules_revision >= r
    }

    /// The policies of the game's ruleset. Setup refuses unknown ids, so a state always names
    /// a known one; `ffg-revised` stands in otherwise.
    pub fn rules(&self) -> Rules {
        Rules::for_id(&self.ruleset).unwrap_or_default()
    }
    pub fn unit(&self, id: &str) -> Option<&UnitState> {
        self.units.iter().find(|u| u.id.eq_ignore_ascii_case(id))
    }
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut UnitState> {
        self.units
            .iter_mut()
            .find(|u| u.id.eq_ignore_ascii_case(id))
    }
    pub fn card_of(&self, u: &UnitState) -> Option<&Card> {
        self.cards.get(&u.card)
    }
    /// Side ids in scenario order.
    pub fn sides(&self) -> Vec<String> {
        self.scenario.sides.iter().map(|s| s.id.clone()).collect()
    }
    /// The hero joined to squad `id`, if any (a vehicle's pilot is not: [`State::pilot_of`]; a
    /// Commissar "does not count as a hero", 004 "Commissar", R478).
    pub fn hero_of(&self, id: &str) -> Option<&UnitState> {
        self.joined_of(id)
            .into_iter()
            .find(|u| !self.is_commissar(u))
    }
    /// Every unit joined to squad `id` and alive, in scenario order: its hero and its Commissar
    /// (004 "Commissar": "a hero may also join the same unit", R478). Not a vehicle's pilot.
    pub fn joined_of(&self, id: &str) -> Vec<&UnitState> {
        self.units
            .iter()
            .filter(|u| !u.destroyed && u.joined.as_deref() == Some(id) && !self.is_pilot(u))
            .collect()
    }
    /// Whether `u` is an individual Commissar (R479).
    pub fn is_commissar(&self, u: &UnitState) -> bool {
        self.cards.get(&u.card).is_some_and(commissar_card)
    }
    /// The hero piloting vehicle `id`, if any (004 "Pilot: Name", 003 "Piloting Vehicles").
    pub fn pilot_of(&self, id: &str) -> Option<&UnitState> {
        self.units
            .iter()
            .find(|u| !u.destroyed && u.joined.as_deref() == Some(id) && self.is_pilot(u))
    }
    /// The vehicle `u` is inside: the one it rides in (004 "Carry Capacity") or pilots (004
    /// "Pilot: Name"); both leave it by `move exit` (R544).
    pub fn inside_of<'a>(&self, u: &'a UnitState) -> Option<&'a str> {
        u.aboard
            .as_deref()
            // 004 R544: a pilot is inside his vehicle; under 003 he stands in its square (R607).
            .or_else(|| {
                u.joined
                    .as_deref()
                    .filter(|_| self.is_pilot(u) && !self.rules().battlefront())
            })
    }
    /// Whether `u` is a hero piloting a vehicle: joined to a unit whose card is a vehicle.
    pub fn is_pilot(&self, u: &UnitState) -> bool {
        u.joined
            .as_deref()
            .and_then(|j| self.unit(j))
            .and_then(|v| self.cards.get(&v.card))
            .is_some_and(|c| c.unit_type == super::model::UnitType::Vehicle)
    }
}

/// An individual Commissar: a hero-type card with the skill (R479). A squad with it is "a full
/// unit of Commissars", which an individual Commissar may still join.
pub fn commissar_card(c: &Card) -> bool {
    c.unit_type == super::model::UnitType::Hero && c.has(super::skill::Skill::Commissar)
}
