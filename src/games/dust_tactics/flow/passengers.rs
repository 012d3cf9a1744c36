//! 002 "Carrying Passengers" under battlefront-2013 (issue 18, R732–R739): infantry carried in a
//! vehicle with Passengers (#) (the card's `carry-capacity`) or riding one with Tank Riders (#).
//! 004's machinery is reused (`carry.rs`: the count of spaces, `aboard`, the boarding and exit
//! steps, the wreck); what 002 words differently is here: a unit mounts by moving into the
//! vehicle's square (003's way, R607), activates separately from it, dismounts only by
//! activating before it with a Move, fires from it as a side-mounted weapon (half the vehicle's
//! capacity from each side; no Sustained Attack, support, flame or close-combat weapons), and
//! when the vehicle is eliminated rolls one die a miniature, losing one for each army symbol,
//! then is Suppressed and counts as activated.

use super::*;
use crate::dust_tactics::battlefront::facing::{self, Facing};
use crate::dust_tactics::battlefront::skills002::Skill002;
use crate::dust_tactics::battlefront::{dice::Symbol, suppression};
use crate::dust_tactics::orders::carry::Transport;

/// The section refusals cite.
pub(super) const RULE: &str = "002 \"Carrying Passengers\"";

/// Whether 002's passenger rules are played: battlefront-2013. No gate: a battlefront card
/// carrying passengers was refused at `new` before (R281).
pub(super) fn played(state: &State) -> bool {
    state.rules().battlefront()
}

/// The living vehicle that unit `id` rides (inside or as a Tank Rider), and its square (`None`
/// while the vehicle has not entered the board).
fn carrier_of(state: &State, id: &str) -> Option<(String, Option<Square>)> {
    if !played(state) {
        return None;
    }
    let v = state.unit(state.unit(id)?.aboard.as_deref()?)?;
    (!v.destroyed).then_some(())?;
    Some((v.id.clone(), v.at))
}

/// The square a battlefront passenger fires from: its vehicle's (R734). Tank Riders riders have
/// theirs from [`super::riders::riding_square`] (they are targets there too, R740).
pub(super) fn square(state: &State, id: &str) -> Option<Square> {
    let lead = leader_of(state, id)?;
    carrier_of(state, &lead).and_then(|(_, at)| at)
}

/// Whether vehicle `v` carries by Tank Riders (riders may use close-combat weapons, R741).
fn tank_riders(state: &State, v: &str) -> bool {
    state
        .unit(v)
        .and_then(|x| card(state, x))
        .and_then(super::carry::carrier)
        .is_some_and(|(k, _)| k == Skill::TankRiders)
}

/// The friendly vehicle carrying passengers whose square `squares` ends on, when `u` (an
/// infantry unit that is not its pilot) mounts it by that move (003 "To mount a Vehicle, a unit
/// must move into the Vehicle's square"; 002 "In *Dust Tactics*, this requires the Unit to move
/// into the Vehicle's square", R732).
fn mount_target(state: &State, u: &UnitState, squares: &[Square]) -> Option<(String, Square)> {
    let last = *squares.last()?;
    let soldier = card(state, u).is_some_and(|c| c.unit_type.is_soldier());
    if !played(state) {
        return None;
    }
    // 002 "To mount a Sealifter, a Unit must move into the Sealifter": vehicles too (R777).
    let v = state.units.iter().find(|v| {
        !v.destroyed && v.side == u.side && v.id != u.id && v.at == Some(last) && {
            super::carry::capacity(state, &v.id).is_some()
                && (soldier || super::sealifter::is_sealifter(state, &v.id))
        }
    })?;
    // A hero able to pilot it mounts it as its pilot instead (003 "Piloting Vehicles", R607).
    let pilots = card(state, u).zip(card(state, v)).is_some_and(|(hc, vc)| {
        hc.unit_type == UnitType::Hero
            && state.pilot_of(&v.id).is_none()
            && may_pilot(hc, vc, state.rules()).is_ok()
    });
    (!pilots).then(|| (v.id.clone(), last))
}

fn refusal(reason: String, quote: &str, instead: String) -> Refusal {
    Refusal {
        reason,
        rule: format!("{RULE}: \"{quote}\""),
        instead,
    }
}

const DISMOUNT: &str = "Passengers can dismount from a Vehicle by Activating before the Vehicle Activates and performing a Move or March Move Action to move away from the Vehicle. Other than this, they cannot perform Move or March Move Actions while being carried as Passengers";

/// Whether action `a` moves the unit (a Move, a boarding, an exit, a turn, a climb, a travel).
fn moves(a: &Action) -> bool {
    matches!(
        a,
        Action::Move { .. }
            | Action::MoveSparing { .. }
            | Action::MoveFacing { .. }
            | Action::Turn { .. }
            | Action::Climb(_)
            | Action::Travel
            | Action::Transport(_)
    )
}

/// 002 "Zombie" (R737).
const ZOMBIE: &str =
    "A Zombie Unit can never mount a Vehicle or Aircraft as Passengers or Tank Riders";

/// Whether `u` (or a hero joined to it) is a Zombie unit (002 "Zombie", "Mindless Zombie").
fn zombie(state: &State, u: &UnitState) -> bool {
    group(state, &u.id)
        .iter()
        .filter_map(|m| state.unit(m).and_then(|x| card(state, x)))
        .any(|c| Skill002::Zombie.of(c))
}

/// A battlefront scenario that begins a Zombie unit aboard is refused (002 "Zombie", R737).
pub(super) fn check_setup(
    units: &[UnitState],
    cards: &BTreeMap<String, Card>,
) -> Result<(), SetupError> {
    let zombie = units
        .iter()
        .find(|u| u.aboard.is_some() && cards.get(&u.card).is_some_and(|c| Skill002::Zombie.of(c)));
    match zombie {
        Some(z) => Err(SetupError(format!(
            "unit {} begins aboard {}, but 002 \"Zombie\": \"{ZOMBIE}\"; place it on the board",
            z.id,
            z.aboard.as_deref().unwrap_or_default()
        ))),
        None => Ok(()),
    }
}

impl Planner<'_> {
    /// The vehicle the unit rides after the actions planned so far: the one it mounted in this
    /// activation, else the one it began in unless it dismounted.
    fn carried_now(&self) -> Option<String> {
        for s in self.steps.iter().rev() {
            match s {
                Step::Board { vehicle, .. } => return Some(vehicle.clone()),
                Step::Exit { .. } => return None,
                _ => {}
            }
        }
        carrier_of(self.state, &self.u.id).map(|(v, _)| v)
    }

    /// 002 "Activating While Mounted" (R733): the shape of a battlefront activation that
    /// mounts, rides or dismounts. A passenger "Activate[s] separately from the Vehicle"; it
    /// dismounts with a Move (or `move exit`) as its first action, before its vehicle has
    /// activated this turn; otherwise it makes no Move while carried, nor after mounting. It
    /// acts from the vehicle's square.
    pub(super) fn passenger_sequence(&mut self, actions: &[Action]) -> Result<(), Refusal> {
        if self.airlifted_sequence(actions)? {
            return Ok(()); // a vehicle carried by an Airlifter (R746)
        }
        let (state, u) = (self.state, self.u);
        let inside = carrier_of(state, &u.id);
        let first_dismounts = inside.is_some()
            && matches!(
                actions.first(),
                Some(Action::Move { .. } | Action::Transport(Transport::Exit { .. }))
            );
        if let (true, Some((v, _))) = (first_dismounts, &inside) {
            if state.unit(v).is_some_and(|x| x.activated) {
                return Err(refusal(
                    format!(
                        "{v} has already activated this turn: {} can no longer dismount from it",
                        u.id
                    ),
                    DISMOUNT,
                    "stay mounted: attack from the vehicle, or `nothing` + `nothing`".into(),
                ));
            }
        }
        let mut carried = inside.is_some();
        for (i, a) in actions.iter().enumerate() {
            let dismount = i == 0 && first_dismounts;
            let mounts = match a {
                Action::Transport(Transport::Board { .. }) => true,
                Action::Move { squares } => mount_target(state, u, squares).is_some(),
                _ => false,
            };
            if carried && moves(a) && !dismount {
                let v = inside.as_ref().map(|(v, _)| v.clone()).unwrap_or_default();
                return Err(refusal(
                    format!("line {} moves {}, which is carried in {}: a passenger moves only to dismount, with its first action", i + 1, u.id, if v.is_empty() { "the vehicle it mounted".to_string() } else { v }),
                    DISMOUNT,
                    "a `move <square next to the vehicle> …` as the first line (before the vehicle activates), or attack / `nothing`".into(),
                ));
            }
            if mounts && zombie(state, u) {
                return Err(Refusal {
                    reason: format!("{} is a Zombie unit: it never mounts a vehicle", u.id),
                    rule: format!("002 \"Zombie\": \"{ZOMBIE}\""),
                    instead: "move to another square".into(),
                });
            }
            if dismount {
                carried = false;
            } else if mounts {
                carried = true;
            }
            if matches!(a, Action::Transport(Transport::Exit { .. })) && !dismount {
                return refuse(
                    format!("{} is not inside a vehicle", u.id),
                    RuleId::CarryCapacity,
                    "move <square> …",
                );
            }
        }
        if let (Some((_, at)), false) = (&inside, first_dismounts) {
            // Off the board with its vehicle it can do nothing but `nothing` (R733).
            self.pos = *at;
        }
        Ok(())
    }

    /// `move …` under battlefront-2013: ending on a friendly passenger vehicle's square mounts
    /// it (R732), a passenger's first move is its dismount (R733); any other move as before.
    pub(super) fn move_or_mount(&mut self, squares: &[Square]) -> Result<(), Refusal> {
        if played(self.state) && self.carried_now().is_some() {
            return self.exit(squares);
        }
        let Some((v, at)) = mount_target(self.state, self.u, squares) else {
            return self.movement(squares);
        };
        self.board(&squares[..squares.len() - 1], &v)?;
        if let Some(t) = self.texts.last_mut() {
            *t = format!("{t} (moving into its square)");
        }
        // It fires from the vehicle's square afterwards (002's Tiger Claws example).
        self.pos = Some(at);
        Ok(())
    }

    /// 002 "Passengers' weapons have the Field of Fire of a Side-mounted weapon ... Passengers
    /// cannot perform Sustained Attack Actions, nor use Support Weapons, Flame Weapons, or
    /// Close-Combat Weapons while mounted" (R734, R735); Tank Riders may use close-combat
    /// weapons (R741). All the lines of one attack fire from one side (R735).
    pub(super) fn check_passenger_fire(
        &self,
        sustained: bool,
        lines: &[LineOrder],
    ) -> Result<(), Refusal> {
        let state = self.state;
        let Some(v) = self.carried_now().filter(|_| played(state)) else {
            return Ok(());
        };
        super::sealifter::check_fire(&self.u.id, state, &v)?; // 002 "Sealifter" (R778)
        let quote = "Passengers cannot perform Sustained Attack Actions, nor use Support Weapons, Flame Weapons, or Close-Combat Weapons while mounted";
        if sustained {
            return Err(refusal(
                format!(
                    "{} is carried in {v}: passengers make no Sustained Attack",
                    self.u.id
                ),
                quote,
                "`attack …` instead".into(),
            ));
        }
        let riders = tank_riders(state, &v);
        for l in lines {
            let Some((_, w)) = find_weapon(state, &l.shooter, &l.weapon) else {
                continue;
            };
            let flame = w.traits.contains(&WeaponTrait::Flamethrower);
            let close = w.range == WeaponRange::Close && !riders;
            if flame || close {
                let what = if flame {
                    "a flame weapon"
                } else {
                    "a close-combat weapon"
                };
                return Err(refusal(
                    format!("{} is {what}: {} is carried in {v}", w.name, self.u.id),
                    quote,
                    "fire another weapon line, or dismount first".into(),
                ));
            }
        }
        let (Some(vu), Some(vat)) = (state.unit(&v), self.pos) else {
            return Ok(());
        };
        let Some(f) = facing::of_unit(state, vu) else {
            return Ok(());
        };
        let mut both = (true, true);
        for l in lines {
            let to = match &l.target {
                Target::Unit { unit } | Target::Model { unit, .. } => target_square(state, unit),
                Target::Square { at } => Some(*at),
            };
            let Some(to) = to else { continue };
            let (left, right) = sides(f, vat, to);
            both = (both.0 && left, both.1 && right);
        }
        if both == (false, false) {
            return Err(refusal(
                format!("the lines of this attack aim at both sides of {v} (facing {f}): passengers fire from one side at a time"),
                "Passengers' weapons have the Field of Fire of a Side-mounted weapon, with up to half of the maximum number of Passengers firing from each side",
                "attack the targets on one side now, the others in another attack".into(),
            ));
        }
        Ok(())
    }
}

/// Whether line `w` of `shooter` may fire in a reaction: not a flame weapon from a vehicle,
/// nor a close-combat weapon from inside one (Tank Riders may, R741; R734).
pub(super) fn may_fire(state: &State, shooter: &str, w: &WeaponLine) -> bool {
    if !super::airlifter::may_fire(state, shooter) {
        return false; // a vehicle carried by an Airlifter attacks nobody (R746)
    }
    let Some((v, _)) = leader_of(state, shooter).and_then(|l| carrier_of(state, &l)) else {
        return true;
    };
    if super::sealifter::is_sealifter(state, &v) {
        return false; // 002 "Sealifter": "cannot use its weapons" (R778)
    }
    let close = w.range == WeaponRange::Close && !tank_riders(state, &v);
    !(close || w.traits.contains(&WeaponTrait::Flamethrower))
}

/// Whether `w` is a Blast weapon under battlefront-2013 (003 "Blast Weapons": `X/+` or `X/(+)`
/// cells, R276): 002 attacks a Tank Riders vehicle and its riders with it separately (R740).
pub(super) fn blast(state: &State, w: &WeaponLine) -> bool {
    let cells = w.soldier.iter().chain(&w.vehicle).chain(&w.aircraft);
    played(state)
        && cells
            .into_iter()
            .any(|f| matches!(f, Fire::Incendiary { .. } | Fire::ApIncendiary { .. }))
}

/// Whether square `to` is (any point of it) left, and right, of the line through the centre of
/// `from` along `facing` (R735): a target straddling that line is on both sides.
fn sides(facing: Facing, from: Square, to: Square) -> (bool, bool) {
    let (fx, fy): (i32, i32) = match facing {
        Facing::N => (0, -1),
        Facing::NE => (1, -1),
        Facing::E => (1, 0),
        Facing::SE => (1, 1),
        Facing::S => (0, 1),
        Facing::SW => (-1, 1),
        Facing::W => (-1, 0),
        Facing::NW => (-1, -1),
    };
    let o = (2 * from.col() as i32 + 1, 2 * from.row() as i32 + 1);
    let (mut left, mut right) = (false, false);
    for (cx, cy) in [(0, 0), (2, 0), (0, 2), (2, 2)] {
        let (dx, dy) = (
            2 * to.col() as i32 + cx - o.0,
            2 * to.row() as i32 + cy - o.1,
        );
        // Rows grow southwards: a positive cross product is to the right of the facing.
        let cross = fx * dy - fy * dx;
        left |= cross < 0;
        right |= cross > 0;
    }
    (left, right)
}

/// "with up to half of the maximum number of Passengers firing from each side" (R735): of a
/// passenger unit, the first half of the vehicle's capacity (rounded up) of its miniatures fire,
/// the squad's in card order, then its joined hero. `n` is what line `w` of `shooter` fires
/// otherwise; the number of those miniatures carrying it is returned.
pub(super) fn firing(state: &State, shooter: &UnitState, w: &WeaponLine, n: u32) -> u32 {
    let Some(lead) = leader_of(state, &shooter.id) else {
        return n;
    };
    let Some((v, _)) = carrier_of(state, &lead) else {
        return n;
    };
    let Some(cap) = super::carry::capacity(state, &v) else {
        return n;
    };
    let half = cap.div_ceil(2) as usize;
    let squad = state
        .unit(&lead)
        .map(|x| model_count(state, x))
        .unwrap_or(0) as usize;
    if shooter.id != lead {
        // A joined hero fires after the squad's miniatures.
        let k = state
            .joined_of(&lead)
            .iter()
            .position(|h| h.id == shooter.id)
            .unwrap_or(0);
        return if squad + k < half { n } else { 0 };
    }
    let Some(c) = card(state, shooter) else {
        return n;
    };
    if c.unit_type != UnitType::Squad {
        return if half > 0 { n } else { 0 };
    }
    let fire: Vec<&String> = shooter.models.iter().take(half).collect();
    let listed = c
        .models
        .iter()
        .any(|m| m.carries.iter().any(|x| x == &w.id));
    if listed {
        let carries = |m: &String| {
            c.models
                .iter()
                .any(|x| &x.id == m && x.carries.iter().any(|y| y == &w.id))
        };
        n.min(fire.iter().filter(|m| carries(m)).count() as u32)
    } else {
        n.min(fire.len() as u32)
    }
}

/// 002 "Damage to Passengers" (R736): "If a Vehicle is eliminated while carrying Passengers,
/// the Vehicle's owner rolls one die for each miniature mounted in it. One miniature chosen by
/// the player is eliminated or one Hero suffers a point of Damage for each [army] result. The
/// Unit gains a Suppressed token and counts as having Activated for this turn. If the Vehicle
/// is carrying multiple Units, roll separately for each Unit." The survivors are placed on the
/// vehicle's square or the nearest they may stand on ("or an adjacent square if those squares
/// are all occupied").
pub(super) fn survive(
    state: &mut State,
    rider: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    // 002 "Sealifter": sunk in deep water, or the bow door on dry land (R779).
    if super::sealifter::survive(state, rider, out) {
        return;
    }
    if super::airlifter::survive(state, rider, dice, out) {
        return; // 002 "Damage to Carried Vehicles" (R747)
    }
    let Some(u) = state.unit(rider).cloned() else {
        return;
    };
    let vehicle = u.aboard.clone().unwrap_or_default();
    let by = super::carry::destroyed_by(state, &vehicle);
    let round = state.round;
    let members = group(state, rider);
    let miniatures: u32 = members
        .iter()
        .filter_map(|m| state.unit(m))
        .map(|m| model_count(state, m))
        .sum();
    let faces: Vec<u8> = (0..miniatures).map(|_| dice.d6(round)).collect();
    let hits = faces
        .iter()
        .filter(|f| Symbol::of_face(**f) == Symbol::Army)
        .count() as u32;
    // The owner's choice, by mail the default order of casualties (R58, R736).
    let lost = default_casualties(state, rider, hits);
    let shown: Vec<String> = faces
        .iter()
        .map(|f| format!("{f} {}", Symbol::of_face(*f).name()))
        .collect();
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("{rider} in the wreck of {vehicle}"),
            round,
            faces: faces.clone(),
        }],
        ..Happening::text(format!(
            "{vehicle} is eliminated with {rider} mounted: {miniatures} dice ({}); {hits} army symbol(s), {} ({RULE}, \"Damage to Passengers\")",
            shown.join(", "),
            if lost.is_empty() {
                "nobody is hurt".to_string()
            } else {
                format!("{} lost", lost.join(", "))
            }
        ))
    });
    apply_named(state, rider, &lost, &by, out);
    let alive: Vec<String> = members
        .into_iter()
        .filter(|m| state.unit(m).is_some_and(|x| !x.destroyed))
        .collect();
    let Some(first) = alive.first().cloned() else {
        return;
    };
    let Some(at) =
        u.at.and_then(|wreck| super::carry::free_square(state, &first, wreck))
    else {
        for m in alive {
            destroy(state, &m, &by, out);
        }
        return;
    };
    for m in &alive {
        if let Some(x) = state.unit_mut(m) {
            x.aboard = None;
            x.at = Some(at);
            x.activated = true;
        }
    }
    let text = format!(
        "{first} is placed on {at} from the wreck of {vehicle} and counts as having activated this turn"
    );
    tell(
        out,
        text,
        DtEvent::Entered {
            unit: first.clone(),
            to: at,
        },
        vec![],
    );
    suppression::suppress(
        state,
        &first,
        &format!("as the passengers of {vehicle} (002 \"Damage to Passengers\")"),
        out,
    );
}
