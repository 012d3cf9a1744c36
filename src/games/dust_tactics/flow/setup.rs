//! 004 "Heroes" and the scenario: the initial state of a game.

use super::*;

/// Builds the initial state from a validated scenario and the cards (004 "Heroes" joining rules,
/// AP limit, unique ids). The first initiative is rolled on the first submission or default,
/// when dice are available (R50).
pub fn new_state(
    ruleset: &str,
    rules_revision: u32,
    mut scenario: Scenario,
    cards: Vec<Card>,
) -> Result<State, SetupError> {
    // Unknown ids are refused with the list of known ones.
    let rules = Rules::for_id(ruleset).map_err(|e| SetupError(e.to_string()))?;
    // 004 "Minefields" only: 000 has none, 002's are another rule (R480).
    if !scenario.board.mines.is_empty() && rules.id() != "ffg-revised" {
        return Err(SetupError(format!(
            "scenario {} has minefields, which only the ffg-revised rules (004 'Minefields') have: \
             play it with --ruleset ffg-revised or remove `[board] mines`",
            scenario.name
        )));
    }
    // Which rulesets suit the scenario is `new`'s question; a game's state keeps none of it.
    scenario.rulesets.clear();
    let mut by_id = BTreeMap::new();
    for c in cards {
        by_id.insert(c.id.clone(), c);
    }
    super::large::check_setup(&rules, &scenario, &by_id).map_err(SetupError)?;
    let mut units: Vec<UnitState> = Vec::new();
    if scenario.sides.len() < 2 {
        return Err(SetupError(format!(
            "scenario {} has {} side(s): a game needs at least two",
            scenario.name,
            scenario.sides.len()
        )));
    }
    for side in &scenario.sides {
        let mut ap = 0u32;
        for spec in &side.units {
            let card = by_id.get(&spec.card).ok_or_else(|| {
                SetupError(format!(
                    "unit {} of side {} uses card `{}`, which is not among the cards given: add games/dust-tactics/cards/{}.toml or fix the card id",
                    spec.id, side.id, spec.card, spec.card
                ))
            })?;
            if units
                .iter()
                .any(|u: &UnitState| u.id.eq_ignore_ascii_case(&spec.id))
            {
                return Err(SetupError(format!(
                    "unit id `{}` is used twice: give every unit its own id",
                    spec.id
                )));
            }
            ap += card.ap;
            let (models, health, ammo) = fresh(card);
            if let Some(sq) = spec.at {
                let taken = units
                    .iter()
                    .any(|u| u.at == Some(sq) && u.height == spec.height);
                if taken && spec.joins.is_none() {
                    return Err(SetupError(format!(
                        "unit {} starts on {}, where another unit already stands: one unit per square and height",
                        spec.id,
                        crate::dust_tactics::floors::place(sq, spec.height)
                    )));
                }
            }
            units.push(UnitState {
                id: spec.id.clone(),
                side: side.id.clone(),
                card: card.id.clone(),
                at: spec.at,
                models,
                health,
                joined: None,
                activated: false,
                stopped: false,
                moved: false,
                ammo,
                skills_used: BTreeMap::new(),
                uncamouflaged: false,
                air_alert: None,
                all_in_one_round: None,
                medal_round: None,
                heroic_round: None,
                destroyed: false,
                command_round: None,
                facing: None,
                unloaded: Default::default(),
                stunned: false,
                suppression: None,
                stimulated: false,
                exhausted: false,
                aboard: None,
                height: spec.height,
                ejected: None,
                reserve_round: None,
                advanced_round: None,
                reserved: 0,
                unpiloted: false,
                commissar_for: None,
                dozed: false,
                stimulants: None,
                reactivated_round: None,
            });
        }
        // 002 "Fielding Fortifications": bought fortifications are paid from the force (R590).
        let forts = crate::dust_tactics::battlefront::forts_placed::points(&scenario, &side.id);
        let ap = ap + forts;
        if ap > scenario.ap_limit {
            return Err(SetupError(format!(
                "side {} fields {ap} AP, more than the scenario's limit of {}: remove units{}",
                side.id,
                scenario.ap_limit,
                match forts {
                    0 => String::new(),
                    n => format!(
                        " or fortifications (they cost {n}, 002 \"Fielding Fortifications\", R590)"
                    ),
                }
            )));
        }
    }
    // 000/004's one command squad per armour class; 002 has no such limit (R640).
    if !rules.battlefront() {
        command::check_setup(&units, &by_id)?;
    }
    super::joining::check_setup(&units, &by_id)?;
    super::nco::check_setup(&units, &by_id)?;
    // Joins: `joins` on the hero names the squad; on a squad naming a hero is accepted too.
    for side in &scenario.sides {
        for spec in &side.units {
            let Some(other) = &spec.joins else { continue };
            let (hero_id, squad_id) = match by_id.get(&spec.card).map(|c| c.unit_type) {
                Some(UnitType::Hero) => (spec.id.clone(), other.clone()),
                _ => (other.clone(), spec.id.clone()),
            };
            join(
                &mut units,
                &by_id,
                &hero_id,
                &squad_id,
                rules_revision,
                rules,
            )?;
        }
    }
    super::carry::setup_aboard(&scenario, &mut units, &by_id, rules)?;
    if rules.battlefront() {
        super::passengers::check_setup(&units, &by_id)?; // 002 "Zombie" (R737)
    }
    let mut state = State {
        ruleset: rules.id().into(),
        rules_revision,
        scenario,
        cards: by_id,
        units,
        round: 1,
        phase: Phase::Initiative,
        initiative: None,
        next_side: None,
        destroyed: vec![],
        result: None,
        standing: BTreeMap::new(),
        draw_offer: None,
        reactivated: None,
        blasts: vec![],
        smoke: vec![],
        wrecks: vec![],
        salvaged: vec![],
        reserve_pending: vec![],
        victory_points: BTreeMap::new(),
        placing: None,
        scenario_roll: None,
        scenario_rolled: None,
        grips: Default::default(),
    };
    super::placing::begin(&mut state)?;
    // Keep only the cards in use, so the state (and its digest) does not carry spare cards.
    let used: Vec<String> = state.units.iter().map(|u| u.card.clone()).collect();
    state.cards.retain(|k, _| used.contains(k));
    super::structures::check_setup(&state)?;
    // 002 "Bunkers and Strongpoints" (R721): only infantry is placed in a strongpoint.
    if let Some(e) = super::super::battlefront::strongpoints::misplaced(&state) {
        return Err(SetupError(e));
    }
    super::spy::check_setup(&state)?; // 002 "Spy" (R765)
                                      // 002 "Naval Unit": on deep water, and nobody else there (R758).
    if let Some(e) = super::super::battlefront::naval::misplaced(&state) {
        return Err(SetupError(e));
    }
    Ok(state)
}

pub(super) fn join(
    units: &mut [UnitState],
    cards: &BTreeMap<String, Card>,
    hero_id: &str,
    squad_id: &str,
    rules_revision: u32,
    rules: Rules,
) -> Result<(), SetupError> {
    let rule = "(004 'Heroes': joining)";
    let find = |id: &str| units.iter().position(|u| u.id.eq_ignore_ascii_case(id));
    let (Some(h), Some(s)) = (find(hero_id), find(squad_id)) else {
        return Err(SetupError(format!(
            "`joins` links {hero_id} and {squad_id}, but one of them is not a unit of the scenario {rule}"
        )));
    };
    let (Some(hc), Some(sc)) = (cards.get(&units[h].card), cards.get(&units[s].card)) else {
        return Err(SetupError(format!(
            "`joins` links {hero_id} and {squad_id}, but a card is missing {rule}"
        )));
    };
    // 004 "Commissar": he joins only a squad (R479).
    super::joining::check_commissar(hero_id, squad_id, hc, sc)?;
    // A hero joined to a vehicle pilots it (004 "Pilot: Name", 003 "Piloting Vehicles").
    if hc.unit_type == UnitType::Hero && sc.unit_type == UnitType::Vehicle {
        return super::piloting::board_at_setup(units, cards, h, s, rules);
    }
    // 004 "Superhumans": a sidekick forms a special all-hero squad with his superhuman.
    let sidekick = super::joining::sidekick_pair(hc, sc);
    super::joining::check_join(hero_id, squad_id, hc, sc)?;
    if !sidekick && (hc.unit_type != UnitType::Hero || sc.unit_type != UnitType::Squad) {
        return Err(SetupError(format!(
            "only a hero joins a squad: {hero_id} is a {:?} and {squad_id} a {:?} {rule}",
            hc.unit_type, sc.unit_type
        )));
    }
    if units[h].side != units[s].side {
        return Err(SetupError(format!(
            "hero {hero_id} cannot join {squad_id}: they are on different sides {rule}"
        )));
    }
    // The armour class is kind and value: "A 2 hero may join a 2 squad, but not a 1, 3, or 4
    // one" (000 "Heroes", R147, rules revision 1); revision 0 compared the kind only.
    let class = |a: model::Armour| std::mem::discriminant(&a);
    let differs = if rules_revision >= 1 {
        hc.armour != sc.armour
    } else {
        class(hc.armour) != class(sc.armour)
    };
    if differs && !sidekick {
        return Err(SetupError(format!(
            "hero {hero_id} ({:?}) cannot join squad {squad_id} ({:?}): the armour class must match, kind and value {rule}",
            hc.armour, sc.armour
        )));
    }
    // 000 "Jump": a hero simply does not share it with his squad (R203).
    if rules.join_needs_matching_jump() && hc.has(Skill::Jump) != sc.has(Skill::Jump) {
        return Err(SetupError(format!(
            "hero {hero_id} cannot join squad {squad_id}: with Jump, both hero and squad must have it (004 'Jump')"
        )));
    }
    // 000 "Command Squads": "a hero may join a command squad only if he has the Commander
    // ability" (004: "a command or NCO command squad"). 002 has no such rule (R640).
    if !rules.battlefront()
        && (sc.has(Skill::CommandSquad) || sc.has(Skill::NcoCommandSquad))
        && !hc.has(Skill::Commander)
    {
        return Err(SetupError(format!(
            "hero {hero_id} cannot join command squad {squad_id}: only a hero with the Commander skill may ('Command Squads')"
        )));
    }
    // A Commissar "does not count as a hero": one hero and one Commissar a squad (R479).
    let commissar = commissar_card(hc);
    if units.iter().any(|u| {
        u.joined.as_deref() == Some(&units[s].id)
            && cards.get(&u.card).map(commissar_card) == Some(commissar)
    }) {
        return Err(SetupError(if commissar {
            format!(
                "{hero_id} cannot join squad {squad_id}: it already has a Commissar (004 'Commissar': \"Only 1 Commissar can join a unit\"); remove one `joins`"
            )
        } else {
            format!("squad {squad_id} already has a hero: at most one hero per squad {rule}")
        }));
    }
    if units[h].joined.is_some() {
        return Err(SetupError(format!(
            "hero {hero_id} joins two squads: a hero joins at most one {rule}"
        )));
    }
    let squad_id = units[s].id.clone();
    let squad_at = units[s].at;
    if commissar {
        // He joins for the entire game: the squad he returns with if brought back (R487).
        units[h].commissar_for = Some(squad_id.clone());
    }
    units[h].joined = Some(squad_id);
    // A joined hero always stands with his squad (000 "Heroes").
    units[h].at = squad_at;
    units[h].height = units[s].height;
    Ok(())
}

/// A unit as it comes fresh from its card: its models (squads), health and full ammunition.
/// Setup uses it, and 003's reserves, which return "fresh units with no damage and all
/// ammunition replenished" (battlefront/reserves.rs).
pub(crate) fn fresh(card: &Card) -> (Vec<String>, u8, BTreeMap<String, u8>) {
    let models: Vec<String> = if card.unit_type == UnitType::Squad {
        if card.models.is_empty() {
            (1..=card.health).map(|i| i.to_string()).collect()
        } else {
            card.models.iter().map(|m| m.id.clone()).collect()
        }
    } else {
        vec![]
    };
    let health = if card.unit_type == UnitType::Squad {
        models.len().min(u8::MAX as usize) as u8
    } else {
        card.health
    };
    let ammo = card
        .weapons
        .iter()
        .filter_map(|w| w.ammo.map(|a| (w.id.clone(), a)))
        .collect();
    (models, health, ammo)
}
