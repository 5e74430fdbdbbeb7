#!/usr/bin/env bash
# End-to-end checks of the perfdx command line: exit codes, one-line errors
# naming the file and byte offset, atomic output files.
# Usage: cli_test.sh PATH_TO_PERFDX   (run from the repository root)
set -u
perfdx="$1"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_exit() {  # expected_code description command...
  local expected=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local code=$?
  [ "$code" -eq "$expected" ] || fail "$what: exit $code, expected $expected ($(head -c 300 "$tmp/err"))"
}

example=examples/cpu_training/trace.json.gz

expect_exit 0 "info on the example" "$perfdx" info "$example"
grep -q "steps    1 2 3 4 5 6 7 8" "$tmp/out" || fail "info text lists the 8 profiled steps"

expect_exit 0 "info --json" "$perfdx" info --json "$example"
python3 - "$tmp/out" <<'PY' || fail "info --json is the documented contract"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"][0]
for key in ("rank", "path", "source", "device", "span_ns", "events", "events_by_phase", "steps", "tracks", "load_stats"):
    assert key in r, key
assert r["source"] == "pytorch_legacy" and r["steps"] == list(range(1, 9)) and r["events"] == r["events_by_phase"]["X"]
assert isinstance(d["warnings"], list)
PY

expect_exit 2 "binary garbage" "$perfdx" info tests/data/bad/binary_garbage.bin
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "bad input gives exactly one line on stderr"
grep -q "tests/data/bad/binary_garbage.bin: at byte 0: not a JSON trace" "$tmp/err" || fail "error names file and byte offset: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "nothing on stdout for bad input"

expect_exit 2 "gzip bomb" "$perfdx" info tests/data/bad/gzip_bomb.json.gz
grep -q "compression ratio" "$tmp/err" || fail "bomb message: $(cat "$tmp/err")"

expect_exit 2 "missing path" "$perfdx" info "$tmp/does-not-exist.json"
expect_exit 2 "no arguments" "$perfdx" info

# Issue #17: a named pipe given as the trace blocked forever. Refused at once
# (timeout is only the hang guard), one line naming it, exit 2.
mkfifo "$tmp/trace_pipe.json"
expect_exit 2 "a named pipe as the trace" timeout 10 "$perfdx" info "$tmp/trace_pipe.json"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "named pipe input: one line on stderr: $(cat "$tmp/err")"
grep -qF "perfdx: error: $tmp/trace_pipe.json: a named pipe, not a file" "$tmp/err" || fail "named pipe input message: $(cat "$tmp/err")"
# Met while walking a folder: skipped with a warning, the real rank analysed.
mkdir -p "$tmp/piperun"
cp tests/data/healthy_gpu_trace.json "$tmp/piperun/rank0.json"
mkfifo "$tmp/piperun/rank1.json"
expect_exit 0 "a named pipe in a folder" timeout 10 "$perfdx" info "$tmp/piperun"
grep -qF "$tmp/piperun/rank1.json: a named pipe, not a file; skipped" "$tmp/out" || fail "named pipe in a folder is named in the warnings"
# The same file twice is one rank, with a warning.
expect_exit 0 "the same trace named twice" "$perfdx" info --json tests/data/healthy_gpu_trace.json ./tests/data/healthy_gpu_trace.json
python3 - "$tmp/out" <<'PY' || fail "the same file twice is one input"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["ranks"]) == 1, len(d["ranks"])
assert any("the same file as tests/data/healthy_gpu_trace.json; read once" in w for w in d["warnings"]), d["warnings"]
PY
expect_exit 2 "unknown subcommand" "$perfdx" frobnicate
expect_exit 0 "--version" "$perfdx" --version

# Issue #17: numeric flags took NaN (--max-ratio nan turned the bomb guard
# off), infinities, 1e300 and negatives (--max-decompressed -5 wrapped around).
# Each is a usage error, exit 2, whose first line names the flag and the value.
expect_flag_refused() {  # flag value subcommand-and-args...
  local flag=$1 value=$2
  shift 2
  expect_exit 2 "$flag $value" "$perfdx" "$@" "$flag" "$value"
  head -n 1 "$tmp/err" | grep -qF -- "$flag $value: expected" || fail "$flag $value: message: $(cat "$tmp/err")"
}
trace=tests/data/healthy_gpu_trace.json
for v in nan inf -inf 0 -1 1e300; do expect_flag_refused --min-gap-us "$v" analyze "$trace"; done
for v in nan inf 0.5 -200 1e300; do expect_flag_refused --max-ratio "$v" info "$trace"; done
for v in -5 nan -1G; do expect_flag_refused --max-decompressed "$v" info "$trace"; done
for v in -1 99999 nan; do expect_flag_refused --threads "$v" info "$trace"; done
for v in -1 nan 1.5; do expect_flag_refused --rank "$v" analyze "$trace"; done
for v in nan inf 0.3 1 -0.95; do expect_flag_refused --confidence "$v" check "$trace" --against "$trace"; done
for v in -1 20000 nan; do expect_flag_refused --resamples "$v" check "$trace" --against "$trace"; done
for v in nan -1; do expect_flag_refused --max-ratio "$v" check "$trace" --against "$trace"; done
expect_flag_refused --max-decompressed -5 check "$trace" --against "$trace"
expect_flag_refused --warmup -1 check "$trace" --against "$trace"
expect_flag_refused --rank -1 check "$trace" --against "$trace"
expect_flag_refused --top -3 diff "$trace" "$trace"
for v in 0 -1 1.5 nan 99999999999; do expect_flag_refused --top "$v" analyze "$trace"; done
expect_flag_refused --top nan baseline show --db "$tmp/runs.db" x
expect_flag_refused --limit -1 baseline list --db "$tmp/runs.db"
expect_exit 2 "--max-regression nan" "$perfdx" check "$trace" --against "$trace" --max-regression nan
grep -qF -- "--max-regression nan: expected a percentage" "$tmp/err" || fail "--max-regression nan: $(cat "$tmp/err")"
# In-range values still work.
expect_exit 0 "valid numeric flags" "$perfdx" analyze --min-gap-us 50 --max-ratio 1000 --max-decompressed 512M --threads 2 "$trace"
expect_exit 0 "a check with valid numeric flags" "$perfdx" check "$trace" --against "$trace" --confidence 0.9 --resamples 500

# -o writes the whole report or nothing.
expect_exit 0 "info -o" "$perfdx" info --json -o "$tmp/report.json" "$example"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/report.json" || fail "-o file is valid JSON"
expect_exit 2 "info -o with bad input" "$perfdx" info --json -o "$tmp/bad.json" tests/data/bad/empty.json
[ ! -e "$tmp/bad.json" ] || fail "no output file written for bad input"
ls "$tmp" | grep -q "\.tmp\." && fail "temporary output file left behind"
# analyze writes its report as it renders it: each format is the report
# rendered to standard output, and a write that fails on the way (a full
# disk) is one error line, exit 2.
for format in text json html md; do
  "$perfdx" analyze --format "$format" "$example" >"$tmp/stdout.$format" 2>/dev/null
  expect_exit 0 "analyze --format $format -o" "$perfdx" analyze --format "$format" -o "$tmp/analyze.$format" "$example"
  cmp -s "$tmp/stdout.$format" "$tmp/analyze.$format" || fail "analyze -o ($format) differs from its standard output"
done
ls "$tmp" | grep -q "\.tmp\." && fail "temporary output file left behind by analyze"
if [ -w /dev/full ]; then
  expect_exit 2 "analyze -o /dev/full" "$perfdx" analyze --format html -o /dev/full "$example"
  grep -qxF "perfdx: error: /dev/full: write failed: No space left on device" "$tmp/err" || fail "-o /dev/full message: $(cat "$tmp/err")"
fi

# -o writes through a symlink: the link stays a link, its target holds the report.
mkdir -p "$tmp/out_dir"
ln -s out_dir/target.json "$tmp/link.json"
expect_exit 0 "info -o through a dangling symlink" "$perfdx" info --json -o "$tmp/link.json" "$example"
[ -L "$tmp/link.json" ] || fail "-o replaced the symlink instead of writing through it"
python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['ranks']" "$tmp/out_dir/target.json" || fail "the symlink's target holds the report"
echo old >"$tmp/out_dir/target.json"
chmod 640 "$tmp/out_dir/target.json"
expect_exit 0 "info -o through a symlink to a file" "$perfdx" info --json -o "$tmp/link.json" "$example"
[ -L "$tmp/link.json" ] || fail "-o replaced the symlink to an existing file"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out_dir/target.json" || fail "the existing target is rewritten"
[ "$(stat -c %a "$tmp/out_dir/target.json")" = 640 ] || fail "the replaced file keeps its mode"
ls "$tmp/out_dir" | grep -q "\.tmp\." && fail "temporary output file left beside the symlink's target"

# -o to a folder is a usage error naming it; the folder is untouched.
expect_exit 2 "info -o to a folder" "$perfdx" info -o "$tmp/out_dir" "$example"
grep -qF "perfdx: error: $tmp/out_dir: is a folder" "$tmp/err" || fail "-o folder message: $(cat "$tmp/err")"
[ -d "$tmp/out_dir" ] || fail "-o replaced a folder"

# -o to a named pipe writes into it (a reader is waiting) and leaves it a pipe.
mkfifo "$tmp/pipe"
timeout 20 cat "$tmp/pipe" >"$tmp/from_pipe" &  # the guard: a perfdx that replaces the pipe never opens it
reader=$!
expect_exit 0 "info -o to a named pipe" timeout 20 "$perfdx" info --json -o "$tmp/pipe" "$example"
wait "$reader"
[ -p "$tmp/pipe" ] || fail "-o replaced a named pipe"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/from_pipe" || fail "the pipe's reader got the report"

# The acceptance test of issue #17: -o /dev/null leaves it a character device.
# Run on a private node with /dev/null's numbers (root only), and a symlink to one.
if [ "$(id -u)" -eq 0 ] && mknod "$tmp/null" c 1 3 2>/dev/null; then
  expect_exit 0 "info -o to a character device" "$perfdx" info --json -o "$tmp/null" "$example"
  [ -c "$tmp/null" ] || fail "-o turned a character device into a regular file"
  ln -s null "$tmp/null_link"
  expect_exit 0 "info -o to a symlink to a character device" "$perfdx" info -o "$tmp/null_link" "$example"
  [ -L "$tmp/null_link" ] && [ -c "$tmp/null" ] || fail "-o through a symlink replaced the link or the device"
  ls "$tmp" | grep -q "\.tmp\." && fail "temporary output file left beside a device"
else
  ln -s /dev/null "$tmp/devnull_link"
  expect_exit 0 "info -o to a symlink to /dev/null" "$perfdx" info -o "$tmp/devnull_link" "$example"
  [ -L "$tmp/devnull_link" ] && [ -c /dev/null ] || fail "-o through a symlink to /dev/null replaced it"
fi

# Issue #17: timestamps in the year 3000 were called not a number. The
# warning says they lie outside the times a trace may hold.
printf '{"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 100, "dur": 5}, {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 32503680000000000, "dur": 5}]}' >"$tmp/y3000.json"
expect_exit 0 "a trace with a year-3000 event" "$perfdx" info --json "$tmp/y3000.json"
python3 - "$tmp/out" "$tmp/y3000.json" <<'PY' || fail "year-3000 times are out of range, not invalid: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
stats = d["ranks"][0]["load_stats"]
assert stats.get("event_ts_out_of_range") == 1 and "event_invalid_ts" not in stats, stats
w = [x for x in d["warnings"] if "event_ts_out_of_range" in x]
assert w == [sys.argv[2] + ": 1 events whose ts lies outside the times a trace may hold (1896 to 2116 as epoch time) (event_ts_out_of_range)"], d["warnings"]
assert not any("not a number" in x for x in d["warnings"]), d["warnings"]
PY

# A truncated trace is analysed up to the cut, with a warning, exit 0.
expect_exit 0 "truncated gzip" "$perfdx" info tests/data/bad/truncated.json.gz
grep -q "truncated\|ends early" "$tmp/out" || fail "truncation warning shown"

# whatif: the steps replayed with fixes (tests/data/golden/small_cuda_trace.json
# by hand, tests/analysis/replay_test.cc: without its DataLoader each step is
# 6.1 ms; the measured mean is 14 ms).
golden=tests/data/golden/small_cuda_trace.json
expect_exit 0 "whatif --remove data-loading" "$perfdx" whatif "$golden" --remove data-loading --format json
python3 - "$tmp/out" <<'PY' || fail "whatif JSON: $(head -c 600 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["report"] == "whatif" and d["what_if"] == "remove data-loading", d["what_if"]
r = d["ranks"][0]
assert r["replay"]["available"] and r["replay"]["median_abs_error"] == 0, r["replay"]
assert r["prediction"]["predicted_step_ns"] == 6100000, r["prediction"]
assert [s["with_fix_ns"] for s in r["steps"]] == [6100000] * 3, r["steps"]
assert [s["measured_ns"] for s in r["steps"]] == [10000000, 10000000, 22000000], r["steps"]
PY
expect_exit 0 "whatif text" "$perfdx" whatif "$golden" --remove data-loading --speedup fp32-matrix=2
grep -q "predicted mean step: 14 ms -> 6.1 ms (saves 7.9 ms per step" "$tmp/out" || fail "whatif text: $(cat "$tmp/out")"
# Captured as a graph (replay_test.cc by hand): steps 10, 9.31, 21.31 ms.
expect_exit 0 "whatif --remove launch-overhead" "$perfdx" whatif "$golden" --remove launch-overhead --format json
python3 - "$tmp/out" <<'PY' || fail "whatif launch-overhead JSON: $(head -c 600 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["what_if"] == "remove launch-overhead", d["what_if"]
assert [s["with_fix_ns"] for s in d["ranks"][0]["steps"]] == [10000000, 9310000, 21310000]
PY
# No collective to wait for: the steps replay as they were.
expect_exit 0 "whatif --remove communication-wait" "$perfdx" whatif "$golden" --remove communication-wait --format json
python3 - "$tmp/out" <<'PY' || fail "whatif communication-wait JSON: $(head -c 600 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["what_if"] == "remove communication-wait", d["what_if"]
assert [s["with_fix_ns"] for s in d["ranks"][0]["steps"]] == [10000000, 10000000, 22000000]
PY
expect_exit 2 "whatif with nothing to change" "$perfdx" whatif "$golden"
expect_exit 2 "whatif --remove of an unknown cause" "$perfdx" whatif "$golden" --remove sleep
for v in fp32-matrix=0 fp32-matrix=nan matrix= gemm=2 matrix; do
  expect_exit 2 "whatif --speedup $v" "$perfdx" whatif "$golden" --speedup "$v"
done
expect_exit 2 "whatif on bad input" "$perfdx" whatif tests/data/bad/empty.json --remove data-loading
# --fix-rank: a rank that is not loaded is an error; one that is gets the fix alone.
expect_exit 2 "whatif --fix-rank not loaded" "$perfdx" whatif "$golden" --remove data-loading --fix-rank 3
grep -q "fix-rank 3: no loaded trace is that rank" "$tmp/err" || fail "whatif --fix-rank error: $(cat "$tmp/err")"
expect_exit 2 "whatif --fix-rank -1" "$perfdx" whatif "$golden" --remove data-loading --fix-rank -1

# analyze: the report, and --fail-on as a CI gate.
expect_exit 0 "analyze the example" "$perfdx" analyze "$example"
grep -q "FINDINGS" "$tmp/out" || fail "analyze prints findings"
expect_exit 1 "--fail-on critical with critical findings" "$perfdx" analyze --fail-on critical "$example"
expect_exit 0 "--fail-on critical on a healthy trace" "$perfdx" analyze --fail-on critical tests/data/healthy_gpu_trace.json
expect_exit 0 "--fail-on warning on a healthy trace" "$perfdx" analyze --fail-on warning tests/data/healthy_gpu_trace.json
expect_exit 2 "--fail-on with a bad level" "$perfdx" analyze --fail-on fatal "$example"
expect_exit 0 "analyze --format json" "$perfdx" analyze --format json "$example"
python3 - "$tmp/out" <<'PY' || fail "analyze JSON carries the contract keys"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"][0]
for key in ("rank", "path", "steps", "summary", "temporal_breakdown_ns", "comm_comp_overlap", "gaps", "kernels", "ops", "memory"):
    assert key in r, key
s = r["steps"][0]
for key in ("id", "start_ns", "end_ns", "dur_ns", "breakdown_ns", "device_ns", "health"):
    assert key in s, key
assert sum(s["breakdown_ns"].values()) == s["dur_ns"]
for f in d["findings"]:
    for key in ("rule", "category", "severity", "title", "rank", "steps", "evidence", "estimated_gain", "recommendations"):
        assert key in f, key
PY
expect_exit 0 "config --defaults" "$perfdx" config --defaults

# The terminal report (issue #14): the width from COLUMNS, --top, --no-fixes,
# colour only where asked, Markdown.
# A link alone on its line is never cut, so it may pass the width.
max_width() { python3 -c 'import re, sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8") if not re.fullmatch(r"\s*https?://\S+\s*", l)] or [0]))' "$1"; }
for cols in 60 100 200; do
  COLUMNS=$cols expect_exit 1 "analyze at COLUMNS=$cols" "$perfdx" analyze --fail-on critical "$example"
  [ "$(max_width "$tmp/out")" -le "$cols" ] || fail "COLUMNS=$cols: a line of $(max_width "$tmp/out") columns"
done
expect_exit 0 "analyze --top 1 --no-fixes" "$perfdx" analyze --top 1 --no-fixes "$example"
grep -q "^  1\. " "$tmp/out" || fail "--top 1 shows the first finding"
! grep -q "^  2\. " "$tmp/out" || fail "--top 1 shows one finding"
! grep -q "fix for \|see https://" "$tmp/out" || fail "--no-fixes hides the fixes"
expect_exit 0 "analyze with the fixes" "$perfdx" analyze "$example"
grep -q "fix for " "$tmp/out" || fail "the fixes are shown by default"
expect_exit 2 "--color with a bad value" "$perfdx" analyze --color=sometimes "$trace"
head -n 1 "$tmp/err" | grep -qF -- "--color: sometimes not in {never,auto,always}" || fail "--color message: $(cat "$tmp/err")"
esc=$(printf '\033[')
NO_COLOR=1 expect_exit 0 "--color=always beats NO_COLOR" "$perfdx" analyze --color=always "$example"
grep -qF "$esc" "$tmp/out" || fail "--color=always colours"
expect_exit 0 "--color=auto into a pipe" "$perfdx" analyze "$example"
! grep -qF "$esc" "$tmp/out" || fail "no colour into a pipe"
if command -v script >/dev/null; then  # a terminal for stdout (util-linux script)
  TERM=xterm NO_COLOR=1 script -qec "$perfdx analyze $example" /dev/null >"$tmp/tty" 2>&1
  ! grep -qF "${esc}1m" "$tmp/tty" || fail "NO_COLOR: no colour on a terminal"
  TERM=xterm script -qec "$perfdx analyze --color=never $example" /dev/null >"$tmp/tty" 2>&1
  ! grep -qF "${esc}1m" "$tmp/tty" || fail "--color=never: no colour on a terminal"
  env -u NO_COLOR TERM=xterm script -qec "$perfdx analyze $example" /dev/null >"$tmp/tty" 2>&1
  grep -qF "${esc}1m" "$tmp/tty" || fail "colour on a terminal by default"
fi
expect_exit 0 "analyze --format md" "$perfdx" analyze --format md "$example"
head -n 1 "$tmp/out" | grep -q "^### .* perfdx analyze: [0-9]* findings" || fail "md title line: $(head -n 1 "$tmp/out")"
grep -qF "| | health | value | healthy |" "$tmp/out" || fail "md health table"
grep -qF "<details><summary>" "$tmp/out" || fail "md findings in details blocks"
expect_exit 2 "--format with a bad value" "$perfdx" analyze --format pdf "$example"

# One rank that cannot be read: named in the warnings, the other analysed, exit 0.
mkdir -p "$tmp/run" "$tmp/allbad"
cp tests/data/healthy_gpu_trace.json "$tmp/run/rank0.json"
printf '{"traceEvents": {"ph": "X"}}' >"$tmp/run/rank1.json"  # the closing brace at byte 27
cp "$tmp/run/rank1.json" "$tmp/allbad/rank0.json"
cp "$tmp/run/rank1.json" "$tmp/allbad/rank1.json"
skipped="rank 1 skipped: $tmp/run/rank1.json: at byte 27: no \"traceEvents\" array in this JSON object"
COLUMNS=400 expect_exit 0 "analyze with one unreadable rank" "$perfdx" analyze "$tmp/run"
grep -qF "$skipped" "$tmp/out" || fail "the unreadable rank is named in the report: $(grep -i skipped "$tmp/out")"
[ "$(head -n 1 "$tmp/out")" = "warnings" ] || fail "warnings come first: $(head -n 2 "$tmp/out")"
grep -q "FINDINGS\|rank 0" "$tmp/out" || fail "the readable rank is analysed"
expect_exit 0 "analyze --format json with one unreadable rank" "$perfdx" analyze --format json "$tmp/run"
python3 - "$tmp/out" "$skipped" <<'PY' || fail "JSON: one rank analysed, the other in warnings"
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["rank"] for r in d["ranks"]] == [0], [r["rank"] for r in d["ranks"]]
assert sys.argv[2] + " (the other 1 input was loaded)" in d["warnings"], d["warnings"]
PY
COLUMNS=10000 expect_exit 0 "info with one unreadable rank" "$perfdx" info "$tmp/run"
grep -qF "$skipped" "$tmp/out" || fail "info names the unreadable rank"
expect_exit 2 "analyze with no readable rank" "$perfdx" analyze "$tmp/allbad"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "no readable rank: one line on stderr: $(cat "$tmp/err")"
grep -qF "perfdx: error: $tmp/allbad/rank0.json: at byte 27:" "$tmp/err" || fail "no readable rank names the file: $(cat "$tmp/err")"

# Issue #17: `-` is standard input (pipes are refused unless named so): a
# Chrome trace, plain, gzip or zstd by content, under the same limits.
expect_exit 0 "analyze - < trace" sh -c '"$0" analyze --format json - <"$1"' "$perfdx" "$example"
cp "$tmp/out" "$tmp/stdin.json"
expect_exit 0 "analyze trace" "$perfdx" analyze --format json "$example"
python3 - "$tmp/stdin.json" "$tmp/out" "$example" <<'PY' || fail "analyze - equals analyze FILE apart from the path"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["ranks"][0]["path"] == "<stdin>", a["ranks"][0]["path"]
assert b["ranks"][0]["path"] == sys.argv[3]
text_a = json.dumps(a, sort_keys=True).replace("<stdin>", "PATH")
text_b = json.dumps(b, sort_keys=True).replace(sys.argv[3], "PATH")
assert text_a == text_b, "the reports differ beyond the path"
assert a["findings"], "the example has findings"
PY
gzip -dc "$example" >"$tmp/plain.json"
zstd -q -c "$tmp/plain.json" >"$tmp/plain.json.zst"
for f in "$tmp/plain.json" "$tmp/plain.json.zst" "$example"; do
  expect_exit 0 "info - < $(basename "$f")" sh -c '"$0" info --json - <"$1"' "$perfdx" "$f"
  python3 -c "import json,sys; r = json.load(open(sys.argv[1]))['ranks'][0]; assert r['path'] == '<stdin>' and r['steps'] == list(range(1, 9)), r['path']" "$tmp/out" ||
    fail "info - reads $(basename "$f") from a pipe"
done
expect_exit 0 "info - from a pipe" sh -c 'cat "$1" | "$0" info -' "$perfdx" "$tmp/plain.json.zst"
grep -q "steps    1 2 3 4 5 6 7 8" "$tmp/out" || fail "info - from a real pipe lists the steps"
expect_exit 2 "info - with nothing on stdin" "$perfdx" info - </dev/null
[ "$(cat "$tmp/err")" = "perfdx: error: <stdin>: at byte 0: empty file" ] || fail "empty stdin: $(cat "$tmp/err")"
expect_exit 2 "info - -" "$perfdx" info - - <"$tmp/plain.json"
grep -qF "standard input named twice" "$tmp/err" || fail "stdin twice: $(cat "$tmp/err")"
expect_exit 2 "stdin over --max-decompressed" sh -c '"$0" info --max-decompressed 1K - <"$1"' "$perfdx" "$example"
grep -qF "<stdin>: more than 1024 bytes after decompression" "$tmp/err" || fail "stdin limit: $(cat "$tmp/err")"

# Issue #17: a rank file in a folder that cannot be read was skipped without a
# word. It is a rank that cannot be read, like a damaged one: named with the
# OS's reason, the others analysed; with no other rank, exit 2. As root, chmod
# does not stop a read: perfdx runs as nobody.
as_user() {
  if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi
}
perm=$(mktemp -d)
chmod 755 "$perm"
mkdir -p "$perm/run" "$perm/alone"
cp tests/data/healthy_gpu_trace.json "$perm/run/rank0.json"
cp tests/data/healthy_gpu_trace.json "$perm/run/rank1.json"
cp tests/data/healthy_gpu_trace.json "$perm/alone/rank3.json"
chmod 000 "$perm/run/rank1.json" "$perm/alone/rank3.json"
expect_exit 0 "analyze a folder with an unreadable rank" as_user "$perfdx" analyze --format json "$perm/run"
python3 - "$tmp/out" "$perm/run/rank1.json" <<'PY' || fail "the unreadable rank is named with the OS's reason: $(cat "$tmp/out" "$tmp/err" | head -c 600)"
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["rank"] for r in d["ranks"]] == [0], [r["rank"] for r in d["ranks"]]
want = "rank 1 skipped: " + sys.argv[2] + ": cannot open: Permission denied (the other 1 input was loaded)"
assert want in d["warnings"], d["warnings"]
PY
expect_exit 2 "a folder whose only rank is unreadable" as_user "$perfdx" info "$perm/alone"
[ "$(cat "$tmp/err")" = "perfdx: error: $perm/alone/rank3.json: cannot open: Permission denied" ] || fail "unreadable only rank: $(cat "$tmp/err")"
rm -rf "$perm"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all CLI checks passed"
