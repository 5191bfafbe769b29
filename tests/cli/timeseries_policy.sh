#!/usr/bin/env bash
# timeseries_policy.sh -- CCWS spec Sec. 8 item 14 (log the allowed warps
# over time): `warpsim run --timing --timeseries` under `ccws` gives every
# sample the warp scheduler's counters (JSON: a "policy" object, CSV:
# policy.NAME columns, the same values), cumulative over SMs: they never
# fall, stay at most the launch's totals (the JSON report's "policy"), and
# equal them at a sample after the last cycle (interval 1).  Under `gto`
# (no counters) the time series has neither, as before.
# Run by ctest: bash timeseries_policy.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
ptx="$src/tests/kernels/vector_add.ptx"
args=(--grid 32 --block 256 --arg buf:32768:iotaf32 --arg buf:32768:iotaf32 --arg buf:32768
      --arg u32:8192 --config gtx480)
run() { # NAME SCHEDULER INTERVAL
  for f in json csv; do
    "$ws" run "$ptx" vector_add "${args[@]}" --set "warp_scheduler=$2" \
      --set "timeseries_interval=$3" --stats-json "$tmp/$1.r.json" --timeseries "$tmp/$1.$f" \
      >"$tmp/out" 2>"$tmp/err" || fail "$1: run exited $?: $(cat "$tmp/err")"
  done
}
run ccws ccws 100
run ccws1 ccws 1
run gto gto 100

python3 - "$tmp" <<'P' || fail "ccws time series lacks or misstates its policy counters"
import csv, json, sys
t = sys.argv[1]
names = ['vta_hits', 'vta_inserts', 'vta_invalidations', 'load_vetoes', 'cycles',
         'allowed_warps_sum', 'active_warps_sum', 'throttled_cycles']
for run, exact in (('ccws', False), ('ccws1', True)):
    total = json.load(open(f'{t}/{run}.r.json'))['launches'][0]['policy']
    ts = json.load(open(f'{t}/{run}.json'))
    assert len(ts) > 5, len(ts)
    for s in ts:
        assert list(s['policy']) == names, list(s['policy'])
    for a, b in zip(ts, ts[1:]):
        for n in names:
            assert b['policy'][n] >= a['policy'][n], (run, n, a, b)
    for n in names:
        assert ts[-1]['policy'][n] <= total[n], (run, n, ts[-1]['policy'][n], total[n])
        if exact: assert ts[-1]['policy'][n] == total[n], (run, n, ts[-1]['policy'][n], total[n])
    assert total['allowed_warps_sum'] > 0, total
    rows = list(csv.DictReader(open(f'{t}/{run}.csv')))
    assert len(rows) == len(ts), (len(rows), len(ts))
    for r, s in zip(rows, ts):
        assert int(r['cycle']) == s['cycle']
        for n in names: assert int(r['policy.' + n]) == s['policy'][n], (run, n, r, s)
P
python3 - "$tmp/gto.json" <<'P' || fail "a gto time series has a policy object"
import json, sys
ts = json.load(open(sys.argv[1]))
assert ts and all('policy' not in s for s in ts)
P
[ "$(head -1 "$tmp/gto.csv")" = "launch,kernel,cycle,warp_insns,thread_insns,active_warps,l1d_misses,lsu_stall_cycles,l1d_accesses" ] \
  || fail "gto CSV header changed: $(head -1 "$tmp/gto.csv")"
[ "$bad" -eq 0 ] && echo "timeseries_policy: ok"
exit "$bad"
