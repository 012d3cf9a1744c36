//! The attack orders of a turn (`attack`, `amphibious attack`, `naval`, `bombard`, `antisub`,
//! and the conditions of every attack kind): parsed here, fought by combat.rs and naval.rs.

use super::*;

impl Step<'_> {
    /// `attack UNITS from A to B [hits: …]` (or `amphibious attack …`): one CP, fought at once.
    pub(super) fn attack(
        &mut self,
        line: usize,
        rest: &str,
        amphibious: bool,
        mut t: TurnState,
    ) -> Reply {
        let (order, hits) = match rest.split_once("hits") {
            Some((o, h)) => (o.trim(), h.trim_start_matches([':', ' '])),
            None => (rest, ""),
        };
        let priority = match combat::parse_priority(hits) {
            Ok(p) => p,
            Err(n) => return no(line, n),
        };
        // `… if attack 2 won`: a condition, checked first; false, the line is skipped (R329).
        let (order, cond) = cut(order, " if ", &[" with ", " retreat "]);
        let (order, policy) = cut(&order, " retreat ", &[" with ", " if "]);
        let retreat = match policy.as_deref().map(retreat::parse_policy) {
            None => None,
            Some(Ok(p)) if p.to.is_some() => {
                return refused(
                    line,
                    "attackers retreat to the area they came from, nowhere else",
                    "001 'Ritirata'",
                    "retreat at 2",
                )
            }
            Some(Ok(p)) => Some(p),
            Some(Err(n)) => return no(line, n),
        };
        let order = order.as_str();
        // `… with sigrid`: a battle power of the card played (ruling R319).
        let (order, power) = match order.split_once(" with ") {
            Some((o, p)) => (o.trim(), Some(p.trim().to_string())),
            None => (order, None),
        };
        if let Some(p) = &power {
            if !combat::BATTLE_POWERS.contains(&p.as_str()) {
                return refused(
                    line,
                    format!(
                        "`with {p}`: an attack may call {} only",
                        combat::BATTLE_POWERS.join(", ")
                    ),
                    "001 'Poteri Speciali'",
                    "attack … with sigrid",
                );
            }
            if let Err(n) = powers::ready(self.s, self.side, p) {
                return no(line, n);
            }
        }
        let Some((spec, from, to)) = split_move(order) else {
            return refused(
                line,
                "an attack names its units, its origin and its target",
                "docs/strategy.md",
                "attack 3 tanks, 1 robot from mexico to caribe",
            );
        };
        // 001 "Attacchi combinati": one origin an attack; say so rather than "no units in A, B".
        if from.contains(',') || spec.contains(" from ") {
            return refused(
                line,
                "an attack comes from one area only: forces of several areas cannot be \
                 combined (001 'Attacchi combinati')",
                "docs/strategy.md",
                format!("one attack line for each area: attack UNITS from AREA to {to}"),
            );
        }
        if let Some(c) = cond {
            match condition(self.s, &t, &to, &c) {
                Ok(None) => {}
                Ok(Some(why)) => {
                    return accepted(line, format!("skipped, not attacked: {why} (no CP spent)"))
                }
                Err(n) => return no(line, n),
            }
        }
        let units = match turn::parse_units(&spec, self.s, &from, false) {
            Ok(u) => u,
            Err(n) => return no(line, n),
        };
        let o = combat::Order {
            units,
            from: &from,
            to: &to,
            amphibious,
            priority,
            power: power.clone(),
            drop: Vec::new(),
            retreat,
        };
        if let Err(n) = combat::check(self.s, self.side, &t, &o) {
            return no(line, n);
        }
        let ground = o
            .units
            .keys()
            .any(|u| matches!(u, Unit::Tank | Unit::Robot));
        if power.as_deref() == Some("raketen-truppen") && !ground {
            return refused(
                line,
                "Raketen Truppen need a tank or a robot of yours in the battle",
                "001 'Raketen Truppen' (ruling R319)",
                "attack with a tank or a robot, or without the power",
            );
        }
        // Issue 15 hook: a battle a strategic campaign fights on the table is not rolled (nor
        // asked: the table game is the defender's answer, R336), nor given a power (R341).
        if let Some(r) = super::held::power_on_table(self.s, self.side, line, &o) {
            return r;
        }
        if let Some(h) = super::elsewhere::intercept(self.s, self.side, &o) {
            if power.is_some() {
                self.s.powers_used.insert(self.side.to_string());
            }
            t.stage = Stage::Combat;
            t.attacked += 1;
            t.attacks_made.push((from.clone(), to.clone()));
            self.s.turn = Some(t);
            self.happen(h);
            return accepted(
                line,
                format!(
                    "attack {} from {from} to {to}: fought on the table, the game waits for its result",
                    units_text(&o.units)
                ),
            );
        }
        // ask (R351): a defender who asked for this area answers before any die is rolled.
        if let Some(r) = self.ask_pause(line, &o) {
            return r;
        }
        if power.is_some() {
            self.s.powers_used.insert(self.side.to_string());
        }
        let h = combat::fight(self.s, self.side, &o, self.dice);
        t.stage = Stage::Combat;
        t.attacked += 1;
        made(self.s, self.side, &mut t, &from, &to);
        let said = format!(
            "{}attack {} from {from} to {to}{}{} ({} of {} attacks)",
            if amphibious { "amphibious " } else { "" },
            units_text(&o.units),
            power.map(|p| format!(" with {p}")).unwrap_or_default(),
            o.retreat
                .as_ref()
                .map(|p| format!(" retreating at {}", p.at))
                .unwrap_or_default(),
            t.attacked,
            t.attacks
        );
        self.s.turn = Some(t);
        self.happen(picture::battle(h, self.side, &[&from], &to));
        accepted(line, said)
    }
}

impl Step<'_> {
    /// `naval N subs from S1 to S2`, `bombard N subs from S to L [hits: …]`, `antisub N bombers
    /// from L to S`.
    pub(super) fn strike(
        &mut self,
        line: usize,
        word: &str,
        rest: &str,
        mut t: TurnState,
    ) -> Reply {
        let (order, hits) = match rest.split_once("hits") {
            Some((o, h)) => (o.trim(), h.trim_start_matches([':', ' '])),
            None => (rest, ""),
        };
        let (want, example) = match word {
            "antisub" => (Unit::Bomber, "antisub 2 bombers from alaska to bering-sea"),
            "bombard" => (
                Unit::Sub,
                "bombard 2 subs from caribbean-sea to caribe hits: tanks",
            ),
            _ => (
                Unit::Sub,
                "naval 2 subs from caribbean-sea to central-atlantic",
            ),
        };
        let parsed = split_move(order).and_then(|(spec, from, to)| {
            let w: Vec<&str> = spec.split_whitespace().collect();
            match w.as_slice() {
                [n, u] if Unit::parse(u) == Some(want) => {
                    n.parse::<u32>().ok().map(|n| (n, from, to))
                }
                [u] if Unit::parse(u) == Some(want) => Some((1, from, to)),
                _ => None,
            }
        });
        let Some((n, from, to)) = parsed else {
            return refused(
                line,
                format!("`{word} {rest}` is not of the form {example}"),
                "docs/strategy.md",
                example,
            );
        };
        let priority = match combat::parse_priority(hits) {
            Ok(p) => p,
            Err(e) => return no(line, e),
        };
        let k = naval::Strike {
            n,
            from: &from,
            to: &to,
        };
        let r = match word {
            "naval" => naval::naval(self.s, self.side, &t, &k, self.dice),
            "bombard" => naval::bombard(self.s, self.side, &t, &k, &priority, self.dice),
            _ => naval::antisub(self.s, self.side, &t, &k, self.dice),
        };
        match r {
            Ok(h) => {
                t.stage = Stage::Combat;
                t.attacked += 1;
                made(self.s, self.side, &mut t, &from, &to);
                let said = format!(
                    "{word} {n} {} from {from} to {to} ({} of {} attacks)",
                    want.word(n),
                    t.attacked,
                    t.attacks
                );
                self.s.turn = Some(t);
                self.happen(picture::battle(h, self.side, &[&from], &to));
                accepted(line, said)
            }
            Err(e) => no(line, e),
        }
    }

    /// `sgancia-robot 2 robots from A, 1 robot from B to C`: 1 CP, robots of several areas
    /// dropped on any enemy land area, fought as a land battle, never retreating (001 "Sgancia
    /// Robot"; ruling R320).
    pub(super) fn robot_drop(&mut self, line: usize, rest: &str, mut t: TurnState) -> Reply {
        let rule = "001 'Sgancia Robot'";
        let example = "sgancia-robot 2 robots from hudson, 1 robot from yukon to caribe";
        if let Err(n) = powers::ready(self.s, self.side, "sgancia-robot") {
            return no(line, n);
        }
        let Some((froms, to)) = rest.rsplit_once(" to ") else {
            return refused(line, "the drop names its target", rule, example);
        };
        let to = to.trim().to_string();
        let mut drop: Vec<(String, u32)> = Vec::new();
        for part in froms.split(',') {
            let Some((spec, from)) = part.rsplit_once(" from ") else {
                return refused(
                    line,
                    format!("`{}` names no origin", part.trim()),
                    rule,
                    example,
                );
            };
            let from = from.trim().to_string();
            let u = match turn::parse_units(spec, self.s, &from, false) {
                Ok(u) => u,
                Err(n) => return no(line, n),
            };
            if u.keys().any(|k| *k != Unit::Robot) {
                return refused(line, "only robots are dropped", rule, example);
            }
            if let Err(n) = turn::check_units(self.s, self.side, &from, &u, false) {
                return no(line, n);
            }
            if drop.iter().any(|(a, _)| *a == from) {
                return refused(line, format!("`{from}` is named twice"), rule, example);
            }
            drop.push((from, u.values().sum()));
        }
        if !self.s.map.is_land(&to) {
            return refused(line, format!("`{to}` is no land area"), rule, example);
        }
        if let Err(n) = naval::check_common(self.s, self.side, &t, "sgancia-robot", &to) {
            return no(line, n);
        }
        let total: u32 = drop.iter().map(|(_, n)| *n).sum();
        let o = combat::Order {
            units: [(Unit::Robot, total)].into_iter().collect(),
            from: "the air",
            to: &to,
            amphibious: false,
            priority: combat::DEFAULT_PRIORITY.to_vec(),
            power: None,
            drop,
            retreat: None,
        };
        // ask (R351), as on `attack`.
        if let Some(r) = self.ask_pause(line, &o) {
            return r;
        }
        self.s.powers_used.insert(self.side.to_string());
        let h = combat::fight(self.s, self.side, &o, self.dice);
        t.stage = Stage::Combat;
        t.attacked += 1;
        made(self.s, self.side, &mut t, "sgancia-robot", &to);
        let said = format!(
            "sgancia-robot: {total} robot{} dropped on {to} ({} of {} attacks)",
            if total == 1 { "" } else { "s" },
            t.attacked,
            t.attacks
        );
        self.s.turn = Some(t);
        let froms: Vec<&str> = o.drop.iter().map(|(f, _)| f.as_str()).collect();
        let h = picture::battle(h, self.side, &froms, &to);
        self.happen(h);
        accepted(line, said)
    }
}

/// The attack kinds other than `attack`/`amphibious attack` whose lines may end with a
/// condition (ruling R350): each is an attack of the turn, 1 CP, like those (001 "Attacchi via
/// mare", "Lotta ai Sottomarini", "Attacchi navali", "Sgancia Robot", "Missili Balistici").
pub(super) const GATED: [&str; 7] = [
    "naval",
    "bombard",
    "antisub",
    "sgancia-robot",
    "drop",
    "missili-balistici",
    "missiles",
];

/// Cuts `if COND` off one of the [`GATED`] lines (before or after its `hits:`) and checks it
/// against the line's target (`… to AREA`, or `at AREA` for missiles): `Ok(the line without
/// it)` when there is none or it holds; `Err(the reply)`: skipped as on `attack` (R329), or
/// refused when the condition cannot be read.
pub(super) fn gate(s: &State, t: &TurnState, line: usize, rest: &str) -> Result<String, Reply> {
    let (order, cond) = cut(rest, " if ", &[" hits"]);
    let Some(c) = cond else {
        return Ok(order);
    };
    let head = order.split_once("hits").map_or(order.as_str(), |(o, _)| o);
    let to = match head.rsplit_once(" to ") {
        Some((_, to)) => to.trim(),
        None => head.trim().trim_start_matches("at ").trim(),
    };
    match condition(s, t, to, &c) {
        Ok(None) => Ok(order),
        Ok(Some(why)) => Err(accepted(
            line,
            format!("skipped, not attacked: {why} (no CP spent)"),
        )),
        Err(n) => Err(no(line, n)),
    }
}

/// Cuts the clause that starts at `key` (up to the next of `stops`, or the end) out of `text`:
/// (the text without it, the clause).
fn cut(text: &str, key: &str, stops: &[&str]) -> (String, Option<String>) {
    let Some(i) = text.find(key) else {
        return (text.to_string(), None);
    };
    let after = &text[i + key.len()..];
    let end = stops
        .iter()
        .filter_map(|s| after.find(s))
        .min()
        .unwrap_or(after.len());
    (
        format!("{}{}", &text[..i], &after[end..]),
        Some(after[..end].trim().to_string()),
    )
}

/// Records an attack made: its key for the repeat rule and whether no enemy is left in its
/// target (a taken area, or one emptied).
pub(super) fn made(s: &State, side: &str, t: &mut TurnState, from: &str, to: &str) {
    t.attacks_made.push((from.to_string(), to.to_string()));
    t.won.push(s.owner(to).is_none_or(|o| o == side));
}

/// An attack's condition (digest 001 §10.2 "only if attack #2 won", "skip if target has > n
/// units"; ruling R329): `attack N won`, `attack N lost`, `at most N defenders`. `Ok(None)`:
/// it holds; `Ok(Some(why))`: it does not, and the line is skipped.
fn condition(s: &State, t: &TurnState, to: &str, c: &str) -> Result<Option<String>, No> {
    let w: Vec<&str> = c.split_whitespace().collect();
    let example = "attack 2 tanks from A to B if attack 1 won";
    match w.as_slice() {
        ["attack", n, how @ ("won" | "lost")] => {
            let Some(n) = n.parse::<usize>().ok().filter(|n| *n >= 1) else {
                return Err(model::no(
                    format!("`{n}` is not the number of an attack"),
                    "digest 001 §10.2 (ruling R329)",
                    example,
                ));
            };
            let won = t.won.get(n - 1).copied();
            let holds = match (won, *how) {
                (None, _) => false,
                (Some(w), "won") => w,
                (Some(w), _) => !w,
            };
            Ok((!holds).then(|| match won {
                None => format!("there was no attack {n} this turn"),
                Some(_) => format!("attack {n} was not {how}"),
            }))
        }
        ["at", "most", n, "defender" | "defenders" | "units" | "unit"] => {
            let Ok(n) = n.parse::<u32>() else {
                return Err(model::no(
                    format!("`{n}` is not a number"),
                    "digest 001 §10.2 (ruling R329)",
                    "… if at most 3 defenders",
                ));
            };
            let have = s.holding(to).count();
            Ok((have > n).then(|| format!("{to} holds {have}, more than {n}")))
        }
        _ => Err(model::no(
            format!("`if {c}` is no condition: attack N won, attack N lost, at most N defenders"),
            "digest 001 §10.2 (ruling R329)",
            example,
        )),
    }
}
