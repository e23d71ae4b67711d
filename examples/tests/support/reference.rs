//! The MCP servers `runtime/tests/fixtures/mcp/install.sh` installs — the official reference
//! servers and the two SDK test servers (`sdk_server.mjs` on the TypeScript SDK,
//! `sdk_server.py` on the Python SDK) — as the tests start them.
//!
//! Without them installed the tests are skipped, saying so — unless
//! `AGENT_TEST_REQUIRE_MCP_SERVERS=1` (CI), where that is a failure.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;

use agent_test::agent::McpServer;

use super::running;

/// The start commands install.sh printed (shell words).
pub struct Reference {
    /// Where install.sh installed them.
    pub dir: PathBuf,
    everything: String,
    filesystem: String,
    time: String,
    git: String,
    sdk_ts_stdio: String,
    sdk_ts_http: String,
    sdk_py_stdio: String,
    sdk_py_http: String,
}

const INSTALL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../runtime/tests/fixtures/mcp/install.sh"
);

/// The variables of install.sh's output the tests use, in [`Reference`]'s order.
const VARIABLES: [&str; 9] = [
    "AGENT_TEST_MCP_SERVERS",
    "MCP_EVERYTHING_STDIO",
    "MCP_FILESYSTEM_STDIO",
    "MCP_TIME_STDIO",
    "MCP_GIT_STDIO",
    "MCP_SDK_TS_STDIO",
    "MCP_SDK_TS_HTTP",
    "MCP_SDK_PY_STDIO",
    "MCP_SDK_PY_HTTP",
];

/// The installed servers; `None` (the test is skipped, saying why) when they are not
/// installed, unless `AGENT_TEST_REQUIRE_MCP_SERVERS=1`, where that fails the test.
pub fn reference() -> Option<&'static Reference> {
    static INSTALLED: OnceLock<Result<Reference, String>> = OnceLock::new();
    match INSTALLED.get_or_init(installed) {
        Ok(r) => Some(r),
        Err(why) if std::env::var("AGENT_TEST_REQUIRE_MCP_SERVERS").is_ok_and(|v| v == "1") => {
            panic!(
                "the MCP reference servers are required (AGENT_TEST_REQUIRE_MCP_SERVERS=1): {why}"
            )
        }
        Err(why) => {
            eprintln!("skipped: {why} (AGENT_TEST_REQUIRE_MCP_SERVERS=1 makes this a failure)");
            None
        }
    }
}

/// Asks `install.sh --check` (which installs nothing) for the start commands.
fn installed() -> Result<Reference, String> {
    let printed: Vec<String> = VARIABLES.iter().map(|v| format!("\"${v}\"")).collect();
    let script = format!(
        "out=\"$(bash \"$0\" --check)\" || exit $?\neval \"$out\"\nprintf '%s\\n' {}",
        printed.join(" ")
    );
    let out = Command::new("bash")
        .args(["-c", &script, INSTALL])
        .output()
        .map_err(|e| format!("cannot run bash: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        // install.sh says what is missing.
        return Err(stderr.trim().to_owned());
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    if lines.len() != VARIABLES.len() || lines.iter().any(|l| l.trim().is_empty()) {
        return Err(format!(
            "`install.sh --check` did not print every start command ({}): {stdout:?} {stderr}",
            VARIABLES.join(", ")
        ));
    }
    let line = |i: usize| lines.get(i).map(|l| (*l).to_owned()).unwrap_or_default();
    Ok(Reference {
        dir: PathBuf::from(line(0)),
        everything: line(1),
        filesystem: line(2),
        time: line(3),
        git: line(4),
        sdk_ts_stdio: line(5),
        sdk_ts_http: line(6),
        sdk_py_stdio: line(7),
        sdk_py_http: line(8),
    })
}

/// The environment variable that marks a test's server processes (see [`running`]).
pub const MARKER: &str = "AGENT_TEST_MCP_REFERENCE_MARKER";

/// The SDK a test server is written on.
#[derive(Clone, Copy, Debug)]
pub enum Sdk {
    TypeScript,
    Python,
}

impl Reference {
    /// A server from its start command (shell words, as install.sh prints them), named, and
    /// marked with `marker` in its environment.
    fn server(name: &str, command: &str, marker: &str) -> McpServer {
        McpServer::parse(&format!("{name}=stdio:{command}"))
            .expect("install.sh prints shell words")
            .env(MARKER, marker)
    }

    pub fn everything(&self, marker: &str) -> McpServer {
        Self::server("everything", &self.everything, marker)
    }

    /// server-filesystem, allowed `dirs` (its command-line arguments).
    pub fn filesystem(&self, marker: &str, dirs: &[&Path]) -> McpServer {
        Self::server("files", &self.filesystem, marker)
            .args(dirs.iter().map(|d| d.display().to_string()))
    }

    pub fn time(&self, marker: &str) -> McpServer {
        Self::server("time", &self.time, marker)
    }

    pub fn git(&self, marker: &str) -> McpServer {
        Self::server("git", &self.git, marker)
    }

    /// The SDK test server over stdio, named `ts` or `py`.
    pub fn sdk_stdio(&self, sdk: Sdk, marker: &str) -> McpServer {
        match sdk {
            Sdk::TypeScript => Self::server("ts", &self.sdk_ts_stdio, marker),
            Sdk::Python => Self::server("py", &self.sdk_py_stdio, marker),
        }
    }

    /// The SDK test server over streamable HTTP, started on a free port of 127.0.0.1; it is
    /// ended when the returned [`HttpServer`] is dropped.
    pub fn sdk_http(&self, sdk: Sdk, marker: &str) -> HttpServer {
        let (name, command) = match sdk {
            Sdk::TypeScript => ("ts", &self.sdk_ts_http),
            Sdk::Python => ("py", &self.sdk_py_http),
        };
        HttpServer::start(name, command, marker)
    }
}

/// An MCP server over streamable HTTP that a test started: killed and reaped when dropped.
pub struct HttpServer {
    child: Child,
    /// Its endpoint, `http://127.0.0.1:N/mcp`.
    pub url: String,
    name: &'static str,
}

impl HttpServer {
    /// Starts `command` (shell words) with `PORT=0`, and waits for the line on its standard
    /// error that says where it listens — however long a busy machine takes to print it.
    fn start(name: &'static str, command: &str, marker: &str) -> HttpServer {
        let mut child = Command::new("bash")
            .args(["-c", &format!("exec {command}")])
            .env("PORT", "0")
            .env(MARKER, marker)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the HTTP server");
        let stderr = child.stderr.take().expect("piped");
        let mut lines = std::io::BufReader::new(stderr).lines();
        let url = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(url) = line.strip_prefix("listening on ") {
                        break url.trim().to_owned();
                    }
                }
                _ => {
                    let _ = child.kill();
                    let status = child.wait();
                    panic!("{command} ended without saying where it listens: {status:?}");
                }
            }
        };
        // Its later standard error is drained (a full pipe would block it).
        std::thread::spawn(move || for _ in lines {});
        HttpServer { child, url, name }
    }

    /// The server as a test's agent reaches it.
    pub fn server(&self) -> McpServer {
        McpServer::http(&self.url).named(self.name)
    }

    /// Kills the server now (a server that dies mid-run).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A marker for one test's servers: no other process has it.
pub fn marker(test: &str) -> String {
    format!("mcp-reference-{}-{test}", std::process::id())
}

/// No process of the test's servers is left (the agent that started them is gone).
#[track_caller]
pub fn assert_none_left(marker: &str) {
    assert_eq!(
        running(marker),
        Vec::<String>::new(),
        "a server outlived its agent"
    );
}
