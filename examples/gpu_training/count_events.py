#!/usr/bin/env python3
"""Counts what is in each recorded GPU example trace, with Python's json
module alone, as the independent reference perfdx's tests compare with:

    python3 examples/gpu_training/count_events.py examples/gpu_training/traces \
        > examples/gpu_training/traces/event_counts.json

Per trace: elements of the event array, by phase, the ProfilerStep ids, the
distinct (pid, tid) holding X events, and, for device 0's "[memory]"
records in time order, the peak allocated total with the reserved total
recorded at that moment.
"""
import collections
import gzip
import json
import os
import re
import sys


def count(path):
    with gzip.open(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    steps = sorted({int(m.group(1)) for e in events if e.get("ph") == "X"
                    for m in [re.fullmatch(r"ProfilerStep#(\d+)", e.get("name", ""))] if m})
    memory = sorted((e for e in events if e.get("name") == "[memory]"
                     and e["args"].get("Device Type") == 1 and e["args"].get("Device Id") == 0),
                    key=lambda e: e["ts"])
    peak, reserved = -1, -1
    for e in memory:
        if e["args"]["Total Allocated"] > peak:
            peak, reserved = e["args"]["Total Allocated"], e["args"]["Total Reserved"]
    return {
        "events": len(events),
        "by_phase": dict(sorted(collections.Counter(e.get("ph") for e in events).items())),
        "profiler_steps": steps,
        "x_tracks": len({(e["pid"], e["tid"]) for e in events if e.get("ph") == "X"}),
        "device0_peak_allocated_bytes": peak,
        "device0_reserved_at_peak_bytes": reserved,
    }


def main():
    folder = sys.argv[1]
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json.gz"))
    json.dump({n: count(os.path.join(folder, n)) for n in names}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
