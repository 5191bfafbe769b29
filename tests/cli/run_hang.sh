#!/usr/bin/env bash
# run_hang.sh -- `warpsim run` of kernels that never finish, functional and
# on the timing model: --progress-limit stops a busy loop with exit 1 and a
# dump naming every warp and its PTX line; Ctrl-C (SIGINT) during a kernel
# with no limit prints the same dump and exits 130; a bad limit is a usage
# error.
# Run by ctest: bash run_hang.sh WARPSIM SOURCE_DIR
ws="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
ptx="$tmp/hang.ptx"
cat >"$ptx" <<'PTX'
.version 7.0
.target sm_70
.address_size 64
.visible .entry busy()
{
LOOP:
  bra.uni LOOP;
  ret;
}
PTX

for mode in "" "--timing"; do
  # a small limit: stops at once, with where each of the 4 warps is
  "$ws" run "$ptx" busy --grid 2 --block 64 --progress-limit 50000 $mode \
    >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 1 ] || fail "${mode:-functional}: progress limit exited $rc, want 1"
  grep -q "WS_ERR_TIMEOUT" "$tmp/err" || fail "${mode:-functional}: no WS_ERR_TIMEOUT"
  grep -q "no progress" "$tmp/err" || fail "${mode:-functional}: no 'no progress'"
  n="$(grep -c "PTX line 7 (bra)" "$tmp/err")"
  [ "$n" -eq 4 ] || fail "${mode:-functional}: $n warps in the dump, want 4"
  [ "$bad" -ne 0 ] && { cat "$tmp/err"; break; }

  # no limit: only Ctrl-C stops it.  Job control gives the background job
  # a SIGINT that is not ignored, as in an interactive shell.
  set -m
  "$ws" run "$ptx" busy --grid 2 --block 64 --progress-limit 0 $mode \
    >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  set +m
  sleep 1
  kill -INT -- "-$pid"   # the whole job, as Ctrl-C signals the foreground group
  wait "$pid"; rc=$?
  [ "$rc" -eq 130 ] || fail "${mode:-functional}: SIGINT exited $rc, want 130"
  grep -q "interrupted (SIGINT)" "$tmp/err" || fail "${mode:-functional}: no 'interrupted'"
  n="$(grep -c "PTX line 7 (bra)" "$tmp/err")"
  [ "$n" -eq 4 ] || fail "${mode:-functional}: $n warps in the SIGINT dump, want 4"
  [ "$bad" -ne 0 ] && { cat "$tmp/err"; break; }
done

# the timing configuration's key sets the limit too
"$ws" run "$ptx" busy --grid 1 --block 32 --set progress_limit=30000 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "--set progress_limit exited $rc, want 1"
grep -q "progress_limit 30000" "$tmp/err" || fail "--set progress_limit=30000 not applied"

"$ws" run "$ptx" busy --grid 1 --block 32 --progress-limit lots >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "bad --progress-limit exited $rc, want 2"
grep -q "progress-limit 'lots'" "$tmp/err" || fail "bad --progress-limit not named"

[ "$bad" -eq 0 ] && echo "run_hang: ok"
exit "$bad"
