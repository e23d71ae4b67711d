//! A snapshot file's text: a header saying what it holds, then the content exactly.

/// A snapshot file: a header of `key: value` lines between `---` lines (the scenario, the check,
/// what it keeps), then the content exactly as the agent gave it, followed by one newline.
///
/// ```text
/// ---
/// scenario: refund
/// check: reply().snapshot()
/// of: reply
/// ---
/// Your refund of $42.10 is on its way.
/// ```
///
/// ```
/// use agent_test::snapshot::SnapshotFile;
/// let file = SnapshotFile::new("refund", "reply().snapshot()", "reply", "Your refund is on its way.");
/// let text = file.render();
/// assert_eq!(SnapshotFile::parse(&text).unwrap(), file);
/// assert_eq!(SnapshotFile::parse("Hello").unwrap_err(), "line 1: expected `---`, the start of the header");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotFile {
    /// The scenario whose check it is.
    pub scenario: String,
    /// The check, as written.
    pub check: String,
    /// What it keeps ("reply", "calls of `book`", ...).
    pub of: String,
    /// The content compared.
    pub content: String,
}

const FENCE: &str = "---";
const KEYS: [&str; 3] = ["scenario", "check", "of"];

impl SnapshotFile {
    /// A snapshot of `content`.
    ///
    /// See the type's example.
    pub fn new(
        scenario: impl Into<String>,
        check: impl Into<String>,
        of: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        SnapshotFile {
            scenario: scenario.into(),
            check: check.into(),
            of: of.into(),
            content: content.into(),
        }
    }

    /// The file's text. Header values are kept on one line each (a check written over several
    /// lines is joined with spaces).
    ///
    /// See the type's example.
    pub fn render(&self) -> String {
        let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        format!(
            "{FENCE}\nscenario: {}\ncheck: {}\nof: {}\n{FENCE}\n{}\n",
            one_line(&self.scenario),
            one_line(&self.check),
            one_line(&self.of),
            self.content
        )
    }

    /// Reads a snapshot file's text; `Err` names the line and what is wrong (no header, an
    /// unknown or repeated key, a key missing, no newline after the content).
    ///
    /// ```
    /// use agent_test::snapshot::SnapshotFile;
    /// let err = SnapshotFile::parse("---\nscenario: a\nscenario: b\n---\nx\n").unwrap_err();
    /// assert_eq!(err, "line 3: `scenario` given twice");
    /// let err = SnapshotFile::parse("---\nscenario: a\ncheck: c\nof: reply\nmood: good\n---\nx\n").unwrap_err();
    /// assert_eq!(err, "line 5: unknown key `mood` (the keys are scenario, check, of)");
    /// ```
    pub fn parse(text: &str) -> Result<Self, String> {
        // The text after the header is the content whatever its lines hold: split the header
        // off first.
        let mut rest = text
            .strip_prefix("---\n")
            .ok_or("line 1: expected `---`, the start of the header")?;
        let mut values: [Option<String>; 3] = [None, None, None];
        let mut line_no = 1;
        loop {
            line_no += 1;
            let (line, after) = rest
                .split_once('\n')
                .ok_or_else(|| format!("line {line_no}: the header has no closing `---`"))?;
            rest = after;
            if line == FENCE {
                break;
            }
            let (key, value) = line
                .split_once(": ")
                .ok_or_else(|| format!("line {line_no}: expected `key: value` or `---`"))?;
            let slot = KEYS.iter().position(|k| *k == key).ok_or_else(|| {
                format!(
                    "line {line_no}: unknown key `{key}` (the keys are {})",
                    KEYS.join(", ")
                )
            })?;
            let taken = values
                .get_mut(slot)
                .and_then(|v| v.replace(value.to_owned()));
            if taken.is_some() {
                return Err(format!("line {line_no}: `{key}` given twice"));
            }
        }
        let content = rest.strip_suffix('\n').ok_or_else(|| {
            format!(
                "line {}: the content does not end with a newline (the file was cut short?)",
                line_no + 1 + rest.matches('\n').count()
            )
        })?;
        let [scenario, check, of] = values;
        let missing = |k: &str| format!("the header has no `{k}`");
        Ok(SnapshotFile {
            scenario: scenario.ok_or_else(|| missing("scenario"))?,
            check: check.ok_or_else(|| missing("check"))?,
            of: of.ok_or_else(|| missing("of"))?,
            content: content.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::SnapshotFile;

    #[test]
    fn content_is_kept_exactly_whatever_it_holds() {
        for content in ["", "\n", "---", "a\n---\nb", "trailing  ", "line\r\nbreaks"] {
            let f = SnapshotFile::new("s", "reply().snapshot()", "reply", content);
            assert_eq!(SnapshotFile::parse(&f.render()).unwrap().content, content);
        }
    }

    #[test]
    fn garbled_files_say_where() {
        for (text, why) in [
            ("", "line 1: expected `---`, the start of the header"),
            (
                "---\nscenario: a\n",
                "line 3: the header has no closing `---`",
            ),
            (
                "---\nscenario a\n---\n",
                "line 2: expected `key: value` or `---`",
            ),
            (
                "---\nscenario: a\ncheck: c\n---\nx\n",
                "the header has no `of`",
            ),
            (
                "---\nscenario: a\ncheck: c\nof: reply\n---\nx",
                "line 6: the content does not end with a newline (the file was cut short?)",
            ),
        ] {
            assert_eq!(SnapshotFile::parse(text).unwrap_err(), why, "{text:?}");
        }
    }

    #[test]
    fn a_check_over_lines_is_one_header_line() {
        let f = SnapshotFile::new("s", "reply()\n    .snapshot()", "reply", "x");
        assert_eq!(
            f.render(),
            "---\nscenario: s\ncheck: reply() .snapshot()\nof: reply\n---\nx\n"
        );
    }
}
