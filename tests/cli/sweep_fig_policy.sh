#!/usr/bin/env bash
# sweep_fig_policy.sh -- CCWS spec Sec. 8 item 14 (the number of allowed
# warps over time) as a `warpsim sweep` timeseries figure: series
# policy.allowed_warps_sum/policy.cycles (the average allowed warps of each
# interval) and policy.load_vetoes (per interval) of a tiny kmeans run
# under ccws, next to one under gto, whose scheduler has no counters.
# Checked: the ccws columns = the values recomputed from its
# DIR/runs/HASH.ts.json, the gto column empty with a warning naming the
# figure and the point (exit 0, figures drawn), the same with the gto line
# alone (an all-empty figure); malformed policy series refused at load
# (exit 2, JSON path named, nothing run).
# Run by ctest: bash sweep_fig_policy.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" sweep --bin-dir "$tmp/bin" "$@"; }
command -v gnuplot >/dev/null || fail "gnuplot is not installed (Debian gnuplot-nox; scripts/bootstrap.sh)"

cat >"$tmp/e.json" <<'J'
{"name": "fp", "benchmarks": ["kmeans"], "sizes": ["tiny"],
 "configs": [{"name": "ccws", "set": ["warp_scheduler=ccws"]},
             {"name": "gto", "set": ["warp_scheduler=gto"]}],
 "timeseries": {"interval": 200},
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"}],
 "figures": [{"name": "allowed", "kind": "timeseries",
              "series": "policy.allowed_warps_sum/policy.cycles"},
             {"name": "vetoes", "kind": "timeseries", "series": "policy.load_vetoes",
              "points": [{"benchmark": "kmeans", "config": "ccws"}]},
             {"name": "gto_only", "kind": "timeseries", "series": "policy.cycles",
              "points": [{"benchmark": "kmeans", "config": "gto"}]}]}
J
o="$tmp/o"
run "$tmp/e.json" --jobs 2 --out "$o" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 0 ] || fail "sweep exited $rc: $(tail -5 "$tmp/err")"
for f in allowed vetoes gto_only; do
  for e in png svg csv gp; do [ -s "$o/figures/$f.$e" ] || fail "no $o/figures/$f.$e"; done
done
grep -q "warning: figure allowed: kmeans/gto has samples without policy counter allowed_warps_sum or cycles" \
  "$tmp/err" || fail "no warning for the gto line of 'allowed': $(cat "$tmp/err")"
grep -q "warning: figure gto_only: kmeans/gto" "$tmp/err" || fail "no warning for gto_only"
grep -q "warning: figure vetoes" "$tmp/err" && fail "a warning for the ccws-only figure"
grep -q "policy.allowed_warps_sum / policy.cycles, per interval" "$o/figures/allowed.gp" \
  || fail "allowed.gp lacks its y label"

cat >"$tmp/ts.py" <<'P'
import csv, json, sys
o, name, a, b, pts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
res = {(r['benchmark'], r['config']): r for r in csv.DictReader(open(o + '/results.csv'))}
cols, values = [], 0
for p in pts:
    bn, c = p.split('/')
    r, line = res[(bn, c)], {}
    assert r['status'] == 'ok', r
    base = last = 0; prev = None
    for s in json.load(open(f"{o}/runs/{r['hash']}.ts.json")):
        if prev and s['launch'] != prev['launch']: base += last; prev = None
        last = s['cycle']
        v = None
        if 'policy' in s:
            d = lambda k: float(s['policy'][k]) - (float(prev['policy'][k]) if prev else 0.0)
            v = d(a) if b == '-' else (d(a) / d(b) if d(b) != 0 else None)
        line[base + last] = '' if v is None else '%.10g' % v
        values += v is not None
        prev = s
    cols.append(line)
xs = sorted(set(x for l in cols for x in l))
want = ['cycle,' + ','.join(pts)] + [str(x) + ''.join(',' + l.get(x, '') for l in cols) for x in xs]
got = open(f'{o}/figures/{name}.csv').read().splitlines()
assert got == want, (name, got[:4], want[:4], len(got), len(want))
assert values > 3 or name == 'gto_only', (name, values)
print(name, len(xs), 'rows,', values, 'values')
P
python3 "$tmp/ts.py" "$o" allowed allowed_warps_sum cycles kmeans/ccws kmeans/gto \
  || fail "allowed.csv is not the ccws run's time series"
python3 "$tmp/ts.py" "$o" vetoes load_vetoes - kmeans/ccws || fail "vetoes.csv is not the ccws run's time series"
python3 "$tmp/ts.py" "$o" gto_only cycles - kmeans/gto || fail "gto_only.csv"
# the average allowed warps of an interval: between 0 and the warps an SM holds (at most 64)
awk -F, 'NR>1 && $2!="" && ($2<0 || $2>64) {exit 1}' "$o/figures/allowed.csv" \
  || fail "allowed.csv: an average outside [0, 64]"
awk -F, 'NR>1 && $3!="" {exit 1}' "$o/figures/allowed.csv" || fail "the gto column of allowed.csv has numbers"
grep -q '^[0-9]*,[0-9.]*[0-9],$' "$o/figures/allowed.csv" || fail "allowed.csv has no ccws values"
awk -F, 'NR>1 && $2>0 {n++} END {exit !(n>0)}' "$o/figures/vetoes.csv" \
  || fail "vetoes.csv: ccws never vetoed a load on kmeans"

# malformed policy series: exit 2 naming file and JSON path, nothing run
badspec() {  # SERIES
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); e["figures"][0]["series"]=sys.argv[2]; print(json.dumps(e))' \
    "$tmp/e.json" "$1" >"$tmp/b.json" || fail "cannot write b.json"
  run "$tmp/b.json" --out "$tmp/bo" >/dev/null 2>"$tmp/berr"; rc=$?
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2"
  grep -qF "$tmp/b.json: \$.figures[0].series: expected one of ipc," "$tmp/berr" \
    || fail "$1: message $(cat "$tmp/berr")"
  grep -qF "policy.NAME/policy.NAME" "$tmp/berr" || fail "$1: message does not name the policy forms"
  [ ! -e "$tmp/bo" ] || fail "$1: ran something"
}
badspec 'policy.'
badspec 'policy.cycles/'
badspec 'policy.cycles/cycles'
badspec 'policy.a/policy.b/policy.c'
badspec 'policy.a,b'
badspec 'policy.0123456789012345678901234567890123'
[ "$bad" -eq 0 ] && echo "sweep_fig_policy: ok"
exit $bad
