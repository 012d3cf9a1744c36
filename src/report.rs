//! Minimal text mails from the minijinja templates in `templates/` (built in; a home may override
//! them with `template_dir`). Rich text/HTML reports will be built on this.

use minijinja::Environment;
use std::path::Path;

/// Template names (file `templates/<name>.txt`).
pub const TEMPLATES: [(&str, &str); 6] = [
    ("welcome", include_str!("../templates/welcome.txt")),
    ("receipt", include_str!("../templates/receipt.txt")),
    ("refusal", include_str!("../templates/refusal.txt")),
    ("report", include_str!("../templates/report.txt")),
    ("reminder", include_str!("../templates/reminder.txt")),
    ("end", include_str!("../templates/end.txt")),
];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("template {name}: {msg}")]
pub struct TemplateError {
    pub name: String,
    pub msg: String,
}

/// The templates of a home: built-ins, each replaced by `<dir>/<name>.txt` when it exists.
pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    pub fn new(override_dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        for (name, builtin) in TEMPLATES {
            let text = match override_dir.map(|d| d.join(format!("{name}.txt"))) {
                Some(p) if p.exists() => {
                    std::fs::read_to_string(&p).map_err(|e| TemplateError {
                        name: name.into(),
                        msg: format!("cannot read {}: {e}", p.display()),
                    })?
                }
                _ => builtin.to_string(),
            };
            env.add_template_owned(name.to_string(), text)
                .map_err(|e| TemplateError {
                    name: name.into(),
                    msg: format!("{e}: fix the template file"),
                })?;
        }
        Ok(Templates { env })
    }

    /// Renders `name` with a JSON context.
    pub fn render(&self, name: &str, ctx: &serde_json::Value) -> Result<String, TemplateError> {
        let t = self.env.get_template(name).map_err(|e| TemplateError {
            name: name.into(),
            msg: e.to_string(),
        })?;
        t.render(minijinja::Value::from(minijinja::value::Serde(ctx)))
            .map_err(|e| TemplateError {
                name: name.into(),
                msg: format!("{e}: fix the template file"),
            })
    }
}

/// The `Ledger-Head:` line a player can keep as proof of what the ledger said.
pub fn ledger_head_line(game: &str, seq: u64, hash: &str) -> String {
    format!("Ledger-Head: {game} {seq} {hash}")
}

/// Appends the ledger-head line and its signature to a mail text.
pub fn with_ledger_head(text: &str, head_line: &str, sig: &str) -> String {
    let mut t = text.trim_end().to_string();
    t.push_str("\n\n-- \n");
    t.push_str(head_line);
    t.push('\n');
    t.push_str("Ledger-Head-Signature: ");
    t.push_str(sig);
    t.push('\n');
    t
}
