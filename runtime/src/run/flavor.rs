//! The tokio runtime a test of `agent_test!` runs on: `runtime = RuntimeFlavor::..;` in a suite
//! or a scenario.

use std::fmt;
use std::future::Future;
use std::sync::OnceLock;

/// The tokio runtime a scenario's test runs on.
///
/// By default ([`RuntimeFlavor::shared`]) every scenario of the test binary runs on **one**
/// runtime that lives as long as the process: each test polls its scenario on its own thread
/// (its failures its own), with the shared runtime's I/O and timer drivers and worker threads.
/// What a suite builds once — a `reqwest` client, a connection pool, a rig or genai agent in a
/// `LazyLock` — therefore works in every scenario: its pooled connections and background tasks
/// belong to a runtime that does not end with the first scenario. (With a runtime per test, a
/// pooled connection opened by one scenario dies with that scenario's runtime, and the next
/// scenario that reuses it fails with "error sending request".) Tasks a scenario spawns run on
/// the shared runtime's worker threads.
///
/// A test can still build a runtime of its own: [`RuntimeFlavor::current_thread`] (what
/// `#[tokio::test]` builds; `tokio::time::pause` needs it), or [`RuntimeFlavor::multi_thread`]
/// for an agent that calls `block_in_place` or needs real parallelism. Nothing shared across
/// scenarios survives a runtime of its own.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::RuntimeFlavor;
/// use agent_test::agent::{Agent, agent_fn};
///
/// fn my_agent() -> impl Agent {
///     agent_fn(|_req| async {
///         // Needs a multi-threaded runtime.
///         tokio::task::block_in_place(|| "done")
///     })
/// }
///
/// agent_test! {
///     agent = my_agent();
///     runtime = RuntimeFlavor::multi_thread(2);
///
///     scenario blocking_work {
///         user "go";
///         expect reply().equals("done");
///     }
/// }
/// # fn main() {}
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RuntimeFlavor {
    /// One runtime for every scenario of the process, each polled on its test's thread (the
    /// default).
    #[default]
    Shared,
    /// A current-thread runtime of the test's own.
    CurrentThread,
    /// A runtime with this many worker threads.
    MultiThread {
        /// How many worker threads (at least 1).
        workers: usize,
    },
}

impl RuntimeFlavor {
    /// One runtime for every scenario of the test binary (the default; see the type).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::RuntimeFlavor;
    /// assert_eq!(RuntimeFlavor::shared(), RuntimeFlavor::default());
    /// ```
    pub fn shared() -> Self {
        RuntimeFlavor::Shared
    }

    /// A current-thread runtime of the test's own, as `#[tokio::test]` builds: nothing the
    /// scenario's runtime started outlives the test.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::RuntimeFlavor;
    /// assert_ne!(RuntimeFlavor::current_thread(), RuntimeFlavor::default());
    /// ```
    pub fn current_thread() -> Self {
        RuntimeFlavor::CurrentThread
    }

    /// A multi-threaded runtime with `workers` worker threads; 0 fails the test, saying so.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::RuntimeFlavor;
    /// assert_eq!(RuntimeFlavor::multi_thread(4), RuntimeFlavor::MultiThread { workers: 4 });
    /// ```
    pub fn multi_thread(workers: usize) -> Self {
        RuntimeFlavor::MultiThread { workers }
    }

    /// Runs `future` to completion on the test's thread, on the runtime this flavor says; why
    /// not, when the runtime cannot be built.
    pub(crate) fn block_on<F: Future>(self, future: F) -> Result<F::Output, String> {
        if self == RuntimeFlavor::Shared {
            return shared().map(|handle| handle.block_on(future));
        }
        self.build().map(|runtime| runtime.block_on(future))
    }

    /// A runtime of the test's own, or why it cannot be built.
    fn build(self) -> Result<tokio::runtime::Runtime, String> {
        let built = match self {
            RuntimeFlavor::Shared | RuntimeFlavor::CurrentThread => {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
            }
            RuntimeFlavor::MultiThread { workers: 0 } => {
                return Err(
                    "`RuntimeFlavor::multi_thread(0)`: a runtime needs at least one worker thread"
                        .into(),
                );
            }
            RuntimeFlavor::MultiThread { workers } => tokio::runtime::Builder::new_multi_thread()
                .worker_threads(workers)
                .enable_all()
                .build(),
        };
        built.map_err(|e| format!("cannot start a tokio runtime ({self}) for the test: {e}"))
    }
}

/// The process's shared runtime: two worker threads (they run the drivers and the tasks
/// scenarios spawn; each scenario itself is polled on its test's thread), started on first use
/// and never shut down — what was built on it stays usable for the life of the process.
fn shared() -> Result<tokio::runtime::Handle, String> {
    static SHARED: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    SHARED
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("agent-test-shared")
                .enable_all()
                .build()
                .map_err(|e| format!("cannot start the shared tokio runtime for the tests: {e}"))
        })
        .as_ref()
        .map(|runtime| runtime.handle().clone())
        .map_err(Clone::clone)
}

impl fmt::Display for RuntimeFlavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeFlavor::Shared => f.write_str("shared"),
            RuntimeFlavor::CurrentThread => f.write_str("current-thread"),
            RuntimeFlavor::MultiThread { workers } => {
                write!(f, "multi-threaded, {workers} worker thread(s)")
            }
        }
    }
}
