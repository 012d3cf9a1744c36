//! Random values beyond the d6 for every game (DESIGN §5): shuffles from `uniform(n)`, and sealed
//! choices (simultaneous secret choices, each committed when it arrives and revealed when all
//! are in). The byte-level mappings are in `crate::seed`; this module only composes
//! [`DiceSource`] calls, so the referee records and audits every value it uses.

use crate::game::{Audience, DiceSource};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// uniform(n) from fair d6 faces, for dice sources that only roll d6 (test doubles): the faces
/// minus one are the base-6 digits (most significant first) of a number below 6^k, the smallest
/// power of 6 not below n; numbers at or above the largest multiple of n below 6^k are rejected
/// (k faces more), else the value is that number mod n. n = 0 and n = 1 give 0 and roll nothing.
pub fn uniform_from_d6(n: u32, mut d6: impl FnMut() -> u8) -> u32 {
    if n <= 1 {
        return 0;
    }
    let n = u64::from(n);
    let (mut k, mut m) = (1u32, 6u64);
    while m < n {
        k += 1;
        m *= 6;
    }
    let limit = m / n * n;
    loop {
        let mut w = 0u64;
        for _ in 0..k {
            w = w * 6 + u64::from(d6().clamp(1, 6) - 1);
        }
        if w < limit {
            // w % n < n <= u32::MAX.
            return u32::try_from(w % n).unwrap_or(0);
        }
    }
}

/// Fisher–Yates: for i from len−1 down to 1, swap item i with item `uniform(i + 1)`. The
/// permutation is fixed by the values drawn, so an auditor redoes it from the recorded draws.
pub fn shuffle_with<T>(items: &mut [T], mut uniform: impl FnMut(u32) -> u32) {
    for i in (1..items.len()).rev() {
        let bound = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let j = uniform(bound) as usize;
        items.swap(i, j.min(i));
    }
}

/// Shuffles `items` with round `round`'s open stream (everyone can recompute it once K_r is
/// revealed).
pub fn shuffle<T>(dice: &mut dyn DiceSource, round: u32, items: &mut [T]) {
    shuffle_with(items, |n| dice.uniform(round, n));
}

/// Shuffles `items` with the hidden stream (a deck nobody may predict before the game ends).
pub fn shuffle_hidden<T>(dice: &mut dyn DiceSource, audience: &Audience, items: &mut [T]) {
    shuffle_with(items, |n| dice.hidden(audience, n));
}

// ---------------------------------------------------------------------------------------------
// Sealed choices.

/// Domain tag of a sealed choice's commitment.
pub const SEALED_TAG: &[u8] = b"dustmail/sealed/v1";
/// Salt length in bytes: four hidden values below 2^32 − 1, each as 4 bytes big-endian.
pub const SALT_BYTES: usize = 16;

/// The commitment the reports show for a sealed choice: hex
/// `SHA-256(b"dustmail/sealed/v1" ‖ salt (16 bytes) ‖ the choice's UTF-8 text)`. The salt is
/// drawn from the hidden stream (audience: the referee), so nobody can test guesses against the
/// commitment before the reveal, and after the game H lets anyone recompute the salt.
pub fn sealed_commitment(salt: &[u8; SALT_BYTES], choice: &str) -> String {
    let mut h = Sha256::new();
    h.update(SEALED_TAG);
    h.update(salt);
    h.update(choice.as_bytes());
    hex::encode(h.finalize())
}

/// One sealed choice as the game keeps it until the reveal (the whole value is referee-only:
/// reports show [`SealedChoice::commitment`] alone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedChoice {
    pub choice: String,
    /// Hex, [`SALT_BYTES`] bytes.
    pub salt: String,
    /// Hex, see [`sealed_commitment`].
    pub commitment: String,
}

/// Seals `choice`: draws the salt from the hidden stream (4 hidden values, audience referee) and
/// commits. Call it in the step that receives the choice, so the draws are recorded there.
pub fn seal(dice: &mut dyn DiceSource, choice: &str) -> SealedChoice {
    let mut salt = [0u8; SALT_BYTES];
    for chunk in salt.chunks_mut(4) {
        let v = dice.hidden(&Audience::Referee, u32::MAX);
        chunk.copy_from_slice(&v.to_be_bytes());
    }
    SealedChoice {
        choice: choice.to_string(),
        salt: hex::encode(salt),
        commitment: sealed_commitment(&salt, choice),
    }
}

/// Why a sealed choice cannot be recorded, revealed or verified.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("{0} has already sealed a choice: a sealed choice cannot be changed")]
    AlreadySealed(String),
    #[error("waiting for the sealed choices of {}", .0.join(", "))]
    Waiting(Vec<String>),
    #[error("the salt is not {SALT_BYTES} bytes of hex")]
    BadSalt,
    #[error("the revealed choice and salt do not give the commitment {0}")]
    Mismatch(String),
}

/// Checks a revealed choice and salt against the commitment shown before the reveal.
pub fn verify_reveal(commitment: &str, salt_hex: &str, choice: &str) -> Result<(), SealError> {
    let salt: [u8; SALT_BYTES] = hex::decode(salt_hex)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or(SealError::BadSalt)?;
    if sealed_commitment(&salt, choice) == commitment.to_ascii_lowercase() {
        Ok(())
    } else {
        Err(SealError::Mismatch(commitment.to_string()))
    }
}

/// The sealed choices of one decision, by who made them (a side or a player), kept in the
/// game's state. Revealed together once everyone expected has chosen.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedChoices {
    pub choices: BTreeMap<String, SealedChoice>,
}

impl SealedChoices {
    /// Records `by`'s choice; a second one from the same chooser is refused (nothing changes).
    pub fn record(&mut self, by: &str, sealed: SealedChoice) -> Result<(), SealError> {
        if self.choices.contains_key(by) {
            return Err(SealError::AlreadySealed(by.to_string()));
        }
        self.choices.insert(by.to_string(), sealed);
        Ok(())
    }

    /// Those of `expected` who have not chosen yet, in the order given.
    pub fn missing<'a>(&self, expected: &'a [String]) -> Vec<&'a String> {
        expected
            .iter()
            .filter(|w| !self.choices.contains_key(w.as_str()))
            .collect()
    }

    /// What every reader may see before the reveal: who has chosen, with each commitment.
    pub fn commitments(&self) -> Vec<(String, String)> {
        self.choices
            .iter()
            .map(|(by, c)| (by.clone(), c.commitment.clone()))
            .collect()
    }

    /// Every choice (by chooser, sorted), once all of `expected` are in; else who is missing.
    pub fn reveal(&self, expected: &[String]) -> Result<Vec<(String, SealedChoice)>, SealError> {
        let missing = self.missing(expected);
        if !missing.is_empty() {
            return Err(SealError::Waiting(missing.into_iter().cloned().collect()));
        }
        Ok(self
            .choices
            .iter()
            .map(|(by, c)| (by.clone(), c.clone()))
            .collect())
    }
}
