#!/usr/bin/env bash
# sweep_parallel.sh -- `warpsim sweep --backend parallel`: GNU parallel
# runs the points on this machine (-S :, then through --hosts with a
# login file naming ":", 2 jobs, 2 points per task) and results.csv and
# derived.csv equal the local backend's byte for byte; the joblog is kept;
# `warpsim sweep-collect` of the folder gives the same bytes again, and
# `warpsim run-point` run by hand leaves an ok record per point;
# a point whose task dies (a bad --set) is reported failed by point name
# with exit 1 and --resume reruns only it.  Exits 77 naming what is
# missing when GNU parallel or nvcc are absent (scripts/bootstrap.sh
# installs parallel).
# Run by ctest: bash sweep_parallel.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
command -v parallel >/dev/null || { echo "SKIP: GNU parallel not found (scripts/bootstrap.sh installs it)"; exit 77; }
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@"; }
# LD_PRELOAD (the ASan runtime in the sanitizer build, for the benchmark
# programs) reaches GNU parallel (perl) too: LeakSanitizer would fail it on
# leaks that are not ours, so sweeps through it go without leak checks;
# run-point and sweep-collect are run directly below, with them.
remote() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" run "$@"; }

cat >"$tmp/e.json" <<'J'
{"name": "partest", "benchmarks": ["kmeans", "coulomb"], "sizes": ["tiny"],
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

remote sweep "$tmp/e.json" --bin-dir "$tmp/bin" --backend parallel --out "$tmp/p1" >"$tmp/p1.out" 2>"$tmp/p1.err"; rc=$?
[ "$rc" -eq 0 ] || fail "--backend parallel exited $rc: $(tail -5 "$tmp/p1.err")"
cmp -s "$tmp/local/results.csv" "$tmp/p1/results.csv" || fail "results.csv differs from the local backend's"
cmp -s "$tmp/local/derived.csv" "$tmp/p1/derived.csv" || fail "derived.csv differs from the local backend's"
[ "$(grep -c ' run-point ' "$tmp/p1/parallel/joblog")" -eq 4 ] || fail "joblog: $(cat "$tmp/p1/parallel/joblog")"
grep -q '^sweep: 4 points, 4 ok, 0 failed' "$tmp/p1.out" || fail "summary: $(cat "$tmp/p1.out")"

# sweep-collect of that folder, and one task by hand: the same code
# (leak-checked in the sanitizer build)
run sweep-collect "$tmp/p1" >"$tmp/c.out" 2>"$tmp/c.err"; rc=$?
[ "$rc" -eq 0 ] || fail "sweep-collect exited $rc: $(cat "$tmp/c.err")"
cmp -s "$tmp/local/results.csv" "$tmp/p1/results.csv" || fail "sweep-collect changed results.csv"
run run-point "$tmp/e.json" 1,0 --bin-dir "$tmp/bin" --out "$tmp/rp" >/dev/null 2>"$tmp/rp.err"; rc=$?
[ "$rc" -eq 0 ] || fail "run-point exited $rc: $(cat "$tmp/rp.err")"
for h in $(awk -F, 'NR==2||NR==3{print $5}' "$tmp/local/results.csv"); do
  grep -q "\"hash\":\"$h\",\"status\":\"ok\"" "$tmp/rp/points/$h.json" 2>/dev/null \
    || fail "run-point left no ok record for $h"
done

# through a login file (":" = this machine), 2 points per task
echo ":" >"$tmp/hosts"
remote sweep "$tmp/e.json" --bin-dir "$tmp/bin" --backend parallel --hosts "$tmp/hosts" --max-parallel 2 --chunk 2 \
  --out "$tmp/p2" >/dev/null 2>"$tmp/p2.err"; rc=$?
[ "$rc" -eq 0 ] || fail "--hosts exited $rc: $(tail -5 "$tmp/p2.err")"
cmp -s "$tmp/local/results.csv" "$tmp/p2/results.csv" || fail "--hosts --chunk 2: results.csv differs"
[ "$(grep -c ' run-point ' "$tmp/p2/parallel/joblog")" -eq 2 ] || fail "--chunk 2 ran other than 2 tasks"

# a failing point is named; --resume reruns only it
sed 's/"warp_scheduler=gto"/"no_such_key=1"/' "$tmp/e.json" >"$tmp/f.json"
remote sweep "$tmp/f.json" --bin-dir "$tmp/bin" --backend parallel --out "$tmp/p3" >"$tmp/p3.out" 2>"$tmp/p3.err"; rc=$?
[ "$rc" -eq 1 ] || fail "failing points: exit $rc, want 1"
grep -q '^sweep: error kmeans tiny gto: ' "$tmp/p3.err" || fail "the failed point is not named: $(cat "$tmp/p3.err")"
remote sweep "$tmp/e.json" --bin-dir "$tmp/bin" --backend parallel --resume --out "$tmp/p3" >/dev/null 2>"$tmp/p4.err"; rc=$?
[ "$rc" -eq 0 ] || fail "--resume exited $rc: $(tail -5 "$tmp/p4.err")"
grep -q '4 points, 2 to run (2 kept)' "$tmp/p4.err" || fail "--resume: $(head -1 "$tmp/p4.err")"
cmp -s "$tmp/local/results.csv" "$tmp/p3/results.csv" || fail "after --resume, results.csv differs"

[ "$bad" -eq 0 ] && echo "sweep_parallel: ok"
exit $bad
