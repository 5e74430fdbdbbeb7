#!/usr/bin/env python3
"""perfdx against HTA on the same inputs (issue #13's HTA item; figures in docs/PERFORMANCE.md).

Times, each in its own process under GNU time, interleaved, the best of
--repeat: `perfdx analyze --format json -o /dev/null INPUT` and HTA's
`TraceAnalysis(trace_files, trace_dir)` followed by
`get_temporal_breakdown(visualize=False)` (HTA's load plus the analysis
perfdx's temporal breakdown reproduces), on

  - the ResNet-50 trace (../shared/traces/kineto/tbp/resnet50_num_workers_0),
  - the >= 1 GiB trace of make_big_trace.py (--big; skipped if absent),
  - a folder of --ranks copies of HTA's control trace (bench/rank_folder.py's),
    each given to HTA as its own rank.

Prints wall time, CPU time and peak RSS of both and HTA's wall over perfdx's.
HTA runs under --python (default /usr/bin/python3, where Debian's pandas is);
where it cannot import `hta`, nothing is timed: the script says why and exits
0, and docs/PERFORMANCE.md keeps the last measured figures with their date.

Usage: bench/hta_compare.py --perfdx build/release/src/perfdx/perfdx
           [--python /usr/bin/python3] [--repeat 2] [--ranks 64]
           [--big build/bench_data/kineto_1gib.json] [--only resnet50,big,folder]
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rank_folder  # noqa: E402  (the same folder of copies, the same timing)

RESNET50 = os.path.join(HERE, "..", "..", "shared", "traces", "kineto", "tbp",
                        "resnet50_num_workers_0", "worker0.1623143089861.pt.trace.json.gz")
EXPECTED_HTA = "0.6.1"

# Run by --python: HTA's load and temporal breakdown of the rank files given.
HTA_DRIVER = r"""
import sys
from hta.trace_analysis import TraceAnalysis
files = {rank: path for rank, path in enumerate(sys.argv[2:])}
analyzer = TraceAnalysis(trace_files=files, trace_dir=sys.argv[1])
breakdown = analyzer.get_temporal_breakdown(visualize=False)
print(len(breakdown))
"""

HTA_VERSION = r"""
import importlib.metadata
import hta  # the package itself, not only its metadata
print(importlib.metadata.version("HolisticTraceAnalysis"))
"""


def hta_version(python):
    proc = subprocess.run([python, "-c", HTA_VERSION], capture_output=True, text=True)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return None, last
    return proc.stdout.strip(), ""


def best(runs):
    return {"wall_s": min(r["wall_s"] for r in runs), "cpu_s": min(r["cpu_s"] for r in runs),
            "rss_mib": max(r["rss_mib"] for r in runs)}


def compare(name, perfdx, python, perfdx_input, hta_dir, hta_files, repeat):
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(rank_folder.timed(
            [perfdx, "analyze", "--format", "json", "-o", os.devnull, perfdx_input]))
        theirs.append(rank_folder.timed([python, "-c", HTA_DRIVER, hta_dir] + hta_files))
    p, h = best(ours), best(theirs)
    print(f"| {name} | {p['wall_s']:.3f} | {p['cpu_s']:.2f} | {p['rss_mib']:.0f} "
          f"| {h['wall_s']:.3f} | {h['cpu_s']:.2f} | {h['rss_mib']:.0f} "
          f"| {h['wall_s'] / p['wall_s']:.1f}x |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--perfdx", required=True)
    ap.add_argument("--python", default="/usr/bin/python3", help="the interpreter that has HTA")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--big", default=os.path.join("build", "bench_data", "kineto_1gib.json"))
    ap.add_argument("--work", default="/tmp/perfdx-rank-folder")
    ap.add_argument("--only", default="resnet50,big,folder")
    args = ap.parse_args()
    perfdx = os.path.abspath(args.perfdx)
    only = set(args.only.split(","))

    version, why = hta_version(args.python)
    if version is None:
        print(f"HTA not measured: {args.python} cannot import it ({why}); "
              "docs/PERFORMANCE.md keeps the last measured figures with their date")
        return 0
    if version != EXPECTED_HTA:
        print(f"note: HTA {version}, not the {EXPECTED_HTA} the acceptance names")

    print(f"HTA {version} under {args.python}; best of {args.repeat}, interleaved")
    print("| input | perfdx wall s | perfdx CPU s | perfdx RSS MiB "
          "| HTA wall s | HTA CPU s | HTA RSS MiB | HTA / perfdx |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    if "resnet50" in only:
        trace = os.path.abspath(RESNET50)
        compare("ResNet-50 workers 0", perfdx, args.python, trace, os.path.dirname(trace), [trace],
                args.repeat)
    if "big" in only:
        if os.path.exists(args.big):
            big = os.path.abspath(args.big)
            compare(os.path.basename(big), perfdx, args.python, big, os.path.dirname(big), [big],
                    args.repeat)
        else:
            print(f"({args.big} is absent: bench/make_big_trace.py builds it)")
    if "folder" in only:
        folder = rank_folder.build_folder(os.path.abspath(rank_folder.DEFAULT_TRACE), args.ranks,
                                          args.work)
        files = [os.path.join(folder, f"rank{r}.json.gz") for r in range(args.ranks)]
        compare(f"{args.ranks} ranks of control", perfdx, args.python, folder, folder, files,
                args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
