//! 004 "Attacking" step 6: casualties, chosen by the owner or by default (R58).

use super::*;

/// The models a squad loses by default: plain models first, last listed first; special-weapon
/// carriers last; a joined hero's health after all squad models (R58).
pub fn default_casualties(state: &State, unit: &str, points: u32) -> Vec<String> {
    let Some(u) = state.unit(unit) else {
        return vec![];
    };
    let mut order: Vec<String> = vec![];
    if let Some(c) = card(state, u) {
        // Revision 2 (R154): a special weapon is a line fewer of the card's models carry than
        // its most carried line (the HMG of one model beside the rifles of four); before, any
        // line with a carrier count was special, so on every core-box squad all models were
        // "carriers" and the default took the last listed model, often the HMG carrier, first.
        let carried_by = |w: &str| {
            c.models
                .iter()
                .filter(|m| m.carries.iter().any(|x| x == w))
                .count()
        };
        let most = c
            .weapons
            .iter()
            .map(|w| carried_by(&w.id))
            .max()
            .unwrap_or(0);
        let special_line = |w: &str| {
            if state.revised(2) {
                carried_by(w) < most
            } else {
                c.weapon(w).map(|w| w.carriers.is_some()).unwrap_or(false)
            }
        };
        let special = |m: &str| {
            c.models
                .iter()
                .find(|x| x.id == m)
                .map(|x| x.carries.iter().any(|w| special_line(w)))
                .unwrap_or(false)
        };
        let plain: Vec<String> = u
            .models
            .iter()
            .rev()
            .filter(|m| !special(m))
            .cloned()
            .collect();
        let spec: Vec<String> = u
            .models
            .iter()
            .rev()
            .filter(|m| special(m))
            .cloned()
            .collect();
        order.extend(plain);
        order.extend(spec);
        if c.unit_type != UnitType::Squad {
            for _ in 0..u.health {
                order.push(u.id.clone());
            }
        }
    }
    // Its hero and its Commissar last (R259, R478).
    for h in state.joined_of(unit) {
        for _ in 0..h.health {
            order.push(h.id.clone());
        }
    }
    order.truncate(points as usize);
    order
}

/// Whether the owner's choice of casualties could change anything (R58).
pub(super) fn choice_matters(state: &State, unit: &str, points: u32) -> bool {
    let Some(u) = state.unit(unit) else {
        return false;
    };
    let Some(c) = card(state, u) else {
        return false;
    };
    // The hero and the Commissar joined to it (R478).
    let joined = state.joined_of(unit);
    // 004 "Superhumans": a superhuman's special squad of heroes chooses who loses health too.
    let own = if c.unit_type == UnitType::Squad {
        u.models.len() as u32
    } else {
        u.health as u32
    };
    let total = own + joined.iter().map(|h| h.health as u32).sum::<u32>();
    if points == 0 || points >= total {
        return false;
    }
    if c.unit_type != UnitType::Squad {
        return !joined.is_empty();
    }
    if !joined.is_empty() && (!u.models.is_empty() || joined.len() > 1) {
        return true;
    }
    let kit = |m: &String| {
        let mut k = c
            .models
            .iter()
            .find(|x| &x.id == m)
            .map(|x| x.carries.clone())
            .unwrap_or_default();
        k.sort();
        k
    };
    let first = u.models.first().map(kit);
    u.models.iter().any(|m| Some(kit(m)) != first)
}

pub(super) fn remove_casualties(
    state: &mut State,
    act: &mut Activation,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    while let Some((unit, mut p)) = act
        .damage
        .iter()
        .next()
        .map(|(k, v)| (k.clone(), v.clone()))
    {
        // Sniper hits land on the named models; a whole-unit elimination needs no choice.
        let side = state
            .unit(&unit)
            .map(|u| u.side.clone())
            .unwrap_or_default();
        let ask = asks_casualties(state, &side, &unit);
        if ask && p.points > 0 && !p.eliminate && choice_matters(state, &unit, p.points) {
            // Snipes first so the owner chooses among the models that are left.
            apply_named(state, &unit, &p.sniped, &p.by, out);
            p.sniped.clear();
            if let Some(e) = act.damage.get_mut(&unit) {
                e.sniped.clear();
            }
            if choice_matters(state, &unit, p.points) {
                act.steps.insert(0, Step::Remove);
                say(
                    out,
                    format!(
                        "{side} chooses which models of {unit} take {} damage",
                        p.points
                    ),
                );
                act.wait = Some(Wait::Casualties {
                    side,
                    unit,
                    points: p.points,
                });
                return;
            }
        }
        act.damage.remove(&unit);
        if p.eliminate {
            // A pilot is not eliminated with his vehicle: he climbs out (`piloting::eject`).
            for m in super::piloting::fighting(state, &unit) {
                destroy(state, &m, &p.by, out);
            }
            continue;
        }
        apply_named(state, &unit, &p.sniped, &p.by, out);
        let pref = casualty_pref(state, &side, &unit);
        let list = preferred_casualties(state, &unit, p.points, &pref);
        assign(state, &unit, &list, &p, dice, out);
    }
}

/// Removes the named casualties of `unit`'s pending damage `p`: hit by hit when its hits were
/// recorded (battlefront-2013, R574), else one point a name.
fn assign(
    state: &mut State,
    unit: &str,
    names: &[String],
    p: &Pending,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    if p.joined_hits.is_empty() {
        return apply_named(state, unit, names, &p.by, out);
    }
    let mut named =
        |s: &mut State, n: &[String], o: &mut Outcome| apply_named(s, unit, n, &p.by, o);
    super::super::battlefront::joined_hits::assign(state, unit, names, p, dice, out, &mut named);
}

/// Removes the named models (a hero or vehicle id marks one health point each).
pub(super) fn apply_named(
    state: &mut State,
    unit: &str,
    names: &[String],
    by: &str,
    out: &mut Outcome,
) {
    // The joined are looked up once: points named for them still land after the squad is wiped
    // out (a hero and a Commissar, R478).
    let joined: Vec<String> = state.joined_of(unit).iter().map(|h| h.id.clone()).collect();
    for n in names {
        let hero = joined.iter().find(|h| h.eq_ignore_ascii_case(n)).cloned();
        let is_hero = hero.is_some();
        let Some(u) = state.unit(unit).cloned() else {
            return;
        };
        let health_id = if is_hero {
            hero.clone()
        } else if u.models.is_empty() && u.id.eq_ignore_ascii_case(n) {
            Some(u.id.clone())
        } else {
            None
        };
        match health_id {
            Some(id) => {
                let dead = match state.unit_mut(&id) {
                    Some(x) if !x.destroyed => {
                        x.health = x.health.saturating_sub(1);
                        x.health == 0
                    }
                    _ => continue,
                };
                if dead {
                    destroy(state, &id, by, out);
                } else {
                    say(out, format!("{id} loses 1 health"));
                }
            }
            None => {
                let Some(x) = state.unit_mut(unit).filter(|x| !x.destroyed) else {
                    continue;
                };
                if let Some(i) = x.models.iter().position(|m| m.eq_ignore_ascii_case(n)) {
                    let m = x.models.remove(i);
                    x.health = x.models.len() as u8;
                    let empty = x.models.is_empty();
                    say(out, format!("{unit} loses model {m}"));
                    if empty {
                        destroy(state, unit, by, out);
                    }
                }
            }
        }
    }
}

pub(super) fn destroy(state: &mut State, id: &str, by: &str, out: &mut Outcome) {
    let round = state.round;
    let Some(u) = state.unit(id).cloned() else {
        return;
    };
    if u.destroyed {
        return;
    }
    let ap = card(state, &u).map(|c| c.ap).unwrap_or(0);
    let at = target_square(state, id);
    super::tesla::arm(state, &u, at);
    super::super::battlefront::grapple::destroyed(state, id, out);
    super::carry::mark_wreck(state, &u.id, at);
    let pilot = state.pilot_of(id).map(|h| h.id.clone());
    if let Some(x) = state.unit_mut(id) {
        x.destroyed = true;
        x.at = None;
        x.models.clear();
        x.health = 0;
        x.joined = None;
        x.aboard = None;
    }
    if let Some(p) = pilot {
        super::piloting::eject(state, &p, at, by, out);
    }
    // A hero whose squad is wiped out fights on alone (004 "Heroes").
    for h in state.units.iter_mut() {
        if h.joined.as_deref() == Some(&u.id) {
            h.joined = None;
        }
    }
    state.destroyed.push(Destruction {
        unit: u.id.clone(),
        side: u.side.clone(),
        by: by.to_string(),
        ap,
        round,
    });
    // 004 "Recovery Vehicle": a marker where a friendly ground vehicle is destroyed (R484).
    super::mines::mark_wreck(state, &u.id, at, out);
    // issue 18 hook: 003 §12 reserves, placed when the Action is over (battlefront/reserves.rs).
    super::super::battlefront::reserves::queue(state, &u.id);
    let text = format!("{} is destroyed ({ap} AP)", u.id);
    match at {
        Some(at) => tell(
            out,
            text,
            DtEvent::Destroyed {
                unit: u.id.clone(),
                at,
            },
            vec![],
        ),
        None => say(out, text),
    }
    // issue 18 hook: 002 "An eliminated Naval Unit becomes Deep Water terrain" (R757).
    super::super::battlefront::naval::sink(state, &u.id, at, out);
}

pub(super) fn cmd_casualties(
    state: &mut State,
    side: &str,
    unit: &str,
    models: &[String],
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let rule = RuleId::Casualties.with("the owner removes casualties");
    let Phase::Activation(act) = &state.phase else {
        return refuse(
            "no casualties are awaited",
            rule,
            "see the awaited decisions in the last report",
        );
    };
    let Some(Wait::Casualties {
        side: ws,
        unit: wu,
        points,
    }) = &act.wait
    else {
        return refuse(
            "no casualties are awaited",
            rule,
            "see the awaited decisions in the last report",
        );
    };
    if ws != side {
        return refuse(
            format!("{ws} chooses these casualties, not {side}"),
            rule,
            "wait for the next report",
        );
    }
    if !wu.eq_ignore_ascii_case(unit) {
        return refuse(
            format!("casualties are awaited for {wu}, not {unit}"),
            rule,
            format!("casualties {wu}: …"),
        );
    }
    let (wu, points) = (wu.clone(), *points);
    let options = default_casualties(state, &wu, u32::MAX);
    if models.len() as u32 != points {
        return refuse(
            format!("{wu} takes {points} damage: name exactly {points} model(s) (a hero's id once per health point)"),
            rule,
            format!("casualties {wu}: {}", default_casualties(state, &wu, points).join(" ")),
        );
    }
    // Each name must be available as many times as it is named.
    let mut pool = options.clone();
    for m in models {
        match pool.iter().position(|x| x.eq_ignore_ascii_case(m)) {
            Some(i) => {
                pool.remove(i);
            }
            None => {
                return refuse(
                    format!("`{m}` is not a model of {wu} that can still be removed"),
                    rule,
                    format!(
                        "casualties {wu}: {}",
                        default_casualties(state, &wu, points).join(" ")
                    ),
                )
            }
        }
    }
    let mut act = match take_activation(state) {
        Some(a) => a,
        None => return refuse("no casualties are awaited", rule, "wait"),
    };
    answer_casualties(state, &mut act, &wu, models, dice, out);
    state.phase = Phase::Activation(act);
    Ok(format!("casualties {wu}: {}", models.join(" ")))
}

/// Removes the chosen models; the pending Remove step then resumes with the other units.
pub(super) fn answer_casualties(
    state: &mut State,
    act: &mut Activation,
    unit: &str,
    models: &[String],
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    act.wait = None;
    let p = act.damage.remove(unit).unwrap_or_default();
    assign(state, unit, models, &p, dice, out);
}
