"""The Python module against the CLI (issue #16): the same report, the same
DataFrames as the JSON report holds, errors as exceptions, the GIL released.

Run by CTest (`python_module`) with PYTHONPATH at build/<preset>/python and
$PERFDX the CLI of the same build; from the repository root, so that
../shared resolves. A missing ../shared fails, never skips.
"""

import gzip
import json
import math
import os
import subprocess
import sys
import threading
import warnings

import pytest

import perfdx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from shared_inputs import SHARED, shared_inputs  # noqa: E402

PERFDX = os.environ.get("PERFDX", "build/release/src/perfdx/perfdx")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


SINGLE, JOBS = shared_inputs()


def test_the_walk_finds_the_shared_inputs():
    # Counted by hand in ../shared/traces: 12 Kineto traces, 8 rank folders,
    # the single-step trace_view and 2 kernel CSVs; the 4 two-rank Ascend
    # folders and HTA's trace_filter pair.
    assert len(SINGLE) == 23, SINGLE
    assert len(JOBS) == 5, JOBS


def cli(*args):
    proc = subprocess.run([PERFDX, *args], capture_output=True, text=True)
    assert proc.returncode == 0, f"perfdx {' '.join(args)}: exit {proc.returncode}: {proc.stderr}"
    return proc.stdout


def analyze_quietly(path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", perfdx.LoadWarning)
        return perfdx.analyze(path, **kwargs)


def leaves(obj, prefix=""):
    """{"a.b": value} for every value of a JSON object that is not an object."""
    out = {}
    for key, value in obj.items():
        if isinstance(value, dict):
            out.update(leaves(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def same_value(actual, expected):
    if expected is None:
        return actual is None or (isinstance(actual, float) and math.isnan(actual))
    if isinstance(expected, float) or isinstance(actual, float):
        return (isinstance(actual, (int, float)) and not isinstance(actual, bool)
                and float(actual) == float(expected))
    return actual == expected


def assert_frame_is(df, items, where):
    """`df` has one row per item, in order, and one column per leaf of the
    items (plus the identity columns), each cell the item's value there."""
    assert len(df) == len(items), where
    if not items:
        return
    for i, (row, item) in enumerate(zip(df.to_dict("records"), items)):
        expected = leaves(item)
        missing = set(expected) - set(row)
        assert not missing, f"{where} row {i}: no column for {sorted(missing)}"
        for column, value in expected.items():
            assert same_value(row[column], value), (
                f"{where} row {i} {column}: DataFrame {row[column]!r}, JSON {value!r}")
        for column in set(row) - set(expected):
            # A column another item has: absent here means NaN/None.
            assert same_value(row[column], None), f"{where} row {i} {column}: {row[column]!r}"


def rank_items(doc, key, with_identity=True):
    out = []
    for rank in doc["ranks"]:
        for item in rank[key]:
            out.append({"rank": rank["rank"], "path": rank["path"], **item} if with_identity
                       else item)
    return out


def check_against_cli(path):
    cli_json = cli("analyze", path, "--format", "json")
    doc = json.loads(cli_json)
    report = analyze_quietly(path)
    # The objects are the JSON report, value for value, and the JSON text is
    # the CLI's byte for byte; the text report is the CLI's too.
    assert report.to_dict() == doc
    assert report.to_json() == cli_json
    assert str(report) == cli("analyze", path)
    assert report.to_html() == cli("analyze", path, "--format", "html")
    assert report.to_markdown() == cli("analyze", path, "--format", "md")
    for key in ("steps", "kernels", "ops", "gaps"):
        frame = getattr(report, f"{key}_df")()
        assert_frame_is(frame, rank_items(doc, key), f"{path} {key}_df")
    assert_frame_is(report.findings_df(), doc["findings"], f"{path} findings_df")
    return doc, report


@pytest.mark.parametrize("path", SINGLE)
def test_dataframes_equal_the_json_report(path):
    doc, report = check_against_cli(path)
    assert report.cluster_df().empty
    assert len(report.ranks) == len(doc["ranks"]) == 1


@pytest.mark.parametrize("path", JOBS)
def test_a_job_of_several_ranks(path):
    doc, report = check_against_cli(path)
    jobs = [j for j in doc["jobs"] if len(j["ranks"]) > 1]
    assert jobs, f"{path}: the ranks were not grouped into one job"
    cluster = report.cluster_df()
    members = [(r, p) for j in jobs for r, p in zip(j["ranks"], j["paths"])]
    # Walked from the CLI's JSON: jobs[].cluster.ranks[].steps[].
    expected = []
    for index, job in enumerate(doc["jobs"]):
        if len(job["ranks"]) < 2:
            assert "cluster" not in job
            continue
        assert len(job["cluster"]["ranks"]) == len(job["ranks"])
        for rank in job["cluster"]["ranks"]:
            for step in rank["steps"]:
                standing = rank["standing"]
                expected.append({"job": index, "rank": rank["rank"], "path": rank["path"],
                                 "clock_offset_ns": rank["clock_offset_ns"],
                                 "late_steps": standing["late_steps"],
                                 "wait_caused_ns": standing["wait_caused_ns"],
                                 "phase": standing["phase"], **step})
    assert len(members) >= 2
    assert_frame_is(cluster, expected, f"{path} cluster_df")


def test_the_first_finding_reads_as_an_attribute():
    path = os.path.join(SHARED, "kineto", "tbp", "resnet50_num_workers_0",
                        "worker0.1623143089861.pt.trace.json.gz")
    report = perfdx.analyze(path)
    doc = json.loads(cli("analyze", path, "--format", "json"))
    assert report.findings[0].title == doc["findings"][0]["title"]
    assert report.findings[0]["rule"] == doc["findings"][0]["rule"]
    assert report.ranks[0].summary.step_time_ns.median == doc["ranks"][0]["summary"]["step_time_ns"]["median"]
    with pytest.raises(AttributeError, match="no key 'no_such_key'"):
        report.findings[0].no_such_key
    assert "1 rank(s)" in repr(report)


def test_options_reach_the_pipeline_as_the_cli_flags_do():
    path = os.path.join(SHARED, "kineto", "tbp", "resnet50_num_workers_4",
                        "worker0.1623212756351.pt.trace.json.gz")
    for kwargs, flags in [
        (dict(steps=(6, 8)), ["--steps", "6..8"]),
        (dict(steps="7.."), ["--steps", "7.."]),
        (dict(steps=(None, 7)), ["--steps", "..7"]),
        (dict(steps=9), ["--steps", "9"]),
        (dict(window="hta"), ["--window", "hta"]),
        (dict(window="all", min_gap_us=50), ["--window", "all", "--min-gap-us", "50"]),
        (dict(framework="torch_npu"), ["--framework", "torch_npu"]),
    ]:
        report = analyze_quietly(path, **kwargs)
        assert report.to_json() == cli("analyze", path, "--format", "json", *flags), kwargs
    # The trace's steps are 5..10 (ProfilerStep#5 to #10).
    only = analyze_quietly(path, steps=(6, 8))
    assert [s.id for s in only.ranks[0].steps] == [6, 7, 8]


def test_a_bad_file_raises_input_error_naming_it(tmp_path):
    bad = tmp_path / "not_a_trace.json"
    bad.write_bytes(b"step,time\n1,2\n")  # a CSV named .json: no trace at all
    with pytest.raises(perfdx.InputError) as caught:
        perfdx.analyze(bad)
    cli_proc = subprocess.run([PERFDX, "analyze", str(bad)], capture_output=True, text=True)
    assert cli_proc.returncode == 2
    assert str(bad) in str(caught.value) and "at byte 0" in str(caught.value)
    # The same message the CLI prints after "perfdx: error: ".
    assert cli_proc.stderr.strip() == f"perfdx: error: {caught.value}"
    assert isinstance(caught.value, perfdx.Error)

    missing = tmp_path / "missing.json.gz"
    with pytest.raises(perfdx.InputError, match="missing.json.gz"):
        perfdx.info(missing)


def test_bad_arguments_raise_usage_error():
    path = os.path.join(SHARED, "kineto", "hta", "trace_diff", "control", "control.json.gz")
    cases = [dict(window="weekly"), dict(steps="8..3"), dict(steps=object()),
             dict(framework="tensorflow"), dict(min_gap_us=0), dict(min_gap_us=float("nan")),
             dict(rank=-1), dict(threads=-2), dict(max_ratio=0.5)]
    for kwargs in cases:
        with pytest.raises(perfdx.UsageError):
            perfdx.analyze(path, **kwargs)
    with pytest.raises(ValueError):  # a UsageError is a ValueError too
        perfdx.analyze(path, window="weekly")
    with pytest.raises(perfdx.UsageError):
        perfdx.analyze([])
    with pytest.raises(perfdx.InputError, match="rank"):
        analyze_quietly(path, rank=7)


def test_info_is_perfdx_info_json():
    path = os.path.join(SHARED, "ascend", "torch_npu_2rank_text_level0")
    text = cli("info", path, "--json")
    got = perfdx.info(path)
    assert got.to_json() == text
    assert got.to_dict() == json.loads(text)
    assert str(got) == cli("info", path)
    assert [r.rank for r in got.ranks] == [0, 1]


def test_whatif_is_perfdx_whatif_json():
    # tests/data/golden/small_cuda_trace.json, worked by hand in
    # tests/analysis/replay_test.cc: without its DataLoader every step is 6.1 ms.
    path = os.path.join("tests", "data", "golden", "small_cuda_trace.json")
    got = perfdx.whatif(path, remove="data-loading", speedup={"fp32-matrix": 2})
    text = cli("whatif", path, "--remove", "data-loading", "--speedup", "fp32-matrix=2.0",
               "--format", "json")
    assert got.to_json() == text
    assert got.what_if == "remove data-loading, speedup fp32-matrix=2"
    assert got.ranks[0].prediction.predicted_step_ns == 6_100_000
    assert [s.with_fix_ns for s in got.ranks[0].steps] == [6_100_000] * 3
    with pytest.raises(perfdx.UsageError):
        perfdx.whatif(path)
    with pytest.raises(perfdx.UsageError):
        perfdx.whatif(path, speedup={"gemm": 2})
    # Captured as one graph (replay_test.cc by hand): 10, 9.31 and 21.31 ms.
    captured = perfdx.whatif(path, remove=["launch-overhead"])
    assert captured.what_if == "remove launch-overhead"
    assert [s.with_fix_ns for s in captured.ranks[0].steps] == [10_000_000, 9_310_000, 21_310_000]
    # No collective in it to wait for: the steps as measured.
    freed = perfdx.whatif(path, remove="communication-wait")
    assert freed.what_if == "remove communication-wait"
    assert [s.with_fix_ns for s in freed.ranks[0].steps] == [10_000_000, 10_000_000, 22_000_000]


def test_whatif_fix_rank_and_the_job():
    # HTA's sampled pair: 2 of 128 ranks, so no joint replay (joint_replay_test.cc).
    path = os.path.join(SHARED, "kineto", "hta", "trace_filter")
    got = perfdx.whatif(path, speedup={"matrix": 2}, fix_rank=1)
    text = cli("whatif", path, "--speedup", "matrix=2.0", "--fix-rank", "1", "--format", "json")
    assert got.to_json() == text
    assert got.ranks[0].prediction.what_if == "none"
    assert got.ranks[0].prediction.gain_ns_per_step == 0
    assert got.ranks[1].prediction.what_if == "speedup matrix=2"
    joint = got.jobs[0].joint_replay
    assert not joint.available
    assert joint.why_not.startswith("2 of the job's 128 ranks given")
    with pytest.raises(perfdx.UsageError, match="fix_rank=-1"):
        perfdx.whatif(path, speedup={"matrix": 2}, fix_rank=-1)
    with pytest.raises(perfdx.Error, match="--fix-rank 7"):
        perfdx.whatif(path, speedup={"matrix": 2}, fix_rank=7)


def test_check_and_the_step_log(tmp_path):
    base, new = tmp_path / "base.jsonl", tmp_path / "new.jsonl"
    with perfdx.StepLog(base, model="toy") as log:
        for i in range(20):
            log.record(0.100 + 0.001 * (i % 3), samples=32)
    with perfdx.StepLog(new, model="toy") as log:
        for i in range(20):
            log.record(0.070 + 0.001 * (i % 3), samples=32)
    db = tmp_path / "runs.db"
    result = perfdx.check(new, against=base, db=db)
    text = cli("check", str(new), "--against", str(base), "--db", str(db), "--format", "json")
    assert result.to_json() == text
    assert result.verdict == "improved"
    assert result.to_markdown() == cli("check", str(new), "--against", str(base), "--db",
                                       str(db), "--format", "markdown")
    assert result.to_html() == cli("check", str(new), "--against", str(base), "--db", str(db),
                                   "--format", "html")
    # Regressions are a verdict, not an exception.
    assert perfdx.check(base, against=new, db=db).verdict == "regressed"
    with pytest.raises(perfdx.UsageError):
        perfdx.check(new, against=base, db=db, max_regression=1.5)
    with pytest.raises(perfdx.InputError):
        perfdx.check(new, against="no_such_run", db=db)


def test_the_gil_is_released_while_perfdx_works():
    # While another thread is inside analyze(), this thread keeps running
    # Python. With the GIL held it could only run in the switch interval
    # before the call starts (10 µs here: a few hundred iterations); released,
    # for the whole analysis (hundreds of milliseconds: millions).
    path = os.path.join(SHARED, "ascend", "torch_npu_2rank_text_level1")
    state = {"in_call": False, "done": False}

    def work():
        state["in_call"] = True
        analyze_quietly(path)
        state["in_call"] = False
        state["done"] = True

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        thread = threading.Thread(target=work)
        iterations = 0
        thread.start()
        while not state["done"]:
            if state["in_call"]:
                iterations += 1
        thread.join()
    finally:
        sys.setswitchinterval(old)
    assert iterations > 20000, iterations


def test_warnings_are_python_warnings(tmp_path):
    # A trace cut short (the job was killed while the profiler wrote it) is
    # read up to the cut, with a warning naming the file and the byte.
    source = os.path.join(SHARED, "kineto", "hta", "trace_filter", "sampled_rank-0.json.gz")
    with gzip.open(source, "rb") as f:
        head = f.read(200_000)
    cut = tmp_path / "rank-0.json"
    cut.write_bytes(head)
    with pytest.warns(perfdx.LoadWarning, match="rank-0.json: truncated at byte"):
        report = perfdx.analyze(cut)
    doc = json.loads(cli("analyze", str(cut), "--format", "json"))
    assert report.warnings == doc["warnings"] and doc["warnings"]


def test_the_notebook_example_runs(tmp_path):
    example = os.path.join(ROOT, "examples", "python", "step_breakdown.py")
    out = tmp_path / "breakdown.png"
    proc = subprocess.run([sys.executable, example, "--out", str(out)], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "MPLBACKEND": "Agg"})
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 1000
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
