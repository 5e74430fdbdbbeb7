#!/usr/bin/env python3
"""Builds a large Kineto trace by repeating a real one (python3 stdlib only).

    bench/make_big_trace.py SOURCE.json[.gz] OUT.json [--min-bytes N]

Every copy of the source's events is shifted in time by the source's span (plus
a 1 ms gap), so the copies follow each other like consecutive profiling
windows of one long job. Within each copy, ids that link events are offset so
that no two copies share one: Kineto "External id" and "correlation" args and
flow "id"s. ProfilerStep#N markers get distinct step numbers. Metadata ("M")
events are written once. Everything else is written as the source has it; the
numbers keep their exact decimal text (timestamps are shifted as decimals, never
through a float).

The output is plain (uncompressed) JSON: the benchmark measures parsing, not
gzip. It is large (1 GiB by default): write it under build/ or /tmp.
"""

import argparse
import decimal
import gzip
import json
import math
import os
import re
import sys

STEP_RE = re.compile(r"^ProfilerStep#(\d+)$")
ID_ARGS = ("External id", "correlation")
MARK = "@@perfdx_sub_{}@@"
MARK_RE = re.compile(r'"@@perfdx_sub_(\d+)@@"')
GAP_US = 1000


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        # Decimals keep fractional timestamps exact.
        return json.load(f, parse_float=decimal.Decimal)


def is_number(v):
    return isinstance(v, (int, decimal.Decimal)) and not isinstance(v, bool)


def number_text(v):
    return str(v)


def dumps(value):
    # Decimals are written by their text; json.dumps would refuse them.
    def default(o):
        if isinstance(o, decimal.Decimal):
            return MARK.format("d" + str(o))
        raise TypeError(type(o))

    text = json.dumps(value, ensure_ascii=False, default=default)
    return re.sub(r'"@@perfdx_sub_d([^@]*)@@"', r"\1", text)


class Template:
    """One event as text with holes for the values that change per copy."""

    def __init__(self, event, subs):
        # subs: list of (kind, base value); kind is "time", "id" or "step".
        self.subs = subs
        self.parts = MARK_RE.split(dumps(event))

    def render(self, time_shift, id_shift, step_shift):
        out = list(self.parts)
        for k in range(1, len(out), 2):
            kind, base = self.subs[int(out[k])]
            if kind == "time":
                out[k] = number_text(base + time_shift)
            elif kind == "id":
                out[k] = number_text(base + id_shift)
            else:
                out[k] = json.dumps("ProfilerStep#{}".format(base + step_shift))
        return "".join(out)


def build_templates(events):
    templates = []
    metadata = []
    t_min, t_max = None, None
    max_id = 0
    steps = []
    for event in events:
        if not isinstance(event, dict):
            continue
        if event.get("ph") == "M":
            metadata.append(dumps(event))
            continue
        event = dict(event)
        subs = []

        def hole(kind, value):
            subs.append((kind, value))
            return MARK.format(len(subs) - 1)

        ts = event.get("ts")
        if is_number(ts):
            end = ts + (event["dur"] if is_number(event.get("dur")) else 0)
            t_min = ts if t_min is None else min(t_min, ts)
            t_max = end if t_max is None else max(t_max, end)
            event["ts"] = hole("time", ts)
        if is_number(event.get("id")) and isinstance(event["id"], int):
            max_id = max(max_id, event["id"])
            event["id"] = hole("id", event["id"])
        args = event.get("args")
        if isinstance(args, dict):
            args = dict(args)
            for key in ID_ARGS:
                v = args.get(key)
                if isinstance(v, int) and not isinstance(v, bool) and v > 0:
                    max_id = max(max_id, v)
                    args[key] = hole("id", v)
            event["args"] = args
        name = event.get("name")
        m = STEP_RE.match(name) if isinstance(name, str) else None
        if m:
            steps.append(int(m.group(1)))
            event["name"] = hole("step", int(m.group(1)))
        templates.append(Template(event, subs))
    if t_min is None:
        sys.exit("make_big_trace: the source has no timed events")
    span_us = math.ceil(t_max - t_min) + GAP_US
    step_period = (max(steps) - min(steps) + 1) if steps else 0
    return metadata, templates, span_us, max_id + 1, step_period


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--min-bytes", type=int, default=1 << 30,
                        help="stop after the first copy that reaches this size (default 1 GiB)")
    args = parser.parse_args()

    doc = load(args.source)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        sys.exit("make_big_trace: expected a Kineto JSON object with a traceEvents array")
    metadata, templates, span_us, id_period, step_period = build_templates(doc["traceEvents"])

    keys = list(doc.keys())
    split = keys.index("traceEvents")
    tmp = args.out + ".tmp"
    written = 0
    copies = 0
    with open(tmp, "w", encoding="utf-8") as out:
        def emit(text):
            nonlocal written
            out.write(text)
            written += len(text.encode("utf-8")) if not text.isascii() else len(text)

        emit("{\n")
        for key in keys[:split]:
            emit("  {}: {},\n".format(json.dumps(key), dumps(doc[key])))
        emit('  "traceEvents": [\n')
        first = True
        for text in metadata:
            emit(("  " if first else ",\n  ") + text)
            first = False
        while written < args.min_bytes:
            lines = [t.render(copies * span_us, copies * id_period, copies * step_period)
                     for t in templates]
            emit(("  " if first else ",\n  ") + ",\n  ".join(lines))
            first = False
            copies += 1
        emit("\n  ]")
        for key in keys[split + 1:]:
            emit(",\n  {}: {}".format(json.dumps(key), dumps(doc[key])))
        emit("\n}\n")
    os.replace(tmp, args.out)
    print("make_big_trace: {} copies of {} events, {} bytes -> {}".format(
        copies, len(templates), written, args.out))


if __name__ == "__main__":
    main()
