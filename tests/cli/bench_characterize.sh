#!/usr/bin/env bash
# bench_characterize.sh -- `warpsim bench run` and `bench characterize` on
# two small benchmarks (triad: symmetric streaming, no barriers; nw:
# barriers and unequal warps): the Table 2 columns (avg/std, max/min, ai)
# and the --json table.  Needs nvcc and the CUDA shims: exits 77
# (skipped) without them.  In the sanitizer build $WS_TEST_PRELOAD holds the
# ASan runtime, preloaded because nvcc's output is not instrumented.
# Run by ctest: bash bench_characterize.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmark programs"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@" >"$out" 2>"$err"; }

run bench run triad --size tiny --bin-dir "$tmp" --per-kernel --sms 4; rc=$?
[ "$rc" -eq 0 ] || fail "bench run triad exited $rc"
grep -q "^PASS triad size=tiny " "$out" || fail "no PASS line"
grep -Eq "^warpsim bench: triad: 2 launches, [1-9][0-9]* warp instructions, [1-9][0-9]* memory .* 0 barrier, warp length [1-9][0-9]*\.\.[1-9]" "$out" \
  || fail "no statistics summary"
grep -q "^warpsim: launch 1: " "$err" || fail "--per-kernel did not reach warpsim exec"
grep -q "on sm_86, 4 SMs" "$err" || fail "--sms did not reach warpsim exec"
grep -q "building triad" "$err" || fail "triad was not built"
run bench run triad --size tiny --bin-dir "$tmp" --quiet --seed 7; rc=$?
[ "$rc" -eq 0 ] || fail "second run exited $rc"
grep -q "building" "$err" && fail "an up-to-date program was rebuilt"
grep -q "^PASS triad size=tiny seed=7 " "$out" || fail "--seed did not reach the program"

run bench characterize --size tiny --bin-dir "$tmp" --json "$tmp/char.json" triad nw; rc=$?
[ "$rc" -eq 0 ] || fail "characterize exited $rc: $(cat "$err")"
# columns: warps warp-insns mem-insns avg std max/min ai lanes barriers sym?
num='[0-9]+'; f='[0-9]+\.[0-9]+'; pos='([1-9][0-9]*\.[0-9]+|0\.[0-9]*[1-9][0-9]*)'
grep -q "avg/std: mean and standard deviation" "$out" || fail "header does not explain avg/std"
cols='warps +warp-insns +mem-insns +avg +std +max/min +ai +lanes +barriers +sym\?'
grep -Eq "^benchmark +kernel +$cols +matches manifest$" "$out" || fail "column header"
grep -Eq "^triad +\(all\) +$num +$num +$num +$pos +$f +1\.000 +$f +$f +0 +sym +yes$" "$out" \
  || fail "triad row"
# every warp of a kernel equally long: std exactly 0, max/min 1
grep -Eq "^ +vec_add +$num +$num +$num +$pos +0\.0 +1\.000 +$f +$f +0 +sym$" "$out" \
  || fail "vec_add row"
grep -Eq "^ +triad +$num +$num +$num +$pos +0\.0 +1\.000 +$f +$f +0 +sym$" "$out" \
  || fail "triad kernel row"
grep -Eq "^nw +\(all\) +$num +$num +$num +$pos +$pos +$f +$f +$f +[1-9][0-9]* +asym +yes$" "$out" \
  || fail "nw row (std > 0, barriers)"
# avg = warp-insns / warps; ai = (warp-insns - mem-insns) / mem-insns, non-memory per memory
awk '$1 == "vec_add" || $1 == "nw_diagonal" {
       if (sprintf("%.1f", $3 / $2) != $5) bad = 1
       if (sprintf("%.2f", ($3 - $4) / $4) != $8) bad = 1
       n++ }
     END { exit bad || n != 2 }' "$out" || fail "avg or ai is not what the columns give"
grep -q "^2 benchmarks: 2 match their manifest tags, 0 differ, 0 failed$" "$out" \
  || fail "summary line"
python3 -m json.tool "$tmp/char.json" >/dev/null || fail "--json wrote invalid JSON"
python3 - "$tmp/char.json" <<'PY' || fail "--json content"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
assert d["size"] == "tiny" and d["symmetric_max_min"] == 1.02, d
t, n = b["triad"], b["nw"]
assert (t["tag"], t["verdict"], t["match"]) == ("symmetric", "sym", True), t
assert (n["tag"], n["verdict"], n["match"]) == ("asymmetric", "asym", True), n
ks = {k["name"]: k for k in t["kernels"]}
assert set(ks) == {"vec_add", "triad"}, ks
for k in ks.values():
    assert k["avg"] > 0 and k["std"] == 0 and k["max"] == k["min"] and k["max_min"] == 1, k
    assert k["symmetric"] and k["barriers"] == 0, k
    assert abs(k["ai"] - (k["warp_insns"] - k["mem_insns"]) / k["mem_insns"]) < 1e-6, k
(nk,) = n["kernels"]
assert nk["name"] == "nw_diagonal" and nk["std"] > 0 and nk["barriers"] > 0, nk
assert not nk["symmetric"] and abs(nk["max_min"] - nk["max"] / nk["min"]) < 1e-6, nk
assert abs(nk["avg"] - nk["warp_insns"] / nk["warps"]) < 1e-6, nk
assert n["total"]["warps"] == nk["warps"], n
PY
run bench run triad --size tiny --bin-dir "$tmp" --json "$tmp/x.json"; rc=$?
[ "$rc" -eq 2 ] || fail "bench run --json exited $rc, want 2"
run bench characterize --size tiny --bin-dir "$tmp" --json "$tmp/no/such/dir/c.json" triad; rc=$?
[ "$rc" -eq 2 ] || fail "unwritable --json exited $rc, want 2"
[ -s "$out" ] && fail "characterized before checking --json"
grep -q -- "--json '.*': cannot write there" "$err" || fail "no message for an unwritable --json"
run bench characterize --size tiny --bin-dir "$tmp" nosuch; rc=$?
[ "$rc" -eq 2 ] || fail "unknown name exited $rc, want 2"

if [ "$bad" -ne 0 ]; then echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; fi
[ "$bad" -eq 0 ] && echo "bench characterize: ok"
exit "$bad"
