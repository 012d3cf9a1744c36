//! Property test (DESIGN §6 "random legal games always end"): a bot answers whatever the game
//! awaits with random commands (legal or not) and random dice. Every game ends within the round
//! limit, nothing panics, a refused command leaves the state byte-identical, and the state
//! survives a JSON round trip.

use crate::support_flow;

use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::{Action, Command, FireOrder, TargetRef};
use dustmail::dust_tactics::state::{Phase, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, DiceSource, Game};
use proptest::prelude::*;
use support_flow::*;

struct RandDice(u64);

impl RandDice {
    fn next(&mut self) -> u64 {
        // xorshift64*: deterministic, no external RNG needed.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

impl DiceSource for RandDice {
    fn d6(&mut self, _round: u32) -> u8 {
        (self.next() % 6) as u8 + 1
    }
}

fn game() -> State {
    let mut knife = weapon("knife", WeaponRange::Close, 1, 1);
    knife.traits.push(WeaponTrait::PerModel);
    let mut pf = weapon("pf", WeaponRange::Upto(3), 1, 2);
    pf.ammo = Some(2);
    pf.carriers = Some(1);
    let mut rangers = with_skill(
        card(
            "rangers",
            UnitType::Squad,
            4,
            1,
            vec![weapon("gun", WeaponRange::Upto(4), 1, 1), pf, knife],
        ),
        "fast",
        None,
    );
    rangers.models = (1..=4)
        .map(|i| ModelSpec {
            id: format!("r{i}"),
            carries: if i == 4 {
                vec!["gun".into(), "pf".into()]
            } else {
                vec!["gun".into(), "knife".into()]
            },
        })
        .collect();
    let hero = with_skill(
        with_skill(
            card(
                "hero",
                UnitType::Hero,
                3,
                2,
                vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
            ),
            "berserk",
            Some(1),
        ),
        "black-ops",
        None,
    );
    let tank = with_skill(
        card(
            "tank",
            UnitType::Vehicle,
            4,
            1,
            vec![
                weapon("cannon", WeaponRange::Upto(6), 2, 1),
                weapon("claw", WeaponRange::Close, 2, 2),
            ],
        ),
        "self-repair",
        None,
    );
    let mut s = scenario(
        vec![
            unit("ra", "rangers", Some("D6")),
            unit("joe", "hero", None),
            unit("ta", "tank", None),
        ],
        vec![
            unit("rx", "rangers", Some("E4")),
            unit("tx", "tank", Some("G3")),
            unit("hx", "hero", None),
        ],
    );
    s.sides[0].units[1].joins = Some("ra".into());
    s.rounds = 4;
    start(s, vec![rangers, hero, tank])
}

/// A square near `from` (or anywhere on an entry row when off the board).
fn random_square(r: &mut RandDice, from: Option<Square>, side: &str) -> Square {
    let b = Board::open(9, 9).unwrap();
    match from {
        Some(f) => {
            let dc = r.pick(5) as i32 - 2;
            let dr = r.pick(5) as i32 - 2;
            b.square(f.col() as i32 + dc, f.row() as i32 + dr)
                .unwrap_or(f)
        }
        None => b
            .square(r.pick(9) as i32, if side == "allies" { 8 } else { 0 })
            .unwrap(),
    }
}

fn random_activation(st: &State, side: &str, unit: &str, r: &mut RandDice) -> Command {
    let enemies: Vec<String> = st
        .units
        .iter()
        .filter(|u| u.side != side && (u.at.is_some() || r.pick(8) == 0))
        .map(|u| u.id.clone())
        .collect();
    let at = st.unit(unit).and_then(|u| u.at);
    let weapons: Vec<String> = st
        .units
        .iter()
        .filter(|u| u.id == unit || u.joined.as_deref() == Some(unit))
        .filter_map(|u| st.cards.get(&u.card))
        .flat_map(|c| c.weapons.iter().map(|w| w.id.clone()))
        .collect();
    // Half the time aim at the nearest enemy on the board and step towards it.
    let nearest = at.and_then(|a| {
        st.units
            .iter()
            .filter(|u| u.side != side && !u.destroyed)
            .filter_map(|u| {
                u.at.map(|t| (a.delta(t).0.max(a.delta(t).1), t, u.id.clone()))
            })
            .min()
    });
    if let (Some(a), Some((_, t, id))) = (at, nearest.clone()) {
        if r.pick(2) == 0 {
            let b = Board::open(9, 9).unwrap();
            let step = |x: u8, y: u8| (y as i32 - x as i32).signum();
            let to = b
                .square(
                    a.col() as i32 + step(a.col(), t.col()),
                    a.row() as i32 + step(a.row(), t.row()),
                )
                .unwrap_or(a);
            let w = weapons
                .get(r.pick(weapons.len()))
                .cloned()
                .unwrap_or_default();
            let f = vec![FireOrder {
                weapon: w,
                target: TargetRef::Unit(id),
                through: vec![],
                count: None,
            }];
            let actions = match r.pick(4) {
                0 => vec![
                    Action::Move { squares: vec![to] },
                    Action::Attack { fire: f },
                ],
                1 => vec![
                    Action::Attack { fire: f },
                    Action::Move { squares: vec![to] },
                ],
                2 => vec![Action::Sustained { fire: f }],
                _ => vec![Action::Move { squares: vec![to] }, Action::Nothing],
            };
            return Command::Activate {
                unit: unit.into(),
                actions,
            };
        }
    }
    let fire = |r: &mut RandDice| -> Vec<FireOrder> {
        let n = 1 + r.pick(2);
        (0..n)
            .map(|_| FireOrder {
                weapon: weapons
                    .get(r.pick(weapons.len()))
                    .cloned()
                    .unwrap_or_else(|| "gun".into()),
                target: TargetRef::Unit(
                    enemies
                        .get(r.pick(enemies.len()))
                        .cloned()
                        .unwrap_or_default(),
                ),
                through: vec![],
                count: None,
            })
            .collect()
    };
    let one = |r: &mut RandDice| -> Action {
        match r.pick(4) {
            0 => Action::Move {
                squares: vec![random_square(r, at, side)],
            },
            1 => Action::Attack { fire: fire(r) },
            2 => Action::Skill {
                name: ["berserk", "detach", "fast"][r.pick(3)].into(),
                target: None,
            },
            _ => Action::Nothing,
        }
    };
    let actions = if r.pick(6) == 0 {
        vec![Action::Sustained { fire: fire(r) }]
    } else {
        let mut v = vec![one(r), one(r)];
        if r.pick(4) == 0 {
            v.push(one(r));
        }
        v
    };
    Command::Activate {
        unit: unit.into(),
        actions,
    }
}

fn play(seed: u64) {
    let mut st = game();
    let mut r = RandDice(seed | 1);
    let mut dice = RandDice(seed.wrapping_mul(31) | 1);
    for _ in 0..3000 {
        let aw = DustTactics.awaiting(&st);
        if aw.is_empty() {
            assert!(
                st.result.is_some(),
                "nothing awaited but no result: {:?}",
                st.phase
            );
            assert!(st.round <= 4);
            return;
        }
        let a = &aw[r.pick(aw.len())];
        let side = a.side.clone();
        let cmd = match a.decision.as_str() {
            "first" => Some(Command::First {
                side: ["allies", "axis"][r.pick(2)].into(),
            }),
            "activate" => {
                let unit = a.options[r.pick(a.options.len())]
                    .trim_start_matches("activate ")
                    .to_string();
                Some(random_activation(&st, &side, &unit, &mut r))
            }
            "react" => {
                let o = &a.options[r.pick(a.options.len())];
                let u = o.trim_start_matches("react ");
                Some(Command::React {
                    unit: if u == "none" { None } else { Some(u.into()) },
                })
            }
            _ => None,
        };
        match cmd {
            Some(c) if r.pick(5) != 0 => {
                let rolls_initiative = st.phase == Phase::Initiative;
                let before = serde_json::to_string(&st).unwrap();
                let out = DustTactics.command(&mut st, &side, &c, &mut dice);
                if matches!(out.results[0].outcome, CommandOutcome::Refused { .. })
                    && !rolls_initiative
                {
                    assert_eq!(
                        serde_json::to_string(&st).unwrap(),
                        before,
                        "refused {c:?} changed the state"
                    );
                }
            }
            _ => {
                DustTactics.default_for(&mut st, &side, &mut dice);
            }
        }
        let json = serde_json::to_string(&st).unwrap();
        let back: State = serde_json::from_str(&json).unwrap();
        assert_eq!(back, st);
        let _ = DustTactics.view(&st, Some(&side));
        let _ = DustTactics.board_text(&st);
        let _ = DustTactics.orders_template(&st, &side);
    }
    panic!("the game did not end in 3000 steps: {:?}", st.phase);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]
    #[test]
    fn random_games_always_end_and_never_panic(seed in any::<u64>()) {
        play(seed);
    }
}
