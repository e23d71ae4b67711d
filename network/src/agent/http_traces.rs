//! An HTTP agent's turns read from its OpenTelemetry spans: the `traceparent` each request
//! carries, and the spans the OTLP receiver got for it merged into the reply — or, when they do
//! not arrive, the parts they would have given marked unknown.

use std::time::Duration;

use super::AgentError;
use agent_test_core::model::Reply;

/// An OTLP receiver the agent exports to, and how long a turn waits for its spans.
#[derive(Clone)]
pub(super) struct Traces {
    pub(super) receiver: crate::otlp::OtlpReceiver,
    pub(super) max_wait: Duration,
    pub(super) settle: Duration,
}

/// A turn's place in a trace: the trace the request starts and the span it stands for.
pub(super) struct TraceContext {
    trace_id: String,
    span_id: String,
    /// The receiver's refusals when the request was sent.
    refusals: u64,
}

impl TraceContext {
    pub(super) fn new(refusals: u64) -> Self {
        TraceContext {
            trace_id: random_hex(16),
            span_id: random_hex(8),
            refusals,
        }
    }

    /// The W3C `traceparent` header: version 00, sampled.
    pub(super) fn traceparent(&self) -> String {
        format!("00-{}-{}-01", self.trace_id, self.span_id)
    }
}

/// `bytes` random bytes as hex (the standard library's randomly keyed hasher, fed a counter
/// and the time: unique ids, not secrets).
fn random_hex(bytes: usize) -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut out = String::with_capacity(bytes * 2 + 16);
    while out.len() < bytes * 2 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        out.push_str(&format!("{:016x}", h.finish()));
    }
    out.truncate(bytes * 2);
    out
}

impl Traces {
    /// The turn's spans read into its reply.
    pub(super) async fn merge(
        &self,
        context: &TraceContext,
        mut reply: Reply,
    ) -> Result<Reply, AgentError> {
        let taken = self
            .receiver
            .take(
                &context.trace_id,
                &context.span_id,
                self.max_wait,
                self.settle,
            )
            .await;
        reply.notes.extend(self.receiver.news(self.max_wait));
        let why = if taken.spans.is_empty() {
            let endpoint = self.receiver.endpoint();
            Some(format!(
                "no span of the turn arrived at the OTLP receiver within {} ms. The agent must \
                 export to {endpoint} (OTEL_EXPORTER_OTLP_ENDPOINT) and continue the trace of \
                 the request's `traceparent` header",
                self.max_wait.as_millis()
            ))
        } else if !taken.rooted {
            // Spans without the agent's root span, or with an export refused meanwhile, are
            // part of the turn's work at best: a call missing from them would pass `no_tool(..)`.
            Some(format!(
                "the agent's root span (the child of the request's span {}) did not arrive at \
                 the OTLP receiver within {} ms; {} other span{} did",
                context.span_id,
                self.max_wait.as_millis(),
                taken.spans.len(),
                if taken.spans.len() == 1 { "" } else { "s" }
            ))
        } else if self.receiver.refusals() > context.refusals {
            Some("the OTLP receiver refused an export while the turn ran (see the notes)".into())
        } else {
            None
        };
        if let Some(why) = why {
            // What the spans would have given is unknown; what the response gave stands, and
            // the checks reading it are evaluated.
            let why = format!("{why} (trace {})", context.trace_id);
            return Ok(unmeasured(reply, &why));
        }
        let traced = agent_test_readers::trace::otel::turn(0, taken.spans);
        agent_test_readers::trace::otel::merge(&mut reply, traced);
        Ok(reply)
    }
}

/// A reply whose spans are missing: each part the spans would have given (the calls when the
/// response lists none, the text when it has none, the usage when it says none) is a gap with
/// `why`, so that the checks reading it are errors and the others are evaluated.
fn unmeasured(mut reply: Reply, why: &str) -> Reply {
    use agent_test_core::model::{Gap, Part};
    let mut parts = Vec::new();
    if reply.calls.is_empty() {
        parts.extend([Part::Calls, Part::Arguments, Part::Results, Part::Outcomes]);
    }
    if reply.text.is_empty() {
        parts.push(Part::ReplyText);
    }
    if reply.usage.is_none() {
        parts.push(Part::Usage);
    }
    for part in parts {
        reply.gaps.push(Gap::new(part, why));
    }
    reply
}
