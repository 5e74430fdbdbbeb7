#!/usr/bin/env python3
"""perfdx's accuracy against hand-written labels: docs/accuracy.md (issue 10).

Runs `perfdx analyze PATH --format json` on every input listed in
tests/accuracy/expected_findings.json, keeps the findings at warning or
above, and compares their rule ids with the labels:
  TP  a rule that fired and was expected,
  FP  a rule that fired and was not expected (or was labelled must-not),
  FN  a rule that was expected and did not fire.
An unlabelled input (its problems cannot be known) counts only its must-not
hits, as FPs. Precision = TP / (TP + FP), recall = TP / (TP + FN), over all
inputs.

  accuracy.py [--perfdx BIN] --write   writes docs/accuracy.md
  accuracy.py [--perfdx BIN] --check   exits 1 when docs/accuracy.md differs
                                       from what --write would write, or when
                                       precision or recall is under its floor

Python standard library only. Run from the repository root (../shared must
exist: a missing ../shared is a failure, not a skip).
"""
import argparse
import json
import os
import subprocess
import sys

LABELS = os.path.join("tests", "accuracy", "expected_findings.json")
DOC = os.path.join("docs", "accuracy.md")
SHARED = os.path.join("..", "shared", "traces")

# Floors for --check, set a little under what was measured when the labels
# were written (precision 0.466 = 41/88, recall 1.000 = 41/41 on 2026-12-01,
# 34 inputs): with the same TPs, three more unexpected findings still pass
# precision and a fourth fails; one lost expected finding passes recall and a
# second fails. Raise them when the measured values rise.
PRECISION_FLOOR = 0.45
RECALL_FLOOR = 0.96

# The replay (issue #11): the unchanged replay's median |error| over steps
# must stay at or under this on every input with a replay.
REPLAY_ERROR_CEILING = 0.02

# Before/after pairs: the fix of `rule` replayed on `before` (or, where a
# list of `perfdx whatif` options stands in its place, the user's own
# scenario), against the measured `after` run. `cause` says whether the after-run removes the cause
# entirely (the 15% target applies) and, where not, why the two differ.
PAIRS = [
    ("examples/gpu/resnet50_workers0_fp32", "examples/gpu/resnet50_workers8_fp32", "data_loader_stall",
     "complete: 8 workers and pinned memory remove the stall"),
    ("tbp/resnet50_num_workers_0", "tbp/resnet50_num_workers_4", "data_loader_stall",
     "partial: the 4 worker processes compete with the main thread for the CPU; its runtime, CPU "
     "execution and other time grow from 17.8 to 37.6 ms per step (TBP breakdown), which the before-run "
     "cannot show (tests/advisor/whatif_pairs_test.cc)"),
    ("examples/cpu_corpus/data_stall", "examples/cpu_corpus/baseline", "data_loader_stall",
     "complete: the baseline is the same script without the problem, recorded in the same minute "
     "while a calibration workload held the machine's speed within 10% (record_cpu_corpus.py); the "
     "last column is the script's own timing of the injected code"),
    ("examples/cpu_corpus/host_sync", "examples/cpu_corpus/baseline", "host_sync_copies",
     "complete, as above"),
    ("examples/cpu_corpus/sync_logging", "examples/cpu_corpus/baseline", "recurring_gap",
     "complete, as above"),
    ("examples/cpu_corpus/elementwise", "examples/cpu_corpus/baseline", "elementwise_chain",
     "complete, as above; the fused chain keeps one op's time, and the slicing and detach around "
     "the chain stay"),
    ("examples/gpu/resnet50_workers8_fp32", "examples/gpu/resnet50_workers8_bf16", ["--speedup", "matrix=2"],
     "no FP32-matrix finding (cuDNN already runs the convolutions as TF32), so the user's scenario: "
     "matrix work at the H100/H200 dense BF16/TF32 peak ratio, 2.0; the host's loop holds the step, so "
     "faster matrix work buys almost nothing; the after-run's host loop is 3.7 ms shorter per step "
     "(cuDNN's backward convolutions take 4 ms less host time in bf16), which the before-run cannot "
     "show: prediction + that drop = the measured gain within 15% (tests/advisor/whatif_pairs_test.cc)"),
    ("examples/gpu/transformer_eager", "examples/gpu/transformer_compiled", ["--remove", "launch-overhead"],
     "torch.compile's default mode captures no graph but dispatches far less per step (framework "
     "overhead 12.2% -> 2.0%), the replay's part; it also fuses the elementwise kernels (440 -> 310 per "
     "step), so the device's own work falls from 29.1 to 26.2 ms per step, work the eager run's replay "
     "keeps: prediction + that drop = the measured gain within 15% (tests/advisor/whatif_pairs_test.cc)"),
]
CORPUS_TRUTH = os.path.join("examples", "cpu_corpus")

SEVERITY_RANK = {"info": 0, "warning": 1, "critical": 2}
REPORTED_MIN = SEVERITY_RANK["warning"]


def expand(rules, groups):
    out = []
    for r in rules:
        if r.startswith("@"):
            out.extend(groups[r[1:]])
        else:
            out.append(r)
    return sorted(set(out))


def run_perfdx(perfdx, path):
    proc = subprocess.run([perfdx, "analyze", path, "--format", "json"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"perfdx analyze {path} exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def reported(doc):
    """Findings at warning or above: {rule: (severity, title)}, the most severe per rule."""
    out = {}
    for f in doc.get("findings", []):
        sev = f.get("severity", "info")
        if SEVERITY_RANK.get(sev, 0) < REPORTED_MIN:
            continue
        rule = f["rule"]
        if rule not in out or SEVERITY_RANK[sev] > SEVERITY_RANK[out[rule][0]]:
            out[rule] = (sev, f.get("title", ""))
    return out


def notes_for(name, notes):
    """The hand-written notes on misses: those of every prefix of `name`, longest last."""
    out = {}
    for prefix in sorted((p for p in notes if name.startswith(p)), key=len):
        out.update(notes[prefix])
    return out


def score(trace, groups, fired):
    expected = set(trace["expected"])
    must_not = set(expand(trace.get("must_not", []), groups))
    bad = expected & must_not
    if bad:
        raise ValueError(f"{trace['name']}: {sorted(bad)} both expected and must-not")
    if trace["labelled"]:
        tp = sorted(expected & set(fired))
        fp = sorted(set(fired) - expected)
        fn = sorted(expected - set(fired))
    else:
        tp, fn = [], []
        fp = sorted(must_not & set(fired))
    return tp, fp, fn


def short(title, n=110):
    title = " ".join(title.split()).replace("|", "/")
    return title if len(title) <= n else title[: n - 1] + "…"


def ms(ns):
    return f"{ns / 1e6:.1f}"


def replay_lines(rows):
    lines = [
        "## Replay error",
        "",
        "The unchanged replay of each input's steps (docs/metrics.md, \"Replay\") against its",
        "measured steps: the median and largest |replayed − measured| / measured over the analysed",
        f"steps. `--check` fails when a median exceeds {REPLAY_ERROR_CEILING:.0%}. A host-only (CPU) trace replays",
        "exactly: nothing on it is modelled.",
        "",
        "| trace | steps | median error | max error | launch latency | inferred waits |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        rp = r["replay"]
        if not rp.get("available"):
            lines.append(f"| {r['name']} | — | no replay: {rp.get('why_not', '')} | | | |")
            continue
        lines.append(
            f"| {r['name']} | {len(rp['steps'])} | {rp['median_abs_error']:.3%} | {rp['max_abs_error']:.3%} | "
            f"{rp['params']['launch_latency_ns'] / 1e3:.1f} µs | {rp['inferred_waits']} |")
    lines.append("")
    return lines


def run_whatif(perfdx, path, options):
    proc = subprocess.run([perfdx, "whatif", path, *options, "--format", "json"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"perfdx whatif {path} exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)["ranks"][0]["prediction"]


def pair_lines(docs, perfdx, paths):
    lines = [
        "## Before/after pairs",
        "",
        "Each fix predicted from the \"before\" trace alone (its finding's `prediction`, or the user's",
        "scenario replayed by `perfdx whatif` where no finding calls for the change) beside the",
        "measured \"after\" run (the mean step of its own analysis). Gain error = (predicted gain −",
        "measured gain) / measured gain. For the CPU corpus the last column is the recording script's",
        "perf_counter timing of the injected code (median over the steps, `*.truth.json`), independent",
        "of the profiler.",
        "",
        "| before → after | fix replayed | before | predicted | after | predicted gain | measured gain | gain error | injected | why they differ |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for before, after, rule, why in PAIRS:
        b, a = docs[before], docs[after]
        b_ns = b["ranks"][0]["summary"]["step_time_ns"]["mean"]
        a_ns = a["ranks"][0]["summary"]["step_time_ns"]["mean"]
        if isinstance(rule, list):
            pred = run_whatif(perfdx, paths[before], rule)
            rule = "perfdx whatif"
        else:
            pred = next((f["prediction"] for f in b["findings"] if f["rule"] == rule and f.get("prediction")), None)
        injected = ""
        if before.startswith("examples/cpu_corpus/"):
            scenario = before.rsplit("/", 1)[1]
            with open(os.path.join(CORPUS_TRUTH, scenario + ".truth.json"), encoding="utf-8") as f:
                injected = f"{json.load(f)['measured']['injected_ms_per_step_median']:.1f}"
        measured_gain = b_ns - a_ns
        if pred is None:
            lines.append(f"| {before} → {after} | `{rule}`: none | {ms(b_ns)} | — | {ms(a_ns)} | — | "
                         f"{ms(measured_gain)} | — | {injected} | {why} |")
            continue
        err = (pred["gain_ns_per_step"] - measured_gain) / measured_gain if measured_gain else float("nan")
        lines.append(f"| {before} → {after} | `{rule}`: {pred['what_if']} | {ms(b_ns)} | {ms(pred['predicted_step_ns'])} | "
                     f"{ms(a_ns)} | {ms(pred['gain_ns_per_step'])} | {ms(measured_gain)} | {err:+.1%} | {injected} | {why} |")
    lines += ["", "Times in ms per step.", ""]
    return lines


def render(rows, totals, docs, perfdx, paths):
    tp, fp, fn = totals
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    lines = [
        "# Accuracy of perfdx's findings",
        "",
        "Generated by `python3 tests/accuracy/accuracy.py --write` (the CTest test",
        "`accuracy_doc_up_to_date` runs `--check`: it fails when this file is stale or",
        f"when precision falls under {PRECISION_FLOOR:.2f} or recall under {RECALL_FLOOR:.2f}). Do not edit by hand.",
        "",
        "## Method",
        "",
        "- **Inputs**: every input `perfdx analyze` takes under `../shared/traces` and `examples/`, each",
        "  analysed on its own (each Kineto file, each Ascend `*_ascend_pt` rank folder, the mstt",
        "  samples, the example traces). `mstt_samples/cluster_analysis_output` holds no profiler trace",
        "  (perfdx refuses it), so it is not an input.",
        "- **Labels** (`tests/accuracy/expected_findings.json`, written by hand): the rule ids a careful",
        "  engineer expects at warning or above, and the ones that must not fire, from what is known about",
        "  each run, never from perfdx's output: `../shared/traces/SOURCES.md`; the peers' own output in",
        "  `../shared/golden/` (the TensorBoard plugin's recommendations in `tbp/`, HTA's idle, overlap and",
        "  kernel-type numbers in `hta/`); torch_npu's `step_trace_time.csv` / `analysis.db` StepTraceTime",
        "  beside each Ascend profile; the recording scripts (`examples/gpu_training/record_gpu_traces.py`",
        "  and its README, `examples/cpu_training/train_cpu.py`) and the corpus's `*.truth.json`. Each",
        "  trace's `source` says which. Where nothing says what a run's problem is, the input is",
        "  **unlabelled** (the reason is in the JSON) and counts only its must-not hits.",
        "- **Scoring**: a finding counts once per rule (its highest severity). TP: fired and expected;",
        "  FP: fired at warning or above and not expected (or labelled must-not); FN: expected and not",
        "  fired at warning or above. A plausible finding that no source supports is an FP here: the",
        "  labels say only what is known. Precision = TP/(TP+FP), recall = TP/(TP+FN), over all inputs.",
        "",
        "## Per trace",
        "",
        "| trace | expected | reported (warning or above) | TP | FP | FN |",
        "|---|---|---|---:|---:|---:|",
    ]
    for r in rows:
        expected = ", ".join(f"`{e}`" for e in r["expected"]) or ("unlabelled" if not r["labelled"] else "none")
        rep = sorted(r["fired"].items(), key=lambda kv: (-SEVERITY_RANK[kv[1][0]], kv[0]))
        reported_s = ", ".join(f"`{rule}` ({sev})" for rule, (sev, _) in rep) or "none"
        lines.append(f"| {r['name']} | {expected} | {reported_s} | {len(r['tp'])} | {len(r['fp'])} | {len(r['fn'])} |")
    lines.append(f"| **total** | | | **{tp}** | **{fp}** | **{fn}** |")
    lines += [
        "",
        f"**Precision {precision:.3f}** ({tp} of {tp + fp} reported findings expected), "
        f"**recall {recall:.3f}** ({tp} of {tp + fn} expected findings reported).",
        "",
        "## Known misses",
        "",
        "Each false positive and false negative, with what perfdx said (the rules are not changed here;",
        "each is for the rule's owner to judge). A false positive is often a plausible finding that no",
        "source labels; the note says so where it is.",
        "",
    ]
    for r in rows:
        for rule in r["fp"]:
            sev, title = r["fired"][rule]
            why = r["notes"].get(rule, "")
            kind = "must-not" if rule in r["must_not"] else "not expected"
            lines.append(f"- FP `{rule}` ({sev}, {kind}) on {r['name']}: {short(title)}" + (f" — {why}" if why else ""))
        for rule in r["fn"]:
            why = r["notes"].get(rule, "")
            lines.append(f"- FN `{rule}` on {r['name']}: not reported at warning or above" + (f" — {why}" if why else ""))
    lines.append("")
    lines += replay_lines(rows)
    lines += pair_lines(docs, perfdx, paths)
    return "\n".join(lines), precision, recall


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perfdx", default=os.path.join("build", "release", "src", "perfdx", "perfdx"))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = ap.parse_args()

    if not os.path.isdir(SHARED):
        print(f"accuracy: {SHARED} is missing (run from the repository root beside ../shared)", file=sys.stderr)
        return 1
    with open(LABELS, encoding="utf-8") as f:
        labels = json.load(f)
    groups = labels["groups"]
    rows = []
    docs = {}
    paths = {trace["name"]: trace["path"] for trace in labels["traces"]}
    totals = [0, 0, 0]
    for trace in labels["traces"]:
        if not os.path.exists(trace["path"]):
            print(f"accuracy: {trace['path']} is missing", file=sys.stderr)
            return 1
        doc = run_perfdx(args.perfdx, trace["path"])
        docs[trace["name"]] = doc
        fired = reported(doc)
        tp, fp, fn = score(trace, groups, fired)
        rows.append({
            "name": trace["name"], "labelled": trace["labelled"], "expected": trace["expected"],
            "must_not": expand(trace.get("must_not", []), groups), "notes": notes_for(trace["name"], labels.get("notes", {})),
            "fired": fired, "tp": tp, "fp": fp, "fn": fn,
            "replay": doc["ranks"][0]["replay"] if doc.get("ranks") else {"available": False, "why_not": "no rank"},
        })
        totals = [totals[0] + len(tp), totals[1] + len(fp), totals[2] + len(fn)]
    text, precision, recall = render(rows, totals, docs, args.perfdx, paths)

    if args.write:
        with open(DOC, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {DOC}: precision {precision:.3f}, recall {recall:.3f}")
        return 0
    ok = True
    try:
        with open(DOC, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = None
    if current != text:
        print(f"accuracy: {DOC} is out of date; run python3 tests/accuracy/accuracy.py --write", file=sys.stderr)
        ok = False
    if precision < PRECISION_FLOOR:
        print(f"accuracy: precision {precision:.3f} is under its floor {PRECISION_FLOOR}", file=sys.stderr)
        ok = False
    for r in rows:
        rp = r["replay"]
        if rp.get("available") and rp["median_abs_error"] > REPLAY_ERROR_CEILING:
            print(f"accuracy: {r['name']}: replay median error {rp['median_abs_error']:.3%} is over "
                  f"{REPLAY_ERROR_CEILING:.0%}", file=sys.stderr)
            ok = False
    if recall < RECALL_FLOOR:
        print(f"accuracy: recall {recall:.3f} is under its floor {RECALL_FLOOR}", file=sys.stderr)
        ok = False
    print(f"precision {precision:.3f}, recall {recall:.3f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
