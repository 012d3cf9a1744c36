//! 002's artillery lines of an activation under battlefront-2013 (issue 18; R690–R697): the
//! Reload Special Action (`skill reload [<weapon>]`) and the Artillery Observer's attack
//! (`skill artillery-observer [sustained] [<gun>] at <target>`), Smoke Screen and Salvo. The
//! rules are played by `flow::artillery` and `flow::artillery002`; this names the lines so that
//! `refuse_command` lets them through.

/// Whether the `skill` line `name` is one of 002's artillery lines: `reload`, `reload-<weapon>`,
/// `artillery-observer[-sustained][-<gun>]`, `smoke-screen[-<weapon>]` (R697), `salvo` (R696).
pub fn is_line(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    if n == "salvo" {
        return true; // 002 "Salvo Weapons", declared (R696)
    }
    ["reload", "artillery-observer", "smoke-screen"]
        .iter()
        .any(|p| n == *p || n.starts_with(&format!("{p}-")))
}
