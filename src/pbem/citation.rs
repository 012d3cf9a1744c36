//! Typed citations for the refusals of the core and the pipeline (issue 11 item 5): a refusal
//! names the section of a player document it applies as a [`DocRule`], never as free text, and
//! every citation renders one way: `docs/orders.md "The signed block": detail` (a whole document
//! is just its path). The games cite their rulebook with their own ids (Dust Tactics:
//! `games::dust_tactics::citation::RuleId`).
//!
//! Ledgers record the rendered text, and replay compares the results of a game step (the
//! referee's own lines of `lines`) and of a control line with what it recomputes, byte for
//! byte; `audit` recognises the refusals it re-checks by their prefix. So a variant's rendering
//! is frozen once ledgers carry it: change a section only by adding a variant.

use std::fmt;

macro_rules! doc_rules {
    ($($(#[doc = $doc:literal])* $variant:ident => $file:literal, $section:expr, $mechanical:literal;)*) => {
        /// A section of a player document a refusal of the core or the pipeline cites.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum DocRule {
            $($(#[doc = $doc])* $variant,)*
        }

        impl DocRule {
            /// Every citable section.
            pub const ALL: &'static [DocRule] = &[$(DocRule::$variant,)*];

            /// The document, from the repository root (`docs/orders.md`).
            pub fn document(self) -> &'static str {
                match self {
                    $(DocRule::$variant => $file,)*
                }
            }

            /// The `#`-heading of the section; `None`: the document as a whole.
            pub fn section(self) -> Option<&'static str> {
                match self {
                    $(DocRule::$variant => $section,)*
                }
            }

            /// Whether a submission refused under this rule failed a check of
            /// `verify::check_block` (signature, side, seq, game over), which `audit` redoes.
            pub fn mechanical(self) -> bool {
                match self {
                    $(DocRule::$variant => $mechanical,)*
                }
            }
        }
    };
}

doc_rules! {
    /// The orders document as a whole: a referee line (`report`, `template`, `absent`) that does
    /// not parse. Recorded in step results, which replay compares: the text stays `docs/orders.md`.
    Orders => "docs/orders.md", None, false;
    /// The signed block: markers, `game:`/`side:`/`seq:` lines, signature, size.
    SignedBlock => "docs/orders.md", Some("The signed block"), true;
    /// A block refused whole for its errors (more than 20 refused lines).
    Errors => "docs/orders.md", Some("Errors"), false;
    /// Referee commands: `side: referee` blocks and `dustmail control`.
    RefereeCommands => "docs/orders.md", Some("Referee commands"), true;
    /// `absent until DATE` and its bound.
    Absence => "docs/deadlines.md", Some("Absence"), false;
    /// A finished game takes no more orders; its end mail gives the result.
    GameEnded => "docs/reports.md", Some("What a report says"), true;
}

/// How ledgers written before these citations name the refusals of `check_block`: "DESIGN §4"
/// (before the rules cited docs/orders.md) and the game-over refusal's first text.
pub const LEGACY_MECHANICAL: &[&str] = &["DESIGN §4", "the game ended"];

/// Whether a recorded refusal's rule text is one of `check_block`'s (a mechanical check an
/// auditor can redo), in this version's words or an older ledger's.
pub fn is_mechanical(rule: &str) -> bool {
    LEGACY_MECHANICAL.iter().any(|p| rule.starts_with(p))
        || DocRule::ALL
            .iter()
            .filter(|r| r.mechanical())
            .any(|r| rule.starts_with(&r.to_string()))
}

impl DocRule {
    /// This section with a short statement of what it says (`…"The signed block": seq is…`).
    pub const fn with(self, detail: &'static str) -> DocCitation {
        DocCitation {
            rule: self,
            detail: Some(detail),
        }
    }
}

/// A section as a refusal cites it, and optionally the words of it that apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocCitation {
    pub rule: DocRule,
    pub detail: Option<&'static str>,
}

impl From<DocRule> for DocCitation {
    fn from(rule: DocRule) -> Self {
        DocCitation { rule, detail: None }
    }
}

impl fmt::Display for DocRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DocCitation::from(*self).fmt(f)
    }
}

impl fmt::Display for DocCitation {
    /// `docs/file.md`, then ` "Section"`, then `: detail`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rule.document())?;
        if let Some(s) = self.rule.section() {
            write!(f, " \"{s}\"")?;
        }
        if let Some(d) = self.detail {
            write!(f, ": {d}")?;
        }
        Ok(())
    }
}

// The refusal types store the rule as text (ledgers are JSON): a citation goes in as its text.
impl From<DocRule> for String {
    fn from(r: DocRule) -> String {
        r.to_string()
    }
}

impl From<DocCitation> for String {
    fn from(c: DocCitation) -> String {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renderings_are_the_texts_ledgers_already_carry() {
        assert_eq!(DocRule::Orders.to_string(), "docs/orders.md");
        assert_eq!(
            DocRule::RefereeCommands.to_string(),
            "docs/orders.md \"Referee commands\""
        );
        assert_eq!(
            DocRule::Absence.to_string(),
            "docs/deadlines.md \"Absence\""
        );
        assert_eq!(
            DocRule::SignedBlock
                .with("seq is per player, strictly increasing")
                .to_string(),
            "docs/orders.md \"The signed block\": seq is per player, strictly increasing"
        );
    }

    #[test]
    fn mechanical_rules_are_check_blocks_old_and_new() {
        for r in [
            "DESIGN §4: seq",
            "the game ended (see the end mail)",
            "docs/orders.md \"The signed block\": seq is per player, strictly increasing",
            "docs/orders.md \"Referee commands\": `side: referee` blocks are signed with the referee's key",
            "docs/reports.md \"What a report says\": the game ended (see the end mail)",
        ] {
            assert!(is_mechanical(r), "{r}");
        }
        for r in [
            "docs/orders.md",
            "docs/orders.md \"Errors\"",
            "docs/deadlines.md \"Absence\"",
            "004 'Move'",
        ] {
            assert!(!is_mechanical(r), "{r}");
        }
    }
}
