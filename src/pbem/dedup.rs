//! Which mails a game's ledger already records, for crash recovery and duplicate deliveries: a
//! block already recorded only has its replies queued again, it is never applied twice.
//!
//! The exact index (mail SHA-256 → block and ledger line) grows with the game, and a snapshot
//! holding it made every run of a long game slower (issue 6's growth benchmark). The snapshot
//! keeps a Bloom filter of constant size instead; the exact index is rebuilt from the ledger only
//! when the filter says a mail may be recorded: a duplicate (rare) or a false positive (about 3 in
//! 100,000 mails for a game of 10,000 submissions).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Filter size: 2^19 bits (64 KiB). With 4 probes a game of 10,000 recorded mails has a false
/// positive rate of 3 × 10⁻⁵, one of 100,000 mails 8 %; each false positive costs one read of
/// the ledger, never a wrong answer.
const FILTER_BITS: usize = 1 << 19;
const PROBES: usize = 4;

/// Where a mail's blocks are recorded: (block index in the mail, ledger line).
pub type Records = Vec<(usize, u64)>;

#[derive(Debug, Clone)]
pub struct MailIndex {
    /// Exact records: every one when `complete`, else those made since the snapshot was read.
    known: BTreeMap<String, Records>,
    complete: bool,
    /// Every recorded mail, also those before the snapshot.
    filter: Filter,
}

/// The filter's set bits: their positions while few (a small game, or a thousand games loaded
/// at once, does not hold 64 KiB each), the whole bitmap once positions would take more room.
#[derive(Debug, Clone)]
enum Filter {
    /// Ascending, no repeats.
    Sparse(Vec<u32>),
    Dense(Vec<u8>),
}

const FILTER_BYTES: usize = FILTER_BITS / 8;

impl Filter {
    fn has(&self, p: u32) -> bool {
        match self {
            Filter::Sparse(v) => v.binary_search(&p).is_ok(),
            Filter::Dense(b) => b
                .get(p as usize / 8)
                .is_some_and(|byte| byte & (1 << (p % 8)) != 0),
        }
    }

    fn set(&mut self, p: u32) {
        match self {
            Filter::Sparse(v) => {
                if let Err(i) = v.binary_search(&p) {
                    v.insert(i, p);
                }
                if v.len() * 4 >= FILTER_BYTES {
                    let mut b = vec![0u8; FILTER_BYTES];
                    for &q in v.iter() {
                        if let Some(byte) = b.get_mut(q as usize / 8) {
                            *byte |= 1 << (q % 8);
                        }
                    }
                    *self = Filter::Dense(b);
                }
            }
            Filter::Dense(b) => {
                if let Some(byte) = b.get_mut(p as usize / 8) {
                    *byte |= 1 << (p % 8);
                }
            }
        }
    }

    /// The set bits, ascending: what equality and the snapshot depend on (not the form).
    fn positions(&self) -> Vec<u32> {
        match self {
            Filter::Sparse(v) => v.clone(),
            Filter::Dense(b) => (0u32..)
                .zip(b)
                .flat_map(|(i, &byte)| {
                    (0..8u32)
                        .filter(move |bit| byte & (1 << bit) != 0)
                        .map(move |bit| i * 8 + bit)
                })
                .collect(),
        }
    }
}

impl Default for MailIndex {
    /// A game that records nothing yet: the index is complete.
    fn default() -> Self {
        MailIndex {
            known: BTreeMap::new(),
            complete: true,
            filter: Filter::Sparse(Vec::new()),
        }
    }
}

/// Two indexes are equal when they record the same mails as far as the filter tells (the exact
/// part depends on how the game was loaded, not on what it records).
impl PartialEq for MailIndex {
    fn eq(&self, other: &Self) -> bool {
        self.filter.positions() == other.filter.positions()
    }
}

fn probes(sha: &str) -> [u32; PROBES] {
    let d = Sha256::digest(sha.as_bytes());
    let mut out = [0; PROBES];
    for (i, p) in out.iter_mut().enumerate() {
        let b: [u8; 4] = d
            .get(4 * i..4 * i + 4)
            .and_then(|s| s.try_into().ok())
            .unwrap_or_default();
        *p = u32::from_le_bytes(b) % FILTER_BITS as u32;
    }
    out
}

impl MailIndex {
    /// Records block `block` of mail `sha` at ledger line `seq`.
    pub fn record(&mut self, sha: &str, block: usize, seq: u64) {
        self.known
            .entry(sha.to_string())
            .or_default()
            .push((block, seq));
        for p in probes(sha) {
            self.filter.set(p);
        }
    }

    fn may_hold(&self, sha: &str) -> bool {
        probes(sha).iter().all(|&p| self.filter.has(p))
    }

    /// The records of mail `sha`. When only the filter can tell, `load` gives every record of
    /// the ledger (mail, block, line), which then makes the index complete.
    pub fn lookup<E>(
        &mut self,
        sha: &str,
        load: impl FnOnce() -> Result<Vec<(String, usize, u64)>, E>,
    ) -> Result<Option<&Records>, E> {
        if !self.complete && !self.known.contains_key(sha) && self.may_hold(sha) {
            let mut full = MailIndex::default();
            for (s, b, n) in load()? {
                full.record(&s, b, n);
            }
            // The ledger holds everything recorded, those of this run too.
            for (s, records) in std::mem::take(&mut self.known) {
                for (b, n) in records {
                    if !full.known.get(&s).is_some_and(|r| r.contains(&(b, n))) {
                        full.record(&s, b, n);
                    }
                }
            }
            *self = full;
        }
        Ok(self.known.get(sha))
    }

    /// True when every record is held exactly (a replay or a new game, not a snapshot).
    pub fn is_complete(&self) -> bool {
        self.complete
    }
}

/// In a snapshot: the filter as `sparse:` and the base64 of its set bits' positions (u32 little
/// endian, ascending) while that is shorter, then as `dense:` and the base64 of its bytes: a
/// small game's snapshot stays small. A snapshot written before the filter existed holds the
/// exact map, which is read as a complete index.
impl Serialize for MailIndex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use base64::Engine;
        let b64 = &base64::engine::general_purpose::STANDARD;
        let positions = self.filter.positions();
        if positions.len() * 4 < FILTER_BYTES {
            let bytes: Vec<u8> = positions.iter().flat_map(|p| p.to_le_bytes()).collect();
            s.serialize_str(&format!("sparse:{}", b64.encode(bytes)))
        } else {
            let mut b = vec![0u8; FILTER_BYTES];
            for p in positions {
                if let Some(byte) = b.get_mut(p as usize / 8) {
                    *byte |= 1 << (p % 8);
                }
            }
            s.serialize_str(&format!("dense:{}", b64.encode(b)))
        }
    }
}

impl<'de> Deserialize<'de> for MailIndex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use base64::Engine;
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Saved {
            Filter(String),
            Map(BTreeMap<String, Records>),
        }
        match Saved::deserialize(d)? {
            Saved::Filter(text) => {
                let b64 = &base64::engine::general_purpose::STANDARD;
                let bad = |what: String| serde::de::Error::custom(format!("mail filter: {what}"));
                let filter = if let Some(sparse) = text.strip_prefix("sparse:") {
                    let bytes = b64.decode(sparse).map_err(|e| bad(e.to_string()))?;
                    if bytes.len() % 4 != 0 {
                        return Err(bad("positions are 4 bytes each".into()));
                    }
                    let mut filter = Filter::Sparse(Vec::new());
                    for p in bytes.chunks_exact(4) {
                        let p = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
                        if p as usize >= FILTER_BITS {
                            return Err(bad(format!("bit {p} is beyond the filter")));
                        }
                        filter.set(p);
                    }
                    filter
                } else if let Some(dense) = text.strip_prefix("dense:") {
                    let b = b64.decode(dense).map_err(|e| bad(e.to_string()))?;
                    if b.len() != FILTER_BYTES {
                        return Err(bad(format!("{} bytes (expected {FILTER_BYTES})", b.len())));
                    }
                    Filter::Dense(b)
                } else {
                    return Err(bad("neither sparse: nor dense:".into()));
                };
                Ok(MailIndex {
                    known: BTreeMap::new(),
                    complete: false,
                    filter,
                })
            }
            Saved::Map(map) => {
                let mut index = MailIndex::default();
                for (s, records) in map {
                    for (b, n) in records {
                        index.record(&s, b, n);
                    }
                }
                Ok(index)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(i: u32) -> String {
        hex::encode(Sha256::digest(i.to_le_bytes()))
    }

    fn never() -> Result<Vec<(String, usize, u64)>, String> {
        Err("the ledger was read".into())
    }

    #[test]
    fn a_complete_index_answers_without_the_ledger() {
        let mut idx = MailIndex::default();
        idx.record(&sha(1), 0, 2);
        idx.record(&sha(1), 1, 3);
        assert_eq!(idx.lookup(&sha(1), never), Ok(Some(&vec![(0, 2), (1, 3)])));
        assert_eq!(idx.lookup(&sha(2), never), Ok(None));
    }

    #[test]
    fn a_snapshot_index_reads_the_ledger_only_for_mails_it_may_hold() {
        let mut idx = MailIndex::default();
        let ledger: Vec<(String, usize, u64)> =
            (0..1000).map(|i| (sha(i), 0, i as u64 + 2)).collect();
        for (s, b, n) in &ledger {
            idx.record(s, *b, *n);
        }
        let json = serde_json::to_string(&idx).unwrap();
        let mut back: MailIndex = serde_json::from_str(&json).unwrap();
        assert!(!back.is_complete());
        assert_eq!(back, idx, "the same mails");
        // Mails never recorded: answered by the filter alone (no false positive among these).
        for i in 1000..3000 {
            assert_eq!(back.lookup(&sha(i), never), Ok(None), "mail {i}");
        }
        // A recorded mail: the ledger is read once, then the index is exact.
        let got = back
            .lookup(&sha(7), || Ok::<_, String>(ledger.clone()))
            .unwrap();
        assert_eq!(got, Some(&vec![(0, 9)]));
        assert!(back.is_complete());
        assert_eq!(back.lookup(&sha(8), never), Ok(Some(&vec![(0, 10)])));
    }

    #[test]
    fn records_made_after_the_snapshot_are_found_without_the_ledger() {
        let idx = MailIndex::default();
        let json = serde_json::to_string(&idx).unwrap();
        let mut back: MailIndex = serde_json::from_str(&json).unwrap();
        back.record(&sha(5), 0, 4);
        assert_eq!(back.lookup(&sha(5), never), Ok(Some(&vec![(0, 4)])));
    }

    #[test]
    fn an_old_snapshot_map_is_read_as_a_complete_index() {
        let json = format!(r#"{{"{}": [[0, 2]], "{}": [[1, 3]]}}"#, sha(1), sha(2));
        let mut idx: MailIndex = serde_json::from_str(&json).unwrap();
        assert!(idx.is_complete());
        assert_eq!(idx.lookup(&sha(2), never), Ok(Some(&vec![(1, 3)])));
        assert_eq!(idx.lookup(&sha(3), never), Ok(None));
    }

    #[test]
    fn the_same_mails_give_the_same_snapshot_whatever_the_form_in_memory() {
        // Built in one go (dense in memory after ~4,000 mails) or saved sparse at 3,000 and
        // continued after a reload: equal, and the same snapshot text.
        let mut whole = MailIndex::default();
        for i in 0..5000 {
            whole.record(&sha(i), 0, i as u64 + 2);
        }
        let mut part = MailIndex::default();
        for i in 0..3000 {
            part.record(&sha(i), 0, i as u64 + 2);
        }
        let saved = serde_json::to_string(&part).unwrap();
        assert!(saved.starts_with("\"sparse:"));
        let mut resumed: MailIndex = serde_json::from_str(&saved).unwrap();
        for i in 3000..5000 {
            resumed.record(&sha(i), 0, i as u64 + 2);
        }
        assert!(resumed == whole);
        assert_eq!(
            serde_json::to_string(&resumed).unwrap(),
            serde_json::to_string(&whole).unwrap()
        );
    }

    #[test]
    fn a_filter_of_the_wrong_size_is_an_error() {
        for bad in [
            r#""AAAA""#,
            r#""dense:AAAA""#,
            r#""sparse:AAAA""#,
            r#""sparse:AAA=""#,
        ] {
            assert!(serde_json::from_str::<MailIndex>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_small_game_saves_a_small_filter_and_a_large_one_the_whole_filter() {
        for (n, form, at_most) in [
            (0, "sparse:", 16),
            (10, "sparse:", 300),
            (10_000, "dense:", 90_000),
        ] {
            let mut idx = MailIndex::default();
            for i in 0..n {
                idx.record(&sha(i), 0, i as u64 + 2);
            }
            let json = serde_json::to_string(&idx).unwrap();
            assert!(
                json.starts_with(&format!("\"{form}")),
                "{n}: {}",
                &json[..20]
            );
            assert!(json.len() <= at_most, "{n}: {} bytes", json.len());
            let back: MailIndex = serde_json::from_str(&json).unwrap();
            assert_eq!(back, idx, "{n}");
            assert_eq!(
                serde_json::to_string(&back).unwrap(),
                json,
                "{n}: the same bytes again"
            );
        }
    }
}
