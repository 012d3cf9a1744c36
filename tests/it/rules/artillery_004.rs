//! Issue 12 item 2 (artillery and special weapons of seed 004, with 000 where it says the same):
//! 004 "Artillery Weapons (Range A)", "Artillery Strike", "Magazine Reload", "[Weapon Name]:
//! Reload", "Reloadable Weapons", "Burst Weapons" and "Setup Weapons" (rulings R415–R419). Orders
//! go through the real parser and state machine (`DustTactics::submit`); the artillery cards are
//! the provisional ones of games/dust-tactics/cards-artillery/, read as `new --cards` reads them.

use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card_for_new;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, Outcome, ScriptedDice};

/// A card of games/dust-tactics/cards-artillery/, validated as `new --cards` validates it.
pub(super) fn artillery_card(stem: &str) -> Card {
    let file = format!("{stem}.toml");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/dust-tactics/cards-artillery")
        .join(&file);
    let text = std::fs::read_to_string(&path).expect("artillery card");
    parse_card_for_new(&file, &text).unwrap_or_else(|e| panic!("{e}"))
}

/// The cards of these tests: the artillery robots, the Observer Team, a plain squad `sq`.
fn cards(extra: Vec<Card>) -> Vec<Card> {
    let mut v = vec![
        artillery_card("allied-artillery-robot"),
        artillery_card("axis-artillery-robot"),
        artillery_card("observer-team"),
        squad("sq"),
    ];
    v.extend(extra);
    v
}

/// A game under `ruleset`, reactive fire off (standing `never`), allies activating first.
pub(super) fn game(
    ruleset: &str,
    allies: Vec<UnitSpec>,
    axis: Vec<UnitSpec>,
    extra: Vec<Card>,
) -> State {
    let mut st = DustTactics
        .start(ruleset, scenario(allies, axis), cards(extra))
        .expect("setup");
    if st.rules().reactive_fire() {
        for side in st.sides() {
            dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
                .expect("standing react never");
        }
    }
    begin(&mut st, "allies");
    st
}

/// The allied artillery robot `gun` on E9, the Observer Team `obs` on E5, axis squad `foe` on E2
/// (7 squares from the gun, 3 from the observer; the board is open).
fn battery(ruleset: &str) -> State {
    game(
        ruleset,
        vec![
            unit("gun", "allied-artillery-robot", Some("E9")),
            unit("obs", "observer-team", Some("E5")),
            unit("pal", "sq", Some("A9")),
        ],
        vec![
            unit("foe", "sq", Some("E2")),
            unit("foe2", "sq", Some("I1")),
        ],
        vec![],
    )
}

/// The dice of one artillery shot at `foe` (3 dice against soldier armour 2): two hits, a miss.
fn two_hits() -> ScriptedDice {
    ScriptedDice::new([1, 2, 6, 6, 6, 6, 6, 6, 6, 6])
}

pub(super) fn refusal(out: &Outcome) -> (String, String, String) {
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } => (reason.clone(), rule.clone(), instead.clone()),
        o => panic!("expected a refusal, got {o:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// 004 "Artillery Weapons (Range A)": indirect shots
// ---------------------------------------------------------------------------------------------

// issue 12 item 2: 004 "Artillery Weapons (Range A)", indirect shot: "If the observer orders an
// artillery strike, immediately activate the artillery unit and fire the indirect shot. This is
// resolved just like a normal attack"; "the artillery unit has used its activation for this
// round"; "If the observer's first action was ordering the indirect shot, it can continue with
// its second action" (R416).
#[test]
fn artillery_004_indirect_shot_the_observer_activates_the_artillery_unit_which_fires() {
    let mut st = battery("ffg-revised");
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nmove E6",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let t = texts(&out);
    assert!(
        t.contains("obs calls an artillery strike: gun activates"),
        "{t}"
    );
    assert!(t.contains("gun fires Artillery gun"), "{t}");
    assert_eq!(
        u(&st, "foe").models.len(),
        2,
        "two hits, two casualties: {t}"
    );
    assert!(
        u(&st, "gun").activated,
        "the strike used the gun's activation"
    );
    assert_eq!(
        u(&st, "obs").at,
        Some(sq("E6")),
        "the observer's second action"
    );
    // The gun's card is turned: axis activates next, and then the gun cannot.
    assert_eq!(st.next_side.as_deref(), Some("axis"));
    let out = send(
        &mut st,
        "axis",
        "activate foe\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let out = send(
        &mut st,
        "allies",
        "activate gun\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(refusal(&out).0.contains("already activated"), "{out:?}");
}

// issue 12 item 2: 004 "Artillery Weapons (Range A)": "Indirect shots occur during the observer's
// activation, not during the artillery unit's activation, so are only possible if the artillery
// unit has not yet activated." Refused, naming the rule, and nothing changes (R416).
#[test]
fn artillery_004_indirect_shot_only_if_the_artillery_unit_has_not_yet_activated() {
    let mut st = battery("ffg-revised");
    let out = send(
        &mut st,
        "allies",
        "activate gun\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let out = send(
        &mut st,
        "axis",
        "activate foe\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(reason.contains("gun has already activated"), "{reason}");
    assert!(
        rule.contains("004 'Artillery Weapons (Range A)'")
            && rule.contains("only possible if the artillery unit has not yet activated"),
        "{rule}"
    );
    assert!(instead.contains("has not activated"), "{instead}");
    assert_eq!(st, before, "a refusal changes nothing");
}

// issue 12 item 2: 004 "Artillery Strike": "perform 1 indirect shot at a unit to which the
// observer can trace LOS". Trees between the observer and the target: refused, nothing changes;
// the gun itself need not see the target (trees before it, the observer beside them sees, R416).
#[test]
fn artillery_strike_004_the_observer_must_trace_line_of_sight_to_the_target() {
    let mut st = battery("ffg-revised");
    st.scenario.board.set_terrain(sq("E4"), Terrain::Trees);
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, _) = refusal(&out);
    assert!(reason.contains("obs cannot see foe"), "{reason}");
    assert!(rule.contains("004 'Artillery Strike'"), "{rule}");
    assert_eq!(st, before);
    // The observer steps aside to D5 and sees foe past the trees; the gun on E9 does not matter.
    st.scenario.board.set_terrain(sq("E8"), Terrain::Trees);
    let out = send(
        &mut st,
        "allies",
        "activate obs\nmove D5\nskill artillery-strike at foe",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "foe").models.len(), 2, "{}", texts(&out));
}

// issue 12 item 2: 004 "Artillery Strike": "The target must be within the artillery weapon's
// range", and 004 "Artillery Weapons (Range A)": "Artillery weapons have a minimum range of 4",
// measured from the artillery unit (R416).
#[test]
fn artillery_strike_004_the_target_must_be_within_the_artillery_weapon_s_range() {
    let mut st = game(
        "ffg-revised",
        vec![
            unit("gun", "allied-artillery-robot", Some("E9")),
            unit("obs", "observer-team", Some("E4")),
        ],
        vec![unit("foe", "sq", Some("E7"))],
        vec![],
    );
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, _) = refusal(&out);
    assert!(
        reason.contains("gun at E9 is 2 squares from E7") && reason.contains("at least 4"),
        "{reason}"
    );
    assert!(
        rule.contains("the target must be within the artillery weapon's range"),
        "{rule}"
    );
    assert_eq!(st, before);
}

// issue 12 item 2: 004 "Artillery Strike": "The unit is an observer": a unit without the skill
// cannot order a strike, and a side without an artillery unit has nothing to call (R416).
#[test]
fn artillery_strike_004_only_an_observer_orders_it_and_only_to_artillery() {
    let mut st = battery("ffg-revised");
    let out = send(
        &mut st,
        "allies",
        "activate gun\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, _) = refusal(&out);
    assert!(reason.contains("gun is not an observer"), "{reason}");
    assert!(rule.contains("004 'Artillery Strike'"), "{rule}");
    let mut st = game(
        "ffg-revised",
        vec![unit("obs", "observer-team", Some("E5"))],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    );
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    assert!(
        refusal(&out)
            .0
            .contains("no friendly artillery unit on the battlefield"),
        "{out:?}"
    );
}

// issue 12 item 2: 004 "Artillery Strike": "activate a friendly artillery unit": with two on
// the battlefield the order names the one it calls (`skill artillery-strike gun2 at foe`, R416).
#[test]
fn artillery_strike_004_with_two_artillery_units_the_order_names_one() {
    let mut st = game(
        "ffg-revised",
        vec![
            unit("gun", "allied-artillery-robot", Some("E9")),
            unit("gun2", "allied-artillery-robot", Some("A9")),
            unit("obs", "observer-team", Some("E5")),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![],
    );
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, _, instead) = refusal(&out);
    assert!(reason.contains("gun, gun2"), "{reason}");
    assert!(
        instead.contains("skill artillery-strike <one of gun, gun2> at foe"),
        "{instead}"
    );
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike gun2 at foe\nnothing",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "gun2").activated && !u(&st, "gun").activated);
    assert!(texts(&out).contains("gun2 fires Artillery gun"));
}

// issue 12 item 2: 004 "Radioman": "Artillery Strike (SKILL). The radioman can call in an
// Artillery Strike. When the radioman is eliminated, the command squad cannot use the Artillery
// Strike skill"; it is the command squad's one attempt of the round (R416).
#[test]
fn artillery_strike_004_the_radioman_of_a_command_squad_calls_it_while_he_lives() {
    let mut cs = with_skill(squad("cs"), "command-squad", None);
    cs = with_skill(cs, "artillery-strike", None);
    cs.health = 5;
    cs.models = [
        "officer",
        "radioman",
        "mechanic",
        "medic",
        "weapon-specialist",
    ]
    .iter()
    .map(|m| ModelSpec {
        id: m.to_string(),
        carries: vec!["gun".into()],
    })
    .collect();
    let mut st = game(
        "ffg-revised",
        vec![
            unit("gun", "allied-artillery-robot", Some("E9")),
            unit("hq", "cs", Some("E5")),
        ],
        vec![unit("foe", "sq", Some("E2"))],
        vec![cs],
    );
    // The radioman alive: a second command-squad ability in the activation is refused.
    let out = send(
        &mut st,
        "allies",
        "activate hq\nskill artillery-strike at foe\nskill get-moving at gun",
        &mut two_hits(),
    );
    assert!(
        refusal(&out)
            .0
            .contains("already attempted a command squad ability"),
        "{out:?}"
    );
    // The radioman eliminated: no Artillery Strike.
    let mut without = st.clone();
    without
        .unit_mut("hq")
        .unwrap()
        .models
        .retain(|m| m != "radioman");
    let out = send(
        &mut without,
        "allies",
        "activate hq\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, _) = refusal(&out);
    assert!(
        reason.contains("radioman of hq has been eliminated"),
        "{reason}"
    );
    assert!(rule.contains("004 'Command Squads'"), "{rule}");
    let out = send(
        &mut st,
        "allies",
        "activate hq\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "foe").models.len(), 2, "{}", texts(&out));
    assert_eq!(u(&st, "hq").command_round, Some(1));
}

// issue 12 item 2, classic-2010 where 000 says the same: 000 "What can a unit do when it is
// activated?": "calling an artillery strike for the Observer Team … All these special actions
// count towards the two actions a unit is allowed per round" (R416).
#[test]
fn artillery_strike_000_a_special_action_counts_towards_the_two_actions_classic_2010() {
    let mut st = battery("classic-2010");
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nmove E6\nmove E7",
        &mut two_hits(),
    );
    assert!(
        refusal(&out).0.contains("3 actions are declared"),
        "{out:?}"
    );
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "foe").models.len(), 2, "{}", texts(&out));
    assert!(u(&st, "gun").activated);
}

// ---------------------------------------------------------------------------------------------
// 004 "Artillery Weapons (Range A)": direct shots and reload
// ---------------------------------------------------------------------------------------------

// issue 12 item 2: 004 "Artillery Weapons (Range A)": "After they fire, the unit must reload at a
// cost of 1 SKILL action before it can fire that weapon again." A direct shot empties the gun;
// next round firing it is refused; `skill reload` then the shot is accepted (R415).
#[test]
fn artillery_004_after_they_fire_the_unit_must_reload_before_it_can_fire_again() {
    let mut st = battery("ffg-revised");
    let out = send(
        &mut st,
        "allies",
        "activate gun\nattack howitzer at foe\nnothing",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(texts(&out).contains("gun fires Artillery gun"));
    assert!(u(&st, "gun").unloaded.contains("howitzer"));
    next_round(&mut st);
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate gun\nattack howitzer at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(
        reason.contains("Artillery gun of gun is not loaded"),
        "{reason}"
    );
    assert!(
        rule.contains("004 'Artillery Weapons (Range A)'") && rule.contains("R415"),
        "{rule}"
    );
    assert!(instead.contains("skill reload howitzer"), "{instead}");
    assert_eq!(st, before);
    // Its other weapon still fires: only the artillery line waits for its reload.
    let out = send(
        &mut st,
        "allies",
        "activate gun\nskill reload\nattack howitzer at foe",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out).contains("gun reloads howitzer"),
        "{}",
        texts(&out)
    );
    assert!(texts(&out).contains("gun fires Artillery gun"));
    assert!(u(&st, "gun").unloaded.contains("howitzer"));
}

// issue 12 item 2: 004 "Artillery Weapons (Range A)": "After they fire, the unit must reload at a
// cost of 1 SKILL action": an artillery unit called by an observer is empty after its indirect
// shot too, and cannot be called again until it reloads (R415, R416).
#[test]
fn artillery_004_an_indirect_shot_empties_the_artillery_weapon_too() {
    let mut st = battery("ffg-revised");
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "gun").unloaded.contains("howitzer"));
    next_round(&mut st);
    let out = send(
        &mut st,
        "allies",
        "activate obs\nskill artillery-strike at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, _) = refusal(&out);
    assert!(
        reason.contains("the artillery of gun is not loaded"),
        "{reason}"
    );
    assert!(
        rule.contains("reload at a cost of 1 SKILL action"),
        "{rule}"
    );
}

// issue 12 item 2: 004 "Reloadable Weapons": "A unit can fire and reload its weapon during the
// same round, (which would use both the unit's actions)"; and a reload with nothing to reload is
// refused, naming the rule (R415).
#[test]
fn artillery_004_fire_and_reload_in_the_same_activation() {
    let mut st = battery("ffg-revised");
    let out = send(
        &mut st,
        "allies",
        "activate gun\nskill reload\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, _) = refusal(&out);
    assert!(reason.contains("no empty weapon to reload"), "{reason}");
    assert!(rule.contains("004 'Reloadable Weapons'"), "{rule}");
    let out = send(
        &mut st,
        "allies",
        "activate gun\nattack howitzer at foe\nskill reload howitzer",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "gun").unloaded.is_empty(), "{}", texts(&out));
}

// issue 12 item 2: 004 "Magazine Reload": "Units with this skill are not required to take a
// SKILL action to reload their artillery weapons": the Axis robot's rockets stay loaded (R417).
#[test]
fn magazine_reload_004_not_required_to_take_a_skill_action_to_reload() {
    let mut st = game(
        "ffg-revised",
        vec![unit("ally", "sq", Some("E8"))],
        vec![unit("rk", "axis-artillery-robot", Some("E1"))],
        vec![],
    );
    let out = send(
        &mut st,
        "allies",
        "activate ally\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let out = send(
        &mut st,
        "axis",
        "activate rk\nattack rockets at ally\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(texts(&out).contains("rk fires Rocket launcher"));
    assert!(u(&st, "rk").unloaded.is_empty(), "still loaded");
    next_round(&mut st);
    let out = send(
        &mut st,
        "allies",
        "activate ally\nnothing\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let out = send(
        &mut st,
        "axis",
        "activate rk\nattack rockets at ally\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
}

// issue 12 item 2: 004 "Artillery Weapons (Range A)": "minimum range of 4 and an unlimited
// maximum range. They ignore all types of cover": a squad behind an ammo crate is hit with no
// cover save; at 3 squares the direct shot is refused (R415).
#[test]
fn artillery_004_minimum_range_4_no_maximum_and_no_cover() {
    let mut saver = squad("saver");
    saver.soft_save = Save::Hit;
    saver.hard_save = Save::Hit;
    let mut st = game(
        "ffg-revised",
        vec![
            unit("gun", "allied-artillery-robot", Some("E9")),
            unit("pal", "sq", Some("A9")),
        ],
        vec![
            unit("foe", "saver", Some("E1")),
            unit("near", "sq", Some("E6")),
        ],
        vec![saver],
    );
    st.scenario.board.cover.insert(
        sq("E2"),
        CoverElement {
            kind: CoverKind::AmmoCrate,
            damage: 0,
        },
    );
    let out = send(
        &mut st,
        "allies",
        "activate gun\nattack howitzer at near\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, _) = refusal(&out);
    assert!(reason.contains("3 squares from E6"), "{reason}");
    assert!(rule.contains("004 'Range'"), "{rule}");
    // Two hits, then dice that would save both were a cover save rolled.
    let out = send(
        &mut st,
        "allies",
        "activate gun\nattack howitzer at foe\nnothing",
        &mut ScriptedDice::new([1, 2, 6, 1, 1, 1, 1]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let t = texts(&out);
    assert_eq!(u(&st, "foe").models.len(), 2, "{t}");
}

// issue 12 item 2: the three artillery cards (000 names the artillery robots and the Observer
// Team; every value not stated is listed as provisional) are accepted by `new --cards`.
#[test]
fn artillery_004_the_artillery_cards_load_for_new_with_their_provisional_values() {
    for stem in [
        "allied-artillery-robot",
        "axis-artillery-robot",
        "observer-team",
    ] {
        let c = artillery_card(stem);
        assert!(!c.sources.is_empty() && !c.provisional.is_empty(), "{stem}");
    }
    assert!(artillery_card("observer-team").has_skill("artillery-strike"));
    assert!(artillery_card("axis-artillery-robot").has_skill("magazine-reload"));
}

// issue 12 item 2: R415 came with rules revision 4; a game made before keeps firing its artillery
// every activation (its ledger replays as recorded).
#[test]
fn artillery_004_a_game_made_under_rules_revision_3_needs_no_reload() {
    let mut st = battery("ffg-revised");
    st.rules_revision = 3;
    let out = send(
        &mut st,
        "allies",
        "activate gun\nattack howitzer at foe\nnothing",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "gun").unloaded.is_empty());
}

// ---------------------------------------------------------------------------------------------
// 004 "Special Weapons": Reloadable, Burst, Setup
// ---------------------------------------------------------------------------------------------

/// A vehicle card `id` with one weapon line `w` (range 6, `x`/1 against everything, `trait_`).
fn gun_card(id: &str, w: &str, x: u8, trait_: WeaponTrait) -> Card {
    let mut line = weapon(w, WeaponRange::Upto(6), x, 1);
    line.traits = vec![trait_];
    card(id, UnitType::Vehicle, 3, 1, vec![line])
}

/// The "fires" lines of an outcome.
fn fired(out: &Outcome) -> Vec<String> {
    out.happenings
        .iter()
        .map(|h| h.text.clone())
        .filter(|t| t.contains(" fires "))
        .collect()
}

// issue 12 item 2: 004 "Reloadable Weapons": "Reloadable weapons begin the game loaded … When the
// unit fires this weapon, remove the token … To reload (and replace the token), the unit must
// perform 1 SKILL action." (R415)
#[test]
fn reloadable_weapons_004_begin_loaded_firing_empties_them_one_skill_action_reloads() {
    let mut st = game(
        "ffg-revised",
        vec![unit("rl", "reloader", Some("E8"))],
        vec![unit("foe", "sq", Some("E3"))],
        vec![gun_card("reloader", "bazooka", 1, WeaponTrait::Reloadable)],
    );
    let out = send(
        &mut st,
        "allies",
        "activate rl\nattack bazooka at foe\nnothing",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "rl").unloaded.contains("bazooka"));
    next_round(&mut st);
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate rl\nattack bazooka at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(reason.contains("bazooka of rl is not loaded"), "{reason}");
    assert!(rule.contains("004 'Reloadable Weapons'"), "{rule}");
    assert!(instead.contains("skill reload bazooka"), "{instead}");
    assert_eq!(st, before);
    let out = send(
        &mut st,
        "allies",
        "activate rl\nskill reload bazooka\nattack bazooka at foe",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(fired(&out).len(), 1, "{}", texts(&out));
}

// issue 12 item 2: 004 "Burst Weapons": "When firing a burst weapon at a target that has not
// performed a MOVE action this round, double the number of dice rolled." (R418)
#[test]
fn burst_weapons_004_double_the_dice_against_a_target_that_has_not_moved() {
    let mut st = game(
        "ffg-revised",
        vec![
            unit("bu1", "burster", Some("D8")),
            unit("bu2", "burster", Some("F8")),
        ],
        vec![
            unit("foe", "sq", Some("E3")),
            unit("foe2", "sq", Some("I1")),
        ],
        vec![gun_card("burster", "mg", 1, WeaponTrait::Burst)],
    );
    let out = send(
        &mut st,
        "allies",
        "activate bu1\nattack mg at foe\nnothing",
        &mut ScriptedDice::new([1, 1]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let f = fired(&out).join("\n");
    assert!(
        f.contains("2 dice") && f.contains("burst: double dice"),
        "{f}"
    );
    assert_eq!(u(&st, "foe").models.len(), 2);
    let out = send(
        &mut st,
        "axis",
        "activate foe\nmove E4\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    // foe moved this round: the burst weapon rolls its printed single die.
    let out = send(
        &mut st,
        "allies",
        "activate bu2\nattack mg at foe\nnothing",
        &mut ScriptedDice::new([1]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let f = fired(&out).join("\n");
    assert!(f.contains("1 dice") && !f.contains("burst"), "{f}");
    assert_eq!(u(&st, "foe").models.len(), 1);
}

// issue 12 item 2: 004 "Setup Weapons": "If a unit performs a MOVE + ATTACK or ATTACK + MOVE
// activation and fires a setup weapon, it only rolls half of that weapon's combat dice (rounded
// up) during the ATTACK action." 3 dice become 2; standing still it rolls all 3 (R419).
#[test]
fn setup_weapons_004_half_the_dice_rounded_up_in_a_move_and_attack_activation() {
    let mut st = game(
        "ffg-revised",
        vec![
            unit("su1", "setter", Some("C8")),
            unit("su2", "setter", Some("E8")),
            unit("su3", "setter", Some("F8")),
        ],
        vec![
            unit("foe", "sq", Some("E2")),
            unit("foe2", "sq", Some("A1")),
            unit("foe3", "sq", Some("I1")),
        ],
        vec![gun_card("setter", "hg", 3, WeaponTrait::Setup)],
    );
    let dice_of = |st: &mut State, side: &str, orders: &str, n: usize| -> String {
        let out = send(st, side, orders, &mut ScriptedDice::new(vec![6; n]));
        assert!(first_result(&out).is_ok(), "{out:?}");
        fired(&out).join("\n")
    };
    let f = dice_of(
        &mut st,
        "allies",
        "activate su1\nmove C7\nattack hg at foe",
        2,
    );
    assert!(
        f.contains("2 dice") && f.contains("setup: half dice"),
        "{f}"
    );
    dice_of(&mut st, "axis", "activate foe2\nnothing\nnothing", 0);
    let f = dice_of(
        &mut st,
        "allies",
        "activate su2\nattack hg at foe\nmove E7",
        2,
    );
    assert!(
        f.contains("2 dice") && f.contains("setup: half dice"),
        "{f}"
    );
    dice_of(&mut st, "axis", "activate foe3\nnothing\nnothing", 0);
    let f = dice_of(
        &mut st,
        "allies",
        "activate su3\nattack hg at foe\nnothing",
        3,
    );
    assert!(f.contains("3 dice") && !f.contains("setup"), "{f}");
}

// issue 12 item 2: a card may now name the traits `reloadable`, `burst`, `setup` and `dual_ammo`
// (004 "Special Weapons"), `tesla` since R561, and the phaser cell `3xY`; a trait the engine does
// not know is still refused when the card is read, naming the file (R400).
#[test]
fn special_weapons_004_cards_name_the_traits_the_engine_plays_and_no_other() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games/dust-tactics/cards-artillery/allied-artillery-robot.toml"),
    )
    .unwrap();
    for (t, ok) in [
        ("reloadable", true),
        ("burst", true),
        ("setup", true),
        // Issue 12: Tesla weapons are played (R561, R562).
        ("tesla", true),
        ("dual_ammo", true),
        ("sonic", false),
    ] {
        let with = text.replacen(
            "range = \"4\"",
            &format!("range = \"4\"\ntraits = [\"{t}\"]"),
            1,
        );
        let r = parse_card_for_new("allied-artillery-robot.toml", &with);
        assert!(
            parse_card_for_new(
                "allied-artillery-robot.toml",
                &text.replacen("\"3/1\", \"3/1\", \"2/1\"", "\"3xY\", \"3xY\", \"2/1\"", 1)
            )
            .is_ok_and(|c| c.weapons[0].soldier[0] == Fire::Phaser { dice: 3 }),
            "a phaser cell reads as written"
        );
        assert_eq!(r.is_ok(), ok, "{t}: {r:?}");
        if let Err(e) = r {
            assert_eq!(e.file, "allied-artillery-robot.toml");
            assert!(e.reason.contains(t), "{e}");
        }
    }
}

/// A vehicle carrying one dual-ammo weapon, "Panzerfaust 150", as two lines: `he` and `ap`.
fn dual_card() -> Card {
    let mut he = weapon("he", WeaponRange::Upto(6), 1, 1);
    let mut ap = weapon("ap", WeaponRange::Upto(6), 1, 2);
    for l in [&mut he, &mut ap] {
        l.name = "Panzerfaust 150".into();
        l.traits = vec![WeaponTrait::DualAmmo];
    }
    card("duo", UnitType::Vehicle, 3, 1, vec![he, ap])
}

// issue 12 item 2: 004 "Dual Ammo Weapons": "Each time a unit fires a dual ammo weapon, the
// controlling player must announce which type of ammunition is being used": one line per attack,
// both refused with the rule and what to keep, nothing changed (R420).
#[test]
fn dual_ammo_weapons_004_announce_which_type_of_ammunition_is_being_used() {
    let mut st = game(
        "ffg-revised",
        vec![unit("dw", "duo", Some("E8"))],
        vec![unit("foe", "sq", Some("E3"))],
        vec![dual_card()],
    );
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate dw\nattack he at foe, ap at foe\nnothing",
        &mut two_hits(),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(
        reason.contains("he and ap are two ammunitions of one weapon, Panzerfaust 150"),
        "{reason}"
    );
    assert!(
        rule.contains("004 'Dual Ammo Weapons'") && rule.contains("announce which type"),
        "{rule}"
    );
    assert_eq!(instead, "keep `he` or `ap`, not both");
    assert_eq!(st, before);
    let out = send(
        &mut st,
        "allies",
        "activate dw\nattack ap at foe\nnothing",
        &mut ScriptedDice::new([1]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    // The AP ammunition's line: 1 hit, 2 damage.
    assert_eq!(u(&st, "foe").models.len(), 2, "{}", texts(&out));
}

// issue 12 item 2: 004 "Dual Ammo Weapons": reactive fire, which fires every line that can
// reach, announces the weapon's first ammunition in card order (R420).
#[test]
fn dual_ammo_weapons_004_reactive_fire_fires_one_ammunition() {
    let mut st = DustTactics
        .start(
            "ffg-revised",
            scenario(
                vec![unit("pal", "sq", Some("E9"))],
                vec![unit("dw", "duo", Some("E3"))],
            ),
            cards(vec![dual_card()]),
        )
        .expect("setup");
    dustmail::dust_tactics::flow::standing_react(&mut st, "axis", None, Policy::Ask).unwrap();
    begin(&mut st, "allies");
    let out = send(
        &mut st,
        "allies",
        "activate pal\nmove E8\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let out = send(&mut st, "axis", "react dw", &mut Cycle(0));
    assert!(first_result(&out).is_ok(), "{out:?}");
    let f = fired(&out);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("dw fires Panzerfaust 150"), "{f:?}");
}

// ---------------------------------------------------------------------------------------------
// 004 "Special Combat Values": Phaser
// ---------------------------------------------------------------------------------------------

/// A vehicle `ph` with a phaser `2xY` (range 8) on E8; the axis squad `foe` (hit saves in soft
/// and hard cover) on E1 behind an ammo crate on E2.
fn phaser_game() -> State {
    let mut line = weapon("phaser", WeaponRange::Upto(8), 1, 1);
    line.soldier = [Fire::Phaser { dice: 2 }; 4];
    let mut saver = squad("saver");
    saver.soft_save = Save::Hit;
    saver.hard_save = Save::Hit;
    let mut st = game(
        "ffg-revised",
        vec![unit("ph", "phasers", Some("E8"))],
        vec![unit("foe", "saver", Some("E1"))],
        vec![card("phasers", UnitType::Vehicle, 3, 1, vec![line]), saver],
    );
    st.scenario.board.cover.insert(
        sq("E2"),
        CoverElement {
            kind: CoverKind::AmmoCrate,
            damage: 0,
        },
    );
    st
}

// issue 12 item 2: 004 "Phaser Weapons X×Y": "Roll 'X' dice and total the number of [hit]
// results: this total is equal to 'Y'. Roll 'Y' dice and inflict 1 damage for each [hit] result.
// Phasers ignore all cover." X = 2 dice, both hit: Y = 2 dice, one hits: 1 damage, and no cover
// save is rolled (the script holds exactly the four dice) (R421).
#[test]
fn phaser_weapons_004_x_dice_make_y_dice_each_hit_one_damage_no_cover() {
    let mut st = phaser_game();
    let mut d = ScriptedDice::new([1, 2, 1, 6]);
    let out = send(
        &mut st,
        "allies",
        "activate ph\nattack phaser at foe\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    let f = fired(&out).join("\n");
    assert!(
        f.contains("2 dice") && f.contains("phaser: 2 hit(s) make 2 damage dice"),
        "{f}"
    );
    assert!(f.contains("1 hit") && !f.contains("saved"), "{f}");
    assert_eq!(u(&st, "foe").models.len(), 3);
}

// issue 12 item 2: 004 "Phaser Weapons X×Y": "If you perform a SUSTAINED ATTACK, reroll the 'X'
// value": the miss of the X roll is re-rolled and hits, so Y = 2; the Y dice are not re-rolled
// (R421).
#[test]
fn phaser_weapons_004_a_sustained_attack_rerolls_the_x_value_only() {
    let mut st = phaser_game();
    // X: hit, miss; the miss re-rolled: hit. Y: miss, miss, and no re-roll of them.
    let mut d = ScriptedDice::new([1, 6, 2, 6, 6]);
    let out = send(
        &mut st,
        "allies",
        "activate ph\nsustained phaser at foe",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(u(&st, "foe").models.len(), 4, "{}", texts(&out));
}

// issue 12 item 2 (and issue 16 item 3, the template offers only orders that pass): the orders
// template offers the observer's strike (004 "Artillery Strike") and, once the gun has fired, its
// reload (004 "Artillery Weapons": "the unit must reload at a cost of 1 SKILL action"); both
// offers are accepted as written (R415, R416).
#[test]
fn artillery_004_the_orders_template_offers_the_strike_and_the_reload() {
    let mut st = battery("ffg-revised");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("#   skill artillery-strike gun at foe"), "{t}");
    assert!(!t.contains("skill reload"), "nothing is empty yet: {t}");
    let out = send(
        &mut st,
        "allies",
        "activate gun\nattack howitzer at foe\nnothing",
        &mut two_hits(),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    next_round(&mut st);
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("#   skill reload howitzer"), "{t}");
    assert!(
        !t.contains("attack howitzer"),
        "an empty gun is not offered: {t}"
    );
    assert!(!t.contains("skill artillery-strike"), "nor called: {t}");
    let out = send(
        &mut st,
        "allies",
        "activate gun\nskill reload howitzer\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "gun").unloaded.is_empty());
}
