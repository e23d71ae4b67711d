//! A stdio MCP server's process, owned by agent-test from spawn to reaping.
//!
//! The server runs in a process group of its own, so that a launcher (`npx`, `uvx`, a shell
//! script) and what it starts are one group. It is ended the way the MCP stdio transport
//! says — its input closed, a wait, `SIGTERM`, a wait, then `SIGKILL` — to the whole group,
//! on every path out: the session closing, a panic, a timeout, a dropped future, the end of a
//! test. The sequence runs in `Drop` and needs no async runtime (it waits by polling, bounded
//! by the grace period twice), so no server outlives the agent that started it.
//!
//! Its standard output is read through [`StdoutCheck`](super::stdout::StdoutCheck).

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop};
use tokio::io::AsyncWrite;
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};

/// A spawned server: the process group, and the write end of its standard input (shared with
/// the transport, so that closing it does not wait for the transport's task).
pub(crate) struct ServerProcess {
    child: Option<Box<dyn ChildWrapper>>,
    stdin: Arc<Mutex<Option<ChildStdin>>>,
    grace: Duration,
}

/// The pipes of a spawned server, for the transport and the standard error reader.
pub(crate) struct Pipes {
    pub(crate) stdin: SharedStdin,
    pub(crate) stdout: ChildStdout,
    pub(crate) stderr: Option<ChildStderr>,
}

impl ServerProcess {
    /// Spawns `command` with piped standard streams, in a process group of its own.
    pub(crate) fn spawn(
        command: tokio::process::Command,
        grace: Duration,
    ) -> io::Result<(ServerProcess, Pipes)> {
        let mut command = command;
        command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut wrap = CommandWrap::from(command);
        #[cfg(unix)]
        wrap.wrap(process_wrap::tokio::ProcessGroup::leader());
        wrap.wrap(KillOnDrop);
        let mut child = wrap.spawn()?;
        let inner = child.inner_mut();
        let stdin = inner
            .stdin()
            .take()
            .ok_or_else(|| io::Error::other("the server's standard input is not piped"))?;
        let stdout = inner
            .stdout()
            .take()
            .ok_or_else(|| io::Error::other("the server's standard output is not piped"))?;
        let stderr = inner.stderr().take();
        let stdin = Arc::new(Mutex::new(Some(stdin)));
        Ok((
            ServerProcess {
                child: Some(child),
                stdin: stdin.clone(),
                grace,
            },
            Pipes {
                stdin: SharedStdin(stdin),
                stdout,
                stderr,
            },
        ))
    }

    /// Ends the server as the MCP stdio transport says, waiting at most twice the grace
    /// period; then kills whatever of its group is left. Idempotent.
    pub(crate) fn shutdown(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        // Closing its input is the polite request to exit.
        drop(lock(&self.stdin).take());
        if !exited_within(child.as_mut(), self.grace) {
            #[cfg(unix)]
            let _ = child.signal(libc::SIGTERM);
            exited_within(child.as_mut(), self.grace);
        }
        // The group's other members (what a launcher started) go with it; nothing is left
        // running when the session is gone.
        let _ = child.start_kill();
        exited_within(child.as_mut(), Duration::from_secs(1));
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Whether the process exits within `max` (polled: no runtime is needed).
fn exited_within(child: &mut dyn ChildWrapper, max: Duration) -> bool {
    let deadline = Instant::now().checked_add(max);
    loop {
        match child.try_wait() {
            Ok(Some(_)) | Err(_) => return true,
            Ok(None) => {}
        }
        if deadline.is_none_or(|d| Instant::now() >= d) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The server's standard input, as the transport writes it; closed under it by
/// [`ServerProcess::shutdown`] (writes then fail with a broken pipe).
pub(crate) struct SharedStdin(Arc<Mutex<Option<ChildStdin>>>);

impl SharedStdin {
    fn with<R>(
        &self,
        f: impl FnOnce(Pin<&mut ChildStdin>) -> Poll<io::Result<R>>,
        closed: impl FnOnce() -> Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        match lock(&self.0).as_mut() {
            Some(stdin) => f(Pin::new(stdin)),
            None => closed(),
        }
    }
}

fn broken<R>() -> Poll<io::Result<R>> {
    Poll::Ready(Err(io::Error::new(
        io::ErrorKind::BrokenPipe,
        "the server's input is closed",
    )))
}

impl AsyncWrite for SharedStdin {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.with(|s| s.poll_write(cx, buf), broken)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.with(|s| s.poll_flush(cx), || Poll::Ready(Ok(())))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.with(|s| s.poll_shutdown(cx), || Poll::Ready(Ok(())))
    }
}
