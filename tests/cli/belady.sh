#!/usr/bin/env bash
# belady.sh -- the L1D access stream (docs/l1-trace.md): a run records it
# with --set l1d_trace=FILE; `warpsim belady FILE` replays it and its
# counts equal the run's (L1D accesses, warp instructions) and the run's
# own l1d_belady replay; Belady never misses more than LRU; bad, missing
# and truncated trace files and an uncreatable trace give clear errors and
# a non-zero exit; l1d.unbounded never evicts.
# Run by ctest: bash belady.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }
ptx="$src/tests/kernels/vector_add.ptx"
args=(vector_add --grid 64 --block 256 --arg buf:65536:iotaf32 --arg buf:65536:iotaf32
      --arg buf:65536 --arg u32:16384 --config fx5800 --set warp_scheduler=gto)

# record + in-run replay; the trace is renamed into place, no .tmp left
"$ws" run "$ptx" "${args[@]}" --set l1d_trace="$tmp/t.trc" --set l1d_belady=true \
  --stats-json "$tmp/s.json" >"$out" 2>"$err" || fail "recording run exited $?: $(cat "$err")"
[ -s "$tmp/t.trc" ] || fail "no trace file"
[ -e "$tmp/t.trc.tmp" ] && fail "the .tmp file was left behind"
"$ws" belady "$tmp/t.trc" --json >"$tmp/b.json" 2>"$err" || fail "belady exited $?: $(cat "$err")"
python3 - "$tmp/s.json" "$tmp/b.json" <<'PY' || fail "trace replay differs from the run"
import json, sys
s = json.load(open(sys.argv[1]))["total"]; b = json.load(open(sys.argv[2]))
t = b["total"]
assert t["accesses"] == s["L1D_total_cache_accesses"] > 0, (t["accesses"], s["L1D_total_cache_accesses"])
assert t["accesses"] == s["l1d_replay_accesses"]
assert t["warp_insns"] == s["warp_insns"], (t["warp_insns"], s["warp_insns"])
assert t["lru_misses"] == s["l1d_lru_misses"] and t["belady_misses"] == s["l1d_belady_misses"]
assert abs(t["belady_mpki"] - s["l1d_belady_mpki"]) < 1e-3
assert t["belady_misses"] <= t["lru_misses"]
assert b["sets"] == 32 and b["ways"] == 8 and b["line_bytes"] == 128 and b["kernels"] == 1
assert sum(p["accesses"] for p in b["per_sm"]) == t["accesses"]
assert sum(p["warp_insns"] for p in b["per_sm"]) == t["warp_insns"]
PY
"$ws" belady "$tmp/t.trc" >"$out" 2>"$err" || fail "text belady exited $?"
grep -Eq "^total +[1-9]" "$out" || fail "no total row: $(cat "$out")"
# geometry override: a bigger cache misses no more
"$ws" belady "$tmp/t.trc" --sets 1024 --ways 16 --json >"$tmp/big.json" || fail "--sets/--ways failed"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["total"]; b=json.load(open(sys.argv[2]))
assert b["sets"]==1024 and b["ways"]==16 and b["total"]["lru_misses"]<=a["lru_misses"]' "$tmp/b.json" "$tmp/big.json" \
  || fail "override not applied"

# bad input: not a trace, missing, truncated, no file, bad option
printf 'hello world, not a trace at all.........................\n' >"$tmp/bad.trc"
"$ws" belady "$tmp/bad.trc" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "bad file exited $rc, want 1"
grep -q "bad.trc.*not an L1D trace" "$err" || fail "bad file message: $(cat "$err")"
"$ws" belady "$tmp/none.trc" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "none.trc: cannot open" "$err" || fail "missing file: $rc $(cat "$err")"
head -c $(( $(stat -c %s "$tmp/t.trc") / 2 )) "$tmp/t.trc" >"$tmp/half.trc"
"$ws" belady "$tmp/half.trc" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "half.trc: offset [0-9]*: truncated" "$err" || fail "truncated: $rc $(cat "$err")"
"$ws" belady >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "no file exited $rc, want 2"
"$ws" belady "$tmp/t.trc" --sets 0 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "--sets 0 exited $rc, want 2"

# a trace that cannot be created: the run fails before cycle 0, naming it
"$ws" run "$ptx" "${args[@]}" --set l1d_trace="$tmp/no/such/dir/t.trc" >"$out" 2>"$err"; rc=$?
[ "$rc" -ne 0 ] || fail "uncreatable trace exited 0"
grep -q "l1d_trace: cannot create '.*no/such/dir/t.trc.tmp'" "$err" || fail "uncreatable message: $(cat "$err")"

# unbounded L1: no eviction, so no more misses than the 32 KB L1 (only first touches)
"$ws" run "$ptx" "${args[@]}" --set l1d.unbounded=true --stats-json "$tmp/u.json" >"$out" 2>"$err" \
  || fail "unbounded run exited $?: $(cat "$err")"
python3 -c 'import json,sys; u=json.load(open(sys.argv[1]))["total"]; s=json.load(open(sys.argv[2]))["total"]
assert u["L1D_evictions"]==0 and u["L1D_total_cache_misses"]<=s["L1D_total_cache_misses"]
assert u["L1D_total_cache_accesses"]==s["L1D_total_cache_accesses"]' "$tmp/u.json" "$tmp/s.json" \
  || fail "unbounded L1 evicted or missed more"
"$ws" run "$ptx" "${args[@]}" --set l1d.unbounded=true --set l1d.set_index=fermi >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "l1d.unbounded = true needs l1d.set_index = linear" "$err" \
  || fail "unbounded + fermi: $rc $(cat "$err")"
[ "$bad" -eq 0 ] && echo "belady: ok"
exit "$bad"
