#!/usr/bin/env python3
"""The project's guard on its own speed (issue #13 item 6), python3 stdlib only.

    bench/instruction_guard.py --perfdx build/release/src/perfdx/perfdx [--update]

Runs each command of bench/instruction_counts.json under callgrind, which
counts instructions rather than seconds: the same binary on the same input
gives the same count whatever else the machine is doing, so a noisy CI
machine can still tell that ingest or analysis got slower. Prints each count
beside the committed one and fails (exit 1) when one grows more than the
file's tolerance (3%) over it.

The counts belong to one compiler and one valgrind (both recorded in the
file): with another, the counts are not comparable, and the guard fails
saying so rather than passing unseen. `--update` writes the measured counts
back; committing that file is the visible, reviewed step that accepts a
change in cost (or a new compiler).

The commands run with `--threads 1`: what a spare core adds (a gzip trace
under 64 MiB inflated ahead on a second thread, io::ReadAhead) depends on the
machine's cores, and valgrind counts the copy out of the read-ahead blocks
(`rep movsb`) a byte at a time, 40 M "instructions" for 35 MB that take
well under a millisecond.
"""

import argparse
import json
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTS = os.path.join(REPO, "bench", "instruction_counts.json")
COLLECTED = re.compile(r"^==\d+== Collected : (\d+)$", re.M)


def first_line(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return out.splitlines()[0].strip()


def instructions(perfdx, args):
    """The instructions callgrind counts for `perfdx ARGS` (run in REPO)."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", perfdx] + args
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("instruction_guard: {} failed (exit {}):\n{}".format(
            " ".join(cmd), proc.returncode, proc.stderr[-2000:]))
    found = COLLECTED.findall(proc.stderr)
    if len(found) != 1:
        sys.exit("instruction_guard: no callgrind total in the output of " + " ".join(cmd))
    return int(found[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--perfdx", required=True, help="the release build's perfdx")
    ap.add_argument("--update", action="store_true", help="write the measured counts")
    ap.add_argument("--counts", default=COUNTS, help="the committed counts (for the guard's own test)")
    opts = ap.parse_args()
    with open(opts.counts) as f:
        committed = json.load(f)
    compiler = first_line(["g++", "--version"])
    valgrind = first_line(["valgrind", "--version"])
    for path in {a for c in committed["commands"] for a in c["args"] if a.startswith("../")}:
        if not os.path.exists(os.path.join(REPO, path)):
            sys.exit("instruction_guard: {} is missing (../shared is required)".format(path))

    failed = []
    for c in committed["commands"]:
        measured = instructions(opts.perfdx, c["args"])
        ratio = measured / c["instructions"]
        print("{:<60} {:>14,} committed {:>14,}  {:+.2%}".format(
            c["name"], measured, c["instructions"], ratio - 1))
        if ratio > 1 + committed["tolerance"]:
            failed.append(c["name"])
        c["instructions"] = measured
    if opts.update:
        committed["compiler"] = compiler
        committed["valgrind"] = valgrind
        with open(opts.counts, "w") as f:
            json.dump(committed, f, indent=2)
            f.write("\n")
        print("instruction_guard: wrote " + opts.counts)
        return 0
    if compiler != committed["compiler"] or valgrind != committed["valgrind"]:
        print("instruction_guard: the counts were committed for {} / {}; this is {} / {}: "
              "not comparable; run with --update and commit the file".format(
                  committed["compiler"], committed["valgrind"], compiler, valgrind))
        return 1
    if failed:
        print("instruction_guard: more than {:.0%} over the committed count: {}. If the "
              "cost is meant, run with --update and commit bench/instruction_counts.json".format(
                  committed["tolerance"], ", ".join(failed)))
        return 1
    print("instruction_guard: within {:.0%} of the committed counts".format(committed["tolerance"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
