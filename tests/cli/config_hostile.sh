#!/usr/bin/env bash
# config_hostile.sh -- hostile configuration input (issue 10): a device
# that never ends, a directory, NUL bytes, a quote that never closes, in
# a file or in --set.  Each is an error (exit 2) naming file:line or
# --set, within a few seconds.
# Run by ctest: bash config_hostile.sh WARPSIM SOURCE_DIR
ws="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }

# expect_error DESCRIPTION PATTERN ARGS...: exit 2 within 20 s, PATTERN in stderr
expect_error() {
  local what="$1" pat="$2"; shift 2
  timeout 20 "$ws" "$@" >"$out" 2>"$err"; local rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, want 2 ($(head -c 300 "$err"))"
  grep -q -- "$pat" "$err" || fail "$what: message '$(head -c 300 "$err")' lacks '$pat'"
}

expect_error "/dev/zero" "/dev/zero:1: NUL byte" config show /dev/zero
expect_error "directory" "'$tmp' is a directory" config show "$tmp"
printf 'l1d.sets = 16\n\0\0\0\n' >"$tmp/nul.cfg"
expect_error "NUL bytes" "nul.cfg:2: NUL byte" config show "$tmp/nul.cfg"
printf 'l1d.sets = 16\n-gpgpu_dram_timing_opt "nbk=16:CCD=3:RRD=6\n' >"$tmp/q.cfg"
expect_error "unterminated quote at EOF" "q.cfg:2: unterminated '\"'" config show "$tmp/q.cfg"
printf -- '-gpgpu_dram_timing_opt "nbk=16:CCD=3\n-gpgpu_n_mem 6\n' >"$tmp/q2.cfg"
expect_error "unterminated quote before an option" "q2.cfg:1: unterminated" config show "$tmp/q2.cfg"
expect_error "unterminated quote in --set" "--set -gpgpu_dram_timing_opt=.*unterminated" \
  config show --set '-gpgpu_dram_timing_opt="nbk=16:CCD=3'
expect_error "bad --set named" "--set l1d.ways=0: " config show --set l1d.ways=0
printf 'n_schedulers = 5\n' >"$tmp/s.cfg"
expect_error "cross-field error located" "n_schedulers set at $tmp/s.cfg:1" config show "$tmp/s.cfg"
# the same through run --timing --config (the path every command shares)
expect_error "run --config DIR" "is a directory" run "$2/tests/kernels/vector_add.ptx" vector_add \
  --grid 1 --block 32 --arg buf:128 --arg buf:128 --arg buf:128 --arg u32:32 --config "$tmp"
exit $bad
