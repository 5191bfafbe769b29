#!/usr/bin/env bash
# sweep_backend_usage.sh -- the backend options of `warpsim sweep` refuse
# bad input before anything is written: an unknown --backend, an option of
# another backend (--hosts without parallel, --partition without slurm),
# --jobs with a remote backend, a bad --chunk, sbatch missing from PATH,
# `warpsim sweep-collect` of a folder that is no remote sweep, and
# `warpsim run-point` with a point out of range; each exits 2 with a
# message naming the option.  Needs no CUDA, Slurm or GNU parallel.
# Run by ctest: bash sweep_backend_usage.sh WARPSIM SOURCE_DIR
ws="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@"; }
cat >"$tmp/e.json" <<'J'
{"name": "u", "benchmarks": ["kmeans"], "configs": [{"name": "a"}], "collect": ["total.warp_insns"]}
J
refused() {  # EXPECTED-MESSAGE ARGS...
  local want="$1"; shift
  run "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  [ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2"
  grep -qF -- "$want" "$tmp/err" || fail "$*: message: $(cat "$tmp/err")"
}
refused "--backend 'pbs': expected local, slurm or parallel" sweep "$tmp/e.json" --backend pbs --out "$tmp/o"
refused "--hosts is an option of --backend parallel, not of --backend slurm" \
  sweep "$tmp/e.json" --backend slurm --hosts "$tmp/h" --out "$tmp/o"
refused "--partition is an option of --backend slurm, not of --backend parallel" \
  sweep "$tmp/e.json" --backend parallel --partition x --out "$tmp/o"
refused "--chunk is an option of --backend slurm|parallel, not of --backend local" \
  sweep "$tmp/e.json" --chunk 2 --out "$tmp/o"
refused "--time is an option of --backend slurm, not of --backend local" \
  sweep "$tmp/e.json" --time 1:00 --out "$tmp/o"
refused "--jobs is for --backend local" sweep "$tmp/e.json" --backend parallel --jobs 2 --out "$tmp/o"
refused "--chunk '0': expected a number from 1 to 1000000" sweep "$tmp/e.json" --backend slurm --chunk 0
# an empty PATH: no sbatch (warpsim by its full path)
PATH="$tmp/none" LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" sweep "$tmp/e.json" --backend slurm \
  --out "$tmp/o" >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "no sbatch: exit $rc, want 2"
grep -qF -- "--backend slurm: sbatch and squeue not found on PATH" "$tmp/err" || fail "no sbatch: $(cat "$tmp/err")"
[ ! -e "$tmp/o" ] || fail "a refused sweep created its output folder"
mkdir "$tmp/plain"
refused "remote.json: not the record of a remote sweep" sweep-collect "$tmp/plain"
refused "INDEX '5': expected point numbers 0 to 0" run-point "$tmp/e.json" 5 --out "$tmp/o"
run sweep --help | grep -q -- "--backend local|slurm|parallel" || fail "sweep --help lacks --backend"
run sweep-collect --help | grep -q "usage: warpsim sweep-collect DIR" || fail "sweep-collect --help"
run --help | grep -q "^  sweep-collect " || fail "--help does not list sweep-collect"
[ "$bad" -eq 0 ] && echo "sweep_backend_usage: ok"
exit $bad
