#!/usr/bin/env python3
"""haws_check.py -- HAWS correctness on one benchmark (specs/haws.md §9 items 1-3).

  haws_check.py NAME LRR_STATS GTO_STATS HAWS_STATS HAWS_REPORT

The *_STATS files are `warpsim bench run --stats-json` outputs, HAWS_REPORT
the `--timing-report` of the HAWS run.  Checks:
  - the alternate issue stream kept program order: no instruction issued
    in order while its pc waited in the result-collection unit, none left
    in it at a warp's exit (alt_order_errors = 0); the emulator refused
    nothing the hint chains named (barriers, stores, atomics, exits never
    reach it: alt_refused = 0); no episode issued more than 8;
  - when the program's exit registers do not depend on warp order (the
    same reg_hash under lrr and gto), HAWS gives the same reg_hash and the
    same warp and thread instruction counts as gto.  A program whose
    registers do depend on it (atomics handing out work) is checked by its
    own output verification (the PASS line) alone; this says which.
"""
import json
import sys


def total(path):
    with open(path) as f:
        return json.load(f)["total"]


def main(argv):
    name, lrr_p, gto_p, haws_p, rep_p = argv[1:6]
    lrr, gto, haws = total(lrr_p), total(gto_p), total(haws_p)
    with open(rep_p) as f:
        rep = json.load(f)
    t = rep.get("total", rep)
    bad = []
    if t.get("alt_order_errors") != 0:
        bad.append(f"alt_order_errors = {t.get('alt_order_errors')}")
    if t.get("alt_refused") != 0:
        bad.append(f"alt_refused = {t.get('alt_refused')}")
    if not 0 <= t.get("alt_max_episode", -1) <= 8:
        bad.append(f"alt_max_episode = {t.get('alt_max_episode')}")
    ordered = lrr["reg_hash"] == gto["reg_hash"]
    if ordered:
        for k in ("reg_hash", "warp_insns", "thread_insns"):
            if haws[k] != gto[k]:
                bad.append(f"{k}: haws {haws[k]} != gto {gto[k]}")
    for b in bad:
        print(f"FAIL: {name} (haws): {b}")
    if bad:
        return 1
    how = ("exit registers and instruction counts equal gto's" if ordered else
           "exit registers depend on warp order (lrr != gto): output verification only")
    print(f"{name} (haws): ok, {t.get('alt_switches')} episodes, {t.get('alt_issued')} "
          f"issued ahead, {t.get('alt_copies')} copies; {how}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
