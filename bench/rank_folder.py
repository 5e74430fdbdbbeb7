#!/usr/bin/env python3
"""Many ranks in one folder (issue #13 items 1 and 3; figures in docs/PERFORMANCE.md).

Builds a folder of N rank files, each a copy of one real Kineto rank trace
(default ../shared/traces/kineto/hta/trace_diff/control/control.json.gz: 35 MB
of JSON, 1.7 MB gzipped), named rank<r>.json.gz, then runs `perfdx analyze`
on the folder with --threads 1 and 2 under GNU time, interleaved, --repeat
times each, and prints wall time, CPU time (user + system) and peak RSS: the
best wall and CPU, the largest RSS. Copies, not links: discovery reads each
file once by device and inode.

Usage: bench/rank_folder.py --perfdx build/release/src/perfdx/perfdx
           [--ranks 64,512] [--trace PATH] [--work /tmp/perfdx-rank-folder] [--repeat 2]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TRACE = os.path.join(HERE, "..", "..", "shared", "traces", "kineto", "hta", "trace_diff",
                             "control", "control.json.gz")


def build_folder(trace, n, work):
    folder = os.path.join(work, str(n))
    if os.path.isdir(folder) and len(os.listdir(folder)) == n:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for r in range(n):
        shutil.copyfile(trace, os.path.join(folder, f"rank{r}.json.gz"))
    return folder


def timed(cmd):
    """Wall (perf_counter: GNU time's %e has 10 ms steps), CPU (user + system)
    and peak RSS of cmd, the last two by GNU time. perfdx analyze exits 1 when
    a finding is at --fail-on's level: still a run."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as t:
        start = time.perf_counter()
        proc = subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%e %U %S %M"] + cmd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall_s = time.perf_counter() - start
        fields = t.read().split()[-4:]
    if proc.returncode not in (0, 1) or len(fields) != 4:
        sys.exit(f"{' '.join(cmd[:3])}...: exit {proc.returncode}: {proc.stderr.strip()[-400:]}")
    _, user, system, rss_kb = fields
    return {"wall_s": wall_s, "cpu_s": float(user) + float(system), "rss_mib": int(rss_kb) / 1024}


def measure(perfdx, folder, threads):
    return timed([perfdx, "analyze", "--threads", str(threads), "--format", "json", "-o",
                  os.devnull, folder])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--perfdx", required=True)
    ap.add_argument("--ranks", default="64,512")
    ap.add_argument("--trace", default=DEFAULT_TRACE)
    ap.add_argument("--work", default="/tmp/perfdx-rank-folder")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", help="write every measurement here")
    args = ap.parse_args()
    perfdx = os.path.abspath(args.perfdx)
    trace_mb = None
    results = []
    print("| ranks | threads | wall | CPU | peak RSS | speed-up (wall) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in [int(x) for x in args.ranks.split(",")]:
        folder = build_folder(args.trace, n, args.work)
        runs = {1: [], 2: []}
        for _ in range(args.repeat):
            for threads in (1, 2):
                runs[threads].append(measure(perfdx, folder, threads))
        best = {}
        for threads, ms in runs.items():
            best[threads] = {"wall_s": min(m["wall_s"] for m in ms),
                             "cpu_s": min(m["cpu_s"] for m in ms),
                             "rss_mib": max(m["rss_mib"] for m in ms)}
        for threads in (1, 2):
            b = best[threads]
            speedup = best[1]["wall_s"] / b["wall_s"]
            print(f"| {n} | {threads} | {b['wall_s']:.1f} s | {b['cpu_s']:.1f} s | "
                  f"{b['rss_mib']:.0f} MiB | {speedup:.2f}x |")
            results.append({"ranks": n, "threads": threads, **b, "runs": runs[threads]})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
