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
mod session;

use std::time::Duration;

use serde_json::{Value, json};

pub use agent::McpAgent;
pub(crate) use session::{Failure, Session};

use crate::agent::input::{UserInput, custom_body};
use crate::agent::wire::Secret;

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
            misuse: None,
        }
    }

    /// A server from a command-line spec: `stdio:COMMAND ARGS...` (split on whitespace), or
    /// an `http://` / `https://` URL.
    ///
    /// ```
    /// use agent_test::agent::McpServer;
    /// assert_eq!(McpServer::parse("stdio:demo-mcp --verbose").unwrap().name(), "demo-mcp");
    /// assert!(McpServer::parse("http://127.0.0.1:8080/mcp").is_ok());
    /// assert!(McpServer::parse("ftp://x").unwrap_err().contains("stdio:COMMAND"));
    /// ```
    pub fn parse(spec: &str) -> Result<Self, String> {
        if let Some(rest) = spec.strip_prefix("stdio:") {
            let mut words = rest.split_whitespace();
            let command = words
                .next()
                .ok_or("`stdio:` needs a command: `stdio:COMMAND ARGS...`")?;
            return Ok(McpServer::stdio(command).args(words));
        }
        if spec.starts_with("http://") || spec.starts_with("https://") {
            return Ok(McpServer::http(spec));
        }
        Err(format!(
            "`{spec}` is not an MCP server: `stdio:COMMAND ARGS...` or an http(s):// URL"
        ))
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
    fn describe(&self) -> String {
        match &self.transport {
            Transport::Stdio { command, args, .. } => {
                let mut line = command.clone();
                for a in args {
                    line.push(' ');
                    line.push_str(a);
                }
                format!("MCP server `{}` (stdio: {line})", self.name)
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

/// The check of `tools/list` turns (see [`ToolListCheck`](crate::check::ToolListCheck)), also
/// in the prelude.
pub use crate::check::valid_tool_list;
