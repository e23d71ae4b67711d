//! The DSL's words, Rust's keywords, and "did you mean" suggestions.

/// Words that start a statement inside a scenario.
pub(crate) const SCENARIO_WORDS: &[&str] = &[
    "user", "system", "history", "expect", "context", "simulate", "extract",
];

/// Words that start an item at the top of `agent_test!`.
pub(crate) const SUITE_WORDS: &[&str] = &["scenario", "context", "files"];

/// Suite settings written `name = <expr>;`.
pub(crate) const SETTINGS: &[&str] = &[
    "agent",
    "judge",
    "timeout",
    "report_dir",
    "clock",
    "timezone",
    "repeat",
    "min_passes",
    "min_pass_rate",
    "prices",
    "max_cost_usd",
    "tags",
    "tools",
    "runtime",
];

/// Settings a scenario can override, written `name = <expr>;` in its body.
pub(crate) const SCENARIO_SETTINGS: &[&str] = &[
    "agent",
    "judge",
    "timeout",
    "clock",
    "timezone",
    "repeat",
    "min_passes",
    "min_pass_rate",
    "prices",
    "tags",
    "runtime",
];

/// Rust keywords (and contextual keywords that can start an item or statement): an identifier
/// in this list followed by another identifier is Rust, not a misspelt DSL word.
const RUST_WORDS: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "yield",
    "union",
    "auto",
    "default",
    "macro_rules",
    "safe",
    "gen",
    "try",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "abstract",
    "become",
];

pub(crate) fn is_rust_word(word: &str) -> bool {
    RUST_WORDS.contains(&word)
}

/// The closest candidate to `word`, when it is close enough to be a likely typo.
pub(crate) fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    // A word being typed: the first candidate it begins.
    if word.len() >= 2
        && let Some(c) = candidates
            .iter()
            .find(|c| c.starts_with(word) && c.len() > word.len())
    {
        return Some(c);
    }
    candidates
        .iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), *c))
        .filter(|(d, c)| *d <= (c.len().max(word.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// ", did you mean `x`?" or "".
pub(crate) fn suggestion(word: &str, candidates: &[&str]) -> String {
    did_you_mean(word, candidates).map_or(String::new(), |c| format!("; did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("expct", SCENARIO_WORDS), Some("expect"));
        assert_eq!(did_you_mean("usr", SCENARIO_WORDS), Some("user"));
        assert_eq!(did_you_mean("sytem", SCENARIO_WORDS), Some("system"));
        assert_eq!(did_you_mean("banana", SCENARIO_WORDS), None);
        assert_eq!(did_you_mean("agnet", SETTINGS), Some("agent"));
        assert_eq!(did_you_mean("us", SCENARIO_WORDS), Some("user"));
        assert_eq!(did_you_mean("exp", SCENARIO_WORDS), Some("expect"));
    }
}
