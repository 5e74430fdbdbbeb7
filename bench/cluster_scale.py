#!/usr/bin/env python3
"""The cluster scale bench (issue #12 item 5; figures in docs/PERFORMANCE.md).

Builds a job of N Ascend ranks from the two real rank profiles of
../shared/traces/ascend/torch_npu_2rank_text_level1 (rank r is a copy of rank
r % 2's trace_view.json with its timings perturbed), injects one slow rank and
one slow link, then measures:
  * summarize: `perfdx summarize` of every rank, two at a time (the machine's
    cores; on a cluster each is one Slurm array task), wall time and the
    largest peak RSS of one summarize;
  * merge: `perfdx analyze *.summary`, wall time and peak RSS;
  * direct: `perfdx analyze` of the N rank folders at once (only up to
    --direct-max ranks, the slower path at scale);
and checks that the merged report names the injected slow rank (phase
compute, the kernel), and the injected slow link. Exit 1 when a check fails.

The perturbation, per rank r (seeded by --seed and r):
  * every timestamp is warped: t' = t0 + (t - t0 + extra(t)) * (1 + e_r) +
    offset_r, e_r uniform in +-0.5% (a per-rank speed), offset_r uniform in
    [0, 5 ms) (an unsynchronized clock);
  * the slow rank (3/7 of the way through the ranks): its compute tasks (AI_CORE, MIX_AIV, ...)
    take 20% longer (extra grows by 0.2 x the compute time before t), so it
    reaches each step's collectives Delta = 0.2 x its compute later;
  * every other rank waits Delta longer: its step's collectives last
    Delta / (their number) longer each (extra grows through each collective);
  * the slow link: one rank's SDMA copies over HCCS to one peer (local rank
    3 in its group of 8) take twice as long;
  * only what is made slower grows (the slow rank's compute tasks; the
    others' collectives and their Notify_Wait tasks; the slowed copies):
    every other event keeps its duration (at the rank's speed) where time
    is stretched around it.
Ranks are global: rank r's copies go from r to the ranks of its group of 8
(r // 8 * 8 + its template's peer rotated to r % 8).

Usage: bench/cluster_scale.py --perfdx build/release/src/perfdx/perfdx
           [--ranks 512,2048] [--work /tmp/perfdx-cluster-scale] [--keep]
"""
import argparse
import bisect
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = os.path.join(ROOT, "..", "shared", "traces", "ascend", "torch_npu_2rank_text_level1")
COMPUTE_TASKS = {"AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV", "AI_CPU"}
NO_PEER = 4294967295
GROUP = 8


def ts_ns(text):
    """A trace_view "ts" (decimal microseconds as a string) in integer ns."""
    whole, _, frac = str(text).partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def ns_text(ns):
    return f"{ns // 1000}.{ns % 1000:03d}"


class Warp:
    """extra(t): the time added before t by pieces [s, e) each adding `add` ns
    spread evenly over it (pieces disjoint, sorted)."""

    def __init__(self, pieces):
        pieces = sorted(p for p in pieces if p[1] > p[0] and p[2] > 0)
        self.starts = [p[0] for p in pieces]
        self.pieces = pieces
        self.before = [0]
        for s, e, add in pieces:
            self.before.append(self.before[-1] + add)

    def extra(self, t):
        k = bisect.bisect_right(self.starts, t) - 1
        if k < 0:
            return 0
        s, e, add = self.pieces[k]
        inside = add if t >= e else add * (t - s) / (e - s)
        return self.before[k] + inside


def union(intervals):
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def load_templates():
    out = []
    for r in (0, 1):
        base = os.path.join(TEMPLATE, f"rank{r}_ascend_pt")
        with open(os.path.join(base, "ASCEND_PROFILER_OUTPUT", "trace_view.json")) as f:
            events = json.load(f)
        with open(os.path.join(base, f"profiler_info_{r}.json")) as f:
            info = json.load(f)
        with open(os.path.join(base, "profiler_metadata.json")) as f:
            metadata = f.read()
        out.append((events, info, metadata))
    return out


def pids(events):
    names = {}
    for x in events:
        if x.get("ph") == "M" and x.get("name") == "process_name":
            names[x["args"]["name"]] = x["pid"]
    return names["Ascend Hardware"], names["HCCL"]


def make_rank(args):
    (r, n, seed, slow_rank, link_rank, link_peer, out_dir) = args
    events, info, metadata = TEMPLATES[r % 2]
    template_rank = r % 2
    rng = random.Random(seed * 1_000_003 + r)
    speed = 1 + rng.uniform(-0.005, 0.005)
    offset = int(rng.uniform(0, 5e6))
    hw, hccl = pids(events)
    t0 = min(ts_ns(x["ts"]) for x in events if "ts" in x)

    compute = [(ts_ns(x["ts"]), ts_ns(x["ts"]) + int(round(float(x["dur"]) * 1000)))
               for x in events if x.get("ph") == "X" and x["pid"] == hw
               and x.get("args", {}).get("Task Type") in COMPUTE_TASKS]
    compute_union = union(compute)
    compute_ns = sum(e - s for s, e in compute_union)
    ops = sorted((ts_ns(x["ts"]), ts_ns(x["ts"]) + int(round(float(x["dur"]) * 1000)))
                 for x in events if x.get("ph") == "X" and x["pid"] == hccl and x["tid"] == 0)
    pieces = []
    if r == slow_rank:
        pieces += [(s, e, 0.2 * (e - s)) for s, e in compute_union]
    else:
        # The slow rank's extra compute, as a longer wait in this rank's
        # collectives (the slow rank's template has the same compute).
        delta = 0.2 * SLOW_COMPUTE_NS
        pieces += [(s, e, delta / len(ops)) for s, e in ops]
    local = r % GROUP

    def peer(d):
        if d == NO_PEER:
            return d
        return r // GROUP * GROUP + (d - template_rank + local) % GROUP

    slow_copies = []
    slowed = set()  # (tid, ts) of the copies made slow
    if r == link_rank:
        for x in events:
            a = x.get("args", {})
            if (x.get("ph") == "X" and x["pid"] == hccl and x["name"] in ("Memcpy", "Reduce_Inline")
                    and a.get("transport type") == "SDMA" and a.get("link type") in ("HCCS", "HCCS_SW")
                    and peer(a.get("dst rank")) == r // GROUP * GROUP + link_peer):
                s = ts_ns(x["ts"])
                slow_copies.append((s, s + int(round(float(x["dur"]) * 1000))))
                slowed.add((x["tid"], x["ts"]))
    # Pieces must be disjoint: the copies lie inside collectives, whose
    # pieces (on other ranks) or compute pieces (slow rank) they do not meet
    # on the link rank unless it is also the slow rank.
    for s, e in slow_copies:
        pieces = [p for p in pieces if p[1] <= s or p[0] >= e] + [(s, e, e - s)]
    warp = Warp(pieces)

    def at(t):
        return t0 + int(round((t - t0 + warp.extra(t)) * speed)) + offset

    out = []
    for x in events:
        x = dict(x)
        if "ts" in x:
            original_ts = x["ts"]
            s = ts_ns(original_ts)
            new_s = at(s)
            x["ts"] = ns_text(new_s)
            if "dur" in x:
                e = s + int(round(float(x["dur"]) * 1000))
                # Only what is made slower grows; everything else keeps its
                # time (at the rank's speed) where time is stretched around
                # it (the collectives running beside the slow rank's
                # compute, the compute beside the others' longer waits).
                if r == slow_rank:
                    grows = x["pid"] == hw and x.get("args", {}).get("Task Type") in COMPUTE_TASKS
                else:
                    grows = x["pid"] == hccl and (x.get("tid") == 0 or x["name"] == "Notify_Wait")
                keep = not grows and (x.get("tid"), original_ts) not in slowed
                x["dur"] = (int(round((e - s) * speed)) if keep else at(e) - new_s) / 1000
        a = x.get("args")
        if isinstance(a, dict) and "src rank" in a:
            a = dict(a)
            a["src rank"] = r
            a["dst rank"] = peer(a["dst rank"])
            x["args"] = a
        out.append(x)
    folder = os.path.join(out_dir, f"rank{r}_ascend_pt")
    os.makedirs(os.path.join(folder, "ASCEND_PROFILER_OUTPUT"), exist_ok=True)
    info = dict(info)
    info["rank_id"] = r
    with open(os.path.join(folder, f"profiler_info_{r}.json"), "w") as f:
        json.dump(info, f)
    with open(os.path.join(folder, "profiler_metadata.json"), "w") as f:
        f.write(metadata)
    with open(os.path.join(folder, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
    return folder


def init_worker():
    global TEMPLATES, SLOW_COMPUTE_NS
    TEMPLATES = load_templates()
    hw, _ = pids(TEMPLATES[0][0])
    SLOW_COMPUTE_NS = 0
    # The slow rank's compute per step comes from its template; both
    # templates compute alike (8.87 vs 8.88 ms), so rank 0's stands for it.
    intervals = [(ts_ns(x["ts"]), ts_ns(x["ts"]) + int(round(float(x["dur"]) * 1000)))
                 for x in TEMPLATES[0][0] if x.get("ph") == "X" and x["pid"] == hw
                 and x.get("args", {}).get("Task Type") in COMPUTE_TASKS]
    SLOW_COMPUTE_NS = sum(e - s for s, e in union(intervals))


def run_measured(cmd):
    """Runs cmd under GNU time (its child's peak RSS is the command's alone:
    a child of this Python process would count the forked interpreter);
    returns (wall s, peak RSS bytes, returncode)."""
    with tempfile.NamedTemporaryFile("r") as measured:
        start = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", measured.name, *cmd],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.monotonic() - start
        rss_kib = int(measured.read().split()[-1])
    if p.returncode not in (0, 1):
        sys.stderr.write(f"{' '.join(cmd[:3])} ...: exit {p.returncode}: "
                         f"{p.stderr.decode(errors='replace')[-2000:]}\n")
    return wall, rss_kib * 1024, p.returncode


def check(report_path, slow_rank, link_rank, link_peer, label):
    with open(report_path) as f:
        report = json.load(f)
    cluster = report["jobs"][0]["cluster"]
    ok = True
    top = cluster["slow_ranks"][0] if cluster["slow_ranks"] else None
    standing = next(r["standing"] for r in cluster["ranks"] if r["rank"] == slow_rank)
    found_rank = top is not None and top["rank"] == slow_rank
    found_phase = standing["phase"] == "compute"
    kernel = (standing.get("kernel") or {}).get("name")
    link = cluster["slow_links"][0] if cluster["slow_links"] else None
    peer = link_rank // GROUP * GROUP + link_peer
    found_link = link is not None and link["src_rank"] == link_rank and link["dst_rank"] == peer
    findings = [f for f in report["findings"] if f["rule"] in ("late_rank", "slow_rank", "slow_link")]
    print(f"  {label}: slow rank {'found' if found_rank else 'NOT found'} "
          f"(listed first: {top and top['rank']}, wait caused {top and top['wait_caused_ns'] / 1e6:.2f} ms "
          f"per step), phase {standing['phase']}, kernel {kernel and kernel[:40]}; "
          f"slow link {'found' if found_link else 'NOT found'} "
          f"({link and link['src_rank']} -> {link and link['dst_rank']} {link and link['transport']}, "
          f"{link and link['bandwidth_gbps']:.1f} vs median {link and link['transport_median_gbps']:.1f} GB/s)")
    for f in findings:
        print(f"    finding {f['rule']} (rank {f['rank']}, {f['severity']}): {f['title'][:160]}")
    ok = found_rank and found_phase and kernel is not None and found_link
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--perfdx", required=True)
    ap.add_argument("--ranks", default="512,2048")
    ap.add_argument("--work", default="/tmp/perfdx-cluster-scale")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--direct-max", type=int, default=512)
    ap.add_argument("--keep", action="store_true", help="keep the generated ranks")
    ap.add_argument("--reuse", action="store_true",
                    help="measure the ranks a --keep run left in --work instead of making them")
    args = ap.parse_args()
    perfdx = os.path.abspath(args.perfdx)
    all_ok = True
    results = []
    for n in [int(x) for x in args.ranks.split(",")]:
        out_dir = os.path.join(args.work, str(n))
        slow_rank, link_rank, link_peer = n * 3 // 7, n * 5 // 7, 3
        if link_rank % GROUP == link_peer:
            link_rank += 1
        folders = [os.path.join(out_dir, f"rank{r}_ascend_pt") for r in range(n)]
        if not args.reuse:
            shutil.rmtree(out_dir, ignore_errors=True)
            os.makedirs(out_dir)
            start = time.monotonic()
            with ProcessPoolExecutor(args.jobs, initializer=init_worker) as pool:
                list(pool.map(make_rank, [(r, n, args.seed, slow_rank, link_rank, link_peer,
                                           out_dir) for r in range(n)], chunksize=16))
            print(f"{n} ranks: generated in {time.monotonic() - start:.0f} s", end="")
        else:
            print(f"{n} ranks: reused", end="")
        print(f" (slow rank {slow_rank}, slow link {link_rank} -> "
              f"{link_rank // GROUP * GROUP + link_peer})")

        sum_dir = os.path.join(out_dir, "summaries")
        shutil.rmtree(sum_dir, ignore_errors=True)
        os.makedirs(sum_dir)
        start = time.monotonic()
        with ThreadPoolExecutor(args.jobs) as pool:
            runs = list(pool.map(lambda f: run_measured(
                [perfdx, "summarize", f, "-o",
                 os.path.join(sum_dir, os.path.basename(f) + ".summary")]), folders))
        summarize_wall = time.monotonic() - start
        summarize_rss = max(r[1] for r in runs)
        failed = [f for f, r in zip(folders, runs) if r[2] != 0]
        if failed:
            print(f"  summarize failed on {len(failed)} ranks, e.g. {failed[0]}")
            all_ok = False
            continue
        summaries = sorted(os.path.join(sum_dir, s) for s in os.listdir(sum_dir))
        summary_bytes = sum(os.path.getsize(s) for s in summaries)
        merged = os.path.join(out_dir, "merged.json")
        merge_wall, merge_rss, rc = run_measured(
            [perfdx, "analyze", *summaries, "--format", "json", "-o", merged])
        print(f"  summarize: {summarize_wall:.1f} s wall ({args.jobs} at a time), peak RSS "
              f"{summarize_rss / 2**20:.0f} MiB per rank; summaries {summary_bytes / 2**20:.1f} MiB")
        print(f"  merge: {merge_wall:.1f} s wall, peak RSS {merge_rss / 2**20:.0f} MiB (exit {rc})")
        ok = rc in (0, 1) and check(merged, slow_rank, link_rank, link_peer, "merged")
        row = {"ranks": n, "summarize_s": summarize_wall, "summarize_rss_mib": summarize_rss / 2**20,
               "merge_s": merge_wall, "merge_rss_mib": merge_rss / 2**20,
               "summary_mib": summary_bytes / 2**20}
        if n <= args.direct_max:
            direct = os.path.join(out_dir, "direct.json")
            direct_wall, direct_rss, rc = run_measured(
                [perfdx, "analyze", *folders, "--format", "json", "-o", direct])
            print(f"  direct: {direct_wall:.1f} s wall, peak RSS {direct_rss / 2**20:.0f} MiB (exit {rc})")
            ok = rc in (0, 1) and check(direct, slow_rank, link_rank, link_peer, "direct") and ok
            row.update(direct_s=direct_wall, direct_rss_mib=direct_rss / 2**20)
        results.append(row)
        all_ok = all_ok and ok
        if not args.keep:
            shutil.rmtree(out_dir, ignore_errors=True)
    print(json.dumps(results))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
