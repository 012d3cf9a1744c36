//! The layers of DESIGN §2, read from the sources (issue 11 item 1): the core imports no edge and
//! no game, an edge imports no game, a game imports only the core, no circle between the
//! modules, and no source file over 1,000 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// A unit of the dependency graph: the core, one edge module, the pipeline, one game, the cli,
/// the config.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Core,
    Edge(String),
    Pipeline,
    Game(String),
    Config,
    Cli,
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The unit a path under src/ belongs to (`None`: lib.rs and main.rs, which only declare).
fn unit_of_path(rel: &str) -> Option<Unit> {
    let parts: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
    Some(match parts.as_slice() {
        ["lib"] | ["main"] => return None,
        ["pbem", ..] => Unit::Core,
        ["edges", "mod"] => Unit::Edge("mod".into()),
        ["edges", m, ..] => Unit::Edge(m.to_string()),
        ["pipeline", ..] => Unit::Pipeline,
        ["games", "mod"] => Unit::Game("mod".into()),
        ["games", g, ..] => Unit::Game(g.to_string()),
        ["config"] => Unit::Config,
        ["cli", ..] => Unit::Cli,
        other => panic!("src/{rel}: a file outside the layers of DESIGN §2 ({other:?}); put it in pbem/, edges/, pipeline/ or games/"),
    })
}

/// What a crate-root name stands for: lib.rs's `pub use` aliases (`ledger` is `pbem::ledger`).
fn root_aliases() -> BTreeMap<String, String> {
    let lib = std::fs::read_to_string(format!("{SRC}/lib.rs")).unwrap();
    let mut m = BTreeMap::new();
    for line in lib.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.trim_end_matches(';');
        if let Some((path, alias)) = rest.split_once(" as ") {
            m.insert(alias.trim().to_string(), path.trim().replace("::", "/"));
        } else if let Some((base, names)) = rest.split_once("::{") {
            for n in names.trim_end_matches('}').split(',') {
                m.insert(n.trim().to_string(), format!("{base}/{}", n.trim()));
            }
        } else if let Some((base, name)) = rest.rsplit_once("::") {
            m.insert(name.to_string(), format!("{base}/{name}"));
        }
    }
    m
}

/// The units a file refers to through `crate::…` paths.
fn references(text: &str, aliases: &BTreeMap<String, String>) -> BTreeSet<Unit> {
    let mut out = BTreeSet::new();
    let code: String = text
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with("//") || t.starts_with("#[doc"))
        })
        .collect::<Vec<_>>()
        .join("\n");
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let mut segs: Vec<String> = path
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let Some(first) = segs.first().cloned() else {
            continue;
        };
        if let Some(target) = aliases.get(&first) {
            let mut t: Vec<String> = target.split('/').map(String::from).collect();
            t.extend(segs.drain(1..));
            segs = t;
        }
        let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
        let unit = match segs.as_slice() {
            ["pbem", ..] => Unit::Core,
            ["edges"] => Unit::Edge("mod".into()),
            ["edges", m, ..] => Unit::Edge(m.to_string()),
            ["pipeline", ..] => Unit::Pipeline,
            ["games"] => Unit::Game("mod".into()),
            ["games", g, ..] => Unit::Game(g.to_string()),
            ["config", ..] => Unit::Config,
            ["cli", ..] => Unit::Cli,
            other => panic!("`crate::{}` names no layer of DESIGN §2", other.join("::")),
        };
        out.insert(unit);
    }
    out
}

fn graph() -> BTreeMap<PathBuf, (Unit, BTreeSet<Unit>)> {
    let aliases = root_aliases();
    let mut files = Vec::new();
    rs_files(Path::new(SRC), &mut files);
    files.sort();
    let mut g = BTreeMap::new();
    for f in files {
        let rel = f
            .strip_prefix(SRC)
            .unwrap()
            .to_string_lossy()
            .trim_start_matches('/')
            .to_string();
        let Some(unit) = unit_of_path(&rel) else {
            continue;
        };
        let text = std::fs::read_to_string(&f).unwrap();
        let mut refs = references(&text, &aliases);
        refs.remove(&unit);
        g.insert(f, (unit, refs));
    }
    g
}

fn allowed(from: &Unit, to: &Unit) -> bool {
    use Unit::*;
    match (from, to) {
        (Core, Core) => true,
        (Core, _) => false,
        // An edge knows the core and other edges, never a game, the pipeline or the cli.
        (Edge(_), Core | Edge(_)) => true,
        (Edge(_), _) => false,
        (Pipeline, Core | Edge(_) | Config) => true,
        (Pipeline, _) => false,
        // A game imports only the core (and itself).
        (Game(a), Game(b)) => a == b,
        (Game(_), Core) => true,
        (Game(_), _) => false,
        (Config, Core | Edge(_)) => true,
        (Config, _) => false,
        (Cli, _) => true,
    }
}

/// Issue 11 item 1: the core imports no edge and no game; an edge imports no game; a game
/// imports only the core.
#[test]
fn every_layer_imports_only_what_design_2_allows() {
    let mut bad = Vec::new();
    for (f, (unit, refs)) in graph() {
        for r in refs {
            if !allowed(&unit, &r) {
                bad.push(format!("{} ({unit:?}) imports {r:?}", f.display()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports DESIGN §2 forbids:\n{}",
        bad.join("\n")
    );
}

/// Issue 11 item 1: no circle between the units (the report and the referee once imported each
/// other).
#[test]
fn no_circle_between_the_modules() {
    let mut edges: BTreeMap<Unit, BTreeSet<Unit>> = BTreeMap::new();
    for (_, (unit, refs)) in graph() {
        edges.entry(unit).or_default().extend(refs);
    }
    // Depth-first search for a back edge, naming the circle.
    fn visit(
        u: &Unit,
        edges: &BTreeMap<Unit, BTreeSet<Unit>>,
        stack: &mut Vec<Unit>,
        done: &mut BTreeSet<Unit>,
    ) -> Option<Vec<Unit>> {
        if let Some(i) = stack.iter().position(|s| s == u) {
            let mut c = stack[i..].to_vec();
            c.push(u.clone());
            return Some(c);
        }
        if done.contains(u) {
            return None;
        }
        stack.push(u.clone());
        for v in edges.get(u).into_iter().flatten() {
            if let Some(c) = visit(v, edges, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(u.clone());
        None
    }
    let mut done = BTreeSet::new();
    for u in edges.keys() {
        if let Some(c) = visit(u, &edges, &mut Vec::new(), &mut done) {
            panic!("a circle between modules: {c:?}");
        }
    }
}

/// Issue 11 item 1: no source file over 1,000 lines.
#[test]
fn no_source_file_is_over_a_thousand_lines() {
    let mut files = Vec::new();
    rs_files(Path::new(SRC), &mut files);
    let mut long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > 1000).then(|| format!("{} has {n} lines", f.display()))
        })
        .collect();
    long.sort();
    assert!(long.is_empty(), "split these files:\n{}", long.join("\n"));
}

/// The checker itself: a planted core file importing an edge, and a game importing another game,
/// are caught (so the tests above cannot pass by reading nothing).
#[test]
fn the_checker_sees_a_forbidden_import() {
    let aliases = root_aliases();
    let core_refs = references("use crate::report::Templates;\nfn f() {}", &aliases);
    assert!(
        core_refs.contains(&Unit::Edge("report".into())),
        "{core_refs:?}"
    );
    assert!(!allowed(&Unit::Core, &Unit::Edge("report".into())));
    let game_refs = references("use crate::games::other::X;", &aliases);
    assert!(!allowed(
        &Unit::Game("dust_tactics".into()),
        game_refs.iter().next().unwrap()
    ));
    // The root aliases resolve: `crate::ledger` is the core.
    assert_eq!(
        references("crate::ledger::Entry", &aliases),
        BTreeSet::from([Unit::Core])
    );
    assert!(graph().len() > 40, "the sources were read");
}
