#!/usr/bin/env bash
# sweep_figures.sh -- the figures of `warpsim sweep`: an experiment of 2
# tiny benchmarks x 2 configs with a bars figure (speedup over lrr, with
# the geomean bar and a baseline line) and a lines figure (IPC against
# warp_limit) writes DIR/figures/NAME.{png,svg,csv}: the PNG starts with the
# PNG signature, the SVG parses as XML and names each benchmark, the CSV
# holds exactly derived.csv's values; --figures-only redraws without
# running (runs.jsonl unchanged); without gnuplot on PATH the sweep says so
# naming gnuplot-nox, exits 1 and keeps results.csv; a bad figure spec is
# refused before any run (exit 2, the JSON path named).  gnuplot is
# installed by scripts/bootstrap.sh, so its absence FAILS here.
# Run by ctest: bash sweep_figures.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" sweep --bin-dir "$tmp/bin" "$@"; }
command -v gnuplot >/dev/null || fail "gnuplot is not installed (Debian gnuplot-nox; scripts/bootstrap.sh)"

cat >"$tmp/e.json" <<'J'
{"name": "f", "benchmarks": ["kmeans", "coulomb"], "sizes": ["tiny"],
 "configs": [{"name": "lrr", "set": ["warp_scheduler=lrr"]},
             {"name": "swl2", "set": ["warp_scheduler=swl", "warp_scheduler_params=warp_limit=2"]}],
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"},
             {"name": "ipc", "path": "total.gpu_tot_ipc"}],
 "derived": [{"name": "speedup", "kind": "speedup", "of": "cycles", "baseline": "lrr"},
             {"name": "gm", "kind": "geomean", "of": "speedup"}],
 "figures": [{"name": "sp", "kind": "bars", "metric": "speedup", "mean": "gm", "baseline": 1.0,
              "title": "Speedup over LRR", "ylabel": "speedup"},
             {"name": "ipc", "kind": "lines", "metric": "ipc", "x": "warp_limit"}]}
J
o="$tmp/o"
run "$tmp/e.json" --jobs 2 --out "$o" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 0 ] || fail "sweep exited $rc: $(tail -5 "$tmp/err")"
for f in sp ipc; do
  for e in png svg csv gp; do [ -s "$o/figures/$f.$e" ] || fail "no $o/figures/$f.$e"; done
  [ "$(head -c 8 "$o/figures/$f.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
    || fail "$f.png lacks the PNG signature"
  python3 - "$o/figures/$f.svg" <<'P' || fail "$f.svg is not XML naming kmeans and coulomb"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith('svg'), root.tag
text = ' '.join(t.strip() for t in root.itertext())
for b in ('kmeans', 'coulomb'):
    assert b in text, b
P
done
grep -q 'Speedup over LRR' "$o/figures/sp.svg" || fail "sp.svg lacks its title"
# the bars' data: one row per benchmark, the geomean row, values as derived.csv has them
cat "$o/figures/sp.csv"
[ "$(head -1 "$o/figures/sp.csv")" = "benchmark,lrr,swl2" ] || fail "sp.csv header: $(head -1 "$o/figures/sp.csv")"
[ "$(wc -l <"$o/figures/sp.csv")" -eq 4 ] || fail "sp.csv: $(wc -l <"$o/figures/sp.csv") lines, want 4"
d() { awk -F, -v m="$1" -v b="$2" -v c="$3" '$1==m&&$2==b&&$4==c{print $6}' "$o/derived.csv"; }
want="benchmark,lrr,swl2
kmeans,$(d speedup kmeans lrr),$(d speedup kmeans swl2)
coulomb,$(d speedup coulomb lrr),$(d speedup coulomb swl2)
geomean,$(d gm all lrr),$(d gm all swl2)"
[ "$(cat "$o/figures/sp.csv")" = "$want" ] || fail "sp.csv is not derived.csv's values: want
$want"
grep -q '^kmeans,1,[0-9.]*[0-9]$' "$o/figures/sp.csv" || fail "sp.csv: no speedup of kmeans"
# the lines' data: x = warp_limit (only swl2 sets it), one column per benchmark
r() { awk -F, -v b="$1" -v c="$2" '$1==b&&$3==c{print $9}' "$o/results.csv"; }
[ "$(cat "$o/figures/ipc.csv")" = "warp_limit,kmeans,coulomb
2,$(r kmeans swl2),$(r coulomb swl2)" ] || fail "ipc.csv: $(cat "$o/figures/ipc.csv")"

# --figures-only: redraws, runs nothing
cp "$o/runs.jsonl" "$tmp/runs.before"
rm -f "$o/figures/sp.png" "$o/figures/ipc.svg"
run "$tmp/e.json" --figures-only --out "$o" >"$tmp/out2" 2>"$tmp/err2"; rc=$?
[ "$rc" -eq 0 ] || fail "--figures-only exited $rc: $(cat "$tmp/err2")"
[ -s "$o/figures/sp.png" ] && [ -s "$o/figures/ipc.svg" ] || fail "--figures-only did not redraw"
cmp -s "$tmp/runs.before" "$o/runs.jsonl" || fail "--figures-only changed runs.jsonl"
grep -q '^sweep: \[' "$tmp/err2" && fail "--figures-only ran points: $(cat "$tmp/err2")"
# --figures-only on a folder without results: exit 1, the file named
run "$tmp/e.json" --figures-only --out "$tmp/none" >/dev/null 2>"$tmp/err3"; rc=$?
[ "$rc" -eq 1 ] && grep -q "$tmp/none/results.csv" "$tmp/err3" || fail "no results: exit $rc: $(cat "$tmp/err3")"

# no gnuplot on PATH: named with its Debian package, exit 1, tables kept
mkdir "$tmp/nogp"; rm -rf "$o/figures"
PATH="$tmp/nogp" run "$tmp/e.json" --resume --out "$o" >/dev/null 2>"$tmp/err4"; rc=$?
[ "$rc" -eq 1 ] || fail "without gnuplot: exit $rc, want 1"
grep -q 'gnuplot-nox' "$tmp/err4" || fail "without gnuplot: $(cat "$tmp/err4")"
[ -s "$o/results.csv" ] && [ -s "$o/derived.csv" ] || fail "without gnuplot: tables lost"

# bad figure specs: exit 2 naming file and JSON path, nothing run
badspec() {  # FIGURES-JSON EXPECTED-MESSAGE-PART
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); e["figures"]=[json.loads(sys.argv[2])]; print(json.dumps(e))' \
    "$tmp/e.json" "$1" >"$tmp/b.json" || fail "cannot write b.json"
  run "$tmp/b.json" --out "$tmp/bo" >/dev/null 2>"$tmp/berr"; rc=$?
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2"
  grep -qF "$tmp/b.json: $2" "$tmp/berr" || fail "$1: message $(cat "$tmp/berr"), want '$2'"
  [ ! -e "$tmp/bo" ] || fail "$1: ran something"
}
badspec '{"name": "a", "kind": "pie", "metric": "speedup"}' '$.figures[0].kind: expected "bars", "lines", "stacked" or "timeseries"'
badspec '{"name": "a", "kind": "bars", "metric": "nope"}' '$.figures[0].metric:'
badspec '{"name": "a", "kind": "bars", "metric": "speedup", "mean": "speedup"}' '$.figures[0].mean:'
badspec '{"name": "a", "kind": "lines", "metric": "ipc", "x": "sm_count"}' "\$.figures[0].x: no config sets 'sm_count'"
badspec '{"name": "../a", "kind": "bars", "metric": "ipc"}' '$.figures[0].name:'
badspec '{"name": "a", "kind": "bars", "metric": "ipc", "colour": 1}' "\$.figures[0]: unknown key 'colour'"
badspec '{"name": "a", "kind": "bars", "metric": "ipc", "baseline": "one"}' '$.figures[0].baseline:'
exit $bad
