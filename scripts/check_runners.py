#!/usr/bin/env python3
"""Checks what scripts/runners.sh left in its directory: the example suite under cargo nextest
whole and as two partitions (together every scenario exactly once, all passed, each report
file whole JSON), and the tag filter (only the `smoke` scenarios run, under nextest and cargo
test; the others ignored with the reason, never passed)."""

import json
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

SMOKE = {
    "booking::greeting_needs_no_tools",
    "booking::book_the_cheapest_hotel",
    "over_http::refund_over_http_keeps_the_session",
    "seed_files::double_charge",
}


def cases(path):
    """(name, outcome) of each test case of a JUnit file."""
    out = []
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            outcome = "failed"
        elif case.find("skipped") is not None:
            outcome = "skipped"
        else:
            outcome = "passed"
        out.append((case.get("name"), outcome))
    return out


def fail(message):
    print(f"check_runners: {message}", file=sys.stderr)
    sys.exit(1)


def main(directory):
    d = pathlib.Path(directory)
    whole = cases(d / "whole.xml")
    names = [n for n, _ in whole]
    if len(names) != len(set(names)) or len(names) < 50:
        fail(f"the whole run holds {len(names)} cases, {len(set(names))} distinct")
    if any(o != "passed" for _, o in whole):
        fail(f"not all passed under nextest: {[c for c in whole if c[1] != 'passed']}")
    parts = [[n for n, o in cases(d / f"part-{k}.xml") if o == "passed"] for k in (1, 2)]
    if not all(parts):
        fail("a partition ran nothing")
    union = parts[0] + parts[1]
    if sorted(union) != sorted(names):
        missing = set(names) - set(union)
        twice = {n for n in union if union.count(n) > 1}
        fail(f"the partitions are not the suite: missing {sorted(missing)}, twice {sorted(twice)}")
    reports = list((d / "reports").rglob("*.json"))
    if len(reports) != len(names):
        fail(f"{len(reports)} report files for {len(names)} scenarios")
    for r in reports:
        json.loads(r.read_text())  # whole, with a process per test
    ran = {n for n, o in cases(d / "smoke.xml") if o == "passed"}
    if ran != SMOKE:
        fail(f"AGENT_TEST_TAGS=smoke under nextest ran {sorted(ran)}, not {sorted(SMOKE)}")
    if any(o == "passed" and n not in SMOKE for n, o in cases(d / "smoke.xml")):
        fail("a scenario without the tag passed")
    text = (d / "smoke-libtest.txt").read_text()
    summary = re.search(r"test result: ok\. (\d+) passed; 0 failed; (\d+) ignored", text)
    if not summary or int(summary.group(1)) != len(SMOKE) or int(summary.group(2)) != len(names) - len(SMOKE):
        fail(f"AGENT_TEST_TAGS=smoke under cargo test: {summary and summary.group(0)}")
    ignored = re.findall(r"\.\.\. ignored, (.*)", text)
    if len(ignored) != len(names) - len(SMOKE) or any(r != "not tagged smoke (AGENT_TEST_TAGS)" for r in ignored):
        fail(f"ignored without the reason: {set(ignored)}")
    print(
        f"check_runners: {len(names)} scenarios under nextest, partitions {len(parts[0])} + "
        f"{len(parts[1])}, {len(reports)} whole reports; AGENT_TEST_TAGS=smoke ran {len(SMOKE)} "
        f"and ignored {len(ignored)}"
    )


if __name__ == "__main__":
    main(sys.argv[1])
