#!/usr/bin/env bash
# plugin.sh -- policy plug-ins (`--plugin FILE.so`, examples/plugins/ built
# into <build>/plugins): `policies` lists a plug-in's scheduler; a plug-in
# of another ABI version, a missing file and a shared object without the
# entry point are refused with a message naming the file and exit 2,
# before anything runs (policies, run, exec); `run` and `compare` use the
# plug-in's scheduler (compare needs nvcc and the CUDA shims: that part
# alone is skipped without them).
# Run by ctest: bash plugin.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
plugdir="$(cd "$(dirname "$ws")" && pwd)/plugins"
young="$plugdir/warp_youngest.so"; badabi="$plugdir/warp_badabi.so"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@"; }
ptx="$src/tests/kernels/vector_add.ptx"
args=(--grid 32 --block 256 --arg buf:32768:iotaf32 --arg buf:32768:iotaf32 --arg buf:32768 --arg u32:8192)
[ -e "$young" ] && [ -e "$badabi" ] || { echo "FAIL: example plug-ins not built in $plugdir"; exit 1; }

# (a) policies lists the plug-in's scheduler, marked, next to the built-ins
run policies --plugin "$young" >"$out" 2>"$err" || fail "policies --plugin exited $?: $(cat "$err")"
grep -Eq '^  youngest .*\(plug-in ' "$out" || fail "policies does not list youngest as a plug-in"
grep -q '^  gto ' "$out" || fail "policies --plugin lost the built-ins"
run policies >"$out" 2>&1
grep -q 'youngest' "$out" && fail "youngest listed without --plugin"
# a relative path works too (made absolute by the command)
(cd "$plugdir" && run policies --plugin warp_youngest.so) >"$out" 2>"$err" \
  || fail "policies --plugin warp_youngest.so (relative) exited $?: $(cat "$err")"

# run: the plug-in scheduler is used; without --plugin it is unknown (exit 2)
run run "$ptx" vector_add "${args[@]}" --plugin "$young" --set warp_scheduler=youngest \
  >"$out" 2>"$err" || fail "run with youngest exited $?: $(cat "$err")"
grep -q ': OK$' "$out" || fail "run with youngest did not finish OK"
run run "$ptx" vector_add "${args[@]}" --set warp_scheduler=youngest >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "youngest without --plugin: exit $rc, want 2"

# (c) another ABI version: refused with the ABI message, exit 2, nothing run
abi_msg="$badabi was built against policy ABI [0-9]+; this warpsim has ABI [0-9]+: rebuild it against this warpsim's include/warpsim_policy.h"
run policies --plugin "$badabi" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "policies with the bad-ABI plug-in: exit $rc, want 2"
grep -Eq "$abi_msg" "$err" || fail "policies: no ABI message: $(cat "$err")"
[ -s "$out" ] && fail "policies printed a listing despite the bad plug-in"
run run "$ptx" vector_add "${args[@]}" --timing --plugin "$badabi" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "run with the bad-ABI plug-in: exit $rc, want 2"
grep -Eq "$abi_msg" "$err" || fail "run: no ABI message: $(cat "$err")"
grep -q 'OK' "$out" && fail "run ran the kernel despite the bad plug-in"
run exec --plugin "$badabi" -- sh -c 'echo RAN' >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "exec with the bad-ABI plug-in: exit $rc, want 2"
grep -q RAN "$out" && fail "exec started the program despite the bad plug-in"

# (d) a missing file and a shared object that is not a plug-in
run policies --plugin "$tmp/nosuch.so" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "missing plug-in: exit $rc, want 2"
grep -q "$tmp/nosuch.so" "$err" || fail "missing plug-in: message does not name it: $(cat "$err")"
run run "$ptx" vector_add "${args[@]}" --plugin "$tmp/nosuch.so" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "run with a missing plug-in: exit $rc, want 2"
notplug="$(ldd "$ws" 2>/dev/null | awk '$1 ~ /^libm\.so/ { print $3 }')"
[ -e "$notplug" ] || notplug="$(ldd "$ws" 2>/dev/null | awk '$1 ~ /^libc\.so/ { print $3 }')"
if [ -e "$notplug" ]; then
  run policies --plugin "$notplug" >"$out" 2>"$err"; rc=$?
  [ "$rc" -eq 2 ] || fail "$notplug as a plug-in: exit $rc, want 2"
  grep -q "$notplug" "$err" || fail "not a plug-in: message does not name $notplug: $(cat "$err")"
  grep -q "warpsim_policy_plugin" "$err" || fail "not a plug-in: message does not name the entry point"
else
  fail "found no system shared object to try as a plug-in"
fi
run policies --plugin "a:b.so" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "a plug-in path with ':': exit $rc, want 2"

# (b) compare: the plug-in's scheduler in every run, verified, with its row
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
[ "$bad" -eq 0 ] || exit "$bad"
needs_cuda "$ws" "the benchmarks for compare"
run compare --plugin "$young" --schedulers lrr,youngest --size tiny --bin-dir "$tmp" kmeans \
  >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 0 ] || fail "compare with youngest exited $rc: $(tail -3 "$err")"
cat "$out"
grep -Eq '^benchmark +lrr +youngest$' "$out" || fail "no header naming lrr and youngest"
grep -Eq '^kmeans +[1-9][0-9]* +1\.00x +[01]\.[0-9]{2} +[1-9][0-9]* +[0-9]+\.[0-9]{2}x +[01]\.[0-9]{2}$' \
  "$out" || fail "no complete kmeans row for lrr and youngest"
run compare --schedulers lrr,youngest --bin-dir "$tmp" kmeans >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "compare naming youngest without --plugin: exit $rc, want 2"
[ "$bad" -eq 0 ] && echo "plugin: ok"
exit "$bad"
