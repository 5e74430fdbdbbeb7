#!/usr/bin/env python3
"""Device idle time while the host dispatches, counted without perfdx.

    python3 examples/gpu_training/dispatch_idle.py > examples/gpu_training/traces/dispatch_idle.json

Stdlib only. For each example trace, per ProfilerStep (the CPU
"ProfilerStep#N" annotations, as recorded, not extended to their device work):

  - device busy: the union of every kernel, gpu_memcpy and gpu_memset event;
  - a gap: a stretch of the step with no device event running;
  - dispatch time in a gap shorter than 1 ms: the part of it that a host
    thread spends inside a cpu_op, cuda_runtime or cuda_driver event or an
    "Optimizer.step#..." annotation, less the part inside a call that waits
    for the device (aten::item, aten::_local_scalar_dense, cudaStreamSynchronize,
    cudaDeviceSynchronize, cudaEventSynchronize, cudaMemcpy) or inside data
    loading ("enumerate(DataLoader)#..."): those wait, they do not dispatch;
  - a gap of 1 ms or more counts whole when an "Optimizer.step#..." annotation
    covers at least half of it (the optimizer's own dispatch), else not at all
    (a long pause inside one operator is that operator's host work).

Each step's, in ms (`dispatch_idle_ms_by_step`, by N), and the mean over the
steps. The mean is what perfdx's host_bound_dispatch finding
measures (docs/metrics.md, "Dispatch idle"), found here by a different
route: interval arithmetic over the raw events instead of perfdx's gap
causes. The two step windows differ slightly (perfdx extends a step to the
end of the device work it launched), so the test allows 5%.
"""
import bisect
import gzip
import json
import re
import sys

TRACES = ["resnet50_workers8_fp32", "resnet50_workers8_bf16", "transformer_eager",
          "transformer_compiled"]
FOLDER = "examples/gpu_training/traces"
DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
HOST_CATS = {"cpu_op", "cuda_runtime", "cuda_driver"}
WAITS = {"aten::item", "aten::_local_scalar_dense", "cudaStreamSynchronize",
         "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy"}
LONG_GAP_US = 1000


def merged(intervals):
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def length_in(intervals, a, b):
    """Time of the merged, sorted intervals inside [a, b)."""
    total = 0
    i = max(bisect.bisect_left(intervals, [a, a]) - 1, 0)
    for x, y in intervals[i:]:
        if x >= b:
            break
        total += max(0, min(b, y) - max(a, x))
    return total


def dispatch_idle_ms_per_step(path):
    events = [e for e in json.load(gzip.open(path))["traceEvents"]
              if e.get("ph") == "X" and "dur" in e]
    span = lambda e: [e["ts"], e["ts"] + e["dur"]]
    name = lambda e: e.get("name", "")
    busy = merged(span(e) for e in events if e.get("cat") in DEVICE_CATS)
    optimizer = merged(span(e) for e in events if name(e).startswith("Optimizer.step#"))
    host = merged([span(e) for e in events if e.get("cat") in HOST_CATS] + optimizer)
    waits = merged(span(e) for e in events
                   if name(e) in WAITS or name(e).startswith("enumerate(DataLoader)#"))
    # Host time inside a gap that is not waiting: host minus waits.
    dispatching = []
    for a, b in host:
        t = a
        for x, y in waits[max(bisect.bisect_left(waits, [a, a]) - 1, 0):]:
            if x >= b:
                break
            if y <= t:
                continue
            if x > t:
                dispatching.append([t, x])
            t = max(t, y)
        if t < b:
            dispatching.append([t, b])
    steps = sorted(span(e) + [int(name(e).split("#")[1])] for e in events
                   if e.get("cat") == "user_annotation"
                   and re.fullmatch(r"ProfilerStep#\d+", name(e)))
    total_us = 0.0
    by_step = {}
    for start, end, step in steps:
        t = start
        step_us = 0.0
        for a, b in [iv for iv in busy if iv[1] > start and iv[0] < end] + [[end, end]]:
            a = max(a, start)
            if a > t:
                if a - t < LONG_GAP_US:
                    step_us += length_in(dispatching, t, a)
                elif 2 * length_in(optimizer, t, a) >= a - t:
                    step_us += a - t
            t = max(t, min(b, end))
        total_us += step_us
        by_step[str(step)] = round(step_us / 1000, 3)
    return {"steps": len(steps), "dispatch_idle_ms_per_step": round(total_us / len(steps) / 1000, 3),
            "dispatch_idle_ms_by_step": by_step}


def main():
    out = {name: dispatch_idle_ms_per_step(f"{FOLDER}/{name}.json.gz") for name in TRACES}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
