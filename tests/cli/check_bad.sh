#!/usr/bin/env bash
# check_bad.sh -- `warpsim check` on every tests/ptx_bad/*.ptx must exit 2
# and print the text given on that file's first line, `// EXPECT: text`,
# as part of a `file:line:col: error:` message on stderr.
# Run by ctest: bash check_bad.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
out="$(mktemp)"; err="$(mktemp)"; trap 'rm -f "$out" "$err"' EXIT
bad=0; n=0
fail() { echo "FAIL: $*"; bad=1; }

for f in "$src"/tests/ptx_bad/*.ptx; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  name="$(basename "$f")"
  first="$(head -n 1 "$f")"
  case "$first" in
    "// EXPECT: "*) expect="${first#// EXPECT: }" ;;
    *) fail "$name: first line is not '// EXPECT: text'"; continue ;;
  esac
  "$ws" check "$f" >"$out" 2>"$err"; rc=$?
  if [ "$rc" -ne 2 ]; then
    fail "$name: exit $rc, want 2 (stderr: $(head -c 300 "$err"))"
  elif ! grep -qF -- "$expect" "$err"; then
    fail "$name: stderr lacks '$expect'; got: $(head -c 300 "$err")"
  elif ! grep -Eq ':[0-9]+:[0-9]+: error: ' "$err"; then
    fail "$name: message is not file:line:col: error: ...; got: $(head -c 300 "$err")"
  fi
done
[ "$n" -gt 0 ] || fail "no tests/ptx_bad/*.ptx files found"
[ "$bad" -eq 0 ] && echo "check_bad: ok ($n bad files rejected with their messages)"
exit "$bad"
