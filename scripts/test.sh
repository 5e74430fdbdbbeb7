#!/usr/bin/env bash
# The whole test suite, as CI runs it: a GCC release build (warnings as errors)
# with every test, then a Clang build under AddressSanitizer + UBSan with every
# test and, last, each libFuzzer target run briefly (ctest -L fuzz). The
# include-matrix and clang-format checks are tests of both suites.
set -euo pipefail
cd "$(dirname "$0")/.."
# The shared traces and golden numbers are read in place from ../shared:
# without them dozens of tests cannot run, and a skip must not pass.
if [ ! -d ../shared/traces ]; then
  echo "perfdx: ../shared not found: looked for $(cd .. && pwd)/shared/traces" \
       "(the shared traces sit beside the checkout; the tests read them in place)" >&2
  exit 1
fi
scripts/deps.sh
jobs=$(nproc)
for preset in release asan; do
  echo "== $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  if [ "$preset" = asan ]; then
    ctest --preset "$preset" -j "$jobs" -LE fuzz
    echo "== fuzzers ($preset)"
    ctest --preset "$preset" -j "$jobs" -L fuzz
  else
    ctest --preset "$preset" -j "$jobs"
  fi
done
