#!/usr/bin/env bash
# stats_gpgpusim_names.sh -- the statistics JSON of `bench run`/`exec` on
# the timing model carries GPGPU-Sim's names with their meaning, per kernel,
# per launch and in total (gpu_sim_cycle / gpu_tot_sim_cycle, gpu_sim_insn /
# gpu_tot_sim_insn, gpu_ipc / gpu_tot_ipc, L1D_total_cache_*,
# L2_total_cache_*), the memory system below L1 (memsys) that was only in
# the timing report, and names the simulated machine (gtx480, 15 SMs,
# 700 MHz) rather than the device architecture the program sees; the
# functional report keeps that architecture; `run --stats-json` names the
# machine too.  Uses the triad benchmark (two kernels).  Needs nvcc and the
# CUDA shims: exits 77 (skipped) without them.
# Run by ctest: bash stats_gpgpusim_names.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the triad benchmark"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@" >"$tmp/out" 2>"$tmp/err"; }

run bench run triad --size tiny --bin-dir "$tmp" --quiet --timing --config gtx480 \
    --per-kernel --stats-json "$tmp/t.json"
rc=$?; [ "$rc" -eq 0 ] || { echo "FAIL: triad on the timing model exited $rc: $(tail -3 "$tmp/err")"; exit 1; }
run bench run triad --size tiny --bin-dir "$tmp" --quiet --stats-json "$tmp/f.json"
rc=$?; [ "$rc" -eq 0 ] || { echo "FAIL: triad functional exited $rc: $(tail -3 "$tmp/err")"; exit 1; }

python3 - "$tmp/t.json" "$tmp/f.json" <<'EOF' || bad=1
import json, sys
t = json.load(open(sys.argv[1]))
f = json.load(open(sys.argv[2]))
errs = []
def need(cond, what):
    if not cond:
        errs.append(what)
g = t["gpu"]
need(g.get("machine") == "gtx480" and g.get("sms") == 15 and g.get("clock_mhz") == 700,
     f"gpu names the simulated machine: {g}")
need("arch" not in g, f"gpu.arch says a device the timing model did not simulate: {g}")
need(f["gpu"].get("arch", "").startswith("sm_"), f"functional report lost gpu.arch: {f['gpu']}")
cache = ["accesses", "misses", "miss_rate", "pending_hits", "reservation_fails"]
def check(obj, where, tot):
    p = "gpu_tot_" if tot else "gpu_"
    for k in [p + "sim_cycle", p + "sim_insn", p + "ipc"] + \
             [c + "_total_cache_" + x for c in ("L1D", "L2") for x in cache]:
        need(k in obj, f"{where}: no {k}")
    if errs:
        return
    need(obj[p + "sim_cycle"] == obj["cycles"] > 0, f"{where}: cycles differ")
    # triad has no vector load: GPGPU-Sim's count is warpsim's own
    need(obj[p + "sim_insn"] == obj["thread_insns"] > 0, f"{where}: instructions differ")
    need(abs(obj[p + "ipc"] - obj[p + "sim_insn"] / obj[p + "sim_cycle"]) < 1e-3, f"{where}: ipc")
    need(obj["L1D_total_cache_accesses"] == obj["l1d_accesses"] > 0, f"{where}: L1D accesses")
    need(obj["L1D_total_cache_misses"] == obj["l1d_misses"], f"{where}: L1D misses")
    need(obj["L2_total_cache_accesses"] > 0, f"{where}: no L2 access")
    m = obj.get("memsys", {})
    for k in ("n_rd", "n_act", "bwutil", "icnt_req_packets", "averagemflatency",
              "row_buffer_locality", "L2_hits"):
        need(k in m, f"{where}: memsys has no {k}")
check(t["total"], "total", True)
for k in t["kernels"]:
    check(k, "kernel " + k["name"], False)
for i, l in enumerate(t["launches"]):
    check(l, f"launch {i + 1}", False)
if not errs:
    need(len(t["launches"]) == 2, "two launches")
    need(sum(l["gpu_sim_cycle"] for l in t["launches"]) == t["total"]["gpu_tot_sim_cycle"],
         "gpu_tot_sim_cycle is the sum of the launches' gpu_sim_cycle")
    need(sum(l["L2_total_cache_misses"] for l in t["launches"])
         == t["total"]["L2_total_cache_misses"], "L2 misses sum over launches")
for e in errs:
    print("FAIL:", e)
sys.exit(1 if errs else 0)
EOF

# the library's own report (run --stats-json) names the machine as well
run run "$src/tests/kernels/vector_add.ptx" vector_add --grid 4 --block 128 \
    --arg buf:2048:iotaf32 --arg buf:2048:iotaf32 --arg buf:2048 --arg u32:512 \
    --config gtx480 --stats-json "$tmp/r.json"
rc=$?; [ "$rc" -eq 0 ] || fail "run --stats-json exited $rc: $(tail -3 "$tmp/err")"
python3 - "$tmp/r.json" <<'EOF' || bad=1
import json, sys
r = json.load(open(sys.argv[1]))
m, t = r.get("machine", {}), r["total"]
ok = m.get("name") == "gtx480" and m.get("sms") == 15
ok &= all(k in t for k in ("gpu_tot_sim_cycle", "gpu_tot_sim_insn", "gpu_tot_ipc",
                           "L1D_total_cache_miss_rate", "L2_total_cache_miss_rate"))
if not ok:
    print("FAIL: run --stats-json: machine", m, "total keys", sorted(t)[:8])
sys.exit(0 if ok else 1)
EOF
[ "$bad" -eq 0 ] && echo "GPGPU-Sim names in the statistics: ok"
exit "$bad"
