#!/usr/bin/env bash
# run_timing.sh -- `warpsim run --timing`: a kernel on the timing model
# prints cycles and the report, writes the JSON report and time series,
# and gives byte-identical JSON across two runs; configuration errors exit
# 2 before anything runs.
# Run by ctest: bash run_timing.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }
ptx="$src/tests/kernels/vector_add.ptx"
args=(--grid 32 --block 256 --arg buf:32768:iotaf32 --arg buf:32768:iotaf32 --arg buf:32768 --arg u32:8192)

for i in 1 2; do
  "$ws" run "$ptx" vector_add "${args[@]}" --config gtx480 --set timeseries_interval=200 \
    --stats-json "$tmp/r$i.json" --timeseries "$tmp/t$i.csv" --dump 2:4 >"$out" 2>"$err" \
    || fail "run --timing ($i) exited $?: $(cat "$err")"
done
grep -Eq "^  cycles [1-9][0-9]*, IPC [0-9.]+, L1D hits" "$out" || fail "no cycles line"
grep -Eq "^  gpu_sim_cycle = [1-9]" "$out" || fail "no text report"
grep -q "regs_source = " "$out" || fail "register source not reported"
grep -q "\[3\] [0-9]* 0x40c00000 6$" "$out" || fail "wrong result under timing: $(grep '\[3\]' "$out")"
cmp -s "$tmp/r1.json" "$tmp/r2.json" || fail "JSON reports of two runs differ"
cmp -s "$tmp/t1.csv" "$tmp/t2.csv" || fail "time series of two runs differ"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["launches"][0]["gpu_sim_cycle"]>0; assert d["config"]["params"]["l1d.sets"]["value"]==64' "$tmp/r1.json" \
  || fail "JSON report does not parse or lacks gpu_sim_cycle"
head -1 "$tmp/t1.csv" | grep -q "^launch,kernel,cycle," || fail "time series header"
[ "$(wc -l < "$tmp/t1.csv")" -ge 2 ] || fail "no samples in the time series"

"$ws" run "$ptx" vector_add "${args[@]}" --set l1d.ways=0 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "bad --set exited $rc, want 2"
grep -q "l1d.ways" "$err" || fail "bad --set message: $(cat "$err")"
"$ws" run "$ptx" vector_add "${args[@]}" --stats-json "$tmp/x.json" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "--stats-json without timing exited $rc, want 2"
# functional runs are unchanged: no cycles line
"$ws" run "$ptx" vector_add "${args[@]}" >"$out" 2>"$err" || fail "functional run failed"
grep -q "cycles" "$out" && fail "functional run printed cycles"
[ "$bad" -eq 0 ] && echo "run_timing: ok"
exit "$bad"
