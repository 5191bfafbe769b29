#!/usr/bin/env bash
# hals_hint.sh -- HALS end to end (specs/haws.md 3.2, 7, 9 items 9 and 13):
# the bundled sgemm at size tiny on the k20x machine with
# cta_map=hals, warp_scheduler=hals and hals_hint=*:1 verifies (PASS) and
# its statistics JSON carries dup_mshr_pct and reqs_per_mshr (with
# dup_mshr_window=2000) and the scheduler's groups; against the rr/lrr
# baseline the duplicate-MSHR share falls and the requests per MSHR entry
# rise (item 9); with no hint the hals policies run exactly as rr/lrr; the
# hint also arrives through WARPSIM_LAUNCH_HINT (demangled base name); a bad
# hals_hint exits non-zero naming the key, a bad WARPSIM_LAUNCH_HINT naming
# the variable.  Needs nvcc and the CUDA shims: exits 77 (skipped) without.
# Run by ctest: bash hals_hint.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench_tiny.sh"   # skip without CUDA, $tmp, fail()
HALS=(cta_map=hals warp_scheduler=hals)

bench_tiny k20x sgemm base dup_mshr_window=2000
bench_tiny k20x sgemm hals "${HALS[@]}" "hals_hint=*:1" dup_mshr_window=2000
grep -q 'sgemm (size tiny): PASS' "$tmp/err" "$tmp/out" || fail "sgemm with hals did not PASS"
bench_tiny k20x sgemm hint0 "${HALS[@]}" dup_mshr_window=2000
WARPSIM_LAUNCH_HINT=sgemm_tiled:1 bench_tiny k20x sgemm env "${HALS[@]}"
python3 - "$tmp" <<'PY' || fail "statistics: see above"
import json, sys
load = lambda t: json.load(open("%s/sgemm.%s.json" % (sys.argv[1], t)))["total"]
base, hals, hint0, env = load("base"), load("hals"), load("hint0"), load("env")
for k in ("dup_mshr_pct", "reqs_per_mshr", "dup_mshr_allocs"):
    assert k in hals and k in base, "no %s in the report" % k
assert "reqs_per_mshr" in env and "dup_mshr_pct" not in env, "dup_mshr_pct without its window"
assert hals["policy"]["groups"] > 0, hals["policy"]
assert hals["dup_mshr_pct"] < base["dup_mshr_pct"], (hals["dup_mshr_pct"], base["dup_mshr_pct"])
assert hals["reqs_per_mshr"] > base["reqs_per_mshr"], (hals["reqs_per_mshr"], base["reqs_per_mshr"])
for k in ("cycles", "warp_insns", "l1d_misses", "dup_mshr_pct", "reqs_per_mshr"):
    assert hint0[k] == base[k], "hint 0: %s %s vs rr/lrr %s" % (k, hint0[k], base[k])
assert hint0["policy"]["groups"] == 0, hint0["policy"]
assert env["policy"]["groups"] > 0 and env["cycles"] == hals["cycles"], (env["policy"], env["cycles"])
for t, d in (("rr/lrr", base), ("hals *:1", hals)):
    print("sgemm tiny k20x %-9s cycles %d dup_mshr_pct %.1f reqs_per_mshr %.2f" %
          (t, d["cycles"], d["dup_mshr_pct"], d["reqs_per_mshr"]))
PY

# a bad value: refused before anything runs, naming the key / variable
"$ws" bench run sgemm --size tiny --bin-dir "$tmp" --quiet --timing --config k20x \
    --set hals_hint=sgemm_tiled:4 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] || fail "hals_hint=sgemm_tiled:4 exited 0"
grep -q "hals_hint" "$tmp/err" || fail "no message naming hals_hint: $(tail -2 "$tmp/err")"
WARPSIM_LAUNCH_HINT=sgemm_tiled LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" bench run sgemm \
    --size tiny --bin-dir "$tmp" --quiet --timing --config k20x >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] || fail "WARPSIM_LAUNCH_HINT=sgemm_tiled exited 0"
grep -q "WARPSIM_LAUNCH_HINT" "$tmp/err" || fail "no message naming WARPSIM_LAUNCH_HINT: $(tail -2 "$tmp/err")"
[ "$bad" -eq 0 ] && echo "hals_hint: ok"
exit "$bad"
