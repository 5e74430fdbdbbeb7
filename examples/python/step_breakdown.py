# %% [markdown]
# # Where each training step's time goes
#
# A notebook in percent format (VS Code, Jupyter with jupytext, or plain
# `python3 examples/python/step_breakdown.py`): analyse a trace with perfdx,
# look at its findings, and plot each step's breakdown as the TensorBoard
# profiler plugin split it (docs/metrics.md, "Step breakdown").
#
#     python3 examples/python/step_breakdown.py [--trace PATH] [--out breakdown.png]

# %%
import argparse
import os

import matplotlib.pyplot as plt

import perfdx

parser = argparse.ArgumentParser(description="perfdx from Python: a step breakdown plot")
parser.add_argument("--trace", default=os.path.join(
    "..", "shared", "traces", "kineto", "tbp", "resnet50_num_workers_0",
    "worker0.1623143089861.pt.trace.json.gz"))
parser.add_argument("--out", default="step_breakdown.png")
args, _ = parser.parse_known_args()  # a notebook kernel passes its own arguments

# %% The report: the same as `perfdx analyze --format json`, as Python objects.
report = perfdx.analyze(args.trace)
print(repr(report))
for finding in report.findings[:3]:
    gain = finding.estimated_gain
    print(f"[{finding.severity}] {finding.title}"
          + (f" (up to {gain.share:.0%} of the step)" if gain and gain.share else ""))

# %% One row per step; the breakdown columns are the report's breakdown_ns.
steps = report.steps_df()
phases = [c for c in steps.columns if c.startswith("breakdown_ns.")]
ms = steps.set_index("id")[phases] / 1e6
ms.columns = [c.removeprefix("breakdown_ns.") for c in phases]
ms = ms.loc[:, ms.sum() > 0]  # phases this trace never spends time in
print(ms.round(2).to_string())

# %% The plot.
ax = ms.plot.bar(stacked=True, figsize=(9, 4.5), width=0.8)
ax.set_xlabel("step")
ax.set_ylabel("time (ms)")
ax.set_title(f"Step breakdown: {os.path.basename(args.trace)}")
ax.legend(title="phase", bbox_to_anchor=(1.01, 1), loc="upper left")
plt.tight_layout()
plt.savefig(args.out, dpi=110)
print(f"wrote {args.out}")
