"""docs/analyze_report.schema.json against `perfdx analyze --format json` on
every input under ../shared/traces and examples/ (issue #14, item 5): each
report validates, and the schema rejects what the contract does not allow
(an undocumented key, a missing key, a value outside its enum or range).

    python3 tests/report/analyze_schema_test.py PERFDX   (Debian python3-jsonschema)
"""

import copy
import glob
import json
import os
import subprocess
import sys

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from shared_inputs import shared_inputs  # noqa: E402

SCHEMA = os.path.join("docs", "analyze_report.schema.json")


def main():
    perfdx = sys.argv[1]
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    single, jobs = shared_inputs()
    inputs = single + jobs + sorted(glob.glob("examples/**/*.json.gz", recursive=True))
    failures = []
    reports = []
    for path in inputs:
        proc = subprocess.run([perfdx, "analyze", path, "--format", "json"], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            failures.append(f"{path}: perfdx exited {proc.returncode}: {proc.stderr.strip()}")
            continue
        doc = json.loads(proc.stdout)
        reports.append(doc)
        for error in sorted(validator.iter_errors(doc), key=lambda e: list(e.path))[:3]:
            failures.append(f"{path}: /{'/'.join(map(str, error.path))}: {error.message[:200]}")

    # The schema must be able to fail: each change below breaks the contract.
    base = next(d for d in reports if d["findings"] and d["ranks"][0]["kernels"])
    mutations = {
        "an undocumented key": lambda d: d["ranks"][0].update(new_metric=1),
        "a missing key": lambda d: d["ranks"][0]["steps"][0].pop("dur_ns"),
        "a severity outside its enum": lambda d: d["findings"][0].update(severity="fatal"),
        "a share above 1": lambda d: d["ranks"][0]["summary"].update(idle_share=1.5),
        "a kernel class not in the taxonomy": lambda d: d["ranks"][0]["kernels"][0].update(
            {"class": "gemm"}),
        "another schema version": lambda d: d.update(schema_version=2),
        "a duration as text": lambda d: d["ranks"][0]["steps"][0].update(dur_ns="12 ms"),
    }
    for what, mutate in mutations.items():
        doc = copy.deepcopy(base)
        mutate(doc)
        if validator.is_valid(doc):
            failures.append(f"the schema accepts {what}")

    for line in failures:
        print(line, file=sys.stderr)
    print(f"analyze_report_schema: {len(reports)} reports validated, {len(mutations)} breaks "
          f"rejected, {len(failures)} failures")
    return 1 if failures or len(reports) < 30 else 0


if __name__ == "__main__":
    sys.exit(main())
