"""perfdx from Python: the same engine, reports and errors as the `perfdx` command.

    import perfdx
    r = perfdx.analyze("rank-0.pt.trace.json.gz")
    print(r.findings[0].title)          # the report's JSON contract, keys as attributes
    r.steps_df()                        # pandas DataFrames of steps, kernels, ops, gaps, findings
    print(r)                            # the text report `perfdx analyze` prints

docs/python.md has the whole interface. Errors are perfdx.InputError (the input
cannot be read; the message names the file and byte offset), perfdx.UsageError
(an argument perfdx cannot take; also a ValueError) and perfdx.InternalError,
all perfdx.Error.
"""

import os
import warnings as _warnings

from . import _perfdx
from ._report import CheckResult, Info, Node, Report, WhatIf
from .steplog import StepLog

__version__ = _perfdx.__version__
Error = _perfdx.Error
InputError = _perfdx.InputError
UsageError = _perfdx.UsageError
InternalError = _perfdx.InternalError

__all__ = ["analyze", "whatif", "info", "check", "Report", "WhatIf", "Info", "CheckResult", "Node", "StepLog",
           "Error", "InputError", "UsageError", "InternalError", "LoadWarning", "__version__"]

_perfdx.set_object_type(Node)


class LoadWarning(UserWarning):
    """A rank skipped, a file repaired or cut short: the report's `warnings`, one each."""


def _paths(paths):
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    try:
        out = [os.fsdecode(p) for p in paths]
    except TypeError:
        raise UsageError(f"paths: expected a path or a list of paths, got {paths!r}") from None
    if not out:
        raise UsageError("paths: no trace given")
    return out


def _whole(name, value, low=0):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise UsageError(f"{name}={value!r}: expected a whole number from {low}")
    return value


def _steps(steps):
    """None, N, (A, B), (A, None), (None, B) or "A..B" as the CLI's --steps text."""
    if steps is None:
        return ""
    if isinstance(steps, str):
        return steps
    if isinstance(steps, int) and not isinstance(steps, bool):
        return str(steps)
    if isinstance(steps, (tuple, list)) and len(steps) == 2:
        ends = ["" if s is None else str(_whole("steps", s, low=-(2**63))) for s in steps]
        return f"{ends[0]}..{ends[1]}"
    raise UsageError(f"steps={steps!r}: expected N, (A, B) or 'A..B'")


def _ranks(rank, name="rank"):
    if rank is None:
        return []
    if isinstance(rank, int):
        return [_whole(name, rank)]
    return [_whole(name, r) for r in rank]


def _load(paths, framework, threads, max_decompressed_bytes, max_ratio):
    load = _perfdx.LoadArgs()
    load.paths = _paths(paths) if paths is not None else []
    load.framework = "" if framework is None else str(framework)
    load.threads = _whole("threads", threads)
    if max_decompressed_bytes is not None:
        load.max_decompressed_bytes = _whole("max_decompressed_bytes", max_decompressed_bytes, 1)
    if max_ratio is not None:
        load.max_ratio = float(max_ratio)
    return load


def _warn(messages):
    for message in messages:
        _warnings.warn(message, LoadWarning, stacklevel=3)


def analyze(paths, steps=None, window="steps", framework=None, *, rank=None,
            include_incomplete=False, min_gap_us=100.0, config=None, threads=0,
            max_decompressed_bytes=None, max_ratio=None):
    """`perfdx analyze PATH...`: why the step is slow. Returns a Report.

    paths: a trace file, a folder of rank traces, an *_ascend_pt / *_ascend_ms
    folder, a PROF_* folder, or a list of them (as the command line takes).
    steps: N, (A, B) inclusive (either end None), or "A..B"; window: "steps",
    "all" or "hta"; framework: "pytorch", "torch_npu" or "mindspore" when the
    detected one is wrong (its fixes are the ones shown); rank: a rank or a
    list of ranks; config: a thresholds file (default ./perfdx.toml if it
    exists, as the CLI). The GIL is released while perfdx loads and analyses.
    """
    load = _load(paths, framework, threads, max_decompressed_bytes, max_ratio)
    tree, json_text, text, html, markdown = _perfdx.analyze(
        load, _steps(steps), str(window), _ranks(rank), bool(include_incomplete),
        float(min_gap_us), "" if config is None else os.fsdecode(config))
    _warn(tree.warnings)
    return Report(tree, json_text, text, html, markdown)


def whatif(paths, remove=(), speedup=None, framework=None, *, rank=None, fix_rank=None,
           threads=0, max_decompressed_bytes=None, max_ratio=None):
    """`perfdx whatif PATH...`: the steps replayed with fixes applied. Returns a WhatIf.

    remove: causes that take no time ("data-loading", "layout-conversion",
        "launch-overhead", "communication-wait");
    speedup: {"fp32-matrix" | "matrix" | "communication": factor}. Each rank's
    `prediction` is the mean step predicted with them, beside its `replay`
    (how well the unchanged replay reproduces the measured steps).
    fix_rank: apply the fixes to these ranks only. A whole job of several
    ranks is replayed jointly too (`jobs[i].joint_replay`): a collective
    ends when its last rank arrives, so each rank gains what the others let it.
    """
    if isinstance(remove, str):
        remove = [remove]
    speedups = [f"{k}={float(v)!r}" for k, v in (speedup or {}).items()]
    load = _load(paths, framework, threads, max_decompressed_bytes, max_ratio)
    tree, json_text, text = _perfdx.whatif(load, [str(r) for r in remove], speedups, _ranks(rank),
                                           _ranks(fix_rank, "fix_rank"))
    _warn(tree.warnings)
    return WhatIf(tree, json_text, text)


def info(paths, framework=None, *, threads=0, max_decompressed_bytes=None, max_ratio=None):
    """`perfdx info PATH...`: what each rank's profile holds. Returns an Info."""
    load = _load(paths, framework, threads, max_decompressed_bytes, max_ratio)
    tree, json_text, text = _perfdx.info(load)
    return Info(tree, json_text, text)


def check(new, against, db=None, *, window="steps", include_incomplete=False, rank=None,
          warmup=0, max_regression=0.05, min_improvement=0.10, confidence=0.95, resamples=0,
          seed=None, max_decompressed_bytes=None, max_ratio=None):
    """`perfdx check NEW --against BASE`: improved, unchanged or regressed, beyond noise.

    new, against: a trace, an analyze report, a step log, or a run of the
    library `db` (default $PERFDX_DB, else .perfdx/runs.db, as the CLI).
    max_regression / min_improvement are fractions (0.05 = 5%). Returns a
    CheckResult; a regression is a verdict, not an exception.
    """
    if db is None:
        db = os.environ.get("PERFDX_DB", ".perfdx/runs.db")
    load = _load(None, None, 0, max_decompressed_bytes, max_ratio)
    tree, json_text, text, markdown, html = _perfdx.check(
        _paths(new)[0], _paths(against)[0], os.fsdecode(db), load, str(window),
        bool(include_incomplete), None if rank is None else _whole("rank", rank),
        _whole("warmup", warmup), float(max_regression), float(min_improvement),
        float(confidence), _whole("resamples", resamples),
        _perfdx.DEFAULT_SEED if seed is None else _whole("seed", seed))
    return CheckResult(tree, json_text, text, markdown, html)
