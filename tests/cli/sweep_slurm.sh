#!/usr/bin/env bash
# sweep_slurm.sh -- `warpsim sweep --backend slurm` against a real Slurm:
# starts a single-node cluster on this machine (munged with its own key and
# socket, slurmctld and slurmd from a generated slurm.conf, node on
# 127.0.0.1, all state, spool and logs under the test's temporary folder,
# ports picked at random) and stops it on exit, nothing left running.
# Checks: a 4-point experiment's results.csv equals the local backend's
# byte for byte; with --max-parallel 1 a task cancelled with scancel is
# reported failed by point name (exit 1); --resume --submit-only submits
# only that point and `warpsim sweep-collect` then gives the local bytes.
# Exits 77 naming what is missing when Slurm, munge or nvcc are absent
# (scripts/bootstrap.sh installs slurm-wlm and munge).
# Run by ctest: bash sweep_slurm.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
export PATH="$PATH:/usr/sbin:/sbin"
for p in munged slurmctld slurmd sbatch squeue scancel scontrol; do
  command -v "$p" >/dev/null || { echo "SKIP: $p not found: Slurm and munge are not installed (scripts/bootstrap.sh)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: a private slurmd runs jobs as root only: this test needs root"; exit 77; }
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; chmod 755 "$tmp"
stop() {   # slurmd, slurmctld, munged, each by its pid file, then wait for them
  for d in slurmd slurmctld munged; do
    [ -s "$tmp/run/$d.pid" ] && kill "$(cat "$tmp/run/$d.pid")" 2>/dev/null
  done
  for _ in $(seq 50); do
    alive=0
    for d in slurmd slurmctld munged; do
      [ -s "$tmp/run/$d.pid" ] && kill -0 "$(cat "$tmp/run/$d.pid" 2>/dev/null)" 2>/dev/null && alive=1
    done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  rm -rf "$tmp"
}
trap stop EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@"; }
# LD_PRELOAD (the ASan runtime in the sanitizer build, for the benchmark
# programs) reaches sbatch, squeue, scontrol and, through sbatch's
# environment, the job: those programs are not ours, and LeakSanitizer
# would fail them on their own leaks at exit.  So the commands that run
# them go without leak checks; run-point and sweep-collect are checked
# for leaks by sweep_parallel.sh.
remote() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" run "$@"; }

# ---- the cluster ----
r="$tmp/run"; mkdir -p "$r/state" "$r/spool" "$r/log"; chmod 700 "$r"
head -c 1024 /dev/urandom >"$r/munge.key"; chmod 600 "$r/munge.key"
munged --socket="$r/munge.sock" --key-file="$r/munge.key" --pid-file="$r/munged.pid" \
  --log-file="$r/log/munged.log" --seed-file="$r/munge.seed" --force \
  || { echo "FAIL: munged did not start"; exit 1; }
# two free ports next to each other (ss, when there, says which are taken)
for _ in $(seq 20); do
  port=$((20000 + RANDOM % 40000))
  command -v ss >/dev/null || break
  ss -Htan 2>/dev/null | grep -Eq ":($port|$((port + 1)))\b" || break
done
cat >"$r/slurm.conf" <<C
ClusterName=wstest$$
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$r/munge.sock
StateSaveLocation=$r/state
SlurmdSpoolDir=$r/spool
SlurmctldPidFile=$r/slurmctld.pid
SlurmdPidFile=$r/slurmd.pid
SlurmctldLogFile=$r/log/slurmctld.log
SlurmdLogFile=$r/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
InactiveLimit=0
KillWait=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
C
export SLURM_CONF="$r/slurm.conf"
slurmctld -f "$SLURM_CONF" -i || { echo "FAIL: slurmctld did not start: $(tail -5 "$r/log/slurmctld.log")"; exit 1; }
slurmd -f "$SLURM_CONF" -N localhost || { echo "FAIL: slurmd did not start: $(tail -5 "$r/log/slurmd.log")"; exit 1; }
for _ in $(seq 100); do
  sinfo -h -o %t 2>/dev/null | grep -qx idle && break
  sleep 0.2
done
sinfo -h -o %t | grep -qx idle || { echo "FAIL: the node is not idle: $(sinfo 2>&1; tail -5 "$r/log/slurmd.log")"; exit 1; }

# ---- the experiment: 4 tiny points ----
cat >"$tmp/e.json" <<'J'
{"name": "slurmtest", "benchmarks": ["kmeans", "coulomb"], "sizes": ["tiny"],
 "configs": [{"name": "lrr", "set": ["warp_scheduler=lrr"]},
             {"name": "gto", "set": ["warp_scheduler=gto"]}],
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"},
             "total.L1D_total_cache_miss_rate",
             {"name": "launches", "path": "report.total.launches"},
             {"name": "insns", "path": "total.warp_insns"}],
 "derived": [{"name": "speedup", "kind": "speedup", "of": "cycles", "baseline": "lrr"}]}
J
run sweep "$tmp/e.json" --bin-dir "$tmp/bin" --out "$tmp/local" >/dev/null 2>"$tmp/local.err" \
  || { echo "FAIL: the local sweep failed: $(tail -5 "$tmp/local.err")"; exit 1; }

# the whole experiment on Slurm: the same bytes
remote sweep "$tmp/e.json" --bin-dir "$tmp/bin" --backend slurm --out "$tmp/s1" >"$tmp/s1.out" 2>"$tmp/s1.err"; rc=$?
[ "$rc" -eq 0 ] || fail "--backend slurm exited $rc: $(tail -5 "$tmp/s1.err")"
cmp -s "$tmp/local/results.csv" "$tmp/s1/results.csv" || fail "results.csv differs from the local backend's"
cmp -s "$tmp/local/derived.csv" "$tmp/s1/derived.csv" || fail "derived.csv differs from the local backend's"
[ "$(wc -l <"$tmp/s1/runs.jsonl")" -eq 4 ] || fail "runs.jsonl: want 4 lines"
grep -q '^#SBATCH --array=1-4$' "$tmp/s1/slurm/job.sh" || fail "job.sh: $(cat "$tmp/s1/slurm/job.sh")"
grep -q ' run-point ' "$tmp/s1/slurm/job.sh" || fail "job.sh does not run run-point"
grep -Eq '^sweep: job [0-9]+: 4/4 points done, 0 running, 0 pending, 0 failed$' "$tmp/s1.err" \
  || fail "no progress line: $(cat "$tmp/s1.err")"

# one task at a time; the last one cancelled while it waits: reported by point
remote sweep "$tmp/e.json" --bin-dir "$tmp/bin" --backend slurm --max-parallel 1 --out "$tmp/s2" \
  >"$tmp/s2.out" 2>"$tmp/s2.err" &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/s2/remote.json" ] && break; sleep 0.1; done
job=$(sed -n 's/^ *"job": "\([0-9]*\)".*/\1/p' "$tmp/s2/remote.json")
[ -n "$job" ] || fail "no job id in remote.json"
scancel "${job}_4"
wait $pid; rc=$?
[ "$rc" -eq 1 ] || fail "a cancelled task: exit $rc, want 1: $(cat "$tmp/s2.err")"
grep -q "^sweep: crash coulomb tiny gto: Slurm task ${job}_4 " "$tmp/s2.err" \
  || fail "the cancelled point is not named: $(cat "$tmp/s2.err")"
grep -q '^sweep: 4 points, 3 ok, 1 failed' "$tmp/s2.out" || fail "summary: $(cat "$tmp/s2.out")"
grep -Eq '^coulomb,tiny,gto,,[0-9a-f]{16},crash,-1,,,,$' "$tmp/s2/results.csv" \
  || fail "the cancelled point's row: $(cat "$tmp/s2/results.csv")"

# --resume --submit-only: only that point; sweep-collect gives the local bytes
remote sweep "$tmp/e.json" --bin-dir "$tmp/bin" --backend slurm --resume --submit-only --out "$tmp/s2" \
  >"$tmp/s3.out" 2>"$tmp/s3.err"; rc=$?
[ "$rc" -eq 0 ] || fail "--resume --submit-only exited $rc: $(cat "$tmp/s3.err")"
grep -q '4 points, 1 to run (3 kept)' "$tmp/s3.err" || fail "--resume: $(cat "$tmp/s3.err")"
grep -q '^#SBATCH --array=1-1$' "$tmp/s2/slurm/job.sh" || fail "--resume submitted more than one task"
job=$(sed -n 's/^ *"job": "\([0-9]*\)".*/\1/p' "$tmp/s2/remote.json")
for _ in $(seq 300); do [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break; sleep 0.1; done
remote sweep-collect "$tmp/s2" >"$tmp/c.out" 2>"$tmp/c.err"; rc=$?
[ "$rc" -eq 0 ] || fail "sweep-collect exited $rc: $(cat "$tmp/c.err" "$tmp/c.out")"
cmp -s "$tmp/local/results.csv" "$tmp/s2/results.csv" || fail "after --resume, results.csv differs from the local backend's"
cmp -s "$tmp/local/derived.csv" "$tmp/s2/derived.csv" || fail "after --resume, derived.csv differs"

[ "$bad" -eq 0 ] && echo "sweep_slurm: ok"
exit $bad
