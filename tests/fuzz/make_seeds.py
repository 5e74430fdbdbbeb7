#!/usr/bin/env python3
"""Writes the seed corpora of the libFuzzer targets (tests/fuzz/*_fuzzer.cc).

Seeds are cut at run time from the shared profiler output (../shared/traces,
read in place, never copied into the repository) and from the repository's
own inputs (tests/data, examples), into OUT/<target>/. Each file stays small
(a few KiB: the CSV heads end at a line end), so that libFuzzer's mutations
are fast. Targets whose inputs name the file they stand for (ascend_profile,
msprof) get "NAME\\n" + bytes, as fuzz_support.h's SplitNamed reads them.

Usage: make_seeds.py OUT PERFDX   (run from the repository root; PERFDX is a
built perfdx binary, used for `perfdx config`)
"""
import gzip
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

SHARED = Path("../shared/traces")
ASCEND = SHARED / "ascend"
HEAD_BYTES = 6 * 1024
JSON_MAX = 24 * 1024


def head(path, limit=HEAD_BYTES):
    """The file's first lines, at most `limit` bytes (whole lines)."""
    data = path.read_bytes()
    if len(data) <= limit:
        return data
    cut = data.rfind(b"\n", 0, limit)
    return data[: cut + 1] if cut > 0 else data[:limit]


def write(out, name, data):
    out.mkdir(parents=True, exist_ok=True)
    (out / name).write_bytes(data)


def profile_files():
    """(name in the profile folder, path) of the shared text profiles."""
    for level in ("torch_npu_2rank_text_level0", "torch_npu_2rank_text_level1"):
        for rank_dir in sorted((ASCEND / level).glob("rank*_ascend_pt")):
            for path in sorted(rank_dir.rglob("*")):
                if path.is_file():
                    yield level, path.relative_to(rank_dir).as_posix(), path


def chrome_seeds(out):
    """Well-formed traces to mutate (tests/data/bad holds the malformed ones),
    plain and gzipped (the gzip reader, ISA-L's inflate, is fuzzed through
    them; one of two members)."""
    n = 0
    for path in (Path("tests/data/healthy_gpu_trace.json"), Path("tests/data/golden/small_cuda_trace.json")):
        data = path.read_bytes()
        write(out, path.name, data)
        write(out, path.name + ".gz", gzip.compress(data, mtime=0))
        n += 2
    half = len(data) // 2
    write(out, "two_members.json.gz", gzip.compress(data[:half], mtime=0) + gzip.compress(data[half:], mtime=0))
    return n + 1


def kineto_analyze_seeds(out):
    """The chrome seeds, and four steps in which one launch stalls for 5 ms
    (gaps.h: a stalled runtime call) while the others take 1 us."""
    n = chrome_seeds(out)
    events = []
    for k in range(4):
        base = k * 10000
        launch = 5000 if k == 2 else 1
        start = base + 2 + launch + 98 if launch > 1 else base + 100
        events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{k}", "pid": 1, "tid": 1,
                       "ts": base, "dur": 10000})
        events.append({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": base + 1,
                       "dur": launch + 2})
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": base + 2, "dur": launch, "args": {"correlation": k + 1}})
        events.append({"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": start,
                       "dur": base + 9900 - start, "args": {"correlation": k + 1, "stream": 7}})
    write(out, "stalled_launch.json", json.dumps({"schemaVersion": 1, "traceEvents": events}).encode())
    return n + 1


def csv_seeds(out):
    n = 0
    for level, rel, path in profile_files():
        if rel.endswith(".csv"):
            write(out, f"{level}_{Path(rel).name}", head(path, 3000))
            n += 1
    for path in sorted((ASCEND / "mstt_samples").rglob("*.csv")):
        write(out, f"mstt_{path.name}", head(path, 3000))
        n += 1
    return n


def ascend_profile_seeds(out):
    n = 0
    for level, rel, path in profile_files():
        if rel.endswith(".csv"):
            data = head(path)
        elif rel.endswith(".json") and path.stat().st_size <= JSON_MAX:
            data = path.read_bytes()
        else:
            continue
        write(out, f"{level}_{Path(rel).name}", rel.encode() + b"\n" + data)
        n += 1
    device = {"DeviceInfo": [{"id": 0, "ai_core_num": 24, "aiv_num": 48, "aic_frequency": "1800"}]}
    write(out, "device_info", b"PROF_000001_20250109000000000_ABCDEFGH/device_0/info.json.0\n" +
          json.dumps(device).encode())
    # A timeline of its own: the first events of the mstt single-step trace.
    events = json.loads((ASCEND / "mstt_samples/single_step_trace_view.json").read_bytes())
    if isinstance(events, dict):
        events = events.get("traceEvents", [])
    meta = [e for e in events if e.get("ph") == "M"]
    rest = [e for e in events if e.get("ph") != "M"][:60]
    write(out, "trace_view", b"ASCEND_PROFILER_OUTPUT/trace_view.json\n" +
          json.dumps(meta + rest).encode())
    return n + 2


def msprof_seeds(out):
    """msprof writes the same summaries under other names (no real PROF_*
    folder is shared: the layout of tests/formats/msprof)."""
    names = {
        "kernel_details.csv": "mindstudio_profiler_output/op_summary_20231023172400.csv",
        "op_statistic.csv": "mindstudio_profiler_output/op_statistic_20231023172400.csv",
        "api_statistic.csv": "mindstudio_profiler_output/api_statistic_20231023172400.csv",
        "npu_module_mem.csv": "mindstudio_profiler_output/npu_module_mem_20231023172400.csv",
        "data_preprocess.csv": "mindstudio_profiler_output/aicpu_20231023172400.csv",
        "communication.json": "analyze/communication.json",
        "communication_matrix.json": "analyze/communication_matrix.json",
    }
    n = 0
    for level, rel, path in profile_files():
        target = names.get(Path(rel).name)
        if target is None or (rel.endswith(".json") and path.stat().st_size > JSON_MAX):
            continue
        data = head(path) if rel.endswith(".csv") else path.read_bytes()
        write(out, f"{level}_{Path(rel).name}", target.encode() + b"\n" + data)
        n += 1
    timeline = [
        {"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "Ascend Hardware"}},
        {"ph": "M", "name": "thread_name", "pid": 100, "tid": 7, "args": {"name": "Stream 7"}},
        {"ph": "X", "pid": 100, "tid": 7, "name": "MatMul_3", "ts": "1020.000", "dur": 4.0,
         "args": {"Task Type": "AI_CORE", "Physic Stream Id": 7, "connection_id": 3}},
    ]
    write(out, "slice_1", b"mindstudio_profiler_output/msprof_slice_1_20231023172400.json\n" +
          json.dumps(timeline).encode())
    write(out, "device_info", b'device_0/info.json.0\n{"DeviceInfo": [{"id": 0, "ai_core_num": 20, '
          b'"aiv_num": 40, "aic_frequency": "1650"}], "rank_id": 1}')
    return n + 2


# Columns that place a row in time, by table (the DB export's schema).
TIME_COLUMNS = ["startNs", "timestampNs", "timestamp", "allocationTime"]
# Tables that add bulk and nothing the importer reads.
DROPPED = {"PYTORCH_CALLCHAINS", "ACC_PMU", "OVERLAP_ANALYSIS", "LLC", "HBM", "SOC_BANDWIDTH_LEVEL"}


def small_db(src, dst, tasks=60, rows=80):
    """`src` cut to its first `tasks` device tasks' span: rows of every table
    that start in it, the rows their ids name, the strings they use; 512-byte
    pages so that the page-level mutator has many pages to work on."""
    shutil.copyfile(src, dst)
    con = sqlite3.connect(dst)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                        "AND name NOT LIKE 'sqlite_%'")]
    cut = con.execute("SELECT startNs FROM TASK ORDER BY startNs LIMIT 1 OFFSET ?",
                      (tasks,)).fetchone()
    cut = cut[0] if cut else 1 << 62
    for t in tables:
        cols = [r[1] for r in con.execute(f'PRAGMA table_info("{t}")')]
        if t in DROPPED:
            con.execute(f'DROP TABLE "{t}"')
            continue
        time_col = next((c for c in TIME_COLUMNS if c in cols), None)
        if time_col:
            # Rows before the cut; of a table the host fills ahead of the
            # device, the last `rows` of them (and every step marker).
            con.execute(f'DELETE FROM "{t}" WHERE CAST("{time_col}" AS INTEGER) >= ?', (cut,))
            steps = ("name IN (SELECT id FROM STRING_IDS WHERE value LIKE 'ProfilerStep#%')"
                     if t == "PYTORCH_API" else "0")
            con.execute(f'DELETE FROM "{t}" WHERE rowid NOT IN (SELECT rowid FROM "{t}" '
                        f'ORDER BY CAST("{time_col}" AS INTEGER) DESC LIMIT ?) AND NOT {steps}',
                        (rows,))
    for t in ("COMPUTE_TASK_INFO", "COMMUNICATION_TASK_INFO", "TASK_PMU_INFO"):
        if t in tables:
            con.execute(f'DELETE FROM "{t}" WHERE globalTaskId NOT IN (SELECT globalTaskId FROM TASK)')
    if "CONNECTION_IDS" in tables:
        con.execute("DELETE FROM CONNECTION_IDS WHERE connectionId NOT IN "
                    "(SELECT connectionId FROM TASK UNION SELECT connectionId FROM CANN_API)")
    used = set()
    for t in tables:
        if t in DROPPED or t == "STRING_IDS":
            continue
        for row in con.execute(f'SELECT * FROM "{t}"'):
            used.update(v for v in row if isinstance(v, int))
    kept = [i for (i,) in con.execute("SELECT id FROM STRING_IDS") if i in used]
    con.execute("CREATE TEMP TABLE keep(id INTEGER PRIMARY KEY)")
    con.executemany("INSERT INTO keep VALUES (?)", [(i,) for i in kept])
    con.execute("DELETE FROM STRING_IDS WHERE id NOT IN (SELECT id FROM keep)")
    con.commit()
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("PRAGMA page_size=512")
    con.execute("VACUUM")
    con.close()


def ascend_db_seeds(out):
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for level in ("torch_npu_2rank_db_level0", "torch_npu_2rank_db_level1"):
        src = next((ASCEND / level).glob("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_*_profiler_0.db"))
        for tasks, rows in ((12, 30), (60, 80)):
            small_db(src, out / f"{level}_{tasks}.db", tasks, rows)
            n += 1
    return n


def step_log_seeds(out):
    lines = [
        b'{"perfdx_step_log": 1, "meta": {"model": "resnet50", "host": "node7"}}\n'
        b'{"step": 0, "step_time_s": 0.2041, "samples": 256}\n'
        b'{"step": 1, "step_time_s": 0.1527, "samples": 256, "phases_s": {"data": 0.011}}\n',
        b'{"step": 5, "step_time_ms": 12.5, "throughput": 2048.0, "loss": 0.93}\n'
        b'{"step": 6, "step_time_ns": 12400000}\n{"step": 7, "step_time_ms": 12.',
        b'\xef\xbb\xbf{"step_time_ms": 10}\r\n\r\n{"step_time_ms": 11, "samples": 32}\r\n',
    ]
    for i, data in enumerate(lines):
        write(out, f"log{i}.jsonl", data)
    return len(lines)


def analyze_report_seeds(out, perfdx):
    write(out, "small_cuda_trace.json", Path("tests/data/golden/small_cuda_trace.analyze.json").read_bytes())
    n = 1
    for name in ("host_sync", "data_stall"):
        report = subprocess.run([perfdx, "analyze", "--format", "json", f"examples/cpu_corpus/{name}.json.gz"],
                                check=True, capture_output=True).stdout
        write(out, f"{name}.json", report)
        n += 1
    return n


def thresholds_seeds(out, perfdx):
    default = subprocess.run([perfdx, "config"], check=True, capture_output=True).stdout
    write(out, "default.toml", default)
    write(out, "some.toml", b"min_gap_ns = 50000\n[device_utilization]\nhealthy = 0.9\nabnormal = 0.5\n")
    write(out, "extreme.toml", b"min_gap_ns = 1e300\n[device_utilization]\nhealthy = 1e308\nabnormal = 0\n")
    return 3


def rank_summary_seeds(out, perfdx):
    inputs = {"ascend_rank0": SHARED / "ascend/torch_npu_2rank_text_level1/rank0_ascend_pt",
              "ascend_db_rank1": SHARED / "ascend/torch_npu_2rank_db_level1/rank1_ascend_pt",
              "kineto_rank0": SHARED / "kineto/hta/trace_filter/sampled_rank-0.json.gz"}
    for name, path in inputs.items():
        summary = subprocess.run([perfdx, "summarize", str(path)], check=True,
                                 capture_output=True).stdout
        write(out, f"{name}.summary", summary)
    return len(inputs)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    if not SHARED.is_dir():
        sys.exit(f"make_seeds.py: ../shared not found: looked for {SHARED.resolve()}")
    out, perfdx = Path(sys.argv[1]), sys.argv[2]
    if out.exists():
        shutil.rmtree(out)
    counts = {
        "chrome_json_fuzzer": chrome_seeds(out / "chrome_json_fuzzer"),
        "kineto_analyze_fuzzer": kineto_analyze_seeds(out / "kineto_analyze_fuzzer"),
        "trace_splice_fuzzer": chrome_seeds(out / "trace_splice_fuzzer"),
        "csv_fuzzer": csv_seeds(out / "csv_fuzzer"),
        "ascend_profile_fuzzer": ascend_profile_seeds(out / "ascend_profile_fuzzer"),
        "msprof_fuzzer": msprof_seeds(out / "msprof_fuzzer"),
        "ascend_db_fuzzer": ascend_db_seeds(out / "ascend_db_fuzzer"),
        "step_log_fuzzer": step_log_seeds(out / "step_log_fuzzer"),
        "analyze_report_fuzzer": analyze_report_seeds(out / "analyze_report_fuzzer", perfdx),
        "thresholds_toml_fuzzer": thresholds_seeds(out / "thresholds_toml_fuzzer", perfdx),
        "rank_summary_fuzzer": rank_summary_seeds(out / "rank_summary_fuzzer", perfdx),
    }
    for target, n in counts.items():
        size = sum(p.stat().st_size for p in (out / target).iterdir())
        print(f"{target}: {n} seeds, {size} bytes")


if __name__ == "__main__":
    main()
