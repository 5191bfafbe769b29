#!/usr/bin/env bash
# bench_hostile.sh -- `warpsim bench run` with bad or many options (issue
# 10): an unwritable --stats-json, a bad --set and an unsupported --arch
# are usage errors (exit 2) naming the option before anything is built;
# many options all reach the program; a PASS whose statistics cannot be
# read is no success.
# Run by ctest: bash bench_hostile.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }
. "$src/tests/cli/lib/needs_cuda.sh"

# expect_usage DESCRIPTION PATTERN ARGS...: exit 2, PATTERN in stderr, no build
expect_usage() {
  local what="$1" pat="$2"; shift 2
  WARPSIM_NVCC=/nonexistent/nvcc "$ws" bench run triad --bin-dir "$tmp/bin" "$@" \
    >"$out" 2>"$err"; local rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, want 2 ($(head -c 300 "$err"))"
  grep -q -- "$pat" "$err" || fail "$what: message '$(head -c 300 "$err")' lacks '$pat'"
  ! grep -q "warpsim-bench-\|building" "$err" || fail "$what: went on to build or run: $(cat "$err")"
}
expect_usage "unwritable --stats-json" "--stats-json '$tmp/no/such/dir/s.json': cannot write" \
  --stats-json "$tmp/no/such/dir/s.json"
expect_usage "bad --set" "--set l1d.ways=0: parameter 'l1d.ways'" --set l1d.ways=0
expect_usage "bad --set key" "--set l1d.wayz=2: unknown parameter" --timing --set l1d.wayz=2
expect_usage "--arch sm_20" "sm_20 is not supported" --arch sm_20
expect_usage "--arch junk" "expected sm_NN" --arch sm_8x
[ -e "$tmp/no" ] && fail "the writability check left something behind"
[ $bad -eq 0 ] || exit 1

needs_cuda "$ws" "the benchmark triad"
# 40 --set options (80 words): all reach exec; the last value wins
sets=()
for i in $(seq 1 39); do sets+=(--set "l1d.ways=$((i % 4 + 1))"); done
sets+=(--set l1d.ways=8)
LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" bench run triad --size tiny --bin-dir "$tmp/bin" --quiet --stats-json "$tmp/s.json" \
  --timing-report "$tmp/report.txt" "${sets[@]}" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 0 ] || fail "40 --set: exit $rc: $(tail -5 "$err")"
grep -q "PASS" "$out" || fail "40 --set: no PASS: $(cat "$out")"
grep -q "\"l1d.ways\": {\"value\": 8," "$tmp/report.txt" || fail "40 --set: the last --set did not apply"
# --arch with three digits runs
LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" bench run triad --size tiny --bin-dir "$tmp/bin" --quiet --arch sm_120 \
  >"$out" 2>"$err" || fail "--arch sm_120: exit $?: $(tail -3 "$err")"
exit $bad
