#!/usr/bin/env python3
"""Ingest benchmark driver (python3 stdlib only). Run from the repository root:

    cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
    ninja -C build/bench perfdx_ingest_bench
    bench/run_ingest_bench.py [--build build/bench] [--repeat 3] [--no-big]

For every trace under ../shared/traces and for a >= 1 GiB trace built by
make_big_trace.py (under build/bench_data/ unless --big says where), runs
perfdx_ingest_bench once per mode and repetition, each in its own process, and
prints the Markdown table of docs/PERFORMANCE.md:

  trace, MB of uncompressed JSON, events, perfdx MB/s, simdjson MB/s,
  time ratio (perfdx / minimal pass), peak RSS / uncompressed size for both.

Times are the best of --repeat runs, the two modes interleaved (wall clock;
--cpu-time uses user+system CPU time instead, steadier on a busy machine);
peak RSS is the largest seen.
"""

import argparse
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SOURCE = "../shared/traces/kineto/hta/trace_diff/control/control.json.gz"
MODES = ("perfdx", "simdjson")


def find_traces(root):
    """Chrome trace event files: Kineto .json.gz and Ascend trace_view.json."""
    found = []
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".json.gz") or name.endswith("trace_view.json"):
                found.append(os.path.join(folder, name))
    return sorted(found)


def run_once(bench, mode, path, use_cpu):
    proc = subprocess.run([bench, mode, path], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("{} {} {} failed:\n{}".format(bench, mode, path, proc.stderr))
    r = json.loads(proc.stdout)
    r["time"] = r["cpu_seconds"] if use_cpu else r["seconds"]
    return r


def measure(bench, path, repeat, use_cpu):
    """Best time of `repeat` runs per mode, the modes interleaved so that a
    burst of load on the machine hits both alike; the largest peak RSS."""
    best = {}
    for _ in range(repeat):
        for mode in MODES:
            r = run_once(bench, mode, path, use_cpu)
            b = best.get(mode)
            if b is None:
                best[mode] = r
                continue
            rss = max(b["peak_rss_bytes"], r["peak_rss_bytes"])
            if r["time"] < b["time"]:
                best[mode] = b = r
            b["peak_rss_bytes"] = rss
    return best["perfdx"], best["simdjson"]


def label(path, traces_root):
    rel = os.path.relpath(path, traces_root)
    if rel.startswith(".."):
        return os.path.basename(path)
    return rel


def row(name, p, s):
    mb = p["bytes"] / 1e6
    return "| {} | {:.1f} | {} | {:.0f} | {:.0f} | {:.2f} | {:.2f} | {:.2f} |".format(
        name, mb, p["events"], mb / p["time"], mb / s["time"], p["time"] / s["time"],
        p["peak_rss_bytes"] / p["bytes"], s["peak_rss_bytes"] / s["bytes"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build/bench", help="CMake build folder (default build/bench)")
    ap.add_argument("--traces", default="../shared/traces", help="folder of real traces")
    ap.add_argument("--big", default="build/bench_data/kineto_1gib.json",
                    help="the large trace; built if missing")
    ap.add_argument("--big-source", default=DEFAULT_SOURCE, help="the trace it repeats")
    ap.add_argument("--big-bytes", type=int, default=1 << 30, help="its minimum size")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (best time kept)")
    ap.add_argument("--big-repeat", type=int, default=3, help="runs per measurement of the big trace")
    ap.add_argument("--no-big", action="store_true", help="skip the large trace")
    ap.add_argument("--only-big", action="store_true", help="only the large trace")
    ap.add_argument("--cpu-time", action="store_true", help="user+system CPU time, not wall time")
    ap.add_argument("--json", help="also write every measurement to this file")
    args = ap.parse_args()

    os.chdir(REPO)
    bench = os.path.join(args.build, "bench", "perfdx_ingest_bench")
    if not os.path.exists(bench):
        sys.exit("{} not found: build it first (ninja -C {} perfdx_ingest_bench)".format(bench, args.build))

    jobs = []
    if not args.only_big:
        jobs += [(label(t, args.traces), t, args.repeat) for t in find_traces(args.traces)]
    if not args.no_big:
        if not os.path.exists(args.big):
            os.makedirs(os.path.dirname(args.big) or ".", exist_ok=True)
            print("building {} from {} ...".format(args.big, args.big_source), file=sys.stderr)
            subprocess.run([sys.executable, os.path.join(REPO, "bench", "make_big_trace.py"),
                            args.big_source, args.big, "--min-bytes", str(args.big_bytes)], check=True)
        jobs.append(("{} (generated from {})".format(os.path.basename(args.big),
                                                      os.path.basename(args.big_source)),
                     args.big, args.big_repeat))

    results = []
    lines = [
        "| trace | MB | events | perfdx MB/s | simdjson MB/s | time ratio | perfdx RSS / size "
        "| simdjson RSS / size |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    march = None
    for name, path, repeat in jobs:
        print("measuring {} ...".format(name), file=sys.stderr)
        p, s = measure(bench, path, repeat, args.cpu_time)
        if p["events"] != s["events"]:
            print("warning: {}: perfdx read {} events, the minimal pass {}".format(
                name, p["events"], s["events"]), file=sys.stderr)
        march = p["march"]
        results.append({"trace": name, "perfdx": p, "simdjson": s})
        lines.append(row(name, p, s))

    print("\nmarch: {}; times: {}, best of {} ({} for the big trace)\n".format(
        march, "CPU" if args.cpu_time else "wall", args.repeat, args.big_repeat))
    print("\n".join(lines))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
