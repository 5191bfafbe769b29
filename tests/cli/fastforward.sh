#!/usr/bin/env bash
# fastforward.sh -- fast-forward (timing_from / timing_kernels / timing_every,
# `warpsim exec --timing-from ...`) on a bundled two-kernel benchmark
# (backprop, size tiny): the program still verifies with the untimed launch
# run functionally; the timed kernel's statistics equal a full timing run's
# when it starts from the same state (one SM, the simple memory backend,
# and policies that carry nothing from one launch to the next: gto and
# icount fetch; rr fetch keeps its turn and the L2 its lines, so the full
# machine would differ); the reports say what ran functionally; bad values
# are usage errors naming the key.  Skipped (77) without nvcc.
# Run by ctest: bash fastforward.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the backprop benchmark"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@" >"$tmp/out" 2>"$tmp/err"; }

run bench run backprop --size tiny --bin-dir "$tmp" --quiet
[ $? -eq 0 ] || { echo "FAIL: building backprop: $(tail -3 "$tmp/err")"; exit 1; }
same=(--set n_clusters=1 --set memory_model=simple --set warp_scheduler=gto
      --set fetch_policy=icount)
adj=_Z17bp_adjust_weightsPKfS0_PfS1_i

ff_run() {  # TAG OPTIONS...
  local tag="$1"; shift
  run exec --quiet "${same[@]}" "$@" --stats-json "$tmp/$tag.stats.json" \
      --timing-report "$tmp/$tag.json" -- "$tmp/backprop" --size tiny
  local rc=$?
  [ "$rc" -eq 0 ] || fail "$tag: exec exited $rc: $(tail -3 "$tmp/err")"
  grep -q "^PASS backprop" "$tmp/out" || fail "$tag: backprop did not verify"
}
ff_run full
ff_run kernels --timing-kernels bp_adjust_weights
ff_run from --timing-from "$adj:1"
ff_run every --timing-every 2
ff_run never --timing-from bp_layer_forward:2

python3 - "$tmp" "$adj" <<'PY' || fail "fast-forward statistics"
import json, sys
tmp, adj = sys.argv[1], sys.argv[2]
def rep(tag): return json.load(open(f"{tmp}/{tag}.json"))
def stats(tag): return json.load(open(f"{tmp}/{tag}.stats.json"))
ok = True
def check(cond, what):
    global ok
    if not cond: print("FAIL:", what); ok = False
full = rep("full")
check([l["kernel"] for l in full["launches"]][1] == adj, "full run: 2nd launch is not " + adj)
check("functional_launches" not in full["total"], "a full run reports fast-forward fields")
want = {k: v for k, v in full["launches"][1].items() if k != "start_cycle"}
for tag in ("kernels", "from"):
    r = rep(tag)
    check(len(r["launches"]) == 1 and r["launches"][0]["kernel"] == adj, f"{tag}: timed launches")
    got = {k: v for k, v in r["launches"][0].items() if k != "start_cycle"}
    diff = [k for k in want if want[k] != got.get(k)]
    check(not diff, f"{tag}: timed kernel differs from the full run in {diff[:8]}")
    check(r["total"]["functional_launches"] == 1, f"{tag}: functional_launches")
    check(r["total"]["functional_warp_insns"] == full["launches"][0]["warp_insns"],
          f"{tag}: functional_warp_insns")
    s = stats(tag)["total"]
    check(s.get("untimed_launches") == 1, f"{tag}: statistics JSON untimed_launches")
    check(s["reg_hash"] == stats("full")["total"]["reg_hash"], f"{tag}: exit registers differ")
    print(f"{tag}: {adj} {got['gpu_sim_cycle']} cycles, as the full run's")
e = rep("every")
check([l["kernel"] for l in e["launches"]] == [full["launches"][0]["kernel"]], "every 2: timed")
check(e["total"]["functional_launches"] == 1, "every 2: functional_launches")
n = rep("never")
check(n["total"]["launches"] == 0 and n["total"]["functional_launches"] == 2,
      "timing_from a launch that never comes: nothing timed")
sys.exit(0 if ok else 1)
PY

run exec --timing-from bp_adjust_weights -- "$tmp/backprop" --size tiny
grep -q "fast-forward: 1 launch run functionally" "$tmp/err" || fail "text report: no fast-forward line"
grep -q "fast-forward: 1 of the launches ran functionally" "$tmp/err" \
    || fail "statistics: no fast-forward line"

for b in "--timing-from k:0" "--timing-kernels a,,b" "--timing-every 0"; do
  key=$(echo "$b" | sed 's/--timing-\([a-z]*\).*/timing_\1/')
  run exec $b -- "$tmp/backprop" --size tiny; rc=$?
  [ "$rc" -eq 2 ] || fail "'$b' exited $rc, want 2"
  grep -q "$key" "$tmp/err" || fail "'$b': the error does not name $key: $(cat "$tmp/err")"
  grep -q "PASS" "$tmp/out" && fail "'$b': the program ran"
done
[ "$bad" -eq 0 ] && echo "PASS fastforward"
exit "$bad"
