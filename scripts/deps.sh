#!/usr/bin/env bash
# Installs the Debian packages perfdx needs to build and test (skips what is
# already installed). Needs root or sudo.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config python3 zstd
  libsimdjson-dev libfmt-dev libcli11-dev zlib1g-dev libzstd-dev libtomlplusplus-dev
  libisal-dev  # gzip reading (ISA-L igzip, src/perfdx/io/byte_source.cc)
  libgtest-dev libgmock-dev libbenchmark-dev
  libhwloc-dev  # perfdx bind: the live topology (src/perfdx/host/hwloc_topology.cc)
  libsqlite3-dev  # Ascend DB exports (ascend_*_profiler_{rank}.db)
  # libsqlite3-dev is also the run library's store (perfdx baseline, src/perfdx/baseline)
  # The asan preset: Clang 14 with its sanitizer and libFuzzer runtimes, and
  # llvm-symbolizer (package llvm) for readable sanitizer stack traces.
  clang libclang-rt-14-dev llvm
  clang-format-14  # scripts/format.sh and the clang_format test
  # The Python module (python/perfdx, docs/python.md): pybind11 for Debian's
  # python3; pandas for its DataFrames, pytest for its tests, matplotlib for
  # the example notebook (examples/python).
  python3-dev pybind11-dev python3-pandas python3-pytest python3-matplotlib
  python3-jsonschema  # docs/analyze_report.schema.json, checked by the test analyze_report_schema
  # The HTML report's browser test (tests/report/html_browser_test.py):
  # headless Chromium opens the pages.
  chromium
  # perfdx summarize on a cluster (issue #12, docs/cluster.md): the test
  # slurm_array starts a one-node Slurm on localhost (slurmctld, slurmd) with
  # munge authentication and runs a job array over the shared rank traces.
  slurm-wlm munge
  # bench/cluster_scale.py (and its test cluster_scale_detection) measures
  # each command's peak RSS under GNU time.
  time
  # bench/instruction_guard.py (CTest instruction_count): instructions counted
  # by callgrind, the project's guard on its own speed.
  valgrind
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "perfdx: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
