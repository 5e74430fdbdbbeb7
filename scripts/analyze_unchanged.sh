#!/usr/bin/env bash
# Checks that a change leaves `perfdx analyze --format json` byte-for-byte the
# same (output, messages and exit status) on every trace under ../shared/traces
# and examples/: each trace file, each profile folder and each multi-rank folder.
#   scripts/analyze_unchanged.sh OLD_PERFDX NEW_PERFDX
# Build the old binary from the base commit first (copy it out of build/).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 OLD_PERFDX NEW_PERFDX" >&2
  exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
cd "$(dirname "$0")/.."
if [ ! -d ../shared/traces ]; then
  echo "perfdx: ../shared not found: looked for $(cd .. && pwd)/shared/traces" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t inputs < <({
  find ../shared/traces examples -type f \( -name '*.json' -o -name '*.json.gz' \
    -o -name '*.json.zst' -o -name 'kernel_details*.csv' \) ! -name '*.truth.json' \
    ! -path '*_ascend_pt/*' ! -path '*_ascend_ms/*'
  find ../shared/traces examples -type d \( -name '*_ascend_pt' -o -name '*_ascend_ms' \
    -o -name 'torch_npu_2rank_*' \)
} | sort)
differ=0
for input in "${inputs[@]}"; do
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    rc=0
    timeout 600 "$bin" analyze --format json "$input" </dev/null >"$work/$side.out" \
      2>"$work/$side.err" || rc=$?
    echo "rc=$rc" >>"$work/$side.out"
  done
  if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err"; then
    echo "differs: $input"
    differ=1
  fi
done
echo "${#inputs[@]} inputs compared"
exit "$differ"
