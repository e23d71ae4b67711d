//! What a cassette does with a request: answer it from the recording, forward it and record
//! the answer, or either, as the recording has it — and when a mode is refused.

use std::fmt;

/// The environment variable that overrides a cassette's [`Mode`] set in code: `replay`,
/// `record` or `auto` (record a cassette again with `AGENT_TEST_CASSETTE_MODE=record cargo
/// test`, without editing the tests).
pub const CASSETTE_MODE_ENV: &str = "AGENT_TEST_CASSETTE_MODE";

/// How a cassette treats requests.
///
/// ```
/// use agent_test::cassette::Mode;
/// assert_eq!(Mode::from_name("record"), Some(Mode::Record));
/// assert_eq!(Mode::default(), Mode::Replay);
/// assert_eq!(Mode::Auto.to_string(), "auto");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// Answer every request from the cassette; nothing is forwarded, and a request with no
    /// recording is an error naming the closest recorded one (the default: it costs nothing
    /// and needs no key).
    #[default]
    Replay,
    /// Forward every request to the provider and record each answer (over an older recording
    /// of the same request).
    Record,
    /// Answer what is recorded, forward and record what is not. Refused when the `CI`
    /// environment variable is set: a CI run must neither spend money nor need a key.
    Auto,
}

impl Mode {
    /// The mode named `replay`, `record` or `auto` (any case, surrounding blanks ignored).
    ///
    /// See the type's example.
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "replay" => Some(Mode::Replay),
            "record" => Some(Mode::Record),
            "auto" => Some(Mode::Auto),
            _ => None,
        }
    }

    /// The mode's name, as [`Mode::from_name`] reads it.
    ///
    /// See the type's example.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Replay => "replay",
            Mode::Record => "record",
            Mode::Auto => "auto",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The mode in effect: `env` (the value of [`CASSETTE_MODE_ENV`], when set and not blank)
/// over `code`; a value that names no mode is an error, never a fallback (a typo in CI must
/// not start recording).
#[cfg(feature = "cassette")]
pub(crate) fn effective(code: Mode, env: Option<&str>) -> Result<Mode, String> {
    match env {
        Some(v) if !v.trim().is_empty() => Mode::from_name(v)
            .ok_or_else(|| format!("{CASSETTE_MODE_ENV}=`{v}` is not one of replay, record, auto")),
        _ => Ok(code),
    }
}

/// Whether the environment is a CI run: `CI` set to anything but blank, `false` or `0` (CI
/// services set `CI=true`).
#[cfg(feature = "cassette")]
pub(crate) fn in_ci(ci: Option<&str>) -> bool {
    ci.is_some_and(|v| {
        let v = v.trim();
        !v.is_empty() && !v.eq_ignore_ascii_case("false") && v != "0"
    })
}

/// Why `mode` is refused given the value of `CI`, if it is: `auto` would record in CI.
#[cfg(feature = "cassette")]
pub(crate) fn refusal(mode: Mode, ci: Option<&str>) -> Option<String> {
    (mode == Mode::Auto && in_ci(ci)).then(|| {
        format!(
            "the cassette mode `auto` records what is missing, and CI is set (CI={}): a CI run \
             must neither spend money nor need a key. Replay in CI (the default), and record \
             where you have a key, with AGENT_TEST_CASSETTE_MODE=record or `auto`",
            ci.unwrap_or_default().trim()
        )
    })
}

#[cfg(all(test, feature = "cassette"))]
mod tests {
    use super::*;

    #[test]
    fn the_environment_wins_and_a_typo_is_an_error() {
        assert_eq!(effective(Mode::Replay, None), Ok(Mode::Replay));
        assert_eq!(effective(Mode::Replay, Some(" ")), Ok(Mode::Replay));
        assert_eq!(effective(Mode::Replay, Some("Record")), Ok(Mode::Record));
        assert_eq!(
            effective(Mode::Record, Some("replya")),
            Err("AGENT_TEST_CASSETTE_MODE=`replya` is not one of replay, record, auto".into())
        );
    }

    #[test]
    fn auto_is_refused_in_ci_only() {
        assert!(refusal(Mode::Auto, Some("true")).is_some_and(|r| r.contains("CI=true")));
        assert!(refusal(Mode::Auto, Some("1")).is_some());
        assert!(refusal(Mode::Auto, None).is_none());
        assert!(refusal(Mode::Auto, Some("false")).is_none());
        assert!(refusal(Mode::Auto, Some("0")).is_none());
        assert!(refusal(Mode::Auto, Some("")).is_none());
        assert!(refusal(Mode::Record, Some("true")).is_none());
        assert!(refusal(Mode::Replay, Some("true")).is_none());
    }
}
