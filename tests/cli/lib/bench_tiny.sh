# bench_tiny.sh -- sourced by command-level tests that compare timing runs of
# bundled benchmarks: `bench_tiny CONFIG BENCH TAG [SETTING...]` runs BENCH
# at size tiny on the timing model with machine CONFIG and each SETTING as a
# --set, the statistics JSON in $tmp/BENCH.TAG.json (plus the options in the
# array BENCH_TINY_OPTS, e.g. --per-kernel), and calls `fail` with the last
# lines of its stderr when it does not exit 0.  Uses the caller's $ws
# (warpsim), $tmp (built programs and outputs) and fail().
BENCH_TINY_OPTS=()
bench_tiny() {
  local cfg="$1" b="$2" tag="$3"; shift 3
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" bench run "$b" --size tiny --bin-dir "$tmp" --quiet \
      --timing --config "$cfg" "${sets[@]}" "${BENCH_TINY_OPTS[@]}" \
      --stats-json "$tmp/$b.$tag.json" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq 0 ] || fail "$b ($tag) exited $rc: $(tail -3 "$tmp/err")"
}
