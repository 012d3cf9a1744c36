//! Who may sign what: the checks of a signed block against a game, and of a signed ledger head.

use crate::ledger::{self, sha256_hex, Created, Player, Refusal};
use crate::pbem::block::BlockBody;
use crate::pbem::citation::DocRule;
use crate::pbem::{edges::*, error::*, replay::*};

/// Checks a `Ledger-Head: <game> <seq> <hash>` line and its signature against a log.
pub fn check_head(
    edges: &Edges,
    created: &Created,
    data: &[u8],
    head_line: &str,
    sig: &str,
) -> Result<(), RefereeError> {
    let parts: Vec<&str> = head_line.split_whitespace().collect();
    let (game, seq, hash) = match parts.as_slice() {
        ["Ledger-Head:", g, s, h] => (*g, *s, *h),
        _ => {
            return Err(RefereeError::Usage(format!(
                "`{head_line}` is not a ledger-head line: give it as \"Ledger-Head: GAME SEQ HASH\""
            )))
        }
    };
    let line = format!("Ledger-Head: {game} {seq} {hash}");
    (edges.verify_text)(&created.referee_public_key, &line, sig).map_err(|e| {
        RefereeError::Verify(format!(
            "the ledger-head signature does not verify against the referee key in the log: {e}"
        ))
    })?;
    if game != created.game_id {
        return Err(RefereeError::Verify(format!(
            "the ledger-head names game {game} but the log is game {}",
            created.game_id
        )));
    }
    let seq: usize = seq
        .parse()
        .map_err(|_| RefereeError::Verify(format!("ledger-head seq `{seq}` is not a number")))?;
    let line_bytes = data
        .split(|&b| b == b'\n')
        .nth(seq.saturating_sub(1))
        .filter(|l| seq >= 1 && !l.is_empty())
        .ok_or_else(|| {
            RefereeError::Verify(format!(
                "the referee signed ledger line {seq} but the log does not have it: the log was cut"
            ))
        })?;
    if sha256_hex(line_bytes) != hash {
        return Err(RefereeError::Verify(format!(
            "log.jsonl line {seq} does not hash to the signed ledger head {hash}: the log was altered"
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Loading games.

/// Who signed a block that may reach the game (`None`: the referee), or why it cannot.
pub(crate) fn check_block<S>(
    g: &Derived<S>,
    created: &Created,
    body: &BlockBody,
    block_sig: &str,
    canonical: &str,
    edges: &Edges,
) -> Result<Option<Player>, Refusal> {
    if g.finished.is_some() {
        return Err(Refusal::new(
            "this game is over: no more orders are taken",
            DocRule::GameEnded.with("the game ended (see the end mail)"),
            "nothing; start a new game with the referee",
        ));
    }
    let players = g.players(created);
    let (signer, seq_key) = if body.side == REFEREE_SIDE {
        if let Err(e) = (edges.verify)(&created.referee_public_key, canonical, block_sig) {
            return Err(Refusal::new(
                format!("the signature does not verify against the referee's key ({e})"),
                DocRule::RefereeCommands
                    .with("`side: referee` blocks are signed with the referee's key"),
                "players write their own side in the side: line; the referee signs with the home's referee.key",
            ));
        }
        (None, REFEREE_SIDE.to_string())
    } else {
        let of_side: Vec<&Player> = players.iter().filter(|p| p.side == body.side).collect();
        if of_side.is_empty() {
            let mut sides: Vec<&str> = players.iter().map(|p| p.side.as_str()).collect();
            sides.dedup();
            return Err(Refusal::new(
                format!(
                    "side `{}` does not play in game {}",
                    body.side, created.game_id
                ),
                DocRule::SignedBlock.with("the side: line names your side"),
                format!("write one of: side: {}", sides.join(" | ")),
            ));
        }
        // A team side: whichever player's key the signature verifies against.
        let mut last_err = String::new();
        let Some(p) = of_side.into_iter().find(|p| {
            (edges.verify)(&p.public_key, canonical, block_sig)
                .map_err(|e| last_err = e)
                .is_ok()
        }) else {
            let (cause, instead) = signature_hint(players, body, block_sig, canonical, edges)
                .unwrap_or_else(|| {
                    (
                        String::new(),
                        format!("sign the text with the secret key you registered ({}) and do not edit it after signing", sign_how(players, &body.side)),
                    )
                });
            return Err(Refusal::new(
                format!(
                    "the signature does not verify against the key registered for side {}{cause} ({last_err})",
                    body.side
                ),
                DocRule::SignedBlock.with("authority comes from the signature alone"),
                instead,
            ));
        };
        (Some(p.clone()), player_key(players, p))
    };
    let last = g.last_seq.get(&seq_key).copied().unwrap_or(0);
    if body.seq > ledger::MAX_SEQ {
        return Err(Refusal::new(
            format!(
                "seq {} is above {}, the largest seq this referee accepts",
                body.seq,
                ledger::MAX_SEQ
            ),
            DocRule::SignedBlock.with("seq counts up from 1 and stays below 10^12"),
            format!(
                "sign your orders again with seq: {}",
                last.saturating_add(1)
            ),
        ));
    }
    if body.seq <= last {
        let whose = match &signer {
            Some(p) if seq_key != p.side => format!("player {} of side {}", p.address, p.side),
            _ => format!("side {}", body.side),
        };
        return Err(Refusal::new(
            format!(
                "seq {} is not greater than {last}, the last seq accepted from {whose}: this mail is a replay or stale",
                body.seq
            ),
            DocRule::SignedBlock.with("seq is per player, strictly increasing"),
            format!(
                "if these are new orders, sign them again with seq: {}",
                last.saturating_add(1)
            ),
        ));
    }
    Ok(signer)
}

/// What a player of `side` types to sign: OpenSSH keys sign with `ssh-keygen -Y sign`.
fn sign_how(players: &[Player], side: &str) -> &'static str {
    let openssh = players
        .iter()
        .any(|p| p.side == side && crate::pbem::keys::is_openssh_key(&p.public_key));
    if openssh {
        "`ssh-keygen -Y sign -n dustmail-orders -f KEY FILE`, docs/signing.md"
    } else {
        "`dustmail sign --key YOURKEY FILE`"
    }
}

/// Signed lines at least this long were likely wrapped by a mail client on the way (most wrap
/// near 72 characters, so the first piece of a wrapped line is about this long or longer).
pub const WRAP_HINT_CHARS: usize = 60;

/// The likely cause of a block that does not verify for the side it names, when one can be
/// told, and what to do instead: it verifies with another side's registered key (the wrong key,
/// or the wrong `side:`), or it has a line long enough to have been wrapped by the mail client.
/// `None` otherwise (the signature error itself says "changed after signing, or another key").
/// The cause comes right after the side, short: a block no registered key signed is recorded
/// with the first 200 characters of its reason only (`audit::digest_if_unregistered`).
fn signature_hint(
    players: &[Player],
    body: &BlockBody,
    block_sig: &str,
    canonical: &str,
    edges: &Edges,
) -> Option<(String, String)> {
    if let Some(other) = players.iter().find(|p| {
        p.side != body.side && (edges.verify)(&p.public_key, canonical, block_sig).is_ok()
    }) {
        return Some((
            format!(": it verifies with side {}'s registered key", other.side),
            format!(
                "if you play side {o}, write `side: {o}`; otherwise sign with your own key \
                 ({})",
                sign_how(players, &body.side),
                o = other.side
            ),
        ));
    }
    let (len, line) = canonical
        .split('\n')
        .enumerate()
        .map(|(i, l)| (l.chars().count(), i + 1))
        .max_by_key(|&(len, i)| (len, std::cmp::Reverse(i)))?;
    (len >= WRAP_HINT_CHARS).then(|| {
        (
            format!(": line {line} is {len} characters long, likely wrapped by your mail client"),
            format!(
                "sign again keeping every line under {WRAP_HINT_CHARS} characters (mail \
                 clients wrap long lines), or send the block as a .txt attachment"
            ),
        )
    })
}
