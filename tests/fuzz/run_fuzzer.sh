#!/usr/bin/env bash
# Runs one libFuzzer target briefly (CTest, CI): the seed inputs first, then
# mutations until RUNS inputs or MAX_SECONDS, whichever ends first. New corpus
# entries and crash artifacts go under WORK_DIR, never into the seed folders;
# a failing run also copies its inputs to WORK_DIR/../crashes, which the next
# run keeps, and prints those of up to 64 KiB in base64.
# Usage: run_fuzzer.sh FUZZER WORK_DIR RUNS MAX_SECONDS MAX_LEN SEED_DIR...
#        (run from the repository root)
set -euo pipefail
fuzzer=$1 work=$2 runs=$3 max_seconds=$4 max_len=$5
shift 5
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
# -max_len: longer mutations are slow and find nothing more than their heads;
# -timeout: any one input taking over 10 s is a hang (a failure).
"$fuzzer" -runs="$runs" -max_total_time="$max_seconds" -max_len="$max_len" -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
  "$work/corpus" "$@" 2>"$work/log" || {
  tail -n 60 "$work/log"
  # The work folder is cleared by the next run: the inputs that failed are
  # kept beside it (crashes/), and a small one is printed, so that a failure
  # seen once (in CI, say) can be reproduced.
  kept="$(dirname "$work")/crashes"
  mkdir -p "$kept"
  for a in "$work"/artifacts/*; do
    [ -f "$a" ] || continue
    cp "$a" "$kept/$(basename "$fuzzer")-$(basename "$a")"
    if [ "$(stat -c %s "$a")" -le 65536 ]; then
      echo "failing input $(basename "$a"), base64:"
      base64 -w 0 "$a"
      echo
    fi
  done
  echo "FAIL: $(basename "$fuzzer"): see $work/log and $kept/" >&2
  exit 1
}
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+.*DONE" "$work/log" || true
echo "$(basename "$fuzzer"): no crash, leak, timeout or sanitizer report"
