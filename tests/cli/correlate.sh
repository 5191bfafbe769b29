#!/usr/bin/env bash
# correlate.sh -- `warpsim correlate` on two tiny benchmarks of the bundled
# GPGPU-Sim data set plus one GPGPU-Sim did not complete: a row per run with
# both simulators' cycles, the ratio (held in a loose band [0.2, 5] so a
# regression of the timing model shows), L1D/L2 miss rates side by side and
# the instruction-count column; the GTO-vs-LRR table; the summary; --json
# valid and agreeing with the table; the same table with --jobs 2; --plot
# writing PNG and SVG (gnuplot is installed by scripts/bootstrap.sh, so its
# absence FAILS here); gnuplot missing named with its Debian package;
# usage errors and a broken data set named; the machine's "options not
# used" warning printed once for the whole data set.  Needs nvcc and the CUDA shims:
# exits 77 (skipped) without them.
# Run by ctest: bash correlate.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@"; }
names=(backprop sgemm montecarlo)

run correlate --bin-dir "$tmp" --json "$tmp/c.json" --plot "$tmp/plot" "${names[@]}" \
  >"$tmp/out1" 2>"$tmp/err1"; rc=$?
[ "$rc" -eq 0 ] || fail "correlate exited $rc: $(tail -3 "$tmp/err1")"
cat "$tmp/out1"
# four runs on one machine: its "options not used" warning once, not per run
nw="$(grep -c 'GPGPU-Sim options not used' "$tmp/err1")"
[ "$nw" -eq 1 ] || fail "the configuration warning is printed $nw times, not once"
grep -q "^data set: $src/configs/gpgpusim/correlation/gpgpusim-gtx480.json$" "$tmp/out1" \
  || fail "the default data set is not the bundled one"
grep -Eq '^benchmark +sched +gpgpusim +warpsim +ratio +L1D miss +L2 miss +insns$' "$tmp/out1" \
  || fail "no table header"
num='[0-9]+'; rate='([01]\.[0-9]{2}|-)'
for b in backprop sgemm; do
  for s in gto lrr; do
    line="$(grep -E "^$b +$s " "$tmp/out1")"
    [ -n "$line" ] || { fail "no row for $b $s"; continue; }
    echo "$line" | grep -Eq "^$b +$s +$num +$num +[0-9]+\.[0-9]{2} +$rate +$rate +$rate +$rate +(equal|[+-][0-9]+)$" \
      || fail "malformed row: $line"
    # warpsim counts gpu_tot_sim_insn as GPGPU-Sim does (no race, no
    # vector-load merge in these two): the counts must be equal
    [ "$(echo "$line" | awk '{print $NF}')" = equal ] || fail "$b $s: instruction counts differ: $line"
    ratio="$(echo "$line" | awk '{print $5}')"
    awk -v r="$ratio" 'BEGIN { exit !(r >= 0.2 && r <= 5) }' \
      || fail "$b $s: cycle ratio $ratio outside [0.2, 5]"
    gs="$(echo "$line" | awk '{print $3}')"
    # the GPGPU-Sim side is the data set's own number
    python3 - "$src/configs/gpgpusim/correlation/gpgpusim-gtx480.json" "$b" "$s" "$gs" <<'PY' || fail "$b $s: GPGPU-Sim cycles $gs are not the data set's"
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["runs"] if r["benchmark"] == sys.argv[2] and r["size"] == "tiny" and r["scheduler"] == sys.argv[3]]
sys.exit(0 if len(r) == 1 and r[0]["cycles"] == int(sys.argv[4]) else 1)
PY
  done
done
grep -Eq '^montecarlo +gto +not comparable: GPGPU-Sim did not complete it: .*SIGSEGV' "$tmp/out1" \
  || fail "montecarlo (SIGSEGV in GPGPU-Sim) is not reported as not comparable"
grep -Eq '^backprop +-?[0-9]+\.[0-9]% +-?[0-9]+\.[0-9]% +(yes|NO|\(not checked\))$' "$tmp/out1" \
  || fail "no GTO-vs-LRR row for backprop"
for l in '^summary over 4 runs compared \(2 not comparable, 0 failed\):$' \
         '^  Pearson r of cycles: +-?[0-9.]+ \(linear\), -?[0-9.]+ \(log cycles\)$' \
         '^  mean absolute rel\. error: +[0-9.]+ %$' \
         '^  within \+-20 %: +[0-4] of 4$' '^  within \+-25 %: +[0-4] of 4$' \
         '^  instruction counts equal: +4 of 4 \(GPGPU-Sim thread_insns vs warpsim .*gpu_tot_sim_insn\)$' \
         '^  GTO-vs-LRR sign agrees: +[0-2] of [0-2] benchmarks'; do
  grep -Eq "$l" "$tmp/out1" || fail "summary line missing: $l"
done

# --json: valid, the fields, and the table's numbers
python3 - "$tmp/c.json" "$tmp/out1" <<'PY' || fail "--json: see above"
import json, sys
d = json.load(open(sys.argv[1]))
table = open(sys.argv[2]).read().splitlines()
for k in ("data_set", "simulator", "machine", "size", "runs", "gto_vs_lrr", "summary"):
    assert k in d, "no " + k
assert len(d["runs"]) == 6, len(d["runs"])
for r in d["runs"]:
    if r["benchmark"] == "montecarlo":
        assert not r["comparable"] and not r["ok"] and "SIGSEGV" in r["why"], r
        continue
    assert r["ok"], r
    g, w = r["gpgpusim"], r["warpsim"]
    for k in ("cycles", "l1d_miss_rate", "l2_miss_rate"):
        assert k in g and k in w, k
    assert "thread_insns" in g and "gpu_tot_sim_insn" in w and "insn_source" in w
    assert isinstance(r["insn_equal"], bool)
    assert r["insn_equal"] == (g["thread_insns"] == w["gpu_tot_sim_insn"])
    row = [l.split() for l in table if l.split()[:2] == [r["benchmark"], r["scheduler"]]]
    assert len(row) == 1 and int(row[0][3]) == w["cycles"] and int(row[0][2]) == g["cycles"], row
s = d["summary"]
for k in ("runs", "not_comparable", "failed", "pearson_r", "pearson_r_log", "mare",
          "within_20pct", "within_25pct", "insn_equal", "sign_checked", "sign_agree"):
    assert k in s, "summary has no " + k
assert s["runs"] == 4 and s["not_comparable"] == 2 and s["failed"] == 0, s
print("json ok")
PY
for f in plot.png plot.svg; do
  [ -s "$tmp/$f" ] || fail "--plot did not write $f (gnuplot-nox missing? scripts/bootstrap.sh installs it)"
done
head -c 8 "$tmp/plot.png" | od -An -c | grep -q 'P   N   G' || fail "plot.png is not a PNG"
grep -q '<svg' "$tmp/plot.svg" || fail "plot.svg is not an SVG"

# --jobs 2: the same table, whatever order the workers finish in
run correlate --bin-dir "$tmp" --jobs 2 "${names[@]}" >"$tmp/out2" 2>"$tmp/err2" \
  || fail "--jobs 2 exited $?: $(tail -3 "$tmp/err2")"
cmp -s "$tmp/out1" "$tmp/out2" || { fail "--jobs 2 printed a different report"; diff "$tmp/out1" "$tmp/out2"; }

# an explicit machine is named in the header
run correlate --bin-dir "$tmp" --config gtx480 backprop >"$tmp/out3" 2>"$tmp/err3" \
  || fail "--config gtx480 exited $?"
grep -q '^warpsim correlate: .* vs warpsim on gtx480, size tiny$' "$tmp/out3" \
  || fail "--config gtx480 not named in the header: $(head -1 "$tmp/out3")"

# gnuplot missing: refused before any simulation, naming the package
PATH=/nonexistent run correlate --bin-dir "$tmp" --plot "$tmp/p2" backprop >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 1 ] || fail "--plot without gnuplot: exit $rc, want 1"
grep -q 'gnuplot-nox' "$tmp/e" || fail "--plot without gnuplot: message: $(cat "$tmp/e")"
[ -s "$tmp/o" ] && fail "--plot without gnuplot still ran: $(head -2 "$tmp/o")"

# usage errors: exit 2, naming what is wrong
expect2() {  # expect2 PATTERN ARGS...: exit 2 and PATTERN on stderr
  local pat="$1"; shift
  run correlate --bin-dir "$tmp" "$@" >"$tmp/o" 2>"$tmp/e"; local rc=$?
  [ "$rc" -eq 2 ] || fail "correlate $*: exit $rc, want 2"
  grep -q -- "$pat" "$tmp/e" || fail "correlate $*: message: $(cat "$tmp/e")"
}
expect2 "no run of 'nosuch' at size tiny in the data set" nosuch
expect2 "no run of 'bfs' at size small" --size small bfs
expect2 "expected tiny or small" --size default
expect2 "expected a number from 1 to 64" --jobs 0
expect2 "unknown option '--nosuch'" --nosuch
# a broken data set: its file and line
printf '{"runs": [\n  {"benchmark": \n' >"$tmp/broken.json"
run correlate "$tmp/broken.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 1 ] || fail "broken data set: exit $rc, want 1"
grep -q "$tmp/broken.json:[0-9]*: cannot read the data set" "$tmp/e" \
  || fail "broken data set: message: $(cat "$tmp/e")"
# nbody: CTA 0's second ld.v4 of each warp hits in GPGPU-Sim's L1D only
# because its instruction cache (GPGPU-Sim's -gpgpu_cache:il1, l1i.model)
# delays it past the first one's fill; a vector load completed by a hit is
# counted once per register there, so without the cache the count is 384 low
run correlate --bin-dir "$tmp" nbody >"$tmp/nb" 2>"$tmp/nbe"; rc=$?
[ "$rc" -eq 0 ] || fail "correlate nbody exited $rc: $(tail -3 "$tmp/nbe")"
for s in gto lrr; do
  line="$(grep -E "^nbody +$s " "$tmp/nb")"
  [ "$(echo "$line" | awk '{print $NF}')" = equal ] || fail "nbody $s: instruction counts differ: $line"
done
[ "$bad" -eq 0 ] && echo "correlate: ok"
exit "$bad"
