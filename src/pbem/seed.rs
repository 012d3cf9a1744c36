//! The seed chain and the dice of DESIGN §5. This module doc is part of the contract: an auditor
//! re-implements exactly what it says.
//!
//! - Secret S (32 bytes); `K_N = SHA-256(S)`, `K_{r-1} = SHA-256(K_r)`; `K_0` is the commitment.
//!   So `K_r = SHA-256^(N-r+1)(S)` for `0 <= r <= N`; rounds beyond N have no key.
//! - The dice of round r for ledger event e come from the ChaCha20 keystream (20 rounds, nonce 0,
//!   block counter from 0; `rand_chacha` 0.10 `ChaCha20Rng::from_seed`) keyed by
//!   `SHA-256(b"dustmail/dice/v1" ‖ K_r ‖ e as 8 bytes big-endian)`. Each (event, round) pair has
//!   its own stream, started at its first byte.
//! - **Dice v2** (games whose `created` line says `"dice_version": 2`): the dice of round r for
//!   game step n come from the same keystream keyed by
//!   `SHA-256(b"dustmail/dice/v2" ‖ K_r ‖ n as 8 bytes big-endian ‖ A)`, where n counts the
//!   game's own steps from 1 (accepted submissions, deadline defaults, controls that applied an
//!   action; nothing refused, duplicated or unroutable moves it) and A is the 32-byte SHA-256 of
//!   the raw 64 signature bytes (base64-decoded) of the signed block that caused the step, or of
//!   the referee's `cause_sig` for a deadline default (see `docs/ledger.md`). Padding the ledger
//!   with refused lines moves neither n nor A, so it cannot move the dice.
//! - Faces: take the stream's bytes in order; reject a byte b >= 252; otherwise the face is
//!   `b % 6 + 1`. (252 = 42 × 6, so every face is exactly equally likely.)
//! - **uniform(n)** (a value in `0..n`, for shuffles and draws; n is a u32 >= 1): from the same
//!   stream as the faces, interleaved in the order the game asks. Take the next 4 bytes in stream
//!   order as a big-endian u32 w; reject w >= floor(2^32 / n) × n and take 4 more; otherwise the
//!   value is `w % n`. (n = 1 always gives 0 and uses 4 bytes; n = 0 gives 0 and uses none.)
//! - **Hidden values** (games whose `created` line has `hidden_commitment`): a second 32-byte
//!   secret H, committed as `C_H = SHA-256(b"dustmail/hidden/v1" ‖ H)` and revealed in the
//!   `finished` line. The hidden values of game step n (dice v2 only) come from the same
//!   keystream keyed by `SHA-256(b"dustmail/hidden-dice/v1" ‖ H ‖ n as 8 bytes big-endian ‖ A)`
//!   (n and A as for dice v2), one stream per step and no round: no round key K_r ever keys a
//!   hidden value. A hidden value below a bound b is `uniform(b)` of that stream. New games
//!   take `H = SHA-256(b"dustmail/hidden-secret/v1" ‖ S)` (so a game made from a fixed seed is
//!   reproducible); an auditor needs only the revealed H and C_H.
//! - A round whose key is not available (an auditor holding only the keys revealed so far, or a
//!   round beyond N) cannot be rolled: the die returns 1 and the round is recorded in
//!   [`SeededDice::missing_key`], which the caller must check and treat as a failure. Likewise a
//!   hidden value without H (or in a v1 game) is 0 and sets [`SeededDice::missing_hidden`]. The
//!   dice never panic.

use crate::game::{Audience, DiceSource};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

pub type Key = [u8; 32];

/// Domain separation tag of the dice key derivation.
pub const DICE_TAG: &[u8] = b"dustmail/dice/v1";
/// Domain separation tag of dice v2.
pub const DICE_TAG_V2: &[u8] = b"dustmail/dice/v2";
/// Domain separation tag of the hidden secret's commitment C_H.
pub const HIDDEN_COMMIT_TAG: &[u8] = b"dustmail/hidden/v1";
/// Domain separation tag of the hidden stream's key.
pub const HIDDEN_DICE_TAG: &[u8] = b"dustmail/hidden-dice/v1";
/// Domain separation tag of the hidden secret new games derive from the seed secret.
pub const HIDDEN_SECRET_TAG: &[u8] = b"dustmail/hidden-secret/v1";

fn sha256(data: &[u8]) -> Key {
    Sha256::digest(data).into()
}

/// K_r for round `r` (0 = the commitment) of a game lasting at most `max_rounds` rounds.
///
/// A round beyond `max_rounds` has no key: this returns all zeroes for it (never the secret
/// itself); use [`try_round_key`] to tell that case apart.
pub fn round_key(secret: &Key, max_rounds: u32, r: u32) -> Key {
    try_round_key(secret, max_rounds, r).unwrap_or([0; 32])
}

/// K_r, or None when `r > max_rounds`.
pub fn try_round_key(secret: &Key, max_rounds: u32, r: u32) -> Option<Key> {
    if r > max_rounds {
        return None;
    }
    let mut k = sha256(secret); // K_N
    for _ in r..max_rounds {
        k = sha256(&k);
    }
    Some(k)
}

/// The whole chain at once: element r is K_r for 0 <= r <= N (N + 1 keys, N + 1 hashes), for
/// callers that need every round's key (an auditor recomputing every die of a finished game):
/// asking [`round_key`] for each round would hash N²/2 times.
pub fn chain(secret: &Key, max_rounds: u32) -> Vec<Key> {
    let mut keys = Vec::with_capacity(max_rounds as usize + 1);
    let mut k = sha256(secret); // K_N
    keys.push(k);
    for _ in 0..max_rounds {
        k = sha256(&k);
        keys.push(k);
    }
    keys.reverse();
    keys
}

/// True when `revealed` (K_r) hashes to `previous` (K_{r-1}).
pub fn check_reveal(revealed: &Key, previous: &Key) -> bool {
    sha256(revealed) == *previous
}

/// The ChaCha20 key of the dice of `round_key` (K_r) for ledger event `event_id`.
pub fn dice_key(round_key: &Key, event_id: u64) -> Key {
    let mut h = Sha256::new();
    h.update(DICE_TAG);
    h.update(round_key);
    h.update(event_id.to_be_bytes());
    h.finalize().into()
}

/// The ChaCha20 key of the dice v2 of `round_key` (K_r) for game step `n` caused by a signature
/// whose SHA-256 is `cause`.
pub fn dice_key_v2(round_key: &Key, n: u64, cause: &Key) -> Key {
    let mut h = Sha256::new();
    h.update(DICE_TAG_V2);
    h.update(round_key);
    h.update(n.to_be_bytes());
    h.update(cause);
    h.finalize().into()
}

/// C_H, the commitment to the hidden secret H published in the `created` line.
pub fn hidden_commitment(hidden: &Key) -> Key {
    let mut h = Sha256::new();
    h.update(HIDDEN_COMMIT_TAG);
    h.update(hidden);
    h.finalize().into()
}

/// The ChaCha20 key of the hidden values of game step `n` caused by a signature whose SHA-256 is
/// `cause`. No round key enters it.
pub fn hidden_key(hidden: &Key, n: u64, cause: &Key) -> Key {
    let mut h = Sha256::new();
    h.update(HIDDEN_DICE_TAG);
    h.update(hidden);
    h.update(n.to_be_bytes());
    h.update(cause);
    h.finalize().into()
}

/// The hidden secret H of a new game made from seed secret `secret`.
pub fn hidden_secret_for(secret: &Key) -> Key {
    let mut h = Sha256::new();
    h.update(HIDDEN_SECRET_TAG);
    h.update(secret);
    h.finalize().into()
}

/// uniform(n) from a byte source, as the module doc says: 4-byte big-endian words, those at or
/// above the largest multiple of n below 2^32 rejected, then `w % n`.
pub fn uniform_from_bytes(n: u32, mut next_byte: impl FnMut() -> u8) -> u32 {
    if n == 0 {
        return 0;
    }
    let limit = (1u64 << 32) / u64::from(n) * u64::from(n);
    loop {
        let w = u32::from_be_bytes([next_byte(), next_byte(), next_byte(), next_byte()]);
        if u64::from(w) < limit {
            return w % n;
        }
    }
}

/// A = SHA-256 of a signature's raw bytes: the base64 decoded (whitespace ignored). A text that
/// is not base64 (only test doubles sign like that) is hashed as it is.
pub fn signature_digest(signature_b64: &str) -> Key {
    use base64::Engine;
    let compact: String = signature_b64
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    match base64::engine::general_purpose::STANDARD.decode(&compact) {
        Ok(raw) => sha256(&raw),
        Err(_) => sha256(signature_b64.as_bytes()),
    }
}

/// What keys one step's dice: v1 the ledger line, v2 the game step and its cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keying {
    V1 { event: u64 },
    V2 { n: u64, cause: Key },
}

impl Keying {
    fn key(&self, round_key: &Key) -> Key {
        match self {
            Keying::V1 { event } => dice_key(round_key, *event),
            Keying::V2 { n, cause } => dice_key_v2(round_key, *n, cause),
        }
    }
}

/// Maps one stream byte to a face, or None when the byte is rejected.
pub fn byte_to_face(b: u8) -> Option<u8> {
    (b < 252).then_some(b % 6 + 1)
}

/// Where round keys come from: the referee knows the secret; an auditor only revealed keys.
pub trait RoundKeys {
    fn key(&self, round: u32) -> Option<Key>;
}

/// The referee's keys: every round 0..=N from the secret.
pub struct SecretKeys {
    pub secret: Key,
    pub max_rounds: u32,
}

impl RoundKeys for SecretKeys {
    fn key(&self, round: u32) -> Option<Key> {
        try_round_key(&self.secret, self.max_rounds, round)
    }
}

/// An auditor's keys: those revealed so far, by round.
impl RoundKeys for BTreeMap<u32, Key> {
    fn key(&self, round: u32) -> Option<Key> {
        self.get(&round).copied()
    }
}

/// One round's keystream, read a 64-byte block at a time so the bytes are used exactly in
/// keystream order (a 1-byte `fill_bytes` would skip the rest of a word).
struct Stream {
    rng: ChaCha20Rng,
    buf: [u8; 64],
    pos: usize,
}

impl Stream {
    fn new(key: Key) -> Self {
        Stream {
            rng: ChaCha20Rng::from_seed(key),
            buf: [0; 64],
            pos: 64,
        }
    }
    fn next_byte(&mut self) -> u8 {
        if self.pos >= self.buf.len() {
            self.rng.fill_bytes(&mut self.buf);
            self.pos = 0;
        }
        let b = self.buf.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    fn face(&mut self) -> u8 {
        loop {
            if let Some(f) = byte_to_face(self.next_byte()) {
                return f;
            }
        }
    }
    fn uniform(&mut self, n: u32) -> u32 {
        uniform_from_bytes(n, || self.next_byte())
    }
}

/// Dice for one ledger event: one ChaCha20 stream per round, created on first use.
///
/// Build it with [`SeededDice::new`]; after rolling, check [`SeededDice::missing_key`].
pub struct SeededDice<'a> {
    pub keys: &'a dyn RoundKeys,
    pub event_id: u64,
    keying: Keying,
    streams: BTreeMap<u32, Stream>,
    missing: Option<u32>,
    /// H, when this party knows it (the referee; an auditor after the end).
    hidden_secret: Option<Key>,
    hidden_stream: Option<Stream>,
    missing_hidden: bool,
}

impl<'a> SeededDice<'a> {
    /// Dice v1 for ledger event `event_id`.
    pub fn new(keys: &'a dyn RoundKeys, event_id: u64) -> Self {
        Self::with_keying(keys, Keying::V1 { event: event_id })
    }

    /// Dice keyed as `keying` says (v1 or v2).
    pub fn with_keying(keys: &'a dyn RoundKeys, keying: Keying) -> Self {
        SeededDice {
            keys,
            event_id: match keying {
                Keying::V1 { event } => event,
                Keying::V2 { n, .. } => n,
            },
            keying,
            streams: BTreeMap::new(),
            missing: None,
            hidden_secret: None,
            hidden_stream: None,
            missing_hidden: false,
        }
    }

    /// The same dice, able to draw hidden values from H (`None`: a hidden value is missing).
    pub fn with_hidden(mut self, hidden: Option<Key>) -> Self {
        self.hidden_secret = hidden;
        self
    }

    /// True when a hidden value was asked for without H (or in a v1 game): the values returned
    /// were placeholders (0) and the outcome must be discarded.
    pub fn missing_hidden(&self) -> bool {
        self.missing_hidden
    }

    fn stream(&mut self, round: u32) -> Option<&mut Stream> {
        if !self.streams.contains_key(&round) {
            match self.keys.key(round) {
                Some(k) => {
                    self.streams.insert(round, Stream::new(self.keying.key(&k)));
                }
                None => {
                    self.missing.get_or_insert(round);
                    return None;
                }
            }
        }
        self.streams.get_mut(&round)
    }

    /// The first round whose dice were asked for but whose key was unavailable. When set, the
    /// faces returned for that round were placeholders (1) and the outcome must be discarded.
    pub fn missing_key(&self) -> Option<u32> {
        self.missing
    }
}

impl DiceSource for SeededDice<'_> {
    fn d6(&mut self, round: u32) -> u8 {
        match self.stream(round) {
            Some(s) => s.face(),
            None => 1,
        }
    }
    fn uniform(&mut self, round: u32, n: u32) -> u32 {
        match self.stream(round) {
            Some(s) => s.uniform(n),
            None => 0,
        }
    }
    fn hidden(&mut self, _audience: &Audience, n: u32) -> u32 {
        if self.hidden_stream.is_none() {
            match (self.hidden_secret, self.keying) {
                (Some(h), Keying::V2 { n: step, cause }) => {
                    self.hidden_stream = Some(Stream::new(hidden_key(&h, step, &cause)));
                }
                _ => {
                    self.missing_hidden = true;
                    return 0;
                }
            }
        }
        match self.hidden_stream.as_mut() {
            Some(s) => s.uniform(n),
            None => 0,
        }
    }
}
