#!/usr/bin/env bash
# reproduce.sh -- `warpsim reproduce`: over an experiments folder of its own
# (--experiments-dir; kmeans and coulomb at tiny, lrr and gto: 4 runs, reused
# with --resume by the later papers), a claims file whose claims hold gives
# PASS lines, exit 0 and report.md with the claims table; one with a claim
# that cannot hold gives a FAIL line and exit 1; a claim whose benchmark
# failed is SKIP naming the run and the sweep's failure makes the exit 1; a
# malformed claims file and a claim naming a metric the tables lack are
# refused naming the file and the claim (exit 2); --list shows which papers
# have files; an unknown paper and a paper without files are clear errors.
# The `best` derived metric (the best config per benchmark) is checked
# here too.  Needs nvcc and the CUDA shims: exits 77 without them.
# Run by ctest: bash reproduce.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
ex="$tmp/exp"
mkdir -p "$ex"
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" reproduce --experiments-dir "$ex" "$@"; }

# the usage errors need no CUDA: check them first
cat >"$ex/demo.json" <<'J'
{"name": "t", "benchmarks": ["kmeans", "coulomb"], "sizes": ["small"],
 "configs": [{"name": "lrr", "set": ["warp_scheduler=lrr"]},
             {"name": "gto", "set": ["warp_scheduler=gto"]}],
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"},
             {"name": "ipc", "path": "total.gpu_tot_ipc"}],
 "derived": [{"name": "speedup", "kind": "speedup", "of": "cycles", "baseline": "lrr"},
             {"name": "gm", "kind": "geomean", "of": "speedup"},
             {"name": "best_ipc", "kind": "best", "of": "ipc", "configs": ["lrr", "gto"]}]}
J
claim() {  # ID BODY: one claim object
  printf '{"id": "%s", "section": "test §1", "text": "a claim", "paper": 1, %s}' "$1" "$2"
}
printf '{"claims": [%s, %s, %s]}\n' \
  "$(claim lrr-unit '"band": [1, 1], "each": {"metric": "speedup", "config": "lrr"}')" \
  "$(claim best-ge-gto '"order": [{"metric": "best_ipc", "benchmark": "kmeans"}, ">=", {"metric": "ipc", "config": "gto", "benchmark": "kmeans"}]')" \
  "$(claim gm-lrr '"band": [0.999, 1.001], "value": {"metric": "gm", "config": "lrr"}')" \
  >"$ex/demo.claims.json"
cp "$ex/demo.json" "$ex/owl.json"
printf '{"claims": [%s]}\n' \
  "$(claim cannot-hold '"band": [2, 3], "value": {"metric": "gm", "config": "lrr"}')" >"$ex/owl.claims.json"
cp "$ex/demo.json" "$ex/haws.json"
printf '{"claims": [%s]}\n' \
  "$(claim broken '"band": [1, 2], "value": {"metric": "gm", "confg": "lrr"}')" >"$ex/haws.claims.json"
cp "$ex/demo.json" "$ex/fetch-dram.json"
printf '{"claims": [%s]}\n' \
  "$(claim typo '"band": [1, 2], "value": {"metric": "gmm", "config": "lrr"}')" >"$ex/fetch-dram.claims.json"

run --list >"$tmp/list" 2>&1; rc=$?
[ "$rc" -eq 0 ] || fail "--list exited $rc"
grep -Eq '^demo +ready +3 +experiments/demo.json +Demonstration' "$tmp/list" || fail "--list: demo: $(cat "$tmp/list")"
grep -Eq '^ccws +missing +- +experiments/ccws.json +Cache-Conscious' "$tmp/list" || fail "--list: ccws: $(cat "$tmp/list")"
[ "$(grep -cE '^(mascar|ccws|owl|fetch-dram|haws|demo) ' "$tmp/list")" -eq 6 ] || fail "--list lacks papers"
run nosuch >"$tmp/o" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "unknown paper 'nosuch' (known: mascar, ccws" "$tmp/o" || fail "unknown paper: $rc $(cat "$tmp/o")"
run ccws --out "$tmp/ccws" >"$tmp/o" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "ccws: its experiment is not in this version yet" "$tmp/o" \
  || fail "paper without files: $rc $(cat "$tmp/o")"
run haws --out "$tmp/haws" >"$tmp/o" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "haws.claims.json: claim 'broken' (\$.claims\[0\].value): unknown key 'confg'" "$tmp/o" \
  || fail "malformed claims file: $rc $(cat "$tmp/o")"
[ ! -e "$tmp/haws" ] || fail "a malformed claims file still ran the sweep"

# a best over a config the experiment lacks is refused when the file is read
sed 's/"configs": \["lrr", "gto"\]/"configs": ["lrr", "gtoo"]/' "$ex/demo.json" >"$tmp/bb.json"
"$ws" sweep "$tmp/bb.json" --out "$tmp/bb" >"$tmp/o" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q 'bb.json: \$.derived\[2\].configs\[1\]: expected the name of a config' "$tmp/o" \
  || fail "best over an unknown config: $rc $(cat "$tmp/o")"

needs_cuda "$ws" "the benchmarks"
out="$tmp/out"
# claims that hold: PASS, exit 0, report.md; --size overrides the file's "small"
run demo --size tiny --jobs 2 --out "$out" --bin-dir "$tmp/bin" >"$tmp/o1" 2>"$tmp/e1"; rc=$?
cat "$tmp/o1"
[ "$rc" -eq 0 ] || fail "passing claims exited $rc: $(tail -5 "$tmp/e1")"
grep -qx 'PASS lrr-unit: 2 of 2 in band (min 1 kmeans, max 1 kmeans) vs 1 (\[1, 1\])' "$tmp/o1" \
  || fail "no PASS line for lrr-unit"
grep -Eq '^PASS best-ge-gto: [0-9.]+ >= [0-9.]+ vs 1 \(tolerance 0\)$' "$tmp/o1" || fail "no PASS line for best-ge-gto"
grep -Eq '^PASS gm-lrr: 1 vs 1 \(\[0.999, 1.001\]\)$' "$tmp/o1" || fail "no PASS line for gm-lrr"
[ "$(tail -1 "$tmp/o1")" = "claims: 3 passed, 0 failed, 0 skipped" ] || fail "summary: $(tail -1 "$tmp/o1")"
grep -q '^kmeans,tiny,' "$out/results.csv" || fail "--size tiny did not override the experiment's size"
r="$out/report.md"
[ -s "$r" ] || fail "no report.md"
grep -q '^| verdict | id | section | claim | measured | paper | band |$' "$r" || fail "report.md lacks the claims table"
grep -q '^| PASS | gm-lrr | test §1 | a claim | 1 | 1 | \[0.999, 1.001\] |$' "$r" || fail "report.md row: $(grep gm-lrr "$r")"
grep -q '^- command: `warpsim reproduce --experiments-dir .* demo --size tiny' "$r" || fail "report.md lacks the command"
grep -q '^- simulator: warpsim 0\.1\.0+[0-9a-f]*$' "$r" || fail "report.md lacks the version"
grep -q '^- wall time: [0-9.]* s$' "$r" || fail "report.md lacks the wall time"
grep -q '^None: every run' "$r" || fail "report.md lists failed runs"
# best: one row per benchmark, the config that gave the highest IPC
for b in kmeans coulomb; do
  want=$(awk -F, -v b=$b '$1==b{ if ($9>m || c=="") {m=$9; c=$3} } END{print c}' "$out/results.csv")
  grep -Eq "^best_ipc,$b,tiny,best_ipc,,[0-9.]+,$want$" "$out/derived.csv" || fail "best_ipc of $b is not under $want"
done

# a claim that cannot hold: FAIL, exit 1 (the runs reused)
run owl --size tiny --resume --out "$out" --bin-dir "$tmp/bin" >"$tmp/o2" 2>"$tmp/e2"; rc=$?
[ "$rc" -eq 1 ] || fail "a failing claim exited $rc"
grep -q '4 points, 0 to run' "$tmp/e2" || fail "--resume reran points: $(head -1 "$tmp/e2")"
grep -qx 'FAIL cannot-hold: 1 vs 1 (\[2, 3\])' "$tmp/o2" || fail "no FAIL line: $(cat "$tmp/o2")"
[ "$(tail -1 "$tmp/o2")" = "claims: 0 passed, 1 failed, 0 skipped" ] || fail "summary: $(tail -1 "$tmp/o2")"
grep -q '^| FAIL | cannot-hold |' "$out/report.md" || fail "report.md lacks the FAIL row"

# a claim naming a metric the tables lack: the file's error, exit 2
run fetch-dram --size tiny --resume --out "$out" --bin-dir "$tmp/bin" >"$tmp/o3" 2>"$tmp/e3"; rc=$?
[ "$rc" -eq 2 ] && grep -q "fetch-dram.claims.json: claim 'typo': unknown metric 'gmm'" "$tmp/e3" \
  || fail "unknown metric: $rc $(cat "$tmp/e3")"
[ "$(tail -1 "$tmp/o3")" = "claims: 0 passed, 0 failed, 0 skipped, 1 in error (the claims file)" ] \
  || fail "summary with an error: $(tail -1 "$tmp/o3")"

# a failed run: the claim that needs it is SKIP naming it, the others are
# evaluated, the exit is 1 and report.md lists the run
cat >"$ex/mascar.json" <<'J'
{"name": "f", "benchmarks": ["kmeans"], "sizes": ["tiny"],
 "configs": [{"name": "lrr", "set": ["warp_scheduler=lrr"]},
             {"name": "corrupt", "env": {"WARPSIM_BENCH_CORRUPT": "1"}}],
 "collect": [{"name": "cycles", "path": "total.gpu_tot_sim_cycle"}],
 "derived": [{"name": "speedup", "kind": "speedup", "of": "cycles", "baseline": "lrr"}]}
J
printf '{"claims": [%s, %s]}\n' \
  "$(claim needs-corrupt '"band": [0, 10], "value": {"metric": "speedup", "config": "corrupt", "benchmark": "kmeans"}')" \
  "$(claim lrr-ran '"band": [1, null], "value": {"metric": "cycles", "config": "lrr", "benchmark": "kmeans"}')" \
  >"$ex/mascar.claims.json"
run mascar --jobs 2 --out "$tmp/f" --bin-dir "$tmp/bin" >"$tmp/o4" 2>"$tmp/e4"; rc=$?
cat "$tmp/o4"
[ "$rc" -eq 1 ] || fail "a failed run exited $rc"
grep -q '^SKIP needs-corrupt: speedup of kmeans (tiny, corrupt) has no value: run kmeans tiny corrupt failed (fail) vs 1 (\[0, 10\])$' "$tmp/o4" \
  || fail "no SKIP line naming the failed run"
grep -q '^PASS lrr-ran: ' "$tmp/o4" || fail "the claim on the good run was not evaluated"
[ "$(tail -1 "$tmp/o4")" = "claims: 1 passed, 0 failed, 1 skipped" ] || fail "summary: $(tail -1 "$tmp/o4")"
grep -q '^- kmeans tiny corrupt: fail ' "$tmp/f/report.md" || fail "report.md does not list the failed run"
exit $bad
