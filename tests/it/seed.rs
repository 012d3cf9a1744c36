//! DESIGN §5: the seed chain and the dice. The golden literals below were computed out of band
//! with Python (hashlib + the `cryptography` package's ChaCha20) and are checked here against
//! both `dustmail::seed` and a small independent ChaCha20 written in this file.

use dustmail::game::DiceSource;
use dustmail::seed::{
    chain, check_reveal, dice_key, round_key, try_round_key, RoundKeys, SecretKeys, SeededDice,
};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The fixed test secret: bytes 0x00, 0x01, …, 0x1f.
fn secret() -> [u8; 32] {
    std::array::from_fn(|i| i as u8)
}

const K: [&str; 4] = [
    "cefc1232dee44cc53fccf8cc078f657f4db4f1d0303725375a0694f7d395e2ea",
    "4e05063392f42b5180353ef82da86c714042155044d91ab3253f1bab08120a0a",
    "2f287b4d3d4910f6cada9e1bd1b4648099e8c52c81aa4a6aebfa6fc86f19834e",
    "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
];
const DICE_KEY_E1_R1: &str = "338c7a52da4d26aa72963690be80fab250f5040cdb12349ef7d45d2f0a38256a";
const FACES_E1_R1: [u8; 20] = [3, 4, 5, 4, 4, 4, 4, 5, 2, 1, 4, 4, 4, 5, 2, 3, 3, 3, 2, 3];

// ---- an independent ChaCha20 (RFC 8439 block function, 64-bit counter, zero nonce) ----
fn quarter(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

fn chacha20_keystream(key: &[u8; 32], blocks: u64) -> Vec<u8> {
    let mut out = Vec::new();
    for counter in 0..blocks {
        let mut init = [0u32; 16];
        init[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
        for i in 0..8 {
            init[4 + i] = u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap());
        }
        init[12] = counter as u32;
        init[13] = (counter >> 32) as u32;
        let mut s = init;
        for _ in 0..10 {
            quarter(&mut s, 0, 4, 8, 12);
            quarter(&mut s, 1, 5, 9, 13);
            quarter(&mut s, 2, 6, 10, 14);
            quarter(&mut s, 3, 7, 11, 15);
            quarter(&mut s, 0, 5, 10, 15);
            quarter(&mut s, 1, 6, 11, 12);
            quarter(&mut s, 2, 7, 8, 13);
            quarter(&mut s, 3, 4, 9, 14);
        }
        for i in 0..16 {
            out.extend_from_slice(&s[i].wrapping_add(init[i]).to_le_bytes());
        }
    }
    out
}

fn independent_faces(k_r: &[u8; 32], event: u64, n: usize) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(b"dustmail/dice/v1");
    h.update(k_r);
    h.update(event.to_be_bytes());
    let key: [u8; 32] = h.finalize().into();
    chacha20_keystream(&key, 8)
        .into_iter()
        .filter(|&b| b < 252)
        .map(|b| b % 6 + 1)
        .take(n)
        .collect()
}

#[test]
fn independent_chacha20_matches_rfc8439_test_vector() {
    // RFC 8439 A.1, test vector #1: all-zero key, nonce and counter.
    let ks = chacha20_keystream(&[0; 32], 1);
    assert_eq!(hex::encode(&ks[..16]), "76b8e0ada0f13d90405d6ae55386bd28");
}

#[test]
fn round_keys_golden_vector() {
    let s = secret();
    for (r, want) in K.iter().enumerate() {
        assert_eq!(hex::encode(round_key(&s, 3, r as u32)), *want, "K_{r}");
    }
    // K_N = SHA-256(S), K_{r-1} = SHA-256(K_r).
    assert_eq!(round_key(&s, 3, 3), <[u8; 32]>::from(Sha256::digest(s)));
}

#[test]
fn reveal_chain_checks_and_rejects() {
    let s = secret();
    for r in 1..=3 {
        assert!(check_reveal(&round_key(&s, 3, r), &round_key(&s, 3, r - 1)));
    }
    assert!(!check_reveal(&round_key(&s, 3, 2), &round_key(&s, 3, 0)));
    let mut forged = round_key(&s, 3, 1);
    forged[0] ^= 1;
    assert!(!check_reveal(&forged, &round_key(&s, 3, 0)));
}

#[test]
fn rounds_beyond_the_last_have_no_key_and_never_leak_the_secret() {
    let s = secret();
    assert_eq!(try_round_key(&s, 3, 4), None);
    assert_eq!(round_key(&s, 3, 4), [0; 32]);
    assert_ne!(round_key(&s, 3, 4), s);
}

#[test]
fn dice_golden_vector_event_1_round_1() {
    let s = secret();
    let k1 = round_key(&s, 3, 1);
    assert_eq!(hex::encode(dice_key(&k1, 1)), DICE_KEY_E1_R1);
    assert_eq!(independent_faces(&k1, 1, 20), FACES_E1_R1);

    let keys = SecretKeys {
        secret: s,
        max_rounds: 3,
    };
    let mut dice = SeededDice::new(&keys, 1);
    let faces: Vec<u8> = (0..20).map(|_| dice.d6(1)).collect();
    assert_eq!(faces, FACES_E1_R1);
    assert_eq!(dice.missing_key(), None);
}

#[test]
fn long_stream_matches_independent_implementation_across_blocks() {
    // 300 faces cross several 64-byte blocks and include rejected bytes.
    let s = secret();
    let k2 = round_key(&s, 3, 2);
    let keys = SecretKeys {
        secret: s,
        max_rounds: 3,
    };
    let mut dice = SeededDice::new(&keys, 42);
    let faces: Vec<u8> = (0..300).map(|_| dice.d6(2)).collect();
    assert_eq!(faces, independent_faces(&k2, 42, 300));
}

#[test]
fn rounds_have_independent_streams_when_interleaved() {
    let s = secret();
    let keys = SecretKeys {
        secret: s,
        max_rounds: 3,
    };
    let mut dice = SeededDice::new(&keys, 1);
    let mut r1 = Vec::new();
    let mut r2 = Vec::new();
    for _ in 0..10 {
        r1.push(dice.d6(1));
        r2.push(dice.d6(2));
    }
    assert_eq!(r1, FACES_E1_R1[..10]);
    assert_eq!(r2, independent_faces(&round_key(&s, 3, 2), 1, 10));
}

#[test]
fn auditor_with_revealed_keys_gets_the_same_faces() {
    let s = secret();
    let mut revealed: BTreeMap<u32, [u8; 32]> = BTreeMap::new();
    revealed.insert(1, round_key(&s, 3, 1));
    let mut dice = SeededDice::new(&revealed, 1);
    let faces: Vec<u8> = (0..20).map(|_| dice.d6(1)).collect();
    assert_eq!(faces, FACES_E1_R1);
    assert_eq!(revealed.key(2), None);
}

#[test]
fn unrevealed_round_is_reported_not_panicked() {
    let s = secret();
    let mut revealed: BTreeMap<u32, [u8; 32]> = BTreeMap::new();
    revealed.insert(1, round_key(&s, 3, 1));
    let mut dice = SeededDice::new(&revealed, 1);
    assert_eq!(dice.d6(1), FACES_E1_R1[0]);
    assert_eq!(dice.d6(2), 1);
    assert_eq!(dice.d6(3), 1);
    assert_eq!(dice.missing_key(), Some(2));
    // Round 1 continues where it was.
    assert_eq!(dice.d6(1), FACES_E1_R1[1]);
}

#[test]
fn faces_are_uniform_over_60000_dice() {
    let keys = SecretKeys {
        secret: secret(),
        max_rounds: 10,
    };
    let mut counts = [0u32; 7];
    for event in 0..60u64 {
        let mut dice = SeededDice::new(&keys, event);
        for _ in 0..1000 {
            let f = dice.d6(1 + (event % 10) as u32);
            assert!((1..=6).contains(&f), "face {f}");
            counts[f as usize] += 1;
        }
    }
    for (face, &c) in counts.iter().enumerate().skip(1) {
        // 10,000 expected; ±5% is about ±5.5 standard deviations.
        assert!((9500..=10500).contains(&c), "face {face} came {c} times");
    }
}

/// DESIGN §5: the whole chain at once is the same keys as asking round by round.
#[test]
fn the_whole_chain_matches_each_round_key() {
    let s = [7u8; 32];
    for n in [0u32, 1, 3, 200] {
        let keys = chain(&s, n);
        assert_eq!(keys.len(), n as usize + 1);
        for (r, k) in (0u32..).zip(&keys) {
            assert_eq!(*k, round_key(&s, n, r), "N = {n}, K_{r}");
        }
    }
}
