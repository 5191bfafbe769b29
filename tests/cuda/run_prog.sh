#!/usr/bin/env bash
# run_prog.sh -- run a program built by CMake through `warpsim exec` and check
# its exit status, stdout and stderr, and that every file stderr cites (matches
# of FILES_RE, at least one) exists.
# Run by ctest: bash run_prog.sh WARPSIM PROGRAM OUTDIR RC STDOUT_RE STDERR_RE [FILES_RE]
ws="$1"; prog="$2"; out="$3"; want_rc="$4"; want_out="$5"; want_err="$6"; files_re="$7"
name="$(basename "$prog")"
mkdir -p "$out" || exit 1
rm -rf "$out/tmp-$name"; mkdir -p "$out/tmp-$name"
TMPDIR="$out/tmp-$name" "$ws" exec -- "$prog" >"$out/$name.out" 2>"$out/$name.err"
rc=$?
bad=0
fail() { echo "FAIL: $*"; bad=1; }
[ "$rc" -eq "$want_rc" ] || fail "exit status $rc, want $want_rc"
grep -Eq "$want_out" "$out/$name.out" || fail "stdout does not match /$want_out/"
[ -z "$want_err" ] || grep -Eq "$want_err" "$out/$name.err" || fail "stderr does not match /$want_err/"
if [ -n "$files_re" ]; then
  cited="$(grep -oE "$files_re" "$out/$name.err" | sort -u)"
  [ -n "$cited" ] || fail "stderr cites no file matching /$files_re/"
  for f in $cited; do [ -f "$f" ] || fail "stderr cites '$f', which does not exist"; done
fi
if [ "$bad" -ne 0 ]; then
  echo "--- stdout"; cat "$out/$name.out"; echo "--- stderr"; cat "$out/$name.err"
fi
[ "$bad" -eq 0 ] && echo "$name: ok"
exit "$bad"
