//! Piloting vehicles: 004 "Pilot: Name" under ffg-revised (issue 12) and 003 "Piloting
//! Vehicles" with 002 under battlefront-2013 (issue 18). A pilot is a hero joined to a vehicle
//! (`UnitState::joined` naming a vehicle, `State::pilot_of`): he stands on its square, moves and
//! activates with it (004: "Both units activate at the same time"), cannot be targeted, fires none
//! of his own weapons, takes none of its damage, and his skills work for the vehicle (004: "confer
//! their skills to the vehicle"). When the vehicle is destroyed he is put on its square and rolls
//! to escape. Rulings R540–R544 and R260–R262 (docs/rulings.md). A pilot begins the game in his
//! vehicle (scenario `joins`), or boards it with the usual `move … board <vehicle>` and leaves it
//! with `move exit <square> …` before it activates (004, R544; `flow/carry.rs` runs both). A
//! pilot is never counted as carried (004 "Carry Capacity": "he does not count towards the
//! vehicle's carry capacity").

use super::*;
use crate::dust_tactics::orders::carry::Transport;

/// The sections a refusal cites, by ruleset.
fn rule(rules: Rules) -> &'static str {
    if rules.battlefront() {
        "003 \"Piloting Vehicles\""
    } else {
        "004 \"Pilot: Name\""
    }
}

/// Whether hero card `hc` may pilot vehicle card `vc` (R540): the hero's `pilot` names the
/// vehicle's card (or no card: any vehicle, 003 "Vehicle Pilot"), or he has Ace Pilot and no
/// `pilot` line (002: "A Hero with the Pilot or Ace Pilot Skill can pilot a Vehicle"); and a
/// vehicle whose own `pilot` names a hero takes only that hero (004: "can only be piloted by a
/// particular hero").
pub(crate) fn may_pilot(hc: &Card, vc: &Card, rules: Rules) -> Result<(), String> {
    let r = rule(rules);
    // 002 "Piloting Vehicles and Aircraft": "A Hero with the Pilot or Ace Pilot Skill ... can
    // pilot a Vehicle. A Hero with the Air Pilot or Ace Air Pilot Skill ... can pilot an
    // Aircraft" (R803, R804, R805).
    use crate::dust_tactics::battlefront::skills002::Skill002;
    let air_pilot = Skill002::AirPilot.of(hc) || Skill002::AceAirPilot.of(hc);
    if rules.battlefront() && matches!(vc.armour, model::Armour::Aircraft(_)) && !air_pilot {
        return Err(format!(
            "hero {} ({}) cannot pilot the aircraft {} (card {}): 002 \"Piloting Vehicles and Aircraft\": \"A Hero with the Air Pilot or Ace Air Pilot Skill can pilot an Aircraft\" (R803, R804); field the aircraft without a pilot, or with a hero whose card has `air-pilot` or `ace-air-pilot`",
            hc.id, hc.name, vc.name, vc.id
        ));
    }
    let named = |c: &Card| {
        c.skills
            .iter()
            .find(|s| s.name == Skill::Pilot.id())
            .map(|s| s.card.clone())
    };
    let aircraft = rules.battlefront() && matches!(vc.armour, model::Armour::Aircraft(_));
    let able = aircraft
        || match named(hc) {
            Some(None) => true,
            Some(Some(v)) => v.eq_ignore_ascii_case(&vc.id),
            None => hc.has(Skill::AcePilot),
        };
    if !able {
        return Err(format!(
            "hero {} ({}) cannot pilot a {} (card {}): only a hero whose card has Pilot: {} (skill `pilot` with card = \"{}\"), or Pilot or Ace Pilot naming no vehicle, pilots it ({r}: \"A hero with this skill is able to pilot the noted vehicle type\")",
            hc.id, hc.name, vc.name, vc.id, vc.name, vc.id
        ));
    }
    if let Some(Some(h)) = named(vc) {
        if !h.eq_ignore_ascii_case(&hc.id) {
            return Err(format!(
                "{} (card {}) can only be piloted by the hero of card {h}, not {} ({r}: \"A vehicle with this skill can only be piloted by a particular hero\"); field it without a pilot or with that hero",
                vc.name, vc.id, hc.id
            ));
        }
    }
    Ok(())
}

/// A scenario's `joins` of hero `h` with vehicle `v` (indices in `units`): the hero begins the
/// game piloting it (003: "The Hero can begin the game mounted in a Vehicle"; 004: heroes "can
/// begin the game inside a vehicle", "Carry Capacity").
pub(super) fn board_at_setup(
    units: &mut [UnitState],
    cards: &BTreeMap<String, Card>,
    h: usize,
    v: usize,
    rules: Rules,
) -> Result<(), SetupError> {
    let r = rule(rules);
    let (hero_id, vehicle_id) = (units[h].id.clone(), units[v].id.clone());
    if units[h].side != units[v].side {
        return Err(SetupError(format!(
            "hero {hero_id} cannot pilot {vehicle_id}: they are on different sides ({r})"
        )));
    }
    let (Some(hc), Some(vc)) = (cards.get(&units[h].card), cards.get(&units[v].card)) else {
        return Err(SetupError(format!(
            "`joins` links {hero_id} and {vehicle_id}, but a card is missing ({r})"
        )));
    };
    may_pilot(hc, vc, rules).map_err(SetupError)?;
    if let Some(other) = units
        .iter()
        .find(|u| u.joined.as_deref() == Some(vehicle_id.as_str()))
    {
        return Err(SetupError(format!(
            "{vehicle_id} is piloted by {} and {hero_id}: only one hero may pilot a vehicle at a time ({r})",
            other.id
        )));
    }
    if let Some(other) = &units[h].joined {
        return Err(SetupError(format!(
            "hero {hero_id} joins {other} and {vehicle_id}: a hero pilots one vehicle and joins nothing else ({r})"
        )));
    }
    units[h].joined = Some(vehicle_id);
    units[h].at = units[v].at;
    Ok(())
}

/// Whether member `m` of a group is a pilot: he moves and activates with his vehicle but fires
/// nothing and is not hit (003: "cannot be targeted by an attack", 002: "cannot use their own
/// weapons").
pub(super) fn is_pilot(state: &State, m: &str) -> bool {
    state.unit(m).is_some_and(|u| state.is_pilot(u))
}

/// The group of `leader` without its pilot: those who fire, count models and take damage. A
/// pilot activated alone to exit (R544) is his own leader and fights.
pub(super) fn fighting(state: &State, leader: &str) -> Vec<String> {
    group(state, leader)
        .into_iter()
        .filter(|m| m == leader || !is_pilot(state, m))
        .collect()
}

/// Whether the pilot of vehicle `id` confers `skill` to it (004 "Pilot: Name": "Heroes with this
/// skill can confer their skills to the vehicle while piloting"; 003: "The Hero's other skills
/// can be used while piloting the Vehicle"). Cheat Death is the hero's own and "cannot be used
/// while a hero is piloting a vehicle" (004), and the piloting skills are his (R541).
pub(super) fn confers(state: &State, id: &str, skill: Skill) -> bool {
    if matches!(skill, Skill::CheatDeath | Skill::Pilot | Skill::AcePilot) {
        return false;
    }
    state
        .pilot_of(id)
        .and_then(|h| card(state, h))
        .is_some_and(|c| c.has(skill))
}

/// The vehicle `id` is destroyed: its pilot is put on the square it stood on, counting as
/// activated this round (003: "They are then placed into any square the Vehicle occupied,
/// counting as having activated for this turn"), his escape die to roll ([`escape_rolls`]).
pub(super) fn eject(
    state: &mut State,
    pilot: &str,
    at: Option<Square>,
    by: &str,
    out: &mut Outcome,
) {
    let Some(h) = state.unit_mut(pilot) else {
        return;
    };
    let vehicle = h.joined.take().unwrap_or_default();
    h.at = at;
    h.activated = true;
    h.ejected = Some(by.to_string());
    say(
        out,
        format!(
            "{pilot} climbs out of the wreck of {vehicle}{} and counts as activated this round",
            at.map(|s| format!(" onto {s}")).unwrap_or_default()
        ),
    );
}

/// Each ejected pilot's escape die (R542, R261): under battlefront-2013 "On a roll of [army] or
/// [target], the Hero escapes unharmed. Otherwise the Hero takes a point of damage" (003, 002);
/// under ffg-revised a hero inside a destroyed vehicle "loses 1 [health] on a 4+ result" (004
/// "Carry Capacity", the "usual embarking and disembarking rules" 004 "Pilot: Name" points to).
pub(super) fn escape_rolls(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    let ids: Vec<(String, String)> = state
        .units
        .iter()
        .filter_map(|u| u.ejected.clone().map(|by| (u.id.clone(), by)))
        .collect();
    let battlefront = state.rules().battlefront();
    for (id, by) in ids {
        if let Some(h) = state.unit_mut(&id) {
            h.ejected = None;
        }
        let round = state.round;
        let face = dice.d6(round);
        let (hurt, text) = if battlefront {
            let s = super::super::battlefront::dice::Symbol::of_face(face);
            let hurt = s == super::super::battlefront::dice::Symbol::Shield;
            (
                hurt,
                format!(
                    "{id} escapes the wreck? {} rolled: {}",
                    s.name(),
                    if hurt {
                        "he takes a point of damage (003 \"Piloting Vehicles\")"
                    } else {
                        "he escapes unharmed (003 \"Piloting Vehicles\")"
                    }
                ),
            )
        } else {
            let hurt = face >= 4;
            (
                hurt,
                format!(
                    "{id} escapes the wreck? {face} rolled: {}",
                    if hurt {
                        "4+, he loses 1 health (004 \"Carry Capacity\")"
                    } else {
                        "below 4, he escapes unharmed (004 \"Carry Capacity\")"
                    }
                ),
            )
        };
        out.happenings.push(Happening {
            rolls: vec![Roll {
                purpose: format!("pilot escape for {id}"),
                round,
                faces: vec![face],
            }],
            ..Happening::text(text)
        });
        if !hurt {
            continue;
        }
        let dead = match state.unit_mut(&id) {
            Some(x) if !x.destroyed => {
                x.health = x.health.saturating_sub(1);
                x.health == 0
            }
            _ => false,
        };
        if dead {
            destroy(state, &id, &by, out);
        } else {
            say(out, format!("{id} loses 1 health"));
        }
    }
}

/// An attack aimed at a pilot, refused (003: "While in the Vehicle, the Hero cannot be targeted
/// by an attack"; 004: a hero inside a vehicle is no target, R541): the vehicle is the target.
pub(super) fn refuse_target(state: &State, t: &UnitState) -> Result<(), Refusal> {
    let Some(v) = t.joined.as_deref().filter(|_| state.is_pilot(t)) else {
        return Ok(());
    };
    Err(Refusal {
        reason: format!(
            "{} pilots {v} and cannot be targeted by an attack while in it",
            t.id
        ),
        rule: if state.rules().battlefront() {
            "003 \"Piloting Vehicles\": \"While in the Vehicle, the Hero cannot be targeted by an attack\"".into()
        } else {
            "004 \"Pilot: Name\" (the pilot is inside his vehicle, ruling R541)".into()
        },
        instead: format!("aim at {v}"),
    })
}

/// The Ace Pilot piloting vehicle `id`, if any (004 "Ace Pilot": "This ability can only be used
/// when the hero is piloting a vehicle"; 003 "Ace Pilot", R608 under battlefront-2013).
pub(super) fn ace_pilot(state: &State, id: &str) -> Option<String> {
    // battlefront-2013: 002's Infantry Ace rolls the same die on foot (R761).
    let Some(h) = state.pilot_of(id) else {
        return crate::dust_tactics::battlefront::skills002_d::infantry_ace(state, id);
    };
    // 002 "Ace Air Pilot" rolls the same die for the aircraft he pilots, never for a ground
    // vehicle (R805).
    let ace_air = crate::dust_tactics::battlefront::skills002::Skill002::AceAirPilot;
    let air = state.rules().battlefront() && super::aircraft::is_aircraft(state, id);
    card(state, h)
        .is_some_and(|c| c.has(Skill::AcePilot) || (air && ace_air.of(c)))
        .then(|| h.id.clone())
}

/// 004 "Ace Pilot": "Each turn while piloting a vehicle, roll 1 die when the piloted vehicle
/// activates. If the result is 4+, the vehicle gains an extra action for the round" (R543).
pub(super) fn ace_die(
    state: &mut State,
    act: &mut Activation,
    pilot: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let round = state.round;
    let face = dice.d6(round);
    if state.rules().battlefront() {
        let title = crate::dust_tactics::battlefront::skills002_d::ace_title(state, &act.unit);
        return super::super::battlefront::ace::ace_die(act, pilot, title, face, round, out);
    }
    act.flags.ace_extra = face >= 4;
    let ordered = act.steps.iter().any(|s| matches!(s, Step::AceExtra));
    let text = match (act.flags.ace_extra, ordered) {
        (true, true) => format!("Ace Pilot: {pilot} rolls {face}, 4+: {} gains an extra action", act.unit),
        (true, false) => format!(
            "Ace Pilot: {pilot} rolls {face}, 4+: {} gains an extra action (none was ordered)",
            act.unit
        ),
        (false, true) => format!(
            "Ace Pilot: {pilot} rolls {face}, below 4: no extra action, so the third one ordered is not made"
        ),
        (false, false) => format!("Ace Pilot: {pilot} rolls {face}, below 4: no extra action"),
    };
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("ace pilot for {}", act.unit),
            round,
            faces: vec![face],
        }],
        ..Happening::text(text)
    });
}

/// The extra action begins: made when the Ace Pilot's die gave it, else dropped with every step
/// after it (they are the extra action's own).
pub(super) fn ace_extra(act: &mut Activation, out: &mut Outcome) {
    if act.flags.ace_extra {
        say(
            out,
            format!("{} makes its extra action (Ace Pilot)", act.unit),
        );
    } else {
        act.steps.clear();
    }
}

/// An activation planned with the Ace Pilot's extra action: `kinds` and `steps` are the whole
/// plan; `extra_from` is where the steps of the last action begin. The action past a complete
/// activation (two actions, or one SUSTAINED ATTACK) is the extra one; it must be a single
/// action (R543). Gives back the extra action's steps, cut from `steps`, and pops its kind.
pub(super) fn split_extra(
    kinds: &mut Vec<activation::Kind>,
    steps: &mut Vec<Step>,
    extra_from: usize,
    rules: Rules,
) -> Result<Vec<Step>, Refusal> {
    use activation::Kind;
    let complete = |k: &[Kind]| {
        matches!(k, [Kind::Sustained]) || (k.len() == 2 && !k.contains(&Kind::Sustained))
    };
    let n = kinds.len();
    if n < 2 || !complete(&kinds[..n - 1]) {
        return Ok(vec![]);
    }
    if kinds[n - 1] == Kind::Sustained {
        return Err(Refusal {
            reason: "the extra action of an Ace Pilot is one action; a SUSTAINED ATTACK takes two"
                .into(),
            rule: if rules.battlefront() {
                "002 \"Ace Pilot\": \"the Vehicle gains a third Action for this Activation\" (R608)"
                    .into()
            } else {
                "004 \"Ace Pilot\": \"the vehicle gains an extra action for the round\"".into()
            },
            instead: "a third `move`, `attack` or `nothing` line".into(),
        });
    }
    kinds.pop();
    Ok(steps.split_off(extra_from.min(steps.len())))
}

/// Whether hero `h` boarding vehicle `v` pilots it (004 "Pilot: Name": "He may board or exit the
/// noted vehicle, obeying the usual embarking and disembarking rules", R544): `v` is a vehicle
/// without a pilot that his card lets him pilot. He then pilots it rather than ride in it, and
/// takes no place of its Carry Capacity. battlefront-2013 mounts otherwise (003 "Piloting Vehicles":
/// a move into the vehicle's square, R607, `battlefront::mounting`).
pub(super) fn boards_as_pilot(state: &State, h: &UnitState, v: &UnitState) -> bool {
    let rules = state.rules();
    let (Some(hc), Some(vc)) = (card(state, h), card(state, v)) else {
        return false;
    };
    // Rules revision 7: a game made before refused these boardings, and replays them refused.
    state.revised(7)
        && !rules.battlefront()
        && hc.unit_type == UnitType::Hero
        && vc.unit_type == UnitType::Vehicle
        && state.pilot_of(&v.id).is_none()
        && may_pilot(hc, vc, rules).is_ok()
}

/// A pilot activated by himself (R544): 004 "Pilot: Name": "Both units activate at the same
/// time, unless the hero intends to disembark the vehicle, in which case he must do so before
/// the vehicle activates during the turn." So his activation begins with `move exit`, before
/// his vehicle has activated this round; anything else is refused, naming the vehicle. Not
/// under battlefront-2013, whose pilot dismounts with a move out of the square (003 "Piloting
/// Vehicles", R607, `battlefront::mounting`).
pub(super) fn activates_alone(
    state: &State,
    u: &UnitState,
    actions: &[Action],
) -> Result<(), Refusal> {
    let v = u.joined.clone().unwrap_or_default();
    let exits = matches!(
        actions.first(),
        Some(Action::Transport(Transport::Exit { .. }))
    );
    let refusal = |reason: String, quote: &str, instead: String| Refusal {
        reason,
        rule: format!("004 \"Pilot: Name\" (ruling R544): \"{quote}\""),
        instead,
    };
    if !exits {
        return Err(refusal(
            format!(
                "{} is joined to {v} and activates with it, unless he exits it first",
                u.id
            ),
            "Both units activate at the same time, unless the hero intends to disembark the vehicle",
            format!(
                "activate {v}, or activate {} with `move exit <square next to {v}>` first",
                u.id
            ),
        ));
    }
    if state.unit(&v).is_some_and(|x| x.activated) {
        return Err(refusal(
            format!("{v} has already activated this round, and {} with it", u.id),
            "he must do so before the vehicle activates during the turn",
            format!("exit {v} in a later round, before {v} activates"),
        ));
    }
    Ok(())
}
