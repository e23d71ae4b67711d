#!/usr/bin/env python3
"""Compile-time budget (DESIGN.md §6): a suite written with `agent_test!` must compile within
1.1x of the same suite written by hand against the builder API.

usage: python3 benches/compile/compile_time.py [N_SCENARIOS] [REPEATS]

Generates a scratch crate under target/compile-bench/ with two test targets holding the same
N scenarios (2 turns, 4 checks each) — one with the macro, one by hand — builds the
dependencies once, then times rebuilding each test target alone (touching its file) REPEATS
times and prints the medians and their ratio.

A third target, the *data* suite, holds the same scenarios as values (`Scenario::new(..)
.user(..).expect_turn(..)`) handed to one non-generic runner: no async state machine per
scenario. It is what an expansion of statement-free scenarios into data would cost, the lead
toward the 200-scenario rebuild's goal of 1.5 s (issue 36).
"""
import os, pathlib, statistics, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parents[2]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
WORK = ROOT / "target" / "compile-bench"

AGENT = """use agent_test::agent::{Agent, AgentRequest, agent_fn};
use agent_test::model::{Call, Reply};
use agent_test::serde_json::json;

pub fn agent() -> impl Agent {
    agent_fn(|req: AgentRequest| async move {
        if req.input.starts_with("ORD-") {
            Reply::text("found").call(Call::tool("lookup_order", json!({"order_id": req.input})))
        } else {
            Reply::text("hello there")
        }
    })
}
"""


def scenario(i):
    """Scenario `i`, written once for every target: its turns (message, checks on the turn),
    then the checks on the whole conversation."""
    turns = [(f"hello {i}", ['reply().contains("hello")', "no_tools()"]),
             (f"ORD-{i}", [f'tool("lookup_order").arg("order_id", "ORD-{i}")'])]
    return turns, ['tool_sequence(["lookup_order"])']


def macro_suite(n):
    out = ["use agent_test::prelude::*;", "#[path = \"agent.rs\"] mod support;", "", "agent_test! {",
           "    agent = support::agent();"]
    for i in range(n):
        turns, checks = scenario(i)
        out.append(f"    scenario s_{i} {{")
        for text, on_turn in turns:
            out += [f"        user \"{text}\" {{", *[f"            expect {c};" for c in on_turn],
                    "        }"]
        out += [f"        expect {c};" for c in checks] + ["    }"]
    out.append("}")
    return "\n".join(out) + "\n"


def builder_suite(n):
    out = ["use agent_test::prelude::*;", "use agent_test::{ScenarioRun, Suite};",
           "#[path = \"agent.rs\"] mod support;", ""]
    for i in range(n):
        turns, checks = scenario(i)
        out += ["#[tokio::test]", f"async fn s_{i}() {{",
                f"    let mut run = ScenarioRun::new(Suite::new().agent(support::agent()), \"s_{i}\");"]
        for text, on_turn in turns:
            out += [f"    run.user(\"{text}\").await;", *[f"    run.expect_turn({c});" for c in on_turn]]
        out += [f"    run.expect({c});" for c in checks]
        out += ["    run.report().await.assert_passed();", "}", ""]
    return "\n".join(out)


def data_suite(n):
    out = ["use agent_test::prelude::*;", "use agent_test::Suite;",
           "use agent_test::scenario::{RunScenario, Scenario};",
           "#[path = \"agent.rs\"] mod support;", "",
           "/// The one runner every test calls: compiled once, not per scenario.",
           "fn run(scenario: Scenario) {",
           "    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();",
           "    rt.block_on(scenario.run(Suite::new().agent(support::agent()))).assert_passed();",
           "}", ""]
    for i in range(n):
        turns, checks = scenario(i)
        out += ["#[test]", f"fn s_{i}() {{", f"    run(Scenario::new(\"s_{i}\")"]
        for text, on_turn in turns:
            out += [f"        .user(\"{text}\")", *[f"        .expect_turn({c})" for c in on_turn]]
        out += [f"        .expect({c})" for c in checks]
        out[-1] += ");"
        out += ["}", ""]
    return "\n".join(out)


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def cargo(*args):
    env = dict(os.environ, CARGO_TARGET_DIR=str(WORK / "target"), CARGO_INCREMENTAL="0")
    subprocess.run(["cargo", *args], cwd=WORK, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    write(WORK / "Cargo.toml", f"""[package]
name = "compile-bench"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dev-dependencies]
agent-test = {{ path = "{ROOT}" }}
tokio = {{ version = "1", features = ["rt", "macros"] }}

[[test]]
name = "macro_suite"
path = "tests/macro_suite.rs"

[[test]]
name = "builder_suite"
path = "tests/builder_suite.rs"

[[test]]
name = "data_suite"
path = "tests/data_suite.rs"
""")
    write(WORK / "src" / "lib.rs", "")
    write(WORK / "tests" / "agent.rs", AGENT)
    write(WORK / "tests" / "macro_suite.rs", macro_suite(N))
    write(WORK / "tests" / "builder_suite.rs", builder_suite(N))
    write(WORK / "tests" / "data_suite.rs", data_suite(N))
    print(f"building dependencies for {N} scenarios ...", flush=True)
    cargo("test", "--no-run")
    times = {"macro_suite": [], "builder_suite": [], "data_suite": []}
    for _ in range(REPEATS):
        for target in times:
            (WORK / "tests" / f"{target}.rs").touch()
            start = time.perf_counter()
            cargo("test", "--no-run", "--test", target)
            times[target].append(time.perf_counter() - start)
    m = statistics.median(times["macro_suite"])
    b = statistics.median(times["builder_suite"])
    print(f"agent_test! suite:  {m:.2f} s (median of {REPEATS})")
    print(f"builder-API suite:  {b:.2f} s")
    print(f"ratio: {m / b:.2f}x (budget: 1.10x)")
    print(f"data suite:         {statistics.median(times['data_suite']):.2f} s (scenarios as values, one runner)")


if __name__ == "__main__":
    main()
