#!/usr/bin/env bash
# timing_bench.sh -- `warpsim timing-bench` on one benchmark: a row and a
# total line with thread instructions, cycles, seconds and both rates (the
# counts agree with `warpsim bench run`'s statistics of the same run), with
# --threads 2 both speeds, the speed-up and "same", and usage errors exit 2.
# Needs nvcc and the CUDA shims: exits 77 without.
# Run by ctest: bash timing_bench.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@"; }

run timing-bench --bin-dir "$tmp" triad >"$tmp/out" 2>"$tmp/err"; rc=$?
cat "$tmp/out"
[ "$rc" -eq 0 ] || fail "timing-bench exited $rc: $(tail -3 "$tmp/err")"
num='[0-9]+\.[0-9]{3}'
grep -Eq "^triad +[1-9][0-9]* +[1-9][0-9]* +$num +$num +$num$" "$tmp/out" || fail "no triad row"
grep -Eq "^total +[1-9][0-9]* +[1-9][0-9]* +$num +$num +$num$" "$tmp/out" || fail "no total row"
ti="$(awk '$1 == "triad" { print $2 }' "$tmp/out")"
cy="$(awk '$1 == "triad" { print $3 }' "$tmp/out")"
run bench run triad --size tiny --bin-dir "$tmp" --quiet --config gtx480 \
  --stats-json "$tmp/s.json" >/dev/null 2>&1 || fail "bench run triad failed"
grep -q "\"thread_insns\": $ti," "$tmp/s.json" || fail "thread instructions $ti not in bench run's statistics"
grep -q "\"cycles\": $cy," "$tmp/s.json" || fail "cycles $cy not in bench run's statistics"

# --threads 2: both runs' speeds, the speed-up and "same" statistics, with
# the counts of the run above
run timing-bench --bin-dir "$tmp" --threads 2 triad >"$tmp/out2" 2>"$tmp/err"; rc=$?
cat "$tmp/out2"
[ "$rc" -eq 0 ] || fail "timing-bench --threads 2 exited $rc: $(tail -3 "$tmp/err")"
grep -q "one thread against 2 threads" "$tmp/out2" || fail "--threads 2: no header"
grep -Eq "^triad +$ti +$cy( +$num){6} +[0-9]+\.[0-9]{2}x same$" "$tmp/out2" \
    || fail "--threads 2: no triad row with the counts of one thread and 'same'"
grep -Eq "^total +$ti +$cy( +$num){6} +[0-9]+\.[0-9]{2}x 0 differ$" "$tmp/out2" \
    || fail "--threads 2: no total row"

run timing-bench --size default triad >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "--size default: exit $rc, want 2"
run timing-bench --set nosuchkey=1 triad >/dev/null 2>"$tmp/e"; rc=$?
[ "$rc" -eq 2 ] || fail "bad --set: exit $rc, want 2"
grep -q "unknown parameter 'nosuchkey'" "$tmp/e" || fail "bad --set: message: $(head -c 200 "$tmp/e")"
[ "$bad" -eq 0 ] && echo "timing-bench: ok"
exit "$bad"
