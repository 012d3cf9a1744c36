//! 004 "Activation" and "Actions": a declared activation validated before any die is rolled.

use super::super::battlefront::joining;
use super::movement::{entry_free, entry_text};
use super::*;
use crate::dust_tactics::battlefront::skills002::Skill002;
use crate::dust_tactics::orders::carry::Transport;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Move,
    Attack,
    Skill,
    Nothing,
    Sustained,
}

pub(super) fn cmd_activate(
    state: &mut State,
    side: &str,
    unit_id: &str,
    actions: &[Action],
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let rule_act = RuleId::Activation;
    match &state.phase {
        Phase::Activations => {}
        Phase::First { winner } => {
            return refuse(
                format!("{winner} must first choose who activates first"),
                RuleId::Initiative,
                format!("{winner}: first <side>"),
            )
        }
        Phase::Activation(a) => {
            return refuse(
                format!("the activation of {} is still being resolved", a.unit),
                rule_act,
                "answer the awaited decision (react or casualties) first",
            )
        }
        _ => {
            return refuse(
                "no activation is possible now",
                rule_act,
                "wait for the next report",
            )
        }
    }
    if state.next_side.as_deref() != Some(side) {
        return refuse(
            format!(
                "it is {}'s turn to activate a unit",
                state.next_side.clone().unwrap_or_default()
            ),
            RuleId::AlternatingActivations,
            "wait for your turn",
        );
    }
    let Some(u) = state.unit(unit_id).cloned() else {
        return refuse(
            format!("there is no unit `{unit_id}`"),
            rule_act,
            format!("activate one of: {}", activatable(state, side).join(", ")),
        );
    };
    if u.side != side {
        return refuse(
            format!("{} is not your unit", u.id),
            rule_act,
            "activate one of your own units",
        );
    }
    if u.destroyed {
        return refuse(
            format!("{} is destroyed", u.id),
            rule_act,
            format!("activate one of: {}", activatable(state, side).join(", ")),
        );
    }
    // 004 "Pilot: Name" (R544): a pilot activates alone only to exit first (003 mounts otherwise).
    // Rules revision 7: a game made before refused every `activate <pilot>`, and replays so.
    let pilot = state.is_pilot(&u) && !state.rules().battlefront() && state.revised(7);
    // issue 18 hook: under 003 a joined hero may activate apart (battlefront/joining.rs).
    let apart = pilot || joining::apart(state, &u);
    if let Some(sq) = u.joined.as_ref().filter(|_| !apart) {
        return refuse(
            format!("{} is joined to {sq} and activates with it", u.id),
            RuleId::Heroes,
            format!("activate {sq}"),
        );
    } else if pilot {
        super::piloting::activates_alone(state, &u, actions)?;
    }
    if u.activated {
        return refuse(
            format!("{} has already activated this round", u.id),
            rule_act,
            format!("activate one of: {}", activatable(state, side).join(", ")),
        );
    }
    if let Some(r) = state.reactivated.clone() {
        if !r.eq_ignore_ascii_case(&u.id) {
            return refuse(
                format!(
                    "{r} was reactivated by Get Moving You Bunch of Monkeys! and activates now"
                ),
                RuleId::CommandSquads
                    .with("this new activation takes place right after that of the command squad"),
                format!("activate {r}"),
            );
        }
    }
    // issue 18 hook: 003 dismounting, and a vehicle left by its pilot (battlefront/mounting.rs).
    super::super::battlefront::mounting::check(state, &u, actions)?;
    // issue 18 hook: a Huge vehicle enters wholly in a March Move (battlefront/huge.rs, R793).
    super::super::battlefront::huge::check(state, &u, actions)?;
    let loosened = joining::loosen(state, &u.id, actions);
    let planned = plan_activation(state, &u, joining::own_actions(state, actions));
    let mut plan = planned.inspect_err(|_| joining::restore(state, loosened.clone()))?;
    state.reactivated = None;
    // Commit: turn the cards, count skill uses, start the steps.
    let members = group(state, &u.id);
    for m in &members {
        if let Some(x) = state.unit_mut(m) {
            x.activated = true;
        }
    }
    super::stimulant::commit(state, &u.id, out);
    super::super::battlefront::command::take_token(state, &u.id, out); // 002, R642
    let round = state.round;
    for (owner, skill) in &plan.uses {
        if let Some(x) = state.unit_mut(owner) {
            *x.skills_used.entry(skill.id().to_string()).or_insert(0) += 1;
            if *skill == Skill::AllInOne {
                x.all_in_one_round = Some(round);
            }
            if *skill == Skill::HeroicAttack {
                x.heroic_round = Some(round);
            }
        }
    }
    super::super::battlefront::skills002_d::commit(state, &u.id, &plan.flags);
    say(out, format!("{} activates {}: {}", side, u.id, plan.text));
    plan.flags.dismounted = joining::commit(state, &loosened, &u.id, out);
    state.phase = Phase::Activation(Box::new(Activation {
        unit: u.id.clone(),
        side: side.to_string(),
        steps: plan.steps,
        wait: None,
        flags: plan.flags,
        damage: BTreeMap::new(),
        reacted: vec![],
        cheat_death: BTreeMap::new(),
    }));
    Ok(format!("activate {}: {}", u.id, plan.text))
}

pub(super) fn activatable(state: &State, side: &str) -> Vec<String> {
    // A unit reactivated by a command squad's Officer activates before any other.
    if let Some(r) = state.reactivated.as_ref().and_then(|r| state.unit(r)) {
        if r.side == side {
            return vec![r.id.clone()];
        }
    }
    state
        .units
        .iter()
        .filter(|u| u.side == side && (leads(u) && !u.activated || joining::apart(state, u)))
        .map(|u| u.id.clone())
        .collect()
}

pub(super) struct Plan {
    pub(super) steps: Vec<Step>,
    flags: ActFlags,
    uses: Vec<(String, Skill)>,
    pub(super) text: String,
    /// The actions the first order counts as, and the steps it planned (R704, R660).
    pub(super) first: (usize, usize),
}

/// Plans a declared activation (004 "Actions"): free skills first, as they shape the rest
/// (Assault doubles movement, Charge allows three actions), then each action in order, then the
/// legal sequences and the reactive-fire windows.
pub(super) fn plan_activation(
    state: &State,
    u: &UnitState,
    actions: &[Action],
) -> Result<Plan, Refusal> {
    // 002 "Spy" (R765, R660): an unplaced Spy is placed, or does nothing.
    if let Some(r) = super::spy::plan(state, u, actions) {
        return r;
    }
    let mut p = Planner::new(state, u);
    p.free_skills(actions)?;
    p.transport_sequence(actions)?;
    // 004 "Ace Pilot" (R543): where the last action's steps begin, for its extra action.
    let ace = super::piloting::ace_pilot(state, &u.id);
    let mut extra_from = 0;
    let mut first = (0, 0);
    for (i, a) in actions.iter().enumerate() {
        let (kinds_before, steps_before) = (p.kinds.len(), p.steps.len());
        p.next_is_move = matches!(
            actions.get(i + 1),
            Some(Action::Move { .. } | Action::MoveSparing { .. } | Action::MoveFacing { .. })
        );
        // 002 "Move and Fire" (R603), "At the Double" (R710), "Scout" (R713): a free Move.
        let free = free_move_skill(&p, a);
        p.free_move = free.is_some();
        match a {
            Action::Move { squares } => p.move_or_mount(squares)?,
            // battlefront-2013: the Move ends facing the way named (R617).
            Action::MoveFacing { squares, facing } => {
                super::super::battlefront::facing::plan_facing(state, u, p.next_is_move)?;
                p.end_facing = Some(*facing);
                p.movement(squares)?;
                p.end_facing = None;
                p.steps.push(Step::Turn { facing: *facing });
                if let Some(t) = p.texts.last_mut() {
                    t.push_str(&format!(" facing {facing}"));
                }
            }
            Action::Climb(c) => p.climb_action(&c.path)?,
            Action::MoveSparing { squares, spare } => {
                // R150 came with rules revision 1: a game made before has no `spare`.
                if !state.revised(1) {
                    return refuse(
                        "`spare` is not in the rules this game was made under (rules revision 0): a vehicle crushes every crate it enters",
                        RuleId::CrushCrates,
                        "move <square> …",
                    );
                }
                p.movement(squares)?;
                p.spare_crates(spare)?;
            }
            // 002 "Inject Stimulants": an Attack made a Sustained Attack (R642).
            Action::Attack { fire } => p.attack(fire, p.stimulated_attack())?,
            Action::Sustained { fire } => p.attack(fire, true)?,
            Action::Skill { name, target } => p.skill_action(name, target.as_ref())?,
            Action::StrikeWith { name, target, also } => p.strike_with(name, target, also)?,
            Action::Transport(Transport::Board { path, vehicle }) => p.board(path, vehicle)?,
            Action::Transport(Transport::Exit { path }) => p.exit(path)?,
            Action::Transport(Transport::Lift { path }) => p.lift(path)?, // 002 (R748)
            Action::Travel => p.travel()?, // 004 travel between boards (R631)
            // battlefront-2013: a Move that only turns the unit (003 "Check Field of Fire").
            Action::Turn { facing } => {
                let moves = actions
                    .iter()
                    .filter(|a| {
                        matches!(
                            a,
                            Action::Move { .. }
                                | Action::MoveSparing { .. }
                                | Action::MoveFacing { .. }
                        )
                    })
                    .count();
                // A Huge vehicle rotates within its move, no action of its own (R792).
                let within = super::super::battlefront::huge::rotates_in_move(state, u, actions, i);
                if !within {
                    super::super::battlefront::facing::plan_turn(state, u, p.pos.is_some(), moves)?;
                }
                p.steps.push(Step::Turn { facing: *facing });
                p.texts.push(format!("turn {facing}"));
                if !within {
                    p.push_kind(Kind::Move);
                }
            }
            Action::Nothing => {
                p.steps.push(Step::Nothing);
                p.texts.push("nothing".into());
                p.push_kind(Kind::Nothing);
            }
            #[allow(unreachable_patterns)]
            _ => {
                return refuse(
                    "this action is not part of the ffg-revised engine yet",
                    RULE_ACTIONS,
                    "use move, attack, sustained, skill or nothing",
                )
            }
        }
        if p.kinds.len() > kinds_before {
            extra_from = steps_before;
        }
        if i == 0 {
            first = (p.kinds.len() - kinds_before, p.steps.len() - steps_before);
        }
        if let (true, Some(skill)) = (std::mem::take(&mut p.free_move), free) {
            p.free_at = Some((p.kinds.len() - 1, p.texts.len() - 1, skill));
        }
    }
    let extra = match &ace {
        Some(_) if !p.flags.charge => {
            super::piloting::split_extra(&mut p.kinds, &mut p.steps, extra_from, state.rules())?
        }
        _ => vec![],
    };
    if !extra.is_empty() {
        if let Some(t) = p.texts.last_mut() {
            *t = format!("{t} (the extra action, on the Ace Pilot's 4+)");
        }
    }
    p.check_free_move()?;
    // Issue 12: 004 "Aircraft" must MOVE every round (R443).
    p.check_aircraft()?;
    let mut plan = p.finish();
    plan.first = first;
    if let Some(pilot) = ace {
        plan.steps.insert(0, Step::AcePilot { pilot });
        if !extra.is_empty() {
            plan.steps.push(Step::AceExtra);
            // issue 18 hook: 003 "Reacting to Extra Actions": the reaction comes right before
            // the last of three actions (R608; `Step::Window` skips the earlier one).
            if super::super::battlefront::ace::before_extra(state.rules(), &extra) {
                plan.steps.push(Step::Window);
            }
            plan.steps.extend(extra);
        }
    }
    // issue 18 hook: 002's removal roll first, and the cut of a unit left Suppressed (R704).
    let roll = super::super::battlefront::suppression::plan;
    roll(state, &u.id, actions, first, &mut plan.steps);
    Ok(plan)
}

const RULE_ACTIONS: RuleId = RuleId::Actions;

/// What the planning of one activation has gathered so far.
pub(super) struct Planner<'a> {
    pub(super) state: &'a State,
    pub(super) rules: Rules,
    pub(super) u: &'a UnitState,
    /// The board without the activating group.
    pub(super) occ: Occupancy,
    pub(super) flags: ActFlags,
    /// Skill uses to count: (owner, skill).
    pub(super) uses: Vec<(String, Skill)>,
    pub(super) kinds: Vec<Kind>,
    pub(super) texts: Vec<String>,
    pub(super) steps: Vec<Step>,
    /// Where the unit stands after the actions planned so far (`None`: off the board).
    pub(super) pos: Option<Square>,
    /// The height on `pos` after the actions planned so far (`None`: the ground floor; R514).
    pub(super) height: Option<crate::dust_tactics::floors::Height>,
    pub(super) moved_before: bool,
    pub(super) last_kind: Option<Kind>,
    pub(super) fast_used: bool,
    /// 004 "Scout Vehicle": its 2 extra spaces were spent on a MOVE (R404).
    pub(super) scout_used: bool,
    /// 000 Charge: where the last move ends when it needed the free extra square.
    pub(super) charge_square: Option<Square>,
    /// The action after the one being planned is a MOVE.
    pub(super) next_is_move: bool,
    /// 000 double move: the first MOVE was kept as waypoints, to be planned whole with the
    /// second (it could not stop where it ends, R210).
    pub(super) first_move_deferred: bool,
    /// battlefront-2013: a March Move's first part, in squares (003 "Reacting to a March
    /// Move", R256).
    pub(super) march_first_len: Option<usize>,
    /// 002 "Move and Fire" (R603): the `move` being planned follows a ranged attack and may be
    /// the free Move (it may move though the unit stopped to attack).
    pub(super) free_move: bool,
    /// R603, R710: where that Move is in `kinds` and `texts` and the skill that makes it free,
    /// dropped from `kinds` if counting it breaks the activation's sequence.
    free_at: Option<(usize, usize, Skill002)>,
    /// A Move was taken after the March Move (R710, R713): the March Move's reaction window is
    /// found before it.
    free_after_march: bool,
    /// `move … facing`: the facing the move being planned ends with (a Large vehicle's body, R770).
    pub(super) end_facing: Option<super::super::battlefront::facing::Facing>,
}

/// The 002 skill that may make action `a` a free Move (R603, R710, R713), from what is planned
/// so far.
fn free_move_skill(p: &Planner, a: &Action) -> Option<Skill002> {
    use super::super::battlefront::skills002 as s2;
    // 002 "Naval Unit" (R756): an `attack` right after the March Move.
    let march = p.kinds == [Kind::Move, Kind::Move];
    if matches!(a, Action::Attack { .. }) {
        let naval = super::super::battlefront::naval::free_attack(p.state, &p.u.id, march);
        return naval.then_some(Skill002::Naval);
    }
    if !matches!(
        a,
        Action::Move { .. } | Action::MoveSparing { .. } | Action::MoveFacing { .. }
    ) {
        return None;
    }
    let (state, id) = (p.state, &p.u.id);
    if matches!(p.steps.last(), Some(Step::Attack { lines, .. }) if s2::free_move_after(state, id, lines))
    {
        return Some(Skill002::MoveAndFire);
    }
    if s2::free_move_after_march(state, id, march) {
        return Some(Skill002::AtTheDouble);
    }
    // 002 "Scout" (R713): the March Move's second `move` line, so the March Move is one action.
    let second = p.kinds == [Kind::Move];
    s2::scout_march(state, p.u, second).then_some(Skill002::Scout)
}

impl<'a> Planner<'a> {
    pub(super) fn new(state: &'a State, u: &'a UnitState) -> Self {
        let members = group(state, &u.id);
        Planner {
            state,
            rules: state.rules(),
            u,
            occ: occupancy(state, &members),
            flags: ActFlags::default(),
            uses: vec![],
            kinds: vec![],
            texts: vec![],
            steps: vec![],
            pos: u.at,
            height: u.height,
            moved_before: u.moved,
            last_kind: None,
            fast_used: false,
            scout_used: false,
            charge_square: None,
            next_is_move: false,
            first_move_deferred: false,
            march_first_len: None,
            free_move: false,
            free_at: None,
            free_after_march: false,
            end_facing: None,
        }
    }

    pub(super) fn push_kind(&mut self, k: Kind) {
        self.kinds.push(k);
        self.last_kind = Some(k);
    }

    /// The legal sequences, with 002 "Move and Fire"'s free Move (R603) and "At the Double"'s
    /// (R710): the Move right after a ranged attack (a March Move) is one of the activation's actions when that makes a legal sequence (so
    /// `attack` + `move` stays the usual pair), and free only when counting it breaks one.
    fn check_free_move(&mut self) -> Result<(), Refusal> {
        let refused = match self.check_sequence() {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        let Some((k, t, skill)) = self.free_at.take() else {
            return Err(refused);
        };
        self.kinds.remove(k);
        self.check_sequence().map_err(|_| refused)?;
        if let Some(text) = self.texts.get_mut(t) {
            text.push_str(skill.free_move_note());
        }
        // A Move after the March Move (At the Double's, or Scout's further action).
        self.free_after_march =
            skill == Skill002::AtTheDouble || self.kinds == [Kind::Move, Kind::Move];
        Ok(())
    }

    /// The legal sequences of 004 "Actions", and the entering rules of ruling 2.
    fn check_sequence(&self) -> Result<(), Refusal> {
        // NCO Stimulant Kit: four actions once, then exhausted (R477).
        if let Some(r) = self.stimulant_sequence() {
            return r;
        }
        // 002 "Inject Stimulants": three actions with a token (R642).
        if let Some(r) = self.stimulants_sequence() {
            return r;
        }
        let (u, kinds, flags) = (self.u, &self.kinds, &self.flags);
        let legal = if flags.charge && self.rules.charge_extra_square() {
            return self.check_charge_2010();
        } else if flags.charge {
            *kinds == [Kind::Move, Kind::Move, Kind::Attack]
        } else {
            match kinds.as_slice() {
                [Kind::Sustained] => self.rules.sustained_attack(),
                [Kind::Attack, Kind::Attack] => {
                    return refuse(
                        "two ATTACK actions in one activation are a SUSTAINED ATTACK",
                        RULE_ACTIONS,
                        "one ATTACK line firing several weapons, `attack <weapon> at <target>, <weapon> at <target>`, or `sustained <weapon> at <target>` alone",
                    )
                }
                [a, b] => *a != Kind::Sustained && *b != Kind::Sustained,
                _ => false,
            }
        };
        if !legal {
            let n = kinds.len();
            return refuse(
                format!(
                    "{n} action{} declared ({}); an activation is two actions, or one SUSTAINED ATTACK{}",
                    if n == 1 { " is" } else { "s are" },
                    self.texts.join(", "),
                    if flags.charge { "; Charge is move, move, attack" } else { "" }
                ),
                RULE_ACTIONS,
                // The likeliest slip is one action alone: say how to complete it.
                if n == 1 && !flags.charge {
                    "the line you sent and a second action line after it, e.g. `nothing`"
                } else {
                    "two action lines, e.g. a `move` and an `attack`, or `nothing` + `nothing`"
                },
            );
        }
        if kinds.contains(&Kind::Sustained) && u.at.is_none() {
            return refuse(
                format!(
                    "{} is entering the battlefield and cannot make a sustained attack",
                    u.id
                ),
                RuleId::FirstRound,
                "move <entry square> + attack",
            );
        }
        // A unit inside a vehicle is off the board but does not enter (R462).
        if u.at.is_none()
            && u.aboard.is_none()
            && kinds.first() != Some(&Kind::Move)
            && kinds.iter().any(|k| *k != Kind::Nothing)
        {
            return refuse(
                format!(
                    "{} is off the board: its first action must be the entering move",
                    u.id
                ),
                RuleId::FirstRound,
                "move <entry square> first",
            );
        }
        // 004: "During the first round, units must enter the battlefield" (R152):
        // staying off is left only to a unit whose entry zone has no free square.
        // Rules revision 1; in revision 0 a unit could stay off the board (R52 alone).
        if self.state.revised(1)
            && u.at.is_none()
            && u.aboard.is_none()
            && self.state.round == 1
            && kinds.first() != Some(&Kind::Move)
            && !entry_free(self.state, u).is_empty()
            && !super::spy::unplaced(self.state, u)
        {
            return refuse(
                format!(
                    "{} must enter the battlefield during the first round: its first action is the entering move",
                    u.id
                ),
                RuleId::FirstRound.with("during the first round, units must enter the battlefield"),
                format!("move <one of {}> first", entry_text(self.state, u)),
            );
        }
        Ok(())
    }

    /// The plan with its reactive-fire window (004 "Reactive fire situations"; R55 for
    /// SKILL/NOTHING pairs).
    fn finish(self) -> Plan {
        let march_windows = super::super::battlefront::react_choice::applies(self.state);
        let Planner {
            rules,
            kinds,
            steps,
            mut flags,
            uses,
            texts,
            fast_used,
            march_first_len,
            free_after_march,
            ..
        } = self;
        // issue 18 hook: 003 reacts to a March Move after its normal Move (R256).
        let steps = march_parts(steps, march_first_len);
        let mut with_windows = vec![];
        // A Turn right after a Move is that Move's facing (R617), not an action of its own.
        let facing_at = |i: usize| {
            i > 0
                && matches!(steps.get(i), Some(Step::Turn { .. }))
                && matches!(steps.get(i - 1), Some(Step::Move { .. }))
        };
        let action_idx: Vec<usize> = steps
            .iter()
            .enumerate()
            .filter(|(i, s)| !matches!(s, Step::Detach { .. }) && !facing_at(*i))
            .map(|(i, _)| i)
            .collect();
        let window_after = if !rules.reactive_fire() || kinds.contains(&Kind::Sustained) {
            None
        } else if kinds == [Kind::Move, Kind::Move] && march_windows {
            // 003 "Reacting to a March Move": after the normal Move (the entry, or the first
            // part of the path); a March Move with one part only opens none.
            // At the Double's free Move comes after (R710).
            (action_idx.len() == 2 + free_after_march as usize).then(|| action_idx[0])
        } else if kinds == [Kind::Move, Kind::Move] && !rules.moves_are_separate_actions() {
            // One move of double Movement: nothing to react to between the two.
            None
        } else if rules.reactive_graded() && kinds.last() == Some(&Kind::Nothing) {
            // issue 18, 003 "Reactive Attacks": no reaction against a unit whose second action
            // is Nothing (battlefront/reactive.rs).
            None
        } else if flags.charge {
            action_idx.get(1).copied()
        } else if kinds.iter().any(|k| matches!(k, Kind::Move | Kind::Attack)) {
            action_idx.first().copied()
        } else {
            None
        };
        let window_after = window_after.map(|i| i + usize::from(facing_at(i + 1)));
        for (i, s) in steps.into_iter().enumerate() {
            with_windows.push(s);
            if Some(i) == window_after {
                with_windows.push(Step::Window);
            }
        }
        flags.fast_used = fast_used;
        Plan {
            steps: with_windows,
            flags,
            uses,
            text: texts.join(", "),
            first: (0, 0),
        }
    }
}

/// R256: a March Move's one path cut where its first `move` line ended (nothing else changes).
fn march_parts(steps: Vec<Step>, first_len: Option<usize>) -> Vec<Step> {
    let Some(n) = first_len else {
        return steps;
    };
    let mut out = Vec::with_capacity(steps.len() + 1);
    for s in steps {
        match super::super::battlefront::react_choice::split_march(&s, n) {
            Some((a, b)) if matches!(s, Step::Move { .. }) => {
                out.push(a);
                out.push(b);
            }
            _ => out.push(s),
        }
    }
    out
}

pub(super) fn target_text(t: &Target) -> String {
    match t {
        Target::Unit { unit } => unit.clone(),
        Target::Model { unit, model } => format!("{unit}/{model}"),
        Target::Square { at } => at.to_string(),
    }
}

/// Whether `side` may activate `unit` with `actions` now: every check `activate` makes, run on
/// a copy of the state, no die rolled (the orders template offers only orders that pass them,
/// issue 16 item 3).
pub fn check_activation(
    state: &State,
    side: &str,
    unit: &str,
    actions: &[Action],
) -> Result<(), Refusal> {
    let mut copy = state.clone();
    cmd_activate(&mut copy, side, unit, actions, &mut Outcome::default()).map(|_| ())
}
