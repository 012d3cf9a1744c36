//! The seed chain and the dice of DESIGN §5.
//!
//! Secret S (32 bytes); `K_N = SHA-256(S)`, `K_{r-1} = SHA-256(K_r)`; `K_0` is the commitment.
//! Round r's dice come from ChaCha20 keyed by `SHA-256("dustmail/dice/v1" ‖ K_r ‖ event id)`,
//! faces mapped by rejection sampling (our own code, never `gen_range`).

use crate::game::DiceSource;

pub type Key = [u8; 32];

/// K_r for round `r` (0 = the commitment) of a game lasting at most `max_rounds` rounds.
pub fn round_key(secret: &Key, max_rounds: u32, r: u32) -> Key {
    let _ = (secret, max_rounds, r);
    [0; 32]
}

/// True when `revealed` (K_r) hashes to `previous` (K_{r-1}).
pub fn check_reveal(revealed: &Key, previous: &Key) -> bool {
    let _ = (revealed, previous);
    false
}

/// Where round keys come from: the referee knows the secret; an auditor only revealed keys.
pub trait RoundKeys {
    fn key(&self, round: u32) -> Option<Key>;
}

/// Dice for one ledger event: one ChaCha20 stream per round, created on first use.
pub struct SeededDice<'a> {
    pub keys: &'a dyn RoundKeys,
    pub event_id: u64,
}

impl DiceSource for SeededDice<'_> {
    fn d6(&mut self, round: u32) -> u8 {
        // PLACEHOLDER (replaced by the seed work).
        let _ = round;
        1
    }
}
