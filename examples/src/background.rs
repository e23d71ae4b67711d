//! Serving an axum router on 127.0.0.1 from a thread of its own, for the example servers.

use std::net::SocketAddr;

/// Serves `router` at a free port of 127.0.0.1 on a new thread with its own runtime, so it
/// outlives any one test's runtime; returns the address.
///
/// ```
/// let addr = agent_test_examples::background::serve("example", axum::Router::new());
/// assert!(addr.ip().is_loopback());
/// ```
///
/// # Panics
///
/// If no local port can be bound or no thread started — a broken test machine.
pub fn serve(name: &str, router: axum::Router) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local address");
    listener
        .set_nonblocking(true)
        .expect("non-blocking listener");
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("tokio runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                // The server runs until the process ends; an accept error ends it early and the
                // tests then fail on a refused connection, which names the cause.
                let _ = axum::serve(listener, router).await;
            });
        })
        .expect("spawn the server thread");
    addr
}
