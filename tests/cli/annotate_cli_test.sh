#!/usr/bin/env bash
# perfdx annotate end to end (issue #14 item 3): the output is a Chrome trace
# that a JSON parser and perfdx read, gzip'd when its name ends in .gz,
# written atomically; inputs without one Chrome trace are one error line
# with exit 2. Usage: annotate_cli_test.sh PATH_TO_PERFDX   (from the repository root)
set -u
perfdx="$1"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
shared=../shared/traces
[ -d "$shared" ] || { echo "FAIL: $shared is missing (the tests read ../shared in place)"; exit 1; }
trace=$shared/kineto/hta/trace_diff/control/control.json.gz

"$perfdx" annotate "$trace" -o "$tmp/a.json.gz" 2>"$tmp/err" || fail "annotate -o .gz: exit $? ($(cat "$tmp/err"))"
[ "$(head -c 2 "$tmp/a.json.gz" | od -An -tx1 | tr -d ' ')" = "1f8b" ] || fail "a .gz output is gzip"
"$perfdx" annotate "$trace" -o "$tmp/a.json" 2>/dev/null || fail "annotate -o .json"
zcat "$tmp/a.json.gz" | cmp -s - "$tmp/a.json" || fail "the .gz output holds the plain output"
python3 - "$tmp/a.json" "$trace" <<'PY' || fail "the annotated trace is the original plus perfdx events"
import gzip, json, sys
annotated = json.load(open(sys.argv[1]))
original = json.load(gzip.open(sys.argv[2]))
added = annotated["traceEvents"][len(original["traceEvents"]):]
assert annotated["traceEvents"][:len(original["traceEvents"])] == original["traceEvents"]
assert {k: v for k, v in annotated.items() if k != "traceEvents"} == \
       {k: v for k, v in original.items() if k != "traceEvents"}
assert added and all(e.get("cat") == "perfdx" or e["ph"] == "M" for e in added), added[:3]
names = {e["args"]["name"] for e in added if e["ph"] == "M" and e["name"] == "thread_name"}
assert {"idle gaps", "data-loading stalls", "exposed communication"} <= names, names
PY
"$perfdx" info "$tmp/a.json.gz" >"$tmp/info" 2>&1 || fail "perfdx info reads the annotated trace"
grep -q "perfdx" "$tmp/info" || fail "perfdx info lists the perfdx tracks: $(head -5 "$tmp/info")"
"$perfdx" annotate "$trace" >"$tmp/stdout.json" 2>/dev/null || fail "annotate to stdout"
cmp -s "$tmp/stdout.json" "$tmp/a.json" || fail "stdout gets the same trace"

db=$shared/ascend/torch_npu_2rank_db_level0/rank0_ascend_pt
"$perfdx" annotate "$db" -o "$tmp/db.json" >/dev/null 2>"$tmp/err"
code=$?
[ "$code" -eq 2 ] || fail "a DB export: exit $code, expected 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^perfdx: error: .*export the profile as text" "$tmp/err" ||
  fail "a DB export: one error line saying what to pass: $(cat "$tmp/err")"
[ ! -e "$tmp/db.json" ] || fail "nothing written on an error"
"$perfdx" annotate - <"$trace" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "name the file instead of -" "$tmp/err" || fail "stdin refused: $(cat "$tmp/err")"
"$perfdx" annotate "$trace" --min-gap-us 0 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--min-gap-us 0 is a usage error"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "annotate_cli: all checks passed"
