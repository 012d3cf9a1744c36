//! Forces chosen by signed mail (issue 15 item 2): before each game of a chain whose rules have
//! `[forces]`, both players mail a choice of units from their side's roster within the AP
//! allowance; what each may choose follows from the losses recorded in the `game_ended` lines
//! and the rules' `[carry_over]`. The same checks serve the referee (refusing a mail, with the
//! line, the rule and what to send instead) and the fold (refusing a recorded line).

use super::state::{Campaign, Planned};
use super::{CampaignError, ForceChosen, Kind, Rules};
use crate::game::{ForceUnit, Line};
use std::collections::BTreeMap;

/// The rule refusals cite.
pub const RULE: &str =
    "the campaign's rules, [forces] (docs/campaigns.md \"Forces by mail, and what carries over\")";

/// Checks the `[forces]` and `[carry_over]` of a rules file.
pub fn check_rules(r: &Rules) -> Result<(), CampaignError> {
    let usage = |m: &str| Err(CampaignError::Usage(m.to_string()));
    let Some(f) = &r.forces else {
        if r.carry_over.units || r.carry_over.heroes {
            return usage(
                "[carry_over] units or heroes need forces chosen by the players: add a [forces] table with ap and a roster per side (docs/campaigns.md)",
            );
        }
        return Ok(());
    };
    // A league's games are played side by side, each player on either side: no unit's
    // loss carries from one to another.
    if r.kind == Kind::League && (r.carry_over.units || r.carry_over.heroes) {
        return usage(
            "[carry_over] units or heroes are for a chain: a league's games are played at the same time, so each of its forces is chosen from the whole roster; remove them",
        );
    }
    if f.ap == 0 {
        return usage("[forces] ap = 0 fields nothing: write e.g. ap = 8");
    }
    let mut want = r.sides.clone();
    want.sort();
    let have: Vec<String> = f.roster.keys().cloned().collect();
    if have != want {
        return Err(CampaignError::Usage(format!(
            "[forces.roster] must list exactly the sides {}: write one [forces.roster.SIDE] table per side, `unit = \"card\"` a line",
            r.sides.join(" and ")
        )));
    }
    for (side, units) in &f.roster {
        if units.is_empty() {
            return Err(CampaignError::Usage(format!(
                "[forces.roster.{side}] lists no unit: write e.g. rangers = \"recon-rangers\""
            )));
        }
        for id in units.keys() {
            let ok = (1..=32).contains(&id.len())
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !ok {
                return Err(CampaignError::Usage(format!(
                    "[forces.roster.{side}] unit `{id}`: a unit id is 1 to 32 letters, digits, `-` or `_`"
                )));
            }
        }
    }
    Ok(())
}

/// A force choice refused: the line of the signed text (0: the choice as a whole), the reason,
/// the rule and what to send instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub line: usize,
    pub reason: String,
    pub instead: String,
}

impl Campaign {
    /// The game whose forces the players must choose now: the due game of a chain with
    /// `[forces]` (of a league, the first of [`Campaign::awaiting_all`]).
    pub fn awaiting_forces(&self) -> Option<Planned> {
        self.awaiting_all().into_iter().next()
    }

    /// Every game whose forces the players must choose now: the due games of a campaign with
    /// `[forces]` (a chain's one, each not yet opened pairing of a league).
    pub fn awaiting_all(&self) -> Vec<Planned> {
        if self.created.rules.forces.is_none() {
            return Vec::new();
        }
        self.due()
    }

    /// The game `number` if its forces are awaited.
    pub fn awaiting_game(&self, number: u32) -> Option<Planned> {
        self.awaiting_all().into_iter().find(|p| p.number == number)
    }

    /// The choices recorded for game `number`, by side.
    pub fn chosen(&self, number: u32) -> BTreeMap<String, &ForceChosen> {
        self.chosen
            .iter()
            .filter(|c| c.number == number)
            .map(|c| (c.side.clone(), c))
            .collect()
    }

    /// Every unit of `side`'s roster lost for good so far, with the game it was lost in: a
    /// hero when the rules carry heroes over, another unit when they carry units over.
    pub fn lost_for_good(&self, side: &str) -> BTreeMap<String, String> {
        let co = &self.created.rules.carry_over;
        let roster = self.roster(side);
        let mut out = BTreeMap::new();
        for g in &self.games {
            let Some(end) = &g.ended else { continue };
            for id in end.lost.get(side).into_iter().flatten() {
                let hero = roster
                    .get(id)
                    .and_then(|card| self.created.force_cards.get(card))
                    .is_some_and(|c| c.hero);
                if (hero && co.heroes) || (!hero && co.units) {
                    out.entry(id.clone())
                        .or_insert_with(|| g.opened.game_id.clone());
                }
            }
        }
        out
    }

    /// `side`'s roster: unit id → card.
    pub fn roster(&self, side: &str) -> BTreeMap<String, String> {
        self.created
            .rules
            .forces
            .as_ref()
            .and_then(|f| f.roster.get(side).cloned())
            .unwrap_or_default()
    }

    /// The units `side` may field now: its roster without the units lost for good.
    pub fn available(&self, side: &str) -> BTreeMap<String, String> {
        let lost = self.lost_for_good(side);
        self.roster(side)
            .into_iter()
            .filter(|(id, _)| !lost.contains_key(id))
            .collect()
    }

    /// The AP of a unit of `side`'s roster (0 for a card the campaign did not record).
    pub fn unit_ap(&self, card: &str) -> u32 {
        self.created.force_cards.get(card).map_or(0, |c| c.ap)
    }

    /// What the reports say of forces (null without `[forces]`): the allowance, each side's
    /// units still available and lost for good, and the game awaiting forces with the sides
    /// whose choice is in (never what they chose: sealed until the game opens).
    pub fn forces_view(&self) -> serde_json::Value {
        let Some(f) = &self.created.rules.forces else {
            return serde_json::Value::Null;
        };
        let sides: BTreeMap<&String, serde_json::Value> = f
            .roster
            .keys()
            .map(|side| {
                let available: Vec<String> = self.available(side).into_keys().collect();
                let lost: Vec<String> = self.lost_for_good(side).into_keys().collect();
                (
                    side,
                    serde_json::json!({"available": available, "lost": lost}),
                )
            })
            .collect();
        let awaiting = self.awaiting_forces().map(|p| {
            serde_json::json!({
                "game": super::game_id(&self.created.campaign_id, p.number),
                "chosen": self.chosen(p.number).keys().cloned().collect::<Vec<_>>(),
            })
        });
        serde_json::json!({"ap": f.ap, "sides": sides, "awaiting": awaiting})
    }

    /// When the force choice of the game now due is late: `due_since` plus the rules'
    /// `deadline_hours` (`None`: no deadline). A league's games are all due from its creation.
    pub fn force_deadline(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        let h = self.created.rules.forces.as_ref()?.deadline_hours;
        if h == 0 {
            return None;
        }
        let since = match self.created.rules.kind {
            Kind::League => &self.created.created_at,
            Kind::Chain | Kind::Strategic => &self.due_since,
        };
        chrono::DateTime::parse_from_rfc3339(since)
            .ok()?
            .with_timezone(&chrono::Utc)
            .checked_add_signed(chrono::Duration::hours(h.into()))
    }

    /// The force recorded for a side whose player let the deadline pass: its available units
    /// in id order, each taken while the total stays within the allowance.
    pub fn default_force(&self, side: &str) -> (Vec<ForceUnit>, u32) {
        let allowance = self.created.rules.forces.as_ref().map_or(0, |f| f.ap);
        let mut units = Vec::new();
        let mut ap = 0u32;
        for (id, card) in self.available(side) {
            let cost = self.unit_ap(&card);
            if ap.saturating_add(cost) <= allowance {
                ap += cost;
                units.push(ForceUnit { id, card });
            }
        }
        (units, ap)
    }

    /// Checks a force choice for `side`, given as (line, unit id) pairs: every unit in the
    /// roster, not lost for good, listed once, at least one, the total within the allowance.
    /// Returns the force and its AP.
    pub fn check_force(
        &self,
        side: &str,
        ids: &[(usize, String)],
    ) -> Result<(Vec<ForceUnit>, u32), Refusal> {
        let allowance = self.created.rules.forces.as_ref().map_or(0, |f| f.ap);
        let roster = self.roster(side);
        let lost = self.lost_for_good(side);
        let choose = || {
            let list: Vec<String> = self
                .available(side)
                .iter()
                .map(|(id, card)| format!("{id} ({} AP)", self.unit_ap(card)))
                .collect();
            format!(
                "one `field UNIT` line per unit, from the units you still have: {}; at most {allowance} AP in all",
                list.join(", ")
            )
        };
        let mut units: Vec<ForceUnit> = Vec::new();
        let mut ap = 0u32;
        for (line, id) in ids {
            let no = |reason: String| Refusal {
                line: *line,
                reason,
                instead: choose(),
            };
            let Some(card) = roster.get(id) else {
                return Err(no(format!(
                    "there is no unit `{id}` in the {side} roster of this campaign"
                )));
            };
            if let Some(game) = lost.get(id) {
                return Err(no(format!(
                    "unit `{id}` was destroyed in game {game}, and the campaign's [carry_over] keeps its losses"
                )));
            }
            if units.iter().any(|u| &u.id == id) {
                return Err(no(format!("unit `{id}` is listed twice")));
            }
            ap = ap.saturating_add(self.unit_ap(card));
            if ap > allowance {
                return Err(no(format!(
                    "with `{id}` the force costs {ap} AP, over the campaign's allowance of {allowance} AP"
                )));
            }
            units.push(ForceUnit {
                id: id.clone(),
                card: card.clone(),
            });
        }
        if units.is_empty() {
            return Err(Refusal {
                line: 0,
                reason: "the choice fields no unit".into(),
                instead: choose(),
            });
        }
        Ok((units, ap))
    }
}

/// The unit ids of a force choice's lines: `field UNIT` (a `#` starts a comment). Any other
/// line is refused, naming it.
pub fn parse_choice(lines: &[Line]) -> Result<Vec<(usize, String)>, Refusal> {
    let mut out = Vec::new();
    for l in lines {
        let text = l.text.split('#').next().unwrap_or_default().trim();
        if text.is_empty() {
            continue;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [kw, id] if kw.eq_ignore_ascii_case("field") => out.push((l.number, id.to_string())),
            _ => {
                return Err(Refusal {
                    line: l.number,
                    reason: format!(
                        "`{}` is not a line of a force choice",
                        text.chars().take(60).collect::<String>()
                    ),
                    instead: "one `field UNIT` line per unit you field, e.g. `field rangers`"
                        .into(),
                })
            }
        }
    }
    Ok(out)
}

/// `campaign audit`: every `force_chosen` line carries a block signed by the player of its side,
/// for its game and side, whose lines are the recorded force. Errors name the campaign ledger's
/// line.
pub fn audit_choices(
    file: &str,
    entries: &[(super::Entry, String)],
    edges: &crate::pbem::edges::Edges,
) -> Result<(), CampaignError> {
    // Each player's key as it stood at each line: `player_replaced` lines change it.
    let mut keys: BTreeMap<String, String> = match entries.first() {
        Some((
            super::Entry {
                event: super::Event::Created(cr),
                ..
            },
            _,
        )) => cr
            .players
            .iter()
            .map(|p| (p.name.clone(), p.public_key.clone()))
            .collect(),
        _ => BTreeMap::new(),
    };
    for (e, _) in entries {
        let f = match &e.event {
            super::Event::ForceChosen(f) if !f.default => f,
            super::Event::PlayerReplaced(r) => {
                keys.insert(r.player.clone(), r.public_key.clone());
                continue;
            }
            _ => continue,
        };
        let bad = |m: String| CampaignError::Verify(format!("{file} line {}: {m}", e.seq));
        let key = keys.get(&f.player).map(String::as_str).unwrap_or_default();
        (edges.verify)(key, &f.canonical, &f.signature).map_err(|err| {
            bad(format!(
                "the force choice is not signed by {}'s key ({err})",
                f.player
            ))
        })?;
        let body = (edges.parse_body)(&f.canonical)
            .map_err(|err| bad(format!("the signed force choice does not parse ({err})")))?;
        let ids = parse_choice(&body.lines).map_err(|r| bad(r.reason))?;
        let want: Vec<&str> = f.units.iter().map(|u| u.id.as_str()).collect();
        let got: Vec<&str> = ids.iter().map(|(_, id)| id.as_str()).collect();
        if body.game != f.game_id || body.side != f.side || got != want {
            return Err(bad(format!(
                "the signed text chooses {} for side {} of game {}, not the recorded force",
                got.join(", "),
                body.side,
                body.game
            )));
        }
    }
    Ok(())
}

/// `campaign audit`, for one game of a campaign with `[forces]`: its scenario is the plan's with
/// the recorded forces fielded, its cards cost what the campaign recorded, and the units
/// recorded as lost at its end are the ones its final state has destroyed. Errors name the
/// line: `file` is the campaign ledger, `gfile` the game's.
pub fn audit_game(
    (file, gfile): (&str, &str),
    c: &Campaign,
    rec: &super::state::GameRecord,
    game: &dyn crate::registry::AnyGame,
    created: &crate::ledger::Created,
    state: &crate::registry::AnyState,
) -> Result<(), CampaignError> {
    let at = |n: u64, m: String| CampaignError::Verify(format!("{file} line {n}: {m}"));
    let gat = |m: String| CampaignError::Verify(format!("{gfile} line 1: {m}"));
    let Some(f) = &c.created.rules.forces else {
        return Ok(());
    };
    let gid = &rec.opened.game_id;
    let req = crate::game::NewRequest {
        ruleset: c.created.rules.ruleset.clone(),
        scenario: Some(rec.opened.scenario.clone()),
        ..Default::default()
    };
    let want = game
        .plan_new(&req)
        .and_then(|p| game.field_forces(&p.setup, &rec.opened.forces, f.ap))
        .map_err(|e| {
            at(
                rec.line,
                format!("game {gid}: the recorded forces cannot be fielded ({e})"),
            )
        })?;
    if want.scenario != created.setup.scenario {
        return Err(gat(format!(
            "the scenario does not field the forces the campaign recorded for game {gid}"
        )));
    }
    for u in rec.opened.forces.values().flatten() {
        if game.force_card(&created.setup, &u.card) != c.created.force_cards.get(&u.card).copied() {
            return Err(gat(format!(
                "card {} does not cost what the campaign's `created` line records",
                u.card
            )));
        }
    }
    if let Some(end) = &rec.ended {
        let lost = game.lost_units(state);
        if lost != end.lost {
            return Err(at(
                rec.ended_line,
                format!(
                    "the units recorded as lost in game {gid} ({:?}) are not the ones its final state has destroyed ({lost:?})",
                    end.lost
                ),
            ));
        }
    }
    Ok(())
}
