#!/usr/bin/env python3
"""insn_count.py -- warpsim counts thread instructions as GPGPU-Sim does.

Runs each named benchmark at --size tiny on the timing model (gtx480, the
given warp scheduler) through `warpsim bench run ... --per-kernel
--stats-json`, and compares warpsim's gpu_tot_sim_insn and every launch's
gpu_sim_insn with GPGPU-Sim 4.2's thread_insns and kernels[].insns for the
same program and scheduler (GPGPU-Sim counts one per PTX instruction per
lane whose guard held, `ret` included; ../shared/correlation/README.md).

  insn_count.py WARPSIM BINDIR REFERENCE [--scheduler gto|lrr] [NAME...]

REFERENCE is GPGPU-Sim's data set (gpgpusim-gtx480.json) or the extract of
it committed next to this script (gpgpusim_insns.json, made by
`insn_count.py --extract DATASET OUT`).  No NAME: every benchmark in it.
A run GPGPU-Sim did not complete (it crashed on shfl) is compared over the
launches it finished; one it has no launch of is reported and skipped.
Exit 0 when every count is equal, 1 naming each difference, 2 on usage.
"""
import json
import os
import subprocess
import sys
import tempfile


def extract(dataset, out):
    """The counts of every tiny run, per program and scheduler."""
    with open(dataset) as f:
        d = json.load(f)
    ref = {"source": "GPGPU-Sim 4.2 thread_insns and kernels[].insns at --size tiny, "
                     "from " + os.path.basename(dataset) + " (" + d["source"]["simulator"]
                     + "; programs at " + d["source"]["programs"] + ")",
           "runs": {}}
    for r in d["runs"]:
        if r["size"] != "tiny":
            continue
        ref["runs"].setdefault(r["benchmark"], {})[r["scheduler"]] = {
            "complete": r["complete"], "thread_insns": r["thread_insns"],
            "kernels": [k["insns"] for k in r["kernels"]]}
    with open(out, "w") as f:
        json.dump(ref, f, indent=1, sort_keys=True)
        f.write("\n")


def load_reference(path):
    with open(path) as f:
        d = json.load(f)
    if "runs" in d and isinstance(d["runs"], dict):
        return d["runs"]
    runs = {}
    for r in d["runs"]:
        if r["size"] == "tiny":
            runs.setdefault(r["benchmark"], {})[r["scheduler"]] = {
                "complete": r["complete"], "thread_insns": r["thread_insns"],
                "kernels": [k["insns"] for k in r["kernels"]]}
    return runs


def run_one(ws, bindir, name, sched, tmp):
    js = os.path.join(tmp, name + ".json")
    cmd = [ws, "bench", "run", name, "--size", "tiny", "--bin-dir", bindir, "--quiet",
           "--timing", "--config", "gtx480", "--set", "warp_scheduler=" + sched,
           "--per-kernel", "--stats-json", js]
    env = dict(os.environ)
    if env.get("WS_PRELOAD"):   # the sanitizer runtime, for warpsim only
        env["LD_PRELOAD"] = env["WS_PRELOAD"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0 or not os.path.exists(js):
        tail = "\n".join((p.stdout + p.stderr).splitlines()[-5:])
        return None, f"exit status {p.returncode}: {tail}"
    with open(js) as f:
        return json.load(f), None


def check(stats, ref):
    """Differences between warpsim's statistics and GPGPU-Sim's counts."""
    diffs = []
    launches = stats.get("launches", [])
    want = ref["kernels"]
    if ref["complete"]:
        got = stats["total"].get("gpu_tot_sim_insn")
        if got != ref["thread_insns"]:
            diffs.append(f"gpu_tot_sim_insn {got}, GPGPU-Sim {ref['thread_insns']}")
        if len(launches) != len(want):
            diffs.append(f"{len(launches)} launches, GPGPU-Sim {len(want)}")
    for i, w in enumerate(want[:len(launches)]):
        got = launches[i].get("gpu_sim_insn")
        if got != w:
            diffs.append(f"launch {i + 1} ({launches[i]['kernel']}): gpu_sim_insn {got}, "
                         f"GPGPU-Sim {w}")
    return diffs


def main(argv):
    if len(argv) == 4 and argv[1] == "--extract":
        extract(argv[2], argv[3])
        return 0
    args = argv[1:]
    sched = "gto"
    if "--scheduler" in args:
        i = args.index("--scheduler")
        if i + 1 >= len(args) or args[i + 1] not in ("gto", "lrr"):
            print(__doc__, file=sys.stderr)
            return 2
        sched = args[i + 1]
        del args[i:i + 2]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    ws, bindir, refpath = args[:3]
    ref = load_reference(refpath)
    names = args[3:] or sorted(ref)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            r = ref.get(name, {}).get(sched)
            if r is None:
                print(f"FAIL: {name}: not in {refpath}")
                bad = 1
                continue
            if not r["kernels"]:
                print(f"{name} ({sched}): skipped, GPGPU-Sim finished no launch of it")
                continue
            stats, err = run_one(ws, bindir, name, sched, tmp)
            if err:
                print(f"FAIL: {name} ({sched}): {err}")
                bad = 1
                continue
            diffs = check(stats, r)
            got = stats["total"].get("gpu_tot_sim_insn")
            scope = "" if r["complete"] else f" (GPGPU-Sim finished {len(r['kernels'])} launches)"
            if diffs:
                print(f"FAIL: {name} ({sched}){scope}: " + "; ".join(diffs[:5]))
                bad = 1
            else:
                print(f"{name} ({sched}): {got} thread instructions, "
                      f"{len(r['kernels'])} launches: as GPGPU-Sim{scope}")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
