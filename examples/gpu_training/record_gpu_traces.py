#!/usr/bin/env python3
"""Records perfdx's modern GPU example traces on a CUDA machine.

One short script, run once per GPU session (PyTorch 2.x with CUDA and
torchvision):

    python3 examples/gpu_training/record_gpu_traces.py examples/gpu_training/traces

It writes gzipped Kineto traces (8 ProfilerSteps each, after 1 wait and
1 warm-up step):
  resnet50_workers0_fp32.json.gz   DataLoader num_workers=0: the input
                                   pipeline runs on the training thread
  resnet50_workers8_fp32.json.gz   num_workers=8, pin_memory=True
  resnet50_workers8_bf16.json.gz   the same under bf16 autocast
  transformer_eager.json.gz        a small transformer, eager mode
  transformer_compiled.json.gz     the same under torch.compile

The ResNet input is torchvision's FakeData with the usual ImageNet
augmentation, so loading costs real CPU time, as it would on JPEGs.
`--dry-run` runs every job on the CPU with tiny sizes, to check the script
without a GPU.
"""
import argparse
import gzip
import os
import shutil
import sys
import tempfile
import time
import traceback

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile, schedule

WAIT, WARMUP, ACTIVE = 1, 1, 8


def profiled_steps(name, out_dir, device, step_fn, n_steps):
    """Runs step_fn under torch.profiler and writes <name>.json.gz."""
    tmp = tempfile.mkdtemp()
    raw = os.path.join(tmp, "trace.json")
    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities,
                 schedule=schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE),
                 on_trace_ready=lambda p: p.export_chrome_trace(raw),
                 record_shapes=True, profile_memory=True) as prof:
        for step in range(n_steps):
            step_fn(step)
            prof.step()
    if device.type == "cuda":
        torch.cuda.synchronize()
    out = os.path.join(out_dir, name + ".json.gz")
    with open(raw, "rb") as src, gzip.GzipFile(out, "wb", mtime=0) as dst:
        shutil.copyfileobj(src, dst)
    shutil.rmtree(tmp)
    print(f"{out}: {os.path.getsize(out) / 1e6:.1f} MB", flush=True)


def resnet_job(out_dir, device, workers, amp, dry_run):
    import torchvision
    import torchvision.transforms as T

    image = 64 if dry_run else 224
    batch = 4 if dry_run else 64
    steps = WAIT + WARMUP + ACTIVE
    transform = T.Compose([T.RandomResizedCrop(image), T.RandomHorizontalFlip(), T.ToTensor(),
                           T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
    data = torchvision.datasets.FakeData(size=batch * (steps + 1), image_size=(3, 256, 256),
                                         num_classes=1000, transform=transform)
    loader = torch.utils.data.DataLoader(data, batch_size=batch, shuffle=True, num_workers=workers,
                                         pin_memory=device.type == "cuda" and workers > 0,
                                         persistent_workers=workers > 0)
    model = torchvision.models.resnet50().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    batches = iter(loader)

    def step(_):
        images, labels = next(batches)
        images = images.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=amp):
            loss = loss_fn(model(images), labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    name = f"resnet50_workers{workers}_{'bf16' if amp else 'fp32'}"
    profiled_steps(name, out_dir, device, step, steps)


def transformer_job(out_dir, device, compiled, dry_run):
    d_model, heads, layers = (64, 4, 2) if dry_run else (512, 8, 6)
    batch, seq = (2, 16) if dry_run else (32, 256)
    layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=4 * d_model, batch_first=True)
    model = nn.Sequential(nn.TransformerEncoder(layer, layers), nn.Linear(d_model, 1000)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    if compiled:
        model = torch.compile(model)
    x = torch.randn(batch, seq, d_model, device=device)
    y = torch.randint(0, 1000, (batch, seq), device=device)
    loss_fn = nn.CrossEntropyLoss()

    def step(_):
        logits = model(x)
        loss = loss_fn(logits.reshape(-1, 1000), y.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    # Compile (and warm up the caches) before profiling, so the trace shows
    # steady-state steps rather than compilation.
    for _ in range(3):
        step(0)
    name = f"transformer_{'compiled' if compiled else 'eager'}"
    profiled_steps(name, out_dir, device, step, WAIT + WARMUP + ACTIVE)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir")
    parser.add_argument("--dry-run", action="store_true", help="tiny sizes on the CPU")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    if args.dry_run:
        device = torch.device("cpu")
    elif not torch.cuda.is_available():
        sys.exit("no CUDA device; use --dry-run to check the script on a CPU")
    else:
        device = torch.device("cuda")
        torch.backends.cudnn.benchmark = True
        print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}", flush=True)
    start = time.time()
    jobs = [
        lambda: resnet_job(args.out_dir, device, workers=0, amp=False, dry_run=args.dry_run),
        lambda: resnet_job(args.out_dir, device, workers=8, amp=False, dry_run=args.dry_run),
        lambda: resnet_job(args.out_dir, device, workers=8, amp=True, dry_run=args.dry_run),
        lambda: transformer_job(args.out_dir, device, compiled=False, dry_run=args.dry_run),
    ]
    if hasattr(torch, "compile"):
        jobs.append(lambda: transformer_job(args.out_dir, device, compiled=True, dry_run=args.dry_run))
    # One job's failure (a small /dev/shm for the workers, a compiler
    # missing for torch.compile) must not cost the others: the GPU time
    # they need is scarce.
    failed = 0
    for job in jobs:
        job_start = time.time()
        try:
            job()
        except Exception:  # noqa: BLE001 - report and go on
            failed += 1
            traceback.print_exc()
        print(f"  ({time.time() - job_start:.0f} s)", flush=True)
    print(f"done in {time.time() - start:.0f} s, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
