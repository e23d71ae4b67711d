//! Semantic checks: qualities a judge model grades, batched into one request per scenario run
//! and cached on disk.
//!
//! By default the judge is the examples' scripted judge — a deterministic stand-in served on
//! 127.0.0.1 (`agent_test_examples::scripted_judge`), so this runs offline. Point the same suite
//! at a real model with the environment, for example:
//!
//! ```text
//! AGENT_TEST_JUDGE_MODEL=gpt-4o-mini-2024-07-18 OPENAI_API_KEY=sk-... \
//!     cargo test -p agent-test-examples --test demo judged -- --nocapture
//! ```
//!
//! (`AGENT_TEST_JUDGE_PROVIDER=anthropic` and `ANTHROPIC_API_KEY` for Claude; a local Ollama
//! with `AGENT_TEST_JUDGE_BASE_URL=http://127.0.0.1:11434/v1`.) Verdicts are cached under
//! `target/agent-test/judge-cache`; `AGENT_TEST_JUDGE_MODE=replay` then re-runs with no
//! network at all.

use agent_test::judge::Judge;
use agent_test::prelude::*;
use agent_test_examples::demo::demo_agent;
use agent_test_examples::scripted_judge::ScriptedJudge;

/// A real judge when the environment names one, else the scripted local judge.
fn examples_judge() -> Judge {
    Judge::from_env_if_configured()
        .unwrap_or_else(|| Judge::openai("scripted-judge").base_url(ScriptedJudge::examples_url()))
}

agent_test! {
    agent = demo_agent();
    judge = examples_judge();

    /// The refund conversation, graded for empathy, completeness and grounding.
    scenario refund_replies_are_empathetic_complete_and_grounded {
        user "I was charged twice for my last order" {
            expect judge("apologises for the trouble");
        }
        user "Order number is ORD-9921";
        user "Yes, please process the refund" {
            expect judge("confirms the refund with its id and amount").threshold(0.9);
            expect judge("every amount it states appears in the tool results").hallucination();
        }
        expect judge("never asks for the same information twice").on_transcript();
        // Deterministic checks run alongside, in the same report.
        expect tool_sequence(["lookup_order", "process_refund"]);
    }
}
