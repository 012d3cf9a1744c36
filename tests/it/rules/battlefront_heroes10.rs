//! Issue 18, session 10: gaps the section audit found under battlefront-2013
//! (docs/battlefront-sections.md "Not built"). 003 "Heroes": one of each Hero an army (R684);
//! 002 "Attacking Strongpoints": a unit in a strongpoint or bunker is in Cover (R685); 002
//! "Minefields" under every square of a Huge or Large vehicle (R686); 003 "Minimum Range (#–#)"'s
//! `2-U` (R687); 002 "Superhumans" never join, a Sidekick's join stays refused (R688). Each test
//! is named after its seed section and quotes its sentence. Dust dice from the scripted d6: 1–2
//! army, 3–4 target, 5–6 shield (R230).

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, NewRequest};

/// The built-in scenario `name` with `extra` TOML appended (units appended join its last side).
fn with_units(name: &str, extra: &str) -> (String, String) {
    let (_, text) = dustmail::dust_tactics::scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == name)
        .expect("built-in scenario");
    (format!("{name}-plus"), format!("{text}\n{extra}"))
}

/// `new` of scenario `file` under `ruleset`: `Ok` or the refusal's text.
fn plan(ruleset: &str, file: (String, String)) -> Result<(), String> {
    DustTactics
        .plan_new(&NewRequest {
            ruleset: Some(ruleset.into()),
            scenario_file: Some(file),
            ..NewRequest::default()
        })
        .map(|_| ())
        .map_err(|e| e.0)
}

#[test]
fn s003_heroes_an_army_can_never_have_two_of_the_same_hero() {
    // 003 "Heroes": "Heroes are unique individuals, so an army can never have two of the same
    // Hero." Encounter's axis fields Oberleutnant Stefan Retter twice: `new` is refused, naming
    // the hero, the side and both units (R684).
    let two = "[[sides.units]]\nid = \"stefan2\"\ncard = \"bf-stefan\"\n";
    let err = plan("battlefront-2013", with_units("encounter", two)).unwrap_err();
    assert!(err.contains("side axis"), "{err}");
    assert!(err.contains("Oblt. Stefan Retter twice"), "{err}");
    assert!(err.contains("stefan and stefan2"), "{err}");
    assert!(err.contains("003 \"Heroes\""), "{err}");
    assert!(err.contains("field another hero or another unit"), "{err}");
    // One Stefan an army, and each side its own hero: the shipped scenario is made.
    plan("battlefront-2013", with_units("encounter", "")).expect("encounter as shipped");
}

#[test]
fn s003_heroes_one_of_each_hero_is_per_army_not_per_game() {
    // 003 "Heroes": "an army can never have two of the same Hero": the limit is one army's
    // (R817: both sides may field the same starter force). The allies' Bazooka Joe and an axis
    // Bazooka Joe are two armies' heroes: `new` accepts them.
    let joe = "[[sides.units]]\nid = \"joe-axis\"\ncard = \"bf-bazooka-joe\"\n";
    plan("battlefront-2013", with_units("encounter", joe)).expect("one Joe an army");
}

#[test]
fn s003_heroes_two_of_one_hero_stay_accepted_under_the_other_rulesets() {
    // 000 and 004 have no "one of each Hero" sentence (004 limits only a Rare Unit): under
    // ffg-revised a side may field Sigrid von Thaler twice, as before (R684).
    let two = "[[sides.units]]\nid = \"sigrid\"\ncard = \"sigrid-von-thaler\"\nat = \"C1\"\n\n[[sides.units]]\nid = \"sigrid2\"\ncard = \"sigrid-von-thaler\"\nat = \"D1\"\n";
    plan("ffg-revised", with_units("skirmish", two)).expect("ffg-revised has no such limit");
}

/// 002's "Attacking Strongpoints" board: the Mickey (allies, E6) with a 2-dice machine-gun and a
/// Grenade howitzer; the Motherland Tesla Gun (axis, a squad of 4) in the strongpoint E2–F2;
/// nobody reacts; allies first. `revision` is the game's rules revision.
fn tesla_gun_in_strongpoint(revision: u32) -> State {
    let howitzer = WeaponLine {
        traits: vec![WeaponTrait::GrenadeLauncher],
        ..weapon("howitzer", WeaponRange::Upto(6), 1, 1)
    };
    let mg = weapon("mg", WeaponRange::Upto(6), 2, 1);
    let cards = vec![
        card("mickey", UnitType::Vehicle, 5, 1, vec![mg, howitzer]),
        card(
            "tesla-gun",
            UnitType::Squad,
            4,
            1,
            vec![weapon("tesla", WeaponRange::Upto(6), 1, 1)],
        ),
    ];
    let mut s = scenario(
        vec![unit("mickey", "mickey", Some("E6"))],
        vec![unit("gun", "tesla-gun", Some("E2"))],
    );
    s.fortifications = Some(Fortifications {
        strongpoints: vec![[sq("E2"), sq("F2")]],
        ..Default::default()
    });
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    st.rules_revision = revision;
    begin(&mut st, "allies");
    never_react(&mut st);
    st
}

/// The purposes of every die rolled in `out`.
fn purposes(out: &dustmail::game::Outcome) -> Vec<String> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| r.purpose.clone()))
        .collect()
}

#[test]
fn s002_attacking_strongpoints_the_unit_inside_rolls_cover_saves() {
    // 002 "Attacking Strongpoints": "The SSU player rolls two Cover Saves for the MG hits,
    // passing one and failing the other. As the Motherland Tesla Gun is in a Strongpoint, it
    // re-rolls the failed save [...] and the unit loses a soldier. The M1 75mm howitzer is a
    // Grenade weapon, so the Motherland Tesla Gun has an Infantry Save rather than a Cover Save
    // against that Hit. It fails the Save, but still has the Strongpoint re-roll which it passes"
    // (R685). The Mickey's line to E2 is clear. MG: hits army, army; Cover Saves shield (passes:
    // 003 "Each [army] or [shield] cancels") and target (fails); the re-roll a target: one
    // soldier. Howitzer: hit army; its Infantry Save a target; the re-roll an army. As an
    // Infantry Save the shield would fail too, so two re-rolls would be rolled.
    let mut st = tesla_gun_in_strongpoint(10);
    let out = play(
        &mut st,
        "allies",
        "activate mickey\nattack mg at gun, howitzer at gun\nnothing",
        &[1, 2, 5, 3, 3, 1, 3, 1],
    );
    let p = purposes(&out);
    assert!(
        p.contains(&"infantry cover save vs mg".to_string()),
        "{p:?}"
    );
    assert!(!p.contains(&"infantry save vs mg".to_string()), "{p:?}");
    assert!(
        p.contains(&"infantry save vs howitzer".to_string()),
        "{p:?}"
    );
    assert_eq!(
        p.iter()
            .filter(|x| x.as_str() == "strongpoint re-roll vs mg")
            .count(),
        1,
        "{p:?}"
    );
    assert_eq!(u(&st, "gun").models.len(), 3, "{}", texts(&out));
}

#[test]
fn s002_attacking_strongpoints_a_game_made_before_revision_10_keeps_the_infantry_save() {
    // R685 is gated on rules revision 10: a game made before it replays as it was played, the
    // unit in the strongpoint seen whole taking Infantry Saves (army only). The same MG saves,
    // shield and target, both fail: two re-rolls, target and army: one soldier lost.
    let mut st = tesla_gun_in_strongpoint(9);
    let out = play(
        &mut st,
        "allies",
        "activate mickey\nattack mg at gun\nnothing",
        &[1, 2, 5, 3, 3, 1],
    );
    let p = purposes(&out);
    assert!(p.contains(&"infantry save vs mg".to_string()), "{p:?}");
    assert_eq!(u(&st, "gun").models.len(), 3, "{}", texts(&out));
}

/// The allies' vehicle `tk` (card `tank`) on `at` facing `f`, a 002 minefield on `mined`, an
/// axis squad far off on A1; nobody reacts; allies first; rules revision `revision`.
fn vehicle_by_minefield(tank: Card, at: &str, f: Facing, mined: &str, revision: u32) -> State {
    let mut s = scenario(
        vec![unit("tk", &tank.id, Some(at))],
        vec![unit("far", "sq", Some("A1"))],
    );
    s.fortifications = Some(Fortifications {
        minefields: vec![sq(mined)],
        ..Default::default()
    });
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![tank, squad("sq")])
        .expect("setup");
    st.rules_revision = revision;
    begin(&mut st, "allies");
    never_react(&mut st);
    st.unit_mut("tk").expect("tk").facing = Some(f);
    st
}

/// The minefield attacks rolled in `out`.
fn mine_rolls(out: &dustmail::game::Outcome) -> Vec<String> {
    purposes(out)
        .into_iter()
        .filter(|p| p.starts_with("attack by the minefield"))
        .collect()
}

#[test]
fn s002_minefields_a_huge_vehicle_moving_a_square_onto_a_minefield_is_attacked() {
    // 002 "Minefields": "When a Unit moves into, through, or out of a Minefield, the opposing
    // player attacks it"; 003 "Unit Size": "Huge Vehicles occupy four squares." The Punisher-like
    // `tk` on E5 holds E5 F5 E6 F6; its move to E4 brings F4, a minefield, under it, though the
    // order names E4 (R686). A game made before rules revision 10 checked the named square only.
    let mut st = vehicle_by_minefield(
        super::battlefront_large::huge("tank", 1),
        "E5",
        Facing::N,
        "F4",
        10,
    );
    let out = send(
        &mut st,
        "allies",
        "activate tk\nmove E4\nnothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "tk").at, Some(sq("E4")));
    assert_eq!(
        mine_rolls(&out),
        vec!["attack by the minefield on F4: tk"],
        "{}",
        texts(&out)
    );
    let mut old = vehicle_by_minefield(
        super::battlefront_large::huge("tank", 1),
        "E5",
        Facing::N,
        "F4",
        9,
    );
    let out = send(
        &mut old,
        "allies",
        "activate tk\nmove E4\nnothing",
        &mut plenty(),
    );
    accepted(&out);
    assert!(mine_rolls(&out).is_empty(), "{}", texts(&out));
}

#[test]
fn s002_minefields_a_large_vehicle_moving_its_rear_out_of_a_minefield_is_attacked() {
    // 002 "Minefields": "When a Unit moves into, through, or out of a Minefield, the opposing
    // player attacks it"; 003 "Unit Size": "Large Vehicles and Large Aircraft occupy two
    // squares". The Large `tk` fronts E5 facing N, its rear on E6, a minefield; it moves ahead to
    // E4, its rear out of the minefield: attacked once (R686). A scenario with 002 minefields
    // and a Large vehicle is no longer refused at `new`.
    let tank = super::battlefront_large2::large("tank", 1);
    let mut st = vehicle_by_minefield(tank, "E5", Facing::N, "E6", 10);
    let out = send(
        &mut st,
        "allies",
        "activate tk\nmove E4\nnothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "tk").at, Some(sq("E4")));
    assert_eq!(
        mine_rolls(&out),
        vec!["attack by the minefield on E6: tk"],
        "{}",
        texts(&out)
    );
}

/// The 003 Ludwig card file with its MG 44 (printed range 6) given `range`: (file, text).
fn ludwig_mg44(range: &str) -> (String, String) {
    let file = "bf-ludwig.toml".to_string();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/dust-tactics/cards-battlefront")
        .join(&file);
    let text = std::fs::read_to_string(path).expect("bf-ludwig");
    let at = text.find("id = \"mg44\"").expect("the mg44 line");
    let (head, tail) = text.split_at(at);
    let tail = tail.replacen("range = \"6\"", &format!("range = \"{range}\""), 1);
    (file, format!("{head}{tail}"))
}

#[test]
fn s003_minimum_range_2_u_a_card_writes_2_u_with_no_maximum() {
    // 003 "Minimum Range": "The Lothar's Nebelwerfer 42 rocket launcher has a Range of 2-U. This
    // gives them a minimum range of 2 squares, but allows them to reach any target on the
    // battlefield beyond that." (R687) A card writes `range = "2-U"`; it reads back as `2-U`,
    // and `new --ruleset battlefront-2013` accepts the card.
    let (file, text) = ludwig_mg44("2-U");
    let card = dustmail::dust_tactics::cards::parse_card(&file, &text).expect("2-U is a range");
    let mg = card.weapons.iter().find(|w| w.id == "mg44").expect("mg44");
    assert_eq!(mg.range, WeaponRange::Between(2, WeaponRange::NO_MAX));
    assert_eq!(mg.range.to_string(), "2-U");
    let made = DustTactics.plan_new(&NewRequest {
        ruleset: Some("battlefront-2013".into()),
        scenario: Some("encounter".into()),
        data: [(file, text)].into_iter().collect(),
        ..NewRequest::default()
    });
    assert!(made.is_ok(), "{:?}", made.err().map(|e| e.0));
}

#[test]
fn s003_minimum_range_2_u_not_adjacent_but_anywhere_beyond() {
    // 003 "Minimum Range": "It can attack targets in the white squares, but not the red squares"
    // (the adjacent ones); "allows them to reach any target on the battlefield beyond that". The
    // Ludwig's MG 44 as a 2-U line: refused at the Grim Reapers next to it, citing 003's range
    // check, and nothing changes; eight squares away (beyond its printed 6) it fires (R687).
    let mk = |at: &str| {
        let (file, text) = ludwig_mg44("2-U");
        let ludwig = dustmail::dust_tactics::cards::parse_card(&file, &text).expect("card");
        let s = scenario(
            vec![unit("reapers", "bf-grim-reapers", Some(at))],
            vec![unit("ludwig", "bf-ludwig", Some("E1"))],
        );
        let reapers = super::battlefront_los::bf_card("bf-grim-reapers");
        let mut st = DustTactics
            .start("battlefront-2013", s, vec![ludwig, reapers])
            .expect("setup");
        begin(&mut st, "axis");
        never_react(&mut st);
        st
    };
    let order = "activate ludwig\nattack mg44 at reapers\nnothing";
    let mut st = mk("E2");
    let before = serde_json::to_string(&st).unwrap();
    let out = send(&mut st, "axis", order, &mut plenty());
    let r = first_result(&out).expect_err("refused at range 1");
    assert!(r.contains("003 \"Check Range\""), "{r}");
    assert_eq!(serde_json::to_string(&st).unwrap(), before, "{r}");
    let mut st = mk("E9");
    let out = send(&mut st, "axis", order, &mut plenty());
    accepted(&out);
    assert!(
        purposes(&out).iter().any(|p| p.contains("mg44")),
        "{}",
        texts(&out)
    );
}

#[test]
fn s003_minimum_range_2_u_is_refused_under_the_other_rulesets() {
    // 000 and 004 print no range without a maximum but U and A: a card with `2-U` is refused
    // when `new` reads it under ffg-revised, naming the weapon, the section and what to write
    // (R687).
    let (file, text) = ludwig_mg44("2-U");
    let err = dustmail::dust_tactics::cards::parse_card_for_new(&file, &text)
        .expect_err("refused")
        .to_string();
    assert!(err.contains("`2-U`") && err.contains("mg44"), "{err}");
    assert!(err.contains("003's \"Minimum Range (#–#)\""), "{err}");
    assert!(err.contains("--ruleset battlefront-2013"), "{err}");
    // A `2-8` is every ruleset's arc range: read as before.
    let (file, text) = ludwig_mg44("2-8");
    dustmail::dust_tactics::cards::parse_card_for_new(&file, &text).expect("2-8 is read");
}

/// A 003 starter card file `id` with `extra` top-level lines and its `id`/`name` replaced by
/// `new_id`/`new_name` when given: (file, text).
fn bf_card_file(id: &str, extra: &str, rename: Option<(&str, &str)>) -> (String, String) {
    let (file, text) = super::battlefront_skills002::card_with(id, extra);
    match rename {
        None => (file, text),
        Some((new_id, new_name)) => {
            let old_name = dustmail::dust_tactics::cards::parse_card(&file, &text)
                .expect("card")
                .name;
            let text = text
                .replacen(&format!("id = \"{id}\""), &format!("id = \"{new_id}\""), 1)
                .replacen(
                    &format!("name = \"{old_name}\""),
                    &format!("name = \"{new_name}\""),
                    1,
                );
            (format!("{new_id}.toml"), text)
        }
    }
}

/// `new --ruleset battlefront-2013` of Encounter with `allies_extra` TOML put right after
/// Bazooka Joe's card line, the cards `data` brought: `Ok` or the refusal.
fn encounter_with(allies_extra: &str, data: Vec<(String, String)>) -> Result<(), String> {
    let (_, text) = dustmail::dust_tactics::scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "encounter")
        .expect("encounter");
    let line = "card = \"bf-bazooka-joe\"\n";
    let text = text.replacen(line, &format!("{line}{allies_extra}"), 1);
    DustTactics
        .plan_new(&NewRequest {
            ruleset: Some("battlefront-2013".into()),
            scenario_file: Some(("encounter-joined".into(), text)),
            data: data.into_iter().collect(),
            ..NewRequest::default()
        })
        .map(|_| ())
        .map_err(|e| e.0)
}

#[test]
fn s002_superhumans_a_superhuman_can_never_join_a_unit() {
    // 002 "Superhumans": "Superhumans are Heroes. [...] so a Superhuman can never Join a Unit."
    // Bazooka Joe made a Superhuman (a provisional change of the card: `superhuman = true`)
    // joined to the Bot Hunters (both Infantry 2): `new` is refused citing 002 (R688). The same
    // join without the flag is made.
    let joins = "joins = \"bot-hunters\"\n";
    let sup = bf_card_file("bf-bazooka-joe", "superhuman = true", None);
    let err = encounter_with(joins, vec![sup]).unwrap_err();
    assert!(err.contains("Bazooka Joe is a Superhuman"), "{err}");
    assert!(
        err.contains("\"a Superhuman can never Join a Unit\""),
        "{err}"
    );
    assert!(err.contains("remove the `joins`"), "{err}");
    encounter_with(joins, vec![]).expect("Joe joins the Bot Hunters");
}

#[test]
fn s002_superhumans_only_the_sidekick_joins_and_its_join_is_not_built_yet() {
    // 002 "Superhumans": "Sidekicks are Heroes who possess the Sidekick attribute. Sidekicks
    // follow all the normal rules for Heroes, with the exception that they can Join the named
    // Superhuman forming a combined Unit." A second allied hero (a provisional copy of Joe's
    // card, "Sam") joining Superhuman Joe: without the Sidekick attribute it is refused as any
    // unit; as Joe's Sidekick, the combined unit is refused by name, not built yet (R688).
    let sup = || bf_card_file("bf-bazooka-joe", "superhuman = true", None);
    let sam = "\n[[sides.units]]\nid = \"sam\"\ncard = \"bf-sam\"\njoins = \"joe\"\n";
    let plain = bf_card_file("bf-bazooka-joe", "", Some(("bf-sam", "Sam")));
    let err = encounter_with(sam, vec![sup(), plain]).unwrap_err();
    assert!(
        err.contains("\"a Superhuman can never Join a Unit\""),
        "{err}"
    );
    let kick = bf_card_file(
        "bf-bazooka-joe",
        "sidekick = \"bf-bazooka-joe\"",
        Some(("bf-sam", "Sam")),
    );
    let err = encounter_with(sam, vec![sup(), kick]).unwrap_err();
    assert!(
        err.contains("the Sidekick Sam joining its Superhuman Bazooka Joe"),
        "{err}"
    );
    assert!(
        err.contains("not implemented yet under battlefront-2013 (R688)"),
        "{err}"
    );
}

#[test]
fn s002_superhumans_a_superhuman_shares_a_squads_square_without_joining() {
    // 002 "Superhumans": "a Superhuman can never Join a Unit"; 003 "Joining Infantry Squads": a
    // Hero joins a squad of its Armour rating "by being in the same square". A Superhuman hero
    // moving into the square of a friendly squad of its Armour shares it and stays apart; the
    // same hero without the flag joins it (R604, R688).
    let joined_after_move = |superhuman: bool| {
        let mut hero = card(
            "hero",
            UnitType::Hero,
            3,
            2,
            vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
        );
        hero.superhuman = superhuman;
        let s = scenario(
            vec![
                unit("ours", "sq", Some("E5")),
                unit("hq", "hero", Some("E7")),
            ],
            vec![unit("theirs", "sq", Some("A1"))],
        );
        let mut st = DustTactics
            .start("battlefront-2013", s, vec![hero, squad("sq")])
            .expect("setup");
        begin(&mut st, "allies");
        never_react(&mut st);
        let out = send(
            &mut st,
            "allies",
            "activate hq\nmove E5\nnothing",
            &mut plenty(),
        );
        accepted(&out);
        assert_eq!(u(&st, "hq").at, Some(sq("E5")), "{}", texts(&out));
        u(&st, "hq").joined.clone()
    };
    assert_eq!(joined_after_move(true), None);
    assert_eq!(joined_after_move(false).as_deref(), Some("ours"));
}
