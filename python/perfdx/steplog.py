"""Write perfdx's JSON-lines step log from a Python training loop.

This file needs nothing but the standard library: where perfdx is not
installed (a training image), copy it alone and `from steplog import StepLog`;
with perfdx installed it is `perfdx.StepLog`. Two lines in a training loop:

    log = StepLog("steps.jsonl", model="resnet50")      # once, before the loop
    with log.step(samples=batch_size): train_step(batch)  # around each step

Then, after a change:

    perfdx baseline save steps.jsonl --name resnet50     # keep the run
    perfdx check steps.jsonl --against resnet50          # improved / unchanged / regressed

Without this file, the same format is one line of standard Python:

    log.write(json.dumps({"step": i, "step_time_s": dt, "samples": batch_size}) + "\\n")

Each line is flushed as it is written, so a job that is killed loses at most
the line being written (perfdx skips a cut-short last line). Step times come
from time.perf_counter(); for GPU work, synchronize (torch.cuda.synchronize())
at the end of the step, or the time measured is only the launch time.
"""

import json
import os
import socket
import time
from contextlib import contextmanager

FORMAT_VERSION = 1


class StepLog:
    """Appends one JSON object per training step to `path`."""

    def __init__(self, path, **meta):
        self._file = open(path, "a", encoding="utf-8")
        self._step = 0
        header = {"perfdx_step_log": FORMAT_VERSION,
                  "meta": {"host": socket.gethostname(), "pid": str(os.getpid()),
                           **{k: str(v) for k, v in meta.items()}}}
        self._write(header)

    def record(self, step_time_s, samples=None, phases_s=None, **extra):
        """Records a step measured elsewhere: its wall time in seconds."""
        line = {"step": self._step, "step_time_s": float(step_time_s)}
        if samples is not None:
            line["samples"] = samples
        if phases_s:
            line["phases_s"] = {k: float(v) for k, v in phases_s.items()}
        line.update(extra)  # loss, lr, ...: kept in the log, ignored by perfdx
        self._write(line)
        self._step += 1

    @contextmanager
    def step(self, samples=None, **extra):
        """Times the block as one step."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.record(time.perf_counter() - start, samples=samples, **extra)

    def close(self):
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _write(self, obj):
        self._file.write(json.dumps(obj) + "\n")
        self._file.flush()
