//! The ruleset `battlefront-2013` (issue 18): the 2013 Battlefront core rulebook (seed 003)
//! with its special rules (002), played on the shared board, movement search, orders parser and
//! decision machinery. This module holds what differs: the three-symbol dice ([`dice`]), the
//! saves and damage of 003 ([`attack`]), its starter cards ([`cards`]), and the refusals of what
//! is not built yet, so nothing is silently played by another rulebook's rule
//! (docs/battlefront.md lists both).

// issue 18: 003 Ace Pilot and "Reacting to Extra Actions" (bfjoin, R608).
pub mod ace;
pub mod artillery;
pub mod attack;
pub mod board_facing;
pub mod buildings;
// issue 18: 002's bunkers (bffort, R780–R784).
pub mod bunkers;
pub mod cards;
pub mod citation;
pub mod close;
// issue 18: 002's command squads and Officer (bfcmd, R640–R649).
pub mod command;
pub mod command_vehicle;
pub mod dice;
// issue 18: 002's engineering vehicles and dozer blades (bffort, R785–R788).
pub mod engineering;
pub mod equipment;
pub mod facing;
// issue 18: 002's trenches (bfront).
pub mod fortifications;
pub mod forts_placed;
pub mod grapple;
pub mod heroes;
// issue 18: 003's Huge vehicles (bflarge, R790–R794).
pub mod huge;
pub mod large2;
// issue 18: 003 joining per activation (bfjoin, R604–R606).
pub mod joining;
// issue 18: hits on a squad with a joined hero, hit by hit (bfjoinhits, R574).
pub mod joined_hits;
// issue 18: 003 mounting and dismounting vehicles (bfjoin, R607).
pub mod mounting;
// 002 "Naval Unit" (R755–R758).
pub mod naval;
// issue 18: 003 §12 objectives (bfscen).
pub mod objectives;
pub mod objectives_placed;
pub mod passing;
// issue 18: 003 §12's random scenario table (R294).
pub mod random_scenario;
pub mod react_choice;
pub mod reactive;
// issue 18: 003 §12 reserves (bfront).
pub mod reserves;
// issue 18: `new --scenario random` rolls 003 §12's table at the first step (R550).
pub mod scenario_roll;
pub mod sight;
pub mod skills;
pub mod skills002;
pub mod skills002_d;
pub mod spray;
pub mod starter_forces;
// issue 18: 002's strongpoints (bunkers003, R718–R722).
pub mod strongpoints;
pub mod stunned;
// issue 18: 002's Under Fire and Suppressed tokens (suppress, R702–R706).
pub mod support_weapons;
pub mod suppression;
pub mod terrain;
// issue 18: 003 §12 victory points (bfront).
pub mod vp;
// issue 18: 002 "Special Weapons" (bfweapa, R670–R679).
pub mod weapons;

use super::flow::Refusal;
use super::orders::{Action, Command};
use super::scenario::Scenario;
use super::state::State;

/// The words every refusal of an unbuilt rule ends with.
pub const NOT_YET: &str = "not implemented yet under battlefront-2013";

fn not_yet(what: &str, rule: &str, instead: &str) -> Refusal {
    Refusal {
        reason: format!("{what}: {NOT_YET} (docs/battlefront.md)"),
        rule: rule.to_string(),
        instead: instead.to_string(),
    }
}

/// A command of a battlefront-2013 game that asks for a rule not built yet, or a `pass` under
/// another ruleset, refused before it changes anything; `None` for every other command.
pub fn refuse_command(state: &State, cmd: &Command) -> Option<Refusal> {
    if !state.rules().battlefront() {
        // `pass` is 003's: refused before any automatic step, as its parse error was.
        return matches!(cmd, Command::Pass).then(passing::not_this_ruleset);
    }
    if let Command::Activate { unit, actions } = cmd {
        if let Some(r) = stunned::check_activation(state, unit, actions) {
            return Some(r);
        }
    }
    match cmd {
        // 002's declared skills (Fighting Spirit, Tank Head) are built (battlefront/skills.rs).
        Command::Activate { unit, actions } => {
            // issue 18 hook: a joined hero activates with its squad only (heroes.rs, R257).
            if let Some(r) = heroes::refuse_apart(state, unit) {
                return Some(r);
            }
            // issue 18 hook: `skill detach` leaves a joined hero behind (joining.rs, R605).
            if let Some(r) = joining::refuse_detach(state, unit, actions) {
                return Some(r);
            }
            let name = actions.iter().find_map(|a| match a {
                Action::Skill { name, .. }
                    if !joining::is_detach(state, name)
                        // 002's Engineering Special Action (R726): planned by flow::fortify.
                        && !name.eq_ignore_ascii_case(fortifications::ENGINEERING)
                        // 002's Dozer Special Action (R786): planned by flow::engineering_vehicle.
                        && !name.eq_ignore_ascii_case(engineering::DOZER)
                        && !skills::DECLARED
                            .iter()
                            .any(|s| s.id().eq_ignore_ascii_case(name))
                        && skills002_d::of_line(name).is_none()
                        // 002's command squad orders (R640–R647): planned by flow::command002.
                        && !command::names_an_order(name)
                        // 002's Reload, Observer, Smoke Screen and Salvo lines (R690-R697).
                        && !artillery::is_line(name) =>
                {
                    Some(name.to_ascii_lowercase())
                }
                _ => None,
            })?;
            // Take Aim and Berserk are built but work by themselves: no line declares them.
            if skills::BUILT.iter().any(|s| s.id() == name) {
                return Some(Refusal {
                    reason: format!("`skill {name}` declares nothing: {name} works by itself under battlefront-2013"),
                    rule: "002 skills (rulings R279-R283)".to_string(),
                    instead: "leave out the `skill` line".to_string(),
                });
            }
            Some(not_yet(
                "skills and special actions as 002 defines them",
                "003 \"Skills and Equipment\" / 002",
                "leave out the `skill` line; move, attack, sustained or nothing",
            ))
        }
        _ => None,
    }
}

/// The welcome mail's note on what the slices built so far play and what they do not, for a
/// battlefront-2013 game (`None` otherwise).
pub fn briefing_note(state: &State) -> Option<String> {
    state.rules().battlefront().then(|| {
        let base = "Ruleset battlefront-2013 (the 2013 Battlefront rulebook, 003) is built in slices. Played: Dust dice, each shown with its symbol (army, target, shield); Infantry and Cover saves; one model lost per hit; March Move; Nothing; Passing (`pass`); Reactive Attacks (2 dice: two army symbols a Sustained Attack, one an Attack, none Nothing; `standing react <your unit|any> auto|never|ask`); facing (a unit faces the way it last stepped, straight in when it enters) and front-mounted weapons firing only 45 degrees either side of it (`turn W`, a Move action, turns a unit in place). On two army symbols a reacting unit makes the Sustained Attack or turns towards the mover then Attacks (`react <unit> turn|sustained`); a March Move is reacted to after its first `move`. Close combat (ranged weapons first, then range C on both sides at once, no save); blast weapons (dice for each model) and spray weapons (every unit on the shortest path, friends too, no save; `through F5` picks the path). Skills: Fighting Spirit (`skill fighting-spirit`, once per game: hits on army or target), Take Aim, Berserk and Tank Head (`skill tank-head at <vehicle>`: five dice, each army or target repairs one damage), Charge (`skill charge`, a March Move, then a close-combat Attack) Cheat Death (a hero about to be eliminated rolls a die: army or target keeps it with 1 damage point, Stunned) and Ace Pilot (a die as the piloted vehicle activates: army or target, a third action, ordered as a third line; a reaction comes before it). A hero joins a squad of his Armour by standing in its square (the scenario's `joins`, or a move into it) and activates with it at the lower Move, or apart (`activate <hero>`), or stays behind (`skill detach` as the squad's first line); one in a vehicle pilots it (no target, no weapon of his own, a die to escape its wreck), dismounts with `activate <pilot>` and a first `move` out of its square (the vehicle then does nothing until a pilot mounts it by moving into its square). Not built yet: the other skills and special actions";
        // Rules revision 8 plays 002's suppression (R702); a game made before keeps its note.
        let tail = if suppression::applies(state) {
            "; orders using them are refused. Suppression (002): an attack that damages a unit gives it an Under Fire token, a second one makes it Suppressed; as it activates it rolls two dice (three if Brave, with a Commissar or a joined hero) and an army symbol removes the token; a unit left Suppressed takes a Nothing action first, so its first ordered action becomes its second and the rest is not played, unless its orders begin with `nothing`. Heroes, superhumans and zombies are never suppressed. docs/battlefront.md lists both."
        } else {
            ", and suppression; orders using them are refused. docs/battlefront.md lists both."
        };
        // Rules revision 9: the slices have brought 002's special rules; the note says where
        // they are listed instead of "not built yet" (a game made before keeps its note).
        if state.revised(9) {
            let base = base
                .replace(" is built in slices.", ".")
                .replace(" Not built yet: the other skills and special actions", " 002's special rules (the other skills, special weapons, vehicle equipment, command squads, passengers, fortifications) are played as docs/battlefront.md lists them; a card naming one not built is refused when the game is made");
            let tail = tail.replace("; orders using them are refused.", ".");
            return format!("{base}{tail}");
        }
        format!("{base}{tail}")
    })
}

/// The orders template's note on an awaited activation of `side` under battlefront-2013
/// (`None` otherwise): 003's March Move, and `pass` when the side may pass now.
pub fn template_note(state: &State, side: &str) -> Option<String> {
    if !state.rules().battlefront() {
        return None;
    }
    let mut s = "# (003: `move` + `move` is one March Move of double Move rating; an\n\
                 # enemy unit within 4 squares may react after your first action\n\
                 # (after the first `move` of a March Move), unless it is a\n\
                 # Sustained Attack or your second action is `nothing`)\n"
        .to_string();
    if passing::may_pass(state, side) {
        s.push_str(
            "# You have fewer units still to activate than your opponent: you\n\
             # may pass instead (003 \"Passing\"):\n#   pass\n",
        );
    }
    Some(s)
}

/// Whether scenario `s` suits battlefront-2013: it lists the ruleset itself (a scenario written
/// for the FFG charts does not), every unit's card is a battlefront card, and each hero joined
/// to a squad joins it as 003 says (`heroes::check_joins`).
pub fn suits(s: &Scenario) -> Result<(), String> {
    suits_with(s, &[])
}

/// [`suits`], where a card `--cards` brings (its id in `brought`) is a battlefront card too.
pub fn suits_with(s: &Scenario, brought: &[&str]) -> Result<(), String> {
    if !s.rulesets.iter().any(|r| r == "battlefront-2013") {
        return Err(format!(
            "scenario `{}` does not suit ruleset battlefront-2013: only a scenario listing `battlefront-2013` in its `rulesets` does (its cards must be the 003 ones); use `--scenario encounter` (`dustmail games` lists which suit which)",
            s.name
        ));
    }
    let known = cards::ids();
    for side in &s.sides {
        for u in &side.units {
            if !known.iter().chain(brought).any(|k| *k == u.card) {
                return Err(format!(
                    "scenario `{}`: unit `{}` has card `{}`, which is not a battlefront-2013 card; use one of {}",
                    s.name,
                    u.id,
                    u.card,
                    known.join(", ")
                ));
            }
        }
    }
    // issue 18 hook: a hero joined before the game, as 003 words it (heroes.rs, R257).
    heroes::check_joins(s, &heroes::builtin_card)
}
