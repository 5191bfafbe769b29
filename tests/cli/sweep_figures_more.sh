#!/usr/bin/env bash
# sweep_figures_more.sh -- the stacked and timeseries figures of `warpsim
# sweep`: an experiment of 2 tiny benchmarks x 3 configs (one with a bad
# --set, so its runs fail) keeping each run's time series
# ("timeseries": {"interval": 500}) draws an issue-slot breakdown (raw, normalised to 100 % and
# relative to LRR's stack, normalize_to; a normalized metric with "over") and IPC / L1D MPKI over time.  Checked: PNG
# signature, SVG parses as XML; stacked CSV = results.csv's numbers (or
# their percentages), timeseries CSV = the values recomputed from
# DIR/runs/HASH.ts.json; a failed run is empty cells, never a number;
# runs.jsonl names each kept time series; --resume keeps the points, reruns
# one whose time series is gone and every point when the interval changes;
# --figures-only redraws the same CSVs; the same CSVs at --jobs 1; bad specs
# refused before any run (exit 2, the figure's JSON path named).
# Run by ctest: bash sweep_figures_more.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" sweep --bin-dir "$tmp/bin" "$@"; }
command -v gnuplot >/dev/null || fail "gnuplot is not installed (Debian gnuplot-nox; scripts/bootstrap.sh)"

cat >"$tmp/e.json" <<'J'
{"name": "fm", "benchmarks": ["kmeans", "coulomb"], "sizes": ["tiny"],
 "configs": [{"name": "lrr", "set": ["warp_scheduler=lrr"]},
             {"name": "gto", "set": ["warp_scheduler=gto"]},
             {"name": "bad", "set": ["warp_scheduler=nope"]}],
 "timeseries": {"interval": 500},
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"},
             {"name": "issued", "path": "total.issue_slots.issued"},
             {"name": "scoreboard", "path": "total.issue_slots.scoreboard"},
             {"name": "unit_busy", "path": "total.issue_slots.unit_busy"},
             {"name": "idle", "path": "total.issue_slots.idle"}],
 "derived": [{"name": "issued_sum", "kind": "sum", "of": ["issued", "scoreboard"]},
             {"name": "issued_of_lrr", "kind": "normalized", "of": "issued_sum", "over": "cycles",
              "baseline": "lrr"}],
 "figures": [{"name": "slots", "kind": "stacked", "normalize": true, "title": "Issue slots",
              "components": ["issued", "scoreboard", "unit_busy", "idle"]},
             {"name": "slots_raw", "kind": "stacked", "components": ["issued", "scoreboard"]},
             {"name": "slots_rel", "kind": "stacked", "components": ["issued", "scoreboard"],
              "normalize_to": "lrr"},
             {"name": "ipc_t", "kind": "timeseries", "series": "ipc", "title": "IPC over time"},
             {"name": "mpki", "kind": "timeseries", "series": "l1d_mpki",
              "points": [{"benchmark": "kmeans", "config": "gto"},
                         {"benchmark": "coulomb", "config": "lrr", "size": "tiny"}]},
             {"name": "l1mr", "kind": "timeseries", "series": "l1d_miss_rate",
              "points": [{"benchmark": "kmeans", "config": "lrr"}]}]}
J
o="$tmp/o"
run "$tmp/e.json" --jobs 2 --out "$o" >"$tmp/out" 2>"$tmp/err"; rc=$?
# the bad config's 2 runs fail: exit 1, the figures still drawn
[ "$rc" -eq 1 ] || fail "sweep exited $rc, want 1 (2 failed runs): $(tail -5 "$tmp/err")"
grep -q '4 ok, 2 failed' "$tmp/out" || fail "want 4 ok, 2 failed: $(cat "$tmp/out")"
for f in slots slots_raw slots_rel ipc_t mpki l1mr; do
  for e in png svg csv gp; do [ -s "$o/figures/$f.$e" ] || fail "no $o/figures/$f.$e"; done
  [ "$(head -c 8 "$o/figures/$f.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
    || fail "$f.png lacks the PNG signature"
  python3 - "$o/figures/$f.svg" "$f" <<'P' || fail "$f.svg is not SVG XML naming kmeans and coulomb"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith('svg'), root.tag
text = ' '.join(t.strip() for t in root.itertext())
for b in ('kmeans', 'coulomb') if sys.argv[2] != 'l1mr' else ('kmeans',):
    assert b in text, b
P
done
grep -q 'Issue slots' "$o/figures/slots.svg" || fail "slots.svg lacks its title"
grep -q 'scoreboard' "$o/figures/slots.svg" || fail "slots.svg lacks its legend"

# stacked: one row per benchmark x config, results.csv's numbers; normalised:
# their percentages of the stack (10 significant digits); failed: empty
python3 - "$o" <<'P' || fail "stacked CSVs differ from results.csv"
import csv, sys
o = sys.argv[1]
res = {(r['benchmark'], r['config']): r for r in csv.DictReader(open(o + '/results.csv'))}
order = [(b, c) for b in ('kmeans', 'coulomb') for c in ('lrr', 'gto', 'bad')]
def check(name, comps, norm):
    lines = open(f'{o}/figures/{name}.csv').read().splitlines()
    want = ['benchmark,config,' + ','.join(comps)]
    for b, c in order:
        r = res[(b, c)]
        v = [r[k] for k in comps]
        if r['status'] != 'ok':
            assert all(x == '' for x in v), (b, c, v)
            want.append(f'{b},{c}' + ',' * len(comps)); continue
        assert all(x.isdigit() for x in v), v
        if norm:
            s = sum(float(x) for x in v)
            v = ['%.10g' % (100.0 * float(x) / s) for x in v]
        want.append(f'{b},{c},' + ','.join(v))
    assert lines == want, (name, lines, want)
check('slots_raw', ['issued', 'scoreboard'], False)
# normalize_to lrr: fractions of lrr's stack sum of the same benchmark
lines = open(f'{o}/figures/slots_rel.csv').read().splitlines()
want = ['benchmark,config,issued,scoreboard']
for b, c in order:
    r, base = res[(b, c)], res[(b, 'lrr')]
    if r['status'] != 'ok':
        want.append(f'{b},{c},,'); continue
    s = float(base['issued']) + float(base['scoreboard'])
    want.append(f'{b},{c},' + ','.join('%.10g' % (float(r[k]) / s) for k in ('issued', 'scoreboard')))
assert lines == want, ('slots_rel', lines, want)
# normalized with "over" (of a per-point sum): this point's value / lrr's cycles
der = {(r['metric'], r['benchmark'], r['config']): r['value'] for r in csv.DictReader(open(o + '/derived.csv'))}
for b, c in order:
    r, base = res[(b, c)], res[(b, 'lrr')]
    got = der[('issued_of_lrr', b, c)]
    if r['status'] != 'ok':
        assert got == '', (b, c, got); continue
    w = '%.10g' % ((float(r['issued']) + float(r['scoreboard'])) / float(base['cycles']))
    assert got == w, (b, c, got, w)
check('slots', ['issued', 'scoreboard', 'unit_busy', 'idle'], True)
for l in open(o + '/figures/slots.csv').read().splitlines()[1:]:
    f = l.split(',')[2:]
    if f[0]: assert abs(sum(map(float, f)) - 100) < 1e-6, l
P

# the kept time series: named in runs.jsonl, in runs/, counts that never fall
python3 - "$o" <<'P' || fail "runs.jsonl / runs/*.ts.json"
import json, os, sys
o = sys.argv[1]
recs = [json.loads(l) for l in open(o + '/runs.jsonl')]
assert len(recs) == 6, len(recs)
for r in recs:
    if r['status'] != 'ok':
        assert 'timeseries' not in r, r['hash']; continue
    assert r['timeseries'] == 'runs/%s.ts.json' % r['hash'], r.get('timeseries')
    ts = json.load(open(os.path.join(o, r['timeseries'])))
    assert len(ts) > 10, len(ts)
    for a, b in zip(ts, ts[1:]):
        if a['launch'] == b['launch']:
            assert b['cycle'] == a['cycle'] + 500, (a, b)
            for k in ('warp_insns', 'thread_insns', 'l1d_misses', 'l1d_accesses'):
                assert b[k] >= a[k], (r['hash'], k, a, b)
    assert ts[-1]['cycle'] <= r['stats']['total']['gpu_tot_sim_cycle']
P

# timeseries CSVs: recomputed from the ts files (launches end to end)
cat >"$tmp/ts.py" <<'P'
import csv, json, sys
o, name, series, pts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
res = {(r['benchmark'], r['config']): r for r in csv.DictReader(open(o + '/results.csv'))}
cols = []
for p in pts:
    b, c = p.split('/')
    r, line = res[(b, c)], {}
    if r['status'] == 'ok':
        base = last = 0; prev = None
        for s in json.load(open(f"{o}/runs/{r['hash']}.ts.json")):
            if prev and s['launch'] != prev['launch']: base += last; prev = None
            last = s['cycle']
            d = lambda k: float(s[k]) - (float(prev[k]) if prev else 0.0)
            if series == 'ipc': v = d('thread_insns') / d('cycle')
            elif series == 'l1d_miss_rate':
                v = d('l1d_misses') / d('l1d_accesses') if d('l1d_accesses') > 0 else None
            else: v = 1000.0 * d('l1d_misses') / d('warp_insns') if d('warp_insns') > 0 else None
            line[base + last] = '' if v is None else '%.10g' % v
            prev = s
    cols.append(line)
xs = sorted(set(x for l in cols for x in l))
want = ['cycle,' + ','.join(pts)] + [str(x) + ''.join(',' + l.get(x, '') for l in cols) for x in xs]
got = open(f'{o}/figures/{name}.csv').read().splitlines()
assert got == want, (name, got[:4], want[:4], len(got), len(want))
P
python3 "$tmp/ts.py" "$o" ipc_t ipc kmeans/lrr kmeans/gto kmeans/bad coulomb/lrr coulomb/gto coulomb/bad \
  || fail "ipc_t.csv is not the runs' time series"
python3 "$tmp/ts.py" "$o" mpki l1d_mpki kmeans/gto coulomb/lrr || fail "mpki.csv is not the runs' time series"
python3 "$tmp/ts.py" "$o" l1mr l1d_miss_rate kmeans/lrr || fail "l1mr.csv is not the runs' time series"
awk -F, 'NR>1 && $2!="" && ($2<0 || $2>1) {exit 1}' "$o/figures/l1mr.csv" || fail "l1mr.csv: a miss rate outside [0, 1]"
[ "$(head -1 "$o/figures/ipc_t.csv")" = "cycle,kmeans/lrr,kmeans/gto,kmeans/bad,coulomb/lrr,coulomb/gto,coulomb/bad" ] \
  || fail "ipc_t.csv header: $(head -1 "$o/figures/ipc_t.csv")"
awk -F, 'NR>1 && ($4 != "" || $7 != "") {exit 1}' "$o/figures/ipc_t.csv" || fail "a failed run has numbers in ipc_t.csv"
grep -q '^[0-9]*,[0-9.]*[0-9],' "$o/figures/ipc_t.csv" || fail "ipc_t.csv has no IPC values"
mkdir "$tmp/csv1"; cp "$o"/figures/*.csv "$tmp/csv1/"

# --figures-only redraws the same CSVs; --jobs 1 gives the same CSVs
rm -f "$o"/figures/*
run "$tmp/e.json" --figures-only --out "$o" >/dev/null 2>"$tmp/err2"; rc=$?
[ "$rc" -eq 0 ] || fail "--figures-only exited $rc: $(cat "$tmp/err2")"
for f in slots slots_raw ipc_t mpki l1mr; do
  cmp -s "$tmp/csv1/$f.csv" "$o/figures/$f.csv" || fail "--figures-only: $f.csv differs"
  [ -s "$o/figures/$f.png" ] && [ -s "$o/figures/$f.svg" ] || fail "--figures-only did not draw $f"
done
run "$tmp/e.json" --jobs 1 --out "$tmp/o1" >/dev/null 2>&1
for f in slots slots_raw ipc_t mpki l1mr; do
  cmp -s "$tmp/csv1/$f.csv" "$tmp/o1/figures/$f.csv" || fail "--jobs 1: $f.csv differs"
done

# --resume: the 4 ok points kept (the failed ones run again); a point whose
# time series is gone runs again; another interval is another input
run "$tmp/e.json" --resume --out "$o" >/dev/null 2>"$tmp/err3"
grep -q '6 points, 2 to run (4 kept' "$tmp/err3" || fail "--resume: $(head -1 "$tmp/err3")"
h=$(awk -F, '$1=="kmeans"&&$3=="gto"{print $5}' "$o/results.csv")
rm "$o/runs/$h.ts.json"
run "$tmp/e.json" --resume --out "$o" >/dev/null 2>"$tmp/err4"
grep -q '6 points, 3 to run (3 kept' "$tmp/err4" || fail "--resume without a ts file: $(head -1 "$tmp/err4")"
grep -q 'ok kmeans tiny gto' "$tmp/err4" || fail "--resume did not rerun kmeans gto: $(cat "$tmp/err4")"
[ -s "$o/runs/$h.ts.json" ] || fail "--resume did not keep kmeans gto's time series again"
sed 's/"interval": 500/"interval": 700/' "$tmp/e.json" >"$tmp/e7.json"
run "$tmp/e7.json" --resume --out "$o" --dry-run >"$tmp/dry7"
run "$tmp/e.json" --out "$o" --dry-run >"$tmp/dry5"
[ "$(grep -c tiny "$tmp/dry7")" -eq 6 ] || fail "dry run: $(cat "$tmp/dry7")"
for hh in $(awk '/tiny/{print $2}' "$tmp/dry7"); do
  grep -q "$hh" "$tmp/dry5" && fail "interval 700 has the hash $hh of interval 500"
done

# bad specs: exit 2 naming file and JSON path, nothing run
badspec() {  # PYTHON-EDIT EXPECTED-MESSAGE-PART
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); exec(sys.argv[2]); print(json.dumps(e))' \
    "$tmp/e.json" "$1" >"$tmp/b.json" || fail "cannot write b.json"
  run "$tmp/b.json" --out "$tmp/bo" >/dev/null 2>"$tmp/berr"; rc=$?
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2"
  grep -qF "$tmp/b.json: $2" "$tmp/berr" || fail "$1: message $(cat "$tmp/berr"), want '$2'"
  [ ! -e "$tmp/bo" ] || fail "$1: ran something"
}
badspec 'e["figures"][1]["components"][1] = "nope"' \
  "\$.figures[1].components[1]: 'nope' is not a collected statistic or a per-point derived metric (collect: cycles, issued,"
badspec 'e["figures"][1]["components"] = []' '$.figures[1].components: expected an array of 1 to 16'
badspec 'e["figures"][0]["normalize"] = "yes"' '$.figures[0].normalize: expected true or false'
badspec 'e["figures"][0]["x"] = "warp_limit"' "\$.figures[0]: unknown key 'x' for a stacked figure"
badspec 'e["figures"][2]["normalize_to"] = "swl"' "\$.figures[2].normalize_to: 'swl' is not a config of the experiment"
badspec 'e["figures"][2]["normalize"] = True' '$.figures[2].normalize_to: takes no "normalize": true'
badspec 'e["derived"][1]["kind"] = "speedup"; e["derived"][1]["of"] = "issued"' '$.derived[1].over: only a quotient or a normalized metric has'
badspec 'e["derived"][1]["over"] = "nope"' '$.derived[1].over: expected a collected statistic or an earlier per-point metric'
badspec 'e["figures"][3]["normalize_to"] = "lrr"' "\$.figures[3]: unknown key 'normalize_to' for a timeseries figure"
badspec 'del e["timeseries"]' '$.figures[3].kind: a timeseries figure needs the experiment to keep time series'
badspec 'e["figures"][3]["series"] = "flops"' '$.figures[3].series: expected one of ipc,'
badspec 'e["figures"][4]["points"][0]["benchmark"] = "bfs"' "\$.figures[4].points[0]: benchmark 'bfs' is not in"
badspec 'e["figures"][4]["points"][1]["config"] = "swl"' "\$.figures[4].points[1]: config 'swl' is not in"
badspec 'e["figures"][4]["points"][1]["size"] = "small"' '$.figures[4].points[1]: size is not one of $.sizes'
badspec 'e["timeseries"] = {"interval": 0}' '$.timeseries.interval: expected a number of cycles'
badspec 'e["timeseries"] = {"every": 5}' "\$.timeseries: unknown key 'every'"
exit $bad
