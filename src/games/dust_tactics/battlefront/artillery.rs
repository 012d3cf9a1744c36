//! 002's artillery lines of an activation under battlefront-2013 (issue 18; R690, R693): the
//! Reload Special Action (`skill reload [<weapon>]`) and, once built, the Artillery Observer's
//! attack. The rules are played by `flow::artillery` and `flow::artillery002`; this names the
//! lines so that `refuse_command` lets them through.

/// Whether the `skill` line `name` is one of 002's artillery lines: `reload`, `reload-<weapon>`.
pub fn is_line(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "reload" || n.starts_with("reload-")
}
