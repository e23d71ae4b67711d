//! Every `tracing` callsite kept open for traced turns.

use std::sync::OnceLock;

use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Dispatch, Event, Metadata, Subscriber};

/// Makes sure no `tracing` callsite is ever switched off for good, so that a turn's
/// subscriber sees every span its agent starts, whatever other threads did first.
///
/// `tracing` caches, per callsite, whether any subscriber is interested in it. While at most one
/// subscriber is registered in the process (a single turn's, say), `tracing-core` computes a
/// new callsite's interest from the *registering thread's* default subscriber alone
/// (`Rebuilder::JustOne`): a test on another thread with no subscriber that reaches the callsite
/// first caches "never", and the turn's span from it is never created — the spans lost under
/// `cargo test`'s threads (`runtime/tests/reading/capture.rs` reproduces it step by step). Two
/// subscribers registered for the life of the process, each answering "sometimes" (and never
/// enabled), keep the registry out of that path and every callsite's interest at "sometimes"
/// or better: each span then asks the subscriber current on its thread, the turn's own inside
/// a turn.
pub(super) fn keep_callsites_open() {
    static KEEPERS: OnceLock<[Dispatch; 2]> = OnceLock::new();
    KEEPERS.get_or_init(|| [Dispatch::new(Keeper), Dispatch::new(Keeper)]);
}

/// A subscriber interested in every callsite "sometimes" and enabled for none (see
/// [`keep_callsites_open`]); it is never any thread's default, so it records nothing.
struct Keeper;

impl Subscriber for Keeper {
    fn register_callsite(&self, _: &'static Metadata<'static>) -> Interest {
        Interest::sometimes()
    }
    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::TRACE)
    }
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        false
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}
