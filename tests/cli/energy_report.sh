#!/usr/bin/env bash
# energy_report.sh -- the energy model in the reports (docs/energy.md): the
# statistics JSON of `bench run` on the timing model carries energy_j,
# avg_power_w, the static/dynamic split and one energy_<part>_j per part,
# per kernel and in total (total = the kernels' sum; parts sum to the
# total; power = energy / simulated time); the timing report (JSON;
# its text form: test_energy) carries them too; a second run gives byte-identical fields; doubling
# energy.dram_rd_pj_per_byte changes energy_dram_j (and the totals) only.
# Uses triad (two kernels) at tiny on gtx480.  Needs nvcc and the CUDA
# shims: exits 77 (skipped) without them.
# Run by ctest: bash energy_report.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench_tiny.sh"
BENCH_TINY_OPTS=(--per-kernel --timing-report "$tmp/rep.txt")
bench_tiny gtx480 triad a
cp "$tmp/rep.txt" "$tmp/rep_a.txt"
BENCH_TINY_OPTS=(--per-kernel)
bench_tiny gtx480 triad b
bench_tiny gtx480 triad rd2 energy.dram_rd_pj_per_byte=120
[ "$bad" -eq 0 ] || exit 1

python3 - "$tmp/triad.a.json" "$tmp/triad.b.json" "$tmp/triad.rd2.json" "$tmp/rep_a.txt" <<'EOF' || bad=1
import json, sys
a, b, rd2 = (json.load(open(p)) for p in sys.argv[1:4])
rep = open(sys.argv[4]).read()
errs = []
def need(cond, what):
    if not cond:
        errs.append(what)
parts = ["frontend", "rf", "sp", "sfu", "dp", "int", "ldst", "ctrl", "smem", "l1d", "l1c",
         "l1t", "reexec", "icnt", "l2", "dram", "leak_sm", "leak_l2", "leak_icnt", "dram_bg",
         "leak_other"]
static = ["leak_sm", "leak_l2", "leak_icnt", "dram_bg", "leak_other"]
def close(x, y, rel=2e-5):
    return abs(x - y) <= rel * max(abs(x), abs(y), 1e-30)
def check(o, where):
    keys = ["energy_j", "avg_power_w", "energy_dynamic_j", "energy_static_j", "energy_leak_j"] + \
           [f"energy_{p}_j" for p in parts]
    miss = [k for k in keys if k not in o]
    if miss:
        errs.append(f"{where}: no {miss}")
        return
    need(o["energy_j"] > 0, f"{where}: energy_j = {o['energy_j']}")
    need(close(sum(o[f"energy_{p}_j"] for p in parts), o["energy_j"]), f"{where}: parts do not sum")
    need(close(sum(o[f"energy_{p}_j"] for p in static), o["energy_static_j"]),
         f"{where}: static parts do not sum to energy_static_j")
    need(o["energy_leak_j"] == o["energy_static_j"], f"{where}: leak != static")
    need(close(o["energy_static_j"] + o["energy_dynamic_j"], o["energy_j"]), f"{where}: split")
    secs = o["cycles"] / 700e6
    need(close(o["avg_power_w"], o["energy_j"] / secs, 1e-4), f"{where}: power != energy / time")
ks = a["kernels"]
need(len(ks) == 2, f"triad has 2 kernels, the report {len(ks)}")
for k in ks:
    check(k, "kernel " + k["name"])
check(a["total"], "total")
if not errs:
    need(close(sum(k["energy_j"] for k in ks), a["total"]["energy_j"]), "total != sum of kernels")
    e = {k: v for k, v in a["total"].items() if k.startswith("energy") or k == "avg_power_w"}
    e2 = {k: v for k, v in b["total"].items() if k.startswith("energy") or k == "avg_power_w"}
    need(e == e2, "two identical runs gave different energy fields")
    t, t2 = a["total"], rd2["total"]
    need(t["cycles"] == t2["cycles"], "an energy value changed the timing")
    need(t2["energy_dram_j"] > t["energy_dram_j"], "doubling the DRAM read energy did not raise energy_dram_j")
    for p in parts:
        if p != "dram":
            need(t[f"energy_{p}_j"] == t2[f"energy_{p}_j"], f"energy_{p}_j changed with the DRAM read energy")
for f in ["energy_j", "avg_power_w", "energy_leak_j", "energy_dram_j", "energy_l1d_j"]:
    need(f'"{f}": ' in rep, f"the timing report has no {f}")
for e in errs:
    print("FAIL:", e)
sys.exit(1 if errs else 0)
EOF
[ "$bad" -eq 0 ] && echo "energy fields: per kernel, total, timing report, deterministic, overridable"
exit "$bad"
