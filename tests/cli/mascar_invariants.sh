#!/usr/bin/env bash
# mascar_invariants.sh -- Mascar spec Sec. 9 item 14 on bundled benchmarks
# (bfs, kmeans, spmv, mummer: memory-intensive, and blackscholes: compute)
# at size tiny on the gtx480 preset.  Under the three paper configurations
# (mascar = 32-entry queue; mascar-sched = reexec_nack=0, no queue;
# mascar-reexec = sched=0, 32-entry queue) with the policy's invariant
# checks on (check=1: owner-only admission in MP mode, no NACK in EP mode,
# one instruction per warp in the queue, queue within its size; a violation
# aborts) every run must finish (no deadlock: the watchdog would fail it),
# pass its own verification, and report consistent counters.  Mascar fully
# disabled (sched=0, lsu.reexec_queue=0) must reproduce lrr bit for bit:
# the whole statistics JSON equal but for the settings and the policy's own
# counters.  Needs nvcc and the CUDA shims: exits 77 (skipped) without them.
# Run by ctest: bash mascar_invariants.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench_tiny.sh"   # skip without CUDA, $tmp, fail()
run() { bench_tiny gtx480 "$@"; }  # BENCH TAG SETTINGS...

for b in bfs kmeans spmv mummer blackscholes; do
  run "$b" lrr warp_scheduler=lrr
  run "$b" off warp_scheduler=mascar warp_scheduler_params=sched=0,check=1 lsu.reexec_queue=0
  run "$b" mascar warp_scheduler=mascar warp_scheduler_params=check=1 lsu.reexec_queue=32
  run "$b" sched warp_scheduler=mascar warp_scheduler_params=reexec_nack=0,check=1 \
      lsu.reexec_queue=0
  run "$b" reexec warp_scheduler=mascar warp_scheduler_params=sched=0,check=1 \
      lsu.reexec_queue=32
  python3 - "$tmp" "$b" <<'PY' || fail "$b: see above"
import json, sys
d, b = sys.argv[1:3]
runs = {t: json.load(open("%s/%s.%s.json" % (d, b, t)))
        for t in ("lrr", "off", "mascar", "sched", "reexec")}

def strip(x):
    # the settings differ by construction; the policy object is mascar's own
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("timing_settings", "policy")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x

assert strip(runs["lrr"]) == strip(runs["off"]), "%s: mascar off differs from lrr" % b
assert "policy" not in runs["lrr"]["total"]
for t in ("off", "mascar", "sched", "reexec"):
    tot = runs[t]["total"]
    p = tot["policy"]
    sm_cycles = tot["sm_cycles"]
    # every SM-cycle of a kernel is in one mode or the other
    assert p["mp_cycles"] + p["ep_cycles"] == sm_cycles, (t, p, sm_cycles)
    assert p["owner_releases"] <= p["owner_grants"], (t, p)
    if t in ("off", "reexec", "sched"):
        assert p["nacks"] == 0 and tot["l1_nacks"] == 0, (t, p)   # no NACKs there
    if t in ("off", "reexec"):
        assert p["owner_grants"] == 0, (t, p)                     # no owner without sched
    if t in ("off", "sched"):
        assert tot["reexec_parked"] == 0, (t, tot["reexec_parked"])
    if t == "mascar":
        assert p["nacks"] == tot["l1_nacks"], (p, tot["l1_nacks"])
        assert p["nacks"] == 0 or p["mp_cycles"] > 0, p           # NACKs only in MP mode
    assert tot["missed_hum_cycles"] <= tot["sm_cycles"], t
m, l = runs["mascar"]["total"], runs["lrr"]["total"]
print("%s: lrr %d cycles (LSU stalls %d, missed HUM %d); mascar %d (MP %.0f%%, LSU stalls %d, "
      "missed HUM %d, NACKs %d); sched-only %d; reexec-only %d"
      % (b, l["cycles"], l["lsu_stall_cycles"], l["missed_hum_cycles"], m["cycles"],
         100.0 * m["policy"]["mp_cycles"] / max(1, m["sm_cycles"]), m["lsu_stall_cycles"],
         m["missed_hum_cycles"], m["policy"]["nacks"], runs["sched"]["total"]["cycles"],
         runs["reexec"]["total"]["cycles"]))
PY
done
[ "$bad" -eq 0 ] && echo "mascar_invariants: ok"
exit "$bad"
