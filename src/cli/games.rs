//! The command line's games: the registry this binary fills (DESIGN §2: the one place that
//! names the games), `dustmail games`, team assignments and `dustmail demo`.

use super::{
    init, new_game, parse_now, run_once, usage, Failure, NewArgs, OutputArgs, DEMO_MARKER,
};
use crate::config::Home;
use crate::game::TeamUnit;
use crate::ledger::Player;
use crate::pipeline::{self as referee, Edges};
use crate::registry::{AnyGame, Registry};
use std::collections::BTreeMap;

/// Every game this build referees. Adding a game adds one line here.
static GAMES: [&dyn AnyGame; 2] = [
    &crate::dust_tactics::DustTactics,
    &crate::games::dust_strategy::DustStrategy,
];

/// The registry the binary runs with.
pub fn registry() -> Registry<'static> {
    Registry::new(&GAMES)
}

/// The default of `new --game` and `demo --game`.
pub const DEFAULT_GAME: &str = "dust-tactics";

/// `dustmail games`: every game, its rulesets (the first is the default) and its scenarios.
pub fn list(games: &Registry) {
    for g in games.games() {
        let c = g.catalog();
        outln!("{}: {}", c.name, c.title);
        outln!("  rulesets (--ruleset; the first is the default):");
        for r in &c.rulesets {
            outln!("    {:<22} {}", r.name, r.title);
        }
        outln!("  scenarios (--scenario):");
        for s in &c.scenarios {
            outln!(
                "    {:<22} {} (sides {}; rulesets {})",
                s.name,
                s.title,
                match s.sides.is_empty() {
                    true => "the two --player sides".to_string(),
                    false => s.sides.join(", "),
                },
                s.rulesets.join(", ")
            );
        }
    }
    outln!(
        "create one with: dustmail new --game GAME --scenario NAME --player SIDE=ADDRESS:PUBKEY …"
    );
}

/// Team assignments: every unit of a side with several players goes to one of them, from the
/// scenario's `player` fields and `--assign UNIT=PLAYER` (which wins). PLAYER is an address or
/// the label SIDE-N (the N-th `--player` of that side, from 1). `units` in scenario order.
pub fn team_assignments(
    units: &[TeamUnit],
    players: &[Player],
    assign: &[String],
) -> Result<BTreeMap<String, String>, String> {
    let resolve = |side: &str, who: &str, what: &str| -> Result<String, String> {
        let of_side: Vec<&Player> = players.iter().filter(|p| p.side == side).collect();
        if let Some(p) = of_side.iter().find(|p| p.address == who) {
            return Ok(p.address.clone());
        }
        let n = who
            .strip_prefix(side)
            .and_then(|r| r.strip_prefix('-'))
            .and_then(|n| n.parse::<usize>().ok());
        match n.and_then(|n| n.checked_sub(1)).and_then(|i| of_side.get(i)) {
            Some(p) => Ok(p.address.clone()),
            None => Err(format!(
                "{what}: `{who}` is not a player of side {side}: name the address of one of its --player options ({}) or the label {side}-1 … {side}-{}",
                of_side.iter().map(|p| p.address.as_str()).collect::<Vec<_>>().join(", "),
                of_side.len()
            )),
        }
    };
    let mut overrides: BTreeMap<String, String> = BTreeMap::new();
    for a in assign {
        let (unit, who) = a.split_once('=').ok_or_else(|| {
            format!("--assign `{a}`: write UNIT=PLAYER, e.g. rangers=ann@example.org or rangers=allies-1")
        })?;
        overrides.insert(unit.trim().to_ascii_lowercase(), who.trim().to_string());
    }
    let mut out = BTreeMap::new();
    for u in units {
        let team = players.iter().filter(|p| p.side == u.side).count() > 1;
        let who = overrides.remove(&u.id).or_else(|| u.player.clone());
        match (team, who) {
            (true, Some(w)) => {
                out.insert(u.id.clone(), resolve(&u.side, &w, &format!("unit {}", u.id))?);
            }
            (true, None) => {
                return Err(format!(
                    "side {} has several players, but unit {} is given to none of them: add `player = \"{}-1\"` to the unit in the scenario or pass --assign {}=ADDRESS",
                    u.side, u.id, u.side, u.id
                ))
            }
            // A one-player side commands all its units anyway.
            (false, _) => {}
        }
    }
    if let Some(unit) = overrides.keys().next() {
        return Err(format!(
            "--assign {unit}=…: the scenario has no unit `{unit}`"
        ));
    }
    for p in players {
        let team = players.iter().filter(|q| q.side == p.side).count() > 1;
        if team && !out.values().any(|a| *a == p.address) {
            return Err(format!(
                "player {} of side {} commands no unit: give them some with the scenario's `player` fields or --assign UNIT={}",
                p.address, p.side, p.address
            ));
        }
    }
    Ok(out)
}

/// `demo`: a fresh home, one local player per side of the game's first scenario suiting the
/// ruleset, then signed orders mailed into the Maildir and `run` until the game ends. Each side
/// is played by the game's sample player (Dust Tactics: an aggressive bot that shoots what it
/// can hurt and otherwise closes in).
pub fn demo(
    games: &Registry,
    home: &Home,
    game_name: &str,
    ruleset: Option<&str>,
) -> Result<(), Failure> {
    let game = games.find(game_name).map_err(usage)?;
    let catalog = game.catalog();
    let ruleset = match ruleset {
        Some(r) if catalog.rulesets.iter().any(|c| c.name == r) => r.to_string(),
        Some(r) => {
            return Err(usage(format!(
            "game {game_name} has no ruleset `{r}`: use one of {} (`dustmail games` lists them)",
            catalog
                .rulesets
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )))
        }
        None => catalog
            .rulesets
            .first()
            .map(|c| c.name.clone())
            .ok_or_else(|| usage(format!("game {game_name} offers no ruleset")))?,
    };
    let scenario = catalog
        .scenarios
        .iter()
        .find(|s| s.rulesets.contains(&ruleset))
        .ok_or_else(|| {
            usage(format!(
                "game {game_name} has no scenario for ruleset {ruleset}"
            ))
        })?;
    // A home an earlier demo made (it carries the marker) is replaced; any other non-empty
    // directory is left alone, so the demo can never delete a real referee's games.
    let marker = home.root.join(DEMO_MARKER);
    if marker.is_file() {
        std::fs::remove_dir_all(&home.root).map_err(|e| {
            usage(format!(
                "cannot remove the earlier demo home {}: {e}",
                home.root.display()
            ))
        })?;
    } else if home.root.exists()
        && std::fs::read_dir(&home.root)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(usage(format!(
            "{} is not empty and was not made by `dustmail demo`: pass --home NEWDIR",
            home.root.display()
        )));
    }
    init(home, "referee@demo.example", "file")?;
    std::fs::write(
        &marker,
        "made by `dustmail demo`; the next demo replaces this home\n",
    )
    .map_err(|e| usage(format!("cannot write {}: {e}", marker.display())))?;
    let keys_dir = home.root.join("demo-keys");
    std::fs::create_dir_all(&keys_dir)
        .map_err(|e| usage(format!("cannot create {}: {e}", keys_dir.display())))?;
    let mut keys = BTreeMap::new();
    let mut players = Vec::new();
    for side in &scenario.sides {
        let addr = format!("{side}@demo.example");
        // Fixed demo keys: dice v2 follow the players' signatures, so fixed keys (and the fixed
        // seed below) make every demo the same game. They play only this throwaway home.
        let key = ed25519_dalek::SigningKey::from_bytes(
            &<sha2::Sha256 as sha2::Digest>::digest(
                format!("dustmail demo key 3 {side}").as_bytes(),
            )
            .into(),
        );
        let path = keys_dir.join(format!("{side}.key"));
        crate::crypto::write_secret_key(&path, &key)
            .map_err(|e| usage(format!("cannot write {}: {e:#}", path.display())))?;
        players.push(format!(
            "{side}={addr}:{}",
            crate::crypto::public_key_text(&key.verifying_key())
        ));
        keys.insert(side.to_string(), (key, addr));
    }
    let t0 = parse_now(Some("2026-01-01T09:00:00Z"))?;
    let seed = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(b"dustmail demo"));
    let id = "g-demo";
    new_game(
        games,
        home,
        OutputArgs::default(),
        NewArgs {
            game: game_name,
            scenario: &scenario.name,
            players: &players,
            assign: &[],
            ruleset: &ruleset,
            forces: &[],
            fortify: &[],
            seed: Some(&seed),
            id: Some(id.into()),
            cards: None,
            digest: false,
            place_by_rolls: None,
            now: t0,
        },
    )?;
    let edges = Edges::real();
    let mut now = t0;
    let mut steps = 0;
    let mut finished = None;
    for step in 0..300 {
        let g = referee::load_game(game, &edges, home, id)?;
        if let Some(r) = g.derived.finished {
            finished = Some(r);
            break;
        }
        let Some(a) = game.awaiting(&g.derived.state).into_iter().next() else {
            break;
        };
        let Some((key, addr)) = keys.get(&a.side) else {
            return Err(usage(format!("the demo has no player for side {}", a.side)));
        };
        let seq = g.derived.last_seq.get(&a.side).copied().unwrap_or(0) + 1;
        let commands = game
            .sample_orders(&g.derived.state, &a.side, 0)
            .unwrap_or_else(|| a.options.first().cloned().unwrap_or_default());
        let text = format!("game: {id}\nside: {}\nseq: {seq}\n\n{commands}\n", a.side);
        let mail = format!(
            "From: {addr}\r\nTo: referee@demo.example\r\nSubject: orders\r\nMessage-ID: <demo-{step}@demo.example>\r\n\r\n{}",
            crate::crypto::sign_block(key, &text).replace('\n', "\r\n")
        );
        let path = home
            .maildir()
            .join("new")
            .join(format!("demo-{step:04}.eml"));
        std::fs::write(&path, mail)
            .map_err(|e| usage(format!("cannot write {}: {e}", path.display())))?;
        now += chrono::Duration::hours(1);
        outln!("{} sends: {}", a.side, commands.replace('\n', " / "));
        run_once(games, home, now, None, true, false, OutputArgs::default())?;
        steps += 1;
    }
    let root = home.root.display();
    outln!();
    match finished {
        Some(r) => outln!(
            "the demo game ended after {steps} mails: {} ({game_name}, ruleset {ruleset}, scenario {})",
            referee::result_text(&r),
            scenario.name
        ),
        None => outln!("the demo stopped after {steps} mails without an end"),
    }
    outln!("home:            {root}");
    outln!("ledger:          {root}/games/{id}/log.jsonl");
    outln!("player keys:     {root}/demo-keys/");
    outln!("mails received:  {root}/maildir/cur/");
    outln!("mails sent:      {root}/sent/");
    // Commands that work as printed: this very binary (by its name only when the PATH finds
    // it) and the home by its absolute path, so they work from any directory.
    let bin = super::eco::invocation();
    let abs = std::fs::canonicalize(&home.root).unwrap_or_else(|_| home.root.clone());
    let h = super::eco::shell_word(&abs.display().to_string());
    let log = super::eco::shell_word(&format!("{}/games/{id}/log.jsonl", abs.display()));
    outln!("try: {bin} --home {h} show {id}");
    outln!("     {bin} --home {h} replay {id}");
    outln!("     {bin} audit {log}");
    Ok(())
}

/// The `--fortify SIDE=bunker,strongpoint` options of `new` (side → list); the game reads the list
/// (R588).
pub(super) fn fortify(game: &str, args: &[String]) -> Result<BTreeMap<String, String>, String> {
    if !args.is_empty() && game != crate::dust_tactics::new_game::NAME {
        return Err(format!(
            "--fortify fields 002's bunkers and strongpoints, Dust Tactics' battlefront-2013; the game {game} has none: drop --fortify (R588)"
        ));
    }
    let mut out = BTreeMap::new();
    for a in args {
        let Some((side, list)) = a.split_once('=') else {
            return Err(format!(
                "--fortify {a}: write SIDE=LIST, e.g. --fortify axis=bunker,strongpoint (R588)"
            ));
        };
        if out
            .insert(side.trim().to_string(), list.trim().to_string())
            .is_some()
        {
            return Err(format!(
                "--fortify {a}: side {} is given twice: list all its fortifications in one --fortify, e.g. {}=bunker,strongpoint (R588)",
                side.trim(), side.trim()
            ));
        }
    }
    Ok(out)
}

/// The `--force SIDE=FORCE` options of `new` (side → force); the game checks the force.
pub(super) fn forces(game: &str, args: &[String]) -> Result<BTreeMap<String, String>, String> {
    if !args.is_empty() && game != crate::dust_tactics::new_game::NAME {
        return Err(format!(
            "--force fields a starter force of Dust Tactics' battlefront-2013 (003 §11); the game {game} has none: drop --force (R816)"
        ));
    }
    let mut out = BTreeMap::new();
    for a in args {
        let Some((side, force)) = a.split_once('=') else {
            return Err(format!(
                "--force {a}: write SIDE=FORCE, e.g. --force axis=battlegroup-koshka (R816)"
            ));
        };
        let (side, force) = (side.trim(), force.trim());
        if out.insert(side.to_string(), force.to_string()).is_some() {
            return Err(format!(
                "--force {a}: side {side} is given a force twice: give it one --force (R816)"
            ));
        }
    }
    Ok(out)
}
