#!/usr/bin/env bash
# timing_gto_lrr.sh -- the timing model end to end through `warpsim exec` on
# a cache-sensitive bundled benchmark (kmeans, size tiny): GTO and LRR give
# different L1D hit rates and cycle counts, two runs give byte-identical
# statistics and timing-report JSON, and a bad configuration stops exec
# with status 2 before the program runs.  Needs nvcc and the CUDA shims:
# exits 77 (skipped) without them.
# Run by ctest: bash timing_gto_lrr.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the kmeans benchmark"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@" >"$out" 2>"$err"; }

run bench run kmeans --size tiny --bin-dir "$tmp" --quiet; rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: building/running kmeans exited $rc: $(tail -5 "$err")"; exit 1; }

sched_run() {  # NAME SCHEDULER
  run exec --config gtx480 --set "warp_scheduler=$2" --stats-json "$tmp/$1.json" \
      --timing-report "$tmp/$1.report.json" -- "$tmp/kmeans" --size tiny
  local rc=$?
  [ "$rc" -eq 0 ] || fail "exec with $2 exited $rc: $(tail -3 "$err")"
  grep -q "^PASS kmeans" "$out" || fail "kmeans did not verify under $2"
}
sched_run lrr1 lrr
grep -q "timing model, configuration gtx480" "$err" || fail "text report does not name the timing model"
grep -q "gpu_sim_cycle = " "$err" || fail "no full timing report on stderr"
sched_run lrr2 lrr
sched_run gto gto

cmp -s "$tmp/lrr1.json" "$tmp/lrr2.json" || fail "statistics JSON of two LRR runs differ"
cmp -s "$tmp/lrr1.report.json" "$tmp/lrr2.report.json" || fail "timing reports of two LRR runs differ"
python3 - "$tmp/lrr1.json" "$tmp/gto.json" <<'PY' || fail "GTO and LRR do not differ as expected"
import json, sys
lrr = json.load(open(sys.argv[1]))["total"]
gto = json.load(open(sys.argv[2]))["total"]
print("lrr: cycles %d L1D hit rate %.4f; gto: cycles %d L1D hit rate %.4f"
      % (lrr["cycles"], lrr["l1d_hit_rate"], gto["cycles"], gto["l1d_hit_rate"]))
assert lrr["thread_insns"] == gto["thread_insns"] > 0
assert lrr["cycles"] > 0 and gto["cycles"] > 0
assert lrr["cycles"] != gto["cycles"]
assert lrr["l1d_hit_rate"] != gto["l1d_hit_rate"]
assert lrr["l1d_accesses"] > 0
PY
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["config"]["params"]["warp_scheduler"]["value"]=="gto"' \
  "$tmp/gto.report.json" || fail "timing report does not record the scheduler"

run exec --set l1d.ways=0 -- "$tmp/kmeans" --size tiny; rc=$?
[ "$rc" -eq 2 ] || fail "bad --set exited $rc, want 2"
grep -q "l1d.ways" "$err" || fail "bad --set message: $(cat "$err")"
grep -q "PASS" "$out" && fail "the program ran despite a bad configuration"
[ "$bad" -eq 0 ] && echo "timing_gto_lrr: ok"
exit "$bad"
