//! Issue 12, transport: 004's skills reference, "Tank Riders", now accepted at `new`. Attacks on
//! "all units" of a space and flame weapons reach the riders separately (R474, after 002 "Tank
//! Riders (#)"), the orders template offers a rider's lines (R475), and the scenario
//! games/dust-tactics/scenarios/riders.toml is played to its end by two players through signed
//! mails, its riders firing from the tank and climbing down.

use crate::support::dt;
use crate::support_flow::*;

use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, ScriptedDice};
use dustmail::referee;

/// A vehicle card with Tank Riders 6 (armour vehicle 3, health 3, Movement 2).
fn tank() -> Card {
    let mut c = with_skill(
        card(
            "tank",
            UnitType::Vehicle,
            3,
            2,
            vec![weapon("mg", WeaponRange::Upto(4), 1, 1)],
        ),
        "tank-riders",
        None,
    );
    c.skills.last_mut().unwrap().value = Some(6);
    c
}

/// A four-model squad whose one weapon is a flamethrower of range `reach`, 1 die 1 damage.
fn burners(reach: u8) -> Card {
    let mut c = squad("burners");
    let mut w = weapon("flame", WeaponRange::Upto(reach), 1, 1);
    w.traits = vec![WeaponTrait::Flamethrower];
    c.weapons = vec![w];
    c
}

fn riding(mut spec: UnitSpec, vehicle: &str) -> UnitSpec {
    spec.aboard = Some(vehicle.into());
    spec
}

/// The tank on E5 carrying squad `r` from the start; axis `x` of `axis_card` on `x_at`; no
/// reactive fire; axis activates first.
fn carried(axis_card: Card, x_at: &str, extra: Vec<UnitSpec>) -> State {
    let mut allies = vec![
        unit("tank", "tank", Some("E5")),
        riding(unit("r", "sq", None), "tank"),
    ];
    allies.extend(extra);
    let x = unit("x", &axis_card.id.clone(), Some(x_at));
    let mut st = start_defaults(
        scenario(allies, vec![x]),
        vec![tank(), squad("sq"), axis_card],
    );
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "axis");
    st
}

#[test]
fn tank_riders_004_a_flame_weapon_attacks_the_vehicle_and_its_riders_separately() {
    // 004 is silent on flame and area attacks at a vehicle with riders; 002 "Tank Riders (#)":
    // "If the Vehicle is attacked by Blast or Flame weapons, both the Vehicle and the Unit
    // riding on a Vehicle are attacked separately, and the Infantry Unit does not suffer
    // additional Hits if the Vehicle is Hit." (R474). Axis's flamethrowers on E4 burn the tank
    // on E5 (1 1 5 5: 2 damage) and, separately, its riders `r` (1 5 5 5: one falls); no
    // extra die is rolled for the riders (the script holds none).
    let mut st = carried(burners(1), "E4", vec![]);
    let mut d = ScriptedDice::new([1, 1, 5, 5, 1, 5, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack flame at tank\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert_eq!(u(&st, "tank").health, 1, "{t}");
    assert_eq!(u(&st, "r").models.len(), 3, "{t}");
    assert!(!t.contains("extra dice"), "{t}");
    assert_eq!(u(&st, "r").aboard.as_deref(), Some("tank"));
}

#[test]
fn tank_riders_004_a_spray_onto_the_vehicle_burns_the_square_between_and_the_riders_apart() {
    // 004 "Flamethrowers": "Flamethrowers that fire farther than 1 space inflict damage on all
    // units in spaces between the attacking unit and the target unit—even spaces occupied by
    // friendly units."; 002 "Tank Riders (#)": "both the Vehicle and the Unit riding on a
    // Vehicle are attacked separately" (R474). Axis's flamethrowers (range 2) on E7 aim at the
    // tank on E5 across allied `z` on E6: the tank 1 5 5 5 (1 damage), `z` 5 5 5 5, the riders
    // 1 1 5 5 (two fall), and no extra die.
    let mut st = carried(burners(2), "E7", vec![unit("z", "sq", Some("E6"))]);
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5, 5, 5, 1, 1, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack flame at tank\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert_eq!(u(&st, "tank").health, 2, "{t}");
    assert_eq!(u(&st, "z").models.len(), 4, "{t}");
    assert_eq!(u(&st, "r").models.len(), 2, "{t}");
    assert!(!t.contains("extra dice"), "{t}");
}

#[test]
fn tank_riders_004_a_flame_aimed_at_the_riders_leaves_the_vehicle_alone() {
    // 004 "Tank Riders": "If a unit riding this vehicle is directly targeted by an attack, the
    // attacker rolls against the armor value of the targeted unit, not the vehicle."; 002:
    // "A Unit riding on a Vehicle can be targeted by an attack instead of the Vehicle." (R474):
    // flames aimed at `r` burn `r` only (1 1 5 5: two fall); the tank is not rolled against.
    let mut st = carried(burners(1), "E4", vec![]);
    let mut d = ScriptedDice::new([1, 1, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate x\nattack flame at r\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert_eq!(u(&st, "r").models.len(), 2, "{t}");
    assert_eq!(u(&st, "tank").health, 3, "{t}");
}

#[test]
fn tank_riders_004_the_template_offers_the_riders_lines_and_the_riders_as_targets() {
    // 004 "Tank Riders": "When a unit riding a vehicle is activated, it can use any skills or
    // take any actions available to it."; "Climbing down from this vehicle requires a MOVE
    // action."; "If a unit riding this vehicle is directly targeted by an attack…" (R475).
    // Axis's template offers `r` as a target of its gun; once axis has acted, the allies'
    // template offers `r` an attack from the tank's square and `move exit`, no plain move;
    // every line either template suggests is accepted when sent back.
    let mut st = carried(squad("sq"), "E2", vec![]);
    let axis = DustTactics.orders_template(&st, "axis");
    assert!(axis.contains("#   attack gun at tank"), "{axis}");
    assert!(axis.contains("#     or at: r"), "{axis}");
    crate::legal_template::every_suggestion_accepted(&st, "axis", "riders, axis");
    accepted(&send(
        &mut st,
        "axis",
        "activate x\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    ));
    let allies = DustTactics.orders_template(&st, "allies");
    let block: String = allies
        .split("# activate ")
        .find(|b| b.starts_with("r "))
        .unwrap_or_else(|| panic!("no block for r:\n{allies}"))
        .to_string();
    assert!(
        block.contains("riding tank on E5, acting from there"),
        "{block}"
    );
    assert!(block.contains("#   attack gun at x"), "{block}");
    assert!(block.contains("#   move exit "), "{block}");
    assert!(!block.contains("#   move E"), "{block}");
    let sent = crate::legal_template::every_suggestion_accepted(&st, "allies", "riders, allies");
    assert!(
        sent.iter().any(|o| o.starts_with("activate r\n  attack")),
        "{sent:?}"
    );
    assert!(
        sent.iter()
            .any(|o| o.starts_with("activate r\n  move exit")),
        "{sent:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// The scenario, played by mail
// ---------------------------------------------------------------------------------------------

const GAME: &str = "g-riders";

fn path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// The first line under `# activate <unit>` in `template` that starts with `word`, its `#` and
/// note removed.
fn suggested(template: &str, unit: &str, word: &str) -> Option<String> {
    let block = template
        .split("# activate ")
        .find(|b| b.split_whitespace().next() == Some(unit))?;
    block.lines().find_map(|l| {
        let order = l.strip_prefix("#")?.split('#').next()?.trim();
        order.starts_with(word).then(|| order.to_string())
    })
}

// Issue 12: "Riders" (games/dust-tactics/scenarios/riders.toml) fields the provisional tank
// with Tank Riders of games/dust-tactics/cards-transport/ carrying recon rangers (004 "Tank
// Riders": "Squads and heroes can begin the game riding this vehicle"). Two players play it to
// its end through signed mails run by the real pipeline: the rangers' first activation fires
// from the tank (the attack line their template suggests), their next climbs down (the `move
// exit` line it suggests); bots play the rest. While the rangers ride, every line either
// side's template suggests is accepted when sent back. Replay and audit pass.
#[test]
fn tank_riders_004_the_riders_scenario_is_played_to_its_end_by_signed_mail() {
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &[
            "--scenario",
            &path("games/dust-tactics/scenarios/riders.toml"),
            "--cards",
            &path("games/dust-tactics/cards-transport"),
        ],
        (GAME, 31, 9),
    );
    env.run(dt::NOW);
    let mut bots = dt::Bots::new(GAME, &ps, |i| Style::Random(91 + i as u64));
    let (mut fired, mut climbed) = (false, false);
    let mut scripted = 0;
    for step in 0..400 {
        let g = env.load(GAME);
        if g.derived.finished.is_some() {
            break;
        }
        let st: State = g.derived.state.typed::<State>().clone();
        let riding = flow::riding_square(&st, "rangers").is_some();
        let awaited = DustTactics.awaiting(&st);
        if riding {
            for a in &awaited {
                let ctx = format!("riders step {step}");
                crate::legal_template::every_suggestion_accepted(&st, &a.side, &ctx);
            }
        }
        let mine = awaited.first().filter(|a| {
            a.side == "allies"
                && a.decision == "activate"
                && a.options.iter().any(|o| o == "activate rangers")
                && riding
        });
        let line = mine.and_then(|_| {
            let t = DustTactics.orders_template(&st, "allies");
            if !fired {
                suggested(&t, "rangers", "attack ")
            } else {
                suggested(&t, "rangers", "move exit ")
            }
        });
        let (name, mail) = match line.clone() {
            Some(line) => {
                let seq = g.derived.last_seq.get("allies").copied().unwrap_or(0) + 1;
                let orders = dt::orders(
                    GAME,
                    "allies",
                    seq,
                    &format!("activate rangers\n{line}\nnothing"),
                );
                scripted += 1;
                let p = &ps[0];
                let id = format!("{GAME}-s{scripted}@players.example");
                let name = format!("{GAME}-s{scripted:05}.eml");
                (name, dt::mail(&p.address, &id, &p.key, &orders))
            }
            None => match bots.next_mail(&g) {
                Some(m) => m,
                None => break,
            },
        };
        std::fs::write(home.maildir().join("new").join(name), mail).unwrap();
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
        if let Some(line) = line {
            let after = env.load(GAME);
            let now: &State = after.derived.state.typed();
            let r = now.unit("rangers").unwrap();
            assert!(
                r.activated || r.destroyed || now.round > st.round,
                "{line} was not played"
            );
            if line.starts_with("attack") {
                // Fired from the tank's square, still riding.
                assert_eq!(r.aboard.as_deref(), Some("tank"), "{line}");
                fired = true;
            } else {
                let tank_at = st.unit("tank").unwrap().at.unwrap();
                assert!(r.aboard.is_none(), "{line}");
                assert!(r.at.is_some_and(|a| a.adjacent(tank_at)), "{line}");
                climbed = true;
            }
        }
    }
    let g = env.load(GAME);
    assert!(g.derived.finished.is_some(), "the game did not end");
    assert!(fired, "the rangers never fired from the tank");
    assert!(climbed, "the rangers never climbed down");
    referee::replay_game(&DustTactics, &env.edges, &home, GAME).unwrap();
    let log = dt::log_path(&home, GAME);
    let o = dt::dustmail(&home.root, &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}
