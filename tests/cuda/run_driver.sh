#!/usr/bin/env bash
# run_driver.sh -- the driver-API test: run driver_test (a C program linked
# with the libcuda.so.1 shim) through `warpsim exec` on the committed PTX and
# check its output, exit status and JSON statistics.
# Run by ctest: bash run_driver.sh WARPSIM DRIVER_TEST FILE.ptx OUTDIR
ws="$1"; prog="$2"; ptx="$3"; out="$4"
mkdir -p "$out" || exit 1
json="$out/driver.json"; rm -f "$json"
"$ws" exec --per-kernel --stats-json "$json" -- "$prog" "$ptx" >"$out/out" 2>"$out/err"
rc=$?
bad=0
fail() { echo "FAIL: $*"; bad=1; }
[ "$rc" -eq 0 ] || fail "exit status $rc"
grep -q "driver_test: PASS" "$out/out" || fail "no PASS on stdout"
grep -q "^warpsim: launch 2: saxpy grid (1,1,1) block (32,1,1)" "$out/err" || fail "no per-launch line"
grep -q "^warpsim: saxpy: 2 launches, 4 CTAs" "$out/err" || fail "no per-kernel summary"
grep -q '"api": "driver"' "$json" || fail "JSON does not name the driver API"
grep -Eq '"name": "saxpy", "launches": 2, "ctas": 4, "warps": 13, "warp_insns": [1-9]' "$json" \
  || fail "JSON kernel counts"
grep -q '"launches": \[' "$json" || fail "JSON has no launch list with --per-kernel"
if [ "$bad" -ne 0 ]; then
  echo "--- stdout"; cat "$out/out"; echo "--- stderr"; cat "$out/err"; cat "$json"
fi
[ "$bad" -eq 0 ] && echo "driver_api: ok"
exit "$bad"
