//! Issue 12: 004 "Minefields", "Engineer Vehicle" (the minefield part) and "Recovery Vehicle"
//! (rulings R480–R485). Orders go through the real parser and state machine
//! (`DustTactics::submit`); each test quotes the sentence it checks.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::{self, UnitSpec};
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Outcome, ScriptedDice};

/// A vehicle card: armour 3, Movement 3, `health`, a 1/1 gun of range 4.
fn vehicle(id: &str, health: u8) -> Card {
    card(
        id,
        UnitType::Vehicle,
        health,
        3,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    )
}

/// A four-model squad of Movement 3 (models "1" to "4").
fn runners() -> Card {
    card(
        "runners",
        UnitType::Squad,
        4,
        3,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    )
}

/// The cards of these tests.
fn cards() -> Vec<Card> {
    let mut plane = vehicle("plane", 2);
    plane.armour = Armour::Aircraft(1);
    vec![
        runners(),
        squad("sq"),
        vehicle("tank", 4),
        vehicle("jeep", 1),
        plane,
        with_skill(vehicle("engineer", 4), "engineer-vehicle", None),
        with_skill(vehicle("wagon", 4), "recovery-vehicle", None),
    ]
}

/// A game on the 9×9 open board with minefield tokens on `mines`, reactive fire off (standing
/// `never`), allies activating first.
fn game(allies: Vec<UnitSpec>, axis: Vec<UnitSpec>, mines: &[(&str, u8)]) -> State {
    let mut s = scenario(allies, axis);
    for (at, n) in mines {
        s.board.mines.insert(sq(at), *n);
    }
    game_of(s, vec![])
}

/// The game of scenario `s` with the cards of these tests and `extra`, as [`game`].
fn game_of(s: scenario::Scenario, extra: Vec<Card>) -> State {
    let mut all = cards();
    all.extend(extra);
    let mut st = DustTactics.start("ffg-revised", s, all).expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// The recorded rolls of an outcome whose purpose starts with `purpose`.
fn rolls(out: &Outcome, purpose: &str) -> Vec<Vec<u8>> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter())
        .filter(|r| r.purpose.starts_with(purpose))
        .map(|r| r.faces.clone())
        .collect()
}

fn refusal(out: &Outcome) -> (String, String, String) {
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } => (reason.clone(), rule.clone(), instead.clone()),
        o => panic!("expected a refusal, got {o:?}"),
    }
}

/// A scenario file of one 6×6 board with `mines` under `[board]`.
fn scenario_text(rows: &[&str], mines: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        "title = \"T\"\nrounds = 2\nap_limit = 10\n[board]\nrows = [{}]\nmines = [{mines}]\n\
         [[sides]]\nid = \"allies\"\nentry = {{ rows = [6] }}\n\
         [[sides.units]]\nid = \"a\"\ncard = \"sq\"\n\
         [[sides]]\nid = \"axis\"\nentry = {{ rows = [1] }}\n\
         [[sides.units]]\nid = \"b\"\ncard = \"sq\"\n",
        rows.join(", ")
    )
}

// ---------------------------------------------------------------------------------------------
// 004 "Minefields"
// ---------------------------------------------------------------------------------------------

// 004 "Minefields": "Minefield tokens can only be placed in spaces that soldier units can pass
// through." Impassable terrain and deep water are refused, naming the square and the rule;
// trees, rubble and smoke take tokens (R480).
#[test]
fn minefields_004_tokens_only_in_spaces_soldier_units_can_pass_through() {
    let rows = ["......", "..#...", ".~T+*.", "......", "......", "......"];
    let ok = scenario::parse(
        "m",
        &scenario_text(
            &rows,
            "{ at = \"C3\", tokens = 2 }, { at = \"D3\" }, { at = \"E3\" }",
        ),
    )
    .expect("trees, rubble and smoke take tokens");
    assert_eq!(ok.board.mines.get(&sq("C3")), Some(&2));
    assert_eq!(
        ok.board.mines.get(&sq("D3")),
        Some(&1),
        "tokens default to 1"
    );
    for (at, terrain) in [("C2", "impassable"), ("B3", "deep water")] {
        let err = scenario::parse("m", &scenario_text(&rows, &format!("{{ at = \"{at}\" }}")))
            .expect_err("no tokens where soldiers cannot pass");
        assert!(err.0.contains(&format!("{at} is {terrain}")), "{err}");
        assert!(
            err.0
                .contains("only be placed in spaces that soldier units can pass through"),
            "{err}"
        );
        assert!(err.0.contains("board.mines[0]"), "{err}");
    }
    let err = scenario::parse("m", &scenario_text(&rows, "{ at = \"A1\", tokens = 0 }"))
        .expect_err("no empty minefield");
    assert!(err.0.contains("from 1 to 9"), "{err}");
}

// 004 "Minefields": "When a soldier or vehicle unit moves into such a space, for each token,
// roll 1 die separately for each miniature in the unit. If a [hit] is rolled, the miniature
// suffers 1 point of damage." Four soldiers into 2 tokens: 8 dice, 2 per miniature; model 1 and
// model 3 are hit (model 3 twice), and only they are lost (R482).
#[test]
fn minefields_004_each_miniature_of_a_soldier_unit_rolls_one_die_per_token() {
    let mut st = game(
        vec![unit("mob", "runners", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 2)],
    );
    let mut d = ScriptedDice::new([1, 5, 5, 6, 2, 2, 6, 6]);
    let out = send(&mut st, "allies", "activate mob\nmove E8\nnothing", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "8 dice: 2 tokens × 4 miniatures");
    assert_eq!(
        rolls(&out, "minefield on E8"),
        vec![vec![1, 5, 5, 6, 2, 2, 6, 6]]
    );
    assert_eq!(u(&st, "mob").models, vec!["2", "4"], "{}", texts(&out));
    let t = texts(&out);
    assert!(
        t.contains("mob moves into the minefield on E8 (2 tokens): 2 dice for each of 4 miniatures, 3 hits (model 1 1, model 3 2)"),
        "{t}"
    );
    assert_eq!(u(&st, "mob").at, Some(sq("E8")));
}

// 004 "Minefields": "roll 1 die separately for each miniature in the unit": a hero joined to the
// squad is one miniature more; his hit costs him 1 health, not a soldier (R482).
#[test]
fn minefields_004_a_joined_hero_is_one_miniature_of_the_unit() {
    let hero = card(
        "joe",
        UnitType::Hero,
        3,
        2,
        vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("mob", "runners", Some("E9")), unit("joe", "joe", None)],
        vec![unit("foe", "sq", Some("A1"))],
    );
    s.sides[0].units[1].joins = Some("mob".into());
    s.board.mines.insert(sq("E8"), 1);
    let mut st = game_of(s, vec![hero]);
    let mut d = ScriptedDice::new([6, 6, 6, 6, 1]);
    let out = send(&mut st, "allies", "activate mob\nmove E8\nnothing", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "5 miniatures, 5 dice");
    assert_eq!(u(&st, "mob").models.len(), 4, "{}", texts(&out));
    assert_eq!(u(&st, "joe").health, 2);
    assert_eq!(u(&st, "joe").at, Some(sq("E8")));
}

// 004 "Minefields" and "Heroes": a squad the mines wipe out leaves its hero fighting on alone;
// he ends the move the unit was making (R481).
#[test]
fn minefields_004_the_hero_of_a_squad_the_mines_wipe_out_ends_the_move() {
    let hero = card(
        "joe",
        UnitType::Hero,
        3,
        2,
        vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
    );
    let solo = card(
        "solo",
        UnitType::Squad,
        1,
        3,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("one", "solo", Some("E9")), unit("joe", "joe", None)],
        vec![unit("foe", "sq", Some("A1"))],
    );
    s.sides[0].units[1].joins = Some("one".into());
    s.board.mines.insert(sq("E8"), 1);
    let mut st = game_of(s, vec![hero, solo]);
    let mut d = ScriptedDice::new([1, 6]);
    let out = send(
        &mut st,
        "allies",
        "activate one\nmove E8 E7\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "one").destroyed, "{}", texts(&out));
    assert_eq!(u(&st, "joe").joined, None);
    assert_eq!(u(&st, "joe").at, Some(sq("E7")), "{}", texts(&out));
    assert!(flow::illegal_positions(&st).is_empty());
}

// 004 "Minefields": a vehicle is one miniature: for each token 1 die, each hit 1 point of
// damage (R482). Two tokens, two hits: 2 health lost.
#[test]
fn minefields_004_a_vehicle_suffers_one_point_of_damage_per_hit() {
    let mut st = game(
        vec![unit("tank", "tank", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 2)],
    );
    let mut d = ScriptedDice::new([1, 2]);
    let out = send(&mut st, "allies", "activate tank\nmove E8\nnothing", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "tank").health, 2, "{}", texts(&out));
}

// 004 "Minefields": "When a soldier or vehicle unit moves into such a space" - every mined space
// of a path is moved into, so each is rolled for in order, and the unit does not stop: it moves
// on to the end of its path (R481).
#[test]
fn minefields_004_every_mined_space_of_a_path_is_rolled_for_and_the_unit_moves_on() {
    let mut st = game(
        vec![unit("mob", "runners", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 1), ("E7", 1)],
    );
    // E8: 4 dice, model 1 hit; E7: the 3 left roll, model 2 hit.
    let mut d = ScriptedDice::new([1, 5, 5, 5, 2, 6, 6]);
    let out = send(
        &mut st,
        "allies",
        "activate mob\nmove E8 E7 E6\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert_eq!(
        rolls(&out, "minefield on"),
        vec![vec![1, 5, 5, 5], vec![2, 6, 6]]
    );
    assert_eq!(u(&st, "mob").models, vec!["3", "4"]);
    assert_eq!(u(&st, "mob").at, Some(sq("E6")), "it moves on through");
}

// 004 "Minefields": a unit entering the battlefield onto a mined square of its entry zone moves
// into that space, and rolls (R481).
#[test]
fn minefields_004_a_unit_entering_onto_a_minefield_rolls() {
    let mut st = game(
        vec![unit("tank", "tank", None)],
        vec![unit("foe", "sq", Some("A1"))],
        &[("C9", 1)],
    );
    let mut d = ScriptedDice::new([2]);
    let out = send(&mut st, "allies", "activate tank\nmove C9\nnothing", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "tank").health, 3);
}

// 004 "Minefields": "Aircraft units are not affected by minefields." No die is rolled.
#[test]
fn minefields_004_aircraft_units_are_not_affected() {
    let mut st = game(
        vec![unit("plane", "plane", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 3)],
    );
    let mut d = ScriptedDice::new([]);
    let out = send(
        &mut st,
        "allies",
        "activate plane\nmove E8\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(rolls(&out, "minefield").is_empty());
    assert_eq!(u(&st, "plane").health, 2);
    assert_eq!(u(&st, "plane").at, Some(sq("E8")));
}

// 004 "Minefields" and "End of the game": a unit the minefield destroys is an enemy unit
// destroyed: its AP count for the other side (R482).
#[test]
fn minefields_004_a_unit_destroyed_by_a_minefield_counts_for_the_other_side() {
    let mut st = game(
        vec![unit("jeep", "jeep", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 1)],
    );
    let mut d = ScriptedDice::new([1]);
    let out = send(&mut st, "allies", "activate jeep\nmove E8\nnothing", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "jeep").destroyed, "{}", texts(&out));
    let p = flow::points(&st, false);
    assert_eq!((p["allies"], p["axis"]), (0, 10));
}

// 004 "Minefields": tokens stand on the text board (`!`) and are listed under it with their
// count (R480).
#[test]
fn minefields_004_the_board_shows_the_tokens() {
    let st = game(
        vec![unit("tank", "tank", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 2), ("C5", 1)],
    );
    let b = dustmail::dust_tactics::view::board_text(&st);
    let row8 = b.lines().find(|l| l.starts_with("  8 ")).expect("row 8");
    assert_eq!(row8.trim_end(), "  8  .  .  .  .  !  .  .  .  .", "{b}");
    assert!(b.contains("! minefield"), "{b}");
    assert!(b.contains("Minefields: C5 (1 token), E8 (2 tokens)"), "{b}");
}

/// The SVG board picture of the game as a spectator's report draws it.
fn svg(st: &State) -> String {
    let view = dustmail::dust_tactics::view::view(st, None);
    let pic = dustmail::dust_tactics::present::picture(&view, None, &[]).expect("a picture");
    dustmail::dust_tactics::picture::svg(&pic)
}

// 004 "Minefields": the board picture draws the tokens of each mined square with their count,
// and its legend names them; a square the Engineer Vehicle cleared is drawn without (R480,
// R483).
#[test]
fn minefields_004_the_picture_draws_the_tokens() {
    let mut st = game(
        vec![unit("eng", "engineer", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 2), ("C5", 1)],
    );
    let before = svg(&st);
    assert!(
        before.contains(r#"class="minefield" data-square="E8""#),
        "{before}"
    );
    assert!(before.contains("minefield E8: 2 tokens"));
    assert!(before.contains(r#"class="minefield" data-square="C5""#));
    assert!(
        before.contains(">minefield (tokens)</text>"),
        "the legend names them"
    );
    let out = send(
        &mut st,
        "allies",
        "activate eng\nmove E8\nskill engineer-vehicle",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let after = svg(&st);
    assert!(
        !after.contains(r#"data-square="E8"><title>minefield"#),
        "cleared"
    );
    assert!(after.contains(r#"class="minefield" data-square="C5""#));
}

// 004 "Minefields" is a rule of 004 only: a scenario with tokens under another ruleset is
// refused at `new` (R480).
#[test]
fn minefields_004_a_scenario_with_minefields_needs_the_ffg_revised_rules() {
    let mut s = scenario(
        vec![unit("tank", "tank", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
    );
    s.board.mines.insert(sq("E8"), 1);
    let err = DustTactics
        .start("classic-2010", s, cards())
        .expect_err("no minefields in 2010");
    assert!(err.0.contains("--ruleset ffg-revised"), "{}", err.0);
}

// ---------------------------------------------------------------------------------------------
// 004 "Engineer Vehicle"
// ---------------------------------------------------------------------------------------------

// 004 "Engineer Vehicle": "Engineer vehicles take no damage from minefields." No die is rolled.
#[test]
fn engineer_vehicle_004_takes_no_damage_from_minefields() {
    let mut st = game(
        vec![unit("eng", "engineer", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 2), ("E7", 1)],
    );
    let mut d = ScriptedDice::new([]);
    let out = send(
        &mut st,
        "allies",
        "activate eng\nmove E8 E7\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(rolls(&out, "minefield").is_empty());
    assert_eq!(u(&st, "eng").health, 4);
    assert!(
        texts(&out).contains("an engineer vehicle takes no damage from minefields"),
        "{}",
        texts(&out)
    );
    assert_eq!(st.scenario.board.mines.len(), 2, "passing clears nothing");
}

// 004 "Engineer Vehicle": "When in a space with a minefield, a unit with this skill may perform
// one skill action to remove all minefield tokens from that space." (R483)
#[test]
fn engineer_vehicle_004_one_skill_action_removes_all_minefield_tokens_from_its_space() {
    let mut st = game(
        vec![unit("eng", "engineer", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 2), ("E7", 1)],
    );
    let out = send(
        &mut st,
        "allies",
        "activate eng\nmove E8\nskill engineer-vehicle",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out).contains("eng clears the minefield on E8: 2 tokens removed"),
        "{}",
        texts(&out)
    );
    assert_eq!(st.scenario.board.mines.get(&sq("E8")), None);
    assert_eq!(
        st.scenario.board.mines.get(&sq("E7")),
        Some(&1),
        "only its own space"
    );
}

// 004 "Engineer Vehicle": the orders template offers `skill engineer-vehicle` only where it is
// accepted: in a space with a minefield (R483).
#[test]
fn engineer_vehicle_004_the_orders_template_offers_the_clearing_in_a_minefield_only() {
    let on = game(
        vec![unit("eng", "engineer", Some("E8"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 1)],
    );
    let t = dustmail::dust_tactics::view::orders_template(&on, "allies");
    assert!(t.contains("skill engineer-vehicle"), "{t}");
    let off = game(
        vec![unit("eng", "engineer", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 1)],
    );
    let t = dustmail::dust_tactics::view::orders_template(&off, "allies");
    assert!(!t.contains("skill engineer-vehicle"), "{t}");
}

// 004 "Engineer Vehicle": "When in a space with a minefield": away from one, the SKILL action
// is refused, naming the rule and where the minefields are, and nothing changes (R483).
#[test]
fn engineer_vehicle_004_the_skill_action_needs_a_space_with_a_minefield() {
    let mut st = game(
        vec![
            unit("eng", "engineer", Some("E9")),
            unit("tank", "tank", Some("A9")),
        ],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E7", 1)],
    );
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate eng\nmove E8\nskill engineer-vehicle",
        &mut ScriptedDice::new([]),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(
        reason.contains("eng is not in a space with a minefield"),
        "{reason}"
    );
    assert!(rule.contains("004 'Engineer Vehicle'"), "{rule}");
    assert!(rule.contains("R483"), "{rule}");
    assert!(instead.contains("E7"), "{instead}");
    assert_eq!(st, before, "a refusal changes nothing");
    // A unit without the skill cannot use it.
    let out = send(
        &mut st,
        "allies",
        "activate tank\nmove A8\nskill engineer-vehicle",
        &mut ScriptedDice::new([]),
    );
    assert!(refusal(&out)
        .0
        .contains("does not have the skill engineer-vehicle"));
}

// ---------------------------------------------------------------------------------------------
// 004 "Recovery Vehicle"
// ---------------------------------------------------------------------------------------------

// 004 "Recovery Vehicle": "When fielding a recovery vehicle, place a marker in the space where
// any friendly ground vehicle is destroyed." The jeep dies on the mined E8 on its way to E7:
// the marker is on E8, where it was destroyed (R484); the board lists it.
#[test]
fn recovery_vehicle_004_a_marker_where_a_friendly_ground_vehicle_is_destroyed() {
    let mut st = game(
        vec![
            unit("jeep", "jeep", Some("E9")),
            unit("wagon", "wagon", Some("D9")),
        ],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 1)],
    );
    let out = send(
        &mut st,
        "allies",
        "activate jeep\nmove E8 E7\nnothing",
        &mut ScriptedDice::new([2]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "jeep").destroyed);
    assert_eq!(st.wrecks.len(), 1, "{}", texts(&out));
    assert_eq!(
        (st.wrecks[0].unit.as_str(), st.wrecks[0].at),
        ("jeep", sq("E8"))
    );
    assert!(texts(&out).contains("a recovery marker is placed on E8"));
    let b = dustmail::dust_tactics::view::board_text(&st);
    assert!(
        b.contains("Recovery markers: jeep on E8 (allies may salvage it)"),
        "{b}"
    );
}

// 004 "Recovery Vehicle": "When fielding a recovery vehicle": a side without one places no
// marker (R484).
#[test]
fn recovery_vehicle_004_no_marker_without_a_recovery_vehicle() {
    let mut st = game(
        vec![
            unit("jeep", "jeep", Some("E9")),
            unit("tank", "tank", Some("D9")),
        ],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 1)],
    );
    let out = send(
        &mut st,
        "allies",
        "activate jeep\nmove E8\nnothing",
        &mut ScriptedDice::new([1]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(u(&st, "jeep").destroyed);
    assert!(st.wrecks.is_empty());
}

// 004 "Recovery Vehicle": "Your recovery vehicle may perform 1 SKILL action in this space to
// salvage the destroyed vehicle. Salvaged vehicles are worth half their cost in APs (rounded
// down) when VPs are used to determine a winner at the end of a game." (R485)
#[test]
fn recovery_vehicle_004_salvaged_vehicles_are_worth_half_their_cost_in_aps() {
    let mut st = game(
        vec![
            unit("jeep", "jeep", Some("E9")),
            unit("wagon", "wagon", Some("D9")),
        ],
        vec![
            unit("foe", "sq", Some("A1")),
            unit("foe2", "sq", Some("B1")),
        ],
        &[("E8", 1)],
    );
    send(
        &mut st,
        "allies",
        "activate jeep\nmove E8\nnothing",
        &mut ScriptedDice::new([1]),
    );
    assert_eq!(flow::points(&st, false)["axis"], 10);
    send(
        &mut st,
        "axis",
        "activate foe\nnothing\nnothing",
        &mut Cycle(1),
    );
    // Away from the marker the SKILL action is refused, naming where the wreck lies.
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate wagon\nmove D8\nskill recovery-vehicle",
        &mut ScriptedDice::new([]),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(reason.contains("no marker"), "{reason}");
    assert!(rule.contains("004 'Recovery Vehicle'"), "{rule}");
    assert!(instead.contains("jeep on E8"), "{instead}");
    assert_eq!(st, before);
    // The recovery vehicle enters the marked space (1 token left there: it rolls) and salvages.
    let out = send(
        &mut st,
        "allies",
        "activate wagon\nmove E8\nskill recovery-vehicle",
        &mut ScriptedDice::new([6]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out)
            .contains("wagon salvages the wreck of jeep on E8: it is worth 5 AP instead of 10"),
        "{}",
        texts(&out)
    );
    assert!(st.wrecks.is_empty(), "the marker is gone");
    assert_eq!(
        flow::points(&st, false)["axis"],
        5,
        "10 AP, half rounded down"
    );
}

// 004 "Recovery Vehicle": "Recovery vehicles have the Self Repair skill": "At the end of each
// round, roll a die for each [health] on the unit card that is marked. For each [hit] rolled,
// the vehicle recovers one [health]."
#[test]
fn recovery_vehicle_004_has_self_repair() {
    let mut st = game(
        vec![unit("wagon", "wagon", Some("E9"))],
        vec![unit("foe", "sq", Some("A1"))],
        &[("E8", 2)],
    );
    send(
        &mut st,
        "allies",
        "activate wagon\nmove E8\nnothing",
        &mut ScriptedDice::new([1, 2]),
    );
    assert_eq!(u(&st, "wagon").health, 2);
    // The round ends: Self Repair rolls 2 dice (one hit), then round 2's initiative.
    let mut d = ScriptedDice::new([1, 6, 1, 5, 5, 5, 5, 5]);
    let out = send(&mut st, "axis", "activate foe\nnothing\nnothing", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out).contains("Self Repair: wagon restores 1 of 2 lost health"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "wagon").health, 3);
    assert_eq!(rolls(&out, "self repair wagon"), vec![vec![1, 6]]);
}

// ---------------------------------------------------------------------------------------------
// A scenario with minefields, played to its end by signed mail
// ---------------------------------------------------------------------------------------------

// 004 "Minefields", "Engineer Vehicle", "Recovery Vehicle": the scenario of
// games/dust-tactics/scenarios-engineering/ with the cards of games/dust-tactics/cards-engineering/
// is played to its end by two players' signed mails through the real pipeline; the reports show
// the minefields, the ledger records the minefield dice with their purpose, and replay and
// audit pass.
#[test]
fn minefields_004_minefield_crossing_played_to_its_end_by_signed_mail() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenario = root.join("games/dust-tactics/scenarios-engineering/minefield-crossing.toml");
    let cards = root.join("games/dust-tactics/cards-engineering");
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &[
            "--scenario",
            scenario.to_str().unwrap(),
            "--cards",
            cards.to_str().unwrap(),
        ],
        ("g-mines", 31, 7),
    );
    let mut bots = dt::Bots::new("g-mines", &ps, |_| Style::Aggressive);
    env.run(dt::NOW);
    bots.play_to_end(&home, &env);
    let g = env.load("g-mines");
    assert!(g.derived.finished.is_some(), "the game did not end");
    let mut mails = String::new();
    for e in std::fs::read_dir(home.root.join("sent")).unwrap() {
        mails.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
    }
    let flat = crate::support::flat(&mails);
    assert!(flat.contains("! minefield"), "the reports show the tokens");
    assert!(flat.contains("Minefields: A3 (1 token), B3 (2 tokens)"));
    let log = std::fs::read_to_string(dt::log_path(&home, "g-mines")).unwrap();
    assert!(
        log.contains("\"purpose\":\"minefield on "),
        "the minefield dice are recorded with their purpose"
    );
    dt::replay_and_audit(&home, "g-mines");
}
