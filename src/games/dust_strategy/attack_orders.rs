//! The attack orders of a turn (`attack`, `amphibious attack`, `naval`, `bombard`, `antisub`):
//! parsed here, checked and fought by combat.rs and naval.rs.

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
        if power.is_some() {
            self.s.powers_used.insert(self.side.to_string());
        }
        let h = combat::fight(self.s, self.side, &o, self.dice);
        t.stage = Stage::Combat;
        t.attacked += 1;
        t.attacks_made.push((from.clone(), to.clone()));
        let said = format!(
            "{}attack {} from {from} to {to}{} ({} of {} attacks)",
            if amphibious { "amphibious " } else { "" },
            units_text(&o.units),
            power.map(|p| format!(" with {p}")).unwrap_or_default(),
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
                t.attacks_made.push((from.clone(), to.clone()));
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
        };
        self.s.powers_used.insert(self.side.to_string());
        let h = combat::fight(self.s, self.side, &o, self.dice);
        t.stage = Stage::Combat;
        t.attacked += 1;
        t.attacks_made.push(("sgancia-robot".into(), to.clone()));
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
