//! The referee's side of hidden randomness (DESIGN §5): the secret H kept in `hidden.secret`
//! beside `seed.secret`, its commitment C_H in the `created` line, its reveal in the `finished`
//! line, and the check of recorded draws (d6, uniform, hidden) against the keys an auditor has.

use crate::game::DiceSource;
use crate::ledger::{Created, Draw, DrawKind};
use crate::seed::{hidden_commitment, Key, Keying, RoundKeys, SeededDice};
use std::path::Path;

/// The file holding hex H, mode 0600, beside `seed.secret`.
pub const HIDDEN_FILE: &str = "hidden.secret";

fn parse_key(hex_text: &str) -> Option<Key> {
    hex::decode(hex_text.trim()).ok()?.try_into().ok()
}

/// Writes H (a new game; never overwrites).
pub fn write_hidden(dir: &Path, hidden: &Key) -> std::io::Result<()> {
    use std::io::Write;
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let mut f = o.open(dir.join(HIDDEN_FILE))?;
    f.write_all(hex::encode(hidden).as_bytes())?;
    f.sync_all()
}

/// H of a game, or None for a game made before hidden values (no file). A file that is not 64
/// hex digits is an error naming it.
pub fn read_hidden(dir: &Path) -> Result<Option<Key>, String> {
    let p = dir.join(HIDDEN_FILE);
    match std::fs::read_to_string(&p) {
        Ok(t) => parse_key(&t)
            .map(Some)
            .ok_or_else(|| format!("{} is not 64 hex digits", p.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!(
            "cannot read {} ({e}): the referee needs the game's hidden secret",
            p.display()
        )),
    }
}

/// Hex C_H of H.
pub fn commitment_hex(hidden: &Key) -> String {
    hex::encode(hidden_commitment(hidden))
}

/// Checks a (claimed) H against the `created` line's C_H. Returns H when it matches.
pub fn check(created: &Created, hidden_hex: &str) -> Result<Key, String> {
    let h = parse_key(hidden_hex).ok_or("the revealed hidden secret H is not 64 hex digits")?;
    match &created.hidden_commitment {
        Some(c) if c.eq_ignore_ascii_case(&commitment_hex(&h)) => Ok(h),
        Some(_) => Err("the hidden secret H does not hash to the commitment C_H".into()),
        None => Err("a hidden secret H is revealed but the game committed to none".into()),
    }
}

/// What [`recheck`] did with one step's draws.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rechecked {
    /// Hidden values recomputed from H.
    pub hidden_checked: usize,
    /// Hidden values skipped because H is not revealed yet.
    pub hidden_skipped: usize,
}

/// Recomputes one step's recorded draws from the keys known (round keys revealed so far, H once
/// revealed) and names the first that differs. Draws of a round (or the hidden stream) whose key
/// is unknown are skipped: each stream is separate, so skipping one does not move the others.
pub fn recheck(
    keys: &dyn RoundKeys,
    hidden: Option<Key>,
    keying: Keying,
    draws: &[Draw],
) -> Result<Rechecked, String> {
    let mut dice = SeededDice::with_keying(keys, keying).with_hidden(hidden);
    let mut out = Rechecked::default();
    for (i, dr) in draws.iter().enumerate() {
        let got = match dr.kind {
            DrawKind::D6 | DrawKind::Uniform if keys.key(dr.round).is_none() => continue,
            DrawKind::D6 => u32::from(dice.d6(dr.round)),
            DrawKind::Uniform => dice.uniform(dr.round, dr.bound.unwrap_or(0)),
            DrawKind::Hidden if hidden.is_none() => {
                out.hidden_skipped += 1;
                continue;
            }
            DrawKind::Hidden => {
                out.hidden_checked += 1;
                let audience = dr
                    .audience
                    .clone()
                    .unwrap_or(crate::game::Audience::Referee);
                dice.hidden(&audience, dr.bound.unwrap_or(0))
            }
        };
        if got != dr.shown() {
            let what = match dr.kind {
                DrawKind::D6 => format!("die {} (round {})", i + 1, dr.round),
                DrawKind::Uniform => format!(
                    "draw {} (uniform below {}, round {})",
                    i + 1,
                    dr.bound.unwrap_or(0),
                    dr.round
                ),
                DrawKind::Hidden => {
                    format!("draw {} (hidden, below {})", i + 1, dr.bound.unwrap_or(0))
                }
            };
            let key = if dr.kind == DrawKind::Hidden {
                "the revealed hidden secret H"
            } else {
                "the revealed key"
            };
            return Err(format!(
                "{what} is recorded as {} but {key} gives {got}",
                dr.shown()
            ));
        }
    }
    Ok(out)
}
