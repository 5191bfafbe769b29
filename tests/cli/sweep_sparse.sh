#!/usr/bin/env bash
# sweep_sparse.sh -- a sparse experiment matrix and what reads it: a config
# restricted by its "benchmarks" (swl4: the cache-sensitive kmeans only)
# has no point elsewhere (--dry-run, results.csv, derived.csv), the other
# points keep the hashes they have without the restriction; a group mean
# of the restricted config is over the benchmarks it runs on, and a mean of
# a group it runs none of has no row for it; a `best` over partly-run
# configs (swl2 on both, swl4 on kmeans) names its source config; a mean of
# that best has rows under the best's name; a bars figure with "configs"
# (order, a best as a series, its mean in the geomean row) and
# "benchmarks"; a stacked figure's rows and gnuplot `every` ranges over
# the sparse rows; a timeseries figure's default lines only over existing
# points; claims over the restricted config PASS, and one over a mean it
# has no row of is an error naming the claim (exit 2); bad names in a
# config's or a figure's selection are refused with the JSON path (exit 2).
# 5 tiny runs.  Run by ctest: bash sweep_sparse.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
ex="$tmp/exp"
mkdir -p "$ex"

# $1: swl4's extra members, $2: the figures
mk() {
  cat <<J
{"name": "sparse", "benchmarks": ["kmeans", "coulomb"], "sizes": ["tiny"],
 "timeseries": {"interval": 20000},
 "configs": [{"name": "lrr", "set": ["warp_scheduler=lrr"]},
             {"name": "swl2", "set": ["warp_scheduler=swl", "warp_scheduler_params=warp_limit=2"]},
             {"name": "swl4", "set": ["warp_scheduler=swl", "warp_scheduler_params=warp_limit=4"]$1}],
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"},
             {"name": "ipc", "path": "total.gpu_tot_ipc"}],
 "derived": [{"name": "speedup", "kind": "speedup", "of": "cycles", "baseline": "lrr"},
             {"name": "gm", "kind": "geomean", "of": "speedup"},
             {"name": "gm_c", "kind": "geomean", "of": "speedup", "group": {"class": "compute"}},
             {"name": "best_swl", "kind": "best", "of": "speedup", "configs": {"prefix": "swl"}},
             {"name": "gm_best", "kind": "geomean", "of": "best_swl"},
             {"name": "best_at", "kind": "best", "of": "speedup", "configs": {"prefix": "swl"}, "at": "cycles"}],
 "figures": [$2]}
J
}
only=', "benchmarks": [{"class": "cache-sensitive"}]'
figs='{"name": "sp", "kind": "bars", "metric": "speedup", "mean": "gm",
        "configs": ["swl4", "lrr", "best_swl"]},
       {"name": "spc", "kind": "bars", "metric": "speedup", "configs": ["swl2"],
        "benchmarks": ["coulomb"]},
       {"name": "st", "kind": "stacked", "components": ["cycles", "ipc"]},
       {"name": "ts", "kind": "timeseries", "series": "ipc"}'
mk "$only" "$figs" >"$ex/demo.json"
mk "" "$figs" >"$tmp/full.json"

# bad names in the selections: refused before anything runs, the JSON path named
badrun() {  # $1: file, $2: expected message (grep -F)
  "$ws" sweep "$1" --out "$tmp/bad" --dry-run >"$tmp/o" 2>&1; rc=$?
  [ "$rc" -eq 2 ] && grep -qF "$2" "$tmp/o" || fail "$2: exit $rc: $(cat "$tmp/o")"
}
mk ', "benchmarks": ["bfs"]' "" >"$tmp/b1.json"
badrun "$tmp/b1.json" "b1.json: \$.configs[2].benchmarks[0]: benchmark 'bfs' is not in \$.benchmarks"
mk ', "benchmarks": [{"class": "nosuch"}]' "" >"$tmp/b2.json"
badrun "$tmp/b2.json" "\$.configs[2].benchmarks[0]: no benchmark of \$.benchmarks has class 'nosuch'"
mk "$only" '{"name": "f", "kind": "bars", "metric": "speedup", "mean": "gm_c", "configs": ["best_swl"]}' >"$tmp/b7.json"
badrun "$tmp/b7.json" "\$.figures[0].configs[0]: the mean row needs a mean of 'best_swl' of the kind and group of 'gm_c'"
mk "$only" '{"name": "f", "kind": "bars", "metric": "speedup", "configs": ["lrr", "nope"]}' >"$tmp/b3.json"
badrun "$tmp/b3.json" "\$.figures[0].configs[1]: 'nope' is not a config of \$.configs nor a best metric"
mk "$only" '{"name": "f", "kind": "bars", "metric": "ipc", "configs": ["best_swl"]}' >"$tmp/b4.json"
badrun "$tmp/b4.json" "\$.figures[0].configs[0]: 'best_swl' is not a config"
mk "$only" '{"name": "f", "kind": "bars", "metric": "ipc", "benchmarks": ["kmeans", "bfs"]}' >"$tmp/b5.json"
badrun "$tmp/b5.json" "\$.figures[0].benchmarks[1]: benchmark 'bfs' is not in \$.benchmarks"
mk "$only" '{"name": "f", "kind": "timeseries", "series": "ipc", "points": [{"benchmark": "coulomb", "config": "swl4"}]}' >"$tmp/b6.json"
badrun "$tmp/b6.json" "\$.figures[0].points[0]: config 'swl4' does not run on 'coulomb'"

# --dry-run: 5 points, the shared ones with the unrestricted file's hashes
"$ws" sweep "$ex/demo.json" --dry-run --out "$tmp/d" >"$tmp/dry" 2>&1 || fail "dry-run: $(cat "$tmp/dry")"
"$ws" sweep "$tmp/full.json" --dry-run --out "$tmp/d" >"$tmp/dryfull" 2>&1 || fail "dry-run full"
grep -q '^5 points of ' "$tmp/dry" || fail "dry-run count: $(head -1 "$tmp/dry")"
grep -q 'coulomb tiny swl4' "$tmp/dry" && fail "dry-run lists coulomb swl4"
grep -q 'coulomb tiny swl4' "$tmp/dryfull" || fail "the unrestricted file lacks coulomb swl4"
for p in "kmeans tiny lrr" "kmeans tiny swl4" "coulomb tiny swl2"; do
  h1=$(grep " $p\$" "$tmp/dry" | awk '{print $2}'); h2=$(grep " $p\$" "$tmp/dryfull" | awk '{print $2}')
  [ -n "$h1" ] && [ "$h1" = "$h2" ] || fail "hash of $p: '$h1' vs '$h2'"
done

needs_cuda "$ws" "the benchmarks"
command -v gnuplot >/dev/null || fail "gnuplot is not installed (Debian gnuplot-nox; scripts/bootstrap.sh)"
claim() { printf '{"id": "%s", "section": "t §1", "text": "c", "paper": 1, %s}' "$1" "$2"; }
printf '{"claims": [%s, %s, %s]}\n' \
  "$(claim gm-swl4 '"band": [0, 100], "value": {"metric": "gm", "config": "swl4"}')" \
  "$(claim gm-best '"band": [0, 100], "value": {"metric": "gm_best", "config": "best_swl"}')" \
  "$(claim each-swl4 '"band": [0, 100], "each": {"metric": "speedup", "config": "swl4"}')" \
  >"$ex/demo.claims.json"
out="$tmp/out"
LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" reproduce demo --experiments-dir "$ex" --jobs 2 \
  --out "$out" --bin-dir "$tmp/bin" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 0 ] || fail "reproduce exited $rc: $(tail -5 "$tmp/e") $(cat "$tmp/o")"
grep -q 'sparse: 5 points, 5 to run' "$tmp/e" || fail "progress count: $(grep points "$tmp/e")"
for c in gm-swl4 gm-best each-swl4; do grep -q "^PASS $c:" "$tmp/o" || fail "claim $c: $(cat "$tmp/o")"; done
cat "$out/results.csv" "$out/derived.csv"
[ "$(wc -l <"$out/results.csv")" -eq 6 ] || fail "results.csv: not 5 rows"
grep -q '^coulomb,tiny,swl4,' "$out/results.csv" && fail "results.csv has coulomb swl4"
grep -q ',coulomb,tiny,swl4,' "$out/derived.csv" && fail "derived.csv has coulomb swl4"
d() { awk -F, -v m="$1" -v b="$2" -v c="$3" '$1==m&&$2==b&&$4==c{print $6}' "$out/derived.csv"; }
src() { awk -F, -v m="$1" -v b="$2" '$1==m&&$2==b{print $4 "/" $7}' "$out/derived.csv"; }
# the restricted config's mean is over kmeans alone; none of the compute group
python3 -c "import sys; a,b=map(float,sys.argv[1:]); assert abs(a-b)<=1e-9*abs(b)" \
  "$(d gm all swl4)" "$(d speedup kmeans swl4)" || fail "gm of swl4 is not kmeans's speedup"
[ -n "$(d gm_c compute swl2)" ] || fail "gm_c of swl2 is empty"
grep -q '^gm_c,compute,tiny,swl4,' "$out/derived.csv" && fail "gm_c has a row for swl4"
# best: kmeans over swl2 and swl4, coulomb over swl2 alone
k2=$(d speedup kmeans swl2); k4=$(d speedup kmeans swl4)
wantk=$(python3 -c "import sys; print('swl2' if float(sys.argv[1]) >= float(sys.argv[2]) else 'swl4')" "$k2" "$k4")
[ "$(src best_swl kmeans)" = "best_swl/$wantk" ] || fail "best_swl kmeans: $(src best_swl kmeans), want best_swl/$wantk"
[ "$(src best_swl coulomb)" = "best_swl/swl2" ] || fail "best_swl coulomb: $(src best_swl coulomb)"
[ "$(d best_swl coulomb best_swl)" = "$(d speedup coulomb swl2)" ] || fail "best_swl coulomb value"
[ -n "$(d gm_best all best_swl)" ] || fail "gm_best has no value under best_swl"
# best with "at": the cycles of the winning config, not its speedup
cyc() { awk -F, -v b="$1" -v c="$2" '$1==b&&$3==c{print $8}' "$out/results.csv"; }
[ "$(d best_at kmeans best_at)" = "$(cyc kmeans "$wantk")" ] || fail "best_at kmeans: $(d best_at kmeans best_at), want $wantk's cycles $(cyc kmeans "$wantk")"
[ "$(src best_at kmeans)" = "best_at/$wantk" ] || fail "best_at's source: $(src best_at kmeans)"
# the bars figure: series in the given order, the best and its mean
f="$out/figures"
want="benchmark,swl4,lrr,best_swl
kmeans,$k4,$(d speedup kmeans lrr),$(d best_swl kmeans best_swl)
coulomb,,$(d speedup coulomb lrr),$(d best_swl coulomb best_swl)
geomean,$(d gm all swl4),$(d gm all lrr),$(d gm_best all best_swl)"
[ "$(cat "$f/sp.csv")" = "$want" ] || fail "sp.csv: want
$want
got
$(cat "$f/sp.csv")"
[ "$(cat "$f/spc.csv")" = "benchmark,swl2
coulomb,$(d speedup coulomb swl2)" ] || fail "spc.csv: $(cat "$f/spc.csv")"
# stacked: one row per existing point, the groups' every ranges follow them
[ "$(cut -d, -f1,2 "$f/st.csv" | tr '\n' ' ')" = "benchmark,config kmeans,lrr kmeans,swl2 kmeans,swl4 coulomb,lrr coulomb,swl2 " ] \
  || fail "st.csv rows: $(cut -d, -f1,2 "$f/st.csv" | tr '\n' ' ')"
grep -q 'every ::0::2 ' "$f/st.gp" && grep -q 'every ::3::4 ' "$f/st.gp" || fail "st.gp every: $(grep -o 'every ::[0-9]*::[0-9]*' "$f/st.gp" | tr '\n' ' ')"
[ "$(head -1 "$f/ts.csv")" = "cycle,kmeans/lrr,kmeans/swl2,kmeans/swl4,coulomb/lrr,coulomb/swl2" ] \
  || fail "ts.csv header: $(head -1 "$f/ts.csv")"
for g in sp spc st ts; do [ -s "$f/$g.png" ] || fail "no $g.png"; done

# a claim over a mean the restricted config has no row of: an error naming it
printf '{"claims": [%s]}\n' \
  "$(claim gm-c-swl4 '"band": [0, 100], "value": {"metric": "gm_c", "config": "swl4"}')" \
  >"$ex/demo.claims.json"
LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" reproduce demo --experiments-dir "$ex" --resume \
  --out "$out" --bin-dir "$tmp/bin" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "claim 'gm-c-swl4': gm_c has no row under config 'swl4'" "$tmp/e" \
  || fail "claim over no rows: exit $rc: $(cat "$tmp/e")"
exit $bad
