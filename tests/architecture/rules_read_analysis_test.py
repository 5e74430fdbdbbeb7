#!/usr/bin/env python3
"""Checks that the advisor never reads the raw trace.

docs/ARCHITECTURE.md: rules read analysis results, never the trace. The
include matrix cannot see it (advisor may include model, whose headers define
Trace, because analysis may), so this test reads the code of
src/perfdx/advisor/: no `model::Trace`, no `SliceTable`, no member access
`.trace` / `->trace` (RankAnalysis::trace stays for the baseline's inventory).
A self-check first runs on made-up files, so the test cannot pass by finding
nothing.

Usage: rules_read_analysis_test.py [REPO_ROOT]   (default: the current directory)
"""
import os
import re
import sys
import tempfile

FORBIDDEN = re.compile(r"\bmodel::Trace\b|\bSliceTable\b|(?:\.|->)trace\b")
COMMENT = re.compile(r"//.*$")


def check(advisor_root):
    errors = []
    for folder, _, files in sorted(os.walk(advisor_root)):
        for name in sorted(files):
            if not name.endswith((".h", ".cc")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    code = COMMENT.sub("", line)
                    m = FORBIDDEN.search(code)
                    if m:
                        errors.append(f"{path}:{number}: the advisor reads the trace ({m.group(0)})")
    return errors


def self_check():
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "bad.cc"), "w") as f:
            f.write("int n = c.analysis.trace->slices.size();\n"
                    "const model::Trace& t = x;\n")
        with open(os.path.join(tmp, "good.cc"), "w") as f:
            f.write("// reads the trace's analysis, never .trace itself\n"
                    "double v = c.analysis.summary.idle_share;\n"
                    "auto& info = c.info();\n")
        errors = check(tmp)
    assert len(errors) == 2, errors
    assert all("bad.cc" in e for e in errors), errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    self_check()
    errors = check(os.path.join(root, "src", "perfdx", "advisor"))
    for e in errors:
        print(e)
    if errors:
        return 1
    print("the advisor reads analysis results only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
