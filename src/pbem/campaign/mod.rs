//! Campaigns (DESIGN §6): many games under one organiser, with a hash-chained ledger of their
//! own, `campaigns/<id>/log.jsonl`, in the game ledger's line format (`seq`, `prev`, `kind`, the
//! referee's `referee_sig` last). Its `created` line names the players, their keys and the
//! campaign's rules; `game_opened` lines name each game it opens (and what carried over into
//! it), `game_ended` lines each game's final ledger head and result, and `finished` the final
//! standings. Everything a report or an audit says is derived from these lines only
//! ([`state`]); [`audit`] checks the campaign and every game in it.

pub mod absence;
pub mod audit;
pub mod forces;
pub mod state;
pub mod strategic;
pub mod told;

use crate::game::{ForceCard, ForceUnit, GameResult};
use crate::ledger::{
    line_sig_text, sha256_hex, split_referee_sig, LineSigner, SIG_MEMBER, ZERO_HASH,
};
use ed25519_dalek::SigningKey;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The folder of a home that holds the campaigns.
pub const CAMPAIGNS_DIR: &str = "campaigns";

/// The kinds of campaign (docs/campaigns.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Every pairing of the players over every scenario, all games open at once.
    League,
    /// The scenarios one after the other: the next opens when the last ends.
    Chain,
    /// One game (a `dust-strategy` map) whose battles between players are fought as games of
    /// their own ([`strategic`]).
    Strategic,
}

/// What carries from one game of a campaign to the next.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarryOver {
    /// Each player's victory points so far, from the recorded results, are recorded in the next
    /// game's `game_opened` line and count in the standings.
    #[serde(default)]
    pub points: bool,
    /// A unit (not a hero) destroyed in a game is gone from its player's roster for the rest of
    /// the campaign: only survivors carry over. Needs `[forces]`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub units: bool,
    /// The same for heroes; when false a hero destroyed in one game is back in the next.
    #[serde(default, skip_serializing_if = "is_false")]
    pub heroes: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Forces chosen by the players: before each game (of a chain, or each pairing of a league)
/// both players mail a signed choice of units from their side's roster, within the AP
/// allowance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forces {
    /// The most army points a force may cost.
    pub ap: u32,
    /// Side → unit id → card: the units each side's player may field over the campaign.
    pub roster: BTreeMap<String, BTreeMap<String, String>>,
    /// Hours a player has to choose, from the moment the game is due (the campaign's creation
    /// or the end of the game before); then the referee records the default force. 0: no
    /// deadline.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deadline_hours: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How the standings score a game: points for a win, a draw and a loss.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    #[serde(default = "three")]
    pub win: u32,
    #[serde(default = "one")]
    pub draw: u32,
    #[serde(default)]
    pub loss: u32,
}

fn three() -> u32 {
    3
}
fn one() -> u32 {
    1
}

impl Default for Scoring {
    fn default() -> Scoring {
        Scoring {
            win: 3,
            draw: 1,
            loss: 0,
        }
    }
}

fn default_game() -> String {
    "dust-tactics".into()
}

fn default_sides() -> Vec<String> {
    vec!["allies".into(), "axis".into()]
}

/// The campaign's rules, from the organiser's TOML file (docs/campaigns.md), recorded in the
/// `created` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub kind: Kind,
    #[serde(default = "default_game")]
    pub game: String,
    /// `None`: the game's default ruleset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// Built-in scenario names, in order.
    pub scenarios: Vec<String>,
    /// The scenarios' two sides: a chain gives the N-th player the N-th side; a league gives
    /// the first of a pairing the first side in odd-numbered scenarios, the second in the others.
    #[serde(default = "default_sides")]
    pub sides: Vec<String>,
    #[serde(default)]
    pub carry_over: CarryOver,
    #[serde(default)]
    pub scoring: Scoring,
    /// `None`: every game fields the scenario's own forces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forces: Option<Forces>,
    /// A strategic campaign's battles (`kind = "strategic"` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategic: Option<strategic::Strategic>,
}

impl Rules {
    /// Reads and checks a rules file, with errors that say what to write instead.
    pub fn parse(text: &str) -> Result<Rules, CampaignError> {
        let mut r: Rules = toml::from_str(text).map_err(|e| {
            CampaignError::Usage(format!(
                "the campaign rules are not valid ({e}); write e.g. kind = \"league\", scenarios = [\"skirmish\"] (docs/campaigns.md)"
            ))
        })?;
        if r.scenarios.is_empty() {
            return Err(CampaignError::Usage(
                "the campaign rules list no scenario: write scenarios = [\"skirmish\", …]".into(),
            ));
        }
        if r.kind == Kind::Strategic {
            // The strategic game's sides are its players' colours, 2 to 6 (its own check).
            strategic::check_rules(&mut r)?;
            return Ok(r);
        }
        if r.strategic.is_some() {
            return Err(CampaignError::Usage(
                "[strategic] is for kind = \"strategic\": remove it or change the kind".into(),
            ));
        }
        if r.sides.len() != 2 || r.sides[0] == r.sides[1] {
            return Err(CampaignError::Usage(
                "the campaign rules need exactly two different sides, e.g. sides = [\"allies\", \"axis\"]".into(),
            ));
        }
        forces::check_rules(&r)?;
        Ok(r)
    }
}

/// A player of the campaign: a name (used in standings), an address and a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignPlayer {
    pub name: String,
    pub address: String,
    pub public_key: String,
}

/// The first line of a campaign ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    pub engine_version: String,
    pub campaign_id: String,
    pub rules: Rules,
    pub players: Vec<CampaignPlayer>,
    pub referee_address: String,
    pub referee_public_key: String,
    /// Hex SHA-256("dustmail/campaign/v1" ‖ S): the campaign secret every game seed comes from.
    pub commitment: String,
    pub created_at: String,
    /// Card → its AP and kind, for every card of the `[forces]` roster (from the game's cards
    /// when the campaign was made; `audit` checks them against each game's cards).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub force_cards: BTreeMap<String, ForceCard>,
}

/// A game the campaign opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOpened {
    pub game_id: String,
    /// 1-based number of the game in the campaign's plan ([`state::plan`]).
    pub number: u32,
    pub scenario: String,
    /// Side → player name.
    pub sides: BTreeMap<String, String>,
    /// Hex hash of the game ledger's `created` line.
    pub game_head: String,
    /// Player name → campaign points carried into this game (empty unless the rules carry
    /// points); follows from the `game_ended` lines before it, which `audit` re-checks.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub carried: BTreeMap<String, u32>,
    /// Side → the force it fields, as its player chose it (`force_chosen` lines); empty unless
    /// the rules have `[forces]`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub forces: BTreeMap<String, Vec<ForceUnit>>,
    /// A strategic campaign's battle game: the battle of the strategic game it fights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<strategic::BattleRef>,
    pub at: String,
}

/// A game of the campaign that ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnded {
    pub game_id: String,
    /// The game ledger's `finished` line: its seq and hex hash (not `seq`/`head`: those
    /// are the campaign line's own).
    pub final_seq: u64,
    pub final_head: String,
    pub result: GameResult,
    /// Side → its units destroyed by the game's end (from the game's final state; `audit`
    /// replays the game and checks it); empty unless the rules have `[forces]`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub lost: BTreeMap<String, Vec<String>>,
    pub at: String,
}

/// A player's signed choice of force for a game not yet open (sealed: only the referee and the
/// player see it until the game opens with both forces).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForceChosen {
    pub game_id: String,
    pub number: u32,
    pub player: String,
    pub side: String,
    pub units: Vec<ForceUnit>,
    /// Their total army points.
    pub ap: u32,
    /// The signed block as received (§4 canonical text and base64 signature); empty for a
    /// default.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub canonical: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub signature: String,
    /// Recorded by the referee when the deadline passed without a choice: the default force
    /// ([`state::Campaign::default_force`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub default: bool,
    pub at: String,
}

/// The campaign's end, with its final standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finished {
    pub standings: Vec<state::Standing>,
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    Created(Box<Created>),
    GameOpened(GameOpened),
    GameEnded(GameEnded),
    ForceChosen(ForceChosen),
    PlayerReplaced(PlayerReplaced),
    PlayerAbsent(absence::PlayerAbsent),
    Finished(Finished),
}

/// A player of the campaign replaced (a lost key, a new address, or someone else taking over):
/// the campaign's games from now on, and its open games by a `replace-key` control, are played
/// with this address and key under the same name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerReplaced {
    pub player: String,
    pub address: String,
    pub public_key: String,
    pub at: String,
}

/// One line of a campaign ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seq: u64,
    pub prev: String,
    #[serde(flatten)]
    pub event: Event,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee_sig: Option<String>,
}

/// Errors of campaigns; `Verify` names the file and line.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Verify(String),
    #[error("{0}")]
    Io(String),
}

impl From<CampaignError> for crate::pbem::error::RefereeError {
    fn from(e: CampaignError) -> Self {
        use crate::pbem::error::RefereeError as R;
        match e {
            CampaignError::Usage(m) => R::Usage(m),
            CampaignError::Verify(m) => R::Verify(m),
            CampaignError::Io(m) => R::Io(m),
        }
    }
}

/// Whether a campaign id is usable (as a game id: it prefixes its games' ids).
pub fn valid_id(id: &str) -> bool {
    (1..=48).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The id of the campaign's N-th game.
pub fn game_id(campaign: &str, number: u32) -> String {
    format!("{campaign}-{number}")
}

/// The number N of the campaign's game `ID-N`.
pub fn game_number(campaign: &str, game: &str) -> Option<u32> {
    game.strip_prefix(campaign)?.strip_prefix('-')?.parse().ok()
}

/// The commitment to the campaign secret S.
pub fn commitment(secret: &[u8; 32]) -> String {
    hex::encode(
        Sha256::new_with_prefix(b"dustmail/campaign/v1")
            .chain_update(secret)
            .finalize(),
    )
}

/// The seed of a game the campaign opens: only the referee, who holds S, knows it before the
/// game reveals it at its end; a game's revealed seed tells nothing of the others'.
pub fn game_seed(secret: &[u8; 32], game_id: &str) -> [u8; 32] {
    Sha256::new_with_prefix(b"dustmail/campaign/game-seed/v1")
        .chain_update(secret)
        .chain_update(game_id.as_bytes())
        .finalize()
        .into()
}

/// The campaign ledger's path under a campaign folder.
pub fn log_path(dir: &Path) -> PathBuf {
    dir.join(crate::ledger::LOG_FILE)
}

/// Parses a campaign ledger: every line parses, `seq` is its line number, `prev` the hash of
/// the previous line, line 1 is `created`. `file` names it in errors. Returns each entry with
/// the hex hash of its line.
pub fn parse_log(file: &str, data: &[u8]) -> Result<Vec<(Entry, String)>, CampaignError> {
    let bad = |n: usize, msg: &str| CampaignError::Verify(format!("{file} line {n}: {msg}"));
    if data.is_empty() {
        return Err(CampaignError::Verify(format!(
            "{file} is empty: a campaign ledger starts with its `created` line"
        )));
    }
    let mut out = Vec::new();
    let mut prev = ZERO_HASH.to_string();
    let mut rest = data;
    let mut n = 0;
    while !rest.is_empty() {
        n += 1;
        let Some(i) = rest.iter().position(|&b| b == b'\n') else {
            return Err(bad(n, "the last line is torn (no newline at its end)"));
        };
        let line = &rest[..i];
        rest = &rest[i + 1..];
        let e: Entry = serde_json::from_slice(line).map_err(|e| {
            bad(
                n,
                &format!("not a valid campaign ledger line ({e}): the line was altered or damaged"),
            )
        })?;
        if e.seq != n as u64 {
            return Err(bad(
                n,
                &format!("seq is {}: lines were removed, added or reordered", e.seq),
            ));
        }
        if e.prev != prev {
            return Err(bad(n, "prev hash does not match the line before"));
        }
        match (&e.event, n) {
            (Event::Created(_), 1) => {}
            (Event::Created(_), _) => return Err(bad(n, "a second `created` line")),
            (_, 1) => return Err(bad(n, "the first line is not `created`")),
            _ => {}
        }
        prev = sha256_hex(line);
        out.push((e, prev.clone()));
    }
    Ok(out)
}

/// Checks the referee's signature on every line of a signed ledger (a campaign's, or a v2
/// game's), with the `referee_public_key` of its first line, before its chain: a changed byte
/// is named at its own line, not at the next line whose `prev` no longer matches.
pub fn check_signatures(
    file: &str,
    data: &[u8],
    verify_text: fn(&str, &str, &str) -> Result<(), String>,
) -> Result<(), CampaignError> {
    let bad = |n: usize, msg: &str| CampaignError::Verify(format!("{file} line {n}: {msg}"));
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    let first = body.split(|&b| b == b'\n').next().unwrap_or_default();
    let key = serde_json::from_slice::<serde_json::Value>(first)
        .ok()
        .and_then(|v| v.get("referee_public_key")?.as_str().map(str::to_string))
        .ok_or_else(|| {
            bad(
                1,
                "not a `created` line with the referee's public key: the line was altered or damaged",
            )
        })?;
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        let text = std::str::from_utf8(line).map_err(|_| bad(n, "the line is not UTF-8"))?;
        let (unsigned, sig) = split_referee_sig(text).ok_or_else(|| {
            bad(
                n,
                "the line carries no referee signature (`referee_sig`, its last member): it was made or changed by someone else",
            )
        })?;
        verify_text(&key, &line_sig_text(&unsigned), sig).map_err(|e| {
            bad(
                n,
                &format!(
                    "the referee's signature over the line does not verify ({e}): the line was made or changed by someone without the referee's key"
                ),
            )
        })?;
    }
    Ok(())
}

/// An open campaign ledger, ready to append signed lines (each fsync'ed: campaign lines are
/// few, and a game's end must not be lost once recorded).
pub struct Log {
    path: PathBuf,
    pub seq: u64,
    pub head: String,
    signer: (SigningKey, LineSigner),
}

impl Log {
    /// Reads and checks the chain of `dir`'s ledger (not the signatures: the referee's own).
    pub fn open(
        dir: &Path,
        key: SigningKey,
        sign: LineSigner,
    ) -> Result<(Log, Vec<(Entry, String)>), CampaignError> {
        let path = log_path(dir);
        let data = std::fs::read(&path)
            .map_err(|e| CampaignError::Io(format!("cannot read {}: {e}", path.display())))?;
        let entries = parse_log(&path.display().to_string(), &data)?;
        let (seq, head) = entries
            .last()
            .map(|(e, h)| (e.seq, h.clone()))
            .unwrap_or((0, ZERO_HASH.into()));
        let log = Log {
            path,
            seq,
            head,
            signer: (key, sign),
        };
        Ok((log, entries))
    }

    /// Creates `dir/log.jsonl` with its `created` line.
    pub fn create(
        dir: &Path,
        created: Created,
        key: SigningKey,
        sign: LineSigner,
    ) -> Result<Log, CampaignError> {
        let path = log_path(dir);
        if path.exists() {
            return Err(CampaignError::Usage(format!(
                "{} already exists: choose another campaign id",
                path.display()
            )));
        }
        let mut log = Log {
            path,
            seq: 0,
            head: ZERO_HASH.into(),
            signer: (key, sign),
        };
        log.append(Event::Created(Box::new(created)))?;
        Ok(log)
    }

    /// Appends one signed line and fsyncs it.
    pub fn append(&mut self, event: Event) -> Result<(), CampaignError> {
        let entry = Entry {
            seq: self.seq + 1,
            prev: self.head.clone(),
            event,
            referee_sig: None,
        };
        let mut line = serde_json::to_string(&entry)
            .map_err(|e| CampaignError::Io(format!("cannot serialise a campaign line: {e}")))?;
        let (key, sign) = &self.signer;
        let sig = sign(key, &line_sig_text(&line));
        line.pop();
        line.push_str(&format!("{SIG_MEMBER}{sig}\"}}"));
        let io = |e: std::io::Error| CampaignError::Io(format!("{}: {e}", self.path.display()));
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(io)?;
        f.write_all(format!("{line}\n").as_bytes()).map_err(io)?;
        f.sync_all().map_err(io)?;
        self.seq = entry.seq;
        self.head = sha256_hex(line.as_bytes());
        Ok(())
    }
}
