#!/usr/bin/env bash
# threads_identity.sh -- the host threads of the timing model (`--threads N`,
# the configuration key `threads`) change no statistic: each benchmark runs
# at --size tiny on gtx480 through `warpsim bench run` with --threads 1, 2
# and 4, and the statistics JSON files must be byte-identical (cmp); the
# first benchmark also without --threads (threads= stays out of the file).
# First, needing no CUDA, the usage errors of --threads on exec, run, bench
# run, compare and timing-bench: 0, 257, x and a missing value exit 2 with a
# message naming --threads, before anything runs.  The benchmark part needs
# nvcc and the CUDA shims: exits 77 without (after the usage checks).
# Run by ctest: bash threads_identity.sh WARPSIM SOURCE_DIR [BENCHMARKS [BIN_DIR]]
#   BENCHMARKS  names separated by commas or spaces; empty or "all": every
#               benchmark of bench/manifest.json
#   BIN_DIR     the built programs (built there when missing or stale);
#               default: a temporary folder
#   WS_THREADS_NS="1 2 4"  the thread counts (the first is the reference)
ws="$1"; src="$2"; list="${3:-all}"; bindir="${4:-}"
ns=(${WS_THREADS_NS:-1 2 4})
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@" >"$tmp/out" 2>"$tmp/err"; }

# ---- usage errors (no CUDA needed) ----
vadd=("$src/tests/kernels/vector_add.ptx" vector_add_i32 --grid 1 --block 64
      --arg buf:256:iota32 --arg buf:256:iota32 --arg buf:256 --arg i32:64 --dump 2:4)
usage_case() {  # WHAT ARGS...: must exit 2, name --threads, print nothing on stdout
  local what="$1"; shift
  run "$@"; local rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, want 2"
  grep -q -- "--threads" "$tmp/err" || fail "$what: the message does not name --threads: $(head -c 300 "$tmp/err")"
  [ -s "$tmp/out" ] && fail "$what: something ran: $(head -c 200 "$tmp/out")"
}
for v in 0 257 x; do
  usage_case "exec --threads $v" exec --threads "$v" -- /bin/echo RAN
  usage_case "run --threads $v" run "${vadd[@]}" --threads "$v"
  usage_case "bench run --threads $v" bench run triad --size tiny --bin-dir "$tmp/bin" --threads "$v"
  usage_case "compare --threads $v" compare --bin-dir "$tmp/bin" --threads "$v" triad
  usage_case "timing-bench --threads $v" timing-bench --bin-dir "$tmp/bin" --threads "$v" triad
done
usage_case "exec --threads (no value)" exec --threads
usage_case "run --threads (no value)" run "${vadd[@]}" --threads
usage_case "bench run --threads (no value)" bench run triad --bin-dir "$tmp/bin" --threads
usage_case "compare --threads (no value)" compare --bin-dir "$tmp/bin" triad --threads
usage_case "timing-bench --threads (no value)" timing-bench --bin-dir "$tmp/bin" triad --threads
[ -e "$tmp/bin/triad" ] && fail "a usage error still built triad"
[ "$bad" -eq 0 ] && echo "usage errors: ok"
[ "$bad" -eq 0 ] || exit 1

# ---- statistics at 1, 2 and 4 threads ----
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the bundled benchmarks"
if [ "$list" = all ] || [ -z "${list// /}" ]; then
  names=($(python3 -c 'import json, sys
print(" ".join(b["name"] for b in json.load(open(sys.argv[1]))["benchmarks"]))' \
           "$src/bench/manifest.json")) || { echo "FAIL: reading bench/manifest.json"; exit 1; }
else
  IFS=', ' read -r -a names <<<"$list"
fi
[ -n "$bindir" ] || bindir="$tmp/bin"
stats() {  # BENCH TAG [OPTIONS...]: $tmp/BENCH.TAG.json; false when the run failed
  local b="$1" tag="$2"; shift 2
  run bench run "$b" --size tiny --bin-dir "$bindir" --quiet --config gtx480 "$@" \
      --stats-json "$tmp/$b.$tag.json"
  local rc=$?
  [ "$rc" -eq 0 ] || fail "$b ($tag) exited $rc: $(tail -3 "$tmp/err")"
  return "$rc"
}
json_diff() {  # A B: the first JSON paths whose values differ (else cmp's line)
  python3 - "$1" "$2" <<'PY' 2>/dev/null || cmp "$1" "$2" | head -1
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
out = []
def walk(x, y, path):
    if type(x) != type(y) or not isinstance(x, (dict, list)):
        if x != y: out.append(f"{path or '/'}: {x!r} vs {y!r}"[:160])
        return
    keys = list(x) if isinstance(x, dict) else range(max(len(x), len(y)))
    if isinstance(x, dict): keys += [k for k in y if k not in x]
    for k in keys:
        get = lambda v: v.get(k, "<absent>") if isinstance(v, dict) else (v[k] if k < len(v) else "<absent>")
        walk(get(x), get(y), f"{path}/{k}")
walk(a, b, "")
print("; ".join(out[:8]) + (f"; ... {len(out)} in all" if len(out) > 8 else "") if out else "same JSON, different bytes")
PY
}
# the runs are bench_dram_NAME's first (tests/bench/run_bench.sh dram: full
# memory system, lrr): its statistics at one thread, when it left them in
# BINDIR after this warpsim was built, are the reference, else it is run
same=(--set memory_model=full --set warp_scheduler=lrr)
start=$SECONDS; differ=0; reused=0
for b in "${names[@]}"; do
  ref="$tmp/$b.t${ns[0]}.json"
  if [ "${ns[0]}" = 1 ] && [ "$bindir/$b.lrr.stats.json" -nt "$ws" ]; then
    cp "$bindir/$b.lrr.stats.json" "$ref"; reused=$((reused + 1))
  else
    stats "$b" "t${ns[0]}" "${same[@]}" --threads "${ns[0]}" || continue
  fi
  for n in "${ns[@]:1}"; do
    stats "$b" "t$n" "${same[@]}" --threads "$n" || continue
    if ! cmp -s "$ref" "$tmp/$b.t$n.json"; then
      fail "$b: the statistics at --threads $n differ from --threads ${ns[0]}:" \
           "$(json_diff "$ref" "$tmp/$b.t$n.json")"
      differ=$((differ + 1))
    fi
  done
  if [ "$b" = "${names[0]}" ] && stats "$b" none "${same[@]}"; then
    cmp -s "$ref" "$tmp/$b.none.json" \
      || fail "$b: the statistics without --threads differ from --threads ${ns[0]}"
  fi
done
echo "${#names[@]} benchmarks at --threads ${ns[*]}: $differ differ ($((SECONDS - start)) s;" \
     "$reused references from bench_dram)"
[ "$bad" -eq 0 ] && echo "PASS threads_identity"
exit "$bad"
