//! The Model Context Protocol, with the official Rust SDK (`rmcp`): MCP servers as the tools of
//! a model under test ([`ChatAgent::mcp`](crate::agent::ChatAgent::mcp)), and MCP servers under
//! test themselves ([`McpAgent`]: each turn one MCP request — a tool call, a tool list, a
//! resource, a prompt — whose answer is checked like any agent's).
//!
//! A server is reached over stdio (a command with arguments and environment, started for the
//! agent and stopped with it) or streamable HTTP (a URL with headers). Every failure — a server
//! that does not start, dies, answers a protocol error or hangs past its timeout — is a clear
//! error naming the server, with the last lines a stdio server wrote to its standard error.

mod agent;
mod client;
mod process;
mod session;
mod spec_error;
mod stdout;

use std::time::Duration;

use serde_json::{Value, json};

pub use agent::McpAgent;
use client::Answers;
pub use client::Elicitation;
pub(crate) use session::{Failure, Session};
pub use spec_error::{McpSpecError, McpSpecErrorKind};

use crate::agent::input::{UserInput, custom_body};
use crate::agent::wire::Secret;

/// The longest message a stdio server may send by default: 16 MiB, as rmcp's own bound.
pub const DEFAULT_MAX_MESSAGE_BYTES: u64 = 16 * 1024 * 1024;

/// An MCP server: how to reach it, and what to call it in transcripts.
///
/// ```
/// use agent_test::agent::McpServer;
/// let local = McpServer::stdio("cargo")
///     .args(["run", "-q", "--bin", "demo-mcp"])
///     .env("RUST_LOG", "warn")
///     .named("demo");
/// let remote = McpServer::http("https://mcp.example.com/mcp").bearer_token("sk-...");
/// assert_eq!(local.name(), "demo");
/// assert_eq!(remote.name(), "mcp.example.com");
/// ```
#[derive(Clone)]
pub struct McpServer {
    name: String,
    transport: Transport,
    timeout: Duration,
    /// The longest message a stdio server may send.
    max_message_bytes: u64,
    /// How long a stdio server has to exit once its input is closed, and again after SIGTERM.
    grace: Duration,
    /// What the test answers the server's own requests (and so, the capabilities it offers).
    answers: Answers,
    /// A setting the transport has no place for (an argument of an HTTP server, a header of a
    /// stdio one): connecting fails with it rather than dropping the setting unseen.
    misuse: Option<String>,
}

#[derive(Clone)]
enum Transport {
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
    },
    Http {
        url: String,
        headers: Vec<(String, Secret)>,
    },
}

impl McpServer {
    /// A server started as a command speaking MCP over its standard input and output, named
    /// after the command's file name.
    ///
    /// See the type's example.
    pub fn stdio(command: impl Into<String>) -> Self {
        let command = command.into();
        let name = std::path::Path::new(&command)
            .file_stem()
            .map_or_else(|| command.clone(), |s| s.to_string_lossy().into_owned());
        McpServer {
            name,
            transport: Transport::Stdio {
                command,
                args: Vec::new(),
                env: Vec::new(),
            },
            timeout: Duration::from_secs(30),
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            grace: Duration::from_secs(1),
            answers: Answers::default(),
            misuse: None,
        }
    }

    /// A server reached over streamable HTTP at `url`, named after its host.
    ///
    /// See the type's example.
    pub fn http(url: impl Into<String>) -> Self {
        let url = url.into();
        let name = url
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split(['/', ':']).next())
            .unwrap_or(&url)
            .to_owned();
        McpServer {
            name,
            transport: Transport::Http {
                url,
                headers: Vec::new(),
            },
            timeout: Duration::from_secs(30),
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            grace: Duration::from_secs(1),
            answers: Answers::default(),
            misuse: None,
        }
    }

    /// A server from a command-line spec: `stdio:COMMAND ARGS...` (words split as a POSIX
    /// shell splits them: quotes and backslashes keep spaces), or an `http://` / `https://`
    /// URL; either may start with `NAME=` to name the server (two servers started with `npx`
    /// need names of their own). An error says what [kind of problem](McpSpecErrorKind) the
    /// spec has.
    ///
    /// ```
    /// use agent_test::agent::{McpServer, McpSpecErrorKind};
    /// assert_eq!(McpServer::parse("stdio:demo-mcp --verbose").unwrap().name(), "demo-mcp");
    /// let fs = McpServer::parse(r#"files=stdio:npx -y @modelcontextprotocol/server-filesystem "dir with space""#).unwrap();
    /// assert_eq!(fs.name(), "files");
    /// assert_eq!(format!("{fs:?}"), r#"MCP server `files` (stdio: npx -y @modelcontextprotocol/server-filesystem 'dir with space')"#);
    /// assert!(McpServer::parse("http://127.0.0.1:8080/mcp").is_ok());
    /// let err = McpServer::parse("ftp://x").unwrap_err();
    /// assert_eq!(err.kind, McpSpecErrorKind::UnknownTransport);
    /// assert!(err.to_string().contains("stdio:COMMAND"));
    /// let err = McpServer::parse("stdio:run 'unclosed").unwrap_err();
    /// assert_eq!(err.kind, McpSpecErrorKind::Quoting);
    /// assert!(err.to_string().contains("unbalanced quote"));
    /// ```
    pub fn parse(spec: &str) -> Result<Self, McpSpecError> {
        let error = |kind| McpSpecError {
            kind,
            spec: spec.to_owned(),
        };
        // `NAME=` before the transport; a URL's own `=` (in its query) comes after `://`.
        let (name, rest) = match spec.split_once('=') {
            Some((name, rest))
                if !name.is_empty()
                    && !name.contains(':')
                    && name
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.')) =>
            {
                (Some(name), rest)
            }
            _ => (None, spec),
        };
        let server = if let Some(line) = rest.strip_prefix("stdio:") {
            let words = shlex::split(line).ok_or_else(|| error(McpSpecErrorKind::Quoting))?;
            let mut words = words.into_iter();
            let command = words
                .next()
                .ok_or_else(|| error(McpSpecErrorKind::NoCommand))?;
            McpServer::stdio(command).args(words)
        } else if rest.starts_with("http://") || rest.starts_with("https://") {
            McpServer::http(rest)
        } else {
            return Err(error(McpSpecErrorKind::UnknownTransport));
        };
        Ok(match name {
            Some(n) => server.named(n),
            None => server,
        })
    }

    /// Adds an argument of the command. Command arguments, environment variables and headers
    /// belong to one transport each: given to the other, connecting fails saying so.
    ///
    /// ```
    /// # use agent_test::agent::McpServer;
    /// let s = McpServer::stdio("python3").arg("server.py");
    /// # let _ = s;
    /// ```
    pub fn arg(self, arg: impl Into<String>) -> Self {
        self.args([arg])
    }

    /// Adds arguments of the command.
    ///
    /// See the type's example.
    pub fn args<S: Into<String>>(mut self, more: impl IntoIterator<Item = S>) -> Self {
        match &mut self.transport {
            Transport::Stdio { args, .. } => args.extend(more.into_iter().map(Into::into)),
            Transport::Http { .. } => self.misused("command arguments"),
        }
        self
    }

    /// Sets an environment variable of the command.
    ///
    /// See the type's example.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        match &mut self.transport {
            Transport::Stdio { env, .. } => env.push((key.into(), value.into())),
            Transport::Http { .. } => self.misused("environment variables"),
        }
        self
    }

    /// Adds a header to the HTTP requests (its value is never printed).
    ///
    /// ```
    /// # use agent_test::agent::McpServer;
    /// let s = McpServer::http("http://127.0.0.1:8000/mcp").header("X-Tenant", "acme");
    /// # let _ = s;
    /// ```
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        match &mut self.transport {
            Transport::Http { headers, .. } => headers.push((name.into(), Secret::new(value))),
            Transport::Stdio { .. } => self.misused("HTTP headers"),
        }
        self
    }

    /// Sends `Authorization: Bearer <token>`.
    ///
    /// See the type's example.
    pub fn bearer_token(self, token: impl Into<String>) -> Self {
        let token = token.into();
        self.header("Authorization", format!("Bearer {token}"))
    }

    /// Names the server in transcripts (its calls nest under a node of this name).
    ///
    /// See the type's example.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// How long starting the server, and each request, may take (default 30 s): past it, the
    /// request is a failure ("no answer within ...").
    ///
    /// ```
    /// # use agent_test::agent::McpServer;
    /// let s = McpServer::stdio("demo-mcp").timeout(std::time::Duration::from_secs(5));
    /// # let _ = s;
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The longest message (one line of JSON-RPC) a stdio server may send (default
    /// [`DEFAULT_MAX_MESSAGE_BYTES`]): a longer answer fails at once, naming its size and the
    /// limit, never a wait for the timeout.
    ///
    /// ```
    /// # use agent_test::agent::McpServer;
    /// let s = McpServer::stdio("mcp-server-filesystem").max_message_bytes(64 * 1024 * 1024);
    /// # let _ = s;
    /// ```
    pub fn max_message_bytes(mut self, bytes: u64) -> Self {
        self.max_message_bytes = bytes;
        self
    }

    /// How long a stdio server has to exit when its session ends (default 1 s): its input is
    /// closed, and after this long it is sent `SIGTERM`, and after as long again `SIGKILL`
    /// (with every process it started). No server outlives its agent.
    ///
    /// ```
    /// # use agent_test::agent::McpServer;
    /// let s = McpServer::stdio("slow-to-exit").shutdown_grace(std::time::Duration::from_secs(3));
    /// # let _ = s;
    /// ```
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// Offers the server these roots (`file://` URIs it may work in): the client capability
    /// `roots` is advertised, and `roots/list` answers them. Without it the capability is not
    /// offered (a filesystem server keeps the directories of its command line).
    ///
    /// ```
    /// # use agent_test::agent::McpServer;
    /// let s = McpServer::stdio("mcp-server-filesystem").roots(["file:///tmp/project"]);
    /// # let _ = s;
    /// ```
    pub fn roots<S: Into<String>>(mut self, uris: impl IntoIterator<Item = S>) -> Self {
        self.answers.roots = Some(uris.into_iter().map(Into::into).collect());
        self
    }

    /// Answers the server's sampling requests (`sampling/createMessage`: a tool asking the
    /// client's model) with this text: the capability `sampling` is advertised, and each
    /// request and answer is recorded with the turn.
    ///
    /// ```
    /// # use agent_test::agent::McpServer;
    /// let s = McpServer::stdio("server-everything").sampling_reply("A haiku about tests.");
    /// # let _ = s;
    /// ```
    pub fn sampling_reply(mut self, text: impl Into<String>) -> Self {
        self.answers.sampling = Some(text.into());
        self
    }

    /// Answers the server's elicitation requests (`elicitation/create`: a tool asking the
    /// user for input) as given: the capability `elicitation` is advertised, and each request
    /// and answer is recorded with the turn.
    ///
    /// ```
    /// # use agent_test::agent::{Elicitation, McpServer};
    /// # use serde_json::json;
    /// let s = McpServer::stdio("server-everything")
    ///     .elicitation(Elicitation::Accept(json!({"name": "Ana", "confirmed": true})));
    /// # let _ = s;
    /// ```
    pub fn elicitation(mut self, answer: Elicitation) -> Self {
        self.answers.elicitation = Some(answer);
        self
    }

    /// Records a setting the transport cannot take; the first one is reported.
    fn misused(&mut self, what: &str) {
        let (has, lacks) = match self.transport {
            Transport::Stdio { .. } => ("a stdio server", "`McpServer::http`"),
            Transport::Http { .. } => ("an HTTP server", "`McpServer::stdio`"),
        };
        self.misuse
            .get_or_insert_with(|| format!("{has} takes no {what} (only {lacks} servers do)"));
    }

    /// The name the server has in transcripts.
    ///
    /// See the type's example.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The server in messages: `MCP server `demo` (stdio: demo-mcp --verbose)`.
    pub(crate) fn describe(&self) -> String {
        match &self.transport {
            Transport::Stdio { command, args, .. } => {
                // Quoted as a shell would need it, so the line can be run as shown.
                let words = std::iter::once(command).chain(args);
                let line: Vec<String> = words
                    .map(|w| {
                        shlex::try_quote(w).map_or_else(|_| w.clone(), std::borrow::Cow::into_owned)
                    })
                    .collect();
                format!("MCP server `{}` (stdio: {})", self.name, line.join(" "))
            }
            Transport::Http { url, .. } => format!(
                "MCP server `{}` ({})",
                self.name,
                crate::agent::wire::shown_url(url)
            ),
        }
    }
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// A turn that calls the tool `name` of the [`McpAgent`]'s server with `arguments`.
///
/// ```
/// use agent_test::agent::mcp;
/// use serde_json::json;
/// let turn = mcp::call_tool("search_hotels", json!({"city": "Lisbon"}));
/// assert_eq!(turn.text, r#"tools/call search_hotels {"city":"Lisbon"}"#);
/// ```
pub fn call_tool(name: impl Into<String>, arguments: Value) -> UserInput {
    let name = name.into();
    let text = format!("tools/call {name} {arguments}");
    UserInput {
        text,
        ..custom_body(json!({"mcp": "tools/call", "name": name, "arguments": arguments}))
    }
}

/// A turn that lists the server's tools (`tools/list`): the reply's body is
/// `{"tools": [...]}`, checked with JSON checks or [`valid_tool_list`].
///
/// ```
/// assert_eq!(agent_test::agent::mcp::list_tools().text, "tools/list");
/// ```
pub fn list_tools() -> UserInput {
    UserInput {
        text: "tools/list".into(),
        ..custom_body(json!({"mcp": "tools/list"}))
    }
}

/// A turn that reads a resource (`resources/read`): the reply's text is its text contents,
/// its body the protocol's result.
///
/// ```
/// assert_eq!(agent_test::agent::mcp::read_resource("demo://hotels").text, "resources/read demo://hotels");
/// ```
pub fn read_resource(uri: impl Into<String>) -> UserInput {
    let uri = uri.into();
    UserInput {
        text: format!("resources/read {uri}"),
        ..custom_body(json!({"mcp": "resources/read", "uri": uri}))
    }
}

/// A turn that gets a prompt with arguments (`prompts/get`): the reply's text is its messages'
/// text, its body the protocol's result.
///
/// ```
/// use serde_json::json;
/// assert_eq!(agent_test::agent::mcp::get_prompt("greet", json!({"name": "Ana"})).text, r#"prompts/get greet {"name":"Ana"}"#);
/// ```
pub fn get_prompt(name: impl Into<String>, arguments: Value) -> UserInput {
    let name = name.into();
    UserInput {
        text: format!("prompts/get {name} {arguments}"),
        ..custom_body(json!({"mcp": "prompts/get", "name": name, "arguments": arguments}))
    }
}

/// A turn that sends another request of a client, with its params as the protocol has them:
/// `resources/list`, `resources/templates/list`, `prompts/list` (every page),
/// `completion/complete`, `ping`, `logging/setLevel`, `resources/subscribe`,
/// `resources/unsubscribe`. The reply's body is the protocol's result (a list's names or
/// URIs, or a completion's values, are its text); a protocol error is the body
/// `{"error": {"code", "message"}}`.
///
/// ```
/// use agent_test::agent::mcp;
/// use serde_json::json;
/// let turn = mcp::request("completion/complete", json!({
///     "ref": {"type": "ref/prompt", "name": "greet"},
///     "argument": {"name": "style", "value": "fo"}
/// }));
/// assert!(turn.text.starts_with("completion/complete {"));
/// assert_eq!(mcp::request("ping", json!({})).text, "ping");
/// ```
pub fn request(method: impl Into<String>, params: Value) -> UserInput {
    let method = method.into();
    let empty = params.as_object().is_some_and(serde_json::Map::is_empty);
    let text = if empty {
        method.clone()
    } else {
        format!("{method} {params}")
    };
    UserInput {
        text,
        ..custom_body(json!({"mcp": method, "params": params}))
    }
}

/// A turn that lists the server's resources (`resources/list`, every page).
///
/// ```
/// assert_eq!(agent_test::agent::mcp::list_resources().text, "resources/list");
/// ```
pub fn list_resources() -> UserInput {
    request("resources/list", json!({}))
}

/// A turn that lists the server's resource templates (`resources/templates/list`).
///
/// ```
/// assert_eq!(agent_test::agent::mcp::list_resource_templates().text, "resources/templates/list");
/// ```
pub fn list_resource_templates() -> UserInput {
    request("resources/templates/list", json!({}))
}

/// A turn that lists the server's prompts (`prompts/list`).
///
/// ```
/// assert_eq!(agent_test::agent::mcp::list_prompts().text, "prompts/list");
/// ```
pub fn list_prompts() -> UserInput {
    request("prompts/list", json!({}))
}

/// The check of `tools/list` turns (see [`ToolListCheck`](agent_test_core::check::ToolListCheck)), also
/// in the prelude (a check kind's builder).
pub use agent_test_core::check::{valid_structured_output, valid_tool_list};
