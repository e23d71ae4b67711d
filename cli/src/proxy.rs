//! `agent-test proxy`: a cassette served on 127.0.0.1 until Ctrl-C, for an agent in any
//! language. Its base URL is the first line of standard output (a script reads it there);
//! what it says as it serves — requests it had no recording of, answers it could not record —
//! goes to standard error.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use agent_test_runtime::cassette::{
    ANTHROPIC_UPSTREAM, Cassette, Miss, Mode, OPENAI_UPSTREAM, RunningCassette,
};

use crate::args::ProxyArgs;
use crate::fail;

/// How often what the proxy did is looked at, to be said on standard error.
const POLL: Duration = Duration::from_millis(200);

/// Starts the proxy and serves until Ctrl-C: exit 0 then, 2 when it cannot start.
pub(crate) fn serve(args: &ProxyArgs) -> ExitCode {
    let cassette = match configured(args) {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    let running = match cassette.start() {
        Ok(r) => r,
        Err(e) => return fail(e.message()),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return fail(&format!("cannot wait for Ctrl-C: {e}")),
    };
    // Listening for Ctrl-C before the base URL is out: a script that stops the proxy as soon
    // as it has read the URL must find it ready to stop cleanly.
    let stop = {
        let _entered = runtime.enter();
        match Stop::listen() {
            Ok(s) => s,
            Err(e) => return fail(&format!("cannot listen for Ctrl-C: {e}")),
        }
    };
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{}", running.base_url())
        .and_then(|()| out.flush())
        .is_err()
    {
        return fail("cannot write the base URL to standard output");
    }
    drop(out);
    let doing = match running.mode() {
        Mode::Record => format!("recording into {}", running.dir().display()),
        Mode::Auto => format!(
            "replaying {} and recording what it lacks",
            running.dir().display()
        ),
        _ => format!("replaying {}", running.dir().display()),
    };
    // Anthropic's SDKs take the origin and add `/v1` themselves.
    let origin = if running.origin() == running.base_url() {
        String::new()
    } else {
        format!(" (for SDKs that add /v1 themselves: {})", running.origin())
    };
    eprintln!(
        "agent-test proxy: {doing} at {}{origin}; upstream {}; Ctrl-C stops",
        running.base_url(),
        running.upstream()
    );
    runtime.block_on(until_stopped(&running, stop));
    let problems = running.problems();
    eprintln!(
        "agent-test proxy: stopped; {} entr{} used{}",
        running.used().len(),
        if running.used().len() == 1 {
            "y"
        } else {
            "ies"
        },
        if problems.is_empty() {
            String::new()
        } else {
            format!(", {} not recorded or not forwarded", problems.len())
        }
    );
    ExitCode::SUCCESS
}

/// The cassette the options describe; the command line's mode wins over the environment's.
fn configured(args: &ProxyArgs) -> Result<Cassette, String> {
    let upstream = if args.anthropic {
        ANTHROPIC_UPSTREAM
    } else {
        args.upstream.as_deref().unwrap_or(OPENAI_UPSTREAM)
    };
    let mut cassette = Cassette::new(&args.cassette)
        .upstream(upstream)
        .port(args.port)
        .ignore_fields(args.ignore.iter().cloned())
        .recorded_timing(args.recorded_timing);
    if let Some(mode) = args.mode {
        cassette = cassette.mode_over_env(mode);
    }
    for var in &args.redact_env {
        match std::env::var(var) {
            Ok(v) if !v.trim().is_empty() => cassette = cassette.redact(v),
            _ => {
                return Err(format!(
                    "--redact-env {var}: the variable is not set, so there is nothing to redact"
                ));
            }
        }
    }
    if let Some(log) = &args.used_log {
        cassette = cassette.used_log(log);
    }
    Ok(cassette)
}

/// Waits for Ctrl-C, saying each new miss and problem on standard error as it happens (and
/// once more when stopped: what came since the last look is said too).
async fn until_stopped(running: &RunningCassette, mut stop: Stop) {
    let mut said = Said::default();
    loop {
        tokio::select! {
            () = stop.requested() => break,
            () = tokio::time::sleep(POLL) => {}
        }
        said.news(running);
    }
    said.news(running);
}

/// Ctrl-C (SIGINT) and, on Unix, SIGTERM: what stops the proxy.
struct Stop {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Stop {
    /// Listens from now on (inside a runtime).
    fn listen() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Stop {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Stop {})
        }
    }

    /// Until a stop is asked for.
    async fn requested(&mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
        #[cfg(not(unix))]
        {
            // Without a listener, an error here would stop at once: wait forever instead.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}

/// What has been said on standard error so far.
#[derive(Default)]
struct Said {
    problems: usize,
    miss: Option<Miss>,
}

impl Said {
    fn news(&mut self, running: &RunningCassette) {
        let problems = running.problems();
        for p in problems.iter().skip(self.problems) {
            eprintln!("agent-test proxy: {p}");
        }
        self.problems = self.problems.max(problems.len());
        let miss = running.last_miss();
        if miss.is_some() && miss != self.miss {
            if let Some(m) = &miss {
                eprintln!("agent-test proxy: {m}");
            }
            self.miss = miss;
        }
    }
}
