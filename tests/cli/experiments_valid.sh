#!/usr/bin/env bash
# experiments_valid.sh -- every experiment file in experiments/ is accepted
# by `warpsim sweep --dry-run` (names, configs, derived metrics, figures,
# sparse `benchmarks` lists checked when the file is read), and every
# paper that `warpsim reproduce --list` shows has a readable claims file
# (not `broken`).  Nothing is run.  Run by ctest: bash experiments_valid.sh
# WARPSIM SOURCE_DIR
ws="$1"; src="$2"
bad=0
fail() { echo "FAIL: $*"; bad=1; }
n=0
for f in "$src"/experiments/*.json; do
    case "$f" in *.claims.json) continue ;; esac
    out="$("$ws" sweep "$f" --dry-run --bench-dir "$src/bench" 2>&1)"; rc=$?
    [ "$rc" -eq 0 ] || fail "$(basename "$f"): sweep --dry-run exited $rc: $(echo "$out" | tail -3)"
    n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n experiment files found in $src/experiments"
list="$("$ws" reproduce --list --experiments-dir "$src/experiments" 2>&1)" || fail "reproduce --list failed"
echo "$list" | grep -E '^[a-z-]+ +broken' && fail "a claims file cannot be read"
echo "$list" | grep -Eq '^mascar +ready +[0-9]+ ' || fail "mascar is not ready: $list"
[ "$bad" -eq 0 ] && echo "PASS: $n experiment files"
exit "$bad"
