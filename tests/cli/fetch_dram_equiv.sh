#!/usr/bin/env bash
# fetch_dram_equiv.sh -- the exact equivalences of the fetch-dram spec §8
# items 2-4 on the tesla8 preset (the common fetch framework), at size tiny:
#  2. BAR and ALL give identical statistics on kernels without barriers
#     (blackscholes, coulomb, mersenne);
#  3. on kernels whose warps are all equally long (blackscholes, coulomb:
#     max/min 1.000), ALL = FAIR, and FRFAIR = REMINST under RR fetch;
#  4. with a single warp per SM (PTX kernels of one-warp CTAs, one CTA per
#     SM) every fetch policy gives identical statistics.
# And a kernel with barriers and unequal warps (nw) where the oracle
# policies do differ, so the comparisons can fail.  Needs nvcc and the CUDA
# shims for 2-3: exits 77 (skipped) without them.
# Run by ctest: bash fetch_dram_equiv.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench_tiny.sh"   # skip without CUDA, $tmp, fail()
run() { bench_tiny tesla8 "$@"; }  # BENCH TAG SETTINGS...

# same STATS_A STATS_B WHAT: the statistics JSONs are equal but for the
# settings that name the policies
same() {
  python3 - "$1" "$2" "$3" <<'PY' || fail "$3"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    d.pop("timing_settings", None)
assert a["total"]["cycles"] > 0
for k in sorted(set(a) | set(b)):
    assert a.get(k) == b.get(k), "%s: '%s' differs" % (sys.argv[3], k)
PY
}
differ() {
  python3 - "$1" "$2" <<'PY' || fail "$3: identical, the comparison cannot tell policies apart"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["total"] != b["total"]
PY
}

for b in blackscholes coulomb mersenne; do
  run "$b" all fetch_policy=all
  run "$b" bar fetch_policy=bar
  same "$tmp/$b.all.json" "$tmp/$b.bar.json" "$b: BAR vs ALL without barriers"
done
for b in blackscholes coulomb; do
  run "$b" fair fetch_policy=fair
  same "$tmp/$b.all.json" "$tmp/$b.fair.json" "$b: ALL vs FAIR with equal warps"
  run "$b" frfair dram_scheduler=frfair
  run "$b" reminst dram_scheduler=reminst
  same "$tmp/$b.frfair.json" "$tmp/$b.reminst.json" "$b: FRFAIR vs REMINST with equal warps"
done
# the same comparisons must see a difference where the premise fails
run nw all fetch_policy=all
run nw fair fetch_policy=fair
differ "$tmp/nw.all.json" "$tmp/nw.fair.json" "nw: ALL vs FAIR"

# 4: one 32-thread CTA per SM at a time (max_ctas_per_sm=1): one warp
ptx="$src/tests/kernels/divergence.ptx"
args=(--grid 24 --block 32 --arg buf:4096 --arg buf:4096 --arg u32:768 --arg u32:40)
first=""
for f in rr icount lrf fair all bar mem-bar; do
  "$ws" run "$ptx" collatz "${args[@]}" --config tesla8 --set max_ctas_per_sm=1 \
      --set fetch_policy=$f --stats-json "$tmp/one.$f.json" >"$tmp/out" 2>"$tmp/err" \
    || fail "one warp per SM, $f: $(tail -2 "$tmp/err")"
  python3 - "$tmp/one.$f.json" "$first" "$f" <<'PY' || fail "one warp per SM: $f differs from rr"
import json, sys
a = json.load(open(sys.argv[1]))["total"]
assert a["gpu_tot_sim_cycle"] > 0
if sys.argv[2]:
    b = json.load(open(sys.argv[2]))["total"]
    assert a == b, sys.argv[3]
PY
  [ -n "$first" ] || first="$tmp/one.$f.json"
done

[ "$bad" -eq 0 ] && echo "fetch-dram equivalences: ok"
exit "$bad"
