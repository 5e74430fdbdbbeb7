#!/usr/bin/env python3
"""perfdx summarize on Slurm (issue #12): a real one-node Slurm on localhost.

Starts munged, slurmctld and slurmd (Debian's munge and slurm-wlm, installed by
scripts/deps.sh) in a private temp dir, submits one job array with a task per
rank trace (two jobs of two ranks from ../shared), merges each job's summaries
and checks that jobs[*].cluster of the merge equals that of
`perfdx analyze <the rank traces> --format json`. The daemons are stopped and
the temp dir removed whatever happens.

Usage: slurm_array_test.py PERFDX [--task-command T] [--merge-command M]
                                  [--direct-command D] [--keep]
The commands are templates split like a shell line (shlex); placeholders:
  {perfdx}     the perfdx binary
  {input}      one rank's trace or Ascend rank folder   (task command)
  {output}     the summary file the task writes         (task command)
  {summaries}  the job's summary files, several args    (merge command)
  {inputs}     the job's rank traces, several args      (direct command)
The environment variables PERFDX_SLURM_TASK_COMMAND, PERFDX_SLURM_MERGE_COMMAND
and PERFDX_SLURM_DIRECT_COMMAND override the defaults too.
"""
import argparse
import ctypes
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

# The real commands (docs/cluster.md); swap here, or override, to try a stand-in.
TASK_COMMAND = "{perfdx} summarize {input} -o {output}"
MERGE_COMMAND = "{perfdx} analyze {summaries} --format json"
DIRECT_COMMAND = "{perfdx} analyze {inputs} --format json"

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
# Two jobs of two ranks each: an Ascend profile (rank folders) and HTA's Kineto pair.
JOBS = {
    "ascend_2rank": [
        "traces/ascend/torch_npu_2rank_text_level1/rank0_ascend_pt",
        "traces/ascend/torch_npu_2rank_text_level1/rank1_ascend_pt",
    ],
    "hta_trace_filter": [
        "traces/kineto/hta/trace_filter/sampled_rank-0.json.gz",
        "traces/kineto/hta/trace_filter/sampled_rank-1.json.gz",
    ],
}
BINARIES = ["mungekey", "munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol"]
UP_TIMEOUT_S = 60
ARRAY_TIMEOUT_S = 180


class Failure(Exception):
    pass


def die_with_parent():
    """In the child: SIGKILL when the test dies (a CTest timeout) so no daemon outlives it."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    os.setsid()  # its own group, so stop() takes slurmstepd and the tasks with it


def on_sigterm(signum, frame):
    raise Failure(f"stopped by signal {signum}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, lines=20):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError as e:
        return f"({e})\n"


def expand(template, **values):
    """The template's words with placeholders replaced; list values become several words."""
    words = []
    for word in shlex.split(template):
        key = word[1:-1] if word.startswith("{") and word.endswith("}") else None
        if key in values and isinstance(values[key], list):
            words.extend(values[key])
        else:
            words.append(word.format(**{k: v for k, v in values.items() if not isinstance(v, list)}))
    return words


def run(cmd, env, what, timeout=120):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise Failure(f"{what} failed (exit {p.returncode}): {shlex.join(cmd)}\n{p.stderr[-2000:]}")
    return p.stdout


class Cluster:
    """munged + slurmctld + slurmd on this host, everything under one temp dir."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.procs = []
        self.logs = {}
        self.conf = os.path.join(tmp, "slurm.conf")
        self.munge_socket = os.path.join(tmp, "munge", "munge.socket")
        self.env = dict(os.environ, SLURM_CONF=self.conf)

    def start(self):
        self._start_munge()
        self._write_conf()
        for daemon in ("slurmctld", "slurmd"):
            log = os.path.join(self.tmp, f"{daemon}.log")
            self.logs[daemon] = log
            out = open(os.path.join(self.tmp, f"{daemon}.out"), "w")
            # -D: stays in the foreground, so the test owns it.
            self.procs.append((daemon, subprocess.Popen(
                [daemon, "-D", "-f", self.conf], env=self.env, stdout=out,
                stderr=subprocess.STDOUT, preexec_fn=die_with_parent)))
        self._wait_idle()

    def _start_munge(self):
        d = os.path.join(self.tmp, "munge")
        os.mkdir(d, 0o700)
        key = os.path.join(d, "munge.key")
        run(["mungekey", "-c", "-k", key], self.env, "mungekey")
        os.chmod(key, 0o400)
        self.logs["munged"] = os.path.join(d, "munged.log")
        # -f: root and a socket outside /run/munge are fine for a test;
        # -F: in the foreground, owned by the test like the Slurm daemons.
        out = open(os.path.join(d, "munged.out"), "w")
        self.procs.append(("munged", subprocess.Popen(
            ["munged", "-F", "-f", f"--key-file={key}", f"--socket={self.munge_socket}",
             f"--pid-file={os.path.join(d, 'munged.pid')}", f"--log-file={self.logs['munged']}",
             f"--seed-file={os.path.join(d, 'munged.seed')}"], env=self.env, stdout=out,
            stderr=subprocess.STDOUT, preexec_fn=die_with_parent)))
        deadline = time.monotonic() + UP_TIMEOUT_S
        while not os.path.exists(self.munge_socket):
            if self.procs[-1][1].poll() is not None or time.monotonic() > deadline:
                raise Failure("munged did not start\n" + self.log_tails())
            time.sleep(0.1)

    def _write_conf(self):
        host = socket.gethostname().split(".")[0]
        t = self.tmp
        for sub in ("state", "spool"):
            os.mkdir(os.path.join(t, sub), 0o755)
        conf = f"""\
ClusterName=perfdxtest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={self.munge_socket}
CredType=cred/munge
StateSaveLocation={t}/state
SlurmdSpoolDir={t}/spool
SlurmctldPidFile={t}/slurmctld.pid
SlurmdPidFile={t}/slurmd.pid
SlurmctldLogFile={t}/slurmctld.log
SlurmdLogFile={t}/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
MaxArraySize=1001
MailProg=/bin/true
NodeName={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""
        with open(self.conf, "w") as f:
            f.write(conf)
        # No cgroup plugin is used; an empty cgroup.conf keeps slurmd from
        # looking for /etc/slurm/cgroup.conf.
        with open(os.path.join(t, "cgroup.conf"), "w") as f:
            f.write("CgroupPlugin=autodetect\n")

    def _wait_idle(self):
        deadline = time.monotonic() + UP_TIMEOUT_S
        state = ""
        while time.monotonic() < deadline:
            for name, p in self.procs:
                if p.poll() is not None:
                    raise Failure(f"{name} exited with {p.returncode} while starting\n" + self.log_tails())
            p = subprocess.run(["sinfo", "-h", "-N", "-o", "%t"], env=self.env,
                               capture_output=True, text=True)
            state = (p.stdout.strip() or p.stderr.strip())
            if p.returncode == 0 and state == "idle":
                return
            time.sleep(0.5)
        raise Failure(f"the node never became idle in {UP_TIMEOUT_S} s (sinfo: {state!r})\n"
                      + self.log_tails())

    def log_tails(self):
        out = []
        for name in ("munged", "slurmctld", "slurmd"):
            outs = [os.path.join(self.tmp, f"{name}.out"), os.path.join(self.tmp, "munge", f"{name}.out")]
            for path in [self.logs.get(name)] + outs:
                if path and os.path.exists(path):
                    out.append(f"--- {path}\n{tail(path)}")
        return "".join(out)

    def stop(self):
        for _, p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for _, p in reversed(self.procs):
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def batch_script(task_template, perfdx, list_file, out_dir):
    """The sbatch script: task N runs the task command on line N+1 of the list."""
    words = expand(task_template, perfdx=perfdx, input="\0input\0", output="\0output\0")
    quoted = []
    for w in words:
        parts = w.split("\0")
        s = ""
        for i, part in enumerate(parts):
            if i % 2 == 1:
                s += f'"${part}"'
            elif part:
                s += shlex.quote(part)
        quoted.append(s or "''")
    return f"""#!/bin/bash
set -euo pipefail
input=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" {shlex.quote(list_file)})
output={shlex.quote(out_dir)}/$SLURM_ARRAY_TASK_ID.summary
echo "task $SLURM_ARRAY_TASK_ID on $(hostname): $input"
{' '.join(quoted)}
"""


def first_difference(got, want, where="cluster"):
    """The path of the first value that differs, to say what to look at."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in sorted(set(got) | set(want)):
            if key not in got or key not in want:
                return f"{where}.{key} (only in {'direct' if key in want else 'merge'})"
            if got[key] != want[key]:
                return first_difference(got[key], want[key], f"{where}.{key}")
    if isinstance(got, list) and isinstance(want, list):
        if len(got) != len(want):
            return f"{where} ({len(got)} entries, direct has {len(want)})"
        for i, (g, w) in enumerate(zip(got, want)):
            if g != w:
                return first_difference(g, w, f"{where}[{i}]")
    return f"{where}: {json.dumps(got)[:80]} vs direct {json.dumps(want)[:80]}"


def cluster_of(stdout, what):
    try:
        report = json.loads(stdout)
        return [job.get("cluster") for job in report["jobs"]]
    except (ValueError, KeyError, TypeError) as e:
        raise Failure(f"{what}: no jobs[*].cluster in its JSON ({e}): {stdout[:300]!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("perfdx")
    ap.add_argument("--task-command", default=os.environ.get("PERFDX_SLURM_TASK_COMMAND", TASK_COMMAND))
    ap.add_argument("--merge-command", default=os.environ.get("PERFDX_SLURM_MERGE_COMMAND", MERGE_COMMAND))
    ap.add_argument("--direct-command", default=os.environ.get("PERFDX_SLURM_DIRECT_COMMAND", DIRECT_COMMAND))
    ap.add_argument("--keep", action="store_true", help="keep the temp dir (for debugging)")
    args = ap.parse_args()
    perfdx = os.path.abspath(args.perfdx)

    if not os.path.isdir(os.path.join(SHARED, "traces")):
        print(f"FAIL: ../shared not found: looked for {SHARED}/traces", file=sys.stderr)
        return 1
    # Debian puts munged, mungekey, slurmctld and slurmd in /usr/sbin.
    path = os.environ.get("PATH", "").split(os.pathsep)
    os.environ["PATH"] = os.pathsep.join(path + [d for d in ("/usr/sbin", "/sbin") if d not in path])
    missing = [b for b in BINARIES if shutil.which(b) is None]
    if missing:
        print(f"FAIL: {' '.join(missing)} not found: scripts/deps.sh installs them "
              "(Debian's slurm-wlm and munge)", file=sys.stderr)
        return 1

    if os.geteuid() != 0:
        # SlurmUser=root and slurmd launching tasks need root (CI runs as root).
        print("FAIL: the Slurm test runs as root (it starts slurmctld and slurmd)", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, on_sigterm)
    tmp = tempfile.mkdtemp(prefix="perfdx-slurm-")
    os.chmod(tmp, 0o700)  # munged refuses a socket dir others can write
    cluster = Cluster(tmp)
    try:
        cluster.start()
        inputs = [(job, os.path.join(SHARED, rel)) for job, ranks in JOBS.items() for rel in ranks]
        for _, path in inputs:
            if not os.path.exists(path):
                raise Failure(f"shared input missing: {path}")
        list_file = os.path.join(tmp, "ranks.list")
        with open(list_file, "w") as f:
            f.writelines(path + "\n" for _, path in inputs)
        out_dir = os.path.join(tmp, "out")
        os.mkdir(out_dir)
        script = os.path.join(tmp, "summarize.sbatch")
        with open(script, "w") as f:
            f.write(batch_script(args.task_command, perfdx, list_file, out_dir))
        n = len(inputs)
        p = subprocess.run(
            ["sbatch", "--wait", f"--array=0-{n - 1}", "--job-name=perfdx-summarize",
             f"--output={tmp}/task_%a.out", f"--chdir={REPO}", script],
            env=cluster.env, capture_output=True, text=True, timeout=ARRAY_TIMEOUT_S,
            preexec_fn=die_with_parent)
        task_logs = "".join(f"--- task {i}\n{tail(os.path.join(tmp, f'task_{i}.out'))}" for i in range(n))
        if p.returncode != 0:
            raise Failure(f"sbatch --wait --array=0-{n - 1} exited {p.returncode}: "
                          f"{(p.stdout + p.stderr).strip()}\n{task_logs}{cluster.log_tails()}")
        summaries = [os.path.join(out_dir, f"{i}.summary") for i in range(n)]
        absent = [s for s in summaries if not os.path.isfile(s) or os.path.getsize(s) == 0]
        if absent:
            raise Failure(f"array tasks left no summary: {' '.join(absent)}\n{task_logs}")
        print(f"array of {n} tasks done: {(p.stdout).strip()}")

        failures = []
        for job in JOBS:
            idx = [i for i, (j, _) in enumerate(inputs) if j == job]
            merged = run(expand(args.merge_command, perfdx=perfdx, summaries=[summaries[i] for i in idx]),
                         cluster.env, f"merge of {job}")
            direct = run(expand(args.direct_command, perfdx=perfdx, inputs=[inputs[i][1] for i in idx]),
                         cluster.env, f"direct analysis of {job}")
            got, want = cluster_of(merged, f"merge of {job}"), cluster_of(direct, f"direct analysis of {job}")
            if not want or any(c is None for c in want):
                failures.append(f"{job}: direct analysis has no jobs[*].cluster")
            elif got != want:
                failures.append(f"{job}: jobs[*].cluster of the merged summaries differs from direct "
                                f"analysis at {first_difference(got, want)}")
            else:
                print(f"ok {job}: {len(idx)} ranks, jobs[*].cluster equal")
        if failures:
            raise Failure("; ".join(failures))
        return 0
    except (Failure, subprocess.TimeoutExpired) as e:
        print(f"FAIL: {e}", file=sys.stderr)
        return 1
    finally:
        cluster.stop()
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
