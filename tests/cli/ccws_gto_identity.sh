#!/usr/bin/env bash
# ccws_gto_identity.sh -- CCWS spec Sec. 8 item 2: with zero VTA hits CCWS is
# cycle-identical to GTO.  On the cache-sensitive bundled benchmarks (bfs,
# kmeans, memcached, gcmark) and a cache-insensitive one (blackscholes), at
# size tiny on the fx5800 preset: `ccws` with vta_sets=0 (no victim tags,
# so no VTA hit is possible) gives per launch the same cycles, instructions
# and L1D counts as `gto`, and reports its counters (no hits, no vetoes);
# default `ccws` runs also report their counters, and any run among them
# that saw no VTA hit must equal GTO too.  l1d_classify changes no cycle
# and classifies the reads.  Needs nvcc and the CUDA shims:
# exits 77 (skipped) without them.
# Run by ctest: bash ccws_gto_identity.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench_tiny.sh"   # skip without CUDA, $tmp, fail()
BENCH_TINY_OPTS=(--per-kernel)
run() { bench_tiny fx5800 "$@"; }  # BENCH TAG SETTINGS...

for b in bfs kmeans memcached gcmark blackscholes; do
  run "$b" gto warp_scheduler=gto
  run "$b" novta warp_scheduler=ccws warp_scheduler_params=vta_sets=0
  run "$b" ccws warp_scheduler=ccws
  python3 - "$tmp/$b.gto.json" "$tmp/$b.novta.json" "$tmp/$b.ccws.json" "$b" <<'PY' || fail "$b: see above"
import json, sys
gto, novta, ccws = (json.load(open(f)) for f in sys.argv[1:4])
name = sys.argv[4]
KEYS = ("gpu_sim_cycle", "gpu_sim_insn", "L1D_total_cache_accesses",
        "L1D_total_cache_misses")

def launches(d):
    # per kernel, then per launch (--per-kernel), as the shim reports them
    return list(d["kernels"]) + list(d["launches"])

def same(a, b, what):
    la, lb = launches(a), launches(b)
    assert len(la) == len(lb) > 0, "%s: %d vs %d launches" % (what, len(la), len(lb))
    for i, (x, y) in enumerate(zip(la, lb)):
        for key in KEYS:
            assert x[key] == y[key], "%s: launch %d %s %s vs %s" % (what, i, key, x[key], y[key])
    assert a["total"]["cycles"] == b["total"]["cycles"], what

same(gto, novta, "%s: ccws vta_sets=0 vs gto" % name)
p = novta["total"]["policy"]
assert p["vta_hits"] == 0 and p["vta_inserts"] == 0 and p["load_vetoes"] == 0, p
assert p["throttled_cycles"] == 0 and p["cycles"] > 0, p
assert "policy" not in gto["total"], "gto has no counters of its own"
q = ccws["total"]["policy"]
assert q["allowed_warps_sum"] <= q["active_warps_sum"], q
if q["vta_hits"] == 0:
    same(gto, ccws, "%s: ccws without VTA hits vs gto" % name)
print("%s: gto cycles %d = ccws(vta_sets=0) cycles %d; ccws cycles %d, vta hits %d, "
      "vetoes %d" % (name, gto["total"]["cycles"], novta["total"]["cycles"],
                     ccws["total"]["cycles"], q["vta_hits"], q["load_vetoes"]))
PY
done
# l1d_classify only counts: the same cycles as without it, and its classes
# cover the L1D's read accesses (stores are not classified)
run bfs cls warp_scheduler=gto l1d_classify=true
python3 - "$tmp/bfs.gto.json" "$tmp/bfs.cls.json" <<'PY' || fail "l1d_classify changed the run"
import json, sys
gto, cls = (json.load(open(f))["total"] for f in sys.argv[1:3])
assert gto["cycles"] == cls["cycles"] and gto["l1d_hits"] == cls["l1d_hits"]
assert "L1D_cls_misses" not in gto
c = [cls["L1D_cls_" + k] for k in ("intra_thread_hits", "inter_thread_hits",
                                   "inter_warp_hits", "misses")]
assert all(x > 0 for x in c), c
assert sum(c[:3]) <= cls["l1d_hits"] and c[3] <= cls["l1d_misses"], (c, cls["l1d_hits"])
print("bfs l1d_classify: intra-thread %d, inter-thread %d, inter-warp %d, misses %d" % tuple(c))
PY
[ "$bad" -eq 0 ] && echo "ccws_gto_identity: ok"
exit "$bad"
