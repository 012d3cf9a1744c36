//! A campaign as its ledger says it stands: the plan of its games (a function of its rules and
//! players only), which are open and ended, the standings, what carries over and what opens
//! next. Everything here is derived from the recorded lines, so `audit` recomputes it.

use super::{CampaignError, Created, Entry, Event, ForceChosen, GameEnded, GameOpened, Kind};
use crate::game::GameResult;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A game of the campaign's plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Planned {
    pub number: u32,
    pub scenario: String,
    /// Side → player name.
    pub sides: BTreeMap<String, String>,
}

/// Every game the rules call for, in order. League: for each scenario, every pairing (i < j)
/// of the players in the order given, the first player taking the first side in odd-numbered
/// scenarios and the second side in even-numbered ones. Chain: each scenario once, the N-th
/// player on the N-th side.
pub fn plan(c: &Created) -> Vec<Planned> {
    let r = &c.rules;
    let names: Vec<&str> = c.players.iter().map(|p| p.name.as_str()).collect();
    let mut out = Vec::new();
    for (si, scenario) in r.scenarios.iter().enumerate() {
        let pairs: Vec<(&str, &str)> = match r.kind {
            Kind::League => {
                let mut v = Vec::new();
                for i in 0..names.len() {
                    for j in i + 1..names.len() {
                        v.push(if si % 2 == 0 {
                            (names[i], names[j])
                        } else {
                            (names[j], names[i])
                        });
                    }
                }
                v
            }
            // One game: the N-th player on the N-th colour.
            Kind::Strategic => {
                out.push(Planned {
                    number: 1,
                    scenario: scenario.clone(),
                    sides: r
                        .sides
                        .iter()
                        .cloned()
                        .zip(names.iter().map(|n| n.to_string()))
                        .collect(),
                });
                Vec::new()
            }
            Kind::Chain => names
                .first()
                .zip(names.get(1))
                .map(|(a, b)| vec![(*a, *b)])
                .unwrap_or_default(),
        };
        for (a, b) in pairs {
            out.push(Planned {
                number: out.len() as u32 + 1,
                scenario: scenario.clone(),
                sides: BTreeMap::from([
                    (r.sides[0].clone(), a.to_string()),
                    (r.sides[1].clone(), b.to_string()),
                ]),
            });
        }
    }
    out
}

/// One game as the campaign ledger records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    pub opened: GameOpened,
    /// The campaign ledger line that opened it, and the head before that line (which the
    /// game's `created` line must name).
    pub line: u64,
    pub head_before: String,
    pub ended: Option<GameEnded>,
    /// The campaign ledger line that recorded its end (0 while open).
    pub ended_line: u64,
    /// The campaign's players when it was opened (the game's `created` line has them).
    pub players: Vec<super::CampaignPlayer>,
}

/// A player's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub player: String,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    /// By the rules' scoring (win, draw, loss).
    pub score: u32,
    /// Victory points summed over the player's ended games.
    pub points: u32,
}

/// The campaign as its ledger stands.
#[derive(Debug, Clone, Serialize)]
pub struct Campaign {
    /// The `created` line, with its players as they stand after any `player_replaced` line.
    pub created: Created,
    pub games: Vec<GameRecord>,
    /// The force choices recorded (`[forces]`), in ledger order.
    pub chosen: Vec<ForceChosen>,
    /// When the game now due became due: the `at` of the campaign's creation or of the last
    /// game's end (the force choice's deadline counts from it).
    pub due_since: String,
    pub finished: bool,
    /// Player → the end of the absence they declared for the campaign (`player_absent`).
    pub absent: BTreeMap<String, String>,
    /// Player → the seq of their last recorded absence block.
    pub absence_seqs: BTreeMap<String, u64>,
    /// The ledger's head: seq and hex hash of its last line.
    pub seq: u64,
    pub head: String,
}

impl Campaign {
    /// Folds the lines (each with its hash, as [`super::parse_log`] gives them), checking that
    /// each follows from those before it: games opened in plan order and only when due, with
    /// the carried-over values the recorded results give; ends of open games only; the final
    /// standings as computed. `file` names the ledger in errors.
    pub fn fold(file: &str, entries: &[(Entry, String)]) -> Result<Campaign, CampaignError> {
        let bad = |n: u64, msg: String| CampaignError::Verify(format!("{file} line {n}: {msg}"));
        let Some((
            Entry {
                event: Event::Created(created),
                ..
            },
            h1,
        )) = entries.first()
        else {
            return Err(bad(1, "the first line is not `created`".into()));
        };
        let mut c = Campaign {
            created: (**created).clone(),
            games: Vec::new(),
            chosen: Vec::new(),
            due_since: created.created_at.clone(),
            finished: false,
            absent: BTreeMap::new(),
            absence_seqs: BTreeMap::new(),
            seq: 1,
            head: h1.clone(),
        };
        for (e, hash) in &entries[1..] {
            if c.finished {
                return Err(bad(e.seq, "a line after the campaign's `finished`".into()));
            }
            match &e.event {
                Event::Created(_) => return Err(bad(e.seq, "a second `created` line".into())),
                Event::GameOpened(o) if o.number > 1 && c.created.rules.kind == Kind::Strategic => {
                    super::strategic::check_opened(&c, o).map_err(|m| bad(e.seq, m))?;
                    c.games.push(GameRecord {
                        opened: o.clone(),
                        line: e.seq,
                        head_before: c.head.clone(),
                        ended: None,
                        ended_line: 0,
                        players: c.created.players.clone(),
                    });
                }
                Event::GameOpened(o) => {
                    let due = c.due();
                    let Some(p) = due.iter().find(|p| p.number == o.number) else {
                        return Err(bad(
                            e.seq,
                            format!(
                                "game {} (number {}) is not due by the campaign's rules and the results recorded before it",
                                o.game_id, o.number
                            ),
                        ));
                    };
                    let want_id = super::game_id(&c.created.campaign_id, p.number);
                    if o.game_id != want_id || o.scenario != p.scenario || o.sides != p.sides {
                        return Err(bad(
                            e.seq,
                            format!(
                                "game {} does not match the plan: the rules give game {want_id}, scenario {}, sides {:?}",
                                o.game_id, p.scenario, p.sides
                            ),
                        ));
                    }
                    let carried = c.carried();
                    if o.carried != carried {
                        return Err(bad(
                            e.seq,
                            format!(
                                "the carried-over points {:?} do not follow from the recorded results, which give {:?}",
                                o.carried, carried
                            ),
                        ));
                    }
                    c.check_opened_forces(o).map_err(|m| bad(e.seq, m))?;
                    c.games.push(GameRecord {
                        opened: o.clone(),
                        line: e.seq,
                        head_before: c.head.clone(),
                        ended: None,
                        ended_line: 0,
                        players: c.created.players.clone(),
                    });
                }
                Event::GameEnded(g) => {
                    let Some(rec) = c.games.iter_mut().find(|r| r.opened.game_id == g.game_id)
                    else {
                        return Err(bad(
                            e.seq,
                            format!("game {} ended but the campaign never opened it", g.game_id),
                        ));
                    };
                    if rec.ended.is_some() {
                        return Err(bad(e.seq, format!("game {} ended twice", g.game_id)));
                    }
                    rec.ended = Some(g.clone());
                    rec.ended_line = e.seq;
                    c.due_since = g.at.clone();
                }
                Event::ForceChosen(f) => {
                    c.check_chosen(f).map_err(|m| bad(e.seq, m))?;
                    c.chosen.push(f.clone());
                }
                Event::PlayerReplaced(r) => {
                    c.replace_player(r).map_err(|m| bad(e.seq, m))?;
                }
                Event::PlayerAbsent(a) => {
                    c.note_absence(a).map_err(|m| bad(e.seq, m))?;
                }
                Event::Finished(f) => {
                    if !c.all_ended() {
                        return Err(bad(
                            e.seq,
                            "`finished` while games are still due or open".into(),
                        ));
                    }
                    let s = c.standings();
                    if f.standings != s {
                        return Err(bad(
                            e.seq,
                            "the final standings do not follow from the recorded results".into(),
                        ));
                    }
                    c.finished = true;
                }
            }
            c.seq = e.seq;
            c.head = hash.clone();
        }
        Ok(c)
    }

    /// The games of the plan that should be open now and are not: a league opens all at once
    /// (with `[forces]`, each as soon as its forces are in, so in any order); a chain opens the
    /// next scenario when every game before it has ended.
    pub fn due(&self) -> Vec<Planned> {
        let opened = self.games.len();
        let plan = plan(&self.created);
        match self.created.rules.kind {
            Kind::League => plan
                .into_iter()
                .filter(|p| !self.games.iter().any(|g| g.opened.number == p.number))
                .collect(),
            Kind::Strategic => plan.into_iter().skip(opened).collect(),
            Kind::Chain => {
                if self.games.iter().all(|g| g.ended.is_some()) {
                    plan.into_iter().skip(opened).take(1).collect()
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// A `force_chosen` line follows from the lines before it: for the game now due, by the
    /// player of that side, once, and a force the rules and the recorded losses allow.
    fn check_chosen(&self, f: &ForceChosen) -> Result<(), String> {
        let Some(p) = self.awaiting_game(f.number) else {
            return Err(format!(
                "a force for game {} (number {}), which is not the game awaiting forces",
                f.game_id, f.number
            ));
        };
        if f.game_id != super::game_id(&self.created.campaign_id, p.number)
            || p.sides.get(&f.side) != Some(&f.player)
        {
            return Err(format!(
                "the force of {} for side {} of game {} does not match the plan",
                f.player, f.side, f.game_id
            ));
        }
        if self.chosen(f.number).contains_key(&f.side) {
            return Err(format!(
                "a second force for side {} of game {}",
                f.side, f.game_id
            ));
        }
        if f.default {
            let late = chrono::DateTime::parse_from_rfc3339(&f.at)
                .ok()
                .zip(self.side_force_deadline(f.number, &f.side))
                .is_some_and(|(at, dl)| at >= dl);
            if !late || !f.canonical.is_empty() || !f.signature.is_empty() {
                return Err(format!(
                    "a default force for side {} of game {} before the deadline the rules and the recorded times give",
                    f.side, f.game_id
                ));
            }
            let (units, ap) = self.default_force(&f.side);
            if units != f.units || ap != f.ap || units.is_empty() {
                return Err(format!(
                    "the default force for side {} is not the one the roster and the recorded losses give",
                    f.side
                ));
            }
            return Ok(());
        }
        let ids: Vec<(usize, String)> = f.units.iter().map(|u| (0, u.id.clone())).collect();
        match self.check_force(&f.side, &ids) {
            Ok((units, ap)) if units == f.units && ap == f.ap => Ok(()),
            Ok((_, ap)) => Err(format!(
                "the force's cards or its AP ({}) do not follow from the roster, which gives {ap} AP",
                f.ap
            )),
            Err(r) => Err(format!("the force is not allowed: {}", r.reason)),
        }
    }

    /// A game of a campaign with `[forces]` opens with both chosen forces, as recorded.
    fn check_opened_forces(&self, o: &GameOpened) -> Result<(), String> {
        if self.created.rules.forces.is_none() {
            return if o.forces.is_empty() {
                Ok(())
            } else {
                Err("forces recorded in a campaign without [forces]".into())
            };
        }
        let want: BTreeMap<String, Vec<super::ForceUnit>> = self
            .chosen(o.number)
            .into_iter()
            .map(|(side, c)| (side, c.units.clone()))
            .collect();
        if want.len() != o.sides.len() || o.forces != want {
            return Err(format!(
                "game {} opens with forces that are not the ones both players chose",
                o.game_id
            ));
        }
        Ok(())
    }

    /// Applies a `player_replaced` line: a player of the campaign, by a new address and key
    /// that no other player has. `created.players` is then the players as they stand.
    pub fn replace_player(&mut self, r: &super::PlayerReplaced) -> Result<(), String> {
        let others = self.created.players.iter().filter(|p| p.name != r.player);
        for q in others {
            if q.address == r.address || crate::pbem::keys::same_key(&q.public_key, &r.public_key) {
                return Err(format!(
                    "player {} replaced by the address or key of {}",
                    r.player, q.name
                ));
            }
        }
        let Some(p) = self.created.players.iter_mut().find(|p| p.name == r.player) else {
            return Err(format!("there is no player {} to replace", r.player));
        };
        p.address = r.address.clone();
        p.public_key = r.public_key.clone();
        Ok(())
    }

    /// Every game of the plan opened and ended.
    pub fn all_ended(&self) -> bool {
        // A strategic campaign's battle games come on top of its plan.
        let more = self.created.rules.kind == Kind::Strategic;
        (self.games.len() == plan(&self.created).len() || more && !self.games.is_empty())
            && self.games.iter().all(|g| g.ended.is_some())
    }

    /// Each player's (side → player) result in one ended game: (player, won, drawn, points).
    fn outcomes(rec: &GameRecord, r: &GameResult) -> Vec<(String, Option<bool>, u32)> {
        rec.opened
            .sides
            .iter()
            .map(|(side, player)| {
                let won = r.winner.as_ref().map(|w| w == side);
                let pts = r.points.get(side).copied().unwrap_or(0);
                (player.clone(), won, pts)
            })
            .collect()
    }

    /// The standings: by score, then points, then name.
    pub fn standings(&self) -> Vec<Standing> {
        let sc = &self.created.rules.scoring;
        let mut by: BTreeMap<String, Standing> = self
            .created
            .players
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    Standing {
                        player: p.name.clone(),
                        played: 0,
                        won: 0,
                        drawn: 0,
                        lost: 0,
                        score: 0,
                        points: 0,
                    },
                )
            })
            .collect();
        for rec in &self.games {
            let Some(end) = &rec.ended else { continue };
            for (player, won, pts) in Self::outcomes(rec, &end.result) {
                let Some(s) = by.get_mut(&player) else {
                    continue;
                };
                s.played += 1;
                s.points = s.points.saturating_add(pts);
                match won {
                    Some(true) => {
                        s.won += 1;
                        s.score = s.score.saturating_add(sc.win);
                    }
                    Some(false) => {
                        s.lost += 1;
                        s.score = s.score.saturating_add(sc.loss);
                    }
                    None => {
                        s.drawn += 1;
                        s.score = s.score.saturating_add(sc.draw);
                    }
                }
            }
        }
        let mut v: Vec<Standing> = by.into_values().collect();
        v.sort_by(|a, b| {
            b.score
                .cmp(&a.score)
                .then(b.points.cmp(&a.points))
                .then(a.player.cmp(&b.player))
        });
        v
    }

    /// What carries into the next game: each player's points so far, when the rules carry
    /// points (else nothing).
    pub fn carried(&self) -> BTreeMap<String, u32> {
        if !self.created.rules.carry_over.points {
            return BTreeMap::new();
        }
        self.standings()
            .into_iter()
            .map(|s| (s.player, s.points))
            .collect()
    }

    /// The JSON of `campaign show --format json` and the reports' context.
    pub fn view(&self) -> serde_json::Value {
        let games: Vec<serde_json::Value> = self
            .games
            .iter()
            .map(|g| {
                serde_json::json!({
                    "game": g.opened.game_id, "number": g.opened.number,
                    "scenario": g.opened.scenario, "sides": g.opened.sides,
                    "carried": g.opened.carried,
                    "ended": g.ended.is_some(),
                    "winner": g.ended.as_ref().and_then(|e| e.result.winner.as_ref()
                        .and_then(|w| g.opened.sides.get(w))),
                    "reason": g.ended.as_ref().map(|e| e.result.reason.clone()),
                    "points": g.ended.as_ref().map(|e| e.result.points.clone()),
                    "head": g.ended.as_ref().map(|e| format!("{} {}", e.final_seq, e.final_head)),
                    "forces": g.opened.forces.iter().map(|(side, units)| {
                        (side.clone(), units.iter().map(|u| u.id.clone()).collect::<Vec<_>>())
                    }).collect::<BTreeMap<_, _>>(),
                    "lost": g.ended.as_ref().map(|e| e.lost.clone()).unwrap_or_default(),
                    "battle": g.opened.battle.as_ref().map(|b| format!(
                        "battle {} of {} at {}: {} attacks {}",
                        b.battle.battle, b.game, b.battle.area, b.battle.attacker, b.battle.defender
                    )),
                })
            })
            .collect();
        let next: Vec<serde_json::Value> = self
            .due()
            .iter()
            .map(|p| serde_json::json!({"number": p.number, "scenario": p.scenario, "sides": p.sides}))
            .collect();
        serde_json::json!({
            "campaign": self.created.campaign_id,
            "kind": self.created.rules.kind,
            "game_name": self.created.rules.game,
            "scenarios": self.created.rules.scenarios,
            "carry_over": self.created.rules.carry_over,
            "scoring": self.created.rules.scoring,
            "players": self.created.players.iter().map(|p| &p.name).collect::<Vec<_>>(),
            "games": games,
            "open": self.games.iter().filter(|g| g.ended.is_none()).map(|g| &g.opened.game_id).collect::<Vec<_>>(),
            "next": next,
            "carried": self.carried(),
            "standings": self.standings(),
            "forces": self.forces_view(),
            "finished": self.finished,
            "ledger_head": format!("{} {}", self.seq, self.head),
        })
    }
}
