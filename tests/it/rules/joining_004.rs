//! Issue 12: joining and special squads of 004 (seed `004_cf4d25af06d5d991.txt`): superhumans
//! and their sidekicks ("SUPERHUMANS"), NCO command squads ("NCO COMMAND SQUADS") and the joining
//! skills Blutkreuz Ape and Blutkreuz Zombie (skills reference), with the provisional cards of
//! games/dust-tactics/cards-joining/ read as `new --cards` reads them, and the scenario
//! games/dust-tactics/scenarios-joining/victory-patrol.toml played by mail. Every test names its
//! seed and section and quotes its sentence (rulings R520–R524).

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::cards::parse_card_for_new;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Outcome, ScriptedDice};

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// A card of games/dust-tactics/`dir`/, validated as `new --cards` validates it.
pub(super) fn card_in(dir: &str, stem: &str) -> Card {
    let file = format!("{stem}.toml");
    let text = std::fs::read_to_string(root().join("games/dust-tactics").join(dir).join(&file))
        .expect("card file");
    parse_card_for_new(&file, &text).unwrap_or_else(|e| panic!("{e}"))
}

/// The cards of these tests: every card of cards-joining, the allied artillery robot, a plain
/// squad `sq`, and a grenadier squad `gr` whose model 4 carries a grenade of 1 box.
fn cards(extra: Vec<Card>) -> Vec<Card> {
    let mut gr = squad("gr");
    let mut g = weapon("grenade", WeaponRange::Upto(2), 1, 1);
    g.ammo = Some(1);
    g.carriers = Some(1);
    gr.weapons.push(g);
    gr.models = ["1", "2", "3", "4"]
        .into_iter()
        .map(|m| ModelSpec {
            id: m.into(),
            carries: if m == "4" {
                vec!["gun".into(), "grenade".into()]
            } else {
                vec!["gun".into()]
            },
        })
        .collect();
    let mut v: Vec<Card> = [
        "sergeant-victory",
        "victory-sidekick",
        "nco-command-squad",
        "ape-squad",
        "ape-hero",
    ]
    .into_iter()
    .map(|s| card_in("cards-joining", s))
    .collect();
    v.push(card_in("cards-artillery", "allied-artillery-robot"));
    v.push(squad("sq"));
    v.push(gr);
    v.extend(extra);
    v
}

/// A unit that joins `joins` before the game.
pub(super) fn joiner(id: &str, card: &str, joins: &str) -> UnitSpec {
    serde_json::from_value(serde_json::json!({ "id": id, "card": card, "joins": joins }))
        .expect("unit spec")
}

pub(super) fn setup(
    allies: Vec<UnitSpec>,
    axis: Vec<UnitSpec>,
    extra: Vec<Card>,
) -> Result<State, String> {
    DustTactics
        .start("ffg-revised", scenario(allies, axis), cards(extra))
        .map_err(|e| e.0)
}

/// A game (reactive fire off: standing `never`), allies activating first.
pub(super) fn game(allies: Vec<UnitSpec>, axis: Vec<UnitSpec>, extra: Vec<Card>) -> State {
    let mut st = setup(allies, axis, extra).unwrap_or_else(|e| panic!("{e}"));
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

pub(super) fn refusal(out: &Outcome) -> String {
    first_result(out).expect_err("refused")
}

// ---------------------------------------------------------------------------------------------
// 004 "SUPERHUMANS"
// ---------------------------------------------------------------------------------------------

// 004 "Superhumans": "A superhuman can never join a squad." Sergeant Victory (a superhuman,
// R520) joining a squad of his armour class is refused at setup, naming him and the rule; a
// normal hero of the same class joins it.
#[test]
fn superhumans_004_a_superhuman_can_never_join_a_squad() {
    let e = setup(
        vec![
            unit("rangers", "sq", Some("E8")),
            joiner("victory", "sergeant-victory", "rangers"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    )
    .expect_err("a superhuman joining a squad");
    assert!(
        e.contains("victory is a superhuman and can never join a squad")
            && e.contains("004 'Superhumans'"),
        "{e}"
    );
    assert!(setup(
        vec![
            unit("rangers", "sq", Some("E8")),
            joiner("kid", "victory-sidekick", "rangers"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    )
    .is_ok());
}

// 004 "Superhumans": "Sidekicks are normal heroes with the Sidekick skill and function as
// heroes, with the exception that they can form a special squad with the indicated superhuman.
// This 'squad' is made entirely of heroes" (R521). The sidekick joins Sergeant Victory and they
// activate as one unit, both firing; a hero without the Sidekick skill, or the sidekick of
// another superhuman, cannot.
#[test]
fn superhumans_004_a_sidekick_forms_a_special_squad_with_the_indicated_superhuman() {
    let mut st = game(
        vec![
            unit("victory", "sergeant-victory", Some("E8")),
            joiner("kid", "victory-sidekick", "victory"),
        ],
        vec![
            unit("foe", "sq", Some("E5")),
            unit("foe2", "sq", Some("A1")),
        ],
        vec![],
    );
    assert_eq!(u(&st, "kid").joined.as_deref(), Some("victory"));
    let alone = send(
        &mut st,
        "allies",
        "activate kid\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(
        refusal(&alone).contains("kid is joined to victory"),
        "{alone:?}"
    );
    let out = send(
        &mut st,
        "allies",
        "activate victory\nattack victory-rifle at foe, carbine at foe\nnothing",
        &mut ScriptedDice::new([1; 8]),
    );
    let understood = first_result(&out).unwrap_or_else(|e| panic!("{e}"));
    assert!(understood.contains("carbine"), "{understood}");
    // Five hits (3 + 2 dice, all 1s): the four models of foe are gone.
    assert!(u(&st, "foe").destroyed, "{}", texts(&out));

    let mut other = card("other-superhuman", UnitType::Hero, 3, 1, vec![]);
    other.weapons = card_in("cards-joining", "sergeant-victory").weapons;
    other.superhuman = true;
    for (id, card_id, why) in [
        ("joe", "plain-hero", "only a sidekick of `sergeant-victory`"),
        (
            "kid",
            "victory-sidekick",
            "only a sidekick of `other-superhuman`",
        ),
    ] {
        let target = if card_id == "plain-hero" {
            "victory"
        } else {
            "hulk"
        };
        let mut plain = card("plain-hero", UnitType::Hero, 3, 1, vec![]);
        plain.weapons = other.weapons.clone();
        let e = setup(
            vec![
                unit("victory", "sergeant-victory", Some("E8")),
                unit("hulk", "other-superhuman", Some("C8")),
                joiner(id, card_id, target),
            ],
            vec![unit("foe", "sq", Some("E2"))],
            vec![other.clone(), plain],
        )
        .expect_err("not the indicated superhuman");
        assert!(e.contains(why) && e.contains("004 'Superhumans'"), "{e}");
    }
}

// 004 "Superhumans": "2 identical superhumans can never fight on the same side. However, a
// second identical superhuman can appear in an opponent's army of the same type" (R520).
#[test]
fn superhumans_004_two_identical_superhumans_never_fight_on_the_same_side() {
    let e = setup(
        vec![
            unit("victory", "sergeant-victory", Some("E8")),
            unit("victory2", "sergeant-victory", Some("C8")),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    )
    .expect_err("two Sergeant Victory on one side");
    assert!(
        e.contains("fields the superhuman `sergeant-victory` twice (victory and victory2)"),
        "{e}"
    );
    assert!(setup(
        vec![unit("victory", "sergeant-victory", Some("E8"))],
        vec![unit("victory2", "sergeant-victory", Some("E2"))],
        vec![],
    )
    .is_ok());
}

// 004 "Superhumans": the special squad "is made entirely of heroes, and therefore cannot
// benefit from squad rules"; 004 "Heroes": "When the combined unit suffers a damage point,
// choose who loses one": the owner may give a point to the sidekick or to Sergeant Victory
// (R521); by default the superhuman's health goes first, as a squad's models do before its hero.
#[test]
fn superhumans_004_the_special_squad_chooses_which_hero_loses_health() {
    let st = game(
        vec![
            unit("victory", "sergeant-victory", Some("E8")),
            joiner("kid", "victory-sidekick", "victory"),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    );
    let options = dustmail::dust_tactics::flow::casualty_options(&st, "victory", 1);
    assert_eq!(
        options,
        vec![
            "casualties victory: victory".to_string(),
            "casualties victory: kid".to_string()
        ],
        "{options:?}"
    );
}

// 004 "Superhumans": "superhumans function as heroes: they never benefit from cover, they can
// share a space with another unit". Sergeant Victory behind an ammo crate takes every hit (a
// squad there saves one on a hit save), and he may stand on a friendly squad's square.
#[test]
fn superhumans_004_never_benefit_from_cover_and_share_a_space() {
    // Without Cheat Death, so that no die of his may ignore the hit.
    let mut no_cheat = card_in("cards-joining", "sergeant-victory");
    no_cheat.skills.clear();
    let mut shielded = squad("shielded");
    shielded.soft_save = Save::Hit;
    shielded.hard_save = Save::Hit;
    let play = |target: &str| {
        let mut st = game(
            vec![
                unit("victory", "sergeant-victory", Some("E7")),
                unit("line", "shielded", Some("C7")),
                unit("pals", "sq", Some("A9")),
            ],
            vec![
                unit("foe", "sq", Some("E3")),
                unit("foe2", "sq", Some("C3")),
            ],
            vec![shielded.clone(), no_cheat.clone()],
        );
        for at in ["E7", "C7"] {
            st.scenario
                .board
                .place_cover(sq(at), CoverKind::AmmoCrate)
                .expect("a crate");
        }
        send(
            &mut st,
            "allies",
            "activate pals\nnothing\nnothing",
            &mut ScriptedDice::new([]),
        );
        let shooter = if target == "victory" { "foe" } else { "foe2" };
        // One hit and three misses, then a hit on the save die.
        let out = send(
            &mut st,
            "axis",
            &format!("activate {shooter}\nattack gun at {target}\nnothing"),
            &mut ScriptedDice::new([1, 5, 5, 5, 1]),
        );
        assert!(first_result(&out).is_ok(), "{out:?}");
        (st, out)
    };
    let (st, out) = play("line");
    assert_eq!(
        u(&st, "line").models.len(),
        4,
        "a squad is saved: {}",
        texts(&out)
    );
    let (st, out) = play("victory");
    assert_eq!(u(&st, "victory").health, 3, "no cover: {}", texts(&out));
    // A space shared with a friendly squad.
    let mut st = game(
        vec![
            unit("victory", "sergeant-victory", Some("E8")),
            unit("line", "sq", Some("E7")),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    );
    let out = send(
        &mut st,
        "allies",
        "activate victory\nmove E7\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "victory").at, Some(sq("E7")));
}

// 004 "Superhumans" (R520): a card's `superhuman` and `sidekick` fields are a hero's; a squad
// card naming them is refused at `new` with its file and field.
#[test]
fn superhumans_004_only_a_hero_card_is_a_superhuman_or_a_sidekick() {
    let text =
        std::fs::read_to_string(root().join("games/dust-tactics/cards-joining/ape-squad.toml"))
            .unwrap();
    let e = parse_card_for_new("ape-squad.toml", &format!("superhuman = true\n{text}"))
        .expect_err("a superhuman squad");
    assert_eq!(
        (e.file.as_str(), e.field.as_str()),
        ("ape-squad.toml", "superhuman")
    );
    assert!(e.reason.contains("only a hero"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// 004 skills reference: Blutkreuz Ape, Blutkreuz Zombie
// ---------------------------------------------------------------------------------------------

// 004 "Blutkreuz Ape": "A hero with this skill can only join a squad that also has this skill. A
// squad with this skill can only be joined by a hero that also has this skill."
#[test]
fn blutkreuz_ape_004_joins_only_a_squad_that_also_has_the_skill() {
    let mut plain3 = squad("plain3");
    plain3.armour = Armour::Soldier(3);
    let mut hero3 = card("hero3", UnitType::Hero, 3, 1, vec![]);
    hero3.weapons = plain3.weapons.clone();
    hero3.armour = Armour::Soldier(3);
    let try_join = |hero: &str, squad: &str| {
        setup(
            vec![unit("foe", "sq", Some("E8"))],
            vec![unit("s", squad, Some("E2")), joiner("h", hero, "s")],
            vec![plain3.clone(), hero3.clone()],
        )
    };
    assert!(try_join("ape-hero", "ape-squad").is_ok());
    let e = try_join("ape-hero", "plain3").expect_err("an ape hero joining plain soldiers");
    assert!(
        e.contains("hero h has blutkreuz-ape and squad s has not")
            && e.contains("004 'Blutkreuz Ape'"),
        "{e}"
    );
    let e = try_join("hero3", "ape-squad").expect_err("a plain hero joining apes");
    assert!(
        e.contains("squad s has blutkreuz-ape and hero h has not"),
        "{e}"
    );
}

// 004 "Blutkreuz Zombie": "A hero with this skill can only join a squad that also has this
// skill. A squad with this skill can only be joined by a hero that also has this skill."
#[test]
fn blutkreuz_zombie_004_joins_only_a_squad_that_also_has_the_skill() {
    let zombies = with_skill(squad("zombies"), "blutkreuz-zombie", None);
    let mut zhero = with_skill(
        card("zhero", UnitType::Hero, 3, 1, vec![]),
        "blutkreuz-zombie",
        None,
    );
    zhero.weapons = zombies.weapons.clone();
    let mut plain = card("plainhero", UnitType::Hero, 3, 1, vec![]);
    plain.weapons = zombies.weapons.clone();
    let try_join = |hero: &str, sq_card: &str| {
        setup(
            vec![unit("s", sq_card, Some("E8")), joiner("h", hero, "s")],
            vec![unit("foe", "sq", Some("E2"))],
            vec![zombies.clone(), zhero.clone(), plain.clone()],
        )
    };
    assert!(try_join("zhero", "zombies").is_ok());
    for (hero, squad) in [("zhero", "sq"), ("plainhero", "zombies")] {
        let e = try_join(hero, squad).expect_err("one side without the skill");
        assert!(e.contains("004 'Blutkreuz Zombie'"), "{hero} {squad}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// 004 "NCO COMMAND SQUADS"
// ---------------------------------------------------------------------------------------------

/// Allies: NCO command squad `nco` on E5, grenadiers `gren` on D5 beside it (model 4 lost),
/// grenadiers `far` on A9; the artillery robot `gun` on E9; axis squad `foe` on E2 (7 squares
/// from the gun, 3 from the NCO squad).
fn nco_game() -> State {
    let mut st = game(
        vec![
            unit("nco", "nco-command-squad", Some("E5")),
            unit("gren", "gr", Some("D5")),
            unit("gun", "allied-artillery-robot", Some("E9")),
            unit("far", "gr", Some("A9")),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    );
    let g = st.unit_mut("gren").unwrap();
    g.models.retain(|m| m != "4");
    g.health = 3;
    st
}

// 004 "NCO Command Squads": "A NCO command squad is a command squad composed of a field officer,
// a field mechanic, and a field medic, each equipped with his own radio" (R522): the card names
// its three specialists, and one without them is refused at `new` with its file.
#[test]
fn nco_command_squads_004_a_card_names_its_field_officer_mechanic_and_medic() {
    let c = card_in("cards-joining", "nco-command-squad");
    assert!(c.has_skill("nco-command-squad"));
    let text = std::fs::read_to_string(
        root().join("games/dust-tactics/cards-joining/nco-command-squad.toml"),
    )
    .unwrap();
    let e = parse_card_for_new(
        "nco-command-squad.toml",
        &text.replace("id = \"field-medic\"", "id = \"medic\""),
    )
    .expect_err("no field medic");
    assert_eq!(e.file, "nco-command-squad.toml");
    assert!(e.reason.contains("missing: field-medic"), "{e}");
}

// 004 "NCO Command Squads": "You can field only one NCO command squad unit at a time." (R522)
#[test]
fn nco_command_squads_004_only_one_at_a_time() {
    let e = setup(
        vec![
            unit("nco", "nco-command-squad", Some("E8")),
            unit("nco2", "nco-command-squad", Some("C8")),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    )
    .expect_err("two NCO command squads");
    assert!(
        e.contains("fields two NCO command squads (nco and nco2)")
            && e.contains("004 'NCO Command Squads'"),
        "{e}"
    );
    assert!(setup(
        vec![unit("nco", "nco-command-squad", Some("E8"))],
        vec![unit("nco2", "nco-command-squad", Some("E2"))],
        vec![],
    )
    .is_ok());
}

// 004 "NCO Command Squads", Field Medic: "Get Up, It Ain't That Bad (SKILL). Perform 1 SKILL
// action to either revive 1 miniature in an adjacent squad"; "When a figure is eliminated, the
// squad loses that figure's specialization": without the field medic, no Get Up.
#[test]
fn nco_command_squads_004_the_field_medic_revives_and_his_fall_takes_it_away() {
    let mut st = nco_game();
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill get up at gren\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "gren").models.len(), 4, "{}", texts(&out));
    assert!(
        texts(&out).contains("nco's medic brings model 4 of gren back"),
        "{}",
        texts(&out)
    );
    let mut st = nco_game();
    st.unit_mut("nco")
        .unwrap()
        .models
        .retain(|m| m != "field-medic");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill get up at gren\nnothing",
        &mut ScriptedDice::new([]),
    );
    let r = refusal(&out);
    assert!(
        r.contains("the field-medic of nco has been eliminated"),
        "{r}"
    );
    assert_eq!(st, before);
}

// 004 "Command Squads" (an NCO command squad is a command squad): "you may only attempt to use
// 1 skill once per round"; and its orders are its three specialists' only: no Get Moving (the
// officer's), no Field Repair (R522).
#[test]
fn nco_command_squads_004_one_attempt_a_round_and_only_its_own_orders() {
    let mut st = nco_game();
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill get up at gren\nskill ammo dump at gren",
        &mut ScriptedDice::new([]),
    );
    assert!(refusal(&out).contains("already attempted a command squad ability this round"));
    for order in ["get moving", "field repair", "come on guys"] {
        let out = send(
            &mut st,
            "allies",
            &format!("activate nco\nskill {order} at gren\nnothing"),
            &mut ScriptedDice::new([]),
        );
        let r = refusal(&out);
        assert!(
            r.contains("nco is an NCO command squad") && r.contains("004 'NCO Command Squads'"),
            "{order}: {r}"
        );
    }
    // The field medic's Stimulant Kit is one of its own (R477, rules::stimulant_kit_004).
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill stimulant kit at gren\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert_eq!(
        first_result(&out),
        Ok("activate nco: skill stimulant-kit at gren, nothing".into())
    );
}

// 004 "NCO Command Squads", Field Mechanic: "Ammo Dump (SKILL). Once per game, any unit within
// LOS instantly replenishes all of its limited ammo weapons." (R523) Behind trees, refused;
// in sight, the spent grenade is back; the next round, a second Ammo Dump is refused.
#[test]
fn nco_command_squads_004_ammo_dump_once_per_game_for_a_unit_within_los() {
    let mut st = nco_game();
    st.unit_mut("far").unwrap().ammo.insert("grenade".into(), 0);
    st.scenario.board.set_terrain(sq("C7"), Terrain::Trees);
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill ammo dump at far\nnothing",
        &mut ScriptedDice::new([]),
    );
    let r = refusal(&out);
    assert!(r.contains("nco cannot see far"), "{r}");
    assert_eq!(st, before);
    st.scenario.board.set_terrain(sq("C7"), Terrain::Open);
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill ammo dump at far\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(
        u(&st, "far").ammo.get("grenade"),
        Some(&1),
        "{}",
        texts(&out)
    );
    assert!(
        texts(&out).contains("Ammo Dump: nco's field mechanic"),
        "{}",
        texts(&out)
    );
    next_round(&mut st);
    st.unit_mut("far").unwrap().ammo.insert("grenade".into(), 0);
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill ammo dump at far\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(refusal(&out).contains("once per game"), "{out:?}");
}

// 004 "NCO Command Squads", Field Officer: "Smoke Mortars (SKILL). Once per game, immediately
// target 1 space in LOS ... Place a Smoke token in the space ... The smoke effect remains in the
// space until the end of the round after it was launched." 004 "Terrain": diamond spaces "block
// all LOS" (R525). Smoke on E3 blocks the axis attack from E2 at the squad on E5 in rounds 1 and
// 2; it lifts when round 2 ends; a second Smoke Mortars is refused.
#[test]
fn nco_command_squads_004_smoke_mortars_once_per_game_until_the_end_of_the_next_round() {
    let mut st = nco_game();
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill smoke mortars at E3\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(st.scenario.board.terrain(sq("E3")), Terrain::Smoke);
    let blocked = |st: &mut State| {
        let out = send(
            st,
            "axis",
            "activate foe\nattack gun at nco\nnothing",
            &mut Cycle(1),
        );
        first_result(&out).is_err_and(|r| r.contains("smoke"))
    };
    assert!(blocked(&mut st), "round 1: the smoke blocks the shot");
    next_round(&mut st);
    assert_eq!(st.round, 2);
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill smoke mortars at D3\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(refusal(&out).contains("once per game"), "{out:?}");
    send(
        &mut st,
        "allies",
        "activate nco\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(blocked(&mut st), "round 2: still smoke");
    next_round(&mut st);
    assert_eq!(st.scenario.board.terrain(sq("E3")), Terrain::Open);
    send(
        &mut st,
        "allies",
        "activate nco\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(!blocked(&mut st), "round 3: the smoke has lifted");
}

// 004 "NCO Command Squads", Field Officer: "Artillery Strike (SKILL). The unit is an observer.
// Perform 1 SKILL action to immediately activate a friendly artillery unit on the battlefield and
// perform 1 indirect shot at a unit to which the observer can trace LOS." Without its field
// officer the squad loses it ("the squad loses that figure's specialization", R522).
#[test]
fn nco_command_squads_004_the_field_officer_calls_an_artillery_strike() {
    let mut st = nco_game();
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill artillery-strike gun at foe\nnothing",
        &mut Cycle(1),
    );
    let understood = first_result(&out).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        understood.contains("skill artillery-strike gun at foe"),
        "{understood}"
    );
    assert!(u(&st, "gun").activated);
    let mut st = nco_game();
    st.unit_mut("nco")
        .unwrap()
        .models
        .retain(|m| m != "field-officer");
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill artillery-strike gun at foe\nnothing",
        &mut Cycle(1),
    );
    let r = refusal(&out);
    assert!(
        r.contains("the field-officer of nco has been eliminated, and with him Artillery Strike"),
        "{r}"
    );
}

// ---------------------------------------------------------------------------------------------
// The scenario, played by mail
// ---------------------------------------------------------------------------------------------

// Issue 12: "Victory's Patrol" (games/dust-tactics/scenarios-joining/) fields Sergeant Victory
// with his sidekick (004 "Superhumans"), an NCO command squad (004 "NCO Command Squads") and an
// ape hero joined to Blutkreuz apes (004 "Blutkreuz Ape"), with the cards of cards-joining given
// by `new --cards`. Two players play it to its end through signed mails run by the real
// pipeline; replay and audit pass.
#[test]
fn joining_004_victory_patrol_played_to_its_end_by_signed_mail() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = root().join("games/dust-tactics/scenarios-joining/victory-patrol.toml");
    let cards = root().join("games/dust-tactics/cards-joining");
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &[
            "--scenario",
            scenario.to_str().unwrap(),
            "--cards",
            cards.to_str().unwrap(),
        ],
        ("g-join", 23, 5),
    );
    let mut bots = dt::Bots::new("g-join", &ps, |i| Style::Random(77 + i as u64));
    env.run(dt::NOW);
    let g = env.load("g-join");
    let st: State = g.derived.state.typed::<State>().clone();
    assert_eq!(u(&st, "sidekick").joined.as_deref(), Some("victory"));
    assert_eq!(u(&st, "ape-hero").joined.as_deref(), Some("apes"));
    bots.play_to_end(&home, &env);
    let g = env.load("g-join");
    assert!(g.derived.finished.is_some(), "the game did not end");
    assert!(bots.sent > 8, "only {} mails", bots.sent);
    dt::replay_and_audit(&home, "g-join");
}
