//! A stdio MCP server's process, owned by agent-test from spawn to reaping.
//!
//! The server runs in a process group of its own, so that a launcher (`npx`, `uvx`, a shell
//! script) and what it starts are one group. It is ended the way the MCP stdio transport
//! says — its input closed, a wait, `SIGTERM`, a wait, then `SIGKILL` — to the whole group,
//! on every path out: the session closing, a panic, a timeout, a dropped future, the end of a
//! test. The sequence runs in `Drop` and needs no async runtime (it waits by polling, bounded
//! by the grace period twice), so no server outlives the agent that started it.
//!
//! Its standard output is read through [`LineLimit`]: a message longer than the limit fails
//! at once, naming its size and the limit, instead of being dropped by the transport while
//! the request waits for its timeout.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
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

/// How a message over the limit was seen: its size in bytes (0 while none was).
#[derive(Clone, Default)]
pub(crate) struct Oversize(Arc<AtomicU64>);

impl Oversize {
    /// The size of the message that was over the limit, if one was.
    pub(crate) fn seen(&self) -> Option<u64> {
        match self.0.load(Ordering::Relaxed) {
            0 => None,
            n => Some(n),
        }
    }
}

/// A server's standard output with a bound on one message (one line of JSON-RPC): a longer
/// line is read to its end to learn its size, then the stream fails, so the pending request
/// fails at once and [`Oversize`] says why.
pub(crate) struct LineLimit<R> {
    inner: R,
    limit: u64,
    /// Bytes of the current line so far.
    line: u64,
    /// Reading past the limit: counting to the end of the line.
    discarding: bool,
    /// The long line ended: every read fails.
    failed: bool,
    oversize: Oversize,
}

impl<R> LineLimit<R> {
    pub(crate) fn new(inner: R, limit: u64) -> (Self, Oversize) {
        let oversize = Oversize::default();
        (
            LineLimit {
                inner,
                limit,
                line: 0,
                discarding: false,
                failed: false,
                oversize: oversize.clone(),
            },
            oversize,
        )
    }
}

impl<R> LineLimit<R> {
    fn refusal(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "a message of {} bytes, over the limit of {} bytes",
                self.line, self.limit
            ),
        )
    }

    /// The long line ended (or the stream did): from now on the stream fails.
    fn refuse(&mut self) {
        self.discarding = false;
        self.failed = true;
        self.oversize.0.store(self.line.max(1), Ordering::Relaxed);
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for LineLimit<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.failed {
                return Poll::Ready(Err(this.refusal()));
            }
            if this.discarding {
                let mut scratch = [0u8; 64 * 1024];
                let mut rb = ReadBuf::new(&mut scratch);
                match Pin::new(&mut this.inner).poll_read(cx, &mut rb) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Ready(Ok(())) => {
                        let read = rb.filled();
                        let end = read.iter().position(|&b| b == b'\n');
                        let counted = end.unwrap_or(read.len()) as u64;
                        this.line = this.line.saturating_add(counted);
                        if end.is_some() || read.is_empty() {
                            this.refuse();
                        }
                        continue;
                    }
                }
            }
            let before = buf.filled().len();
            match Pin::new(&mut this.inner).poll_read(cx, buf) {
                Poll::Ready(Ok(())) => {}
                other => return other,
            }
            let new = buf.filled().get(before..).unwrap_or_default();
            let mut over = None;
            for (i, &b) in new.iter().enumerate() {
                if b == b'\n' {
                    this.line = 0;
                } else {
                    this.line += 1;
                    if this.line > this.limit {
                        over = Some(i);
                        break;
                    }
                }
            }
            let Some(at) = over else {
                return Poll::Ready(Ok(()));
            };
            // The complete lines before the long one are handed on; the long one is refused
            // whole, once its end shows its size.
            let head = new.get(..at).unwrap_or_default();
            let keep = head.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let rest = new.get(at + 1..).unwrap_or_default();
            match rest.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    this.line = this.line.saturating_add(end as u64);
                    this.refuse();
                }
                None => {
                    this.line = this.line.saturating_add(rest.len() as u64);
                    this.discarding = true;
                }
            }
            buf.set_filled(before + keep);
            if keep > 0 {
                return Poll::Ready(Ok(()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn a_line_over_the_limit_fails_with_its_size() {
        let mut text = b"{\"ok\":1}\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 100));
        text.extend(b"\n{\"later\":2}\n");
        let (mut r, over) = LineLimit::new(&text[..], 50);
        let mut out = Vec::new();
        let e = r.read_to_end(&mut out).await.unwrap_err();
        assert_eq!(
            e.to_string(),
            "a message of 100 bytes, over the limit of 50 bytes"
        );
        assert_eq!(over.seen(), Some(100));
        assert!(out.starts_with(b"{\"ok\":1}\n"));
        // Lines within the limit pass whole.
        let (mut r, over) = LineLimit::new(&b"abc\ndef\n"[..], 3);
        let mut out = Vec::new();
        r.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, b"abc\ndef\n");
        assert_eq!(over.seen(), None);
    }
}
