# bench_tiny.sh -- sourced (after `ws="$1"`) by command-level tests that
# compare timing runs of bundled benchmarks.  Sourcing it skips the test
# (exit 77) without nvcc or the CUDA shims (needs_cuda.sh), makes $tmp
# (removed at exit) and defines `fail MESSAGE` (prints it, sets bad=1).
# Then `bench_tiny CONFIG BENCH TAG [SETTING...]` runs BENCH at size tiny
# on the timing model with machine CONFIG and each SETTING as a --set, the
# statistics JSON in $tmp/BENCH.TAG.json (plus the options in the array
# BENCH_TINY_OPTS, e.g. --per-kernel), and calls `fail` with the last lines
# of its stderr when it does not exit 0.
. "$(dirname "${BASH_SOURCE[0]}")/needs_cuda.sh"
needs_cuda "$ws" "the bundled benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
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
