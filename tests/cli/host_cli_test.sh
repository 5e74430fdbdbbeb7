#!/usr/bin/env bash
# End-to-end checks of perfdx doctor and perfdx bind (issue #15): exit codes,
# one-line errors, --json parses, and bind really sets the child's CPU
# affinity and memory policy on this machine (read back from the child).
# Usage: host_cli_test.sh PATH_TO_PERFDX   (run from the repository root)
set -u
perfdx="$1"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The fixture trees, made by tests/data/host/make_fixtures.py (CTest's
# host_fixtures step sets PERFDX_HOST_FIXTURES).
fixtures=${PERFDX_HOST_FIXTURES:?PERFDX_HOST_FIXTURES is not set: run through ctest}

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_exit() {  # expected_code description command...
  local expected=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local code=$?
  [ "$code" -eq "$expected" ] || fail "$what: exit $code, expected $expected ($(head -c 300 "$tmp/err"))"
}
one_line_error() {  # description
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$1: one line on stderr, got: $(cat "$tmp/err")"
  grep -q "^perfdx: error: " "$tmp/err" || fail "$1: message: $(cat "$tmp/err")"
}

# --- doctor -------------------------------------------------------------
expect_exit 0 "doctor on this machine" "$perfdx" doctor
grep -q "^summary: [0-9]* checks: " "$tmp/out" || fail "doctor prints a summary line"
expect_exit 0 "doctor --json on this machine" "$perfdx" doctor --json
python3 - "$tmp/out" <<'PY' || fail "doctor --json is the documented contract"
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d)[:4] == ["schema_version", "report", "perfdx_version", "root"], list(d)
assert d["schema_version"] == 1 and d["report"] == "doctor" and d["perfdx_version"], d
assert d["root"] == "/"
ids = {c["id"] for c in d["checks"]}
for id in ("cpu.model", "cpu.governor", "numa.balancing", "mm.thp", "mem.available",
           "ulimit.memlock", "ulimit.nofile", "tool.numactl", "env.OMP_NUM_THREADS"):
    assert id in ids, id
for c in d["checks"]:
    assert c["level"] in ("ok", "info", "warning", "critical"), c
    for key in ("id", "title", "known", "value", "recommended", "why", "source", "fix"):
        assert key in c, key
s = d["summary"]
assert s["total"] == len(d["checks"]) == s["ok"] + s["info"] + s["warning"] + s["critical"]
PY
# Not root: the same checks as nobody.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  cp "$perfdx" "$tmp/perfdx" && chmod 755 "$tmp" "$tmp/perfdx"
  expect_exit 0 "doctor as nobody" setpriv --reuid=nobody --regid=nogroup --clear-groups "$tmp/perfdx" doctor --json
  python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out" || fail "doctor --json as nobody parses"
fi

# The fixtures, with a clean environment: the x86 host has 4 warnings (governor,
# frequency cap, two IRQ placements) and no critical check.
run_fixture() { env -i PATH=/usr/local/bin:/usr/bin:/bin "$perfdx" doctor --sysroot "$fixtures/$1" "${@:2}"; }
expect_exit 0 "doctor on the x86 fixture" run_fixture x86_8gpu_mlx
grep -q "^summary: .* 4 warning, 0 critical" "$tmp/out" || fail "x86 summary: $(grep summary "$tmp/out")"
expect_exit 1 "--fail-on warning with warnings" run_fixture x86_8gpu_mlx --fail-on warning
expect_exit 0 "--fail-on critical without critical" run_fixture x86_8gpu_mlx --fail-on critical
expect_exit 1 "--fail-on warning on the Kunpeng fixture" run_fixture kunpeng920_8npu --fail-on warning --json
python3 - "$tmp/out" <<'PY' || fail "Kunpeng doctor --json"
import json, sys
d = json.load(open(sys.argv[1]))
c = {c["id"]: c for c in d["checks"]}
assert c["cpu.governor"]["level"] == "warning" and "ondemand" in c["cpu.governor"]["value"]
assert c["irq.0000:c1:00.0"]["level"] == "warning"
assert c["accel.ascend_driver"]["level"] == "ok"
assert d["summary"]["warning"] == 5, d["summary"]
PY
# A root without any of the files: every check unknown or ok, exit 0, no crash.
mkdir -p "$tmp/empty"
expect_exit 0 "doctor on an empty root" "$perfdx" doctor --sysroot "$tmp/empty" --json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['summary']['unknown'] > 10" "$tmp/out" || fail "empty root: unknown checks"
# -o writes the report.
expect_exit 0 "doctor -o" run_fixture workstation_1gpu -o "$tmp/doctor.txt"
grep -q "^summary: " "$tmp/doctor.txt" || fail "doctor -o writes the report"
[ ! -s "$tmp/out" ] || fail "doctor -o: nothing on stdout"
# Bad usage: exit 2, one line.
expect_exit 2 "doctor --sysroot missing" "$perfdx" doctor --sysroot "$tmp/nope"
one_line_error "doctor --sysroot missing"
grep -qF "$tmp/nope: not a folder (--sysroot)" "$tmp/err" || fail "sysroot message: $(cat "$tmp/err")"
expect_exit 2 "doctor --fail-on bogus" "$perfdx" doctor --fail-on bogus
head -n 1 "$tmp/err" | grep -q "fail-on" || fail "--fail-on bogus names the flag: $(cat "$tmp/err")"
expect_exit 2 "doctor with an extra argument" "$perfdx" doctor extra

# --- bind --print ---------------------------------------------------------
expect_exit 0 "bind --print on the Kunpeng fixture" env -i "$perfdx" bind --print --sysroot "$fixtures/kunpeng920_8npu" --nproc-per-node 8 --json
python3 - "$tmp/out" <<'PY' || fail "bind --print --json (Kunpeng)"
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d)[:4] == ["schema_version", "report", "perfdx_version", "policy"], list(d)
assert d["schema_version"] == 1 and d["report"] == "bind_plan" and d["perfdx_version"], d
assert d["policy"] == "cores" and not d["fallback"]
# 4 nodes of 32 cores, two NPUs each: 16 cores per rank.
assert [r["cpus"] for r in d["ranks"]] == ["0-15", "16-31", "32-47", "48-63", "64-79", "80-95", "96-111", "112-127"]
assert [r["mem_node"] for r in d["ranks"]] == [0, 0, 1, 1, 2, 2, 3, 3]
assert d["ranks"][2]["numactl"] == "numactl --physcpubind=32-47 --preferred=1 CMD"
assert d["cpu_affinity_conf"].startswith("CPU_AFFINITY_CONF=1,npu0:0-15,npu1:16-31,")
PY
expect_exit 0 "bind --print text, split, membind" env -i ASCEND_RT_VISIBLE_DEVICES=6,7 "$perfdx" bind --print --sysroot "$fixtures/kunpeng920_8npu" --nproc-per-node 2 --policy split --membind
grep -qF "rank 1: numactl --physcpubind=112-127 --membind=3 CMD" "$tmp/out" || fail "split text: $(cat "$tmp/out")"
grep -qF "export CPU_AFFINITY_CONF=2,npu0:96-111,npu1:112-127" "$tmp/out" || fail "split CPU_AFFINITY_CONF: $(cat "$tmp/out")"
grep -qE "^ +0 .* 96-111 +96 +97-111$" "$tmp/out" || fail "split main/workers: $(cat "$tmp/out")"
# Defaults from the launcher's environment (torchrun, Slurm).
expect_exit 0 "bind nproc from LOCAL_WORLD_SIZE" env -i LOCAL_WORLD_SIZE=4 "$perfdx" bind --print --sysroot "$fixtures/x86_8gpu_mlx" --json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['ranks']) == 4 and d['ranks'][3]['cpus'] == '24-31,88-95', d['ranks']" "$tmp/out" || fail "LOCAL_WORLD_SIZE=4 on the x86 fixture (GPUs 0-3, all on node 0: 8 cores each)"
expect_exit 0 "bind nproc from SLURM_NTASKS_PER_NODE" env -i SLURM_NTASKS_PER_NODE=2 "$perfdx" bind --print --sysroot "$fixtures/workstation_1gpu" --json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [r['cpus'] for r in d['ranks']] == ['0-7,16-23', '8-15,24-31'], d['ranks']" "$tmp/out" || fail "SLURM_NTASKS_PER_NODE=2 on the workstation"

# Bad usage: exit 2, one line each.
expect_exit 2 "bind without a command" env -i "$perfdx" bind --local-rank 0 --nproc-per-node 1
one_line_error "bind without a command"
expect_exit 2 "bind without nproc" env -i "$perfdx" bind --local-rank 0 -- true
one_line_error "bind without nproc"
expect_exit 2 "bind without local rank" env -i "$perfdx" bind --nproc-per-node 2 -- true
one_line_error "bind without local rank"
expect_exit 2 "bind local rank past nproc" "$perfdx" bind --local-rank 2 --nproc-per-node 2 -- true
one_line_error "bind local rank past nproc"
expect_exit 2 "bind bad LOCAL_RANK" env -i LOCAL_RANK=abc "$perfdx" bind --nproc-per-node 2 -- true
grep -qF "LOCAL_RANK=abc: expected a whole number" "$tmp/err" || fail "LOCAL_RANK=abc message: $(cat "$tmp/err")"
expect_exit 2 "bind --sysroot without --print" "$perfdx" bind --sysroot "$fixtures/x86_8gpu_mlx" --local-rank 0 --nproc-per-node 1 -- true
one_line_error "bind --sysroot without --print"
expect_exit 2 "bind bad CUDA_VISIBLE_DEVICES" env -i CUDA_VISIBLE_DEVICES=9 "$perfdx" bind --print --sysroot "$fixtures/x86_8gpu_mlx" --nproc-per-node 1
one_line_error "bind bad CUDA_VISIBLE_DEVICES"
grep -qF "CUDA_VISIBLE_DEVICES=9: device 9 does not exist (8 on this machine)" "$tmp/err" || fail "CUDA_VISIBLE_DEVICES=9 message: $(cat "$tmp/err")"
for flag_value in "--local-rank -1" "--local-rank 1.5" "--nproc-per-node 0" "--nproc-per-node 1e9" "--policy sockets"; do
  # shellcheck disable=SC2086
  expect_exit 2 "bind $flag_value" "$perfdx" bind --print $flag_value
  head -n 1 "$tmp/err" | grep -qF -- "${flag_value%% *}" || fail "bind $flag_value names the flag: $(cat "$tmp/err")"
done
expect_exit 127 "bind a command that does not exist" "$perfdx" bind --local-rank 0 --nproc-per-node 1 -- "$tmp/no-such-command"
grep -qF "perfdx: error: $tmp/no-such-command: No such file or directory" "$tmp/err" || fail "exec error: $(cat "$tmp/err")"

# --- bind really binds the child (this machine, no accelerator: the fallback) --
cpus=$(python3 -c "import os; print(' '.join(map(str, sorted(os.sched_getaffinity(0)))))")
ncpu=$(wc -w <<<"$cpus")
last=${cpus##* }
# One rank per CPU: the last rank gets the last CPU alone.
expect_exit 0 "bind the last rank" "$perfdx" bind --local-rank $((ncpu - 1)) --nproc-per-node "$ncpu" --membind -- cat /proc/self/status /proc/self/numa_maps
grep -qP "^Cpus_allowed_list:\t$last$" "$tmp/out" || fail "child's Cpus_allowed_list is $last: $(grep Cpus_allowed_list "$tmp/out")"
# The NUMA node holding a CPU (the fallback prefers the node of a rank's CPUs).
node_of() {
  python3 - "$1" <<'PY'
import glob, re, sys
cpu = int(sys.argv[1])
for path in glob.glob("/sys/devices/system/node/node*/cpulist"):
    for part in open(path).read().strip().split(","):
        a, _, b = part.partition("-")
        if part and int(a) <= cpu <= int(b or a):
            print(re.search(r"node(\d+)/", path).group(1))
PY
}
node=$(node_of "$last")
grep -qP "^Mems_allowed_list:\t" "$tmp/out" || fail "child's Mems_allowed_list"
grep -q " bind:$node " "$tmp/out" || fail "child's memory policy is bind:$node: $(grep -m1 -v Cpus "$tmp/out" | head -c 200)"
expect_exit 0 "bind rank 0 preferred" "$perfdx" bind --local-rank 0 --nproc-per-node "$ncpu" -- cat /proc/self/numa_maps
first=${cpus%% *}
node=$(node_of "$first")
grep -q " prefer:$node " "$tmp/out" || fail "child's memory policy is prefer:$node: $(head -c 200 "$tmp/out")"
# From the launcher's variables, through a shell: what torchrun --no-python starts.
expect_exit 0 "bind from LOCAL_RANK/LOCAL_WORLD_SIZE" env LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 "$perfdx" bind -- sh -c 'grep Cpus_allowed_list /proc/self/status; echo "cpus=$PERFDX_BIND_CPUS"'
grep -qF "cpus=$(python3 -c "import os; c=sorted(os.sched_getaffinity(0)); print(c[0] if len(c)==1 else f'{c[0]}-{c[-1]}')")" "$tmp/out" || fail "PERFDX_BIND_CPUS: $(cat "$tmp/out")"
expect_exit 0 "bind from SLURM_LOCALID" env -u LOCAL_RANK SLURM_LOCALID=0 SLURM_NTASKS_PER_NODE=1 "$perfdx" bind -- true
# The child's exit status is the command's (exec, no wrapper).
expect_exit 3 "bind passes the exit status" "$perfdx" bind --local-rank 0 --nproc-per-node 1 -- sh -c 'exit 3'
expect_exit 0 "bind --print on this machine" "$perfdx" bind --print --nproc-per-node 2 --json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['fallback'] and len(d['ranks']) == 2" "$tmp/out" || fail "bind --print on this machine: fallback plan"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all host CLI checks passed"
