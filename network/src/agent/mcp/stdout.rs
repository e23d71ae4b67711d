//! A stdio server's standard output, checked line by line before the transport reads it.
//!
//! The MCP stdio transport reserves standard output for JSON-RPC messages, one per line. Two
//! kinds of line make the stream fail at once, with the reason kept in [`StdoutFault`] for the
//! failure's text, instead of being dropped by rmcp's transport (it skips both, silently) while
//! the request waits out its timeout:
//!
//! - a line longer than the message limit (its size is learnt by reading to its end);
//! - a line that is not a JSON-RPC message — a banner, a log line, a prompt: what it printed
//!   is shown (the first [`SHOWN`] bytes). A server that writes it is broken for every client
//!   that reads the spec strictly, and what it meant to say is usually the reason it fails.
//!
//! An unfinished line is kept too (its first bytes), so that a server that printed a prompt
//! without a line end and waits can be shown when its handshake times out.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

/// How many bytes of a line that is not MCP are shown.
const SHOWN: usize = 200;

/// Why a server's standard output failed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Fault {
    /// A message of this many bytes, over the limit.
    TooLong(u64),
    /// A line that is not a JSON-RPC message, as readable text (bounded).
    NotMcp(String),
}

#[derive(Default)]
struct Seen {
    fault: Option<Fault>,
    /// The first bytes of the line still being written.
    unfinished: Vec<u8>,
}

/// What [`StdoutCheck`] found, shared with the session that reports it.
#[derive(Clone, Default)]
pub(crate) struct StdoutFault(Arc<Mutex<Seen>>);

impl StdoutFault {
    /// Why the stream failed, if it did.
    pub(crate) fn seen(&self) -> Option<Fault> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .fault
            .clone()
    }

    /// The line the server has begun and not ended, as readable text (bounded), if any.
    pub(crate) fn unfinished(&self) -> Option<String> {
        let seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        (!seen.unfinished.iter().all(u8::is_ascii_whitespace)).then(|| shown(&seen.unfinished))
    }

    fn set(&self, fault: Fault) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).fault = Some(fault);
    }

    fn set_unfinished(&self, line: &[u8]) {
        let mut seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        seen.unfinished.clear();
        seen.unfinished
            .extend_from_slice(line.get(..SHOWN.min(line.len())).unwrap_or_default());
    }
}

/// A line as readable text, quoted, cut to [`SHOWN`] bytes.
fn shown(line: &[u8]) -> String {
    let text = agent_test_core::util::text::escape_bytes(
        line.get(..SHOWN.min(line.len())).unwrap_or_default(),
    );
    if line.len() > SHOWN {
        format!("`{text}` [... {} bytes in all]", line.len())
    } else {
        format!("`{text}`")
    }
}

/// Whether a complete line can be an MCP message: a JSON-RPC 2.0 object, or a batch of them
/// (protocol revisions before 2025-06-18), or blank (which carries nothing either way).
fn is_mcp(line: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Envelope {
        jsonrpc: String,
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return true;
    }
    let one = |e: &Envelope| e.jsonrpc == "2.0";
    serde_json::from_slice::<Envelope>(line).is_ok_and(|e| one(&e))
        || serde_json::from_slice::<Vec<Envelope>>(line)
            .is_ok_and(|batch| !batch.is_empty() && batch.iter().all(one))
}

/// A server's standard output, failing at the first line that is over `limit` bytes or is not
/// a JSON-RPC message. Only complete, checked lines are handed on, so the transport never sees
/// a piece of a line that is then refused.
pub(crate) struct StdoutCheck<R> {
    inner: R,
    limit: u64,
    /// The current line so far (at most `limit` bytes: a longer one is only counted).
    line: Vec<u8>,
    /// Bytes of the current line, counted past the limit too.
    length: u64,
    /// Checked lines not handed on yet, and how much of them was.
    ready: Vec<u8>,
    handed: usize,
    fault: StdoutFault,
}

impl<R> StdoutCheck<R> {
    /// Reads `inner`, keeping what goes wrong in `fault`.
    pub(crate) fn new(inner: R, limit: u64, fault: StdoutFault) -> Self {
        StdoutCheck {
            inner,
            limit,
            line: Vec::new(),
            length: 0,
            ready: Vec::new(),
            handed: 0,
            fault,
        }
    }

    fn refusal(fault: &Fault) -> io::Error {
        let why = match fault {
            Fault::TooLong(n) => format!("a message of {n} bytes, over the limit"),
            Fault::NotMcp(line) => format!("not an MCP message: {line}"),
        };
        io::Error::new(io::ErrorKind::InvalidData, why)
    }

    /// Takes in bytes just read: complete lines that pass go to `ready`; the first that does
    /// not is the fault.
    fn take(&mut self, new: &[u8]) {
        for &b in new {
            if b == b'\n' {
                if self.length > self.limit {
                    self.fault.set(Fault::TooLong(self.length));
                    return;
                }
                if !is_mcp(&self.line) {
                    self.fault.set(Fault::NotMcp(shown(&self.line)));
                    return;
                }
                self.ready.append(&mut self.line);
                self.ready.push(b'\n');
                self.length = 0;
                continue;
            }
            self.length = self.length.saturating_add(1);
            if self.length <= self.limit {
                self.line.push(b);
            } else if !self.line.is_empty() {
                // Over the limit: only counted from here, to say its size at its end.
                self.line = Vec::new();
            }
        }
        self.fault.set_unfinished(&self.line);
    }

    /// The stream ended: a line in progress that is too long or cannot be MCP is the fault;
    /// any other is handed on for the transport to judge.
    fn ended(&mut self) {
        if self.length > self.limit {
            self.fault.set(Fault::TooLong(self.length));
        } else if !is_mcp(&self.line) {
            self.fault.set(Fault::NotMcp(shown(&self.line)));
        } else {
            self.ready.append(&mut self.line);
            self.length = 0;
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for StdoutCheck<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if let Some(rest) = this.ready.get(this.handed..)
                && !rest.is_empty()
            {
                let n = rest.len().min(buf.remaining());
                buf.put_slice(rest.get(..n).unwrap_or_default());
                this.handed += n;
                if this.handed == this.ready.len() {
                    this.ready.clear();
                    this.handed = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if let Some(fault) = this.fault.seen() {
                return Poll::Ready(Err(Self::refusal(&fault)));
            }
            let mut scratch = [0u8; 16 * 1024];
            let mut read = ReadBuf::new(&mut scratch);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) => {}
                other => return other,
            }
            if read.filled().is_empty() {
                this.ended();
                if this.ready.is_empty() && this.fault.seen().is_none() {
                    return Poll::Ready(Ok(()));
                }
                continue;
            }
            this.take(read.filled());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::io::AsyncReadExt;

    async fn read(text: &[u8], limit: u64) -> (Vec<u8>, Result<(), String>, Option<Fault>) {
        let fault = StdoutFault::default();
        let mut r = StdoutCheck::new(text, limit, fault.clone());
        let mut out = Vec::new();
        let ended = r
            .read_to_end(&mut out)
            .await
            .map(drop)
            .map_err(|e| e.to_string());
        (out, ended, fault.seen())
    }

    #[tokio::test]
    async fn a_line_over_the_limit_fails_with_its_size() {
        let mut text = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_vec();
        text.push(b'\n');
        text.extend(std::iter::repeat_n(b'x', 100));
        text.extend(b"\n{\"later\":2}\n");
        let (out, ended, fault) = read(&text, 50).await;
        assert_eq!(
            ended,
            Err("a message of 100 bytes, over the limit".to_owned())
        );
        assert_eq!(fault, Some(Fault::TooLong(100)));
        assert_eq!(out, &text[..37]);
        // A long line the stream ends within is counted to its end.
        let (_, _, fault) = read(&[b'y'; 80], 50).await;
        assert_eq!(fault, Some(Fault::TooLong(80)));
    }

    #[tokio::test]
    async fn messages_and_blank_lines_pass_whole() {
        let text = b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n\n[{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":1}]\n";
        let (out, ended, fault) = read(text, 1000).await;
        assert_eq!((out.as_slice(), ended, fault), (&text[..], Ok(()), None));
    }

    #[tokio::test]
    async fn a_line_that_is_not_mcp_fails_showing_what_it_was() {
        let first = b"{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n";
        for (junk, shown) in [
            (
                &b"Welcome to my server v1\n"[..],
                "`Welcome to my server v1`",
            ),
            (
                b"{\"level\":\"info\",\"msg\":\"ready\"}\n",
                r#"`{"level":"info","msg":"ready"}`"#,
            ),
            (b"{\"jsonrpc\":\"1.0\"}\n", r#"`{"jsonrpc":"1.0"}`"#),
            (b"[]\n", "`[]`"),
            (b"\x1b[32mok\xff\n", r"`\x1b[32mok\xff`"),
        ] {
            let text = [&first[..], junk, &first[..]].concat();
            let (out, ended, fault) = read(&text, 1000).await;
            assert_eq!(out, first, "{shown}");
            assert_eq!(ended, Err(format!("not an MCP message: {shown}")));
            assert_eq!(fault, Some(Fault::NotMcp(shown.to_owned())));
        }
        // Bounded, saying how long it was.
        let long = [vec![b'z'; 5000], b"\n".to_vec()].concat();
        let (_, _, fault) = read(&long, 100_000).await;
        let Some(Fault::NotMcp(text)) = fault else {
            panic!("{fault:?}")
        };
        assert!(text.ends_with("` [... 5000 bytes in all]"), "{text}");
        assert!(text.len() < 250, "{text}");
        // A last line without a line end is judged too.
        let (_, _, fault) = read(b"Password: ", 1000).await;
        assert_eq!(fault, Some(Fault::NotMcp("`Password: `".to_owned())));
    }

    #[tokio::test]
    async fn an_unfinished_line_is_kept_for_the_report() {
        use tokio::io::AsyncWriteExt;
        let (mut server, ours) = tokio::io::duplex(1024);
        let fault = StdoutFault::default();
        let mut r = StdoutCheck::new(ours, 1000, fault.clone());
        server.write_all(b"Enter the API key: ").await.unwrap();
        let mut some = [0u8; 64];
        let waiting = tokio::time::timeout(Duration::from_millis(50), r.read(&mut some)).await;
        // Nothing is handed on (no line yet), and the server is still writing.
        assert!(waiting.is_err());
        assert_eq!(fault.unfinished().as_deref(), Some("`Enter the API key: `"));
        assert_eq!(fault.seen(), None);
    }
}
