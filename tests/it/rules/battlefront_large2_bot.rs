//! Issue 18 (bfbotlarge): the orders template and the bots with 003's two-square Large vehicle.
//! The template lists every move the engine accepts for it, and a Large Aircraft's entering
//! squares are flown over terrain (R775).

use super::battlefront_large2::{far, game, game_on, large, large_air};
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game};

// 003 "Moving Large Vehicles Sideways": "An IS-48 has a Move rating of 1. It moves sideways
// around the corner of the building, ending with the rear of the vehicle in the square where the
// front started." R775: the template offers a Large vehicle of Movement 1 on the board its moves
// (forward one square, a sideways step), each accepted when sent back.
#[test]
fn s003_moving_large_vehicles_the_template_offers_a_movement_1_large_vehicle_its_moves() {
    let st = game(large("tank", 1), Some("E5"), Facing::N, vec![], far());
    let t = DustTactics.orders_template(&st, "allies");
    let all = crate::legal_template::every_suggestion_accepted(&st, "allies", "IS-48 on E5");
    let moves: Vec<&String> = (all.iter())
        .filter(|o| o.contains("activate tk") && o.contains("move "))
        .collect();
    assert!(!moves.is_empty(), "no move offered to tk:\n{t}");
    // Forward onto E4 (rear E5) and sideways onto D5 or F5 (rear where the front was).
    for to in ["E4", "D5", "F5"] {
        assert!(
            moves.iter().any(|o| o.contains(&format!("move {to}"))),
            "{to} is not offered:\n{t}"
        );
    }
}

// 003 "Aircraft Move Over Terrain": "Aircraft fly over the battlefield, so can move across any
// terrain."; 003 "Moving On To the Table" (R771, R773). R775: a Large Aircraft off the board
// entering with its front on E8 (rear E9) is placed above the ruin on E8, so the entering squares
// a refusal names include E8; a Large vehicle's do not (the control).
#[test]
fn s003_moving_on_to_the_table_a_large_aircraft_s_entering_squares_fly_over_terrain() {
    let ruin = |b: &mut Board| b.set_terrain(sq("E8"), Terrain::Impassable);
    let instead = |c: Card| {
        let mut st = game_on(c, None, Facing::N, vec![], far(), ruin);
        let out = send(
            &mut st,
            "allies",
            "activate tk\n  move E9\n  nothing",
            &mut plenty(),
        );
        match &out.results[0].outcome {
            CommandOutcome::Refused { instead, .. } => instead.clone(),
            o => panic!("expected a refusal, got {o:?}"),
        }
    };
    let air = instead(large_air("air"));
    assert!(air.split([' ', ',', '>']).any(|w| w == "E8"), "{air}");
    let tank = instead(large("tank", 1));
    assert!(!tank.split([' ', ',', '>']).any(|w| w == "E8"), "{tank}");
    assert!(tank.split([' ', ',', '>']).any(|w| w == "D8"), "{tank}");
}

// 003 "Moving Large Vehicles and Aircraft" (R769), played by mail: R775: the bots offer the
// IS-48 (Movement 1) the moves it may make once wholly on the board, so bots choosing among
// their options at random move it on after it entered (reports "is48 moves to …").
#[test]
fn s003_moving_large_vehicles_the_bots_move_the_is48_in_is48_breakthrough() {
    use dustmail::dust_tactics::bot::Style;
    let (_dir, sent) = super::battlefront_large2::play_is48(|i| Style::Random(i as u64 + 5));
    let is48: Vec<&str> = (sent.lines())
        .filter(|l| l.starts_with("  ") && l.contains("is48 "))
        .collect();
    assert!(
        sent.contains("is48 moves to"),
        "the IS-48 never moved after entering: {is48:?}"
    );
}

// 003 "Moving Large Vehicles Sideways": "An IS-48 has a Move rating of 1. It moves sideways
// around the corner of the building". R775: a bot's Movement-1 Large vehicle with a building in
// front of it (D7, E7, F7) and no target in range steps sideways (D8 or F8) to close in: the bot
// tries every front in its reach, not only the 12 nearest the enemy, which here are all beyond
// one square or in the building.
#[test]
fn s003_moving_large_vehicles_sideways_a_bot_steps_its_movement_1_large_vehicle_round_a_building() {
    use dustmail::dust_tactics::bot::{Bot, Style};
    let building = |b: &mut Board| {
        for s in ["D7", "E7", "F7"] {
            b.set_terrain(sq(s), Terrain::Impassable);
        }
    };
    let foe = vec![unit("foe", "sq", Some("E1"))];
    let mut st = game_on(
        large("tank", 1),
        Some("E8"),
        Facing::N,
        vec![],
        foe,
        building,
    );
    let orders = Bot::new("allies", Style::Aggressive)
        .orders(&st)
        .unwrap_or_default();
    assert!(
        orders.contains("move D8") || orders.contains("move F8"),
        "{orders}"
    );
    accepted(&send(&mut st, "allies", &orders, &mut plenty()));
    let at = u(&st, "tk").at.map(|s| s.to_string());
    assert!(matches!(at.as_deref(), Some("D8" | "F8")), "{at:?}");
}
