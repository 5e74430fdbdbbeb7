#!/usr/bin/env python3
"""FP32-on-CUDA-cores share of transformer_eager, counted without perfdx.

    python3 examples/gpu_training/fp32_share.py [trace.json.gz] > examples/gpu_training/traces/fp32_share.json

Stdlib only. The share is the one perfdx reports (docs/metrics.md,
"Kernel classes"):

    fp32_matrix_share = FP32 matrix time on CUDA cores / device work time

  - device work time: the summed durations of every kernel, gpu_memcpy and
    gpu_memset event whose start lies inside a step window (perfdx's
    default analysis window, docs/metrics.md "Steps"): a CPU
    "ProfilerStep#N" annotation extended to the end of the device work
    launched inside it (a launch: a cuda_runtime / cuda_driver event wholly
    inside the annotation, tied to its device event by "correlation"); a
    step starts no earlier than the previous one ends, and device work not
    launched in a step that ends before step 0's first device event pushes
    step 0's start; the last step is dropped when it launched fewer than 80%
    of the previous step's device events;
  - FP32 matrix time on CUDA cores: the summed durations, over the same
    events, of the matrix kernels whose names say FP32 without Tensor Cores.
    In this trace (an H200, torch 2.11, eager FP32, default matmul
    precision) those are two families, read from the names by hand:
      cutlass::Kernel2<cutlass_80_simt_sgemm_...>     CUTLASS SIMT SGEMM
      sm80_xmma_gemm_f32f32_f32f32_f32_..._ffma_...   cuBLAS FP32 FFMA GEMM
    The other matrix work, PyTorch's memory-efficient attention
    (fmha_cutlassF/B_f32_..._sm80), runs FP32 on Tensor Cores (3xTF32,
    OpMultiplyAddFastF32) and is not counted.
Times are exact integer nanoseconds (the JSON decimals are read as Decimal).
"""
import gzip
import json
import re
import sys
from decimal import Decimal

DEFAULT = "examples/gpu_training/traces/transformer_eager.json.gz"
DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
FP32_CUDA_CORE_FAMILIES = [
    re.compile(r"^void cutlass::Kernel2?<cutlass_80_simt_sgemm_"),
    re.compile(r"^sm\d+_xmma_gemm_f32f32_f32f32_f32_.*_ffma_"),
]


def ns(value):
    return int(Decimal(str(value)) * 1000)


def step_windows(events, markers):
    launch = {}  # correlation -> (host start, host end)
    device = []  # (start, end, correlation)
    for e in events:
        if e.get("ph") != "X":
            continue
        corr = (e.get("args") or {}).get("correlation")
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and corr is not None:
            start = ns(e["ts"])
            launch[corr] = (start, start + ns(e["dur"]))
        elif e.get("cat") in DEVICE_CATS:
            start = ns(e["ts"])
            device.append((start, start + ns(e["dur"]), corr))
    n = len(markers)
    ops = [0] * n
    dev_start = [None] * n
    dev_end = [None] * n
    matched = [False] * len(device)
    for k, (start, end, corr) in enumerate(device):
        host = launch.get(corr)
        if host is None:
            continue
        for i, (a, b) in enumerate(markers):
            if a <= host[0] and host[1] <= b:
                ops[i] += 1
                dev_start[i] = start if dev_start[i] is None else min(dev_start[i], start)
                dev_end[i] = end if dev_end[i] is None else max(dev_end[i], end)
                matched[k] = True
                break
    prev_end = markers[0][0]
    if ops[0] > 0:
        for k, (start, end, _) in enumerate(device):
            if not matched[k] and end <= dev_start[0]:
                prev_end = max(prev_end, end)
    windows = []
    for i, (a, b) in enumerate(markers):
        start = max(prev_end, a)
        end = max(b, dev_end[i]) if ops[i] > 0 else max(b, start)
        end = max(end, start)
        windows.append((start, end))
        prev_end = end
    last = n - 1
    while ops[last] == 0:
        last -= 1
    keep = last + 1
    if last > 0 and ops[last - 1] * 0.8 > ops[last]:
        keep = last
    return windows[:keep]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    with gzip.open(path, "rt", encoding="utf-8") as f:
        events = json.load(f, parse_float=Decimal)["traceEvents"]
    markers = []
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "user_annotation" and str(e.get("name", "")).startswith(
                "ProfilerStep#"):
            start = ns(e["ts"])
            markers.append((start, start + ns(e["dur"])))
    if not markers:
        sys.exit("no ProfilerStep# annotations")
    markers.sort()
    steps = step_windows(events, markers)

    def in_steps(t):
        return any(a <= t <= b for a, b in steps)

    device_ns = 0
    fp32_ns = 0
    kernels = {}
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in DEVICE_CATS:
            continue
        start = ns(e["ts"])
        if not in_steps(start):
            continue
        dur = ns(e["dur"])
        device_ns += dur
        name = e.get("name", "")
        if any(p.search(name) for p in FP32_CUDA_CORE_FAMILIES):
            fp32_ns += dur
            kernels[name] = kernels.get(name, 0) + dur
    out = {
        "trace": path,
        "steps": len(steps),
        "step_windows_ns": steps,
        "device_work_ns": device_ns,
        "fp32_matrix_ns": fp32_ns,
        "fp32_matrix_share": fp32_ns / device_ns,
        "fp32_kernels": dict(sorted(kernels.items(), key=lambda kv: -kv[1])),
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
