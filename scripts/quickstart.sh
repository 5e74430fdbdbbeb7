#!/usr/bin/env bash
# Quick start on a fresh Debian machine: install what perfdx needs, build it,
# and run it (info, then analyze) on the bundled example (a small CNN trained
# on the CPU). Also makes the Python module importable (`import perfdx`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
scripts/python_setup.sh release  # import perfdx (docs/python.md)
example=examples/cpu_training/trace.json.gz
echo
echo "\$ build/release/src/perfdx/perfdx info $example"
build/release/src/perfdx/perfdx info "$example"
echo
echo "\$ build/release/src/perfdx/perfdx analyze $example"
build/release/src/perfdx/perfdx analyze "$example"
