//! Benchmarks of agent-test. The benchmarks themselves are in `benches/`:
//!
//! ```text
//! cargo bench -p agent-test-benches
//! ```
//!
//! This library holds the data they share: a deterministic generator of realistic
//! transcripts.

use agent_test_runtime::Clock;
use agent_test_runtime::model::{Call, Reply, Transcript, Turn, Usage};
use serde_json::json;

/// A deterministic pseudo-random sequence.
fn rng() -> impl FnMut() -> u64 {
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// `n` transcripts that pass the benchmark's ten checks: a search, an order lookup and a
/// refund in the first turn (with random extra calls around them, sometimes nested under a
/// node), a reply that mentions the refund, and 0–2 more turns of small talk.
pub fn passing_transcripts(n: usize) -> Vec<Transcript> {
    let mut next = rng();
    (0..n)
        .map(|_| {
            let mut calls = vec![Call::tool("search_hotels", json!({"city": "Lisbon"}))];
            for _ in 0..(next() % 3) {
                calls.push(Call::tool("log_event", json!({"level": "info"})));
            }
            calls.push(
                Call::tool("lookup_order", json!({"order_id": "ORD-9921"}))
                    .result(json!({"total": 42.5})),
            );
            calls.push(
                Call::tool(
                    "process_refund",
                    json!({"order_id": "ORD-9921", "amount": 42.5, "when": "2026-11-24T12:00:00"}),
                )
                .result(json!({"ok": true})),
            );
            let refund_id = format!("RF-{}", 5000 + next() % 1000);
            let mut reply = Reply::text(format!(
                "Done: refund {refund_id} of €42.50 for ORD-9921 has been initiated."
            ))
            .usage(Usage::new(300, 40))
            .body(json!({
                "status": "refunded",
                "refund": {"id": refund_id, "amount": 42.5, "eta": "2026-11-30"},
                "items": [{"sku": "A-1"}, {"sku": "B-2"}],
            }));
            if next().is_multiple_of(2) {
                reply = reply.call(calls.into_iter().fold(Call::node("agent"), Call::child));
            } else {
                reply.calls = calls;
            }
            let mut turns = vec![Turn::new(
                0,
                "Refund ORD-9921, it was charged twice",
                reply,
                12,
            )];
            for i in 1..=(next() % 3) as usize {
                turns.push(Turn::new(
                    i,
                    "thanks",
                    Reply::text("You're welcome! Your refund for ORD-9921 is on its way."),
                    3,
                ));
            }
            let mut t = Transcript::new(turns);
            t.user_time = Clock::fixed("2026-11-23T09:30:00Z").now("UTC").ok();
            t
        })
        .collect()
}

/// `n` random transcripts of 1–3 turns with 0–4 tool calls each, some nested under a workflow
/// node, some failed — generated deterministically. Most benchmark checks fail on them.
pub fn mixed_transcripts(n: usize) -> Vec<Transcript> {
    const TOOLS: &[&str] = &[
        "search_hotels",
        "lookup_order",
        "process_refund",
        "create_booking",
        "cancel_order",
    ];
    const REPLIES: &[&str] = &[
        "I found 3 hotels in Lisbon: Casa Azul (H-101, €95/night), Alfama Lofts (H-102, €140/night).",
        "Done: refund RF-5001 of €42.50 for ORD-9921 has been initiated. Expect it within 5-7 business days.",
        "Order ORD-1001: 1 item, €129.99, status processing.",
        "I'm sorry about that. Could you give me your order number?",
    ];
    let mut next = rng();
    (0..n)
        .map(|_| {
            let turns = 1 + (next() % 3) as usize;
            Transcript::new(
                (0..turns)
                    .map(|i| {
                        let mut reply = Reply::text(REPLIES[(next() % REPLIES.len() as u64) as usize])
                            .usage(Usage::new(300 + next() % 200, 40 + next() % 60));
                        let mut calls = Vec::new();
                        for _ in 0..(next() % 5) {
                            let name = TOOLS[(next() % TOOLS.len() as u64) as usize];
                            let args = json!({"order_id": format!("ORD-{}", 9900 + next() % 40), "amount": 42.5, "city": "Lisbon"});
                            let call = Call::tool(name, args);
                            calls.push(if next().is_multiple_of(10) { call.failed(json!("timeout")) } else { call.result(json!({"ok": true})) });
                        }
                        if next().is_multiple_of(2) {
                            reply = reply.call(calls.into_iter().fold(Call::node("agent"), Call::child));
                        } else {
                            for c in calls {
                                reply = reply.call(c);
                            }
                        }
                        Turn::new(i, "I was charged twice for ORD-9921", reply, 12)
                    })
                    .collect(),
            )
        })
        .collect()
}
