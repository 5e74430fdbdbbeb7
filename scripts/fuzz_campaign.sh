#!/usr/bin/env bash
# The fuzzing record of docs/RELIABILITY.md: every libFuzzer target run for
# SECONDS (default 600) under ASan + UBSan from its seed corpus, one target
# after another, JOBS processes each (default: the core count); prints one
# table row per target (executions, corpus size, findings) and leaves the
# grown corpora and any crash input under build/asan/fuzz_campaign/ (or
# $PERFDX_FUZZ_WORK: two campaigns at once need two folders).
# Usage: scripts/fuzz_campaign.sh [SECONDS] [JOBS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
jobs=${2:-$(nproc)}
shift $(($# < 2 ? $# : 2))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(chrome_json_fuzzer kineto_analyze_fuzzer csv_fuzzer ascend_profile_fuzzer msprof_fuzzer ascend_db_fuzzer
           step_log_fuzzer analyze_report_fuzzer thresholds_toml_fuzzer)
fi
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)" --target perfdx "${targets[@]}" >/dev/null
work=${PERFDX_FUZZ_WORK:-build/asan/fuzz_campaign}
mkdir -p "$work"
python3 tests/fuzz/make_seeds.py "$work/seeds" build/asan/src/perfdx/perfdx >/dev/null
# -max_len as in tests/fuzz/CMakeLists.txt.
declare -A max_len=([csv_fuzzer]=4096 [ascend_profile_fuzzer]=32768 [msprof_fuzzer]=32768
                    [ascend_db_fuzzer]=131072 [step_log_fuzzer]=16384 [thresholds_toml_fuzzer]=16384)
echo "| target | executions | corpus (files) | crashes, leaks, timeouts |"
echo "|---|---:|---:|---:|"
status=0
for t in "${targets[@]}"; do
  dir=$work/$t
  mkdir -p "$dir/corpus" "$dir/artifacts" "$dir/logs"
  extra=()
  case "$t" in chrome_json_fuzzer | kineto_analyze_fuzzer) extra=(tests/data/bad) ;; esac
  for j in $(seq 1 "$jobs"); do
    build/asan/tests/fuzz/$t -max_total_time="$seconds" -max_len="${max_len[$t]:-65536}" \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
      "$dir/corpus" "$work/seeds/$t" "${extra[@]}" >"$dir/logs/$j.log" 2>&1 &
  done
  wait || true
  execs=$(grep -h "^stat::number_of_executed_units" "$dir"/logs/*.log | awk '{s += $2} END {print s + 0}')
  findings=$(find "$dir/artifacts" -type f | wc -l)
  [ "$findings" -eq 0 ] || status=1
  echo "| $t | $execs | $(find "$dir/corpus" -type f | wc -l) | $findings |"
done
exit $status
