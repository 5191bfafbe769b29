#!/usr/bin/env bash
# saturation_chain.sh -- the memory system's back-pressure chain on a
# memory-intensive bundled benchmark (btree: scattered, dependent lookups),
# size tiny, gtx480: full L2 MSHRs/queues refuse requests, the interconnect
# backs up (credit stalls), L1 MSHRs fill and reservations fail, the LSU
# stalls -- each visible in the timing report; with unlimited MSHRs and
# queues (unlimited_mem) the same benchmark runs clearly faster (< 0.9x the
# cycles: btree's 128 CTAs are a second wave on 120 CTA slots, so its last
# CTAs' end, and the total, move by thousands of cycles with small changes;
# 0.76 before FUNC_END stopped being issued, 0.86 after).  (A bandwidth-bound benchmark such as spmv does not get faster:
# more requests in flight thrash L1/L2 and DRAM stays saturated.)  Needs nvcc and the CUDA shims: exits 77 (skipped) without them.
# Run by ctest: bash saturation_chain.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the btree benchmark"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

# value of the first "KEY": N after the "total" object of a timing report
total() { sed -n '/^  "total": {/,$p' "$1" | grep -m1 "\"$2\":" | sed 's/.*: *\([0-9.]*\).*/\1/'; }

run() {  # NAME [--set k=v]...
  local name="$1"; shift
  LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" bench run btree --size tiny --bin-dir "$tmp" \
    --quiet --config gtx480 "$@" --timing-report "$tmp/$name.json" \
    >"$tmp/$name.out" 2>"$tmp/$name.err"
  local rc=$?
  [ "$rc" -eq 0 ] || fail "btree ($name) exited $rc: $(tail -3 "$tmp/$name.err")"
  grep -q "^PASS btree" "$tmp/$name.out" || fail "btree ($name) did not verify"
}
run limited
run unlimited --set unlimited_mem=true
[ "$bad" -eq 0 ] || exit 1

for key in L2_total_cache_reservation_fails l2_input_full_cycles icnt_req_credit_stalls \
           L1D_total_cache_reservation_fails lsu_stall_cycles; do
  v="$(total "$tmp/limited.json" "$key")"
  [ -n "$v" ] || { fail "no $key in the timing report"; continue; }
  awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "$key is $v: that link of the chain is not visible"
  echo "limited: $key = $v"
done
occ="$(total "$tmp/limited.json" L1D_mshr_occupancy_per_sm_avg)"
echo "limited: L1D_mshr_occupancy_per_sm_avg = $occ"
awk -v v="$occ" 'BEGIN { exit !(v > 16) }' || fail "L1D MSHRs hardly in use ($occ per SM)"

a="$(total "$tmp/limited.json" gpu_tot_sim_cycle)"
b="$(total "$tmp/unlimited.json" gpu_tot_sim_cycle)"
echo "cycles: limited $a, unlimited $b"
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b < 0.9 * a) }' \
  || fail "unlimited_mem is not clearly faster ($b vs $a cycles)"
u="$(total "$tmp/unlimited.json" L2_total_cache_reservation_fails)"
[ "$u" = 0 ] || fail "unlimited_mem still has $u L2 reservation fails"
[ "$bad" -eq 0 ] && echo "saturation chain: ok"
exit "$bad"
