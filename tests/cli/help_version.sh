#!/usr/bin/env bash
# help_version.sh -- `warpsim --help` / `--version` succeed; unknown
# commands and options exit 2 and list the valid ones.
# Run by ctest: bash help_version.sh WARPSIM SOURCE_DIR
ws="$1"
out="$(mktemp)"; err="$(mktemp)"; trap 'rm -f "$out" "$err"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

"$ws" --help >"$out" 2>"$err" || fail "--help exited $?"
for c in check kernels run demo emu-bench; do
  grep -q "^  $c " "$out" || fail "--help does not list '$c'"
done
"$ws" --version >"$out" 2>"$err" || fail "--version exited $?"
grep -Eq '^warpsim [0-9]+\.[0-9]+\.[0-9]+$' "$out" || fail "--version printed: $(cat "$out")"

"$ws" frobnicate >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown command exited $rc, want 2"
grep -q "unknown command 'frobnicate'" "$err" || fail "no 'unknown command' message: $(cat "$err")"
grep -q "valid commands:.*check.*run.*demo" "$err" || fail "valid commands not listed: $(cat "$err")"

"$ws" --frob >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown global option exited $rc, want 2"

"$ws" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "no arguments exited $rc, want 2"

"$ws" demo --frob >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown subcommand option exited $rc, want 2"
grep -q "unknown option '--frob'" "$err" || fail "no 'unknown option' message: $(cat "$err")"
grep -q "valid options" "$err" || fail "valid options not listed: $(cat "$err")"

for c in check kernels run demo emu-bench; do
  "$ws" "$c" --help >"$out" 2>"$err" || fail "$c --help exited $?"
  grep -q "usage: warpsim $c" "$out" || fail "$c --help prints no usage"
done

[ "$bad" -eq 0 ] && echo "help_version: ok"
exit "$bad"
