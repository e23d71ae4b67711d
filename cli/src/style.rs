//! Colours on a terminal: on when standard output is one, off when it is piped or written to
//! a file; `NO_COLOR` (set and not empty) turns them off and `CLICOLOR_FORCE` (set and not
//! `0`) on, whatever the output is (<https://no-color.org>, <https://bixense.com/clicolors>).

use std::io::IsTerminal;

/// Whether to colour what goes to standard output.
pub(crate) fn colours_for_stdout(to_a_file: bool) -> bool {
    decide(
        std::env::var_os("NO_COLOR"),
        std::env::var_os("CLICOLOR_FORCE"),
        !to_a_file && std::io::stdout().is_terminal(),
    )
}

fn decide(
    no_color: Option<std::ffi::OsString>,
    force: Option<std::ffi::OsString>,
    terminal: bool,
) -> bool {
    if no_color.is_some_and(|v| !v.is_empty()) {
        return false;
    }
    if force.is_some_and(|v| !v.is_empty() && v != "0") {
        return true;
    }
    terminal
}

/// The colours of the text output.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Style {
    on: bool,
}

impl Style {
    pub(crate) fn new(on: bool) -> Self {
        Style { on }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// A pass.
    pub(crate) fn pass(self, text: &str) -> String {
        self.paint("32", text)
    }

    /// A failure.
    pub(crate) fn fail(self, text: &str) -> String {
        self.paint("1;31", text)
    }

    /// Something that could not be read.
    pub(crate) fn problem(self, text: &str) -> String {
        self.paint("33", text)
    }

    /// Emphasis.
    pub(crate) fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_wins_then_force_then_the_terminal() {
        let s = |v: &str| Some(std::ffi::OsString::from(v));
        assert!(!decide(s("1"), s("1"), true));
        assert!(decide(s(""), None, true), "an empty NO_COLOR is unset");
        assert!(decide(None, s("1"), false));
        assert!(!decide(None, s("0"), false));
        assert!(!decide(None, None, false));
        assert!(decide(None, None, true));
    }

    #[test]
    fn paints_only_when_on() {
        assert_eq!(Style::new(false).fail("x"), "x");
        assert_eq!(Style::new(true).fail("x"), "\x1b[1;31mx\x1b[0m");
    }
}
