#!/usr/bin/env bash
# bench_pmem.sh -- `warpsim bench pmem`, OWL's PMEM classification, on two
# tiny benchmarks on owl28: the streaming triad is memory-bound (Type-1,
# PMEM >= 1.4), kmeans at tiny is not (Type-2); each row has both runs'
# cycles and IPC, the perfect-L1 run is faster, the JSON agrees with the
# table, and usage errors (unknown benchmark, bad --set, unwritable
# --json) exit 2 before anything runs.  Needs nvcc and the CUDA shims:
# exits 77 (skipped) without them.
# Run by ctest: bash bench_pmem.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@"; }

run bench pmem --bin-dir "$tmp" --json "$tmp/p.json" triad kmeans >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 0 ] || fail "bench pmem exited $rc: $(tail -3 "$tmp/err")"
cat "$tmp/out"
grep -q '^warpsim bench pmem: owl28, size tiny; PMEM = IPC(perfect L1) / IPC, Type-1 when >= 1.4$' \
  "$tmp/out" || fail "no title naming owl28, tiny and the threshold"
grep -Eq '^benchmark +cycles +perfect-L1 +IPC +IPC-pL1 +PMEM +type$' "$tmp/out" || fail "no header"
row() { grep -E "^$1 " "$tmp/out"; }
for b in triad kmeans; do
  line="$(row $b)"
  echo "$line" | grep -Eq "^$b +[1-9][0-9]* +[1-9][0-9]* +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2}x Type-[12]$" \
    || { fail "malformed row: $line"; continue; }
  set -- $line
  [ "$3" -lt "$2" ] || fail "$b: perfect-L1 cycles $3 not below $2"
  grep -q "\"$b\": {\"cycles\": $2, \"perfect_l1_cycles\": $3," "$tmp/p.json" \
    || fail "JSON of $b disagrees with the table ($2, $3)"
done
row triad | grep -q ' Type-1$' || fail "triad (streaming) is not Type-1: $(row triad)"
pm="$(row triad | awk '{print $6}' | tr -d x)"
awk -v p="$pm" 'BEGIN { exit !(p >= 1.4) }' || fail "triad PMEM $pm < 1.4"
row kmeans | grep -q ' Type-2$' || fail "kmeans at tiny is not Type-2: $(row kmeans)"
grep -q '"type": 1' "$tmp/p.json" && grep -q '"type": 2' "$tmp/p.json" || fail "JSON types"
grep -q '^2 benchmarks: 1 Type-1, 1 Type-2, 0 failed$' "$tmp/out" || fail "no summary line"

run bench pmem --bin-dir "$tmp" nosuchbench >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown benchmark: exit $rc, want 2"
grep -q "unknown benchmark 'nosuchbench'" "$tmp/e" || fail "unknown benchmark: $(cat "$tmp/e")"
run bench pmem --bin-dir "$tmp" --set nosuchkey=1 triad >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 2 ] || fail "bad --set: exit $rc, want 2"
grep -q "nosuchkey" "$tmp/e" || fail "bad --set: message does not name the key: $(cat "$tmp/e")"
run bench pmem --bin-dir "$tmp" --json /nonexistent/dir/p.json triad >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 2 ] || fail "unwritable --json: exit $rc, want 2"
grep -q "\-\-json '/nonexistent/dir/p.json': cannot write there" "$tmp/e" \
  || fail "unwritable --json: $(cat "$tmp/e")"
[ -s "$tmp/o" ] && fail "unwritable --json: something ran: $(cat "$tmp/o")"
[ "$bad" -eq 0 ] && echo "bench_pmem: ok"
exit "$bad"
