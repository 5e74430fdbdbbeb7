#!/usr/bin/env python3
"""Print every distinct device-kernel name in the shared and example traces.

Independent of perfdx (stdlib only: json, gzip, csv, sqlite3): the list the
hand-written table in kernel_taxonomy_test.cc was written from. Run from the
repository root:

    python3 tests/analysis/list_kernel_names.py            # one name a line
    python3 tests/analysis/list_kernel_names.py --sources  # name<TAB>files

What counts as a device kernel:
  - Kineto traces (*.json.gz): complete events ("ph": "X") whose "cat" is
    kernel / Kernel, gpu_memcpy / Memcpy, gpu_memset / Memset, or cuda_sync
    (the device-side waits: "Stream Sync", "Context Sync", ...).
  - Ascend trace_view.json: complete events on the "Ascend Hardware" process
    (the device tasks) and on the "HCCL" process's "Group N Communication"
    threads (the collectives); not the HCCL "Plane" sub-tasks.
  - Ascend kernel_details.csv / op_summary*.csv: the Name and Type columns
    ("N/A" is no name).
  - Ascend SQLite DB exports (ascend_pytorch_profiler_*.db): the kernel
    names of TASK rows through COMPUTE_TASK_INFO, and COMMUNICATION_OP names.
"""
import csv
import gzip
import json
import os
import sqlite3
import sys

ROOTS = ["../shared/traces", "examples"]
KINETO_CATS = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset", "cuda_sync"}


def events(doc):
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def kineto_names(path):
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
        doc = json.load(f)
    for e in events(doc):
        if e.get("ph") == "X" and e.get("cat") in KINETO_CATS:
            yield e.get("name", "")


def trace_view_names(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        doc = json.load(f)
    ev = events(doc)
    process = {}
    thread = {}
    for e in ev:
        if e.get("ph") != "M":
            continue
        if e.get("name") == "process_name":
            process[e.get("pid")] = e.get("args", {}).get("name", "")
        elif e.get("name") == "thread_name":
            thread[(e.get("pid"), e.get("tid"))] = e.get("args", {}).get("name", "")
    for e in ev:
        if e.get("ph") != "X":
            continue
        p = process.get(e.get("pid"), "")
        t = thread.get((e.get("pid"), e.get("tid")), "")
        if p == "Ascend Hardware" or (p == "HCCL" and t.endswith("Communication")):
            yield e.get("name", "")


def csv_names(path):
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as f:
        for row in csv.DictReader(f):
            for col in ("Name", "Type", "OP Type"):
                v = (row.get(col) or "").strip()
                if v and v != "N/A":
                    yield v


def db_names(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "COMPUTE_TASK_INFO" in tables and "STRING_IDS" in tables:
            q = ("SELECT DISTINCT s.value FROM COMPUTE_TASK_INFO c JOIN STRING_IDS s ON s.id = c.name")
            for (v,) in con.execute(q):
                yield v
            q = ("SELECT DISTINCT s.value FROM COMPUTE_TASK_INFO c JOIN STRING_IDS s ON s.id = c.opType")
            for (v,) in con.execute(q):
                if v and v != "N/A":
                    yield v
        if "COMMUNICATION_OP" in tables and "STRING_IDS" in tables:
            q = "SELECT DISTINCT s.value FROM COMMUNICATION_OP c JOIN STRING_IDS s ON s.id = c.opName"
            for (v,) in con.execute(q):
                yield v
    finally:
        con.close()


def reader_for(name):
    if name.endswith(".json.gz"):
        return kineto_names
    if name.endswith("trace_view.json"):
        return trace_view_names
    if name.endswith(".csv") and (name.startswith("kernel_details") or name.startswith("op_summary")):
        return csv_names
    if name.startswith("ascend_pytorch_profiler") and name.endswith(".db"):
        return db_names
    return None


def main():
    found = {}
    for root in ROOTS:
        if not os.path.isdir(root):
            sys.exit(f"missing {root} (run from the repository root, with ../shared present)")
        for dirpath, _, files in os.walk(root):
            for name in sorted(files):
                read = reader_for(name)
                if read is None:
                    continue
                path = os.path.join(dirpath, name)
                for kernel in read(path):
                    found.setdefault(kernel, set()).add(path)
    with_sources = "--sources" in sys.argv
    for kernel in sorted(found):
        if with_sources:
            print(f"{kernel}\t{len(found[kernel])}\t{sorted(found[kernel])[0]}")
        else:
            print(kernel)


if __name__ == "__main__":
    main()
