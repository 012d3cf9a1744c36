//! Issue 18: the ruleset `battlefront-2013`, Dust Tactics as the 2013 Battlefront rulebook (seed
//! 003, special rules 002) plays it; first slice. Each rule test is named after 003's section
//! and quotes its sentence; the worked examples of 003 are played with scripted dice through the
//! engine's attack resolution.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::dice::{self, ClassicFace, RollKind, Symbol};
use dustmail::dust_tactics::bot::{Bot, Style};
use dustmail::dust_tactics::combat::{resolve_line_under, FireOptions, TargetProfile};
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::rules::Rules;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, Line, ScriptedDice, Sender};
use std::path::Path;

/// `dustmail new` of `scenario` under `ruleset` in a fresh home.
fn new_game(root: &Path, ruleset: &str, scenario: &str) -> std::process::Output {
    dt::init_home(root, "file");
    let args = [
        "--ruleset",
        ruleset,
        "--scenario",
        scenario,
        "--id",
        "g-bf",
        "--now",
        dt::T0,
    ];
    dt::new_with_players(root, &args, &dt::players(7))
}

// ---------------------------------------------------------------------------------------------
// Step 1: the ruleset offered and recorded; the three-symbol dice
// ---------------------------------------------------------------------------------------------

// issue 18 item 1: `new --ruleset battlefront-2013` records the ruleset in the created line and
// gets the 003 starter cards only; replay and audit pass.
#[test]
fn battlefront_new_records_the_ruleset_and_replay_and_audit_pass() {
    let dir = tempfile::tempdir().unwrap();
    let o = new_game(dir.path(), "battlefront-2013", "encounter");
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let log = dir.path().join("games/g-bf/log.jsonl");
    let first = std::fs::read_to_string(&log).unwrap();
    let created: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(created["kind"], "created");
    assert_eq!(created["ruleset"], "battlefront-2013");
    assert_eq!(created["setup"]["ruleset"], "battlefront-2013");
    let cards = created["setup"]["cards"].as_object().unwrap();
    assert!(cards.contains_key("bf-ludwig.toml"), "{cards:?}");
    assert!(cards.keys().all(|k| k.starts_with("bf-")), "{cards:?}");
    let o = dt::dustmail(dir.path(), &["replay", "g-bf"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = dt::dustmail(dir.path(), &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

// issue 18 item 1: a scenario written for the FFG charts is refused at `new` with what to do,
// and no game is made; the encounter scenario does not suit the other rulesets.
#[test]
fn battlefront_new_refuses_a_scenario_that_does_not_suit_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = new_game(dir.path(), "battlefront-2013", "skirmish");
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains("scenario `skirmish` does not suit ruleset battlefront-2013")
            && out.contains("--scenario encounter"),
        "{out}"
    );
    assert!(!dir.path().join("games/g-bf").exists(), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let o = new_game(dir.path(), "ffg-revised", "encounter");
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("--ruleset battlefront-2013"), "{out}");
}

// issue 18 item 1, 003 "Dust Dice": "Each die has two sides showing an army symbol ..., two
// sides showing a target symbol, and two sides showing a shield symbol."
#[test]
fn s003_dust_dice_each_symbol_on_two_faces_of_the_seeded_d6() {
    let faces: Vec<Symbol> = (1..=6).map(Symbol::of_face).collect();
    use Symbol::*;
    assert_eq!(faces, vec![Army, Army, Target, Target, Shield, Shield]);
}

// issue 18 item 1, 003 "Dust Dice": "Most of the time ... count those dice showing the army
// symbol"; "for easier tasks, you will be asked to count the number of target symbols (when you
// are trying to hit something) or the number of shield symbols (when you are trying to save
// something) as well". Digest §1.3's table, roll by roll.
#[test]
fn s003_dust_dice_successes_per_roll_as_the_digest_table_says() {
    use RollKind::*;
    use Symbol::*;
    let table = [
        (ToHit, vec![Army]),
        (ToHitFightingSpirit, vec![Army, Target]),
        (LaserChain, vec![Army]),
        (InfantryCoverSave, vec![Army, Shield]),
        (VehicleCoverSave, vec![Army]),
        (InfantrySave, vec![Army]),
        (DamageResilient, vec![Army]),
        (Initiative, vec![Army]),
    ];
    for (kind, wins) in table {
        let got: Vec<Symbol> = [Army, Target, Shield]
            .into_iter()
            .filter(|s| kind.succeeds(*s))
            .collect();
        assert_eq!(got, wins, "{kind:?}");
    }
}

// issue 18 item 1, 003 "Classic Dust Dice": "any time that the rules require you to roll your
// army symbol, count the target symbol as successes. When the rules count both the army symbol
// and another symbol as a success, count [the other faces] as successes" (R231).
#[test]
fn s003_classic_dust_dice_conversion() {
    assert!(dice::classic_succeeds(RollKind::ToHit, ClassicFace::Hit));
    assert!(!dice::classic_succeeds(RollKind::ToHit, ClassicFace::Blank));
    assert!(dice::classic_succeeds(
        RollKind::InfantryCoverSave,
        ClassicFace::Blank
    ));
    assert!(!dice::classic_succeeds(
        RollKind::InfantryCoverSave,
        ClassicFace::Hit
    ));
    // The odds stay those of the Dust die: 2 faces in 6 for one symbol, 4 in 6 for two.
    let classic = |k: RollKind| {
        let faces = [ClassicFace::Hit; 2]
            .into_iter()
            .chain([ClassicFace::Blank; 4]);
        faces.filter(|f| dice::classic_succeeds(k, *f)).count()
    };
    assert_eq!(classic(RollKind::ToHit), 2);
    assert_eq!(classic(RollKind::ToHitFightingSpirit), 4);
}

// issue 18 item 1, 003 "Roll for Initiative": "each side rolls three dice. The side that rolls
// the most [army] symbols wins the initiative and chooses which player goes first. In case of a
// tie, the player with the most [target] symbols wins the initiative (R232). If it is still a
// tie, both players re-roll all of their dice."
#[test]
fn s003_roll_for_initiative_most_army_then_most_target_then_reroll() {
    let new_state = || {
        let s = scenario(
            vec![unit("ours", "sq", Some("E5"))],
            vec![unit("theirs", "sq", Some("E2"))],
        );
        DustTactics
            .start("battlefront-2013", s, vec![squad("sq")])
            .expect("setup")
    };
    let first = |st: &mut State, faces: Vec<u8>| {
        let mut d = ScriptedDice::new(faces);
        let c = dustmail::dust_tactics::orders::Command::First {
            side: "allies".into(),
        };
        let out = cmd(st, "allies", c, &mut d);
        assert_eq!(d.remaining(), 0, "{}", texts(&out));
        texts(&out)
    };
    // One army symbol each; allies 2 targets against 1: allies win without a re-roll.
    let mut st = new_state();
    let t = first(&mut st, vec![1, 3, 3, 2, 4, 5]);
    assert_eq!(st.initiative.as_deref(), Some("allies"), "{t}");
    assert!(
        t.contains("allies 1 army and 2 target symbol(s) on 3 dice"),
        "{t}"
    );
    // Army and target symbols tied: both re-roll; axis then rolls more army symbols.
    let mut st = new_state();
    let t = first(&mut st, vec![1, 3, 5, 2, 4, 6, 1, 5, 5, 1, 2, 6]);
    assert_eq!(st.initiative.as_deref(), Some("axis"), "{t}");
    assert!(t.contains("tie, re-roll"), "{t}");
}

// ---------------------------------------------------------------------------------------------
// Step 3: 003 "Roll Saves" and "Suffer Damage", worked examples with scripted dice
// ---------------------------------------------------------------------------------------------

pub(super) fn bf() -> Rules {
    Rules::battlefront_2013()
}

pub(super) fn line(id: &str, x: u8, d: u8, traits: Vec<WeaponTrait>) -> WeaponLine {
    WeaponLine {
        traits,
        ..weapon(id, WeaponRange::Upto(8), x, d)
    }
}

pub(super) fn target(
    unit_type: UnitType,
    models: u32,
    remaining: u32,
    cover: Cover,
) -> TargetProfile {
    TargetProfile {
        armour: match unit_type {
            UnitType::Vehicle => Armour::Vehicle(4),
            _ => Armour::Soldier(2),
        },
        unit_type,
        models,
        remaining,
        cover,
        soft_save: Save::None,
        hard_save: Save::None,
        damage_resilient: false,
        bf: Default::default(),
    }
}

pub(super) fn opts(carriers: u32, sustained: bool) -> FireOptions {
    FireOptions {
        carriers,
        sustained,
        ..FireOptions::default()
    }
}

// issue 18 item 3, 003 "Sustained Attack": "It hits with two rolls of [army], and misses with
// two [target], and three [shield]. As it is performing a Sustained Attack, it can re-roll the
// five dice that did not hit. The re-rolls are one [army] (another hit), two [target], and two
// [shield], so the Ludwig scores three hits in total." Grand'ma is not in cover: no save.
#[test]
fn s003_sustained_attack_ludwig_example() {
    let fpk = line("fpk", 7, 1, vec![]);
    let grandma = target(UnitType::Vehicle, 1, 5, Cover::None);
    let mut d = ScriptedDice::new([1, 2, 3, 4, 5, 6, 5, 1, 3, 4, 5, 6]);
    let o = resolve_line_under(bf(), &fpk, &grandma, &opts(1, true), 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((o.hits, o.saved, o.damage), (3, 0, 3), "{}", o.summary);
}

// issue 18 item 3, 003 "Laser Weapons": "When a Laser Weapon scores a hit, roll another die
// scoring a further hit on a roll of [army]. Continue scoring hits and rolling additional dice for
// each hit until it rolls a miss." Example: the three Schwere Laserwerfers "roll a [army] and two
// [misses], scoring one hit. As they are making a Sustained Attack, they re-roll their misses,
// ... scoring a second hit. ... the player now rolls two more dice for the two hits, scoring
// another [army] and a [miss]. They roll another die for that hit, scoring a [miss]. ... a total
// of three hits." The engine rolls each chain right after the roll that hit, so the same dice
// come in that order; the chain dice themselves are not re-rolled. (A target with 10 damage
// left: against the 4-cross Pounder the engine stops rolling once the hits destroy it, R31.)
#[test]
fn s003_laser_weapons_heavy_laser_grenadiers_example() {
    let laser = line("laserwerfer", 1, 3, vec![WeaponTrait::Laser]);
    let pounder = target(UnitType::Vehicle, 1, 10, Cover::None);
    // attack 3 dice; chain of the first hit (army, miss); re-roll of the 2 misses; its chain.
    let mut d = ScriptedDice::new([1, 3, 5, 1, 4, 2, 6, 5]);
    let o = resolve_line_under(bf(), &laser, &pounder, &opts(3, true), 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!(o.hits, 3, "{}", o.summary);
}

// issue 18 item 3, 003 "Cover Saves": "If the target unit was a Vehicle unit in Cover, the
// target player rolls a die for each hit ... Each [army] cancels one of the hits." Example: "The
// Ludwig hits the Pounder twice ... rolls one die per hit, scoring a [army] and a [other]. The
// [army] cancels a hit on a vehicle in cover, so the Pounder is only hit once."
#[test]
fn s003_cover_saves_vehicle_in_cover_pounder_example() {
    let fpk = line("fpk", 2, 1, vec![]);
    let pounder = target(UnitType::Vehicle, 1, 4, Cover::Soft);
    let mut d = ScriptedDice::new([1, 2, 1, 3]);
    let o = resolve_line_under(bf(), &fpk, &pounder, &opts(1, false), 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((o.hits, o.saved, o.damage), (2, 1, 1), "{}", o.summary);
    assert!(
        o.summary.contains("1 cancelled by vehicle cover save"),
        "{}",
        o.summary
    );
    // A shield does not save a vehicle (the vehicle cover save counts the army symbol only).
    let mut d = ScriptedDice::new([1, 2, 5, 6]);
    let o = resolve_line_under(bf(), &fpk, &pounder, &opts(1, false), 1, &mut d);
    assert_eq!((o.hits, o.saved, o.damage), (2, 0, 2), "{}", o.summary);
}

// issue 18 item 3, 003 "Cover Saves": "If the target unit was an Infantry unit in Cover, the
// target player rolls a die for each hit ... Each [army] or [shield] cancels one of the hits."
// Example: "The Ludwig also hits Bazooka Joe three times with its MG 44 machine-gun, so the
// Allied player rolls three dice ... As Bazooka Joe is in cover, they cancel two of the hits,
// leaving one hit on Bazooka Joe."
#[test]
fn s003_cover_saves_infantry_in_cover_bazooka_joe_example() {
    let mg44 = line("mg44", 3, 1, vec![]);
    let joe = target(UnitType::Hero, 1, 3, Cover::Soft);
    let mut d = ScriptedDice::new([1, 1, 2, 1, 5, 3]);
    let o = resolve_line_under(bf(), &mg44, &joe, &opts(1, false), 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((o.hits, o.saved, o.damage), (3, 2, 1), "{}", o.summary);
}

// issue 18 item 3, 003 "Infantry Saves": "If the target unit was an Infantry unit that does not
// get a Cover Save, it still gets an Infantry Save. ... Each [army] cancels one of the hits."
// Example: the Bot Hunters "would not have been in cover ... However, infantry units that aren't
// in cover still save on a roll of [army]. With rolls of [army], [target], and [shield], they
// would cancel one of the hits, leaving two hits on the Bot Hunters." 003 "Suffer Damage": "Each
// hit on an Infantry Squad eliminates one miniature."
#[test]
fn s003_infantry_saves_in_the_open_bot_hunters_example() {
    let mg44 = line("mg44", 3, 1, vec![]);
    let bots = target(UnitType::Squad, 5, 5, Cover::None);
    let mut d = ScriptedDice::new([1, 1, 2, 1, 3, 5]);
    let o = resolve_line_under(bf(), &mg44, &bots, &opts(1, false), 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((o.hits, o.saved, o.damage), (3, 1, 2), "{}", o.summary);
    assert!(
        o.summary.contains("1 cancelled by infantry save"),
        "{}",
        o.summary
    );
    assert!(
        o.summary.contains("2 models lost (one per hit)"),
        "{}",
        o.summary
    );
}

// issue 18 item 3, 003 "Suffer Damage": "Each hit on an Infantry Squad eliminates one
// miniature", whatever the damage after the slash: two unsaved Panzerfaust hits (1/2) kill two
// soldiers, not four.
#[test]
fn s003_suffer_damage_one_miniature_per_hit_excess_wasted() {
    let panzerfaust = line("panzerfaust", 1, 2, vec![]);
    let squad = target(UnitType::Squad, 5, 5, Cover::None);
    let mut d = ScriptedDice::new([1, 2, 3, 6]);
    let o = resolve_line_under(bf(), &panzerfaust, &squad, &opts(2, false), 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((o.hits, o.saved, o.damage), (2, 0, 2), "{}", o.summary);
}

// issue 18 item 3, 003 "Damage Resilient" example: "The Heavy Laser Grenadiers then fire at
// Grand'ma, scoring two hits. As Grand'ma is not in cover, the walker does not have any save ...
// they mark off three crosses ... roll three dice ..., failing to cancel any of the damage. ...
// the second hit ... marking off the two remaining crosses (the third point of damage is overkill
// and has no effect). They then roll two more dice ..., scoring a [army] and a [other]. The
// [army] cancels one point of damage leaving one cross unmarked."
#[test]
fn s003_damage_resilient_grandma_example() {
    let laser = line("laserwerfer", 1, 3, vec![WeaponTrait::Laser]);
    let grandma = TargetProfile {
        damage_resilient: true,
        bf: Default::default(),
        ..target(UnitType::Vehicle, 1, 5, Cover::None)
    };
    // 3 laser dice: two hits; each hit's chain die misses; DR 3 dice then 2 dice.
    let mut d = ScriptedDice::new([1, 1, 3, 3, 4, 3, 3, 5, 1, 5]);
    let o = resolve_line_under(bf(), &laser, &grandma, &opts(3, false), 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((o.hits, o.saved, o.damage), (2, 0, 4), "{}", o.summary);
    assert_eq!(5 - o.damage, 1, "one cross left unmarked");
}

// issue 18 item 3, 003 "No Saves Against Close-Combat Weapons": "Units hit by Close-Combat
// Weapons do not get any Cover or Infantry Saves"; "Spray Weapons": "Units hit by Spray Weapons
// do not get an Infantry Save or a Cover Save"; "Grenade Weapons": units hit "do not get a Cover
// Save against those weapons, but do retain their Infantry Save".
#[test]
fn s003_no_saves_against_close_combat_and_spray_infantry_save_against_grenades() {
    use dustmail::dust_tactics::battlefront::attack::save_kind;
    let in_cover = target(UnitType::Squad, 5, 5, Cover::Soft);
    let close = WeaponLine {
        range: WeaponRange::Close,
        ..line("knife", 1, 1, vec![])
    };
    assert_eq!(save_kind(&close, &in_cover), None);
    let spray = line("flamer", 1, 1, vec![WeaponTrait::Flamethrower]);
    assert_eq!(save_kind(&spray, &in_cover), None);
    let grenade = line("m7", 1, 1, vec![WeaponTrait::GrenadeLauncher]);
    assert_eq!(save_kind(&grenade, &in_cover), Some(RollKind::InfantrySave));
    let rifle = line("rifle", 1, 1, vec![]);
    assert_eq!(
        save_kind(&rifle, &in_cover),
        Some(RollKind::InfantryCoverSave)
    );
    // A vehicle in the open has none: "Vehicle not in cover: no save".
    let vehicle = target(UnitType::Vehicle, 1, 4, Cover::None);
    assert_eq!(save_kind(&rifle, &vehicle), None);
}

/// A gun vehicle (allies, E5) shooting at `target_card`'s unit `target` on rubble at E2.
fn rubble_shot(target_card: Card, faces: Vec<u8>) -> (State, String) {
    let gunner = card(
        "gunner",
        UnitType::Vehicle,
        3,
        1,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("gunner", "gunner", Some("E5"))],
        vec![unit("target", &target_card.id, Some("E2"))],
    );
    s.board.set_terrain(sq("E2"), Terrain::Rubble);
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![gunner, target_card])
        .expect("setup");
    begin(&mut st, "allies");
    let lines: Vec<Line> = ["activate gunner", "  attack gun at target", "  nothing"]
        .iter()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect();
    let mut d = ScriptedDice::new(faces);
    let out = DustTactics.submit(&mut st, Sender::side("allies"), &lines, &mut d);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(
        matches!(out.results[0].outcome, CommandOutcome::Accepted { .. }),
        "{:?}",
        out.results
    );
    (st, texts(&out))
}

// issue 18 item 3, 003 "Cover Saves": "An Infantry unit is also in Cover if it occupies a square
// with ammo crates, anti-tank traps, trees, rubble, buildings, or smoke" (R235): infantry on
// rubble roll the infantry cover save (army or shield); a vehicle on rubble seen in the open gets
// no save at all ("Vehicle not in cover").
#[test]
fn s003_cover_saves_only_infantry_take_cover_from_their_own_square() {
    // The squad on rubble: 1 hit, a shield saves it.
    let (st, t) = rubble_shot(squad("sq"), vec![1, 5]);
    assert!(t.contains("1 cancelled by infantry cover save"), "{t}");
    assert_eq!(u(&st, "target").models.len(), 4, "{t}");
    // The vehicle on rubble: 1 hit, no save die, 1 damage.
    let walker = card("walker", UnitType::Vehicle, 3, 1, vec![]);
    let (st, t) = rubble_shot(walker, vec![1]);
    assert!(t.contains("1 hit, no save, 1 damage"), "{t}");
    assert_eq!(u(&st, "target").health, 2, "{t}");
}

// ---------------------------------------------------------------------------------------------
// Actions: March Move, Fast, diagonals, Nothing (003 "Actions", "Movement")
// ---------------------------------------------------------------------------------------------

/// The 003 starter card `id` (games/dust-tactics/cards-battlefront/).
fn bf_card(id: &str) -> Card {
    let file = format!("{id}.toml");
    let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == file)
        .expect("battlefront card");
    dustmail::dust_tactics::cards::parse_card(&file, text).expect("card parses")
}

/// The Fakyeli (allies here) at E5 and Red Thunder (axis) at `thunder`, allies first.
fn fakyeli_game_with(thunder: &str) -> State {
    let s = scenario(
        vec![unit("fakyeli", "bf-fakyeli", Some("E5"))],
        vec![unit("thunder", "bf-red-thunder", Some(thunder))],
    );
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            s,
            vec![bf_card("bf-fakyeli"), bf_card("bf-red-thunder")],
        )
        .expect("setup");
    begin(&mut st, "allies");
    st
}

/// [`fakyeli_game_with`] Red Thunder far away at A1.
fn fakyeli_game() -> State {
    fakyeli_game_with("A1")
}

fn first_outcome(st: &mut State, text: &str) -> CommandOutcome {
    submit(st, "allies", text).remove(0)
}

// issue 18 item 3, 003 "Fast": "A unit with the Fast special rule ... may move one additional
// square when it performs a Move or March Move action"; 003 "Movement" example: "Fakyeli with
// Move 1 move 2 with a Move and 3 with a March Move". 003 "Actions": two Move actions are taken
// as one March Move, "Move rating doubled".
#[test]
fn s003_march_move_and_fast_fakyeli_example() {
    for (orders, ok) in [
        ("activate fakyeli\n  move E3\n  nothing", true),
        ("activate fakyeli\n  move E2\n  nothing", false),
        ("activate fakyeli\n  move E4\n  move E2", true),
        ("activate fakyeli\n  move E4\n  move E1", false),
    ] {
        let mut st = fakyeli_game();
        let o = first_outcome(&mut st, orders);
        assert_eq!(
            matches!(o, CommandOutcome::Accepted { .. }),
            ok,
            "{orders}: {o:?}"
        );
        let at = u(&st, "fakyeli").at.map(|s| s.to_string());
        if ok {
            assert_ne!(at.as_deref(), Some("E5"), "{orders}");
        } else {
            assert_eq!(
                at.as_deref(),
                Some("E5"),
                "{orders}: a refusal changes nothing"
            );
        }
    }
}

// issue 18 item 3, 003 "Moving Diagonally": the first diagonal step in an activation costs 1,
// each later one 2, counted across a March Move: the Fakyeli (2 squares a Move, 3 a March Move)
// cannot make two diagonal steps in one Move (1 + 2 = 3) but can in a March Move.
#[test]
fn s003_second_diagonal_costs_two() {
    let mut st = fakyeli_game();
    let o = first_outcome(&mut st, "activate fakyeli\n  move G3\n  nothing");
    assert!(matches!(o, CommandOutcome::Refused { .. }), "{o:?}");
    let mut st = fakyeli_game();
    let o = first_outcome(&mut st, "activate fakyeli\n  move F4\n  move G3");
    assert!(matches!(o, CommandOutcome::Accepted { .. }), "{o:?}");
    assert_eq!(
        u(&st, "fakyeli").at.map(|s| s.to_string()).as_deref(),
        Some("G3")
    );
}

// issue 18 item 3, 003 "Nothing": "A unit may spend an action doing nothing"; 003 "Actions":
// "two Attack actions" must be taken as one Sustained Attack.
#[test]
fn s003_nothing_action_and_two_attacks_are_a_sustained_attack() {
    let mut st = fakyeli_game();
    let o = first_outcome(&mut st, "activate fakyeli\n  nothing\n  nothing");
    assert!(matches!(o, CommandOutcome::Accepted { .. }), "{o:?}");
    assert!(u(&st, "fakyeli").activated);
    let mut st = fakyeli_game_with("D4");
    let o = first_outcome(
        &mut st,
        "activate fakyeli\n  attack shotguns at thunder\n  attack shotguns at thunder",
    );
    let CommandOutcome::Refused { reason, .. } = o else {
        panic!("{o:?}");
    };
    assert!(reason.contains("SUSTAINED ATTACK"), "{reason}");
}

// ---------------------------------------------------------------------------------------------
// What is not built yet is refused, per order, changing nothing
// ---------------------------------------------------------------------------------------------

/// Allies squad `ours` at E5, axis squad `theirs` at E2, under battlefront-2013; allies first.
fn duel() -> State {
    let s = scenario(
        vec![unit("ours", "sq", Some("E5"))],
        vec![unit("theirs", "sq", Some("E2"))],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    st
}

fn submit(st: &mut State, side: &str, text: &str) -> Vec<CommandOutcome> {
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.into(),
        })
        .collect();
    let mut d = ScriptedDice::new([]);
    let out = DustTactics.submit(st, Sender::side(side), &lines, &mut d);
    out.results.into_iter().map(|r| r.outcome).collect()
}

// issue 18: skills (002) not built yet are refused with "not implemented yet under
// battlefront-2013", and the state is unchanged. (Reactive attacks are built since the second
// slice: tests/it/rules/battlefront_react.rs; Fighting Spirit since the third, Cheat Death since
// battlefront_skills.rs, Black Ops and Advanced Reactive Fire since R712 and R715, Commissar
// since R705, so 004's Assault, which 002 does not have, is the unbuilt skill here.)
#[test]
fn battlefront_unbuilt_rules_are_refused_not_played_by_another_rulebook() {
    let mut st = duel();
    let before = serde_json::to_string(&st).unwrap();
    let (side, text, rule) = (
        "allies",
        "activate ours\n  skill assault\n  attack gun at theirs",
        "002",
    );
    let outs = submit(&mut st, side, text);
    let CommandOutcome::Refused {
        reason, rule: r, ..
    } = &outs[0]
    else {
        panic!("{text}: {outs:?}");
    };
    assert!(
        reason.contains("not implemented yet under battlefront-2013"),
        "{text}: {reason}"
    );
    assert!(r.contains(rule), "{text}: {r}");
    assert_eq!(serde_json::to_string(&st).unwrap(), before, "{text}");
}

// ---------------------------------------------------------------------------------------------
// 003 "Passing"
// ---------------------------------------------------------------------------------------------

/// Allies `alpha` and `bravo` against axis `xray` under `ruleset`, axis choosing to go first.
fn passing_game(ruleset: &str) -> State {
    let s = scenario(
        vec![
            unit("alpha", "sq", Some("B8")),
            unit("bravo", "sq", Some("H8")),
        ],
        vec![unit("xray", "sq", Some("E1"))],
    );
    let mut st = DustTactics
        .start(ruleset, s, vec![squad("sq")])
        .expect("setup");
    begin(&mut st, "axis");
    st
}

fn refusal(outs: &[CommandOutcome]) -> String {
    match &outs[0] {
        CommandOutcome::Refused { reason, rule, .. } => format!("{reason} | {rule}"),
        o => panic!("expected a refusal: {o:?}"),
    }
}

// issue 18 item 3, 003 "Passing": "A player may pass instead of activating a unit if they have
// fewer units still to activate than their opponent." Example: "Axis has 1 unit left and Allies
// have 2, so Axis may pass. Allies then cannot pass (2 vs 1). After the Allies activate (1 vs 1),
// Axis must activate." A refused pass changes nothing.
#[test]
fn s003_passing_example() {
    let mut st = passing_game("battlefront-2013");
    assert_eq!(st.next_side.as_deref(), Some("axis"));
    // The template offers the pass (and cites 003's March Move, not 000's double move).
    let t = DustTactics.orders_template(&st, "axis");
    assert!(
        t.contains("#   pass\n") && t.contains("003: `move` + `move`"),
        "{t}"
    );
    assert!(!t.contains("000:"), "{t}");
    let outs = submit(&mut st, "axis", "pass");
    assert!(
        matches!(outs[0], CommandOutcome::Accepted { .. }),
        "{outs:?}"
    );
    assert_eq!(st.next_side.as_deref(), Some("allies"));
    assert!(!u(&st, "xray").activated);
    // Allies have more units to activate: no pass.
    let before = serde_json::to_string(&st).unwrap();
    let r = refusal(&submit(&mut st, "allies", "pass"));
    assert!(
        r.contains("allies has 2 unit(s) still to activate and axis 1")
            && r.contains("003 \"Passing\""),
        "{r}"
    );
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
    assert!(!DustTactics
        .orders_template(&st, "allies")
        .contains("#   pass"));
    let outs = submit(&mut st, "allies", "activate alpha\n  nothing\n  nothing");
    assert!(
        matches!(outs[0], CommandOutcome::Accepted { .. }),
        "{outs:?}"
    );
    // 1 against 1: axis must activate.
    assert_eq!(st.next_side.as_deref(), Some("axis"));
    let r = refusal(&submit(&mut st, "axis", "pass"));
    assert!(
        r.contains("axis has 1 unit(s) still to activate and allies 1"),
        "{r}"
    );
    let outs = submit(&mut st, "axis", "activate xray\n  nothing\n  nothing");
    assert!(
        matches!(outs[0], CommandOutcome::Accepted { .. }),
        "{outs:?}"
    );
}

// issue 18: `pass` is a 003 rule; a game under ffg-revised refuses it, as before, and is
// unchanged, even before round 1's initiative is rolled.
#[test]
fn passing_is_refused_under_ffg_revised() {
    let mut st = passing_game("ffg-revised");
    let before = serde_json::to_string(&st).unwrap();
    let r = refusal(&submit(&mut st, "axis", "pass"));
    assert!(
        r.contains("`pass` belongs to the battlefront-2013 rules"),
        "{r}"
    );
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
    // Before round 1's initiative is rolled: refused with no die rolled (`submit` scripts none,
    // so a roll would fail the test).
    let s = scenario(
        vec![unit("alpha", "sq", Some("B8"))],
        vec![unit("xray", "sq", Some("E1"))],
    );
    let mut st = DustTactics
        .start("ffg-revised", s, vec![squad("sq")])
        .expect("setup");
    let before = serde_json::to_string(&st).unwrap();
    let r = refusal(&submit(&mut st, "axis", "pass"));
    assert!(
        r.contains("`pass` belongs to the battlefront-2013 rules"),
        "{r}"
    );
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
}

// ---------------------------------------------------------------------------------------------
// Step 4: a whole game
// ---------------------------------------------------------------------------------------------

/// SplitMix64 dice, so the games are the same on every machine.
struct Rng(u64);

impl dustmail::game::DiceSource for Rng {
    fn d6(&mut self, _round: u32) -> u8 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % 6) as u8 + 1
    }
}

/// Plays shipped scenario `name` under battlefront-2013 to its end with two bots sending the
/// text a player would sign, asking for every decision; every command must be accepted.
fn play_battlefront(name: &str, text: &str, style: impl Fn(usize) -> Style, seed: u64) -> State {
    let setup = dustmail::game::Setup {
        ruleset: "battlefront-2013".into(),
        scenario_name: name.into(),
        scenario: text.into(),
        cards: dustmail::dust_tactics::battlefront::cards::builtin()
            .into_iter()
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .collect(),
        sides: vec![],
        rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
    };
    let mut st = DustTactics.setup(&setup).expect("sets up");
    let mut bots: Vec<Bot> = st
        .sides()
        .iter()
        .enumerate()
        .map(|(i, s)| Bot::new(s, style(i)))
        .collect();
    for b in bots.iter_mut() {
        b.set_standing(
            "standing first ask\nstanding casualties any ask\nstanding retaliate any ask",
        );
    }
    let mut dice = Rng(seed);
    for _ in 0..3000 {
        if st.result.is_some() {
            break;
        }
        let awaited = DustTactics.awaiting(&st);
        let b = bots
            .iter_mut()
            .find(|b| awaited.iter().any(|a| a.side == b.side))
            .unwrap_or_else(|| panic!("{name}: nobody can answer {awaited:?}"));
        let orders = b.orders(&st).expect("the bot answers");
        let lines: Vec<Line> = orders
            .lines()
            .enumerate()
            .map(|(i, t)| Line {
                number: i + 1,
                text: t.into(),
            })
            .collect();
        let out = DustTactics.submit(&mut st, Sender::side(&b.side), &lines, &mut dice);
        for r in &out.results {
            assert!(
                matches!(r.outcome, CommandOutcome::Accepted { .. }),
                "{name} seed {seed}: {orders}\n{:?}",
                r.outcome
            );
        }
    }
    assert!(st.result.is_some(), "{name} seed {seed} did not end");
    assert!(st.round <= st.scenario.rounds);
    st
}

// issue 18 item 4 ("two players can play each 003 scenario with each starter force by mail to its
// end"): every shipped battlefront-2013 scenario (the three starter forces between them), played
// by the bundled bots to its end, aggressive and random.
#[test]
fn battlefront_every_scenario_plays_to_its_end_with_each_starter_force() {
    let mut played = vec![];
    let mut forces = std::collections::BTreeSet::new();
    for (name, text) in dustmail::dust_tactics::scenario::builtin() {
        let s = dustmail::dust_tactics::scenario::parse(name, text).unwrap();
        if !s.rulesets.iter().any(|r| r == "battlefront-2013") {
            continue;
        }
        for side in &s.sides {
            forces.insert(side.name.clone());
        }
        play_battlefront(name, text, |_| Style::Aggressive, 11);
        for seed in 1..=2u64 {
            play_battlefront(name, text, |i| Style::Random(seed * 31 + i as u64), seed);
        }
        played.push(name);
    }
    assert_eq!(
        played,
        [
            "encounter",
            "encounter-koshka",
            "strongpoint",
            "wire-and-mines",
            "grab-the-dust",
            "bait-and-flank",
            "supply-drop",
            "all-out-attack",
            "village"
        ]
    );
    assert_eq!(
        forces.into_iter().collect::<Vec<_>>(),
        [
            "Allies (Taskforce Joe)",
            "Axis (Kampfgruppe Stefan)",
            "SSU (Battlegroup Koshka)"
        ]
    );
}

// issue 18 item 4: `demo --ruleset battlefront-2013` plays the encounter scenario to its end
// through the pipeline; every die in the reports shows its symbol; replay and audit pass.
#[test]
fn battlefront_demo_plays_a_whole_game_with_dice_symbols() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("demo");
    let o = dt::dustmail(&home, &["demo", "--ruleset", "battlefront-2013"]);
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("ruleset battlefront-2013, scenario encounter"),
        "{out}"
    );
    assert!(out.contains("the demo game ended"), "{out}");
    let mut mails = String::new();
    for e in std::fs::read_dir(home.join("sent")).unwrap() {
        mails.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
    }
    let flat = crate::support::flat(&mails);
    // The welcome mails say where 002's special rules are listed (rules revision 9).
    assert!(
        flat.contains("002's special rules (the other skills, special weapons")
            && !flat.contains("Not built yet")
            && flat.contains("a March Move is reacted to after its first `move`")
            && flat.contains("front-mounted weapons firing only 45 degrees either side"),
        "no first-slice note in the welcome mails"
    );
    assert!(flat.contains(" army hit]"), "no army symbol shown");
    assert!(
        flat.contains(" target miss]") || flat.contains(" shield miss]"),
        "no other symbol shown"
    );
    // No die is shown as a bare hit or miss, without its symbol.
    for f in 1..=6 {
        for bare in ["hit", "miss"] {
            assert!(!flat.contains(&format!("[{f} {bare}]")), "[{f} {bare}]");
        }
    }
    let o = dt::dustmail(&home, &["replay", "g-demo"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let log = home.join("games/g-demo/log.jsonl");
    let o = dt::dustmail(&home, &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}
