//! Issue 18 (battlefront-2013, seed 003): aircraft. 003's aircraft are not 004's ("Moving
//! Through Other Units": infantry and vehicles "can enter a square occupied by an enemy Aircraft
//! unit"; "Line of Sight to Aircraft": "An Aircraft can see and be seen from anywhere on the game
//! board, except that an Aircraft cannot see or be seen from a unit immediately behind terrain
//! that would block"; "Large Vehicles and Large Aircraft occupy two squares"). They are not built
//! under battlefront-2013, so a card with aircraft armour is refused at `new` rather than played
//! by 004's aircraft rules (R236).

use crate::support::dt;

// 003 "Aircraft": aircraft armour 1-3 ("Flying soldiers and slow helicopters or aircraft",
// "Ground-attack aircraft", "Heavily-armoured aircraft"). The shipped Pounder given aircraft
// armour with `--cards` is refused at `new`, naming the card's file and what to do; no game is
// made. The same card with its vehicle armour is accepted.
#[test]
fn battlefront_aircraft_003_a_card_with_aircraft_armour_is_refused_at_new() {
    let new = |armour: &str| {
        let dir = tempfile::tempdir().unwrap();
        dt::init_home(dir.path(), "file");
        let cards = dir.path().join("my-cards");
        std::fs::create_dir_all(&cards).unwrap();
        let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
            .into_iter()
            .find(|(f, _)| *f == "bf-pounder.toml")
            .expect("the pounder");
        let text = text.replace("armour = { vehicle = 4 }", armour);
        std::fs::write(cards.join("bf-pounder.toml"), text).unwrap();
        let cards = cards.display().to_string();
        let args = [
            "--ruleset",
            "battlefront-2013",
            "--scenario",
            "encounter",
            "--id",
            "g-air",
            "--now",
            dt::T0,
            "--cards",
            &cards,
        ];
        let o = dt::new_with_players(dir.path(), &args, &dt::players(7));
        let made = dir.path().join("games/g-air").exists();
        (o.status.code(), dt::text(&o), made)
    };
    let (code, out, made) = new("armour = { aircraft = 2 }");
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("card bf-pounder.toml has aircraft armour")
            && out.contains("not implemented yet under battlefront-2013")
            && out.contains("play the ffg-revised ruleset"),
        "{out}"
    );
    assert!(!made, "{out}");
    let (code, out, made) = new("armour = { vehicle = 4 }");
    assert_eq!(code, Some(0), "{out}");
    assert!(made, "{out}");
}

// R236: 004's special weapons are not 003's, and battlefront-2013 does not build them, so a card
// naming one is refused at `new` rather than played by 004's rule: the shipped Pounder's first
// weapon line given the trait `burst` (004 "Burst Weapons") is refused naming the weapon, the
// trait and the file.
#[test]
fn battlefront_weapons_004s_special_weapons_are_refused_at_new() {
    let dir = tempfile::tempdir().unwrap();
    dt::init_home(dir.path(), "file");
    let cards = dir.path().join("my-cards");
    std::fs::create_dir_all(&cards).unwrap();
    let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == "bf-pounder.toml")
        .expect("the pounder");
    let mut card: toml::Table = text.parse().expect("the pounder's toml");
    let weapons = card["weapons"].as_array_mut().expect("weapons");
    let first = weapons[0].as_table_mut().expect("a weapon line");
    let id = first["id"].as_str().expect("an id").to_string();
    first.insert("traits".into(), toml::Value::Array(vec!["burst".into()]));
    std::fs::write(cards.join("bf-pounder.toml"), card.to_string()).unwrap();
    let cards = cards.display().to_string();
    let args = [
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        "encounter",
        "--id",
        "g-burst",
        "--now",
        dt::T0,
        "--cards",
        &cards,
    ];
    let o = dt::new_with_players(dir.path(), &args, &dt::players(7));
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains(&format!(
            "card bf-pounder.toml gives the weapon `{id}` the trait `burst`"
        )) && out.contains("not implemented yet under battlefront-2013"),
        "{out}"
    );
    assert!(!dir.path().join("games/g-burst").exists(), "{out}");
}
