#!/usr/bin/env bash
# End-to-end checks of `perfdx baseline`, `perfdx diff` and `perfdx check`:
# exit codes (check: regressed 1, improved/unchanged 0, bad input 2), the
# JSON contracts, the output formats, and 8 concurrent `baseline save`s.
# Usage: baseline_cli_test.sh PATH_TO_PERFDX PATH_TO_PERF_MONITOR_EXAMPLE
#        (run from the repository root)
set -u
perfdx="$1"
monitor_example="${2:-}"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PERFDX_DB="$tmp/lib/runs.db"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The shared traces are part of every checkout this is tested in: missing is a
# failure, never a silent skip.
require_shared() {  # path
  [ -d "$1" ] && return 0
  fail "../shared not found: looked for $(cd "$(dirname "$1")" 2>/dev/null && pwd || echo "$PWD/$1")/$(basename "$1") (run from the repository root, ../shared beside the checkout)"
  return 1
}
require_shared ../shared/traces

expect_exit() {  # expected_code description command...
  local expected=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local code=$?
  [ "$code" -eq "$expected" ] || fail "$what: exit $code, expected $expected ($(head -c 300 "$tmp/err"))"
}

# Step logs with known step times, written as a Python training loop would.
write_log() {  # path median_ms spread_ms steps
  python3 - "$@" <<'PY'
import json, sys
path, median, spread, steps = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
with open(path, "w") as f:
    f.write(json.dumps({"perfdx_step_log": 1, "meta": {"model": "toy"}}) + "\n")
    for i in range(steps):
        offset = ((i * 7) % 5 - 2) / 2 * spread  # -spread .. +spread, deterministic
        f.write(json.dumps({"step": i, "step_time_s": (median + offset) / 1000, "samples": 64}) + "\n")
PY
}
write_log "$tmp/base.jsonl" 100 1 30
write_log "$tmp/slower.jsonl" 120 1 30
write_log "$tmp/faster.jsonl" 80 1 30
write_log "$tmp/same.jsonl" 100.2 1 30

# --- baseline save / list / show / trend / rm ---
expect_exit 0 "save a step log" "$perfdx" baseline save "$tmp/base.jsonl" --name toy --tag commit=aaa
grep -q 'saved run #1 "toy"' "$tmp/out" || fail "save names the run: $(cat "$tmp/out")"
expect_exit 0 "save a second run" "$perfdx" baseline save "$tmp/faster.jsonl" --name toy --tag commit=bbb --json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['id'] == 2 and d['name'] == 'toy'" "$tmp/out" ||
  fail "save --json"
expect_exit 0 "save a trace" "$perfdx" baseline save ../shared/traces/kineto/tbp/resnet50_num_workers_0 --name resnet50
expect_exit 0 "list" "$perfdx" baseline list
[ "$(grep -c ' toy ' "$tmp/out")" -eq 2 ] || fail "list shows both toy runs: $(cat "$tmp/out")"
expect_exit 0 "list --json" "$perfdx" baseline list --json --tag commit=bbb
python3 - "$tmp/out" <<'PY' || fail "list --json is the documented contract"
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["id"] for r in d["runs"]] == [2], d
r = d["runs"][0]
for key in ("id", "name", "created_unix_s", "source", "input_path", "perfdx_version", "host", "steps", "median_step_ns", "tags"):
    assert key in r, key
assert r["steps"] == 30 and r["source"] == "step_log" and r["tags"] == {"commit": "bbb", "model": "toy"}
assert abs(r["median_step_ns"] - 80e6) < 1, r["median_step_ns"]
PY
expect_exit 0 "show" "$perfdx" baseline show resnet50 --json
python3 - "$tmp/out" <<'PY' || fail "show --json holds steps, metrics, items and provenance"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["source"] == "trace" and len(d["steps"]) == 6 and d["items_complete"] is True
assert d["fingerprint"].startswith("fnv1a64:") and d["perfdx_version"] and d["host"]
assert d["metrics"]["step_time_median_ns"] == 177443000, d["metrics"]["step_time_median_ns"]
assert any(i["kind"] == "kernel" for i in d["items"])
assert set(d["steps"][0]["phases_ns"]) >= {"kernel", "dataloader"}
PY
expect_exit 0 "trend" "$perfdx" baseline trend step_time --name toy --json
python3 - "$tmp/out" <<'PY' || fail "trend --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["metric"] == "step_time_median_ns"
assert [round(p["value"] / 1e6) for p in d["points"]] == [100, 80], d
assert d["points"][0]["change"] is None and abs(d["points"][1]["change"] + 0.2) < 1e-9
PY
expect_exit 2 "trend of an unknown metric" "$perfdx" baseline trend no_such_metric
expect_exit 2 "show a missing run" "$perfdx" baseline show nobody
expect_exit 2 "save with a bad name" "$perfdx" baseline save "$tmp/base.jsonl" --name 123
expect_exit 2 "save with a bad tag" "$perfdx" baseline save "$tmp/base.jsonl" --name x --tag novalue
expect_exit 2 "save without --name" "$perfdx" baseline save "$tmp/base.jsonl"
expect_exit 2 "save a missing file" "$perfdx" baseline save "$tmp/missing.jsonl" --name x
expect_exit 2 "save garbage" "$perfdx" baseline save tests/data/bad/binary_garbage.bin --name x
# Issue #17: a library that is not there is named, exit 2 (a typo in --db
# listed "no runs"), and reading never creates it.
for cmd in "list" "show toy" "trend step_time" "rm toy"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$cmd of a library that does not exist" "$perfdx" baseline $cmd --db "$tmp/none/runs.db"
  grep -qF "perfdx: error: $tmp/none/runs.db: no run library here (save a run first" "$tmp/err" || fail "$cmd: absent library message: $(cat "$tmp/err")"
done
[ ! -e "$tmp/none" ] || fail "reading an absent library created it"
# --db naming a folder listed "no runs" and exited 0.
mkdir -p "$tmp/libdir"
for cmd in "list" "show toy" "trend step_time" "rm toy" "save $tmp/base.jsonl --name toy"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$cmd --db FOLDER" "$perfdx" baseline $cmd --db "$tmp/libdir"
  [ "$(cat "$tmp/err")" = "perfdx: error: $tmp/libdir: is a folder; --db needs the run library's file" ] || fail "$cmd --db FOLDER: $(cat "$tmp/err")"
done
expect_exit 2 "check --db FOLDER" "$perfdx" check "$tmp/slower.jsonl" --against toy --db "$tmp/libdir"
grep -qF "$tmp/libdir: is a folder; --db needs the run library's file" "$tmp/err" || fail "check --db FOLDER: $(cat "$tmp/err")"

# Issue #17: a library the user may not write could not be listed ("attempt
# to write a readonly database"). list/show/trend/check/diff read it; save and
# rm say it is read-only. As root, chmod does not stop a write: the commands
# run as nobody.
as_user() {
  if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi
}
ro=$(mktemp -d)
chmod 755 "$ro"
cp "$tmp/base.jsonl" "$ro/base.jsonl"
"$perfdx" baseline save "$ro/base.jsonl" --name ro --db "$ro/runs.db" >/dev/null || fail "save for the read-only library"
[ ! -e "$ro/runs.db-wal" ] || fail "the library was closed cleanly"
chmod 444 "$ro/runs.db" "$ro/base.jsonl"
chmod 555 "$ro"
expect_exit 0 "list a read-only library" as_user "$perfdx" baseline list --db "$ro/runs.db"
grep -q " ro " "$tmp/out" || fail "read-only list shows the run: $(cat "$tmp/out" "$tmp/err")"
expect_exit 0 "show a read-only library's run" as_user "$perfdx" baseline show ro --db "$ro/runs.db"
expect_exit 0 "trend of a read-only library" as_user "$perfdx" baseline trend step_time --db "$ro/runs.db"
expect_exit 0 "check against a read-only library" as_user "$perfdx" check "$ro/base.jsonl" --against ro --db "$ro/runs.db"
expect_exit 0 "diff with a read-only library" as_user "$perfdx" diff ro "$ro/base.jsonl" --db "$ro/runs.db"
expect_exit 2 "save to a read-only library" as_user "$perfdx" baseline save "$ro/base.jsonl" --name ro2 --db "$ro/runs.db"
[ "$(cat "$tmp/err")" = "perfdx: error: $ro/runs.db: the run library is read-only (Permission denied); baseline save and rm need write access to it" ] ||
  fail "save to a read-only library: $(cat "$tmp/err")"
expect_exit 2 "rm from a read-only library" as_user "$perfdx" baseline rm ro --db "$ro/runs.db"
grep -qF "$ro/runs.db: the run library is read-only" "$tmp/err" || fail "rm from a read-only library: $(cat "$tmp/err")"
[ "$(ls "$ro")" = "$(printf 'base.jsonl\nruns.db')" ] || fail "reading a read-only library wrote beside it: $(ls "$ro")"
chmod 755 "$ro"
rm -rf "$ro"

# Issue #17: `baseline save -` reads a step log, a report or a trace from
# standard input; its fingerprint is the FNV-1a of the bytes that came in.
expect_exit 0 "save - < step log" sh -c '"$0" baseline save - --name piped --json <"$1"' "$perfdx" "$tmp/base.jsonl"
expect_exit 0 "show the piped run" "$perfdx" baseline show piped --json
python3 - "$tmp/out" "$tmp/base.jsonl" <<'PY' || fail "the piped step log is a run named <stdin>"
import json, sys
d = json.load(open(sys.argv[1]))
h = 0xcbf29ce484222325
for byte in open(sys.argv[2], "rb").read():
    h = ((h ^ byte) * 0x100000001b3) % (1 << 64)
assert d["input_path"] == "<stdin>" and d["source"] == "step_log" and len(d["steps"]) == 30, d["input_path"]
assert d["fingerprint"] == "fnv1a64:%016x" % h, d["fingerprint"]
PY
expect_exit 0 "save - < gzip trace" sh -c '"$0" baseline save - --name piped-trace <"$1"' "$perfdx" examples/cpu_training/trace.json.gz
grep -q 'saved run #.* "piped-trace"' "$tmp/out" || fail "save - of a trace: $(cat "$tmp/out" "$tmp/err")"
expect_exit 1 "check - --against" sh -c '"$0" check - --against "$1" <"$2"' "$perfdx" "$tmp/base.jsonl" "$tmp/slower.jsonl"
expect_exit 2 "diff - -" "$perfdx" diff - - <"$tmp/base.jsonl"
grep -qF "standard input named for both runs" "$tmp/err" || fail "diff - -: $(cat "$tmp/err")"

# --- check ---
expect_exit 1 "check: 20% slower regresses" "$perfdx" check "$tmp/slower.jsonl" --against toy --json
# ("toy" is the latest toy run, the 80 ms one.)
python3 - "$tmp/out" <<'PY' || fail "check --json contract"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "regressed" and d["method"] == "bootstrap_median_ratio"
assert abs(d["step_time_ratio"] - 1.5) < 1e-9, d["step_time_ratio"]
low, high = d["ci"]
assert 1 < low <= d["step_time_ratio"] <= high
PY
expect_exit 1 "check against a library id" "$perfdx" check "$tmp/slower.jsonl" --against 1
expect_exit 0 "check: 20% faster improves" "$perfdx" check "$tmp/faster.jsonl" --against "$tmp/base.jsonl"
grep -q "^improved: median step time 100 ms -> 80 ms (-20.0%" "$tmp/out" || fail "improved text: $(head -1 "$tmp/out")"
expect_exit 0 "check: +0.2% is unchanged" "$perfdx" check "$tmp/same.jsonl" --against "$tmp/base.jsonl"
grep -q "^unchanged" "$tmp/out" || fail "unchanged text: $(head -1 "$tmp/out")"
expect_exit 0 "check: 20% slower passes a 25% budget" \
  "$perfdx" check "$tmp/slower.jsonl" --against "$tmp/base.jsonl" --max-regression 25%
expect_exit 2 "check: bad --max-regression" "$perfdx" check "$tmp/slower.jsonl" --against "$tmp/base.jsonl" --max-regression lots
expect_exit 2 "check: unknown baseline" "$perfdx" check "$tmp/slower.jsonl" --against nobody
expect_exit 2 "check: missing new run" "$perfdx" check "$tmp/missing.jsonl" --against toy
expect_exit 2 "check: no library" "$perfdx" check "$tmp/slower.jsonl" --against toy --db "$tmp/none/runs.db"
printf '{"step_time_s": 0.1}\n' >"$tmp/one.jsonl"
expect_exit 2 "check: one step cannot show noise" "$perfdx" check "$tmp/one.jsonl" --against "$tmp/base.jsonl"

expect_exit 1 "check --format markdown" "$perfdx" check "$tmp/slower.jsonl" --against "$tmp/base.jsonl" --format markdown
grep -q "^### :x: perfdx check: \*\*regressed\*\*" "$tmp/out" || fail "markdown heading: $(head -1 "$tmp/out")"
grep -q "^| median step time | 100 ms | 120 ms | +20.0%" "$tmp/out" || fail "markdown table: $(cat "$tmp/out")"
expect_exit 1 "check --format junit" "$perfdx" check "$tmp/slower.jsonl" --against "$tmp/base.jsonl" --format junit -o "$tmp/junit.xml"
python3 - "$tmp/junit.xml" <<'PY' || fail "junit XML parses and records one failure"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites" and root.get("failures") == "1"
assert root.find("testsuite/testcase/failure").get("type") == "regression"
PY
expect_exit 0 "check --format junit, unchanged" "$perfdx" check "$tmp/same.jsonl" --against "$tmp/base.jsonl" --format junit
python3 -c "import sys, xml.etree.ElementTree as ET; r = ET.fromstring(sys.stdin.read()); assert r.get('failures') == '0'" <"$tmp/out" ||
  fail "junit without failure"

# The acceptance pair: ResNet-50 with 4 DataLoader workers against 0, and back.
resnet=../shared/traces/kineto/tbp
if require_shared "$resnet"; then
  expect_exit 0 "check: 4 workers against 0 improves" "$perfdx" check "$resnet/resnet50_num_workers_4" --against "$resnet/resnet50_num_workers_0"
  grep -q "^improved: median step time 177.4 ms -> 126.7 ms (-28.6%" "$tmp/out" || fail "acceptance text: $(head -1 "$tmp/out")"
  expect_exit 0 "check: 4 workers against the saved run" "$perfdx" check "$resnet/resnet50_num_workers_4" --against resnet50
  expect_exit 1 "check: 0 workers against 4 regresses" "$perfdx" check "$resnet/resnet50_num_workers_0" --against "$resnet/resnet50_num_workers_4"
  expect_exit 0 "check: a trace against itself" "$perfdx" check "$resnet/resnet50_num_workers_0" --against resnet50
  grep -q "^unchanged: median step time 177.4 ms -> 177.4 ms (+0.0%" "$tmp/out" || fail "self check: $(head -1 "$tmp/out")"
  # An analyze report is a run too.
  "$perfdx" analyze "$resnet/resnet50_num_workers_0" --json -o "$tmp/report0.json" || fail "analyze for a report"
  expect_exit 0 "check a trace against an analyze report" "$perfdx" check "$resnet/resnet50_num_workers_4" --against "$tmp/report0.json"
  grep -q "^improved" "$tmp/out" || fail "report baseline: $(head -1 "$tmp/out")"
  expect_exit 0 "check --save keeps the new run" "$perfdx" check "$resnet/resnet50_num_workers_4" --against resnet50 --save resnet50 --tag workers=4
  expect_exit 0 "trend after --save" "$perfdx" baseline trend step_time --name resnet50
  grep -q -- "-28.6%" "$tmp/out" || fail "trend shows the change: $(cat "$tmp/out")"
fi

# --- diff ---
pair=../shared/traces/kineto/hta/trace_diff
if require_shared "$pair"; then
  expect_exit 0 "diff the HTA pair" "$perfdx" diff "$pair/control" "$pair/test" --format json -o "$tmp/diff.json"
  python3 - "$tmp/diff.json" ../shared/golden/hta/trace_diff_pair/ops_diff_ALL.json <<'PY' || fail "diff names match HTA's TraceDiff"
import json, sys
d, g = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert set(d["added"]) == set(g["added"]), set(d["added"]) ^ set(g["added"])
assert set(d["removed"]) == set(g["deleted"]), set(d["removed"]) ^ set(g["deleted"])
c = d["changed"][0]
for key in ("name", "base_ns", "new_ns", "base_count", "new_count"):
    assert key in c, key
assert "step_time_median_ns" in d["metrics"] and "kernel" in d["phases"]
PY
  expect_exit 0 "diff text" "$perfdx" diff "$pair/control" "$pair/test"
  grep -q "^ADDED (32)" "$tmp/out" || fail "diff text lists 32 added: $(grep -n ADDED "$tmp/out")"
  grep -q "^REMOVED (138)" "$tmp/out" || fail "diff text lists 138 removed"
fi
expect_exit 0 "diff two library runs" "$perfdx" diff 1 2 --json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert abs(d['metrics']['step_time_median_ns']['relative'] + 0.2) < 1e-9" "$tmp/out" ||
  fail "diff of step logs compares step time"
expect_exit 2 "diff with a missing side" "$perfdx" diff 1 "$tmp/missing.json"

expect_exit 0 "rm by id" "$perfdx" baseline rm 1
grep -q "removed 1 run" "$tmp/out" || fail "rm reports its count"
expect_exit 2 "rm a missing run" "$perfdx" baseline rm 1

# --- 8 processes saving at once ---
concurrent_db="$tmp/concurrent/runs.db"
pids=()
for k in 0 1 2 3 4 5 6 7; do
  "$perfdx" baseline save "$tmp/base.jsonl" --name "writer-$k" --db "$concurrent_db" >/dev/null 2>"$tmp/err-$k" &
  pids+=($!)
done
for k in 0 1 2 3 4 5 6 7; do
  wait "${pids[$k]}" || fail "concurrent save $k: $(cat "$tmp/err-$k")"
done
"$perfdx" baseline list --json --db "$concurrent_db" >"$tmp/out" || fail "list after concurrent saves"
python3 - "$tmp/out" <<'PY' || fail "all 8 concurrent saves are in the library"
import json, sys
names = sorted(r["name"] for r in json.load(open(sys.argv[1]))["runs"])
assert names == [f"writer-{k}" for k in range(8)], names
PY

# --- the header-only PerfMonitor writes a log that check reads ---
if [ -n "$monitor_example" ]; then
  expect_exit 0 "PerfMonitor example" "$monitor_example" "$tmp/monitor.jsonl"
  expect_exit 0 "check reads the PerfMonitor log" "$perfdx" check "$tmp/monitor.jsonl" --against "$tmp/monitor.jsonl"
  grep -q "^unchanged" "$tmp/out" || fail "monitor log against itself: $(head -1 "$tmp/out")"
fi
# ...and so does the Python helper's.
python3 examples/step_log/train_loop.py "$tmp/py.jsonl" --steps 8 --work-ms 2 >/dev/null || fail "Python step-log example"
expect_exit 0 "baseline save of the Python log" "$perfdx" baseline save "$tmp/py.jsonl" --name py

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all baseline CLI checks passed"
