#!/usr/bin/env python3
"""CTest hta_compare: bench/hta_compare.py (issue #13's HTA item) gives HTA
what perfdx reads and reports both. Against a stand-in `hta` package written
here (HTA itself is not installable on this machine), which records the
trace_files and trace_dir it is handed: the ResNet-50 trace as rank 0 of its
own folder; a folder of 3 ranks as ranks 0, 1, 2, each its own file; one table
row per input with a ratio. And an interpreter without `hta` gets a named
reason, exit 0, and no table."""

import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(REPO, "bench", "hta_compare.py")

STAND_IN = """
import json, os
class TraceAnalysis:
    def __init__(self, trace_files, trace_dir):
        with open(os.environ["HTA_CALLS"], "a") as f:
            f.write(json.dumps({"files": {str(k): v for k, v in trace_files.items()},
                                "dir": trace_dir}) + "\\n")
        for path in trace_files.values():
            with open(path, "rb") as t:
                t.read(1)
    def get_temporal_breakdown(self, visualize):
        assert visualize is False
        return [0]
"""


def fail(message, output=""):
    print(output + "FAIL: " + message)
    return 1


def main():
    perfdx = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        os.makedirs(os.path.join(site, "hta"))
        open(os.path.join(site, "hta", "__init__.py"), "w").close()
        with open(os.path.join(site, "hta", "trace_analysis.py"), "w") as f:
            f.write(STAND_IN)
        meta = os.path.join(site, "HolisticTraceAnalysis-0.6.1.dist-info")
        os.makedirs(meta)
        with open(os.path.join(meta, "METADATA"), "w") as f:
            f.write("Metadata-Version: 2.1\nName: HolisticTraceAnalysis\nVersion: 0.6.1\n")
        calls = os.path.join(tmp, "calls.jsonl")
        python = os.path.join(tmp, "python")
        with open(python, "w") as f:
            f.write(f'#!/bin/sh\nPYTHONPATH={site} HTA_CALLS={calls} exec {sys.executable} "$@"\n')
        os.chmod(python, 0o755)

        cmd = [sys.executable, SCRIPT, "--perfdx", perfdx, "--python", python, "--repeat", "1",
               "--only", "resnet50,folder", "--ranks", "3", "--work", os.path.join(tmp, "work")]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        out = proc.stdout + proc.stderr
        if proc.returncode != 0:
            return fail(f"exit {proc.returncode}", out)
        rows = [line for line in proc.stdout.splitlines()
                if re.match(r"\| (ResNet-50 workers 0|3 ranks of control) \|.*\| [0-9.]+x \|$", line)]
        if len(rows) != 2 or "HTA 0.6.1 under" not in proc.stdout or "note:" in proc.stdout:
            return fail("expected HTA 0.6.1 and one row with a ratio per input", out)
        with open(calls) as f:
            seen = [json.loads(line) for line in f]
        if len(seen) != 2:
            return fail(f"HTA ran {len(seen)} times, not 2", out)
        resnet, folder = seen
        if (list(resnet["files"]) != ["0"]
                or not resnet["files"]["0"].endswith("worker0.1623143089861.pt.trace.json.gz")
                or os.path.dirname(resnet["files"]["0"]) != resnet["dir"]):
            return fail(f"ResNet-50 given to HTA as {resnet}", out)
        expected = {str(r): os.path.join(folder["dir"], f"rank{r}.json.gz") for r in range(3)}
        if folder["files"] != expected:
            return fail(f"the folder given to HTA as {folder}", out)

        proc = subprocess.run([sys.executable, SCRIPT, "--perfdx", perfdx, "--python",
                               sys.executable], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": ""})
        out = proc.stdout + proc.stderr
        if (proc.returncode != 0 or "HTA not measured" not in proc.stdout
                or "No module named 'hta'" not in proc.stdout or "|---" in proc.stdout):
            return fail("without hta: expected a named reason, exit 0 and no table", out)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
