//! [`RunningCassette`]: a cassette proxy serving on 127.0.0.1, and what it has done so far —
//! the entries it used, its last miss, what it could not record.

use std::fmt;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use super::mode::Mode;
use super::shared::{Miss, Shared};
use super::{CassetteError, proxy};

/// A cassette proxy serving on 127.0.0.1; dropping it stops the proxy.
///
/// See the [module documentation](super) for an example.
pub struct RunningCassette {
    addr: SocketAddr,
    base_path: String,
    upstream: String,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RunningCassette {
    pub(crate) fn start(
        listener: std::net::TcpListener,
        shared: Arc<Shared>,
        origin: String,
        base_path: String,
    ) -> Result<Self, CassetteError> {
        let addr = listener
            .local_addr()
            .map_err(|e| CassetteError::new(format!("the cassette proxy has no address: {e}")))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = Arc::clone(&shared);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| {
                CassetteError::new(format!("cannot start the cassette proxy's runtime: {e}"))
            })?;
        let thread = std::thread::Builder::new()
            .name("agent-test-cassette".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    tokio::spawn(proxy::serve(listener, serving));
                    // Until stopped; then the runtime's end ends every connection.
                    let _ = stopped.await;
                });
            })
            .map_err(|e| {
                CassetteError::new(format!("cannot start the cassette proxy's thread: {e}"))
            })?;
        let upstream = format!("{origin}{base_path}");
        Ok(RunningCassette {
            addr,
            base_path,
            upstream,
            shared,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The base URL to give the agent's client instead of the provider's: the proxy's origin
    /// and the upstream's path (`http://127.0.0.1:PORT/v1`).
    ///
    /// See the [module documentation](super).
    pub fn base_url(&self) -> String {
        format!("{}{}", self.origin(), self.base_path)
    }

    /// The proxy's origin, `http://127.0.0.1:PORT`: for SDKs that add the version path
    /// themselves (Anthropic's SDKs take `https://api.anthropic.com` and send
    /// `/v1/messages`).
    ///
    /// ```no_run
    /// # use agent_test::cassette::{ANTHROPIC_UPSTREAM, Cassette};
    /// let cassette = Cassette::new("tests/cassettes").upstream(ANTHROPIC_UPSTREAM).start().unwrap();
    /// // ANTHROPIC_BASE_URL for the agent under test:
    /// println!("{}", cassette.origin());
    /// ```
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The address the proxy listens on.
    ///
    /// See [`RunningCassette::origin`].
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The mode in effect (the environment's, when it overrides the code's).
    ///
    /// See [`RunningCassette::used`].
    pub fn mode(&self) -> Mode {
        self.shared.mode
    }

    /// The cassette's directory.
    ///
    /// See [`RunningCassette::used`].
    pub fn dir(&self) -> &Path {
        &self.shared.dir
    }

    /// Where requests are forwarded (when recording).
    ///
    /// See [`RunningCassette::used`].
    pub fn upstream(&self) -> &str {
        &self.upstream
    }

    /// The ids of the entries the proxy answered from or recorded, in first-use order.
    ///
    /// ```no_run
    /// # use agent_test::cassette::Cassette;
    /// let cassette = Cassette::new("tests/cassettes").start().unwrap();
    /// // ... runs ...
    /// let unused = agent_test::cassette::unused(cassette.dir(), cassette.used()).unwrap();
    /// println!("{} in {} mode: {unused:?} unused", cassette.upstream(), cassette.mode());
    /// ```
    pub fn used(&self) -> Vec<String> {
        self.shared.lock().used.clone()
    }

    /// The last request a replay had no recording of.
    ///
    /// See [`Miss`].
    pub fn last_miss(&self) -> Option<Miss> {
        self.shared.lock().last_miss.clone()
    }

    /// What the proxy could not do, in order: answers it could not record (a failure of the
    /// provider, a broken stream, a file it could not write), providers it could not reach.
    ///
    /// ```no_run
    /// # use agent_test::cassette::Cassette;
    /// let cassette = Cassette::new("tests/cassettes").start().unwrap();
    /// for problem in cassette.problems() {
    ///     eprintln!("cassette: {problem}");
    /// }
    /// ```
    pub fn problems(&self) -> Vec<String> {
        let state = self.shared.lock();
        let mut problems = state.problems.clone();
        if state.unlisted > 0 {
            problems.push(format!("and {} more", state.unlisted));
        }
        problems
    }
}

impl fmt::Debug for RunningCassette {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunningCassette")
            .field("base_url", &self.base_url())
            .field("dir", &self.shared.dir)
            .field("mode", &self.shared.mode)
            .field("upstream", &self.upstream)
            .finish()
    }
}

impl Drop for RunningCassette {
    /// Stops the proxy: its runtime ends with every connection, and the port is free once
    /// this returns.
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
