#!/usr/bin/env bash
# The README's screenshot of the HTML report (docs/report.png): the demo suite and the
# deliberately failing example, run into a scratch report directory, `agent-test report` on it,
# and headless Chromium's screenshot of the page. Needs chromium (Debian's package).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d)"
export AGENT_TEST_REPORT_DIR="$dir"
cargo test -q -p agent-test-examples --test demo >/dev/null
cargo test -q -p agent-test-examples --test failing_report >/dev/null 2>&1 || true
cargo run -q -p agent-test-cli -- report "$dir" --title "agent-test report: the demo suite"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$dir/chromium" --hide-scrollbars --window-size=1280,1500 \
    --screenshot=docs/report.png "file://$dir/report.html" 2>/dev/null
echo "wrote docs/report.png"
