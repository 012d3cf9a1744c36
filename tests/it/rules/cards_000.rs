//! Issue 12 item 4: a card for every unit seed 000 names (the JagdLuther, the Recon Boys, the
//! Sniper Team, the Grenadiers with three Panzerfaust, the command squads; the artillery robots
//! and the Observer Team are in cards-artillery/), in games/dust-tactics/cards-000/, read as
//! `new --cards` reads them, and the worked examples of 000 played with those very cards.

use crate::support::dt::{self, Bots, InProc};
use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card_for_new;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::game::ScriptedDice;

const DIR: &str = "games/dust-tactics/cards-000";

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR)
}

/// A card of cards-000/, validated as `new --cards` validates it.
fn card_000(stem: &str) -> Card {
    let file = format!("{stem}.toml");
    let text = std::fs::read_to_string(dir().join(&file)).expect("card of cards-000");
    parse_card_for_new(&file, &text).unwrap_or_else(|e| panic!("{e}"))
}

/// A game of these cards and the shipped ones (ffg-revised), nobody reacting, allies first.
fn game(allies: Vec<UnitSpec>, axis: Vec<UnitSpec>, extra: Vec<Card>) -> State {
    let mut cards = real_cards();
    cards.extend(extra);
    let mut st = start_defaults(scenario(allies, axis), cards);
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

// ffg-revised dice: faces 1 and 2 hit, 3 to 6 miss (ruling R3).
const HIT: u8 = 1;
const MISS: u8 = 5;

#[test]
fn cards_000_every_unit_000_names_has_a_card_that_loads_for_new() {
    for stem in [
        "jagdluther",
        "recon-boys",
        "sniper-team",
        "panzerfaust-grenadiers",
        "allies-command-squad",
        "axis-command-squad",
    ] {
        let c = card_000(stem);
        assert_eq!(c.id, stem);
        assert!(!c.sources.is_empty(), "{stem}: every stated value is cited");
        assert!(
            !c.provisional.is_empty(),
            "{stem}: the chosen values are marked"
        );
        assert!(
            c.sources.iter().all(|s| s.starts_with("000 ")),
            "{stem}: {:?}",
            c.sources
        );
    }
    // 000 "Special damage types": "a JagdLuther (that is an Axis 5 with 6)".
    let j = card_000("jagdluther");
    assert_eq!(
        (j.armour, j.health, j.faction.as_str()),
        (Armour::Vehicle(5), 6, "axis")
    );
    // 000 "Limited ammo weapons": "Recon Boys have two UGL … UGL and two boxes"; 000 "UGL":
    // "UGL grenades always ignore cover".
    let rb = card_000("recon-boys");
    let ugl = rb.weapon("ugl").unwrap();
    assert_eq!((ugl.carriers, ugl.ammo), (Some(2), Some(2)));
    assert!(ugl.traits.contains(&WeaponTrait::GrenadeLauncher));
    // 000 "Sniper Team": "The shooter has the Sniper ability while the leader has Spotter."
    let st = card_000("sniper-team");
    assert!(st.has_skill("sniper") && st.has_skill("spotter"));
    let ids: Vec<&str> = st.models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["sniper", "spotter"]);
    // 000 "Limited ammo weapons": "a squad of 5 Grenadiers marches into battle with three
    // Panzerfaust".
    let pg = card_000("panzerfaust-grenadiers");
    let pf = pg.weapon("panzerfaust").unwrap();
    assert_eq!((pg.health, pf.carriers, pf.ammo), (5, Some(3), Some(3)));
    // 000 "Command Squads": "an Officer, a Radioman, a Mechanic, a Medic, and a weapon
    // specialist"; the Radioman's Artillery Strike "appears printed on the unit card".
    for side in ["allies", "axis"] {
        let cs = card_000(&format!("{side}-command-squad"));
        let ids: Vec<&str> = cs.models.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "officer",
                "radioman",
                "mechanic",
                "medic",
                "weapon-specialist"
            ]
        );
        assert!(cs.has_skill("command-squad") && cs.has_skill("artillery-strike"));
        assert_eq!(cs.faction, side);
    }
}

// 000 "Special damage types" example: "The Hot Dog's Napalm Thrower targets a JagdLuther (that is
// an Axis 5 with 6). The Allies player rolls a die and gets a [hit]. The Axis robot explodes: it
// is immediately removed from the game table."
#[test]
fn ap_incendiary_000_example_the_hot_dog_destroys_the_jagdluther_card() {
    let mut st = game(
        vec![unit("hotdog", "m2b-hot-dog", Some("E5"))],
        vec![unit("jagd", "jagdluther", Some("E4"))],
        vec![card_000("jagdluther")],
    );
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack napalm at jagd\nnothing",
        &mut ScriptedDice::new([HIT]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let j = u(&st, "jagd");
    assert!(j.destroyed && j.at.is_none(), "{j:?}");
}

/// The allied `boys` may activate again after the axis `foe` does nothing (the activation flags
/// reset by hand, so the round goes on without an initiative roll).
fn axis_waits(st: &mut State) {
    st.unit_mut("boys").unwrap().activated = false;
    st.unit_mut("foe").unwrap().activated = false;
    let out = send(
        st,
        "axis",
        "activate foe\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
}

// 000 "Limited ammo weapons" example: "Recon Boys have two UGL … When the Recon Boys use one of
// these, mark off as many boxes as there were UGL's fired. Once all the boxes are marked, the
// unit is out of UGL for the rest of the game."
#[test]
fn limited_ammo_000_example_recon_boys_mark_off_as_many_boxes_as_ugl_fired() {
    let mut st = game(
        vec![unit("boys", "recon-boys", Some("E5"))],
        vec![unit("foe", "battle-grenadiers", Some("E3"))],
        vec![card_000("recon-boys")],
    );
    assert_eq!(u(&st, "boys").ammo.get("ugl"), Some(&2));
    let out = send(
        &mut st,
        "allies",
        "activate boys\nattack 1 ugl at foe\nnothing",
        &mut ScriptedDice::new([MISS]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(
        u(&st, "boys").ammo.get("ugl"),
        Some(&1),
        "one box for one UGL"
    );
    axis_waits(&mut st);
    let out = send(
        &mut st,
        "allies",
        "activate boys\nattack ugl at foe\nnothing",
        &mut Cycle(2),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "boys").ammo.get("ugl"), Some(&0));
    axis_waits(&mut st);
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate boys\nattack ugl at foe\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("ugl") || e.contains("UGL"), "{e}");
    assert_eq!(st, before, "out of UGL: refused, nothing changes");
}

// 000 "Limited ammo weapons" example: "a squad of 5 Grenadiers marches into battle with three
// Panzerfaust. During the game, three Grenadiers are eliminated. The two survivors still have
// three Panzerfaust (if they haven't used any of them yet.)" Here the three carriers fell.
#[test]
fn limited_ammo_000_example_two_surviving_grenadiers_still_have_three_panzerfaust() {
    let mut st = game(
        vec![unit("pounder", "m2c-pounder", Some("E5"))],
        vec![unit("gren", "panzerfaust-grenadiers", Some("E3"))],
        vec![card_000("panzerfaust-grenadiers")],
    );
    st.unit_mut("gren").unwrap().models = vec!["4".into(), "5".into()];
    st.unit_mut("gren").unwrap().health = 2;
    assert_eq!(u(&st, "gren").ammo.get("panzerfaust"), Some(&3));
    // The allies pass their turn to the axis with the Pounder doing nothing.
    let out = send(
        &mut st,
        "allies",
        "activate pounder\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let out = send(
        &mut st,
        "axis",
        "activate gren\nattack panzerfaust at pounder\nnothing",
        &mut Cycle(2),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    // They kept all three: each survivor fires one at a time (no more weapons than models
    // alive, `rules::ffg_revised::combat::limited_ammo_000_no_more_weapons_than_models_alive`),
    // and the third waits for a later activation.
    assert_eq!(
        u(&st, "gren").ammo.get("panzerfaust"),
        Some(&1),
        "two of the three fired by the two survivors"
    );
}

// 000 "Sustained attack and limited ammo weapons" example: "a squad of Grenadiers chooses the
// sustained attack option. It fires three Panzerfaust at a Pounder. The result of the first roll
// is 1 [hit] and 2 [misses]. The Axis player immediately marks the three Panzerfaust off the
// Grenadiers' card. Since they are performing a sustained attack, the 2 [misses] are re-rolled,
// even though the Panzerfaust have already been used."
#[test]
fn sustained_attack_000_example_three_panzerfaust_at_a_pounder_reroll_the_two_misses() {
    let mut st = game(
        vec![unit("pounder", "m2c-pounder", Some("E5"))],
        vec![unit("gren", "panzerfaust-grenadiers", Some("E3"))],
        vec![card_000("panzerfaust-grenadiers")],
    );
    let out = send(
        &mut st,
        "allies",
        "activate pounder\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    // 1 hit, 2 misses; the two misses re-rolled: 1 hit, 1 miss. Two hits at 2 damage each
    // (the card's cell against vehicle armour 4 is 1/2).
    let mut d = ScriptedDice::new([HIT, MISS, MISS, HIT, MISS]);
    let out = send(
        &mut st,
        "axis",
        "activate gren\nsustained panzerfaust at pounder",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "three dice, then the two misses again");
    assert_eq!(u(&st, "gren").ammo.get("panzerfaust"), Some(&0));
    assert_eq!(u(&st, "pounder").health, 0, "4 health less 2 hits × 2");
}

// 000 "Sniper Team": "The shooter has the Sniper ability while the leader has Spotter. Whenever one
// of the squad's members is eliminated, you lose the related ability." 000 "Spotter": "A unit with
// this ability reverses its attack rolls."
#[test]
fn sniper_team_000_the_spotter_reverses_the_dice_while_he_lives() {
    let fire = |models: Vec<&str>, die: u8| {
        let mut st = game(
            vec![unit("team", "sniper-team", Some("E5"))],
            vec![unit("foe", "battle-grenadiers", Some("E2"))],
            vec![card_000("sniper-team")],
        );
        st.unit_mut("team").unwrap().models = models.iter().map(|m| m.to_string()).collect();
        let out = send(
            &mut st,
            "allies",
            "activate team\nattack sniper-rifle at foe/5\nnothing",
            &mut ScriptedDice::new([die, die]),
        );
        assert!(first_result(&out).is_ok(), "{out:?}");
        u(&st, "foe").models.clone()
    };
    // With the spotter, a miss face counts as a hit: the sniper's chosen model 5 falls.
    assert_eq!(fire(vec!["sniper", "spotter"], MISS), ["1", "2", "3", "4"]);
    // The spotter eliminated, the same face is a miss.
    assert_eq!(fire(vec!["sniper"], MISS), ["1", "2", "3", "4", "5"]);
}

// 000 "Sniper Team": with the sniper eliminated the team loses Sniper: the spotter's pistol
// cannot name a model.
#[test]
fn sniper_team_000_without_the_sniper_nobody_names_a_model() {
    let mut st = game(
        vec![unit("team", "sniper-team", Some("E5"))],
        vec![unit("foe", "battle-grenadiers", Some("E4"))],
        vec![card_000("sniper-team")],
    );
    st.unit_mut("team").unwrap().models = vec!["spotter".into()];
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate team\nattack pistol at foe/5\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("not a sniper's weapon"), "{e}");
    assert_eq!(st, before);
}

// 000 "Command Squads", Officer: "Get Moving You Bunch of Monkeys! … that unit is reactivated for
// this round", with the shipped command squad card (ruling R211).
#[test]
fn command_squads_000_the_allied_command_squad_card_gives_get_moving() {
    let mut st = game(
        vec![
            unit("cmd", "allies-command-squad", Some("E5")),
            unit("rangers", "recon-rangers", Some("F5")),
        ],
        vec![unit("foe", "battle-grenadiers", Some("A1"))],
        vec![card_000("allies-command-squad")],
    );
    st.unit_mut("rangers").unwrap().activated = true;
    let out = send(
        &mut st,
        "allies",
        "activate cmd\nskill get-moving at rangers\nnothing",
        &mut ScriptedDice::new([HIT]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        !u(&st, "rangers").activated,
        "the order reactivates the rangers"
    );
}

/// A scenario file with every unit of cards-000 on a 9×9 board, for `new --scenario FILE`.
const SCENARIO: &str = r#"
title = "The units 000 names"
description = "Every unit that 000 names without printing its card."
rounds = 4
ap_limit = 16
rulesets = ["ffg-revised"]

[board]
rows = [
  ".........",
  "....#....",
  ".........",
  ".........",
  ".........",
  ".........",
  ".........",
  "....#....",
  ".........",
]

[[sides]]
id = "allies"
name = "Allies"
entry = { rows = [9] }

[[sides.units]]
id = "cmd"
card = "allies-command-squad"
at = "B8"

[[sides.units]]
id = "boys"
card = "recon-boys"
at = "D8"

[[sides.units]]
id = "team"
card = "sniper-team"
at = "F8"

[[sides.units]]
id = "pounder"
card = "m2c-pounder"
at = "H8"

[[sides]]
id = "axis"
name = "Axis"
entry = { rows = [1] }

[[sides.units]]
id = "xcmd"
card = "axis-command-squad"
at = "B2"

[[sides.units]]
id = "gren"
card = "panzerfaust-grenadiers"
at = "D2"

[[sides.units]]
id = "jagd"
card = "jagdluther"
at = "F2"
"#;

// Issue 12 item 4: the cards of cards-000 come to a game by `new --cards DIR` through the real
// binary, and two players play it to its end by signed mail; the game replays.
#[test]
fn cards_000_a_game_with_every_unit_000_names_is_played_to_its_end_by_mail() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(d.path(), "file");
    let file = d.path().join("units-000.toml");
    std::fs::write(&file, SCENARIO).unwrap();
    let ps = dt::players(6);
    let (cards, seed) = (dir(), "66".repeat(32));
    let args = [
        "--scenario",
        file.to_str().unwrap(),
        "--cards",
        cards.to_str().unwrap(),
        "--seed",
        &seed,
        "--id",
        "g-000",
        "--now",
        dt::T0,
    ];
    let o = dt::new_with_players(&home.root, &args, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    let mut bots = Bots::new("g-000", &ps, |i| {
        dustmail::dust_tactics::bot::Style::Random(60 + i as u64)
    });
    let mut mails = 0;
    loop {
        let g = env.load("g-000");
        let Some((name, m)) = bots.next_mail(&g) else {
            break;
        };
        std::fs::write(home.maildir().join("new").join(name), m).unwrap();
        env.run(dt::NOW);
        mails += 1;
        assert!(mails < 400, "the game should end within 400 mails");
    }
    let g = env.load("g-000");
    assert!(g.derived.finished.is_some());
    let o = dt::dustmail(&home.root, &["replay", "g-000"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let shown = dt::dustmail(&home.root, &["show", "g-000", "--format", "json"]);
    let t = dt::text(&shown);
    for name in ["JagdLuther", "Recon Boys", "Sniper Team"] {
        assert!(
            t.contains(name) || t.contains(&name.to_lowercase()),
            "{name}"
        );
    }
}
