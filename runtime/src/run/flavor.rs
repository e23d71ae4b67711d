//! The tokio runtime a test of `agent_test!` runs on: `runtime = RuntimeFlavor::..;` in a suite
//! or a scenario.

use std::fmt;

/// The tokio runtime a scenario's test runs on. Each test builds its own: by default a
/// current-thread runtime, as `#[tokio::test]` does; an agent that calls `block_in_place`,
/// spawns CPU-heavy work or needs real parallelism asks for a multi-threaded one.
///
/// ```
/// use agent_test::prelude::*;
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
pub enum RuntimeFlavor {
    /// One thread: the test's own (the default).
    #[default]
    CurrentThread,
    /// A runtime with this many worker threads.
    MultiThread {
        /// How many worker threads (at least 1).
        workers: usize,
    },
}

impl RuntimeFlavor {
    /// The test's own thread (the default).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(RuntimeFlavor::current_thread(), RuntimeFlavor::default());
    /// ```
    pub fn current_thread() -> Self {
        RuntimeFlavor::CurrentThread
    }

    /// A multi-threaded runtime with `workers` worker threads; 0 fails the test, saying so.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(RuntimeFlavor::multi_thread(4), RuntimeFlavor::MultiThread { workers: 4 });
    /// ```
    pub fn multi_thread(workers: usize) -> Self {
        RuntimeFlavor::MultiThread { workers }
    }

    /// The runtime, or why it cannot be built.
    pub(crate) fn build(self) -> Result<tokio::runtime::Runtime, String> {
        let built = match self {
            RuntimeFlavor::CurrentThread => tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build(),
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

impl fmt::Display for RuntimeFlavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeFlavor::CurrentThread => f.write_str("current-thread"),
            RuntimeFlavor::MultiThread { workers } => {
                write!(f, "multi-threaded, {workers} worker thread(s)")
            }
        }
    }
}
