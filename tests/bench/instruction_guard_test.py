#!/usr/bin/env python3
"""CTest instruction_count: the release build's perfdx stays within 3% of
the instructions committed in bench/instruction_counts.json (callgrind), and
the guard does fail when a count is over: against a copy of the committed
counts lowered by 5%, it must exit 1 naming the commands."""

import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUARD = os.path.join(REPO, "bench", "instruction_guard.py")


def run(perfdx, counts=None):
    cmd = [sys.executable, GUARD, "--perfdx", perfdx] + (["--counts", counts] if counts else [])
    proc = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(proc.stdout + proc.stderr)
    return proc


def main():
    perfdx = sys.argv[1]
    if run(perfdx).returncode != 0:
        print("FAIL: perfdx costs more than the committed instruction counts")
        return 1
    with open(os.path.join(REPO, "bench", "instruction_counts.json")) as f:
        counts = json.load(f)
    for c in counts["commands"]:
        c["instructions"] = int(c["instructions"] * 0.95)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(counts, f)
        lowered = f.name
    try:
        proc = run(perfdx, lowered)
    finally:
        os.unlink(lowered)
    if proc.returncode != 1 or "more than 3% over the committed count" not in proc.stdout:
        print("FAIL: the guard passed counts 5% over the committed ones")
        return 1
    for c in counts["commands"]:
        if c["name"] not in proc.stdout:
            print("FAIL: the guard's verdict does not name " + c["name"])
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
