//! Issue 18: 002 "Special Weapons" under battlefront-2013 (seed 002, lines ~460–630): Grenade,
//! Phaser and Cutting weapons (R670, R671). Each test quotes 002 and plays the weapon through the
//! engine with scripted dice (faces 1–2 army, 3–4 target, 5–6 shield).

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::combat::{resolve_line_under, FireOptions, TargetProfile};
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::{Action, FireOrder, TargetRef};
use dustmail::dust_tactics::rules::Rules;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, Line, ScriptedDice, Sender};

/// A range-4 line of one die a carrier, 1 damage, with `traits`.
fn line(id: &str, traits: &[WeaponTrait]) -> WeaponLine {
    WeaponLine {
        traits: traits.to_vec(),
        ..weapon(id, WeaponRange::Upto(4), 1, 1)
    }
}

/// The allied hero `shooter` (card with `weapons`) on E5 sends `orders` (lines under
/// `activate shooter`) at the axis unit `target` (card `target_card`) on E2, which stands on
/// rubble when `rubble`; the dice are `faces`, every one of them used.
fn shoot(
    weapons: Vec<WeaponLine>,
    target_card: Card,
    rubble: bool,
    orders: &[&str],
    faces: Vec<u8>,
) -> (State, String) {
    let shooter = card("shooter", UnitType::Hero, 3, 1, weapons);
    let mut s = scenario(
        vec![unit("shooter", "shooter", Some("E5"))],
        vec![unit("target", &target_card.id, Some("E2"))],
    );
    if rubble {
        s.board.set_terrain(sq("E2"), Terrain::Rubble);
    }
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![shooter, target_card])
        .expect("setup");
    begin(&mut st, "allies");
    let lines: Vec<Line> = std::iter::once("activate shooter")
        .chain(orders.iter().copied())
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect();
    let mut d = ScriptedDice::new(faces);
    let out = DustTactics.submit(&mut st, Sender::side("allies"), &lines, &mut d);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert!(
        matches!(out.results[0].outcome, CommandOutcome::Accepted { .. }),
        "{:?}",
        out.results
    );
    (st, t)
}

/// A vehicle of vehicle armour 3 and `health`.
fn walker(health: u8) -> Card {
    card("walker", UnitType::Vehicle, health, 1, vec![])
}

// ---------------------------------------------------------------------------------------------
// Grenade and Phaser weapons (R670)
// ---------------------------------------------------------------------------------------------

// issue 18, 002 "Grenade Weapons": "Units Hit by Grenade weapons do not get a Cover Save against
// those weapons, but do retain their Infantry Save (see pages 29 and 55)." (R670: the card's
// `grenade_launcher` trait.) A squad on rubble hit once: against the grenade launcher it rolls
// the Infantry Save (army only), so its shield does not cancel the hit and a soldier falls;
// against a plain rifle the same shield is an Infantry Cover Save and cancels it.
#[test]
fn s002_special_weapons_grenade_weapons_no_cover_save_but_the_infantry_save() {
    let ugl = line("ugl", &[WeaponTrait::GrenadeLauncher]);
    let (st, t) = shoot(
        vec![ugl],
        squad("sq"),
        true,
        &["  attack ugl at target", "  nothing"],
        vec![1, 5],
    );
    assert!(t.contains("1 hit, 0 cancelled by infantry save"), "{t}");
    assert_eq!(u(&st, "target").models.len(), 3, "{t}");
    // An army on the Infantry Save still cancels the hit: the save is kept.
    let ugl = line("ugl", &[WeaponTrait::GrenadeLauncher]);
    let (st, t) = shoot(
        vec![ugl],
        squad("sq"),
        true,
        &["  attack ugl at target", "  nothing"],
        vec![1, 2],
    );
    assert!(t.contains("1 hit, 1 cancelled by infantry save"), "{t}");
    assert_eq!(u(&st, "target").models.len(), 4, "{t}");
    // The control: a rifle's hit is saved by the shield (Infantry Cover Save).
    let (st, t) = shoot(
        vec![line("rifle", &[])],
        squad("sq"),
        true,
        &["  attack rifle at target", "  nothing"],
        vec![1, 5],
    );
    assert!(t.contains("1 cancelled by infantry cover save"), "{t}");
    assert_eq!(u(&st, "target").models.len(), 4, "{t}");
}

// issue 18, 002 "Phaser Weapons": "It is impossible to build armour tough enough to stop a
// full-power phaser, and walls just melt, giving no cover at all. Units Hit by Phaser weapons do
// not get a Cover Save against those weapons, but do retain their Infantry Save (see pages 29
// and 55)." (R670: the battlefront trait `phaser`, not 004's `XxY` cell.) The squad on rubble
// rolls the Infantry Save against the phaser: a shield fails, an army cancels.
#[test]
fn s002_special_weapons_phaser_weapons_no_cover_save_but_the_infantry_save() {
    let phaser = || line("phaser", &[WeaponTrait::Phaser]);
    let orders = ["  attack phaser at target", "  nothing"];
    let (st, t) = shoot(vec![phaser()], squad("sq"), true, &orders, vec![1, 6]);
    assert!(t.contains("1 hit, 0 cancelled by infantry save"), "{t}");
    assert_eq!(u(&st, "target").models.len(), 3, "{t}");
    let (st, t) = shoot(vec![phaser()], squad("sq"), true, &orders, vec![2, 1]);
    assert!(t.contains("1 hit, 1 cancelled by infantry save"), "{t}");
    assert_eq!(u(&st, "target").models.len(), 4, "{t}");
}

// issue 18, 002 "Phaser Weapons" and "Cutting Weapons" are 002's: R670: under ffg-revised (and
// classic-2010) a card giving a weapon the trait `phaser` or `cutting` is refused at `new`,
// naming the trait, the weapon and the card, and no game is made (004's phaser is a cell `XxY`).
#[test]
fn s002_special_weapons_002s_traits_are_refused_at_new_under_the_other_rulesets() {
    for (ruleset, word) in [
        ("ffg-revised", "phaser"),
        ("classic-2010", "cutting"),
        ("ffg-revised", "grapple"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        dt::init_home(dir.path(), "file");
        let cards = dir.path().join("my-cards");
        std::fs::create_dir_all(&cards).unwrap();
        let (_, text) = dustmail::dust_tactics::cards::builtin()
            .into_iter()
            .find(|(f, _)| *f == "m2c-pounder.toml")
            .expect("the pounder");
        let mut card: toml::Table = text.parse().expect("the pounder's toml");
        let weapons = card["weapons"].as_array_mut().expect("weapons");
        let first = weapons[0].as_table_mut().expect("a weapon line");
        let id = first["id"].as_str().expect("an id").to_string();
        first.insert("traits".into(), toml::Value::Array(vec![word.into()]));
        std::fs::write(cards.join("m2c-pounder.toml"), card.to_string()).unwrap();
        let cards = cards.display().to_string();
        let args = [
            "--ruleset",
            ruleset,
            "--scenario",
            "crossroads",
            "--id",
            "g-w",
            "--now",
            dt::T0,
            "--cards",
            &cards,
        ];
        let o = dt::new_with_players(dir.path(), &args, &dt::players(7));
        let out = dt::text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}");
        assert!(
            out.contains("m2c-pounder.toml")
                && out.contains(&format!("the trait `{word}` of the weapon `{id}` is 002's"))
                && out.contains("--ruleset battlefront-2013"),
            "{out}"
        );
        assert!(!dir.path().join("games/g-w").exists(), "{out}");
    }
}

// ---------------------------------------------------------------------------------------------
// Cutting weapons (R671)
// ---------------------------------------------------------------------------------------------

// issue 18, 002 "Cutting Weapons": "When a Cutting weapon scores a Hit, roll another die scoring
// a further Hit on a roll of [army]. Continue scoring Hits and rolling an additional die for each
// Hit until it rolls a miss." (R671.) Two dice at a walker: army, shield = one hit; its chain:
// army (a further hit), target (a miss, the chain ends): two hits, two damage. The control: a
// plain saw with the same first roll does one.
#[test]
fn s002_special_weapons_cutting_weapons_each_hit_rolls_another_die_until_a_miss() {
    let saw = WeaponLine {
        traits: vec![WeaponTrait::Cutting],
        ..weapon("saw", WeaponRange::Upto(4), 2, 1)
    };
    let orders = ["  attack saw at target", "  nothing"];
    let (st, t) = shoot(vec![saw], walker(4), false, &orders, vec![1, 5, 2, 3]);
    assert!(t.contains("2 cutting chain dice, 2 hits"), "{t}");
    assert_eq!(u(&st, "target").health, 2, "{t}");
    let plain = weapon("saw", WeaponRange::Upto(4), 2, 1);
    let (st, t) = shoot(vec![plain], walker(4), false, &orders, vec![1, 5]);
    assert!(t.contains("1 hit"), "{t}");
    assert_eq!(u(&st, "target").health, 3, "{t}");
}

// issue 18, 002 "Cutting Weapons": "If the Cutting weapon has a special rule that allows it to
// Hit on a roll of [target] as well as [army], it only counts a [target] as a Hit for the first
// roll. The additional rolls only Hit on a roll of [army]." (R671: the lost symbols read as 002
// "Laser Weapons" words the same sentence.) With the two-face rule (Fighting Spirit, Power
// Scopes...), a first-roll target hits; the chain's target misses, its army hits.
#[test]
fn s002_special_weapons_cutting_weapons_a_two_face_rule_only_for_the_first_roll() {
    let saw = WeaponLine {
        traits: vec![WeaponTrait::Cutting],
        ..weapon("saw", WeaponRange::Upto(4), 1, 1)
    };
    let target = TargetProfile {
        armour: Armour::Vehicle(3),
        unit_type: UnitType::Vehicle,
        models: 1,
        remaining: 5,
        cover: Cover::None,
        soft_save: Save::None,
        hard_save: Save::None,
        damage_resilient: false,
        bf: Default::default(),
    };
    let opts = FireOptions {
        carriers: 1,
        reversed: true,
        ..FireOptions::default()
    };
    let bf = Rules::battlefront_2013();
    // First roll: target (a hit, two faces); chain: target (a miss).
    let mut d = ScriptedDice::new([3, 4]);
    let o = resolve_line_under(bf, &saw, &target, &opts, 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((o.hits, o.damage), (1, 1), "{}", o.summary);
    // First roll: target; chain: army (a hit), then shield (a miss).
    let mut d = ScriptedDice::new([3, 1, 5]);
    let o = resolve_line_under(bf, &saw, &target, &opts, 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((o.hits, o.damage), (2, 2), "{}", o.summary);
    assert!(
        o.rolls.iter().any(|r| r.purpose == "cutting chain saw"),
        "{:?}",
        o.rolls
    );
}

// ---------------------------------------------------------------------------------------------
// Power Scopes, Wire-Guided and Under-Barrel weapons (R672–R674)
// ---------------------------------------------------------------------------------------------

// issue 18, 002 "Power Scopes": "A weapon with Power Scopes hits on rolls of [target] as well as
// [army] when making a Sustained Attack Action." (R672: the lost symbols read as 002's other
// two-face rules.) In a Sustained Attack a target symbol hits, in the first roll (3) and in the
// re-roll (shield 5, then target 4); in a plain Attack the same target symbol misses.
#[test]
fn s002_special_weapons_power_scopes_hit_on_army_or_target_in_a_sustained_attack() {
    let scope = || line("scope", &[WeaponTrait::PowerScopes]);
    let (st, t) = shoot(
        vec![scope()],
        walker(3),
        false,
        &["  sustained scope at target"],
        vec![3],
    );
    assert!(
        t.contains("power scopes: army or target hits, 1 hit"),
        "{t}"
    );
    assert_eq!(u(&st, "target").health, 2, "{t}");
    let (st, t) = shoot(
        vec![scope()],
        walker(3),
        false,
        &["  sustained scope at target"],
        vec![5, 4],
    );
    assert!(
        t.contains("1 re-rolled (sustained)") && t.contains("1 hit"),
        "{t}"
    );
    assert_eq!(u(&st, "target").health, 2, "{t}");
    let orders = ["  attack scope at target", "  nothing"];
    let (st, t) = shoot(vec![scope()], walker(3), false, &orders, vec![3]);
    assert!(t.contains("0 hits") && !t.contains("power scopes"), "{t}");
    assert_eq!(u(&st, "target").health, 3, "{t}");
}

// issue 18, 002 "Wire-Guided Weapons": "If a Unit attacks with one Wire-guided weapon and no
// other weapons when making an Attack Action, it re-rolls misses for that weapon as if making a
// Sustained Attack." (R673.) Fired alone, the missile's miss (shield) is re-rolled and hits
// (army); fired with the machine-gun in the same Attack, its miss is not re-rolled.
#[test]
fn s002_special_weapons_wire_guided_fired_alone_re_rolls_its_misses() {
    let atgm = || line("atgm", &[WeaponTrait::WireGuided]);
    let orders = ["  attack atgm at target", "  nothing"];
    let (st, t) = shoot(
        vec![atgm(), line("mg", &[])],
        walker(3),
        false,
        &orders,
        vec![5, 1],
    );
    assert!(
        t.contains("1 re-rolled (wire-guided)") && t.contains("1 hit"),
        "{t}"
    );
    assert_eq!(u(&st, "target").health, 2, "{t}");
    let orders = ["  attack atgm at target, mg at target", "  nothing"];
    let (st, t) = shoot(
        vec![atgm(), line("mg", &[])],
        walker(3),
        false,
        &orders,
        vec![5, 6],
    );
    assert!(!t.contains("re-rolled"), "{t}");
    assert_eq!(u(&st, "target").health, 3, "{t}");
}

// issue 18, 002 "Wire-Guided Weapons": "one Wire-guided weapon" (R673): a line two soldiers
// carry is two weapons: fired alone in an Attack, its misses are not re-rolled.
#[test]
fn s002_special_weapons_wire_guided_two_carriers_are_two_weapons() {
    let mut team = card(
        "team",
        UnitType::Squad,
        2,
        1,
        vec![line("atgm", &[WeaponTrait::WireGuided])],
    );
    team.weapons[0].carriers = Some(2);
    let s = scenario(
        vec![unit("team", "team", Some("E5"))],
        vec![unit("target", "walker", Some("E2"))],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![team, walker(3)])
        .expect("setup");
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([5, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("team", vec![attack("atgm", "target"), nothing()]),
        &mut d,
    );
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert!(t.contains("2 dice") && !t.contains("re-rolled"), "{t}");
}

/// The allied hero `shooter` on E5 with a rifle and, right below it, its under-barrel grenade
/// launcher, against the axis squads `a` (E2) and `b` (C2).
fn under_barrel_game() -> State {
    let ugl = line(
        "ugl",
        &[WeaponTrait::UnderBarrel, WeaponTrait::GrenadeLauncher],
    );
    let shooter = card(
        "shooter",
        UnitType::Hero,
        3,
        1,
        vec![line("rifle", &[]), ugl],
    );
    let s = scenario(
        vec![unit("shooter", "shooter", Some("E5"))],
        vec![unit("a", "sq", Some("E2")), unit("b", "sq", Some("C2"))],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![shooter, squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    st
}

// issue 18, 002 "Under-Barrel Weapons": "A soldier carrying an Under-Barrel Weapon can fire both
// the main weapon and the Under-Barrel Weapon at the same target in an Attack action." (R674: the
// card's `under_barrel` line is fitted to the line right above it.) Rifle and launcher at one
// squad: both fire. At two squads: refused, citing 002, and nothing changes.
#[test]
fn s002_special_weapons_under_barrel_both_weapons_at_the_same_target() {
    let mut st = under_barrel_game();
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "shooter",
            vec![
                Action::Attack {
                    fire: vec![fire("rifle", "a"), fire("ugl", "b")],
                },
                nothing(),
            ],
        ),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("under-barrel weapon of rifle")
            && rule.contains("002 \"Under-Barrel Weapons\""),
        "{reason} / {rule}"
    );
    assert_eq!(st, before, "a refusal changes nothing");
    let mut d = ScriptedDice::new([1, 1, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "shooter",
            vec![
                Action::Attack {
                    fire: vec![fire("rifle", "a"), fire("ugl", "a")],
                },
                nothing(),
            ],
        ),
        &mut d,
    );
    let t = texts(&out);
    assert!(t.contains("fires rifle") && t.contains("fires ugl"), "{t}");
}

// issue 18, 002 "Under-Barrel Weapons" (R674): a card whose `under_barrel` line has no main
// weapon right above it is refused at `new`, naming the card and the line.
#[test]
fn s002_special_weapons_under_barrel_sits_below_its_main_weapon_on_the_card() {
    let text = r#"
id = "bf-ub"
name = "UB"
faction = "allies"
unit_type = "hero"
armour = { soldier = 2 }
movement = 1
health = 2
ap = 10

[[weapons]]
id = "ugl"
name = "UGL"
range = "4"
soldier = ["1/1", "1/1", "1/1", "1/1"]
vehicle = ["-", "-", "-", "-", "-", "-", "-"]
traits = ["under_barrel", "grenade_launcher"]
"#;
    let map = [("bf-ub.toml".to_string(), text.to_string())].into();
    let e = dustmail::dust_tactics::battlefront::skills::check_cards(&map).unwrap_err();
    assert!(
        e.contains("card bf-ub.toml") && e.contains("`ugl`") && e.contains("R674"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// Sniper weapons and Spotters (R675, R676)
// ---------------------------------------------------------------------------------------------

// issue 18, 002 "Sniper Weapons": "When declaring the target of this weapon's attack, the player
// may specify a miniature in the Unit. All unsaved Hits from this attack are assigned to the
// specified miniature." (R675: `attack <weapon> at <unit>/<model>`, as R730.) Two hits, both
// saves fail: soldier 3 falls, the second hit is lost on it; the squad keeps its other three.
#[test]
fn s002_special_weapons_sniper_weapons_hits_go_to_the_named_miniature() {
    let rifle = WeaponLine {
        traits: vec![WeaponTrait::Sniper],
        ..weapon("rifle", WeaponRange::Upto(4), 2, 1)
    };
    let orders = ["  attack rifle at target/3", "  nothing"];
    let (st, t) = shoot(vec![rifle], squad("sq"), false, &orders, vec![1, 1, 5, 5]);
    assert!(t.contains("loses model 3"), "{t}");
    let left = &u(&st, "target").models;
    assert_eq!(left.len(), 3, "{t}");
    assert!(!left.iter().any(|m| m == "3"), "{t}");
}

// issue 18, 002 "Sniper Weapons" (R675): a line without the trait names no miniature (the
// refusal cites 002 "Sniper Weapons" and says to target the unit) and nothing changes.
#[test]
fn s002_special_weapons_only_a_sniper_weapon_names_a_miniature() {
    let shooter = card("shooter", UnitType::Hero, 3, 1, vec![line("rifle", &[])]);
    let s = scenario(
        vec![unit("shooter", "shooter", Some("E5"))],
        vec![unit("target", "sq", Some("E2"))],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![shooter, squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "shooter",
            vec![
                Action::Attack {
                    fire: vec![FireOrder {
                        target: TargetRef::Model {
                            unit: "target".into(),
                            model: "3".into(),
                        },
                        ..fire("rifle", "target")
                    }],
                },
                nothing(),
            ],
        ),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("cannot name a model"), "{reason}");
    assert!(rule.contains("002 \"Sniper Weapons\""), "{rule}");
    assert_eq!(st, before, "a refusal changes nothing");
}

/// A sniper team (allies, E5): the sniper carries the `sniper` rifle, the spotter a pistol;
/// against a walker of health 3 on E2.
fn sniper_team() -> State {
    let rifle = line("rifle", &[WeaponTrait::Sniper]);
    let mut team = card(
        "team",
        UnitType::Squad,
        2,
        1,
        vec![
            WeaponLine {
                carriers: Some(1),
                ..rifle
            },
            WeaponLine {
                carriers: Some(1),
                ..line("pistol", &[])
            },
        ],
    );
    team.models = vec![
        ModelSpec {
            id: "sniper".into(),
            carries: vec!["rifle".into()],
        },
        ModelSpec {
            id: "spotter".into(),
            carries: vec!["pistol".into()],
        },
    ];
    let s = scenario(
        vec![unit("team", "team", Some("E5"))],
        vec![unit("target", "walker", Some("E2"))],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![team, walker(3)])
        .expect("setup");
    begin(&mut st, "allies");
    st
}

// issue 18, 002 "Spotters": "If a Spotter does not use a weapon, each Sniper weapon in the Unit
// that makes a Sustained Attack hits on rolls of [target] as well as [army]." (R676: the spotter
// is the model whose id names "spotter"; the lost symbols read as 002's other two-face rules.)
// The spotter fires nothing: the rifle's target symbol hits. The spotter fires its pistol in the
// same Sustained Attack: the rifle's target symbols miss. In a plain Attack: a miss too.
#[test]
fn s002_special_weapons_spotters_an_idle_spotter_makes_sniper_weapons_hit_on_target() {
    let mut st = sniper_team();
    let mut d = ScriptedDice::new([3]);
    let out = cmd(
        &mut st,
        "allies",
        activate("team", vec![sustained("rifle", "target")]),
        &mut d,
    );
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert!(
        t.contains("army or target hits") && t.contains("1 hit"),
        "{t}"
    );
    assert_eq!(u(&st, "target").health, 2, "{t}");

    let mut st = sniper_team();
    let mut d = ScriptedDice::new([3, 3, 5, 5]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "team",
            vec![Action::Sustained {
                fire: vec![fire("rifle", "target"), fire("pistol", "target")],
            }],
        ),
        &mut d,
    );
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert!(!t.contains("army or target hits"), "{t}");
    assert_eq!(u(&st, "target").health, 3, "{t}");

    let mut st = sniper_team();
    let mut d = ScriptedDice::new([3]);
    let out = cmd(
        &mut st,
        "allies",
        activate("team", vec![attack("rifle", "target"), nothing()]),
        &mut d,
    );
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert_eq!(u(&st, "target").health, 3, "{t}");
}

// ---------------------------------------------------------------------------------------------
// The provisional cards, played by mail (R670–R676)
// ---------------------------------------------------------------------------------------------

// issue 18, 002 "Special Weapons": the provisional cards of
// games/dust-tactics/cards-battlefront-weapons/ (under-barrel and grenade launchers, a phaser, a
// wire-guided missile, a scoped sniper rifle with its spotter, a power saw) load for `new` and the
// scenario Special Weapons is played to its end by mail by two bots; replay and audit pass.
#[test]
fn s002_special_weapons_the_provisional_cards_play_a_game_to_its_end_by_mail() {
    use dustmail::dust_tactics::bot::Style;
    let dir = tempfile::tempdir().unwrap();
    let (home, env) = dt::play_cards_to_end(
        dir.path(),
        "battlefront-2013",
        ("cards-battlefront-weapons", "special-weapons"),
        ("g-weapons", 19),
        |_| Style::Aggressive,
    );
    let g = env.load("g-weapons");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    // The special weapons are fired, and their rules show in the reports.
    for said in [
        "fires Phaser",
        "fires Wire-guided missile",
        "fires Scoped sniper rifle",
        "power scopes: army or target hits",
        "fires Power saw",
        "cutting chain",
    ] {
        assert!(sent.contains(said), "never `{said}`: {tail}");
    }
    dt::replay_and_audit(&home, "g-weapons");
}

// issue 18, 002 "Special Weapons" (R670–R676) and the orders template: with the provisional
// cards (an under-barrel launcher below its rifle, a wire-guided missile, a sniper rifle and its
// spotter, a power saw), every order any template suggests in whole games of Special Weapons is
// accepted.
#[test]
fn s002_special_weapons_every_suggested_order_is_accepted_with_the_cards() {
    let kinds = crate::legal_template::play_cards_checking(
        "cards-battlefront-weapons",
        &[
            "bf-w-rangers.toml",
            "bf-w-phaser-walker.toml",
            "bf-w-sniper-team.toml",
            "bf-w-cutter.toml",
        ],
        "special-weapons",
        2,
    );
    assert!(kinds.get("attack").copied().unwrap_or(0) > 0, "{kinds:?}");
}
