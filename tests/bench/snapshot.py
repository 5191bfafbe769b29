#!/usr/bin/env python3
"""snapshot.py -- statistics snapshots of the bundled suite on the timing model.

A snapshot holds, per benchmark, the statistics of each policy setting (the
timing report without its "config" object, which grows as keys are added).
It was written by the simulator *before* a refactoring; `check` then demands
that every value in it is reproduced exactly.  Keys the snapshot lacks (new
counters) are allowed; a missing or different value is a failure.

  snapshot.py add SNAPSHOT LABEL REPORT    add LABEL's statistics to SNAPSHOT
  snapshot.py check SNAPSHOT LABEL REPORT  compare; exit 1 naming each difference
"""
import json
import sys


def stats_of(report_path):
    with open(report_path) as f:
        rep = json.load(f)
    rep.pop("config", None)
    return rep


def diff(want, got, path, out):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            out.append(f"{path}: want an object, got {got!r}")
            return
        for k, v in want.items():
            if k not in got:
                out.append(f"{path}.{k}: missing")
            else:
                diff(v, got[k], f"{path}.{k}", out)
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            out.append(f"{path}: want a list of {len(want)}, got {got!r:.80}")
            return
        for i, (a, b) in enumerate(zip(want, got)):
            diff(a, b, f"{path}[{i}]", out)
    elif want != got:
        out.append(f"{path}: want {want!r}, got {got!r}")


def main(argv):
    if len(argv) != 5 or argv[1] not in ("add", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, snap_path, label, report = argv[1:]
    got = stats_of(report)
    if mode == "add":
        try:
            with open(snap_path) as f:
                snap = json.load(f)
        except FileNotFoundError:
            snap = {}
        snap[label] = got
        with open(snap_path, "w") as f:
            json.dump(snap, f, sort_keys=True, indent=0)
            f.write("\n")
        return 0
    with open(snap_path) as f:
        snap = json.load(f)
    if label not in snap:
        print(f"{snap_path}: no snapshot for {label}")
        return 1
    out = []
    diff(snap[label], got, label, out)
    for line in out[:20]:
        print(line)
    if len(out) > 20:
        print(f"... and {len(out) - 20} more differences")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
