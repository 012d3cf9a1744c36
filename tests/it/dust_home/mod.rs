//! A referee home with a real Dust Tactics game, real keys and real mails, for the control,
//! team and scripted-game tests.
#![allow(dead_code)]

use crate::support::{real_mail, t, Sink};
use dustmail::config::{Config, Home};
use dustmail::dust_tactics::{cards, scenario, DustTactics};
use dustmail::game::{DiceSource, Line, Setup};
use dustmail::ledger::{Entry, Player};
use dustmail::referee::{self, Ctx, Edges, NewGame, RunSummary};
use dustmail::report::Templates;
use ed25519_dalek::SigningKey;

/// A die that always shows 4 (a miss): what a player assumes when guessing what comes next.
pub struct Pessimist;
impl DiceSource for Pessimist {
    fn d6(&mut self, _round: u32) -> u8 {
        4
    }
}

pub struct Seat {
    pub side: String,
    pub address: String,
    pub key: SigningKey,
    pub seq: u64,
    pub units: Option<Vec<String>>,
    pub sent_standing: bool,
}

pub struct Table {
    pub _dir: tempfile::TempDir,
    pub home: Home,
    pub config: Config,
    pub templates: Templates,
    pub edges: Edges,
    pub sink: Sink,
    /// The referee's key.
    pub key: SigningKey,
    pub seats: Vec<Seat>,
    pub id: String,
}

impl Table {
    pub fn ctx(&self, now: chrono::DateTime<chrono::Utc>) -> Ctx<'_> {
        Ctx {
            games: dustmail::cli::registry(),
            home: &self.home,
            config: &self.config,
            templates: &self.templates,
            edges: &self.edges,
            sink: &self.sink,
            key: &self.key,
            now,
        }
    }

    /// A game of `scenario_file` with these (side, address) seats; units from the scenario's
    /// `player` fields, as `dustmail new` assigns them.
    pub fn new(scenario_file: &str, seats: &[(&str, &str)]) -> Table {
        Table::with_config(
            scenario_file,
            seats,
            Config::new("referee@example.org", "file").unwrap(),
        )
    }

    /// As `new`, the game made under this referee configuration (e.g. `digest`).
    pub fn with_config(scenario_file: &str, seats: &[(&str, &str)], config: Config) -> Table {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::new(dir.path().join("home"));
        home.create_dirs().unwrap();
        let text = std::fs::read_to_string(scenario_file).unwrap();
        let name = std::path::Path::new(scenario_file)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let parsed = scenario::parse(&name, &text).unwrap();
        let seats: Vec<Seat> = seats
            .iter()
            .enumerate()
            .map(|(i, (side, address))| Seat {
                side: side.to_string(),
                address: address.to_string(),
                key: SigningKey::from_bytes(&[i as u8 + 11; 32]),
                seq: 0,
                units: None,
                sent_standing: false,
            })
            .collect();
        let players: Vec<Player> = seats
            .iter()
            .map(|s| Player {
                side: s.side.clone(),
                address: s.address.clone(),
                public_key: dustmail::crypto::public_key_text(&s.key.verifying_key()),
            })
            .collect();
        let assignments = dustmail::cli::team_assignments(
            &dustmail::dust_tactics::new_game::team_units(&parsed),
            &players,
            &[],
        )
        .unwrap();
        let mut table = Table {
            _dir: dir,
            home,
            config,
            templates: Templates::new(None).unwrap(),
            edges: Edges::real(),
            sink: Sink::default(),
            key: SigningKey::from_bytes(&[9u8; 32]),
            seats,
            id: String::new(),
        };
        table.id = referee::create_team_game(
            &table.ctx(t("2026-03-01T09:00:00Z")),
            NewGame {
                game: "dust-tactics".into(),
                setup: Setup {
                    ruleset: "ffg-revised".into(),
                    scenario_name: name,
                    scenario: text,
                    cards: cards::builtin()
                        .into_iter()
                        .map(|(f, t)| (f.to_string(), t.to_string()))
                        .collect(),
                    sides: parsed.sides.iter().map(|s| s.id.clone()).collect(),
                    rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
                },
                players: players.clone(),
                seed: [7u8; 32],
                id: Some("g-script".into()),
                max_rounds: parsed.rounds + 1,
            },
            assignments.clone(),
        )
        .unwrap();
        for (seat, p) in table.seats.iter_mut().zip(&players) {
            let team = players.iter().filter(|q| q.side == p.side).count() > 1;
            if team {
                seat.units = Some(
                    assignments
                        .iter()
                        .filter(|(_, a)| **a == p.address)
                        .map(|(u, _)| u.clone())
                        .collect(),
                );
            }
        }
        table
    }
}

/// The unit a command line names, if the command belongs to one unit.
pub fn unit_of(command: &str) -> Option<String> {
    let mut w = command.split_whitespace();
    match (w.next(), w.next()) {
        (Some("activate" | "react" | "casualties"), Some(u)) if u != "none" => {
            Some(u.trim_end_matches(':').to_string())
        }
        _ => None,
    }
}

pub fn lines(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect()
}

impl Table {
    /// The seat with this address.
    pub fn seat(&self, address: &str) -> usize {
        self.seats
            .iter()
            .position(|s| s.address == address)
            .expect("a seat with that address")
    }

    /// Drops a mail signed by the seat `address` with its next seq (or `seq`), the orders
    /// `commands`; returns the seq used.
    pub fn mail(&mut self, address: &str, commands: &str, seq: Option<u64>) -> u64 {
        let i = self.seat(address);
        let s = &mut self.seats[i];
        let seq = seq.unwrap_or(s.seq + 1);
        s.seq = s.seq.max(seq);
        let orders = format!(
            "game: {}\nside: {}\nseq: {seq}\n\n{commands}\n",
            self.id, s.side
        );
        let mail = real_mail(address, &format!("<{address}-{seq}@x>"), &s.key, &orders);
        self.drop(&format!("{address}-{seq}.eml"), &mail);
        seq
    }

    /// Drops a mail signed with `key` for `side` (a stranger, the referee).
    pub fn mail_as(&self, from: &str, key: &SigningKey, side: &str, seq: u64, commands: &str) {
        let orders = format!(
            "game: {}\nside: {side}\nseq: {seq}\n\n{commands}\n",
            self.id
        );
        let mail = real_mail(from, &format!("<{from}-{side}-{seq}@x>"), key, &orders);
        self.drop(&format!("{from}-{side}-{seq}.eml"), &mail);
    }

    pub fn drop(&self, name: &str, text: &str) {
        std::fs::write(self.home.maildir().join("new").join(name), text).unwrap();
    }

    pub fn run(&self, now: &str) -> RunSummary {
        referee::run(&self.ctx(t(now)), &self.home.maildir()).unwrap()
    }

    pub fn entries(&self) -> Vec<Entry> {
        dustmail::ledger::read_all(&self.home.game_dir(&self.id).join("log.jsonl")).unwrap()
    }

    pub fn loaded(&self) -> referee::Loaded {
        referee::load_game(&DustTactics, &self.edges, &self.home, &self.id).unwrap()
    }

    /// Replay with the secret and an auditor's replay of the log alone both pass.
    pub fn verify(&self) {
        referee::replay_game(&DustTactics, &self.edges, &self.home, &self.id).unwrap();
        let data = std::fs::read(self.home.game_dir(&self.id).join("log.jsonl")).unwrap();
        referee::replay_bytes(
            &DustTactics,
            &self.edges,
            "log.jsonl",
            &data,
            referee::DiceMode::Recorded,
        )
        .unwrap();
    }

    /// The text of every mail queued so far whose id contains `part`, to `to`.
    pub fn texts(&self, part: &str, to: &str) -> Vec<String> {
        self.sink
            .matching(part)
            .into_iter()
            .filter(|(_, m)| m.to.iter().any(|a| a == to))
            .map(|(_, m)| m.text)
            .collect()
    }
}
