//! Replay (DESIGN §5): a game re-derived from its ledger, every die, key, signature and state
//! digest checked; the derived state the pipeline keeps.

use crate::game::{Audience, CommandOutcome, DiceSource, GameResult, Outcome, Sender};
use crate::ledger::{
    self, sha256_hex, state_digest, Created, Draw, DrawKind, Entry, Event, Head, Player, Step,
};
use crate::pbem::{control::*, edges::*, error::*, lines::*};
use crate::registry::{AnyGame, AnyState};
use crate::seed::{Key, Keying, SecretKeys, SeededDice};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::BTreeMap;

/// K_r of the chain (r = 0 is the commitment); see `crate::seed`.
pub fn chain_key(secret: &Key, max_rounds: u32, r: u32) -> Key {
    crate::seed::round_key(secret, max_rounds, r)
}

pub(crate) fn parse_key(hex_text: &str) -> Option<Key> {
    let v = hex::decode(hex_text.trim()).ok()?;
    v.try_into().ok()
}

/// Records every die a game draws.
pub(crate) struct Recording<'a> {
    inner: &'a mut dyn DiceSource,
    draws: Vec<Draw>,
}

impl DiceSource for Recording<'_> {
    fn d6(&mut self, round: u32) -> u8 {
        let face = self.inner.d6(round);
        self.draws.push(Draw::d6(round, face));
        face
    }
    fn uniform(&mut self, round: u32, n: u32) -> u32 {
        let value = self.inner.uniform(round, n);
        self.draws.push(Draw::uniform(round, n, value));
        value
    }
    fn hidden(&mut self, audience: &Audience, n: u32) -> u32 {
        let value = self.inner.hidden(audience, n);
        self.draws.push(Draw::hidden(audience.clone(), n, value));
        value
    }
}

/// Replays recorded draws (an auditor without the secret); notes the first disagreement.
pub(crate) struct Replayed<'a> {
    draws: &'a [Draw],
    pos: usize,
    mismatch: Option<String>,
}

impl Replayed<'_> {
    /// The next recorded value if it is `want` (kind, round, bound, audience) and in range.
    fn next(&mut self, want: &Draw) -> Option<u32> {
        let d = self.draws.get(self.pos).cloned();
        self.pos += 1;
        let Some(d) = d else {
            self.mismatch.get_or_insert(format!(
                "the game drew more values than the {} recorded",
                self.draws.len()
            ));
            return None;
        };
        let same = d.kind == want.kind
            && d.round == want.round
            && d.bound == want.bound
            && d.audience == want.audience;
        match d.value {
            Some(v) if same && want.bound.is_some_and(|n| v < n) => Some(v),
            _ => {
                self.mismatch.get_or_insert(format!(
                    "draw {} was recorded as {:?} below {:?} (round {}) but the game drew {:?} below {:?} (round {})",
                    self.pos, d.kind, d.bound, d.round, want.kind, want.bound, want.round
                ));
                None
            }
        }
    }
}

impl DiceSource for Replayed<'_> {
    fn uniform(&mut self, round: u32, n: u32) -> u32 {
        self.next(&Draw::uniform(round, n, 0)).unwrap_or(0)
    }
    fn hidden(&mut self, audience: &Audience, n: u32) -> u32 {
        self.next(&Draw::hidden(audience.clone(), n, 0))
            .unwrap_or(0)
    }
    fn d6(&mut self, round: u32) -> u8 {
        let d = self.draws.get(self.pos).cloned();
        self.pos += 1;
        match d {
            Some(d) if d.kind == DrawKind::D6 && d.round == round && (1..=6).contains(&d.face) => {
                d.face
            }
            Some(d) if d.kind != DrawKind::D6 => {
                self.mismatch.get_or_insert(format!(
                    "draw {} was recorded as {:?} below {:?} but the game rolled a die",
                    self.pos, d.kind, d.bound
                ));
                1
            }
            Some(d) => {
                self.mismatch.get_or_insert(format!(
                    "die {} was recorded for round {} but the game rolled it for round {round}",
                    self.pos, d.round
                ));
                1
            }
            None => {
                self.mismatch.get_or_insert(format!(
                    "the game rolled more dice than the {} recorded",
                    self.draws.len()
                ));
                1
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Derived state and snapshots.

/// The state derived from a ledger, with what the pipeline needs to route and deduplicate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "S: Serialize", deserialize = "S: DeserializeOwned"))]
pub struct Derived<S> {
    pub head: Head,
    pub state: S,
    /// Side → last accepted seq.
    pub last_seq: BTreeMap<String, u64>,
    /// Mail sha256 → (block, ledger seq) of its recorded submissions (a constant-size filter in
    /// the snapshot: see [`crate::dedup`]).
    pub mails: crate::dedup::MailIndex,
    /// Time of the last step (deadlines count from it).
    pub last_step_at: String,
    pub revealed: BTreeMap<u32, String>,
    pub finished: Option<GameResult>,
    /// The players now (a `replace-key` control changes a key); empty: those of `created`.
    #[serde(default)]
    pub players: Vec<Player>,
    /// A referee `pause`: no deadline runs.
    #[serde(default)]
    pub paused: bool,
    /// Addresses that receive every report and can send nothing.
    #[serde(default)]
    pub observers: Vec<String>,
    /// Player key (see [`player_key`]) → end of their declared absence (RFC 3339).
    #[serde(default)]
    pub absent: BTreeMap<String, String>,
    /// Player key → the IANA time zone their mails show times in (`timezone NAME`); text only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub zones: BTreeMap<String, String>,
    /// v2 games: the game steps so far (the n of dice v2; 0 in v1 games).
    #[serde(default)]
    pub steps: u64,
}

impl<S> Derived<S> {
    /// What the `created` line alone derives: the game's first state, nothing played yet.
    pub fn start(head: Head, state: S, created: &Created) -> Derived<S> {
        Derived {
            head,
            state,
            last_seq: BTreeMap::new(),
            mails: Default::default(),
            last_step_at: created.created_at.clone(),
            revealed: BTreeMap::new(),
            finished: None,
            players: created.players.clone(),
            paused: false,
            observers: Vec::new(),
            absent: BTreeMap::new(),
            zones: BTreeMap::new(),
            steps: 0,
        }
    }

    /// A copy without the dedup index `mails`, which no mail about a step reads (every other
    /// field is copied: a new field must be listed here).
    pub(crate) fn without_mails(&self) -> Derived<S>
    where
        S: Clone,
    {
        Derived {
            head: self.head.clone(),
            state: self.state.clone(),
            last_seq: self.last_seq.clone(),
            mails: Default::default(),
            last_step_at: self.last_step_at.clone(),
            revealed: self.revealed.clone(),
            finished: self.finished.clone(),
            players: self.players.clone(),
            paused: self.paused,
            observers: self.observers.clone(),
            absent: self.absent.clone(),
            zones: self.zones.clone(),
            steps: self.steps,
        }
    }

    /// The same with another state (a snapshot's JSON state decoded by its game).
    pub fn with_state<T>(self, state: T) -> Derived<T> {
        Derived {
            head: self.head,
            state,
            last_seq: self.last_seq,
            mails: self.mails,
            last_step_at: self.last_step_at,
            revealed: self.revealed,
            finished: self.finished,
            players: self.players,
            paused: self.paused,
            observers: self.observers,
            absent: self.absent,
            zones: self.zones,
            steps: self.steps,
        }
    }

    /// The players now: `created`'s, with any replaced keys.
    pub fn players<'a>(&'a self, created: &'a Created) -> &'a [Player] {
        if self.players.is_empty() {
            &created.players
        } else {
            &self.players
        }
    }
}

/// The name a player's seq and absence are kept under: the side when it has one player, else
/// `side/address` (teams: each player counts their own seq).
pub fn player_key(players: &[Player], p: &Player) -> String {
    if players.iter().filter(|q| q.side == p.side).count() > 1 {
        format!("{}/{}", p.side, p.address)
    } else {
        p.side.clone()
    }
}

/// The side name of the referee's own signed mails.
pub const REFEREE_SIDE: &str = "referee";

/// How replay gets its dice.
pub enum DiceMode<'a> {
    /// The referee: dice from the secret S (and hidden values from H, when the game has one),
    /// compared with the recorded ones.
    Secret(&'a Key, Option<Key>),
    /// An auditor: the recorded dice are replayed; revealed rounds are recomputed and compared.
    Recorded,
}

pub(crate) fn mismatch(file: &str, line: u64, msg: impl std::fmt::Display) -> RefereeError {
    RefereeError::Verify(format!("{file} line {line}: {msg}"))
}

/// How a replayed step is compared with the recorded one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compare {
    /// Everything, words included: the game's rules revision is the one that recorded it.
    Exact,
    /// What was applied, not how it was worded: the ledger was recorded under an older rules
    /// revision, whose refusals and sentences later versions may word differently. The dice,
    /// the lines applied, the rolls, the rounds ended, the winner and points, and (checked
    /// apart) every state digest must still match.
    Applied,
}

impl Compare {
    pub(crate) fn for_game(game: &dyn AnyGame, created: &Created) -> Compare {
        if created.setup.rules_revision < game.rules_revision() {
            Compare::Applied
        } else {
            Compare::Exact
        }
    }
}

/// The lines whose command was applied.
fn applied_lines(s: &Step) -> Vec<usize> {
    s.results
        .iter()
        .filter(|r| matches!(r.outcome, CommandOutcome::Accepted { .. }))
        .map(|r| r.line)
        .collect()
}

/// The dice shown in a step's happenings, without their words.
fn roll_faces(s: &Step) -> Vec<(u32, Vec<u8>)> {
    s.rolls.iter().map(|r| (r.round, r.faces.clone())).collect()
}

pub(crate) fn compare_step(
    file: &str,
    line: u64,
    recorded: &Step,
    got: &Step,
    how: Compare,
) -> Result<(), RefereeError> {
    if how == Compare::Applied {
        if recorded.draws != got.draws {
            return Err(mismatch(
                file,
                line,
                format!(
                    "recorded dice {:?} differ from the dice the seed gives {:?}",
                    faces(&recorded.draws),
                    faces(&got.draws)
                ),
            ));
        }
        let what = if applied_lines(recorded) != applied_lines(got) {
            Some("applied commands")
        } else if roll_faces(recorded) != roll_faces(got) {
            Some("rolls")
        } else if recorded.rounds_ended != got.rounds_ended {
            Some("rounds ended")
        } else if recorded.finished.as_ref().map(|f| (&f.winner, &f.points))
            != got.finished.as_ref().map(|f| (&f.winner, &f.points))
        {
            Some("game result")
        } else {
            None
        };
        return match what {
            Some(what) => Err(mismatch(
                file,
                line,
                format!("recorded {what} differ from what replaying the game gives"),
            )),
            None => Ok(()),
        };
    }
    if recorded.draws != got.draws {
        return Err(mismatch(
            file,
            line,
            format!(
                "recorded dice {:?} differ from the dice the seed gives {:?}",
                faces(&recorded.draws),
                faces(&got.draws)
            ),
        ));
    }
    // A ledger from before typed events records none: its happenings match on text, rolls and
    // audience (`Happening::recorded_matches`), so old ledgers replay as they always did.
    let happenings_match = recorded.happenings.len() == got.happenings.len()
        && recorded
            .happenings
            .iter()
            .zip(&got.happenings)
            .all(|(r, g)| r.recorded_matches(g));
    let rest_match = recorded.results == got.results
        && recorded.rounds_ended == got.rounds_ended
        && recorded.finished == got.finished
        && recorded.rolls == got.rolls;
    if !(happenings_match && rest_match) {
        let what = if recorded.results != got.results {
            "command results"
        } else if !happenings_match {
            "happenings (or their rolls)"
        } else if recorded.rounds_ended != got.rounds_ended {
            "rounds ended"
        } else {
            "game result"
        };
        return Err(mismatch(
            file,
            line,
            format!("recorded {what} differ from what replaying the game gives"),
        ));
    }
    Ok(())
}

pub(crate) fn faces(d: &[Draw]) -> Vec<u32> {
    d.iter().map(Draw::shown).collect()
}

/// Runs one step of the game with dice, as the referee (recording) or the auditor (replaying).
pub(crate) fn run_step(
    game: &dyn AnyGame,
    state: &mut AnyState,
    created: &Created,
    keying: Keying,
    mode: &DiceMode,
    recorded: &[Draw],
    f: impl FnOnce(&dyn AnyGame, &mut AnyState, &mut dyn DiceSource) -> Outcome,
) -> Result<Step, String> {
    match mode {
        DiceMode::Secret(secret, hidden) => {
            let keys = SecretKeys {
                secret: **secret,
                max_rounds: created.max_rounds,
            };
            let mut seeded = SeededDice::with_keying(&keys, keying).with_hidden(*hidden);
            let mut rec = Recording {
                inner: &mut seeded,
                draws: Vec::new(),
            };
            let o = f(game, state, &mut rec);
            let draws = rec.draws;
            if let Some(r) = seeded.missing_key() {
                return Err(format!(
                    "the game rolled a die for round {r}, beyond the {} rounds of this game's seed chain",
                    created.max_rounds
                ));
            }
            if seeded.missing_hidden() {
                return Err("the game drew a hidden value but this game has no hidden secret H (it was made before hidden values existed)".into());
            }
            Ok(Step::from_outcome(o, draws))
        }
        DiceMode::Recorded => {
            let mut rep = Replayed {
                draws: recorded,
                pos: 0,
                mismatch: None,
            };
            let o = f(game, state, &mut rep);
            if let Some(m) = rep.mismatch {
                return Err(m);
            }
            if rep.pos != recorded.len() {
                return Err(format!(
                    "{} dice are recorded but replaying the game rolls {}",
                    recorded.len(),
                    rep.pos
                ));
            }
            Ok(Step::from_outcome(o, recorded.to_vec()))
        }
    }
}

/// What a replay checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplaySummary {
    pub lines: u64,
    pub submissions: usize,
    pub signatures: usize,
    pub dice_checked: usize,
    pub keys_revealed: usize,
    pub digests: usize,
    pub defaults: usize,
    pub finished: bool,
    /// Hidden values recomputed from the revealed H (auditor).
    pub hidden_checked: usize,
    /// Hidden values not recomputed: H is revealed only when the game ends.
    pub hidden_skipped: usize,
}

impl ReplaySummary {
    /// What the summary line says about hidden values (empty when there were none).
    pub fn hidden_note(&self) -> String {
        let mut note = String::new();
        if self.hidden_checked > 0 {
            note += &format!("; {} hidden values checked with H", self.hidden_checked);
        }
        if self.hidden_skipped > 0 {
            note += &format!(
                "; {} hidden values NOT checked: their secret H is revealed when the game ends",
                self.hidden_skipped
            );
        }
        note
    }
}

/// Replays a whole log, checking signatures, seqs, every recorded step and roll, every revealed
/// key against the commitment, and every state digest. Errors name the line.
pub fn replay(
    game: &dyn AnyGame,
    edges: &Edges,
    file: &str,
    entries: &[Entry],
    mode: DiceMode,
) -> Result<(Created, Derived<AnyState>, ReplaySummary), RefereeError> {
    replay_observed(game, edges, file, entries, mode, &mut |_, _| {})
}

/// [`replay`], showing `observe` the derived state after each prefix of the ledger: `observe(n,
/// d)` once the first n lines are replayed (the replay page draws every step from one replay).
pub fn replay_observed(
    game: &dyn AnyGame,
    edges: &Edges,
    file: &str,
    entries: &[Entry],
    mode: DiceMode,
    observe: &mut dyn FnMut(usize, &Derived<AnyState>),
) -> Result<(Created, Derived<AnyState>, ReplaySummary), RefereeError> {
    let first = entries
        .first()
        .ok_or_else(|| RefereeError::Verify(format!("{file} is empty")))?;
    let created = match &first.event {
        Event::Created(c) => (**c).clone(),
        _ => return Err(mismatch(file, 1, "the first line is not `created`")),
    };
    let commitment = parse_key(&created.commitment)
        .ok_or_else(|| mismatch(file, 1, "the commitment is not 64 hex digits"))?;
    if let DiceMode::Secret(s, hidden) = &mode {
        if chain_key(s, created.max_rounds, 0) != commitment {
            return Err(mismatch(
                file,
                1,
                "the seed secret of this game does not match the commitment K_0",
            ));
        }
        if let Some(h) = hidden {
            crate::hidden::check(&created, &hex::encode(h)).map_err(|m| mismatch(file, 1, m))?;
        }
    }
    if created.game != game.name() {
        return Err(mismatch(
            file,
            1,
            format!(
                "this is a `{}` game, replayed here as `{}`",
                created.game,
                game.name()
            ),
        ));
    }
    let state = game
        .setup(&created.setup)
        .map_err(|e| mismatch(file, 1, format!("the setup does not start a game: {e}")))?;
    let mut d = Derived::start(
        Head {
            seq: 1,
            hash: String::new(),
        },
        state,
        &created,
    );
    let mut sum = ReplaySummary::default();
    let compare = Compare::for_game(game, &created);
    let mut last_key = commitment;
    let mut last_revealed_round = 0u32;
    // Draws of every step, kept to recompute once their round key is revealed (auditor).
    let mut pending: Vec<(u64, Keying, Vec<Draw>)> = Vec::new();
    let v2 = created.dice_version >= 2;
    // Deadline defaults of one run share the dues taken before the first of them.
    let mut dues_from: Option<(String, String)> = None;
    // Keys known from the revealed secret at the end (not listed as revealed rounds).
    let mut all_keys: BTreeMap<u32, Key> = BTreeMap::new();
    // H, once the `finished` line reveals it.
    let mut hidden_key: Option<Key> = None;
    let mut digests = crate::pbem::digest::DigestCheck::default();
    for (i, e) in entries.iter().enumerate().skip(1) {
        observe(i, &d);
        let n = e.seq;
        digests.line(file, n, &e.event, created.digest)?;
        match &e.event {
            // Mails only: checked above, changes nothing.
            Event::Digest(_) => {}
            Event::Created(_) => return Err(mismatch(file, n, "a second `created` line")),
            Event::Submission(s) => {
                d.mails.record(&s.mail_sha256, s.block, n);
                if d.finished.is_some() && s.accepted {
                    return Err(mismatch(
                        file,
                        n,
                        "a submission accepted after the game ended",
                    ));
                }
                if !s.accepted {
                    if !s.step.results.is_empty() || !s.step.draws.is_empty() {
                        return Err(mismatch(file, n, "a refused submission records results"));
                    }
                    if v2 {
                        crate::audit::check_refusal(edges, &created, &d, s)
                            .map_err(|m| mismatch(file, n, m))?;
                    }
                    continue;
                }
                dues_from = None;
                sum.submissions += 1;
                let players = d.players(&created).to_vec();
                // The signer: the named player of a team side, else the side's one player.
                let candidates: Vec<&Player> = players
                    .iter()
                    .filter(|p| p.side == s.side)
                    .filter(|p| s.player.as_ref().is_none_or(|a| *a == p.address))
                    .collect();
                if candidates.is_empty() {
                    return Err(mismatch(
                        file,
                        n,
                        format!("side `{}` has no such player in this game", s.side),
                    ));
                }
                let mut signer = None;
                let mut last_err = String::new();
                for p in candidates {
                    match (edges.verify)(&p.public_key, &s.canonical, &s.signature) {
                        Ok(()) => {
                            signer = Some(p.clone());
                            break;
                        }
                        Err(e) => last_err = e,
                    }
                }
                let signer = signer.ok_or_else(|| {
                    mismatch(
                        file,
                        n,
                        format!(
                            "the signature does not verify against side {}'s key: {last_err}",
                            s.side
                        ),
                    )
                })?;
                sum.signatures += 1;
                let pkey = player_key(&players, &signer);
                let last = d.last_seq.get(&pkey).copied().unwrap_or(0);
                if s.player_seq <= last || s.player_seq > ledger::MAX_SEQ {
                    return Err(mismatch(
                        file,
                        n,
                        format!(
                            "seq {} accepted after seq {last} of side {}",
                            s.player_seq, s.side
                        ),
                    ));
                }
                let body = (edges.parse_body)(&s.canonical).map_err(|e| {
                    mismatch(file, n, format!("the signed text does not parse: {e}"))
                })?;
                if body.side != s.side || body.seq != s.player_seq || body.game != created.game_id {
                    return Err(mismatch(
                        file,
                        n,
                        "game/side/seq differ from the signed text",
                    ));
                }
                let at = parse_time(&s.at).ok_or_else(|| {
                    mismatch(file, n, format!("`at` {} is not an RFC 3339 time", s.at))
                })?;
                let units = units_of(&created, &players, &signer);
                let sp = split_lines(&created, &s.side, &body.lines, at);
                let before = d.state.clone();
                let keying = crate::audit::step_keying(&created, &mut d, n, s.n, &s.signature)
                    .map_err(|m| mismatch(file, n, m))?;
                let got = run_step(
                    game,
                    &mut d.state,
                    &created,
                    keying,
                    &mode,
                    &s.step.draws,
                    |g, st, dice| {
                        let from = Sender {
                            side: &s.side,
                            units: units.as_deref(),
                        };
                        submit_split(g, st, from, &sp, dice)
                    },
                )
                .map_err(|m| mismatch(file, n, m))?;
                compare_step(file, n, &s.step, &got, compare)?;
                sum.dice_checked += got.draws.len();
                pending.push((n, keying, got.draws));
                d.last_seq.insert(pkey.clone(), s.player_seq);
                note_zone(&mut d, pkey.clone(), &sp.zone);
                note_absence(&mut d, pkey, &sp.absent);
                if d.state != before {
                    d.last_step_at = s.at.clone();
                }
                if let Some(r) = &got.finished {
                    d.finished = Some(r.clone());
                }
            }
            Event::Control(c) => {
                let at = parse_time(&c.at).ok_or_else(|| {
                    mismatch(file, n, format!("`at` {} is not an RFC 3339 time", c.at))
                })?;
                let lines = match (&c.signed, &c.command) {
                    (Some(sc), _) => {
                        d.mails.record(&sc.mail_sha256, sc.block, n);
                        (edges.verify)(&created.referee_public_key, &sc.canonical, &sc.signature)
                            .map_err(|e| {
                            mismatch(
                                file,
                                n,
                                format!("the referee's signature does not verify: {e}"),
                            )
                        })?;
                        sum.signatures += 1;
                        let last = d.last_seq.get(REFEREE_SIDE).copied().unwrap_or(0);
                        if sc.seq <= last {
                            return Err(mismatch(
                                file,
                                n,
                                format!("referee seq {} accepted after seq {last}", sc.seq),
                            ));
                        }
                        let body = (edges.parse_body)(&sc.canonical).map_err(|e| {
                            mismatch(file, n, format!("the signed text does not parse: {e}"))
                        })?;
                        if body.side != REFEREE_SIDE
                            || body.seq != sc.seq
                            || body.game != created.game_id
                        {
                            return Err(mismatch(
                                file,
                                n,
                                "game/side/seq differ from the signed text",
                            ));
                        }
                        d.last_seq.insert(REFEREE_SIDE.into(), sc.seq);
                        body.lines
                    }
                    (None, Some(cmd)) => command_lines(cmd),
                    (None, None) => {
                        return Err(mismatch(file, n, "a control line names no command"))
                    }
                };
                let (actions, results) =
                    control_lines(&created, &mut d, &lines, at, &|st, t| game.decide(st, t));
                if actions != c.actions || results != c.results {
                    return Err(mismatch(
                        file,
                        n,
                        "the recorded control actions differ from what replaying them gives",
                    ));
                }
                dues_from = None;
                if v2 && !actions.is_empty() {
                    d.steps += 1;
                }
                let want = (v2 && !actions.is_empty()).then_some(d.steps);
                if c.n != want {
                    return Err(mismatch(
                        file,
                        n,
                        format!("the control records game step {:?}, not {want:?}", c.n),
                    ));
                }
                let held = crate::pbem::control_step::replay(
                    game,
                    edges,
                    (&created, file, n),
                    &mut d,
                    c,
                    &mode,
                    compare,
                )?;
                if let Some((keying, draws)) = held {
                    sum.dice_checked += draws.len();
                    pending.push((n, keying, draws));
                }
            }
            Event::Deadline(dl) => {
                if d.finished.is_some() {
                    return Err(mismatch(file, n, "a deadline default after the game ended"));
                }
                let keying = if v2 {
                    crate::audit::check_deadline(game, edges, &created, &mut d, dl, &mut dues_from)
                        .map_err(|m| mismatch(file, n, m))?
                } else {
                    Keying::V1 { event: n }
                };
                let got = run_step(
                    game,
                    &mut d.state,
                    &created,
                    keying,
                    &mode,
                    &dl.step.draws,
                    |g, st, dice| g.default_for(st, &dl.side, dice),
                )
                .map_err(|m| mismatch(file, n, m))?;
                compare_step(file, n, &dl.step, &got, compare)?;
                sum.defaults += 1;
                sum.dice_checked += got.draws.len();
                pending.push((n, keying, got.draws));
                d.last_step_at = dl.at.clone();
                if let Some(r) = &got.finished {
                    d.finished = Some(r.clone());
                }
            }
            Event::RoundEnd(re) => {
                let k = parse_key(&re.key)
                    .ok_or_else(|| mismatch(file, n, "the revealed key is not 64 hex digits"))?;
                if re.round != last_revealed_round + 1 {
                    return Err(mismatch(
                        file,
                        n,
                        format!(
                            "round {} revealed after round {last_revealed_round}",
                            re.round
                        ),
                    ));
                }
                if !crate::seed::check_reveal(&k, &last_key) {
                    return Err(mismatch(
                        file,
                        n,
                        format!(
                            "revealed key K_{} does not hash to K_{}",
                            re.round,
                            re.round - 1
                        ),
                    ));
                }
                last_key = k;
                last_revealed_round = re.round;
                d.revealed.insert(re.round, re.key.clone());
                sum.keys_revealed += 1;
                check_digest(file, n, &re.state_digest, &d.state)?;
                sum.digests += 1;
            }
            Event::Finished(f) => {
                let s = parse_key(&f.secret)
                    .ok_or_else(|| mismatch(file, n, "the revealed secret is not 64 hex digits"))?;
                if chain_key(&s, created.max_rounds, 0) != commitment {
                    return Err(mismatch(
                        file,
                        n,
                        "the revealed secret S does not hash down to the commitment K_0",
                    ));
                }
                if d.finished.as_ref() != Some(&f.result) {
                    return Err(mismatch(
                        file,
                        n,
                        "the recorded result differs from the game's",
                    ));
                }
                hidden_key = match (&f.hidden, &created.hidden_commitment) {
                    (Some(h), _) => {
                        Some(crate::hidden::check(&created, h).map_err(|m| mismatch(file, n, m))?)
                    }
                    (None, Some(_)) => {
                        return Err(mismatch(
                            file,
                            n,
                            "the game ended without revealing its hidden secret H",
                        ))
                    }
                    (None, None) => None,
                };
                check_digest(file, n, &f.state_digest, &d.state)?;
                sum.digests += 1;
                sum.finished = true;
                // Every round's key is now known: recompute every die.
                for (r, k) in (0..)
                    .zip(crate::seed::chain(&s, created.max_rounds))
                    .skip(1)
                {
                    all_keys.insert(r, k);
                }
            }
        }
    }
    observe(entries.len(), &d);
    // Recompute recorded dice of revealed rounds from the keys (the auditor's dice check).
    if matches!(mode, DiceMode::Recorded) {
        for (r, k) in &d.revealed {
            if let Some(k) = parse_key(k) {
                all_keys.insert(*r, k);
            }
        }
        let keys = all_keys;
        for (n, keying, draws) in &pending {
            let r = crate::hidden::recheck(&keys, hidden_key, *keying, draws)
                .map_err(|m| mismatch(file, *n, m))?;
            sum.hidden_checked += r.hidden_checked;
            sum.hidden_skipped += r.hidden_skipped;
        }
    }
    if created.hidden_commitment.is_none() {
        if let Some((n, _, _)) = pending
            .iter()
            .find(|(_, _, ds)| ds.iter().any(|d| d.kind == DrawKind::Hidden))
        {
            return Err(mismatch(
                file,
                *n,
                "a hidden value is recorded but the game committed to no hidden secret",
            ));
        }
    }
    sum.lines = entries.len() as u64;
    d.head = Head {
        seq: entries.last().map(|e| e.seq).unwrap_or(1),
        hash: String::new(),
    };
    Ok((created, d, sum))
}

pub(crate) fn check_digest<S: Serialize>(
    file: &str,
    n: u64,
    recorded: &str,
    state: &S,
) -> Result<(), RefereeError> {
    let got = state_digest(state);
    if got != recorded {
        return Err(mismatch(
            file,
            n,
            format!("state digest {recorded} differs from the replayed state's {got}"),
        ));
    }
    Ok(())
}

/// Replays a log file's bytes in full (hash chain first), for `replay` and `audit`. Sets the
/// head hash from the raw last line.
pub fn replay_bytes(
    game: &dyn AnyGame,
    edges: &Edges,
    file: &str,
    data: &[u8],
    mode: DiceMode,
) -> Result<(Created, Derived<AnyState>, ReplaySummary), RefereeError> {
    replay_bytes_observed(game, edges, file, data, mode, &mut |_, _| {})
}

/// [`replay_bytes`], telling `progress(n, total)` after each of the log's `total` lines (the
/// CLI's progress line on a terminal).
pub fn replay_bytes_observed(
    game: &dyn AnyGame,
    edges: &Edges,
    file: &str,
    data: &[u8],
    mode: DiceMode,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Created, Derived<AnyState>, ReplaySummary), RefereeError> {
    let entries = ledger::parse_log(file, data)?;
    crate::audit::check_line_signatures(edges, file, data, &entries)?;
    let total = entries.len();
    let (c, mut d, s) = replay_observed(game, edges, file, &entries, mode, &mut |n, _| {
        progress(n, total)
    })?;
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    let last = body
        .iter()
        .rposition(|&b| b == b'\n')
        .map(|i| &body[i + 1..])
        .unwrap_or(body);
    d.head.hash = sha256_hex(last);
    Ok((c, d, s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::CommandResult;

    fn step(reason: &str, accepted_line: Option<usize>) -> Step {
        let mut results = vec![CommandResult {
            line: 5,
            outcome: CommandOutcome::Refused {
                reason: reason.into(),
                rule: "docs/orders.md".into(),
                instead: "x".into(),
            },
        }];
        if let Some(l) = accepted_line {
            results.push(CommandResult {
                line: l,
                outcome: CommandOutcome::Accepted {
                    understood: "y".into(),
                },
            });
        }
        Step {
            results,
            ..Step::default()
        }
    }

    /// A ledger of an older rules revision replays by what was applied: a refusal worded
    /// otherwise today passes, a command applied then and refused now does not.
    #[test]
    fn older_revisions_compare_what_was_applied_not_the_words() {
        let recorded = step("old words", Some(6));
        let reworded = step("new words", Some(6));
        assert!(compare_step("log", 2, &recorded, &reworded, Compare::Applied).is_ok());
        assert!(compare_step("log", 2, &recorded, &reworded, Compare::Exact).is_err());
        let refused_now = step("old words", None);
        let e = compare_step("log", 2, &recorded, &refused_now, Compare::Applied).unwrap_err();
        assert!(e.to_string().contains("applied commands"), "{e}");
    }
}
