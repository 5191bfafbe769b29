#!/usr/bin/env bash
# owl_prefetch_identity.sh -- OWL spec Sec. 8 item 3, second half: the `owl`
# DRAM prefetcher with pf_lower = pf_higher = 0 (prefetch degree 0) is
# cycle-identical to no prefetcher.  On the bundled triad (a streaming,
# memory-bound kernel) at size tiny on the owl28 preset, `dram_prefetch=owl`
# with `pf_lower=0,pf_higher=0` gives per launch the same cycles,
# instructions, L1D, L2 and DRAM counts as `dram_prefetch=none` and issues no
# prefetch; the default `owl` does prefetch, its lines fill the L2, and the report carries prefetch accuracy and coverage.
# Needs nvcc and the CUDA shims: exits 77 (skipped) without them.
# Run by ctest: bash owl_prefetch_identity.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench_tiny.sh"   # skip without CUDA, $tmp, fail()
BENCH_TINY_OPTS=(--per-kernel)
run() { bench_tiny owl28 triad "$@"; }  # TAG SETTINGS...: $tmp/triad.TAG.json

run none dram_prefetch=none
run zero dram_prefetch=owl dram_prefetch_params=pf_lower=0,pf_higher=0
run owl dram_prefetch=owl
python3 - "$tmp/triad.none.json" "$tmp/triad.zero.json" "$tmp/triad.owl.json" <<'PY' || fail "see above"
import json, sys
none, zero, owl = (json.load(open(f)) for f in sys.argv[1:4])
KEYS = ("gpu_sim_cycle", "gpu_sim_insn", "L1D_total_cache_accesses",
        "L1D_total_cache_misses", "L2_total_cache_accesses", "L2_total_cache_misses")
MEM = ("n_rd", "n_write", "n_act", "n_pre", "dram_row_hits", "dram_bus_busy_cycles",
       "dram_avg_queue_latency")

def launches(d):
    return list(d["kernels"]) + list(d["launches"])

la, lb = launches(none), launches(zero)
assert len(la) == len(lb) > 0, "%d vs %d launches" % (len(la), len(lb))
for i, (x, y) in enumerate(zip(la, lb)):
    for k in KEYS:
        assert x[k] == y[k], "launch %d %s: none %s, owl(0,0) %s" % (i, k, x[k], y[k])
    for k in MEM:
        assert x["memsys"][k] == y["memsys"][k], \
            "launch %d memsys.%s: none %s, owl(0,0) %s" % (i, k, x["memsys"][k], y["memsys"][k])
assert none["total"]["cycles"] == zero["total"]["cycles"]
z, o = zero["total"]["memsys"], owl["total"]["memsys"]
assert z["dram_prefetch_reads"] == 0 and z["L2_prefetch_fills"] == 0, z
assert o["dram_prefetch_reads"] > 0, "the default owl prefetched nothing"
# a read issued as a kernel ends may fill during the next (counted there)
assert 0 < o["L2_prefetch_fills"] <= o["dram_prefetch_reads"], o
useful = o["L2_prefetch_hits"] + o["L2_prefetch_merges"]
assert abs(o["L2_prefetch_accuracy"] - useful / o["dram_prefetch_reads"]) < 1e-6, o
assert 0 < o["L2_prefetch_coverage"] <= 1, o
print("triad tiny owl28: none %d cycles = owl(0,0) %d; owl %d cycles, %d prefetches, "
      "accuracy %.3f, coverage %.3f" % (none["total"]["cycles"], zero["total"]["cycles"],
      owl["total"]["cycles"], o["dram_prefetch_reads"], o["L2_prefetch_accuracy"],
      o["L2_prefetch_coverage"]))
PY
[ "$bad" -eq 0 ] && echo "owl_prefetch_identity: ok"
exit "$bad"
