#!/usr/bin/env bash
# exec_usage.sh -- `warpsim exec` without CUDA: usage errors exit 2, a missing
# program 127, options reach the program as WARPSIM_* variables, the shim
# folder leads LD_LIBRARY_PATH, and the program's exit status comes through.
# Run by ctest: bash exec_usage.sh WARPSIM SOURCE_DIR
ws="$1"
out="$(mktemp)"; err="$(mktemp)"; trap 'rm -f "$out" "$err"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

"$ws" exec >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "exec without a program exited $rc, want 2"
grep -q "no program given" "$err" || fail "missing-program message: $(cat "$err")"
"$ws" exec --frob -- true >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown option exited $rc, want 2"
grep -q -- "--stats-json" "$err" || fail "unknown option does not list the valid ones"
"$ws" exec --arch sm_x -- true >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "bad --arch exited $rc, want 2"
"$ws" exec --sms 0 -- true >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "--sms 0 exited $rc, want 2"
"$ws" exec --help >"$out" 2>"$err" || fail "exec --help failed"
grep -q "nvcc -cudart shared" "$out" || fail "exec --help does not explain how to build"

libdir="$(dirname "$ws")/lib"
if [ -e "$libdir/libcudart.so.13" ]; then
  "$ws" exec -- /nonexistent/prog >"$out" 2>"$err"; rc=$?
  [ "$rc" -eq 127 ] || fail "missing program exited $rc, want 127"
  "$ws" exec --stats-json /tmp/s.json --per-kernel --quiet --sms 4 --arch sm_75 -- \
    sh -c 'echo "$WARPSIM_STATS_JSON|$WARPSIM_STATS_PER_KERNEL|$WARPSIM_QUIET|$WARPSIM_SMS|$WARPSIM_ARCH|$LD_LIBRARY_PATH"; exit 3' \
    >"$out" 2>"$err"; rc=$?
  [ "$rc" -eq 3 ] || fail "the program's exit status 3 came back as $rc"
  grep -q "^/tmp/s.json|1|1|4|sm_75|" "$out" || fail "options not passed on: $(cat "$out")"
  first="$(cut -d'|' -f6 "$out" | cut -d: -f1)"
  [ -e "$first/libcudart.so.13" ] || fail "LD_LIBRARY_PATH does not start with the shims: $first"
else
  # shims not built (no CUDA headers): exec must say so, not run the program
  "$ws" exec -- true >"$out" 2>"$err"; rc=$?
  [ "$rc" -eq 127 ] || fail "exec without shims exited $rc, want 127"
  grep -q "cannot find the CUDA shim" "$err" || fail "no message about the missing shims"
fi
[ "$bad" -eq 0 ] && echo "exec_usage: ok"
exit "$bad"
