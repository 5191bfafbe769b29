#!/usr/bin/env bash
# sweep.sh -- `warpsim sweep`: an experiment of 2 tiny benchmarks x 2
# configs gives byte-identical results.csv and derived.csv at --jobs 1 and
# --jobs 2; --resume reruns nothing when nothing changed and only the
# changed points when a setting changes; a point with a bad --set, one whose
# benchmark prints FAIL (WARPSIM_BENCH_CORRUPT) and one past the timeout are
# recorded as failed with empty statistic cells while the others complete
# (exit 1); malformed experiment files are refused naming the file and the
# JSON path (exit 2).  Needs nvcc and the CUDA shims: exits 77 without them.
# Run by ctest: bash sweep.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" sweep --bin-dir "$tmp/bin" "$@"; }
lines() { wc -l <"$1" | tr -d ' '; }

cat >"$tmp/e.json" <<'J'
{"name": "t", "benchmarks": ["kmeans", "coulomb"], "sizes": ["tiny"],
 "configs": [{"name": "lrr", "set": ["warp_scheduler=lrr"]},
             {"name": "gto", "config": "gtx480", "set": ["warp_scheduler=gto"]}],
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"},
             "total.L1D_total_cache_miss_rate", "kernels[0].launches",
             {"name": "l2_reads", "path": "report.total.launches"},
             {"name": "insns", "path": "total.warp_insns"}],
 "derived": [{"name": "speedup", "kind": "speedup", "of": "cycles", "baseline": "lrr"},
             {"name": "gm", "kind": "geomean", "of": "speedup"},
             {"name": "cpki", "kind": "quotient", "of": "cycles", "over": "insns", "scale": 1000},
             {"name": "both", "kind": "sum", "of": ["cycles", "insns", "cpki"]},
             {"name": "gk", "kind": "mean", "of": "cycles", "group": {"benchmarks": ["kmeans"], "label": "K"}}]}
J

# --dry-run: the points in order, nothing run
run "$tmp/e.json" --dry-run --out "$tmp/dry" >"$tmp/dry.txt" 2>&1; rc=$?
[ "$rc" -eq 0 ] || fail "--dry-run exited $rc"
[ "$(grep -cE '^ +[1-4] [0-9a-f]{16} ' "$tmp/dry.txt")" -eq 4 ] || fail "--dry-run: $(cat "$tmp/dry.txt")"
sed -n 2p "$tmp/dry.txt" | grep -q ' kmeans tiny lrr$' || fail "first point is not kmeans tiny lrr"
[ ! -e "$tmp/dry" ] || fail "--dry-run wrote $tmp/dry"

# --jobs 1 and --jobs 2: the same tables
run "$tmp/e.json" --jobs 1 --out "$tmp/j1" >"$tmp/o1" 2>"$tmp/e1"; rc=$?
[ "$rc" -eq 0 ] || fail "--jobs 1 exited $rc: $(tail -5 "$tmp/e1")"
run "$tmp/e.json" --jobs 2 --out "$tmp/j2" >"$tmp/o2" 2>"$tmp/e2"; rc=$?
[ "$rc" -eq 0 ] || fail "--jobs 2 exited $rc: $(tail -5 "$tmp/e2")"
cat "$tmp/j1/results.csv" "$tmp/j1/derived.csv"
cmp -s "$tmp/j1/results.csv" "$tmp/j2/results.csv" || fail "results.csv differs between --jobs 1 and 2"
cmp -s "$tmp/j1/derived.csv" "$tmp/j2/derived.csv" || fail "derived.csv differs between --jobs 1 and 2"
head -1 "$tmp/j1/results.csv" | grep -qx \
  'benchmark,size,config,seed,hash,status,exit_status,cycles,total.L1D_total_cache_miss_rate,kernels\[0\].launches,l2_reads,insns' \
  || fail "results.csv header: $(head -1 "$tmp/j1/results.csv")"
[ "$(grep -cE '^(kmeans|coulomb),tiny,(lrr|gto),,[0-9a-f]{16},ok,0,[1-9][0-9]*,0?\.?[0-9.e-]*,1,1,[1-9][0-9]*$' "$tmp/j1/results.csv")" -eq 4 ] \
  || fail "results.csv rows malformed"
sed -n 2p "$tmp/j1/results.csv" | grep -q '^kmeans,tiny,lrr,' || fail "row 1 is not kmeans lrr"
[ "$(lines "$tmp/j1/runs.jsonl")" -eq 4 ] || fail "runs.jsonl has $(lines "$tmp/j1/runs.jsonl") lines, want 4"
grep -q '"status":"ok","exit_status":0,"verdict":"PASS ' "$tmp/j1/runs.jsonl" || fail "runs.jsonl lacks status/verdict"
grep -q '"version":"0\.1\.0+[0-9a-f]*"' "$tmp/j1/runs.jsonl" || fail "runs.jsonl lacks the version"
grep -q '"stats":{"simulator":"warpsim"' "$tmp/j1/runs.jsonl" || fail "runs.jsonl lacks the statistics"
grep -q '^gm,all,tiny,lrr,,1,$' "$tmp/j1/derived.csv" || fail "the baseline's geomean speedup is not 1"
# the speedup is lrr cycles / gto cycles
lc=$(awk -F, '$1=="kmeans"&&$3=="lrr"{print $8}' "$tmp/j1/results.csv")
gc=$(awk -F, '$1=="kmeans"&&$3=="gto"{print $8}' "$tmp/j1/results.csv")
sp=$(awk -F, '$1=="speedup"&&$2=="kmeans"&&$4=="gto"{print $6}' "$tmp/j1/derived.csv")
awk -v a="$lc" -v b="$gc" -v s="$sp" 'BEGIN{d=a/b-s; exit !(d<1e-6&&d>-1e-6)}' \
  || fail "speedup $sp is not $lc/$gc"
grep -Eq '^sweep: \[4/4\] ok ' "$tmp/e1" || fail "no plain progress line: $(cat "$tmp/e1")"
# quotient = cycles / insns * 1000; sum = cycles + insns + cpki (per point)
ki=$(awk -F, '$1=="kmeans"&&$3=="gto"{print $12}' "$tmp/j1/results.csv")
q=$(awk -F, '$1=="cpki"&&$2=="kmeans"&&$4=="gto"{print $6}' "$tmp/j1/derived.csv")
sm=$(awk -F, '$1=="both"&&$2=="kmeans"&&$4=="gto"{print $6}' "$tmp/j1/derived.csv")
awk -v c="$gc" -v i="$ki" -v q="$q" -v s="$sm" 'BEGIN{d=c/i*1000-q; e=c+i+q-s; exit !(q>0&&d<1e-6&&d>-1e-6&&e<1e-3&&e>-1e-3)}' \
  || fail "quotient $q / sum $sm wrong for cycles $gc, insns $ki"
# a group by name: the mean over kmeans alone, labelled K
grep -qx "gk,K,tiny,gto,,$gc," "$tmp/j1/derived.csv" || fail "group by name: $(grep '^gk,' "$tmp/j1/derived.csv")"

# --resume: nothing changed, nothing runs
cp "$tmp/j1/results.csv" "$tmp/before.csv"
run "$tmp/e.json" --resume --out "$tmp/j1" >/dev/null 2>"$tmp/e3"; rc=$?
[ "$rc" -eq 0 ] || fail "--resume exited $rc"
grep -q '4 points, 0 to run (4 kept' "$tmp/e3" || fail "--resume reran: $(cat "$tmp/e3")"
[ "$(lines "$tmp/j1/runs.jsonl")" -eq 4 ] || fail "--resume added lines to runs.jsonl"
cmp -s "$tmp/before.csv" "$tmp/j1/results.csv" || fail "--resume changed results.csv"
# a setting of one config changes: only its 2 points run again
sed 's/"warp_scheduler=gto"/"warp_scheduler=oldest"/' "$tmp/e.json" >"$tmp/e2.json"
run "$tmp/e2.json" --resume --out "$tmp/j1" >/dev/null 2>"$tmp/e4"; rc=$?
[ "$rc" -eq 0 ] || fail "--resume after a change exited $rc"
grep -q '4 points, 2 to run (2 kept' "$tmp/e4" || fail "--resume after a change: $(head -1 "$tmp/e4")"
[ "$(grep -c '^sweep: \[' "$tmp/e4")" -eq 2 ] || fail "--resume ran other than 2 points"
[ "$(grep -c '^sweep: \[.* gto' "$tmp/e4")" -eq 2 ] || fail "--resume reran an unchanged point"
[ "$(lines "$tmp/j1/runs.jsonl")" -eq 6 ] || fail "runs.jsonl: $(lines "$tmp/j1/runs.jsonl") lines, want 6"

# failures are recorded and the sweep goes on
cat >"$tmp/f.json" <<'J'
{"name": "f", "benchmarks": ["kmeans", "coulomb"],
 "configs": [{"name": "good", "set": ["warp_scheduler=gto"]},
             {"name": "badset", "set": ["no_such_key=1"]},
             {"name": "corrupt", "env": {"WARPSIM_BENCH_CORRUPT": "1"}}],
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"}]}
J
run "$tmp/f.json" --jobs 2 --out "$tmp/f" >"$tmp/fo" 2>"$tmp/fe"; rc=$?
[ "$rc" -eq 1 ] || fail "failing points: exit $rc, want 1"
cat "$tmp/f/results.csv"
[ "$(grep -cE '^(kmeans|coulomb),tiny,good,,[0-9a-f]{16},ok,0,[1-9][0-9]*$' "$tmp/f/results.csv")" -eq 2 ] \
  || fail "the good points did not complete"
[ "$(grep -cE '^(kmeans|coulomb),tiny,badset,,[0-9a-f]{16},error,2,$' "$tmp/f/results.csv")" -eq 2 ] \
  || fail "the bad --set points are not recorded as error with an empty cell"
[ "$(grep -cE '^(kmeans|coulomb),tiny,corrupt,,[0-9a-f]{16},fail,[1-9][0-9]*,$' "$tmp/f/results.csv")" -eq 2 ] \
  || fail "the FAIL points are not recorded as fail with an empty cell"
[ "$(lines "$tmp/f/runs.jsonl")" -eq 6 ] || fail "runs.jsonl of the failing sweep: want 6 lines"
grep -q '"config":"corrupt".*"status":"fail","exit_status":[1-9][0-9]*,"verdict":"FAIL ' "$tmp/f/runs.jsonl" \
  || fail "runs.jsonl lacks the FAIL verdict"
grep -q 'sweep: 6 points, 2 ok, 4 failed' "$tmp/fo" || fail "summary: $(cat "$tmp/fo")"
grep -lq "no_such_key" "$tmp/f/logs/"*.log || fail "the bad --set message is not in a log"
# a run past the timeout is killed and recorded
sed 's/"name": "f",/"name": "f", "timeout": 0.05,/' "$tmp/f.json" >"$tmp/t.json"
run "$tmp/t.json" --out "$tmp/t" >/dev/null 2>"$tmp/te"; rc=$?
[ "$rc" -eq 1 ] || fail "timeouts: exit $rc, want 1"
grep -qE '^kmeans,tiny,good,,[0-9a-f]{16},timeout,-1,$' "$tmp/t/results.csv" \
  || fail "a run past the timeout is not recorded: $(cat "$tmp/t/results.csv")"

# malformed experiment files: file + JSON path (or line:column), exit 2
bad_file() {  # NAME CONTENT EXPECTED-MESSAGE
  printf '%s\n' "$2" >"$tmp/$1.json"
  run "$tmp/$1.json" --out "$tmp/bad" >/dev/null 2>"$tmp/$1.err"; local rc=$?
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2"
  grep -qF -- "$3" "$tmp/$1.err" || fail "$1: message: $(cat "$tmp/$1.err")"
}
bad_file syntax '{"benchmarks": ["kmeans",]}' "$tmp/syntax.json:1:"
bad_file nobench '{"benchmarks": ["nosuch"], "configs": [{"name": "a"}], "collect": ["total.cycles"]}' \
  "$tmp/nobench.json: \$.benchmarks[0]: no benchmark 'nosuch'"
bad_file badset '{"benchmarks": ["kmeans"], "configs": [{"name": "a", "set": [3]}], "collect": ["x"]}' \
  "$tmp/badset.json: \$.configs[0].set[0]: expected a string"
bad_file badkey '{"benchmarks": ["kmeans"], "configs": [{"name": "a", "sett": []}], "collect": ["x"]}' \
  "$tmp/badkey.json: \$.configs[0]: unknown key 'sett'"
bad_file badpath '{"benchmarks": ["kmeans"], "configs": [{"name": "a"}], "collect": ["total..x"]}' \
  "$tmp/badpath.json: \$.collect[0]: malformed path 'total..x'"
bad_file badbase '{"benchmarks": ["kmeans"], "configs": [{"name": "a"}], "collect": ["x"], "derived": [{"name": "s", "kind": "speedup", "of": "x", "baseline": "b"}]}' \
  "$tmp/badbase.json: \$.derived[0].baseline: expected the name of a config"
bad_file badquot '{"benchmarks": ["kmeans"], "configs": [{"name": "a"}], "collect": ["x"], "derived": [{"name": "q", "kind": "quotient", "of": "x", "over": "nope"}]}' \
  "$tmp/badquot.json: \$.derived[0]: 'of' and 'over' must each be a collected statistic or an earlier per-point metric"
bad_file badsum '{"benchmarks": ["kmeans"], "configs": [{"name": "a"}], "collect": ["x"], "derived": [{"name": "s", "kind": "sum", "of": ["x"]}]}' \
  "$tmp/badsum.json: \$.derived[0].of: a sum takes an array of 2 to 16 metrics"
bad_file badgroup '{"benchmarks": ["kmeans"], "configs": [{"name": "a"}], "collect": ["x"], "derived": [{"name": "m", "kind": "mean", "of": "x", "group": {"benchmarks": ["bfs"]}}]}' \
  "$tmp/badgroup.json: \$.derived[0].group.benchmarks[0]: expected one of the experiment's benchmarks"
bad_file badclass '{"benchmarks": [{"class": "nosuch"}], "configs": [{"name": "a"}], "collect": ["x"]}' \
  "\$.benchmarks[0]: no benchmark of class 'nosuch'"
[ ! -e "$tmp/bad" ] || fail "a refused file still created the output folder"
LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" sweep >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "no file: exit $rc, want 2"
exit $bad
