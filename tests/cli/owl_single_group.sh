#!/usr/bin/env bash
# owl_single_group.sh -- OWL spec Sec. 8 item 3 (first half): when every core
# has a single CTA group, owl-cta, owl-locality and owl-blp are
# cycle-identical to the round-robin baseline `lrr`.  On the owl28 preset
# at size tiny, two ways of getting one group per core:
#  - g_size=1024: more warps than a core holds, so FORM_GROUPS makes one
#    group of all N CTAs (spec 2.1 edge case), on bfs, kmeans, spmv;
#  - the default g_size=8 with max_ctas_per_sm=1 (N = 1, the WP-like case
#    of spec 7.5), on bfs and streamcluster;
# per launch the same cycles, instructions and L1D counts as lrr, and the
# policy counters say one group per SM (groups = SMs) and no group switch.
# A default owl-blp run on the same machine must form more groups than SMs
# on some launch, so the check is not vacuous.  Needs nvcc and the CUDA
# shims: exits 77 (skipped) without them.
# Run by ctest: bash owl_single_group.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench_tiny.sh"   # skip without CUDA, $tmp, fail()
BENCH_TINY_OPTS=(--per-kernel)
run() { bench_tiny owl28 "$@"; }  # BENCH TAG SETTINGS...

# compare BENCH BASE_TAG TAG...: each TAG's run equals BASE_TAG's, one group per SM
compare() {
  local b="$1"; shift
  python3 - "$tmp" "$b" "$@" <<'PY' || fail "$b: see above"
import json, sys
tmp, b, base, tags = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
load = lambda t: json.load(open("%s/%s.%s.json" % (tmp, b, t)))
KEYS = ("gpu_sim_cycle", "gpu_sim_insn", "L1D_total_cache_accesses",
        "L1D_total_cache_misses", "L2_total_cache_accesses")
ref = load(base)
nsms = 28
for t in tags:
    d = load(t)
    la, lb = ref["launches"], d["launches"]
    assert len(la) == len(lb) > 0, "%s: %d vs %d launches" % (t, len(la), len(lb))
    for i, (x, y) in enumerate(zip(la, lb)):
        for key in KEYS:
            assert x[key] == y[key], "%s %s launch %d: %s %s vs %s" % (b, t, i, key, x[key], y[key])
        p = y["policy"]
        assert p["groups"] == nsms, "%s %s launch %d: groups %s" % (b, t, i, p)
        assert p["group_switches"] == 0 and p["top_rotations"] == 0, p
    assert ref["total"]["cycles"] == d["total"]["cycles"]
    print("%s: %s cycles %d = %s" % (b, base, ref["total"]["cycles"], t))
PY
}

for b in bfs kmeans spmv; do
  run "$b" lrr warp_scheduler=lrr
  for s in owl-cta owl-locality owl-blp; do
    run "$b" "$s" warp_scheduler=$s warp_scheduler_params=g_size=1024
  done
  compare "$b" lrr owl-cta owl-locality owl-blp
done
for b in bfs streamcluster; do
  run "$b" lrr1 warp_scheduler=lrr max_ctas_per_sm=1
  for s in owl-cta owl-locality owl-blp; do
    run "$b" "$s.1" warp_scheduler=$s max_ctas_per_sm=1
  done
  compare "$b" lrr1 owl-cta.1 owl-locality.1 owl-blp.1
done
# the default groups on this machine: more than one group on some SM
run bfs blp warp_scheduler=owl-blp
python3 - "$tmp/bfs.blp.json" <<'PY' || fail "default owl-blp formed one group per SM only"
import json, sys
d = json.load(open(sys.argv[1]))
g = [l["policy"]["groups"] for l in d["launches"]]
assert max(g) > 28, g
print("bfs owl-blp default: groups per launch %s, switches %d" %
      (g, d["total"]["policy"]["group_switches"]))
PY
[ "$bad" -eq 0 ] && echo "owl_single_group: ok"
exit "$bad"
