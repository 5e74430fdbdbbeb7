"""Every input `perfdx analyze` takes under ../shared/traces, found by walking
it (for the Python tests: tests/python, tests/report/analyze_schema_test.py).

single: each trace file and kernel CSV, each *_ascend_pt folder; jobs: each
folder that holds several ranks of one job, analysed as a whole. The
profiler's own cluster analysis (cluster_analysis_output) is cross-check
data, not an input. A missing ../shared raises: the tests fail, never skip.
"""

import os

SHARED = os.path.join("..", "shared", "traces")


def shared_inputs():
    if not os.path.isdir(SHARED):
        raise RuntimeError(f"{os.path.abspath(SHARED)} is missing: the tests read ../shared in place")
    single, jobs = [], []
    for folder, dirs, files in os.walk(SHARED):
        dirs.sort()
        if folder.endswith("cluster_analysis_output"):
            dirs[:] = []
            continue
        if folder.endswith("_ascend_pt"):
            single.append(folder)
            dirs[:] = []
            continue
        if sum(d.endswith("_ascend_pt") for d in dirs) > 1:
            jobs.append(folder)
        traces = sorted(f for f in files if f.endswith((".json", ".json.gz", ".csv")))
        single += [os.path.join(folder, f) for f in traces]
        if len([f for f in traces if "rank" in f]) > 1:
            jobs.append(folder)
    return sorted(single), sorted(jobs)
