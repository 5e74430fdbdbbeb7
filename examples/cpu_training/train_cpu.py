#!/usr/bin/python3
"""The bundled example: a small CNN trained on the CPU under torch.profiler.

It reproduces, on purpose and at small scale, two of the problems the tuning
guides describe, so that `perfdx analyze` has something real to find:
  * data loading on the training thread (DataLoader with num_workers=0 and a
    per-sample augmentation written in Python), and
  * synchronous logging after every step (`log_metrics` blocks for ~15 ms,
    standing in for the guide's synchronous log write; its async version gave
    +22% there).

Run with Debian's torch (`apt-get install python3-torch`, torch 1.13, built
without Kineto, so the export is the legacy profiler format):

    /usr/bin/python3 examples/cpu_training/train_cpu.py examples/cpu_training/trace.json.gz
"""
import gzip
import os
import shutil
import sys
import tempfile
import time

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile, record_function, schedule
from torch.utils.data import DataLoader, Dataset

STEPS_WAIT, STEPS_WARMUP, STEPS_ACTIVE = 1, 1, 8
BATCH = 32


class AugmentedImages(Dataset):
    """Synthetic 3x32x32 images with a per-sample Python augmentation."""

    def __init__(self, n: int):
        g = torch.Generator().manual_seed(0)
        self.images = torch.randn(n, 3, 36, 36, generator=g)
        self.labels = torch.randint(0, 10, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = self.images[i]
        # Random crop and flip, then per-channel normalisation, one sample at
        # a time: the kind of CPU work that belongs in DataLoader workers.
        y, x = int(i * 7 % 5), int(i * 3 % 5)
        img = img[:, y:y + 32, x:x + 32]
        if i % 2:
            img = img.flip(2)
        mean = img.mean(dim=(1, 2), keepdim=True)
        std = img.std(dim=(1, 2), keepdim=True) + 1e-5
        return (img - mean) / std, self.labels[i]


def make_model() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 8 * 8, 10),
    )


def log_metrics(step: int, loss: torch.Tensor, log) -> None:
    # loss.item() synchronises; the write and the sleep stand for a blocking
    # log call (remote logger, flush to a network file system, ...).
    log.write(f"step {step} loss {loss.item():.4f}\n")
    log.flush()
    time.sleep(0.015)


def main(out_path: str) -> None:
    torch.manual_seed(0)
    torch.set_num_threads(1)
    loader = DataLoader(AugmentedImages(BATCH * 12), batch_size=BATCH, shuffle=False, num_workers=0)
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    total = STEPS_WAIT + STEPS_WARMUP + STEPS_ACTIVE
    tmp_dir = tempfile.mkdtemp()
    raw_trace = os.path.join(tmp_dir, "trace.json")

    with open(os.devnull, "w") as log, profile(
        activities=[ProfilerActivity.CPU],
        schedule=schedule(wait=STEPS_WAIT, warmup=STEPS_WARMUP, active=STEPS_ACTIVE),
        on_trace_ready=lambda p: p.export_chrome_trace(raw_trace),
        record_shapes=True,
        profile_memory=True,
    ) as prof:
        for step, (images, labels) in enumerate(loader):
            if step == total:
                break
            with record_function("forward_backward"):
                loss = loss_fn(model(images), labels)
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
            with record_function("optimizer_step"):
                optimizer.step()
            with record_function("log_metrics"):
                log_metrics(step, loss, log)
            prof.step()

    with open(raw_trace, "rb") as src, gzip.GzipFile(out_path, "wb", mtime=0) as dst:
        shutil.copyfileobj(src, dst)
    shutil.rmtree(tmp_dir)
    print(f"wrote {out_path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "trace.json.gz")
