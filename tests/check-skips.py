#!/usr/bin/python3
# check-skips.py — fail when a test skipped itself for a missing tool.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check-skips.py TESTLOG.json…  (meson-logs/testlog.json)
#
# bootstrap installs every tool a suite needs, so after `./bootstrap test`
# a skip means a defect (a package left out of bootstrap's list), not a
# machine without it. A skip for want of a GPU stays a skip: its output says
# "GPU".

import json
import re
import sys


def skipped_for_a_tool(path):
    """(name, reason) of each skipped test in a meson testlog that is not a GPU's."""
    found = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            test = json.loads(line)
            if test.get("result") != "SKIP":
                continue
            out = (test.get("stdout") or "") + (test.get("stderr") or "")
            reasons = [l for l in out.splitlines() if "SKIP" in l.upper()]
            # Only the reason counts: logs name GPU devices elsewhere too.
            if any(re.search(r"\bGPU\b", l) for l in reasons):
                continue
            reason = reasons[0] if reasons else out.strip()[-200:]
            found.append((test["name"], reason.strip()))
    return found


def main(paths):
    bad = [item for p in paths for item in skipped_for_a_tool(p)]
    for name, reason in bad:
        print(f"check-skips: {name} skipped: {reason}", file=sys.stderr)
    if bad:
        print(f"check-skips: {len(bad)} test(s) skipped for a missing tool; "
              "add the package to bootstrap's TEST_PACKAGES", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
