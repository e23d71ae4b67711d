#!/usr/bin/env python3
"""What agent-test costs in a user's build (issue 25): a fresh crate with agent-test as a
dev-dependency and the README's quickstart as `tests/support.rs`, built and tested cold, the way
a new user does.

usage: python3 benches/compile/user_build.py [--locks-only] [CONFIG ...]

A CONFIG is `default` (the dependency line `cargo add --dev agent-test` writes), `none`
(`default-features = false`), or `none+f1+f2` (no defaults, those features). Without CONFIGs:
default, none, and none plus each feature alone. For each it prints: the crates in Cargo.lock,
the cold `cargo test` wall time (its own target directory, nothing cached but the registry),
the test binary's size, target/'s size, edit → verdict (one literal of the test changed,
`cargo test` again; median of 3), core edit → verdict (a file of agent-test's core — the
checks — touched, `cargo test` again; median of 3), network edit → verdict (an agent's file)
and runtime edit → verdict (a file of the runtime — running scenarios — touched; median of 3). `--locks-only` resolves the dependencies and counts crates,
without building (seconds instead of minutes).

Run it on an otherwise idle machine: the times are wall-clock.
"""
import os, pathlib, re, shutil, statistics, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORK = pathlib.Path(os.environ.get("AGENT_TEST_USER_BUILD_DIR", "/tmp/agent-test-user-build"))
CORE_FILE = ROOT / "core" / "src" / "check" / "text.rs"
NETWORK_FILE = ROOT / "network" / "src" / "agent" / "closure.rs"
RUNTIME_FILE = ROOT / "runtime" / "src" / "run" / "scenario_run.rs"
FEATURES = ["schema", "jsonpath", "jmespath", "http", "yaml", "files", "schemars", "otlp",
            "tracing", "mcp"]


def quickstart():
    """The README's quickstart test file, exactly as a user pastes it."""
    readme = (ROOT / "README.md").read_text()
    m = re.search(r"```rust\n(// tests/support\.rs\n.*?)```", readme, re.S)
    if not m:
        sys.exit("README.md has no `// tests/support.rs` block")
    return m.group(1)


def manifest(config):
    dep = f'path = "{ROOT}"'
    if config != "default":
        parts = config.split("+")
        if parts[0] != "none":
            sys.exit(f"unknown config {config!r}: `default`, `none` or `none+feature+...`")
        features = ", ".join(f'"{f}"' for f in parts[1:])
        dep += f", default-features = false, features = [{features}]"
    # A workspace of its own, so that the checkout's workspace does not claim it.
    return (f'[package]\nname = "user-crate"\nversion = "0.1.0"\nedition = "2024"\n\n'
            f"[dev-dependencies]\nagent-test = {{ {dep} }}\n\n[workspace]\n")


def crate(config):
    d = WORK / config.replace("+", "_")
    if d.exists():
        shutil.rmtree(d)
    (d / "src").mkdir(parents=True)
    (d / "tests").mkdir()
    (d / "Cargo.toml").write_text(manifest(config))
    (d / "src" / "lib.rs").write_text("")
    (d / "tests" / "support.rs").write_text(quickstart())
    return d


def cargo(d, *args, env=None):
    e = dict(os.environ, CARGO_TARGET_DIR=str(d / "target"), CARGO_TERM_COLOR="never")
    e.pop("RUSTFLAGS", None)
    start = time.monotonic()
    out = subprocess.run(["cargo", *args], cwd=d, env=e, capture_output=True, text=True)
    took = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"cargo {' '.join(args)} failed in {d}:\n{out.stderr[-3000:]}")
    return took


def locked_crates(d):
    return (d / "Cargo.lock").read_text().count("[[package]]")


def size(path):
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def measure(config, locks_only):
    d = crate(config)
    cargo(d, "generate-lockfile")
    crates = locked_crates(d)
    if locks_only:
        return {"config": config, "crates": crates}
    cold = cargo(d, "test")
    binary = max((p for p in (d / "target" / "debug" / "deps").glob("support-*")
                  if p.is_file() and os.access(p, os.X_OK) and p.suffix == ""),
                 key=lambda p: p.stat().st_mtime)
    test = d / "tests" / "support.rs"
    original = test.read_text()
    edits = []
    for i in range(3):
        test.write_text(original.replace("Where is my order?", f"Where is my order{'?' * (i + 2)}"))
        edits.append(cargo(d, "test"))
    test.write_text(original)
    # An edit in agent-test's core and one in its runtime (files every build compiles, their
    # mtime moved): what a contributor's change costs the user's next `cargo test`.
    def touched(path):
        times = []
        for _ in range(3):
            os.utime(path)
            times.append(cargo(d, "test"))
        return round(statistics.median(times), 1)
    core_edit = touched(CORE_FILE)
    network_edit = touched(NETWORK_FILE)
    runtime_edit = touched(RUNTIME_FILE)
    return {"config": config, "crates": crates, "cold_s": round(cold, 1),
            "binary_mb": round(size(binary) / 1e6, 1),
            "target_mb": round(size(d / "target") / 1e6),
            "edit_s": round(statistics.median(edits), 2),
            "core_edit_s": core_edit, "network_edit_s": network_edit,
            "runtime_edit_s": runtime_edit}


def main():
    args = sys.argv[1:]
    locks_only = "--locks-only" in args
    configs = [a for a in args if not a.startswith("--")] or (
        ["default", "none"] + [f"none+{f}" for f in FEATURES])
    print("| dependency | crates in Cargo.lock | cold `cargo test` | test binary | target/ | edit → verdict | core edit → verdict | network edit → verdict | runtime edit → verdict |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c in configs:
        r = measure(c, locks_only)
        cells = [r.get("cold_s", "–"), r.get("binary_mb", "–"), r.get("target_mb", "–"),
                 r.get("edit_s", "–"), r.get("core_edit_s", "–"), r.get("network_edit_s", "–"),
                 r.get("runtime_edit_s", "–")]
        units = ["s", " MB", " MB", " s", " s", " s", " s"]
        shown = [f"{v}{u}" if v != "–" else v for v, u in zip(cells, units)]
        print(f"| `{c}` | {r['crates']} | " + " | ".join(shown) + " |", flush=True)


if __name__ == "__main__":
    main()
