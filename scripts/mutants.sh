#!/usr/bin/env sh
# Mutation testing of the check semantics (not run in CI: it takes long).
#
# Mutates `core/src/check` and `core/src/matcher` with cargo-mutants and runs the tests
# that pin their meaning (the runtime's `checks` and `conformance` suites and unit tests).
# A surviving mutant is a change of behaviour no test notices: close it with a test, or say
# why it is equivalent.
#
#   cargo install cargo-mutants --locked
#   scripts/mutants.sh                           # everything (hours on a laptop)
#   scripts/mutants.sh --file core/src/check/agents.rs   # one file
#   scripts/mutants.sh --list                    # the mutants, without running them
#
# Extra arguments go to `cargo mutants`; `--in-place` reuses your target directory instead of
# building a copy of the tree from cold (do not edit the sources while it runs). Results land in
# `mutants.out/` (caught.txt, missed.txt, timeout.txt, unviable.txt).
#
# Known equivalent mutant: `tokens() -> Default::default()` (tokens() is the default check).
set -euf # no globbing: cargo-mutants reads the patterns
cd "$(dirname "$0")/.."

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
    exit 2
fi

# Without --file, both directories.
case " $* " in
*" --file "* | *" -f "*) files="" ;;
*) files="--file core/src/check/**/*.rs --file core/src/matcher/**/*.rs" ;;
esac

# shellcheck disable=SC2086 # $files is a list of options
# The checks live in the core crate; the tests that pin them are the runtime's.
exec cargo mutants \
    --package agent-test-core \
    --test-package agent-test-runtime \
    $files \
    --timeout-multiplier 3 \
    "$@" \
    -- --lib --test checks --test conformance
