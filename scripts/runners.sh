#!/usr/bin/env bash
# The example suite under every runner, as CI runs it: cargo nextest (a process per test) on the
# whole suite and as two hash partitions, whose JUnit files together must hold every scenario
# exactly once; and the tag filter (AGENT_TEST_TAGS=smoke) under nextest and under cargo test,
# where the other scenarios must be ignored, never passed. scripts/check_runners.py checks it.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo nextest --version >/dev/null 2>&1; then
    start=$SECONDS
    cargo install cargo-nextest --locked
    echo "installed cargo-nextest in $((SECONDS - start)) s"
fi

out=target/runners
rm -rf "$out"
mkdir -p "$out"
junit=target/nextest/ci/junit.xml
# `--workspace --test demo`: the workspace's features, so the build is the one `cargo test
# --workspace` made (a `-p` build would compile the runtime again with fewer features).
nextest() {
    cargo nextest run --locked --workspace --test demo --profile ci --no-fail-fast \
        --no-tests=fail "$@"
}

rm -rf target/agent-test/demo
nextest
cp "$junit" "$out/whole.xml"
cp -r target/agent-test/demo "$out/reports"
nextest --partition hash:1/2
cp "$junit" "$out/part-1.xml"
nextest --partition hash:2/2
cp "$junit" "$out/part-2.xml"
AGENT_TEST_TAGS=smoke nextest
cp "$junit" "$out/smoke.xml"
AGENT_TEST_TAGS=smoke cargo test --locked --workspace --test demo >"$out/smoke-libtest.txt"
# Back to the whole suite, so that the next build is not the filtered one.
cargo test --locked --workspace --test demo --no-run 2>/dev/null

python3 scripts/check_runners.py "$out"
