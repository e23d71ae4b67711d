//! Why a command-line spec is not an MCP server: the [kind](McpSpecErrorKind) of problem and
//! the spec.

use std::fmt;

/// What kind of problem stopped an MCP server spec, to match on without reading the message.
///
/// ```
/// use agent_test::agent::{McpServer, McpSpecErrorKind};
/// let kind = |spec| McpServer::parse(spec).unwrap_err().kind;
/// assert_eq!(kind("ftp://x"), McpSpecErrorKind::UnknownTransport);
/// assert_eq!(kind("stdio:"), McpSpecErrorKind::NoCommand);
/// assert_eq!(kind("stdio:run 'unclosed"), McpSpecErrorKind::Quoting);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum McpSpecErrorKind {
    /// Neither `stdio:COMMAND ARGS...` nor an `http://` or `https://` URL.
    UnknownTransport,
    /// `stdio:` with no command after it.
    NoCommand,
    /// The command line has an unbalanced quote or a trailing backslash.
    Quoting,
}

/// A command-line spec that is not an MCP server: the [kind](McpSpecErrorKind) of problem and
/// the spec as given.
///
/// ```
/// use agent_test::agent::{McpServer, McpSpecErrorKind};
/// let err = McpServer::parse("files=stdio:npx \"dir").unwrap_err();
/// assert_eq!(err.kind, McpSpecErrorKind::Quoting);
/// assert_eq!(err.spec, "files=stdio:npx \"dir");
/// assert_eq!(
///     err.to_string(),
///     "`files=stdio:npx \"dir`: an unbalanced quote or a trailing backslash in the command"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpSpecError {
    /// What kind of problem it is.
    pub kind: McpSpecErrorKind,
    /// The spec as given (`[NAME=]stdio:COMMAND ARGS...` or `[NAME=]URL`).
    pub spec: String,
}

impl fmt::Display for McpSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spec = &self.spec;
        match self.kind {
            McpSpecErrorKind::UnknownTransport => write!(
                f,
                "`{spec}` is not an MCP server: `[NAME=]stdio:COMMAND ARGS...` or `[NAME=]URL` \
                 (http or https)"
            ),
            McpSpecErrorKind::NoCommand => {
                f.write_str("`stdio:` needs a command: `stdio:COMMAND ARGS...`")
            }
            McpSpecErrorKind::Quoting => write!(
                f,
                "`{spec}`: an unbalanced quote or a trailing backslash in the command"
            ),
        }
    }
}

impl std::error::Error for McpSpecError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::McpServer;

    /// Each garbled spec is told by its kind, with the message the command line shows.
    #[test]
    fn garbled_specs_have_kinds() {
        for (spec, kind, message) in [
            (
                "",
                McpSpecErrorKind::UnknownTransport,
                "`` is not an MCP server: `[NAME=]stdio:COMMAND ARGS...` or `[NAME=]URL` (http \
                 or https)",
            ),
            (
                "demo=ws://127.0.0.1/mcp",
                McpSpecErrorKind::UnknownTransport,
                "`demo=ws://127.0.0.1/mcp` is not an MCP server: `[NAME=]stdio:COMMAND \
                 ARGS...` or `[NAME=]URL` (http or https)",
            ),
            (
                "demo=stdio:   ",
                McpSpecErrorKind::NoCommand,
                "`stdio:` needs a command: `stdio:COMMAND ARGS...`",
            ),
            (
                "stdio:run trailing\\",
                McpSpecErrorKind::Quoting,
                "`stdio:run trailing\\`: an unbalanced quote or a trailing backslash in the \
                 command",
            ),
        ] {
            let err = McpServer::parse(spec).err().unwrap();
            assert_eq!(err.kind, kind, "{spec}");
            assert_eq!(err.spec, spec);
            assert_eq!(err.to_string(), message);
        }
    }
}
