//! A literal text search — contains, starts with, ends with, equals — exact or ignoring case,
//! without a regex where one is not needed.
//!
//! Case-sensitive searches use `memchr::memmem`. Ignoring case follows Unicode simple case
//! folding, exactly as a `(?i)` regex does; when the text to look for is ASCII and the text
//! searched has no character that folds into ASCII (only `ſ` U+017F and the Kelvin sign
//! U+212A do), folding ASCII letters is the same thing and needs no regex. Otherwise the
//! search falls back to a case-insensitive regex of the escaped literal, compiled once
//! process-wide ([`Pattern`]).

use std::sync::OnceLock;

use memchr::memmem;

use crate::compare::pattern::Pattern;

/// Where a literal must be found in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Anchor {
    /// Anywhere.
    None,
    /// At the start.
    Start,
    /// At the end.
    End,
    /// The whole text.
    Both,
}

/// A literal to look for, prepared once.
#[derive(Clone)]
#[doc(hidden)]
pub struct Literal {
    needle: String,
    anchor: Anchor,
    ignore_case: bool,
    /// The regex of the escaped literal, made when a case-insensitive search first needs
    /// it (a needle or text with characters that fold into ASCII).
    unicode: OnceLock<Pattern>,
}

impl Literal {
    /// Prepares a search for `needle`.
    #[doc(hidden)]
    pub fn new(needle: &str, anchor: Anchor, ignore_case: bool) -> Self {
        Literal {
            needle: needle.to_owned(),
            anchor,
            ignore_case,
            unicode: OnceLock::new(),
        }
    }

    /// Where the literal is found in `text` (byte range), if it is; `Err` when the search
    /// could not be made (the fallback regex exceeds the regex size limit): "not found" then
    /// would pass a negative check on a search that never happened.
    #[doc(hidden)]
    pub fn find(&self, text: &str) -> Result<Option<(usize, usize)>, String> {
        if let Some(found) = fast(text, &self.needle, self.anchor, self.ignore_case) {
            return Ok(found);
        }
        let pattern = self
            .unicode
            .get_or_init(|| folding_pattern(&self.needle, self.anchor));
        by_pattern(pattern, text)
    }
}

/// Where `needle` is found in `text` (byte range), if it is: [`Literal::find`] for a search
/// made once.
#[doc(hidden)]
pub fn find(
    text: &str,
    needle: &str,
    anchor: Anchor,
    ignore_case: bool,
) -> Result<Option<(usize, usize)>, String> {
    match fast(text, needle, anchor, ignore_case) {
        Some(found) => Ok(found),
        None => by_pattern(&folding_pattern(needle, anchor), text),
    }
}

/// The search without a regex, or `None` when only Unicode case folding can answer it.
fn fast(
    text: &str,
    needle: &str,
    anchor: Anchor,
    ignore_case: bool,
) -> Option<Option<(usize, usize)>> {
    if !ignore_case {
        Some(exact(text, needle, anchor))
    } else if needle.is_ascii() && !folds_into_ascii(text) {
        Some(ascii_folded(text.as_bytes(), needle.as_bytes(), anchor))
    } else {
        None
    }
}

/// The case-insensitive regex of the escaped literal (compiled once per process).
fn folding_pattern(needle: &str, anchor: Anchor) -> Pattern {
    let escaped = regex::escape(needle);
    Pattern::case_insensitive(match anchor {
        Anchor::None => escaped,
        Anchor::Start => format!(r"\A(?:{escaped})"),
        Anchor::End => format!(r"(?:{escaped})\z"),
        Anchor::Both => format!(r"\A(?:{escaped})\z"),
    })
}

/// The search by the regex of the escaped literal. It is valid syntax, but may exceed the
/// regex size limit (a long needle whose letters each fold several ways): an error then.
fn by_pattern(pattern: &Pattern, text: &str) -> Result<Option<(usize, usize)>, String> {
    let regex = pattern
        .regex()
        .map_err(|e| format!("the text to look for cannot be searched ignoring case: {e}"))?;
    Ok(regex.find(text).map(|m| (m.start(), m.end())))
}

fn exact(text: &str, needle: &str, anchor: Anchor) -> Option<(usize, usize)> {
    let n = needle.len();
    match anchor {
        Anchor::None => memmem::find(text.as_bytes(), needle.as_bytes()).map(|i| (i, i + n)),
        Anchor::Start => text.starts_with(needle).then_some((0, n)),
        Anchor::End => text.ends_with(needle).then(|| (text.len() - n, text.len())),
        Anchor::Both => (text == needle).then_some((0, n)),
    }
}

/// The search with ASCII letters folded; `needle` is ASCII, so a match never splits a
/// character of `text` (its bytes are all below 0x80).
fn ascii_folded(text: &[u8], needle: &[u8], anchor: Anchor) -> Option<(usize, usize)> {
    let n = needle.len();
    let at = |i: usize| {
        text.get(i..i + n)
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
    };
    match anchor {
        Anchor::Start => at(0).then_some((0, n)),
        Anchor::End => {
            let i = text.len().checked_sub(n)?;
            at(i).then_some((i, text.len()))
        }
        Anchor::Both => (text.len() == n && at(0)).then_some((0, n)),
        Anchor::None => {
            if n == 0 {
                return Some((0, 0));
            }
            // Look for the needle's rarest letter (both cases) and check around it: far fewer
            // candidates than its first letter in English text.
            let (at_rare, rare) = rarest(needle)?;
            let (lower, upper) = (rare.to_ascii_lowercase(), rare.to_ascii_uppercase());
            let last_start = text.len().checked_sub(n)?;
            memchr::memchr2_iter(lower, upper, text)
                .filter_map(|i| i.checked_sub(at_rare))
                .take_while(|&start| start <= last_start)
                .find(|&start| at(start))
                .map(|i| (i, i + n))
        }
    }
}

/// The position of the needle's rarest byte in English text (the first, among equals), and
/// that byte; `None` for an empty needle.
fn rarest(needle: &[u8]) -> Option<(usize, u8)> {
    /// Letters from the most to the least frequent in English.
    const LETTERS: &[u8] = b"etaoinshrdlcumwfgypbvkjxqz";
    let rarity = |b: u8| match b.to_ascii_lowercase() {
        b' ' => 0,
        lower @ b'a'..=b'z' => 1 + LETTERS.iter().position(|&l| l == lower).unwrap_or(0),
        b'0'..=b'9' => 18,
        _ => 20,
    };
    let mut best: Option<(usize, u8)> = None;
    for (i, &b) in needle.iter().enumerate() {
        if best.is_none_or(|(_, rare)| rarity(b) > rarity(rare)) {
            best = Some((i, b));
        }
    }
    best
}

/// Whether `text` has a character that simple case folding maps into ASCII: `ſ` (U+017F,
/// folds to `s`) or the Kelvin sign (U+212A, folds to `k`).
fn folds_into_ascii(text: &str) -> bool {
    // Both are encoded with a lead byte no ASCII text has: test the rare case cheaply.
    !text.is_ascii() && text.contains(['\u{17F}', '\u{212A}'])
}

impl std::fmt::Debug for Literal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Literal({:?})", self.needle)
    }
}

impl PartialEq for Literal {
    fn eq(&self, other: &Self) -> bool {
        self.needle == other.needle
            && self.anchor == other.anchor
            && self.ignore_case == other.ignore_case
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANCHORS: [Anchor; 4] = [Anchor::None, Anchor::Start, Anchor::End, Anchor::Both];

    /// What a `(?i)` regex of the escaped literal finds: the meaning the fast paths keep.
    fn by_regex(
        text: &str,
        needle: &str,
        anchor: Anchor,
        ignore_case: bool,
    ) -> Option<(usize, usize)> {
        let escaped = regex::escape(needle);
        let source = match anchor {
            Anchor::None => escaped,
            Anchor::Start => format!(r"\A(?:{escaped})"),
            Anchor::End => format!(r"(?:{escaped})\z"),
            Anchor::Both => format!(r"\A(?:{escaped})\z"),
        };
        let re = regex::RegexBuilder::new(&source)
            .case_insensitive(ignore_case)
            .build()
            .unwrap();
        re.find(text).map(|m| (m.start(), m.end()))
    }

    #[test]
    fn agrees_with_the_regex_everywhere() {
        let texts = [
            "",
            "Refund PROCESSED for ORD-1",
            "refund",
            "REFUND",
            "a refund, another Refund",
            "Straße ſtraße KELVIN \u{212A}elvin",
            "café CAFÉ",
            "ÅNGSTRÖM ångström",
            "ends with Refund",
            "frefund fund REFUNDrefund",
            "x",
        ];
        let needles = [
            "refund",
            "Refund",
            "",
            "x",
            "kelvin",
            "straße",
            "st",
            "café",
            "ÅNG",
            "refund processed",
        ];
        for text in texts {
            for needle in needles {
                for anchor in ANCHORS {
                    for ignore_case in [false, true] {
                        let want = by_regex(text, needle, anchor, ignore_case);
                        let l = Literal::new(needle, anchor, ignore_case);
                        let what = format!(
                            "{needle:?} in {text:?}, {anchor:?}, ignore case {ignore_case}"
                        );
                        assert_eq!(l.find(text), Ok(want), "{what}");
                        assert_eq!(find(text, needle, anchor, ignore_case), Ok(want), "{what}");
                    }
                }
            }
        }
    }

    /// A search the regex cannot make is an error, never "not found" (which would pass a
    /// negative check).
    #[test]
    fn a_search_past_the_regex_size_limit_is_an_error() {
        let needle = "é".repeat(400_000);
        let e = Literal::new(&needle, Anchor::None, true)
            .find("short")
            .unwrap_err();
        assert!(
            e.starts_with("the text to look for cannot be searched ignoring case: "),
            "{e}"
        );
        assert!(find("short", &needle, Anchor::None, true).is_err());
        // Case-sensitive, the same needle needs no regex.
        assert_eq!(find("short", &needle, Anchor::None, false), Ok(None));
    }

    /// Only `ſ` and the Kelvin sign fold into ASCII letters: the ASCII fast path is exact on
    /// every other text.
    #[test]
    fn only_two_characters_fold_into_ascii() {
        let letter = regex::Regex::new("(?i)^[a-z]$").unwrap();
        let folding: Vec<char> = (0x80..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|c| letter.is_match(c.encode_utf8(&mut [0; 4])))
            .collect();
        assert_eq!(folding, ['\u{17F}', '\u{212A}']);
    }
}
